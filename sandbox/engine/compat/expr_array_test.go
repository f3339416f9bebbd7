package compat_test

import "testing"

// The array and set operators: src/mongo/db/exec/expression/evaluate_array.cpp,
// src/mongo/db/pipeline/expression.cpp (their parsers and optimize), and
// src/mongo/db/pipeline/accumulator_multi.cpp (the expression forms of
// $firstN, $lastN, $minN and $maxN).

const (
	arrayCpp = "src/mongo/db/exec/expression/evaluate_array.cpp"
	multiCpp = "src/mongo/db/pipeline/accumulator_multi.cpp"
	arrDoc   = `{"_id": 0, "a": [1, 2, 3], "e": [], "n": null, "s": "x", "i": 2, "mixed": [3, null, 1, "b", 2, {"x": 1}]}`
)

func TestExpressionArrayAccess(t *testing.T) {
	elemJS := "jstests/aggregation/expressions/array_elem_at.js"
	runExprCases(t, []exprCase{
		{name: "arrayElemAt", ref: elemJS, doc: arrDoc, expr: `{"$arrayElemAt": ["$a", 1]}`, want: `2`},
		{name: "arrayElemAt from the end", ref: elemJS, doc: arrDoc, expr: `{"$arrayElemAt": ["$a", -1]}`, want: `3`},
		{name: "arrayElemAt past the end is missing", ref: elemJS, doc: arrDoc, expr: `{"$arrayElemAt": ["$a", 5]}`, missing: true},
		{name: "arrayElemAt before the start is missing", ref: elemJS, doc: arrDoc, expr: `{"$arrayElemAt": ["$a", -4]}`, missing: true},
		{name: "arrayElemAt with an integral double", ref: elemJS, cov: cover{col: types}, doc: arrDoc, expr: `{"$arrayElemAt": ["$a", 1.0]}`, want: `2`},
		{name: "arrayElemAt of null", ref: elemJS, doc: arrDoc, expr: `{"$arrayElemAt": ["$n", 1]}`, want: `null`},
		{name: "arrayElemAt of a string", ref: elemJS, doc: arrDoc, expr: `{"$arrayElemAt": ["$s", 1]}`,
			code: 28689, msg: planExecutor + "$arrayElemAt's first argument must be an array, but is string"},
		{name: "arrayElemAt at a string", ref: elemJS, doc: arrDoc, expr: `{"$arrayElemAt": ["$a", "$s"]}`,
			code: 28690, msg: planExecutor + "$arrayElemAt's second argument must be a numeric value, but is string"},
		{name: "arrayElemAt at a fraction", ref: elemJS, doc: arrDoc, expr: `{"$arrayElemAt": ["$a", 1.5]}`,
			code: 28691, msg: planExecutor + "$arrayElemAt's second argument must be representable as a 32-bit integer: 1.5"},
		{name: "first", ref: "jstests/aggregation/expressions/first_last.js", cov: cover{op: "$first"}, doc: arrDoc, expr: `{"$first": "$a"}`, want: `1`},
		{name: "first of an empty array is missing", ref: arrayCpp, cov: cover{op: "$first"}, doc: arrDoc, expr: `{"$first": "$e"}`, missing: true},
		{name: "last of a string", ref: arrayCpp, cov: cover{op: "$last"}, doc: arrDoc, expr: `{"$last": "$s"}`,
			code: 28689, msg: planExecutor + "$last's argument must be an array, but is string"},
		{name: "last of missing", ref: arrayCpp, cov: cover{op: "$last"}, doc: arrDoc, expr: `{"$last": "$nope"}`, want: `null`},
		{name: "size", ref: arrayCpp, cov: cover{op: "$size", col: types}, doc: arrDoc, expr: `{"$size": "$a"}`, want: `3`},
		{name: "size of null", ref: arrayCpp, cov: cover{op: "$size"}, doc: arrDoc, expr: `{"$size": "$n"}`,
			code: 17124, msg: planExecutor + "The argument to $size must be an array, but was of type: null"},
		{name: "isArray", ref: "jstests/aggregation/expressions/is_array.js", cov: cover{op: "$isArray"}, doc: arrDoc, expr: `{"$isArray": ["$a"]}`, want: `true`},
		{name: "isArray of missing", ref: arrayCpp, cov: cover{op: "$isArray"}, doc: arrDoc, expr: `{"$isArray": "$nope"}`, want: `false`},
		{name: "isArray takes one argument", ref: exprCpp, cov: cover{op: "$isArray"}, expr: `{"$isArray": [1, 2]}`,
			code: 16020, msg: invalidProject + "Expression $isArray takes exactly 1 arguments. 2 were passed in."},
		{name: "in", ref: "jstests/aggregation/expressions/in.js", cov: cover{op: "$in"}, doc: arrDoc, expr: `{"$in": [2.0, "$a"]}`, want: `true`},
		{name: "in of a null array", ref: "jstests/aggregation/expressions/in.js", cov: cover{op: "$in"}, doc: arrDoc, expr: `{"$in": [1, "$n"]}`,
			code: 40081, msg: planExecutor + "$in requires an array as a second argument, found: null"},
		{name: "indexOfArray", ref: "jstests/aggregation/expressions/indexof_array.js", cov: cover{op: "$indexOfArray"}, doc: arrDoc,
			expr: `{"$indexOfArray": ["$mixed", null]}`, want: `1`},
		{name: "indexOfArray in a range", ref: "jstests/aggregation/expressions/indexof_array.js", cov: cover{op: "$indexOfArray"}, doc: arrDoc,
			expr: `{"$indexOfArray": ["$a", 2, 2, 3]}`, want: `-1`},
		{name: "indexOfArray of null", ref: arrayCpp, cov: cover{op: "$indexOfArray"}, doc: arrDoc, expr: `{"$indexOfArray": ["$n", 2]}`, want: `null`},
		{name: "indexOfArray of a string", ref: arrayCpp, cov: cover{op: "$indexOfArray"}, doc: arrDoc, expr: `{"$indexOfArray": ["$s", 2]}`,
			code: 40090, msg: planExecutor + "$indexOfArray requires an array as a first argument, found: string"},
		{name: "indexOfArray from a fraction", ref: arrayCpp, cov: cover{op: "$indexOfArray"}, doc: arrDoc, expr: `{"$indexOfArray": ["$a", 2, 0.5]}`,
			code: 40096, msg: planExecutor + "$indexOfArrayrequires an integral starting index, found a value of type: double, with value: 0.5"},
		{name: "indexOfArray from a negative index", ref: arrayCpp, cov: cover{op: "$indexOfArray"}, doc: arrDoc, expr: `{"$indexOfArray": ["$a", 2, 0, -1]}`,
			code: 40097, msg: planExecutor + "$indexOfArray requires a nonnegative ending index, found: -1"},
		{name: "indexOfArray in a constant non-array", ref: exprCpp + " (ExpressionIndexOfArray::optimize)", cov: cover{op: "$indexOfArray"},
			doc: arrDoc, expr: `{"$indexOfArray": ["abc", "$i"]}`,
			code: 50809, msg: optimizeError + "First operand of $indexOfArray must be an array. First argument is of type: string"},
	})
}

