package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// $_internalStreamingGroup is a $group over input ordered so that its
// monotonic _id fields change only between batches: whenever one changes,
// the groups so far are complete and returned
// (src/mongo/db/pipeline/document_source_streaming_group.cpp,
// src/mongo/db/exec/agg/streaming_group_stage.cpp;
// jstests/core/timeseries/query/timeseries_streaming_group.js).
func TestStageStreamingGroup(t *testing.T) {
	ref := "src/mongo/db/pipeline/document_source_streaming_group.cpp; src/mongo/db/exec/agg/streaming_group_stage.cpp; jstests/core/timeseries/query/timeseries_streaming_group.js"
	docs := `[{"_id":1,"t":1,"k":"a"},{"_id":2,"t":1,"k":"b"},{"_id":3,"t":1,"k":"a"},{"_id":4,"t":2,"k":"a"},{"_id":5,"t":1,"k":"a"}]`
	sorted := `{"$sort":{"_id":1}}`
	errs := cover{family: stage, op: "$_internalStreamingGroup", col: errorCol}
	runAggCases(t, []aggCase{
		{name: "a batch ends when the monotonic value changes", ref: ref, docs: docs,
			pipeline: `[` + sorted + `,{"$_internalStreamingGroup":{"_id":"$t","n":{"$sum":1},"$monotonicIdFields":["_id"]}}]`,
			// The last document's t went back to 1: a new batch, a new group.
			want: `[{"_id":1,"n":3},{"_id":2,"n":1},{"_id":1,"n":1}]`},
		{name: "named fields: only the monotonic ones end a batch", ref: ref, docs: docs,
			pipeline: `[` + sorted + `,{"$_internalStreamingGroup":{"_id":{"k":"$k","t":"$t"},"n":{"$sum":1},"$monotonicIdFields":["t"]}},{"$project":{"_id":0,"k":"$_id.k","t":"$_id.t","n":1}}]`,
			want:     `[{"n":2,"k":"a","t":1},{"n":1,"k":"b","t":1},{"n":1,"k":"a","t":2},{"n":1,"k":"a","t":1}]`},
		{name: "no monotonic field list", ref: ref, cov: errs, docs: docs,
			pipeline: `[{"$_internalStreamingGroup":{"_id":null,"n":{"$sum":1}}}]`,
			code:     7026702, msg: "streaming group must specify an array of monotonic id fields $monotonicIdFields"},
		{name: "an _id of one expression is listed as _id", ref: ref, cov: errs, docs: docs,
			pipeline: `[{"$_internalStreamingGroup":{"_id":"$t","n":{"$sum":1},"$monotonicIdFields":["t"]}}]`,
			code:     7026703, msg: `if there is no explicit id fields, $monotonicIdFields must contain a single "_id" string`},
		{name: "a field that is no string", ref: ref, cov: errs, docs: docs,
			pipeline: `[{"$_internalStreamingGroup":{"_id":{"t":"$t"},"n":{"$sum":1},"$monotonicIdFields":[1]}}]`,
			code:     7026704, msg: "$monotonicIdFields elements must be strings"},
		{name: "a field the _id lacks", ref: ref, cov: errs, docs: docs,
			pipeline: `[{"$_internalStreamingGroup":{"_id":{"symbol":"$k","time":"$t"},"n":{"$sum":1},"$monotonicIdFields":["price"]}}]`,
			code:     7026705, msg: "id field not found"},
		{name: "a null monotonic value", ref: ref, cov: errs, docs: docs,
			pipeline: `[{"$_internalStreamingGroup":{"_id":null,"n":{"$sum":1},"$monotonicIdFields":["_id"]}}]`,
			code:     7026708, msg: "PlanExecutor error during aggregation :: caused by :: Monotonic value should not be missing, null or an array"},
		{name: "an array monotonic value", ref: ref, cov: errs, docs: `[{"_id":1,"t":[1,2]}]`,
			pipeline: `[{"$_internalStreamingGroup":{"_id":{"t":"$t"},"n":{"$sum":1},"$monotonicIdFields":["t"]}}]`,
			code:     7026708, msg: "PlanExecutor error during aggregation :: caused by :: Monotonic value should not be missing, null or an array"},
	})
}

