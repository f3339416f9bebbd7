package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"
)

// A filter on a time-series collection also filters its buckets before
// they are unpacked (BucketSpec::createPredicatesOnBucketLevelField in
// src/mongo/db/exec/timeseries/bucket_spec.cpp, and the generators of
// src/mongo/db/query/timeseries/bucket_level_comparison_predicate_generator.cpp):
// a comparison on a measurement becomes a bound on the bucket's
// control.max or control.min; one on the time also bounds the other
// control field by the bucket span and the bucket's _id, whose first four
// bytes are its minimum time, so that the scan of the buckets, clustered
// by _id, reads only the range (CLUSTERED_IXSCAN, minRecord/maxRecord). A
// bucket whose control bounds alone show every measurement matches
// (wholeBucketFilter) skips the eventFilter. The cases follow
// jstests/core/timeseries/query/timeseries_id_range.js and
// timeseries_predicates.js.
// unpackCreateRef is where the stage's parameters are checked.
const unpackCreateRef = "src/mongo/db/pipeline/document_source_internal_unpack_bucket.cpp (createFromBsonInternal)"

const bucketPredicatesRef = "src/mongo/db/exec/timeseries/bucket_spec.cpp (createPredicatesOnBucketLevelField); src/mongo/db/query/timeseries/bucket_level_comparison_predicate_generator.cpp; jstests/core/timeseries/query/timeseries_id_range.js"

