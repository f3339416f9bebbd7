package index

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// SortPattern is a sort's fields as mongod's SortKeyGenerator reads them
// (src/mongo/db/index/sort_key_generator.cpp): a document's sort key is
// the first of the keys an index on the pattern would hold for it, in the
// pattern's order (keyGen). Through an array that is the smallest element
// for an ascending field and the largest for a descending one; an element
// that is not a document has none of the rest of the path, so it counts
// as null; an empty array at the end of the path is undefined. Fields
// whose paths go through the same array take their values from the same
// element of it, so a sort on {"a.c": 1, "a.b": 1} pairs each element's c
// with that element's b (jstest core/query/sort/sort_dotted_paths.js).
type SortPattern struct {
	Paths [][]string
	Desc  []bool
}

// NewSortPattern is the pattern of the dotted paths fields, descending
// where desc says.
func NewSortPattern(fields []string, desc []bool) SortPattern {
	p := SortPattern{Paths: make([][]string, len(fields)), Desc: desc}
	for i, f := range fields {
		p.Paths[i] = strings.Split(f, ".")
	}
	return p
}

// Key is doc's sort key, appended to buf[:0]. Paths through two
// different arrays have none: SortKeyGenerator turns the key generator's
// CannotIndexParallelArrays into BadValue.
func (p SortPattern) Key(doc bson.D, buf []any) ([]any, error) {
	key := buf[:0]
	for _, parts := range p.Paths {
		v, plain := valueWithoutArray(doc, parts)
		if !plain {
			return p.keyFromTuples(doc, buf)
		}
		key = append(key, v)
	}
	return key, nil
}

// valueWithoutArray is the value at parts, or null, when no array is on
// the way: such a document has one key, so the walk of keyGen is not
// needed (mongod's fast path too).
func valueWithoutArray(doc bson.D, parts []string) (any, bool) {
	var cur any = doc
	for _, part := range parts {
		switch c := cur.(type) {
		case bson.A:
			return nil, false
		case bson.D:
			cur = value.Get(c, part)
		default:
			return nil, true
		}
	}
	switch cur.(type) {
	case bson.A:
		return nil, false
	case value.Missing:
		return nil, true
	}
	return cur, true
}

func (p SortPattern) keyFromTuples(doc bson.D, buf []any) ([]any, error) {
	var best []any
	g := keyGen{paths: p.Paths, visit: func(t []any) {
		if best == nil {
			best = t
			return
		}
		for i := range t {
			c := value.Compare(t[i], best[i])
			if p.Desc[i] {
				c = -c
			}
			if c != 0 {
				if c < 0 {
					best = t
				}
				return
			}
		}
	}}
	if err := g.walk(doc); err != nil {
		if mongoerr.As(err).Code == mongoerr.CannotIndexParallelArrays {
			return nil, mongoerr.New(mongoerr.BadValue, "cannot sort with keys that are parallel arrays")
		}
		return nil, err
	}
	return append(buf[:0], best...), nil
}
