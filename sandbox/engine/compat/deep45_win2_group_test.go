package compat_test

import "testing"

// Sweep 45 wave 2, accumulators of $group: $mergeObjects, $avg, $min,
// $topN/$bottomN, $firstN and $count, following mongod 8.0's
// accumulator_merge_objects.cpp, accumulator_avg.cpp,
// accumulator_min_max.cpp, accumulator_multi.cpp, accumulation_statement.cpp
// and group_processor_base.cpp (each group cites its own).
const (
	accAvgCpp = "src/mongo/db/pipeline/accumulator_avg.cpp"
	accMinMax = "src/mongo/db/pipeline/accumulator_min_max.cpp"
	accMulti  = "src/mongo/db/pipeline/accumulator_multi.cpp"
	accStmt   = "src/mongo/db/pipeline/accumulation_statement.cpp parseAccumulationStatement"
	groupInit = "src/mongo/db/pipeline/group_processor_base.cpp findOrCreateGroup"
)

func TestDeep45Win2Group(t *testing.T) {
	a := func(op string) cover { return cover{family: accumulator, op: op} }
	at := func(op string) cover { return cover{family: accumulator, op: op, col: types} }
	ae := func(op string) cover { return cover{family: accumulator, op: op, col: errorCol} }
	pe := "PlanExecutor error during aggregation :: caused by :: "
	top := `[{"_id": 1, "x": 3, "y": "a"}, {"_id": 2, "x": 1}, {"_id": 3, "x": 2, "y": null}, {"_id": 4, "y": "d"}]`
	runAggCases(t, []aggCase{
		// $mergeObjects: null and missing add nothing; later keys win in
		// place, a new key goes last; nested objects are replaced whole.
		{name: "mergeObjects skips null and missing, later values win", ref: accMergeSrc, cov: a("$mergeObjects"),
			docs: `[{"_id": 1, "x": {"a": 1, "b": 2}}, {"_id": 2, "x": null}, {"_id": 3}, {"_id": 4, "x": {"b": 3, "c": {"d": 1}}},
				{"_id": 5, "x": {"a": null}}, {"_id": 6, "x": {"c": {"e": 1}}}]`,
			pipeline: deep45Group(`{"$mergeObjects": "$x"}`), want: `[{"r": {"a": null, "b": 3, "c": {"e": 1}}}]`},
		{name: "mergeObjects of nothing is an empty object", ref: accMergeSrc, cov: a("$mergeObjects"), docs: `[{"_id": 1}]`,
			pipeline: deep45Group(`{"$mergeObjects": "$x"}`), want: `[{"r": {}}]`},
		{name: "mergeObjects keeps the value's type", ref: accMergeSrc, cov: at("$mergeObjects"),
			docs:     `[{"_id": 1, "x": {"a": 1}}, {"_id": 2, "x": {"a": {"$numberDecimal": "2"}}}]`,
			pipeline: deep45Group(`{"$mergeObjects": "$x"}`), want: `[{"r": {"a": {"$numberDecimal": "2"}}}]`},
		{name: "mergeObjects of a number", ref: accMergeSrc, cov: ae("$mergeObjects"), docs: `[{"_id": 1, "x": {"a": 1}}, {"_id": 2, "x": 5}]`,
			pipeline: deep45Group(`{"$mergeObjects": "$x"}`), code: 40400, msg: pe + "$mergeObjects requires object inputs, but input 5 is of type int"},
		{name: "mergeObjects of an array", ref: accMergeSrc, cov: ae("$mergeObjects"), docs: `[{"_id": 1, "x": [{"b": 1}]}]`,
			pipeline: deep45Group(`{"$mergeObjects": "$x"}`), code: 40400, msg: pe + "$mergeObjects requires object inputs, but input [{b: 1}] is of type array"},
		{name: "mergeObjects given an array of arguments", ref: accStmt, cov: ae("$mergeObjects"),
			pipeline: deep45Group(`{"$mergeObjects": ["$x", "$y"]}`), code: 40237, msg: "The $mergeObjects accumulator is a unary operator"},

		// $avg: a double unless a decimal came in (then a decimal);
		// longs sum exactly before the division.
		{name: "avg of ints is a double", ref: accAvgCpp, cov: at("$avg"), docs: `[{"_id": 1, "x": 1}, {"_id": 2, "x": 2}]`,
			pipeline: deep45Group(`{"$avg": "$x"}`), want: `[{"r": 1.5}]`},
		{name: "avg of two largest longs", ref: accAvgCpp, cov: at("$avg"),
			docs:     `[{"_id": 1, "x": {"$numberLong": "9223372036854775807"}}, {"_id": 2, "x": {"$numberLong": "9223372036854775807"}}]`,
			pipeline: deep45Group(`{"$avg": "$x"}`), want: `[{"r": 9223372036854775807.0}]`},
		{name: "avg with a decimal is a decimal", ref: accAvgCpp, cov: at("$avg"),
			docs:     `[{"_id": 1, "x": {"$numberDecimal": "1"}}, {"_id": 2, "x": {"$numberDecimal": "2"}}, {"_id": 3, "x": {"$numberDecimal": "2"}}]`,
			pipeline: deep45Group(`{"$avg": "$x"}`), want: `[{"r": {"$numberDecimal": "1.666666666666666666666666666666667"}}]`},
		{name: "avg of a double and a decimal", ref: accAvgCpp, cov: at("$avg"),
			docs:     `[{"_id": 1, "x": 1.5}, {"_id": 2, "x": {"$numberDecimal": "2"}}]`,
			pipeline: deep45Group(`{"$avg": "$x"}`), want: `[{"r": {"$numberDecimal": "1.750000000000000000000000000000000"}}]`},
		{name: "avg skips null, strings and arrays: null", ref: accAvgCpp, cov: a("$avg"),
			docs:     `[{"_id": 1, "x": null}, {"_id": 2, "x": "a"}, {"_id": 3, "x": [1, 2]}, {"_id": 4}]`,
			pipeline: deep45Group(`{"$avg": "$x"}`), want: `[{"r": null}]`},
		{name: "avg of both infinities is NaN", ref: accAvgCpp, cov: at("$avg"),
			docs:     `[{"_id": 1, "x": {"$numberDouble": "Infinity"}}, {"_id": 2, "x": {"$numberDouble": "-Infinity"}}]`,
			pipeline: deep45Group(`{"$avg": "$x"}`), want: `[{"r": {"$numberDouble": "NaN"}}]`},
		{name: "avg of an infinity and a decimal", ref: accAvgCpp, cov: at("$avg"),
			docs:     `[{"_id": 1, "x": {"$numberDouble": "Infinity"}}, {"_id": 2, "x": {"$numberDecimal": "1"}}]`,
			pipeline: deep45Group(`{"$avg": "$x"}`), want: `[{"r": {"$numberDecimal": "Infinity"}}]`},
		{name: "avg of doubles past the double range", ref: accAvgCpp, cov: at("$avg"), docs: `[{"_id": 1, "x": 1e308}, {"_id": 2, "x": 1e308}]`,
			pipeline: deep45Group(`{"$avg": "$x"}`), want: `[{"r": {"$numberDouble": "Infinity"}}]`},

		// $min: null, undefined and missing are skipped; among the rest the
		// BSON order, so a number is below a string and an array.
		{name: "min skips nullish, numbers before strings and arrays", ref: accMinMax, cov: a("$min"),
			docs:     `[{"_id": 1, "x": null}, {"_id": 2}, {"_id": 3, "x": [0]}, {"_id": 4, "x": "a"}, {"_id": 5, "x": 5}]`,
			pipeline: deep45Group(`{"$min": "$x"}`), want: `[{"r": 5}]`},
		{name: "min of only nullish is null", ref: accMinMax, cov: a("$min"), docs: `[{"_id": 1, "x": null}, {"_id": 2}]`,
			pipeline: deep45Group(`{"$min": "$x"}`), want: `[{"r": null}]`},
		{name: "min of MinKey and an empty array", ref: accMinMax, cov: at("$min"), docs: `[{"_id": 1, "x": []}, {"_id": 2, "x": {"$minKey": 1}}]`,
			pipeline: deep45Group(`{"$min": "$x"}`), want: `[{"r": {"$minKey": 1}}]`},
		{name: "min keeps NaN below every number", ref: accMinMax, cov: at("$min"), docs: `[{"_id": 1, "x": -5}, {"_id": 2, "x": {"$numberDouble": "NaN"}}]`,
			pipeline: deep45Group(`{"$min": "$x"}`), want: `[{"r": {"$numberDouble": "NaN"}}]`},
		{name: "min of equal numbers keeps the first", ref: accMinMax, cov: at("$min"), docs: `[{"_id": 1, "x": 1}, {"_id": 2, "x": {"$numberLong": "1"}}]`,
			pipeline: deep45Group(`{"$min": "$x"}`), want: `[{"r": 1}]`},

		// $topN/$bottomN: missing sorts first and a missing output is null;
		// n is evaluated against the group's _id document.
		{name: "topN with a missing sort key first", ref: accMulti, cov: a("$topN"), docs: top,
			pipeline: deep45Group(`{"$topN": {"n": 2, "sortBy": {"x": 1}, "output": "$y"}}`), want: `[{"r": ["d", null]}]`},
		{name: "bottomN with a missing output", ref: accMulti, cov: a("$bottomN"), docs: top,
			pipeline: deep45Group(`{"$bottomN": {"n": 2, "sortBy": {"x": 1}, "output": "$y"}}`), want: `[{"r": [null, "a"]}]`},
		{name: "topN with a decimal n", ref: accMulti, cov: at("$topN"), docs: top,
			pipeline: deep45Group(`{"$topN": {"n": {"$numberDecimal": "2"}, "sortBy": {"x": -1}, "output": "$x"}}`), want: `[{"r": [3, 2]}]`},
		{name: "topN n from the group's _id document", ref: groupInit, cov: a("$topN"),
			docs:     `[{"_id": 1, "g": 1, "x": 5}, {"_id": 2, "g": 2, "x": 3}, {"_id": 3, "g": 2, "x": 4}]`,
			pipeline: `[{"$group": {"_id": {"g": "$g"}, "r": {"$topN": {"n": "$g", "sortBy": {"x": 1}, "output": "$x"}}}}, {"$sort": {"_id": 1}}]`,
			want:     `[{"_id": {"g": 1}, "r": [5]}, {"_id": {"g": 2}, "r": [3, 4]}]`},
		{name: "topN n from a scalar _id is missing", ref: groupInit, cov: ae("$topN"), docs: `[{"_id": 1, "g": 1, "x": 5}]`,
			pipeline: `[{"$group": {"_id": "$g", "r": {"$topN": {"n": "$_id", "sortBy": {"x": 1}, "output": "$x"}}}}]`,
			code:     5787902, msg: pe + "Value for 'n' must be of integral type, but found MISSING"},
		{name: "bottomN n a fraction", ref: accMulti, cov: ae("$bottomN"), docs: top,
			pipeline: deep45Group(`{"$bottomN": {"n": 2.5, "sortBy": {"x": 1}, "output": "$y"}}`), code: 5787903,
			msg: pe + "Value for 'n' must be of integral type, but found 2.5"},
		{name: "bottomN without output", ref: accMulti, cov: ae("$bottomN"),
			pipeline: deep45Group(`{"$bottomN": {"n": 2, "sortBy": {"x": 1}}}`), code: 5788004, msg: "Missing value for 'output'"},
		{name: "bottomN without sortBy", ref: accMulti, cov: ae("$bottomN"),
			pipeline: deep45Group(`{"$bottomN": {"n": 2, "output": "$y"}}`), code: 5788005, msg: "Missing value for 'sortBy'"},
		{name: "topN without n", ref: accMulti, cov: ae("$topN"),
			pipeline: deep45Group(`{"$topN": {"sortBy": {"x": 1}, "output": "$y"}}`), code: 5788003, msg: "Missing value for 'n'"},
		{name: "topN with an empty sortBy", ref: accMulti, cov: ae("$topN"),
			pipeline: deep45Group(`{"$topN": {"n": 1, "sortBy": {}, "output": "$y"}}`), code: 15976, msg: "$sort stage must have at least one sort key"},
		{name: "topN given an array", ref: accStmt, cov: ae("$topN"),
			pipeline: deep45Group(`{"$topN": [1]}`), code: 40237, msg: "The $topN accumulator is a unary operator"},

		// $firstN: nulls and missing are kept as null; n from the _id.
		{name: "firstN keeps null for missing", ref: accMulti, cov: a("$firstN"), docs: top,
			pipeline: deep45Group(`{"$firstN": {"n": 3, "input": "$y"}}`), want: `[{"r": ["a", null, null]}]`},
		{name: "firstN n an expression of the _id document", ref: groupInit, cov: a("$firstN"),
			docs:     `[{"_id": 1, "g": 1, "x": 5}, {"_id": 2, "g": 2, "x": 3}, {"_id": 3, "g": 2, "x": 4}]`,
			pipeline: `[{"$sort": {"_id": 1}}, {"$group": {"_id": {"g": "$g"}, "r": {"$firstN": {"n": {"$add": ["$g", 0]}, "input": "$x"}}}}, {"$sort": {"_id": 1}}]`,
			want:     `[{"_id": {"g": 1}, "r": [5]}, {"_id": {"g": 2}, "r": [3, 4]}]`},
		{name: "firstN n negative", ref: accMulti, cov: ae("$firstN"), docs: top,
			pipeline: deep45Group(`{"$firstN": {"n": -1, "input": "$y"}}`), code: 5787908, msg: pe + "'n' must be greater than 0, found -1"},

		// $count: {$sum: 1}, an int; anything but {} is refused, an array
		// first as any accumulator's.
		{name: "count counts every document", ref: accCountSrc, cov: at("$count"), docs: top,
			pipeline: deep45Group(`{"$count": {}}`), want: `[{"r": 4}]`},
		{name: "count of an array", ref: accStmt, cov: ae("$count"),
			pipeline: deep45Group(`{"$count": []}`), code: 40237, msg: "The $count accumulator is a unary operator"},
		{name: "count with a field", ref: accCountSrc, cov: ae("$count"),
			pipeline: deep45Group(`{"$count": {"a": 1}}`), code: 14, msg: "$count takes no arguments, i.e. $count:{}"},
	})
}
