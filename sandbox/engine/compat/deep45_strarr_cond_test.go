package compat_test

import "testing"

// Sweep 45 wave 2, "strarr": $sortArray, the array truth tests, the type
// predicates and conversions, and the conditional expressions. Sources:
// src/mongo/db/exec/expression/evaluate_array.cpp ($sortArray,
// $isArray), src/mongo/db/exec/expression/evaluate_logical.cpp
// ($anyElementTrue, $allElementsTrue, $switch, $ifNull),
// src/mongo/db/exec/document_value/value.cpp (coerceToBool, typeName),
// src/mongo/db/pipeline/expression.cpp (parsers, $literal, $type,
// $isNumber) and evaluate_convert.cpp ($toBool).

const sa45LogicalCpp = "src/mongo/db/exec/expression/evaluate_logical.cpp"

func TestDeep45StrarrSortArray(t *testing.T) {
	ref := d45ArrayCpp + " (evaluate ExpressionSortArray); " + exprCpp + " (ExpressionSortArray::parse); jstests/aggregation/expressions/sort_array.js"
	runExprCases(t, []exprCase{
		{name: "whole values in BSON order", ref: ref, cov: cover{op: "$sortArray", col: types},
			expr: `{"$sortArray": {"input": [1, "a", null, [0], {"$numberDecimal": "0.5"}], "sortBy": 1}}`, want: `[null, {"$numberDecimal": "0.5"}, 1, "a", [0]]`},
		{name: "descending", ref: ref, expr: `{"$sortArray": {"input": [3, 1, 2], "sortBy": -1}}`, want: `[3, 2, 1]`},
		{name: "arrays compare element by element as whole values", ref: ref, expr: `{"$sortArray": {"input": [[3], [1, 5], []], "sortBy": 1}}`, want: `[[], [1, 5], [3]]`},
		{name: "a field sort puts a non-document first", ref: ref, expr: `{"$sortArray": {"input": [{"a": 1}, 2, {"a": 0}], "sortBy": {"a": 1}}}`, want: `[2, {"a": 0}, {"a": 1}]`},
		{name: "a field sort uses the smallest array element ascending", ref: ref,
			expr: `{"$sortArray": {"input": [{"a": [2, 1]}, {"a": [3, 0]}], "sortBy": {"a": 1}}}`, want: `[{"a": [3, 0]}, {"a": [2, 1]}]`},
		{name: "a dotted field", ref: ref, expr: `{"$sortArray": {"input": [{"a": {"b": 1}}, {"a": {"b": 2}}], "sortBy": {"a.b": -1}}}`, want: `[{"a": {"b": 2}}, {"a": {"b": 1}}]`},
		{name: "a decimal direction", ref: ref, cov: cover{op: "$sortArray", col: types}, expr: `{"$sortArray": {"input": [3, 1], "sortBy": {"$numberDecimal": "1"}}}`, want: `[1, 3]`},
		{name: "a missing input", ref: ref, doc: sa45Doc, expr: `{"$sortArray": {"input": "$nope", "sortBy": 1}}`, want: `null`},
		{name: "a string input", ref: ref, cov: cover{op: "$sortArray", col: types}, doc: sa45Doc, expr: `{"$sortArray": {"input": "$s", "sortBy": 1}}`,
			code: 2942504, msg: planExecutor + "The input argument to $sortArray must be an array, but was of type: string"},
		{name: "a bool direction", ref: ref, expr: `{"$sortArray": {"input": [1], "sortBy": true}}`,
			code: 2942507, msg: invalidProject + "The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields"},
		{name: "a zero direction", ref: ref, expr: `{"$sortArray": {"input": [1], "sortBy": 0}}`,
			code: 2942506, msg: invalidProject + "The $sort element value must be either 1 or -1"},
		{name: "an empty pattern", ref: ref, expr: `{"$sortArray": {"input": [1], "sortBy": {}}}`,
			code: 2942505, msg: invalidProject + "BadValue: The $sort pattern is empty when it should be a set of fields."},
		{name: "an array argument", ref: ref, expr: `{"$sortArray": [1]}`,
			code: 2942500, msg: invalidProject + "$sortArray requires an object as an argument, found: array"},
		{name: "an unknown argument", ref: ref, expr: `{"$sortArray": {"input": [1], "sortBy": 1, "x": 1}}`,
			code: 2942501, msg: invalidProject + "$sortArray found an unknown argument: x"},
		{name: "input is required", ref: ref, expr: `{"$sortArray": {"sortBy": 1}}`,
			code: 2942502, msg: invalidProject + "$sortArray requires 'input' to be specified"},
		{name: "sortBy is required", ref: ref, expr: `{"$sortArray": {"input": [1]}}`,
			code: 2942503, msg: invalidProject + "$sortArray requires 'sortBy' to be specified"},
	})
}

