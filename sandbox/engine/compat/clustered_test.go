package compat_test

import (
	"strconv"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Clustered collections (manual: core/clustered-collections): create's
// clusteredIndex, the cluster key in listCollections and listIndexes, the
// index commands' rules for it, inserts keyed by _id, and the bounded
// collection scans (CLUSTERED_IXSCAN) a clustered collection is read by.

const (
	clusteredCreateRef = "src/mongo/db/catalog/create_collection.cpp (validateCollectionOptions, validateClusteredIndexSpec), src/mongo/db/commands/create_command.cpp, " +
		"src/mongo/db/catalog/clustered_collection_util.cpp (checkCreationOptions, ensureClusteredIndexName), src/mongo/db/catalog/clustered_collection_options.idl; " +
		"jstests/core/clustered/clustered_collection_creation.js; manual: core/clustered-collections"
	clusteredListRef = "src/mongo/db/catalog/clustered_collection_util.cpp (formatClusterKeyForListIndexes), src/mongo/db/catalog/list_indexes.cpp, " +
		"src/mongo/db/commands/list_collections.cpp, src/mongo/db/stats/storage_stats.cpp; jstests/libs/clustered_collections/clustered_collection_util.js"
	clusteredIndexRef = "src/mongo/db/catalog/index_catalog_impl.cpp (isSpecOKClusteredIndexCheck), src/mongo/db/catalog/index_key_validate.cpp, " +
		"src/mongo/db/catalog/drop_indexes.cpp, src/mongo/db/catalog/coll_mod.cpp; jstests/core/clustered/clustered_collection_creation.js"
	clusteredWriteRef = "src/mongo/db/record_id_helpers.cpp (RecordId::kBigStrMaxSize), src/mongo/db/catalog/collection_write_path.cpp, " +
		"src/mongo/db/storage/index_entry_comparison.cpp (buildDupKeyErrorStatus); jstests/libs/clustered_collections/clustered_collection_util.js (testBasicClusteredCollection)"
	clusteredPlanRef = "src/mongo/db/query/planner_access.cpp (makeCollectionScan, handleRIDRangeScan, handleRIDRangeMinMax), src/mongo/db/query/plan_explainer_impl.cpp, " +
		"src/mongo/db/exec/collection_scan.cpp; jstests/libs/clustered_collections/clustered_collection_hint_common.js"
)

const clusteredC = `{"create": "c", "clusteredIndex": {"key": {"_id": 1}, "unique": true}}`

func TestClusteredCollectionCreate(t *testing.T) {
	listC := `{"listCollections": 1, "filter": {"name": "c"}}`
	create := func(opts string) string { return `{"create": "k", ` + opts + `}` }
	runCmdCases(t, []cmdCase{
		{name: "clusteredIndex lists with its default name and version", ref: clusteredCreateRef, cmd: clusteredC, want: `{}`,
			thenFind: listC, thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.$cmd.listCollections", "firstBatch": [{"name": "c", "type": "collection",
				"options": {"clusteredIndex": {"v": 2, "key": {"_id": 1}, "name": "_id_", "unique": true}}, "info": "*"}]}}`},
		{name: "clusteredIndex with a name and a TTL", ref: clusteredCreateRef,
			cmd: `{"create": "c", "expireAfterSeconds": 60, "clusteredIndex": {"name": "byId", "unique": true, "key": {"_id": 1}}}`, want: `{}`,
			thenFind: listC, thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.$cmd.listCollections", "firstBatch": [{"name": "c", "type": "collection",
				"options": {"clusteredIndex": {"v": 2, "key": {"_id": 1}, "name": "byId", "unique": true}, "expireAfterSeconds": {"$numberLong": "60"}}, "info": "*"}]}}`},
		{name: "clusteredIndex: false is an ordinary collection", ref: clusteredCreateRef, cmd: `{"create": "c", "clusteredIndex": false}`, want: `{}`,
			thenFind: listC, thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.$cmd.listCollections", "firstBatch": [{"name": "c", "type": "collection",
				"options": {}, "info": "*", "idIndex": {"v": 2, "key": {"_id": 1}, "name": "_id_"}}]}}`},
		{name: "create again with the same clusteredIndex", ref: clusteredCreateRef, setup: []string{clusteredC}, cmd: clusteredC, want: `{}`},
		{name: "clusteredIndex not unique", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": {"key": {"_id": 1}, "unique": false}`),
			code: mongoerr.ErrClusteredNotUnique, msg: "The clusteredIndex option requires unique: true to be specified"},
		{name: "clusteredIndex on another field", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": {"key": {"ts": 1}, "unique": true}`),
			code: mongoerr.InvalidIndexSpecificationOption, msg: "The clusteredIndex option is only supported for key: {_id: 1}"},
		{name: "clusteredIndex descending", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": {"key": {"_id": -1}, "unique": true}`),
			code: mongoerr.InvalidIndexSpecificationOption, msg: "The clusteredIndex option is only supported for key: {_id: 1}"},
		{name: "clusteredIndex without unique", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": {"key": {"_id": 1}}`),
			code: mongoerr.IDLFailedToParse, msg: "BSON field 'create.clusteredIndex.unique' is missing but a required field"},
		{name: "clusteredIndex without key", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": {"unique": true}`),
			code: mongoerr.IDLFailedToParse, msg: "BSON field 'create.clusteredIndex.key' is missing but a required field"},
		{name: "clusteredIndex with an unknown field", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": {"key": {"_id": 1}, "unique": true, "randField": 1}`),
			code: mongoerr.IDLUnknownField, msg: "BSON field 'create.clusteredIndex.randField' is an unknown field."},
		{name: "clusteredIndex of the wrong type", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": "yes"`),
			code: mongoerr.TypeMismatch, msg: "BSON field 'create.clusteredIndex' is the wrong type 'string', expected types '[bool, object']"},
		{name: "clusteredIndex key of the wrong type", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": {"key": 1, "unique": true}`),
			code: mongoerr.TypeMismatch, msg: "BSON field 'create.clusteredIndex.key' is the wrong type 'int', expected type 'object'"},
		{name: "clusteredIndex version 1", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": {"key": {"_id": 1}, "unique": true, "v": 1}`),
			code: mongoerr.ErrClusteredVersion, msg: `Invalid clusteredIndex specification { v: 1, key: { _id: 1 }, name: "_id_", unique: true }; cannot create a clusteredIndex with v=1`},
		{name: "clusteredIndex version past the int range", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": {"key": {"_id": 1}, "unique": true, "v": {"$numberLong": "4294967298"}}`),
			code: mongoerr.ErrClusteredVersion, msg: `Invalid clusteredIndex specification { v: 2147483647, key: { _id: 1 }, name: "_id_", unique: true }; cannot create a clusteredIndex with v=2147483647`},
		{name: "clusteredIndex: true outside time-series buckets", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": true`),
			code: mongoerr.ErrClusteredLegacy, msg: "The 'clusteredIndex' legacy format {clusteredIndex: <bool>} is only supported for specific internal collections and vice versa"},
		{name: "clusteredIndex with size", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": {"key": {"_id": 1}, "unique": true}, "capped": true, "size": 4096`),
			code: mongoerr.ErrClusteredCappedSize, msg: "'size' field for capped collections is not allowed on clustered collections. Did you mean 'capped: true' with 'expireAfterSeconds'?"},
		{name: "clusteredIndex: false with max", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": false, "max": 5`),
			code: mongoerr.ErrClusteredCappedMax, msg: "'max' field for capped collections is not allowed on clustered collections. Did you mean 'capped: true' with 'expireAfterSeconds'?"},
		{name: "clusteredIndex capped", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": {"key": {"_id": 1}, "unique": true}, "capped": true, "expireAfterSeconds": 10`),
			code: mongoerr.ErrClusteredCappedTesting, msg: "Clustered capped collection only available with 'enableTestCommands' server parameter"},
		{name: "clusteredIndex on a view", ref: clusteredCreateRef, cmd: create(`"viewOn": "c", "clusteredIndex": {"key": {"_id": 1}, "unique": true}`),
			code: mongoerr.ErrClusteredView, msg: "The 'clusteredIndex' option is not supported with views"},
		{name: "clusteredIndex with autoIndexId: false", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": {"key": {"_id": 1}, "unique": true}, "autoIndexId": false`),
			code: mongoerr.ErrClusteredAutoIndexID, msg: "The 'clusteredIndex' option does not support {autoIndexId: false}"},
		{name: "clusteredIndex with idIndex", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": {"key": {"_id": 1}, "unique": true}, "idIndex": {"key": {"_id": 1}, "name": "_id_"}`),
			code: mongoerr.InvalidOptions, msg: "The 'clusteredIndex' option is not supported with the 'idIndex' option"},
		{name: "expireAfterSeconds negative", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": {"key": {"_id": 1}, "unique": true}, "expireAfterSeconds": -10`),
			code: mongoerr.InvalidOptions, msg: "TTL index 'expireAfterSeconds' option cannot be less than 0"},
		{name: "expireAfterSeconds past the epoch", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": {"key": {"_id": 1}, "unique": true}, "expireAfterSeconds": {"$numberLong": "9223372036854775"}`),
			code: mongoerr.InvalidOptions, msg: "TTL index 'expireAfterSeconds' option must be within an acceptable range, try a lower number"},
		{name: "expireAfterSeconds without clusteredIndex", ref: clusteredCreateRef, cmd: create(`"expireAfterSeconds": 10`),
			code: mongoerr.InvalidOptions, msg: "'expireAfterSeconds' is only supported on time-series collections or when the 'clusteredIndex' option is specified"},
		{name: "expireAfterSeconds with clusteredIndex: false", ref: clusteredCreateRef, cmd: create(`"clusteredIndex": false, "expireAfterSeconds": 10`),
			code: mongoerr.InvalidOptions, msg: "'expireAfterSeconds' can be used only for clustered collections or timeseries collections"},
	})
}

