package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// $_internalJsReduce (mapReduce's reduce as an accumulator) is parsed by
// AccumulatorInternalJsReduce::parseInternalJsReduce
// (src/mongo/db/pipeline/accumulator_js_reduce.cpp; mongod's own
// "recieved" spelling) before any JavaScript runs; past that the sandbox,
// which has no JavaScript engine, refuses it as it refuses $accumulator.
// jstests/aggregation/accumulators/internal_js_reduce.js.
func TestAccumulatorInternalJsReduce(t *testing.T) {
	const ref = "src/mongo/db/pipeline/accumulator_js_reduce.cpp parseInternalJsReduce; jstests/aggregation/accumulators/internal_js_reduce.js"
	group := func(acc string) string {
		return `[{"$group": {"_id": "$word", "n": {"$_internalJsReduce": ` + acc + `}}}]`
	}
	docs := `[{"_id": 1, "word": "hi", "val": 1}]`
	runAggCases(t, []aggCase{
		{name: "a valid reduce is refused, not unknown", ref: ref, docs: docs,
			pipeline: group(`{"data": {"k": "$word", "v": "$val"}, "eval": "function(key, values) { return Array.sum(values); }"}`),
			code:     mongoerr.NotImplemented},
		{name: "eval as code is refused too", ref: ref, docs: docs,
			pipeline: group(`{"data": {"k": "$word", "v": "$val"}, "eval": {"$code": "function(k, v) { return 1; }"}}`),
			code:     mongoerr.NotImplemented},
		{name: "not a document", ref: ref, docs: docs,
			pipeline: group(`"x"`), code: 31326, msg: "$_internalJsReduce requires a document argument, but found string"},
		{name: "eval not a string", ref: ref, docs: docs,
			pipeline: group(`{"data": "$val", "eval": 1}`), code: 31244, msg: "$_internalJsReduce requires the 'eval' argument to be of type string, or code but found int"},
		{name: "an unknown field", ref: ref, docs: docs,
			pipeline: group(`{"data": "$val", "eval": "f", "x": 1}`), code: 31243, msg: "Invalid argument specified to $_internalJsReduce: x: 1"},
		{name: "eval missing", ref: ref, docs: docs,
			pipeline: group(`{"data": "$val"}`), code: 31245, msg: `$_internalJsReduce requires 'eval' argument, recieved input: { data: "$val" }`},
		{name: "eval empty", ref: ref, docs: docs,
			pipeline: group(`{"data": "$val", "eval": ""}`), code: 31245},
		{name: "data missing", ref: ref, docs: docs,
			pipeline: group(`{"eval": "f"}`), code: 31349, msg: `$_internalJsReduce requires 'data' argument, recieved input: { eval: "f" }`},
		{name: "data is an expression that must parse", ref: ref, docs: docs,
			pipeline: group(`{"data": {"$bogus": 1}, "eval": "f"}`), code: 168},
	})
}
