package compat_test

import "testing"

// Sweep 45 wave 2, "strarr": string expressions one by one: null and
// missing, the BSON types each one coerces or refuses, result types, and
// every argument check in the order mongod makes it. Sources:
// src/mongo/db/exec/expression/evaluate_string.cpp ($strcasecmp,
// $substrCP, $toUpper, $binarySize, $indexOfBytes, $indexOfCP),
// src/mongo/db/exec/expression/evaluate_regex.cpp ($regexFind,
// $regexFindAll, $regexMatch: extractRegexAndOptions, extractInputField,
// buildInitialState), src/mongo/db/pipeline/expression.cpp ($split,
// $replaceOne/$replaceAll, parsers and arity) and
// src/mongo/db/exec/document_value/value.cpp (coerceToString).

const (
	sa45RegexCpp = "src/mongo/db/exec/expression/evaluate_regex.cpp"
	sa45Doc      = `{"_id": 0, "n": null, "s": "abc", "e": "aéb", "i": 5, "arr": [1, 2], "o": {"a": 1}, "big": {"$numberLong": "3000000001"}}`
)

func TestDeep45StrarrSplit(t *testing.T) {
	ref := exprCpp + " (ExpressionSplit::evaluate); jstests/aggregation/expressions/split.js"
	runExprCases(t, []exprCase{
		{name: "separators at both ends give empty strings", ref: ref, expr: `{"$split": [",a,,", ","]}`, want: `["", "a", "", ""]`},
		{name: "an empty input is one empty string", ref: ref, expr: `{"$split": ["", ","]}`, want: `[""]`},
		{name: "a multi-byte separator", ref: ref, doc: sa45Doc, expr: `{"$split": ["$e", "é"]}`, want: `["a", "b"]`},
		{name: "missing input", ref: ref, doc: sa45Doc, expr: `{"$split": ["$nope", ","]}`, want: `null`},
		{name: "a null separator wins over a bad input", ref: ref, cov: cover{op: "$split", col: types}, expr: `{"$split": [1, null]}`, want: `null`},
		{name: "a null input wins over a bad separator", ref: ref, cov: cover{op: "$split", col: types}, expr: `{"$split": [null, 1]}`, want: `null`},
		{name: "the input is checked before the separator", ref: ref, expr: `{"$split": [1, 2]}`,
			code: 40085, msg: "Failed to optimize pipeline :: caused by :: $split requires an expression that evaluates to a string as a first argument, found: int"},
		{name: "a regex separator", ref: ref, cov: cover{op: "$split", col: types}, expr: `{"$split": ["a", {"$regularExpression": {"pattern": "a", "options": ""}}]}`,
			code: 40086, msg: "Failed to optimize pipeline :: caused by :: $split requires an expression that evaluates to a string as a second argument, found: regex"},
		{name: "an empty separator", ref: ref, doc: sa45Doc, expr: `{"$split": ["$s", ""]}`,
			code: 40087, msg: planExecutor + "$split requires a non-empty separator"},
		{name: "one argument", ref: ref, expr: `{"$split": ["a"]}`,
			code: 16020, msg: invalidProject + "Expression $split takes exactly 2 arguments. 1 were passed in."},
	})
}

