package expr

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Decimal128 arithmetic through math/big: a finite decimal is coef*10^exp,
// results are rounded to 34 significant digits half-to-even as IEEE 754-2008
// decimal128 does.

type decKind int

const (
	decFinite decKind = iota
	decNaN
	decPosInf
	decNegInf
)

type dec struct {
	kind decKind
	coef *big.Int
	exp  int
}

var (
	bigTen      = big.NewInt(10)
	decNaNValue = mustDec("NaN")
	decPosInfV  = mustDec("Infinity")
	decNegInfV  = mustDec("-Infinity")
)

func mustDec(s string) bson.Decimal128 {
	d, err := bson.ParseDecimal128(s)
	if err != nil {
		panic(err)
	}
	return d
}

func decOf(d bson.Decimal128) dec {
	if d.IsNaN() {
		return dec{kind: decNaN}
	}
	switch d.IsInf() {
	case 1:
		return dec{kind: decPosInf}
	case -1:
		return dec{kind: decNegInf}
	}
	bi, exp, err := d.BigInt()
	if err != nil {
		return dec{kind: decNaN}
	}
	return dec{coef: bi, exp: exp}
}

// toDec converts any number the way Value::coerceToDecimal does: doubles
// keep 15 significant digits (Decimal128(double) rounds to 15 digits).
func toDec(v any) dec {
	switch n := v.(type) {
	case int32:
		return dec{coef: big.NewInt(int64(n))}
	case int64:
		return dec{coef: big.NewInt(n)}
	case float64:
		return decFromDouble(n, 15)
	case bson.Decimal128:
		return decOf(n)
	}
	return dec{kind: decNaN}
}

func decFromDouble(f float64, digits int) dec {
	switch {
	case math.IsNaN(f):
		return dec{kind: decNaN}
	case math.IsInf(f, 1):
		return dec{kind: decPosInf}
	case math.IsInf(f, -1):
		return dec{kind: decNegInf}
	case f == 0:
		// Decimal128(double) converts a zero without quantizing it: 0E+0.
		return dec{coef: new(big.Int)}
	}
	s := strconv.FormatFloat(f, 'e', digits-1, 64)
	d, err := bson.ParseDecimal128(s)
	if err != nil {
		return dec{kind: decNaN}
	}
	return decOf(d)
}

// decRound is d as a Decimal128 holds it: 34 significant digits rounded
// half to even, past the format's range an infinity. mongod's decimal
// arithmetic rounds after every operation (Decimal128::add, ::multiply),
// so a running total or product rounds at each step, not once at the end:
// {$multiply: [-9.99E+6144, 4.1, 0]} is NaN, its first product being
// -Infinity (jstests/aggregation/expressions/arithmetic_constant_folding.js).
func decRound(d dec) dec { return decOf(d.toD128()) }

// toD128 rounds to 34 digits (half to even) and encodes.
func (d dec) toD128() bson.Decimal128 {
	switch d.kind {
	case decNaN:
		return decNaNValue
	case decPosInf:
		return decPosInfV
	case decNegInf:
		return decNegInfV
	}
	coef, exp := roundCoef(d.coef, d.exp, 34)
	for exp < -6176 && coef.Sign() != 0 {
		coef, exp = roundCoef(coef, exp, max(1, len(new(big.Int).Abs(coef).String())-(-6176-exp)))
		if exp < -6176 {
			q := new(big.Int).Quo(coef, bigTen)
			coef, exp = q, exp+1
		}
	}
	out, ok := bson.ParseDecimal128FromBigInt(coef, exp)
	if !ok {
		if coef.Sign() < 0 {
			return decNegInfV
		}
		return decPosInfV
	}
	return out
}

// roundCoef keeps at most digits significant digits, rounding half to even.
func roundCoef(coef *big.Int, exp, digits int) (*big.Int, int) {
	abs := new(big.Int).Abs(coef)
	n := len(abs.String())
	if n <= digits {
		return coef, exp
	}
	drop := n - digits
	div := new(big.Int).Exp(bigTen, big.NewInt(int64(drop)), nil)
	q, r := new(big.Int).QuoRem(abs, div, new(big.Int))
	// Comparing 2*r with div decides the rounding.
	c := new(big.Int).Lsh(r, 1).Cmp(div)
	if c > 0 || (c == 0 && q.Bit(0) == 1) {
		q.Add(q, big.NewInt(1))
	}
	if len(q.String()) > digits {
		q.Quo(q, bigTen)
		drop++
	}
	if coef.Sign() < 0 {
		q.Neg(q)
	}
	return q, exp + drop
}

