package expr

import (
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// Serialize renders an expression specification the way mongod's explain
// shows it after optimization: literals become {$const: v}, a
// sub-expression without field paths or variables is folded into its
// value, operator arguments are listed as arrays. Named-argument
// operators ($cond's object form, $let, $map, $dateToString...) keep their
// object form.
func Serialize(spec any, scope *Scope) any { return serialize(spec, scope, false) }

// SerializeExplain is Serialize for an explain: a single argument left of
// $and or $or shows as {$coerceToBool: [x]}, which
// ExpressionCoerceToBool::serialize writes when explaining (expression.cpp),
// where Serialize writes the $and that parses again.
func SerializeExplain(spec any, scope *Scope) any { return serialize(spec, scope, true) }

func serialize(spec any, scope *Scope, explain bool) any {
	if scope == nil {
		scope = NewScope()
	}
	if isFoldable(spec) {
		if e, err := Compile(spec, scope); err == nil {
			if v, err := e.Eval(NewEnv(bson.D{}, 0)); err == nil {
				return bson.D{{Key: "$const", Value: v}}
			}
		}
	}
	switch s := spec.(type) {
	case string:
		return s
	case bson.A:
		out := make(bson.A, len(s))
		for i, e := range s {
			out[i] = serialize(e, scope, explain)
		}
		return out
	case bson.D:
		if len(s) == 1 && strings.HasPrefix(s[0].Key, "$") {
			op, arg := s[0].Key, s[0].Value
			if op == "$rand" {
				// ExpressionRandom::serialize: {$rand: {}}.
				return bson.D{{Key: op, Value: bson.D{}}}
			}
			if op == "$substr" {
				// $substr parses as ExpressionSubstrBytes, whose
				// getOpName is $substrBytes.
				op = "$substrBytes"
			}
			switch op {
			case "$cond":
				if out, ok := serializeCond(arg, scope, explain); ok {
					return out
				}
			case "$ifNull":
				if a, ok := arg.(bson.A); ok && len(a) > 1 {
					return serializeIfNull(a, scope, explain)
				}
			case "$switch":
				if out, ok := serializeSwitch(arg, scope, explain); ok {
					return out
				}
			case "$let":
				if out, ok := serializeLet(arg, scope, explain); ok {
					return out
				}
			case "$map", "$filter":
				if out, ok := serializeIteration(op, arg, scope, explain); ok {
					return out
				}
			case "$zip":
				if out, ok := serializeZip(arg, scope, explain); ok {
					return out
				}
			}
			switch a := arg.(type) {
			case bson.A:
				if op == "$and" || op == "$or" {
					return serializeAndOr(op, a, scope, explain)
				}
				if leftAssociative(op) {
					return bson.D{{Key: op, Value: serializeLeading(op, a, scope, explain)}}
				}
				if full, commutative := associativity(op, len(a)); full {
					return bson.D{{Key: op, Value: serializeAssociative(op, a, commutative, scope, explain)}}
				}
				return bson.D{{Key: op, Value: serialize(a, scope, explain)}}
			case bson.D:
				if n, input := value.Get(a, "n"), value.Get(a, "input"); len(a) == 2 && IsNOperator(op) && !value.IsMissing(n) && !value.IsMissing(input) {
					// ExpressionFromAccumulatorN::serialize writes
					// AccumulatorN::serializeHelper's n, then input.
					return bson.D{{Key: op, Value: bson.D{{Key: "n", Value: serialize(n, scope, explain)}, {Key: "input", Value: serialize(input, scope, explain)}}}}
				}
				if len(a) > 0 && !strings.HasPrefix(a[0].Key, "$") {
					out := make(bson.D, len(a))
					for i, e := range a {
						out[i] = bson.E{Key: e.Key, Value: serialize(e.Value, scope, explain)}
					}
					return bson.D{{Key: op, Value: out}}
				}
			}
			return bson.D{{Key: op, Value: bson.A{serialize(arg, scope, explain)}}}
		}
		out := make(bson.D, len(s))
		for i, e := range s {
			out[i] = bson.E{Key: e.Key, Value: serialize(e.Value, scope, explain)}
		}
		return out
	}
	return bson.D{{Key: "$const", Value: spec}}
}

// isFoldable reports whether spec depends on no document, variable or
// randomness, so that mongod's optimize() would fold it to a constant.
func isFoldable(spec any) bool {
	switch s := spec.(type) {
	case string:
		return !strings.HasPrefix(s, "$")
	case bson.A:
		for _, e := range s {
			if !isFoldable(e) {
				return false
			}
		}
		return true
	case bson.D:
		for _, e := range s {
			switch e.Key {
			case "$rand", "$meta":
				return false
			case "$literal", "$const":
				continue
			}
			if !isFoldable(e.Value) {
				return false
			}
		}
		return true
	}
	return true
}

// serializeLeading serializes the arguments of a left-associative operator
// as its optimize() leaves them: the constants before the first other
// argument, when two or more, shown as their one value (see foldLeading).
func serializeLeading(op string, args bson.A, scope *Scope, explain bool) bson.A {
	n := 0
	for n < len(args) && isFoldable(args[n]) {
		n++
	}
	out := serialize(args, scope, explain).(bson.A)
	if n < 2 {
		return out
	}
	e, err := Compile(bson.D{{Key: op, Value: args[:n]}}, scope)
	if err != nil {
		return out
	}
	v, err := e.Eval(NewEnv(bson.D{}, 0))
	if err != nil {
		return out
	}
	return append(bson.A{bson.D{{Key: "$const", Value: v}}}, out[n:]...)
}

// serializeAndOr is $and or $or as optimize() leaves them
// (ExpressionNary::optimize gathers a commutative operator's constants
// into one at the back, then ExpressionAnd::optimize and
// ExpressionOr::optimize look at it): a deciding constant (false for
// $and, true for $or) makes the whole that constant; the other one is
// dropped. A single argument left is coerced to a boolean, which explain
// shows as $coerceToBool and any other serialization as $and
// (ExpressionCoerceToBool::serialize): a $match split or moved is compiled
// again from Serialize's form, so it is the $and, which parses; only
// SerializeExplain writes $coerceToBool.
//
// Both are fully associative: an argument that stays the same operator
// (not one coerced to a boolean) gives its arguments to this one, as
// ExpressionNary::optimize flattens it, before the constants are looked at.
func serializeAndOr(op string, args bson.A, scope *Scope, explain bool) any {
	isAnd := op == "$and"
	rest := make(bson.A, 0, len(args))
	operands := 0
	for _, a := range args {
		out := serialize(a, scope, explain)
		if d, ok := out.(bson.D); ok && len(d) == 1 && d[0].Key == "$const" {
			operands++
			if IsTrue(d[0].Value) != isAnd {
				return bson.D{{Key: "$const", Value: !isAnd}}
			}
			continue
		}
		if inner, ok := sameAndOr(op, a, out); ok {
			operands += len(inner)
			rest = append(rest, inner...)
			continue
		}
		operands++
		rest = append(rest, out)
	}
	if len(rest) == 1 && len(rest) < operands {
		if explain {
			return bson.D{{Key: "$coerceToBool", Value: rest}}
		}
		return bson.D{{Key: "$and", Value: rest}}
	}
	return bson.D{{Key: op, Value: rest}}
}

// sameAndOr returns the arguments of out, spec serialized, when it is still
// the operator op: neither folded to a constant nor reduced to a single
// argument coerced to a boolean (ExpressionCoerceToBool, not an
// ExpressionNary, is not flattened).
func sameAndOr(op string, spec, out any) (bson.A, bool) {
	d, ok := out.(bson.D)
	if !ok || len(d) != 1 || d[0].Key != op {
		return nil, false
	}
	args, _ := d[0].Value.(bson.A)
	s, _ := spec.(bson.D)
	if len(s) != 1 || s[0].Key != op {
		return nil, false
	}
	if given, ok := s[0].Value.(bson.A); ok && len(args) == 1 && len(given) > 1 {
		return nil, false
	}
	return args, true
}

// associativity is ExpressionNary::getAssociativity and isCommutative
// (expression.h) for the operators 8.0 calls fully associative; $add and
// $multiply are left associative (leftAssociative), $and and $or have
// their own serialization (serializeAndOr). $sum, $min and $max
// (ExpressionFromAccumulator) are associative only over more than one
// argument: a single one is an array they accumulate.
func associativity(op string, args int) (full, commutative bool) {
	switch op {
	case "$concat", "$concatArrays":
		return true, false
	case "$setUnion", "$setIntersection", "$bitAnd", "$bitOr", "$bitXor":
		return true, true
	case "$sum", "$min", "$max":
		return args > 1, true
	}
	return false, false
}

// serializeAssociative serializes the arguments of a fully associative
// operator as ExpressionNary::optimize leaves them: an argument that is
// the same operator, itself fully associative, is replaced by its
// arguments; then a commutative operator's constants move behind the
// other arguments, and each run of two or more constants is shown as the
// one value it evaluates to (see foldAssociative).
func serializeAssociative(op string, args bson.A, commutative bool, scope *Scope, explain bool) bson.A {
	flat := make(bson.A, 0, len(args))
	for _, a := range args {
		out := serialize(a, scope, explain)
		if d, ok := out.(bson.D); ok && len(d) == 1 && d[0].Key == op {
			if inner, ok := d[0].Value.(bson.A); ok {
				if full, _ := associativity(op, len(inner)); full {
					flat = append(flat, inner...)
					continue
				}
			}
		}
		flat = append(flat, out)
	}
	out := make(bson.A, 0, len(flat))
	var run bson.A
	flush := func() {
		if len(run) > 1 {
			if e, err := Compile(bson.D{{Key: op, Value: run}}, scope); err == nil {
				if v, err := e.Eval(NewEnv(bson.D{}, 0)); err == nil {
					out = append(out, bson.D{{Key: "$const", Value: v}})
					run = nil
					return
				}
			}
		}
		out = append(out, run...)
		run = nil
	}
	for _, a := range flat {
		if d, ok := a.(bson.D); ok && len(d) == 1 && d[0].Key == "$const" {
			run = append(run, a)
			continue
		}
		if !commutative {
			flush()
		}
		out = append(out, a)
	}
	flush()
	return out
}

// IsNOperator reports the operators built on AccumulatorN ($firstN,
// $lastN, $minN, $maxN), which take {n, input} as accumulators, window
// functions and expressions alike.
func IsNOperator(op string) bool {
	switch op {
	case "$firstN", "$lastN", "$minN", "$maxN":
		return true
	}
	return false
}

// isConstSpec reports a serialized {$const: v}, and v.
func isConstSpec(out any) (any, bool) {
	if d, ok := out.(bson.D); ok && len(d) == 1 && d[0].Key == "$const" {
		return d[0].Value, true
	}
	return nil, false
}

// serializeCond is $cond as ExpressionCond::optimize leaves it: a constant
// condition is replaced by the branch it picks; otherwise the three
// arguments serialize as an array (ExpressionNary::serialize), whichever
// form was written. ok is false for a malformed argument, left to the
// general form.
func serializeCond(arg any, scope *Scope, explain bool) (any, bool) {
	var ifSpec, thenSpec, elseSpec any
	switch a := arg.(type) {
	case bson.A:
		if len(a) != 3 {
			return nil, false
		}
		ifSpec, thenSpec, elseSpec = a[0], a[1], a[2]
	case bson.D:
		ifSpec, thenSpec, elseSpec = value.Get(a, "if"), value.Get(a, "then"), value.Get(a, "else")
		if len(a) != 3 || value.IsMissing(ifSpec) || value.IsMissing(thenSpec) || value.IsMissing(elseSpec) {
			return nil, false
		}
	default:
		return nil, false
	}
	cond := serialize(ifSpec, scope, explain)
	if v, ok := isConstSpec(cond); ok {
		if IsTrue(v) {
			return serialize(thenSpec, scope, explain), true
		}
		return serialize(elseSpec, scope, explain), true
	}
	return bson.D{{Key: "$cond", Value: bson.A{cond, serialize(thenSpec, scope, explain), serialize(elseSpec, scope, explain)}}}, true
}

// serializeIfNull is $ifNull as ExpressionIfNull::optimize leaves it: a
// null constant before the last argument is dropped, a non-null one drops
// every argument after it, and a single argument left stands alone.
func serializeIfNull(args bson.A, scope *Scope, explain bool) any {
	out := make(bson.A, 0, len(args))
	for i, a := range args {
		ser := serialize(a, scope, explain)
		if v, ok := isConstSpec(ser); ok && i < len(args)-1 {
			if nullish(v) {
				continue
			}
			out = append(out, ser)
			break
		}
		out = append(out, ser)
	}
	if len(out) == 1 {
		return out[0]
	}
	return bson.D{{Key: "$ifNull", Value: out}}
}

// serializeSwitch is ExpressionSwitch::serialize: each branch as {case,
// then}, each serialized, then the default when there is one.
func serializeSwitch(arg any, scope *Scope, explain bool) (any, bool) {
	d, ok := arg.(bson.D)
	if !ok {
		return nil, false
	}
	branches, ok := value.Get(d, "branches").(bson.A)
	if !ok {
		return nil, false
	}
	out := make(bson.A, len(branches))
	for i, b := range branches {
		bd, ok := b.(bson.D)
		if !ok {
			return nil, false
		}
		caseSpec, thenSpec := value.Get(bd, "case"), value.Get(bd, "then")
		if value.IsMissing(caseSpec) || value.IsMissing(thenSpec) {
			return nil, false
		}
		out[i] = bson.D{{Key: "case", Value: serialize(caseSpec, scope, explain)}, {Key: "then", Value: serialize(thenSpec, scope, explain)}}
	}
	body := bson.D{{Key: "branches", Value: out}}
	if def := value.Get(d, "default"); !value.IsMissing(def) {
		body = append(body, bson.E{Key: "default", Value: serialize(def, scope, explain)})
	}
	return bson.D{{Key: "$switch", Value: body}}, true
}

// serializeLet is ExpressionLet::serialize: vars with each value
// serialized (an object of constants stays an object), then in.
func serializeLet(arg any, scope *Scope, explain bool) (any, bool) {
	d, ok := arg.(bson.D)
	if !ok || len(d) != 2 {
		return nil, false
	}
	vars, ok := value.Get(d, "vars").(bson.D)
	in := value.Get(d, "in")
	if !ok || value.IsMissing(in) {
		return nil, false
	}
	out := make(bson.D, len(vars))
	for i, v := range vars {
		out[i] = bson.E{Key: v.Key, Value: serialize(v.Value, scope, explain)}
	}
	return bson.D{{Key: "$let", Value: bson.D{{Key: "vars", Value: out}, {Key: "in", Value: serialize(in, scope, explain)}}}}, true
}

// serializeIteration is ExpressionMap::serialize and
// ExpressionFilter::serialize: input, the variable's name (as, "this" when
// not given), then in (or cond and, when given, limit), each serialized.
func serializeIteration(op string, arg any, scope *Scope, explain bool) (any, bool) {
	d, ok := arg.(bson.D)
	if !ok {
		return nil, false
	}
	input := value.Get(d, "input")
	as := value.Get(d, "as")
	if value.IsMissing(as) {
		as = "this"
	}
	body := bson.D{{Key: "input", Value: serialize(input, scope, explain)}, {Key: "as", Value: as}}
	fields := []string{"in"}
	if op == "$filter" {
		fields = []string{"cond", "limit"}
	}
	for _, f := range fields {
		if v := value.Get(d, f); !value.IsMissing(v) {
			body = append(body, bson.E{Key: f, Value: serialize(v, scope, explain)})
		}
	}
	if value.IsMissing(input) || len(body) == 2 {
		return nil, false
	}
	return bson.D{{Key: op, Value: body}}, true
}

// serializeZip is ExpressionZip::serialize: inputs and defaults element by
// element (defaults [] when not given), then useLongestLength as a plain
// boolean (false when not given).
func serializeZip(arg any, scope *Scope, explain bool) (any, bool) {
	d, ok := arg.(bson.D)
	if !ok {
		return nil, false
	}
	inputs, ok := value.Get(d, "inputs").(bson.A)
	if !ok {
		return nil, false
	}
	defaults := bson.A{}
	if v := value.Get(d, "defaults"); !value.IsMissing(v) {
		if defaults, ok = v.(bson.A); !ok {
			return nil, false
		}
	}
	longest, _ := value.Get(d, "useLongestLength").(bool)
	each := func(a bson.A) bson.A {
		out := make(bson.A, len(a))
		for i, e := range a {
			out[i] = serialize(e, scope, explain)
		}
		return out
	}
	return bson.D{{Key: "$zip", Value: bson.D{
		{Key: "inputs", Value: each(inputs)}, {Key: "defaults", Value: each(defaults)}, {Key: "useLongestLength", Value: longest}}}}, true
}
