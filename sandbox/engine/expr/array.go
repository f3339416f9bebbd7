package expr

import (
	"math"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// unary compiles a one-argument operator evaluating fn on the value.
func unary(fn func(name string, v any) (any, error)) compiler {
	return func(name string, arg any, scope *Scope) (Expr, error) {
		args, err := compileFixed(name, arg, scope, 1)
		if err != nil {
			return nil, err
		}
		a := args[0]
		return evalFunc(func(env *Env) (any, error) {
			v, err := a.Eval(env)
			if err != nil {
				return nil, err
			}
			return fn(name, v)
		}), nil
	}
}

func sizeOf(_ string, v any) (any, error) {
	a, ok := v.(bson.A)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrSizeNotArray, "The argument to $size must be an array, but was of type: %s", typeName(v))
	}
	return int32(len(a)), nil
}

func isArrayOf(_ string, v any) (any, error) { return value.IsArray(v), nil }

func arrayElemAt(name string, arr, idx any) (any, error) {
	if nullish(arr) || nullish(idx) {
		return nil, nil
	}
	a, ok := arr.(bson.A)
	if !ok {
		if name == "$arrayElemAt" {
			return nil, mongoerr.Newf(mongoerr.ErrArrayElemAtNotArray, "$arrayElemAt's first argument must be an array, but is %s", typeName(arr))
		}
		return nil, mongoerr.Newf(mongoerr.ErrArrayElemAtNotArray, "%s's argument must be an array, but is %s", name, typeName(arr))
	}
	if !value.IsNumber(idx) {
		return nil, mongoerr.Newf(mongoerr.ErrArrayElemAtIndexNotNumber, "$arrayElemAt's second argument must be a numeric value, but is %s", typeName(idx))
	}
	if !value.Integral(idx) {
		return nil, mongoerr.Newf(mongoerr.ErrArrayElemAtIndexNotInt, "$arrayElemAt's second argument must be representable as a 32-bit integer: %s", streamAsDouble(idx))
	}
	i := checkedInt(idx)
	if i < 0 {
		i += len(a)
	}
	if i < 0 || i >= len(a) {
		return value.Missing{}, nil
	}
	return a[i], nil
}

func compileArrayElemAt(name string, arg any, scope *Scope) (Expr, error) {
	return compileBinary(func(a, b any) (any, error) { return arrayElemAt(name, a, b) })(name, arg, scope)
}

func firstLast(name string, v any) (any, error) {
	if name == "$first" {
		return arrayElemAt(name, v, int32(0))
	}
	return arrayElemAt(name, v, int32(-1))
}

func reverseArray(_ string, v any) (any, error) {
	if nullish(v) {
		return nil, nil
	}
	a, ok := v.(bson.A)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrReverseArrayNotArray, "The argument to $reverseArray must be an array, but was of type: %s", typeName(v))
	}
	out := make(bson.A, len(a))
	for i, e := range a {
		out[len(a)-1-i] = e
	}
	return out, nil
}

func elementsTrue(name string, v any) (any, error) {
	a, ok := v.(bson.A)
	if !ok {
		code := int32(mongoerr.ErrAllElementsTrueNotArray)
		if name == "$anyElementTrue" {
			code = mongoerr.ErrAnyElementTrueNotArray
		}
		return nil, mongoerr.Newf(code, "%s's argument must be an array, but is %s", name, typeName(v))
	}
	all := name == "$allElementsTrue"
	for _, e := range a {
		if IsTrue(e) != all {
			return !all, nil
		}
	}
	return all, nil
}

func compileConcatArrays(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileArgs(arg, scope)
	if err != nil {
		return nil, err
	}
	args, err = foldAssociative(scope, args, false, func(args []Expr) Expr { return concatArrays(name, args) })
	if err != nil {
		return nil, err
	}
	return concatArrays(name, args), nil
}

