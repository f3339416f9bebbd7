package sandbox

import (
	"context"
	"errors"
	"slices"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

func TestWriteTargets(t *testing.T) {
	type D = bson.D
	type A = bson.A
	for _, tc := range []struct {
		name string
		db   string
		cmd  D
		want []string
	}{
		{"find reads", "shop", D{{Key: "find", Value: "orders"}}, nil},
		{"insert", "schemalab_x", D{{Key: "insert", Value: "c"}, {Key: "documents", Value: A{}}}, []string{"schemalab_x"}},
		{"dropDatabase", "shop", D{{Key: "dropDatabase", Value: 1}}, []string{"shop"}},
		{"aggregate without writes", "schemalab_x", D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: A{D{{Key: "$match", Value: D{}}}}}}, nil},
		{"$out to a collection", "schemalab_x", D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: A{D{{Key: "$out", Value: "o"}}}}}, []string{"schemalab_x"}},
		{"$out to another database", "schemalab_x", D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: A{D{{Key: "$out", Value: D{{Key: "db", Value: "shop"}, {Key: "coll", Value: "o"}}}}}}}, []string{"shop"}},
		{"$merge into another database", "schemalab_x", D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: A{D{{Key: "$merge", Value: D{{Key: "into", Value: D{{Key: "db", Value: "shop"}, {Key: "coll", Value: "o"}}}}}}}}}, []string{"shop"}},
		{"$merge into a collection", "schemalab_x", D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: A{D{{Key: "$merge", Value: D{{Key: "into", Value: "o"}}}}}}}, []string{"schemalab_x"}},
		{"$out inside $facet", "schemalab_x", D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: A{D{{Key: "$facet", Value: D{{Key: "a", Value: A{D{{Key: "$out", Value: D{{Key: "db", Value: "shop"}, {Key: "coll", Value: "o"}}}}}}}}}}}}, []string{"shop"}},
		{"renameCollection across databases", "admin", D{{Key: "renameCollection", Value: "schemalab_x.a"}, {Key: "to", Value: "shop.a"}}, []string{"schemalab_x", "shop"}},
		{"mapReduce out db", "schemalab_x", D{{Key: "mapReduce", Value: "c"}, {Key: "out", Value: D{{Key: "replace", Value: "o"}, {Key: "db", Value: "shop"}}}}, []string{"shop"}},
		{"mapReduce inline", "schemalab_x", D{{Key: "mapReduce", Value: "c"}, {Key: "out", Value: D{{Key: "inline", Value: 1}}}}, nil},
		{"bulkWrite", "admin", D{{Key: "bulkWrite", Value: 1}, {Key: "ops", Value: A{}}, {Key: "nsInfo", Value: A{D{{Key: "ns", Value: "shop.orders"}}}}}, []string{"shop", "admin"}},
		{"explain of $out", "schemalab_x", D{{Key: "explain", Value: D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: A{D{{Key: "$out", Value: D{{Key: "db", Value: "shop"}, {Key: "coll", Value: "o"}}}}}}}}}, []string{"shop"}},
		{"shutdown", "admin", D{{Key: "shutdown", Value: 1}}, []string{"admin"}},
	} {
		if got := WriteTargets(tc.db, tc.cmd); !slices.Equal(got, tc.want) {
			t.Errorf("%s: WriteTargets = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestCheckCommand(t *testing.T) {
	uri, _ := sharedServer(t)
	b := openURI(t, Config{URI: uri})
	out := bson.D{{Key: "aggregate", Value: "c"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$out", Value: bson.D{{Key: "db", Value: "shop"}, {Key: "coll", Value: "o"}}}}}}}
	if err := b.CheckCommand("schemalab_x", out); !errors.Is(err, ErrOutsideSandbox) {
		t.Errorf("$out to shop: %v", err)
	}
	if err := b.CheckCommand("schemalab_x", bson.D{{Key: "insert", Value: "c"}}); err != nil {
		t.Errorf("insert in the sandbox: %v", err)
	}
	if err := b.CheckCommand("admin", bson.D{{Key: "listDatabases", Value: 1}}); err != nil {
		t.Errorf("a read on admin: %v", err)
	}
	embedded, err := Open(context.Background(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer embedded.Close()
	if err := embedded.CheckCommand("schemalab_x", out); err != nil {
		t.Errorf("embedded: %v", err)
	}
}
