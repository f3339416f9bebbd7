package projection

import (
	"math"
	"strconv"
	"strings"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"go.mongodb.org/mongo-driver/v2/bson"
)

func isNumber(v any) bool { return value.IsNumber(v) }

// numberInt is BSONElement::numberInt: doubles truncate toward zero and
// saturate at the int32 range.
func numberInt(v any) int {
	switch x := v.(type) {
	case int32:
		return int(x)
	case int64:
		return int(max(min(x, math.MaxInt32), math.MinInt32))
	case float64:
		if math.IsNaN(x) {
			return 0
		}
		return int(max(min(math.Trunc(x), math.MaxInt32), math.MinInt32))
	case bson.Decimal128:
		f, err := strconv.ParseFloat(x.String(), 64)
		if err != nil || math.IsNaN(f) {
			return 0
		}
		return int(max(min(math.Trunc(f), math.MaxInt32), math.MinInt32))
	}
	return 0
}

// typeName is mongod's typeName(BSONType) as used in error messages.
func typeName(v any) string {
	if n := value.TypeName(v); n != "" {
		return n
	}
	return "unknown"
}

// formatElement renders "key: value" the way BSONElement::toString does
// for the literal values a projection can hold.
func formatElement(e bson.E) string {
	return e.Key + ": " + formatValue(e.Value)
}

func formatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(x)
	case bson.A:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = formatValue(e)
		}
		if len(parts) == 0 {
			return "[]"
		}
		return "[ " + strings.Join(parts, ", ") + " ]"
	case bson.D:
		return formatDoc(x)
	case int32:
		return strconv.Itoa(int(x))
	case bool:
		return strconv.FormatBool(x)
	}
	b, err := bson.MarshalExtJSON(bson.D{{Key: "v", Value: v}}, false, false)
	if err != nil {
		return "?"
	}
	s := string(b)
	return strings.TrimSuffix(strings.TrimPrefix(s, `{"v":`), "}")
}

// formatDoc renders a document as BSONObj::toString does: { a: 1, b: "x" }.
func formatDoc(d bson.D) string {
	if len(d) == 0 {
		return "{}"
	}
	parts := make([]string, len(d))
	for i, e := range d {
		parts[i] = formatElement(e)
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}