func concatArrays(name string, args []Expr) Expr {
	return evalFunc(func(env *Env) (any, error) {
		arrays := make([]bson.A, 0, len(args))
		n := 0
		for _, a := range args {
			v, err := a.Eval(env)
			if err != nil {
				return nil, err
			}
			if nullish(v) {
				return nil, nil
			}
			arr, ok := v.(bson.A)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrConcatArraysNonArray, "$concatArrays only supports arrays, not %s", typeName(v))
			}
			arrays = append(arrays, arr)
			n += len(arr)
		}
		limit := builtLimit{op: name}
		for _, arr := range arrays {
			if err := limit.add(arr); err != nil {
				return nil, err
			}
		}
		out := make(bson.A, 0, n)
		for _, arr := range arrays {
			out = append(out, arr...)
		}
		return out, nil
	})
}

func inArray(a, b any) (any, error) {
	arr, ok := b.(bson.A)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrInNotArray, "$in requires an array as a second argument, found: %s", typeName(b))
	}
	for _, e := range arr {
		if value.Compare(a, e) == 0 {
			return true, nil
		}
	}
	return false, nil
}

func compileIndexOfArray(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileRanged(name, arg, scope, 2, 4)
	if err != nil {
		return nil, err
	}
	// ExpressionIndexOfArray::optimize looks at a constant array once.
	if v, ok := IsConstant(args[0]); ok && scope.fold && !ConstantSpec(arg) {
		if nullish(v) {
			return constant{nil}, nil
		}
		if _, isArr := v.(bson.A); !isArr {
			return nil, mongoerr.Newf(mongoerr.ErrIndexOfArrayConstantNotArray, "%sFirst operand of $indexOfArray must be an array. First argument is of type: %s", optimizeContext, typeName(v))
		}
	}
	return evalFunc(func(env *Env) (any, error) {
		// ExpressionIndexOfArray evaluates and checks the array, then the
		// start and end indexes, and the value it searches for last
		// (evaluateAndValidateArguments, evaluate_array.cpp).
		av, err := args[0].Eval(env)
		if err != nil {
			return nil, err
		}
		if nullish(av) {
			return nil, nil
		}
		arr, ok := av.(bson.A)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.ErrIndexOfArrayNotArray, "$indexOfArray requires an array as a first argument, found: %s", typeName(av))
		}
		start, end, err := indexBounds(name, args, env, len(arr))
		if err != nil {
			return nil, err
		}
		target, err := args[1].Eval(env)
		if err != nil {
			return nil, err
		}
		for i := start; i < end; i++ {
			if value.Compare(arr[i], target) == 0 {
				return int32(i), nil
			}
		}
		return int32(-1), nil
	}), nil
}

// indexBounds evaluates and validates, in that order, the optional start
// (args[2]) and end (args[3]) of $indexOfArray/$indexOfBytes/$indexOfCP
// over n items: 0 and n when not given, the end no further than n.
func indexBounds(name string, args []Expr, env *Env, n int) (start, end int, err error) {
	start, end = 0, n
	if len(args) > 2 {
		v, err := args[2].Eval(env)
		if err != nil {
			return 0, 0, err
		}
		if start, err = indexArg(name, v, "starting"); err != nil {
			return 0, 0, err
		}
	}
	if len(args) > 3 {
		v, err := args[3].Eval(env)
		if err != nil {
			return 0, 0, err
		}
		if end, err = indexArg(name, v, "ending"); err != nil {
			return 0, 0, err
		}
		end = min(end, n)
	}
	return start, end, nil
}

// indexArg validates the optional start/end of $indexOfArray/$indexOfCP.
func indexArg(name string, v any, which string) (int, error) {
	if !value.Integral(v) {
		return 0, mongoerr.Newf(mongoerr.ErrIndexOfIndexNotInt, "%srequires an integral %s index, found a value of type: %s, with value: %s", name, which, typeName(v), formatValue(v))
	}
	i := checkedInt(v)
	if i < 0 {
		// The value prints as Value::toString: a decimal keeps its digits.
		return 0, mongoerr.Newf(mongoerr.ErrIndexOfIndexNegative, "%s requires a nonnegative %s index, found: %s", name, which, formatNumber(v))
	}
	return i, nil
}

