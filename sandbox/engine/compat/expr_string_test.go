package compat_test

import "testing"

// The string operators: src/mongo/db/exec/expression/evaluate_string.cpp,
// the parsers in src/mongo/db/pipeline/expression.cpp, and
// Value::coerceToString in src/mongo/db/exec/document_value/value.cpp.

const (
	stringCpp = "src/mongo/db/exec/expression/evaluate_string.cpp"
	strDoc    = `{"_id": 0, "s": "héllo wörld", "u": "ABC", "n": null, "i": 3, "d": 2.5, "arr": [1], "obj": {"a": 1},` +
		` "date": {"$date": "2020-01-02T03:04:05.678Z"}, "ts": {"$timestamp": {"t": 1, "i": 2}}}`
)

func TestExpressionStringBasics(t *testing.T) {
	concatJS := "jstests/aggregation/expressions/concat.js"
	runExprCases(t, []exprCase{
		{name: "concat", ref: concatJS, cov: cover{op: "$concat"}, doc: strDoc, expr: `{"$concat": ["$u", "-", "$u"]}`, want: `"ABC-ABC"`},
		{name: "concat of nothing", ref: stringCpp, cov: cover{op: "$concat"}, expr: `{"$concat": []}`, want: `""`},
		{name: "concat with null", ref: concatJS, cov: cover{op: "$concat"}, doc: strDoc, expr: `{"$concat": ["$u", "$n"]}`, want: `null`},
		{name: "concat with missing", ref: concatJS, cov: cover{op: "$concat"}, doc: strDoc, expr: `{"$concat": ["$nope", "$i"]}`, want: `null`},
		{name: "concat with a number", ref: "jstests/aggregation/expressions/concat_error.js", cov: cover{op: "$concat"}, doc: strDoc,
			expr: `{"$concat": ["$u", "$i"]}`, code: 16702, msg: planExecutor + "$concat only supports strings, not int"},
		{name: "toUpper is byte-wise", ref: stringCpp, cov: cover{op: "$toUpper"}, doc: strDoc, expr: `{"$toUpper": "$s"}`, want: `"HéLLO WöRLD"`},
		{name: "toLower of a number", ref: valueCpp + " (coerceToString)", cov: cover{op: "$toLower", col: types}, doc: strDoc,
			expr: `{"$toLower": "$d"}`, want: `"2.5"`},
		{name: "toLower of a date", ref: valueCpp + " (coerceToString)", cov: cover{op: "$toLower", col: types}, doc: strDoc,
			expr: `{"$toLower": "$date"}`, want: `"2020-01-02t03:04:05.678z"`},
		{name: "toLower of a timestamp pads the day as ctime does", ref: valueCpp + " (coerceToString: Timestamp::toStringPretty)", cov: cover{op: "$toLower", col: types},
			doc: strDoc, expr: `{"$toLower": "$ts"}`, want: `"jan  1 00:00:01:2"`},
		{name: "toUpper of null is empty", ref: valueCpp + " (coerceToString)", cov: cover{op: "$toUpper"}, doc: strDoc, expr: `{"$toUpper": "$n"}`, want: `""`},
		{name: "toUpper of an object", ref: valueCpp + " (coerceToString)", cov: cover{op: "$toUpper"}, doc: strDoc, expr: `{"$toUpper": "$obj"}`,
			code: 16007, msg: planExecutor + "can't convert from BSON type object to String"},
		{name: "strcasecmp", ref: stringCpp, cov: cover{op: "$strcasecmp"}, doc: strDoc, expr: `{"$strcasecmp": ["$u", "abc"]}`, want: `0`},
		{name: "strcasecmp of a number and a string", ref: stringCpp, cov: cover{op: "$strcasecmp", col: types}, doc: strDoc,
			expr: `{"$strcasecmp": ["$i", "3"]}`, want: `0`},
		{name: "strcasecmp of null", ref: stringCpp, cov: cover{op: "$strcasecmp"}, doc: strDoc, expr: `{"$strcasecmp": ["$n", "a"]}`, want: `-1`},
		{name: "strcasecmp of an array", ref: stringCpp, cov: cover{op: "$strcasecmp"}, doc: strDoc, expr: `{"$strcasecmp": ["$arr", "a"]}`,
			code: 16007, msg: planExecutor + "can't convert from BSON type array to String"},
		{name: "strLenBytes", ref: stringCpp, cov: cover{op: "$strLenBytes"}, doc: strDoc, expr: `{"$strLenBytes": "$s"}`, want: `13`},
		{name: "strLenBytes of null", ref: stringCpp, cov: cover{op: "$strLenBytes"}, doc: strDoc, expr: `{"$strLenBytes": "$n"}`,
			code: 34473, msg: planExecutor + "$strLenBytes requires a string argument, found: null"},
		{name: "strLenCP", ref: stringCpp, cov: cover{op: "$strLenCP"}, doc: strDoc, expr: `{"$strLenCP": "$s"}`, want: `11`},
		{name: "strLenCP of missing", ref: stringCpp, cov: cover{op: "$strLenCP"}, doc: strDoc, expr: `{"$strLenCP": "$nope"}`,
			code: 34471, msg: planExecutor + "$strLenCP requires a string argument, found: missing"},
		{name: "split", ref: "jstests/aggregation/expressions/split.js", cov: cover{op: "$split"}, doc: strDoc, expr: `{"$split": ["$s", "l"]}`,
			want: `["hé", "", "o wör", "d"]`},
		{name: "split of null", ref: "jstests/aggregation/expressions/split.js", cov: cover{op: "$split"}, doc: strDoc, expr: `{"$split": ["$n", "l"]}`, want: `null`},
		{name: "split of a number", ref: "jstests/aggregation/expressions/split.js", cov: cover{op: "$split"}, doc: strDoc, expr: `{"$split": ["$i", "l"]}`,
			code: 40085, msg: planExecutor + "$split requires an expression that evaluates to a string as a first argument, found: int"},
		{name: "split by a number", ref: "jstests/aggregation/expressions/split.js", cov: cover{op: "$split"}, doc: strDoc, expr: `{"$split": ["$s", "$i"]}`,
			code: 40086, msg: planExecutor + "$split requires an expression that evaluates to a string as a second argument, found: int"},
		{name: "split by nothing", ref: "jstests/aggregation/expressions/split.js", cov: cover{op: "$split"}, doc: strDoc, expr: `{"$split": ["$s", ""]}`,
			code: 40087, msg: planExecutor + "$split requires a non-empty separator"},
	})
}

