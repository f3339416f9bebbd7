package classroom

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/sandbox"
	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/wire"
)

func builtinLesson(t testing.TB, id string) *lessons.Lesson {
	t.Helper()
	cat, errs := lessons.Load(content.FS)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	l := cat.Find(id)
	if l == nil {
		t.Fatalf("no lesson %s", id)
	}
	return l
}

func count(t testing.TB, c *mongo.Client, db, coll string) int64 {
	t.Helper()
	n, err := c.Database(db).Collection(coll).CountDocuments(context.Background(), bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSeedClonesTheTemplateForEachStudent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the bucket lesson's template (144,000 readings); skipped with -short")
	}
	ctx := context.Background()
	be, err := sandbox.StartEmbedded(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	l := builtinLesson(t, "bucket")
	tpl := NewTemplates(be.Client, be.Connector())

	// Before step 2 the flat readings exist and the buckets do not yet.
	for _, db := range []string{"alice_bucket", "bob_bucket"} {
		ok, err := tpl.Seed(ctx, l, db, 1)
		if err != nil || !ok {
			t.Fatalf("seed %s: ok=%v err=%v", db, ok, err)
		}
		if n := count(t, be.Client, db, "readings"); n != 144000 {
			t.Fatalf("%s.readings holds %d documents, want 144000", db, n)
		}
		if n := count(t, be.Client, db, "readings_bucket"); n != 0 {
			t.Fatalf("%s.readings_bucket holds %d documents before the step that builds it", db, n)
		}
	}
	// A student's writes stay theirs.
	if _, err := be.Client.Database("alice_bucket").Collection("readings").DeleteMany(ctx, bson.D{}); err != nil {
		t.Fatal(err)
	}
	if n := count(t, be.Client, "bob_bucket", "readings"); n != 144000 {
		t.Fatalf("bob lost readings when alice deleted hers: %d", n)
	}
	if n := count(t, be.Client, Database("bucket"), "readings"); n != 144000 {
		t.Fatalf("the template lost readings: %d", n)
	}
	// The end of the lesson, and its start, are templates too.
	if ok, err := tpl.Seed(ctx, l, "carol_bucket", len(l.Steps)); err != nil || !ok {
		t.Fatalf("seed after the last step: ok=%v err=%v", ok, err)
	}
	if n := count(t, be.Client, "carol_bucket", "readings_bucket"); n == 0 {
		t.Fatal("after the last step the buckets exist")
	}
	if ok, err := tpl.Seed(ctx, l, "alice_bucket", 0); err != nil || !ok {
		t.Fatalf("seed before the first step: ok=%v err=%v", ok, err)
	}
	if names, _ := be.Client.Database("alice_bucket").ListCollectionNames(ctx, bson.D{}); len(names) != 0 {
		t.Fatalf("before the first step the database is empty, not %v", names)
	}
	if _, err := tpl.Seed(ctx, l, "alice_bucket", len(l.Steps)+1); err == nil {
		t.Fatal("a step past the end must be an error")
	}
}

func TestSeedOnAServerWithoutSnapshotsAsksForReplay(t *testing.T) {
	ctx := context.Background()
	// --strict answers like mongod: no schemalabSnapshot.
	srv, err := wire.Start(ctx, wire.Options{Engine: engine.New(engine.Options{Strict: true})})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	client, err := mongo.Connect(options.Client().ApplyURI(srv.URI()))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(ctx)
	l := builtinLesson(t, "bucket")
	ok, err := NewTemplates(client, nil).Seed(ctx, l, "alice_bucket", 1)
	if err != nil || ok {
		t.Fatalf("seed on a server without snapshots: ok=%v err=%v; want false, nil", ok, err)
	}
	dbs, err := client.ListDatabaseNames(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	for _, db := range dbs {
		if db == Database("bucket") {
			t.Fatal("no template is built where it cannot be used")
		}
	}
}