func TestExpressionArrayBuild(t *testing.T) {
	rangeRef := mathCpp + " (ExpressionRange)"
	runExprCases(t, []exprCase{
		{name: "concatArrays", ref: "jstests/aggregation/expressions/concat_arrays.js", cov: cover{op: "$concatArrays"}, doc: arrDoc,
			expr: `{"$concatArrays": ["$a", [4], "$e"]}`, want: `[1, 2, 3, 4]`},
		{name: "concatArrays with null", ref: arrayCpp, cov: cover{op: "$concatArrays"}, doc: arrDoc, expr: `{"$concatArrays": ["$a", "$n"]}`, want: `null`},
		{name: "concatArrays with a string", ref: arrayCpp, cov: cover{op: "$concatArrays"}, doc: arrDoc, expr: `{"$concatArrays": ["$a", "$s"]}`,
			code: 28664, msg: planExecutor + "$concatArrays only supports arrays, not string"},
		{name: "reverseArray", ref: arrayCpp, cov: cover{op: "$reverseArray"}, doc: arrDoc, expr: `{"$reverseArray": "$a"}`, want: `[3, 2, 1]`},
		{name: "reverseArray of null", ref: arrayCpp, cov: cover{op: "$reverseArray"}, doc: arrDoc, expr: `{"$reverseArray": "$n"}`, want: `null`},
		{name: "reverseArray of a string", ref: arrayCpp, cov: cover{op: "$reverseArray"}, doc: arrDoc, expr: `{"$reverseArray": "$s"}`,
			code: 34435, msg: planExecutor + "The argument to $reverseArray must be an array, but was of type: string"},
		{name: "range", ref: rangeRef, cov: cover{op: "$range", col: types}, doc: arrDoc, expr: `{"$range": [0, 10, 3]}`, want: `[0, 3, 6, 9]`},
		{name: "range down", ref: rangeRef, cov: cover{op: "$range"}, doc: arrDoc, expr: `{"$range": ["$i", -2, -2]}`, want: `[2, 0]`},
		{name: "range the wrong way is empty", ref: rangeRef, cov: cover{op: "$range"}, doc: arrDoc, expr: `{"$range": ["$i", 5, -1]}`, want: `[]`},
		{name: "range from a long", ref: rangeRef, cov: cover{op: "$range", col: types}, doc: arrDoc,
			expr: `{"$range": [{"$numberLong": "1"}, 3]}`, want: `[1, 2]`},
		{name: "range from null", ref: rangeRef, cov: cover{op: "$range"}, doc: arrDoc, expr: `{"$range": ["$n", 3]}`,
			code: 34443, msg: planExecutor + "$range requires a numeric starting value, found value of type: null"},
		{name: "range to a fraction", ref: rangeRef, cov: cover{op: "$range"}, doc: arrDoc, expr: `{"$range": ["$i", 3.5]}`,
			code: 34446, msg: planExecutor + "$range requires an ending value that can be represented as a 32-bit integer, found value: 3.5"},
		{name: "range by a string", ref: rangeRef, cov: cover{op: "$range"}, doc: arrDoc, expr: `{"$range": ["$i", 3, "$s"]}`,
			code: 34447, msg: planExecutor + "$range requires a numeric step value, found value of type:string"},
		{name: "range by zero", ref: rangeRef, cov: cover{op: "$range"}, doc: arrDoc, expr: `{"$range": ["$i", 3, 0]}`,
			code: 34449, msg: planExecutor + "$range requires a non-zero step value"},
		{name: "slice", ref: arrayCpp, cov: cover{op: "$slice"}, doc: arrDoc, expr: `{"$slice": ["$a", 2]}`, want: `[1, 2]`},
		{name: "slice from the end", ref: arrayCpp, cov: cover{op: "$slice"}, doc: arrDoc, expr: `{"$slice": ["$a", -2]}`, want: `[2, 3]`},
		{name: "slice with a start", ref: arrayCpp, cov: cover{op: "$slice"}, doc: arrDoc, expr: `{"$slice": ["$a", -5, 2]}`, want: `[1, 2]`},
		{name: "slice of null", ref: arrayCpp, cov: cover{op: "$slice"}, doc: arrDoc, expr: `{"$slice": ["$n", 1]}`, want: `null`},
		{name: "slice with a zero count", ref: arrayCpp, cov: cover{op: "$slice"}, doc: arrDoc, expr: `{"$slice": ["$a", 0, 0]}`,
			code: 28729, msg: planExecutor + "Third argument to $slice must be positive: 0"},
		{name: "slice of a string", ref: arrayCpp, cov: cover{op: "$slice"}, doc: arrDoc, expr: `{"$slice": ["$s", 1]}`,
			code: 28724, msg: planExecutor + "First argument to $slice must be an array, but is of type: string"},
		{name: "slice arity", ref: exprCpp, cov: cover{op: "$slice"}, doc: arrDoc, expr: `{"$slice": ["$a"]}`,
			code: 28667, msg: invalidProject + "Expression $slice takes at least 2 arguments, and at most 3, but 1 were passed in."},
		{name: "zip", ref: arrayCpp, cov: cover{op: "$zip"}, doc: arrDoc, expr: `{"$zip": {"inputs": ["$a", ["x", "y"]]}}`, want: `[[1, "x"], [2, "y"]]`},
		{name: "zip to the longest with defaults", ref: arrayCpp, cov: cover{op: "$zip"}, doc: arrDoc,
			expr: `{"$zip": {"inputs": ["$a", ["x"]], "useLongestLength": true, "defaults": [0, "-"]}}`, want: `[[1, "x"], [2, "-"], [3, "-"]]`},
		{name: "zip with null", ref: arrayCpp, cov: cover{op: "$zip"}, doc: arrDoc, expr: `{"$zip": {"inputs": ["$a", "$n"]}}`, want: `null`},
		{name: "zip of a string", ref: arrayCpp, cov: cover{op: "$zip"}, doc: arrDoc, expr: `{"$zip": {"inputs": ["$a", "$s"]}}`,
			code: 34468, msg: planExecutor + "$zip found a non-array expression in input: \"x\""},
		{name: "zip of a non-object", ref: exprCpp, cov: cover{op: "$zip"}, expr: `{"$zip": [1]}`,
			code: 34460, msg: invalidProject + "$zip only supports an object as an argument, found array"},
		{name: "zip inputs not an array", ref: exprCpp, cov: cover{op: "$zip"}, expr: `{"$zip": {"inputs": 1}}`,
			code: 34461, msg: invalidProject + "inputs must be an array of expressions, found int"},
		{name: "zip defaults not an array", ref: exprCpp, cov: cover{op: "$zip"}, expr: `{"$zip": {"inputs": [[1]], "defaults": 1}}`,
			code: 34462, msg: invalidProject + "defaults must be an array of expressions, found int"},
		{name: "zip useLongestLength not a bool names the argument's type", ref: exprCpp, cov: cover{op: "$zip"},
			expr: `{"$zip": {"inputs": [[1]], "useLongestLength": 1}}`,
			code: 34463, msg: invalidProject + "useLongestLength must be a bool, found object"},
		{name: "zip with an unknown argument", ref: exprCpp, cov: cover{op: "$zip"}, expr: `{"$zip": {"inputs": [[1]], "x": 1}}`,
			code: 34464, msg: invalidProject + "$zip found an unknown argument: x"},
		{name: "zip of no inputs", ref: exprCpp, cov: cover{op: "$zip"}, expr: `{"$zip": {"inputs": []}}`,
			code: 34465, msg: invalidProject + "$zip requires at least one input array"},
		{name: "zip with empty defaults", ref: exprCpp, cov: cover{op: "$zip"}, doc: arrDoc, expr: `{"$zip": {"inputs": ["$a"], "defaults": []}}`,
			want: `[[1], [2], [3]]`},
		{name: "zip defaults without the longest length", ref: exprCpp, cov: cover{op: "$zip"}, expr: `{"$zip": {"inputs": [[1]], "defaults": [1]}}`,
			code: 34466, msg: invalidProject + "cannot specify defaults unless useLongestLength is true"},
		{name: "zip defaults of another length", ref: exprCpp, cov: cover{op: "$zip"},
			expr: `{"$zip": {"inputs": [[1]], "useLongestLength": true, "defaults": [1, 2]}}`,
			code: 34467, msg: invalidProject + "defaults and inputs must have the same length"},
	})
}

