package compat_test

import "testing"

// $type, $isNumber, $convert and its shorthands: ExpressionConvert in
// src/mongo/db/pipeline/expression.cpp and its conversion table in
// src/mongo/db/exec/expression/evaluate_math.cpp (evaluate_convert.cpp
// after 8.0), with jstests/aggregation/expressions/convert.js.

const (
	convertJS = "jstests/aggregation/expressions/convert.js"
	convDoc   = `{"_id": 0, "i": 42, "l": {"$numberLong": "5000000000"}, "d": 2.5, "dec": {"$numberDecimal": "-7.9"}, "s": "17",` +
		` "b": true, "n": null, "date": {"$date": "2020-01-01T00:00:00Z"}, "oid": {"$oid": "5f5e1000aaaaaaaaaaaaaaaa"},` +
		` "bin": {"$binary": {"base64": "SGk=", "subType": "00"}}, "uuid": {"$binary": {"base64": "ASNFZ4mrze8BI0VniavN7w==", "subType": "04"}}}`
)

func TestExpressionTypes(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "type of an int", ref: exprCpp + " (ExpressionType)", cov: cover{op: "$type", col: types}, doc: convDoc, expr: `{"$type": "$i"}`, want: `"int"`},
		{name: "type of a decimal", ref: exprCpp, cov: cover{op: "$type", col: types}, doc: convDoc, expr: `{"$type": "$dec"}`, want: `"decimal"`},
		{name: "type of missing", ref: exprCpp, cov: cover{op: "$type"}, doc: convDoc, expr: `{"$type": "$nope"}`, want: `"missing"`},
		{name: "type of an array is array", ref: exprCpp, cov: cover{op: "$type"}, expr: `{"$type": [[1]]}`, want: `"array"`},
		{name: "type takes one argument", ref: exprCpp, cov: cover{op: "$type"}, expr: `{"$type": [1, 2]}`,
			code: 16020, msg: invalidProject + "Expression $type takes exactly 1 arguments. 2 were passed in."},
		{name: "isNumber of a decimal", ref: "jstests/aggregation/expressions/is_number.js", cov: cover{op: "$isNumber", col: types}, doc: convDoc,
			expr: `{"$isNumber": "$dec"}`, want: `true`},
		{name: "isNumber of a numeric string", ref: "jstests/aggregation/expressions/is_number.js", cov: cover{op: "$isNumber"}, doc: convDoc,
			expr: `{"$isNumber": "$s"}`, want: `false`},
		{name: "isNumber of missing", ref: "jstests/aggregation/expressions/is_number.js", cov: cover{op: "$isNumber"}, doc: convDoc,
			expr: `{"$isNumber": "$nope"}`, want: `false`},
	})
}

