package index

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// The keys WildcardKeyGenerator (src/mongo/db/index/wildcard_key_generator.cpp)
// gives a document, in index order, and the paths it records as multikey.
func TestWildcardKeys(t *testing.T) {
	cases := []struct {
		name      string
		key       string
		proj      bson.D
		doc       string
		keys      string
		multikeys []string
	}{
		{"leaves, _id left out", "$**", nil, `{"_id": 1, "a": 1, "b": {"c": "x", "d": {}}}`,
			`[["a", 1], ["b.c", "x"], ["b.d", {}]]`, nil},
		{"array elements, nested arrays as values, empty array as undefined", "$**", nil,
			`{"a": [1, [2, 3], {"b": 4}, {}], "e": [], "f": [[]]}`,
			`[["a", 1], ["a", {}], ["a", [2, 3]], ["a.b", 4], ["e", {"$undefined": true}], ["f", []]]`, []string{"a", "e", "f"}},
		{"equal elements are one key", "$**", nil, `{"a": [2, 2, 1]}`, `[["a", 1], ["a", 2]]`, []string{"a"}},
		{"a subtree", "b.$**", nil, `{"a": 1, "b": {"c": 2}, "bb": 3}`, `[["b.c", 2]]`, nil},
		{"an inclusion projection keeps _id out", "$**", bson.D{{Key: "a", Value: int32(1)}}, `{"_id": 1, "a": {"x": 1}, "b": 2}`, `[["a.x", 1]]`, nil},
		{"an exclusion projection naming _id keeps it", "$**", bson.D{{Key: "_id", Value: int32(1)}, {Key: "a", Value: int32(0)}}, `{"_id": 1, "a": 1, "b": 2}`,
			`[["_id", 1], ["b", 2]]`, nil},
		{"_id alone is an inclusion", "$**", bson.D{{Key: "_id", Value: int32(1)}}, `{"_id": 1, "b": 2}`, `[["_id", 1]]`, nil},
		{"a field name with a dot is skipped", "$**", nil, `{"a.b": 1, "c": 2}`, `[["c", 2]]`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec := bson.D{{Key: "key", Value: bson.D{{Key: c.key, Value: int32(1)}}}, {Key: "name", Value: "w"}}
			if c.proj != nil {
				spec = append(spec, bson.E{Key: "wildcardProjection", Value: c.proj})
			}
			ix := New(mustSpec(t, spec), nil)
			var doc bson.D
			if err := bson.UnmarshalExtJSON([]byte(c.doc), true, &doc); err != nil {
				t.Fatal(err)
			}
			ks, err := ix.Keys(doc)
			if err != nil {
				t.Fatal(err)
			}
			var w bson.D
			if err := bson.UnmarshalExtJSON([]byte(`{"k": `+c.keys+`}`), true, &w); err != nil {
				t.Fatal(err)
			}
			want := w[0].Value.(bson.A)
			got := bson.A{}
			for _, k := range ks.Keys {
				got = append(got, bson.A(k))
			}
			if value.Compare(got, want) != 0 || len(got) != len(want) {
				t.Errorf("keys %v, want %v", got, want)
			}
			if w := ix.Wildcard(); !w.Indexes("_id") && len(c.proj) > 0 && c.proj[0].Key == "_id" && c.proj[0].Value == int32(1) {
				t.Errorf("the projection %v leaves _id out of the planner's paths", c.proj)
			}
			if len(ks.multikeyPaths) != len(c.multikeys) {
				t.Errorf("multikey paths %v, want %v", ks.multikeyPaths, c.multikeys)
			}
		})
	}
}
