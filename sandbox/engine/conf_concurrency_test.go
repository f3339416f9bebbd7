package engine_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
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

// Several clients insert into one time-series collection while another
// reads it, raises its granularity and reads its statistics. Every insert
// command goes through the bucket catalog under the buckets collection's
// write lock, and every read sees the view and its buckets at one instant,
// so a reader only ever sees whole insert commands; under -race this also
// checks the bucket catalog's own synchronisation.
func TestConfTimeseriesConcurrentInsertsAndReads(t *testing.T) {
	client, uri := startServerWith(t, engine.Options{})
	db := client.Database("tsconc")
	okJ(t, db, `{"create": "m", "timeseries": {"timeField": "t", "metaField": "sensor"}}`)
	const writers, commands, perCommand = 4, 60, 8
	base := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)

	var wg sync.WaitGroup
	errs := make(chan error, writers+2)
	done := make(chan struct{})
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := connect(t, uri).Database("tsconc").Collection("m")
			for c := range commands {
				docs := make([]any, perCommand)
				for i := range docs {
					at := base.Add(time.Duration((c*perCommand+i)*writers+w) * time.Second)
					docs[i] = bson.D{{Key: "t", Value: at}, {Key: "sensor", Value: bson.D{{Key: "id", Value: (c + i) % 3}}}, {Key: "w", Value: w}, {Key: "v", Value: c*perCommand + i}}
				}
				if _, err := m.InsertMany(ctx, docs); err != nil {
					errs <- fmt.Errorf("writer %d: %w", w, err)
					return
				}
			}
		}()
	}
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		rdb := connect(t, uri).Database("tsconc")
		m := rdb.Collection("m")
		last := int64(0)
		for raised := false; ; {
			select {
			case <-done:
				return
			default:
			}
			n, err := m.CountDocuments(ctx, bson.D{})
			if err != nil {
				errs <- err
				return
			}
			if n%perCommand != 0 || n < last {
				errs <- fmt.Errorf("a read saw %d measurements after %d: not whole insert commands", n, last)
				return
			}
			last = n
			cur, err := m.Aggregate(ctx, bson.A{bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$sensor.id"}, {Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}}}}})
			if err != nil {
				errs <- err
				return
			}
			var groups []bson.D
			if err := cur.All(ctx, &groups); err != nil {
				errs <- err
				return
			}
			if err := rdb.RunCommand(ctx, bson.D{{Key: "collStats", Value: "m"}}).Err(); err != nil {
				errs <- err
				return
			}
			if !raised && n > 0 {
				raised = true
				if err := rdb.RunCommand(ctx, bson.D{{Key: "collMod", Value: "m"}, {Key: "timeseries", Value: bson.D{{Key: "granularity", Value: "minutes"}}}}).Err(); err != nil {
					errs <- err
					return
				}
			}
		}
	}()
	wg.Wait()
	close(done)
	<-readerDone
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	const total = writers * commands * perCommand
	if n, err := db.Collection("m").CountDocuments(ctx, bson.D{}); err != nil || n != total {
		t.Fatalf("count %d (%v), want %d", n, err, total)
	}
	stats := okJ(t, db, `{"collStats": "m"}`)
	ts := field(stats, "timeseries").(bson.D)
	if got := field(ts, "numMeasurementsCommitted"); fmt.Sprint(got) != fmt.Sprint(total) {
		t.Errorf("numMeasurementsCommitted %v, want %d", got, total)
	}
	opts := firstBatch(t, db, `{"listCollections": 1, "filter": {"name": "m"}}`)[0].(bson.D)
	if g := field(field(field(opts, "options").(bson.D), "timeseries").(bson.D), "granularity"); g != "minutes" {
		t.Errorf("granularity %v after collMod", g)
	}
}

// collMod changes a collection's validator and validationAction while
// clients insert. Writers check a document under the collection's write
// lock, where collMod sets both options and the compiled validator at
// once, so every insert sees one whole state: {a >= 0, error}, which
// refuses negative a, or {a < 0, warn}, which refuses nothing. A document
// with a >= 0 is refused only if an insert mixed the two (the second
// validator with the first action).
func TestConfCollModWhileWritersInsert(t *testing.T) {
	client, uri := startServerWith(t, engine.Options{})
	db := client.Database("collmodconc")
	okJ(t, db, `{"create": "c", "validator": {"a": {"$gte": 0}}, "validationAction": "error"}`)
	const writers, perWriter = 4, 300
	var wg sync.WaitGroup
	errs := make(chan error, writers+1)
	var refusedNegative, stored sync.Map
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := connect(t, uri).Database("collmodconc").Collection("c")
			for i := range perWriter {
				a := 1
				if i%2 == 1 {
					a = -1
				}
				id := fmt.Sprintf("%d-%d", w, i)
				_, err := c.InsertOne(ctx, bson.D{{Key: "_id", Value: id}, {Key: "a", Value: a}})
				var we mongo.WriteException
				switch {
				case err == nil:
					stored.Store(id, a)
				case errors.As(err, &we) && len(we.WriteErrors) == 1 && we.WriteErrors[0].Code == mongoerr.DocumentValidationFailure:
					if a >= 0 {
						errs <- fmt.Errorf("insert of a: %d refused: an insert saw half a collMod", a)
						return
					}
					refusedNegative.Store(id, true)
				default:
					errs <- err
					return
				}
			}
		}()
	}
	stop := make(chan struct{})
	modDone := make(chan struct{})
	go func() {
		defer close(modDone)
		states := []string{
			`{"collMod": "c", "validator": {"a": {"$lt": 0}}, "validationAction": "warn"}`,
			`{"collMod": "c", "validator": {"a": {"$gte": 0}}, "validationAction": "error"}`,
		}
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if _, ce := runJ(t, db, states[i%2]); ce != nil {
				errs <- ce
				return
			}
		}
	}()
	wg.Wait()
	close(stop)
	<-modDone
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	n, err := db.Collection("c").CountDocuments(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	storedN, refused := 0, 0
	stored.Range(func(_, _ any) bool { storedN++; return true })
	refusedNegative.Range(func(_, _ any) bool { refused++; return true })
	if int(n) != storedN || storedN+refused != writers*perWriter {
		t.Errorf("%d documents stored, %d acknowledged, %d refused, of %d", n, storedN, refused, writers*perWriter)
	}
}
