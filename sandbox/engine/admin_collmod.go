package engine

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/timeseries"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// collModFields are collMod's options (collmod.idl). The sandbox acts on
// the validation options, an index's hidden and expireAfterSeconds, and a
// time-series collection's granularity; the others it does not reproduce
// are refused rather than ignored.
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
	if e.isView(req.db, collName) {
		return e.collModView(req, collName)
	}
	// parseCollModRequest checks pipeline, then viewOn, against a
	// collection that is no view.
	for _, opt := range []string{"pipeline", "viewOn"} {
		if _, ok := a.get(opt); ok {
			return nil, mongoerr.Newf(mongoerr.InvalidOptions, "option only supported on a view: %s", opt)
		}
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
		case "cappedSize", "cappedMax":
			// handled by cappedLimitArgs and applyCollMod
		case "index":
			// handled by parseCollModIndex and collModIndex
		default:
			return nil, mongoerr.Newf(mongoerr.NotImplemented,
				"collMod option '%s' is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it", f.Key)
		}
	}
	if err := validatorOptions(req); err != nil {
		return nil, err
	}
	idx, err := parseCollModIndex(a)
	if err != nil {
		return nil, err
	}
	capped, err := cappedLimitArgs(a, "cappedSize", "cappedMax")
	if err != nil {
		return nil, err
	}
	// One namespace change: writers see the old options and validator or
	// the new ones (they read both under the collection's write lock, which
	// the change takes to set them), and a time-series collection's view
	// and buckets change together.
	var reply bson.D
	err = e.catalog.ChangeNamespace(req.db, func(ch *catalog.Change) error {
		c := ch.Snapshot(collName)
		if c == nil {
			return mongoerr.New(mongoerr.NamespaceNotFound, "ns does not exist")
		}
		if c.Kind == catalog.KindTimeseries {
			if capped.any() {
				// The buckets collection mongod would resize is not capped.
				return errNotCapped()
			}
			reply, err = collModTimeseries(req, ch, c, changes)
			return err
		}
		reply = bson.D{}
		if idx != nil {
			if reply, err = collModIndex(ch, c, idx); err != nil {
				return err
			}
		}
		if len(changes) == 0 && !capped.any() {
			return nil
		}
		return e.applyCollMod(req, ch, c, changes, capped)
	})
	if err != nil {
		return nil, err
	}
	return reply, nil
}

