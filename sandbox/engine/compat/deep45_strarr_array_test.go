package compat_test

import "testing"

// Sweep 45 wave 2, "strarr": array expressions one by one. Sources:
// src/mongo/db/exec/expression/evaluate_array.cpp (arrayElemAt for
// $arrayElemAt/$first/$last, $slice, $reverseArray, $sortArray,
// $concatArrays, $zip, $indexOfArray) and src/mongo/db/pipeline/expression.cpp
// ($range, $reduce, parsers and arity).

func TestDeep45StrarrSliceAndElemAt(t *testing.T) {
	slice := d45ArrayCpp + " (evaluate ExpressionSlice); jstests/aggregation/expressions/slice.js"
	elem := d45ArrayCpp + " (arrayElemAt)"
	runExprCases(t, []exprCase{
		{name: "slice from the back", ref: slice, expr: `{"$slice": [[1, 2, 3], -2]}`, want: `[2, 3]`},
		{name: "slice a negative start beyond the length starts at 0", ref: slice, expr: `{"$slice": [[1, 2, 3], -5, 2]}`, want: `[1, 2]`},
		{name: "slice a start past the end", ref: slice, expr: `{"$slice": [[1, 2, 3], 5, 2]}`, want: `[]`},
		{name: "slice of the smallest int", ref: slice, cov: cover{op: "$slice", col: types}, expr: `{"$slice": [[1, 2, 3], -2147483648, 1]}`, want: `[1]`},
		{name: "slice decimal and long arguments", ref: slice, cov: cover{op: "$slice", col: types},
			expr: `{"$slice": [[1, 2, 3], {"$numberDecimal": "1"}, {"$numberLong": "1"}]}`, want: `[2]`},
		{name: "slice of a null position", ref: slice, expr: `{"$slice": [[1, 2, 3], null]}`, want: `null`},
		{name: "slice of a bad array and a null position", ref: slice, expr: `{"$slice": [1, null]}`, want: `null`},
		// The count is evaluated and tested only after the array and the
		// position pass their checks.
		{name: "slice checks the array before a null count", ref: slice, expr: `{"$slice": [1, 1, null]}`,
			code: 28724, msg: "Failed to optimize pipeline :: caused by :: First argument to $slice must be an array, but is of type: int"},
		{name: "slice checks the position before a null count", ref: slice, expr: `{"$slice": [[1], "a", null]}`,
			code: 28725, msg: "Failed to optimize pipeline :: caused by :: Second argument to $slice must be a numeric value, but is of type: string"},
		{name: "slice of a missing array does not evaluate the count", ref: slice, doc: sa45Doc, expr: `{"$slice": ["$nope", 1, {"$divide": ["$i", 0]}]}`, want: `null`},
		{name: "slice of a null count", ref: slice, expr: `{"$slice": [[1, 2, 3], 1, null]}`, want: `null`},
		// 28726/28728 stream coerceToDouble, 28729 coerceToInt.
		{name: "slice position beyond 32 bits prints as a double", ref: slice, cov: cover{op: "$slice", col: types}, doc: sa45Doc, expr: `{"$slice": ["$arr", "$big"]}`,
			code: 28726, msg: planExecutor + "Second argument to $slice can't be represented as a 32-bit integer: 3e+09"},
		{name: "slice fractional position", ref: slice, expr: `{"$slice": [[1], 1.5]}`,
			code: 28726, msg: "Failed to optimize pipeline :: caused by :: Second argument to $slice can't be represented as a 32-bit integer: 1.5"},
		{name: "slice count beyond 32 bits prints as a double", ref: slice, cov: cover{op: "$slice", col: types}, doc: sa45Doc, expr: `{"$slice": ["$arr", 0, "$big"]}`,
			code: 28728, msg: planExecutor + "Third argument to $slice can't be represented as a 32-bit integer: 3e+09"},
		{name: "slice string count", ref: slice, expr: `{"$slice": [[1], 0, "a"]}`,
			code: 28727, msg: "Failed to optimize pipeline :: caused by :: Third argument to $slice must be numeric, but is of type: string"},
		{name: "slice a decimal count prints as an int", ref: slice, cov: cover{op: "$slice", col: types}, expr: `{"$slice": [[1], 0, {"$numberDecimal": "-1.0"}]}`,
			code: 28729, msg: "Failed to optimize pipeline :: caused by :: Third argument to $slice must be positive: -1"},
		{name: "slice zero count", ref: slice, expr: `{"$slice": [[1], 0, 0]}`,
			code: 28729, msg: "Failed to optimize pipeline :: caused by :: Third argument to $slice must be positive: 0"},
		{name: "slice one argument", ref: exprCpp, expr: `{"$slice": [[1]]}`,
			code: 28667, msg: invalidProject + "Expression $slice takes at least 2 arguments, and at most 3, but 1 were passed in."},
		{name: "elemAt from the back", ref: elem, expr: `{"$arrayElemAt": [[1, 2, 3], -1]}`, want: `3`},
		{name: "elemAt past the end is missing", ref: elem, expr: `{"$arrayElemAt": [[1, 2, 3], 3]}`, missing: true},
		{name: "elemAt before the start is missing", ref: elem, expr: `{"$arrayElemAt": [[1, 2, 3], -4]}`, missing: true},
		{name: "elemAt of the smallest int", ref: elem, cov: cover{op: "$arrayElemAt", col: types}, expr: `{"$arrayElemAt": [[1], -2147483648]}`, missing: true},
		{name: "elemAt of a decimal index", ref: elem, cov: cover{op: "$arrayElemAt", col: types}, expr: `{"$arrayElemAt": [[1, 2, 3], {"$numberDecimal": "2"}]}`, want: `3`},
		{name: "elemAt of a null index over a bad array", ref: elem, expr: `{"$arrayElemAt": [1, null]}`, want: `null`},
		{name: "elemAt of a missing index", ref: elem, doc: sa45Doc, expr: `{"$arrayElemAt": ["$arr", "$nope"]}`, want: `null`},
		{name: "elemAt checks the array first", ref: elem, expr: `{"$arrayElemAt": [1, "a"]}`,
			code: 28689, msg: "Failed to optimize pipeline :: caused by :: $arrayElemAt's first argument must be an array, but is int"},
		{name: "elemAt string index", ref: elem, expr: `{"$arrayElemAt": [[1], "a"]}`,
			code: 28690, msg: "Failed to optimize pipeline :: caused by :: $arrayElemAt's second argument must be a numeric value, but is string"},
		{name: "elemAt index beyond 32 bits prints as a double", ref: elem, cov: cover{op: "$arrayElemAt", col: types}, doc: sa45Doc, expr: `{"$arrayElemAt": ["$arr", "$big"]}`,
			code: 28691, msg: planExecutor + "$arrayElemAt's second argument must be representable as a 32-bit integer: 3e+09"},
		{name: "elemAt fractional index", ref: elem, expr: `{"$arrayElemAt": [[1], 1.5]}`,
			code: 28691, msg: "Failed to optimize pipeline :: caused by :: $arrayElemAt's second argument must be representable as a 32-bit integer: 1.5"},
		{name: "first of an empty array is missing", ref: elem, expr: `{"$first": [[]]}`, missing: true},
		{name: "first of missing", ref: elem, doc: sa45Doc, expr: `{"$first": "$nope"}`, want: `null`},
		{name: "first names its own argument", ref: elem, cov: cover{op: "$first", col: types}, doc: sa45Doc, expr: `{"$first": "$s"}`,
			code: 28689, msg: planExecutor + "$first's argument must be an array, but is string"},
		{name: "last of a nested array", ref: elem, expr: `{"$last": [[1, [2, 3]]]}`, want: `[2, 3]`},
		{name: "last of an object", ref: elem, cov: cover{op: "$last", col: types}, expr: `{"$last": {"$literal": {"a": 1}}}`,
			code: 28689, msg: "Failed to optimize pipeline :: caused by :: $last's argument must be an array, but is object"},
		{name: "last of two arguments", ref: exprCpp, expr: `{"$last": [[1], [2]]}`,
			code: 16020, msg: invalidProject + "Expression $last takes exactly 1 arguments. 2 were passed in."},
	})
}

