package engine

import (
	"errors"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/timeseries"
	"github.com/schemalab/schemalab/sandbox/engine/update"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Time-series collections as mongod 8.0 lays them out: a view named after
// the collection (catalog kind "timeseries", listed in system.views) over
// the system.buckets.<name> collection that holds the buckets. Writes to
// the view go through the bucket catalog; reads run the view's pipeline,
// $_internalUnpackBucket, over the buckets collection, with the filter
// pushed down to the buckets as mongod's optimizer does.

const bucketsPrefix = "system.buckets."

// tsView is a resolved time-series collection. A read resolves it from
// one catalog.View (timeseriesView), so that the view's options and the
// buckets are snapshots of one instant. A write resolves it under the
// buckets collection's write lock (writeTimeseries), from the options the
// buckets carry, which collMod changes together with the view's; view is
// nil then.
type tsView struct {
	view, buckets *catalog.Collection
	opts          timeseries.Options
}

// isTimeseries reports whether db.coll is a time-series collection, by a
// name lookup: the cheap test read and write commands make first.
func (e *Engine) isTimeseries(db, coll string) bool {
	return e.catalog.Kind(db, coll) == catalog.KindTimeseries
}

// timeseriesView snapshots the time-series collection db.coll, its
// buckets and the other collections named (a pipeline's foreign ones)
// together.
func (e *Engine) timeseriesView(db, coll string, others ...catalog.Namespace) (*tsView, *catalog.View, bool) {
	if !e.isTimeseries(db, coll) {
		return nil, nil, false
	}
	names := append([]catalog.Namespace{{DB: db, Coll: coll}, {DB: db, Coll: bucketsPrefix + coll}}, others...)
	v := e.catalog.View(names...)
	ts, ok := timeseriesIn(v, db, coll)
	return ts, v, ok
}

// timeseriesIn resolves db.coll in v when it is a time-series collection.
func timeseriesIn(v *catalog.View, db, coll string) (*tsView, bool) {
	view := v.Collection(db, coll)
	if view == nil || view.Kind != catalog.KindTimeseries {
		return nil, false
	}
	b := v.Collection(db, bucketsPrefix+coll)
	if b == nil {
		return nil, false
	}
	spec, _ := value.Get(view.Options, "timeseries").(bson.D)
	return &tsView{view: view, buckets: b, opts: timeseries.FromDocument(spec)}, true
}

// errNotTimeseries is what a time-series write finds when db.coll
// stopped being one (it was dropped) between the name lookup and the
// write: the caller then writes as to an ordinary collection.
var errNotTimeseries = errors.New("not a time-series collection")

// writeTimeseries runs fn on db.coll's live buckets collection under its
// write lock: the one lock every write to a time-series collection takes,
// so that the bucket catalog and the buckets it commits change together.
func (e *Engine) writeTimeseries(db, coll string, fn func(ts *tsView) error) error {
	return e.catalog.Write(db, bucketsPrefix+coll, false, func(b *catalog.Collection) error {
		if b == nil {
			return errNotTimeseries
		}
		spec, ok := value.Get(b.Options, "timeseries").(bson.D)
		if !ok {
			return errNotTimeseries
		}
		return fn(&tsView{buckets: b, opts: timeseries.FromDocument(spec)})
	})
}

// errViewNotCollection is mongod's answer to a write to a view: what a
// time-series collection whose buckets collection was dropped on its own
// is left as.
func errViewNotCollection(db, coll string) error {
	return mongoerr.Newf(mongoerr.CommandNotSupportedOnView, "Namespace %s is a view, not a collection", ns(db, coll))
}

// timeseriesCreateOptions are the create options allowed with timeseries
// (timeseries::kAllowedCollectionCreationOptions).
var timeseriesCreateOptions = map[string]bool{
	"timeseries": true, "expireAfterSeconds": true, "storageEngine": true,
	"indexOptionDefaults": true, "collation": true,
}

// createTimeseries is create with the timeseries option: the view, the
// buckets collection, the system.views entry and, with a metaField, the
// default index on metaField and timeField.
func (e *Engine) createTimeseries(req *request, collName string) (bson.D, error) {
	nsName := ns(req.db, collName)
	var tsSpec any
	viewOpts := bson.D{}
	for _, f := range req.cmd[1:] {
		if genericArguments[f.Key] {
			continue
		}
		if f.Key == "capped" {
			if b, ok := f.Value.(bool); ok && !b {
				continue
			}
		}
		if !timeseriesCreateOptions[f.Key] {
			return nil, mongoerr.Newf(mongoerr.InvalidOptions, "%s: 'timeseries' is not allowed with '%s'", nsName, f.Key)
		}
		switch f.Key {
		case "timeseries":
			tsSpec = f.Value
		case "expireAfterSeconds":
			n, ok := value.SafeNumberLong(f.Value)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field 'create.expireAfterSeconds' is the wrong type '%s', expected types '[long, int, decimal, double']", value.TypeName(f.Value))
			}
			// validateExpireAfterSeconds, as for a clustered collection
			// (_createLegacyTimeseries).
			if err := clusteredTTLProblem(n, req.now); err != nil {
				return nil, err
			}
			viewOpts = append(viewOpts, bson.E{Key: f.Key, Value: n})
		case "collation":
			if err := checkDefaultCollation(newArgs(req)); err != nil {
				return nil, err
			}
			viewOpts = append(viewOpts, f)
		default:
			viewOpts = append(viewOpts, f)
		}
	}
	opts, err := timeseries.Parse(tsSpec, nsName)
	if err != nil {
		return nil, err
	}
	viewOpts = append(bson.D{{Key: "timeseries", Value: opts.Document()}}, viewOpts...)
	// A create on a buckets namespace makes the buckets collection alone,
	// with no view over it (_createLegacyTimeseries: "If the request came
	// directly on the bucket namespace we do not need to create the view").
	bucketsName, bucketsOnly := bucketsPrefix+collName, strings.HasPrefix(collName, bucketsPrefix)
	if bucketsOnly {
		bucketsName = collName
	}
	if err := catalog.ValidateNamespace(req.db, bucketsName); err != nil {
		return nil, err
	}
	// The buckets collection is clustered by _id and carries the options;
	// mongod also gives it an internal $jsonSchema validator of the bucket
	// shape, which the sandbox's own writes make unnecessary.
	bucketOpts := bson.D{{Key: "clusteredIndex", Value: true}, {Key: "timeseries", Value: opts.Document()}}
	bucketOpts = append(bucketOpts, viewOpts[1:]...)
	var indexSpec *index.Spec
	if opts.MetaField != "" {
		userKey := bson.D{{Key: opts.MetaField, Value: int32(1)}, {Key: opts.TimeField, Value: int32(1)}}
		bucketKey, err := bucketIndexKey(opts, userKey)
		if err != nil {
			return nil, err
		}
		spec, err := index.ParseSpec(bson.D{{Key: "key", Value: bucketKey}, {Key: "name", Value: index.DefaultName(userKey)}}, false)
		if err != nil {
			return nil, err
		}
		indexSpec = &spec
	}
	// One namespace change: the view, its buckets (with their index) and
	// the system.views entry appear together, or not at all.
	err = e.catalog.ChangeNamespace(req.db, func(ch *catalog.Change) error {
		if c := ch.Snapshot(collName); c != nil && !bucketsOnly {
			if c.Kind == catalog.KindTimeseries && value.Compare(c.Options, viewOpts) == 0 {
				return nil
			}
			return mongoerr.Newf(mongoerr.NamespaceExists, "namespace %s already exists, but with different options: %s", nsName, existingOptions(c))
		}
		buckets := ch.Snapshot(bucketsName)
		if buckets != nil {
			// createTimeseries (create_collection.cpp) reuses buckets
			// whose options match the ones it would create
			// (existingBucketCollectionIsCompatible): only the view is
			// made, over them as they are.
			if buckets.Kind != catalog.KindCollection || value.Compare(buckets.Options, bucketOpts) != 0 {
				return mongoerr.Newf(mongoerr.NamespaceExists, "namespace %s already exists, but with different options: %s", buckets.NS(), existingOptions(buckets))
			}
			if bucketsOnly {
				return nil
			}
		} else {
			if buckets, err = ch.Create(bucketsName, bucketOpts); err != nil {
				return err
			}
			if indexSpec != nil {
				if _, err := buckets.CreateIndex(*indexSpec); err != nil {
					return err
				}
			}
			if bucketsOnly {
				return nil
			}
		}
		view, err := ch.Create(collName, viewOpts)
		if err != nil {
			return err
		}
		view.Kind = catalog.KindTimeseries
		// Last: the one write to a collection that may exist already.
		return writeViewEntry(ch, nsName, buckets.Name, timeseriesViewPipeline(opts))
	})
	if err != nil {
		return nil, err
	}
	return bson.D{}, nil
}