func TestExpressionSubstrings(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "substrBytes", ref: stringCpp, cov: cover{op: "$substrBytes"}, doc: strDoc, expr: `{"$substrBytes": ["$u", 1, 5]}`, want: `"BC"`},
		{name: "substrBytes with a negative length takes the rest", ref: stringCpp, cov: cover{op: "$substrBytes"}, doc: strDoc,
			expr: `{"$substrBytes": ["$u", 1, -1]}`, want: `"BC"`},
		{name: "substrBytes of a number", ref: stringCpp, cov: cover{op: "$substrBytes", col: types}, doc: strDoc,
			expr: `{"$substrBytes": ["$d", 0, 2]}`, want: `"2."`},
		{name: "substrBytes of null is empty", ref: stringCpp, cov: cover{op: "$substrBytes"}, doc: strDoc, expr: `{"$substrBytes": ["$n", 0, 2]}`, want: `""`},
		{name: "substrBytes inside a character", ref: stringCpp, cov: cover{op: "$substrBytes"}, doc: strDoc, expr: `{"$substrBytes": ["$s", 2, 1]}`,
			code: 28656, msg: planExecutor + "$substrBytes:  Invalid range, starting index is a UTF-8 continuation byte."},
		{name: "substrBytes ending inside a character", ref: stringCpp, cov: cover{op: "$substrBytes"}, doc: strDoc, expr: `{"$substrBytes": ["$s", 0, 2]}`,
			code: 28657, msg: planExecutor + "$substrBytes:  Invalid range, ending index is in the middle of a UTF-8 character."},
		{name: "substrBytes from a negative index", ref: stringCpp, cov: cover{op: "$substrBytes"}, doc: strDoc, expr: `{"$substrBytes": ["$u", -1, 1]}`,
			code: 50752, msg: planExecutor + "$substrBytes:  starting index must be non-negative (got: -1)"},
		{name: "substrBytes from a string index", ref: stringCpp, cov: cover{op: "$substrBytes"}, doc: strDoc, expr: `{"$substrBytes": ["$u", "$u", 1]}`,
			code: 16034, msg: planExecutor + "$substrBytes:  starting index must be a numeric type (is BSON type string)"},
		{name: "substr is substrBytes", ref: exprCpp + " (REGISTER_STABLE_EXPRESSION(substr, ExpressionSubstrBytes::parse))", cov: cover{op: "$substr"},
			doc: strDoc, expr: `{"$substr": ["$u", 0, "$n"]}`,
			code: 16035, msg: planExecutor + "$substrBytes:  length must be a numeric type (is BSON type null)"},
		{name: "substrCP", ref: stringCpp, cov: cover{op: "$substrCP"}, doc: strDoc, expr: `{"$substrCP": ["$s", 1, 4]}`, want: `"éllo"`},
		{name: "substrCP past the end", ref: stringCpp, cov: cover{op: "$substrCP"}, doc: strDoc, expr: `{"$substrCP": ["$u", 2, 10]}`, want: `"C"`},
		{name: "substrCP with a fractional start", ref: stringCpp, cov: cover{op: "$substrCP"}, doc: strDoc, expr: `{"$substrCP": ["$u", "$d", 1]}`,
			code: 34451, msg: planExecutor + "$substrCP: starting index cannot be represented as a 32-bit integral value: 2.5"},
		{name: "substrCP with a negative length", ref: stringCpp, cov: cover{op: "$substrCP"}, doc: strDoc, expr: `{"$substrCP": ["$u", 0, -1]}`,
			code: 34454, msg: planExecutor + "$substrCP: length must be a nonnegative integer."},
		{name: "substrCP takes three arguments", ref: exprCpp, cov: cover{op: "$substrCP"}, expr: `{"$substrCP": ["a", 0]}`,
			code: 16020, msg: invalidProject + "Expression $substrCP takes exactly 3 arguments. 2 were passed in."},
		{name: "indexOfBytes", ref: "jstests/aggregation/expressions/indexof_bytes.js", cov: cover{op: "$indexOfBytes"}, doc: strDoc,
			expr: `{"$indexOfBytes": ["$s", "w"]}`, want: `7`},
		{name: "indexOfBytes in a range", ref: "jstests/aggregation/expressions/indexof_bytes.js", cov: cover{op: "$indexOfBytes"}, doc: strDoc,
			expr: `{"$indexOfBytes": ["$u", "B", 2]}`, want: `-1`},
		{name: "indexOfBytes of null", ref: stringCpp, cov: cover{op: "$indexOfBytes"}, doc: strDoc, expr: `{"$indexOfBytes": ["$n", "B"]}`, want: `null`},
		{name: "indexOfBytes for a number", ref: stringCpp, cov: cover{op: "$indexOfBytes"}, doc: strDoc, expr: `{"$indexOfBytes": ["$u", "$i"]}`,
			code: 40092, msg: planExecutor + "$indexOfBytes requires a string as the second argument, found: int"},
		{name: "indexOfBytes from a negative index", ref: stringCpp, cov: cover{op: "$indexOfBytes"}, doc: strDoc, expr: `{"$indexOfBytes": ["$u", "B", -1]}`,
			code: 40097, msg: planExecutor + "$indexOfBytes requires a nonnegative starting index, found: -1"},
		{name: "indexOfCP", ref: "jstests/aggregation/expressions/indexof_codepoints.js", cov: cover{op: "$indexOfCP"}, doc: strDoc,
			expr: `{"$indexOfCP": ["$s", "w"]}`, want: `6`},
		{name: "indexOfCP of an empty token in an empty string", ref: stringCpp, cov: cover{op: "$indexOfCP"}, expr: `{"$indexOfCP": ["", ""]}`, want: `0`},
		{name: "indexOfCP in a number", ref: stringCpp, cov: cover{op: "$indexOfCP"}, doc: strDoc, expr: `{"$indexOfCP": ["$i", "B"]}`,
			code: 40093, msg: planExecutor + "$indexOfCP requires a string as the first argument, found: int"},
		{name: "indexOfCP to a fractional index", ref: stringCpp, cov: cover{op: "$indexOfCP"}, doc: strDoc, expr: `{"$indexOfCP": ["$u", "B", 0, "$d"]}`,
			code: 40096, msg: planExecutor + "$indexOfCPrequires an integral ending index, found a value of type: double, with value: 2.5"},
	})
}

