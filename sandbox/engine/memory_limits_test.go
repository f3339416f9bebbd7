package engine_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// bigDocs fills db.big with n documents of a little over 1 MB each, as
// mongod's jstests/aggregation/spill_to_disk.js does: 101 of them are
// over the 100 MB every blocking stage may hold.
func bigDocs(t *testing.T, n int) *mongo.Database {
	t.Helper()
	db := startServer(t).Database("limits")
	big := strings.Repeat(",", 1<<20)
	docs := make([]any, n)
	for i := range docs {
		docs[i] = bson.D{{Key: "_id", Value: int32(i)}, {Key: "bigStr", Value: big}, {Key: "random", Value: int32((i * 7919) % n)}, {Key: "next", Value: int32(i + 1)}}
	}
	if _, err := db.Collection("big").InsertMany(context.Background(), docs); err != nil {
		t.Fatal(err)
	}
	return db
}

// aggregateCmd asks for a first batch of one document: enough to make a
// blocking stage run (a batchSize of 0 returns before the pipeline runs,
// as on mongod, and the error would come with the first getMore), and no
// more than one big document in a reply.
func aggregateCmd(pipeline bson.A, allowDiskUse ...bool) bson.D {
	cmd := bson.D{{Key: "aggregate", Value: "big"}, {Key: "pipeline", Value: pipeline}, {Key: "cursor", Value: bson.D{{Key: "batchSize", Value: 1}}}}
	if len(allowDiskUse) > 0 {
		cmd = append(cmd, bson.E{Key: "allowDiskUse", Value: allowDiskUse[0]})
	}
	return cmd
}

func wantCode(t *testing.T, ce mongo.CommandError, code int32, name, msg string) {
	t.Helper()
	if ce.Code != code || ce.Name != name || ce.Message != msg {
		t.Fatalf("error {%d %s %q}\nwant  {%d %s %q}", ce.Code, ce.Name, ce.Message, code, name, msg)
	}
}

const (
	sortNoDisk  = "Sort exceeded memory limit of 104857600 bytes, but did not opt in to external sorting."
	groupNoDisk = "Exceeded memory limit for $group, but didn't allow external sort. Pass allowDiskUse:true to opt in."
	aggPrefix   = "PlanExecutor error during aggregation :: caused by :: "
)