func TestExpressionArrayElementsTrue(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "allElementsTrue", ref: "jstests/aggregation/expressions/all_elements_true.js", cov: cover{op: "$allElementsTrue"}, doc: arrDoc,
			expr: `{"$allElementsTrue": ["$a"]}`, want: `true`},
		{name: "allElementsTrue of an empty array", ref: exprCpp, cov: cover{op: "$allElementsTrue"}, doc: arrDoc,
			expr: `{"$allElementsTrue": ["$e"]}`, want: `true`},
		{name: "allElementsTrue of null", ref: exprCpp, cov: cover{op: "$allElementsTrue"}, doc: arrDoc, expr: `{"$allElementsTrue": ["$n"]}`,
			code: 17040, msg: planExecutor + "$allElementsTrue's argument must be an array, but is null"},
		{name: "anyElementTrue", ref: "jstests/aggregation/expressions/any_element_true.js", cov: cover{op: "$anyElementTrue"}, doc: arrDoc,
			expr: `{"$anyElementTrue": [[0, null, false]]}`, want: `false`},
		{name: "anyElementTrue of missing", ref: exprCpp, cov: cover{op: "$anyElementTrue"}, doc: arrDoc, expr: `{"$anyElementTrue": ["$nope"]}`,
			code: 17041, msg: planExecutor + "$anyElementTrue's argument must be an array, but is missing"},
	})
}

