package expr

import (
	"math"
	"math/big"
)

// mongod computes the double results of $exp, $ln, $log, $log10, $pow and
// the trigonometric operators with the C library (glibc). Its exp, log,
// pow, sin, cos, tan, asin, acos, atan and atan2 give the correctly rounded
// double in practice, which Go's math package may miss by a unit in the
// last place; these compute the exact value at doublePrec bits and round
// it once. Its log10 and hyperbolic functions are fdlibm's formulas over
// those, ported below, so that $log10: 11 is 1.041392685158225 as in
// mongod (the correctly rounded value is 1.0413926851582251).

const doublePrec = 110

func bigOf(x float64) *big.Float { return new(big.Float).SetPrec(doublePrec).SetFloat64(x) }

func toFloat(f *big.Float) float64 {
	r, _ := f.Float64()
	return r
}

// finite reports whether x is an ordinary argument the big functions take.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func crExp(x float64) float64 {
	if !finite(x) || x > 710 || x < -746 || x == 0 {
		return math.Exp(x)
	}
	return toFloat(bigExp(bigOf(x), doublePrec))
}

func crLog(x float64) float64 {
	if !finite(x) || x <= 0 || x == 1 {
		return math.Log(x)
	}
	return toFloat(bigLn(bigOf(x), doublePrec))
}

// glibcLog10 is fdlibm's __ieee754_log10: k*log10(2) plus log10 of the
// mantissa in [1, 2), from log.
func glibcLog10(x float64) float64 {
	const (
		ivln10   = 4.34294481903251816668e-01
		log102hi = 3.01029995663611771306e-01
		log102lo = 3.69423907715893078616e-13
	)
	if !finite(x) || x <= 0 {
		return math.Log10(x)
	}
	frac, exp := math.Frexp(x) // x = frac * 2^exp, frac in [0.5, 1)
	k := exp - 1
	m := frac * 2
	i := 0
	if k < 0 {
		i = 1
	}
	if i == 1 {
		m /= 2
	}
	y := float64(k + i)
	z := y*log102lo + ivln10*crLog(m)
	return z + y*log102hi
}

// crPow is pow(b, e) for doubles.
func crPow(b, e float64) float64 {
	if !finite(b) || !finite(e) || b == 0 || e == 0 || b == 1 {
		return math.Pow(b, e)
	}
	neg := b < 0
	if neg && e != math.Trunc(e) {
		return math.NaN()
	}
	odd := neg && math.Mod(e, 2) != 0
	l := bigLn(bigOf(math.Abs(b)), doublePrec)
	l.Mul(l, bigOf(e))
	if l.Cmp(bigOf(710)) > 0 || l.Cmp(bigOf(-746)) < 0 {
		return math.Pow(b, e)
	}
	r := toFloat(bigExp(l, doublePrec))
	if odd {
		return -r
	}
	return r
}

// crTrig is a trigonometric operator on a double inside its domain.
func crTrig(name string, x float64, fn func(float64) float64) float64 {
	switch name {
	case "$sinh":
		return glibcSinh(x)
	case "$cosh":
		return glibcCosh(x)
	case "$tanh":
		return glibcTanh(x)
	case "$asinh":
		return glibcAsinh(x)
	case "$acosh":
		return glibcAcosh(x)
	case "$atanh":
		return glibcAtanh(x)
	}
	if !finite(x) || x == 0 || (name == "$acos" && x == 1) {
		return fn(x)
	}
	return toFloat(bigTrig(name, bigOf(x), doublePrec))
}

// The hyperbolic functions are fdlibm's (e_sinh.c, e_cosh.c, s_tanh.c,
// s_asinh.c, e_acosh.c, e_atanh.c) over expm1, log1p, exp and log.

func glibcSinh(x float64) float64 {
	if !finite(x) {
		return x
	}
	h := 0.5
	if x < 0 {
		h = -h
	}
	a := math.Abs(x)
	switch {
	case a < 22:
		if a < 1.0/(1<<28) {
			return x
		}
		t := math.Expm1(a)
		if a < 1 {
			return h * (2*t - t*t/(t+1))
		}
		return h * (t + t/(t+1))
	case a < 709.782712893384:
		return h * crExp(a)
	}
	w := crExp(0.5 * a)
	return h * w * w
}

func glibcCosh(x float64) float64 {
	if !finite(x) {
		return x * x
	}
	a := math.Abs(x)
	switch {
	case a < 0.5*math.Ln2:
		t := math.Expm1(a)
		w := 1 + t
		if a < 1.0/(1<<55) {
			return w
		}
		return 1 + (t*t)/(w+w)
	case a < 22:
		t := crExp(a)
		return 0.5*t + 0.5/t
	case a < 709.782712893384:
		return 0.5 * crExp(a)
	}
	w := crExp(0.5 * a)
	return 0.5 * w * w
}

func glibcTanh(x float64) float64 {
	if math.IsNaN(x) {
		return x
	}
	if math.IsInf(x, 0) {
		if x > 0 {
			return 1
		}
		return -1
	}
	a := math.Abs(x)
	var z float64
	switch {
	case a >= 22:
		z = 1
	case x == 0:
		return x
	case a < 1.0/(1<<55):
		return x * (1 + x)
	case a >= 1:
		t := math.Expm1(2 * a)
		z = 1 - 2/(t+2)
	default:
		t := math.Expm1(-2 * a)
		z = -t / (t + 2)
	}
	if x < 0 {
		return -z
	}
	return z
}

func glibcAsinh(x float64) float64 {
	if !finite(x) {
		return x
	}
	a := math.Abs(x)
	var t float64
	switch {
	case a > 1<<28:
		t = crLog(a) + math.Ln2
	case a > 2:
		t = crLog(2*a + 1/(math.Sqrt(a*a+1)+a))
	case a < 1.0/(1<<28):
		return x
	default:
		t = math.Log1p(a + a*a/(1+math.Sqrt(1+a*a)))
	}
	if x < 0 {
		return -t
	}
	return t
}

func glibcAcosh(x float64) float64 {
	switch {
	case math.IsNaN(x) || x < 1:
		return math.NaN()
	case x == 1:
		return 0
	case x >= 1<<28:
		if math.IsInf(x, 1) {
			return x
		}
		return crLog(x) + math.Ln2
	case x > 2:
		return crLog(2*x - 1/(x+math.Sqrt(x*x-1)))
	}
	t := x - 1
	return math.Log1p(t + math.Sqrt(2*t+t*t))
}

func glibcAtanh(x float64) float64 {
	a := math.Abs(x)
	switch {
	case math.IsNaN(x) || a > 1:
		return math.NaN()
	case a == 1:
		return math.Copysign(math.Inf(1), x)
	}
	var t float64
	switch {
	case a < 1.0/(1<<28):
		return x
	case a < 0.5:
		t = a + a
		t = 0.5 * math.Log1p(t+t*a/(1-a))
	default:
		t = 0.5 * math.Log1p((a+a)/(1-a))
	}
	if x < 0 {
		return -t
	}
	return t
}

func crAtan2(y, x float64) float64 {
	if !finite(y) || !finite(x) || y == 0 || x == 0 {
		return math.Atan2(y, x)
	}
	a := bigAtan(new(big.Float).SetPrec(doublePrec).Quo(bigOf(y), bigOf(x)), doublePrec)
	if x < 0 {
		pi := bigPi(doublePrec)
		if y < 0 {
			a.Sub(a, pi)
		} else {
			a.Add(a, pi)
		}
	}
	return toFloat(a)
}
