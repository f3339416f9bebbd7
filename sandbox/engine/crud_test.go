package engine_test

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func errorsAs(err error, target any) bool { return errors.As(err, target) }

func assertDocs(t *testing.T, got, want []bson.D) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("documents differ\n got: %v\nwant: %v", got, want)
	}
}

var ctx = context.Background()

// The seed 001 bookstore: the documents the reviews framing inserts.
func bookstore(t *testing.T) *mongo.Database {
	client := startServer(t)
	db := client.Database("latihan_modeling")
	_, err := db.Collection("buku").InsertMany(ctx, []any{
		bson.D{{Key: "_id", Value: 101}, {Key: "judul", Value: "Bumi"}, {Key: "harga", Value: 89000}, {Key: "jumlahUlasan", Value: 2},
			{Key: "ulasan", Value: bson.A{bson.D{{Key: "pembaca", Value: "Budi"}, {Key: "bintang", Value: 4}}, bson.D{{Key: "pembaca", Value: "Siti"}, {Key: "bintang", Value: 5}}}}},
		bson.D{{Key: "_id", Value: 102}, {Key: "judul", Value: "Laut Bercerita"}, {Key: "harga", Value: 98000}, {Key: "jumlahUlasan", Value: 3},
			{Key: "ulasan", Value: bson.A{bson.D{{Key: "pembaca", Value: "Dewi"}, {Key: "bintang", Value: 5}}, bson.D{{Key: "pembaca", Value: "Rina"}, {Key: "bintang", Value: 4}}, bson.D{{Key: "pembaca", Value: "Agus"}, {Key: "bintang", Value: 4}}}}},
		bson.D{{Key: "_id", Value: 103}, {Key: "judul", Value: "Atomic Habits"}, {Key: "harga", Value: 115000}, {Key: "jumlahUlasan", Value: 250000}, {Key: "isOutlier", Value: true}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func TestSeed001FindWithProjection(t *testing.T) {
	db := bookstore(t)
	got := findAll(t, db.Collection("buku"), bson.D{}, options.Find().SetProjection(bson.D{{Key: "judul", Value: 1}, {Key: "jumlahUlasan", Value: 1}, {Key: "isOutlier", Value: 1}}))
	assertDocs(t, got, []bson.D{
		{{Key: "_id", Value: int32(101)}, {Key: "judul", Value: "Bumi"}, {Key: "jumlahUlasan", Value: int32(2)}},
		{{Key: "_id", Value: int32(102)}, {Key: "judul", Value: "Laut Bercerita"}, {Key: "jumlahUlasan", Value: int32(3)}},
		{{Key: "_id", Value: int32(103)}, {Key: "judul", Value: "Atomic Habits"}, {Key: "jumlahUlasan", Value: int32(250000)}, {Key: "isOutlier", Value: true}},
	})
}

func TestSeed001PushEachSliceAndCounter(t *testing.T) {
	db := bookstore(t)
	buku := db.Collection("buku")
	res, err := buku.UpdateOne(ctx, bson.D{{Key: "_id", Value: 101}}, bson.D{
		{Key: "$push", Value: bson.D{{Key: "ulasan", Value: bson.D{{Key: "$each", Value: bson.A{bson.D{{Key: "pembaca", Value: "Tono"}, {Key: "bintang", Value: 3}}}}, {Key: "$slice", Value: -5}}}}},
		{Key: "$inc", Value: bson.D{{Key: "jumlahUlasan", Value: 1}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.MatchedCount != 1 || res.ModifiedCount != 1 || res.UpsertedCount != 0 {
		t.Fatalf("update result %+v", res)
	}
	var doc bson.D
	if err := buku.FindOne(ctx, bson.D{{Key: "_id", Value: 101}}).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	want := bson.D{{Key: "_id", Value: int32(101)}, {Key: "judul", Value: "Bumi"}, {Key: "harga", Value: int32(89000)}, {Key: "jumlahUlasan", Value: int32(3)},
		{Key: "ulasan", Value: bson.A{
			bson.D{{Key: "pembaca", Value: "Budi"}, {Key: "bintang", Value: int32(4)}},
			bson.D{{Key: "pembaca", Value: "Siti"}, {Key: "bintang", Value: int32(5)}},
			bson.D{{Key: "pembaca", Value: "Tono"}, {Key: "bintang", Value: int32(3)}}}}}
	assertDocs(t, []bson.D{doc}, []bson.D{want})
}

func TestSeed001MigrationSetUnset(t *testing.T) {
	db := bookstore(t)
	buku := db.Collection("buku")
	res, err := buku.UpdateOne(ctx, bson.D{{Key: "_id", Value: 102}}, bson.D{{Key: "$set", Value: bson.D{{Key: "isOutlier", Value: true}}}, {Key: "$unset", Value: bson.D{{Key: "ulasan", Value: ""}}}})
	if err != nil || res.ModifiedCount != 1 {
		t.Fatalf("%v %+v", err, res)
	}
	got := findAll(t, buku, bson.D{{Key: "_id", Value: 102}}, options.Find().SetProjection(bson.D{{Key: "judul", Value: 1}, {Key: "jumlahUlasan", Value: 1}, {Key: "isOutlier", Value: 1}}))
	assertDocs(t, got, []bson.D{{{Key: "_id", Value: int32(102)}, {Key: "judul", Value: "Laut Bercerita"}, {Key: "jumlahUlasan", Value: int32(3)}, {Key: "isOutlier", Value: true}}})
}

func TestSortLimitAndExclusionProjection(t *testing.T) {
	client := startServer(t)
	ulasan := client.Database("t").Collection("ulasan")
	for i, w := range []string{"2026-12-05T08:00:00Z", "2026-12-05T09:30:00Z", "2026-12-06T07:15:00Z"} {
		tm, _ := parseTime(w)
		_, err := ulasan.InsertOne(ctx, bson.D{{Key: "bukuId", Value: 103}, {Key: "pembaca", Value: []string{"Budi", "Siti", "Dewi"}[i]}, {Key: "waktu", Value: tm}})
		if err != nil {
			t.Fatal(err)
		}
	}
	got := findAll(t, ulasan, bson.D{{Key: "bukuId", Value: 103}}, options.Find().SetProjection(bson.D{{Key: "pembaca", Value: 1}, {Key: "_id", Value: 0}}).SetSort(bson.D{{Key: "waktu", Value: -1}}).SetLimit(2))
	assertDocs(t, got, []bson.D{{{Key: "pembaca", Value: "Dewi"}}, {{Key: "pembaca", Value: "Siti"}}})
}

func TestInsertGeneratesIDFirst(t *testing.T) {
	client := startServer(t)
	coll := client.Database("t").Collection("c")
	// Raw command so the driver does not add _id itself.
	out := mustRun(t, client.Database("t"), bson.D{{Key: "insert", Value: "c"}, {Key: "documents", Value: bson.A{bson.D{{Key: "b", Value: 1}, {Key: "a", Value: 2}}}}})
	if len(out) != 2 || out[0].Value != int32(1) {
		t.Fatalf("insert reply %v", out)
	}
	var doc bson.D
	if err := coll.FindOne(ctx, bson.D{}).Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if len(doc) != 3 || doc[0].Key != "_id" || doc[1].Key != "b" || doc[2].Key != "a" {
		t.Fatalf("field order %v", doc)
	}
	if _, ok := doc[0].Value.(bson.ObjectID); !ok {
		t.Fatalf("_id is %T", doc[0].Value)
	}
	// An _id given later in the document moves to the front.
	mustRun(t, client.Database("t"), bson.D{{Key: "insert", Value: "d"}, {Key: "documents", Value: bson.A{bson.D{{Key: "x", Value: 1}, {Key: "_id", Value: "k"}}}}})
	var d2 bson.D
	if err := client.Database("t").Collection("d").FindOne(ctx, bson.D{}).Decode(&d2); err != nil {
		t.Fatal(err)
	}
	assertDocs(t, []bson.D{d2}, []bson.D{{{Key: "_id", Value: "k"}, {Key: "x", Value: int32(1)}}})
}

func TestDuplicateKeyError(t *testing.T) {
	client := startServer(t)
	db := client.Database("shop")
	coll := db.Collection("users")
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "email", Value: 1}}, Options: options.Index().SetUnique(true)}); err != nil {
		t.Fatal(err)
	}
	if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: 1}, {Key: "email", Value: "a@x"}}); err != nil {
		t.Fatal(err)
	}
	_, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: 2}, {Key: "email", Value: "a@x"}})
	var we mongo.WriteException
	if !errors.As(err, &we) || len(we.WriteErrors) != 1 {
		t.Fatalf("expected a write exception, got %v", err)
	}
	e := we.WriteErrors[0]
	want := `E11000 duplicate key error collection: shop.users index: email_1 dup key: { email: "a@x" }`
	if e.Code != mongoerr.DuplicateKey || e.Message != want || e.Index != 0 {
		t.Fatalf("got code %d index %d message %q", e.Code, e.Index, e.Message)
	}
	// _id duplicates too, reported at the failing document's index.
	_, err = coll.InsertMany(ctx, []any{bson.D{{Key: "_id", Value: 3}}, bson.D{{Key: "_id", Value: 1}}, bson.D{{Key: "_id", Value: 4}}})
	var bwe mongo.BulkWriteException
	if !errors.As(err, &bwe) || len(bwe.WriteErrors) != 1 || bwe.WriteErrors[0].Index != 1 {
		t.Fatalf("ordered insertMany: %v", err)
	}
	if !strings.Contains(bwe.WriteErrors[0].Message, "index: _id_ dup key: { _id: 1 }") {
		t.Fatalf("message %q", bwe.WriteErrors[0].Message)
	}
	n, _ := coll.CountDocuments(ctx, bson.D{})
	if n != 2 { // 1 and 3; ordered insert stops at the failure
		t.Fatalf("count after ordered failure = %d", n)
	}
}

