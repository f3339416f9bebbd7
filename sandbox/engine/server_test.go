package engine_test

import (
	"context"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/wire"
)

// startServer runs a fresh embedded server and connects the official
// driver to it: the engine is tested the way users reach it.
func startServer(t testing.TB) *mongo.Client {
	t.Helper()
	client, _ := startServerWith(t, engine.Options{})
	return client
}

// startServerWith runs a server whose engine has opts and returns a
// connected client and the server's URI, for tests that need more clients.
func startServerWith(t testing.TB, opts engine.Options) (*mongo.Client, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := wire.Start(ctx, wire.Options{Engine: engine.New(opts)})
	if err != nil {
		cancel()
		t.Fatalf("start server: %v", err)
	}
	client := connect(t, srv.URI())
	t.Cleanup(func() {
		_ = srv.Close()
		cancel()
	})
	return client, srv.URI()
}

// connect opens a client of its own on uri, disconnected when the test
// ends.
func connect(t testing.TB, uri string) *mongo.Client {
	t.Helper()
	client, err := mongo.Connect(options.Client().ApplyURI(uri).
		SetServerMonitoringMode(options.ServerMonitoringModePoll))
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	return client
}

func mustRun(t testing.TB, db *mongo.Database, cmd bson.D) bson.D {
	t.Helper()
	var out bson.D
	if err := db.RunCommand(context.Background(), cmd).Decode(&out); err != nil {
		t.Fatalf("%v: %v", cmd, err)
	}
	return out
}

// commandError runs cmd and returns the server's error, failing the test
// when the command succeeds.
func commandError(t testing.TB, db *mongo.Database, cmd bson.D) mongo.CommandError {
	t.Helper()
	err := db.RunCommand(context.Background(), cmd).Err()
	var ce mongo.CommandError
	if err == nil {
		t.Fatalf("%v: expected an error", cmd)
	}
	if !errorsAs(err, &ce) {
		t.Fatalf("%v: expected a CommandError, got %T %v", cmd, err, err)
	}
	return ce
}

func findAll(t testing.TB, coll *mongo.Collection, filter any, opts ...options.Lister[options.FindOptions]) []bson.D {
	t.Helper()
	cur, err := coll.Find(context.Background(), filter, opts...)
	if err != nil {
		t.Fatalf("find %v: %v", filter, err)
	}
	var out []bson.D
	if err := cur.All(context.Background(), &out); err != nil {
		t.Fatalf("find %v: %v", filter, err)
	}
	return out
}

func parseTime(s string) (bson.DateTime, error) {
	tm, err := time.Parse(time.RFC3339, s)
	return bson.NewDateTimeFromTime(tm), err
}
