package engine

import (
	"math"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/storageengine"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func cmdCreateIndexes(e *Engine, req *request) (bson.D, error) {
	collName, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	if e.isView(req.db, collName) {
		return nil, viewCommandRefusal(req.name, ns(req.db, collName))
	}
	a := newArgs(req)
	if err := a.checkKnown(true, "indexes", "commitQuorum", "ignoreUnknownIndexOptions", "isTimeseriesNamespace", "collectionUUID"); err != nil {
		return nil, err
	}
	raw, ok, err := a.array("indexes")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'createIndexes.indexes' is missing but a required field")
	}
	// A safeBool of create_indexes.idl: with it, each spec loses the
	// fields an index spec may not hold before it is validated
	// (parseAndValidateIndexSpecs, create_indexes_cmd.cpp).
	ignoreUnknown, err := a.boolean("ignoreUnknownIndexOptions", false)
	if err != nil {
		return nil, err
	}
	// The sessions code does not update config.transactions' indexes, so
	// runCreateIndexesWithCoordinator (create_indexes_cmd.cpp) refuses
	// any, before it reads the specs.
	if req.db == "config" && collName == "transactions" {
		return nil, mongoerr.New(mongoerr.IllegalOperation, "not allowed to create index on config.transactions")
	}
	if len(raw) == 0 {
		return nil, mongoerr.New(mongoerr.BadValue, "Must specify at least one index to create")
	}
	// On a time-series collection the specs are translated first, and
	// validated as the buckets' (makeTimeseriesCreateIndexesCommand).
	ts, _, isTimeseries := e.timeseriesView(req.db, collName)
	specs := make([]index.Spec, len(raw))
	for i, v := range raw {
		d, ok := v.(bson.D)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.TypeMismatch,
				"BSON field 'createIndexes.indexes.%d' is the wrong type '%s', expected type 'object'", i, value.TypeName(v))
		}
		if ignoreUnknown {
			d = index.WithoutUnknownFields(d)
		}
		if isTimeseries {
			continue
		}
		if specs[i], err = index.ParseSpec(d, req.apiStrict()); err != nil {
			return nil, inSpecification(err, d)
		}
		if specs[i].IsIDPattern() {
			if err := index.ValidateIDIndex(d, &specs[i]); err != nil {
				return nil, err
			}
		} else if specs[i].Name == "*" {
			// A dropIndexes of "*" means every index, so mongod refuses the name.
			return nil, mongoerr.New(mongoerr.BadValue, "The index name '*' is not valid.")
		}
		if strings.HasPrefix(collName, "system.") && !strings.HasPrefix(collName, "system.buckets.") && !value.IsMissing(value.Get(d, "hidden")) {
			return nil, mongoerr.New(mongoerr.BadValue, "Can't hide index on system collection")
		}
	}
	// parseAndGetCommitQuorum: only a replica set waits for its members
	// to build an index.
	if _, ok := a.get("commitQuorum"); ok {
		return nil, mongoerr.New(mongoerr.BadValue, "Standalones can't specify commitQuorum")
	}
	if err := catalog.ValidateNamespace(req.db, collName); err != nil {
		return nil, err
	}
	if isTimeseries {
		return e.createTimeseriesIndexes(req, ts)
	}
	// Every spec parsed, validateTTLOptions checks each one's TTL, and
	// then the catalog each spec (IndexCatalogImpl::_isSpecOk and the
	// access method's constructor).
	for i, spec := range specs {
		if err := index.ValidateTTL(raw[i].(bson.D), spec); err != nil {
			return nil, err
		}
	}
	for i, spec := range specs {
		d := raw[i].(bson.D)
		if err := index.ValidateWildcardOptions(d, spec); err != nil {
			return nil, err
		}
		if err := index.ValidateHashed(spec); err != nil {
			return nil, err
		}
		if err := storageengine.ValidateIndexOption(d); err != nil {
			return nil, err
		}
		if err := index.ValidateOrdering(spec); err != nil {
			return nil, err
		}
	}
	q := e.catalog.QuotaFor(req.db)
	existed := map[string]bool{}
	if snap := e.catalog.Snapshot(req.db, collName); snap != nil {
		for _, ix := range snap.Indexes() {
			existed[ix.Spec.Name] = true
		}
	}
	var before int64
	if q != nil {
		_, before = e.storageFigures(q.Prefix)
	}
	res, err := e.catalog.CreateIndexes(req.db, collName, specs)
	if err != nil {
		return nil, err
	}
	if snap := e.catalog.Snapshot(req.db, collName); snap != nil && res.Added > 0 {
		for _, s := range specs {
			if !existed[s.Name] {
				e.usage.reset(snap, s.Name, req.now.Time())
			}
		}
	}
	if q != nil && res.Added > 0 {
		if err := e.admitIndexes(q, req.db, collName, specs, existed, before); err != nil {
			return nil, err
		}
	}
	reply := bson.D{{Key: "numIndexesBefore", Value: int32(res.Before)}, {Key: "numIndexesAfter", Value: int32(res.After)}}
	if res.CreatedCollection {
		reply = append(reply, bson.E{Key: "createdCollectionAutomatically", Value: true})
	}
	if res.Added == 0 {
		reply = append(reply, bson.E{Key: "note", Value: "all indexes already exist"})
	}
	return reply, nil
}

