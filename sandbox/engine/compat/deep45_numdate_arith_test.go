package compat_test

import "testing"

// Deep sweep 45 (numdate): $abs, $ceil, $divide and $subtract, case by case
// against mongod's ExpressionAbs / ExpressionCeil (expression.cpp),
// evaluateSubtract, evaluateRoundOrTrunc and ExpressionDivide::apply
// (src/mongo/db/exec/expression/evaluate_math.cpp, expression.cpp before
// 8.1) and Decimal128::quantize (src/mongo/platform/decimal128.cpp, the
// IEEE 754-2008 quantize of the Intel library).

const nd45Doc = `{"_id": 0, "i": 5, "ni": -5, "imin": -2147483648, "lmin": {"$numberLong": "-9223372036854775808"},` +
	` "lmax": {"$numberLong": "9223372036854775807"}, "l": {"$numberLong": "7"}, "d": -2.5, "nz": {"$numberDouble": "-0.0"},` +
	` "nan": {"$numberDouble": "NaN"}, "inf": {"$numberDouble": "Infinity"}, "ninf": {"$numberDouble": "-Infinity"},` +
	` "dec": {"$numberDecimal": "-2.50"}, "dnan": {"$numberDecimal": "NaN"}, "dinf": {"$numberDecimal": "Infinity"},` +
	` "dnz": {"$numberDecimal": "-0"}, "dbig": {"$numberDecimal": "1E+34"}, "s": "x", "n": null, "a": [1, 2], "b": true,` +
	` "dt": {"$date": "2024-03-10T12:34:56.789Z"}, "early": {"$date": {"$numberLong": "-1"}},` +
	` "oid": {"$oid": "65edab000000000000000000"}, "ts": {"$timestamp": {"t": 1700000000, "i": 7}}}`