func TestTimeseriesBucketPredicates(t *testing.T) {
	s := newSuite(t)
	// 22:30:00 on the day of the measurements, which run 22:13:20-22:42:20.
	at := `{"$date":"2023-11-14T22:30:00Z"}`
	cases := []struct{ name, setup, pipeline, plan, stages, want string }{
		{name: "a measurement bound reads control.max",
			pipeline: `[{"$match":{"v":{"$gt":27}}},{"$project":{"_id":0,"v":1}}]`,
			plan:     `{"isCached":false,"stage":"COLLSCAN","filter":{"control.max.v":{"$_internalExprGt":27}},"direction":"forward"}`,
			stages:   `[{"$_internalUnpackBucket":{"include":["v"],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true,"eventFilter":{"v":{"$gt":27}}}},{"$project":{"_id":false,"v":true}}]`,
			want:     `[{"v":28},{"v":29}]`},
		{name: "an equality reads both control bounds",
			pipeline: `[{"$match":{"v":4}},{"$project":{"_id":0,"v":1}}]`,
			plan:     `{"isCached":false,"stage":"COLLSCAN","filter":{"$and":[{"control.max.v":{"$_internalExprGte":4}},{"control.min.v":{"$_internalExprLte":4}}]},"direction":"forward"}`,
			want:     `[{"v":4}]`},
		{name: "a time bound is a range of the clustered _id",
			pipeline: `[{"$match":{"t":{"$gte":` + at + `}}},{"$count":"n"}]`,
			plan:     `{"isCached":false,"stage":"CLUSTERED_IXSCAN","filter":{"$and":[{"_id":{"$gte":{"$oid":"6553e6d80000000000000000"}}},{"control.max.t":{"$_internalExprGte":` + at + `}},{"control.min.t":{"$_internalExprGte":{"$date":"2023-11-14T21:30:00Z"}}}]},"direction":"forward","minRecord":{"$oid":"6553e6d80000000000000000"},"maxRecord":{"$oid":"ffffffffffffffffffffffff"}}`,
			stages:   `[{"$_internalUnpackBucket":{"include":["t"],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true,"wholeBucketFilter":{"control.min.t":{"$gte":` + at + `}},"eventFilter":{"t":{"$gte":` + at + `}}}},{"$group":{"_id":{"$const":null},"n":{"$sum":{"$const":1}}}},{"$project":{"_id":false,"n":true}}]`,
			want:     `[{"n":13}]`},
		{name: "an upper time bound rounds up to the second",
			pipeline: `[{"$match":{"t":{"$lt":{"$date":"2023-11-14T22:13:20.500Z"}}}},{"$project":{"_id":0,"v":1}}]`,
			plan:     `{"isCached":false,"stage":"CLUSTERED_IXSCAN","filter":{"$and":[{"_id":{"$lt":{"$oid":"6553f1010000000000000000"}}},{"control.max.t":{"$_internalExprLt":{"$date":"2023-11-14T23:13:20.5Z"}}},{"control.min.t":{"$_internalExprLt":{"$date":"2023-11-14T22:13:20.5Z"}}}]},"direction":"forward","minRecord":{"$oid":"000000000000000000000000"},"maxRecord":{"$oid":"6553f1010000000000000000"}}`,
			want:     `[{"v":0}]`},
		{name: "a time equality bounds both sides",
			pipeline: `[{"$match":{"t":{"$date":"2023-11-14T22:14:20Z"}}},{"$project":{"_id":0,"v":1}}]`,
			plan:     `{"isCached":false,"stage":"CLUSTERED_IXSCAN","filter":{"$and":[{"_id":{"$lte":{"$oid":"6553f13cffffffffffffffff"}}},{"_id":{"$gte":{"$oid":"6553e32c0000000000000000"}}},{"control.max.t":{"$_internalExprGte":{"$date":"2023-11-14T22:14:20Z"}}},{"control.min.t":{"$_internalExprGte":{"$date":"2023-11-14T21:14:20Z"}}},{"control.max.t":{"$_internalExprLte":{"$date":"2023-11-14T23:14:20Z"}}},{"control.min.t":{"$_internalExprLte":{"$date":"2023-11-14T22:14:20Z"}}}]},"direction":"forward","minRecord":{"$oid":"6553e32c0000000000000000"},"maxRecord":{"$oid":"6553f13cffffffffffffffff"}}`,
			want:     `[{"v":1}]`},
		{name: "an $in is an $or of equalities; a null in it has no bucket bound",
			pipeline: `[{"$match":{"v":{"$in":[3,null]}}},{"$project":{"_id":0,"v":1}}]`,
			plan:     `{"isCached":false,"stage":"COLLSCAN","direction":"forward"}`,
			want:     `[{"v":3}]`},
		{name: "an $or keeps each branch's bucket bound, the metaField's renamed",
			pipeline: `[{"$match":{"$or":[{"v":{"$lt":1}},{"m":2}]}},{"$project":{"_id":0,"v":1}},{"$limit":2}]`,
			plan:     `{"isCached":false,"stage":"SUBPLAN","inputStage":{"stage":"COLLSCAN","filter":{"$or":[{"meta":{"$eq":2}},{"control.min.v":{"$_internalExprLt":1}}]},"direction":"forward"}}`,
			want:     `[{"v":0},{"v":2}]`},
		{name: "an $or on the metaField alone moves to the buckets whole",
			pipeline: `[{"$match":{"$or":[{"m":0},{"m.x":{"$exists":true}}]}},{"$count":"n"}]`,
			// With no event filter left, the count reads the buckets.
			plan:   `{"isCached":false,"stage":"SUBPLAN","inputStage":{"stage":"PROJECTION_DEFAULT","transformBy":{"control.count":1,"control.version":1,"data.t":1,"_id":0},"inputStage":{"stage":"COLLSCAN","filter":{"$or":[{"meta":{"$eq":0}},{"meta.x":{"$exists":true}}]},"direction":"forward"}}}`,
			stages: `[{"$group":{"_id":{"$const":null},"n":{"$sum":{"$cond":[{"$gte":["$control.version",{"$const":2}]},"$control.count",{"$size":[{"$objectToArray":["$data.t"]}]}]}}}},{"$project":{"_id":false,"n":true}}]`,
			want:   `[{"n":10}]`},
		{name: "a $match the optimizer moves up to the unpacking is mapped onto the buckets too",
			pipeline: `[{"$project":{"_id":0,"v":1}},{"$match":{"v":{"$gt":27}}}]`,
			plan:     `{"isCached":false,"stage":"COLLSCAN","filter":{"control.max.v":{"$_internalExprGt":27}},"direction":"forward"}`,
			stages:   `[{"$_internalUnpackBucket":{"include":["v"],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true,"eventFilter":{"v":{"$gt":27}}}},{"$project":{"_id":false,"v":true}}]`,
			want:     `[{"v":28},{"v":29}]`},
		{name: "a $sort on the metaField that moves before the unpacking does not keep the $match from the buckets",
			pipeline: `[{"$sort":{"m":-1}},{"$match":{"v":{"$gt":26}}},{"$project":{"_id":0,"v":1}}]`,
			plan:     `{"isCached":false,"stage":"FETCH","filter":{"control.max.v":{"$_internalExprGt":26}},"inputStage":{"stage":"IXSCAN","keyPattern":{"meta":1,"control.min.t":1,"control.max.t":1},"indexName":"m_1_t_1","isMultiKey":false,"multiKeyPaths":{"meta":[],"control.min.t":[],"control.max.t":[]},"isUnique":false,"isSparse":false,"isPartial":false,"indexVersion":2,"direction":"backward","indexBounds":{"meta":["[MaxKey, MinKey]"],"control.min.t":["[MaxKey, MinKey]"],"control.max.t":["[MaxKey, MinKey]"]}}}`,
			stages:   `[{"$_internalUnpackBucket":{"include":["v"],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true,"eventFilter":{"v":{"$gt":26}}}},{"$project":{"_id":false,"v":true}}]`,
			want:     `[{"v":29},{"v":28},{"v":27}]`},
		{name: "$exists reads both control bounds",
			pipeline: `[{"$match":{"v":{"$exists":true}}},{"$count":"n"}]`,
			plan:     `{"isCached":false,"stage":"COLLSCAN","filter":{"$and":[{"control.max.v":{"$exists":true}},{"control.min.v":{"$exists":true}}]},"direction":"forward"}`,
			want:     `[{"n":30}]`},
		{name: "a time before 1970 matches no bucket of a collection without one",
			pipeline: `[{"$match":{"t":{"$lt":{"$date":"1969-12-31T00:00:00Z"}}}}]`,
			plan:     `{"isCached":false,"stage":"COLLSCAN","filter":{"$alwaysFalse":1},"direction":"forward"}`,
			want:     `[]`},
		{name: "buckets that may mix types also pass when their bounds differ in type",
			setup:    `{"collMod":"c","timeseriesBucketsMayHaveMixedSchemaData":true}`,
			pipeline: `[{"$match":{"v":{"$gt":27}}},{"$project":{"_id":0,"v":1}}]`,
			plan:     `{"isCached":false,"stage":"SUBPLAN","inputStage":{"stage":"COLLSCAN","filter":{"$or":[{"$expr":{"$ne":[{"$type":["$control.min.v"]},{"$type":["$control.max.v"]}]}},{"control.max.v":{"$_internalExprGt":27}}]},"direction":"forward"}}`,
			want:     `[{"v":28},{"v":29}]`},
	}
	for _, tc := range cases {
		s.runCase(t, tc.name, bucketPredicatesRef, cover{family: stage, op: "$_internalUnpackBucket", col: explain}, func(t *testing.T, db *mongo.Database) {
			boundedSortSetup(t, db)
			if tc.setup != "" {
				mustCommand(t, db, tc.setup)
			}
			plan, stages := tsExplainStages(t, db, tc.pipeline, "")
			sameValue(t, "plan", plan, tc.plan)
			if tc.stages != "" {
				sameValue(t, "stages", stages, tc.stages)
			}
			sameValue(t, "results", tsAggregate(t, db, tc.pipeline), tc.want)
		})
	}

	// Buckets of a fixed span, read from a boundary to a boundary: the
	// bucket bound selects exactly the matching measurements' buckets, and
	// the unpacking keeps them all (rewriteProvidesExactMatchPredicate);
	// with no event filter left, the projection becomes its include list.
	s.runCase(t, "fixed buckets read between boundaries need no event filter", bucketPredicatesRef+" (FixedBucketsLevelComparisonPredicateGenerator)",
		cover{family: stage, op: "$_internalUnpackBucket", col: semantics}, func(t *testing.T, db *mongo.Database) {
			mustCommand(t, db, `{"create":"c","timeseries":{"timeField":"t","bucketMaxSpanSeconds":3600,"bucketRoundingSeconds":3600}}`)
			mustCommand(t, db, `{"insert":"c","documents":[{"t":{"$date":"2024-01-01T00:30:00Z"},"v":1},{"t":{"$date":"2024-01-01T01:30:00Z"},"v":2},{"t":{"$date":"2024-01-01T02:30:00Z"},"v":3}]}`)
			pipeline := `[{"$match":{"t":{"$gte":{"$date":"2024-01-01T01:00:00Z"},"$lt":{"$date":"2024-01-01T02:00:00Z"}}}},{"$project":{"_id":0,"v":1}}]`
			_, stages := tsExplainStages(t, db, pipeline, "")
			sameValue(t, "stages", stages, `[{"$_internalUnpackBucket":{"include":["v"],"timeField":"t","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true,"fixedBuckets":true}}]`)
			sameValue(t, "results", tsAggregate(t, db, pipeline), `[{"v":2}]`)
		})

	buckets := func(spec string) string {
		return `{"aggregate":"system.buckets.c","pipeline":[{"$_internalUnpackBucket":` + spec + `}],"cursor":{}}`
	}
	setup := []string{`{"create":"c","timeseries":{"timeField":"t","metaField":"m"}}`,
		`{"insert":"c","documents":[{"t":{"$date":"2024-01-01T00:00:00Z"},"m":1,"v":7},{"t":{"$date":"2024-01-01T00:01:00Z"},"m":1,"v":9}]}`}
	cov := cover{family: stage, op: "$_internalUnpackBucket", col: errorCol}
	param := func(name, spec string, code int32, msg string) cmdCase {
		return cmdCase{name: name, ref: unpackCreateRef, cov: cov, setup: setup, cmd: buckets(spec), code: code, msg: msg}
	}
	runCmdCases(t, []cmdCase{
		{name: "a wholeBucketFilter the bucket passes skips the event filter", ref: bucketPredicatesRef, cov: cover{family: stage, op: "$_internalUnpackBucket", col: semantics}, setup: setup,
			cmd:  buckets(`{"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"wholeBucketFilter":{"control.min.v":{"$gte":7}},"eventFilter":{"v":{"$gt":7}}}`),
			want: `{"cursor":{"firstBatch":[{"t":{"$date":"2024-01-01T00:00:00Z"},"m":1,"_id":"*","v":7},{"t":{"$date":"2024-01-01T00:01:00Z"},"m":1,"_id":"*","v":9}],"id":{"$numberLong":"0"},"ns":"{{db}}.system.buckets.c"},"ok":1.0}`},
		{name: "computedMetaProjFields copy the bucket's field into each measurement", ref: bucketPredicatesRef, cov: cover{family: stage, op: "$_internalUnpackBucket", col: semantics}, setup: setup,
			cmd:  `{"aggregate":"system.buckets.c","pipeline":[{"$addFields":{"k":"$meta"}},{"$_internalUnpackBucket":{"include":["v"],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"computedMetaProjFields":["k"]}}],"cursor":{}}`,
			want: `{"cursor":{"firstBatch":[{"v":7,"k":1},{"v":9,"k":1}],"id":{"$numberLong":"0"},"ns":"{{db}}.system.buckets.c"},"ok":1.0}`},
		param("a timeField that is no string", `{"timeField":1,"bucketMaxSpanSeconds":3600}`, 5346504, "timeField field must be a string, got: int"),
		param("a metaField that is no string", `{"timeField":"t","metaField":true,"bucketMaxSpanSeconds":3600}`, 5346505, "metaField field must be a string, got: bool"),
		param("a dotted metaField", `{"timeField":"t","metaField":"a.b","bucketMaxSpanSeconds":3600}`, 5545700, "metaField field must be a single-element field path"),
		param("a span that is no int", `{"timeField":"t","bucketMaxSpanSeconds":3600.0}`, 5510600, "bucketMaxSpanSeconds field must be an integer, got: double"),
		param("a span of zero", `{"timeField":"t","bucketMaxSpanSeconds":0}`, 5510601, "bucketMaxSpanSeconds field must be greater than zero"),
		param("assumeNoMixedSchemaData that is no bool", `{"timeField":"t","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":1}`, 6067202, "assumeClean field must be a bool, got: int"),
		param("usesExtendedRange that is no bool", `{"timeField":"t","bucketMaxSpanSeconds":3600,"usesExtendedRange":"yes"}`, 6646901, "usesExtendedRange field must be a bool, got: string"),
		param("an eventFilter that is no object", `{"timeField":"t","bucketMaxSpanSeconds":3600,"eventFilter":[]}`, 7026902, "eventFilter field must be an object, got: array"),
		param("a wholeBucketFilter that is no object", `{"timeField":"t","bucketMaxSpanSeconds":3600,"wholeBucketFilter":1}`, 7026903, "wholeBucketFilter field must be an object, got: int"),
		param("fixedBuckets that is no bool", `{"timeField":"t","bucketMaxSpanSeconds":3600,"fixedBuckets":1}`, 7823300, "fixedBuckets field must be a bool, got: int"),
		param("includeMinTimeAsMetadata that is no bool", `{"timeField":"t","bucketMaxSpanSeconds":3600,"includeMinTimeAsMetadata":null}`, 6460208, "includeMinTimeAsMetadata field must be a bool, got: null"),
		param("includeMaxTimeAsMetadata that is no bool", `{"timeField":"t","bucketMaxSpanSeconds":3600,"includeMaxTimeAsMetadata":0}`, 6460209, "includeMaxTimeAsMetadata field must be a bool, got: int"),
		param("computedMetaProjFields that is no array", `{"timeField":"t","bucketMaxSpanSeconds":3600,"computedMetaProjFields":"k"}`, 5509900, "computedMetaProjFields field must be an array, got: string"),
		param("a computed field that is no string", `{"timeField":"t","bucketMaxSpanSeconds":3600,"computedMetaProjFields":[1]}`, 5509901, "computedMetaProjFields field element must be a string, got: int"),
		param("a dotted computed field", `{"timeField":"t","bucketMaxSpanSeconds":3600,"computedMetaProjFields":["a.b"]}`, 5509902, "computedMetaProjFields field element must be a single-element field path"),
	})
}
