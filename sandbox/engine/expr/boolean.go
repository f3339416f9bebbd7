package expr

func compileAndOr(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileArgs(arg, scope)
	if err != nil {
		return nil, err
	}
	isAnd := name == "$and"
	return evalFunc(func(env *Env) (any, error) {
		for _, a := range args {
			v, err := a.Eval(env)
			if err != nil {
				return nil, err
			}
			if IsTrue(v) != isAnd {
				return !isAnd, nil
			}
		}
		return isAnd, nil
	}), nil
}

func compileNot(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileFixed(name, arg, scope, 1)
	if err != nil {
		return nil, err
	}
	return evalFunc(func(env *Env) (any, error) {
		v, err := args[0].Eval(env)
		if err != nil {
			return nil, err
		}
		return !IsTrue(v), nil
	}), nil
}
