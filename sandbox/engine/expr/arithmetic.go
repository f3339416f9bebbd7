package expr

import (
	"math"
	"math/big"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func bigInt(n int64) *big.Int { return big.NewInt(n) }

// addState is mongod's AddState: the narrowest result type that avoids
// overflow, with a single date allowed.
type addState struct {
	longTotal   int64
	doubleTotal float64
	decTotal    dec
	widest      int
	isDate      bool
}

func (s *addState) add(v any) error {
	if d, ok := v.(bson.DateTime); ok {
		if s.isDate {
			return mongoerr.New(mongoerr.ErrAddTwoDates, "only one date allowed in an $add expression")
		}
		old := s.value()
		s.longTotal = 0
		s.isDate = true
		if err := s.addToDate(old); err != nil {
			return err
		}
		return s.addToDate(int64(d))
	}
	if s.isDate {
		return s.addToDate(v)
	}
	old := s.widest
	s.widest = max(s.widest, numKind(v))
	if old != s.widest {
		switch s.widest {
		case kDouble:
			s.doubleTotal = float64(s.longTotal)
		case kDecimal:
			if old == kDouble {
				s.decTotal = toDec(s.doubleTotal)
			} else {
				s.decTotal = dec{coef: bigInt(s.longTotal)}
			}
		}
	}
	switch s.widest {
	case kInt, kLong:
		n, _ := value.CoerceToLong(v)
		if addOverflows(s.longTotal, n) {
			s.widest = kDouble
			s.doubleTotal = float64(s.longTotal) + value.ToDouble(v)
		} else {
			s.longTotal += n
		}
	case kDouble:
		s.doubleTotal += value.ToDouble(v)
	case kDecimal:
		s.decTotal = decRound(decAdd(s.decTotal, toDec(v)))
	}
	return nil
}

func (s *addState) addToDate(v any) error {
	n, ok := dateMillis(v)
	if !ok || addOverflows(s.longTotal, n) {
		return mongoerr.New(mongoerr.Overflow, "date overflow")
	}
	s.longTotal += n
	return nil
}

// dateMillis is the number of milliseconds a number adds to or takes from a
// date ($add's AddState, evaluateSubtract): an int or long as it is, a
// double within the long range rounded half away from zero (llround), a
// decimal rounded half to even (Decimal128::toLong); ok is false for a
// double or decimal that no long holds.
func dateMillis(v any) (int64, bool) {
	switch x := v.(type) {
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case float64:
		if !(x >= -9.223372036854775808e18 && x < 9.223372036854775808e18) {
			return 0, false
		}
		return int64(math.Round(x)), true
	case bson.Decimal128:
		return decToInt64(decOf(x), roundHalfEven)
	}
	return 0, false
}

func (s *addState) value() any {
	if s.isDate {
		return bson.DateTime(s.longTotal)
	}
	switch s.widest {
	case kLong:
		return s.longTotal
	case kDouble:
		return s.doubleTotal
	case kDecimal:
		return s.decTotal.toD128()
	}
	return value.CreateIntOrLong(s.longTotal)
}

func checkAddOperand(v any) error {
	if _, ok := v.(bson.DateTime); !ok && !value.IsNumber(v) {
		return mongoerr.Newf(mongoerr.TypeMismatch, "$add only supports numeric or date types, not %s", typeName(v))
	}
	return nil
}

func compileAdd(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileArgs(arg, scope)
	if err != nil {
		return nil, err
	}
	if args, err = foldLeading(scope, args, addOf); err != nil {
		return nil, err
	}
	return addOf(args), nil
}

// addOf is $add over compiled arguments.
func addOf(args []Expr) Expr {
	return evalFunc(func(env *Env) (any, error) {
		s := addState{widest: kInt}
		for _, a := range args {
			v, err := a.Eval(env)
			if err != nil {
				return nil, err
			}
			if nullish(v) {
				return nil, nil
			}
			if err := checkAddOperand(v); err != nil {
				return nil, err
			}
			if err := s.add(v); err != nil {
				return nil, err
			}
		}
		return s.value(), nil
	})
}

// Subtract is $subtract.
func Subtract(lhs, rhs any) (any, error) {
	if value.IsNumber(lhs) && value.IsNumber(rhs) {
		switch max(numKind(lhs), numKind(rhs)) {
		case kDecimal:
			r := decAdd(toDec(lhs), decNeg(toDec(rhs))).toD128()
			if isDecZero(r) && isZero(lhs) && isZero(rhs) && signBit(lhs) && !signBit(rhs) {
				// Decimal128::subtract of zeros: -0 - 0 is -0, as in binary
				// floating point.
				return negated(r), nil
			}
			return r, nil
		case kDouble:
			return value.ToDouble(lhs) - value.ToDouble(rhs), nil
		default:
			a, _ := value.CoerceToLong(lhs)
			b, _ := value.CoerceToLong(rhs)
			r := a - b
			if (b < 0 && r < a) || (b > 0 && r > a) {
				return float64(a) - float64(b), nil
			}
			if numKind(lhs) == kInt && numKind(rhs) == kInt {
				return value.CreateIntOrLong(r), nil
			}
			return r, nil
		}
	}
	if nullish(lhs) || nullish(rhs) {
		return nil, nil
	}
	if d, ok := lhs.(bson.DateTime); ok {
		switch r := rhs.(type) {
		case bson.DateTime:
			return int64(d) - int64(r), nil
		}
		if value.IsNumber(rhs) {
			// overflow::sub on the milliseconds: a date before the epoch
			// may still take away the least long.
			b, ok := dateMillis(rhs)
			r := int64(d) - b
			if !ok || (b < 0) != (r > int64(d)) {
				return nil, mongoerr.New(mongoerr.Overflow, "date overflow")
			}
			return bson.DateTime(r), nil
		}
		return nil, mongoerr.Newf(mongoerr.TypeMismatch, "can't $subtract %s from Date", typeName(rhs))
	}
	return nil, mongoerr.Newf(mongoerr.TypeMismatch, "can't $subtract %s from %s", typeName(rhs), typeName(lhs))
}

func compileSubtract(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileFixed(name, arg, scope, 2)
	if err != nil {
		return nil, err
	}
	return evalFunc(func(env *Env) (any, error) {
		a, err := args[0].Eval(env)
		if err != nil {
			return nil, err
		}
		b, err := args[1].Eval(env)
		if err != nil {
			return nil, err
		}
		return Subtract(a, b)
	}), nil
}

func compileMultiply(name string, arg any, scope *Scope) (Expr, error) {
	args, err := compileArgs(arg, scope)
	if err != nil {
		return nil, err
	}
	if args, err = foldLeading(scope, args, multiplyOf); err != nil {
		return nil, err
	}
	return multiplyOf(args), nil
}

// multiplyOf is $multiply over compiled arguments.
func multiplyOf(args []Expr) Expr {
	return evalFunc(func(env *Env) (any, error) {
		var (
			dbl  = 1.0
			lng  = int64(1)
			dc   dec
			kind = kInt
			neg  bool // the sign a zero decimal product takes (Decimal128::multiply)
		)
		for _, a := range args {
			v, err := a.Eval(env)
			if err != nil {
				return nil, err
			}
			if nullish(v) {
				return nil, nil
			}
			if !value.IsNumber(v) {
				return nil, mongoerr.Newf(mongoerr.TypeMismatch, "$multiply only supports numeric types, not %s", typeName(v))
			}
			neg = neg != negative(v)
			old := kind
			kind = max(kind, numKind(v))
			if old != kind {
				switch kind {
				case kDecimal:
					if old == kDouble {
						dc = toDec(dbl)
					} else {
						dc = dec{coef: bigInt(lng)}
					}
				case kDouble:
					dbl = float64(lng)
				}
			}
			switch kind {
			case kDecimal:
				dc = decRound(decMul(dc, toDec(v)))
			case kDouble:
				dbl *= value.ToDouble(v)
			default:
				n, _ := value.CoerceToLong(v)
				p, over := mulOverflows(lng, n)
				if over {
					kind = kDouble
					dbl = float64(lng) * value.ToDouble(v)
				} else {
					lng = p
				}
			}
		}
		switch kind {
		case kDecimal:
			r := dc.toD128()
			if isDecZero(r) && neg {
				return negated(r), nil
			}
			return r, nil
		case kDouble:
			return dbl, nil
		case kLong:
			return lng, nil
		}
		return value.CreateIntOrLong(lng), nil
	})
}

// Divide is $divide.
func Divide(lhs, rhs any) (any, error) {
	if value.IsNumber(lhs) && value.IsNumber(rhs) {
		if numKind(lhs) == kDecimal || numKind(rhs) == kDecimal {
			d := toDec(rhs)
			if d.kind == decFinite && d.coef.Sign() == 0 {
				return nil, mongoerr.New(mongoerr.BadValue, "can't $divide by zero")
			}
			r := decDiv(toDec(lhs), d).toD128()
			if isDecZero(r) && negative(lhs) != negative(rhs) {
				// Decimal128::divide gives a zero quotient the operands'
				// sign product: 0 / -5 is -0.
				return negated(r), nil
			}
			return r, nil
		}
		den := value.ToDouble(rhs)
		if den == 0 {
			return nil, mongoerr.New(mongoerr.BadValue, "can't $divide by zero")
		}
		return value.ToDouble(lhs) / den, nil
	}
	if nullish(lhs) || nullish(rhs) {
		return nil, nil
	}
	return nil, mongoerr.Newf(mongoerr.TypeMismatch, "$divide only supports numeric types, not %s and %s", typeName(lhs), typeName(rhs))
}

func compileBinary(fn func(a, b any) (any, error)) compiler {
	return func(name string, arg any, scope *Scope) (Expr, error) {
		args, err := compileFixed(name, arg, scope, 2)
		if err != nil {
			return nil, err
		}
		return evalFunc(func(env *Env) (any, error) {
			a, err := args[0].Eval(env)
			if err != nil {
				return nil, err
			}
			b, err := args[1].Eval(env)
			if err != nil {
				return nil, err
			}
			return fn(a, b)
		}), nil
	}
}

// Mod is $mod, as mongod's evaluateMod: decimal if either side is
// decimal, a double (fmod) if either side is a double, else a long if
// either side is a long, else an int: the wider of the two types. Before
// 7.2 an integral double divisor took the dividend's type, so
// [NumberLong(8), 3.0] was a long; since then it is the double 2.0
// (manual: reference/operator/aggregation/mod).
func Mod(lhs, rhs any) (any, error) {
	if value.IsNumber(lhs) && value.IsNumber(rhs) {
		lk, rk := numKind(lhs), numKind(rhs)
		if lk == kDecimal || rk == kDecimal {
			d := toDec(rhs)
			if d.kind == decFinite && d.coef.Sign() == 0 {
				return nil, mongoerr.New(mongoerr.ErrModDecimalByZero, "can't $mod by zero")
			}
			a := toDec(lhs)
			if a.kind != decFinite || d.kind != decFinite {
				return decNaNValue, nil
			}
			x, y, e := align(a, d)
			r := new(big.Int).Rem(x, y)
			if r.Sign() == 0 && (x.Sign() < 0 || x.Sign() == 0 && signBit(lhs)) {
				// Decimal128::modulo (bid128_fmod) gives the remainder the
				// dividend's sign, zero included: -6 mod 3 is -0
				// (jstests/core/query/mod/mod_overflow.js).
				z, _ := bson.ParseDecimal128("-0E" + strconv.Itoa(e))
				return z, nil
			}
			return dec{coef: r, exp: e}.toD128(), nil
		}
		divisor := value.ToDouble(rhs)
		if divisor == 0 {
			return nil, mongoerr.New(mongoerr.ErrModByZero, "can't $mod by zero")
		}
		if lk == kDouble || rk == kDouble {
			return math.Mod(value.ToDouble(lhs), divisor), nil
		}
		a, _ := value.CoerceToLong(lhs)
		b, _ := value.CoerceToLong(rhs)
		var r int64
		if b != -1 { // mongoSafeMod: x % -1 is 0, even for the minimum
			r = a % b
		}
		if lk == kLong || rk == kLong {
			return r, nil
		}
		return int32(r), nil
	}
	if nullish(lhs) || nullish(rhs) {
		return nil, nil
	}
	return nil, mongoerr.Newf(mongoerr.ErrModNonNumeric, "$mod only supports numeric types, not %s and %s", typeName(lhs), typeName(rhs))
}

// compileUnaryNumeric builds ExpressionSingleNumericArg operators.
func compileUnaryNumeric(fn func(name string, v any) (any, error)) compiler {
	return func(name string, arg any, scope *Scope) (Expr, error) {
		args, err := compileFixed(name, arg, scope, 1)
		if err != nil {
			return nil, err
		}
		return evalFunc(func(env *Env) (any, error) {
			v, err := args[0].Eval(env)
			if err != nil {
				return nil, err
			}
			if nullish(v) {
				return nil, nil
			}
			if !value.IsNumber(v) {
				return nil, mongoerr.Newf(mongoerr.ErrNumericArgumentNotNumber, "%s only supports numeric types, not %s", name, typeName(v))
			}
			return fn(name, v)
		}), nil
	}
}

func absOf(_ string, v any) (any, error) {
	switch n := v.(type) {
	case float64:
		return math.Abs(n), nil
	case bson.Decimal128:
		d := decOf(n)
		if decSign(d) < 0 {
			d = decNeg(d)
		}
		return d.toD128(), nil
	case int32:
		if n < 0 {
			return value.CreateIntOrLong(-int64(n)), nil
		}
		return n, nil
	case int64:
		if n == math.MinInt64 {
			return nil, mongoerr.New(mongoerr.ErrAbsOfLongMin, "can't take $abs of long long min")
		}
		if n < 0 {
			return -n, nil
		}
		return n, nil
	}
	return v, nil
}

func ceilFloor(mode roundMode, f func(float64) float64) func(string, any) (any, error) {
	return func(_ string, v any) (any, error) {
		switch n := v.(type) {
		case float64:
			return f(n), nil
		case bson.Decimal128:
			return quantizeD128(n, 0, mode, false), nil
		}
		return v, nil
	}
}

// expOf is $exp: a double, or a decimal for a decimal.
func expOf(_ string, v any) (any, error) {
	if d, ok := v.(bson.Decimal128); ok {
		return decimalExp(decOf(d)).toD128(), nil
	}
	return crExp(value.ToDouble(v)), nil
}

func sqrtOf(_ string, v any) (any, error) {
	if d, ok := v.(bson.Decimal128); ok {
		x := decOf(d)
		if x.kind == decNegInf || (x.kind == decFinite && x.coef.Sign() < 0) {
			return nil, mongoerr.New(mongoerr.ErrSqrtNegative, "$sqrt's argument must be greater than or equal to 0")
		}
		return decimalSqrt(x).toD128(), nil
	}
	f := value.ToDouble(v)
	if f < 0 {
		return nil, mongoerr.New(mongoerr.ErrSqrtNegative, "$sqrt's argument must be greater than or equal to 0")
	}
	return math.Sqrt(f), nil
}

// logFn is $ln and $log10: a positive decimal gives a decimal; anything
// else is checked and computed as a double, so a decimal NaN gives a
// double NaN, as ExpressionLn does.
func logFn(code int32, f func(float64) float64, decimal func(dec) dec) func(string, any) (any, error) {
	return func(name string, v any) (any, error) {
		if d, ok := v.(bson.Decimal128); ok {
			if x := decOf(d); decPositive(x) {
				return decimal(x).toD128(), nil
			}
		}
		x := value.ToDouble(v)
		if !(x > 0 || math.IsNaN(x)) {
			return nil, mongoerr.Newf(code, "%s's argument must be a positive number, but is %s", name, value.FormatStreamDouble(x))
		}
		return f(x), nil
	}
}

// decPositive reports x > 0 (NaN is not).
func decPositive(x dec) bool {
	return x.kind == decPosInf || (x.kind == decFinite && x.coef.Sign() > 0)
}

func formatNumber(v any) string {
	if f, ok := v.(float64); ok {
		return value.FormatStreamDouble(f)
	}
	return formatValue(v)
}

func compileLog(name string, arg any, scope *Scope) (Expr, error) {
	return compileBinary(func(a, b any) (any, error) {
		if nullish(a) || nullish(b) {
			return nil, nil
		}
		if !value.IsNumber(a) {
			return nil, mongoerr.Newf(mongoerr.ErrLogArgumentNotNumber, "$log's argument must be numeric, not %s", typeName(a))
		}
		if !value.IsNumber(b) {
			return nil, mongoerr.Newf(mongoerr.ErrLogBaseNotNumber, "$log's base must be numeric, not %s", typeName(b))
		}
		if numKind(a) == kDecimal || numKind(b) == kDecimal {
			x, base := toDec(a), toDec(b)
			if decPositive(x) && decPositive(base) && decCmp(base, dec{coef: bigInt(1)}) != 0 {
				return decimalLog(x, base).toD128(), nil
			}
		}
		x, base := value.ToDouble(a), value.ToDouble(b)
		if !(x > 0 || math.IsNaN(x)) {
			return nil, mongoerr.Newf(mongoerr.ErrLogArgumentNotPositive, "$log's argument must be a positive number, but is %s", value.FormatStreamDouble(x))
		}
		if !((base > 0 && base != 1) || math.IsNaN(base)) {
			return nil, mongoerr.Newf(mongoerr.ErrLogBaseInvalid, "$log's base must be a positive number not equal to 1, but is %s", value.FormatStreamDouble(base))
		}
		return crLog(x) / crLog(base), nil
	})(name, arg, scope)
}

// Pow is $pow: integer powers stay integers while they fit.
func Pow(base, exp any) (any, error) {
	if nullish(base) || nullish(exp) {
		return nil, nil
	}
	if !value.IsNumber(base) {
		return nil, mongoerr.Newf(mongoerr.ErrPowBaseNotNumber, "$pow's base must be numeric, not %s", typeName(base))
	}
	if !value.IsNumber(exp) {
		return nil, mongoerr.Newf(mongoerr.ErrPowExponentNotNumber, "$pow's exponent must be numeric, not %s", typeName(exp))
	}
	kind := max(numKind(base), numKind(exp))
	if kind == kDecimal {
		b, e := toDec(base), toDec(exp)
		if b.kind == decFinite && b.coef.Sign() == 0 && decSign(e) < 0 {
			return nil, mongoerr.New(mongoerr.ErrPowZeroToNegative, "$pow cannot take a base of 0 and a negative exponent")
		}
		return decimalPow(b, e).toD128(), nil
	}
	bd, ed := value.ToDouble(base), value.ToDouble(exp)
	if bd == 0 && ed < 0 {
		return nil, mongoerr.New(mongoerr.ErrPowZeroToNegative, "$pow cannot take a base of 0 and a negative exponent")
	}
	switch kind {
	case kDouble:
		return crPow(bd, ed), nil
	}
	b, _ := value.CoerceToLong(base)
	e, _ := value.CoerceToLong(exp)
	typed := func(n int64) any {
		if kind == kInt {
			return value.CreateIntOrLong(n)
		}
		return n
	}
	if e < 0 {
		switch b {
		case 1:
			return typed(1), nil
		case -1:
			if e%2 == 0 {
				return typed(1), nil
			}
			return typed(-1), nil
		}
		return crPow(bd, ed), nil
	}
	r := int64(1)
	for range e {
		p, over := mulOverflows(r, b)
		if over {
			return crPow(bd, ed), nil
		}
		r = p
		if r == 0 || r == 1 {
			break
		}
	}
	if b == -1 {
		r = 1
		if e%2 == 1 {
			r = -1
		}
	}
	return typed(r), nil
}

// compileRound builds $round (half to even) and $trunc (toward zero).
func compileRound(mode roundMode) compiler {
	return func(name string, arg any, scope *Scope) (Expr, error) {
		args, err := compileRanged(name, arg, scope, 1, 2)
		if err != nil {
			return nil, err
		}
		return evalFunc(func(env *Env) (any, error) {
			v, err := args[0].Eval(env)
			if err != nil {
				return nil, err
			}
			if nullish(v) {
				return nil, nil
			}
			if !value.IsNumber(v) {
				return nil, mongoerr.Newf(mongoerr.ErrRoundNotNumber, "%s only supports numeric types, not %s", name, typeName(v))
			}
			place := int64(0)
			if len(args) == 2 {
				p, err := args[1].Eval(env)
				if err != nil {
					return nil, err
				}
				if nullish(p) {
					return nil, nil
				}
				place, err = value.CoerceToLong(p)
				if err != nil {
					return nil, err
				}
				if !value.Integral(p) {
					return nil, mongoerr.Newf(mongoerr.ErrRoundPrecisionNotInt, "precision argument to  %s must be a integral value", name)
				}
				if place < -20 || place > 100 {
					return nil, mongoerr.Newf(mongoerr.ErrRoundPrecisionOutOfRange, "cannot apply %s with precision value %d value must be in [-20, 100]", name, place)
				}
			}
			return roundNumber(name, v, int(place), mode)
		}), nil
	}
}

func roundNumber(name string, v any, place int, mode roundMode) (any, error) {
	switch n := v.(type) {
	case bson.Decimal128:
		return quantizeD128(n, -place, mode, true), nil
	case float64:
		if math.IsNaN(n) || math.IsInf(n, 0) {
			return n, nil
		}
		// The double goes through Decimal128 too; past 34 digits quantize
		// gives it back normalized, which converts back to the same double
		// ({$round: [1.298, 100]} is 1.298, evaluateRoundOrTrunc).
		d := decFromDouble(n, 34)
		if !quantizeFits(d, -place) {
			return n, nil
		}
		r := decToFloat(decQuantize(d, -place, mode))
		if r == 0 && math.Signbit(n) {
			r = math.Copysign(0, -1)
		}
		return r, nil
	case int32, int64:
		if place >= 0 {
			return v, nil
		}
		l, _ := value.CoerceToLong(v)
		d := decQuantize(dec{coef: bigInt(l)}, -place, mode)
		r, ok := decToInt64(d, roundTowardZero)
		if !ok {
			return nil, mongoerr.Newf(mongoerr.ErrRoundDecimalConversion, "invalid conversion from Decimal128 result in %s resulting from arguments: [%s, %d]", name, formatValue(v), place)
		}
		if _, isInt := v.(int32); isInt && r <= math.MaxInt32 {
			return int32(r), nil
		}
		return r, nil
	}
	return v, nil
}

// isZero reports whether the number v is a zero of either sign.
func isZero(v any) bool {
	switch x := v.(type) {
	case bson.Decimal128:
		return isDecZero(x)
	case float64:
		return x == 0
	}
	n, _ := value.CoerceToLong(v)
	return n == 0
}

// negative reports whether the number v is below zero or a negative zero.
func negative(v any) bool {
	switch x := v.(type) {
	case int32:
		return x < 0
	case int64:
		return x < 0
	}
	return signBit(v)
}

// signBit reports whether a double's or a decimal's sign bit is set (a
// negative zero's too).
func signBit(v any) bool {
	switch x := v.(type) {
	case float64:
		return math.Signbit(x)
	case bson.Decimal128:
		h, _ := x.GetBytes()
		return h>>63 == 1
	}
	return false
}
