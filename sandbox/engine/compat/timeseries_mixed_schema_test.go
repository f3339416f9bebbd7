package compat_test

import "testing"

// A bucket written straight to a time-series buckets collection with
// mixed schema data (a field whose control.min and control.max differ in
// canonical type) is refused with 408 until collMod sets
// timeseriesBucketsMayHaveMixedSchemaData (timeseries_op_observer.cpp,
// aboutToInsert and onUpdate; collection_impl.cpp
// doesMinMaxHaveMixedSchemaData; jstests/core/timeseries/write/
// timeseries_update_mixed_schema_bucket.js).
func TestTimeseriesDirectMixedSchemaBucket(t *testing.T) {
	const ref = "src/mongo/db/timeseries/timeseries_op_observer.cpp; jstests/core/timeseries/write/timeseries_update_mixed_schema_bucket.js"
	const create = `{"create": "ts", "timeseries": {"timeField": "t", "metaField": "m"}}`
	bucket := func(minA, maxA string) string {
		return `{"_id": {"$oid": "65a6eb806ffc9fa4280ecac4"}, "control": {"version": 1,
			"min": {"_id": {"$oid": "65a6eba7e6d2e848e08c3750"}, "t": {"$date": "2024-01-16T20:48:00Z"}, "a": ` + minA + `},
			"max": {"_id": {"$oid": "65a6eba7e6d2e848e08c3751"}, "t": {"$date": "2024-01-16T20:48:39.448Z"}, "a": ` + maxA + `}},
			"meta": 0, "data": {"_id": {"0": {"$oid": "65a6eba7e6d2e848e08c3750"}, "1": {"$oid": "65a6eba7e6d2e848e08c3751"}},
			"t": {"0": {"$date": "2024-01-16T20:48:39.448Z"}, "1": {"$date": "2024-01-16T20:48:39.448Z"}}, "a": {"0": 0, "1": 1}}}`
	}
	const msg = "Cannot write time-series bucket containing mixed schema data, please run collMod with timeseriesBucketsMayHaveMixedSchemaData and retry your "
	const mix = `{"update": "system.buckets.ts", "updates": [{"q": {}, "u": {"$set": {"control.min.a": 1, "control.max.a": "a", "data.a.0": "a"}}}]}`
	runCmdCases(t, []cmdCase{
		{name: "a direct insert of a mixed-schema bucket is refused", ref: ref, cov: cover{family: commandFam, op: "insert", col: errorCol},
			setup: []string{create}, cmd: `{"insert": "system.buckets.ts", "documents": [` + bucket(`0`, `"a"`) + `]}`,
			writeError: true, code: 408, msg: msg + "insert", thenFind: `{"find": "system.buckets.ts"}`, thenWant: `[]`},
		{name: "an update that mixes a bucket's schema is refused", ref: ref, cov: cover{family: commandFam, op: "update", col: errorCol},
			setup: []string{create, `{"insert": "system.buckets.ts", "documents": [` + bucket(`0`, `1`) + `]}`},
			cmd:   mix, writeError: true, code: 408, msg: msg + "update"},
		{name: "an object field compares its fields in order", ref: "src/mongo/db/catalog/collection_impl.cpp doesMinMaxHaveMixedSchemaData", cov: cover{family: commandFam, op: "insert", col: errorCol},
			setup: []string{create}, cmd: `{"insert": "system.buckets.ts", "documents": [` + bucket(`{"x": 1}`, `{"x": [1]}`) + `]}`,
			writeError: true, code: 408, msg: msg + "insert"},
		{name: "a bucket whose numbers differ in type is not mixed", ref: "src/mongo/db/catalog/collection_impl.cpp doesMinMaxHaveMixedSchemaData (canonicalType)", cov: cover{family: commandFam, op: "insert"},
			setup: []string{create}, cmd: `{"insert": "system.buckets.ts", "documents": [` + bucket(`0`, `{"$numberLong": "5"}`) + `]}`,
			want: `{"n": 1}`},
		{name: "collMod timeseriesBucketsMayHaveMixedSchemaData lets it through", ref: ref, cov: cover{family: commandFam, op: "update"},
			setup: []string{create, `{"insert": "system.buckets.ts", "documents": [` + bucket(`0`, `1`) + `]}`,
				`{"collMod": "ts", "timeseriesBucketsMayHaveMixedSchemaData": true}`},
			cmd: mix, want: `{"n": 1, "nModified": 1}`},
	})
}
