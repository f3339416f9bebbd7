package expr

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// exprCase is one table row: an expression and the document it runs on
// (both extended JSON), and either the expected value (extended JSON,
// "missing" for an absent result) or the expected error code.
type exprCase struct {
	name string
	expr string
	doc  string
	want string
	code int32
	msg  string
}

func parseJSON(t testing.TB, s string) bson.D {
	t.Helper()
	var d bson.D
	if err := bson.UnmarshalExtJSON([]byte(s), false, &d); err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return d
}

func parseValue(t testing.TB, s string) any {
	return parseJSON(t, `{"v": `+s+`}`)[0].Value
}

var testNow = bson.DateTime(time.Date(2024, 3, 15, 12, 0, 0, 0, time.UTC).UnixMilli())

func evalCase(t testing.TB, exprJSON, docJSON string) (any, error) {
	t.Helper()
	spec := parseValue(t, exprJSON)
	e, err := Compile(spec, NewScope())
	if err != nil {
		return nil, err
	}
	doc := bson.D{}
	if docJSON != "" {
		doc = parseJSON(t, docJSON)
	}
	return e.Eval(NewEnv(doc, testNow))
}

func runCases(t *testing.T, cases []exprCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := evalCase(t, c.expr, c.doc)
			if c.code != 0 {
				var me *mongoerr.Error
				if !errors.As(err, &me) {
					t.Fatalf("%s: want error %d, got %v (%v)", c.expr, c.code, got, err)
				}
				if me.Code != c.code {
					t.Fatalf("%s: want code %d, got %d: %s", c.expr, c.code, me.Code, me.Msg)
				}
				if c.msg != "" && me.Msg != c.msg {
					t.Fatalf("%s: want message\n  %q\ngot\n  %q", c.expr, c.msg, me.Msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: unexpected error %v", c.expr, err)
			}
			var want any = value.Missing{}
			if c.want != "missing" {
				want = parseValue(t, c.want)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s:\n want %#v (%s)\n  got %#v (%s)", c.expr, want, typeName(want), got, typeName(got))
			}
		})
	}
}
