package wire

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// benchClient is a driver client of a fresh embedded server without users,
// the single-learner setup, with a collection of 1,000 small documents.
func benchClient(b *testing.B) *mongo.Collection {
	b.Helper()
	srv, err := Start(context.Background(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Close() })
	client, err := mongo.Connect(options.Client().ApplyURI(srv.URI()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { client.Disconnect(context.Background()) })
	coll := client.Database("bench").Collection("c")
	docs := make([]any, 1000)
	for i := range docs {
		docs[i] = bson.D{{Key: "_id", Value: int32(i)}, {Key: "name", Value: "item"}, {Key: "qty", Value: int32(i % 7)}}
	}
	if _, err := coll.InsertMany(context.Background(), docs); err != nil {
		b.Fatal(err)
	}
	return coll
}

// One findOne by _id through the driver: a command's round trip through
// the wire server, which authentication must not slow down when there are
// no users.
func BenchmarkFindOneRoundTrip(b *testing.B) {
	coll := benchClient(b)
	ctx := context.Background()
	b.ResetTimer()
	for i := range b.N {
		if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: int32(i % 1000)}}).Err(); err != nil {
			b.Fatal(err)
		}
	}
}

// One insertOne through the driver.
func BenchmarkInsertOneRoundTrip(b *testing.B) {
	coll := benchClient(b)
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		if _, err := coll.InsertOne(ctx, bson.D{{Key: "name", Value: "item"}, {Key: "qty", Value: int32(3)}}); err != nil {
			b.Fatal(err)
		}
	}
}

// A login: a new client connects, authenticates with SCRAM-SHA-256
// (15,000 PBKDF2 iterations on the client side, as mongod's default
// credentials make it do) and pings. What a classroom student's process
// pays once at start.
func BenchmarkLogin(b *testing.B) {
	srv := startAuthServer(b, Options{})
	addUser(b, srv, "alice", "s3cret", Account{Prefix: "alice_"})
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		client, err := mongo.Connect(options.Client().ApplyURI(userURI(srv, "alice", "s3cret")))
		if err != nil {
			b.Fatal(err)
		}
		if err := client.Ping(ctx, nil); err != nil {
			b.Fatal(err)
		}
		client.Disconnect(ctx)
	}
}

// AddUser makes a user's SCRAM-SHA-256 credentials.
func BenchmarkAddUser(b *testing.B) {
	srv := startAuthServer(b, Options{})
	b.ResetTimer()
	for i := range b.N {
		name := "u" + string(rune('a'+i%26)) + bson.NewObjectID().Hex()
		if err := srv.AddUser(name, "pw", Account{}); err != nil {
			b.Fatal(err)
		}
	}
}
