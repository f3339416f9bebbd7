package catalog

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/google/btree"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Record is one stored document. Doc is never modified once stored.
type Record struct {
	ID   int64
	Doc  bson.D
	Size int // BSON size, kept for storage statistics
}

// recordRef is a record's entry in a collection's records tree. The tree
// holds values rather than *Record so that looking a record up by id
// allocates nothing: a *Record probe would escape to the heap through the
// tree's less function, once per document a FETCH reads.
type recordRef struct {
	id int64
	r  *Record
}

func newRecordTree() *btree.BTreeG[recordRef] {
	return btree.NewG(32, func(a, b recordRef) bool { return a.id < b.id })
}

// Collection is an ordered set of records and its indexes.
//
// The catalog holds live collections; Snapshot gives read-only copies of
// them. A live collection is written only inside Catalog.Write (or by a
// test that owns it alone), which holds its write lock; a snapshot is never
// written, so any number of goroutines may read it without a lock. DB, Name
// and UUID never change on either: a rename moves the data to a new live
// collection.
type Collection struct {
	DB, Name string
	UUID     bson.Binary
	Options  bson.D
	// Kind is "collection", or "timeseries" for the view mongod keeps
	// over a time-series collection's system.buckets collection (it holds
	// no records). It is set before the collection becomes visible
	// (Change.Create) and never changes, so Catalog.Kind reads it without
	// a lock.
	Kind string
	// Validator is options.validator compiled; the engine sets it when the
	// collection is created (before it is visible) and when collMod
	// changes the validator (under the write lock, with Options).
	Validator *validation.Validator
	// MayHaveMixedSchema is a time-series buckets collection's
	// catalog-entry flag timeseriesBucketsMayHaveMixedSchemaData: collMod
	// sets it, and the unpacking of the view's reads then no longer
	// assumes no mixed-schema data. ExtendedRange is
	// requiresTimeseriesExtendedRangeSupport: a measurement's time fell
	// outside 1970 to 2038, where its bucket's _id cannot hold it, and
	// reads then use the extended range. BucketingChanged is
	// timeseriesBucketingParametersHaveChanged: collMod changed the
	// bucketing, so older buckets may not start where the current
	// options would start them. All three change only under the write
	// lock.
	MayHaveMixedSchema, ExtendedRange, BucketingChanged bool

	ns       string
	records  *btree.BTreeG[recordRef]
	nextID   int64
	dataSize int64
	indexes  []*index.Index
	// version counts the writes to a live collection; a snapshot keeps
	// the count it was taken at.
	version uint64
	compile FilterCompiler
	// keyScratch is reused by every insert into a live collection (under
	// its write lock) so that computing a document's keys allocates no
	// slice of key sets.
	keyScratch []index.KeySet
	// keyWrites counts the index entries the collection's writes added
	// and removed.
	keyWrites KeyWrites
	// live is nil on a snapshot.
	live *liveState
	// quota, when set on a live collection, bounds the growth of its
	// database's prefix (Quota); its data size is counted there. It is
	// set when the collection enters the catalog, and changed only under
	// the write lock.
	quota *Quota
	// docs, on a collection read from a snapshot file and its copies,
	// decodes the records' documents when the collection is first read.
	docs *deferredDocs
	// derived holds what has been computed from this state of the
	// contents (Derived). A write gives the live collection a new one;
	// its snapshots and the copies restored from them keep theirs.
	derived *derived
}

// derived is what has been computed from one state of a collection's
// contents.
type derived struct {
	once  sync.Once
	value any
}

// deferredDocs decodes the documents of a collection read from a
// snapshot file. A lesson's state holds all its collections and the step
// a learner opens reads one or two: the others stay bytes. Every copy of
// the collection shares it (and its records), so they are decoded once.
type deferredDocs struct {
	mu   sync.Mutex
	done atomic.Bool
	// decode holds the file's bytes until it has run.
	decode func()
}

