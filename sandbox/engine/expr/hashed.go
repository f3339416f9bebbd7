package expr

import "github.com/schemalab/schemalab/sandbox/engine/value"

// compileToHashedIndexKey is ExpressionToHashedIndexKey::parse, which
// takes its whole argument as one operand (Expression::parseOperand): an
// array is the value hashed, not a list of arguments.
func compileToHashedIndexKey(_ string, arg any, scope *Scope) (Expr, error) {
	a, err := Compile(arg, scope)
	if err != nil {
		return nil, err
	}
	return evalFunc(func(env *Env) (any, error) {
		v, err := a.Eval(env)
		if err != nil {
			return nil, err
		}
		return value.HashedIndexKey(v), nil
	}), nil
}
