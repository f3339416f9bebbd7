package compat_test

import (
	"slices"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// The planning and explain sweep: covered plans, null equality, counters
// of the classic stages, hints and the explain of the write commands, each
// checked against mongod 8.0's planner and stages.

// planStages counts the stages named name anywhere in plan, inputStage and
// inputStages alike.
func planStages(plan bson.D, name string) int {
	if plan == nil {
		return 0
	}
	n := 0
	if field(plan, "stage") == name {
		n++
	}
	if in, ok := field(plan, "inputStage").(bson.D); ok {
		n += planStages(in, name)
	}
	if ins, ok := field(plan, "inputStages").(bson.A); ok {
		for _, in := range ins {
			n += planStages(in.(bson.D), name)
		}
	}
	return n
}

// sameStages checks how many times each stage appears in plan, as
// cover_null_queries.js's validateStages does.
func sameStages(t *testing.T, plan bson.D, want map[string]int) {
	t.Helper()
	for name, n := range want {
		if got := planStages(plan, name); got != n {
			t.Errorf("%d %s stages, want %d, in %s", got, name, n, relaxed(plan))
		}
	}
}

// coverNullDocs are cover_null_queries.js's documents: a null, missing, or set.
const coverNullDocs = `[{"_id": 1, "a": 1, "b": 1}, {"_id": 2, "a": 1, "b": null}, {"_id": 3, "a": null, "b": 1},
	{"_id": 4, "a": null, "b": null}, {"_id": 5, "a": 2}, {"_id": 6, "b": 2}, {"_id": 7}]`

func TestPlannerSweepNullEquality(t *testing.T) {
	s := newSuite(t)
	// index_bounds_builder.cpp (updateTightnessForNullQuery) gives {a: null}
	// the point [null, null] with EXACT_MAYBE_COVERED tightness: null and
	// missing share the point, and since 8.0 {a: null} matches both and
	// nothing else there, so the keys decide the filter unless the
	// document's own value of a is needed. planner_access.cpp
	// (projNeedsFetch, refineTightnessForMaybeCoveredQuery): a count needs
	// no value, nor does a projection of _id alone.
	const ref = "src/mongo/db/query/index_bounds_builder.cpp updateTightnessForNullQuery; planner_access.cpp projNeedsFetch; jstests/core/cover_null_queries.js"
	setup := func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), coverNullDocs)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1, "_id": 1}, "name": "a_1__id_1"}]}`)
	}
	s.runCase(t, "count of a null equality is one COUNT_SCAN", ref, explainCase(commandFam, "count"), func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		sameValue(t, "n", field(mustCommand(t, db, `{"count": "c", "query": {"a": null}}`), "n"), `4`)
		st := explainStats(t, db, `{"count": "c", "query": {"a": null}}`)
		sameFigures(t, st, "COUNT>COUNT_SCAN", 4, 0)
		// $count in a pipeline is count-like too.
		reply := mustCommand(t, db, `{"explain": {"aggregate": "c", "pipeline": [{"$match": {"a": null}}, {"$count": "n"}], "cursor": {}}, "verbosity": "queryPlanner"}`)
		sameStages(t, field(cursorPlanner(t, reply), "winningPlan").(bson.D), map[string]int{"COUNT_SCAN": 1, "FETCH": 0})
	})
	s.runCase(t, "a null equality projecting _id alone is covered", ref, explainCase(query, "$eq"), func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		st := explainStats(t, db, `{"find": "c", "filter": {"a": null}, "projection": {"_id": 1}}`)
		sameFigures(t, st, "PROJECTION_COVERED>IXSCAN", 4, 0)
		docs, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"a": null}, "projection": {"_id": 1}}`))
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "find", docs, `[{"_id": 3}, {"_id": 4}, {"_id": 6}, {"_id": 7}]`, false)
		// An expression reading only _id needs no document either.
		st = explainStats(t, db, `{"find": "c", "filter": {"a": null}, "projection": {"_id": 0, "incr": {"$add": [1, "$_id"]}}}`)
		sameFigures(t, st, "PROJECTION_DEFAULT>IXSCAN", 4, 0)
	})
	s.runCase(t, "a null equality projecting the null field fetches", ref, explainCase(query, "$eq"), func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		// The key cannot say whether a is null or missing.
		st := explainStats(t, db, `{"find": "c", "filter": {"a": null}, "projection": {"a": 1}}`)
		sameFigures(t, st, "PROJECTION_SIMPLE>FETCH>IXSCAN", 4, 4)
		sameValue(t, "FETCH filter", field(stageNamed(field(st, "executionStages").(bson.D), "FETCH"), "filter"), `{"a": {"$eq": null}}`)
		// No projection at all: the whole document, and the filter on FETCH.
		st = explainStats(t, db, `{"find": "c", "filter": {"a": null}}`)
		sameFigures(t, st, "FETCH>IXSCAN", 4, 4)
		// An exclusion needs the document.
		st = explainStats(t, db, `{"find": "c", "filter": {"a": null}, "projection": {"b": 0}}`)
		sameFigures(t, st, "PROJECTION_SIMPLE>FETCH>IXSCAN", 4, 4)
	})
	s.runCase(t, "$in with null is covered but never a COUNT_SCAN", ref, explainCase(query, "$in"), func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		st := explainStats(t, db, `{"find": "c", "filter": {"a": {"$in": [null, 2]}}, "projection": {"_id": 1}}`)
		sameFigures(t, st, "PROJECTION_COVERED>IXSCAN", 6, 0)
		st = explainStats(t, db, `{"count": "c", "query": {"a": {"$in": [2, null]}}}`)
		sameFigures(t, st, "COUNT>IXSCAN", 6, 0)
		// [] adds the points undefined and [], which FETCH must tell apart;
		// key 1 past the null point is read before the seek to [].
		st = explainStats(t, db, `{"find": "c", "filter": {"a": {"$in": [null, []]}}, "projection": {"_id": 1}}`)
		sameFigures(t, st, "PROJECTION_SIMPLE>FETCH>IXSCAN", 5, 4)
	})
	s.runCase(t, "a null equality stays covered on a multikey index", ref, explainCase(query, "$eq"), func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		insertDocs(t, db.Collection("c"), `[{"_id": 8, "a": []}, {"_id": 9, "a": [[]]}, {"_id": 10, "a": [null, []]}]`)
		sameValue(t, "n", field(mustCommand(t, db, `{"count": "c", "query": {"a": null}}`), "n"), `5`)
		st := explainStats(t, db, `{"count": "c", "query": {"a": null}}`)
		sameFigures(t, st, "COUNT>COUNT_SCAN", 5, 0)
		docs, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"a": null}, "projection": {"_id": 1}}`))
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "find", docs, `[{"_id": 3}, {"_id": 4}, {"_id": 6}, {"_id": 7}, {"_id": 10}]`, false)
		st = explainStats(t, db, `{"find": "c", "filter": {"a": null}, "projection": {"_id": 1}}`)
		sameFigures(t, st, "PROJECTION_COVERED>IXSCAN", 5, 0)
	})
	// The same function: a dotted path on a multikey index gets a null key
	// from {a: [1, 2]}, which {"a.b": null} does not match.
	s.runCase(t, "a null equality on a dotted multikey path fetches", ref, explainCase(query, "$eq"), func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": [1, 2]}, {"_id": 2, "a": {"b": null}}, {"_id": 3, "a": [{"b": 1}]}, {"_id": 4}]`)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a.b": 1}, "name": "ab"}]}`)
		st := explainStats(t, db, `{"count": "c", "query": {"a.b": null}}`)
		sameFigures(t, st, "COUNT>FETCH>IXSCAN", 3, 3)
		sameValue(t, "nCounted", field(field(st, "executionStages").(bson.D), "nCounted"), `2`)
	})
}

