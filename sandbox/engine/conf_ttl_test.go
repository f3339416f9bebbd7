package engine_test

import (
	"context"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/engine"
)

// A TTL index expires documents on the TTL monitor's pass (mongod's
// TTLMonitor, src/mongo/db/ttl/ttl.cpp; the manual's TTL Indexes page,
// https://www.mongodb.com/docs/manual/core/index-ttl/): those whose
// indexed date, or the earliest date of an array, is more than
// expireAfterSeconds in the past; a field holding no date never expires,
// and a partial TTL index expires only the documents it holds.
func TestConfTTLExpiry(t *testing.T) {
	client, _ := startServerWith(t, engine.Options{TTLMonitorPeriod: 200 * time.Millisecond})
	db := client.Database("conf")
	ctx := context.Background()
	past := bson.NewDateTimeFromTime(time.Now().Add(-time.Hour))
	future := bson.NewDateTimeFromTime(time.Now().Add(time.Hour))
	docs := []any{
		bson.D{{Key: "_id", Value: 1}, {Key: "at", Value: past}},
		bson.D{{Key: "_id", Value: 2}, {Key: "at", Value: future}},
		bson.D{{Key: "_id", Value: 3}, {Key: "at", Value: "yesterday"}},
		bson.D{{Key: "_id", Value: 4}},
		bson.D{{Key: "_id", Value: 5}, {Key: "at", Value: bson.A{future, past}}},
		bson.D{{Key: "_id", Value: 6}, {Key: "at", Value: past}, {Key: "keep", Value: true}},
	}
	if _, err := db.Collection("c").InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Collection("p").InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []bson.D{
		{{Key: "createIndexes", Value: "c"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "at", Value: 1}}}, {Key: "name", Value: "at_1"}, {Key: "expireAfterSeconds", Value: 60}}}}},
		{{Key: "createIndexes", Value: "p"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "at", Value: -1}}}, {Key: "name", Value: "at_-1"}, {Key: "expireAfterSeconds", Value: 60},
			{Key: "partialFilterExpression", Value: bson.D{{Key: "keep", Value: bson.D{{Key: "$exists", Value: false}}}}}}}}},
	} {
		if err := db.RunCommand(ctx, cmd).Err(); err != nil {
			t.Fatal(err)
		}
	}
	ids := func(coll string) []int32 {
		cur, err := db.Collection(coll).Find(ctx, bson.D{})
		if err != nil {
			t.Fatal(err)
		}
		var got []struct {
			ID int32 `bson:"_id"`
		}
		if err := cur.All(ctx, &got); err != nil {
			t.Fatal(err)
		}
		out := make([]int32, len(got))
		for i, g := range got {
			out[i] = g.ID
		}
		return out
	}
	if got := ids("c"); len(got) != 6 {
		t.Fatalf("before a pass: %v", got)
	}
	time.Sleep(300 * time.Millisecond)
	// The pass is due; the next command finds it done.
	if got, want := ids("c"), []int32{2, 3, 4}; !equalIDs(got, want) {
		t.Errorf("after a pass: %v, want %v", got, want)
	}
	if got, want := ids("p"), []int32{2, 3, 4, 6}; !equalIDs(got, want) {
		t.Errorf("partial TTL index after a pass: %v, want %v", got, want)
	}
}

