package index

import (
	"fmt"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// KeySet is the index keys of one document: one []any per key, each
// holding a value per key-pattern field. A document without arrays has
// exactly one key; an array at an indexed path gives one key per element.
type KeySet struct {
	Keys [][]any
	// arrays[i] is a bitmask of path prefixes (bit n = first n+1
	// components) of field i that held an array, for multiKeyPaths.
	arrays []uint64
	// multikeyPaths are the array-holding paths a wildcard index records.
	multikeyPaths []string
}

// Without is ks without the keys other also has, keeping ks's record of
// which paths held arrays: the entries a replaced document removes
// (old.Without(new)) and adds (new.Without(old)). mongod's
// prepareUpdate computes the same difference, so an update that changes
// one element of a large indexed array rewrites one entry, not all. Keys
// are the same when their values are of the same type and compare equal
// byte for byte (1 and 1.0 are not), so an entry always holds the
// document's own values.
func (ks KeySet) Without(other KeySet) KeySet {
	out := KeySet{arrays: ks.arrays, multikeyPaths: ks.multikeyPaths}
	if len(other.Keys) == 0 {
		out.Keys = ks.Keys
		return out
	}
	if len(ks.Keys)*len(other.Keys) <= 256 {
		for _, k := range ks.Keys {
			if !slices.ContainsFunc(other.Keys, func(o []any) bool { return identicalKeys(k, o) }) {
				out.Keys = append(out.Keys, k)
			}
		}
		return out
	}
	held := make(map[string]bool, len(other.Keys))
	for _, o := range other.Keys {
		held[keyString(o)] = true
	}
	for _, k := range ks.Keys {
		if !held[keyString(k)] {
			out.Keys = append(out.Keys, k)
		}
	}
	return out
}

// identicalKeys is keyString(a) == keyString(b) without encoding the
// common scalars, whose equal values of one type are the same bytes.
// Doubles (0 and -0), decimals (1.0 and 1.00), documents and arrays (which
// hold numbers of any type) can compare equal and still differ, so they
// are compared encoded.
func identicalKeys(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		same, known := identicalScalars(a[i], b[i])
		if !known {
			return keyString(a) == keyString(b)
		}
		if !same {
			return false
		}
	}
	return true
}

// identicalScalars reports whether a and b are the same bytes when a is
// one of the common scalars, whose equal values of one type always are;
// known is false for any other a.
func identicalScalars(a, b any) (same, known bool) {
	switch a.(type) {
	case string, int32, int64, bool, bson.ObjectID, bson.DateTime, nil:
		return value.TypeName(a) == value.TypeName(b) && value.Compare(a, b) == 0, true
	}
	return false, false
}

// InputsIdentical reports whether old and new certainly give ix the same
// keys: every top-level field its key paths start from holds the same
// scalar, or is missing, in both. An update that leaves an index's fields
// alone then costs that index nothing (as mongod's update skips the
// indexes its modified paths miss). A partial index, whose filter may read
// any field, a key path naming no plain field, and a field holding a
// document, an array or a less common scalar answer false: the caller
// computes the keys.
func (ix *Index) InputsIdentical(old, new bson.D) bool {
	if ix.partial != nil {
		return false
	}
	for _, parts := range ix.parts {
		if strings.HasPrefix(parts[0], "$") {
			return false
		}
		a, b := value.Get(old, parts[0]), value.Get(new, parts[0])
		if value.IsMissing(a) && value.IsMissing(b) {
			continue
		}
		if same, known := identicalScalars(a, b); !known || !same {
			return false
		}
	}
	return true
}

// keyString is a key's exact encoding: its values as a BSON document.
func keyString(key []any) string {
	d := make(bson.D, len(key))
	for i, v := range key {
		d[i] = bson.E{Value: v}
	}
	b, err := value.AppendDoc(nil, d)
	if err != nil {
		// A value that cannot be encoded is never equal to another.
		return fmt.Sprintf("%p", key)
	}
	return string(b)
}

// Keys computes the keys of doc. It fails with mongod's error 171 when two
// key fields go through different arrays. A sparse index returns no keys
// for a document missing every indexed field; a partial index none for a
// document outside its filter.
func (ix *Index) Keys(doc bson.D) (KeySet, error) {
	return ix.KeysReusing(nil, doc)
}

