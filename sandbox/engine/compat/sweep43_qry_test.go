package compat_test

import (
	"fmt"
	"strings"
	"testing"
)

// Sweep 43 (query family): the subplanner races the index plans of each
// rooted $or branch on the data, as it races whole queries, instead of
// taking the index that bounds the most leading fields.

// diagonalDocs are n documents where a counts up from 0 and b counts down
// from n, so a range on a and a range on b select opposite ends of the
// collection.
func diagonalDocs(n int) string {
	docs := make([]string, n)
	for i := range docs {
		docs[i] = fmt.Sprintf(`{"_id": %d, "a": %d, "b": %d}`, i, i, n-i)
	}
	return "[" + strings.Join(docs, ", ") + "]"
}

// tenFieldDocs are six documents equal in a to i and differing only in j.
func tenFieldDocs() string {
	docs := make([]string, 6)
	for j := range docs {
		docs[j] = fmt.Sprintf(`{"_id": %d, "a": 0, "b": 0, "c": 0, "d": 0, "e": 0, "f": 0, "g": 0, "h": 0, "i": 0, "j": %d}`, j, j)
	}
	return "[" + strings.Join(docs, ", ") + "]"
}

func TestSweep43QrySubplanRace(t *testing.T) {
	const (
		diagonalOr = `{"find": "c", "filter": {"$or": [{"a": {"$lte": 102}, "b": {"$gte": 0}}, {"a": {"$gte": 0}, "b": {"$lte": 102}}]}}`
		// Each branch's scan reads the range it selects: a up to 102 is
		// 103 keys, b up to 102 is 102 (b is at least 1).
		diagonalPlan = `SUBPLAN > OR [FETCH {"b":{"$gte":0}} > IXSCAN a_1 {"a":["[-inf.0, 102]"]}, ` +
			`FETCH {"a":{"$gte":0}} > IXSCAN b_1 {"b":["[-inf.0, 102]"]}]`
	)
	var tenIndexes, tenBranches, tenScans []string
	for _, f := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"} {
		tenIndexes = append(tenIndexes, fmt.Sprintf(`{"key": {"%s": 1}, "name": "%s_1"}`, f, f))
	}
	others := `{"$and":[{"a":{"$eq":0}},{"b":{"$eq":0}},{"c":{"$eq":0}},{"d":{"$eq":0}},{"e":{"$eq":0}},{"f":{"$eq":0}},{"g":{"$eq":0}},{"h":{"$eq":0}},{"i":{"$eq":0}}]}`
	for j := range 6 {
		tenBranches = append(tenBranches, fmt.Sprintf(`{"a": 0, "b": 0, "c": 0, "d": 0, "e": 0, "f": 0, "g": 0, "h": 0, "i": 0, "j": %d}`, j))
		tenScans = append(tenScans, fmt.Sprintf(`FETCH %s > IXSCAN j_1 {"j":["[%d, %d]"]}`, others, j, j))
	}
	runContainedOrCases(t, []containedOrCase{
		{
			// subplan.cpp choosePlanForSubqueries multi-plans a branch with
			// several solutions (MultiPlanStage, plan_ranker.h): in the first
			// branch a_1 returns a match per key while b_1, scanning b up
			// from 1, finds none until b reaches 398; the second branch is
			// the mirror image. Bounding one leading field each, the two
			// indexes tie on shape; the data decides. jstests/core/query/or/
			// subplanning_plan_quality.js runs this query and expects both
			// indexes in the winning plan.
			name:     "each rooted $or branch takes the index its trial finds productive",
			ref:      "src/mongo/db/exec/subplan.cpp choosePlanForSubqueries; plan_ranker.h; jstests/core/query/or/subplanning_plan_quality.js",
			collDocs: diagonalDocs(500),
			indexes:  `[{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]`,
			cmd:      diagonalOr,
			plan:     diagonalPlan,
			keys:     205, docs: 205, n: 205,
		},
		{
			// The same with b_1 created first: the race, not the catalog
			// order, picks each branch's index (the tagged branches are then
			// ordered on their indexes' numbers, sortUsingTags, so b_1's
			// branch runs first).
			name:     "the branch race does not depend on the order the indexes were created in",
			ref:      "src/mongo/db/exec/subplan.cpp choosePlanForSubqueries; index_tag.cpp sortUsingTags; jstests/core/query/or/subplanning_plan_quality.js",
			collDocs: diagonalDocs(500),
			indexes:  `[{"key": {"b": 1}, "name": "b_1"}, {"key": {"a": 1}, "name": "a_1"}]`,
			cmd:      diagonalOr,
			plan: `SUBPLAN > OR [FETCH {"a":{"$gte":0}} > IXSCAN b_1 {"b":["[-inf.0, 102]"]}, ` +
				`FETCH {"b":{"$gte":0}} > IXSCAN a_1 {"a":["[-inf.0, 102]"]}]`,
			keys: 205, docs: 205, n: 205,
		},
		{
			// The branch queries keep the query's sort
			// (CanonicalQuery::makeForSubplanner): sorted on b descending,
			// the first branch's a_1 plan must read and sort its 103 matches
			// before returning one, while b_1, scanned backwards, gives the
			// order and returns a match per key from b = 500 down. b_1 wins
			// both branches, and the scans merge on the sort.
			name:     "a branch race runs with the query's sort",
			ref:      "src/mongo/db/query/canonical_query.cpp makeForSubplanner; src/mongo/db/exec/subplan.cpp choosePlanForSubqueries; plan_ranker.h",
			collDocs: diagonalDocs(500),
			indexes:  `[{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]`,
			cmd:      strings.Replace(diagonalOr, `"filter"`, `"sort": {"b": -1}, "filter"`, 1),
			plan: `SUBPLAN > SORT_MERGE [FETCH {"a":{"$lte":102}} > IXSCAN b_1 {"b":["[inf.0, 0]"]}, ` +
				`FETCH {"a":{"$gte":0}} > IXSCAN b_1 {"b":["[102, -inf.0]"]}]`,
			keys: 602, docs: 602, n: 205,
		},
		{
			// Ten single-field indexes and six branches equal on a to i: per
			// branch the scan of j ends after its one key (the trial's EOF
			// bonus) while every other index reads all six documents, so
			// every branch takes j_1. subplanning_plan_quality.js expects
			// j_1 alone in the plan.
			name:     "a branch race among ten indexes picks the one that pins the branch",
			ref:      "src/mongo/db/exec/subplan.cpp choosePlanForSubqueries; plan_ranker.h; jstests/core/query/or/subplanning_plan_quality.js",
			collDocs: tenFieldDocs(),
			indexes:  "[" + strings.Join(tenIndexes, ", ") + "]",
			cmd:      `{"find": "c", "filter": {"$or": [` + strings.Join(tenBranches, ", ") + `]}}`,
			plan:     "SUBPLAN > OR [" + strings.Join(tenScans, ", ") + "]",
			keys:     6, docs: 6, n: 6,
		},
	})
}

