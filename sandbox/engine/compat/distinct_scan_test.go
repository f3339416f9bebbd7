package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// DISTINCT_SCAN as mongod 8.0 plans it: for the distinct command
// (get_executor.cpp getExecutorDistinct, getDistinctNodeIndex,
// turnIxscanIntoDistinctIxscan) and for a $group that needs one document
// per group (pipeline_d.cpp tryPrepareDistinctExecutor, which replaces the
// $group with $groupByDistinctScan).

// dottedDocs: "a.b.c" is a whole value in the first five documents; the
// last three make the index on it multikey ("a.b" arrays, and [] at
// "a.b.c", which the index holds as undefined).
const (
	dottedFlat = `[{"_id": 1, "a": {"b": {"c": 1}}}, {"_id": 2, "a": {"b": {"c": 2}}}, {"_id": 3, "a": {"b": {"c": 3}}},
	{"_id": 4, "a": {"b": {"x": 3}}}, {"_id": 5, "a": {"x": 3}}]`
	dottedArrays = `[{"_id": 6, "a": {"b": [{"c": 4}, {"c": 5}]}}, {"_id": 7, "a": {"b": [{"c": 4}, {"c": 6}]}},
	{"_id": 8, "a": {"b": {"c": []}}}]`
)

func dottedIndexed(t *testing.T, db *mongo.Database, multikey bool, keys ...string) {
	t.Helper()
	insertDocs(t, db.Collection("c"), dottedFlat)
	if multikey {
		insertDocs(t, db.Collection("c"), dottedArrays)
	}
	for _, k := range keys {
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"`+k+`": 1}, "name": "`+k+`_1"}]}`)
	}
}

// planHas reports whether a stage called name is in the winning plan of
// an explain reply (under the $cursor stage for a pipeline).
func planHas(t *testing.T, reply bson.D, name string) bool {
	t.Helper()
	if stages, ok := field(reply, "stages").(bson.A); ok {
		cur, _ := field(stages[0].(bson.D), "$cursor").(bson.D)
		reply = cur
	}
	return stageNamed(winningPlan(t, reply), name) != nil
}

// pipelineStages lists the stage names of a pipeline's explain.
func pipelineStages(reply bson.D) []string {
	stages, _ := field(reply, "stages").(bson.A)
	var out []string
	for _, s := range stages {
		out = append(out, s.(bson.D)[0].Key)
	}
	return out
}

// sameValues compares a distinct's values as a set.
func sameValues(t *testing.T, reply bson.D, want string) {
	t.Helper()
	got, _ := field(reply, "values").(bson.A)
	w := ejArray(t, want)
	sortByCanonical(t, got)
	sortByCanonical(t, w)
	if canonical(t, got) != canonical(t, w) {
		t.Errorf("values\n got: %s\nwant: %s", relaxed(got), relaxed(w))
	}
}

func TestDistinctScanDistinctCommand(t *testing.T) {
	s := newSuite(t)
	const ref = "jstests/core/query/distinct/distinct_multikey_dotted_path.js; get_executor.cpp getDistinctNodeIndex"
	// With no query, any index led by the key serves, multikey or not, and
	// a DistinctNode provides every field of its key pattern: the values
	// come from the keys, so a document without the field gives null and
	// an empty array undefined (SERVER-14832), with no FETCH.
	s.runCase(t, "distinct on a multikey dotted path reads the index keys", ref,
		explainCase(commandFam, "distinct"), func(t *testing.T, db *mongo.Database) {
			dottedIndexed(t, db, true, "a.b.c")
			reply := mustCommand(t, db, `{"explain": {"distinct": "c", "key": "a.b.c"}, "verbosity": "queryPlanner"}`)
			if !planHas(t, reply, "DISTINCT_SCAN") || planHas(t, reply, "FETCH") {
				t.Errorf("plan %s, want a DISTINCT_SCAN and no FETCH", stageChain(winningPlan(t, reply)))
			}
		})
	s.runCase(t, "distinct over a multikey index gives null and undefined from its keys", ref,
		cover{family: commandFam, op: "distinct", col: semantics}, func(t *testing.T, db *mongo.Database) {
			dottedIndexed(t, db, true, "a.b.c")
			sameValues(t, mustCommand(t, db, `{"distinct": "c", "key": "a.b.c"}`),
				`[1, 2, 3, 4, 5, 6, null, {"$undefined": true}]`)
		})
	s.runCase(t, "distinct on a path whose last part is multikey gives each element", ref,
		cover{family: commandFam, op: "distinct", col: semantics}, func(t *testing.T, db *mongo.Database) {
			dottedIndexed(t, db, true, "a.b")
			reply := mustCommand(t, db, `{"distinct": "c", "key": "a.b"}`)
			sameValues(t, reply, `[null, {"c": 1}, {"c": 2}, {"c": 3}, {"c": 4}, {"c": 5}, {"c": 6}, {"c": []}, {"x": 3}]`)
			ex := mustCommand(t, db, `{"explain": {"distinct": "c", "key": "a.b"}, "verbosity": "queryPlanner"}`)
			if !planHas(t, ex, "DISTINCT_SCAN") {
				t.Errorf("plan %s, want a DISTINCT_SCAN", stageChain(winningPlan(t, ex)))
			}
		})
	// turnIxscanIntoDistinctIxscan: with a query the key must not be
	// multikey in the index, or one key value skipped over could hide
	// another value of the same document.
	s.runCase(t, "distinct with a query on a multikey key scans the index", ref,
		explainCase(commandFam, "distinct"), func(t *testing.T, db *mongo.Database) {
			dottedIndexed(t, db, true, "a.b.c")
			sameValues(t, mustCommand(t, db, `{"distinct": "c", "key": "a.b.c", "query": {"a.b.c": 4}}`), `[4, 5, 6]`)
			reply := mustCommand(t, db, `{"explain": {"distinct": "c", "key": "a.b.c", "query": {"a.b.c": 4}}, "verbosity": "queryPlanner"}`)
			if planHas(t, reply, "DISTINCT_SCAN") || !planHas(t, reply, "IXSCAN") {
				t.Errorf("plan %s, want an IXSCAN and no DISTINCT_SCAN", stageChain(winningPlan(t, reply)))
			}
		})
	s.runCase(t, "distinct with a query on a whole-value key is a DISTINCT_SCAN", ref,
		explainCase(commandFam, "distinct"), func(t *testing.T, db *mongo.Database) {
			dottedIndexed(t, db, false, "a.b.c")
			sameValues(t, mustCommand(t, db, `{"distinct": "c", "key": "a.b.c", "query": {"a.b.c": {"$gt": 0}}}`), `[1, 2, 3]`)
			reply := mustCommand(t, db, `{"explain": {"distinct": "c", "key": "a.b.c", "query": {"a.b.c": {"$gt": 0}}}, "verbosity": "queryPlanner"}`)
			if !planHas(t, reply, "DISTINCT_SCAN") {
				t.Errorf("plan %s, want a DISTINCT_SCAN", stageChain(winningPlan(t, reply)))
			}
		})
	// index_bounds_builder.cpp: {$type: "array"} bounds the whole index
	// (INEXACT_FETCH), so FETCH filters and no DISTINCT_SCAN applies.
	s.runCase(t, "distinct with $type array scans the whole index", ref,
		explainCase(commandFam, "distinct"), func(t *testing.T, db *mongo.Database) {
			dottedIndexed(t, db, true, "a.b")
			sameValues(t, mustCommand(t, db, `{"distinct": "c", "key": "a.b", "query": {"a.b": {"$type": "array"}}}`),
				`[{"c": 4}, {"c": 5}, {"c": 6}]`)
			reply := mustCommand(t, db, `{"explain": {"distinct": "c", "key": "a.b", "query": {"a.b": {"$type": "array"}}}, "verbosity": "queryPlanner"}`)
			if planHas(t, reply, "DISTINCT_SCAN") || !planHas(t, reply, "IXSCAN") {
				t.Errorf("plan %s, want an IXSCAN and no DISTINCT_SCAN", stageChain(winningPlan(t, reply)))
			}
		})
	// A positional key ("a.b.0") picks the array element from each
	// document; an index on the prefix does not serve it.
	s.runCase(t, "distinct on a positional path with no index on it scans the collection", ref,
		explainCase(commandFam, "distinct"), func(t *testing.T, db *mongo.Database) {
			dottedIndexed(t, db, true, "a.b")
			sameValues(t, mustCommand(t, db, `{"distinct": "c", "key": "a.b.0"}`), `[{"c": 4}]`)
			reply := mustCommand(t, db, `{"explain": {"distinct": "c", "key": "a.b.0"}, "verbosity": "queryPlanner"}`)
			if !planHas(t, reply, "COLLSCAN") {
				t.Errorf("plan %s, want a COLLSCAN", stageChain(winningPlan(t, reply)))
			}
		})
	s.runCase(t, "distinct on a positional path with an index on it is a DISTINCT_SCAN", ref,
		explainCase(commandFam, "distinct"), func(t *testing.T, db *mongo.Database) {
			dottedIndexed(t, db, true, "a.b.0")
			insertDocs(t, db.Collection("c"), `[{"_id": 9, "a": {"b": {"0": "hello world"}}}]`)
			sameValues(t, mustCommand(t, db, `{"distinct": "c", "key": "a.b.0"}`), `[{"c": 4}, "hello world"]`)
			reply := mustCommand(t, db, `{"explain": {"distinct": "c", "key": "a.b.0"}, "verbosity": "queryPlanner"}`)
			if !planHas(t, reply, "DISTINCT_SCAN") {
				t.Errorf("plan %s, want a DISTINCT_SCAN", stageChain(winningPlan(t, reply)))
			}
		})
}

// groupDocs: "a", "b", "c" are whole values, indexed together.
const groupDocs = `[{"_id": 0, "a": 1, "b": 1, "c": 1}, {"_id": 1, "a": 1, "b": 2, "c": 2}, {"_id": 2, "a": 1, "b": 2, "c": 3},
	{"_id": 3, "a": 1, "b": 3, "c": 2}, {"_id": 4, "a": 2, "b": 2, "c": 2}, {"_id": 5, "b": 1, "c": 1},
	{"_id": 6, "a": null, "b": 1, "c": 1.5}, {"_id": 7, "x": 1}]`

func groupIndexed(t *testing.T, db *mongo.Database) {
	t.Helper()
	insertDocs(t, db.Collection("c"), groupDocs)
	mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1, "b": 1, "c": 1}, "name": "abc"}]}`)
}