func TestDeep45StrarrRegex(t *testing.T) {
	ref := sa45RegexCpp + " (extractRegexAndOptions, buildInitialState); jstests/aggregation/expressions/regex.js"
	find := sa45RegexCpp + " (nextMatch, evaluate ExpressionRegexFindAll)"
	runExprCases(t, []exprCase{
		{name: "find reports unmatched groups as null", ref: find, expr: `{"$regexFind": {"input": "xaby", "regex": "(a)(b)?(c)?"}}`,
			want: `{"match": "ab", "idx": 1, "captures": ["a", "b", null]}`},
		{name: "find counts idx in code points", ref: find, doc: sa45Doc, expr: `{"$regexFind": {"input": "$e", "regex": "b"}}`,
			want: `{"match": "b", "idx": 2, "captures": []}`},
		{name: "find of an empty pattern in an empty input", ref: find, expr: `{"$regexFind": {"input": "", "regex": ""}}`,
			want: `{"match": "", "idx": 0, "captures": []}`},
		{name: "find without a match", ref: find, expr: `{"$regexFind": {"input": "x", "regex": "a"}}`, want: `null`},
		{name: "find of a missing input", ref: find, doc: sa45Doc, expr: `{"$regexFind": {"input": "$nope", "regex": "a"}}`, want: `null`},
		{name: "findAll of an empty pattern stops before the end", ref: find, expr: `{"$regexFindAll": {"input": "aaa", "regex": ""}}`,
			want: `[{"match": "", "idx": 0, "captures": []}, {"match": "", "idx": 1, "captures": []}, {"match": "", "idx": 2, "captures": []}]`},
		{name: "findAll of an empty pattern in an empty input matches once", ref: find, expr: `{"$regexFindAll": {"input": "", "regex": ""}}`,
			want: `[{"match": "", "idx": 0, "captures": []}]`},
		{name: "findAll steps a whole character past an empty match", ref: find, doc: sa45Doc, expr: `{"$regexFindAll": {"input": "$e", "regex": "b|"}}`,
			want: `[{"match": "", "idx": 0, "captures": []}, {"match": "", "idx": 1, "captures": []}, {"match": "b", "idx": 2, "captures": []}]`},
		{name: "findAll of null input is an empty array", ref: find, expr: `{"$regexFindAll": {"input": null, "regex": "a"}}`, want: `[]`},
		{name: "match of null input is false", ref: ref, expr: `{"$regexMatch": {"input": null, "regex": "a"}}`, want: `false`},
		{name: "match of a null regex is false", ref: ref, expr: `{"$regexMatch": {"input": "a", "regex": null}}`, want: `false`},
		{name: "a regex object's flags apply", ref: ref, cov: cover{op: "$regexMatch", col: types},
			expr: `{"$regexMatch": {"input": "A", "regex": {"$regularExpression": {"pattern": "a", "options": "i"}}}}`, want: `true`},
		{name: "a null options with a flagged regex object", ref: ref, cov: cover{op: "$regexMatch", col: types},
			expr: `{"$regexMatch": {"input": "A", "regex": {"$regularExpression": {"pattern": "a", "options": "i"}}, "options": null}}`, want: `true`},
		{name: "the x flag ignores pattern whitespace", ref: ref, expr: `{"$regexMatch": {"input": "ab", "regex": "a b", "options": "x"}}`, want: `true`},
		{name: "the s flag lets dot match a newline", ref: ref, expr: `{"$regexMatch": {"input": "a\nb", "regex": "a.b", "options": "s"}}`, want: `true`},
		{name: "the u flag is accepted", ref: ref, expr: `{"$regexMatch": {"input": "a", "regex": "a", "options": "u"}}`, want: `true`},
		{name: "input is checked even when the regex is null", ref: ref + " (extractInputField)", cov: cover{op: "$regexMatch", col: types},
			expr: `{"$regexMatch": {"input": 1, "regex": null}}`,
			code: 51104, msg: "Failed to optimize pipeline :: caused by :: $regexMatch needs 'input' to be of type string"},
		{name: "a regex-typed input", ref: ref, cov: cover{op: "$regexFind", col: types},
			expr: `{"$regexFind": {"input": {"$regularExpression": {"pattern": "a", "options": ""}}, "regex": "a"}}`,
			code: 51104, msg: "Failed to optimize pipeline :: caused by :: $regexFind needs 'input' to be of type string"},
		{name: "a numeric regex", ref: ref, cov: cover{op: "$regexFindAll", col: types}, expr: `{"$regexFindAll": {"input": "a", "regex": 1}}`,
			code: 51105, msg: invalidProject + "$regexFindAll needs 'regex' to be of type string or regex"},
		{name: "an array regex at run time", ref: ref, doc: sa45Doc, expr: `{"$regexMatch": {"input": "a", "regex": "$arr"}}`,
			code: 51105, msg: planExecutor + "$regexMatch needs 'regex' to be of type string or regex"},
		{name: "numeric options", ref: ref, expr: `{"$regexMatch": {"input": "a", "regex": "a", "options": 1}}`,
			code: 51106, msg: invalidProject + "$regexMatch needs 'options' to be of type string"},
		{name: "even empty options clash with a flagged regex object", ref: ref,
			expr: `{"$regexMatch": {"input": "a", "regex": {"$regularExpression": {"pattern": "a", "options": "i"}}, "options": ""}}`,
			code: 51107, msg: invalidProject + "$regexMatch: found regex option(s) specified in both 'regex' and 'option' fields"},
		{name: "an unknown flag is found before the pattern compiles", ref: ref + " (compile: flagsToOptions before pcre)",
			expr: `{"$regexFind": {"input": "a", "regex": "(", "options": "z"}}`,
			code: 51108, msg: invalidProject + "$regexFind invalid flag in regex options: z"},
		{name: "an unknown flag at run time", ref: ref, doc: sa45Doc, expr: `{"$regexMatch": {"input": "a", "regex": "$s", "options": "q"}}`,
			code: 51108, msg: planExecutor + "$regexMatch invalid flag in regex options: q"},
		{name: "a NUL in the pattern", ref: ref, expr: `{"$regexMatch": {"input": "a", "regex": "a\u0000"}}`,
			code: 51109, msg: invalidProject + "$regexMatch: regular expression cannot contain an embedded null byte"},
		{name: "a NUL in the options", ref: ref, expr: `{"$regexMatch": {"input": "a", "regex": "a", "options": "\u0000"}}`,
			code: 51110, msg: invalidProject + "$regexMatch: regular expression options cannot contain an embedded null byte"},
		{name: "a pattern that does not compile", ref: ref, expr: `{"$regexMatch": {"input": "a", "regex": "("}}`,
			code: 51111, msg: invalidProject + "Invalid Regex in $regexMatch: missing closing parenthesis"},
		{name: "input is required", ref: exprCpp + " (CommonRegexParse)", expr: `{"$regexFind": {"regex": "a"}}`,
			code: 31022, msg: invalidProject + "$regexFind requires 'input' parameter"},
		{name: "regex is required", ref: exprCpp + " (CommonRegexParse)", expr: `{"$regexFindAll": {"input": "a"}}`,
			code: 31023, msg: invalidProject + "$regexFindAll requires 'regex' parameter"},
		{name: "an unknown argument", ref: exprCpp + " (CommonRegexParse)", expr: `{"$regexMatch": {"input": "a", "regex": "a", "flags": "i"}}`,
			code: 31024, msg: invalidProject + "$regexMatch found an unknown argument: flags"},
		{name: "a string argument", ref: exprCpp + " (CommonRegexParse)", expr: `{"$regexFind": "a"}`,
			code: 51103, msg: invalidProject + "$regexFind expects an object of named arguments but found: string"},
	})
}