func TestExpressionTrimReplace(t *testing.T) {
	replaceRef := exprCpp + " (ExpressionReplaceBase)"
	runExprCases(t, []exprCase{
		{name: "trim whitespace", ref: stringCpp, cov: cover{op: "$trim"}, expr: `{"$trim": {"input": "  a b \n"}}`, want: `"a b"`},
		{name: "ltrim chars", ref: stringCpp, cov: cover{op: "$ltrim"}, doc: strDoc, expr: `{"$ltrim": {"input": "$s", "chars": "éh"}}`, want: `"llo wörld"`},
		{name: "rtrim", ref: stringCpp, cov: cover{op: "$rtrim"}, expr: `{"$rtrim": {"input": "xaxx", "chars": "x"}}`, want: `"xa"`},
		{name: "trim of null", ref: stringCpp, cov: cover{op: "$trim"}, doc: strDoc, expr: `{"$trim": {"input": "$n"}}`, want: `null`},
		{name: "trim with null chars", ref: stringCpp, cov: cover{op: "$trim"}, doc: strDoc, expr: `{"$trim": {"input": "$u", "chars": "$n"}}`, want: `null`},
		{name: "trim of a number", ref: stringCpp, cov: cover{op: "$trim"}, doc: strDoc, expr: `{"$trim": {"input": "$i"}}`,
			code: 50699, msg: planExecutor + "$trim requires its input to be a string, got 3 (of type int) instead."},
		{name: "trim with chars that are not a string", ref: stringCpp, cov: cover{op: "$trim"}, doc: strDoc, expr: `{"$trim": {"input": "$u", "chars": "$arr"}}`,
			code: 50700, msg: planExecutor + "$trim requires 'chars' to be a string, got [1] (of type array) instead."},
		{name: "trim of a non-object", ref: exprCpp + " (ExpressionTrim::parse)", cov: cover{op: "$trim"}, expr: `{"$trim": "a"}`,
			code: 50696, msg: invalidProject + "$trim only supports an object as an argument, found string"},
		{name: "trim with an unknown argument", ref: exprCpp + " (ExpressionTrim::parse)", cov: cover{op: "$rtrim"}, expr: `{"$rtrim": {"input": "a", "x": 1}}`,
			code: 50694, msg: invalidProject + "$rtrim found an unknown argument: x"},
		{name: "trim without input", ref: exprCpp + " (ExpressionTrim::parse)", cov: cover{op: "$ltrim"}, expr: `{"$ltrim": {"chars": "a"}}`,
			code: 50695, msg: invalidProject + "$ltrim requires an 'input' field"},
		{name: "replaceOne", ref: replaceRef, cov: cover{op: "$replaceOne"}, expr: `{"$replaceOne": {"input": "a.b.c", "find": ".", "replacement": "-"}}`, want: `"a-b.c"`},
		{name: "replaceAll", ref: replaceRef, cov: cover{op: "$replaceAll"}, expr: `{"$replaceAll": {"input": "a.b.c", "find": ".", "replacement": ""}}`, want: `"abc"`},
		{name: "replaceAll of an empty find", ref: replaceRef, cov: cover{op: "$replaceAll"}, expr: `{"$replaceAll": {"input": "ab", "find": "", "replacement": "-"}}`,
			want: `"-a-b-"`},
		{name: "replaceOne with null", ref: replaceRef, cov: cover{op: "$replaceOne"}, doc: strDoc,
			expr: `{"$replaceOne": {"input": "$u", "find": "$n", "replacement": "x"}}`, want: `null`},
		{name: "replaceOne of a number", ref: replaceRef, cov: cover{op: "$replaceOne"}, doc: strDoc,
			expr: `{"$replaceOne": {"input": "$i", "find": "$n", "replacement": "x"}}`,
			code: 51746, msg: planExecutor + "$replaceOne requires that 'input' be a string, found: 3"},
		{name: "replaceAll by a number", ref: replaceRef, cov: cover{op: "$replaceAll"}, doc: strDoc,
			expr: `{"$replaceAll": {"input": "$u", "find": "A", "replacement": "$i"}}`,
			code: 51744, msg: planExecutor + "$replaceAll requires that 'replacement' be a string, found: 3"},
		{name: "replaceOne of a non-object", ref: replaceRef, cov: cover{op: "$replaceOne"}, expr: `{"$replaceOne": 1}`,
			code: 51751, msg: invalidProject + "$replaceOne requires an object as an argument, found: int"},
		{name: "replaceOne without find", ref: replaceRef, cov: cover{op: "$replaceOne"}, expr: `{"$replaceOne": {"input": "a", "replacement": "b"}}`,
			code: 51748, msg: invalidProject + "$replaceOne requires 'find' to be specified"},
		{name: "replaceAll with an unknown argument", ref: replaceRef, cov: cover{op: "$replaceAll"}, expr: `{"$replaceAll": {"x": 1}}`,
			code: 51750, msg: invalidProject + "$replaceAll found an unknown argument: x"},
	})
}

