package compat_test

import "testing"

// Cases that give every expression row of COVERAGE.md its applicable
// columns: the argument counts mongod's ExpressionFixedArity and the
// shorthand parsers refuse, and one result each for operators checked
// above only for their types or errors.

func TestExpressionArity(t *testing.T) {
	fixed := exprCpp + " (ExpressionFixedArity::validateChildren)"
	alias := exprCpp + " (makeConversionAlias)"
	dateParts := exprCpp + " (parseDateExpressionAcceptingTimeZone)"
	var cases []exprCase
	for _, op := range []string{"$ceil", "$exp", "$tan", "$sinh", "$cosh", "$asinh", "$atan", "$degreesToRadians", "$first",
		"$isNumber", "$toLower", "$tsSecond", "$size"} {
		cases = append(cases, exprCase{name: op + " takes one argument", ref: fixed, cov: cover{op: op}, expr: `{"` + op + `": [1, 2]}`,
			code: 16020, msg: invalidProject + "Expression " + op + " takes exactly 1 arguments. 2 were passed in."})
	}
	for _, op := range []string{"$gt", "$gte", "$lt", "$lte", "$ne"} {
		cases = append(cases, exprCase{name: op + " takes two arguments", ref: fixed, cov: cover{op: op}, expr: `{"` + op + `": [1, 2, 3]}`,
			code: 16020, msg: invalidProject + "Expression " + op + " takes exactly 2 arguments. 3 were passed in."})
	}
	for _, op := range []string{"$toBool", "$toDecimal", "$toDouble", "$toLong", "$toString"} {
		cases = append(cases, exprCase{name: op + " takes one argument", ref: alias, cov: cover{op: op}, expr: `{"` + op + `": []}`,
			code: 50723, msg: invalidProject + op + " requires a single argument, got 0"})
	}
	for _, op := range []string{"$dayOfMonth", "$dayOfWeek", "$dayOfYear", "$hour", "$isoDayOfWeek", "$isoWeek", "$isoWeekYear",
		"$millisecond", "$minute", "$second", "$week"} {
		cases = append(cases, exprCase{name: op + " takes one date in an array", ref: dateParts, cov: cover{op: op}, expr: `{"` + op + `": [1, 2]}`,
			code: 40536, msg: invalidProject + op + " accepts exactly one argument if given an array, but was given 2"})
	}
	for _, op := range []string{"$bitOr", "$bitXor"} {
		cases = append(cases, exprCase{name: op + " of a double", ref: "jstests/aggregation/expressions/bitwise.js", cov: cover{op: op},
			doc: `{"_id": 0, "d": 1.5}`, expr: `{"` + op + `": [1, "$d"]}`, code: 14, msg: planExecutor + op + " only supports int and long operands."})
	}
	pct := "src/mongo/db/pipeline/accumulator_percentile.cpp"
	cases = append(cases,
		exprCase{name: "percentile with p out of range", ref: pct, cov: cover{op: "$percentile"},
			expr: `{"$percentile": {"input": [1], "p": [2], "method": "approximate"}}`,
			code: 7750303, msg: invalidProject + "The $percentile 'p' field must be an array of numbers from [0.0, 1.0], but found: 2"},
		exprCase{name: "median with another method", ref: pct, cov: cover{op: "$median"},
			expr: `{"$median": {"input": [1], "method": "exact"}}`,
			code: 2, msg: invalidProject + "Currently only 'approximate' can be used as percentile 'method'."},
		exprCase{name: "stdDevPop takes no object of arguments", ref: exprCpp + " (ExpressionFromAccumulator)", cov: cover{op: "$stdDevPop", col: semantics},
			expr: `{"$stdDevPop": [[1, 3]]}`, want: `1.0`},
	)
	runExprCases(t, cases)
}

func TestExpressionResults(t *testing.T) {
	doc := `{"_id": 0, "a": [1, 2], "x": 0.5, "s": "AbC", "l": {"$numberLong": "86400000"}, "ts": {"$timestamp": {"t": 9, "i": 1}}}`
	runExprCases(t, []exprCase{
		{name: "asin", ref: trigJS, cov: cover{op: "$asin"}, doc: doc, expr: `{"$asin": "$x"}`, want: `0.5235987755982989`},
		{name: "cos", ref: trigJS, cov: cover{op: "$cos"}, doc: doc, expr: `{"$cos": "$x"}`, want: `0.8775825618903728`},
		{name: "ceil", ref: mathCpp, cov: cover{op: "$ceil"}, doc: doc, expr: `{"$ceil": "$x"}`, want: `1.0`},
		{name: "bitAnd", ref: "jstests/aggregation/expressions/bitwise.js", cov: cover{op: "$bitAnd"}, expr: `{"$bitAnd": [7, 12, 5]}`, want: `4`},
		{name: "bitOr of nothing is 0", ref: "jstests/aggregation/expressions/bitwise.js", cov: cover{op: "$bitOr"}, expr: `{"$bitOr": []}`, want: `0`},
		{name: "gt", ref: valueCpp, cov: cover{op: "$gt"}, doc: doc, expr: `{"$gt": ["$x", null]}`, want: `true`},
		{name: "size", ref: arrayCpp, cov: cover{op: "$size"}, doc: doc, expr: `{"$size": "$a"}`, want: `2`},
		{name: "substr", ref: stringCpp, cov: cover{op: "$substr"}, doc: doc, expr: `{"$substr": ["$s", 1, 1]}`, want: `"b"`},
		{name: "toLower", ref: stringCpp, cov: cover{op: "$toLower"}, doc: doc, expr: `{"$toLower": "$s"}`, want: `"abc"`},
		{name: "toDate of a long", ref: convertJS, cov: cover{op: "$toDate"}, doc: doc, expr: `{"$toDate": "$l"}`, want: `{"$date": "1970-01-02T00:00:00Z"}`},
		{name: "toDecimal of a string", ref: convertJS, cov: cover{op: "$toDecimal"}, expr: `{"$toDecimal": "1.50"}`, want: `{"$numberDecimal": "1.50"}`},
		{name: "toDouble of a bool", ref: convertJS, cov: cover{op: "$toDouble"}, expr: `{"$toDouble": false}`, want: `0.0`},
		{name: "toLong of a string", ref: convertJS, cov: cover{op: "$toLong"}, expr: `{"$toLong": "-12"}`, want: `{"$numberLong": "-12"}`},
		{name: "toObjectId of null", ref: convertJS, cov: cover{op: "$toObjectId"}, expr: `{"$toObjectId": null}`, want: `null`},
		{name: "toUUID of null", ref: mathCpp, cov: cover{op: "$toUUID"}, expr: `{"$toUUID": null}`, want: `null`},
		{name: "tsSecond", ref: dateCpp, cov: cover{op: "$tsSecond"}, doc: doc, expr: `{"$tsSecond": "$ts"}`, want: `{"$numberLong": "9"}`},
		{name: "rand twice differs", ref: exprCpp + " (ExpressionRandom is never folded)", cov: cover{op: "$rand"}, expr: `{"$ne": [{"$rand": {}}, {"$rand": {}}]}`, want: `true`},
		{name: "meta of a score the sandbox has not is missing", ref: "src/mongo/db/exec/expression/evaluate_meta.cpp", cov: cover{op: "$meta"},
			expr: `{"$meta": "searchScore"}`, missing: true},
	})
}
