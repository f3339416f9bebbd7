package wire

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// confineByDB stands in for the sandbox guard (which package wire cannot
// import): handshake commands run anywhere, everything else on <prefix>*.
func confineByDB(prefix string, cmd bson.D) error {
	switch cmd[0].Key {
	case "hello", "isMaster", "ismaster", "ping", "buildInfo", "endSessions":
		return nil
	}
	db, _ := databaseOf(cmd)
	if !vocab.InPrefix(db, prefix) {
		return fmt.Errorf("schemalab: refusing `%s` on database `%s`: outside the sandbox prefix `%s`", cmd[0].Key, db, prefix)
	}
	return nil
}

func startAuthServer(t testing.TB, opts Options) *Server {
	t.Helper()
	opts.RequireAuth = true
	if opts.Confine == nil {
		opts.Confine = confineByDB
	}
	return startTestServer(t, opts)
}

func userURI(srv *Server, name, password string) string {
	return fmt.Sprintf("mongodb://%s:%s@%s/?authSource=admin&authMechanism=SCRAM-SHA-256", name, password, srv.Addr())
}

func connectAs(t testing.TB, srv *Server, name, password string) *mongo.Client {
	t.Helper()
	client, err := mongo.Connect(options.Client().ApplyURI(userURI(srv, name, password)).SetServerSelectionTimeout(5 * time.Second))
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { client.Disconnect(context.Background()) })
	return client
}

func serverCode(err error) int32 {
	var ce mongo.CommandError
	if errors.As(err, &ce) {
		return ce.Code
	}
	var we mongo.WriteException
	if errors.As(err, &we) && len(we.WriteErrors) > 0 {
		return int32(we.WriteErrors[0].Code)
	}
	return 0
}

func TestLoginAndConfinementThroughTheDriver(t *testing.T) {
	srv := startAuthServer(t, Options{})
	if err := srv.AddUser("alice", "s3cret", Account{Prefix: "alice_"}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	alice := connectAs(t, srv, "alice", "s3cret")
	if _, err := alice.Database("alice_db").Collection("c").InsertOne(ctx, bson.D{{Key: "x", Value: 1}}); err != nil {
		t.Fatalf("insert in own prefix: %v", err)
	}
	_, err := alice.Database("bob_db").Collection("c").InsertOne(ctx, bson.D{{Key: "x", Value: 1}})
	if serverCode(err) != mongoerr.Unauthorized {
		t.Fatalf("insert outside prefix: %v", err)
	}
	t.Logf("refusal: %v", err)

	wrong := connectAs(t, srv, "alice", "wrong")
	err = wrong.Ping(ctx, nil)
	t.Logf("wrong password: %v", err)
	if err == nil {
		t.Fatal("wrong password logged in")
	}

	anon := connectDriver(t, srv)
	_, err = anon.Database("alice_db").Collection("c").CountDocuments(ctx, bson.D{})
	t.Logf("anonymous: %v", err)
	if serverCode(err) != mongoerr.Unauthorized {
		t.Fatalf("anonymous count: %v", err)
	}
}
