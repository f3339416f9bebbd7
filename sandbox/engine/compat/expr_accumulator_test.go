package compat_test

import "testing"

// The accumulators in their expression form, over an array argument or a
// list of arguments: ExpressionFromAccumulator in
// src/mongo/db/pipeline/expression.h with the accumulators of
// src/mongo/db/pipeline/accumulator_*.cpp, and
// jstests/aggregation/expressions/avg_and_sum.js.

func TestExpressionAccumulators(t *testing.T) {
	sumJS := "jstests/aggregation/expressions/avg_and_sum.js"
	doc := `{"_id": 0, "a": [1, 2, "x", null, 4], "big": [2147483647, 1], "mixed": [1, 2.5, {"$numberDecimal": "1.5"}], "n": null, "s": "x", "one": [5]}`
	runExprCases(t, []exprCase{
		{name: "sum of an array skips non-numbers", ref: sumJS, cov: cover{op: "$sum"}, doc: doc, expr: `{"$sum": "$a"}`, want: `7`},
		{name: "sum of arguments", ref: sumJS, cov: cover{op: "$sum"}, doc: doc, expr: `{"$sum": [1, "$s", 2]}`, want: `3`},
		{name: "sum of ints past int32 is a long", ref: "src/mongo/db/pipeline/accumulator_sum.cpp", cov: cover{op: "$sum", col: types}, doc: doc,
			expr: `{"$sum": "$big"}`, want: `{"$numberLong": "2147483648"}`},
		{name: "sum of a string is 0", ref: sumJS, cov: cover{op: "$sum"}, doc: doc, expr: `{"$sum": "$s"}`, want: `0`},
		{name: "sum of null is 0", ref: sumJS, cov: cover{op: "$sum"}, doc: doc, expr: `{"$sum": "$n"}`, want: `0`},
		{name: "avg", ref: sumJS, cov: cover{op: "$avg", col: types}, doc: doc, expr: `{"$avg": "$a"}`, want: `2.3333333333333335`},
		{name: "avg of no numbers is null", ref: sumJS, cov: cover{op: "$avg"}, doc: doc, expr: `{"$avg": ["$s", "$n"]}`, want: `null`},
		{name: "max across types", ref: "src/mongo/db/pipeline/accumulator_min_max.cpp", cov: cover{op: "$max"}, doc: doc, expr: `{"$max": "$a"}`, want: `"x"`},
		{name: "min skips null", ref: "src/mongo/db/pipeline/accumulator_min_max.cpp", cov: cover{op: "$min"}, doc: doc, expr: `{"$min": [null, 3, 2]}`, want: `2`},
		{name: "min of nothing is null", ref: "src/mongo/db/pipeline/accumulator_min_max.cpp", cov: cover{op: "$min"}, doc: doc, expr: `{"$min": []}`, want: `null`},
		{name: "stdDevPop", ref: "src/mongo/db/pipeline/accumulator_std_dev.cpp", cov: cover{op: "$stdDevPop", col: types}, doc: doc,
			expr: `{"$stdDevPop": [1, 2, 3, 4]}`, want: `1.118033988749895`},
		{name: "stdDevSamp of one value is null", ref: "src/mongo/db/pipeline/accumulator_std_dev.cpp", cov: cover{op: "$stdDevSamp"}, doc: doc,
			expr: `{"$stdDevSamp": "$one"}`, want: `null`},
		{name: "median", ref: "src/mongo/db/pipeline/accumulator_percentile.cpp", cov: cover{op: "$median"}, doc: doc,
			expr: `{"$median": {"input": "$a", "method": "approximate"}}`, want: `2.0`},
		{name: "percentile", ref: "src/mongo/db/pipeline/accumulator_percentile.cpp", cov: cover{op: "$percentile"}, doc: doc,
			expr: `{"$percentile": {"input": [1, 2, 3, 4], "p": [0.5, 0.9], "method": "approximate"}}`, want: `[2.0, 4.0]`},
	})
}

