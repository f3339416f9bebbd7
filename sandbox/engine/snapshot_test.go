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
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/wire"
)

func snapshotCmd(action, db, name string, extra ...bson.E) bson.D {
	cmd := bson.D{{Key: "schemalabSnapshot", Value: action}, {Key: "db", Value: db}}
	if name != "" {
		cmd = append(cmd, bson.E{Key: "name", Value: name})
	}
	return append(cmd, extra...)
}

// A lesson saves its database after a step, the learner wrecks it, and a
// restore brings back documents and indexes exactly as they were.
func TestSnapshotRestoresDocumentsAndIndexes(t *testing.T) {
	client := startServer(t)
	db := client.Database("lesson")
	books := db.Collection("books")
	if _, err := books.InsertMany(ctx, []any{bson.D{{Key: "_id", Value: 1}, {Key: "title", Value: "A"}},
		bson.D{{Key: "_id", Value: 2}, {Key: "title", Value: "B"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := books.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "title", Value: 1}}}); err != nil {
		t.Fatal(err)
	}
	saved := mustRun(t, db, snapshotCmd("save", "lesson", "step-1"))
	sameJSON(t, "save reply", saved, `{"saved": "step-1", "db": "lesson", "collections": 1, "documents": {"$numberLong": "2"}, "ok": 1.0}`)

	if _, err := books.UpdateOne(ctx, bson.D{{Key: "_id", Value: 1}}, bson.D{{Key: "$unset", Value: bson.D{{Key: "title", Value: ""}}}}); err != nil {
		t.Fatal(err)
	}
	if err := db.Collection("other").Drop(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Collection("junk").InsertOne(ctx, bson.D{{Key: "x", Value: 1}}); err != nil {
		t.Fatal(err)
	}
	if err := books.Drop(ctx); err != nil {
		t.Fatal(err)
	}

	mustRun(t, db, snapshotCmd("restore", "lesson", "step-1"))
	names, err := db.ListCollectionNames(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "collections after restore", bson.A{names[0]}, `["books"]`)
	if len(names) != 1 {
		t.Errorf("collections after restore: %v, want only books", names)
	}
	batch := firstBatch(t, db, `{"find": "books", "sort": {"_id": 1}}`)
	sameJSON(t, "books after restore", batch, `[{"_id": 1, "title": "A"}, {"_id": 2, "title": "B"}]`)
	explain := okJ(t, db, `{"explain": {"find": "books", "filter": {"title": "B"}}, "verbosity": "executionStats"}`)
	if got := fmt.Sprint(field(field(explain, "executionStats").(bson.D), "totalKeysExamined")); got != "1" {
		t.Errorf("title index after restore: totalKeysExamined %s, want 1", got)
	}

	// The snapshot is still there: writes after a restore do not reach it.
	if _, err := books.DeleteMany(ctx, bson.D{}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, db, snapshotCmd("restore", "lesson", "step-1"))
	if n, _ := books.CountDocuments(ctx, bson.D{}); n != 2 {
		t.Errorf("second restore: %d books, want 2", n)
	}
}

// A classroom copies one template database into each student's.
func TestSnapshotRestoresIntoAnotherDatabase(t *testing.T) {
	client := startServer(t)
	tmpl := client.Database("template_bucket")
	if _, err := tmpl.Collection("readings").InsertOne(ctx, bson.D{{Key: "_id", Value: 1}}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, tmpl, snapshotCmd("save", "template_bucket", "setup"))
	alice := client.Database("alice_bucket")
	mustRun(t, alice, snapshotCmd("restore", "alice_bucket", "setup", bson.E{Key: "fromDb", Value: "template_bucket"}))
	if _, err := alice.Collection("readings").InsertOne(ctx, bson.D{{Key: "_id", Value: 2}}); err != nil {
		t.Fatal(err)
	}
	if n, _ := alice.Collection("readings").CountDocuments(ctx, bson.D{}); n != 2 {
		t.Errorf("alice: %d readings, want 2", n)
	}
	if n, _ := tmpl.Collection("readings").CountDocuments(ctx, bson.D{}); n != 1 {
		t.Errorf("template: %d readings, want 1 (a student's write reached the template)", n)
	}
	var specs []bson.D
	cur, err := client.Database("alice_bucket").ListCollections(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	if err := cur.All(ctx, &specs); err != nil {
		t.Fatal(err)
	}
	cur, _ = tmpl.ListCollections(ctx, bson.D{})
	var tspecs []bson.D
	_ = cur.All(ctx, &tspecs)
	aliceUUID := field(field(specs[0], "info").(bson.D), "uuid")
	tmplUUID := field(field(tspecs[0], "info").(bson.D), "uuid")
	if fmt.Sprint(aliceUUID) == fmt.Sprint(tmplUUID) {
		t.Errorf("a copied collection keeps the template's UUID %v", aliceUUID)
	}
}

func TestSnapshotListDropAndErrors(t *testing.T) {
	client := startServer(t)
	db := client.Database("lesson")
	mustRun(t, db, snapshotCmd("save", "lesson", "a"))
	mustRun(t, db, snapshotCmd("save", "lesson", "b"))
	list := mustRun(t, db, snapshotCmd("list", "lesson", ""))
	snaps := field(list, "snapshots").(bson.A)
	if len(snaps) != 2 || field(snaps[0].(bson.D), "name") != "a" || field(snaps[1].(bson.D), "name") != "b" {
		t.Errorf("list: %v", snaps)
	}
	sameJSON(t, "drop one", mustRun(t, db, snapshotCmd("drop", "lesson", "a")), `{"dropped": 1, "ok": 1.0}`)
	sameJSON(t, "drop all", mustRun(t, db, snapshotCmd("drop", "lesson", "")), `{"dropped": 1, "ok": 1.0}`)

	if ce := commandError(t, db, snapshotCmd("restore", "lesson", "a")); ce.Code != mongoerr.NoSuchKey {
		t.Errorf("restore of a dropped snapshot: %v, want NoSuchKey", ce)
	}
	if ce := commandError(t, db, snapshotCmd("save", "lesson", "")); ce.Code != mongoerr.IDLFailedToParse {
		t.Errorf("save without name: %v, want 40414", ce)
	}
	if ce := commandError(t, db, snapshotCmd("undo", "lesson", "a")); ce.Code != mongoerr.BadValue {
		t.Errorf("unknown action: %v, want BadValue", ce)
	}
	if ce := commandError(t, db, snapshotCmd("save", "bad.name", "a")); ce.Code != mongoerr.InvalidNamespace {
		t.Errorf("invalid db name: %v, want InvalidNamespace", ce)
	}
	for i := range 256 {
		mustRun(t, db, snapshotCmd("save", "lesson", fmt.Sprintf("s%d", i)))
	}
	if ce := commandError(t, db, snapshotCmd("save", "lesson", "one-too-many")); ce.Code != mongoerr.IllegalOperation {
		t.Errorf("snapshot 257: %v, want IllegalOperation", ce)
	}
	mustRun(t, db, snapshotCmd("save", "lesson", "s0")) // replacing one stays allowed
}

// With --strict the embedded server looks exactly like mongod, which has no
// such command.
func TestSnapshotCommandNotFoundWhenStrict(t *testing.T) {
	sctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := wire.Start(sctx, wire.Options{Engine: engine.New(engine.Options{Strict: true})})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	client, err := mongo.Connect(options.Client().ApplyURI(srv.URI()))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(context.Background())
	ce := commandError(t, client.Database("lesson"), snapshotCmd("save", "lesson", "a"))
	if ce.Code != mongoerr.CommandNotFound || ce.Message != "no such command: 'schemalabSnapshot'" {
		t.Errorf("strict: %d %q, want 59 no such command", ce.Code, ce.Message)
	}
}

// BenchmarkSnapshot200k measures saving and restoring a 200,000-document
// database with two indexes (issue figure: ≤ 1 ms each, through the driver).
func BenchmarkSnapshot200k(b *testing.B) {
	client := startServer(b)
	db := client.Database("bench")
	coll := db.Collection("grades")
	docs := make([]any, 200_000)
	for i := range docs {
		docs[i] = bson.D{{Key: "courseId", Value: int32(i % 100)}, {Key: "grade", Value: float64(i % 97)}, {Key: "student", Value: fmt.Sprintf("s%06d", i)}}
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		b.Fatal(err)
	}
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "courseId", Value: 1}}}); err != nil {
		b.Fatal(err)
	}
	b.Run("save", func(b *testing.B) {
		for b.Loop() {
			mustRun(b, db, snapshotCmd("save", "bench", "s"))
		}
	})
	b.Run("restore", func(b *testing.B) {
		for b.Loop() {
			mustRun(b, db, snapshotCmd("restore", "bench", "s"))
		}
	})
}

