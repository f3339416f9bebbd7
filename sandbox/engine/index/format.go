package index

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// FormatValue renders v the way mongod's BSONElement::toString does in
// server messages and explain output: E11000's "dup key: { a: 1 }", the
// specs quoted by index conflicts, and explain's index bounds
// ('["s7", "s7"]', '[new Date(1756684800000), MaxKey]').
func FormatValue(v any) string {
	var b strings.Builder
	appendValue(&b, v)
	return b.String()
}

// FormatDoc renders a document as mongod prints it: { a: 1, b: "x" }.
func FormatDoc(d bson.D) string {
	var b strings.Builder
	appendDoc(&b, d)
	return b.String()
}

func appendDoc(b *strings.Builder, d bson.D) {
	if len(d) == 0 {
		b.WriteString("{}")
		return
	}
	b.WriteString("{ ")
	for i, e := range d {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(e.Key)
		b.WriteString(": ")
		appendValue(b, e.Value)
	}
	b.WriteString(" }")
}

func appendValue(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bson.D:
		appendDoc(b, x)
	case bson.A:
		if len(x) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[ ")
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			appendValue(b, e)
		}
		b.WriteString(" ]")
	case string:
		b.WriteString(strconv.Quote(x))
	case bson.Symbol:
		b.WriteString(strconv.Quote(string(x)))
	case int32:
		b.WriteString(strconv.FormatInt(int64(x), 10))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(FormatDouble(x))
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case bson.ObjectID:
		b.WriteString("ObjectId('")
		b.WriteString(x.Hex())
		b.WriteString("')")
	case bson.DateTime:
		b.WriteString("new Date(")
		b.WriteString(strconv.FormatInt(int64(x), 10))
		b.WriteString(")")
	case bson.Timestamp:
		b.WriteString("Timestamp(")
		b.WriteString(strconv.FormatUint(uint64(x.T), 10))
		b.WriteString(", ")
		b.WriteString(strconv.FormatUint(uint64(x.I), 10))
		b.WriteString(")")
	case bson.Regex:
		b.WriteString("/")
		b.WriteString(x.Pattern)
		b.WriteString("/")
		b.WriteString(x.Options)
	case bson.Decimal128:
		b.WriteString("NumberDecimal(\"")
		b.WriteString(x.String())
		b.WriteString("\")")
	case bson.Binary:
		b.WriteString("BinData(")
		b.WriteString(strconv.Itoa(int(x.Subtype)))
		b.WriteString(", ")
		b.WriteString(strings.ToUpper(hex.EncodeToString(x.Data)))
		b.WriteString(")")
	case bson.MinKey:
		b.WriteString("MinKey")
	case bson.MaxKey:
		b.WriteString("MaxKey")
	case bson.Undefined:
		b.WriteString("undefined")
	case bson.JavaScript:
		b.WriteString(string(x))
	default:
		b.WriteString("?")
	}
}

// FormatDouble prints a double as mongod does: integral values keep a
// ".0" suffix (1.0), infinities are "inf.0" and "-inf.0".
func FormatDouble(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf.0"
	case math.IsInf(f, -1):
		return "-inf.0"
	case math.IsNaN(f):
		return "nan.0"
	}
	s := strconv.FormatFloat(f, 'g', 17, 64)
	if short := strconv.FormatFloat(f, 'g', -1, 64); len(short) < len(s) {
		s = short
	}
	if !strings.ContainsAny(s, ".en") {
		s += ".0"
	}
	return s
}
