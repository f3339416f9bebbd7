package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// CheckMetaSort parses a sort key given as a document, the way
// SortPattern's parseMetaExpression (sort_pattern.cpp) does for find's
// sort and for $sort: only {$meta: <name>}, alone, with a known name.
func CheckMetaSort(spec bson.D) error {
	if len(spec) == 0 || spec[0].Key != "$meta" {
		return mongoerr.New(mongoerr.ErrSortMetaOnly, "$meta is the only expression supported by $sort right now")
	}
	if len(spec) != 1 {
		return mongoerr.New(mongoerr.FailedToParse, "Cannot have additional keys in a $meta sort specification")
	}
	name, ok := spec[0].Value.(string)
	if !ok || !isMetaSort(name) {
		return mongoerr.New(31138, "Illegal $meta sort: "+value.FormatElem("$meta", spec[0].Value))
	}
	return mongoerr.New(mongoerr.NotImplemented, "a $meta sort ("+name+") is not supported by the schemalab sandbox")
}

// isMetaSort reports whether a $meta sort key may name the metadata name
// (kValidMetaSorts, sort_pattern.cpp). Each needs what the sandbox does
// not have (a text or search score, the random value mongod attaches to a
// document, a $geoNear distance), so a sort by one answers NotImplemented.
// searchHighlights is metadata but no sort key: 8.0 refuses it as any
// unknown name (jstests/core/query/sort/sort_with_meta_operator.js).
func isMetaSort(name string) bool {
	switch name {
	case "textScore", "randVal", "searchScore", "vectorSearchScore", "geoNearDistance":
		return true
	}
	return false
}
