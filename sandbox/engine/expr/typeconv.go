package expr

import (
	"encoding/base64"
	"encoding/hex"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func typeOf(_ string, v any) (any, error) { return typeName(v), nil }

func isNumberOf(_ string, v any) (any, error) { return value.IsNumber(v), nil }

func conversionError(format string, args ...any) error {
	return mongoerr.Newf(mongoerr.ConversionFailure, format, args...)
}

func unsupported(v any, to string) error {
	return conversionError("Unsupported conversion from %s to %s in $convert with no onError value", typeName(v), to)
}

// targetType resolves $convert's 'to' (a type name or number).
func targetType(v any) (string, error) {
	switch t := v.(type) {
	case string:
		switch t {
		case "double", "string", "objectId", "bool", "date", "int", "long", "decimal", "binData":
			return t, nil
		case "missing":
			// typeFromName has no "missing", but $convert takes $type's name
			// for it; nothing converts to it.
			return t, nil
		}
		if _, ok := value.TypeNumberForName(t); ok {
			return t, nil
		}
		return "", mongoerr.Newf(mongoerr.BadValue, "Unknown type name: %s", t)
	}
	if value.IsNumber(v) {
		if !value.Integral(v) {
			return "", mongoerr.Newf(mongoerr.FailedToParse, "In $convert, numeric 'to' argument is not an integer")
		}
		n := checkedInt(v)
		for name, num := range map[string]int{"double": 1, "string": 2, "objectId": 7, "bool": 8, "date": 9, "int": 16, "long": 18, "decimal": 19} {
			if num == n {
				return name, nil
			}
		}
		for _, name := range []string{"object", "array", "binData", "undefined", "null", "regex", "dbPointer", "javascript", "symbol", "javascriptWithScope", "timestamp", "minKey", "maxKey"} {
			if num, _ := value.TypeNumberForName(name); num == n {
				return name, nil
			}
		}
		return "", mongoerr.Newf(mongoerr.FailedToParse, "In $convert, numeric value for 'to' does not correspond to a BSON type: %d", n)
	}
	return "", mongoerr.Newf(mongoerr.FailedToParse, "$convert's 'to' argument must be a string or number, but is %s", typeName(v))
}

// Convert performs $convert of a non-null input to the named type.
func Convert(v any, to string) (any, error) {
	if value.TypeName(v) == to {
		switch to {
		case "double", "string", "objectId", "bool", "date", "int", "long", "decimal", "binData":
			return v, nil
		}
		// mongod's conversion table has no identity entry for other types.
		return nil, unsupported(v, to)
	}
	switch to {
	case "double":
		switch x := v.(type) {
		case int32:
			return float64(x), nil
		case int64:
			return float64(x), nil
		case bool:
			if x {
				return 1.0, nil
			}
			return 0.0, nil
		case bson.DateTime:
			return float64(x), nil
		case bson.Decimal128:
			d := decOf(x)
			f := decToFloat(d)
			// bid128_to_binary64 signals overflow past the double range and
			// underflow (with inexact) for a nonzero value below the
			// smallest normal double; performCastDecimalToDouble refuses
			// any flag but inexact.
			if d.kind == decFinite && (math.IsInf(f, 0) || d.coef.Sign() != 0 && math.Abs(f) < 0x1p-1022) {
				return nil, conversionError("Conversion would overflow target type in $convert with no onError value: %s", x.String())
			}
			if f == 0 && signBit(x) {
				// A decimal -0 converts to a double -0.
				return math.Copysign(0, -1), nil
			}
			return f, nil
		case string:
			return parseDouble(x)
		}
	case "int", "long":
		var n int64
		switch x := v.(type) {
		case int32:
			n = int64(x)
		case int64:
			n = x
		case bool:
			if x {
				n = 1
			}
		case float64:
			if math.IsNaN(x) {
				return nil, conversionError("Attempt to convert NaN value to integer type in $convert with no onError value")
			}
			if math.IsInf(x, 0) {
				return nil, conversionError("Attempt to convert infinity value to integer type in $convert with no onError value")
			}
			// performCastDoubleToInt takes up to INT_MAX itself, so
			// 2147483647.5 overflows; performCastDoubleToLong stops below 2^63.
			inRange := x >= -2147483648.0 && x <= 2147483647.0
			if to == "long" {
				inRange = x >= -9.223372036854775808e18 && x < 9.223372036854775808e18
			}
			if !inRange {
				return nil, conversionError("Conversion would overflow target type in $convert with no onError value: %s", value.FormatStreamDouble(x))
			}
			n = int64(x)
		case bson.Decimal128:
			d := decOf(x)
			switch d.kind {
			case decNaN:
				return nil, conversionError("Attempt to convert NaN value to integer type in $convert with no onError value")
			case decPosInf, decNegInf:
				return nil, conversionError("Attempt to convert infinity value to integer type in $convert with no onError value")
			}
			l, ok := decToInt64(d, roundTowardZero)
			if !ok || (to == "int" && (l < math.MinInt32 || l > math.MaxInt32)) {
				return nil, conversionError("Conversion would overflow target type in $convert with no onError value: %s", x.String())
			}
			n = l
		case bson.DateTime:
			if to == "int" {
				return nil, unsupported(v, to)
			}
			n = int64(x)
		case string:
			bits := 32
			if to == "long" {
				bits = 64
			}
			l, err := parseInteger(x, bits)
			if err != nil {
				return nil, err
			}
			n = l
		default:
			return nil, unsupported(v, to)
		}
		if to == "int" {
			if n < math.MinInt32 || n > math.MaxInt32 {
				// mongod's long-to-int message ends without the value.
				return nil, conversionError("Conversion would overflow target type in $convert with no onError value: ")
			}
			return int32(n), nil
		}
		return n, nil
	case "decimal":
		switch x := v.(type) {
		case int32, int64:
			return toDec(x).toD128(), nil
		case float64:
			if x == 0 && math.Signbit(x) {
				return negated(toDec(x).toD128()), nil
			}
			return toDec(x).toD128(), nil
		case bool:
			if x {
				return toDec(int32(1)).toD128(), nil
			}
			return toDec(int32(0)).toD128(), nil
		case bson.DateTime:
			return toDec(int64(x)).toD128(), nil
		case string:
			if err := checkHexPrefix(x); err != nil {
				return nil, err
			}
			if x == "" {
				return nil, parseFailure(x, "Empty string")
			}
			d, why := parseDecimalString(x)
			if why != "" {
				return nil, parseFailure(x, why)
			}
			return d, nil
		}
	case "string":
		switch x := v.(type) {
		case bson.ObjectID:
			return x.Hex(), nil
		case bool:
			return strconv.FormatBool(x), nil
		case float64:
			return doubleToString(x), nil
		case bson.DateTime:
			// The conversion table formats the date itself, without
			// coerceToString's context.
			return isoDate(x)
		case int32, int64, bson.Decimal128:
			return coerceToString(x)
		case bson.Symbol:
			return string(x), nil
		}
	case "bool":
		switch x := v.(type) {
		case int32, int64, float64, bson.Decimal128:
			return IsTrue(x), nil
		case string, bson.ObjectID, bson.DateTime, bson.Timestamp, bson.D, bson.A, bson.Binary, bson.Regex,
			bson.JavaScript, bson.CodeWithScope, bson.DBPointer, bson.Symbol, bson.MinKey, bson.MaxKey:
			return true, nil
		}
	case "objectId":
		if s, ok := v.(string); ok {
			if len(s) != 24 {
				return nil, conversionError("Failed to parse objectId '%s' in $convert with no onError value: Invalid string length for parsing to OID, expected 24 but found %d", s, len(s))
			}
			b, err := hex.DecodeString(s)
			if err != nil {
				return nil, conversionError("Failed to parse objectId '%s' in $convert with no onError value: Invalid character found in hex string: %s", s, s)
			}
			var oid bson.ObjectID
			copy(oid[:], b)
			return oid, nil
		}
	case "date":
		switch x := v.(type) {
		case int64:
			return bson.DateTime(x), nil
		case float64, bson.Decimal128:
			// performCastNumberToDate goes through the double and decimal
			// casts to long, with their NaN and infinity messages.
			l, err := Convert(x, "long")
			if err != nil {
				return nil, err
			}
			return bson.DateTime(l.(int64)), nil
		case bson.Timestamp:
			return bson.DateTime(int64(x.T) * 1000), nil
		case bson.ObjectID:
			return bson.DateTime(x.Timestamp().UnixMilli()), nil
		case string:
			t, err := parseDateString(x, "", nil)
			if err != nil {
				return nil, conversionError("%s", err.Error())
			}
			return t, nil
		}
	}
	return nil, unsupported(v, to)
}

func parseFailure(s, why string) error {
	return conversionError("Failed to parse number '%s' in $convert with no onError value: %s", s, why)
}

// checkHexPrefix is parseStringToNumber's own check, made before any
// parser runs: only a lowercase "0x" at the very start is refused, so
// strtod still reads "0X1A" or "-0x1A" for a double.
func checkHexPrefix(s string) error {
	if strings.HasPrefix(s, "0x") {
		return conversionError("Illegal hexadecimal input in $convert with no onError value: %s", s)
	}
	return nil
}

// isCSpace is ctype::isSpace.
func isCSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// parseDouble is NumberParser for a double (src/mongo/base/parse_number.cpp):
// strtod over the whole string, where an out-of-range result, overflow or
// underflow alike (ERANGE), is refused before any trailing text.
func parseDouble(s string) (any, error) {
	if err := checkHexPrefix(s); err != nil {
		return nil, err
	}
	if s == "" {
		return nil, parseFailure(s, "Empty string")
	}
	if isCSpace(s[0]) {
		return nil, parseFailure(s, "Leading whitespace")
	}
	f, n, outOfRange := strtod(s)
	switch {
	case n == 0:
		return nil, parseFailure(s, "Did not consume any digits")
	case outOfRange:
		return nil, parseFailure(s, "Out of range")
	case n != len(s):
		return nil, parseFailure(s, "Did not consume whole string.")
	}
	return f, nil
}

// strtod reads the longest prefix of s C's strtod takes: a sign, then
// "inf", "infinity", "nan" or "nan(...)" in any case, a hexadecimal
// mantissa after 0x with an optional p exponent, or decimal digits with an
// optional point and e exponent. n is the bytes read (0 for none);
// outOfRange is glibc's ERANGE: an overflow, or an underflow to a
// subnormal or zero that is inexact.
func strtod(s string) (f float64, n int, outOfRange bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	neg := i > 0 && s[0] == '-'
	sign := func(f float64) float64 {
		if neg {
			return -f
		}
		return f
	}
	rest := strings.ToLower(s[i:])
	switch {
	case strings.HasPrefix(rest, "infinity"):
		return sign(math.Inf(1)), i + 8, false
	case strings.HasPrefix(rest, "inf"):
		return sign(math.Inf(1)), i + 3, false
	case strings.HasPrefix(rest, "nan"):
		j := i + 3
		if j < len(s) && s[j] == '(' {
			k := j + 1
			for k < len(s) && (isAlnum(s[k]) || s[k] == '_') {
				k++
			}
			if k < len(s) && s[k] == ')' {
				j = k + 1
			}
		}
		return math.NaN(), j, false
	}
	hex := strings.HasPrefix(rest, "0x")
	digit := isDigit
	start := i
	if hex {
		digit = isHexDigit
		i += 2
	}
	mant := i
	digits := 0
	for i < len(s) && digit(s[i]) {
		i, digits = i+1, digits+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && digit(s[i]) {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		if hex {
			// "0x" with no hex digit is the number 0 followed by "x".
			return sign(0), start + 1, false
		}
		return 0, 0, false
	}
	body := s[mant:i]
	expMark, expName := byte('e'), "e"
	if hex {
		expMark, expName = 'p', "p"
	}
	exp := "0"
	if i < len(s) && (s[i]|0x20) == expMark {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			exp, i = s[i+1:j], j
		}
	}
	text := body + expName + exp
	if hex {
		text = "0x" + text
	}
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		// Only a range error is left: the syntax was checked above.
		return sign(f), i, true
	}
	if math.Abs(f) < 0x1p-1022 && !exactDouble(text, f) {
		outOfRange = true
	}
	return sign(f), i, outOfRange
}

