package planner

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
)

// A scan over the _id index resumes after each buffered batch; unique
// indexes order entries by key alone, so the resume must not return the
// last entry of the previous batch again.
func TestUniqueIndexScanResumesWithoutDuplicates(t *testing.T) {
	cat := catalog.New(nil)
	coll, err := cat.CreateCollection("db", "c", nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 1000
	for i := range n {
		if _, err := coll.Insert(bson.D{{Key: "_id", Value: int32(i)}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []int32{1, -1} {
		exec, err := Plan(coll, "db.c", Query{Sort: bson.D{{Key: "_id", Value: dir}}})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int32]bool{}
		for {
			r, ok, err := exec.Next()
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				break
			}
			id := r.Doc[0].Value.(int32)
			if seen[id] {
				t.Fatalf("direction %d: _id %d returned twice", dir, id)
			}
			seen[id] = true
		}
		if len(seen) != n {
			t.Fatalf("direction %d: %d documents, want %d", dir, len(seen), n)
		}
	}
}
