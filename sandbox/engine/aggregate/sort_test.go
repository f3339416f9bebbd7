package aggregate

import "testing"

func TestSort(t *testing.T) {
	runCases(t, []pipelineCase{
		{name: "ascending uses the smallest array element, missing sorts as null, empty array first",
			input:    []string{`{"_id": 1, "a": [5, 1]}`, `{"_id": 2, "a": 3}`, `{"_id": 3}`, `{"_id": 4, "a": null}`, `{"_id": 5, "a": []}`, `{"_id": 6, "a": "s"}`},
			pipeline: `[{"$sort": {"a": 1, "_id": 1}}]`,
			want:     []string{`{"_id": 5, "a": []}`, `{"_id": 3}`, `{"_id": 4, "a": null}`, `{"_id": 1, "a": [5, 1]}`, `{"_id": 2, "a": 3}`, `{"_id": 6, "a": "s"}`}},
		{name: "descending uses the largest array element",
			input:    []string{`{"_id": 1, "a": [5, 1]}`, `{"_id": 2, "a": 3}`, `{"_id": 3, "a": [4]}`},
			pipeline: `[{"$sort": {"a": -1}}]`,
			want:     []string{`{"_id": 1, "a": [5, 1]}`, `{"_id": 3, "a": [4]}`, `{"_id": 2, "a": 3}`}},
		{name: "dotted path into array of documents",
			input:    []string{`{"_id": 1, "a": [{"b": 9}, {"b": 2}]}`, `{"_id": 2, "a": {"b": 5}}`},
			pipeline: `[{"$sort": {"a.b": 1}}]`,
			want:     []string{`{"_id": 1, "a": [{"b": 9}, {"b": 2}]}`, `{"_id": 2, "a": {"b": 5}}`}},
		{name: "$sort + $limit keeps the top k, stable on ties",
			input:    []string{`{"_id": 1, "s": 2}`, `{"_id": 2, "s": 1}`, `{"_id": 3, "s": 2}`, `{"_id": 4, "s": 3}`, `{"_id": 5, "s": 1}`},
			pipeline: `[{"$sort": {"s": 1}}, {"$limit": 3}]`,
			want:     []string{`{"_id": 2, "s": 1}`, `{"_id": 5, "s": 1}`, `{"_id": 1, "s": 2}`}},
		{name: "$skip and $limit",
			input:    []string{`{"_id": 1}`, `{"_id": 2}`, `{"_id": 3}`, `{"_id": 4}`},
			pipeline: `[{"$skip": 1}, {"$limit": 2}]`,
			want:     []string{`{"_id": 2}`, `{"_id": 3}`}},
		{name: "numbers across types",
			input:    []string{`{"_id": 1, "a": 2.5}`, `{"_id": 2, "a": {"$numberLong": "2"}}`, `{"_id": 3, "a": 3}`},
			pipeline: `[{"$sort": {"a": -1}}]`,
			want:     []string{`{"_id": 3, "a": 3}`, `{"_id": 1, "a": 2.5}`, `{"_id": 2, "a": {"$numberLong": "2"}}`}},
	})
	runErrorCases(t, []errorCase{
		{name: "not object", pipeline: `[{"$sort": 1}]`, code: 15973, msg: "the $sort key specification must be an object"},
		{name: "empty", pipeline: `[{"$sort": {}}]`, code: 15976, msg: "$sort stage must have at least one sort key"},
		{name: "bad order", pipeline: `[{"$sort": {"a": 2}}]`, code: 15975, msg: "$sort key ordering must be 1 (for ascending) or -1 (for descending)"},
		{name: "limit 0", pipeline: `[{"$limit": 0}]`, code: 15958, msg: "the limit must be positive"},
		{name: "limit negative", pipeline: `[{"$limit": -1}]`, code: 5107201, msg: "invalid argument to $limit stage: Expected a non-negative number in: $limit: -1"},
		{name: "limit string", pipeline: `[{"$limit": "a"}]`, code: 5107201, msg: `invalid argument to $limit stage: Expected a number in: $limit: "a"`},
		{name: "skip negative", pipeline: `[{"$skip": -1}]`, code: 5107200, msg: "invalid argument to $skip stage: Expected a non-negative number in: $skip: -1"},
	})
}
