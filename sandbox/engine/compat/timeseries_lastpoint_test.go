package compat_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// A last-point query (the latest measurement of each meta value) gets a
// $sort and a $group of the buckets before the unpacking, so that only
// the bucket holding each answer is unpacked; with an index that orders
// the buckets so, the bucket-level pair becomes a DISTINCT_SCAN
// (DocumentSourceInternalUnpackBucket::optimizeLastpoint,
// createMetadataSortForReorder, createBucketGroupForReorder;
// src/mongo/db/query/timeseries/README.md, "Last-point queries"). The
// cases follow jstests/core/timeseries/query/timeseries_lastpoint.js and
// libs/timeseries_lastpoint_helpers.js.
const lastpointRef = "src/mongo/db/pipeline/document_source_internal_unpack_bucket.cpp (optimizeLastpoint); src/mongo/db/query/timeseries/README.md; jstests/core/timeseries/query/timeseries_lastpoint.js"

// lastpointSetup makes c, metaField m, with three overlapping buckets of
// m 1 (inserting a time earlier than its open bucket's start opens a new
// bucket) and one of m 2. The latest measurement of m 1 is x 5, in the
// second bucket, whose control.min.t is not the latest of the three.
func lastpointSetup(t *testing.T, db *mongo.Database) {
	t.Helper()
	mustCommand(t, db, `{"create":"c","timeseries":{"timeField":"t","metaField":"m"}}`)
	for _, m := range []string{`"10:42",1,2`, `"20:06",1,4`, `"05:17",1,1`, `"25:59",1,5`, `"00:28",1,0`, `"15:50",1,3`, `"30:01",2,6`} {
		f := strings.Split(m, ",")
		mustCommand(t, db, `{"insert":"c","documents":[{"t":{"$date":"2016-01-01T00:`+strings.Trim(f[0], `"`)+`Z"},"m":`+f[1]+`,"x":`+f[2]+`}]}`)
	}
}

// groupsBucketsFirst reports whether a $group (or the $groupByDistinctScan
// it became) comes before the unpacking in explain's stages.
func groupsBucketsFirst(stages bson.A) bool {
	for _, st := range stages {
		d, ok := st.(bson.D)
		if !ok || len(d) == 0 {
			continue
		}
		switch d[0].Key {
		case "$_internalUnpackBucket":
			return false
		case "$group", "$groupByDistinctScan":
			return true
		}
	}
	return false
}

