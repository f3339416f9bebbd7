package compat_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The administration commands' sweep: collections, databases, indexes,
// statistics, explain and the server's own commands. Each case cites the
// command's source file in src/mongo/db/commands (or the catalog code it
// calls) and the manual's page for the command.

const (
	createRef         = "src/mongo/db/commands/create_command.cpp, src/mongo/db/catalog/create_collection.cpp; manual: reference/command/create"
	timeseriesRef     = "src/mongo/db/timeseries/timeseries_options.cpp, src/mongo/db/timeseries/timeseries.idl; manual: core/timeseries/timeseries-procedures"
	dropRef           = "src/mongo/db/commands/drop_collection.cpp, drop_database.cpp; manual: reference/command/drop, command/dropDatabase"
	renameRef2        = "src/mongo/db/commands/rename_collection_cmd.cpp, src/mongo/db/catalog/rename_collection.cpp; manual: reference/command/renameCollection"
	listCollRef       = "src/mongo/db/commands/list_collections.cpp; manual: reference/command/listCollections"
	listDBRef         = "src/mongo/db/commands/list_databases.cpp; manual: reference/command/listDatabases"
	createIdxRef      = "src/mongo/db/commands/create_indexes_cmd.cpp, src/mongo/db/catalog/index_key_validate.cpp; manual: reference/command/createIndexes, core/index-ttl, core/index-partial, core/index-sparse, core/index-hidden"
	listIdxRef        = "src/mongo/db/commands/list_indexes.cpp; manual: reference/command/listIndexes"
	dropIdxRef        = "src/mongo/db/commands/drop_indexes.cpp; manual: reference/command/dropIndexes"
	collModRef        = "src/mongo/db/catalog/coll_mod.cpp, src/mongo/db/coll_mod.idl; manual: reference/command/collMod"
	statsRef          = "src/mongo/db/stats/storage_stats.cpp, src/mongo/db/commands/dbcommands.cpp (CmdDbStats, CmdDatasize); manual: reference/command/collStats, command/dbStats, command/dataSize"
	explainCmdRef     = "src/mongo/db/commands/explain_cmd.cpp, src/mongo/db/query/explain_options.cpp; manual: reference/command/explain"
	logRotateRef      = "src/mongo/db/commands/generic_servers.cpp (LogRotateCmd); src/mongo/logv2/log_util.cpp (rotateLogs); jstests/core/diagnostics/logprocessdetails.js"
	serverCmdRef      = "src/mongo/db/commands/generic.cpp, buildinfo_common.cpp, parameters.cpp, server_status.cpp; manual: reference/command/ping, command/buildInfo, command/getParameter, command/getLog, command/hostInfo, command/serverStatus, command/getCmdLineOpts"
	renameValidateRef = "src/mongo/db/catalog/rename_collection.cpp validateNamespacesForRenameCollection; src/mongo/db/catalog/document_validation.cpp userAllowedWriteNS"
	setParameterRef   = "src/mongo/db/commands/set_parameter.cpp CmdSet; manual: reference/command/setParameter"
	fsyncRef          = "src/mongo/db/commands/fsync.cpp (FSyncCommand, FSyncUnlockCommand); manual: reference/command/fsync"
	validateCmdRef    = "src/mongo/db/commands/validate.cpp; manual: reference/command/validate"
	idIndexSpecRef    = "src/mongo/db/catalog/index_key_validate.cpp (parseAndValidateIndexSpecs, validateIdIndexSpec), index_catalog_impl.cpp (_fixIndexSpec); jstests/core/index/index_id_options.js"
)

