package update

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// js parses relaxed Extended JSON into a document, keeping field order:
// 1 is an int32, 1.0 a double, {"$numberLong": "1"} an int64.
func js(t testing.TB, s string) bson.D {
	t.Helper()
	if s == "" {
		return nil
	}
	var d bson.D
	if err := bson.UnmarshalExtJSON([]byte(s), false, &d); err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return d
}

func jsDocs(t testing.TB, s string) []bson.D {
	t.Helper()
	if s == "" {
		return nil
	}
	var docs []bson.D
	for _, v := range js(t, `{"a": `+s+`}`)[0].Value.(bson.A) {
		docs = append(docs, v.(bson.D))
	}
	return docs
}

// updateCase is one row of the table-driven tests: the document before,
// the update, and either the exact document after (field order and numeric
// types checked) with the modified flag, or mongod's error.
type updateCase struct {
	name     string
	doc      string
	update   string
	filters  string // arrayFilters, as a JSON array
	pos      int    // positional $ index; 0 means none unless usePos
	usePos   bool
	insert   bool
	want     string
	modified bool
	code     int32
	msg      string
}

func runCases(t *testing.T, cases []updateCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc := js(t, tc.doc)
			before := valueString(doc)
			pos := -1
			if tc.usePos {
				pos = tc.pos
			}
			u, err := Compile(js(t, tc.update), Options{ArrayFilters: jsDocs(t, tc.filters), Now: 1700000000000})
			var got bson.D
			var modified bool
			if err == nil {
				got, modified, err = u.Apply(doc, pos, tc.insert)
			}
			if after := valueString(doc); after != before {
				t.Fatalf("input document mutated: %s -> %s", before, after)
			}
			checkResult(t, got, modified, err, tc.want, tc.modified, tc.code, tc.msg)
		})
	}
}

func checkResult(t *testing.T, got bson.D, modified bool, err error, want string, wantMod bool, code int32, msg string) {
	t.Helper()
	if code != 0 {
		me, ok := err.(*mongoerr.Error)
		if !ok {
			t.Fatalf("want error %d %q, got %v (doc %s)", code, msg, err, valueString(got))
		}
		if me.Code != code || (msg != "" && me.Msg != msg) {
			t.Fatalf("want error %d %q\n got error %d %q", code, msg, me.Code, me.Msg)
		}
		return
	}
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	w := js(t, want)
	if !identical(got, w) {
		t.Fatalf("document mismatch\n got: %s\nwant: %s", valueString(got), valueString(w))
	}
	if modified != wantMod {
		t.Fatalf("modified = %v, want %v", modified, wantMod)
	}
}