// stageStats are the counters of the first stage named name in the
// executionStats of an explain.
func stageStats(t *testing.T, st bson.D, name string) bson.D {
	t.Helper()
	s := stageNamed(field(st, "executionStages").(bson.D), name)
	if s == nil {
		t.Fatalf("no %s stage in %s", name, relaxed(st))
	}
	return s
}

// sameCounters checks a stage's works, advanced, needTime and isEOF.
func sameCounters(t *testing.T, s bson.D, works, adv, needTime, eof int64) {
	t.Helper()
	got := []int64{asInt(field(s, "works")), asInt(field(s, "advanced")), asInt(field(s, "needTime")), asInt(field(s, "isEOF"))}
	if want := []int64{works, adv, needTime, eof}; !slices.Equal(got, want) {
		t.Errorf("%s works/advanced/needTime/isEOF %v, want %v", field(s, "stage"), got, want)
	}
}

func TestPlannerSweepCounters(t *testing.T) {
	s := newSuite(t)
	const scanRef = "src/mongo/db/exec/index_scan.cpp IndexScan::doWork; jstests/core/query/explain/explain_execution_stats_counters.js"
	// A single interval ends at the cursor's end position: the key past it
	// is never read, and the work that finds the end is EOF.
	s.runCase(t, "a point scan reads no key past its interval", scanRef, explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		st := explainStats(t, db, `{"find": "c", "filter": {"a": 3}}`)
		sameFigures(t, st, "FETCH>IXSCAN", 1, 1)
		ix := stageStats(t, st, "IXSCAN")
		sameCounters(t, ix, 2, 1, 0, 1)
		sameValue(t, "seeks", field(ix, "seeks"), `1`)
		st = explainStats(t, db, `{"find": "c", "filter": {"a": {"$gte": 2, "$lt": 5}}}`)
		sameFigures(t, st, "FETCH>IXSCAN", 3, 3)
		sameCounters(t, stageStats(t, st, "IXSCAN"), 4, 3, 0, 1)
	})
	// Several intervals go through the IndexBoundsChecker: a key between
	// two intervals is examined, answers MUST_ADVANCE (needTime) and the
	// scan seeks to the next; the key past the last interval is examined
	// too, and ends the scan.
	s.runCase(t, "a multi-interval scan examines the keys between and after its intervals", scanRef, explainCase(query, "$in"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		st := explainStats(t, db, `{"find": "c", "filter": {"a": {"$in": [1, 3]}}}`)
		sameFigures(t, st, "FETCH>IXSCAN", 4, 2)
		ix := stageStats(t, st, "IXSCAN")
		sameCounters(t, ix, 4, 2, 1, 1)
		sameValue(t, "seeks", field(ix, "seeks"), `2`)
		// FETCH with a filter: each document read that fails is needTime.
		st = explainStats(t, db, `{"find": "c", "filter": {"a": {"$in": [1, 3]}, "d": {"$gt": 7}}}`)
		sameFigures(t, st, "FETCH>IXSCAN", 4, 2)
		fetch := stageStats(t, st, "FETCH")
		sameCounters(t, fetch, 4, 1, 2, 1)
		sameValue(t, "FETCH filter", field(fetch, "filter"), `{"d": {"$gt": 7}}`)
	})
	// limit.cpp LimitStage::doWork: once the limit is reached LIMIT answers
	// EOF without working its child, so the scan below is not at its end.
	s.runCase(t, "a collection scan under a limit stops at the limit", "src/mongo/db/exec/limit.cpp LimitStage::doWork",
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			st := explainStats(t, db, `{"find": "c", "filter": {"d": {"$gt": 3}}, "limit": 2}`)
			sameFigures(t, st, "LIMIT>COLLSCAN", 0, 2)
			sameCounters(t, stageStats(t, st, "LIMIT"), 3, 2, 0, 1)
			sameCounters(t, stageStats(t, st, "COLLSCAN"), 2, 2, 0, 0)
			sameValue(t, "limitAmount", field(stageStats(t, st, "LIMIT"), "limitAmount"), `2`)
		})
	// multi_plan.cpp MultiPlanStage::doWork works the winner's root once
	// more after a trial it finished; fetch.cpp FetchStage::doWork and
	// count.cpp CountStage::doWork answer EOF from their child's isEOF
	// without working it, so only the root counts that work.
	s.runCase(t, "after a trial the winner finished only its root is worked again",
		"src/mongo/db/exec/multi_plan.cpp MultiPlanStage::doWork; fetch.cpp FetchStage::doWork; count.cpp CountStage::doWork",
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": [1, 5], "b": 1}, {"_id": 2, "a": 3, "b": 2}, {"_id": 3, "a": [2, 8], "b": 3}]`)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}, {"key": {"a": 1, "b": 1}, "name": "a_1_b_1"}]}`)
			reply := mustCommand(t, db, `{"explain": {"find": "c", "filter": {"a": {"$elemMatch": {"$gt": 2, "$lt": 4}}}}, "verbosity": "executionStats"}`)
			if n := len(field(field(reply, "queryPlanner").(bson.D), "rejectedPlans").(bson.A)); n != 1 {
				t.Fatalf("%d rejected plans, want 1: the query must be multi-planned", n)
			}
			st := field(reply, "executionStats").(bson.D)
			sameFigures(t, st, "FETCH>IXSCAN", 1, 1)
			sameCounters(t, stageStats(t, st, "FETCH"), 3, 0, 1, 1)
			sameCounters(t, stageStats(t, st, "IXSCAN"), 2, 1, 0, 1)
			st = explainStats(t, db, `{"count": "c", "query": {"a": {"$gt": 2}}}`)
			sameFigures(t, st, "COUNT>COUNT_SCAN", 3, 0)
			sameCounters(t, stageStats(t, st, "COUNT"), 5, 0, 3, 1)
			sameCounters(t, stageStats(t, st, "COUNT_SCAN"), 4, 3, 0, 1)
		})
}

