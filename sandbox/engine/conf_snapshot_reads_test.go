package engine_test

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// longLookup seeds db "slow" with n orders and n customers (no index on
// the join field) and starts, on a client of its own, the unindexed
// n × n $lookup of issue 10, which runs for about 5 s at n = 10,000 on a
// fast 2-core machine and four times that at n = 20,000, unless its
// maxTimeMS stops it. The returned channel yields its error.
func longLookup(t testing.TB, uri string, n int, maxTime time.Duration) <-chan error {
	t.Helper()
	client := connect(t, uri)
	db := client.Database("slow")
	orders, customers := make([]any, n), make([]any, n)
	for i := range n {
		orders[i] = bson.D{{Key: "_id", Value: int32(i)}, {Key: "customer", Value: int32(i)}, {Key: "total", Value: int32(i % 100)}}
		customers[i] = bson.D{{Key: "_id", Value: int32(i)}, {Key: "cid", Value: int32(i)}, {Key: "name", Value: fmt.Sprintf("c%d", i)}}
	}
	if _, err := db.Collection("orders").InsertMany(ctx, orders); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Collection("customers").InsertMany(ctx, customers); err != nil {
		t.Fatal(err)
	}
	pipeline := bson.A{
		bson.D{{Key: "$lookup", Value: bson.D{{Key: "from", Value: "customers"}, {Key: "localField", Value: "customer"},
			{Key: "foreignField", Value: "cid"}, {Key: "as", Value: "c"}}}},
		bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil}, {Key: "n", Value: bson.D{{Key: "$sum", Value: bson.D{{Key: "$size", Value: "$c"}}}}}}}},
	}
	done := make(chan error, 1)
	started := make(chan struct{})
	go func() {
		close(started)
		done <- db.RunCommand(ctx, bson.D{{Key: "aggregate", Value: "orders"}, {Key: "pipeline", Value: pipeline},
			{Key: "cursor", Value: bson.D{}}, {Key: "maxTimeMS", Value: maxTime.Milliseconds()}}).Err()
	}()
	<-started
	time.Sleep(200 * time.Millisecond) // let it get going
	return done
}

// latencies times n runs of op.
func latencies(t testing.TB, n int, op func(i int) error) []time.Duration {
	t.Helper()
	out := make([]time.Duration, n)
	for i := range n {
		start := time.Now()
		if err := op(i); err != nil {
			t.Fatal(err)
		}
		out[i] = time.Since(start)
	}
	slices.Sort(out)
	return out
}

func median(d []time.Duration) time.Duration { return d[len(d)/2] }

