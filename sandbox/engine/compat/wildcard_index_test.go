package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Wildcard indexes ({"$**": 1}, {"path.$**": 1}), the index the attribute
// pattern leans on. Spec rules: src/mongo/db/catalog/index_key_validate.cpp
// (validateKeyPattern, validateIndexSpec's wildcardProjection checks),
// index_catalog_impl.cpp (_isSpecOk: no sparse, unique or TTL wildcard
// index), jstests/core/index/wildcard/wildcard_index_validindex.js. Keys:
// src/mongo/db/index/wildcard_key_generator.cpp. Planning:
// src/mongo/db/query/planner_wildcard_helpers.cpp, planner_ixselect.cpp
// (nodeIsSupportedByWildcardIndex), jstests/core/wildcard_index_hint.js,
// wildcard_index_empty_arrays.js, wildcard_index_basic_index_bounds.js.

const (
	wcValidRef  = "jstests/core/index/wildcard/wildcard_index_validindex.js; src/mongo/db/catalog/index_key_validate.cpp"
	wcCatalogRf = "jstests/core/index/wildcard/wildcard_index_validindex.js; src/mongo/db/catalog/index_catalog_impl.cpp (_isSpecOk)"
	wcKeysRef   = "src/mongo/db/index/wildcard_key_generator.cpp; jstests/core/wildcard_index_empty_arrays.js"
	wcPlanRef   = "src/mongo/db/query/planner_wildcard_helpers.cpp; jstests/core/wildcard_index_basic_index_bounds.js"
	wcHintRef   = "jstests/core/wildcard_index_hint.js; src/mongo/db/query/query_planner.cpp"
)

func wcCreate(key, extra string) string {
	return `{"createIndexes": "c", "indexes": [{"key": ` + key + `, "name": "w"` + extra + `}]}`
}

