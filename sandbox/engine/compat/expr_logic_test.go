package compat_test

import "testing"

// Comparison, boolean and conditional operators, literals, variables and
// field paths: src/mongo/db/pipeline/expression.cpp (ExpressionCompare,
// ExpressionCond, ExpressionSwitch, ExpressionIfNull, ExpressionFieldPath),
// src/mongo/db/exec/expression/evaluate_logical.cpp, and
// src/mongo/db/exec/document_value/value.cpp (Value::compare,
// coerceToBool).

const (
	exprCpp    = "src/mongo/db/pipeline/expression.cpp"
	valueCpp   = "src/mongo/db/exec/document_value/value.cpp"
	logicDoc   = `{"_id": 0, "a": 1, "b": 1.0, "dec": {"$numberDecimal": "1.00"}, "s": "a", "n": null, "arr": [1, 2], "nan": {"$numberDouble": "NaN"}}`
	switchExpr = "$switch"
)

func TestExpressionCompare(t *testing.T) {
	ref := valueCpp + " (Value::compare); " + exprCpp + " (ExpressionCompare)"
	runExprCases(t, []exprCase{
		{name: "numbers of different types are equal", ref: ref, cov: cover{col: types}, doc: logicDoc, expr: `{"$eq": ["$a", "$dec"]}`, want: `true`},
		{name: "missing is not null", ref: ref, doc: logicDoc, expr: `{"$eq": ["$nope", null]}`, want: `false`},
		{name: "missing sorts below null", ref: ref, doc: logicDoc, expr: `{"$lt": ["$nope", "$n"]}`, want: `true`},
		{name: "NaN equals NaN", ref: ref, doc: logicDoc, expr: `{"$eq": ["$nan", "$nan"]}`, want: `true`},
		{name: "NaN sorts below every number", ref: ref, doc: logicDoc, expr: `{"$lt": ["$nan", {"$numberDouble": "-Infinity"}]}`, want: `true`},
		{name: "numbers sort below strings", ref: ref, cov: cover{op: "$gt", col: types}, doc: logicDoc, expr: `{"$gt": ["$s", 100]}`, want: `true`},
		{name: "arrays compare element by element", ref: ref, cov: cover{op: "$gte"}, doc: logicDoc, expr: `{"$gte": ["$arr", [1, 1, 5]]}`, want: `true`},
		{name: "an array is not compared by its elements", ref: ref, cov: cover{op: "$ne"}, doc: logicDoc, expr: `{"$ne": ["$arr", 1]}`, want: `true`},
		{name: "lte", ref: ref, cov: cover{op: "$lte"}, doc: logicDoc, expr: `{"$lte": ["$a", "$b"]}`, want: `true`},
		{name: "cmp is an int", ref: ref, cov: cover{op: "$cmp", col: types}, doc: logicDoc, expr: `{"$cmp": ["$s", "b"]}`, want: `-1`},
		{name: "cmp of equal values", ref: ref, cov: cover{op: "$cmp"}, doc: logicDoc, expr: `{"$cmp": ["$a", "$b"]}`, want: `0`},
		{name: "comparisons take two arguments", ref: exprCpp, expr: `{"$eq": [1]}`,
			code: 16020, msg: invalidProject + "Expression $eq takes exactly 2 arguments. 1 were passed in."},
		{name: "cmp takes two arguments", ref: exprCpp, cov: cover{op: "$cmp"}, expr: `{"$cmp": [1, 2, 3]}`,
			code: 16020, msg: invalidProject + "Expression $cmp takes exactly 2 arguments. 3 were passed in."},
	})
}