func compileRange(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileRanged(name, arg, scope, 2, 3)
	if err != nil {
		return nil, err
	}
	return evalFunc(func(env *Env) (any, error) {
		// ExpressionRange evaluates the step only after the start and the
		// end pass their checks.
		vals, err := evalAll(env, args[:2], make([]any, 0, 2))
		if err != nil {
			return nil, err
		}
		if !value.IsNumber(vals[0]) {
			return nil, mongoerr.Newf(mongoerr.ErrRangeStartNotNumber, "$range requires a numeric starting value, found value of type: %s", typeName(vals[0]))
		}
		if !value.Integral(vals[0]) {
			return nil, mongoerr.Newf(mongoerr.ErrRangeStartNotInt, "$range requires a starting value that can be represented as a 32-bit integer, found value: %s", formatNumber(vals[0]))
		}
		if !value.IsNumber(vals[1]) {
			return nil, mongoerr.Newf(mongoerr.ErrRangeEndNotNumber, "$range requires a numeric ending value, found value of type: %s", typeName(vals[1]))
		}
		if !value.Integral(vals[1]) {
			return nil, mongoerr.Newf(mongoerr.ErrRangeEndNotInt, "$range requires an ending value that can be represented as a 32-bit integer, found value: %s", formatNumber(vals[1]))
		}
		step := 1
		if len(args) == 3 {
			sv, err := args[2].Eval(env)
			if err != nil {
				return nil, err
			}
			if !value.IsNumber(sv) {
				return nil, mongoerr.Newf(mongoerr.ErrRangeStepNotNumber, "$range requires a numeric step value, found value of type:%s", typeName(sv))
			}
			if !value.Integral(sv) {
				return nil, mongoerr.Newf(mongoerr.ErrRangeStepNotInt, "$range requires a step value that can be represented as a 32-bit integer, found value: %s", formatNumber(sv))
			}
			step = checkedInt(sv)
			if step == 0 {
				return nil, mongoerr.New(mongoerr.ErrRangeStepZero, "$range requires a non-zero step value")
			}
		}
		start, end := checkedInt(vals[0]), checkedInt(vals[1])
		// mongod refuses ranges over internalQueryMaxRangeBytes (100 MiB),
		// counting 16 bytes per element plus the vector itself.
		steps := (end - start) / step
		length := 0
		if steps >= 0 {
			length = steps + 1
		}
		if need := 24 + length*16; need >= value.MemoryLimit {
			return nil, mongoerr.Newf(mongoerr.ExceededMemoryLimit, "$range would use too much memory (%d bytes) and cannot spill to disk. Memory limit: %d bytes", need, value.MemoryLimit)
		}
		out := make(bson.A, 0, length)
		for i := start; (step > 0 && i < end) || (step < 0 && i > end); i += step {
			if err := env.Tick(); err != nil {
				return nil, err
			}
			out = append(out, int32(i))
		}
		return out, nil
	}), nil
}