// ready decodes the documents if that has not been done yet. Every method
// that reads a record's document calls it first.
func (d *deferredDocs) ready() {
	if d == nil || d.done.Load() {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.done.Load() {
		d.decode()
		d.decode = nil
		d.done.Store(true)
	}
}

// liveState is what only the catalog's own copy of a collection has.
type liveState struct {
	// mu is the collection's write lock. Writers hold it for one
	// document or one short batch at a time; readers hold it only for the
	// O(1) clone that gives them a snapshot.
	mu sync.Mutex
	// retired is set (under mu) once the collection has left the catalog:
	// dropped, renamed, or replaced by a snapshot restore. A writer that
	// finds it set looks the namespace up again.
	retired bool
	// snap caches the last snapshot taken; every write clears it. Readers
	// load it without the lock: a snapshot that a writer has just
	// superseded is still a consistent (earlier) state.
	snap atomic.Pointer[Collection]
}

func newCollection(db, name string, options bson.D, compile FilterCompiler) *Collection {
	c := &Collection{
		DB: db, Name: name, UUID: NewUUID(), Options: options, compile: compile, Kind: KindCollection,
		records: newRecordTree(),
		nextID:  1,
		live:    &liveState{},
		derived: &derived{},
	}
	if options == nil {
		c.Options = bson.D{}
	}
	c.ns = db + "." + name
	if requiresIDIndex(name) {
		c.indexes = []*index.Index{index.New(c.idSpec(index.IDSpec()), nil)}
	}
	return c
}

// requiresIDIndex is CollectionImpl::requiresIdIndex: every collection
// gets an _id index but the profile, whose entries have no _id.
func requiresIDIndex(name string) bool { return name != "system.profile" }

// Derived returns compute's result for the collection's contents as they
// are, computing it at most once per state: the storage statistics
// model, which scans every record, then costs one scan per state instead
// of one per request, and a classroom's students reading their copies of
// a template share one. c must be a snapshot (Collection.Snapshot), and
// compute must depend on its contents alone.
func (c *Collection) Derived(compute func() any) any {
	d := c.derived
	if d == nil || c.live != nil {
		return compute()
	}
	d.once.Do(func() { d.value = compute() })
	return d.value
}

// NS is "db.coll".
func (c *Collection) NS() string { return c.ns }

// Count is the number of records.
func (c *Collection) Count() int { return c.records.Len() }

// DataSize is the sum of the records' BSON sizes.
func (c *Collection) DataSize() int64 { return c.dataSize }

// Get returns the document with RecordID rid.
func (c *Collection) Get(rid int64) (bson.D, bool) {
	r := c.Record(rid)
	if r == nil {
		return nil, false
	}
	return r.Doc, true
}

// Record returns the record with RecordID rid, or nil.
func (c *Collection) Record(rid int64) *Record {
	c.docs.ready()
	ref, _ := c.records.Get(recordRef{id: rid})
	return ref.r
}

// Scan visits records in natural order starting at RecordID from (use 0
// for the beginning) until fn returns false. Resuming from the last seen
// RecordID+1 continues a scan across yields, whatever was written since.
func (c *Collection) Scan(from int64, fn func(r *Record) bool) {
	c.docs.ready()
	c.records.AscendGreaterOrEqual(recordRef{id: from}, func(ref recordRef) bool { return fn(ref.r) })
}

// ScanBackward visits records in reverse natural order starting at
// RecordID from (math.MaxInt64 for the end).
func (c *Collection) ScanBackward(from int64, fn func(r *Record) bool) {
	c.docs.ready()
	c.records.DescendLessOrEqual(recordRef{id: from}, func(ref recordRef) bool { return fn(ref.r) })
}

// Indexes lists the indexes in creation order; _id_ is first.
func (c *Collection) Indexes() []*index.Index { return c.indexes }

// Index returns the named index, or nil.
func (c *Collection) Index(name string) *index.Index {
	for _, ix := range c.indexes {
		if ix.Spec.Name == name {
			return ix
		}
	}
	return nil
}

// IndexesByKey returns the indexes whose key pattern is key.
func (c *Collection) IndexesByKey(key bson.D) []*index.Index {
	var out []*index.Index
	for _, ix := range c.indexes {
		if index.SameKey(ix.Spec.Key, key) {
			out = append(out, ix)
		}
	}
	return out
}

// keysFor computes doc's keys for every index, failing on parallel
// arrays before anything is written.
func (c *Collection) keysFor(doc bson.D) ([]index.KeySet, error) {
	sets := make([]index.KeySet, len(c.indexes))
	return c.keysInto(sets, doc)
}

func (c *Collection) keysInto(sets []index.KeySet, doc bson.D) ([]index.KeySet, error) {
	timeField, isBuckets := c.bucketTimeField()
	for i, ix := range c.indexes {
		if isBuckets {
			if err := checkIndexedArrays(doc, ix.Spec.Key, timeField); err != nil {
				return nil, err
			}
		}
		ks, err := ix.KeysReusing(sets[i].Keys, doc)
		if err != nil {
			return nil, err
		}
		sets[i] = ks
	}
	return sets, nil
}

// addKeys inserts a document's keys into every index, index by index; a
// duplicate on a unique index removes what this call added and fails, so
// the indexes are left as they were.
func (c *Collection) addKeys(sets []index.KeySet, rid int64) error {
	n := 0
	for i, ix := range c.indexes {
		if err := ix.TryAdd(sets[i], rid, c.NS()); err != nil {
			for j := range i {
				c.indexes[j].Remove(sets[j], rid)
			}
			return err
		}
		n += len(sets[i].Keys)
	}
	c.keyWrites.Inserted += int64(n)
	c.keyWrites.Adds++
	return nil
}

// KeyWrites counts the index entries a live collection's writes have
// added and removed so far, and the documents written that way: what the
// profiler reports of a write as keysInserted and keysDeleted (OpDebug's
// additiveMetrics, which mongod increments, by 0 too, for each document
// inserted, updated or deleted).
type KeyWrites struct {
	Inserted, Deleted int64
	// Adds counts the documents inserted or replaced, Removes those
	// replaced or deleted.
	Adds, Removes int64
}

// KeyWrites reports the collection's counts; read them under its write
// lock, around the writes to measure.
func (c *Collection) KeyWrites() KeyWrites { return c.keyWrites }

// Insert stores doc (which the caller hands over: it must not be modified
// afterwards) and returns its RecordID. A duplicate key or parallel arrays
// leave the collection unchanged.
func (c *Collection) Insert(doc bson.D) (int64, error) {
	return c.InsertSized(doc, value.Size(doc))
}

// InsertSized is Insert for a caller that already knows the document's
// BSON size.
func (c *Collection) InsertSized(doc bson.D, size int) (int64, error) {
	if c.quota != nil {
		if err := c.quota.Admit(int64(size)); err != nil {
			return 0, err
		}
	}
	if err := c.checkRecordIDSize(doc); err != nil {
		return 0, err
	}
	if cap(c.keyScratch) < len(c.indexes) {
		c.keyScratch = make([]index.KeySet, len(c.indexes))
	}
	sets, err := c.keysInto(c.keyScratch[:len(c.indexes)], doc)
	if err == nil {
		err = c.addKeys(sets, c.nextID)
	}
	for i, ks := range c.keyScratch {
		// The scratch keeps its lists of keys for the next document, but
		// not this document's keys.
		clear(ks.Keys)
		c.keyScratch[i] = index.KeySet{Keys: ks.Keys[:0]}
	}
	if err != nil {
		return 0, err
	}
	rid := c.nextID
	c.nextID++
	c.records.ReplaceOrInsert(recordRef{id: rid, r: &Record{ID: rid, Doc: doc, Size: size}})
	c.grow(int64(size))
	c.cappedDelete(rid)
	return rid, nil
}

// Replace swaps the document at rid for doc, keeping its RecordID and
// position. On error nothing changes.
func (c *Collection) Replace(rid int64, doc bson.D) error {
	c.docs.ready()
	ref, ok := c.records.Get(recordRef{id: rid})
	old := ref.r
	if !ok {
		return mongoerr.Newf(mongoerr.InternalError, "record %d not found", rid)
	}
	size := value.Size(doc)
	if c.quota != nil && size > old.Size {
		if err := c.quota.Admit(int64(size - old.Size)); err != nil {
			return err
		}
	}
	// Only the entries whose keys change are touched: none of an index
	// whose fields the update left alone, and of the others those
	// KeySet.Without leaves.
	sets := make([]index.KeySet, len(c.indexes))
	removed := make([]index.KeySet, len(c.indexes))
	timeField, isBuckets := c.bucketTimeField()
	for i, ix := range c.indexes {
		// The check reads the data columns, which the index's own inputs
		// do not cover.
		if isBuckets {
			if err := checkIndexedArrays(doc, ix.Spec.Key, timeField); err != nil {
				return err
			}
		}
		if ix.InputsIdentical(old.Doc, doc) {
			continue
		}
		ks, err := ix.Keys(doc)
		if err != nil {
			return err
		}
		sets[i] = ks
		if was, err := ix.Keys(old.Doc); err == nil {
			removed[i], sets[i] = was.Without(ks), ks.Without(was)
		}
	}
	for i, ix := range c.indexes {
		ix.Remove(removed[i], rid)
	}
	if err := c.addKeys(sets, rid); err != nil {
		for i, ix := range c.indexes {
			ix.Add(removed[i], rid)
		}
		return err
	}
	for _, ks := range removed {
		c.keyWrites.Deleted += int64(len(ks.Keys))
	}
	c.keyWrites.Removes++
	c.records.ReplaceOrInsert(recordRef{id: rid, r: &Record{ID: rid, Doc: doc, Size: size}})
	c.grow(int64(size - old.Size))
	return nil
}

// Delete removes the record and reports whether it existed.
func (c *Collection) Delete(rid int64) bool {
	c.docs.ready()
	ref, ok := c.records.Delete(recordRef{id: rid})
	old := ref.r
	if !ok {
		return false
	}
	if sets, err := c.keysFor(old.Doc); err == nil {
		for i, ix := range c.indexes {
			ix.Remove(sets[i], rid)
			c.keyWrites.Deleted += int64(len(sets[i].Keys))
		}
	}
	c.keyWrites.Removes++
	c.grow(-int64(old.Size))
	return true
}

// grow changes the data size by n bytes, in the quota's count too.
func (c *Collection) grow(n int64) {
	c.dataSize += n
	if c.quota != nil {
		c.quota.data.Add(n)
	}
}

// Truncate removes every record (emptycapped, deleteMany({}) fast path).
func (c *Collection) Truncate() {
	c.records.Clear(false)
	c.grow(-c.dataSize)
	for i, ix := range c.indexes {
		c.indexes[i] = ix.Empty()
	}
}

// CreateIndex adds an index built over the existing records. It returns
// false without error when an identical index exists (createIndexes'
// idempotence), and mongod's errors for conflicting specs and for
// existing documents that violate a unique index or hold parallel arrays.
func (c *Collection) CreateIndex(spec index.Spec) (bool, error) {
	ix, err := c.buildIndex(spec)
	if ix == nil || err != nil {
		return false, err
	}
	c.indexes = append(slices.Clip(c.indexes), ix)
	return true, nil
}

// buildIndex checks spec against c's indexes and builds the index over
// c's records, reading c only: it returns nil, nil when an identical index
// exists.
func (c *Collection) buildIndex(spec index.Spec) (*index.Index, error) {
	c.docs.ready()
	if exists, err := c.clusterKeySpec(spec); exists || err != nil {
		return nil, err
	}
	ix, err := c.newIndex(spec)
	if ix == nil || err != nil {
		return nil, err
	}
	var buildErr error
	timeField, isBuckets := c.bucketTimeField()
	c.records.Ascend(func(ref recordRef) bool {
		r := ref.r
		var err error
		if isBuckets {
			err = checkIndexedArrays(r.Doc, spec.Key, timeField)
		}
		var ks index.KeySet
		if err == nil {
			ks, err = ix.Keys(r.Doc)
		}
		if err == nil {
			err = ix.TryAdd(ks, r.ID, c.NS())
		}
		if err != nil {
			buildErr = err
			return false
		}
		return true
	})
	if buildErr != nil {
		// mongod's index build reports any failure while scanning the
		// collection (a duplicate key, parallel arrays) with its context.
		if me := mongoerr.As(buildErr); me != nil && me.Code != mongoerr.InternalError {
			me2 := *me
			me2.Msg = "Index build failed: " + UUIDString(NewUUID()) + ": Collection " + c.NS() + " ( " + UUIDString(c.UUID) + " ) :: caused by :: " + me.Msg
			return nil, &me2
		}
		return nil, buildErr
	}
	return ix, nil
}

// newIndex checks spec against c's indexes and returns it as an empty
// index, or nil, nil when an identical index exists.
func (c *Collection) newIndex(spec index.Spec) (*index.Index, error) {
	for _, ix := range c.indexes {
		if ix.Spec.Name != spec.Name {
			continue
		}
		switch spec.Compare(ix.Spec) {
		case index.Identical:
			return nil, nil
		case index.Equivalent:
			return nil, mongoerr.Newf(mongoerr.IndexOptionsConflict, "An equivalent index already exists with the same name but different options. Requested index: %s, existing index: %s",
				index.FormatDoc(spec.Document()), index.FormatDoc(ix.Spec.Document()))
		default:
			return nil, mongoerr.Newf(mongoerr.IndexKeySpecsConflict, "An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: %s, existing index: %s",
				index.FormatDoc(spec.Document()), index.FormatDoc(ix.Spec.Document()))
		}
	}
	for _, ix := range c.indexes {
		switch spec.Compare(ix.Spec) {
		case index.Identical:
			return nil, mongoerr.Newf(mongoerr.IndexOptionsConflict, "Index already exists with a different name: %s", ix.Spec.Name)
		case index.Equivalent:
			return nil, mongoerr.Newf(mongoerr.IndexOptionsConflict, "An equivalent index already exists with a different name and options. Requested index: %s, existing index: %s",
				index.FormatDoc(spec.Document()), index.FormatDoc(ix.Spec.Document()))
		}
	}
	if len(c.indexes) >= 64 {
		return nil, mongoerr.Newf(mongoerr.CannotCreateIndex, "add index fails, too many indexes for %s key:%s", c.NS(), index.FormatDoc(spec.Key))
	}
	var partial func(bson.D) bool
	if spec.Partial != nil {
		if c.compile == nil {
			return nil, mongoerr.New(mongoerr.NotImplemented, "partialFilterExpression is not available")
		}
		m, err := c.compile(spec.Partial)
		if err != nil {
			return nil, err
		}
		partial = m
	}
	return index.New(c.idSpec(spec), partial), nil
}

// DropIndex removes the named index. _id_ cannot be dropped.
func (c *Collection) DropIndex(name string) error {
	if name == index.IDIndexName {
		return mongoerr.New(mongoerr.InvalidOptions, "cannot drop _id index")
	}
	for i, ix := range c.indexes {
		if ix.Spec.Name == name {
			c.indexes = append(c.indexes[:i:i], c.indexes[i+1:]...)
			return nil
		}
	}
	return mongoerr.Newf(mongoerr.IndexNotFound, "index not found with name [%s]", name)
}

// SetIndexSpec replaces the named index's spec (collMod's index option:
// hidden, expireAfterSeconds), keeping its entries; the index is copied,
// so that snapshots keep the spec they saw. It reports whether the index
// exists.
func (c *Collection) SetIndexSpec(name string, spec index.Spec) bool {
	for i, ix := range c.indexes {
		if ix.Spec.Name == name {
			next := ix.WithSpec(spec)
			c.indexes = append(c.indexes[:i:i], c.indexes[i:]...)
			c.indexes[i] = next
			return true
		}
	}
	return false
}

// RebuildIndexes is reIndex's drop and rebuild of every index from the
// records: the specs stay, the entries are computed afresh. On failure
// the indexes are left as they were.
func (c *Collection) RebuildIndexes() error {
	c.docs.ready()
	rebuilt := make([]*index.Index, len(c.indexes))
	for i, ix := range c.indexes {
		fresh := ix.Empty()
		var err error
		c.records.Ascend(func(ref recordRef) bool {
			var ks index.KeySet
			if ks, err = fresh.Keys(ref.r.Doc); err == nil {
				err = fresh.TryAdd(ks, ref.r.ID, c.NS())
			}
			return err == nil
		})
		if err != nil {
			return err
		}
		rebuilt[i] = fresh
	}
	c.indexes = rebuilt
	return nil
}

// DropAllIndexes removes every index but _id_ ("*").
func (c *Collection) DropAllIndexes() {
	c.indexes = c.indexes[:1:1]
}

// Collection kinds as listCollections reports them.
const (
	KindCollection = "collection"
	KindTimeseries = "timeseries"
	// KindView is a read-only view: Options hold viewOn and pipeline,
	// and the collection never holds documents.
	KindView = "view"
)

// ListCollectionsEntry is the collection's document in listCollections.
func (c *Collection) ListCollectionsEntry() bson.D {
	if c.Kind == KindView {
		return bson.D{
			{Key: "name", Value: c.Name},
			{Key: "type", Value: KindView},
			{Key: "options", Value: c.Options},
			{Key: "info", Value: bson.D{{Key: "readOnly", Value: true}}},
		}
	}
	if c.Kind == KindTimeseries {
		return bson.D{
			{Key: "name", Value: c.Name},
			{Key: "type", Value: KindTimeseries},
			{Key: "options", Value: c.Options},
			{Key: "info", Value: bson.D{{Key: "readOnly", Value: false}}},
		}
	}
	entry := bson.D{
		{Key: "name", Value: c.Name},
		{Key: "type", Value: "collection"},
		{Key: "options", Value: c.Options},
		{Key: "info", Value: bson.D{{Key: "readOnly", Value: false}, {Key: "uuid", Value: c.UUID}}},
	}
	// A clustered collection is keyed by _id and lists no _id index.
	if c.IsClustered() || !requiresIDIndex(c.Name) {
		return entry
	}
	return append(entry, bson.E{Key: "idIndex", Value: index.IDSpec().Document()})
}

// UUIDString renders a UUID the way mongod prints one in messages
// (8-4-4-4-12 lowercase hex digits).
func UUIDString(b bson.Binary) string {
	const hexdigits = "0123456789abcdef"
	out := make([]byte, 0, 36)
	for i, x := range b.Data {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out = append(out, '-')
		}
		out = append(out, hexdigits[x>>4], hexdigits[x&15])
	}
	return string(out)
}

