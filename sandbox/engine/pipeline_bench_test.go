package engine_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// The projection stages through the official driver against the embedded
// server: an update pipeline runs the aggregate package's stages, and
// $project runs over every stored document.
//
//	go test ./sandbox/engine -run '^$' -bench 'PipelineUpdate|AggProject' -benchtime 10x -count 3

// BenchmarkPipelineUpdateMany20k is an updateMany whose pipeline uses each
// stage family an update allows; every run modifies every document.
func BenchmarkPipelineUpdateMany20k(b *testing.B) {
	coll := enrollmentsColl(b, startServer(b), 20_000)
	pipeline := ejArray(b, `[{"$set": {"n": {"$add": [{"$ifNull": ["$n", 0]}, 1]}, "pct": {"$divide": ["$grade", 100]}}},
		{"$unset": "tmp"}, {"$project": {"courseId": 1, "grade": 1, "n": 1, "pct": 1}},
		{"$replaceWith": {"$mergeObjects": ["$$ROOT", {"seen": true}]}}]`)
	for b.Loop() {
		res, err := coll.UpdateMany(ctx, bson.D{}, pipeline)
		if err != nil {
			b.Fatal(err)
		}
		if res.ModifiedCount != 20_000 {
			b.Fatalf("modified %d", res.ModifiedCount)
		}
	}
}

// BenchmarkAggProject200k is an inclusion $project with a computed field
// over 200,000 documents.
func BenchmarkAggProject200k(b *testing.B) {
	coll := enrollmentsColl(b, startServer(b), 200_000)
	pipeline := ejArray(b, `[{"$project": {"courseId": 1, "pct": {"$divide": ["$grade", 100]}}}]`)
	for b.Loop() {
		drainAggregate(b, coll, pipeline, 200_000)
	}
}