func TestExpressionArrayIteration(t *testing.T) {
	filterJS := "jstests/aggregation/expressions/filter.js"
	runExprCases(t, []exprCase{
		{name: "filter", ref: filterJS, cov: cover{op: "$filter"}, doc: arrDoc,
			expr: `{"$filter": {"input": "$a", "cond": {"$gt": ["$$this", 1]}}}`, want: `[2, 3]`},
		{name: "filter with as and a limit", ref: filterJS, cov: cover{op: "$filter"}, doc: arrDoc,
			expr: `{"$filter": {"input": "$a", "as": "x", "cond": {"$gte": ["$$x", 1]}, "limit": 2}}`, want: `[1, 2]`},
		{name: "filter of null", ref: filterJS, cov: cover{op: "$filter"}, doc: arrDoc,
			expr: `{"$filter": {"input": "$n", "cond": true}}`, want: `null`},
		{name: "filter of a string", ref: filterJS, cov: cover{op: "$filter"}, doc: arrDoc,
			expr: `{"$filter": {"input": "$s", "cond": true}}`,
			code: 28651, msg: planExecutor + "input to $filter must be an array not string"},
		{name: "filter with a zero limit", ref: filterJS, cov: cover{op: "$filter"}, doc: arrDoc,
			expr: `{"$filter": {"input": "$a", "cond": true, "limit": {"$subtract": ["$i", 2]}}}`,
			code: 327392, msg: planExecutor + "$filter: limit must be greater than 0: 0"},
		{name: "filter with a fractional limit", ref: filterJS, cov: cover{op: "$filter"}, doc: arrDoc,
			expr: `{"$filter": {"input": "$a", "cond": true, "limit": {"$divide": ["$i", 4]}}}`,
			code: 327391, msg: planExecutor + "$filter: limit must be represented as a 32-bit integral value: 0.5"},
		{name: "filter without cond", ref: filterJS, cov: cover{op: "$filter"}, expr: `{"$filter": {"input": []}}`,
			code: 28650, msg: invalidProject + "Missing 'cond' parameter to $filter"},
		{name: "filter with an unknown parameter", ref: filterJS, cov: cover{op: "$filter"}, expr: `{"$filter": {"input": [], "cond": 1, "x": 1}}`,
			code: 28647, msg: invalidProject + "Unrecognized parameter to $filter: x"},
		{name: "map of null", ref: mapJS, cov: cover{op: "$map"}, doc: arrDoc, expr: `{"$map": {"input": "$n", "in": 1}}`, want: `null`},
		{name: "reduce", ref: reduceJS, cov: cover{op: "$reduce"}, doc: arrDoc,
			expr: `{"$reduce": {"input": "$a", "initialValue": 0, "in": {"$add": ["$$value", "$$this"]}}}`, want: `6`},
		{name: "reduce of null", ref: reduceJS, cov: cover{op: "$reduce"}, doc: arrDoc,
			expr: `{"$reduce": {"input": "$n", "initialValue": 0, "in": 1}}`, want: `null`},
		{name: "reduce of a string", ref: reduceJS, cov: cover{op: "$reduce"}, doc: arrDoc,
			expr: `{"$reduce": {"input": "$s", "initialValue": 0, "in": 1}}`,
			code: 40080, msg: planExecutor + "$reduce requires that 'input' be an array, found: \"x\""},
		{name: "sortArray ascending", ref: "src/mongo/db/pipeline/expression.cpp (ExpressionSortArray)", cov: cover{op: "$sortArray"}, doc: arrDoc,
			expr: `{"$sortArray": {"input": "$mixed", "sortBy": 1}}`, want: `[null, 1, 2, 3, "b", {"x": 1}]`},
		{name: "sortArray by a field", ref: exprCpp, cov: cover{op: "$sortArray"},
			expr: `{"$sortArray": {"input": [{"k": 2}, {"k": 1}, {"j": 0}], "sortBy": {"k": -1}}}`, want: `[{"k": 2}, {"k": 1}, {"j": 0}]`},
		{name: "sortArray of null", ref: arrayCpp, cov: cover{op: "$sortArray"}, doc: arrDoc,
			expr: `{"$sortArray": {"input": "$n", "sortBy": 1}}`, want: `null`},
		{name: "sortArray of a string", ref: arrayCpp, cov: cover{op: "$sortArray"}, doc: arrDoc,
			expr: `{"$sortArray": {"input": "$s", "sortBy": 1}}`,
			code: 2942504, msg: planExecutor + "The input argument to $sortArray must be an array, but was of type: string"},
		{name: "sortArray of a non-object", ref: exprCpp, cov: cover{op: "$sortArray"}, expr: `{"$sortArray": 1}`,
			code: 2942500, msg: invalidProject + "$sortArray requires an object as an argument, found: int"},
		{name: "sortArray by an empty pattern", ref: exprCpp + " (createSortSpecObject)", cov: cover{op: "$sortArray"},
			expr: `{"$sortArray": {"input": [], "sortBy": {}}}`,
			code: 2942505, msg: invalidProject + "BadValue: The $sort pattern is empty when it should be a set of fields."},
		{name: "sortArray by 2", ref: exprCpp + " (createSortSpecObject)", cov: cover{op: "$sortArray"},
			expr: `{"$sortArray": {"input": [], "sortBy": 2}}`,
			code: 2942506, msg: invalidProject + "The $sort element value must be either 1 or -1"},
		{name: "sortArray by a string", ref: exprCpp + " (createSortSpecObject)", cov: cover{op: "$sortArray"},
			expr: `{"$sortArray": {"input": [], "sortBy": "a"}}`,
			code: 2942507, msg: invalidProject + "The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields"},
		{name: "sortArray without sortBy", ref: exprCpp, cov: cover{op: "$sortArray"}, expr: `{"$sortArray": {"input": []}}`,
			code: 2942503, msg: invalidProject + "$sortArray requires 'sortBy' to be specified"},
	})
}