func TestWildcardIndexSpec(t *testing.T) {
	cov := cover{family: commandFam, op: "createIndexes", col: errorCol}
	runCmdCases(t, []cmdCase{
		{name: "wildcard: a zero key value", ref: wcValidRef, cov: cov, cmd: wcCreate(`{"$**": 0}`, ""),
			code: mongoerr.CannotCreateIndex, msg: `Error in specification { key: { $**: 0 }, name: "w" } :: caused by :: Values in the index key pattern cannot be 0.`},
		// validateKeyPattern reads each key's name as a FieldRef.
		{name: "an empty key name", ref: wcValidRef, cov: cov, cmd: wcCreate(`{"": 1}`, ""),
			code: mongoerr.CannotCreateIndex, msg: `Error in specification { key: { : 1 }, name: "w" } :: caused by :: Index keys cannot be an empty field.`},
		{name: "a key name with an empty part", ref: wcValidRef, cov: cov, cmd: wcCreate(`{"a..b": 1}`, ""),
			code: mongoerr.CannotCreateIndex, msg: `Error in specification { key: { a..b: 1 }, name: "w" } :: caused by :: Index keys cannot contain an empty field.`},
		{name: "a key name with a $-part", ref: wcValidRef, cov: cov, cmd: wcCreate(`{"a.$b": 1}`, ""),
			code: mongoerr.CannotCreateIndex, msg: `Error in specification { key: { a.$b: 1 }, name: "w" } :: caused by :: Index key contains an illegal field name: field name starts with '$'.`},
		{name: "a DBRef's $id may be indexed", ref: wcValidRef, cov: cover{family: commandFam, op: "createIndexes", col: semantics}, cmd: wcCreate(`{"a.$id": 1}`, ""),
			want: `{"numIndexesBefore": 1, "numIndexesAfter": 2}`},
		{name: "wildcard: the plugin named by a string", ref: wcValidRef, cov: cov, cmd: wcCreate(`{"$**": "wildcard"}`, ""),
			code: mongoerr.CannotCreateIndex, msg: `Error in specification { key: { $**: "wildcard" }, name: "w" } :: caused by :: The key pattern value for an 'wildcard' index must be a non-zero number, not a string.`},
		{name: "wildcard: hashed $**", ref: wcValidRef, cov: cov, cmd: wcCreate(`{"$**": "hashed"}`, ""),
			code: mongoerr.CannotCreateIndex, msg: `Error in specification { key: { $**: "hashed" }, name: "w" } :: caused by :: Index key contains an illegal field name: field name starts with '$'.`},
		{name: "wildcard: an unknown plugin on $**", ref: wcValidRef, cov: cov, cmd: wcCreate(`{"$**": "hello"}`, ""),
			code: mongoerr.CannotCreateIndex, msg: `Error in specification { key: { $**: "hello" }, name: "w" } :: caused by :: Unknown index plugin 'hello'`},
		{name: "wildcard: $** twice in a path", ref: wcValidRef, cov: cov, cmd: wcCreate(`{"a.$**.$**": 1}`, ""),
			code: mongoerr.CannotCreateIndex, msg: `Error in specification { key: { a.$**.$**: 1 }, name: "w" } :: caused by :: Index key contains an illegal field name: field name starts with '$'.`},
		{name: "wildcard: sparse", ref: wcCatalogRf, cov: cov, cmd: wcCreate(`{"$**": 1}`, `, "sparse": true`),
			code: mongoerr.CannotCreateIndex, msg: "Index type 'wildcard' does not support the sparse option"},
		{name: "wildcard: unique", ref: wcCatalogRf, cov: cov, cmd: wcCreate(`{"$**": 1}`, `, "unique": true`),
			code: mongoerr.CannotCreateIndex, msg: "Index type 'wildcard' does not support the unique option"},
		{name: "wildcard: TTL", ref: wcCatalogRf, cov: cov, cmd: wcCreate(`{"$**": 1}`, `, "expireAfterSeconds": 3600`),
			code: mongoerr.CannotCreateIndex, msg: "Index type 'wildcard' cannot be a TTL index"},
		{name: "wildcard: index version 1", ref: wcCatalogRf + " (validateKeyPattern at the spec's version)", cov: cov, cmd: wcCreate(`{"$**": 1}`, `, "v": 1`),
			code: mongoerr.CannotCreateIndex, msg: "bad index key pattern { $**: 1 }: 'wildcard' index plugin is not allowed with index version v:1"},
		{name: "wildcardProjection on a regular index", ref: wcValidRef, cov: cov, cmd: wcCreate(`{"a": 1}`, `, "wildcardProjection": {"a": 1}`),
			code: mongoerr.BadValue, msg: `Error in specification { key: { a: 1 }, name: "w", wildcardProjection: { a: 1 } } :: caused by :: The field 'wildcardProjection' is only allowed in an 'wildcard' index`},
		{name: "wildcardProjection on a text index", ref: wcValidRef, cov: cov, cmd: wcCreate(`{"$**": "text"}`, `, "wildcardProjection": {"a": 1}`),
			code: mongoerr.BadValue, msg: `Error in specification { key: { $**: "text" }, name: "w", wildcardProjection: { a: 1 } } :: caused by :: The field 'wildcardProjection' is only allowed in an 'wildcard' index`},
		{name: "index spec: the key pattern is checked before a missing name", ref: "src/mongo/db/catalog/index_key_validate.cpp (validateIndexSpec checks each field in turn, the required ones after)", cov: cov,
			cmd:  `{"createIndexes": "c", "indexes": [{"key": {"$**": 0}}]}`,
			code: mongoerr.CannotCreateIndex, msg: `Error in specification { key: { $**: 0 } } :: caused by :: Values in the index key pattern cannot be 0.`},
		{name: "index spec: an unknown field is reported before the key pattern", ref: "src/mongo/db/catalog/index_key_validate.cpp (validateIndexSpecFieldNames runs first)", cov: cov,
			cmd:  `{"createIndexes": "c", "indexes": [{"key": {"$**": 0}, "name": "w", "bogus": 1}]}`,
			code: mongoerr.InvalidIndexSpecificationOption, msg: `Error in specification { key: { $**: 0 }, name: "w", bogus: 1 } :: caused by :: The field 'bogus' is not valid for an index specification. Specification: { key: { $**: 0 }, name: "w", bogus: 1 }`},
		{name: "wildcardProjection not a document", ref: wcValidRef, cov: cov, cmd: wcCreate(`{"$**": 1}`, `, "wildcardProjection": "a"`),
			code: mongoerr.TypeMismatch, msg: `Error in specification { key: { $**: 1 }, name: "w", wildcardProjection: "a" } :: caused by :: The field 'wildcardProjection' must be a non-empty object, but got string`},
		{name: "wildcardProjection with a subtree key", ref: wcValidRef, cov: cov, cmd: wcCreate(`{"a.$**": 1}`, `, "wildcardProjection": {"b": 0}`),
			code: mongoerr.FailedToParse, msg: `Error in specification { key: { a.$**: 1 }, name: "w", wildcardProjection: { b: 0 } } :: caused by :: The field 'wildcardProjection' is only allowed when 'key' is {"$**": ±1}`},
		{name: "wildcardProjection empty", ref: wcValidRef, cov: cov, cmd: wcCreate(`{"$**": 1}`, `, "wildcardProjection": {}`),
			code: mongoerr.FailedToParse, msg: `Error in specification { key: { $**: 1 }, name: "w", wildcardProjection: {} } :: caused by :: The 'wildcardProjection' field can't be an empty object`},
		{name: "wildcardProjection mixing inclusion and exclusion", ref: wcValidRef, cov: cov, cmd: wcCreate(`{"$**": 1}`, `, "wildcardProjection": {"a": 1, "b": 0}`),
			code: 31254, msg: `Error in specification { key: { $**: 1 }, name: "w", wildcardProjection: { a: 1, b: 0 } } :: caused by :: Failed to parse: wildcardProjection :: caused by :: Cannot do exclusion on field b in inclusion projection`},
		{name: "wildcardProjection with a computed field", ref: wcValidRef + "; src/mongo/db/query/projection_parser.cpp (51271)", cov: cov,
			cmd:  wcCreate(`{"$**": 1}`, `, "wildcardProjection": {"a": 1, "b": "x"}`),
			code: 51271, msg: `Error in specification { key: { $**: 1 }, name: "w", wildcardProjection: { a: 1, b: "x" } } :: caused by :: Failed to parse: wildcardProjection :: caused by :: Bad projection specification, cannot use computed fields when parsing a spec in kBanComputedFields mode`},
		{name: "wildcard: listIndexes shows the projection as given", ref: wcValidRef + "; manual: reference/command/listIndexes",
			cov:      cover{family: commandFam, op: "createIndexes", col: semantics},
			setup:    []string{wcCreate(`{"$**": -1}`, `, "wildcardProjection": {"a": 1, "b.c": 1}`), `{"createIndexes": "c", "indexes": [{"key": {"x.$**": 1}, "name": "x.$**_1"}]}`},
			cmd:      `{"listIndexes": "c"}`,
			want:     `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.c", "firstBatch": "*"}}`,
			thenFind: `{"listIndexes": "c"}`,
			thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.c", "firstBatch": [{"v": 2, "key": {"_id": 1}, "name": "_id_"},
				{"v": 2, "key": {"$**": -1}, "name": "w", "wildcardProjection": {"a": 1, "b.c": 1}}, {"v": 2, "key": {"x.$**": 1}, "name": "x.$**_1"}]}}`},
	})
}

// attrDocs is a collection in the attribute pattern's shape.
const attrDocs = `[{"_id": 10, "a": 1, "b": 1, "c": {"d": 1, "e": 1}}, {"_id": 11, "a": 1, "b": 2, "c": {"d": 2, "e": 2}},
	{"_id": 12, "a": 2, "b": 2, "c": {"d": 1, "e": 2}}, {"_id": 13, "a": 2, "b": 1, "c": {"d": 2, "e": 2}}, {"_id": 14, "a": 2, "b": 2, "c": {"e": 2}}]`

// batch is a find's reply on collection c when docs are all it returns.
func batch(docs string) string {
	return `{"cursor": {"firstBatch": ` + docs + `, "id": {"$numberLong": "0"}, "ns": "{{db}}.c"}}`
}

func TestWildcardIndexQueries(t *testing.T) {
	star := wcCreate(`{"$**": 1}`, "")
	cov := cover{family: commandFam, op: "find"}
	runCmdCases(t, []cmdCase{
		{name: "wildcard: equality through the index", ref: wcHintRef, cov: cov, docs: attrDocs, setup: []string{star},
			cmd:  `{"find": "c", "filter": {"c.d": 1}, "projection": {"_id": 1}, "sort": {"_id": 1}, "hint": {"$**": 1}}`,
			want: batch(`[{"_id": 10}, {"_id": 12}]`)},
		{name: "wildcard: hinted by name, two paths", ref: wcHintRef, cov: cov, docs: attrDocs, setup: []string{star},
			cmd:  `{"find": "c", "filter": {"a": 1, "c.e": 1}, "projection": {"_id": 1}, "hint": "w"}`,
			want: batch(`[{"_id": 10}]`)},
		{name: "wildcard: a subtree index holds only its subtree", ref: wcHintRef, cov: cov, docs: attrDocs,
			setup: []string{wcCreate(`{"c.$**": 1}`, "")},
			cmd:   `{"find": "c", "filter": {"a": 1}, "hint": {"c.$**": 1}}`,
			code:  mongoerr.NoQueryExecutionPlans,
			msg:   "error processing query: ns={{db}}.cTree: a $eq 1\nSort: {}\nProj: {}\n planner returned error :: caused by :: No query solutions"},
		{name: "wildcard: hinting a wildcard index that does not exist", ref: wcHintRef, cov: cov, docs: attrDocs,
			cmd:  `{"find": "c", "filter": {"a": 1}, "hint": {"$**": 1}}`,
			code: mongoerr.BadValue,
			msg:  "error processing query: ns={{db}}.cTree: a $eq 1\nSort: {}\nProj: {}\n planner returned error :: caused by :: hint provided does not correspond to an existing index"},
		{name: "wildcard: equality to an empty array", ref: wcKeysRef, cov: cov, setup: []string{star},
			docs: `[{"_id": 1, "c": [], "d": {"e": [5, 6]}}, {"_id": 2, "c": [1, 2], "d": {"e": []}}, {"_id": 3, "b": [[]], "f": [{"g": []}]}]`,
			cmd:  `{"find": "c", "filter": {"$or": [{"c": []}, {"d.e": []}, {"b": []}, {"f.0.g": []}]}, "projection": {"_id": 1}, "sort": {"_id": 1}, "hint": {"$**": 1}}`,
			want: batch(`[{"_id": 1}, {"_id": 2}, {"_id": 3}]`)},
		{name: "wildcard: an array index in the query path", ref: wcKeysRef, cov: cov, setup: []string{star},
			docs: `[{"_id": 1, "c": [1, 2]}, {"_id": 2, "c": [2, 1]}, {"_id": 3, "c": {"0": 1}}]`,
			cmd:  `{"find": "c", "filter": {"c.0": 1}, "projection": {"_id": 1}, "sort": {"_id": 1}, "hint": {"$**": 1}}`,
			want: batch(`[{"_id": 1}, {"_id": 3}]`)},
		{name: "wildcard: _id is not indexed by default", ref: wcKeysRef + " (kDefaultProjection {_id: 0})", cov: cov, docs: attrDocs, setup: []string{star},
			cmd:  `{"find": "c", "filter": {"_id": 10}, "hint": {"$**": 1}}`,
			code: mongoerr.NoQueryExecutionPlans,
			msg:  "error processing query: ns={{db}}.cTree: _id $eq 10\nSort: {}\nProj: {}\n planner returned error :: caused by :: No query solutions"},
		{name: "wildcard: an exclusion projection leaves its paths out", ref: wcPlanRef, cov: cov, docs: attrDocs,
			setup: []string{wcCreate(`{"$**": 1}`, `, "wildcardProjection": {"c": 0}`)},
			cmd:   `{"find": "c", "filter": {"c.d": 1}, "hint": "w"}`,
			code:  mongoerr.NoQueryExecutionPlans,
			msg:   "error processing query: ns={{db}}.cTree: c.d $eq 1\nSort: {}\nProj: {}\n planner returned error :: caused by :: No query solutions"},
		{name: "wildcard: a projection of _id alone indexes only _id", ref: wcPlanRef + "; src/mongo/db/exec/projection_executor_utils.cpp (applyProjectionToFields)", cov: cov, docs: attrDocs,
			setup: []string{wcCreate(`{"$**": 1}`, `, "wildcardProjection": {"_id": 1}`)},
			cmd:   `{"find": "c", "filter": {"a": 1}, "hint": "w"}`,
			code:  mongoerr.NoQueryExecutionPlans,
			msg:   "error processing query: ns={{db}}.cTree: a $eq 1\nSort: {}\nProj: {}\n planner returned error :: caused by :: No query solutions"},
		{name: "wildcard: dropped by its key pattern", ref: "manual: reference/command/dropIndexes (index: a key pattern)", cov: cover{family: commandFam, op: "dropIndexes"}, docs: attrDocs,
			setup: []string{star}, cmd: `{"dropIndexes": "c", "index": {"$**": 1}}`, want: `{"nIndexesWas": 2}`,
			thenFind: `{"listIndexes": "c"}`, thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.c", "firstBatch": [{"v": 2, "key": {"_id": 1}, "name": "_id_"}]}}`},
		{name: "wildcard: $ne null through the index", ref: wcPlanRef + "; src/mongo/db/query/planner_ixselect.cpp (notEqualsNullCanUseIndex)", cov: cov, setup: []string{star},
			docs: `[{"_id": 1, "a": null}, {"_id": 2, "a": {"b": null}}, {"_id": 3, "a": 0}, {"_id": 4}]`,
			cmd:  `{"find": "c", "filter": {"a": {"$ne": null}}, "projection": {"_id": 1}, "sort": {"_id": 1}, "hint": {"$**": 1}}`,
			want: batch(`[{"_id": 2}, {"_id": 3}]`)},
		{name: "wildcard: index kept up to date by updates and deletes", ref: wcKeysRef + "; src/mongo/db/index/index_access_method.cpp (prepareUpdate)", cov: cov,
			docs: attrDocs, setup: []string{star, `{"update": "c", "updates": [{"q": {"_id": 10}, "u": {"$set": {"c.d": 7}}}]}`, `{"delete": "c", "deletes": [{"q": {"_id": 12}, "limit": 1}]}`},
			cmd:  `{"find": "c", "filter": {"c.d": {"$in": [1, 7]}}, "projection": {"_id": 1}, "sort": {"_id": 1}, "hint": {"$**": 1}}`,
			want: batch(`[{"_id": 10}]`)},
	})
}

