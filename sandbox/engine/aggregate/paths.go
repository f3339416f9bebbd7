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