func TestExpressionConvert(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "string to int", ref: convertJS, cov: cover{col: types}, doc: convDoc, expr: `{"$convert": {"input": "$s", "to": "int"}}`, want: `17`},
		{name: "to by type number", ref: convertJS, cov: cover{col: types}, doc: convDoc, expr: `{"$convert": {"input": "$i", "to": 18}}`,
			want: `{"$numberLong": "42"}`},
		{name: "double to int truncates", ref: mathCpp + " (performCastDoubleToInt)", cov: cover{col: types}, doc: convDoc,
			expr: `{"$convert": {"input": "$d", "to": "int"}}`, want: `2`},
		{name: "decimal to long truncates", ref: mathCpp + " (performCastDecimalToInt)", cov: cover{col: types}, doc: convDoc,
			expr: `{"$convert": {"input": "$dec", "to": "long"}}`, want: `{"$numberLong": "-7"}`},
		{name: "double to string", ref: mathCpp + " (performFormatDouble)", cov: cover{col: types}, doc: convDoc,
			expr: `{"$convert": {"input": 0.1, "to": "string"}}`, want: `"0.1"`},
		{name: "date to string", ref: convertJS, cov: cover{col: types}, doc: convDoc, expr: `{"$convert": {"input": "$date", "to": "string"}}`,
			want: `"2020-01-01T00:00:00.000Z"`},
		{name: "objectId to date", ref: convertJS, cov: cover{col: types}, doc: convDoc, expr: `{"$convert": {"input": "$oid", "to": "date"}}`,
			want: `{"$date": "2020-09-13T12:26:40Z"}`},
		{name: "bool to decimal", ref: convertJS, cov: cover{col: types}, doc: convDoc, expr: `{"$convert": {"input": "$b", "to": "decimal"}}`,
			want: `{"$numberDecimal": "1"}`},
		{name: "null input", ref: convertJS, doc: convDoc, expr: `{"$convert": {"input": "$n", "to": "int"}}`, want: `null`},
		{name: "null input with onNull", ref: convertJS, doc: convDoc, expr: `{"$convert": {"input": "$nope", "to": "int", "onNull": -1}}`, want: `-1`},
		{name: "null to", ref: convertJS, doc: convDoc, expr: `{"$convert": {"input": "$i", "to": "$n"}}`, want: `null`},
		{name: "a bad 'to' wins over a null input", ref: exprCpp + " (ConvertTargetTypeInfo::parse before the input's null check)", doc: convDoc,
			expr: `{"$convert": {"input": "$n", "to": "$s"}}`, code: 2, msg: planExecutor + "Unknown type name: 17"},
		{name: "an unsupported conversion", ref: convertJS, doc: convDoc, expr: `{"$convert": {"input": "$date", "to": "int"}}`,
			code: 241, msg: planExecutor + "Unsupported conversion from date to int in $convert with no onError value"},
		{name: "onError catches a conversion failure", ref: convertJS, doc: convDoc, expr: `{"$convert": {"input": "x", "to": "int", "onError": "$s"}}`, want: `"17"`},
		{name: "a long too big for an int", ref: convertJS, doc: convDoc, expr: `{"$convert": {"input": "$l", "to": "int"}}`,
			code: 241, msg: planExecutor + "Conversion would overflow target type in $convert with no onError value: "},
		{name: "a string that is not a number", ref: convertJS, doc: convDoc, expr: `{"$convert": {"input": {"$concat": ["$s", "x"]}, "to": "int"}}`,
			code: 241, msg: planExecutor + "Failed to parse number '17x' in $convert with no onError value: Did not consume whole string."},
		{name: "nothing converts to missing", ref: exprCpp + " (computeTargetType accepts \"missing\")", doc: convDoc,
			expr: `{"$convert": {"input": "$i", "to": "missing"}}`,
			code: 241, msg: planExecutor + "Unsupported conversion from int to missing in $convert with no onError value"},
		{name: "a fractional to", ref: exprCpp + " (computeTargetType)", doc: convDoc, expr: `{"$convert": {"input": "$i", "to": 1.5}}`,
			code: 9, msg: planExecutor + "In $convert, numeric 'to' argument is not an integer"},
		{name: "a boolean to", ref: exprCpp + " (computeTargetType)", doc: convDoc, expr: `{"$convert": {"input": "$i", "to": "$b"}}`,
			code: 9, msg: planExecutor + "$convert's 'to' argument must be a string or number, but is bool"},
		{name: "a to number that is no type", ref: exprCpp + " (computeTargetType)", doc: convDoc, expr: `{"$convert": {"input": "$i", "to": 99}}`,
			code: 9, msg: planExecutor + "In $convert, numeric value for 'to' does not correspond to a BSON type: 99"},
		{name: "no to", ref: exprCpp, expr: `{"$convert": {"input": 1}}`, code: 9, msg: invalidProject + "Missing 'to' parameter to $convert"},
		{name: "an unknown argument", ref: exprCpp, expr: `{"$convert": {"input": 1, "to": "int", "x": 1}}`,
			code: 9, msg: invalidProject + "$convert found an unknown argument: x"},
		{name: "not an object", ref: exprCpp, expr: `{"$convert": 1}`, code: 9, msg: invalidProject + "$convert expects an object of named arguments but found: int"},
		{name: "BinData to string in base64", ref: "jstests/aggregation/expressions/convert_bindata.js", cov: cover{col: types}, doc: convDoc,
			expr: `{"$convert": {"input": "$bin", "to": "string", "format": "base64"}}`, want: `"SGk="`},
		{name: "BinData to string in utf8", ref: "jstests/aggregation/expressions/convert_bindata.js", doc: convDoc,
			expr: `{"$convert": {"input": "$bin", "to": "string", "format": "utf8"}}`, want: `"Hi"`},
		{name: "a UUID to string by toString", ref: exprCpp + " (makeConversionAlias: $toString uses the auto format)", cov: cover{op: "$toString"}, doc: convDoc,
			expr: `{"$toString": "$uuid"}`, want: `"01234567-89ab-cdef-0123-456789abcdef"`},
		{name: "a string to BinData in hex", ref: "jstests/aggregation/expressions/convert_bindata.js", cov: cover{col: types},
			expr: `{"$convert": {"input": "4869", "to": {"type": "binData", "subtype": 0}, "format": "hex"}}`,
			want: `{"$binary": {"base64": "SGk=", "subType": "00"}}`},
		{name: "a string to BinData without a format", ref: mathCpp + " (checkFormat)", doc: convDoc,
			expr: `{"$convert": {"input": "$s", "to": "binData"}}`,
			code: 4341115, msg: planExecutor + "Format must be speficied when converting from 'string' to 'binData'"},
		{name: "an unknown format", ref: mathCpp + " (parseBinDataFormat)", doc: convDoc,
			expr: `{"$convert": {"input": "$s", "to": "binData", "format": "base32", "onError": 0}}`,
			code: 4341125, msg: planExecutor + "Invalid 'format' argument for $convert: base32"},
		{name: "BinData to another subtype", ref: mathCpp + " (performConvertBinDataToBinData)", doc: convDoc,
			expr: `{"$convert": {"input": "$bin", "to": {"type": "binData", "subtype": 5}}}`,
			code: 241, msg: planExecutor + "Conversions between different BinData subtypes are not supported"},
		{name: "toUUID", ref: "manual: reference/operator/aggregation/toUUID", cov: cover{op: "$toUUID", col: types},
			expr: `{"$toUUID": "01234567-89ab-cdef-0123-456789abcdef"}`, want: `{"$binary": {"base64": "ASNFZ4mrze8BI0VniavN7w==", "subType": "04"}}`},
		{name: "toUUID of a bad string", ref: mathCpp + " (parseStringToBinData)", cov: cover{op: "$toUUID"}, doc: convDoc, expr: `{"$toUUID": "$s"}`,
			code: 241, msg: planExecutor + "Failed to parse BinData '17' in $convert with no onError value: Invalid UUID string: 17"},
		{name: "toInt", ref: convertJS, cov: cover{op: "$toInt"}, doc: convDoc, expr: `{"$toInt": "$b"}`, want: `1`},
		{name: "toInt of NaN", ref: convertJS, cov: cover{op: "$toInt"}, expr: `{"$toInt": {"$numberDouble": "NaN"}}`,
			code: 241, msg: optimizeError + "Attempt to convert NaN value to integer type in $convert with no onError value"},
		{name: "toInt takes one argument", ref: exprCpp + " (makeConversionAlias)", cov: cover{op: "$toInt"}, expr: `{"$toInt": [1, 2]}`,
			code: 50723, msg: invalidProject + "$toInt requires a single argument, got 2"},
		{name: "toLong", ref: convertJS, cov: cover{op: "$toLong", col: types}, doc: convDoc, expr: `{"$toLong": "$date"}`, want: `{"$numberLong": "1577836800000"}`},
		{name: "toDouble", ref: convertJS, cov: cover{op: "$toDouble", col: types}, doc: convDoc, expr: `{"$toDouble": "$s"}`, want: `17.0`},
		{name: "toDecimal", ref: convertJS, cov: cover{op: "$toDecimal", col: types}, doc: convDoc, expr: `{"$toDecimal": "$d"}`, want: `{"$numberDecimal": "2.50000000000000"}`},
		{name: "toBool of a string", ref: convertJS, cov: cover{op: "$toBool"}, expr: `{"$toBool": ""}`, want: `true`},
		{name: "toBool of zero", ref: convertJS, cov: cover{op: "$toBool"}, doc: convDoc, expr: `{"$toBool": {"$subtract": ["$i", 42]}}`, want: `false`},
		{name: "toString of a long", ref: convertJS, cov: cover{op: "$toString"}, doc: convDoc, expr: `{"$toString": "$l"}`, want: `"5000000000"`},
		{name: "toString of null", ref: convertJS, cov: cover{op: "$toString"}, doc: convDoc, expr: `{"$toString": "$n"}`, want: `null`},
		{name: "toObjectId", ref: convertJS, cov: cover{op: "$toObjectId", col: types}, expr: `{"$toObjectId": "5f5e1000aaaaaaaaaaaaaaaa"}`,
			want: `{"$oid": "5f5e1000aaaaaaaaaaaaaaaa"}`},
		{name: "toObjectId of a short string", ref: convertJS, cov: cover{op: "$toObjectId"}, doc: convDoc, expr: `{"$toObjectId": "$s"}`,
			code: 241, msg: planExecutor + "Failed to parse objectId '17' in $convert with no onError value: Invalid string length for parsing to OID, expected 24 but found 2"},
		{name: "toDate of a double", ref: convertJS, cov: cover{op: "$toDate", col: types}, expr: `{"$toDate": 86400000.5}`, want: `{"$date": "1970-01-02T00:00:00Z"}`},
		{name: "toDate of an int is unsupported", ref: mathCpp + " (no int to date entry)", cov: cover{op: "$toDate"}, doc: convDoc, expr: `{"$toDate": "$i"}`,
			code: 241, msg: planExecutor + "Unsupported conversion from int to date in $convert with no onError value"},
	})
}

