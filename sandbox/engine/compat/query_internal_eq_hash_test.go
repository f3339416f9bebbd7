package compat_test

import (
	"strconv"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// $_internalEqHash, the match expression an $expr equality of
// $toHashedIndexKey with a long becomes so that a hashed index can look
// the hash up. Sources: src/mongo/db/matcher/expression_internal_eq_hashed_key.h
// (the node: a ComparisonMatchExpressionBase with no leaf-array traversal
// and NonLeafArrayBehavior::kMatchSubpath, serialized as {$_internalEqHash:
// <long>}); its matching, read in src/mongo/db/exec/matcher/matcher.cpp,
// where newer sources moved the node's own (a path extractElementAtPath
// cannot reach is the null key, else hash64 of what the path walk
// yields); dotted_path_support.h (extractElementAtPath);
// src/mongo/db/matcher/expression_expr.cpp (attemptToRewriteEqHash);
// src/mongo/db/query/index_bounds_builder.cpp and planner_ixselect.cpp
// (bounds and compatibility); jstests/core/query/internal_hash_eq/*.js and
// the jstest not_index_tagging.js.

const (
	eqHashJSTest   = "jstests/core/query/internal_hash_eq/match_internal_eq_hash.js"
	eqHashMatchRef = "src/mongo/db/matcher/expression_internal_eq_hashed_key.h (kNoTraversal, kMatchSubpath); src/mongo/db/exec/matcher/matcher.cpp (MatchExpressionEvaluator::visit(InternalEqHashedKey))"
	eqHashPathRef  = eqHashMatchRef + "; dotted_path_support.h (extractElementAtPath: {a: [{b: 1}]} has no a.b)"
	eqHashRewrite  = "src/mongo/db/matcher/expression_expr.cpp (attemptToRewriteEqHash); jstests/core/query/internal_hash_eq/expr_rewrites.js"
	eqHashBounds   = "src/mongo/db/query/index_bounds_builder.cpp (INTERNAL_EQ_HASHED_KEY: a point, INEXACT_FETCH); src/mongo/db/query/planner_ixselect.cpp (nodeIsSupportedByHashedIndex)"
)

// eqHash is the filter {path: {$_internalEqHash: NumberLong(hash)}}.
func eqHash(path, hash string) string {
	return `{"` + path + `": {"$_internalEqHash": {"$numberLong": "` + hash + `"}}}`
}

// hashOf is $toHashedIndexKey of the extended-JSON value v, the key a
// hashed index stores for it; c must hold a document.
func hashOf(t *testing.T, db *mongo.Database, v string) string {
	t.Helper()
	got, err := cursorDocs(t, db, bson.D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: bson.A{
		bson.D{{Key: "$limit", Value: int32(1)}},
		bson.D{{Key: "$project", Value: bson.D{{Key: "_id", Value: int32(0)},
			{Key: "h", Value: bson.D{{Key: "$toHashedIndexKey", Value: bson.D{{Key: "$literal", Value: ejValue(t, v)}}}}}}}},
	}}, {Key: "cursor", Value: bson.D{}}})
	if err != nil || len(got) != 1 {
		t.Fatalf("$toHashedIndexKey of %s: %v %v", v, got, err)
	}
	h, ok := field(got[0], "h").(int64)
	if !ok {
		t.Fatalf("$toHashedIndexKey of %s: %v", v, got[0])
	}
	return strconv.FormatInt(h, 10)
}

// idsOf runs the filter on c and lists the _ids found, in _id order.
func idsOf(t *testing.T, db *mongo.Database, filter string) bson.A {
	t.Helper()
	return foundIDs(t, db, bson.D{{Key: "find", Value: "c"}, {Key: "filter", Value: ejDoc(t, filter)},
		{Key: "sort", Value: bson.D{{Key: "_id", Value: 1}}}})
}

