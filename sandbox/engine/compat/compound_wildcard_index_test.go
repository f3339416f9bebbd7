package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Compound wildcard indexes ({a: 1, "b.$**": 1}, {"$**": 1, a: 1} with a
// wildcardProjection), which mongod builds since 7.0. Spec rules:
// src/mongo/db/index/wildcard_validation.cpp (validateWildcardIndex,
// validateWildcardProjection), src/mongo/db/catalog/index_key_validate.cpp
// (validateIndexSpec: a compound "$**" index needs a wildcardProjection),
// jstests/core/index/wildcard/compound_wildcard_index_validation.js. Keys:
// src/mongo/db/index/wildcard_key_generator.cpp (the regular fields around
// each ($_path, value), and (..., MinKey, MinKey, ...) for a document with
// no wildcard leaf). Planning: src/mongo/db/query/planner_wildcard_helpers.cpp
// (expandWildcardIndexEntry's "$_path" view of the regular prefix,
// makeAllValuesForPath), jstests/core/index/wildcard/compound_wildcard_index_prefix.js.

const (
	cwiValidRef = "jstests/core/index/wildcard/compound_wildcard_index_validation.js; src/mongo/db/index/wildcard_validation.cpp"
	cwiKeysRef  = "src/mongo/db/index/wildcard_key_generator.cpp; jstests/core/index/wildcard/compound_wildcard_index_unbounded.js"
	cwiPlanRef  = "src/mongo/db/query/planner_wildcard_helpers.cpp; jstests/core/index/wildcard/compound_wildcard_index_prefix.js"
)

func TestCompoundWildcardIndexSpec(t *testing.T) {
	errs := cover{family: commandFam, op: "createIndexes", col: errorCol}
	sem := cover{family: commandFam, op: "createIndexes", col: semantics}
	created := `{"numIndexesBefore": 1, "numIndexesAfter": 2}`
	spec := func(key, wp string) string {
		if wp == "" {
			return wcCreate(key, "")
		}
		return wcCreate(key, `, "wildcardProjection": `+wp)
	}
	runCmdCases(t, []cmdCase{
		{name: "a regular prefix and a subtree", ref: cwiValidRef, cov: sem, cmd: spec(`{"a": 1, "b.$**": 1}`, ""), want: created},
		{name: "a descending wildcard between regular fields", ref: cwiValidRef, cov: sem, cmd: spec(`{"a": 1, "b.$**": -1, "c": 1}`, ""), want: created},
		{name: "all fields, the regular one excluded", ref: cwiValidRef, cov: sem, cmd: spec(`{"$**": 1, "a": 1}`, `{"a": 0}`), want: created},
		{name: "an inclusion that leaves _id out", ref: cwiValidRef, cov: sem, cmd: spec(`{"$**": 1, "other": 1}`, `{"_id": 0, "a": 1}`), want: created},
		{name: "an exclusion that keeps _id", ref: cwiValidRef, cov: sem, cmd: spec(`{"$**": 1, "another": 1}`, `{"_id": 1, "a": 0, "another": 0}`), want: created},
		{name: "_id as the regular field, _id excluded", ref: cwiValidRef, cov: sem, cmd: spec(`{"_id": 1, "$**": 1}`, `{"_id": 0}`), want: created},
		{name: "an excluded prefix of a dotted regular field", ref: cwiValidRef, cov: sem, cmd: spec(`{"a.b": 1, "$**": 1}`, `{"_id": 0, "a": 0}`), want: created},
		{name: "a nested projection", ref: cwiValidRef, cov: sem, cmd: spec(`{"$**": 1, "d": 1}`, `{"a": {"b": 1, "c": 1}}`), want: created},

		{name: "two wildcard fields", ref: cwiValidRef, cov: errs, cmd: spec(`{"a.$**": 1, "b.$**": 1}`, ""),
			code: 7246201, msg: `Error in specification { key: { a.$**: 1, b.$**: 1 }, name: "w" } :: caused by :: Index Key can contain only one wildcard index field`},
		{name: "a regular field inside the wildcard's subtree", ref: cwiValidRef, cov: errs, cmd: spec(`{"a.b.c": 1, "a.b.$**": 1}`, ""),
			code: 7246204, msg: `Error in specification { key: { a.b.c: 1, a.b.$**: 1 }, name: "w" } :: caused by :: A wildcard index field should not overlap with and index key fields if wildcard projection is empty, however 'a.b.c' is overlapping with the wildcard index field.`},
		{name: "all fields without a wildcardProjection", ref: cwiValidRef + "; src/mongo/db/catalog/index_key_validate.cpp (validateIndexSpec)", cov: errs, cmd: spec(`{"a": 1, "$**": 1}`, ""),
			code: mongoerr.CannotCreateIndex, msg: `Error in specification { key: { a: 1, $**: 1 }, name: "w" } :: caused by :: Compound wildcard indexes on all fields must also specify 'wildcardProjection' option`},
		{name: "an empty wildcardProjection", ref: cwiValidRef, cov: errs, cmd: spec(`{"a": 1, "$**": 1}`, `{}`),
			code: mongoerr.FailedToParse, msg: `Error in specification { key: { a: 1, $**: 1 }, name: "w", wildcardProjection: {} } :: caused by :: The 'wildcardProjection' field can't be an empty object`},
		{name: "overlapping projection paths", ref: cwiValidRef, cov: errs, cmd: spec(`{"$**": 1, "c": 1}`, `{"a.b": 1, "a.b.c": 1}`),
			code: 7246200, msg: `Error in specification { key: { $**: 1, c: 1 }, name: "w", wildcardProjection: { a.b: 1, a.b.c: 1 } } :: caused by :: Fields in Wildcard Projection cannot overlap, however 'a.b' is overlapped with 'a.b.c`},
		{name: "a projection including a regular field", ref: cwiValidRef, cov: errs, cmd: spec(`{"a": 1, "$**": 1, "b": 1}`, `{"a": 1, "b": 1}`),
			code: 7246208, msg: `Error in specification { key: { a: 1, $**: 1, b: 1 }, name: "w", wildcardProjection: { a: 1, b: 1 } } :: caused by :: Index Key and Wildcard Projection cannot contain overlapping fields, however 'a' index field is ovverlapping with 'a' wildcardProjection path.`},
		{name: "an included _id when _id is a regular field", ref: cwiValidRef, cov: errs, cmd: spec(`{"_id": 1, "$**": 1}`, `{"_id": 1, "a": 1}`),
			code: 7246208, msg: `Error in specification { key: { _id: 1, $**: 1 }, name: "w", wildcardProjection: { _id: 1, a: 1 } } :: caused by :: Index Key and Wildcard Projection cannot contain overlapping fields, however '_id' index field is ovverlapping with '_id' wildcardProjection path.`},
		{name: "an exclusion missing a regular field", ref: cwiValidRef, cov: errs, cmd: spec(`{"a": 1, "b": 1, "$**": 1}`, `{"b": 0}`),
			code: 7246209, msg: `Error in specification { key: { a: 1, b: 1, $**: 1 }, name: "w", wildcardProjection: { b: 0 } } :: caused by :: wildcardProjection paths must exclude all regular index fields, however 'a'is not excluded.`},
		{name: "excluding only _id", ref: cwiValidRef, cov: errs, cmd: spec(`{"a": 1, "$**": 1}`, `{"_id": 0}`),
			code: 7246210, msg: `Error in specification { key: { a: 1, $**: 1 }, name: "w", wildcardProjection: { _id: 0 } } :: caused by :: wildcardProjection paths must exclude all regular index fields, however 'a'is not excluded.`},
		{name: "excluding a subpath of a regular field", ref: cwiValidRef, cov: errs, cmd: spec(`{"$**": 1, "e": 1}`, `{"_id": 1, "e.b": 0}`),
			code: 7246209, msg: `Error in specification { key: { $**: 1, e: 1 }, name: "w", wildcardProjection: { _id: 1, e.b: 0 } } :: caused by :: wildcardProjection paths must exclude all regular index fields, however 'e'is not excluded.`},
		{name: "inclusions and exclusions mixed", ref: cwiValidRef, cov: errs, cmd: spec(`{"$**": 1, "c": 1}`, `{"_id": 0, "a": 0, "b": 1}`),
			code: 7246211, msg: `Error in specification { key: { $**: 1, c: 1 }, name: "w", wildcardProjection: { _id: 0, a: 0, b: 1 } } :: caused by :: Inclusion and exclusion statements cannot combine in the wildcardProjection with an exception of explicitly including _id field`},
		{name: "a computed projection", ref: cwiValidRef, cov: errs, cmd: spec(`{"st": 1, "$**": 1}`, `{"a": "something"}`),
			code: 51271, msg: `Error in specification { key: { st: 1, $**: 1 }, name: "w", wildcardProjection: { a: "something" } } :: caused by :: Failed to parse: wildcardProjection :: caused by :: Bad projection specification, cannot use computed fields when parsing a spec in kBanComputedFields mode`},
		{name: "a hashed regular field", ref: cwiValidRef, cov: errs, cmd: spec(`{"a.$**": 1, "b": "hashed"}`, ""),
			code: mongoerr.CannotCreateIndex, msg: `Error in specification { key: { a.$**: 1, b: "hashed" }, name: "w" } :: caused by :: Can't use more than one index plugin for a single index.`},
		{name: "a unique compound wildcard index", ref: cwiValidRef, cov: errs, cmd: wcCreate(`{"a.$**": 1, "b": 1}`, `, "unique": true`),
			code: mongoerr.CannotCreateIndex, msg: "Index type 'wildcard' does not support the unique option"},
		{name: "a projection on a subtree index", ref: cwiValidRef, cov: errs, cmd: spec(`{"a": 1, "b.$**": 1}`, `{"b": 1}`),
			code: mongoerr.FailedToParse, msg: `Error in specification { key: { a: 1, b.$**: 1 }, name: "w", wildcardProjection: { b: 1 } } :: caused by :: The field 'wildcardProjection' is only allowed when 'key' is {"$**": ±1}`},
	})
}

const cwiDocs = `[{"_id": 1, "a": 1, "sub": {"x": 1, "y": {"z": 1}}, "c": 3},
	{"_id": 2, "a": 2, "sub": {"x": 2}, "c": 6},
	{"_id": 3, "a": 2},
	{"_id": 4, "sub": {"x": 2}},
	{"_id": 5, "q": 1},
	{"_id": 6, "a": 3, "sub": {"x": [2, 3]}}]`

const cwiIndex = `{"createIndexes": "c", "indexes": [{"key": {"a": 1, "sub.$**": 1, "c": 1}, "name": "cwi"}]}`

func TestCompoundWildcardIndexQueries(t *testing.T) {
	cov := cover{family: commandFam, op: "find", col: semantics}
	ids := func(find string) string {
		return `{"find": "c", "filter": ` + find + `, "projection": {"_id": 1}, "sort": {"_id": 1}, "hint": "cwi"}`
	}
	runCmdCases(t, []cmdCase{
		// _id 3 has a regular field but no leaf under sub: indexed as
		// (2, MinKey, MinKey, null).
		{name: "a regular prefix finds documents with no wildcard leaf", ref: cwiKeysRef, cov: cov, docs: cwiDocs, setup: []string{cwiIndex},
			cmd: ids(`{"a": 2}`), want: batch(`[{"_id": 2}, {"_id": 3}]`)},
		{name: "a wildcard path with its regular prefix", ref: cwiPlanRef, cov: cov, docs: cwiDocs, setup: []string{cwiIndex},
			cmd: ids(`{"a": {"$gte": 2}, "sub.x": 2}`), want: batch(`[{"_id": 2}, {"_id": 6}]`)},
		// Hinted, the path's view scans every value of the regular prefix,
		// a missing one (null) included.
		{name: "a hinted wildcard path without its prefix", ref: cwiPlanRef, cov: cov, docs: cwiDocs, setup: []string{cwiIndex},
			cmd: ids(`{"sub.x": 2}`), want: batch(`[{"_id": 2}, {"_id": 4}, {"_id": 6}]`)},
		{name: "a multikey leaf is one document", ref: cwiKeysRef, cov: cov, docs: cwiDocs, setup: []string{cwiIndex},
			cmd: ids(`{"a": 3}`), want: batch(`[{"_id": 6}]`)},
		{name: "the index follows updates", ref: cwiKeysRef, cov: cov, docs: cwiDocs,
			setup: []string{cwiIndex, `{"update": "c", "updates": [{"q": {"_id": 5}, "u": {"$set": {"a": 2, "sub.w": 1}}}, {"q": {"_id": 3}, "u": {"$unset": {"a": 1}}}]}`},
			cmd:   ids(`{"a": 2}`), want: batch(`[{"_id": 2}, {"_id": 5}]`)},
		{name: "all fields but the regular one", ref: cwiKeysRef, cov: cov, docs: cwiDocs,
			setup: []string{`{"createIndexes": "c", "indexes": [{"key": {"$**": 1, "a": 1}, "name": "cwi", "wildcardProjection": {"a": 0}}]}`},
			cmd:   ids(`{"sub.x": 2, "a": {"$gt": 1}}`), want: batch(`[{"_id": 2}, {"_id": 6}]`)},
	})
	runCmdCases(t, []cmdCase{
		// The manual's restrictions: a compound wildcard index's regular
		// fields may not be multikey. mongod's code and message for the
		// refusal are not in the sources read; the sandbox refuses the
		// write with CannotBuildIndexKeys.
		{name: "an array in a regular field", ref: "https://www.mongodb.com/docs/manual/core/indexes/index-types/index-wildcard/reference/restrictions/", cov: cover{family: commandFam, op: "insert", col: errorCol},
			setup: []string{cwiIndex}, cmd: `{"insert": "c", "documents": [{"_id": 1, "a": [1, 2], "sub": {"x": 1}}]}`, writeError: true,
			code: mongoerr.CannotBuildIndexKeys, msg: "Index cwi: the regular field 'a' of a compound wildcard index cannot hold an array",
			thenFind: `{"find": "c"}`, thenWant: `[]`},
	})
}

func TestCompoundWildcardIndexExplain(t *testing.T) {
	s := newSuite(t)
	cov := explainCase(commandFam, "find")
	setup := func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), cwiDocs)
		mustCommand(t, db, cwiIndex)
	}
	s.runCase(t, "compound wildcard: the view of a queried path", cwiPlanRef, cov, func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		ix, _ := ixscanOf(t, db, `{"find": "c", "filter": {"a": 1, "sub.y.z": {"$gt": 0}}}`)
		sameValue(t, "keyPattern", field(ix, "keyPattern"), `{"a": 1, "$_path": 1, "sub.y.z": 1, "c": 1}`)
		sameValue(t, "bounds", field(ix, "indexBounds"),
			`{"a": ["[1, 1]"], "$_path": ["[\"sub.y.z\", \"sub.y.z\"]"], "sub.y.z": ["(0, inf.0]"], "c": ["[MinKey, MaxKey]"]}`)
	})
	s.runCase(t, "compound wildcard: the regular prefix's view", cwiPlanRef, cov, func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		ix, _ := ixscanOf(t, db, `{"find": "c", "filter": {"a": {"$gt": 1}}}`)
		// Both key fields of the wildcard are named "$_path", as
		// makeNewKeyPattern names the view's; explain shows the first, the
		// paths: documents with no wildcard leaf (MinKey) and every path.
		sameValue(t, "keyPattern", field(ix, "keyPattern"), `{"a": 1, "$_path": 1, "c": 1}`)
		sameValue(t, "bounds", field(ix, "indexBounds"),
			`{"a": ["(1, inf.0]"], "$_path": ["[MinKey, MinKey]", "[\"\", {})"], "c": ["[MinKey, MaxKey]"]}`)
	})
	s.runCase(t, "compound wildcard: no regular prefix, no index", cwiPlanRef, cov, func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		for _, f := range []string{`{"sub.x": 2}`, `{"c": 6}`, `{"a": null}`} {
			plan := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": `+f+`}, "verbosity": "queryPlanner"}`))
			if field(plan, "stage") != "COLLSCAN" {
				t.Errorf("%s: want COLLSCAN, got %s", f, relaxed(plan))
			}
		}
	})
	s.runCase(t, "compound wildcard: the prefix gives the sort, a later field does not", cwiPlanRef, cov, func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		plan := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": {"a": {"$gt": 0}}, "sort": {"a": 1}}, "verbosity": "queryPlanner"}`))
		if stageNamed(plan, "SORT") != nil {
			t.Errorf("sort on the prefix: want no SORT, got %s", relaxed(plan))
		}
		plan = winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": {"a": {"$gt": 0}}, "sort": {"a": 1, "c": 1}}, "verbosity": "queryPlanner"}`))
		if stageNamed(plan, "SORT") == nil {
			t.Errorf("sort past the wildcard: want a SORT, got %s", relaxed(plan))
		}
	})
}
