package engine

import (
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/storagestats"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// scaleArg reads collStats' scale, an IDL safeInt64 with {gte: 1}.
func scaleArg(a args) (int64, error) {
	n, ok, err := a.int64Arg("scale")
	if err != nil || !ok {
		return 1, err
	}
	if n < 1 {
		return 0, mongoerr.Newf(51024, "BSON field 'scale' value must be >= 1, actual value '%d'", n)
	}
	return n, nil
}

func cmdCollStats(e *Engine, req *request) (bson.D, error) {
	collName, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	a := newArgs(req)
	// CollStatsCommand chains StorageStatsSpec (storage_stats_spec.idl);
	// the flags change what a WiredTiger server reports of its tables,
	// which the sandbox's storage engine does not have.
	if err := a.checkKnown(true, "scale", "verbose", "waitForLock", "numericOnly"); err != nil {
		return nil, err
	}
	for _, flag := range []string{"verbose", "waitForLock", "numericOnly"} {
		if _, err := a.optionalBool(flag); err != nil {
			return nil, err
		}
	}
	scale, err := scaleArg(a)
	if err != nil {
		return nil, err
	}
	if ts, _, ok := e.timeseriesView(req.db, collName); ok {
		return appendNumberStyleDoc(e.timeseriesCollStats(ts, stripOK(storagestats.CollStats(ts.view.NS(), ts.buckets, scale)))), nil
	}
	// appendCollectionStorageStats takes the collection with views
	// forbidden (storage_stats.cpp), as dataSize does.
	if e.isView(req.db, collName) {
		return nil, errViewNotCollection(req.db, collName)
	}
	out := storagestats.CollStats(ns(req.db, collName), e.catalog.Snapshot(req.db, collName), scale)
	return appendNumberStyleDoc(stripOK(out)), nil
}

// cmdDBStats is CmdDbStats (dbcommands.cpp): unlike collStats', its
// scale has no IDL bound; typedRun refuses one below 1 with BadValue.
func cmdDBStats(e *Engine, req *request) (bson.D, error) {
	a := newArgs(req)
	if err := a.checkKnown(true, "scale", "freeStorage"); err != nil {
		return nil, err
	}
	scale, given, err := a.int64Arg("scale")
	if err != nil {
		return nil, err
	}
	if !given {
		scale = 1
	}
	free, err := a.boolean("freeStorage", false)
	if err != nil {
		return nil, err
	}
	if scale < 1 {
		return nil, mongoerr.New(mongoerr.BadValue, "Scale factor must be greater than zero")
	}
	if err := catalog.ValidateDBName(req.db); err != nil {
		return nil, err
	}
	return appendNumberStyleDoc(stripOK(storagestats.DBStats(req.db, e.catalog.Database(req.db), scale, free))), nil
}

// stripOK drops an "ok" field a renderer may have added: Run appends it.
func stripOK(d bson.D) bson.D {
	out := d[:0:0]
	for _, f := range d {
		if f.Key != "ok" {
			out = append(out, f)
		}
	}
	return out
}

// errWrongTypeForField is BSONElement::String()'s code for a field that
// holds no string.
const errWrongTypeForField = 13111

// cmdDataSize is mongod's dataSize (src/mongo/db/commands/dbcommands.cpp,
// CmdDatasize): the BSON bytes and number of the documents of a
// namespace, all of them or, given min and max, those whose key (an
// index's, named by keyPattern or inferred from min's fields) is in
// [min, max). estimate counts the collection's average document size per
// document instead of each one's own.
func cmdDataSize(e *Engine, req *request) (bson.D, error) {
	start := time.Now()
	namespace, ok := req.cmd[0].Value.(string)
	if !ok {
		return nil, mongoerr.Newf(errWrongTypeForField, "wrong type for field (dataSize) %d != 2", value.TypeNumber(req.cmd[0].Value))
	}
	a := newArgs(req)
	if err := a.checkKnown(true, "keyPattern", "min", "max", "estimate", "maxSize", "maxObjects"); err != nil {
		return nil, err
	}
	db, collName, _ := strings.Cut(namespace, ".")
	if err := catalog.ValidateNamespace(db, collName); err != nil {
		return nil, mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid namespace specified '%s'", namespace)
	}
	min, _ := value.Get(req.cmd, "min").(bson.D)
	max, _ := value.Get(req.cmd, "max").(bson.D)
	keyPattern, _ := value.Get(req.cmd, "keyPattern").(bson.D)
	estimate := expr.IsTrue(value.Get(req.cmd, "estimate"))
	maxSize, _ := value.SafeNumberLong(value.Get(req.cmd, "maxSize"))
	maxObjects, _ := value.SafeNumberLong(value.Get(req.cmd, "maxObjects"))
	millis := func() bson.E { return bson.E{Key: "millis", Value: int32(time.Since(start).Milliseconds())} }
	coll := e.catalog.Snapshot(db, collName)
	if coll == nil {
		return bson.D{{Key: "size", Value: int32(0)}, {Key: "numObjects", Value: int32(0)}, millis()}, nil
	}
	if coll.Kind == catalog.KindView {
		// AutoGetCollectionForReadCommand forbids views (db_raii.cpp).
		return nil, errViewNotCollection(db, collName)
	}
	reply := bson.D{{Key: "estimate", Value: estimate}}
	if len(min) == 0 && len(max) == 0 && estimate {
		return append(append(reply, appendNumberStyleDoc(bson.D{{Key: "size", Value: coll.DataSize()},
			{Key: "numObjects", Value: int64(coll.Count())}})...), millis()), nil
	}
	inRange := func(bson.D) bool { return true }
	if len(min) > 0 || len(max) > 0 {
		if len(min) == 0 || len(max) == 0 {
			return nil, codelessError("only one of min or max specified")
		}
		if len(keyPattern) == 0 {
			keyPattern = make(bson.D, len(min))
			for i, f := range min {
				keyPattern[i] = bson.E{Key: f.Key, Value: int32(1)}
			}
		}
		if !hasKeyPrefixedIndex(coll, keyPattern) {
			return nil, codelessError("couldn't find valid index containing key pattern")
		}
		inRange = func(doc bson.D) bool {
			key := make(bson.A, len(keyPattern))
			for i, f := range keyPattern {
				key[i] = value.Get(doc, f.Key)
				if value.IsMissing(key[i]) {
					key[i] = nil
				}
			}
			return value.Compare(key, docValues(min)) >= 0 && value.Compare(key, docValues(max)) < 0
		}
	}
	var size, n int64
	avg := int64(0)
	if c := int64(coll.Count()); c > 0 {
		avg = coll.DataSize() / c
	}
	maxReached := false
	coll.Scan(0, func(r *catalog.Record) bool {
		if !inRange(r.Doc) {
			return true
		}
		if estimate {
			size += avg
		} else {
			size += int64(r.Size)
		}
		n++
		if (maxSize > 0 && size > maxSize) || (maxObjects > 0 && n > maxObjects) {
			maxReached = true
			return false
		}
		return true
	})
	if maxReached {
		reply = append(reply, bson.E{Key: "maxReached", Value: true})
	}
	reply = append(reply, appendNumberStyleDoc(bson.D{{Key: "size", Value: size}, {Key: "numObjects", Value: n}})...)
	return append(reply, millis()), nil
}

// hasKeyPrefixedIndex reports whether an index's key pattern starts with
// keyPattern's fields (findShardKeyPrefixedIndex).
func hasKeyPrefixedIndex(coll *catalog.Collection, keyPattern bson.D) bool {
	for _, ix := range coll.Indexes() {
		if ix.Spec.Partial != nil || ix.Spec.Sparse || len(ix.Spec.Fields) < len(keyPattern) {
			continue
		}
		prefix := true
		for i, f := range keyPattern {
			if ix.Spec.Fields[i].Path != f.Key {
				prefix = false
				break
			}
		}
		if prefix {
			return true
		}
	}
	return false
}

func docValues(d bson.D) bson.A {
	out := make(bson.A, len(d))
	for i, f := range d {
		out[i] = f.Value
	}
	return out
}