// timeseriesViewPipeline is the pipeline of a time-series collection's
// view (generateViewPipeline): the unpacking of its buckets.
func timeseriesViewPipeline(o timeseries.Options) bson.A {
	return bson.A{bson.D{{Key: "$_internalUnpackBucket", Value: o.UnpackSpec()}}}
}

// dropTimeseries drops, as part of ch, a time-series collection's view,
// its buckets and its system.views entry. It returns drop's reply and the
// buckets collection, whose bucket-catalog state the caller forgets.
func dropTimeseries(ch *catalog.Change, view *catalog.Collection) (bson.D, *catalog.Collection) {
	buckets := ch.Snapshot(bucketsPrefix + view.Name)
	var n int32
	if buckets != nil {
		n = bucketsIndexCount(buckets)
		ch.Drop(buckets.Name)
	}
	ch.Drop(view.Name)
	deleteViewEntry(ch, view.NS())
	return bson.D{{Key: "nIndexesWas", Value: n}, {Key: "ns", Value: view.NS()}}, buckets
}

// bucketsIndexCount is the number of indexes a buckets collection has as
// drop reports it: its secondary indexes, the cluster key not counted.
func bucketsIndexCount(buckets *catalog.Collection) int32 {
	return int32(len(buckets.Indexes()) - 1)
}

