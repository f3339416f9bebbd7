package engine_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/wire"
)

// Many clients, each with its own connection pool, insert, update, read
// and page through cursors at once; run under -race this checks that the
// server shares documents between readers and writers safely.
func TestConfConcurrentClients(t *testing.T) {
	srvCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := wire.Start(srvCtx, wire.Options{Engine: engine.New(engine.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	const clients, perClient = 8, 60
	setup, err := mongo.Connect(options.Client().ApplyURI(srv.URI()))
	if err != nil {
		t.Fatal(err)
	}
	defer setup.Disconnect(ctx)
	coll := setup.Database("conc").Collection("c")
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "k", Value: 1}}}); err != nil {
		t.Fatal(err)
	}

	var wg sync.WaitGroup
	errs := make(chan error, clients*4)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cl, err := mongo.Connect(options.Client().ApplyURI(srv.URI()).SetMaxPoolSize(4))
			if err != nil {
				errs <- err
				return
			}
			defer cl.Disconnect(ctx)
			cc := cl.Database("conc").Collection("c")
			opCtx, done := context.WithTimeout(ctx, 60*time.Second)
			defer done()
			for i := range perClient {
				id := fmt.Sprintf("%d-%d", c, i)
				if _, err := cc.InsertOne(opCtx, bson.D{{Key: "_id", Value: id}, {Key: "k", Value: i % 10}, {Key: "tags", Value: bson.A{c, i}}}); err != nil {
					errs <- err
					return
				}
				if _, err := cc.UpdateOne(opCtx, bson.D{{Key: "_id", Value: id}}, bson.D{{Key: "$push", Value: bson.D{{Key: "tags", Value: "x"}}}, {Key: "$inc", Value: bson.D{{Key: "n", Value: 1}}}}); err != nil {
					errs <- err
					return
				}
				if i%10 == 0 {
					cur, err := cc.Find(opCtx, bson.D{{Key: "k", Value: bson.D{{Key: "$lte", Value: 5}}}}, options.Find().SetBatchSize(7).SetSort(bson.D{{Key: "_id", Value: 1}}))
					if err != nil {
						errs <- err
						return
					}
					var docs []bson.D
					if err := cur.All(opCtx, &docs); err != nil {
						errs <- err
						return
					}
					if _, err := cc.CountDocuments(opCtx, bson.D{{Key: "tags", Value: "x"}}); err != nil {
						errs <- err
						return
					}
				}
			}
			if _, err := cc.DeleteMany(opCtx, bson.D{{Key: "_id", Value: bson.D{{Key: "$regex", Value: fmt.Sprintf("^%d-", c)}}}, {Key: "k", Value: 9}}); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	n, err := coll.CountDocuments(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	// Each client deletes its k == 9 documents (6 of 60).
	if want := int64(clients * (perClient - perClient/10)); n != want {
		t.Errorf("count %d, want %d", n, want)
	}
	n, _ = coll.CountDocuments(ctx, bson.D{{Key: "n", Value: 1}, {Key: "tags.2", Value: "x"}})
	if want := int64(clients * (perClient - perClient/10)); n != want {
		t.Errorf("updated documents %d, want %d", n, want)
	}
}
