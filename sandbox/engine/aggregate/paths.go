package aggregate

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

func splitPath(path string) []string { return strings.Split(path, ".") }

// getNested follows a path through embedded documents only, as mongod's
// Document::getNestedField does: an array on the way yields Missing.
func getNested(doc bson.D, parts []string) any {
	var cur any = doc
	for _, p := range parts {
		d, ok := cur.(bson.D)
		if !ok {
			return value.Missing{}
		}
		cur = value.Get(d, p)
	}
	return cur
}

// withField returns a copy of doc whose top-level key holds v: replaced in
// place when present, appended otherwise. Missing removes the field.
func withField(doc bson.D, key string, v any) bson.D {
	out := make(bson.D, 0, len(doc)+1)
	found := false
	for _, e := range doc {
		if e.Key == key {
			found = true
			if value.IsMissing(v) {
				continue
			}
			out = append(out, bson.E{Key: key, Value: v})
			continue
		}
		out = append(out, e)
	}
	if !found && !value.IsMissing(v) {
		out = append(out, bson.E{Key: key, Value: v})
	}
	return out
}

// setNested returns a copy of doc with the value at parts set to v, copying
// only the documents along the path; a non-document on the way is replaced
// by a new document, as MutableDocument::setNestedField does.
func setNested(doc bson.D, parts []string, v any) bson.D {
	if len(parts) == 1 {
		return withField(doc, parts[0], v)
	}
	sub, _ := value.Get(doc, parts[0]).(bson.D)
	return withField(doc, parts[0], setNested(sub, parts[1:], v))
}

// throughArray reports whether the path, read as sortKeyValues reads it,
// reaches an array of v (positional components aside).
func throughArray(v any, parts []string) bool {
	for {
		switch x := v.(type) {
		case bson.A:
			if len(parts) == 0 {
				return true
			}
			idx, ok := value.ArrayIndex(parts[0])
			if !ok || idx >= len(x) {
				return true
			}
			v, parts = x[idx], parts[1:]
		case bson.D:
			if len(parts) == 0 {
				return false
			}
			v, parts = value.Get(x, parts[0]), parts[1:]
		default:
			return false
		}
	}
}

// sortKeyValues collects the values a sort path reaches, traversing arrays
// like mongod's sort key generator: array elements are expanded, documents
// in arrays contribute their subfield (null when absent), and an empty
// array contributes undefined, which sorts before null.
func sortKeyValues(v any, parts []string, out []any) []any {
	if len(parts) == 0 {
		if a, ok := v.(bson.A); ok {
			if len(a) == 0 {
				return append(out, bson.Undefined{})
			}
			return append(out, a...)
		}
		if value.IsMissing(v) {
			return append(out, nil)
		}
		return append(out, v)
	}
	switch x := v.(type) {
	case bson.D:
		return sortKeyValues(value.Get(x, parts[0]), parts[1:], out)
	case bson.A:
		if idx, ok := value.ArrayIndex(parts[0]); ok {
			// mongod prefers positional access for numeric components;
			// past the end it reaches nothing (null), and an array it
			// selects at the end of the path is the key itself, not
			// expanded, as planner.SortKey reads it.
			switch {
			case idx >= len(x):
				return append(out, nil)
			case len(parts) == 1 && value.IsArray(x[idx]):
				return append(out, x[idx])
			}
			return sortKeyValues(x[idx], parts[1:], out)
		}
		if len(x) == 0 {
			return append(out, bson.Undefined{})
		}
		for _, e := range x {
			if d, ok := e.(bson.D); ok {
				out = sortKeyValues(value.Get(d, parts[0]), parts[1:], out)
			} else {
				out = append(out, nil)
			}
		}
		return out
	}
	return append(out, nil)
}
