package compat_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Index bounds of comparisons whose operand is an array, MinKey, MaxKey,
// null or NaN (src/mongo/db/query/index_bounds_builder.cpp translate,
// buildBoundsForQueryElementForLT/GT, getInequalityPredicateTightness).
// A multikey index holds an array's elements while $lt/$gt compare the
// whole array, so an array operand's bounds reach MinKey or MaxKey; the
// results must be those of a collection scan
// (jstests/core/array_index_and_nonIndex_consistent.js,
// jstests/core/index_bounds_maxkey.js, index_bounds_minkey.js).

const boundsBuilderRef = "src/mongo/db/query/index_bounds_builder.cpp translate"

func TestComparisonBoundsOddOperands(t *testing.T) {
	s := newSuite(t)
	const docs = `[{"_id": 1, "val": [1, 2]}, {"_id": 2, "val": [3, 4]}, {"_id": 3, "val": 2}, {"_id": 4, "val": [true, false]},
		{"_id": 5, "val": [null]}, {"_id": 6, "val": {"$minKey": 1}}, {"_id": 7, "val": [{"$maxKey": 1}]}, {"_id": 8, "val": []},
		{"_id": 9, "val": {"test": 5}}, {"_id": 10, "val": [3, {"$maxKey": 1}]}, {"_id": 11, "val": [[2, 2]]}]`
	// Each filter's IXSCAN bounds on the multikey index, whether FETCH
	// keeps the predicate, and the _ids a collection scan returns.
	cases := []struct {
		name, filter, bounds string
		fetchFilter          bool
		ids                  string
	}{
		{"$lt an array reaches MinKey", `{"val": {"$lt": [2, 2]}}`, `["[MinKey, [ 2, 2 ]]"]`, true, `[1, 5, 8]`},
		{"$lte an array includes the array itself", `{"val": {"$lte": [2, 2]}}`, `["[MinKey, [ 2, 2 ]]"]`, true, `[1, 5, 8, 11]`},
		{"$gt an array starts at its first element when that sorts before arrays", `{"val": {"$gt": [1]}}`, `["[1, MaxKey]"]`, true, `[1, 2, 4, 7, 10, 11]`},
		{"$gt an array whose first element sorts after arrays starts at the array", `{"val": {"$gt": [true]}}`, `["[[ true ], MaxKey]"]`, true, `[4, 7]`},
		{"$lt an array whose first element sorts after arrays ends at that element", `{"val": {"$lt": [true]}}`, `["[MinKey, true]"]`, true, `[1, 2, 5, 8, 10, 11]`},
		{"$gt the empty array scans everything", `{"val": {"$gt": []}}`, `["[MinKey, MaxKey]"]`, true, `[1, 2, 4, 5, 7, 10, 11]`},
		{"$lte the empty array ends at it", `{"val": {"$lte": []}}`, `["[MinKey, []]"]`, true, `[8]`},
		{"$lt MaxKey includes MaxKey on a multikey index", `{"val": {"$lt": {"$maxKey": 1}}}`, `["[MinKey, MaxKey]"]`, true, `[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]`},
		{"$gt MinKey includes MinKey on a multikey index", `{"val": {"$gt": {"$minKey": 1}}}`, `["[MinKey, MaxKey]"]`, true, `[1, 2, 3, 4, 5, 7, 8, 9, 10, 11]`},
		{"$gt MaxKey is empty and exact", `{"val": {"$gt": {"$maxKey": 1}}}`, `[]`, false, `[]`},
		{"$lt MinKey is empty and exact", `{"val": {"$lt": {"$minKey": 1}}}`, `[]`, false, `[]`},
		{"$lte MinKey is the MinKey point, exact", `{"val": {"$lte": {"$minKey": 1}}}`, `["[MinKey, MinKey]"]`, false, `[6]`},
		{"$gte MaxKey is the MaxKey point, exact", `{"val": {"$gte": {"$maxKey": 1}}}`, `["[MaxKey, MaxKey]"]`, false, `[7, 10]`},
		{"$lt null is empty", `{"val": {"$lt": null}}`, `[]`, false, `[]`},
		{"$lt NaN is empty", `{"val": {"$lt": {"$numberDouble": "NaN"}}}`, `[]`, false, `[]`},
		{"$gte NaN is the NaN point", `{"val": {"$gte": {"$numberDouble": "NaN"}}}`, `["[nan.0, nan.0]"]`, false, `[]`},
		{"$lt false is empty", `{"val": {"$lt": false}}`, `[]`, false, `[]`},
		{"$eq MinKey is exact", `{"val": {"$eq": {"$minKey": 1}}}`, `["[MinKey, MinKey]"]`, false, `[6]`},
		{"$lt an object is exact", `{"val": {"$lt": {"test": 6}}}`, `["[{}, { test: 6 })"]`, false, `[9]`},
	}
	for _, tc := range cases {
		s.runCase(t, tc.name, boundsBuilderRef, explainCase(query, "$lt"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"val": 1}, "name": "val_1"}]}`)
			ixscan, plan := ixscanOf(t, db, `{"find": "c", "filter": `+tc.filter+`}`)
			sameValue(t, "bounds", field(ixscan, "indexBounds"), `{"val": `+tc.bounds+`}`)
			fetch := stageNamed(plan, "FETCH")
			if got := fetch != nil && field(fetch, "filter") != nil; got != tc.fetchFilter {
				t.Errorf("FETCH filters: %v, want %v (plan %s)", got, tc.fetchFilter, relaxed(plan))
			}
			for _, hint := range []string{`{"val": 1}`, `{"$natural": 1}`} {
				ids := foundIDs(t, db, ejDoc(t, `{"find": "c", "filter": `+tc.filter+`, "projection": {"_id": 1}, "sort": {"_id": 1}, "hint": `+hint+`}`))
				sameValue(t, "ids with hint "+hint, ids, tc.ids)
			}
		})
	}
	// index_bounds_maxkey.js: on an index that is not multikey these are
	// covered, $lt MaxKey leaving MaxKey out.
	s.runCase(t, "$lt MaxKey on an index that is not multikey is covered", "jstests/core/index_bounds_maxkey.js",
		explainCase(query, "$lt"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": "string"}, {"_id": 2, "a": {"b": 1}}, {"_id": 3}, {"_id": 4, "a": {"$maxKey": 1}}]`)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]}`)
			ixscan, plan := ixscanOf(t, db, `{"find": "c", "filter": {"a": {"$lt": {"$maxKey": 1}}}, "projection": {"_id": 0, "a": 1}}`)
			sameValue(t, "bounds", field(ixscan, "indexBounds"), `{"a": ["[MinKey, MaxKey)"]}`)
			if stageNamed(plan, "FETCH") != nil {
				t.Errorf("not covered: %s", relaxed(plan))
			}
			ixscan, _ = ixscanOf(t, db, `{"find": "c", "filter": {"a": {"$gt": {"$minKey": 1}}}, "projection": {"_id": 0, "a": 1}}`)
			sameValue(t, "bounds", field(ixscan, "indexBounds"), `{"a": ["(MinKey, MaxKey]"]}`)
		})
}

// Index key generation refuses a positional path component that an
// element of the array also holds as a field name
// (src/mongo/db/index/btree_key_generator.cpp _extractNextElement,
// jstests/core/indexu.js).
func TestAmbiguousPositionalIndexPath(t *testing.T) {
	s := newSuite(t)
	const ref = "src/mongo/db/index/btree_key_generator.cpp; jstests/core/indexu.js"
	const msg = "Ambiguous field name found in array (do not use numeric field names in embedded elements in an array), field: '0' for array: { 0: { 0: 1 } }"
	s.runCase(t, "createIndex over a document whose path is ambiguous", ref, cover{family: commandFam, op: "createIndexes", col: errorCol},
		func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 0, "a": [{"0": 1}]}]`)
			_, err := command(t, db, ejDoc(t, `{"createIndexes": "c", "indexes": [{"key": {"a.0": 1}, "name": "a0"}]}`))
			// The index build reports the key generator's error after its
			// own prefix (naming the build and the collection).
			if err == nil || err.Code != mongoerr.ErrAmbiguousArrayFieldName || !strings.HasSuffix(err.Message, ":: caused by :: "+msg) {
				t.Errorf("createIndexes: %v, want 16746 ending %q", err, msg)
			}
			// Paths whose component is no array position stay fine.
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a.b": 1}, "name": "ab"}, {"key": {"a.00": 1}, "name": "a00"}, {"key": {"a.-1": 1}, "name": "am1"}]}`)
		})
	s.runCase(t, "an insert whose path is ambiguous under an index", ref, cover{family: commandFam, op: "insert", col: errorCol},
		func(t *testing.T, db *mongo.Database) {
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a.0": 1}, "name": "a0"}]}`)
			got := writeErrors(t, db, `{"insert": "c", "documents": [{"_id": 0, "a": [{"0": 1}]}]}`)
			sameValue(t, "writeErrors", got, `[{"code": 16746, "errmsg": "`+msg+`"}]`)
			// The array's second element holds field "1" while position 1
			// exists: ambiguous under 'a.1' only.
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a.1": 1}, "name": "a1"}]}`)
			got = writeErrors(t, db, `{"insert": "c", "documents": [{"_id": 1, "a": [{"1": 1}, "c"]}]}`)
			sameValue(t, "writeErrors", got, `[{"code": 16746, "errmsg": "Ambiguous field name found in array (do not use numeric field names in embedded elements in an array), field: '1' for array: { 0: { 1: 1 }, 1: \"c\" }"}]`)
		})
	s.runCase(t, "a position past the array's end reads the elements' field", ref, cover{family: query, op: "$eq", col: semantics},
		func(t *testing.T, db *mongo.Database) {
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a.1": 1}, "name": "a1"}]}`)
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": [{"1": 1}]}]`)
			got, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"a.1": 1}, "hint": "a1"}`))
			if err != nil {
				t.Fatal(err)
			}
			sameDocs(t, "find", got, `[{"_id": 1, "a": [{"1": 1}]}]`, false)
		})
}

// Negations on an index (index_bounds_builder.cpp translate's NOT,
// planner_ixselect.cpp _compatible): the complement of the child's
// bounds, exact unless the field held an array; {$exists: false} the
// null point, for FETCH to decide; a comparison with an array, $regex,
// $mod, $type or $elemMatch is not indexed under $not, nor $gt MinKey /
// $lt MaxKey on a multikey index, nor {$ne: null} on a field that held an
// array, nor any negation but {$ne: null} on a sparse index.
func TestNegationBounds(t *testing.T) {
	s := newSuite(t)
	const ref = "src/mongo/db/query/index_bounds_builder.cpp translate (NOT); planner_ixselect.cpp _compatible"
	const scalars = `[{"_id": 1, "a": 1}, {"_id": 2, "a": 2}, {"_id": 3, "a": null}, {"_id": 4}, {"_id": 5, "a": "x"}]`
	const arrays = `[{"_id": 1, "a": [1, 2]}, {"_id": 2, "a": 2}, {"_id": 3, "a": [3]}, {"_id": 4}, {"_id": 5, "a": []}]`
	cases := []struct {
		name, docs, index, filter string
		bounds                    string // "" for a collection scan
		fetchFilter               bool
		ids                       string
	}{
		{"$ne is the complement of a point, exact", scalars, `{"a": 1}`, `{"a": {"$ne": 2}}`, `["[MinKey, 2)", "(2, MaxKey]"]`, false, `[1, 3, 4, 5]`},
		{"$nin is the complement of its points", scalars, `{"a": 1}`, `{"a": {"$nin": [1, "x"]}}`, `["[MinKey, 1)", "(1, \"x\")", "(\"x\", MaxKey]"]`, false, `[2, 3, 4]`},
		{"$ne null leaves out null and missing, exact", scalars, `{"a": 1}`, `{"a": {"$ne": null}}`, `["[MinKey, null)", "(null, MaxKey]"]`, false, `[1, 2, 5]`},
		{"$not $gt is the complement of the type-bracketed range", scalars, `{"a": 1}`, `{"a": {"$not": {"$gt": 1}}}`, `["[MinKey, 1]", "(inf.0, MaxKey]"]`, false, `[1, 3, 4, 5]`},
		{"$not $lt MaxKey is the MaxKey point", scalars, `{"a": 1}`, `{"a": {"$not": {"$lt": {"$maxKey": 1}}}}`, `["[MaxKey, MaxKey]"]`, false, `[]`},
		{"$exists false is the null point, for FETCH", scalars, `{"a": 1}`, `{"a": {"$exists": false}}`, `["[null, null]"]`, true, `[4]`},
		{"$ne on a multikey field needs FETCH", arrays, `{"a": 1}`, `{"a": {"$ne": 2}}`, `["[MinKey, 2)", "(2, MaxKey]"]`, true, `[3, 4, 5]`},
		{"$ne null on a multikey field is not indexed", arrays, `{"a": 1}`, `{"a": {"$ne": null}}`, ``, true, `[1, 2, 3, 5]`},
		{"$ne null inside $elemMatch uses a multikey field", arrays, `{"a": 1}`, `{"a": {"$elemMatch": {"$ne": null}}}`, `["[MinKey, null)", "(null, MaxKey]"]`, true, `[1, 3]`},
		{"$not $gt MinKey on a multikey index is not indexed", arrays, `{"a": 1}`, `{"a": {"$not": {"$gt": {"$minKey": 1}}}}`, ``, true, `[]`},
		{"$ne an array is not indexed", arrays, `{"a": 1}`, `{"a": {"$ne": [3]}}`, ``, true, `[1, 2, 4, 5]`},
		{"$not $regex is not indexed", scalars, `{"a": 1}`, `{"a": {"$not": {"$regex": "x"}}}`, ``, true, `[1, 2, 3, 4]`},
		{"a sparse index answers $ne null", scalars, `{"a": 1}, "sparse": true`, `{"a": {"$ne": null}}`, `["[MinKey, null)", "(null, MaxKey]"]`, false, `[1, 2, 5]`},
		{"a sparse index does not answer $ne 1", scalars, `{"a": 1}, "sparse": true`, `{"a": {"$ne": 1}}`, ``, true, `[2, 3, 4, 5]`},
	}
	for _, tc := range cases {
		s.runCase(t, tc.name, ref, explainCase(query, "$not"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), tc.docs)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": `+tc.index+`, "name": "a_1"}]}`)
			plan := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": `+tc.filter+`}, "verbosity": "queryPlanner"}`))
			ixscan := stageNamed(plan, "IXSCAN")
			switch {
			case tc.bounds == "" && ixscan != nil:
				t.Errorf("indexed: %s", relaxed(plan))
			case tc.bounds != "" && ixscan == nil:
				t.Errorf("not indexed: %s", relaxed(plan))
			case ixscan != nil:
				sameValue(t, "bounds", field(ixscan, "indexBounds"), `{"a": `+tc.bounds+`}`)
				fetch := stageNamed(plan, "FETCH")
				if got := fetch != nil && field(fetch, "filter") != nil; got != tc.fetchFilter {
					t.Errorf("FETCH filters: %v, want %v (plan %s)", got, tc.fetchFilter, relaxed(plan))
				}
			}
			ids := foundIDs(t, db, ejDoc(t, `{"find": "c", "filter": `+tc.filter+`, "projection": {"_id": 1}, "sort": {"_id": 1}}`))
			sameValue(t, "ids", ids, tc.ids)
		})
	}
}

