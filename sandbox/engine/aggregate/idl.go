package aggregate

import (
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// idlField is one field of a stage specification that mongod parses with
// an IDL-generated parser (*.idl under src/mongo/db/pipeline/).
type idlField struct {
	name string
	// types are the type names the field accepts, in the order mongod's
	// message lists them; nil accepts any value.
	types    []string
	required bool
	// check is the field's validator, or the parse of its nested struct,
	// run in the field's turn as the generated parser does.
	check func(v any) error
}

// idlNumber is IDL's safeNumeric/safeInt family, as its messages list it.
var idlNumber = []string{"int", "decimal", "double", "long"}

// parseIDL checks spec as an IDL parser does: each field, in order, must be
// known, not given twice, and of an accepted type; then each required
// field must be present. ctx names the specification in the messages
// ("$densify", "$densify.range").
func parseIDL(ctx string, spec bson.D, fields ...idlField) (map[string]any, error) {
	out := make(map[string]any, len(spec))
	for _, e := range spec {
		i := slices.IndexFunc(fields, func(f idlField) bool { return f.name == e.Key })
		if i < 0 {
			return nil, mongoerr.Newf(mongoerr.IDLUnknownField, "BSON field '%s.%s' is an unknown field.", ctx, e.Key)
		}
		if _, dup := out[e.Key]; dup {
			return nil, mongoerr.Newf(mongoerr.IDLDuplicateField, "BSON field '%s.%s' is a duplicate field", ctx, e.Key)
		}
		if t := fields[i].types; t != nil && !slices.Contains(t, typeNameOf(e.Value)) {
			if len(t) == 1 {
				return nil, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '%s.%s' is the wrong type '%s', expected type '%s'", ctx, e.Key, typeNameOf(e.Value), t[0])
			}
			return nil, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '%s.%s' is the wrong type '%s', expected types '[%s']", ctx, e.Key, typeNameOf(e.Value), strings.Join(t, ", "))
		}
		if c := fields[i].check; c != nil {
			if err := c(e.Value); err != nil {
				return nil, err
			}
		}
		out[e.Key] = e.Value
	}
	for _, f := range fields {
		if _, ok := out[f.name]; f.required && !ok {
			return nil, mongoerr.Newf(mongoerr.IDLFailedToParse, "BSON field '%s.%s' is missing but a required field", ctx, f.name)
		}
	}
	return out, nil
}