// The shorthands' argument and result types, from $convert's conversion
// table (ConversionTable in evaluate_math.cpp): $toBool is coerceToBool
// for numbers and dates and true for the other types it takes, $toInt
// truncates and checks the int range, $toString formats each type its own
// way.
func TestExpressionConvertTypes(t *testing.T) {
	table := mathCpp + " (ConversionTable)"
	runExprCases(t, []exprCase{
		{name: "toBool of the epoch is true", ref: table + "; " + valueCpp + " (coerceToBool)", cov: cover{op: "$toBool", col: types},
			expr: `{"$toBool": {"$date": "1970-01-01T00:00:00Z"}}`, want: `true`},
		{name: "toBool of a decimal zero", ref: valueCpp + " (coerceToBool: !isZero)", cov: cover{op: "$toBool", col: types},
			expr: `{"$toBool": {"$numberDecimal": "0.00"}}`, want: `false`},
		{name: "toBool of a long zero", ref: valueCpp + " (coerceToBool)", cov: cover{op: "$toBool", col: types}, doc: convDoc,
			expr: `{"$toBool": {"$subtract": ["$l", "$l"]}}`, want: `false`},
		{name: "toBool of an ObjectId", ref: table + " (performConvertToTrue)", cov: cover{op: "$toBool", col: types}, doc: convDoc,
			expr: `{"$toBool": "$oid"}`, want: `true`},
		{name: "toBool of NaN is true", ref: valueCpp + " (coerceToBool: a NaN double is nonzero)", cov: cover{op: "$toBool", col: types},
			expr: `{"$toBool": {"$numberDouble": "NaN"}}`, want: `true`},
		{name: "toInt of a decimal truncates", ref: mathCpp + " (performCastDecimalToInt)", cov: cover{op: "$toInt", col: types}, doc: convDoc,
			expr: `{"$toInt": "$dec"}`, want: `-7`},
		{name: "toInt of a string", ref: mathCpp + " (parseStringToNumber<int, 10>)", cov: cover{op: "$toInt", col: types},
			expr: `{"$toInt": "-12"}`, want: `-12`},
		{name: "toInt of a long", ref: mathCpp + " (performCastLongToInt)", cov: cover{op: "$toInt", col: types},
			expr: `{"$toInt": {"$numberLong": "-2147483648"}}`, want: `-2147483648`},
		{name: "toInt of a double beyond an int", ref: mathCpp + " (performCastDoubleToInt)", cov: cover{op: "$toInt", col: types}, doc: convDoc,
			expr: `{"$toInt": {"$multiply": ["$d", 1200000000]}}`,
			code: 241, msg: planExecutor + "Conversion would overflow target type in $convert with no onError value: 3e+09"},
		{name: "toInt of an ObjectId", ref: table, cov: cover{op: "$toInt", col: types}, doc: convDoc,
			expr: `{"$toInt": "$oid"}`, code: 241, msg: planExecutor + "Unsupported conversion from objectId to int in $convert with no onError value"},
		{name: "toString of a bool", ref: table, cov: cover{op: "$toString", col: types}, doc: convDoc, expr: `{"$toString": "$b"}`, want: `"true"`},
		{name: "toString of an ObjectId", ref: table, cov: cover{op: "$toString", col: types}, doc: convDoc,
			expr: `{"$toString": "$oid"}`, want: `"5f5e1000aaaaaaaaaaaaaaaa"`},
		{name: "toString of a decimal", ref: table, cov: cover{op: "$toString", col: types}, doc: convDoc, expr: `{"$toString": "$dec"}`, want: `"-7.9"`},
		{name: "toString of a date", ref: table, cov: cover{op: "$toString", col: types}, doc: convDoc,
			expr: `{"$toString": "$date"}`, want: `"2020-01-01T00:00:00.000Z"`},
		{name: "toString of an int", ref: table, cov: cover{op: "$toString", col: types}, doc: convDoc, expr: `{"$toString": "$i"}`, want: `"42"`},
	})
}

