package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// writeErrors returns the writeErrors of a write command's reply, each
// without its index field, as relaxed JSON for comparison.
func writeErrors(t *testing.T, db *mongo.Database, cmd string) bson.A {
	t.Helper()
	reply, err := command(t, db, ejDoc(t, cmd))
	if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	we, _ := field(reply, "writeErrors").(bson.A)
	out := bson.A{}
	for _, e := range we {
		d := bson.D{}
		for _, f := range e.(bson.D) {
			if f.Key != "index" {
				d = append(d, f)
			}
		}
		out = append(out, d)
	}
	return out
}

func TestIndexes(t *testing.T) {
	s := newSuite(t)
	// manual: core/index-multikey (Compound Multikey Indexes); jstests/core/index/index_multikey.js
	s.run(t, "parallel arrays in a compound index", func(t *testing.T, db *mongo.Database) {
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1, "b": 1}, "name": "a_1_b_1"}]}`)
		mustCommand(t, db, `{"insert": "c", "documents": [{"_id": 1, "a": [1, 2], "b": 3}, {"_id": 2, "a": 4, "b": [5, 6]}]}`)
		got := writeErrors(t, db, `{"insert": "c", "documents": [{"_id": 3, "a": [1, 2], "b": [3, 4]}]}`)
		sameValue(t, "writeErrors", got, `[{"code": 171, "errmsg": "cannot index parallel arrays [b] [a]"}]`)
	})
	// src/mongo/db/index/btree_key_generator.cpp (_getKeysWithArray expands
	// the one array every field reaches together, element by element; an
	// element that is not a document gives null; a sparse index skips a
	// tuple only when every field is missing from it);
	// btree_key_generator_test.cpp GetKeysAlternateMissing,
	// SparseNonObjectMissingNestedField, GetKeysFromIndexedArrayIndex.
	s.run(t, "keys through one array pair values from the same element", func(t *testing.T, db *mongo.Database) {
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a.b": 1, "a.c": 1}, "name": "pair"},
			{"key": {"a.b": 1}, "name": "b_sparse", "sparse": true}, {"key": {"a.b": 1}, "name": "b"},
			{"key": {"p.0": 1}, "name": "p0"}]}`)
		mustCommand(t, db, `{"insert": "c", "documents": [{"_id": 1, "a": [{"b": 1}, {"c": 2}]}, {"_id": 2, "a": [1, {"b": 1}]},
			{"_id": 3, "p": [[1]]}]}`)
		reply := mustCommand(t, db, `{"validate": "c"}`)
		sameValue(t, "keysPerIndex", field(reply, "keysPerIndex"), `{"_id_": 3, "pair": 5, "b_sparse": 2, "b": 5, "p0": 3}`)
		got, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"_id": 1}, "hint": "pair", "returnKey": true}`))
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "returnKey of the pair index", got, `[{"a.b": null, "a.c": 2}]`, false)
		got, err = cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"_id": 3}, "hint": "p0", "returnKey": true}`))
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "returnKey of a positional path selecting a nested array", got, `[{"p.0": [1]}]`, false)
	})
	// manual: core/index-unique (Unique Index and Missing Field)
	s.run(t, "a unique index holds one missing field, as null", func(t *testing.T, db *mongo.Database) {
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"k": 1}, "name": "k_1", "unique": true}]}`)
		mustCommand(t, db, `{"insert": "c", "documents": [{"_id": 1}]}`)
		got := writeErrors(t, db, `{"insert": "c", "documents": [{"_id": 2, "k": null}]}`)
		sameValue(t, "writeErrors", got, `[{"code": 11000, "keyPattern": {"k": 1}, "keyValue": {"k": null},
			"errmsg": "E11000 duplicate key error collection: `+db.Name()+`.c index: k_1 dup key: { k: null }"}]`)
	})
	// manual: core/index-unique (Unique Partial Indexes)
	s.run(t, "a unique partial index ignores documents outside its filter", func(t *testing.T, db *mongo.Database) {
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"p": 1}, "name": "p_1", "unique": true, "partialFilterExpression": {"active": true}}]}`)
		mustCommand(t, db, `{"insert": "c", "documents": [{"_id": 8, "p": 1}, {"_id": 9, "p": 1, "active": true}, {"_id": 10, "p": 1}]}`)
		got := writeErrors(t, db, `{"insert": "c", "documents": [{"_id": 11, "p": 1, "active": true}]}`)
		sameValue(t, "writeErrors", got, `[{"code": 11000, "keyPattern": {"p": 1}, "keyValue": {"p": 1},
			"errmsg": "E11000 duplicate key error collection: `+db.Name()+`.c index: p_1 dup key: { p: 1 }"}]`)
	})
	// manual: core/index-sparse (Sparse and Unique Properties)
	s.run(t, "a sparse unique index allows many documents without the field", func(t *testing.T, db *mongo.Database) {
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"u": 1}, "name": "u_1", "unique": true, "sparse": true}]}`)
		sameValue(t, "writeErrors", writeErrors(t, db, `{"insert": "c", "documents": [{"_id": 4}, {"_id": 5}, {"_id": 6, "u": 1}]}`), `[]`)
		got := writeErrors(t, db, `{"insert": "c", "documents": [{"_id": 7, "u": 1}]}`)
		if len(got) != 1 || field(got[0].(bson.D), "code") != int32(11000) {
			t.Errorf("a duplicate in a sparse unique index: %s", relaxed(got))
		}
	})
	// manual: reference/command/listIndexes (Output)
	s.run(t, "listIndexes", func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id": 1}]`)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1", "unique": true}, {"key": {"b": -1, "a": 1}, "name": "b_-1_a_1", "sparse": true}]}`)
		got, err := cursorDocs(t, db, ejDoc(t, `{"listIndexes": "c"}`))
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "listIndexes", got, `[{"v": 2, "key": {"_id": 1}, "name": "_id_"}, {"v": 2, "key": {"a": 1}, "name": "a_1", "unique": true},
			{"v": 2, "key": {"b": -1, "a": 1}, "name": "b_-1_a_1", "sparse": true}]`, false)
	})
	// src/mongo/db/catalog/index_key_validate.cpp; manual: reference/command/dropIndexes
	s.run(t, "index errors", func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), `[{"_id": 1}]`)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1", "unique": true}]}`)
		_, err := command(t, db, ejDoc(t, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "other", "unique": true}]}`))
		sameError(t, "same key, other name", err, mongoerr.IndexOptionsConflict, "Index already exists with a different name: a_1")
		_, err = command(t, db, ejDoc(t, `{"createIndexes": "c", "indexes": [{"key": {}, "name": "e"}]}`))
		sameError(t, "empty key", err, mongoerr.CannotCreateIndex, `Error in specification { key: {}, name: "e" } :: caused by :: Index keys cannot be empty.`)
		_, err = command(t, db, ejDoc(t, `{"dropIndexes": "c", "index": "_id_"}`))
		sameError(t, "drop _id_", err, mongoerr.InvalidOptions, "cannot drop _id index")
		_, err = command(t, db, ejDoc(t, `{"dropIndexes": "c", "index": "nope"}`))
		sameError(t, "drop a missing index", err, mongoerr.IndexNotFound, "index not found with name [nope]")
	})
	// IndexCatalogImpl::_isSpecOk (src/mongo/db/catalog/index_catalog_impl.cpp),
	// jstests/core/index/index_create_with_nul_in_name.js (SERVER-16672).
	s.runCase(t, "an index name holding a NUL byte is refused", "src/mongo/db/catalog/index_catalog_impl.cpp _isSpecOk",
		cover{family: commandFam, op: "createIndexes", col: errorCol}, func(t *testing.T, db *mongo.Database) {
			spec := bson.D{{Key: "key", Value: bson.D{{Key: "a", Value: 1}}}, {Key: "name", Value: "foo\x00bar"}}
			_, err := command(t, db, bson.D{{Key: "createIndexes", Value: "c"}, {Key: "indexes", Value: bson.A{spec}}})
			sameError(t, "NUL in name", err, mongoerr.CannotCreateIndex, "index name cannot contain NUL bytes")
			_, err = command(t, db, ejDoc(t, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": ""}]}`))
			sameError(t, "empty name", err, mongoerr.CannotCreateIndex, "index name cannot be empty")
		})
}
