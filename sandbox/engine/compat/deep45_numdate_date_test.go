package compat_test

import "testing"

// Deep sweep 45 (numdate): the date part operators that take a timezone
// (DateExpressionAcceptingTimeZone: parseDateExpressionAcceptingTimeZone
// and optimize in expression.cpp, evaluateDateTimezoneArg in
// src/mongo/db/exec/expression/evaluate_date.cpp, TimeZoneDatabase and
// parseUtcOffset in src/mongo/db/query/datetime/date_time_support.cpp),
// $tsSecond/$tsIncrement and $rand.

const dateTZ = exprCpp + " (DateExpressionAcceptingTimeZone); src/mongo/db/query/datetime/date_time_support.cpp; " +
	"jstests/aggregation/expressions/date_expressions_with_timezones.js"

// nd45Dates holds the 64-bit date range's two ends and a date before year 1.
const nd45Dates = `{"_id": 0, "dt": {"$date": "2024-03-10T12:34:56.789Z"}, "min": {"$date": {"$numberLong": "-9223372036854775808"}},` +
	` "max": {"$date": {"$numberLong": "9223372036854775807"}}, "y0": {"$date": {"$numberLong": "-62135596800001"}},` +
	` "ts": {"$timestamp": {"t": 1700000000, "i": 7}}, "oid": {"$oid": "65edab000000000000000000"}, "s": "x", "i": 5, "n": null,` +
	` "tz": "Asia/Tokyo", "badtz": "Foo/Bar", "tz5": "+5"}`

