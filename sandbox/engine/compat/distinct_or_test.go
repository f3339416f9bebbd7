package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// A distinct whose query is a rooted $or, as mongod 8.0 plans it. The
// distinct command does not subplan: get_executor.cpp tryGetQuerySolutionForDistinct
// (distinct_access.cpp createDistinctScanSolution, featureFlagShardFilteringDistinctScan
// off) asks QueryPlanner::plan for the solutions over the indexes holding
// the key and takes the first that turnIxscanIntoDistinctScan converts:
// PROJECTION or FETCH over one IXSCAN with no filter on either, whatever
// the number of intervals. buildIndexedOr gives one scan when every branch
// is a predicate tagged with one index at one key position
// (planner_access.cpp processIndexScans, shouldMergeWithLeaf unioning the
// bounds), so such an $or becomes a DISTINCT_SCAN over the unioned bounds;
// branches on several scans make an OR, which no DISTINCT_SCAN replaces, and
// the query is planned as a find (distinct.cpp createExecutorForDistinctCommand
// falls back on getExecutorFind). These cases check only that the fallback
// holds the OR (or the filtered IXSCAN) and no DISTINCT_SCAN.
// jstests/core/query/distinct/distinct_subplanning.js checks both shapes
// with these documents and indexes.

const distinctOrDocs = `[{"_id": 0, "x": 3, "y": 5, "z": 7}, {"_id": 1, "x": 5, "y": 6, "z": 5},
	{"_id": 2, "x": 5, "y": 5, "z": 4}, {"_id": 3, "x": 6, "y": 5, "z": 3}, {"_id": 4, "x": 7, "y": 5, "z": 8},
	{"_id": 5, "x": 8, "y": 7, "z": 3}, {"_id": 6, "x": 8, "y": 8, "z": 3}]`

// distinctOrIndexes are distinct_subplanning.js's four indexes.
const distinctOrIndexes = `[{"key": {"x": 1, "y": 1}, "name": "x_1_y_1"}, {"key": {"x": -1, "y": 1}, "name": "x_-1_y_1"},
	{"key": {"y": 1, "x": 1}, "name": "y_1_x_1"}, {"key": {"x": 1, "z": 1, "y": 1}, "name": "x_1_z_1_y_1"}]`

type distinctOrCase struct {
	name, ref string
	indexes   string
	query     string
	values    string
	// plan is the winning plan (orPlanText); when empty, distinct says
	// whether it must hold a DISTINCT_SCAN, else holds is a stage it must
	// hold with no DISTINCT_SCAN.
	plan       string
	distinct   bool
	holds      string
	keys, docs int64
}

