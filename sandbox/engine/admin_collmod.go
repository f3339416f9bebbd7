package engine

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// collModFields are collMod's options (collmod.idl). The sandbox acts on
// the validation options and on a time-series collection's granularity;
// the others it does not reproduce are refused rather than ignored.
var collModFields = []string{"validator", "validationLevel", "validationAction", "index", "viewOn",
	"pipeline", "expireAfterSeconds", "timeseries", "changeStreamPreAndPostImages", "cappedSize",
	"cappedMax", "timeseriesBucketsMayHaveMixedSchemaData", "dryRun", "collectionUUID",
	"recordIdsReplicated"}

func cmdCollMod(e *Engine, req *request) (bson.D, error) {
	collName, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	a := newArgs(req)
	if err := a.checkKnown(true, collModFields...); err != nil {
		return nil, err
	}
	var changes bson.D
	for _, f := range req.cmd[1:] {
		if genericArguments[f.Key] {
			continue
		}
		switch f.Key {
		case "validator", "validationLevel", "validationAction":
			changes = append(changes, f)
		case "timeseries":
			// handled by collModTimeseries
		default:
			return nil, mongoerr.Newf(mongoerr.NotImplemented,
				"collMod option '%s' is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it", f.Key)
		}
	}
	if err := validatorOptions(req); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	c := e.catalog.Collection(req.db, collName)
	if c == nil {
		return nil, mongoerr.New(mongoerr.NamespaceNotFound, "ns does not exist")
	}
	if c.Kind == catalog.KindTimeseries {
		return e.collModTimeseries(req, c, changes)
	}
	return bson.D{}, e.applyCollMod(req, c, changes)
}

// applyCollMod stores the new options (an empty validator removes the
// validator, as in mongod) and recompiles the validator.
func (e *Engine) applyCollMod(req *request, c *catalog.Collection, changes bson.D) error {
	opts := append(bson.D(nil), c.Options...)
	for _, ch := range changes {
		if d, ok := ch.Value.(bson.D); ok && ch.Key == "validator" && len(d) == 0 {
			opts = removeField(opts, "validator")
			continue
		}
		opts = setField(opts, ch.Key, ch.Value)
	}
	old := c.Options
	c.Options = opts
	if err := e.compileValidator(req, c); err != nil {
		c.Options = old
		return err
	}
	return nil
}

func setField(d bson.D, key string, v any) bson.D {
	for i := range d {
		if d[i].Key == key {
			d[i].Value = v
			return d
		}
	}
	return append(d, bson.E{Key: key, Value: v})
}

func removeField(d bson.D, key string) bson.D {
	out := d[:0:0]
	for _, f := range d {
		if f.Key != key {
			out = append(out, f)
		}
	}
	return out
}

// collModTimeseries is collMod on a time-series collection: its
// granularity can be raised (seconds to minutes to hours); the validation
// options belong to collections, not to the view.
func (e *Engine) collModTimeseries(req *request, view *catalog.Collection, changes bson.D) (bson.D, error) {
	if len(changes) > 0 {
		return nil, mongoerr.Newf(mongoerr.InvalidOptions, "option not supported on a view: %s", changes[0].Key)
	}
	ts, ok := e.timeseriesView(req.db, view.Name)
	if !ok {
		return nil, mongoerr.New(mongoerr.NamespaceNotFound, "ns does not exist")
	}
	mod, ok := value.Get(req.cmd, "timeseries").(bson.D)
	if !ok {
		return bson.D{}, nil
	}
	next, err := ts.opts.WithGranularity(mod)
	if err != nil {
		return nil, err
	}
	for _, c := range []*catalog.Collection{ts.view, ts.buckets} {
		c.Options = setField(append(bson.D(nil), c.Options...), "timeseries", next.Document())
	}
	return bson.D{}, nil
}