func TestPlannerSweepOr(t *testing.T) {
	s := newSuite(t)
	const ref = "src/mongo/db/query/get_executor.cpp (needsSubplanning); src/mongo/db/exec/subplan.cpp (choosePlanWholeQuery); plan_explainer_impl.cpp getWinningPlanStatsTree; planner_analysis.cpp analyzeDataAccess"
	setup := func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id": 0, "a": 0, "b": 9, "c": 1}, {"_id": 1, "a": 1, "b": 8, "c": 2},
			{"_id": 2, "a": 2, "b": 7, "c": 3}, {"_id": 3, "a": 3, "b": 6, "c": 4}]`)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}]}`)
	}
	// Each branch is planned alone and the OR of their scans answers the
	// query, under SUBPLAN, the executor's root.
	s.runCase(t, "a rooted $or is SUBPLAN over an OR of each branch's scan", ref, explainCase(query, "$or"), func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		st := explainStats(t, db, `{"find": "c", "filter": {"$or": [{"a": 1}, {"b": 7}]}}`)
		sameFigures(t, st, "SUBPLAN>FETCH>OR", 2, 2)
		or := stageStats(t, st, "OR")
		sameCounters(t, or, 4, 2, 1, 1)
		sameValue(t, "dupsTested", field(or, "dupsTested"), `2`)
		var names []string
		for _, in := range field(or, "inputStages").(bson.A) {
			names = append(names, field(in.(bson.D), "indexName").(string))
		}
		if !slices.Equal(names, []string{"a_1", "b_1"}) {
			t.Errorf("branch indexes %v, want [a_1 b_1]", names)
		}
		// planner_analysis.cpp analyzeDataAccess adds no FETCH under
		// IS_COUNT: a count whose branches the keys decide reads no
		// document, an inexact branch's key filter staying on its scan.
		st = explainStats(t, db, `{"count": "c", "query": {"$or": [{"a": 1}, {"b": 7}]}}`)
		sameFigures(t, st, "COUNT>SUBPLAN>OR", 2, 0)
		st = explainStats(t, db, `{"count": "c", "query": {"$or": [{"a": 1}, {"b": {"$mod": [2, 0]}}]}}`)
		sameFigures(t, st, "COUNT>SUBPLAN>OR", 5, 0)
		sameValue(t, "nCounted", field(stageStats(t, st, "COUNT"), "nCounted"), `2`)
	})
	// planner_access.cpp finishAndOutputLeaf: a branch the keys do not
	// decide ($elemMatch) is fetched and filtered below the OR, and the
	// FETCH above the OR reads the rest, counting as alreadyHasObj what a
	// branch fetched; a count needs no FETCH above.
	s.runCase(t, "a branch its keys do not decide is fetched below the OR", ref+"; planner_access.cpp finishAndOutputLeaf; expression.cpp sortTree; index_tag.cpp sortUsingTags", explainCase(query, "$or"), func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		insertDocs(t, db.Collection("c"), `[{"_id": 9, "a": 9, "b": [20, 1]}]`)
		wp := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": {"$or": [{"a": 1}, {"b": {"$elemMatch": {"$gt": 10}}}]}}, "verbosity": "queryPlanner"}`))
		or := stageNamed(wp, "OR")
		if got := stageChain(wp); got != "SUBPLAN>FETCH>OR" {
			t.Errorf("plan %s, want SUBPLAN>FETCH>OR", got)
		}
		var branches []string
		for _, in := range field(or, "inputStages").(bson.A) {
			branches = append(branches, stageChain(in.(bson.D)))
		}
		// The canonical query puts $elemMatch before $eq
		// (MatchExpression::sortTree), but the subplanner sorts the tagged
		// branches on their indexes before building the OR (index_tag.cpp
		// prepareForAccessPlanning, sortUsingTags): a_1 was created before
		// b_1, so {a: 1}'s bare scan runs first.
		if !slices.Equal(branches, []string{"IXSCAN", "FETCH>IXSCAN"}) {
			t.Errorf("branches %v, want the bare scan of a_1, then the fetched $elemMatch branch", branches)
		}
		// Branches equal in type, path and children keep their order: the
		// comparator reads no value.
		reply := mustCommand(t, db, `{"explain": {"find": "c", "filter": {"$or": [{"a": 4, "b": 4}, {"a": 3, "b": 3}]}}, "verbosity": "queryPlanner"}`)
		sameValue(t, "parsedQuery", field(field(reply, "queryPlanner").(bson.D), "parsedQuery"),
			`{"$or": [{"$and": [{"a": {"$eq": 4}}, {"b": {"$eq": 4}}]}, {"$and": [{"a": {"$eq": 3}}, {"b": {"$eq": 3}}]}]}`)
		st := explainStats(t, db, `{"count": "c", "query": {"$or": [{"a": 1}, {"b": {"$elemMatch": {"$gt": 10}}}]}}`)
		sameFigures(t, st, "COUNT>SUBPLAN>OR", 2, 1)
		sameValue(t, "nCounted", field(stageStats(t, st, "COUNT"), "nCounted"), `2`)
	})
	// A branch no index answers fails the subplanner; the whole query is
	// planned, its only plan is the collection scan, and SubplanStage
	// stays the root above it.
	s.runCase(t, "a rooted $or with an unindexed branch is SUBPLAN over COLLSCAN", ref, explainCase(query, "$or"), func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		st := explainStats(t, db, `{"find": "c", "filter": {"$or": [{"a": 1}, {"c": 3}]}}`)
		sameFigures(t, st, "SUBPLAN>COLLSCAN", 0, 4)
		sameCounters(t, stageStats(t, st, "SUBPLAN"), 5, 2, 2, 1)
		st = explainStats(t, db, `{"count": "c", "query": {"$or": [{"a": 1}, {"c": 3}]}}`)
		sameFigures(t, st, "COUNT>SUBPLAN>COLLSCAN", 0, 4)
		// A hint rules subplanning out (canUseSubplanning).
		st = explainStats(t, db, `{"find": "c", "filter": {"$or": [{"a": 1}, {"c": 3}]}, "hint": {"$natural": 1}}`)
		sameFigures(t, st, "COLLSCAN", 0, 4)
	})
}

