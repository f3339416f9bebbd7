package sandbox

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func TestReadOnlyPolicy(t *testing.T) {
	p := policy{readOnly: true}
	bounded := func(db string, cmd ...bson.E) D {
		return cmdOn(db, append(cmd, e("maxTimeMS", int64(1000)))...)
	}
	agg := func(stages ...D) D {
		return bounded("shop", e("aggregate", "c"), e("pipeline", pipeline(stages...)), e("cursor", D{}))
	}
	for _, cmd := range []D{
		cmdOn("admin", e("hello", 1)),
		cmdOn("admin", e("buildInfo", 1)),
		bounded("admin", e("listDatabases", 1), e("nameOnly", true)),
		bounded("shop", e("find", "orders"), e("filter", D{})),
		bounded("shop", e("count", "orders")),
		bounded("shop", e("distinct", "orders"), e("key", "k")),
		bounded("shop", e("listCollections", 1)),
		bounded("shop", e("listIndexes", "orders")),
		bounded("shop", e("collStats", "orders")),
		bounded("shop", e("dbStats", 1)),
		bounded("shop", e("find", "system.profile")),
		cmdOn("shop", e("getMore", int64(7)), e("collection", "orders")),
		agg(D{e("$indexStats", D{})}),
		agg(D{e("$sample", D{e("size", 10)})}, D{e("$bucket", D{e("groupBy", "$n"), e("boundaries", A{0, 10})})}),
		agg(D{e("$facet", D{e("a", pipeline(D{e("$lookup", D{e("from", "d"), e("as", "x"), e("pipeline", pipeline(D{e("$unionWith", "e")}))})}))})}),
	} {
		if err := p.check(cmd); err != nil {
			t.Errorf("%v refused: %v", cmd, err)
		}
	}

	out := D{e("$out", "stolen")}
	merge := D{e("$merge", D{e("into", "stolen")})}
	for _, tc := range []struct {
		name string
		cmd  D
		why  string
	}{
		{"insert", bounded("shop", e("insert", "orders"), e("documents", A{D{e("x", 1)}})), "not one of its reads"},
		{"update", bounded("shop", e("update", "orders"), e("updates", A{})), "not one of its reads"},
		{"delete", bounded("shop", e("delete", "orders"), e("deletes", A{})), "not one of its reads"},
		{"drop", bounded("shop", e("drop", "orders")), "not one of its reads"},
		{"createIndexes", bounded("shop", e("createIndexes", "orders")), "not one of its reads"},
		{"mapReduce inline", bounded("shop", e("mapReduce", "orders"), e("out", D{e("inline", 1)})), "not one of its reads"},
		{"explain", bounded("shop", e("explain", D{e("find", "orders")}), e("verbosity", "executionStats")), "not one of its reads"},
		{"validate", bounded("shop", e("validate", "orders")), "not one of its reads"},
		{"profile", bounded("shop", e("profile", 2)), "not one of its reads"},
		{"snapshot", bounded("shop", e("schemalabSnapshot", "save")), "not one of its reads"},
		{"find without maxTimeMS", cmdOn("shop", e("find", "orders")), "no maxTimeMS"},
		{"aggregate without maxTimeMS", cmdOn("shop", e("aggregate", "orders"), e("pipeline", A{})), "no maxTimeMS"},
		{"two $db", append(bounded("shop", e("find", "orders")), e("$db", "admin")), "exactly one $db"},
		{"$out", agg(out), "`$out`"},
		{"$merge", agg(merge), "`$merge`"},
		{"$out in $facet", agg(D{e("$facet", D{e("a", pipeline(out))})}), "`$out`"},
		{"$out in $lookup", agg(D{e("$lookup", D{e("from", "d"), e("as", "x"), e("pipeline", pipeline(out))})}), "`$out`"},
		{"$merge in $unionWith", agg(D{e("$unionWith", D{e("coll", "d"), e("pipeline", pipeline(merge))})}), "`$merge`"},
		{"$out three deep", agg(D{e("$facet", D{e("a", pipeline(D{e("$lookup", D{e("from", "d"), e("as", "x"), e("pipeline", pipeline(D{e("$unionWith", D{e("coll", "e"), e("pipeline", pipeline(out))})}))})}))})}), "`$out`"},
		{"second copy of the pipeline", append(agg(), e("pipeline", pipeline(out))), "`$out`"},
		{"$out where no pipeline is read", append(bounded("shop", e("find", "orders")), e("let", D{e("p", pipeline(out))})), "`$out` writes"},
		{"server-wide stage", agg(D{e("$currentOp", D{})}), "`$currentOp`"},
	} {
		err := p.check(tc.cmd)
		if !errors.Is(err, ErrOutsideSandbox) || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%s: %v, want a refusal saying %q", tc.name, err, tc.why)
		}
	}

	// With a prefix (a classroom student's backend), the prefix rule
	// still applies on top.
	student := policy{prefix: "alice_", readOnly: true}
	if err := student.check(bounded("bob_x", e("find", "c"))); err == nil {
		t.Error("a confined read-only client read outside its prefix")
	}
	if err := student.check(bounded("alice_x", e("find", "c"))); err != nil {
		t.Errorf("a confined read-only client in its prefix: %v", err)
	}
}

