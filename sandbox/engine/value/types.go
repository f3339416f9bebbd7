package value

import (
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Missing stands for an absent field. It is distinct from null: MongoDB
// treats {a: null} and {} differently in expressions, projections and
// $exists, while query equality to null matches both.
type Missing struct{}

// IsMissing reports whether v is the Missing marker.
func IsMissing(v any) bool {
	_, ok := v.(Missing)
	return ok
}

// BSON type numbers, as used by $type and in the wire format.
const (
	TypeDouble        = 1
	TypeString        = 2
	TypeObject        = 3
	TypeArray         = 4
	TypeBinData       = 5
	TypeUndefined     = 6
	TypeObjectID      = 7
	TypeBool          = 8
	TypeDate          = 9
	TypeNull          = 10
	TypeRegex         = 11
	TypeDBPointer     = 12
	TypeJavaScript    = 13
	TypeSymbol        = 14
	TypeCodeWithScope = 15
	TypeInt           = 16
	TypeTimestamp     = 17
	TypeLong          = 18
	TypeDecimal       = 19
	TypeMinKey        = -1
	TypeMaxKey        = 127
)

// TypeNumber returns the BSON type number of v, or 0 for Missing.
func TypeNumber(v any) int {
	switch v.(type) {
	case float64:
		return TypeDouble
	case string:
		return TypeString
	case bson.D:
		return TypeObject
	case bson.A:
		return TypeArray
	case bson.Binary:
		return TypeBinData
	case bson.Undefined:
		return TypeUndefined
	case bson.ObjectID:
		return TypeObjectID
	case bool:
		return TypeBool
	case bson.DateTime:
		return TypeDate
	case nil:
		return TypeNull
	case bson.Regex:
		return TypeRegex
	case bson.DBPointer:
		return TypeDBPointer
	case bson.JavaScript:
		return TypeJavaScript
	case bson.Symbol:
		return TypeSymbol
	case bson.CodeWithScope:
		return TypeCodeWithScope
	case int32:
		return TypeInt
	case bson.Timestamp:
		return TypeTimestamp
	case int64:
		return TypeLong
	case bson.Decimal128:
		return TypeDecimal
	case bson.MinKey:
		return TypeMinKey
	case bson.MaxKey:
		return TypeMaxKey
	case Missing:
		return 0
	}
	return 0
}

// typeNames maps BSON type numbers to the aliases $type accepts and returns.
var typeNames = map[int]string{
	TypeDouble: "double", TypeString: "string", TypeObject: "object",
	TypeArray: "array", TypeBinData: "binData", TypeUndefined: "undefined",
	TypeObjectID: "objectId", TypeBool: "bool", TypeDate: "date",
	TypeNull: "null", TypeRegex: "regex", TypeDBPointer: "dbPointer",
	TypeJavaScript: "javascript", TypeSymbol: "symbol",
	TypeCodeWithScope: "javascriptWithScope", TypeInt: "int",
	TypeTimestamp: "timestamp", TypeLong: "long", TypeDecimal: "decimal",
	TypeMinKey: "minKey", TypeMaxKey: "maxKey",
}

// TypeName returns the $type alias of v ("double", "object", "missing"...).
func TypeName(v any) string {
	if IsMissing(v) {
		return "missing"
	}
	return typeNames[TypeNumber(v)]
}

// TypeNumberForName resolves a $type alias; ok is false for unknown names.
// "number" is not a single type and is handled by callers.
func TypeNumberForName(name string) (int, bool) {
	for n, s := range typeNames {
		if s == name {
			return n, true
		}
	}
	return 0, false
}

// IsNumber reports whether v is int32, int64, float64 or Decimal128.
func IsNumber(v any) bool {
	switch v.(type) {
	case int32, int64, float64, bson.Decimal128:
		return true
	}
	return false
}

// canonicalOrder is MongoDB's canonical type rank used for cross-type
// comparison: MinKey < null < numbers < symbol,string < object < array <
// binData < objectId < bool < date < timestamp < regex < dbPointer <
// javascript < javascriptWithScope < MaxKey. Undefined sorts with null.
func canonicalOrder(v any) int {
	switch v.(type) {
	case bson.MinKey:
		return -1
	case Missing, bson.Undefined:
		return 0
	case nil:
		return 5
	case int32, int64, float64, bson.Decimal128:
		return 10
	case string, bson.Symbol:
		return 15
	case bson.D:
		return 20
	case bson.A:
		return 25
	case bson.Binary:
		return 30
	case bson.ObjectID:
		return 35
	case bool:
		return 40
	case bson.DateTime:
		return 45
	case bson.Timestamp:
		return 47
	case bson.Regex:
		return 50
	case bson.DBPointer:
		return 55
	case bson.JavaScript:
		return 60
	case bson.CodeWithScope:
		return 65
	case bson.MaxKey:
		return 127
	}
	return 0
}

// CanonicalTypeOrder exposes the canonical rank, so that index bounds can
// bracket "all values of a type" ([MinKey of type, MaxKey of type]).
func CanonicalTypeOrder(v any) int { return canonicalOrder(v) }

// IsArray reports whether v is an array.
func IsArray(v any) bool { _, ok := v.(bson.A); return ok }

// ArrayAsDoc is an array read as a document, as BSONElement::Obj() reads
// one: its elements under their positions "0", "1", ...
func ArrayAsDoc(a bson.A) bson.D {
	d := make(bson.D, len(a))
	for i, v := range a {
		d[i] = bson.E{Key: strconv.Itoa(i), Value: v}
	}
	return d
}