// The types the expression forms give: $max and $min keep the value they
// chose (the first of equal ones), $stdDev* and the quantiles compute in
// doubles.
func TestExpressionAccumulatorTypes(t *testing.T) {
	minMax := "src/mongo/db/pipeline/accumulator_min_max.cpp (AccumulatorMinMax::processInternal)"
	pct := "src/mongo/db/pipeline/accumulator_percentile.cpp (evaluateAccumulatorQuantile)"
	doc := `{"_id": 0, "i": 2, "l": {"$numberLong": "2"}, "dec": {"$numberDecimal": "2"}, "nums": [1, {"$numberLong": "2"}, {"$numberDecimal": "3"}, 4.0]}`
	runExprCases(t, []exprCase{
		{name: "sum of a decimal and an infinity is the decimal infinity", ref: "src/mongo/util/summation.h (DoubleDoubleSummation::getDecimal); jstests/aggregation/bugs/server42756.js",
			cov: cover{op: "$sum", col: types}, expr: `{"$sum": [{"$numberDouble": "Infinity"}, {"$numberDecimal": "1.0"}]}`, want: `{"$numberDecimal": "Infinity"}`},
		{name: "avg of a decimal and a minus infinity is the decimal minus infinity", ref: "src/mongo/util/summation.h (DoubleDoubleSummation::getDecimal); jstests/aggregation/bugs/server42756.js",
			cov: cover{op: "$avg", col: types}, expr: `{"$avg": [{"$numberDecimal": "1.0"}, {"$numberDouble": "-Infinity"}]}`, want: `{"$numberDecimal": "-Infinity"}`},
		{name: "max keeps the chosen value's type", ref: minMax, cov: cover{op: "$max", col: types}, doc: doc,
			expr: `{"$max": [1, "$l", 1.5]}`, want: `{"$numberLong": "2"}`},
		{name: "min of equal numbers keeps the first", ref: minMax, cov: cover{op: "$min", col: types}, doc: doc,
			expr: `{"$min": ["$dec", "$i", 3]}`, want: `{"$numberDecimal": "2"}`},
		{name: "min meets a constant argument last", ref: minMax + "; " + exprCpp + " (ExpressionNary::optimize moves a commutative operator's constants to the back)",
			cov: cover{op: "$min", col: types}, doc: doc, expr: `{"$min": [2.0, "$i"]}`, want: `2`},
		{name: "stdDevSamp of mixed numeric types is a double", ref: "src/mongo/db/pipeline/accumulator_std_dev.cpp", cov: cover{op: "$stdDevSamp", col: types},
			doc: doc, expr: `{"$stdDevSamp": "$nums"}`, want: `1.2909944487358056`},
		{name: "median of a decimal is a double", ref: pct, cov: cover{op: "$median", col: types}, doc: doc,
			expr: `{"$median": {"input": "$dec", "method": "approximate"}}`, want: `2.0`},
		{name: "percentile of a long is doubles", ref: pct, cov: cover{op: "$percentile", col: types}, doc: doc,
			expr: `{"$percentile": {"input": "$l", "p": [0.1, {"$numberLong": "1"}], "method": "approximate"}}`, want: `[2.0, 2.0]`},
		{name: "sum of longs past int64 is a double", ref: "src/mongo/db/pipeline/accumulator_sum.cpp (AccumulatorSum::getValue)",
			cov: cover{op: "$sum", col: types}, expr: `{"$sum": [{"$numberLong": "9223372036854775807"}, 1]}`, want: `9.223372036854775807E+18`},
		{name: "avg with a decimal is a decimal", ref: "src/mongo/db/pipeline/accumulator_avg.cpp (AccumulatorAvg::getValue)",
			cov: cover{op: "$avg", col: types}, expr: `{"$avg": [{"$numberDecimal": "1"}, 2]}`, want: `{"$numberDecimal": "1.5"}`},
		{name: "percentile of no numbers is nulls", ref: pct, cov: cover{op: "$percentile", col: types}, doc: doc,
			expr: `{"$percentile": {"input": ["a", null], "p": [0.5, 0.9], "method": "approximate"}}`, want: `[null, null]`},
	})
}

// The expression forms validate nothing of their own
// (ExpressionFromAccumulator is variadic): each argument is evaluated in
// turn and handed to the accumulator, so an argument's error is theirs.
func TestExpressionAccumulatorErrors(t *testing.T) {
	ref := "src/mongo/db/pipeline/expression.h (ExpressionFromAccumulator::evaluate)"
	doc := `{"_id": 0, "z": 0}`
	divideByZero := planExecutor + "can't $divide by zero"
	var cases []exprCase
	for _, op := range []string{"$sum", "$avg", "$max", "$min", "$stdDevPop", "$stdDevSamp"} {
		cases = append(cases, exprCase{name: op + " of an erring argument", ref: ref, cov: cover{op: op}, doc: doc,
			expr: `{"` + op + `": [1, {"$divide": [1, "$z"]}]}`, code: 2, msg: divideByZero})
	}
	runExprCases(t, cases)
}
