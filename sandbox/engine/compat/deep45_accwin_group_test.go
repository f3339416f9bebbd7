package compat_test

import "testing"

// Sweep 45, accumulators of $group: null and missing, arrays, the numeric
// type of each result and every argument check, following mongod 8.0's
// accumulator sources (cited per group of cases) and the jstests under
// jstests/aggregation/accumulators/.

// accCountSrc is where mongod parses $group's $count.
const accCountSrc = accSumSrc + " parseCountAccumulator"

// deep45Group groups every document of c into one group, in _id order, and
// keeps r alone.
func deep45Group(acc string) string {
	return `[{"$sort": {"_id": 1}}, {"$group": {"_id": null, "r": ` + acc + `}}, {"$project": {"_id": 0}}]`
}

// deep45GroupSorted is deep45Group with r's elements sorted, for the
// accumulators whose order mongod leaves unspecified ($addToSet's hash set).
func deep45GroupSorted(acc string) string {
	return `[{"$group": {"_id": null, "r": ` + acc + `}}, {"$project": {"_id": 0, "r": {"$sortArray": {"input": "$r", "sortBy": 1}}}}]`
}

func TestDeep45AccwinGroup(t *testing.T) {
	a := func(op string) cover { return cover{family: accumulator, op: op} }
	at := func(op string) cover { return cover{family: accumulator, op: op, col: types} }
	ae := func(op string) cover { return cover{family: accumulator, op: op, col: errorCol} }
	// One of each kind the accumulators tell apart: a number, null, a
	// missing field, arrays (one twice), a document.
	kinds := `[{"_id": 1, "x": 1}, {"_id": 2, "x": null}, {"_id": 3}, {"_id": 4, "x": [1, 2]},
		{"_id": 5, "x": [1, 2]}, {"_id": 6, "x": {"a": 1}}, {"_id": 7, "x": [2, 1]}]`
	// Equal numbers of the four numeric types, int first.
	numerics := `[{"_id": 1, "x": 1}, {"_id": 2, "x": 1.0}, {"_id": 3, "x": {"$numberLong": "1"}}, {"_id": 4, "x": {"$numberDecimal": "1"}}]`
	ys := `[{"_id": 1, "y": 2}, {"_id": 2, "y": 4}, {"_id": 3, "y": 4}, {"_id": 4, "y": 4}, {"_id": 5, "y": 5}, {"_id": 6, "y": 5}, {"_id": 7, "y": 7}, {"_id": 8, "y": 9}]`
	runAggCases(t, []aggCase{
		// $addToSet (accumulator_add_to_set.cpp): a missing value adds
		// nothing; null and arrays are values of their own, an array is not
		// spread, equal arrays count once.
		{name: "addToSet keeps null and whole arrays, skips missing", ref: accAddToSetSrc, cov: a("$addToSet"), docs: kinds,
			pipeline: deep45GroupSorted(`{"$addToSet": "$x"}`), want: `[{"r": [null, 1, {"a": 1}, [1, 2], [2, 1]]}]`},
		{name: "addToSet of only missing values is empty", ref: accAddToSetSrc, cov: a("$addToSet"), docs: `[{"_id": 1}, {"_id": 2}]`,
			pipeline: deep45Group(`{"$addToSet": "$x"}`), want: `[{"r": []}]`},
		{name: "addToSet tells documents apart by field order", ref: accAddToSetSrc, cov: a("$addToSet"),
			docs:     `[{"_id": 1, "x": {"a": 1, "b": 2}}, {"_id": 2, "x": {"b": 2, "a": 1}}, {"_id": 3, "x": {"a": 1, "b": 2}}]`,
			pipeline: `[{"$group": {"_id": null, "r": {"$addToSet": "$x"}}}, {"$project": {"_id": 0, "n": {"$size": "$r"}}}]`, want: `[{"n": 2}]`},
		{name: "addToSet counts equal numbers once, keeping the first", ref: accAddToSetSrc, cov: at("$addToSet"), docs: numerics,
			pipeline: deep45Group(`{"$addToSet": "$x"}`), want: `[{"r": [1]}]`},
		{name: "addToSet takes one expression, not an array", ref: accStmtSrc, cov: ae("$addToSet"),
			pipeline: deep45Group(`{"$addToSet": ["$x"]}`), code: 40237, msg: "The $addToSet accumulator is a unary operator"},

		// $push (accumulator_push.cpp): missing values add nothing; the
		// rest, null and arrays included, in the order they come.
		{name: "push keeps null and arrays in order, skips missing", ref: accPushSrc, cov: a("$push"), docs: kinds,
			pipeline: deep45Group(`{"$push": "$x"}`), want: `[{"r": [1, null, [1, 2], [1, 2], {"a": 1}, [2, 1]]}]`},
		{name: "push of only missing values is empty", ref: accPushSrc, cov: a("$push"), docs: `[{"_id": 1}]`,
			pipeline: deep45Group(`{"$push": "$x"}`), want: `[{"r": []}]`},
		{name: "push keeps each numeric type", ref: accPushSrc, cov: at("$push"), docs: numerics,
			pipeline: deep45Group(`{"$push": "$x"}`), want: `[{"r": [1, 1.0, {"$numberLong": "1"}, {"$numberDecimal": "1"}]}]`},
		{name: "push of an object expression drops its missing fields", ref: accPushSrc, cov: a("$push"), docs: `[{"_id": 1, "x": 1}, {"_id": 2}]`,
			pipeline: deep45Group(`{"$push": {"v": "$x"}}`), want: `[{"r": [{"v": 1}, {}]}]`},
		{name: "push takes one expression, not an array", ref: accStmtSrc, cov: ae("$push"),
			pipeline: deep45Group(`{"$push": ["$x", "$y"]}`), code: 40237, msg: "The $push accumulator is a unary operator"},

		// $first / $last (accumulator_first.cpp, accumulator_last.cpp):
		// the first or last value whatever it is; a missing one is null.
		{name: "first of a missing field is null", ref: accFirstSrc, cov: a("$first"), docs: `[{"_id": 1}, {"_id": 2, "x": 5}]`,
			pipeline: deep45Group(`{"$first": "$x"}`), want: `[{"r": null}]`},
		{name: "first keeps an array whole", ref: accFirstSrc, cov: a("$first"), docs: `[{"_id": 1, "x": [3, 1]}, {"_id": 2, "x": 5}]`,
			pipeline: deep45Group(`{"$first": "$x"}`), want: `[{"r": [3, 1]}]`},
		{name: "first keeps a decimal a decimal", ref: accFirstSrc, cov: at("$first"), docs: `[{"_id": 1, "x": {"$numberDecimal": "2.50"}}]`,
			pipeline: deep45Group(`{"$first": "$x"}`), want: `[{"r": {"$numberDecimal": "2.50"}}]`},
		{name: "first takes one expression, not an array", ref: accStmtSrc, cov: ae("$first"),
			pipeline: deep45Group(`{"$first": [1]}`), code: 40237, msg: "The $first accumulator is a unary operator"},
		{name: "last of a missing field is null, after values", ref: accLastSrc, cov: a("$last"), docs: `[{"_id": 1, "x": 5}, {"_id": 2}]`,
			pipeline: deep45Group(`{"$last": "$x"}`), want: `[{"r": null}]`},
		{name: "last keeps a null", ref: accLastSrc, cov: a("$last"), docs: `[{"_id": 1, "x": 5}, {"_id": 2, "x": null}]`,
			pipeline: deep45Group(`{"$last": "$x"}`), want: `[{"r": null}]`},
		{name: "last keeps a long a long", ref: accLastSrc, cov: at("$last"), docs: numerics,
			pipeline: `[{"$sort": {"_id": 1}}, {"$limit": 3}, {"$group": {"_id": null, "r": {"$last": "$x"}}}, {"$project": {"_id": 0}}]`,
			want:     `[{"r": {"$numberLong": "1"}}]`},
		{name: "last takes one expression, not an array", ref: accStmtSrc, cov: ae("$last"),
			pipeline: deep45Group(`{"$last": ["$x"]}`), code: 40237, msg: "The $last accumulator is a unary operator"},

		// $count (accumulator_sum.cpp): {$sum: 1} over every document,
		// whatever its fields; an int.
		{name: "count counts every document, missing fields or not", ref: accCountSrc, cov: at("$count"), docs: kinds,
			pipeline: deep45Group(`{"$count": {}}`), want: `[{"r": 7}]`},
		{name: "count per group", ref: accCountSrc, cov: a("$count"),
			docs:     `[{"_id": 1, "g": "a"}, {"_id": 2, "g": "b"}, {"_id": 3, "g": "a"}, {"_id": 4}]`,
			pipeline: `[{"$group": {"_id": "$g", "r": {"$count": {}}}}, {"$sort": {"_id": 1}}]`,
			want:     `[{"_id": null, "r": 1}, {"_id": "a", "r": 2}, {"_id": "b", "r": 1}]`},
		{name: "count refuses a number", ref: accCountSrc, cov: ae("$count"),
			pipeline: deep45Group(`{"$count": 1}`), code: 14, msg: "$count takes no arguments, i.e. $count:{}"},
		{name: "count refuses a non-empty object", ref: accCountSrc, cov: ae("$count"),
			pipeline: deep45Group(`{"$count": {"a": 1}}`), code: 14, msg: "$count takes no arguments, i.e. $count:{}"},
		{name: "count refuses null", ref: accCountSrc, cov: ae("$count"),
			pipeline: deep45Group(`{"$count": null}`), code: 14, msg: "$count takes no arguments, i.e. $count:{}"},
		{name: "count's array is refused as any accumulator's", ref: accStmtSrc, cov: ae("$count"),
			pipeline: deep45Group(`{"$count": []}`), code: 40237, msg: "The $count accumulator is a unary operator"},

		// $max (accumulator_min_max.cpp): nullish values are skipped;
		// the rest compare in BSON order, arrays as whole values; a tie
		// keeps the value seen first.
		{name: "max across types: an array beats a document", ref: accMinMaxSrc, cov: a("$max"), docs: kinds,
			pipeline: deep45Group(`{"$max": "$x"}`), want: `[{"r": [2, 1]}]`},
		{name: "max of a bool and a date is the date", ref: accMinMaxSrc, cov: a("$max"),
			docs:     `[{"_id": 1, "x": true}, {"_id": 2, "x": {"$date": "2020-01-01T00:00:00Z"}}, {"_id": 3, "x": "z"}]`,
			pipeline: deep45Group(`{"$max": "$x"}`), want: `[{"r": {"$date": "2020-01-01T00:00:00Z"}}]`},
		{name: "max of only null and missing is null", ref: accMinMaxSrc, cov: a("$max"), docs: `[{"_id": 1, "x": null}, {"_id": 2}]`,
			pipeline: deep45Group(`{"$max": "$x"}`), want: `[{"r": null}]`},
		{name: "max keeps the first of equal numbers", ref: accMinMaxSrc, cov: at("$max"), docs: numerics,
			pipeline: deep45Group(`{"$max": "$x"}`), want: `[{"r": 1}]`},
		{name: "max ranks NaN below every number", ref: accMinMaxSrc, cov: at("$max"),
			docs:     `[{"_id": 1, "x": {"$numberDouble": "NaN"}}, {"_id": 2, "x": -5}]`,
			pipeline: deep45Group(`{"$max": "$x"}`), want: `[{"r": -5}]`},
		{name: "max takes one expression, not an array", ref: accStmtSrc, cov: ae("$max"),
			pipeline: deep45Group(`{"$max": ["$x", 1]}`), code: 40237, msg: "The $max accumulator is a unary operator"},

		// $stdDevPop / $stdDevSamp (accumulator_std_dev.cpp): Welford's
		// algorithm in doubles over the numbers alone.
		{name: "stdDevPop skips what is not a number", ref: accStdDevSrc, cov: a("$stdDevPop"),
			docs:     `[{"_id": 1, "x": 1}, {"_id": 2, "x": "9"}, {"_id": 3, "x": null}, {"_id": 4}, {"_id": 5, "x": [9]}, {"_id": 6, "x": 3}]`,
			pipeline: deep45Group(`{"$stdDevPop": "$x"}`), want: `[{"r": 1.0}]`},
		{name: "stdDevPop of one number is the double 0", ref: accStdDevSrc, cov: at("$stdDevPop"), docs: `[{"_id": 1, "x": 7}]`,
			pipeline: deep45Group(`{"$stdDevPop": "$x"}`), want: `[{"r": 0.0}]`},
		{name: "stdDevPop of no number is null", ref: accStdDevSrc, cov: a("$stdDevPop"), docs: `[{"_id": 1, "x": "a"}, {"_id": 2}]`,
			pipeline: deep45Group(`{"$stdDevPop": "$x"}`), want: `[{"r": null}]`},
		{name: "stdDevPop of decimals is a double", ref: accStdDevSrc, cov: at("$stdDevPop"),
			docs:     `[{"_id": 1, "x": {"$numberDecimal": "2"}}, {"_id": 2, "x": {"$numberDecimal": "4"}}]`,
			pipeline: deep45Group(`{"$stdDevPop": "$x"}`), want: `[{"r": 1.0}]`},
		{name: "stdDevPop with an infinity is NaN", ref: accStdDevSrc, cov: at("$stdDevPop"),
			docs:     `[{"_id": 1, "x": {"$numberDouble": "Infinity"}}, {"_id": 2, "x": 4}]`,
			pipeline: deep45Group(`{"$stdDevPop": "$x"}`), want: `[{"r": {"$numberDouble": "NaN"}}]`},
		{name: "stdDevPop of ys", ref: "jstests/aggregation/accumulators/stddev.js", cov: a("$stdDevPop"), docs: ys,
			pipeline: deep45Group(`{"$stdDevPop": "$y"}`), want: `[{"r": 2.0}]`},
		{name: "stdDevPop takes one expression, not an array", ref: accStmtSrc, cov: ae("$stdDevPop"),
			pipeline: deep45Group(`{"$stdDevPop": ["$x"]}`), code: 40237, msg: "The $stdDevPop accumulator is a unary operator"},
		{name: "stdDevSamp of one number is null", ref: accStdDevSrc, cov: a("$stdDevSamp"), docs: `[{"_id": 1, "x": 7}, {"_id": 2, "x": "7"}]`,
			pipeline: deep45Group(`{"$stdDevSamp": "$x"}`), want: `[{"r": null}]`},
		{name: "stdDevSamp of two ints is a double", ref: accStdDevSrc, cov: at("$stdDevSamp"), docs: `[{"_id": 1, "x": 1}, {"_id": 2, "x": 3}]`,
			pipeline: deep45Group(`{"$stdDevSamp": "$x"}`), want: `[{"r": 1.4142135623730951}]`},
		{name: "stdDevSamp of a long and a decimal is a double", ref: accStdDevSrc, cov: at("$stdDevSamp"),
			docs:     `[{"_id": 1, "x": {"$numberLong": "2"}}, {"_id": 2, "x": {"$numberDecimal": "4"}}]`,
			pipeline: deep45Group(`{"$stdDevSamp": "$x"}`), want: `[{"r": 1.4142135623730951}]`},
		{name: "stdDevSamp with a NaN is NaN", ref: accStdDevSrc, cov: at("$stdDevSamp"),
			docs:     `[{"_id": 1, "x": 1}, {"_id": 2, "x": {"$numberDouble": "NaN"}}, {"_id": 3, "x": 2}]`,
			pipeline: deep45Group(`{"$stdDevSamp": "$x"}`), want: `[{"r": {"$numberDouble": "NaN"}}]`},
		{name: "stdDevSamp takes one expression, not an array", ref: accStmtSrc, cov: ae("$stdDevSamp"),
			pipeline: deep45Group(`{"$stdDevSamp": []}`), code: 40237, msg: "The $stdDevSamp accumulator is a unary operator"},

		// $median (accumulator_percentile.cpp): numbers only, a double
		// whatever their type; no number gives null.
		{name: "median of ints is a double", ref: accPctSrc, cov: at("$median"), docs: `[{"_id": 1, "x": 3}, {"_id": 2, "x": 1}, {"_id": 3, "x": 2}]`,
			pipeline: deep45Group(`{"$median": {"input": "$x", "method": "approximate"}}`), want: `[{"r": 2.0}]`},
		{name: "median of decimals and longs is a double", ref: accPctSrc, cov: at("$median"),
			docs:     `[{"_id": 1, "x": {"$numberDecimal": "5"}}, {"_id": 2, "x": {"$numberLong": "5"}}, {"_id": 3, "x": 5}]`,
			pipeline: deep45Group(`{"$median": {"input": "$x", "method": "approximate"}}`), want: `[{"r": 5.0}]`},
		{name: "median skips what is not a number", ref: accPctSrc, cov: a("$median"),
			docs:     `[{"_id": 1, "x": "100"}, {"_id": 2, "x": null}, {"_id": 3}, {"_id": 4, "x": [100]}, {"_id": 5, "x": 4}]`,
			pipeline: deep45Group(`{"$median": {"input": "$x", "method": "approximate"}}`), want: `[{"r": 4.0}]`},
		{name: "median of no number is null", ref: accPctSrc, cov: a("$median"), docs: `[{"_id": 1, "x": "a"}]`,
			pipeline: deep45Group(`{"$median": {"input": "$x", "method": "approximate"}}`), want: `[{"r": null}]`},
		{name: "median refuses p", ref: accPctSrc, cov: ae("$median"),
			pipeline: deep45Group(`{"$median": {"input": "$x", "method": "approximate", "p": [0.5]}}`), code: 40415, msg: "BSON field '$median.p' is an unknown field."},
		// The IDL parser of {input, method} refuses a field given twice.
		{name: "median refuses input twice", ref: accPctSrc + " (IDL parser)", cov: ae("$median"),
			pipeline: deep45Group(`{"$median": {"input": "$x", "input": "$y", "method": "approximate"}}`), code: 40413, msg: "BSON field '$median.input' is a duplicate field"},
		{name: "median refuses method twice", ref: accPctSrc + " (IDL parser)", cov: ae("$median"),
			pipeline: deep45Group(`{"$median": {"input": "$x", "method": "approximate", "method": "approximate"}}`), code: 40413, msg: "BSON field '$median.method' is a duplicate field"},
		{name: "median needs input", ref: accPctSrc, cov: ae("$median"),
			pipeline: deep45Group(`{"$median": {"method": "approximate"}}`), code: 40414, msg: "BSON field '$median.input' is missing but a required field"},

		// $lastN (accumulator_multi.cpp AccumulatorFirstLastN): missing
		// counts as null; n is checked on the first document of a group.
		{name: "lastN turns missing into null", ref: accMultiSrc, cov: a("$lastN"), docs: kinds,
			pipeline: deep45Group(`{"$lastN": {"input": "$x", "n": 5}}`), want: `[{"r": [null, [1, 2], [1, 2], {"a": 1}, [2, 1]]}]`},
		{name: "lastN with n a long", ref: accMultiSrc, cov: at("$lastN"), docs: numerics,
			pipeline: deep45Group(`{"$lastN": {"input": "$x", "n": {"$numberLong": "2"}}}`), want: `[{"r": [{"$numberLong": "1"}, {"$numberDecimal": "1"}]}]`},
		{name: "lastN with n a whole double", ref: accMultiSrc, cov: at("$lastN"), docs: numerics,
			pipeline: deep45Group(`{"$lastN": {"input": "$x", "n": 1.0}}`), want: `[{"r": [{"$numberDecimal": "1"}]}]`},
		{name: "lastN n from the command's let", ref: accMultiSrc, cov: a("$lastN"), docs: numerics, let: `{"k": {"$numberLong": "1"}}`,
			pipeline: deep45Group(`{"$lastN": {"input": "$x", "n": "$$k"}}`), want: `[{"r": [{"$numberDecimal": "1"}]}]`},
		{name: "push keeps undefined, unlike missing", ref: accPushSrc, cov: at("$push"), docs: `[{"_id": 1, "x": {"$undefined": true}}, {"_id": 2}]`,
			pipeline: deep45Group(`{"$push": "$x"}`), want: `[{"r": [{"$undefined": true}]}]`},
		{name: "max skips undefined", ref: accMinMaxSrc, cov: at("$max"), docs: `[{"_id": 1, "x": {"$undefined": true}}, {"_id": 2, "x": {"$minKey": 1}}]`,
			pipeline: deep45Group(`{"$max": "$x"}`), want: `[{"r": {"$minKey": 1}}]`},
		// AccumulatorN::parseArgs parses input and n where they stand:
		// their errors come before a later unknown field and before the
		// missing-field checks.
		{name: "lastN's bad input before an unknown field", ref: accMultiSrc + " AccumulatorN::parseArgs", cov: ae("$lastN"),
			pipeline: deep45Group(`{"$lastN": {"input": {"$nope": 1}, "sortBy": 1}}`), code: 168, msg: "Unrecognized expression '$nope'"},
		{name: "lastN's unknown field before a bad input", ref: accMultiSrc + " AccumulatorN::parseArgs", cov: ae("$lastN"),
			pipeline: deep45Group(`{"$lastN": {"sortBy": 1, "input": {"$nope": 1}}}`), code: 5787901, msg: "Unknown argument for 'n' operator: sortBy"},
		{name: "minN's bad n before the missing input", ref: accMultiSrc + " AccumulatorN::parseArgs", cov: ae("$minN"),
			pipeline: deep45Group(`{"$minN": {"n": {"$nope": 1}}}`), code: 168, msg: "Unrecognized expression '$nope'"},
		{name: "lastN spec must be an object", ref: accMultiSrc, cov: ae("$lastN"),
			pipeline: deep45Group(`{"$lastN": "$x"}`), code: 5787801, msg: `specification must be an object; found $lastN: "$x"`},
		{name: "lastN unknown argument", ref: accMultiSrc, cov: ae("$lastN"),
			pipeline: deep45Group(`{"$lastN": {"input": "$x", "n": 1, "sortBy": {"x": 1}}}`), code: 5787901, msg: "Unknown argument for 'n' operator: sortBy"},
		{name: "lastN without n", ref: accMultiSrc, cov: ae("$lastN"),
			pipeline: deep45Group(`{"$lastN": {"input": "$x"}}`), code: 5787906, msg: "Missing value for 'n'"},
		{name: "lastN n a fraction", ref: accMultiSrc, cov: ae("$lastN"), docs: numerics,
			pipeline: deep45Group(`{"$lastN": {"input": "$x", "n": {"$numberDecimal": "2.5"}}}`), code: 5787903,
			msg: planExecutor + "Value for 'n' must be of integral type, but found 2.5"},
		{name: "lastN n negative", ref: accMultiSrc, cov: ae("$lastN"), docs: numerics,
			pipeline: deep45Group(`{"$lastN": {"input": "$x", "n": {"$numberLong": "-3"}}}`), code: 5787908,
			msg: planExecutor + "'n' must be greater than 0, found -3"},

		// $minN (accumulator_multi.cpp AccumulatorMinMaxN): nullish values
		// are skipped, NaN is the least number, arrays are whole values.
		{name: "minN ranks NaN first", ref: accMultiSrc, cov: at("$minN"),
			docs:     `[{"_id": 1, "x": 2}, {"_id": 2, "x": {"$numberDouble": "NaN"}}, {"_id": 3, "x": {"$numberDecimal": "-1"}}]`,
			pipeline: deep45Group(`{"$minN": {"input": "$x", "n": 2}}`), want: `[{"r": [{"$numberDouble": "NaN"}, {"$numberDecimal": "-1"}]}]`},
		{name: "minN keeps arrays whole", ref: accMultiSrc, cov: a("$minN"), docs: kinds,
			pipeline: deep45Group(`{"$minN": {"input": "$x", "n": 3}}`), want: `[{"r": [1, {"a": 1}, [1, 2]]}]`},
		{name: "minN of only nullish values is empty", ref: accMultiSrc, cov: a("$minN"), docs: `[{"_id": 1, "x": null}, {"_id": 2}]`,
			pipeline: deep45Group(`{"$minN": {"input": "$x", "n": 1}}`), want: `[{"r": []}]`},
		{name: "minN without input", ref: accMultiSrc, cov: ae("$minN"),
			pipeline: deep45Group(`{"$minN": {"n": 1}}`), code: 5787907, msg: "Missing value for 'input'"},
		{name: "minN n null", ref: accMultiSrc, cov: ae("$minN"), docs: numerics,
			pipeline: deep45Group(`{"$minN": {"input": "$x", "n": null}}`), code: 5787902,
			msg: planExecutor + "Value for 'n' must be of integral type, but found null"},
		{name: "minN n too large for a long", ref: accMultiSrc, cov: ae("$minN"), docs: numerics,
			pipeline: deep45Group(`{"$minN": {"input": "$x", "n": 1e30}}`), code: 5787903,
			msg: planExecutor + "Value for 'n' must be of integral type, but found 1e+30"},

		// $top / $bottom (accumulator_multi.cpp AccumulatorTopBottomN): one
		// output, null for a missing one; missing sort values sort as null.
		{name: "top of a missing output is null", ref: accMultiSrc, cov: a("$top"), docs: `[{"_id": 1, "k": 2, "x": 5}, {"_id": 2, "k": 1}]`,
			pipeline: deep45Group(`{"$top": {"output": "$x", "sortBy": {"k": 1}}}`), want: `[{"r": null}]`},
		{name: "top sorts a missing key first, as null", ref: accMultiSrc, cov: a("$top"), docs: `[{"_id": 1, "k": 2, "x": 5}, {"_id": 2, "x": 6}]`,
			pipeline: deep45Group(`{"$top": {"output": "$x", "sortBy": {"k": 1}}}`), want: `[{"r": 6}]`},
		{name: "top with a compound sortBy and an array output", ref: topBottomJS, cov: a("$top"),
			docs:     `[{"_id": 1, "k": 1, "j": 1}, {"_id": 2, "k": 1, "j": 0}, {"_id": 3, "k": 2, "j": 5}]`,
			pipeline: deep45Group(`{"$top": {"output": ["$_id", "$j"], "sortBy": {"k": 1, "j": 1}}}`), want: `[{"r": [2, 0]}]`},
		{name: "top by a descending key of an array uses its largest element", ref: accMultiSrc, cov: a("$top"),
			docs:     `[{"_id": 1, "k": [1, 9]}, {"_id": 2, "k": 5}]`,
			pipeline: deep45Group(`{"$top": {"output": "$_id", "sortBy": {"k": -1}}}`), want: `[{"r": 1}]`},
		{name: "top keeps the output's type", ref: accMultiSrc, cov: at("$top"), docs: numerics,
			pipeline: deep45Group(`{"$top": {"output": "$x", "sortBy": {"_id": -1}}}`), want: `[{"r": {"$numberDecimal": "1"}}]`},
		{name: "top refuses n", ref: accMultiSrc, cov: ae("$top"),
			pipeline: deep45Group(`{"$top": {"output": "$x", "sortBy": {"k": 1}, "n": 1}}`), code: 5788002, msg: "Unknown argument to $top 'n'"},
		{name: "top without output", ref: accMultiSrc, cov: ae("$top"),
			pipeline: deep45Group(`{"$top": {"sortBy": {"k": 1}}}`), code: 5788004, msg: "Missing value for 'output'"},
		{name: "top without sortBy", ref: accMultiSrc, cov: ae("$top"),
			pipeline: deep45Group(`{"$top": {"output": "$x"}}`), code: 5788005, msg: "Missing value for 'sortBy'"},
		{name: "top spec must be an object", ref: accMultiSrc, cov: ae("$top"),
			pipeline: deep45Group(`{"$top": "$x"}`), code: 5788001, msg: `specification must be an object; found $top: "$x"`},
		{name: "top sortBy must be an object", ref: accMultiSrc + " (BSONElement::Obj)", cov: ae("$top"),
			pipeline: deep45Group(`{"$top": {"output": "$x", "sortBy": 1}}`), code: 10065, msg: "invalid parameter: expected an object (sortBy)"},
		{name: "top sortBy direction 2", ref: "src/mongo/db/query/sort_pattern.cpp", cov: ae("$top"),
			pipeline: deep45Group(`{"$top": {"output": "$x", "sortBy": {"k": 2}}}`), code: 15975, msg: "$sort key ordering must be 1 (for ascending) or -1 (for descending)"},
		// accumulatorNParseArgs parses $topN's n where it stands, the output
		// only once sortBy has made a pattern: n's error comes first.
		{name: "topN's bad n before its missing output", ref: accMultiSrc + " accumulatorNParseArgs", cov: ae("$topN"),
			pipeline: deep45Group(`{"$topN": {"n": {"$nope": 1}, "sortBy": {"k": 1}}}`), code: 168, msg: "Unrecognized expression '$nope'"},
		{name: "bottomN's bad n before its bad output", ref: accMultiSrc + " accumulatorNParseArgs", cov: ae("$bottomN"),
			pipeline: deep45Group(`{"$bottomN": {"output": {"$nope2": 1}, "sortBy": {"k": 1}, "n": {"$nope": 1}}}`), code: 168, msg: "Unrecognized expression '$nope'"},
		{name: "topN's bad sortBy before its bad output", ref: accMultiSrc + " parseTopBottomN", cov: ae("$topN"),
			pipeline: deep45Group(`{"$topN": {"output": {"$nope": 1}, "sortBy": {"k": 0}, "n": 1}}`), code: 15975, msg: "$sort key ordering must be 1 (for ascending) or -1 (for descending)"},
		{name: "bottom of a missing output is null", ref: accMultiSrc, cov: a("$bottom"), docs: `[{"_id": 1, "k": 2}, {"_id": 2, "k": 1, "x": 5}]`,
			pipeline: deep45Group(`{"$bottom": {"output": "$x", "sortBy": {"k": 1}}}`), want: `[{"r": null}]`},
		{name: "bottom by an ascending key of an array uses its least element", ref: accMultiSrc, cov: a("$bottom"),
			docs:     `[{"_id": 1, "k": [1, 9]}, {"_id": 2, "k": 5}]`,
			pipeline: deep45Group(`{"$bottom": {"output": "$_id", "sortBy": {"k": 1}}}`), want: `[{"r": 2}]`},
		{name: "bottom keeps the output's type", ref: accMultiSrc, cov: at("$bottom"), docs: numerics,
			pipeline: deep45Group(`{"$bottom": {"output": "$x", "sortBy": {"_id": -1}}}`), want: `[{"r": 1}]`},
		{name: "bottom refuses n", ref: accMultiSrc, cov: ae("$bottom"),
			pipeline: deep45Group(`{"$bottom": {"output": "$x", "sortBy": {"k": 1}, "n": 2}}`), code: 5788002, msg: "Unknown argument to $bottom 'n'"},
		{name: "bottom without sortBy", ref: accMultiSrc, cov: ae("$bottom"),
			pipeline: deep45Group(`{"$bottom": {"output": "$x"}}`), code: 5788005, msg: "Missing value for 'sortBy'"},
		{name: "bottom sortBy with an illegal key", ref: "src/mongo/db/query/sort_pattern.cpp", cov: ae("$bottom"),
			pipeline: deep45Group(`{"$bottom": {"output": "$x", "sortBy": {"k": "up"}}}`), code: 15974, msg: `Illegal key in $sort specification: k: "up"`},
		{name: "bottom sortBy repeating a key", ref: "src/mongo/db/query/sort_pattern.cpp", cov: ae("$bottom"),
			pipeline: deep45Group(`{"$bottom": {"output": "$x", "sortBy": {"k": 1, "k": -1}}}`), code: 7472500, msg: "$sort key must not contain duplicate keys (duplicate: 'k')"},
	})
}
