package compat_test

import "testing"

// A bucket's control.min and control.max are kept as the bucket catalog's
// MinMax keeps them: embedded documents field by field, arrays position by
// position. A measurement whose field changes shape (an object where the
// bucket had a value, a value of another canonical type) opens a new
// bucket, counted as closed due to a schema change
// (src/mongo/db/timeseries/bucket_catalog/flat_bson.cpp, MinMax and
// Schema; jstests/core/timeseries/write/timeseries_min_max.js).
const tsMinMaxRef = "src/mongo/db/timeseries/bucket_catalog/flat_bson.cpp (MinMax, Schema); jstests/core/timeseries/write/timeseries_min_max.js"

func TestTimeseriesBucketMinMax(t *testing.T) {
	ts := `{"create":"ts","timeseries":{"timeField":"t","metaField":"m"}}`
	insert := func(docs string) string { return `{"insert":"ts","documents":` + docs + `}` }
	controls := `{"find":"system.buckets.ts","projection":{"_id":0,"control.min._id":0,"control.max._id":0,"control.min.t":0,"control.max.t":0,"control.version":0,"data":0,"meta":0}}`
	cov := cover{family: commandFam, op: "insert", col: semantics}
	runCmdCases(t, []cmdCase{
		{name: "time-series: arrays are summarized position by position", ref: tsMinMaxRef, cov: cov, setup: []string{ts},
			cmd:  insert(`[{"_id":1,"t":{"$date":"2026-01-01T00:00:00Z"},"a":{"x":1,"y":2},"b":[1,2]},{"_id":2,"t":{"$date":"2026-01-01T00:00:01Z"},"a":{"x":2,"y":1},"b":[2,1,{"z":5}]}]`),
			want: `{"n":2}`, thenFind: controls,
			thenWant: `[{"control":{"min":{"a":{"x":1,"y":1},"b":[1,1,{"z":5}]},"max":{"a":{"x":2,"y":2},"b":[2,2,{"z":5}]}}}]`},
		{name: "time-series: a field changing shape opens a new bucket", ref: tsMinMaxRef, cov: cov, setup: []string{ts},
			cmd:  insert(`[{"_id":1,"t":{"$date":"2026-01-01T00:00:00Z"},"a":{"x":1}},{"_id":2,"t":{"$date":"2026-01-01T00:00:01Z"},"a":{"x":{"z":[3,4]}}},{"_id":3,"t":{"$date":"2026-01-01T00:00:02Z"},"a":{"x":"s"}},{"_id":4,"t":{"$date":"2026-01-01T00:00:03Z"},"a":{"x":"r"}}]`),
			want: `{"n":4}`, thenFind: controls,
			thenWant: `[{"control":{"min":{"a":{"x":1}},"max":{"a":{"x":1}}}},{"control":{"min":{"a":{"x":{"z":[3,4]}}},"max":{"a":{"x":{"z":[3,4]}}}}},{"control":{"min":{"a":{"x":"r"}},"max":{"a":{"x":"s"}}}}]`},
		{name: "time-series: numbers of every type share a bucket", ref: tsMinMaxRef, cov: cov, setup: []string{ts},
			cmd:  insert(`[{"_id":1,"t":{"$date":"2026-01-01T00:00:00Z"},"a":1.5},{"_id":2,"t":{"$date":"2026-01-01T00:00:01Z"},"a":{"$numberLong":"2"}},{"_id":3,"t":{"$date":"2026-01-01T00:00:02Z"},"a":{"$numberInt":"1"}},{"_id":4,"t":{"$date":"2026-01-01T00:00:03Z"},"a":{"$numberDecimal":"2.5"}}]`),
			want: `{"n":4}`, thenFind: controls,
			thenWant: `[{"control":{"min":{"a":{"$numberInt":"1"}},"max":{"a":{"$numberDecimal":"2.5"}}}}]`},
	})
}
