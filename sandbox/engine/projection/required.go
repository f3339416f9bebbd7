package projection

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
)

// RequiredFields lists the fields an inclusion projection reads (its
// included paths, the fields its expressions use, and _id unless it is
// excluded), which is what mongod's planner checks an index for before it
// answers the projection from index keys alone. ok is false when the
// projection needs the whole document: an exclusion, $slice, $elemMatch,
// the positional $, or an expression reading $$ROOT.
func (p *Projection) RequiredFields() (fields []string, ok bool) {
	if !p.inclusion || p.hasPositional || p.needsDocument {
		return nil, false
	}
	return p.required, true
}

// requiredFields walks an inclusion projection's spec; it reports false
// on anything that needs the document.
func requiredFields(spec bson.D, prefix string, out *[]string) bool {
	for _, e := range spec {
		path := e.Key
		if prefix != "" {
			path = prefix + "." + e.Key
		}
		switch v := e.Value.(type) {
		case bson.D:
			if len(v) > 0 && strings.HasPrefix(v[0].Key, "$") {
				switch v[0].Key {
				case "$slice", "$elemMatch":
					return false
				}
				deps := expr.Dependencies(v)
				if deps.Whole {
					return false
				}
				*out = append(*out, deps.Paths...)
				continue
			}
			if !requiredFields(v, path, out) {
				return false
			}
		default:
			if isInclusionOrExclusionValue(v) {
				if truthy(v) {
					*out = append(*out, path)
				}
				continue
			}
			deps := expr.Dependencies(v)
			if deps.Whole {
				return false
			}
			*out = append(*out, deps.Paths...)
		}
	}
	return true
}
