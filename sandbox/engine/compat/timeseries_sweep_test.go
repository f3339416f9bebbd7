package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// Differences from mongod 8.0 found by running MongoDB's time-series
// jstests (jstests/core/timeseries/) against the sandbox.

// The $_internalUnpackBucket stage explains its eventFilter and
// wholeBucketFilter as MatchExpression::optimize leaves them, not in a
// query's sorted canonical form: DocumentSourceInternalUnpackBucket's
// doOptimizeAt (src/mongo/db/pipeline/document_source_internal_unpack_bucket.cpp)
// parses the tight predicate and optimizes it, and sets the eventFilter
// optimized, neither normalized (sortTree). An $expr's optimizer
// (ExprMatchExpression::getOptimizer, src/mongo/db/matcher/expression_expr.cpp)
// puts one internal comparison of its rewrite first and the $expr after
// it (an $and of several: the $expr first, since the optimizer of an $and,
// ListOfMatchExpression::getOptimizer in expression_tree.cpp, appends the
// children of the $ands among its children at its end, which also moves an
// $expr's block after its siblings), and an $expr on the time field also has a tight predicate
// (createTightExprTimeFieldPredicate, src/mongo/db/exec/timeseries/bucket_spec.cpp),
// beside the one of its rewrite. jstest: core/timeseries/timeseries_match_pushdown.js
// (8.0 text), whose expected eventFilter and wholeBucketFilter these are.
const sweepPushdownRef = "src/mongo/db/pipeline/document_source_internal_unpack_bucket.cpp (doOptimizeAt); src/mongo/db/exec/timeseries/bucket_spec.cpp (createTightExprTimeFieldPredicate); src/mongo/db/matcher/expression_expr.cpp (getOptimizer); jstests/core/timeseries/timeseries_match_pushdown.js"