// A $group after a time-series collection's measurements are sorted on
// the time becomes $_internalStreamingGroup when an _id field moves with
// the time (enableStreamingGroupIfPossible in
// document_source_internal_unpack_bucket.cpp; getMonotonicState in
// expression.cpp and monotonic_expression.h).
func TestTimeseriesStreamingGroup(t *testing.T) {
	s := newSuite(t)
	ref := "src/mongo/db/pipeline/document_source_internal_unpack_bucket.cpp (enableStreamingGroupIfPossible); src/mongo/db/pipeline/monotonic_expression.h; jstests/core/timeseries/query/timeseries_streaming_group.js"
	cases := []struct{ name, pipeline, group, want string }{
		{name: "a time truncated to the minute is monotonic",
			pipeline: `[{"$sort":{"t":1}},{"$group":{"_id":{"m":"$m","minute":{"$dateTrunc":{"date":"$t","unit":"minute"}}},"n":{"$sum":1}}},{"$sort":{"_id":1}},{"$limit":2}]`,
			group:    `{"$_internalStreamingGroup":{"_id":{"m":"$m","minute":{"$dateTrunc":{"date":"$t","unit":{"$const":"minute"}}}},"n":{"$sum":{"$const":1}},"$monotonicIdFields":["minute"]}}`,
			want:     `[{"_id":{"m":0,"minute":{"$date":"2023-11-14T22:13:00Z"}},"n":1},{"_id":{"m":0,"minute":{"$date":"2023-11-14T22:16:00Z"}},"n":1}]`},
		{name: "a difference from a constant time is monotonic, and descending when subtracted",
			pipeline: `[{"$sort":{"t":-1}},{"$group":{"_id":{"$subtract":[{"$dateTrunc":{"date":{"$const":{"$date":"2030-01-01T00:00:00Z"}},"unit":"hour"}},"$t"]},"n":{"$sum":1}}},{"$sort":{"_id":1}},{"$limit":1}]`,
			group:    `{"$_internalStreamingGroup":{"_id":{"$subtract":[{"$const":{"$date":"2030-01-01T00:00:00Z"}},"$t"]},"n":{"$sum":{"$const":1}},"$monotonicIdFields":["_id"]}}`,
			want:     `[{"_id":{"$numberLong":"193454260000"},"n":1}]`},
		{name: "a key that does not move with the time stays a $group",
			pipeline: `[{"$sort":{"t":1}},{"$group":{"_id":"$m","n":{"$sum":1}}},{"$sort":{"_id":1}}]`,
			group:    `{"$group":{"_id":"$m","n":{"$sum":{"$const":1}}}}`,
			want:     `[{"_id":0,"n":10},{"_id":1,"n":10},{"_id":2,"n":10}]`},
		{name: "input not sorted on the time stays a $group",
			pipeline: `[{"$sort":{"v":1}},{"$group":{"_id":"$t","n":{"$sum":1}}},{"$sort":{"_id":1}},{"$limit":1}]`,
			group:    `{"$group":{"_id":"$t","n":{"$sum":{"$const":1}}}}`,
			want:     `[{"_id":{"$date":"2023-11-14T22:13:20Z"},"n":1}]`},
		{name: "a stage that rewrites the time stops it",
			pipeline: `[{"$sort":{"t":1}},{"$set":{"t":"$v"}},{"$group":{"_id":"$t","n":{"$sum":1}}},{"$sort":{"_id":1}},{"$limit":1}]`,
			group:    `{"$group":{"_id":"$t","n":{"$sum":{"$const":1}}}}`,
			want:     `[{"_id":0,"n":1}]`},
	}
	for _, tc := range cases {
		s.runCase(t, tc.name, ref, cover{family: stage, op: "$_internalStreamingGroup", col: explain}, func(t *testing.T, db *mongo.Database) {
			boundedSortSetup(t, db)
			_, stages := tsExplainStages(t, db, tc.pipeline, "")
			var group any
			for _, st := range stages {
				d := st.(bson.D)
				if d[0].Key == "$group" || d[0].Key == "$_internalStreamingGroup" {
					group = d
				}
			}
			sameValue(t, "group stage", group, tc.group)
			sameValue(t, "results", tsAggregate(t, db, tc.pipeline), tc.want)
		})
	}
}