func TestDeep45StrarrIndexOfArray(t *testing.T) {
	ref := d45ArrayCpp + " (evaluateAndValidateArguments, evaluate ExpressionIndexOfArray); jstests/aggregation/expressions/indexof_array.js"
	runExprCases(t, []exprCase{
		{name: "finds an array element", ref: ref, expr: `{"$indexOfArray": [[[1], 2], [1]]}`, want: `0`},
		{name: "compares numbers across types", ref: ref, cov: cover{op: "$indexOfArray", col: types}, expr: `{"$indexOfArray": [[1, 2], {"$numberDecimal": "2.0"}]}`, want: `1`},
		{name: "null finds null", ref: ref, expr: `{"$indexOfArray": [[1, null], null]}`, want: `1`},
		{name: "missing does not find null", ref: ref, doc: sa45Doc, expr: `{"$indexOfArray": [[1, null], "$nope"]}`, want: `-1`},
		{name: "end bounds the search", ref: ref, expr: `{"$indexOfArray": [[1, 2, 3], 2, 0, 1]}`, want: `-1`},
		{name: "end past the length", ref: ref, doc: sa45Doc, expr: `{"$indexOfArray": ["$arr", 2, 0, 5]}`, want: `1`},
		{name: "start past the length", ref: ref, expr: `{"$indexOfArray": [[1, 2, 3], 2, 5]}`, want: `-1`},
		// The searched value is evaluated after the indexes are checked.
		{name: "a missing array does not evaluate the value", ref: ref, doc: sa45Doc, expr: `{"$indexOfArray": ["$nope", {"$divide": ["$i", 0]}]}`, want: `null`},
		{name: "a bad start is found before the value fails", ref: ref, doc: sa45Doc, expr: `{"$indexOfArray": ["$arr", {"$divide": ["$i", 0]}, -1]}`,
			code: 40097, msg: planExecutor + "$indexOfArray requires a nonnegative starting index, found: -1"},
		{name: "a negative decimal start keeps its digits", ref: ref, cov: cover{op: "$indexOfArray", col: types}, expr: `{"$indexOfArray": [[1], 1, {"$numberDecimal": "-1.0"}]}`,
			code: 40097, msg: "Failed to optimize pipeline :: caused by :: $indexOfArray requires a nonnegative starting index, found: -1.0"},
		{name: "a string end", ref: ref, doc: sa45Doc, expr: `{"$indexOfArray": ["$arr", 2, 0, "$s"]}`,
			code: 40096, msg: planExecutor + "$indexOfArrayrequires an integral ending index, found a value of type: string, with value: \"abc\""},
		{name: "a long start beyond 32 bits", ref: ref, cov: cover{op: "$indexOfArray", col: types}, doc: sa45Doc, expr: `{"$indexOfArray": ["$arr", 2, "$big"]}`,
			code: 40096, msg: planExecutor + "$indexOfArrayrequires an integral starting index, found a value of type: long, with value: 3000000001"},
		{name: "a string at run time", ref: ref, cov: cover{op: "$indexOfArray", col: types}, doc: sa45Doc, expr: `{"$indexOfArray": ["$s", 1]}`,
			code: 40090, msg: planExecutor + "$indexOfArray requires an array as a first argument, found: string"},
		{name: "one argument", ref: exprCpp, expr: `{"$indexOfArray": [[1]]}`,
			code: 28667, msg: invalidProject + "Expression $indexOfArray takes at least 2 arguments, and at most 4, but 1 were passed in."},
	})
}
