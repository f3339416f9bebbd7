package expr

import (
	"math/big"
	"strings"
)

// Decimal128's transcendental functions ($exp, $ln, $log10, $log, $pow,
// $sqrt and the trigonometric operators on a decimal), which mongod takes
// from the Intel decimal library: results are computed at decMathPrec bits
// and rounded to 34 significant digits, half to even, so they carry a full
// 34-digit coefficient as Intel's do ($exp: 1 is
// 2.718281828459045235360287471352662, $pow: [-2, 2] is
// 4.000000000000000000000000000000000). Intel's results are not always
// correctly rounded, so a last digit may differ in rare cases.

const decMathPrec = 400

// wp is the working precision of the decimal functions.
const wp = decMathPrec + 64

// ln(2) as a 704-bit mantissa (value = mantissa * 2^exp).
const (
	ln2Mantissa = "b17217f7d1cf79abc9e3b39803f2f6af40f343267298b62d8a0d175b8baafa2be7b876206debac98559552fb4afa1b10ed2eae35c138214427573b291169b8253e96ca16224ae8c51acbda11317c387eb9ea9bc3b136603b"
	ln2Exp      = -704
)

// bigConst builds a constant at the precision prec.
func bigConst(mantissa string, exp int, prec uint) *big.Float {
	m, _ := new(big.Int).SetString(mantissa, 16)
	f := new(big.Float).SetPrec(prec).SetInt(m)
	return f.SetMantExp(f, exp)
}

func bigF() *big.Float { return new(big.Float).SetPrec(decMathPrec) }

func bigInt64(n int64) *big.Float { return bigF().SetInt64(n) }

// decToBig converts a finite decimal exactly when it has at most a few
// hundred digits, else to decMathPrec bits.
func decToBig(d dec) *big.Float {
	f := bigF().SetInt(d.coef)
	if d.exp == 0 {
		return f
	}
	p := bigF().SetInt(new(big.Int).Exp(bigTen, big.NewInt(int64(absInt(d.exp))), nil))
	if d.exp > 0 {
		return f.Mul(f, p)
	}
	return f.Quo(f, p)
}

func absInt(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// bigToDec rounds to 34 significant digits, half to even.
func bigToDec(f *big.Float) dec {
	if f.IsInf() {
		if f.Sign() > 0 {
			return dec{kind: decPosInf}
		}
		return dec{kind: decNegInf}
	}
	if f.Sign() == 0 {
		return dec{coef: new(big.Int)}
	}
	// Past decimal128's range (10^6145 is about 2^20414, 10^-6176 about
	// 2^-20517) the result is an infinity or zero; printing such a float
	// in decimal would cost time in proportion to its exponent.
	if e := f.MantExp(nil); e > 20420 {
		if f.Sign() > 0 {
			return dec{kind: decPosInf}
		}
		return dec{kind: decNegInf}
	} else if e < -20530 {
		return dec{coef: new(big.Int), exp: -6176}
	}
	// 60 digits, then half-even to 34: the first rounding cannot land on
	// a tie that the exact value does not have at this precision.
	s := f.Text('e', 59)
	mant, expPart, _ := strings.Cut(s, "e")
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	digits := strings.Replace(mant, ".", "", 1)
	coef, _ := new(big.Int).SetString(digits, 10)
	e := atoiSigned(expPart) - (len(digits) - 1)
	if neg {
		coef.Neg(coef)
	}
	c, ex := roundCoef(coef, e, 34)
	return dec{coef: c, exp: ex}
}

func atoiSigned(s string) int {
	n, neg := 0, false
	for i, c := range s {
		switch {
		case i == 0 && c == '-':
			neg = true
		case i == 0 && c == '+':
		default:
			n = n*10 + int(c-'0')
		}
	}
	if neg {
		return -n
	}
	return n
}

// decimalExp is e^x.
func decimalExp(x dec) dec {
	switch x.kind {
	case decNaN, decPosInf:
		return x
	case decNegInf:
		return dec{coef: new(big.Int)}
	}
	if x.coef.Sign() == 0 {
		return dec{coef: big.NewInt(1)}
	}
	f := decToBig(x)
	// Beyond these, e^x is out of decimal128's range either way.
	if f.Cmp(bigInt64(14200)) > 0 {
		return dec{kind: decPosInf}
	}
	if f.Cmp(bigInt64(-14300)) < 0 {
		return dec{coef: new(big.Int), exp: -6176}
	}
	return bigToDec(bigExp(f, wp))
}

// bigExp halves x until it is small, sums the Taylor series, and squares
// back.
func bigExp(x *big.Float, prec uint) *big.Float {
	r := new(big.Float).SetPrec(prec).Set(x)
	halvings := 0
	limit := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(1), -12)
	for new(big.Float).Abs(r).Cmp(limit) > 0 {
		r.SetMantExp(r, -1)
		halvings++
	}
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	eps := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(1), -int(prec))
	for n := int64(1); n < 500; n++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(n))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	for range halvings {
		sum.Mul(sum, sum)
	}
	return sum
}

