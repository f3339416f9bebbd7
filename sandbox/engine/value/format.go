package value

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Format renders v the way mongod's BSONElement::toString does in server
// messages and explain output: E11000's "dup key: { a: 1 }", update
// errors' "{_id: 1}", index-conflict specs and explain's index bounds
// ('["s7", "s7"]', '[new Date(1756684800000), MaxKey]').
func Format(v any) string {
	var b strings.Builder
	appendValue(&b, v, false)
	return b.String()
}

// FormatBound renders an index bound as explain's indexBounds print it:
// Interval::toString calls BSONElement::toString(false), which writes a
// string's bytes as they are, unescaped, and cuts one of more than 159
// bytes to its first 150 followed by "..." (bsonelement.cpp). The 8.0
// jstests/core/index/index_bounds_pipe.js expects the bounds of a regex
// anchored on one backslash to print as ["\", "]") with a single
// backslash in the text.
func FormatBound(v any) string {
	var b strings.Builder
	appendValue(&b, v, true)
	return b.String()
}

// FormatDoc renders a document as mongod prints it: { a: 1, b: "x" }.
func FormatDoc(d bson.D) string { return Format(d) }

// FormatElem renders one field as mongod does inside error messages:
// `a: "x"`, `a: { b: 1 }`.
func FormatElem(key string, v any) string { return key + ": " + Format(v) }

func appendValue(b *strings.Builder, v any, raw bool) {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case int32:
		b.WriteString(strconv.FormatInt(int64(x), 10))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(FormatDouble(x))
	case string:
		appendString(b, x, raw)
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case bson.D:
		if len(x) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{ ")
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(e.Key)
			b.WriteString(": ")
			appendValue(b, e.Value, raw)
		}
		b.WriteString(" }")
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
			appendValue(b, e, raw)
		}
		b.WriteString(" ]")
	case bson.ObjectID:
		b.WriteString("ObjectId('" + x.Hex() + "')")
	case bson.DateTime:
		b.WriteString("new Date(" + strconv.FormatInt(int64(x), 10) + ")")
	case bson.Timestamp:
		b.WriteString("Timestamp(" + strconv.FormatUint(uint64(x.T), 10) + ", " + strconv.FormatUint(uint64(x.I), 10) + ")")
	case bson.Decimal128:
		b.WriteString("NumberDecimal(\"" + x.String() + "\")")
	case bson.Regex:
		b.WriteString("/" + x.Pattern + "/" + x.Options)
	case bson.Binary:
		b.WriteString("BinData(" + strconv.Itoa(int(x.Subtype)) + ", " + strings.ToUpper(hex.EncodeToString(x.Data)) + ")")
	case bson.MinKey:
		b.WriteString("MinKey")
	case bson.MaxKey:
		b.WriteString("MaxKey")
	case bson.Undefined:
		b.WriteString("undefined")
	case bson.Symbol:
		appendString(b, string(x), raw)
	case bson.JavaScript:
		b.WriteString("JavaScript(\"" + string(x) + "\")")
	case bson.CodeWithScope:
		b.WriteString("CodeWScope( " + string(x.Code) + ", ")
		appendValue(b, x.Scope, raw)
		b.WriteString(")")
	case bson.DBPointer:
		// BSONElement::toString: DBRef('ns',oid).
		b.WriteString("DBRef('" + x.DB + "'," + x.Pointer.Hex() + ")")
	default:
		b.WriteString("?")
	}
}

// formatDouble is mongod's StringBuilder::appendDoubleNice: "%.16g", plus
// ".0" when the result has no '.', 'E' or 'N' (so 2 -> "2.0", and even
// 1e+20 -> "1e+20.0", as mongod prints it).
func FormatDouble(f float64) string {
	var s string
	switch {
	case math.IsNaN(f):
		s = "nan"
	case math.IsInf(f, 1):
		s = "inf"
	case math.IsInf(f, -1):
		s = "-inf"
	default:
		s = strconv.FormatFloat(f, 'g', 16, 64)
	}
	if !strings.ContainsAny(s, ".EN") {
		s += ".0"
	}
	return s
}

// appendString quotes a string: raw as BSONElement::toString(false) does
// (see FormatBound), else escaped.
func appendString(b *strings.Builder, s string, raw bool) {
	if !raw {
		appendQuoted(b, s)
		return
	}
	b.WriteByte('"')
	if len(s)+1 > 160 {
		b.WriteString(s[:150])
		b.WriteString("...")
	} else {
		b.WriteString(s)
	}
	b.WriteByte('"')
}

// appendQuoted is mongod's str::escape inside double quotes.
func appendQuoted(b *strings.Builder, s string) {
	b.WriteByte('"')
	appendEscaped(b, s)
	b.WriteByte('"')
}

// appendEscaped is mongod's str::escape: only quotes, backslashes and
// control characters are escaped; UTF-8 and other bytes stay as they are.
func appendEscaped(b *strings.Builder, s string) {
	const hexDigits = "0123456789abcdef"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xf])
				continue
			}
			b.WriteByte(c)
		}
	}
}
