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
		{`{"x": "$a", "y": {"$sum": [1, "$b"]}}`, `{"x": "$a", "y": {"$sum": [{"$const": 1}, "$b"]}}`},
		{`{"$cond": {"if": "$a", "then": 1, "else": 2}}`, `{"$cond": {"if": "$a", "then": {"$const": 1}, "else": {"$const": 2}}}`},
	}
	for _, c := range cases {
		got := Serialize(parseValue(t, c.spec), nil)
		want := parseValue(t, c.want)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: want %v got %v", c.spec, want, got)
		}
	}
}
