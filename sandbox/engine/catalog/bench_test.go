package catalog

import (
	"fmt"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// BenchmarkInsert200k is the storage half of the insertMany figure:
// 200,000 small documents into a collection with only the _id index.
func BenchmarkInsert200k(b *testing.B) {
	docs := make([]bson.D, 200_000)
	for i := range docs {
		docs[i] = bson.D{{Key: "_id", Value: bson.NewObjectID()}, {Key: "courseId", Value: int32(i % 200)},
			{Key: "grade", Value: int32(50 + i%51)}, {Key: "student", Value: fmt.Sprintf("s%06d", i)}}
	}
	b.ResetTimer()
	for range b.N {
		c := New(nil)
		coll, err := c.CreateCollection("bench", "e", nil)
		if err != nil {
			b.Fatal(err)
		}
		for _, d := range docs {
			if _, err := coll.Insert(d); err != nil {
				b.Fatal(err)
			}
		}
	}
}