// viewIndexKey converts a buckets index key back to the time-series
// schema (createTimeseriesIndexFromBucketsIndexSpec); ok is false for a
// key made on the buckets that has no such form (a field neither on the
// metaField nor a control.min/control.max pair), which listIndexes and
// $indexStats on the collection leave out.
func viewIndexKey(o timeseries.Options, key bson.D) (bson.D, bool) {
	out := bson.D{}
	for i := 0; i < len(key); i++ {
		k := key[i]
		switch {
		case k.Key == "meta" || strings.HasPrefix(k.Key, "meta."):
			out = append(out, bson.E{Key: o.MetaField + strings.TrimPrefix(k.Key, "meta"), Value: k.Value})
		case strings.HasPrefix(k.Key, "control.min.") || strings.HasPrefix(k.Key, "control.max."):
			out = append(out, bson.E{Key: k.Key[len("control.min."):], Value: k.Value})
			i++ // the min/max pair stands for one field
		default:
			return nil, false
		}
	}
	return out, len(out) > 0
}

// timeseriesIndexStats is $indexStats on a time-series collection: the
// buckets' index figures with keys in the collection's schema, leaving
// out an index made on the buckets whose key has no such form
// (DocumentSourceIndexStats over a time-series view).
func timeseriesIndexStats(ts *tsView, buckets []bson.D) []bson.D {
	var out []bson.D
	for _, d := range buckets {
		key, _ := value.Get(d, "key").(bson.D)
		viewKey, ok := viewIndexKey(ts.opts, key)
		if !ok {
			continue
		}
		d = append(bson.D(nil), d...)
		for i := range d {
			switch d[i].Key {
			case "key":
				d[i].Value = viewKey
			case "spec":
				spec, _ := d[i].Value.(bson.D)
				spec = append(bson.D(nil), spec...)
				for j := range spec {
					if spec[j].Key == "key" {
						spec[j].Value = viewKey
					}
				}
				d[i].Value = spec
			}
		}
		out = append(out, d)
	}
	return out
}

// timeseriesIndexSpecs lists a time-series collection's indexes in its
// own schema.
func timeseriesIndexSpecs(ts *tsView) []bson.D {
	var docs []bson.D
	for _, ix := range ts.buckets.Indexes() {
		if ix.Spec.IsID() {
			continue
		}
		viewKey, ok := viewIndexKey(ts.opts, ix.Spec.Key)
		if !ok {
			continue
		}
		d := listIndexesItem(ix.Spec)
		if orig, ok := value.Get(d, "originalSpec").(bson.D); ok {
			// createTimeseriesIndexFromBucketsIndex: the user's spec, as
			// collMod has hidden or unhidden it since.
			orig = slices.DeleteFunc(slices.Clone(orig), func(e bson.E) bool { return e.Key == "hidden" })
			if ix.Spec.Hidden {
				orig = append(orig, bson.E{Key: "hidden", Value: true})
			}
			docs = append(docs, orig)
			continue
		}
		for i := range d {
			switch d[i].Key {
			case "key":
				d[i].Value = viewKey
			case "partialFilterExpression":
				if f, ok := d[i].Value.(bson.D); ok {
					if vf, ok := viewFilter(ts.opts, f); ok {
						d[i].Value = vf
					}
				}
			}
		}
		docs = append(docs, d)
	}
	return docs
}