// A date turns into a string through formatDate's %Y, which takes the years
// 0 to 9999 only (18537): $convert's table entry for date to string raises
// that error as it is, onError or not (it is no ConversionFailure), and
// Value::coerceToString, which $toUpper, $substr and $strcasecmp use, adds
// its own context.
func TestExpressionDateToStringRange(t *testing.T) {
	table := mathCpp + " (ConversionTable: date to string formats kIsoFormatStringZ)"
	coerce := valueCpp + " (coerceToString: \"failed while coercing date to string\")"
	doc := `{"_id": 0, "late": {"$date": {"$numberLong": "253402300800000"}}, "early": {"$date": {"$numberLong": "-62198755200000"}},` +
		` "old": {"$date": "1960-01-01T00:00:00.123Z"}}`
	outside := "Could not convert date to string: date component was outside the supported range of 0-9999: "
	runExprCases(t, []exprCase{
		{name: "toString of a date in year 10000", ref: table, cov: cover{op: "$toString", col: types}, doc: doc,
			expr: `{"$toString": "$late"}`, code: 18537, msg: planExecutor + outside + "10000"},
		{name: "toString of a date before year 0", ref: table, cov: cover{op: "$toString", col: types}, doc: doc,
			expr: `{"$toString": "$early"}`, code: 18537, msg: planExecutor + outside + "-1"},
		{name: "onError does not catch the year's range", ref: table + "; " + exprCpp + " (onError catches ConversionFailure only)", doc: doc,
			expr: `{"$convert": {"input": "$late", "to": "string", "onError": "x"}}`, code: 18537, msg: planExecutor + outside + "10000"},
		{name: "toString of a date before 1970", ref: table, cov: cover{op: "$toString", col: types}, doc: doc,
			expr: `{"$toString": "$old"}`, want: `"1960-01-01T00:00:00.123Z"`},
		{name: "toUpper of a date in year 10000", ref: coerce, cov: cover{op: "$toUpper", col: types}, doc: doc,
			expr: `{"$toUpper": "$late"}`, code: 18537, msg: planExecutor + "failed while coercing date to string :: caused by :: " + outside + "10000"},
		{name: "substrBytes of a date before year 0", ref: coerce, cov: cover{op: "$substrBytes", col: types}, doc: doc,
			expr: `{"$substrBytes": ["$early", 0, 4]}`, code: 18537, msg: planExecutor + "failed while coercing date to string :: caused by :: " + outside + "-1"},
	})
}

