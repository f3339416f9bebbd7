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

// A stage under an alias names the alias in its parse errors, field names'
// errors included: DocumentSourceAddFields::create and
// DocumentSourceProject::create (src/mongo/db/pipeline/
// document_source_add_fields.cpp, document_source_project.cpp) build the
// FieldPaths inside the try that adds "Invalid " + the name the user wrote;
// jstests/aggregation/single_stage_alias_error.js.
func TestAliasStageParseContext(t *testing.T) {
	ref := "src/mongo/db/pipeline/document_source_add_fields.cpp, document_source_project.cpp; " +
		"jstests/aggregation/single_stage_alias_error.js"
	dollar := "FieldPath field names may not start with '$'. Consider using $getField or $setField."
	empty := "FieldPath cannot be constructed with empty string"
	runAggCases(t, []aggCase{
		{name: "$set with a $-prefixed part", ref: ref, docs: `[{"_id": 1}]`, pipeline: `[{"$set": {"a.$c": 1}}]`,
			code: 16410, msg: "Invalid $set :: caused by :: " + dollar},
		{name: "$addFields with a $-prefixed field", ref: ref, docs: `[{"_id": 1}]`, pipeline: `[{"$addFields": {"$a.$c": 1}}]`,
			code: 16410, msg: "Invalid $addFields :: caused by :: " + dollar},
		{name: "$unset of an empty name", ref: ref, docs: `[{"_id": 1}]`, pipeline: `[{"$unset": [""]}]`,
			code: 40352, msg: "Invalid $unset :: caused by :: " + empty},
		{name: "$unset of a $-prefixed name", ref: ref, docs: `[{"_id": 1}]`, pipeline: `[{"$unset": "$a"}]`,
			code: 16410, msg: "Invalid $unset :: caused by :: " + dollar},
		{name: "$project of an empty name", ref: ref, docs: `[{"_id": 1}]`, pipeline: `[{"$project": {"": 1}}]`,
			code: 40352, msg: "Invalid $project :: caused by :: " + empty},
		{name: "$project of a $-prefixed name", ref: ref, docs: `[{"_id": 1}]`, pipeline: `[{"$project": {"a.$b": 0}}]`,
			code: 16410, msg: "Invalid $project :: caused by :: " + dollar},
		{name: "$project that is not an object", ref: ref, docs: `[{"_id": 1}]`, pipeline: `[{"$project": [""]}]`,
			code: 15969, msg: "$project specification must be an object"},
	})
}
