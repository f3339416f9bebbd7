package query

import (
	"strings"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// valueMatcher is a predicate over one value reached through a path. Leaf
// nodes implement it so that the path walk and $elemMatch can share them.
// pos receives the matching element's index for predicates that look
// inside arrays themselves ($elemMatch).
type valueMatcher interface {
	matchValue(v any, pos *Position) bool
}

func splitPath(p string) []string {
	if p == "" {
		return nil
	}
	return strings.Split(p, ".")
}

// pathParts returns the pre-split path, splitting on the fly for nodes that
// were built by hand rather than by Compile.
func pathParts(parts []string, path string) []string {
	if parts != nil || path == "" {
		return parts
	}
	return splitPath(path)
}

// matchPath reports whether any value that mongod's element iterator yields
// for the path satisfies m. When expandLeaf is set, an array at the end of
// the path yields each of its elements and then the array itself ($eq, $in,
// $type...); $size and $elemMatch look at the array only.
func matchPath(doc bson.D, parts []string, expandLeaf bool, m valueMatcher, pos *Position) bool {
	if len(parts) == 0 {
		return m.matchValue(doc, pos)
	}
	return walk(value.Get(doc, parts[0]), parts[1:], expandLeaf, m, -1, pos)
}

func record(pos *Position, idx int) {
	if pos != nil && idx >= 0 {
		pos.Index = idx
		pos.Set = true
	}
}

// walk follows rest from v. outer is the index of the element of the first
// array crossed on the way (-1 if none): mongod reports that index to the
// positional $ operator.
func walk(v any, rest []string, expandLeaf bool, m valueMatcher, outer int, pos *Position) bool {
	if len(rest) == 0 {
		if arr, ok := v.(bson.A); ok && expandLeaf {
			for i, e := range arr {
				if m.matchValue(e, nil) {
					record(pos, firstIndex(outer, i))
					return true
				}
			}
		}
		if m.matchValue(v, pos) {
			record(pos, outer)
			return true
		}
		return false
	}
	switch x := v.(type) {
	case bson.D:
		return walk(value.Get(x, rest[0]), rest[1:], expandLeaf, m, outer, pos)
	case bson.A:
		// Inside an array the next component names a field of each
		// embedded document; a numeric component also addresses the
		// element at that index.
		idx, isIdx := value.ArrayIndex(rest[0])
		for i, e := range x {
			at := firstIndex(outer, i)
			if d, ok := e.(bson.D); ok {
				if walk(value.Get(d, rest[0]), rest[1:], expandLeaf, m, at, pos) {
					return true
				}
			}
			if isIdx && i == idx {
				if len(rest) == 1 {
					// An element addressed by index is the leaf itself:
					// it is not traversed again if it is an array.
					if m.matchValue(e, nil) {
						record(pos, outer)
						return true
					}
					continue
				}
				switch e.(type) {
				case bson.D, bson.A:
					if walk(e, rest[1:], expandLeaf, m, outer, pos) {
						return true
					}
				}
			}
		}
		return false
	default:
		return m.matchValue(value.Missing{}, nil)
	}
}

func firstIndex(outer, i int) int {
	if outer >= 0 {
		return outer
	}
	return i
}