// exactDouble reports whether the decimal or hexadecimal text is exactly
// the double f; it is only asked about subnormals and zeros, whose text's
// exponent is small, so the rational stays small too.
func exactDouble(text string, f float64) bool {
	if strings.HasPrefix(text, "0x") {
		// A hexadecimal mantissa rounds only past 53 bits; a subnormal
		// keeps fewer, which big.Float decides exactly.
		b, _, err := big.ParseFloat(text, 0, 2000, big.ToNearestEven)
		if err != nil {
			return false
		}
		return b.Cmp(new(big.Float).SetFloat64(f)) == 0
	}
	mantissa, exp, _ := strings.Cut(text, "e")
	e, err := strconv.Atoi(exp)
	if err != nil || e < -1200 || e > 400 {
		// Far past the double range, f is 0 or an infinity and the text
		// is not 0 when a digit is not zero.
		return strings.Trim(mantissa, "0.") == ""
	}
	r, ok := new(big.Rat).SetString(text)
	if !ok {
		return false
	}
	return r.Cmp(new(big.Rat).SetFloat64(f)) == 0
}

func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isHexDigit(c byte) bool { return isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'f' }
func isAlnum(c byte) bool    { return isDigit(c) || (c|0x20) >= 'a' && (c|0x20) <= 'z' }

