package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The validate cases follow src/mongo/db/commands/validate.cpp
// (ValidateCmd::run) and src/mongo/db/catalog/validate_results.cpp
// (appendToResultObj), "validate's source" below.

// isReplicaSet tells whether the server is a replica-set member, where
// validate's standalone-only answers do not apply.
func isReplicaSet(t *testing.T, db *mongo.Database) bool {
	hello := mustCommand(t, db, `{"hello": 1}`)
	return field(hello, "setName") != nil
}

func TestValidate(t *testing.T) {
	s := newSuite(t)
	// validate's source: the reply's fields and their order.
	s.run(t, "item13 a healthy collection with a multikey index", func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": 5}, {"_id": 2, "a": [6, 7]}, {"_id": 3}]`)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}, {"key": {"b": 1}, "name": "b_1", "sparse": true}]}`)
		reply := mustCommand(t, db, `{"validate": "c"}`)
		infos := mustCommand(t, db, `{"listCollections": 1, "filter": {"name": "c"}}`)
		info := field(field(field(infos, "cursor").(bson.D), "firstBatch").(bson.A)[0].(bson.D), "info").(bson.D)
		if canonical(t, field(reply, "uuid")) != canonical(t, field(info, "uuid")) {
			t.Errorf("uuid %v is not the collection's %v", field(reply, "uuid"), field(info, "uuid"))
		}
		got := bson.D{}
		for _, e := range reply {
			switch e.Key {
			case "uuid", "ok", "$clusterTime", "operationTime":
			default:
				got = append(got, e)
			}
		}
		sameValue(t, "validate reply", got, `{"ns": "`+db.Name()+`.c", "nInvalidDocuments": 0, "nNonCompliantDocuments": 0, "nrecords": 3,
			"nIndexes": 3, "keysPerIndex": {"_id_": 3, "a_1": 4, "b_1": 0}, "indexDetails": {"_id_": {"valid": true}, "a_1": {"valid": true}, "b_1": {"valid": true}},
			"valid": true, "repaired": false, "warnings": [], "errors": [], "extraIndexEntries": [], "missingIndexEntries": [], "corruptRecords": []}`)
	})
	// manual: reference/command/validate (validate.nNonCompliantDocuments)
	s.run(t, "documents breaking the validator", func(t *testing.T, db *mongo.Database) {
		if _, err := command(t, db, ejDoc(t, `{"create": "c", "validator": {"a": {"$gt": 0}}}`)); err != nil {
			if err.Code == mongoerr.NotImplemented { // NotImplemented
				t.Skip("this build of the sandbox refuses collection validators (NotImplemented), so there is nothing to count")
			}
			t.Fatal(err)
		}
		mustCommand(t, db, `{"insert": "c", "documents": [{"_id": 1, "a": 5}, {"_id": 2, "a": -1}], "bypassDocumentValidation": true}`)
		reply := mustCommand(t, db, `{"validate": "c"}`)
		sameValue(t, "nNonCompliantDocuments", field(reply, "nNonCompliantDocuments"), `1`)
		sameValue(t, "valid", field(reply, "valid"), `true`)
		sameValue(t, "warnings", field(reply, "warnings"), `["Detected one or more documents not compliant with the collection's schema. See logs."]`)
	})
	// src/mongo/db/catalog/validate_state.cpp (NamespaceNotFound); validate's source for the option errors.
	s.run(t, "a collection that does not exist", func(t *testing.T, db *mongo.Database) {
		_, err := command(t, db, ejDoc(t, `{"validate": "nothere"}`))
		sameError(t, "validate", err, mongoerr.NamespaceNotFound, "Collection '"+db.Name()+".nothere' does not exist to validate.")
	})
	s.run(t, "full and background together", func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id": 1}]`)
		_, err := command(t, db, ejDoc(t, `{"validate": "c", "full": true, "background": true}`))
		sameError(t, "validate", err, mongoerr.InvalidOptions, "Running the validate command with both { background: true } and { full: true } is not supported.")
	})
	s.run(t, "background on a standalone", func(t *testing.T, db *mongo.Database) {
		if isReplicaSet(t, db) {
			t.Skip("the server is a replica-set member, where background validation is supported")
		}
		insertDocs(t, db.Collection("c"), `[{"_id": 1}]`)
		_, err := command(t, db, ejDoc(t, `{"validate": "c", "background": true}`))
		sameError(t, "validate", err, mongoerr.CommandNotSupported, "Running the validate command with { background: true } is not supported in standalone mode")
	})
}