// Done-when of issue 10: while one client runs a long $lookup, finds and
// inserts of another client, in another database and in the very
// collection the $lookup reads, complete at their idle latency: the
// $lookup reads a snapshot and holds no lock.
func TestConfLongLookupDelaysNobody(t *testing.T) {
	client, uri := startServerWith(t, engine.Options{})
	app := client.Database("app").Collection("users")
	insertN(t, app, 1000)
	findOne := func(i int) error {
		return app.FindOne(ctx, bson.D{{Key: "_id", Value: int32(i % 1000)}}).Err()
	}
	next := int32(1_000_000)
	insertOne := func(coll *mongo.Collection) func(int) error {
		return func(int) error {
			next++
			_, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: next}, {Key: "cid", Value: -1}})
			return err
		}
	}
	const runs = 200
	idleFind := latencies(t, runs, findOne)
	idleInsert := latencies(t, runs, insertOne(app))

	// 20,000: at 10,000 a fast machine finished the $lookup inside the 5 s.
	lookup := longLookup(t, uri, 20_000, 5*time.Second)
	foreign := client.Database("slow").Collection("customers")
	busyFind := latencies(t, runs, findOne)
	busyInsert := latencies(t, runs, insertOne(app))
	busyForeignInsert := latencies(t, runs, insertOne(foreign))
	select {
	case err := <-lookup:
		t.Fatalf("the $lookup finished before the measurements did (%v): make it longer", err)
	default:
	}
	t.Logf("findOne median idle %v, during $lookup %v (max %v)", median(idleFind), median(busyFind), busyFind[runs-1])
	t.Logf("insertOne median idle %v, during $lookup %v (max %v); into its foreign collection %v",
		median(idleInsert), median(busyInsert), busyInsert[runs-1], median(busyForeignInsert))
	for _, c := range []struct {
		what       string
		idle, busy []time.Duration
	}{{"findOne", idleFind, busyFind}, {"insertOne", idleInsert, busyInsert}, {"insertOne into the $lookup's collection", idleInsert, busyForeignInsert}} {
		// A lock held by the $lookup would cost seconds (until its
		// maxTimeMS); the margins only absorb a shared machine's noise.
		if m := median(c.busy); m > 3*median(c.idle)+time.Millisecond {
			t.Errorf("%s: median %v during the $lookup, %v idle", c.what, m, median(c.idle))
		}
		if worst := c.busy[runs-1]; worst > time.Second {
			t.Errorf("%s: slowest %v during the $lookup", c.what, worst)
		}
	}
	// The $lookup then stops at its maxTimeMS; it never saw the inserted
	// customers (cid -1), whichever way it ends.
	var ce mongo.CommandError
	if err := <-lookup; !errors.As(err, &ce) || ce.Code != mongoerr.MaxTimeMSExpired {
		t.Errorf("$lookup ended with %v, want MaxTimeMSExpired", err)
	}
}

// Run under -race: readers take snapshots of collections that writers
// change at the same time (inserts, updates, deletes, index builds,
// renames, drops and snapshot restores), and every snapshot must be
// consistent: one writer appends seq 1, 2, 3... to "log" and then to
// "mirror", so a reader's view of both, taken at one instant, holds a gap-free
// prefix of each with mirror at most one behind.
func TestConfSnapshotsStayConsistentUnderWrites(t *testing.T) {
	client, uri := startServerWith(t, engine.Options{})
	db := client.Database("race")
	if _, err := db.Collection("log").Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "seq", Value: 1}}}); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	run := func(f func(db *mongo.Database, i int) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			db := connect(t, uri).Database("race")
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				if err := f(db, i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	run(func(db *mongo.Database, i int) error { // the appender
		for _, c := range []string{"log", "mirror"} {
			if _, err := db.Collection(c).InsertOne(ctx, bson.D{{Key: "seq", Value: int32(i + 1)}, {Key: "pad", Value: i}}); err != nil {
				return err
			}
		}
		return nil
	})
	run(func(db *mongo.Database, i int) error { // churn in another collection of the database
		c := db.Collection(fmt.Sprintf("churn%d", i%3))
		if _, err := c.InsertMany(ctx, []any{bson.D{{Key: "k", Value: i}}, bson.D{{Key: "k", Value: i + 1}}}); err != nil {
			return err
		}
		if _, err := c.UpdateMany(ctx, bson.D{}, bson.D{{Key: "$inc", Value: bson.D{{Key: "k", Value: 1}}}}); err != nil {
			return err
		}
		switch i % 4 {
		case 0:
			_, err := c.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "k", Value: 1}}})
			return err
		case 1:
			_, err := c.DeleteMany(ctx, bson.D{{Key: "k", Value: bson.D{{Key: "$lt", Value: i}}}})
			return err
		case 2:
			return db.RunCommand(ctx, snapshotCmd("save", "race", fmt.Sprint("s", i%5))).Err()
		}
		return c.Drop(ctx)
	})
	check := func(db *mongo.Database, _ int) error {
		cur, err := db.Collection("log").Aggregate(ctx, bson.A{
			bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil}, {Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}, {Key: "max", Value: bson.D{{Key: "$max", Value: "$seq"}}}}}},
			bson.D{{Key: "$unionWith", Value: bson.D{{Key: "coll", Value: "mirror"}, {Key: "pipeline", Value: bson.A{
				bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: "m"}, {Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}, {Key: "max", Value: bson.D{{Key: "$max", Value: "$seq"}}}}}}}}}}},
		})
		if err != nil {
			return err
		}
		var out []struct {
			ID  any   `bson:"_id"`
			N   int32 `bson:"n"`
			Max int32 `bson:"max"`
		}
		if err := cur.All(ctx, &out); err != nil {
			return err
		}
		var logN, mirrorN int32
		for _, r := range out {
			if r.N != r.Max {
				return fmt.Errorf("a snapshot with a gap: %d documents up to seq %d", r.N, r.Max)
			}
			if r.ID == nil {
				logN = r.N
			} else {
				mirrorN = r.N
			}
		}
		if mirrorN > logN || logN > mirrorN+1 {
			return fmt.Errorf("log %d and mirror %d are not from one instant", logN, mirrorN)
		}
		// An index scan and a collection scan of one snapshot agree.
		n, err := db.Collection("log").CountDocuments(ctx, bson.D{{Key: "seq", Value: bson.D{{Key: "$gte", Value: 1}}}})
		if err != nil {
			return err
		}
		if int32(n) < logN {
			return fmt.Errorf("the index lost entries: %d < %d", n, logN)
		}
		return nil
	}
	run(check)
	run(check)
	run(func(db *mongo.Database, i int) error { // restores of the churn snapshots into a copy
		err := db.Client().Database("copy").RunCommand(ctx, snapshotCmd("restore", "copy", fmt.Sprint("s", i%5), bson.E{Key: "fromDb", Value: "race"})).Err()
		var ce mongo.CommandError
		if errors.As(err, &ce) && ce.Code == mongoerr.NoSuchKey { // NoSuchKey: not saved yet
			return nil
		}
		return err
	})
	time.Sleep(3 * time.Second)
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var out bson.D
	if err := db.RunCommand(ctx, bson.D{{Key: "count", Value: "log"}}).Decode(&out); err != nil || field(out, "n").(int32) < 10 {
		t.Errorf("the appender made little progress: %v %v", out, err)
	}
}

