package expr

import (
	"math"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The trigonometric operators, after src/mongo/db/pipeline/
// expression_trigonometric.h and evaluate_math.cpp: ints and longs compute
// as doubles, a decimal as a decimal; the bounded ones refuse an argument
// outside their domain with 50989, and NaN passes through.

// trigBounds is a bounded operator's domain.
type trigBounds struct {
	lo, hi    float64
	inclusive bool
}

type trigOp struct {
	fn     func(float64) float64
	bounds *trigBounds // nil: unbounded
}

func trigOperators() map[string]trigOp {
	unitInterval := &trigBounds{lo: -1, hi: 1, inclusive: true}
	finiteReals := &trigBounds{lo: math.Inf(-1), hi: math.Inf(1)}
	atLeastOne := &trigBounds{lo: 1, hi: math.Inf(1), inclusive: true}
	return map[string]trigOp{
		"$sin":   {math.Sin, finiteReals},
		"$cos":   {math.Cos, finiteReals},
		"$tan":   {math.Tan, finiteReals},
		"$asin":  {math.Asin, unitInterval},
		"$acos":  {math.Acos, unitInterval},
		"$atan":  {math.Atan, nil},
		"$sinh":  {math.Sinh, nil},
		"$cosh":  {math.Cosh, nil},
		"$tanh":  {math.Tanh, nil},
		"$asinh": {math.Asinh, nil},
		"$acosh": {math.Acosh, atLeastOne},
		"$atanh": {math.Atanh, unitInterval},
	}
}

func (b *trigBounds) contains(x float64) bool {
	if b.inclusive {
		return x >= b.lo && x <= b.hi
	}
	return x > b.lo && x < b.hi
}

func (b *trigBounds) containsDec(x dec) bool {
	lo, hi := decFromDouble(b.lo, 17), decFromDouble(b.hi, 17)
	cl, ch := decCmp(x, lo), decCmp(x, hi)
	if b.inclusive {
		return cl >= 0 && ch <= 0
	}
	return cl > 0 && ch < 0
}

func (b *trigBounds) errorFor(name, input string) error {
	l, r := "(", ")"
	if b.inclusive {
		l, r = "[", "]"
	}
	return mongoerr.Newf(mongoerr.ErrTrigArgumentOutOfBounds, "cannot apply %s to %s, value must in %s%s,%s%s", name, input, l, value.FormatStreamDouble(b.lo), value.FormatStreamDouble(b.hi), r)
}

// compileTrig builds one of the single-argument trigonometric operators.
func compileTrig(op trigOp) compiler {
	return compileUnaryNumeric(func(name string, v any) (any, error) {
		if d, ok := v.(bson.Decimal128); ok {
			x := decOf(d)
			if x.kind == decNaN {
				return d, nil
			}
			if op.bounds != nil && !op.bounds.containsDec(x) {
				return nil, op.bounds.errorFor(name, d.String())
			}
			r := decimalTrig(name, x).toD128()
			if isDecZero(r) && isDecZero(d) && signBit(d) {
				// The odd functions give a zero back as x*1 (bid128_sin's
				// zero path), so -0 stays -0.
				return negated(r), nil
			}
			return r, nil
		}
		x := value.ToDouble(v)
		if math.IsNaN(x) {
			return v, nil
		}
		if op.bounds != nil && !op.bounds.contains(x) {
			return nil, op.bounds.errorFor(name, value.FormatStreamDouble(x))
		}
		return crTrig(name, x, op.fn), nil
	})
}

// Decimal128's pi/180 and 180/pi, to 34 digits.
var (
	decPiOver180 = decOf(mustDec("0.01745329251994329576923690768488613"))
	dec180OverPi = decOf(mustDec("57.29577951308232087679815481410517"))
)

// angleConversion is $degreesToRadians and $radiansToDegrees: a double
// times the double factor, a decimal times the decimal one.
func angleConversion(decFactor dec, factor float64) compiler {
	return compileUnaryNumeric(func(_ string, v any) (any, error) {
		if d, ok := v.(bson.Decimal128); ok {
			r := decMul(decOf(d), decFactor).toD128()
			if isDecZero(r) && signBit(d) {
				// Decimal128::multiply keeps -0's sign: -0 degrees is -0E-35.
				return negated(r), nil
			}
			return r, nil
		}
		return value.ToDouble(v) * factor, nil
	})
}

func atan2(a, b any) (any, error) {
	if nullish(a) {
		return nil, nil
	}
	if !value.IsNumber(a) {
		return nil, mongoerr.Newf(mongoerr.ErrAtan2FirstNotNumber, "$atan2 only supports numeric types, not %s", typeName(a))
	}
	if nullish(b) {
		return nil, nil
	}
	if !value.IsNumber(b) {
		return nil, mongoerr.Newf(mongoerr.ErrAtan2SecondNotNumber, "$atan2 only supports numeric types, not %s", typeName(b))
	}
	if numKind(a) == kDecimal || numKind(b) == kDecimal {
		return decimalAtan2(toDec(a), toDec(b)).toD128(), nil
	}
	return crAtan2(value.ToDouble(a), value.ToDouble(b)), nil
}
