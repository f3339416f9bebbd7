package compat_test

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// getMore continues the cursor a find left open: the next batch, in
// order, and an id of 0 once nothing is left; the cursor is then gone.
func TestGetMoreContinuesACursor(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "getMore after find batchSize", cursorCmdRef, cover{family: commandFam, op: "getMore", col: semantics},
		func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id":1},{"_id":2},{"_id":3}]`)
			first := mustCommand(t, db, `{"find":"c","batchSize":1}`)
			id := field(field(first, "cursor").(bson.D), "id")
			// A context with a deadline makes the driver send maxTimeMS,
			// which mongod refuses on a getMore of a cursor that is not
			// awaitData (getmore_cmd.cpp); the driver's own cursors send
			// none, and neither do these.
			getMore := func(batch ...int32) (bson.D, error) {
				cmd := bson.D{{Key: "getMore", Value: id}, {Key: "collection", Value: "c"}}
				for _, n := range batch {
					cmd = append(cmd, bson.E{Key: "batchSize", Value: n})
				}
				var out bson.D
				err := db.RunCommand(context.Background(), cmd).Decode(&out)
				return out, err
			}
			next, err := getMore(1)
			if err != nil {
				t.Fatal(err)
			}
			sameFields(t, "getMore", next, bson.D{{Key: "cursor", Value: bson.D{{Key: "nextBatch", Value: bson.A{bson.D{{Key: "_id", Value: int32(2)}}}},
				{Key: "id", Value: id}, {Key: "ns", Value: db.Name() + ".c"}}}})
			last, err := getMore()
			if err != nil {
				t.Fatal(err)
			}
			sameFields(t, "last getMore", last, bson.D{{Key: "cursor", Value: bson.D{{Key: "nextBatch", Value: bson.A{bson.D{{Key: "_id", Value: int32(3)}}}},
				{Key: "id", Value: int64(0)}, {Key: "ns", Value: db.Name() + ".c"}}}})
			_, err = getMore()
			sameError(t, "getMore of a finished cursor", serverError(t, nil, err), 43, "")
		})
}

// aggregate with batchSize 0 runs nothing (run_aggregate.cpp
// handleCursorCommand never calls getNext for it), so even a pipeline that
// matches nothing leaves a cursor open; its first getMore finds the end.
// jstests/aggregation/bugs/server5932.js ("empty result set results in
// cursor.id == 0 unless batchSize is 0").
func TestAggregateBatchSizeZeroKeepsCursor(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "aggregate batchSize 0 over no match", "src/mongo/db/commands/run_aggregate.cpp handleCursorCommand", cover{family: commandFam, op: "aggregate", col: semantics},
		func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id":1}]`)
			pipeline := `"pipeline": [{"$match": {"noSuchField": {"$exists": true}}}]`
			none := mustCommand(t, db, `{"aggregate": "c", `+pipeline+`, "cursor": {}}`)
			if id := field(field(none, "cursor").(bson.D), "id"); id != int64(0) {
				t.Errorf("default batch over no match: cursor id %v, want 0", id)
			}
			first := mustCommand(t, db, `{"aggregate": "c", `+pipeline+`, "cursor": {"batchSize": 0}}`)
			cur := field(first, "cursor").(bson.D)
			id := field(cur, "id")
			if id == int64(0) {
				t.Fatalf("batchSize 0: cursor id 0, want an open cursor")
			}
			if n := len(field(cur, "firstBatch").(bson.A)); n != 0 {
				t.Errorf("batchSize 0: firstBatch has %d documents", n)
			}
			var next bson.D
			if err := db.RunCommand(context.Background(), bson.D{{Key: "getMore", Value: id}, {Key: "collection", Value: "c"}}).Decode(&next); err != nil {
				t.Fatal(err)
			}
			sameFields(t, "getMore", next, bson.D{{Key: "cursor", Value: bson.D{{Key: "nextBatch", Value: bson.A{}},
				{Key: "id", Value: int64(0)}, {Key: "ns", Value: db.Name() + ".c"}}}})
		})
}