// bigLn is ln(x) for x > 0: x = m*2^e with m in [0.5, 1), and ln(m) from
// 2*atanh((m-1)/(m+1)).
func bigLn(x *big.Float, prec uint) *big.Float {
	m := new(big.Float).SetPrec(prec)
	e := x.MantExp(m)
	// m in [0.5, 1): doubling m below 1/sqrt(2) keeps |z| under 0.18.
	if m.Cmp(big.NewFloat(0.7071067811865476)) < 0 {
		m.SetMantExp(m, 1)
		e--
	}
	num := new(big.Float).SetPrec(prec).Sub(m, big.NewFloat(1))
	den := new(big.Float).SetPrec(prec).Add(m, big.NewFloat(1))
	z := num.Quo(num, den)
	z2 := new(big.Float).SetPrec(prec).Mul(z, z)
	sum := new(big.Float).SetPrec(prec).Set(z)
	pow := new(big.Float).SetPrec(prec).Set(z)
	eps := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(1), -int(prec))
	for n := int64(3); n < 4000; n += 2 {
		pow.Mul(pow, z2)
		t := new(big.Float).SetPrec(prec).Quo(pow, new(big.Float).SetPrec(prec).SetInt64(n))
		sum.Add(sum, t)
		if new(big.Float).Abs(t).Cmp(eps) < 0 {
			break
		}
	}
	sum.Mul(sum, big.NewFloat(2))
	ln2 := bigConst(ln2Mantissa, ln2Exp, prec)
	return sum.Add(sum, new(big.Float).SetPrec(prec).Mul(ln2, new(big.Float).SetInt64(int64(e))))
}

// decimalLn is ln(x) for x > 0 (the operator checks the argument): ln(1)
// is an exact 0.
func decimalLn(x dec) dec {
	switch x.kind {
	case decNaN, decPosInf:
		return x
	}
	if decCmp(x, dec{coef: big.NewInt(1)}) == 0 {
		return dec{coef: new(big.Int)}
	}
	return bigToDec(bigLn(decToBig(x), wp))
}

// decimalLog10 is log10(x) for x > 0; a power of ten has its exact integer
// logarithm.
func decimalLog10(x dec) dec {
	switch x.kind {
	case decNaN, decPosInf:
		return x
	}
	if k, ok := powerOfTen(x); ok {
		return dec{coef: big.NewInt(int64(k))}
	}
	l := bigLn(decToBig(x), wp)
	return bigToDec(l.Quo(l, bigLn(bigInt64(10), wp)))
}

// powerOfTen reports whether x is 10^k.
func powerOfTen(x dec) (int, bool) {
	s := x.coef.String()
	if s[0] != '1' || strings.Trim(s[1:], "0") != "" {
		return 0, false
	}
	return len(s) - 1 + x.exp, true
}