func TestTimeseriesLastpoint(t *testing.T) {
	s := newSuite(t)
	cov := cover{family: stage, op: "$group", col: explain}
	rewritten := []struct{ name, pipeline, want string }{
		{"$last after an ascending time sort", `[{"$sort":{"t":1}},{"$group":{"_id":"$m","acc":{"$last":"$x"}}}]`,
			`[{"_id":1,"acc":5},{"_id":2,"acc":6}]`},
		{"$first after a descending time sort", `[{"$sort":{"t":-1}},{"$group":{"_id":"$m","acc":{"$first":"$x"}}}]`,
			`[{"_id":1,"acc":5},{"_id":2,"acc":6}]`},
		{"a sort on the meta first, in either direction", `[{"$sort":{"m":-1,"t":1}},{"$group":{"_id":"$m","acc":{"$last":"$x"}}}]`,
			`[{"_id":1,"acc":5},{"_id":2,"acc":6}]`},
		{"several $last", `[{"$sort":{"t":1}},{"$group":{"_id":"$m","a":{"$last":"$x"},"b":{"$last":"$y"}}}]`,
			`[{"_id":1,"a":5,"b":null},{"_id":2,"a":6,"b":null}]`},
		{"a $bottom by ascending time", `[{"$group":{"_id":"$m","acc":{"$bottom":{"sortBy":{"t":1},"output":["$x"]}}}}]`,
			`[{"_id":1,"acc":[5]},{"_id":2,"acc":[6]}]`},
		{"a $top by meta and descending time", `[{"$group":{"_id":"$m","acc":{"$top":{"sortBy":{"m":-1,"t":-1},"output":["$x","$y"]}}}}]`,
			`[{"_id":1,"acc":[5,null]},{"_id":2,"acc":[6,null]}]`},
		{"a $topN of n 1", `[{"$group":{"_id":"$m","acc":{"$topN":{"n":1,"sortBy":{"t":-1},"output":["$x"]}}}}]`,
			`[{"_id":1,"acc":[[5]]},{"_id":2,"acc":[[6]]}]`},
		{"a filter on the metaField alone", `[{"$match":{"m":{"$lte":1}}},{"$group":{"_id":"$m","acc":{"$bottom":{"sortBy":{"t":1},"output":["$x"]}}}}]`,
			`[{"_id":1,"acc":[5]}]`},
	}
	for _, tc := range rewritten {
		s.runCase(t, "rewritten: "+tc.name, lastpointRef, cov, func(t *testing.T, db *mongo.Database) {
			lastpointSetup(t, db)
			if _, stages := tsExplainStages(t, db, tc.pipeline, ""); !groupsBucketsFirst(stages) {
				t.Fatalf("no $group of the buckets before the unpacking: %s", relaxed(stages))
			}
			sameValue(t, "results", tsAggregate(t, db, byID(tc.pipeline)), tc.want)
		})
	}

	s.runCase(t, "the bucket-level stages", lastpointRef, cov, func(t *testing.T, db *mongo.Database) {
		lastpointSetup(t, db)
		plan, stages := tsExplainStages(t, db, `[{"$sort":{"t":1}},{"$group":{"_id":"$m","acc":{"$last":"$x"}}}]`, "")
		// $last reverses the sort; the group's path leads it, descending
		// since the sort does not name it; descending time reads
		// control.max before control.min.
		sort := stageNamed(plan, "SORT")
		if sort == nil {
			t.Fatalf("no SORT in %s", relaxed(plan))
		}
		sameValue(t, "sortPattern", field(sort, "sortPattern"), `{"meta":-1,"control.max.t":-1,"control.min.t":-1}`)
		sameValue(t, "bucket group", stages[0], `{"$group":{"_id":"$meta","meta":{"$first":"$meta"},"control":{"$first":"$control"},"data":{"$first":"$data"}}}`)
	})

	kept := []string{
		// The earliest point: control.min.t is rounded down, so the
		// bucket that holds it is not known.
		`[{"$sort":{"t":1}},{"$group":{"_id":"$m","acc":{"$first":"$x"}}}]`,
		`[{"$sort":{"m":-1,"t":-1}},{"$group":{"_id":"$m","acc":{"$last":"$x"}}}]`,
		`[{"$group":{"_id":"$m","acc":{"$top":{"sortBy":{"t":1},"output":["$x"]}}}}]`,
		// n is not the constant 1.
		`[{"$group":{"_id":"$m","acc":{"$topN":{"n":2,"sortBy":{"t":-1},"output":["$x"]}}}}]`,
		`[{"$group":{"_id":"$m","acc":{"$topN":{"n":{"$cond":{"if":{"$lte":["$m",1024]},"then":1,"else":2}},"sortBy":{"t":-1},"output":["$x"]}}}}]`,
		// Two accumulators of the top/bottom family, or other ones.
		`[{"$group":{"_id":"$m","a":{"$bottom":{"sortBy":{"t":1},"output":["$x"]}},"b":{"$top":{"sortBy":{"t":-1},"output":["$y"]}}}}]`,
		`[{"$sort":{"t":1}},{"$group":{"_id":"$m","a":{"$last":"$x"},"b":{"$max":"$y"}}}]`,
		`[{"$sort":{"t":1}},{"$group":{"_id":"$m","a":{"$last":"$x"},"b":{"$first":"$y"}}}]`,
		// A filter on the measurements may reject the chosen bucket's.
		`[{"$match":{"y":42}},{"$sort":{"t":1}},{"$group":{"_id":"$m","acc":{"$last":"$x"}}}]`,
		// A limit after the sort.
		`[{"$sort":{"t":1}},{"$limit":5},{"$group":{"_id":"$m","acc":{"$last":"$x"}}}]`,
		// Not a group on the metaField.
		`[{"$group":{"_id":null,"acc":{"$bottom":{"sortBy":{"t":1},"output":["$x"]}}}}]`,
		`[{"$group":{"_id":"$y","acc":{"$bottom":{"sortBy":{"t":1},"output":["$x"]}}}}]`,
		`[{"$group":{"_id":{"a":"$m.a","b":"$m.b"},"acc":{"$bottom":{"sortBy":{"t":1},"output":["$x"]}}}}]`,
		`[{"$group":{"_id":{"$add":[1,"$m"]},"acc":{"$bottom":{"sortBy":{"t":1},"output":["$x"]}}}}]`,
		// A sort on a meta path the group does not use.
		`[{"$sort":{"m.a":1,"t":-1}},{"$group":{"_id":"$m","acc":{"$first":"$x"}}}]`,
	}
	for _, pipeline := range kept {
		s.runCase(t, "not rewritten: "+pipeline, lastpointRef, cov, func(t *testing.T, db *mongo.Database) {
			lastpointSetup(t, db)
			if _, stages := tsExplainStages(t, db, pipeline, ""); groupsBucketsFirst(stages) {
				t.Fatalf("a $group of the buckets before the unpacking: %s", relaxed(stages))
			}
		})
	}

	distinct := []struct{ pipeline, index, want string }{
		{`[{"$sort":{"t":1}},{"$group":{"_id":"$m","acc":{"$last":"$x"}}}]`, `{"m":-1,"t":-1}`, `[{"_id":1,"acc":5},{"_id":2,"acc":6}]`},
		{`[{"$group":{"_id":"$m","acc":{"$bottom":{"sortBy":{"t":1},"output":["$x"]}}}}]`, `{"m":-1,"t":-1}`, `[{"_id":1,"acc":[5]},{"_id":2,"acc":[6]}]`},
		{`[{"$group":{"_id":"$m","acc":{"$topN":{"n":1,"sortBy":{"t":-1},"output":["$x"]}}}}]`, `{"m":1,"t":-1}`, `[{"_id":1,"acc":[[5]]},{"_id":2,"acc":[[6]]}]`},
		{`[{"$match":{"m":1}},{"$sort":{"t":-1}},{"$group":{"_id":"$m","acc":{"$first":"$x"}}}]`, `{"m":1,"t":-1}`, `[{"_id":1,"acc":5}]`},
	}
	for _, tc := range distinct {
		s.runCase(t, "a DISTINCT_SCAN of index "+tc.index+": "+tc.pipeline, lastpointRef+"; jstests/core/timeseries/libs/timeseries_lastpoint_helpers.js", cov, func(t *testing.T, db *mongo.Database) {
			lastpointSetup(t, db)
			mustCommand(t, db, `{"createIndexes":"c","indexes":[{"key":`+tc.index+`,"name":"ix"}]}`)
			plan, stages := tsExplainStages(t, db, tc.pipeline, "")
			if stageNamed(plan, "DISTINCT_SCAN") == nil || stageNamed(plan, "SORT") != nil {
				t.Fatalf("want a DISTINCT_SCAN and no SORT: %s", relaxed(plan))
			}
			if first := stages[0].(bson.D); first[0].Key != "$groupByDistinctScan" {
				t.Fatalf("want $groupByDistinctScan first: %s", relaxed(stages))
			}
			sameValue(t, "results", tsAggregate(t, db, byID(tc.pipeline)), tc.want)
		})
	}
}
