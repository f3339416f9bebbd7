package update

import (
	"math"
	"math/big"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// decimalArith adds or multiplies when a Decimal128 is involved; the result
// is a Decimal128, as in mongod. Integers convert exactly, doubles to 15
// significant digits as mongod's Decimal128(double) does.
func decimalArith(a, b any, mul bool) (any, bool) {
	xi, xe, ok1 := toBigDecimal(a)
	yi, ye, ok2 := toBigDecimal(b)
	if !ok1 || !ok2 {
		nan, _ := bson.ParseDecimal128("NaN")
		return nan, true
	}
	var r *big.Int
	var e int
	if mul {
		r, e = new(big.Int).Mul(xi, yi), xe+ye
	} else {
		for xe > ye {
			xi.Mul(xi, big.NewInt(10))
			xe--
		}
		for ye > xe {
			yi.Mul(yi, big.NewInt(10))
			ye--
		}
		r, e = new(big.Int).Add(xi, yi), xe
	}
	ten := big.NewInt(10)
	for r.BitLen() > 113 || e < -6176 {
		q, m := new(big.Int).QuoRem(r, ten, new(big.Int))
		if m.Sign() != 0 && r.BitLen() <= 113 && e >= -6176 {
			break
		}
		r, e = q, e+1
	}
	d, ok := bson.ParseDecimal128FromBigInt(r, e)
	if !ok {
		inf, _ := bson.ParseDecimal128("Infinity")
		return inf, true
	}
	return d, true
}

func toBigDecimal(v any) (*big.Int, int, bool) {
	switch n := v.(type) {
	case int32:
		return big.NewInt(int64(n)), 0, true
	case int64:
		return big.NewInt(n), 0, true
	case float64:
		if math.IsNaN(n) || math.IsInf(n, 0) {
			return nil, 0, false
		}
		// Decimal128(double) keeps 15 significant digits, trailing zeros
		// included: 1.5 becomes 1.50000000000000.
		d, err := bson.ParseDecimal128(strconv.FormatFloat(n, 'e', 14, 64))
		if err != nil {
			return nil, 0, false
		}
		return toBigDecimal(d)
	case bson.Decimal128:
		i, e, err := n.BigInt()
		if err != nil {
			return nil, 0, false
		}
		return i, e, true
	}
	return nil, 0, false
}