// {$ne: null} inside an object $elemMatch (planner_ixselect.cpp
// notEqualsNullCanUseIndex): an index whose path held arrays only at or
// above the $elemMatch's path answers it, since nothing below that path is
// traversed; an array below it (here "a.b.c") could hide a non-null match
// behind a null key, so the index is then refused
// (jstests/core/query/sparse_index_supports_ne_null.js).
func TestNeNullUnderElemMatchObject(t *testing.T) {
	s := newSuite(t)
	const ref = "src/mongo/db/query/planner_ixselect.cpp notEqualsNullCanUseIndex; jstests/core/query/sparse_index_supports_ne_null.js"
	const docs = `[{"_id": 1, "a": {"b": [{"c": {"d": 1}}]}}, {"_id": 2, "a": {"b": [{"c": {"d": null}}]}},
		{"_id": 3, "a": [{"b": [{"c": {"d": 2}}]}]}, {"_id": 4, "a": {"b": [{"c": {}}]}}]`
	const below = `[{"_id": 5, "a": {"b": [{"c": [{"d": 3}]}]}}]`
	cases := []struct {
		name, extra, filter string
		indexed             bool
		ids                 string
	}{
		{"arrays above the $elemMatch: indexed", ``, `{"a.b": {"$elemMatch": {"c.d": {"$ne": null}}}}`, true, `[1, 3]`},
		{"top-level $ne null on the same path: not indexed", ``, `{"a.b.c.d": {"$ne": null}}`, false, `[1, 3]`},
		{"an array below the $elemMatch: not indexed", below, `{"a.b": {"$elemMatch": {"c.d": {"$ne": null}}}}`, false, `[1, 3, 5]`},
		{"a value $elemMatch stays indexed", below, `{"a.b.c.d": {"$elemMatch": {"$ne": null}}}`, true, `[]`},
		{"a sparse index still refuses $nin", ``, `{"a.b": {"$elemMatch": {"c.d": {"$nin": [null, 2]}}}}`, false, `[1]`},
	}
	for _, tc := range cases {
		s.runCase(t, "sparse multikey index: "+tc.name, ref, explainCase(query, "$not"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			if tc.extra != "" {
				insertDocs(t, db.Collection("c"), tc.extra)
			}
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a.b.c.d": 1}, "name": "abcd", "sparse": true}]}`)
			plan := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": `+tc.filter+`}, "verbosity": "queryPlanner"}`))
			if got := stageNamed(plan, "IXSCAN") != nil; got != tc.indexed {
				t.Errorf("indexed: %v, want %v (plan %s)", got, tc.indexed, relaxed(plan))
			}
			ids := foundIDs(t, db, ejDoc(t, `{"find": "c", "filter": `+tc.filter+`, "projection": {"_id": 1}, "sort": {"_id": 1}}`))
			sameValue(t, "ids", ids, tc.ids)
		})
	}
}
