package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// $add and $multiply are left associative in mongod 8.0
// (getAssociativity() returns kLeft in expression.h): ExpressionNary::optimize
// folds only the constants before their first non-constant argument, so
// that overflow, rounding and type promotion happen in the order written.
const leftAssocRef = "src/mongo/db/pipeline/expression.h (ExpressionAdd, ExpressionMultiply::getAssociativity); " +
	exprCpp + " (ExpressionNary::optimize); jstests/aggregation/expressions/constant_folding.js"

func TestExprLeftAssociativeFolding(t *testing.T) {
	s := newSuite(t)
	// The explain of a $group shows its _id as optimize() left it.
	groupID := func(op string) cover { return cover{family: expression, op: op, col: semantics} }
	for _, tc := range []struct{ name, op, id, want string }{
		{"add folds its leading constants", "$add", `{"$add": [1, 2, "$x"]}`, `{"$add": [{"$const": 3}, "$x"]}`},
		{"multiply folds its leading constants", "$multiply", `{"$multiply": [5, 2, "$x", 3, 4]}`, `{"$multiply": [{"$const": 10}, "$x", {"$const": 3}, {"$const": 4}]}`},
		{"add keeps constants after a field", "$add", `{"$add": ["$x", 1, 2]}`, `{"$add": ["$x", {"$const": 1}, {"$const": 2}]}`},
		{"multiply keeps constants around a field", "$multiply", `{"$multiply": [1, "$x", 2]}`, `{"$multiply": [{"$const": 1}, "$x", {"$const": 2}]}`},
		{"add of nested constants folds whole", "$add", `{"$add": [{"$add": [1, 2]}, 3, 4]}`, `{"$const": 10}`},
	} {
		s.runCase(t, tc.name, leftAssocRef, groupID(tc.op), func(t *testing.T, db *mongo.Database) {
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$group": {"_id": `+tc.id+`, "n": {"$sum": 1}}}]`, "queryPlanner")
			group, _ := field(lastStage(t, reply), "$group").(bson.D)
			sameValue(t, "_id", field(group, "_id"), tc.want)
		})
	}
	runExprCases(t, []exprCase{
		// The leading run is evaluated while the pipeline is optimized, so
		// its error comes before any document is read.
		{name: "add fails on a bad leading constant before reading a null field", ref: leftAssocRef, doc: `{"_id": 0, "x": null}`,
			expr: `{"$add": [1, "a", "$x"]}`, code: 14, msg: "Failed to optimize pipeline :: caused by :: $add only supports numeric or date types, not string"},
		// Constants after the field are left for the evaluation, which
		// stops at the null field.
		{name: "add is null at a null field before a bad constant", ref: leftAssocRef, doc: `{"_id": 0, "x": null}`,
			expr: `{"$add": ["$x", 1, "a"]}`, want: `null`},
		{name: "multiply keeps the leading product's type", ref: leftAssocRef, cov: cover{op: "$multiply", col: types}, doc: `{"_id": 0, "x": 2}`,
			expr: `{"$multiply": [{"$numberLong": "3"}, 2, "$x"]}`, want: `{"$numberLong": "12"}`},
	})
}

// $and and $or are commutative and fully associative: ExpressionNary::optimize
// gathers their constants into one at the back, and ExpressionAnd::optimize
// and ExpressionOr::optimize then let a deciding constant stand for the
// whole, or drop one that decides nothing.
const andOrFoldRef = exprCpp + " (ExpressionAnd::optimize, ExpressionOr::optimize, ExpressionCoerceToBool::serialize); " +
	"jstests/aggregation/bugs/server6192_server6193.js"

func TestExprAndOrFolding(t *testing.T) {
	s := newSuite(t)
	for _, tc := range []struct{ name, op, id, want string }{
		{"and with a false constant anywhere is false", "$and", `{"$and": [1, "$x", 0]}`, `{"$const": false}`},
		{"or with a true constant anywhere is true", "$or", `{"$or": ["", "$x", 1]}`, `{"$const": true}`},
		{"and drops a true constant", "$and", `{"$and": ["$x", 1, "$y"]}`, `{"$and": ["$x", "$y"]}`},
		{"and without constants stays", "$and", `{"$and": ["$x", "$x"]}`, `{"$and": ["$x", "$x"]}`},
	} {
		s.runCase(t, tc.name, andOrFoldRef, cover{family: expression, op: tc.op, col: semantics}, func(t *testing.T, db *mongo.Database) {
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$group": {"_id": `+tc.id+`, "n": {"$sum": 1}}}]`, "queryPlanner")
			group, _ := field(lastStage(t, reply), "$group").(bson.D)
			sameValue(t, "_id", field(group, "_id"), tc.want)
		})
	}
}