func TestExpressionArrayN(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "firstN", ref: multiCpp, cov: cover{op: "$firstN"}, doc: arrDoc, expr: `{"$firstN": {"n": 2, "input": "$mixed"}}`, want: `[3, null]`},
		{name: "lastN past the length", ref: multiCpp, cov: cover{op: "$lastN"}, doc: arrDoc, expr: `{"$lastN": {"n": 5, "input": "$a"}}`, want: `[1, 2, 3]`},
		{name: "minN skips null and sorts ascending", ref: multiCpp, cov: cover{op: "$minN"}, doc: arrDoc,
			expr: `{"$minN": {"n": 3, "input": "$mixed"}}`, want: `[1, 2, 3]`},
		{name: "maxN sorts descending", ref: multiCpp, cov: cover{op: "$maxN"}, doc: arrDoc,
			expr: `{"$maxN": {"n": 2, "input": "$mixed"}}`, want: `[{"x": 1}, "b"]`},
		{name: "maxN with an integral double n", ref: multiCpp, cov: cover{op: "$maxN", col: types}, doc: arrDoc,
			expr: `{"$maxN": {"n": 1.0, "input": "$a"}}`, want: `[3]`},
		{name: "minN of null input", ref: multiCpp, cov: cover{op: "$minN"}, doc: arrDoc, expr: `{"$minN": {"n": 1, "input": "$n"}}`,
			code: 5788200, msg: planExecutor + "Input must be an array"},
		{name: "maxN with a fractional n", ref: multiCpp, cov: cover{op: "$maxN"}, doc: arrDoc, expr: `{"$maxN": {"n": {"$divide": ["$i", 4]}, "input": "$a"}}`,
			code: 5787903, msg: planExecutor + "Value for 'n' must be of integral type, but found 0.5"},
		{name: "firstN with a string n", ref: multiCpp, cov: cover{op: "$firstN"}, doc: arrDoc, expr: `{"$firstN": {"n": "$s", "input": "$a"}}`,
			code: 5787902, msg: planExecutor + "Value for 'n' must be of integral type, but found \"x\""},
		{name: "lastN with a zero n", ref: multiCpp, cov: cover{op: "$lastN"}, doc: arrDoc, expr: `{"$lastN": {"n": {"$subtract": ["$i", 2]}, "input": "$a"}}`,
			code: 5787908, msg: planExecutor + "'n' must be greater than 0, found 0"},
		{name: "minN of a non-object", ref: multiCpp, cov: cover{op: "$minN"}, expr: `{"$minN": 1}`,
			code: 5787900, msg: invalidProject + "specification must be an object; found $minN: 1"},
		{name: "firstN of a non-object", ref: multiCpp, cov: cover{op: "$firstN"}, expr: `{"$firstN": [1]}`,
			code: 5787801, msg: invalidProject + "specification must be an object; found $firstN: [ 1 ]"},
		{name: "maxN with an unknown argument", ref: multiCpp, cov: cover{op: "$maxN"}, expr: `{"$maxN": {"n": 1, "input": [], "x": 1}}`,
			code: 5787901, msg: invalidProject + "Unknown argument for 'n' operator: x"},
		{name: "minN without n", ref: multiCpp, cov: cover{op: "$minN"}, expr: `{"$minN": {"input": []}}`,
			code: 5787906, msg: invalidProject + "Missing value for 'n'"},
		{name: "lastN without input", ref: multiCpp, cov: cover{op: "$lastN"}, expr: `{"$lastN": {"n": 1}}`,
			code: 5787907, msg: invalidProject + "Missing value for 'input'"},
	})
}

