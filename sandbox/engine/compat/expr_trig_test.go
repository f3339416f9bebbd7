package compat_test

import "testing"

// The trigonometric operators: src/mongo/db/pipeline/expression_trigonometric.h
// (bounds, 50989) and jstests/aggregation/expressions/expression_trigonometric.js.

const trigJS = "jstests/aggregation/expressions/expression_trigonometric.js"

func TestExpressionTrigonometry(t *testing.T) {
	doc := `{"_id": 0, "zero": 0, "one": 1, "two": {"$numberLong": "2"}, "half": 0.5, "inf": {"$numberDouble": "Infinity"},` +
		` "ninf": {"$numberDouble": "-Infinity"}, "nan": {"$numberDouble": "NaN"}, "dnan": {"$numberDecimal": "NaN"},` +
		` "dinf": {"$numberDecimal": "Infinity"}, "dhalf": {"$numberDecimal": "0.5"}, "s": "x", "n": null}`
	runExprCases(t, []exprCase{
		{name: "cos of an int is a double", ref: trigJS, cov: cover{col: types}, doc: doc, expr: `{"$cos": "$zero"}`, want: `1.0`},
		{name: "sin of a long is a double", ref: trigJS, cov: cover{col: types}, doc: doc, expr: `{"$sin": "$two"}`, want: `0.9092974268256817`},
		{name: "sin of a decimal is a decimal", ref: trigJS, cov: cover{col: types}, doc: doc, expr: `{"$sin": "$dhalf"}`,
			want: `{"$numberDecimal": "0.4794255386042030002732879352155714"}`},
		{name: "tan", ref: trigJS, doc: doc, expr: `{"$tan": "$half"}`, want: `0.5463024898437905`},
		{name: "acos", ref: trigJS, doc: doc, expr: `{"$acos": "$half"}`, want: `1.0471975511965979`},
		{name: "asin of a decimal", ref: trigJS, cov: cover{op: "$asin", col: types}, doc: doc, expr: `{"$asin": "$dhalf"}`,
			want: `{"$numberDecimal": "0.5235987755982988730771072305465838"}`},
		{name: "atan of infinity", ref: trigJS, doc: doc, expr: `{"$atan": "$inf"}`, want: `1.5707963267948966`},
		{name: "atan of a decimal", ref: trigJS, cov: cover{op: "$atan", col: types}, doc: doc, expr: `{"$atan": "$dhalf"}`,
			want: `{"$numberDecimal": "0.4636476090008061162142562314612144"}`},
		{name: "atanh of 1 is infinity", ref: trigJS, doc: doc, expr: `{"$atanh": "$one"}`, want: `{"$numberDouble": "Infinity"}`},
		{name: "acosh of 1 is 0", ref: trigJS, doc: doc, expr: `{"$acosh": "$one"}`, want: `0.0`},
		{name: "sinh", ref: trigJS, doc: doc, expr: `{"$sinh": "$one"}`, want: `1.1752011936438014`},
		{name: "cosh of minus infinity", ref: trigJS, doc: doc, expr: `{"$cosh": "$ninf"}`, want: `{"$numberDouble": "Infinity"}`},
		{name: "tanh of a decimal infinity is 1", ref: trigJS, cov: cover{op: "$tanh", col: types}, doc: doc, expr: `{"$tanh": "$dinf"}`,
			want: `{"$numberDecimal": "1"}`},
		{name: "tanh", ref: trigJS, doc: doc, expr: `{"$tanh": "$half"}`, want: `0.46211715726000974`},
		{name: "asinh of minus infinity", ref: trigJS, doc: doc, expr: `{"$asinh": "$ninf"}`, want: `{"$numberDouble": "-Infinity"}`},
		{name: "NaN passes through", ref: trigJS, doc: doc, expr: `{"$acos": "$nan"}`, want: `{"$numberDouble": "NaN"}`},
		{name: "a decimal NaN passes through", ref: trigJS, doc: doc, expr: `{"$sinh": "$dnan"}`, want: `{"$numberDecimal": "NaN"}`},
		{name: "null", ref: trigJS, doc: doc, expr: `{"$sin": "$n"}`, want: `null`},
		{name: "acos above 1", ref: trigJS, doc: doc, expr: `{"$acos": {"$add": ["$one", 1]}}`,
			code: 50989, msg: planExecutor + "cannot apply $acos to 2, value must in [-1,1]"},
		{name: "asin of a double below -1", ref: trigJS, doc: doc, expr: `{"$asin": {"$subtract": [-1, "$half"]}}`,
			code: 50989, msg: planExecutor + "cannot apply $asin to -1.5, value must in [-1,1]"},
		{name: "cos of infinity", ref: trigJS, doc: doc, expr: `{"$cos": "$inf"}`,
			code: 50989, msg: planExecutor + "cannot apply $cos to inf, value must in (-inf,inf)"},
		{name: "sin of a decimal infinity", ref: trigJS, doc: doc, expr: `{"$sin": "$dinf"}`,
			code: 50989, msg: planExecutor + "cannot apply $sin to Infinity, value must in (-inf,inf)"},
		{name: "acosh below 1", ref: trigJS, doc: doc, expr: `{"$acosh": "$half"}`,
			code: 50989, msg: planExecutor + "cannot apply $acosh to 0.5, value must in [1,inf]"},
		{name: "atanh of a decimal above 1", ref: trigJS, doc: doc, expr: `{"$atanh": {"$add": ["$dhalf", 1]}}`,
			code: 50989, msg: planExecutor + "cannot apply $atanh to 1.5, value must in [-1,1]"},
		{name: "a string", ref: trigJS, doc: doc, expr: `{"$tanh": "$s"}`,
			code: 28765, msg: planExecutor + "$tanh only supports numeric types, not string"},
		{name: "atan2", ref: trigJS, doc: doc, expr: `{"$atan2": ["$one", "$zero"]}`, want: `1.5707963267948966`},
		{name: "atan2 with a decimal", ref: trigJS, cov: cover{op: "$atan2", col: types}, expr: `{"$atan2": [3, {"$numberDecimal": "2"}]}`,
			want: `{"$numberDecimal": "0.9827937232473290679857106110146660"}`},
		{name: "atan2 of decimal NaNs", ref: trigJS, doc: doc, expr: `{"$atan2": ["$dnan", 0]}`, want: `{"$numberDecimal": "NaN"}`},
		{name: "atan2 of null and a string is null", ref: mathCpp + " (ExpressionArcTangent2 checks its first argument first)",
			doc: doc, expr: `{"$atan2": ["$n", "$s"]}`, want: `null`},
		{name: "atan2 of a string", ref: trigJS, doc: doc, expr: `{"$atan2": ["$s", "$n"]}`,
			code: 51044, msg: planExecutor + "$atan2 only supports numeric types, not string"},
		{name: "atan2 to a string", ref: trigJS, doc: doc, expr: `{"$atan2": ["$one", "$s"]}`,
			code: 51045, msg: planExecutor + "$atan2 only supports numeric types, not string"},
		{name: "degrees to radians", ref: trigJS, doc: doc, expr: `{"$degreesToRadians": 180}`, want: `3.141592653589793`},
		{name: "degrees to radians in decimal", ref: "src/mongo/platform/decimal128.cpp (kPiOver180)", cov: cover{op: "$degreesToRadians", col: types},
			expr: `{"$degreesToRadians": {"$numberDecimal": "180"}}`, want: `{"$numberDecimal": "3.141592653589793238462643383279503"}`},
		{name: "radians to degrees of infinity", ref: trigJS, doc: doc, expr: `{"$radiansToDegrees": "$ninf"}`, want: `{"$numberDouble": "-Infinity"}`},
		{name: "radians to degrees of a string", ref: trigJS, doc: doc, expr: `{"$radiansToDegrees": "$s"}`,
			code: 28765, msg: planExecutor + "$radiansToDegrees only supports numeric types, not string"},
		{name: "one argument", ref: trigJS, expr: `{"$sin": [1, 2]}`,
			code: 16020, msg: invalidProject + "Expression $sin takes exactly 1 arguments. 2 were passed in."},
	})
}