func compileSlice(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileRanged(name, arg, scope, 2, 3)
	if err != nil {
		return nil, err
	}
	return evalFunc(func(env *Env) (any, error) {
		// ExpressionSlice evaluates the array and the second argument, answers
		// null when either is nullish, checks them, and only then evaluates
		// and checks the count (evaluate_array.cpp).
		vals, err := evalAll(env, args[:2], make([]any, 0, 2))
		if err != nil {
			return nil, err
		}
		if nullish(vals[0]) || nullish(vals[1]) {
			return nil, nil
		}
		arr, ok := vals[0].(bson.A)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.ErrSliceNotArray, "First argument to $slice must be an array, but is of type: %s", typeName(vals[0]))
		}
		if !value.IsNumber(vals[1]) {
			return nil, mongoerr.Newf(mongoerr.ErrSliceSecondNotNumber, "Second argument to $slice must be a numeric value, but is of type: %s", typeName(vals[1]))
		}
		if !value.Integral(vals[1]) {
			return nil, mongoerr.Newf(mongoerr.ErrSliceSecondNotInt, "Second argument to $slice can't be represented as a 32-bit integer: %s", streamAsDouble(vals[1]))
		}
		n := len(arr)
		second := checkedInt(vals[1])
		var start, length int
		if len(args) == 2 {
			if second >= 0 {
				start, length = 0, min(second, n)
			} else {
				start = max(0, n+second)
				length = n - start
			}
		} else {
			count, err := args[2].Eval(env)
			if err != nil {
				return nil, err
			}
			if nullish(count) {
				return nil, nil
			}
			if !value.IsNumber(count) {
				return nil, mongoerr.Newf(mongoerr.ErrSliceThirdNotNumber, "Third argument to $slice must be numeric, but is of type: %s", typeName(count))
			}
			if !value.Integral(count) {
				return nil, mongoerr.Newf(mongoerr.ErrSliceThirdNotInt, "Third argument to $slice can't be represented as a 32-bit integer: %s", streamAsDouble(count))
			}
			length = checkedInt(count)
			if length <= 0 {
				return nil, mongoerr.Newf(mongoerr.ErrSliceCountNotPositive, "Third argument to $slice must be positive: %d", length)
			}
			if second < 0 {
				start = max(0, n+second)
			} else {
				start = min(second, n)
			}
			length = min(length, n-start)
		}
		out := make(bson.A, length)
		copy(out, arr[start:start+length])
		return out, nil
	}), nil
}

// streamAsDouble renders a number as mongod's messages that stream
// Value::coerceToDouble do: a long or decimal prints as a double with six
// significant digits (3000000000 is "3e+09").
func streamAsDouble(v any) string { return value.FormatStreamDouble(value.ToDouble(v)) }

