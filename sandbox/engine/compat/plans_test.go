package compat_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// explainStats runs cmd under explain executionStats and returns the
// executionStats section (of the $cursor stage for a pipeline).
func explainStats(t *testing.T, db *mongo.Database, cmd string) bson.D {
	t.Helper()
	reply := mustCommand(t, db, `{"explain": `+cmd+`, "verbosity": "executionStats"}`)
	if st, ok := field(reply, "executionStats").(bson.D); ok {
		return st
	}
	stages, _ := field(reply, "stages").(bson.A)
	if len(stages) == 0 {
		t.Fatalf("no executionStats in %v", reply)
	}
	cur, _ := field(stages[0].(bson.D), "$cursor").(bson.D)
	st, _ := field(cur, "executionStats").(bson.D)
	return st
}

// stageChain names the stages from the root down: "FETCH>IXSCAN".
func stageChain(plan bson.D) string {
	var names []string
	for plan != nil {
		names = append(names, field(plan, "stage").(string))
		plan, _ = field(plan, "inputStage").(bson.D)
	}
	return strings.Join(names, ">")
}

// stageNamed finds the first stage called name below plan.
func stageNamed(plan bson.D, name string) bson.D {
	for plan != nil {
		if field(plan, "stage") == name {
			return plan
		}
		plan, _ = field(plan, "inputStage").(bson.D)
	}
	return nil
}

// asInt reads an explain counter, which mongod writes as int32 or int64
// (appendNumber) depending on its size.
func asInt(v any) int64 {
	switch x := v.(type) {
	case int32:
		return int64(x)
	case int64:
		return x
	}
	return -1
}

func sameFigures(t *testing.T, st bson.D, chain string, keys, docs int64) {
	t.Helper()
	plan, _ := field(st, "executionStages").(bson.D)
	if got := stageChain(plan); got != chain {
		t.Errorf("plan %s, want %s", got, chain)
	}
	k, d := asInt(field(st, "totalKeysExamined")), asInt(field(st, "totalDocsExamined"))
	if k != keys || d != docs {
		t.Errorf("keys %d, docs %d; want keys %d, docs %d", k, d, keys, docs)
	}
}

