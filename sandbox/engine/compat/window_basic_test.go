package compat_test

import "testing"

// Each window function over a running or sliding window, as
// window_function_expression.h and the removable window functions compute
// them (window_function_*.cpp).
func TestWindowFunctionsBasic(t *testing.T) {
	pts := `[{"t": 1, "y": 4, "p": "a"}, {"t": 2, "y": 2, "p": "a"}, {"t": 3, "y": 6, "p": "b"}, {"t": 4, "y": 4, "p": "b"}]`
	run := `"window": {"documents": ["unbounded", "current"]}`
	w := func(op string) cover { return cover{family: window, op: op} }
	wt := func(op string) cover { return cover{family: window, op: op, col: types} }
	we := func(op string) cover { return cover{family: window, op: op, col: errorCol} }
	src := "src/mongo/db/pipeline/window_function/window_function_expression.h"
	runAggCases(t, []aggCase{
		{name: "avg of a running window is a double", ref: src, cov: wt("$avg"), docs: pts,
			pipeline: swf(`{"$avg": "$y", ` + run + `}`), want: `[{"r": 4.0}, {"r": 3.0}, {"r": 4.0}, {"r": 4.0}]`},
		{name: "min over a sliding window", ref: src, cov: w("$min"), docs: pts,
			pipeline: swf(`{"$min": "$y", "window": {"documents": [-1, 1]}}`), want: `[{"r": 2}, {"r": 2}, {"r": 2}, {"r": 4}]`},
		{name: "max over an empty window is null", ref: src, cov: w("$max"), docs: pts,
			pipeline: swf(`{"$max": "$y", "window": {"documents": [2, 3]}}`), want: `[{"r": 6}, {"r": 4}, {"r": null}, {"r": null}]`},
		{name: "addToSet of a running window", ref: src, cov: w("$addToSet"), docs: pts,
			pipeline: `[{"$setWindowFields": {"sortBy": {"t": 1}, "output": {"r": {"$addToSet": "$y", ` + run + `}}}}, {"$sort": {"t": 1}}, {"$project": {"_id": 0, "n": {"$size": "$r"}}}]`,
			want:     `[{"n": 1}, {"n": 2}, {"n": 3}, {"n": 3}]`},
		{name: "stdDevPop of a partition", ref: src, cov: w("$stdDevPop"), docs: pts,
			pipeline: `[{"$setWindowFields": {"partitionBy": "$p", "output": {"r": {"$stdDevPop": "$y"}}}}, {"$sort": {"t": 1}}, {"$project": {"_id": 0, "r": 1}}]`,
			want:     `[{"r": 1.0}, {"r": 1.0}, {"r": 1.0}, {"r": 1.0}]`},
		{name: "stdDevSamp of one document is null", ref: src, cov: w("$stdDevSamp"), docs: pts,
			pipeline: swf(`{"$stdDevSamp": "$y", "window": {"documents": [0, 0]}}`), want: `[{"r": null}, {"r": null}, {"r": null}, {"r": null}]`},
		{name: "push of a partition", ref: src, cov: w("$push"), docs: pts,
			pipeline: `[{"$setWindowFields": {"partitionBy": "$p", "sortBy": {"t": -1}, "output": {"r": {"$push": "$y"}}}}, {"$sort": {"t": 1}}, {"$project": {"_id": 0, "r": 1}}]`,
			want:     `[{"r": [2, 4]}, {"r": [2, 4]}, {"r": [4, 6]}, {"r": [4, 6]}]`},
		{name: "rank within partitions", ref: "src/mongo/db/pipeline/accumulator_rank.cpp", cov: w("$rank"), docs: pts,
			pipeline: `[{"$setWindowFields": {"partitionBy": "$p", "sortBy": {"y": 1}, "output": {"r": {"$rank": {}}}}}, {"$sort": {"t": 1}}, {"$project": {"_id": 0, "r": 1}}]`,
			want:     `[{"r": 2}, {"r": 1}, {"r": 2}, {"r": 1}]`},
		{name: "denseRank ties", ref: "src/mongo/db/pipeline/accumulator_rank.cpp", cov: w("$denseRank"),
			docs:     `[{"t": 1, "y": 1}, {"t": 2, "y": 1}, {"t": 3, "y": 5}]`,
			pipeline: `[{"$setWindowFields": {"sortBy": {"y": 1}, "output": {"r": {"$denseRank": {}}}}}, {"$sort": {"t": 1}}, {"$project": {"_id": 0, "r": 1}}]`,
			want:     `[{"r": 1}, {"r": 1}, {"r": 2}]`},
		{name: "documentNumber is an int", ref: "src/mongo/db/pipeline/accumulator_rank.cpp", cov: wt("$documentNumber"), docs: pts,
			pipeline: swf(`{"$documentNumber": {}}`), want: `[{"r": 1}, {"r": 2}, {"r": 3}, {"r": 4}]`},
		{name: "rank with a window", ref: src, cov: we("$rank"),
			pipeline: swf(`{"$rank": {}, "window": {"documents": [0, 0]}}`), code: 5371601, msg: "Rank style window functions take no other arguments"},
		{name: "shift back with a default", ref: "src/mongo/db/pipeline/window_function/window_function_shift.cpp", cov: w("$shift"), docs: pts,
			pipeline: swf(`{"$shift": {"output": "$y", "by": -1, "default": "none"}}`), want: `[{"r": "none"}, {"r": 4}, {"r": 2}, {"r": 6}]`},
		{name: "shift needs a sortBy", ref: "src/mongo/db/pipeline/window_function/window_function_shift.cpp", cov: we("$shift"),
			pipeline: `[{"$setWindowFields": {"output": {"r": {"$shift": {"output": "$y", "by": 1}}}}}]`, code: 9, msg: "'$shift' requires a sortBy"},
		{name: "first and last of a sliding window", ref: src, cov: w("$last"), docs: pts,
			pipeline: swf(`{"$last": "$y", "window": {"documents": [-1, 1]}}`), want: `[{"r": 2}, {"r": 6}, {"r": 4}, {"r": 4}]`},
		{name: "$first takes one window", ref: src, cov: we("$first"),
			pipeline: swf(`{"$first": "$y", "window": {"documents": [0, 0]}, "window": {"documents": [0, 1]}}`), code: 9, msg: "saw multiple 'window' fields in '$first' expression"},
		{name: "top of a running window", ref: src, cov: w("$top"), docs: pts,
			pipeline: swf(`{"$top": {"output": "$t", "sortBy": {"y": -1}}, ` + run + `}`), want: `[{"r": 1}, {"r": 1}, {"r": 3}, {"r": 3}]`},
		{name: "bottom of a running window", ref: src, cov: w("$bottom"), docs: pts,
			pipeline: swf(`{"$bottom": {"output": "$t", "sortBy": {"y": -1}}, ` + run + `}`), want: `[{"r": 1}, {"r": 2}, {"r": 2}, {"r": 2}]`},
		// y is 4, 2, 6, 4 in t order: the second 4 ties with the first,
		// which is kept.
		{name: "bottomN of a partition keeps the first of tied values", ref: src, cov: w("$bottomN"), docs: pts,
			pipeline: swf(`{"$bottomN": {"n": 2, "output": "$t", "sortBy": {"y": 1}}}`), want: `[{"r": [1, 3]}, {"r": [1, 3]}, {"r": [1, 3]}, {"r": [1, 3]}]`},
		{name: "maxN over a sliding window", ref: src, cov: w("$maxN"), docs: pts,
			pipeline: swf(`{"$maxN": {"input": "$y", "n": 2}, "window": {"documents": [0, 1]}}`), want: `[{"r": [4, 2]}, {"r": [6, 2]}, {"r": [6, 4]}, {"r": [4]}]`},
		{name: "minN of a running window", ref: src, cov: w("$minN"), docs: pts,
			pipeline: swf(`{"$minN": {"input": "$y", "n": 2}, ` + run + `}`), want: `[{"r": [4]}, {"r": [2, 4]}, {"r": [2, 4]}, {"r": [2, 4]}]`},
		{name: "firstN and lastN of a partition", ref: src, cov: w("$firstN"), docs: pts,
			pipeline: swf(`{"$firstN": {"input": "$y", "n": 3}}`), want: `[{"r": [4, 2, 6]}, {"r": [4, 2, 6]}, {"r": [4, 2, 6]}, {"r": [4, 2, 6]}]`},
		{name: "lastN of a sliding window", ref: src, cov: w("$lastN"), docs: pts,
			pipeline: swf(`{"$lastN": {"input": "$y", "n": 1}, "window": {"documents": [-1, 0]}}`), want: `[{"r": [4]}, {"r": [2]}, {"r": [6]}, {"r": [4]}]`},
		{name: "median of a partition", ref: src, cov: w("$median"), docs: pts,
			pipeline: swf(`{"$median": {"input": "$y", "method": "approximate"}}`), want: `[{"r": 4.0}, {"r": 4.0}, {"r": 4.0}, {"r": 4.0}]`},
		{name: "percentile of a running window", ref: src, cov: w("$percentile"), docs: pts,
			pipeline: swf(`{"$percentile": {"input": "$y", "p": [0.0, 1.0], "method": "approximate"}, ` + run + `}`),
			want:     `[{"r": [4.0, 4.0]}, {"r": [2.0, 4.0]}, {"r": [2.0, 6.0]}, {"r": [2.0, 6.0]}]`},
		{name: "percentile's unexpected argument", ref: "src/mongo/db/pipeline/window_function/window_function_expression.cpp", cov: we("$percentile"),
			pipeline: swf(`{"$percentile": {"input": "$y", "p": [0.5], "method": "approximate"}, "frame": 1}`), code: 9, msg: "$percentile got unexpected argument: frame"},
		{name: "sum of longs stays a long", ref: "src/mongo/db/pipeline/window_function/window_function_sum.cpp", cov: wt("$sum"),
			docs:     `[{"t": 1, "y": {"$numberLong": "1"}}, {"t": 2, "y": {"$numberLong": "2"}}]`,
			pipeline: swf(`{"$sum": "$y", ` + run + `}`), want: `[{"r": {"$numberLong": "1"}}, {"r": {"$numberLong": "3"}}]`},
	})
}
