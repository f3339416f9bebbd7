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