func TestIndexKeyFilteringAndCoveredPlans(t *testing.T) {
	s := newSuite(t)
	const paths = `[{"_id": 1, "path": "/Electronics"}, {"_id": 2, "path": "/Electronics/Phones"},
		{"_id": 3, "path": "/Electronics/Phones/Android"}, {"_id": 4, "path": "/Books"}, {"_id": 5, "path": "/Books/Phones"}]`

	// manual: reference/operator/query/regex (Index Use: "MongoDB matches the
	// regular expression against the values in the index"); mongod's
	// IndexBoundsBuilder gives an unanchored regex INEXACT_COVERED bounds, and
	// QueryPlannerAccess::handleFilterAnd puts such a predicate on the IXSCAN.
	s.run(t, "unanchored regex filters index keys before fetching", func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), paths)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"path": 1}, "name": "path_1"}]}`)
		st := explainStats(t, db, `{"find": "c", "filter": {"path": {"$regex": "Phones"}}}`)
		sameFigures(t, st, "FETCH>IXSCAN", 5, 3)
		plan := field(st, "executionStages").(bson.D)
		if f := field(plan, "filter"); f != nil {
			t.Errorf("FETCH filter %v, want none: the keys decided the regex", f)
		}
		ixscan := stageNamed(plan, "IXSCAN")
		sameValue(t, "IXSCAN filter", field(ixscan, "filter"), `{"path": {"$regex": "Phones"}}`)
		sameValue(t, "IXSCAN bounds", field(ixscan, "indexBounds"), `{"path": ["[\"\", {})", "[/Phones/, /Phones/]"]}`)
		sameValue(t, "IXSCAN nReturned", field(ixscan, "nReturned"), `3`)
	})
	// An anchored literal prefix is exact: no filter anywhere.
	s.run(t, "anchored prefix regex needs no filter", func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), paths)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"path": 1}, "name": "path_1"}]}`)
		st := explainStats(t, db, `{"find": "c", "filter": {"path": {"$regex": "^/Electronics/"}}}`)
		sameFigures(t, st, "FETCH>IXSCAN", 2, 2)
		if f := field(stageNamed(field(st, "executionStages").(bson.D), "IXSCAN"), "filter"); f != nil {
			t.Errorf("IXSCAN filter %v, want none", f)
		}
	})
	// handleFilterAnd: on a multikey index one key of an array cannot speak
	// for the whole array, so the regex stays on FETCH.
	s.run(t, "multikey index leaves the regex to FETCH", func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id": 1, "tags": ["red", "green"]}, {"_id": 2, "tags": ["blue"]}, {"_id": 3, "tags": "grey"}]`)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"tags": 1}, "name": "tags_1"}]}`)
		st := explainStats(t, db, `{"find": "c", "filter": {"tags": {"$regex": "re"}}}`)
		sameFigures(t, st, "FETCH>IXSCAN", 4, 3)
		plan := field(st, "executionStages").(bson.D)
		sameValue(t, "FETCH filter", field(plan, "filter"), `{"tags": {"$regex": "re"}}`)
		if f := field(stageNamed(plan, "IXSCAN"), "filter"); f != nil {
			t.Errorf("IXSCAN filter %v, want none on a multikey index", f)
		}
	})
	// index_bounds_builder.cpp: $mod scans every number, INEXACT_COVERED.
	s.run(t, "$mod is tested on the index keys", func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id": 1, "n": 4}, {"_id": 2, "n": 5}, {"_id": 3, "n": 6}, {"_id": 4, "n": "x"}]`)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"n": 1}, "name": "n_1"}]}`)
		st := explainStats(t, db, `{"find": "c", "filter": {"n": {"$mod": [2, 0]}}}`)
		sameFigures(t, st, "FETCH>IXSCAN", 3, 2)
		ixscan := stageNamed(field(st, "executionStages").(bson.D), "IXSCAN")
		sameValue(t, "IXSCAN bounds", field(ixscan, "indexBounds"), `{"n": ["[nan.0, inf.0]"]}`)
	})
	// manual: core/query-optimization (Covered Query): every field the
	// projection needs is in the index and _id is excluded.
	s.run(t, "covered find projection", func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id": 1, "b": "x", "a": 3, "z": 1}, {"_id": 2, "a": 1, "b": "y"}, {"_id": 3, "a": 2, "b": "z"}]`)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1, "b": 1}, "name": "a_1_b_1"}]}`)
		st := explainStats(t, db, `{"find": "c", "filter": {"a": {"$gte": 2}}, "projection": {"_id": 0, "b": 1, "a": 1}}`)
		sameFigures(t, st, "PROJECTION_COVERED>IXSCAN", 2, 0)
		docs, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"a": {"$gte": 2}}, "projection": {"_id": 0, "b": 1, "a": 1}}`))
		if err != nil {
			t.Fatal(err)
		}
		// The fields come in the index's order, from its keys.
		sameDocs(t, "covered results", docs, `[{"a": 2, "b": "z"}, {"a": 3, "b": "x"}]`, false)
		// _id is not in the index: the same query with _id fetches.
		st = explainStats(t, db, `{"find": "c", "filter": {"a": {"$gte": 2}}, "projection": {"b": 1, "a": 1}}`)
		sameFigures(t, st, "PROJECTION_SIMPLE>FETCH>IXSCAN", 2, 2)
	})
	// A count whose predicates the keys decide needs no document.
	s.run(t, "count over an index key filter", func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), paths)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"path": 1}, "name": "path_1"}]}`)
		st := explainStats(t, db, `{"count": "c", "query": {"path": {"$regex": "Phones"}}}`)
		sameFigures(t, st, "COUNT>IXSCAN", 5, 0)
		got := mustCommand(t, db, `{"count": "c", "query": {"path": {"$regex": "Phones"}}}`)
		sameValue(t, "n", field(got, "n"), `3`)
	})
	// The aggregation pipeline's dependency analysis pushes {count: 1, sum:
	// 1, _id: 0} below the $group, which the index covers.
	s.run(t, "covered $group", func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id": 1, "s": "a", "h": 1, "count": 2, "sum": 10, "samples": [1, 2]},
			{"_id": 2, "s": "a", "h": 2, "count": 3, "sum": 20, "samples": [1, 2, 3]}, {"_id": 3, "s": "b", "h": 1, "count": 1, "sum": 5}]`)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"s": 1, "h": 1, "count": 1, "sum": 1}, "name": "cover"}]}`)
		pipeline := `[{"$match": {"s": "a", "h": {"$gte": 1}}}, {"$group": {"_id": null, "sum": {"$sum": "$sum"}, "count": {"$sum": "$count"}}}]`
		st := explainStats(t, db, `{"aggregate": "c", "pipeline": `+pipeline+`, "cursor": {}}`)
		sameFigures(t, st, "PROJECTION_COVERED>IXSCAN", 2, 0)
		sameValue(t, "transformBy", field(field(st, "executionStages").(bson.D), "transformBy"), `{"count": 1, "sum": 1, "_id": 0}`)
		docs, err := cursorDocs(t, db, bson.D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: ejArray(t, pipeline)}, {Key: "cursor", Value: bson.D{}}})
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "group", docs, `[{"_id": null, "sum": 30, "count": 5}]`, false)
	})
	// DocumentSourceGraphLookUp::getDependencies asks for startWith's
	// fields and lets the later stages say the rest, so the scan below a
	// $graphLookup projects (jstest aggregation/sources/lookup/lookup_numeric_field.js).
	s.run(t, "dependencies of $graphLookup", func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("outer"), `[{"_id": 1, "a": 3, "b": 1}]`)
		insertDocs(t, db.Collection("inner"), `[{"_id": 1, "y": 3, "z": 4}]`)
		pipeline := `[{"$graphLookup": {"from": "inner", "as": "docs", "connectToField": "y", "connectFromField": "z", "startWith": "$a", "maxDepth": 0}},
			{"$match": {"docs.0.z": 4}}, {"$count": "count"}]`
		reply := mustCommand(t, db, `{"explain": {"aggregate": "outer", "pipeline": `+pipeline+`, "cursor": {}}, "verbosity": "queryPlanner"}`)
		proj := field(cursorPlanner(t, reply), "winningPlan").(bson.D)
		sameValue(t, "stage", field(proj, "stage"), `"PROJECTION_SIMPLE"`)
		sameValue(t, "transformBy", field(proj, "transformBy"), `{"a": 1, "docs": 1, "_id": 0}`)
		docs, err := cursorDocs(t, db, bson.D{{Key: "aggregate", Value: "outer"}, {Key: "pipeline", Value: ejArray(t, pipeline)}, {Key: "cursor", Value: bson.D{}}})
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "count", docs, `[{"count": 1}]`, false)
	})
	// get_executor.cpp (getExecutorDistinct): an index led by the key
	// answers distinct with one key per value.
	s.run(t, "distinct uses DISTINCT_SCAN", func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id": 1, "k": "b"}, {"_id": 2, "k": "a"}, {"_id": 3, "k": "b"}, {"_id": 4, "k": "c"}, {"_id": 5, "k": "a"}]`)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"k": 1}, "name": "k_1"}]}`)
		st := explainStats(t, db, `{"distinct": "c", "key": "k"}`)
		sameFigures(t, st, "PROJECTION_COVERED>DISTINCT_SCAN", 3, 0)
		sameValue(t, "transformBy", field(field(st, "executionStages").(bson.D), "transformBy"), `{"_id": 0, "k": 1}`)
		got := mustCommand(t, db, `{"distinct": "c", "key": "k"}`)
		sameValue(t, "values", field(got, "values"), `["a", "b", "c"]`)
		got = mustCommand(t, db, `{"distinct": "c", "key": "k", "query": {"k": {"$gt": "a"}}}`)
		sameValue(t, "values", field(got, "values"), `["b", "c"]`)
	})
}
