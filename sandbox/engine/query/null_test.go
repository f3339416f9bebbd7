package query

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Cases from jstests/core/query/null_query_semantics.js whose expected
// result is the same before and after SERVER-36681 (which changed dotted
// null queries over arrays of scalars after 8.0).
func TestNullQuerySemantics(t *testing.T) {
	u := bson.Undefined{}
	a := func(v any) D { return D{{Key: "a", Value: v}} }
	ab := func(v any) D { return D{{Key: "a", Value: D{{Key: "b", Value: v}}}} }
	dottedNull := D{{Key: "a.b", Value: D{{Key: "$eq", Value: nil}}}}
	dottedNe := D{{Key: "a.b", Value: D{{Key: "$ne", Value: nil}}}}
	runMatchCases(t, []matchCase{
		{"a.b null: empty subobject", dottedNull, a(D{}), true},
		{"a.b null: a null", dottedNull, a(nil), true},
		{"a.b null: a number", dottedNull, a(int32(4)), true},
		{"a.b null: b null", dottedNull, ab(nil), true},
		{"a.b null: b undefined", dottedNull, ab(u), false},
		{"a.b null: b set", dottedNull, ab("hi"), false},
		{"a.b null: mix", dottedNull, a(A{D{{Key: "b", Value: nil}}, D{{Key: "b", Value: u}}, D{}}), true},
		{"a.b null: some missing", dottedNull, a(A{D{{Key: "b", Value: int32(3)}}, D{}}), true},
		{"a.b null: none null", dottedNull, a(A{D{{Key: "b", Value: int32(1)}}, D{{Key: "b", Value: "string"}}}), false},
		{"a.b null: some undefined", dottedNull, a(A{D{{Key: "b", Value: u}}, D{{Key: "b", Value: int32(3)}}}), false},
		{"a.b ne null: some undefined", dottedNe, a(A{D{{Key: "b", Value: u}}, D{{Key: "b", Value: int32(3)}}}), true},
		{"a.b ne null: b undefined", dottedNe, ab(u), true},
		{"a.b ne null: a number", dottedNe, a(int32(4)), false},
		{"a ne null: undefined", D{{Key: "a", Value: D{{Key: "$ne", Value: nil}}}}, a(u), true},
		{"a not gte null: undefined", D{{Key: "a", Value: D{{Key: "$not", Value: D{{Key: "$gte", Value: nil}}}}}}, a(u), true},
		{"a not gte null: empty array", D{{Key: "a", Value: D{{Key: "$not", Value: D{{Key: "$gte", Value: nil}}}}}}, a(A{}), true},
		{"a not gte null: all nulls", D{{Key: "a", Value: D{{Key: "$not", Value: D{{Key: "$gte", Value: nil}}}}}}, a(A{nil, nil}), false},
		{"a nin null,4: number", D{{Key: "a", Value: D{{Key: "$nin", Value: A{nil, int32(4)}}}}}, a(int32(4)), false},
		{"a nin null,regex: number", D{{Key: "a", Value: D{{Key: "$nin", Value: A{nil, bson.Regex{Pattern: "^hi.*"}}}}}}, a(int32(4)), true},
		{"elemMatch eq null", D{{Key: "a", Value: D{{Key: "$elemMatch", Value: D{{Key: "$eq", Value: nil}}}}}}, a(A{int32(1), nil}), true},
		{"elemMatch eq null: not undefined", D{{Key: "a", Value: D{{Key: "$elemMatch", Value: D{{Key: "$eq", Value: nil}}}}}}, a(A{int32(1), u}), false},
		{"elemMatch ne null: all nulls", D{{Key: "a", Value: D{{Key: "$elemMatch", Value: D{{Key: "$ne", Value: nil}}}}}}, a(A{nil, nil}), false},
		{"elemMatch ne null: nested empty array", D{{Key: "a", Value: D{{Key: "$elemMatch", Value: D{{Key: "$ne", Value: nil}}}}}}, a(A{A{}}), true},
		{"elemMatch b null: nested empty array", D{{Key: "a", Value: D{{Key: "$elemMatch", Value: D{{Key: "b", Value: D{{Key: "$eq", Value: nil}}}}}}}}, a(A{A{}}), true},
		{"elemMatch needs an array", D{{Key: "a", Value: D{{Key: "$elemMatch", Value: D{{Key: "b", Value: D{{Key: "$eq", Value: nil}}}}}}}}, ab(nil), false},
	})
}
