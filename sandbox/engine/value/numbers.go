package value

import (
	"math"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
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