func TestClusteredCollectionIndexes(t *testing.T) {
	listIx := `{"listIndexes": "c"}`
	runCmdCases(t, []cmdCase{
		{name: "listIndexes lists the cluster key first", ref: clusteredListRef, setup: []string{clusteredC, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]}`},
			cmd: listIx, want: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.c", "firstBatch": [
				{"v": 2, "key": {"_id": 1}, "name": "_id_", "unique": true, "clustered": true}, {"v": 2, "key": {"a": 1}, "name": "a_1"}]}}`},
		{name: "listIndexes shows the collection's TTL on the cluster key", ref: clusteredListRef,
			setup: []string{`{"create": "c", "clusteredIndex": {"key": {"_id": 1}, "unique": true}, "expireAfterSeconds": 30}`},
			cmd:   listIx, want: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.c", "firstBatch": [
				{"v": 2, "key": {"_id": 1}, "name": "_id_", "unique": true, "expireAfterSeconds": {"$numberLong": "30"}, "clustered": true}]}}`},
		{name: "createIndex on the cluster key builds nothing", ref: clusteredIndexRef, setup: []string{clusteredC},
			cmd: `{"createIndexes": "c", "indexes": [{"key": {"_id": 1}, "name": "notTheClusterKeyName"}]}`, want: `{}`,
			thenFind: listIx, thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.c", "firstBatch": [{"v": 2, "key": {"_id": 1}, "name": "_id_", "unique": true, "clustered": true}]}}`},
		{name: "createIndex clustered: true on the cluster key builds nothing", ref: clusteredIndexRef, setup: []string{clusteredC},
			cmd: `{"createIndexes": "c", "indexes": [{"key": {"_id": 1}, "name": "_id_", "clustered": true, "unique": true}]}`, want: `{}`},
		{name: "createIndex clustered on another key", ref: clusteredIndexRef, setup: []string{clusteredC},
			cmd:  `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1", "clustered": true, "unique": true}]}`,
			code: mongoerr.ErrClusteredOptionMismatch, msg: "Cannot create index with option 'clustered' that does not match an existing clustered index"},
		{name: "createIndex clustered on an ordinary collection", ref: clusteredIndexRef, setup: []string{`{"create": "c"}`},
			cmd:  `{"createIndexes": "c", "indexes": [{"key": {"_id": 1}, "name": "_id_", "clustered": true, "unique": true}]}`,
			code: mongoerr.ErrClusteredOptionMismatch, msg: "Cannot create index with option 'clustered' that does not match an existing clustered index"},
		{name: "createIndex clustered on a collection it would create", ref: clusteredIndexRef + "; src/mongo/db/commands/create_indexes_cmd.cpp (runCreateIndexesOnNewCollection)",
			cmd:  `{"createIndexes": "c", "indexes": [{"key": {"_id": 1}, "name": "_id_", "clustered": true, "unique": true}]}`,
			code: mongoerr.ErrClusteredImplicitCreate, msg: "Cannot implicitly create a new collection with createIndex 'clustered' option",
			thenFind: `{"listCollections": 1, "filter": {"name": "c"}}`, thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.$cmd.listCollections", "firstBatch": []}}`},
		{name: "createIndex clustered: false", ref: clusteredIndexRef, setup: []string{clusteredC},
			cmd:  `{"createIndexes": "c", "indexes": [{"key": {"_id": 1}, "name": "_id_", "clustered": false}]}`,
			code: mongoerr.ErrClusteredFalse, msg: "Error in specification { key: { _id: 1 }, name: \"_id_\", clustered: false } :: caused by :: Value 'false' for field 'clustered' is invalid"},
		{name: "createIndex clustered without unique", ref: clusteredIndexRef, setup: []string{clusteredC},
			cmd:  `{"createIndexes": "c", "indexes": [{"key": {"_id": 1}, "name": "_id_", "clustered": true}]}`,
			code: mongoerr.CannotCreateIndex, msg: "Error in specification { key: { _id: 1 }, name: \"_id_\", clustered: true } :: caused by :: The 'unique' field is required when 'clustered' is specified"},
		// parseAndValidateIndexSpecs refuses the option on the _id key
		// before the catalog compares it with the cluster key.
		{name: "createIndex on the cluster key, not unique", ref: clusteredIndexRef + " (parseAndValidateIndexSpecs, validateIdIndexSpec)", setup: []string{clusteredC},
			cmd:  `{"createIndexes": "c", "indexes": [{"key": {"_id": 1}, "name": "x", "unique": false}]}`,
			code: mongoerr.InvalidIndexSpecificationOption, msg: `The field 'unique' is not valid for an _id index specification. Specification: { key: { _id: 1 }, name: "x", unique: false, v: 2 }`},
		{name: "createIndex with the cluster key's name on another key", ref: clusteredIndexRef, setup: []string{clusteredC},
			cmd:  `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "_id_"}]}`,
			code: mongoerr.BadValue, msg: "The index name '_id_' is reserved for the _id index, which must have key pattern {_id: 1}, found key: { a: 1 }"},
		{name: "a hashed index on _id is a secondary index", ref: clusteredIndexRef, setup: []string{clusteredC},
			cmd: `{"createIndexes": "c", "indexes": [{"key": {"_id": "hashed"}, "name": "_id_hashed"}]}`, want: `{"numIndexesBefore": 1, "numIndexesAfter": 2}`},
		{name: "dropIndexes by the cluster key's name", ref: clusteredIndexRef, setup: []string{clusteredC}, cmd: `{"dropIndexes": "c", "index": "_id_"}`,
			code: mongoerr.ErrDropClusteredIndex, msg: "It is illegal to drop the clusteredIndex"},
		{name: "dropIndexes by the cluster key's pattern", ref: clusteredIndexRef, setup: []string{clusteredC}, cmd: `{"dropIndexes": "c", "index": {"_id": 1}}`,
			code: mongoerr.ErrDropClusteredIndex, msg: "It is illegal to drop the clusteredIndex"},
		{name: "dropIndexes with the cluster key in a list", ref: clusteredIndexRef, setup: []string{clusteredC, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]}`},
			cmd: `{"dropIndexes": "c", "index": ["a_1", "_id_"]}`, code: mongoerr.ErrDropClusteredIndex, msg: "It is illegal to drop the clusteredIndex"},
		{name: "dropIndexes * keeps the cluster key", ref: clusteredIndexRef, setup: []string{clusteredC, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]}`},
			cmd: `{"dropIndexes": "c", "index": "*"}`, want: `{"nIndexesWas": 1, "msg": "non-_id indexes dropped for collection"}`,
			thenFind: listIx, thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.c", "firstBatch": [{"v": 2, "key": {"_id": 1}, "name": "_id_", "unique": true, "clustered": true}]}}`},
		{name: "collMod cannot hide the cluster key", ref: clusteredIndexRef, setup: []string{clusteredC},
			cmd: `{"collMod": "c", "index": {"name": "_id_", "hidden": true}}`, code: mongoerr.ErrHideClusteredIndex, msg: "The 'hidden' option is not supported for a clusteredIndex"},
		{name: "collMod sets the collection's TTL", ref: clusteredIndexRef, setup: []string{clusteredC},
			cmd: `{"collMod": "c", "expireAfterSeconds": 3600}`, want: `{}`,
			thenFind: `{"listCollections": 1, "filter": {"name": "c"}}`, thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.$cmd.listCollections", "firstBatch": [{"name": "c", "type": "collection",
				"options": {"clusteredIndex": {"v": 2, "key": {"_id": 1}, "name": "_id_", "unique": true}, "expireAfterSeconds": {"$numberLong": "3600"}}, "info": "*"}]}}`},
		{name: "collMod turns the TTL off", ref: clusteredIndexRef, setup: []string{`{"create": "c", "clusteredIndex": {"key": {"_id": 1}, "unique": true}, "expireAfterSeconds": 30}`},
			cmd: `{"collMod": "c", "expireAfterSeconds": "off"}`, want: `{}`,
			thenFind: `{"listCollections": 1, "filter": {"name": "c"}}`, thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "{{db}}.$cmd.listCollections", "firstBatch": [{"name": "c", "type": "collection",
				"options": {"clusteredIndex": {"v": 2, "key": {"_id": 1}, "name": "_id_", "unique": true}}, "info": "*"}]}}`},
		{name: "collMod TTL with another string", ref: clusteredIndexRef, setup: []string{clusteredC}, cmd: `{"collMod": "c", "expireAfterSeconds": "on"}`,
			code: mongoerr.InvalidOptions, msg: "Invalid string value for the 'clusteredIndex::expireAfterSeconds' option. Got: 'on'. Accepted value is 'off'"},
		{name: "collMod TTL on an ordinary collection", ref: clusteredIndexRef, setup: []string{`{"create": "c"}`}, cmd: `{"collMod": "c", "expireAfterSeconds": 30}`,
			code: mongoerr.InvalidOptions, msg: "'expireAfterSeconds' option is only supported on collections clustered by _id"},
		{name: "collStats counts the cluster key among the indexes, with no size", ref: clusteredListRef, cov: cover{family: commandFam, op: "collStats", col: semantics},
			setup: []string{clusteredC, `{"insert": "c", "documents": [{"_id": 1}]}`},
			cmd:   `{"collStats": "c"}`, want: `{"nindexes": 1, "totalIndexSize": 0, "indexSizes": {}}`},
	})
}