// performCastDecimalToDouble accepts bid128_to_binary64's inexact flag
// alone: a decimal too small for a normal double signals underflow, as one
// too big signals overflow, and both fail with the same message.
func TestExpressionConvertDecimalToDouble(t *testing.T) {
	ref := mathCpp + " (performCastDecimalToDouble)"
	doc := `{"_id": 0, "tiny": {"$numberDecimal": "1E-400"}, "sub": {"$numberDecimal": "-1E-310"}, "small": {"$numberDecimal": "3E-308"},` +
		` "zero": {"$numberDecimal": "0E-6000"}}`
	overflow := "Conversion would overflow target type in $convert with no onError value: "
	runExprCases(t, []exprCase{
		{name: "a decimal below the doubles", ref: ref, cov: cover{op: "$toDouble", col: types}, doc: doc,
			expr: `{"$toDouble": "$tiny"}`, code: 241, msg: planExecutor + overflow + "1E-400"},
		{name: "a decimal in the subnormal doubles", ref: ref, cov: cover{op: "$toDouble", col: types}, doc: doc,
			expr: `{"$toDouble": "$sub"}`, code: 241, msg: planExecutor + overflow + "-1E-310"},
		{name: "onError catches the underflow", ref: ref, doc: doc,
			expr: `{"$convert": {"input": "$tiny", "to": "double", "onError": "under"}}`, want: `"under"`},
		{name: "a small normal double", ref: ref, cov: cover{op: "$toDouble", col: types}, doc: doc,
			expr: `{"$toDouble": "$small"}`, want: `3e-308`},
		{name: "a zero with a tiny exponent", ref: ref, cov: cover{op: "$toDouble", col: types}, doc: doc,
			expr: `{"$toDouble": "$zero"}`, want: `0.0`},
	})
}
