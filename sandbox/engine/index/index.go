// Package index is the engine's ordered secondary storage: index specs as
// createIndexes and listIndexes see them, key generation (multikey,
// sparse, partial), and a B-tree of (key, RecordID) entries ordered by
// MongoDB's BSON order per field and direction.
package index

import (
	"fmt"
	"maps"
	"math"
	"strings"

	"github.com/google/btree"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Entry is one index entry: a key (a value per key-pattern field) and the
// RecordID of the document it came from.
type Entry struct {
	Key []any
	RID int64
}

// Lowest and Highest are sentinels usable in a seek key: they sort before
// (after) every value in index order, whatever the field's direction, so
// that a planner can seek to "the first key with this prefix" or "just
// past every key with this prefix".
type (
	Lowest  struct{}
	Highest struct{}
)

// Index is one index of a collection.
type Index struct {
	Spec    Spec
	parts   [][]string
	tree    *btree.BTreeG[Entry]
	partial func(bson.D) bool
	// arrays accumulates, per field, the path prefixes seen holding an
	// array; like mongod, an index never becomes non-multikey again.
	arrays []uint64
	// appending is the entry AppendInOrder is inserting, while
	// isAppend is set.
	appending Entry
	isAppend  bool
	// pending is set on an index whose entries are filled on first use
	// (Deferred).
	pending *pendingFill
	// keyFields are the fields of the stored keys: the key pattern's,
	// except for a wildcard index, whose wildcard field is stored as
	// ($_path, value).
	keyFields []Field
	// wc is set on a wildcard index and on its per-path expansions.
	wc *Wildcard
	// multikeyPaths are the paths at which a wildcard index has seen an
	// array (mongod keeps them as metadata keys, never removed until the
	// index is dropped).
	multikeyPaths map[string]struct{}
	// hashed is set on a hashed index, whose keys hashedKeys computes.
	hashed bool
}

// New builds an empty index. partial is the compiled
// partialFilterExpression (nil when the index has none).
func New(spec Spec, partial func(bson.D) bool) *Index {
	ix := &Index{Spec: spec, partial: partial, arrays: make([]uint64, len(spec.Fields)), keyFields: spec.Fields}
	for _, f := range spec.Fields {
		ix.parts = append(ix.parts, strings.Split(f.Path, "."))
	}
	ix.hashed = spec.IsHashed()
	if spec.Wildcard != nil {
		ix.wc = spec.Wildcard
		ix.keyFields = wildcardKeyFields(spec.Fields, spec.Wildcard.pos, Field{Path: WildcardPathField})
		ix.multikeyPaths = map[string]struct{}{}
	}
	if spec.Unique {
		// A unique index holds at most one entry per key, so entries are
		// ordered by key alone: inserting then finds a duplicate in the
		// same descent (see TryAdd), as WiredTiger's no-overwrite insert
		// does for mongod.
		ix.tree = btree.NewG(32, ix.lessKeyOnly)
	} else {
		ix.tree = btree.NewG(32, ix.Less)
	}
	return ix
}

func (ix *Index) lessKeyOnly(a, b Entry) bool {
	if ix.isAppend {
		return ix.appendLess(a, b)
	}
	if len(a.Key) == 1 && len(b.Key) == 1 {
		// ObjectId _ids are the keys most inserts compare.
		if x, ok := a.Key[0].(bson.ObjectID); ok {
			if y, ok := b.Key[0].(bson.ObjectID); ok {
				c := value.CompareObjectIDs(&x, &y)
				if ix.keyFields[0].Desc {
					c = -c
				}
				return c < 0
			}
		}
		return ix.CompareField(0, a.Key[0], b.Key[0]) < 0
	}
	return ix.compareKeys(a.Key, b.Key) < 0
}

// Less orders entries by key (per-field BSON order and direction), then
// RecordID.
func (ix *Index) Less(a, b Entry) bool {
	if ix.isAppend {
		return ix.appendLess(a, b)
	}
	var c int
	if len(a.Key) == 1 && len(b.Key) == 1 {
		// Single-field indexes are the common case; skip the loop.
		c = ix.CompareField(0, a.Key[0], b.Key[0])
	} else {
		c = ix.compareKeys(a.Key, b.Key)
	}
	if c != 0 {
		return c < 0
	}
	return a.RID < b.RID
}

// CompareKeys compares two keys in index order.
func (ix *Index) CompareKeys(a, b []any) int { return ix.compareKeys(a, b) }

func (ix *Index) compareKeys(a, b []any) int {
	for i := range min(len(a), len(b)) {
		if c := ix.CompareField(i, a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

// CompareField compares two values of key field i in index order.
func (ix *Index) CompareField(i int, x, y any) int {
	if c, ok := compareSentinel(x, y); ok {
		return c
	}
	c := value.Compare(x, y)
	if ix.keyFields[i].Desc {
		return -c
	}
	return c
}

func sentinelRank(v any) int {
	switch v.(type) {
	case Lowest:
		return -1
	case Highest:
		return 1
	}
	return 0
}

func compareSentinel(x, y any) (int, bool) {
	rx, ry := sentinelRank(x), sentinelRank(y)
	if rx == 0 && ry == 0 {
		return 0, false
	}
	switch {
	case rx < ry:
		return -1, true
	case rx > ry:
		return 1, true
	}
	return 0, true
}

// Len is the number of entries.
func (ix *Index) Len() int {
	ix.ready()
	return ix.tree.Len()
}

// Add inserts a document's keys.
func (ix *Index) Add(ks KeySet, rid int64) {
	ix.ready()
	ix.noteArrays(ks)
	for _, k := range ks.Keys {
		ix.tree.ReplaceOrInsert(Entry{Key: k, RID: rid})
	}
}

// TryAdd inserts a document's keys; on a unique index a key already held
// by another record fails with E11000 and leaves the index as it was.
func (ix *Index) TryAdd(ks KeySet, rid int64, ns string) error {
	ix.ready()
	if !ix.Spec.Unique {
		if err := ix.checkPreparedUnique(ks, rid, ns); err != nil {
			return err
		}
		ix.Add(ks, rid)
		return nil
	}
	for i, k := range ks.Keys {
		old, replaced := ix.tree.ReplaceOrInsert(Entry{Key: k, RID: rid})
		if replaced && old.RID != rid {
			ix.tree.ReplaceOrInsert(old)
			for _, done := range ks.Keys[:i] {
				ix.tree.Delete(Entry{Key: done, RID: rid})
			}
			return ix.duplicateKeyError(k, ns)
		}
	}
	ix.noteArrays(ks)
	return nil
}

// noteArrays records the array-holding paths of a document's keys.
func (ix *Index) noteArrays(ks KeySet) {
	for i, m := range ks.arrays {
		ix.arrays[i] |= m
	}
	for _, p := range ks.multikeyPaths {
		ix.multikeyPaths[p] = struct{}{}
	}
}

// AppendInOrder inserts key k of a document's keys ks, which must sort
// after every entry the index holds: a snapshot file lists an index's
// entries in order, and appending them costs one comparison each (the
// check that the order holds) where inserting costs a search of the
// tree. It is for an index no one else sees yet.
func (ix *Index) AppendInOrder(ks KeySet, k int, rid int64) error {
	ix.ready()
	if k < 0 || k >= len(ks.Keys) {
		return fmt.Errorf("index %s: record %d has no key %d", ix.Spec.Name, rid, k)
	}
	e := Entry{Key: ks.Keys[k], RID: rid}
	less := ix.Less
	if ix.Spec.Unique {
		less = ix.lessKeyOnly
	}
	if last, ok := ix.tree.Max(); ok && !less(last, e) {
		return fmt.Errorf("index %s: the entry of record %d is out of order", ix.Spec.Name, rid)
	}
	// While appending, the tree's comparisons place e after everything:
	// the tree takes it as its new last entry without comparing keys.
	ix.appending, ix.isAppend = e, true
	ix.tree.ReplaceOrInsert(e)
	ix.appending, ix.isAppend = Entry{}, false
	ix.noteArrays(ks)
	return nil
}

// appendLess is the order while AppendInOrder inserts ix.appending: it
// comes after every other entry.
func (ix *Index) appendLess(a, b Entry) bool {
	return ix.isAppending(b) && !ix.isAppending(a)
}

func (ix *Index) isAppending(e Entry) bool {
	p := &ix.appending
	return e.RID == p.RID && len(e.Key) == len(p.Key) && (len(e.Key) == 0 || &e.Key[0] == &p.Key[0])
}

// Remove deletes a document's keys.
func (ix *Index) Remove(ks KeySet, rid int64) {
	ix.ready()
	for _, k := range ks.Keys {
		ix.tree.Delete(Entry{Key: k, RID: rid})
	}
}

// CheckUnique returns mongod's E11000 error when a unique index already
// holds one of the keys for a record other than rid. ns is "db.coll".
func (ix *Index) CheckUnique(ks KeySet, rid int64, ns string) error {
	ix.ready()
	if !ix.Spec.Unique {
		return ix.checkPreparedUnique(ks, rid, ns)
	}
	for _, k := range ks.Keys {
		if e, ok := ix.tree.Get(Entry{Key: k}); ok && e.RID != rid {
			return ix.duplicateKeyError(k, ns)
		}
	}
	return nil
}

// checkPreparedUnique is a prepareUnique index's refusal of a key another
// record holds; the duplicates it already held stay.
func (ix *Index) checkPreparedUnique(ks KeySet, rid int64, ns string) error {
	if !ix.Spec.PrepareUnique {
		return nil
	}
	for _, k := range ks.Keys {
		held := false
		ix.tree.AscendGreaterOrEqual(Entry{Key: k, RID: math.MinInt64}, func(e Entry) bool {
			if ix.compareKeys(e.Key, k) != 0 {
				return false
			}
			held = e.RID != rid
			return !held
		})
		if held {
			return ix.duplicateKeyError(k, ns)
		}
	}
	return nil
}

// DuplicateGroups lists, for each key more than one record holds, those
// records in index order: what stops the index becoming unique
// (scanIndexForDuplicates, coll_mod_index.cpp).
func (ix *Index) DuplicateGroups() [][]int64 {
	ix.ready()
	var groups [][]int64
	var prev *Entry
	inRun := false
	ix.tree.Ascend(func(e Entry) bool {
		same := prev != nil && ix.compareKeys(prev.Key, e.Key) == 0
		switch {
		case same && !inRun:
			groups = append(groups, []int64{prev.RID, e.RID})
		case same:
			groups[len(groups)-1] = append(groups[len(groups)-1], e.RID)
		}
		inRun, prev = same, &e
		return true
	})
	return groups
}

// WithSpec is a copy of ix under spec, which indexes the same keys. A
// change of uniqueness re-sorts the entries: a unique index orders them by
// key alone.
func (ix *Index) WithSpec(spec Spec) *Index {
	if spec.Unique == ix.Spec.Unique {
		c := ix.Clone()
		c.Spec = spec
		return c
	}
	fresh := New(spec, ix.partial)
	ix.Ascend(func(e Entry) bool {
		fresh.tree.ReplaceOrInsert(e)
		return true
	})
	fresh.arrays = append([]uint64(nil), ix.arrays...)
	if ix.multikeyPaths != nil {
		fresh.multikeyPaths = maps.Clone(ix.multikeyPaths)
	}
	return fresh
}

func (ix *Index) duplicateKeyError(key []any, ns string) error {
	keyValue := make(bson.D, len(key))
	for i, f := range ix.Spec.Fields {
		keyValue[i] = bson.E{Key: f.Path, Value: key[i]}
	}
	named := " index: " + ix.Spec.Name
	if ix.Spec.Clustered {
		// A clustered collection's duplicate is a RecordId the record
		// store already holds: buildDupKeyErrorStatus names no index
		// (collection_write_path.cpp).
		named = ""
	}
	err := mongoerr.Newf(mongoerr.DuplicateKey, "E11000 duplicate key error collection: %s%s dup key: %s",
		ns, named, FormatDoc(keyValue))
	err.Extra = bson.D{{Key: "keyPattern", Value: ix.Spec.Key}, {Key: "keyValue", Value: keyValue}}
	return err
}

// IsMultiKey reports whether any indexed document had an array on an
// indexed path.
func (ix *Index) IsMultiKey() bool {
	ix.ready()
	if len(ix.multikeyPaths) > 0 {
		return true
	}
	for _, m := range ix.arrays {
		if m != 0 {
			return true
		}
	}
	return false
}

// KeyFields are the fields of the index's stored keys, in order: the key
// pattern's, with ($_path, value) for a wildcard index's wildcard field.
func (ix *Index) KeyFields() []Field { return ix.keyFields }

// FieldIsMultiKey reports whether key field i ever went through an array.
func (ix *Index) FieldIsMultiKey(i int) bool {
	ix.ready()
	return ix.arrays[i] != 0
}

// MultiKeyComponents lists, ascending, the positions of key field i's
// path components that held an array (mongod's MultikeyComponents: 0 for
// "a" in "a.b").
func (ix *Index) MultiKeyComponents(i int) []int {
	ix.ready()
	var out []int
	for n := range ix.parts[i] {
		if ix.arrays[i]&(1<<uint(n)) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// MultiKeyPaths is explain's multiKeyPaths: for each key field, the path
// prefixes that held arrays, e.g. {"a.b": ["a"], c: []}. It is nil for a
// hashed index: mongod tracks path-level multikey information only for
// btree and 2dsphere indexes (indexTypeSupportsPathLevelMultikeyTracking,
// src/mongo/db/storage/bson_collection_catalog_entry.cpp), and explain
// leaves out an empty multiKeyPaths (plan_explainer_impl.cpp).
func (ix *Index) MultiKeyPaths() bson.D {
	if ix.hashed {
		return nil
	}
	ix.ready()
	d := make(bson.D, len(ix.parts))
	for i, parts := range ix.parts {
		paths := bson.A{}
		for n := range parts {
			if ix.arrays[i]&(1<<uint(n)) != 0 {
				paths = append(paths, strings.Join(parts[:n+1], "."))
			}
		}
		d[i] = bson.E{Key: ix.Spec.Fields[i].Path, Value: paths}
	}
	return d
}

// AscendFrom calls fn for entries >= pivot in index order until fn
// returns false.
func (ix *Index) AscendFrom(pivot Entry, fn func(Entry) bool) {
	ix.ready()
	if !ix.Spec.Unique {
		ix.tree.AscendGreaterOrEqual(pivot, fn)
		return
	}
	// A unique index orders by key alone; restore (key, RecordID) order
	// for scans resuming after an entry they already returned.
	ix.tree.AscendGreaterOrEqual(pivot, func(e Entry) bool {
		if e.RID < pivot.RID && ix.compareKeys(e.Key, pivot.Key) == 0 {
			return true
		}
		return fn(e)
	})
}

// DescendFrom calls fn for entries <= pivot in reverse index order until
// fn returns false.
func (ix *Index) DescendFrom(pivot Entry, fn func(Entry) bool) {
	ix.ready()
	if !ix.Spec.Unique {
		ix.tree.DescendLessOrEqual(pivot, fn)
		return
	}
	ix.tree.DescendLessOrEqual(pivot, func(e Entry) bool {
		if e.RID > pivot.RID && ix.compareKeys(e.Key, pivot.Key) == 0 {
			return true
		}
		return fn(e)
	})
}

// Ascend visits every entry in index order.
func (ix *Index) Ascend(fn func(Entry) bool) {
	ix.ready()
	ix.tree.Ascend(fn)
}

// Empty returns a new, empty index with the same spec and partial filter.
func (ix *Index) Empty() *Index { return New(ix.Spec, ix.partial) }

// Clone returns an index sharing nothing mutable with ix, for catalog
// operations that must leave the original untouched on failure.
func (ix *Index) Clone() *Index {
	if p := ix.pending; p != nil && !p.done.Load() {
		// Not filled yet: the copy waits for the same filling. ix's
		// entries are not read, as another reader may be filling them.
		c := New(ix.Spec, ix.partial)
		c.pending = &pendingFill{shared: p.shared}
		return c
	}
	c := *ix
	c.tree = ix.tree.Clone()
	c.arrays = append([]uint64(nil), ix.arrays...)
	c.pending = nil
	if ix.multikeyPaths != nil {
		c.multikeyPaths = make(map[string]struct{}, len(ix.multikeyPaths))
		for p := range ix.multikeyPaths {
			c.multikeyPaths[p] = struct{}{}
		}
	}
	return &c
}