func TestDeep45NumdateDateParts(t *testing.T) {
	c := func(op string) cover { return cover{op: op} }
	ct := func(op string) cover { return cover{op: op, col: types} }
	ce := func(op string) cover { return cover{op: op, col: errorCol} }
	runExprCases(t, []exprCase{
		// The three forms of the argument.
		{name: "dayOfMonth of a date", ref: dateTZ, cov: c("$dayOfMonth"), doc: nd45Dates, expr: `{"$dayOfMonth": "$dt"}`, want: `10`},
		{name: "dayOfMonth of a one-element array", ref: dateTZ, cov: c("$dayOfMonth"), doc: nd45Dates, expr: `{"$dayOfMonth": ["$dt"]}`, want: `10`},
		{name: "dayOfMonth with a +hh:mm offset", ref: dateTZ, cov: c("$dayOfMonth"), doc: nd45Dates,
			expr: `{"$dayOfMonth": {"date": "$dt", "timezone": "+12:30"}}`, want: `11`},
		{name: "dayOfMonth with a -hhmm offset", ref: dateTZ, cov: c("$dayOfMonth"), doc: nd45Dates,
			expr: `{"$dayOfMonth": {"date": "$dt", "timezone": "-1235"}}`, want: `9`},
		{name: "dayOfMonth with a +hh offset", ref: dateTZ, cov: c("$dayOfMonth"), doc: nd45Dates,
			expr: `{"$dayOfMonth": {"date": "$dt", "timezone": "+12"}}`, want: `11`},
		{name: "dayOfMonth with a timezone field", ref: dateTZ, cov: c("$dayOfMonth"), doc: nd45Dates,
			expr: `{"$dayOfMonth": {"date": {"$subtract": ["$dt", 43200000]}, "timezone": "$tz"}}`, want: `10`},
		{name: "dayOfMonth of an ObjectId", ref: dateTZ + " (Value::coerceToDate)", cov: ct("$dayOfMonth"), doc: nd45Dates,
			expr: `{"$dayOfMonth": "$oid"}`, want: `10`},
		{name: "dayOfMonth of a timestamp", ref: dateTZ + " (Value::coerceToDate)", cov: ct("$dayOfMonth"), doc: nd45Dates,
			expr: `{"$dayOfMonth": "$ts"}`, want: `14`},
		{name: "dayOfMonth of the least date", ref: dateTZ, cov: c("$dayOfMonth"), doc: nd45Dates, expr: `{"$dayOfMonth": "$min"}`, want: `16`},
		{name: "dayOfMonth with a null timezone", ref: dateTZ, cov: c("$dayOfMonth"), doc: nd45Dates,
			expr: `{"$dayOfMonth": {"date": "$dt", "timezone": "$n"}}`, want: `null`},
		{name: "dayOfMonth of null with a bad timezone field", ref: dateTZ, cov: c("$dayOfMonth"), doc: nd45Dates,
			expr: `{"$dayOfMonth": {"date": "$n", "timezone": "$badtz"}}`, want: `null`},
		{name: "dayOfMonth of a string before a null timezone", ref: dateTZ + " (the date is coerced before the timezone is read)",
			cov: ce("$dayOfMonth"), doc: nd45Dates, expr: `{"$dayOfMonth": {"date": "$s", "timezone": "$n"}}`,
			code: 16006, msg: planExecutor + "can't convert from BSON type string to Date"},
		{name: "dayOfMonth with an int timezone field", ref: dateTZ + " (makeTimeZone)", cov: ce("$dayOfMonth"), doc: nd45Dates,
			expr: `{"$dayOfMonth": {"date": "$dt", "timezone": "$i"}}`, code: 40517,
			msg: planExecutor + "timezone must evaluate to a string, found int"},
		{name: "dayOfMonth with an unknown timezone field", ref: dateTZ, cov: ce("$dayOfMonth"), doc: nd45Dates,
			expr: `{"$dayOfMonth": {"date": "$dt", "timezone": "$badtz"}}`, code: 40485,
			msg: planExecutor + "unrecognized time zone identifier: \"Foo/Bar\""},
		{name: "dayOfMonth with a one-digit offset", ref: dateTZ + " (parseUtcOffset)", cov: ce("$dayOfMonth"), doc: nd45Dates,
			expr: `{"$dayOfMonth": {"date": "$dt", "timezone": "$tz5"}}`, code: 40485,
			msg: planExecutor + "unrecognized time zone identifier: \"+5\""},
		{name: "dayOfMonth with two array elements", ref: dateTZ, cov: ce("$dayOfMonth"), expr: `{"$dayOfMonth": [1, 2]}`,
			code: 40536, msg: invalidProject + "$dayOfMonth accepts exactly one argument if given an array, but was given 2"},
		{name: "dayOfMonth without a date", ref: dateTZ, cov: ce("$dayOfMonth"), expr: `{"$dayOfMonth": {"timezone": "UTC"}}`,
			code: 40539, msg: invalidProject + "missing 'date' argument to $dayOfMonth, provided: $dayOfMonth: { timezone: \"UTC\" }"},
		{name: "dayOfMonth with an unknown option", ref: dateTZ, cov: ce("$dayOfMonth"), expr: `{"$dayOfMonth": {"date": 1, "x": 1}}`,
			code: 40535, msg: invalidProject + "unrecognized option to $dayOfMonth: \"x\""},

		{name: "dayOfWeek is Sunday as 1", ref: dateTZ, cov: c("$dayOfWeek"), doc: nd45Dates, expr: `{"$dayOfWeek": "$dt"}`, want: `1`},
		{name: "dayOfWeek thirteen hours west", ref: dateTZ, cov: c("$dayOfWeek"), doc: nd45Dates,
			expr: `{"$dayOfWeek": {"date": "$dt", "timezone": "-13:00"}}`, want: `7`},
		{name: "dayOfWeek before year 1", ref: dateTZ, cov: c("$dayOfWeek"), doc: nd45Dates, expr: `{"$dayOfWeek": "$y0"}`, want: `1`},
		{name: "dayOfWeek of the greatest date", ref: dateTZ, cov: c("$dayOfWeek"), doc: nd45Dates, expr: `{"$dayOfWeek": "$max"}`, want: `1`},
		{name: "dayOfWeek of an int", ref: dateTZ, cov: ce("$dayOfWeek"), doc: nd45Dates, expr: `{"$dayOfWeek": "$i"}`,
			code: 16006, msg: planExecutor + "can't convert from BSON type int to Date"},
		{name: "dayOfWeek of missing", ref: dateTZ, cov: c("$dayOfWeek"), doc: nd45Dates, expr: `{"$dayOfWeek": "$nothing"}`, want: `null`},

		{name: "dayOfYear of a leap year's last hour", ref: dateTZ, cov: c("$dayOfYear"), expr: `{"$dayOfYear": {"$date": "2024-12-31T23:00:00Z"}}`,
			want: `366`},
		{name: "dayOfYear of the least date", ref: dateTZ, cov: c("$dayOfYear"), doc: nd45Dates, expr: `{"$dayOfYear": "$min"}`, want: `136`},
		{name: "dayOfYear of the greatest date", ref: dateTZ, cov: c("$dayOfYear"), doc: nd45Dates, expr: `{"$dayOfYear": "$max"}`, want: `229`},
		{name: "dayOfYear of a string", ref: dateTZ, cov: ce("$dayOfYear"), doc: nd45Dates, expr: `{"$dayOfYear": "$s"}`,
			code: 16006, msg: planExecutor + "can't convert from BSON type string to Date"},

		{name: "isoDayOfWeek is Sunday as 7", ref: dateTZ, cov: c("$isoDayOfWeek"), doc: nd45Dates, expr: `{"$isoDayOfWeek": "$dt"}`, want: `7`},
		{name: "isoDayOfWeek fourteen hours east", ref: dateTZ, cov: c("$isoDayOfWeek"), doc: nd45Dates,
			expr: `{"$isoDayOfWeek": {"date": "$dt", "timezone": "Pacific/Kiritimati"}}`, want: `1`},
		{name: "isoDayOfWeek of the least date", ref: dateTZ, cov: c("$isoDayOfWeek"), doc: nd45Dates, expr: `{"$isoDayOfWeek": "$min"}`, want: `7`},
		{name: "isoDayOfWeek of an array", ref: dateTZ, cov: ce("$isoDayOfWeek"), doc: `{"_id": 0, "a": [1]}`, expr: `{"$isoDayOfWeek": "$a"}`,
			code: 16006, msg: planExecutor + "can't convert from BSON type array to Date"},

		{name: "millisecond", ref: dateTZ, cov: c("$millisecond"), doc: nd45Dates, expr: `{"$millisecond": "$dt"}`, want: `789`},
		{name: "millisecond before the epoch", ref: dateTZ, cov: c("$millisecond"), expr: `{"$millisecond": {"$date": {"$numberLong": "-1"}}}`,
			want: `999`},
		{name: "millisecond of the least date", ref: dateTZ, cov: c("$millisecond"), doc: nd45Dates, expr: `{"$millisecond": "$min"}`, want: `192`},
		{name: "millisecond of a timestamp is 0", ref: dateTZ, cov: ct("$millisecond"), doc: nd45Dates, expr: `{"$millisecond": "$ts"}`, want: `0`},
		{name: "millisecond with a bad constant timezone", ref: dateTZ + " (optimize parses a constant timezone)", cov: ce("$millisecond"),
			doc: nd45Dates, expr: `{"$millisecond": {"date": "$n", "timezone": "Z"}}`, code: 40485,
			msg: "Failed to optimize pipeline :: caused by :: unrecognized time zone identifier: \"Z\""},

		{name: "millisecond of a constant null folds before the timezone is parsed", ref: dateTZ + " (optimize: all constant, evaluate first)",
			cov: c("$millisecond"), expr: `{"$millisecond": {"date": null, "timezone": "Z"}}`, want: `null`},
		{name: "minute in a 45-minute zone", ref: dateTZ, cov: c("$minute"), doc: nd45Dates,
			expr: `{"$minute": {"date": "$dt", "timezone": "Asia/Kathmandu"}}`, want: `19`},
		{name: "minute with a 45-minute offset", ref: dateTZ, cov: c("$minute"), doc: nd45Dates,
			expr: `{"$minute": {"date": "$dt", "timezone": "+05:45"}}`, want: `19`},
		{name: "minute of the greatest date", ref: dateTZ, cov: c("$minute"), doc: nd45Dates, expr: `{"$minute": "$max"}`, want: `12`},
		{name: "minute with an int timezone", ref: dateTZ, cov: ce("$minute"), doc: nd45Dates, expr: `{"$minute": {"date": "$dt", "timezone": 5}}`,
			code: 40517, msg: "Failed to optimize pipeline :: caused by :: timezone must evaluate to a string, found int"},

		{name: "second before the epoch", ref: dateTZ, cov: c("$second"), expr: `{"$second": {"$date": {"$numberLong": "-1"}}}`, want: `59`},
		{name: "second of a timestamp", ref: dateTZ, cov: ct("$second"), doc: nd45Dates, expr: `{"$second": "$ts"}`, want: `20`},
		{name: "second of the least date", ref: dateTZ, cov: c("$second"), doc: nd45Dates, expr: `{"$second": "$min"}`, want: `4`},
		{name: "second with an unknown option", ref: dateTZ, cov: ce("$second"), expr: `{"$second": {"date": 1, "timezone": "UTC", "x": 1}}`,
			code: 40535, msg: invalidProject + "unrecognized option to $second: \"x\""},

		{name: "month in New York", ref: dateTZ, cov: c("$month"), doc: nd45Dates, expr: `{"$month": {"date": "$dt", "timezone": "America/New_York"}}`,
			want: `3`},
		{name: "month of the least date", ref: dateTZ, cov: c("$month"), doc: nd45Dates, expr: `{"$month": "$min"}`, want: `5`},
		{name: "month of the greatest date", ref: dateTZ, cov: c("$month"), doc: nd45Dates, expr: `{"$month": "$max"}`, want: `8`},
		{name: "month of a timestamp", ref: dateTZ, cov: ct("$month"), doc: nd45Dates, expr: `{"$month": "$ts"}`, want: `11`},
		{name: "month with an empty array", ref: dateTZ, cov: ce("$month"), expr: `{"$month": []}`,
			code: 40536, msg: invalidProject + "$month accepts exactly one argument if given an array, but was given 0"},
	})
}