func TestCollectionAndDatabaseCommands(t *testing.T) {
	docs := `[{"_id":1,"a":1},{"_id":2,"a":2}]`
	runCmdCases(t, []cmdCase{
		// create
		{name: "create with a validator", ref: createRef, cmd: `{"create":"v","validator":{"a":{"$gt":0}},"validationAction":"error"}`, want: `{}`,
			thenFind: `{"listCollections":1,"filter":{"name":"v"}}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"v","type":"collection","options":{"validator":{"a":{"$gt":0}},"validationAction":"error"},"info":"*","idIndex":{"v":2,"key":{"_id":1},"name":"_id_"}}]}}`},
		{name: "create again with the same options", ref: createRef, setup: []string{`{"create":"v"}`}, cmd: `{"create":"v"}`, want: `{}`},
		{name: "create a time-series collection", ref: timeseriesRef, cmd: `{"create":"w","timeseries":{"timeField":"t","metaField":"m","granularity":"minutes"},"expireAfterSeconds":60}`, want: `{}`,
			thenFind: `{"listCollections":1,"filter":{"name":"w"}}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"w","type":"timeseries","options":{"timeseries":{"timeField":"t","metaField":"m","granularity":"minutes","bucketMaxSpanSeconds":86400},"expireAfterSeconds":{"$numberLong":"60"}},"info":"*"}]}}`},
		{name: "create again with other options", ref: createRef, setup: []string{`{"create":"v"}`}, cmd: `{"create":"v","validator":{"a":1}}`, code: mongoerr.NamespaceExists},
		{name: "create an unknown option", ref: createRef, cmd: `{"create":"v","foo":1}`, code: mongoerr.IDLUnknownField, msg: "BSON field 'create.foo' is an unknown field."},
		{name: "create a name with $", ref: createRef, cmd: `{"create":"a$b"}`, code: mongoerr.InvalidNamespace, msg: "Invalid collection name: a$b"},
		{name: "create a system collection", ref: createRef, cmd: `{"create":"system.foo"}`, code: mongoerr.InvalidNamespace, msg: "Invalid system namespace: {{db}}.system.foo"},
		{name: "create a bad validationLevel", ref: createRef, cmd: `{"create":"v","validationLevel":"foo"}`, code: mongoerr.BadValue, msg: "Enumeration value 'foo' for field 'create.validationLevel' is not a valid value."},
		{name: "create expireAfterSeconds without time series", ref: createRef, cmd: `{"create":"v","expireAfterSeconds":10}`, code: mongoerr.InvalidOptions,
			msg: "'expireAfterSeconds' is only supported on time-series collections or when the 'clusteredIndex' option is specified"},
		{name: "create a validator with an unknown operator", ref: createRef, cmd: `{"create":"v","validator":{"$foo":1}}`, code: mongoerr.BadValue,
			msg: "Parsing of collection validator failed :: caused by :: unknown top level operator: $foo. If you have a field name that starts with a '$' symbol, consider using $getField or $setField."},
		{name: "create time series without timeField", ref: timeseriesRef, cmd: `{"create":"w","timeseries":{}}`, code: mongoerr.IDLFailedToParse, msg: "BSON field 'create.timeseries.timeField' is missing but a required field"},
		{name: "create time series with a bad granularity", ref: timeseriesRef, cmd: `{"create":"w","timeseries":{"timeField":"t","granularity":"days"}}`, code: mongoerr.BadValue,
			msg: "Enumeration value 'days' for field 'create.timeseries.granularity' is not a valid value."},
		{name: "create time series with metaField = timeField", ref: timeseriesRef, cmd: `{"create":"w","timeseries":{"timeField":"t","metaField":"t"}}`, code: mongoerr.InvalidOptions,
			msg: "'metaField' cannot be the same as 'timeField'"},
		{name: "create time series with an empty metaField", ref: timeseriesRef + "; jstests/core/timeseries/query/timeseries_empty_metafield.js (mongod keeps it)",
			cmd: `{"create":"w","timeseries":{"timeField":"t","metaField":""}}`, code: mongoerr.NotImplemented,
			msg: `a time-series metaField of "" is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it`, thenFind: `{"find":"w"}`, thenWant: `[]`},
		{name: "create time series with one bucketing parameter", ref: timeseriesRef, cmd: `{"create":"w","timeseries":{"timeField":"t","bucketMaxSpanSeconds":100}}`, code: mongoerr.InvalidOptions,
			msg: "Timeseries 'bucketRoundingSeconds' needs to be equal to 'bucketMaxSpanSeconds'"},
		{name: "create time series with unequal bucketing parameters", ref: timeseriesRef, cmd: `{"create":"w","timeseries":{"timeField":"t","bucketMaxSpanSeconds":100,"bucketRoundingSeconds":50}}`,
			code: mongoerr.InvalidOptions, msg: "Timeseries 'bucketRoundingSeconds' needs to be equal to 'bucketMaxSpanSeconds'"},
		{name: "create time series with a granularity and another span", ref: timeseriesRef, cmd: `{"create":"w","timeseries":{"timeField":"t","granularity":"seconds","bucketMaxSpanSeconds":100,"bucketRoundingSeconds":100}}`,
			code: mongoerr.InvalidOptions, msg: "Timeseries 'bucketMaxSpanSeconds' is not configurable to a value other than the default of 3600 for the provided granularity"},
		{name: "create time series with a validator", ref: timeseriesRef, cmd: `{"create":"w","timeseries":{"timeField":"t"},"validator":{"a":1}}`,
			code: mongoerr.InvalidOptions, msg: "{{db}}.w: 'timeseries' is not allowed with 'validator'"},
		{name: "create time series with an expireAfterSeconds before the epoch", ref: timeseriesRef + "; src/mongo/db/catalog/index_key_validate.cpp (validateExpireAfterSeconds, kClusteredTTLIndex)",
			cmd: `{"create":"w","timeseries":{"timeField":"t"},"expireAfterSeconds":{"$numberLong":"9223372036854775807"}}`, code: mongoerr.InvalidOptions,
			msg: "TTL index 'expireAfterSeconds' option must be within an acceptable range, try a lower number"},
		{name: "create time series with a negative expireAfterSeconds", ref: timeseriesRef + "; src/mongo/db/catalog/index_key_validate.cpp (validateExpireAfterSeconds)",
			cmd: `{"create":"w","timeseries":{"timeField":"t"},"expireAfterSeconds":-1}`, code: mongoerr.InvalidOptions, msg: "TTL index 'expireAfterSeconds' option cannot be less than 0"},

		// drop, dropDatabase
		{name: "drop reports the indexes it had", ref: dropRef, docs: docs, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			cmd: `{"drop":"c"}`, want: `{"nIndexesWas":2,"ns":"{{db}}.c"}`},
		{name: "drop of a collection that does not exist", ref: dropRef, cmd: `{"drop":"nothere"}`, want: `{}`},
		{name: "drop of a time-series collection", ref: dropRef + "; jstests/core/timeseries/drop_timeseries.js",
			setup: []string{`{"create":"ts","timeseries":{"timeField":"t","metaField":"m"}}`},
			cmd:   `{"drop":"ts"}`, want: `{"nIndexesWas":1,"ns":"{{db}}.ts"}`,
			thenFind: `{"listCollections":1,"nameOnly":true}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"system.views","type":"collection"}]}}`},
		{name: "create on a buckets namespace makes the buckets alone", ref: createRef + "; src/mongo/db/catalog/create_collection.cpp (_createLegacyTimeseries); jstests/core/timeseries/drop_timeseries.js",
			cmd: `{"create":"system.buckets.ts","timeseries":{"timeField":"t"}}`, want: `{}`,
			thenFind: `{"listCollections":1,"filter":{"name":{"$regex":"ts$"}}}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"system.buckets.ts","type":"collection","options":{"clusteredIndex":true,"timeseries":{"timeField":"t","granularity":"seconds","bucketMaxSpanSeconds":3600}},"info":"*"}]}}`},
		{name: "create of a time-series collection reuses buckets made with the same options", ref: createRef + "; src/mongo/db/catalog/create_collection.cpp (existingBucketCollectionIsCompatible); jstests/core/timeseries/ddl/timeseries_user_system_buckets.js",
			setup: []string{`{"create":"system.buckets.ts","timeseries":{"timeField":"t","metaField":"m"}}`},
			cmd:   `{"create":"ts","timeseries":{"timeField":"t","metaField":"m"}}`, want: `{}`,
			thenFind: `{"listCollections":1,"filter":{"name":"ts"}}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"ts","type":"timeseries","options":{"timeseries":{"timeField":"t","metaField":"m","granularity":"seconds","bucketMaxSpanSeconds":3600}},"info":{"readOnly":false}}]}}`},
		{name: "a view named for the buckets it is on lists as a time-series collection", ref: "src/mongo/db/commands/list_collections.cpp (buildTimeseriesBson); jstests/core/timeseries/drop_timeseries.js",
			setup: []string{`{"create":"ts","viewOn":"system.buckets.ts","pipeline":[]}`},
			cmd:   `{"listCollections":1,"filter":{"name":"ts"}}`,
			want:  `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"ts","type":"timeseries","options":{},"info":{"readOnly":false}}]}}`},
		{name: "drop of a time-series collection's name takes buckets left without a view", ref: dropRef + "; jstests/core/timeseries/drop_timeseries.js",
			setup: []string{`{"create":"system.buckets.ts","timeseries":{"timeField":"t","metaField":"m"}}`},
			cmd:   `{"drop":"ts"}`, want: `{"nIndexesWas":1,"ns":"{{db}}.ts"}`,
			thenFind: `{"listCollections":1,"nameOnly":true}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[]}}`},
		{name: "drop of a time-series collection's buckets drops the collection", ref: dropRef + " (_dropCollection: a buckets target drops its time-series view); jstests/core/timeseries/drop_timeseries.js",
			setup: []string{`{"create":"ts","timeseries":{"timeField":"t","metaField":"m"}}`},
			cmd:   `{"drop":"system.buckets.ts"}`, want: `{"nIndexesWas":1,"ns":"{{db}}.system.buckets.ts"}`,
			thenFind: `{"listCollections":1,"nameOnly":true}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"system.views","type":"collection"}]}}`},
		{name: "drop with a name that is no string", ref: dropRef, cmd: `{"drop":1}`, code: mongoerr.InvalidNamespace, msg: "collection name has invalid type int"},
		{name: "dropDatabase answers ok alone", ref: dropRef, docs: docs, cmd: `{"dropDatabase":1}`, want: `{}`,
			thenFind: `{"find":"c"}`, thenWant: `[]`},
		{name: "dropDatabase of a database that does not exist", ref: dropRef, cmd: `{"dropDatabase":1}`, want: `{}`},
		{name: "dropDatabase with another value", ref: dropRef, cmd: `{"dropDatabase":2}`, code: mongoerr.ErrDropDatabaseParameter, msg: "Have to pass 1 as 'drop' parameter"},
		{name: "dropDatabase with a string", ref: dropRef, cmd: `{"dropDatabase":"x"}`, code: mongoerr.TypeMismatch,
			msg: "BSON field 'dropDatabase.dropDatabase' is the wrong type 'string', expected types '[long, int, decimal, double']"},
		{name: "dropDatabase of admin with another value", ref: dropRef, admin: true, cmd: `{"dropDatabase":2}`, code: mongoerr.ErrDropDatabaseParameter, msg: "Have to pass 1 as 'drop' parameter"},
		{name: "dropDatabase of admin", ref: dropRef, admin: true, cmd: `{"dropDatabase":1}`, code: mongoerr.IllegalOperation, msg: "Dropping the 'admin' database is prohibited."},

		// renameCollection
		{name: "renameCollection within the database", ref: renameRef2, admin: true, docs: docs, cmd: `{"renameCollection":"{{db}}.c","to":"{{db}}.d"}`, want: `{}`,
			thenFind: `{"find":"d","projection":{"_id":1}}`, thenWant: `[{"_id":1},{"_id":2}]`},
		{name: "renameCollection of a view", ref: renameRef2 + " (checkSourceAndTargetNamespaces)", admin: true, docs: docs,
			setup: []string{`{"create":"v","viewOn":"c","pipeline":[]}`},
			cmd:   `{"renameCollection":"{{db}}.v","to":"{{db}}.w"}`, code: mongoerr.CommandNotSupportedOnView, msg: "cannot rename view: {{db}}.v"},
		{name: "renameCollection of a time-series collection by its own name", ref: renameRef2 + " (checkSourceAndTargetNamespaces); jstests/core/timeseries/ddl/rename_timeseries_legacy.js",
			admin: true, setup: []string{`{"create":"ts","timeseries":{"timeField":"t"}}`},
			cmd: `{"renameCollection":"{{db}}.ts","to":"{{db}}.other"}`, code: mongoerr.CommandNotSupportedOnView, msg: "cannot rename view: {{db}}.ts"},
		// validateNamespacesForRenameCollection (rename_collection.cpp):
		// the names checked before either collection is looked up.
		{name: "renameCollection of system.views", ref: renameValidateRef, admin: true, docs: docs,
			setup: []string{`{"create":"v","viewOn":"c","pipeline":[]}`},
			cmd:   `{"renameCollection":"{{db}}.system.views","to":"{{db}}.vv"}`, code: mongoerr.IllegalOperation, msg: "error with source namespace: cannot write to {{db}}.system.views"},
		{name: "renameCollection onto system.profile", ref: renameValidateRef, admin: true, docs: docs,
			cmd: `{"renameCollection":"{{db}}.c","to":"{{db}}.system.profile"}`, code: mongoerr.IllegalOperation, msg: "error with target namespace: cannot write to {{db}}.system.profile"},
		{name: "renameCollection onto a name no create accepts", ref: renameValidateRef, admin: true, docs: docs,
			cmd: `{"renameCollection":"{{db}}.c","to":"{{db}}.system.foo"}`, code: mongoerr.IllegalOperation, msg: "error with target namespace: Invalid system namespace: {{db}}.system.foo"},
		{name: "renameCollection of system.js", ref: renameValidateRef, admin: true,
			setup: []string{`{"insert":"system.js","documents":[{"_id":"f","value":1}]}`},
			cmd:   `{"renameCollection":"{{db}}.system.js","to":"{{db}}.js"}`, code: mongoerr.IllegalOperation, msg: "renaming system.js collection or renaming to system.js is not allowed"},
		{name: "renameCollection of the server configuration", ref: renameValidateRef, admin: true,
			cmd: `{"renameCollection":"admin.system.version","to":"admin.version"}`, code: mongoerr.IllegalOperation, msg: "renaming the server configuration collection (admin.system.version) is not allowed",
			thenFind: `{"find":"system.version","$db":"admin"}`, thenWant: `[{"_id":"featureCompatibilityVersion","version":"8.0"}]`},
		{name: "renameCollection onto a buckets name", ref: renameValidateRef + "; jstests/core/timeseries/ddl/rename_timeseries_legacy.js", admin: true, docs: docs,
			cmd: `{"renameCollection":"{{db}}.c","to":"{{db}}.system.buckets.c"}`, code: mongoerr.IllegalOperation,
			msg: "Cannot rename non timeseries buckets collection '{{db}}.c' to a timeseries buckets namespace '{{db}}.system.buckets.c'."},
		{name: "renameCollection of buckets to a plain name", ref: renameValidateRef + "; jstests/core/timeseries/timeseries_bucket_rename.js", admin: true,
			setup: []string{`{"create":"ts","timeseries":{"timeField":"t"}}`, `{"insert":"ts","documents":[{"t":{"$date":"2024-01-01T00:00:00Z"}}]}`},
			cmd:   `{"renameCollection":"{{db}}.system.buckets.ts","to":"{{db}}.other"}`, code: mongoerr.IllegalOperation,
			msg:      "Cannot rename timeseries buckets collection '{{db}}.system.buckets.ts' to a non timeseries buckets namespace '{{db}}.other'.",
			thenFind: `{"find":"other"}`, thenWant: `[]`},
		{name: "renameCollection of buckets to buckets", ref: renameValidateRef, admin: true,
			setup: []string{`{"create":"ts","timeseries":{"timeField":"t"}}`},
			cmd:   `{"renameCollection":"{{db}}.system.buckets.ts","to":"{{db}}.system.buckets.other"}`, code: mongoerr.NotImplemented,
			msg: "renaming a time-series buckets collection is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it"},
		{name: "renameCollection onto a view, even with dropTarget", ref: renameRef2 + " (checkSourceAndTargetNamespaces)", admin: true, docs: docs,
			setup: []string{`{"create":"v","viewOn":"c","pipeline":[]}`, `{"insert":"d","documents":[{"_id":9}]}`},
			cmd:   `{"renameCollection":"{{db}}.d","to":"{{db}}.v","dropTarget":true}`, code: mongoerr.NamespaceExists, msg: "a view already exists with that name: {{db}}.v"},
		{name: "renameCollection onto a time-series collection", ref: renameRef2 + " (checkSourceAndTargetNamespaces)", admin: true, docs: docs,
			setup: []string{`{"create":"ts","timeseries":{"timeField":"t"}}`},
			cmd:   `{"renameCollection":"{{db}}.c","to":"{{db}}.ts","dropTarget":true}`, code: mongoerr.NamespaceExists, msg: "a view already exists with that name: {{db}}.ts"},
		{name: "renameCollection with dropTarget", ref: renameRef2, admin: true, docs: docs, setup: []string{`{"insert":"d","documents":[{"_id":9}]}`},
			cmd: `{"renameCollection":"{{db}}.c","to":"{{db}}.d","dropTarget":true}`, want: `{}`,
			thenFind: `{"find":"d","projection":{"_id":1}}`, thenWant: `[{"_id":1},{"_id":2}]`},
		{name: "renameCollection outside admin", ref: renameRef2, docs: docs, cmd: `{"renameCollection":"{{db}}.c","to":"{{db}}.d"}`, code: mongoerr.Unauthorized, msg: "renameCollection may only be run against the admin database."},
		{name: "renameCollection of a missing source", ref: renameRef2, admin: true, cmd: `{"renameCollection":"{{db}}.nothere","to":"{{db}}.d"}`, code: mongoerr.NamespaceNotFound, msg: "Source collection {{db}}.nothere does not exist"},
		{name: "renameCollection onto an existing target", ref: renameRef2, admin: true, docs: docs, setup: []string{`{"insert":"d","documents":[{"_id":9}]}`},
			cmd: `{"renameCollection":"{{db}}.c","to":"{{db}}.d"}`, code: mongoerr.NamespaceExists, msg: "target namespace exists"},
		{name: "renameCollection to itself", ref: renameRef2, admin: true, docs: docs, cmd: `{"renameCollection":"{{db}}.c","to":"{{db}}.c"}`, code: mongoerr.IllegalOperation, msg: "Can't rename a collection to itself"},
		{name: "renameCollection without to", ref: renameRef2, admin: true, cmd: `{"renameCollection":"{{db}}.c"}`, code: mongoerr.IDLFailedToParse, msg: "BSON field 'renameCollection.to' is missing but a required field"},

		// listCollections, listDatabases
		{name: "listCollections nameOnly", ref: listCollRef, docs: docs, cmd: `{"listCollections":1,"nameOnly":true}`,
			want: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"c","type":"collection"}]}}`},
		{name: "listCollections with a filter on type", ref: listCollRef, docs: docs, setup: []string{`{"create":"w","timeseries":{"timeField":"t"}}`},
			cmd:  `{"listCollections":1,"filter":{"type":"timeseries"},"nameOnly":true}`,
			want: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"w","type":"timeseries"}]}}`},
		{name: "listCollections a filter that is a number", ref: listCollRef, cmd: `{"listCollections":1,"filter":1}`, code: mongoerr.TypeMismatch, msg: "BSON field 'listCollections.filter' is the wrong type 'int', expected type 'object'"},
		{name: "listCollections an unknown field", ref: listCollRef, cmd: `{"listCollections":1,"foo":1}`, code: mongoerr.IDLUnknownField, msg: "BSON field 'listCollections.foo' is an unknown field."},
		{name: "listDatabases filtered by name", ref: listDBRef, admin: true, docs: docs, cmd: `{"listDatabases":1,"filter":{"name":"{{db}}"},"nameOnly":true}`,
			want: `{"databases":[{"name":"{{db}}"}]}`},
		{name: "listDatabases outside admin", ref: listDBRef, cmd: `{"listDatabases":1}`, code: mongoerr.Unauthorized, msg: "listDatabases may only be run against the admin database."},
		{name: "listDatabases with a filter whose $expr fails", ref: listDBRef + "; jstests/core/catalog/list_databases.js", admin: true, docs: `[{"a":1}]`,
			cmd: `{"listDatabases":1,"filter":{"$expr":{"$abs":"$name"}}}`, code: 28765},
	})
	s := newSuite(t)
	s.runCase(t, "listDatabases totalSize sums the databases the filter keeps", listDBRef+" (list_databases_common.h); jstests/core/catalog/list_databases.js",
		cover{family: commandFam, op: "listDatabases", col: semantics}, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"a":1}]`)
			insertDocs(t, db.Client().Database(db.Name()+"_other").Collection("c"), `[{"a":1}]`)
			defer db.Client().Database(db.Name() + "_other").Drop(ctxFor(t))
			reply := mustCommand(t, db.Client().Database("admin"), `{"listDatabases":1,"filter":{"name":"`+db.Name()+`"}}`)
			dbs, _ := field(reply, "databases").(bson.A)
			if len(dbs) != 1 {
				t.Fatalf("databases %s, want one", relaxed(dbs))
			}
			size := field(dbs[0].(bson.D), "sizeOnDisk")
			if total := field(reply, "totalSize"); relaxed(total) != relaxed(size) || size == int64(0) {
				t.Errorf("totalSize %v, want the one database's sizeOnDisk %v", total, size)
			}
		})
	s.runCase(t, "a server has admin, config and local from the start; config can be dropped",
		"src/mongo/db/mongod_main.cpp (logStartup: local.startup_log); commands/feature_compatibility_version.cpp (admin.system.version); "+
			"sessions_collection_standalone.cpp, sessions_collection.cpp (config.system.sessions, lsidTTLIndex)",
		cover{family: commandFam, op: "listDatabases", col: semantics}, func(t *testing.T, db *mongo.Database) {
			admin := db.Client().Database("admin")
			reply := mustCommand(t, admin, `{"listDatabases":1,"nameOnly":true,"filter":{"name":{"$in":["admin","config","local"]}}}`)
			if got := relaxed(field(reply, "databases")); got != `[{"name":"admin"},{"name":"config"},{"name":"local"}]` {
				t.Errorf("databases %s", got)
			}
			fcv := mustCommand(t, admin, `{"find":"system.version","filter":{"_id":"featureCompatibilityVersion"}}`)
			if got := relaxed(field(field(fcv, "cursor").(bson.D), "firstBatch")); got != `[{"_id":"featureCompatibilityVersion","version":"8.0"}]` {
				t.Errorf("admin.system.version %s", got)
			}
			idx := mustCommand(t, db.Client().Database("config"), `{"listIndexes":"system.sessions"}`)
			if got := relaxed(field(field(idx, "cursor").(bson.D), "firstBatch")); got != `[{"v":2,"key":{"_id":1},"name":"_id_"},{"v":2,"key":{"lastUse":1},"name":"lsidTTLIndex","expireAfterSeconds":1800}]` {
				t.Errorf("config.system.sessions indexes %s", got)
			}
			logs := mustCommand(t, db.Client().Database("local"), `{"listCollections":1,"filter":{"name":"startup_log"}}`)
			first, _ := field(field(logs, "cursor").(bson.D), "firstBatch").(bson.A)
			if len(first) != 1 || relaxed(field(first[0].(bson.D), "options")) != `{"capped":true,"size":10485760}` {
				t.Errorf("local.startup_log %s", relaxed(first))
			}
			// The start's entry records the command line getCmdLineOpts
			// reports (jstests/core/diagnostics/startup_log.js).
			entry := mustCommand(t, db.Client().Database("local"), `{"find":"startup_log","sort":{"$natural":-1},"limit":1}`)
			batch := field(field(entry, "cursor").(bson.D), "firstBatch").(bson.A)
			opts := mustCommand(t, admin, `{"getCmdLineOpts":1}`)
			if got, want := relaxed(field(batch[0].(bson.D), "cmdLine")), relaxed(field(opts, "parsed")); got != want || !strings.Contains(got, `"port"`) {
				t.Errorf("startup_log cmdLine %s, getCmdLineOpts parsed %s", got, want)
			}
			// drop_database.cpp refuses admin alone; config drops on a
			// server that is no config server (jstests/noPassthrough/drop_config_db.js).
			mustCommand(t, db.Client().Database("config"), `{"dropDatabase":1}`)
			reply = mustCommand(t, admin, `{"listDatabases":1,"nameOnly":true,"filter":{"name":"config"}}`)
			if got := relaxed(field(reply, "databases")); got != `[]` {
				t.Errorf("config after dropDatabase: %s", got)
			}
		})
}

func TestIndexCommands(t *testing.T) {
	docs := `[{"_id":1,"a":1,"t":{"$date":"2020-01-01T00:00:00Z"}},{"_id":2,"a":2}]`
	runCmdCases(t, []cmdCase{
		// createIndexes
		{name: "createIndexes TTL, partial, sparse, unique and hidden", ref: createIdxRef, docs: docs,
			cmd: `{"createIndexes":"c","indexes":[{"key":{"t":1},"name":"t_1","expireAfterSeconds":3600},{"key":{"a":1},"name":"a_1","partialFilterExpression":{"a":{"$gt":1}}},
				{"key":{"s":1},"name":"s_1","sparse":true},{"key":{"a":1,"u":1},"name":"a_u","unique":true},{"key":{"h":1},"name":"h_1","hidden":true}]}`,
			want:     `{"numIndexesBefore":1,"numIndexesAfter":6}`,
			thenFind: `{"listIndexes":"c"}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.c","firstBatch":[{"v":2,"key":{"_id":1},"name":"_id_"},
				{"v":2,"key":{"t":1},"name":"t_1","expireAfterSeconds":3600},{"v":2,"key":{"a":1},"name":"a_1","partialFilterExpression":{"a":{"$gt":1}}},
				{"v":2,"key":{"s":1},"name":"s_1","sparse":true},{"v":2,"key":{"a":1,"u":1},"name":"a_u","unique":true},{"v":2,"key":{"h":1},"name":"h_1","hidden":true}]}}`},
		{name: "createIndexes on config.transactions", ref: "src/mongo/db/commands/create_indexes_cmd.cpp (runCreateIndexesWithCoordinator); jstests/core/ddl/create_indexes.js",
			db: "config", cmd: `{"createIndexes":"transactions","indexes":[{"key":{"star":1},"name":"star"}]}`, code: 20, msg: "not allowed to create index on config.transactions"},
		{name: "createIndexes of no index on config.transactions", ref: "src/mongo/db/commands/create_indexes_cmd.cpp (runCreateIndexesWithCoordinator); jstests/core/ddl/create_indexes.js",
			db: "config", cmd: `{"createIndexes":"transactions","indexes":[]}`, code: 20, msg: "not allowed to create index on config.transactions"},
		{name: "createIndexes of an index that exists", ref: createIdxRef, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			cmd: `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`, want: `{"numIndexesBefore":2,"numIndexesAfter":2,"note":"all indexes already exist"}`},
		{name: "createIndexes makes the collection", ref: createIdxRef, cmd: `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`,
			want: `{"numIndexesBefore":1,"numIndexesAfter":2,"createdCollectionAutomatically":true}`},
		// compound_index_max_fields.js: 32 fields build, 33 do not.
		{name: "createIndexes of 32 fields", ref: createIdxRef + "; src/mongo/bson/ordering.h", cmd: `{"createIndexes":"c","indexes":[{"key":{"f0":1,"f1":-1,"f2":1,"f3":-1,"f4":1,"f5":-1,"f6":1,"f7":-1,"f8":1,"f9":-1,"f10":1,"f11":-1,"f12":1,"f13":-1,"f14":1,"f15":-1,"f16":1,"f17":-1,"f18":1,"f19":-1,"f20":1,"f21":-1,"f22":1,"f23":-1,"f24":1,"f25":-1,"f26":1,"f27":-1,"f28":1,"f29":-1,"f30":1,"f31":-1},"name":"f32"}]}`,
			want: `{"numIndexesBefore":1,"numIndexesAfter":2,"createdCollectionAutomatically":true}`},
		{name: "createIndexes of 33 fields", ref: createIdxRef + "; src/mongo/bson/ordering.h (Ordering::verifyCardinality)", cmd: `{"createIndexes":"c","indexes":[{"key":{"f32":-1,"f0":1,"f1":-1,"f2":1,"f3":-1,"f4":1,"f5":-1,"f6":1,"f7":-1,"f8":1,"f9":-1,"f10":1,"f11":-1,"f12":1,"f13":-1,"f14":1,"f15":-1,"f16":1,"f17":-1,"f18":1,"f19":-1,"f20":1,"f21":-1,"f22":1,"f23":-1,"f24":1,"f25":-1,"f26":1,"f27":-1,"f28":1,"f29":-1,"f30":1,"f31":-1},"name":"f33"}]}`,
			code: mongoerr.ErrTooManyCompoundKeys, msg: "too many compound keys"},
		{name: "createIndexes a negative TTL", ref: createIdxRef, cmd: `{"createIndexes":"c","indexes":[{"key":{"t":1},"name":"t_1","expireAfterSeconds":-1}]}`,
			code: mongoerr.CannotCreateIndex, msg: `. Index spec: { key: { t: 1 }, name: "t_1", expireAfterSeconds: -1 } :: caused by :: TTL index 'expireAfterSeconds' option cannot be less than 0`},
		{name: "createIndexes a TTL that is a string", ref: createIdxRef, cmd: `{"createIndexes":"c","indexes":[{"key":{"t":1},"name":"t_1","expireAfterSeconds":"1"}]}`,
			code: mongoerr.CannotCreateIndex, msg: `. Index spec: { key: { t: 1 }, name: "t_1", expireAfterSeconds: "1" } :: caused by :: TTL index 'expireAfterSeconds' option must be numeric, but received a type of 'string'`},
		{name: "createIndexes a compound TTL", ref: createIdxRef, cmd: `{"createIndexes":"c","indexes":[{"key":{"t":1,"a":1},"name":"t_a","expireAfterSeconds":10}]}`,
			code: mongoerr.CannotCreateIndex, msg: `TTL indexes are single-field indexes, compound indexes do not support TTL. Index spec: { key: { t: 1, a: 1 }, name: "t_a", expireAfterSeconds: 10 }`},
		{name: "createIndexes sparse and partial together", ref: createIdxRef, cmd: `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1","sparse":true,"partialFilterExpression":{"a":1}}]}`,
			code: mongoerr.CannotCreateIndex},
		{name: "createIndexes a unique index over duplicates", ref: createIdxRef, docs: `[{"_id":1,"a":1},{"_id":2,"a":1}]`, cmd: `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1","unique":true}]}`,
			code: mongoerr.DuplicateKey},
		{name: "createIndexes an unknown option", ref: createIdxRef, cmd: `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1","foo":1}]}`, code: mongoerr.InvalidIndexSpecificationOption},
		{name: "createIndexes without a name", ref: createIdxRef, cmd: `{"createIndexes":"c","indexes":[{"key":{"a":1}}]}`, code: mongoerr.FailedToParse},
		{name: "createIndexes a key of 0", ref: createIdxRef, cmd: `{"createIndexes":"c","indexes":[{"key":{"a":0},"name":"a_0"}]}`, code: mongoerr.CannotCreateIndex},
		{name: "createIndexes an index named *", ref: createIdxRef, cmd: `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"*"}]}`, code: mongoerr.BadValue, msg: "The index name '*' is not valid."},
		{name: "createIndexes of no index", ref: createIdxRef, cmd: `{"createIndexes":"c","indexes":[]}`, code: mongoerr.BadValue, msg: "Must specify at least one index to create"},
		{name: "createIndexes a name taken by another key", ref: createIdxRef, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"x"}]}`},
			cmd: `{"createIndexes":"c","indexes":[{"key":{"b":1},"name":"x"}]}`, code: mongoerr.IndexKeySpecsConflict},
		{name: "createIndexes a key indexed under another name", ref: createIdxRef, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"x"}]}`},
			cmd: `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"y"}]}`, code: mongoerr.IndexOptionsConflict, msg: "Index already exists with a different name: x"},
		// parseAndValidateIndexSpecs (index_key_validate.cpp) runs
		// validateIdIndexSpec on any {_id: 1} or {_id: -1} key: only key,
		// name, v, collation and ns, and the key {_id: 1}; _fixIndexSpec
		// (index_catalog_impl.cpp) then names it _id_, so it is the _id
		// index (jstests/core/index/index_id_options.js, jstests/core/query/in/in5.js).
		{name: "createIndexes the _id key under another name", ref: idIndexSpecRef, docs: docs,
			cmd: `{"createIndexes":"c","indexes":[{"key":{"_id":1},"name":"_id_1"}]}`, want: `{"numIndexesBefore":1,"numIndexesAfter":1,"note":"all indexes already exist"}`},
		{name: "createIndexes the _id key, explicitly unique, under another name", ref: idIndexSpecRef, docs: docs,
			cmd: `{"createIndexes":"c","indexes":[{"key":{"_id":1.0},"name":"other","unique":true}]}`, code: mongoerr.InvalidIndexSpecificationOption,
			msg: `The field 'unique' is not valid for an _id index specification. Specification: { key: { _id: 1.0 }, name: "other", unique: true, v: 2 }`},
		{name: "createIndexes a non-unique _id key", ref: idIndexSpecRef, docs: docs,
			cmd: `{"createIndexes":"c","indexes":[{"key":{"_id":-1},"name":"i","unique":false}]}`, code: mongoerr.InvalidIndexSpecificationOption,
			msg: `The field 'unique' is not valid for an _id index specification. Specification: { key: { _id: -1 }, name: "i", unique: false, v: 2 }`},
		{name: "createIndexes a sparse _id key", ref: idIndexSpecRef, docs: docs,
			cmd: `{"createIndexes":"c","indexes":[{"key":{"_id":1},"name":"i","sparse":true,"v":2,"ns":"x.c"}]}`, code: mongoerr.InvalidIndexSpecificationOption,
			msg: `The field 'sparse' is not valid for an _id index specification. Specification: { key: { _id: 1 }, name: "i", sparse: true, v: 2 }`},
		{name: "createIndexes a partial _id key", ref: idIndexSpecRef, docs: docs,
			cmd: `{"createIndexes":"c","indexes":[{"key":{"_id":1},"name":"i","partialFilterExpression":{"a":1}}]}`, code: mongoerr.InvalidIndexSpecificationOption,
			msg: `The field 'partialFilterExpression' is not valid for an _id index specification. Specification: { key: { _id: 1 }, name: "i", partialFilterExpression: { a: 1 }, v: 2 }`},
		{name: "createIndexes a TTL _id key", ref: idIndexSpecRef, docs: docs,
			cmd: `{"createIndexes":"c","indexes":[{"key":{"_id":1},"name":"i","expireAfterSeconds":-1}]}`, code: mongoerr.InvalidIndexSpecificationOption,
			msg: `The field 'expireAfterSeconds' is not valid for an _id index specification. Specification: { key: { _id: 1 }, name: "i", expireAfterSeconds: -1, v: 2 }`},
		{name: "createIndexes a descending _id key", ref: idIndexSpecRef, docs: docs,
			cmd: `{"createIndexes":"c","indexes":[{"key":{"_id":-1},"name":"_id_"}]}`, code: mongoerr.BadValue, msg: "The field 'key' for an _id index must be {_id: 1}, but got { _id: -1 }"},
		{name: "createIndexes the _id key on a new collection", ref: idIndexSpecRef,
			cmd:  `{"createIndexes":"c","indexes":[{"key":{"_id":1},"name":"x","v":2}]}`,
			want: `{"numIndexesBefore":1,"numIndexesAfter":1,"createdCollectionAutomatically":true,"note":"all indexes already exist"}`},
		{name: "createIndexes a hashed _id key is no _id index", ref: idIndexSpecRef, docs: docs,
			cmd: `{"createIndexes":"c","indexes":[{"key":{"_id":"hashed"},"name":"h"}]}`, want: `{"numIndexesBefore":1,"numIndexesAfter":2}`},
		{name: "createIndexes a hidden index on a system collection", ref: createIdxRef + " (parseAndValidateIndexSpecs)",
			cmd: `{"createIndexes":"system.js","indexes":[{"key":{"a":1},"name":"a_1","hidden":false}]}`, code: mongoerr.BadValue, msg: "Can't hide index on system collection"},

		// listIndexes, dropIndexes
		{name: "listIndexes of a collection that does not exist", ref: listIdxRef, cmd: `{"listIndexes":"nothere"}`, code: mongoerr.NamespaceNotFound, msg: "ns does not exist: {{db}}.nothere"},
		// cursor is SimpleCursorOptions (basic_types.idl): strict, batchSize >= 0.
		{name: "listIndexes cursor with an unknown field", ref: listIdxRef + "; src/mongo/idl/basic_types.idl (SimpleCursorOptions); jstests/core/catalog/list_indexes_invalid.js", docs: docs,
			cmd: `{"listIndexes":"c","cursor":{"batchSize":2,"foo":1}}`, code: mongoerr.IDLUnknownField, msg: "BSON field 'listIndexes.cursor.foo' is an unknown field."},
		{name: "listIndexes cursor batchSize -1", ref: listIdxRef + "; src/mongo/idl/basic_types.idl (SimpleCursorOptions); jstests/core/catalog/list_indexes_invalid.js", docs: docs,
			cmd: `{"listIndexes":"c","cursor":{"batchSize":-1}}`, code: mongoerr.ErrIDLValueOutOfRange, msg: "BSON field 'batchSize' value must be >= 0, actual value '-1'"},
		{name: "listCollections cursor batchSize -1", ref: listCollRef + "; src/mongo/idl/basic_types.idl (SimpleCursorOptions)",
			cmd: `{"listCollections":1,"cursor":{"batchSize":-1}}`, code: mongoerr.ErrIDLValueOutOfRange, msg: "BSON field 'batchSize' value must be >= 0, actual value '-1'"},
		{name: "listIndexes batchSize", ref: listIdxRef, docs: docs, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			cmd: `{"listIndexes":"c","cursor":{"batchSize":1}}`, want: `{"cursor":{"id":"*","ns":"{{db}}.c","firstBatch":[{"v":2,"key":{"_id":1},"name":"_id_"}]}}`},
		{name: "dropIndexes by name", ref: dropIdxRef, docs: docs, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			cmd: `{"dropIndexes":"c","index":"a_1"}`, want: `{"nIndexesWas":2}`},
		{name: "dropIndexes by key pattern", ref: dropIdxRef, docs: docs, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			cmd: `{"dropIndexes":"c","index":{"a":1}}`, want: `{"nIndexesWas":2}`},
		{name: "dropIndexes *", ref: dropIdxRef, docs: docs, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			cmd: `{"dropIndexes":"c","index":"*"}`, want: `{"nIndexesWas":2,"msg":"non-_id indexes dropped for collection"}`},
		{name: "dropIndexes of _id_", ref: dropIdxRef, docs: docs, cmd: `{"dropIndexes":"c","index":"_id_"}`, code: mongoerr.InvalidOptions, msg: "cannot drop _id index"},
		{name: "dropIndexes of an index that does not exist", ref: dropIdxRef, docs: docs, cmd: `{"dropIndexes":"c","index":"nope"}`, code: mongoerr.IndexNotFound, msg: "index not found with name [nope]"},

		// collMod
		{name: "collMod changes a TTL", ref: collModRef, docs: docs, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"t":1},"name":"t_1","expireAfterSeconds":3}]}`},
			cmd: `{"collMod":"c","index":{"keyPattern":{"t":1},"expireAfterSeconds":1000}}`, want: `{"expireAfterSeconds_old":{"$numberLong":"3"},"expireAfterSeconds_new":{"$numberLong":"1000"}}`,
			thenFind: `{"listIndexes":"c"}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.c","firstBatch":[{"v":2,"key":{"_id":1},"name":"_id_"},{"v":2,"key":{"t":1},"name":"t_1","expireAfterSeconds":1000}]}}`},
		{name: "collMod hides an index", ref: collModRef, docs: docs, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			cmd: `{"collMod":"c","index":{"name":"a_1","hidden":true}}`, want: `{"hidden_old":false,"hidden_new":true}`,
			thenFind: `{"listIndexes":"c"}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.c","firstBatch":[{"v":2,"key":{"_id":1},"name":"_id_"},{"v":2,"key":{"a":1},"name":"a_1","hidden":true}]}}`},
		// CollectionImpl::setValidationLevel stores the unset action as
		// its default (collection_impl.cpp).
		{name: "collMod changes the validator", ref: collModRef + "; src/mongo/db/catalog/collection_impl.cpp; jstests/core/query/doc_validation/doc_validation.js", docs: docs, cmd: `{"collMod":"c","validator":{"a":{"$type":"int"}},"validationLevel":"moderate"}`, want: `{}`,
			thenFind: `{"listCollections":1,"filter":{"name":"c"}}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"c","type":"collection","options":{"validator":{"a":{"$type":"int"}},"validationLevel":"moderate","validationAction":"error"},"info":"*","idIndex":"*"}]}}`},
		{name: "collMod of the validation action stores the default level", ref: collModRef + "; src/mongo/db/catalog/collection_impl.cpp; jstests/core/query/doc_validation/doc_validation.js",
			setup: []string{`{"create":"v","validator":{"a":{"$exists":true}}}`, `{"collMod":"v","validator":{"b":{"$exists":true}}}`},
			cmd:   `{"collMod":"v","validationAction":"warn"}`, want: `{}`,
			thenFind: `{"listCollections":1,"filter":{"name":"v"}}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"v","type":"collection","options":{"validator":{"b":{"$exists":true}},"validationLevel":"strict","validationAction":"warn"},"info":"*","idIndex":"*"}]}}`},
		{name: "collMod removing the validator keeps the defaults", ref: collModRef + "; src/mongo/db/catalog/collection_impl.cpp",
			setup: []string{`{"create":"v","validator":{"a":{"$exists":true}}}`}, cmd: `{"collMod":"v","validator":{}}`, want: `{}`,
			thenFind: `{"listCollections":1,"filter":{"name":"v"}}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"v","type":"collection","options":{"validationLevel":"strict","validationAction":"error"},"info":"*","idIndex":"*"}]}}`},
		{name: "collMod of an index that does not exist", ref: collModRef, docs: docs, cmd: `{"collMod":"c","index":{"name":"nope","hidden":true}}`,
			code: mongoerr.IndexNotFound, msg: "cannot find index nope for ns {{db}}.c"},
		{name: "collMod hides _id_", ref: collModRef + "; jstests/core/index/hidden_index.js", docs: docs, cmd: `{"collMod":"c","index":{"name":"_id_","hidden":true}}`,
			code: mongoerr.BadValue, msg: "can't hide _id index"},
		{name: "collMod of a collection that does not exist", ref: collModRef, cmd: `{"collMod":"nothere","validator":{}}`, code: mongoerr.NamespaceNotFound, msg: "ns does not exist"},
		{name: "collMod an unknown option", ref: collModRef, docs: docs, cmd: `{"collMod":"c","foo":1}`, code: mongoerr.IDLUnknownField, msg: "BSON field 'collMod.foo' is an unknown field."},
	})
}

