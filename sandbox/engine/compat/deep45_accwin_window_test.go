package compat_test

import "testing"

// Sweep 45, window functions of $setWindowFields: null and missing,
// arrays, the numeric type of each result, the window bounds each takes or
// refuses, and its parse errors, following mongod 8.0's
// window_function_expression.h/.cpp (the parsers), window_function_*.h
// (the removable states) and accumulator_*.cpp (the running ones).
const (
	wfExprH      = "src/mongo/db/pipeline/window_function/window_function_expression.h"
	wfExprCpp    = "src/mongo/db/pipeline/window_function/window_function_expression.cpp"
	wfAddToSetH  = "src/mongo/db/pipeline/window_function/window_function_add_to_set.h"
	wfCountCpp   = "src/mongo/db/pipeline/window_function/window_function_count.cpp"
	wfCovCpp     = "src/mongo/db/pipeline/window_function/window_function_covariance.cpp"
	wfRankCpp    = "src/mongo/db/pipeline/accumulator_rank.cpp"
	wfFirstLastH = "src/mongo/db/pipeline/window_function/window_function_exec_first_last.h"
	wfNH         = "src/mongo/db/pipeline/window_function/window_function_first_last_n.h"
	wfMinMaxH    = "src/mongo/db/pipeline/window_function/window_function_min_max.h"
	wfStdDevH    = "src/mongo/db/pipeline/window_function/window_function_stddev.h"
	wfLinearCpp  = "src/mongo/db/pipeline/window_function/window_function_exec_linear_fill.cpp"
	wfTopH       = "src/mongo/db/pipeline/window_function/window_function_top_bottom_n.h"
)

// deep45Swf is swf without the final $sort: the output in the stage's own
// order, for functions that need a sortBy other than t.
func deep45Swf(sortBy, output string) string {
	return `[{"$setWindowFields": {"sortBy": ` + sortBy + `, "output": {"r": ` + output + `}}}, {"$sort": {"t": 1}}, {"$project": {"_id": 0, "r": 1}}]`
}

