package compat_test

import (
	"encoding/json"
	"testing"
)

// Deep sweep 45 (dates): $dateFromString and $toDate of a string without a
// format, which TimeZoneDatabase::fromString (src/mongo/db/query/datetime/
// date_time_support.cpp) hands to timelib_strtotime (src/third_party/timelib/
// dist/parse_date.re): the longest token rule wins at each position, parse
// errors and warnings are listed with their position and character, an
// unknown zone is reworded, and the weekday and relative days apply after.

const fromStringFree = dateTimeCp + " (TimeZoneDatabase::fromString); src/third_party/timelib/dist/parse_date.re (timelib_strtotime); " +
	"jstests/aggregation/expressions/date_from_string.js"

// fsDoc is a document whose field s holds the date string, so that the
// operator is evaluated per document rather than folded.
func fsDoc(s string) string {
	b, _ := json.Marshal(s)
	return `{"_id": 0, "s": ` + string(b) + `, "tz": "Europe/London"}`
}

func TestDeep45DatesFromStringFree(t *testing.T) {
	c := cover{op: "$dateFromString"}
	ce := cover{op: "$dateFromString", col: errorCol}
	from := `{"$dateFromString": {"dateString": "$s"}}`
	fromTZ := `{"$dateFromString": {"dateString": "$s", "timezone": "$tz"}}`
	ok := func(name, s, want string) exprCase {
		return exprCase{name: name, ref: fromStringFree, cov: c, doc: fsDoc(s), expr: from, want: `{"$date": "` + want + `"}`}
	}
	bad := func(name, s, msg string) exprCase {
		return exprCase{name: name, ref: fromStringFree, cov: ce, doc: fsDoc(s), expr: from, code: 241, msg: planExecutor + msg}
	}
	runExprCases(t, []exprCase{
		// The jstest's "wacky" forms: datetextual, american, pointeddate4,
		// pgtextreverse with noon, timetiny12 with a meridian, gnudateshort
		// with a GMT offset.
		ok("a month name, an ordinal day and a year", "July 4th, 2017", "2017-07-04T00:00:00Z"),
		ok("a month name date with a time and BST", "July 4th, 2017 12:39:30 BST", "2017-07-04T11:39:30Z"),
		ok("a month name date with 11am", "July 4th, 2017 11am", "2017-07-04T11:00:00Z"),
		ok("a month name date with 12pm", "July 4th, 2017 12pm", "2017-07-04T12:00:00Z"),
		ok("an American date with a two-digit year", "7/4/17", "2017-07-04T00:00:00Z"),
		ok("a day-month-year date with dashes", "04-07-2017", "2017-07-04T00:00:00Z"),
		ok("a year, month abbreviation and day with noon", "2017-Jul-04 noon", "2017-07-04T12:00:00Z"),
		ok("a date and time with a negative GMT offset", "2017-07-04 12:48:07 GMT-0200", "2017-07-04T14:48:07Z"),
		// datefull, datenoday, the RFC 2822 form, 12-hour times.
		ok("a day, a month name and a year", "4 July 2017", "2017-07-04T00:00:00Z"),
		ok("an RFC 2822 date on its own weekday", "Tue, 04 Jul 2017 12:00:00 GMT", "2017-07-04T12:00:00Z"),
		ok("a weekday name moves the date to that weekday", "Wed, 04 Jul 2017 12:00:00 GMT", "2017-07-05T12:00:00Z"),
		ok("10:00 PM", "2017-07-04 10:00 PM", "2017-07-04T22:00:00Z"),
		ok("12:00 AM is midnight", "2017-07-04 12:00 AM", "2017-07-04T00:00:00Z"),
		ok("an ISO week and day", "2017-W27-2", "2017-07-04T00:00:00Z"),
		ok("tomorrow after a date", "2017-07-04 tomorrow", "2017-07-05T00:00:00Z"),
		ok("a timestamp in seconds", "@1499169600", "2017-07-04T12:00:00Z"),
		ok("a trailing T is the military zone T, UTC-7", "2017-07-04T", "2017-07-04T07:00:00Z"),
		ok("spaces around the string", "  2017-07-04  ", "2017-07-04T00:00:00Z"),
		ok("a fraction and an offset", "2017-07-04T12:00:00.5+02:00", "2017-07-04T10:00:00.500Z"),
		{name: "a month name date with a meridian in a timezone", ref: fromStringFree, cov: c, doc: fsDoc("July 4th, 2017 11am"),
			expr: `{"$dateFromString": {"dateString": "$s", "timezone": "America/New_York"}}`, want: `{"$date": "2017-07-04T15:00:00Z"}`},

		// Missing parts: a date without a year, a time alone.
		bad("a month and day without a year", "July 4th", `an incomplete date/time string has been found, with elements missing: "July 4th"`),
		bad("a time without a date", "12:50:53", `an incomplete date/time string has been found, with elements missing: "12:50:53"`),
		// Errors are listed with the token's position and first byte;
		// warnings after them, at the end of the string.
		bad("a year read as a time, then a second time", "2017, 12:50:53", "Error parsing date string '2017, 12:50:53'; 6: Double time specification '1'"),
		bad("unknown words are zones, the second a warning", "hello world",
			"Error parsing date string 'hello world'; 0: passing a time zone identifier as part of the string is not allowed 'h'; 6: Double timezone specification 'w'"),
		bad("a third zone is an error, listed before the warning", "abc def ghi",
			"Error parsing date string 'abc def ghi'; 0: passing a time zone identifier as part of the string is not allowed 'a'; 8: Double timezone specification 'g'; 4: Double timezone specification 'd'"),
		bad("characters no rule reads", "@@@", "Error parsing date string '@@@'; 0: Unexpected character '@'; 1: Unexpected character '@'; 2: Unexpected character '@'"),
		bad("an offset past 24 hours", "2017-07-04T00:00:00+25:00",
			"Error parsing date string '2017-07-04T00:00:00+25:00'; 22: Unexpected character ':'; 23: Unexpected character '0'; 24: Unexpected character '0'"),
		bad("a second of 60", "2017-07-04 23:59:60", "Error parsing date string '2017-07-04 23:59:60'; 20: The parsed time was invalid '\x00'"),
		bad("February 30th", "2017-02-30", "Error parsing date string '2017-02-30'; 11: The parsed date was invalid '\x00'"),
		bad("an empty string", "", "Error parsing date string ''; 0: Empty string '\x00'"),
		bad("a zone identifier", "2017-07-04T12:00:00 Europe/Paris",
			"Error parsing date string '2017-07-04T12:00:00 Europe/Paris'; 20: passing a time zone identifier as part of the string is not allowed 'E'"),
		bad("an unknown abbreviation", "2017-07-04 12:00 XYZ",
			"Error parsing date string '2017-07-04 12:00 XYZ'; 17: passing a time zone identifier as part of the string is not allowed 'X'"),

		// Zone information in the string and a timezone argument.
		{name: "an abbreviation and a timezone", ref: fromStringFree, cov: ce, doc: fsDoc("July 4th, 2017 12:39:30 BST"), expr: fromTZ, code: 241,
			msg: planExecutor + "you cannot pass in a date/time string with time zone information ('BST') together with a timezone argument"},
		{name: "a timestamp is a GMT offset", ref: fromStringFree, cov: ce, doc: fsDoc("@1499169600"), expr: fromTZ, code: 241,
			msg: planExecutor + "you cannot pass in a date/time string with GMT offset together with a timezone argument"},
		// A format's %z reports an unknown zone in the same words.
		{name: "a format's unknown zone", ref: fromStringFree, cov: ce, doc: fsDoc("2017-07-04 XYZ"),
			expr: `{"$dateFromString": {"dateString": "$s", "format": "%Y-%m-%d %z"}}`, code: 241,
			msg: planExecutor + "Error parsing date string '2017-07-04 XYZ'; 11: passing a time zone identifier as part of the string is not allowed 'X'"},

		// $toDate and $convert read strings through the same parser.
		{name: "toDate of a month name date", ref: fromStringFree + "; src/mongo/db/exec/expression/evaluate_convert.cpp", cov: cover{op: "$toDate"},
			doc: fsDoc("July 4th, 2017"), expr: `{"$toDate": "$s"}`, want: `{"$date": "2017-07-04T00:00:00Z"}`},
		{name: "convert of a day month year string", ref: fromStringFree + "; src/mongo/db/exec/expression/evaluate_convert.cpp", cov: cover{op: "$convert"},
			doc: fsDoc("4 Jul 2017 10am"), expr: `{"$convert": {"input": "$s", "to": "date"}}`, want: `{"$date": "2017-07-04T10:00:00Z"}`},
	})
}

