package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

const (
	modJS    = "jstests/aggregation/expressions/expression_mod.js"
	mapJS    = "jstests/aggregation/expressions/map.js"
	letJS    = "jstests/aggregation/expressions/let.js"
	reduceJS = "jstests/aggregation/expressions/reduce.js"
)

func TestExpressionMod(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "double double", ref: modJS, expr: `{"$mod": [138.5, 3.0]}`, want: `0.5`},
		{name: "double long", ref: modJS, expr: `{"$mod": [138.5, {"$numberLong": "3"}]}`, want: `0.5`},
		{name: "double int", ref: modJS, expr: `{"$mod": [138.5, 3]}`, want: `0.5`},
		{name: "int double", ref: modJS, expr: `{"$mod": [8, 3.25]}`, want: `1.5`},
		{name: "int integral double is a double", ref: modJS, expr: `{"$mod": [8, 3.0]}`, want: `2.0`},
		{name: "int int", ref: modJS, expr: `{"$mod": [8, 3]}`, want: `2`},
		{name: "int long", ref: modJS, expr: `{"$mod": [8, {"$numberLong": "3"}]}`, want: `{"$numberLong": "2"}`},
		{name: "long double", ref: modJS, expr: `{"$mod": [{"$numberLong": "8"}, 3.25]}`, want: `1.5`},
		{name: "long and integral double is a double", ref: modJS, expr: `{"$mod": [{"$numberLong": "8"}, 3.0]}`, want: `2.0`},
		{name: "item11 long and a double beyond int32 is a double", ref: modJS,
			expr: `{"$mod": [{"$numberLong": "500000000000"}, 450000000000.0]}`, want: `50000000000.0`},
		{name: "long int", ref: modJS, expr: `{"$mod": [{"$numberLong": "8"}, 3]}`, want: `{"$numberLong": "2"}`},
		{name: "long long", ref: modJS, expr: `{"$mod": [{"$numberLong": "8"}, {"$numberLong": "3"}]}`, want: `{"$numberLong": "2"}`},
		{name: "big longs", ref: modJS, expr: `{"$mod": [{"$numberLong": "800000000000"}, {"$numberLong": "300000000000"}]}`,
			want: `{"$numberLong": "200000000000"}`},
		{name: "fields, not constants", ref: modJS,
			doc: `{"_id": 0, "a": {"$numberLong": "8"}, "b": 3.0}`, expr: `{"$mod": ["$a", "$b"]}`, want: `2.0`},
		{name: "by zero", ref: modJS, doc: `{"_id": 0, "z": 0}`, expr: `{"$mod": [10, "$z"]}`, code: 16610,
			msg: planExecutor + "can't $mod by zero"},
		{name: "by NaN", ref: modJS, expr: `{"$mod": [10, {"$numberDouble": "NaN"}]}`, want: `{"$numberDouble": "NaN"}`},
		{name: "by infinity", ref: modJS, expr: `{"$mod": [10, {"$numberDouble": "Infinity"}]}`, want: `10.0`},
		{name: "NaN by 10", ref: modJS, expr: `{"$mod": [{"$numberDouble": "NaN"}, 10]}`, want: `{"$numberDouble": "NaN"}`},
		{name: "null", ref: "manual: reference/operator/aggregation/mod", expr: `{"$mod": [null, 3]}`, want: `null`},
		{name: "negative dividend keeps its sign", ref: "manual: reference/operator/aggregation/mod (Negative Dividend)",
			expr: `{"$mod": [-5, 3]}`, want: `-2`},
	})
}