func TestDeep45StrarrTruthAndTypes(t *testing.T) {
	truth := sa45LogicalCpp + " (ExpressionAnyElementTrue, ExpressionAllElementsTrue); " + valueCpp + " (coerceToBool)"
	types45 := exprCpp + " (ExpressionType, ExpressionIsNumber); " + d45ArrayCpp + " (ExpressionIsArray); " + valueCpp + " (typeName)"
	conv := "src/mongo/db/exec/expression/evaluate_convert.cpp (conversion to bool); " + valueCpp + " (coerceToBool)"
	runExprCases(t, []exprCase{
		{name: "any of falsy values", ref: truth, expr: `{"$anyElementTrue": [[0, null, false, {"$numberDecimal": "-0"}]]}`, want: `false`},
		{name: "any counts a nested false array as true", ref: truth, expr: `{"$anyElementTrue": [[[false]]]}`, want: `true`},
		{name: "any counts NaN as true", ref: truth, cov: cover{op: "$anyElementTrue", col: types}, expr: `{"$anyElementTrue": [[{"$numberDouble": "NaN"}]]}`, want: `true`},
		{name: "any counts an empty string as true", ref: truth, cov: cover{op: "$anyElementTrue", col: types}, expr: `{"$anyElementTrue": [[""]]}`, want: `true`},
		{name: "any of an empty array", ref: truth, expr: `{"$anyElementTrue": [[]]}`, want: `false`},
		{name: "any of missing is an error", ref: truth, doc: sa45Doc, expr: `{"$anyElementTrue": ["$nope"]}`,
			code: 17041, msg: planExecutor + "$anyElementTrue's argument must be an array, but is missing"},
		{name: "any of null", ref: truth, expr: `{"$anyElementTrue": [null]}`,
			code: 17041, msg: "Failed to optimize pipeline :: caused by :: $anyElementTrue's argument must be an array, but is null"},
		{name: "all of truthy values", ref: truth, expr: `{"$allElementsTrue": [[1, "", [], {}]]}`, want: `true`},
		{name: "all of an empty array", ref: truth, expr: `{"$allElementsTrue": [[]]}`, want: `true`},
		{name: "all with undefined", ref: truth, cov: cover{op: "$allElementsTrue", col: types}, expr: `{"$allElementsTrue": [[1, {"$undefined": true}]]}`, want: `false`},
		{name: "all of an object", ref: truth, cov: cover{op: "$allElementsTrue", col: types}, doc: sa45Doc, expr: `{"$allElementsTrue": "$o"}`,
			code: 17040, msg: planExecutor + "$allElementsTrue's argument must be an array, but is object"},
		{name: "all of two arguments", ref: exprCpp, expr: `{"$allElementsTrue": [[1], [2]]}`,
			code: 16020, msg: invalidProject + "Expression $allElementsTrue takes exactly 1 arguments. 2 were passed in."},
		{name: "isArray of a path to an array", ref: types45, doc: sa45Doc, expr: `{"$isArray": "$arr"}`, want: `true`},
		{name: "isArray unwraps one list", ref: types45, expr: `{"$isArray": [1]}`, want: `false`},
		{name: "isArray of missing", ref: types45, doc: sa45Doc, expr: `{"$isArray": "$nope"}`, want: `false`},
		{name: "isArray of nothing", ref: exprCpp, expr: `{"$isArray": []}`,
			code: 16020, msg: invalidProject + "Expression $isArray takes exactly 1 arguments. 0 were passed in."},
		{name: "isNumber of a decimal NaN", ref: types45, cov: cover{op: "$isNumber", col: types}, expr: `{"$isNumber": {"$numberDecimal": "NaN"}}`, want: `true`},
		{name: "isNumber of a numeric string", ref: types45, cov: cover{op: "$isNumber", col: types}, expr: `{"$isNumber": "1"}`, want: `false`},
		{name: "isNumber of missing", ref: types45, doc: sa45Doc, expr: `{"$isNumber": "$nope"}`, want: `false`},
		{name: "isNumber of an array of numbers", ref: types45, doc: sa45Doc, expr: `{"$isNumber": ["$arr"]}`, want: `false`},
		{name: "type of missing", ref: types45, doc: sa45Doc, expr: `{"$type": "$nope"}`, want: `"missing"`},
		{name: "type of undefined", ref: types45, cov: cover{op: "$type", col: types}, expr: `{"$type": {"$literal": {"$undefined": true}}}`, want: `"undefined"`},
		{name: "type of a long", ref: types45, cov: cover{op: "$type", col: types}, doc: sa45Doc, expr: `{"$type": "$big"}`, want: `"long"`},
		{name: "type of code", ref: types45, cov: cover{op: "$type", col: types}, expr: `{"$type": {"$code": "x"}}`, want: `"javascript"`},
		{name: "type of minKey", ref: types45, cov: cover{op: "$type", col: types}, expr: `{"$type": {"$minKey": 1}}`, want: `"minKey"`},
		{name: "type of a symbol", ref: types45, cov: cover{op: "$type", col: types}, expr: `{"$type": {"$symbol": "s"}}`, want: `"symbol"`},
		{name: "type of a timestamp", ref: types45, cov: cover{op: "$type", col: types}, expr: `{"$type": {"$timestamp": {"t": 1, "i": 1}}}`, want: `"timestamp"`},
		{name: "type of an array literal", ref: types45, expr: `{"$type": [[1]]}`, want: `"array"`},
		{name: "type of two arguments", ref: exprCpp, expr: `{"$type": [1, 2]}`,
			code: 16020, msg: invalidProject + "Expression $type takes exactly 1 arguments. 2 were passed in."},
		{name: "toBool of decimal -0", ref: conv, cov: cover{op: "$toBool", col: types}, expr: `{"$toBool": {"$numberDecimal": "-0"}}`, want: `false`},
		{name: "toBool of NaN", ref: conv, cov: cover{op: "$toBool", col: types}, expr: `{"$toBool": {"$numberDouble": "NaN"}}`, want: `true`},
		{name: "toBool of a long zero", ref: conv, cov: cover{op: "$toBool", col: types}, expr: `{"$toBool": {"$numberLong": "0"}}`, want: `false`},
		{name: "toBool of the string false", ref: conv, cov: cover{op: "$toBool", col: types}, expr: `{"$toBool": "false"}`, want: `true`},
		{name: "toBool of an epoch date", ref: conv, cov: cover{op: "$toBool", col: types}, expr: `{"$toBool": {"$date": "1970-01-01T00:00:00Z"}}`, want: `true`},
		{name: "toBool of an empty object", ref: conv, cov: cover{op: "$toBool", col: types}, expr: `{"$toBool": {"$literal": {}}}`, want: `true`},
		{name: "toBool of missing", ref: conv, doc: sa45Doc, expr: `{"$toBool": "$nope"}`, want: `null`},
		{name: "toBool of two arguments", ref: exprCpp + " (parse of the conversion shorthands)", expr: `{"$toBool": [1, 2]}`,
			code: 50723, msg: invalidProject + "$toBool requires a single argument, got 2"},
	})
}