// The attacker's view: a read-only client of a real server (outside the
// sandbox prefix, without --unsafe-any-db) tries every way of writing
// through the official driver; nothing reaches the server, and the
// database is the same afterwards.
func TestReadOnlyClientWritesNothing(t *testing.T) {
	uri, seed := sharedServer(t)
	b := openURI(t, Config{URI: uri})
	ro := newClientT(t, b, ClientOptions{ReadOnly: true})
	bg := context.Background()
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	shop := ro.Database("shop")
	orders := shop.Collection("orders")

	// It reads outside the prefix: nothing it can send writes.
	var doc bson.M
	if err := orders.FindOne(ctx, bson.D{}).Decode(&doc); err != nil || doc["total"] != 42.5 {
		t.Fatalf("read-only find in shop: %v, %v", doc, err)
	}
	names, err := ro.ListDatabaseNames(ctx, bson.D{})
	if err != nil || !slices.Contains(names, "shop") {
		t.Errorf("listDatabases: %v, %v", names, err)
	}
	// Without a deadline the driver sends no maxTimeMS, and the guard
	// refuses the unbounded read.
	if err := orders.FindOne(bg, bson.D{}).Err(); !refusedWith(err, "no maxTimeMS") {
		t.Errorf("find without maxTimeMS: %v", err)
	}

	out := bson.D{{Key: "$out", Value: "stolen"}}
	merge := bson.D{{Key: "$merge", Value: bson.D{{Key: "into", Value: "stolen"}}}}
	sub := func(p ...bson.D) bson.A {
		a := bson.A{}
		for _, s := range p {
			a = append(a, s)
		}
		return a
	}
	// As a command the aggregate carries the deadline's maxTimeMS, so
	// what refuses it is the write stage, wherever it hides.
	aggregate := func(stages ...bson.D) error {
		return shop.RunCommand(ctx, bson.D{{Key: "aggregate", Value: "orders"}, {Key: "pipeline", Value: sub(stages...)}, {Key: "cursor", Value: bson.D{}}}).Err()
	}
	attacks := map[string]func() error{
		"insertOne": func() error { _, err := orders.InsertOne(ctx, bson.D{{Key: "x", Value: 1}}); return err },
		"updateMany": func() error {
			_, err := orders.UpdateMany(ctx, bson.D{}, bson.D{{Key: "$set", Value: bson.D{{Key: "total", Value: 0}}}})
			return err
		},
		"deleteMany":       func() error { _, err := orders.DeleteMany(ctx, bson.D{}); return err },
		"findOneAndDelete": func() error { return orders.FindOneAndDelete(ctx, bson.D{}).Err() },
		"drop":             func() error { return orders.Drop(ctx) },
		"dropDatabase":     func() error { return shop.Drop(ctx) },
		"createIndex": func() error {
			_, err := orders.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "total", Value: 1}}})
			return err
		},
		"createCollection": func() error { return shop.CreateCollection(ctx, "stolen") },
		"explain executionStats": func() error {
			return shop.RunCommand(ctx, bson.D{{Key: "explain", Value: bson.D{{Key: "find", Value: "orders"}}}, {Key: "verbosity", Value: "executionStats"}}).Err()
		},
		"$out":   func() error { return aggregate(out) },
		"$merge": func() error { return aggregate(merge) },
		"$out in $facet": func() error {
			return aggregate(bson.D{{Key: "$facet", Value: bson.D{{Key: "a", Value: sub(out)}}}})
		},
		"$out in $lookup": func() error {
			return aggregate(bson.D{{Key: "$lookup", Value: bson.D{{Key: "from", Value: "orders"}, {Key: "as", Value: "x"}, {Key: "pipeline", Value: sub(out)}}}})
		},
		"$merge in $unionWith": func() error {
			return aggregate(bson.D{{Key: "$unionWith", Value: bson.D{{Key: "coll", Value: "orders"}, {Key: "pipeline", Value: sub(merge)}}}})
		},
		"$out in $unionWith in $lookup in $facet": func() error {
			union := bson.D{{Key: "$unionWith", Value: bson.D{{Key: "coll", Value: "orders"}, {Key: "pipeline", Value: sub(out)}}}}
			lookup := bson.D{{Key: "$lookup", Value: bson.D{{Key: "from", Value: "orders"}, {Key: "as", Value: "x"}, {Key: "pipeline", Value: sub(union)}}}}
			return aggregate(bson.D{{Key: "$facet", Value: bson.D{{Key: "a", Value: sub(lookup)}}}})
		},
		"$out through Collection.Aggregate": func() error { _, err := orders.Aggregate(ctx, mongo.Pipeline{out}); return err },
	}
	for name, attack := range attacks {
		err := attack()
		why := "this command is not one of its reads"
		if strings.Contains(name, "$") {
			why = "the stage `$"
		}
		if name == "$out through Collection.Aggregate" {
			// The driver sends no maxTimeMS there: refused for that first.
			why = "no maxTimeMS"
		}
		if !refusedWith(err, why) {
			t.Errorf("%s: %v, want the guard's refusal saying %q", name, err, why)
		}
	}
	assertUntouched(t, seed, "shop")
	idx, err := seed.Database("shop").Collection("orders").Indexes().ListSpecifications(bg)
	if err != nil || len(idx) != 1 {
		t.Errorf("shop.orders indexes after the attacks: %v, %v", idx, err)
	}
}

func refusedWith(err error, why string) bool {
	var ce mongo.CommandError
	return errors.As(err, &ce) && ce.Code == mongoerr.Unauthorized && strings.Contains(ce.Message, why)
}

// The embedded backend confines nobody, but a read-only client of it is
// still read-only.
func TestReadOnlyClientOfTheEmbeddedServer(t *testing.T) {
	b := openURI(t, Config{})
	ro := newClientT(t, b, ClientOptions{ReadOnly: true})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := insertErr(ro, "schemalab_x"); !refusedWith(err, "not one of its reads") {
		t.Errorf("insert through a read-only client of the embedded server: %v", err)
	}
	if _, err := ro.Database("schemalab_x").ListCollectionNames(ctx, bson.D{}, options.ListCollections().SetNameOnly(true)); err != nil {
		t.Errorf("listCollections: %v", err)
	}
}
