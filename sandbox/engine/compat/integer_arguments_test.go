package compat_test

import (
	"fmt"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// BSONElement::parseIntegerElementToLong (src/mongo/bson/bsonelement.cpp)
// tells four failures apart, each naming the element as toString(true,
// true) prints it (a double through appendDoubleNice, "%.16g" plus ".0"
// when that has no '.', a decimal bare): "Expected a number in:", "Expected
// an integer, but found NaN in:", "Cannot represent as a 64-bit integer:"
// (a double at or beyond ±2^63, or a decimal Decimal128::toLongExact
// refuses) and "Expected an integer:". $skip and $limit
// (document_source_skip.cpp/document_source_limit.cpp, 5107200/5107201)
// prefix the reason; so 8.0 refuses $skip: 18446744073709552000, which
// jstests/aggregation/bugs/skip_limit_overflow.js (2020) still expected
// to be clamped.
func TestIntegerArguments(t *testing.T) {
	const (
		skipRef  = "src/mongo/db/pipeline/document_source_skip.cpp createFromBson (parseIntegerElementToNonNegativeLong)"
		limitRef = "src/mongo/db/pipeline/document_source_limit.cpp createFromBson (parseIntegerElementToNonNegativeLong)"
		sample   = "src/mongo/db/pipeline/document_source_sample.cpp createFromBson (safeNumberLong)"
	)
	five := `[{"_id": 1}, {"_id": 2}, {"_id": 3}, {"_id": 4}, {"_id": 5}]`
	runAggCases(t, []aggCase{
		{name: "skip beyond the long range is refused", ref: skipRef + "; jstests/aggregation/bugs/skip_limit_overflow.js",
			pipeline: `[{"$skip": 18446744073709552000}]`, code: 5107200, msg: "invalid argument to $skip stage: Cannot represent as a 64-bit integer: $skip: 1.844674407370955e+19"},
		{name: "skip of 2^63 is refused", ref: skipRef + " (kLongLongMaxPlusOneAsDouble)",
			pipeline: `[{"$skip": 9223372036854775808.0}]`, code: 5107200, msg: "invalid argument to $skip stage: Cannot represent as a 64-bit integer: $skip: 9.223372036854776e+18"},
		{name: "skip of NaN", ref: skipRef,
			pipeline: `[{"$skip": {"$numberDouble": "NaN"}}]`, code: 5107200, msg: "invalid argument to $skip stage: Expected an integer, but found NaN in: $skip: nan.0"},
		{name: "skip of infinity", ref: skipRef,
			pipeline: `[{"$skip": {"$numberDouble": "Infinity"}}]`, code: 5107200, msg: "invalid argument to $skip stage: Cannot represent as a 64-bit integer: $skip: inf.0"},
		{name: "skip of 1e20 prints appendDoubleNice's .0", ref: skipRef + "; src/mongo/util/str.h appendDoubleNice",
			pipeline: `[{"$skip": 1e20}]`, code: 5107200, msg: "invalid argument to $skip stage: Cannot represent as a 64-bit integer: $skip: 1e+20.0"},
		{name: "skip of a fractional decimal", ref: skipRef + " (Decimal128::toLongExact)",
			pipeline: `[{"$skip": {"$numberDecimal": "1.5"}}]`, code: 5107200, msg: "invalid argument to $skip stage: Cannot represent as a 64-bit integer: $skip: 1.5"},
		{name: "skip of a whole decimal", ref: skipRef, docs: five,
			pipeline: `[{"$skip": {"$numberDecimal": "3"}}, {"$count": "n"}]`, want: `[{"n": 2}]`},
		{name: "skip of a negative double", ref: skipRef,
			pipeline: `[{"$skip": -2.0}]`, code: 5107200, msg: "invalid argument to $skip stage: Expected a non-negative number in: $skip: -2.0"},
		{name: "skip of an object", ref: skipRef,
			pipeline: `[{"$skip": {"a": 1}}]`, code: 5107200, msg: "invalid argument to $skip stage: Expected a number in: $skip: { a: 1 }"},
		{name: "limit beyond the long range is refused", ref: limitRef + "; jstests/aggregation/bugs/skip_limit_overflow.js",
			pipeline: `[{"$limit": 18446744073709552000}]`, code: 5107201, msg: "invalid argument to $limit stage: Cannot represent as a 64-bit integer: $limit: 1.844674407370955e+19"},
		{name: "limit of NaN", ref: limitRef,
			pipeline: `[{"$limit": {"$numberDouble": "NaN"}}]`, code: 5107201, msg: "invalid argument to $limit stage: Expected an integer, but found NaN in: $limit: nan.0"},
		{name: "limit of a negative decimal", ref: limitRef,
			pipeline: `[{"$limit": {"$numberDecimal": "-2"}}]`, code: 5107201, msg: "invalid argument to $limit stage: Expected a non-negative number in: $limit: -2"},
		// $sample reads its size with safeNumberLong: beyond the long range
		// it saturates (skip_limit_overflow.js's $sample cases).
		{name: "sample size beyond the long range is the largest long", ref: sample + "; jstests/aggregation/bugs/skip_limit_overflow.js", docs: five,
			pipeline: `[{"$sample": {"size": 18446744073709552000}}, {"$count": "n"}]`, want: `[{"n": 5}]`},
		{name: "sample size of NaN is zero", ref: sample, docs: five,
			pipeline: `[{"$sample": {"size": {"$numberDouble": "NaN"}}}, {"$count": "n"}]`, want: `[]`},
		{name: "sample size of minus infinity is negative", ref: sample,
			pipeline: `[{"$sample": {"size": {"$numberDouble": "-Infinity"}}}]`, code: 28747, msg: "size argument to $sample must not be negative"},
	})
	runUpdateCases(t, []updateCase{
		{name: "$pop of NaN", ref: "src/mongo/db/update/pop_node.cpp init (parseIntegerElementToLong)", docs: `[{"_id":1,"a":[1]}]`, filter: `{"_id":1}`,
			update: `{"$pop":{"a":{"$numberDouble":"NaN"}}}`, code: mongoerr.FailedToParse, msg: "Expected an integer, but found NaN in: a: nan.0"},
		{name: "$pop of 1e20", ref: "src/mongo/db/update/pop_node.cpp init (parseIntegerElementToLong)", docs: `[{"_id":1,"a":[1]}]`, filter: `{"_id":1}`,
			update: `{"$pop":{"a":1e20}}`, code: mongoerr.FailedToParse, msg: "Cannot represent as a 64-bit integer: a: 1e+20.0"},
		{name: "$pop of a fractional decimal", ref: "src/mongo/db/update/pop_node.cpp init (parseIntegerElementToLong)", docs: `[{"_id":1,"a":[1]}]`, filter: `{"_id":1}`,
			update: `{"$pop":{"a":{"$numberDecimal":"1.5"}}}`, code: mongoerr.FailedToParse, msg: "Cannot represent as a 64-bit integer: a: 1.5"},
		{name: "$pop of a whole decimal", ref: "src/mongo/db/update/pop_node.cpp init (parseIntegerElementToLong)", docs: `[{"_id":1,"a":[1,2]}]`, filter: `{"_id":1}`,
			update: `{"$pop":{"a":{"$numberDecimal":"-1"}}}`, want: `[{"_id":1,"a":[2]}]`, modified: `1`},
	})
	runFindCases(t, []findCase{
		{name: "$size of a decimal beyond the long range", ref: "src/mongo/db/matcher/expression_parser.cpp parseSize (parseIntegerElementToNonNegativeInt)",
			filter: `{"a":{"$size":{"$numberDecimal":"1e30"}}}`, code: mongoerr.BadValue, msg: "Failed to parse $size. Cannot represent as a 64-bit integer: $size: 1E+30"},
		{name: "$bitsAllSet mask of NaN", ref: "src/mongo/db/matcher/expression_parser.cpp parseBitTest (parseIntegerElementToLong)",
			filter: `{"a":{"$bitsAllSet":{"$numberDouble":"NaN"}}}`, code: mongoerr.FailedToParse, msg: "Expected an integer, but found NaN in: $bitsAllSet: nan.0"},
		{name: "$bitsAllSet mask of 2^63", ref: "src/mongo/db/matcher/expression_parser.cpp parseBitTest (parseIntegerElementToLong)",
			filter: `{"a":{"$bitsAllSet":9223372036854775808.0}}`, code: mongoerr.FailedToParse, msg: "Cannot represent as a 64-bit integer: $bitsAllSet: 9.223372036854776e+18"},
	})
}

// extractLimitForPushdown and DocumentSourceSkip::doOptimizeAt refuse a
// sum that would overflow: the $limit (or the second $skip) then stays in
// the pipeline; extractSkipForPushdown leaves an overflowing $skip in
// place and still sums the skips after it
// (src/mongo/db/pipeline/skip_and_limit.cpp;
// jstests/aggregation/bugs/skip_limit_overflow.js).
func TestSkipLimitOverflowExplain(t *testing.T) {
	const ref = "jstests/aggregation/bugs/skip_limit_overflow.js; src/mongo/db/pipeline/skip_and_limit.cpp"
	s := newSuite(t)
	cases := []struct{ name, pipeline, chain, rest string }{
		{"a limit after a skip of the largest long stays", `[{"$sort": {"x": -1}}, {"$skip": {"$numberLong": "9223372036854775807"}}, {"$limit": 1}]`,
			"SKIP(9223372036854775807)>SORT>COLLSCAN", `[{"$limit": {"$numberLong": "1"}}]`},
		{"a limit that fits folds into the sort", `[{"$sort": {"x": -1}}, {"$skip": {"$numberLong": "9223372036854775806"}}, {"$limit": 1}]`,
			"SKIP(9223372036854775806)>SORT(9223372036854775807)>COLLSCAN", `[]`},
		{"a second limit past an overflowing skip stays", `[{"$sort": {"x": -1}}, {"$skip": {"$numberLong": "9223372036854775800"}}, {"$limit": 7}, {"$skip": 10}, {"$limit": 1}]`,
			"SKIP(9223372036854775800)>SORT(9223372036854775807)>COLLSCAN", `[{"$skip": {"$numberLong": "10"}}, {"$limit": {"$numberLong": "1"}}]`},
		{"skips that overflow stay apart", `[{"$sort": {"x": -1}}, {"$skip": 1}, {"$skip": {"$numberLong": "9223372036854775807"}}, {"$limit": 1}]`,
			"SKIP(1)>SORT>COLLSCAN", `[{"$skip": {"$numberLong": "9223372036854775807"}}, {"$limit": {"$numberLong": "1"}}]`},
		{"the skips after an overflowing one are still pushed down", `[{"$sort": {"x": -1}}, {"$skip": 1}, {"$skip": 2}, {"$skip": {"$numberLong": "9223372036854775807"}}, {"$skip": 3}, {"$skip": 4}]`,
			"SKIP(10)>SORT>COLLSCAN", `[{"$skip": {"$numberLong": "9223372036854775807"}}]`},
	}
	for _, tc := range cases {
		s.runCase(t, tc.name, ref, explainCase(stage, "$skip"), func(t *testing.T, db *mongo.Database) {
			mustCommand(t, db, `{"create": "c"}`)
			reply := aggExplain(t, db, tc.pipeline, "queryPlanner")
			// With every stage in the query layer the explain is the
			// plan alone (optimizedPipeline).
			cur, rest := reply, bson.A{}
			if stages, _ := field(reply, "stages").(bson.A); len(stages) > 0 {
				cur, _ = field(stages[0].(bson.D), "$cursor").(bson.D)
				rest = stages[1:]
			}
			if got := amountChain(winningPlan(t, cur)); got != tc.chain {
				t.Errorf("plan %s, want %s", got, tc.chain)
			}
			sameValue(t, "pipeline after $cursor", rest, tc.rest)
		})
	}
}

// amountChain is stageChain with each SKIP's skipAmount and SORT's
// limitAmount.
func amountChain(plan bson.D) string {
	out := ""
	for plan != nil {
		if out != "" {
			out += ">"
		}
		out += field(plan, "stage").(string)
		if n := field(plan, "skipAmount"); n != nil {
			out += fmt.Sprintf("(%v)", n)
		} else if n := field(plan, "limitAmount"); n != nil {
			out += fmt.Sprintf("(%v)", n)
		}
		plan, _ = field(plan, "inputStage").(bson.D)
	}
	return out
}
