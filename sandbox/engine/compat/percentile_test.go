package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// $percentile and $median with method 'approximate': mongod's t-digest is
// exact while each centroid holds one value, which is the case for these
// small inputs, so the results are the discrete percentiles, ranked as
// PercentileAlgorithm::computeTrueRank does (ceil(n*p) - 1, p = 0 the
// minimum, p = 1 the maximum). Expressions compute them exactly.
const (
	percentileRef = "manual: reference/operator/aggregation/percentile; src/mongo/db/pipeline/percentile_algo_tdigest.cpp"
	medianRef     = "manual: reference/operator/aggregation/median; src/mongo/db/pipeline/accumulator_percentile.cpp"
)

func TestPercentileAndMedian(t *testing.T) {
	const ten = `[{"_id": 1, "x": 7}, {"_id": 2, "x": 2}, {"_id": 3, "x": 10}, {"_id": 4, "x": 4.5}, {"_id": 5, "x": 1},
		{"_id": 6, "x": 9}, {"_id": 7, "x": 3}, {"_id": 8, "x": 8}, {"_id": 9, "x": 6}, {"_id": 10, "x": 5}, {"_id": 11, "x": "text"}]`
	runAggCases(t, []aggCase{
		{name: "$percentile accumulator", ref: percentileRef, docs: ten,
			pipeline: `[{"$group": {"_id": null, "p": {"$percentile": {"input": "$x", "p": [0.5, 0.9, 0, 1, 0.25], "method": "approximate"}}}}]`,
			want:     `[{"_id": null, "p": [5.0, 9.0, 1.0, 10.0, 3.0]}]`},
		{name: "$median accumulator", ref: medianRef, docs: ten,
			pipeline: `[{"$group": {"_id": null, "m": {"$median": {"input": "$x", "method": "approximate"}}}}]`,
			want:     `[{"_id": null, "m": 5.0}]`},
		{name: "no numeric input gives nulls", ref: percentileRef, docs: `[{"_id": 1, "x": "a"}, {"_id": 2}]`,
			pipeline: `[{"$group": {"_id": null, "p": {"$percentile": {"input": "$x", "p": [0.1, 0.9], "method": "approximate"}}, "m": {"$median": {"input": "$x", "method": "approximate"}}}}]`,
			want:     `[{"_id": null, "p": [null, null], "m": null}]`},
		{name: "$percentile expression over an array", ref: percentileRef, docs: `[{"_id": 1, "a": [10, 1, "x", 4, 7]}, {"_id": 2, "a": 3}, {"_id": 3, "a": "s"}]`,
			pipeline: `[{"$project": {"p": {"$percentile": {"input": "$a", "p": [0.5, 1], "method": "approximate"}}, "m": {"$median": {"input": "$a", "method": "approximate"}}}}]`,
			want:     `[{"_id": 1, "p": [4.0, 10.0], "m": 4.0}, {"_id": 2, "p": [3.0, 3.0], "m": 3.0}, {"_id": 3, "p": [null, null], "m": null}]`},
		{name: "$median window", ref: medianRef, docs: `[{"_id": 1, "x": 5}, {"_id": 2, "x": 1}, {"_id": 3, "x": 3}]`,
			pipeline: `[{"$setWindowFields": {"sortBy": {"_id": 1}, "output": {"m": {"$median": {"input": "$x", "method": "approximate"}, "window": {"documents": ["unbounded", "current"]}}}}}]`,
			want:     `[{"_id": 1, "x": 5, "m": 5.0}, {"_id": 2, "x": 1, "m": 1.0}, {"_id": 3, "x": 3, "m": 3.0}]`},
		// accumulator_percentile.cpp parseP optimizes p before requiring
		// a constant, and a command-level let variable is a constant
		// (ExpressionFieldPath::optimize, SERVER-77503); one a $let
		// redefines is not. jstests/aggregation/accumulators/percentiles_approx.js.
		{name: "p may name a command-level let variable", ref: percentileRef + "; src/mongo/db/pipeline/accumulator_percentile.cpp (parseP); jstests/aggregation/accumulators/percentiles_approx.js",
			cov: cover{family: accumulator, op: "$percentile", col: semantics}, docs: ten, let: `{"ps": [0.5, 0.9, 0.1]}`,
			pipeline: `[{"$group": {"_id": null, "p": {"$percentile": {"input": "$x", "p": "$$ps", "method": "approximate"}}}}]`,
			want:     `[{"_id": null, "p": [5.0, 9.0, 1.0]}]`},
		{name: "p may hold command-level let variables", ref: percentileRef + "; src/mongo/db/pipeline/expression.cpp (ExpressionFieldPath::optimize, ExpressionArray::optimize); jstests/aggregation/accumulators/percentiles_approx.js",
			cov: cover{family: accumulator, op: "$percentile", col: semantics}, docs: ten, let: `{"p90": 0.9}`,
			pipeline: `[{"$group": {"_id": null, "p": {"$percentile": {"input": "$x", "p": ["$$p90", 0.5], "method": "approximate"}}}}]`,
			want:     `[{"_id": null, "p": [9.0, 5.0]}]`},
		{name: "p may be an operator over command-level let variables", ref: percentileRef + "; src/mongo/db/pipeline/expression.cpp (ExpressionFieldPath::optimize, ExpressionNary::optimize); jstests/aggregation/accumulators/percentiles_approx.js",
			cov: cover{family: accumulator, op: "$percentile", col: semantics}, docs: ten, let: `{"p90": 0.9}`,
			pipeline: `[{"$group": {"_id": null, "p": {"$percentile": {"input": "$x", "p": {"$concatArrays": [[0.1], ["$$p90"]]}, "method": "approximate"}}}}]`,
			want:     `[{"_id": null, "p": [1.0, 9.0]}]`},
		{name: "p naming a variable $let redefines is no constant", ref: percentileRef + "; src/mongo/db/pipeline/accumulator_percentile.cpp (parseP)",
			cov: cover{family: expression, op: "$percentile", col: errorCol}, docs: ten, let: `{"ps": [0.5]}`,
			pipeline: `[{"$project": {"p": {"$let": {"vars": {"ps": "$x"}, "in": {"$percentile": {"input": ["$x"], "p": "$$ps", "method": "approximate"}}}}}}]`,
			code:     7750300, msg: "Invalid $project :: caused by :: The $percentile 'p' field must be an array of constant values, but found value: \"$$ps\"."},
		{name: "only the approximate method", ref: percentileRef, docs: ten,
			pipeline: `[{"$group": {"_id": null, "p": {"$percentile": {"input": "$x", "p": [0.5], "method": "exact"}}}}]`,
			code:     mongoerr.BadValue, msg: "Currently only 'approximate' can be used as percentile 'method'."},
		{name: "p outside [0, 1]", ref: percentileRef, docs: ten,
			pipeline: `[{"$group": {"_id": null, "p": {"$percentile": {"input": "$x", "p": [0.5, 1.5], "method": "approximate"}}}}]`,
			code:     7750303, msg: "The $percentile 'p' field must be an array of numbers from [0.0, 1.0], but found: 1.5"},
		{name: "method is required", ref: medianRef, docs: ten,
			pipeline: `[{"$group": {"_id": null, "m": {"$median": {"input": "$x"}}}}]`,
			code:     mongoerr.IDLFailedToParse, msg: "BSON field '$median.method' is missing but a required field"},
	})
}
