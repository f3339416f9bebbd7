package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// $type's index bounds for the types whose bracket is a single value or
// ends at the next type's least value: IndexBoundsBuilder's TYPE_OPERATOR
// appends appendMinForType and appendMaxForType of the type
// (src/mongo/db/query/index_bounds_builder.cpp, src/mongo/bson/bsonobjbuilder.cpp),
// printed as BSONElement::toString prints them (bsonelement.cpp); the
// indexed plan returns what a collection scan returns
// (jstests/core/index/wildcard/wildcard_index_type.js asks for an index
// scan for "regex").
func TestTypeBoundsOfEveryBracket(t *testing.T) {
	s := newSuite(t)
	const docs = `[{"_id": 1, "a": {"$regularExpression": {"pattern": "r", "options": ""}}}, {"_id": 2, "a": {"$undefined": true}},
		{"_id": 3, "a": {"$minKey": 1}}, {"_id": 4, "a": {"$maxKey": 1}}, {"_id": 5, "a": {"$code": "f()"}},
		{"_id": 6, "a": {"$code": "g()", "$scope": {}}}, {"_id": 7, "a": {"$dbPointer": {"$ref": "x", "$id": {"$oid": "000000000000000000000001"}}}},
		{"_id": 8, "a": 1}, {"_id": 9}]`
	cases := []struct{ typ, bounds, ids string }{
		{"regex", `["[//, DBRef('',000000000000000000000000))"]`, `[1]`},
		{"dbPointer", `["[DBRef('',000000000000000000000000), JavaScript(\"\"))"]`, `[7]`},
		{"undefined", `["[undefined, undefined]"]`, `[2]`},
		{"minKey", `["[MinKey, MinKey]"]`, `[3]`},
		{"maxKey", `["[MaxKey, MaxKey]"]`, `[4]`},
		{"javascriptWithScope", `["[CodeWScope( , {}), MaxKey)"]`, `[6]`},
	}
	for _, tc := range cases {
		s.runCase(t, "$type "+tc.typ+": index bounds", boundsBuilderRef, explainCase(query, "$type"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]}`)
			filter := `{"a": {"$type": "` + tc.typ + `"}}`
			ix, _ := ixscanOf(t, db, `{"find": "c", "filter": `+filter+`}`)
			sameValue(t, "bounds", field(ix, "indexBounds"), `{"a": `+tc.bounds+`}`)
			got, cerr := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": `+filter+`, "projection": {"_id": 1}, "sort": {"_id": 1}}`))
			if cerr != nil {
				t.Fatal(cerr)
			}
			ids := make([]any, len(got))
			for i, d := range got {
				ids[i] = value.Get(d, "_id")
			}
			sameValue(t, "ids", ids, tc.ids)
		})
	}
}