func TestDeep45StrarrConditionals(t *testing.T) {
	sw := sa45LogicalCpp + " (ExpressionSwitch); " + exprCpp + " (ExpressionSwitch::parse); jstests/aggregation/expressions/switch.js"
	ifn := sa45LogicalCpp + " (ExpressionIfNull); " + exprCpp + " (ExpressionIfNull::parse)"
	lit := exprCpp + " (ExpressionConstant::parse for $literal)"
	runExprCases(t, []exprCase{
		{name: "switch takes the first truthy case", ref: sw, expr: `{"$switch": {"branches": [{"case": 0, "then": 1}, {"case": [], "then": 2}], "default": 3}}`, want: `2`},
		{name: "switch treats a missing case as false", ref: sw, doc: sa45Doc, expr: `{"$switch": {"branches": [{"case": "$nope", "then": 1}], "default": 2}}`, want: `2`},
		{name: "switch of a missing then", ref: sw, doc: sa45Doc, expr: `{"$switch": {"branches": [{"case": {"$eq": ["$i", 5]}, "then": "$nope"}], "default": 2}}`, missing: true},
		{name: "switch without a match at run time", ref: sw, doc: sa45Doc, expr: `{"$switch": {"branches": [{"case": {"$eq": ["$i", 4]}, "then": 1}]}}`,
			code: 40066, msg: planExecutor + "$switch could not find a matching branch for an input, and no default was specified."},
		{name: "switch of constant false cases without a default", ref: exprCpp + " (ExpressionSwitch::optimize)", expr: `{"$switch": {"branches": [{"case": false, "then": 1}]}}`,
			code: 40069, msg: "Failed to optimize pipeline :: caused by :: Cannot execute a switch statement where all the cases evaluate to false without a default"},
		{name: "switch of an object argument only", ref: sw, expr: `{"$switch": []}`,
			code: 40060, msg: invalidProject + "$switch requires an object as an argument, found: array"},
		{name: "switch branches not an array", ref: sw, expr: `{"$switch": {"branches": {}}}`,
			code: 40061, msg: invalidProject + "$switch expected an array for 'branches', found: object"},
		{name: "switch a branch that is not an object", ref: sw, expr: `{"$switch": {"branches": [{"case": true, "then": 1}, 5]}}`,
			code: 40062, msg: invalidProject + "$switch expected each branch to be an object, found: int"},
		{name: "switch an unknown branch argument", ref: sw, expr: `{"$switch": {"branches": [{"case": true, "then": 1, "else": 2}]}}`,
			code: 40063, msg: invalidProject + "$switch found an unknown argument to a branch: else"},
		{name: "switch a branch without case", ref: sw, expr: `{"$switch": {"branches": [{"then": 1}]}}`,
			code: 40064, msg: invalidProject + "$switch requires each branch have a 'case' expression"},
		{name: "switch a branch without then", ref: sw, expr: `{"$switch": {"branches": [{"case": true}]}}`,
			code: 40065, msg: invalidProject + "$switch requires each branch have a 'then' expression."},
		{name: "switch an unknown argument", ref: sw, expr: `{"$switch": {"branches": [{"case": true, "then": 1}], "x": 1}}`,
			code: 40067, msg: invalidProject + "$switch found an unknown argument: x"},
		{name: "switch with only a default", ref: sw, expr: `{"$switch": {"default": 1}}`,
			code: 40068, msg: invalidProject + "$switch requires at least one branch."},
		{name: "ifNull takes the first non-null", ref: ifn, doc: sa45Doc, expr: `{"$ifNull": ["$n", "$nope", "$s", 2]}`, want: `"abc"`},
		{name: "ifNull returns the last even if missing", ref: ifn, doc: sa45Doc, expr: `{"$ifNull": ["$n", "$nope"]}`, missing: true},
		{name: "ifNull keeps a falsy value", ref: ifn, expr: `{"$ifNull": [0, 1]}`, want: `0`},
		{name: "ifNull replaces undefined", ref: ifn, cov: cover{op: "$ifNull", col: types}, expr: `{"$ifNull": [{"$literal": {"$undefined": true}}, 1]}`, want: `1`},
		{name: "ifNull of one argument", ref: ifn, expr: `{"$ifNull": [1]}`,
			code: 1257300, msg: invalidProject + "$ifNull needs at least two arguments, had: 1"},
		{name: "ifNull of a lone value", ref: ifn, expr: `{"$ifNull": 1}`,
			code: 1257300, msg: invalidProject + "$ifNull needs at least two arguments, had: 1"},
		{name: "literal keeps a path string", ref: lit, expr: `{"$literal": "$x"}`, want: `"$x"`},
		{name: "literal keeps an operator object", ref: lit, expr: `{"$literal": {"$add": [1, 2]}}`, want: `{"$add": [1, 2]}`},
		{name: "literal keeps a variable string", ref: lit, expr: `{"$literal": "$$NOW"}`, want: `"$$NOW"`},
		{name: "literal of an array with paths", ref: lit, expr: `{"$literal": ["$a", 1]}`, want: `["$a", 1]`},
	})
}