func TestWildcardIndexExplain(t *testing.T) {
	s := newSuite(t)
	cov := explainCase(commandFam, "find")
	s.runCase(t, "wildcard: the IXSCAN of one path", wcPlanRef, cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), attrDocs)
		mustCommand(t, db, wcCreate(`{"$**": 1}`, ""))
		ix, plan := ixscanOf(t, db, `{"find": "c", "filter": {"c.d": {"$gt": 1}}}`)
		sameValue(t, "FETCH", field(plan, "stage"), `"FETCH"`)
		got := bson.D{}
		for _, k := range []string{"keyPattern", "indexName", "isMultiKey", "multiKeyPaths", "isUnique", "isSparse", "isPartial", "indexVersion", "direction", "indexBounds"} {
			got = append(got, bson.E{Key: k, Value: field(ix, k)})
		}
		sameValue(t, "IXSCAN", got, `{"keyPattern": {"$_path": 1, "c.d": 1}, "indexName": "w", "isMultiKey": false,
			"multiKeyPaths": {"$_path": [], "c.d": []}, "isUnique": false, "isSparse": false, "isPartial": false, "indexVersion": 2,
			"direction": "forward", "indexBounds": {"$_path": ["[\"c.d\", \"c.d\"]"], "c.d": ["(1, inf.0]"]}}`)
	})
	s.runCase(t, "wildcard: $exists scans the subpaths", wcPlanRef, cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), attrDocs)
		mustCommand(t, db, wcCreate(`{"$**": 1}`, ""))
		ix, _ := ixscanOf(t, db, `{"find": "c", "filter": {"c": {"$exists": true}}}`)
		sameValue(t, "bounds", field(ix, "indexBounds"), `{"$_path": ["[\"c\", \"c\"]", "[\"c.\", \"c/\")"], "c": ["[MinKey, MaxKey]"]}`)
	})
	s.runCase(t, "wildcard: multikey paths and array-index readings", wcPlanRef, cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id": 1, "c": [{"d": 1}, {"d": 2}]}, {"_id": 2, "c": {"d": 3}}]`)
		mustCommand(t, db, wcCreate(`{"$**": 1}`, ""))
		ix, _ := ixscanOf(t, db, `{"find": "c", "filter": {"c.d": 2}}`)
		sameValue(t, "multikey", bson.D{{Key: "m", Value: field(ix, "isMultiKey")}, {Key: "p", Value: field(ix, "multiKeyPaths")}},
			`{"m": true, "p": {"$_path": [], "c.d": ["c"]}}`)
		ix, plan := ixscanOf(t, db, `{"find": "c", "filter": {"c.0.d": 1}}`)
		sameValue(t, "bounds", field(ix, "indexBounds"), `{"$_path": ["[\"c.0.d\", \"c.0.d\"]", "[\"c.d\", \"c.d\"]"], "c.0.d": ["[1, 1]"]}`)
		sameValue(t, "FETCH filter", field(plan, "filter"), `{"c.0.d": {"$eq": 1}}`)
	})
	s.runCase(t, "wildcard: no index for an object or null", wcPlanRef+"; src/mongo/db/query/planner_ixselect.cpp (canUseWildcardIndex)", cov,
		func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), attrDocs)
			mustCommand(t, db, wcCreate(`{"$**": 1}`, ""))
			for _, f := range []string{`{"c": {"d": 1, "e": 1}}`, `{"a": null}`, `{"a": {"$exists": false}}`, `{"a": {"$in": [1, null]}}`} {
				plan := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": `+f+`}, "verbosity": "queryPlanner"}`))
				if field(plan, "stage") != "COLLSCAN" {
					t.Errorf("%s: want COLLSCAN, got %s", f, relaxed(plan))
				}
			}
		})
	s.runCase(t, "wildcard: a distinct scans the view of its key", "jstests/core/wildcard_index_distinct_scan.js; src/mongo/db/query/get_executor.cpp (turnIxscanIntoDistinctIxscan)",
		explainCase(commandFam, "distinct"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": 1, "b": 5}, {"_id": 2, "a": 2, "b": 6}, {"_id": 3, "a": 2, "b": 7}, {"_id": 4, "a": 3, "b": 8}]`)
			mustCommand(t, db, wcCreate(`{"$**": 1}`, ""))
			plan := winningPlan(t, mustCommand(t, db, `{"explain": {"distinct": "c", "key": "a", "query": {"a": {"$lt": 3}}}, "verbosity": "queryPlanner"}`))
			if got := stageChain(plan); got != "PROJECTION_COVERED>DISTINCT_SCAN" {
				t.Errorf("plan %s: %s", got, relaxed(plan))
			}
			ds := stageNamed(plan, "DISTINCT_SCAN")
			sameValue(t, "keyPattern", field(ds, "keyPattern"), `{"$_path": 1, "a": 1}`)
			// A query on another path is that path's view, with FETCH.
			plan = winningPlan(t, mustCommand(t, db, `{"explain": {"distinct": "c", "key": "a", "query": {"b": {"$gte": 7}}}, "verbosity": "queryPlanner"}`))
			if got := stageChain(plan); got != "PROJECTION_SIMPLE>FETCH>IXSCAN" {
				t.Errorf("plan %s: %s", got, relaxed(plan))
			}
			sameValue(t, "keyPattern", field(stageNamed(plan, "IXSCAN"), "keyPattern"), `{"$_path": 1, "b": 1}`)
			reply := mustCommand(t, db, `{"distinct": "c", "key": "a", "query": {"a": {"$lt": 3}}}`)
			sameValue(t, "values", field(reply, "values"), `[1, 2]`)
		})
	// turnIxscanIntoCount (get_executor.cpp) asks nothing about multikey:
	// COUNT_SCAN drops the RecordIds it already counted.
	for _, key := range []string{`{"$**": 1}`, `{"a": 1}`} {
		s.runCase(t, "count scan over a multikey index "+key, "jstests/core/wildcard_index_count.js; src/mongo/db/query/get_executor.cpp (turnIxscanIntoCount)",
			explainCase(commandFam, "count"), func(t *testing.T, db *mongo.Database) {
				insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": 3}, {"_id": 2, "a": null}, {"_id": 3, "a": [-1, 0]}, {"_id": 4, "a": [4, -3, 5]}, {"_id": 5}]`)
				mustCommand(t, db, wcCreate(key, ""))
				plan := winningPlan(t, mustCommand(t, db, `{"explain": {"count": "c", "query": {"a": {"$gt": 0}}}, "verbosity": "queryPlanner"}`))
				if got := stageChain(plan); got != "COUNT>COUNT_SCAN" {
					t.Errorf("plan %s: %s", got, relaxed(plan))
				}
				sameValue(t, "isMultiKey", field(stageNamed(plan, "COUNT_SCAN"), "isMultiKey"), `true`)
				sameValue(t, "n", field(mustCommand(t, db, `{"count": "c", "query": {"a": {"$gt": 0}}}`), "n"), `2`)
			})
	}
}
