package index

import (
	"fmt"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The sort keys of SortKeyGenerator, which takes the first of the index
// keys BtreeKeyGenerator builds (sort_key_generator.cpp,
// btree_key_generator.cpp).
func TestSortPatternKey(t *testing.T) {
	cases := []struct {
		doc    string
		fields []string
		desc   []bool
		want   string
	}{
		{`{"a": [3, 1, 2]}`, []string{"a"}, []bool{false}, "[1]"},
		{`{"a": [3, 1, 2]}`, []string{"a"}, []bool{true}, "[3]"},
		{`{"b": 1}`, []string{"a"}, []bool{false}, "[<nil>]"},
		{`{"a": 5}`, []string{"a.b"}, []bool{false}, "[<nil>]"},
		// An element that is not a document has no b: it counts as null.
		{`{"a": [1, {"b": 5}]}`, []string{"a.b"}, []bool{false}, "[<nil>]"},
		{`{"a": [1, {"b": 5}]}`, []string{"a.b"}, []bool{true}, "[5]"},
		// An empty array ending the path is undefined; in the middle of
		// it, the rest of the path is missing (GetKeysFromNestedEmptyArray).
		{`{"a": []}`, []string{"a"}, []bool{false}, "[{}]"},
		{`{"a": []}`, []string{"a.b"}, []bool{false}, "[<nil>]"},
		// A positional component selecting a nested array keys on it.
		{`{"a": [[2, 1]]}`, []string{"a.0"}, []bool{false}, "[[2 1]]"},
		// A position the array does not have is read in each element.
		{`{"a": [{"5": 4}, {"5": 2}]}`, []string{"a.5"}, []bool{false}, "[2]"},
		// Fields through one array pair values from one element.
		{`{"a": [{"b": 1, "c": 9}, {"b": 2, "c": 0}]}`, []string{"a.c", "a.b"}, []bool{false, false}, "[0 2]"},
		{`{"a": [{"b": 1, "c": 9}, {"b": 2, "c": 0}]}`, []string{"a.b", "a.c"}, []bool{false, false}, "[1 9]"},
	}
	for _, c := range cases {
		var doc bson.D
		if err := bson.UnmarshalExtJSON([]byte(c.doc), false, &doc); err != nil {
			t.Fatal(err)
		}
		key, err := NewSortPattern(c.fields, c.desc).Key(doc, nil)
		if err != nil {
			t.Errorf("%s by %v: %v", c.doc, c.fields, err)
			continue
		}
		if got := fmt.Sprint(key); got != c.want {
			t.Errorf("%s by %v %v: key %s, want %s", c.doc, c.fields, c.desc, got, c.want)
		}
	}
	doc := bson.D{{Key: "a", Value: bson.A{int32(1)}}, {Key: "b", Value: bson.A{int32(2), int32(3)}}}
	_, err := NewSortPattern([]string{"a", "b"}, []bool{false, false}).Key(doc, nil)
	if e := mongoerr.As(err); e == nil || e.Code != mongoerr.BadValue || e.Msg != "cannot sort with keys that are parallel arrays" {
		t.Errorf("parallel arrays: %v", err)
	}
}
