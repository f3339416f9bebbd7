package expr

import "go.mongodb.org/mongo-driver/v2/bson"

// foldAssociative is what ExpressionNary::optimize does, beyond folding an
// all-constant call, to the operators mongod declares fully associative
// ($concat, $concatArrays, $setUnion, $setIntersection, $bitAnd, $bitOr,
// $bitXor, and $sum, $min and $max given more than one argument; see
// fullyAssociative): in a pipeline,
// a run of two or more constant arguments is evaluated into one, and for
// a commutative operator every constant first moves behind the other
// arguments. So a bad constant fails while optimizing even when a field
// before it is null, and of two equal values a set or $min meets the
// field's first. eval builds the operator over some arguments.
func foldAssociative(scope *Scope, args []Expr, commutative bool, eval func([]Expr) Expr) ([]Expr, error) {
	if !scope.fold {
		return args, nil
	}
	constants := 0
	for _, a := range args {
		if _, ok := IsConstant(a); ok {
			constants++
		}
	}
	if constants < 2 && !commutative || constants == len(args) {
		// Nothing to gather; an all-constant call is folded whole.
		return args, nil
	}
	out := make([]Expr, 0, len(args))
	var run []Expr
	flush := func() error {
		if len(run) > 1 {
			v, err := eval(run).Eval(NewEnv(bson.D{}, 0))
			if err != nil {
				return scope.optimizationError(err)
			}
			out = append(out, constant{v})
		} else {
			out = append(out, run...)
		}
		run = nil
		return nil
	}
	for _, a := range args {
		if _, ok := IsConstant(a); ok {
			run = append(run, a)
			continue
		}
		if !commutative {
			if err := flush(); err != nil {
				return nil, err
			}
		}
		out = append(out, a)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return out, nil
}

// leftAssociative reports the operators mongod 8.0 declares left
// associative (ExpressionAdd and ExpressionMultiply::getAssociativity
// return kLeft in expression.h): they combine their arguments left to
// right, and integer overflow, rounding and type promotion make the
// grouping matter.
func leftAssociative(op string) bool { return op == "$add" || op == "$multiply" }

// foldLeading is ExpressionNary::optimize for a left-associative operator
// in a pipeline: only the run of constants before the first other argument
// is evaluated into one (constant_folding.js: [1, 2, $x] becomes [3, $x]
// while [$x, 1, 2] and [1, $x, 2] stay), and a nested call of the same
// operator is not flattened. An all-constant call is folded whole elsewhere.
func foldLeading(scope *Scope, args []Expr, eval func([]Expr) Expr) ([]Expr, error) {
	n := leadingConstants(args)
	if !scope.fold || n < 2 || n == len(args) {
		return args, nil
	}
	v, err := eval(args[:n]).Eval(NewEnv(bson.D{}, 0))
	if err != nil {
		return nil, scope.optimizationError(err)
	}
	return append([]Expr{constant{v}}, args[n:]...), nil
}

func leadingConstants(args []Expr) int {
	n := 0
	for n < len(args) {
		if _, ok := IsConstant(args[n]); !ok {
			break
		}
		n++
	}
	return n
}
