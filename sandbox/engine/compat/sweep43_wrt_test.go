package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Sweep 43 (writes, time series, capped and catalog jstests): cases for
// the differences fixed in the sandbox.

// tsBucketingRef: 8.0's validateAndSetBucketingParameters. A granularity
// admits its own bucketMaxSpanSeconds but no bucketRoundingSeconds at
// all; without a granularity, the two seconds parameters must be equal,
// so one given alone fails that same check.
const tsBucketingRef = "src/mongo/db/timeseries/timeseries_options.cpp (validateAndSetBucketingParameters); " +
	"jstests/core/timeseries/ddl/timeseries_create.js"

func TestSweep43TimeseriesCreateBucketing(t *testing.T) {
	const msgRounding = "Timeseries 'bucketRoundingSeconds' is not configurable alongside the granularity parameter"
	runCmdCases(t, []cmdCase{
		{name: "a granularity with the rounding it implies", ref: tsBucketingRef,
			cmd:  `{"create": "w", "timeseries": {"timeField": "t", "granularity": "seconds", "bucketMaxSpanSeconds": 3600, "bucketRoundingSeconds": 60}}`,
			code: mongoerr.InvalidOptions, msg: msgRounding,
			thenFind: `{"listCollections": 1, "nameOnly": true}`, thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "*", "firstBatch": []}}`},
		{name: "a granularity with a rounding alone", ref: tsBucketingRef,
			cmd:  `{"create": "w", "timeseries": {"timeField": "t", "granularity": "hours", "bucketRoundingSeconds": 86400}}`,
			code: mongoerr.InvalidOptions, msg: msgRounding},
		{name: "a granularity with its own span", ref: tsBucketingRef,
			cmd:      `{"create": "w", "timeseries": {"timeField": "t", "granularity": "minutes", "bucketMaxSpanSeconds": 86400}}`,
			want:     `{"ok": 1.0}`,
			thenFind: `{"listCollections": 1, "filter": {"name": "w"}}`,
			thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "*", "firstBatch": [{"name": "w", "type": "timeseries",
				"options": {"timeseries": {"timeField": "t", "granularity": "minutes", "bucketMaxSpanSeconds": 86400}}, "info": "*"}]}}`},
		{name: "a span without a rounding", ref: tsBucketingRef,
			cmd:  `{"create": "w", "timeseries": {"timeField": "t", "bucketMaxSpanSeconds": 100}}`,
			code: mongoerr.InvalidOptions, msg: "Timeseries 'bucketRoundingSeconds' needs to be equal to 'bucketMaxSpanSeconds'"},
		{name: "a rounding without a span", ref: tsBucketingRef,
			cmd:  `{"create": "w", "timeseries": {"timeField": "t", "bucketRoundingSeconds": 100}}`,
			code: mongoerr.InvalidOptions, msg: "Timeseries 'bucketRoundingSeconds' needs to be equal to 'bucketMaxSpanSeconds'"},
	})
}

// collModBucketsRef: the collMod command refuses a time-series
// collection's buckets namespace before it looks at the options or the
// collection; collMod on the time-series collection itself still works.
const collModBucketsRef = "src/mongo/db/commands/dbcommands.cpp (CollectionModCommand::Invocation::run, InvalidNamespace); " +
	"jstests/core/timeseries/ddl/timeseries_collmod_legacy.js"

func TestSweep43CollModBucketsNamespace(t *testing.T) {
	ts := `{"create": "ts", "timeseries": {"timeField": "t", "granularity": "seconds"}}`
	const msg = "collMod on a time-series collection's underlying buckets collection is not supported."
	runCmdCases(t, []cmdCase{
		{name: "collMod granularity on the buckets", ref: collModBucketsRef, setup: []string{ts},
			cmd:  `{"collMod": "system.buckets.ts", "timeseries": {"granularity": "hours"}}`,
			code: mongoerr.InvalidNamespace, msg: msg},
		{name: "collMod validator on the buckets", ref: collModBucketsRef, setup: []string{ts},
			cmd:  `{"collMod": "system.buckets.ts", "validator": {"required": ["t"]}}`,
			code: mongoerr.InvalidNamespace, msg: msg},
		{name: "collMod expireAfterSeconds on the buckets", ref: collModBucketsRef, setup: []string{ts},
			cmd:  `{"collMod": "system.buckets.ts", "expireAfterSeconds": 60}`,
			code: mongoerr.InvalidNamespace, msg: msg},
		{name: "collMod on a buckets name with no collection", ref: collModBucketsRef,
			cmd:  `{"collMod": "system.buckets.none", "validationLevel": "moderate"}`,
			code: mongoerr.InvalidNamespace, msg: msg},
		{name: "collMod granularity on the time-series collection", ref: collModBucketsRef, setup: []string{ts},
			cmd: `{"collMod": "ts", "timeseries": {"granularity": "minutes"}}`, want: `{"ok": 1.0}`},
	})
}