// createTimeseriesIndexes runs createIndexes against the buckets
// collection with the keys converted.
func (e *Engine) createTimeseriesIndexes(req *request, ts *tsView) (bson.D, error) {
	cmd := make(bson.D, 0, len(req.cmd))
	cmd = append(cmd, bson.E{Key: req.cmd[0].Key, Value: ts.buckets.Name})
	for _, f := range req.cmd[1:] {
		if f.Key != "indexes" {
			cmd = append(cmd, f)
			continue
		}
		arr, _ := f.Value.(bson.A)
		conv := make(bson.A, len(arr))
		for i, v := range arr {
			d, ok := v.(bson.D)
			if !ok {
				conv[i] = v
				continue
			}
			nd, err := bucketIndexSpec(ts.opts, d, req.cmd)
			if err != nil {
				return nil, err
			}
			key, _ := value.Get(d, "key").(bson.D)
			if value.IsMissing(value.Get(d, "name")) && key != nil {
				nd = append(nd, bson.E{Key: "name", Value: index.DefaultName(key)})
			}
			conv[i] = nd
		}
		cmd = append(cmd, bson.E{Key: f.Key, Value: conv})
	}
	sub := *req
	sub.cmd = cmd
	return cmdCreateIndexes(e, &sub)
}

// insertTimeseries is insert on a time-series collection of docs[from:]
// (whose BSON sizes are sizes): measurements go to the bucket catalog,
// which commits each touched bucket once, all under the buckets
// collection's write lock. Validation runs there too, against the
// validator the write sees. It returns errNotTimeseries, having written
// nothing, when the collection is no longer a time-series one.
func (e *Engine) insertTimeseries(req *request, collName string, docs bson.A, sizes []int, ordered bool, from int) (int, []writeError, error) {
	prepared := make([]bson.D, len(docs)-from)
	perrs := make([]*mongoerr.Error, len(prepared))
	for i := range prepared {
		prepared[i], perrs[i] = prepareInsert(docs[from+i].(bson.D), sizes[from+i])
	}
	var werrs []writeError
	n := 0
	err := e.writeTimeseries(req.db, collName, func(ts *tsView) error {
		measurements := make([]bson.D, 0, len(prepared))
		positions := make([]int, 0, len(prepared))
		for i, doc := range prepared {
			perr := perrs[i]
			if perr == nil {
				perr = e.validateWrite(req, ts.buckets, nil, doc)
			}
			if perr != nil {
				werrs = append(werrs, writeError{index: from + i, err: perr})
				if ordered {
					break
				}
				continue
			}
			measurements = append(measurements, normalizeMeta(ts.opts, doc))
			positions = append(positions, from+i)
		}
		var errs []timeseries.InsertError
		n, errs = e.buckets.Insert(ts.buckets, ts.opts, measurements, ordered)
		for _, ie := range errs {
			werrs = append(werrs, writeError{index: positions[ie.Index], err: ie.Err})
		}
		return nil
	})
	if err != nil {
		return 0, nil, err
	}
	sortWriteErrors(werrs)
	if ordered && len(werrs) > 1 {
		werrs = werrs[:1]
	}
	return n, werrs, nil
}

func sortWriteErrors(w []writeError) {
	for i := 1; i < len(w); i++ {
		for j := i; j > 0 && w[j].index < w[j-1].index; j-- {
			w[j], w[j-1] = w[j-1], w[j]
		}
	}
}

// normalizeMeta sorts the fields of a meta value's embedded documents, as
// mongod normalizes metadata before bucketing.
func normalizeMeta(o timeseries.Options, doc bson.D) bson.D {
	if o.MetaField == "" {
		return doc
	}
	for i, f := range doc {
		if f.Key != o.MetaField {
			continue
		}
		if _, isDoc := f.Value.(bson.D); !isDoc {
			return doc
		}
		out := append(bson.D(nil), doc...)
		out[i].Value = value.SortedFields(f.Value)
		return out
	}
	return doc
}

// unpackPipeline is the view's pipeline with a leading filter pushed
// down (timeseries.Pushdown): a $match on the buckets, then
// $_internalUnpackBucket with the whole-bucket and event filters.
func unpackPipeline(ts *tsView, filter bson.D) bson.A {
	o := ts.opts
	spec := o.UnpackSpec()
	if !ts.buckets.MayHaveMixedSchema {
		spec = append(spec, bson.E{Key: "assumeNoMixedSchemaData", Value: true})
	}
	if ts.buckets.ExtendedRange {
		spec = append(spec, bson.E{Key: "usesExtendedRange", Value: true})
	}
	state := ts.bucketState()
	var p bson.A
	if len(filter) > 0 {
		pd := o.Pushdown(filter, state)
		if pd.Buckets != nil {
			p = append(p, bson.D{{Key: "$match", Value: pd.Buckets}})
		}
		if pd.WholeBucket != nil {
			spec = append(spec, bson.E{Key: "wholeBucketFilter", Value: pd.WholeBucket})
		}
		if len(pd.Event) > 0 {
			spec = append(spec, bson.E{Key: "eventFilter", Value: pd.Event})
		}
	}
	if state.FixedBuckets {
		spec = append(spec, bson.E{Key: "fixedBuckets", Value: true})
	}
	return append(p, bson.D{{Key: "$_internalUnpackBucket", Value: spec}})
}