// KeysReusing is Keys for a caller that computes one document's keys
// after another (an insert batch, under a collection's write lock): a
// one-field key set lists its key in list's array, which the caller must
// no longer need (the keys it held may live on in the index; the list of
// them is what is reused). An insertMany then allocates, per document and
// index, the key alone.
func (ix *Index) KeysReusing(list [][]any, doc bson.D) (KeySet, error) {
	if ix.partial != nil && !ix.partial(doc) {
		return KeySet{}, nil
	}
	if ix.wc != nil {
		return ix.wildcardKeys(doc)
	}
	if ix.hashed {
		return ix.hashedKeys(list, doc)
	}
	if len(ix.parts) == 1 && len(ix.parts[0]) == 1 {
		// The common case, a single top-level field (every _id index):
		// no path walk, and no array means exactly one key.
		v := value.Get(doc, ix.parts[0][0])
		switch v := v.(type) {
		case bson.A:
			return ix.arrayKeys(list, v), nil
		case value.Missing:
			if ix.Spec.Sparse {
				return KeySet{}, nil
			}
			return singleKey(list, nil), nil
		default:
			return singleKey(list, v), nil
		}
	}
	return ix.pathKeys(doc)
}

// arrayKeys is the key set of a one-field index on a top-level field
// holding arr, as pathKeys computes it (one key per distinct element, in
// index order, an empty array giving undefined), without the bookkeeping
// of paths: the keys of a multikey document are computed when it is
// inserted, for each update, and when a cached state's index is filled.
// The keys are listed in list's array, and share one allocation: an entry
// the index keeps holds the values of its document's other keys of that
// time alive with it, 16 bytes each, until it is removed.
func (ix *Index) arrayKeys(list [][]any, arr bson.A) KeySet {
	ks := KeySet{Keys: list[:0], arrays: []uint64{1}}
	if len(arr) == 0 {
		ks.Keys = append(ks.Keys, []any{bson.Undefined{}})
		return ks
	}
	values := dedupValues(slices.Clone(arr))
	for i := range values {
		ks.Keys = append(ks.Keys, values[i:i+1:i+1])
	}
	if len(ks.Keys) > 1 {
		slices.SortFunc(ks.Keys, ix.compareKeys)
		ks.Keys = slices.CompactFunc(ks.Keys, func(a, b []any) bool { return ix.compareKeys(a, b) == 0 })
	}
	return ks
}

// pathKeys computes doc's keys by walking every key path (keyGen).
func (ix *Index) pathKeys(doc bson.D) (KeySet, error) {
	ks := KeySet{arrays: make([]uint64, len(ix.parts))}
	g := keyGen{paths: ix.parts, sparse: ix.Spec.Sparse, arrays: ks.arrays, visit: func(key []any) {
		ks.Keys = append(ks.Keys, key)
	}}
	if err := g.walk(doc); err != nil {
		return KeySet{}, err
	}
	switch {
	case len(ks.Keys) == 0 && !ix.Spec.Sparse:
		ks.Keys = append(ks.Keys, make([]any, len(ix.parts)))
	case len(ks.Keys) > 1:
		// Elements can give the same key; a sort brings duplicates
		// together (a document with a 50,000-element array must not
		// cost 50,000² comparisons).
		slices.SortFunc(ks.Keys, ix.compareKeys)
		ks.Keys = slices.CompactFunc(ks.Keys, func(a, b []any) bool { return ix.compareKeys(a, b) == 0 })
	}
	return ks, nil
}

// singleKey is the key set of one one-field key, listed in list's array.
// The key has an allocation of its own, the size of its one value: an
// index entry keeps it for as long as the entry lives, and most keys are
// one-field keys, so whatever else shared its allocation would stay live
// with it.
func singleKey(list [][]any, v any) KeySet {
	return KeySet{Keys: append(list[:0], []any{v})}
}

// dedupValues removes repeated values (equal in BSON order, as mongod's
// key set does with equal KeyStrings) in O(n log n); the first of equal
// values is kept.
func dedupValues(vals []any) []any {
	if len(vals) < 2 {
		return vals
	}
	if len(vals) < 8 {
		out := vals[:1]
		for _, v := range vals[1:] {
			dup := false
			for _, x := range out {
				if value.Compare(x, v) == 0 {
					dup = true
					break
				}
			}
			if !dup {
				out = append(out, v)
			}
		}
		return out
	}
	slices.SortStableFunc(vals, value.Compare)
	return slices.CompactFunc(vals, func(a, b any) bool { return value.Compare(a, b) == 0 })
}