func TestExpressionRegexArguments(t *testing.T) {
	ref := exprCpp + " (CommonRegexParse); src/mongo/db/exec/expression/evaluate_regex.cpp"
	runExprCases(t, []exprCase{
		{name: "regexMatch", ref: ref, cov: cover{op: "$regexMatch"}, doc: strDoc, expr: `{"$regexMatch": {"input": "$u", "regex": "b", "options": "i"}}`, want: `true`},
		{name: "regexMatch of null", ref: ref, cov: cover{op: "$regexMatch"}, doc: strDoc, expr: `{"$regexMatch": {"input": "$n", "regex": "b"}}`, want: `false`},
		{name: "regexFind of null", ref: ref, cov: cover{op: "$regexFind"}, doc: strDoc, expr: `{"$regexFind": {"input": "$n", "regex": "b"}}`, want: `null`},
		{name: "regexFindAll of null", ref: ref, cov: cover{op: "$regexFindAll"}, doc: strDoc, expr: `{"$regexFindAll": {"input": "$n", "regex": "b"}}`, want: `[]`},
		{name: "regexMatch of a number", ref: ref, cov: cover{op: "$regexMatch"}, doc: strDoc, expr: `{"$regexMatch": {"input": "$i", "regex": "b"}}`,
			code: 51104, msg: planExecutor + "$regexMatch needs 'input' to be of type string"},
		{name: "regexFind of a non-object", ref: ref, cov: cover{op: "$regexFind"}, expr: `{"$regexFind": "a"}`,
			code: 51103, msg: invalidProject + "$regexFind expects an object of named arguments but found: string"},
		{name: "regexFind with an unknown argument", ref: ref, cov: cover{op: "$regexFind"}, expr: `{"$regexFind": {"input": "a", "regex": "a", "x": 1}}`,
			code: 31024, msg: invalidProject + "$regexFind found an unknown argument: x"},
		{name: "regexFind without input", ref: ref, cov: cover{op: "$regexFind"}, expr: `{"$regexFind": {"regex": "a"}}`,
			code: 31022, msg: invalidProject + "$regexFind requires 'input' parameter"},
		{name: "regexFindAll without regex", ref: ref, cov: cover{op: "$regexFindAll"}, expr: `{"$regexFindAll": {"input": "a"}}`,
			code: 31023, msg: invalidProject + "$regexFindAll requires 'regex' parameter"},
	})
}

