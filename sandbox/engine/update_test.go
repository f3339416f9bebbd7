package engine_test

import (
	"errors"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Seed 002's bucket upsert: the count < 60 guard lands samples in the open
// bucket and opens a new one once it is full.
func TestBucketUpsertOpensNewBucket(t *testing.T) {
	client := startServer(t)
	coll := client.Database("iot").Collection("readings_bucket")
	hour := bson.NewDateTimeFromTime(time.Date(2026, 9, 2, 8, 0, 0, 0, time.UTC))
	for m := range 61 {
		temp := 20 + float64(m)/10
		res, err := coll.UpdateOne(ctx,
			bson.D{{Key: "sensorId", Value: "s7"}, {Key: "hour", Value: hour}, {Key: "count", Value: bson.D{{Key: "$lt", Value: 60}}}},
			bson.D{
				{Key: "$push", Value: bson.D{{Key: "samples", Value: bson.D{{Key: "m", Value: m}, {Key: "t", Value: temp}}}}},
				{Key: "$inc", Value: bson.D{{Key: "count", Value: 1}, {Key: "sum", Value: temp}}},
				{Key: "$min", Value: bson.D{{Key: "min", Value: temp}}},
				{Key: "$max", Value: bson.D{{Key: "max", Value: temp}}},
			},
			options.UpdateOne().SetUpsert(true))
		if err != nil {
			t.Fatal(err)
		}
		wantUpsert := m == 0 || m == 60
		if (res.UpsertedCount == 1) != wantUpsert || (res.UpsertedID != nil) != wantUpsert {
			t.Fatalf("sample %d: %+v", m, res)
		}
	}
	var first bson.D
	if err := coll.FindOne(ctx, bson.D{}, options.FindOne().SetSort(bson.D{{Key: "_id", Value: 1}})).Decode(&first); err != nil {
		t.Fatal(err)
	}
	keys := []string{}
	for _, e := range first {
		keys = append(keys, e.Key)
	}
	// The equality fields of the filter seed the document in path order
	// (pathsupport::EqualityMatches is a std::map); the operators' fields
	// follow (mongod applies them in field-name order).
	if got := joinKeys(keys); got != "_id hour sensorId count max min samples sum" {
		t.Fatalf("bucket fields %s", got)
	}
	n, _ := coll.CountDocuments(ctx, bson.D{})
	if n != 2 {
		t.Fatalf("%d buckets, want 2", n)
	}
}

func joinKeys(k []string) string {
	s := ""
	for i, x := range k {
		if i > 0 {
			s += " "
		}
		s += x
	}
	return s
}

func TestNoOpUpdateIsNotModified(t *testing.T) {
	coll := seedColl(t, bson.D{{Key: "_id", Value: 1}, {Key: "a", Value: 1}})
	res, err := coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: 1}}, bson.D{{Key: "$set", Value: bson.D{{Key: "a", Value: 1}}}})
	if err != nil || res.MatchedCount != 1 || res.ModifiedCount != 0 {
		t.Fatalf("%v %+v", err, res)
	}
}

func TestChangingIDIsRefused(t *testing.T) {
	coll := seedColl(t, bson.D{{Key: "_id", Value: 1}, {Key: "a", Value: 1}})
	_, err := coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: 1}}, bson.D{{Key: "$set", Value: bson.D{{Key: "_id", Value: 2}}}})
	var we mongo.WriteException
	if !errors.As(err, &we) || we.WriteErrors[0].Code != mongoerr.ImmutableField ||
		we.WriteErrors[0].Message != "Performing an update on the path '_id' would modify the immutable field '_id'" {
		t.Fatalf("%v", err)
	}
}

func TestUpdateManyCountsAndArrayFilters(t *testing.T) {
	coll := seedColl(t,
		bson.D{{Key: "_id", Value: 1}, {Key: "grades", Value: bson.A{95, 92, 90}}},
		bson.D{{Key: "_id", Value: 2}, {Key: "grades", Value: bson.A{98, 100, 102}}},
		bson.D{{Key: "_id", Value: 3}, {Key: "grades", Value: bson.A{95, 110, 100}}},
	)
	res, err := coll.UpdateMany(ctx, bson.D{}, bson.D{{Key: "$set", Value: bson.D{{Key: "grades.$[element]", Value: 100}}}},
		options.UpdateMany().SetArrayFilters([]any{bson.D{{Key: "element", Value: bson.D{{Key: "$gte", Value: 100}}}}}))
	if err != nil || res.MatchedCount != 3 || res.ModifiedCount != 2 {
		t.Fatalf("%v %+v", err, res)
	}
	got := findAll(t, coll, bson.D{{Key: "_id", Value: 3}})
	assertDocs(t, got, []bson.D{{{Key: "_id", Value: int32(3)}, {Key: "grades", Value: bson.A{int32(95), int32(100), int32(100)}}}})
}
