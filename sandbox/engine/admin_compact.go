package engine

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// cmdCompact is mongod 8.0's compact on a standalone (CompactCmd in
// src/mongo/db/commands/compact.cpp, its fields in compact.idl, which is
// strict): the collection, or a time-series collection's buckets, must
// exist, a view is refused. The sandbox keeps its records in memory, with
// no free pages for compaction to give back, so it frees, and with dryRun
// estimates, 0 bytes.
func cmdCompact(e *Engine, req *request) (bson.D, error) {
	collName, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	a := newArgs(req)
	if err := a.checkKnown(true, "force", "dryRun", "freeSpaceTargetMB"); err != nil {
		return nil, err
	}
	dryRun := false
	for _, name := range []string{"force", "dryRun"} {
		v, ok := a.get(name)
		if !ok {
			continue
		}
		b, isBool := v.(bool)
		if !isBool {
			return nil, a.wrongType(name, v, "type 'bool'")
		}
		if name == "dryRun" {
			dryRun = b
		}
	}
	if _, _, err := a.int64Arg("freeSpaceTargetMB"); err != nil {
		return nil, err
	}
	switch e.catalog.Kind(req.db, collName) {
	case catalog.KindView:
		return nil, mongoerr.New(mongoerr.CommandNotSupportedOnView, "can't compact a view")
	case "":
		return nil, mongoerr.New(mongoerr.NamespaceNotFound, "collection does not exist")
	}
	field := "bytesFreed"
	if dryRun {
		field = "estimatedBytesFreed"
	}
	return bson.D{{Key: field, Value: appendNumber(0)}}, nil
}
