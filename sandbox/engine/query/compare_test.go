package query

import (
	"math"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func TestComparison(t *testing.T) {
	runMatchCases(t, []matchCase{
		// Manual: $eq, "Equals an Array Value" and "Array Element Equals".
		{"eq scalar", D{{Key: "qty", Value: int32(20)}}, D{{Key: "qty", Value: int32(20)}}, true},
		{"eq cross numeric types", D{{Key: "qty", Value: 20.0}}, D{{Key: "qty", Value: int64(20)}}, true},
		{"eq whole array", D{{Key: "tags", Value: A{"A", "B"}}}, D{{Key: "tags", Value: A{"A", "B"}}}, true},
		{"eq whole array order matters", D{{Key: "tags", Value: A{"B", "A"}}}, D{{Key: "tags", Value: A{"A", "B"}}}, false},
		{"eq array element", D{{Key: "tags", Value: "B"}}, D{{Key: "tags", Value: A{"A", "B"}}}, true},
		{"eq nested array element", D{{Key: "tags", Value: A{"A"}}}, D{{Key: "tags", Value: A{A{"A"}, "B"}}}, true},
		{"eq no traversal of nested arrays", D{{Key: "tags", Value: "A"}}, D{{Key: "tags", Value: A{A{"A"}}}}, false},
		{"eq embedded doc exact", D{{Key: "item", Value: D{{Key: "name", Value: "ab"}, {Key: "code", Value: "123"}}}}, D{{Key: "item", Value: D{{Key: "name", Value: "ab"}, {Key: "code", Value: "123"}}}}, true},
		{"eq embedded doc field order matters", D{{Key: "item", Value: D{{Key: "code", Value: "123"}, {Key: "name", Value: "ab"}}}}, D{{Key: "item", Value: D{{Key: "name", Value: "ab"}, {Key: "code", Value: "123"}}}}, false},
		{"eq dotted", D{{Key: "item.name", Value: "ab"}}, D{{Key: "item", Value: D{{Key: "name", Value: "ab"}}}}, true},
		{"eq dotted through array of docs", D{{Key: "instock.qty", Value: int32(5)}}, D{{Key: "instock", Value: A{D{{Key: "qty", Value: int32(1)}}, D{{Key: "qty", Value: int32(5)}}}}}, true},
		{"eq array index", D{{Key: "instock.0.qty", Value: int32(5)}}, D{{Key: "instock", Value: A{D{{Key: "qty", Value: int32(5)}}, D{{Key: "qty", Value: int32(1)}}}}}, true},
		{"eq array index other element", D{{Key: "instock.1.qty", Value: int32(5)}}, D{{Key: "instock", Value: A{D{{Key: "qty", Value: int32(5)}}, D{{Key: "qty", Value: int32(1)}}}}}, false},
		{"eq index into scalar array", D{{Key: "a.1", Value: "y"}}, D{{Key: "a", Value: A{"x", "y"}}}, true},
		{"eq numeric component as field name", D{{Key: "a.1", Value: "y"}}, D{{Key: "a", Value: D{{Key: "1", Value: "y"}}}}, true},
		{"eq through two arrays", D{{Key: "a.b.c", Value: int32(1)}}, D{{Key: "a", Value: A{D{{Key: "b", Value: A{D{{Key: "c", Value: int32(1)}}}}}}}}, true},
		{"eq no match", D{{Key: "qty", Value: int32(20)}}, D{{Key: "qty", Value: int32(21)}}, false},
		{"eq missing field", D{{Key: "qty", Value: int32(20)}}, D{{Key: "x", Value: int32(20)}}, false},
		{"eq regex value via $eq", D{{Key: "r", Value: D{{Key: "$eq", Value: bson.Regex{Pattern: "a", Options: ""}}}}}, D{{Key: "r", Value: bson.Regex{Pattern: "a"}}}, true},
		{"eq regex value via $eq is not a pattern match", D{{Key: "r", Value: D{{Key: "$eq", Value: bson.Regex{Pattern: "a"}}}}}, D{{Key: "r", Value: "a"}}, false},

		// Type brackets: comparison operators only compare within a type.
		{"gt number", D{{Key: "qty", Value: D{{Key: "$gt", Value: int32(20)}}}}, D{{Key: "qty", Value: 25.5}}, true},
		{"gt not string", D{{Key: "qty", Value: D{{Key: "$gt", Value: int32(20)}}}}, D{{Key: "qty", Value: "30"}}, false},
		{"gte equal", D{{Key: "qty", Value: D{{Key: "$gte", Value: int32(20)}}}}, D{{Key: "qty", Value: int64(20)}}, true},
		{"lt", D{{Key: "qty", Value: D{{Key: "$lt", Value: int32(20)}}}}, D{{Key: "qty", Value: int32(19)}}, true},
		{"lte not null", D{{Key: "qty", Value: D{{Key: "$lte", Value: int32(20)}}}}, D{{Key: "qty", Value: nil}}, false},
		{"lt missing", D{{Key: "qty", Value: D{{Key: "$lt", Value: int32(20)}}}}, D{}, false},
		{"gt strings", D{{Key: "s", Value: D{{Key: "$gt", Value: "abc"}}}}, D{{Key: "s", Value: "abd"}}, true},
		{"gt array element", D{{Key: "a", Value: D{{Key: "$gt", Value: int32(5)}}}}, D{{Key: "a", Value: A{int32(1), int32(6)}}}, true},
		{"range across elements", D{{Key: "a", Value: D{{Key: "$gt", Value: int32(5)}, {Key: "$lt", Value: int32(3)}}}}, D{{Key: "a", Value: A{int32(1), int32(6)}}}, true},
		{"gt date", D{{Key: "d", Value: D{{Key: "$gt", Value: bson.DateTime(1000)}}}}, D{{Key: "d", Value: bson.DateTime(2000)}}, true},
		{"gt date not number", D{{Key: "d", Value: D{{Key: "$gt", Value: int32(0)}}}}, D{{Key: "d", Value: bson.DateTime(2000)}}, false},
		{"gt array compares whole arrays", D{{Key: "a", Value: D{{Key: "$gt", Value: A{int32(1)}}}}}, D{{Key: "a", Value: A{int32(2)}}}, true},
		{"gte array whole", D{{Key: "a", Value: D{{Key: "$gte", Value: A{int32(1), int32(2)}}}}}, D{{Key: "a", Value: A{int32(1), int32(2)}}}, true},

		// MinKey and MaxKey bound every type.
		{"gt minkey", D{{Key: "a", Value: D{{Key: "$gt", Value: bson.MinKey{}}}}}, D{{Key: "a", Value: "x"}}, true},
		{"lt maxkey", D{{Key: "a", Value: D{{Key: "$lt", Value: bson.MaxKey{}}}}}, D{{Key: "a", Value: nil}}, true},
		{"lt minkey", D{{Key: "a", Value: D{{Key: "$lt", Value: bson.MinKey{}}}}}, D{{Key: "a", Value: int32(1)}}, false},
		{"eq maxkey", D{{Key: "a", Value: bson.MaxKey{}}}, D{{Key: "a", Value: bson.MaxKey{}}}, true},

		// NaN equals only NaN.
		{"nan eq", D{{Key: "a", Value: math.NaN()}}, D{{Key: "a", Value: math.NaN()}}, true},
		{"nan lt", D{{Key: "a", Value: D{{Key: "$lt", Value: int32(0)}}}}, D{{Key: "a", Value: math.NaN()}}, false},
		{"nan gte nan", D{{Key: "a", Value: D{{Key: "$gte", Value: math.NaN()}}}}, D{{Key: "a", Value: math.NaN()}}, true},
		{"nan gt", D{{Key: "a", Value: D{{Key: "$gt", Value: math.NaN()}}}}, D{{Key: "a", Value: 1.0}}, false},

		// null (manual "Query for Null or Missing Fields"; 8.0: not undefined).
		{"null matches null", D{{Key: "item", Value: nil}}, D{{Key: "item", Value: nil}}, true},
		{"null matches missing", D{{Key: "item", Value: nil}}, D{{Key: "x", Value: int32(1)}}, true},
		{"null no longer matches undefined", D{{Key: "item", Value: nil}}, D{{Key: "item", Value: bson.Undefined{}}}, false},
		{"null matches null element", D{{Key: "name", Value: nil}}, D{{Key: "name", Value: A{"Gabriel", nil}}}, true},
		{"null not undefined element", D{{Key: "name", Value: nil}}, D{{Key: "name", Value: A{"Gabriel", bson.Undefined{}}}}, false},
		{"null not empty array", D{{Key: "a", Value: nil}}, D{{Key: "a", Value: A{}}}, false},
		{"null dotted missing in element", D{{Key: "a.b", Value: nil}}, D{{Key: "a", Value: A{D{{Key: "b", Value: int32(1)}}, D{{Key: "c", Value: int32(1)}}}}}, true},
		{"null dotted all present", D{{Key: "a.b", Value: nil}}, D{{Key: "a", Value: A{D{{Key: "b", Value: int32(1)}}}}}, false},
		{"null dotted through scalar", D{{Key: "a.b", Value: nil}}, D{{Key: "a", Value: int32(5)}}, true},
		{"null gte", D{{Key: "a", Value: D{{Key: "$gte", Value: nil}}}}, D{}, true},
		{"null gt", D{{Key: "a", Value: D{{Key: "$gt", Value: nil}}}}, D{{Key: "a", Value: nil}}, false},

		// $ne and $nin (manual: also match documents without the field).
		{"ne", D{{Key: "qty", Value: D{{Key: "$ne", Value: int32(20)}}}}, D{{Key: "qty", Value: int32(21)}}, true},
		{"ne missing", D{{Key: "qty", Value: D{{Key: "$ne", Value: int32(20)}}}}, D{}, true},
		{"ne array containing", D{{Key: "tags", Value: D{{Key: "$ne", Value: "A"}}}}, D{{Key: "tags", Value: A{"A", "B"}}}, false},
		{"ne array not containing", D{{Key: "tags", Value: D{{Key: "$ne", Value: "C"}}}}, D{{Key: "tags", Value: A{"A", "B"}}}, true},
		{"ne null excludes missing", D{{Key: "a", Value: D{{Key: "$ne", Value: nil}}}}, D{}, false},
		{"in", D{{Key: "qty", Value: D{{Key: "$in", Value: A{int32(5), int32(15)}}}}}, D{{Key: "qty", Value: int64(15)}}, true},
		{"in array field", D{{Key: "tags", Value: D{{Key: "$in", Value: A{"home", "school"}}}}}, D{{Key: "tags", Value: A{"school", "book"}}}, true},
		{"in none", D{{Key: "qty", Value: D{{Key: "$in", Value: A{int32(5), int32(15)}}}}}, D{{Key: "qty", Value: int32(7)}}, false},
		{"in empty", D{{Key: "qty", Value: D{{Key: "$in", Value: A{}}}}}, D{{Key: "qty", Value: int32(7)}}, false},
		{"in null matches missing", D{{Key: "qty", Value: D{{Key: "$in", Value: A{nil, int32(1)}}}}}, D{}, true},
		{"in regex", D{{Key: "tags", Value: D{{Key: "$in", Value: A{bson.Regex{Pattern: "^be"}, bson.Regex{Pattern: "^st"}}}}}}, D{{Key: "tags", Value: A{"school", "stationary"}}}, true},
		{"in regex no match", D{{Key: "tags", Value: D{{Key: "$in", Value: A{bson.Regex{Pattern: "^be"}}}}}}, D{{Key: "tags", Value: A{"school"}}}, false},
		{"in whole array", D{{Key: "a", Value: D{{Key: "$in", Value: A{A{int32(1), int32(2)}}}}}}, D{{Key: "a", Value: A{int32(1), int32(2)}}}, true},
		{"nin", D{{Key: "qty", Value: D{{Key: "$nin", Value: A{int32(5), int32(15)}}}}}, D{{Key: "qty", Value: int32(7)}}, true},
		{"nin missing", D{{Key: "qty", Value: D{{Key: "$nin", Value: A{int32(5), int32(15)}}}}}, D{}, true},
		{"nin array element", D{{Key: "tags", Value: D{{Key: "$nin", Value: A{"school"}}}}}, D{{Key: "tags", Value: A{"school", "book"}}}, false},
	})
}

func TestComparisonErrors(t *testing.T) {
	runErrCases(t, []errCase{
		{"in not array", D{{Key: "a", Value: D{{Key: "$in", Value: int32(1)}}}}, mongoerr.BadValue, "$in needs an array"},
		{"nin not array", D{{Key: "a", Value: D{{Key: "$nin", Value: "x"}}}}, mongoerr.BadValue, "$nin needs an array"},
		{"in nested operator", D{{Key: "a", Value: D{{Key: "$in", Value: A{D{{Key: "$gt", Value: int32(1)}}}}}}}, mongoerr.BadValue, "cannot nest $ under $in"},
		{"gt regex", D{{Key: "a", Value: D{{Key: "$gt", Value: bson.Regex{Pattern: "x"}}}}}, mongoerr.BadValue, "Can't have RegEx as arg to predicate over field 'a'."},
		{"ne regex", D{{Key: "a", Value: D{{Key: "$ne", Value: bson.Regex{Pattern: "x"}}}}}, mongoerr.BadValue, "Can't have regex as arg to $ne."},
		{"undefined", D{{Key: "a", Value: bson.Undefined{}}}, mongoerr.BadValue, "cannot compare to undefined"},
		{"unknown operator", D{{Key: "a", Value: D{{Key: "$foo", Value: int32(1)}}}}, mongoerr.BadValue, "unknown operator: $foo"},
		{"non-operator inside operator doc", D{{Key: "a", Value: D{{Key: "$gt", Value: int32(1)}, {Key: "b", Value: int32(2)}}}}, mongoerr.BadValue, "unknown operator: b"},
	})
}

func TestPositionOfMatchedElement(t *testing.T) {
	f := compile(t, D{{Key: "grades", Value: D{{Key: "$gte", Value: int32(85)}}}})
	ok, idx := f.MatchPosition(D{{Key: "grades", Value: A{int32(80), int32(85), int32(90)}}})
	if !ok || idx != 1 {
		t.Fatalf("got %v %d, want true 1", ok, idx)
	}
	ok, idx = f.MatchPosition(D{{Key: "grades", Value: int32(90)}})
	if !ok || idx != -1 {
		t.Fatalf("scalar: got %v %d, want true -1", ok, idx)
	}
	f = compile(t, D{{Key: "students.school", Value: int32(102)}})
	ok, idx = f.MatchPosition(D{{Key: "students", Value: A{D{{Key: "school", Value: int32(100)}}, D{{Key: "school", Value: int32(102)}}}}})
	if !ok || idx != 1 {
		t.Fatalf("dotted: got %v %d, want true 1", ok, idx)
	}
}

func TestEqualityDoesNotAllocate(t *testing.T) {
	f := compile(t, D{{Key: "grade", Value: int32(7)}, {Key: "courseId", Value: "c1"}})
	doc := D{{Key: "_id", Value: int32(1)}, {Key: "courseId", Value: "c1"}, {Key: "grade", Value: int32(7)}, {Key: "student", Value: "s"}}
	allocs := testing.AllocsPerRun(100, func() {
		if !f.Matches(doc) {
			t.Fatal("no match")
		}
	})
	if allocs != 0 {
		t.Fatalf("Matches allocates %v times per document", allocs)
	}
}

func BenchmarkMatchEquality(b *testing.B) {
	f, _ := Compile(D{{Key: "courseId", Value: "c42"}}, Options{})
	doc := D{{Key: "_id", Value: int32(1)}, {Key: "courseId", Value: "c42"}, {Key: "grade", Value: int32(7)}, {Key: "student", Value: "s1"}}
	b.ReportAllocs()
	for b.Loop() {
		f.Matches(doc)
	}
}

func BenchmarkMatchRange(b *testing.B) {
	f, _ := Compile(D{{Key: "grade", Value: D{{Key: "$gte", Value: int32(5)}, {Key: "$lt", Value: int32(9)}}}}, Options{})
	doc := D{{Key: "_id", Value: int32(1)}, {Key: "courseId", Value: "c42"}, {Key: "grade", Value: int32(7)}, {Key: "student", Value: "s1"}}
	b.ReportAllocs()
	for b.Loop() {
		f.Matches(doc)
	}
}