// bucketState is what the bucket predicates of a read of ts depend on.
// Its buckets are fixed only while collMod has never changed the
// bucketing (areTimeseriesBucketsFixed).
func (ts *tsView) bucketState() timeseries.BucketState {
	return timeseries.BucketState{
		MixedSchema:   ts.buckets.MayHaveMixedSchema,
		ExtendedRange: ts.buckets.ExtendedRange,
		FixedBuckets:  ts.opts.FixedBuckets() && !ts.buckets.BucketingChanged,
	}
}

// viewPipeline rewrites a read of the view (find, count, distinct or an
// aggregate pipeline) as a pipeline on the buckets collection.
func viewPipeline(req *request, ts *tsView) (bson.A, error) {
	switch req.name {
	case "find":
		s, err := parseFind(req)
		if err != nil {
			return nil, err
		}
		// A time-series collection is a view: its find goes through
		// asAggregationCommand as any view's does.
		if err := findAsAggregation(req.cmd, s); err != nil {
			return nil, err
		}
		return hoistMetaSort(ts.opts, unpackPipeline(ts, s.filter), s.stagesAfterFilter()), nil
	case "count":
		s, err := parseCount(req)
		if err != nil {
			return nil, err
		}
		p := unpackPipeline(ts, s.filter)
		if s.skip > 0 {
			p = append(p, bson.D{{Key: "$skip", Value: s.skip}})
		}
		if s.limit > 0 {
			p = append(p, bson.D{{Key: "$limit", Value: s.limit}})
		}
		return append(p, bson.D{{Key: "$count", Value: "count"}}), nil
	case "distinct":
		s, _, err := parseDistinct(req)
		if err != nil {
			return nil, err
		}
		return unpackPipeline(ts, s.filter), nil
	}
	s, err := parseAggregate(req)
	if err != nil {
		return nil, err
	}
	rest := s.pipeline
	var filter bson.D
	if len(rest) > 0 {
		if first, ok := rest[0].(bson.D); ok && len(first) == 1 && first[0].Key == "$match" {
			if f, isDoc := first[0].Value.(bson.D); isDoc {
				filter, rest = f, rest[1:]
			}
		}
	}
	return hoistMetaSort(ts.opts, unpackPipeline(ts, filter), rest), nil
}

// hoistMetaSort is unpack followed by rest, with a leading $sort of rest
// that orders by the metaField alone moved ahead of the unpacking, as
// DocumentSourceInternalUnpackBucket::doOptimizeAt moves it: buckets
// sorted by their meta unpack into measurements in that order. The
// $limits right after it go with it, the smallest kept below the sort
// and again after the unpacking, since a bucket holds one measurement or
// more.
func hoistMetaSort(o timeseries.Options, unpack, rest bson.A) bson.A {
	plain := append(unpack[:len(unpack):len(unpack)], rest...)
	if len(rest) == 0 {
		return plain
	}
	first, ok := rest[0].(bson.D)
	if !ok || len(first) != 1 || first[0].Key != "$sort" {
		return plain
	}
	spec, ok := first[0].Value.(bson.D)
	if !ok || len(spec) == 0 {
		return plain
	}
	bucketSort := make(bson.D, 0, len(spec))
	for _, k := range spec {
		n, isNum := value.SafeNumberLong(k.Value)
		path, onMeta := o.BucketMetaPath(k.Key)
		if !isNum || (n != 1 && n != -1) || !onMeta {
			return plain
		}
		bucketSort = append(bucketSort, bson.E{Key: path, Value: k.Value})
	}
	rest = rest[1:]
	limit := int64(-1)
	for len(rest) > 0 {
		d, ok := rest[0].(bson.D)
		if !ok || len(d) != 1 || d[0].Key != "$limit" {
			break
		}
		n, isNum := value.SafeNumberLong(d[0].Value)
		if !isNum || n <= 0 {
			break
		}
		if limit < 0 || n < limit {
			limit = n
		}
		rest = rest[1:]
	}
	out := append(bson.A{}, unpack[:len(unpack)-1]...)
	out = append(out, bson.D{{Key: "$sort", Value: bucketSort}})
	if limit > 0 {
		out = append(out, bson.D{{Key: "$limit", Value: limit}})
	}
	out = append(out, unpack[len(unpack)-1])
	if limit > 0 {
		out = append(out, bson.D{{Key: "$limit", Value: limit}})
	}
	return append(out, rest...)
}

