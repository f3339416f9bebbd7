package compat_test

import "testing"

// What the date operators' optimize() does in a pipeline, before any
// document is read (src/mongo/db/pipeline/expression.cpp): when every
// argument is a constant (ExpressionConstant::allNullOrConstant) the
// operator is evaluated once, in its evaluation order, so a null argument
// that evaluation reads first wins over a bad one it reads later. Otherwise
// a constant timezone is read with makeTimeZone, a non-string one failing
// with 40517 as a bad name fails with 40485, and $dateAdd, $dateSubtract,
// $dateTrunc, $dateDiff, $dateToParts and $dateFromParts become null when
// a constant they read there (unit, startOfWeek, timezone, binSize) is
// null, whatever the other arguments hold.
func TestExpressionDateOptimize(t *testing.T) {
	partsOpt := exprCpp + " (DateExpressionAcceptingTimeZone::optimize); " + dateCpp + " (evaluateDateTimezoneArg)"
	arithOpt := exprCpp + " (ExpressionDateArithmetics::optimize); " + dateCpp + " (extractDateArithmetics)"
	truncOpt := exprCpp + " (ExpressionDateTrunc::optimize)"
	diffOpt := exprCpp + " (ExpressionDateDiff::optimize)"
	toStrOpt := exprCpp + " (ExpressionDateToString::optimize); " + dateCpp + " (evaluate ExpressionDateToString)"
	toPartsOpt := exprCpp + " (ExpressionDateToParts::optimize); " + dateCpp + " (evaluate ExpressionDateToParts)"
	fromPartsOpt := exprCpp + " (ExpressionDateFromParts::optimize); " + dateCpp + " (evaluate ExpressionDateFromParts)"
	fromStrOpt := exprCpp + " (ExpressionDateFromString::optimize)"
	runExprCases(t, []exprCase{
		{name: "week of a constant null date ignores a bad constant timezone", ref: partsOpt, cov: cover{op: "$week"}, doc: dateDoc,
			expr: `{"$week": {"date": null, "timezone": "Mars/Olympus"}}`, want: `null`},
		{name: "hour with a numeric constant timezone fails the optimization", ref: partsOpt + " (makeTimeZone)", cov: cover{op: "$hour"}, doc: dateDoc,
			expr: `{"$hour": {"date": "$d", "timezone": 5}}`,
			code: 40517, msg: optimizeError + "timezone must evaluate to a string, found int"},
		{name: "dateToString with a boolean constant timezone", ref: toStrOpt, cov: cover{op: "$dateToString"}, doc: dateDoc,
			expr: `{"$dateToString": {"date": "$d", "timezone": true}}`,
			code: 40517, msg: optimizeError + "timezone must evaluate to a string, found bool"},
		{name: "dateToString reads the timezone before a null date", ref: toStrOpt, cov: cover{op: "$dateToString"}, doc: dateDoc,
			expr: `{"$dateToString": {"date": null, "timezone": "Mars/Olympus"}}`,
			code: 40485, msg: optimizeError + `unrecognized time zone identifier: "Mars/Olympus"`},
		{name: "dateAdd of a constant null startDate ignores a numeric unit", ref: arithOpt, cov: cover{op: "$dateAdd"}, doc: dateDoc,
			expr: `{"$dateAdd": {"startDate": null, "unit": 1, "amount": 1}}`, want: `null`},
		{name: "dateAdd with a null constant unit is null before the timezone is read", ref: arithOpt, cov: cover{op: "$dateAdd"}, doc: dateDoc,
			expr: `{"$dateAdd": {"startDate": "$d", "unit": null, "amount": 1, "timezone": "Mars/Olympus"}}`, want: `null`},
		{name: "dateSubtract with a null constant timezone never reads the unit", ref: arithOpt, cov: cover{op: "$dateSubtract"}, doc: dateDoc,
			expr: `{"$dateSubtract": {"startDate": "$d", "unit": "$s", "amount": 1, "timezone": null}}`, want: `null`},
		{name: "dateAdd with a numeric constant timezone", ref: arithOpt + " (makeTimeZone)", cov: cover{op: "$dateAdd"}, doc: dateDoc,
			expr: `{"$dateAdd": {"startDate": "$d", "unit": "day", "amount": 1, "timezone": 5}}`,
			code: 40517, msg: optimizeError + "timezone must evaluate to a string, found int"},
		{name: "dateTrunc with a null constant startOfWeek is null whatever the unit", ref: truncOpt, cov: cover{op: "$dateTrunc"}, doc: dateDoc,
			expr: `{"$dateTrunc": {"date": "$d", "unit": "day", "startOfWeek": null}}`, want: `null`},
		{name: "dateTrunc with a null constant binSize never reads the unit", ref: truncOpt, cov: cover{op: "$dateTrunc"}, doc: dateDoc,
			expr: `{"$dateTrunc": {"date": "$d", "unit": "$s", "binSize": null}}`, want: `null`},
		{name: "dateTrunc with an array constant timezone", ref: truncOpt + " (addContextToAssertionException)", cov: cover{op: "$dateTrunc"}, doc: dateDoc,
			expr: `{"$dateTrunc": {"date": "$d", "unit": "day", "timezone": ["UTC"]}}`,
			code: 40517, msg: optimizeError + "$dateTrunc parameter 'timezone' value parsing failed :: caused by :: timezone must evaluate to a string, found array"},
		{name: "dateTrunc of a constant null date ignores an unknown unit", ref: truncOpt + "; " + dateCpp + " (evaluate ExpressionDateTrunc)", cov: cover{op: "$dateTrunc"}, doc: dateDoc,
			expr: `{"$dateTrunc": {"date": null, "unit": "decade"}}`, want: `null`},
		{name: "dateDiff with a null constant startOfWeek is null whatever the unit", ref: diffOpt, cov: cover{op: "$dateDiff"}, doc: dateDoc,
			expr: `{"$dateDiff": {"startDate": "$d", "endDate": "$d", "unit": "day", "startOfWeek": null}}`, want: `null`},
		{name: "dateDiff with a double constant timezone", ref: diffOpt + " (addContextToAssertionException)", cov: cover{op: "$dateDiff"}, doc: dateDoc,
			expr: `{"$dateDiff": {"startDate": "$d", "endDate": "$d", "unit": "day", "timezone": 1.5}}`,
			code: 40517, msg: optimizeError + "$dateDiff parameter 'timezone' value parsing failed :: caused by :: timezone must evaluate to a string, found double"},
		{name: "dateDiff of a constant null startDate ignores an unknown unit", ref: diffOpt + "; " + dateCpp + " (evaluate ExpressionDateDiff)", cov: cover{op: "$dateDiff"}, doc: dateDoc,
			expr: `{"$dateDiff": {"startDate": null, "endDate": 1, "unit": "decade"}}`, want: `null`},
		{name: "dateToParts with a null constant timezone", ref: toPartsOpt, cov: cover{op: "$dateToParts"}, doc: dateDoc,
			expr: `{"$dateToParts": {"date": "$s", "timezone": null}}`, want: `null`},
		{name: "dateToParts reads the timezone before a null date", ref: toPartsOpt, cov: cover{op: "$dateToParts"}, doc: dateDoc,
			expr: `{"$dateToParts": {"date": null, "timezone": "Mars/Olympus"}}`,
			code: 40485, msg: optimizeError + `unrecognized time zone identifier: "Mars/Olympus"`},
		{name: "dateFromString with a numeric constant timezone", ref: fromStrOpt + " (makeTimeZone)", cov: cover{op: "$dateFromString"}, doc: dateDoc,
			expr: `{"$dateFromString": {"dateString": "$s", "timezone": 5}}`,
			code: 40517, msg: optimizeError + "timezone must evaluate to a string, found int"},
		{name: "dateFromParts with a null constant timezone never reads the year", ref: fromPartsOpt, cov: cover{op: "$dateFromParts"}, doc: dateDoc,
			expr: `{"$dateFromParts": {"year": "$s", "timezone": null}}`, want: `null`},
		{name: "dateFromParts reads the timezone before the year", ref: fromPartsOpt, cov: cover{op: "$dateFromParts"}, doc: dateDoc,
			expr: `{"$dateFromParts": {"year": null, "timezone": "Mars/Olympus"}}`,
			code: 40485, msg: optimizeError + `unrecognized time zone identifier: "Mars/Olympus"`},
		{name: "dateFromParts reads the time of day before the year", ref: fromPartsOpt, cov: cover{op: "$dateFromParts"}, doc: dateDoc,
			expr: `{"$dateFromParts": {"year": "$s", "hour": "$n"}}`, want: `null`},
		{name: "dateFromParts checks the year's range after a null month", ref: fromPartsOpt, cov: cover{op: "$dateFromParts"}, doc: dateDoc,
			expr: `{"$dateFromParts": {"year": 0, "month": "$n"}}`, want: `null`},
		{name: "dateFromParts bounds the month before the year's range", ref: fromPartsOpt + " (evaluateNumberWithDefaultAndBounds)", cov: cover{op: "$dateFromParts"}, doc: dateDoc,
			expr: `{"$dateFromParts": {"year": 0, "month": 40000}}`,
			code: 31034, msg: optimizeError + "'month' must evaluate to a value in the range [-32768, 32767]; value 40000 is not in range"},
		{name: "dateFromParts checks the isoWeekYear's range after a null isoWeek", ref: fromPartsOpt, cov: cover{op: "$dateFromParts"}, doc: dateDoc,
			expr: `{"$dateFromParts": {"isoWeekYear": 10000, "isoWeek": "$n"}}`, want: `null`},
	})
}
