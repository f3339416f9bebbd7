package update

import (
	"math"
	"math/big"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// decNum is a Decimal128 operand: a finite coef*10^exp (neg carries the
// sign of a zero, which big.Int cannot), or a NaN or an infinity.
type decNum struct {
	coef *big.Int
	exp  int
	neg  bool
	nan  bool
	inf  int // +1 or -1 for an infinity
}

// decimalArith adds or multiplies when a Decimal128 is involved; the result
// is a Decimal128 as SafeNum's addDecimals/mulDecimals make it: IEEE 754
// decimal arithmetic rounded half to even to 34 digits, where an infinity
// stays infinite, Inf-Inf and Inf*0 are NaN, and NaN wins. Integers convert
// exactly, doubles to 15 significant digits as Decimal128(double) does.
func decimalArith(a, b any, mul bool) (any, bool) {
	x, y := toDecNum(a), toDecNum(b)
	nan, _ := bson.ParseDecimal128("NaN")
	switch {
	case x.nan || y.nan:
		return nan, true
	case x.inf != 0 || y.inf != 0:
		return decimalSpecial(x, y, mul), true
	}
	var r decNum
	if mul {
		r = decNum{coef: new(big.Int).Mul(x.coef, y.coef), exp: x.exp + y.exp, neg: x.sign() != y.sign()}
	} else {
		xi, yi, e := new(big.Int).Set(x.coef), new(big.Int).Set(y.coef), min(x.exp, y.exp)
		xi.Mul(xi, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(x.exp-e)), nil))
		yi.Mul(yi, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(y.exp-e)), nil))
		// A zero sum is -0 only when both operands are negative.
		r = decNum{coef: xi.Add(xi, yi), exp: e, neg: x.sign() < 0 && y.sign() < 0}
	}
	return r.round(), true
}

// decimalSpecial is the result when an operand is infinite.
func decimalSpecial(x, y decNum, mul bool) bson.Decimal128 {
	sign := 0
	if mul {
		if (x.inf == 0 && x.coef.Sign() == 0) || (y.inf == 0 && y.coef.Sign() == 0) {
			sign = 0 // Inf * 0
		} else {
			sign = x.sign() * y.sign()
		}
	} else {
		switch {
		case x.inf != 0 && y.inf != 0 && x.inf != y.inf:
			sign = 0 // Inf - Inf
		case x.inf != 0:
			sign = x.inf
		default:
			sign = y.inf
		}
	}
	s := "NaN"
	switch sign {
	case 1:
		s = "Infinity"
	case -1:
		s = "-Infinity"
	}
	d, _ := bson.ParseDecimal128(s)
	return d
}

func (d decNum) sign() int {
	switch {
	case d.inf != 0:
		return d.inf
	case d.coef.Sign() != 0:
		return d.coef.Sign()
	case d.neg:
		return -1
	}
	return 1
}

// round encodes d with at most 34 digits, rounding half to even once over
// all the dropped digits, and an exponent in Decimal128's range (an
// overflow is an infinity, an underflow rounds toward zero's exponent).
func (d decNum) round() bson.Decimal128 {
	coef, exp := new(big.Int).Abs(d.coef), d.exp
	ten := big.NewInt(10)
	drop := max(len(coef.String())-34, -6176-exp)
	if coef.Sign() == 0 {
		drop = max(0, -6176-exp)
	}
	if drop > 0 {
		div := new(big.Int).Exp(ten, big.NewInt(int64(drop)), nil)
		q, rem := new(big.Int).QuoRem(coef, div, new(big.Int))
		switch rem.Lsh(rem, 1).Cmp(div) {
		case 1:
			q.Add(q, big.NewInt(1))
		case 0:
			if q.Bit(0) == 1 {
				q.Add(q, big.NewInt(1))
			}
		}
		coef, exp = q, exp+drop
		if len(coef.String()) > 34 {
			coef.Quo(coef, ten)
			exp++
		}
	}
	neg := d.sign() < 0
	// A short coefficient takes trailing zeros to bring a large exponent
	// into range (IEEE clamping); a zero just takes the largest exponent.
	for exp > 6111 && coef.Sign() != 0 && len(coef.String()) < 34 {
		coef.Mul(coef, ten)
		exp--
	}
	if exp > 6111 && coef.Sign() == 0 {
		exp = 6111
	}
	s := coef.String() + "E" + strconv.Itoa(exp)
	if exp > 6111 {
		s = "Infinity"
	}
	if neg {
		s = "-" + s
	}
	r, _ := bson.ParseDecimal128(s)
	return r
}

func toDecNum(v any) decNum {
	switch n := v.(type) {
	case int32:
		return decNum{coef: big.NewInt(int64(n))}
	case int64:
		return decNum{coef: big.NewInt(n)}
	case float64:
		switch {
		case math.IsNaN(n):
			return decNum{nan: true}
		case math.IsInf(n, 1):
			return decNum{inf: 1}
		case math.IsInf(n, -1):
			return decNum{inf: -1}
		case n == 0:
			// Decimal128(double) converts a zero as 0E+0, keeping its sign.
			return decNum{coef: new(big.Int), neg: math.Signbit(n)}
		}
		// Decimal128(double) keeps 15 significant digits, trailing zeros
		// included: 1.5 becomes 1.50000000000000.
		d, err := bson.ParseDecimal128(strconv.FormatFloat(n, 'e', 14, 64))
		if err != nil {
			return decNum{nan: true}
		}
		return toDecNum(d)
	case bson.Decimal128:
		if n.IsNaN() {
			return decNum{nan: true}
		}
		if inf := n.IsInf(); inf != 0 {
			return decNum{inf: inf}
		}
		i, e, err := n.BigInt()
		if err != nil {
			return decNum{nan: true}
		}
		hi, _ := n.GetBytes()
		return decNum{coef: i, exp: e, neg: hi>>63 == 1}
	}
	return decNum{nan: true}
}
