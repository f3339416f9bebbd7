package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// Index and query-planning jstests swept against the sandbox (second
// sweep): the differences from mongod 8.0 they showed, each case checked
// through the driver.

// In 8.0 an _id point query is the filter as the command spelled it:
// nothing but _id, compared with a literal (CanonicalQuery::isSimpleIdQuery,
// canonical_query.cpp). isIdHackEligibleQuery and the express path's
// IdPointQueryEligible both test that spelling (query_utils.h), so
// {_id: {$eq: 1}} and {$and: [{_id: 1}]} are not point queries: the express
// path takes them only as an indexed equality (IndexedEqualityEligible,
// which the _id index answers like any unique single-field index, and which
// a clustered collection refuses), and where express is ruled out (a
// batchSize, returnKey) they are planned as any query, never IDHACK. 8.1
// added the $eq spelling (jstests/core/index/express_id_eq.js is tagged
// requires_fcv_81).
const simpleIDRef = "src/mongo/db/query/canonical_query.cpp (isSimpleIdQuery), src/mongo/db/query/query_utils.h (isIdHackEligibleQuery, isExpressEligible), " +
	"src/mongo/db/query/indexability.h (isExactBoundsGenerating); jstests/core/index/wildcard/wildcard_index_projection.js"

func TestSimpleIDQuerySpelling(t *testing.T) {
	s := newSuite(t)
	cov := explainCase(commandFam, "find")
	docs := `[{"_id": 1, "a": 1, "b": 2}, {"_id": 2, "a": 2}]`
	plan := func(t *testing.T, db *mongo.Database, find string) bson.D {
		t.Helper()
		return winningPlan(t, mustCommand(t, db, `{"explain": `+find+`, "verbosity": "queryPlanner"}`))
	}
	// jstests/core/index/wildcard/wildcard_index_projection.js (the text
	// with batchSize(2), "to avoid triggering EXPRESS path"): the $eq
	// spelling with a batchSize is planned, so the wildcard index that
	// includes _id races the _id index and is the rejected plan.
	s.runCase(t, "{_id: {$eq: 1}} with a batchSize is planned, not IDHACK", simpleIDRef, cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		find := `{"find": "c", "filter": {"_id": {"$eq": 1}}, "batchSize": 2}`
		if got := stageChain(plan(t, db, find)); got != "FETCH>IXSCAN" {
			t.Errorf("plan %s, want FETCH>IXSCAN", got)
		}
		got, err := cursorDocs(t, db, ejDoc(t, find))
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "find", got, `[{"_id": 1, "a": 1, "b": 2}]`, false)
		if got := stageChain(plan(t, db, `{"find": "c", "filter": {"_id": 1}, "batchSize": 2}`)); got != "IDHACK" {
			t.Errorf("{_id: 1} with a batchSize: plan %s, want IDHACK", got)
		}
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"$**": 1}, "name": "$**_1", "wildcardProjection": {"a": 0, "b": 0, "_id": 1}}]}`)
		qp := field(mustCommand(t, db, `{"explain": `+find+`, "verbosity": "queryPlanner"}`), "queryPlanner").(bson.D)
		rejected, _ := field(qp, "rejectedPlans").(bson.A)
		if len(rejected) != 1 {
			t.Fatalf("rejectedPlans %s, want one", relaxed(field(qp, "rejectedPlans")))
		}
		in, _ := field(rejected[0].(bson.D), "inputStage").(bson.D)
		sameValue(t, "rejected plan's scan", field(in, "keyPattern"), `{"$_path": 1, "_id": 1}`)
	})
	s.runCase(t, "{$and: [{_id: 1}]} and returnKey with {_id: {$eq: 1}} are planned, not IDHACK", simpleIDRef, cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		for find, want := range map[string]string{
			`{"find": "c", "filter": {"$and": [{"_id": 1}]}, "batchSize": 2}`: "FETCH>IXSCAN",
			`{"find": "c", "filter": {"_id": {"$eq": 1}}, "returnKey": true}`: "RETURN_KEY>IXSCAN",
			`{"find": "c", "filter": {"_id": 1}, "returnKey": true}`:          "RETURN_KEY>IDHACK",
			`{"find": "c", "filter": {"_id": {"x": 1}}, "batchSize": 2}`:      "IDHACK",
		} {
			if got := stageChain(plan(t, db, find)); got != want {
				t.Errorf("%s: plan %s, want %s", find, got, want)
			}
		}
		got, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"_id": {"$eq": 1}}, "returnKey": true}`))
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "returnKey", got, `[{"_id": 1}]`, false)
	})
	// Without a batchSize the $eq spelling is still express, as an indexed
	// equality on the _id index (getIndexForExpressEquality).
	s.runCase(t, "{_id: {$eq: 1}} alone is an express read of the _id index", simpleIDRef, cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		sameValue(t, "plan", plan(t, db, `{"find": "c", "filter": {"_id": {"$eq": 1}}}`),
			`{"isCached": false, "stage": "EXPRESS_IXSCAN", "keyPattern": "{ _id: 1 }", "indexName": "_id_"}`)
	})
	// isExpressEligible: a clustered collection has no indexed equality, so
	// the $eq spelling scans the cluster key as any query does.
	s.runCase(t, "{_id: {$eq: 1}} on a clustered collection is CLUSTERED_IXSCAN", simpleIDRef, cov, func(t *testing.T, db *mongo.Database) {
		mustCommand(t, db, `{"create": "k", "clusteredIndex": {"key": {"_id": 1}, "unique": true}}`)
		insertDocs(t, db.Collection("k"), docs)
		if got := stageChain(plan(t, db, `{"find": "k", "filter": {"_id": {"$eq": 1}}}`)); got != "CLUSTERED_IXSCAN" {
			t.Errorf("plan %s, want CLUSTERED_IXSCAN", got)
		}
		if got := stageChain(plan(t, db, `{"find": "k", "filter": {"_id": 1}}`)); got != "EXPRESS_CLUSTERED_IXSCAN" {
			t.Errorf("{_id: 1}: plan %s, want EXPRESS_CLUSTERED_IXSCAN", got)
		}
		got, err := cursorDocs(t, db, ejDoc(t, `{"find": "k", "filter": {"_id": {"$eq": 2}}}`))
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "find", got, `[{"_id": 2, "a": 2}]`, false)
	})
	// Indexability::isExactBoundsGenerating counts MinKey and MaxKey as
	// exact, so an _id of MinKey is a point query; null is not.
	s.runCase(t, "an _id of MinKey is an express point query, null is not", simpleIDRef, cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id": {"$minKey": 1}, "a": 1}, {"_id": 2}]`)
		if got := stageChain(plan(t, db, `{"find": "c", "filter": {"_id": {"$minKey": 1}}}`)); got != "EXPRESS_IXSCAN" {
			t.Errorf("MinKey: plan %s, want EXPRESS_IXSCAN", got)
		}
		got, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"_id": {"$minKey": 1}}}`))
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "find", got, `[{"_id": {"$minKey": 1}, "a": 1}]`, false)
		if got := stageChain(plan(t, db, `{"find": "c", "filter": {"_id": null}}`)); got == "EXPRESS_IXSCAN" || got == "IDHACK" {
			t.Errorf("null: plan %s, want a planned scan", got)
		}
	})
}

// The classic plan cache's shape (canonical_query_encoder.cpp,
// encodeKeyForMatch) writes each predicate's match type and path, not its
// operand: an $in of two values and one of three, or an equality to a
// number, a document or an array, share a shape and so a cache entry
// (jstests/core/query/plan_cache/in_expression_plan_cache.js). An $in
// adds only "_re" and its regexes' valid flags (i, m, s, x, each once, in
// order) when it holds regular expressions; $gt MinKey and $lt MaxKey add
// "min" and "max" (isGTMinKey, isLTMaxKey), and a negated equality, $gte
// or $lte to null adds "not_eq_null" (isQueryNegatingEqualToNull). $type and
// the bit tests encode no operand either (TYPE_OPERATOR, BITS_*).
const shapeRef = "src/mongo/db/query/canonical_query_encoder.cpp (encodeKeyForMatch, encodeRegexFlagsForMatch, isQueryNegatingEqualToNull); " +
	"jstests/core/query/plan_cache/in_expression_plan_cache.js"

func TestPlanCacheShapeOperands(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "operands are no part of the shape but for regexes, MinKey, MaxKey and negated null", shapeRef, explainCase(commandFam, "find"),
		func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": 1, "b": 1}]`)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}, {"key": {"a": 1, "b": 1}, "name": "a_1_b_1"}]}`)
			hash := func(filter string) any {
				t.Helper()
				qp := field(mustCommand(t, db, `{"explain": {"find": "c", "filter": `+filter+`}, "verbosity": "queryPlanner"}`), "queryPlanner").(bson.D)
				return field(qp, "planCacheShapeHash")
			}
			for _, c := range []struct {
				x, y string
				same bool
			}{
				{`{"a": {"$in": [1, 2]}, "b": 1}`, `{"a": {"$in": [1, 2, 3]}, "b": 1}`, true},
				{`{"a": {"$nin": [1, 2]}}`, `{"a": {"$nin": [1, 2, 3]}}`, true},
				{`{"a": {"$in": [1, {"$regularExpression": {"pattern": "x", "options": ""}}]}}`, `{"a": {"$in": [1, {"$regularExpression": {"pattern": "y", "options": ""}}, {"$regularExpression": {"pattern": "z", "options": ""}}]}}`, true},
				{`{"a": {"$in": [1, {"$regularExpression": {"pattern": "x", "options": "im"}}]}}`, `{"a": {"$in": [1, {"$regularExpression": {"pattern": "x", "options": "mi"}}]}}`, true},
				{`{"a": {"$in": [1, {"$regularExpression": {"pattern": "x", "options": "i"}}]}}`, `{"a": {"$in": [1, {"$regularExpression": {"pattern": "x", "options": ""}}]}}`, false},
				{`{"a": {"$in": [1, 2]}}`, `{"a": {"$in": [1, {"$regularExpression": {"pattern": "x", "options": ""}}]}}`, false},
				{`{"a": 1}`, `{"a": {"x": 1}}`, true},
				{`{"a": 1}`, `{"a": [1, 2]}`, true},
				{`{"a": {"$ne": 1}}`, `{"a": {"$ne": null}}`, false},
				{`{"a": {"$gt": 1}}`, `{"a": {"$gt": {"$minKey": 1}}}`, false},
				{`{"a": {"$lt": 1}}`, `{"a": {"$lt": {"$maxKey": 1}}}`, false},
				{`{"a": {"$all": [1, 2]}}`, `{"a": {"$all": [1, 2, 3]}}`, false},
				{`{"a": {"$type": "string"}}`, `{"a": {"$type": ["string", "number"]}}`, true},
				{`{"a": {"$bitsAllSet": [1]}}`, `{"a": {"$bitsAllSet": [1, 2]}}`, true},
			} {
				if got := hash(c.x) == hash(c.y); got != c.same {
					t.Errorf("%s and %s: same shape %v, want %v", c.x, c.y, got, c.same)
				}
			}
		})
	// The reuse the test checks: a second run activates the entry, and an
	// $in of another size then plans from it.
	s.runCase(t, "an $in of another size reuses the active entry", shapeRef, cover{family: stage, op: "$planCacheStats", col: semantics},
		func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": 1, "b": 1}, {"_id": 2, "a": 1, "b": 2}, {"_id": 3, "a": 1, "b": 3}, {"_id": 4, "a": 2, "b": 1}]`)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1, "b": 1, "c": 1}, "name": "abc"}, {"key": {"a": -1, "b": 1, "c": 1, "d": 1}, "name": "abcd"}]}`)
			for range 2 {
				mustCommand(t, db, `{"find": "c", "filter": {"a": {"$eq": 1}, "b": {"$in": [1, 2]}}}`)
			}
			got, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"a": {"$eq": 1}, "b": {"$in": [1, 2, 3]}}}`))
			if err != nil {
				t.Fatal(err)
			}
			sameDocs(t, "find", got, `[{"_id": 1, "a": 1, "b": 1}, {"_id": 2, "a": 1, "b": 2}, {"_id": 3, "a": 1, "b": 3}]`, true)
			entries, err := cursorDocs(t, db, ejDoc(t, `{"aggregate": "c", "pipeline": [{"$planCacheStats": {}}, {"$project": {"_id": 0, "isActive": 1, "q": "$createdFromQuery.query"}}], "cursor": {}}`))
			if err != nil {
				t.Fatal(err)
			}
			sameDocs(t, "entries", entries, `[{"isActive": true, "q": {"a": {"$eq": 1}, "b": {"$in": [1, 2]}}}]`, false)
		})
}

