package engine

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// $indexStats counts an index's uses since it was built, as mongod's
// statistics reset on an index's drop and re-creation: a collection
// dropped (alone or with its database) and made again, or an index
// dropped and built again, starts from zero.
func TestIndexStatsStartAgainForAnIndexBuiltAgain(t *testing.T) {
	e := New(Options{})
	ops := func() int64 {
		t.Helper()
		r := runCmd(t, e, bson.D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: bson.A{
			bson.D{{Key: "$indexStats", Value: bson.D{}}}, bson.D{{Key: "$match", Value: bson.D{{Key: "name", Value: "a_1"}}}}}},
			{Key: "cursor", Value: bson.D{}}})
		batch, _ := replyField(replyField(r, "cursor").(bson.D), "firstBatch").(bson.A)
		if len(batch) != 1 {
			t.Fatalf("$indexStats = %v", r)
		}
		n, _ := replyField(replyField(batch[0].(bson.D), "accesses").(bson.D), "ops").(int64)
		return n
	}
	build := func() {
		runCmd(t, e, bson.D{{Key: "insert", Value: "c"}, {Key: "documents", Value: bson.A{bson.D{{Key: "a", Value: int32(1)}}}}})
		runCmd(t, e, bson.D{{Key: "createIndexes", Value: "c"}, {Key: "indexes", Value: bson.A{
			bson.D{{Key: "key", Value: bson.D{{Key: "a", Value: int32(1)}}}, {Key: "name", Value: "a_1"}}}}})
	}
	find := func() {
		runCmd(t, e, bson.D{{Key: "find", Value: "c"}, {Key: "filter", Value: bson.D{{Key: "a", Value: int32(1)}}}})
	}

	build()
	find()
	find()
	if n := ops(); n != 2 {
		t.Fatalf("ops after two finds = %d, want 2", n)
	}
	runCmd(t, e, bson.D{{Key: "dropDatabase", Value: int32(1)}})
	build()
	find()
	if n := ops(); n != 1 {
		t.Errorf("ops after the database was dropped and made again, and one find = %d, want 1", n)
	}
	runCmd(t, e, bson.D{{Key: "dropIndexes", Value: "c"}, {Key: "index", Value: "a_1"}})
	build()
	if n := ops(); n != 0 {
		t.Errorf("ops of an index dropped and built again = %d, want 0", n)
	}
}
