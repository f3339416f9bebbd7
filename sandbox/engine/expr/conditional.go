package expr

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func compileCond(name string, arg any, scope *Scope) (Expr, error) {
	var ifE, thenE, elseE Expr
	if _, ok := arg.(bson.D); ok {
		m, err := namedArgs(arg, scope, argSpec{
			names: []string{"if", "then", "else"},
			unknown: func(f string) error {
				return mongoerr.Newf(mongoerr.ErrCondUnknownArgument, "Unrecognized parameter to $cond: %s", f)
			},
		})
		if err != nil {
			return nil, err
		}
		ifE, thenE, elseE = m["if"], m["then"], m["else"]
		switch {
		case ifE == nil:
			return nil, mongoerr.New(mongoerr.ErrCondMissingIf, "Missing 'if' parameter to $cond")
		case thenE == nil:
			return nil, mongoerr.New(mongoerr.ErrCondMissingThen, "Missing 'then' parameter to $cond")
		case elseE == nil:
			return nil, mongoerr.New(mongoerr.ErrCondMissingElse, "Missing 'else' parameter to $cond")
		}
	} else {
		args, err := compileFixed(name, arg, scope, 3)
		if err != nil {
			return nil, err
		}
		ifE, thenE, elseE = args[0], args[1], args[2]
	}
	return evalFunc(func(env *Env) (any, error) {
		c, err := ifE.Eval(env)
		if err != nil {
			return nil, err
		}
		if IsTrue(c) {
			return thenE.Eval(env)
		}
		return elseE.Eval(env)
	}), nil
}

func compileIfNull(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileArgs(arg, scope)
	if err != nil {
		return nil, err
	}
	if len(args) < 2 {
		return nil, mongoerr.Newf(mongoerr.ErrIfNullArgumentCount, "$ifNull needs at least two arguments, had: %d", len(args))
	}
	return evalFunc(func(env *Env) (any, error) {
		for i, a := range args {
			v, err := a.Eval(env)
			if err != nil {
				return nil, err
			}
			if !nullish(v) || i == len(args)-1 {
				return v, nil
			}
		}
		return nil, nil
	}), nil
}

func compileSwitch(name string, arg any, scope *Scope) (Expr, error) {
	d, ok := arg.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrSwitchArgumentNotObject, "$switch requires an object as an argument, found: %s", typeName(arg))
	}
	type branch struct{ cond, then Expr }
	var branches []branch
	var def Expr
	for _, e := range d {
		switch e.Key {
		case "branches":
			arr, ok := e.Value.(bson.A)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrSwitchBranchesNotArray, "$switch expected an array for 'branches', found: %s", typeName(e.Value))
			}
			for _, b := range arr {
				bd, ok := b.(bson.D)
				if !ok {
					return nil, mongoerr.Newf(mongoerr.ErrSwitchBranchNotObject, "$switch expected each branch to be an object, found: %s", typeName(b))
				}
				var br branch
				for _, f := range bd {
					if f.Key != "case" && f.Key != "then" {
						return nil, mongoerr.Newf(mongoerr.ErrSwitchBranchUnknownArgument, "$switch found an unknown argument to a branch: %s", f.Key)
					}
					x, err := Compile(f.Value, scope)
					if err != nil {
						return nil, err
					}
					if f.Key == "case" {
						br.cond = x
					} else {
						br.then = x
					}
				}
				if br.cond == nil {
					return nil, mongoerr.New(mongoerr.ErrSwitchBranchMissingCase, "$switch requires each branch have a 'case' expression")
				}
				if br.then == nil {
					return nil, mongoerr.New(mongoerr.ErrSwitchBranchMissingThen, "$switch requires each branch have a 'then' expression.")
				}
				branches = append(branches, br)
			}
		case "default":
			x, err := Compile(e.Value, scope)
			if err != nil {
				return nil, err
			}
			def = x
		default:
			return nil, mongoerr.Newf(mongoerr.ErrSwitchUnknownArgument, "$switch found an unknown argument: %s", e.Key)
		}
	}
	if len(branches) == 0 {
		return nil, mongoerr.New(mongoerr.ErrSwitchNoBranches, "$switch requires at least one branch.")
	}
	if scope.fold {
		// ExpressionSwitch::optimize: a constant false case is dropped, a
		// constant true one becomes the default and ends the branches.
		kept := branches[:0:0]
		for _, b := range branches {
			c, ok := IsConstant(b.cond)
			if !ok {
				kept = append(kept, b)
				continue
			}
			if IsTrue(c) {
				def = b.then
				break
			}
		}
		branches = kept
		if len(branches) == 0 {
			if def == nil {
				return nil, mongoerr.New(mongoerr.ErrSwitchAllCasesFalse, optimizeContext+"Cannot execute a switch statement where all the cases evaluate to false without a default")
			}
			return def, nil
		}
	}
	return evalFunc(func(env *Env) (any, error) {
		for _, b := range branches {
			c, err := b.cond.Eval(env)
			if err != nil {
				return nil, err
			}
			if IsTrue(c) {
				return b.then.Eval(env)
			}
		}
		if def == nil {
			return nil, mongoerr.New(mongoerr.ErrSwitchNoMatch, "$switch could not find a matching branch for an input, and no default was specified.")
		}
		return def.Eval(env)
	}), nil
}
