package expr

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func TestFieldPathsAndVariables(t *testing.T) {
	runCases(t, []exprCase{
		{name: "field", expr: `"$a"`, doc: `{"a": 1}`, want: `{"$numberInt": "1"}`},
		{name: "nested", expr: `"$a.b"`, doc: `{"a": {"b": "x"}}`, want: `"x"`},
		{name: "missing", expr: `"$nope"`, doc: `{"a": 1}`, want: `missing`},
		{name: "array of docs", expr: `"$a.b"`, doc: `{"a": [{"b": 1}, {"c": 2}, {"b": 3}, 4]}`, want: `[1, 3]`},
		{name: "nested arrays skipped", expr: `"$a.b"`, doc: `{"a": [[{"b": 1}], {"b": 2}]}`, want: `[2]`},
		{name: "numeric component is a field", expr: `"$a.0"`, doc: `{"a": [10, 20]}`, want: `[]`},
		{name: "root", expr: `"$$ROOT.a"`, doc: `{"a": 5}`, want: `{"$numberInt": "5"}`},
		{name: "current", expr: `"$$CURRENT.a"`, doc: `{"a": 5}`, want: `{"$numberInt": "5"}`},
		{name: "remove", expr: `"$$REMOVE"`, want: `missing`},
		{name: "now", expr: `"$$NOW"`, want: `{"$date": "2024-03-15T12:00:00Z"}`},
		{name: "undefined variable", expr: `"$$x"`, code: 17276, msg: "Use of undefined variable: x"},
		{name: "bad variable", expr: `"$$1x"`, code: mongoerr.FailedToParse, msg: "'1x' starts with an invalid character for a user variable name"},
		{name: "dollar alone", expr: `"$"`, code: 16872},
		{name: "unknown operator", expr: `{"$foo": 1}`, code: mongoerr.InvalidPipelineOperator, msg: "Unrecognized expression '$foo'"},
		{name: "two operators", expr: `{"$add": [1], "$sub": 2}`, code: 15983},
		{name: "object literal", expr: `{"a": "$x", "b": {"$add": [1, 1]}, "c": "$nope"}`, doc: `{"x": 1}`, want: `{"a": 1, "b": 2}`},
		{name: "dotted field in object", expr: `{"a.b": 1}`, code: 16412},
		{name: "dollar field in object", expr: `{"a": 1, "$b": 1}`, code: 16410},
		{name: "array literal evaluates", expr: `["$a", 2, "$nope"]`, doc: `{"a": 1}`, want: `[1, 2, null]`},
		{name: "literal", expr: `{"$literal": "$a"}`, doc: `{"a": 1}`, want: `"$a"`},
		{name: "let", expr: `{"$let": {"vars": {"x": 2, "y": "$a"}, "in": {"$multiply": ["$$x", "$$y"]}}}`, doc: `{"a": 5}`, want: `{"$numberInt": "10"}`},
		{name: "let shadowing", expr: `{"$let": {"vars": {"x": 1}, "in": {"$let": {"vars": {"x": 2}, "in": "$$x"}}}}`, want: `{"$numberInt": "2"}`},
		{name: "let vars see outer scope only", expr: `{"$let": {"vars": {"x": 1, "y": "$$x"}, "in": "$$y"}}`, code: 17276},
		{name: "let out of scope", expr: `{"$add": [{"$let": {"vars": {"x": 1}, "in": "$$x"}}, "$$x"]}`, code: 17276},
		{name: "let uppercase var", expr: `{"$let": {"vars": {"X": 1}, "in": 1}}`, code: mongoerr.FailedToParse},
		{name: "let current", expr: `{"$let": {"vars": {"CURRENT": "$a"}, "in": "$b"}}`, doc: `{"a": {"b": 7}}`, want: `{"$numberInt": "7"}`},
		{name: "let missing in", expr: `{"$let": {"vars": {}}}`, code: 16877},
	})
}

func TestCommandLevelVariables(t *testing.T) {
	e, err := Compile("$$limit", NewScope("limit"))
	if err != nil {
		t.Fatal(err)
	}
	env := NewEnv(bson.D{}, 0)
	env.SetVar("limit", int32(3))
	got, _ := e.Eval(env)
	if got != int32(3) {
		t.Fatalf("got %v", got)
	}
}

func TestComparisonBooleanConditional(t *testing.T) {
	runCases(t, []exprCase{
		{name: "eq numbers across types", expr: `{"$eq": [1, 1.0]}`, want: `true`},
		{name: "eq missing null", expr: `{"$eq": ["$nope", null]}`, want: `false`},
		{name: "gt string vs number", expr: `{"$gt": ["a", 1]}`, want: `true`},
		{name: "lt", expr: `{"$lt": [1, 2]}`, want: `true`},
		{name: "lte", expr: `{"$lte": [2, 2]}`, want: `true`},
		{name: "gte", expr: `{"$gte": [1, 2]}`, want: `false`},
		{name: "ne", expr: `{"$ne": [1, 2]}`, want: `true`},
		{name: "cmp", expr: `{"$cmp": [3, 1]}`, want: `{"$numberInt": "1"}`},
		{name: "cmp arity", expr: `{"$cmp": [3]}`, code: 16020},
		{name: "and", expr: `{"$and": [1, "a", true]}`, want: `true`},
		{name: "and zero", expr: `{"$and": [1, 0]}`, want: `false`},
		{name: "and empty", expr: `{"$and": []}`, want: `true`},
		{name: "or", expr: `{"$or": [null, 0, "$nope", false]}`, want: `false`},
		{name: "or true", expr: `{"$or": [null, [] ]}`, want: `true`},
		{name: "not", expr: `{"$not": [0]}`, want: `true`},
		{name: "not arity", expr: `{"$not": [1, 2]}`, code: 16020},
		{name: "cond array", expr: `{"$cond": [{"$gt": ["$a", 1]}, "big", "small"]}`, doc: `{"a": 2}`, want: `"big"`},
		{name: "cond object", expr: `{"$cond": {"if": false, "then": 1, "else": 2}}`, want: `{"$numberInt": "2"}`},
		{name: "cond missing else", expr: `{"$cond": {"if": false, "then": 1}}`, code: 17082},
		{name: "cond bad param", expr: `{"$cond": {"if": false, "then": 1, "else": 2, "x": 1}}`, code: 17083},
		{name: "ifNull", expr: `{"$ifNull": ["$a", "$b", "d"]}`, doc: `{"b": null}`, want: `"d"`},
		{name: "ifNull first", expr: `{"$ifNull": ["$a", "d"]}`, doc: `{"a": 0}`, want: `{"$numberInt": "0"}`},
		{name: "ifNull last may be missing", expr: `{"$ifNull": ["$a", "$b"]}`, want: `missing`},
		{name: "switch", expr: `{"$switch": {"branches": [{"case": {"$eq": ["$a", 1]}, "then": "one"}, {"case": true, "then": "other"}]}}`, doc: `{"a": 2}`, want: `"other"`},
		{name: "switch default", expr: `{"$switch": {"branches": [{"case": false, "then": 1}], "default": "d"}}`, want: `"d"`},
		{name: "switch no match", expr: `{"$switch": {"branches": [{"case": false, "then": 1}]}}`, code: 40066},
		{name: "switch no branches", expr: `{"$switch": {"branches": [], "default": 1}}`, code: 40068},
	})
}