// powerOfTwo reports whether x is 2^k for an integer k.
func powerOfTwo(x dec) (int, bool) {
	if x.coef.Sign() <= 0 {
		return 0, false
	}
	c := new(big.Int).Set(x.coef)
	e := x.exp
	for e > 0 {
		c.Mul(c, bigTen)
		e--
	}
	if e == 0 {
		if c.BitLen()-1 == int(c.TrailingZeroBits()) {
			return c.BitLen() - 1, true
		}
		return 0, false
	}
	// coef * 10^e with e < 0 is 2^-k when coef = 5^(-e) * 2^j.
	five := new(big.Int).Exp(big.NewInt(5), big.NewInt(int64(-e)), nil)
	q, r := new(big.Int).QuoRem(c, five, new(big.Int))
	if r.Sign() != 0 || q.BitLen()-1 != int(q.TrailingZeroBits()) {
		return 0, false
	}
	return q.BitLen() - 1 + e, true
}

// decimalLog is Decimal128::logarithm: base 10 through log10, any other
// base as ln(x) / ln(base) in decimal division.
func decimalLog(x, base dec) dec {
	if x.kind == decNaN || base.kind == decNaN {
		return dec{kind: decNaN}
	}
	if base.kind == decFinite && decCmp(base, dec{coef: big.NewInt(10)}) == 0 {
		return decimalLog10(x)
	}
	if base.kind == decFinite && decCmp(base, dec{coef: big.NewInt(2)}) == 0 && x.kind == decFinite {
		if k, ok := powerOfTwo(x); ok {
			return dec{coef: big.NewInt(int64(k))}
		}
		l := bigLn(decToBig(x), wp)
		return bigToDec(l.Quo(l, bigLn(bigInt64(2), wp)))
	}
	return bigToDecRounded(decDiv(decimalLn(x), decimalLn(base)))
}

// bigToDecRounded rounds a decimal result to 34 digits.
func bigToDecRounded(d dec) dec {
	if d.kind != decFinite {
		return d
	}
	c, e := roundCoef(d.coef, d.exp, 34)
	return dec{coef: c, exp: e}
}

// decimalSqrt is the IEEE square root: exact results keep the preferred
// exponent floor(exp/2), others 34 digits. The operator refuses negatives.
func decimalSqrt(x dec) dec {
	switch x.kind {
	case decNaN, decPosInf:
		return x
	}
	if x.coef.Sign() == 0 {
		return dec{coef: new(big.Int), exp: floorDivInt(x.exp, 2)}
	}
	// An exact root: coef*10^exp = r^2 * 10^(2*floor(exp/2)).
	c, e := new(big.Int).Set(x.coef), x.exp
	if e%2 != 0 {
		c.Mul(c, bigTen)
		e--
	}
	r := new(big.Int).Sqrt(c)
	if new(big.Int).Mul(r, r).Cmp(c) == 0 && len(r.String()) <= 34 {
		return dec{coef: r, exp: e / 2}
	}
	f := decToBig(x)
	return bigToDec(f.Sqrt(f))
}

