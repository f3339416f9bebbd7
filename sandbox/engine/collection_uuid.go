package engine

import (
	"bytes"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// checkCollectionUUID is checkCollectionUUIDMismatch
// (collection_uuid_mismatch.cpp) for the commands whose IDL has a
// collectionUUID: when the command names one, the namespace must be a
// collection with that UUID, or the command fails with
// CollectionUUIDMismatch, which says which collection of the same database
// has the UUID (actualCollection, null if none). A view never matches, nor
// does a time-series collection, which 8.0 keeps as a view on its buckets:
// the buckets' UUID names system.buckets.<name> as the actual collection
// (jstests/core/timeseries/ddl/timeseries_collection_uuid.js, viewful).
func (e *Engine) checkCollectionUUID(c *command, req *request) error {
	if !c.collectionUUID {
		return nil
	}
	want, ok, err := newArgs(req).uuid("collectionUUID")
	if err != nil || !ok {
		return err
	}
	if c.name == "aggregate" {
		// runAggregate refuses a UUID for what reads no collection.
		if _, isString := req.cmd[0].Value.(string); !isString {
			return mongoerr.New(4928901, "collectionUUID is not supported for a collectionless aggregation")
		}
		if pipeline, _ := value.Get(req.cmd, "pipeline").(bson.A); len(pipeline) > 0 {
			if first, _ := pipeline[0].(bson.D); len(first) > 0 && first[0].Key == "$changeStream" {
				return mongoerr.New(4928900, "collectionUUID is not supported for a change stream")
			}
		}
	}
	db, coll := req.db, ""
	if name, isString := req.cmd[0].Value.(string); isString {
		coll = name
		if c.name == "renameCollection" {
			// renameCollection names its source as db.collection.
			db, coll, _ = strings.Cut(name, ".")
		}
	}
	if c.name == "collMod" && strings.HasPrefix(coll, bucketsPrefix) {
		// CollectionModCommand refuses a buckets namespace before
		// processCollMod compares the UUID (cmdCollMod's InvalidNamespace;
		// SERVER-87446 records that answer for a UUID of no collection).
		return nil
	}
	target := e.catalog.Snapshot(db, coll)
	if target != nil && target.Kind == catalog.KindCollection && bytes.Equal(target.UUID.Data, want.Data) {
		return nil
	}
	var actual any
	if d := e.catalog.Database(db); d != nil {
		for _, other := range d.Collections() {
			if other.Kind == catalog.KindCollection && bytes.Equal(other.UUID.Data, want.Data) {
				actual = other.Name
				break
			}
		}
	}
	mismatch := mongoerr.New(mongoerr.CollectionUUIDMismatch, "Collection UUID does not match that specified")
	mismatch.Extra = bson.D{{Key: "db", Value: db}, {Key: "collectionUUID", Value: want},
		{Key: "expectedCollection", Value: coll}, {Key: "actualCollection", Value: actual}}
	return mismatch
}

// binDataTypeName is typeName(BinDataType) of bsontypes.cpp.
func binDataTypeName(subtype byte) string {
	switch subtype {
	case 0:
		return "general"
	case 1:
		return "function"
	case 2:
		return "byte(deprecated)"
	case 3:
		return "UUID(deprecated)"
	case 4:
		return "UUID"
	case 5:
		return "MD5"
	case 6:
		return "encrypt"
	case 7:
		return "column"
	case 8:
		return "sensitive"
	case 9:
		return "vector"
	case 0x80:
		return "Custom"
	}
	return "invalid"
}