func TestTimeseriesSweepPushdownOrder(t *testing.T) {
	s := newSuite(t)
	at := `{"$date":"2023-11-14T22:40:20Z"}`
	later := `{"$date":"2023-11-14T22:42:20Z"}`
	unpackTV := `[{"$_internalUnpackBucket":{"include":["t","v"],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true,`
	cases := []struct{ name, pipeline, stages, want string }{
		{name: "an $expr on the time field: its rewrite first, and a tight predicate from each",
			pipeline: `[{"$match":{"$expr":{"$gt":["$t",` + at + `]}}},{"$project":{"_id":0,"v":1}}]`,
			stages:   `[{"$_internalUnpackBucket":{"include":["t","v"],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true,"wholeBucketFilter":{"$and":[{"control.min.t":{"$_internalExprGt":` + at + `}},{"control.min.t":{"$_internalExprGt":` + at + `}}]},"eventFilter":{"$and":[{"t":{"$_internalExprGt":` + at + `}},{"$expr":{"$gt":["$t",{"$const":` + at + `}]}}]}}},{"$project":{"_id":false,"v":true}}]`,
			want:     `[{"v":28},{"v":29}]`},
		{name: "an $expr equality on the time field: four bounds in one $and",
			pipeline: `[{"$match":{"$expr":{"$eq":["$t",` + at + `]}}},{"$project":{"_id":0,"v":1}}]`,
			stages:   `[{"$_internalUnpackBucket":{"include":["t","v"],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true,"wholeBucketFilter":{"$and":[{"control.min.t":{"$_internalExprEq":` + at + `}},{"control.max.t":{"$_internalExprEq":` + at + `}},{"control.min.t":{"$_internalExprEq":` + at + `}},{"control.max.t":{"$_internalExprEq":` + at + `}}]},"eventFilter":{"$and":[{"t":{"$_internalExprEq":` + at + `}},{"$expr":{"$eq":["$t",{"$const":` + at + `}]}}]}}},{"$project":{"_id":false,"v":true}}]`,
			want:     `[{"v":27}]`},
		{name: "a time equality bounds control.min before control.max",
			pipeline: `[{"$match":{"t":` + at + `}},{"$project":{"_id":0,"v":1}}]`,
			stages:   `[{"$_internalUnpackBucket":{"include":["t","v"],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true,"wholeBucketFilter":{"$and":[{"control.min.t":{"$eq":` + at + `}},{"control.max.t":{"$eq":` + at + `}}]},"eventFilter":{"t":{"$eq":` + at + `}}}},{"$project":{"_id":false,"v":true}}]`,
			want:     `[{"v":27}]`},
		{name: "an $and keeps the order it was written in",
			pipeline: `[{"$match":{"$and":[{"t":{"$gt":` + at + `}},{"t":{"$lt":` + later + `}}]}},{"$project":{"_id":0,"v":1}}]`,
			stages:   `[{"$_internalUnpackBucket":{"include":["t","v"],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true,"wholeBucketFilter":{"$and":[{"control.min.t":{"$gt":` + at + `}},{"control.max.t":{"$lt":` + later + `}}]},"eventFilter":{"$and":[{"t":{"$gt":` + at + `}},{"t":{"$lt":` + later + `}}]}}},{"$project":{"_id":false,"v":true}}]`,
			want:     `[{"v":28}]`},
		{name: "an $expr in an $and: its block after the other children",
			pipeline: `[{"$match":{"$and":[{"$expr":{"$gt":["$t",` + at + `]}},{"v":{"$gte":0}}]}},{"$project":{"_id":0,"v":1}}]`,
			stages:   unpackTV + `"eventFilter":{"$and":[{"v":{"$gte":0}},{"t":{"$_internalExprGt":` + at + `}},{"$expr":{"$gt":["$t",{"$const":` + at + `}]}}]}}},{"$project":{"_id":false,"v":true}}]`,
			want:     `[{"v":28},{"v":29}]`},
		{name: "an $expr rewritten to several comparisons: itself first, then them",
			pipeline: `[{"$match":{"$expr":{"$and":[{"$gte":["$v",27]},{"$lte":["$v",28]}]}}},{"$project":{"_id":0,"v":1}}]`,
			stages:   `[{"$_internalUnpackBucket":{"include":["v"],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true,"eventFilter":{"$and":[{"$expr":{"$and":[{"$gte":["$v",{"$const":27}]},{"$lte":["$v",{"$const":28}]}]}},{"v":{"$_internalExprGte":27}},{"v":{"$_internalExprLte":28}}]}}},{"$project":{"_id":false,"v":true}}]`,
			want:     `[{"v":27},{"v":28}]`},
		{name: "an $expr whose metaField comparison moved to the buckets: the rest is optimized again",
			pipeline: `[{"$match":{"$expr":{"$and":[{"$gte":["$v","$m"]},{"$gt":["$m",1]}]}}},{"$project":{"_id":0,"v":1}}]`,
			stages:   `[{"$_internalUnpackBucket":{"include":["v","m"],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true,"eventFilter":{"$and":[{"m":{"$_internalExprGt":1}},{"$expr":{"$and":[{"$gte":["$v","$m"]},{"$gt":["$m",{"$const":1}]}]}}]}}},{"$project":{"_id":false,"v":true}}]`,
			want:     `[{"v":2},{"v":5},{"v":8},{"v":11},{"v":14},{"v":17},{"v":20},{"v":23},{"v":26},{"v":29}]`},
	}
	for _, tc := range cases {
		s.runCase(t, tc.name, sweepPushdownRef, cover{family: stage, op: "$_internalUnpackBucket", col: explain}, func(t *testing.T, db *mongo.Database) {
			boundedSortSetup(t, db)
			_, stages := tsExplainStages(t, db, tc.pipeline, "")
			sameValue(t, "stages", stages, tc.stages)
			sameValue(t, "results", tsAggregate(t, db, tc.pipeline), tc.want)
		})
	}
}