func TestDistinctScanGroup(t *testing.T) {
	s := newSuite(t)
	const ref = "jstests/aggregation/optimization/group_with_acc_n_to_distinct_scan.js; pipeline_d.cpp tryPrepareDistinctExecutor"
	groupExplain := cover{family: stage, op: "$group", col: explain}
	groupSemantics := cover{family: stage, op: "$group", col: semantics}
	distinctGroup := func(t *testing.T, db *mongo.Database, pipeline string, want bool) bson.D {
		t.Helper()
		reply := mustCommand(t, db, `{"explain": {"aggregate": "c", "pipeline": `+pipeline+`, "cursor": {}}, "verbosity": "queryPlanner"}`)
		if got := planHas(t, reply, "DISTINCT_SCAN"); got != want {
			t.Errorf("DISTINCT_SCAN in the plan: %v, want %v (stages %v)", got, want, pipelineStages(reply))
		}
		return reply
	}
	// The $sort the index provides goes to the query layer and the $group
	// becomes $groupByDistinctScan over a DISTINCT_SCAN of that index, with
	// no SORT stage.
	s.runCase(t, "$sort and $group of $first become $groupByDistinctScan", ref, groupExplain,
		func(t *testing.T, db *mongo.Database) {
			groupIndexed(t, db)
			reply := distinctGroup(t, db, `[{"$sort": {"a": 1, "b": 1}}, {"$group": {"_id": "$a", "f": {"$first": "$b"}}}]`, true)
			if st := pipelineStages(reply); len(st) != 2 || st[1] != "$groupByDistinctScan" {
				t.Errorf("stages %v, want [$cursor $groupByDistinctScan]", st)
			}
			if planHas(t, reply, "SORT") {
				t.Error("a SORT stage is left in the plan")
			}
			cur := field(field(reply, "stages").(bson.A)[0].(bson.D), "$cursor").(bson.D)
			sameValue(t, "keyPattern", field(stageNamed(winningPlan(t, cur), "DISTINCT_SCAN"), "keyPattern"), `{"a": 1, "b": 1, "c": 1}`)
		})
	s.runCase(t, "$firstN with n 1 after $sort runs over a DISTINCT_SCAN", ref, groupSemantics,
		func(t *testing.T, db *mongo.Database) {
			groupIndexed(t, db)
			pipeline := `[{"$sort": {"a": 1, "b": 1}}, {"$group": {"_id": "$a", "f": {"$firstN": {"n": 1, "input": "$b"}}}}]`
			distinctGroup(t, db, pipeline, true)
			docs, ce := cursorDocs(t, db, ejDoc(t, `{"aggregate": "c", "pipeline": `+pipeline+`, "cursor": {}}`))
			if ce != nil {
				t.Fatal(ce)
			}
			sameDocs(t, "groups", docs, `[{"_id": null, "f": [null]}, {"_id": 1, "f": [1]}, {"_id": 2, "f": [2]}]`, true)
		})
	// $top's sortBy is the order asked of the scan; $bottom's runs it
	// backwards.
	s.runCase(t, "$bottomN with n 1 runs over a backward DISTINCT_SCAN", ref, groupSemantics,
		func(t *testing.T, db *mongo.Database) {
			groupIndexed(t, db)
			pipeline := `[{"$group": {"_id": "$a", "l": {"$bottomN": {"n": 1, "output": "$b", "sortBy": {"a": 1, "b": 1}}}}}]`
			reply := distinctGroup(t, db, pipeline, true)
			cur := field(field(reply, "stages").(bson.A)[0].(bson.D), "$cursor").(bson.D)
			sameValue(t, "direction", field(stageNamed(winningPlan(t, cur), "DISTINCT_SCAN"), "direction"), `"backward"`)
			docs, ce := cursorDocs(t, db, ejDoc(t, `{"aggregate": "c", "pipeline": `+pipeline+`, "cursor": {}}`))
			if ce != nil {
				t.Fatal(ce)
			}
			sameDocs(t, "groups", docs, `[{"_id": null, "l": [1]}, {"_id": 1, "l": [3]}, {"_id": 2, "l": [2]}]`, true)
		})
	// prepareExecutor looks for the $group at the pipeline's front before
	// a leading $project goes down to the query layer: a $group behind it
	// reads the projected documents, here without a, so one group of null.
	s.runCase(t, "a $group behind a leading $project keeps the $group", ref+"; pipeline_d.cpp prepareExecutor; jstests/aggregation/sources/pbt/agg_stages_basic_behavior_pbt.js",
		groupSemantics, func(t *testing.T, db *mongo.Database) {
			groupIndexed(t, db)
			pipeline := `[{"$project": {"b": 1}}, {"$group": {"_id": "$a"}}]`
			distinctGroup(t, db, pipeline, false)
			docs, ce := cursorDocs(t, db, ejDoc(t, `{"aggregate": "c", "pipeline": `+pipeline+`, "cursor": {}}`))
			if ce != nil {
				t.Fatal(ce)
			}
			sameDocs(t, "groups", docs, `[{"_id": null}]`, true)
		})
	// allAccsNeedFirstOrLastDoc: every accumulator must need the same
	// document, with one sortBy for $top and $bottom.
	s.runCase(t, "$topN and $bottomN together keep the $group", ref, groupExplain,
		func(t *testing.T, db *mongo.Database) {
			groupIndexed(t, db)
			distinctGroup(t, db, `[{"$group": {"_id": "$a", "t": {"$topN": {"n": 1, "sortBy": {"a": -1, "b": -1}, "output": "$b"}},
				"l": {"$bottomN": {"n": 1, "sortBy": {"a": -1, "b": -1}, "output": "$b"}}}}]`, false)
		})
	s.runCase(t, "$lastN with n 2 keeps the $group", ref, groupExplain,
		func(t *testing.T, db *mongo.Database) {
			groupIndexed(t, db)
			distinctGroup(t, db, `[{"$sort": {"a": -1, "b": -1, "c": -1}}, {"$group": {"_id": "$a", "l": {"$lastN": {"n": 2, "input": "$c"}}}}]`, false)
		})
	// STRICT_DISTINCT_ONLY: a $group key does not unwind arrays, so an
	// index multikey on it cannot give the groups.
	s.runCase(t, "$group on a multikey key keeps the $group", "pipeline_d.cpp tryPrepareDistinctExecutor (STRICT_DISTINCT_ONLY); get_executor.cpp",
		groupExplain, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "mk": [1, 2], "b": 1}, {"_id": 2, "mk": 3, "b": 2}]`)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"mk": 1, "b": 1}, "name": "mkb"}]}`)
			distinctGroup(t, db, `[{"$sort": {"mk": 1, "b": 1}}, {"$group": {"_id": "$mk", "f": {"$first": "$b"}}}]`, false)
		})
	s.runCase(t, "$group with no accumulator on an indexed dotted path is a DISTINCT_SCAN",
		"jstests/core/query/distinct/distinct_multikey_dotted_path.js", groupExplain,
		func(t *testing.T, db *mongo.Database) {
			dottedIndexed(t, db, false, "a.b.c")
			distinctGroup(t, db, `[{"$group": {"_id": "$a.b.c"}}]`, true)
			distinctGroup(t, db, `[{"$match": {"a.b.c": {"$gt": 0}}}, {"$group": {"_id": "$a.b.c"}}]`, true)
		})
}
