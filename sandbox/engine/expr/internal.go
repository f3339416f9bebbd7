package expr

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The sharding helpers mongod 8.0 registers as expressions
// (REGISTER_STABLE_EXPRESSION of ExpressionInternalOwningShard and
// ExpressionInternalIndexKey, src/mongo/db/pipeline/):
// resharding and analyzeShardKey use them, and a client may send them.
// They parse as there; evaluating one needs a sharded cluster's routing
// table or the index key generator of mongod's storage layer, which the
// sandbox does not have, so it is refused rather than answered otherwise.

// owningShard is ExpressionInternalOwningShard::evaluate, a fixed arity
// operator whose nullish input gives null before anything is looked up.
func owningShard(name string, v any) (any, error) {
	if nullish(v) {
		return nil, nil
	}
	return nil, refusal(name)
}

// compileInternalIndexKey is ExpressionInternalIndexKey::parse: an object
// with a 'doc' expression and a constant 'spec' object, both required.
func compileInternalIndexKey(name string, arg any, scope *Scope) (Expr, error) {
	d, ok := arg.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrIndexKeyArgumentNotObject, "%s supports an object as its argument", name)
	}
	var doc any
	var haveDoc, haveSpec bool
	for _, e := range d {
		switch e.Key {
		case "doc":
			doc, haveDoc = e.Value, true
		case "spec":
			if _, isDoc := e.Value.(bson.D); !isDoc {
				return nil, mongoerr.Newf(mongoerr.ErrIndexKeySpecNotObject, "%s requires 'spec' argument to be an object", name)
			}
			haveSpec = true
		default:
			// mongod's message runs "found while parsing" into the name.
			return nil, mongoerr.Newf(mongoerr.ErrIndexKeyUnknownArgument, "Unknown argument: %sfound while parsing%s", e.Key, name)
		}
	}
	if !haveDoc || !haveSpec {
		return nil, mongoerr.Newf(mongoerr.ErrIndexKeyMissingArgument, "%s requires both 'doc' and 'spec' arguments", name)
	}
	if _, err := Compile(doc, scope); err != nil {
		return nil, err
	}
	return evalFunc(func(*Env) (any, error) { return nil, refusal(name) }), nil
}
