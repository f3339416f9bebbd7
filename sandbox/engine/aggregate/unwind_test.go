package aggregate

import "testing"

func TestUnwind(t *testing.T) {
	inventory := []string{
		`{"_id": 1, "item": "ABC", "sizes": ["S", "M", "L"]}`,
		`{"_id": 2, "item": "EFG", "sizes": []}`,
		`{"_id": 3, "item": "IJK", "sizes": "M"}`,
		`{"_id": 4, "item": "LMN"}`,
		`{"_id": 5, "item": "XYZ", "sizes": null}`,
	}
	runCases(t, []pipelineCase{
		{name: "string form", input: inventory, pipeline: `[{"$unwind": "$sizes"}]`, want: []string{
			`{"_id": 1, "item": "ABC", "sizes": "S"}`, `{"_id": 1, "item": "ABC", "sizes": "M"}`, `{"_id": 1, "item": "ABC", "sizes": "L"}`,
			`{"_id": 3, "item": "IJK", "sizes": "M"}`}},
		{name: "includeArrayIndex", input: inventory, pipeline: `[{"$unwind": {"path": "$sizes", "includeArrayIndex": "arrayIndex"}}]`, want: []string{
			`{"_id": 1, "item": "ABC", "sizes": "S", "arrayIndex": {"$numberLong": "0"}}`,
			`{"_id": 1, "item": "ABC", "sizes": "M", "arrayIndex": {"$numberLong": "1"}}`,
			`{"_id": 1, "item": "ABC", "sizes": "L", "arrayIndex": {"$numberLong": "2"}}`,
			`{"_id": 3, "item": "IJK", "sizes": "M", "arrayIndex": null}`}},
		{name: "preserveNullAndEmptyArrays", input: inventory, pipeline: `[{"$unwind": {"path": "$sizes", "preserveNullAndEmptyArrays": true}}]`, want: []string{
			`{"_id": 1, "item": "ABC", "sizes": "S"}`, `{"_id": 1, "item": "ABC", "sizes": "M"}`, `{"_id": 1, "item": "ABC", "sizes": "L"}`,
			`{"_id": 2, "item": "EFG"}`, `{"_id": 3, "item": "IJK", "sizes": "M"}`, `{"_id": 4, "item": "LMN"}`, `{"_id": 5, "item": "XYZ", "sizes": null}`}},
		{name: "nested path", input: []string{`{"_id": 1, "a": {"b": [1, 2], "c": 3}}`}, pipeline: `[{"$unwind": "$a.b"}]`, want: []string{
			`{"_id": 1, "a": {"b": 1, "c": 3}}`, `{"_id": 1, "a": {"b": 2, "c": 3}}`}},
	})
	runErrorCases(t, []errorCase{
		{name: "no $", pipeline: `[{"$unwind": "sizes"}]`, code: 28818, msg: "path option to $unwind stage should be prefixed with a '$': sizes"},
		{name: "bad type", pipeline: `[{"$unwind": 1}]`, code: 15981},
		{name: "unknown option", pipeline: `[{"$unwind": {"path": "$a", "foo": 1}}]`, code: 28811, msg: "unrecognized option to $unwind stage: foo"},
		{name: "no path", pipeline: `[{"$unwind": {}}]`, code: 28812},
		{name: "preserve not bool", pipeline: `[{"$unwind": {"path": "$a", "preserveNullAndEmptyArrays": 1}}]`, code: 28809},
	})
}
