package engine

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/timeseries"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// collModFields are collMod's options (collmod.idl). The sandbox acts on
// the validation options, an index's hidden, expireAfterSeconds and
// uniqueness (with dryRun), the capped limits, a clustered or time-series
// collection's TTL, and a time-series collection's bucketing and
// mixed-schema flag; the others it does not reproduce are refused rather
// than ignored.
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
	if err := checkViewFields(req.cmd, "collMod"); err != nil {
		return nil, err
	}
	// CollectionModCommand refuses a buckets namespace before anything
	// else: a change made there would leave the time-series view behind
	// (dbcommands.cpp). collMod on the time-series collection reaches the
	// buckets through collModTimeseries instead.
	if strings.HasPrefix(collName, bucketsPrefix) {
		return nil, mongoerr.New(mongoerr.InvalidNamespace, "collMod on a time-series collection's underlying buckets collection is not supported.")
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
		case "timeseries", "expireAfterSeconds", "timeseriesBucketsMayHaveMixedSchemaData":
			// handled once the collection's kind is known
		case "cappedSize", "cappedMax":
			// handled by cappedLimitArgs and applyCollMod
		case "index":
			// handled by parseCollModIndex and collModIndex
		case "collectionUUID":
			// checked before the command runs (checkCollectionUUID)
		case "dryRun":
			// read with the index option
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
	if err := readCollModDryRun(a, idx); err != nil {
		return nil, err
	}
	capped, err := cappedLimitArgs(a, "cappedSize", "cappedMax")
	if err != nil {
		return nil, err
	}
	tsReq, err := parseCollModTimeseries(a)
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
			if idx != nil && idx.unique != nil && *idx.unique && !idx.dryRun {
				// _setUpCollModIndexUnique looks the collection up first.
				return mongoerr.Newf(mongoerr.NamespaceNotFound, "ns does not exist for unique index conversion: %s.%s", req.db, collName)
			}
			return mongoerr.New(mongoerr.NamespaceNotFound, "ns does not exist")
		}
		if c.Kind == catalog.KindTimeseries {
			if capped.any() {
				// The buckets collection mongod would resize is not capped.
				return errNotCapped()
			}
			if idx != nil {
				reply, err = collModTimeseriesIndex(ch, c, idx, req.cmd)
				return err
			}
			reply, err = collModTimeseries(req, a, tsReq, ch, c, changes)
			return err
		}
		// parseCollModRequest: the time-series options need a time-series
		// collection, and a collection-level TTL one clustered by _id.
		for _, opt := range []string{"timeseries", "timeseriesBucketsMayHaveMixedSchemaData"} {
			if _, ok := a.get(opt); ok {
				return mongoerr.New(mongoerr.InvalidOptions, "option only supported on a time-series collection: "+opt)
			}
		}
		if v, ok := a.get("expireAfterSeconds"); ok {
			if c.ClusteredIndex() == nil {
				return mongoerr.New(mongoerr.InvalidOptions, "'expireAfterSeconds' option is only supported on collections clustered by _id")
			}
			ttl, err := clusteredTTLChange(a, v, req.now)
			if err != nil {
				return err
			}
			changes = append(changes, bson.E{Key: "expireAfterSeconds", Value: ttl})
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
		if change.Key == "expireAfterSeconds" && change.Value == "off" {
			opts = removeField(opts, "expireAfterSeconds")
			continue
		}
		opts = setField(opts, change.Key, change.Value)
	}
	if slices.ContainsFunc(changes, func(c bson.E) bool {
		return c.Key == "validator" || c.Key == "validationLevel" || c.Key == "validationAction"
	}) {
		opts = withValidationDefaults(opts)
	}
	// The catalog writes the options anew, in their order
	// (CollectionOptions::appendBSON).
	opts = inOptionOrder(opts)
	validator, err := e.compileValidator(req, opts)
	if err != nil {
		return err
	}
	if err := validatorAllowedOn(opts, c); err != nil {
		return err
	}
	return ch.Write(c.Name, false, func(live *catalog.Collection) error {
		live.Options, live.Validator = opts, validator
		return nil
	})
}