func floorDivInt(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// decimalPow is base^exp with a full 34-digit coefficient, as Intel's
// bid128_pow gives it ($pow: [NumberDecimal("10.0"), 2] is
// 100.0000000000000000000000000000000).
func decimalPow(b, e dec) dec {
	if e.kind == decFinite && e.coef.Sign() == 0 {
		return dec{coef: big.NewInt(1)}
	}
	if b.kind == decNaN || e.kind == decNaN {
		return dec{kind: decNaN}
	}
	if b.kind != decFinite || e.kind != decFinite {
		return powSpecial(b, e)
	}
	integral, odd := decIntegral(e)
	neg := b.coef.Sign() < 0
	if neg && !integral {
		return dec{kind: decNaN}
	}
	if b.coef.Sign() == 0 {
		if decSign(e) > 0 {
			return dec{coef: new(big.Int)}
		}
		return dec{kind: decPosInf}
	}
	// The result's magnitude first: one beyond decimal128's range is an
	// infinity or zero without computing it.
	mag := bigLn(new(big.Float).Abs(decToBig(b)), wp)
	mag.Mul(mag, decToBig(e))
	if mag.Cmp(bigInt64(14200)) > 0 {
		if neg && odd {
			return dec{kind: decNegInf}
		}
		return dec{kind: decPosInf}
	}
	if mag.Cmp(bigInt64(-14300)) < 0 {
		return dec{coef: new(big.Int), exp: -6176}
	}
	// An integral exponent of modest size is multiplied out exactly.
	var f *big.Float
	if integral {
		if n, ok := decToInt64(e, roundTowardZero); ok && n >= -4096 && n <= 4096 {
			f = bigPowInt(new(big.Float).Abs(decToBig(b)), n, wp)
		}
	}
	if f == nil {
		f = bigExp(mag, wp)
	}
	if neg && odd {
		f.Neg(f)
	}
	return fullCoefficient(bigToDec(f))
}

func bigPowInt(b *big.Float, n int64, prec uint) *big.Float {
	r := new(big.Float).SetPrec(prec).SetInt64(1)
	base := new(big.Float).SetPrec(prec).Set(b)
	k := n
	if k < 0 {
		k = -k
	}
	for k > 0 {
		if k&1 == 1 {
			r.Mul(r, base)
		}
		base.Mul(base, base)
		k >>= 1
	}
	if n < 0 {
		r.Quo(new(big.Float).SetPrec(prec).SetInt64(1), r)
	}
	return r
}

// fullCoefficient pads a rounded result's coefficient to 34 digits.
func fullCoefficient(d dec) dec {
	if d.kind != decFinite || d.coef.Sign() == 0 {
		return d
	}
	n := len(new(big.Int).Abs(d.coef).String())
	if n >= 34 || d.exp-(34-n) < -6176 {
		return d
	}
	scale := new(big.Int).Exp(bigTen, big.NewInt(int64(34-n)), nil)
	return dec{coef: new(big.Int).Mul(d.coef, scale), exp: d.exp - (34 - n)}
}

// decIntegral reports whether a finite decimal is an integer, and whether
// it is odd.
func decIntegral(d dec) (integral, odd bool) {
	if d.exp >= 0 {
		return true, d.exp == 0 && d.coef.Bit(0) == 1
	}
	div := new(big.Int).Exp(bigTen, big.NewInt(int64(-d.exp)), nil)
	q, r := new(big.Int).QuoRem(d.coef, div, new(big.Int))
	if r.Sign() != 0 {
		return false, false
	}
	return true, q.Bit(0) == 1
}

// powSpecial is pow with an infinite base or exponent.
func powSpecial(b, e dec) dec {
	absB := 0 // -1 below one, 0 one, 1 above one
	switch {
	case b.kind != decFinite:
		absB = 1
	default:
		absB = decCmp(dec{coef: new(big.Int).Abs(b.coef), exp: b.exp}, dec{coef: big.NewInt(1)})
	}
	if e.kind != decFinite {
		switch {
		case absB == 0:
			return dec{coef: big.NewInt(1)}
		case (absB > 0) == (e.kind == decPosInf):
			return dec{kind: decPosInf}
		}
		return dec{coef: new(big.Int)}
	}
	// An infinite base with a finite exponent.
	_, odd := decIntegral(e)
	if decSign(e) < 0 {
		return dec{coef: new(big.Int)}
	}
	if b.kind == decNegInf && odd {
		return dec{kind: decNegInf}
	}
	return dec{kind: decPosInf}
}

// bigPi is pi at the precision prec.
func bigPi(prec uint) *big.Float {
	if prec <= piBits-32 {
		return bigConst(piMantissa, piExp, prec)
	}
	// Beyond the constant (decimal128's arguments never need it): pi = 4 atan(1).
	p := bigAtan(new(big.Float).SetInt64(1), prec+32)
	p.SetMantExp(p, 2)
	return p.SetPrec(prec)
}

// bigSinCos is sin(x) and cos(x): x reduced modulo 2*pi at a precision
// its magnitude needs, then Taylor series on a quarter of it.
func bigSinCos(x *big.Float, prec uint) (sin, cos *big.Float) {
	// The reduction needs as many more bits as the argument has above its
	// point; the series after it only prec.
	rp := prec
	if e := x.MantExp(nil); e > 0 {
		rp += uint(e)
	}
	pi := bigPi(rp)
	twoPi := new(big.Float).SetPrec(rp).Mul(pi, big.NewFloat(2))
	r := new(big.Float).SetPrec(rp).Set(x)
	q := new(big.Float).SetPrec(rp).Quo(r, twoPi)
	qi, _ := q.Int(nil)
	r.Sub(r, new(big.Float).SetPrec(rp).Mul(twoPi, new(big.Float).SetPrec(rp).SetInt(qi)))
	r.SetPrec(prec)
	// Quarter the angle, then use the double-angle formulas twice.
	r.SetMantExp(r, -2)
	r2 := new(big.Float).SetPrec(prec).Mul(r, r)
	s := new(big.Float).SetPrec(prec).Set(r)
	c := new(big.Float).SetPrec(prec).SetInt64(1)
	ts := new(big.Float).SetPrec(prec).Set(r)
	tc := new(big.Float).SetPrec(prec).SetInt64(1)
	eps := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(1), -int(prec))
	for n := int64(1); n < 2000; n++ {
		ts.Mul(ts, r2)
		ts.Quo(ts, new(big.Float).SetInt64((2*n)*(2*n+1)))
		ts.Neg(ts)
		tc.Mul(tc, r2)
		tc.Quo(tc, new(big.Float).SetInt64((2*n-1)*(2*n)))
		tc.Neg(tc)
		s.Add(s, ts)
		c.Add(c, tc)
		if new(big.Float).Abs(ts).Cmp(eps) < 0 && new(big.Float).Abs(tc).Cmp(eps) < 0 {
			break
		}
	}
	for range 2 {
		s2 := new(big.Float).SetPrec(prec).Mul(s, c)
		s2.SetMantExp(s2, 1)
		c2 := new(big.Float).SetPrec(prec).Mul(c, c)
		c2.Sub(c2, new(big.Float).SetPrec(prec).Mul(s, s))
		s, c = s2, c2
	}
	return s, c
}

