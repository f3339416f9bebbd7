package engine_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// Upserts that run at the same time can each insert, as on mongod ("Upsert
// with Duplicate Values"); a unique index on the
// filter's equality fields makes the server retry the losers as updates.
func TestConcurrentUpserts(t *testing.T) {
	client := startServer(t)
	ctx := context.Background()
	coll := client.Database("upserts").Collection("c")
	round := func(filter bson.D) (docs []bson.D, errs []error) {
		if _, err := coll.DeleteMany(ctx, bson.D{}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		for range 60 {
			wg.Go(func() {
				_, err := coll.UpdateOne(ctx, filter, bson.D{{Key: "$inc", Value: bson.D{{Key: "n", Value: 1}}}}, options.UpdateOne().SetUpsert(true))
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		return findAll(t, coll, bson.D{}), errs
	}
	sum := func(docs []bson.D) (n int32) {
		for _, d := range docs {
			for _, e := range d {
				if e.Key == "n" {
					n += e.Value.(int32)
				}
			}
		}
		return n
	}

	equality := bson.D{{Key: "k", Value: 1}}
	duplicated := 0
	for range 20 {
		docs, errs := round(equality)
		if len(errs) > 0 || sum(docs) != 60 {
			t.Fatalf("without a unique index: %d documents, %d upserts counted, errors %v", len(docs), sum(docs), errs)
		}
		if len(docs) > 1 {
			duplicated++
		}
	}
	if duplicated == 0 {
		t.Error("no round of 20 made a duplicate")
	}

	if _, err := coll.DeleteMany(ctx, bson.D{}); err != nil {
		t.Fatal(err)
	}
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "k", Value: 1}}, Options: options.Index().SetUnique(true)}); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		if docs, errs := round(equality); len(errs) > 0 || len(docs) != 1 || sum(docs) != 60 {
			t.Fatalf("with the unique index: %v, errors %v", docs, errs)
		}
	}
	// A filter that is more than the index's equalities is not retried:
	// the losers get the duplicate key error.
	for range 20 {
		docs, errs := round(bson.D{{Key: "k", Value: 1}, {Key: "n", Value: bson.D{{Key: "$lt", Value: 1000}}}})
		var we mongo.WriteException
		for _, err := range errs {
			if !errors.As(err, &we) || !we.HasErrorCode(11000) {
				t.Fatalf("not a duplicate key error: %v", err)
			}
		}
		if len(docs) != 1 || int(sum(docs))+len(errs) != 60 {
			t.Fatalf("capped filter: %v, %d errors", docs, len(errs))
		}
	}
}