func TestSweep43QryTieBreaking(t *testing.T) {
	docs := make([]string, 10)
	for i := range docs {
		docs[i] = fmt.Sprintf(`{"_id": %d, "a": 1, "b": %d}`, i, i)
	}
	runContainedOrCases(t, []containedOrCase{
		{
			// Every document has a: 1 and b at least 0, so the scan of a_1
			// (b left to FETCH) and the scan of a_1_b_1 return the same ten
			// documents in the same works and tie on score. plan_ranker.h
			// addTieBreakingHeuristicsBonuses then rewards the tied plans:
			// both examined ten documents (the docs-examined bonus goes to
			// each), and getIndexBoundsScore (plan_ranker.cpp) prefers the
			// scan that bounds the longer prefix, a then b, so a_1_b_1 wins
			// although a_1 was created first and races first.
			name: "plans tied on score are told apart by the bounded index prefix",
			ref: "src/mongo/db/query/plan_ranker.h addTieBreakingHeuristicsBonuses; " +
				"src/mongo/db/query/plan_ranker.cpp applyIndexPrefixHeuristic, getIndexBoundsScore",
			collDocs: "[" + strings.Join(docs, ", ") + "]",
			indexes:  `[{"key": {"a": 1}, "name": "a_1"}, {"key": {"a": 1, "b": 1}, "name": "a_1_b_1"}]`,
			cmd:      `{"find": "c", "filter": {"a": 1, "b": {"$gte": 0}}}`,
			plan:     `FETCH > IXSCAN a_1_b_1 {"a":["[1, 1]"],"b":["[0, inf.0]"]}`,
			rejected: []string{`FETCH {"b":{"$gte":0}} > IXSCAN a_1 {"a":["[1, 1]"]}`},
			keys:     10, docs: 10, n: 10, plans: 2,
		},
	})
}