// bigAtan is atan(x): atan(x) = pi/2 - atan(1/x) beyond 1, argument
// halving, then Taylor.
func bigAtan(x *big.Float, prec uint) *big.Float {
	one := new(big.Float).SetPrec(prec).SetInt64(1)
	neg := x.Sign() < 0
	a := new(big.Float).SetPrec(prec).Abs(x)
	invert := a.Cmp(one) > 0
	if invert {
		a.Quo(one, a)
	}
	halvings := 0
	limit := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(1), -10)
	for a.Cmp(limit) > 0 {
		// atan(a) = 2 atan(a / (1 + sqrt(1 + a^2)))
		s := new(big.Float).SetPrec(prec).Mul(a, a)
		s.Add(s, one)
		s.Sqrt(s)
		s.Add(s, one)
		a.Quo(a, s)
		halvings++
	}
	a2 := new(big.Float).SetPrec(prec).Mul(a, a)
	sum := new(big.Float).SetPrec(prec).Set(a)
	pow := new(big.Float).SetPrec(prec).Set(a)
	eps := new(big.Float).SetPrec(prec).SetMantExp(big.NewFloat(1), -int(prec))
	for k := int64(1); k < 4000; k++ {
		pow.Mul(pow, a2)
		t := new(big.Float).SetPrec(prec).Quo(pow, new(big.Float).SetInt64(2*k+1))
		if k%2 == 1 {
			sum.Sub(sum, t)
		} else {
			sum.Add(sum, t)
		}
		if t.Cmp(eps) < 0 {
			break
		}
	}
	sum.SetMantExp(sum, halvings)
	if invert {
		half := bigPi(prec)
		half.SetMantExp(half, -1)
		sum.Sub(half, sum)
	}
	if neg {
		sum.Neg(sum)
	}
	return sum
}

