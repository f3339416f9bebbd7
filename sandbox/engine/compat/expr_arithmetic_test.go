package compat_test

import "testing"

// The arithmetic operators, checked against mongod's evaluate_math.cpp
// (src/mongo/db/exec/expression/, expression.cpp before 8.1) and the
// jstests under jstests/aggregation/expressions.

const (
	mathCpp     = "src/mongo/db/exec/expression/evaluate_math.cpp"
	logPowExpJS = "jstests/aggregation/expressions/log_pow_exp.js"
	nums        = `{"_id": 0, "i": 7, "l": {"$numberLong": "7"}, "d": 7.5, "dec": {"$numberDecimal": "7.5"}, "s": "x", "n": null,` +
		` "imax": 2147483647, "imin": -2147483648, "lmax": {"$numberLong": "9223372036854775807"},` +
		` "lmin": {"$numberLong": "-9223372036854775808"}, "zero": 0, "nan": {"$numberDouble": "NaN"},` +
		` "dnan": {"$numberDecimal": "NaN"}, "date": {"$date": "2020-01-01T00:00:00Z"}}`
)

func TestExpressionAdd(t *testing.T) {
	ref := mathCpp + " (AddState); jstests/aggregation/expressions/add.js"
	runExprCases(t, []exprCase{
		{name: "ints stay an int", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$add": ["$i", 1]}`, want: `8`},
		{name: "an int sum past int32 is a long", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$add": ["$imax", 1]}`,
			want: `{"$numberLong": "2147483648"}`},
		{name: "a long makes a long", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$add": ["$l", 1]}`, want: `{"$numberLong": "8"}`},
		{name: "a long sum that overflows becomes a double", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$add": ["$lmax", 1]}`,
			want: `{"$numberDouble": "9.223372036854775808E+18"}`},
		{name: "a double makes a double", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$add": ["$i", "$d"]}`, want: `14.5`},
		{name: "a decimal makes a decimal", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$add": ["$i", "$dec"]}`,
			want: `{"$numberDecimal": "14.5"}`},
		// Decimal128::add rounds each partial sum to 34 digits, so the 1
		// is lost before the large values cancel.
		{name: "a decimal sum rounds at each step", ref: ref + "; src/mongo/platform/decimal128.cpp (add)", doc: `{"_id": 0, "big": {"$numberDecimal": "1E+40"}}`,
			expr: `{"$add": ["$big", {"$numberDecimal": "1"}, {"$numberDecimal": "-1E+40"}]}`, want: `{"$numberDecimal": "0E+7"}`},
		{name: "a date plus milliseconds is a date", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$add": ["$date", 1000]}`,
			want: `{"$date": "2020-01-01T00:00:01Z"}`},
		{name: "a date plus a double rounds to the millisecond", ref: ref, doc: nums, expr: `{"$add": [1.5, "$date"]}`,
			want: `{"$date": "2020-01-01T00:00:00.002Z"}`},
		{name: "null is null", ref: ref, doc: nums, expr: `{"$add": ["$i", "$n"]}`, want: `null`},
		{name: "missing is null", ref: ref, doc: nums, expr: `{"$add": ["$i", "$nope"]}`, want: `null`},
		{name: "no operands is 0", ref: "jstests/aggregation/expressions/add_empty.js", doc: nums, expr: `{"$add": []}`, want: `0`},
		{name: "one operand need not be in an array", ref: ref, doc: nums, expr: `{"$add": "$i"}`, want: `7`},
		{name: "a string is refused", ref: "jstests/aggregation/expressions/add_error_on_str.js", doc: nums, expr: `{"$add": ["$i", "$s"]}`,
			code: 14, msg: planExecutor + "$add only supports numeric or date types, not string"},
		{name: "two dates are refused", ref: ref, doc: nums, expr: `{"$add": ["$date", "$date"]}`,
			code: 16612, msg: planExecutor + "only one date allowed in an $add expression"},
		{name: "a date past the long range overflows", ref: ref, doc: `{"_id": 0, "d": {"$date": {"$numberLong": "9223372036854775807"}}}`,
			expr: `{"$add": ["$d", 1]}`, code: 15, msg: planExecutor + "date overflow"},
		{name: "a constant error fails the optimization", ref: ref, expr: `{"$add": [1, "a"]}`,
			code: 14, msg: optimizeError + "$add only supports numeric or date types, not string"},
	})
}

func TestExpressionSubtract(t *testing.T) {
	ref := mathCpp + " (evaluateSubtract)"
	runExprCases(t, []exprCase{
		{name: "ints", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$subtract": ["$i", 2]}`, want: `5`},
		{name: "an int difference past int32 is a long", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$subtract": ["$imin", 1]}`,
			want: `{"$numberLong": "-2147483649"}`},
		{name: "a long difference that overflows is a double", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$subtract": ["$lmin", 1]}`,
			want: `{"$numberDouble": "-9.223372036854775808E+18"}`},
		{name: "decimal", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$subtract": ["$dec", "$d"]}`, want: `{"$numberDecimal": "0E-14"}`},
		{name: "date minus date is a long of milliseconds", ref: ref, cov: cover{col: types}, doc: nums,
			expr: `{"$subtract": ["$date", {"$date": "2019-12-31T00:00:00Z"}]}`, want: `{"$numberLong": "86400000"}`},
		{name: "date minus milliseconds is a date", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$subtract": ["$date", 1000]}`,
			want: `{"$date": "2019-12-31T23:59:59Z"}`},
		{name: "null", ref: ref, doc: nums, expr: `{"$subtract": ["$n", "$s"]}`, want: `null`},
		{name: "a number minus a date is refused", ref: ref, doc: nums, expr: `{"$subtract": ["$i", "$date"]}`,
			code: 14, msg: planExecutor + "can't $subtract date from int"},
		{name: "a date minus a string is refused", ref: ref, doc: nums, expr: `{"$subtract": ["$date", "$s"]}`,
			code: 14, msg: planExecutor + "can't $subtract string from Date"},
		{name: "a date minus a huge double overflows", ref: ref, doc: nums, expr: `{"$subtract": ["$date", 1e19]}`,
			code: 15, msg: planExecutor + "date overflow"},
		{name: "it takes two arguments", ref: "src/mongo/db/pipeline/expression.h (ExpressionFixedArity)", expr: `{"$subtract": [1]}`,
			code: 16020, msg: invalidProject + "Expression $subtract takes exactly 2 arguments. 1 were passed in."},
	})
}

func TestExpressionMultiplyDivide(t *testing.T) {
	ref := mathCpp + " (MultiplyState, evaluateDivide)"
	runExprCases(t, []exprCase{
		{name: "ints", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$multiply": ["$i", 2]}`, want: `14`},
		{name: "an int product past int32 is a long", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$multiply": [65536, 65536, "$i"]}`,
			want: `{"$numberLong": "30064771072"}`},
		{name: "a long product that overflows is a double", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$multiply": ["$lmax", 2]}`,
			want: `{"$numberDouble": "1.8446744073709551616E+19"}`},
		// Each product is a Decimal128: the first overflows to -Infinity,
		// and -Infinity times 0 is NaN (jstests/aggregation/expressions/arithmetic_constant_folding.js).
		{name: "a decimal product rounds at each step", ref: ref + "; jstests/aggregation/expressions/arithmetic_constant_folding.js", doc: `{"_id": 0, "x": 0, "y": 4.1}`,
			expr: `{"$multiply": [{"$numberDecimal": "-9.999999999999999999999999999999999E+6144"}, "$y", "$x"]}`, want: `{"$numberDecimal": "NaN"}`},
		{name: "a double", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$multiply": ["$l", 0.5]}`, want: `3.5`},
		{name: "a decimal", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$multiply": ["$dec", 2]}`, want: `{"$numberDecimal": "15.0"}`},
		{name: "no operands is 1", ref: ref, doc: nums, expr: `{"$multiply": []}`, want: `1`},
		{name: "null before a string is null", ref: ref, doc: nums, expr: `{"$multiply": ["$n", "$s"]}`, want: `null`},
		{name: "a string before null is refused", ref: ref, doc: nums, expr: `{"$multiply": ["$s", "$n"]}`,
			code: 14, msg: planExecutor + "$multiply only supports numeric types, not string"},
		{name: "divide is always a double for non-decimals", ref: ref, cov: cover{op: "$divide", col: types}, doc: nums,
			expr: `{"$divide": ["$i", 7]}`, want: `1.0`},
		{name: "divide with a decimal is a decimal", ref: ref, cov: cover{op: "$divide", col: types}, doc: nums,
			expr: `{"$divide": [1, {"$numberDecimal": "3"}]}`, want: `{"$numberDecimal": "0.3333333333333333333333333333333333"}`},
		{name: "divide by zero", ref: ref, doc: nums, expr: `{"$divide": ["$i", "$zero"]}`,
			code: 2, msg: planExecutor + "can't $divide by zero"},
		{name: "divide a decimal by zero", ref: ref, doc: nums, expr: `{"$divide": ["$dec", "$zero"]}`,
			code: 2, msg: planExecutor + "can't $divide by zero"},
		{name: "divide null", ref: ref, doc: nums, expr: `{"$divide": ["$n", 2]}`, want: `null`},
		{name: "divide a string", ref: ref, doc: nums, expr: `{"$divide": ["$s", "$i"]}`,
			code: 14, msg: planExecutor + "$divide only supports numeric types, not string and int"},
		// jstests/aggregation/bugs/server6240.js (2020) wants 16609 here; since
		// ExpressionDivide::apply (4.x, kept as evaluateDivide) mongod answers
		// TypeMismatch, and a date is no exception.
		{name: "divide a date", ref: ref, doc: nums, expr: `{"$divide": ["$date", 2]}`,
			code: 14, msg: planExecutor + "$divide only supports numeric types, not date and int"},
	})
}

func TestExpressionUnaryArithmetic(t *testing.T) {
	ref := mathCpp + " (evaluateSingleNumericArg)"
	runExprCases(t, []exprCase{
		{name: "abs of an int", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$abs": {"$subtract": [0, "$i"]}}`, want: `7`},
		{name: "abs of the smallest int is a long", ref: "jstests/aggregation/expressions/abs.js", cov: cover{col: types}, doc: nums,
			expr: `{"$abs": "$imin"}`, want: `{"$numberLong": "2147483648"}`},
		{name: "abs of the smallest long", ref: ref, doc: nums, expr: `{"$abs": "$lmin"}`,
			code: 28680, msg: planExecutor + "can't take $abs of long long min"},
		{name: "abs of a decimal", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$abs": {"$subtract": [0, "$dec"]}}`,
			want: `{"$numberDecimal": "7.5"}`},
		{name: "abs of null", ref: ref, doc: nums, expr: `{"$abs": "$n"}`, want: `null`},
		{name: "abs of a string", ref: ref, doc: nums, expr: `{"$abs": "$s"}`,
			code: 28765, msg: planExecutor + "$abs only supports numeric types, not string"},
		{name: "abs takes one argument", ref: ref, expr: `{"$abs": [1, 2]}`,
			code: 16020, msg: invalidProject + "Expression $abs takes exactly 1 arguments. 2 were passed in."},
		{name: "ceil of a double", ref: "jstests/aggregation/expressions/floor_ceil.js", cov: cover{op: "$ceil", col: types}, doc: nums,
			expr: `{"$ceil": "$d"}`, want: `8.0`},
		{name: "ceil keeps an int", ref: ref, cov: cover{op: "$ceil", col: types}, doc: nums, expr: `{"$ceil": "$i"}`, want: `7`},
		{name: "ceil of a decimal", ref: ref, cov: cover{op: "$ceil", col: types}, doc: nums, expr: `{"$ceil": "$dec"}`,
			want: `{"$numberDecimal": "8"}`},
		{name: "floor of a negative double", ref: "jstests/aggregation/expressions/floor_ceil.js", doc: nums,
			expr: `{"$floor": {"$subtract": [0, "$d"]}}`, want: `-8.0`},
		{name: "floor of a decimal", ref: ref, cov: cover{op: "$floor", col: types}, doc: nums,
			expr: `{"$floor": {"$subtract": [0, "$dec"]}}`, want: `{"$numberDecimal": "-8"}`},
		{name: "floor of NaN", ref: ref, doc: nums, expr: `{"$floor": "$nan"}`, want: `{"$numberDouble": "NaN"}`},
		{name: "floor of a string", ref: ref, doc: nums, expr: `{"$floor": "$s"}`,
			code: 28765, msg: planExecutor + "$floor only supports numeric types, not string"},
		{name: "sqrt is a double", ref: ref, cov: cover{op: "$sqrt", col: types}, doc: nums, expr: `{"$sqrt": 25}`, want: `5.0`},
		{name: "sqrt of a decimal", ref: ref, cov: cover{op: "$sqrt", col: types}, expr: `{"$sqrt": {"$numberDecimal": "2"}}`,
			want: `{"$numberDecimal": "1.414213562373095048801688724209698"}`},
		{name: "exact sqrt of a decimal", ref: ref, cov: cover{op: "$sqrt", col: types}, expr: `{"$sqrt": {"$numberDecimal": "6.25"}}`,
			want: `{"$numberDecimal": "2.5"}`},
		{name: "sqrt of a negative", ref: ref, doc: nums, expr: `{"$sqrt": {"$subtract": [0, "$i"]}}`,
			code: 28714, msg: planExecutor + "$sqrt's argument must be greater than or equal to 0"},
		{name: "sqrt of NaN", ref: ref, doc: nums, expr: `{"$sqrt": "$nan"}`, want: `{"$numberDouble": "NaN"}`},
		{name: "sqrt of a decimal NaN", ref: ref, doc: nums, expr: `{"$sqrt": "$dnan"}`, want: `{"$numberDecimal": "NaN"}`},
	})
}

func TestExpressionLogPowExp(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "log of doubles", ref: logPowExpJS, doc: nums, expr: `{"$log": [100, 10]}`, want: `2.0`},
		{name: "log with a decimal", ref: logPowExpJS, cov: cover{col: types}, expr: `{"$log": [2.5, {"$numberDecimal": "8"}]}`,
			want: `{"$numberDecimal": "0.4406426982957874492901064764964633"}`},
		{name: "log of 1 in decimal", ref: logPowExpJS, cov: cover{col: types}, expr: `{"$log": [{"$numberDecimal": "1"}, 8]}`,
			want: `{"$numberDecimal": "0E+33"}`},
		{name: "log of the base in decimal is 1", ref: logPowExpJS, expr: `{"$log": [{"$numberDecimal": "8"}, 8]}`,
			want: `{"$numberDecimal": "1"}`},
		{name: "log in decimal to base 10", ref: logPowExpJS, expr: `{"$log": [{"$numberDecimal": "100"}, 10]}`,
			want: `{"$numberDecimal": "2"}`},
		{name: "log of the largest long", ref: logPowExpJS, doc: nums, expr: `{"$log": ["$lmax", 10]}`, want: `18.964889726830812`},
		{name: "log of NaN", ref: logPowExpJS, doc: nums, expr: `{"$log": ["$nan", 10]}`, want: `{"$numberDouble": "NaN"}`},
		{name: "log of null", ref: logPowExpJS, doc: nums, expr: `{"$log": [10, "$n"]}`, want: `null`},
		{name: "log of a string", ref: logPowExpJS, doc: nums, expr: `{"$log": ["$s", 5]}`,
			code: 28756, msg: planExecutor + "$log's argument must be numeric, not string"},
		{name: "log to a string base", ref: logPowExpJS, doc: nums, expr: `{"$log": [5, "$s"]}`,
			code: 28757, msg: planExecutor + "$log's base must be numeric, not string"},
		{name: "log of zero", ref: logPowExpJS, doc: nums, expr: `{"$log": ["$zero", 5]}`,
			code: 28758, msg: planExecutor + "$log's argument must be a positive number, but is 0"},
		{name: "log to base 1", ref: logPowExpJS, doc: nums, expr: `{"$log": [5, {"$add": ["$zero", 1]}]}`,
			code: 28759, msg: planExecutor + "$log's base must be a positive number not equal to 1, but is 1"},
		{name: "log of a negative decimal", ref: logPowExpJS, doc: nums, expr: `{"$log": [{"$subtract": [0, "$dec"]}, 5]}`,
			code: 28758, msg: planExecutor + "$log's argument must be a positive number, but is -7.5"},
		{name: "log10", ref: logPowExpJS, cov: cover{op: "$log10"}, doc: nums, expr: `{"$log10": 1000}`, want: `3.0`},
		{name: "log10 of a decimal", ref: logPowExpJS, cov: cover{op: "$log10", col: types}, expr: `{"$log10": {"$numberDecimal": "11"}}`,
			want: `{"$numberDecimal": "1.041392685158225040750199971243024"}`},
		{name: "log10 of a decimal power of ten is exact", ref: logPowExpJS, cov: cover{op: "$log10", col: types},
			expr: `{"$log10": {"$numberDecimal": "100"}}`, want: `{"$numberDecimal": "2"}`},
		{name: "log10 of zero", ref: logPowExpJS, doc: nums, expr: `{"$log10": "$zero"}`,
			code: 28761, msg: planExecutor + "$log10's argument must be a positive number, but is 0"},
		{name: "ln", ref: logPowExpJS, doc: nums, expr: `{"$ln": 1}`, want: `0.0`},
		{name: "ln of a decimal", ref: logPowExpJS, cov: cover{op: "$ln", col: types}, expr: `{"$ln": {"$numberDecimal": "10"}}`,
			want: `{"$numberDecimal": "2.302585092994045684017991454684364"}`},
		{name: "ln of a decimal close to e", ref: logPowExpJS, expr: `{"$ln": {"$numberDecimal": "2.718281828459045235360287471352662"}}`,
			want: `{"$numberDecimal": "0.9999999999999999999999999999999998"}`},
		{name: "ln of a decimal NaN is a double NaN", ref: mathCpp + " (ExpressionLn falls through to the double path)",
			cov: cover{op: "$ln", col: types}, doc: nums, expr: `{"$ln": "$dnan"}`, want: `{"$numberDouble": "NaN"}`},
		{name: "ln of a negative decimal", ref: logPowExpJS, doc: nums, expr: `{"$ln": {"$subtract": [0, "$dec"]}}`,
			code: 28766, msg: planExecutor + "$ln's argument must be a positive number, but is -7.5"},
		{name: "ln of a string", ref: logPowExpJS, doc: nums, expr: `{"$ln": "$s"}`,
			code: 28765, msg: planExecutor + "$ln only supports numeric types, not string"},
		{name: "exp of an int is a double", ref: logPowExpJS, cov: cover{op: "$exp", col: types}, doc: nums, expr: `{"$exp": "$zero"}`, want: `1.0`},
		{name: "exp of a decimal", ref: logPowExpJS, cov: cover{op: "$exp", col: types}, expr: `{"$exp": {"$numberDecimal": "1"}}`,
			want: `{"$numberDecimal": "2.718281828459045235360287471352662"}`},
		{name: "exp of a negative decimal", ref: logPowExpJS, expr: `{"$exp": {"$numberDecimal": "-1"}}`,
			want: `{"$numberDecimal": "0.3678794411714423215955237701614609"}`},
		{name: "exp of a decimal NaN", ref: logPowExpJS, doc: nums, expr: `{"$exp": "$dnan"}`, want: `{"$numberDecimal": "NaN"}`},
		{name: "exp of null", ref: logPowExpJS, doc: nums, expr: `{"$exp": "$n"}`, want: `null`},
		{name: "pow of ints is an int", ref: logPowExpJS, cov: cover{op: "$pow", col: types}, expr: `{"$pow": [4, 2]}`, want: `16`},
		{name: "pow of ints past int32 is a long", ref: logPowExpJS, cov: cover{op: "$pow", col: types}, expr: `{"$pow": [3, 35]}`,
			want: `{"$numberLong": "50031545098999707"}`},
		{name: "pow past the long range is a double", ref: logPowExpJS, cov: cover{op: "$pow", col: types},
			expr: `{"$pow": [2, {"$numberLong": "63"}]}`, want: `{"$numberDouble": "9.223372036854775808E+18"}`},
		{name: "pow to the smallest long", ref: logPowExpJS, cov: cover{op: "$pow", col: types},
			expr: `{"$pow": [-2, {"$numberLong": "63"}]}`, want: `{"$numberLong": "-9223372036854775808"}`},
		{name: "pow to a negative exponent is a double", ref: logPowExpJS, cov: cover{op: "$pow", col: types}, expr: `{"$pow": [4, -1]}`, want: `0.25`},
		{name: "pow of -1 to a negative exponent stays integral", ref: logPowExpJS, cov: cover{op: "$pow", col: types},
			expr: `{"$pow": [{"$numberLong": "-1"}, {"$numberLong": "-3"}]}`, want: `{"$numberLong": "-1"}`},
		{name: "pow with a decimal has a full coefficient", ref: logPowExpJS, cov: cover{op: "$pow", col: types},
			expr: `{"$pow": [{"$numberDecimal": "10.0"}, 2]}`, want: `{"$numberDecimal": "100.0000000000000000000000000000000"}`},
		{name: "pow with a decimal exponent", ref: logPowExpJS, expr: `{"$pow": [-2, {"$numberDecimal": "2"}]}`,
			want: `{"$numberDecimal": "4.000000000000000000000000000000000"}`},
		{name: "pow of an exact decimal", ref: logPowExpJS, expr: `{"$pow": [5, {"$numberDecimal": "-112"}]}`,
			want: `{"$numberDecimal": "5192296858534827628530496329220096E-112"}`},
		{name: "pow of a double NaN with a decimal is a decimal NaN", ref: logPowExpJS, doc: nums,
			expr: `{"$pow": ["$nan", {"$numberDecimal": "2"}]}`, want: `{"$numberDecimal": "NaN"}`},
		{name: "pow of NaN", ref: logPowExpJS, doc: nums, expr: `{"$pow": ["$nan", 2]}`, want: `{"$numberDouble": "NaN"}`},
		{name: "pow of zero to a negative exponent", ref: logPowExpJS, doc: nums, expr: `{"$pow": ["$zero", {"$numberLong": "-1"}]}`,
			code: 28764, msg: planExecutor + "$pow cannot take a base of 0 and a negative exponent"},
		{name: "pow of a decimal zero to a negative exponent", ref: logPowExpJS, doc: nums,
			expr: `{"$pow": [{"$numberDecimal": "0"}, {"$subtract": [0, "$i"]}]}`,
			code: 28764, msg: planExecutor + "$pow cannot take a base of 0 and a negative exponent"},
		{name: "pow of a string", ref: logPowExpJS, doc: nums, expr: `{"$pow": ["$s", 5]}`,
			code: 28762, msg: planExecutor + "$pow's base must be numeric, not string"},
		{name: "pow to a string", ref: logPowExpJS, doc: nums, expr: `{"$pow": [5, "$s"]}`,
			code: 28763, msg: planExecutor + "$pow's exponent must be numeric, not string"},
		{name: "pow of null", ref: logPowExpJS, doc: nums, expr: `{"$pow": ["$n", 2]}`, want: `null`},
	})
}

func TestExpressionRoundTrunc(t *testing.T) {
	ref := mathCpp + " (evaluateRoundOrTrunc)"
	runExprCases(t, []exprCase{
		{name: "round half to even", ref: ref, doc: nums, expr: `{"$round": [2.5]}`, want: `2.0`},
		{name: "round a negative half", ref: ref, doc: nums, expr: `{"$round": [-3.5]}`, want: `-4.0`},
		{name: "round to a place", ref: ref, doc: nums, expr: `{"$round": [1.2345, 2]}`, want: `1.23`},
		{name: "round to the left of the point keeps an int", ref: ref, cov: cover{col: types}, doc: nums, expr: `{"$round": [1250, -2]}`, want: `1200`},
		{name: "round an int past int32 is a long", ref: ref, cov: cover{col: types}, expr: `{"$round": [2147483647, -1]}`,
			want: `{"$numberLong": "2147483650"}`},
		{name: "round a long", ref: ref, cov: cover{col: types}, expr: `{"$round": [{"$numberLong": "1350"}, -2]}`, want: `{"$numberLong": "1400"}`},
		{name: "round a decimal", ref: ref, cov: cover{col: types}, expr: `{"$round": [{"$numberDecimal": "1.25"}, 1]}`,
			want: `{"$numberDecimal": "1.2"}`},
		{name: "round a small negative to a negative zero", ref: ref, expr: `{"$round": [-0.4]}`, want: `{"$numberDouble": "-0.0"}`},
		{name: "round NaN", ref: ref, doc: nums, expr: `{"$round": "$nan"}`, want: `{"$numberDouble": "NaN"}`},
		{name: "round null", ref: ref, doc: nums, expr: `{"$round": ["$n", 2]}`, want: `null`},
		{name: "round to a null place", ref: ref, doc: nums, expr: `{"$round": ["$d", "$n"]}`, want: `null`},
		{name: "trunc toward zero", ref: ref, cov: cover{op: "$trunc"}, doc: nums, expr: `{"$trunc": {"$subtract": [0, "$d"]}}`, want: `-7.0`},
		{name: "trunc to a place", ref: ref, cov: cover{op: "$trunc"}, expr: `{"$trunc": [1.99, 1]}`, want: `1.9`},
		{name: "round a string", ref: ref, doc: nums, expr: `{"$round": ["$s"]}`,
			code: 51081, msg: planExecutor + "$round only supports numeric types, not string"},
		{name: "round to a fractional place", ref: ref, doc: nums, expr: `{"$round": ["$d", 1.5]}`,
			code: 51082, msg: planExecutor + "precision argument to  $round must be a integral value"},
		{name: "round to a place out of range", ref: ref, doc: nums, expr: `{"$round": ["$d", 101]}`,
			code: 51083, msg: planExecutor + "cannot apply $round with precision value 101 value must be in [-20, 100]"},
		{name: "trunc to a string place", ref: ref, doc: nums, expr: `{"$trunc": ["$d", "$s"]}`,
			code: 16004, msg: planExecutor + "can't convert from BSON type string to long"},
		{name: "round takes one or two arguments", ref: ref, expr: `{"$round": []}`,
			code: 28667, msg: invalidProject + "Expression $round takes at least 1 arguments, and at most 2, but 0 were passed in."},
	})
}

// $mod and $trunc by argument type. $mod answers the wider of its two
// types (since 7.2 an integral double divisor no longer takes the
// dividend's type); $trunc keeps an int or long when it truncates to the
// left of the point, answers a long when an int's result outgrows it, and
// quantizes a double or a decimal in its own type.
func TestExpressionModTruncTypes(t *testing.T) {
	mod := mathCpp + " (evaluateMod); manual: reference/operator/aggregation/mod; " + modJS
	trunc := mathCpp + " (evaluateRoundOrTrunc)"
	runExprCases(t, []exprCase{
		{name: "mod of an int by an integral double is a double", ref: mod, cov: cover{op: "$mod", col: types}, doc: nums,
			expr: `{"$mod": ["$i", 2.0]}`, want: `1.0`},
		{name: "mod of a long by an integral double is a double", ref: mod, cov: cover{op: "$mod", col: types}, doc: nums,
			expr: `{"$mod": ["$l", 4.0]}`, want: `3.0`},
		{name: "mod of an int by a long is a long", ref: mod, cov: cover{op: "$mod", col: types}, doc: nums,
			expr: `{"$mod": ["$i", {"$numberLong": "4"}]}`, want: `{"$numberLong": "3"}`},
		{name: "mod of ints is an int", ref: mod, cov: cover{op: "$mod", col: types}, doc: nums, expr: `{"$mod": ["$i", 4]}`, want: `3`},
		{name: "mod of a decimal is a decimal", ref: mod, cov: cover{op: "$mod", col: types}, doc: nums,
			expr: `{"$mod": ["$dec", 2]}`, want: `{"$numberDecimal": "1.5"}`},
		{name: "a decimal mod's zero keeps the dividend's sign", ref: mod + "; jstests/core/query/mod/mod_overflow.js (SERVER-43699)", cov: cover{op: "$mod", col: types},
			expr: `{"$mod": [{"$numberLong": "-9223372036854775808"}, {"$numberDecimal": "-1"}]}`, want: `{"$numberDecimal": "-0"}`},
		{name: "a decimal mod of a negative dividend", ref: mod, cov: cover{op: "$mod", col: types},
			expr: `{"$mod": [-6, {"$numberDecimal": "3"}]}`, want: `{"$numberDecimal": "-0"}`},
		{name: "mod of a decimal by zero", ref: mathCpp + " (evaluateMod: 5733415)", cov: cover{op: "$mod", col: types}, doc: nums,
			expr: `{"$mod": ["$dec", "$zero"]}`, code: 5733415, msg: planExecutor + "can't $mod by zero"},
		{name: "mod of a date", ref: mathCpp + " (evaluateMod: 16611)", cov: cover{op: "$mod", col: types}, doc: nums,
			expr: `{"$mod": ["$date", 2]}`, code: 16611, msg: planExecutor + "$mod only supports numeric types, not date and int"},
		{name: "trunc of an int stays an int", ref: trunc, cov: cover{op: "$trunc", col: types}, doc: nums, expr: `{"$trunc": "$i"}`, want: `7`},
		{name: "trunc of an int to the tens is an int", ref: trunc, cov: cover{op: "$trunc", col: types}, expr: `{"$trunc": [1259, -1]}`, want: `1250`},
		{name: "trunc of a long to the tens is a long", ref: trunc, cov: cover{op: "$trunc", col: types},
			expr: `{"$trunc": [{"$numberLong": "1259"}, -1]}`, want: `{"$numberLong": "1250"}`},
		{name: "trunc of a decimal is a decimal", ref: trunc, cov: cover{op: "$trunc", col: types},
			expr: `{"$trunc": [{"$numberDecimal": "7.59"}, 1]}`, want: `{"$numberDecimal": "7.5"}`},
		{name: "trunc of a double is a double", ref: trunc, cov: cover{op: "$trunc", col: types}, doc: nums, expr: `{"$trunc": ["$d"]}`, want: `7.0`},
		{name: "trunc to a long place", ref: trunc, cov: cover{op: "$trunc", col: types}, doc: nums,
			expr: `{"$trunc": ["$d", {"$numberLong": "0"}]}`, want: `7.0`},
		{name: "trunc of a date", ref: trunc, cov: cover{op: "$trunc", col: types}, doc: nums,
			expr: `{"$trunc": "$date"}`, code: 51081, msg: planExecutor + "$trunc only supports numeric types, not date"},
	})
}
