package expr

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// doc is the manual's $dateToString example document.
const dateDoc = `{"date": {"$date": "2014-01-01T08:15:39.736Z"}}`

func TestDateOperators(t *testing.T) {
	runCases(t, []exprCase{
		{name: "year", expr: `{"$year": "$date"}`, doc: dateDoc, want: `{"$numberInt": "2014"}`},
		{name: "month", expr: `{"$month": "$date"}`, doc: dateDoc, want: `{"$numberInt": "1"}`},
		{name: "dayOfMonth", expr: `{"$dayOfMonth": "$date"}`, doc: dateDoc, want: `{"$numberInt": "1"}`},
		{name: "hour", expr: `{"$hour": "$date"}`, doc: dateDoc, want: `{"$numberInt": "8"}`},
		{name: "minute", expr: `{"$minute": "$date"}`, doc: dateDoc, want: `{"$numberInt": "15"}`},
		{name: "second", expr: `{"$second": "$date"}`, doc: dateDoc, want: `{"$numberInt": "39"}`},
		{name: "millisecond", expr: `{"$millisecond": "$date"}`, doc: dateDoc, want: `{"$numberInt": "736"}`},
		{name: "dayOfYear", expr: `{"$dayOfYear": "$date"}`, doc: dateDoc, want: `{"$numberInt": "1"}`},
		{name: "dayOfWeek", expr: `{"$dayOfWeek": "$date"}`, doc: dateDoc, want: `{"$numberInt": "4"}`},
		{name: "week", expr: `{"$week": "$date"}`, doc: dateDoc, want: `{"$numberInt": "0"}`},
		{name: "isoWeek", expr: `{"$isoWeek": "$date"}`, doc: dateDoc, want: `{"$numberInt": "1"}`},
		{name: "isoDayOfWeek", expr: `{"$isoDayOfWeek": "$date"}`, doc: dateDoc, want: `{"$numberInt": "3"}`},
		{name: "hour in timezone", expr: `{"$hour": {"date": "$date", "timezone": "America/New_York"}}`, doc: dateDoc, want: `{"$numberInt": "3"}`},
		{name: "hour offset", expr: `{"$hour": {"date": "$date", "timezone": "+05:30"}}`, doc: dateDoc, want: `{"$numberInt": "13"}`},
		{name: "bad timezone", expr: `{"$hour": {"date": "$date", "timezone": "Mars/Base"}}`, doc: dateDoc, code: 40485, msg: `unrecognized time zone identifier: "Mars/Base"`},
		{name: "year null", expr: `{"$year": "$nope"}`, want: `null`},
		{name: "year of string", expr: `{"$year": "x"}`, code: 16006},
		{name: "year of objectId", expr: `{"$year": {"$literal": {"$oid": "5ab9cbfa31c2ab715d42129e"}}}`, want: `{"$numberInt": "2018"}`},
		// The manual's $dateToString examples.
		{name: "dateToString ymd", expr: `{"$dateToString": {"format": "%Y-%m-%d", "date": "$date"}}`, doc: dateDoc, want: `"2014-01-01"`},
		{name: "dateToString time", expr: `{"$dateToString": {"format": "%H:%M:%S:%L%z", "date": "$date"}}`, doc: dateDoc, want: `"08:15:39:736+0000"`},
		{name: "dateToString tz", expr: `{"$dateToString": {"format": "%H:%M:%S:%L%z", "date": "$date", "timezone": "America/New_York"}}`, doc: dateDoc, want: `"03:15:39:736-0500"`},
		{name: "dateToString minutes offset", expr: `{"$dateToString": {"format": "%Z", "date": "$date", "timezone": "America/New_York"}}`, doc: dateDoc, want: `"-300"`},
		{name: "dateToString weeks", expr: `{"$dateToString": {"format": "%j %w %u %U %V %G", "date": "$date"}}`, doc: dateDoc, want: `"001 4 3 00 01 2014"`},
		{name: "dateToString default", expr: `{"$dateToString": {"date": "$date"}}`, doc: dateDoc, want: `"2014-01-01T08:15:39.736Z"`},
		{name: "dateToString onNull", expr: `{"$dateToString": {"date": "$nope", "onNull": "none"}}`, want: `"none"`},
		{name: "dateToString bad format", expr: `{"$dateToString": {"date": "$date", "format": "%q"}}`, doc: dateDoc, code: 18536},
		{name: "dateToString percent", expr: `{"$dateToString": {"date": "$date", "format": "100%%"}}`, doc: dateDoc, want: `"100%"`},
		{name: "dateFromString", expr: `{"$dateFromString": {"dateString": "2017-02-08T12:10:40.787"}}`, want: `{"$date": "2017-02-08T12:10:40.787Z"}`},
		{name: "dateFromString tz", expr: `{"$dateFromString": {"dateString": "2017-02-08T12:10:40.787", "timezone": "America/New_York"}}`, want: `{"$date": "2017-02-08T17:10:40.787Z"}`},
		{name: "dateFromString offset", expr: `{"$dateFromString": {"dateString": "2017-02-08T12:10:40.787+02:00"}}`, want: `{"$date": "2017-02-08T10:10:40.787Z"}`},
		{name: "dateFromString format", expr: `{"$dateFromString": {"dateString": "15-06-2018", "format": "%d-%m-%Y"}}`, want: `{"$date": "2018-06-15T00:00:00Z"}`},
		{name: "dateFromString onError", expr: `{"$dateFromString": {"dateString": "nope", "onError": "bad"}}`, want: `"bad"`},
		{name: "dateFromString error", expr: `{"$dateFromString": {"dateString": "nope"}}`, code: mongoerr.ConversionFailure},
		{name: "dateFromParts", expr: `{"$dateFromParts": {"year": 2017, "month": 2, "day": 8, "hour": 12}}`, want: `{"$date": "2017-02-08T12:00:00Z"}`},
		{name: "dateFromParts carry", expr: `{"$dateFromParts": {"year": 2017, "month": 14, "day": 1}}`, want: `{"$date": "2018-02-01T00:00:00Z"}`},
		{name: "dateFromParts iso", expr: `{"$dateFromParts": {"isoWeekYear": 2017, "isoWeek": 6, "isoDayOfWeek": 3}}`, want: `{"$date": "2017-02-08T00:00:00Z"}`},
		{name: "dateToParts", expr: `{"$dateToParts": {"date": "$date"}}`, doc: dateDoc, want: `{"year": 2014, "month": 1, "day": 1, "hour": 8, "minute": 15, "second": 39, "millisecond": 736}`},
		{name: "dateToParts iso", expr: `{"$dateToParts": {"date": "$date", "iso8601": true}}`, doc: dateDoc, want: `{"isoWeekYear": 2014, "isoWeek": 1, "isoDayOfWeek": 3, "hour": 8, "minute": 15, "second": 39, "millisecond": 736}`},
		// The manual's $dateTrunc examples.
		{name: "dateTrunc week", expr: `{"$dateTrunc": {"date": {"$date": "2020-05-18T14:10:30Z"}, "unit": "week"}}`, want: `{"$date": "2020-05-17T00:00:00Z"}`},
		{name: "dateTrunc week monday", expr: `{"$dateTrunc": {"date": {"$date": "2020-05-18T14:10:30Z"}, "unit": "week", "startOfWeek": "Monday"}}`, want: `{"$date": "2020-05-18T00:00:00Z"}`},
		{name: "dateTrunc 6 months", expr: `{"$dateTrunc": {"date": {"$date": "2020-05-18T14:10:30Z"}, "unit": "month", "binSize": 6}}`, want: `{"$date": "2020-01-01T00:00:00Z"}`},
		{name: "dateTrunc quarter", expr: `{"$dateTrunc": {"date": {"$date": "2021-03-20T11:30:05Z"}, "unit": "quarter"}}`, want: `{"$date": "2021-01-01T00:00:00Z"}`},
		{name: "dateTrunc hour binSize", expr: `{"$dateTrunc": {"date": {"$date": "2021-03-20T11:30:05Z"}, "unit": "hour", "binSize": 2}}`, want: `{"$date": "2021-03-20T10:00:00Z"}`},
		{name: "dateTrunc day tz", expr: `{"$dateTrunc": {"date": {"$date": "2021-03-20T02:30:05Z"}, "unit": "day", "timezone": "America/New_York"}}`, want: `{"$date": "2021-03-19T04:00:00Z"}`},
		{name: "dateTrunc bad binSize", expr: `{"$dateTrunc": {"date": {"$date": "2021-03-20T02:30:05Z"}, "unit": "day", "binSize": 0}}`, code: 5439018},
		{name: "dateAdd day", expr: `{"$dateAdd": {"startDate": {"$date": "2020-10-31T12:10:05Z"}, "unit": "day", "amount": 3}}`, want: `{"$date": "2020-11-03T12:10:05Z"}`},
		{name: "dateAdd month clamps", expr: `{"$dateAdd": {"startDate": {"$date": "2021-01-31T00:00:00Z"}, "unit": "month", "amount": 1}}`, want: `{"$date": "2021-02-28T00:00:00Z"}`},
		{name: "dateAdd hour", expr: `{"$dateAdd": {"startDate": {"$date": "2021-01-31T00:00:00Z"}, "unit": "hour", "amount": 25}}`, want: `{"$date": "2021-02-01T01:00:00Z"}`},
		{name: "dateSubtract", expr: `{"$dateSubtract": {"startDate": {"$date": "2021-03-31T00:00:00Z"}, "unit": "month", "amount": 1}}`, want: `{"$date": "2021-02-28T00:00:00Z"}`},
		{name: "dateAdd fractional", expr: `{"$dateAdd": {"startDate": {"$date": "2021-03-31T00:00:00Z"}, "unit": "day", "amount": 1.5}}`, code: 5166405},
		{name: "dateDiff days", expr: `{"$dateDiff": {"startDate": {"$date": "2021-01-01T23:00:00Z"}, "endDate": {"$date": "2021-01-02T01:00:00Z"}, "unit": "day"}}`, want: `{"$numberLong": "1"}`},
		{name: "dateDiff years", expr: `{"$dateDiff": {"startDate": {"$date": "2020-12-31T00:00:00Z"}, "endDate": {"$date": "2021-01-01T00:00:00Z"}, "unit": "year"}}`, want: `{"$numberLong": "1"}`},
		{name: "dateDiff month", expr: `{"$dateDiff": {"startDate": {"$date": "2021-01-31T00:00:00Z"}, "endDate": {"$date": "2021-03-01T00:00:00Z"}, "unit": "month"}}`, want: `{"$numberLong": "2"}`},
		// Manual: week differences with startOfWeek.
		{name: "dateDiff week sunday", expr: `{"$dateDiff": {"startDate": {"$date": "2021-01-01T00:00:00Z"}, "endDate": {"$date": "2021-01-10T00:00:00Z"}, "unit": "week"}}`, want: `{"$numberLong": "2"}`},
		{name: "dateDiff week monday", expr: `{"$dateDiff": {"startDate": {"$date": "2021-01-01T00:00:00Z"}, "endDate": {"$date": "2021-01-10T00:00:00Z"}, "unit": "week", "startOfWeek": "mon"}}`, want: `{"$numberLong": "1"}`},
		{name: "dateDiff negative hours", expr: `{"$dateDiff": {"startDate": {"$date": "2021-01-01T02:00:00Z"}, "endDate": {"$date": "2021-01-01T00:30:00Z"}, "unit": "hour"}}`, want: `{"$numberLong": "-2"}`},
		{name: "dateDiff bad unit", expr: `{"$dateDiff": {"startDate": {"$date": "2021-01-01T02:00:00Z"}, "endDate": {"$date": "2021-01-01T00:30:00Z"}, "unit": "fortnight"}}`, code: mongoerr.FailedToParse},
	})
}