func TestPlannerSweepSort(t *testing.T) {
	s := newSuite(t)
	const ref = "src/mongo/db/query/planner_analysis.cpp analyzeSort, canUseSimpleSort; jstests/core/query/explain/explain_sort_type.js"
	setup := func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), tenNumbers)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1, "d": 1}, "name": "a_1_d_1"}]}`)
	}
	// The index gives {a: -1} read backward: no SORT, and LIMIT stops
	// the scan after two keys.
	s.runCase(t, "a sort the index gives has no SORT stage", ref, explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		st := explainStats(t, db, `{"find": "c", "filter": {"a": {"$gt": 1}}, "sort": {"a": -1}, "limit": 2}`)
		sameFigures(t, st, "LIMIT>FETCH>IXSCAN", 2, 2)
		ix := stageStats(t, st, "IXSCAN")
		sameValue(t, "direction", field(ix, "direction"), `"backward"`)
		sameValue(t, "indexBounds", field(ix, "indexBounds"), `{"a": ["[inf.0, 1)"], "d": ["[MaxKey, MinKey]"]}`)
	})
	// A sort on d after a range on a is blocking: every match is fetched
	// and sorted, the limit folds into the SORT as limitAmount (limit plus
	// skip, the SKIP above it dropping the first), and a fetched input
	// with no metadata to keep is the simple sort.
	s.runCase(t, "a blocking sort takes the limit and skip and is simple over fetched documents", ref, explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		st := explainStats(t, db, `{"find": "c", "filter": {"a": {"$gt": 5}}, "sort": {"d": 1}, "skip": 1, "limit": 2}`)
		sameFigures(t, st, "SKIP>SORT>FETCH>IXSCAN", 4, 4)
		sort := stageStats(t, st, "SORT")
		for name, want := range map[string]string{"sortPattern": `{"d": 1}`, "memLimit": `104857600`, "limitAmount": `3`, "type": `"simple"`} {
			sameValue(t, name, field(sort, name), want)
		}
		// Four documents in, EOF, three out, then EOF.
		sameCounters(t, sort, 9, 3, 5, 1)
		docs, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"a": {"$gt": 5}}, "sort": {"d": 1}, "skip": 1, "limit": 2}`))
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "find", docs, `[{"_id": 8, "a": 8, "d": 1}, {"_id": 7, "a": 7, "d": 2}]`, false)
	})
	// canUseSimpleSort: the simple sort needs fetched documents, no
	// metadata but the sort key, and no record ids kept; a covered sort,
	// showRecordId and a write (PRESERVE_RECORD_ID, get_executor.cpp
	// getExecutorUpdate/getExecutorDelete) use the default one.
	s.runCase(t, "a covered sort, showRecordId and a write's sort are the default sort", ref, explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		sortType := func(cmd string) any {
			return field(stageNamed(winningPlan(t, mustCommand(t, db, `{"explain": `+cmd+`, "verbosity": "queryPlanner"}`)), "SORT"), "type")
		}
		wp := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": {"a": {"$gt": 5}}, "sort": {"d": 1}, "projection": {"_id": 0, "a": 1, "d": 1}}, "verbosity": "queryPlanner"}`))
		if got := stageChain(wp); got != "PROJECTION_COVERED>SORT>IXSCAN" {
			t.Errorf("plan %s, want PROJECTION_COVERED>SORT>IXSCAN", got)
		}
		sameValue(t, "covered sort type", field(stageNamed(wp, "SORT"), "type"), `"default"`)
		sameValue(t, "sortKey projection type", sortType(`{"find": "c", "filter": {"a": {"$gt": 5}}, "sort": {"d": 1}, "projection": {"k": {"$meta": "sortKey"}}}`), `"simple"`)
		sameValue(t, "showRecordId type", sortType(`{"find": "c", "filter": {"a": {"$gt": 5}}, "sort": {"d": 1}, "showRecordId": true}`), `"default"`)
		sameValue(t, "findAndModify type", sortType(`{"findAndModify": "c", "query": {"a": {"$gt": 5}}, "sort": {"d": 1}, "update": {"$set": {"x": 1}}}`), `"default"`)
		sameValue(t, "delete type", sortType(`{"delete": "c", "deletes": [{"q": {"a": {"$gt": 5}}, "limit": 1}]}`), `null`)
	})
}

