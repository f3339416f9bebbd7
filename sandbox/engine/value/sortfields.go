package value

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// SortedFields returns v with the fields of every embedded document
// sorted by name, at any depth: the form in which documents compare
// regardless of field order ($jsonSchema's enum and uniqueItems), and
// mongod's normalization of time-series metadata.
func SortedFields(v any) any {
	switch x := v.(type) {
	case bson.D:
		out := make(bson.D, len(x))
		for i, e := range x {
			out[i] = bson.E{Key: e.Key, Value: SortedFields(e.Value)}
		}
		slices.SortStableFunc(out, func(p, q bson.E) int { return strings.Compare(p.Key, q.Key) })
		return out
	case bson.A:
		out := make(bson.A, len(x))
		for i, e := range x {
			out[i] = SortedFields(e)
		}
		return out
	}
	return v
}
