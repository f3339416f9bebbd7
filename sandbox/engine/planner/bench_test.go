package planner

import (
	"fmt"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
)

// BenchmarkIndexedEquality is issue 2's "find by indexed equality on 200k
// documents" figure at the planner level (plan + execute + drain).
func BenchmarkIndexedEquality(b *testing.B) {
	cat := newCatalog()
	c, _ := cat.CreateCollection("db", "enrollments", nil)
	mustIndex(b, c, bson.D{{Key: "student", Value: int32(1)}})
	for i := range 200000 {
		c.Insert(bson.D{{Key: "_id", Value: int32(i)}, {Key: "courseId", Value: int32(i % 200)}, {Key: "grade", Value: int32(i % 100)}, {Key: "student", Value: fmt.Sprintf("st%06d", i)}})
	}
	b.ResetTimer()
	for i := range b.N {
		f := mustCompile(b, bson.D{{Key: "student", Value: fmt.Sprintf("st%06d", i%200000)}})
		benchRun(b, c, Query{Filter: f}, 1)
	}
}

// BenchmarkIndexedRange720 is "indexed range find returning 720 of
// 144,000 documents".
func BenchmarkIndexedRange720(b *testing.B) {
	flat, _ := seedReadings(b)
	f := mustCompile(b, windowFilter("at"))
	b.ResetTimer()
	for range b.N {
		benchRun(b, flat, Query{Filter: f}, 720)
	}
}

func benchRun(b *testing.B, c *catalog.Collection, q Query, want int) {
	e, err := Plan(c, c.NS(), q)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for {
		_, ok, err := e.Next()
		if err != nil {
			b.Fatal(err)
		}
		if !ok {
			break
		}
		n++
	}
	if n != want {
		b.Fatalf("got %d, want %d", n, want)
	}
}