func align(a, b dec) (*big.Int, *big.Int, int) {
	if a.exp == b.exp {
		return a.coef, b.coef, a.exp
	}
	if a.exp > b.exp {
		s := new(big.Int).Exp(bigTen, big.NewInt(int64(a.exp-b.exp)), nil)
		return new(big.Int).Mul(a.coef, s), b.coef, b.exp
	}
	s := new(big.Int).Exp(bigTen, big.NewInt(int64(b.exp-a.exp)), nil)
	return a.coef, new(big.Int).Mul(b.coef, s), a.exp
}

func decAdd(a, b dec) dec {
	if a.kind != decFinite || b.kind != decFinite {
		switch {
		case a.kind == decNaN || b.kind == decNaN:
			return dec{kind: decNaN}
		case a.kind != decFinite && b.kind != decFinite && a.kind != b.kind:
			return dec{kind: decNaN}
		case a.kind != decFinite:
			return a
		default:
			return b
		}
	}
	x, y, e := align(a, b)
	return dec{coef: new(big.Int).Add(x, y), exp: e}
}

func decNeg(a dec) dec {
	switch a.kind {
	case decPosInf:
		return dec{kind: decNegInf}
	case decNegInf:
		return dec{kind: decPosInf}
	case decNaN:
		return a
	}
	return dec{coef: new(big.Int).Neg(a.coef), exp: a.exp}
}

func decSign(a dec) int {
	switch a.kind {
	case decPosInf:
		return 1
	case decNegInf:
		return -1
	case decNaN:
		return 0
	}
	return a.coef.Sign()
}

func decMul(a, b dec) dec {
	if a.kind == decNaN || b.kind == decNaN {
		return dec{kind: decNaN}
	}
	if a.kind != decFinite || b.kind != decFinite {
		s := decSign(a) * decSign(b)
		switch {
		case s > 0:
			return dec{kind: decPosInf}
		case s < 0:
			return dec{kind: decNegInf}
		}
		return dec{kind: decNaN}
	}
	return dec{coef: new(big.Int).Mul(a.coef, b.coef), exp: a.exp + b.exp}
}

// decDiv divides with 34 significant digits, then strips trailing zeros
// down to the ideal exponent as IEEE division does.
func decDiv(a, b dec) dec {
	if a.kind == decNaN || b.kind == decNaN {
		return dec{kind: decNaN}
	}
	if a.kind != decFinite {
		if b.kind != decFinite {
			return dec{kind: decNaN}
		}
		if decSign(a)*signOr1(b) > 0 {
			return dec{kind: decPosInf}
		}
		return dec{kind: decNegInf}
	}
	if b.kind != decFinite {
		return dec{coef: new(big.Int), exp: 0}
	}
	if b.coef.Sign() == 0 {
		if a.coef.Sign() == 0 {
			return dec{kind: decNaN}
		}
		if a.coef.Sign() > 0 {
			return dec{kind: decPosInf}
		}
		return dec{kind: decNegInf}
	}
	ideal := a.exp - b.exp
	if a.coef.Sign() == 0 {
		return dec{coef: new(big.Int), exp: ideal}
	}
	// Scale the numerator so the quotient has at least 35 digits.
	neg := (a.coef.Sign() < 0) != (b.coef.Sign() < 0)
	shift := 40
	num := new(big.Int).Abs(a.coef)
	num.Mul(num, new(big.Int).Exp(bigTen, big.NewInt(int64(shift)), nil))
	q, r := new(big.Int).QuoRem(num, new(big.Int).Abs(b.coef), new(big.Int))
	exp := ideal - shift
	exact := r.Sign() == 0
	if !exact {
		// A sticky digit keeps half-even rounding correct.
		q.Mul(q, bigTen)
		q.Add(q, big.NewInt(1))
		exp--
	}
	if neg {
		q.Neg(q)
	}
	coef, e := roundCoef(q, exp, 34)
	if exact {
		// Remove trailing zeros towards the ideal exponent.
		for e < ideal {
			qq, rr := new(big.Int).QuoRem(coef, bigTen, new(big.Int))
			if rr.Sign() != 0 {
				break
			}
			coef, e = qq, e+1
		}
	}
	return dec{coef: coef, exp: e}
}

func signOr1(d dec) int {
	if s := decSign(d); s != 0 {
		return s
	}
	return 1
}

