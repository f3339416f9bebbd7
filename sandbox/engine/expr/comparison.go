package expr

import (
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// compileCompare builds $eq $ne $gt $gte $lt $lte $cmp; they compare any
// two values in BSON order (missing sorts below null).
func compileCompare(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileFixed(name, arg, scope, 2)
	if err != nil {
		return nil, err
	}
	var test func(c int) any
	switch name {
	case "$eq":
		test = func(c int) any { return c == 0 }
	case "$ne":
		test = func(c int) any { return c != 0 }
	case "$gt":
		test = func(c int) any { return c > 0 }
	case "$gte":
		test = func(c int) any { return c >= 0 }
	case "$lt":
		test = func(c int) any { return c < 0 }
	case "$lte":
		test = func(c int) any { return c <= 0 }
	default:
		test = func(c int) any { return int32(c) }
	}
	return evalFunc(func(env *Env) (any, error) {
		a, err := args[0].Eval(env)
		if err != nil {
			return nil, err
		}
		b, err := args[1].Eval(env)
		if err != nil {
			return nil, err
		}
		return test(value.Compare(a, b)), nil
	}), nil
}
