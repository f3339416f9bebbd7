package update

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// BenchmarkBucketPush is the seed-002 write path: one $push plus the rolled
// up counters on a bucket that already holds 59 samples.
func BenchmarkBucketPush(b *testing.B) {
	samples := make(bson.A, 59)
	for i := range samples {
		samples[i] = bson.D{{Key: "m", Value: int32(i)}, {Key: "t", Value: 20.5}}
	}
	doc := bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "sensorId", Value: "s7"},
		{Key: "hour", Value: bson.DateTime(0)}, {Key: "count", Value: int32(59)}, {Key: "max", Value: 25.0},
		{Key: "min", Value: 18.0}, {Key: "samples", Value: samples}, {Key: "sum", Value: 1200.0}}
	u, err := Compile(js(b, `{"$push": {"samples": {"m": 17, "t": 21.4}}, "$inc": {"count": 1, "sum": 21.4}, "$min": {"min": 21.4}, "$max": {"max": 21.4}}`), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := u.Apply(doc, -1, false); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSetField(b *testing.B) {
	doc := js(b, `{"_id": 1, "courseId": 7, "grade": 80, "student": "s1"}`)
	u, err := Compile(js(b, `{"$set": {"grade": 90}}`), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := u.Apply(doc, -1, false); err != nil {
			b.Fatal(err)
		}
	}
}
