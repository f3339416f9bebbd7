package sandbox

import (
	"context"
	"testing"

	"github.com/schemalab/schemalab/sandbox/wire"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// The guard's cost per message: a find, an aggregate with a sub-pipeline,
// and an insert of 1,000 documents sent as a document sequence, as the
// driver sends insertMany.
func BenchmarkGuardCheckMessage(b *testing.B) {
	find := opMsg(1, 0, mustMarshal(b, cmdOn("schemalab_x", e("find", "c"), e("filter", D{e("a", D{e("$gt", 5)})}), e("limit", 20))))
	agg := opMsg(1, 0, mustMarshal(b, cmdOn("schemalab_x", e("aggregate", "c"), e("pipeline", A{
		D{e("$match", D{e("a", 1)})},
		D{e("$lookup", D{e("from", "d"), e("pipeline", A{D{e("$match", D{})}}), e("as", "x")})},
		D{e("$group", D{e("_id", "$a"), e("n", D{e("$sum", 1)})})},
	}), e("cursor", D{}))))
	var docs [][]byte
	for i := range 1000 {
		docs = append(docs, mustMarshal(b, D{e("_id", i), e("sensorId", i%100), e("temperature", 20.5), e("status", "ok")}))
	}
	insert := opMsg(1, 0, mustMarshal(b, cmdOn("schemalab_x", e("insert", "readings"), e("ordered", true))), seq{"documents", docs})
	p := policy{prefix: "schemalab_"}
	for _, bc := range []struct {
		name string
		msg  []byte
	}{{"find", find}, {"aggregate", agg}, {"insert1000", insert}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.msg)))
			for b.Loop() {
				if reply, err := p.checkMessage(bc.msg); reply != nil || err != nil {
					b.Fatal("refused")
				}
			}
		})
	}
}

// A confined student's findOne through the driver, checked by the server
// (ConfineCommand at the wire server's chokepoint) and, in the guarded
// case, by the client-side guard as well; against the same server's
// room login, which nothing checks.
func BenchmarkConfinedFindOne(b *testing.B) {
	srv, err := wire.Start(context.Background(), wire.Options{RequireAuth: true, Confine: ConfineCommand})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = srv.Close() })
	for _, u := range []struct {
		name, prefix string
	}{{"room", ""}, {"alice", "alice_"}} {
		if err := srv.AddUser(u.name, u.name+"-pw", wire.Account{Prefix: u.prefix}); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	uri := func(name string) string {
		return "mongodb://" + name + ":" + name + "-pw@" + serverHost(srv) + "/?authSource=admin"
	}
	seed, err := mongo.Connect(options.Client().ApplyURI(uri("room")))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = seed.Disconnect(ctx) })
	docs := make([]any, 1000)
	for i := range docs {
		docs[i] = bson.D{{Key: "_id", Value: int32(i)}, {Key: "name", Value: "item"}}
	}
	if _, err := seed.Database("alice_db").Collection("c").InsertMany(ctx, docs); err != nil {
		b.Fatal(err)
	}
	backend, err := Open(ctx, Config{URI: uri("room")})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = backend.Close() })
	alice, err := mongo.Connect(options.Client().ApplyURI(uri("alice")))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = alice.Disconnect(ctx) })
	guarded, err := backend.NewClient(ctx, ClientOptions{Prefix: "alice_", Username: "alice", Password: "alice-pw"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = guarded.Disconnect(ctx) })
	for _, bc := range []struct {
		name   string
		client *mongo.Client
	}{{"room", seed}, {"server", alice}, {"server+guard", guarded}} {
		b.Run(bc.name, func(b *testing.B) {
			coll := bc.client.Database("alice_db").Collection("c")
			i := 0
			for b.Loop() {
				if err := coll.FindOne(ctx, bson.D{{Key: "_id", Value: int32(i % 1000)}}).Err(); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
