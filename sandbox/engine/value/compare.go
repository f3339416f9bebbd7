package value

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/big"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Compare orders two values the way MongoDB sorts and compares BSON
// (src/mongo/bson/bsonobj woCompare without collation): first by canonical
// type rank, then within the type. Numbers of different types compare by
// numeric value; NaN sorts below every other number. It returns -1, 0 or 1.
func Compare(a, b any) int {
	// Fast paths for the same concrete type, which is what index keys,
	// sorts and groups compare almost always.
	switch av := a.(type) {
	case string:
		if bv, ok := b.(string); ok {
			return strings.Compare(av, bv)
		}
	case int32:
		if bv, ok := b.(int32); ok {
			return cmpInt64(int64(av), int64(bv))
		}
	case int64:
		if bv, ok := b.(int64); ok {
			return cmpInt64(av, bv)
		}
	case bson.ObjectID:
		if bv, ok := b.(bson.ObjectID); ok {
			return CompareObjectIDs(&av, &bv)
		}
	case bson.DateTime:
		if bv, ok := b.(bson.DateTime); ok {
			return cmpInt64(int64(av), int64(bv))
		}
	case float64:
		if bv, ok := b.(float64); ok && av == av && bv == bv {
			switch {
			case av < bv:
				return -1
			case av > bv:
				return 1
			}
			return 0
		}
	}
	ra, rb := canonicalOrder(a), canonicalOrder(b)
	if ra != rb {
		return cmpInt(ra, rb)
	}
	switch av := a.(type) {
	case nil, bson.MinKey, bson.MaxKey, Missing, bson.Undefined:
		return 0
	case int32, int64, float64, bson.Decimal128:
		return CompareNumbers(a, b)
	case string:
		return strings.Compare(av, stringOf(b))
	case bson.Symbol:
		return strings.Compare(string(av), stringOf(b))
	case bson.D:
		return compareDocs(av, b.(bson.D))
	case bson.A:
		return compareArrays(av, b.(bson.A))
	case bson.Binary:
		bv := b.(bson.Binary)
		if len(av.Data) != len(bv.Data) {
			return cmpInt(len(av.Data), len(bv.Data))
		}
		if av.Subtype != bv.Subtype {
			return cmpInt(int(av.Subtype), int(bv.Subtype))
		}
		return bytes.Compare(av.Data, bv.Data)
	case bson.ObjectID:
		bv := b.(bson.ObjectID)
		return bytes.Compare(av[:], bv[:])
	case bool:
		bv := b.(bool)
		if av == bv {
			return 0
		}
		if !av {
			return -1
		}
		return 1
	case bson.DateTime:
		return cmpInt64(int64(av), int64(b.(bson.DateTime)))
	case bson.Timestamp:
		return av.Compare(b.(bson.Timestamp))
	case bson.Regex:
		bv := b.(bson.Regex)
		if c := strings.Compare(av.Pattern, bv.Pattern); c != 0 {
			return c
		}
		return strings.Compare(av.Options, bv.Options)
	case bson.DBPointer:
		bv := b.(bson.DBPointer)
		if len(av.DB) != len(bv.DB) {
			return cmpInt(len(av.DB), len(bv.DB))
		}
		if c := strings.Compare(av.DB, bv.DB); c != 0 {
			return c
		}
		return bytes.Compare(av.Pointer[:], bv.Pointer[:])
	case bson.JavaScript:
		return strings.Compare(string(av), string(b.(bson.JavaScript)))
	case bson.CodeWithScope:
		bv := b.(bson.CodeWithScope)
		if c := strings.Compare(string(av.Code), string(bv.Code)); c != 0 {
			return c
		}
		ad, _ := av.Scope.(bson.D)
		bd, _ := bv.Scope.(bson.D)
		return compareDocs(ad, bd)
	}
	return 0
}

// Equal reports Compare(a, b) == 0.
func Equal(a, b any) bool { return Compare(a, b) == 0 }

func stringOf(v any) string {
	switch s := v.(type) {
	case string:
		return s
	case bson.Symbol:
		return string(s)
	}
	return ""
}