// clone returns a copy that shares every stored record and index entry
// with c copy-on-write: it costs O(1) now, and a later write to either copy
// duplicates only the B-tree nodes it touches. Records are immutable, so
// sharing them is safe. The copy is a snapshot (read-only) unless live is
// set.
//
// google/btree's Clone writes to the tree it clones (it gives both trees
// new copy-on-write contexts), so clone must not run concurrently with a
// write to c, nor with another clone of c: for a live collection the
// caller holds c's write lock; a snapshot is cloned only by a restore,
// under the catalog's exclusive lock.
func (c *Collection) clone(live bool) *Collection {
	out := *c
	out.records = c.records.Clone()
	out.indexes = make([]*index.Index, len(c.indexes))
	for i, ix := range c.indexes {
		out.indexes[i] = ix.Clone()
	}
	out.keyScratch = nil
	out.live = nil
	if live {
		out.live = &liveState{}
	}
	return &out
}

// Snapshot returns a read-only copy of the collection as it is now, in
// O(1): the same copy for every reader until the next write. A snapshot's
// snapshot is itself.
func (c *Collection) Snapshot() *Collection {
	if c.live == nil {
		return c
	}
	if s := c.live.snap.Load(); s != nil {
		return s
	}
	c.live.mu.Lock()
	defer c.live.mu.Unlock()
	return c.snapshotLocked()
}

func (c *Collection) snapshotLocked() *Collection {
	if s := c.live.snap.Load(); s != nil {
		return s
	}
	s := c.clone(false)
	c.live.snap.Store(s)
	return s
}
