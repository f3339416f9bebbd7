package compat_test

import "testing"

// Deep sweep 45 (dates): $dateFromParts's seconds and milliseconds, which
// evaluateNumberWithDefault leaves unbounded (src/mongo/db/exec/expression/
// evaluate_date.cpp): TimeZone::createFromDateParts (date_time_support.cpp)
// widens the milliseconds to microseconds, lets timelib normalize, and adds
// Seconds(sse) and Microseconds(us); each widening past a long is mongo's
// Duration cast error (jstests/aggregation/expressions/date_from_parts.js).

const fromPartsRef = dateCpp + "; " + dateTimeCp + " (TimeZone::createFromDateParts); src/mongo/util/duration.h; " +
	"jstests/aggregation/expressions/date_from_parts.js"

const dfpDoc = `{"_id": 0, "maxLong": {"$numberLong": "9223372036854775807"}, "bigSec": {"$numberLong": "9223372036854775"},` +
	` "dblA": 18014398509481984.0, "decA": {"$numberDecimal": "9223372036854775807"}, "dblB": 18014398509481984000.0,` +
	` "edgeSec": {"$numberLong": "9223372036854"}, "tz": "America/New_York"}`

func TestDeep45DatesFromPartsRange(t *testing.T) {
	c := cover{op: "$dateFromParts"}
	ce := cover{op: "$dateFromParts", col: errorCol}
	ct := cover{op: "$dateFromParts", col: types}
	const dur = planExecutor + "Overflow casting from a lower-precision duration to a higher-precision duration"
	runExprCases(t, []exprCase{
		{name: "milliseconds past a long of microseconds", ref: fromPartsRef, cov: ce, doc: dfpDoc,
			expr: `{"$dateFromParts": {"year": 2017, "millisecond": "$maxLong"}}`, code: 159, msg: dur},
		{name: "a double of 2^54 milliseconds", ref: fromPartsRef, cov: ct, doc: dfpDoc,
			expr: `{"$dateFromParts": {"year": 1970, "millisecond": "$dblA"}}`, code: 159, msg: dur},
		{name: "a decimal of the greatest long milliseconds", ref: fromPartsRef, cov: ct, doc: dfpDoc,
			expr: `{"$dateFromParts": {"year": 1970, "millisecond": "$decA"}}`, code: 159, msg: dur},
		{name: "a double past the long range is not an integer", ref: fromPartsRef, cov: ce, doc: dfpDoc,
			expr: `{"$dateFromParts": {"year": 1970, "millisecond": "$dblB"}}`, code: 40515,
			msg: planExecutor + "'millisecond' must evaluate to an integer, found double with value 1.80144e+19"},
		{name: "the greatest long of seconds", ref: fromPartsRef, cov: ce, doc: dfpDoc,
			expr: `{"$dateFromParts": {"year": 2017, "second": "$maxLong"}}`, code: 159, msg: dur},
		{name: "seconds whose microseconds overflow", ref: fromPartsRef, cov: ce, doc: dfpDoc,
			expr: `{"$dateFromParts": {"year": 2017, "second": "$bigSec"}}`, code: 159, msg: dur},
		{name: "milliseconds whose seconds' microseconds overflow", ref: fromPartsRef, cov: ce, doc: dfpDoc,
			expr: `{"$dateFromParts": {"year": 2017, "millisecond": "$bigSec"}}`, code: 159, msg: dur},
		{name: "seconds just inside the microsecond range", ref: fromPartsRef, cov: c, doc: dfpDoc,
			expr: `{"$dateFromParts": {"year": 1970, "second": "$edgeSec"}}`, want: `{"$date": {"$numberLong": "9223372036854000"}}`},
		{name: "the same seconds after 1970 overflow", ref: fromPartsRef, cov: ce, doc: dfpDoc,
			expr: `{"$dateFromParts": {"year": 2017, "second": "$edgeSec"}}`, code: 159, msg: dur},
		{name: "a hundred billion seconds", ref: fromPartsRef, cov: c, doc: dfpDoc,
			expr: `{"$dateFromParts": {"year": 2017, "second": {"$numberLong": "100000000000"}}}`, want: `{"$date": {"$numberLong": "101483228800000"}}`},
		{name: "a negative millisecond goes back a second", ref: fromPartsRef, cov: c, doc: dfpDoc,
			expr: `{"$dateFromParts": {"year": 2017, "millisecond": -1}}`, want: `{"$date": "2016-12-31T23:59:59.999Z"}`},
		{name: "month, day and hour out of range normalize in the zone", ref: fromPartsRef, cov: c, doc: dfpDoc,
			expr: `{"$dateFromParts": {"year": 2017, "month": 14, "day": -3, "hour": -1, "timezone": "$tz"}}`, want: `{"$date": "2018-01-28T04:00:00Z"}`},
		{name: "ISO parts with a -hhmm offset", ref: fromPartsRef, cov: c, doc: dfpDoc,
			expr: `{"$dateFromParts": {"isoWeekYear": 2017, "isoWeek": 25, "isoDayOfWeek": 1, "hour": 15, "minute": 1, "second": 51, "millisecond": 551, "timezone": "-0320"}}`,
			want: `{"$date": "2017-06-19T18:21:51.551Z"}`},
	})
}