func decCmp(a, b dec) int {
	if a.kind != decFinite || b.kind != decFinite {
		rank := func(d dec) int {
			switch d.kind {
			case decNaN:
				return 0
			case decNegInf:
				return 1
			case decPosInf:
				return 3
			}
			return 2
		}
		ra, rb := rank(a), rank(b)
		switch {
		case ra < rb:
			return -1
		case ra > rb:
			return 1
		}
		return 0
	}
	x, y, _ := align(a, b)
	return x.Cmp(y)
}

func decIsZero(d bson.Decimal128) bool {
	x := decOf(d)
	return x.kind == decFinite && x.coef.Sign() == 0
}

// decToFloat converts a decimal to the nearest double.
func decToFloat(d dec) float64 {
	switch d.kind {
	case decNaN:
		return math.NaN()
	case decPosInf:
		return math.Inf(1)
	case decNegInf:
		return math.Inf(-1)
	}
	f, _ := strconv.ParseFloat(d.toD128().String(), 64)
	return f
}

// decQuantize rounds to exponent exp with the given rounding mode.
func decQuantize(d dec, exp int, mode roundMode) dec {
	if d.kind != decFinite || d.exp >= exp {
		if d.kind == decFinite && d.exp > exp {
			// Raising precision just rescales the coefficient.
			s := new(big.Int).Exp(bigTen, big.NewInt(int64(d.exp-exp)), nil)
			return dec{coef: new(big.Int).Mul(d.coef, s), exp: exp}
		}
		return d
	}
	div := new(big.Int).Exp(bigTen, big.NewInt(int64(exp-d.exp)), nil)
	abs := new(big.Int).Abs(d.coef)
	q, r := new(big.Int).QuoRem(abs, div, new(big.Int))
	neg := d.coef.Sign() < 0
	up := false
	switch mode {
	case roundHalfEven:
		c := new(big.Int).Lsh(r, 1).Cmp(div)
		up = c > 0 || (c == 0 && q.Bit(0) == 1)
	case roundTowardZero:
	case roundUp: // toward +inf
		up = r.Sign() != 0 && !neg
	case roundDown: // toward -inf
		up = r.Sign() != 0 && neg
	}
	if up {
		q.Add(q, big.NewInt(1))
	}
	if neg {
		q.Neg(q)
	}
	return dec{coef: q, exp: exp}
}

// quantizeD128 is Decimal128::quantize to the exponent exp (decimal128.cpp
// over bid128_quantize): an infinity or NaN stays as it is, and the result
// keeps x's sign, so a negative value that rounds to zero is -0
// ({$ceil: NumberDecimal("-0.5")}). When x would need more than 34 digits
// at exp, bid128_quantize's answer is NaN, the invalid operation; that is
// what $ceil and $floor get, their reference 0E0 normalizing to exponent 0.
// A reference 1E-p ($round, $trunc) takes quantize's shortcut instead, which
// returns x normalized to 34 digits ({$trunc: [NumberDecimal("1.298"), 100]}
// is 1.298000000000000000000000000000000, jstests/aggregation/expressions/
// round_trunc.js); normalizedPast asks for it.
func quantizeD128(x bson.Decimal128, exp int, mode roundMode, normalizedPast bool) bson.Decimal128 {
	d := decOf(x)
	if d.kind != decFinite {
		return x
	}
	if !quantizeFits(d, exp) {
		if !normalizedPast {
			return decNaNValue
		}
		pad := min(34-len(new(big.Int).Abs(d.coef).String()), d.exp+6176)
		scale := new(big.Int).Exp(bigTen, big.NewInt(int64(pad)), nil)
		return dec{coef: new(big.Int).Mul(d.coef, scale), exp: d.exp - pad}.toD128()
	}
	q := decQuantize(d, exp, mode)
	if q.coef.Sign() == 0 && signBit(x) {
		return negated(q.toD128())
	}
	return q.toD128()
}

// negated is d with its sign bit set: dec's big.Int coefficient has no
// negative zero, which IEEE 754 decimal results keep.
func negated(d bson.Decimal128) bson.Decimal128 {
	h, l := d.GetBytes()
	return bson.NewDecimal128(h|1<<63, l)
}

// DecimalAdd is Decimal128::add of two numbers, the sum SafeNum's
// addDecimals makes for $inc: rounded half to even to 34 digits, an
// infinity staying infinite, Inf-Inf NaN, and a zero sum negative only
// when both operands are.
func DecimalAdd(a, b any) bson.Decimal128 {
	r := decAdd(toDec(a), toDec(b)).toD128()
	if isDecZero(r) && negative(a) && negative(b) {
		return negated(r)
	}
	return r
}