// %b and %B in a $dateFromString format (kDateFromStringFormatMap's
// TIMELIB_FORMAT_TEXTUAL_MONTH_3_LETTER and _FULL since 6.1, SERVER-32863):
// both read timelib_lookup_month's word, so any month name, abbreviation or
// roman numeral, in any case.
func TestDeep45DatesFromStringMonthNames(t *testing.T) {
	c := cover{op: "$dateFromString"}
	ce := cover{op: "$dateFromString", col: errorCol}
	ref := dateTimeCp + " (kDateFromStringFormatMap); src/third_party/timelib/dist/parse_date.re (timelib_parse_from_format_with_map)"
	withFormat := func(f string) string {
		return `{"$dateFromString": {"dateString": "$s", "format": "` + f + `"}}`
	}
	runExprCases(t, []exprCase{
		{name: "an abbreviated month", ref: ref, cov: c, doc: fsDoc("04 Jul 2017"), expr: withFormat("%d %b %Y"), want: `{"$date": "2017-07-04T00:00:00Z"}`},
		{name: "a full month name", ref: ref, cov: c, doc: fsDoc("04 July 2017"), expr: withFormat("%d %B %Y"), want: `{"$date": "2017-07-04T00:00:00Z"}`},
		{name: "%b takes a full name in lower case", ref: ref, cov: c, doc: fsDoc("04 july 2017"), expr: withFormat("%d %b %Y"), want: `{"$date": "2017-07-04T00:00:00Z"}`},
		{name: "%B takes a roman numeral", ref: ref, cov: c, doc: fsDoc("04 VII 2017"), expr: withFormat("%d %B %Y"), want: `{"$date": "2017-07-04T00:00:00Z"}`},
		{name: "a word that is no month", ref: ref, cov: ce, doc: fsDoc("04 Foo 2017"), expr: withFormat("%d %b %Y"), code: 241,
			msg: planExecutor + "Error parsing date string '04 Foo 2017'; 3: A textual month could not be found 'F'"},
		{name: "a number where a month name goes", ref: ref, cov: ce, doc: fsDoc("04 5 2017"), expr: withFormat("%d %B %Y"), code: 241,
			msg: planExecutor + "Error parsing date string '04 5 2017'; 3: A textual month could not be found '5'; 3: Format literal not found '5'; 4: Unexpected data found. ' '"},
	})
}
