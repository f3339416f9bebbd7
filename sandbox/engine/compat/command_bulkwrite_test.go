package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// bulkWriteRef: the command's parser and checks, and the manual's page
// with its reply examples.
const bulkWriteRef = "src/mongo/db/commands/bulk_write.idl, bulk_write_common.cpp (validateRequest), bulk_write.cpp; manual: reference/command/bulkWrite"

// bulkWriteAuthRef: the per-operation namespace errors.
const bulkWriteAuthRef = "jstests/core/query/bulk/bulk_write_non_auth.js; src/mongo/db/catalog/document_validation.cpp (userAllowedWriteNS)"

func TestBulkWriteCommand(t *testing.T) {
	ns := `[{"ns": "{{db}}.c"}, {"ns": "{{db}}.d"}]`
	seed := `[{"_id": 1, "v": 1}, {"_id": 2, "v": 2}, {"_id": 3, "v": 3}]`
	runCmdCases(t, []cmdCase{
		{name: "inserts, an update and a delete on two collections", ref: bulkWriteRef, admin: true, docs: seed,
			cmd: `{"bulkWrite": 1, "ops": [{"insert": 0, "document": {"_id": 10, "v": 10}},
				{"update": 0, "filter": {"_id": 1}, "updateMods": {"$set": {"v": 99}}},
				{"delete": 0, "filter": {"_id": 2}}, {"insert": 1, "document": {"_id": 20}}], "nsInfo": ` + ns + `}`,
			want: `{"cursor": {"id": {"$numberLong": "0"}, "firstBatch": [{"ok": 1.0, "idx": 0, "n": 1}, {"ok": 1.0, "idx": 1, "n": 1, "nModified": 1},
				{"ok": 1.0, "idx": 2, "n": 1}, {"ok": 1.0, "idx": 3, "n": 1}], "ns": "admin.$cmd.bulkWrite"},
				"nErrors": 0, "nInserted": 2, "nMatched": 1, "nModified": 1, "nUpserted": 0, "nDeleted": 1}`,
			thenFind: `{"find": "c", "sort": {"_id": 1}}`, thenWant: `[{"_id": 1, "v": 99}, {"_id": 3, "v": 3}, {"_id": 10, "v": 10}]`},
		{name: "an ordered batch stops at the first error", ref: bulkWriteRef, admin: true, docs: seed,
			cmd: `{"bulkWrite": 1, "ops": [{"insert": 0, "document": {"_id": 1}}, {"insert": 0, "document": {"_id": 9}}], "nsInfo": ` + ns + `}`,
			want: `{"cursor": {"id": {"$numberLong": "0"}, "firstBatch": [{"ok": 0.0, "idx": 0, "code": 11000,
				"errmsg": "E11000 duplicate key error collection: {{db}}.c index: _id_ dup key: { _id: 1 }", "keyPattern": {"_id": 1}, "keyValue": {"_id": 1}, "n": 0}],
				"ns": "admin.$cmd.bulkWrite"}, "nErrors": 1, "nInserted": 0}`,
			thenFind: `{"find": "c", "filter": {"_id": 9}}`, thenWant: `[]`},
		{name: "an unordered batch carries on", ref: bulkWriteRef, admin: true, docs: seed,
			cmd:  `{"bulkWrite": 1, "ops": [{"insert": 0, "document": {"_id": 1}}, {"insert": 0, "document": {"_id": 9}}], "nsInfo": ` + ns + `, "ordered": false}`,
			want: `{"nErrors": 1, "nInserted": 1}`, thenFind: `{"find": "c", "filter": {"_id": 9}}`, thenWant: `[{"_id": 9}]`},
		{name: "an upsert reports its _id", ref: bulkWriteRef, admin: true, docs: seed,
			cmd:  `{"bulkWrite": 1, "ops": [{"update": 0, "filter": {"_id": 77}, "updateMods": {"$set": {"v": 7}}, "upsert": true}], "nsInfo": ` + ns + `}`,
			want: `{"cursor": {"id": {"$numberLong": "0"}, "firstBatch": [{"ok": 1.0, "idx": 0, "n": 1, "nModified": 0, "upserted": {"_id": 77}}], "ns": "admin.$cmd.bulkWrite"}, "nMatched": 0, "nUpserted": 1}`},
		{name: "multi updates and deletes", ref: bulkWriteRef, admin: true, docs: seed,
			cmd: `{"bulkWrite": 1, "ops": [{"update": 0, "filter": {"v": {"$gte": 2}}, "updateMods": {"$inc": {"v": 1}}, "multi": true},
				{"delete": 0, "filter": {"v": {"$lt": 3}}, "multi": true}], "nsInfo": ` + ns + `}`,
			want:     `{"nMatched": 2, "nModified": 2, "nDeleted": 1}`,
			thenFind: `{"find": "c", "sort": {"_id": 1}}`, thenWant: `[{"_id": 2, "v": 3}, {"_id": 3, "v": 4}]`},
		{name: "errorsOnly leaves successes out of the cursor", ref: bulkWriteRef, admin: true, docs: seed,
			cmd:  `{"bulkWrite": 1, "ops": [{"insert": 0, "document": {"_id": 50}}, {"insert": 0, "document": {"_id": 1}}], "nsInfo": ` + ns + `, "errorsOnly": true, "ordered": false}`,
			want: `{"cursor": {"id": {"$numberLong": "0"}, "firstBatch": [{"ok": 0.0, "idx": 1, "code": 11000, "errmsg": "*", "keyPattern": {"_id": 1}, "keyValue": {"_id": 1}, "n": 0}], "ns": "admin.$cmd.bulkWrite"}, "nErrors": 1, "nInserted": 1}`},
		{name: "an invalid update operator fails its operation only", ref: "jstests/core/query/bulk/bulk_write_non_auth.js", admin: true, docs: seed,
			cmd: `{"bulkWrite": 1, "ops": [{"update": 0, "filter": {"_id": 1}, "updateMods": {"$blah": {"x": 1}}}, {"delete": 0, "filter": {"_id": 1}}],
				"nsInfo": ` + ns + `, "ordered": false}`,
			want: `{"cursor": {"id": {"$numberLong": "0"}, "firstBatch": [{"ok": 0.0, "idx": 0, "code": 9,
				"errmsg": "Unknown modifier: $blah. Expected a valid update modifier or pipeline-style update specified as an array", "n": 0, "nModified": 0},
				{"ok": 1.0, "idx": 1, "n": 1}], "ns": "admin.$cmd.bulkWrite"}, "nErrors": 1, "nDeleted": 1}`},
		{name: "writes to system.profile fail per operation", ref: bulkWriteAuthRef, admin: true,
			cmd: `{"bulkWrite": 1, "ops": [{"delete": 0, "filter": {"_id": 0}}, {"insert": 1, "document": {"_id": 1}}],
				"nsInfo": [{"ns": "{{db}}.system.profile"}, {"ns": "{{db}}.c"}], "ordered": false}`,
			want: `{"cursor": {"id": {"$numberLong": "0"}, "firstBatch": [{"ok": 0.0, "idx": 0, "code": 73, "errmsg": "cannot write to {{db}}.system.profile", "n": 0},
				{"ok": 1.0, "idx": 1, "n": 1}], "ns": "admin.$cmd.bulkWrite"}, "nErrors": 1, "nInserted": 1}`},
		{name: "let reaches filters and pipelines, under an update's constants", ref: bulkWriteRef, admin: true, docs: `[{"_id": 1, "v": 5}]`,
			cmd: `{"bulkWrite": 1, "ops": [{"update": 0, "filter": {"$expr": {"$eq": ["$v", "$$x"]}}, "updateMods": [{"$set": {"w": "$$y"}}], "constants": {"y": 7}}],
				"nsInfo": ` + ns + `, "let": {"x": 5}}`,
			want:     `{"nMatched": 1, "nModified": 1}`,
			thenFind: `{"find": "c"}`, thenWant: `[{"_id": 1, "v": 5, "w": 7}]`},
		{name: "cursor.batchSize leaves the rest for getMore", ref: bulkWriteRef, admin: true,
			cmd:  `{"bulkWrite": 1, "ops": [{"insert": 0, "document": {"_id": 1}}, {"insert": 0, "document": {"_id": 2}}], "nsInfo": ` + ns + `, "cursor": {"batchSize": 1}}`,
			want: `{"cursor": {"id": "*", "firstBatch": [{"ok": 1.0, "idx": 0, "n": 1}], "ns": "admin.$cmd.bulkWrite"}, "nInserted": 2}`},

		{name: "constants with an operator update fail that operation", ref: bulkWriteRef + "; src/mongo/db/update/update_driver.cpp (UpdateDriver::parse)", admin: true,
			docs: `[{"_id": 1}]`,
			cmd:  `{"bulkWrite": 1, "ops": [{"update": 0, "filter": {"_id": 1}, "updateMods": {"$set": {"a": 1}}, "constants": {"x": 1}}], "nsInfo": ` + ns + `}`,
			want: `{"cursor": {"id": {"$numberLong": "0"}, "firstBatch": [{"ok": 0.0, "idx": 0, "code": 51198, "errmsg": "Constant values may only be specified for pipeline updates", "n": 0, "nModified": 0}],
				"ns": "admin.$cmd.bulkWrite"}, "nErrors": 1, "nInserted": 0, "nMatched": 0, "nModified": 0, "nUpserted": 0, "nDeleted": 0}`},
		{name: "upsertSupplied with no document in constants fails that operation", ref: bulkWriteRef + "; " + upsertSuppliedRef, admin: true,
			cmd: `{"bulkWrite": 1, "ops": [{"update": 0, "filter": {"_id": 1}, "updateMods": [{"$set": {"a": 1}}], "upsert": true, "upsertSupplied": true, "constants": {}}], "nsInfo": ` + ns + `}`,
			want: `{"cursor": {"id": {"$numberLong": "0"}, "firstBatch": [{"ok": 0.0, "idx": 0, "code": 9, "errmsg": "the parameter 'upsertSupplied' is set to 'true', but no document was supplied", "n": 0, "nModified": 0}],
				"ns": "admin.$cmd.bulkWrite"}, "nErrors": 1, "nInserted": 0, "nMatched": 0, "nModified": 0, "nUpserted": 0, "nDeleted": 0}`},
		{name: "upsertSupplied inserts the supplied document", ref: bulkWriteRef + "; " + upsertSuppliedRef, admin: true,
			cmd:      `{"bulkWrite": 1, "ops": [{"update": 0, "filter": {"_id": 1}, "updateMods": [{"$set": {"a": 1}}], "upsert": true, "upsertSupplied": true, "constants": {"new": {"b": 2}}}], "nsInfo": ` + ns + `}`,
			want:     `{"nUpserted": 1}`,
			thenFind: `{"find": "c"}`, thenWant: `[{"_id": 1, "b": 2}]`},
		{name: "only on the admin database", ref: "src/mongo/db/commands.cpp (adminOnly)",
			cmd:  `{"bulkWrite": 1, "ops": [{"insert": 0, "document": {"_id": 1}}], "nsInfo": ` + ns + `}`,
			code: mongoerr.Unauthorized, msg: "bulkWrite may only be run against the admin database."},
		{name: "no operations", ref: bulkWriteRef, admin: true, cmd: `{"bulkWrite": 1, "ops": [], "nsInfo": ` + ns + `}`,
			code: mongoerr.InvalidLength, msg: "Write batch sizes must be between 1 and 100000. Got 0 operations."},
		{name: "an nsInfo index out of range", ref: bulkWriteRef, admin: true, cmd: `{"bulkWrite": 1, "ops": [{"insert": 5, "document": {"x": 1}}], "nsInfo": ` + ns + `}`,
			code: mongoerr.BadValue, msg: "BulkWrite ops entry { insert: 5, document: { x: 1 } } has an invalid nsInfo index."},
		{name: "a negative nsInfo index", ref: bulkWriteRef, admin: true, cmd: `{"bulkWrite": 1, "ops": [{"insert": -1, "document": {"_id": 1}}], "nsInfo": ` + ns + `}`,
			code: mongoerr.BadValue, msg: "BSON field 'insert' value must be >= 0, actual value '-1'"},
		{name: "an nsInfo index that is a string", ref: bulkWriteRef, admin: true, cmd: `{"bulkWrite": 1, "ops": [{"insert": "0", "document": {"_id": 1}}], "nsInfo": ` + ns + `}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'bulkWrite.ops.insert' is the wrong type 'string', expected types '[long, int, decimal, double']"},
		{name: "an unknown field", ref: bulkWriteRef, admin: true, cmd: `{"bulkWrite": 1, "ops": [{"insert": 0, "document": {}}], "nsInfo": ` + ns + `, "bogus": 1}`,
			code: mongoerr.IDLUnknownField, msg: "BSON field 'bulkWrite.bogus' is an unknown field."},
		{name: "an unknown kind of operation", ref: bulkWriteRef, admin: true, cmd: `{"bulkWrite": 1, "ops": [{"frobnicate": 0, "document": {}}], "nsInfo": ` + ns + `}`,
			code: mongoerr.IDLUnknownField, msg: "BSON field 'bulkWrite.frobnicate' is an unknown field."},
		{name: "an insert without its document", ref: bulkWriteRef, admin: true, cmd: `{"bulkWrite": 1, "ops": [{"insert": 0}], "nsInfo": ` + ns + `}`,
			code: mongoerr.IDLFailedToParse, msg: "BSON field 'bulkWrite.ops.document' is missing but a required field"},
		{name: "an update without its filter", ref: bulkWriteRef, admin: true, cmd: `{"bulkWrite": 1, "ops": [{"update": 0, "updateMods": {"$set": {"a": 1}}}], "nsInfo": ` + ns + `}`,
			code: mongoerr.IDLFailedToParse, msg: "BSON field 'bulkWrite.ops.filter' is missing but a required field"},
		{name: "an update without updateMods", ref: bulkWriteRef, admin: true, cmd: `{"bulkWrite": 1, "ops": [{"update": 0, "filter": {}}], "nsInfo": ` + ns + `}`,
			code: mongoerr.IDLFailedToParse, msg: "BSON field 'bulkWrite.ops.updateMods' is missing but a required field"},
		{name: "a document that is not an object", ref: bulkWriteRef, admin: true, cmd: `{"bulkWrite": 1, "ops": [{"insert": 0, "document": 5}], "nsInfo": ` + ns + `}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'bulkWrite.ops.document' is the wrong type 'int', expected type 'object'"},
		{name: "nsInfo missing", ref: bulkWriteRef, admin: true, cmd: `{"bulkWrite": 1, "ops": [{"insert": 0, "document": {}}]}`,
			code: mongoerr.IDLFailedToParse, msg: "BSON field 'bulkWrite.nsInfo' is missing but a required field"},
		{name: "nsInfo's type is checked before the batch size", ref: bulkWriteRef, admin: true, cmd: `{"bulkWrite": 1, "ops": [], "nsInfo": 5}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'bulkWrite.nsInfo' is the wrong type 'int', expected type 'array'"},
		{name: "an nsInfo entry that is no document", ref: bulkWriteRef, admin: true, cmd: `{"bulkWrite": 1, "ops": [{"insert": 0, "document": {}}], "nsInfo": [5]}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'bulkWrite.nsInfo.0' is the wrong type 'int', expected type 'object'"},
		{name: "an unknown field of nsInfo", ref: bulkWriteRef, admin: true, cmd: `{"bulkWrite": 1, "ops": [{"insert": 0, "document": {}}], "nsInfo": [{"x": 1}]}`,
			code: mongoerr.IDLUnknownField, msg: "BSON field 'bulkWrite.nsInfo.x' is an unknown field."},
		{name: "a namespace without a collection", ref: bulkWriteRef, admin: true, cmd: `{"bulkWrite": 1, "ops": [{"insert": 0, "document": {}}], "nsInfo": [{"ns": "nodot"}]}`,
			code: mongoerr.InvalidNamespace, msg: "Invalid namespace specified for bulkWrite: 'nodot'"},
		{name: "sort with multi", ref: "manual: reference/command/update (sort); " + bulkWriteRef, admin: true,
			cmd:  `{"bulkWrite": 1, "ops": [{"update": 0, "filter": {}, "updateMods": {"$set": {"z": 1}}, "multi": true, "sort": {"v": 1}}], "nsInfo": ` + ns + `}`,
			code: mongoerr.FailedToParse, msg: "Cannot specify sort with multi=true"},
	})
}

// TestClientBulkWrite drives the command through the driver's
// Client.BulkWrite, which sends it to a server whose wire version is
// 8.0's and reads the reply's cursor and totals.
func TestClientBulkWrite(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "client bulkWrite across collections", bulkWriteRef, cover{family: commandFam, op: "bulkWrite", col: semantics},
		func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "v": 1}, {"_id": 2, "v": 2}]`)
			w := func(coll string, m mongo.ClientWriteModel) mongo.ClientBulkWrite {
				return mongo.ClientBulkWrite{Database: db.Name(), Collection: coll, Model: m}
			}
			models := []mongo.ClientBulkWrite{
				w("c", &mongo.ClientInsertOneModel{Document: bson.D{{Key: "_id", Value: 5}}}),
				w("c", &mongo.ClientUpdateOneModel{Filter: bson.D{{Key: "_id", Value: 1}}, Update: bson.D{{Key: "$set", Value: bson.D{{Key: "v", Value: 9}}}}}),
				w("c", &mongo.ClientDeleteOneModel{Filter: bson.D{{Key: "_id", Value: 2}}}),
				w("d", &mongo.ClientInsertOneModel{Document: bson.D{{Key: "_id", Value: 6}}}),
			}
			res, err := db.Client().BulkWrite(ctxFor(t), models, options.ClientBulkWrite().SetVerboseResults(true))
			if err != nil {
				t.Fatal(err)
			}
			got := bson.D{{Key: "inserted", Value: res.InsertedCount}, {Key: "matched", Value: res.MatchedCount},
				{Key: "modified", Value: res.ModifiedCount}, {Key: "deleted", Value: res.DeletedCount}}
			sameValue(t, "counts", got, `{"inserted": {"$numberLong": "2"}, "matched": {"$numberLong": "1"}, "modified": {"$numberLong": "1"}, "deleted": {"$numberLong": "1"}}`)
			docs, cerr := cursorDocs(t, db, bson.D{{Key: "find", Value: "c"}, {Key: "sort", Value: bson.D{{Key: "_id", Value: 1}}}})
			if cerr != nil {
				t.Fatal(cerr)
			}
			sameDocs(t, "c after", docs, `[{"_id": 1, "v": 9}, {"_id": 5}]`, false)
		})
}
