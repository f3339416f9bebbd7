package expr

func compileAndOr(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileArgs(arg, scope)
	if err != nil {
		return nil, err
	}
	isAnd := name == "$and"
	if scope.fold {
		// ExpressionNary::optimize gathers a commutative operator's
		// constants at the back, and ExpressionAnd::optimize (and $or's)
		// then replaces the whole by a deciding constant: one false
		// argument makes $and false wherever it stands, before any other
		// argument is evaluated.
		for _, a := range args {
			if v, ok := IsConstant(a); ok && IsTrue(v) != isAnd {
				return constant{!isAnd}, nil
			}
		}
	}
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
