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

// QueryPlannerAnalysis::explodeForSort (planner_analysis.cpp): an index
// scan whose leading fields are bounded by points and whose next fields,
// none multikey, give the sort splits into one scan per point, merged in
// the sort order; past internalQueryMaxScansToExplode (200) scans it is
// sorted instead and explain says maxScansToExplodeReached (jstest
// core/index/hashed/hashed_index_sort.js).
func TestExplodeForSort(t *testing.T) {
	s := newSuite(t)
	cov := explainCase(commandFam, "find")
	const ref = "src/mongo/db/query/planner_analysis.cpp (explodeForSort); jstests/core/index/hashed/hashed_index_sort.js"
	setup := func(t *testing.T, db *mongo.Database, key string) {
		insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": 1, "b": 3}, {"_id": 2, "a": 2, "b": 1}, {"_id": 3, "a": 1, "b": 2},
			{"_id": 4, "a": 3, "b": 0}, {"_id": 5, "a": 2, "b": 5}]`)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": `+key+`, "name": "ix"}]}`)
	}
	s.runCase(t, "$in on the leading field and a sort on the next: SORT_MERGE of one scan per value", ref, cov, func(t *testing.T, db *mongo.Database) {
		setup(t, db, `{"a": 1, "b": 1}`)
		const find = `{"find": "c", "filter": {"a": {"$in": [2, 1]}}, "sort": {"b": -1}, "projection": {"_id": 1}}`
		plan := winningPlan(t, mustCommand(t, db, `{"explain": `+find+`, "verbosity": "queryPlanner"}`))
		sameValue(t, "chain", stageChain(plan), `"PROJECTION_SIMPLE>FETCH>SORT_MERGE"`)
		merge := stageNamed(plan, "SORT_MERGE")
		scans := field(merge, "inputStages").(bson.A)
		if len(scans) != 2 {
			t.Fatalf("%d scans under the merge, want 2", len(scans))
		}
		sameValue(t, "first scan's bounds", field(scans[0].(bson.D), "indexBounds"), `{"a": ["[2, 2]"], "b": ["[MaxKey, MinKey]"]}`)
		sameValue(t, "direction", field(scans[0].(bson.D), "direction"), `"backward"`)
		got, err := cursorDocs(t, db, ejDoc(t, find))
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "find", got, `[{"_id": 5}, {"_id": 1}, {"_id": 3}, {"_id": 2}]`, false)
	})
	s.runCase(t, "an exploded scan covers a projection of its fields", ref, cov, func(t *testing.T, db *mongo.Database) {
		setup(t, db, `{"a": 1, "b": 1}`)
		plan := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": {"a": {"$in": [1, 2]}}, "sort": {"b": 1},
			"projection": {"_id": 0, "a": 1, "b": 1}}, "verbosity": "queryPlanner"}`))
		sameValue(t, "chain", stageChain(plan), `"PROJECTION_COVERED>SORT_MERGE"`)
	})
	s.runCase(t, "a sort on a multikey field is not exploded", ref, cov, func(t *testing.T, db *mongo.Database) {
		setup(t, db, `{"a": 1, "b": 1}`)
		insertDocs(t, db.Collection("c"), `[{"_id": 6, "a": 1, "b": [7, 8]}]`)
		plan := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": {"a": {"$in": [1, 2]}}, "sort": {"b": 1}}, "verbosity": "queryPlanner"}`))
		if stageNamed(plan, "SORT_MERGE") != nil || stageNamed(plan, "SORT") == nil {
			t.Errorf("plan %s", stageChain(plan))
		}
	})
	s.runCase(t, "more than 200 scans are not exploded", ref, cov, func(t *testing.T, db *mongo.Database) {
		setup(t, db, `{"a": 1, "b": 1}`)
		in := make(bson.A, 201)
		for i := range in {
			in[i] = int32(i)
		}
		cmd := bson.D{{Key: "explain", Value: bson.D{{Key: "find", Value: "c"}, {Key: "filter", Value: bson.D{{Key: "a", Value: bson.D{{Key: "$in", Value: in}}}}},
			{Key: "sort", Value: bson.D{{Key: "b", Value: int32(1)}}}}}, {Key: "verbosity", Value: "queryPlanner"}}
		reply, err := command(t, db, cmd)
		if err != nil {
			t.Fatal(err)
		}
		plan := winningPlan(t, reply)
		if stageNamed(plan, "SORT_MERGE") != nil || stageNamed(plan, "SORT") == nil {
			t.Errorf("plan %s", stageChain(plan))
		}
		sameValue(t, "maxScansToExplodeReached", field(field(reply, "queryPlanner").(bson.D), "maxScansToExplodeReached"), `true`)
	})
}
