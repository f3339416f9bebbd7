package aggregate

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// fakeDB is an in-memory stand-in for the engine: collections by name and
// a Query function that scans them, recording the filters it was given.
type fakeDB struct {
	colls   map[string][]bson.D
	queries []bson.D
}

func newFakeDB() *fakeDB { return &fakeDB{colls: map[string][]bson.D{}} }

func (f *fakeDB) context() *Context {
	return &Context{
		Ctx:  context.Background(),
		DB:   "test",
		Coll: "input",
		Now:  bson.DateTime(1700000000000),
		Query: func(db, coll string, filter bson.D, sort bson.D, limit int64, _ *ScanStats) ([]bson.D, error) {
			f.queries = append(f.queries, filter)
			m, err := query.Compile(filter, query.Options{})
			if err != nil {
				return nil, err
			}
			var out []bson.D
			for _, d := range f.colls[coll] {
				if m.Matches(d) {
					out = append(out, d)
				}
			}
			return out, nil
		},
		ReplaceCollection: func(db, coll string, _ bson.D, docs []bson.D) error {
			f.colls[coll] = docs
			return nil
		},
		MergeLookup: func(db, coll string, on []string, doc bson.D) (bson.D, bool, error) {
			for _, d := range f.colls[coll] {
				match := true
				for _, o := range on {
					if value.Compare(value.Lookup(d, o), value.Lookup(doc, o)) != 0 {
						match = false
					}
				}
				if match {
					return d, true, nil
				}
			}
			return nil, false, nil
		},
		MergeWrite: func(db, coll string, old bson.D, newDoc bson.D, insert bool) error {
			if insert {
				f.colls[coll] = append(f.colls[coll], newDoc)
				return nil
			}
			for i, d := range f.colls[coll] {
				if value.Compare(value.Get(d, "_id"), value.Get(old, "_id")) == 0 {
					f.colls[coll][i] = newDoc
				}
			}
			return nil
		},
		CollStats: func(db, coll string, spec bson.D) (bson.D, error) {
			return bson.D{{Key: "ns", Value: db + "." + coll}, {Key: "count", Value: int64(len(f.colls[coll]))}}, nil
		},
		IndexStats: func(db, coll string) ([]bson.D, error) {
			return []bson.D{{{Key: "name", Value: "_id_"}}}, nil
		},
	}
}

// runPipeline parses and runs pipeline over input.
func runPipeline(t *testing.T, ctx *Context, input []bson.D, pipeline bson.A) ([]bson.D, error) {
	t.Helper()
	p, err := Parse(pipeline, ctx)
	if err != nil {
		return nil, err
	}
	it, err := p.Run(NewSliceIterator(input))
	if err != nil {
		return nil, err
	}
	return Drain(it)
}

// ejson renders documents as canonical extended JSON, so comparisons check
// field order and numeric types too.
func ejson(t *testing.T, docs []bson.D) string {
	t.Helper()
	s := "["
	for i, d := range docs {
		b, err := bson.MarshalExtJSON(d, true, false)
		if err != nil {
			t.Fatalf("marshal %v: %v", d, err)
		}
		if i > 0 {
			s += ","
		}
		s += string(b)
	}
	return s + "]"
}

// docs parses relaxed/canonical extended JSON documents.
func docs(t *testing.T, js ...string) []bson.D {
	t.Helper()
	out := make([]bson.D, 0, len(js))
	for _, j := range js {
		var d bson.D
		if err := bson.UnmarshalExtJSON([]byte(j), false, &d); err != nil {
			t.Fatalf("bad ext json %s: %v", j, err)
		}
		out = append(out, normalize(d).(bson.D))
	}
	return out
}

// normalize converts the driver's decoded values to the engine's model.
func normalize(v any) any {
	switch x := v.(type) {
	case bson.D:
		out := make(bson.D, len(x))
		for i, e := range x {
			out[i] = bson.E{Key: e.Key, Value: normalize(e.Value)}
		}
		return out
	case bson.A:
		out := make(bson.A, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	case bson.Null:
		return nil
	}
	return v
}

func pipe(t *testing.T, js string) bson.A {
	t.Helper()
	var wrapper bson.D
	if err := bson.UnmarshalExtJSON([]byte(`{"p":`+js+`}`), false, &wrapper); err != nil {
		t.Fatalf("bad pipeline %s: %v", js, err)
	}
	return normalize(wrapper[0].Value).(bson.A)
}

type pipelineCase struct {
	name     string
	input    []string
	pipeline string
	want     []string // canonical-ish extended JSON documents (parsed, then re-rendered)
}

func runCases(t *testing.T, cases []pipelineCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := newFakeDB()
			got, err := runPipeline(t, db.context(), docs(t, c.input...), pipe(t, c.pipeline))
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if g, w := ejson(t, got), ejson(t, docs(t, c.want...)); g != w {
				t.Errorf("\n got %s\nwant %s", g, w)
			}
		})
	}
}

type errorCase struct {
	name     string
	pipeline string
	code     int32
	msg      string
	input    []string
}

func runErrorCases(t *testing.T, cases []errorCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := newFakeDB()
			_, err := runPipeline(t, db.context(), docs(t, c.input...), pipe(t, c.pipeline))
			if err == nil {
				t.Fatalf("no error, want %d %q", c.code, c.msg)
			}
			me, ok := err.(*mongoerr.Error)
			if !ok {
				t.Fatalf("error %T %v is not a *mongoerr.Error", err, err)
			}
			if me.Code != c.code || (c.msg != "" && me.Msg != c.msg) {
				t.Errorf("got %d %q\nwant %d %q", me.Code, me.Msg, c.code, c.msg)
			}
		})
	}
}