func TestDeep45StrarrReplace(t *testing.T) {
	ref := exprCpp + " (ExpressionReplaceBase::evaluate, ExpressionReplaceOne/All::_doEval, parseExpressionReplaceBase)"
	runExprCases(t, []exprCase{
		{name: "replaceOne takes the first", ref: ref, expr: `{"$replaceOne": {"input": "aXbX", "find": "X", "replacement": "Y"}}`, want: `"aYbX"`},
		{name: "replaceAll takes every one", ref: ref, expr: `{"$replaceAll": {"input": "aXbX", "find": "X", "replacement": "Y"}}`, want: `"aYbY"`},
		{name: "replaceOne of an empty find prefixes", ref: ref, expr: `{"$replaceOne": {"input": "abc", "find": "", "replacement": "-"}}`, want: `"-abc"`},
		{name: "replaceAll of an empty find surrounds every character", ref: ref, doc: sa45Doc,
			expr: `{"$replaceAll": {"input": "$e", "find": "", "replacement": "-"}}`, want: `"-a-é-b-"`},
		{name: "replaceAll of empty in empty", ref: ref, expr: `{"$replaceAll": {"input": "", "find": "", "replacement": "-"}}`, want: `"-"`},
		{name: "a missing find", ref: ref, doc: sa45Doc, expr: `{"$replaceAll": {"input": "a", "find": "$nope", "replacement": "b"}}`, want: `null`},
		{name: "a bad find is reported although input is null", ref: ref, cov: cover{op: "$replaceAll", col: types},
			expr: `{"$replaceAll": {"input": null, "find": 1, "replacement": "-"}}`,
			code: 51745, msg: "Failed to optimize pipeline :: caused by :: $replaceAll requires that 'find' be a string, found: 1"},
		{name: "input is checked first", ref: ref, cov: cover{op: "$replaceOne", col: types},
			expr: `{"$replaceOne": {"input": {"$literal": {"a": 1}}, "find": 1, "replacement": 2}}`,
			code: 51746, msg: "Failed to optimize pipeline :: caused by :: $replaceOne requires that 'input' be a string, found: {a: 1}"},
		{name: "a regex find is not a string", ref: ref, cov: cover{op: "$replaceOne", col: types},
			expr: `{"$replaceOne": {"input": "a", "find": {"$regularExpression": {"pattern": "a", "options": ""}}, "replacement": "b"}}`,
			code: 51745, msg: "Failed to optimize pipeline :: caused by :: $replaceOne requires that 'find' be a string, found: /a/"},
		{name: "a numeric replacement", ref: ref, doc: sa45Doc, expr: `{"$replaceOne": {"input": "$s", "find": "a", "replacement": "$i"}}`,
			code: 51744, msg: planExecutor + "$replaceOne requires that 'replacement' be a string, found: 5"},
		{name: "a string argument", ref: ref, expr: `{"$replaceOne": "a"}`,
			code: 51751, msg: invalidProject + "$replaceOne requires an object as an argument, found: string"},
		{name: "an unknown argument", ref: ref, expr: `{"$replaceOne": {"input": "a", "find": "a", "replacement": "b", "x": 1}}`,
			code: 51750, msg: invalidProject + "$replaceOne found an unknown argument: x"},
		{name: "input is required", ref: ref, expr: `{"$replaceOne": {"find": "a", "replacement": "b"}}`,
			code: 51749, msg: invalidProject + "$replaceOne requires 'input' to be specified"},
		{name: "find is required", ref: ref, expr: `{"$replaceAll": {"input": "a", "replacement": "b"}}`,
			code: 51748, msg: invalidProject + "$replaceAll requires 'find' to be specified"},
		{name: "replacement is required", ref: ref, expr: `{"$replaceOne": {"input": "a", "find": "a"}}`,
			code: 51747, msg: invalidProject + "$replaceOne requires 'replacement' to be specified"},
	})
}

