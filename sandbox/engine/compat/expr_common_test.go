package compat_test

import "testing"

// The contexts mongod adds to an expression's errors, by when they happen:
// planExecutor (cases_test.go) while a pipeline runs, these two before.
const (
	// invalidProject is the context DocumentSourceProject::create adds to
	// whatever its parse throws, an expression's errors included.
	invalidProject = "Invalid $project :: caused by :: "
	// optimizeError is the context Pipeline::optimizePipeline adds to an
	// error raised while optimizing, which evaluates operators over
	// constants.
	optimizeError = "Failed to optimize pipeline :: caused by :: "
)

// The stages that parse expressions add their own name to the errors.
func TestExpressionParseContext(t *testing.T) {
	ref := "src/mongo/db/pipeline/document_source_project.cpp, document_source_add_fields.cpp (addContext(\"Invalid \" + name))"
	runAggCases(t, []aggCase{
		// $project parses with projection_parser.cpp, whose parseSubObject
		// calls a lone $-field naming no expression "Unknown expression";
		// $set compiles it with Expression::parseObject.
		{name: "$project", ref: ref + "; src/mongo/db/query/projection_parser.cpp parseSubObject (31325); jstests/aggregation/parsing/disallow_creation_of_fields_with_dots.js",
			docs: `[{"_id": 1}]`, pipeline: `[{"$project": {"a": {"$bogus": 1}}}]`,
			code: 31325, msg: "Invalid $project :: caused by :: Unknown expression $bogus"},
		{name: "$set", ref: ref, docs: `[{"_id": 1}]`, pipeline: `[{"$set": {"a": {"$bogus": 1}}}]`,
			code: 168, msg: "Invalid $set :: caused by :: Unrecognized expression '$bogus'"},
		{name: "$addFields", ref: ref, docs: `[{"_id": 1}]`, pipeline: `[{"$addFields": {"a": {"$add": [1, "$$nope"]}}}]`,
			code: 17276, msg: "Invalid $addFields :: caused by :: Use of undefined variable: nope"},
	})
}
