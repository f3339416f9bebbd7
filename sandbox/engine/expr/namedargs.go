package expr

import (
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// argSpec describes an operator whose argument is an object of named
// arguments, each an expression, the way mongod's parsers read them: in
// the document's order, refusing an unknown name as soon as they meet it.
type argSpec struct {
	names     []string
	notObject func(arg any) error     // the argument is not an object
	unknown   func(name string) error // a name the operator does not take
}

// namedArgs compiles an operator's named arguments; absent ones are nil.
func namedArgs(arg any, scope *Scope, spec argSpec) (map[string]Expr, error) {
	d, ok := arg.(bson.D)
	if !ok {
		// Callers that take other forms check the object form first.
		return nil, spec.notObject(arg)
	}
	out := make(map[string]Expr, len(d))
	for _, e := range d {
		if !slices.Contains(spec.names, e.Key) {
			return nil, spec.unknown(e.Key)
		}
		x, err := Compile(e.Value, scope)
		if err != nil {
			return nil, err
		}
		out[e.Key] = x
	}
	return out, nil
}

// fixedError is a notObject refusal that does not depend on the argument.
func fixedError(code int32, msg string) func(any) error {
	return func(any) error { return mongoerr.New(code, msg) }
}