// parseInteger is NumberParser for an int or long in base 10
// (_parseNumber, parse_number.cpp): a sign, then digits to the end of the
// string, the magnitude checked for overflow digit by digit and then
// against the type's range.
func parseInteger(s string, bits int) (int64, error) {
	if err := checkHexPrefix(s); err != nil {
		return 0, err
	}
	body, neg := s, false
	if body != "" && (body[0] == '+' || body[0] == '-') {
		body, neg = body[1:], body[0] == '-'
	}
	if body == "" {
		return 0, parseFailure(s, "No digits")
	}
	var n uint64
	consumed := 0
	for ; consumed < len(body) && isDigit(body[consumed]); consumed++ {
		d := uint64(body[consumed] - '0')
		if n > (math.MaxUint64-d)/10 {
			return 0, parseFailure(s, "Overflow")
		}
		n = n*10 + d
	}
	if consumed != len(body) {
		return 0, parseFailure(s, "Did not consume whole string.")
	}
	limit := uint64(1)<<(bits-1) - 1
	if neg {
		limit++
	}
	if n > limit {
		return 0, parseFailure(s, "Overflow")
	}
	if neg {
		return -int64(n), nil
	}
	return int64(n), nil
}

// convertTarget is $convert's evaluated 'to': a type name, with the
// BinData subtype a {type, subtype} document may give (0 by default).
type convertTarget struct {
	to      string
	subtype any
}