func TestExpressionBoolean(t *testing.T) {
	ref := valueCpp + " (Value::coerceToBool)"
	runExprCases(t, []exprCase{
		{name: "and of truthy values", ref: ref, doc: logicDoc, expr: `{"$and": ["$a", "$s", "$arr"]}`, want: `true`},
		{name: "and with zero", ref: ref, doc: logicDoc, expr: `{"$and": ["$a", 0]}`, want: `false`},
		{name: "and with missing", ref: ref, doc: logicDoc, expr: `{"$and": ["$a", "$nope"]}`, want: `false`},
		{name: "and with a decimal zero", ref: ref, cov: cover{col: types}, doc: logicDoc, expr: `{"$and": [{"$numberDecimal": "0.00"}]}`, want: `false`},
		{name: "and of nothing", ref: ref, doc: logicDoc, expr: `{"$and": []}`, want: `true`},
		{name: "or with null", ref: ref, cov: cover{op: "$or"}, doc: logicDoc, expr: `{"$or": ["$n", false]}`, want: `false`},
		{name: "or with NaN", ref: ref, cov: cover{op: "$or", col: types}, doc: logicDoc, expr: `{"$or": ["$nan"]}`, want: `true`},
		{name: "or of nothing", ref: ref, cov: cover{op: "$or"}, doc: logicDoc, expr: `{"$or": []}`, want: `false`},
		{name: "not of an empty string", ref: ref, cov: cover{op: "$not", col: types}, doc: logicDoc, expr: `{"$not": [""]}`, want: `false`},
		{name: "not of null", ref: ref, cov: cover{op: "$not"}, doc: logicDoc, expr: `{"$not": "$n"}`, want: `true`},
		{name: "not takes one argument", ref: exprCpp, cov: cover{op: "$not"}, expr: `{"$not": [1, 2]}`,
			code: 16020, msg: invalidProject + "Expression $not takes exactly 1 arguments. 2 were passed in."},
	})
}