// readTimeseries answers find, count, distinct and aggregate on a
// time-series collection, reading view: the snapshot ts was resolved
// from. find and aggregate stream their results through a cursor.
func (e *Engine) readTimeseries(req *request, ts *tsView, view *catalog.View) (bson.D, error) {
	pipeline, err := viewPipeline(req, ts)
	if err != nil {
		return nil, err
	}
	return e.readPipeline(req, view, ts.buckets.Name, ts.view.NS(), pipeline, timeseriesHint(req, ts.opts))
}

// timeseriesHint is the read's hint for the aggregate over the buckets
// collection mongod runs a read of a time-series collection as: {$natural:
// -1} scans the buckets, clustered by their minimum time, backward
// (jstests/core/timeseries/query/timeseries_hint.js); an index name is the
// buckets index's own; a key pattern is translated to the buckets' schema
// as createIndexes translates it, so a hint of an index that does not
// exist, or is hidden, fails as on any collection
// (jstests/core/timeseries/ddl/timeseries_index.js).
func timeseriesHint(req *request, o timeseries.Options) any {
	return bucketHint(o, value.Get(req.cmd, "hint"))
}

// bucketHint is a hint on a time-series collection, for the buckets: an
// index name as it is, a key pattern translated to the buckets' schema as
// createIndexes translates it (or left as written when it does not
// translate, so that it fails as a hint of no index would), $natural as
// it is, and an empty pattern or anything else as no hint.
func bucketHint(o timeseries.Options, hint any) any {
	switch h := hint.(type) {
	case string:
		return h
	case bson.D:
		if len(h) == 0 {
			return nil
		}
		if h[0].Key == "$natural" {
			return h
		}
		if key, err := bucketIndexKey(o, h); err == nil {
			return key
		}
		return h
	}
	return nil
}

// readPipeline answers find, count, distinct and aggregate as the
// aggregation pipeline they make of a view (a time-series collection or
// a view's definition) over backing, read from view; the reply names
// nsName, the namespace the command named. count's pipeline ends in
// {$count: "count"}, as countCommandAsAggregationCommand builds it
// (count_command_as_aggregation_command.cpp), and its reply reads that
// field (ViewResponseFormatter). hint is the hint of the aggregate over
// backing, or nil.
func (e *Engine) readPipeline(req *request, view *catalog.View, backing, nsName string, pipeline bson.A, hint any) (bson.D, error) {
	var let bson.D
	if l, ok := value.Get(req.cmd, "let").(bson.D); ok {
		let = l
	}
	const errContext = "PlanExecutor error during aggregation"
	sub := *req
	sub.name = "aggregate"
	pp, err := e.preparePipeline(&sub, view, backing, pipeline, let, hint)
	if err != nil {
		return nil, err
	}
	switch req.name {
	case "count":
		docs, err := pp.drain()
		if err != nil {
			return nil, executorError(errContext, err)
		}
		n := int32(0)
		if len(docs) == 1 {
			n, _ = value.Get(docs[0], "count").(int32)
		}
		return bson.D{{Key: "n", Value: n}}, nil
	case "distinct":
		st, err := pp.stream()
		if err != nil {
			return nil, executorError(errContext, err)
		}
		key, _ := lookupString(req.cmd, "key")
		values, _, err := distinctValues(st.next, key)
		if err != nil {
			return nil, executorError(errContext, err)
		}
		return bson.D{{Key: "values", Value: values}}, nil
	}
	if writesTo(pipeline) {
		// $out and $merge write as they go and return no documents.
		if _, err := pp.drain(); err != nil {
			return nil, executorError(errContext, err)
		}
		s, _ := parseAggregate(req)
		return e.firstBatch(req, nsName, sliceStream(nil), s.batchSize, s.hasBatch, false, errContext)
	}
	st, err := pp.stream()
	if err != nil {
		return nil, executorError(errContext, err)
	}
	if req.name == "find" {
		s, _ := parseFind(req)
		return e.firstBatch(req, nsName, st, s.batchSize, s.hasBatch, s.singleBatch, errContext)
	}
	s, _ := parseAggregate(req)
	st.idleAtZero = true
	return e.firstBatch(req, nsName, st, s.batchSize, s.hasBatch, false, errContext)
}

