package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// collMod on a time-series collection as mongod 8.0 carries it out
// (timeseries_collmod.cpp makeTimeseriesBucketsCollModCommand and
// makeTimeseriesViewCollModCommand; timeseries_options.cpp
// applyTimeseriesOptionsModifications and
// isTimeseriesGranularityValidAndUnchanged, in the form without the
// TimeseriesScalabilityImprovements flag, which 8.0 always has on):
//   - a granularity only rises, and a granularity given with a span takes
//     only its default span and no rounding;
//   - custom bucketing seconds come as an equal pair, no smaller than the
//     span and rounding in force, and drop the granularity;
//   - an empty timeseries option, or one restating what is in force, is a
//     no-op;
//   - the view's pipeline in system.views follows the new span;
//   - expireAfterSeconds is the buckets' clustered TTL ("off" removes it);
//   - timeseriesBucketsMayHaveMixedSchemaData is the buckets' catalog
//     flag, which takes assumeNoMixedSchemaData off the unpacking.
//
// jstests/core/timeseries/ddl/timeseries_collmod.js walks the same
// transitions.
const tsCollModRef = "src/mongo/db/timeseries/timeseries_options.cpp (applyTimeseriesOptionsModifications), src/mongo/db/timeseries/timeseries_collmod.cpp; jstests/core/timeseries/ddl/timeseries_collmod.js"

