package query

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func TestArrayOperators(t *testing.T) {
	tags := func(v ...any) D { return D{{Key: "tags", Value: A(v)}} }
	results := D{{Key: "results", Value: A{int32(82), int32(85), int32(88)}}}
	products := D{{Key: "results", Value: A{
		D{{Key: "product", Value: "abc"}, {Key: "score", Value: int32(10)}},
		D{{Key: "product", Value: "xyz"}, {Key: "score", Value: int32(5)}},
	}}}
	runMatchCases(t, []matchCase{
		// Manual $all.
		{"all", D{{Key: "tags", Value: D{{Key: "$all", Value: A{"ssl", "security"}}}}}, tags("appliance", "school", "security", "ssl"), true},
		{"all missing one", D{{Key: "tags", Value: D{{Key: "$all", Value: A{"ssl", "security"}}}}}, tags("ssl"), false},
		{"all scalar field", D{{Key: "tags", Value: D{{Key: "$all", Value: A{"ssl"}}}}}, D{{Key: "tags", Value: "ssl"}}, true},
		{"all empty", D{{Key: "tags", Value: D{{Key: "$all", Value: A{}}}}}, tags("ssl"), false},
		{"all nested array", D{{Key: "tags", Value: D{{Key: "$all", Value: A{A{"ssl", "security"}}}}}}, D{{Key: "tags", Value: A{A{"ssl", "security"}, "x"}}}, true},
		{"all regex", D{{Key: "tags", Value: D{{Key: "$all", Value: A{bsonRegex("^s"), "x"}}}}}, tags("ssl", "x"), true},
		{"all elemMatch", D{{Key: "qty", Value: D{{Key: "$all", Value: A{
			D{{Key: "$elemMatch", Value: D{{Key: "size", Value: "M"}, {Key: "num", Value: D{{Key: "$gt", Value: int32(50)}}}}}},
			D{{Key: "$elemMatch", Value: D{{Key: "num", Value: int32(100)}, {Key: "color", Value: "green"}}}},
		}}}}}, D{{Key: "qty", Value: A{
			D{{Key: "size", Value: "S"}, {Key: "num", Value: int32(10)}, {Key: "color", Value: "blue"}},
			D{{Key: "size", Value: "M"}, {Key: "num", Value: int32(100)}, {Key: "color", Value: "blue"}},
			D{{Key: "size", Value: "L"}, {Key: "num", Value: int32(100)}, {Key: "color", Value: "green"}},
		}}}, true},
		// Manual $elemMatch.
		{"elemMatch value", D{{Key: "results", Value: D{{Key: "$elemMatch", Value: D{{Key: "$gte", Value: int32(80)}, {Key: "$lt", Value: int32(85)}}}}}}, results, true},
		{"elemMatch value none", D{{Key: "results", Value: D{{Key: "$elemMatch", Value: D{{Key: "$gte", Value: int32(90)}}}}}}, results, false},
		{"range without elemMatch spans elements", D{{Key: "results", Value: D{{Key: "$gt", Value: int32(85)}, {Key: "$lt", Value: int32(83)}}}}, results, true},
		{"elemMatch range same element", D{{Key: "results", Value: D{{Key: "$elemMatch", Value: D{{Key: "$gt", Value: int32(85)}, {Key: "$lt", Value: int32(83)}}}}}}, results, false},
		{"elemMatch object", D{{Key: "results", Value: D{{Key: "$elemMatch", Value: D{{Key: "product", Value: "xyz"}, {Key: "score", Value: D{{Key: "$gte", Value: int32(8)}}}}}}}}, products, false},
		{"elemMatch object match", D{{Key: "results", Value: D{{Key: "$elemMatch", Value: D{{Key: "product", Value: "abc"}, {Key: "score", Value: D{{Key: "$gte", Value: int32(8)}}}}}}}}, products, true},
		{"elemMatch object or", D{{Key: "results", Value: D{{Key: "$elemMatch", Value: D{{Key: "$or", Value: A{D{{Key: "score", Value: int32(5)}}, D{{Key: "product", Value: "none"}}}}}}}}}, products, true},
		{"elemMatch not array", D{{Key: "results", Value: D{{Key: "$elemMatch", Value: D{{Key: "$gte", Value: int32(80)}}}}}}, D{{Key: "results", Value: int32(82)}}, false},
		{"elemMatch empty object", D{{Key: "results", Value: D{{Key: "$elemMatch", Value: D{}}}}}, products, true},
		{"elemMatch empty object scalars", D{{Key: "results", Value: D{{Key: "$elemMatch", Value: D{}}}}}, results, false},
		{"elemMatch value ne", D{{Key: "results", Value: D{{Key: "$elemMatch", Value: D{{Key: "$ne", Value: int32(82)}}}}}}, results, true},
		{"elemMatch nested dotted", D{{Key: "a.b", Value: D{{Key: "$elemMatch", Value: D{{Key: "c", Value: int32(1)}}}}}}, D{{Key: "a", Value: D{{Key: "b", Value: A{D{{Key: "c", Value: int32(1)}}}}}}}, true},
		// $size.
		{"size", D{{Key: "tags", Value: D{{Key: "$size", Value: int32(2)}}}}, tags("a", "b"), true},
		{"size other", D{{Key: "tags", Value: D{{Key: "$size", Value: int32(1)}}}}, tags("a", "b"), false},
		{"size zero", D{{Key: "tags", Value: D{{Key: "$size", Value: int32(0)}}}}, tags(), true},
		{"size does not look at elements", D{{Key: "tags", Value: D{{Key: "$size", Value: int32(1)}}}}, D{{Key: "tags", Value: A{A{"x"}, A{"y"}}}}, false},
		{"size double", D{{Key: "tags", Value: D{{Key: "$size", Value: 2.0}}}}, tags("a", "b"), true},
		{"size through array of docs", D{{Key: "a.b", Value: D{{Key: "$size", Value: int32(1)}}}}, D{{Key: "a", Value: A{D{{Key: "b", Value: A{int32(1)}}}}}}, true},
	})
}