func compareDocs(a, b bson.D) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		ra, rb := canonicalOrder(a[i].Value), canonicalOrder(b[i].Value)
		if ra != rb {
			return cmpInt(ra, rb)
		}
		if c := strings.Compare(a[i].Key, b[i].Key); c != 0 {
			return c
		}
		if c := Compare(a[i].Value, b[i].Value); c != 0 {
			return c
		}
	}
	return cmpInt(len(a), len(b))
}

func compareArrays(a, b bson.A) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmpInt(len(a), len(b))
}

// CompareNumbers compares two numeric values of any numeric BSON type
// exactly (an int64 above 2^53 is not rounded through float64).
func CompareNumbers(a, b any) int {
	switch av := a.(type) {
	case int32:
		switch bv := b.(type) {
		case int32:
			return cmpInt64(int64(av), int64(bv))
		case int64:
			return cmpInt64(int64(av), bv)
		}
	case int64:
		switch bv := b.(type) {
		case int32:
			return cmpInt64(av, int64(bv))
		case int64:
			return cmpInt64(av, bv)
		}
	}
	_, aDec := a.(bson.Decimal128)
	_, bDec := b.(bson.Decimal128)
	if aDec || bDec {
		return compareBig(a, b)
	}
	af, bf := ToDouble(a), ToDouble(b)
	// Mixed int64/double: compare in float, and break a float tie exactly,
	// since a large int64 can round to the same double as its neighbour.
	if math.IsNaN(af) || math.IsNaN(bf) {
		switch {
		case math.IsNaN(af) && math.IsNaN(bf):
			return 0
		case math.IsNaN(af):
			return -1
		default:
			return 1
		}
	}
	if af < bf {
		return -1
	}
	if af > bf {
		return 1
	}
	ai, aInt := a.(int64)
	bi, bInt := b.(int64)
	if aInt != bInt && !math.IsInf(af, 0) {
		if aInt {
			return new(big.Float).SetInt64(ai).Cmp(big.NewFloat(bf))
		}
		return big.NewFloat(af).Cmp(new(big.Float).SetInt64(bi))
	}
	return 0
}

// compareBig compares numbers when a Decimal128 is involved. NaN is the
// lowest number, infinities bracket everything else.
func compareBig(a, b any) int {
	ak, af := bigOf(a)
	bk, bf := bigOf(b)
	if ak != bk || ak != kindFinite {
		return cmpInt(ak, bk)
	}
	return af.Cmp(bf)
}

const (
	kindNaN = iota
	kindNegInf
	kindFinite
	kindPosInf
)

func bigOf(v any) (int, *big.Float) {
	switch n := v.(type) {
	case int32:
		return kindFinite, new(big.Float).SetInt64(int64(n))
	case int64:
		return kindFinite, new(big.Float).SetInt64(n)
	case float64:
		switch {
		case math.IsNaN(n):
			return kindNaN, nil
		case math.IsInf(n, 1):
			return kindPosInf, nil
		case math.IsInf(n, -1):
			return kindNegInf, nil
		}
		return kindFinite, big.NewFloat(n)
	case bson.Decimal128:
		if n.IsNaN() {
			return kindNaN, nil
		}
		switch n.IsInf() {
		case 1:
			return kindPosInf, nil
		case -1:
			return kindNegInf, nil
		}
		bi, exp, err := n.BigInt()
		if err != nil {
			return kindNaN, nil
		}
		f := new(big.Float).SetPrec(256).SetInt(bi)
		if exp != 0 {
			scale := new(big.Float).SetPrec(256).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(exp))), nil))
			if exp > 0 {
				f.Mul(f, scale)
			} else {
				f.Quo(f, scale)
			}
		}
		return kindFinite, f
	}
	return kindNaN, nil
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// CompareObjectIDs orders ObjectIds by their bytes; comparing them as two
// big-endian words avoids a generic byte comparison on every index probe
// of the _id index.
func CompareObjectIDs(a, b *bson.ObjectID) int {
	if x, y := binary.BigEndian.Uint64(a[:8]), binary.BigEndian.Uint64(b[:8]); x != y {
		if x < y {
			return -1
		}
		return 1
	}
	x, y := binary.BigEndian.Uint32(a[8:]), binary.BigEndian.Uint32(b[8:])
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}
