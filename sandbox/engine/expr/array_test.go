package expr

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func TestArrayOperators(t *testing.T) {
	runCases(t, []exprCase{
		{name: "size", expr: `{"$size": "$a"}`, doc: `{"a": [1, 2, 3]}`, want: `{"$numberInt": "3"}`},
		{name: "size string", expr: `{"$size": "$a"}`, doc: `{"a": "abc"}`, code: 17124, msg: "The argument to $size must be an array, but was of type: string"},
		{name: "size missing", expr: `{"$size": "$a"}`, code: 17124, msg: "The argument to $size must be an array, but was of type: missing"},
		{name: "arrayElemAt", expr: `{"$arrayElemAt": [[1, 2, 3], -1]}`, want: `{"$numberInt": "3"}`},
		{name: "arrayElemAt out of range", expr: `{"$arrayElemAt": [[1, 2, 3], 15]}`, want: `missing`},
		{name: "arrayElemAt not array", expr: `{"$arrayElemAt": ["x", 0]}`, code: 28689},
		{name: "first", expr: `{"$first": "$a"}`, doc: `{"a": [4, 5]}`, want: `{"$numberInt": "4"}`},
		{name: "last", expr: `{"$last": "$a"}`, doc: `{"a": [4, 5]}`, want: `{"$numberInt": "5"}`},
		{name: "first empty", expr: `{"$first": "$a"}`, doc: `{"a": []}`, want: `missing`},
		{name: "first missing", expr: `{"$first": "$a"}`, want: `null`},
		{name: "first non array", expr: `{"$first": "$a"}`, doc: `{"a": 1}`, code: 28689, msg: "$first's argument must be an array, but is int"},
		{name: "filter", expr: `{"$filter": {"input": [1, 2, 3, 4], "as": "n", "cond": {"$gte": ["$$n", 3]}}}`, want: `[3, 4]`},
		{name: "filter this", expr: `{"$filter": {"input": [1, 2, 3, 4], "cond": {"$lt": ["$$this", 3]}, "limit": 1}}`, want: `[1]`},
		{name: "filter null input", expr: `{"$filter": {"input": "$x", "cond": true}}`, want: `null`},
		{name: "filter non array", expr: `{"$filter": {"input": 1, "cond": true}}`, code: 28651},
		{name: "map", expr: `{"$map": {"input": "$a", "as": "x", "in": {"$multiply": ["$$x", 2]}}}`, doc: `{"a": [1, 2]}`, want: `[2, 4]`},
		{name: "map missing in", expr: `{"$map": {"input": [1]}}`, code: 16882},
		{name: "reduce sum", expr: `{"$reduce": {"input": [1, 2, 3], "initialValue": 0, "in": {"$add": ["$$value", "$$this"]}}}`, want: `{"$numberInt": "6"}`},
		{name: "reduce concat", expr: `{"$reduce": {"input": ["a", "b"], "initialValue": "", "in": {"$concat": ["$$value", "$$this"]}}}`, want: `"ab"`},
		{name: "reduce this outside", expr: `"$$this"`, code: 17276},
		{name: "slice", expr: `{"$slice": [[1, 2, 3, 4], 2]}`, want: `[1, 2]`},
		{name: "slice negative", expr: `{"$slice": [[1, 2, 3, 4], -2]}`, want: `[3, 4]`},
		{name: "slice position", expr: `{"$slice": [[1, 2, 3, 4], 1, 2]}`, want: `[2, 3]`},
		{name: "slice negative position", expr: `{"$slice": [[1, 2, 3, 4], -3, 2]}`, want: `[2, 3]`},
		{name: "slice zero count", expr: `{"$slice": [[1, 2], 0, 0]}`, code: 28729},
		{name: "concatArrays", expr: `{"$concatArrays": [[1], [2, 3], []]}`, want: `[1, 2, 3]`},
		{name: "concatArrays null", expr: `{"$concatArrays": [[1], "$x"]}`, want: `null`},
		{name: "concatArrays type", expr: `{"$concatArrays": [[1], 2]}`, code: 28664},
		{name: "in", expr: `{"$in": [2, [1, 2]]}`, want: `true`},
		{name: "in not array", expr: `{"$in": [2, "x"]}`, code: 40081, msg: "$in requires an array as a second argument, found: string"},
		{name: "isArray", expr: `{"$isArray": ["$a"]}`, doc: `{"a": []}`, want: `true`},
		{name: "range", expr: `{"$range": [0, 10, 3]}`, want: `[0, 3, 6, 9]`},
		{name: "range negative", expr: `{"$range": [5, 0, -2]}`, want: `[5, 3, 1]`},
		{name: "range zero step", expr: `{"$range": [0, 1, 0]}`, code: 34449},
		{name: "reverseArray", expr: `{"$reverseArray": [[1, 2, 3]]}`, want: `[3, 2, 1]`},
		{name: "indexOfArray", expr: `{"$indexOfArray": [["a", "b", "a"], "a", 1]}`, want: `{"$numberInt": "2"}`},
		{name: "indexOfArray absent", expr: `{"$indexOfArray": [["a"], "z"]}`, want: `{"$numberInt": "-1"}`},
		{name: "zip", expr: `{"$zip": {"inputs": [[1, 2], ["a", "b", "c"]]}}`, want: `[[1, "a"], [2, "b"]]`},
		{name: "zip longest", expr: `{"$zip": {"inputs": [[1], ["a", "b"]], "useLongestLength": true, "defaults": [0, "z"]}}`, want: `[[1, "a"], [0, "b"]]`},
		{name: "anyElementTrue", expr: `{"$anyElementTrue": [[0, null, 1]]}`, want: `true`},
		{name: "allElementsTrue", expr: `{"$allElementsTrue": [[1, 0]]}`, want: `false`},
		{name: "allElementsTrue non array", expr: `{"$allElementsTrue": [1]}`, code: 17040},
		{name: "sortArray numbers", expr: `{"$sortArray": {"input": [3, 1, 2], "sortBy": -1}}`, want: `[3, 2, 1]`},
		{name: "sortArray docs", expr: `{"$sortArray": {"input": [{"a": 2}, {"a": 1}], "sortBy": {"a": 1}}}`, want: `[{"a": 1}, {"a": 2}]`},
		{name: "sum over array", expr: `{"$sum": "$a"}`, doc: `{"a": [1, 2, "x", 3]}`, want: `{"$numberInt": "6"}`},
		{name: "sum of args", expr: `{"$sum": [1, 2.5]}`, want: `3.5`},
		{name: "sum scalar", expr: `{"$sum": "$a"}`, doc: `{"a": 4}`, want: `{"$numberInt": "4"}`},
		{name: "sum non numeric", expr: `{"$sum": "$a"}`, doc: `{"a": "x"}`, want: `{"$numberInt": "0"}`},
		{name: "avg", expr: `{"$avg": "$a"}`, doc: `{"a": [1, 2]}`, want: `1.5`},
		{name: "avg empty", expr: `{"$avg": "$a"}`, doc: `{"a": []}`, want: `null`},
		{name: "max", expr: `{"$max": [1, "$nope", 5, null]}`, want: `{"$numberInt": "5"}`},
		{name: "min array", expr: `{"$min": "$a"}`, doc: `{"a": [3, 1, 2]}`, want: `{"$numberInt": "1"}`},
		{name: "min all null", expr: `{"$min": [null, "$x"]}`, want: `null`},
		{name: "stdDevPop", expr: `{"$stdDevPop": [[1, 2, 3, 4]]}`, want: `1.118033988749895`},
		{name: "firstN", expr: `{"$firstN": {"n": 2, "input": [1, 2, 3]}}`, want: `[1, 2]`},
		{name: "maxN", expr: `{"$maxN": {"n": 2, "input": [3, null, 1, 5]}}`, want: `[5, 3]`},
		{name: "setUnion", expr: `{"$setUnion": [[1, 2], [2, 3]]}`, want: `[1, 2, 3]`},
		{name: "setIntersection", expr: `{"$setIntersection": [[1, 2], [2, 3]]}`, want: `[2]`},
		{name: "setDifference", expr: `{"$setDifference": [[1, 2, 3], [2]]}`, want: `[1, 3]`},
		{name: "setEquals", expr: `{"$setEquals": [[1, 2, 2], [2, 1]]}`, want: `true`},
		{name: "setIsSubset", expr: `{"$setIsSubset": [[1], [1, 2]]}`, want: `true`},
	})
}

func TestRangeMemoryLimit(t *testing.T) {
	runCases(t, []exprCase{
		{name: "range too large", expr: `{"$range": [0, 2000000000]}`, code: mongoerr.ExceededMemoryLimit},
		{name: "range empty", expr: `{"$range": [5, 0]}`, want: `[]`},
	})
}

// The outlier lesson (seed 000) counts customers with a missing-safe $size.
func TestSeedCustomerCount(t *testing.T) {
	runCases(t, []exprCase{
		{name: "with customers", expr: `{"$size": {"$ifNull": ["$customers", []]}}`, doc: `{"customers": ["a", "b"]}`, want: `{"$numberInt": "2"}`},
		{name: "without customers", expr: `{"$size": {"$ifNull": ["$customers", []]}}`, doc: `{"title": "x"}`, want: `{"$numberInt": "0"}`},
		{name: "null customers", expr: `{"$size": {"$ifNull": ["$customers", []]}}`, doc: `{"customers": null}`, want: `{"$numberInt": "0"}`},
	})
}
