package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// The plan of a rooted $or as mongod 8.0's subplanner builds it
// (QueryPlanner::choosePlanForSubqueries): each branch is planned alone and
// tagged with the index its plan uses, the tagged $or is sorted on those
// tags (index_tag.cpp prepareForAccessPlanning, sortUsingTags: the index's
// number first, then the key position, then the path), and the access
// planner builds it as any indexed $or (planner_access.cpp buildIndexedOr):
// adjacent predicate branches on one index and key position share one scan
// with their bounds unioned (processIndexScans, shouldMergeWithLeaf), and an
// OR of one scan is that scan, so SUBPLAN > FETCH > IXSCAN.

// rootedOrDocs: a counts 0 to 19 and b cycles 0 to 4, so {b: 2} and
// {a: {$gt: 16}} share _id 17; two strings in a for the regex branch.
const rootedOrDocs = `[{"_id": 0, "a": 0, "b": 0}, {"_id": 1, "a": 1, "b": 1}, {"_id": 2, "a": 2, "b": 2},
	{"_id": 3, "a": 3, "b": 3}, {"_id": 4, "a": 4, "b": 4}, {"_id": 5, "a": 5, "b": 0}, {"_id": 6, "a": 6, "b": 1},
	{"_id": 7, "a": 7, "b": 2}, {"_id": 8, "a": 8, "b": 3}, {"_id": 9, "a": 9, "b": 4}, {"_id": 10, "a": 10, "b": 0},
	{"_id": 11, "a": 11, "b": 1}, {"_id": 12, "a": 12, "b": 2}, {"_id": 13, "a": 13, "b": 3}, {"_id": 14, "a": 14, "b": 4},
	{"_id": 15, "a": 15, "b": 0}, {"_id": 16, "a": 16, "b": 1}, {"_id": 17, "a": 17, "b": 2}, {"_id": 18, "a": 18, "b": 3},
	{"_id": 19, "a": 19, "b": 4}, {"_id": 20, "a": "abc", "b": 0}, {"_id": 21, "a": "xyz", "b": 1}]`

const (
	rootedOrAB = `[{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]`
	rootedOrBA = `[{"key": {"b": 1}, "name": "b_1"}, {"key": {"a": 1}, "name": "a_1"}]`
)

