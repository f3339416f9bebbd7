package compat_test

import "testing"

// Deep sweep 45 (dates): $dateAdd and $dateSubtract (extractDateArithmetics
// in src/mongo/db/exec/expression/evaluate_date.cpp, dateAdd in
// src/mongo/db/query/datetime/date_time_support.cpp), with the values of
// jstests/aggregation/expressions/date_add_subtract.js.

const dateArithRef = dateCpp + " (extractDateArithmetics); " + dateTimeCp + " (dateAdd); jstests/aggregation/expressions/date_add_subtract.js"

const dasDoc = `{"_id": 1, "date": {"$date": "2020-12-31T12:10:05Z"}, "unit": "month", "timezone": "Europe/Paris",` +
	` "ts": {"$timestamp": {"t": 1600000000, "i": 1}}}`

func TestDeep45DatesArithmetic(t *testing.T) {
	ca := cover{op: "$dateAdd"}
	cs := cover{op: "$dateSubtract"}
	cst := cover{op: "$dateSubtract", col: types}
	cse := cover{op: "$dateSubtract", col: errorCol}
	runExprCases(t, []exprCase{
		// Hours add in UTC across a DST change; days keep the local time.
		{name: "24 hours across Paris's autumn change", ref: dateArithRef, cov: ca, doc: dasDoc,
			expr: `{"$dateAdd": {"startDate": {"$date": "2020-10-24T18:10:00Z"}, "unit": "hour", "amount": 24, "timezone": "Europe/Paris"}}`,
			want: `{"$date": "2020-10-25T18:10:00Z"}`},
		{name: "a day across Paris's autumn change keeps 20:10 local", ref: dateArithRef, cov: ca, doc: dasDoc,
			expr: `{"$dateAdd": {"startDate": {"$date": "2020-10-24T18:10:00Z"}, "unit": "day", "amount": 1, "timezone": "Europe/Paris"}}`,
			want: `{"$date": "2020-10-25T19:10:00Z"}`},
		{name: "a month from January 31st local is February's last day", ref: dateArithRef, cov: ca, doc: dasDoc,
			expr: `{"$dateAdd": {"startDate": {"$date": "2021-01-30T23:30:00Z"}, "unit": "month", "amount": 1, "timezone": "Europe/Paris"}}`,
			want: `{"$date": "2021-02-27T23:30:00Z"}`},
		{name: "subtract months with unit and timezone fields", ref: dateArithRef, cov: cs, doc: dasDoc,
			expr: `{"$dateSubtract": {"startDate": "$date", "unit": "$unit", "amount": 3, "timezone": "$timezone"}}`,
			want: `{"$date": "2020-09-30T11:10:05Z"}`},
		{name: "subtract two months in New York clamps to November 30th", ref: dateArithRef, cov: cs, doc: dasDoc,
			expr: `{"$dateSubtract": {"startDate": {"$date": "2021-01-31T03:00:00Z"}, "unit": "month", "amount": 2, "timezone": "America/New_York"}}`,
			want: `{"$date": "2020-12-01T03:00:00Z"}`},
		{name: "subtract seconds", ref: dateArithRef, cov: cs, doc: dasDoc,
			expr: `{"$dateSubtract": {"startDate": "$date", "unit": "second", "amount": 125}}`, want: `{"$date": "2020-12-31T12:08:00Z"}`},
		{name: "subtract quarters", ref: dateArithRef, cov: cs, doc: dasDoc,
			expr: `{"$dateSubtract": {"startDate": "$date", "unit": "quarter", "amount": 2}}`, want: `{"$date": "2020-06-30T12:10:05Z"}`},
		{name: "subtract from a timestamp", ref: dateArithRef + " (Value::coerceToDate)", cov: cst, doc: dasDoc,
			expr: `{"$dateSubtract": {"startDate": "$ts", "unit": "day", "amount": 1}}`, want: `{"$date": "2020-09-12T12:26:40Z"}`},
		{name: "an integral double amount", ref: dateArithRef, cov: cst, doc: dasDoc,
			expr: `{"$dateSubtract": {"startDate": "$date", "unit": "day", "amount": 2.0}}`, want: `{"$date": "2020-12-29T12:10:05Z"}`},
		{name: "an integral decimal amount", ref: dateArithRef, cov: cst, doc: dasDoc,
			expr: `{"$dateSubtract": {"startDate": "$date", "unit": "day", "amount": {"$numberDecimal": "2"}}}`, want: `{"$date": "2020-12-29T12:10:05Z"}`},
		{name: "a null unit field", ref: dateArithRef, cov: cs, doc: dasDoc,
			expr: `{"$dateSubtract": {"startDate": "$date", "unit": "$nothing", "amount": 2}}`, want: `null`},
		{name: "a fractional amount", ref: dateArithRef, cov: cse, doc: dasDoc,
			expr: `{"$dateSubtract": {"startDate": "$date", "unit": "year", "amount": 1.001}}`, code: 5166405,
			msg: planExecutor + "$dateSubtract expects integer amount of time units"},
		{name: "the least long cannot be negated", ref: dateArithRef, cov: cse, doc: dasDoc,
			expr: `{"$dateSubtract": {"startDate": "$date", "unit": "year", "amount": {"$numberLong": "-9223372036854775808"}}}`, code: 6045000,
			msg: planExecutor + "invalid $dateSubtract 'amount' parameter value: -9223372036854775808"},
		{name: "milliseconds past the long range", ref: dateArithRef + "; src/mongo/util/duration.h", cov: cse, doc: dasDoc,
			expr: `{"$dateSubtract": {"startDate": "$date", "unit": "millisecond", "amount": {"$numberLong": "-9223372036854775807"}}}`, code: 159,
			msg: planExecutor + "Overflow while adding 9223372036854775807ms to 1609416605000ms"},
		{name: "days past isDateAddAmountValid", ref: dateArithRef, cov: cse, doc: dasDoc,
			expr: `{"$dateSubtract": {"startDate": "$date", "unit": "day", "amount": {"$numberLong": "106751991167301"}}}`, code: 5976500,
			msg: planExecutor + "invalid dateAdd 'amount' parameter value: -106751991167301 day"},
	})
}