func TestDistinctRootedOr(t *testing.T) {
	s := newSuite(t)
	for _, tc := range []distinctOrCase{
		{
			// Two ranges on x tagged x_1_y_1 at position 0 share one scan of
			// two intervals with no filter: a DISTINCT_SCAN, covered. It
			// reads 3 (returned), then seeks past 3 to 5 (out of the bounds:
			// a seek to the next interval), 7 and 8, each seek one key.
			name:    "two ranges on the key's index are one DISTINCT_SCAN of both intervals",
			ref:     "src/mongo/db/query/distinct_access.cpp createDistinctScanSolution, turnIxscanIntoDistinctScan; planner_access.cpp shouldMergeWithLeaf, buildIndexedOr; exec/distinct_scan.cpp; jstests/core/query/distinct/distinct_subplanning.js",
			indexes: `[{"key": {"x": 1, "y": 1}, "name": "x_1_y_1"}]`,
			query:   `{"$or": [{"x": {"$lt": 4}}, {"x": {"$gt": 6}}]}`,
			values:  `[3, 7, 8]`,
			plan:    `PROJECTION_COVERED > DISTINCT_SCAN x_1_y_1 {"x":["[-inf.0, 4)","(6, inf.0]"],"y":["[MinKey, MaxKey]"]}`,
			keys:    4, docs: 0,
		},
		{
			// With distinct_subplanning.js's four indexes every branch takes
			// the first index holding x in its lead (the enumerator's first
			// assignment), so the branches still share one scan.
			name:    "with several indexes on the key the branches share the first one's scan",
			ref:     "src/mongo/db/query/distinct_access.cpp createDistinctScanSolution (the first convertible solution); jstests/core/query/distinct/distinct_subplanning.js",
			indexes: distinctOrIndexes,
			query:   `{"$or": [{"x": {"$lt": 4}}, {"x": {"$gt": 6}}]}`,
			values:  `[3, 7, 8]`,
			plan:    `PROJECTION_COVERED > DISTINCT_SCAN x_1_y_1 {"x":["[-inf.0, 4)","(6, inf.0]"],"y":["[MinKey, MaxKey]"]}`,
			keys:    4, docs: 0,
		},
		{
			// An $or of equalities on one path is an $in (the canonical
			// query's rewrite), three points on x_1_y_1.
			name:     "an $or of equalities on the key is a DISTINCT_SCAN of points",
			ref:      "src/mongo/db/matcher/expression_optimize (an $or of equalities to $in); jstests/core/query/distinct/distinct_subplanning.js",
			indexes:  distinctOrIndexes,
			query:    `{"$or": [{"x": {"$eq": 2}}, {"x": {"$eq": 4}}, {"x": {"$eq": 6}}]}`,
			values:   `[6]`,
			distinct: true,
		},
		{
			// The branch on y takes y_1_x_1, the one on x x_1_y_1: two scans
			// under an OR, which turnIxscanIntoDistinctScan refuses, and the
			// find path subplans the $or.
			name:    "branches on different indexes are an OR, no DISTINCT_SCAN",
			ref:     "src/mongo/db/query/distinct_access.cpp turnIxscanIntoDistinctScan (only PROJECTION or FETCH over an IXSCAN); get_executor.cpp getExecutorFind; jstests/core/query/distinct/distinct_subplanning.js",
			indexes: distinctOrIndexes,
			query:   `{"$or": [{"x": {"$gt": 3}}, {"y": {"$eq": 5}}]}`,
			values:  `[3, 5, 6, 7, 8]`,
			holds:   "OR",
		},
		{
			name:    "an $and branch beside another index's branch is an OR, no DISTINCT_SCAN",
			ref:     "src/mongo/db/query/distinct_access.cpp turnIxscanIntoDistinctScan; jstests/core/query/distinct/distinct_subplanning.js",
			indexes: distinctOrIndexes,
			query:   `{"$or": [{"x": {"$eq": 5}, "z": {"$ne": 4}}, {"y": {"$lt": 7}}]}`,
			values:  `[3, 5, 6, 7]`,
			holds:   "OR",
		},
		{
			// The unanchored regex is INEXACT_COVERED: the shared scan keeps
			// the branches' $or as its filter, and a scan with a filter
			// cannot skip keys.
			name:    "a branch the bounds do not answer leaves the filtered scan, no DISTINCT_SCAN",
			ref:     "src/mongo/db/query/distinct_access.cpp turnIxscanIntoDistinctScan (an IXSCAN filter refuses it); planner_access.cpp finishAndOutputLeaf",
			indexes: `[{"key": {"x": 1, "y": 1}, "name": "x_1_y_1"}]`,
			query:   `{"$or": [{"x": {"$lt": 4}}, {"x": {"$regex": "a"}}]}`,
			values:  `[3]`,
			holds:   "IXSCAN",
		},
	} {
		s.runCase(t, tc.name, tc.ref, explainCase(commandFam, "distinct"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), distinctOrDocs)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": `+tc.indexes+`}`)
			cmd := `{"distinct": "c", "key": "x", "query": ` + tc.query + `}`
			sameValues(t, mustCommand(t, db, cmd), tc.values)
			reply := mustCommand(t, db, `{"explain": `+cmd+`, "verbosity": "executionStats"}`)
			wp := winningPlan(t, reply)
			switch {
			case tc.plan != "":
				if got := orPlanText(wp); got != tc.plan {
					t.Errorf("winning plan\n got: %s\nwant: %s", got, tc.plan)
				}
				st := field(reply, "executionStats").(bson.D)
				if k, d := asInt(field(st, "totalKeysExamined")), asInt(field(st, "totalDocsExamined")); k != tc.keys || d != tc.docs {
					t.Errorf("keys %d, docs %d; want keys %d, docs %d", k, d, tc.keys, tc.docs)
				}
			case tc.distinct:
				if !planHas(t, reply, "DISTINCT_SCAN") || planHas(t, reply, "OR") || planHas(t, reply, "SUBPLAN") {
					t.Errorf("plan %s, want a DISTINCT_SCAN and no OR or SUBPLAN", orPlanText(wp))
				}
			default:
				if planHas(t, reply, "DISTINCT_SCAN") || !planHas(t, reply, tc.holds) {
					t.Errorf("plan %s, want %s and no DISTINCT_SCAN", orPlanText(wp), tc.holds)
				}
			}
		})
	}
}

// A $group by the key after a $match of such an $or goes the same way:
// pipeline_d.cpp tryPrepareDistinctExecutor asks tryGetQuerySolutionForDistinct
// with STRICT_DISTINCT_ONLY, and the one scan of both intervals becomes the
// DISTINCT_SCAN under $groupByDistinctScan.
func TestDistinctRootedOrGroup(t *testing.T) {
	s := newSuite(t)
	const ref = "src/mongo/db/pipeline/pipeline_d.cpp tryPrepareDistinctExecutor; distinct_access.cpp createDistinctScanSolution, turnIxscanIntoDistinctScan"
	s.runCase(t, "a $group by the key of a $match $or on one index is a DISTINCT_SCAN", ref,
		explainCase(commandFam, "aggregate"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), distinctOrDocs)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"x": 1, "y": 1}, "name": "x_1_y_1"}]}`)
			agg := `{"aggregate": "c", "pipeline": [{"$match": {"$or": [{"x": {"$lt": 4}}, {"x": {"$gt": 6}}]}}, {"$group": {"_id": "$x"}}], "cursor": {}}`
			reply := mustCommand(t, db, `{"explain": `+agg+`, "verbosity": "queryPlanner"}`)
			if !planHas(t, reply, "DISTINCT_SCAN") || planHas(t, reply, "OR") {
				t.Errorf("plan %v, want a DISTINCT_SCAN and no OR", relaxed(reply))
			}
			if got := pipelineStages(reply); len(got) < 2 || got[1] != "$groupByDistinctScan" {
				t.Errorf("stages %v, want $cursor then $groupByDistinctScan", got)
			}
			batch := field(field(mustCommand(t, db, agg), "cursor").(bson.D), "firstBatch").(bson.A)
			var ids bson.A
			for _, d := range batch {
				ids = append(ids, field(d.(bson.D), "_id"))
			}
			sameValues(t, bson.D{{Key: "values", Value: ids}}, `[3, 7, 8]`)
		})
}
