package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// Index bounds from the predicates inside an object $elemMatch, and the
// multikey rules that decide which of them may be intersected or
// compounded (plan_enumerator.cpp: prepSubNodes descends into
// ELEM_MATCH_OBJECT; getPossibleFirstAssignments and canAssignPredToIndex
// admit two predicates sharing an array-holding path prefix only when one
// $elemMatch joins them above it).

const enumeratorRef = "src/mongo/db/query/plan_enumerator/plan_enumerator.cpp canAssignPredToIndex"

// ixscanOf explains a find and returns the IXSCAN of its winning plan and
// the winning plan itself.
func ixscanOf(t *testing.T, db *mongo.Database, find string) (ixscan, plan bson.D) {
	t.Helper()
	plan = winningPlan(t, mustCommand(t, db, `{"explain": `+find+`, "verbosity": "queryPlanner"}`))
	ixscan = stageNamed(plan, "IXSCAN")
	if ixscan == nil {
		t.Fatalf("no IXSCAN in %v", plan)
	}
	return ixscan, plan
}

func TestElemMatchIndexBounds(t *testing.T) {
	s := newSuite(t)
	const items = `[{"_id": 1, "a": "07", "b": 1.5, "arrayField": [{"label": "abc", "type": "X"}, {"label": "123", "type": "Y"}]},
		{"_id": 2, "a": "07", "b": 4.8, "arrayField": [{"label": "xyz", "type": "X"}, {"label": "123", "type": "XY"}]},
		{"_id": 3, "a": "08", "arrayField": [{"label": "abc", "type": "X"}]}]`
	const elemMatchRef = "jstests/aggregation/sources/match/elemmatch_optimization.js"
	s.runCase(t, "$elemMatch child bounds a compound index after an equality", elemMatchRef,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), items)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1, "arrayField.label": 1}, "name": "a_label"}]}`)
			ixscan, plan := ixscanOf(t, db, `{"find": "c", "filter": {"a": "07", "arrayField": {"$elemMatch": {"label": "abc"}}}}`)
			sameValue(t, "bounds", field(ixscan, "indexBounds"), `{"a": ["[\"07\", \"07\"]"], "arrayField.label": ["[\"abc\", \"abc\"]"]}`)
			// The $elemMatch itself is left for FETCH (its children's
			// bounds are INEXACT_FETCH: they cannot tell which element).
			sameValue(t, "FETCH filter", field(plan, "filter"), `{"arrayField": {"$elemMatch": {"label": {"$eq": "abc"}}}}`)
			got, err := cursorDocs(t, db, bson.D{{Key: "find", Value: "c"}, {Key: "filter", Value: ejDoc(t, `{"a": "07", "arrayField": {"$elemMatch": {"label": "abc"}}}`)}})
			if err != nil {
				t.Fatal(err)
			}
			sameDocs(t, "find", got, `[{"_id": 1, "a": "07", "b": 1.5, "arrayField": [{"label": "abc", "type": "X"}, {"label": "123", "type": "Y"}]}]`, false)
		})
	// indexability.h arrayUsesIndexOnOwnField: a value $elemMatch uses an
	// index only when each of its predicates could on its own; a nested
	// $elemMatch cannot, and its $in's bounds would miss the key [5] that
	// {a: [[5]]} has (jstest core/query/array/arrayfind8.js).
	s.runCase(t, "a value $elemMatch holding a $elemMatch scans the collection", "src/mongo/db/query/indexability.h; jstests/core/query/array/arrayfind8.js",
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": [[5]]}, {"_id": 2, "a": [5]}]`)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]}`)
			const filter = `{"a": {"$elemMatch": {"$elemMatch": {"$in": [5]}}}}`
			plan := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": `+filter+`}, "verbosity": "queryPlanner"}`))
			sameValue(t, "stage", field(plan, "stage"), `"COLLSCAN"`)
			got, err := cursorDocs(t, db, bson.D{{Key: "find", Value: "c"}, {Key: "filter", Value: ejDoc(t, filter)}})
			if err != nil {
				t.Fatal(err)
			}
			sameDocs(t, "find", got, `[{"_id": 1, "a": [[5]]}]`, false)
			reply := mustCommand(t, db, `{"count": "c", "query": `+filter+`}`)
			sameValue(t, "count", field(reply, "n"), `1`)
		})
	// nodeIsSupportedBySparseIndex (planner_ixselect.cpp): a value
	// $elemMatch needs an element, so a sparse index answers it, null
	// bounds included; a negation inside it follows _compatible, which
	// gives a sparse index {$ne: null} alone (jstest
	// core/index/elemmatch_index.js).
	s.runCase(t, "a sparse index answers a value $elemMatch but not a negated $exists in it", "src/mongo/db/query/planner_ixselect.cpp; jstests/core/index/elemmatch_index.js",
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": 1}, {"_id": 2, "a": [{}]}, {"_id": 3, "a": [1, null]}]`)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1", "sparse": true}]}`)
			for _, tc := range []struct{ filter, stage string }{
				{`{"a": {"$elemMatch": {"$exists": true}}}`, "FETCH"},
				{`{"a": {"$elemMatch": {"$eq": null}}}`, "FETCH"},
				{`{"a": {"$elemMatch": {"$not": {"$exists": false}}}}`, "COLLSCAN"},
				{`{"a": {"$elemMatch": {"$gt": 0, "$not": {"$exists": false}}}}`, "COLLSCAN"},
			} {
				plan := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": `+tc.filter+`}, "verbosity": "queryPlanner"}`))
				sameValue(t, tc.filter, field(plan, "stage"), `"`+tc.stage+`"`)
			}
			got, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"a": {"$elemMatch": {"$eq": null}}}}`))
			if err != nil {
				t.Fatal(err)
			}
			sameDocs(t, "find", got, `[{"_id": 3, "a": [1, null]}]`, false)
		})
	s.runCase(t, "$elemMatch child bounds the leading field, compounded with a scalar", elemMatchRef,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), items)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"arrayField.type": 1, "b": 1}, "name": "type_b"}]}`)
			ixscan, _ := ixscanOf(t, db, `{"find": "c", "filter": {"b": 4.8, "arrayField": {"$elemMatch": {"type": "X"}}}}`)
			sameValue(t, "bounds", field(ixscan, "indexBounds"), `{"arrayField.type": ["[\"X\", \"X\"]"], "b": ["[4.8, 4.8]"]}`)
		})
	// jstests/core/index/index13.js (SERVER-3104) spells out the three
	// cases on {"a.b": 1, "a.c": 1} with "a" an array.
	const ab = `[{"_id": 1, "a": [{"b": 1}, {"c": 1}]}, {"_id": 2, "a": [{"b": 1, "c": 1}]}]`
	abIndex := `{"createIndexes": "c", "indexes": [{"key": {"a.b": 1, "a.c": 1}, "name": "ab_ac"}]}`
	s.runCase(t, "top-level predicates under one array are not compounded", enumeratorRef,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), ab)
			mustCommand(t, db, abIndex)
			ixscan, _ := ixscanOf(t, db, `{"find": "c", "filter": {"a.b": 1, "a.c": 1}}`)
			sameValue(t, "bounds", field(ixscan, "indexBounds"), `{"a.b": ["[1, 1]"], "a.c": ["[MinKey, MaxKey]"]}`)
			got, err := cursorDocs(t, db, bson.D{{Key: "find", Value: "c"}, {Key: "filter", Value: ejDoc(t, `{"a.b": 1, "a.c": 1}`)}, {Key: "sort", Value: bson.D{{Key: "_id", Value: 1}}}})
			if err != nil {
				t.Fatal(err)
			}
			sameDocs(t, "find", got, ab, false)
		})
	s.runCase(t, "one $elemMatch compounds both fields under its array", enumeratorRef,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), ab)
			mustCommand(t, db, abIndex)
			ixscan, _ := ixscanOf(t, db, `{"find": "c", "filter": {"a": {"$elemMatch": {"b": 1, "c": 1}}}}`)
			sameValue(t, "bounds", field(ixscan, "indexBounds"), `{"a.b": ["[1, 1]"], "a.c": ["[1, 1]"]}`)
		})
	s.runCase(t, "a predicate outside the $elemMatch is not compounded with it", enumeratorRef,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), ab)
			mustCommand(t, db, abIndex)
			ixscan, _ := ixscanOf(t, db, `{"find": "c", "filter": {"a.b": 1, "a": {"$elemMatch": {"c": 1}}}}`)
			sameValue(t, "bounds", field(ixscan, "indexBounds"), `{"a.b": ["[1, 1]"], "a.c": ["[MinKey, MaxKey]"]}`)
		})
	// getPossibleFirstAssignments: predicates of one $elemMatch on the
	// leading field are intersected when no array lies below its root.
	s.runCase(t, "one $elemMatch intersects bounds on a field under its array", "src/mongo/db/query/plan_enumerator/plan_enumerator.cpp getPossibleFirstAssignments",
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": [{"b": 3}, {"b": 30}]}, {"_id": 2, "a": [{"b": 20}]}]`)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a.b": 1}, "name": "ab"}]}`)
			ixscan, _ := ixscanOf(t, db, `{"find": "c", "filter": {"a": {"$elemMatch": {"b": {"$gte": 0, "$lt": 10}}}}}`)
			sameValue(t, "bounds", field(ixscan, "indexBounds"), `{"a.b": ["[0, 10)"]}`)
		})
}
