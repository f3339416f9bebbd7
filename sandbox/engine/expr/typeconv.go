package expr

import (
	"encoding/hex"
	"math"
	"strconv"
	"strings"

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
		case "double", "string", "objectId", "bool", "date", "int", "long", "decimal":
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
			if d.kind == decFinite && math.IsInf(f, 0) {
				return nil, conversionError("Conversion would overflow target type in $convert with no onError value: %s", x.String())
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
			lo, hi := -2147483648.0, 2147483648.0
			if to == "long" {
				lo, hi = -9.223372036854775808e18, 9.223372036854775808e18
			}
			if !(x >= lo && x < hi) {
				return nil, conversionError("Conversion would overflow target type in $convert with no onError value: %s", formatDouble(x))
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
		case int32, int64, float64:
			return toDec(x).toD128(), nil
		case bool:
			if x {
				return toDec(int32(1)).toD128(), nil
			}
			return toDec(int32(0)).toD128(), nil
		case bson.DateTime:
			return toDec(int64(x)).toD128(), nil
		case string:
			d, err := bson.ParseDecimal128(x)
			if err != nil || strings.TrimSpace(x) != x || x == "" {
				return nil, conversionError("Failed to parse number '%s' in $convert with no onError value: Failed to parse string to decimal", x)
			}
			return d, nil
		}
	case "string":
		switch x := v.(type) {
		case bson.ObjectID:
			return x.Hex(), nil
		case bool:
			return strconv.FormatBool(x), nil
		case int32, int64, float64, bson.Decimal128, bson.DateTime:
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
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) || x < -9.223372036854775808e18 || x >= 9.223372036854775808e18 {
				return nil, conversionError("Conversion would overflow target type in $convert with no onError value: %s", formatDouble(x))
			}
			return bson.DateTime(int64(x)), nil
		case bson.Decimal128:
			l, ok := decToInt64(decOf(x), roundTowardZero)
			if !ok {
				return nil, conversionError("Conversion would overflow target type in $convert with no onError value: %s", x.String())
			}
			return bson.DateTime(l), nil
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

// checkNumberString applies NumberParser's checks shared by all targets.
func checkNumberString(s string) error {
	if strings.HasPrefix(s, "0x") {
		return conversionError("Illegal hexadecimal input in $convert with no onError value: %s", s)
	}
	if s == "" {
		return parseFailure(s, "No digits")
	}
	if s[0] == ' ' || s[0] == '\t' || s[0] == '\n' || s[0] == '\r' || s[0] == '\v' || s[0] == '\f' {
		return parseFailure(s, "Leading whitespace")
	}
	return nil
}

func parseDouble(s string) (any, error) {
	if err := checkNumberString(s); err != nil {
		return nil, err
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return nil, parseFailure(s, "Out of range")
		}
		return nil, parseFailure(s, "Did not consume whole string.")
	}
	return f, nil
}

func parseInteger(s string, bits int) (int64, error) {
	if err := checkNumberString(s); err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, parseFailure(s, "Out of range")
		}
		body := strings.TrimLeft(s, "+-")
		if body == "" || body[0] < '0' || body[0] > '9' {
			return 0, parseFailure(s, "No digits")
		}
		return 0, parseFailure(s, "Did not consume whole string.")
	}
	return n, nil
}

func compileConvert(name string, arg any, scope *Scope) (Expr, error) {
	d, ok := arg.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "$convert expects an object of named arguments but found: %s", typeName(arg))
	}
	var input, to, onError, onNull Expr
	for _, e := range d {
		x, err := Compile(e.Value, scope)
		if err != nil {
			return nil, err
		}
		switch e.Key {
		case "input":
			input = x
		case "to":
			to = x
		case "onError":
			onError = x
		case "onNull":
			onNull = x
		default:
			return nil, mongoerr.Newf(mongoerr.FailedToParse, "$convert found an unknown argument: %s", e.Key)
		}
	}
	if input == nil {
		return nil, mongoerr.New(mongoerr.FailedToParse, "Missing 'input' parameter to $convert")
	}
	if to == nil {
		return nil, mongoerr.New(mongoerr.FailedToParse, "Missing 'to' parameter to $convert")
	}
	return evalFunc(func(env *Env) (any, error) {
		tv, err := to.Eval(env)
		if err != nil {
			return nil, err
		}
		v, err := input.Eval(env)
		if err != nil {
			return nil, err
		}
		if nullish(v) {
			if onNull != nil {
				return onNull.Eval(env)
			}
			return nil, nil
		}
		if nullish(tv) {
			return nil, nil
		}
		target, err := targetType(tv)
		if err != nil {
			return nil, err
		}
		r, err := Convert(v, target)
		if err != nil {
			if me, ok := err.(*mongoerr.Error); ok && me.Code == mongoerr.ConversionFailure && onError != nil {
				return onError.Eval(env)
			}
			return nil, err
		}
		return r, nil
	}), nil
}

// compileTo builds the $toInt/$toString/... shorthands.
func compileTo(target string) compiler {
	return func(name string, arg any, scope *Scope) (Expr, error) {
		args, err := compileFixed(name, arg, scope, 1)
		if err != nil {
			return nil, err
		}
		return evalFunc(func(env *Env) (any, error) {
			v, err := args[0].Eval(env)
			if err != nil {
				return nil, err
			}
			if nullish(v) {
				return nil, nil
			}
			return Convert(v, target)
		}), nil
	}
}
