package sandbox

import (
	"context"
	"errors"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/sandboxtest"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// sharedServer starts an embedded server standing in for a classroom's
// MongoDB and seeds a database that is not the sandbox's ("shop") and a
// prefixed one schemalab did not create.
func sharedServer(t *testing.T) (uri string, seed *mongo.Client) {
	t.Helper()
	ctx := context.Background()
	srv := sandboxtest.Start(t)
	seed = srv.Client(t)
	for _, db := range []string{"shop", "schemalab_theirs"} {
		if _, err := seed.Database(db).Collection("orders").InsertOne(ctx, bson.D{{Key: "_id", Value: int32(1)}, {Key: "total", Value: 42.5}}); err != nil {
			t.Fatal(err)
		}
	}
	return srv.URI(), seed
}

func assertUntouched(t *testing.T, seed *mongo.Client, db string) {
	t.Helper()
	var doc bson.D
	err := seed.Database(db).Collection("orders").FindOne(context.Background(), bson.D{{Key: "_id", Value: int32(1)}}).Decode(&doc)
	if err != nil {
		t.Fatalf("%s.orders lost its document: %v", db, err)
	}
	colls, _ := seed.Database(db).ListCollectionNames(context.Background(), bson.D{})
	if len(colls) != 1 {
		t.Errorf("%s now holds %v, want only orders", db, colls)
	}
}

func openURI(t *testing.T, cfg Config) *Backend {
	t.Helper()
	b, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func TestURIBackendDescribesServer(t *testing.T) {
	uri, _ := sharedServer(t)
	b := openURI(t, Config{URI: uri})
	host := strings.TrimSuffix(strings.TrimPrefix(uri, "mongodb://"), "/")
	if b.Kind != KindURI || b.Host != host || b.Version != "8.0.4" || b.Topology != "standalone" {
		t.Errorf("Kind %q Host %q Version %q Topology %q", b.Kind, b.Host, b.Version, b.Topology)
	}
	if want := "MongoDB 8.0.4, standalone, at " + host; b.Status() != want {
		t.Errorf("Status() = %q, want %q", b.Status(), want)
	}
	if b.Prefix() != vocab.DefaultPrefix || b.DatabaseName("bucket") != "schemalab_bucket" {
		t.Errorf("Prefix %q, DatabaseName %q", b.Prefix(), b.DatabaseName("bucket"))
	}
}

func TestCheckDB(t *testing.T) {
	uri, _ := sharedServer(t)
	b := openURI(t, Config{URI: uri, DBPrefix: "alice_"})
	for _, name := range []string{"alice_bucket", "alice_x"} {
		if err := b.CheckDB(name); err != nil {
			t.Errorf("CheckDB(%q) = %v", name, err)
		}
	}
	for _, name := range []string{"shop", "schemalab_bucket", "alice_", "Alice_bucket", "admin", "local", "config", ""} {
		err := b.CheckDB(name)
		if !errors.Is(err, ErrOutsideSandbox) {
			t.Errorf("CheckDB(%q) = %v, want a refusal", name, err)
		}
	}
	want := "schemalab: refusing database `shop`: outside the sandbox prefix `alice_` (pass --unsafe-any-db to allow)"
	if err := b.CheckDB("shop"); err == nil || err.Error() != want {
		t.Errorf("CheckDB(shop) = %v, want %s", err, want)
	}

	unsafe := openURI(t, Config{URI: uri, UnsafeAnyDB: true})
	embedded := openURI(t, Config{})
	for _, be := range []*Backend{unsafe, embedded} {
		if err := be.CheckDB("shop"); err != nil {
			t.Errorf("%s backend (unsafe %v): CheckDB(shop) = %v", be.Kind, be.unsafeAnyDB, err)
		}
	}
}

func TestResetOnSharedServer(t *testing.T) {
	ctx := context.Background()
	uri, seed := sharedServer(t)
	b := openURI(t, Config{URI: uri})

	if err := b.ResetDB(ctx, "shop"); err == nil || !strings.Contains(err.Error(), "only databases starting with the sandbox prefix") {
		t.Errorf("ResetDB(shop) = %v", err)
	}
	err := b.ResetDB(ctx, "schemalab_theirs")
	if !errors.Is(err, ErrNotCreatedBySchemalab) {
		t.Fatalf("ResetDB of an unmarked prefixed database = %v", err)
	}
	for _, want := range []string{`"schemalab_theirs"`, "orders", "no _schemalab marker", "schemalab did not create it"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q lacks %q", err, want)
		}
	}

	// A lesson database: created and marked by reset, dropped by the next.
	const lesson = "schemalab_bucket"
	if err := b.ResetDB(ctx, lesson); err != nil {
		t.Fatal(err)
	}
	var marker struct {
		ID      string `bson:"_id"`
		Version string `bson:"version"`
		Prefix  string `bson:"prefix"`
	}
	if err := seed.Database(lesson).Collection(vocab.MarkerCollection).FindOne(ctx, bson.D{}).Decode(&marker); err != nil {
		t.Fatalf("no marker after reset: %v", err)
	}
	if marker.ID != "schemalab" || marker.Version == "" || marker.Prefix != vocab.DefaultPrefix {
		t.Errorf("marker %+v", marker)
	}
	if _, err := b.Client.Database(lesson).Collection("readings").InsertOne(ctx, bson.D{{Key: "v", Value: int32(1)}}); err != nil {
		t.Fatal(err)
	}

	// A later run (a new Backend) trusts the marker.
	later := openURI(t, Config{URI: uri})
	if err := later.ResetDB(ctx, lesson); err != nil {
		t.Fatalf("reset of a marked database: %v", err)
	}
	colls, _ := seed.Database(lesson).ListCollectionNames(ctx, bson.D{})
	if len(colls) != 1 || colls[0] != vocab.MarkerCollection {
		t.Errorf("after reset %s holds %v, want only the marker", lesson, colls)
	}

	// Within one run the database stays ours even if the learner dropped
	// it and refilled it; another run refuses it then.
	if err := later.Client.Database(lesson).Drop(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := later.Client.Database(lesson).Collection("readings").InsertOne(ctx, bson.D{{Key: "v", Value: int32(2)}}); err != nil {
		t.Fatal(err)
	}
	if err := later.ResetDB(ctx, lesson); err != nil {
		t.Errorf("reset within the run that created it: %v", err)
	}

	assertUntouched(t, seed, "shop")
	assertUntouched(t, seed, "schemalab_theirs")
}

func TestEmbeddedResetWritesNoMarker(t *testing.T) {
	ctx := context.Background()
	b := openURI(t, Config{})
	if _, err := b.Client.Database("schemalab_tree").Collection("c").InsertOne(ctx, bson.D{{Key: "a", Value: int32(1)}}); err != nil {
		t.Fatal(err)
	}
	if err := b.ResetDB(ctx, "schemalab_tree"); err != nil {
		t.Fatal(err)
	}
	colls, _ := b.Client.Database("schemalab_tree").ListCollectionNames(ctx, bson.D{})
	if len(colls) != 0 {
		t.Errorf("after reset the embedded database holds %v", colls)
	}
}

func TestValidatePrefix(t *testing.T) {
	for _, p := range []string{"schemalab_", "alice_", "x"} {
		if err := ValidatePrefix(p); err != nil {
			t.Errorf("ValidatePrefix(%q) = %v", p, err)
		}
	}
	for _, p := range []string{"", "a.b", "a b", "a/b", "a$", strings.Repeat("x", 63)} {
		if err := ValidatePrefix(p); err == nil {
			t.Errorf("ValidatePrefix(%q) accepted", p)
		}
	}
	if _, err := Open(context.Background(), Config{DBPrefix: "a.b"}); err == nil {
		t.Error("Open accepted --db-prefix a.b")
	}
}

func TestOpenKinds(t *testing.T) {
	if _, err := Open(context.Background(), Config{Kind: KindURI}); err == nil || !strings.Contains(err.Error(), "--uri or set MONGODB_URI") {
		t.Errorf("uri without URI: %v", err)
	}
	if _, err := Open(context.Background(), Config{Kind: "docker"}); err == nil {
		t.Error("unknown kind accepted")
	}
	b := openURI(t, Config{Kind: KindEmbedded, URI: "mongodb://127.0.0.1:1/"})
	if b.Kind != KindEmbedded || !strings.HasPrefix(b.Status(), "embedded sandbox (MongoDB 8.0.4-compatible)") {
		t.Errorf("explicit embedded with a URI: Kind %q Status %q", b.Kind, b.Status())
	}
}

func TestStatusWarnsOfOldServers(t *testing.T) {
	b := &Backend{Kind: KindURI, Version: "5.0.3", Topology: "replica set rs0", Host: "db.example.com:27017"}
	if want := "MongoDB 5.0.3, replica set rs0, at db.example.com:27017 (older than 6.0: some steps may fail)"; b.Status() != want {
		t.Errorf("Status() = %q, want %q", b.Status(), want)
	}
}
