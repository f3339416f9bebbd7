package expr

import (
	"reflect"
	"testing"
)

func TestSerialize(t *testing.T) {
	cases := []struct{ spec, want string }{
		{`"$a"`, `"$a"`},
		{`1`, `{"$const": 1}`},
		{`{"$add": [1, 2]}`, `{"$const": 3}`},
		{`{"$add": ["$a", 1]}`, `{"$add": ["$a", {"$const": 1}]}`},
		{`{"$avg": "$score"}`, `{"$avg": ["$score"]}`},
		// A commutative, fully associative operator's constants go behind
		// its other arguments (ExpressionNary::optimize), a run becomes one.
		{`{"x": "$a", "y": {"$sum": [1, "$b"]}}`, `{"x": "$a", "y": {"$sum": ["$b", {"$const": 1}]}}`},
		{`{"$setUnion": [[1], "$b", [2]]}`, `{"$setUnion": ["$b", {"$const": [1, 2]}]}`},
		// A non-commutative one only evaluates runs; a nested call of the
		// same operator is flattened into it first.
		{`{"$concat": ["a", {"$concat": ["b", "$s"]}, "c"]}`, `{"$concat": [{"$const": "ab"}, "$s", {"$const": "c"}]}`},
		{`{"$and": ["$x", {"$and": ["$a", "$b"]}]}`, `{"$and": ["$x", "$a", "$b"]}`},
		{`{"$and": ["$x", {"$and": ["$a", true]}]}`, `{"$and": ["$x", {"$and": ["$a"]}]}`},
		// ExpressionFromAccumulatorN writes n before input.
		{`{"$firstN": {"input": "$a", "n": 2}}`, `{"$firstN": {"n": {"$const": 2}, "input": "$a"}}`},
		// ExpressionCond serializes as ExpressionNary does, an array,
		// whichever form was written; a constant condition picks a branch.
		{`{"$cond": {"if": "$a", "then": 1, "else": 2}}`, `{"$cond": ["$a", {"$const": 1}, {"$const": 2}]}`},
		{`{"$cond": [true, "$a", "$b"]}`, `"$a"`},
		{`{"$ifNull": [null, "$a", 2]}`, `{"$ifNull": ["$a", {"$const": 2}]}`},
		{`{"$ifNull": [1, "$a"]}`, `{"$const": 1}`},
		// ExpressionLet, ExpressionMap and ExpressionFilter write their own
		// forms: vars' values each serialized, the variable's name always.
		{`{"$let": {"vars": {"v": 1}, "in": "$$v"}}`, `{"$let": {"vars": {"v": {"$const": 1}}, "in": "$$v"}}`},
		{`{"$map": {"input": "$a", "in": "$$this"}}`, `{"$map": {"input": "$a", "as": "this", "in": "$$this"}}`},
		{`{"$filter": {"input": "$a", "cond": true}}`, `{"$filter": {"input": "$a", "as": "this", "cond": {"$const": true}}}`},
		{`{"$switch": {"branches": [{"case": "$x", "then": 1}], "default": 2}}`, `{"$switch": {"branches": [{"case": "$x", "then": {"$const": 1}}], "default": {"$const": 2}}}`},
	}
	for _, c := range cases {
		got := Serialize(parseValue(t, c.spec), nil)
		want := parseValue(t, c.want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: want %v got %v", c.spec, want, got)
		}
	}
}

func TestSerializeExplainCoerceToBool(t *testing.T) {
	spec := parseValue(t, `{"$and": ["$x", true]}`)
	if got, want := SerializeExplain(spec, nil), parseValue(t, `{"$coerceToBool": ["$x"]}`); !reflect.DeepEqual(got, want) {
		t.Errorf("explain: want %v got %v", want, got)
	}
	// Outside an explain the coerced argument is written as the $and that
	// parses again.
	if got, want := Serialize(spec, nil), parseValue(t, `{"$and": ["$x"]}`); !reflect.DeepEqual(got, want) {
		t.Errorf("serialize: want %v got %v", want, got)
	}
}
