package engine_test

import (
	"reflect"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func TestCreateIndexesNamesAndIdempotence(t *testing.T) {
	client := startServer(t)
	db := client.Database("idx")
	coll := db.Collection("c")
	name, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "field", Value: 1}, {Key: "other", Value: -1}}})
	if err != nil || name != "field_1_other_-1" {
		t.Fatalf("%q %v", name, err)
	}
	// The same spec again is a no-op that reports the unchanged count.
	out := mustRun(t, db, bson.D{{Key: "createIndexes", Value: "c"}, {Key: "indexes", Value: bson.A{
		bson.D{{Key: "key", Value: bson.D{{Key: "field", Value: 1}, {Key: "other", Value: -1}}}, {Key: "name", Value: "field_1_other_-1"}}}}})
	want := bson.D{{Key: "numIndexesBefore", Value: int32(2)}, {Key: "numIndexesAfter", Value: int32(2)},
		{Key: "note", Value: "all indexes already exist"}, {Key: "ok", Value: 1.0}}
	if !reflect.DeepEqual(out, want) {
		t.Fatalf("idempotent createIndexes reply %v", out)
	}
	// Same name, different key.
	ce := commandError(t, db, bson.D{{Key: "createIndexes", Value: "c"}, {Key: "indexes", Value: bson.A{
		bson.D{{Key: "key", Value: bson.D{{Key: "x", Value: 1}}}, {Key: "name", Value: "field_1_other_-1"}}}}})
	if ce.Code != mongoerr.IndexKeySpecsConflict || ce.Name != "IndexKeySpecsConflict" {
		t.Fatalf("%+v", ce)
	}
	// Same name and key, different options that change the index
	// (unique): mongod calls that a key-spec conflict as well.
	ce = commandError(t, db, bson.D{{Key: "createIndexes", Value: "c"}, {Key: "indexes", Value: bson.A{
		bson.D{{Key: "key", Value: bson.D{{Key: "field", Value: 1}, {Key: "other", Value: -1}}}, {Key: "name", Value: "field_1_other_-1"}, {Key: "unique", Value: true}}}}})
	if ce.Code != mongoerr.IndexKeySpecsConflict || ce.Name != "IndexKeySpecsConflict" {
		t.Fatalf("%+v", ce)
	}
	// The same key under another name.
	ce = commandError(t, db, bson.D{{Key: "createIndexes", Value: "c"}, {Key: "indexes", Value: bson.A{
		bson.D{{Key: "key", Value: bson.D{{Key: "field", Value: 1}, {Key: "other", Value: -1}}}, {Key: "name", Value: "again"}}}}})
	if ce.Code != mongoerr.IndexOptionsConflict || ce.Name != "IndexOptionsConflict" {
		t.Fatalf("%+v", ce)
	}
	cur, err := coll.Indexes().List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var specs []bson.D
	if err := cur.All(ctx, &specs); err != nil {
		t.Fatal(err)
	}
	assertDocs(t, specs, []bson.D{
		{{Key: "v", Value: int32(2)}, {Key: "key", Value: bson.D{{Key: "_id", Value: int32(1)}}}, {Key: "name", Value: "_id_"}},
		{{Key: "v", Value: int32(2)}, {Key: "key", Value: bson.D{{Key: "field", Value: int32(1)}, {Key: "other", Value: int32(-1)}}}, {Key: "name", Value: "field_1_other_-1"}},
	})
}

func TestCompoundMultikeyParallelArrays(t *testing.T) {
	client := startServer(t)
	coll := client.Database("idx").Collection("p")
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "a", Value: 1}, {Key: "b", Value: 1}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := coll.InsertOne(ctx, bson.D{{Key: "a", Value: bson.A{1, 2}}, {Key: "b", Value: 1}}); err != nil {
		t.Fatal(err)
	}
	_, err := coll.InsertOne(ctx, bson.D{{Key: "a", Value: bson.A{1, 2}}, {Key: "b", Value: bson.A{1, 2}}})
	var we mongo.WriteException
	if !errorsAs(err, &we) || we.WriteErrors[0].Code != mongoerr.CannotIndexParallelArrays {
		t.Fatalf("parallel arrays: %v", err)
	}
}

