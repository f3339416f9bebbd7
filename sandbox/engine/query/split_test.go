package query

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// The splits of expression_algo.cpp's splitMatchExpressionBy, checked on
// the serialized halves.
func TestSplit(t *testing.T) {
	cases := []struct {
		name        string
		filter      D
		mod         Modified
		moved, kept D // nil: no such half
	}{
		{"an $and splits by child",
			D{{Key: "a", Value: 1}, {Key: "t", Value: 2}}, Modified{Paths: []string{"t"}},
			D{{Key: "a", Value: D{{Key: "$eq", Value: 1}}}}, D{{Key: "t", Value: D{{Key: "$eq", Value: 2}}}}},
		{"an $or moves only whole",
			D{{Key: "$or", Value: A{D{{Key: "a", Value: 1}}, D{{Key: "t", Value: 2}}}}}, Modified{Paths: []string{"t"}},
			nil, D{{Key: "$or", Value: A{D{{Key: "a", Value: D{{Key: "$eq", Value: 1}}}}, D{{Key: "t", Value: D{{Key: "$eq", Value: 2}}}}}}}},
		// Each half is a $nor of one branch, which optimizes to its $not.
		{"a $nor moves its independent branches",
			D{{Key: "$nor", Value: A{D{{Key: "a", Value: 1}}, D{{Key: "t", Value: 2}}}}}, Modified{Paths: []string{"t"}},
			D{{Key: "a", Value: D{{Key: "$not", Value: D{{Key: "$eq", Value: 1}}}}}}, D{{Key: "t", Value: D{{Key: "$not", Value: D{{Key: "$eq", Value: 2}}}}}}},
		{"a parent or child of a modified path depends on it",
			D{{Key: "t", Value: 1}, {Key: "u.v", Value: 2}}, Modified{Paths: []string{"t.x", "u"}},
			nil, D{{Key: "$and", Value: A{D{{Key: "t", Value: D{{Key: "$eq", Value: 1}}}}, D{{Key: "u.v", Value: D{{Key: "$eq", Value: 2}}}}}}}},
		{"a rename applies to the path and below it",
			D{{Key: "b.c", Value: 1}}, Modified{Renames: map[string]string{"b": "a"}},
			D{{Key: "a.c", Value: D{{Key: "$eq", Value: 1}}}}, nil},
		{"a rename applies inside $expr",
			D{{Key: "$expr", Value: D{{Key: "$eq", Value: A{"$b", "$$ROOT.b.c"}}}}}, Modified{Renames: map[string]string{"b": "a"}},
			D{{Key: "$expr", Value: D{{Key: "$eq", Value: A{"$a", "$a.c"}}}}}, nil},
		{"an $expr on the parent of a renamed path stays",
			D{{Key: "$expr", Value: D{{Key: "$eq", Value: A{D{{Key: "$type", Value: "$x"}}, "object"}}}}}, Modified{Renames: map[string]string{"x.y": "a"}},
			nil, D{{Key: "$expr", Value: D{{Key: "$eq", Value: A{D{{Key: "$type", Value: A{"$x"}}}, D{{Key: "$const", Value: "object"}}}}}}}},
		{"the parent of a renamed path stays",
			D{{Key: "x", Value: D{{Key: "$exists", Value: true}}}}, Modified{Renames: map[string]string{"x.y": "a"}},
			nil, D{{Key: "x", Value: D{{Key: "$exists", Value: true}}}}},
		{"all but the preserved paths are modified",
			D{{Key: "k", Value: 1}, {Key: "z", Value: 2}, {Key: "w", Value: 3}}, Modified{AllExcept: true, Paths: []string{"k"}, Renames: map[string]string{"z": "a"}},
			D{{Key: "$and", Value: A{D{{Key: "a", Value: D{{Key: "$eq", Value: 2}}}}, D{{Key: "k", Value: D{{Key: "$eq", Value: 1}}}}}}}, D{{Key: "w", Value: D{{Key: "$eq", Value: 3}}}}},
		{"a random $expr stays",
			D{{Key: "$sampleRate", Value: 0.5}}, Modified{Paths: []string{"t"}},
			nil, D{{Key: "$expr", Value: D{{Key: "$lt", Value: A{D{{Key: "$rand", Value: D{}}}, D{{Key: "$const", Value: 0.5}}}}}}}},
		{"$alwaysFalse stays",
			D{{Key: "$alwaysFalse", Value: int32(1)}}, Modified{Paths: []string{"t"}},
			nil, D{{Key: "$alwaysFalse", Value: int32(1)}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			moved, kept := compile(t, c.filter).Split(c.mod)
			for _, half := range []struct {
				what      string
				got, want D
			}{{"moved", moved, c.moved}, {"kept", kept, c.kept}} {
				if (half.got == nil) != (half.want == nil) || half.want != nil && !sameBSON(half.got, half.want) {
					t.Errorf("%s: got %v, want %v", half.what, half.got, half.want)
				}
			}
		})
	}
}

// sameBSON compares two values by their extended JSON.
func sameBSON(a, b any) bool {
	ja, errA := bson.MarshalExtJSON(D{{Key: "v", Value: a}}, false, false)
	jb, errB := bson.MarshalExtJSON(D{{Key: "v", Value: b}}, false, false)
	return errA == nil && errB == nil && string(ja) == string(jb)
}

// An $expr of a truthy constant is the empty $and; $and and $or drop
// their trivial children (ExprMatchExpression and ListOfMatchExpression's
// optimizers).
func TestTrivialPredicates(t *testing.T) {
	for _, c := range []struct {
		filter D
		want   D
	}{
		{D{{Key: "$expr", Value: true}}, D{}},
		{D{{Key: "$expr", Value: "foo"}}, D{}},
		{D{{Key: "$expr", Value: D{{Key: "$eq", Value: A{1, 1}}}}}, D{}},
		{D{{Key: "$expr", Value: false}}, D{{Key: "$expr", Value: D{{Key: "$const", Value: false}}}}},
		{D{{Key: "$and", Value: A{D{{Key: "$expr", Value: "foo"}}, D{{Key: "$expr", Value: "$a"}}}}}, D{{Key: "$expr", Value: "$a"}}},
		{D{{Key: "$or", Value: A{D{{Key: "$alwaysFalse", Value: int32(1)}}, D{{Key: "a", Value: 1}}}}}, D{{Key: "a", Value: D{{Key: "$eq", Value: 1}}}}},
		{D{{Key: "$and", Value: A{D{{Key: "$alwaysFalse", Value: int32(1)}}, D{{Key: "a", Value: 1}}}}}, D{{Key: "$alwaysFalse", Value: int32(1)}}},
	} {
		if got := compile(t, c.filter).Serialize(); !sameBSON(got, c.want) {
			t.Errorf("%v: got %v, want %v", c.filter, got, c.want)
		}
	}
}