func TestCollModTimeseriesBucketing(t *testing.T) {
	seconds := `{"create":"ts","timeseries":{"timeField":"time","granularity":"seconds"}}`
	custom := `{"create":"ts","timeseries":{"timeField":"time","bucketMaxSpanSeconds":200,"bucketRoundingSeconds":200}}`
	listTS := `{"listCollections":1,"filter":{"name":"ts"}}`
	listed := func(options string) string {
		return `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"ts","type":"timeseries","options":` + options + `,"info":"*"}]}}`
	}
	day, month := `86400`, `2592000`
	runCmdCases(t, []cmdCase{
		{name: "one bucketing parameter without the other", ref: tsCollModRef, setup: []string{seconds},
			cmd:  `{"collMod":"ts","timeseries":{"bucketMaxSpanSeconds":` + month + `}}`,
			code: mongoerr.InvalidOptions, msg: "Timeseries 'bucketMaxSpanSeconds' and 'bucketRoundingSeconds' need to be set alongside each other"},
		{name: "the rounding without the span", ref: tsCollModRef, setup: []string{seconds},
			cmd:  `{"collMod":"ts","timeseries":{"bucketRoundingSeconds":` + day + `}}`,
			code: mongoerr.InvalidOptions, msg: "Timeseries 'bucketMaxSpanSeconds' and 'bucketRoundingSeconds' need to be set alongside each other"},
		{name: "unequal bucketing parameters", ref: tsCollModRef, setup: []string{seconds},
			cmd:  `{"collMod":"ts","timeseries":{"bucketMaxSpanSeconds":` + month + `,"bucketRoundingSeconds":` + day + `}}`,
			code: mongoerr.InvalidOptions, msg: "Timeseries 'bucketRoundingSeconds' needs to be equal to 'bucketMaxSpanSeconds'"},
		{name: "custom seconds replace a granularity", ref: tsCollModRef, setup: []string{seconds},
			cmd: `{"collMod":"ts","timeseries":{"bucketMaxSpanSeconds":` + day + `,"bucketRoundingSeconds":` + day + `}}`, want: `{"ok":1.0}`,
			thenFind: listTS, thenWant: listed(`{"timeseries":{"timeField":"time","bucketRoundingSeconds":86400,"bucketMaxSpanSeconds":86400}}`)},
		{name: "the view's pipeline follows the new span", ref: tsCollModRef, setup: []string{seconds},
			cmd: `{"collMod":"ts","timeseries":{"bucketMaxSpanSeconds":` + day + `,"bucketRoundingSeconds":` + day + `}}`, want: `{"ok":1.0}`,
			thenFind: `{"find":"system.views"}`, thenWant: `[{"_id":"{{db}}.ts","viewOn":"system.buckets.ts","pipeline":[{"$_internalUnpackBucket":{"timeField":"time","bucketMaxSpanSeconds":86400}}]}]`},
		{name: "custom seconds below the span in force", ref: tsCollModRef,
			setup: []string{seconds, `{"collMod":"ts","timeseries":{"granularity":"hours"}}`},
			cmd:   `{"collMod":"ts","timeseries":{"bucketMaxSpanSeconds":` + day + `,"bucketRoundingSeconds":` + day + `}}`,
			code:  mongoerr.InvalidOptions, msg: "Timeseries 'bucketMaxSpanSeconds' needs to be equal or greater to transition"},
		{name: "a granularity with its default span", ref: tsCollModRef,
			setup: []string{seconds, `{"collMod":"ts","timeseries":{"granularity":"hours"}}`},
			cmd:   `{"collMod":"ts","timeseries":{"granularity":"hours","bucketMaxSpanSeconds":` + month + `}}`, want: `{"ok":1.0}`,
			thenFind: listTS, thenWant: listed(`{"timeseries":{"timeField":"time","granularity":"hours","bucketMaxSpanSeconds":2592000}}`)},
		{name: "a granularity with another span", ref: tsCollModRef, setup: []string{seconds},
			cmd:  `{"collMod":"ts","timeseries":{"granularity":"hours","bucketMaxSpanSeconds":100}}`,
			code: mongoerr.InvalidOptions, msg: "Timeseries 'bucketMaxSpanSeconds' is not configurable to a value other than the default for the provided granularity"},
		{name: "a granularity with a rounding", ref: tsCollModRef, setup: []string{seconds},
			cmd:  `{"collMod":"ts","timeseries":{"granularity":"hours","bucketMaxSpanSeconds":` + month + `,"bucketRoundingSeconds":` + day + `}}`,
			code: mongoerr.InvalidOptions, msg: "Timeseries 'bucketRoundingSeconds' is not configurable alongside the granularity parameter"},
		{name: "a granularity lowered", ref: tsCollModRef,
			setup: []string{seconds, `{"collMod":"ts","timeseries":{"granularity":"minutes"}}`},
			cmd:   `{"collMod":"ts","timeseries":{"granularity":"seconds"}}`,
			code:  mongoerr.InvalidOptions, msg: "Invalid transition for timeseries.granularity. Can only transition from 'seconds' to 'minutes' or 'minutes' to 'hours'."},
		{name: "a granularity over custom seconds it does not shrink", ref: tsCollModRef, setup: []string{custom},
			cmd: `{"collMod":"ts","timeseries":{"granularity":"minutes"}}`, want: `{"ok":1.0}`,
			thenFind: listTS, thenWant: listed(`{"timeseries":{"timeField":"time","granularity":"minutes","bucketMaxSpanSeconds":86400}}`)},
		{name: "a granularity that would shrink custom seconds", ref: tsCollModRef,
			setup: []string{`{"create":"ts","timeseries":{"timeField":"time","bucketMaxSpanSeconds":7200,"bucketRoundingSeconds":7200}}`},
			cmd:   `{"collMod":"ts","timeseries":{"granularity":"seconds"}}`,
			code:  mongoerr.InvalidOptions, msg: "Timeseries 'bucketMaxSpanSeconds' needs to be equal or greater to transition"},
		{name: "the bucketing limit", ref: tsCollModRef + " (timeseries.idl: lte one year)", setup: []string{custom},
			cmd:  `{"collMod":"ts","timeseries":{"bucketMaxSpanSeconds":31536001,"bucketRoundingSeconds":31536001}}`,
			code: 51024, msg: "BSON field 'bucketMaxSpanSeconds' value must be <= 31536000, actual value '31536001'"},
		{name: "up to the bucketing limit", ref: tsCollModRef, setup: []string{custom},
			cmd: `{"collMod":"ts","timeseries":{"bucketMaxSpanSeconds":31536000,"bucketRoundingSeconds":31536000}}`, want: `{"ok":1.0}`,
			thenFind: listTS, thenWant: listed(`{"timeseries":{"timeField":"time","bucketRoundingSeconds":31536000,"bucketMaxSpanSeconds":31536000}}`)},
		{name: "an empty timeseries option is a no-op", ref: tsCollModRef, setup: []string{custom},
			cmd: `{"collMod":"ts","timeseries":{}}`, want: `{"ok":1.0}`,
			thenFind: listTS, thenWant: listed(`{"timeseries":{"timeField":"time","bucketRoundingSeconds":200,"bucketMaxSpanSeconds":200}}`)},
		{name: "an unknown field of the timeseries option", ref: tsCollModRef + " (CollModTimeseries is strict)", setup: []string{seconds},
			cmd:  `{"collMod":"ts","timeseries":{"timeField":"t"}}`,
			code: mongoerr.IDLUnknownField, msg: "BSON field 'collMod.timeseries.timeField' is an unknown field."},
		{name: "a timeseries option that is no document", ref: tsCollModRef, setup: []string{seconds},
			cmd:  `{"collMod":"ts","timeseries":1}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'collMod.timeseries' is the wrong type 'int', expected type 'object'"},
		{name: "bucketing seconds that are no number", ref: tsCollModRef, setup: []string{seconds},
			cmd:  `{"collMod":"ts","timeseries":{"bucketMaxSpanSeconds":"a","bucketRoundingSeconds":"a"}}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'collMod.timeseries.bucketMaxSpanSeconds' is the wrong type 'string', expected types '[long, int, decimal, double']"},
		{name: "the time-series options on a collection", ref: tsCollModRef + "; src/mongo/db/catalog/coll_mod.cpp (getOnlySupportedOnTimeseriesError)", docs: `[{"_id":1}]`,
			cmd:  `{"collMod":"c","timeseriesBucketsMayHaveMixedSchemaData":true}`,
			code: mongoerr.InvalidOptions, msg: "option only supported on a time-series collection: timeseriesBucketsMayHaveMixedSchemaData"},
	})
}

