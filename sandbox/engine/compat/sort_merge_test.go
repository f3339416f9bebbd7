package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// A rooted $or with a sort that every branch's index scan gives is merged
// (SORT_MERGE) instead of sorted: src/mongo/db/query/planner_access.cpp
// (QueryPlannerAccess::buildIndexedOr), src/mongo/db/exec/merge_sort.cpp,
// src/mongo/db/query/plan_explainer_impl.cpp (sortPattern, dupsTested,
// dupsDropped); jstests/core/query/sort/sort_merge.js. The $or is
// subplanned: SUBPLAN is the root of its plan (src/mongo/db/exec/subplan.cpp).

const sortMergeRef = "src/mongo/db/query/planner_access.cpp (buildIndexedOr); src/mongo/db/exec/merge_sort.cpp; jstests/core/query/sort/sort_merge.js"

const sortMergeDocs = `[{"_id": 1, "a": 3, "b": 3, "s": 2}, {"_id": 2, "a": 4, "b": 4, "s": 1}, {"_id": 3, "a": 3, "b": 3, "s": 0},
	{"_id": 4, "a": 4, "b": 0, "s": 5}, {"_id": 5, "a": 4, "b": 4, "s": 3}]`

func TestSortMerge(t *testing.T) {
	s := newSuite(t)
	cov := explainCase(query, "$or")
	setup := func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), sortMergeDocs)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1, "s": 1}, "name": "a_s"}]}`)
	}
	const find = `{"find": "c", "filter": {"$or": [{"a": 4, "b": 4}, {"a": 3, "b": 3}]}, "sort": {"s": 1}}`
	s.runCase(t, "$or with a sort each branch gives: SORT_MERGE of fetched branches", sortMergeRef, cov, func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		plan := winningPlan(t, mustCommand(t, db, `{"explain": `+find+`, "verbosity": "queryPlanner"}`))
		sameValue(t, "root", field(plan, "stage"), `"SUBPLAN"`)
		merge, _ := field(plan, "inputStage").(bson.D)
		sameValue(t, "merge", bson.D{{Key: "stage", Value: field(merge, "stage")}, {Key: "sortPattern", Value: field(merge, "sortPattern")}},
			`{"stage": "SORT_MERGE", "sortPattern": {"s": 1}}`)
		branches, _ := field(merge, "inputStages").(bson.A)
		if len(branches) != 2 {
			t.Fatalf("want 2 branches, got %s", relaxed(merge))
		}
		for i, want := range []string{`{"b": {"$eq": 4}}`, `{"b": {"$eq": 3}}`} {
			b := branches[i].(bson.D)
			sameValue(t, "branch", stageChain(b), `"FETCH>IXSCAN"`)
			sameValue(t, "branch filter", field(b, "filter"), want)
		}
	})
	s.runCase(t, "$or with a sort each branch gives: results in order, each once", sortMergeRef, cover{family: query, op: "$or", col: semantics},
		func(t *testing.T, db *mongo.Database) {
			setup(t, db)
			got, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"$or": [{"a": 4, "b": 4}, {"a": 3, "b": 3}, {"a": 4, "s": {"$gte": 3}}]}, "sort": {"s": -1}, "projection": {"_id": 1}}`))
			if err != nil {
				t.Fatal(err)
			}
			sameValue(t, "docs", got, `[{"_id": 4}, {"_id": 5}, {"_id": 1}, {"_id": 2}, {"_id": 3}]`)
			st := explainStats(t, db, `{"find": "c", "filter": {"$or": [{"a": 4, "b": 4}, {"a": 3, "b": 3}, {"a": 4, "s": {"$gte": 3}}]}, "sort": {"s": -1}}`)
			merge := stageNamed(field(st, "executionStages").(bson.D), "SORT_MERGE")
			sameValue(t, "dups", bson.D{{Key: "t", Value: field(merge, "dupsTested")}, {Key: "d", Value: field(merge, "dupsDropped")}}, `{"t": 6, "d": 1}`)
		})
	s.runCase(t, "$or with a sort each branch's keys answer: covered", sortMergeRef, cov, func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		plan := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": {"$or": [{"a": 4}, {"a": 3, "s": {"$lt": 2}}]}, "sort": {"s": 1}, "projection": {"_id": 0, "s": 1}}, "verbosity": "queryPlanner"}`))
		sameValue(t, "chain", stageChain(plan), `"SUBPLAN>PROJECTION_COVERED>SORT_MERGE"`)
		got, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"$or": [{"a": 4}, {"a": 3, "s": {"$lt": 2}}]}, "sort": {"s": 1}, "projection": {"_id": 0, "s": 1}}`))
		if err != nil {
			t.Fatal(err)
		}
		sameValue(t, "docs", got, `[{"s": 0}, {"s": 1}, {"s": 3}, {"s": 5}]`)
	})
	s.runCase(t, "$or with a sort a branch cannot give: SORT over OR", sortMergeRef, cov, func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"b": 1}, "name": "b_1"}]}`)
		plan := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": {"$or": [{"a": 4}, {"b": 3}]}, "sort": {"s": 1}}, "verbosity": "queryPlanner"}`))
		sameValue(t, "chain", stageChain(plan), `"SUBPLAN>SORT>FETCH>OR"`)
	})
	s.runCase(t, "$or: an error in a branch's filter fails the query", "src/mongo/db/exec/subplan.cpp; src/mongo/db/pipeline/expression.cpp (ExpressionDivide)", cover{family: query, op: "$or", col: errorCol},
		func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": 1, "b": 0}, {"_id": 2, "a": 2, "b": 1}]`)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]}`)
			_, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"$or": [{"a": 1, "$expr": {"$divide": [1, "$b"]}}, {"b": 1}]}}`))
			if err == nil || err.Code != 2 || err.Message != "Executor error during find command :: caused by :: can't $divide by zero" {
				t.Errorf("want BadValue \"Executor error during find command :: caused by :: can't $divide by zero\", got %v", err)
			}
		})
}
