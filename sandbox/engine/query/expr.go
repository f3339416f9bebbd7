package query

import (
	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// exprEvaluator is the compiled form of a $expr with the command context
// it evaluates in.
type exprEvaluator struct {
	e    expr.Expr
	now  bson.DateTime
	lets bson.D
}

func compileExpr(spec any, opts Options) (*Expr, error) {
	names := make([]string, 0, len(opts.LetVars))
	for _, v := range opts.LetVars {
		names = append(names, v.Key)
	}
	scope := expr.NewScope(names...)
	if opts.Validator {
		scope = scope.InValidator()
	}
	e, err := expr.Compile(spec, scope)
	if err != nil {
		return nil, err
	}
	return &Expr{Spec: spec, eval: exprEvaluator{e: e, now: opts.Now, lets: opts.LetVars}}, nil
}

// Matches implements Node. An evaluation error (e.g. $divide by zero)
// makes the document not match and is reported through pos.Err so that
// Filter.Eval can fail the command as mongod does.
func (x *Expr) Matches(doc bson.D, pos *Position) bool {
	ok, err := x.eval.match(doc)
	if err != nil && pos != nil && pos.Err == nil {
		pos.Err = err
	}
	return ok
}

func (ev exprEvaluator) match(doc bson.D) (bool, error) {
	if ev.e == nil {
		return false, nil
	}
	env := expr.NewEnv(doc, ev.now)
	for _, l := range ev.lets {
		env.SetVar(l.Key, l.Value)
	}
	v, err := ev.e.Eval(env)
	if err != nil {
		return false, err
	}
	return expr.IsTrue(v), nil
}