// ExpressionTsSecond / ExpressionTsIncrement (expression.cpp): a long from a
// timestamp, null for nullish, 5687301/5687302 otherwise; ExpressionRandom
// (expression.cpp) takes an empty argument only.
func TestDeep45NumdateTimestampRand(t *testing.T) {
	ref := exprCpp + " (ExpressionTsSecond, ExpressionTsIncrement)"
	runExprCases(t, []exprCase{
		{name: "tsSecond is a long", ref: ref, cov: cover{op: "$tsSecond", col: types}, doc: nd45Dates, expr: `{"$tsSecond": "$ts"}`,
			want: `{"$numberLong": "1700000000"}`},
		{name: "tsSecond of the greatest timestamp", ref: ref, cov: cover{op: "$tsSecond"},
			expr: `{"$tsSecond": {"$timestamp": {"t": 4294967295, "i": 4294967295}}}`, want: `{"$numberLong": "4294967295"}`},
		{name: "tsSecond of a one-element array", ref: ref, cov: cover{op: "$tsSecond"}, doc: nd45Dates, expr: `{"$tsSecond": ["$ts"]}`,
			want: `{"$numberLong": "1700000000"}`},
		{name: "tsSecond of missing", ref: ref, cov: cover{op: "$tsSecond"}, doc: nd45Dates, expr: `{"$tsSecond": "$nothing"}`, want: `null`},
		{name: "tsSecond of a date", ref: ref, cov: cover{op: "$tsSecond", col: errorCol}, doc: nd45Dates, expr: `{"$tsSecond": "$dt"}`,
			code: 5687301, msg: planExecutor + " Argument to $tsSecond must be a timestamp, but is date"},
		{name: "tsSecond with two arguments", ref: ref, cov: cover{op: "$tsSecond", col: errorCol}, expr: `{"$tsSecond": [1, 2]}`,
			code: 16020, msg: invalidProject + "Expression $tsSecond takes exactly 1 arguments. 2 were passed in."},
		{name: "tsIncrement is a long", ref: ref, cov: cover{op: "$tsIncrement", col: types}, doc: nd45Dates, expr: `{"$tsIncrement": "$ts"}`,
			want: `{"$numberLong": "7"}`},
		{name: "tsIncrement of the greatest increment", ref: ref, cov: cover{op: "$tsIncrement"},
			expr: `{"$tsIncrement": {"$timestamp": {"t": 0, "i": 4294967295}}}`, want: `{"$numberLong": "4294967295"}`},
		{name: "tsIncrement of null", ref: ref, cov: cover{op: "$tsIncrement"}, doc: nd45Dates, expr: `{"$tsIncrement": "$n"}`, want: `null`},
		{name: "tsIncrement of an ObjectId", ref: ref, cov: cover{op: "$tsIncrement", col: errorCol}, doc: nd45Dates, expr: `{"$tsIncrement": "$oid"}`,
			code: 5687302, msg: planExecutor + " Argument to $tsIncrement must be a timestamp, but is objectId"},
		{name: "tsIncrement with no argument", ref: ref, cov: cover{op: "$tsIncrement", col: errorCol}, expr: `{"$tsIncrement": []}`,
			code: 16020, msg: invalidProject + "Expression $tsIncrement takes exactly 1 arguments. 0 were passed in."},
		{name: "rand is a double", ref: exprCpp + " (ExpressionRandom)", cov: cover{op: "$rand", col: types}, expr: `{"$type": {"$rand": {}}}`,
			want: `"double"`},
		{name: "rand is below 1", ref: exprCpp + " (ExpressionRandom)", cov: cover{op: "$rand"}, expr: `{"$lt": [{"$rand": {}}, 1]}`, want: `true`},
		{name: "rand with an argument", ref: exprCpp + " (ExpressionRandom::parse)", cov: cover{op: "$rand", col: errorCol}, expr: `{"$rand": {"a": 1}}`,
			code: 3040501, msg: invalidProject + "$rand does not currently accept arguments"},
		{name: "rand of a scalar", ref: exprCpp + " (ExpressionRandom::parse, BSONElement::Obj)", cov: cover{op: "$rand", col: errorCol},
			expr: `{"$rand": 1}`, code: 10065, msg: invalidProject + "invalid parameter: expected an object ($rand)"},
		// BSONElement::Obj takes an array as an object (isABSONObj).
		{name: "rand of an empty array", ref: exprCpp + " (ExpressionRandom::parse, BSONElement::Obj)", cov: cover{op: "$rand"},
			expr: `{"$lt": [{"$rand": []}, 1]}`, want: `true`},
		{name: "rand of an array with an element", ref: exprCpp + " (ExpressionRandom::parse, BSONElement::Obj)", cov: cover{op: "$rand", col: errorCol},
			expr: `{"$rand": [1]}`, code: 3040501, msg: invalidProject + "$rand does not currently accept arguments"},
	})
}