func TestRootedOrPlans(t *testing.T) {
	cases := []containedOrCase{
		{
			// Both branches are tagged a_1 at key position 0: the access
			// planner merges the second into the scan the first began
			// (shouldMergeWithLeaf unions an OR's bounds on a position
			// already filled), and buildIndexedOr returns the one scan
			// instead of an OR. query_planner_tree_test.cpp
			// OrCollapsesToSingleScan shows the same collapse for
			// {$or: [{a: {$gt: 2}}, {a: {$gt: 0}}]}. The scan of two intervals
			// checks each key against the bounds and examines 0, 1, 2 (out of
			// the first interval: a seek), 18, 19 and "abc", past the last.
			name: "two ranges on one index are one scan of both intervals under SUBPLAN",
			ref: "src/mongo/db/query/query_planner.cpp choosePlanForSubqueries; planner_access.cpp processIndexScans, shouldMergeWithLeaf, buildIndexedOr; " +
				"query_planner_tree_test.cpp OrCollapsesToSingleScan",
			collDocs: rootedOrDocs,
			indexes:  `[{"key": {"a": 1}, "name": "a_1"}]`,
			cmd:      `{"find": "c", "filter": {"$or": [{"a": {"$lt": 2}}, {"a": {"$gt": 17}}]}}`,
			plan:     `SUBPLAN > FETCH > IXSCAN a_1 {"a":["[-inf.0, 2)","(17, inf.0]"]}`,
			keys:     6, docs: 4, n: 4,
		},
		{
			// The canonical query puts {b: 2} ($eq) before {a: {$gt: 16}}
			// (MatchExpression::sortTree orders on the match type first), but
			// sortUsingTags orders the tagged branches on the index's number:
			// a_1 was created before b_1, so its scan comes first.
			name:     "the branches run in the order their indexes were created",
			ref:      "src/mongo/db/query/index_tag.cpp prepareForAccessPlanning, sortUsingTags (tagComparison); query_planner.cpp choosePlanForSubqueries; jstests/core/query/or/or2.js",
			collDocs: rootedOrDocs,
			indexes:  rootedOrAB,
			cmd:      `{"find": "c", "filter": {"$or": [{"b": 2}, {"a": {"$gt": 16}}]}}`,
			plan:     `SUBPLAN > FETCH > OR [IXSCAN a_1 {"a":["(16, inf.0]"]}, IXSCAN b_1 {"b":["[2, 2]"]}]`,
			keys:     7, docs: 6, n: 6,
		},
		{
			// The same query with b_1 created first: the index numbers, not
			// the paths, decide.
			name:     "with the indexes created the other way the branches swap",
			ref:      "src/mongo/db/query/index_tag.cpp sortUsingTags (tagComparison: the index first); query_planner.cpp planSubqueries (indexMap: each index's place in the catalog)",
			collDocs: rootedOrDocs,
			indexes:  rootedOrBA,
			cmd:      `{"find": "c", "filter": {"$or": [{"b": 2}, {"a": {"$gt": 16}}]}}`,
			plan:     `SUBPLAN > FETCH > OR [IXSCAN b_1 {"b":["[2, 2]"]}, IXSCAN a_1 {"a":["(16, inf.0]"]}]`,
			keys:     7, docs: 6, n: 6,
		},
		{
			// The tag sort brings the two a_1 branches together around the
			// b_1 one, so they share a scan and the OR has two children.
			name:     "branches on one index written apart share a scan",
			ref:      "src/mongo/db/query/index_tag.cpp sortUsingTags; planner_access.cpp processIndexScans, shouldMergeWithLeaf; query_planner_tree_test.cpp OrCollapsesToSingleScan",
			collDocs: rootedOrDocs,
			indexes:  rootedOrAB,
			cmd:      `{"find": "c", "filter": {"$or": [{"a": {"$lt": 2}}, {"b": 3}, {"a": {"$gt": 17}}]}}`,
			plan:     `SUBPLAN > FETCH > OR [IXSCAN a_1 {"a":["[-inf.0, 2)","(17, inf.0]"]}, IXSCAN b_1 {"b":["[3, 3]"]}]`,
			keys:     10, docs: 7, n: 7,
		},
		{
			// The unanchored regex is INEXACT_COVERED on a non-multikey
			// index: the shared scan keeps the $or of the predicates merged
			// into it (curOr) as its filter, and analyzeDataAccess fetches
			// above (finishAndOutputLeaf).
			name:     "an inexact branch sharing the scan puts their $or on the scan's keys",
			ref:      "src/mongo/db/query/planner_access.cpp finishAndOutputLeaf, handleFilterOr (curOr); jstests/core/query/or/or_inexact.js",
			collDocs: rootedOrDocs,
			indexes:  `[{"key": {"a": 1}, "name": "a_1"}]`,
			cmd:      `{"find": "c", "filter": {"$or": [{"a": {"$lt": 2}}, {"a": {"$regex": "x"}}]}}`,
			plan:     `SUBPLAN > FETCH > IXSCAN a_1 {"a":["[-inf.0, 2)","[\"\", {})","[/x/, /x/]"]} {"$or":[{"a":{"$lt":2}},{"a":{"$regex":"x"}}]}`,
			keys:     5, docs: 3, n: 3,
		},
		{
			// One scan gives the sort itself, scanned backward: analyzeSort
			// adds no SORT and there is no SORT_MERGE (that needs an OR of
			// several scans).
			name:     "a sort the one scan gives reverses it, with no SORT and no SORT_MERGE",
			ref:      "src/mongo/db/query/planner_access.cpp buildIndexedOr (an OR of one node is that node); planner_analysis.cpp analyzeSort; jstests/core/query/or/orf.js",
			cov:      explainCase(query, "$or"),
			collDocs: rootedOrDocs,
			indexes:  `[{"key": {"a": 1}, "name": "a_1"}]`,
			cmd:      `{"find": "c", "filter": {"$or": [{"a": {"$lt": 2}}, {"a": {"$gt": 17}}]}, "sort": {"a": -1}}`,
			plan:     `SUBPLAN > FETCH > IXSCAN a_1 {"a":["[inf.0, 17)","(2, -inf.0]"]}`,
			keys:     5, docs: 4, n: 4,
		},
		{
			// The keys cover {_id: 0, a: 1}: no FETCH (analyzeDataAccess).
			name:     "a projection the one scan's keys cover needs no FETCH",
			ref:      "src/mongo/db/query/planner_analysis.cpp analyzeDataAccess, analyzeProjection; planner_access.cpp buildIndexedOr",
			collDocs: rootedOrDocs,
			indexes:  `[{"key": {"a": 1}, "name": "a_1"}]`,
			cmd:      `{"find": "c", "filter": {"$or": [{"a": {"$lt": 2}}, {"a": {"$gt": 17}}]}, "projection": {"_id": 0, "a": 1}}`,
			plan:     `SUBPLAN > PROJECTION_COVERED > IXSCAN a_1 {"a":["[-inf.0, 2)","(17, inf.0]"]}`,
			keys:     6, docs: 0, n: 4,
		},
		{
			// A count adds no FETCH over exact bounds (IS_COUNT).
			name:     "a count over the one scan reads no document",
			ref:      "src/mongo/db/query/get_executor.cpp getExecutorCount; planner_analysis.cpp analyzeDataAccess (IS_COUNT); planner_access.cpp buildIndexedOr",
			collDocs: rootedOrDocs,
			indexes:  `[{"key": {"a": 1}, "name": "a_1"}]`,
			cmd:      `{"count": "c", "query": {"$or": [{"a": {"$lt": 2}}, {"a": {"$gt": 17}}]}}`,
			plan:     `COUNT > SUBPLAN > IXSCAN a_1 {"a":["[-inf.0, 2)","(17, inf.0]"]}`,
			keys:     6, docs: 0, n: 4,
		},
		{
			// A hint rules subplanning out (canUseSubplanning): the
			// enumerator plans the whole $or over the hinted index and the
			// access planner collapses it the same way, with no SUBPLAN
			// (query_planner_tree_test.cpp OrCollapsesToSingleScan3).
			name:     "hinted, the $or is one scan of the hinted index with no SUBPLAN",
			ref:      "src/mongo/db/query/get_executor.cpp (canUseSubplanning); query_planner.cpp plan (hint); query_planner_tree_test.cpp OrCollapsesToSingleScan3",
			cov:      explainCase(query, "$or"),
			collDocs: rootedOrDocs,
			indexes:  rootedOrAB,
			cmd:      `{"find": "c", "filter": {"$or": [{"a": {"$lt": 2}}, {"a": {"$gt": 17}}]}, "hint": "a_1"}`,
			plan:     `FETCH > IXSCAN a_1 {"a":["[-inf.0, 2)","(17, inf.0]"]}`,
			keys:     6, docs: 4, n: 4,
		},
		{
			// Hinted to an index {b: 3} cannot use, the $or has no indexed
			// plan and the hinted index is scanned whole under a FETCH of the
			// canonical filter, $eq before $lt (query_planner_tree_test.cpp
			// OrOnlyOneBranchCanUseIndexHinted).
			name:     "hinted to an index one branch cannot use, the index is scanned whole",
			ref:      "src/mongo/db/query/query_planner.cpp plan (buildWholeIXSoln); query_planner_tree_test.cpp OrOnlyOneBranchCanUseIndexHinted",
			collDocs: rootedOrDocs,
			indexes:  rootedOrAB,
			cmd:      `{"find": "c", "filter": {"$or": [{"a": {"$lt": 2}}, {"b": 3}]}, "hint": "a_1"}`,
			plan:     `FETCH {"$or":[{"b":{"$eq":3}},{"a":{"$lt":2}}]} > IXSCAN a_1 {"a":["[MinKey, MaxKey]"]}`,
			keys:     22, docs: 22, n: 6,
		},
		{
			// The fast count: prepareExecutor (get_executor.cpp) tries
			// turnIxscanIntoCount on the planner's solutions when the query is
			// count-like, but a subplanned query is built before that, so
			// the one scan of a single interval stays an IXSCAN under SUBPLAN.
			name:     "a count over one scan of a single interval under SUBPLAN is no COUNT_SCAN",
			ref:      "src/mongo/db/query/get_executor.cpp prepareExecutor (needsSubplanning before turnIxscanIntoCount); planner_access.cpp buildIndexedOr",
			collDocs: rootedOrDocs,
			indexes:  rootedOrAB,
			cmd:      `{"count": "c", "query": {"$or": [{"a": {"$gt": 1}}, {"a": {"$gt": 5}}]}}`,
			plan:     `COUNT > SUBPLAN > IXSCAN a_1 {"a":["(1, inf.0]"]}`,
			keys:     18, docs: 0, n: 18,
		},
		{
			// Hinted, the $or is planned whole by QueryPlanner::plan, whose
			// one scan of a single interval turnIxscanIntoCount makes a
			// COUNT_SCAN.
			name:     "a hinted count over one scan of a single interval is a COUNT_SCAN",
			ref:      "src/mongo/db/query/get_executor.cpp prepareExecutor (turnIxscanIntoCount); planner_access.cpp buildIndexedOr; query_planner_tree_test.cpp OrCollapsesToSingleScan",
			collDocs: rootedOrDocs,
			indexes:  rootedOrAB,
			cmd:      `{"count": "c", "query": {"$or": [{"a": {"$gt": 1}}, {"a": {"$gt": 5}}]}, "hint": "a_1"}`,
			plan:     `COUNT > COUNT_SCAN a_1 {"startKey":{"a":1},"startKeyInclusive":false,"endKey":{"a":{"$numberDouble":"Infinity"}},"endKeyInclusive":true}`,
			keys:     18, docs: 0, n: 18,
		},
	}
	runContainedOrCases(t, cases)
}