func TestInternalEqHashSemantics(t *testing.T) {
	const docs = `[{"_id": 1, "a": "string to hash"}, {"_id": 2}, {"_id": 3, "a": null}, {"_id": 4, "a": ["string to hash"]},
		{"_id": 5, "a": {"b": "string to hash"}}, {"_id": 6, "a": [{"b": "string to hash"}]}, {"_id": 7, "a": 1}, {"_id": 8, "x.y": "string to hash"}]`
	runFilterTableIn(t, eqHashPathRef, docs, semantics, [][2]string{
		// The value hashes to the argument; an array is hashed whole,
		// its elements are not tried.
		{eqHash("a", hashOfString), `[1]`},
		// A field the path does not reach is matched as null, the key a
		// hashed index stores for it.
		{eqHash("a", hashOfNull), `[2,3,8]`},
		{eqHash("a.b", hashOfString), `[5]`},
		// extractElementAtPath reads an array as the document of its
		// positions, which has no field b: {a: [{b: ...}]} has no a.b and
		// is the null key, as a plain string or number a is.
		{eqHash("a.b", hashOfNull), `[1,2,3,4,6,7,8]`},
		{`{"a": {"$not": {"$_internalEqHash": {"$numberLong": "` + hashOfNull + `"}}}}`, `[1,4,5,6,7]`},
		// $elemMatch hashes each element.
		{`{"a": {"$elemMatch": {"$_internalEqHash": {"$numberLong": "` + hashOfString + `"}}}}`, `[4]`},
	})
	s := newSuite(t)
	// A field literally named "x.y" is found by extractElementAtPath,
	// which tries the whole path as a name first, so it is not the null
	// key; the walk then finds no x, an element of no type, whose hash is
	// neither null's nor the string's.
	s.runCase(t, "a field named with the dotted path is not the null key", eqHashPathRef,
		cover{family: query, op: "$_internalEqHash", col: semantics}, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			sameValue(t, "null hash", idsOf(t, db, eqHash("x.y", hashOfNull)), `[1, 2, 3, 4, 5, 6, 7]`)
			sameValue(t, "string hash", idsOf(t, db, eqHash("x.y", hashOfString)), `[]`)
		})
	// kMatchSubpath: the walk stops at an array before the leaf and
	// hashes it; kNoTraversal: an array at the leaf is hashed whole.
	s.runCase(t, "an array on the path is hashed whole", eqHashMatchRef,
		cover{family: query, op: "$_internalEqHash", col: semantics}, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			sameValue(t, "leaf array", idsOf(t, db, eqHash("a", hashOf(t, db, `["string to hash"]`))), `[4]`)
			sameValue(t, "array before the leaf", idsOf(t, db, eqHash("a.0.b", hashOf(t, db, `[{"b": "string to hash"}]`))), `[6]`)
			sameValue(t, "no hash of the element reached by position", idsOf(t, db, eqHash("a.0.b", hashOfString)), `[]`)
		})
}