func TestDeep45NumdateAbs(t *testing.T) {
	ref := exprCpp + " (ExpressionAbs::evaluateNumericArg); jstests/aggregation/expressions/abs.js"
	c := cover{op: "$abs"}
	ct := cover{op: "$abs", col: types}
	ce := cover{op: "$abs", col: errorCol}
	runExprCases(t, []exprCase{
		{name: "abs of a negative int is an int", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$abs": "$ni"}`, want: `5`},
		{name: "abs of the least int is a long", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$abs": "$imin"}`, want: `{"$numberLong": "2147483648"}`},
		{name: "abs of a long stays a long", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$abs": {"$subtract": [0, "$l"]}}`, want: `{"$numberLong": "7"}`},
		{name: "abs of -0.0 is a double 0", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$abs": "$nz"}`, want: `0.0`},
		{name: "abs of a decimal keeps its exponent", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$abs": "$dec"}`, want: `{"$numberDecimal": "2.50"}`},
		{name: "abs of a decimal -0", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$abs": "$dnz"}`, want: `{"$numberDecimal": "0"}`},
		{name: "abs of -Infinity", ref: ref, cov: c, doc: nd45Doc, expr: `{"$abs": "$ninf"}`, want: `{"$numberDouble": "Infinity"}`},
		{name: "abs of a decimal NaN", ref: ref, cov: c, doc: nd45Doc, expr: `{"$abs": "$dnan"}`, want: `{"$numberDecimal": "NaN"}`},
		{name: "abs of missing is null", ref: ref, cov: c, doc: nd45Doc, expr: `{"$abs": "$nothing"}`, want: `null`},
		{name: "abs of the least long", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$abs": "$lmin"}`,
			code: 28680, msg: planExecutor + "can't take $abs of long long min"},
		{name: "abs of an array", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$abs": "$a"}`,
			code: 28765, msg: planExecutor + "$abs only supports numeric types, not array"},
		{name: "abs of a date", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$abs": "$dt"}`,
			code: 28765, msg: planExecutor + "$abs only supports numeric types, not date"},
		{name: "abs with two arguments", ref: ref, cov: ce, expr: `{"$abs": [1, 2]}`,
			code: 16020, msg: invalidProject + "Expression $abs takes exactly 1 arguments. 2 were passed in."},
	})
}

// $ceil of a decimal is Decimal128::quantize to exponent 0 rounding toward
// +inf: the result keeps the argument's sign (a negative fraction is -0), and
// a value needing more than 34 digits at exponent 0 is the invalid
// operation, NaN ($floor too). $round/$trunc quantize to a reference 1E-p,
// for which Decimal128::quantize returns such a value normalized to 34
// digits instead (evaluateRoundOrTrunc; jstests/aggregation/expressions/
// round_trunc.js).
func TestDeep45NumdateCeil(t *testing.T) {
	ref := exprCpp + " (ExpressionCeil::evaluateNumericArg); src/mongo/platform/decimal128.cpp (quantize); " +
		"jstests/aggregation/expressions/floor_ceil.js"
	c := cover{op: "$ceil"}
	ct := cover{op: "$ceil", col: types}
	ce := cover{op: "$ceil", col: errorCol}
	runExprCases(t, []exprCase{
		{name: "ceil of a double stays a double", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$ceil": "$d"}`, want: `-2.0`},
		{name: "ceil of an int is the int", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$ceil": "$i"}`, want: `5`},
		{name: "ceil of a long is the long", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$ceil": "$lmin"}`, want: `{"$numberLong": "-9223372036854775808"}`},
		{name: "ceil of a decimal is a decimal", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$ceil": "$dec"}`, want: `{"$numberDecimal": "-2"}`},
		{name: "ceil of -0.5 as a double is -0.0", ref: ref, cov: c, expr: `{"$ceil": -0.5}`, want: `{"$numberDouble": "-0.0"}`},
		{name: "ceil of a decimal -0.5 is a decimal -0", ref: ref, cov: c, expr: `{"$ceil": {"$numberDecimal": "-0.5"}}`, want: `{"$numberDecimal": "-0"}`},
		{name: "ceil of a decimal -0 stays -0", ref: ref, cov: c, doc: nd45Doc, expr: `{"$ceil": "$dnz"}`, want: `{"$numberDecimal": "-0"}`},
		{name: "ceil of a decimal raises its exponent to 0", ref: ref, cov: c, expr: `{"$ceil": {"$numberDecimal": "1.5E+3"}}`,
			want: `{"$numberDecimal": "1500"}`},
		{name: "ceil of a decimal of 34 digits", ref: ref, cov: c, expr: `{"$ceil": {"$numberDecimal": "1E+33"}}`,
			want: `{"$numberDecimal": "1000000000000000000000000000000000"}`},
		{name: "ceil of a decimal needing 35 digits is NaN", ref: ref, cov: c, doc: nd45Doc, expr: `{"$ceil": "$dbig"}`,
			want: `{"$numberDecimal": "NaN"}`},
		{name: "floor of a decimal needing 35 digits is NaN", ref: ref, cov: cover{op: "$floor"}, doc: nd45Doc, expr: `{"$floor": "$dbig"}`,
			want: `{"$numberDecimal": "NaN"}`},
		{name: "round of a decimal -0.4 is -0", ref: mathCpp + " (evaluateRoundOrTrunc)", cov: cover{op: "$round"},
			expr: `{"$round": [{"$numberDecimal": "-0.4"}, 0]}`, want: `{"$numberDecimal": "-0"}`},
		{name: "trunc of a double too wide for 34 digits keeps it", ref: mathCpp + " (evaluateRoundOrTrunc); src/mongo/platform/decimal128.cpp (quantize)",
			cov: cover{op: "$trunc"}, expr: `{"$trunc": [1e300, 0]}`, want: `1e300`},
		{name: "round of a double to 100 places", ref: "jstests/aggregation/expressions/round_trunc.js", cov: cover{op: "$round"},
			expr: `{"$round": [1.298, 100]}`, want: `1.298`},
		{name: "trunc of a decimal to 100 places is normalized to 34 digits", ref: "jstests/aggregation/expressions/round_trunc.js; decimal128.cpp (quantize)",
			cov: cover{op: "$trunc"}, expr: `{"$trunc": [{"$numberDecimal": "1.298"}, 100]}`, want: `{"$numberDecimal": "1.298000000000000000000000000000000"}`},
		{name: "round of a decimal 1E+34 to 0 places", ref: "src/mongo/platform/decimal128.cpp (quantize)", cov: cover{op: "$round"},
			expr: `{"$round": [{"$numberDecimal": "1E+34"}, 0]}`, want: `{"$numberDecimal": "1.000000000000000000000000000000000E+34"}`},
		{name: "ceil of a decimal infinity", ref: ref, cov: c, doc: nd45Doc, expr: `{"$ceil": "$dinf"}`, want: `{"$numberDecimal": "Infinity"}`},
		{name: "ceil of NaN", ref: ref, cov: c, doc: nd45Doc, expr: `{"$ceil": "$nan"}`, want: `{"$numberDouble": "NaN"}`},
		{name: "ceil of null", ref: ref, cov: c, doc: nd45Doc, expr: `{"$ceil": "$n"}`, want: `null`},
		{name: "ceil of a bool", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$ceil": "$b"}`,
			code: 28765, msg: planExecutor + "$ceil only supports numeric types, not bool"},
		{name: "ceil of an array", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$ceil": "$a"}`,
			code: 28765, msg: planExecutor + "$ceil only supports numeric types, not array"},
	})
}

func TestDeep45NumdateDivide(t *testing.T) {
	ref := mathCpp + " (ExpressionDivide::apply); jstests/aggregation/expressions/divide.js"
	c := cover{op: "$divide"}
	ct := cover{op: "$divide", col: types}
	ce := cover{op: "$divide", col: errorCol}
	runExprCases(t, []exprCase{
		{name: "ints divide to a double", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$divide": ["$i", 5]}`, want: `1.0`},
		{name: "a long divides to a double", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$divide": ["$lmax", 1]}`,
			want: `{"$numberDouble": "9.223372036854775807E+18"}`},
		{name: "a decimal divisor makes a decimal", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$divide": ["$i", {"$numberDecimal": "3"}]}`,
			want: `{"$numberDecimal": "1.666666666666666666666666666666667"}`},
		{name: "a decimal over a double", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$divide": [{"$numberDecimal": "1"}, "$d"]}`,
			want: `{"$numberDecimal": "-0.4"}`},
		{name: "a decimal zero over a negative int is -0", ref: ref + "; Decimal128::divide", cov: c, doc: nd45Doc,
			expr: `{"$divide": [{"$numberDecimal": "0"}, "$ni"]}`, want: `{"$numberDecimal": "-0"}`},
		{name: "a decimal -0 over a positive int is -0", ref: ref + "; Decimal128::divide", cov: c, doc: nd45Doc,
			expr: `{"$divide": ["$dnz", "$i"]}`, want: `{"$numberDecimal": "-0"}`},
		{name: "an int over a decimal infinity is 0", ref: ref, cov: c, doc: nd45Doc, expr: `{"$divide": ["$i", "$dinf"]}`,
			want: `{"$numberDecimal": "0"}`},
		{name: "a double over infinity", ref: ref, cov: c, doc: nd45Doc, expr: `{"$divide": ["$d", "$inf"]}`, want: `{"$numberDouble": "-0.0"}`},
		{name: "null before a string is null", ref: ref, cov: c, doc: nd45Doc, expr: `{"$divide": ["$n", "$s"]}`, want: `null`},
		{name: "a string before missing is null", ref: ref, cov: c, doc: nd45Doc, expr: `{"$divide": ["$s", "$nothing"]}`, want: `null`},
		{name: "divide by an int zero", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$divide": ["$i", 0]}`,
			code: 2, msg: planExecutor + "can't $divide by zero"},
		{name: "divide by a double -0", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$divide": ["$i", "$nz"]}`,
			code: 2, msg: planExecutor + "can't $divide by zero"},
		{name: "NaN divided by zero is still an error", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$divide": ["$nan", 0]}`,
			code: 2, msg: planExecutor + "can't $divide by zero"},
		{name: "divide by a decimal -0", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$divide": ["$dec", "$dnz"]}`,
			code: 2, msg: planExecutor + "can't $divide by zero"},
		{name: "divide a date", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$divide": ["$dt", 2]}`,
			code: 14, msg: planExecutor + "$divide only supports numeric types, not date and int"},
		{name: "divide by an array", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$divide": ["$i", "$a"]}`,
			code: 14, msg: planExecutor + "$divide only supports numeric types, not int and array"},
		{name: "divide with one argument", ref: ref, cov: ce, expr: `{"$divide": [1]}`,
			code: 16020, msg: invalidProject + "Expression $divide takes exactly 2 arguments. 1 were passed in."},
	})
}

func TestDeep45NumdateSubtract(t *testing.T) {
	ref := mathCpp + " (evaluateSubtract); jstests/aggregation/expressions/add_subtract_dates.js"
	c := cover{op: "$subtract"}
	ct := cover{op: "$subtract", col: types}
	ce := cover{op: "$subtract", col: errorCol}
	runExprCases(t, []exprCase{
		{name: "ints past int32 become a long", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$subtract": ["$imin", 1]}`,
			want: `{"$numberLong": "-2147483649"}`},
		{name: "an int minus a long is a long", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$subtract": ["$i", "$l"]}`, want: `{"$numberLong": "-2"}`},
		{name: "a long that overflows becomes a double", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$subtract": ["$lmin", 1]}`,
			want: `{"$numberDouble": "-9.223372036854775808E+18"}`},
		{name: "a decimal minus an int keeps the decimal's exponent", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$subtract": ["$i", "$dec"]}`,
			want: `{"$numberDecimal": "7.50"}`},
		{name: "a decimal -0 minus an int 0 is -0", ref: ref + "; Decimal128::subtract", cov: ct, doc: nd45Doc,
			expr: `{"$subtract": ["$dnz", 0]}`, want: `{"$numberDecimal": "-0"}`},
		{name: "a decimal minus a double 0 keeps the decimal's exponent", ref: ref + "; Decimal128(double) of a zero is 0E+0", cov: ct,
			doc: `{"_id": 0, "x": {"$numberDouble": "0"}}`, expr: `{"$subtract": [{"$numberDecimal": "1.5"}, "$x"]}`,
			want: `{"$numberDecimal": "1.5"}`},
		{name: "a decimal -0 minus itself is 0", ref: ref + "; Decimal128::subtract", cov: c, doc: nd45Doc,
			expr: `{"$subtract": ["$dnz", "$dnz"]}`, want: `{"$numberDecimal": "0"}`},
		{name: "a double -0 minus 0", ref: ref, cov: c, doc: nd45Doc, expr: `{"$subtract": ["$nz", 0]}`, want: `{"$numberDouble": "-0.0"}`},
		{name: "two dates give a long of milliseconds", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$subtract": ["$dt", "$early"]}`,
			want: `{"$numberLong": "1710074096790"}`},
		{name: "a date minus an int", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$subtract": ["$dt", 789]}`,
			want: `{"$date": "2024-03-10T12:34:56Z"}`},
		{name: "a date minus a double rounds half away from zero (llround)", ref: ref, cov: c, doc: nd45Doc,
			expr: `{"$subtract": ["$dt", 2.5]}`, want: `{"$date": "2024-03-10T12:34:56.786Z"}`},
		{name: "a date minus a decimal rounds half to even (Decimal128::toLong)", ref: ref, cov: c, doc: nd45Doc,
			expr: `{"$subtract": ["$dt", {"$numberDecimal": "2.5"}]}`, want: `{"$date": "2024-03-10T12:34:56.787Z"}`},
		{name: "a date before the epoch minus the least long", ref: ref + " (overflow::sub)", cov: c, doc: nd45Doc,
			expr: `{"$subtract": ["$early", "$lmin"]}`, want: `{"$date": {"$numberLong": "9223372036854775807"}}`},
		{name: "a date before the epoch minus -2^63 as a double", ref: ref + " (llround, overflow::sub)", cov: c, doc: nd45Doc,
			expr: `{"$subtract": ["$early", {"$numberDouble": "-9223372036854775808"}]}`, want: `{"$date": {"$numberLong": "9223372036854775807"}}`},
		{name: "a date before the epoch minus the least long as a decimal", ref: ref + " (Decimal128::toLong, overflow::sub)", cov: c, doc: nd45Doc,
			expr: `{"$subtract": ["$early", {"$numberDecimal": "-9223372036854775808"}]}`, want: `{"$date": {"$numberLong": "9223372036854775807"}}`},
		{name: "a date minus null", ref: ref, cov: c, doc: nd45Doc, expr: `{"$subtract": ["$dt", "$n"]}`, want: `null`},
		{name: "a string minus missing", ref: ref, cov: c, doc: nd45Doc, expr: `{"$subtract": ["$s", "$nothing"]}`, want: `null`},
		{name: "a date at the epoch minus the least long overflows", ref: ref + " (overflow::sub)", cov: ce, doc: nd45Doc,
			expr: `{"$subtract": ["$dt", "$lmin"]}`, code: 15, msg: planExecutor + "date overflow"},
		{name: "a date minus NaN overflows", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$subtract": ["$dt", "$nan"]}`,
			code: 15, msg: planExecutor + "date overflow"},
		{name: "a date minus a decimal NaN overflows", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$subtract": ["$dt", "$dnan"]}`,
			code: 15, msg: planExecutor + "date overflow"},
		{name: "a date minus 2^63 as a double overflows", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$subtract": ["$dt", 9.3e18]}`,
			code: 15, msg: planExecutor + "date overflow"},
		{name: "a date minus a timestamp", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$subtract": ["$dt", "$ts"]}`,
			code: 14, msg: planExecutor + "can't $subtract timestamp from Date"},
		{name: "a number minus a date", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$subtract": ["$i", "$dt"]}`,
			code: 14, msg: planExecutor + "can't $subtract date from int"},
		{name: "a timestamp minus a timestamp", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$subtract": ["$ts", "$ts"]}`,
			code: 14, msg: planExecutor + "can't $subtract timestamp from timestamp"},
		{name: "subtract with three arguments", ref: ref, cov: ce, expr: `{"$subtract": [1, 2, 3]}`,
			code: 16020, msg: invalidProject + "Expression $subtract takes exactly 2 arguments. 3 were passed in."},
	})
}