// The blocking stages hold at most 100 MB with allowDiskUse: false and fail
// with mongod's QueryExceededMemoryLimitNoDiskUseAllowed; with
// allowDiskUse: true, or absent (8.0's allowDiskUseByDefault), they
// succeed.
func TestBlockingStagesMemoryLimit(t *testing.T) {
	db := bigDocs(t, 101)
	byRandom := bson.D{{Key: "random", Value: 1}}
	tests := []struct {
		name     string
		pipeline bson.A
		code     int32
		codeName string
		msg      string
	}{
		// A leading $sort runs in the query layer, a later one in the pipeline.
		{"leading $sort", bson.A{bson.D{{Key: "$sort", Value: byRandom}}}, mongoerr.QueryExceededMemoryLimitNoDiskUseAllowed, "QueryExceededMemoryLimitNoDiskUseAllowed", sortNoDisk},
		{"$sort after $project", bson.A{bson.D{{Key: "$project", Value: bson.D{{Key: "bigStr", Value: 1}, {Key: "random", Value: 1}}}}, bson.D{{Key: "$sort", Value: byRandom}}}, mongoerr.QueryExceededMemoryLimitNoDiskUseAllowed, "QueryExceededMemoryLimitNoDiskUseAllowed", sortNoDisk},
		{"$sort with $limit keeps too much", bson.A{bson.D{{Key: "$project", Value: bson.D{{Key: "bigStr", Value: 1}, {Key: "random", Value: 1}}}}, bson.D{{Key: "$sort", Value: byRandom}}, bson.D{{Key: "$limit", Value: 101}}}, mongoerr.QueryExceededMemoryLimitNoDiskUseAllowed, "QueryExceededMemoryLimitNoDiskUseAllowed", sortNoDisk},
		// $max, not $first: a $group of $first on the _id index runs as
		// $groupByDistinctScan, which holds no groups.
		{"$group", bson.A{bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$_id"}, {Key: "s", Value: bson.D{{Key: "$max", Value: "$bigStr"}}}}}}}, mongoerr.QueryExceededMemoryLimitNoDiskUseAllowed, "QueryExceededMemoryLimitNoDiskUseAllowed", groupNoDisk},
		{"$bucket is a $group", bson.A{bson.D{{Key: "$bucket", Value: bson.D{{Key: "groupBy", Value: "$_id"}, {Key: "boundaries", Value: bson.A{0, 50, 200}}, {Key: "output", Value: bson.D{{Key: "s", Value: bson.D{{Key: "$last", Value: "$bigStr"}}}, {Key: "l", Value: bson.D{{Key: "$lastN", Value: bson.D{{Key: "input", Value: "$bigStr"}, {Key: "n", Value: 60}}}}}}}}}}}, mongoerr.QueryExceededMemoryLimitNoDiskUseAllowed, "QueryExceededMemoryLimitNoDiskUseAllowed", groupNoDisk},
		// The output reads bigStr, so the documents $bucketAuto sorts keep it
		// (the query under the pipeline returns only the fields it reads).
		{"$bucketAuto", bson.A{bson.D{{Key: "$bucketAuto", Value: bson.D{{Key: "groupBy", Value: "$random"}, {Key: "buckets", Value: 2}, {Key: "output", Value: bson.D{{Key: "s", Value: bson.D{{Key: "$first", Value: "$bigStr"}}}}}}}}}, mongoerr.QueryExceededMemoryLimitNoDiskUseAllowed, "QueryExceededMemoryLimitNoDiskUseAllowed", sortNoDisk},
		{"$setWindowFields", bson.A{bson.D{{Key: "$setWindowFields", Value: bson.D{{Key: "sortBy", Value: byRandom}, {Key: "output", Value: bson.D{{Key: "n", Value: bson.D{{Key: "$documentNumber", Value: bson.D{}}}}}}}}}}, mongoerr.QueryExceededMemoryLimitNoDiskUseAllowed, "QueryExceededMemoryLimitNoDiskUseAllowed", sortNoDisk},
		{"$setWindowFields without sort", bson.A{bson.D{{Key: "$setWindowFields", Value: bson.D{{Key: "output", Value: bson.D{{Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}}}}}}}, 5414201, "Location5414201", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ce := commandError(t, db, aggregateCmd(tc.pipeline, false))
			if tc.msg == "" {
				if ce.Code != tc.code || !strings.HasPrefix(ce.Message, aggPrefix+"Exceeded memory limit in DocumentSourceSetWindowFields, used ") || !strings.HasSuffix(ce.Message, " bytes but max allowed is 104857600") {
					t.Fatalf("error %d %q", ce.Code, ce.Message)
				}
			} else {
				wantCode(t, ce, tc.code, tc.codeName, aggPrefix+tc.msg)
			}
			// The stage's output can be far over 16 MiB a document ($bucket
			// with $lastN of 1 MB strings), which no reply may carry: the
			// successful runs return only the _ids.
			small := append(append(bson.A{}, tc.pipeline...), bson.D{{Key: "$project", Value: bson.D{{Key: "_id", Value: 1}}}})
			mustRun(t, db, aggregateCmd(small, true))
			mustRun(t, db, aggregateCmd(small))
		})
	}

	// find's blocking sort obeys the same rule.
	find := bson.D{{Key: "find", Value: "big"}, {Key: "sort", Value: byRandom}, {Key: "batchSize", Value: 1}, {Key: "allowDiskUse", Value: false}}
	wantCode(t, commandError(t, db, find), mongoerr.QueryExceededMemoryLimitNoDiskUseAllowed, "QueryExceededMemoryLimitNoDiskUseAllowed", "Executor error during find command :: caused by :: "+sortNoDisk)
	mustRun(t, db, find[:3])
	// A limit does not exempt it: the top-k sort holds the limit's worth of
	// documents, and 101 of 1 MB pass the limit (jstests/core/query/sort/sortb.js);
	// 90 fit.
	withLimit := func(n int) bson.D {
		return append(slices.Clone(find), bson.E{Key: "limit", Value: n})
	}
	wantCode(t, commandError(t, db, withLimit(101)), mongoerr.QueryExceededMemoryLimitNoDiskUseAllowed, "QueryExceededMemoryLimitNoDiskUseAllowed", "Executor error during find command :: caused by :: "+sortNoDisk)
	mustRun(t, db, withLimit(90))

	// jstests/core/query/sort/sortg.js: with an index on the filtered
	// field, the plan over it needs a SORT that runs out of memory, and
	// the _id index gives the sort. QueryPlanner::plan offers the _id
	// scan too, and MultiPlanStage drops the candidate that failed.
	if _, err := db.Collection("big").Indexes().CreateOne(context.Background(), mongo.IndexModel{Keys: bson.D{{Key: "random", Value: 1}}}); err != nil {
		t.Fatal(err)
	}
	bySortIndex := bson.D{{Key: "find", Value: "big"}, {Key: "filter", Value: bson.D{{Key: "random", Value: bson.D{{Key: "$gte", Value: 0}}}}},
		{Key: "sort", Value: bson.D{{Key: "_id", Value: 1}}}, {Key: "projection", Value: bson.D{{Key: "_id", Value: 1}}}, {Key: "allowDiskUse", Value: false}}
	mustRun(t, db, bySortIndex)
	wantCode(t, commandError(t, db, bson.D{{Key: "find", Value: "big"}, {Key: "filter", Value: bson.D{{Key: "random", Value: bson.D{{Key: "$gte", Value: 0}}}}},
		{Key: "sort", Value: bson.D{{Key: "next", Value: 1}}}, {Key: "batchSize", Value: 1}, {Key: "allowDiskUse", Value: false}}),
		mongoerr.QueryExceededMemoryLimitNoDiskUseAllowed, "QueryExceededMemoryLimitNoDiskUseAllowed", "Executor error during find command :: caused by :: "+sortNoDisk)

	// Under the limit nothing changes: 100 documents of 1 MB fit.
	mustRun(t, db, aggregateCmd(bson.A{bson.D{{Key: "$match", Value: bson.D{{Key: "_id", Value: bson.D{{Key: "$lt", Value: 95}}}}}}, bson.D{{Key: "$sort", Value: byRandom}}}, false))
}

// What mongod cannot spill: accumulators and stages that stop at 100 MB
// whatever allowDiskUse says.
func TestUnspillableMemoryLimits(t *testing.T) {
	db := bigDocs(t, 101)
	tests := []struct {
		name     string
		pipeline bson.A
		code     int32
		msg      string
	}{
		{"$push", bson.A{bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil}, {Key: "all", Value: bson.D{{Key: "$push", Value: "$bigStr"}}}}}}},
			146, "$push used too much memory and cannot spill to disk. Memory limit: 104857600 bytes"},
		{"$addToSet", bson.A{bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil}, {Key: "all", Value: bson.D{{Key: "$addToSet", Value: "$$ROOT"}}}}}}},
			146, "$addToSet used too much memory and cannot spill to disk. Memory limit: 104857600 bytes"},
		{"$firstN", bson.A{bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil}, {Key: "all", Value: bson.D{{Key: "$firstN", Value: bson.D{{Key: "input", Value: "$bigStr"}, {Key: "n", Value: 1000}}}}}}}}},
			146, "$firstN used too much memory and spilling to disk cannot reduce memory consumption any further. Memory limit: 104857600 bytes"},
		{"$push window", bson.A{bson.D{{Key: "$setWindowFields", Value: bson.D{{Key: "sortBy", Value: bson.D{{Key: "_id", Value: 1}}}, {Key: "output", Value: bson.D{{Key: "all", Value: bson.D{{Key: "$push", Value: "$bigStr"}}}}}}}}},
			146, "$push used too much memory and cannot spill to disk. Memory limit: 104857600 bytes"},
		{"$facet", bson.A{bson.D{{Key: "$facet", Value: bson.D{{Key: "all", Value: bson.A{}}}}}},
			4031700, "document constructed by $facet is 104864100 bytes, which exceeds the limit of 104857600 bytes"},
		{"$lookup", bson.A{bson.D{{Key: "$limit", Value: 1}}, bson.D{{Key: "$lookup", Value: bson.D{{Key: "from", Value: "big"}, {Key: "pipeline", Value: bson.A{}}, {Key: "as", Value: "all"}}}}},
			4568, "Total size of documents in big matching pipeline's $lookup stage exceeds 104857600 bytes"},
		{"$graphLookup", bson.A{bson.D{{Key: "$limit", Value: 1}}, bson.D{{Key: "$graphLookup", Value: bson.D{{Key: "from", Value: "big"}, {Key: "startWith", Value: "$_id"}, {Key: "connectFromField", Value: "next"}, {Key: "connectToField", Value: "_id"}, {Key: "as", Value: "chain"}}}}},
			40099, "$graphLookup reached maximum memory consumption"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, cmd := range []bson.D{aggregateCmd(tc.pipeline), aggregateCmd(tc.pipeline, true)} {
				ce := commandError(t, db, cmd)
				if ce.Code != tc.code || ce.Message != aggPrefix+tc.msg {
					t.Fatalf("error {%d %q}\nwant  {%d %q}", ce.Code, ce.Message, tc.code, aggPrefix+tc.msg)
				}
			}
		})
	}
}

