package compat_test

import (
	"strconv"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// A $group right after the unpacking of a time-series collection, with no
// filter on the measurements, groups the buckets themselves when their
// documents hold what it computes (DocumentSourceInternalUnpackBucket::
// rewriteGroupStage, rewriteGroupByElement, handleDateTruncRewrite,
// rewriteMinMaxGroupAccm and rewriteCountGroupAccm): an _id of constants,
// of expressions on the metaField, or, on fixed buckets, of a $dateTrunc of
// the time that the bucket boundaries align with; and accumulators that are
// $min or $max of a field path, or counts. The buckets are fixed when the
// collection was created with equal bucketMaxSpanSeconds and
// bucketRoundingSeconds and collMod never changed its bucketing
// (areTimeseriesBucketsFixed); the unpacking then says fixedBuckets. The
// cases follow jstests/core/timeseries/bucket_unpacking_group_reorder_fixed_buckets.js.
const bucketGroupRef = "src/mongo/db/pipeline/document_source_internal_unpack_bucket.cpp (rewriteGroupStage, handleDateTruncRewrite); src/mongo/db/query/timeseries/README.md; jstests/core/timeseries/bucket_unpacking_group_reorder_fixed_buckets.js"

// bucketGroupSetup creates time-series collection c with fixed hourly
// buckets (or the granularity's, when granular), metaField m, and 30
// measurements ten minutes apart, m cycling through 0, 1, 2 and v their
// position.
func bucketGroupSetup(t *testing.T, db *mongo.Database, granular bool) {
	t.Helper()
	bucketing := `"bucketMaxSpanSeconds":3600,"bucketRoundingSeconds":3600`
	if granular {
		bucketing = `"granularity":"seconds"`
	}
	mustCommand(t, db, `{"create":"c","timeseries":{"timeField":"t","metaField":"m",`+bucketing+`}}`)
	var docs []string
	for i := 0; i < 30; i++ {
		docs = append(docs, `{"t":{"$date":{"$numberLong":"`+strconv.FormatInt(1699999200000+int64(i)*600000, 10)+`"}},"m":`+strconv.Itoa(i%3)+`,"v":`+strconv.Itoa(i)+`}`)
	}
	mustCommand(t, db, `{"insert":"c","documents":[`+strings.Join(docs, ",")+`]}`)
}

// tsAggregate runs pipeline on c.
func tsAggregate(t *testing.T, db *mongo.Database, pipeline string) bson.A {
	t.Helper()
	p := ejArray(t, pipeline)
	docs, err := cursorDocs(t, db, bson.D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: p}, {Key: "cursor", Value: bson.D{}}})
	if err != nil {
		t.Fatalf("aggregate %s: %v", pipeline, err)
	}
	out := make(bson.A, len(docs))
	for i, d := range docs {
		out[i] = d
	}
	return out
}