// The string operators' argument and result types: lengths and indexes are
// ints; an index may be any number a 32-bit int holds exactly
// (Value::integral); $substr*, $toUpper coerce their input to a string
// (Value::coerceToString), the others insist on a string.
func TestExpressionStringTypes(t *testing.T) {
	integral := valueCpp + " (Value::integral); " + stringCpp
	coerce := valueCpp + " (coerceToString)"
	replaceRef := exprCpp + " (ExpressionReplaceBase::evaluate)"
	doc := `{"_id": 0, "u": "ABC", "i": 3, "d": 2.5, "date": {"$date": "2020-01-02T03:04:05.678Z"}, "ts": {"$timestamp": {"t": 1600000000, "i": 1}},` +
		` "re": {"$regularExpression": {"pattern": "b", "options": "i"}}}`
	runExprCases(t, []exprCase{
		{name: "concat of a date", ref: stringCpp + " (ExpressionConcat)", cov: cover{op: "$concat", col: types}, doc: doc,
			expr: `{"$concat": ["$u", "$date"]}`, code: 16702, msg: planExecutor + "$concat only supports strings, not date"},
		{name: "indexOfBytes from a long index is an int", ref: integral, cov: cover{op: "$indexOfBytes", col: types}, doc: doc,
			expr: `{"$indexOfBytes": ["$u", "C", {"$numberLong": "1"}]}`, want: `2`},
		{name: "indexOfBytes from a long beyond an int", ref: integral, cov: cover{op: "$indexOfBytes", col: types}, doc: doc,
			expr: `{"$indexOfBytes": ["$u", "C", {"$numberLong": "5000000000"}]}`,
			code: 40096, msg: planExecutor + "$indexOfBytesrequires an integral starting index, found a value of type: long, with value: 5000000000"},
		{name: "indexOfCP from an integral double", ref: integral, cov: cover{op: "$indexOfCP", col: types}, doc: doc,
			expr: `{"$indexOfCP": ["$u", "C", 1.0]}`, want: `2`},
		{name: "indexOfCP to a decimal index", ref: integral, cov: cover{op: "$indexOfCP", col: types}, doc: doc,
			expr: `{"$indexOfCP": ["$u", "C", 0, {"$numberDecimal": "2"}]}`, want: `-1`},
		{name: "ltrim of a double", ref: stringCpp + " (ExpressionTrim)", cov: cover{op: "$ltrim", col: types}, doc: doc,
			expr: `{"$ltrim": {"input": "$d"}}`, code: 50699, msg: planExecutor + "$ltrim requires its input to be a string, got 2.5 (of type double) instead."},
		{name: "rtrim with int chars", ref: stringCpp + " (ExpressionTrim)", cov: cover{op: "$rtrim", col: types}, doc: doc,
			expr: `{"$rtrim": {"input": "$u", "chars": "$i"}}`, code: 50700, msg: planExecutor + "$rtrim requires 'chars' to be a string, got 3 (of type int) instead."},
		{name: "trim of a boolean", ref: stringCpp + " (ExpressionTrim)", cov: cover{op: "$trim", col: types}, doc: doc,
			expr: `{"$trim": {"input": {"$eq": ["$i", 3]}}}`, code: 50699, msg: planExecutor + "$trim requires its input to be a string, got true (of type bool) instead."},
		{name: "replaceAll does not take a regex", ref: replaceRef + " (51745); manual: reference/operator/aggregation/replaceAll",
			cov: cover{op: "$replaceAll", col: types}, doc: doc,
			expr: `{"$replaceAll": {"input": "$u", "find": "$re", "replacement": ""}}`,
			code: 51745, msg: planExecutor + "$replaceAll requires that 'find' be a string, found: /b/i"},
		{name: "replaceOne by a double", ref: replaceRef, cov: cover{op: "$replaceOne", col: types}, doc: doc,
			expr: `{"$replaceOne": {"input": "$u", "find": "B", "replacement": "$d"}}`,
			code: 51744, msg: planExecutor + "$replaceOne requires that 'replacement' be a string, found: 2.5"},
		{name: "split of a date", ref: stringCpp + " (ExpressionSplit)", cov: cover{op: "$split", col: types}, doc: doc,
			expr: `{"$split": ["$date", "-"]}`,
			code: 40085, msg: planExecutor + "$split requires an expression that evaluates to a string as a first argument, found: date"},
		{name: "split gives strings", ref: stringCpp + " (ExpressionSplit)", cov: cover{op: "$split", col: types}, doc: doc,
			expr: `{"$split": ["$u", "B"]}`, want: `["A", "C"]`},
		{name: "strLenBytes is an int", ref: stringCpp + " (strLenBytes)", cov: cover{op: "$strLenBytes", col: types}, doc: doc,
			expr: `{"$strLenBytes": "$u"}`, want: `3`},
		{name: "strLenBytes of an int", ref: stringCpp, cov: cover{op: "$strLenBytes", col: types}, doc: doc,
			expr: `{"$strLenBytes": "$i"}`, code: 34473, msg: planExecutor + "$strLenBytes requires a string argument, found: int"},
		{name: "strLenCP of a double", ref: stringCpp, cov: cover{op: "$strLenCP", col: types}, doc: doc,
			expr: `{"$strLenCP": "$d"}`, code: 34471, msg: planExecutor + "$strLenCP requires a string argument, found: double"},
		{name: "substr of a double", ref: coerce, cov: cover{op: "$substr", col: types}, doc: doc,
			expr: `{"$substr": ["$d", 0, 1]}`, want: `"2"`},
		{name: "substr by a long and a double", ref: stringCpp + " (coerceToLong)", cov: cover{op: "$substr", col: types}, doc: doc,
			expr: `{"$substr": ["$u", {"$numberLong": "1"}, 1.0]}`, want: `"B"`},
		{name: "substrCP of a date", ref: coerce, cov: cover{op: "$substrCP", col: types}, doc: doc,
			expr: `{"$substrCP": ["$date", 0, 4]}`, want: `"2020"`},
		{name: "substrCP by a decimal length", ref: integral, cov: cover{op: "$substrCP", col: types}, doc: doc,
			expr: `{"$substrCP": ["$u", 0, {"$numberDecimal": "2"}]}`, want: `"AB"`},
		{name: "toUpper of an int", ref: coerce, cov: cover{op: "$toUpper", col: types}, doc: doc, expr: `{"$toUpper": "$i"}`, want: `"3"`},
		{name: "toUpper of a timestamp", ref: coerce + "; src/mongo/bson/timestamp.cpp (toStringPretty); src/mongo/util/time_support.cpp (time_t_to_String_short)",
			cov: cover{op: "$toUpper", col: types}, doc: doc, expr: `{"$toUpper": "$ts"}`, want: `"SEP 13 12:26:40:1"`},
		{name: "toUpper of a date", ref: coerce, cov: cover{op: "$toUpper", col: types}, doc: doc,
			expr: `{"$toUpper": "$date"}`, want: `"2020-01-02T03:04:05.678Z"`},
	})
}