// A hashed index squashes numbers to a long before hashing them
// (BSONElementHasher: safeNumberLong, so 0.5 and NaN are 0), so every
// numeric type of one integral value hashes alike, and other types do
// not.
func TestInternalEqHashTypes(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "numbers of every width hash alike", eqHashJSTest+"; src/mongo/db/hasher.cpp (numbers hashed as safeNumberLong); the _hashBSONElement hash-stability jstest (NaN hashes as 0)",
		cover{family: query, op: "$_internalEqHash", col: types}, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": 0}, {"_id": 2, "a": {"$numberLong": "0"}}, {"_id": 3, "a": {"$numberDouble": "0.0"}},
				{"_id": 4, "a": {"$numberDecimal": "0"}}, {"_id": 5, "a": 0.5}, {"_id": 6, "a": "0"}, {"_id": 7, "a": false},
				{"_id": 8, "a": {"$numberDouble": "NaN"}}, {"_id": 9, "a": {"$date": "1970-01-01T00:00:00Z"}}]`)
			sameValue(t, "hash of 0", idsOf(t, db, eqHash("a", hashOf(t, db, `0`))), `[1, 2, 3, 4, 5, 8]`)
			sameValue(t, "hash of false", idsOf(t, db, eqHash("a", hashOf(t, db, `false`))), `[7]`)
		})
}

// Only NumberLong is a hash: match_internal_eq_hash.js (testInvalidTypes)
// expects BadValue for every other type, doubles 0.0 and NaN included.
// 8.0's message for it is not in the sources at hand, so these cases
// check the code alone.
func TestInternalEqHashErrors(t *testing.T) {
	const docs = `[{"_id": 1, "a": 1}]`
	ref := eqHashJSTest + " (testInvalidTypes); " + parserRef
	runFindCases(t, []findCase{
		{name: "$_internalEqHash of a double", ref: ref, docs: docs, filter: `{"a": {"$_internalEqHash": {"$numberDouble": "0.0"}}}`, code: mongoerr.BadValue},
		{name: "$_internalEqHash of NaN", ref: ref, docs: docs, filter: `{"a": {"$_internalEqHash": {"$numberDouble": "NaN"}}}`, code: mongoerr.BadValue},
		{name: "$_internalEqHash of a string", ref: ref, docs: docs, filter: `{"a": {"$_internalEqHash": "not a number"}}`, code: mongoerr.BadValue},
		{name: "$_internalEqHash of a document", ref: ref, docs: docs, filter: `{"a": {"$_internalEqHash": {"embedded": "object"}}}`, code: mongoerr.BadValue},
		{name: "$_internalEqHash of an array", ref: ref, docs: docs, filter: `{"a": {"$_internalEqHash": [1]}}`, code: mongoerr.BadValue},
		{name: "$_internalEqHash of null", ref: ref, docs: docs, filter: `{"a": {"$_internalEqHash": null}}`, code: mongoerr.BadValue},
		{name: "$_internalEqHash of a boolean", ref: ref, docs: docs, filter: `{"a": {"$_internalEqHash": true}}`, code: mongoerr.BadValue},
		{name: "$_internalEqHash of MinKey", ref: ref, docs: docs, filter: `{"a": {"$_internalEqHash": {"$minKey": 1}}}`, code: mongoerr.BadValue},
		{name: "$_internalEqHash of a date", ref: ref, docs: docs, filter: `{"a": {"$_internalEqHash": {"$date": "2023-03-28T18:34:28.937Z"}}}`, code: mongoerr.BadValue},
		{name: "$_internalEqHash of an ObjectId", ref: ref, docs: docs, filter: `{"a": {"$_internalEqHash": {"$oid": "62d05ec744ca83616c92772c"}}}`, code: mongoerr.BadValue},
	})
}

// The $expr rewrite and the plans it allows.
func TestInternalEqHashPlans(t *testing.T) {
	s := newSuite(t)
	const docs = `[{"_id": 1, "a": "string to hash", "b": "foo"}, {"_id": 2, "a": 2, "b": "bar"}, {"_id": 3, "a": 3, "b": "baz"}]`
	hashedA := hashedCreate(`{"a": "hashed"}`, "")
	exprHash := `{"$expr": {"$eq": [{"$toHashedIndexKey": "$a"}, {"$numberLong": "` + hashOfString + `"}]}}`
	point := `["[` + hashOfString + `, ` + hashOfString + `]"]`

	// The $expr is replaced by $_internalEqHash, a point on the hashed
	// field; the bounds are INEXACT_FETCH, so FETCH checks it again.
	s.runCase(t, "$expr equality of $toHashedIndexKey with a long becomes a point on the hash", eqHashRewrite+"; "+eqHashBounds,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			mustCommand(t, db, hashedA)
			reply := mustCommand(t, db, `{"explain": {"find": "c", "filter": `+exprHash+`}, "verbosity": "executionStats"}`)
			qp, _ := field(reply, "queryPlanner").(bson.D)
			sameValue(t, "parsedQuery", field(qp, "parsedQuery"), eqHash("a", hashOfString))
			plan := winningPlan(t, reply)
			if got := stageChain(plan); got != "FETCH>IXSCAN" {
				t.Fatalf("plan %s, want FETCH>IXSCAN", got)
			}
			sameValue(t, "FETCH filter", field(plan, "filter"), eqHash("a", hashOfString))
			sameValue(t, "indexBounds", field(stageNamed(plan, "IXSCAN"), "indexBounds"), `{"a": `+point+`}`)
			st, _ := field(reply, "executionStats").(bson.D)
			sameValue(t, "keysExamined", field(st, "totalKeysExamined"), `1`)
			sameValue(t, "found", idsOf(t, db, exprHash), `[1]`)
		})
	s.runCase(t, "$_internalEqHash without an index scans the collection", eqHashJSTest,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			plan := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": `+exprHash+`}, "verbosity": "queryPlanner"}`))
			if got := stageChain(plan); got != "COLLSCAN" {
				t.Errorf("plan %s, want COLLSCAN", got)
			}
			sameValue(t, "COLLSCAN filter", field(plan, "filter"), eqHash("a", hashOfString))
		})
	// attemptToRewriteEqHash wants the hashing first and a constant long
	// second: an int, or the operands swapped, keep the $expr, which no
	// index answers.
	s.runCase(t, "only $toHashedIndexKey first and a long second is rewritten", eqHashRewrite,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			mustCommand(t, db, hashedA)
			for _, f := range []string{
				`{"$expr": {"$eq": [{"$toHashedIndexKey": "$a"}, 5]}}`,
				`{"$expr": {"$eq": [{"$numberLong": "` + hashOfString + `"}, {"$toHashedIndexKey": "$a"}]}}`,
			} {
				reply := mustCommand(t, db, `{"explain": {"find": "c", "filter": `+f+`}, "verbosity": "queryPlanner"}`)
				if got := stageChain(winningPlan(t, reply)); got != "COLLSCAN" {
					t.Errorf("%s: plan %s, want COLLSCAN", f, got)
				}
				qp, _ := field(reply, "queryPlanner").(bson.D)
				if pq, _ := field(qp, "parsedQuery").(bson.D); field(pq, "$expr") == nil {
					t.Errorf("%s: parsedQuery %s, want the $expr", f, relaxed(pq))
				}
			}
		})
	// expr_rewrites.js testCompoundIndexFirstFieldHashed and
	// testCompoundIndexLastFieldHashed: with the $expr on b rewritten to
	// $_internalExprEq, both fields are points and one key is examined.
	for _, tc := range []struct{ key, bounds string }{
		{`{"a": "hashed", "b": 1}`, `{"a": ` + point + `, "b": ["[\"foo\", \"foo\"]"]}`},
		{`{"b": 1, "a": "hashed"}`, `{"b": ["[\"foo\", \"foo\"]"], "a": ` + point + `}`},
	} {
		s.runCase(t, "a compound hashed index "+tc.key+" takes the hash as a point", eqHashRewrite+"; "+eqHashBounds,
			explainCase(commandFam, "aggregate"), func(t *testing.T, db *mongo.Database) {
				insertDocs(t, db.Collection("c"), docs)
				mustCommand(t, db, hashedCreate(tc.key, ""))
				match := `{"$and": [` + exprHash + `, {"$expr": {"$eq": ["$b", "foo"]}}]}`
				st := explainStats(t, db, `{"aggregate": "c", "pipeline": [{"$match": `+match+`}], "cursor": {}, "hint": "h"}`)
				ix := stageNamed(field(st, "executionStages").(bson.D), "IXSCAN")
				if ix == nil {
					t.Fatalf("no IXSCAN in %s", relaxed(st))
				}
				sameValue(t, "indexBounds", field(ix, "indexBounds"), tc.bounds)
				sameValue(t, "keysExamined", field(ix, "keysExamined"), `1`)
				sameValue(t, "nReturned", field(st, "nReturned"), `1`)
			})
	}
	// match_internal_eq_hash.js: a trailing hashed field cannot be
	// sought without the fields before it, and a field that is not
	// hashed holds no hashes (the planner does not consider it);
	// expr_rewrites.js testNoHashedIndex: hinted, such an index is
	// scanned whole.
	s.runCase(t, "only a hashed prefix answers $_internalEqHash", eqHashJSTest+"; jstests/core/query/internal_hash_eq/expr_rewrites.js",
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			mustCommand(t, db, hashedCreate(`{"b": 1, "a": "hashed"}`, ""))
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]}`)
			filter := eqHash("a", hashOfString)
			plan := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": `+filter+`}, "verbosity": "queryPlanner"}`))
			if got := stageChain(plan); got != "COLLSCAN" {
				t.Errorf("plan %s, want COLLSCAN", got)
			}
			st := explainStats(t, db, `{"find": "c", "filter": `+filter+`, "hint": "a_1"}`)
			ix := stageNamed(field(st, "executionStages").(bson.D), "IXSCAN")
			sameValue(t, "hinted indexBounds", field(ix, "indexBounds"), `{"a": ["[MinKey, MaxKey]"]}`)
			sameValue(t, "hinted keysExamined", field(ix, "keysExamined"), `3`)
			sameValue(t, "hinted nReturned", field(st, "nReturned"), `1`)
		})
	// not_index_tagging.js: under $not, alone or inside $elemMatch,
	// $_internalEqHash uses no index, hashed ({$not} of anything but
	// $exists is refused there) or not.
	s.runCase(t, "$_internalEqHash under $not uses no index", "jstest not_index_tagging.js; "+eqHashBounds,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": [1, 2, 3]}, {"_id": 2, "h": 2}]`)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1"}, {"key": {"h": "hashed"}, "name": "h"}]}`)
			not := `{"$not": {"$_internalEqHash": {"$numberLong": "2"}}}`
			for _, f := range []string{
				`{"a": ` + not + `}`,
				`{"$or": [{"b": {"$eq": 5}}, {"a": ` + not + `}]}`,
				`{"a": {"$elemMatch": ` + not + `}}`,
				`{"$or": [{"b": {"$eq": 5}}, {"a": {"$elemMatch": ` + not + `}}]}`,
				`{"h": ` + not + `}`,
			} {
				plan := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": `+f+`}, "verbosity": "queryPlanner"}`))
				want := "COLLSCAN"
				if strings.HasPrefix(f, `{"$or"`) {
					// A rooted $or planned whole stays under SUBPLAN.
					want = "SUBPLAN>COLLSCAN"
				}
				if got := stageChain(plan); got != want {
					t.Errorf("%s: plan %s, want %s", f, got, want)
				}
			}
		})
	// match_internal_eq_hash.js testTopLevel and testDotted: the key a
	// hashed index stores for a value ($meta: "indexKey") finds every
	// document of that value, with the index and without it.
	s.runCase(t, "the key a hashed index stores finds its documents", eqHashJSTest,
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 0}, {"_id": 1, "a": {"b": {"c": 1}}}, {"_id": 2, "a": {"b": {"c": {"$numberDecimal": "1.0"}}}},
				{"_id": 3, "a": {"b": {"c": "1"}}}, {"_id": 4, "a": {"b": 1}}, {"_id": 5, "a.b.c": 1}]`)
			mustCommand(t, db, hashedCreate(`{"a.b.c": "hashed"}`, ""))
			got, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"_id": 1}, "projection": {"_id": 0, "k": {"$meta": "indexKey"}}, "hint": "h"}`))
			if err != nil || len(got) != 1 {
				t.Fatalf("index key: %v %v", got, err)
			}
			key, _ := field(got[0], "k").(bson.D)
			hash, ok := field(key, "a.b.c").(int64)
			if !ok {
				t.Fatalf("index key %s", relaxed(got[0]))
			}
			filter := eqHash("a.b.c", strconv.FormatInt(hash, 10))
			plan := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": `+filter+`}, "verbosity": "queryPlanner"}`))
			if got := stageChain(plan); got != "FETCH>IXSCAN" {
				t.Errorf("plan %s, want FETCH>IXSCAN", got)
			}
			sameValue(t, "with the index", idsOf(t, db, filter), `[1, 2]`)
			mustCommand(t, db, `{"dropIndexes": "c", "index": "h"}`)
			sameValue(t, "without it", idsOf(t, db, filter), `[1, 2]`)
		})
}
