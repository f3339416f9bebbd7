package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// dropIndexes on a time-series collection runs on its buckets
// (drop_indexes.cpp, timeseries_commands_conversion_helper.cpp
// makeTimeseriesDropIndexesCommand): a name is kept, a key pattern is
// translated to the buckets' schema. The buckets collection is clustered
// by _id, so it has no _id index to count, drop, or hide.
const tsDropIndexRef = "src/mongo/db/commands/drop_indexes.cpp (CmdDropIndexes), src/mongo/db/timeseries/timeseries_commands_conversion_helper.cpp (makeTimeseriesDropIndexesCommand); jstests/core/timeseries/ddl/timeseries_index.js"

func TestTimeseriesDropIndexes(t *testing.T) {
	ts := `{"create":"ts","timeseries":{"timeField":"t","metaField":"m"}}`
	x := `{"createIndexes":"ts","indexes":[{"key":{"x":1},"name":"x_1"}]}`
	mDesc := `{"createIndexes":"ts","indexes":[{"key":{"m":1,"t":-1},"name":"m_1_t_-1"}]}`
	names := `{"listIndexes":"ts"}`
	runCmdCases(t, []cmdCase{
		{name: "dropIndexes of a time-series index by name", ref: tsDropIndexRef, cov: cover{family: commandFam, op: "dropIndexes", col: semantics},
			setup: []string{ts, x}, cmd: `{"dropIndexes":"ts","index":"x_1"}`, want: `{"nIndexesWas":2}`,
			thenFind: names, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.ts","firstBatch":[{"v":2,"key":{"m":1,"t":1},"name":"m_1_t_1"}]}}`},
		{name: "dropIndexes of a time-series index by its key", ref: tsDropIndexRef, cov: cover{family: commandFam, op: "dropIndexes", col: semantics},
			setup: []string{ts, mDesc}, cmd: `{"dropIndexes":"ts","index":{"m":1,"t":-1}}`, want: `{"nIndexesWas":2}`,
			thenFind: names, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.ts","firstBatch":[{"v":2,"key":{"m":1,"t":1},"name":"m_1_t_1"}]}}`},
		{name: "dropIndexes * on a time-series collection", ref: tsDropIndexRef, cov: cover{family: commandFam, op: "dropIndexes", col: semantics},
			setup: []string{ts, x}, cmd: `{"dropIndexes":"ts","index":"*"}`, want: `{"nIndexesWas":2,"msg":"non-_id indexes dropped for collection"}`,
			thenFind: names, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.ts","firstBatch":[]}}`},
		{name: "dropIndexes of a time-series key it does not have", ref: tsDropIndexRef, setup: []string{ts},
			cmd: `{"dropIndexes":"ts","index":{"x":1}}`, code: mongoerr.IndexNotFound, msg: "can't find index with key: { control.min.x: 1, control.max.x: 1 }"},
		{name: "dropIndexes of a key that does not convert to the buckets' schema", ref: tsDropIndexRef + "; src/mongo/db/timeseries/timeseries_index_schema_conversion_functions.cpp", setup: []string{ts},
			cmd: `{"dropIndexes":"ts","index":{"x":"hashed"}}`, code: mongoerr.IndexNotFound,
			msg: `BadValue: Invalid index spec for time-series collection: { x: "hashed" }. Indexes on measurement fields must be ascending or descending (numbers only), or '2dsphere': x: "hashed" Command request: { dropIndexes: "ts", index: { x: "hashed" }, $db: "{{db}}" }`},
		{name: "dropIndexes of _id_ on a time-series collection", ref: tsDropIndexRef, setup: []string{ts},
			cmd: `{"dropIndexes":"ts","index":"_id_"}`, code: mongoerr.IndexNotFound, msg: "index not found with name [_id_]"},
		// parseCollModRequest refuses validation options on a collection
		// with time-series options, which collMod on a time-series
		// collection is redirected to (makeTimeseriesCollModCommand).
		{name: "collMod validator on a time-series collection", ref: collModIndexRef + " (getNotSupportedOnTimeseriesError); jstests/core/timeseries/ddl/timeseries_collmod.js", setup: []string{ts},
			cmd: `{"collMod":"ts","validationAction":"warn","validator":{"required":["t"]}}`, code: mongoerr.InvalidOptions, msg: "option not supported on a time-series collection: validator"},
		{name: "collMod validationLevel on a time-series collection's buckets", ref: "src/mongo/db/commands/dbcommands.cpp (CollectionModCommand refuses a buckets namespace); jstests/core/timeseries/ddl/timeseries_collmod.js", setup: []string{ts},
			cmd: `{"collMod":"system.buckets.ts","validationLevel":"moderate"}`, code: mongoerr.InvalidNamespace, msg: "collMod on a time-series collection's underlying buckets collection is not supported."},
		{name: "collMod hiding _id_ on a time-series collection", ref: tsDropIndexRef + "; src/mongo/db/catalog/coll_mod.cpp (parseCollModRequest looks the index up first)", setup: []string{ts},
			cmd: `{"collMod":"ts","index":{"name":"_id_","hidden":true}}`, code: mongoerr.IndexNotFound, msg: "cannot find index _id_ for ns {{db}}.system.buckets.ts"},
	})
}
