package query

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

func TestSerialize(t *testing.T) {
	cases := []struct {
		name   string
		filter D
		want   D
	}{
		{"empty", D{}, D{}},
		{"single equality", D{{Key: "a", Value: int32(5)}}, D{{Key: "a", Value: D{{Key: "$eq", Value: int32(5)}}}}},
		// Manual, "Analyze Query Performance": {quantity: {$gte: 100, $lte: 200}}.
		{"range", D{{Key: "quantity", Value: D{{Key: "$gte", Value: int32(100)}, {Key: "$lte", Value: int32(200)}}}},
			D{{Key: "$and", Value: A{D{{Key: "quantity", Value: D{{Key: "$lte", Value: int32(200)}}}}, D{{Key: "quantity", Value: D{{Key: "$gte", Value: int32(100)}}}}}}}},
		{"sorted by path", D{{Key: "b", Value: int32(1)}, {Key: "a", Value: int32(2)}},
			D{{Key: "$and", Value: A{D{{Key: "a", Value: D{{Key: "$eq", Value: int32(2)}}}}, D{{Key: "b", Value: D{{Key: "$eq", Value: int32(1)}}}}}}}},
		{"ne", D{{Key: "a", Value: D{{Key: "$ne", Value: int32(1)}}}}, D{{Key: "a", Value: D{{Key: "$not", Value: D{{Key: "$eq", Value: int32(1)}}}}}}},
		{"nin", D{{Key: "a", Value: D{{Key: "$nin", Value: A{int32(2), int32(1)}}}}}, D{{Key: "a", Value: D{{Key: "$not", Value: D{{Key: "$in", Value: A{int32(1), int32(2)}}}}}}}},
		{"in sorted and deduplicated", D{{Key: "a", Value: D{{Key: "$in", Value: A{int32(3), int32(1), int32(1)}}}}}, D{{Key: "a", Value: D{{Key: "$in", Value: A{int32(1), int32(3)}}}}}},
		{"in single", D{{Key: "a", Value: D{{Key: "$in", Value: A{int32(3)}}}}}, D{{Key: "a", Value: D{{Key: "$eq", Value: int32(3)}}}}},
		{"exists false", D{{Key: "a", Value: D{{Key: "$exists", Value: false}}}}, D{{Key: "a", Value: D{{Key: "$not", Value: D{{Key: "$exists", Value: true}}}}}}},
		{"all", D{{Key: "a", Value: D{{Key: "$all", Value: A{int32(1), int32(2)}}}}}, D{{Key: "$and", Value: A{D{{Key: "a", Value: D{{Key: "$eq", Value: int32(1)}}}}, D{{Key: "a", Value: D{{Key: "$eq", Value: int32(2)}}}}}}}},
		{"regex", D{{Key: "a", Value: bson.Regex{Pattern: "^x", Options: "i"}}}, D{{Key: "a", Value: D{{Key: "$regex", Value: "^x"}, {Key: "$options", Value: "i"}}}}},
		{"nested and flattened", D{{Key: "$and", Value: A{D{{Key: "b", Value: int32(1)}}, D{{Key: "$and", Value: A{D{{Key: "a", Value: int32(1)}}}}}}}},
			D{{Key: "$and", Value: A{D{{Key: "a", Value: D{{Key: "$eq", Value: int32(1)}}}}, D{{Key: "b", Value: D{{Key: "$eq", Value: int32(1)}}}}}}}},
		{"or", D{{Key: "$or", Value: A{D{{Key: "b", Value: int32(1)}}, D{{Key: "a", Value: int32(1)}}}}}, D{{Key: "$or", Value: A{D{{Key: "a", Value: D{{Key: "$eq", Value: int32(1)}}}}, D{{Key: "b", Value: D{{Key: "$eq", Value: int32(1)}}}}}}}},
		// ExprMatchExpression::serialize shows the optimized expression:
		// constants as {$const: v}.
		{"expr constants", D{{Key: "$expr", Value: D{{Key: "$cmp", Value: A{"$a", int32(5)}}}}},
			D{{Key: "$expr", Value: D{{Key: "$cmp", Value: A{"$a", D{{Key: "$const", Value: int32(5)}}}}}}}},
		// RewriteExpr (rewrite_expr.cpp): a comparison of a field path with
		// a constant is ANDed with its internal comparison, the $expr
		// first (EXPRESSION precedes INTERNAL_EXPR_LT in MatchType).
		{"expr rewritten", D{{Key: "$expr", Value: D{{Key: "$lt", Value: A{"$a", int32(5)}}}}},
			D{{Key: "$and", Value: A{D{{Key: "$expr", Value: D{{Key: "$lt", Value: A{"$a", D{{Key: "$const", Value: int32(5)}}}}}}},
				D{{Key: "a", Value: D{{Key: "$_internalExprLt", Value: int32(5)}}}}}}}},
		{"single or unwrapped", D{{Key: "$or", Value: A{D{{Key: "a", Value: int32(1)}}}}}, D{{Key: "a", Value: D{{Key: "$eq", Value: int32(1)}}}}},
		{"or before leaves", D{{Key: "x", Value: int32(1)}, {Key: "$or", Value: A{D{{Key: "a", Value: int32(1)}}, D{{Key: "b", Value: int32(1)}}}}},
			D{{Key: "$and", Value: A{D{{Key: "$or", Value: A{D{{Key: "a", Value: D{{Key: "$eq", Value: int32(1)}}}}, D{{Key: "b", Value: D{{Key: "$eq", Value: int32(1)}}}}}}}, D{{Key: "x", Value: D{{Key: "$eq", Value: int32(1)}}}}}}}},
		{"size and type", D{{Key: "a", Value: D{{Key: "$type", Value: "string"}}}, {Key: "b", Value: D{{Key: "$size", Value: int32(2)}}}},
			D{{Key: "$and", Value: A{D{{Key: "b", Value: D{{Key: "$size", Value: int32(2)}}}}, D{{Key: "a", Value: D{{Key: "$type", Value: A{int32(2)}}}}}}}}},
		{"elemMatch", D{{Key: "a", Value: D{{Key: "$elemMatch", Value: D{{Key: "b", Value: int32(1)}, {Key: "c", Value: D{{Key: "$gt", Value: int32(2)}}}}}}}},
			D{{Key: "a", Value: D{{Key: "$elemMatch", Value: D{{Key: "$and", Value: A{D{{Key: "b", Value: D{{Key: "$eq", Value: int32(1)}}}}, D{{Key: "c", Value: D{{Key: "$gt", Value: int32(2)}}}}}}}}}}}},
		{"mod", D{{Key: "a", Value: D{{Key: "$mod", Value: A{int32(4), int32(1)}}}}}, D{{Key: "a", Value: D{{Key: "$mod", Value: A{int64(4), int64(1)}}}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := compile(t, c.filter).Serialize()
			gb, _ := bson.MarshalExtJSON(got, true, false)
			wb, _ := bson.MarshalExtJSON(c.want, true, false)
			if string(gb) != string(wb) {
				t.Errorf("got  %s\nwant %s", gb, wb)
			}
		})
	}
}

func TestSerializeOrToIn(t *testing.T) {
	// Pairs from jstests/core/query/or/or_to_in.js: both must print the same.
	pairs := [][2]D{
		{D{{Key: "$or", Value: A{D{{Key: "f1", Value: int32(5)}}, D{{Key: "f1", Value: int32(3)}}, D{{Key: "f1", Value: int32(7)}}}}}, D{{Key: "f1", Value: D{{Key: "$in", Value: A{int32(7), int32(3), int32(5)}}}}}},
		{D{{Key: "$or", Value: A{D{{Key: "f1", Value: bsonRegex("^x")}}, D{{Key: "f1", Value: "ab"}}}}}, D{{Key: "f1", Value: D{{Key: "$in", Value: A{bsonRegex("^x"), "ab"}}}}}},
		{D{{Key: "$or", Value: A{D{{Key: "f1", Value: int32(1)}}, D{{Key: "f2", Value: int32(9)}}, D{{Key: "f1", Value: int32(99)}}}}},
			D{{Key: "$or", Value: A{D{{Key: "f2", Value: int32(9)}}, D{{Key: "f1", Value: D{{Key: "$in", Value: A{int32(1), int32(99)}}}}}}}}},
		{D{{Key: "$or", Value: A{D{{Key: "f1", Value: int32(1)}}, D{{Key: "f1", Value: int32(1)}}}}}, D{{Key: "f1", Value: int32(1)}}},
	}
	for _, p := range pairs {
		a, _ := bson.MarshalExtJSON(compile(t, p[0]).Serialize(), true, false)
		b, _ := bson.MarshalExtJSON(compile(t, p[1]).Serialize(), true, false)
		if string(a) != string(b) {
			t.Errorf("%v\n  printed %s\n  want    %s", p[0], a, b)
		}
	}
	// Not rewritten: equality to a regex value, and ranges.
	for _, f := range []D{
		{{Key: "$or", Value: A{D{{Key: "f1", Value: D{{Key: "$eq", Value: bsonRegex("^x")}}}}, D{{Key: "f1", Value: D{{Key: "$eq", Value: bsonRegex("ab")}}}}}}},
		{{Key: "$or", Value: A{D{{Key: "f1", Value: D{{Key: "$lt", Value: int32(2)}}}}, D{{Key: "f1", Value: D{{Key: "$gt", Value: int32(3)}}}}}}},
	} {
		if got := compile(t, f).Serialize(); got[0].Key != "$or" {
			t.Errorf("%v rewritten to %v", f, got)
		}
	}
	// The rewritten $in still matches as the $or did.
	f := compile(t, D{{Key: "$or", Value: A{D{{Key: "f1", Value: bsonRegex("^x")}}, D{{Key: "f1", Value: "ab"}}}}})
	if !f.Matches(D{{Key: "f1", Value: "xz"}}) || !f.Matches(D{{Key: "f1", Value: "ab"}}) || f.Matches(D{{Key: "f1", Value: "abc"}}) {
		t.Error("or-to-in changed the result")
	}
}
