package expr

import (
	"math"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Numeric widening ranks, as Value::getWidestNumeric.
const (
	kInt = iota + 1
	kLong
	kDouble
	kDecimal
)

func numKind(v any) int {
	switch v.(type) {
	case int32:
		return kInt
	case int64:
		return kLong
	case float64:
		return kDouble
	case bson.Decimal128:
		return kDecimal
	}
	return 0
}

func isNumeric(v any) bool { return numKind(v) != 0 }

// coerceToLong is Value::coerceToLong: numbers truncate toward zero and
// out-of-range values fail; other types fail with 16004.
func coerceToLong(v any) (int64, error) {
	switch n := v.(type) {
	case int32:
		return int64(n), nil
	case int64:
		return n, nil
	case float64:
		if math.IsNaN(n) || n < -9.223372036854775808e18 || n >= 9.223372036854775808e18 {
			return 0, mongoerr.Newf(31109, "Can't coerce out of range value %s to long", formatDouble(n))
		}
		return int64(n), nil
	case bson.Decimal128:
		l, ok := decToInt64(decOf(n), roundTowardZero)
		if !ok {
			return 0, mongoerr.Newf(31109, "Can't coerce out of range value %s to long", n.String())
		}
		return l, nil
	}
	return 0, mongoerr.Newf(16004, "can't convert from BSON type %s to long", typeName(v))
}

// intOrLong is Value::createIntOrLong.
func intOrLong(n int64) any {
	if n >= math.MinInt32 && n <= math.MaxInt32 {
		return int32(n)
	}
	return n
}

// isIntegral is Value::integral(): a number with an exact int32 value.
func isIntegral(v any) bool {
	switch n := v.(type) {
	case int32:
		return true
	case int64:
		return n >= math.MinInt32 && n <= math.MaxInt32
	case float64:
		return n == math.Trunc(n) && n >= math.MinInt32 && n <= math.MaxInt32
	case bson.Decimal128:
		d := decOf(n)
		l, ok := decToInt64(d, roundTowardZero)
		return ok && decCmp(d, dec{coef: bigInt(l)}) == 0 && l >= math.MinInt32 && l <= math.MaxInt32
	}
	return false
}

// isIntegral64 is Value::integral64Bit().
func isIntegral64(v any) bool {
	switch n := v.(type) {
	case int32, int64:
		return true
	case float64:
		return n == math.Trunc(n) && n >= -9.223372036854775808e18 && n < 9.223372036854775808e18
	case bson.Decimal128:
		d := decOf(n)
		l, ok := decToInt64(d, roundTowardZero)
		return ok && decCmp(d, dec{coef: bigInt(l)}) == 0
	}
	return false
}

// asInt returns an integral number as int (exact), for indexes and counts.
func asInt(v any) int {
	switch n := v.(type) {
	case int32:
		return int(n)
	case int64:
		return int(n)
	case float64:
		return int(n)
	case bson.Decimal128:
		l, _ := decToInt64(decOf(n), roundTowardZero)
		return int(l)
	}
	return 0
}

func addOverflows(a, b int64) bool {
	s := a + b
	return (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0)
}

func mulOverflows(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, false
	}
	p := a * b
	if (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) || p/b != a {
		return 0, true
	}
	return p, false
}