// compileMapFilter builds $map and $filter from their {input, as, ...} object.
func compileMapFilter(name string, arg any, scope *Scope) (Expr, error) {
	isMap := name == "$map"
	d, ok := arg.(bson.D)
	if !ok {
		if isMap {
			return nil, mongoerr.New(mongoerr.ErrMapArgumentNotObject, "$map only supports an object as its argument")
		}
		return nil, mongoerr.New(mongoerr.ErrFilterArgumentNotObject, "$filter only supports an object as its argument")
	}
	var inputSpec, bodySpec, limitSpec any
	haveInput, haveBody, haveLimit := false, false, false
	as := "this"
	bodyKey := "cond"
	if isMap {
		bodyKey = "in"
	}
	for _, e := range d {
		switch e.Key {
		case "input":
			inputSpec, haveInput = e.Value, true
		case "as":
			s, ok := e.Value.(string)
			if !ok {
				return nil, mongoerr.New(mongoerr.FailedToParse, "empty variable names are not allowed")
			}
			as = s
		case bodyKey:
			bodySpec, haveBody = e.Value, true
		case "limit":
			if isMap {
				return nil, mongoerr.Newf(mongoerr.ErrMapUnknownArgument, "Unrecognized parameter to $map: %s", e.Key)
			}
			limitSpec, haveLimit = e.Value, true
		default:
			if isMap {
				return nil, mongoerr.Newf(mongoerr.ErrMapUnknownArgument, "Unrecognized parameter to $map: %s", e.Key)
			}
			return nil, mongoerr.Newf(mongoerr.ErrFilterUnknownArgument, "Unrecognized parameter to $filter: %s", e.Key)
		}
	}
	if !haveInput {
		if isMap {
			return nil, mongoerr.New(mongoerr.ErrMapMissingInput, "Missing 'input' parameter to $map")
		}
		return nil, mongoerr.New(mongoerr.ErrFilterMissingInput, "Missing 'input' parameter to $filter")
	}
	if !haveBody {
		if isMap {
			return nil, mongoerr.New(mongoerr.ErrMapMissingIn, "Missing 'in' parameter to $map")
		}
		return nil, mongoerr.New(mongoerr.ErrFilterMissingCond, "Missing 'cond' parameter to $filter")
	}
	if err := ValidateVarNameForWrite(as); err != nil {
		return nil, err
	}
	input, err := Compile(inputSpec, scope)
	if err != nil {
		return nil, err
	}
	body, err := Compile(bodySpec, scope.With(as))
	if err != nil {
		return nil, err
	}
	var limit Expr
	if haveLimit {
		if limit, err = Compile(limitSpec, scope); err != nil {
			return nil, err
		}
	}
	return evalFunc(func(env *Env) (any, error) {
		in, err := input.Eval(env)
		if err != nil {
			return nil, err
		}
		if nullish(in) {
			return nil, nil
		}
		arr, ok := in.(bson.A)
		if !ok {
			if isMap {
				return nil, mongoerr.Newf(mongoerr.ErrMapInputNotArray, "input to $map must be an array not %s", typeName(in))
			}
			return nil, mongoerr.Newf(mongoerr.ErrFilterInputNotArray, "input to $filter must be an array not %s", typeName(in))
		}
		limitN := math.MaxInt
		if limit != nil {
			lv, err := limit.Eval(env)
			if err != nil {
				return nil, err
			}
			if !nullish(lv) {
				if !value.Integral(lv) {
					return nil, mongoerr.Newf(mongoerr.ErrFilterLimitNotInt, "$filter: limit must be represented as a 32-bit integral value: %s", formatForMessage(lv))
				}
				limitN = checkedInt(lv)
				if limitN < 1 {
					return nil, mongoerr.Newf(mongoerr.ErrFilterLimitNotPositive, "$filter: limit must be greater than 0: %d", limitN)
				}
			}
		}
		out := make(bson.A, 0, len(arr))
		bind := env.bindLoopVar(as)
		defer bind.release()
		limit := builtLimit{op: name}
		for _, e := range arr {
			if err := env.Tick(); err != nil {
				return nil, err
			}
			bind.set(e)
			r, err := body.Eval(env)
			if err != nil {
				return nil, err
			}
			if isMap {
				if value.IsMissing(r) {
					r = nil
				}
				if err := limit.add(r); err != nil {
					return nil, err
				}
				out = append(out, r)
			} else if IsTrue(r) {
				out = append(out, e)
				if len(out) >= limitN {
					break
				}
			}
		}
		return out, nil
	}), nil
}

func compileReduce(name string, arg any, scope *Scope) (Expr, error) {
	d, ok := arg.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrReduceArgumentNotObject, "$reduce requires an object as an argument, found: %s", typeName(arg))
	}
	m := map[string]any{}
	for _, e := range d {
		switch e.Key {
		case "input", "initialValue", "in":
			m[e.Key] = e.Value
		default:
			return nil, mongoerr.Newf(mongoerr.ErrReduceUnknownArgument, "$reduce found an unknown argument: %s", e.Key)
		}
	}
	for _, k := range []struct {
		key  string
		code int32
	}{{"input", mongoerr.ErrReduceMissingInput}, {"initialValue", mongoerr.ErrReduceMissingInitialValue}, {"in", mongoerr.ErrReduceMissingIn}} {
		if _, ok := m[k.key]; !ok {
			return nil, mongoerr.Newf(k.code, "$reduce requires '%s' to be specified", k.key)
		}
	}
	input, err := Compile(m["input"], scope)
	if err != nil {
		return nil, err
	}
	init, err := Compile(m["initialValue"], scope)
	if err != nil {
		return nil, err
	}
	in, err := Compile(m["in"], scope.With("this", "value"))
	if err != nil {
		return nil, err
	}
	return evalFunc(func(env *Env) (any, error) {
		iv, err := input.Eval(env)
		if err != nil {
			return nil, err
		}
		if nullish(iv) {
			return nil, nil
		}
		arr, ok := iv.(bson.A)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.ErrReduceInputNotArray, "$reduce requires that 'input' be an array, found: %s", formatValue(iv))
		}
		acc, err := init.Eval(env)
		if err != nil {
			return nil, err
		}
		env.push("value", nil)
		env.push("this", nil)
		defer env.pop(2)
		n := len(env.vars)
		for _, e := range arr {
			if err := env.Tick(); err != nil {
				return nil, err
			}
			env.vars[n-2].val = acc
			env.vars[n-1].val = e
			acc, err = in.Eval(env)
			if err != nil {
				return nil, err
			}
		}
		return acc, nil
	}), nil
}

