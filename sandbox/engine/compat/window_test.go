package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

const (
	rankJS  = "jstests/aggregation/sources/setWindowFields/rank.js"
	shiftJS = "jstests/aggregation/sources/setWindowFields/shift.js"
)

func TestSetWindowFields(t *testing.T) {
	rankDocs := `[{"_id": 0, "double": 0},
		{"_id": 1, "double": 0, "nullOrMissing": null},
		{"_id": 2, "double": 1, "nullOrMissing": [null]},
		{"_id": 3, "double": 1, "nullOrMissing": ["abc", null]},
		{"_id": 4, "double": 2},
		{"_id": 5, "double": 2, "nullOrMissing": null},
		{"_id": 6, "double": 3, "nullOrMissing": [null]},
		{"_id": 7, "double": 3, "nullOrMissing": ["abc", null]},
		{"_id": 8, "double": 4},
		{"_id": 9, "double": 4, "nullOrMissing": null},
		{"_id": 10, "double": 5, "nullOrMissing": [null]},
		{"_id": 11, "double": 5, "nullOrMissing": ["abc", null]}]`
	shiftDocs := `[{"_id": 0, "one": 0, "partition": 0, "partitionSeq": 0},
		{"_id": 1, "one": 1, "partition": 1, "partitionSeq": 0},
		{"_id": 2, "one": 2, "partition": 0, "partitionSeq": 1},
		{"_id": 3, "one": 3, "partition": 1, "partitionSeq": 1},
		{"_id": 4, "one": 4, "partition": 0, "partitionSeq": 2},
		{"_id": 5, "one": 5, "partition": 1, "partitionSeq": 2},
		{"_id": 6, "one": 6, "partition": 0, "partitionSeq": 3},
		{"_id": 7, "one": 7, "partition": 1, "partitionSeq": 3},
		{"_id": 8, "one": 8, "partition": 0, "partitionSeq": 4},
		{"_id": 9, "one": 9, "partition": 1, "partitionSeq": 4}]`
	// Each window result is projected alone, in the order of the input's
	// _id, as the jstests compare them.
	byID := `{"$sort": {"_id": 1}}, {"$project": {"_id": 0, "r": 1}}`
	runAggCases(t, []aggCase{
		{name: "rank with ties", ref: rankJS, docs: rankDocs,
			pipeline: `[{"$setWindowFields": {"sortBy": {"double": 1}, "output": {"r": {"$rank": {}}}}}, ` + byID + `]`,
			want:     `[{"r": 1}, {"r": 1}, {"r": 3}, {"r": 3}, {"r": 5}, {"r": 5}, {"r": 7}, {"r": 7}, {"r": 9}, {"r": 9}, {"r": 11}, {"r": 11}]`},
		{name: "denseRank with ties", ref: rankJS, docs: rankDocs,
			pipeline: `[{"$setWindowFields": {"sortBy": {"double": 1}, "output": {"r": {"$denseRank": {}}}}}, ` + byID + `]`,
			want:     `[{"r": 1}, {"r": 1}, {"r": 2}, {"r": 2}, {"r": 3}, {"r": 3}, {"r": 4}, {"r": 4}, {"r": 5}, {"r": 5}, {"r": 6}, {"r": 6}]`},
		{name: "documentNumber with ties", ref: rankJS, docs: rankDocs,
			pipeline: `[{"$setWindowFields": {"sortBy": {"double": 1}, "output": {"r": {"$documentNumber": {}}}}}, ` + byID + `]`,
			want:     `[{"r": 1}, {"r": 2}, {"r": 3}, {"r": 4}, {"r": 5}, {"r": 6}, {"r": 7}, {"r": 8}, {"r": 9}, {"r": 10}, {"r": 11}, {"r": 12}]`},
		{name: "rank over null, missing and arrays of null", ref: rankJS, docs: rankDocs,
			pipeline: `[{"$setWindowFields": {"sortBy": {"nullOrMissing": 1}, "output": {"r": {"$rank": {}}}}}, ` + byID + `]`,
			want:     `[{"r": 1}, {"r": 1}, {"r": 1}, {"r": 1}, {"r": 1}, {"r": 1}, {"r": 1}, {"r": 1}, {"r": 1}, {"r": 1}, {"r": 1}, {"r": 1}]`},
		{name: "rank takes no window", ref: rankJS, docs: rankDocs,
			pipeline: `[{"$setWindowFields": {"sortBy": {"_id": 1}, "output": {"r": {"$rank": {}, "window": {"documents": [-1, 1]}}}}}]`, code: 5371601},
		{name: "rank takes no argument", ref: rankJS, docs: rankDocs,
			pipeline: `[{"$setWindowFields": {"sortBy": {"_id": 1}, "output": {"r": {"$rank": "$_id"}}}}]`, code: 5371603},
		{name: "rank needs sortBy", ref: rankJS, docs: rankDocs,
			pipeline: `[{"$setWindowFields": {"output": {"r": {"$rank": {}}}}}]`, code: 5371602},
		{name: "shift left with a default", ref: shiftJS, docs: shiftDocs,
			pipeline: `[{"$setWindowFields": {"sortBy": {"one": 1}, "output": {"r": {"$shift": {"by": -1, "output": "$one", "default": -10}}}}}, ` + byID + `]`,
			want:     `[{"r": -10}, {"r": 0}, {"r": 1}, {"r": 2}, {"r": 3}, {"r": 4}, {"r": 5}, {"r": 6}, {"r": 7}, {"r": 8}]`},
		{name: "shift right without a default", ref: shiftJS, docs: shiftDocs,
			pipeline: `[{"$setWindowFields": {"sortBy": {"one": 1}, "output": {"r": {"$shift": {"by": 1, "output": "$one"}}}}}, ` + byID + `]`,
			want:     `[{"r": 1}, {"r": 2}, {"r": 3}, {"r": 4}, {"r": 5}, {"r": 6}, {"r": 7}, {"r": 8}, {"r": 9}, {"r": null}]`},
		{name: "shift within partitions", ref: shiftJS, docs: shiftDocs,
			pipeline: `[{"$setWindowFields": {"partitionBy": "$partition", "sortBy": {"one": 1}, "output": {"r": {"$shift": {"by": -1, "output": "$one"}}}}}, ` + byID + `]`,
			want:     `[{"r": null}, {"r": null}, {"r": 0}, {"r": 1}, {"r": 2}, {"r": 3}, {"r": 4}, {"r": 5}, {"r": 6}, {"r": 7}]`},
		{name: "shift default of a missing output", ref: shiftJS, docs: `[{"_id": 1}, {"_id": 2}]`,
			pipeline: `[{"$setWindowFields": {"sortBy": {"_id": 1}, "output": {"a": {"$shift": {"output": "$b", "by": 1, "default": "c"}}}}}]`,
			want:     `[{"_id": 1, "a": "c"}, {"_id": 2, "a": "c"}]`},
		{name: "shift needs by", ref: shiftJS, docs: shiftDocs,
			pipeline: `[{"$setWindowFields": {"sortBy": {"one": 1}, "output": {"a": {"$shift": {"output": "$one"}}}}}]`, code: mongoerr.FailedToParse},
		{name: "shift by a fraction", ref: shiftJS, docs: shiftDocs,
			pipeline: `[{"$setWindowFields": {"sortBy": {"one": 1}, "output": {"a": {"$shift": {"by": 1.1, "output": "$one"}}}}}]`, code: mongoerr.FailedToParse},
		{name: "shift default must be constant", ref: shiftJS, docs: shiftDocs,
			pipeline: `[{"$setWindowFields": {"sortBy": {"one": 1}, "output": {"a": {"$shift": {"by": 1, "output": "$one", "default": "$one"}}}}}]`, code: mongoerr.FailedToParse},
		{name: "shift needs sortBy", ref: shiftJS, docs: shiftDocs,
			pipeline: `[{"$setWindowFields": {"output": {"a": {"$shift": {"by": 1, "output": "$one"}}}}}]`, code: mongoerr.FailedToParse},
		{name: "running sum by documents", ref: "manual: reference/operator/aggregation/setWindowFields (Use Documents Window to Obtain Cumulative Quantity for Each State)",
			docs: `[{"_id": 0, "state": "CA", "orderDate": {"$date": "2020-05-18T14:10:30Z"}, "quantity": 162},
				{"_id": 1, "state": "WA", "orderDate": {"$date": "2021-03-20T11:30:05Z"}, "quantity": 104},
				{"_id": 2, "state": "CA", "orderDate": {"$date": "2021-01-11T06:31:15Z"}, "quantity": 145},
				{"_id": 3, "state": "WA", "orderDate": {"$date": "2020-02-08T13:13:23Z"}, "quantity": 140},
				{"_id": 4, "state": "CA", "orderDate": {"$date": "2019-05-18T16:09:01Z"}, "quantity": 134},
				{"_id": 5, "state": "WA", "orderDate": {"$date": "2019-01-08T06:12:03Z"}, "quantity": 104}]`,
			pipeline: `[{"$setWindowFields": {"partitionBy": "$state", "sortBy": {"orderDate": 1},
				"output": {"cumulativeQuantityForState": {"$sum": "$quantity", "window": {"documents": ["unbounded", "current"]}}}}},
				{"$project": {"state": 1, "quantity": 1, "cumulativeQuantityForState": 1}}]`,
			want: `[{"_id": 4, "state": "CA", "quantity": 134, "cumulativeQuantityForState": 134},
				{"_id": 0, "state": "CA", "quantity": 162, "cumulativeQuantityForState": 296},
				{"_id": 2, "state": "CA", "quantity": 145, "cumulativeQuantityForState": 441},
				{"_id": 5, "state": "WA", "quantity": 104, "cumulativeQuantityForState": 104},
				{"_id": 3, "state": "WA", "quantity": 140, "cumulativeQuantityForState": 244},
				{"_id": 1, "state": "WA", "quantity": 104, "cumulativeQuantityForState": 348}]`},
	})
}