func TestClusteredCollectionWrites(t *testing.T) {
	runCmdCases(t, []cmdCase{
		{name: "documents come back in _id order", ref: clusteredWriteRef, cov: cover{family: commandFam, op: "find", col: semantics}, setup: []string{clusteredC,
			`{"insert": "c", "documents": [{"_id": "b"}, {"_id": 3}, {"_id": {"x": 1}}, {"_id": 1.5}, {"_id": null}, {"_id": "a"}, {"_id": -2}]}`},
			cmd: `{"find": "c"}`, want: `{"cursor": {"firstBatch": [{"_id": null}, {"_id": -2}, {"_id": 1.5}, {"_id": 3}, {"_id": "a"}, {"_id": "b"}, {"_id": {"x": 1}}], "id": {"$numberLong": "0"}, "ns": "{{db}}.c"}}`},
		{name: "$natural: -1 reads them backward", ref: clusteredWriteRef, cov: cover{family: commandFam, op: "find", col: semantics},
			setup: []string{clusteredC, `{"insert": "c", "documents": [{"_id": 2}, {"_id": 3}, {"_id": 1}]}`},
			cmd:   `{"find": "c", "sort": {"$natural": -1}}`, want: `{"cursor": {"firstBatch": [{"_id": 3}, {"_id": 2}, {"_id": 1}], "id": {"$numberLong": "0"}, "ns": "{{db}}.c"}}`},
		{name: "a duplicate _id names no index", ref: clusteredWriteRef, cov: cover{family: commandFam, op: "insert", col: errorCol},
			setup: []string{clusteredC, `{"insert": "c", "documents": [{"_id": 42.0}]}`}, cmd: `{"insert": "c", "documents": [{"_id": {"$numberLong": "42"}}]}`, writeError: true,
			code: mongoerr.DuplicateKey, msg: "E11000 duplicate key error collection: {{db}}.c dup key: { _id: 42 }"},
		{name: "a RecordId past 8 MB", ref: clusteredWriteRef, cov: cover{family: commandFam, op: "insert", col: errorCol}, setup: []string{clusteredC},
			cmd: `{"insert": "c", "documents": [{"_id": "` + strings.Repeat("x", 8<<20-2) + `"}]}`, writeError: true,
			code: mongoerr.ErrRecordIDTooLarge, msg: "Size of RecordId (8388609) is above limit of 8388608 bytes", thenFind: `{"find": "c"}`, thenWant: `[]`},
		{name: "a RecordId of exactly 8 MB", ref: clusteredWriteRef, cov: cover{family: commandFam, op: "insert", col: semantics}, setup: []string{clusteredC},
			cmd: `{"insert": "c", "documents": [{"_id": "` + strings.Repeat("x", 8<<20-3) + `"}]}`, want: `{"n": 1}`},
		{name: "a document without _id gets an ObjectId", ref: clusteredWriteRef, cov: cover{family: commandFam, op: "insert", col: semantics}, setup: []string{clusteredC},
			cmd: `{"insert": "c", "documents": [{"a": 1}]}`, want: `{"n": 1}`,
			thenFind: `{"aggregate": "c", "pipeline": [{"$project": {"t": {"$type": "$_id"}, "_id": 0}}], "cursor": {}}`, thenWant: `[{"t": "objectId"}]`},
	})
}

