package engine

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/storagestats"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// scaleArg reads collStats/dbStats' scale: a positive number.
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
	if err := a.checkKnown(true, "scale", "verbose", "waitForLock"); err != nil {
		return nil, err
	}
	scale, err := scaleArg(a)
	if err != nil {
		return nil, err
	}
	if ts, _, ok := e.timeseriesView(req.db, collName); ok {
		return appendNumberStyleDoc(e.timeseriesCollStats(ts, stripOK(storagestats.CollStats(ts.view.NS(), ts.buckets, scale)))), nil
	}
	out := storagestats.CollStats(ns(req.db, collName), e.catalog.Snapshot(req.db, collName), scale)
	return appendNumberStyleDoc(stripOK(out)), nil
}

func cmdDBStats(e *Engine, req *request) (bson.D, error) {
	a := newArgs(req)
	if err := a.checkKnown(true, "scale", "freeStorage"); err != nil {
		return nil, err
	}
	scale, err := scaleArg(a)
	if err != nil {
		return nil, err
	}
	free, err := a.boolean("freeStorage", false)
	if err != nil {
		return nil, err
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