func TestCollModTimeseriesTTLAndFlags(t *testing.T) {
	seconds := `{"create":"ts","timeseries":{"timeField":"time","granularity":"seconds"}}`
	listTS := `{"listCollections":1,"filter":{"name":"ts"}}`
	listed := func(options string) string {
		return `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.$cmd.listCollections","firstBatch":[{"name":"ts","type":"timeseries","options":` + options + `,"info":"*"}]}}`
	}
	explainUnpack := `{"explain":{"aggregate":"ts","pipeline":[],"cursor":{}},"verbosity":"queryPlanner"}`
	runCmdCases(t, []cmdCase{
		{name: "a TTL set on a time-series collection", ref: tsCollModRef + " (expireAfterSeconds)", setup: []string{seconds},
			cmd: `{"collMod":"ts","expireAfterSeconds":60}`, want: `{"ok":1.0}`,
			thenFind: listTS, thenWant: listed(`{"timeseries":{"timeField":"time","granularity":"seconds","bucketMaxSpanSeconds":3600},"expireAfterSeconds":{"$numberLong":"60"}}`)},
		{name: "a TTL turned off", ref: tsCollModRef + " (expireAfterSeconds)",
			setup: []string{`{"create":"ts","timeseries":{"timeField":"time"},"expireAfterSeconds":60}`},
			cmd:   `{"collMod":"ts","expireAfterSeconds":"off"}`, want: `{"ok":1.0}`,
			thenFind: listTS, thenWant: listed(`{"timeseries":{"timeField":"time","granularity":"seconds","bucketMaxSpanSeconds":3600}}`)},
		{name: "a negative TTL", ref: tsCollModRef + "; src/mongo/db/catalog/index_key_validate.cpp (validateExpireAfterSeconds)", setup: []string{seconds},
			cmd:  `{"collMod":"ts","expireAfterSeconds":-1}`,
			code: mongoerr.InvalidOptions, msg: "TTL index 'expireAfterSeconds' option cannot be less than 0"},
		{name: "a TTL string other than off", ref: tsCollModRef, setup: []string{seconds},
			cmd:  `{"collMod":"ts","expireAfterSeconds":"on"}`,
			code: mongoerr.InvalidOptions, msg: "Invalid string value for the 'clusteredIndex::expireAfterSeconds' option. Got: 'on'. Accepted value is 'off'"},
		{name: "a new collection's unpacking assumes no mixed schema", ref: tsCollModRef + "; src/mongo/db/pipeline/document_source_internal_unpack_bucket.cpp (serializeToArray)", setup: []string{seconds},
			cmd:  explainUnpack,
			want: `{"stages":[{"$cursor":"*"},{"$_internalUnpackBucket":{"exclude":[],"timeField":"time","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true}}]}`},
		{name: "buckets that may have mixed schema", ref: tsCollModRef + "; src/mongo/db/pipeline/document_source_internal_unpack_bucket.cpp (serializeToArray)",
			setup: []string{seconds, `{"collMod":"ts","timeseriesBucketsMayHaveMixedSchemaData":true}`},
			cmd:   explainUnpack,
			want:  `{"stages":[{"$cursor":"*"},{"$_internalUnpackBucket":{"exclude":[],"timeField":"time","bucketMaxSpanSeconds":3600}}]}`},
	})
}