func TestPlannerSweepCountSkipLimit(t *testing.T) {
	s := newSuite(t)
	// get_executor.cpp getExecutorCount plans the filter alone (the find
	// request it builds has no skip or limit) and puts them on the COUNT
	// stage (count.cpp): the first results are skipped (nSkipped), and the
	// count ends at the limit without working its child again.
	s.runCase(t, "a count's skip and limit are its COUNT stage's", "src/mongo/db/query/get_executor.cpp getExecutorCount; src/mongo/db/exec/count.cpp CountStage::doWork",
		explainCase(commandFam, "count"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			sameValue(t, "n", field(mustCommand(t, db, `{"count": "c", "query": {"a": {"$gte": 1}}, "skip": 1, "limit": 2}`), "n"), `2`)
			st := explainStats(t, db, `{"count": "c", "query": {"a": {"$gte": 1}}, "skip": 1, "limit": 2}`)
			sameFigures(t, st, "COUNT>COUNT_SCAN", 3, 0)
			count := stageStats(t, st, "COUNT")
			sameValue(t, "nCounted", field(count, "nCounted"), `2`)
			sameValue(t, "nSkipped", field(count, "nSkipped"), `1`)
			sameCounters(t, count, 4, 0, 3, 1)
			sameCounters(t, stageStats(t, st, "COUNT_SCAN"), 3, 3, 0, 0)
		})
	// record_store_fast_count.cpp: an empty filter reads the record count
	// whatever the skip and limit, which it applies itself.
	s.runCase(t, "a count with no filter stays RECORD_STORE_FAST_COUNT with a skip and limit", "src/mongo/db/exec/record_store_fast_count.cpp; get_executor.cpp getExecutorCount (useRecordStoreCount)",
		explainCase(commandFam, "count"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			sameValue(t, "n", field(mustCommand(t, db, `{"count": "c", "skip": 7, "limit": 5}`), "n"), `3`)
			st := explainStats(t, db, `{"count": "c", "skip": 7, "limit": 5}`)
			plan := field(st, "executionStages").(bson.D)
			sameValue(t, "stage", field(plan, "stage"), `"RECORD_STORE_FAST_COUNT"`)
			sameValue(t, "nCounted", field(plan, "nCounted"), `3`)
			sameValue(t, "nSkipped", field(plan, "nSkipped"), `7`)
			sameValue(t, "limited", field(mustCommand(t, db, `{"count": "c", "skip": 2, "limit": 5}`), "n"), `5`)
		})
}

