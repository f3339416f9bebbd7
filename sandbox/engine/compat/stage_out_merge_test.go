package compat_test

import "testing"

const (
	outSrc   = "src/mongo/db/pipeline/document_source_out.cpp"
	mergeSrc = "src/mongo/db/pipeline/document_source_merge.cpp"
	statsSrc = "src/mongo/db/pipeline/document_source_coll_stats.cpp"
)

// $out's and $merge's specifications and targets, and $collStats's, as
// their parsers check them.
func TestStageOutMergeTargets(t *testing.T) {
	docs := `[{"_id": 1, "a": 1}]`
	runAggCases(t, []aggCase{
		{name: "$out of a number", ref: outSrc, docs: docs, pipeline: `[{"$out": 5}]`,
			code: 16990, msg: "$out only supports a string or object argument, but found int"},
		{name: "$out to a system collection", ref: outSrc, docs: docs, pipeline: `[{"$out": "system.x"}]`,
			code: 17385, msg: "Can't $out to special collection: system.x"},
		{name: "$out to an internal database", ref: outSrc, docs: docs, pipeline: `[{"$out": {"db": "admin", "coll": "x"}}]`,
			code: 31321, msg: "Can't $out to internal database: admin"},
		{name: "$out to an empty name", ref: outSrc, docs: docs, pipeline: `[{"$out": ""}]`, code: 73},
		{name: "$out's object needs db", ref: outSrc, docs: docs, pipeline: `[{"$out": {"coll": "x"}}]`,
			code: 40414, msg: "BSON field '$out.db' is missing but a required field"},
		{name: "$out's object needs coll", ref: outSrc, docs: docs, pipeline: `[{"$out": {"db": "x"}}]`,
			code: 40414, msg: "BSON field '$out.coll' is missing but a required field"},
		{name: "$out's unknown field", ref: outSrc, docs: docs, pipeline: `[{"$out": {"db": "x", "coll": "y", "mode": "replace"}}]`,
			code: 40415, msg: "BSON field '$out.mode' is an unknown field."},

		{name: "$merge of a number", ref: mergeSrc, docs: docs, pipeline: `[{"$merge": 5}]`,
			code: 14, msg: "$merge requires a string or object argument, but found int"},
		{name: "$merge to a system collection", ref: mergeSrc, docs: docs, pipeline: `[{"$merge": "system.x"}]`,
			code: 31319, msg: "Cannot $merge to special collection: system.x"},
		{name: "$merge to an internal database", ref: mergeSrc, docs: docs, pipeline: `[{"$merge": {"into": {"db": "config", "coll": "x"}}}]`,
			code: 31320, msg: "Cannot $merge to internal database: config"},
		{name: "whenMatched fail with whenNotMatched fail", ref: mergeSrc, docs: docs,
			pipeline: `[{"$merge": {"into": "m", "whenMatched": "fail", "whenNotMatched": "fail"}}]`,
			code: 51181, msg: "Combination of $merge modes 'whenMatched: fail' and 'whenNotMatched: fail' is not supported"},
		{name: "keepExisting with discard", ref: mergeSrc, docs: docs,
			pipeline: `[{"$merge": {"into": "m", "whenMatched": "keepExisting", "whenNotMatched": "discard"}}]`,
			code: 51181, msg: "Combination of $merge modes 'whenMatched: keepExisting' and 'whenNotMatched: discard' is not supported"},
		{name: "a duplicate on field", ref: mergeSrc, docs: docs, pipeline: `[{"$merge": {"into": "m", "on": ["_id", "_id"]}}]`,
			code: 31465, msg: "Found a duplicate field '_id'"},
		{name: "let redefining new", ref: mergeSrc, docs: docs,
			pipeline: `[{"$merge": {"into": "m", "let": {"new": "$a"}, "whenMatched": [{"$set": {"x": 1}}]}}]`,
			code: 51273, msg: "'let' may not define a value for the reserved 'new' variable other than '$$ROOT'"},
		{name: "into needs coll", ref: mergeSrc, docs: docs, pipeline: `[{"$merge": {"into": {"db": "x"}}}]`,
			code: 40414, msg: "BSON field '$merge.into.coll' is missing but a required field"},

		{name: "$collStats of a number", ref: statsSrc, cov: cover{op: "$collStats"}, docs: docs, pipeline: `[{"$collStats": 5}]`,
			code: 40166, msg: "$collStats must take a nested object but found: $collStats: 5"},
		{name: "$collStats scale below 1 when parsed", ref: statsSrc, docs: docs, pipeline: `[{"$collStats": {"storageStats": {"scale": 0}}}]`,
			code: 51024, msg: "BSON field 'scale' value must be >= 1, actual value '0'"},
		{name: "$collStats scale of a string", ref: statsSrc, docs: docs, pipeline: `[{"$collStats": {"storageStats": {"scale": "a"}}}]`,
			code: 14, msg: "BSON field '$collStats.storageStats.scale' is the wrong type 'string', expected types '[long, int, decimal, double']"},
		{name: "$collStats unknown storage option", ref: statsSrc, docs: docs, pipeline: `[{"$collStats": {"storageStats": {"x": 1}}}]`,
			code: 40415, msg: "BSON field '$collStats.storageStats.x' is an unknown field."},
		{name: "$collStats histograms must be a bool", ref: statsSrc, docs: docs, pipeline: `[{"$collStats": {"latencyStats": {"histograms": 1}}}]`,
			code: 14, msg: "BSON field '$collStats.latencyStats.histograms' is the wrong type 'int', expected type 'bool'"},
		{name: "$collStats count", ref: statsSrc, docs: `[{"_id": 1}, {"_id": 2}]`, pipeline: `[{"$collStats": {"count": {}}}, {"$project": {"_id": 0, "count": 1}}]`,
			want: `[{"count": 2}]`},
	})
}
