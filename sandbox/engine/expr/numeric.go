package expr

import (
	"math"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
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

// checkedInt is the value of a number its caller has checked to be
// integral (value.Integral), as mongod's coerceToInt after an integral() check.
func checkedInt(v any) int {
	n, _ := value.CoerceToInt(v)
	return int(n)
}

func addOverflows(a, b int64) bool {
	s := a + b
	return (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0)
}

// subOverflows reports whether a-b leaves the int64 range.
func subOverflows(a, b int64) bool {
	d := a - b
	return (a >= 0) != (b >= 0) && (d >= 0) != (a >= 0)
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
