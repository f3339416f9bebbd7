package value

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// ToDouble is Value::coerceToDouble for the numeric types (IsNumber): an
// int32, int64 or double as a double, a decimal as DecimalToDouble. Any
// other value is 0.
func ToDouble(v any) float64 {
	switch n := v.(type) {
	case int32:
		return float64(n)
	case int64:
		return float64(n)
	case float64:
		return n
	case bson.Decimal128:
		return DecimalToDouble(n)
	}
	return 0
}

// DecimalToDouble is Decimal128::toDouble: the nearest double, ±Inf
// beyond the double range, NaN for NaN.
func DecimalToDouble(d bson.Decimal128) float64 {
	// ParseFloat reports a value out of range as ±Inf with an error,
	// which is the answer.
	f, _ := strconv.ParseFloat(d.String(), 64)
	return f
}

// WholeNumber returns an int32, an int64, or a double without a
// fractional part that fits an int64, as an int64; ok is false for any
// other value.
func WholeNumber(v any) (int64, bool) {
	switch n := v.(type) {
	case int32:
		return int64(n), true
	case int64:
		return n, true
	case float64:
		// Range first: converting a double beyond int64 is platform
		// dependent in Go.
		if n >= -(1<<63) && n < 1<<63 && n == math.Trunc(n) {
			return int64(n), true
		}
	}
	return 0, false
}

// The number conversions below are mongod's, by name: Value::coerceToLong,
// coerceToInt, integral, integral64Bit and createIntOrLong
// (src/mongo/db/exec/document_value/value.cpp), BSONElement::safeNumberLong
// and parseIntegerElementToLong (src/mongo/bson/bsonelement.cpp). Every
// package converts numbers through them.

// CoerceToLong is Value::coerceToLong: an int or long as it is, a double
// truncated toward zero, a decimal rounded half to even; a double outside
// the long range fails with 31109, a non-number with 16004. (mongod checks
// a decimal's range against the wrong member of its union, so a decimal
// beyond the long range gives the smallest long.)
func CoerceToLong(v any) (int64, error) {
	switch n := v.(type) {
	case int32:
		return int64(n), nil
	case int64:
		return n, nil
	case float64:
		if !(n >= -(1<<63) && n < 1<<63) {
			return 0, mongoerr.Newf(mongoerr.ErrCoerceToLongOutOfRange, "Can't coerce out of range value %s to long", FormatStreamDouble(n))
		}
		return int64(n), nil
	case bson.Decimal128:
		l, ok := decimalToInt64(n, decimalHalfEven)
		if !ok {
			return math.MinInt64, nil
		}
		return l, nil
	}
	return 0, mongoerr.Newf(mongoerr.ErrCoerceToLongFailed, "can't convert from BSON type %s to long", TypeName(v))
}

// CoerceToInt is Value::coerceToInt: a long, double or decimal outside the
// int range fails with 31108, a non-number with 16003; doubles truncate,
// decimals round half to even.
func CoerceToInt(v any) (int32, error) {
	outOfRange := func(s string) error {
		return mongoerr.Newf(mongoerr.ErrCoerceToIntOutOfRange, "Can't coerce out of range value %s to int", s)
	}
	switch n := v.(type) {
	case int32:
		return n, nil
	case int64:
		if n < math.MinInt32 || n > math.MaxInt32 {
			return 0, outOfRange(strconv.FormatInt(n, 10))
		}
		return int32(n), nil
	case float64:
		if !(n >= math.MinInt32 && n <= math.MaxInt32) {
			return 0, outOfRange(FormatStreamDouble(n))
		}
		return int32(n), nil
	case bson.Decimal128:
		f := DecimalToDouble(n)
		if !(f >= math.MinInt32 && f <= math.MaxInt32) {
			return 0, outOfRange(FormatStreamDouble(f))
		}
		l, _ := decimalToInt64(n, decimalHalfEven)
		return int32(l), nil
	}
	return 0, mongoerr.Newf(mongoerr.ErrCoerceToIntFailed, "can't convert from BSON type %s to int", TypeName(v))
}

// Integral is Value::integral: a number whose value an int32 holds exactly.
func Integral(v any) bool {
	l, ok := integralValue(v)
	return ok && l >= math.MinInt32 && l <= math.MaxInt32
}