// The trigonometric operators' result types: a double for an int, long or
// double argument, a decimal for a decimal (evaluateNumericArg in
// expression_trigonometric.h; $radiansToDegrees multiplies a decimal by a
// decimal factor and anything else by a double one).
func TestExpressionTrigonometryTypes(t *testing.T) {
	ref := "src/mongo/db/pipeline/expression_trigonometric.h (evaluateNumericArg); " + trigJS
	doc := `{"_id": 0, "zero": 0, "lzero": {"$numberLong": "0"}, "lone": {"$numberLong": "1"}, "done": {"$numberDecimal": "1"},` +
		` "dnan": {"$numberDecimal": "NaN"}, "dinf": {"$numberDecimal": "Infinity"}, "dninf": {"$numberDecimal": "-Infinity"}}`
	runExprCases(t, []exprCase{
		{name: "acos of a long is a double", ref: ref, cov: cover{op: "$acos", col: types}, doc: doc, expr: `{"$acos": "$lone"}`, want: `0.0`},
		{name: "acos of a decimal NaN", ref: ref, cov: cover{op: "$acos", col: types}, doc: doc, expr: `{"$acos": "$dnan"}`, want: `{"$numberDecimal": "NaN"}`},
		{name: "acosh of a decimal infinity", ref: ref, cov: cover{op: "$acosh", col: types}, doc: doc, expr: `{"$acosh": "$dinf"}`,
			want: `{"$numberDecimal": "Infinity"}`},
		{name: "acosh of a long is a double", ref: ref, cov: cover{op: "$acosh", col: types}, doc: doc, expr: `{"$acosh": "$lone"}`, want: `0.0`},
		{name: "asinh of a decimal minus infinity", ref: ref, cov: cover{op: "$asinh", col: types}, doc: doc, expr: `{"$asinh": "$dninf"}`,
			want: `{"$numberDecimal": "-Infinity"}`},
		{name: "asinh of an int is a double", ref: ref, cov: cover{op: "$asinh", col: types}, doc: doc, expr: `{"$asinh": "$zero"}`, want: `0.0`},
		{name: "atanh of a decimal 1", ref: ref, cov: cover{op: "$atanh", col: types}, doc: doc, expr: `{"$atanh": "$done"}`,
			want: `{"$numberDecimal": "Infinity"}`},
		{name: "atanh of a long is a double", ref: ref, cov: cover{op: "$atanh", col: types}, doc: doc, expr: `{"$atanh": "$lzero"}`, want: `0.0`},
		{name: "cosh of a decimal minus infinity", ref: ref, cov: cover{op: "$cosh", col: types}, doc: doc, expr: `{"$cosh": "$dninf"}`,
			want: `{"$numberDecimal": "Infinity"}`},
		{name: "cosh of an int is a double", ref: ref, cov: cover{op: "$cosh", col: types}, doc: doc, expr: `{"$cosh": "$zero"}`, want: `1.0`},
		{name: "sinh of a decimal infinity", ref: ref, cov: cover{op: "$sinh", col: types}, doc: doc, expr: `{"$sinh": "$dinf"}`,
			want: `{"$numberDecimal": "Infinity"}`},
		{name: "sinh of a long is a double", ref: ref, cov: cover{op: "$sinh", col: types}, doc: doc, expr: `{"$sinh": "$lzero"}`, want: `0.0`},
		{name: "tan of an int is a double", ref: ref, cov: cover{op: "$tan", col: types}, doc: doc, expr: `{"$tan": "$zero"}`, want: `0.0`},
		{name: "tan of a decimal NaN", ref: ref, cov: cover{op: "$tan", col: types}, doc: doc, expr: `{"$tan": "$dnan"}`, want: `{"$numberDecimal": "NaN"}`},
		{name: "radiansToDegrees of a long is a double", ref: ref, cov: cover{op: "$radiansToDegrees", col: types}, doc: doc,
			expr: `{"$radiansToDegrees": "$lzero"}`, want: `0.0`},
		{name: "radiansToDegrees of a decimal infinity", ref: ref, cov: cover{op: "$radiansToDegrees", col: types}, doc: doc,
			expr: `{"$radiansToDegrees": "$dninf"}`, want: `{"$numberDecimal": "-Infinity"}`},
	})
}