func TestPlannerSweepWriteStages(t *testing.T) {
	s := newSuite(t)
	const ref = "src/mongo/db/exec/delete_stage.cpp DeleteStage::doWork; update_stage.cpp UpdateStage::doWork; jstests/core/query/explain/explain_find_and_modify.js"
	// A write of one document ends on the work that wrote it (isEOF once
	// nMatched or docsDeleted is set), so a deleteOne or updateOne whose
	// first key matches works once.
	s.runCase(t, "a single write ends on the work that wrote", ref, explainCase(commandFam, "update"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		st := explainStats(t, db, `{"delete": "c", "deletes": [{"q": {"a": {"$gte": 2}}, "limit": 1}]}`)
		sameCounters(t, stageStats(t, st, "DELETE"), 1, 0, 0, 1)
		st = explainStats(t, db, `{"update": "c", "updates": [{"q": {"a": {"$gte": 2}}, "u": {"$set": {"x": 1}}}]}`)
		upd := stageStats(t, st, "UPDATE")
		sameCounters(t, upd, 1, 0, 0, 1)
		sameValue(t, "nMatched", field(upd, "nMatched"), `1`)
		sameValue(t, "nWouldModify", field(upd, "nWouldModify"), `1`)
		// A multi update works once per result, and ends with its plan.
		st = explainStats(t, db, `{"update": "c", "updates": [{"q": {"a": {"$gte": 8}}, "u": {"$set": {"x": 1}}, "multi": true}]}`)
		sameFigures(t, st, "UPDATE>FETCH>IXSCAN", 2, 2)
		sameCounters(t, stageStats(t, st, "UPDATE"), 3, 0, 2, 1)
		// No match: the plan's end is the stage's.
		st = explainStats(t, db, `{"update": "c", "updates": [{"q": {"a": {"$gte": 20}}, "u": {"$set": {"x": 1}}}]}`)
		sameCounters(t, stageStats(t, st, "UPDATE"), 1, 0, 0, 1)
	})
	// findAndModify returns the document (returnDeleted,
	// shouldReturnAnyDocs): the write stage advances it, and answers EOF
	// on the next work.
	s.runCase(t, "findAndModify's write stage returns the document it wrote", ref, explainCase(commandFam, "findAndModify"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		reply := mustCommand(t, db, `{"explain": {"findAndModify": "c", "query": {"a": {"$gte": 7}}, "sort": {"d": 1}, "remove": true}, "verbosity": "executionStats"}`)
		st := field(reply, "executionStats").(bson.D)
		sameFigures(t, st, "DELETE>SORT>FETCH>IXSCAN", 3, 3)
		sameValue(t, "nReturned", field(st, "nReturned"), `1`)
		del := stageStats(t, st, "DELETE")
		// Three documents sorted (four works and the one that ends the
		// load), the first returned, then EOF.
		sameCounters(t, del, 6, 1, 4, 1)
		sameValue(t, "nWouldDelete", field(del, "nWouldDelete"), `1`)
		sameValue(t, "command", field(reply, "command"), `{"findAndModify": "c", "query": {"a": {"$gte": 7}}, "sort": {"d": 1}, "remove": true, "$db": "`+db.Name()+`"}`)
		st = explainStats(t, db, `{"findAndModify": "c", "query": {"a": {"$gte": 7}}, "update": {"$set": {"x": 1}}, "fields": {"x": 1}}`)
		sameFigures(t, st, "PROJECTION_DEFAULT>UPDATE>FETCH>IXSCAN", 1, 1)
		sameCounters(t, stageStats(t, st, "PROJECTION_DEFAULT"), 2, 1, 0, 1)
		sameCounters(t, stageStats(t, st, "UPDATE"), 2, 1, 0, 1)
	})
}

