package aggregate

import "testing"

var enrollments = []string{
	`{"_id": 1, "course": "db", "grade": 90, "student": "ann", "tags": ["a"]}`,
	`{"_id": 2, "course": "go", "grade": 70.5, "student": "bob", "tags": ["b"]}`,
	`{"_id": 3, "course": "db", "grade": 80, "student": "cid", "tags": ["a", "c"]}`,
	`{"_id": 4, "course": "go", "grade": {"$numberLong": "60"}, "student": "dan"}`,
	`{"_id": 5, "course": "db", "student": "eve"}`,
}

func TestGroupAccumulators(t *testing.T) {
	runCases(t, []pipelineCase{
		{
			name:     "every accumulator in one $group is computed",
			input:    enrollments,
			pipeline: `[{"$group": {"_id": "$course", "avg": {"$avg": "$grade"}, "total": {"$sum": "$grade"}, "n": {"$sum": 1}, "c": {"$count": {}}, "lo": {"$min": "$grade"}, "hi": {"$max": "$grade"}, "first": {"$first": "$student"}, "last": {"$last": "$grade"}, "who": {"$push": "$student"}, "grades": {"$push": "$grade"}, "tags": {"$addToSet": "$tags"}}}]`,
			want: []string{
				`{"_id": "db", "avg": 85.0, "total": 170, "n": 3, "c": 3, "lo": 80, "hi": 90, "first": "ann", "last": null, "who": ["ann", "cid", "eve"], "grades": [90, 80], "tags": [["a"], ["a", "c"]]}`,
				`{"_id": "go", "avg": 65.25, "total": 130.5, "n": 2, "c": 2, "lo": {"$numberLong": "60"}, "hi": 70.5, "first": "bob", "last": {"$numberLong": "60"}, "who": ["bob", "dan"], "grades": [70.5, {"$numberLong": "60"}], "tags": [["b"]]}`,
			},
		},
		{
			name:     "_id null groups everything; $avg of no numbers is null",
			input:    enrollments,
			pipeline: `[{"$group": {"_id": null, "avgName": {"$avg": "$student"}, "sumName": {"$sum": "$student"}, "min": {"$min": "$nothing"}}}]`,
			want:     []string{`{"_id": null, "avgName": null, "sumName": 0, "min": null}`},
		},
		{
			name:     "missing and null keys share the null group; numeric keys compare by value",
			input:    []string{`{"k": 1}`, `{"k": 1.0}`, `{"k": {"$numberLong": "1"}}`, `{"k": null}`, `{}`},
			pipeline: `[{"$group": {"_id": "$k", "n": {"$sum": 1}}}]`,
			want:     []string{`{"_id": 1, "n": 3}`, `{"_id": null, "n": 2}`},
		},
		{
			name:     "compound _id",
			input:    enrollments[:3],
			pipeline: `[{"$group": {"_id": {"c": "$course", "s": "$student"}, "g": {"$first": "$grade"}}}]`,
			want: []string{
				`{"_id": {"c": "db", "s": "ann"}, "g": 90}`,
				`{"_id": {"c": "go", "s": "bob"}, "g": 70.5}`,
				`{"_id": {"c": "db", "s": "cid"}, "g": 80}`,
			},
		},
		{
			name:     "empty input yields no group",
			pipeline: `[{"$group": {"_id": null, "n": {"$sum": 1}}}]`,
		},
		{
			name:     "stdDev (manual example)",
			input:    []string{`{"quiz": 1, "score": 85}`, `{"quiz": 1, "score": 96}`, `{"quiz": 1, "score": 75}`, `{"quiz": 1, "score": 82}`},
			pipeline: `[{"$group": {"_id": "$quiz", "pop": {"$stdDevPop": "$score"}, "one": {"$stdDevSamp": "$nothing"}}}]`,
			want:     []string{`{"_id": 1, "pop": 7.5663729752107765, "one": null}`},
		},
		{
			name:     "mergeObjects skips null",
			input:    []string{`{"k": 1, "o": {"a": 1, "b": 1}}`, `{"k": 1, "o": null}`, `{"k": 1, "o": {"b": 2, "c": 3}}`},
			pipeline: `[{"$group": {"_id": "$k", "m": {"$mergeObjects": "$o"}}}]`,
			want:     []string{`{"_id": 1, "m": {"a": 1, "b": 2, "c": 3}}`},
		},
		{
			name:     "top bottom topN bottomN firstN lastN minN maxN",
			input:    []string{`{"g": 1, "p": "a", "s": 3}`, `{"g": 1, "p": "b", "s": 1}`, `{"g": 1, "p": "c", "s": 2}`, `{"g": 1, "p": "d"}`},
			pipeline: `[{"$group": {"_id": "$g", "top": {"$top": {"sortBy": {"s": -1}, "output": "$p"}}, "bottom": {"$bottom": {"sortBy": {"s": -1}, "output": ["$p", "$s"]}}, "top2": {"$topN": {"n": 2, "sortBy": {"s": 1}, "output": "$p"}}, "bot2": {"$bottomN": {"n": 2, "sortBy": {"s": 1}, "output": "$s"}}, "f": {"$firstN": {"n": 2, "input": "$s"}}, "l": {"$lastN": {"n": 2, "input": "$s"}}, "mn": {"$minN": {"n": 2, "input": "$s"}}, "mx": {"$maxN": {"n": 5, "input": "$s"}}}}]`,
			want:     []string{`{"_id": 1, "top": "a", "bottom": ["d", null], "top2": ["d", "b"], "bot2": [2, 3], "f": [3, 1], "l": [2, null], "mn": [1, 2], "mx": [3, 2, 1]}`},
		},
	})
}

