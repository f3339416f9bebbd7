// Package storageengine is what the sandbox says about its storage
// engine: its name, and the checks mongod makes of the storageEngine
// options a collection or an index is created with.
//
// The sandbox keeps its data in memory, and buildInfo has always listed
// its one storage engine as "inMemory", so that is the name it answers
// to: the only one registered (StorageEngine factories), the one
// serverStatus reports, and the only key a storageEngine option may
// name. It does not claim "wiredTiger", whose persistence it does not
// have, even though its storage statistics model WiredTiger's sizes.
// mongod's inMemory engine is WiredTiger without its files, and takes the
// same per-collection and per-index options (InMemoryFactory validates
// them with WiredTigerRecordStore::parseOptionsField and
// WiredTigerIndex::parseIndexOptions).
package storageengine

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Name is the registered storage engine's name.
const Name = "inMemory"

// ValidateOptions is validateStorageOptions (src/mongo/db/storage/
// storage_engine_init.cpp) over a create's storageEngine option, its
// indexOptionDefaults' or an index spec's: every field names a
// registered engine and is a document of that engine's options.
func ValidateOptions(opts bson.D) error {
	for _, e := range opts {
		engineOpts, ok := e.Value.(bson.D)
		if !ok {
			return mongoerr.Newf(mongoerr.BadValue, "'storageEngine.%s' has to be an embedded document.", e.Key)
		}
		if e.Key != Name {
			return mongoerr.Newf(mongoerr.InvalidOptions, "%s is not a registered storage engine for this server", e.Key)
		}
		if err := validateEngineOptions(engineOpts); err != nil {
			return err
		}
	}
	return nil
}

// validateEngineOptions is WiredTiger's parseOptionsField: configString
// is the one option (WiredTigerUtil::checkTableCreationOptions). The
// string's content is WiredTiger's configuration language, which
// wiredtiger_config_validate checks; the sandbox has no WiredTiger to ask,
// so beyond mongod's own checks (a string, no NUL, no LSM tables) it
// accepts the string and, having no tables to configure, stores it only.
func validateEngineOptions(opts bson.D) error {
	for _, e := range opts {
		if e.Key != "configString" {
			return mongoerr.Newf(mongoerr.InvalidOptions, "'%s' is not a supported option.", e.Key)
		}
		s, ok := e.Value.(string)
		if !ok {
			return mongoerr.New(mongoerr.TypeMismatch, "'configString' must be a string.")
		}
		if strings.Contains(s, "\x00") {
			return mongoerr.New(mongoerr.FailedToParse, "malformed 'configString' value.")
		}
		if strings.Contains(s, "type=lsm") {
			return mongoerr.New(mongoerr.ErrConfigTypeLSM, "Configuration 'type=lsm' is not supported.")
		}
	}
	return nil
}

// ValidateIndexOption is the end of IndexCatalogImpl::_isSpecOk
// (src/mongo/db/catalog/index_catalog_impl.cpp): an index spec's
// storageEngine, when present, is a non-empty document of valid options.
func ValidateIndexOption(spec bson.D) error {
	for _, e := range spec {
		if e.Key != "storageEngine" {
			continue
		}
		opts, ok := e.Value.(bson.D)
		if !ok {
			return mongoerr.New(mongoerr.CannotCreateIndex, `"storageEngine" options must be a document if present`)
		}
		if len(opts) == 0 {
			return mongoerr.New(mongoerr.CannotCreateIndex, `Empty "storageEngine" options are invalid. Please remove the field or include valid options.`)
		}
		return ValidateOptions(opts)
	}
	return nil
}

// Status is serverStatus' storageEngine section (StorageSSS,
// src/mongo/db/storage/storage_init.cpp, 8.0) of a standalone inMemory mongod: no oplog, so no timestamp is needed for
// crash recovery, nothing dropped is pending, writes are allowed, and
// the data does not outlive the process (isEphemeral).
func Status() bson.D {
	return bson.D{
		{Key: "name", Value: Name},
		{Key: "supportsCommittedReads", Value: true},
		{Key: "oldestRequiredTimestampForCrashRecovery", Value: bson.Timestamp{}},
		{Key: "supportsPendingDrops", Value: true},
		{Key: "dropPendingIdents", Value: int64(0)},
		{Key: "supportsSnapshotReadConcern", Value: true},
		{Key: "readOnly", Value: false},
		{Key: "persistent", Value: false},
		{Key: "backupCursorOpen", Value: false},
	}
}