// parseConvertTarget is ConvertTargetTypeInfo::parse; ok is false for a
// nullish 'to'.
func parseConvertTarget(v any) (convertTarget, bool, error) {
	if nullish(v) {
		return convertTarget{}, false, nil
	}
	typeValue, subtype := v, any(int32(0))
	if d, ok := v.(bson.D); ok {
		typeValue, subtype = value.Get(d, "type"), value.Get(d, "subtype")
		if value.IsMissing(subtype) {
			subtype = int32(0)
		}
	}
	to, err := targetType(typeValue)
	if err != nil {
		return convertTarget{}, false, err
	}
	return convertTarget{to: to, subtype: subtype}, true, nil
}

// binDataFormats are $convert's 'format' values (BinDataFormat).
var binDataFormats = []string{"auto", "base64", "base64url", "hex", "utf8", "uuid"}

// parseBinDataFormat checks an evaluated 'format'; "" when nullish.
func parseBinDataFormat(v any) (string, error) {
	if nullish(v) {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", mongoerr.Newf(mongoerr.ErrConvertFormatNotString, "$convert requires that 'format' be a string, found: %s with value %s", typeName(v), formatValue(v))
	}
	if !slices.Contains(binDataFormats, s) {
		return "", mongoerr.Newf(mongoerr.ErrConvertFormatUnknown, "Invalid 'format' argument for $convert: %s", s)
	}
	return s, nil
}