func TestTimeseriesGroupOverBuckets(t *testing.T) {
	s := newSuite(t)
	count := `{"$sum":{"$cond":[{"$gte":["$control.version",{"$const":2}]},"$control.count",{"$size":[{"$objectToArray":["$data.t"]}]}]}}`
	rewritten := []struct{ name, pipeline, stages, want string }{
		{name: "a group on the metaField with $min and $max reads the buckets' meta and control",
			pipeline: `[{"$group":{"_id":"$m","lo":{"$min":"$v"},"hi":{"$max":"$v"}}}]`,
			stages:   `[{"$group":{"_id":"$meta","lo":{"$min":"$control.min.v"},"hi":{"$max":"$control.max.v"}}}]`,
			want:     `[{"_id":0,"lo":0,"hi":27},{"_id":1,"lo":1,"hi":28},{"_id":2,"lo":2,"hi":29}]`},
		{name: "a constant key, $count and the $max of the time",
			pipeline: `[{"$group":{"_id":"all","n":{"$count":{}},"last":{"$max":"$t"}}}]`,
			stages:   `[{"$group":{"_id":{"$const":"all"},"n":` + count + `,"last":{"$max":"$control.max.t"}}}]`,
			want:     `[{"_id":"all","n":30,"last":{"$date":"2023-11-15T02:50:00Z"}}]`},
		{name: "the $count stage becomes a count of each bucket's measurements",
			pipeline: `[{"$count":"n"}]`,
			stages:   `[{"$group":{"_id":{"$const":null},"n":` + count + `}},{"$project":{"_id":false,"n":true}}]`,
			want:     `[{"n":30}]`},
		{name: "a $dateTrunc of the time by hour on hourly fixed buckets truncates control.min",
			pipeline: `[{"$group":{"_id":{"h":{"$dateTrunc":{"date":"$t","unit":"hour"}},"m":"$m"},"n":{"$sum":1}}}]`,
			stages:   `[{"$group":{"_id":{"h":{"$dateTrunc":{"date":"$control.min.t","unit":{"$const":"hour"}}},"m":"$meta"},"n":` + count + `}}]`,
			want: `[{"_id":{"h":{"$date":"2023-11-14T22:00:00Z"},"m":0},"n":2},{"_id":{"h":{"$date":"2023-11-14T22:00:00Z"},"m":1},"n":2},{"_id":{"h":{"$date":"2023-11-14T22:00:00Z"},"m":2},"n":2},` +
				`{"_id":{"h":{"$date":"2023-11-14T23:00:00Z"},"m":0},"n":2},{"_id":{"h":{"$date":"2023-11-14T23:00:00Z"},"m":1},"n":2},{"_id":{"h":{"$date":"2023-11-14T23:00:00Z"},"m":2},"n":2},` +
				`{"_id":{"h":{"$date":"2023-11-15T00:00:00Z"},"m":0},"n":2},{"_id":{"h":{"$date":"2023-11-15T00:00:00Z"},"m":1},"n":2},{"_id":{"h":{"$date":"2023-11-15T00:00:00Z"},"m":2},"n":2},` +
				`{"_id":{"h":{"$date":"2023-11-15T01:00:00Z"},"m":0},"n":2},{"_id":{"h":{"$date":"2023-11-15T01:00:00Z"},"m":1},"n":2},{"_id":{"h":{"$date":"2023-11-15T01:00:00Z"},"m":2},"n":2},` +
				`{"_id":{"h":{"$date":"2023-11-15T02:00:00Z"},"m":0},"n":2},{"_id":{"h":{"$date":"2023-11-15T02:00:00Z"},"m":1},"n":2},{"_id":{"h":{"$date":"2023-11-15T02:00:00Z"},"m":2},"n":2}]`},
		{name: "a day in a timezone offset by whole hours still aligns with hourly buckets",
			pipeline: `[{"$group":{"_id":{"$dateTrunc":{"date":"$t","unit":"day","timezone":"+0500"}},"hi":{"$max":"$v"}}}]`,
			stages:   `[{"$group":{"_id":{"$dateTrunc":{"date":"$control.min.t","unit":{"$const":"day"},"timezone":{"$const":"+0500"}}},"hi":{"$max":"$control.max.v"}}}]`,
			want:     `[{"_id":{"$date":"2023-11-14T19:00:00Z"},"hi":29}]`},
	}
	for _, tc := range rewritten {
		s.runCase(t, tc.name, bucketGroupRef, cover{family: stage, op: "$group", col: explain}, func(t *testing.T, db *mongo.Database) {
			bucketGroupSetup(t, db, false)
			_, stages := tsExplainStages(t, db, tc.pipeline, "")
			sameValue(t, "stages", stages, tc.stages)
			sameValue(t, "results", tsAggregate(t, db, byID(tc.pipeline)), tc.want)
			// The same group over the measurements themselves agrees.
			inhibited := `[{"$_internalInhibitOptimization":{}},` + strings.TrimPrefix(tc.pipeline, "[")
			sameValue(t, "results unoptimized", tsAggregate(t, db, byID(inhibited)), tc.want)
		})
	}

	kept := []struct {
		name, pipeline string
		granular       bool
	}{
		{name: "an $avg, which the buckets do not hold", pipeline: `[{"$group":{"_id":"$m","a":{"$avg":"$v"}}}]`},
		{name: "the $min of the time, whose control.min is rounded down", pipeline: `[{"$group":{"_id":"$m","first":{"$min":"$t"}}}]`},
		{name: "a key on a measurement field", pipeline: `[{"$group":{"_id":"$v","hi":{"$max":"$v"}}}]`},
		{name: "a $sum of anything but 1", pipeline: `[{"$group":{"_id":null,"n":{"$sum":2}}}]`},
		{name: "a $min of an expression", pipeline: `[{"$group":{"_id":null,"lo":{"$min":{"$add":["$v",1]}}}}]`},
		{name: "a filter on the measurements", pipeline: `[{"$match":{"v":{"$gt":3}}},{"$group":{"_id":"$m","hi":{"$max":"$v"}}}]`},
		{name: "a $dateTrunc finer than the buckets", pipeline: `[{"$group":{"_id":{"$dateTrunc":{"date":"$t","unit":"minute"}},"hi":{"$max":"$v"}}}]`},
		{name: "a timezone offset by 5:45", pipeline: `[{"$group":{"_id":{"$dateTrunc":{"date":"$t","unit":"day","timezone":"Asia/Kathmandu"}},"hi":{"$max":"$v"}}}]`},
		{name: "a binSize that is not a constant", pipeline: `[{"$group":{"_id":{"$dateTrunc":{"date":"$t","unit":"hour","binSize":{"$add":["$m",1]}}},"hi":{"$max":"$v"}}}]`},
		{name: "a $dateTrunc of the time on buckets a granularity makes", pipeline: `[{"$group":{"_id":{"$dateTrunc":{"date":"$t","unit":"hour"}},"hi":{"$max":"$v"}}}]`, granular: true},
	}
	for _, tc := range kept {
		s.runCase(t, "not rewritten: "+tc.name, bucketGroupRef, cover{family: stage, op: "$group", col: explain}, func(t *testing.T, db *mongo.Database) {
			bucketGroupSetup(t, db, tc.granular)
			_, stages := tsExplainStages(t, db, tc.pipeline, "")
			if !unpacks(stages) {
				t.Fatalf("the measurements were not unpacked: %s", relaxed(stages))
			}
			inhibited := `[{"$_internalInhibitOptimization":{}},` + strings.TrimPrefix(tc.pipeline, "[")
			sameValue(t, "results", tsAggregate(t, db, byID(tc.pipeline)), relaxed(tsAggregate(t, db, byID(inhibited))))
		})
	}
}

