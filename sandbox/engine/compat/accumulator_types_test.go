package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

const (
	accFirstSrc    = "src/mongo/db/pipeline/accumulator_first.cpp"
	accLastSrc     = "src/mongo/db/pipeline/accumulator_last.cpp"
	accMinMaxSrc   = "src/mongo/db/pipeline/accumulator_min_max.cpp"
	accPushSrc     = "src/mongo/db/pipeline/accumulator_push.cpp"
	accAddToSetSrc = "src/mongo/db/pipeline/accumulator_add_to_set.cpp"
	accMergeSrc    = "src/mongo/db/pipeline/accumulator_merge_objects.cpp"
	accStdDevSrc   = "src/mongo/db/pipeline/accumulator_std_dev.cpp"
	accPctSrc      = "src/mongo/db/pipeline/accumulator_percentile.cpp"
)

// The BSON types the $group accumulators take and answer, and the
// refusals of their arguments: accumulation_statement.cpp refuses an
// array argument of any accumulator (40237) before it looks the name up,
// and each parser then validates its own object.
func TestAccumulatorsTypes(t *testing.T) {
	a := func(op string) cover { return cover{family: accumulator, op: op} }
	at := func(op string) cover { return cover{family: accumulator, op: op, col: types} }
	ae := func(op string) cover { return cover{family: accumulator, op: op, col: errorCol} }
	one := func(acc string) string {
		return `[{"$sort": {"_id": 1}}, {"$group": {"_id": null, "r": ` + acc + `}}, {"$project": {"_id": 0}}]`
	}
	unary := func(op string) aggCase {
		return aggCase{name: op + " takes one expression, not an array", ref: accStmtSrc, cov: ae(op),
			pipeline: one(`{"` + op + `": ["$v"]}`), code: 40237, msg: "The " + op + " accumulator is a unary operator"}
	}
	typed := `[{"_id": 1, "v": {"$numberLong": "7"}}, {"_id": 2, "v": 2.5}, {"_id": 3, "v": {"$numberDecimal": "9"}}]`
	runAggCases(t, []aggCase{
		unary("$addToSet"), unary("$avg"), unary("$first"), unary("$last"), unary("$max"), unary("$min"),
		unary("$push"), unary("$stdDevPop"), unary("$stdDevSamp"),

		// With a decimal, the doubles' total joins it as
		// DoubleDoubleSummation::getDecimal converts it: to 34 digits, so
		// 0.1 is 0.1000000000000000055511151231257827 (AccumulatorSum::getValue).
		{name: "sum of a decimal and a double keeps the double's 34 digits", ref: accSumSrc, cov: at("$sum"),
			docs:     `[{"_id": 1, "v": {"$numberDecimal": "1"}}, {"_id": 2, "v": 0.1}]`,
			pipeline: one(`{"$sum": "$v"}`), want: `[{"r": {"$numberDecimal": "1.100000000000000005551115123125783"}}]`},
		{name: "avg of a decimal and a double divides that total", ref: accAvgSrc, cov: at("$avg"),
			docs:     `[{"_id": 1, "v": {"$numberDecimal": "0"}}, {"_id": 2, "v": 0.1}]`,
			pipeline: one(`{"$avg": "$v"}`), want: `[{"r": {"$numberDecimal": "0.05000000000000000277555756156289135"}}]`},

		// $first / $last answer the value as it is.
		{name: "first keeps a long", ref: accFirstSrc, cov: at("$first"), docs: typed,
			pipeline: one(`{"$first": "$v"}`), want: `[{"r": {"$numberLong": "7"}}]`},
		{name: "last keeps a decimal", ref: accLastSrc, cov: at("$last"), docs: typed,
			pipeline: one(`{"$last": "$v"}`), want: `[{"r": {"$numberDecimal": "9"}}]`},
		{name: "last of a missing value is null", ref: accLastSrc, cov: at("$last"), docs: `[{"_id": 1, "v": 1}, {"_id": 2}]`,
			pipeline: one(`{"$last": "$v"}`), want: `[{"r": null}]`},
		// $min / $max compare across numeric types and keep the winner's.
		{name: "min keeps the double it found", ref: accMinMaxSrc, cov: at("$min"), docs: typed,
			pipeline: one(`{"$min": "$v"}`), want: `[{"r": 2.5}]`},
		{name: "min of a long and an equal double keeps the first", ref: accMinMaxSrc, cov: at("$min"),
			docs:     `[{"_id": 1, "v": {"$numberLong": "3"}}, {"_id": 2, "v": 3.0}]`,
			pipeline: one(`{"$min": "$v"}`), want: `[{"r": {"$numberLong": "3"}}]`},
		// $push keeps every value with its type, null too.
		{name: "push keeps the types and null", ref: accPushSrc, cov: at("$push"),
			docs:     `[{"_id": 1, "v": {"$numberLong": "1"}}, {"_id": 2, "v": null}, {"_id": 3, "v": {"$numberDecimal": "2"}}, {"_id": 4, "v": [1]}]`,
			pipeline: one(`{"$push": "$v"}`), want: `[{"r": [{"$numberLong": "1"}, null, {"$numberDecimal": "2"}, [1]]}]`},
		// $addToSet: equal numbers of different types are one value, the
		// one inserted first.
		{name: "addToSet keeps the first of equal numbers", ref: accAddToSetSrc, cov: at("$addToSet"),
			docs:     `[{"_id": 1, "v": {"$numberLong": "2"}}, {"_id": 2, "v": 2.0}, {"_id": 3, "v": {"$numberDecimal": "2"}}]`,
			pipeline: one(`{"$addToSet": "$v"}`), want: `[{"r": [{"$numberLong": "2"}]}]`},
		{name: "addToSet keeps null, skips missing", ref: accAddToSetSrc, cov: at("$addToSet"),
			docs:     `[{"_id": 1, "v": null}, {"_id": 2}]`,
			pipeline: one(`{"$addToSet": "$v"}`), want: `[{"r": [null]}]`},
		// $stdDevPop / $stdDevSamp are doubles whatever the input.
		{name: "stdDevPop of longs is a double", ref: accStdDevSrc, cov: at("$stdDevPop"),
			docs:     `[{"_id": 1, "v": {"$numberLong": "1"}}, {"_id": 2, "v": {"$numberLong": "3"}}]`,
			pipeline: one(`{"$stdDevPop": "$v"}`), want: `[{"r": 1.0}]`},
		{name: "stdDevPop of no numbers is null", ref: accStdDevSrc, cov: at("$stdDevPop"),
			docs: `[{"_id": 1, "v": "a"}, {"_id": 2}]`, pipeline: one(`{"$stdDevPop": "$v"}`), want: `[{"r": null}]`},
		{name: "stdDevSamp of ints is a double", ref: accStdDevSrc, cov: at("$stdDevSamp"),
			docs:     `[{"_id": 1, "v": 1}, {"_id": 2, "v": 3}, {"_id": 3, "v": "x"}]`,
			pipeline: one(`{"$stdDevSamp": "$v"}`), want: `[{"r": 1.4142135623730951}]`},
		// $count is $sum: 1, an int.
		{name: "count is an int", ref: "manual: reference/operator/aggregation/count-accumulator", cov: at("$count"),
			docs: `[{"_id": 1}, {"_id": 2}]`, pipeline: one(`{"$count": {}}`), want: `[{"r": 2}]`},
		// $mergeObjects keeps each field's value and type; a non-object is refused.
		{name: "mergeObjects keeps the values' types", ref: accMergeSrc, cov: at("$mergeObjects"),
			docs:     `[{"_id": 1, "v": {"a": {"$numberLong": "1"}}}, {"_id": 2}, {"_id": 3, "v": {"b": {"$numberDecimal": "2"}}}]`,
			pipeline: one(`{"$mergeObjects": "$v"}`), want: `[{"r": {"a": {"$numberLong": "1"}, "b": {"$numberDecimal": "2"}}}]`},
		{name: "mergeObjects of an array", ref: accMergeSrc, cov: at("$mergeObjects"),
			docs: `[{"v": [1, 2]}]`, pipeline: one(`{"$mergeObjects": "$v"}`),
			code: 40400, msg: planExecutor + "$mergeObjects requires object inputs, but input [1, 2] is of type array"},

		// $top / $bottom / $topN / $bottomN order across types by BSON order
		// (numbers before strings) and answer output as it is.
		{name: "top orders numbers before strings", ref: accMultiSrc, cov: at("$top"),
			docs:     `[{"_id": 1, "k": "a", "o": 1}, {"_id": 2, "k": 5, "o": {"$numberLong": "2"}}]`,
			pipeline: one(`{"$top": {"output": "$o", "sortBy": {"k": 1}}}`), want: `[{"r": {"$numberLong": "2"}}]`},
		{name: "bottom orders numbers before strings", ref: accMultiSrc, cov: at("$bottom"),
			docs:     `[{"_id": 1, "k": "a", "o": {"$numberDecimal": "1"}}, {"_id": 2, "k": 5, "o": 2}]`,
			pipeline: one(`{"$bottom": {"output": "$o", "sortBy": {"k": 1}}}`), want: `[{"r": {"$numberDecimal": "1"}}]`},
		{name: "topN takes n as a long", ref: accMultiSrc, cov: at("$topN"),
			docs:     `[{"_id": 1, "k": 1}, {"_id": 2, "k": 2}, {"_id": 3, "k": 3}]`,
			pipeline: one(`{"$topN": {"n": {"$numberLong": "2"}, "output": "$k", "sortBy": {"k": -1}}}`), want: `[{"r": [3, 2]}]`},
		{name: "bottomN takes n as a whole double", ref: accMultiSrc, cov: at("$bottomN"),
			docs:     `[{"_id": 1, "k": 1}, {"_id": 2, "k": 2}, {"_id": 3, "k": 3}]`,
			pipeline: one(`{"$bottomN": {"n": 2.0, "output": "$k", "sortBy": {"k": -1}}}`), want: `[{"r": [2, 1]}]`},
		{name: "bottomN: a missing sort key sorts first", ref: accMultiSrc, cov: at("$bottomN"),
			docs:     `[{"_id": 1, "k": null}, {"_id": 2}, {"_id": 3, "k": 0}]`,
			pipeline: one(`{"$bottomN": {"n": 1, "output": "$_id", "sortBy": {"k": 1}}}`), want: `[{"r": [3]}]`},
		{name: "topN's sortBy must be an object", ref: accMultiSrc + " accumulatorNParseArgs (BSONElement::Obj)", cov: ae("$topN"),
			pipeline: one(`{"$topN": {"n": 1, "output": "$k", "sortBy": 1}}`),
			code:     10065, msg: "invalid parameter: expected an object (sortBy)"},
		{name: "lastN takes n as a long, keeps the values' types", ref: accMultiSrc, cov: at("$lastN"),
			docs:     `[{"_id": 1, "v": 1}, {"_id": 2, "v": {"$numberLong": "2"}}, {"_id": 3, "v": 2.5}]`,
			pipeline: one(`{"$lastN": {"input": "$v", "n": {"$numberLong": "2"}}}`), want: `[{"r": [{"$numberLong": "2"}, 2.5]}]`},

		// $percentile / $median: numbers of every type are coerced to double.
		{name: "percentile of longs and decimals is doubles", ref: accPctSrc, cov: at("$percentile"),
			docs:     `[{"_id": 1, "x": {"$numberLong": "1"}}, {"_id": 2, "x": {"$numberDecimal": "2"}}, {"_id": 3, "x": 3}]`,
			pipeline: one(`{"$percentile": {"input": "$x", "p": [0, 1], "method": "approximate"}}`), want: `[{"r": [1.0, 3.0]}]`},
		{name: "median of ints is a double", ref: accPctSrc, cov: at("$median"),
			docs:     `[{"_id": 1, "x": 1}, {"_id": 2, "x": 2}, {"_id": 3, "x": 4}]`,
			pipeline: one(`{"$median": {"input": "$x", "method": "approximate"}}`), want: `[{"r": 2.0}]`},
		{name: "median of no numbers is null", ref: accPctSrc, cov: at("$median"),
			docs: `[{"_id": 1, "x": "a"}, {"_id": 2, "x": null}]`, pipeline: one(`{"$median": {"input": "$x", "method": "approximate"}}`), want: `[{"r": null}]`},
		{name: "median of an even count is the lower middle value", ref: percentileRef, cov: a("$median"),
			docs:     `[{"_id": 1, "x": 4}, {"_id": 2, "x": 1}, {"_id": 3, "x": 3}, {"_id": 4, "x": 2}]`,
			pipeline: one(`{"$median": {"input": "$x", "method": "approximate"}}`), want: `[{"r": 2.0}]`},
		{name: "percentile answers in the order of p", ref: percentileRef, cov: a("$percentile"),
			docs:     `[{"_id": 1, "x": 4}, {"_id": 2, "x": 1}, {"_id": 3, "x": 3}, {"_id": 4, "x": 2}]`,
			pipeline: one(`{"$percentile": {"input": "$x", "p": [1, 0.5, 0], "method": "approximate"}}`), want: `[{"r": [4.0, 2.0, 1.0]}]`},
		{name: "percentile spec must be an object", ref: accPctSrc, cov: ae("$percentile"),
			pipeline: one(`{"$percentile": 1}`), code: 7429703, msg: "specification must be an object; found $percentile: 1"},
		{name: "median spec must be an object", ref: accPctSrc, cov: ae("$median"),
			pipeline: one(`{"$median": "$x"}`), code: 7436100, msg: `specification must be an object; found $median: "$x"`},
		{name: "median takes no p", ref: accPctSrc, cov: ae("$median"),
			pipeline: one(`{"$median": {"input": "$x", "p": [0.5], "method": "approximate"}}`),
			code:     mongoerr.IDLUnknownField, msg: "BSON field '$median.p' is an unknown field."},
		{name: "median needs an input", ref: accPctSrc, cov: ae("$median"),
			pipeline: one(`{"$median": {"method": "approximate"}}`),
			code:     mongoerr.IDLFailedToParse, msg: "BSON field '$median.input' is missing but a required field"},
		{name: "percentile needs p", ref: accPctSrc, cov: ae("$percentile"),
			pipeline: one(`{"$percentile": {"input": "$x", "method": "approximate"}}`),
			code:     mongoerr.IDLFailedToParse, msg: "BSON field '$percentile.p' is missing but a required field"},
		{name: "percentile p must be constant", ref: accPctSrc, cov: ae("$percentile"),
			pipeline: one(`{"$percentile": {"input": "$x", "p": "$ps", "method": "approximate"}}`),
			code:     7750300, msg: `The $percentile 'p' field must be an array of constant values, but found value: "$ps".`},
		{name: "percentile p must not be empty", ref: accPctSrc, cov: ae("$percentile"),
			pipeline: one(`{"$percentile": {"input": "$x", "p": [], "method": "approximate"}}`),
			code:     7750301, msg: "The $percentile 'p' field must be an array of numbers from [0.0, 1.0], but found: []"},
		{name: "percentile p must hold numbers", ref: accPctSrc, cov: ae("$percentile"),
			pipeline: one(`{"$percentile": {"input": "$x", "p": [0.5, true], "method": "approximate"}}`),
			code:     7750302, msg: "The $percentile 'p' field must be an array of numbers from [0.0, 1.0], but found: true"},
	})
}