func compileConvert(name string, arg any, scope *Scope) (Expr, error) {
	m, err := namedArgs(arg, scope, argSpec{
		names: []string{"input", "to", "format", "onError", "onNull"},
		notObject: func(arg any) error {
			return mongoerr.Newf(mongoerr.FailedToParse, "$convert expects an object of named arguments but found: %s", typeName(arg))
		},
		unknown: func(f string) error {
			return mongoerr.Newf(mongoerr.FailedToParse, "$convert found an unknown argument: %s", f)
		},
	})
	if err != nil {
		return nil, err
	}
	if m["input"] == nil {
		return nil, mongoerr.New(mongoerr.FailedToParse, "Missing 'input' parameter to $convert")
	}
	if m["to"] == nil {
		return nil, mongoerr.New(mongoerr.FailedToParse, "Missing 'to' parameter to $convert")
	}
	return convertExpr(m["input"], m["to"], m["format"], m["onError"], m["onNull"]), nil
}

// convertExpr evaluates $convert as ExpressionConvert does: 'to' and
// 'format' are checked whatever the input, onNull answers a nullish
// input, and onError only a ConversionFailure.
func convertExpr(input, to, format, onError, onNull Expr) Expr {
	return evalFunc(func(env *Env) (any, error) {
		tv, err := to.Eval(env)
		if err != nil {
			return nil, err
		}
		v, err := input.Eval(env)
		if err != nil {
			return nil, err
		}
		fv, err := evalOpt(format, env)
		if err != nil {
			return nil, err
		}
		target, haveTarget, err := parseConvertTarget(tv)
		if err != nil {
			return nil, err
		}
		if nullish(v) {
			if onNull != nil {
				return onNull.Eval(env)
			}
			return nil, nil
		}
		if !haveTarget {
			return nil, nil
		}
		f, err := parseBinDataFormat(fv)
		if err != nil {
			return nil, err
		}
		r, err := convertTo(v, target, f)
		if err != nil {
			if me, ok := err.(*mongoerr.Error); ok && me.Code == mongoerr.ConversionFailure && onError != nil {
				return onError.Eval(env)
			}
			return nil, err
		}
		return r, nil
	})
}

// convertTo is Convert with the BinData conversions, which take a format
// and a subtype.
func convertTo(v any, target convertTarget, format string) (any, error) {
	b, isBin := v.(bson.Binary)
	switch {
	case target.to == "binData" && isBin:
		sub, err := binDataSubtype(target.subtype)
		if err != nil {
			return nil, err
		}
		if b.Subtype != sub {
			return nil, conversionError("Conversions between different BinData subtypes are not supported")
		}
		return b, nil
	case target.to == "binData":
		s, ok := v.(string)
		if !ok {
			return nil, unsupported(v, target.to)
		}
		if format == "" {
			return nil, mongoerr.Newf(mongoerr.ErrConvertFormatRequired, "Format must be speficied when converting from 'string' to 'binData'")
		}
		sub, err := binDataSubtype(target.subtype)
		if err != nil {
			return nil, err
		}
		return stringToBinData(s, format, sub)
	case isBin && target.to == "string":
		if format == "" {
			return nil, mongoerr.Newf(mongoerr.ErrConvertFormatRequired, "Format must be speficied when converting from 'binData' to 'string'")
		}
		return binDataToString(b, format)
	}
	return Convert(v, target.to)
}

// binDataSubtype is computeBinDataType: 0-8 or a user-defined 128-255.
func binDataSubtype(v any) (byte, error) {
	if !value.IsNumber(v) {
		return 0, mongoerr.Newf(mongoerr.ErrConvertSubtypeNotNumber, "For BinData, $convert's 'subtype' argument must be a number, but is %s", typeName(v))
	}
	if !value.Integral(v) {
		return 0, mongoerr.New(mongoerr.ErrConvertSubtypeNotInt, "In $convert, numeric 'subtype' argument is not an integer")
	}
	n := checkedInt(v)
	if !(n >= 0 && n <= 8) && !(n >= 128 && n <= 255) {
		return 0, mongoerr.Newf(mongoerr.ErrConvertSubtypeUnknown, "In $convert, numeric value for 'subtype' does not correspond to a BinData type: %d", n)
	}
	return byte(n), nil
}