func compileZip(name string, arg any, scope *Scope) (Expr, error) {
	d, ok := arg.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrZipArgumentNotObject, "$zip only supports an object as an argument, found %s", typeName(arg))
	}
	var inputs, defaults []Expr
	longest := false
	for _, e := range d {
		switch e.Key {
		case "inputs":
			a, ok := e.Value.(bson.A)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrZipInputsNotArray, "inputs must be an array of expressions, found %s", typeName(e.Value))
			}
			var err error
			if inputs, err = compileArgs(a, scope); err != nil {
				return nil, err
			}
		case "defaults":
			a, ok := e.Value.(bson.A)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrZipDefaultsNotArray, "defaults must be an array of expressions, found %s", typeName(e.Value))
			}
			var err error
			if defaults, err = compileArgs(a, scope); err != nil {
				return nil, err
			}
		case "useLongestLength":
			b, ok := e.Value.(bool)
			if !ok {
				// ExpressionZip::parse names the type of $zip's own argument here.
				return nil, mongoerr.New(mongoerr.ErrZipUseLongestLengthNotBool, "useLongestLength must be a bool, found object")
			}
			longest = b
		default:
			return nil, mongoerr.Newf(mongoerr.ErrZipUnknownArgument, "$zip found an unknown argument: %s", e.Key)
		}
	}
	if len(inputs) == 0 {
		return nil, mongoerr.New(mongoerr.ErrZipNoInputs, "$zip requires at least one input array")
	}
	if len(defaults) > 0 && !longest {
		return nil, mongoerr.New(mongoerr.ErrZipDefaultsWithoutLongest, "cannot specify defaults unless useLongestLength is true")
	}
	if len(defaults) > 0 && len(defaults) != len(inputs) {
		return nil, mongoerr.New(mongoerr.ErrZipDefaultsLength, "defaults and inputs must have the same length")
	}
	return evalFunc(func(env *Env) (any, error) {
		arrays := make([]bson.A, len(inputs))
		minLen, maxLen := math.MaxInt, 0
		for i, in := range inputs {
			v, err := in.Eval(env)
			if err != nil {
				return nil, err
			}
			if nullish(v) {
				return nil, nil
			}
			a, ok := v.(bson.A)
			if !ok {
				return nil, mongoerr.Newf(mongoerr.ErrZipInputNotArray, "$zip found a non-array expression in input: %s", formatValue(v))
			}
			arrays[i] = a
			minLen, maxLen = min(minLen, len(a)), max(maxLen, len(a))
		}
		defs := make([]any, len(inputs))
		// ExpressionZip evaluates the defaults only when the inputs differ
		// in length (evaluate_array.cpp).
		for i, de := range defaults {
			if minLen == maxLen {
				break
			}
			v, err := de.Eval(env)
			if err != nil {
				return nil, err
			}
			defs[i] = v
		}
		n := minLen
		if longest {
			n = maxLen
		}
		out := make(bson.A, n)
		limit := builtLimit{op: name}
		for r := range n {
			row := make(bson.A, len(arrays))
			for i, a := range arrays {
				if r < len(a) {
					row[i] = a[r]
				} else {
					row[i] = defs[i]
				}
			}
			if err := limit.add(row); err != nil {
				return nil, err
			}
			out[r] = row
		}
		return out, nil
	}), nil
}