func TestSweep43QryReplicaReadFields(t *testing.T) {
	const (
		ref      = "src/mongo/db/query/find_command.idl, count_command.idl, distinct_command.idl (mirrored: optionalBool, sampleId: uuid)"
		sampleID = `{"$binary": {"base64": "AAECAwQFBgcICQoLDA0ODw==", "subType": "04"}}`
		generic  = `{"$binary": {"base64": "AAECAwQFBgcICQoLDA0ODw==", "subType": "00"}}`
		docs     = `[{"_id": 1, "a": 1}]`
	)
	runCmdCases(t, []cmdCase{
		// A primary mirrors a read to its secondaries with mirrored: true
		// added (mirror_maestro.cpp), and analyzeShardKey's sampling tags a
		// read with a sampleId; each read command parses both and a single
		// node reads as if they were not there.
		{name: "find takes mirrored and sampleId", ref: ref, docs: docs,
			cmd:  `{"find": "c", "mirrored": true, "sampleId": ` + sampleID + `}`,
			want: `{"cursor": {"firstBatch": [{"_id": 1, "a": 1}], "id": {"$numberLong": "0"}, "ns": "{{db}}.c"}}`},
		{name: "count takes mirrored and sampleId", ref: ref, docs: docs,
			cmd: `{"count": "c", "query": {"a": 1}, "mirrored": true, "sampleId": ` + sampleID + `}`, want: `{"n": 1}`},
		{name: "distinct takes mirrored and sampleId", ref: ref, docs: docs,
			cmd: `{"distinct": "c", "key": "a", "mirrored": true, "sampleId": ` + sampleID + `}`, want: `{"values": [1]}`},
		{name: "find's mirrored is a boolean", ref: ref, docs: docs,
			cmd: `{"find": "c", "mirrored": "yes"}`, code: 14,
			msg: "BSON field 'FindCommandRequest.mirrored' is the wrong type 'string', expected types '[bool, long, int, decimal, double']"},
		{name: "count's sampleId is binData", ref: ref, docs: docs,
			cmd: `{"count": "c", "sampleId": "x"}`, code: 14,
			msg: "BSON field 'count.sampleId' is the wrong type 'string', expected type 'binData'"},
		{name: "distinct's sampleId is a UUID", ref: ref, docs: docs,
			cmd: `{"distinct": "c", "key": "a", "sampleId": ` + generic + `}`, code: 14,
			msg: "BSON field 'distinct.sampleId' is the wrong binData type 'general', expected type 'UUID'"},
	})
}

func TestSweep43QrySubplanCache(t *testing.T) {
	const or = `{"find": "c", "filter": {"$or": [{"a": {"$lte": 102}, "b": {"$gte": 0}}, {"a": {"$gte": 0}, "b": {"$lte": 102}}]}}`
	entries := `{"aggregate": "c", "pipeline": [{"$planCacheStats": {}},
		{"$group": {"_id": "$createdFromQuery.query", "active": {"$first": "$isActive"}, "index": {"$first": "$cachedPlan.inputStage.indexName"}}},
		{"$sort": {"_id": 1}}], "cursor": {}}`
	branchA := `{"$and": [{"a": {"$lte": 102}}, {"b": {"$gte": 0}}]}`
	branchB := `{"$and": [{"b": {"$lte": 102}}, {"a": {"$gte": 0}}]}`
	runCmdCases(t, []cmdCase{
		{
			// subplan.cpp races a branch with several plans in a
			// MultiPlanStage in SometimesCache mode, so the winner of each
			// branch is written to the plan cache under the branch's own
			// query (its AND as the canonical query serializes it), inactive
			// at first; the composite $or plan itself is not cached.
			name: "a subplanned $or caches each raced branch's plan under the branch's shape",
			ref:  "src/mongo/db/exec/subplan.cpp (MultiPlanStage, PlanCachingMode::SometimesCache); src/mongo/db/query/plan_cache_util.h",
			docs: diagonalDocs(500),
			setup: []string{
				`{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]}`, or,
			},
			cmd: entries,
			want: `{"cursor": {"firstBatch": [{"_id": ` + branchA + `, "active": false, "index": "a_1"}, ` +
				`{"_id": ` + branchB + `, "active": false, "index": "b_1"}], "id": {"$numberLong": "0"}, "ns": "{{db}}.c"}}`,
		},
		{
			// A second run takes no more works than the entries record, so
			// they become active (PlanCache::set).
			name: "a second run of the $or activates its branches' entries",
			ref:  "src/mongo/db/exec/subplan.cpp; src/mongo/db/query/plan_cache/plan_cache.h (set)",
			docs: diagonalDocs(500),
			setup: []string{
				`{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]}`, or, or,
			},
			cmd: entries,
			want: `{"cursor": {"firstBatch": [{"_id": ` + branchA + `, "active": true, "index": "a_1"}, ` +
				`{"_id": ` + branchB + `, "active": true, "index": "b_1"}], "id": {"$numberLong": "0"}, "ns": "{{db}}.c"}}`,
		},
	})
}

func TestSweep43QryCountLimit(t *testing.T) {
	const (
		ref  = "src/mongo/db/query/count_request.cpp countParseLimit (count_command.idl countLimit); src/mongo/bson/bsonelement.cpp parseIntegerElementToLong"
		docs = `[{"_id": 1}, {"_id": 2}, {"_id": 3}, {"_id": 4}]`
	)
	runCmdCases(t, []cmdCase{
		{name: "count's negative limit counts as its absolute value", ref: ref, docs: docs,
			cmd: `{"count": "c", "limit": -3}`, want: `{"n": 3}`},
		{name: "count's limit must be a number", ref: ref, docs: docs,
			cmd: `{"count": "c", "limit": "3"}`, code: 2, msg: "limit value is not a valid number"},
		{name: "count's limit must be an integer", ref: ref, docs: docs,
			cmd: `{"count": "c", "limit": 1.5}`, code: 9, msg: "Expected an integer: limit: 1.5"},
		{name: "count's limit cannot be the least long", ref: ref, docs: docs,
			cmd:  `{"count": "c", "limit": {"$numberLong": "-9223372036854775808"}}`,
			code: 2, msg: "limit value for count cannot be min long"},
	})
}
