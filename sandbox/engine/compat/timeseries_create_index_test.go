package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// createIndexes on a time-series collection translates each spec before
// the buckets validate it, field by field (makeTimeseriesCreateIndexesCommand):
// a partialFilterExpression becomes a predicate on the buckets, sparse is
// for the time and meta fields only, unique and text are refused, and the
// key converts to the buckets' schema (createBucketsSpecFromTimeseriesSpec),
// a key that does not convert failing with CannotCreateIndex and the
// conversion's BadValue.
const tsPartialRef = "src/mongo/db/timeseries/timeseries_commands_conversion_helper.cpp (translateIndexSpecFromLogicalToBuckets), src/mongo/db/exec/timeseries/bucket_spec.cpp (pushdownPredicate); jstests/core/timeseries/ddl/timeseries_index_spec.js"

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
		// BucketSpec::pushdownPredicate with IneligiblePredicatePolicy::kError
		// (bucket_spec.cpp); the index keeps the user's spec as its
		// originalSpec, which listIndexes on the collection shows.
		{name: "time-series: a partialFilterExpression on a measurement bounds its control fields", ref: tsPartialRef,
			cov: cover{family: commandFam, op: "createIndexes", col: semantics}, setup: []string{ts},
			cmd: create(`{"key":{"m":1},"name":"p","partialFilterExpression":{"m":{"$gt":1},"b":{"$gte":10}}}`), want: `{"numIndexesBefore":2,"numIndexesAfter":3}`,
			thenFind: `{"listIndexes":"system.buckets.ts"}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.system.buckets.ts","firstBatch":[{"v":2,"key":{"meta":1,"control.min.t":1,"control.max.t":1},"name":"m_1_t_1"},` +
				`{"v":2,"key":{"meta":1},"name":"p","partialFilterExpression":{"meta":{"$gt":1},"control.max.b":{"$_internalExprGte":10}},"originalSpec":{"v":2,"key":{"m":1},"name":"p","partialFilterExpression":{"m":{"$gt":1},"b":{"$gte":10}}}}]}}`},
		{name: "time-series: the collection lists an index's original spec", ref: tsPartialRef,
			cov: cover{family: commandFam, op: "listIndexes", col: semantics}, setup: []string{ts, create(`{"key":{"x":-1},"name":"x","partialFilterExpression":{"t":{"$lt":{"$date":"2030-01-01T00:00:00Z"}}}}`)},
			cmd: `{"listIndexes":"ts"}`, want: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.ts","firstBatch":[{"v":2,"key":{"m":1,"t":1},"name":"m_1_t_1"},{"v":2,"key":{"x":-1},"name":"x","partialFilterExpression":{"t":{"$lt":{"$date":"2030-01-01T00:00:00Z"}}}}]}}`,
			thenFind: `{"listIndexes":"system.buckets.ts"}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.system.buckets.ts","firstBatch":[{"v":2,"key":{"meta":1,"control.min.t":1,"control.max.t":1},"name":"m_1_t_1"},` +
				`{"v":2,"key":{"control.max.x":-1,"control.min.x":-1},"name":"x","partialFilterExpression":{"$and":[{"control.min.t":{"$_internalExprLt":{"$date":"2030-01-01T00:00:00Z"}}},{"control.max.t":{"$_internalExprLt":{"$date":"2030-01-01T01:00:00Z"}}}]},"originalSpec":{"v":2,"key":{"x":-1},"name":"x","partialFilterExpression":{"t":{"$lt":{"$date":"2030-01-01T00:00:00Z"}}}}}]}}`},
		{name: "time-series: a partialFilterExpression with no bucket form", ref: tsPartialRef, cov: errs, setup: []string{ts},
			cmd: create(`{"key":{"m":1},"name":"p","partialFilterExpression":{"b":null}}`), code: 5916301,
			msg: "Error translating non-metadata time-series predicate to operate on buckets: can't handle {$eq: null}: { b: { $eq: null } }"},
		{name: "time-series: a partialFilterExpression on a document", ref: tsPartialRef, cov: errs, setup: []string{ts},
			cmd: create(`{"key":{"m":1},"name":"p","partialFilterExpression":{"b":{"$gt":{"c":1}}}}`), code: 5916301,
			msg: "Error translating non-metadata time-series predicate to operate on buckets: operand can't be an object or array: { b: { $gt: { c: 1 } } }"},
		{name: "time-series: a partialFilterExpression with a collation", ref: tsPartialRef, cov: errs, setup: []string{ts},
			cmd: create(`{"key":{"m":1},"name":"p","partialFilterExpression":{"m":1},"collation":{"locale":"fr"}}`), code: mongoerr.IndexOptionsConflict,
			msg: "On a time-series collection, partialFilterExpression and collation arguments are incompatible"},
		{name: "originalSpec must be an object", ref: "src/mongo/db/catalog/index_key_validate.cpp (validateIndexSpec)", cov: errs,
			cmd: `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a","originalSpec":1}]}`, code: mongoerr.TypeMismatch,
			msg: `Error in specification { key: { a: 1 }, name: "a", originalSpec: 1 } :: caused by :: The field 'originalSpec' must be an object, but got int`},
		{name: "originalSpec may not be empty", ref: "src/mongo/db/catalog/index_key_validate.cpp (validateIndexSpec)", cov: errs,
			cmd: `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a","originalSpec":{}}]}`, code: mongoerr.BadValue,
			msg: `Error in specification { key: { a: 1 }, name: "a", originalSpec: {} } :: caused by :: The field 'originalSpec' cannot be an empty object.`},
	})
}

// A query whose bucket predicates imply a partial index's filter on a
// measurement may use the index, which, holding fewer buckets, wins the
// trial
// (jstests/core/timeseries/query/timeseries_partial_index_opt.js).
func TestTimeseriesPartialIndexPlan(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "a partial index on a measurement serves the query that implies its filter", tsPartialRef,
		cover{family: commandFam, op: "createIndexes", col: explain}, func(t *testing.T, db *mongo.Database) {
			mustCommand(t, db, `{"create":"c","timeseries":{"timeField":"t","metaField":"m"}}`)
			mustCommand(t, db, `{"insert":"c","documents":[{"t":{"$date":"2021-08-29T00:15:38Z"},"m":1,"b":8},{"t":{"$date":"2021-11-29T12:20:34Z"},"m":2,"b":12},{"t":{"$date":"2021-10-09T07:29:34Z"},"m":4,"b":10},{"t":{"$date":"2021-10-09T07:29:34Z"},"m":3,"b":5}]}`)
			mustCommand(t, db, `{"createIndexes":"c","indexes":[{"key":{"m":1},"name":"m_b","partialFilterExpression":{"b":{"$gte":10}}}]}`)
			plan, _ := tsExplainStages(t, db, `[{"$match":{"m":{"$gt":1},"b":{"$gte":10}}}]`, "")
			if ix := scanOf(plan); field(ix, "indexName") != "m_b" {
				t.Fatalf("plan %s", relaxed(plan))
			}
			sameValue(t, "results", tsAggregate(t, db, `[{"$match":{"m":{"$gt":1},"b":{"$gte":10}}},{"$project":{"_id":0,"b":1}},{"$sort":{"b":1}}]`), `[{"b":10},{"b":12}]`)
		})
}