// timeseriesRead is the hook at the top of the read commands: it answers
// the command when it names a time-series collection.
func (e *Engine) timeseriesRead(req *request) (bson.D, bool, error) {
	coll, ok := req.cmd[0].Value.(string)
	if !ok || !e.isTimeseries(req.db, coll) {
		return nil, false, nil
	}
	var foreign []catalog.Namespace
	if req.name == "aggregate" {
		s, err := parseAggregate(req)
		if err != nil {
			return nil, true, err
		}
		if len(s.pipeline) > 0 {
			if first, ok := s.pipeline[0].(bson.D); ok && len(first) == 1 && firstOnlyStages(first[0].Key) {
				return nil, false, nil
			}
		}
		if s.explain {
			out, ok, err := e.explainTimeseries(req, "queryPlanner")
			if !ok {
				return nil, false, nil
			}
			return out, true, err
		}
		foreign = pipelineNamespaces(req.db, s.pipeline, nil)
	}
	ts, view, ok := e.timeseriesView(req.db, coll, foreign...)
	if !ok {
		// Dropped since the lookup: the command reads what is there now.
		return nil, false, nil
	}
	out, err := e.readTimeseries(req, ts, view)
	return out, true, err
}

// firstOnlyStages read the collection's metadata rather than its
// documents, so they run on the view itself.
func firstOnlyStages(name string) bool { return name == "$collStats" || name == "$indexStats" }

// explainTimeseries is the hook of explain for reads of a time-series
// collection: mongod explains them as the aggregate they run, with
// $_internalUnpackBucket among the stages.
func (e *Engine) explainTimeseries(req *request, verbosity string) (bson.D, bool, error) {
	coll, ok := req.cmd[0].Value.(string)
	if !ok {
		return nil, false, nil
	}
	ts, view, ok := e.timeseriesView(req.db, coll)
	if !ok {
		return nil, false, nil
	}
	pipeline, err := viewPipeline(req, ts)
	if err != nil {
		return nil, true, err
	}
	sub := *req
	sub.name = "aggregate"
	sub.cmd = bson.D{{Key: "aggregate", Value: ts.buckets.Name}, {Key: "pipeline", Value: pipeline}, {Key: "explain", Value: true}, {Key: "$db", Value: req.db}}
	out, err := e.explainPipeline(&sub, &aggregateSpec{coll: ts.buckets.Name, pipeline: pipeline, explain: true, hint: timeseriesHint(req, ts.opts)}, verbosity, view)
	return out, true, err
}

// timeseriesStats is collStats' timeseries section.
func (e *Engine) timeseriesStats(ts *tsView) bson.D {
	return timeseries.Section(ts.buckets, e.buckets.Stats(ts.buckets))
}

// timeseriesCollStats shapes the buckets collection's statistics as
// collStats on a time-series collection: no count or average object size
// (buckets are not documents of the collection), and the timeseries
// section after size.
func (e *Engine) timeseriesCollStats(ts *tsView, stats bson.D) bson.D {
	out := make(bson.D, 0, len(stats)+1)
	for _, f := range stats {
		switch f.Key {
		case "count", "avgObjSize":
			continue
		}
		out = append(out, f)
		if f.Key == "size" {
			out = append(out, bson.E{Key: "timeseries", Value: e.timeseriesStats(ts)})
		}
	}
	return out
}

// tsMatch is one measurement a delete or update selected, in its bucket.
type tsMatch struct {
	rid    int64
	bucket bson.D
	all    []bson.D // the bucket's measurements
	index  int      // of the match in all
}

// timeseriesMatches finds the measurements filter selects (at most one
// unless multi), bucket by bucket through the pushed-down bucket filter.
// ts.buckets is live, under its write lock (writeTimeseries): the matches
// are then removed before any other writer can change a bucket.
func (e *Engine) timeseriesMatches(req *request, ts *tsView, filter bson.D, f *query.Filter, multi bool) ([]tsMatch, error) {
	// The buckets are read through the write's bucket filter
	// (getMatchExprsForWrites), which leaves out a bucket marked closed
	// by a direct write to the buckets collection.
	bq, err := query.Compile(ts.opts.ForWrites(filter, ts.bucketState()).Bucket, query.Options{Now: req.now})
	if err != nil {
		return nil, err
	}
	q := planner.Query{Ctx: req.ctx, Filter: bq}
	exec, err := e.plan(ts.buckets, ts.buckets.NS(), q)
	if err != nil {
		return nil, err
	}
	var out []tsMatch
	for {
		r, ok, err := exec.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		all := timeseries.Unpack(r.Doc, ts.opts.TimeField, ts.opts.MetaField)
		for i, m := range all {
			if !f.Matches(m) {
				continue
			}
			out = append(out, tsMatch{rid: r.RID, bucket: r.Doc, all: all, index: i})
			if !multi {
				return out, nil
			}
		}
	}
}

