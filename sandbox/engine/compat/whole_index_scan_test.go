package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// An index is relevant to a query only through a predicate on its first
// field (QueryPlannerIXSelect::findRelevantIndices). One that is not, when
// hinted or chosen for the sort it gives, is scanned whole
// (QueryPlanner::plan, buildWholeIXSoln; QueryPlannerAccess::scanWholeIndex):
// every bound [MinKey, MaxKey] and the whole filter on a FETCH above it
// (jstests/core/timeseries/query/bucket_unpacking_with_compound_sort_on_point_queries.js
// relies on the hinted scan reading every key).
func TestWholeIndexScanOfAnIrrelevantIndex(t *testing.T) {
	const ref = "src/mongo/db/query/query_planner.cpp (buildWholeIXSoln); planner_access.cpp scanWholeIndex"
	s := newSuite(t)
	setup := func(t *testing.T, db *mongo.Database) {
		t.Helper()
		insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": 1, "b": 7}, {"_id": 2, "a": 2, "b": 8}, {"_id": 3, "a": 3, "b": 7}]`)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1, "b": 1}, "name": "a_1_b_1"}]}`)
	}
	check := func(t *testing.T, st bson.D) {
		t.Helper()
		sameFigures(t, st, "FETCH>IXSCAN", 3, 3)
		plan, _ := field(st, "executionStages").(bson.D)
		sameValue(t, "fetch filter", field(plan, "filter"), `{"b": {"$eq": 7}}`)
		ixscan, _ := field(plan, "inputStage").(bson.D)
		sameValue(t, "bounds", field(ixscan, "indexBounds"), `{"a": ["[MinKey, MaxKey]"], "b": ["[MinKey, MaxKey]"]}`)
	}
	s.runCase(t, "a hinted index with no predicate on its first field is scanned whole", ref,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			setup(t, db)
			check(t, explainStats(t, db, `{"find": "c", "filter": {"b": 7}, "hint": {"a": 1, "b": 1}}`))
		})
	s.runCase(t, "an index scanned for its sort alone is scanned whole", ref,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			setup(t, db)
			check(t, explainStats(t, db, `{"find": "c", "filter": {"b": 7}, "sort": {"a": 1}}`))
		})
}
