package engine

import (
	"cmp"
	"encoding/hex"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/storageengine"
	"github.com/schemalab/schemalab/sandbox/engine/storagestats"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// Collection options the sandbox stores and lists but does not act on
// are accepted; the ones that would change behaviour it cannot reproduce
// (encrypted) are refused. Capped collections: capped.go; clustered
// ones: clustered.go.
var createFields = []string{"capped", "size", "max", "timeseries", "expireAfterSeconds",
	"viewOn", "pipeline", "collation", "validator", "validationLevel", "validationAction",
	"storageEngine", "indexOptionDefaults", "clusteredIndex", "changeStreamPreAndPostImages",
	"idIndex", "autoIndexId", "flags", "encryptedFields", "temp"}

func cmdCreate(e *Engine, req *request) (bson.D, error) {
	collName, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	a := newArgs(req)
	if err := a.checkKnown(true, createFields...); err != nil {
		return nil, err
	}
	if err := checkViewFields(req.cmd, "create"); err != nil {
		return nil, err
	}
	if err := createStorageOptions(a); err != nil {
		return nil, err
	}
	clusteredSpec, err := parseClusteredIndex(a)
	if err != nil {
		return nil, err
	}
	if err := clusteredCreateChecks(a); err != nil {
		return nil, err
	}
	// The capped options' types and rules come before the time-series and
	// view checks, as CmdCreate checks them first.
	cappedOpts, err := cappedCreateOptions(a)
	if err != nil {
		return nil, err
	}
	internal, err := createInternalOptions(a)
	if err != nil {
		return nil, err
	}
	// Time-series collections and validators: timeseries_cmd.go,
	// schema_validation.go.
	if ts, ok := a.get("timeseries"); ok && ts != nil {
		return e.createTimeseries(req, collName)
	}
	_, isView := a.get("viewOn")
	if _, ok := a.get("pipeline"); ok && !isView {
		return nil, mongoerr.New(mongoerr.InvalidOptions, "'pipeline' requires 'viewOn' to also be specified")
	}
	if err := checkCreateIDIndex(req, a, isView); err != nil {
		return nil, err
	}
	// Views: views.go.
	if isView {
		if clusteredSpec != nil {
			return nil, mongoerr.New(mongoerr.ErrClusteredView, "The 'clusteredIndex' option is not supported with views")
		}
		return e.createView(req, collName)
	}
	if err := createValidationOptions(req); err != nil {
		return nil, err
	}
	ttl, hasTTL, err := a.int64Arg("expireAfterSeconds")
	if err != nil {
		return nil, err
	}
	// A default collation would make every query on the collection
	// compare strings by locale; the sandbox compares them by code point,
	// so it refuses one rather than answer differently.
	if err := checkDefaultCollation(a); err != nil {
		return nil, err
	}
	opts := internal
	for _, f := range req.cmd[1:] {
		switch f.Key {
		case "encryptedFields":
			if b, ok := f.Value.(bool); ok && !b {
				continue
			}
			return nil, mongoerr.Newf(mongoerr.NotImplemented,
				"create option '%s' is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it", f.Key)
		case "validator", "storageEngine":
			// An empty document is not kept.
			if d, _ := f.Value.(bson.D); len(d) == 0 {
				continue
			}
		case "indexOptionDefaults":
			if d, _ := f.Value.(bson.D); value.IsMissing(value.Get(d, "storageEngine")) {
				continue
			}
		case "changeStreamPreAndPostImages":
			if d, _ := f.Value.(bson.D); value.Get(d, "enabled") != true {
				continue
			}
		case "validationLevel", "validationAction", "viewOn", "pipeline":
		default:
			// capped, size, max, autoIndexId and temp are in internal; the
			// clusteredIndex and its TTL are appended below; flags and
			// idIndex are not kept, and a collation can only be the simple
			// one, which is not kept either (DatabaseImpl::userCreateNS).
			continue
		}
		opts = append(opts, f)
	}
	if clusteredSpec != nil {
		opts = append(opts, bson.E{Key: "clusteredIndex", Value: clusteredSpec})
	}
	var ttlPtr *int64
	if hasTTL {
		ttlPtr = &ttl
		opts = append(opts, bson.E{Key: "expireAfterSeconds", Value: ttl})
	}
	opts = inOptionOrder(withCappedOptions(cappedOpts, opts))
	if err := catalog.ValidateNamespace(req.db, collName); err != nil {
		return nil, err
	}
	validator, err := e.compileValidator(req, opts)
	if err != nil {
		return nil, err
	}
	// The collection appears with its validator already set: no writer
	// can store a document in it unchecked.
	err = e.catalog.ChangeNamespace(req.db, func(ch *catalog.Change) error {
		if c := ch.Snapshot(collName); c != nil {
			// Since 7.0 create is idempotent when the options match.
			if value.Compare(c.Options, nonNil(opts)) == 0 {
				return nil
			}
			return mongoerr.Newf(mongoerr.NamespaceExists, "namespace %s.%s already exists, but with different options: %s",
				req.db, collName, existingOptions(c))
		}
		// validateCollectionOptions runs once the namespace is known to
		// be free.
		if hasTTL && clusteredSpec == nil {
			return mongoerr.New(mongoerr.InvalidOptions, "'expireAfterSeconds' can be used only for clustered collections or timeseries collections")
		}
		if clusteredSpec != nil {
			if err := validateClusteredOptions(a, collName, clusteredSpec, ttlPtr, req.now); err != nil {
				return err
			}
		}
		if err := checkAutoIndexID(opts, req.db, collName); err != nil {
			return err
		}
		c, err := ch.Create(collName, opts)
		if err != nil {
			return err
		}
		if err := validatorAllowedOn(opts, c); err != nil {
			return err
		}
		c.Validator = validator
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, ok := a.get("autoIndexId"); ok {
		return bson.D{{Key: "note", Value: "The autoIndexId option is deprecated and will be removed in a future release"}}, nil
	}
	return bson.D{}, nil
}

// collectionOptionOrder is the order CollectionOptions::appendBSON
// (collection_options.cpp) writes a collection's options in, and so the
// order listCollections shows them in, whatever order create or collMod
// gave them in.
var collectionOptionOrder = []string{"capped", "size", "max", "autoIndexId", "temp", "recordPreImages",
	"changeStreamPreAndPostImages", "storageEngine", "indexOptionDefaults", "validator", "validationLevel",
	"validationAction", "collation", "clusteredIndex", "expireAfterSeconds", "viewOn", "pipeline", "timeseries",
	"encryptedFields"}

// inOptionOrder sorts a collection's options in place into
// collectionOptionOrder.
func inOptionOrder(opts bson.D) bson.D {
	rank := func(e bson.E) int {
		if i := slices.Index(collectionOptionOrder, e.Key); i >= 0 {
			return i
		}
		return len(collectionOptionOrder)
	}
	slices.SortStableFunc(opts, func(x, y bson.E) int { return cmp.Compare(rank(x), rank(y)) })
	return opts
}

// createInternalOptions reads create's deprecated and internal options
// as CmdCreate::typedRun does (create_command.cpp; create.idl types them
// safeBool, safeBool and safeInt64): temp is refused to a client that is
// not internal, and flags is read and dropped (CollectionOptions ignores
// it). It returns the autoIndexId option as the collection keeps it
// (CollectionOptions::appendBSON: a bool), which
// checkAutoIndexID checks once the namespace is known to be free.
func createInternalOptions(a args) (bson.D, error) {
	auto, err := a.boolean("autoIndexId", true)
	if err != nil {
		return nil, err
	}
	if _, _, err := a.int64Arg("flags"); err != nil {
		return nil, err
	}
	if temp, err := a.boolean("temp", false); err != nil {
		return nil, err
	} else if temp {
		return nil, mongoerr.New(mongoerr.InvalidOptions, "the 'temp' field is an invalid option")
	}
	if err := checkChangeStreamImagesOption(a); err != nil {
		return nil, err
	}
	if _, ok := a.get("autoIndexId"); !ok {
		return nil, nil
	}
	return bson.D{{Key: "autoIndexId", Value: auto}}, nil
}

// checkAutoIndexID refuses autoIndexId: false, which leaves a collection
// without an _id index, where DatabaseImpl::createCollection does
// (database_impl.cpp, 50001): on a namespace that can be replicated. Where
// nothing is replicated, the local database and system.profile, the
// sandbox cannot have such a collection and refuses too.
func checkAutoIndexID(opts bson.D, db, coll string) error {
	if value.Get(opts, "autoIndexId") != false {
		return nil
	}
	if db != "local" && coll != profileCollection {
		return mongoerr.Newf(mongoerr.ErrAutoIndexIDReplicated, "autoIndexId:false is not allowed for collection %s because it can be replicated", ns(db, coll))
	}
	return mongoerr.New(mongoerr.NotImplemented, "create option 'autoIndexId: false' is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it")
}

// checkChangeStreamImagesOption checks create's
// changeStreamPreAndPostImages as its strict IDL struct
// (ChangeStreamPreAndPostImagesOptions: a required bool enabled).
func checkChangeStreamImagesOption(a args) error {
	d, ok, err := a.document("changeStreamPreAndPostImages")
	if err != nil || !ok {
		return err
	}
	c := args{prefix: a.prefix + ".changeStreamPreAndPostImages", doc: d}
	if err := c.checkKnown(false, "enabled"); err != nil {
		return err
	}
	v, ok := c.get("enabled")
	if !ok {
		return mongoerr.Newf(mongoerr.IDLFailedToParse, "BSON field '%s.enabled' is missing but a required field", c.prefix)
	}
	if _, isBool := v.(bool); !isBool {
		return c.wrongType("enabled", v, "type 'bool'")
	}
	return nil
}

// checkCreateIDIndex checks create's idIndex as CmdCreate::typedRun
// does (create_command.cpp): not with a view or with autoIndexId, then
// as an index spec (validateIndexSpec) that must be the _id index's
// (validateIdIndexSpec). The collection does not keep it
// (createCollection takes it out of the options) and its _id index is
// named _id_ whatever the spec names it.
func checkCreateIDIndex(req *request, a args, isView bool) error {
	spec, ok, err := a.document("idIndex")
	if err != nil || !ok {
		return err
	}
	if isView {
		return mongoerr.New(mongoerr.InvalidOptions, "'idIndex' is not allowed with 'viewOn': "+index.FormatDoc(spec))
	}
	if _, auto := a.get("autoIndexId"); auto {
		return mongoerr.New(mongoerr.InvalidOptions, "'idIndex' is not allowed with 'autoIndexId': "+index.FormatDoc(spec))
	}
	s, err := index.ParseSpec(spec, req.apiStrict())
	if err != nil {
		return err
	}
	return index.ValidateIDIndex(spec, &s)
}

// createStorageOptions checks create's storageEngine and
// indexOptionDefaults: their types and indexOptionDefaults' fields as the
// create command's IDL parses them (create.idl; IndexOptionDefaults is
// strict), then the engines and options they name as
// DatabaseImpl::userCreateNS validates them (database_impl.cpp).
func createStorageOptions(a args) error {
	engine, _, err := a.document("storageEngine")
	if err != nil {
		return err
	}
	defaults, _, err := a.document("indexOptionDefaults")
	if err != nil {
		return err
	}
	d := args{prefix: a.prefix + ".indexOptionDefaults", doc: defaults}
	if err := d.checkKnown(false, "storageEngine"); err != nil {
		return err
	}
	indexEngine, _, err := d.document("storageEngine")
	if err != nil {
		return err
	}
	if err := storageengine.ValidateOptions(engine); err != nil {
		return err
	}
	return storageengine.ValidateOptions(indexEngine)
}

func nonNil(d bson.D) bson.D {
	if d == nil {
		return bson.D{}
	}
	return d
}

func cmdDrop(e *Engine, req *request) (bson.D, error) {
	collName, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	var reply bson.D
	var forget *catalog.Collection
	// One namespace change: a time-series collection's view, buckets and
	// system.views entry go together, and a collection created as
	// time-series meanwhile is never dropped by halves.
	err = e.catalog.ChangeNamespace(req.db, func(ch *catalog.Change) error {
		c := ch.Snapshot(collName)
		if c == nil {
			// Buckets left without their view go with a drop of the view's
			// name (drop_collection.cpp: the target is the buckets).
			if b := ch.Snapshot(bucketsPrefix + collName); b != nil && b.Kind == catalog.KindCollection &&
				!value.IsMissing(value.Get(b.Options, "timeseries")) {
				ch.Drop(b.Name)
				reply, forget = bson.D{{Key: "nIndexesWas", Value: bucketsIndexCount(b)}, {Key: "ns", Value: ns(req.db, collName)}}, b
				return nil
			}
			// mongod 7.0+ treats dropping a missing collection as success.
			reply = bson.D{}
			return nil
		}
		// The buckets of a time-series collection take its view with them
		// (drop_collection.cpp: the target is a buckets collection with
		// its time-series view); the reply names the namespace dropped.
		if viewName, isBuckets := strings.CutPrefix(collName, bucketsPrefix); isBuckets {
			if view := ch.Snapshot(viewName); view != nil && view.Kind == catalog.KindTimeseries {
				reply, forget = dropTimeseries(ch, view)
				reply = setField(reply, "ns", c.NS())
				return nil
			}
		}
		if c.Kind == catalog.KindTimeseries {
			reply, forget = dropTimeseries(ch, c)
			return nil
		}
		if c.Kind == catalog.KindView {
			reply = dropView(ch, c)
			return nil
		}
		if collName == profileCollection && e.profile.level(req.db) != 0 {
			// drop_collection.cpp: the profile goes only with the
			// profiler off.
			return mongoerr.New(mongoerr.IllegalOperation, "turn off profiling before dropping system.profile collection")
		}
		ch.Drop(collName)
		reply = bson.D{{Key: "nIndexesWas", Value: int32(len(c.Indexes()))}, {Key: "ns", Value: c.NS()}}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if forget != nil {
		e.buckets.Forget(forget)
	}
	if len(reply) > 0 {
		e.cursors.collectionGone(ns(req.db, collName), false, "")
		dropped := ns(req.db, collName)
		e.top.forget(func(n string) bool { return n == dropped })
	}
	return reply, nil
}

func cmdDropDatabase(e *Engine, req *request) (bson.D, error) {
	a := newArgs(req)
	if err := a.checkKnown(true); err != nil {
		return nil, err
	}
	// drop_database.idl: the value is a safeInt64 and the reply an OkReply,
	// so since 5.0 a drop answers {ok: 1} alone, whether or not the
	// database existed (mongosh adds "dropped" itself). dbcommands.cpp
	// checks the value before drop_database.cpp refuses the databases a
	// server needs.
	n, ok := value.SafeNumberLong(req.cmd[0].Value)
	if !ok {
		return nil, a.wrongType("dropDatabase", req.cmd[0].Value, "types '[long, int, decimal, double']")
	}
	if n != 1 {
		return nil, mongoerr.New(mongoerr.ErrDropDatabaseParameter, "Have to pass 1 as 'drop' parameter")
	}
	// Only admin is kept (SERVER-32205); config may be dropped on any
	// server but a config server (jstests/noPassthrough/drop_config_db.js).
	if req.db == "admin" {
		return nil, mongoerr.New(mongoerr.IllegalOperation, "Dropping the 'admin' database is prohibited.")
	}
	e.catalog.DropDatabase(req.db)
	e.profile.dropDatabase(req.db)
	e.buckets.ForgetDatabase(req.db)
	e.cursors.collectionGone(req.db, true, "")
	e.top.forget(func(n string) bool { return strings.HasPrefix(n, req.db+".") })
	return bson.D{}, nil
}

func cmdListDatabases(e *Engine, req *request) (bson.D, error) {
	a := newArgs(req)
	if err := a.checkKnown(true, "filter", "nameOnly", "authorizedDatabases"); err != nil {
		return nil, err
	}
	filter, _, err := a.document("filter")
	if err != nil {
		return nil, err
	}
	nameOnly, err := a.boolean("nameOnly", false)
	if err != nil {
		return nil, err
	}
	var f *query.Filter
	if len(filter) > 0 {
		if f, err = query.Compile(filter, query.Options{Now: req.now, JSONSchema: validation.CompileSchema}); err != nil {
			return nil, err
		}
	}
	dbs := bson.A{}
	var total int64
	for _, name := range e.catalog.DatabaseNames() {
		// A user confined to a prefix sees only its own databases, as
		// mongod lists only the databases a user has privileges on
		// (authorizedDatabases, which defaults to true for such a user).
		if req.conn.prefix != "" && !vocab.InPrefix(name, req.conn.prefix) {
			continue
		}
		entry := bson.D{{Key: "name", Value: name}}
		var size int64
		if !nameOnly {
			size = sizeOnDisk(e.catalog.Database(name))
			entry = append(entry, bson.E{Key: "sizeOnDisk", Value: size}, bson.E{Key: "empty", Value: size == 0})
		}
		// list_databases_common.h matches with matchesBSON.
		if matched, err := listingMatches(f, entry); err != nil {
			return nil, err
		} else if !matched {
			continue
		}
		// totalSize sums the databases listed, as the filter left them.
		total += size
		dbs = append(dbs, entry)
	}
	reply := bson.D{{Key: "databases", Value: dbs}}
	if !nameOnly {
		reply = append(reply, bson.E{Key: "totalSize", Value: total}, bson.E{Key: "totalSizeMb", Value: total / (1024 * 1024)})
	}
	return reply, nil
}

func cmdListCollections(e *Engine, req *request) (bson.D, error) {
	a := newArgs(req)
	if err := a.checkKnown(true, "filter", "nameOnly", "authorizedCollections", "cursor", "includePendingDrops"); err != nil {
		return nil, err
	}
	filter, _, err := a.document("filter")
	if err != nil {
		return nil, err
	}
	nameOnly, err := a.boolean("nameOnly", false)
	if err != nil {
		return nil, err
	}
	_, batch, hasBatch, err := a.cursorOptions("listCollections.cursor")
	if err != nil {
		return nil, err
	}
	var f *query.Filter
	if len(filter) > 0 {
		if f, err = query.Compile(filter, query.Options{Now: req.now, JSONSchema: validation.CompileSchema}); err != nil {
			return nil, err
		}
	}
	var docs []bson.D
	if db := e.catalog.Database(req.db); db != nil {
		colls := db.Collections()
		for _, c := range colls {
			// The filter sees the entry the reply would hold, so with
			// nameOnly only its name and type (buildCollectionBson).
			entry := bson.D{{Key: "name", Value: c.Name}, {Key: "type", Value: c.Kind}}
			if !nameOnly {
				entry = c.ListCollectionsEntry()
			}
			if c.Kind == catalog.KindView && value.Get(c.Options, "viewOn") == bucketsPrefix+c.Name {
				entry = bucketsViewEntry(c.Name, colls, nameOnly)
			}
			if matched, err := listingMatches(f, entry); err != nil {
				return nil, err
			} else if !matched {
				continue
			}
			docs = append(docs, entry)
		}
	}
	reply, err := e.firstBatch(req, ns(req.db, "$cmd.listCollections"), sliceStream(docs), batch, hasBatch, false, "")
	if err != nil {
		return nil, err
	}
	return listingCursor(reply), nil
}

// bucketsViewEntry is the listCollections entry of a view named for
// the buckets it is on: mongod takes any such view for a time-series
// collection (ViewDefinition::timeseries) and lists it as one
// (buildTimeseriesBson), with the buckets' time-series creation options,
// or none when there are no buckets (jstests/core/timeseries/
// drop_timeseries.js).
func bucketsViewEntry(name string, colls []*catalog.Collection, nameOnly bool) bson.D {
	entry := bson.D{{Key: "name", Value: name}, {Key: "type", Value: catalog.KindTimeseries}}
	if nameOnly {
		return entry
	}
	opts := bson.D{}
	if at := slices.IndexFunc(colls, func(c *catalog.Collection) bool { return c.Name == bucketsPrefix+name }); at >= 0 {
		for _, o := range colls[at].Options {
			if timeseriesCreateOptions[o.Key] {
				opts = append(opts, o)
			}
		}
	}
	return append(entry, bson.E{Key: "options", Value: opts}, bson.E{Key: "info", Value: bson.D{{Key: "readOnly", Value: false}}})
}

// listingMatches is matchesBSON for a listing command's filter: without
// one every entry matches, and an $expr that fails on an entry fails the
// command rather than skipping the entry.
func listingMatches(f *query.Filter, entry bson.D) (bool, error) {
	if f == nil {
		return true, nil
	}
	matched, _, err := f.Eval(entry)
	return matched, err
}

func cmdRenameCollection(e *Engine, req *request) (bson.D, error) {
	a := newArgs(req)
	if err := a.checkKnown(true, "to", "dropTarget", "stayTemp", "collectionUUID"); err != nil {
		return nil, err
	}
	from, ok := req.cmd[0].Value.(string)
	if !ok {
		return nil, a.wrongType("renameCollection", req.cmd[0].Value, "type 'string'")
	}
	to, ok, err := a.str("to")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'renameCollection.to' is missing but a required field")
	}
	dropTarget, err := a.boolean("dropTarget", false)
	if err != nil {
		return nil, err
	}
	// Both names are NamespaceStrings the IDL builds, refusing a NUL,
	// before the command checks either.
	for _, name := range []string{from, to} {
		if err := catalog.CheckNUL(name); err != nil {
			return nil, err
		}
	}
	fromDB, fromColl, ok1 := strings.Cut(from, ".")
	toDB, toColl, ok2 := strings.Cut(to, ".")
	if !ok1 || fromColl == "" {
		return nil, mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid source namespace: %s", from)
	}
	if !ok2 || toColl == "" {
		return nil, mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid target namespace: %s", to)
	}
	// rename_collection_cmd.cpp checks this before anything looks at the
	// collections, so a missing source renamed to itself is refused so.
	if from == to {
		return nil, mongoerr.New(mongoerr.IllegalOperation, "Can't rename a collection to itself")
	}
	if err := validateRenameNamespaces(fromDB, fromColl, toDB, toColl); err != nil {
		return nil, err
	}
	// The catalog refuses to move a time-series collection, under the same
	// lock as the rename.
	if err := e.catalog.RenameCollection(fromDB, fromColl, toDB, toColl, dropTarget); err != nil {
		return nil, err
	}
	e.cursors.collectionGone(from, false, to)
	// DatabaseImpl::renameCollection: Top::collectionDropped(fromNss).
	e.top.forget(func(n string) bool { return n == from })
	return bson.D{}, nil
}

// validateRenameNamespaces makes validateNamespacesForRenameCollection's
// checks (rename_collection.cpp), in its order, before either collection
// is looked up: the names a user may not write to or may not move.
func validateRenameNamespaces(fromDB, from, toDB, to string) error {
	isOplog := func(db, coll string) bool { return db == "local" && strings.HasPrefix(coll, "oplog.") }
	if isOplog(fromDB, from) != isOplog(toDB, to) {
		return mongoerr.New(mongoerr.IllegalOperation, "If either the source or target of a rename is an oplog name, both must be")
	}
	if err := userAllowedWriteNS(fromDB, from); err != nil {
		return mongoerr.New(mongoerr.IllegalOperation, "error with source namespace: "+err.Error())
	}
	if err := userAllowedWriteNS(toDB, to); err != nil {
		return mongoerr.New(mongoerr.IllegalOperation, "error with target namespace: "+err.Error())
	}
	if fromDB == "admin" && from == "system.version" {
		return mongoerr.New(mongoerr.IllegalOperation, "renaming the server configuration collection (admin.system.version) is not allowed")
	}
	for _, special := range []string{"system.views", "system.js", "system.users"} {
		if from == special || to == special {
			return mongoerr.Newf(mongoerr.IllegalOperation, "renaming %s collection or renaming to %s is not allowed", special, special)
		}
	}
	fromBuckets, toBuckets := strings.HasPrefix(from, bucketsPrefix), strings.HasPrefix(to, bucketsPrefix)
	if !fromBuckets && toBuckets {
		return mongoerr.Newf(mongoerr.IllegalOperation, "Cannot rename non timeseries buckets collection '%s.%s' to a timeseries buckets namespace '%s.%s'.", fromDB, from, toDB, to)
	}
	if fromBuckets && !toBuckets {
		return mongoerr.Newf(mongoerr.IllegalOperation, "Cannot rename timeseries buckets collection '%s.%s' to a non timeseries buckets namespace '%s.%s'.", fromDB, from, toDB, to)
	}
	if fromBuckets {
		// mongod moves the buckets and leaves the time-series view
		// naming the old ones; the sandbox keeps a time-series
		// collection's view and buckets as one.
		return mongoerr.New(mongoerr.NotImplemented, "renaming a time-series buckets collection is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it")
	}
	return nil
}

// sizeOnDisk is listDatabases' figure: the modelled on-disk size of every
// collection's data and index files.
func sizeOnDisk(db *catalog.Database) int64 {
	if db == nil {
		return 0
	}
	var n int64
	for _, c := range db.Collections() {
		f := storagestats.Collect(c)
		n += f.StorageSize + f.TotalIndex
	}
	return n
}

// existingOptions renders a collection's options as mongod's
// checkCollectionOptions does in its NamespaceExists error: the uuid first,
// then the options the collection was created with.
func existingOptions(c *catalog.Collection) string {
	var b strings.Builder
	u := hex.EncodeToString(c.UUID.Data)
	if len(u) == 32 {
		u = u[:8] + "-" + u[8:12] + "-" + u[12:16] + "-" + u[16:20] + "-" + u[20:]
	}
	b.WriteString(`{ uuid: UUID("` + u + `")`)
	for _, e := range c.Options {
		b.WriteString(", " + value.FormatElem(e.Key, e.Value))
	}
	b.WriteString(" }")
	return b.String()
}
