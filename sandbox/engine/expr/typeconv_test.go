package expr

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func TestTypeConversion(t *testing.T) {
	runCases(t, []exprCase{
		{name: "type", expr: `{"$type": "$a"}`, doc: `{"a": 1.5}`, want: `"double"`},
		{name: "type missing", expr: `{"$type": "$a"}`, want: `"missing"`},
		{name: "type array arg", expr: `{"$type": [[1]]}`, want: `"array"`},
		{name: "isNumber", expr: `{"$isNumber": "$a"}`, doc: `{"a": {"$numberLong": "1"}}`, want: `true`},
		{name: "toInt string", expr: `{"$toInt": "42"}`, want: `{"$numberInt": "42"}`},
		{name: "toInt double truncates", expr: `{"$toInt": 5.9}`, want: `{"$numberInt": "5"}`},
		{name: "toInt bool", expr: `{"$toInt": true}`, want: `{"$numberInt": "1"}`},
		{name: "toInt bad string", expr: `{"$toInt": "1.5"}`, code: mongoerr.ConversionFailure},
		{name: "toInt overflow", expr: `{"$toInt": {"$numberLong": "9999999999"}}`, code: mongoerr.ConversionFailure},
		{name: "toInt null", expr: `{"$toInt": null}`, want: `null`},
		{name: "toLong date", expr: `{"$toLong": {"$date": "1970-01-01T00:00:01Z"}}`, want: `{"$numberLong": "1000"}`},
		{name: "toDouble string", expr: `{"$toDouble": "2.5"}`, want: `2.5`},
		{name: "toDouble bad", expr: `{"$toDouble": "abc"}`, code: mongoerr.ConversionFailure, msg: "Failed to parse number 'abc' in $convert with no onError value: Did not consume any digits"},
		{name: "toDecimal double", expr: `{"$toDecimal": 2.5}`, want: `{"$numberDecimal": "2.50000000000000"}`},
		{name: "toDecimal int", expr: `{"$toDecimal": 5}`, want: `{"$numberDecimal": "5"}`},
		{name: "toString double", expr: `{"$toString": 2.5}`, want: `"2.5"`},
		{name: "toString date", expr: `{"$toString": {"$date": "2018-03-03T00:00:00Z"}}`, want: `"2018-03-03T00:00:00.000Z"`},
		{name: "toString oid", expr: `{"$toString": {"$oid": "5ab9cbfa31c2ab715d42129e"}}`, want: `"5ab9cbfa31c2ab715d42129e"`},
		{name: "toString bool", expr: `{"$toString": true}`, want: `"true"`},
		{name: "toString object", expr: `{"$toString": {"$literal": {"a": 1}}}`, code: mongoerr.ConversionFailure, msg: "Unsupported conversion from object to string in $convert with no onError value"},
		{name: "toBool string", expr: `{"$toBool": ""}`, want: `true`},
		{name: "toBool zero", expr: `{"$toBool": 0}`, want: `false`},
		{name: "toObjectId", expr: `{"$toObjectId": "5ab9cbfa31c2ab715d42129e"}`, want: `{"$oid": "5ab9cbfa31c2ab715d42129e"}`},
		{name: "toObjectId bad", expr: `{"$toObjectId": "system"}`, code: mongoerr.ConversionFailure, msg: "Failed to parse objectId 'system' in $convert with no onError value: Invalid string length for parsing to OID, expected 24 but found 6"},
		{name: "toDate string", expr: `{"$toDate": "2018-03-03"}`, want: `{"$date": "2018-03-03T00:00:00Z"}`},
		{name: "toDate long", expr: `{"$toDate": {"$numberLong": "1000"}}`, want: `{"$date": "1970-01-01T00:00:01Z"}`},
		{name: "toDate int unsupported", expr: `{"$toDate": 1000}`, code: mongoerr.ConversionFailure},
		{name: "convert onError", expr: `{"$convert": {"input": "abc", "to": "int", "onError": -1}}`, want: `{"$numberInt": "-1"}`},
		{name: "convert onNull", expr: `{"$convert": {"input": "$nope", "to": "int", "onNull": 0}}`, want: `{"$numberInt": "0"}`},
		{name: "convert numeric to", expr: `{"$convert": {"input": "5", "to": 16}}`, want: `{"$numberInt": "5"}`},
		{name: "convert unknown type", expr: `{"$convert": {"input": "5", "to": "foo"}}`, code: mongoerr.BadValue},
		{name: "convert missing to", expr: `{"$convert": {"input": "5"}}`, code: mongoerr.FailedToParse},
	})
}