func TestExpressionVariables(t *testing.T) {
	doc := `{"_id": 0, "zero": 0, "one": 1, "two": 2, "three": 3, "nested": {"four": 4}}`
	runExprCases(t, []exprCase{
		{name: "let", ref: letJS, doc: doc, expr: `{"$let": {"vars": {"a": {"$add": ["$one", "$two"]}, "b": 10}, "in": {"$multiply": ["$$a", "$$b"]}}}`, want: `30`},
		{name: "inner let shadows", ref: letJS, doc: doc,
			expr: `{"$let": {"vars": {"var1": "$one"}, "in": {"$let": {"vars": {"var2": "$$var1", "var1": 3}, "in": {"$sum": ["$$var2", "$$var1"]}}}}}`, want: `4`},
		{name: "let rebinds CURRENT", ref: letJS, doc: doc,
			expr: `{"$let": {"vars": {"CURRENT": "$$ROOT.nested"}, "in": {"$multiply": ["$four", "$$ROOT.two"]}}}`, want: `8`},
		{name: "CURRENT set to a number", ref: letJS, doc: doc,
			expr: `{"$let": {"vars": {"CURRENT": "$three"}, "in": {"$multiply": ["$$CURRENT", "$$ROOT.two"]}}}`, want: `6`},
		{name: "swapping", ref: letJS, doc: doc,
			expr: `{"$let": {"vars": {"x": 6, "y": 10}, "in": {"$let": {"vars": {"x": "$$y", "y": "$$x"}, "in": {"$subtract": ["$$x", "$$y"]}}}}}`, want: `4`},
		{name: "unicode names", ref: letJS, expr: `{"$let": {"vars": {"日本語": 10}, "in": "$$日本語"}}`, want: `10`},
		{name: "item8 vars: {ROOT: 1} is FailedToParse", ref: letJS, expr: `{"$let": {"vars": {"ROOT": 1}, "in": "$$ROOT"}}`,
			code: mongoerr.FailedToParse, msg: invalidProject + "'ROOT' starts with an invalid character for a user variable name"},
		{name: "upper-case name", ref: letJS, expr: `{"$let": {"vars": {"FOO": 1}, "in": "$$FOO"}}`, code: mongoerr.FailedToParse},
		{name: "underscore name", ref: letJS, expr: `{"$let": {"vars": {"_underbar": 1}, "in": "$$FOO"}}`, code: mongoerr.FailedToParse},
		{name: "dotted name", ref: letJS, expr: `{"$let": {"vars": {"a.b": 1}, "in": "$$FOO"}}`, code: mongoerr.FailedToParse,
			msg: invalidProject + "'a.b' contains an invalid character for a variable name: '.'"},
		{name: "name with a space", ref: letJS, expr: `{"$let": {"vars": {"a b": 1}, "in": "$$FOO"}}`, code: mongoerr.FailedToParse},
		{name: "reading $$_underbar", ref: letJS, expr: `"$$_underbar"`, code: mongoerr.FailedToParse,
			msg: invalidProject + "'_underbar' starts with an invalid character for a user variable name"},
		{name: "reading $$with spaces", ref: letJS, expr: `"$$with spaces"`, code: mongoerr.FailedToParse},
		{name: "vars cannot see each other", ref: letJS, doc: doc,
			expr: `{"$let": {"vars": {"var1": "$one", "var2": "$$var1"}, "in": "$$var1"}}`, code: 17276,
			msg: invalidProject + "Use of undefined variable: var1"},
	})
}

