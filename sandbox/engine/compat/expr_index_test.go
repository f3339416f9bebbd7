package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// $expr comparisons of a field path with a constant are ANDed with
// mongod's internal comparisons ($_internalExprEq, ...), which can use an
// index (src/mongo/db/matcher/rewrite_expr.cpp RewriteExpr::rewrite,
// expression_internal_expr_comparison.h, index_bounds_builder.cpp
// INTERNAL_EXPR_*).

const rewriteRef = "src/mongo/db/matcher/rewrite_expr.cpp RewriteExpr::rewrite"

const exprDocs = `[{"_id": 0, "x": 0}, {"_id": 1, "x": 1, "y": 1}, {"_id": 2, "x": 2, "y": 2}, {"_id": 3, "x": 3, "y": 10},
	{"_id": 4, "y": 20}, {"_id": 5, "x": null}, {"_id": 6, "x": [0, 5]}]`

func exprIndexSetup(t *testing.T, db *mongo.Database) {
	t.Helper()
	insertDocs(t, db.Collection("c"), exprDocs)
	mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"y": 1}, "name": "y_1"}, {"key": {"x": 1}, "name": "x_1"}]}`)
}

func TestExprComparisonRewrite(t *testing.T) {
	s := newSuite(t)
	// The pipeline unit test MoveMatchWithExprBeforeAddFieldsIfInvolvedFieldsNotRelated
	// (pipeline_test.cpp) shows the explain form: the $expr first, then
	// the internal comparison.
	s.runCase(t, "$expr $eq is ANDed with $_internalExprEq", rewriteRef,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			exprIndexSetup(t, db)
			reply := mustCommand(t, db, `{"explain": {"find": "c", "filter": {"$expr": {"$eq": ["$y", 2]}}}, "verbosity": "queryPlanner"}`)
			qp, _ := field(reply, "queryPlanner").(bson.D)
			sameValue(t, "parsedQuery", field(qp, "parsedQuery"),
				`{"$and": [{"$expr": {"$eq": ["$y", {"$const": 2}]}}, {"y": {"$_internalExprEq": 2}}]}`)
			plan := winningPlan(t, reply)
			sameValue(t, "FETCH filter", field(plan, "filter"), `{"$expr": {"$eq": ["$y", {"$const": 2}]}}`)
			sameValue(t, "bounds", field(stageNamed(plan, "IXSCAN"), "indexBounds"), `{"y": ["[2, 2]"]}`)
		})
	// _rewriteComparisonExpression puts the field path on the left and
	// flips the operator; the bounds of $_internalExprLt/Gt run to
	// MinKey/MaxKey (no type bracketing).
	s.runCase(t, "constant on the left flips the comparison", rewriteRef,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			exprIndexSetup(t, db)
			ixscan, _ := ixscanOf(t, db, `{"find": "c", "filter": {"$expr": {"$lt": [2, "$y"]}}}`)
			sameValue(t, "bounds", field(ixscan, "indexBounds"), `{"y": ["(2, MaxKey]"]}`)
		})
	s.runCase(t, "$_internalExprLt scans from MinKey", "src/mongo/db/query/index_bounds_builder.cpp INTERNAL_EXPR_LT",
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			exprIndexSetup(t, db)
			ixscan, _ := ixscanOf(t, db, `{"find": "c", "filter": {"$expr": {"$lte": ["$y", 2]}}}`)
			sameValue(t, "bounds", field(ixscan, "indexBounds"), `{"y": ["[MinKey, 2]"]}`)
		})
	// QueryPlannerIXSelect: an $expr comparison cannot use a path that
	// held an array ("x" holds [0, 5]).
	s.runCase(t, "a multikey path is not indexed for $expr", "src/mongo/db/query/index_bounds_builder.cpp tassert 3994304",
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			exprIndexSetup(t, db)
			plan := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": {"$expr": {"$eq": ["$x", 1]}}}, "verbosity": "queryPlanner"}`))
			if stageChain(plan) != "COLLSCAN" {
				t.Errorf("plan %s, want COLLSCAN", stageChain(plan))
			}
		})
	// The $expr still decides: missing and null are below every number
	// in aggregation, and an array is compared whole.
	s.runCase(t, "results keep $expr semantics", rewriteRef,
		cover{family: query, op: "$expr", col: semantics}, func(t *testing.T, db *mongo.Database) {
			exprIndexSetup(t, db)
			got, err := cursorDocs(t, db, bson.D{{Key: "find", Value: "c"}, {Key: "filter", Value: ejDoc(t, `{"$expr": {"$lt": ["$x", 1]}}`)},
				{Key: "sort", Value: bson.D{{Key: "_id", Value: 1}}}, {Key: "projection", Value: bson.D{{Key: "_id", Value: 1}}}})
			if err != nil {
				t.Fatal(err)
			}
			sameDocs(t, "find", got, `[{"_id": 0}, {"_id": 4}, {"_id": 5}]`, false)
			got, err = cursorDocs(t, db, bson.D{{Key: "find", Value: "c"}, {Key: "filter", Value: ejDoc(t, `{"$expr": {"$gte": ["$y", 2]}}`)},
				{Key: "sort", Value: bson.D{{Key: "_id", Value: 1}}}, {Key: "projection", Value: bson.D{{Key: "_id", Value: 1}}}})
			if err != nil {
				t.Fatal(err)
			}
			sameDocs(t, "find", got, `[{"_id": 2}, {"_id": 3}, {"_id": 4}]`, false)
		})
	// _rewriteAndExpression keeps what it can rewrite; a comparison of
	// two fields has no rewrite.
	s.runCase(t, "$and keeps its rewritable children", rewriteRef,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			exprIndexSetup(t, db)
			reply := mustCommand(t, db, `{"explain": {"find": "c", "filter": {"$expr": {"$and": [{"$gt": ["$y", 1]}, {"$eq": ["$x", "$y"]}]}}}, "verbosity": "queryPlanner"}`)
			qp, _ := field(reply, "queryPlanner").(bson.D)
			sameValue(t, "parsedQuery", field(qp, "parsedQuery"),
				`{"$and": [{"$expr": {"$and": [{"$gt": ["$y", {"$const": 1}]}, {"$eq": ["$x", "$y"]}]}}, {"y": {"$_internalExprGt": 1}}]}`)
		})
}