// A running window ([unbounded, current]) gives each document the values
// so far; they share one array instead of a copy each, which would hold
// n²/2 values (20,000 documents: 200 million).
func TestRunningPushWindowStaysLinear(t *testing.T) {
	coll := startServer(t).Database("limits").Collection("w")
	const n = 20_000
	docs := make([]any, n)
	for i := range docs {
		docs[i] = bson.D{{Key: "_id", Value: int32(i)}}
	}
	if _, err := coll.InsertMany(context.Background(), docs); err != nil {
		t.Fatal(err)
	}
	cur, err := coll.Aggregate(context.Background(), bson.A{
		bson.D{{Key: "$setWindowFields", Value: bson.D{{Key: "sortBy", Value: bson.D{{Key: "_id", Value: 1}}},
			{Key: "output", Value: bson.D{{Key: "sofar", Value: bson.D{{Key: "$push", Value: "$_id"},
				{Key: "window", Value: bson.D{{Key: "documents", Value: bson.A{"unbounded", "current"}}}}}}}}}}},
		bson.D{{Key: "$project", Value: bson.D{{Key: "n", Value: bson.D{{Key: "$size", Value: "$sofar"}}}, {Key: "last", Value: bson.D{{Key: "$last", Value: "$sofar"}}}}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []struct {
		ID   int32 `bson:"_id"`
		N    int32 `bson:"n"`
		Last int32 `bson:"last"`
	}
	if err := cur.All(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	for i, d := range out {
		if d.ID != int32(i) || d.N != int32(i+1) || d.Last != int32(i) {
			t.Fatalf("document %d: %+v", i, d)
		}
	}
}