const (
	unwindIndexJS    = "jstests/aggregation/sources/unwind/unwind_include_array_index.js"
	unwindPreserveJS = "jstests/aggregation/sources/unwind/unwind_preserve_null_and_empty_arrays.js"
)

func TestUnwind(t *testing.T) {
	xs := `[{"_id": 0}, {"_id": 1, "x": null}, {"_id": 2, "x": []}, {"_id": 3, "x": [1, 2, 3]}, {"_id": 4, "x": 5}]`
	runAggCases(t, []aggCase{
		{name: "a scalar unwinds to itself", ref: "jstests/aggregation/sources/unwind/unwind.js",
			docs:     `[{"_id": 1}, {"_id": 2, "x": null}, {"_id": 3, "x": []}, {"_id": 4, "x": [1, 2]}, {"_id": 5, "x": [3]}, {"_id": 6, "x": 4}]`,
			pipeline: `[{"$unwind": "$x"}, {"$sort": {"_id": 1}}, {"$project": {"_id": 0, "x": 1}}]`,
			want:     `[{"x": 1}, {"x": 2}, {"x": 3}, {"x": 4}]`},
		{name: "includeArrayIndex", ref: unwindIndexJS, docs: xs,
			pipeline: `[{"$unwind": {"path": "$x", "includeArrayIndex": "index"}}, {"$sort": {"_id": 1, "x": 1}}]`,
			want: `[{"_id": 3, "x": 1, "index": {"$numberLong": "0"}}, {"_id": 3, "x": 2, "index": {"$numberLong": "1"}},
				{"_id": 3, "x": 3, "index": {"$numberLong": "2"}}, {"_id": 4, "x": 5, "index": null}]`},
		{name: "includeArrayIndex and preserveNullAndEmptyArrays", ref: unwindIndexJS, docs: xs,
			pipeline: `[{"$unwind": {"path": "$x", "includeArrayIndex": "index", "preserveNullAndEmptyArrays": true}}, {"$sort": {"_id": 1, "x": 1}}]`,
			want: `[{"_id": 0, "index": null}, {"_id": 1, "x": null, "index": null}, {"_id": 2, "index": null},
				{"_id": 3, "x": 1, "index": {"$numberLong": "0"}}, {"_id": 3, "x": 2, "index": {"$numberLong": "1"}},
				{"_id": 3, "x": 3, "index": {"$numberLong": "2"}}, {"_id": 4, "x": 5, "index": null}]`},
		{name: "preserve a missing field", ref: unwindPreserveJS, docs: `[{"_id": 0}]`,
			pipeline: `[{"$unwind": {"path": "$x", "preserveNullAndEmptyArrays": true}}]`, want: `[{"_id": 0}]`},
		{name: "preserve null", ref: unwindPreserveJS, docs: `[{"_id": 0, "x": null}]`,
			pipeline: `[{"$unwind": {"path": "$x", "preserveNullAndEmptyArrays": true}}]`, want: `[{"_id": 0, "x": null}]`},
		{name: "preserve an empty array", ref: unwindPreserveJS, docs: `[{"_id": 0, "x": []}]`,
			pipeline: `[{"$unwind": {"path": "$x", "preserveNullAndEmptyArrays": true}}]`, want: `[{"_id": 0}]`},
		{name: "without preserve nothing is left", ref: unwindPreserveJS, docs: `[{"_id": 0}, {"_id": 1, "x": null}, {"_id": 2, "x": []}]`,
			pipeline: `[{"$unwind": {"path": "$x"}}]`, want: `[]`},
		{name: "a dotted path", ref: "manual: reference/operator/aggregation/unwind (Unwind Embedded Arrays)",
			docs:     `[{"_id": 1, "items": {"sizes": ["S", "M"]}}]`,
			pipeline: `[{"$unwind": "$items.sizes"}]`,
			want:     `[{"_id": 1, "items": {"sizes": "S"}}, {"_id": 1, "items": {"sizes": "M"}}]`},
		{name: "path without $", ref: "src/mongo/db/pipeline/document_source_unwind.cpp (28818)",
			docs: `[{"_id": 1}]`, pipeline: `[{"$unwind": "x"}]`, code: 28818},
	})
}
