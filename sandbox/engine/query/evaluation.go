package query

import (
	"math"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// truncatedInt64 converts a number the way mongod's numberLong() does for
// $mod: doubles and decimals are truncated toward zero; NaN and infinities
// are not numbers for this purpose.
func truncatedInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, false
		}
		return clampInt64(math.Trunc(x)), true
	case bson.Decimal128:
		if x.IsNaN() || x.IsInf() != 0 {
			return 0, false
		}
		t, err := strconv.ParseFloat(x.String(), 64)
		if err != nil {
			return 0, false
		}
		return clampInt64(math.Trunc(t)), true
	}
	return 0, false
}

func clampInt64(f float64) int64 {
	if f >= math.MaxInt64 {
		return math.MaxInt64
	}
	if f <= math.MinInt64 {
		return math.MinInt64
	}
	return int64(f)
}