func TestExpressionSets(t *testing.T) {
	setJS := "jstests/aggregation/expressions/set.js"
	runExprCases(t, []exprCase{
		{name: "setUnion is sorted and distinct", ref: arrayCpp, cov: cover{op: "$setUnion"}, doc: arrDoc,
			expr: `{"$setUnion": ["$a", [3, 0, 1.0]]}`, want: `[0, 1, 2, 3]`},
		{name: "setUnion with null", ref: arrayCpp, cov: cover{op: "$setUnion"}, doc: arrDoc, expr: `{"$setUnion": ["$a", "$n"]}`, want: `null`},
		{name: "setUnion of a string", ref: arrayCpp, cov: cover{op: "$setUnion"}, doc: arrDoc, expr: `{"$setUnion": ["$a", "$s"]}`,
			code: 17043, msg: planExecutor + "All operands of $setUnion must be arrays. One argument is of type: string"},
		{name: "setIntersection", ref: arrayCpp, cov: cover{op: "$setIntersection"}, doc: arrDoc,
			expr: `{"$setIntersection": ["$a", [3, 2, 9, 2]]}`, want: `[2, 3]`},
		{name: "setIntersection of nothing", ref: arrayCpp, cov: cover{op: "$setIntersection"}, doc: arrDoc, expr: `{"$setIntersection": []}`, want: `[]`},
		{name: "setIntersection of a string", ref: arrayCpp, cov: cover{op: "$setIntersection"}, doc: arrDoc, expr: `{"$setIntersection": ["$s"]}`,
			code: 17047, msg: planExecutor + "All operands of $setIntersection must be arrays. One argument is of type: string"},
		{name: "setDifference keeps the first operand's order", ref: arrayCpp, cov: cover{op: "$setDifference"}, doc: arrDoc,
			expr: `{"$setDifference": [[3, 1, 3, 2], [2]]}`, want: `[3, 1]`},
		{name: "setDifference with null", ref: arrayCpp, cov: cover{op: "$setDifference"}, doc: arrDoc, expr: `{"$setDifference": ["$n", "$s"]}`, want: `null`},
		{name: "setDifference of a string", ref: arrayCpp, cov: cover{op: "$setDifference"}, doc: arrDoc, expr: `{"$setDifference": ["$a", "$s"]}`,
			code: 17049, msg: planExecutor + "both operands of $setDifference must be arrays. Second argument is of type: string"},
		{name: "setEquals ignores order and repeats", ref: arrayCpp, cov: cover{op: "$setEquals"}, doc: arrDoc,
			expr: `{"$setEquals": ["$a", [3, 2, 1, 1]]}`, want: `true`},
		{name: "setEquals of null", ref: arrayCpp, cov: cover{op: "$setEquals"}, doc: arrDoc, expr: `{"$setEquals": ["$a", "$n"]}`,
			code: 17044, msg: planExecutor + "All operands of $setEquals must be arrays. 2-th argument is of type: null"},
		{name: "setEquals of a constant non-array", ref: exprCpp + " (ExpressionSetEquals::optimize)", cov: cover{op: "$setEquals"}, doc: arrDoc,
			expr: `{"$setEquals": ["$a", 1]}`,
			code: 5887502, msg: optimizeError + "All operands of $setEquals must be arrays. 2-th argument is of type: int"},
		{name: "setEquals needs two", ref: exprCpp, cov: cover{op: "$setEquals"}, expr: `{"$setEquals": [[1]]}`,
			code: 17045, msg: invalidProject + "$setEquals needs at least two arguments had: 1"},
		{name: "setIsSubset", ref: arrayCpp, cov: cover{op: "$setIsSubset"}, doc: arrDoc, expr: `{"$setIsSubset": [[1, 1], "$a"]}`, want: `true`},
		{name: "setIsSubset of null", ref: arrayCpp, cov: cover{op: "$setIsSubset"}, doc: arrDoc, expr: `{"$setIsSubset": ["$n", "$a"]}`,
			code: 17046, msg: planExecutor + "both operands of $setIsSubset must be arrays. First argument is of type: null"},
		{name: "setIsSubset of a constant non-array", ref: exprCpp + " (ExpressionSetIsSubset::optimize)", cov: cover{op: "$setIsSubset"}, doc: arrDoc,
			expr: `{"$setIsSubset": ["$a", "b"]}`,
			code: 17311, msg: optimizeError + "both operands of $setIsSubset must be arrays. Second argument is of type: string"},
		{name: "setIsSubset takes two", ref: setJS + "; " + exprCpp, cov: cover{op: "$setIsSubset"}, expr: `{"$setIsSubset": [[1]]}`,
			code: 16020, msg: invalidProject + "Expression $setIsSubset takes exactly 2 arguments. 1 were passed in."},
	})
}

// typesDoc holds one value of each numeric type and the other types the
// array and set operators are given.
const typesDoc = `{"_id": 0, "i": 2, "l": {"$numberLong": "2"}, "d": 2.0, "dec": {"$numberDecimal": "2"}, "o": {"x": 1}, "s": "x", "n": null,
	"a": [1, 2, 3], "mixed": [2, {"$numberLong": "1"}, 1.5, {"$numberDecimal": "0.5"}]}`

