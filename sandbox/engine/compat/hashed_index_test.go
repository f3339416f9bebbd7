package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Hashed indexes ({a: "hashed"}, and since 4.4 compound with one hashed
// field). Spec rules: src/mongo/db/catalog/index_key_validate.cpp
// (validateKeyPattern's one-plugin rule, the allowed option names),
// src/mongo/db/index/hash_access_method.cpp (no unique), expression_params.cpp
// (parseHashParams: one hashed field). Keys: expression_keys_private.cpp
// (getHashKeys: no array along any indexed path, missing as null, the hashed
// field as BSONElementHasher::hash64 with seed 0). Planning:
// src/mongo/db/query/planner_ixselect.cpp (_compatible), index_bounds_builder.cpp
// (hashed point bounds, INEXACT_FETCH). jstests: core/index/hashed/*.js
// (single_field_hashed_index.js, hashed_index_queries.js,
// hashed_index_queries_with_logical_operators.js, hashed_index_covered_queries.js,
// hashed_index_sort.js, hashed_index_with_arrays.js, hashed_partial_and_sparse_index.js,
// distinct_with_hashed_index.js), core/index/index_plugins.js.

const (
	hashedSpecRef = "jstests/core/index/index_plugins.js; src/mongo/db/index/expression_params.cpp (parseHashParams)"
	hashedKeysRef = "jstests/core/index/hashed/hashed_index_with_arrays.js; src/mongo/db/index/expression_keys_private.cpp (getHashKeys)"
	hashedPlanRef = "jstests/core/index/hashed/hashed_index_queries.js; src/mongo/db/query/planner_ixselect.cpp, index_bounds_builder.cpp"
	// The hashes below are $toHashedIndexKey's (manual:
	// reference/operator/aggregation/toHashedIndexKey gives "string to
	// hash"), which is the key a hashed index stores.
	hashOfString = "763543691661428748"
	hashOfNull   = "2338878944348059895"
)

func hashedCreate(key, extra string) string {
	return `{"createIndexes": "c", "indexes": [{"key": ` + key + `, "name": "h"` + extra + `}]}`
}

func TestHashedIndexSpec(t *testing.T) {
	cov := cover{family: commandFam, op: "createIndexes", col: errorCol}
	runCmdCases(t, []cmdCase{
		{name: "hashed: unique is refused", ref: "jstests/core/index/hashed/single_field_hashed_index.js; src/mongo/db/index/hash_access_method.cpp", cov: cov,
			cmd: hashedCreate(`{"a": "hashed"}`, `, "unique": true`), code: mongoerr.ErrHashedUnique, msg: "Currently hashed indexes cannot guarantee uniqueness. Use a regular index."},
		{name: "hashed: two hashed fields", ref: hashedSpecRef, cov: cov, cmd: hashedCreate(`{"c": 1, "a": "hashed", "b": "hashed"}`, ""),
			code: mongoerr.ErrHashedFieldCount, msg: `A maximum of one index field is allowed to be hashed but found 2 for 'key' { c: 1, a: "hashed", b: "hashed" }`},
		{name: "hashed: compounded with another plugin", ref: hashedSpecRef + "; src/mongo/db/catalog/index_key_validate.cpp (validateKeyPattern)", cov: cov,
			cmd:  hashedCreate(`{"a": "hashed", "c": 1, "b": "2dsphere"}`, ""),
			code: mongoerr.CannotCreateIndex, msg: `Error in specification { key: { a: "hashed", c: 1, b: "2dsphere" }, name: "h" } :: caused by :: Can't use more than one index plugin for a single index.`},
		{name: "hashed: compounded with a wildcard field", ref: hashedSpecRef + "; src/mongo/db/catalog/index_key_validate.cpp (validateKeyPattern)", cov: cov,
			cmd:  hashedCreate(`{"$**": 1, "b": "hashed"}`, ""),
			code: mongoerr.CannotCreateIndex, msg: `Error in specification { key: { $**: 1, b: "hashed" }, name: "h" } :: caused by :: Can't use more than one index plugin for a single index.`},
		{name: "hashed: the first plugin named must be known", ref: "src/mongo/db/catalog/index_key_validate.cpp (validateKeyPattern: IndexNames::findPluginName)", cov: cov,
			cmd:  hashedCreate(`{"a": "hash", "b": "hashed"}`, ""),
			code: mongoerr.CannotCreateIndex, msg: `Error in specification { key: { a: "hash", b: "hashed" }, name: "h" } :: caused by :: Unknown index plugin 'hash'`},
		{name: "geoHaystack: refused since 5.0", ref: "src/mongo/db/catalog/index_key_validate.cpp (validateKeyPattern: IndexNames::GEO_HAYSTACK)", cov: cov,
			cmd:  hashedCreate(`{"pos": "geoHaystack", "type": 1}`, `, "bucketSize": 1`),
			code: mongoerr.CannotCreateIndex, msg: `Error in specification { key: { pos: "geoHaystack", type: 1 }, name: "h", bucketSize: 1 } :: caused by :: GeoHaystack indexes cannot be created in version 5.0 and above`},
		{name: "text: refused under apiStrict", ref: "src/mongo/db/catalog/index_key_validate.cpp (validateIndexSpec: apiStrict and a text or columnstore plugin); jstests/core/query/api/api_version_unstable_indexes.js", cov: cov,
			cmd:  `{"createIndexes": "c", "indexes": [{"key": {"a": "text"}, "name": "t"}], "apiVersion": "1", "apiStrict": true}`,
			code: mongoerr.APIStrictError, msg: `Error in specification { key: { a: "text" }, name: "t" } :: caused by :: text indexes cannot be created with apiStrict: true`},
		{name: "columnstore: refused under apiStrict, before the wildcard plugin's checks", ref: "src/mongo/db/catalog/index_key_validate.cpp (validateIndexSpec)", cov: cov,
			cmd:  `{"createIndexes": "c", "indexes": [{"key": {"$**": "columnstore"}, "name": "cs"}], "apiVersion": "1", "apiStrict": true}`,
			code: mongoerr.APIStrictError, msg: `Error in specification { key: { $**: "columnstore" }, name: "cs" } :: caused by :: columnstore indexes cannot be created with apiStrict: true`},
		{name: "hashed: seed is not an index option", ref: "src/mongo/db/catalog/index_key_validate.cpp (allowedFieldNames has no seed or numInitialChunks)", cov: cov,
			cmd:  hashedCreate(`{"a": "hashed"}`, `, "seed": 1`),
			code: mongoerr.InvalidIndexSpecificationOption, msg: `Error in specification { key: { a: "hashed" }, name: "h", seed: 1 } :: caused by :: The field 'seed' is not valid for an index specification. Specification: { key: { a: "hashed" }, name: "h", seed: 1 }`},
		{name: "hashed: _id_ is reserved for {_id: 1}", ref: "jstests/core/index/index_id_options.js", cov: cov,
			cmd:  `{"createIndexes": "c", "indexes": [{"key": {"_id": "hashed"}, "name": "_id_"}]}`,
			code: mongoerr.BadValue, msg: `The index name '_id_' is reserved for the _id index, which must have key pattern {_id: 1}, found key: { _id: "hashed" }`},
		{name: "hashed: an array in the key at build", ref: hashedKeysRef, cov: cov, docs: `[{"_id": 1, "a": {"b": [1]}}]`,
			cmd:  hashedCreate(`{"a.b": "hashed"}`, ""),
			code: mongoerr.ErrHashedArray}, // the message names the build's UUIDs
		{name: "hashed: listIndexes shows the specs as given", ref: hashedSpecRef + "; manual: reference/command/listIndexes",
			cov: cover{family: commandFam, op: "createIndexes", col: semantics},
			setup: []string{hashedCreate(`{"a": "hashed"}`, `, "sparse": true`), `{"createIndexes": "c", "indexes": [{"key": {"a": 1, "b": "hashed", "c": -1}, "name": "a_1_b_hashed_c_-1"}]}`,
				`{"createIndexes": "c", "indexes": [{"key": {"_id": "hashed"}, "name": "_id_hashed"}]}`},
			cmd:      `{"listIndexes": "c"}`,
			want:     `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.c", "firstBatch": "*"}}`,
			thenFind: `{"listIndexes": "c"}`,
			thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.c", "firstBatch": [{"v": 2, "key": {"_id": 1}, "name": "_id_"},
				{"v": 2, "key": {"a": "hashed"}, "name": "h", "sparse": true}, {"v": 2, "key": {"a": 1, "b": "hashed", "c": -1}, "name": "a_1_b_hashed_c_-1"},
				{"v": 2, "key": {"_id": "hashed"}, "name": "_id_hashed"}]}}`},
	})
}

func TestHashedIndexKeys(t *testing.T) {
	h := hashedCreate(`{"a": "hashed"}`, "")
	cmp := hashedCreate(`{"a": 1, "b.c": "hashed"}`, "")
	cov := cover{family: commandFam, op: "insert", col: errorCol}
	runCmdCases(t, []cmdCase{
		{name: "hashed: an array value is refused", ref: hashedKeysRef, cov: cov, setup: []string{h},
			cmd: `{"insert": "c", "documents": [{"_id": 1, "a": [1]}]}`, writeError: true,
			code: mongoerr.ErrHashedArray, msg: "Error: hashed indexes do not currently support array values. Found array at path: a"},
		{name: "hashed: an array along the path names its prefix", ref: hashedKeysRef, cov: cov, setup: []string{cmp},
			cmd: `{"insert": "c", "documents": [{"_id": 1, "a": 1, "b": [{"c": 1}]}]}`, writeError: true,
			code: mongoerr.ErrHashedArray, msg: "Error: hashed indexes do not currently support array values. Found array at path: b"},
		{name: "hashed: no field of a compound hashed index may hold an array", ref: hashedKeysRef, cov: cov, setup: []string{cmp},
			cmd: `{"insert": "c", "documents": [{"_id": 1, "a": [1], "b": {"c": 1}}]}`, writeError: true,
			code: mongoerr.ErrHashedArray, msg: "Error: hashed indexes do not currently support array values. Found array at path: a"},
		{name: "hashed: an array beside the path is indexed", ref: hashedKeysRef, cov: cover{family: commandFam, op: "find"}, setup: []string{cmp},
			docs: `[{"_id": 1, "a": 1, "b": {"c": 2, "d": [1]}}]`,
			cmd:  `{"find": "c", "filter": {"b.c": 2}, "projection": {"_id": 1}, "hint": "h"}`, want: batch(`[{"_id": 1}]`)},
		{name: "hashed: the key is $toHashedIndexKey of the value, null when missing", ref: hashedKeysRef + "; jstests/core/index/hashed/hashed_index_covered_queries.js",
			cov: cover{family: commandFam, op: "find"}, setup: []string{h}, docs: `[{"_id": 1, "a": "string to hash"}, {"_id": 2}]`,
			cmd:  `{"find": "c", "hint": "h", "returnKey": true, "sort": {"_id": 1}}`,
			want: batch(`[{"a": {"$numberLong": "` + hashOfString + `"}}, {"a": {"$numberLong": "` + hashOfNull + `"}}]`)},
		{name: "hashed: values sharing a hash are told apart by FETCH", ref: "jstests/core/index/hashed/single_field_hashed_index.js (3 and 3.1 hash alike)",
			cov: cover{family: commandFam, op: "find"}, setup: []string{h}, docs: `[{"_id": 1, "a": 3}, {"_id": 2, "a": 3.1}, {"_id": 3, "a": {"$numberLong": "3"}}]`,
			cmd: `{"find": "c", "filter": {"a": 3.1}, "hint": "h"}`, want: batch(`[{"_id": 2, "a": 3.1}]`)},
		{name: "hashed: equality to null finds missing fields", ref: "jstests/core/index/hashed/hashed_index_queries_with_logical_operators.js",
			cov: cover{family: commandFam, op: "find"}, setup: []string{h}, docs: `[{"_id": 1, "a": null}, {"_id": 2}, {"_id": 3, "a": 0}]`,
			cmd: `{"find": "c", "filter": {"a": null}, "sort": {"_id": 1}, "hint": "h"}`, want: batch(`[{"_id": 1, "a": null}, {"_id": 2}]`)},
		{name: "hashed: a sparse index skips documents without the fields", ref: "jstests/core/index/hashed/hashed_partial_and_sparse_index.js",
			cov: cover{family: commandFam, op: "find"}, setup: []string{hashedCreate(`{"a": "hashed", "b": 1}`, `, "sparse": true`)},
			docs: `[{"_id": 1, "a": null}, {"_id": 2}, {"_id": 3, "b": 1}]`,
			cmd:  `{"find": "c", "sort": {"_id": 1}, "hint": "h"}`, want: batch(`[{"_id": 1, "a": null}, {"_id": 3, "b": 1}]`)},
		{name: "hashed: an update to an array is refused", ref: hashedKeysRef, cov: cover{family: commandFam, op: "update", col: errorCol},
			setup: []string{h}, docs: `[{"_id": 1, "a": 1}]`,
			cmd: `{"update": "c", "updates": [{"q": {"_id": 1}, "u": {"$set": {"a": [2]}}}]}`, writeError: true,
			code: mongoerr.ErrHashedArray, msg: "Error: hashed indexes do not currently support array values. Found array at path: a"},
	})
}

func TestHashedIndexPlans(t *testing.T) {
	s := newSuite(t)
	cov := explainCase(commandFam, "find")
	const docs = `[{"_id": 1, "a": "string to hash", "b": 1, "c": 1}, {"_id": 2, "a": 2, "b": 2, "c": 2}, {"_id": 3, "b": 3, "c": 3}]`
	plan := func(t *testing.T, db *mongo.Database, find string) (chain string, bounds any) {
		t.Helper()
		p := winningPlan(t, mustCommand(t, db, `{"explain": `+find+`, "verbosity": "queryPlanner"}`))
		if ix := stageNamed(p, "IXSCAN"); ix != nil {
			bounds = field(ix, "indexBounds")
		}
		return stageChain(p), bounds
	}
	s.runCase(t, "hashed: equality is a point on the hash, filtered by FETCH", hashedPlanRef, cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		mustCommand(t, db, hashedCreate(`{"a": "hashed"}`, ""))
		chain, bounds := plan(t, db, `{"find": "c", "filter": {"a": "string to hash"}, "projection": {"_id": 0, "a": 1}}`)
		// Never covered: the key holds the hash, not the value.
		sameValue(t, "stages", chain, `"PROJECTION_SIMPLE>FETCH>IXSCAN"`)
		sameValue(t, "bounds", bounds, `{"a": ["[`+hashOfString+`, `+hashOfString+`]"]}`)
		p := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": {"a": "string to hash"}}, "verbosity": "queryPlanner"}`))
		sameValue(t, "FETCH filter", field(p, "filter"), `{"a": {"$eq": "string to hash"}}`)
		// No path-level multikey tracking for a hashed index, so no
		// multiKeyPaths (src/mongo/db/storage/bson_collection_catalog_entry.cpp).
		ix := stageNamed(p, "IXSCAN")
		sameValue(t, "IXSCAN", ix[1:], `{"keyPattern": {"a": "hashed"}, "indexName": "h", "isMultiKey": false, "isUnique": false, "isSparse": false,
			"isPartial": false, "indexVersion": 2, "direction": "forward", "indexBounds": {"a": ["[`+hashOfString+`, `+hashOfString+`]"]}}`)
	})
	s.runCase(t, "hashed: $in is points on hashes, in hash order", hashedPlanRef+"; jstests/core/index/hashed/single_field_hashed_index.js", cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		mustCommand(t, db, hashedCreate(`{"a": "hashed"}`, ""))
		_, bounds := plan(t, db, `{"find": "c", "filter": {"a": {"$in": [null, "string to hash"]}}}`)
		sameValue(t, "$in bounds", bounds, `{"a": ["[`+hashOfString+`, `+hashOfString+`]", "[`+hashOfNull+`, `+hashOfNull+`]"]}`)
	})
	s.runCase(t, "hashed: no bounds for a range, a regex or a negation", hashedPlanRef+"; jstests/core/index/hashed/hashed_index_queries_with_logical_operators.js", cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		mustCommand(t, db, hashedCreate(`{"a": "hashed", "b": 1}`, ""))
		for _, f := range []string{`{"a": {"$gt": 1}}`, `{"a": {"$regex": "^s"}}`, `{"a": {"$ne": 2}, "b": 2}`, `{"a": {"$in": [{"$regularExpression": {"pattern": "^s", "options": ""}}, 2]}}`, `{"a.x": 1}`} {
			if chain, _ := plan(t, db, `{"find": "c", "filter": `+f+`}`); chain != "COLLSCAN" {
				t.Errorf("%s: want COLLSCAN, got %s", f, chain)
			}
		}
	})
	// {$exists: false} is the negation the planner indexes on a hashed
	// field: a missing field is keyed as null, so its bounds are the hash
	// of null, and FETCH tells missing from null.
	s.runCase(t, "hashed: $exists false is the point on the hash of null", hashedPlanRef+"; jstests/core/index/hashed/hashed_index_queries_with_logical_operators.js", cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id": 1}, {"_id": 2, "a": null}, {"_id": 3, "a": 12, "b": 12}, {"_id": 4, "b": 12}, {"_id": 5, "a": null, "b": 12}]`)
		mustCommand(t, db, hashedCreate(`{"a": "hashed", "b": 1}`, ""))
		chain, bounds := plan(t, db, `{"find": "c", "filter": {"a": {"$exists": false}, "b": 12}}`)
		sameValue(t, "stages", chain, `"FETCH>IXSCAN"`)
		sameValue(t, "bounds", bounds, `{"a": ["[`+hashOfNull+`, `+hashOfNull+`]"], "b": ["[12, 12]"]}`)
		docs, _ := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"a": {"$exists": false}, "b": 12}}`))
		sameDocs(t, "documents", docs, `[{"_id": 4, "b": 12}]`, false)
	})
	s.runCase(t, "hashed: a compound index covers its other fields", "jstests/core/index/hashed/hashed_index_covered_queries.js", cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		mustCommand(t, db, hashedCreate(`{"b": 1, "a": "hashed", "c": -1}`, ""))
		chain, bounds := plan(t, db, `{"find": "c", "filter": {"b": {"$gt": 1}, "c": 2}, "projection": {"_id": 0, "b": 1, "c": 1}}`)
		sameValue(t, "stages", chain, `"PROJECTION_COVERED>IXSCAN"`)
		sameValue(t, "bounds", bounds, `{"b": ["(1, inf.0]"], "a": ["[MinKey, MaxKey]"], "c": ["[2, 2]"]}`)
		chain, _ = plan(t, db, `{"find": "c", "filter": {"b": 1, "a": 2}, "projection": {"_id": 0, "b": 1}}`)
		sameValue(t, "a hashed predicate needs FETCH", chain, `"PROJECTION_SIMPLE>FETCH>IXSCAN"`)
	})
	s.runCase(t, "hashed: the hashed field gives no sort order", "jstests/core/index/hashed/hashed_index_sort.js", cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		mustCommand(t, db, hashedCreate(`{"b": 1, "a": "hashed", "c": 1}`, ""))
		chain, _ := plan(t, db, `{"find": "c", "filter": {"b": 1}, "sort": {"a": 1}}`)
		sameValue(t, "sort on the hashed field", chain, `"SORT>FETCH>IXSCAN"`)
		chain, _ = plan(t, db, `{"find": "c", "filter": {"b": 1, "a": 2}, "sort": {"c": 1}}`)
		sameValue(t, "a hash point is skipped for the sort", chain, `"FETCH>IXSCAN"`)
	})
	s.runCase(t, "hashed: a sparse hashed index cannot answer null", "jstests/core/index/hashed/hashed_partial_and_sparse_index.js", cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		mustCommand(t, db, hashedCreate(`{"a": "hashed", "b": 1}`, `, "sparse": true`))
		for _, f := range []string{`{"a": null}`, `{"a": {"$exists": false}}`, `{"a": {"$in": [null, 2]}}`} {
			if chain, _ := plan(t, db, `{"find": "c", "filter": `+f+`}`); chain != "COLLSCAN" {
				t.Errorf("%s: want COLLSCAN, got %s", f, chain)
			}
		}
		chain, bounds := plan(t, db, `{"find": "c", "filter": {"a": {"$exists": true}}}`)
		sameValue(t, "$exists: true", chain, `"FETCH>IXSCAN"`)
		sameValue(t, "$exists: true bounds", bounds, `{"a": ["[MinKey, MaxKey]"], "b": ["[MinKey, MaxKey]"]}`)
	})
	s.runCase(t, "hashed: a count FETCHes to check the hash's matches", "jstests/core/index/hashed/hashed_index_queries.js (count)",
		explainCase(commandFam, "count"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			mustCommand(t, db, hashedCreate(`{"a": "hashed", "b": 1}`, ""))
			p := winningPlan(t, mustCommand(t, db, `{"explain": {"count": "c", "query": {"a": 2}}, "verbosity": "queryPlanner"}`))
			sameValue(t, "count a", stageChain(p), `"COUNT>FETCH>IXSCAN"`)
			reply := mustCommand(t, db, `{"count": "c", "query": {"a": {"$in": [2, "string to hash", 7]}}}`)
			sameValue(t, "n", field(reply, "n"), `2`)
		})
	s.runCase(t, "hashed: no DISTINCT_SCAN of the hashed field", "jstests/core/index/hashed/distinct_with_hashed_index.js",
		explainCase(commandFam, "distinct"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			mustCommand(t, db, hashedCreate(`{"b": 1, "a": "hashed"}`, ""))
			p := winningPlan(t, mustCommand(t, db, `{"explain": {"distinct": "c", "key": "a"}, "verbosity": "queryPlanner"}`))
			sameValue(t, "distinct a", stageChain(p), `"PROJECTION_SIMPLE>COLLSCAN"`)
			p = winningPlan(t, mustCommand(t, db, `{"explain": {"distinct": "c", "key": "b"}, "verbosity": "queryPlanner"}`))
			sameValue(t, "distinct b", stageChain(p), `"PROJECTION_COVERED>DISTINCT_SCAN"`)
		})
}