func stringToBinData(s, format string, sub byte) (any, error) {
	fail := func(reason string) error {
		return conversionError("Failed to parse BinData '%s' in $convert with no onError value: %s", s, reason)
	}
	if (format == "uuid") != (sub == bson.TypeBinaryUUID) {
		return nil, fail("Only the 'uuid' format is allowed with the UUID subtype")
	}
	var data []byte
	var err error
	switch format {
	case "base64":
		data, err = base64.StdEncoding.DecodeString(s)
	case "base64url":
		data, err = base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	case "hex":
		data, err = hex.DecodeString(s)
	case "utf8":
		if !utf8.ValidString(s) {
			return nil, fail("Invalid UTF-8: " + s)
		}
		data = []byte(s)
	case "uuid":
		u, ok := parseUUID(s)
		if !ok {
			return nil, fail("Invalid UUID string: " + s)
		}
		return bson.Binary{Subtype: bson.TypeBinaryUUID, Data: u}, nil
	default:
		return nil, fail("Invalid format '" + format + "'")
	}
	if err != nil {
		return nil, fail("invalid " + format + " string")
	}
	return bson.Binary{Subtype: sub, Data: data}, nil
}

func binDataToString(b bson.Binary, format string) (any, error) {
	validUUID := b.Subtype == bson.TypeBinaryUUID && len(b.Data) == 16
	switch format {
	case "auto":
		if validUUID {
			return formatUUID(b.Data), nil
		}
		return base64.StdEncoding.EncodeToString(b.Data), nil
	case "base64":
		return base64.StdEncoding.EncodeToString(b.Data), nil
	case "base64url":
		return base64.URLEncoding.EncodeToString(b.Data), nil
	case "hex":
		return strings.ToUpper(hex.EncodeToString(b.Data)), nil
	case "utf8":
		if !utf8.Valid(b.Data) {
			return nil, conversionError("Failed to convert '%s' to string in $convert with no onError value: BinData does not represent a valid UTF-8 string", formatValue(b))
		}
		return string(b.Data), nil
	case "uuid":
		if !validUUID {
			return nil, conversionError("Failed to convert '%s' to string in $convert with no onError value: BinData does not represent a valid UUID", formatValue(b))
		}
		return formatUUID(b.Data), nil
	}
	return nil, unsupported(b, "string")
}

// parseUUID is UUID::parse: 36 characters, hyphens at 8, 13, 18 and 23,
// hexadecimal digits elsewhere.
func parseUUID(s string) ([]byte, bool) {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return nil, false
	}
	b, err := hex.DecodeString(strings.ReplaceAll(s, "-", ""))
	return b, err == nil
}

func formatUUID(b []byte) string {
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// compileTo builds the $toInt/$toString/... shorthands, $convert without
// onError or onNull (makeConversionAlias): $toString converts BinData with
// the "auto" format, $toUUID parses a UUID string.
func compileTo(target string) compiler {
	return func(name string, arg any, scope *Scope) (Expr, error) {
		args, err := compileArgs(arg, scope)
		if err != nil {
			return nil, err
		}
		if len(args) != 1 {
			return nil, mongoerr.Newf(mongoerr.ErrConvertShorthandArgumentCount, "%s requires a single argument, got %d", name, len(args))
		}
		t := convertTarget{to: target, subtype: int32(0)}
		var format Expr
		switch name {
		case "$toString":
			format = constant{"auto"}
		case "$toUUID":
			t.subtype = int32(bson.TypeBinaryUUID)
			format = constant{"uuid"}
		}
		to := constant{t.to}
		if name == "$toUUID" {
			return convertExpr(args[0], constant{bson.D{{Key: "type", Value: "binData"}, {Key: "subtype", Value: t.subtype}}}, format, nil, nil), nil
		}
		return convertExpr(args[0], to, format, nil, nil), nil
	}
}
