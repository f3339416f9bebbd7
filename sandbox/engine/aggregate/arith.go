package aggregate

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
)

// arith applies mongod's arithmetic to two values with the expression
// package's type rules ($add's widening and date arithmetic, a date minus
// a date in milliseconds, $divide's double or decimal), as mongod's window
// functions and $densify call ExpressionAdd::apply and its siblings.
// $subtract, $divide and $mod are exported by the expression package;
// $add and $multiply are variadic there, so arith compiles them once over
// two variables.
type arith struct {
	env      *expr.Env
	add, mul expr.Expr
}

func newArith() *arith {
	scope := expr.NewScope("l", "r")
	add, errAdd := expr.Compile(bson.D{{Key: "$add", Value: bson.A{"$$l", "$$r"}}}, scope)
	mul, errMul := expr.Compile(bson.D{{Key: "$multiply", Value: bson.A{"$$l", "$$r"}}}, scope)
	if errAdd != nil || errMul != nil {
		panic("aggregate: $add or $multiply over two variables does not compile")
	}
	return &arith{env: expr.NewEnv(bson.D{}, 0), add: add, mul: mul}
}

func (a *arith) apply(x expr.Expr, l, r any) (any, error) {
	a.env.SetVar("l", l)
	a.env.SetVar("r", r)
	return x.Eval(a.env)
}

func (a *arith) Add(l, r any) (any, error) { return a.apply(a.add, l, r) }
func (a *arith) Mul(l, r any) (any, error) { return a.apply(a.mul, l, r) }
func (a *arith) Sub(l, r any) (any, error) { return expr.Subtract(l, r) }
func (a *arith) Div(l, r any) (any, error) { return expr.Divide(l, r) }