func TestPlannerSweepHints(t *testing.T) {
	s := newSuite(t)
	// A hint by key pattern picks that index, scanned whole on the fields
	// the filter does not bound; {$natural: -1} scans the collection
	// backward; a hint naming no index fails in QueryPlanner::plan with
	// the canonical query printed, which for a count has no limit or skip
	// (getExecutorCount leaves them to the COUNT stage).
	s.runCase(t, "hints by key pattern, $natural and a missing index", "src/mongo/db/query/query_planner.cpp (hint); get_executor.cpp getExecutorCount; jstests/core/query/explain/explain_count.js",
		explainCase(commandFam, "count"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1, "d": 1}, "name": "a_1_d_1"}]}`)
			wp := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": {"a": {"$gt": 5}}, "hint": {"a": 1, "d": 1}}, "verbosity": "queryPlanner"}`))
			ix := stageNamed(wp, "IXSCAN")
			sameValue(t, "indexName", field(ix, "indexName"), `"a_1_d_1"`)
			sameValue(t, "indexBounds", field(ix, "indexBounds"), `{"a": ["(5, inf.0]"], "d": ["[MinKey, MaxKey]"]}`)
			st := explainStats(t, db, `{"find": "c", "filter": {"a": {"$gt": 5}}, "hint": {"$natural": -1}}`)
			sameFigures(t, st, "COLLSCAN", 0, 10)
			sameValue(t, "direction", field(field(st, "executionStages").(bson.D), "direction"), `"backward"`)
			_, err := command(t, db, ejDoc(t, `{"count": "c", "query": {"a": {"$gt": 5}}, "limit": 3, "hint": "nope"}`))
			sameError(t, "count with a missing hint", err, 2, "error processing query: ns="+db.Name()+".cTree: a $gt 5\nSort: {}\nProj: {}\n planner returned error :: caused by :: hint provided does not correspond to an existing index")
		})
}
