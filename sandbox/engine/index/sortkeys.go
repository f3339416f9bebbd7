package index

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// eachSortKeyTuple visits the key tuples mongod's BtreeKeyGenerator
// builds from paths over doc, from which its SortKeyGenerator takes a
// document's sort key (sort_key_generator.cpp): fields whose paths go
// through the same array take their values from the same element of it,
// so a sort on {"a.c": 1, "a.b": 1} pairs each element's c with that
// element's b (jstest core/query/sort/sort_dotted_paths.js), not the
// smallest c with the smallest b. A leaf array gives one value per
// element (an array nested in it is a value, not expanded, and an empty
// one gives undefined); a missing field gives null. The tuple visit sees
// is reused for the next. It reports false when two paths go through
// different arrays (CannotIndexParallelArrays).
func eachSortKeyTuple(doc bson.D, paths []string, visit func([]any)) bool {
	fields := make([]keyField, len(paths))
	for i, p := range paths {
		fields[i] = keyField{cur: doc, parts: strings.Split(p, ".")}
	}
	return jointKeys(fields, make([]any, len(paths)), visit)
}

// keyField is one path's walk: the value reached, how many of its parts
// are consumed, and, once done, its key value.
type keyField struct {
	cur   any
	parts []string
	depth int
	done  bool
	val   any
}

// jointKeys walks every field down to its value or to an array, then
// iterates the one array they reach element by element.
func jointKeys(fields []keyField, tuple []any, visit func([]any)) bool {
	var arr bson.A
	prefix := ""
	var group []int
	for i := range fields {
		f := &fields[i]
		for !f.done {
			if a, isArray := f.cur.(bson.A); isArray {
				if idx, positional := arrayPosition(f); positional && idx < len(a) {
					f.cur, f.depth = a[idx], f.depth+1
					continue
				}
				p := strings.Join(f.parts[:f.depth], ".")
				if len(group) > 0 && p != prefix {
					return false
				}
				arr, prefix = a, p
				group = append(group, i)
				break
			}
			if f.depth == len(f.parts) {
				f.val, f.done = keyValue(f.cur), true
				break
			}
			d, isDoc := f.cur.(bson.D)
			if !isDoc {
				f.val, f.done = nil, true
				break
			}
			f.cur, f.depth = value.Get(d, f.parts[f.depth]), f.depth+1
		}
	}
	if len(group) == 0 {
		for i := range fields {
			tuple[i] = fields[i].val
		}
		visit(tuple)
		return true
	}
	if len(arr) == 0 {
		for _, i := range group {
			fields[i].val, fields[i].done = bson.Undefined{}, true
		}
		return jointKeys(fields, tuple, visit)
	}
	for _, e := range arr {
		next := append([]keyField(nil), fields...)
		for _, i := range group {
			f := &next[i]
			switch d, isDoc := e.(bson.D); {
			case f.depth == len(f.parts):
				f.val, f.done = e, true
			case isDoc:
				f.cur = d
			default:
				f.val, f.done = nil, true
			}
		}
		if !jointKeys(next, tuple, visit) {
			return false
		}
	}
	return true
}

// arrayPosition is the array index a field's next part names, when it is
// one: the key generator reads such a component positionally.
func arrayPosition(f *keyField) (int, bool) {
	if f.depth == len(f.parts) {
		return 0, false
	}
	return value.ArrayIndex(f.parts[f.depth])
}

func keyValue(v any) any {
	if value.IsMissing(v) {
		return nil
	}
	return v
}

// BestSortKey is the sort key SortKeyGenerator takes from the key tuples
// of paths over doc (eachSortKeyTuple): the first under the sort's
// directions. Paths through different arrays have none.
func BestSortKey(doc bson.D, paths []string, desc []bool) ([]any, error) {
	var best []any
	ok := eachSortKeyTuple(doc, paths, func(t []any) {
		if best == nil {
			best = slices.Clone(t)
			return
		}
		for i := range t {
			c := value.Compare(t[i], best[i])
			if desc[i] {
				c = -c
			}
			if c != 0 {
				if c < 0 {
					copy(best, t)
				}
				return
			}
		}
	})
	if !ok {
		return nil, mongoerr.New(mongoerr.BadValue, "cannot sort with keys that are parallel arrays")
	}
	return best, nil
}