func TestStatsExplainAndServerCommands(t *testing.T) {
	docs := `[{"_id":1,"a":1},{"_id":2,"a":2}]`
	runCmdCases(t, []cmdCase{
		// collStats, dbStats, dataSize
		{name: "collStats counts documents and real BSON bytes", ref: statsRef, docs: docs, cmd: `{"collStats":"c"}`,
			want: `{"ns":"{{db}}.c","size":42,"count":2,"avgObjSize":21,"nindexes":1}`},
		{name: "collStats numericOnly", ref: statsRef + "; src/mongo/db/pipeline/storage_stats_spec.idl (StorageStatsSpec, chained into CollStatsCommand); jstests/core/catalog/collstats/collStats_numericOnly.js",
			cov: cover{family: commandFam, op: "collStats", col: semantics}, docs: docs, cmd: `{"collStats":"c","numericOnly":true}`, want: `{"ns":"{{db}}.c"}`},
		{name: "collStats numericOnly not a boolean", ref: statsRef + "; src/mongo/db/pipeline/storage_stats_spec.idl (optionalBool)", docs: docs,
			cmd: `{"collStats":"c","numericOnly":1}`, code: mongoerr.TypeMismatch, msg: "Field 'numericOnly' should be a boolean value, but found: int"},
		{name: "collStats a scale of 0", ref: statsRef, docs: docs, cmd: `{"collStats":"c","scale":0}`, code: 51024, msg: "BSON field 'scale' value must be >= 1, actual value '0'"},
		{name: "dbStats counts collections and objects", ref: statsRef, docs: docs, cmd: `{"dbStats":1}`,
			want: `{"db":"{{db}}","collections":1,"views":0,"objects":2,"avgObjSize":21.0,"dataSize":42.0}`},
		{name: "dbStats a negative scale", ref: statsRef + " (CmdDbStats::typedRun); jstests/core/catalog/db_stats.js", cmd: `{"dbStats":1,"scale":-1}`, code: mongoerr.BadValue, msg: "Scale factor must be greater than zero"},
		{name: "dbStats a scale of 0", ref: statsRef + " (CmdDbStats::typedRun); jstests/core/catalog/db_stats.js", cmd: `{"dbStats":1,"scale":0}`, code: mongoerr.BadValue, msg: "Scale factor must be greater than zero"},
		{name: "dbStats truncates a fractional scale", ref: statsRef + "; jstests/core/catalog/db_stats.js", cmd: `{"dbStats":1,"scale":1.5}`, want: `{"scaleFactor":1.0}`},
		{name: "dataSize of a collection", ref: statsRef, docs: docs, cmd: `{"dataSize":"{{db}}.c"}`, want: `{"estimate":false,"size":42,"numObjects":2,"millis":"*"}`},
		{name: "dataSize of a key range", ref: statsRef, docs: docs, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			cmd: `{"dataSize":"{{db}}.c","keyPattern":{"a":1},"min":{"a":2},"max":{"a":3}}`, want: `{"estimate":false,"size":21,"numObjects":1}`},
		{name: "dataSize of a collection that does not exist", ref: statsRef, cmd: `{"dataSize":"{{db}}.nothere"}`, want: `{"size":0,"numObjects":0,"millis":"*"}`},
		{name: "dataSize with min only", ref: statsRef, docs: docs, cmd: `{"dataSize":"{{db}}.c","min":{"a":1}}`, codeless: true, msg: "only one of min or max specified"},
		{name: "dataSize of a range no index covers", ref: statsRef, docs: docs, cmd: `{"dataSize":"{{db}}.c","keyPattern":{"a":1},"min":{"a":1},"max":{"a":2}}`,
			codeless: true, msg: "couldn't find valid index containing key pattern"},

		// explain
		{name: "explain a find at queryPlanner", ref: explainCmdRef, docs: docs, cmd: `{"explain":{"find":"c","filter":{"a":1}},"verbosity":"queryPlanner"}`,
			want: `{"explainVersion":"1","queryPlanner":"*","command":{"find":"c","filter":{"a":1},"$db":"{{db}}"}}`},
		// find_and_modify_invalid.js: the explain parses and validates
		// the findAndModify as the command does.
		{name: "explain a findAndModify on a database that does not exist", ref: explainCmdRef + "; src/mongo/db/commands/find_and_modify.cpp; jstests/core/query/explain/explain_find_and_modify.js",
			cmd: `{"explain":{"findAndModify":"c","query":{"_id":0},"remove":true},"verbosity":"queryPlanner"}`, code: mongoerr.NamespaceNotFound, msg: "database {{db}} does not exist"},
		{name: "explain a findAndModify in a database whose collections were dropped", ref: explainCmdRef + "; jstests/core/query/explain/explain_find_and_modify.js (a database stays open when its last collection is dropped)",
			docs: docs, setup: []string{`{"drop":"c"}`}, cmd: `{"explain":{"findAndModify":"c","query":{"_id":0},"remove":true},"verbosity":"queryPlanner"}`,
			want: `{"queryPlanner":{"namespace":"{{db}}.c","parsedQuery":"*","indexFilterSet":false,"optimizationTimeMillis":"*","maxIndexedOrSolutionsReached":false,
				"maxIndexedAndSolutionsReached":false,"maxScansToExplodeReached":false,"prunedSimilarIndexes":false,"winningPlan":{"isCached":false,"stage":"EOF"},"rejectedPlans":[]}}`},
		{name: "explain a findAndModify that neither updates nor removes", ref: explainCmdRef + "; src/mongo/db/commands/find_and_modify.cpp; jstests/core/query/find_and_modify/find_and_modify_invalid.js",
			cmd: `{"explain":{"findAndModify":"c","query":{}},"verbosity":"queryPlanner"}`, code: mongoerr.FailedToParse, msg: "Either an update or remove=true must be specified"},
		{name: "explain a findAndModify with arrayFilters and a pipeline", ref: explainCmdRef + "; jstests/core/query/find_and_modify/find_and_modify_invalid.js",
			cmd: `{"explain":{"findAndModify":"c","update":[{"$match":{}}],"arrayFilters":[{"e":{"$gte":100}}]},"verbosity":"queryPlanner"}`, code: mongoerr.FailedToParse, msg: "arrayFilters may not be specified for pipeline-style updates"},
		{name: "explain of an unknown command", ref: explainCmdRef, cmd: `{"explain":{"foo":"c"}}`, code: mongoerr.CommandNotFound, msg: "Explain failed due to unknown command: foo"},
		{name: "explain with a bad verbosity", ref: explainCmdRef, cmd: `{"explain":{"count":"c"},"verbosity":"x"}`, code: mongoerr.BadValue, msg: "Enumeration value 'x' for field 'explain.verbosity' is not a valid value."},
		{name: "explain of a number", ref: explainCmdRef, cmd: `{"explain":1}`, code: mongoerr.TypeMismatch, msg: "BSON field 'explain.explain' is the wrong type 'int', expected type 'object'"},

		// validate
		{name: "validate a healthy collection", ref: validateCmdRef, docs: docs, cmd: `{"validate":"c"}`, want: `{"ns":"{{db}}.c","nInvalidDocuments":0,"nrecords":2,"nIndexes":1,"valid":true}`},
		{name: "validate full and background", ref: validateCmdRef, docs: docs, cmd: `{"validate":"c","full":true,"background":true}`, code: mongoerr.InvalidOptions,
			msg: "Running the validate command with both { background: true } and { full: true } is not supported."},

		// the server's own commands
		{name: "ping", ref: serverCmdRef, cmd: `{"ping":1}`, want: `{}`},
		{name: "buildInfo names 8.0", ref: serverCmdRef, cmd: `{"buildInfo":1}`, want: `{"version":"*","versionArray":[8,0,"*","*"],"maxBsonObjectSize":16777216}`},
		{name: "hostInfo", ref: serverCmdRef, cmd: `{"hostInfo":1}`, want: `{"system":"*","os":"*","extra":"*"}`},
		// objid5.js: FeaturesCmd (generic_servers.cpp) answers the
		// scripting engine's utf8 flag and the per-process ObjectId nonce;
		// oidReset is a safeBool (generic_servers.idl). The sandbox cannot
		// draw a new nonce for its ObjectIds, so it refuses oidReset.
		{name: "features", ref: "src/mongo/db/commands/generic_servers.cpp FeaturesCmd", cmd: `{"features":1}`, want: `{"js":{"utf8":true},"oidMachine":"*"}`},
		{name: "features with a false oidReset", ref: "src/mongo/db/commands/generic_servers.idl", cmd: `{"features":1,"oidReset":0}`, want: `{"js":{"utf8":true},"oidMachine":"*"}`},
		{name: "features oidReset is a safeBool", ref: "src/mongo/db/commands/generic_servers.idl", cmd: `{"features":1,"oidReset":"yes"}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'features.oidReset' is the wrong type 'string', expected types '[bool, long, int, decimal, double']"},
		{name: "features oidReset: the sandbox keeps its nonce", ref: "src/mongo/db/commands/generic_servers.cpp FeaturesCmd", cmd: `{"features":1,"oidReset":true}`,
			code: mongoerr.NotImplemented, msg: "features with oidReset is not supported by the schemalab sandbox: its ObjectIds keep one per-process nonce; run this step against a real MongoDB with --uri"},
		{name: "serverStatus", ref: serverCmdRef, cmd: `{"serverStatus":1}`, want: `{"host":"*","version":"*","process":"mongod"}`},
		{name: "getParameter of the feature compatibility version", ref: serverCmdRef, admin: true, cmd: `{"getParameter":1,"featureCompatibilityVersion":1}`,
			want: `{"featureCompatibilityVersion":{"version":"8.0"}}`},
		{name: "getParameter of the time-series bucket limits", ref: serverCmdRef + "; src/mongo/db/timeseries/timeseries.idl", admin: true,
			cmd:  `{"getParameter":1,"timeseriesBucketMaxCount":1,"timeseriesBucketMaxSize":1}`,
			want: `{"timeseriesBucketMaxCount":1000,"timeseriesBucketMaxSize":128000}`},
		// query_knobs.idl: the limits the sandbox enforces, in their IDL
		// storage type (AtomicWord<long long> answers a long); find9.js and
		// find_getmore_cmd.js read the default batch size this way, and
		// sbe_util.js reads the framework control.
		{name: "getParameter of the query knobs", ref: serverCmdRef + "; src/mongo/db/query/query_knobs.idl", admin: true,
			cmd:  `{"getParameter":1,"internalQueryFindCommandBatchSize":1,"internalQueryFrameworkControl":1,"internalQueryMaxBlockingSortMemoryUsageBytes":1,"internalDocumentSourceGroupMaxMemoryBytes":1,"internalPipelineLengthLimit":1}`,
			want: `{"internalDocumentSourceGroupMaxMemoryBytes":{"$numberLong":"104857600"},"internalPipelineLengthLimit":1000,"internalQueryFindCommandBatchSize":{"$numberLong":"101"},"internalQueryFrameworkControl":"forceClassicEngine","internalQueryMaxBlockingSortMemoryUsageBytes":104857600}`},
		{name: "getParameter showDetails", ref: serverCmdRef, admin: true, cmd: `{"getParameter":{"showDetails":true},"internalPipelineLengthLimit":1}`,
			want: `{"internalPipelineLengthLimit":{"value":1000,"settableAtRuntime":false,"settableAtStartup":true}}`},
		// set_parameter.cpp CmdSet: the sandbox's parameters are fixed, so
		// a parameter may be set to the value it has (the reply's "was")
		// and to nothing else.
		{name: "setParameter to the value it has", ref: setParameterRef, admin: true, cmd: `{"setParameter":1,"internalQueryFrameworkControl":"forceClassicEngine"}`,
			want: `{"was":"forceClassicEngine"}`},
		{name: "setParameter a number to its value in another type", ref: setParameterRef, admin: true, cmd: `{"setParameter":1,"internalQueryFindCommandBatchSize":101.0,"logLevel":0}`,
			want: `{"was":{"$numberLong":"101"}}`},
		{name: "setParameter to another value", ref: setParameterRef, admin: true, cmd: `{"setParameter":1,"internalQueryFindCommandBatchSize":2}`,
			code: mongoerr.NotImplemented, msg: "the schemalab sandbox cannot change internalQueryFindCommandBatchSize: it is fixed at 101; use a real MongoDB (--uri) to change it"},
		{name: "setParameter of an unknown name", ref: setParameterRef, admin: true, cmd: `{"setParameter":1,"logLevel":2,"nope":1}`,
			code: mongoerr.InvalidOptions, msg: "attempted to set unrecognized parameter [nope], use help:true to see options "},
		{name: "setParameter of a startup parameter", ref: setParameterRef, admin: true, cmd: `{"setParameter":1,"internalPipelineLengthLimit":1000}`,
			code: mongoerr.IllegalOperation, msg: "not allowed to change [internalPipelineLengthLimit] at runtime"},
		{name: "setParameter of nothing", ref: setParameterRef, admin: true, cmd: `{"setParameter":1,"comment":"x"}`,
			code: mongoerr.InvalidOptions, msg: "no option found to set, use help:true to see options "},
		{name: "setParameter outside admin", ref: setParameterRef, cmd: `{"setParameter":1,"logLevel":0}`,
			code: mongoerr.Unauthorized, msg: "setParameter may only be run against the admin database."},
		{name: "getParameter outside admin", ref: serverCmdRef, cmd: `{"getParameter":1,"featureCompatibilityVersion":1}`, code: mongoerr.Unauthorized, msg: "getParameter may only be run against the admin database."},
		{name: "getParameter of nothing known", ref: serverCmdRef, admin: true, cmd: `{"getParameter":1,"nope":1}`, code: mongoerr.InvalidOptions, msg: "no option found to get"},
		// fsync.cpp: the sandbox's storage engine has no backup mode, so
		// fsync with lock fails as on any engine without one
		// (jstests/core/administrative/fsync.js skips on exactly this).
		{name: "fsync", ref: fsyncRef, admin: true, cmd: `{"fsync":1}`, want: `{"numFiles":1}`},
		{name: "fsync lock", ref: fsyncRef + "; src/mongo/db/storage/storage_engine.h (beginBackup)", admin: true, cmd: `{"fsync":1,"lock":true}`,
			code: mongoerr.CommandNotSupported, msg: "The current storage engine doesn't support backup mode", thenFind: `{"insert":"c","documents":[{"_id":1}]}`, thenWant: `{"n":1}`},
		{name: "fsyncUnlock when not locked", ref: fsyncRef, admin: true, cov: cover{family: commandFam, op: "fsyncUnlock", col: semantics},
			cmd: `{"fsyncUnlock":1}`, codeless: true, msg: "fsyncUnlock called when not locked"},
		{name: "fsyncUnlock outside admin", ref: fsyncRef, cmd: `{"fsyncUnlock":1}`, code: mongoerr.Unauthorized, msg: "fsyncUnlock may only be run against the admin database."},
		{name: "fsync outside admin", ref: fsyncRef, cmd: `{"fsync":1,"lock":1}`, code: mongoerr.Unauthorized, msg: "fsync may only be run against the admin database."},
		{name: "getCmdLineOpts", ref: serverCmdRef, admin: true, cmd: `{"getCmdLineOpts":1}`, want: `{"argv":"*","parsed":"*"}`},
		{name: "logRotate with nothing to rotate", ref: logRotateRef, admin: true, cmd: `{"logRotate":1}`, want: `{}`},
		{name: "logRotate of a log type the server has no file for", ref: logRotateRef, admin: true, cmd: `{"logRotate":"server"}`,
			code: mongoerr.NoSuchKey, msg: "Log rotation failed due to one or more errors"},
		{name: "logRotate of neither a number nor a type", ref: logRotateRef, admin: true, cmd: `{"logRotate":true}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'logRotate.logRotate' is the wrong type 'bool', expected types '[int, string']"},
		{name: "logRotate outside admin", ref: logRotateRef, cmd: `{"logRotate":1}`, code: mongoerr.Unauthorized, msg: "logRotate may only be run against the admin database."},
		{name: "getCmdLineOpts outside admin", ref: serverCmdRef, cmd: `{"getCmdLineOpts":1}`, code: mongoerr.Unauthorized, msg: "getCmdLineOpts may only be run against the admin database."},
		{name: "getLog *", ref: serverCmdRef, admin: true, cmd: `{"getLog":"*"}`, want: `{"names":["global","startupWarnings"]}`},
		{name: "getLog of a number", ref: serverCmdRef, admin: true, cmd: `{"getLog":1}`, code: mongoerr.TypeMismatch, msg: "Argument to getLog must be of type String; found 1 of type int"},
		// These commands validate nothing: what would be an error elsewhere
		// (any value, unknown fields, any database) is answered.
		{name: "ping refuses nothing", ref: serverCmdRef, cov: cover{family: commandFam, op: "ping", col: errorCol}, cmd: `{"ping":"anything","x":1}`, want: `{}`},
		{name: "hostInfo refuses nothing", ref: serverCmdRef, cov: cover{family: commandFam, op: "hostInfo", col: errorCol}, cmd: `{"hostInfo":"x","y":1}`, want: `{"system":"*"}`},
		{name: "serverStatus refuses nothing", ref: serverCmdRef, cov: cover{family: commandFam, op: "serverStatus", col: errorCol}, cmd: `{"serverStatus":1,"nosuchsection":0}`, want: `{"host":"*"}`},
		{name: "buildInfo refuses nothing", ref: serverCmdRef, cov: cover{family: commandFam, op: "buildInfo", col: errorCol}, cmd: `{"buildInfo":"x","y":1}`, want: `{"version":"*"}`},
	})
}
