package compat_test

import (
	"strconv"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// A read of a time-series collection that sorts on its time field has its
// $sort replaced by $_internalBoundedSort once its query is planned
// (PipelineD::buildInnerQueryExecutorGeneric in pipeline_d.cpp, with
// createTimeSeriesTraversalPreference and supportsSort; the stage's
// serializeForBoundedSort in document_source_sort.cpp). The planner reads
// the buckets in the order the sort wants: a collection scan forward for
// an ascending sort and backward for a descending one, an index on the
// metaField and the time the same way. The bound is the buckets' minimum
// time (a collection scan, or an index on control.min) or maximum; read
// against its base's order it is not precise: offset by the bucket span,
// with a $match dropping the buckets wider than a span before the
// unpacking. The cases follow jstests/core/timeseries/query/
// bucket_unpacking_with_sort.js and bucket_unpacking_with_sort_negative.js.
const boundedSortRef = "src/mongo/db/pipeline/pipeline_d.cpp (bucket unpacking with sort), src/mongo/db/pipeline/document_source_sort.cpp (serializeForBoundedSort); jstests/core/timeseries/query/bucket_unpacking_with_sort.js"

// boundedSortSetup creates time-series collection c, with a metaField m
// and ten measurements a minute apart for each of m 0, 1 and 2, and the
// indexes given.
func boundedSortSetup(t *testing.T, db *mongo.Database, indexes ...string) {
	t.Helper()
	mustCommand(t, db, `{"create":"c","timeseries":{"timeField":"t","metaField":"m"}}`)
	var docs []string
	for i := 0; i < 30; i++ {
		docs = append(docs, `{"t":{"$date":{"$numberLong":"`+strconv.FormatInt(1700000000000+int64(i)*60000, 10)+`"}},"m":`+strconv.Itoa(i%3)+`,"v":`+strconv.Itoa(i)+`}`)
	}
	mustCommand(t, db, `{"insert":"c","documents":[`+strings.Join(docs, ",")+`]}`)
	for _, key := range indexes {
		mustCommand(t, db, `{"createIndexes":"c","indexes":[{"key":`+key+`,"name":"ix"}]}`)
	}
}

// tsExplainStages explains an aggregate of c and returns its stages after
// $cursor, and the $cursor's winning plan.
func tsExplainStages(t *testing.T, db *mongo.Database, pipeline, hint string) (plan bson.D, stages bson.A) {
	t.Helper()
	cmd := `{"explain":{"aggregate":"c","pipeline":` + pipeline + `,"cursor":{}`
	if hint != "" {
		cmd += `,"hint":` + hint
	}
	reply := mustCommand(t, db, cmd+`},"verbosity":"queryPlanner"}`)
	all, ok := field(reply, "stages").(bson.A)
	if !ok || len(all) == 0 {
		t.Fatalf("no stages in %s", relaxed(reply))
	}
	cursor := field(all[0].(bson.D), "$cursor").(bson.D)
	return field(field(cursor, "queryPlanner").(bson.D), "winningPlan").(bson.D), all[1:]
}

// scanOf is the winning plan's scan stage.
func scanOf(plan bson.D) bson.D {
	for {
		in, ok := field(plan, "inputStage").(bson.D)
		if !ok {
			return plan
		}
		plan = in
	}
}

func TestTimeseriesBoundedSort(t *testing.T) {
	s := newSuite(t)
	spanMatch := `{"$match":{"$expr":{"$lte":[{"$subtract":["$control.max.t","$control.min.t"]},{"$const":{"$numberLong":"3600000"}}]}}}`
	unpackMin := `{"$_internalUnpackBucket":{"exclude":[],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true,"includeMinTimeAsMetadata":true}}`
	unpackMax := `{"$_internalUnpackBucket":{"exclude":[],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true,"includeMaxTimeAsMetadata":true}}`
	bounded := func(key, base, offset, limit string) string {
		return `{"$_internalBoundedSort":{"sortKey":` + key + `,"bound":{"base":"` + base + `","offsetSeconds":{"$numberLong":"` + offset + `"}},"limit":{"$numberLong":"` + limit + `"}}}`
	}
	cases := []struct {
		name, pipeline, hint string
		indexes              []string
		scan, direction      string
		stages               string
	}{
		{name: "an ascending sort reads the buckets forward, bounded by their minimum, precisely",
			pipeline: `[{"$sort":{"t":1}}]`, scan: "COLLSCAN", direction: "forward",
			stages: `[` + unpackMin + `,` + bounded(`{"t":1}`, "min", "0", "0") + `]`},
		{name: "a descending sort reads them backward, a span off its bound, after dropping wider buckets",
			pipeline: `[{"$sort":{"t":-1}}]`, scan: "COLLSCAN", direction: "backward",
			stages: `[` + spanMatch + `,` + unpackMin + `,` + bounded(`{"t":-1}`, "min", "3600", "0") + `]`},
		{name: "a $natural hint leaves the direction to the sort",
			pipeline: `[{"$sort":{"t":-1}}]`, hint: `{"$natural":1}`, scan: "COLLSCAN", direction: "backward",
			stages: `[` + spanMatch + `,` + unpackMin + `,` + bounded(`{"t":-1}`, "min", "3600", "0") + `]`},
		{name: "an equality on the metaField reads its index backward for the newest first, the limit in the sort",
			pipeline: `[{"$match":{"m":1}},{"$sort":{"t":-1}},{"$limit":3}]`, scan: "IXSCAN", direction: "backward",
			stages: `[` + spanMatch + `,` + unpackMin + `,` + bounded(`{"t":-1}`, "min", "3600", "3") + `]`},
		{name: "an index descending on the time gives a descending sort by the buckets' maximum",
			pipeline: `[{"$sort":{"m":1,"t":-1}}]`, hint: `{"m":1,"t":-1}`, indexes: []string{`{"m":1,"t":-1}`}, scan: "IXSCAN", direction: "forward",
			stages: `[` + unpackMax + `,` + bounded(`{"m":1,"t":-1}`, "max", "0", "0") + `]`},
		{name: "a projection that keeps the sort's fields allows it, the unpacking excluding what it drops",
			pipeline: `[{"$project":{"v":0}},{"$sort":{"t":1}}]`, scan: "COLLSCAN", direction: "forward",
			stages: `[` + strings.Replace(unpackMin, `"exclude":[]`, `"exclude":["v"]`, 1) + `,` + bounded(`{"t":1}`, "min", "0", "0") + `]`},
		{name: "an exclusion of the metaField, moved to the buckets, allows it",
			pipeline: `[{"$project":{"m":0,"_id":0}},{"$sort":{"t":1}}]`, scan: "COLLSCAN", direction: "forward",
			stages: `[` + strings.Replace(unpackMin, `"exclude":[]`, `"exclude":["_id"]`, 1) + `,` + bounded(`{"t":1}`, "min", "0", "0") + `]`},
		{name: "a computed projection that keeps the sort's fields allows it",
			pipeline: `[{"$project":{"v":1,"t":1,"w":{"$add":["$v",1]}}},{"$sort":{"t":1}}]`, scan: "COLLSCAN", direction: "forward",
			stages: `[` + strings.Replace(unpackMin, `"exclude":[]`, `"include":["_id","t","v"]`, 1) + `,{"$project":{"_id":true,"v":true,"t":true,"w":{"$add":["$v",{"$const":1}]}}},` + bounded(`{"t":1}`, "min", "0", "0") + `]`},
	}
	for _, tc := range cases {
		s.runCase(t, tc.name, boundedSortRef, cover{family: stage, op: "$_internalBoundedSort", col: explain}, func(t *testing.T, db *mongo.Database) {
			boundedSortSetup(t, db, tc.indexes...)
			plan, stages := tsExplainStages(t, db, tc.pipeline, tc.hint)
			scan := scanOf(plan)
			if field(scan, "stage") != tc.scan || field(scan, "direction") != tc.direction {
				t.Fatalf("scan %s %s, want %s %s", field(scan, "stage"), field(scan, "direction"), tc.scan, tc.direction)
			}
			sameValue(t, "stages", stages, tc.stages)
		})
	}
	notBounded := []struct{ name, pipeline, hint string }{
		{name: "a sort on a field other than the time", pipeline: `[{"$sort":{"v":1}}]`},
		{name: "a sort on the metaField alone, which the buckets' order gives", pipeline: `[{"$sort":{"m":1}}]`},
		{name: "a sort with the time first", pipeline: `[{"$sort":{"t":1,"m":1}}]`},
		{name: "a field renamed onto the time", pipeline: `[{"$addFields":{"t":"$v"}},{"$sort":{"t":1}}]`},
		{name: "a time excluded before the sort", pipeline: `[{"$project":{"t":0}},{"$sort":{"t":1}}]`},
		{name: "an inclusion without the time, which the unpacking then leaves out", pipeline: `[{"$project":{"v":1}},{"$sort":{"t":1}}]`},
		{name: "a stage other than $match or a projection before the sort", pipeline: `[{"$limit":100},{"$sort":{"t":1}}]`},
		{name: "a range on the metaField, no point to skip", pipeline: `[{"$match":{"m":{"$gte":0,"$lte":1}}},{"$sort":{"t":1}}]`, hint: `{"m":1,"t":1}`},
		{name: "a sort on the metaField its exclusion, moved to the buckets, removed", pipeline: `[{"$project":{"m":0}},{"$sort":{"m":1,"t":1}}]`, hint: `{"m":1,"t":1}`},
	}
	for _, tc := range notBounded {
		s.runCase(t, "no bounded sort: "+tc.name, boundedSortRef+"; jstests/core/timeseries/bucket_unpacking_with_sort_negative.js",
			cover{family: stage, op: "$_internalBoundedSort", col: explain}, func(t *testing.T, db *mongo.Database) {
				boundedSortSetup(t, db)
				_, stages := tsExplainStages(t, db, tc.pipeline, tc.hint)
				if strings.Contains(relaxed(stages), "$_internalBoundedSort") {
					t.Fatalf("bounded: %s", relaxed(stages))
				}
			})
	}
	s.runCase(t, "no bounded sort over buckets whose _id cannot hold their times", boundedSortRef+" (usesExtendedRange); jstests/core/timeseries/query/bucket_unpacking_with_sort_extended_range.js",
		cover{family: stage, op: "$_internalBoundedSort", col: explain}, func(t *testing.T, db *mongo.Database) {
			boundedSortSetup(t, db)
			// dateOutsideStandardRange: 1969 is before the epoch an ObjectId
			// can hold.
			mustCommand(t, db, `{"insert":"c","documents":[{"t":{"$date":{"$numberLong":"-86400000"}},"m":0,"v":-1}]}`)
			_, stages := tsExplainStages(t, db, `[{"$sort":{"t":1}}]`, "")
			sameValue(t, "stages", stages, `[{"$_internalUnpackBucket":{"exclude":[],"timeField":"t","metaField":"m","bucketMaxSpanSeconds":3600,"assumeNoMixedSchemaData":true,"usesExtendedRange":true}},{"$sort":{"sortKey":{"t":1}}}]`)
		})
	s.runCase(t, "the bounded sort returns what the sort would, newest first", boundedSortRef,
		cover{family: stage, op: "$_internalBoundedSort", col: semantics}, func(t *testing.T, db *mongo.Database) {
			boundedSortSetup(t, db)
			docs, err := cursorDocs(t, db, ejDoc(t, `{"find":"c","filter":{"m":1},"sort":{"t":-1},"limit":3,"projection":{"_id":0}}`))
			if err != nil {
				t.Fatal(err)
			}
			sameDocs(t, "newest of m 1", docs, `[{"t":{"$date":"2023-11-14T22:41:20Z"},"m":1,"v":28},{"t":{"$date":"2023-11-14T22:38:20Z"},"m":1,"v":25},{"t":{"$date":"2023-11-14T22:35:20Z"},"m":1,"v":22}]`, false)
			all, err := cursorDocs(t, db, ejDoc(t, `{"aggregate":"c","pipeline":[{"$sort":{"t":-1}},{"$project":{"_id":0,"v":1}}],"cursor":{}}`))
			if err != nil {
				t.Fatal(err)
			}
			for i, d := range all {
				if want := int32(29 - i); field(d, "v") != want {
					t.Fatalf("position %d: %s, want v %d", i, relaxed(d), want)
				}
			}
		})
	s.runCase(t, "the bounded sort reports what it sorted", boundedSortRef,
		cover{family: stage, op: "$_internalBoundedSort", col: explain}, func(t *testing.T, db *mongo.Database) {
			boundedSortSetup(t, db)
			reply := mustCommand(t, db, `{"explain":{"aggregate":"c","pipeline":[{"$sort":{"t":1}}],"cursor":{}},"verbosity":"executionStats"}`)
			last := lastStage(t, reply)
			if _, ok := field(last, "totalDataSizeSortedBytesEstimate").(int64); !ok || field(last, "nReturned") != int64(30) || field(last, "usedDisk") != false {
				t.Fatalf("stats %s", relaxed(last))
			}
		})
	runCmdCases(t, []cmdCase{
		{name: "a client may not send $_internalBoundedSort", ref: "src/mongo/db/pipeline/allowed_contexts.cpp (assertAllowedInternalIfRequired); " + boundedSortRef,
			cov:  cover{family: stage, op: "$_internalBoundedSort"},
			cmd:  `{"aggregate":"c","pipeline":[{"$_internalBoundedSort":{"sortKey":{"t":1},"bound":{"base":"min"}}}],"cursor":{}}`,
			code: mongoerr.ErrNotAllowedInUserRequests, msg: "$_internalBoundedSort' is not allowed in user requests"},
	})
}
