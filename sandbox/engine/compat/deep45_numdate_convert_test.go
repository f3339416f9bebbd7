package compat_test

import "testing"

// Deep sweep 45 (numdate): the conversion shorthands $toDate, $toDecimal,
// $toDouble, $toInt, $toLong, $toObjectId and $toUUID, against the
// conversion table of ExpressionConvert (src/mongo/db/exec/expression/
// evaluate_convert.cpp, expression_convert.cpp before 8.1) and the string
// parsers it calls: NumberParser (src/mongo/base/parse_number.cpp: strtod
// for a double, a digit loop for integers, the Decimal128 string
// constructor for a decimal).

const (
	convertCpp  = "src/mongo/db/pipeline/expression_convert.cpp"
	parseNumCpp = "src/mongo/base/parse_number.cpp"
)

// nd45StringDoc is a document whose field x is the string s.
func nd45StringDoc(s string) string { return `{"_id": 0, "x": "` + s + `"}` }

// nd45ParseFailure is parseStringToNumber's message prefix for the string s.
func nd45ParseFailure(s string) string {
	return planExecutor + "Failed to parse number '" + s + "' in $convert with no onError value: "
}

func TestDeep45NumdateToDate(t *testing.T) {
	ref := convertCpp + " (performCastNumberToDate); jstests/aggregation/expressions/convert.js"
	c := cover{op: "$toDate"}
	ct := cover{op: "$toDate", col: types}
	ce := cover{op: "$toDate", col: errorCol}
	runExprCases(t, []exprCase{
		{name: "a long is milliseconds", ref: ref, cov: ct, expr: `{"$toDate": {"$numberLong": "-1"}}`, want: `{"$date": {"$numberLong": "-1"}}`},
		{name: "a double truncates toward zero", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$toDate": "$d"}`, want: `{"$date": {"$numberLong": "-2"}}`},
		{name: "a decimal truncates toward zero", ref: ref, cov: ct, expr: `{"$toDate": {"$numberDecimal": "1.9"}}`,
			want: `{"$date": {"$numberLong": "1"}}`},
		{name: "the least long as a double is a date", ref: ref, cov: c, expr: `{"$toDate": {"$numberDouble": "-9223372036854775808"}}`,
			want: `{"$date": {"$numberLong": "-9223372036854775808"}}`},
		{name: "an ObjectId gives its timestamp", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$toDate": "$oid"}`,
			want: `{"$date": {"$numberLong": "1710074624000"}}`},
		{name: "a timestamp gives its seconds", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$toDate": "$ts"}`,
			want: `{"$date": {"$numberLong": "1700000000000"}}`},
		{name: "a string with an offset", ref: ref, cov: ct, expr: `{"$toDate": "2024-03-10T10:00:00+02:00"}`,
			want: `{"$date": "2024-03-10T08:00:00Z"}`},
		{name: "missing is null", ref: ref, cov: c, doc: nd45Doc, expr: `{"$toDate": "$nothing"}`, want: `null`},
		{name: "an int is not a date", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$toDate": "$i"}`,
			code: 241, msg: planExecutor + "Unsupported conversion from int to date in $convert with no onError value"},
		{name: "a bool is not a date", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$toDate": "$b"}`,
			code: 241, msg: planExecutor + "Unsupported conversion from bool to date in $convert with no onError value"},
		{name: "2^63 as a double overflows", ref: ref + " (performCastDoubleToLong)", cov: ce, doc: `{"_id": 0, "x": {"$numberDouble": "9223372036854775808"}}`,
			expr: `{"$toDate": "$x"}`, code: 241, msg: planExecutor + "Conversion would overflow target type in $convert with no onError value: 9.22337e+18"},
		{name: "NaN is refused before the range check", ref: ref + " (performCastDoubleToLong, validateDoubleValueIsFinite)", cov: ce, doc: nd45Doc,
			expr: `{"$toDate": "$nan"}`, code: 241, msg: planExecutor + "Attempt to convert NaN value to integer type in $convert with no onError value"},
		{name: "infinity is refused before the range check", ref: ref + " (performCastDoubleToLong, validateDoubleValueIsFinite)", cov: ce,
			doc: nd45Doc, expr: `{"$toDate": "$ninf"}`,
			code: 241, msg: planExecutor + "Attempt to convert infinity value to integer type in $convert with no onError value"},
		{name: "a decimal NaN", ref: ref + " (performCastDecimalToInt)", cov: ce, doc: nd45Doc, expr: `{"$toDate": "$dnan"}`,
			code: 241, msg: planExecutor + "Attempt to convert NaN value to integer type in $convert with no onError value"},
		{name: "a decimal past the long range", ref: ref + " (performCastDecimalToInt)", cov: ce, doc: `{"_id": 0, "x": {"$numberDecimal": "9.3E+18"}}`,
			expr: `{"$toDate": "$x"}`, code: 241, msg: planExecutor + "Conversion would overflow target type in $convert with no onError value: 9.3E+18"},
		{name: "two arguments", ref: ref, cov: ce, expr: `{"$toDate": [1, 2]}`,
			code: 50723, msg: invalidProject + "$toDate requires a single argument, got 2"},
	})
}

func TestDeep45NumdateToDecimal(t *testing.T) {
	ref := convertCpp + "; " + parseNumCpp + " (Decimal128 parser); src/mongo/platform/decimal128.cpp"
	c := cover{op: "$toDecimal"}
	ct := cover{op: "$toDecimal", col: types}
	ce := cover{op: "$toDecimal", col: errorCol}
	f := nd45ParseFailure
	runExprCases(t, []exprCase{
		{name: "an int", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$toDecimal": "$i"}`, want: `{"$numberDecimal": "5"}`},
		{name: "the least long", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$toDecimal": "$lmin"}`, want: `{"$numberDecimal": "-9223372036854775808"}`},
		{name: "a double keeps 15 digits", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$toDecimal": "$d"}`, want: `{"$numberDecimal": "-2.50000000000000"}`},
		{name: "a double infinity", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$toDecimal": "$ninf"}`, want: `{"$numberDecimal": "-Infinity"}`},
		{name: "a double 0 is 0E+0, not quantized to 15 digits", ref: ref + " (Decimal128(double))", cov: ct,
			doc: `{"_id": 0, "x": {"$numberDouble": "0"}}`, expr: `{"$toDecimal": "$x"}`, want: `{"$numberDecimal": "0"}`},
		{name: "a double -0 is a decimal -0", ref: ref + " (Decimal128(double))", cov: ct, doc: nd45Doc, expr: `{"$toDecimal": "$nz"}`,
			want: `{"$numberDecimal": "-0"}`},
		{name: "a bool", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$toDecimal": "$b"}`, want: `{"$numberDecimal": "1"}`},
		{name: "a date", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$toDecimal": "$dt"}`, want: `{"$numberDecimal": "1710074096789"}`},
		{name: "a string keeps its exponent", ref: ref, cov: c, doc: `{"_id": 0, "x": "1.50"}`, expr: `{"$toDecimal": "$x"}`,
			want: `{"$numberDecimal": "1.50"}`},
		{name: "a string of 39 digits is cut toward zero (NumberParser's rounding mode)", ref: ref + "; src/mongo/base/parse_number.h", cov: c,
			doc: `{"_id": 0, "x": "-1.23456789012345678901234567890123456789"}`, expr: `{"$toDecimal": "$x"}`,
			want: `{"$numberDecimal": "-1.234567890123456789012345678901234"}`},
		{name: "a subnormal string that is exact does not underflow", ref: ref, cov: c, doc: `{"_id": 0, "x": "10E-6177"}`, expr: `{"$toDecimal": "$x"}`,
			want: `{"$numberDecimal": "1E-6176"}`},
		{name: "a string infinity in any case", ref: ref, cov: c, doc: `{"_id": 0, "x": "-INF"}`, expr: `{"$toDecimal": "$x"}`,
			want: `{"$numberDecimal": "-Infinity"}`},
		{name: "a string -0", ref: ref, cov: c, doc: `{"_id": 0, "x": "-0"}`, expr: `{"$toDecimal": "$x"}`, want: `{"$numberDecimal": "-0"}`},
		{name: "a string zero's exponent is clamped", ref: ref, cov: c, doc: `{"_id": 0, "x": "0e99999"}`, expr: `{"$toDecimal": "$x"}`,
			want: `{"$numberDecimal": "0E+6111"}`},
		{name: "the largest exponent pads the coefficient", ref: ref, cov: c, doc: `{"_id": 0, "x": "1E+6144"}`, expr: `{"$toDecimal": "$x"}`,
			want: `{"$numberDecimal": "1.000000000000000000000000000000000E+6144"}`},
		{name: "an empty string", ref: ref, cov: ce, doc: `{"_id": 0, "x": ""}`, expr: `{"$toDecimal": "$x"}`,
			code: 241, msg: f("") + "Empty string"},
		{name: "a string past the largest decimal", ref: ref, cov: ce, doc: `{"_id": 0, "x": "1E+6145"}`, expr: `{"$toDecimal": "$x"}`,
			code: 241, msg: f("1E+6145") + "Conversion from string to decimal would overflow"},
		{name: "a string below the smallest decimal", ref: ref, cov: ce, doc: `{"_id": 0, "x": "1e-7000"}`, expr: `{"$toDecimal": "$x"}`,
			code: 241, msg: f("1e-7000") + "Conversion from string to decimal would underflow"},
		{name: "a subnormal string that rounds underflows", ref: ref, cov: ce, doc: `{"_id": 0, "x": "15E-6177"}`, expr: `{"$toDecimal": "$x"}`,
			code: 241, msg: f("15E-6177") + "Conversion from string to decimal would underflow"},
		{name: "a lowercase hexadecimal string", ref: ref, cov: ce, doc: `{"_id": 0, "x": "0x10"}`, expr: `{"$toDecimal": "$x"}`,
			code: 241, msg: planExecutor + "Illegal hexadecimal input in $convert with no onError value: 0x10"},
		{name: "an ObjectId", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$toDecimal": "$oid"}`,
			code: 241, msg: planExecutor + "Unsupported conversion from objectId to decimal in $convert with no onError value"},
	})
}

func TestDeep45NumdateToDouble(t *testing.T) {
	ref := convertCpp + "; " + parseNumCpp + " (strtod, ERANGE)"
	c := cover{op: "$toDouble"}
	ct := cover{op: "$toDouble", col: types}
	ce := cover{op: "$toDouble", col: errorCol}
	f := nd45ParseFailure
	str := nd45StringDoc
	runExprCases(t, []exprCase{
		{name: "a long", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$toDouble": "$lmin"}`, want: `{"$numberDouble": "-9.223372036854775808E+18"}`},
		{name: "a decimal", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$toDouble": "$dec"}`, want: `-2.5`},
		{name: "a decimal -0", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$toDouble": "$dnz"}`, want: `{"$numberDouble": "-0.0"}`},
		{name: "a date", ref: ref, cov: ct, doc: nd45Doc, expr: `{"$toDouble": "$dt"}`, want: `1710074096789.0`},
		{name: "an uppercase hexadecimal string goes to strtod", ref: ref, cov: c, doc: str("0X10"), expr: `{"$toDouble": "$x"}`, want: `16.0`},
		{name: "a signed hexadecimal float", ref: ref, cov: c, doc: str("-0x1.8p1"), expr: `{"$toDouble": "$x"}`, want: `-3.0`},
		{name: "nan with a payload", ref: ref, cov: c, doc: str("nan(abc)"), expr: `{"$toDouble": "$x"}`, want: `{"$numberDouble": "NaN"}`},
		{name: "a zero with a tiny exponent is exact", ref: ref, cov: c, doc: str("0e-400"), expr: `{"$toDouble": "$x"}`, want: `0.0`},
		{name: "the least normal double", ref: ref, cov: c, doc: str("2.2250738585072014e-308"), expr: `{"$toDouble": "$x"}`,
			want: `2.2250738585072014e-308`},
		{name: "an empty string", ref: ref, cov: ce, doc: str(""), expr: `{"$toDouble": "$x"}`, code: 241, msg: f("") + "Empty string"},
		{name: "no digits", ref: ref, cov: ce, doc: str("abc"), expr: `{"$toDouble": "$x"}`, code: 241, msg: f("abc") + "Did not consume any digits"},
		{name: "a point and an exponent without digits", ref: ref, cov: ce, doc: str(".e1"), expr: `{"$toDouble": "$x"}`,
			code: 241, msg: f(".e1") + "Did not consume any digits"},
		{name: "an underscore between digits", ref: ref, cov: ce, doc: str("1_0"), expr: `{"$toDouble": "$x"}`,
			code: 241, msg: f("1_0") + "Did not consume whole string."},
		{name: "an exponent without digits", ref: ref, cov: ce, doc: str("1e+"), expr: `{"$toDouble": "$x"}`,
			code: 241, msg: f("1e+") + "Did not consume whole string."},
		{name: "leading whitespace", ref: ref, cov: ce, doc: str(" 1"), expr: `{"$toDouble": "$x"}`, code: 241, msg: f(" 1") + "Leading whitespace"},
		{name: "overflow", ref: ref, cov: ce, doc: str("1e400"), expr: `{"$toDouble": "$x"}`, code: 241, msg: f("1e400") + "Out of range"},
		{name: "overflow is checked before trailing text", ref: ref, cov: ce, doc: str("1e400x"), expr: `{"$toDouble": "$x"}`,
			code: 241, msg: f("1e400x") + "Out of range"},
		{name: "underflow to zero", ref: ref, cov: ce, doc: str("-1e-400"), expr: `{"$toDouble": "$x"}`, code: 241, msg: f("-1e-400") + "Out of range"},
		{name: "an inexact subnormal", ref: ref, cov: ce, doc: str("5e-324"), expr: `{"$toDouble": "$x"}`, code: 241, msg: f("5e-324") + "Out of range"},
		{name: "a lowercase hexadecimal string", ref: ref, cov: ce, doc: str("0x10"), expr: `{"$toDouble": "$x"}`,
			code: 241, msg: planExecutor + "Illegal hexadecimal input in $convert with no onError value: 0x10"},
		{name: "a timestamp", ref: ref, cov: ce, doc: nd45Doc, expr: `{"$toDouble": "$ts"}`,
			code: 241, msg: planExecutor + "Unsupported conversion from timestamp to double in $convert with no onError value"},
		{name: "a decimal past the double range", ref: ref + " (performCastDecimalToDouble)", cov: ce, doc: `{"_id": 0, "x": {"$numberDecimal": "1E+400"}}`,
			expr: `{"$toDouble": "$x"}`, code: 241, msg: planExecutor + "Conversion would overflow target type in $convert with no onError value: 1E+400"},
	})
}

func TestDeep45NumdateToIntLong(t *testing.T) {
	ref := convertCpp + "; " + parseNumCpp + " (_parseNumber, _parseMagnitude)"
	f := nd45ParseFailure
	str := nd45StringDoc
	ci := cover{op: "$toInt"}
	cit := cover{op: "$toInt", col: types}
	cie := cover{op: "$toInt", col: errorCol}
	cl := cover{op: "$toLong"}
	clt := cover{op: "$toLong", col: types}
	cle := cover{op: "$toLong", col: errorCol}
	runExprCases(t, []exprCase{
		{name: "toInt of a double truncates", ref: ref, cov: cit, doc: nd45Doc, expr: `{"$toInt": "$d"}`, want: `-2`},
		{name: "toInt of a decimal truncates", ref: ref, cov: cit, doc: nd45Doc, expr: `{"$toInt": "$dec"}`, want: `-2`},
		{name: "toInt of a bool", ref: ref, cov: cit, doc: nd45Doc, expr: `{"$toInt": "$b"}`, want: `1`},
		{name: "toInt of a long in range", ref: ref, cov: cit, doc: nd45Doc, expr: `{"$toInt": "$l"}`, want: `7`},
		{name: "toInt of a double just past INT_MAX", ref: ref + " (performCastDoubleToInt: up to INT_MAX itself)", cov: cie,
			doc: `{"_id": 0, "x": 2147483647.5}`, expr: `{"$toInt": "$x"}`, code: 241,
			msg: planExecutor + "Conversion would overflow target type in $convert with no onError value: 2.14748e+09"},
		{name: "toInt of a double just above INT_MIN", ref: ref + " (performCastDoubleToInt)", cov: cit, doc: `{"_id": 0, "x": -2147483648.5}`,
			expr: `{"$toInt": {"$add": ["$x", 1]}}`, want: `-2147483647`},
		{name: "toInt of the least int as a string", ref: ref, cov: ci, doc: str("-2147483648"), expr: `{"$toInt": "$x"}`, want: `-2147483648`},
		{name: "toInt of a leading zero is decimal", ref: ref, cov: ci, doc: str("010"), expr: `{"$toInt": "$x"}`, want: `10`},
		{name: "toInt of a plus sign", ref: ref, cov: ci, doc: str("+7"), expr: `{"$toInt": "$x"}`, want: `7`},
		{name: "toInt past int32 as a string", ref: ref, cov: cie, doc: str("3000000000"), expr: `{"$toInt": "$x"}`,
			code: 241, msg: f("3000000000") + "Overflow"},
		{name: "toInt below int32 as a string", ref: ref, cov: cie, doc: str("-2147483649"), expr: `{"$toInt": "$x"}`,
			code: 241, msg: f("-2147483649") + "Overflow"},
		{name: "toInt of leading whitespace", ref: ref, cov: cie, doc: str(" 1"), expr: `{"$toInt": "$x"}`,
			code: 241, msg: f(" 1") + "Did not consume whole string."},
		{name: "toInt of letters", ref: ref, cov: cie, doc: str("abc"), expr: `{"$toInt": "$x"}`,
			code: 241, msg: f("abc") + "Did not consume whole string."},
		{name: "toInt of a lone sign", ref: ref, cov: cie, doc: str("-"), expr: `{"$toInt": "$x"}`, code: 241, msg: f("-") + "No digits"},
		{name: "toInt of an empty string", ref: ref, cov: cie, doc: str(""), expr: `{"$toInt": "$x"}`, code: 241, msg: f("") + "No digits"},
		{name: "toInt of a decimal point", ref: ref, cov: cie, doc: str("1.0"), expr: `{"$toInt": "$x"}`,
			code: 241, msg: f("1.0") + "Did not consume whole string."},
		{name: "toInt of a long out of range", ref: ref + " (performCastLongToInt)", cov: cie, doc: nd45Doc, expr: `{"$toInt": "$lmax"}`,
			code: 241, msg: planExecutor + "Conversion would overflow target type in $convert with no onError value: "},
		{name: "toInt of NaN", ref: ref, cov: cie, doc: nd45Doc, expr: `{"$toInt": "$nan"}`,
			code: 241, msg: planExecutor + "Attempt to convert NaN value to integer type in $convert with no onError value"},
		{name: "toInt of a date", ref: ref, cov: cie, doc: nd45Doc, expr: `{"$toInt": "$dt"}`,
			code: 241, msg: planExecutor + "Unsupported conversion from date to int in $convert with no onError value"},
		{name: "toLong of a date", ref: ref, cov: clt, doc: nd45Doc, expr: `{"$toLong": "$dt"}`, want: `{"$numberLong": "1710074096789"}`},
		{name: "toLong of an int", ref: ref, cov: clt, doc: nd45Doc, expr: `{"$toLong": "$ni"}`, want: `{"$numberLong": "-5"}`},
		{name: "toLong of a decimal", ref: ref, cov: clt, expr: `{"$toLong": {"$numberDecimal": "-9.9"}}`, want: `{"$numberLong": "-9"}`},
		{name: "toLong of the least long as a string", ref: ref, cov: cl, doc: str("-9223372036854775808"), expr: `{"$toLong": "$x"}`,
			want: `{"$numberLong": "-9223372036854775808"}`},
		{name: "toLong of 2^63 as a string", ref: ref, cov: cle, doc: str("9223372036854775808"), expr: `{"$toLong": "$x"}`,
			code: 241, msg: f("9223372036854775808") + "Overflow"},
		{name: "toLong past uint64 as a string", ref: ref, cov: cle, doc: str("99999999999999999999"), expr: `{"$toLong": "$x"}`,
			code: 241, msg: f("99999999999999999999") + "Overflow"},
		{name: "toLong of an uppercase hexadecimal string", ref: ref, cov: cle, doc: str("0X10"), expr: `{"$toLong": "$x"}`,
			code: 241, msg: f("0X10") + "Did not consume whole string."},
		{name: "toLong of a double 2^63", ref: ref + " (performCastDoubleToLong)", cov: cle, doc: `{"_id": 0, "x": {"$numberDouble": "9223372036854775808"}}`,
			expr: `{"$toLong": "$x"}`, code: 241, msg: planExecutor + "Conversion would overflow target type in $convert with no onError value: 9.22337e+18"},
		{name: "toLong of a decimal infinity", ref: ref, cov: cle, doc: nd45Doc, expr: `{"$toLong": "$dinf"}`,
			code: 241, msg: planExecutor + "Attempt to convert infinity value to integer type in $convert with no onError value"},
		{name: "toLong of null", ref: ref, cov: cl, doc: nd45Doc, expr: `{"$toLong": "$n"}`, want: `null`},
	})
}

func TestDeep45NumdateToObjectIdUUID(t *testing.T) {
	ref := convertCpp + " (parseStringToOID, the uuid format); jstests/aggregation/expressions/convert.js"
	runExprCases(t, []exprCase{
		{name: "toObjectId of an uppercase hex string", ref: ref, cov: cover{op: "$toObjectId", col: types}, doc: `{"_id": 0, "x": "65EDAB000000000000000000"}`,
			expr: `{"$toObjectId": "$x"}`, want: `{"$oid": "65edab000000000000000000"}`},
		{name: "toObjectId of an ObjectId", ref: ref, cov: cover{op: "$toObjectId", col: types}, doc: nd45Doc, expr: `{"$toObjectId": "$oid"}`,
			want: `{"$oid": "65edab000000000000000000"}`},
		{name: "toObjectId of null", ref: ref, cov: cover{op: "$toObjectId"}, doc: nd45Doc, expr: `{"$toObjectId": "$n"}`, want: `null`},
		{name: "toObjectId of a short string", ref: ref, cov: cover{op: "$toObjectId", col: errorCol}, doc: `{"_id": 0, "x": "65edab"}`,
			expr: `{"$toObjectId": "$x"}`, code: 241,
			msg: planExecutor + "Failed to parse objectId '65edab' in $convert with no onError value: Invalid string length for parsing to OID, expected 24 but found 6"},
		{name: "toObjectId of a date", ref: ref, cov: cover{op: "$toObjectId", col: errorCol}, doc: nd45Doc, expr: `{"$toObjectId": "$dt"}`,
			code: 241, msg: planExecutor + "Unsupported conversion from date to objectId in $convert with no onError value"},
		{name: "toUUID of an uppercase string", ref: ref, cov: cover{op: "$toUUID", col: types}, doc: `{"_id": 0, "x": "123E4567-E89B-12D3-A456-426614174000"}`,
			expr: `{"$toUUID": "$x"}`, want: `{"$binary": {"base64": "Ej5FZ+ibEtOkVkJmFBdAAA==", "subType": "04"}}`},
		{name: "toUUID of a UUID", ref: ref, cov: cover{op: "$toUUID", col: types}, expr: `{"$toUUID": {"$binary": {"base64": "Ej5FZ+ibEtOkVkJmFBdAAA==", "subType": "04"}}}`,
			want: `{"$binary": {"base64": "Ej5FZ+ibEtOkVkJmFBdAAA==", "subType": "04"}}`},
		{name: "toUUID of missing", ref: ref, cov: cover{op: "$toUUID"}, doc: nd45Doc, expr: `{"$toUUID": "$nothing"}`, want: `null`},
		{name: "toUUID without hyphens", ref: ref, cov: cover{op: "$toUUID", col: errorCol}, doc: `{"_id": 0, "x": "123e4567e89b12d3a456426614174000"}`,
			expr: `{"$toUUID": "$x"}`, code: 241,
			msg: planExecutor + "Failed to parse BinData '123e4567e89b12d3a456426614174000' in $convert with no onError value: Invalid UUID string: 123e4567e89b12d3a456426614174000"},
		{name: "toUUID of an int", ref: ref, cov: cover{op: "$toUUID", col: errorCol}, doc: nd45Doc, expr: `{"$toUUID": "$i"}`,
			code: 241, msg: planExecutor + "Unsupported conversion from int to binData in $convert with no onError value"},
	})
}