func TestExpressionMap(t *testing.T) {
	doc := `{"_id": 0, "simple": [1, 2, 3, 4], "nested": [{"a": 1}, {"a": 2}], "mixed": [{"a": 1}, {}, {"a": 2}, {"a": null}], "notArray": 1, "null": null}`
	runExprCases(t, []exprCase{
		{name: "as var", ref: mapJS, doc: doc, expr: `{"$map": {"input": "$simple", "as": "var", "in": {"$add": [10, "$$var"]}}}`, want: `[11, 12, 13, 14]`},
		{name: "default this", ref: mapJS, doc: doc, expr: `{"$map": {"input": "$simple", "in": "$$this"}}`, want: `[1, 2, 3, 4]`},
		{name: "field of the variable", ref: mapJS, doc: doc, expr: `{"$map": {"input": "$nested", "as": "var", "in": "$$var.a"}}`, want: `[1, 2]`},
		{name: "item9 as CURRENT rebinds $a", ref: mapJS, doc: doc, expr: `{"$map": {"input": "$nested", "as": "CURRENT", "in": "$a"}}`, want: `[1, 2]`},
		{name: "CURRENT is restored afterwards", ref: mapJS, doc: `{"_id": 0, "a": "top", "n": [{"a": 1}]}`,
			expr: `[{"$map": {"input": "$n", "as": "CURRENT", "in": "$a"}}, "$a"]`, want: `[[1], "top"]`},
		{name: "missing becomes null", ref: mapJS, doc: doc, expr: `{"$map": {"input": "$mixed", "as": "var", "in": "$$var.a"}}`, want: `[1, null, 2, null]`},
		{name: "null input", ref: mapJS, doc: doc, expr: `{"$map": {"input": "$null", "as": "var", "in": "$$var"}}`, want: `null`},
		{name: "as ROOT", ref: mapJS, doc: doc, expr: `{"$map": {"input": "$simple", "as": "ROOT", "in": "$$ROOT"}}`, code: mongoerr.FailedToParse},
		{name: "not an array", ref: mapJS, doc: doc, expr: `{"$map": {"input": "$notArray", "as": "var", "in": "$$var"}}`, code: 16883,
			msg: planExecutor + "input to $map must be an array not int"},
		{name: "unknown argument", ref: mapJS, doc: doc, expr: `{"$map": {"x": 1, "input": "$simple", "as": "var", "in": "$$var"}}`, code: 16879},
		{name: "no input", ref: mapJS, doc: doc, expr: `{"$map": {"as": "var", "in": "$$var"}}`, code: 16880},
		{name: "no in", ref: mapJS, doc: doc, expr: `{"$map": {"input": "$simple", "as": "var"}}`, code: 16882},
		{name: "undefined variable", ref: mapJS, doc: doc, expr: `{"$map": {"input": "$simple", "in": "$$var"}}`, code: 17276},
	})
}

func TestExpressionReduceAndPaths(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "sum", ref: reduceJS, expr: `{"$reduce": {"input": [1, 2, 3], "initialValue": {"$literal": 0}, "in": {"$sum": ["$$this", "$$value"]}}}`, want: `6`},
		{name: "empty input", ref: reduceJS, expr: `{"$reduce": {"input": [], "initialValue": {"$literal": 0}, "in": 10}}`, want: `0`},
		{name: "concat", ref: reduceJS, expr: `{"$reduce": {"input": [1, 2, 3], "initialValue": [], "in": {"$concatArrays": ["$$value", ["$$this"]]}}}`, want: `[1, 2, 3]`},
		{name: "item10 a path skips nested arrays", ref: reduceJS,
			expr: `{"$reduce": {"input": [1, 2], "initialValue": [], "in": {"$concatArrays": ["$$value", ["$$value.notAField"]]}}}`, want: `[[], []]`},
		{name: "nested reduce", ref: reduceJS,
			expr: `{"$reduce": {"input": [[1, 2, 3], [4, 5]], "initialValue": 1, "in": {"$multiply": ["$$value", {"$reduce": {"input": "$$this", "initialValue": 0, "in": {"$sum": ["$$value", "$$this"]}}}]}}}`,
			want: `54`},
		{name: "null input", ref: reduceJS, expr: `{"$reduce": {"input": "$nonexistent", "initialValue": {"$literal": 0}, "in": 5}}`, want: `null`},
		{name: "not an object", ref: reduceJS, expr: `{"$reduce": 0}`, code: 40075},
		{name: "$$value outside in", ref: reduceJS, expr: `{"$reduce": {"input": "$$value", "initialValue": [], "in": []}}`, code: 17276},
		{name: "field path through an array of documents", ref: "src/mongo/db/pipeline/expression.cpp ExpressionFieldPath::evaluatePathArray",
			doc: `{"_id": 0, "a": [{"b": 1}, {"c": 2}, {"b": [3]}, 4, [{"b": 5}]]}`, expr: `"$a.b"`, want: `[1, [3]]`},
	})
}
