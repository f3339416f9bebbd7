package expr

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func compileLiteral(name string, arg any, scope *Scope) (Expr, error) {
	return constant{arg}, nil
}

// compileExprOperator is $expr used as an aggregation expression: it
// evaluates its argument as an operand ({$expr: {}} is {}).
func compileExprOperator(name string, arg any, scope *Scope) (Expr, error) {
	return Compile(arg, scope)
}

func compileLet(name string, arg any, scope *Scope) (Expr, error) {
	d, ok := arg.(bson.D)
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrLetArgumentNotObject, "$let only supports an object as its argument")
	}
	var varsSpec bson.D
	var inSpec any
	haveVars, haveIn := false, false
	for _, e := range d {
		switch e.Key {
		case "vars":
			vd, ok := e.Value.(bson.D)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrRandArgumentNotObject, "invalid parameter: expected an object (vars)")
			}
			varsSpec, haveVars = vd, true
		case "in":
			inSpec, haveIn = e.Value, true
		default:
			return nil, mongoerr.Newf(mongoerr.ErrLetUnknownArgument, "Unrecognized parameter to $let: %s", e.Key)
		}
	}
	if !haveVars {
		return nil, mongoerr.New(mongoerr.ErrLetMissingVars, "Missing 'vars' parameter to $let")
	}
	if !haveIn {
		return nil, mongoerr.New(mongoerr.ErrLetMissingIn, "Missing 'in' parameter to $let")
	}
	names := make([]string, len(varsSpec))
	vals := make([]Expr, len(varsSpec))
	for i, e := range varsSpec {
		if err := ValidateVarNameForWrite(e.Key); err != nil {
			return nil, err
		}
		// Variable definitions see the outer scope only.
		x, err := Compile(e.Value, scope)
		if err != nil {
			return nil, err
		}
		names[i], vals[i] = e.Key, x
	}
	in, err := Compile(inSpec, scope.With(names...))
	if err != nil {
		return nil, err
	}
	return evalFunc(func(env *Env) (any, error) {
		var saved [4]any
		results := saved[:0]
		for _, v := range vals {
			r, err := v.Eval(env)
			if err != nil {
				return nil, err
			}
			results = append(results, r)
		}
		oldCurrent, oldRoot := env.current, env.rootCurrent
		pushed := 0
		for i, n := range names {
			if n == "CURRENT" {
				env.setCurrent(results[i])
				continue
			}
			env.push(n, results[i])
			pushed++
		}
		r, err := in.Eval(env)
		env.pop(pushed)
		env.current, env.rootCurrent = oldCurrent, oldRoot
		return r, err
	}), nil
}

// SeedLetParameters is Variables::seedVariablesWithLetParameters: a
// command's let, each value evaluated once, before any document is read,
// so it may not name a field (the message's missing space is mongod's);
// the names are those a user may write.
func SeedLetParameters(let bson.D, now bson.DateTime) (bson.D, error) {
	out := make(bson.D, 0, len(let))
	env := NewEnv(bson.D{}, now)
	for _, e := range let {
		if err := ValidateVarNameForWrite(e.Key); err != nil {
			return nil, err
		}
		x, err := Compile(e.Value, NewScope())
		if err != nil {
			return nil, err
		}
		if len(Dependencies(e.Value).Paths) > 0 {
			return nil, mongoerr.New(4890500, "Command let Expression tried to access a field, but this is not allowed because"+
				"Command let Expressions run before the query examines any documents.")
		}
		v, err := x.Eval(env)
		if err != nil {
			return nil, err
		}
		out = append(out, bson.E{Key: e.Key, Value: v})
	}
	return out, nil
}