// withValidationDefaults stores the validation level and action a
// collection does not set as their defaults: CollectionImpl's
// setValidator, setValidationLevel and setValidationAction each store the
// other two so (collection_impl.cpp), and listCollections then shows all
// three after a collMod of any of them (jstest
// core/query/doc_validation/doc_validation.js). applyCollMod puts them
// where CollectionOptions::appendBSON lists them.
func withValidationDefaults(opts bson.D) bson.D {
	validation := bson.D{}
	if v := value.Get(opts, "validator"); !value.IsMissing(v) {
		validation = append(validation, bson.E{Key: "validator", Value: v})
	}
	for _, def := range []bson.E{{Key: "validationLevel", Value: "strict"}, {Key: "validationAction", Value: "error"}} {
		if v := value.Get(opts, def.Key); !value.IsMissing(v) {
			def.Value = v
		}
		validation = append(validation, def)
	}
	opts = slices.DeleteFunc(opts, func(e bson.E) bool {
		return e.Key == "validator" || e.Key == "validationLevel" || e.Key == "validationAction"
	})
	return append(opts, validation...)
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

// refuseTimeseriesValidation is parseCollModRequest's refusal, in its
// order, of a validation option on a collection with time-series options:
// the buckets, to which collMod on a time-series collection is redirected
// (makeTimeseriesCollModCommand).
func refuseTimeseriesValidation(changes bson.D) error {
	for _, opt := range []string{"validator", "validationLevel", "validationAction"} {
		if !value.IsMissing(value.Get(changes, opt)) {
			return mongoerr.Newf(mongoerr.InvalidOptions, "option not supported on a time-series collection: %s", opt)
		}
	}
	return nil
}

// collModTimeseries is collMod on a time-series collection (view, a
// snapshot, as ch sees it), which mongod carries out on its buckets
// (makeTimeseriesBucketsCollModCommand) and, when the bucketing changes,
// on the view, whose pipeline names the bucket span
// (makeTimeseriesViewCollModCommand): the validation options belong to
// collections, not to the view; the bucketing changes as
// applyTimeseriesOptionsModifications allows; expireAfterSeconds is the
// buckets' TTL, set or turned "off" as on a clustered collection; and
// timeseriesBucketsMayHaveMixedSchemaData sets the buckets' catalog flag.
// The view, its buckets and its system.views entry change together, and
// an insert, which reads the options from the buckets under their write
// lock, buckets by either the old options or the new ones.
func collModTimeseries(req *request, a args, r collModTimeseriesRequest, ch *catalog.Change, view *catalog.Collection, changes bson.D) (bson.D, error) {
	if err := refuseTimeseriesValidation(changes); err != nil {
		return nil, err
	}
	if ch.Snapshot(bucketsPrefix+view.Name) == nil {
		return nil, mongoerr.New(mongoerr.NamespaceNotFound, "ns does not exist")
	}
	var ttl any
	if v, ok := a.get("expireAfterSeconds"); ok {
		var err error
		if ttl, err = clusteredTTLChange(a, v, req.now); err != nil {
			return nil, err
		}
	}
	spec, _ := value.Get(view.Options, "timeseries").(bson.D)
	next, bucketingChanged := timeseries.FromDocument(spec), false
	if r.bucketing != nil {
		var err error
		if next, bucketingChanged, err = next.Modify(*r.bucketing); err != nil {
			return nil, err
		}
	}
	setOptions := func(opts bson.D) bson.D {
		opts = append(bson.D(nil), opts...)
		if bucketingChanged {
			opts = setField(opts, "timeseries", next.Document())
		}
		switch {
		case ttl == "off":
			opts = removeField(opts, "expireAfterSeconds")
		case ttl != nil:
			opts = setField(opts, "expireAfterSeconds", ttl)
		}
		return opts
	}
	err := ch.Write(view.Name, false, func(c *catalog.Collection) error {
		c.Options = setOptions(c.Options)
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = ch.Write(bucketsPrefix+view.Name, false, func(c *catalog.Collection) error {
		c.Options = setOptions(c.Options)
		if r.mixedSchema != nil {
			c.MayHaveMixedSchema = *r.mixedSchema
		}
		c.BucketingChanged = c.BucketingChanged || bucketingChanged
		return nil
	})
	if err != nil || !bucketingChanged {
		return bson.D{}, err
	}
	return bson.D{}, writeViewEntry(ch, view.NS(), bucketsPrefix+view.Name, timeseriesViewPipeline(next))
}

// collModTimeseriesRequest is what collMod asks of a time-series
// collection itself: a change of its bucketing, and of its buckets'
// mixed-schema flag (nil when not asked).
type collModTimeseriesRequest struct {
	bucketing   *timeseries.Modification
	mixedSchema *bool
}

// parseCollModTimeseries reads the time-series options of collMod with
// the IDL parser's errors, before any collection is looked up.
func parseCollModTimeseries(a args) (collModTimeseriesRequest, error) {
	var r collModTimeseriesRequest
	if v, ok := a.get("timeseries"); ok {
		mod, isDoc := v.(bson.D)
		if !isDoc {
			return r, a.wrongType("timeseries", v, "type 'object'")
		}
		m, err := timeseries.ParseModification(mod)
		if err != nil {
			return r, err
		}
		r.bucketing = &m
	}
	if v, ok := a.get("timeseriesBucketsMayHaveMixedSchemaData"); ok && v != nil {
		b, err := a.boolean("timeseriesBucketsMayHaveMixedSchemaData", false)
		if err != nil {
			return r, err
		}
		r.mixedSchema = &b
	}
	return r, nil
}

// collModTimeseriesIndex is collMod's index option on a time-series
// collection: mongod translates it to the buckets collection, its key
// pattern into the buckets' schema (timeseries::makeTimeseriesCollModCommand),
// where a TTL is refused (parseCollModRequest with isTimeseries) and
// hiding is allowed.
func collModTimeseriesIndex(ch *catalog.Change, view *catalog.Collection, r *collModIndexRequest, cmd bson.D) (bson.D, error) {
	if r.expire != nil {
		return nil, mongoerr.New(mongoerr.InvalidOptions, "TTL indexes are not supported for time-series collections. "+
			"Please refer to the documentation and use the top-level 'expireAfterSeconds' option instead")
	}
	if r.unique != nil || r.prepareUnique != nil || r.forceNonUnique != nil {
		return nil, mongoerr.New(mongoerr.NotImplemented,
			"changing the uniqueness of a time-series collection's index is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it")
	}
	buckets := ch.Snapshot(bucketsPrefix + view.Name)
	if buckets == nil {
		return nil, mongoerr.New(mongoerr.NamespaceNotFound, "ns does not exist")
	}
	onBuckets := *r
	if len(r.keyPattern) > 0 {
		spec, _ := value.Get(view.Options, "timeseries").(bson.D)
		key, err := bucketIndexKey(timeseries.FromDocument(spec), r.keyPattern)
		if err != nil {
			return nil, timeseriesKeyNotFound(err, cmd)
		}
		onBuckets.keyPattern = key
	}
	return collModIndex(ch, buckets, &onBuckets)
}

// collModIndexRequest is collMod's index option (CollModIndex in
// collmod.idl): an index named or given by key pattern, and the options
// to change on it.
type collModIndexRequest struct {
	name           string
	keyPattern     bson.D
	hidden         *bool
	unique         *bool
	prepareUnique  *bool
	forceNonUnique *bool
	expire         any // expireAfterSeconds as given, nil when absent
	// otherModifications counts the collection options the same collMod
	// changes, which prepareUnique and dryRun allow none of.
	otherModifications int
	dryRun             bool
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
	if r.name, _, err = ia.str("name"); err != nil {
		return nil, err
	}
	if r.keyPattern, _, err = ia.document("keyPattern"); err != nil {
		return nil, err
	}
	for _, opt := range []struct {
		name string
		to   **bool
	}{{"hidden", &r.hidden}, {"unique", &r.unique}, {"prepareUnique", &r.prepareUnique}, {"forceNonUnique", &r.forceNonUnique}} {
		if _, ok := ia.get(opt.name); ok {
			b, err := ia.boolean(opt.name, false)
			if err != nil {
				return nil, err
			}
			*opt.to = &b
		}
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
	if r.modifications() == 0 {
		return nil, mongoerr.New(mongoerr.InvalidOptions, "no expireAfterSeconds, hidden, prepareUnique, unique, or forceNonUnique field")
	}
	if r.unique != nil && r.forceNonUnique != nil {
		return nil, mongoerr.New(mongoerr.InvalidOptions, "collMod does not support 'unique' and 'forceNonUnique' options at the same time")
	}
	return r, nil
}

// readCollModDryRun reads dryRun, which only checks that an index could
// become unique (_processCollModDryRunMode, coll_mod.cpp), and counts the
// collection options the request changes beside the index's.
func readCollModDryRun(a args, idx *collModIndexRequest) error {
	dryRun, err := a.boolean("dryRun", false)
	if err != nil {
		return err
	}
	if dryRun {
		if idx == nil {
			return mongoerr.New(mongoerr.InvalidOptions, "dry run mode requires an valid index modification.")
		}
		if idx.unique == nil || !*idx.unique {
			return mongoerr.New(mongoerr.InvalidOptions, "dry run mode requires an index modification with unique: true.")
		}
	}
	if idx == nil {
		return nil
	}
	idx.dryRun = dryRun
	for _, opt := range []string{"validator", "validationLevel", "validationAction", "pipeline", "viewOn",
		"expireAfterSeconds", "timeseries", "changeStreamPreAndPostImages", "cappedSize", "cappedMax"} {
		if _, ok := a.get(opt); ok {
			idx.otherModifications++
		}
	}
	return nil
}

// modifications counts the options r changes, as parseCollModRequest's
// numModifications does.
func (r *collModIndexRequest) modifications() int {
	n := 0
	if r.expire != nil {
		n++
	}
	for _, b := range []*bool{r.hidden, r.unique, r.prepareUnique, r.forceNonUnique} {
		if b != nil {
			n++
		}
	}
	return n
}

// collModIndex applies r to collection c (a snapshot of what ch
// changes) and returns the reply fields mongod appends, in the order of
// parseCollModRequest (coll_mod.cpp) and processCollModIndexRequest
// (coll_mod_index.cpp): the TTL is checked before the index is looked up;
// expireAfterSeconds_old (when the index had one) and _new are longs, as
// the catalog stores the new value; hiding an index already hidden (or
// unhiding a visible one) is a no-op that adds no hidden_old/_new.
func collModIndex(ch *catalog.Change, c *catalog.Collection, r *collModIndexRequest) (bson.D, error) {
	// A capped collection's index converts to TTL like any other: 8.0's
	// refusal waits on featureFlagTTLIndexesOnCappedCollections, enabled
	// since 7.1 (SERVER-77586).
	if r.expire != nil {
		if reason := index.ExpireAfterSecondsProblem(r.expire); reason != "" {
			return nil, mongoerr.New(mongoerr.InvalidOptions, reason)
		}
	}
	var named any = r.keyPattern
	if r.name != "" {
		named = r.name
	}
	if r.hidden != nil && namesClusterKey(c, named) {
		return nil, mongoerr.New(mongoerr.ErrHideClusteredIndex, "The 'hidden' option is not supported for a clusteredIndex")
	}
	var target *index.Spec
	clustered := clusteredByID(c)
	if r.name != "" {
		if ix := c.Index(r.name); ix != nil && !(clustered && ix.Spec.IsID()) {
			spec := ix.Spec
			target = &spec
		}
	} else if ixs := c.IndexesByKey(r.keyPattern); len(ixs) == 1 && !(clustered && ixs[0].Spec.IsID()) {
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
	old := value.Get(spec.Options, "expireAfterSeconds")
	if r.expire != nil && value.IsMissing(old) {
		// Turning an index into a TTL index (allowed since 5.1).
		if spec.IsID() {
			return nil, mongoerr.New(mongoerr.InvalidOptions, "the _id field does not support TTL indexes")
		}
		if len(spec.Fields) != 1 {
			return nil, mongoerr.New(mongoerr.InvalidOptions, "TTL indexes are single-field indexes, compound indexes do not support TTL")
		}
	}
	convertUnique, changePrepare, forceNonUnique, err := uniquenessChanges(&spec, r)
	if err != nil {
		return nil, err
	}
	changeHidden := false
	if r.hidden != nil {
		if strings.HasPrefix(c.Name, "system.") && !strings.HasPrefix(c.Name, bucketsPrefix) {
			return nil, mongoerr.New(mongoerr.BadValue, "Can't hide index on system collection")
		}
		if spec.IsID() {
			return nil, mongoerr.New(mongoerr.BadValue, "can't hide _id index")
		}
		changeHidden = spec.Hidden != *r.hidden
	}
	reply := bson.D{}
	if r.expire != nil {
		n, _ := value.SafeNumberLong(r.expire)
		if !value.IsMissing(old) {
			// An old value that is no valid TTL reports 0.
			was, _ := value.SafeNumberLong(old)
			if index.ExpireAfterSecondsProblem(old) != "" {
				was = 0
			}
			reply = append(reply, bson.E{Key: "expireAfterSeconds_old", Value: was})
		}
		reply = append(reply, bson.E{Key: "expireAfterSeconds_new", Value: n})
		// updateTTLSetting rewrites the field as a long, at the end.
		spec.Options = append(removeField(spec.Options, "expireAfterSeconds"), bson.E{Key: "expireAfterSeconds", Value: n})
	}
	if changePrepare && r.modifications()+r.otherModifications > 1 {
		return nil, mongoerr.New(mongoerr.InvalidOptions, "prepareUnique cannot be combined with any other modification.")
	}
	if r.dryRun && r.modifications()+r.otherModifications > 1 {
		return nil, mongoerr.New(mongoerr.InvalidOptions, "unique: true cannot be combined with any other modification in dry run mode.")
	}
	if convertUnique || r.dryRun {
		if err := checkConvertibleToUnique(c, c.Index(spec.Name)); err != nil {
			return nil, err
		}
	}
	if r.dryRun {
		return reply, nil
	}
	if changeHidden {
		reply = append(reply, bson.E{Key: "hidden_old", Value: spec.Hidden}, bson.E{Key: "hidden_new", Value: *r.hidden})
		spec.Hidden = *r.hidden
		spec.Options = setLastFlag(spec.Options, "hidden", spec.Hidden)
	}
	// updateUniqueSetting and updatePrepareUniqueSetting rewrite the flag
	// at the end of the stored spec, or remove it when it turns false.
	if convertUnique {
		reply = append(reply, bson.E{Key: "unique_new", Value: true})
		spec.Unique, spec.PrepareUnique = true, false
		spec.Options = setLastFlag(setLastFlag(spec.Options, "unique", true), "prepareUnique", false)
	}
	if changePrepare {
		reply = append(reply, bson.E{Key: "prepareUnique_old", Value: spec.PrepareUnique}, bson.E{Key: "prepareUnique_new", Value: *r.prepareUnique})
		spec.PrepareUnique = *r.prepareUnique
		spec.Options = setLastFlag(spec.Options, "prepareUnique", spec.PrepareUnique)
	}
	if forceNonUnique {
		reply = append(reply, bson.E{Key: "forceNonUnique_new", Value: true})
		spec.Unique = false
		spec.Options = setLastFlag(spec.Options, "unique", false)
	}
	if r.expire == nil && !changeHidden && !convertUnique && !changePrepare && !forceNonUnique {
		return reply, nil
	}
	err = ch.Write(c.Name, false, func(live *catalog.Collection) error {
		live.SetIndexSpec(spec.Name, spec)
		return nil
	})
	return reply, err
}

// setLastFlag removes a boolean index option and, when on, appends it.
func setLastFlag(options bson.D, name string, on bool) bson.D {
	options = removeField(options, name)
	if on {
		options = append(options, bson.E{Key: name, Value: true})
	}
	return options
}

// uniquenessChanges reads r's unique, prepareUnique and forceNonUnique
// against the index spec as parseCollModRequest (coll_mod.cpp) does: a
// request for the state the index is in is a no-op, and converting to
// unique needs prepareUnique set by an earlier collMod.
func uniquenessChanges(spec *index.Spec, r *collModIndexRequest) (convertUnique, changePrepare, forceNonUnique bool, err error) {
	if r.unique != nil {
		if !*r.unique {
			return false, false, false, mongoerr.New(mongoerr.BadValue, "Cannot make index non-unique")
		}
		if !spec.Unique {
			if !spec.PrepareUnique {
				return false, false, false, mongoerr.New(mongoerr.InvalidOptions,
					"Cannot make index unique with 'prepareUnique=false'. Run collMod to set it first.")
			}
			convertUnique = true
		}
	}
	if r.prepareUnique != nil {
		changePrepare = spec.PrepareUnique != *r.prepareUnique && !spec.Unique
	}
	if r.forceNonUnique != nil {
		if !*r.forceNonUnique {
			return false, false, false, mongoerr.New(mongoerr.BadValue, "'forceNonUnique: false' is not supported")
		}
		forceNonUnique = spec.Unique
	}
	return convertUnique, changePrepare, forceNonUnique, nil
}

// maxViolationBytes is buildConvertUniqueErrorStatus's bound on the _ids
// it reports: half the maximum user document.
const maxViolationBytes = value.MaxUserDocumentSize / 2

// checkConvertibleToUnique fails with CannotConvertIndexToUnique, listing
// the _ids of each group of documents that share a key, when ix holds a
// key twice (scanIndexForDuplicates, buildConvertUniqueErrorStatus).
func checkConvertibleToUnique(c *catalog.Collection, ix *index.Index) error {
	groups := ix.DuplicateGroups()
	if len(groups) == 0 {
		return nil
	}
	violations := bson.A{}
	size := 0
	for _, group := range groups {
		ids := bson.A{}
		for _, rid := range group {
			doc, _ := c.Get(rid)
			id := value.Get(doc, "_id")
			size += 1 + len("_id\x00") + value.ValueSize(id) // BSONElement::size()
			if size > maxViolationBytes {
				if len(violations) == 0 && len(ids) == 0 {
					ids = append(ids, id)
				}
				if len(ids) > 0 {
					violations = append(violations, bson.D{{Key: "ids", Value: ids}})
				}
				return convertUniqueError(violations, "Cannot convert the index to unique. Too many conflicting documents were detected. Please resolve them and rerun collMod.")
			}
			ids = append(ids, id)
		}
		violations = append(violations, bson.D{{Key: "ids", Value: ids}})
	}
	return convertUniqueError(violations, "Cannot convert the index to unique. Please resolve conflicting documents before running collMod again.")
}

func convertUniqueError(violations bson.A, msg string) error {
	err := mongoerr.New(mongoerr.CannotConvertIndexToUnique, msg)
	err.Extra = bson.D{{Key: "violations", Value: violations}}
	return err
}