func TestExpressionConditional(t *testing.T) {
	condJS := "jstests/aggregation/expressions/cond.js"
	ifNullJS := "jstests/aggregation/expressions/ifnull.js"
	runExprCases(t, []exprCase{
		{name: "cond object form", ref: condJS, doc: logicDoc, expr: `{"$cond": {"if": "$a", "then": "yes", "else": "no"}}`, want: `"yes"`},
		{name: "cond array form", ref: condJS, doc: logicDoc, expr: `{"$cond": ["$n", "yes", "no"]}`, want: `"no"`},
		{name: "cond may yield missing", ref: condJS, doc: logicDoc, expr: `{"$cond": ["$a", "$nope", "no"]}`, missing: true},
		{name: "cond array form takes three", ref: exprCpp, doc: logicDoc, expr: `{"$cond": [1, 2]}`,
			code: 16020, msg: invalidProject + "Expression $cond takes exactly 3 arguments. 2 were passed in."},
		{name: "cond with an unknown parameter", ref: exprCpp, expr: `{"$cond": {"if": 1, "then": 2, "else": 3, "other": 4}}`,
			code: 17083, msg: invalidProject + "Unrecognized parameter to $cond: other"},
		{name: "cond without if", ref: exprCpp, expr: `{"$cond": {"then": 2, "else": 3}}`,
			code: 17080, msg: invalidProject + "Missing 'if' parameter to $cond"},
		{name: "cond without then", ref: exprCpp, expr: `{"$cond": {"if": 2, "else": 3}}`,
			code: 17081, msg: invalidProject + "Missing 'then' parameter to $cond"},
		{name: "ifNull takes the first non-null", ref: ifNullJS, cov: cover{op: "$ifNull"}, doc: logicDoc,
			expr: `{"$ifNull": ["$nope", "$n", "$a", "$s"]}`, want: `1`},
		{name: "ifNull returns the last one as it is", ref: ifNullJS, cov: cover{op: "$ifNull"}, doc: logicDoc,
			expr: `{"$ifNull": ["$n", "$nope"]}`, missing: true},
		{name: "ifNull needs two arguments", ref: exprCpp, cov: cover{op: "$ifNull"}, expr: `{"$ifNull": [1]}`,
			code: 1257300, msg: invalidProject + "$ifNull needs at least two arguments, had: 1"},
		{name: "switch takes the first true case", ref: exprCpp, cov: cover{op: switchExpr}, doc: logicDoc,
			expr: `{"$switch": {"branches": [{"case": "$n", "then": 1}, {"case": "$a", "then": 2}], "default": 3}}`, want: `2`},
		{name: "switch falls to the default", ref: exprCpp, cov: cover{op: switchExpr}, doc: logicDoc,
			expr: `{"$switch": {"branches": [{"case": "$n", "then": 1}], "default": "$s"}}`, want: `"a"`},
		{name: "switch with no branches, even with a default", ref: exprCpp + " (ExpressionSwitch::parse); jstests/aggregation/expressions/switch_errors.js", cov: cover{op: switchExpr},
			doc: logicDoc, expr: `{"$switch": {"branches": [], "default": "$a"}}`, code: 40068, msg: invalidProject + "$switch requires at least one branch."},
		{name: "switch without branches", ref: exprCpp + " (ExpressionSwitch::parse); jstests/aggregation/expressions/switch_errors.js", cov: cover{op: switchExpr},
			expr: `{"$switch": {}}`, code: 40068, msg: invalidProject + "$switch requires at least one branch."},
		{name: "switch with no match and no default", ref: exprCpp, cov: cover{op: switchExpr}, doc: logicDoc,
			expr: `{"$switch": {"branches": [{"case": "$n", "then": 1}]}}`,
			code: 40066, msg: planExecutor + "$switch could not find a matching branch for an input, and no default was specified."},
		{name: "switch whose cases are all constant false", ref: exprCpp + " (ExpressionSwitch::optimize)", cov: cover{op: switchExpr},
			expr: `{"$switch": {"branches": [{"case": false, "then": 1}]}}`,
			code: 40069, msg: optimizeError + "Cannot execute a switch statement where all the cases evaluate to false without a default"},
		{name: "switch of a non-object", ref: exprCpp, cov: cover{op: switchExpr}, expr: `{"$switch": 1}`,
			code: 40060, msg: invalidProject + "$switch requires an object as an argument, found: int"},
		{name: "switch branches not an array", ref: exprCpp, cov: cover{op: switchExpr}, expr: `{"$switch": {"branches": {}}}`,
			code: 40061, msg: invalidProject + "$switch expected an array for 'branches', found: object"},
		{name: "switch branch not an object", ref: exprCpp, cov: cover{op: switchExpr}, expr: `{"$switch": {"branches": [1]}}`,
			code: 40062, msg: invalidProject + "$switch expected each branch to be an object, found: int"},
		{name: "switch branch with an unknown field", ref: exprCpp, cov: cover{op: switchExpr}, expr: `{"$switch": {"branches": [{"case": 1, "then": 2, "x": 3}]}}`,
			code: 40063, msg: invalidProject + "$switch found an unknown argument to a branch: x"},
		{name: "switch branch without case", ref: exprCpp, cov: cover{op: switchExpr}, expr: `{"$switch": {"branches": [{"then": 2}]}}`,
			code: 40064, msg: invalidProject + "$switch requires each branch have a 'case' expression"},
		{name: "switch branch without then", ref: exprCpp, cov: cover{op: switchExpr}, expr: `{"$switch": {"branches": [{"case": 2}]}}`,
			code: 40065, msg: invalidProject + "$switch requires each branch have a 'then' expression."},
		{name: "switch with an unknown field", ref: exprCpp, cov: cover{op: switchExpr}, expr: `{"$switch": {"branches": [], "x": 1}}`,
			code: 40067, msg: invalidProject + "$switch found an unknown argument: x"},
	})
}

