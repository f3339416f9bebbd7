package expr

import "testing"

func TestStringOperators(t *testing.T) {
	runCases(t, []exprCase{
		{name: "concat", expr: `{"$concat": ["a", "-", "$b"]}`, doc: `{"b": "c"}`, want: `"a-c"`},
		{name: "concat null", expr: `{"$concat": ["a", "$nope"]}`, want: `null`},
		{name: "concat type", expr: `{"$concat": ["a", 1]}`, code: 16702, msg: "$concat only supports strings, not int"},
		{name: "toUpper", expr: `{"$toUpper": "abcé"}`, want: `"ABCé"`},
		{name: "toLower number", expr: `{"$toLower": 12}`, want: `"12"`},
		{name: "toLower null", expr: `{"$toLower": null}`, want: `""`},
		{name: "toUpper array", expr: `{"$toUpper": [[1]]}`, code: 16007},
		{name: "substrBytes", expr: `{"$substrBytes": ["abcde", 1, 3]}`, want: `"bcd"`},
		{name: "substrBytes negative length", expr: `{"$substrBytes": ["abcde", 1, -1]}`, want: `"bcde"`},
		{name: "substrBytes past end", expr: `{"$substrBytes": ["abc", 5, 1]}`, want: `""`},
		{name: "substrBytes continuation", expr: `{"$substrBytes": ["éa", 1, 1]}`, code: 28656},
		{name: "substrBytes mid char", expr: `{"$substrBytes": ["éa", 0, 1]}`, code: 28657},
		{name: "substrBytes type", expr: `{"$substrBytes": ["abc", "x", 1]}`, code: 16034, msg: "$substrBytes:  starting index must be a numeric type (is BSON type string)"},
		{name: "substrCP", expr: `{"$substrCP": ["cafétéria", 0, 5]}`, want: `"cafét"`},
		{name: "substrCP negative", expr: `{"$substrCP": ["abc", -1, 1]}`, code: 34455},
		{name: "substrCP length fraction", expr: `{"$substrCP": ["abc", 0, 1.5]}`, code: 34453},
		{name: "strLenCP", expr: `{"$strLenCP": "cafétéria"}`, want: `{"$numberInt": "9"}`},
		{name: "strLenBytes", expr: `{"$strLenBytes": "cafétéria"}`, want: `{"$numberInt": "11"}`},
		{name: "strLenCP type", expr: `{"$strLenCP": 1}`, code: 34471, msg: "$strLenCP requires a string argument, found: int"},
		{name: "split", expr: `{"$split": ["a,b,,c", ","]}`, want: `["a", "b", "", "c"]`},
		{name: "split null", expr: `{"$split": [null, ","]}`, want: `null`},
		{name: "split empty sep", expr: `{"$split": ["a", ""]}`, code: 40087},
		{name: "split type", expr: `{"$split": [1, ","]}`, code: 40085},
		{name: "trim", expr: `{"$trim": {"input": "  a b \n"}}`, want: `"a b"`},
		{name: "ltrim chars", expr: `{"$ltrim": {"input": "xxaxx", "chars": "x"}}`, want: `"axx"`},
		{name: "rtrim chars", expr: `{"$rtrim": {"input": "xxaxx", "chars": "x"}}`, want: `"xxa"`},
		{name: "trim null", expr: `{"$trim": {"input": null}}`, want: `null`},
		{name: "indexOfCP", expr: `{"$indexOfCP": ["cafétéria", "é"]}`, want: `{"$numberInt": "3"}`},
		{name: "indexOfBytes", expr: `{"$indexOfBytes": ["cafétéria", "t"]}`, want: `{"$numberInt": "5"}`},
		{name: "indexOfCP start", expr: `{"$indexOfCP": ["abcabc", "b", 2]}`, want: `{"$numberInt": "4"}`},
		{name: "indexOfCP not found", expr: `{"$indexOfCP": ["abc", "z"]}`, want: `{"$numberInt": "-1"}`},
		{name: "indexOfCP null", expr: `{"$indexOfCP": [null, "z"]}`, want: `null`},
		{name: "replaceOne", expr: `{"$replaceOne": {"input": "aXbX", "find": "X", "replacement": "-"}}`, want: `"a-bX"`},
		{name: "replaceAll", expr: `{"$replaceAll": {"input": "aXbX", "find": "X", "replacement": "-"}}`, want: `"a-b-"`},
		{name: "replaceAll null", expr: `{"$replaceAll": {"input": "a", "find": null, "replacement": "-"}}`, want: `null`},
		{name: "strcasecmp", expr: `{"$strcasecmp": ["ABC", "abc"]}`, want: `{"$numberInt": "0"}`},
		{name: "strcasecmp less", expr: `{"$strcasecmp": ["a", "B"]}`, want: `{"$numberInt": "-1"}`},
		{name: "regexMatch", expr: `{"$regexMatch": {"input": "Hello", "regex": "^h", "options": "i"}}`, want: `true`},
		{name: "regexMatch bson regex", expr: `{"$regexMatch": {"input": "Hello", "regex": {"$regularExpression": {"pattern": "^h", "options": "i"}}}}`, want: `true`},
		{name: "regexMatch null input", expr: `{"$regexMatch": {"input": null, "regex": "a"}}`, want: `false`},
		{name: "regexMatch extended", expr: `{"$regexMatch": {"input": "abc", "regex": "a b # comment\n c", "options": "x"}}`, want: `true`},
		{name: "regexFind", expr: `{"$regexFind": {"input": "café 12", "regex": "([0-9])([0-9])"}}`, want: `{"match": "12", "idx": 5, "captures": ["1", "2"]}`},
		{name: "regexFind none", expr: `{"$regexFind": {"input": "abc", "regex": "z"}}`, want: `null`},
		{name: "regexFindAll", expr: `{"$regexFindAll": {"input": "a1b2", "regex": "[0-9]"}}`, want: `[{"match": "1", "idx": 1, "captures": []}, {"match": "2", "idx": 3, "captures": []}]`},
		{name: "regex bad option", expr: `{"$regexMatch": {"input": "a", "regex": "a", "options": "q"}}`, code: 51108},
		{name: "regex invalid", expr: `{"$regexMatch": {"input": "a", "regex": "(a"}}`, code: 51111},
		{name: "regex both options", expr: `{"$regexMatch": {"input": "a", "regex": {"$regularExpression": {"pattern": "a", "options": "i"}}, "options": "m"}}`, code: 51107},
		{name: "regex input type", expr: `{"$regexMatch": {"input": 1, "regex": "a"}}`, code: 51104},
	})
}