// The order of the OR's children decides which branch returns a document
// two branches match and which drops it: the executor's counters and the
// order of the results show it.
func TestRootedOrBranchOrder(t *testing.T) {
	s := newSuite(t)
	setup := func(t *testing.T, db *mongo.Database, indexes string) {
		insertDocs(t, db.Collection("c"), rootedOrDocs)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": `+indexes+`}`)
	}
	const q = `{"find": "c", "filter": {"$or": [{"b": 2}, {"a": {"$gt": 16}}]}}`
	// OrStage::doWork returns its children's results in turn, dropping a
	// RecordID it returned before: a_1's scan (17, 18, 19) runs first, so
	// b_1's scan finds 17 again and the OR drops it. Each child's EOF but
	// the last, and the dropped duplicate, are a NEED_TIME.
	s.runCase(t, "the OR returns the first index's branch first and drops the later branch's duplicate",
		"src/mongo/db/exec/or.cpp OrStage::doWork; index_tag.cpp sortUsingTags; query_planner.cpp choosePlanForSubqueries", explainCase(query, "$or"),
		func(t *testing.T, db *mongo.Database) {
			setup(t, db, rootedOrAB)
			sameValue(t, "results", foundIDs(t, db, ejDoc(t, q)), `[17, 18, 19, 2, 7, 12]`)
			st := explainStats(t, db, q)
			or := stageStats(t, st, "OR")
			sameCounters(t, or, 9, 6, 2, 1)
			sameValue(t, "dupsTested", field(or, "dupsTested"), `7`)
			sameValue(t, "dupsDropped", field(or, "dupsDropped"), `1`)
			sameCounters(t, stageStats(t, st, "SUBPLAN"), 9, 6, 2, 1)
		})
	s.runCase(t, "with b_1 first the OR returns b's documents first",
		"src/mongo/db/exec/or.cpp OrStage::doWork; index_tag.cpp sortUsingTags", explainCase(query, "$or"),
		func(t *testing.T, db *mongo.Database) {
			setup(t, db, rootedOrBA)
			sameValue(t, "results", foundIDs(t, db, ejDoc(t, q)), `[2, 7, 12, 17, 18, 19]`)
		})
	// One scan over two intervals: IndexScan::doWork examines 0, 1 and 2,
	// seeks past the gap on 2 (a NEED_TIME), then examines 18, 19 and "abc",
	// which is past the bounds: that work is the EOF. 6 works, 2 seeks
	// counting the first, no OR.
	s.runCase(t, "the one scan of two intervals counts its seek as a NEED_TIME",
		"src/mongo/db/exec/index_scan.cpp IndexScan::doWork; planner_access.cpp buildIndexedOr", explainCase(query, "$or"),
		func(t *testing.T, db *mongo.Database) {
			setup(t, db, rootedOrAB)
			st := explainStats(t, db, `{"find": "c", "filter": {"$or": [{"a": {"$lt": 2}}, {"a": {"$gt": 17}}]}}`)
			sameFigures(t, st, "SUBPLAN>FETCH>IXSCAN", 6, 4)
			ix := stageStats(t, st, "IXSCAN")
			sameCounters(t, ix, 6, 4, 1, 1)
			sameValue(t, "seeks", field(ix, "seeks"), `2`)
			sameCounters(t, stageStats(t, st, "SUBPLAN"), 6, 4, 1, 1)
			if stageNamed(field(st, "executionStages").(bson.D), "OR") != nil {
				t.Error("an OR above the one scan")
			}
		})
}
