package index

import (
	"fmt"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
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

type fieldValues struct {
	values    []any
	found     bool   // some value was present (not only missing → null)
	arrays    uint64 // prefixes that were arrays
	fanPrefix string // path prefix of the array the values fanned out of
	err       error  // the ambiguous path of ambiguousPosition, first found
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

// pathKeys computes doc's keys by walking every key path.
func (ix *Index) pathKeys(doc bson.D) (KeySet, error) {
	fields := make([]fieldValues, len(ix.parts))
	anyFound := false
	fan := -1
	for i, parts := range ix.parts {
		fv := &fields[i]
		collect(doc, parts, 0, fv)
		if fv.err != nil {
			return KeySet{}, fv.err
		}
		fv.values = dedupValues(fv.values)
		if len(fv.values) == 0 {
			fv.values = append(fv.values, nil)
		}
		anyFound = anyFound || fv.found
		if fv.fanPrefix != "" {
			if fan >= 0 && fields[fan].fanPrefix != fv.fanPrefix {
				return KeySet{}, mongoerr.Newf(mongoerr.CannotIndexParallelArrays, "cannot index parallel arrays [%s] [%s]",
					lastComponent(fv.fanPrefix), lastComponent(fields[fan].fanPrefix))
			}
			fan = i
		}
	}
	if ix.Spec.Sparse && !anyFound {
		return KeySet{}, nil
	}
	ks := KeySet{arrays: make([]uint64, len(fields))}
	for i := range fields {
		ks.arrays[i] = fields[i].arrays
	}
	n := 1
	for i := range fields {
		n *= len(fields[i].values)
	}
	ks.Keys = make([][]any, 0, n)
	key := make([]any, len(fields))
	var build func(i int)
	build = func(i int) {
		if i == len(fields) {
			ks.Keys = append(ks.Keys, append([]any(nil), key...))
			return
		}
		for _, v := range fields[i].values {
			key[i] = v
			build(i + 1)
		}
	}
	if n == 1 {
		for i := range fields {
			key[i] = fields[i].values[0]
		}
		ks.Keys = append(ks.Keys, key)
	} else {
		build(0)
		// Fields sharing an array prefix can combine into the same key
		// twice; a sort brings duplicates together (a document with a
		// 50,000-element array must not cost 50,000² comparisons).
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

func lastComponent(path string) string {
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[i+1:]
	}
	return path
}

// collect gathers the values at parts[depth:] below cur, fanning out over
// arrays as mongod's key generator does: a leaf array gives one key per
// element (an empty one gives undefined), an array in the middle of the
// path is traversed element by element, and a numeric component indexes
// into an array positionally.
func collect(cur any, parts []string, depth int, fv *fieldValues) {
	if depth == len(parts) {
		if arr, ok := cur.(bson.A); ok {
			fv.found = true
			fv.arrays |= 1 << uint(depth-1)
			if fv.fanPrefix == "" {
				fv.fanPrefix = strings.Join(parts[:depth], ".")
			}
			if len(arr) == 0 {
				fv.values = append(fv.values, bson.Undefined{})
				return
			}
			for _, e := range arr {
				fv.addUnique(e)
			}
			return
		}
		if !value.IsMissing(cur) {
			fv.found = true
			fv.addUnique(cur)
		}
		return
	}
	switch c := cur.(type) {
	case bson.D:
		v := value.Get(c, parts[depth])
		if value.IsMissing(v) {
			return
		}
		collect(v, parts, depth+1, fv)
	case bson.A:
		// A position past the array's end names no element: mongod's key
		// generator then looks the component up as a field of each
		// element, as for any other name.
		if idx, ok := value.ArrayIndex(parts[depth]); ok && idx < len(c) {
			if err := ambiguousPosition(c, parts[depth]); err != nil {
				if fv.err == nil {
					fv.err = err
				}
				return
			}
			collect(c[idx], parts, depth+1, fv)
			return
		}
		fv.arrays |= 1 << uint(depth-1)
		if fv.fanPrefix == "" {
			fv.fanPrefix = strings.Join(parts[:depth], ".")
		}
		before := len(fv.values)
		for _, e := range c {
			if d, ok := e.(bson.D); ok {
				n := len(fv.values)
				collect(d, parts, depth, fv)
				if len(fv.values) == n {
					fv.addUnique(nil)
				}
			}
		}
		if len(fv.values) == before {
			fv.addUnique(nil)
		}
	}
}

// ambiguousPosition refuses a positional component that an element of
// the array also holds as a field name ({a: [{'0': 1}]} under 'a.0'),
// since the path could mean either value: mongod's
// BtreeKeyGenerator::_extractNextElement (btree_key_generator.cpp) fails
// with 16746 and this text, the array printed as BSONObj::toString prints
// it (its field names the positions), cut to its first and last 341
// bytes when it reaches 1024.
func ambiguousPosition(arr bson.A, part string) error {
	for _, e := range arr {
		d, ok := e.(bson.D)
		if !ok || value.IsMissing(value.Get(d, part)) {
			continue
		}
		msg := expr.FormatValue(value.ArrayAsDoc(arr))
		const maxLength = 1024
		if len(msg) >= maxLength {
			msg = msg[:maxLength/3] + " .......... " + msg[len(msg)-maxLength/3:]
		}
		return mongoerr.Newf(mongoerr.ErrAmbiguousArrayFieldName,
			"Ambiguous field name found in array (do not use numeric field names in embedded elements in an array), field: '%s' for array: %s",
			part, msg)
	}
	return nil
}

// addUnique collects a value; duplicates are removed once the field is
// complete (dedupValues).
func (fv *fieldValues) addUnique(v any) {
	fv.values = append(fv.values, v)
}