func equalIDs(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A clustered collection's expireAfterSeconds expires its documents
// through their _id: those whose _id is a date more than that many
// seconds in the past (ttl.cpp's clustered collection scan; "On general
// purpose collections, TTL operates on type 'Date'"), and no other
// (jstests/core/clustered/clustered_collection_ttl.js; manual:
// core/clustered-collections).
func TestConfClusteredTTL(t *testing.T) {
	client, _ := startServerWith(t, engine.Options{TTLMonitorPeriod: 200 * time.Millisecond})
	db := client.Database("conf")
	ctx := context.Background()
	create := bson.D{{Key: "create", Value: "c"}, {Key: "clusteredIndex", Value: bson.D{{Key: "key", Value: bson.D{{Key: "_id", Value: 1}}}, {Key: "unique", Value: true}}},
		{Key: "expireAfterSeconds", Value: 60}}
	if err := db.RunCommand(ctx, create).Err(); err != nil {
		t.Fatal(err)
	}
	past := bson.NewDateTimeFromTime(time.Now().Add(-time.Hour))
	future := bson.NewDateTimeFromTime(time.Now().Add(time.Hour))
	docs := []any{
		bson.D{{Key: "_id", Value: past}, {Key: "n", Value: 1}},
		bson.D{{Key: "_id", Value: future}, {Key: "n", Value: 2}},
		bson.D{{Key: "_id", Value: "yesterday"}, {Key: "n", Value: 3}},
		bson.D{{Key: "_id", Value: 4}, {Key: "n", Value: 4}},
	}
	if _, err := db.Collection("c").InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if ns, want := sortedInts(t, db.Collection("c"), "n"), []int32{2, 3, 4}; !equalIDs(ns, want) {
		t.Errorf("after a pass: %v, want %v", ns, want)
	}
}

// A time-series collection's expireAfterSeconds expires whole buckets:
// a bucket's _id holds its minimum time and it may hold measurements up to
// its span later, so it goes once its minimum time is more than
// expireAfterSeconds plus the bucket span in the past (ttl.cpp's
// safeExpirationDate; manual: core/timeseries/timeseries-automatic-removal,
// "MongoDB deletes a bucket after all of its documents have expired").
// collMod sets the TTL of a collection created without one.
func TestConfTimeseriesTTL(t *testing.T) {
	client, _ := startServerWith(t, engine.Options{TTLMonitorPeriod: 200 * time.Millisecond})
	db := client.Database("conf")
	ctx := context.Background()
	create := bson.D{{Key: "create", Value: "ts"}, {Key: "timeseries", Value: bson.D{{Key: "timeField", Value: "t"}, {Key: "metaField", Value: "m"}}}}
	if err := db.RunCommand(ctx, create).Err(); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	at := func(ago time.Duration) bson.DateTime { return bson.NewDateTimeFromTime(now.Add(-ago)) }
	docs := []any{
		// Span 3600 s: expired once older than 60 s + one hour.
		bson.D{{Key: "t", Value: at(3 * time.Hour)}, {Key: "m", Value: 1}},
		bson.D{{Key: "t", Value: at(3 * time.Hour)}, {Key: "m", Value: 2}},
		// Past its TTL, but its bucket may still be filling.
		bson.D{{Key: "t", Value: at(30 * time.Minute)}, {Key: "m", Value: 3}},
		bson.D{{Key: "t", Value: at(0)}, {Key: "m", Value: 4}},
	}
	if _, err := db.Collection("ts").InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	metas := func() []int32 { return sortedInts(t, db.Collection("ts"), "m") }
	time.Sleep(300 * time.Millisecond)
	if got, want := metas(), []int32{1, 2, 3, 4}; !equalIDs(got, want) {
		t.Fatalf("without a TTL: %v, want %v", got, want)
	}
	if err := db.RunCommand(ctx, bson.D{{Key: "collMod", Value: "ts"}, {Key: "expireAfterSeconds", Value: 60}}).Err(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if got, want := metas(), []int32{3, 4}; !equalIDs(got, want) {
		t.Errorf("after a pass: %v, want %v", got, want)
	}
	// The bucket catalog opens a new bucket for a meta whose bucket expired.
	if _, err := db.Collection("ts").InsertOne(ctx, bson.D{{Key: "t", Value: at(0)}, {Key: "m", Value: 1}}); err != nil {
		t.Fatal(err)
	}
	if got, want := metas(), []int32{1, 3, 4}; !equalIDs(got, want) {
		t.Errorf("after an insert: %v, want %v", got, want)
	}
}

// sortedInts lists field's int values over the documents of coll, sorted
// by it.
func sortedInts(t *testing.T, coll *mongo.Collection, field string) []int32 {
	t.Helper()
	cur, err := coll.Find(context.Background(), bson.D{}, options.Find().SetSort(bson.D{{Key: field, Value: 1}}))
	if err != nil {
		t.Fatal(err)
	}
	var got []bson.M
	if err := cur.All(context.Background(), &got); err != nil {
		t.Fatal(err)
	}
	out := make([]int32, len(got))
	for i, g := range got {
		out[i], _ = g[field].(int32)
	}
	return out
}
