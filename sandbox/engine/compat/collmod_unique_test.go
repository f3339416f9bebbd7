package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Converting an index to unique and back with collMod (manual: "Convert an
// Existing Index to a Unique Index"): prepareUnique makes the index refuse
// new duplicate keys, unique: true then converts it once no key is held
// twice (CannotConvertIndexToUnique lists the _ids that share a key), and
// forceNonUnique turns a unique index back into a plain one. dryRun only
// checks the conversion. Each flag is rewritten at the end of the stored
// spec, or removed when it turns false (updateUniqueSetting,
// updatePrepareUniqueSetting).
const collModUniqueRef = "src/mongo/db/catalog/coll_mod.cpp (parseCollModRequest, _processCollModDryRunMode, _setUpCollModIndexUnique), " +
	"src/mongo/db/catalog/coll_mod_index.cpp (scanIndexForDuplicates, buildConvertUniqueErrorStatus); " +
	"jstests/core/ddl/coll_mod_convert_index_uniqueness.js, jstests/core/index_prepareUnique.js; " +
	"manual: core/index-unique/convert-to-unique"

func TestCollModIndexUniqueness(t *testing.T) {
	plain := `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`
	prepare := `{"collMod":"c","index":{"keyPattern":{"a":1},"prepareUnique":true}}`
	distinct := `[{"_id":1,"a":1},{"_id":2,"a":2}]`
	dups := `[{"_id":1,"a":1},{"_id":2,"a":1},{"_id":3,"a":[2,5]},{"_id":4,"a":2},{"_id":5,"a":3}]`
	runCmdCases(t, []cmdCase{
		{name: "unique needs prepareUnique first", ref: collModUniqueRef, docs: distinct, setup: []string{plain},
			cmd:  `{"collMod":"c","index":{"keyPattern":{"a":1},"unique":true}}`,
			code: mongoerr.InvalidOptions, msg: "Cannot make index unique with 'prepareUnique=false'. Run collMod to set it first."},
		{name: "prepareUnique is set at the end of the spec", ref: collModUniqueRef, docs: distinct, setup: []string{plain},
			cov: cover{family: commandFam, op: "collMod", col: semantics}, cmd: prepare, want: `{"prepareUnique_old":false,"prepareUnique_new":true}`,
			thenFind: `{"listIndexes":"c"}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.c","firstBatch":[{"v":2,"key":{"_id":1},"name":"_id_"},{"v":2,"key":{"a":1},"name":"a_1","prepareUnique":true}]}}`},
		{name: "prepareUnique refuses a new duplicate key", ref: collModUniqueRef, docs: distinct, setup: []string{plain, prepare},
			cmd: `{"insert":"c","documents":[{"_id":3,"a":1}]}`, writeError: true,
			code: mongoerr.DuplicateKey, msg: "E11000 duplicate key error collection: {{db}}.c index: a_1 dup key: { a: 1 }"},
		{name: "prepareUnique refuses an update onto a held key", ref: collModUniqueRef, docs: distinct, setup: []string{plain, prepare},
			cmd: `{"update":"c","updates":[{"q":{"_id":2},"u":{"$set":{"a":1}}}]}`, writeError: true,
			code: mongoerr.DuplicateKey, msg: "E11000 duplicate key error collection: {{db}}.c index: a_1 dup key: { a: 1 }"},
		{name: "prepareUnique keeps the duplicates already held", ref: collModUniqueRef, docs: dups, setup: []string{plain, prepare},
			cmd: `{"update":"c","updates":[{"q":{"_id":2},"u":{"$set":{"b":1}}}]}`, want: `{"n":1,"nModified":1}`},
		{name: "prepareUnique with another change", ref: collModUniqueRef, docs: distinct, setup: []string{plain},
			cmd:  `{"collMod":"c","index":{"keyPattern":{"a":1},"prepareUnique":true},"validationLevel":"moderate"}`,
			code: mongoerr.InvalidOptions, msg: "prepareUnique cannot be combined with any other modification."},
		{name: "unique and forceNonUnique together", ref: collModUniqueRef, docs: distinct, setup: []string{plain},
			cmd:  `{"collMod":"c","index":{"keyPattern":{"a":1},"unique":true,"forceNonUnique":true}}`,
			code: mongoerr.InvalidOptions, msg: "collMod does not support 'unique' and 'forceNonUnique' options at the same time"},
		{name: "unique false", ref: collModUniqueRef, docs: distinct, setup: []string{plain, prepare},
			cmd: `{"collMod":"c","index":{"keyPattern":{"a":1},"unique":false}}`, code: mongoerr.BadValue, msg: "Cannot make index non-unique"},
		{name: "unique of a string", ref: collModUniqueRef, docs: distinct, setup: []string{plain, prepare},
			cmd:  `{"collMod":"c","index":{"keyPattern":{"a":1},"unique":"100"}}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'collMod.index.unique' is the wrong type 'string', expected types '[bool, long, int, decimal, double']"},
		{name: "forceNonUnique false", ref: collModUniqueRef, docs: distinct, setup: []string{plain},
			cmd: `{"collMod":"c","index":{"keyPattern":{"a":1},"forceNonUnique":false}}`, code: mongoerr.BadValue, msg: "'forceNonUnique: false' is not supported"},
		{name: "unique on a collection that does not exist", ref: collModUniqueRef,
			cmd:  `{"collMod":"nothere","index":{"keyPattern":{"a":1},"unique":true}}`,
			code: mongoerr.NamespaceNotFound, msg: "ns does not exist for unique index conversion: {{db}}.nothere"},
		{name: "unique converts, and the index then refuses duplicates", ref: collModUniqueRef, docs: distinct, setup: []string{plain, prepare},
			cov: cover{family: commandFam, op: "collMod", col: semantics}, cmd: `{"collMod":"c","index":{"keyPattern":{"a":1},"unique":true}}`, want: `{"unique_new":true}`,
			thenFind: `{"listIndexes":"c"}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.c","firstBatch":[{"v":2,"key":{"_id":1},"name":"_id_"},{"v":2,"key":{"a":1},"name":"a_1","unique":true}]}}`},
		{name: "unique of a unique index is a no-op", ref: collModUniqueRef, docs: distinct, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1","unique":true}]}`},
			cmd: `{"collMod":"c","index":{"keyPattern":{"a":1},"unique":true}}`, want: `{"ok":1.0}`},
		{name: "forceNonUnique turns a unique index plain", ref: collModUniqueRef, docs: distinct, setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1","unique":true}]}`},
			cov: cover{family: commandFam, op: "collMod", col: semantics}, cmd: `{"collMod":"c","index":{"name":"a_1","forceNonUnique":true}}`, want: `{"forceNonUnique_new":true}`,
			thenFind: `{"insert":"c","documents":[{"_id":3,"a":1}]}`, thenWant: `{"n":1}`},
		{name: "dryRun without an index", ref: collModUniqueRef, docs: distinct,
			cmd: `{"collMod":"c","validationLevel":"off","dryRun":true}`, code: mongoerr.InvalidOptions, msg: "dry run mode requires an valid index modification."},
		{name: "dryRun without unique", ref: collModUniqueRef, docs: distinct, setup: []string{plain},
			cmd: `{"collMod":"c","index":{"keyPattern":{"a":1},"hidden":true},"dryRun":true}`, code: mongoerr.InvalidOptions, msg: "dry run mode requires an index modification with unique: true."},
		{name: "dryRun with another change", ref: collModUniqueRef, docs: distinct, setup: []string{plain, prepare},
			cmd:  `{"collMod":"c","index":{"keyPattern":{"a":1},"unique":true,"hidden":true},"dryRun":true}`,
			code: mongoerr.InvalidOptions, msg: "unique: true cannot be combined with any other modification in dry run mode."},
		{name: "dryRun changes nothing", ref: collModUniqueRef, docs: distinct, setup: []string{plain, prepare},
			cov: cover{family: commandFam, op: "collMod", col: semantics}, cmd: `{"collMod":"c","index":{"keyPattern":{"a":1},"unique":true},"dryRun":true}`, want: `{"ok":1.0}`,
			thenFind: `{"listIndexes":"c"}`, thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"{{db}}.c","firstBatch":[{"v":2,"key":{"_id":1},"name":"_id_"},{"v":2,"key":{"a":1},"name":"a_1","prepareUnique":true}]}}`},
		{name: "createIndexes with prepareUnique, then without", ref: collModUniqueRef, docs: distinct,
			setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1","prepareUnique":true}]}`},
			cmd:   `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1","prepareUnique":false}]}`, code: mongoerr.IndexOptionsConflict,
			msg: `An equivalent index already exists with the same name but different options. Requested index: { v: 2, key: { a: 1 }, name: "a_1", prepareUnique: false }, existing index: { v: 2, key: { a: 1 }, name: "a_1", prepareUnique: true }`},
		{name: "uniqueness of a time-series collection's index", ref: collModUniqueRef,
			setup: []string{`{"create":"ts","timeseries":{"timeField":"t","metaField":"m"}}`},
			cmd:   `{"collMod":"ts","index":{"keyPattern":{"m":1,"t":1},"prepareUnique":true}}`,
			code:  mongoerr.NotImplemented, msg: "changing the uniqueness of a time-series collection's index is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it"},
	})

	s := newSuite(t)
	s.runCase(t, "the violations list the _ids sharing each key, in index order", collModUniqueRef,
		cover{family: commandFam, op: "collMod", col: errorCol}, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), dups)
			mustCommand(t, db, plain)
			mustCommand(t, db, prepare)
			for _, dryRun := range []bool{false, true} {
				cmd := bson.D{{Key: "collMod", Value: "c"}, {Key: "index", Value: bson.D{{Key: "keyPattern", Value: bson.D{{Key: "a", Value: 1}}}, {Key: "unique", Value: true}}}}
				if dryRun {
					cmd = append(cmd, bson.E{Key: "dryRun", Value: true})
				}
				_, ce := command(t, db, cmd)
				sameError(t, relaxed(cmd), ce, mongoerr.CannotConvertIndexToUnique, "Cannot convert the index to unique. Please resolve conflicting documents before running collMod again.")
				if ce == nil {
					continue
				}
				var reply bson.D
				if err := bson.Unmarshal(ce.Raw, &reply); err != nil {
					t.Fatal(err)
				}
				if got, want := relaxed(field(reply, "violations")), `[{"ids":[1,2]},{"ids":[3,4]}]`; got != want {
					t.Errorf("dryRun %v: violations %s, want %s", dryRun, got, want)
				}
			}
		})
}