// DecimalMultiply is Decimal128::multiply of two numbers (SafeNum's
// mulDecimals for $mul): Inf*0 is NaN, and a zero product takes the
// operands' sign product.
func DecimalMultiply(a, b any) bson.Decimal128 {
	r := decMul(toDec(a), toDec(b)).toD128()
	if isDecZero(r) && negative(a) != negative(b) {
		return negated(r)
	}
	return r
}

// isDecZero reports whether the finite decimal d is a zero of either sign.
func isDecZero(d bson.Decimal128) bool {
	x := decOf(d)
	return x.kind == decFinite && x.coef.Sign() == 0
}

// quantizeFits reports whether the finite d quantized to exp keeps at most
// 34 digits, Decimal128's precision.
func quantizeFits(d dec, exp int) bool {
	return d.coef.Sign() == 0 || len(new(big.Int).Abs(d.coef).String())+d.exp-exp <= 34
}

type roundMode int

const (
	roundHalfEven roundMode = iota
	roundTowardZero
	roundUp
	roundDown
)

// decToInt64 converts with truncation; ok is false when out of range or
// not finite.
func decToInt64(d dec, mode roundMode) (int64, bool) {
	if d.kind != decFinite {
		return 0, false
	}
	q := decQuantize(d, 0, mode)
	c := q.coef
	if q.exp > 0 {
		c = new(big.Int).Mul(c, new(big.Int).Exp(bigTen, big.NewInt(int64(q.exp)), nil))
	}
	if !c.IsInt64() {
		return 0, false
	}
	return c.Int64(), true
}

// parseDecimalString is NumberParser for a Decimal128: the string
// constructor (bid128_from_string and validateInputString, decimal128.cpp)
// takes a sign, then "inf", "infinity" or "nan" in any case, or digits with
// an optional point and at least one digit, and an optional e exponent.
// NumberParser rounds toward zero (its default rounding mode) and ignores
// the inexact flag, so too many digits are cut; why names an overflow, an
// inexact underflow or a malformed string.
func parseDecimalString(s string) (d bson.Decimal128, why string) {
	const malformed = "Failed to parse string to decimal"
	body, neg := s, false
	if body != "" && (body[0] == '+' || body[0] == '-') {
		body, neg = body[1:], body[0] == '-'
	}
	switch strings.ToLower(body) {
	case "inf", "infinity":
		if neg {
			return decNegInfV, ""
		}
		return decPosInfV, ""
	case "nan":
		return decNaNValue, ""
	}
	mantissa, expText, hasExp := strings.Cut(strings.ToLower(body), "e")
	intPart, frac, _ := strings.Cut(mantissa, ".")
	digits := intPart + frac
	if digits == "" || strings.Trim(digits, "0123456789") != "" || strings.Count(mantissa, ".") > 1 {
		return d, malformed
	}
	exp := 0
	if hasExp {
		t := strings.TrimLeft(expText, "+-")
		if t == "" || strings.Trim(t, "0123456789") != "" || len(expText)-len(t) > 1 {
			return d, malformed
		}
		// Past a few times the format's range every exponent gives the
		// same overflow, underflow or clamped zero, so a longer one is cut.
		if t = strings.TrimLeft(t, "0"); len(t) > 6 {
			t = "999999"
		}
		exp, _ = strconv.Atoi("0" + t)
		if expText[0] == '-' {
			exp = -exp
		}
	}
	exp -= len(frac)
	digits = strings.TrimLeft(digits, "0")
	inexact := false
	// cut drops the last n digits, toward zero.
	cut := func(n int) {
		if n >= len(digits) {
			inexact = inexact || digits != ""
			digits = ""
		} else {
			inexact = inexact || strings.Trim(digits[len(digits)-n:], "0") != ""
			digits = digits[:len(digits)-n]
		}
		exp += n
	}
	if len(digits) > 34 {
		cut(len(digits) - 34)
	}
	tiny := digits != "" && len(digits)+exp-1 < -6143
	if exp < -6176 {
		cut(-6176 - exp)
	}
	if digits == "" {
		// A zero's exponent is clamped to the format's range.
		exp = min(max(exp, -6176), 6111)
	} else if exp > 6111 {
		if len(digits)+exp-6111 > 34 {
			return d, "Conversion from string to decimal would overflow"
		}
		digits += strings.Repeat("0", exp-6111)
		exp = 6111
	}
	if tiny && inexact {
		return d, "Conversion from string to decimal would underflow"
	}
	coef, _ := new(big.Int).SetString("0"+digits, 10)
	d, _ = bson.ParseDecimal128FromBigInt(coef, exp)
	if neg {
		d = negated(d)
	}
	return d, ""
}
