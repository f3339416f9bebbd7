package sandbox

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/wire"
)

// roomServer is a classroom's server: logins required, each student
// confined by the guard's own check, and a room login with no prefix.
func roomServer(t *testing.T) *wire.Server {
	t.Helper()
	srv, err := wire.Start(context.Background(), wire.Options{RequireAuth: true, Confine: ConfineCommand})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	for _, u := range []struct {
		name string
		a    wire.Account
	}{{"room", wire.Account{}}, {"alice", wire.Account{Prefix: "alice_"}}, {"bob", wire.Account{Prefix: "bob_"}}} {
		if err := srv.AddUser(u.name, u.name+"-pw", u.a); err != nil {
			t.Fatal(err)
		}
	}
	return srv
}

func loginURI(srv *wire.Server, name string) string {
	return fmt.Sprintf("mongodb://%s:%s-pw@%s/?authSource=admin", name, name, serverHost(srv))
}

// serverHost is the host:port of srv's connection string.
func serverHost(srv *wire.Server) string {
	return strings.TrimSuffix(strings.TrimPrefix(srv.URI(), "mongodb://"), "/")
}

// The server refuses a student's command exactly as the client-side guard
// does, same code and same words, for every way of reaching another
// student's database: the server is the first wall now, and a student's
// process that bypassed its guard (or a hand-made client) meets it.
func TestServerConfinesAsTheGuardDoes(t *testing.T) {
	srv := roomServer(t)
	ctx := context.Background()
	room, err := mongo.Connect(options.Client().ApplyURI(loginURI(srv, "room")))
	if err != nil {
		t.Fatal(err)
	}
	defer room.Disconnect(ctx)
	if _, err := room.Database("bob_db").Collection("people").InsertOne(ctx, bson.D{{Key: "secret", Value: "bob's"}}); err != nil {
		t.Fatal(err)
	}
	// A client without a guard, logged in as alice: only the server
	// stands between her and bob.
	bare, err := mongo.Connect(options.Client().ApplyURI(loginURI(srv, "alice")))
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Disconnect(ctx)
	// Alice's own process: the guard, then the server.
	b := openURI(t, Config{URI: loginURI(srv, "room")})
	guarded := newClientT(t, b, ClientOptions{Prefix: "alice_", Username: "alice", Password: "alice-pw"})

	agg := func(stages ...D) D {
		return D{e("aggregate", "c"), e("pipeline", pipeline(stages...)), e("cursor", D{})}
	}
	bobPeople := D{e("db", "bob_db"), e("coll", "people")}
	for _, tc := range []struct {
		name, db string
		cmd      D
	}{
		{"find in bob's database", "bob_db", D{e("find", "people")}},
		{"drop bob's database", "bob_db", D{e("dropDatabase", 1)}},
		{"insert into admin", "admin", D{e("insert", "system.users"), e("documents", A{D{e("user", "x")}})}},
		{"$lookup from bob's database", "alice_db", agg(D{e("$lookup", D{e("from", bobPeople), e("localField", "a"), e("foreignField", "b"), e("as", "x")})})},
		{"$unionWith bob's database", "alice_db", agg(D{e("$unionWith", D{e("coll", bobPeople)})})},
		{"$graphLookup from bob's database", "alice_db", agg(D{e("$graphLookup", D{e("from", bobPeople), e("startWith", "$a"), e("connectFromField", "a"), e("connectToField", "b"), e("as", "x")})})},
		{"$out to bob's database", "alice_db", agg(D{e("$out", bobPeople)})},
		{"$merge into bob's database", "alice_db", agg(D{e("$merge", D{e("into", bobPeople)})})},
		{"$out inside $facet", "alice_db", agg(D{e("$facet", D{e("a", pipeline(D{e("$unionWith", D{e("coll", bobPeople)})}))})})},
		{"explain of a $lookup", "alice_db", D{e("explain", agg(D{e("$lookup", D{e("from", bobPeople), e("as", "x"), e("pipeline", pipeline())})})), e("verbosity", "queryPlanner")}},
		{"a view over bob's data", "alice_db", D{e("create", "v"), e("viewOn", "c"), e("pipeline", pipeline(D{e("$unionWith", D{e("coll", bobPeople)})}))}},
		{"rename bob's collection into hers", "admin", D{e("renameCollection", "bob_db.people"), e("to", "alice_db.stolen")}},
		{"restore bob's snapshot", "alice_db", D{e("schemalabSnapshot", "restore"), e("fromDb", "bob_db"), e("name", "s")}},
		{"serverStatus", "admin", D{e("serverStatus", 1)}},
		{"currentOp stage", "admin", agg(D{e("$currentOp", D{})})},
		{"getMore in bob's database", "bob_db", D{e("getMore", int64(1234)), e("collection", "people")}},
		{"killCursors in bob's database", "bob_db", D{e("killCursors", "people"), e("cursors", A{int64(1234)})}},
		{"update pipeline reading bob's database", "alice_db", D{e("update", "c"), e("updates", A{D{e("q", D{}), e("u", pipeline(D{e("$unionWith", D{e("coll", bobPeople)})}))}})}},
	} {
		serverErr := bare.Database(tc.db).RunCommand(ctx, tc.cmd).Err()
		guardErr := guarded.Database(tc.db).RunCommand(ctx, tc.cmd).Err()
		var s, g mongo.CommandError
		if !errors.As(serverErr, &s) || s.Code != mongoerr.Unauthorized || s.Name != "Unauthorized" {
			t.Errorf("%s: the server answered %v", tc.name, serverErr)
			continue
		}
		if !errors.As(guardErr, &g) || g.Code != s.Code || g.Message != s.Message {
			t.Errorf("%s: the server says %q, the guard %v", tc.name, s.Message, guardErr)
		}
	}
	// Nothing of bob's moved.
	n, err := room.Database("bob_db").Collection("people").CountDocuments(ctx, bson.D{})
	if err != nil || n != 1 {
		t.Fatalf("bob's data: %d %v", n, err)
	}
	// Alice works in her own databases through both.
	for _, c := range []*mongo.Client{bare, guarded} {
		if _, err := c.Database("alice_db").Collection("c").InsertOne(ctx, bson.D{{Key: "a", Value: 1}}); err != nil {
			t.Fatalf("alice in her database: %v", err)
		}
	}
	var status bson.D
	if err := guarded.Database("admin").RunCommand(ctx, bson.D{{Key: "connectionStatus", Value: 1}}).Decode(&status); err != nil {
		t.Fatalf("connectionStatus: %v", err)
	}
}

// A wrong password through the backend's client options fails to connect,
// with mongod's error.
func TestClientLoginFailure(t *testing.T) {
	srv := roomServer(t)
	b := openURI(t, Config{URI: loginURI(srv, "room")})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := b.NewClient(ctx, ClientOptions{Prefix: "alice_", Username: "alice", Password: "wrong"})
	if err == nil || !strings.Contains(err.Error(), "(AuthenticationFailed) Authentication failed.") {
		t.Fatalf("wrong password: %v", err)
	}
}
