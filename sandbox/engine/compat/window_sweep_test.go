package compat_test

import "testing"

// Window-function edge cases found by a conformance sweep against mongod's
// window_function/*.cpp and jstests/aggregation/sources/setWindowFields.
func TestWindowSweep(t *testing.T) {
	w := func(op string) cover { return cover{family: window, op: op} }
	runAggCases(t, []aggCase{
		// window_bounds.cpp parse: after the one-field check, a range
		// window needs an ascending sortBy (8947401); PartitionIterator's
		// exprFromSort has no sort expression for a descending one.
		{name: "a range window needs an ascending sortBy", ref: windowBounds + "; src/mongo/db/pipeline/window_function/partition_iterator.cpp (exprFromSort)",
			cov: w("$push"), docs: `[{"t": 1, "v": 1}, {"t": 2, "v": 2}]`,
			pipeline: `[{"$setWindowFields": {"sortBy": {"t": -1}, "output": {"r": {"$push": "$v", "window": {"range": [-1, 0]}}}}}]`,
			code:     8947401, msg: "Range-based bounds require an ascending sortBy"},
		{name: "a time range window needs an ascending sortBy", ref: windowBounds, cov: w("$sum"),
			pipeline: `[{"$setWindowFields": {"sortBy": {"t": -1}, "output": {"r": {"$sum": "$v", "window": {"range": ["unbounded", "current"], "unit": "day"}}}}}]`,
			code:     8947401, msg: "Range-based bounds require an ascending sortBy"},
		{name: "a documents window over a descending sortBy", ref: windowBounds, cov: w("$push"),
			docs:     `[{"t": 1, "v": 1}, {"t": 2, "v": 2}, {"t": 3, "v": 3}]`,
			pipeline: `[{"$setWindowFields": {"sortBy": {"t": -1}, "output": {"r": {"$push": "$v", "window": {"documents": [-1, 0]}}}}}, {"$project": {"_id": 0, "r": 1}}]`,
			want:     `[{"r": [3]}, {"r": [3, 2]}, {"r": [2, 1]}]`},
	})
}