// A time-series collection restored from a snapshot (into its own
// database, keeping its UUID, and into another, as a classroom copies a
// template) takes measurements again: the bucket catalog does not reuse
// an open bucket whose stored document the restore replaced. Inserts into
// it run while the database is saved and restored under them, which
// takes its collections out of service; under -race this checks that the
// writers notice and carry on in the restored collections.
func TestSnapshotRestoresTimeseriesUnderInserts(t *testing.T) {
	client, uri := startServerWith(t, engine.Options{})
	db := client.Database("tslesson")
	okJ(t, db, `{"create": "m", "timeseries": {"timeField": "t", "metaField": "s"}}`)
	base := time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)
	insert := func(m *mongo.Collection, from, n int) error {
		docs := make([]any, n)
		for i := range docs {
			docs[i] = bson.D{{Key: "t", Value: base.Add(time.Duration(from+i) * time.Second)}, {Key: "s", Value: (from + i) % 2}, {Key: "v", Value: from + i}}
		}
		_, err := m.InsertMany(ctx, docs)
		return err
	}
	m := db.Collection("m")
	if err := insert(m, 0, 10); err != nil {
		t.Fatal(err)
	}
	mustRun(t, db, snapshotCmd("save", "tslesson", "ten"))
	if err := insert(m, 10, 5); err != nil {
		t.Fatal(err)
	}
	mustRun(t, db, snapshotCmd("restore", "tslesson", "ten"))
	if err := insert(m, 100, 3); err != nil {
		t.Fatal(err)
	}
	count := func(c *mongo.Collection, filter bson.D) int64 {
		t.Helper()
		n, err := c.CountDocuments(ctx, filter)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := count(m, bson.D{}); n != 13 {
		t.Fatalf("after restore and 3 more: %d measurements, want 13", n)
	}
	if n := count(m, bson.D{{Key: "v", Value: bson.D{{Key: "$gte", Value: 10}, {Key: "$lt", Value: 15}}}}); n != 0 {
		t.Errorf("the restore left %d of the measurements taken after the snapshot", n)
	}
	// A copy in another database is a collection of its own.
	copyDB := client.Database("tsstudent")
	mustRun(t, copyDB, snapshotCmd("restore", "tsstudent", "ten", bson.E{Key: "fromDb", Value: "tslesson"}))
	if err := insert(copyDB.Collection("m"), 200, 4); err != nil {
		t.Fatal(err)
	}
	if a, b := count(copyDB.Collection("m"), bson.D{}), count(m, bson.D{}); a != 14 || b != 13 {
		t.Errorf("copy has %d measurements (want 14), original %d (want 13)", a, b)
	}

	// Inserts while the database is saved and restored under them.
	const writers, commands, perCommand = 3, 40, 5
	var wg sync.WaitGroup
	errs := make(chan error, writers+1)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			wm := connect(t, uri).Database("tslesson").Collection("m")
			for c := range commands {
				if err := insert(wm, 1000+(w*commands+c)*perCommand, perCommand); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	stop := make(chan struct{})
	restorer := make(chan struct{})
	go func() {
		defer close(restorer)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			action := "restore"
			if i%2 == 0 {
				action = "save"
			}
			if err := db.RunCommand(ctx, snapshotCmd(action, "tslesson", "moving")).Err(); err != nil {
				errs <- err
				return
			}
		}
	}()
	wg.Wait()
	close(stop)
	<-restorer
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	// Whatever the restores undid, what is left is whole insert commands
	// on top of the 13 measurements, and the collection still reads.
	if n := count(m, bson.D{}); n < 13 || (n-13)%perCommand != 0 {
		t.Errorf("%d measurements after concurrent restores: not 13 plus whole inserts", n)
	}
	mustRun(t, db, snapshotCmd("drop", "tslesson", ""))
	mustRun(t, copyDB, snapshotCmd("drop", "tsstudent", ""))
}