// A write by _id on a collection clustered by _id, as a time-series
// collection's buckets are, takes mongod 8.0's express path as one with an
// _id index does: getExecutorUpdate and getExecutorDelete
// (src/mongo/db/query/get_executor.cpp) accept an _id index or
// clustered_util::isClusteredOnId, and makeExpressExecutorForUpdate reads
// through IdLookupOnClusteredCollection (src/mongo/db/exec/express/). Its
// explain is the one EXPRESS_UPDATE or EXPRESS_DELETE stage, not an
// UPDATE over an EXPRESS_CLUSTERED_IXSCAN. jstest:
// core/timeseries/query/timeseries_id_range.js (its 8.0 text expects
// EXPRESS_UPDATE or a CLUSTERED_IXSCAN for the update by _id of the buckets).
const sweepExpressClusteredRef = "src/mongo/db/query/get_executor.cpp (getExecutorUpdate, getExecutorDelete: idIndexDesc || isClusteredOnId); jstests/core/timeseries/query/timeseries_id_range.js"

func TestTimeseriesSweepExpressClusteredWrite(t *testing.T) {
	s := newSuite(t)
	cases := []struct{ name, setup, cmd, want string }{
		{name: "an update by _id of the buckets is EXPRESS_UPDATE",
			setup: `{"create":"c","timeseries":{"timeField":"t"}}`,
			cmd:   `{"explain":{"update":"system.buckets.c","updates":[{"q":{"_id":{"$date":"2021-04-06T00:00:00.008Z"}},"u":{"$set":{"a":1}}}]},"verbosity":"queryPlanner"}`,
			want:  `{"isCached":false,"stage":"EXPRESS_UPDATE"}`},
		{name: "a delete by _id of a clustered collection is EXPRESS_DELETE",
			setup: `{"create":"c","clusteredIndex":{"key":{"_id":1},"unique":true}}`,
			cmd:   `{"explain":{"delete":"c","deletes":[{"q":{"_id":3},"limit":1}]},"verbosity":"queryPlanner"}`,
			want:  `{"isCached":false,"stage":"EXPRESS_DELETE"}`},
	}
	for _, tc := range cases {
		s.runCase(t, tc.name, sweepExpressClusteredRef, cover{family: commandFam, op: "explain", col: explain}, func(t *testing.T, db *mongo.Database) {
			mustCommand(t, db, tc.setup)
			reply := mustCommand(t, db, tc.cmd)
			qp, _ := field(reply, "queryPlanner").(bson.D)
			sameValue(t, "winningPlan", field(qp, "winningPlan"), tc.want)
		})
	}
}

// The internal comparison an $expr's rewrite makes on the metaField alone
// moves to the buckets renamed onto their "meta" field, as every
// metaField-only conjunct does (BucketSpec::splitOutMetaOnlyPredicate and
// expression::applyRenamesToExpression, src/mongo/db/matcher/expression_algo.cpp,
// which renames any path match expression, $_internalExpr* included). It
// kept the user's field name, so the buckets were filtered on a field they
// do not have and the read returned nothing. jstest:
// core/timeseries/timeseries_match_pushdown.js ("$and inside $expr with
// comparison on meta and measurement").
const sweepMetaRenameRef = "src/mongo/db/exec/timeseries/bucket_spec.cpp (splitOutMetaOnlyPredicate); src/mongo/db/matcher/expression_algo.cpp (applyRenamesToExpression); jstests/core/timeseries/timeseries_match_pushdown.js"

func TestTimeseriesSweepExprOnMeta(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "an $expr comparison of the metaField filters the buckets' meta", sweepMetaRenameRef, cover{family: stage, op: "$_internalUnpackBucket", col: semantics}, func(t *testing.T, db *mongo.Database) {
		boundedSortSetup(t, db)
		pipeline := `[{"$match":{"$expr":{"$gt":["$m",1]}}},{"$count":"n"}]`
		plan, _ := tsExplainStages(t, db, pipeline, "")
		// On meta, the collection's default index (m_1_t_1) answers it.
		sameValue(t, "plan", plan, `{"isCached":false,"stage":"FETCH","inputStage":{"stage":"IXSCAN","keyPattern":{"meta":1,"control.min.t":1,"control.max.t":1},"indexName":"m_1_t_1","isMultiKey":false,"multiKeyPaths":{"meta":[],"control.min.t":[],"control.max.t":[]},"isUnique":false,"isSparse":false,"isPartial":false,"indexVersion":2,"direction":"forward","indexBounds":{"meta":["(1, MaxKey]"],"control.min.t":["[MinKey, MaxKey]"],"control.max.t":["[MinKey, MaxKey]"]}}}`)
		sameValue(t, "results", tsAggregate(t, db, pipeline), `[{"n":10}]`)
	})
}

