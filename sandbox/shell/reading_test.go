package shell

import (
	"slices"
	"testing"
)

func TestAggregateCall(t *testing.T) {
	for _, c := range []struct {
		code, coll, pipeline string
	}{
		{"db.readings.aggregate([{ $match: { a: 1 } }])", "db.readings", "[{ $match: { a: 1 } }]"},
		{"// by hour\ndb.getCollection('r-x').aggregate([\n  { $group: { _id: '$h' } },\n]);\n", "db.getCollection('r-x')", "[\n  { $group: { _id: '$h' } },\n]"},
		{"db.a.b.aggregate([])", "db.a.b", "[]"},
	} {
		coll, pipeline, ok := AggregateCall(c.code)
		if !ok || coll != c.coll || pipeline != c.pipeline {
			t.Errorf("AggregateCall(%q) = %q, %q, %v; want %q, %q", c.code, coll, pipeline, ok, c.coll, c.pipeline)
		}
	}
	for _, code := range []string{
		"const p = [{ $match: {} }]; db.r.aggregate(p)",
		"db.r.aggregate(p)",
		"db.r.aggregate([], { allowDiskUse: true })",
		"db.r.aggregate([]).toArray()",
		"other.r.aggregate([])",
		"db.getSiblingDB('admin').r.aggregate([])",
		"db.getCollection(name).aggregate([])",
		"db.r.aggregate([])\ndb.s.aggregate([])",
		"db.r.aggregate([",
		"'db.r.aggregate([])'",
	} {
		if _, _, ok := AggregateCall(code); ok {
			t.Errorf("AggregateCall(%q) accepted code that is not one aggregate call on a collection", code)
		}
	}
}

func shapeTexts(t *testing.T, code string) []string {
	t.Helper()
	toks, err := Shape(code)
	if err != nil {
		t.Fatalf("Shape(%q): %v", code, err)
	}
	out := make([]string, len(toks))
	for i, tk := range toks {
		out[i] = tk.Text
	}
	return out
}

func TestShapeIgnoresCommentsLayoutAndStrings(t *testing.T) {
	same := [][2]string{
		{"db.r.find({ a: 1 }) // all", "// alle\ndb.r.find({\n  a: 1,\n})"},
		{"print('total: ' + n)", "print(\"jumlah: \" + n)"},
		{"print(`${n} readings`)", "print(`${n} показаний`)"},
		{"db.r.find({ 'a.b': 1 })", "db.r.find({ \"a.b\": 1 })"},
		{"await db.r.findOne()", "await db.r.findOne() /* satu */"},
	}
	for _, c := range same {
		if a, b := shapeTexts(t, c[0]), shapeTexts(t, c[1]); !slices.Equal(a, b) {
			t.Errorf("%q and %q differ in shape:\n%v\n%v", c[0], c[1], a, b)
		}
	}
	differ := [][2]string{
		{"db.r.find({ a: 1 })", "db.r.find({ b: 1 })"},
		{"db.r.find({ a: 1 })", "db.r.find({ a: 2 })"},
		{"x = a + b", "x = a - b"},
		{"f(a)(b)", "f(a, b)"},
		{"const x = 1", "let x = 1"},
		{"i++", "++i"},
		{"db.r.find({ a: /x/i })", "db.r.find({ a: /x/ })"},
		{"function f() { return }", "function f() { return x }"},
	}
	for _, c := range differ {
		if a, b := shapeTexts(t, c[0]), shapeTexts(t, c[1]); slices.Equal(a, b) {
			t.Errorf("%q and %q have the same shape", c[0], c[1])
		}
	}
}

func TestShapeLines(t *testing.T) {
	toks, err := Shape("const a = 1\n\n// note\nconst b = 'x'\n")
	if err != nil {
		t.Fatal(err)
	}
	var last ShapeToken
	for _, tk := range toks {
		if tk.Text == "b" {
			last = tk
		}
	}
	if last.Line != 4 {
		t.Errorf("b is on line %d, want 4", last.Line)
	}
	if _, err := Shape("show collections"); err == nil {
		t.Error("a shell command line has no JavaScript shape, yet Shape read it")
	}
}
