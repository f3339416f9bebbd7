package expr

import (
	"encoding/hex"
	"strconv"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// FormatValue renders a value the way mongod's BSONObj::toString does in
// error messages about a specification: { a: 1, b: "x" }, [ 1, 2 ].
func FormatValue(v any) string {
	var sb strings.Builder
	formatTo(&sb, v, false)
	return sb.String()
}

// formatValue renders an evaluated value the way mongod's Value
// operator<< does (Document and array printing have no inner padding):
// {a: 1, b: "x"}, [1, 2]; an ObjectId as its bare hex, a date in ISO form,
// a decimal as its digits, BinData(0, "0AFF"), Symbol("s"), Code("c")
// (src/mongo/db/exec/document_value/value.cpp). mongod streams a Value
// into most runtime messages, e.g. "Missing either or both keys from:
// {k: "key", z: 2}".
func formatValue(v any) string {
	var sb strings.Builder
	formatTo(&sb, v, true)
	return sb.String()
}

func formatTo(sb *strings.Builder, v any, compact bool) {
	open, close := "{ ", " }"
	if compact {
		open, close = "{", "}"
	}
	switch x := v.(type) {
	case bson.D:
		if len(x) == 0 {
			sb.WriteString("{}")
			return
		}
		sb.WriteString(open)
		for i, e := range x {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString(e.Key)
			sb.WriteString(": ")
			formatTo(sb, e.Value, compact)
		}
		sb.WriteString(close)
	case bson.A:
		if len(x) == 0 {
			sb.WriteString("[]")
			return
		}
		if compact {
			sb.WriteString("[")
		} else {
			sb.WriteString("[ ")
		}
		for i, e := range x {
			if i > 0 {
				sb.WriteString(", ")
			}
			formatTo(sb, e, compact)
		}
		if compact {
			sb.WriteString("]")
		} else {
			sb.WriteString(" ]")
		}
	case string:
		sb.WriteString(strconv.Quote(x))
	case int32:
		sb.WriteString(strconv.FormatInt(int64(x), 10))
	case int64:
		sb.WriteString(strconv.FormatInt(x, 10))
	case float64:
		sb.WriteString(value.FormatStreamDouble(x))
	case bool:
		sb.WriteString(strconv.FormatBool(x))
	case nil:
		sb.WriteString("null")
	case bson.Undefined:
		sb.WriteString("undefined")
	case value.Missing:
		sb.WriteString("MISSING")
	case bson.ObjectID:
		if compact {
			sb.WriteString(hex.EncodeToString(x[:]))
			return
		}
		sb.WriteString("ObjectId('" + hex.EncodeToString(x[:]) + "')")
	case bson.DateTime:
		if compact {
			s, err := isoDate(x)
			if err != nil {
				s = "illegal date"
			}
			sb.WriteString(s)
			return
		}
		sb.WriteString("new Date(" + strconv.FormatInt(int64(x), 10) + ")")
	case bson.Decimal128:
		if compact {
			sb.WriteString(x.String())
			return
		}
		sb.WriteString("NumberDecimal(\"" + x.String() + "\")")
	case bson.Timestamp:
		sb.WriteString("Timestamp(" + strconv.FormatUint(uint64(x.T), 10) + ", " + strconv.FormatUint(uint64(x.I), 10) + ")")
	case bson.Regex:
		sb.WriteString("/" + x.Pattern + "/" + x.Options)
	case bson.MinKey:
		sb.WriteString("MinKey")
	case bson.MaxKey:
		sb.WriteString("MaxKey")
	case bson.Binary:
		data := strings.ToUpper(hex.EncodeToString(x.Data))
		if compact {
			data = `"` + data + `"`
		}
		sb.WriteString("BinData(" + strconv.Itoa(int(x.Subtype)) + ", " + data + ")")
	case bson.Symbol:
		if !compact {
			sb.WriteString(typeName(v))
			return
		}
		sb.WriteString(`Symbol("` + string(x) + `")`)
	case bson.JavaScript:
		if !compact {
			sb.WriteString(typeName(v))
			return
		}
		sb.WriteString(`Code("` + string(x) + `")`)
	case bson.CodeWithScope:
		if !compact {
			sb.WriteString(typeName(v))
			return
		}
		// The scope is a BSONObj, streamed with its own spacing.
		sb.WriteString(`CodeWScope("` + string(x.Code) + `", `)
		formatTo(sb, x.Scope, false)
		sb.WriteString(")")
	case bson.DBPointer:
		if !compact {
			sb.WriteString(typeName(v))
			return
		}
		sb.WriteString(`DBRef("` + x.DB + `", ` + x.Pointer.Hex() + ")")
	default:
		sb.WriteString(typeName(v))
	}
}

// StreamValue is formatValue for the stages' messages that stream a Value
// (Value::toString), as opposed to a BSONElement.
func StreamValue(v any) string { return formatValue(v) }

// formatForMessage renders a value inside a message where mongod streams
// a Value (strings unquoted).
func formatForMessage(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return formatValue(v)
}

// isoDate formats a date as mongod's conversions to string do, with
// TimeZoneDatabase::utcZone().formatDate(kIsoFormatStringZ): a year outside
// 0-9999 is 18537, as %Y refuses it.
func isoDate(d bson.DateTime) (string, error) {
	return FormatDate(int64(d), "%Y-%m-%dT%H:%M:%S.%LZ", time.UTC)
}
