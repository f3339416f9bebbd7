package compat_test

import "testing"

const summationSrc = "src/mongo/util/summation.cpp (DoubleDoubleSummation::fitsLong, getLong)"

// Accumulator edge cases found by a conformance sweep against mongod's
// accumulator_*.cpp and jstests/aggregation/accumulators.
func TestAccumulatorsSweep(t *testing.T) {
	a := func(op string) cover { return cover{family: accumulator, op: op} }
	at := func(op string) cover { return cover{family: accumulator, op: op, col: types} }
	one := func(acc string) string {
		return `[{"$sort": {"_id": 1}}, {"$group": {"_id": null, "r": ` + acc + `}}, {"$project": {"_id": 0}}]`
	}
	runAggCases(t, []aggCase{
		// AccumulatorSum adds longs exactly into a DoubleDoubleSummation and
		// asks fitsLong only at the end: a total that passes int64's maximum
		// and comes back is still a long.
		{name: "a long sum that overflows and comes back is a long", ref: accSumSrc + "; " + summationSrc, cov: at("$sum"),
			docs: `[{"_id": 1, "v": {"$numberLong": "9223372036854775807"}}, {"_id": 2, "v": {"$numberLong": "1"}},
				{"_id": 3, "v": {"$numberLong": "-1"}}]`,
			pipeline: one(`{"$sum": "$v"}`), want: `[{"r": {"$numberLong": "9223372036854775807"}}]`},
		{name: "a sum that passes the int64 minimum and comes back is a long", ref: accSumSrc + "; " + summationSrc, cov: at("$sum"),
			docs: `[{"_id": 1, "v": {"$numberLong": "-9223372036854775808"}}, {"_id": 2, "v": -1},
				{"_id": 3, "v": {"$numberLong": "9223372036854775807"}}, {"_id": 4, "v": 3}]`,
			pipeline: one(`{"$sum": "$v"}`), want: `[{"r": {"$numberLong": "1"}}]`},
		// Value::nullish is missing, null and undefined.
		{name: "mergeObjects skips undefined", ref: accMergeSrc + " (input.nullish()); src/mongo/db/exec/document_value/value.h", cov: a("$mergeObjects"),
			docs:     `[{"_id": 1, "v": {"$undefined": true}}, {"_id": 2, "v": {"a": 1}}]`,
			pipeline: one(`{"$mergeObjects": "$v"}`), want: `[{"r": {"a": 1}}]`},
		// DocumentSourceGroup's parse refuses a second _id with 15948 (16414
		// was its old refusal of a dotted field name).
		{name: "a group's _id given twice", ref: "src/mongo/db/pipeline/document_source_group.cpp (15948)",
			pipeline: `[{"$group": {"_id": null, "_id": 1, "r": {"$sum": 1}}}]`,
			code:     15948, msg: "a group's _id may only be specified once"},
	})
}
