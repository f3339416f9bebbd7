package aggregate

import (
	"fmt"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// enrollmentDocs builds n {courseId, grade, student} documents like the
// computed pattern's seed.
func enrollmentDocs(n int) []bson.D {
	out := make([]bson.D, n)
	for i := range n {
		out[i] = bson.D{
			{Key: "_id", Value: bson.NewObjectID()},
			{Key: "courseId", Value: fmt.Sprintf("C%03d", i%50)},
			{Key: "grade", Value: int32((i * 37) % 101)},
			{Key: "student", Value: fmt.Sprintf("S%06d", i)},
		}
	}
	return out
}

func benchPipeline(b *testing.B, pipeline bson.A, wantN int) {
	input := enrollmentDocs(200_000)
	db := newFakeDB()
	b.ResetTimer()
	for b.Loop() {
		p, err := Parse(pipeline, db.context())
		if err != nil {
			b.Fatal(err)
		}
		it, err := p.Run(NewSliceIterator(input))
		if err != nil {
			b.Fatal(err)
		}
		out, err := Drain(it)
		if err != nil {
			b.Fatal(err)
		}
		if len(out) != wantN {
			b.Fatalf("got %d groups", len(out))
		}
	}
}

func BenchmarkGroupAvg200k(b *testing.B) {
	benchPipeline(b, bson.A{bson.D{{Key: "$group", Value: bson.D{
		{Key: "_id", Value: "$courseId"},
		{Key: "avgGrade", Value: bson.D{{Key: "$avg", Value: "$grade"}}},
	}}}}, 50)
}

func BenchmarkBucket200k(b *testing.B) {
	benchPipeline(b, bson.A{bson.D{{Key: "$bucket", Value: bson.D{
		{Key: "groupBy", Value: "$grade"},
		{Key: "boundaries", Value: bson.A{int32(0), int32(60), int32(70), int32(80), int32(90)}},
		{Key: "default", Value: "A"},
		{Key: "output", Value: bson.D{{Key: "count", Value: bson.D{{Key: "$sum", Value: int32(1)}}}, {Key: "avg", Value: bson.D{{Key: "$avg", Value: "$grade"}}}}},
	}}}}, 5)
}

// BenchmarkGroupSort1M is the large-input case: 1,000,000 documents, a
// $group into a few groups, and a full $sort of every document.
func BenchmarkGroupSort1M(b *testing.B) {
	input := enrollmentDocs(1_000_000)
	pipeline := bson.A{
		bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: bson.D{{Key: "$mod", Value: bson.A{"$grade", int32(7)}}}}, {Key: "students", Value: bson.D{{Key: "$sum", Value: int32(1)}}}}}},
		bson.D{{Key: "$sort", Value: bson.D{{Key: "students", Value: int32(-1)}}}},
	}
	db := newFakeDB()
	for b.Loop() {
		p, err := Parse(pipeline, db.context())
		if err != nil {
			b.Fatal(err)
		}
		it, _ := p.Run(NewSliceIterator(input))
		if _, err := Drain(it); err != nil {
			b.Fatal(err)
		}
		p, _ = Parse(bson.A{bson.D{{Key: "$sort", Value: bson.D{{Key: "student", Value: int32(-1)}}}}}, db.context())
		it, _ = p.Run(NewSliceIterator(input))
		out, err := Drain(it)
		if err != nil || len(out) != len(input) {
			b.Fatal(err, len(out))
		}
	}
}

// BenchmarkProject200k is an inclusion $project with a computed field over
// 200,000 documents.
func BenchmarkProject200k(b *testing.B) {
	benchPipeline(b, bson.A{bson.D{{Key: "$project", Value: bson.D{
		{Key: "courseId", Value: int32(1)},
		{Key: "grade", Value: int32(1)},
		{Key: "pct", Value: bson.D{{Key: "$divide", Value: bson.A{"$grade", int32(100)}}}},
	}}}}, 200_000)
}

// BenchmarkAddFieldsUnset200k is a $set and an $unset over 200,000
// documents.
func BenchmarkAddFieldsUnset200k(b *testing.B) {
	benchPipeline(b, bson.A{
		bson.D{{Key: "$set", Value: bson.D{{Key: "passed", Value: bson.D{{Key: "$gte", Value: bson.A{"$grade", int32(60)}}}}}}},
		bson.D{{Key: "$unset", Value: "student"}},
	}, 200_000)
}