// admitIndexes undoes an index build that took a storage quota past its
// limit: an index's size is known only once it is built.
func (e *Engine) admitIndexes(q *catalog.Quota, db, coll string, specs []index.Spec, existed map[string]bool, before int64) error {
	data, indexes := e.storageFigures(q.Prefix)
	q.SetIndexBytes(indexes)
	if data+indexes <= q.Max {
		return nil
	}
	_ = e.catalog.Write(db, coll, false, func(col *catalog.Collection) error {
		for _, s := range specs {
			if col != nil && !existed[s.Name] {
				_ = col.DropIndex(s.Name)
			}
		}
		return nil
	})
	_, after := e.storageFigures(q.Prefix)
	q.SetIndexBytes(after)
	return catalog.OverQuota(data+after, indexes-before, q.Max)
}

func cmdListIndexes(e *Engine, req *request) (bson.D, error) {
	collName, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	if e.isView(req.db, collName) {
		return nil, viewCommandRefusal(req.name, ns(req.db, collName))
	}
	a := newArgs(req)
	if err := a.checkKnown(true, "cursor", "includeBuildUUIDs", "includeIndexBuildInfo"); err != nil {
		return nil, err
	}
	_, batch, hasBatch, err := a.cursorOptions("listIndexes.cursor")
	if err != nil {
		return nil, err
	}
	var docs []bson.D
	coll := e.catalog.Snapshot(req.db, collName)
	if ts, _, ok := e.timeseriesView(req.db, collName); ok {
		coll, docs = ts.view, timeseriesIndexSpecs(ts)
	} else if coll != nil {
		docs = indexSpecs(coll)
	}
	if coll == nil {
		return nil, mongoerr.Newf(mongoerr.NamespaceNotFound, "ns does not exist: %s", ns(req.db, collName))
	}
	reply, err := e.firstBatch(req, ns(req.db, collName), sliceStream(docs), batch, hasBatch, false, "")
	if err != nil {
		return nil, err
	}
	return listingCursor(reply), nil
}