// mongod 8.0 explains an update or findAndModify on a time-series
// collection on its buckets (jstests/core/timeseries/query/
// timeseries_explain_update.js). The sandbox has no such plan, so it
// refuses rather than show the view planned as a collection; a delete is
// explained (TestTimeseriesExplainDelete).
func TestTimeseriesWriteExplainRefused(t *testing.T) {
	const ref = "src/mongo/db/query/get_executor.cpp (getExecutorDelete, getExecutorUpdate: TimeseriesModifyStage); jstests/core/timeseries/query/timeseries_explain_delete.js"
	const msg = "explain of an update or findAndModify on a time-series collection is not supported by the schemalab sandbox; run it against a real MongoDB with --uri"
	setup := []string{`{"create": "ts", "timeseries": {"timeField": "t", "metaField": "m"}}`,
		`{"insert": "ts", "documents": [{"t": {"$date": "2024-01-01T00:00:00Z"}, "m": 1, "v": 1}]}`}
	runCmdCases(t, []cmdCase{
		{name: "explain of an update on a time-series collection", ref: ref, cov: cover{family: commandFam, op: "explain", col: errorCol}, setup: setup,
			cmd: `{"explain": {"update": "ts", "updates": [{"q": {"m": 1}, "u": {"$set": {"m": 2}}, "multi": true}]}}`, code: 238, msg: msg},
		{name: "explain of a findAndModify on a time-series collection", ref: ref, cov: cover{family: commandFam, op: "explain", col: errorCol}, setup: setup,
			cmd: `{"explain": {"findAndModify": "ts", "query": {"m": 1}, "remove": true}}`, code: 238, msg: msg},
	})
}

// A time-series collection's buckets are clustered in the legacy form
// {clusteredIndex: true}, whose cluster key is _id, unique
// (clustered_util.cpp makeCanonicalClusteredInfoForLegacyFormat): a spec
// asking for it with clustered: true names the cluster key, which exists
// (isSpecOKClusteredIndexCheck, index_catalog_impl.cpp), and one without
// unique is refused. jstests/core/timeseries/ddl/timeseries_id_index.js.
func TestTimeseriesBucketsClusterKeySpec(t *testing.T) {
	const ref = "src/mongo/db/catalog/clustered_collection_util.cpp (makeCanonicalClusteredInfoForLegacyFormat), index_catalog_impl.cpp (isSpecOKClusteredIndexCheck); jstests/core/timeseries/ddl/timeseries_id_index.js"
	setup := []string{`{"create": "ts", "timeseries": {"timeField": "time"}}`}
	cov := cover{family: commandFam, op: "createIndexes", col: semantics}
	runCmdCases(t, []cmdCase{
		{name: "the buckets' cluster key asked for with clustered: true exists already", ref: ref, cov: cov, setup: setup,
			cmd:  `{"createIndexes": "system.buckets.ts", "indexes": [{"key": {"_id": 1}, "name": "_id_1", "clustered": true, "unique": true}]}`,
			want: `{"numIndexesBefore": 1, "numIndexesAfter": 1, "note": "all indexes already exist"}`},
		{name: "clustered: true on another key of the buckets", ref: ref, cov: cover{family: commandFam, op: "createIndexes", col: errorCol}, setup: setup,
			cmd:  `{"createIndexes": "system.buckets.ts", "indexes": [{"key": {"meta": 1}, "name": "m", "clustered": true, "unique": true}]}`,
			code: 6243700, msg: "Cannot create index with option 'clustered' that does not match an existing clustered index"},
	})
}