// Storage figures are computed once per state of a collection and
// shared by its snapshot's copies (a classroom's students); every write,
// index change and restore must still show in them at once.
func TestCollStatsFollowWritesAndRestores(t *testing.T) {
	client := startServer(t)
	db := client.Database("statslab")
	coll := db.Collection("readings")
	var docs []any
	for i := range 500 {
		docs = append(docs, bson.D{{Key: "_id", Value: i}, {Key: "temp", Value: float64(i) / 7}})
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	stats := func(db *mongo.Database) (size, storage, indexes, nindexes int64) {
		t.Helper()
		d := mustRun(t, db, bson.D{{Key: "collStats", Value: "readings"}})
		n := func(k string) int64 { return int64(value.ToDouble(field(d, k))) }
		return n("size"), n("storageSize"), n("totalIndexSize"), n("nindexes")
	}
	size0, storage0, index0, _ := stats(db)
	if s, st, ix, _ := stats(db); s != size0 || st != storage0 || ix != index0 {
		t.Fatalf("the same state gave two sets of figures: %d %d %d, then %d %d %d", size0, storage0, index0, s, st, ix)
	}

	mustRun(t, db, snapshotCmd("save", "statslab", "before"))
	var more []any
	for i := range 2000 {
		more = append(more, bson.D{{Key: "_id", Value: 1000 + i}, {Key: "temp", Value: float64(i)}, {Key: "note", Value: fmt.Sprintf("reading %d of a larger batch", i)}})
	}
	if _, err := coll.InsertMany(ctx, more); err != nil {
		t.Fatal(err)
	}
	size1, storage1, index1, _ := stats(db)
	if size1 <= size0 || storage1 <= storage0 || index1 <= index0 {
		t.Errorf("after 2,000 inserts: size %d→%d, storage %d→%d, index %d→%d; all should grow", size0, size1, storage0, storage1, index0, index1)
	}
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "temp", Value: 1}}}); err != nil {
		t.Fatal(err)
	}
	if _, _, index2, n := stats(db); index2 <= index1 || n != 2 {
		t.Errorf("after createIndex: totalIndexSize %d→%d, nindexes %d", index1, index2, n)
	}
	if _, err := coll.UpdateMany(ctx, bson.D{}, bson.D{{Key: "$unset", Value: bson.D{{Key: "note", Value: ""}}}}); err != nil {
		t.Fatal(err)
	}
	if size3, _, _, _ := stats(db); size3 >= size1 {
		t.Errorf("after unsetting a field everywhere: size %d→%d, should shrink", size1, size3)
	}

	// A copy of the saved state (as a classroom student gets) and the
	// state itself, restored, both report what the collection held then.
	copyDB := client.Database("statslab_copy")
	mustRun(t, copyDB, snapshotCmd("restore", "statslab_copy", "before", bson.E{Key: "fromDb", Value: "statslab"}))
	mustRun(t, db, snapshotCmd("restore", "statslab", "before"))
	for _, d := range []*mongo.Database{db, copyDB} {
		if s, st, ix, n := stats(d); s != size0 || st != storage0 || ix != index0 || n != 1 {
			t.Errorf("%s restored: %d %d %d (%d indexes), want %d %d %d (1)", d.Name(), s, st, ix, n, size0, storage0, index0)
		}
	}
	if _, err := copyDB.Collection("readings").DeleteMany(ctx, bson.D{{Key: "_id", Value: bson.D{{Key: "$lt", Value: 250}}}}); err != nil {
		t.Fatal(err)
	}
	if s, _, _, _ := stats(copyDB); s >= size0 {
		t.Errorf("the copy after deleting half: size %d, want less than %d", s, size0)
	}
	if s, _, _, _ := stats(db); s != size0 {
		t.Errorf("the original after the copy's delete: size %d, want %d", s, size0)
	}
}
