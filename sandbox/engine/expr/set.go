package expr

import (
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The set operators work on sorted copies, so that each costs n log n
// rather than n² on arrays of millions of elements. Equal elements (1, 1.0
// and NumberLong(1) among them) keep their first occurrence, as mongod's
// ValueSet keeps the first value inserted.

// sortedSet returns a's distinct elements in value order.
func sortedSet(a bson.A) bson.A {
	out := append(make(bson.A, 0, len(a)), a...)
	slices.SortStableFunc(out, value.Compare)
	return slices.CompactFunc(out, func(x, y any) bool { return value.Compare(x, y) == 0 })
}

// inSorted reports whether v is in a sorted set.
func inSorted(set bson.A, v any) bool {
	_, found := slices.BinarySearchFunc(set, v, value.Compare)
	return found
}

// firstOccurrences returns a's elements that pass keep, each value once
// (its first occurrence), in a's order, as $setDifference yields them.
func firstOccurrences(a bson.A, keep func(any) bool) bson.A {
	order := make([]int, len(a))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return value.Compare(a[i], a[j]) })
	first := make([]bool, len(a))
	for k, i := range order {
		if k == 0 || value.Compare(a[order[k-1]], a[i]) != 0 {
			first[i] = true
		}
	}
	out := bson.A{}
	for i, e := range a {
		if first[i] && keep(e) {
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
		return nil, mongoerr.Newf(mongoerr.ErrSetEqualsArgumentCount, "$setEquals needs at least two arguments had: %d", len(args))
	}
	if err := optimizeSetOperands(name, args, scope); err != nil {
		return nil, err
	}
	if name == "$setUnion" || name == "$setIntersection" {
		eval := func(args []Expr) Expr {
			return evalFunc(func(env *Env) (any, error) { return unionOrIntersection(env, name, args) })
		}
		if args, err = foldAssociative(scope, args, true, eval); err != nil {
			return nil, err
		}
		return eval(args), nil
	}
	return evalFunc(func(env *Env) (any, error) {
		vals, err := evalAll(env, args, make([]any, 0, len(args)))
		if err != nil {
			return nil, err
		}
		switch name {
		case "$setEquals":
			var first bson.A
			for i, v := range vals {
				a, ok := v.(bson.A)
				if !ok {
					return nil, mongoerr.Newf(mongoerr.ErrSetEqualsNotArray, "All operands of $setEquals must be arrays. %d-th argument is of type: %s", i+1, typeName(v))
				}
				if i == 0 {
					first = sortedSet(a)
					continue
				}
				other := sortedSet(a)
				if len(other) != len(first) {
					return false, nil
				}
				for k := range other {
					if value.Compare(other[k], first[k]) != 0 {
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
				return nil, mongoerr.Newf(mongoerr.ErrSetDifferenceFirstNotArray, "both operands of $setDifference must be arrays. First argument is of type: %s", typeName(vals[0]))
			}
			b, ok := vals[1].(bson.A)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrSetDifferenceSecondNotArray, "both operands of $setDifference must be arrays. Second argument is of type: %s", typeName(vals[1]))
			}
			exclude := sortedSet(b)
			return firstOccurrences(a, func(e any) bool { return !inSorted(exclude, e) }), nil
		case "$setIsSubset":
			a, ok := vals[0].(bson.A)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrSetIsSubsetFirstNotArray, "both operands of $setIsSubset must be arrays. First argument is of type: %s", typeName(vals[0]))
			}
			b, ok := vals[1].(bson.A)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrSetIsSubsetSecondNotArray, "both operands of $setIsSubset must be arrays. Second argument is of type: %s", typeName(vals[1]))
			}
			super := sortedSet(b)
			for _, e := range a {
				if !inSorted(super, e) {
					return false, nil
				}
			}
			return true, nil
		}
		return nil, nil
	}), nil
}

// optimizeSetOperands is the check ExpressionSetEquals::optimize and
// ExpressionSetIsSubset::optimize make of their constant operands while a
// pipeline is optimized, before any document is read.
func optimizeSetOperands(name string, args []Expr, scope *Scope) error {
	if !scope.fold {
		return nil
	}
	switch name {
	case "$setEquals":
		for i, a := range args {
			if v, ok := IsConstant(a); ok {
				if _, isArr := v.(bson.A); !isArr {
					return mongoerr.Newf(mongoerr.ErrSetEqualsConstantNotArray, "%sAll operands of $setEquals must be arrays. %d-th argument is of type: %s", optimizeContext, i+1, typeName(v))
				}
			}
		}
	case "$setIsSubset":
		_, lhsConst := IsConstant(args[0])
		if v, ok := IsConstant(args[1]); ok && !lhsConst {
			if _, isArr := v.(bson.A); !isArr {
				return mongoerr.Newf(mongoerr.ErrSetIsSubsetConstantNotArray, "%sboth operands of $setIsSubset must be arrays. Second argument is of type: %s", optimizeContext, typeName(v))
			}
		}
	}
	return nil
}

// unionOrIntersection evaluates the operands in order, as mongod does: the
// first null or missing one makes the result null before the rest are
// read. An intersection keeps the values of whichever set is smaller at
// each step, because ExpressionSetIntersection swaps its running set with
// a smaller next one to iterate the smaller of the two; of equal numbers
// of different types, that decides which type the result holds.
func unionOrIntersection(env *Env, name string, args []Expr) (any, error) {
	var acc bson.A
	for i, x := range args {
		v, err := x.Eval(env)
		if err != nil {
			return nil, err
		}
		if nullish(v) {
			return nil, nil
		}
		a, ok := v.(bson.A)
		if !ok {
			code := int32(mongoerr.ErrSetUnionNotArray)
			if name == "$setIntersection" {
				code = mongoerr.ErrSetIntersectionNotArray
			}
			return nil, mongoerr.Newf(code, "All operands of %s must be arrays. One argument is of type: %s", name, typeName(v))
		}
		switch {
		case name == "$setUnion":
			acc = append(acc, a...)
		case i == 0:
			acc = sortedSet(a)
		case len(acc) > 0:
			other := sortedSet(a)
			if len(acc) > len(other) {
				acc, other = other, acc
			}
			next := bson.A{}
			for _, e := range acc {
				if inSorted(other, e) {
					next = append(next, e)
				}
			}
			acc = next
		}
	}
	// mongod collects into an ordered ValueSet, so results come out sorted.
	return sortedSet(acc), nil
}