func TestExpressionLiteralsAndPaths(t *testing.T) {
	ref := exprCpp + " (ExpressionConstant, ExpressionFieldPath)"
	doc := `{"_id": 0, "a": {"b": [{"c": 1}, {"c": 2}, {"d": 3}, 4]}, "x": 5}`
	runExprCases(t, []exprCase{
		{name: "literal keeps a dollar string", ref: ref, expr: `{"$literal": "$x"}`, want: `"$x"`},
		{name: "literal keeps an operator object", ref: ref, expr: `{"$literal": {"$add": [1, 2]}}`, want: `{"$add": [1, 2]}`},
		{name: "const is literal", ref: ref, cov: cover{op: "$const"}, expr: `{"$const": [1, "$x"]}`, want: `[1, "$x"]`},
		{name: "a path through an array collects", ref: ref, doc: doc, expr: `"$a.b.c"`, want: `[1, 2]`},
		{name: "ROOT", ref: ref, doc: doc, expr: `"$$ROOT.x"`, want: `5`},
		{name: "CURRENT", ref: ref, doc: doc, expr: `"$$CURRENT.x"`, want: `5`},
		{name: "REMOVE leaves the field out", ref: ref, doc: doc, expr: `"$$REMOVE"`, missing: true},
		{name: "NOW is a date", ref: ref, cov: cover{col: types}, doc: doc, expr: `{"$type": "$$NOW"}`, want: `"date"`},
		{name: "IS_MR is a builtin variable only mapReduce sets", ref: "src/mongo/db/pipeline/variables.cpp (Variables::getValue); jstests/aggregation/sources/group/group_by_system_variable.js",
			doc: doc, expr: `"$$IS_MR"`, code: 51144, msg: planExecutor + "Builtin variable '$$IS_MR' is not available"},
		{name: "JS_SCOPE is a builtin variable only mapReduce sets", ref: "src/mongo/db/pipeline/variables.cpp (Variables::getValue)",
			doc: doc, expr: `"$$JS_SCOPE"`, code: 51144, msg: planExecutor + "Builtin variable '$$JS_SCOPE' is not available"},
		{name: "a dollar alone", ref: ref, expr: `"$"`, code: 16872, msg: invalidProject + "'$' by itself is not a valid FieldPath"},
		{name: "a path ending in a dot", ref: "src/mongo/db/pipeline/field_path.cpp", expr: `"$a."`,
			code: 40353, msg: invalidProject + "FieldPath must not end with a '.'."},
		{name: "an undefined variable", ref: "src/mongo/db/pipeline/variables.cpp", expr: `"$$nope"`,
			code: 17276, msg: invalidProject + "Use of undefined variable: nope"},
		{name: "an array literal keeps missing as null", ref: exprCpp + " (ExpressionArray)", doc: doc, expr: `["$nope", "$x"]`, want: `[null, 5]`},
		{name: "an object literal leaves missing out", ref: exprCpp + " (ExpressionObject)", doc: doc, expr: `{"p": "$nope", "q": "$x"}`, want: `{"q": 5}`},
		{name: "an object with two operators", ref: exprCpp + " (Expression::parseExpression)", expr: `{"$add": [1], "$abs": 1}`,
			code: 15983, msg: invalidProject + "An object representing an expression must have exactly one field: { $add: [ 1 ], $abs: 1 }"},
		// The case runs in $project, whose projection_parser.cpp answers
		// before Expression::parseExpression does.
		{name: "an unknown operator", ref: "src/mongo/db/query/projection_parser.cpp parseSubObject (31325)", expr: `{"$bogus": 1}`,
			code: 31325, msg: invalidProject + "Unknown expression $bogus"},
	})
}

