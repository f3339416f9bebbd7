package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// createIndexes on a time-series collection translates each spec before
// the buckets validate it, field by field (makeTimeseriesCreateIndexesCommand):
// a partialFilterExpression becomes a predicate on the buckets, sparse is
// for the time and meta fields only, unique and text are refused, and the
// key converts to the buckets' schema (createBucketsSpecFromTimeseriesSpec),
// a key that does not convert failing with CannotCreateIndex and the
// conversion's BadValue.
const tsCreateIndexRef = "src/mongo/db/timeseries/timeseries_commands_conversion_helper.cpp (makeTimeseriesCreateIndexesCommand), src/mongo/db/timeseries/timeseries_index_schema_conversion_functions.cpp (createBucketsSpecFromTimeseriesSpec)"

func TestTimeseriesCreateIndexes(t *testing.T) {
	ts := `{"create":"ts","timeseries":{"timeField":"t","metaField":"m"}}`
	errs := cover{family: commandFam, op: "createIndexes", col: errorCol}
	create := func(spec string) string { return `{"createIndexes":"ts","indexes":[` + spec + `]}` }
	runCmdCases(t, []cmdCase{
		{name: "time-series: a hashed measurement index is refused", ref: tsCreateIndexRef + "; jstests/core/timeseries/ddl/timeseries_metric_index_hashed.js", cov: errs,
			setup: []string{ts}, cmd: create(`{"key":{"x":1,"m.tag":-1,"y":"hashed"},"name":"h"}`), code: mongoerr.CannotCreateIndex,
			msg: `BadValue: Invalid index spec for time-series collection: { x: 1, m.tag: -1, y: "hashed" }. Indexes on measurement fields must be ascending or descending (numbers only), or '2dsphere': y: "hashed" Command request: { createIndexes: "ts", indexes: [ { key: { x: 1, m.tag: -1, y: "hashed" }, name: "h" } ], $db: "{{db}}" }`},
		{name: "time-series: the time field takes numbers only", ref: tsCreateIndexRef, cov: errs,
			setup: []string{ts}, cmd: create(`{"key":{"t":"hashed"},"name":"h"}`), code: mongoerr.CannotCreateIndex,
			msg: `BadValue: Invalid index spec for time-series collection: { t: "hashed" }. Indexes on the time field must be ascending or descending (numbers only): t: "hashed" Command request: { createIndexes: "ts", indexes: [ { key: { t: "hashed" }, name: "h" } ], $db: "{{db}}" }`},
		{name: "time-series: a hashed index on the metaField is built", ref: tsCreateIndexRef, cov: cover{family: commandFam, op: "createIndexes", col: semantics},
			setup: []string{ts}, cmd: create(`{"key":{"m":"hashed"},"name":"h"}`), want: `{"numIndexesBefore":2,"numIndexesAfter":3}`,
			thenFind: `{"listIndexes":"system.buckets.ts"}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.system.buckets.ts","firstBatch":[{"v":2,"key":{"meta":1,"control.min.t":1,"control.max.t":1},"name":"m_1_t_1"},{"v":2,"key":{"meta":"hashed"},"name":"h"}]}}`},
		{name: "time-series: an empty key", ref: tsCreateIndexRef, cov: errs,
			setup: []string{ts}, cmd: create(`{"key":{},"name":"e"}`), code: mongoerr.CannotCreateIndex,
			msg: `BadValue: Empty object is not a valid index spec Command request: { createIndexes: "ts", indexes: [ { key: {}, name: "e" } ], $db: "{{db}}" }`},
		{name: "time-series: text indexes are refused", ref: tsCreateIndexRef, cov: errs,
			setup: []string{ts}, cmd: create(`{"key":{"x":"text"},"name":"x"}`), code: mongoerr.InvalidOptions, msg: "Text indexes are not supported on time-series collections"},
		{name: "time-series: unique indexes are refused", ref: tsCreateIndexRef, cov: errs,
			setup: []string{ts}, cmd: create(`{"key":{"x":1},"name":"x","unique":true}`), code: mongoerr.InvalidOptions, msg: "Unique indexes are not supported on time-series collections"},
		{name: "time-series: sparse is for the time and meta fields", ref: tsCreateIndexRef + "; jstests/core/timeseries/ddl/timeseries_sparse_index.js", cov: errs,
			setup: []string{ts}, cmd: create(`{"key":{"m.a":1,"x":1},"name":"x","sparse":true}`), code: mongoerr.InvalidOptions, msg: "Sparse indexes are not supported on time-series measurements"},
		{name: "time-series: a TTL index needs a partialFilterExpression on the metaField", ref: tsCreateIndexRef + "; jstests/core/timeseries/ddl/timeseries_index_ttl_partial.js", cov: errs,
			setup: []string{ts}, cmd: create(`{"key":{"t":1},"name":"t","expireAfterSeconds":10}`), code: mongoerr.InvalidOptions,
			msg: "TTL indexes on time-series collections require a partialFilterExpression on the metaField"},
		{name: "time-series: a TTL index is on the time field alone", ref: tsCreateIndexRef, cov: errs,
			setup: []string{ts}, cmd: create(`{"key":{"x":1},"name":"x","expireAfterSeconds":10,"partialFilterExpression":{"m":{"$exists":true}}}`), code: mongoerr.InvalidOptions,
			msg: "TTL indexes on non-time fields are not supported on time-series collections"},
		{name: "time-series: a partialFilterExpression on the metaField is the buckets' meta", ref: tsCreateIndexRef + "; jstests/core/timeseries/ddl/timeseries_index_partial.js",
			cov: cover{family: commandFam, op: "createIndexes", col: semantics}, setup: []string{ts},
			cmd: create(`{"key":{"x":1},"name":"p","partialFilterExpression":{"$or":[{"m.tag":"a"},{"m":{"$exists":false}}]}}`), want: `{"numIndexesBefore":2,"numIndexesAfter":3}`,
			thenFind: `{"listIndexes":"ts"}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.ts","firstBatch":[{"v":2,"key":{"m":1,"t":1},"name":"m_1_t_1"},{"v":2,"key":{"x":1},"name":"p","partialFilterExpression":{"$or":[{"m.tag":"a"},{"m":{"$exists":false}}]}}]}}`},
	})
}