// applyCollMod stores the new options of c (a snapshot of the collection
// ch changes; an empty validator removes the validator, as in mongod) and
// the validator compiled from them, together.
func (e *Engine) applyCollMod(req *request, ch *catalog.Change, c *catalog.Collection, changes bson.D, capped cappedChange) error {
	opts := append(bson.D(nil), c.Options...)
	if capped.any() {
		var err error
		if opts, err = capped.apply(c, opts); err != nil {
			return err
		}
	}
	for _, change := range changes {
		if d, ok := change.Value.(bson.D); ok && change.Key == "validator" && len(d) == 0 {
			opts = removeField(opts, "validator")
			continue
		}
		opts = setField(opts, change.Key, change.Value)
	}
	validator, err := e.compileValidator(req, opts)
	if err != nil {
		return err
	}
	return ch.Write(c.Name, false, func(live *catalog.Collection) error {
		live.Options, live.Validator = opts, validator
		return nil
	})
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

// collModTimeseries is collMod on a time-series collection (view, a
// snapshot, as ch sees it): its granularity can be raised (seconds to
// minutes to hours); the validation options belong to collections, not to
// the view. The view and its buckets get the new options in one change,
// and an insert, which reads them from the buckets under their write
// lock, buckets by either the old granularity or the new one.
func collModTimeseries(req *request, ch *catalog.Change, view *catalog.Collection, changes bson.D) (bson.D, error) {
	if len(changes) > 0 {
		return nil, mongoerr.Newf(mongoerr.InvalidOptions, "option not supported on a view: %s", changes[0].Key)
	}
	if ch.Snapshot(bucketsPrefix+view.Name) == nil {
		return nil, mongoerr.New(mongoerr.NamespaceNotFound, "ns does not exist")
	}
	mod, ok := value.Get(req.cmd, "timeseries").(bson.D)
	if !ok {
		return bson.D{}, nil
	}
	spec, _ := value.Get(view.Options, "timeseries").(bson.D)
	next, err := timeseries.FromDocument(spec).WithGranularity(mod)
	if err != nil {
		return nil, err
	}
	for _, name := range []string{view.Name, bucketsPrefix + view.Name} {
		err := ch.Write(name, false, func(c *catalog.Collection) error {
			c.Options = setField(append(bson.D(nil), c.Options...), "timeseries", next.Document())
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return bson.D{}, nil
}

// collModIndexRequest is collMod's index option (CollModIndex in
// collmod.idl): an index named or given by key pattern, and the options
// to change on it.
type collModIndexRequest struct {
	name       string
	keyPattern bson.D
	hidden     *bool
	expire     any // expireAfterSeconds as given, nil when absent
}

func parseCollModIndex(a args) (*collModIndexRequest, error) {
	d, ok, err := a.document("index")
	if err != nil || !ok {
		return nil, err
	}
	ia := args{prefix: "collMod.index", doc: d}
	if err := ia.checkKnown(false, "keyPattern", "name", "expireAfterSeconds", "hidden", "prepareUnique", "unique",
		"forceNonUnique"); err != nil {
		return nil, err
	}
	r := &collModIndexRequest{}
	for _, f := range d {
		switch f.Key {
		case "prepareUnique", "unique", "forceNonUnique":
			return nil, mongoerr.Newf(mongoerr.NotImplemented,
				"collMod index option '%s' is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it", f.Key)
		}
	}
	if r.name, _, err = ia.str("name"); err != nil {
		return nil, err
	}
	if r.keyPattern, _, err = ia.document("keyPattern"); err != nil {
		return nil, err
	}
	if _, ok := ia.get("hidden"); ok {
		h, err := ia.boolean("hidden", false)
		if err != nil {
			return nil, err
		}
		r.hidden = &h
	}
	if v, ok := ia.get("expireAfterSeconds"); ok {
		if !value.IsNumber(v) {
			return nil, ia.wrongType("expireAfterSeconds", v, "types '[long, int, decimal, double']")
		}
		r.expire = v
	}
	if r.name == "" && r.keyPattern == nil {
		return nil, mongoerr.New(mongoerr.InvalidOptions, "must specify either index name or key pattern")
	}
	if r.name != "" && r.keyPattern != nil {
		return nil, mongoerr.New(mongoerr.InvalidOptions, "Cannot specify both key pattern and name.")
	}
	if r.hidden == nil && r.expire == nil {
		return nil, mongoerr.New(mongoerr.InvalidOptions, "no expireAfterSeconds, hidden, prepareUnique, unique, or forceNonUnique field")
	}
	return r, nil
}

// collModIndex applies r to collection c (a snapshot of what ch
// changes) and returns the reply fields mongod's coll_mod.cpp appends:
// expireAfterSeconds_old (when there was one) and _new, hidden_old and
// hidden_new.
func collModIndex(ch *catalog.Change, c *catalog.Collection, r *collModIndexRequest) (bson.D, error) {
	// parseCollModRequest refuses a TTL on a capped collection before it
	// looks the index up.
	if r.expire != nil && c.IsCapped() {
		return nil, mongoerr.New(mongoerr.InvalidOptions, "TTL indexes are not supported for capped collections.")
	}
	var target *index.Spec
	if r.name != "" {
		if ix := c.Index(r.name); ix != nil {
			spec := ix.Spec
			target = &spec
		}
	} else if ixs := c.IndexesByKey(r.keyPattern); len(ixs) == 1 {
		spec := ixs[0].Spec
		target = &spec
	} else if len(ixs) > 1 {
		return nil, mongoerr.Newf(mongoerr.AmbiguousIndexKeyPattern,
			"index keyPattern %s matches %d indexes, must use index name.", index.FormatDoc(r.keyPattern), len(ixs))
	}
	if target == nil {
		what := r.name
		if r.name == "" {
			what = index.FormatDoc(r.keyPattern)
		}
		return nil, mongoerr.Newf(mongoerr.IndexNotFound, "cannot find index %s for ns %s", what, c.NS())
	}
	spec := *target
	spec.Options = append(bson.D(nil), target.Options...)
	reply := bson.D{}
	if r.expire != nil {
		if reason := index.ExpireAfterSecondsProblem(r.expire); reason != "" {
			return nil, mongoerr.New(mongoerr.InvalidOptions, reason)
		}
		if len(spec.Fields) != 1 {
			return nil, mongoerr.Newf(mongoerr.InvalidOptions,
				"TTL indexes are single-field indexes, compound indexes do not support TTL. Index spec: %s", index.FormatDoc(spec.Document()))
		}
		next := setField(append(bson.D(nil), spec.Options...), "expireAfterSeconds", r.expire)
		if old := value.Get(spec.Options, "expireAfterSeconds"); !value.IsMissing(old) {
			reply = append(reply, bson.E{Key: "expireAfterSeconds_old", Value: old})
		}
		reply = append(reply, bson.E{Key: "expireAfterSeconds_new", Value: r.expire})
		spec.Options = next
	}
	if r.hidden != nil {
		if spec.IsID() && *r.hidden {
			return nil, mongoerr.New(mongoerr.BadValue, "can't hide _id index")
		}
		reply = append(reply, bson.E{Key: "hidden_old", Value: spec.Hidden}, bson.E{Key: "hidden_new", Value: *r.hidden})
		spec.Hidden = *r.hidden
		spec.Options = removeField(spec.Options, "hidden")
		if spec.Hidden {
			spec.Options = append(spec.Options, bson.E{Key: "hidden", Value: true})
		}
	}
	err := ch.Write(c.Name, false, func(live *catalog.Collection) error {
		live.SetIndexSpec(spec.Name, spec)
		return nil
	})
	return reply, err
}
