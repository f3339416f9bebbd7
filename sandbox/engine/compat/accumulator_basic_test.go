package compat_test

import "testing"

const (
	accStmtSrc = "src/mongo/db/pipeline/accumulation_statement.cpp"
	accSumSrc  = "src/mongo/db/pipeline/accumulator_sum.cpp"
	accAvgSrc  = "src/mongo/db/pipeline/accumulator_avg.cpp"
)

func TestAccumulatorsBasic(t *testing.T) {
	a := func(op string) cover { return cover{family: accumulator, op: op} }
	at := func(op string) cover { return cover{family: accumulator, op: op, col: types} }
	ae := func(op string) cover { return cover{family: accumulator, op: op, col: errorCol} }
	one := func(acc string) string {
		return `[{"$sort": {"_id": 1}}, {"$group": {"_id": null, "r": ` + acc + `}}, {"$project": {"_id": 0}}]`
	}
	ints := `[{"_id": 1, "v": 1}, {"_id": 2, "v": 2}]`
	mixed := `[{"_id": 1, "v": 1}, {"_id": 2, "v": null}, {"_id": 3}, {"_id": 4, "v": "s"}, {"_id": 5, "v": 2.5}]`
	runAggCases(t, []aggCase{
		// $sum
		{name: "sum of ints is an int", ref: accSumSrc, cov: at("$sum"), docs: ints, pipeline: one(`{"$sum": "$v"}`), want: `[{"r": 3}]`},
		{name: "sum past int32 is a long", ref: accSumSrc, cov: at("$sum"),
			docs: `[{"_id": 1, "v": 2147483647}, {"_id": 2, "v": 1}]`, pipeline: one(`{"$sum": "$v"}`), want: `[{"r": {"$numberLong": "2147483648"}}]`},
		{name: "sum past int64 is a double", ref: accSumSrc, cov: at("$sum"),
			docs:     `[{"_id": 1, "v": {"$numberLong": "9223372036854775807"}}, {"_id": 2, "v": {"$numberLong": "1"}}]`,
			pipeline: one(`{"$sum": "$v"}`), want: `[{"r": 9.223372036854775808e18}]`},
		{name: "a double makes the sum a double", ref: accSumSrc, cov: at("$sum"), docs: `[{"_id": 1, "v": 1}, {"_id": 2, "v": 1.0}]`,
			pipeline: one(`{"$sum": "$v"}`), want: `[{"r": 2.0}]`},
		{name: "a decimal makes the sum a decimal", ref: accSumSrc, cov: at("$sum"), docs: `[{"_id": 1, "v": 1}, {"_id": 2, "v": {"$numberDecimal": "0.5"}}]`,
			pipeline: one(`{"$sum": "$v"}`), want: `[{"r": {"$numberDecimal": "1.5"}}]`},
		{name: "sum skips non-numbers", ref: accSumSrc, cov: a("$sum"), docs: mixed, pipeline: one(`{"$sum": "$v"}`), want: `[{"r": 3.5}]`},
		{name: "sum of nothing numeric is 0", ref: accSumSrc, cov: a("$sum"), docs: `[{"v": "a"}]`, pipeline: one(`{"$sum": "$v"}`), want: `[{"r": 0}]`},
		{name: "sum of a constant counts", ref: accSumSrc, cov: a("$sum"), docs: mixed, pipeline: one(`{"$sum": 1}`), want: `[{"r": 5}]`},
		{name: "an array is not summed", ref: accSumSrc, cov: a("$sum"), docs: `[{"v": [1, 2]}]`, pipeline: one(`{"$sum": "$v"}`), want: `[{"r": 0}]`},
		// $avg
		{name: "avg of ints is a double", ref: accAvgSrc, cov: at("$avg"), docs: `[{"_id": 1, "v": 2}, {"_id": 2, "v": 2}]`,
			pipeline: one(`{"$avg": "$v"}`), want: `[{"r": 2.0}]`},
		{name: "avg skips non-numbers", ref: accAvgSrc, cov: a("$avg"), docs: mixed, pipeline: one(`{"$avg": "$v"}`), want: `[{"r": 1.75}]`},
		{name: "avg of nothing numeric is null", ref: accAvgSrc, cov: a("$avg"), docs: `[{"v": null}]`, pipeline: one(`{"$avg": "$v"}`), want: `[{"r": null}]`},
		// AccumulatorSum adds each decimal with Decimal128::add, rounded to
		// 34 digits: 34 nines plus 0.5 round up to 1E+34, so the total is
		// 1, not the 0.5 exact arithmetic gives.
		{name: "a decimal sum rounds at each step", ref: accSumSrc + "; src/mongo/platform/decimal128.cpp (add)", cov: at("$sum"),
			docs: `[{"_id": 1, "v": {"$numberDecimal": "9999999999999999999999999999999999"}}, {"_id": 2, "v": {"$numberDecimal": "0.5"}},
				{"_id": 3, "v": {"$numberDecimal": "-9999999999999999999999999999999999"}}]`,
			pipeline: one(`{"$sum": "$v"}`), want: `[{"r": {"$numberDecimal": "1"}}]`},
		{name: "avg of decimals is a decimal", ref: accAvgSrc, cov: at("$avg"), docs: `[{"_id": 1, "v": {"$numberDecimal": "1"}}, {"_id": 2, "v": 2}]`,
			pipeline: one(`{"$avg": "$v"}`), want: `[{"r": {"$numberDecimal": "1.5"}}]`},
		{name: "avg of longs near the limit does not overflow", ref: accAvgSrc, cov: at("$avg"),
			docs:     `[{"_id": 1, "v": {"$numberLong": "9223372036854775807"}}, {"_id": 2, "v": {"$numberLong": "9223372036854775807"}}]`,
			pipeline: one(`{"$avg": "$v"}`), want: `[{"r": 9.223372036854775807e18}]`},
		// $min / $max
		{name: "min skips null and missing", ref: "src/mongo/db/pipeline/accumulator_min_max.cpp", cov: a("$min"), docs: mixed,
			pipeline: one(`{"$min": "$v"}`), want: `[{"r": 1}]`},
		{name: "max orders across types", ref: "src/mongo/db/pipeline/accumulator_min_max.cpp", cov: a("$max"), docs: mixed,
			pipeline: one(`{"$max": "$v"}`), want: `[{"r": "s"}]`},
		{name: "min of only nulls is null", ref: "src/mongo/db/pipeline/accumulator_min_max.cpp", cov: a("$min"), docs: `[{"v": null}, {}]`,
			pipeline: one(`{"$min": "$v"}`), want: `[{"r": null}]`},
		{name: "max keeps the value's type", ref: "src/mongo/db/pipeline/accumulator_min_max.cpp", cov: at("$max"),
			docs: `[{"_id": 1, "v": {"$numberLong": "5"}}, {"_id": 2, "v": 4.5}]`, pipeline: one(`{"$max": "$v"}`), want: `[{"r": {"$numberLong": "5"}}]`},
		// $first / $last
		{name: "first of a missing value is null", ref: "src/mongo/db/pipeline/accumulator_first.cpp", cov: a("$first"),
			docs: `[{"_id": 1}, {"_id": 2, "v": 2}]`, pipeline: one(`{"$first": "$v"}`), want: `[{"r": null}]`},
		{name: "last follows the input order", ref: "src/mongo/db/pipeline/accumulator_last.cpp", cov: a("$last"), docs: mixed,
			pipeline: one(`{"$last": "$v"}`), want: `[{"r": 2.5}]`},
		// $push / $addToSet
		{name: "push skips missing, keeps null", ref: "src/mongo/db/pipeline/accumulator_push.cpp", cov: a("$push"), docs: mixed,
			pipeline: one(`{"$push": "$v"}`), want: `[{"r": [1, null, "s", 2.5]}]`},
		{name: "addToSet treats 1 and 1.0 as one value", ref: "src/mongo/db/pipeline/accumulator_add_to_set.cpp", cov: a("$addToSet"),
			docs:     `[{"_id": 1, "v": 1}, {"_id": 2, "v": 1.0}, {"_id": 3}, {"_id": 4, "v": [1]}, {"_id": 5, "v": [1]}]`,
			pipeline: `[{"$group": {"_id": null, "r": {"$addToSet": "$v"}}}, {"$project": {"_id": 0, "n": {"$size": "$r"}}}]`,
			want:     `[{"n": 2}]`},
		// $mergeObjects
		{name: "mergeObjects: later fields win, null skipped", ref: "src/mongo/db/pipeline/accumulator_merge_objects.cpp", cov: a("$mergeObjects"),
			docs:     `[{"_id": 1, "v": {"a": 1, "b": 1}}, {"_id": 2, "v": null}, {"_id": 3, "v": {"b": 2, "c": 3}}]`,
			pipeline: one(`{"$mergeObjects": "$v"}`), want: `[{"r": {"a": 1, "b": 2, "c": 3}}]`},
		{name: "mergeObjects of a number", ref: "src/mongo/db/pipeline/accumulator_merge_objects.cpp", cov: ae("$mergeObjects"),
			docs: `[{"v": 5}]`, pipeline: one(`{"$mergeObjects": "$v"}`),
			code: 40400, msg: planExecutor + "$mergeObjects requires object inputs, but input 5 is of type int"},
		// $stdDevPop / $stdDevSamp
		{name: "stdDevPop", ref: "src/mongo/db/pipeline/accumulator_std_dev.cpp", cov: a("$stdDevPop"),
			docs: `[{"_id": 1, "v": 2}, {"_id": 2, "v": 4}, {"_id": 3, "v": "x"}]`, pipeline: one(`{"$stdDevPop": "$v"}`), want: `[{"r": 1.0}]`},
		{name: "stdDevSamp of one value is null", ref: "src/mongo/db/pipeline/accumulator_std_dev.cpp", cov: a("$stdDevSamp"),
			docs: `[{"v": 2}]`, pipeline: one(`{"$stdDevSamp": "$v"}`), want: `[{"r": null}]`},
		// $count
		{name: "count", ref: "manual: reference/operator/aggregation/count-accumulator", cov: a("$count"), docs: mixed,
			pipeline: one(`{"$count": {}}`), want: `[{"r": 5}]`},
		{name: "count takes no argument", ref: "manual: reference/operator/aggregation/count-accumulator", cov: ae("$count"),
			pipeline: one(`{"$count": {"a": 1}}`), code: 14, msg: "$count takes no arguments, i.e. $count:{}"},

		// The accumulation statement.
		{name: "not an accumulator object", ref: accStmtSrc, cov: ae("$sum"), pipeline: one(`1`),
			code: 40234, msg: "The field 'r' must be an accumulator object"},
		{name: "a dotted output field", ref: accStmtSrc, cov: ae("$sum"), pipeline: `[{"$group": {"_id": null, "a.b": {"$sum": 1}}}]`,
			code: 40235, msg: "The field name 'a.b' cannot contain '.'"},
		{name: "an operator as output field", ref: accStmtSrc, cov: ae("$sum"), pipeline: `[{"$group": {"_id": null, "$a": {"$sum": 1}}}]`,
			code: 40236, msg: "The field name '$a' cannot be an operator name"},
		{name: "two accumulators in one field", ref: accStmtSrc, cov: ae("$sum"), pipeline: one(`{"$sum": 1, "$avg": 1}`),
			code: 40238, msg: "The field 'r' must specify one accumulator"},
		{name: "an array argument", ref: accStmtSrc, cov: ae("$sum"), pipeline: one(`{"$sum": [1, 2]}`),
			code: 40237, msg: "The $sum accumulator is a unary operator"},
		{name: "an array argument is refused before the name is looked up", ref: accStmtSrc, cov: ae("$topN"), pipeline: one(`{"$topN": [1]}`),
			code: 40237, msg: "The $topN accumulator is a unary operator"},
		{name: "an unknown accumulator", ref: accStmtSrc, cov: ae("$sum"), pipeline: one(`{"$summ": 1}`),
			code: 15952, msg: "unknown group operator '$summ'"},
		{name: "an expression operator is no accumulator", ref: accStmtSrc, cov: ae("$sum"), pipeline: one(`{"$add": [1]}`),
			code: 40237, msg: "The $add accumulator is a unary operator"},
	})
}