func TestClusteredCollectionExplain(t *testing.T) {
	s := newSuite(t)
	cov := explainCase(commandFam, "find")
	setup := func(t *testing.T, db *mongo.Database) {
		t.Helper()
		mustCommand(t, db, clusteredC)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": -1}, "name": "a_-1"}]}`)
		docs := make([]string, 20)
		for i := range docs {
			docs[i] = `{"_id": ` + strconv.Itoa(i) + `, "a": ` + strconv.Itoa(-i) + `}`
		}
		mustCommand(t, db, `{"insert": "c", "documents": [`+strings.Join(docs, ",")+`]}`)
	}
	plan := func(t *testing.T, db *mongo.Database, cmd string) bson.D {
		t.Helper()
		return winningPlan(t, mustCommand(t, db, `{"explain": `+cmd+`, "verbosity": "queryPlanner"}`))
	}
	s.runCase(t, "an _id range is a bounded collection scan, typed to its value", clusteredPlanRef, cov, func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		st := explainStats(t, db, `{"find": "c", "filter": {"_id": {"$gte": 5, "$lt": 8}}, "batchSize": 2}`)
		root, _ := field(st, "executionStages").(bson.D)
		var keys []string
		for _, f := range root {
			keys = append(keys, f.Key)
		}
		sameValue(t, "fields", strings.Join(keys, ","), `"isCached,stage,filter,nReturned,executionTimeMillisEstimate,works,advanced,needTime,needYield,saveState,restoreState,isEOF,direction,minRecord,maxRecord,docsExamined"`)
		sameValue(t, "stage", field(root, "stage"), `"CLUSTERED_IXSCAN"`)
		sameValue(t, "bounds", bson.A{field(root, "minRecord"), field(root, "maxRecord")}, `[5, 8]`)
		// The bounds are inclusive: 5, 6, 7 and 8 are read, and the
		// record past the end, 9, is read to find the end.
		sameFigures(t, st, "CLUSTERED_IXSCAN", 0, 5)
		wp := plan(t, db, `{"find": "c", "filter": {"_id": {"$lt": 3}}}`)
		sameValue(t, "$lt", bson.A{field(wp, "minRecord"), field(wp, "maxRecord")}, `[{"$numberDouble": "NaN"}, 3]`)
		wp = plan(t, db, `{"find": "c", "filter": {"_id": {"$gt": "m"}}}`)
		sameValue(t, "$gt on a string", bson.A{field(wp, "minRecord"), field(wp, "maxRecord")}, `["m", {}]`)
		wp = plan(t, db, `{"find": "c", "filter": {"_id": {"$in": [12, 3, 7]}}}`)
		sameValue(t, "$in", bson.A{field(wp, "minRecord"), field(wp, "maxRecord")}, `[3, 12]`)
	})
	s.runCase(t, "no bound on _id is a plain collection scan", clusteredPlanRef, cov, func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		for _, f := range []string{`{}`, `{"b": 1}`, `{"$or": [{"_id": 1}, {"b": 2}]}`, `{"_id": {"$ne": 3}}`} {
			// The rooted $or scans under SUBPLAN (choosePlanWholeQuery).
			wp := stageNamed(plan(t, db, `{"find": "c", "filter": `+f+`}`), "COLLSCAN")
			if field(wp, "stage") != "COLLSCAN" || field(wp, "minRecord") != nil || field(wp, "maxRecord") != nil {
				t.Errorf("%s: want an unbounded COLLSCAN, got %s", f, relaxed(wp))
			}
		}
	})
	s.runCase(t, "an _id equality takes the express path", clusteredPlanRef+"; src/mongo/db/query/plan_explainer_express.cpp", cov, func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		st := explainStats(t, db, `{"find": "c", "filter": {"_id": 7}}`)
		root, _ := field(st, "executionStages").(bson.D)
		sameValue(t, "express", root, `{"isCached": false, "stage": "EXPRESS_CLUSTERED_IXSCAN", "keysExamined": 0, "docsExamined": 1, "nReturned": 1}`)
	})
	s.runCase(t, "hints name the cluster key or a direction", clusteredPlanRef, cov, func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		for _, h := range []string{`{"_id": 1}`, `"_id_"`} {
			wp := plan(t, db, `{"find": "c", "hint": `+h+`}`)
			sameValue(t, "hint "+h, wp, `{"isCached": false, "stage": "COLLSCAN", "direction": "forward"}`)
			wp = plan(t, db, `{"find": "c", "filter": {"_id": 12}, "hint": `+h+`}`)
			sameValue(t, "hint "+h+" with _id 12", wp, `{"isCached": false, "stage": "CLUSTERED_IXSCAN", "filter": {"_id": {"$eq": 12}}, "direction": "forward", "minRecord": 12, "maxRecord": 12}`)
		}
		wp := plan(t, db, `{"find": "c", "filter": {"_id": 12}, "hint": {"$natural": -1}}`)
		sameValue(t, "$natural: -1", bson.A{field(wp, "stage"), field(wp, "direction")}, `["CLUSTERED_IXSCAN", "backward"]`)
		wp = plan(t, db, `{"find": "c", "hint": {"a": -1}}`)
		sameValue(t, "secondary hint", stageChain(wp), `"FETCH>IXSCAN"`)
		_, err := command(t, db, ejDoc(t, `{"find": "c", "hint": {"_id": -1}}`))
		if err == nil || err.Code != mongoerr.BadValue || !strings.Contains(err.Message, "hint provided does not correspond to an existing index") {
			t.Errorf("hint {_id: -1}: want BadValue, got %v", err)
		}
	})
	s.runCase(t, "the scan gives a sort on _id in its direction", clusteredPlanRef, cov, func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		for cmd, want := range map[string]string{
			`{"find": "c", "sort": {"_id": -1}}`:                                `"COLLSCAN"`,
			`{"find": "c", "sort": {"_id": 1}, "hint": {"$natural": 1}}`:        `"COLLSCAN"`,
			`{"find": "c", "sort": {"_id": 1}, "hint": {"$natural": -1}}`:       `"SORT>COLLSCAN"`,
			`{"find": "c", "sort": {"a": 1}, "hint": {"$natural": 1}}`:          `"SORT>COLLSCAN"`,
			`{"find": "c", "filter": {"_id": {"$gt": 3}}, "sort": {"_id": -1}}`: `"CLUSTERED_IXSCAN"`,
		} {
			sameValue(t, cmd, stageChain(plan(t, db, cmd)), want)
		}
	})
	s.runCase(t, "min and max with the cluster key hinted", clusteredPlanRef, cov, func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		wp := plan(t, db, `{"find": "c", "hint": {"_id": 1}, "min": {"_id": 3}, "max": {"_id": 6}}`)
		sameValue(t, "bounds", bson.A{field(wp, "minRecord"), field(wp, "maxRecord")}, `[3, 6]`)
		docs, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "hint": {"_id": 1}, "min": {"_id": 3}, "max": {"_id": 6}, "projection": {"a": 0}}`))
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "max is excluded", docs, `[{"_id": 3}, {"_id": 4}, {"_id": 5}]`, false)
		_, cerr := command(t, db, ejDoc(t, `{"find": "c", "hint": {"_id": 1}, "min": {"_id": 6}, "max": {"_id": 3}}`))
		if cerr == nil || cerr.Code != mongoerr.ErrClusteredMinMaxOrder {
			t.Errorf("min after max: want 6137401, got %v", cerr)
		}
		_, cerr = command(t, db, ejDoc(t, `{"find": "c", "hint": {"_id": 1}, "min": {"_id": 3}, "sort": {"_id": -1}}`))
		if cerr == nil || cerr.Code != mongoerr.ErrClusteredMinMaxBackward {
			t.Errorf("backward: want 6137402, got %v", cerr)
		}
	})
	s.runCase(t, "updates and deletes scan the cluster key", clusteredPlanRef, explainCase(commandFam, "update"), func(t *testing.T, db *mongo.Database) {
		setup(t, db)
		for _, cmd := range []string{
			`{"update": "c", "updates": [{"q": {"_id": 3}, "u": {"$inc": {"a": -2}}, "hint": {"_id": 1}}]}`,
			`{"delete": "c", "deletes": [{"q": {"_id": 3}, "limit": 0, "hint": {"$natural": -1}}]}`,
		} {
			st := explainStats(t, db, cmd)
			sameValue(t, cmd+" nReturned", field(st, "nReturned"), `0`)
			root, _ := field(st, "executionStages").(bson.D)
			scan := stageNamed(root, "CLUSTERED_IXSCAN")
			if scan == nil || field(scan, "minRecord") != int32(3) || field(scan, "maxRecord") != int32(3) {
				t.Errorf("%s: want CLUSTERED_IXSCAN [3, 3], got %s", cmd, relaxed(root))
			}
		}
	})
}
