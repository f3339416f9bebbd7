package compat_test

import (
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// An $or below the top-level $and ("contained" $or) planned with indexes,
// as mongod 8.0's enumerator and access planner do: an OR of one index
// scan per branch under a FETCH filtering on the $and's other predicates,
// racing the plans that index those predicates; a branch with no index
// leaves the $or to FETCH; the $and's predicates pushed into the branches'
// compound indexes (OR pushdown).

// containedOrDocs are or2.js's documents, with s to sort on, and filler
// that matches x: 1 and neither branch of {$or: [{a: 1}, {b: 2}]}, so that
// a scan of x alone reads more than the $or's branches do.
const containedOrDocs = `[{"_id": 0, "x": 0, "a": 1, "s": 9}, {"_id": 1, "x": 0, "a": 2, "s": 3},
	{"_id": 2, "x": 0, "b": 1, "s": 7}, {"_id": 3, "x": 0, "b": 2, "s": 1},
	{"_id": 4, "x": 1, "a": 1, "b": 1, "s": 8}, {"_id": 5, "x": 1, "a": 1, "b": 2, "s": 2},
	{"_id": 6, "x": 1, "a": 2, "b": 1, "s": 6}, {"_id": 7, "x": 1, "a": 2, "b": 2, "s": 4},
	{"_id": 10, "x": 1, "a": 3, "b": 3, "s": 10}, {"_id": 11, "x": 1, "a": 3, "b": 3, "s": 11},
	{"_id": 12, "x": 1, "a": 3, "b": 3, "s": 12}, {"_id": 13, "x": 1, "a": 3, "b": 3, "s": 13},
	{"_id": 14, "x": 1, "a": 3, "b": 3, "s": 14}, {"_id": 15, "x": 1, "a": "abc", "b": 3, "s": 15}]`

// orPlanText writes a plan tree on one line: each stage's name, an index
// scan's index and bounds, a filter, and the stages below it (">" for one,
// "[...]" for several).
func orPlanText(p bson.D) string {
	var b strings.Builder
	b.WriteString(field(p, "stage").(string))
	if name, ok := field(p, "indexName").(string); ok {
		b.WriteString(" " + name + " " + relaxed(field(p, "indexBounds")))
	}
	if f, ok := field(p, "filter").(bson.D); ok {
		b.WriteString(" " + relaxed(f))
	}
	if in, ok := field(p, "inputStage").(bson.D); ok {
		b.WriteString(" > " + orPlanText(in))
	}
	if ins, ok := field(p, "inputStages").(bson.A); ok {
		var parts []string
		for _, in := range ins {
			parts = append(parts, orPlanText(in.(bson.D)))
		}
		b.WriteString(" [" + strings.Join(parts, ", ") + "]")
	}
	return b.String()
}

type containedOrCase struct {
	name, ref string
	cov       cover // default: the explain of the command
	// collDocs are the collection's documents; containedOrDocs when empty.
	collDocs string
	// indexes are createIndexes' specs, a JSON array.
	indexes string
	cmd     string
	// plan is the winning plan (orPlanText), and rejected the rejected
	// plans that must be among explain's rejectedPlans.
	plan     string
	rejected []string
	// keys and docs are executionStats' totals; n is nReturned, or a
	// count's n.
	keys, docs, n int64
	// plans, when not 0, is how many plans explain lists (the winning and
	// the rejected ones); orLimit is maxIndexedOrSolutionsReached. An
	// empty plan checks neither the winning plan nor keys and docs.
	plans   int
	orLimit bool
}

// withHint is cmd hinted with hint instead of its own.
func withHint(cmd bson.D, hint any) bson.D {
	out := slices.DeleteFunc(slices.Clone(cmd), func(e bson.E) bool { return e.Key == "hint" })
	return append(out, bson.E{Key: "hint", Value: hint})
}

func runContainedOrCases(t *testing.T, cases []containedOrCase) {
	t.Helper()
	s := newSuite(t)
	for _, tc := range cases {
		cmd := ejDoc(t, tc.cmd)
		cov := tc.cov.or(explainCase(commandFam, cmd[0].Key))
		s.runCase(t, tc.name, tc.ref, cov, func(t *testing.T, db *mongo.Database) {
			collDocs := tc.collDocs
			if collDocs == "" {
				collDocs = containedOrDocs
			}
			insertDocs(t, db.Collection("c"), collDocs)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": `+tc.indexes+`}`)
			reply := mustCommand(t, db, `{"explain": `+tc.cmd+`, "verbosity": "executionStats"}`)
			qp := field(reply, "queryPlanner").(bson.D)
			sameValue(t, "maxIndexedOrSolutionsReached", field(qp, "maxIndexedOrSolutionsReached"), relaxed(tc.orLimit))
			if tc.plans != 0 && len(field(qp, "rejectedPlans").(bson.A))+1 != tc.plans {
				t.Errorf("%d plans, want %d", len(field(qp, "rejectedPlans").(bson.A))+1, tc.plans)
			}
			if got := orPlanText(field(qp, "winningPlan").(bson.D)); tc.plan != "" && got != tc.plan {
				t.Errorf("winning plan\n got: %s\nwant: %s", got, tc.plan)
			}
			var rejected []string
			for _, r := range field(qp, "rejectedPlans").(bson.A) {
				rejected = append(rejected, orPlanText(r.(bson.D)))
			}
			for _, want := range tc.rejected {
				if !slices.Contains(rejected, want) {
					t.Errorf("rejected plans lack\n%s\namong\n%s", want, strings.Join(rejected, "\n"))
				}
			}
			st := field(reply, "executionStats").(bson.D)
			k, d, n := asInt(field(st, "totalKeysExamined")), asInt(field(st, "totalDocsExamined")), asInt(field(st, "nReturned"))
			if cmd[0].Key == "count" {
				n = asInt(field(mustCommand(t, db, tc.cmd), "n"))
			}
			if tc.plan == "" {
				k, d = tc.keys, tc.docs
			}
			if k != tc.keys || d != tc.docs || n != tc.n {
				t.Errorf("keys %d, docs %d, n %d; want keys %d, docs %d, n %d", k, d, n, tc.keys, tc.docs, tc.n)
			}
			// The indexed plan finds what a collection scan finds, in the
			// sort's order when there is one.
			natural := withHint(cmd, bson.D{{Key: "$natural", Value: 1}})
			if cmd[0].Key == "count" {
				reply, err := command(t, db, natural)
				if err != nil {
					t.Fatal(err)
				}
				sameValue(t, "count over a collection scan", field(reply, "n"), relaxed(n))
				return
			}
			got, want := foundIDs(t, db, cmd), foundIDs(t, db, natural)
			if field(cmd, "sort") == nil {
				sortByCanonical(t, got)
				sortByCanonical(t, want)
			}
			sameValue(t, "results against a collection scan's", got, relaxed(want))
		})
	}
}

func TestContainedOrPlans(t *testing.T) {
	runContainedOrCases(t, []containedOrCase{
		{
			// plan_enumerator.cpp prepMemo: the $and's $or child is a subnode
			// whose branches each have an index, so the $and's first choice
			// indexes it; x has no index, so that is the only plan.
			// planner_access.cpp buildIndexedAnd hangs x on a FETCH above the
			// OR buildIndexedOr makes, and the OR drops the document both
			// branches return (_id 5). jstests/core/query/or/or2.js queries
			// {x: 1, $or: [{a: 1}, {b: 2}]} and expects _id 4, 5 and 7.
			name:    "an $or below an $and with an index per branch is an OR of index scans under a FETCH",
			ref:     "src/mongo/db/query/plan_enumerator/plan_enumerator.cpp prepMemo; planner_access.cpp buildIndexedAnd, buildIndexedOr; jstests/core/query/or/or2.js",
			indexes: `[{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]`,
			cmd:     `{"find": "c", "filter": {"x": 1, "$or": [{"a": 1}, {"b": 2}]}}`,
			plan:    `FETCH {"x":{"$eq":1}} > OR [IXSCAN a_1 {"a":["[1, 1]"]}, IXSCAN b_1 {"b":["[2, 2]"]}]`,
			keys:    6, docs: 5, n: 3,
		},
		{
			// The $and's choices that index its own predicates follow the
			// one indexing the $or (enumerateOneIndex), and the multi-planner
			// races them: the scan of x reads 10 keys for 3 results, the OR
			// 6 keys and 5 documents, and the OR wins. or2.js runs the same
			// query with an index on x.
			name:     "the indexed $or competes with the index on the $and's own predicate",
			ref:      "src/mongo/db/query/plan_enumerator/plan_enumerator.cpp enumerateOneIndex; plan_ranker.h; jstests/core/query/or/or2.js",
			indexes:  `[{"key": {"x": 1}, "name": "x_1"}, {"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]`,
			cmd:      `{"find": "c", "filter": {"x": 1, "$or": [{"a": 1}, {"b": 2}]}}`,
			plan:     `FETCH {"x":{"$eq":1}} > OR [IXSCAN a_1 {"a":["[1, 1]"]}, IXSCAN b_1 {"b":["[2, 2]"]}]`,
			rejected: []string{`FETCH {"$or":[{"a":{"$eq":1}},{"b":{"$eq":2}}]} > IXSCAN x_1 {"x":["[1, 1]"]}`},
			keys:     6, docs: 5, n: 3,
		},
		{
			// The $and's x is an outside predicate for the branches
			// (enumerateOneIndex adds it to the indexes a branch uses), so
			// {a: 1} scans {x: 1, a: 1} with x [1, 1] and {b: 2} scans
			// {x: 1, b: 1}; pushed into every branch, x is trimmed from the
			// FETCH above (index_tag.cpp processOrPushdownNode), as in
			// query_planner_tree_test.cpp ContainedOrPredicatesAreLeadingFields.
			// The plans scanning either index for x alone are rejected.
			name:    "OR pushdown: the $and's predicate bounds each branch's compound index",
			ref:     "src/mongo/db/query/plan_enumerator/plan_enumerator.cpp enumerateOneIndex, assignPredicate; index_tag.cpp resolveOrPushdowns; query_planner_tree_test.cpp ContainedOrPredicatesAreLeadingFields; jstests/core/query/or/or2.js",
			indexes: `[{"key": {"x": 1, "a": 1}, "name": "x_1_a_1"}, {"key": {"x": 1, "b": 1}, "name": "x_1_b_1"}]`,
			cmd:     `{"find": "c", "filter": {"x": 1, "$or": [{"a": 1}, {"b": 2}]}}`,
			plan:    `FETCH > OR [IXSCAN x_1_a_1 {"x":["[1, 1]"],"a":["[1, 1]"]}, IXSCAN x_1_b_1 {"x":["[1, 1]"],"b":["[2, 2]"]}]`,
			rejected: []string{
				`FETCH {"$or":[{"a":{"$eq":1}},{"b":{"$eq":2}}]} > IXSCAN x_1_a_1 {"x":["[1, 1]"],"a":["[MinKey, MaxKey]"]}`,
				`FETCH {"$or":[{"a":{"$eq":1}},{"b":{"$eq":2}}]} > IXSCAN x_1_b_1 {"x":["[1, 1]"],"b":["[MinKey, MaxKey]"]}`,
			},
			keys: 4, docs: 3, n: 3,
		},
		{
			// An $or needs an index for every branch (prepMemo); {b: 2} has
			// none in {x: 1, a: 1}, so the only indexed plan scans x and
			// leaves the whole $or to FETCH (or2.js's index {x: 1, a: 1}).
			name:    "a branch no index answers leaves the $or to FETCH",
			ref:     "src/mongo/db/query/plan_enumerator/plan_enumerator.cpp prepMemo (OR); jstests/core/query/or/or2.js",
			indexes: `[{"key": {"x": 1, "a": 1}, "name": "x_1_a_1"}]`,
			cmd:     `{"find": "c", "filter": {"x": 1, "$or": [{"a": 1}, {"b": 2}]}}`,
			plan:    `FETCH {"$or":[{"a":{"$eq":1}},{"b":{"$eq":2}}]} > IXSCAN x_1_a_1 {"x":["[1, 1]"],"a":["[MinKey, MaxKey]"]}`,
			keys:    10, docs: 10, n: 3,
		},
		{
			// With no index on x either, nothing is indexed: a collection scan
			// (query_planner_tree_test.cpp OrWithoutEnoughIndices, contained).
			name:    "a branch no index answers and no index on the $and's predicates is a collection scan",
			ref:     "src/mongo/db/query/query_planner.cpp plan; query_planner_tree_test.cpp OrWithoutEnoughIndices; jstests/core/query/or/or2.js",
			indexes: `[{"key": {"a": 1}, "name": "a_1"}]`,
			cmd:     `{"find": "c", "filter": {"x": 1, "$or": [{"a": 1}, {"b": 2}]}}`,
			plan:    `COLLSCAN {"$and":[{"$or":[{"a":{"$eq":1}},{"b":{"$eq":2}}]},{"x":{"$eq":1}}]}`,
			keys:    0, docs: 14, n: 3,
		},
		{
			// Branches on the same index and key position share one scan,
			// their bounds unioned (processIndexScans merging leaves of an
			// OR, shouldMergeWithLeaf), and an OR of one scan is that scan
			// (query_planner_tree_test.cpp OrCollapsesToSingleScan). The
			// regex branch is tested on the keys: the scan's filter is the $or
			// of the predicates it holds (finishAndOutputLeaf's curOr).
			name:    "branches on one index share a scan; an inexact branch filters its keys",
			ref:     "src/mongo/db/query/planner_access.cpp processIndexScans, shouldMergeWithLeaf, finishAndOutputLeaf; query_planner_tree_test.cpp OrCollapsesToSingleScan; jstests/core/query/or/or_inexact.js",
			indexes: `[{"key": {"a": 1}, "name": "a_1"}]`,
			cmd:     `{"find": "c", "filter": {"x": 1, "$or": [{"a": {"$lt": 2}}, {"a": {"$regex": "^ab"}}]}}`,
			plan:    `FETCH {"x":{"$eq":1}} > IXSCAN a_1 {"a":["[-inf.0, 2)","[\"ab\", \"ac\")","[/^ab/, /^ab/]"]}`,
			keys:    5, docs: 4, n: 3,
		},
		{
			// A branch whose keys decide only some of it: the unanchored regex
			// is INEXACT_COVERED, so its scan keeps it as a key filter.
			name:    "an unanchored regex branch is tested on its index keys",
			ref:     "src/mongo/db/query/planner_access.cpp finishAndOutputLeaf (INEXACT_COVERED: curOr as the scan's filter); jstests/core/query/or/or_inexact.js",
			indexes: `[{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]`,
			cmd:     `{"find": "c", "filter": {"x": 1, "$or": [{"a": {"$regex": "b"}}, {"b": 2}]}}`,
			plan:    `FETCH {"x":{"$eq":1}} > OR [IXSCAN a_1 {"a":["[\"\", {})","[/b/, /b/]"]} {"$or":[{"a":{"$regex":"b"}}]}, IXSCAN b_1 {"b":["[2, 2]"]}]`,
			keys:    4, docs: 4, n: 3,
		},
	})
}

func TestContainedOrNested(t *testing.T) {
	runContainedOrCases(t, []containedOrCase{
		{
			// An $and branch is planned by buildIndexedAnd as a subnode of
			// the OR: its index scan, and a FETCH for what the keys do not
			// decide (query_planner_tree_test.cpp OrWithAndChild). The
			// branches' choices combine with the first branch varying fastest
			// (OrAssignment); with a_1 for {a: 1, b: {$gt: 1}} the OR reads
			// fewer keys. The branches run in the order of their indexes
			// (sortUsingTags).
			name:     "an $and branch is fetched and filtered below the OR",
			ref:      "src/mongo/db/query/planner_access.cpp processIndexScansSubnode, buildIndexedAnd; index_tag.cpp sortUsingTags; query_planner_tree_test.cpp OrWithAndChild; jstests/core/query/or/or3.js",
			indexes:  `[{"key": {"b": 1}, "name": "b_1"}, {"key": {"a": 1}, "name": "a_1"}]`,
			cmd:      `{"find": "c", "filter": {"$and": [{"x": {"$gt": 0}}, {"$or": [{"a": 1, "b": {"$gt": 1}}, {"b": 1}]}]}}`,
			plan:     `FETCH {"x":{"$gt":0}} > OR [IXSCAN b_1 {"b":["[1, 1]"]}, FETCH {"b":{"$gt":1}} > IXSCAN a_1 {"a":["[1, 1]"]}]`,
			rejected: []string{`FETCH {"x":{"$gt":0}} > OR [FETCH {"a":{"$eq":1}} > IXSCAN b_1 {"b":["(1, inf.0]"]}, IXSCAN b_1 {"b":["[1, 1]"]}]`},
			keys:     6, docs: 6, n: 3,
		},
		{
			// Two $ors below the $and are two subnodes, each the $and's choice
			// in turn, the other left to the FETCH.
			name:     "of two $ors below an $and, each is indexed in turn",
			ref:      "src/mongo/db/query/plan_enumerator/plan_enumerator.cpp prepSubNodes, enumerateOneIndex; jstests/core/query/or/or3.js",
			indexes:  `[{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}, {"key": {"s": 1}, "name": "s_1"}]`,
			cmd:      `{"find": "c", "filter": {"$and": [{"$or": [{"a": 1}, {"b": 2}]}, {"$or": [{"s": {"$lt": 3}}, {"s": 8}]}]}}`,
			plan:     `FETCH {"$or":[{"a":{"$eq":1}},{"b":{"$eq":2}}]} > IXSCAN s_1 {"s":["[-inf.0, 3)","[8, 8]"]}`,
			rejected: []string{`FETCH {"$or":[{"s":{"$eq":8}},{"s":{"$lt":3}}]} > OR [IXSCAN a_1 {"a":["[1, 1]"]}, IXSCAN b_1 {"b":["[2, 2]"]}]`},
			keys:     5, docs: 3, n: 3,
		},
	})
}

func TestContainedOrEnumerationLimit(t *testing.T) {
	runContainedOrCases(t, []containedOrCase{
		{
			// Four branches with two indexes each make 16 combinations; the
			// OrAssignment stops at internalQueryEnumerationMaxOrSolutions
			// (10) and sets hitIndexedOrLimit, which explain reports as
			// maxIndexedOrSolutionsReached. x has no index: 10 plans in all.
			name:    "the enumerator plans ten combinations of an $or's branches at most",
			ref:     "src/mongo/db/query/plan_enumerator/plan_enumerator.cpp nextMemo (OrAssignment counter, hitIndexedOrLimit); query_knobs.idl internalQueryEnumerationMaxOrSolutions; jstests/noPassthrough/query/explain/explain_index_limits.js",
			indexes: `[{"key": {"a": 1}, "name": "a_1"}, {"key": {"a": 1, "s": 1}, "name": "a_1_s_1"}, {"key": {"b": 1}, "name": "b_1"}, {"key": {"b": 1, "s": 1}, "name": "b_1_s_1"}, {"key": {"s": 1}, "name": "s_1"}, {"key": {"s": 1, "a": 1}, "name": "s_1_a_1"}]`,
			cmd:     `{"find": "c", "filter": {"x": 1, "$or": [{"a": 1}, {"b": 2}, {"s": 4}, {"a": {"$gt": 2}}]}}`,
			n:       8, plans: 10, orLimit: true,
		},
		{
			// Two branches with two indexes each: four combinations, under
			// the limit.
			name:    "fewer combinations than the limit do not reach it",
			ref:     "src/mongo/db/query/plan_enumerator/plan_enumerator.cpp nextMemo (OrAssignment counter); jstests/noPassthrough/query/explain/explain_index_limits.js",
			indexes: `[{"key": {"a": 1}, "name": "a_1"}, {"key": {"a": 1, "s": 1}, "name": "a_1_s_1"}, {"key": {"b": 1}, "name": "b_1"}, {"key": {"b": 1, "s": 1}, "name": "b_1_s_1"}]`,
			cmd:     `{"find": "c", "filter": {"x": 1, "$or": [{"a": 1}, {"b": 2}]}}`,
			n:       3, plans: 4,
		},
	})
}

func TestContainedOrSortProjectionCountHint(t *testing.T) {
	runContainedOrCases(t, []containedOrCase{
		{
			// Every branch's scan gives the sort (its leading field pinned),
			// so buildIndexedOr merges them (canProvideSortWithMergeSort):
			// FETCH over SORT_MERGE, no blocking SORT.
			name:    "a sort every branch's index gives merges the branches",
			ref:     "src/mongo/db/query/planner_access.cpp buildIndexedOr (canProvideSortWithMergeSort), buildIndexedAnd; jstests/core/query/or/orf.js",
			cov:     explainCase(query, "$or"),
			indexes: `[{"key": {"a": 1, "s": 1}, "name": "a_1_s_1"}, {"key": {"b": 1, "s": 1}, "name": "b_1_s_1"}]`,
			cmd:     `{"find": "c", "filter": {"x": 1, "$or": [{"a": 1}, {"b": 2}]}, "sort": {"s": 1}}`,
			plan:    `FETCH {"x":{"$eq":1}} > SORT_MERGE [IXSCAN a_1_s_1 {"a":["[1, 1]"],"s":["[MinKey, MaxKey]"]}, IXSCAN b_1_s_1 {"b":["[2, 2]"],"s":["[MinKey, MaxKey]"]}]`,
			keys:    6, docs: 5, n: 3,
		},
		{
			// A sort no branch gives: a blocking SORT over the plan.
			name:    "a sort the branches do not give is a blocking SORT above the FETCH",
			ref:     "src/mongo/db/query/planner_analysis.cpp analyzeSort; planner_access.cpp buildIndexedOr; jstests/core/query/or/or2.js",
			indexes: `[{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]`,
			cmd:     `{"find": "c", "filter": {"x": 1, "$or": [{"a": 1}, {"b": 2}]}, "sort": {"s": -1}}`,
			plan:    `SORT > FETCH {"x":{"$eq":1}} > OR [IXSCAN a_1 {"a":["[1, 1]"]}, IXSCAN b_1 {"b":["[2, 2]"]}]`,
			keys:    6, docs: 5, n: 3,
		},
		{
			// A projection goes above the FETCH the $and's x needs.
			name:    "a projection goes above the FETCH over the OR",
			ref:     "src/mongo/db/query/planner_analysis.cpp analyzeProjection; planner_access.cpp buildIndexedAnd; jstests/core/query/or/or2.js",
			indexes: `[{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]`,
			cmd:     `{"find": "c", "filter": {"x": 1, "$or": [{"a": 1}, {"b": 2}]}, "projection": {"_id": 1, "a": 1}}`,
			plan:    `PROJECTION_SIMPLE > FETCH {"x":{"$eq":1}} > OR [IXSCAN a_1 {"a":["[1, 1]"]}, IXSCAN b_1 {"b":["[2, 2]"]}]`,
			keys:    6, docs: 5, n: 3,
		},
		{
			// A count is planned as a find (getExecutorCount), COUNT on top.
			name:    "a count over a contained $or counts the FETCH's results",
			ref:     "src/mongo/db/query/get_executor.cpp getExecutorCount; planner_access.cpp buildIndexedAnd; jstests/core/query/or/or2.js",
			indexes: `[{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]`,
			cmd:     `{"count": "c", "query": {"x": 1, "$or": [{"a": 1}, {"b": 2}]}}`,
			plan:    `COUNT > FETCH {"x":{"$eq":1}} > OR [IXSCAN a_1 {"a":["[1, 1]"]}, IXSCAN b_1 {"b":["[2, 2]"]}]`,
			keys:    6, docs: 5, n: 3,
		},
		{
			// With x pushed into both branches and trimmed, a count needs
			// no document at all (analyzeDataAccess adds no FETCH for a
			// count-like query whose keys decide it), and the plan without
			// FETCH wins.
			name:    "a count whose $and predicates were all pushed down reads no document",
			ref:     "src/mongo/db/query/planner_analysis.cpp analyzeDataAccess (isCountLike); index_tag.cpp processOrPushdownNode; jstests/core/query/or/or2.js",
			indexes: `[{"key": {"x": 1, "a": 1}, "name": "x_1_a_1"}, {"key": {"x": 1, "b": 1}, "name": "x_1_b_1"}]`,
			cmd:     `{"count": "c", "query": {"x": 1, "$or": [{"a": 1}, {"b": 2}]}}`,
			plan:    `COUNT > OR [IXSCAN x_1_a_1 {"x":["[1, 1]"],"a":["[1, 1]"]}, IXSCAN x_1_b_1 {"x":["[1, 1]"],"b":["[2, 2]"]}]`,
			keys:    4, docs: 0, n: 3,
		},
		{
			// Hinted, the enumerator sees the hinted index alone: both
			// branches use it, so the $or is indexed by one scan of the
			// unioned bounds (query_planner_tree_test.cpp
			// OrCollapsesToSingleScan3, contained).
			name:    "a hinted index every branch uses answers the $or with one scan",
			ref:     "src/mongo/db/query/query_planner.cpp plan (hint); planner_access.cpp processIndexScans; query_planner_tree_test.cpp OrCollapsesToSingleScan3; jstests/core/query/or/or2.js",
			cov:     explainCase(query, "$or"),
			indexes: `[{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]`,
			cmd:     `{"find": "c", "filter": {"x": 1, "$or": [{"a": 1}, {"a": 2}, {"a": {"$gt": 2}}]}, "hint": "a_1"}`,
			plan:    `FETCH {"x":{"$eq":1}} > IXSCAN a_1 {"a":["[1, 1]","[2, inf.0]"]}`,
			keys:    12, docs: 11, n: 9,
		},
		{
			// Hinted to an index one branch cannot use, no indexed plan
			// exists, and the hinted index is scanned whole
			// (query_planner_tree_test.cpp OrOnlyOneBranchCanUseIndexHinted).
			name:    "a hinted index a branch cannot use is scanned whole",
			ref:     "src/mongo/db/query/query_planner.cpp plan (buildWholeIXSoln); query_planner_tree_test.cpp OrOnlyOneBranchCanUseIndexHinted; jstests/core/query/or/or2.js",
			indexes: `[{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]`,
			cmd:     `{"find": "c", "filter": {"x": 1, "$or": [{"a": 1}, {"b": 2}]}, "hint": {"a": 1}}`,
			plan:    `FETCH {"$and":[{"$or":[{"a":{"$eq":1}},{"b":{"$eq":2}}]},{"x":{"$eq":1}}]} > IXSCAN a_1 {"a":["[MinKey, MaxKey]"]}`,
			keys:    14, docs: 14, n: 3,
		},
	})
}
