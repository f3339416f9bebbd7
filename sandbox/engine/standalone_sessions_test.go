package engine_test

import (
	"context"
	"errors"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The embedded server is a standalone: a transaction's first command is
// refused as mongod refuses it (jstests/noPassthrough/
// retryable_writes_standalone_api.js), and nothing it wrote is applied.
func TestTransactionsRefusedAsOnAStandalone(t *testing.T) {
	client := startServer(t)
	ctx := context.Background()
	coll := client.Database("txn").Collection("c")
	sess, err := client.StartSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.EndSession(ctx)
	if err := sess.StartTransaction(); err != nil {
		t.Fatal(err)
	}
	sctx := mongo.NewSessionContext(ctx, sess)
	_, err = coll.InsertOne(sctx, bson.D{{Key: "a", Value: 1}})
	var ce mongo.CommandError
	if !errors.As(err, &ce) || ce.Code != mongoerr.IllegalOperation || ce.Name != "IllegalOperation" ||
		ce.Message != "Transaction numbers are only allowed on a replica set member or mongos" {
		t.Fatalf("insert in a transaction: %v", err)
	}
	// commitTransaction is refused the same way (the Go driver's own
	// CommitTransaction rewords that error as a retryable write's).
	commit := client.Database("admin").RunCommand(sctx, bson.D{{Key: "commitTransaction", Value: 1}})
	if err := commit.Err(); !errors.As(err, &ce) || ce.Code != mongoerr.IllegalOperation {
		t.Fatalf("commit: %v", err)
	}
	if n, err := coll.CountDocuments(ctx, bson.D{}); err != nil || n != 0 {
		t.Fatalf("the transaction's write was applied: %d, %v", n, err)
	}

	if err := sess.AbortTransaction(ctx); err != nil {
		t.Fatal(err)
	}
	// Outside a transaction a session's writes go through: the driver
	// sends no txnNumber for retryable writes to a standalone.
	if _, err := coll.InsertOne(mongo.NewSessionContext(ctx, sess), bson.D{{Key: "a", Value: 2}}); err != nil {
		t.Fatalf("a session's write outside a transaction: %v", err)
	}
	if _, err := coll.UpdateOne(ctx, bson.D{{Key: "a", Value: 2}}, bson.D{{Key: "$inc", Value: bson.D{{Key: "n", Value: 1}}}}); err != nil {
		t.Fatalf("a retryable write: %v", err)
	}

	db := client.Database("txn")
	for _, tc := range []struct {
		cmd  bson.D
		code int32
		msg  string
	}{
		{bson.D{{Key: "find", Value: "c"}, {Key: "autocommit", Value: false}}, mongoerr.InvalidOptions, "'autocommit' field requires a transaction number to also be specified"},
		// mongod looks the command up first.
		{bson.D{{Key: "frobnicate", Value: 1}, {Key: "txnNumber", Value: int64(1)}}, mongoerr.CommandNotFound, "no such command: 'frobnicate'"},
	} {
		ce := commandError(t, db, tc.cmd)
		if ce.Code != tc.code || ce.Message != tc.msg {
			t.Errorf("%v: %d %q, want %d %q", tc.cmd, ce.Code, ce.Message, tc.code, tc.msg)
		}
	}
}