// The regex expressions compile a constant pattern while parsing, and a
// pattern PCRE2 refuses is 51111 'Invalid Regex in <op>: ' and PCRE2's own
// message (RegexExecutionState::compile in src/mongo/db/pipeline/
// expression.cpp, errorMessage of pcre2_get_error_message), not Go's.
// Constructs PCRE2 runs and the sandbox's RE2 cannot (lookaround,
// backreferences) are refused as not implemented rather than called
// invalid.
func TestExpressionRegexCompileErrors(t *testing.T) {
	ref := exprCpp + " (RegexExecutionState::compile, 51111); jstests/aggregation/expressions/regex.js"
	invalid := invalidProject + "Invalid Regex in "
	runExprCases(t, []exprCase{
		{name: "an unclosed group", ref: ref, cov: cover{op: "$regexMatch"},
			expr: `{"$regexMatch": {"input": "abc", "regex": "(a"}}`, code: 51111, msg: invalid + "$regexMatch: missing closing parenthesis"},
		{name: "an unclosed class", ref: ref, cov: cover{op: "$regexFind"},
			expr: `{"$regexFind": {"input": "abc", "regex": "["}}`, code: 51111, msg: invalid + "$regexFind: missing terminating ] for character class"},
		{name: "a quantifier with nothing to repeat", ref: ref, cov: cover{op: "$regexFindAll"},
			expr: `{"$regexFindAll": {"input": "abc", "regex": "*"}}`, code: 51111, msg: invalid + "$regexFindAll: quantifier does not follow a repeatable item"},
		{name: "a trailing backslash", ref: ref, cov: cover{op: "$regexFind"},
			expr: `{"$regexFind": {"input": "abc", "regex": "a\\"}}`, code: 51111, msg: invalid + "$regexFind: \\ at end of pattern"},
		{name: "an unmatched closing parenthesis", ref: ref, cov: cover{op: "$regexMatch"},
			expr: `{"$regexMatch": {"input": "abc", "regex": "a)"}}`, code: 51111, msg: invalid + "$regexMatch: unmatched closing parenthesis"},
		{name: "a lookahead in an unclosed group is still invalid", ref: ref, cov: cover{op: "$regexMatch"},
			expr: `{"$regexMatch": {"input": "abc", "regex": "(a(?=b)"}}`, code: 51111, msg: invalid + "$regexMatch: missing closing parenthesis"},
		{name: "a lookahead is refused, not invalid", ref: ref + " (PCRE2 accepts lookaround; the sandbox's RE2 cannot run it)", cov: cover{op: "$regexMatch"},
			expr: `{"$regexMatch": {"input": "ab", "regex": "a(?=b)"}}`, code: 238,
			msg: invalidProject + "regular expressions with lookaround assertions or atomic groups (`(?=`) are not supported by the schemalab sandbox; use a real MongoDB (--uri) for them"},
	})
}