func TestUniqueSparseAndPartial(t *testing.T) {
	client := startServer(t)
	coll := client.Database("idx").Collection("u")
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "email", Value: 1}}, Options: options.Index().SetUnique(true).SetSparse(true)}); err != nil {
		t.Fatal(err)
	}
	// Sparse: documents without the field do not collide.
	if _, err := coll.InsertMany(ctx, []any{bson.D{{Key: "_id", Value: 1}}, bson.D{{Key: "_id", Value: 2}}}); err != nil {
		t.Fatal(err)
	}
	pc := client.Database("idx").Collection("partial")
	if _, err := pc.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "sku", Value: 1}}, Options: options.Index().SetUnique(true).
		SetPartialFilterExpression(bson.D{{Key: "active", Value: true}})}); err != nil {
		t.Fatal(err)
	}
	if _, err := pc.InsertMany(ctx, []any{bson.D{{Key: "sku", Value: "a"}, {Key: "active", Value: false}}, bson.D{{Key: "sku", Value: "a"}, {Key: "active", Value: true}}}); err != nil {
		t.Fatal(err)
	}
	_, err := pc.InsertOne(ctx, bson.D{{Key: "sku", Value: "a"}, {Key: "active", Value: true}})
	var we mongo.WriteException
	if !errorsAs(err, &we) || we.WriteErrors[0].Code != mongoerr.DuplicateKey {
		t.Fatalf("partial unique: %v", err)
	}
}

// An update rewrites only the index entries whose keys change, and the
// entries it keeps still hold the document's own values: a covered read
// after 1 became 1.0 returns the double, as mongod's would.
func TestUpdateRewritesOnlyChangedIndexEntries(t *testing.T) {
	client := startServer(t)
	coll := client.Database("ix").Collection("c")
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "a", Value: 1}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := coll.InsertMany(ctx, []any{bson.D{{Key: "_id", Value: 1}, {Key: "a", Value: bson.A{1, 2, 3}}},
		bson.D{{Key: "_id", Value: 2}, {Key: "a", Value: int32(7)}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: 1}}, bson.D{{Key: "$set", Value: bson.D{{Key: "a", Value: bson.A{2, 3, 4}}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: 2}}, bson.D{{Key: "$set", Value: bson.D{{Key: "a", Value: 7.0}}}}); err != nil {
		t.Fatal(err)
	}
	for v, want := range map[int]int64{1: 0, 2: 1, 3: 1, 4: 1, 7: 1} {
		n, err := coll.CountDocuments(ctx, bson.D{{Key: "a", Value: v}}, options.Count().SetHint("a_1"))
		if err != nil || n != want {
			t.Errorf("count a: %d = %d (%v), want %d", v, n, err, want)
		}
	}
	var got bson.D
	err := coll.FindOne(ctx, bson.D{{Key: "a", Value: 7}}, options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 0}, {Key: "a", Value: 1}}).SetHint("a_1")).Decode(&got)
	if err != nil || len(got) != 1 || got[0].Value != 7.0 {
		t.Fatalf("covered read of the updated key: %v %v, want {a: 7.0}", got, err)
	}
	// A document key compares equal with 1 or 1.0 inside, yet the entry
	// must hold the new bytes (on an index that is not multikey, so that
	// the read is covered).
	coll = client.Database("ix").Collection("d")
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "a", Value: 1}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: 2}, {Key: "a", Value: bson.D{{Key: "x", Value: int32(1)}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: 2}}, bson.D{{Key: "$set", Value: bson.D{{Key: "a", Value: bson.D{{Key: "x", Value: 1.0}}}}}}); err != nil {
		t.Fatal(err)
	}
	got = nil
	err = coll.FindOne(ctx, bson.D{{Key: "a", Value: bson.D{{Key: "x", Value: 1}}}}, options.FindOne().SetProjection(bson.D{{Key: "_id", Value: 0}, {Key: "a", Value: 1}}).SetHint("a_1")).Decode(&got)
	if inner, ok := got[0].Value.(bson.D); err != nil || len(got) != 1 || !ok || inner[0].Value != 1.0 {
		t.Fatalf("covered read of an updated document key: %v %v, want {a: {x: 1.0}}", got, err)
	}
}
