package sandbox_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/sandbox"
	"github.com/schemalab/schemalab/sandbox/sandboxtest"
)

// TestLessonsThroughURIOnSharedServer runs every built-in lesson through
// the --uri path against an embedded server that stands in for a shared
// classroom server, which also holds a database that is not the sandbox's.
func TestLessonsThroughURIOnSharedServer(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs every built-in lesson through --uri (about 15 s)")
	}
	checkLessonsOn(t, sandboxtest.Start(t).URI(), "alice_")
}

// TestLessonsOnRealMongoDB is the same against a real server.
func TestLessonsOnRealMongoDB(t *testing.T) {
	uri := os.Getenv("SCHEMALAB_TEST_URI")
	if uri == "" {
		t.Skip("no real MongoDB URI given (set SCHEMALAB_TEST_URI)")
	}
	// A fresh prefix per run keeps concurrent runs and earlier leftovers
	// apart; the test's own databases are dropped at the end.
	var b [4]byte
	_, _ = rand.Read(b[:])
	checkLessonsOn(t, uri, "schemalab_test"+hex.EncodeToString(b[:])+"_")
}

func checkLessonsOn(t *testing.T, uri, prefix string) {
	ctx := context.Background()
	cat, errs := lessons.Load(content.FS)
	for _, err := range errs {
		t.Errorf("load: %v", err)
	}
	be, err := sandbox.Open(ctx, sandbox.Config{URI: uri, DBPrefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	t.Logf("backend: %s", be.Status())

	// The bystander is the learner's neighbour on the shared server.
	bystander := prefix + "bystander_" // not <prefix><lesson-id> of any lesson
	outside := "schemalab_outside_" + prefix
	seed, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		t.Fatal(err)
	}
	defer seed.Disconnect(ctx)
	for _, db := range []string{outside, bystander} {
		if _, err := seed.Database(db).Collection("orders").InsertOne(ctx, bson.D{{Key: "_id", Value: int32(7)}}); err != nil {
			t.Fatal(err)
		}
	}
	defer func() {
		for _, db := range []string{outside, bystander} {
			_ = seed.Database(db).Drop(ctx)
		}
		for _, l := range cat.Lessons {
			_ = seed.Database(be.DatabaseName(l.ID)).Drop(ctx)
		}
	}()
	untouched := func(when string) {
		t.Helper()
		for _, db := range []string{outside, bystander} {
			n, err := seed.Database(db).Collection("orders").CountDocuments(ctx, bson.D{})
			colls, _ := seed.Database(db).ListCollectionNames(ctx, bson.D{})
			if err != nil || n != 1 || len(colls) != 1 {
				t.Errorf("%s: %s changed: %d documents, collections %v, %v", when, db, n, colls, err)
			}
		}
	}

	if err := be.ResetDB(ctx, bystander); err == nil {
		t.Errorf("reset dropped %s, which schemalab did not create", bystander)
	}
	if err := be.CheckDB(outside); err == nil {
		t.Errorf("CheckDB allowed %s", outside)
	}
	for _, l := range cat.Lessons {
		t.Run(l.ID, func(t *testing.T) {
			db := be.DatabaseName(l.ID)
			if err := be.ResetDB(ctx, db); err != nil {
				t.Fatal(err)
			}
			r := lessons.NewSession(&lessons.Sandbox{Connect: be.Connector(), Prefix: be.Prefix(), ResetDB: be.ResetDB}, l, lessons.SessionOptions{})
			defer r.Close()
			if r.Database() != db {
				t.Fatalf("the session uses %s, the sandbox %s", r.Database(), db)
			}
			if _, err := r.Do(ctx, lessons.Request{Op: lessons.OpReset}); err != nil {
				t.Fatal(err)
			}
			for i := range l.Steps {
				res, err := r.Do(ctx, lessons.Request{Op: lessons.OpCheck, Step: i})
				if err != nil {
					t.Fatalf("step %d: %v", i+1, err)
				}
				for _, f := range res.Failures {
					t.Errorf("step %d %q (%s:%d): %s", i+1, l.Steps[i].Title, l.File, f.Line, f.Msg)
				}
			}
			untouched("after lesson " + l.ID)
			if err := be.ResetDB(ctx, db); err != nil {
				t.Errorf("reset after the lesson: %v", err)
			}
			untouched("after resetting " + l.ID)
		})
	}
}
