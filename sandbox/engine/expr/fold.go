package expr

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// mongod optimizes a pipeline before running it, and optimizing an
// expression evaluates every operator whose arguments are all constants
// (ExpressionNary::optimize and its kin). So a constant expression fails
// when the pipeline is built, even over an empty collection and even in a
// $cond branch that would never run, with "Failed to optimize pipeline ::
// caused by :: <error>" instead of the executor's per-document error.

// WithConstantFolding returns a copy of s whose operators with constant
// arguments are evaluated at compile time, as in an aggregation pipeline.
func (s *Scope) WithConstantFolding() *Scope {
	out := *s
	out.fold = true
	return &out
}

// withoutFolding returns a copy of s that folds nothing, for the
// arguments of an operator whose optimize() leaves them as they are.
func (s *Scope) withoutFolding() *Scope {
	out := *s
	out.fold = false
	return &out
}

// foldConstant replaces x, the operator name applied to arg, by its value
// when arg is constant.
func foldConstant(name string, arg any, x Expr, scope *Scope) (Expr, error) {
	if _, ok := x.(constant); ok || neverFolded[name] || !scope.constantSpec(arg) {
		return x, nil
	}
	v, err := x.Eval(NewEnv(bson.D{}, 0))
	if err != nil {
		me := mongoerr.As(err)
		return nil, mongoerr.New(me.Code, optimizeContext+me.Msg)
	}
	return constant{v}, nil
}

const optimizeContext = "Failed to optimize pipeline :: caused by :: "

// optimizationError is an error an operator's optimize() raises: in a
// pipeline, which mongod optimizes as a whole, it carries the optimizer's
// context.
func (s *Scope) optimizationError(err error) error {
	if err == nil || !s.fold {
		return err
	}
	me := mongoerr.As(err)
	return mongoerr.New(me.Code, optimizeContext+me.Msg)
}

// IsOptimizationError reports whether err is an operator's failure at
// optimization time, which mongod raises after a stage's parse and so
// without the stage's parse context.
func IsOptimizationError(err error) bool {
	me, ok := err.(*mongoerr.Error)
	return ok && strings.HasPrefix(me.Msg, optimizeContext)
}

// neverFolded are the operators mongod does not evaluate at optimization
// time: they read the current document without naming it ($getField and
// its kin default to $$CURRENT), or are not deterministic.
var neverFolded = map[string]bool{
	"$getField": true, "$setField": true, "$unsetField": true,
	"$rand": true, "$meta": true, "$function": true, "$accumulator": true, "$_internalJsEmit": true,
	"$sampleRate": true, "$createObjectId": true, "$currentDate": true,
	// Their optimize() optimizes their arguments only (ExpressionMap,
	// ExpressionFilter, ExpressionReduce, ExpressionZip,
	// ExpressionInternalIndexKey) or is Expression's own, which does
	// nothing (ExpressionFromAccumulatorN).
	"$map": true, "$filter": true, "$reduce": true, "$zip": true, "$_internalIndexKey": true,
	"$firstN": true, "$lastN": true, "$minN": true, "$maxN": true,
}

// ConstantSpec reports whether an expression specification reads neither
// a field nor a variable and has no operator optimize() leaves alone: one
// that optimizing a pipeline replaces by its value.
func ConstantSpec(spec any) bool { return (*Scope)(nil).constantSpec(spec) }

// constantSpec is ConstantSpec in scope s, where a command-level let
// variable is a constant too (ExpressionFieldPath::optimize): compiled in
// s, it is its value (compileFieldPath), so an operator over it folds.
func (s *Scope) constantSpec(spec any) bool {
	switch x := spec.(type) {
	case string:
		if name, ok := strings.CutPrefix(x, "$$"); ok && s != nil {
			_, isConst := s.letConstant(name)
			return isConst
		}
		return !strings.HasPrefix(x, "$")
	case bson.A:
		for _, e := range x {
			if !s.constantSpec(e) {
				return false
			}
		}
	case bson.D:
		if len(x) == 1 && x[0].Key == "$literal" {
			return true
		}
		for _, e := range x {
			if strings.HasPrefix(e.Key, "$") && neverFolded[e.Key] || !s.constantSpec(e.Value) {
				return false
			}
		}
	}
	return true
}