// checkSortArraySpec is createSortSpecObject's check of 'sortBy': a sort
// pattern as pattern_cmp::checkSortClause takes it, or 1 or -1.
func checkSortArraySpec(v any) error {
	switch s := v.(type) {
	case bson.D:
		if len(s) == 0 {
			return mongoerr.New(mongoerr.ErrSortArrayBadPattern, "BadValue: The $sort pattern is empty when it should be a set of fields.")
		}
		for _, e := range s {
			if dir, ok := sortDirection(e.Value); !ok || dir == 0 {
				return mongoerr.New(mongoerr.ErrSortArrayBadPattern, "BadValue: The $sort element value must be either 1 or -1")
			}
			if e.Key == "" {
				return mongoerr.New(mongoerr.ErrSortArrayBadPattern, "BadValue: The $sort field cannot be empty")
			}
			if slices.Contains(strings.Split(e.Key, "."), "") {
				return mongoerr.Newf(mongoerr.ErrSortArrayBadPattern, "BadValue: The $sort field is a dotted field but has an empty part: %s", e.Key)
			}
		}
		return nil
	}
	if value.IsNumber(v) {
		if dir, ok := sortDirection(v); !ok || dir == 0 {
			return mongoerr.New(mongoerr.ErrSortArrayBadDirection, "The $sort element value must be either 1 or -1")
		}
		return nil
	}
	return mongoerr.New(mongoerr.ErrSortArrayBadSortBy, "The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields")
}

// validateN is AccumulatorN::validateN: a positive integral number.
func validateN(nv any) (int64, error) {
	if !value.IsNumber(nv) {
		return 0, mongoerr.Newf(mongoerr.ErrAccumulatorNNotNumber, "Value for 'n' must be of integral type, but found %s", formatValue(nv))
	}
	n, err := value.CoerceToLong(nv)
	if err != nil {
		return 0, err
	}
	if float64(n) != value.ToDouble(nv) {
		return 0, mongoerr.Newf(mongoerr.ErrAccumulatorNNotInt, "Value for 'n' must be of integral type, but found %s", formatValue(nv))
	}
	if n <= 0 {
		return 0, mongoerr.Newf(mongoerr.ErrAccumulatorNNotPositive, "'n' must be greater than 0, found %d", n)
	}
	return n, nil
}

func compileSortArray(name string, arg any, scope *Scope) (Expr, error) {
	d, ok := arg.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.ErrSortArrayArgumentNotObject, "$sortArray requires an object as an argument, found: %s", typeName(arg))
	}
	var input Expr
	var sortBy any
	haveSort := false
	for _, e := range d {
		switch e.Key {
		case "input":
			x, err := Compile(e.Value, scope)
			if err != nil {
				return nil, err
			}
			input = x
		case "sortBy":
			if err := checkSortArraySpec(e.Value); err != nil {
				return nil, err
			}
			sortBy, haveSort = e.Value, true
		default:
			return nil, mongoerr.Newf(mongoerr.ErrSortArrayUnknownArgument, "$sortArray found an unknown argument: %s", e.Key)
		}
	}
	if input == nil {
		return nil, mongoerr.New(mongoerr.ErrSortArrayMissingInput, "$sortArray requires 'input' to be specified")
	}
	if !haveSort {
		return nil, mongoerr.New(mongoerr.ErrSortArrayMissingSortBy, "$sortArray requires 'sortBy' to be specified")
	}
	var cmp func(a, b any) int
	switch s := sortBy.(type) {
	case bson.D:
		type key struct {
			parts []string
			dir   int
		}
		keys := make([]key, len(s))
		for i, e := range s {
			dir, _ := sortDirection(e.Value)
			keys[i] = key{splitPath(e.Key), dir}
		}
		cmp = func(a, b any) int {
			for _, k := range keys {
				av, bv := sortKeyValue(a, k.parts, k.dir), sortKeyValue(b, k.parts, k.dir)
				if c := value.Compare(av, bv); c != 0 {
					return c * k.dir
				}
			}
			return 0
		}
	default:
		dir, _ := sortDirection(sortBy)
		cmp = func(a, b any) int { return value.Compare(a, b) * dir }
	}
	return evalFunc(func(env *Env) (any, error) {
		v, err := input.Eval(env)
		if err != nil {
			return nil, err
		}
		if nullish(v) {
			return nil, nil
		}
		arr, ok := v.(bson.A)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.ErrSortArrayInputNotArray, "The input argument to $sortArray must be an array, but was of type: %s", typeName(v))
		}
		out := slices.Clone(arr)
		slices.SortStableFunc(out, cmp)
		return out, nil
	}), nil
}

