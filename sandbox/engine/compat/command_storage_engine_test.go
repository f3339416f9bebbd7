package compat_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The storageEngine options of create, of its indexOptionDefaults and of
// an index spec: validateStorageOptions (src/mongo/db/storage/
// storage_engine_init.cpp) wants each field to name a registered engine
// and hold a document of options, which WiredTiger (and inMemory, built on
// it) checks in WiredTigerRecordStore::parseOptionsField,
// WiredTigerIndex::parseIndexOptions and
// WiredTigerUtil::checkTableCreationOptions; an index's storageEngine is
// checked by IndexCatalogImpl::_isSpecOk (index_catalog_impl.cpp). The
// cases name the engine the server reports in serverStatus, as
// jstests/core/apitest_db.js does, so that they hold on any mongod.
const storageEngineRef = "src/mongo/db/storage/storage_engine_init.cpp (validateStorageOptions); jstests/core/apitest_db.js"

func TestStorageEngineOptions(t *testing.T) {
	const wtRef = "src/mongo/db/storage/wiredtiger/wiredtiger_util.cpp (checkTableCreationOptions)"
	const isSpecOkRef = "src/mongo/db/catalog/index_catalog_impl.cpp (_isSpecOk)"
	const idxCmd = `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1","storageEngine":%s}]}`
	idx := func(opts string) string { return strings.Replace(idxCmd, "%s", opts, 1) }
	cases := []struct {
		name, ref, cmd string
		code           int32
		msg            string
		then           string // a listCollections or listIndexes reply the success is checked by
	}{
		{name: "create with no storage engine options", ref: storageEngineRef, cmd: `{"create":"c","storageEngine":{}}`},
		{name: "create with the server's engine", ref: storageEngineRef, cmd: `{"create":"c","storageEngine":{"{{engine}}":{}}}`,
			then: `{"storageEngine":{"{{engine}}":{}}}`},
		{name: "create with a configString", ref: wtRef, cmd: `{"create":"c","storageEngine":{"{{engine}}":{"configString":"split_pct=88"}}}`,
			then: `{"storageEngine":{"{{engine}}":{"configString":"split_pct=88"}}}`},
		{name: "create with storageEngine not a document", ref: "src/mongo/db/commands/create.idl", cmd: `{"create":"c","storageEngine":"x"}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'create.storageEngine' is the wrong type 'string', expected type 'object'"},
		{name: "create with an unregistered engine", ref: storageEngineRef, cmd: `{"create":"c","storageEngine":{"unknownStorageEngine":{}}}`,
			code: mongoerr.InvalidOptions, msg: "unknownStorageEngine is not a registered storage engine for this server"},
		{name: "create with engine options not a document", ref: storageEngineRef, cmd: `{"create":"c","storageEngine":{"{{engine}}":12345}}`,
			code: mongoerr.BadValue, msg: "'storageEngine.{{engine}}' has to be an embedded document."},
		{name: "create with an unknown engine option", ref: "src/mongo/db/storage/wiredtiger/wiredtiger_record_store.cpp (parseOptionsField)",
			cmd:  `{"create":"c","storageEngine":{"{{engine}}":{"cacheSize":1}}}`,
			code: mongoerr.InvalidOptions, msg: "'cacheSize' is not a supported option."},
		{name: "create with a configString not a string", ref: wtRef, cmd: `{"create":"c","storageEngine":{"{{engine}}":{"configString":1}}}`,
			code: mongoerr.TypeMismatch, msg: "'configString' must be a string."},
		{name: "create with a configString holding NUL", ref: wtRef, cmd: `{"create":"c","storageEngine":{"{{engine}}":{"configString":"a\u0000b"}}}`,
			code: mongoerr.FailedToParse, msg: "malformed 'configString' value."},
		{name: "create with an LSM table", ref: wtRef, cmd: `{"create":"c","storageEngine":{"{{engine}}":{"configString":"type=lsm"}}}`,
			code: mongoerr.ErrConfigTypeLSM, msg: "Configuration 'type=lsm' is not supported."},
		{name: "indexOptionDefaults not a document", ref: "src/mongo/db/commands/create.idl", cmd: `{"create":"c","indexOptionDefaults":"x"}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'create.indexOptionDefaults' is the wrong type 'string', expected type 'object'"},
		{name: "indexOptionDefaults with an unknown field", ref: "src/mongo/db/catalog/collection_options.idl (IndexOptionDefaults, strict)",
			cmd:  `{"create":"c","indexOptionDefaults":{"unknownOption":true}}`,
			code: mongoerr.IDLUnknownField, msg: "BSON field 'create.indexOptionDefaults.unknownOption' is an unknown field."},
		{name: "indexOptionDefaults with an unregistered engine", ref: "src/mongo/db/catalog/database_impl.cpp (userCreateNS)",
			cmd:  `{"create":"c","indexOptionDefaults":{"storageEngine":{"unknownStorageEngine":{}}}}`,
			code: mongoerr.InvalidOptions, msg: "unknownStorageEngine is not a registered storage engine for this server"},
		{name: "indexOptionDefaults with the server's engine", ref: "src/mongo/db/catalog/database_impl.cpp (userCreateNS)",
			cmd: `{"create":"c","indexOptionDefaults":{"storageEngine":{"{{engine}}":{}}}}`, then: `{"indexOptionDefaults":{"storageEngine":{"{{engine}}":{}}}}`},
		{name: "an index with the server's engine", ref: isSpecOkRef, cmd: idx(`{"{{engine}}":{"configString":"split_pct=88"}}`),
			then: `{"v":2,"key":{"a":1},"name":"a_1","storageEngine":{"{{engine}}":{"configString":"split_pct=88"}}}`},
		{name: "an index with storageEngine not a document", ref: isSpecOkRef, cmd: idx(`1`),
			code: mongoerr.CannotCreateIndex, msg: `"storageEngine" options must be a document if present`},
		{name: "an index with empty storageEngine", ref: isSpecOkRef, cmd: idx(`{}`),
			code: mongoerr.CannotCreateIndex, msg: `Empty "storageEngine" options are invalid. Please remove the field or include valid options.`},
		{name: "an index with an unregistered engine", ref: isSpecOkRef, cmd: idx(`{"unknownStorageEngine":{}}`),
			code: mongoerr.InvalidOptions, msg: "unknownStorageEngine is not a registered storage engine for this server"},
		{name: "an index with an unknown engine option", ref: "src/mongo/db/storage/wiredtiger/wiredtiger_index.cpp (parseIndexOptions)",
			cmd: idx(`{"{{engine}}":{"prefix":true}}`), code: mongoerr.InvalidOptions, msg: "'prefix' is not a supported option."},
	}
	s := newSuite(t)
	for _, tc := range cases {
		first := ejDoc(t, strings.ReplaceAll(tc.cmd, "{{engine}}", "e"))[0].Key
		s.runCase(t, tc.name, tc.ref, cover{family: commandFam, op: first, col: errorsOr(tc.code)}, func(t *testing.T, db *mongo.Database) {
			engineName := serverEngine(t, db)
			fill := func(js string) string { return strings.ReplaceAll(js, "{{engine}}", engineName) }
			_, err := command(t, db, ejDoc(t, fill(tc.cmd)))
			if tc.code != 0 {
				sameError(t, tc.cmd, err, tc.code, fill(tc.msg))
				return
			}
			if err != nil {
				t.Fatalf("%s: %v", tc.cmd, err)
			}
			if tc.then == "" {
				return
			}
			if first == "createIndexes" {
				specs, err := cursorDocs(t, db, bson.D{{Key: "listIndexes", Value: "c"}})
				if err != nil || len(specs) != 2 {
					t.Fatalf("listIndexes: %v %v", specs, err)
				}
				sameValue(t, "the index's spec", specs[1], fill(tc.then))
				return
			}
			infos, err := cursorDocs(t, db, bson.D{{Key: "listCollections", Value: 1}, {Key: "filter", Value: bson.D{{Key: "name", Value: "c"}}}})
			if err != nil || len(infos) != 1 {
				t.Fatalf("listCollections: %v %v", infos, err)
			}
			sameValue(t, "the collection's options", field(infos[0], "options"), fill(tc.then))
		})
	}
}

// serverEngine is the storage engine the server reports it runs.
func serverEngine(t *testing.T, db *mongo.Database) string {
	t.Helper()
	status := mustCommand(t, db.Client().Database("admin"), `{"serverStatus":1}`)
	section, _ := field(status, "storageEngine").(bson.D)
	name, _ := field(section, "name").(string)
	if name == "" {
		t.Fatalf("serverStatus has no storageEngine.name: %s", relaxed(section))
	}
	return name
}

// serverStatus' storageEngine section: StorageSSS (src/mongo/db/storage/
// storage_init.cpp, 8.0). Its figures are the server's own (a standalone
// has no oplog, so no crash-recovery timestamp); the engine it names is
// one buildInfo lists.
func TestServerStatusStorageEngine(t *testing.T) {
	s := newSuite(t)
	ref := "src/mongo/db/storage/storage_init.cpp (StorageSSS); jstests/core/apitest_db.js"
	s.runCase(t, "serverStatus storageEngine section", ref, cover{family: commandFam, op: "serverStatus", col: semantics}, func(t *testing.T, db *mongo.Database) {
		admin := db.Client().Database("admin")
		status := mustCommand(t, admin, `{"serverStatus":1}`)
		section, _ := field(status, "storageEngine").(bson.D)
		var keys []string
		for _, e := range section {
			keys = append(keys, e.Key)
		}
		want := "name supportsCommittedReads oldestRequiredTimestampForCrashRecovery supportsPendingDrops dropPendingIdents supportsSnapshotReadConcern readOnly persistent backupCursorOpen"
		if got := strings.Join(keys, " "); got != want {
			t.Errorf("storageEngine fields\n got: %s\nwant: %s", got, want)
		}
		if ts, ok := field(section, "oldestRequiredTimestampForCrashRecovery").(bson.Timestamp); !ok || ts != (bson.Timestamp{}) {
			t.Errorf("oldestRequiredTimestampForCrashRecovery: %v", field(section, "oldestRequiredTimestampForCrashRecovery"))
		}
		if _, ok := field(section, "dropPendingIdents").(int64); !ok {
			t.Errorf("dropPendingIdents is not a long: %v", field(section, "dropPendingIdents"))
		}
		info := mustCommand(t, admin, `{"buildInfo":1}`)
		engines, _ := field(info, "storageEngines").(bson.A)
		listed := false
		for _, e := range engines {
			listed = listed || e == field(section, "name")
		}
		if !listed {
			t.Errorf("buildInfo.storageEngines %v does not list %v", engines, field(section, "name"))
		}
		trimmed := mustCommand(t, admin, `{"serverStatus":1,"storageEngine":0}`)
		if field(trimmed, "storageEngine") != nil {
			t.Errorf("storageEngine: 0 left the section in")
		}
	})
}
