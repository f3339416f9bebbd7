package aggregate

import (
	"math"
	"slices"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The window functions that are not accumulators over a window: the ranks,
// $shift, $derivative, $integral, $expMovingAvg, $locf and $linearFill.
// Each computes its values for a whole sorted partition.

// parseRank is ExpressionFromRankAccumulator::parse ($rank, $denseRank,
// $documentNumber): ranked by the one sortBy field's value, as an int
// (Value::createIntOrLong).
func (o *windowOutput) parseRank(d bson.D, sortBy *sortSpec) error {
	if len(d) != 1 {
		return mongoerr.New(mongoerr.ErrWindowRankArguments, "Rank style window functions take no other arguments")
	}
	if a, ok := d[0].Value.(bson.D); !ok || len(a) != 0 {
		return mongoerr.Newf(mongoerr.ErrWindowRankNotEmpty, "%s must be specified with '{}' as the value", o.op)
	}
	if sortBy == nil || len(sortBy.Paths) != 1 {
		return mongoerr.Newf(mongoerr.ErrWindowRankSortBy, "%s must be specified with a top level sortBy expression with exactly one element", o.op)
	}
	op := o.op
	o.fn = func(part []windowRow, _ *expr.Env, _ *arith) ([]any, error) {
		vals := make([]any, len(part))
		rank, dense := 1, 1
		for i := range part {
			if i > 0 && !sameRank(part[i], part[i-1]) {
				rank = i + 1
				dense++
			}
			switch op {
			case "$documentNumber":
				vals[i] = int32(i + 1)
			case "$rank":
				vals[i] = int32(rank)
			default:
				vals[i] = int32(dense)
			}
		}
		return vals, nil
	}
	return nil
}

// sameRank is accumulator_rank.cpp's isSameValue: null and missing tie,
// and an array ties with what its sort key is ([null] with null).
func sameRank(a, b windowRow) bool {
	if nullish(a.sortValue) && nullish(b.sortValue) {
		return true
	}
	if value.IsArray(a.sortValue) || value.IsArray(b.sortValue) {
		return value.Compare(a.key[0], b.key[0]) == 0
	}
	return value.Compare(a.sortValue, b.sortValue) == 0
}

// parseShift reads $shift (window_function_shift.cpp): the output
// expression evaluated on the document by places away in the partition,
// else the constant default.
func (o *windowOutput) parseShift(d bson.D, sortBy *sortSpec, p *parser) error {
	// ExpressionShift::parse reads the fields in order and parses $shift's
	// arguments where it meets them, so an argument's error comes before
	// that of a later field.
	var args *shiftArgs
	for _, e := range d {
		switch {
		case e.Key == "window":
			return mongoerr.New(mongoerr.FailedToParse, "$shift does not accept a 'window' field")
		case windowFunctions[e.Key]:
			if args != nil {
				return mongoerr.New(mongoerr.FailedToParse, "Cannot specify multiple functions in window function spec")
			}
			a, ok := e.Value.(bson.D)
			if !ok {
				return mongoerr.New(mongoerr.FailedToParse, "Argument to $shift must be an object")
			}
			var err error
			if args, err = parseShiftArgs(a, p); err != nil {
				return err
			}
		default:
			return mongoerr.Newf(mongoerr.FailedToParse, "Window function found an unknown argument: %s", e.Key)
		}
	}
	if sortBy == nil {
		return mongoerr.New(mongoerr.FailedToParse, "'$shift' requires a sortBy")
	}
	out, def, by := args.output, args.def, args.by
	o.fn = func(part []windowRow, env *expr.Env, _ *arith) ([]any, error) {
		vals := make([]any, len(part))
		for i := range part {
			j := i + by
			var v any = value.Missing{}
			var err error
			if j >= 0 && j < len(part) {
				env.Reset(part[j].doc)
				v, err = out.Eval(env)
			}
			// Out of the partition, or missing there: the default
			// (shift.js: a missing output gives the default).
			if err == nil && value.IsMissing(v) && def != nil {
				v, err = def.Eval(env)
			}
			if err != nil {
				return nil, err
			}
			vals[i] = missingToNull(v)
		}
		return vals, nil
	}
	return nil
}

// shiftArgs are $shift's arguments: {output: EXPR, by: INT, default: CONSTEXPR}.
type shiftArgs struct {
	output, def expr.Expr
	by          int
}

// parseShiftArgs is ExpressionShift::parseShiftArgs
// (window_function_shift.cpp).
func parseShiftArgs(a bson.D, p *parser) (*shiftArgs, error) {
	var out, def expr.Expr
	by, haveBy := 0, false
	for _, e := range a {
		switch e.Key {
		case "output":
			x, err := p.compile(e.Value)
			if err != nil {
				return nil, err
			}
			out = x
		case "by":
			n, ok := value.IntegralLong(e.Value)
			if !value.IsNumber(e.Value) || !ok || n != int64(int32(n)) {
				return nil, mongoerr.New(mongoerr.FailedToParse, "'$shift:by' field must be an integer, but found  "+value.FormatElem("by", e.Value))
			}
			by, haveBy = int(n), true
		case "default":
			x, err := p.compile(e.Value)
			if err != nil {
				return nil, err
			}
			if _, ok := expr.IsConstant(x); !ok {
				return nil, mongoerr.New(mongoerr.FailedToParse, "'$shift:default' expression must yield a constant value.")
			}
			def = x
		default:
			return nil, mongoerr.New(mongoerr.FailedToParse, "Unknown argument in $shift")
		}
	}
	if out == nil {
		return nil, mongoerr.New(mongoerr.FailedToParse, "$shift requires an 'output' expression.")
	}
	if !haveBy {
		return nil, mongoerr.New(mongoerr.FailedToParse, "$shift requires 'by' as an integer value.")
	}
	return &shiftArgs{output: out, def: def, by: by}, nil
}

// windowUnitMillis are the units $derivative and $integral accept, as
// timeUnitTypicalMilliseconds gives them.
var windowUnitMillis = map[string]int64{
	"week": 7 * 24 * 3600 * 1000, "day": 24 * 3600 * 1000, "hour": 3600 * 1000,
	"minute": 60 * 1000, "second": 1000, "millisecond": 1,
}

// parseWithUnit reads $derivative and $integral (ExpressionDerivative and
// ExpressionIntegral::parse): {input, unit}, over a sortBy on one field.
func (o *windowOutput) parseWithUnit(d bson.D, sortBy *sortSpec, p *parser) error {
	switch {
	case sortBy == nil:
		return mongoerr.Newf(mongoerr.FailedToParse, "%s requires a sortBy", o.op)
	case len(sortBy.Paths) != 1:
		return mongoerr.Newf(mongoerr.FailedToParse, "%s requires a non-compound sortBy", o.op)
	}
	var args any = value.Missing{}
	haveWindow := false
	for _, e := range d {
		switch e.Key {
		case "window":
			if haveWindow && o.op == "$integral" {
				return mongoerr.New(mongoerr.FailedToParse, "There can be only one 'window' field for $integral")
			}
			b, err := parseWindowBounds(e.Value, sortBy, p)
			if err != nil {
				return err
			}
			o.bounds, haveWindow = b, true
		case o.op:
			args = e.Value
		default:
			return mongoerr.Newf(mongoerr.FailedToParse, "%s got unexpected argument: %s", o.op, e.Key)
		}
	}
	a, ok := args.(bson.D)
	if !ok {
		return mongoerr.Newf(mongoerr.FailedToParse, "%s expects an object, but got a %s: %s", o.op, typeNameOf(args), value.FormatElem(o.op, args))
	}
	var input expr.Expr
	var unitMs int64
	haveUnit := false
	for _, e := range a {
		switch e.Key {
		case "input":
			x, err := p.compile(e.Value)
			if err != nil {
				return err
			}
			input = x
		case "unit":
			if haveUnit && o.op == "$integral" {
				return mongoerr.New(mongoerr.FailedToParse, "There can be only one 'unit' field for $integral")
			}
			u, ok := e.Value.(string)
			if !ok {
				return mongoerr.Newf(mongoerr.FailedToParse, "unit' must be a string, but got %s", typeNameOf(e.Value))
			}
			if _, err := parseTimeUnit(u); err != nil {
				return err
			}
			ms, ok := windowUnitMillis[u]
			if !ok {
				return mongoerr.New(mongoerr.ErrWindowUnitTooLarge, "unit must be 'week' or smaller")
			}
			unitMs, haveUnit = ms, true
		default:
			return mongoerr.Newf(mongoerr.FailedToParse, "%s got unexpected argument: %s", o.op, e.Key)
		}
	}
	if input == nil {
		return mongoerr.Newf(mongoerr.FailedToParse, "%s requires an 'input' expression", o.op)
	}
	if o.op == "$derivative" {
		if !haveWindow {
			return mongoerr.New(mongoerr.FailedToParse, "$derivative requires explicit window bounds")
		}
		o.fn = o.derivative(input, unitMs)
		return nil
	}
	o.fn = o.integral(input, unitMs)
	return nil
}

// derivative is WindowFunctionExecDerivative: (y2 - y1) / (x2 - x1) between
// the first and last documents of each window, x the sortBy value, per
// unit when a unit is given (then x must be a date).
func (o *windowOutput) derivative(input expr.Expr, unitMs int64) func([]windowRow, *expr.Env, *arith) ([]any, error) {
	return func(part []windowRow, env *expr.Env, ar *arith) ([]any, error) {
		vals := make([]any, len(part))
		for i := range part {
			lo, hi, ok, err := o.bounds.window(part, i, env, ar)
			if err != nil {
				return nil, err
			}
			if !ok {
				vals[i] = nil
				continue
			}
			x1, x2 := part[lo].sortValue, part[hi].sortValue
			_, date1 := x1.(bson.DateTime)
			_, date2 := x2.(bson.DateTime)
			if unitMs != 0 {
				if !date1 || !date2 {
					return nil, mongoerr.New(mongoerr.ErrDerivativeUnitNeedsDate, "$derivative with 'unit' expects the sortBy field to be a Date")
				}
			} else {
				if date1 || date2 {
					return nil, mongoerr.New(mongoerr.ErrDerivativeDateNeedsUnit, "$derivative where the sortBy is a Date requires an 'unit'")
				}
				if !value.IsNumber(x1) || !value.IsNumber(x2) {
					return nil, mongoerr.New(mongoerr.ErrDerivativeNeedsNumber, "$derivative (with no 'unit') expects the sortBy field to be numeric")
				}
			}
			run, err := ar.Sub(x2, x1)
			if err != nil {
				return nil, err
			}
			env.Reset(part[hi].doc)
			y2, err := input.Eval(env)
			if err != nil {
				return nil, err
			}
			env.Reset(part[lo].doc)
			y1, err := input.Eval(env)
			if err != nil {
				return nil, err
			}
			rise, err := ar.Sub(y2, y1)
			if err != nil {
				return nil, err
			}
			if rise == nil || value.IsMissing(rise) {
				return nil, mongoerr.New(mongoerr.ErrDerivativeInputNullish, "$derivative input must not be null or missing")
			}
			r, err := ar.Div(rise, run)
			if err != nil {
				if mongoerr.As(err).Code == mongoerr.BadValue {
					vals[i] = nil // a window of one document: run is zero
					continue
				}
				return nil, err
			}
			if unitMs != 0 {
				if r, err = ar.Mul(r, unitMs); err != nil {
					return nil, err
				}
			}
			vals[i] = r
		}
		return vals, nil
	}
}

// integral is WindowFunctionIntegral: the trapezoidal rule over each
// window's points (sortBy value, input), per unit when a unit is given.
func (o *windowOutput) integral(input expr.Expr, unitMs int64) func([]windowRow, *expr.Env, *arith) ([]any, error) {
	return func(part []windowRow, env *expr.Env, ar *arith) ([]any, error) {
		ys := make([]any, len(part))
		for i, r := range part {
			env.Reset(r.doc)
			y, err := input.Eval(env)
			if err != nil {
				return nil, err
			}
			ys[i] = y
		}
		check := func(i int) error {
			x := part[i].sortValue
			_, isDate := x.(bson.DateTime)
			if !value.IsNumber(ys[i]) || !(value.IsNumber(x) || isDate) {
				return mongoerr.New(mongoerr.ErrIntegralInput, "The input value of $integral window function must be a vector of 2 value, the first value must be numeric or date type and the second must be numeric.")
			}
			if unitMs != 0 && !isDate {
				return mongoerr.New(mongoerr.ErrIntegralUnitNeedsDate, "$integral with 'unit' expects the sortBy field to be a Date")
			}
			if unitMs == 0 && !value.IsNumber(x) {
				return mongoerr.New(mongoerr.ErrIntegralNeedsNumber, "$integral (with no 'unit') expects the sortBy field to be numeric")
			}
			return nil
		}
		vals := make([]any, len(part))
		for i := range part {
			lo, hi, ok, err := o.bounds.window(part, i, env, ar)
			if err != nil {
				return nil, err
			}
			if !ok {
				vals[i] = nil
				continue
			}
			var sum expr.Sum
			sum.Add(int32(0))
			nan := false
			for k := lo; k <= hi; k++ {
				if err := env.Tick(); err != nil {
					return nil, err
				}
				if err := check(k); err != nil {
					return nil, err
				}
				if value.IsNaN(part[k].sortValue) || value.IsNaN(ys[k]) {
					nan = true
				}
				if k == lo {
					continue
				}
				if value.IsNaN(part[k-1].sortValue) || value.IsNaN(ys[k-1]) || value.IsNaN(part[k].sortValue) || value.IsNaN(ys[k]) {
					continue
				}
				delta, err := ar.Sub(part[k].sortValue, part[k-1].sortValue)
				if err != nil {
					return nil, err
				}
				sumY, err := ar.Add(ys[k], ys[k-1])
				if err != nil {
					return nil, err
				}
				area, err := ar.Mul(sumY, delta)
				if err != nil {
					return nil, err
				}
				if area, err = ar.Div(area, 2.0); err != nil {
					return nil, err
				}
				sum.Add(area)
			}
			var r any = sum.Result()
			if nan {
				r = math.NaN()
			}
			if unitMs != 0 {
				if r, err = ar.Div(r, unitMs); err != nil {
					return nil, err
				}
			}
			vals[i] = r
		}
		return vals, nil
	}
}

// parseExpMovingAvg is ExpressionExpMovingAvg::parse.
func (o *windowOutput) parseExpMovingAvg(d bson.D, sortBy *sortSpec, p *parser) error {
	const shape = "$expMovingAvg sub object must have exactly two fields: An 'input' field, and either an 'N' field or an 'alpha' field"
	sub, ok := d[0].Value.(bson.D)
	if len(d) != 1 || !ok {
		return mongoerr.New(mongoerr.FailedToParse, "$expMovingAvg must have exactly one argument that is an object")
	}
	inputSpec, haveInput := lookupField(sub, "input")
	if len(sub) != 2 || !haveInput {
		return mongoerr.New(mongoerr.FailedToParse, shape)
	}
	if sortBy == nil {
		return mongoerr.New(mongoerr.FailedToParse, "$expMovingAvg requires an explicit 'sortBy'")
	}
	input, err := p.compile(inputSpec)
	if err != nil {
		return err
	}
	var alpha any
	if n, ok := lookupField(sub, "N"); ok {
		if !value.IsNumber(n) {
			return mongoerr.Newf(mongoerr.FailedToParse, "'N' field must be an integer, but found type %s", typeNameOf(n))
		}
		f := value.ToDouble(n)
		if f != math.Floor(f) {
			return mongoerr.Newf(mongoerr.FailedToParse, "'N' field must be an integer, but found  %s. To use a non-integer, use the 'alpha' argument instead", value.FormatElem("N", n))
		}
		// safeNumberLong: an N past the long range (or infinite) saturates.
		nNum, _ := value.SafeNumberLong(n)
		if nNum <= 0 {
			return mongoerr.Newf(mongoerr.FailedToParse, "'N' must be greater than zero. Got %d", nNum)
		}
		// alpha = 2 / (N + 1), in decimal as mongod computes it; N + 1
		// is formed unsigned, as it passes the long range for N = 2^63-1.
		nPlusOne, _ := bson.ParseDecimal128(strconv.FormatUint(uint64(nNum)+1, 10))
		alpha, err = expr.Divide(decimalOf(2), nPlusOne)
		if err != nil {
			return err
		}
	} else if a, ok := lookupField(sub, "alpha"); ok {
		if !value.IsNumber(a) {
			return mongoerr.New(mongoerr.FailedToParse, "'alpha' must be a number")
		}
		// The bounds are checked on alpha as a decimal (numberDecimal(): a
		// double rounded to 15 digits), so 0.9999999999999999 is 1 and a
		// decimal just under 1 passes.
		if d := decimalOfValue(a); !(value.Compare(d, int32(0)) > 0 && value.Compare(d, int32(1)) < 0) {
			return mongoerr.Newf(mongoerr.FailedToParse, "'alpha' must be between 0 and 1 (exclusive), found %s", value.FormatElem("alpha", a))
		}
		alpha = a
	} else {
		return mongoerr.New(mongoerr.FailedToParse, "Got unrecognized field in $expMovingAvg"+shape)
	}
	o.fn = func(part []windowRow, env *expr.Env, ar *arith) ([]any, error) {
		return expMovingAvg(part, input, alpha, env, ar)
	}
	return nil
}

// expMovingAvg is AccumulatorExpMovingAvg over [unbounded, current]:
// result = input * alpha + result * (1 - alpha), starting from the first
// number, other values skipped. mongod keeps the result in a decimal and
// hands it out as a double unless an input was a decimal.
func expMovingAvg(part []windowRow, input expr.Expr, alpha any, env *expr.Env, ar *arith) ([]any, error) {
	vals := make([]any, len(part))
	alphaD := decimalOfValue(alpha)
	oneMinus, err := ar.Sub(decimalOf(1), alphaD)
	if err != nil {
		return nil, err
	}
	var cur any // a decimal once a number is seen
	decimal := false
	for i, r := range part {
		env.Reset(r.doc)
		v, err := input.Eval(env)
		if err != nil {
			return nil, err
		}
		if value.IsNumber(v) {
			if _, isDec := v.(bson.Decimal128); isDec {
				decimal = true
			}
			if cur == nil {
				cur = decimalOfValue(v)
			} else {
				a, err := ar.Mul(decimalOfValue(v), alphaD)
				if err != nil {
					return nil, err
				}
				b, err := ar.Mul(cur, oneMinus)
				if err != nil {
					return nil, err
				}
				if cur, err = ar.Add(a, b); err != nil {
					return nil, err
				}
			}
		}
		switch {
		case cur == nil:
			vals[i] = nil
		case decimal:
			vals[i] = cur
		default:
			vals[i] = value.ToDouble(cur)
		}
	}
	return vals, nil
}

// decimalOf is an integer as a decimal.
func decimalOf(n int64) bson.Decimal128 {
	d, _ := bson.ParseDecimal128(strconv.FormatInt(n, 10))
	return d
}

// decimalOfValue converts a number to a decimal as Value::coerceToDecimal
// does: a double rounded to 15 significant digits (0.5 is
// 0.500000000000000).
func decimalOfValue(v any) bson.Decimal128 {
	switch x := v.(type) {
	case bson.Decimal128:
		return x
	case int32:
		return decimalOf(int64(x))
	case int64:
		return decimalOf(x)
	case float64:
		d, _ := bson.ParseDecimal128(strconv.FormatFloat(x, 'e', 14, 64))
		return d
	}
	return bson.Decimal128{}
}

// parseFill reads $locf and $linearFill
// (ExpressionFromLeftUnboundedWindowFunction and ExpressionLinearFill):
// one expression, no window.
func (o *windowOutput) parseFill(d bson.D, sortBy *sortSpec, p *parser) error {
	var input expr.Expr
	haveWindow := false
	for _, e := range d {
		switch {
		case e.Key == "window":
			haveWindow = true
		case windowFunctions[e.Key]:
			if input != nil {
				return mongoerr.New(mongoerr.FailedToParse, "Cannot specify two functions in window function spec")
			}
			// The input parses where it stands, before the checks below.
			var err error
			if input, err = p.compile(e.Value); err != nil {
				return err
			}
		default:
			return mongoerr.Newf(mongoerr.FailedToParse, "Window function found an unknown argument: %s", e.Key)
		}
	}
	if haveWindow {
		return mongoerr.Newf(mongoerr.FailedToParse, "'window' field is not allowed in %s", o.op)
	}
	if o.op == "$linearFill" && (sortBy == nil || len(sortBy.Paths) != 1) {
		return mongoerr.New(mongoerr.ErrLinearFillSortBy, "$linearFill must be specified with a top level sortBy expression with exactly one element")
	}
	if o.op == "$locf" {
		o.fn = func(part []windowRow, env *expr.Env, _ *arith) ([]any, error) {
			vals := make([]any, len(part))
			var last any
			for i, r := range part {
				env.Reset(r.doc)
				v, err := input.Eval(env)
				if err != nil {
					return nil, err
				}
				if !nullish(v) {
					last = v
				}
				vals[i] = last
			}
			return vals, nil
		}
		return nil
	}
	o.fn = func(part []windowRow, env *expr.Env, ar *arith) ([]any, error) {
		return linearFill(part, input, env, ar)
	}
	return nil
}

// linearFill is WindowFunctionExecLinearFill: a nullish value between two
// known points is interpolated along the sortBy value; before the first
// or after the last known point it stays null. Documents are checked in
// order as each comes to be filled, and the next known point is the next
// document whose value and sortBy value are not nullish, whatever their
// type: a string there fails the interpolation's arithmetic before its
// own document is checked.
func linearFill(part []windowRow, input expr.Expr, env *expr.Env, ar *arith) ([]any, error) {
	ys := make([]any, len(part))
	evaluated := make([]bool, len(part))
	eval := func(i int) (any, error) {
		if !evaluated[i] {
			env.Reset(part[i].doc)
			y, err := input.Eval(env)
			if err != nil {
				return nil, err
			}
			ys[i], evaluated[i] = y, true
		}
		return ys[i], nil
	}
	vals := make([]any, len(part))
	// left is the last known point; right the next one of the current
	// run of nullish values, len(part) when there is none.
	left, right := -1, -1
	for i := range part {
		y, err := eval(i)
		if err != nil {
			return nil, err
		}
		if !value.IsNumber(y) && !nullish(y) {
			return nil, mongoerr.Newf(mongoerr.TypeMismatch, "Value to be filled must be numeric or nullish, but found %s", typeNameOf(y))
		}
		x := part[i].sortValue
		if !value.IsNumber(x) && !coercibleToDate(x) {
			return nil, mongoerr.Newf(mongoerr.TypeMismatch, "Value of the sortBy field must be numeric or a date, but found %s", typeNameOf(x))
		}
		if i > 0 {
			prev := part[i-1].sortValue
			if value.Compare(x, prev) == 0 {
				return nil, mongoerr.New(mongoerr.ErrLinearFillRepeatedSort, "There can be no repeated values in the sort field")
			}
			if value.IsNumber(x) != value.IsNumber(prev) {
				return nil, mongoerr.Newf(mongoerr.TypeMismatch, "Conflicting sort value types, previously received type %s, but found %s", typeNameOf(prev), typeNameOf(x))
			}
		}
		if !nullish(y) {
			vals[i], left, right = y, i, -1
			continue
		}
		if left < 0 {
			continue
		}
		if right < 0 {
			right = len(part)
			for j := i + 1; j < len(part); j++ {
				yj, err := eval(j)
				if err != nil {
					return nil, err
				}
				if !nullish(yj) && !nullish(part[j].sortValue) {
					right = j
					break
				}
			}
		}
		if right == len(part) {
			continue
		}
		v, err := interpolate(ar, part[left].sortValue, ys[left], part[right].sortValue, ys[right], x)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	return vals, nil
}

// interpolate solves y = y1 + (x - x1) * ((y2 - y1) / (x2 - x1)) with
// mongod's arithmetic.
func interpolate(ar *arith, x1, y1, x2, y2, x any) (any, error) {
	dy, err := ar.Sub(y2, y1)
	if err != nil {
		return nil, err
	}
	dx, err := ar.Sub(x2, x1)
	if err != nil {
		return nil, err
	}
	slope, err := ar.Div(dy, dx)
	if err != nil {
		return nil, err
	}
	off, err := ar.Sub(x, x1)
	if err != nil {
		return nil, err
	}
	m, err := ar.Mul(off, slope)
	if err != nil {
		return nil, err
	}
	return ar.Add(y1, m)
}

// coercibleToDate is Value::coercibleToDate: a date, timestamp or ObjectId.
func coercibleToDate(v any) bool {
	switch v.(type) {
	case bson.DateTime, bson.Timestamp, bson.ObjectID:
		return true
	}
	return false
}

func nullish(v any) bool {
	switch v.(type) {
	case nil, value.Missing, bson.Undefined:
		return true
	}
	return false
}

// ---- the removable window states that answer unlike $group's ----

// sortedSetAcc is WindowFunctionAddToSet, an ordered multiset: the
// distinct values in BSON order, each as the first of its equals to arrive.
// ($max's multiset answers its last element, the latest of equal maxima:
// minMaxAcc.latestTie.)
type sortedSetAcc struct{ addToSetAcc }

func (a *sortedSetAcc) result() any {
	out := slices.Clone(a.arr)
	slices.SortStableFunc(out, value.Compare)
	return out
}

// removableSumAcc is WindowFunctionSum and removableAvgAcc
// WindowFunctionAvg (window_function_sum.h, window_function_avg.h): a
// sliding window removes the values that leave it (slideWindow), so the
// total keeps the type the values held made it (a decimal that left
// still sums the doubles as decimals) before RemovableSum narrows it.
type removableSumAcc struct{ s removableSum }

func (a *removableSumAcc) add(v any) error    { a.s.update(v, 1); return nil }
func (a *removableSumAcc) remove(v any) error { a.s.update(v, -1); return nil }
func (a *removableSumAcc) result() any        { return a.s.value() }

type removableAvgAcc struct{ a removableAvg }

func (a *removableAvgAcc) add(v any) error    { a.a.update(v, 1); return nil }
func (a *removableAvgAcc) remove(v any) error { a.a.update(v, -1); return nil }
func (a *removableAvgAcc) result() any        { return a.a.value() }

// removableStdDevAcc is WindowFunctionStdDev: running sums of the values
// and of the squared differences, in doubles, and the int 0 for a
// population of one (or a squared-difference sum rounded below zero),
// where $group's accumulator answers 0.0. A NaN or infinite value makes it
// NaN, as the window_function_stddev.h this follows has it (other versions
// answer null; no case pins this). Its state depends on the order of its
// adds and removes, not only on the window's values: a NaN or infinity
// counts in the count that weighs the finite values added or removed
// while it is in the window, so a sliding window feeds it as mongod does
// (slideDocuments).
type removableStdDevAcc struct {
	sample    bool
	n         int64
	nonFinite int64
	sum, m2   expr.Sum
}

func (a *removableStdDevAcc) add(v any) error {
	a.update(v, 1)
	return nil
}

func (a *removableStdDevAcc) remove(v any) error {
	a.update(v, -1)
	return nil
}

// update is WindowFunctionStdDev::update, q being 1 to add v and -1 to
// remove it.
func (a *removableStdDevAcc) update(v any, q int64) {
	if !value.IsNumber(v) {
		return
	}
	if nonFinite(v) {
		a.nonFinite += q
		a.n += q
		return
	}
	switch {
	case a.n == 0: // mongod takes this for an add
		a.n++
		a.sum.Add(v)
		return
	case a.n+q == 0:
		*a = removableStdDevAcc{sample: a.sample}
		return
	}
	f := value.ToDouble(v)
	x := float64(a.n)*f - value.ToDouble(a.sum.Result())
	a.n += q
	a.sum.Add(f * float64(q))
	a.m2.Add(x * x * float64(q) / float64(a.n*(a.n-q)))
}

func (a *removableStdDevAcc) result() any {
	if a.nonFinite > 0 {
		return math.NaN()
	}
	adjusted := a.n
	if a.sample {
		adjusted--
	}
	if adjusted == 0 {
		return nil
	}
	sq := value.ToDouble(a.m2.Result())
	if sq < 0 || (!a.sample && a.n == 1) {
		// getValue resets the squared differences here: the adds and
		// removes that follow start again from 0.
		a.m2 = expr.Sum{}
		return int32(0)
	}
	return math.Sqrt(sq / float64(adjusted))
}

// discreteQuantileAcc is WindowFunctionPercentile and WindowFunctionMedian
// (window_function_percentile.h): a removable window keeps every number
// and answers the exact discrete percentiles (computeTrueRank), where
// $group's accumulator and unbounded windows answer the t-digest's.
type discreteQuantileAcc struct {
	q    *expr.Quantile
	vals []float64
}

func (a *discreteQuantileAcc) add(v any) error {
	if value.IsNumber(v) {
		a.vals = append(a.vals, value.ToDouble(v))
	}
	return nil
}

func (a *discreteQuantileAcc) result() any {
	return a.q.Result(expr.DiscretePercentiles(slices.Clone(a.vals), a.q.Ps))
}

// ---- $covariancePop / $covarianceSamp ----

// covarianceAcc is WindowFunctionCovariance (window_function_covariance.cpp):
// Welford's online algorithm in mongod's value arithmetic, so a decimal
// input makes a decimal covariance; the running means are
// WindowFunctionAvg and the co-moment WindowFunctionSum, all removable. A
// pair with NaN or an infinity does not count: it adds one NaN or infinity
// to the co-moment (nonFinitePair). A sliding window removes pairs as
// mongod does (slideWindow), so its sums keep the same rounding.
type covarianceAcc struct {
	sample       bool
	ar           *arith // set by accumulate: the stage's arithmetic
	n            int64
	meanX, meanY removableAvg
	cXY          removableSum
}

func (a *covarianceAcc) add(v any) error {
	arr, ok := covariancePair(v)
	if !ok {
		return nil
	}
	if nonFinite(arr[0]) || nonFinite(arr[1]) {
		a.cXY.update(nonFinitePair(arr), 1)
		return nil
	}
	a.n++
	// Before the first pair the means are null, and so is the product.
	dx, err := a.ar.Sub(arr[0], a.meanX.value())
	if err != nil {
		return err
	}
	a.meanX.update(arr[0], 1)
	a.meanY.update(arr[1], 1)
	dy, err := a.ar.Sub(arr[1], a.meanY.value())
	if err != nil {
		return err
	}
	d, err := a.ar.Mul(dx, dy)
	if err != nil {
		return err
	}
	a.cXY.update(d, 1)
	return nil
}

// remove is WindowFunctionCovariance::remove: the last finite pair out
// resets every sum, a NaN or infinity counted in the co-moment included.
func (a *covarianceAcc) remove(v any) error {
	arr, ok := covariancePair(v)
	if !ok {
		return nil
	}
	if nonFinite(arr[0]) || nonFinite(arr[1]) {
		a.cXY.update(nonFinitePair(arr), -1)
		return nil
	}
	a.n--
	if a.n == 0 {
		*a = covarianceAcc{sample: a.sample, ar: a.ar}
		return nil
	}
	a.meanX.update(arr[0], -1)
	dx, err := a.ar.Sub(arr[0], a.meanX.value())
	if err != nil {
		return err
	}
	dy, err := a.ar.Sub(arr[1], a.meanY.value())
	if err != nil {
		return err
	}
	d, err := a.ar.Mul(dx, dy)
	if err != nil {
		return err
	}
	a.cXY.update(d, -1)
	a.meanY.update(arr[1], -1)
	return nil
}

// covariancePair is the input as a pair of numbers, which alone counts.
func covariancePair(v any) (bson.A, bool) {
	arr, ok := v.(bson.A)
	return arr, ok && len(arr) == 2 && value.IsNumber(arr[0]) && value.IsNumber(arr[1])
}

func (a *covarianceAcc) result() any {
	if a.n == 1 && !a.sample {
		return 0.0
	}
	adjusted := a.n
	if a.sample {
		adjusted--
	}
	if adjusted <= 0 {
		return nil
	}
	out := a.cXY.value()
	if d, ok := out.(bson.Decimal128); ok {
		q, err := a.ar.Div(d, float64(adjusted))
		if err != nil {
			return nil
		}
		return q
	}
	return value.ToDouble(out) / float64(adjusted)
}

// removableSum is RemovableSum (window_function_sum.h): an AccumulatorSum
// given each value added and the negation of each removed, with NaN and
// the infinities counted apart, and the counts of doubles and decimals
// held, which narrow its total once they are all gone.
type removableSum struct {
	s                   expr.Sum
	posInf, negInf, nan int
	doubles, decimals   int64
}

// update adds v (q 1) or removes it (q -1); what is not a number counts
// for nothing.
func (r *removableSum) update(v any, q int) {
	switch x := v.(type) {
	case int32:
		if x == math.MinInt32 && q == -1 {
			r.s.Add(int32(math.MaxInt32))
			r.s.Add(int32(1))
			return
		}
		r.s.Add(x * int32(q))
	case int64:
		if x == math.MinInt64 && q == -1 {
			r.s.Add(int64(math.MaxInt64))
			r.s.Add(int32(1))
			return
		}
		r.s.Add(x * int64(q))
	case float64:
		r.doubles += int64(q)
		switch {
		case math.IsNaN(x):
			r.nan += q
		case math.IsInf(x, 1):
			r.posInf += q
		case math.IsInf(x, -1):
			r.negInf += q
		default:
			r.s.Add(x * float64(q))
		}
	case bson.Decimal128:
		r.decimals += int64(q)
		switch {
		case x.IsNaN():
			r.nan += q
		case x.IsInf() > 0:
			r.posInf += q
		case x.IsInf() < 0:
			r.negInf += q
		case q < 0:
			h, l := x.GetBytes()
			r.s.Add(bson.NewDecimal128(h^1<<63, l))
		default:
			r.s.Add(x)
		}
	}
}

// value is RemovableSum::getValue.
func (r *removableSum) value() any {
	special := func(s string, f float64) any {
		if r.decimals > 0 {
			d, _ := bson.ParseDecimal128(s)
			return d
		}
		return f
	}
	switch {
	case r.nan > 0 || (r.posInf > 0 && r.negInf > 0):
		return special("NaN", math.NaN())
	case r.posInf > 0:
		return special("Infinity", math.Inf(1))
	case r.negInf > 0:
		return special("-Infinity", math.Inf(-1))
	}
	switch x := r.s.Result().(type) {
	case bson.Decimal128:
		if r.decimals > 0 {
			return x
		}
		if r.doubles == 0 {
			if n, ok := value.IntegralLong(x); ok {
				return value.CreateIntOrLong(n)
			}
		}
		return value.DecimalToDouble(x)
	case float64:
		if r.doubles == 0 && x > math.MinInt64 && x < math.MaxInt64 {
			return value.CreateIntOrLong(int64(math.Round(x)))
		}
		return x
	case int64:
		return value.CreateIntOrLong(x)
	default:
		return x
	}
}

// removableAvg is WindowFunctionAvg: a removableSum of the numbers and
// their count; null when there is none, else a double, or a decimal when
// the total is one, NaN and the infinities as they are.
type removableAvg struct {
	removableSum
	n int64
}

func (a *removableAvg) update(v any, q int) {
	if !value.IsNumber(v) {
		return
	}
	a.removableSum.update(v, q)
	a.n += int64(q)
}

func (a *removableAvg) value() any {
	if a.n == 0 {
		return nil
	}
	switch x := a.removableSum.value().(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return x
		}
		return x / float64(a.n)
	case bson.Decimal128:
		if x.IsNaN() || x.IsInf() != 0 {
			return x
		}
		q, err := expr.Divide(x, a.n)
		if err != nil {
			return nil
		}
		return q
	case int32:
		return float64(x) / float64(a.n)
	case int64:
		return float64(x) / float64(a.n)
	}
	return nil
}

func nonFinite(v any) bool {
	switch x := v.(type) {
	case float64:
		return math.IsNaN(x) || math.IsInf(x, 0)
	case bson.Decimal128:
		return x.IsNaN() || x.IsInf() != 0
	}
	return false
}

// nonFinitePair is convertNonFiniteInputValue: NaN when the pair holds a
// NaN or infinities of both signs, else the infinity's sign; a decimal
// when either member is one.
func nonFinitePair(arr bson.A) any {
	pos, neg, nan, isDec := 0, 0, 0, false
	for _, v := range arr {
		switch x := v.(type) {
		case float64:
			switch {
			case math.IsNaN(x):
				nan++
			case math.IsInf(x, 1):
				pos++
			case math.IsInf(x, -1):
				neg++
			}
		case bson.Decimal128:
			isDec = true
			switch {
			case x.IsNaN():
				nan++
			case x.IsInf() > 0:
				pos++
			case x.IsInf() < 0:
				neg++
			}
		}
	}
	word := "-Infinity"
	switch {
	case nan > 0 || pos*neg > 0:
		word = "NaN"
	case pos > 0:
		word = "Infinity"
	}
	if isDec {
		d, _ := bson.ParseDecimal128(word)
		return d
	}
	f, _ := strconv.ParseFloat(word, 64)
	return f
}
