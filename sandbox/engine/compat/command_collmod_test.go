package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// collMod's index option as mongod 8.0 parses and applies it
// (coll_mod.cpp parseCollModRequest, coll_mod_index.cpp
// processCollModIndexRequest): the TTL value is checked before the index
// is looked up; an index without a TTL may become one (since 5.1) unless
// it is _id or compound; the _id index can be neither hidden nor unhidden;
// a hidden value equal to the index's is a no-op that reports nothing; the
// reply's expireAfterSeconds_old/_new are longs, and so is the value
// stored (updateTTLSetting), which listIndexes answers as an int: its
// ListIndexesReplyItem reads expireAfterSeconds as a safeInt
// (list_indexes.idl; jstests/core/ddl/collmod_convert_to_ttl.js compares
// it with === 100). An unknown field in the
// index option is IDLUnknownField 40415 (CollModIndex is a strict IDL
// struct), which the 2020 jstest collMod_index_invalid_option.js predates
// (it wants InvalidOptions 72; its 8.0 version in jstests/core/ddl/ wants
// 40415).
const collModIndexRef = "src/mongo/db/catalog/coll_mod.cpp (parseCollModRequest), src/mongo/db/catalog/coll_mod_index.cpp"

func TestCollModIndexOption(t *testing.T) {
	docs := `[{"_id":1,"a":1,"t":{"$date":"2024-01-01T00:00:00Z"}}]`
	ttl := `{"createIndexes":"c","indexes":[{"key":{"t":1},"name":"t_1","expireAfterSeconds":100}]}`
	plain := `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`
	compound := `{"createIndexes":"c","indexes":[{"key":{"a":1,"t":1},"name":"a_1_t_1"}]}`
	runCmdCases(t, []cmdCase{
		{name: "an unknown field in index", ref: collModIndexRef + "; jstests/core/ddl/collMod_index_invalid_option.js", docs: docs, setup: []string{ttl},
			cmd:  `{"collMod":"c","index":{"keyPattern":{"t":1},"expireAfterSeconds":200,"invalidOption":1}}`,
			code: mongoerr.IDLUnknownField, msg: "BSON field 'collMod.index.invalidOption' is an unknown field."},
		{name: "a negative TTL is refused before the index is looked up", ref: collModIndexRef, docs: docs,
			cmd:  `{"collMod":"c","index":{"name":"nope","expireAfterSeconds":-1}}`,
			code: mongoerr.InvalidOptions, msg: "TTL index 'expireAfterSeconds' option cannot be less than 0"},
		{name: "a TTL beyond int32", ref: collModIndexRef, docs: docs, setup: []string{ttl},
			cmd:  `{"collMod":"c","index":{"name":"t_1","expireAfterSeconds":{"$numberLong":"3000000000"}}}`,
			code: mongoerr.InvalidOptions, msg: "TTL index 'expireAfterSeconds' option must be within an acceptable range, try a lower number"},
		{name: "a plain index becomes a TTL index", ref: collModIndexRef, docs: docs, setup: []string{plain},
			cmd: `{"collMod":"c","index":{"name":"a_1","expireAfterSeconds":60}}`, want: `{"expireAfterSeconds_new":{"$numberLong":"60"}}`,
			thenFind: `{"listIndexes":"c"}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.c","firstBatch":[{"v":2,"key":{"_id":1},"name":"_id_"},{"v":2,"key":{"a":1},"name":"a_1","expireAfterSeconds":60}]}}`},
		{name: "the _id index cannot become a TTL index", ref: collModIndexRef, docs: docs,
			cmd:  `{"collMod":"c","index":{"name":"_id_","expireAfterSeconds":60}}`,
			code: mongoerr.InvalidOptions, msg: "the _id field does not support TTL indexes"},
		{name: "a compound index cannot become a TTL index", ref: collModIndexRef, docs: docs, setup: []string{compound},
			cmd:  `{"collMod":"c","index":{"name":"a_1_t_1","expireAfterSeconds":60}}`,
			code: mongoerr.InvalidOptions, msg: "TTL indexes are single-field indexes, compound indexes do not support TTL"},
		{name: "the _id index cannot be unhidden either", ref: collModIndexRef, docs: docs,
			cmd:  `{"collMod":"c","index":{"name":"_id_","hidden":false}}`,
			code: mongoerr.BadValue, msg: "can't hide _id index"},
		{name: "unhiding a visible index is a no-op", ref: collModIndexRef, docs: docs, setup: []string{plain},
			cmd: `{"collMod":"c","index":{"name":"a_1","hidden":false}}`, want: `{"ok":1.0}`},
		{name: "the same TTL again still reports old and new", ref: collModIndexRef, docs: docs, setup: []string{ttl},
			cmd:  `{"collMod":"c","index":{"name":"t_1","expireAfterSeconds":100,"hidden":false}}`,
			want: `{"expireAfterSeconds_old":{"$numberLong":"100"},"expireAfterSeconds_new":{"$numberLong":"100"}}`},
		{name: "a TTL on a time-series collection's index", ref: collModIndexRef + " (isTimeseries)",
			setup: []string{`{"create":"ts","timeseries":{"timeField":"t","metaField":"m"}}`},
			cmd:   `{"collMod":"ts","index":{"keyPattern":{"m":1,"t":1},"expireAfterSeconds":60}}`,
			code:  mongoerr.InvalidOptions, msg: "TTL indexes are not supported for time-series collections. Please refer to the documentation and use the top-level 'expireAfterSeconds' option instead"},
		{name: "hiding a time-series collection's index by its key", ref: collModIndexRef + "; src/mongo/db/timeseries/timeseries_collmod.cpp (makeTimeseriesCollModCommand); jstests/core/timeseries/ddl/timeseries_metric_index_ascending_descending.js",
			cov:   cover{family: commandFam, op: "collMod", col: semantics},
			setup: []string{`{"create":"ts","timeseries":{"timeField":"t","metaField":"m"}}`, `{"createIndexes":"ts","indexes":[{"key":{"x":1},"name":"x_1"}]}`},
			cmd:   `{"collMod":"ts","index":{"keyPattern":{"x":1},"hidden":true}}`, want: `{"hidden_old":false,"hidden_new":true}`,
			thenFind: `{"listIndexes":"ts"}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.ts","firstBatch":[{"v":2,"key":{"m":1,"t":1},"name":"m_1_t_1"},{"v":2,"key":{"x":1},"name":"x_1","hidden":true}]}}`},
	})
}

// collMod's collection-level options that need a kind of collection:
// timeseries only on a time-series collection, and expireAfterSeconds only
// on one clustered by _id (which the sandbox never creates), both
// InvalidOptions from parseCollModRequest.
func TestCollModCollectionKindOptions(t *testing.T) {
	runCmdCases(t, []cmdCase{
		{name: "timeseries on a plain collection", ref: collModIndexRef, docs: `[{"_id":1}]`,
			cmd:  `{"collMod":"c","timeseries":{"granularity":"hours"}}`,
			code: mongoerr.InvalidOptions, msg: "option only supported on a time-series collection: timeseries"},
		{name: "expireAfterSeconds on a collection not clustered", ref: collModIndexRef, docs: `[{"_id":1}]`,
			cmd:  `{"collMod":"c","expireAfterSeconds":10}`,
			code: mongoerr.InvalidOptions, msg: "'expireAfterSeconds' option is only supported on collections clustered by _id"},
	})
}
