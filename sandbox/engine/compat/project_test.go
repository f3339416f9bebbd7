package compat_test

import "testing"

const (
	addFieldsMissing = "jstests/aggregation/sources/addFields/add_fields_adds_to_missing_fields.js"
	addFieldsDotted  = "jstests/aggregation/sources/addFields/dotted_paths.js"
)

func TestProjectAndAddFields(t *testing.T) {
	array := `[{"_id": 0, "array": [1, 2, {"m1": "str"}]}]`
	dotted := `[{"_id": 1, "arrayField": [1, {"subField": [2, {}]}, [1]], "objField": {"p": {"q": 1}, "subArr": [1]}, "otherField": "value"}]`
	runAggCases(t, []aggCase{
		{name: "inclusion then $addFields keeps only documents", ref: addFieldsMissing,
			docs:     array,
			pipeline: `[{"$group": {"_id": null, "array": {"$first": "$array"}}}, {"$project": {"_id": 0, "array.m1": 1}}, {"$addFields": {"array.m2": "what?"}}]`,
			want:     `[{"array": [{"m1": "str", "m2": "what?"}]}]`},
		{name: "inclusion drops scalars from the array", ref: addFieldsMissing,
			docs: array, pipeline: `[{"$project": {"_id": 0, "array.m1": 1}}]`,
			want: `[{"array": [{"m1": "str"}]}]`},
		{name: "$addFields turns scalars into documents", ref: addFieldsMissing,
			docs: array, pipeline: `[{"$addFields": {"array.m2": "what?"}}]`,
			want: `[{"_id": 0, "array": [{"m2": "what?"}, {"m2": "what?"}, {"m1": "str", "m2": "what?"}]}]`},
		{name: "item6 inclusion with a computed sibling", ref: addFieldsMissing,
			docs: array, pipeline: `[{"$project": {"_id": 0, "array.m1": 1, "array.m2": "what?"}}]`,
			want: `[{"array": [{"m2": "what?"}, {"m2": "what?"}, {"m1": "str", "m2": "what?"}]}]`},
		{name: "dotted path overwrites an existing field", ref: addFieldsDotted,
			docs: dotted, pipeline: `[{"$addFields": {"objField.subArr": "newValue"}}]`,
			want: `[{"_id": 1, "arrayField": [1, {"subField": [2, {}]}, [1]], "objField": {"p": {"q": 1}, "subArr": "newValue"}, "otherField": "value"}]`},
		{name: "dotted path creates sub-objects", ref: addFieldsDotted,
			docs: dotted, pipeline: `[{"$addFields": {"objField.newSubPath.b": {"$literal": "newValue"}}}]`,
			want: `[{"_id": 1, "arrayField": [1, {"subField": [2, {}]}, [1]], "objField": {"p": {"q": 1}, "subArr": [1], "newSubPath": {"b": "newValue"}}, "otherField": "value"}]`},
		{name: "dotted path into a new top-level field", ref: addFieldsDotted,
			docs: dotted, pipeline: `[{"$addFields": {"newField.newSubPath.b": "newValue"}}]`,
			want: `[{"_id": 1, "arrayField": [1, {"subField": [2, {}]}, [1]], "objField": {"p": {"q": 1}, "subArr": [1]}, "otherField": "value", "newField": {"newSubPath": {"b": "newValue"}}}]`},
		{name: "dotted path through an array of mixed elements", ref: addFieldsDotted,
			docs: dotted, pipeline: `[{"$addFields": {"arrayField.newSubPath.b": "newValue"}}]`,
			want: `[{"_id": 1, "arrayField": [{"newSubPath": {"b": "newValue"}}, {"subField": [2, {}], "newSubPath": {"b": "newValue"}}, [{"newSubPath": {"b": "newValue"}}]],
				"objField": {"p": {"q": 1}, "subArr": [1]}, "otherField": "value"}]`},
		{name: "dotted path through nested arrays", ref: addFieldsDotted,
			docs: dotted, pipeline: `[{"$addFields": {"arrayField.subField.b": {"$literal": {"newSubObj": [{"p": "newValue"}]}}}}]`,
			want: `[{"_id": 1, "arrayField": [{"subField": {"b": {"newSubObj": [{"p": "newValue"}]}}},
				{"subField": [{"b": {"newSubObj": [{"p": "newValue"}]}}, {"b": {"newSubObj": [{"p": "newValue"}]}}]},
				[{"subField": {"b": {"newSubObj": [{"p": "newValue"}]}}}]],
				"objField": {"p": {"q": 1}, "subArr": [1]}, "otherField": "value"}]`},
		{name: "inclusion keeps document order, computed fields follow", ref: "manual: reference/operator/aggregation/project (Include Computed Fields)",
			docs:     `[{"_id": 1, "title": "abc123", "isbn": "0001122223334", "author": {"last": "zzz", "first": "aaa"}, "copies": 5}]`,
			pipeline: `[{"$project": {"title": 1, "isbn": {"prefix": {"$substr": ["$isbn", 0, 3]}}, "lastName": "$author.last", "copiesSold": "$copies"}}]`,
			want:     `[{"_id": 1, "title": "abc123", "isbn": {"prefix": "000"}, "lastName": "zzz", "copiesSold": 5}]`},
		{name: "exclusion of embedded fields", ref: "manual: reference/operator/aggregation/project (Exclude Fields from Embedded Documents)",
			docs:     `[{"_id": 1, "title": "abc123", "isbn": "0001122223334", "author": {"last": "zzz", "first": "aaa"}, "copies": 5, "lastModified": "2016-07-28"}]`,
			pipeline: `[{"$project": {"author.first": 0, "lastModified": 0}}]`,
			want:     `[{"_id": 1, "title": "abc123", "isbn": "0001122223334", "author": {"last": "zzz"}, "copies": 5}]`},
		{name: "$$REMOVE conditionally excludes", ref: "manual: reference/operator/aggregation/project (Conditionally Exclude Fields)",
			docs: `[{"_id": 1, "title": "abc123", "author": {"last": "zzz", "first": "aaa", "middle": ""}}, {"_id": 2, "title": "Baked Goods", "author": {"last": "xyz", "first": "abc", "middle": "Jim"}}]`,
			pipeline: `[{"$project": {"title": 1, "author.first": 1, "author.last": 1,
				"author.middle": {"$cond": {"if": {"$eq": ["", "$author.middle"]}, "then": "$$REMOVE", "else": "$author.middle"}}}}]`,
			want: `[{"_id": 1, "title": "abc123", "author": {"last": "zzz", "first": "aaa"}}, {"_id": 2, "title": "Baked Goods", "author": {"last": "xyz", "first": "abc", "middle": "Jim"}}]`},
		{name: "mixing inclusion and exclusion", ref: "manual: reference/operator/aggregation/project (Exclude Fields)",
			docs: `[{"_id": 1, "a": 1, "b": 2}]`, pipeline: `[{"$project": {"a": 1, "b": 0}}]`,
			code: 31254, msg: "Invalid $project :: caused by :: Cannot do exclusion on field b in inclusion projection"},
		{name: "a literal in an exclusion", ref: projectionParser + " parseLiteral",
			docs: `[{"_id": 1, "a": 1}]`, pipeline: `[{"$project": {"a": 0, "b": "$x"}}]`,
			code: 31310, msg: `Invalid $project :: caused by :: Cannot use an expression b: "$x" in an exclusion projection`},
		{name: "a path through an included field", ref: projectionParser + " addNodeAtPathHelper",
			docs: `[{"_id": 1, "a": 1}]`, pipeline: `[{"$project": {"a": 1, "a.b": 1}}]`,
			code: 31249, msg: "Invalid $project :: caused by :: Path collision at a.b remaining portion b"},
		{name: "positional in $project", ref: projectionParser + " parseElement",
			docs: `[{"_id": 1, "a": [1]}]`, pipeline: `[{"$project": {"a.$": 1}}]`,
			code: 31324, msg: "Invalid $project :: caused by :: Cannot use positional projection in aggregation projection"},
		{name: "empty $set", ref: "src/mongo/db/exec/add_fields_projection_executor.cpp ProjectionSpecValidator::validate (no emptiness check); jstests/aggregation/sources/lookup/lookup_non_correlated_prefix.js (SERVER-57000)",
			docs: `[{"_id": 1}]`, pipeline: `[{"$set": {}}]`, want: `[{"_id": 1}]`},
		{name: "$replaceRoot of a non-object spec", ref: "src/mongo/db/pipeline/document_source_replace_root.cpp createFromBson",
			docs: `[{"_id": 1}]`, pipeline: `[{"$replaceRoot": 5}]`,
			code: 40229, msg: "expected an object as specification for $replaceRoot stage, got int"},
	})
}

// projectionParser is the parser find and $project share.
const projectionParser = "src/mongo/db/query/projection_parser.cpp"