func TestStringEdgeCases(t *testing.T) {
	runCases(t, []exprCase{
		{name: "substrBytes negative start", expr: `{"$substrBytes": ["abc", -1, 1]}`, code: 50752, msg: "$substrBytes:  starting index must be non-negative (got: -1)"},
		{name: "substrCP fraction start", expr: `{"$substrCP": ["abc", 1.5, 1]}`, code: 34451, msg: "$substrCP: starting index cannot be represented as a 32-bit integral value: 1.5"},
		{name: "indexOfBytes empty at end", expr: `{"$indexOfBytes": ["abc", "", 3]}`, want: `{"$numberInt": "3"}`},
		{name: "indexOfCP empty at end", expr: `{"$indexOfCP": ["abc", "", 3]}`, want: `{"$numberInt": "-1"}`},
		{name: "indexOfCP end before start", expr: `{"$indexOfCP": ["abc", "b", 2, 1]}`, want: `{"$numberInt": "-1"}`},
		{name: "indexOfCP bad start", expr: `{"$indexOfCP": ["abc", "b", 1.5]}`, code: 40096, msg: "$indexOfCPrequires an integral starting index, found a value of type: double, with value: 1.5"},
		{name: "indexOfCP type", expr: `{"$indexOfCP": [1, "b"]}`, code: 40093},
	})
}
