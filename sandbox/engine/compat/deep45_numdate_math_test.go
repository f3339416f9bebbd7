package compat_test

import "testing"

// Deep sweep 45 (numdate): the bitwise operators, $log10, the trigonometric
// operators and the angle conversions.

// ExpressionBitAnd/Or/Xor (expression.h, ExpressionBitwise::evaluate) fold
// ints and longs from the identity (-1 for $bitAnd, 0 otherwise), answer
// null at the first nullish operand, and refuse any other type, a double or
// decimal included, with one sentence; ExpressionBitNot is a single numeric
// argument (28765 for non-numbers) that takes only ints and longs
// (jstests/aggregation/expressions/bitwise.js).
func TestDeep45NumdateBitwise(t *testing.T) {
	ref := exprCpp + " (ExpressionBitwise, ExpressionBitNot); jstests/aggregation/expressions/bitwise.js"
	runExprCases(t, []exprCase{
		{name: "bitAnd of nothing is -1", ref: ref, cov: cover{op: "$bitAnd"}, expr: `{"$bitAnd": []}`, want: `-1`},
		{name: "bitAnd of one operand", ref: ref, cov: cover{op: "$bitAnd"}, doc: nd45Doc, expr: `{"$bitAnd": "$i"}`, want: `5`},
		{name: "bitAnd of ints is an int", ref: ref, cov: cover{op: "$bitAnd", col: types}, doc: nd45Doc, expr: `{"$bitAnd": ["$i", 3]}`, want: `1`},
		{name: "bitAnd with a long is a long", ref: ref, cov: cover{op: "$bitAnd", col: types}, doc: nd45Doc, expr: `{"$bitAnd": ["$i", "$l"]}`,
			want: `{"$numberLong": "5"}`},
		{name: "bitAnd with null is null", ref: ref, cov: cover{op: "$bitAnd"}, doc: nd45Doc, expr: `{"$bitAnd": ["$i", "$n"]}`, want: `null`},
		{name: "bitAnd with null before a string is null", ref: ref, cov: cover{op: "$bitAnd"}, doc: nd45Doc, expr: `{"$bitAnd": ["$nothing", "$s"]}`,
			want: `null`},
		{name: "bitAnd with a string before null", ref: ref, cov: cover{op: "$bitAnd", col: errorCol}, doc: nd45Doc, expr: `{"$bitAnd": ["$s", "$n"]}`,
			code: 14, msg: planExecutor + "$bitAnd only supports int and long operands."},
		{name: "bitAnd with an integral double", ref: ref, cov: cover{op: "$bitAnd", col: errorCol}, doc: nd45Doc,
			expr: `{"$bitAnd": ["$i", {"$numberDouble": "12"}]}`, code: 14, msg: planExecutor + "$bitAnd only supports int and long operands."},
		{name: "bitAnd of an array field", ref: ref, cov: cover{op: "$bitAnd", col: errorCol}, doc: nd45Doc, expr: `{"$bitAnd": "$a"}`,
			code: 14, msg: planExecutor + "$bitAnd only supports int and long operands."},
		{name: "bitXor of nothing is 0", ref: ref, cov: cover{op: "$bitXor"}, expr: `{"$bitXor": []}`, want: `0`},
		{name: "bitXor of ints", ref: ref, cov: cover{op: "$bitXor", col: types}, doc: nd45Doc, expr: `{"$bitXor": ["$i", 3]}`, want: `6`},
		{name: "bitXor of a long and a negative int", ref: ref, cov: cover{op: "$bitXor", col: types}, doc: nd45Doc,
			expr: `{"$bitXor": ["$lmax", "$ni"]}`, want: `{"$numberLong": "-9223372036854775804"}`},
		{name: "bitXor with missing is null", ref: ref, cov: cover{op: "$bitXor"}, doc: nd45Doc, expr: `{"$bitXor": ["$i", "$nothing"]}`, want: `null`},
		{name: "bitXor with a decimal", ref: ref, cov: cover{op: "$bitXor", col: errorCol}, doc: nd45Doc,
			expr: `{"$bitXor": ["$i", {"$numberDecimal": "1"}]}`, code: 14, msg: planExecutor + "$bitXor only supports int and long operands."},
		{name: "bitXor of a bool", ref: ref, cov: cover{op: "$bitXor", col: errorCol}, doc: nd45Doc, expr: `{"$bitXor": "$b"}`,
			code: 14, msg: planExecutor + "$bitXor only supports int and long operands."},
		{name: "bitNot of an int is an int", ref: ref, cov: cover{op: "$bitNot", col: types}, doc: nd45Doc, expr: `{"$bitNot": "$i"}`, want: `-6`},
		{name: "bitNot of the least long", ref: ref, cov: cover{op: "$bitNot", col: types}, doc: nd45Doc, expr: `{"$bitNot": "$lmin"}`,
			want: `{"$numberLong": "9223372036854775807"}`},
		{name: "bitNot of missing is null", ref: ref, cov: cover{op: "$bitNot"}, doc: nd45Doc, expr: `{"$bitNot": "$nothing"}`, want: `null`},
		{name: "bitNot of a double", ref: ref, cov: cover{op: "$bitNot", col: errorCol}, doc: nd45Doc, expr: `{"$bitNot": "$d"}`,
			code: 14, msg: planExecutor + "$bitNot only supports int and long, not: double."},
		{name: "bitNot of a decimal", ref: ref, cov: cover{op: "$bitNot", col: errorCol}, doc: nd45Doc, expr: `{"$bitNot": "$dec"}`,
			code: 14, msg: planExecutor + "$bitNot only supports int and long, not: decimal."},
		{name: "bitNot of a bool is not numeric", ref: ref, cov: cover{op: "$bitNot", col: errorCol}, doc: nd45Doc, expr: `{"$bitNot": "$b"}`,
			code: 28765, msg: planExecutor + "$bitNot only supports numeric types, not bool"},
		{name: "bitNot of an array", ref: ref, cov: cover{op: "$bitNot", col: errorCol}, doc: nd45Doc, expr: `{"$bitNot": "$a"}`,
			code: 28765, msg: planExecutor + "$bitNot only supports numeric types, not array"},
		{name: "bitNot with no argument", ref: ref, cov: cover{op: "$bitNot", col: errorCol}, expr: `{"$bitNot": []}`,
			code: 16020, msg: invalidProject + "Expression $bitNot takes exactly 1 arguments. 0 were passed in."},
	})
}