func TestGroupErrors(t *testing.T) {
	runErrorCases(t, []errorCase{
		{name: "not an object", pipeline: `[{"$group": 1}]`, code: 15947, msg: "a group's fields must be specified in an object"},
		{name: "no _id", pipeline: `[{"$group": {"n": {"$sum": 1}}}]`, code: 15955, msg: "a group specification must include an _id"},
		{name: "unknown accumulator", pipeline: `[{"$group": {"_id": null, "n": {"$foo": 1}}}]`, code: 15952, msg: "unknown group operator '$foo'"},
		{name: "not an accumulator object", pipeline: `[{"$group": {"_id": null, "n": 1}}]`, code: 40234, msg: "The field 'n' must be an accumulator object"},
		{name: "dotted field", pipeline: `[{"$group": {"_id": null, "a.b": {"$sum": 1}}}]`, code: 40235, msg: "The field name 'a.b' cannot contain '.'"},
		{name: "two accumulators", pipeline: `[{"$group": {"_id": null, "n": {"$sum": 1, "$avg": 1}}}]`, code: 40238, msg: "The field 'n' must specify one accumulator"},
		{name: "unary", pipeline: `[{"$group": {"_id": null, "n": {"$sum": [1, 2]}}}]`, code: 40237, msg: "The $sum accumulator is a unary operator"},
		{name: "mergeObjects non-object", pipeline: `[{"$group": {"_id": null, "m": {"$mergeObjects": "$a"}}}]`, input: []string{`{"a": 1}`}, code: 40400},
	})
}

func TestCountAndSortByCount(t *testing.T) {
	runCases(t, []pipelineCase{
		{name: "$count", input: enrollments, pipeline: `[{"$match": {"course": "db"}}, {"$count": "dbStudents"}]`, want: []string{`{"dbStudents": 3}`}},
		{name: "$count of nothing", input: enrollments, pipeline: `[{"$match": {"course": "x"}}, {"$count": "n"}]`},
		{name: "$sortByCount", input: enrollments, pipeline: `[{"$sortByCount": "$course"}]`, want: []string{`{"_id": "db", "count": 3}`, `{"_id": "go", "count": 2}`}},
	})
	runErrorCases(t, []errorCase{
		{name: "count empty", pipeline: `[{"$count": ""}]`, code: 40157, msg: "the count field must be a non-empty string"},
		{name: "count $", pipeline: `[{"$count": "$x"}]`, code: 40158, msg: "the count field cannot be a $-prefixed path"},
		{name: "count dot", pipeline: `[{"$count": "a.b"}]`, code: 40160, msg: "the count field cannot contain '.'"},
		{name: "sortByCount", pipeline: `[{"$sortByCount": "x"}]`, code: 40148},
	})
}
