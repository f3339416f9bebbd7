package engine_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// The figures of issue 3, through the official driver against the
// embedded server (targets in the table):
//
//	go test ./sandbox/engine -run '^$' -bench 'Agg' -benchtime 10x -count 3

var groupAvgByCourse = bson.A{bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$courseId"}, {Key: "avg", Value: bson.D{{Key: "$avg", Value: "$grade"}}}}}}}

func drainAggregate(b *testing.B, coll *mongo.Collection, pipeline bson.A, want int) {
	cur, err := coll.Aggregate(ctx, pipeline)
	if err != nil {
		b.Fatal(err)
	}
	var out []bson.Raw
	if err := cur.All(ctx, &out); err != nil {
		b.Fatal(err)
	}
	if len(out) != want {
		b.Fatalf("%d documents, want %d", len(out), want)
	}
}

// BenchmarkAggGroupAvg200k: target ≤ 60 ms (the seed's mongod took 127 ms).
func BenchmarkAggGroupAvg200k(b *testing.B) {
	coll := enrollmentsColl(b, startServer(b), 200_000)
	for b.Loop() {
		drainAggregate(b, coll, groupAvgByCourse, 200)
	}
}

// BenchmarkAggGroupAvg200kExplain is the same $group under
// explain(executionStats): its overhead over the plain query is ≤ 10 %.
func BenchmarkAggGroupAvg200kExplain(b *testing.B) {
	coll := enrollmentsColl(b, startServer(b), 200_000)
	cmd := bson.D{
		{Key: "explain", Value: bson.D{{Key: "aggregate", Value: "enrollments"}, {Key: "pipeline", Value: groupAvgByCourse}, {Key: "cursor", Value: bson.D{}}}},
		{Key: "verbosity", Value: "executionStats"}}
	for b.Loop() {
		if err := coll.Database().RunCommand(ctx, cmd).Err(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAggBucket200k: target ≤ 80 ms.
func BenchmarkAggBucket200k(b *testing.B) {
	coll := enrollmentsColl(b, startServer(b), 200_000)
	pipeline := ejArray(b, `[{"$bucket": {"groupBy": "$grade", "boundaries": [50, 60, 70, 80, 90, 101], "default": "other",
		"output": {"count": {"$sum": 1}, "avg": {"$avg": "$grade"}}}}]`)
	for b.Loop() {
		drainAggregate(b, coll, pipeline, 5)
	}
}

// BenchmarkAggGraphLookup10k walks a whole 10,000-node tree (parent
// references, ten children per node, index on parent) from its root:
// target ≤ 50 ms.
func BenchmarkAggGraphLookup10k(b *testing.B) {
	benchGraphLookup10k(b, "")
}

// BenchmarkAggGraphLookup10kRestricted is the same walk with a
// restrictSearchWithMatch that keeps every node, so each level's query runs
// as a sub-pipeline that can read the command's let.
func BenchmarkAggGraphLookup10kRestricted(b *testing.B) {
	benchGraphLookup10k(b, `, "restrictSearchWithMatch": {"$expr": {"$eq": ["$name", "$$which"]}}`)
}

func benchGraphLookup10k(b *testing.B, restrict string) {
	coll := startServer(b).Database("tree").Collection("nodes")
	const n = 10_000
	docs := make([]any, n)
	for i := range n {
		d := bson.D{{Key: "_id", Value: int32(i)}, {Key: "name", Value: "node"}}
		if i > 0 {
			d = append(d, bson.E{Key: "parent", Value: int32((i - 1) / 10)})
		}
		docs[i] = d
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		b.Fatal(err)
	}
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "parent", Value: 1}}}); err != nil {
		b.Fatal(err)
	}
	pipeline := ejArray(b, `[{"$match": {"_id": 0}},
		{"$graphLookup": {"from": "nodes", "startWith": "$_id", "connectFromField": "_id", "connectToField": "parent", "as": "sub", "depthField": "depth"`+restrict+`}},
		{"$project": {"n": {"$size": "$sub"}, "deepest": {"$max": "$sub.depth"}}}]`)
	opts := options.Aggregate().SetLet(bson.D{{Key: "which", Value: "node"}})
	for b.Loop() {
		cur, err := coll.Aggregate(ctx, pipeline, opts)
		if err != nil {
			b.Fatal(err)
		}
		var out []bson.D
		if err := cur.All(ctx, &out); err != nil {
			b.Fatal(err)
		}
		if len(out) != 1 || out[0][1].Value != int32(n-1) || out[0][2].Value != int64(3) {
			b.Fatalf("graphLookup returned %v", out)
		}
	}
}
