package projection

import "testing"

func TestComputedFields(t *testing.T) {
	doc := D{{Key: "_id", Value: int32(1)}, {Key: "a", Value: int32(2)}, {Key: "b", Value: int32(3)}, {Key: "c", Value: D{{Key: "x", Value: int32(1)}, {Key: "y", Value: int32(2)}}}}
	cases := []struct {
		name string
		spec D
		want D
	}{
		{"expression after included fields", D{{Key: "total", Value: D{{Key: "$add", Value: A{"$a", int32(1)}}}}, {Key: "b", Value: int32(1)}},
			D{{Key: "_id", Value: int32(1)}, {Key: "b", Value: int32(3)}, {Key: "total", Value: int32(3)}}},
		{"literal string", D{{Key: "_id", Value: int32(0)}, {Key: "s", Value: "hello"}}, D{{Key: "s", Value: "hello"}}},
		{"field path value", D{{Key: "_id", Value: int32(0)}, {Key: "copy", Value: "$a"}}, D{{Key: "copy", Value: int32(2)}}},
		{"$literal number", D{{Key: "_id", Value: int32(0)}, {Key: "one", Value: D{{Key: "$literal", Value: int32(1)}}}}, D{{Key: "one", Value: int32(1)}}},
		{"replaces an existing field", D{{Key: "a", Value: D{{Key: "$literal", Value: "x"}}}, {Key: "b", Value: int32(1)}},
			D{{Key: "_id", Value: int32(1)}, {Key: "b", Value: int32(3)}, {Key: "a", Value: "x"}}},
		{"nested computed keeps included siblings", D{{Key: "c.x", Value: int32(1)}, {Key: "c.z", Value: D{{Key: "$literal", Value: int32(9)}}}},
			D{{Key: "_id", Value: int32(1)}, {Key: "c", Value: D{{Key: "x", Value: int32(1)}, {Key: "z", Value: int32(9)}}}}},
		{"computed into missing parent", D{{Key: "_id", Value: int32(0)}, {Key: "n.v", Value: "$b"}}, D{{Key: "n", Value: D{{Key: "v", Value: int32(3)}}}}},
		{"aggregation $slice", D{{Key: "_id", Value: int32(0)}, {Key: "s", Value: D{{Key: "$slice", Value: A{A{int32(1), int32(2), int32(3)}, int32(2)}}}}}, D{{Key: "s", Value: A{int32(1), int32(2)}}}},
		{"$$REMOVE drops the field", D{{Key: "_id", Value: int32(0)}, {Key: "a", Value: "$$REMOVE"}, {Key: "b", Value: int32(1)}}, D{{Key: "b", Value: int32(3)}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := apply(t, c.spec, Options{}, doc, -1)
			if extJSON(got) != extJSON(c.want) {
				t.Errorf("got  %s\nwant %s", extJSON(got), extJSON(c.want))
			}
		})
	}
}