// isEqualityExpressEligibleQuery (query_utils.h) takes the indexed
// equality to the express path only with no projection at all; the _id
// point query takes a simple one (isExpressEligible). 8.3 let the indexed
// equality project, and cover (jstests/core/index/express_projection.js is
// tagged requires_fcv_83), so in 8.0 an equality on a unique index with a
// projection is planned: PROJECTION_SIMPLE over FETCH over IXSCAN, or a
// covered PROJECTION_COVERED over IXSCAN.
func TestExpressEqualityProjection(t *testing.T) {
	s := newSuite(t)
	const ref = "src/mongo/db/query/query_utils.h (isEqualityExpressEligibleQuery, isExpressEligible); jstests/core/index/express_projection.js (requires_fcv_83)"
	s.runCase(t, "an indexed equality with a projection is not express", ref, explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": 1, "b": 1}, {"_id": 2, "a": 2, "b": 2}]`)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1", "unique": true}]}`)
		for find, want := range map[string]string{
			`{"find": "c", "filter": {"a": 1}, "projection": {"a": 1}}`:           "PROJECTION_SIMPLE>FETCH>IXSCAN",
			`{"find": "c", "filter": {"a": 1}, "projection": {"_id": 0, "a": 1}}`: "PROJECTION_COVERED>IXSCAN",
			`{"find": "c", "filter": {"a": 1}}`:                                   "EXPRESS_IXSCAN",
			`{"find": "c", "filter": {"a": 1}, "projection": {}}`:                 "EXPRESS_IXSCAN",
			`{"find": "c", "filter": {"_id": 1}, "projection": {"a": 1}}`:         "EXPRESS_IXSCAN",
		} {
			got := stageChain(winningPlan(t, mustCommand(t, db, `{"explain": `+find+`, "verbosity": "queryPlanner"}`)))
			if got != want {
				t.Errorf("%s: plan %s, want %s", find, got, want)
			}
		}
		got, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"a": 1}, "projection": {"_id": 0, "a": 1}}`))
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "find", got, `[{"a": 1}]`, false)
	})
}