// tinyArgument reports whether x is so small that an odd function with
// slope one at zero returns x itself at 34 digits.
func tinyArgument(x dec) bool {
	return len(new(big.Int).Abs(x.coef).String())+x.exp < -40
}

// decimalTrig evaluates the trigonometric operator name on a finite or
// infinite decimal whose bounds the operator checked.
func decimalTrig(name string, x dec) dec {
	if x.kind == decNaN {
		return x
	}
	if x.kind != decFinite {
		return trigAtInfinity(name, x)
	}
	one := dec{coef: big.NewInt(1)}
	if x.coef.Sign() == 0 {
		switch name {
		case "$cos", "$cosh":
			return one
		case "$acos":
			return bigToDec(halfPi())
		}
		return x
	}
	if tinyArgument(x) {
		switch name {
		case "$sin", "$tan", "$asin", "$atan", "$sinh", "$tanh", "$asinh", "$atanh":
			return bigToDecRounded(x)
		}
	}
	abs := decCmp(dec{coef: new(big.Int).Abs(x.coef), exp: x.exp}, one)
	switch {
	case name == "$acos" && abs == 0 && x.coef.Sign() > 0, name == "$acosh" && decCmp(x, one) == 0:
		return dec{coef: new(big.Int)}
	case name == "$atanh" && abs == 0:
		if x.coef.Sign() > 0 {
			return dec{kind: decPosInf}
		}
		return dec{kind: decNegInf}
	}
	f := decToBig(x)
	if (name == "$sinh" || name == "$cosh" || name == "$tanh") && (f.Cmp(bigInt64(14200)) > 0 || f.Cmp(bigInt64(-14200)) < 0) {
		switch {
		case name == "$cosh":
			return dec{kind: decPosInf}
		case name == "$sinh" && f.Sign() > 0:
			return dec{kind: decPosInf}
		case name == "$sinh":
			return dec{kind: decNegInf}
		case f.Sign() > 0:
			return one
		}
		return dec{coef: big.NewInt(-1)}
	}
	return bigToDec(bigTrig(name, f, wp))
}