// The BSON types the array operators take and give: elements keep their
// types, numbers of different types compare equal, and an argument of the
// wrong type is named by its type.
func TestExpressionArrayTypes(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "concatArrays keeps each element's type", ref: arrayCpp, cov: cover{op: "$concatArrays", col: types}, doc: typesDoc,
			expr: `{"$concatArrays": [["$l"], ["$d", "$dec"]]}`, want: `[{"$numberLong": "2"}, 2.0, {"$numberDecimal": "2"}]`},
		{name: "concatArrays of a document", ref: arrayCpp, cov: cover{op: "$concatArrays", col: types}, doc: typesDoc,
			expr: `{"$concatArrays": ["$a", "$o"]}`, code: 28664, msg: planExecutor + "$concatArrays only supports arrays, not object"},
		{name: "concatArrays folds consecutive constants while optimizing", ref: exprCpp + " (ExpressionNary::optimize: $concatArrays is associative)",
			cov: cover{op: "$concatArrays"}, doc: typesDoc, expr: `{"$concatArrays": ["$n", [1], "x"]}`,
			code: 28664, msg: optimizeError + "$concatArrays only supports arrays, not string"},
		{name: "concatArrays keeps a lone constant in place", ref: exprCpp + " (ExpressionNary::optimize: $concatArrays is not commutative)",
			cov: cover{op: "$concatArrays"}, doc: typesDoc, expr: `{"$concatArrays": [[0], "$a", [4, 5]]}`, want: `[0, 1, 2, 3, 4, 5]`},
		{name: "filter keeps what coerces to true", ref: valueCpp + " (Value::coerceToBool); " + exprCpp + " (ExpressionFilter)",
			cov:  cover{op: "$filter", col: types},
			expr: `{"$filter": {"input": [0, "", null, {"$numberDecimal": "0"}, [], false, {"$numberLong": "0"}, 0.0, {}], "cond": "$$this"}}`,
			want: `["", [], {}]`},
		{name: "filter with a null limit has none", ref: arrayCpp + " (ExpressionFilter: a nullish limit is no limit)", cov: cover{op: "$filter", col: types},
			doc: typesDoc, expr: `{"$filter": {"input": "$a", "cond": true, "limit": "$n"}}`, want: `[1, 2, 3]`},
		{name: "filter with a long limit", ref: arrayCpp + " (ExpressionFilter: limit must be integral)", cov: cover{op: "$filter", col: types},
			doc: typesDoc, expr: `{"$filter": {"input": "$a", "cond": true, "limit": "$l"}}`, want: `[1, 2]`},
		{name: "first keeps the element's type", ref: arrayCpp, cov: cover{op: "$first", col: types}, doc: typesDoc,
			expr: `{"$first": "$mixed"}`, want: `2`},
		{name: "first of a document", ref: arrayCpp, cov: cover{op: "$first", col: types}, doc: typesDoc,
			expr: `{"$first": "$o"}`, code: 28689, msg: planExecutor + "$first's argument must be an array, but is object"},
		{name: "last keeps the element's type", ref: arrayCpp, cov: cover{op: "$last", col: types}, doc: typesDoc,
			expr: `{"$last": "$mixed"}`, want: `{"$numberDecimal": "0.5"}`},
		{name: "firstN with a long n", ref: multiCpp, cov: cover{op: "$firstN", col: types}, doc: typesDoc,
			expr: `{"$firstN": {"n": "$l", "input": "$mixed"}}`, want: `[2, {"$numberLong": "1"}]`},
		{name: "lastN with a decimal n", ref: multiCpp, cov: cover{op: "$lastN", col: types}, doc: typesDoc,
			expr: `{"$lastN": {"n": "$dec", "input": "$mixed"}}`, want: `[1.5, {"$numberDecimal": "0.5"}]`},
		{name: "minN orders numbers across types", ref: multiCpp, cov: cover{op: "$minN", col: types}, doc: typesDoc,
			expr: `{"$minN": {"n": "$l", "input": "$mixed"}}`, want: `[{"$numberDecimal": "0.5"}, {"$numberLong": "1"}]`},
		{name: "in compares numbers across types", ref: arrayCpp + "; " + valueCpp, cov: cover{op: "$in", col: types}, doc: typesDoc,
			expr: `{"$in": ["$dec", ["$l"]]}`, want: `true`},
		{name: "in a document", ref: "jstests/aggregation/expressions/in.js", cov: cover{op: "$in", col: types}, doc: typesDoc,
			expr: `{"$in": [1, "$o"]}`, code: 40081, msg: planExecutor + "$in requires an array as a second argument, found: object"},
		{name: "indexOfArray finds a number of another type, from a long start", ref: arrayCpp, cov: cover{op: "$indexOfArray", col: types},
			doc: typesDoc, expr: `{"$indexOfArray": [[2, 1, 2.0], "$dec", "$l"]}`, want: `2`},
		{name: "isArray of a document", ref: arrayCpp, cov: cover{op: "$isArray", col: types}, doc: typesDoc,
			expr: `{"$isArray": ["$o"]}`, want: `false`},
		{name: "reverseArray keeps the types", ref: arrayCpp, cov: cover{op: "$reverseArray", col: types}, doc: typesDoc,
			expr: `{"$reverseArray": "$mixed"}`, want: `[{"$numberDecimal": "0.5"}, 1.5, {"$numberLong": "1"}, 2]`},
		{name: "reverseArray of a document", ref: arrayCpp, cov: cover{op: "$reverseArray", col: types}, doc: typesDoc,
			expr: `{"$reverseArray": "$o"}`, code: 34435, msg: planExecutor + "The argument to $reverseArray must be an array, but was of type: object"},
		{name: "slice with long and double bounds", ref: arrayCpp, cov: cover{op: "$slice", col: types}, doc: typesDoc,
			expr: `{"$slice": ["$mixed", "$d", "$l"]}`, want: `[1.5, {"$numberDecimal": "0.5"}]`},
		{name: "sortArray orders numbers across types", ref: arrayCpp + " (ExpressionSortArray); " + valueCpp,
			cov: cover{op: "$sortArray", col: types}, doc: typesDoc,
			expr: `{"$sortArray": {"input": "$mixed", "sortBy": -1}}`, want: `[2, 1.5, {"$numberLong": "1"}, {"$numberDecimal": "0.5"}]`},
		{name: "zip keeps the types", ref: arrayCpp, cov: cover{op: "$zip", col: types}, doc: typesDoc,
			expr: `{"$zip": {"inputs": ["$mixed", ["$l", "$dec"]]}}`,
			want: `[[2, {"$numberLong": "2"}], [{"$numberLong": "1"}, {"$numberDecimal": "2"}]]`},
		{name: "map of a document", ref: mapJS, cov: cover{op: "$map", col: types}, doc: typesDoc,
			expr: `{"$map": {"input": "$o", "in": 1}}`, code: 16883, msg: planExecutor + "input to $map must be an array not object"},
		{name: "map keeps what in gives", ref: mapJS, cov: cover{op: "$map", col: types}, doc: typesDoc,
			expr: `{"$map": {"input": "$mixed", "as": "v", "in": ["$$v"]}}`,
			want: `[[2], [{"$numberLong": "1"}], [1.5], [{"$numberDecimal": "0.5"}]]`},
		{name: "reduce from a long initial value", ref: reduceJS, cov: cover{op: "$reduce", col: types}, doc: typesDoc,
			expr: `{"$reduce": {"input": "$a", "initialValue": "$l", "in": {"$add": ["$$value", "$$this"]}}}`, want: `{"$numberLong": "8"}`},
		{name: "allElementsTrue: a decimal zero is false", ref: valueCpp + " (Value::coerceToBool)", cov: cover{op: "$allElementsTrue", col: types},
			expr: `{"$allElementsTrue": [[1, "", [], {"$numberDecimal": "0.00"}]]}`, want: `false`},
		{name: "anyElementTrue: an empty string is true", ref: valueCpp + " (Value::coerceToBool)", cov: cover{op: "$anyElementTrue", col: types},
			expr: `{"$anyElementTrue": [[{"$numberLong": "0"}, 0.0, null, ""]]}`, want: `true`},
	})
}