// The BSON types the comparison, conditional and variable operators take
// and give: numbers of different types compare as numbers, other types by
// their canonical order, truthiness is Value::coerceToBool's, and a value
// read from a variable, a path or a literal keeps its type.
func TestExpressionLogicTypes(t *testing.T) {
	ref := valueCpp + " (Value::compare, canonical type order)"
	truth := valueCpp + " (Value::coerceToBool)"
	doc := `{"_id": 0, "i": 2, "l": {"$numberLong": "2"}, "d": 2.0, "dec": {"$numberDecimal": "2"}, "dec0": {"$numberDecimal": "0.0"},
		"o": {"x": 1}, "s": "x", "es": "", "arr": [{"v": {"$numberLong": "1"}}, {"v": 1.5}]}`
	runExprCases(t, []exprCase{
		{name: "gte of a long and an equal double", ref: ref, cov: cover{op: "$gte", col: types}, doc: doc, expr: `{"$gte": ["$l", "$d"]}`, want: `true`},
		{name: "lt of a decimal and a double", ref: ref, cov: cover{op: "$lt", col: types}, doc: doc, expr: `{"$lt": ["$dec", 2.5]}`, want: `true`},
		{name: "lte: a document sorts after a string", ref: ref, cov: cover{op: "$lte", col: types}, doc: doc, expr: `{"$lte": ["$o", "$s"]}`, want: `false`},
		{name: "ne of an int and an equal decimal", ref: ref, cov: cover{op: "$ne", col: types}, doc: doc, expr: `{"$ne": ["$i", "$dec"]}`, want: `false`},
		{name: "cond: a decimal zero is false", ref: truth, cov: cover{op: "$cond", col: types}, doc: doc,
			expr: `{"$cond": ["$dec0", "yes", "no"]}`, want: `"no"`},
		{name: "switch: an empty string is true", ref: truth, cov: cover{op: switchExpr, col: types}, doc: doc,
			expr: `{"$switch": {"branches": [{"case": "$dec0", "then": 1}, {"case": "$es", "then": "$l"}], "default": 3}}`, want: `{"$numberLong": "2"}`},
		{name: "ifNull: false is not null, and keeps its type", ref: exprCpp + " (ExpressionIfNull: nullish only)", cov: cover{op: "$ifNull", col: types}, doc: doc,
			expr: `{"$ifNull": ["$nope", "$dec0", 1]}`, want: `{"$numberDecimal": "0.0"}`},
		{name: "let binds a value with its type", ref: "jstests/aggregation/expressions/let.js", cov: cover{op: "$let", col: types}, doc: doc,
			expr: `{"$let": {"vars": {"v": "$dec"}, "in": ["$$v", "$$v"]}}`, want: `[{"$numberDecimal": "2"}, {"$numberDecimal": "2"}]`},
		{name: "ROOT keeps the types of the document", ref: exprCpp + " (ExpressionFieldPath)", cov: cover{op: "$$variable", col: types},
			doc: `{"_id": 0, "l": {"$numberLong": "7"}, "dec": {"$numberDecimal": "1.50"}}`, expr: `"$$ROOT"`,
			want: `{"_id": 0, "l": {"$numberLong": "7"}, "dec": {"$numberDecimal": "1.50"}}`},
		{name: "a path through an array keeps each type", ref: exprCpp + " (ExpressionFieldPath)", cov: cover{op: "$field path", col: types}, doc: doc,
			expr: `"$arr.v"`, want: `[{"$numberLong": "1"}, 1.5]`},
		{name: "literal keeps a decimal's trailing zeros", ref: exprCpp + " (ExpressionConstant)", cov: cover{op: "$literal", col: types},
			expr: `{"$literal": {"$numberDecimal": "1.50"}}`, want: `{"$numberDecimal": "1.50"}`},
		{name: "const keeps a long", ref: exprCpp + " (ExpressionConstant)", cov: cover{op: "$const", col: types},
			expr: `{"$const": {"$numberLong": "9"}}`, want: `{"$numberLong": "9"}`},
		{name: "an array literal keeps its types", ref: exprCpp + " (ExpressionArray)", cov: cover{op: "literal", col: types},
			expr: `[{"$numberLong": "1"}, 1.5, {"$numberDecimal": "2"}, "s"]`, want: `[{"$numberLong": "1"}, 1.5, {"$numberDecimal": "2"}, "s"]`},
	})
}