func TestDateFromStringFormats(t *testing.T) {
	runCases(t, []exprCase{
		{name: "single digit parts", expr: `{"$dateFromString": {"dateString": "2018/6/5 7:08", "format": "%Y/%m/%d %H:%M"}}`, want: `{"$date": "2018-06-05T07:08:00Z"}`},
		{name: "non-UTC default format", expr: `{"$dateToString": {"date": {"$date": "2014-01-01T08:15:39.736Z"}, "timezone": "+01:00"}}`, want: `"2014-01-01T09:15:39.736"`},
		{name: "dateTrunc date type", expr: `{"$dateTrunc": {"date": 1, "unit": "day"}}`, code: 5166307, msg: "$dateTrunc requires 'date' to be a date, but got int"},
		{name: "dateTrunc bad tz", expr: `{"$dateTrunc": {"date": "$$NOW", "unit": "day", "timezone": "Nowhere"}}`, code: 40485, msg: "$dateTrunc parameter 'timezone' value parsing failed :: caused by :: unrecognized time zone identifier: \"Nowhere\""},
		{name: "tsSecond", expr: `{"$tsSecond": {"$timestamp": {"t": 1622731060, "i": 1}}}`, want: `{"$numberLong": "1622731060"}`},
	})
}

func TestDateStringForms(t *testing.T) {
	runCases(t, []exprCase{
		{name: "space offset", expr: `{"$toDate": "2018-03-20 11:00:06 +0500"}`, want: `{"$date": "2018-03-20T06:00:06Z"}`},
		{name: "iso z", expr: `{"$toDate": "2018-03-20T11:00:06.123Z"}`, want: `{"$date": "2018-03-20T11:00:06.123Z"}`},
		{name: "date only", expr: `{"$toDate": "2018-03-20"}`, want: `{"$date": "2018-03-20T00:00:00Z"}`},
	})
}