// ExpressionLog10::evaluateNumericArg: a positive decimal takes the decimal
// logarithm; anything else goes through coerceToDouble, so the error prints
// the double (-0 for a decimal -0) and a decimal NaN answers a double NaN.
func TestDeep45NumdateLog10(t *testing.T) {
	ref := exprCpp + " (ExpressionLog10); jstests/aggregation/expressions/log_pow_exp.js"
	c := cover{op: "$log10"}
	ct := cover{op: "$log10", col: types}
	ce := cover{op: "$log10", col: errorCol}
	runExprCases(t, []exprCase{
		{name: "log10 of an int is a double", ref: ref, cov: ct, expr: `{"$log10": 100}`, want: `2.0`},
		{name: "log10 of a long is a double", ref: ref, cov: ct, expr: `{"$log10": {"$numberLong": "1000"}}`, want: `3.0`},
		// A decimal result's last digit comes from bid128_log10's binary128
		// arithmetic, so only its type is checked.
		{name: "log10 of a decimal is a decimal", ref: ref, cov: ct, expr: `{"$type": {"$log10": {"$numberDecimal": "2"}}}`, want: `"decimal"`},
		{name: "log10 of a decimal NaN is a double NaN", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$log10": "$dnan"}`, want: `{"$numberDouble": "NaN"}`},
		{name: "log10 of a decimal infinity", ref: ref, cov: c, doc: nd45Doc, expr: `{"$log10": "$dinf"}`, want: `{"$numberDecimal": "Infinity"}`},
		{name: "log10 of infinity", ref: ref, cov: c, doc: nd45Doc, expr: `{"$log10": "$inf"}`, want: `{"$numberDouble": "Infinity"}`},
		{name: "log10 of null", ref: ref, cov: c, doc: nd45Doc, expr: `{"$log10": "$n"}`, want: `null`},
		{name: "log10 of a double -0", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$log10": "$nz"}`,
			code: 28761, msg: planExecutor + "$log10's argument must be a positive number, but is -0"},
		{name: "log10 of a decimal -0", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$log10": "$dnz"}`,
			code: 28761, msg: planExecutor + "$log10's argument must be a positive number, but is -0"},
		{name: "log10 of a negative decimal prints the double", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$log10": "$dec"}`,
			code: 28761, msg: planExecutor + "$log10's argument must be a positive number, but is -2.5"},
		{name: "log10 of -infinity", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$log10": "$ninf"}`,
			code: 28761, msg: planExecutor + "$log10's argument must be a positive number, but is -inf"},
		{name: "log10 of an array", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$log10": "$a"}`,
			code: 28765, msg: planExecutor + "$log10 only supports numeric types, not array"},
	})
}

// The trigonometric operators (expression_trigonometric.h): NaN of either
// kind passes through before the bounds check; the bound error (50989)
// prints a double through the stream (%g, six digits) and a decimal by
// Decimal128::toString.
func TestDeep45NumdateTrig(t *testing.T) {
	ref := "src/mongo/db/pipeline/expression_trigonometric.h; " + trigJS
	c := func(op string) cover { return cover{op: op} }
	ct := func(op string) cover { return cover{op: op, col: types} }
	ce := func(op string) cover { return cover{op: op, col: errorCol} }
	runExprCases(t, []exprCase{
		{name: "sin of a decimal NaN", ref: ref, cov: c("$sin"), doc: nd45Doc, expr: `{"$sin": "$dnan"}`, want: `{"$numberDecimal": "NaN"}`},
		{name: "sin of a decimal -0.00 keeps its sign and exponent", ref: ref + "; bid128_sin (a zero is x*1)", cov: cover{op: "$sin", col: types},
			doc: `{"_id": 0, "x": {"$numberDecimal": "-0.00"}}`, expr: `{"$sin": "$x"}`, want: `{"$numberDecimal": "-0.00"}`},
		{name: "sin of -infinity", ref: ref, cov: ce("$sin"), doc: nd45Doc, expr: `{"$sin": "$ninf"}`,
			code: 50989, msg: planExecutor + "cannot apply $sin to -inf, value must in (-inf,inf)"},
		{name: "sin of an array", ref: ref, cov: ce("$sin"), doc: nd45Doc, expr: `{"$sin": "$a"}`,
			code: 28765, msg: planExecutor + "$sin only supports numeric types, not array"},
		{name: "cos of a double -0 is 1", ref: ref, cov: ct("$cos"), doc: nd45Doc, expr: `{"$cos": "$nz"}`, want: `1.0`},
		{name: "cos of a long is a double", ref: ref, cov: ct("$cos"), expr: `{"$cos": {"$numberLong": "0"}}`, want: `1.0`},
		{name: "cos of a decimal infinity", ref: ref, cov: ce("$cos"), doc: nd45Doc, expr: `{"$cos": "$dinf"}`,
			code: 50989, msg: planExecutor + "cannot apply $cos to Infinity, value must in (-inf,inf)"},
		{name: "cos of missing", ref: ref, cov: c("$cos"), doc: nd45Doc, expr: `{"$cos": "$nothing"}`, want: `null`},
		{name: "tan of NaN", ref: ref, cov: c("$tan"), doc: nd45Doc, expr: `{"$tan": "$nan"}`, want: `{"$numberDouble": "NaN"}`},
		{name: "tan of infinity", ref: ref, cov: ce("$tan"), doc: nd45Doc, expr: `{"$tan": "$inf"}`,
			code: 50989, msg: planExecutor + "cannot apply $tan to inf, value must in (-inf,inf)"},
		{name: "asin of a decimal is a decimal", ref: ref, cov: ct("$asin"), expr: `{"$type": {"$asin": {"$numberDecimal": "1"}}}`,
			want: `"decimal"`},
		{name: "asin of an int 1 is a double", ref: ref, cov: ct("$asin"), expr: `{"$asin": 1}`, want: `1.5707963267948966`},
		{name: "asin of a double -0", ref: ref, cov: c("$asin"), doc: nd45Doc, expr: `{"$asin": "$nz"}`, want: `{"$numberDouble": "-0.0"}`},
		{name: "asin of a decimal NaN", ref: ref, cov: c("$asin"), doc: nd45Doc, expr: `{"$asin": "$dnan"}`, want: `{"$numberDecimal": "NaN"}`},
		{name: "asin of a decimal keeps its digits in the error", ref: ref, cov: ce("$asin"), expr: `{"$asin": {"$numberDecimal": "1.50"}}`,
			code: 50989, msg: "Failed to optimize pipeline :: caused by :: cannot apply $asin to 1.50, value must in [-1,1]"},
		{name: "asin of a decimal with an exponent", ref: ref, cov: ce("$asin"), doc: `{"_id": 0, "x": {"$numberDecimal": "-1E+2"}}`,
			expr: `{"$asin": "$x"}`, code: 50989, msg: planExecutor + "cannot apply $asin to -1E+2, value must in [-1,1]"},
		{name: "asin of a large double prints %g", ref: ref, cov: ce("$asin"), doc: `{"_id": 0, "x": 1e20}`,
			expr: `{"$asin": "$x"}`, code: 50989, msg: planExecutor + "cannot apply $asin to 1e+20, value must in [-1,1]"},
		{name: "asin of a long", ref: ref, cov: ce("$asin"), doc: nd45Doc, expr: `{"$asin": "$l"}`,
			code: 50989, msg: planExecutor + "cannot apply $asin to 7, value must in [-1,1]"},
		{name: "atan of a decimal -infinity is a decimal", ref: ref, cov: ct("$atan"), expr: `{"$type": {"$atan": {"$numberDecimal": "-Infinity"}}}`,
			want: `"decimal"`},
		{name: "atan of a long is a double", ref: ref, cov: ct("$atan"), expr: `{"$atan": {"$numberLong": "0"}}`, want: `0.0`},
		{name: "atan of null", ref: ref, cov: c("$atan"), doc: nd45Doc, expr: `{"$atan": "$n"}`, want: `null`},
		{name: "atan of a string", ref: ref, cov: ce("$atan"), doc: nd45Doc, expr: `{"$atan": "$s"}`,
			code: 28765, msg: planExecutor + "$atan only supports numeric types, not string"},
		{name: "asinh of a double -0", ref: ref, cov: c("$asinh"), doc: nd45Doc, expr: `{"$asinh": "$nz"}`, want: `{"$numberDouble": "-0.0"}`},
		{name: "asinh of a date", ref: ref, cov: ce("$asinh"), doc: nd45Doc, expr: `{"$asinh": "$dt"}`,
			code: 28765, msg: planExecutor + "$asinh only supports numeric types, not date"},
		{name: "acosh of infinity", ref: ref, cov: c("$acosh"), doc: nd45Doc, expr: `{"$acosh": "$inf"}`, want: `{"$numberDouble": "Infinity"}`},
		{name: "acosh of NaN", ref: ref, cov: c("$acosh"), doc: nd45Doc, expr: `{"$acosh": "$nan"}`, want: `{"$numberDouble": "NaN"}`},
		{name: "acosh of an int 0", ref: ref, cov: ce("$acosh"), doc: `{"_id": 0, "x": 0}`, expr: `{"$acosh": "$x"}`,
			code: 50989, msg: planExecutor + "cannot apply $acosh to 0, value must in [1,inf]"},
		{name: "acosh of a decimal below 1", ref: ref, cov: ce("$acosh"), doc: `{"_id": 0, "x": {"$numberDecimal": "0.99"}}`, expr: `{"$acosh": "$x"}`,
			code: 50989, msg: planExecutor + "cannot apply $acosh to 0.99, value must in [1,inf]"},
		{name: "atanh of -1 is -infinity", ref: ref, cov: c("$atanh"), expr: `{"$atanh": -1}`, want: `{"$numberDouble": "-Infinity"}`},
		{name: "atanh of a decimal -1", ref: ref, cov: ct("$atanh"), expr: `{"$atanh": {"$numberDecimal": "-1"}}`, want: `{"$numberDecimal": "-Infinity"}`},
		{name: "atanh just above 1 prints six digits", ref: ref, cov: ce("$atanh"), doc: `{"_id": 0, "x": 1.0000001}`, expr: `{"$atanh": "$x"}`,
			code: 50989, msg: planExecutor + "cannot apply $atanh to 1, value must in [-1,1]"},
		{name: "atanh of infinity", ref: ref, cov: ce("$atanh"), doc: nd45Doc, expr: `{"$atanh": "$inf"}`,
			code: 50989, msg: planExecutor + "cannot apply $atanh to inf, value must in [-1,1]"},
		{name: "cosh of a large decimal is a decimal", ref: ref, cov: ct("$cosh"), expr: `{"$type": {"$cosh": {"$numberDecimal": "1000"}}}`,
			want: `"decimal"`},
		{name: "cosh of 710 is near the double range", ref: ref, cov: c("$cosh"), expr: `{"$cosh": 710}`, want: `1.1169973830808557e+308`},
		{name: "cosh of a string", ref: ref, cov: ce("$cosh"), doc: nd45Doc, expr: `{"$cosh": "$s"}`,
			code: 28765, msg: planExecutor + "$cosh only supports numeric types, not string"},
		{name: "tanh of -infinity", ref: ref, cov: c("$tanh"), doc: nd45Doc, expr: `{"$tanh": "$ninf"}`, want: `-1.0`},
		{name: "tanh of a long is a double", ref: ref, cov: ct("$tanh"), expr: `{"$tanh": {"$numberLong": "0"}}`, want: `0.0`},
		{name: "tanh of an array", ref: ref, cov: ce("$tanh"), doc: nd45Doc, expr: `{"$tanh": "$a"}`,
			code: 28765, msg: planExecutor + "$tanh only supports numeric types, not array"},
	})
}

// ExpressionDegreesToRadians / ExpressionRadiansToDegrees: a decimal times
// Decimal128::kPiOver180 (k180OverPi), anything else coerced to a double;
// the decimal product keeps a -0's sign (Decimal128::multiply). $multiply
// gives a zero decimal product the sign of its operands' product too.
func TestDeep45NumdateAngles(t *testing.T) {
	ref := "src/mongo/db/pipeline/expression_trigonometric.cpp; " + trigJS
	runExprCases(t, []exprCase{
		{name: "degrees of an int", ref: ref, cov: cover{op: "$degreesToRadians", col: types}, doc: nd45Doc, expr: `{"$degreesToRadians": "$i"}`,
			want: `0.08726646259971647`},
		{name: "degrees of a long", ref: ref, cov: cover{op: "$degreesToRadians", col: types}, expr: `{"$degreesToRadians": {"$numberLong": "90"}}`,
			want: `1.5707963267948966`},
		{name: "degrees of a decimal", ref: ref, cov: cover{op: "$degreesToRadians", col: types}, doc: nd45Doc, expr: `{"$degreesToRadians": "$dec"}`,
			want: `{"$numberDecimal": "-0.04363323129985823942309226921221532"}`},
		{name: "degrees of a decimal -0", ref: ref, cov: cover{op: "$degreesToRadians"}, doc: nd45Doc, expr: `{"$degreesToRadians": "$dnz"}`,
			want: `{"$numberDecimal": "-0E-35"}`},
		{name: "degrees of a double -0", ref: ref, cov: cover{op: "$degreesToRadians"}, doc: nd45Doc, expr: `{"$degreesToRadians": "$nz"}`,
			want: `{"$numberDouble": "-0.0"}`},
		{name: "degrees of a decimal infinity", ref: ref, cov: cover{op: "$degreesToRadians"}, doc: nd45Doc, expr: `{"$degreesToRadians": "$dinf"}`,
			want: `{"$numberDecimal": "Infinity"}`},
		{name: "degrees of null", ref: ref, cov: cover{op: "$degreesToRadians"}, doc: nd45Doc, expr: `{"$degreesToRadians": "$n"}`, want: `null`},
		{name: "degrees of an array", ref: ref, cov: cover{op: "$degreesToRadians", col: errorCol}, doc: nd45Doc, expr: `{"$degreesToRadians": "$a"}`,
			code: 28765, msg: planExecutor + "$degreesToRadians only supports numeric types, not array"},
		{name: "radians of pi as a decimal", ref: ref, cov: cover{op: "$radiansToDegrees"},
			expr: `{"$radiansToDegrees": {"$numberDecimal": "3.141592653589793238462643383279503"}}`,
			want: `{"$numberDecimal": "180.0000000000000000000000000000000"}`},
		{name: "radians of a decimal -0", ref: ref, cov: cover{op: "$radiansToDegrees"}, doc: nd45Doc, expr: `{"$radiansToDegrees": "$dnz"}`,
			want: `{"$numberDecimal": "-0E-32"}`},
		{name: "radians of an int is a double", ref: ref, cov: cover{op: "$radiansToDegrees", col: types}, doc: nd45Doc,
			expr: `{"$radiansToDegrees": "$i"}`, want: `286.4788975654116`},
		{name: "radians past the double range", ref: ref, cov: cover{op: "$radiansToDegrees"}, expr: `{"$radiansToDegrees": 1e307}`,
			want: `{"$numberDouble": "Infinity"}`},
		{name: "radians past the decimal range", ref: ref, cov: cover{op: "$radiansToDegrees"}, expr: `{"$radiansToDegrees": {"$numberDecimal": "1E+6144"}}`,
			want: `{"$numberDecimal": "Infinity"}`},
		{name: "radians of a bool", ref: ref, cov: cover{op: "$radiansToDegrees", col: errorCol}, doc: nd45Doc, expr: `{"$radiansToDegrees": "$b"}`,
			code: 28765, msg: planExecutor + "$radiansToDegrees only supports numeric types, not bool"},
		{name: "multiply a decimal -0 by a positive int", ref: mathCpp + " (ExpressionMultiply); Decimal128::multiply", cov: cover{op: "$multiply"},
			doc: nd45Doc, expr: `{"$multiply": ["$dnz", 3]}`, want: `{"$numberDecimal": "-0"}`},
		{name: "multiply a decimal -0 by a negative int", ref: mathCpp + " (ExpressionMultiply); Decimal128::multiply", cov: cover{op: "$multiply"},
			doc: nd45Doc, expr: `{"$multiply": ["$dnz", "$ni"]}`, want: `{"$numberDecimal": "0"}`},
	})
}