func TestDeep45StrarrIndexOf(t *testing.T) {
	ref := d45StringCpp + " (ExpressionIndexOfBytes, ExpressionIndexOfCP, uassertIfNotIntegralAndNonNegative); jstests/aggregation/expressions/indexof_codepoints.js"
	runExprCases(t, []exprCase{
		{name: "CP counts code points", ref: ref, doc: sa45Doc, expr: `{"$indexOfCP": ["$e", "b"]}`, want: `2`},
		{name: "Bytes counts bytes", ref: ref, doc: sa45Doc, expr: `{"$indexOfBytes": ["$e", "b"]}`, want: `3`},
		{name: "Bytes finds an empty token at the very end", ref: ref, expr: `{"$indexOfBytes": ["abc", "", 3]}`, want: `3`},
		{name: "Bytes past the end", ref: ref, expr: `{"$indexOfBytes": ["abc", "", 4]}`, want: `-1`},
		{name: "Bytes with start equal to end finds an empty token", ref: ref, expr: `{"$indexOfBytes": ["abc", "", 2, 2]}`, want: `2`},
		{name: "Bytes end is capped to the length", ref: ref, expr: `{"$indexOfBytes": ["abc", "c", 0, 100]}`, want: `2`},
		{name: "CP does not find an empty token at the end", ref: ref, expr: `{"$indexOfCP": ["abc", "", 3]}`, want: `-1`},
		{name: "CP of empty in empty", ref: ref, expr: `{"$indexOfCP": ["", ""]}`, want: `0`},
		{name: "CP end before start", ref: ref, expr: `{"$indexOfCP": ["abc", "b", 2, 1]}`, want: `-1`},
		{name: "CP end bounds the search", ref: ref, expr: `{"$indexOfCP": ["abc", "b", 0, 1]}`, want: `-1`},
		{name: "a long start", ref: ref, cov: cover{op: "$indexOfCP", col: types}, expr: `{"$indexOfCP": ["abc", "b", {"$numberLong": "1"}]}`, want: `1`},
		{name: "a decimal start", ref: ref, cov: cover{op: "$indexOfBytes", col: types}, expr: `{"$indexOfBytes": ["abc", "c", {"$numberDecimal": "2.0"}]}`, want: `2`},
		{name: "a null input wins over a bad token", ref: ref, cov: cover{op: "$indexOfBytes", col: types}, expr: `{"$indexOfBytes": [null, 1, "x"]}`, want: `null`},
		{name: "a missing input", ref: ref, doc: sa45Doc, expr: `{"$indexOfCP": ["$nope", "a"]}`, want: `null`},
		{name: "CP of a number", ref: ref, cov: cover{op: "$indexOfCP", col: types}, expr: `{"$indexOfCP": [1, "a"]}`,
			code: 40093, msg: "Failed to optimize pipeline :: caused by :: $indexOfCP requires a string as the first argument, found: int"},
		{name: "Bytes of an object", ref: ref, cov: cover{op: "$indexOfBytes", col: types}, expr: `{"$indexOfBytes": [{"$literal": {"a": 1}}, "a"]}`,
			code: 40091, msg: "Failed to optimize pipeline :: caused by :: $indexOfBytes requires a string as the first argument, found: object"},
		{name: "a null token is refused", ref: ref, expr: `{"$indexOfCP": ["a", null]}`,
			code: 40094, msg: "Failed to optimize pipeline :: caused by :: $indexOfCP requires a string as the second argument, found: null"},
		{name: "Bytes of a numeric token", ref: ref, expr: `{"$indexOfBytes": ["a", 1, "x"]}`,
			code: 40092, msg: "Failed to optimize pipeline :: caused by :: $indexOfBytes requires a string as the second argument, found: int"},
		{name: "a fractional start (no space after the name)", ref: ref, expr: `{"$indexOfCP": ["abc", "b", 1.5]}`,
			code: 40096, msg: "Failed to optimize pipeline :: caused by :: $indexOfCPrequires an integral starting index, found a value of type: double, with value: 1.5"},
		{name: "a null start is refused", ref: ref, expr: `{"$indexOfBytes": ["abc", "b", null]}`,
			code: 40096, msg: "Failed to optimize pipeline :: caused by :: $indexOfBytesrequires an integral starting index, found a value of type: null, with value: null"},
		{name: "a long start beyond 32 bits", ref: ref, cov: cover{op: "$indexOfCP", col: types}, doc: sa45Doc, expr: `{"$indexOfCP": ["abc", "b", "$big"]}`,
			code: 40096, msg: planExecutor + "$indexOfCPrequires an integral starting index, found a value of type: long, with value: 3000000001"},
		{name: "a NaN start", ref: ref, cov: cover{op: "$indexOfBytes", col: types}, expr: `{"$indexOfBytes": ["abc", "b", {"$numberDouble": "NaN"}]}`,
			code: 40096, msg: "Failed to optimize pipeline :: caused by :: $indexOfBytesrequires an integral starting index, found a value of type: double, with value: nan"},
		{name: "a negative start before a bad end", ref: ref, expr: `{"$indexOfBytes": ["a", "a", -1, "x"]}`,
			code: 40097, msg: "Failed to optimize pipeline :: caused by :: $indexOfBytes requires a nonnegative starting index, found: -1"},
		{name: "a negative end", ref: ref, expr: `{"$indexOfCP": ["abc", "b", 0, -1]}`,
			code: 40097, msg: "Failed to optimize pipeline :: caused by :: $indexOfCP requires a nonnegative ending index, found: -1"},
		{name: "a string end", ref: ref, expr: `{"$indexOfCP": ["abc", "b", 0, "1"]}`,
			code: 40096, msg: "Failed to optimize pipeline :: caused by :: $indexOfCPrequires an integral ending index, found a value of type: string, with value: \"1\""},
		{name: "five arguments", ref: exprCpp + " (ExpressionRangedArity)", expr: `{"$indexOfCP": ["a", "b", 1, 2, 3]}`,
			code: 28667, msg: invalidProject + "Expression $indexOfCP takes at least 2 arguments, and at most 4, but 5 were passed in."},
	})
}