func TestDocumentTooLarge(t *testing.T) {
	client := startServer(t)
	coll := client.Database("t").Collection("big")
	big := strings.Repeat("x", 17*1024*1024)
	_, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: 1}, {Key: "s", Value: big}})
	var ce mongo.CommandError
	if !errors.As(err, &ce) || ce.Code != mongoerr.BSONObjectTooLarge || ce.Name != "BSONObjectTooLarge" {
		t.Fatalf("17 MiB insert: %T %v", err, err)
	}
	// Just over 16 MiB but inside the message slack: a write error.
	_, err = coll.InsertOne(ctx, bson.D{{Key: "_id", Value: 2}, {Key: "s", Value: strings.Repeat("x", 16*1024*1024)}})
	var we mongo.WriteException
	if !errors.As(err, &we) || we.WriteErrors[0].Code != mongoerr.BadValue || !strings.HasPrefix(we.WriteErrors[0].Message, "object to insert too large. size in bytes: 16777238, max size: 16777216") {
		t.Fatalf("16 MiB+ insert: %v", err)
	}
	// Growing a document past the limit with an update.
	if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: 3}, {Key: "s", Value: strings.Repeat("x", 16*1024*1024-100)}}); err != nil {
		t.Fatal(err)
	}
	_, err = coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: 3}}, bson.D{{Key: "$set", Value: bson.D{{Key: "more", Value: strings.Repeat("y", 200)}}}})
	if !errors.As(err, &we) || we.WriteErrors[0].Code != 8375908 || we.WriteErrors[0].Message != "Resulting document after update is larger than 16777216" {
		t.Fatalf("update past the limit: %v", err)
	}
}

func TestUnknownCommand(t *testing.T) {
	client := startServer(t)
	ce := commandError(t, client.Database("t"), bson.D{{Key: "frobnicate", Value: 1}})
	if ce.Code != mongoerr.CommandNotFound || ce.Name != "CommandNotFound" || ce.Message != "no such command: 'frobnicate'" {
		t.Fatalf("%+v", ce)
	}
}