// bigTrig computes a trigonometric operator at the precision prec on a
// finite argument inside its domain, away from the exact points its
// callers handle.
func bigTrig(name string, f *big.Float, prec uint) *big.Float {
	one := new(big.Float).SetPrec(prec).SetInt64(1)
	half := func(r *big.Float) *big.Float { return r.SetMantExp(r, -1) }
	switch name {
	case "$sin":
		s, _ := bigSinCos(f, prec)
		return s
	case "$cos":
		_, c := bigSinCos(f, prec)
		return c
	case "$tan":
		s, c := bigSinCos(f, prec)
		return s.Quo(s, c)
	case "$atan":
		return bigAtan(f, prec)
	case "$asin", "$acos":
		var as *big.Float
		if new(big.Float).Abs(f).Cmp(one) == 0 {
			as = half(bigPi(prec))
			if f.Sign() < 0 {
				as.Neg(as)
			}
		} else {
			d := new(big.Float).SetPrec(prec).Mul(f, f)
			d.Sub(one, d)
			d.Sqrt(d)
			as = bigAtan(d.Quo(f, d), prec)
		}
		if name == "$asin" {
			return as
		}
		return new(big.Float).SetPrec(prec).Sub(half(bigPi(prec)), as)
	case "$sinh", "$cosh", "$tanh":
		ep := bigExp(f, prec)
		em := new(big.Float).SetPrec(prec).Quo(one, ep)
		switch name {
		case "$sinh":
			return half(new(big.Float).SetPrec(prec).Sub(ep, em))
		case "$cosh":
			return half(new(big.Float).SetPrec(prec).Add(ep, em))
		}
		num := new(big.Float).SetPrec(prec).Sub(ep, em)
		return num.Quo(num, new(big.Float).SetPrec(prec).Add(ep, em))
	case "$asinh":
		a := new(big.Float).SetPrec(prec).Abs(f)
		s := new(big.Float).SetPrec(prec).Mul(a, a)
		s.Add(s, one)
		s.Sqrt(s)
		r := bigLn(s.Add(s, a), prec)
		if f.Sign() < 0 {
			r.Neg(r)
		}
		return r
	case "$acosh":
		s := new(big.Float).SetPrec(prec).Mul(f, f)
		s.Sub(s, one)
		s.Sqrt(s)
		return bigLn(s.Add(s, f), prec)
	case "$atanh":
		num := new(big.Float).SetPrec(prec).Add(one, f)
		den := new(big.Float).SetPrec(prec).Sub(one, f)
		return half(bigLn(num.Quo(num, den), prec))
	}
	return new(big.Float).SetPrec(prec).SetInf(false)
}

func halfPi() *big.Float {
	p := bigPi(decMathPrec + 64)
	return p.SetMantExp(p, -1)
}

// trigAtInfinity is a trigonometric operator's limit at an infinity; the
// bounded ones refused infinities before.
func trigAtInfinity(name string, x dec) dec {
	pos := x.kind == decPosInf
	switch name {
	case "$atan":
		h := halfPi()
		if !pos {
			h.Neg(h)
		}
		return bigToDec(h)
	case "$tanh":
		if pos {
			return dec{coef: big.NewInt(1)}
		}
		return dec{coef: big.NewInt(-1)}
	case "$cosh":
		return dec{kind: decPosInf}
	}
	// $sinh, $asinh, $acosh keep the infinity.
	return x
}

// decimalAtan2 is atan2(y, x) with IEEE's quadrants and infinities.
func decimalAtan2(y, x dec) dec {
	if y.kind == decNaN || x.kind == decNaN {
		return dec{kind: decNaN}
	}
	prec := uint(decMathPrec + 64)
	pi := bigPi(prec)
	sy := decSign(y)
	yNeg := sy < 0 || (sy == 0 && y.kind == decFinite && y.coef.Sign() < 0)
	signed := func(f *big.Float) dec {
		if yNeg {
			f.Neg(f)
		}
		return bigToDec(f)
	}
	switch {
	case y.kind != decFinite && x.kind != decFinite:
		q := new(big.Float).SetPrec(prec).Quo(pi, big.NewFloat(4))
		if x.kind == decNegInf {
			q.Mul(q, big.NewFloat(3))
		}
		return signed(q)
	case y.kind != decFinite:
		return signed(halfPi())
	case x.kind == decPosInf:
		return signed(new(big.Float).SetPrec(prec))
	case x.kind == decNegInf:
		return signed(pi)
	}
	if y.coef.Sign() == 0 {
		if x.coef.Sign() >= 0 {
			return y
		}
		return signed(pi)
	}
	if x.coef.Sign() == 0 {
		return signed(halfPi())
	}
	a := bigAtan(new(big.Float).SetPrec(prec).Quo(decToBig(y), decToBig(x)), wp)
	if x.coef.Sign() < 0 {
		if yNeg {
			a.Sub(a, pi)
		} else {
			a.Add(a, pi)
		}
	}
	return bigToDec(a)
}