func TestDeep45StrarrSubstrCaseAndSize(t *testing.T) {
	sub := d45StringCpp + " (ExpressionSubstrCP); " + valueCpp + " (coerceToString)"
	cmp := d45StringCpp + " (ExpressionStrcasecmp, ExpressionToUpper); " + valueCpp + " (coerceToString)"
	bin := d45StringCpp + " (ExpressionBinarySize)"
	runExprCases(t, []exprCase{
		{name: "substrCP counts code points", ref: sub, doc: sa45Doc, expr: `{"$substrCP": ["$e", 1, 1]}`, want: `"é"`},
		{name: "substrCP past the end is empty", ref: sub, expr: `{"$substrCP": ["abc", 5, 1]}`, want: `""`},
		{name: "substrCP of null is empty", ref: sub, expr: `{"$substrCP": [null, 0, 1]}`, want: `""`},
		{name: "substrCP of a number", ref: sub, cov: cover{op: "$substrCP", col: types}, expr: `{"$substrCP": [123, 0, 2]}`, want: `"12"`},
		{name: "substrCP of a date", ref: sub, cov: cover{op: "$substrCP", col: types}, expr: `{"$substrCP": [{"$date": "2020-01-02T00:00:00Z"}, 0, 4]}`, want: `"2020"`},
		{name: "substrCP of a decimal keeps its digits", ref: sub, cov: cover{op: "$substrCP", col: types}, expr: `{"$substrCP": [{"$numberDecimal": "1.50"}, 0, 9]}`, want: `"1.50"`},
		{name: "substrCP decimal indexes", ref: sub, cov: cover{op: "$substrCP", col: types},
			expr: `{"$substrCP": ["abc", {"$numberDecimal": "1.0"}, {"$numberLong": "1"}]}`, want: `"b"`},
		{name: "substrCP converts the input before checking indexes", ref: sub, cov: cover{op: "$substrCP", col: types},
			expr: `{"$substrCP": [{"$literal": {"a": 1}}, "x", 1]}`,
			code: 16007, msg: "Failed to optimize pipeline :: caused by :: can't convert from BSON type object to String"},
		{name: "substrCP of a bool", ref: sub, cov: cover{op: "$substrCP", col: types}, expr: `{"$substrCP": [true, 0, 1]}`,
			code: 16007, msg: "Failed to optimize pipeline :: caused by :: can't convert from BSON type bool to String"},
		{name: "substrCP null start", ref: sub, expr: `{"$substrCP": ["abc", null, 1]}`,
			code: 34450, msg: "Failed to optimize pipeline :: caused by :: $substrCP: starting index must be a numeric type (is BSON type null)"},
		{name: "substrCP fractional start before a bad length", ref: sub, expr: `{"$substrCP": ["abc", 1.5, "y"]}`,
			code: 34451, msg: "Failed to optimize pipeline :: caused by :: $substrCP: starting index cannot be represented as a 32-bit integral value: 1.5"},
		{name: "substrCP long start beyond 32 bits", ref: sub, doc: sa45Doc, expr: `{"$substrCP": ["abc", "$big", 1]}`,
			code: 34451, msg: planExecutor + "$substrCP: starting index cannot be represented as a 32-bit integral value: 3000000001"},
		{name: "substrCP string length", ref: sub, expr: `{"$substrCP": ["abc", 0, "x"]}`,
			code: 34452, msg: "Failed to optimize pipeline :: caused by :: $substrCP: length must be a numeric type (is BSON type string)"},
		{name: "substrCP fractional length", ref: sub, expr: `{"$substrCP": ["abc", 0, 1.5]}`,
			code: 34453, msg: "Failed to optimize pipeline :: caused by :: $substrCP: length cannot be represented as a 32-bit integral value: 1.5"},
		{name: "substrCP checks the length's sign before the start's", ref: sub, expr: `{"$substrCP": ["abc", -1, -1]}`,
			code: 34454, msg: "Failed to optimize pipeline :: caused by :: $substrCP: length must be a nonnegative integer."},
		{name: "substrCP negative start", ref: sub, expr: `{"$substrCP": ["abc", -1, 1]}`,
			code: 34455, msg: "Failed to optimize pipeline :: caused by :: $substrCP: the starting index must be nonnegative integer."},
		{name: "strcasecmp folds ASCII only", ref: cmp, expr: `{"$strcasecmp": ["é", "É"]}`, want: `1`},
		{name: "strcasecmp of null and empty", ref: cmp, doc: sa45Doc, expr: `{"$strcasecmp": ["$n", ""]}`, want: `0`},
		{name: "strcasecmp of a number and its text", ref: cmp, cov: cover{op: "$strcasecmp", col: types}, expr: `{"$strcasecmp": [1, "1"]}`, want: `0`},
		{name: "strcasecmp of an array", ref: cmp, cov: cover{op: "$strcasecmp", col: types}, expr: `{"$strcasecmp": [[], "a"]}`,
			code: 16007, msg: "Failed to optimize pipeline :: caused by :: can't convert from BSON type array to String"},
		{name: "toUpper leaves non-ASCII letters", ref: cmp, doc: sa45Doc, expr: `{"$toUpper": "$e"}`, want: `"AéB"`},
		{name: "toUpper of missing is empty", ref: cmp, doc: sa45Doc, expr: `{"$toUpper": "$nope"}`, want: `""`},
		{name: "toUpper of a double uses six digits", ref: cmp, cov: cover{op: "$toUpper", col: types}, expr: `{"$toUpper": 123456789.123}`, want: `"1.23457E+08"`},
		{name: "toUpper of infinity", ref: cmp, cov: cover{op: "$toUpper", col: types}, expr: `{"$toUpper": {"$numberDouble": "Infinity"}}`, want: `"INF"`},
		{name: "toUpper of code", ref: cmp, cov: cover{op: "$toUpper", col: types}, expr: `{"$toUpper": {"$code": "x"}}`, want: `"X"`},
		{name: "toUpper of a date", ref: cmp, cov: cover{op: "$toUpper", col: types}, expr: `{"$toUpper": {"$date": "2020-01-01T00:00:00.5Z"}}`, want: `"2020-01-01T00:00:00.500Z"`},
		{name: "toUpper of an ObjectId", ref: cmp, cov: cover{op: "$toUpper", col: types}, expr: `{"$toUpper": {"$oid": "5f5e1000aaaaaaaaaaaaaaaa"}}`,
			code: 16007, msg: "Failed to optimize pipeline :: caused by :: can't convert from BSON type objectId to String"},
		{name: "toUpper of two arguments", ref: exprCpp, expr: `{"$toUpper": ["a", "b"]}`,
			code: 16020, msg: invalidProject + "Expression $toUpper takes exactly 1 arguments. 2 were passed in."},
		{name: "binarySize of a multi-byte string", ref: bin, doc: sa45Doc, expr: `{"$binarySize": "$e"}`, want: `4`},
		{name: "binarySize of BinData", ref: bin, cov: cover{op: "$binarySize", col: types},
			expr: `{"$binarySize": {"$binary": {"base64": "AAAAAAAAAAAAAAAAAAAAAA==", "subType": "04"}}}`, want: `16`},
		{name: "binarySize of missing", ref: bin, doc: sa45Doc, expr: `{"$binarySize": "$nope"}`, want: `null`},
		{name: "binarySize of undefined", ref: bin, cov: cover{op: "$binarySize", col: types}, expr: `{"$binarySize": {"$literal": {"$undefined": true}}}`, want: `null`},
		{name: "binarySize of an array", ref: bin, cov: cover{op: "$binarySize", col: types}, doc: sa45Doc, expr: `{"$binarySize": "$arr"}`,
			code: 51276, msg: planExecutor + "$binarySize requires a string or BinData argument, found: array"},
	})
}