func cmdDropIndexes(e *Engine, req *request) (bson.D, error) {
	collName, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	if e.isView(req.db, collName) {
		return nil, viewCommandRefusal(req.name, ns(req.db, collName))
	}
	a := newArgs(req)
	a.prefix = "dropIndexes"
	if err := a.checkKnown(true, "index", "collectionUUID", "isTimeseriesNamespace"); err != nil {
		return nil, err
	}
	target, ok := a.get("index")
	if !ok {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'dropIndexes.index' is missing but a required field")
	}
	// makeTimeseriesDropIndexesCommand: on a time-series collection the
	// command runs on its buckets, a key pattern translated to their
	// schema and a name kept.
	if ts, _, isTS := e.timeseriesView(req.db, collName); isTS {
		collName = ts.buckets.Name
		if key, isKey := target.(bson.D); isKey {
			if target, err = bucketIndexKey(ts.opts, key); err != nil {
				return nil, timeseriesKeyNotFound(err, req.cmd)
			}
		}
	}
	var reply bson.D
	var dropped []string
	err = e.catalog.Write(req.db, collName, false, func(coll *catalog.Collection) (err error) {
		before := indexNames(coll)
		if reply, err = dropIndexes(a, coll, target, ns(req.db, collName)); err == nil {
			after := indexNames(coll)
			dropped = slices.DeleteFunc(before, func(n string) bool { return slices.Contains(after, n) })
		}
		return err
	})
	if len(dropped) > 0 {
		e.cursors.indexesDropped(ns(req.db, collName), dropped)
	}
	return reply, err
}

// dropIndexes drops target's indexes from the live coll (nil when missing)
// under its write lock.
func dropIndexes(a args, coll *catalog.Collection, target any, namespace string) (bson.D, error) {
	if coll == nil {
		return nil, mongoerr.Newf(mongoerr.NamespaceNotFound, "ns not found %s", namespace)
	}
	was := int32(len(coll.Indexes()))
	clustered := clusteredByID(coll)
	if clustered {
		was--
	}
	if namesClusterKey(coll, target) {
		return nil, mongoerr.New(mongoerr.ErrDropClusteredIndex, "It is illegal to drop the clusteredIndex")
	}
	var names []string
	switch t := target.(type) {
	case string:
		if t == "*" {
			coll.DropAllIndexes()
			return bson.D{{Key: "nIndexesWas", Value: was}, {Key: "msg", Value: "non-_id indexes dropped for collection"}}, nil
		}
		names = []string{t}
	case bson.A:
		for _, v := range t {
			s, ok := v.(string)
			if !ok {
				return nil, a.wrongType("index", target, "types '[string, object, array']")
			}
			names = append(names, s)
		}
	case bson.D:
		matches := coll.IndexesByKey(t)
		if len(matches) == 0 {
			return nil, mongoerr.Newf(mongoerr.IndexNotFound, "can't find index with key: %s", index.FormatDoc(t))
		}
		if len(matches) > 1 {
			return nil, mongoerr.Newf(mongoerr.AmbiguousIndexKeyPattern,
				"%d indexes found for key: %s, identify by name instead. Conflicting indexes: %s, %s",
				len(matches), index.FormatDoc(t), index.FormatDoc(matches[0].Spec.Document()), index.FormatDoc(matches[1].Spec.Document()))
		}
		if matches[0].Spec.IsID() {
			if clustered {
				return nil, mongoerr.Newf(mongoerr.IndexNotFound, "can't find index with key: %s", index.FormatDoc(t))
			}
			return nil, mongoerr.New(mongoerr.InvalidOptions, "cannot drop _id index")
		}
		names = []string{matches[0].Spec.Name}
	default:
		return nil, a.wrongType("index", target, "types '[string, object, array']")
	}
	for _, n := range names {
		if n == index.IDIndexName && !clustered {
			return nil, mongoerr.New(mongoerr.InvalidOptions, "cannot drop _id index")
		}
		if n == index.IDIndexName {
			return nil, mongoerr.Newf(mongoerr.IndexNotFound, "index not found with name [%s]", n)
		}
		if coll.Index(n) == nil {
			return nil, mongoerr.Newf(mongoerr.IndexNotFound, "index not found with name [%s]", n)
		}
	}
	for _, n := range names {
		if err := coll.DropIndex(n); err != nil {
			return nil, err
		}
	}
	return bson.D{{Key: "nIndexesWas", Value: was}}, nil
}

// inSpecification adds the context mongod's createIndexes puts around a
// failure of index_key_validate::validateIndexSpec; the reserved-name
// check runs after it, and IndexCatalogImpl::_isSpecOk's name checks
// (index_catalog_impl.cpp) when the catalog prepares the spec, so they
// are reported bare.
func inSpecification(err error, spec bson.D) error {
	me, ok := err.(*mongoerr.Error)
	if !ok || strings.HasPrefix(me.Msg, "The index name '_id_' is reserved") ||
		me.Msg == "index name cannot contain NUL bytes" || me.Msg == "index name cannot be empty" {
		return err
	}
	return mongoerr.New(me.Code, "Error in specification "+value.FormatDoc(spec)+" :: caused by :: "+me.Msg)
}