// removeMeasurements rewrites each touched bucket without the matched
// measurements, deleting the buckets left empty.
func (e *Engine) removeMeasurements(ts *tsView, matches []tsMatch) error {
	drop := map[int64]map[int]bool{}
	var order []int64
	byRID := map[int64]tsMatch{}
	for _, m := range matches {
		if drop[m.rid] == nil {
			drop[m.rid] = map[int]bool{}
			order = append(order, m.rid)
			byRID[m.rid] = m
		}
		drop[m.rid][m.index] = true
	}
	for _, rid := range order {
		m := byRID[rid]
		var keep []bson.D
		for i, x := range m.all {
			if !drop[rid][i] {
				keep = append(keep, x)
			}
		}
		if len(keep) == 0 {
			ts.buckets.Delete(rid)
			continue
		}
		if err := ts.buckets.Replace(rid, timeseries.Rebuild(m.bucket, ts.opts, keep)); err != nil {
			return err
		}
	}
	return nil
}

// deleteTimeseries is delete on a time-series collection (arbitrary
// filters, as mongod 7.0+ allows), one statement under the buckets
// collection's write lock. It returns errNotTimeseries when collName is
// no longer a time-series collection.
func (e *Engine) deleteTimeseries(req *request, collName string, filter bson.D, f *query.Filter, multi bool) (deleteOutcome, error) {
	var out deleteOutcome
	err := e.writeTimeseries(req.db, collName, func(ts *tsView) error {
		out.executing = true
		matches, err := e.timeseriesMatches(req, ts, filter, f, multi)
		if err != nil {
			return err
		}
		if len(matches) > 0 {
			out.first = matches[0].all[matches[0].index]
		}
		out.removed = int64(len(matches))
		return e.removeMeasurements(ts, matches)
	})
	return out, err
}

// updateTimeseries is update on a time-series collection, once
// checkTimeseriesUpdate has let it through (a multi update of the
// metaField selected by it): the selected measurements leave their
// buckets and the updated ones are inserted anew through the bucket
// catalog, one statement under the buckets collection's write lock.
// mongod rewrites the buckets' meta in place instead, so the measurements
// and the counts are the same but buckets that come to share a meta are
// merged here. It returns errNotTimeseries when collName is no longer a
// time-series collection.
func (e *Engine) updateTimeseries(req *request, collName string, st *updateStatement, u *update.Update, f *query.Filter) (updateOutcome, error) {
	var out updateOutcome
	err := e.writeTimeseries(req.db, collName, func(ts *tsView) error {
		var err error
		out, err = e.updateMeasurements(req, ts, st, u, f)
		return err
	})
	return out, err
}

// updateMeasurements is updateTimeseries under the buckets collection's
// write lock (ts.buckets is live).
func (e *Engine) updateMeasurements(req *request, ts *tsView, st *updateStatement, u *update.Update, f *query.Filter) (updateOutcome, error) {
	var out updateOutcome
	matches, err := e.timeseriesMatches(req, ts, st.filter, f, st.multi)
	if err != nil {
		return out, err
	}
	out.executing = true
	var changed []tsMatch
	var updated []bson.D
	for _, m := range matches {
		out.matched++
		old := m.all[m.index]
		newDoc, modified, err := u.Apply(old, -1, false)
		if err != nil {
			return out, err
		}
		out.before, out.after = old, old
		if !modified {
			continue
		}
		if err := checkIDUnchanged(old, newDoc); err != nil {
			return out, err
		}
		if err := e.validateWrite(req, ts.buckets, old, newDoc); err != nil {
			return out, err
		}
		changed = append(changed, m)
		updated = append(updated, normalizeMeta(ts.opts, newDoc))
		out.after = newDoc
	}
	if len(changed) == 0 {
		return out, nil
	}
	if err := e.removeMeasurements(ts, changed); err != nil {
		return out, err
	}
	n, errs := e.buckets.Insert(ts.buckets, ts.opts, updated, true)
	if len(errs) > 0 {
		return out, errs[0].Err
	}
	out.modified = int64(n)
	return out, nil
}
