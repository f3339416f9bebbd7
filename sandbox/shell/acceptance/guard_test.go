package acceptance

import (
	"context"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox"
	"github.com/schemalab/schemalab/sandbox/shell"
)

// On a shared server the shell must not change anything outside the
// sandbox's databases, whatever the learner types: the backend's client
// is confined, and the shell needs no safety options of its own.
func TestGuardKeepsWritesInsideAllowedDatabases(t *testing.T) {
	client, srv := startServer(t)
	ctx := context.Background()
	if _, err := client.Database("shop").Collection("orders").InsertOne(ctx, bson.D{{Key: "_id", Value: 1}}); err != nil {
		t.Fatal(err)
	}
	// The server is reached by URI, as a shared classroom server would be.
	be, err := sandbox.Open(ctx, sandbox.Config{URI: srv.URI()})
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	sh, err := shell.New(be.Client, "schemalab_tree", shell.Options{})
	if err != nil {
		t.Fatal(err)
	}
	hostile := []string{
		"use shop\ndb.orders.drop()",
		"db.getSiblingDB('shop').orders.drop()",
		"db.getMongo().getDB('shop').dropDatabase()",
		"db.runCommand({ renameCollection: 'shop.orders', to: 'schemalab_tree.stolen' })",
		"db.adminCommand({ renameCollection: 'schemalab_tree.x', to: 'shop.orders', dropTarget: true })",
		"db.c.aggregate([{ $match: {} }, { $out: { db: 'shop', coll: 'orders' } }])",
		"db.c.aggregate([{ $merge: { into: { db: 'shop', coll: 'orders' } } }])",
	}
	for _, src := range hostile {
		res, err := sh.Eval(ctx, src)
		if err == nil || !strings.Contains(res.Transcript, "outside the sandbox prefix") {
			t.Errorf("%s: not refused: %v\n%s", src, err, res.Transcript)
		}
	}
	n, err := client.Database("shop").Collection("orders").CountDocuments(ctx, bson.D{})
	if err != nil || n != 1 {
		t.Fatalf("shop.orders changed: %d documents, %v", n, err)
	}
	// Work inside the sandbox is unaffected.
	if res, err := sh.Eval(ctx, "use schemalab_tree\ndb.c.insertOne({ a: 1 }); db.c.aggregate([{ $out: 'copy' }]); db.copy.countDocuments()"); err != nil {
		t.Fatalf("sandbox work refused: %v\n%s", err, res.Transcript)
	}
}
