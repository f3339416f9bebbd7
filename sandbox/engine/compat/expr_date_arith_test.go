package compat_test

import "testing"

// $dateAdd and $dateSubtract, argument by argument, in the order
// extractDateArithmetics reads them for each document: startDate (null
// gives null), unit (null gives null, anything else must parse, 5439013 or
// FailedToParse), amount (null gives null), timezone (null gives null,
// 40517 or 40485), then startDate's type (5166403) and amount's (5166405).
// jstests/aggregation/expressions/date_add_subtract.js expects 5166404 for
// a numeric unit, the code of 4.9's evaluate; from 7.0 the test loads
// jstests/libs/sbe_assert_error_override.js, whose group
// [5166404, 5166604, 5439013, 7157905] accepts parseTimeUnit's 5439013.
func TestExpressionDateArithmeticArguments(t *testing.T) {
	extract := dateCpp + " (extractDateArithmetics)"
	override := "jstests/libs/sbe_assert_error_override.js ([5166404, 5166604, 5439013, 7157905])"
	addJS := "jstests/aggregation/expressions/date_add_subtract.js"
	runExprCases(t, []exprCase{
		{name: "dateAdd of a null startDate is null before the unit is read", ref: extract, cov: cover{op: "$dateAdd"}, doc: dateDoc,
			expr: `{"$dateAdd": {"startDate": "$n", "unit": "$i", "amount": 1}}`, want: `null`},
		{name: "dateAdd of a missing startDate is null", ref: addJS, cov: cover{op: "$dateAdd"}, doc: dateDoc,
			expr: `{"$dateAdd": {"startDate": "$nope", "unit": "day", "amount": 1}}`, want: `null`},
		{name: "dateAdd with a null unit is null", ref: extract, cov: cover{op: "$dateAdd"}, doc: dateDoc,
			expr: `{"$dateAdd": {"startDate": "$d", "unit": "$n", "amount": "$s"}}`, want: `null`},
		{name: "dateSubtract with a numeric unit fails before a null amount", ref: extract + "; " + override, cov: cover{op: "$dateSubtract"}, doc: dateDoc,
			expr: `{"$dateSubtract": {"startDate": "$d", "unit": "$i", "amount": "$n"}}`,
			code: 5439013, msg: planExecutor + "$dateSubtract requires 'unit' to be a string, but got int"},
		{name: "dateAdd with a null timezone is null", ref: extract, cov: cover{op: "$dateAdd"}, doc: dateDoc,
			expr: `{"$dateAdd": {"startDate": "$s", "unit": "day", "amount": 1.5, "timezone": "$n"}}`, want: `null`},
		{name: "dateAdd with a numeric timezone", ref: extract + " (makeTimeZone)", cov: cover{op: "$dateAdd"}, doc: dateDoc,
			expr: `{"$dateAdd": {"startDate": "$d", "unit": "day", "amount": 1, "timezone": "$i"}}`,
			code: 40517, msg: planExecutor + "timezone must evaluate to a string, found int"},
		{name: "dateSubtract with an unknown timezone", ref: extract + " (makeTimeZone)", cov: cover{op: "$dateSubtract"}, doc: dateDoc,
			expr: `{"$dateSubtract": {"startDate": "$d", "unit": "day", "amount": 1, "timezone": "$s"}}`,
			code: 40485, msg: planExecutor + `unrecognized time zone identifier: "x"`},
		{name: "dateAdd checks the timezone before the startDate's type", ref: extract, cov: cover{op: "$dateAdd"}, doc: dateDoc,
			expr: `{"$dateAdd": {"startDate": "$s", "unit": "day", "amount": 1, "timezone": "$i"}}`,
			code: 40517, msg: planExecutor + "timezone must evaluate to a string, found int"},
		{name: "dateAdd checks the startDate before the amount", ref: extract, cov: cover{op: "$dateAdd"}, doc: dateDoc,
			expr: `{"$dateAdd": {"startDate": "$s", "unit": "day", "amount": 1.5}}`,
			code: 5166403, msg: planExecutor + "$dateAdd requires startDate to be convertible to a date"},
		{name: "dateSubtract of the smallest long", ref: dateCpp + " (evaluate ExpressionDateSubtract)", cov: cover{op: "$dateSubtract"}, doc: dateDoc,
			expr: `{"$dateSubtract": {"startDate": "$d", "unit": "millisecond", "amount": {"$numberLong": "-9223372036854775808"}}}`,
			code: 6045000, msg: planExecutor + "invalid $dateSubtract 'amount' parameter value: -9223372036854775808"},
		{name: "dateAdd of a string amount", ref: extract + " (integral64Bit)", cov: cover{op: "$dateAdd"}, doc: dateDoc,
			expr: `{"$dateAdd": {"startDate": "$d", "unit": "day", "amount": "$s"}}`,
			code: 5166405, msg: planExecutor + "$dateAdd expects integer amount of time units"},
	})
}