// Errors of the operators that validate nothing of their own: $and and
// $or evaluate their arguments in order and stop at the first that
// decides, so an argument's error surfaces only when it is reached;
// $literal and $const are one-field objects like any operator; an object
// literal's field names are field names.
func TestExpressionLogicErrors(t *testing.T) {
	logical := "src/mongo/db/exec/expression/evaluate_logical.cpp (ExpressionAnd, ExpressionOr evaluate in order)"
	zero := `{"_id": 0, "z": 0}`
	divideByZero := planExecutor + "can't $divide by zero"
	runExprCases(t, []exprCase{
		{name: "and reaches an erring argument", ref: logical, cov: cover{op: "$and"}, doc: zero,
			expr: `{"$and": [true, {"$divide": [1, "$z"]}]}`, code: 2, msg: divideByZero},
		{name: "and stops before an erring argument", ref: logical, cov: cover{op: "$and"}, doc: zero,
			expr: `{"$and": ["$z", {"$divide": [1, "$z"]}]}`, want: `false`},
		{name: "or reaches an erring argument", ref: logical, cov: cover{op: "$or"}, doc: zero,
			expr: `{"$or": ["$z", {"$divide": [1, "$z"]}]}`, code: 2, msg: divideByZero},
		{name: "a constant false decides and before an erring argument", ref: exprCpp + " (ExpressionNary::optimize gathers constants at the back; ExpressionAnd::optimize)",
			cov: cover{op: "$and"}, doc: zero, expr: `{"$and": [{"$divide": [1, "$z"]}, false]}`, want: `false`},
		{name: "a constant true decides or before an erring argument", ref: exprCpp + " (ExpressionNary::optimize gathers constants at the back; ExpressionOr::optimize)",
			cov: cover{op: "$or"}, doc: zero, expr: `{"$or": [{"$divide": [1, "$z"]}, "x"]}`, want: `true`},
		{name: "or stops before an erring argument", ref: logical, cov: cover{op: "$or"}, doc: zero,
			expr: `{"$or": [1, {"$divide": [1, "$z"]}]}`, want: `true`},
		{name: "literal with a second field", ref: exprCpp + " (Expression::parseExpression)", cov: cover{op: "$literal"},
			expr: `{"$literal": 1, "x": 2}`, code: 15983, msg: invalidProject + "An object representing an expression must have exactly one field: { $literal: 1, x: 2 }"},
		{name: "const with a second field", ref: exprCpp + " (Expression::parseExpression)", cov: cover{op: "$const"},
			expr: `{"$const": 1, "x": 2}`, code: 15983, msg: invalidProject + "An object representing an expression must have exactly one field: { $const: 1, x: 2 }"},
		{name: "an object literal with a dollar field after another", ref: "jstests/aggregation/sources/group/group_by_expr.js (16410); src/mongo/db/pipeline/field_path.cpp",
			cov: cover{op: "literal"}, expr: `[{"y": 1, "$x": 2}]`,
			code: 16410, msg: invalidProject + "FieldPath field names may not start with '$'. Consider using $getField or $setField."},
		{name: "expr with a second field", ref: "jstests/aggregation/sources/group/group_by_expr.js (15983)", cov: cover{op: "$expr"},
			expr: `{"$expr": {"$eq": [1, 1]}, "y": 1}`, code: 15983,
			msg: invalidProject + "An object representing an expression must have exactly one field: { $expr: { $eq: [ 1, 1 ] }, y: 1 }"},
		// As an aggregation expression, $expr is its operand: it keeps the
		// operand's type (a string, an object, a computed number in the
		// jstest) and does not coerce to bool as a query's $expr does.
		{name: "expr keeps a long's type", ref: "jstests/aggregation/sources/group/group_by_expr.js", cov: cover{op: "$expr", col: types},
			doc: `{"_id": 0, "v": {"$numberLong": "7"}}`, expr: `{"$expr": "$v"}`, want: `{"$numberLong": "7"}`},
		{name: "expr keeps a decimal zero, not false", ref: "jstests/aggregation/sources/group/group_by_expr.js", cov: cover{op: "$expr", col: types},
			doc: `{"_id": 0, "v": {"$numberDecimal": "0"}}`, expr: `{"$expr": "$v"}`, want: `{"$numberDecimal": "0"}`},
		{name: "expr of a missing field is missing", ref: "jstests/aggregation/sources/group/group_by_expr.js", cov: cover{op: "$expr", col: types},
			expr: `{"$expr": "$v"}`, missing: true},
	})
}
