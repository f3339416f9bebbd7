package projection

import (
	"errors"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

type D = bson.D
type A = bson.A

func extJSON(v any) string {
	b, err := bson.MarshalExtJSON(v, false, false)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// journal is the manual's inventory document ("Project Fields to Return
// from Query").
var journal = D{
	{Key: "_id", Value: int32(1)}, {Key: "item", Value: "journal"}, {Key: "status", Value: "A"},
	{Key: "size", Value: D{{Key: "h", Value: int32(14)}, {Key: "w", Value: int32(21)}, {Key: "uom", Value: "cm"}}},
	{Key: "instock", Value: A{D{{Key: "warehouse", Value: "A"}, {Key: "qty", Value: int32(5)}}, D{{Key: "warehouse", Value: "C"}, {Key: "qty", Value: int32(15)}}}},
}

func apply(t *testing.T, spec D, opts Options, doc D, pos int) D {
	t.Helper()
	p, err := Compile(spec, opts)
	if err != nil {
		t.Fatalf("Compile(%v): %v", extJSON(spec), err)
	}
	before := extJSON(doc)
	out, err := p.Apply(doc, pos)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if extJSON(doc) != before {
		t.Fatalf("Apply modified its input")
	}
	return out
}

func TestInclusionExclusion(t *testing.T) {
	cases := []struct {
		name string
		spec D
		want D
	}{
		{"include", D{{Key: "item", Value: int32(1)}, {Key: "status", Value: int32(1)}},
			D{{Key: "_id", Value: int32(1)}, {Key: "item", Value: "journal"}, {Key: "status", Value: "A"}}},
		{"include keeps document order", D{{Key: "status", Value: true}, {Key: "item", Value: 1.0}},
			D{{Key: "_id", Value: int32(1)}, {Key: "item", Value: "journal"}, {Key: "status", Value: "A"}}},
		{"suppress _id", D{{Key: "item", Value: int32(1)}, {Key: "status", Value: int32(1)}, {Key: "_id", Value: int32(0)}},
			D{{Key: "item", Value: "journal"}, {Key: "status", Value: "A"}}},
		{"exclude", D{{Key: "status", Value: int32(0)}, {Key: "instock", Value: int32(0)}},
			D{{Key: "_id", Value: int32(1)}, {Key: "item", Value: "journal"}, {Key: "size", Value: D{{Key: "h", Value: int32(14)}, {Key: "w", Value: int32(21)}, {Key: "uom", Value: "cm"}}}}},
		{"only _id excluded", D{{Key: "_id", Value: int32(0)}},
			D{{Key: "item", Value: "journal"}, {Key: "status", Value: "A"}, {Key: "size", Value: D{{Key: "h", Value: int32(14)}, {Key: "w", Value: int32(21)}, {Key: "uom", Value: "cm"}}},
				{Key: "instock", Value: A{D{{Key: "warehouse", Value: "A"}, {Key: "qty", Value: int32(5)}}, D{{Key: "warehouse", Value: "C"}, {Key: "qty", Value: int32(15)}}}}}},
		{"only _id included", D{{Key: "_id", Value: int32(1)}}, D{{Key: "_id", Value: int32(1)}}},
		{"embedded field", D{{Key: "item", Value: int32(1)}, {Key: "status", Value: int32(1)}, {Key: "size.uom", Value: int32(1)}},
			D{{Key: "_id", Value: int32(1)}, {Key: "item", Value: "journal"}, {Key: "status", Value: "A"}, {Key: "size", Value: D{{Key: "uom", Value: "cm"}}}}},
		{"embedded as nested document", D{{Key: "size", Value: D{{Key: "uom", Value: int32(1)}}}},
			D{{Key: "_id", Value: int32(1)}, {Key: "size", Value: D{{Key: "uom", Value: "cm"}}}}},
		{"exclude embedded", D{{Key: "size.uom", Value: int32(0)}, {Key: "instock", Value: int32(0)}},
			D{{Key: "_id", Value: int32(1)}, {Key: "item", Value: "journal"}, {Key: "status", Value: "A"}, {Key: "size", Value: D{{Key: "h", Value: int32(14)}, {Key: "w", Value: int32(21)}}}}},
		{"through array", D{{Key: "item", Value: int32(1)}, {Key: "instock.qty", Value: int32(1)}},
			D{{Key: "_id", Value: int32(1)}, {Key: "item", Value: "journal"}, {Key: "instock", Value: A{D{{Key: "qty", Value: int32(5)}}, D{{Key: "qty", Value: int32(15)}}}}}},
		{"exclude through array", D{{Key: "instock.warehouse", Value: int32(0)}, {Key: "size", Value: int32(0)}},
			D{{Key: "_id", Value: int32(1)}, {Key: "item", Value: "journal"}, {Key: "status", Value: "A"}, {Key: "instock", Value: A{D{{Key: "qty", Value: int32(5)}}, D{{Key: "qty", Value: int32(15)}}}}}},
		{"missing field", D{{Key: "nope", Value: int32(1)}}, D{{Key: "_id", Value: int32(1)}}},
		{"exclusion with _id included", D{{Key: "_id", Value: int32(1)}, {Key: "item", Value: int32(0)}, {Key: "size", Value: int32(0)}, {Key: "instock", Value: int32(0)}},
			D{{Key: "_id", Value: int32(1)}, {Key: "status", Value: "A"}}},
		{"slice last", D{{Key: "item", Value: int32(1)}, {Key: "instock", Value: D{{Key: "$slice", Value: int32(-1)}}}},
			D{{Key: "_id", Value: int32(1)}, {Key: "item", Value: "journal"}, {Key: "instock", Value: A{D{{Key: "warehouse", Value: "C"}, {Key: "qty", Value: int32(15)}}}}}},
		{"slice alone is an exclusion", D{{Key: "instock", Value: D{{Key: "$slice", Value: int32(1)}}}, {Key: "size", Value: int32(0)}},
			D{{Key: "_id", Value: int32(1)}, {Key: "item", Value: "journal"}, {Key: "status", Value: "A"}, {Key: "instock", Value: A{D{{Key: "warehouse", Value: "A"}, {Key: "qty", Value: int32(5)}}}}}},
		{"slice skip limit", D{{Key: "_id", Value: int32(0)}, {Key: "instock", Value: D{{Key: "$slice", Value: A{int32(1), int32(5)}}}}, {Key: "item", Value: int32(0)}, {Key: "status", Value: int32(0)}, {Key: "size", Value: int32(0)}},
			D{{Key: "instock", Value: A{D{{Key: "warehouse", Value: "C"}, {Key: "qty", Value: int32(15)}}}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := apply(t, c.spec, Options{}, journal, -1)
			if extJSON(got) != extJSON(c.want) {
				t.Errorf("got  %s\nwant %s", extJSON(got), extJSON(c.want))
			}
		})
	}
}

func TestSliceForms(t *testing.T) {
	doc := D{{Key: "_id", Value: int32(1)}, {Key: "a", Value: A{int32(1), int32(2), int32(3), int32(4), int32(5)}}, {Key: "s", Value: "x"}}
	cases := []struct {
		arg  any
		want A
	}{
		{int32(2), A{int32(1), int32(2)}},
		{int32(-2), A{int32(4), int32(5)}},
		{int32(10), A{int32(1), int32(2), int32(3), int32(4), int32(5)}},
		{int32(-10), A{int32(1), int32(2), int32(3), int32(4), int32(5)}},
		{int32(0), A{}},
		{A{int32(1), int32(2)}, A{int32(2), int32(3)}},
		{A{int32(-2), int32(1)}, A{int32(4)}},
		{A{int32(-10), int32(2)}, A{int32(1), int32(2)}},
		{A{int32(10), int32(2)}, A{}},
	}
	for _, c := range cases {
		got := apply(t, D{{Key: "a", Value: D{{Key: "$slice", Value: c.arg}}}, {Key: "_id", Value: int32(0)}, {Key: "s", Value: int32(0)}}, Options{}, doc, -1)
		want := D{{Key: "a", Value: c.want}}
		if extJSON(got) != extJSON(want) {
			t.Errorf("$slice %v: got %s want %s", c.arg, extJSON(got), extJSON(want))
		}
	}
	// A non-array field is returned unchanged.
	got := apply(t, D{{Key: "s", Value: D{{Key: "$slice", Value: int32(1)}}}}, Options{}, doc, -1)
	if extJSON(got) != extJSON(doc) {
		t.Errorf("slice of a string: %s", extJSON(got))
	}
}

func TestPositional(t *testing.T) {
	// Manual, "$ (projection)": grades >= 85.
	filter, err := query.Compile(D{{Key: "semester", Value: int32(1)}, {Key: "grades", Value: D{{Key: "$gte", Value: int32(85)}}}}, query.Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc := D{{Key: "_id", Value: int32(1)}, {Key: "semester", Value: int32(1)}, {Key: "grades", Value: A{int32(70), int32(87), int32(90)}}}
	ok, idx := filter.MatchPosition(doc)
	if !ok {
		t.Fatal("filter does not match")
	}
	p, err := Compile(D{{Key: "grades.$", Value: int32(1)}}, Options{Filter: filter})
	if err != nil {
		t.Fatal(err)
	}
	if !p.NeedsPosition() {
		t.Fatal("NeedsPosition")
	}
	got, err := p.Apply(doc, idx)
	if err != nil {
		t.Fatal(err)
	}
	if want := (D{{Key: "_id", Value: int32(1)}, {Key: "grades", Value: A{int32(87)}}}); extJSON(got) != extJSON(want) {
		t.Errorf("got %s want %s", extJSON(got), extJSON(want))
	}
	// Array of documents, matched through a dotted query path.
	filter, _ = query.Compile(D{{Key: "grades.mean", Value: D{{Key: "$gt", Value: int32(70)}}}}, query.Options{})
	doc = D{{Key: "_id", Value: int32(7)}, {Key: "grades", Value: A{D{{Key: "grade", Value: int32(80)}, {Key: "mean", Value: int32(75)}}, D{{Key: "grade", Value: int32(85)}, {Key: "mean", Value: int32(90)}}}}}
	ok, idx = filter.MatchPosition(doc)
	p, _ = Compile(D{{Key: "grades.$", Value: int32(1)}}, Options{Filter: filter})
	got, err = p.Apply(doc, idx)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if want := (D{{Key: "_id", Value: int32(7)}, {Key: "grades", Value: A{D{{Key: "grade", Value: int32(80)}, {Key: "mean", Value: int32(75)}}}}}); extJSON(got) != extJSON(want) {
		t.Errorf("got %s want %s", extJSON(got), extJSON(want))
	}
	if _, err := p.Apply(doc, -1); mongoCode(err) != 51246 {
		t.Errorf("no position: %v", err)
	}
}

func TestElemMatchProjection(t *testing.T) {
	// Manual, "$elemMatch (projection)": schools.
	doc := D{{Key: "_id", Value: int32(1)}, {Key: "zipcode", Value: "63109"}, {Key: "students", Value: A{
		D{{Key: "name", Value: "john"}, {Key: "school", Value: int32(102)}, {Key: "age", Value: int32(10)}},
		D{{Key: "name", Value: "jess"}, {Key: "school", Value: int32(102)}, {Key: "age", Value: int32(11)}},
		D{{Key: "name", Value: "jeff"}, {Key: "school", Value: int32(108)}, {Key: "age", Value: int32(15)}},
	}}}
	got := apply(t, D{{Key: "students", Value: D{{Key: "$elemMatch", Value: D{{Key: "school", Value: int32(102)}}}}}}, Options{}, doc, -1)
	want := D{{Key: "_id", Value: int32(1)}, {Key: "students", Value: A{D{{Key: "name", Value: "john"}, {Key: "school", Value: int32(102)}, {Key: "age", Value: int32(10)}}}}}
	if extJSON(got) != extJSON(want) {
		t.Errorf("got %s want %s", extJSON(got), extJSON(want))
	}
	got = apply(t, D{{Key: "students", Value: D{{Key: "$elemMatch", Value: D{{Key: "school", Value: int32(999)}}}}}}, Options{}, doc, -1)
	if want := (D{{Key: "_id", Value: int32(1)}}); extJSON(got) != extJSON(want) {
		t.Errorf("no match: got %s", extJSON(got))
	}
	// The $elemMatch field comes after the other included fields.
	got = apply(t, D{{Key: "students", Value: D{{Key: "$elemMatch", Value: D{{Key: "school", Value: int32(108)}}}}}, {Key: "zipcode", Value: int32(1)}}, Options{}, doc, -1)
	want = D{{Key: "_id", Value: int32(1)}, {Key: "zipcode", Value: "63109"}, {Key: "students", Value: A{D{{Key: "name", Value: "jeff"}, {Key: "school", Value: int32(108)}, {Key: "age", Value: int32(15)}}}}}
	if extJSON(got) != extJSON(want) {
		t.Errorf("order: got %s want %s", extJSON(got), extJSON(want))
	}
}

func mongoCode(err error) int32 {
	var me *mongoerr.Error
	if errors.As(err, &me) {
		return me.Code
	}
	return 0
}

func TestProjectionErrors(t *testing.T) {
	eqA, _ := query.Compile(D{{Key: "a", Value: int32(1)}}, query.Options{})
	cases := []struct {
		name string
		spec D
		opts Options
		code int32
		msg  string
	}{
		{"exclusion in inclusion", D{{Key: "a", Value: int32(1)}, {Key: "b", Value: int32(0)}}, Options{}, 31254, "Cannot do exclusion on field b in inclusion projection"},
		{"inclusion in exclusion", D{{Key: "a", Value: int32(0)}, {Key: "b", Value: int32(1)}}, Options{}, 31253, "Cannot do inclusion on field b in exclusion projection"},
		{"nested mixing", D{{Key: "a", Value: D{{Key: "b", Value: int32(1)}, {Key: "c", Value: int32(0)}}}}, Options{}, 31254, "Cannot do exclusion on field c in inclusion projection"},
		{"path collision", D{{Key: "a", Value: int32(1)}, {Key: "a.b", Value: int32(1)}}, Options{}, 31249, "Path collision at a.b remaining portion b"},
		{"path collision leaf", D{{Key: "a.b", Value: int32(1)}, {Key: "a", Value: int32(1)}}, Options{}, 31250, "Path collision at a"},
		{"literal in exclusion", D{{Key: "a", Value: int32(0)}, {Key: "b", Value: "x"}}, Options{}, 31310, `Cannot use an expression b: "x" in an exclusion projection`},
		{"expression in exclusion", D{{Key: "a", Value: int32(0)}, {Key: "b", Value: D{{Key: "$add", Value: A{int32(1), int32(2)}}}}}, Options{}, 31252, "Cannot use expression other than $meta in exclusion projection"},
		{"empty sub-projection", D{{Key: "a", Value: D{}}}, Options{}, 51270, "An empty sub-projection is not a valid value. Found empty object at path"},
		{"dollar field", D{{Key: "$a", Value: int32(1)}}, Options{}, 16410, "FieldPath field names may not start with '$'. Consider using $getField or $setField."},
		{"unknown expression", D{{Key: "a", Value: D{{Key: "$foo", Value: int32(1)}}}}, Options{}, 31325, "Unknown expression $foo"},
		// A $slice that is neither the find form nor an aggregation $slice
		// (projection_parser.cpp, parseSubObjectAsExpression).
		{"slice bad", D{{Key: "a", Value: D{{Key: "$slice", Value: "x"}}}}, Options{}, 28667, `Invalid $slice syntax. The given syntax { $slice: "x" } did not match the find() syntax because :: Location31273: $slice only supports numbers and [skip, limit] arrays :: The given syntax did not match the expression $slice syntax. :: caused by :: Expression $slice takes at least 2 arguments, and at most 3, but 1 were passed in.`},
		{"slice arity", D{{Key: "a", Value: D{{Key: "$slice", Value: A{int32(1)}}}}}, Options{}, 28667, "Invalid $slice syntax. The given syntax { $slice: [ 1 ] } did not match the find() syntax because :: Location31272: $slice array argument should be of form [skip, limit] :: The given syntax did not match the expression $slice syntax. :: caused by :: Expression $slice takes at least 2 arguments, and at most 3, but 1 were passed in."},
		{"slice limit in exclusion", D{{Key: "b", Value: int32(0)}, {Key: "a", Value: D{{Key: "$slice", Value: A{int32(1), int32(0)}}}}}, Options{}, 31252, "Invalid $slice syntax. The given syntax { $slice: [ 1, 0 ] } did not match the find() syntax because :: Location31259: $slice limit must be positive, got 0 :: The given syntax did not match the expression $slice syntax. :: caused by :: Cannot use expression other than $meta in exclusion projection"},
		{"elemMatch scalar", D{{Key: "a", Value: D{{Key: "$elemMatch", Value: int32(1)}}}}, Options{}, 31274, "elemMatch: Invalid argument, object required, but got int"},
		{"elemMatch nested", D{{Key: "a.b", Value: D{{Key: "$elemMatch", Value: D{{Key: "x", Value: int32(1)}}}}}}, Options{}, 31275, "Cannot use $elemMatch projection on a nested field."},
		{"positional on an empty path", D{{Key: ".$", Value: int32(1)}}, Options{Filter: eqA}, 5392900, "Projection on field .$ is invalid"},
		{"positional twice", D{{Key: "a.$", Value: int32(1)}, {Key: "c", Value: int32(1)}, {Key: "a.b.$", Value: int32(1)}}, Options{Filter: eqA}, 31276, "Cannot specify more than one positional projection per query."},
		{"positional then elemMatch", D{{Key: "a.$", Value: int32(1)}, {Key: "b", Value: D{{Key: "$elemMatch", Value: D{{Key: "x", Value: int32(1)}}}}}}, Options{Filter: eqA}, 31255, "Cannot specify positional operator and $elemMatch."},
		{"positional with literal", D{{Key: "a.$", Value: "x"}}, Options{Filter: eqA}, 31308, "positional projection cannot be used with a literal"},
		{"positional in exclusion", D{{Key: "b", Value: int32(0)}, {Key: "a.$", Value: int32(1)}}, Options{Filter: eqA}, 31253, "Cannot do inclusion on field a.$ in exclusion projection"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Compile(c.spec, c.opts)
			var me *mongoerr.Error
			if !errors.As(err, &me) || me.Code != c.code || me.Msg != c.msg {
				t.Errorf("got %v, want (%d) %q", err, c.code, c.msg)
			}
		})
	}
}

func TestSimple(t *testing.T) {
	cases := []struct {
		spec D
		want bool
	}{
		{D{{Key: "a", Value: int32(1)}, {Key: "b", Value: int32(1)}}, true},
		{D{{Key: "a", Value: int32(0)}}, true},
		{D{{Key: "a.b", Value: int32(1)}}, false},
		{D{{Key: "a", Value: D{{Key: "$slice", Value: int32(1)}}}}, false},
		{D{{Key: "a", Value: "lit"}}, false},
	}
	for _, c := range cases {
		p, err := Compile(c.spec, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Simple() != c.want {
			t.Errorf("%v: Simple() = %v", extJSON(c.spec), p.Simple())
		}
		if extJSON(p.Serialize()) != extJSON(c.spec) {
			t.Errorf("Serialize: %s", extJSON(p.Serialize()))
		}
	}
}
