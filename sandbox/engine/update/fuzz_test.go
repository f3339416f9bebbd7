package update

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// FuzzApply checks that no update, however malformed, panics.
func FuzzApply(f *testing.F) {
	f.Add(`{"_id": 1, "a": [1, {"b": 2}], "c": {"d": "x"}}`, `{"$set": {"a.1.b": 3, "c.d.e": 1}}`, 0)
	f.Add(`{"_id": 1, "a": [1, 2]}`, `{"$push": {"a": {"$each": [3], "$position": -9223372036854775808, "$slice": -9223372036854775808}}}`, -1)
	f.Add(`{"_id": 1, "a": [{"b": [1]}]}`, `{"$inc": {"a.$[].b.$[]": 1}, "$rename": {"x": "a.0.z"}}`, 0)
	f.Add(`{"_id": 1}`, `{"$pull": {"a": {"$gte": 1}}, "$pop": {"b.c": 1}, "$addToSet": {"d": {"$each": [1, 1]}}}`, 2)
	f.Fuzz(func(t *testing.T, docJSON, updateJSON string, pos int) {
		var doc, upd bson.D
		if bson.UnmarshalExtJSON([]byte(docJSON), false, &doc) != nil || bson.UnmarshalExtJSON([]byte(updateJSON), false, &upd) != nil {
			return
		}
		u, err := Compile(upd, Options{ArrayFilters: []bson.D{{{Key: "x", Value: int32(1)}}}})
		if err != nil {
			u, err = Compile(upd, Options{})
		}
		if err != nil {
			return
		}
		_, _, _ = u.Apply(doc, pos%5, pos%2 == 0)
		_, _ = u.Upsert(doc)
	})
}