func sortDirection(v any) (int, bool) {
	if !value.IsNumber(v) {
		return 0, false
	}
	switch value.ToDouble(v) {
	case 1:
		return 1, true
	case -1:
		return -1, true
	}
	return 0, false
}

// sortKeyValue extracts a sort key; arrays sort by their smallest element
// ascending and largest descending, as $sort does. Non-documents have
// a missing key.
func sortKeyValue(v any, parts []string, dir int) any {
	r := walkPath(v, parts)
	if a, ok := r.(bson.A); ok {
		if len(a) == 0 {
			return value.Missing{}
		}
		best := a[0]
		for _, e := range a[1:] {
			if c := value.Compare(e, best); (dir > 0 && c < 0) || (dir < 0 && c > 0) {
				best = e
			}
		}
		return best
	}
	return r
}

// compileNArray builds the expression forms of $firstN, $lastN, $maxN and
// $minN (ExpressionFromAccumulatorN in accumulator_multi.cpp): 'n' is
// checked for each document before the input is read, the input must be
// an array (null included), $minN and $maxN skip nullish elements.
func compileNArray(name string, arg any, scope *Scope) (Expr, error) {
	// ExpressionFromAccumulatorN has no optimize() of its own, so mongod
	// does not optimize its arguments either.
	m, err := namedArgs(arg, scope.withoutFolding(), argSpec{
		names: []string{"n", "input"},
		notObject: func(arg any) error {
			code := int32(mongoerr.ErrFirstLastNNotObject)
			if name == "$minN" || name == "$maxN" {
				code = mongoerr.ErrMinMaxNNotObject
			}
			return mongoerr.Newf(code, "specification must be an object; found %s: %s", name, FormatValue(arg))
		},
		unknown: func(f string) error {
			return mongoerr.Newf(mongoerr.ErrAccumulatorNUnknownArgument, "Unknown argument for 'n' operator: %s", f)
		},
	})
	if err != nil {
		return nil, err
	}
	nE, inE := m["n"], m["input"]
	if nE == nil {
		return nil, mongoerr.Newf(mongoerr.ErrAccumulatorNMissingN, "Missing value for 'n'")
	}
	if inE == nil {
		return nil, mongoerr.Newf(mongoerr.ErrAccumulatorNMissingInput, "Missing value for 'input'")
	}
	return evalFunc(func(env *Env) (any, error) {
		nv, err := nE.Eval(env)
		if err != nil {
			return nil, err
		}
		n64, err := validateN(nv)
		if err != nil {
			return nil, err
		}
		n := int(min(n64, math.MaxInt32))
		iv, err := inE.Eval(env)
		if err != nil {
			return nil, err
		}
		arr, ok := iv.(bson.A)
		if !ok {
			return nil, mongoerr.New(mongoerr.ErrAccumulatorNInputNotArray, "Input must be an array")
		}
		switch name {
		case "$firstN":
			return slices.Clone(arr[:min(n, len(arr))]), nil
		case "$lastN":
			return slices.Clone(arr[len(arr)-min(n, len(arr)):]), nil
		}
		vals := make(bson.A, 0, len(arr))
		for _, e := range arr {
			if !nullish(e) {
				vals = append(vals, e)
			}
		}
		slices.SortStableFunc(vals, func(a, b any) int {
			if name == "$maxN" {
				return value.Compare(b, a)
			}
			return value.Compare(a, b)
		})
		return vals[:min(n, len(vals))], nil
	}), nil
}