// byID sorts pipeline's results by _id.
func byID(pipeline string) string {
	return strings.TrimSuffix(pipeline, "]") + `,{"$sort":{"_id":1}}]`
}

// unpacks reports whether explain's stages unpack the buckets.
func unpacks(stages bson.A) bool {
	for _, st := range stages {
		if d, ok := st.(bson.D); ok && len(d) > 0 && d[0].Key == "$_internalUnpackBucket" {
			return true
		}
	}
	return false
}

func TestTimeseriesFixedBuckets(t *testing.T) {
	s := newSuite(t)
	group := `[{"$group":{"_id":{"$dateTrunc":{"date":"$t","unit":"day"}},"hi":{"$max":"$v"}}}]`
	cases := []struct {
		name    string
		setup   []string
		fixed   bool
		grouped bool
	}{
		{name: "equal custom span and rounding make fixed buckets", fixed: true, grouped: true},
		{name: "a granularity does not", setup: []string{`{"collMod":"c","timeseries":{"granularity":"minutes"}}`}},
		{name: "nor custom seconds collMod set, since older buckets started elsewhere",
			setup: []string{`{"collMod":"c","timeseries":{"bucketMaxSpanSeconds":7200,"bucketRoundingSeconds":7200}}`}},
		{name: "a collMod that changes nothing keeps them fixed",
			setup: []string{`{"collMod":"c","timeseries":{"bucketMaxSpanSeconds":3600,"bucketRoundingSeconds":3600}}`}, fixed: true, grouped: true},
	}
	for _, tc := range cases {
		s.runCase(t, tc.name, bucketGroupRef+"; src/mongo/db/timeseries/timeseries_options.cpp (areTimeseriesBucketsFixed)", cover{family: stage, op: "$group", col: explain}, func(t *testing.T, db *mongo.Database) {
			bucketGroupSetup(t, db, false)
			for _, c := range tc.setup {
				mustCommand(t, db, c)
			}
			_, stages := tsExplainStages(t, db, `[{"$match":{"v":{"$gt":3}}}]`, "")
			unpack := field(stages[0].(bson.D), "$_internalUnpackBucket").(bson.D)
			if got := field(unpack, "fixedBuckets") == true; got != tc.fixed {
				t.Fatalf("fixedBuckets %v, want %v: %s", got, tc.fixed, relaxed(unpack))
			}
			_, stages = tsExplainStages(t, db, group, "")
			if unpacks(stages) == tc.grouped {
				t.Fatalf("rewritten %v, want %v: %s", !unpacks(stages), tc.grouped, relaxed(stages))
			}
		})
	}
}
