package compat_test

import "testing"

// Deep sweep 45 (dates): $dateToParts (evaluate(ExpressionDateToParts):
// the timezone, then iso8601, then a null date, then the date's coercion)
// and the week and year parts (evaluateDateTimezoneArg, TimeZone::week,
// isoWeek and isoYear in date_time_support.cpp; isoYear is a long), over
// the 64-bit date range.

const toPartsRef = dateCpp + " (ExpressionDateToParts); " + dateTimeCp + " (TimeZone::dateParts, dateIso8601Parts); jstests/aggregation/expressions/date_to_parts.js"

const dtpDoc = `{"_id": 0, "d": {"$date": "2017-06-19T15:13:25.713Z"}, "s": "x", "n": null, "j16": {"$date": "2016-01-01T00:00:00Z"},` +
	` "j17": {"$date": "2017-01-01T00:00:00Z"}, "min": {"$date": {"$numberLong": "-9223372036854775808"}},` +
	` "max": {"$date": {"$numberLong": "9223372036854775807"}}}`

func TestDeep45DatesToParts(t *testing.T) {
	c := cover{op: "$dateToParts"}
	ce := cover{op: "$dateToParts", col: errorCol}
	ct := cover{op: "$dateToParts", col: types}
	runExprCases(t, []exprCase{
		{name: "parts in Amsterdam", ref: toPartsRef, cov: c, doc: dtpDoc, expr: `{"$dateToParts": {"date": "$d", "timezone": "Europe/Amsterdam"}}`,
			want: `{"year": 2017, "month": 6, "day": 19, "hour": 17, "minute": 13, "second": 25, "millisecond": 713}`},
		{name: "ISO parts in Amsterdam", ref: toPartsRef, cov: c, doc: dtpDoc, expr: `{"$dateToParts": {"date": "$d", "timezone": "Europe/Amsterdam", "iso8601": true}}`,
			want: `{"isoWeekYear": 2017, "isoWeek": 25, "isoDayOfWeek": 1, "hour": 17, "minute": 13, "second": 25, "millisecond": 713}`},
		{name: "parts of the least date", ref: toPartsRef, cov: c, doc: dtpDoc, expr: `{"$dateToParts": {"date": "$min"}}`,
			want: `{"year": -292275055, "month": 5, "day": 16, "hour": 16, "minute": 47, "second": 4, "millisecond": 192}`},
		{name: "ISO parts of the greatest date", ref: toPartsRef, cov: c, doc: dtpDoc, expr: `{"$dateToParts": {"date": "$max", "iso8601": true}}`,
			want: `{"isoWeekYear": 292278994, "isoWeek": 33, "isoDayOfWeek": 7, "hour": 7, "minute": 12, "second": 55, "millisecond": 807}`},
		{name: "a string iso8601", ref: toPartsRef, cov: ce, doc: dtpDoc, expr: `{"$dateToParts": {"date": "$d", "iso8601": "$s"}}`,
			code: 40521, msg: planExecutor + "iso8601 must evaluate to a bool, found string"},
		{name: "a string date", ref: toPartsRef, cov: ct, doc: dtpDoc, expr: `{"$dateToParts": {"date": "$s"}}`,
			code: 16006, msg: planExecutor + "can't convert from BSON type string to Date"},
		{name: "a null timezone before a string date", ref: toPartsRef, cov: c, doc: dtpDoc, expr: `{"$dateToParts": {"date": "$s", "timezone": "$n"}}`, want: `null`},
		{name: "a null iso8601 before a string date", ref: toPartsRef, cov: c, doc: dtpDoc, expr: `{"$dateToParts": {"date": "$s", "iso8601": "$n"}}`, want: `null`},
		{name: "a missing date", ref: toPartsRef, cov: c, doc: dtpDoc, expr: `{"$dateToParts": {"date": "$nothing", "iso8601": true}}`, want: `null`},

		// %U-style weeks: days before the first Sunday are week 0.
		{name: "week of a Friday January 1st", ref: dateTZ, cov: cover{op: "$week"}, doc: dtpDoc, expr: `{"$week": "$j16"}`, want: `0`},
		{name: "week of a Sunday January 1st", ref: dateTZ, cov: cover{op: "$week"}, doc: dtpDoc, expr: `{"$week": "$j17"}`, want: `1`},
		{name: "week of the least date", ref: dateTZ, cov: cover{op: "$week"}, doc: dtpDoc, expr: `{"$week": "$min"}`, want: `20`},
		{name: "isoWeek of a Friday January 1st is the last year's 53rd", ref: dateTZ, cov: cover{op: "$isoWeek"}, doc: dtpDoc, expr: `{"$isoWeek": "$j16"}`, want: `53`},
		{name: "isoWeek of the least date", ref: dateTZ, cov: cover{op: "$isoWeek"}, doc: dtpDoc, expr: `{"$isoWeek": "$min"}`, want: `19`},
		{name: "isoWeekYear of a Friday January 1st", ref: dateTZ, cov: cover{op: "$isoWeekYear", col: types}, doc: dtpDoc, expr: `{"$isoWeekYear": "$j16"}`,
			want: `{"$numberLong": "2015"}`},
		{name: "isoWeekYear of the greatest date", ref: dateTZ, cov: cover{op: "$isoWeekYear"}, doc: dtpDoc, expr: `{"$isoWeekYear": "$max"}`,
			want: `{"$numberLong": "292278994"}`},
		{name: "year of the least date", ref: dateTZ, cov: cover{op: "$year"}, doc: dtpDoc, expr: `{"$year": "$min"}`, want: `-292275055`},
		{name: "year of the greatest date", ref: dateTZ, cov: cover{op: "$year"}, doc: dtpDoc, expr: `{"$year": "$max"}`, want: `292278994`},
		{name: "hour with a +05:30 offset", ref: dateTZ, cov: cover{op: "$hour"}, doc: dtpDoc, expr: `{"$hour": {"date": "$d", "timezone": "+05:30"}}`, want: `20`},
		{name: "hour of the least date", ref: dateTZ, cov: cover{op: "$hour"}, doc: dtpDoc, expr: `{"$hour": "$min"}`, want: `16`},
	})
}
