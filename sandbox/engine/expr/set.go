package expr

import (
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

func setContains(set bson.A, v any) bool {
	for _, e := range set {
		if value.Compare(e, v) == 0 {
			return true
		}
	}
	return false
}

func dedupe(a bson.A) bson.A {
	out := bson.A{}
	for _, e := range a {
		if !setContains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

func compileSetOp(name string, arg any, scope *Scope) (Expr, error) {
	var args []Expr
	var err error
	switch name {
	case "$setDifference", "$setIsSubset":
		args, err = compileFixed(name, arg, scope, 2)
	default:
		args, err = compileArgs(arg, scope)
	}
	if err != nil {
		return nil, err
	}
	if name == "$setEquals" && len(args) < 2 {
		return nil, mongoerr.Newf(17045, "$setEquals needs at least two arguments had: %d", len(args))
	}
	return evalFunc(func(env *Env) (any, error) {
		vals, err := evalAll(env, args, make([]any, 0, len(args)))
		if err != nil {
			return nil, err
		}
		switch name {
		case "$setUnion", "$setIntersection":
			var acc bson.A
			for i, v := range vals {
				if nullish(v) {
					return nil, nil
				}
				a, ok := v.(bson.A)
				if !ok {
					code := int32(17043)
					if name == "$setIntersection" {
						code = 17047
					}
					return nil, mongoerr.Newf(code, "All operands of %s must be arrays. One argument is of type: %s", name, typeName(v))
				}
				if name == "$setUnion" || i == 0 {
					for _, e := range a {
						if !setContains(acc, e) {
							acc = append(acc, e)
						}
					}
				} else {
					next := bson.A{}
					for _, e := range acc {
						if setContains(a, e) {
							next = append(next, e)
						}
					}
					acc = next
				}
			}
			if acc == nil {
				acc = bson.A{}
			}
			// mongod collects into an ordered ValueSet, so results come out sorted.
			slices.SortFunc(acc, value.Compare)
			return acc, nil
		case "$setEquals":
			var first bson.A
			for i, v := range vals {
				a, ok := v.(bson.A)
				if !ok {
					return nil, mongoerr.Newf(17044, "All operands of $setEquals must be arrays. One argument is of type: %s", typeName(v))
				}
				if i == 0 {
					first = dedupe(a)
					continue
				}
				other := dedupe(a)
				if len(other) != len(first) {
					return false, nil
				}
				for _, e := range other {
					if !setContains(first, e) {
						return false, nil
					}
				}
			}
			return true, nil
		case "$setDifference":
			if nullish(vals[0]) || nullish(vals[1]) {
				return nil, nil
			}
			a, ok := vals[0].(bson.A)
			if !ok {
				return nil, mongoerr.Newf(17048, "both operands of $setDifference must be arrays. First argument is of type: %s", typeName(vals[0]))
			}
			b, ok := vals[1].(bson.A)
			if !ok {
				return nil, mongoerr.Newf(17049, "both operands of $setDifference must be arrays. Second argument is of type: %s", typeName(vals[1]))
			}
			out := bson.A{}
			for _, e := range a {
				if !setContains(b, e) && !setContains(out, e) {
					out = append(out, e)
				}
			}
			return out, nil
		case "$setIsSubset":
			a, ok := vals[0].(bson.A)
			if !ok {
				return nil, mongoerr.Newf(17046, "both operands of $setIsSubset must be arrays. First argument is of type: %s", typeName(vals[0]))
			}
			b, ok := vals[1].(bson.A)
			if !ok {
				return nil, mongoerr.Newf(17042, "both operands of $setIsSubset must be arrays. Second argument is of type: %s", typeName(vals[1]))
			}
			for _, e := range a {
				if !setContains(b, e) {
					return false, nil
				}
			}
			return true, nil
		}
		return nil, nil
	}), nil
}