// The set operators compare numbers across types; a value the result keeps
// is the one the operator's ordered set held first.
func TestExpressionSetTypes(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "setUnion keeps the first of equal numbers", ref: arrayCpp + " (ExpressionSetUnion: an ordered set)", cov: cover{op: "$setUnion", col: types},
			doc: typesDoc, expr: `{"$setUnion": [["$d"], ["$i", "$l"]]}`, want: `[2.0]`},
		{name: "setIntersection keeps the smaller set's value", ref: arrayCpp + " (ExpressionSetIntersection swaps to iterate the smaller set)",
			cov: cover{op: "$setIntersection", col: types}, doc: typesDoc,
			expr: `{"$setIntersection": [[1, "$i"], ["$dec"]]}`, want: `[{"$numberDecimal": "2"}]`},
		{name: "setDifference removes equal numbers of other types", ref: arrayCpp, cov: cover{op: "$setDifference", col: types}, doc: typesDoc,
			expr: `{"$setDifference": [[1, "2", "$l"], ["$d"]]}`, want: `[1, "2"]`},
		{name: "setEquals across numeric types", ref: arrayCpp, cov: cover{op: "$setEquals", col: types}, doc: typesDoc,
			expr: `{"$setEquals": [["$i", 1], [{"$numberDecimal": "1.0"}, "$l", "$d"]]}`, want: `true`},
		{name: "setIsSubset across numeric types", ref: arrayCpp, cov: cover{op: "$setIsSubset", col: types}, doc: typesDoc,
			expr: `{"$setIsSubset": [["$l", "$dec"], ["$d"]]}`, want: `true`},
		{name: "setUnion meets a constant operand last", ref: exprCpp + " (ExpressionNary::optimize moves a commutative operator's constants to the back)",
			cov: cover{op: "$setUnion", col: types}, doc: typesDoc, expr: `{"$setUnion": [[2.0], ["$i"]]}`, want: `[2]`},
		{name: "setUnion folds its constants while optimizing", ref: exprCpp + " (ExpressionNary::optimize evaluates the gathered constants)",
			cov: cover{op: "$setUnion"}, doc: typesDoc, expr: `{"$setUnion": ["$n", [1], "x"]}`,
			code: 17043, msg: optimizeError + "All operands of $setUnion must be arrays. One argument is of type: string"},
		{name: "setUnion is null at a null operand before reading the next", ref: arrayCpp + " (ExpressionSetUnion evaluates operands in order)",
			cov: cover{op: "$setUnion"}, doc: `{"_id": 0, "n": null, "z": 0}`,
			expr: `{"$setUnion": [[1], "$n", {"$divide": [1, "$z"]}]}`, want: `null`},
	})
}

// The iterating operators are not evaluated while a pipeline is
// optimized, even over constants: ExpressionMap, ExpressionFilter,
// ExpressionReduce and ExpressionZip optimize only their arguments, and
// ExpressionFromAccumulatorN ($firstN, $lastN, $minN, $maxN) not even
// those. Their errors come from the executor, for each document.
func TestExpressionArrayOptimize(t *testing.T) {
	only := exprCpp + " (ExpressionMap/Filter/Reduce/Zip::optimize optimize their arguments only)"
	none := "src/mongo/db/pipeline/expression.h (ExpressionFromAccumulatorN keeps Expression::optimize, which returns this)"
	runExprCases(t, []exprCase{
		{name: "map of a constant string", ref: only, cov: cover{op: "$map"}, expr: `{"$map": {"input": "abc", "in": 1}}`,
			code: 16883, msg: planExecutor + "input to $map must be an array not string"},
		{name: "map's in is optimized", ref: only, cov: cover{op: "$map"}, doc: arrDoc, expr: `{"$map": {"input": "$a", "in": {"$divide": [1, 0]}}}`,
			code: 2, msg: optimizeError + "can't $divide by zero"},
		{name: "filter of a constant string", ref: only, cov: cover{op: "$filter"}, expr: `{"$filter": {"input": "abc", "cond": true}}`,
			code: 28651, msg: planExecutor + "input to $filter must be an array not string"},
		{name: "reduce of a constant string", ref: only, cov: cover{op: "$reduce"}, expr: `{"$reduce": {"input": "abc", "initialValue": 0, "in": 1}}`,
			code: 40080, msg: planExecutor + "$reduce requires that 'input' be an array, found: \"abc\""},
		{name: "zip of a constant string", ref: only, cov: cover{op: "$zip"}, expr: `{"$zip": {"inputs": ["abc"]}}`,
			code: 34468, msg: planExecutor + "$zip found a non-array expression in input: \"abc\""},
		{name: "firstN of a constant string", ref: none, cov: cover{op: "$firstN"}, expr: `{"$firstN": {"n": 1, "input": "abc"}}`,
			code: 5788200, msg: planExecutor + "Input must be an array"},
		{name: "lastN's arguments are not optimized", ref: none, cov: cover{op: "$lastN"}, expr: `{"$lastN": {"n": 1, "input": [{"$divide": [1, 0]}]}}`,
			code: 2, msg: planExecutor + "can't $divide by zero"},
	})
}