// An index build reads a snapshot too: finds (and the build's own
// result) are unaffected by it, and the index appears whole.
func TestConfIndexBuildDelaysNoReader(t *testing.T) {
	client, _ := startServerWith(t, engine.Options{})
	coll := client.Database("app").Collection("big")
	if _, err := coll.InsertMany(ctx, enrollments(100_000)); err != nil {
		t.Fatal(err)
	}
	built := make(chan time.Duration, 1)
	go func() {
		start := time.Now()
		if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "student", Value: 1}, {Key: "grade", Value: 1}}}); err != nil {
			t.Error(err)
		}
		built <- time.Since(start)
	}()
	var worst time.Duration
	finds := 0
	for {
		select {
		case took := <-built:
			t.Logf("index build %v; %d finds meanwhile, slowest %v", took, finds, worst)
			// A find that waited for the build would let only one or two
			// finds through while it ran; the slowest one's latency says
			// little on a loaded machine, where a collection pause or the
			// scheduler alone can hold a goroutine for a third of a second.
			if took >= 100*time.Millisecond && finds < 5 {
				t.Errorf("only %d finds ran during a %v index build (slowest %v): reads waited for it", finds, took, worst)
			}
			n, err := coll.CountDocuments(ctx, bson.D{{Key: "student", Value: bson.D{{Key: "$gte", Value: ""}}}})
			if err != nil || n != 100_000 {
				t.Errorf("the new index finds %d documents (%v)", n, err)
			}
			return
		default:
		}
		start := time.Now()
		if err := coll.FindOne(ctx, bson.D{{Key: "courseId", Value: 7}}).Err(); err != nil {
			t.Fatal(err)
		}
		worst = max(worst, time.Since(start))
		finds++
	}
}