// indexSpecs are coll's index specs as its catalog lists them: a
// collection clustered by _id has no _id index; one created clustered
// lists its cluster key first.
func indexSpecs(coll *catalog.Collection) []bson.D {
	var docs []bson.D
	if coll.ClusteredIndex() != nil {
		docs = append(docs, clusteredIndexEntry(coll))
	}
	for _, ix := range coll.Indexes() {
		if !ix.Spec.IsID() || !clusteredByID(coll) {
			docs = append(docs, listIndexesItem(ix.Spec))
		}
	}
	return docs
}

// listIndexesItem is an index's entry in listIndexes' reply, which mongod
// builds as a ListIndexesReplyItem (list_indexes.idl): its
// expireAfterSeconds is a safeInt, so a TTL stored as a long or a double
// (collMod stores a long) is answered as an int, as safeNumberInt reads it.
func listIndexesItem(spec index.Spec) bson.D {
	d := spec.Document()
	for i := range d {
		if d[i].Key != "expireAfterSeconds" {
			continue
		}
		if n, ok := value.SafeNumberLong(d[i].Value); ok {
			d[i].Value = int32(min(max(n, math.MinInt32), math.MaxInt32))
		}
	}
	return d
}

// cmdReIndex is CmdReIndex (src/mongo/db/commands/drop_indexes.cpp, 8.0):
// deprecated since 6.0 but still run by a standalone, it drops every index
// of the collection and builds each again from the documents, replying
// with the index count before and after and the rebuilt specs. Fields
// after the first are ignored (a BasicCommand, no IDL). A time-series
// collection is a view in 8.0, so it is refused as a view is.
func cmdReIndex(e *Engine, req *request) (bson.D, error) {
	e.log.warning(req, 6508600, "COMMAND", "The reIndex command is deprecated. For more information, see https://mongodb.com/docs/manual/reference/command/reIndex/", nil)
	collName, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	if e.isView(req.db, collName) || e.isTimeseries(req.db, collName) {
		return nil, mongoerr.New(mongoerr.CommandNotSupportedOnView, "can't re-index a view")
	}
	var specs []bson.D
	var names []string
	err = e.catalog.Write(req.db, collName, false, func(coll *catalog.Collection) error {
		if coll == nil {
			return mongoerr.New(mongoerr.NamespaceNotFound, "collection does not exist")
		}
		if err := coll.RebuildIndexes(); err != nil {
			return err
		}
		specs, names = indexSpecs(coll), indexNames(coll)
		return nil
	})
	if err != nil {
		return nil, err
	}
	namespace := ns(req.db, collName)
	// The rebuilt indexes are new ones: cursors reading the old ones are
	// killed, their usage counters start again, and the plan cache, which
	// mongod clears on any index catalog change, is emptied.
	e.cursors.indexesDropped(namespace, names)
	if snap := e.catalog.Snapshot(req.db, collName); snap != nil {
		for _, n := range names {
			e.usage.reset(snap, n, req.now.Time())
		}
		e.planCacheOf(snap).Clear("", true)
	}
	indexes := make(bson.A, len(specs))
	for i, s := range specs {
		indexes[i] = s
	}
	return bson.D{
		{Key: "nIndexesWas", Value: int32(len(specs))},
		{Key: "nIndexes", Value: int32(len(specs))},
		{Key: "indexes", Value: indexes},
	}, nil
}

// indexNames names coll's indexes (none for a missing collection).
func indexNames(coll *catalog.Collection) []string {
	if coll == nil {
		return nil
	}
	names := make([]string, 0, len(coll.Indexes()))
	for _, ix := range coll.Indexes() {
		names = append(names, ix.Spec.Name)
	}
	return names
}