// Integral64Bit is Value::integral64Bit: a number whose value an int64
// holds exactly.
func Integral64Bit(v any) bool {
	_, ok := integralValue(v)
	return ok
}

// IntegralLong is the value BSONElement::parseIntegerElementToLong
// accepts: the exact int64 value of an int, a long, or a double or
// decimal with no fractional part inside the long range; ok is false for
// anything else. Callers that print mongod's reason use
// ParseIntegerElementToLong.
func IntegralLong(v any) (int64, bool) { return integralValue(v) }

// ParseIntegerElementToLong is BSONElement::parseIntegerElementToLong
// (src/mongo/bson/bsonelement.cpp) for the element key: v, with mongod's
// FailedToParse reason ("" when v is accepted), which names the element as
// toString(true, true) prints it: "Expected a number in: key: \"x\"",
// "Expected an integer, but found NaN in: key: nan.0", "Cannot represent
// as a 64-bit integer: key: 1e+20.0" (a double at or beyond ±2^63, or a
// decimal toLongExact refuses: fractional, NaN, infinite or out of range)
// and "Expected an integer: key: 1.5".
func ParseIntegerElementToLong(key string, v any) (int64, string) {
	elem := func() string { return NumberElemString(key, v) }
	switch x := v.(type) {
	case int32:
		return int64(x), ""
	case int64:
		return x, ""
	case float64:
		switch {
		case math.IsNaN(x):
			return 0, "Expected an integer, but found NaN in: " + elem()
		case x >= 1<<63 || x < -(1<<63):
			return 0, "Cannot represent as a 64-bit integer: " + elem()
		case x != math.Trunc(x):
			return 0, "Expected an integer: " + elem()
		}
		return int64(x), ""
	case bson.Decimal128:
		n, ok := decimalToInt64(x, decimalExact)
		if !ok {
			return 0, "Cannot represent as a 64-bit integer: " + elem()
		}
		return n, ""
	}
	return 0, "Expected a number in: " + elem()
}

// ParseIntegerElementToNonNegativeLong is
// BSONElement::parseIntegerElementToNonNegativeLong: as
// ParseIntegerElementToLong, and a negative value is refused with
// "Expected a non-negative number in: key: -1".
func ParseIntegerElementToNonNegativeLong(key string, v any) (int64, string) {
	n, reason := ParseIntegerElementToLong(key, v)
	if reason == "" && n < 0 {
		return 0, "Expected a non-negative number in: " + NumberElemString(key, v)
	}
	return n, reason
}

// ParseIntegerElementToNonNegativeInt is
// BSONElement::parseIntegerElementToNonNegativeInt: as
// ParseIntegerElementToLong, then a value outside the int range is refused
// with "Cannot represent key: 4294967296 in an int" and a negative one with
// "Expected a non-negative number in: key: -1".
func ParseIntegerElementToNonNegativeInt(key string, v any) (int, string) {
	n, reason := ParseIntegerElementToLong(key, v)
	switch {
	case reason != "":
		return 0, reason
	case n < math.MinInt32 || n > math.MaxInt32:
		return 0, "Cannot represent " + NumberElemString(key, v) + " in an int"
	case n < 0:
		return 0, "Expected a non-negative number in: " + NumberElemString(key, v)
	}
	return int(n), ""
}

// NumberElemString is BSONElement::toString(true, true) as the integer reasons
// print it: a double through appendDoubleNice, a decimal bare
// (Decimal128::toString), anything else as FormatElem.
func NumberElemString(key string, v any) string {
	if d, ok := v.(bson.Decimal128); ok {
		return key + ": " + d.String()
	}
	return FormatElem(key, v)
}

func integralValue(v any) (int64, bool) {
	switch n := v.(type) {
	case bson.Decimal128:
		return decimalToInt64(n, decimalExact)
	default:
		return WholeNumber(v)
	}
}

// CreateIntOrLong is Value::createIntOrLong: an int when it fits.
func CreateIntOrLong(n int64) any {
	if n >= math.MinInt32 && n <= math.MaxInt32 {
		return int32(n)
	}
	return n
}

