package compat_test

import (
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

const collectionUUIDRef = "src/mongo/db/catalog/collection_uuid_mismatch.cpp (checkCollectionUUIDMismatch), " +
	"collection_uuid_mismatch_info.cpp; jstests/core/collection_uuid_find.js, collection_uuid_write_commands.js, " +
	"collection_uuid_index_commands.js, collection_uuid_coll_mod.js, collection_uuid_drop.js, collection_uuid_rename_collection.js, " +
	"jstests/aggregation/aggregation_with_uuids.js"

// The commands whose IDL has collectionUUID check it against the
// namespace before they act.
func TestCollectionUUID(t *testing.T) {
	s := newSuite(t)
	uuidOf := func(t *testing.T, db *mongo.Database, coll string) bson.Binary {
		t.Helper()
		reply := mustCommand(t, db, `{"listCollections":1,"filter":{"name":"`+coll+`"}}`)
		first, _ := field(field(reply, "cursor").(bson.D), "firstBatch").(bson.A)
		if len(first) != 1 {
			t.Fatalf("listCollections %s: %s", coll, relaxed(reply))
		}
		return field(field(first[0].(bson.D), "info").(bson.D), "uuid").(bson.Binary)
	}
	// mismatch checks the error's extra fields, which say where the UUID is.
	mismatch := func(t *testing.T, db *mongo.Database, cmd bson.D, expected string, actual any) {
		t.Helper()
		_, ce := command(t, db, cmd)
		sameError(t, relaxed(cmd), ce, mongoerr.CollectionUUIDMismatch, "Collection UUID does not match that specified")
		if ce == nil {
			return
		}
		var reply bson.D
		if err := bson.Unmarshal(ce.Raw, &reply); err != nil {
			t.Fatal(err)
		}
		if field(reply, "db") != db.Name() || field(reply, "expectedCollection") != expected || field(reply, "actualCollection") != actual {
			t.Errorf("%s: reply %s, want db %s, expectedCollection %s, actualCollection %v", relaxed(cmd), relaxed(reply), db.Name(), expected, actual)
		}
	}
	s.runCase(t, "find with its collection's UUID, another's, or none's", collectionUUIDRef,
		cover{family: commandFam, op: "find", col: semantics}, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("coll"), `[{"_id":0}]`)
			insertDocs(t, db.Collection("coll_2"), `[{"_id":1}]`)
			uuid := uuidOf(t, db, "coll")
			if _, ce := command(t, db, bson.D{{Key: "find", Value: "coll"}, {Key: "collectionUUID", Value: uuid}}); ce != nil {
				t.Fatalf("find with the right UUID: %v", ce)
			}
			mismatch(t, db, bson.D{{Key: "find", Value: "coll_2"}, {Key: "collectionUUID", Value: uuid}}, "coll_2", "coll")
			mismatch(t, db, bson.D{{Key: "find", Value: "missing"}, {Key: "collectionUUID", Value: uuid}}, "missing", "coll")
			other := db.Client().Database(db.Name() + "_u")
			defer other.Drop(ctxFor(t))
			mismatch(t, other, bson.D{{Key: "find", Value: "coll"}, {Key: "collectionUUID", Value: uuid}}, "coll", nil)
			mustCommand(t, db, `{"create":"view","viewOn":"coll","pipeline":[]}`)
			mismatch(t, db, bson.D{{Key: "find", Value: "view"}, {Key: "collectionUUID", Value: uuid}}, "view", "coll")
		})
	// 8.0 keeps a time-series collection as a view on its buckets: no
	// UUID is its own, and its buckets' names the buckets collection
	// (jstests/core/timeseries/ddl/timeseries_collection_uuid.js, viewful).
	s.runCase(t, "a time-series collection with its buckets' UUID", "jstests/core/timeseries/ddl/timeseries_collection_uuid.js",
		cover{family: commandFam, op: "insert", col: errorCol}, func(t *testing.T, db *mongo.Database) {
			mustCommand(t, db, `{"create":"ts","timeseries":{"timeField":"t","metaField":"m"}}`)
			uuid := uuidOf(t, db, "system.buckets.ts")
			mismatch(t, db, bson.D{{Key: "insert", Value: "ts"}, {Key: "documents", Value: bson.A{bson.D{{Key: "t", Value: bson.NewDateTimeFromTime(time.Unix(0, 0))}}}},
				{Key: "collectionUUID", Value: uuid}}, "ts", "system.buckets.ts")
		})
	s.runCase(t, "writes, index and collection commands with a UUID that is not the collection's", collectionUUIDRef,
		cover{family: commandFam, op: "insert", col: errorCol}, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("coll"), `[{"_id":0}]`)
			none := bson.Binary{Subtype: 4, Data: make([]byte, 16)}
			for _, cmd := range []bson.D{
				{{Key: "insert", Value: "coll"}, {Key: "documents", Value: bson.A{bson.D{}}}, {Key: "collectionUUID", Value: none}},
				{{Key: "update", Value: "coll"}, {Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{}}, {Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "a", Value: 1}}}}}}}}, {Key: "collectionUUID", Value: none}},
				{{Key: "delete", Value: "coll"}, {Key: "deletes", Value: bson.A{bson.D{{Key: "q", Value: bson.D{}}, {Key: "limit", Value: 1}}}}, {Key: "collectionUUID", Value: none}},
				{{Key: "createIndexes", Value: "coll"}, {Key: "indexes", Value: bson.A{bson.D{{Key: "key", Value: bson.D{{Key: "a", Value: 1}}}, {Key: "name", Value: "a_1"}}}}, {Key: "collectionUUID", Value: none}},
				{{Key: "dropIndexes", Value: "coll"}, {Key: "index", Value: "*"}, {Key: "collectionUUID", Value: none}},
				{{Key: "collMod", Value: "coll"}, {Key: "collectionUUID", Value: none}},
				{{Key: "drop", Value: "coll"}, {Key: "collectionUUID", Value: none}},
			} {
				mismatch(t, db, cmd, "coll", nil)
			}
			if n := len(foundIDs(t, db, bson.D{{Key: "find", Value: "coll"}})); n != 1 {
				t.Errorf("the collection holds %d documents after the refused commands, want 1", n)
			}
		})
	s.runCase(t, "aggregate's collectionUUID: not for a collectionless aggregate or a change stream; a UUID's type", collectionUUIDRef+" (run_aggregate.cpp)",
		cover{family: commandFam, op: "aggregate", col: errorCol}, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("coll"), `[{"_id":0}]`)
			uuid := uuidOf(t, db, "coll")
			_, ce := command(t, db, bson.D{{Key: "aggregate", Value: 1}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$documents", Value: bson.A{bson.D{}}}}}},
				{Key: "cursor", Value: bson.D{}}, {Key: "collectionUUID", Value: uuid}})
			sameError(t, "collectionless", ce, 4928901, "collectionUUID is not supported for a collectionless aggregation")
			_, ce = command(t, db, bson.D{{Key: "aggregate", Value: "coll"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$changeStream", Value: bson.D{}}}}},
				{Key: "cursor", Value: bson.D{}}, {Key: "collectionUUID", Value: uuid}})
			sameError(t, "change stream", ce, 4928900, "collectionUUID is not supported for a change stream")
			_, ce = command(t, db, bson.D{{Key: "aggregate", Value: "coll"}, {Key: "pipeline", Value: bson.A{}}, {Key: "cursor", Value: bson.D{}}, {Key: "collectionUUID", Value: "NotAUUID"}})
			sameError(t, "a string", ce, mongoerr.TypeMismatch, "BSON field 'aggregate.collectionUUID' is the wrong type 'string', expected type 'binData'")
			_, ce = command(t, db, bson.D{{Key: "aggregate", Value: "coll"}, {Key: "pipeline", Value: bson.A{}}, {Key: "cursor", Value: bson.D{}},
				{Key: "collectionUUID", Value: bson.Binary{Subtype: 0, Data: uuid.Data}}})
			sameError(t, "generic binary", ce, mongoerr.TypeMismatch, "BSON field 'aggregate.collectionUUID' is the wrong binData type 'general', expected type 'UUID'")
		})
}
