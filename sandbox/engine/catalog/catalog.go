// Package catalog holds the engine's databases and collections: records in
// natural order with stable RecordIDs, their indexes, and the namespace
// rules mongod enforces.
//
// Concurrency is MVCC-lite. Stored documents are immutable and every
// collection's trees clone in O(1), so a reader takes a snapshot (Snapshot,
// View, Database) under a lock held for the clone alone and then reads it
// with no lock at all, however long it takes. A writer holds one
// collection's write lock (Write) for one document or one short batch, so
// writers to different collections, and to different databases, never
// wait for each other, and no reader ever waits for more than one such
// batch. The namespace itself (which databases and collections exist) has
// its own lock, held only to look a name up or to change the set.
//
// Lock order: the namespace lock, then collection write locks in namespace
// order. A goroutine holding a collection's write lock never takes the
// namespace lock.
package catalog

import (
	"crypto/rand"
	"slices"
	"strings"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// FilterCompiler compiles a partialFilterExpression into a matcher. The
// engine passes one built on query.Compile; keeping it a function keeps
// storage independent of the query language.
type FilterCompiler func(filter bson.D) (func(bson.D) bool, error)

// Catalog is every database of one engine. It is safe for concurrent use.
type Catalog struct {
	// mu guards dbs and every Database's colls map: the namespace, not
	// the collections' contents.
	mu      sync.RWMutex
	dbs     map[string]*Database
	compile FilterCompiler
	// quotas are the storage quotas by prefix (SetQuota), guarded by mu.
	quotas map[string]*Quota
	// opened are the databases that have had a collection since they
	// were last dropped, guarded by mu: mongod's DatabaseHolder keeps a
	// database open when its last collection is dropped, until
	// dropDatabase.
	opened map[string]bool
}

// Database is a named set of collections. The ones Catalog.Database
// returns are snapshots: their collections are read-only copies.
type Database struct {
	Name  string
	colls map[string]*Collection
}

// Namespace names one collection.
type Namespace struct{ DB, Coll string }

// New returns an empty catalog.
func New(compile FilterCompiler) *Catalog {
	return &Catalog{dbs: map[string]*Database{}, compile: compile, quotas: map[string]*Quota{}, opened: map[string]bool{}}
}

// DatabaseNames lists databases in name order.
func (c *Catalog) DatabaseNames() []string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	names := make([]string, 0, len(c.dbs))
	for n := range c.dbs {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// live returns the catalog's own db.coll, or nil; the caller holds mu.
func (c *Catalog) live(db, coll string) *Collection {
	if d := c.dbs[db]; d != nil {
		return d.colls[coll]
	}
	return nil
}

func (c *Catalog) lookup(db, coll string) *Collection {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.live(db, coll)
}

// Snapshot returns a read-only snapshot of db.coll, or nil when it does
// not exist.
func (c *Catalog) Snapshot(db, coll string) *Collection {
	if col := c.lookup(db, coll); col != nil {
		return col.Snapshot()
	}
	return nil
}

// Kind is db.coll's kind (KindCollection, KindTimeseries), or "" when it
// does not exist. It costs a name lookup and no snapshot, for the commands
// that must know whether a name is a time-series collection before they
// decide how to read or write it.
func (c *Catalog) Kind(db, coll string) string {
	if col := c.lookup(db, coll); col != nil {
		return col.Kind
	}
	return ""
}

// View is a consistent snapshot of several collections: the states they
// were all in at one instant. A collection the view was not asked for is
// snapshotted when first read. A View is for one command (or one cursor)
// at a time: it is not safe for concurrent use.
type View struct {
	cat   *Catalog
	colls map[Namespace]*Collection
}

// View snapshots the named collections together. Only the clones happen
// under the collections' write locks; the view is read without locks.
func (c *Catalog) View(names ...Namespace) *View {
	v := &View{cat: c, colls: make(map[Namespace]*Collection, len(names))}
	if len(names) == 1 {
		v.colls[names[0]] = c.Snapshot(names[0].DB, names[0].Coll)
		return v
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	var live []*Collection
	for _, n := range names {
		if _, seen := v.colls[n]; seen {
			continue
		}
		v.colls[n] = nil
		if col := c.live(n.DB, n.Coll); col != nil {
			live = append(live, col)
		}
	}
	lockAll(live)
	defer unlockAll(live)
	for _, col := range live {
		v.colls[Namespace{col.DB, col.Name}] = col.snapshotLocked()
	}
	return v
}

// Collection returns the view's snapshot of db.coll (nil when it did not
// exist).
func (v *View) Collection(db, coll string) *Collection {
	n := Namespace{db, coll}
	if col, ok := v.colls[n]; ok {
		return col
	}
	col := v.cat.Snapshot(db, coll)
	v.colls[n] = col
	return col
}

// lockAll takes the write locks of cols in namespace order, the one order
// every multi-collection locker uses.
func lockAll(cols []*Collection) {
	slices.SortFunc(cols, func(a, b *Collection) int { return strings.Compare(a.ns, b.ns) })
	for _, col := range cols {
		col.live.mu.Lock()
	}
}

func unlockAll(cols []*Collection) {
	for _, col := range cols {
		col.live.mu.Unlock()
	}
}

// Write runs fn on the live db.coll with its write lock held, so fn must
// be short: one document or one batch of a multi-document write. With
// create, a missing collection is created first (as a write to a missing
// collection does in mongod, with its namespace rules); without, fn gets
// nil for a missing collection. fn may modify the collection through its
// write methods; readers see the change from their next snapshot.
func (c *Catalog) Write(db, coll string, create bool, fn func(col *Collection) error) error {
	for {
		col := c.lookup(db, coll)
		if col == nil && create {
			var err error
			if col, err = c.ensure(db, coll); err != nil {
				return err
			}
		}
		if col == nil {
			return fn(nil)
		}
		if done, err := col.write(fn); done {
			return err
		}
		// The collection left the catalog (dropped, renamed, restored
		// over) while we waited: look the name up again.
	}
}

// Change is a change to which collections of one database exist, made by
// ChangeNamespace under the exclusive namespace lock: no one can look a
// name up until it is complete, so the collections it creates appear
// together, fully prepared (kind, validator, indexes), and it creates none
// of them if it fails.
type Change struct {
	cat     *Catalog
	db      string
	created []*Collection
	dropped []string
}

// ChangeNamespace runs fn as one Change of db. fn must be short: every
// lookup of every name waits for it.
func (c *Catalog) ChangeNamespace(db string, fn func(ch *Change) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := &Change{cat: c, db: db}
	if err := fn(ch); err != nil {
		for _, col := range ch.created {
			c.uninstall(col)
		}
		return err
	}
	for _, name := range ch.dropped {
		c.dropLocked(db, name)
	}
	return nil
}

// Snapshot is the change's view of a collection of its database: a
// snapshot, nil when it does not exist.
func (ch *Change) Snapshot(coll string) *Collection {
	if col := ch.cat.live(ch.db, coll); col != nil {
		return col.Snapshot()
	}
	return nil
}

// Create makes a collection, seen by others only when the change
// completes; until then the caller may prepare it directly (set its Kind
// and Validator, create its indexes).
func (ch *Change) Create(coll string, options bson.D) (*Collection, error) {
	col, err := ch.cat.createLocked(ch.db, coll, options)
	if err != nil {
		return nil, err
	}
	ch.created = append(ch.created, col)
	return col, nil
}

// Write runs fn on a live collection of the change's database under its
// write lock, as Catalog.Write does (create makes a missing collection as
// part of the change). A write to a collection that existed before the
// change is not undone if the change fails later, so it belongs last.
func (ch *Change) Write(coll string, create bool, fn func(col *Collection) error) error {
	col := ch.cat.live(ch.db, coll)
	if col == nil && create {
		var err error
		if col, err = ch.Create(coll, nil); err != nil {
			return err
		}
	}
	if col == nil {
		return fn(nil)
	}
	// A collection in the catalog is never retired while the namespace
	// lock is held, so the write always runs.
	_, err := col.write(fn)
	return err
}

// DatabaseExists reports whether the change's database holds a
// collection.
func (ch *Change) DatabaseExists() bool { return ch.cat.dbs[ch.db] != nil }

// Rebuild puts a new collection with options in the place of coll, a
// collection of the change's database, filled by fill from the old one
// under the old one's write lock, so that no write lands in between: the
// clone and rename over of convertToCapped (capped_utils.cpp). Writers
// still holding the old collection find it retired and look the name up
// again. It belongs last in a change: it is not undone.
func (ch *Change) Rebuild(coll string, options bson.D, fill func(old, rebuilt *Collection) error) error {
	old := ch.cat.live(ch.db, coll)
	if old == nil {
		return mongoerr.Newf(mongoerr.NamespaceNotFound, "source collection %s.%s does not exist", ch.db, coll)
	}
	rebuilt := newCollection(ch.db, coll, options, ch.cat.compile)
	old.live.mu.Lock()
	defer old.live.mu.Unlock()
	old.docs.ready()
	if err := fill(old, rebuilt); err != nil {
		return err
	}
	old.retireLocked()
	ch.cat.install(rebuilt)
	return nil
}

// Drop removes a collection of the change's database when the change
// completes, and reports whether it exists.
func (ch *Change) Drop(coll string) bool {
	if ch.cat.live(ch.db, coll) == nil {
		return false
	}
	ch.dropped = append(ch.dropped, coll)
	return true
}

func (col *Collection) write(fn func(col *Collection) error) (bool, error) {
	col.live.mu.Lock()
	defer col.live.mu.Unlock()
	if col.live.retired {
		return false, nil
	}
	col.live.snap.Store(nil)
	col.derived = &derived{}
	defer func() { col.version++ }()
	return true, fn(col)
}

func (c *Catalog) ensure(db, coll string) (*Collection, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if col := c.live(db, coll); col != nil {
		return col, nil
	}
	return c.createLocked(db, coll, nil)
}

// IndexBuild is what CreateIndexes did.
type IndexBuild struct {
	Before, After, Added int
	CreatedCollection    bool
}

// CreateIndexes adds the indexes of specs to db.coll, creating the
// collection when it does not exist. The indexes are built from a snapshot
// with no lock held, so readers and writers carry on during a long build,
// and then installed in O(1) under the write lock if no write came in the
// meantime; after a few such misses the build runs under the write lock.
func (c *Catalog) CreateIndexes(db, coll string, specs []index.Spec) (IndexBuild, error) {
	var res IndexBuild
	if c.Snapshot(db, coll) == nil && slices.ContainsFunc(specs, func(s index.Spec) bool { return value.Get(s.Options, "clustered") == true }) {
		// runCreateIndexesOnNewCollection (create_indexes_cmd.cpp): a
		// clustered collection is only ever created by create.
		return res, mongoerr.New(mongoerr.ErrClusteredImplicitCreate, "Cannot implicitly create a new collection with createIndex 'clustered' option")
	}
	if _, err := c.CreateCollection(db, coll, nil); err == nil {
		res.CreatedCollection = true
	} else if mongoerr.As(err).Code != mongoerr.NamespaceExists {
		return res, err
	}
	install := func(live *Collection, built []*index.Index) {
		res.Before = len(live.indexes)
		live.indexes = append(slices.Clip(live.indexes), built...)
		res.After, res.Added = len(live.indexes), len(built)
	}
	for range 3 {
		snap := c.Snapshot(db, coll)
		if snap == nil {
			break // dropped meanwhile: the locked path creates it again
		}
		work := *snap
		work.indexes = slices.Clip(snap.indexes)
		for _, s := range specs {
			if _, err := work.CreateIndex(s); err != nil {
				return res, err
			}
		}
		done := false
		err := c.Write(db, coll, true, func(live *Collection) error {
			if live.version == snap.version && sameUUID(live, snap) {
				install(live, work.indexes[len(snap.indexes):])
				done = true
			}
			return nil
		})
		if err != nil || done {
			return res, err
		}
	}
	err := c.Write(db, coll, true, func(live *Collection) error {
		work := *live
		work.live, work.keyScratch = nil, nil
		work.indexes = slices.Clip(live.indexes)
		for _, s := range specs {
			if _, err := work.CreateIndex(s); err != nil {
				return err
			}
		}
		install(live, work.indexes[len(live.indexes):])
		return nil
	})
	return res, err
}

func sameUUID(a, b *Collection) bool { return string(a.UUID.Data) == string(b.UUID.Data) }

// retire takes col out of service for writers that still hold it.
func retire(col *Collection) {
	col.live.mu.Lock()
	col.retireLocked()
	col.live.mu.Unlock()
}

// retireLocked is retire for a caller holding col's write lock. Its data
// leaves its quota's count, once.
func (col *Collection) retireLocked() {
	if col.live.retired {
		return
	}
	col.live.retired = true
	if col.quota != nil {
		col.quota.data.Add(-col.dataSize)
	}
}

// CreateCollection creates db.coll explicitly; options are stored and
// listed by listCollections as given. It fails with NamespaceExists when
// the collection exists.
func (c *Catalog) CreateCollection(db, coll string, options bson.D) (*Collection, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.createLocked(db, coll, options)
}

func (c *Catalog) createLocked(db, coll string, options bson.D) (*Collection, error) {
	if err := ValidateNamespace(db, coll); err != nil {
		return nil, err
	}
	if c.live(db, coll) != nil {
		return nil, mongoerr.Newf(mongoerr.NamespaceExists, "Collection %s.%s already exists.", db, coll)
	}
	if err := c.checkDBCase(db); err != nil {
		return nil, err
	}
	col := newCollection(db, coll, options, c.compile)
	c.install(col)
	return col, nil
}

// checkDBCase refuses to create a database whose name differs only in
// case from one that exists (DatabaseHolderImpl::openDb): names that
// would clash on a case-insensitive file system.
func (c *Catalog) checkDBCase(db string) error {
	if c.dbs[db] != nil {
		return nil
	}
	for name := range c.dbs {
		if strings.EqualFold(name, db) {
			return mongoerr.Newf(mongoerr.DatabaseDifferCase,
				"db already exists with different case already have: [%s] trying to create [%s]", name, db)
		}
	}
	return nil
}

// install puts a collection no one has seen yet (new, restored or
// renamed) into the namespace, under the quota of its database.
func (c *Catalog) install(col *Collection) {
	col.quota = c.quotaFor(col.DB)
	if col.quota != nil {
		col.quota.data.Add(col.dataSize)
	}
	d := c.dbs[col.DB]
	if d == nil {
		d = &Database{Name: col.DB, colls: map[string]*Collection{}}
		c.dbs[col.DB] = d
	}
	d.colls[col.Name] = col
	c.opened[col.DB] = true
}

// DatabaseOpen reports whether a database has had a collection since it
// was last dropped (or the engine started), as mongod's DatabaseHolder
// holds it open: dropping its last collection does not close it.
func (c *Catalog) DatabaseOpen(name string) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.opened[name]
}

// uninstall takes a collection that no one has seen (a failed Change's)
// out of the namespace again.
func (c *Catalog) uninstall(col *Collection) {
	d := c.dbs[col.DB]
	if d == nil || d.colls[col.Name] != col {
		return
	}
	retire(col)
	delete(d.colls, col.Name)
	if len(d.colls) == 0 {
		delete(c.dbs, col.DB)
	}
}

// DropCollection removes db.coll and reports whether it existed. A
// database left without collections disappears, as in mongod.
func (c *Catalog) DropCollection(db, coll string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dropLocked(db, coll)
}

func (c *Catalog) dropLocked(db, coll string) bool {
	d := c.dbs[db]
	if d == nil || d.colls[coll] == nil {
		return false
	}
	retire(d.colls[coll])
	delete(d.colls, coll)
	if len(d.colls) == 0 {
		delete(c.dbs, db)
	}
	return true
}

// DropDatabase removes a database and reports whether it existed.
func (c *Catalog) DropDatabase(db string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.dbs[db]
	if ok {
		for _, col := range d.colls {
			retire(col)
		}
	}
	delete(c.dbs, db)
	delete(c.opened, db)
	return ok
}

// RenameCollection moves fromDB.from to toDB.to, another namespace,
// keeping records, indexes and UUID. With dropTarget an existing target
// is dropped first.
func (c *Catalog) RenameCollection(fromDB, from, toDB, to string, dropTarget bool) error {
	if err := ValidateNamespace(toDB, to); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	src := c.live(fromDB, from)
	if src == nil {
		return mongoerr.Newf(mongoerr.NamespaceNotFound, "Source collection %s.%s does not exist", fromDB, from)
	}
	// mongod renames no view, and in 8.0 a time-series collection's own
	// name is a view's (rename_collection.cpp, checkSourceAndTargetNamespaces).
	if src.Kind == KindView || src.Kind == KindTimeseries {
		return mongoerr.Newf(mongoerr.CommandNotSupportedOnView, "cannot rename view: %s.%s", fromDB, from)
	}
	if err := c.checkDBCase(toDB); err != nil {
		return err
	}
	if target := c.live(toDB, to); target != nil {
		// A view, and in 8.0 a time-series collection's own name, is
		// refused before dropTarget is read (checkSourceAndTargetNamespaces).
		if target.Kind == KindView || target.Kind == KindTimeseries {
			return mongoerr.Newf(mongoerr.NamespaceExists, "a view already exists with that name: %s.%s", toDB, to)
		}
		if !dropTarget {
			return mongoerr.New(mongoerr.NamespaceExists, "target namespace exists")
		}
		c.dropLocked(toDB, to)
	}
	// The data moves to a new live collection, so that a writer still
	// holding the old one sees it retired and looks its name up again
	// (finding nothing, or a collection created since) instead of
	// writing under the new name.
	src.live.mu.Lock()
	moved := src.clone(true)
	src.retireLocked()
	src.live.mu.Unlock()
	moved.DB, moved.Name, moved.ns = toDB, to, toDB+"."+to
	c.dropLocked(fromDB, from)
	c.install(moved)
	return nil
}

// Database returns a snapshot of the named database, every collection
// taken at the same instant, or nil when it has no collections.
func (c *Catalog) Database(name string) *Database {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.databaseSnapshotLocked(name)
}

func (c *Catalog) databaseSnapshotLocked(name string) *Database {
	d := c.dbs[name]
	if d == nil {
		return nil
	}
	live := make([]*Collection, 0, len(d.colls))
	for _, col := range d.colls {
		live = append(live, col)
	}
	lockAll(live)
	defer unlockAll(live)
	out := &Database{Name: name, colls: make(map[string]*Collection, len(live))}
	for _, col := range live {
		out.colls[col.Name] = col.snapshotLocked()
	}
	return out
}

// Collections lists a database's collections in name order.
func (d *Database) Collections() []*Collection {
	out := make([]*Collection, 0, len(d.colls))
	for _, c := range d.colls {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b *Collection) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// ValidateNamespace applies mongod's rules for database and collection
// names.
func ValidateNamespace(db, coll string) error {
	if err := ValidateDBName(db); err != nil {
		return err
	}
	return ValidateCollectionName(db, coll)
}

// ValidateDBName rejects names mongod refuses: empty, too long, or
// containing / \ . space " $ or NUL.
func ValidateDBName(db string) error {
	if db == "" || len(db) >= 64 || strings.ContainsAny(db, "/\\. \"$\x00") {
		return mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid database name: '%s'", db)
	}
	return nil
}

// allowedSystemCollections are the system.* names a user may create in
// any database (NamespaceString::isLegalClientSystemNS), system.profile
// among them, which create may make capped.
var allowedSystemCollections = map[string]bool{
	"system.js": true, "system.views": true, "system.profile": true, "system.users": true,
}

// allowedSystemPrefixes name the system.* collections a user may create in
// any database by their prefix (isLegalClientSystemNS: the temporary
// resharding collections and the query statistics ones).
var allowedSystemPrefixes = []string{"system.resharding.", "system.statistics."}

// allowedSystemNamespaces are the system.* names a user may create in one
// database only (NamespaceString::isLegalClientSystemNS): the catalog
// collections of admin, config and local.
var allowedSystemNamespaces = map[string]bool{
	"admin.system.roles": true, "admin.system.version": true, "admin.system.keys": true, "admin.system.backup_users": true,
	"config.system.sessions": true, "config.system.indexBuilds": true,
	"config.system.preimages": true, "config.system.change_collection": true,
	"local.system.replset": true, "local.system.healthlog": true,
}

// legalClientSystemName is NamespaceString::isLegalClientSystemNS for a
// system.* collection coll of db: a time-series buckets collection needs
// the name of a valid collection after its prefix.
func legalClientSystemName(db, coll string) bool {
	if allowedSystemCollections[coll] || allowedSystemNamespaces[db+"."+coll] {
		return true
	}
	if view, ok := strings.CutPrefix(coll, "system.buckets."); ok {
		return view != "" && !strings.HasPrefix(view, ".")
	}
	return slices.ContainsFunc(allowedSystemPrefixes, func(p string) bool { return strings.HasPrefix(coll, p) })
}

// CheckNUL refuses a collection name holding a NUL as NamespaceString's
// constructor does (src/mongo/db/namespace_string.h, makeData, 8.0):
// before any command looks at the name, so with the same message for
// every command.
func CheckNUL(coll string) error {
	if strings.Contains(coll, "\x00") {
		return mongoerr.New(mongoerr.InvalidNamespace, "namespaces cannot have embedded null characters")
	}
	return nil
}

// ValidateCollectionName rejects names mongod refuses.
func ValidateCollectionName(db, coll string) error {
	if err := CheckNUL(coll); err != nil {
		return err
	}
	if coll == "" {
		return mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid namespace specified '%s.'", db)
	}
	if strings.ContainsAny(coll, "$\x00") || strings.HasPrefix(coll, ".") {
		return mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid collection name: %s", coll)
	}
	if strings.HasPrefix(coll, "system.") && !legalClientSystemName(db, coll) {
		return mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid system namespace: %s.%s", db, coll)
	}
	if len(db)+1+len(coll) > 255 {
		return mongoerr.Newf(mongoerr.InvalidNamespace, "Fully qualified namespace is too long. Namespace: %s.%s Max: 255", db, coll)
	}
	return nil
}

// NewUUID is a random (version 4) UUID, as mongod generates for a
// collection or a session.
func NewUUID() bson.Binary {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return bson.Binary{Subtype: 4, Data: b}
}

// Collections snapshots every collection of the change's database, for
// a change that checks them all (the view graph of a database).
func (ch *Change) Collections() []*Collection {
	d := ch.cat.databaseSnapshotLocked(ch.db)
	if d == nil {
		return nil
	}
	return d.Collections()
}