// SafeNumberLong is BSONElement::safeNumberLong for numbers: NaN is 0,
// values beyond the long range saturate, others truncate toward zero; ok
// is false for a non-number.
func SafeNumberLong(v any) (int64, bool) {
	switch n := v.(type) {
	case int32:
		return int64(n), true
	case int64:
		return n, true
	case float64:
		switch {
		case math.IsNaN(n):
			return 0, true
		case !(n < 1<<63):
			return math.MaxInt64, true
		case n < -(1 << 63):
			return math.MinInt64, true
		}
		return int64(n), true
	case bson.Decimal128:
		if n.IsNaN() {
			return 0, true
		}
		if l, ok := decimalToInt64(n, decimalTowardZero); ok {
			return l, true
		}
		if n.IsInf() < 0 || strings.HasPrefix(n.String(), "-") {
			return math.MinInt64, true
		}
		return math.MaxInt64, true
	}
	return 0, false
}

// TryCoerceToLong is BSONElement::tryCoerce<long long>
// (src/mongo/bson/bsonelement.cpp): an int or long as it is, a finite
// double or decimal truncated toward zero when the result is inside the
// long range. reason is mongod's Status reason otherwise ("" on success);
// a non-number, which mongod's callers check for first, fails too.
func TryCoerceToLong(v any) (n int64, reason string) {
	const nanInf, outOfBounds = "Unable to coerce NaN/Inf to integral type", "Out of bounds coercing to integral value"
	switch x := v.(type) {
	case int32:
		return int64(x), ""
	case int64:
		return x, ""
	case float64:
		switch {
		case math.IsNaN(x) || math.IsInf(x, 0):
			return 0, nanInf
		// 2^63 is the double nearest the long maximum, so >= as mongod
		// does when the target is a long.
		case x >= 1<<63 || x < -(1<<63):
			return 0, outOfBounds
		}
		return int64(x), ""
	case bson.Decimal128:
		if x.IsNaN() || x.IsInf() != 0 {
			return 0, nanInf
		}
		l, ok := decimalToInt64(x, decimalTowardZero)
		if !ok {
			return 0, outOfBounds
		}
		return l, ""
	}
	return 0, "not a number"
}

// decimalRounding is how decimalToInt64 treats a fractional value.
type decimalRounding int

const (
	decimalExact      decimalRounding = iota // refuse it
	decimalHalfEven                          // Decimal128::toLong's default
	decimalTowardZero                        // BSONElement::numberLong's
)

// decimalToInt64 converts a finite decimal to an int64; ok is false beyond
// the long range, for NaN and the infinities, and for a fractional value
// under decimalExact.
func decimalToInt64(d bson.Decimal128, mode decimalRounding) (int64, bool) {
	if d.IsNaN() || d.IsInf() != 0 {
		return 0, false
	}
	coef, exp, err := d.BigInt()
	if err != nil {
		return 0, false
	}
	if exp >= 0 {
		if exp > 19 && coef.Sign() != 0 {
			return 0, false
		}
		coef.Mul(coef, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(exp)), nil))
	} else {
		div := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-exp)), nil)
		q, r := new(big.Int).QuoRem(coef, div, new(big.Int))
		switch {
		case r.Sign() == 0:
		case mode == decimalExact:
			return 0, false
		case mode == decimalHalfEven:
			// Compare twice the remainder with the divisor.
			c := new(big.Int).Lsh(new(big.Int).Abs(r), 1).Cmp(div)
			if c > 0 || (c == 0 && q.Bit(0) == 1) {
				q.Add(q, big.NewInt(int64(r.Sign())))
			}
		}
		coef = q
	}
	if !coef.IsInt64() {
		return 0, false
	}
	return coef.Int64(), true
}

// FormatStreamDouble prints a double as mongod's streams and
// StringBuilder do in messages and in coerceToString (printf's %g: six
// significant digits, "nan", "inf", "-inf").
func FormatStreamDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'g', 6, 64)
}

// IsNaN reports a double or decimal NaN, which sorts below every other
// number.
func IsNaN(v any) bool {
	switch x := v.(type) {
	case float64:
		return math.IsNaN(x)
	case bson.Decimal128:
		return x.IsNaN()
	}
	return false
}
