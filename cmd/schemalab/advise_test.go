package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/wire"
)

// advise on a real server reads a database outside the sandbox prefix
// without --unsafe-any-db, and without --db lists what it can read and
// exits 2 when it cannot ask.
func TestAdviseCommand(t *testing.T) {
	ctx := context.Background()
	srv, err := wire.Start(ctx, wire.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	seed, err := mongo.Connect(options.Client().ApplyURI(srv.URI()))
	if err != nil {
		t.Fatal(err)
	}
	defer seed.Disconnect(ctx)
	// --uri gives up after 5 s unless the URI says otherwise; a machine
	// busy with the rest of CI can take longer to answer a first hello.
	uri := srv.URI() + "?serverSelectionTimeoutMS=30000"
	var books []any
	for i := range 300 {
		customers := bson.A{}
		for k := range 5 + i%10 {
			customers = append(customers, k)
		}
		books = append(books, bson.D{{Key: "customers", Value: customers}})
	}
	books = append(books, bson.D{{Key: "customers", Value: make(bson.A, 4000)}})
	if _, err := seed.Database("shop").Collection("books").InsertMany(ctx, books); err != nil {
		t.Fatal(err)
	}
	noEnv := func(string) string { return "" }

	var out, errb bytes.Buffer
	if code := run(ctx, []string{"advise", "--uri", uri, "--db", "shop", "--format", "json"}, noEnv, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var rep struct {
		Database string
		Findings []struct{ Pattern, Collection, Field string }
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if rep.Database != "shop" || len(rep.Findings) != 1 || rep.Findings[0].Pattern != "outlier" || rep.Findings[0].Field != "customers" {
		t.Errorf("report: %+v", rep)
	}

	out.Reset()
	errb.Reset()
	if code := run(ctx, []string{"advise", "--uri", uri}, noEnv, &out, &errb); code != 2 ||
		!strings.Contains(errb.String(), "1. shop") || !strings.Contains(errb.String(), "pass --db NAME") {
		t.Errorf("without --db: exit %d, stderr %q", code, errb.String())
	}
	if code := run(ctx, []string{"advise", "--format", "yaml"}, noEnv, &out, &errb); code != 2 {
		t.Errorf("--format yaml: exit %d", code)
	}
}
