package compat_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

const (
	windowExprCpp = "src/mongo/db/pipeline/window_function/window_function_expression.cpp"
	rankSrc       = "src/mongo/db/pipeline/accumulator_rank.cpp; src/mongo/db/pipeline/accumulator_for_window_functions.h"
	covarianceSrc = "src/mongo/db/pipeline/window_function/window_function_covariance.cpp"
	addToSetWFSrc = "src/mongo/db/pipeline/window_function/window_function_add_to_set.h"
	locfSrc       = "src/mongo/db/pipeline/accumulator_locf.cpp"
)

// The BSON types the window functions take and answer, and the refusals
// of their specifications: ExpressionRemovable::parse for the functions of
// one expression, ExpressionFirstLast, ExpressionN and ExpressionQuantile
// for the ones that take named arguments, ExpressionFromRankAccumulator
// for the ranks (window_function_expression.h/.cpp).
func TestWindowFunctionsTypes(t *testing.T) {
	w := func(op string) cover { return cover{family: window, op: op} }
	wt := func(op string) cover { return cover{family: window, op: op, col: types} }
	we := func(op string) cover { return cover{family: window, op: op, col: errorCol} }
	typed := `[{"t": 1, "y": {"$numberLong": "5"}}, {"t": 2, "y": 2.5}, {"t": 3, "y": {"$numberDecimal": "9"}}]`
	pts := `[{"t": 1, "y": 4, "p": "a"}, {"t": 2, "y": 2, "p": "a"}, {"t": 3, "y": 6, "p": "b"}, {"t": 4, "y": 4, "p": "b"}]`
	run := `"window": {"documents": ["unbounded", "current"]}`
	unknownArg := func(op, fn string) aggCase {
		return aggCase{name: op + " takes no other argument", ref: windowExprSrc, cov: we(op),
			pipeline: swf(`{"` + op + `": ` + fn + `, "frame": 1}`), code: mongoerr.FailedToParse, msg: "Window function found an unknown argument: frame"}
	}
	runAggCases(t, []aggCase{
		// The functions of one expression (ExpressionRemovable::parse).
		unknownArg("$addToSet", `"$y"`), unknownArg("$max", `"$y"`), unknownArg("$min", `"$y"`),
		unknownArg("$stdDevPop", `"$y"`), unknownArg("$stdDevSamp", `"$y"`), unknownArg("$covarianceSamp", `["$t", "$y"]`),
		{name: "avg with a second function", ref: windowExprSrc, cov: we("$avg"),
			pipeline: swf(`{"$avg": "$y", "$sum": "$y"}`), code: mongoerr.FailedToParse, msg: "Cannot specify two functions in window function spec"},
		{name: "push with a second function", ref: windowExprSrc, cov: we("$push"),
			pipeline: swf(`{"$push": "$y", "$addToSet": "$y"}`), code: mongoerr.FailedToParse, msg: "Cannot specify two functions in window function spec"},

		{name: "avg of a sliding window skips non-numbers", ref: windowExprSrc, cov: w("$avg"),
			docs:     `[{"t": 1, "y": 4}, {"t": 2, "y": "x"}, {"t": 3, "y": 6}, {"t": 4, "y": 2}]`,
			pipeline: swf(`{"$avg": "$y", "window": {"documents": [-1, 0]}}`), want: `[{"r": 4.0}, {"r": 4.0}, {"r": 6.0}, {"r": 4.0}]`},
		{name: "avg of a window with no number is null", ref: windowExprSrc, cov: w("$avg"),
			docs: `[{"t": 1, "y": "x"}, {"t": 2}]`, pipeline: swf(`{"$avg": "$y"}`), want: `[{"r": null}, {"r": null}]`},

		// A removable window's $addToSet is an ordered multiset: it answers
		// in BSON order, equal numbers once, as the first inserted.
		{name: "addToSet of a sliding window is ordered, equal numbers once", ref: addToSetWFSrc, cov: wt("$addToSet"),
			docs:     `[{"t": 1, "y": 3}, {"t": 2, "y": {"$numberLong": "2"}}, {"t": 3, "y": 2.0}]`,
			pipeline: swf(`{"$addToSet": "$y", "window": {"documents": [-2, 0]}}`),
			want:     `[{"r": [3]}, {"r": [{"$numberLong": "2"}, 3]}, {"r": [{"$numberLong": "2"}, 3]}]`},
		{name: "push keeps the types and null", ref: "src/mongo/db/pipeline/window_function/window_function_push.h", cov: wt("$push"),
			docs:     `[{"t": 1, "y": {"$numberLong": "5"}}, {"t": 2, "y": null}, {"t": 3, "y": {"$numberDecimal": "9"}}]`,
			pipeline: swf(`{"$push": "$y", "window": {"documents": [-1, 0]}}`),
			want:     `[{"r": [{"$numberLong": "5"}]}, {"r": [{"$numberLong": "5"}, null]}, {"r": [null, {"$numberDecimal": "9"}]}]`},
		{name: "max of a sliding window keeps the winner's type", ref: "src/mongo/db/pipeline/window_function/window_function_min_max.h", cov: wt("$max"),
			docs: typed, pipeline: swf(`{"$max": "$y", "window": {"documents": [-1, 1]}}`),
			want: `[{"r": {"$numberLong": "5"}}, {"r": {"$numberDecimal": "9"}}, {"r": {"$numberDecimal": "9"}}]`},
		// A sliding window's $max is the last of the multiset: of equal
		// maxima, the latest; over the whole partition mongod runs
		// AccumulatorMax, which keeps the first.
		{name: "max of a sliding window answers the latest of equal maxima", ref: "src/mongo/db/pipeline/window_function/window_function_min_max.h", cov: wt("$max"),
			docs:     `[{"t": 1, "y": {"$numberLong": "3"}}, {"t": 2, "y": 3.0}]`,
			pipeline: swf(`{"$max": "$y", "window": {"documents": [-1, 0]}}`),
			want:     `[{"r": {"$numberLong": "3"}}, {"r": 3.0}]`},
		{name: "max of the whole partition answers the first of equal maxima", ref: accMinMaxSrc, cov: wt("$max"),
			docs:     `[{"t": 1, "y": {"$numberLong": "3"}}, {"t": 2, "y": 3.0}]`,
			pipeline: swf(`{"$max": "$y"}`),
			want:     `[{"r": {"$numberLong": "3"}}, {"r": {"$numberLong": "3"}}]`},
		{name: "addToSet of the whole partition keeps the first of equal numbers", ref: "src/mongo/db/pipeline/accumulator_add_to_set.cpp", cov: wt("$addToSet"),
			docs:     `[{"t": 1, "y": {"$numberLong": "2"}}, {"t": 2, "y": 2.0}]`,
			pipeline: swf(`{"$addToSet": "$y"}`),
			want:     `[{"r": [{"$numberLong": "2"}]}, {"r": [{"$numberLong": "2"}]}]`},
		{name: "min of a sliding window keeps the winner's type", ref: "src/mongo/db/pipeline/window_function/window_function_min_max.h", cov: wt("$min"),
			docs:     `[{"t": 1, "y": {"$numberLong": "1"}}, {"t": 2, "y": {"$numberDecimal": "9"}}, {"t": 3, "y": 2.5}]`,
			pipeline: swf(`{"$min": "$y", "window": {"documents": [0, 1]}}`),
			want:     `[{"r": {"$numberLong": "1"}}, {"r": 2.5}, {"r": 2.5}]`},
		{name: "stdDevPop of longs is a double", ref: accStdDevSrc, cov: wt("$stdDevPop"),
			docs: `[{"t": 1, "y": {"$numberLong": "1"}}, {"t": 2, "y": {"$numberLong": "3"}}]`, pipeline: swf(`{"$stdDevPop": "$y"}`),
			want: `[{"r": 1.0}, {"r": 1.0}]`},
		{name: "stdDevSamp of ints is a double", ref: accStdDevSrc, cov: wt("$stdDevSamp"),
			docs: `[{"t": 1, "y": 1}, {"t": 2, "y": 3}]`, pipeline: swf(`{"$stdDevSamp": "$y"}`),
			want: `[{"r": 1.4142135623730951}, {"r": 1.4142135623730951}]`},
		// A window whose lower bound is not unbounded runs the removable
		// state (window_function_exec.cpp): RemovableSum narrows its total,
		// WindowFunctionStdDev answers the int 0 for one value.
		{name: "sum of longs over a sliding window narrows to an int", ref: "src/mongo/db/pipeline/window_function/window_function_sum.cpp", cov: wt("$sum"),
			docs:     `[{"t": 1, "y": {"$numberLong": "1"}}, {"t": 2, "y": {"$numberLong": "2"}}]`,
			pipeline: swf(`{"$sum": "$y", "window": {"documents": [-1, 0]}}`),
			want:     `[{"r": 1}, {"r": 3}]`},
		// Past int64 the total is a double; one that comes back within
		// int64, with no double added, is an integer again: AccumulatorSum
		// keeps the longs exact and asks DoubleDoubleSummation::fitsLong
		// only for its answer.
		{name: "sum over a sliding window back within int64 is an integer", ref: "src/mongo/db/pipeline/window_function/window_function_sum.cpp; " + accSumSrc + "; " + summationSrc, cov: wt("$sum"),
			docs: `[{"t": 1, "y": {"$numberLong": "9223372036854775807"}}, {"t": 2, "y": {"$numberLong": "9223372036854775807"}},
				{"t": 3, "y": {"$numberLong": "-9223372036854775807"}}, {"t": 4, "y": {"$numberLong": "-9223372036854775807"}}, {"t": 5, "y": 5}]`,
			pipeline: swf(`{"$sum": "$y", "window": {"documents": [-4, 0]}}`),
			want:     `[{"r": {"$numberLong": "9223372036854775807"}}, {"r": 1.8446744073709552e19}, {"r": {"$numberLong": "9223372036854775807"}}, {"r": 0}, {"r": 5}]`},
		{name: "sum of doubles over a sliding window stays a double", ref: "src/mongo/db/pipeline/window_function/window_function_sum.cpp", cov: wt("$sum"),
			docs:     `[{"t": 1, "y": 1.0}, {"t": 2, "y": 2.0}]`,
			pipeline: swf(`{"$sum": "$y", "window": {"documents": [-1, 0]}}`), want: `[{"r": 1.0}, {"r": 3.0}]`},
		{name: "stdDevPop of one value in a sliding window is the int 0", ref: "src/mongo/db/pipeline/window_function/window_function_stddev.h", cov: wt("$stdDevPop"),
			docs:     `[{"t": 1, "y": 1.5}, {"t": 2, "y": 3}]`,
			pipeline: swf(`{"$stdDevPop": "$y", "window": {"documents": [0, 0]}}`), want: `[{"r": 0}, {"r": 0}]`},
		{name: "stdDevPop of a sliding window", ref: "src/mongo/db/pipeline/window_function/window_function_stddev.h", cov: w("$stdDevPop"),
			docs:     `[{"t": 1, "y": 1}, {"t": 2, "y": 3}, {"t": 3, "y": 7}]`,
			pipeline: swf(`{"$stdDevPop": "$y", "window": {"documents": [-1, 0]}}`), want: `[{"r": 0}, {"r": 1.0}, {"r": 2.0}]`},
		{name: "count of a partition is an int", ref: "src/mongo/db/pipeline/window_function/window_function_count.cpp", cov: wt("$count"),
			docs: typed, pipeline: swf(`{"$count": {}}`), want: `[{"r": 3}, {"r": 3}, {"r": 3}]`},

		// $covariancePop / $covarianceSamp: doubles for numbers; a pop of one
		// point is 0.0, a sample of one is null; an input that is not a pair
		// of numbers has no effect.
		{name: "covariancePop of ints is a double", ref: covarianceSrc, cov: wt("$covariancePop"),
			docs:     `[{"t": 1, "x": 1, "y": 1}, {"t": 2, "x": 3, "y": 3}]`,
			pipeline: swf(`{"$covariancePop": ["$x", "$y"], ` + run + `}`), want: `[{"r": 0.0}, {"r": 1.0}]`},
		{name: "covarianceSamp of ints is a double, of one point null", ref: covarianceSrc, cov: wt("$covarianceSamp"),
			docs:     `[{"t": 1, "x": 1, "y": 1}, {"t": 2, "x": 3, "y": 3}]`,
			pipeline: swf(`{"$covarianceSamp": ["$x", "$y"], ` + run + `}`), want: `[{"r": null}, {"r": 2.0}]`},
		{name: "covarianceSamp ignores what is not a pair of numbers", ref: covarianceSrc, cov: wt("$covarianceSamp"),
			docs:     `[{"t": 1, "x": "a", "y": 1}, {"t": 2, "x": 3}]`,
			pipeline: swf(`{"$covarianceSamp": ["$x", "$y"]}`), want: `[{"r": null}, {"r": null}]`},

		// The decimal in x makes the co-moment decimal: (3 - 1) * (3 - 2.0)
		// is 2.00000000000000 (the double as 15 digits), divided by 1.0.
		{name: "covarianceSamp with a decimal is a decimal", ref: covarianceSrc, cov: wt("$covarianceSamp"),
			docs:     `[{"t": 1, "x": {"$numberDecimal": "1"}, "y": 1}, {"t": 2, "x": 3, "y": 3}]`,
			pipeline: swf(`{"$covarianceSamp": ["$x", "$y"]}`), want: `[{"r": {"$numberDecimal": "2"}}, {"r": {"$numberDecimal": "2"}}]`},
		// A pair with an infinity is not counted: it adds +Infinity (its
		// sign) to the co-moment.
		{name: "covariancePop with an infinite pair is infinite", ref: covarianceSrc, cov: w("$covariancePop"),
			docs:     `[{"t": 1, "x": 1, "y": 1}, {"t": 2, "x": 3, "y": 3}, {"t": 3, "x": {"$numberDouble": "Infinity"}, "y": 1}]`,
			pipeline: swf(`{"$covariancePop": ["$x", "$y"]}`),
			want:     `[{"r": {"$numberDouble": "Infinity"}}, {"r": {"$numberDouble": "Infinity"}}, {"r": {"$numberDouble": "Infinity"}}]`},
		{name: "covariancePop of only an infinite pair is null", ref: covarianceSrc, cov: w("$covariancePop"),
			docs:     `[{"t": 1, "x": {"$numberDouble": "-Infinity"}, "y": 1}]`,
			pipeline: swf(`{"$covariancePop": ["$x", "$y"]}`), want: `[{"r": null}]`},
		{name: "covariancePop with NaN is NaN", ref: covarianceSrc, cov: w("$covariancePop"),
			docs:     `[{"t": 1, "x": 1, "y": 1}, {"t": 2, "x": 3, "y": 3}, {"t": 3, "x": 3, "y": {"$numberDouble": "NaN"}}]`,
			pipeline: swf(`{"$covariancePop": ["$x", "$y"]}`),
			want:     `[{"r": {"$numberDouble": "NaN"}}, {"r": {"$numberDouble": "NaN"}}, {"r": {"$numberDouble": "NaN"}}]`},
		// One counted pair is 0.0 for the population, whatever else came.
		{name: "covariancePop of one counted pair and a NaN pair is 0.0", ref: covarianceSrc, cov: w("$covariancePop"),
			docs:     `[{"t": 1, "x": 1, "y": 1}, {"t": 2, "x": 3, "y": {"$numberDouble": "NaN"}}]`,
			pipeline: swf(`{"$covariancePop": ["$x", "$y"]}`), want: `[{"r": 0.0}, {"r": 0.0}]`},

		// Ranks are ints; equal numbers of different types tie.
		{name: "rank ties equal numbers of different types", ref: rankSrc, cov: wt("$rank"),
			docs:     `[{"t": 1, "y": 1}, {"t": 2, "y": 1.0}, {"t": 3, "y": {"$numberLong": "1"}}, {"t": 4, "y": 2}]`,
			pipeline: `[{"$setWindowFields": {"sortBy": {"y": 1}, "output": {"r": {"$rank": {}}}}}, {"$sort": {"t": 1}}, {"$project": {"_id": 0, "r": 1}}]`,
			want:     `[{"r": 1}, {"r": 1}, {"r": 1}, {"r": 4}]`},
		{name: "denseRank ties equal numbers of different types", ref: rankSrc, cov: wt("$denseRank"),
			docs:     `[{"t": 1, "y": {"$numberDecimal": "1"}}, {"t": 2, "y": 1.0}, {"t": 3, "y": 2}]`,
			pipeline: `[{"$setWindowFields": {"sortBy": {"y": 1}, "output": {"r": {"$denseRank": {}}}}}, {"$sort": {"t": 1}}, {"$project": {"_id": 0, "r": 1}}]`,
			want:     `[{"r": 1}, {"r": 1}, {"r": 2}]`},
		{name: "denseRank takes an empty object", ref: windowExprSrc, cov: we("$denseRank"),
			pipeline: swf(`{"$denseRank": 1}`), code: 5371603, msg: "$denseRank must be specified with '{}' as the value"},
		{name: "denseRank takes no window", ref: windowExprSrc, cov: we("$denseRank"),
			pipeline: swf(`{"$denseRank": {}, "window": {"documents": [-1, 0]}}`), code: 5371601, msg: "Rank style window functions take no other arguments"},
		{name: "documentNumber counts within each partition", ref: rankSrc, cov: w("$documentNumber"), docs: pts,
			pipeline: `[{"$setWindowFields": {"partitionBy": "$p", "sortBy": {"t": -1}, "output": {"r": {"$documentNumber": {}}}}}, {"$sort": {"t": 1}}, {"$project": {"_id": 0, "r": 1}}]`,
			want:     `[{"r": 2}, {"r": 1}, {"r": 2}, {"r": 1}]`},
		{name: "documentNumber needs a one-field sortBy", ref: windowExprSrc, cov: we("$documentNumber"),
			pipeline: `[{"$setWindowFields": {"sortBy": {"a": 1, "b": 1}, "output": {"r": {"$documentNumber": {}}}}}]`,
			code:     5371602, msg: "$documentNumber must be specified with a top level sortBy expression with exactly one element"},

		// $first / $last (ExpressionFirstLast).
		{name: "first keeps a long", ref: windowExprCpp, cov: wt("$first"), docs: typed,
			pipeline: swf(`{"$first": "$y", "window": {"documents": [0, 1]}}`),
			want:     `[{"r": {"$numberLong": "5"}}, {"r": 2.5}, {"r": {"$numberDecimal": "9"}}]`},
		{name: "last keeps a decimal", ref: windowExprCpp, cov: wt("$last"), docs: typed,
			pipeline: swf(`{"$last": "$y"}`), want: `[{"r": {"$numberDecimal": "9"}}, {"r": {"$numberDecimal": "9"}}, {"r": {"$numberDecimal": "9"}}]`},
		{name: "last takes one window", ref: windowExprCpp, cov: we("$last"),
			pipeline: swf(`{"$last": "$y", "window": {"documents": [0, 0]}, "window": {"documents": [0, 1]}}`),
			code:     mongoerr.FailedToParse, msg: "saw multiple 'window' fields in '$last' expression"},
		{name: "last's unexpected argument", ref: windowExprCpp, cov: we("$last"),
			pipeline: swf(`{"$last": "$y", "frame": 1}`), code: mongoerr.FailedToParse, msg: "$last got unexpected argument: frame"},

		// The n-functions and $top/$bottom (ExpressionN, accumulator_multi.cpp).
		{name: "firstN's unexpected argument", ref: windowExprCpp, cov: we("$firstN"),
			pipeline: swf(`{"$firstN": {"input": "$y", "n": 1}, "frame": 1}`), code: mongoerr.FailedToParse, msg: "$firstN got unexpected argument: frame"},
		{name: "firstN spec must be an object", ref: accMultiSrc, cov: we("$firstN"),
			pipeline: swf(`{"$firstN": 1}`), code: 5787801, msg: "specification must be an object; found $firstN: 1"},
		{name: "firstN takes n as a decimal, keeps the types", ref: accMultiSrc, cov: wt("$firstN"), docs: typed,
			pipeline: swf(`{"$firstN": {"input": "$y", "n": {"$numberDecimal": "2"}}}`),
			want:     `[{"r": [{"$numberLong": "5"}, 2.5]}, {"r": [{"$numberLong": "5"}, 2.5]}, {"r": [{"$numberLong": "5"}, 2.5]}]`},
		{name: "lastN needs n", ref: accMultiSrc, cov: we("$lastN"),
			pipeline: swf(`{"$lastN": {"input": "$y"}}`), code: 5787906, msg: "Missing value for 'n'"},
		{name: "lastN of a sliding window keeps the types", ref: accMultiSrc, cov: wt("$lastN"), docs: typed,
			pipeline: swf(`{"$lastN": {"input": "$y", "n": {"$numberLong": "2"}}, "window": {"documents": [-1, 1]}}`),
			want:     `[{"r": [{"$numberLong": "5"}, 2.5]}, {"r": [2.5, {"$numberDecimal": "9"}]}, {"r": [2.5, {"$numberDecimal": "9"}]}]`},
		{name: "maxN's n must be positive", ref: accMultiSrc, cov: we("$maxN"), docs: typed,
			pipeline: swf(`{"$maxN": {"input": "$y", "n": 0}}`), code: 5787908, msg: planExecutor + "'n' must be greater than 0, found 0"},
		{name: "maxN orders across types", ref: accMultiSrc, cov: wt("$maxN"),
			docs:     `[{"t": 1, "y": "s"}, {"t": 2, "y": {"$numberLong": "5"}}, {"t": 3, "y": 2.5}]`,
			pipeline: swf(`{"$maxN": {"input": "$y", "n": 2}}`), want: `[{"r": ["s", {"$numberLong": "5"}]}, {"r": ["s", {"$numberLong": "5"}]}, {"r": ["s", {"$numberLong": "5"}]}]`},
		{name: "minN orders numbers of different types", ref: accMultiSrc, cov: wt("$minN"), docs: typed,
			pipeline: swf(`{"$minN": {"input": "$y", "n": 2}}`), want: `[{"r": [2.5, {"$numberLong": "5"}]}, {"r": [2.5, {"$numberLong": "5"}]}, {"r": [2.5, {"$numberLong": "5"}]}]`},
		{name: "top takes one window", ref: windowExprCpp, cov: we("$top"),
			pipeline: swf(`{"$top": {"output": "$y", "sortBy": {"y": 1}}, "window": {"documents": [0, 0]}, "window": {"documents": [0, 1]}}`),
			code:     mongoerr.FailedToParse, msg: "saw multiple 'window' fields in '$top' expression"},
		{name: "top orders numbers before strings", ref: accMultiSrc, cov: wt("$top"),
			docs:     `[{"t": 1, "k": "a", "y": 1}, {"t": 2, "k": 5, "y": {"$numberLong": "2"}}]`,
			pipeline: swf(`{"$top": {"output": "$y", "sortBy": {"k": 1}}}`), want: `[{"r": {"$numberLong": "2"}}, {"r": {"$numberLong": "2"}}]`},
		{name: "bottom takes no n", ref: accMultiSrc, cov: we("$bottom"),
			pipeline: swf(`{"$bottom": {"n": 1, "output": "$y", "sortBy": {"y": 1}}}`), code: 5788002, msg: "Unknown argument to $bottom 'n'"},
		{name: "bottom orders numbers before strings", ref: accMultiSrc, cov: wt("$bottom"),
			docs:     `[{"t": 1, "k": "a", "y": {"$numberDecimal": "1"}}, {"t": 2, "k": 5, "y": 2}]`,
			pipeline: swf(`{"$bottom": {"output": "$y", "sortBy": {"k": 1}}}`), want: `[{"r": {"$numberDecimal": "1"}}, {"r": {"$numberDecimal": "1"}}]`},
		// A removable window's $bottomN keeps every value and answers the
		// last n of its multimap: of tied values, the ones seen last
		// (AccumulatorTopBottomN::getValueConst); an unbounded window keeps
		// the first.
		{name: "bottomN of a sliding window keeps the last of tied values", ref: accMultiSrc, cov: w("$bottomN"),
			docs:     `[{"t": 1, "k": 1}, {"t": 2, "k": 1}, {"t": 3, "k": 1}]`,
			pipeline: swf(`{"$bottomN": {"n": 2, "output": "$t", "sortBy": {"k": 1}}, "window": {"documents": [-2, 0]}}`),
			want:     `[{"r": [1]}, {"r": [1, 2]}, {"r": [2, 3]}]`},
		{name: "bottom of a sliding window is the last of tied values", ref: accMultiSrc, cov: w("$bottom"),
			docs:     `[{"t": 1, "k": 1}, {"t": 2, "k": 1}, {"t": 3, "k": 0}]`,
			pipeline: swf(`{"$bottom": {"output": "$t", "sortBy": {"k": 1}}, "window": {"documents": [-1, 1]}}`),
			want:     `[{"r": 2}, {"r": 2}, {"r": 2}]`},
		{name: "topN of a sliding window keeps the first of tied values", ref: accMultiSrc, cov: w("$topN"),
			docs:     `[{"t": 1, "k": 1}, {"t": 2, "k": 1}, {"t": 3, "k": 1}]`,
			pipeline: swf(`{"$topN": {"n": 2, "output": "$t", "sortBy": {"k": 1}}, "window": {"documents": [-2, 0]}}`),
			want:     `[{"r": [1]}, {"r": [1, 2]}, {"r": [1, 2]}]`},
		{name: "bottomN needs sortBy", ref: accMultiSrc, cov: we("$bottomN"),
			pipeline: swf(`{"$bottomN": {"n": 1, "output": "$y"}}`), code: 5788005, msg: "Missing value for 'sortBy'"},
		{name: "bottomN takes n as a long", ref: accMultiSrc, cov: wt("$bottomN"), docs: typed,
			pipeline: swf(`{"$bottomN": {"n": {"$numberLong": "2"}, "output": "$y", "sortBy": {"y": 1}}}`),
			want:     `[{"r": [{"$numberLong": "5"}, {"$numberDecimal": "9"}]}, {"r": [{"$numberLong": "5"}, {"$numberDecimal": "9"}]}, {"r": [{"$numberLong": "5"}, {"$numberDecimal": "9"}]}]`},
		{name: "topN takes n as a whole double", ref: accMultiSrc, cov: wt("$topN"), docs: typed,
			pipeline: swf(`{"$topN": {"n": 2.0, "output": "$y", "sortBy": {"y": -1}}}`),
			want:     `[{"r": [{"$numberDecimal": "9"}, {"$numberLong": "5"}]}, {"r": [{"$numberDecimal": "9"}, {"$numberLong": "5"}]}, {"r": [{"$numberDecimal": "9"}, {"$numberLong": "5"}]}]`},

		// The quantiles (ExpressionQuantile) are doubles.
		{name: "median of a window is a double", ref: accPctSrc, cov: wt("$median"), docs: typed,
			pipeline: swf(`{"$median": {"input": "$y", "method": "approximate"}}`), want: `[{"r": 5.0}, {"r": 5.0}, {"r": 5.0}]`},
		{name: "median's unexpected argument", ref: windowExprCpp, cov: we("$median"),
			pipeline: swf(`{"$median": {"input": "$y", "method": "approximate"}, "frame": 1}`), code: mongoerr.FailedToParse, msg: "$median got unexpected argument: frame"},
		{name: "median needs a method", ref: accPctSrc, cov: we("$median"),
			pipeline: swf(`{"$median": {"input": "$y"}}`), code: mongoerr.IDLFailedToParse, msg: "BSON field '$median.method' is missing but a required field"},
		{name: "percentile of a window takes int p and answers doubles", ref: accPctSrc, cov: wt("$percentile"), docs: typed,
			pipeline: swf(`{"$percentile": {"input": "$y", "p": [0, 1], "method": "approximate"}}`),
			want:     `[{"r": [2.5, 9.0]}, {"r": [2.5, 9.0]}, {"r": [2.5, 9.0]}]`},

		{name: "percentile given twice", ref: windowExprCpp, cov: we("$percentile"),
			pipeline: swf(`{"$percentile": {"input": "$y", "p": [0.5], "method": "approximate"}, "$percentile": {"input": "$y", "p": [0.5], "method": "approximate"}}`),
			code:     mongoerr.FailedToParse, msg: "saw multiple specifications for '$percentileexpression "},
		{name: "topN given twice", ref: windowExprCpp, cov: we("$topN"),
			pipeline: swf(`{"$topN": {"n": 1, "output": "$y", "sortBy": {"y": 1}}, "$topN": {"n": 1, "output": "$y", "sortBy": {"y": 1}}}`),
			code:     mongoerr.FailedToParse, msg: "saw multiple specifications for '$topN' expression"},
		// ExpressionQuantile::parse lets a later window replace an earlier one.
		{name: "median takes the last of two windows", ref: windowExprCpp, cov: w("$median"), docs: typed,
			pipeline: swf(`{"$median": {"input": "$y", "method": "approximate"}, "window": {"documents": [0, 0]}, "window": {"documents": ["unbounded", "unbounded"]}}`),
			want:     `[{"r": 5.0}, {"r": 5.0}, {"r": 5.0}]`},

		// A removable window keeps every number and answers the exact
		// discrete percentile (WindowFunctionPercentile); over 2000 values
		// the t-digest of an unbounded window already interpolates.
		{name: "percentile of a removable window is exact", ref: "src/mongo/db/pipeline/window_function/window_function_percentile.h", cov: w("$percentile"),
			docs:     shuffled(2000),
			pipeline: `[{"$setWindowFields": {"sortBy": {"t": 1}, "output": {"r": {"$percentile": {"input": "$y", "p": [0.01, 0.5, 0.9], "method": "approximate"}, "window": {"documents": ["current", "unbounded"]}}}}}, {"$sort": {"t": 1}}, {"$limit": 1}, {"$project": {"_id": 0, "r": 1}}]`,
			want:     `[{"r": [20.0, 1000.0, 1800.0]}]`},

		// $shift answers the value, or the default, as it is.
		{name: "shift keeps the types, the default's too", ref: "src/mongo/db/pipeline/window_function/window_function_shift.cpp", cov: wt("$shift"), docs: typed,
			pipeline: swf(`{"$shift": {"output": "$y", "by": 1, "default": {"$numberLong": "0"}}}`),
			want:     `[{"r": 2.5}, {"r": {"$numberDecimal": "9"}}, {"r": {"$numberLong": "0"}}]`},

		// $integral: the trapezoids are computed with $subtract, $add,
		// $multiply and $divide by 2.0: a double for ints, a decimal for decimals.
		{name: "integral of decimals is a decimal", ref: integralSrc, cov: wt("$integral"),
			docs:     `[{"t": 0, "y": {"$numberDecimal": "1"}}, {"t": 2, "y": {"$numberDecimal": "3"}}]`,
			pipeline: swf(`{"$integral": {"input": "$y"}, ` + run + `}`), want: `[{"r": 0}, {"r": {"$numberDecimal": "4"}}]`},
		{name: "integral of ints is a double", ref: integralSrc, cov: wt("$integral"),
			docs:     `[{"t": 0, "y": 1}, {"t": 2, "y": 3}]`,
			pipeline: swf(`{"$integral": {"input": "$y"}}`), want: `[{"r": 4.0}, {"r": 4.0}]`},

		// $locf and $linearFill.
		{name: "locf carries the value with its type", ref: locfSrc, cov: wt("$locf"),
			docs:     `[{"t": 1}, {"t": 2, "y": {"$numberLong": "5"}}, {"t": 3, "y": null}, {"t": 4, "y": {"$numberDecimal": "2"}}, {"t": 5}]`,
			pipeline: swf(`{"$locf": "$y"}`),
			want:     `[{"r": null}, {"r": {"$numberLong": "5"}}, {"r": {"$numberLong": "5"}}, {"r": {"$numberDecimal": "2"}}, {"r": {"$numberDecimal": "2"}}]`},
		{name: "linearFill interpolates between the known values", ref: linearSrc, cov: w("$linearFill"),
			docs:     `[{"t": 0, "y": null}, {"t": 1, "y": 0}, {"t": 2}, {"t": 3, "y": null}, {"t": 4, "y": 9}, {"t": 5}]`,
			pipeline: swf(`{"$linearFill": "$y"}`),
			want:     `[{"r": null}, {"r": 0}, {"r": 3.0}, {"r": 6.0}, {"r": 9}, {"r": null}]`},
		{name: "linearFill of decimals is a decimal", ref: linearSrc, cov: wt("$linearFill"),
			docs:     `[{"t": 1, "y": {"$numberDecimal": "0"}}, {"t": 2}, {"t": 4, "y": {"$numberDecimal": "9"}}]`,
			pipeline: swf(`{"$linearFill": "$y"}`),
			want:     `[{"r": {"$numberDecimal": "0"}}, {"r": {"$numberDecimal": "3"}}, {"r": {"$numberDecimal": "9"}}]`},
		{name: "linearFill keeps a known long", ref: linearSrc, cov: wt("$linearFill"),
			docs:     `[{"t": 1, "y": {"$numberLong": "2"}}, {"t": 2}, {"t": 3, "y": {"$numberLong": "4"}}]`,
			pipeline: swf(`{"$linearFill": "$y"}`),
			want:     `[{"r": {"$numberLong": "2"}}, {"r": 3.0}, {"r": {"$numberLong": "4"}}]`},
		{name: "linearFill of a string", ref: linearSrc, cov: wt("$linearFill"), docs: `[{"t": 1, "y": "a"}]`,
			pipeline: swf(`{"$linearFill": "$y"}`), code: mongoerr.TypeMismatch, msg: planExecutor + "Value to be filled must be numeric or nullish, but found string"},
	})
}

// shuffled is n documents {t: i, y: v} for i in 1..n, the values v a
// permutation of 1..n out of t's order.
func shuffled(n int) string {
	var b strings.Builder
	b.WriteString("[")
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"t": %d, "y": %d}`, i, (i*7919)%n+1)
	}
	b.WriteString("]")
	return b.String()
}
