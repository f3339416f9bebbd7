package engine_test

import (
	"os"
	"path/filepath"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// persistedLesson fills database "lesson" with what a lesson's state
// holds (records in insertion order with a gap, a compound, a partial and
// a unique index, a validator, a view), saves it as s1 and
// writes it to the file "k1.snap" of dir.
func persistedLesson(t *testing.T, dir string) *mongo.Database {
	t.Helper()
	client, _ := startServerWith(t, engine.Options{SnapshotDir: dir})
	db := client.Database("lesson")
	mustRun(t, db, bson.D{{Key: "create", Value: "books"},
		{Key: "validator", Value: bson.D{{Key: "title", Value: bson.D{{Key: "$type", Value: "string"}}}}}})
	books := db.Collection("books")
	for i := range 50 {
		if _, err := books.InsertOne(ctx, bson.D{{Key: "_id", Value: 50 - i}, {Key: "title", Value: string(rune('a' + i%26))},
			{Key: "n", Value: int64(i)}, {Key: "tags", Value: bson.A{"x", i}}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := books.DeleteOne(ctx, bson.D{{Key: "_id", Value: 40}}); err != nil {
		t.Fatal(err)
	}
	if _, err := books.Indexes().CreateMany(ctx, []mongo.IndexModel{
		{Keys: bson.D{{Key: "title", Value: 1}, {Key: "n", Value: -1}}},
		{Keys: bson.D{{Key: "n", Value: 1}}, Options: options.Index().SetUnique(true).SetPartialFilterExpression(bson.D{{Key: "n", Value: bson.D{{Key: "$gt", Value: 10}}}})},
		{Keys: bson.D{{Key: "tags", Value: 1}}, Options: options.Index().SetName("by_tag").SetHidden(true)},
		{Keys: bson.D{{Key: "$**", Value: 1}}, Options: options.Index().SetWildcardProjection(bson.D{{Key: "title", Value: 0}})},
	}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateView(ctx, "recent", "books", bson.A{bson.D{{Key: "$match", Value: bson.D{{Key: "n", Value: bson.D{{Key: "$gte", Value: 45}}}}}}}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, db, snapshotCmd("save", "lesson", "s1"))
	got := mustRun(t, db, snapshotCmd("persist", "lesson", "s1", bson.E{Key: "file", Value: "k1.snap"}))
	if n, _ := value.Get(got, "bytes").(int64); n < 1000 {
		t.Fatalf("persist reply %v", got)
	}
	return db
}

// describe is what a learner can see of database db: every collection's
// options, indexes and documents in natural order, and the view's output.
func describe(t *testing.T, db *mongo.Database) bson.D {
	t.Helper()
	var out bson.D
	colls := mustRun(t, db, bson.D{{Key: "listCollections", Value: 1}, {Key: "nameOnly", Value: false}})
	for _, c := range value.Get(value.Get(colls, "cursor").(bson.D), "firstBatch").(bson.A) {
		info := c.(bson.D)
		kept := bson.D{}
		for _, f := range info {
			if f.Key != "info" { // the UUID differs by database
				kept = append(kept, f)
			}
		}
		out = append(out, bson.E{Key: "coll", Value: kept})
	}
	for _, name := range []string{"books", "recent"} {
		cur, err := db.Collection(name).Find(ctx, bson.D{})
		if err != nil {
			t.Fatal(err)
		}
		var docs []bson.D
		if err := cur.All(ctx, &docs); err != nil {
			t.Fatal(err)
		}
		out = append(out, bson.E{Key: name, Value: docs})
	}
	idx := mustRun(t, db, bson.D{{Key: "listIndexes", Value: "books"}})
	out = append(out, bson.E{Key: "indexes", Value: value.Get(value.Get(idx, "cursor").(bson.D), "firstBatch")})
	return out
}

// A state written to a file and read back by another server is the same
// state: collections, options, documents in their natural order, indexes
// (which answer queries and keep their uniqueness), the validator and the
// view.
func TestSnapshotFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	before := describe(t, persistedLesson(t, dir))

	client, _ := startServerWith(t, engine.Options{SnapshotDir: dir})
	db := client.Database("copy")
	loaded := mustRun(t, db, snapshotCmd("load", "copy", "s1", bson.E{Key: "file", Value: "k1.snap"}))
	sameJSON(t, "load reply", loaded, `{"loaded": "s1", "db": "copy", "collections": 3, "documents": {"$numberLong": "50"}, "ok": 1.0}`)
	mustRun(t, db, snapshotCmd("restore", "copy", "s1"))
	after := describe(t, db)
	if a, b := before.String(), after.String(); a != b {
		t.Fatalf("the loaded state differs:\n before %s\n after  %s", a, b)
	}
	books := db.Collection("books")
	_, err := books.InsertOne(ctx, bson.D{{Key: "title", Value: 7}})
	if we, ok := err.(mongo.WriteException); !ok || we.WriteErrors[0].Code != int(mongoerr.DocumentValidationFailure) {
		t.Fatalf("the validator did not hold: %v", err)
	}
	_, err = books.InsertOne(ctx, bson.D{{Key: "title", Value: "z"}, {Key: "n", Value: int64(20)}})
	if !mongo.IsDuplicateKeyError(err) {
		t.Fatalf("the unique partial index did not hold: %v", err)
	}
	explain := mustRun(t, db, bson.D{{Key: "explain", Value: bson.D{{Key: "find", Value: "books"},
		{Key: "filter", Value: bson.D{{Key: "title", Value: "c"}}}}}, {Key: "verbosity", Value: "executionStats"}})
	stats := value.Get(explain, "executionStats").(bson.D)
	if value.Get(stats, "nReturned") != int32(2) || value.Get(stats, "totalKeysExamined") != int32(2) {
		t.Fatalf("the compound index was not used: %v", stats)
	}
	// The wildcard index comes back with its keys and its multikey paths.
	explain = mustRun(t, db, bson.D{{Key: "explain", Value: bson.D{{Key: "find", Value: "books"},
		{Key: "filter", Value: bson.D{{Key: "tags", Value: int32(7)}}}}}, {Key: "verbosity", Value: "executionStats"}})
	stats = value.Get(explain, "executionStats").(bson.D)
	ixscan := value.Get(value.Get(value.Get(explain, "queryPlanner").(bson.D), "winningPlan").(bson.D), "inputStage").(bson.D)
	if value.Get(stats, "nReturned") != int32(1) || value.Get(ixscan, "indexName") != "$**_1" || value.Get(ixscan, "isMultiKey") != true {
		t.Fatalf("the wildcard index was not used as saved: %v %v", stats, ixscan)
	}
}

// A file is never trusted: one cut short, with a byte flipped, of another
// format, or a symlink (to a valid file, even) is refused with
// DataCorruptionDetected and its database is left as it was; a missing
// file is NoSuchKey; names outside the directory are refused; and a
// server without a snapshot directory refuses both actions.
func TestSnapshotFileRefusesWhatItCannotTrust(t *testing.T) {
	dir := t.TempDir()
	persistedLesson(t, dir)
	good, err := os.ReadFile(filepath.Join(dir, "k1.snap"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("truncated.snap", good[:len(good)-100])
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 0x40
	write("flipped.snap", flipped)
	foreign := append([]byte(nil), good...)
	foreign[len("schemalab snapshot\n")] = 99
	write("foreign.snap", foreign)
	write("garbage.snap", []byte("not a snapshot at all, but long enough to hold a header of sixty-three bytes......"))
	if err := os.Symlink(filepath.Join(dir, "k1.snap"), filepath.Join(dir, "link.snap")); err != nil {
		t.Fatal(err)
	}

	client, _ := startServerWith(t, engine.Options{SnapshotDir: dir})
	db := client.Database("victim")
	if _, err := db.Collection("mine").InsertOne(ctx, bson.D{{Key: "_id", Value: "keep"}}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, db, snapshotCmd("save", "victim", "s1"))
	for _, file := range []string{"truncated.snap", "flipped.snap", "foreign.snap", "garbage.snap", "link.snap"} {
		err := db.RunCommand(ctx, snapshotCmd("load", "victim", "s1", bson.E{Key: "file", Value: file})).Err()
		if ce, ok := err.(mongo.CommandError); !ok || ce.Code != int32(mongoerr.DataCorruptionDetected) {
			t.Errorf("load %s: %v, want DataCorruptionDetected", file, err)
		}
	}
	mustRun(t, db, snapshotCmd("restore", "victim", "s1"))
	if n, err := db.Collection("mine").CountDocuments(ctx, bson.D{{Key: "_id", Value: "keep"}}); err != nil || n != 1 {
		t.Fatalf("the database's own snapshot changed: %d %v", n, err)
	}

	for file, code := range map[string]int32{"missing.snap": mongoerr.NoSuchKey, "../k1.snap": mongoerr.BadValue,
		"/etc/passwd": mongoerr.BadValue, ".hidden": mongoerr.BadValue, "": mongoerr.BadValue} {
		err := db.RunCommand(ctx, snapshotCmd("load", "victim", "s1", bson.E{Key: "file", Value: file})).Err()
		if ce, ok := err.(mongo.CommandError); !ok || ce.Code != code {
			t.Errorf("load %q: %v, want %d", file, err, code)
		}
	}
	err = db.RunCommand(ctx, snapshotCmd("persist", "victim", "s1", bson.E{Key: "file", Value: "../escape"})).Err()
	if ce, ok := err.(mongo.CommandError); !ok || ce.Code != int32(mongoerr.BadValue) {
		t.Errorf("persist ../escape: %v", err)
	}

	plain := startServer(t).Database("victim")
	for _, action := range []string{"persist", "load"} {
		err := plain.RunCommand(ctx, snapshotCmd(action, "victim", "s1", bson.E{Key: "file", Value: "k1.snap"})).Err()
		if ce, ok := err.(mongo.CommandError); !ok || ce.Code != int32(mongoerr.IllegalOperation) {
			t.Errorf("%s without a snapshot directory: %v", action, err)
		}
	}
}

// A database with a time-series collection keeps part of its state in
// the bucket catalog, outside its records: persist refuses it rather
// than write a state that would read back different.
func TestSnapshotFileRefusesTimeseries(t *testing.T) {
	client, _ := startServerWith(t, engine.Options{SnapshotDir: t.TempDir()})
	db := client.Database("ts")
	mustRun(t, db, bson.D{{Key: "create", Value: "w"}, {Key: "timeseries", Value: bson.D{{Key: "timeField", Value: "t"}}}})
	mustRun(t, db, snapshotCmd("save", "ts", "s1"))
	err := db.RunCommand(ctx, snapshotCmd("persist", "ts", "s1", bson.E{Key: "file", Value: "ts.snap"})).Err()
	if ce, ok := err.(mongo.CommandError); !ok || ce.Code != int32(mongoerr.IllegalOperation) {
		t.Fatalf("persist a time-series database: %v", err)
	}
}