func TestDeep45AccwinWindow(t *testing.T) {
	w := func(op string) cover { return cover{family: window, op: op} }
	wt := func(op string) cover { return cover{family: window, op: op, col: types} }
	we := func(op string) cover { return cover{family: window, op: op, col: errorCol} }
	// A number, null, a missing field, an array, a double, in t order.
	kinds := `[{"t": 1, "x": 1}, {"t": 2, "x": null}, {"t": 3}, {"t": 4, "x": [1, 2]}, {"t": 5, "x": 2.5}]`
	numerics := `[{"t": 1, "x": 1}, {"t": 2, "x": 1.0}, {"t": 3, "x": {"$numberLong": "1"}}, {"t": 4, "x": {"$numberDecimal": "1"}}]`
	sliding := `"window": {"documents": [-1, 1]}`
	running := `"window": {"documents": ["unbounded", "current"]}`
	runAggCases(t, []aggCase{
		// $addToSet: a sliding window is WindowFunctionAddToSet, an
		// ordered multiset answering its distinct values in BSON order;
		// an empty window is []. (A missing value writes nothing.)
		{name: "addToSet of a sliding window, in BSON order", ref: wfAddToSetH, cov: w("$addToSet"), docs: kinds,
			pipeline: swf(`{"$addToSet": "$x", ` + sliding + `}`),
			want:     `[{"r": [null, 1]}, {"r": [null, 1]}, {"r": [null, [1, 2]]}, {"r": [2.5, [1, 2]]}, {"r": [2.5, [1, 2]]}]`},
		{name: "addToSet of an empty window is empty", ref: wfAddToSetH, cov: w("$addToSet"), docs: kinds,
			pipeline: swf(`{"$addToSet": "$x", "window": {"documents": [3, 4]}}`),
			want:     `[{"r": [2.5, [1, 2]]}, {"r": [2.5]}, {"r": []}, {"r": []}, {"r": []}]`},
		{name: "addToSet keeps the first of equal numbers", ref: wfAddToSetH, cov: wt("$addToSet"), docs: numerics,
			pipeline: swf(`{"$addToSet": "$x", "window": {"documents": [0, 1]}}`),
			want:     `[{"r": [1]}, {"r": [1.0]}, {"r": [{"$numberLong": "1"}]}, {"r": [{"$numberDecimal": "1"}]}]`},
		{name: "addToSet of a range window", ref: wfAddToSetH, cov: w("$addToSet"), docs: `[{"t": 1, "x": "b"}, {"t": 2, "x": "a"}, {"t": 5, "x": "b"}]`,
			pipeline: swf(`{"$addToSet": "$x", "window": {"range": [-1, 0]}}`), want: `[{"r": ["b"]}, {"r": ["a", "b"]}, {"r": ["b"]}]`},
		{name: "addToSet unknown argument", ref: wfExprH + " ExpressionRemovable::parse", cov: we("$addToSet"),
			pipeline: swf(`{"$addToSet": "$x", "n": 1}`), code: 9, msg: "Window function found an unknown argument: n"},
		{name: "addToSet with a second function", ref: wfExprH + " ExpressionRemovable::parse", cov: we("$addToSet"),
			pipeline: swf(`{"$addToSet": "$x", "$push": "$x"}`), code: 9, msg: "Cannot specify two functions in window function spec"},

		// $count: {$sum: 1} over the window, an int; 0 for an empty one.
		{name: "count of a sliding window counts missing fields too", ref: wfCountCpp, cov: wt("$count"), docs: kinds,
			pipeline: swf(`{"$count": {}, ` + sliding + `}`), want: `[{"r": 2}, {"r": 3}, {"r": 3}, {"r": 3}, {"r": 2}]`},
		{name: "count of an empty window is 0", ref: wfCountCpp, cov: w("$count"), docs: kinds,
			pipeline: swf(`{"$count": {}, "window": {"documents": [-3, -2]}}`), want: `[{"r": 0}, {"r": 0}, {"r": 1}, {"r": 2}, {"r": 2}]`},
		{name: "count of a range window", ref: wfCountCpp, cov: w("$count"), docs: `[{"t": 1}, {"t": 2}, {"t": 2.5}, {"t": 10}]`,
			pipeline: swf(`{"$count": {}, "window": {"range": [-1, "current"]}}`), want: `[{"r": 1}, {"r": 2}, {"r": 2}, {"r": 1}]`},
		{name: "count of the partition", ref: wfCountCpp, cov: w("$count"), docs: kinds,
			pipeline: swf(`{"$count": {}}`), want: `[{"r": 5}, {"r": 5}, {"r": 5}, {"r": 5}, {"r": 5}]`},
		{name: "count refuses a number", ref: wfCountCpp, cov: we("$count"),
			pipeline: swf(`{"$count": 1}`), code: 9, msg: "$count only accepts an empty object as input"},
		{name: "count refuses a non-empty object", ref: wfCountCpp, cov: we("$count"),
			pipeline: swf(`{"$count": {"x": 1}}`), code: 9, msg: "$count only accepts an empty object as input"},
		{name: "count with a second function", ref: wfCountCpp, cov: we("$count"),
			pipeline: swf(`{"$count": {}, "$sum": 1}`), code: 9, msg: "Cannot specify multiple functions in window function spec"},
		{name: "count unknown argument", ref: wfCountCpp, cov: we("$count"),
			pipeline: swf(`{"$count": {}, "unit": "day"}`), code: 9, msg: "Window function found an unknown argument: unit"},

		// $covarianceSamp: pairs of two numbers only; fewer than two
		// finite pairs is null; a non-finite pair goes into the sum alone.
		{name: "covarianceSamp of three pairs is a double", ref: wfCovCpp, cov: wt("$covarianceSamp"),
			docs:     `[{"t": 1, "x": 1, "y": 2}, {"t": 2, "x": 2, "y": 4}, {"t": 3, "x": 3, "y": 6}]`,
			pipeline: swf(`{"$covarianceSamp": ["$x", "$y"]}`), want: `[{"r": 2.0}, {"r": 2.0}, {"r": 2.0}]`},
		{name: "covarianceSamp skips what is not a pair of numbers", ref: wfCovCpp, cov: w("$covarianceSamp"),
			docs:     `[{"t": 1, "x": 1, "y": 2}, {"t": 2, "x": "2", "y": 4}, {"t": 3, "x": null, "y": 6}, {"t": 4, "y": 1}, {"t": 5, "x": 3, "y": 6}]`,
			pipeline: swf(`{"$covarianceSamp": ["$x", "$y"], ` + running + `}`),
			want:     `[{"r": null}, {"r": null}, {"r": null}, {"r": null}, {"r": 4.0}]`},
		{name: "covarianceSamp of a non-array input is null", ref: wfCovCpp, cov: w("$covarianceSamp"),
			docs:     `[{"t": 1, "x": 1}, {"t": 2, "x": 2}]`,
			pipeline: swf(`{"$covarianceSamp": "$x"}`), want: `[{"r": null}, {"r": null}]`},
		{name: "covarianceSamp with an infinite pair is infinite", ref: wfCovCpp, cov: wt("$covarianceSamp"),
			docs:     `[{"t": 1, "x": 1, "y": 1}, {"t": 2, "x": 2, "y": 2}, {"t": 3, "x": {"$numberDouble": "Infinity"}, "y": 3}]`,
			pipeline: swf(`{"$covarianceSamp": ["$x", "$y"]}`),
			want:     `[{"r": {"$numberDouble": "Infinity"}}, {"r": {"$numberDouble": "Infinity"}}, {"r": {"$numberDouble": "Infinity"}}]`},
		{name: "covarianceSamp with infinities of both signs is NaN", ref: wfCovCpp, cov: wt("$covarianceSamp"),
			docs:     `[{"t": 1, "x": 1, "y": 1}, {"t": 2, "x": 2, "y": 2}, {"t": 3, "x": {"$numberDouble": "-Infinity"}, "y": {"$numberDouble": "Infinity"}}]`,
			pipeline: swf(`{"$covarianceSamp": ["$x", "$y"], "window": {"documents": [-2, 0]}}`),
			want:     `[{"r": null}, {"r": 0.5}, {"r": {"$numberDouble": "NaN"}}]`},
		// A sliding window removes pairs as WindowFunctionCovariance::remove
		// does, its running means and co-moment being removable sums: their
		// rounding differs from a window computed afresh (-4.5 here).
		{name: "covarianceSamp of a sliding window keeps the rounding of its removals", ref: wfCovCpp, cov: wt("$covarianceSamp"),
			docs: `[{"t": 0, "x": 1, "y": 2}, {"t": 1, "x": 2, "y": 5}, {"t": 2, "x": 4, "y": 4}, {"t": 3, "x": 7, "y": 1},
				{"t": 4, "x": 3, "y": 9}, {"t": 5, "x": 6, "y": 6}]`,
			pipeline: swf(`{"$covarianceSamp": ["$x", "$y"], ` + sliding + `}`),
			want:     `[{"r": 1.5}, {"r": 1.166666666666667}, {"r": -5.166666666666666}, {"r": -7.666666666666665}, {"r": -7.666666666666665}, {"r": -4.499999999999998}]`},
		// Removing the last finite pair resets every sum, the infinity
		// still in the window included. Removing that infinity later
		// leaves the co-moment's counts at -1: its count of doubles makes
		// the next product, 0.5, narrow to the integer llround gives (1),
		// and its count of infinities cancels the next infinity to come
		// (window_function_sum.h RemovableSum).
		{name: "covarianceSamp forgets an infinity when its last finite pair leaves", ref: wfCovCpp, cov: w("$covarianceSamp"),
			docs: `[{"t": 0, "x": 1, "y": 1}, {"t": 1, "x": {"$numberDouble": "Infinity"}, "y": 1}, {"t": 2, "x": "a"}, {"t": 3, "x": "a"},
				{"t": 4, "x": 2, "y": 2}, {"t": 5, "x": 3, "y": 3}, {"t": 6, "x": {"$numberDouble": "Infinity"}, "y": 9}]`,
			pipeline: swf(`{"$covarianceSamp": ["$x", "$y"], "window": {"documents": [-2, 0]}}`),
			want:     `[{"r": null}, {"r": null}, {"r": null}, {"r": null}, {"r": null}, {"r": 1.0}, {"r": 0.5}]`},
		{name: "covarianceSamp unknown argument", ref: wfExprH + " ExpressionRemovable::parse", cov: we("$covarianceSamp"),
			pipeline: swf(`{"$covarianceSamp": ["$x", "$y"], "sortBy": {"t": 1}}`), code: 9, msg: "Window function found an unknown argument: sortBy"},

		// $denseRank / $rank / $documentNumber (accumulator_rank.cpp): the
		// sortBy value is the input; null and missing tie, arrays tie by
		// their sort key; no other argument, one sortBy field.
		{name: "denseRank ties null with missing and arrays by their sort key", ref: wfRankCpp, cov: w("$denseRank"),
			docs:     `[{"t": 1, "a": [1, 5]}, {"t": 2, "a": 1}, {"t": 3, "a": null}, {"t": 4}, {"t": 5, "a": [2]}, {"t": 6, "a": 2}, {"t": 7, "a": []}]`,
			pipeline: deep45Swf(`{"a": 1}`, `{"$denseRank": {}}`),
			want:     `[{"r": 3}, {"r": 3}, {"r": 2}, {"r": 2}, {"r": 4}, {"r": 4}, {"r": 1}]`},
		{name: "denseRank descending ties arrays by their largest element", ref: wfRankCpp, cov: w("$denseRank"),
			docs:     `[{"t": 1, "a": [1, 5]}, {"t": 2, "a": 5}, {"t": 3, "a": [5, 0]}, {"t": 4, "a": 1}]`,
			pipeline: deep45Swf(`{"a": -1}`, `{"$denseRank": {}}`), want: `[{"r": 1}, {"r": 1}, {"r": 1}, {"r": 2}]`},
		{name: "denseRank ties equal numbers of different types", ref: wfRankCpp, cov: wt("$denseRank"),
			docs:     `[{"t": 1, "a": 1}, {"t": 2, "a": 1.0}, {"t": 3, "a": {"$numberDecimal": "1.00"}}, {"t": 4, "a": {"$numberLong": "2"}}]`,
			pipeline: deep45Swf(`{"a": 1}`, `{"$denseRank": {}}`), want: `[{"r": 1}, {"r": 1}, {"r": 1}, {"r": 2}]`},
		{name: "denseRank with a window", ref: wfExprH + " ExpressionFromRankAccumulator::parse", cov: we("$denseRank"),
			pipeline: swf(`{"$denseRank": {}, "window": {"documents": ["unbounded", "current"]}}`), code: 5371601, msg: "Rank style window functions take no other arguments"},
		{name: "denseRank of a non-empty object", ref: wfExprH + " ExpressionFromRankAccumulator::parse", cov: we("$denseRank"),
			pipeline: swf(`{"$denseRank": {"a": 1}}`), code: 5371603, msg: "$denseRank must be specified with '{}' as the value"},
		{name: "denseRank of a string", ref: wfExprH + " ExpressionFromRankAccumulator::parse", cov: we("$denseRank"),
			pipeline: swf(`{"$denseRank": "$a"}`), code: 5371603, msg: "$denseRank must be specified with '{}' as the value"},
		{name: "denseRank over a compound sortBy", ref: wfExprH + " ExpressionFromRankAccumulator::parse", cov: we("$denseRank"),
			pipeline: deep45Swf(`{"a": 1, "t": 1}`, `{"$denseRank": {}}`), code: 5371602,
			msg: "$denseRank must be specified with a top level sortBy expression with exactly one element"},
		{name: "rank skips past ties", ref: wfRankCpp, cov: w("$rank"),
			docs:     `[{"t": 1, "a": 3}, {"t": 2, "a": null}, {"t": 3}, {"t": 4, "a": [3, 7]}, {"t": 5, "a": 4}]`,
			pipeline: deep45Swf(`{"a": 1}`, `{"$rank": {}}`), want: `[{"r": 3}, {"r": 1}, {"r": 1}, {"r": 3}, {"r": 5}]`},
		{name: "rank restarts in each partition", ref: wfRankCpp, cov: w("$rank"),
			docs:     `[{"t": 1, "p": 1, "a": 2}, {"t": 2, "p": 2, "a": 2}, {"t": 3, "p": 1, "a": 1}, {"t": 4, "p": 2, "a": 2}]`,
			pipeline: `[{"$setWindowFields": {"partitionBy": "$p", "sortBy": {"a": 1}, "output": {"r": {"$rank": {}}}}}, {"$sort": {"t": 1}}, {"$project": {"_id": 0, "r": 1}}]`,
			want:     `[{"r": 2}, {"r": 1}, {"r": 1}, {"r": 1}]`},
		{name: "rank is an int", ref: wfRankCpp, cov: wt("$rank"), docs: numerics,
			pipeline: deep45Swf(`{"t": -1}`, `{"$rank": {}}`), want: `[{"r": 4}, {"r": 3}, {"r": 2}, {"r": 1}]`},
		{name: "rank of a number", ref: wfExprH + " ExpressionFromRankAccumulator::parse", cov: we("$rank"),
			pipeline: swf(`{"$rank": 1}`), code: 5371603, msg: "$rank must be specified with '{}' as the value"},
		{name: "rank without a sortBy", ref: wfExprH + " ExpressionFromRankAccumulator::parse", cov: we("$rank"),
			pipeline: `[{"$setWindowFields": {"output": {"r": {"$rank": {}}}}}]`, code: 5371602,
			msg: "$rank must be specified with a top level sortBy expression with exactly one element"},
		{name: "rank with an unknown argument", ref: wfExprH + " ExpressionFromRankAccumulator::parse", cov: we("$rank"),
			pipeline: swf(`{"$rank": {}, "x": 1}`), code: 5371601, msg: "Rank style window functions take no other arguments"},
		{name: "documentNumber numbers ties apart", ref: wfRankCpp, cov: w("$documentNumber"),
			docs:     `[{"t": 1, "a": 1}, {"t": 2, "a": 1}, {"t": 3, "a": 0}]`,
			pipeline: `[{"$setWindowFields": {"sortBy": {"a": 1}, "output": {"r": {"$documentNumber": {}}}}}, {"$project": {"_id": 0, "t": 1, "r": 1}}, {"$sort": {"t": 1}}, {"$project": {"r": {"$gt": ["$r", 1]}}}]`,
			want:     `[{"r": true}, {"r": true}, {"r": false}]`},
		{name: "documentNumber per partition", ref: wfRankCpp, cov: w("$documentNumber"),
			docs:     `[{"t": 1, "p": "a"}, {"t": 2, "p": "b"}, {"t": 3, "p": "a"}, {"t": 4}]`,
			pipeline: `[{"$setWindowFields": {"partitionBy": "$p", "sortBy": {"t": 1}, "output": {"r": {"$documentNumber": {}}}}}, {"$sort": {"t": 1}}, {"$project": {"_id": 0, "r": 1}}]`,
			want:     `[{"r": 1}, {"r": 1}, {"r": 2}, {"r": 1}]`},
		{name: "documentNumber with a window", ref: wfExprH + " ExpressionFromRankAccumulator::parse", cov: we("$documentNumber"),
			pipeline: swf(`{"$documentNumber": {}, "window": {"documents": [0, 0]}}`), code: 5371601, msg: "Rank style window functions take no other arguments"},
		{name: "documentNumber of null", ref: wfExprH + " ExpressionFromRankAccumulator::parse", cov: we("$documentNumber"),
			pipeline: swf(`{"$documentNumber": null}`), code: 5371603, msg: "$documentNumber must be specified with '{}' as the value"},
		{name: "documentNumber without a sortBy", ref: wfExprH + " ExpressionFromRankAccumulator::parse", cov: we("$documentNumber"),
			pipeline: `[{"$setWindowFields": {"partitionBy": "$p", "output": {"r": {"$documentNumber": {}}}}}]`, code: 5371602,
			msg: "$documentNumber must be specified with a top level sortBy expression with exactly one element"},

		// $first (ExpressionFirstLast, WindowFunctionExecFirst): the
		// value at the window's first document, as it is (missing writes
		// nothing); an empty window is null.
		{name: "first of a window whose first value is missing writes nothing", ref: wfFirstLastH, cov: w("$first"), docs: kinds,
			pipeline: swf(`{"$first": "$x", "window": {"documents": [1, 2]}}`),
			want:     `[{"r": null}, {}, {"r": [1, 2]}, {"r": 2.5}, {"r": null}]`},
		{name: "first keeps the value's type", ref: wfFirstLastH, cov: wt("$first"), docs: numerics,
			pipeline: swf(`{"$first": "$x", "window": {"documents": [1, 1]}}`),
			want:     `[{"r": 1.0}, {"r": {"$numberLong": "1"}}, {"r": {"$numberDecimal": "1"}}, {"r": null}]`},
		{name: "first of a range window", ref: wfFirstLastH, cov: w("$first"), docs: `[{"t": 1, "x": "a"}, {"t": 2, "x": "b"}, {"t": 4, "x": "c"}]`,
			pipeline: swf(`{"$first": "$x", "window": {"range": [-1, 0]}}`), want: `[{"r": "a"}, {"r": "a"}, {"r": "c"}]`},
		{name: "first unknown argument", ref: wfExprCpp + " ExpressionFirstLast::parse", cov: we("$first"),
			pipeline: swf(`{"$first": "$x", "default": 0}`), code: 9, msg: "$first got unexpected argument: default"},
		{name: "first with two windows", ref: wfExprCpp + " ExpressionFirstLast::parse", cov: we("$first"),
			pipeline: swf(`{"$first": "$x", "window": {"documents": [0, 0]}, "window": {"documents": [0, 1]}}`), code: 9,
			msg: "saw multiple 'window' fields in '$first' expression"},

		// $firstN / $lastN (window_function_first_last_n.h): missing is
		// null; n is a constant, checked when the stage starts.
		{name: "firstN of a sliding window turns missing into null", ref: wfNH, cov: w("$firstN"), docs: kinds,
			pipeline: swf(`{"$firstN": {"input": "$x", "n": 2}, "window": {"documents": [1, 3]}}`),
			want:     `[{"r": [null, null]}, {"r": [null, [1, 2]]}, {"r": [[1, 2], 2.5]}, {"r": [2.5]}, {"r": []}]`},
		{name: "firstN of a whole partition", ref: wfNH, cov: w("$firstN"), docs: kinds,
			pipeline: swf(`{"$firstN": {"input": "$x", "n": 3}}`),
			want:     `[{"r": [1, null, null]}, {"r": [1, null, null]}, {"r": [1, null, null]}, {"r": [1, null, null]}, {"r": [1, null, null]}]`},
		{name: "firstN with n a whole decimal", ref: wfNH, cov: wt("$firstN"), docs: numerics,
			pipeline: swf(`{"$firstN": {"input": "$x", "n": {"$numberDecimal": "2"}}, "window": {"documents": ["current", "unbounded"]}}`),
			want:     `[{"r": [1, 1.0]}, {"r": [1.0, {"$numberLong": "1"}]}, {"r": [{"$numberLong": "1"}, {"$numberDecimal": "1"}]}, {"r": [{"$numberDecimal": "1"}]}]`},
		{name: "firstN n from a field is missing", ref: wfExprCpp + " ExpressionN::buildRemovable", cov: we("$firstN"), docs: kinds,
			pipeline: swf(`{"$firstN": {"input": "$x", "n": "$t"}}`), code: 5787902, msg: planExecutor + "Value for 'n' must be of integral type, but found MISSING"},
		// n is evaluated against no document, but with the command's
		// variables (ExpressionN::buildRemovable).
		{name: "firstN n from the command's let", ref: wfExprCpp + " ExpressionN::buildRemovable", cov: w("$firstN"), docs: kinds, let: `{"k": 2}`,
			pipeline: swf(`{"$firstN": {"input": "$x", "n": "$$k"}, "window": {"documents": [0, 2]}}`),
			want:     `[{"r": [1, null]}, {"r": [null, null]}, {"r": [null, [1, 2]]}, {"r": [[1, 2], 2.5]}, {"r": [2.5]}]`},
		{name: "firstN n zero", ref: accMultiSrc + " AccumulatorN::validateN", cov: we("$firstN"), docs: kinds,
			pipeline: swf(`{"$firstN": {"input": "$x", "n": 0}, ` + sliding + `}`), code: 5787908, msg: planExecutor + "'n' must be greater than 0, found 0"},
		{name: "firstN spec must be an object", ref: accMultiSrc, cov: we("$firstN"),
			pipeline: swf(`{"$firstN": 2}`), code: 5787801, msg: "specification must be an object; found $firstN: 2"},
		{name: "firstN unknown argument", ref: wfExprCpp + " ExpressionN::parse", cov: we("$firstN"),
			pipeline: swf(`{"$firstN": {"input": "$x", "n": 1}, "sortBy": {"t": 1}}`), code: 9, msg: "$firstN got unexpected argument: sortBy"},
		{name: "firstN with two windows", ref: wfExprCpp + " ExpressionN::parse", cov: we("$firstN"),
			pipeline: swf(`{"$firstN": {"input": "$x", "n": 1}, "window": {"documents": [0, 0]}, "window": {"documents": [0, 0]}}`), code: 9,
			msg: "saw multiple 'window' fields in '$firstN' expression"},
		{name: "firstN twice", ref: wfExprCpp + " ExpressionN::parse", cov: we("$firstN"),
			pipeline: swf(`{"$firstN": {"input": "$x", "n": 1}, "$firstN": {"input": "$x", "n": 2}}`), code: 9,
			msg: "saw multiple specifications for '$firstN' expression"},
		{name: "lastN of a sliding window", ref: wfNH, cov: w("$lastN"), docs: kinds,
			pipeline: swf(`{"$lastN": {"input": "$x", "n": 2}, "window": {"documents": [-3, -1]}}`),
			want:     `[{"r": []}, {"r": [1]}, {"r": [1, null]}, {"r": [null, null]}, {"r": [null, [1, 2]]}]`},
		{name: "lastN keeps each type", ref: wfNH, cov: wt("$lastN"), docs: numerics,
			pipeline: swf(`{"$lastN": {"input": "$x", "n": 3}}`),
			want:     `[{"r": [1.0, {"$numberLong": "1"}, {"$numberDecimal": "1"}]}, {"r": [1.0, {"$numberLong": "1"}, {"$numberDecimal": "1"}]}, {"r": [1.0, {"$numberLong": "1"}, {"$numberDecimal": "1"}]}, {"r": [1.0, {"$numberLong": "1"}, {"$numberDecimal": "1"}]}]`},
		{name: "lastN n a fraction", ref: accMultiSrc + " AccumulatorN::validateN", cov: we("$lastN"), docs: kinds,
			pipeline: swf(`{"$lastN": {"input": "$x", "n": 1.5}}`), code: 5787903, msg: planExecutor + "Value for 'n' must be of integral type, but found 1.5"},
		{name: "lastN without input", ref: accMultiSrc + " AccumulatorN::parseArgs", cov: we("$lastN"),
			pipeline: swf(`{"$lastN": {"n": 1}}`), code: 5787907, msg: "Missing value for 'input'"},

		// $linearFill (window_function_exec_linear_fill.cpp): a nullish
		// value between two known points is y1 + (x-x1)*((y2-y1)/(x2-x1)),
		// whose division makes it a double (or a decimal); the ends stay
		// null. Numbers or nullish only, sortBy numbers or dates, no repeats.
		{name: "linearFill interpolates ints into doubles", ref: wfLinearCpp, cov: wt("$linearFill"),
			docs:     `[{"t": 0, "y": 0}, {"t": 1, "y": null}, {"t": 2}, {"t": 4, "y": 10}, {"t": 5}]`,
			pipeline: swf(`{"$linearFill": "$y"}`), want: `[{"r": 0}, {"r": 2.5}, {"r": 5.0}, {"r": 10}, {"r": null}]`},
		{name: "linearFill of decimals is a decimal", ref: wfLinearCpp, cov: wt("$linearFill"),
			docs:     `[{"t": 0, "y": {"$numberDecimal": "0"}}, {"t": 1}, {"t": 2, "y": 1}]`,
			pipeline: swf(`{"$linearFill": "$y"}`), want: `[{"r": {"$numberDecimal": "0"}}, {"r": {"$numberDecimal": "0.5"}}, {"r": 1}]`},
		{name: "linearFill along dates", ref: wfLinearCpp, cov: w("$linearFill"),
			docs:     `[{"t": {"$date": "2021-01-01T00:00:00Z"}, "y": 0}, {"t": {"$date": "2021-01-02T00:00:00Z"}}, {"t": {"$date": "2021-01-05T00:00:00Z"}, "y": 8}]`,
			pipeline: swf(`{"$linearFill": "$y"}`), want: `[{"r": 0}, {"r": 2.0}, {"r": 8}]`},
		{name: "linearFill before the first known point is null", ref: wfLinearCpp, cov: w("$linearFill"),
			docs:     `[{"t": 0}, {"t": 1, "y": 3}, {"t": 2, "y": null}]`,
			pipeline: swf(`{"$linearFill": "$y"}`), want: `[{"r": null}, {"r": 3}, {"r": null}]`},
		{name: "linearFill stays in its partition", ref: wfLinearCpp, cov: w("$linearFill"),
			docs:     `[{"t": 0, "p": 1, "y": 0}, {"t": 1, "p": 1}, {"t": 2, "p": 2, "y": 2}, {"t": 3, "p": 2}, {"t": 4, "p": 2, "y": 4}]`,
			pipeline: `[{"$setWindowFields": {"partitionBy": "$p", "sortBy": {"t": 1}, "output": {"r": {"$linearFill": "$y"}}}}, {"$sort": {"t": 1}}, {"$project": {"_id": 0, "r": 1}}]`,
			want:     `[{"r": 0}, {"r": null}, {"r": 2}, {"r": 3.0}, {"r": 4}]`},
		{name: "linearFill refuses a string to fill", ref: wfLinearCpp, cov: we("$linearFill"), docs: `[{"t": 0, "y": 0}, {"t": 1, "y": "a"}]`,
			pipeline: swf(`{"$linearFill": "$y"}`), code: 14, msg: planExecutor + "Value to be filled must be numeric or nullish, but found string"},
		{name: "linearFill refuses an array to fill", ref: wfLinearCpp, cov: we("$linearFill"), docs: `[{"t": 0, "y": [1]}]`,
			pipeline: swf(`{"$linearFill": "$y"}`), code: 14, msg: planExecutor + "Value to be filled must be numeric or nullish, but found array"},
		{name: "linearFill refuses a null sortBy value", ref: wfLinearCpp, cov: we("$linearFill"), docs: `[{"t": null, "y": 1}]`,
			pipeline: swf(`{"$linearFill": "$y"}`), code: 14, msg: planExecutor + "Value of the sortBy field must be numeric or a date, but found null"},
		{name: "linearFill checks the value before the sortBy", ref: wfLinearCpp, cov: we("$linearFill"), docs: `[{"t": "a", "y": "b"}]`,
			pipeline: swf(`{"$linearFill": "$y"}`), code: 14, msg: planExecutor + "Value to be filled must be numeric or nullish, but found string"},
		{name: "linearFill refuses repeated sortBy values", ref: wfLinearCpp, cov: we("$linearFill"), docs: `[{"t": 1, "y": 1}, {"t": 1.0}]`,
			pipeline: swf(`{"$linearFill": "$y"}`), code: 6050106, msg: planExecutor + "There can be no repeated values in the sort field"},
		{name: "linearFill refuses a number then a date", ref: wfLinearCpp, cov: we("$linearFill"),
			docs:     `[{"t": 1, "y": 1}, {"t": {"$date": "2021-01-01T00:00:00Z"}}]`,
			pipeline: swf(`{"$linearFill": "$y"}`), code: 14, msg: planExecutor + "Conflicting sort value types, previously received type int, but found date"},
		// Each document is checked as it comes to be filled; the next
		// known point is found ahead without its checks, so a string or an
		// array there fails ExpressionSubtract before its own check.
		{name: "linearFill interpolating toward a string fails the subtraction", ref: wfLinearCpp, cov: we("$linearFill"),
			docs:     `[{"t": 0, "y": 0}, {"t": 1, "y": null}, {"t": 2, "y": "a"}]`,
			pipeline: swf(`{"$linearFill": "$y"}`), code: 14, msg: planExecutor + "can't $subtract int from string"},
		{name: "linearFill interpolating toward an array fails the subtraction", ref: wfLinearCpp, cov: we("$linearFill"),
			docs:     `[{"t": 0, "y": 1.5}, {"t": 1}, {"t": 2, "y": [1]}]`,
			pipeline: swf(`{"$linearFill": "$y"}`), code: 14, msg: planExecutor + "can't $subtract double from array"},
		{name: "linearFill refuses a window", ref: wfExprH + " ExpressionLinearFill::parse", cov: we("$linearFill"),
			pipeline: swf(`{"$linearFill": "$y", "window": {"documents": [-1, 1]}}`), code: 9, msg: "'window' field is not allowed in $linearFill"},
		{name: "linearFill without a sortBy", ref: wfExprH + " ExpressionLinearFill::parse", cov: we("$linearFill"),
			pipeline: `[{"$setWindowFields": {"output": {"r": {"$linearFill": "$y"}}}}]`, code: 605001,
			msg: "$linearFill must be specified with a top level sortBy expression with exactly one element"},
		{name: "linearFill with a second function", ref: wfExprH + " ExpressionLinearFill::parse", cov: we("$linearFill"),
			pipeline: swf(`{"$linearFill": "$y", "$locf": "$y"}`), code: 9, msg: "Cannot specify two functions in window function spec"},

		// $locf (ExpressionFromLeftUnboundedWindowFunction): the last
		// non-nullish value so far, whatever its type; no window, no
		// sortBy needed.
		{name: "locf carries values over null and missing", ref: wfExprH, cov: w("$locf"),
			docs:     `[{"t": 1, "y": null}, {"t": 2, "y": 1}, {"t": 3}, {"t": 4, "y": null}, {"t": 5, "y": [5]}, {"t": 6}]`,
			pipeline: swf(`{"$locf": "$y"}`), want: `[{"r": null}, {"r": 1}, {"r": 1}, {"r": 1}, {"r": [5]}, {"r": [5]}]`},
		{name: "locf keeps the type it carries", ref: wfExprH, cov: wt("$locf"),
			docs:     `[{"t": 1, "y": {"$numberDecimal": "1.5"}}, {"t": 2}, {"t": 3, "y": {"$numberLong": "7"}}, {"t": 4}]`,
			pipeline: swf(`{"$locf": "$y"}`), want: `[{"r": {"$numberDecimal": "1.5"}}, {"r": {"$numberDecimal": "1.5"}}, {"r": {"$numberLong": "7"}}, {"r": {"$numberLong": "7"}}]`},
		{name: "locf refuses a window", ref: wfExprH, cov: we("$locf"),
			pipeline: swf(`{"$locf": "$y", "window": {"documents": ["unbounded", "current"]}}`), code: 9, msg: "'window' field is not allowed in $locf"},
		{name: "locf unknown argument", ref: wfExprH, cov: we("$locf"),
			pipeline: swf(`{"$locf": "$y", "default": 0}`), code: 9, msg: "Window function found an unknown argument: default"},

		// Every window function's parser reads its fields in order and
		// parses the function's argument where it stands
		// (window_function_expression.h/.cpp): a bad argument before a bad
		// window is what is refused, and the other way round.
		{name: "firstN's bad spec before a bad window", ref: wfExprCpp + " ExpressionN::parse", cov: we("$firstN"),
			pipeline: swf(`{"$firstN": 5, "window": "bad"}`), code: 5787801, msg: "specification must be an object; found $firstN: 5"},
		{name: "firstN's bad window before a bad spec", ref: wfExprCpp + " ExpressionN::parse", cov: we("$firstN"),
			pipeline: swf(`{"window": "bad", "$firstN": 5}`), code: 9, msg: "'window' field must be an object"},
		{name: "top's bad sortBy before a bad window", ref: wfExprCpp + " ExpressionN::parse", cov: we("$top"),
			pipeline: swf(`{"$top": {"output": "$x", "sortBy": {"k": 0}}, "window": {"documents": [1, 0]}}`), code: 15975,
			msg: "$sort key ordering must be 1 (for ascending) or -1 (for descending)"},
		{name: "max's bad expression before a bad window", ref: wfExprH + " ExpressionRemovable::parse", cov: we("$max"),
			pipeline: swf(`{"$max": {"$nope": 1}, "window": "bad"}`), code: 168, msg: "Unrecognized expression '$nope'"},
		{name: "addToSet's bad window before a bad expression", ref: wfExprH + " ExpressionRemovable::parse", cov: we("$addToSet"),
			pipeline: swf(`{"window": "bad", "$addToSet": {"$nope": 1}}`), code: 9, msg: "'window' field must be an object"},
		{name: "first's bad expression before a bad window", ref: wfExprCpp + " ExpressionFirstLast::parse", cov: we("$first"),
			pipeline: swf(`{"$first": {"$nope": 1}, "window": "bad"}`), code: 168, msg: "Unrecognized expression '$nope'"},
		{name: "locf's bad expression before its refused window", ref: wfExprH + " ExpressionFromLeftUnboundedWindowFunction::parse", cov: we("$locf"),
			pipeline: swf(`{"$locf": {"$nope": 1}, "window": {}}`), code: 168, msg: "Unrecognized expression '$nope'"},
		{name: "linearFill's bad expression before its missing sortBy", ref: wfExprH + " ExpressionLinearFill::parse", cov: we("$linearFill"),
			pipeline: `[{"$setWindowFields": {"output": {"r": {"$linearFill": {"$nope": 1}}}}}]`, code: 168, msg: "Unrecognized expression '$nope'"},
		{name: "median's bad spec before a bad window", ref: wfExprCpp + " ExpressionQuantile::parse", cov: we("$median"),
			pipeline: swf(`{"$median": {}, "window": "bad"}`), code: 40414, msg: "BSON field '$median.input' is missing but a required field"},
		{name: "stdDevSamp's bad expression before an unknown argument", ref: wfExprH + " ExpressionRemovable::parse", cov: we("$stdDevSamp"),
			pipeline: swf(`{"$stdDevSamp": {"$nope": 1}, "unit": "day"}`), code: 168, msg: "Unrecognized expression '$nope'"},

		// $max / $min (window_function_min_max.h): nullish values are
		// skipped; an empty or all-nullish window is null.
		{name: "max of a sliding window skips null and missing", ref: wfMinMaxH, cov: w("$max"),
			docs:     `[{"t": 1, "x": null}, {"t": 2}, {"t": 3, "x": "s"}, {"t": 4, "x": 7}]`,
			pipeline: swf(`{"$max": "$x", ` + sliding + `}`), want: `[{"r": null}, {"r": "s"}, {"r": "s"}, {"r": "s"}]`},
		{name: "max of an empty window is null", ref: wfMinMaxH, cov: w("$max"), docs: kinds,
			pipeline: swf(`{"$max": "$x", "window": {"documents": ["unbounded", -5]}}`), want: `[{"r": null}, {"r": null}, {"r": null}, {"r": null}, {"r": null}]`},
		{name: "max keeps the type of the value it answers", ref: wfMinMaxH, cov: wt("$max"),
			docs:     `[{"t": 1, "x": {"$numberDecimal": "3"}}, {"t": 2, "x": 2.5}, {"t": 3, "x": {"$numberLong": "9"}}]`,
			pipeline: swf(`{"$max": "$x", "window": {"documents": [-1, 0]}}`), want: `[{"r": {"$numberDecimal": "3"}}, {"r": {"$numberDecimal": "3"}}, {"r": {"$numberLong": "9"}}]`},
		// ExpressionRemovable::parse takes a second window over the first,
		// where ExpressionFirstLast and ExpressionN refuse it.
		{name: "max with two windows takes the last", ref: wfExprH + " ExpressionRemovable::parse", cov: w("$max"),
			docs:     `[{"t": 1, "x": 1}, {"t": 2, "x": 5}, {"t": 3, "x": 2}]`,
			pipeline: swf(`{"$max": "$x", "window": {"documents": [0, 1]}, "window": {"documents": [0, 0]}}`), want: `[{"r": 1}, {"r": 5}, {"r": 2}]`},
		{name: "max twice", ref: wfExprH + " ExpressionRemovable::parse", cov: we("$max"),
			pipeline: swf(`{"$max": "$x", "$max": "$y"}`), code: 9, msg: "Cannot specify two functions in window function spec"},
		{name: "count with two windows takes the last", ref: wfCountCpp, cov: w("$count"),
			docs:     `[{"t": 1}, {"t": 2}, {"t": 3}]`,
			pipeline: swf(`{"$count": {}, "window": {"documents": [0, 1]}, "window": {"documents": [-1, 1]}}`), want: `[{"r": 2}, {"r": 3}, {"r": 2}]`},
		{name: "stdDevSamp with two windows takes the last", ref: wfExprH + " ExpressionRemovable::parse", cov: w("$stdDevSamp"),
			docs:     `[{"t": 1, "x": 1}, {"t": 2, "x": 3}]`,
			pipeline: swf(`{"$stdDevSamp": "$x", "window": {"documents": [-1, 0]}, "window": {"documents": [0, 0]}}`), want: `[{"r": null}, {"r": null}]`},
		// Of equal values, a sliding window's multiset answers the latest
		// for $max and the earliest for $min; a running window is $group's
		// accumulator, which keeps the first.
		{name: "max of a sliding window answers the latest of equal values", ref: wfMinMaxH, cov: wt("$max"), docs: numerics,
			pipeline: swf(`{"$max": "$x", "window": {"documents": [0, 1]}}`),
			want:     `[{"r": 1.0}, {"r": {"$numberLong": "1"}}, {"r": {"$numberDecimal": "1"}}, {"r": {"$numberDecimal": "1"}}]`},
		{name: "max of a running window keeps the first of equal values", ref: accMinMaxSrc, cov: wt("$max"), docs: numerics,
			pipeline: swf(`{"$max": "$x", ` + running + `}`), want: `[{"r": 1}, {"r": 1}, {"r": 1}, {"r": 1}]`},
		{name: "min of a sliding window answers the earliest of equal values", ref: wfMinMaxH, cov: wt("$min"), docs: numerics,
			pipeline: swf(`{"$min": "$x", "window": {"documents": [-1, 0]}}`),
			want:     `[{"r": 1}, {"r": 1}, {"r": 1.0}, {"r": {"$numberLong": "1"}}]`},
		{name: "max unknown argument", ref: wfExprH + " ExpressionRemovable::parse", cov: we("$max"),
			pipeline: swf(`{"$max": "$x", "unit": "day"}`), code: 9, msg: "Window function found an unknown argument: unit"},
		{name: "min of a sliding window skips null and missing", ref: wfMinMaxH, cov: w("$min"),
			docs:     `[{"t": 1, "x": null}, {"t": 2}, {"t": 3, "x": "s"}, {"t": 4, "x": 7}]`,
			pipeline: swf(`{"$min": "$x", ` + sliding + `}`), want: `[{"r": null}, {"r": "s"}, {"r": 7}, {"r": 7}]`},
		{name: "min ranks NaN first", ref: wfMinMaxH, cov: wt("$min"),
			docs:     `[{"t": 1, "x": 0}, {"t": 2, "x": {"$numberDouble": "NaN"}}, {"t": 3, "x": -1}]`,
			pipeline: swf(`{"$min": "$x", "window": {"documents": [0, 1]}}`), want: `[{"r": {"$numberDouble": "NaN"}}, {"r": {"$numberDouble": "NaN"}}, {"r": -1}]`},
		{name: "min with two functions", ref: wfExprH + " ExpressionRemovable::parse", cov: we("$min"),
			pipeline: swf(`{"$min": "$x", "$max": "$x"}`), code: 9, msg: "Cannot specify two functions in window function spec"},

		// $maxN / $minN (window_function_min_max.h WindowFunctionMinMaxN):
		// nullish values skipped; an empty window is [].
		{name: "maxN of a sliding window", ref: wfMinMaxH, cov: w("$maxN"), docs: kinds,
			pipeline: swf(`{"$maxN": {"input": "$x", "n": 2}, ` + sliding + `}`),
			want:     `[{"r": [1]}, {"r": [1]}, {"r": [[1, 2]]}, {"r": [[1, 2], 2.5]}, {"r": [[1, 2], 2.5]}]`},
		{name: "maxN of an empty window is empty", ref: wfMinMaxH, cov: w("$maxN"), docs: kinds,
			pipeline: swf(`{"$maxN": {"input": "$x", "n": 2}, "window": {"documents": [5, 6]}}`), want: `[{"r": []}, {"r": []}, {"r": []}, {"r": []}, {"r": []}]`},
		{name: "maxN keeps each type", ref: wfMinMaxH, cov: wt("$maxN"),
			docs:     `[{"t": 1, "x": {"$numberLong": "5"}}, {"t": 2, "x": 4.5}, {"t": 3, "x": {"$numberDecimal": "6"}}]`,
			pipeline: swf(`{"$maxN": {"input": "$x", "n": 2}}`),
			want:     `[{"r": [{"$numberDecimal": "6"}, {"$numberLong": "5"}]}, {"r": [{"$numberDecimal": "6"}, {"$numberLong": "5"}]}, {"r": [{"$numberDecimal": "6"}, {"$numberLong": "5"}]}]`},
		{name: "maxN spec must be an object", ref: accMultiSrc, cov: we("$maxN"),
			pipeline: swf(`{"$maxN": [1]}`), code: 5787900, msg: "specification must be an object; found $maxN: [ 1 ]"},
		{name: "maxN n negative", ref: accMultiSrc + " AccumulatorN::validateN", cov: we("$maxN"), docs: kinds,
			pipeline: swf(`{"$maxN": {"input": "$x", "n": -1}}`), code: 5787908, msg: planExecutor + "'n' must be greater than 0, found -1"},
		{name: "minN of a sliding window", ref: wfMinMaxH, cov: w("$minN"), docs: kinds,
			pipeline: swf(`{"$minN": {"input": "$x", "n": 2}, ` + sliding + `}`),
			want:     `[{"r": [1]}, {"r": [1]}, {"r": [[1, 2]]}, {"r": [2.5, [1, 2]]}, {"r": [2.5, [1, 2]]}]`},
		{name: "minN keeps each type", ref: wfMinMaxH, cov: wt("$minN"),
			docs:     `[{"t": 1, "x": {"$numberLong": "5"}}, {"t": 2, "x": 4.5}, {"t": 3, "x": {"$numberDecimal": "6"}}]`,
			pipeline: swf(`{"$minN": {"input": "$x", "n": 2}, "window": {"documents": [-1, 1]}}`),
			want:     `[{"r": [4.5, {"$numberLong": "5"}]}, {"r": [4.5, {"$numberLong": "5"}]}, {"r": [4.5, {"$numberDecimal": "6"}]}]`},
		{name: "minN unknown argument inside", ref: accMultiSrc + " AccumulatorN::parseArgs", cov: we("$minN"),
			pipeline: swf(`{"$minN": {"input": "$x", "n": 1, "window": {}}}`), code: 5787901, msg: "Unknown argument for 'n' operator: window"},
		{name: "minN's bad input before its missing n", ref: accMultiSrc + " AccumulatorN::parseArgs", cov: we("$minN"),
			pipeline: swf(`{"$minN": {"input": {"$nope": 1}}}`), code: 168, msg: "Unrecognized expression '$nope'"},
		{name: "minN n not a number", ref: accMultiSrc + " AccumulatorN::validateN", cov: we("$minN"), docs: kinds,
			pipeline: swf(`{"$minN": {"input": "$x", "n": "2"}}`), code: 5787902, msg: planExecutor + `Value for 'n' must be of integral type, but found "2"`},

		// $stdDevSamp (window_function_stddev.h): one number is null, a
		// non-finite one makes it NaN; a double. A sliding window adds
		// the entering value before it removes the leaving one
		// (window_function_exec_removable_document.cpp), and the running
		// sums keep what rounding left: two equal values after 1 left the
		// window are sqrt(2 + 4/6 - 16/6), about 1e-8, not 0.
		{name: "stdDevSamp of a sliding window keeps the rounding of its removals", ref: wfStdDevH, cov: w("$stdDevSamp"),
			docs:     `[{"t": 1, "x": 1}, {"t": 2, "x": "a"}, {"t": 3, "x": 3}, {"t": 4, "x": 3}]`,
			pipeline: swf(`{"$stdDevSamp": "$x", ` + sliding + `}`),
			want:     `[{"r": null}, {"r": 1.4142135623730951}, {"r": 1.0536712127723509e-08}, {"r": 1.0536712127723509e-08}]`},
		{name: "stdDevSamp of equal values stays 0 as the window slides", ref: wfStdDevH, cov: w("$stdDevSamp"),
			docs:     `[{"t": 1, "x": 3}, {"t": 2, "x": 3}, {"t": 3, "x": 3}]`,
			pipeline: swf(`{"$stdDevSamp": "$x", "window": {"documents": [0, 1]}}`), want: `[{"r": 0.0}, {"r": 0.0}, {"r": null}]`},
		{name: "stdDevSamp of decimals is a double", ref: wfStdDevH, cov: wt("$stdDevSamp"),
			docs:     `[{"t": 1, "x": {"$numberDecimal": "1"}}, {"t": 2, "x": {"$numberDecimal": "3"}}]`,
			pipeline: swf(`{"$stdDevSamp": "$x", "window": {"documents": [-1, 0]}}`), want: `[{"r": null}, {"r": 1.4142135623730951}]`},
		// The infinity counts in the count that weighs 3 and 5 as they
		// come while it is in the window: once it leaves, the window of
		// 3 and 5 answers sqrt(25/6 - 1/6 + 49/6), not sqrt(2).
		{name: "stdDevSamp with an infinity is NaN, and weighs the values added beside it", ref: wfStdDevH, cov: wt("$stdDevSamp"),
			docs:     `[{"t": 1, "x": 1}, {"t": 2, "x": {"$numberDouble": "-Infinity"}}, {"t": 3, "x": 3}, {"t": 4, "x": 5}]`,
			pipeline: swf(`{"$stdDevSamp": "$x", "window": {"documents": [-1, 0]}}`),
			want:     `[{"r": null}, {"r": {"$numberDouble": "NaN"}}, {"r": {"$numberDouble": "NaN"}}, {"r": 3.488074922742725}]`},
		// A range window is fed the same way
		// (window_function_exec_removable_range.cpp); a population of one
		// is the int 0.
		{name: "stdDevPop of a range window weighs the values added beside an infinity", ref: wfStdDevH, cov: wt("$stdDevPop"),
			docs:     `[{"t": 1, "x": 1}, {"t": 2, "x": {"$numberDouble": "-Infinity"}}, {"t": 3, "x": 3}, {"t": 4, "x": 5}]`,
			pipeline: swf(`{"$stdDevPop": "$x", "window": {"range": [-1, 0]}}`),
			want:     `[{"r": 0}, {"r": {"$numberDouble": "NaN"}}, {"r": {"$numberDouble": "NaN"}}, {"r": 2.4664414311581235}]`},
		{name: "stdDevSamp unknown argument", ref: wfExprH + " ExpressionRemovable::parse", cov: we("$stdDevSamp"),
			pipeline: swf(`{"$stdDevSamp": "$x", "input": "$x"}`), code: 9, msg: "Window function found an unknown argument: input"},

		// $sum and $avg over a sliding window are WindowFunctionSum and
		// WindowFunctionAvg (window_function_sum.h, window_function_avg.h),
		// whose total narrows once the decimal that made it one has left.
		{name: "sum of a sliding window narrows once the decimal left", ref: "src/mongo/db/pipeline/window_function/window_function_sum.cpp", cov: wt("$sum"),
			docs:     `[{"t": 1, "x": {"$numberDecimal": "1.5"}}, {"t": 2, "x": 2}, {"t": 3, "x": 3}]`,
			pipeline: swf(`{"$sum": "$x", "window": {"documents": [-1, 0]}}`),
			want:     `[{"r": {"$numberDecimal": "1.5"}}, {"r": {"$numberDecimal": "3.5"}}, {"r": 5}]`},
		{name: "avg of a sliding window", ref: "src/mongo/db/pipeline/window_function/window_function_avg.h", cov: wt("$avg"),
			docs:     `[{"t": 1, "x": {"$numberDecimal": "1.5"}}, {"t": 2, "x": 2}, {"t": 3, "x": 3}, {"t": 4, "x": "a"}]`,
			pipeline: swf(`{"$avg": "$x", "window": {"documents": [-1, 0]}}`),
			want:     `[{"r": {"$numberDecimal": "1.5"}}, {"r": {"$numberDecimal": "1.75"}}, {"r": 2.5}, {"r": 3.0}]`},

		// $top (window_function_top_bottom_n.h): the first output by its
		// own sortBy; null for a missing output or an empty window.
		{name: "top of a sliding window by its own sortBy", ref: wfTopH, cov: w("$top"),
			docs:     `[{"t": 1, "k": 3, "x": "a"}, {"t": 2, "k": 1, "x": "b"}, {"t": 3, "k": 2}, {"t": 4, "k": 5, "x": "d"}]`,
			pipeline: swf(`{"$top": {"output": "$x", "sortBy": {"k": 1}}, ` + sliding + `}`),
			want:     `[{"r": "b"}, {"r": "b"}, {"r": "b"}, {"r": null}]`},
		{name: "top of an empty window is null", ref: wfTopH, cov: w("$top"), docs: kinds,
			pipeline: swf(`{"$top": {"output": "$x", "sortBy": {"t": 1}}, "window": {"documents": [-9, -8]}}`),
			want:     `[{"r": null}, {"r": null}, {"r": null}, {"r": null}, {"r": null}]`},
		{name: "top keeps the output's type", ref: wfTopH, cov: wt("$top"), docs: numerics,
			pipeline: swf(`{"$top": {"output": "$x", "sortBy": {"t": -1}}, "window": {"documents": ["unbounded", "current"]}}`),
			want:     `[{"r": 1}, {"r": 1.0}, {"r": {"$numberLong": "1"}}, {"r": {"$numberDecimal": "1"}}]`},
		{name: "top refuses n", ref: accMultiSrc, cov: we("$top"),
			pipeline: swf(`{"$top": {"output": "$x", "sortBy": {"k": 1}, "n": 1}}`), code: 5788002, msg: "Unknown argument to $top 'n'"},
		{name: "top without sortBy", ref: accMultiSrc, cov: we("$top"),
			pipeline: swf(`{"$top": {"output": "$x"}}`), code: 5788005, msg: "Missing value for 'sortBy'"},
		{name: "top unknown argument beside it", ref: wfExprCpp + " ExpressionN::parse", cov: we("$top"),
			pipeline: swf(`{"$top": {"output": "$x", "sortBy": {"k": 1}}, "n": 1}`), code: 9, msg: "$top got unexpected argument: n"},
	})
}