func TestElemMatchPosition(t *testing.T) {
	f := compile(t, D{{Key: "results", Value: D{{Key: "$elemMatch", Value: D{{Key: "product", Value: "xyz"}}}}}})
	ok, idx := f.MatchPosition(D{{Key: "results", Value: A{D{{Key: "product", Value: "abc"}}, D{{Key: "product", Value: "xyz"}}}}})
	if !ok || idx != 1 {
		t.Fatalf("got %v %d, want true 1", ok, idx)
	}
}

func TestArrayErrors(t *testing.T) {
	runErrCases(t, []errCase{
		{"all not array", D{{Key: "a", Value: D{{Key: "$all", Value: int32(1)}}}}, mongoerr.BadValue, "$all needs an array"},
		{"all operator", D{{Key: "a", Value: D{{Key: "$all", Value: A{D{{Key: "$gt", Value: int32(1)}}}}}}}, mongoerr.BadValue, "no $ expressions in $all"},
		{"all elemMatch mixed", D{{Key: "a", Value: D{{Key: "$all", Value: A{D{{Key: "$elemMatch", Value: D{{Key: "b", Value: int32(1)}}}}, int32(5)}}}}}, mongoerr.BadValue, "$all/$elemMatch has to be consistent"},
		{"elemMatch scalar", D{{Key: "a", Value: D{{Key: "$elemMatch", Value: int32(1)}}}}, mongoerr.BadValue, "$elemMatch needs an Object"},
		{"elemMatch where", D{{Key: "a", Value: D{{Key: "$elemMatch", Value: D{{Key: "$where", Value: "1"}}}}}}, mongoerr.BadValue, "$where can only be applied to the top-level document"},
		{"elemMatch expr", D{{Key: "a", Value: D{{Key: "$elemMatch", Value: D{{Key: "$expr", Value: D{{Key: "$eq", Value: A{int32(1), int32(1)}}}}}}}}}, mongoerr.BadValue, "$expr can only be applied to the top-level document"},
		{"size string", D{{Key: "a", Value: D{{Key: "$size", Value: "1"}}}}, mongoerr.BadValue, "Failed to parse $size. Expected a number in: $size: \"1\""},
		{"size negative", D{{Key: "a", Value: D{{Key: "$size", Value: int32(-1)}}}}, mongoerr.BadValue, "Failed to parse $size. Expected a non-negative number in: $size: -1"},
		{"size fraction", D{{Key: "a", Value: D{{Key: "$size", Value: 1.5}}}}, mongoerr.BadValue, "Failed to parse $size. Expected an integer: $size: 1.5"},
		{"size long", D{{Key: "a", Value: D{{Key: "$size", Value: int64(1) << 40}}}}, mongoerr.BadValue, "Failed to parse $size. Cannot represent $size: 1099511627776 in an int"},
	})
}