// cappedTTLCollModRef: with featureFlagTTLIndexesOnCappedCollections on
// (since 7.1, SERVER-77586), collMod's refusal of a TTL on a capped
// collection's index no longer applies; 8.0-era
// collmod_convert_capped_to_ttl.js expects the conversion to work.
const cappedTTLCollModRef = "src/mongo/db/catalog/coll_mod.cpp (parseCollModRequest, TTL on a capped collection); " +
	"jstests/core/ddl/collmod_convert_capped_to_ttl.js, jstests/core/ddl/coll_mod_convert_to_ttl.js"

func TestSweep43CollModTTLOnCapped(t *testing.T) {
	setup := []string{`{"create": "c", "capped": true, "size": 100000}`,
		`{"createIndexes": "c", "indexes": [{"key": {"t": 1}, "name": "t_1"}]}`}
	runCmdCases(t, []cmdCase{
		{name: "collMod makes a capped collection's index a TTL index", ref: cappedTTLCollModRef, setup: setup,
			cmd:      `{"collMod": "c", "index": {"keyPattern": {"t": 1}, "expireAfterSeconds": 100}}`,
			want:     `{"expireAfterSeconds_new": {"$numberLong": "100"}}`,
			thenFind: `{"listIndexes": "c"}`,
			thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "*", "firstBatch": [{"v": 2, "key": {"_id": 1}, "name": "_id_"},
				{"v": 2, "key": {"t": 1}, "name": "t_1", "expireAfterSeconds": "*"}]}}`},
		{name: "collMod still checks the TTL's range on a capped collection", ref: cappedTTLCollModRef, setup: setup,
			cmd:  `{"collMod": "c", "index": {"name": "t_1", "expireAfterSeconds": -1}}`,
			code: mongoerr.InvalidOptions, msg: "TTL index 'expireAfterSeconds' option cannot be less than 0"},
	})
}

// featureFlagRef: getParameter reports a feature flag as
// FeatureFlagServerParameter::append does; 8.0 ships bulkWrite (flag
// version 8.0) and TTL indexes on capped collections (7.1) enabled, and
// jstests skip their bodies when FeatureFlagUtil finds a flag off.
const featureFlagRef = "src/mongo/db/feature_flag_server_parameter.cpp (append); " +
	"jstests/core/write/bulk/bulk_write_cursor.js, jstests/core/ddl/collmod_convert_capped_to_ttl.js"

func TestSweep43FeatureFlagParameters(t *testing.T) {
	runCmdCases(t, []cmdCase{
		{name: "getParameter featureFlagBulkWriteCommand", ref: featureFlagRef, admin: true,
			cmd:  `{"getParameter": 1, "featureFlagBulkWriteCommand": 1}`,
			want: `{"featureFlagBulkWriteCommand": {"value": true, "version": "8.0", "shouldBeFCVGated": true}}`},
		{name: "getParameter featureFlagTTLIndexesOnCappedCollections", ref: featureFlagRef, admin: true,
			cmd:  `{"getParameter": 1, "featureFlagTTLIndexesOnCappedCollections": 1}`,
			want: `{"featureFlagTTLIndexesOnCappedCollections": {"value": true, "version": "7.1", "shouldBeFCVGated": true}}`},
		{name: "setParameter of a feature flag at runtime", ref: featureFlagRef + "; src/mongo/db/commands/set_parameter.cpp", admin: true,
			cmd:  `{"setParameter": 1, "featureFlagBulkWriteCommand": true}`,
			code: mongoerr.IllegalOperation, msg: "not allowed to change [featureFlagBulkWriteCommand] at runtime"},
	})
}

// tsFindAndModifySortRef: ParsedDelete refuses a single-measurement
// time-series delete with a sort, which only findAndModify can send; an
// empty sort is no sort.
const tsFindAndModifySortRef = "src/mongo/db/query/write_ops/parsed_delete.cpp (InvalidOptions, time-series delete with a sort); " +
	"jstests/core/timeseries/write/timeseries_find_and_modify_remove.js (testSortOptionFails)"

func TestSweep43TimeseriesFindAndModifyRemoveSort(t *testing.T) {
	setup := []string{
		`{"create": "ts", "timeseries": {"timeField": "t", "metaField": "m"}}`,
		`{"insert": "ts", "documents": [{"_id": 1, "t": {"$date": "2024-03-01T00:00:00Z"}, "m": "a", "f": 103},
			{"_id": 2, "t": {"$date": "2024-03-01T00:01:00Z"}, "m": "b", "f": 105}]}`,
	}
	runCmdCases(t, []cmdCase{
		{name: "findAndModify remove with a sort on a time-series collection", ref: tsFindAndModifySortRef, setup: setup,
			cmd:  `{"findAndModify": "ts", "query": {"f": {"$gt": 100}}, "sort": {"f": 1}, "remove": true}`,
			code: mongoerr.InvalidOptions, msg: "Cannot perform a findAndModify with a query and sort on a time-series collection.",
			thenFind: `{"find": "ts", "projection": {"_id": 1}, "sort": {"_id": 1}}`, thenWant: `[{"_id": 1}, {"_id": 2}]`},
		{name: "findAndModify remove with an empty sort on a time-series collection", ref: tsFindAndModifySortRef, setup: setup,
			cmd:  `{"findAndModify": "ts", "query": {"f": 105}, "sort": {}, "remove": true, "fields": {"_id": 1}}`,
			want: `{"lastErrorObject": {"n": 1}, "value": {"_id": 2}}`},
	})
}

// bucketArraysRef: mongod's index access methods run validateDocumentCommon
// on every document of a buckets collection before computing its keys, so
// an array under an indexed measurement field is refused with 5930501 on
// an index build over stored buckets and on a direct write to the buckets
// too, not only on the bucket catalog's commits.
const bucketArraysRef = "src/mongo/db/index/expression_keys_private.cpp (validateDocumentCommon); " +
	"jstests/core/timeseries/ddl/timeseries_metric_index_compound.js"

func TestSweep43BucketArraysOutsideBucketCatalog(t *testing.T) {
	create := `{"create": "ts", "timeseries": {"timeField": "t", "metaField": "m"}}`
	withX := `{"createIndexes": "ts", "indexes": [{"key": {"x": 1}, "name": "x_1"}]}`
	const msg = "Indexed measurement field contains an array value"
	runCmdCases(t, []cmdCase{
		{name: "an index build over a stored array measurement", ref: bucketArraysRef,
			setup: []string{create, `{"insert": "ts", "documents": [{"t": {"$date": "2024-03-01T00:00:00Z"}, "m": 1, "x": [1, 2]}]}`},
			// The message names a fresh build UUID: the code alone is checked.
			cmd: withX, code: 5930501,
			thenFind: `{"listIndexes": "ts"}`,
			thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "*", "firstBatch": [{"v": 2, "key": {"m": 1, "t": 1}, "name": "m_1_t_1"}]}}`},
		{name: "a direct insert of a bucket with an indexed array", ref: bucketArraysRef, setup: []string{create, withX},
			cmd: `{"insert": "system.buckets.ts", "documents": [{"_id": {"$oid": "65f9972047423af45aeafc67"},
				"control": {"version": 1, "min": {"_id": 1, "t": {"$date": "2024-03-01T00:00:00Z"}, "x": [1]}, "max": {"_id": 1, "t": {"$date": "2024-03-01T00:00:00Z"}, "x": [2]}},
				"meta": 1, "data": {"_id": {"0": 1}, "t": {"0": {"$date": "2024-03-01T00:00:00Z"}}, "x": {"0": [1, 2]}}}]}`,
			writeError: true, code: 5930501, msg: msg},
		{name: "a direct update giving a bucket an indexed array", ref: bucketArraysRef,
			setup:      []string{create, withX, `{"insert": "ts", "documents": [{"t": {"$date": "2024-03-01T00:00:00Z"}, "m": 1, "x": 5}]}`},
			cmd:        `{"update": "system.buckets.ts", "updates": [{"q": {}, "u": {"$set": {"control.min.x": [1], "control.max.x": [9], "data.x.0": [1, 9]}}}]}`,
			writeError: true, code: 5930501, msg: msg,
			thenFind: `{"find": "ts", "projection": {"_id": 0, "x": 1}}`, thenWant: `[{"x": 5}]`},
	})
}

// collModBucketsUUIDRef: the buckets refusal comes before the UUID is
// compared, which processCollMod does later (SERVER-87446 shows the
// refusal for the UUID of no collection).
const collModBucketsUUIDRef = "src/mongo/db/commands/dbcommands.cpp (CollectionModCommand::Invocation::run); SERVER-87446"

func TestSweep43CollModBucketsBeforeUUID(t *testing.T) {
	runCmdCases(t, []cmdCase{
		{name: "collMod on the buckets with a UUID of no collection", ref: collModBucketsUUIDRef,
			setup: []string{`{"create": "ts", "timeseries": {"timeField": "t"}}`},
			cmd:   `{"collMod": "system.buckets.ts", "collectionUUID": {"$uuid": "00000000-0000-4000-8000-000000000000"}, "validationLevel": "off"}`,
			code:  mongoerr.InvalidNamespace, msg: "collMod on a time-series collection's underlying buckets collection is not supported."},
		{name: "collMod on the buckets with a collectionUUID of the wrong type", ref: collModBucketsUUIDRef,
			cmd:  `{"collMod": "system.buckets.ts", "collectionUUID": "x"}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'collMod.collectionUUID' is the wrong type 'string', expected type 'binData'"},
	})
}
