package compat_test

import "testing"

func TestStagesBasic(t *testing.T) {
	five := `[{"_id": 1, "a": 1, "g": "x"}, {"_id": 2, "a": 2, "g": "y"}, {"_id": 3, "a": 3, "g": "y"}, {"_id": 4, "a": 4, "g": "z"}, {"_id": 5, "a": 5, "g": "z"}]`
	byID := `{"$sort": {"_id": 1}}`
	runAggCases(t, []aggCase{
		// $limit and $skip
		{name: "limit", ref: "src/mongo/db/pipeline/document_source_limit.cpp", docs: five,
			pipeline: `[` + byID + `, {"$limit": 2}]`, want: `[{"_id": 1, "a": 1, "g": "x"}, {"_id": 2, "a": 2, "g": "y"}]`},
		{name: "a leading limit keeps the first documents in natural order", ref: "src/mongo/db/pipeline/document_source_limit.cpp", docs: five,
			pipeline: `[{"$limit": 2}, {"$project": {"_id": 1}}]`, want: `[{"_id": 1}, {"_id": 2}]`},
		{name: "limit larger than the input", ref: "src/mongo/db/pipeline/document_source_limit.cpp", docs: five,
			pipeline: `[{"$limit": {"$numberLong": "100"}}, {"$count": "n"}]`, want: `[{"n": 5}]`},
		{name: "limit of a whole double", ref: "src/mongo/db/pipeline/document_source_limit.cpp", docs: five,
			pipeline: `[{"$limit": 1.0}, {"$count": "n"}]`, want: `[{"n": 1}]`},
		{name: "limit of zero", ref: "src/mongo/db/pipeline/document_source_limit.cpp",
			pipeline: `[{"$limit": 0}]`, code: 15958, msg: "the limit must be positive"},
		{name: "limit of a fraction", ref: "src/mongo/db/pipeline/document_source_limit.cpp",
			pipeline: `[{"$limit": 1.5}]`, code: 5107201, msg: "invalid argument to $limit stage: Expected an integer: $limit: 1.5"},
		{name: "skip", ref: "src/mongo/db/pipeline/document_source_skip.cpp", docs: five,
			pipeline: `[` + byID + `, {"$skip": 3}, {"$project": {"_id": 1}}]`, want: `[{"_id": 4}, {"_id": 5}]`},
		{name: "skip of a string", ref: "src/mongo/db/pipeline/document_source_skip.cpp",
			pipeline: `[{"$skip": "a"}]`, code: 5107200, msg: `invalid argument to $skip stage: Expected a number in: $skip: "a"`},
		{name: "a leading skip drops the first documents", ref: "src/mongo/db/pipeline/document_source_skip.cpp", docs: five,
			pipeline: `[{"$skip": 3}, {"$project": {"_id": 1}}]`, want: `[{"_id": 4}, {"_id": 5}]`},
		{name: "skip past the input", ref: "src/mongo/db/pipeline/document_source_skip.cpp", docs: five,
			pipeline: `[{"$skip": 9}]`, want: `[]`},
		{name: "skip of zero passes everything", ref: "src/mongo/db/pipeline/document_source_skip.cpp", docs: five,
			pipeline: `[{"$skip": 0}, {"$count": "n"}]`, want: `[{"n": 5}]`},
		// $limit then $skip: the skip runs on what the limit kept.
		{name: "limit then skip", ref: "src/mongo/db/pipeline/pipeline_d.cpp (LimitThenSkip::flip)", docs: five,
			pipeline: `[{"$limit": 4}, {"$skip": 1}, {"$project": {"_id": 1}}]`, want: `[{"_id": 2}, {"_id": 3}, {"_id": 4}]`},
		{name: "skip then limit", ref: "src/mongo/db/pipeline/document_source_skip.cpp", docs: five,
			pipeline: `[{"$skip": 1}, {"$limit": 2}, {"$project": {"_id": 1}}]`, want: `[{"_id": 2}, {"_id": 3}]`},
		{name: "skip of a negative long", ref: "src/mongo/db/pipeline/document_source_skip.cpp",
			pipeline: `[{"$skip": {"$numberLong": "-1"}}]`, code: 5107200, msg: "invalid argument to $skip stage: Expected a non-negative number in: $skip: -1"},
		// $count
		{name: "count", ref: "src/mongo/db/pipeline/document_source_count.cpp", docs: five,
			pipeline: `[{"$match": {"a": {"$gt": 2}}}, {"$count": "n"}]`, want: `[{"n": 3}]`},
		// DocumentSourceCount::createFromBson: {$group: {_id: null, n: {$sum: 1}}}
		// then {$project: {_id: 0}}; the count is an int while it fits.
		{name: "count of the whole collection", ref: "src/mongo/db/pipeline/document_source_count.cpp", docs: five,
			pipeline: `[{"$count": "total"}]`, want: `[{"total": 5}]`},
		{name: "count of an empty collection is no document", ref: "src/mongo/db/pipeline/document_source_count.cpp",
			pipeline: `[{"$count": "total"}]`, want: `[]`},
		{name: "count field may repeat a field of the input", ref: "src/mongo/db/pipeline/document_source_count.cpp", docs: five,
			pipeline: `[{"$count": "a"}]`, want: `[{"a": 5}]`},
		{name: "count field starting with $", ref: "src/mongo/db/pipeline/document_source_count.cpp",
			pipeline: `[{"$count": "$n"}]`, code: 40158, msg: "the count field cannot be a $-prefixed path"},
		{name: "count of nothing is no document", ref: "src/mongo/db/pipeline/document_source_count.cpp", docs: five,
			pipeline: `[{"$match": {"a": 0}}, {"$count": "n"}]`, want: `[]`},
		{name: "count field with a dot", ref: "src/mongo/db/pipeline/document_source_count.cpp",
			pipeline: `[{"$count": "a.b"}]`, code: 40160, msg: "the count field cannot contain '.'"},
		{name: "count field not a string", ref: "src/mongo/db/pipeline/document_source_count.cpp",
			pipeline: `[{"$count": 1}]`, code: 40156, msg: "the count field must be a non-empty string"},
		// $sample
		{name: "sample larger than the collection returns all", ref: "src/mongo/db/pipeline/document_source_sample.cpp", docs: five,
			pipeline: `[{"$sample": {"size": 10}}, {"$count": "n"}]`, want: `[{"n": 5}]`},
		{name: "sample of zero", ref: "src/mongo/db/pipeline/document_source_sample.cpp", docs: five,
			pipeline: `[{"$sample": {"size": 0}}]`, want: `[]`},
		{name: "sample size negative", ref: "src/mongo/db/pipeline/document_source_sample.cpp",
			pipeline: `[{"$sample": {"size": -1}}]`, code: 28747, msg: "size argument to $sample must not be negative"},
		{name: "sample unknown option", ref: "src/mongo/db/pipeline/document_source_sample.cpp",
			pipeline: `[{"$sample": {"size": 1, "seed": 2}}]`, code: 28748, msg: "unrecognized option to $sample: seed"},
		// The pipeline itself: an empty one returns the collection as it
		// is stored; stages run in the order given.
		{name: "empty pipeline", ref: "manual: reference/command/aggregate (pipeline)", cov: cover{op: "pipeline"}, docs: five,
			pipeline: `[]`, want: five},
		{name: "stages run in order", ref: "manual: core/aggregation-pipeline", cov: cover{op: "pipeline"}, docs: five,
			pipeline: `[{"$project": {"_id": 1, "a": 1}}, {"$set": {"a": {"$multiply": ["$a", 10]}}}, {"$match": {"a": {"$gt": 30}}}]`,
			want:     `[{"_id": 4, "a": 40}, {"_id": 5, "a": 50}]`},
		// $sortByCount
		{name: "sortByCount orders by count", ref: "manual: reference/operator/aggregation/sortByCount", docs: five,
			pipeline: `[{"$match": {"g": {"$ne": "z"}}}, {"$sortByCount": "$g"}]`, want: `[{"_id": "y", "count": 2}, {"_id": "x", "count": 1}]`},
		{name: "sortByCount of a field name without $", ref: "src/mongo/db/pipeline/document_source_sort_by_count.cpp",
			pipeline: `[{"$sortByCount": "g"}]`, code: 40148, msg: "the sortByCount field must be defined as a $-prefixed path or an expression inside an object"},
		{name: "sortByCount of an object that is no expression", ref: "src/mongo/db/pipeline/document_source_sort_by_count.cpp",
			pipeline: `[{"$sortByCount": {"g": 1}}]`, code: 40147, msg: "the sortByCount field must be defined as a $-prefixed path or an expression inside an object"},
		// $sort
		{name: "sort across types, missing as null", ref: "manual: reference/bson-type-comparison-order",
			docs:     `[{"_id": 1, "v": "s"}, {"_id": 2, "v": 1}, {"_id": 3}, {"_id": 4, "v": null}, {"_id": 5, "v": {"a": 1}}]`,
			pipeline: `[{"$sort": {"v": 1, "_id": 1}}, {"$project": {"_id": 1}}]`, want: `[{"_id": 3}, {"_id": 4}, {"_id": 2}, {"_id": 1}, {"_id": 5}]`},
		{name: "sort direction 2", ref: "src/mongo/db/query/sort_pattern.cpp",
			pipeline: `[{"$sort": {"a": 2}}]`, code: 15975, msg: "$sort key ordering must be 1 (for ascending) or -1 (for descending)"},
		{name: "sort without keys", ref: "src/mongo/db/query/sort_pattern.cpp",
			pipeline: `[{"$sort": {}}]`, code: 15976, msg: "$sort stage must have at least one sort key"},
		{name: "project a field path holding a null byte", ref: "src/mongo/db/exec/document_value/field_path.cpp (FieldPath::uassertValidFieldName); jstests/aggregation/expressions/expression_set_field_null_chars.js",
			pipeline: `[{"$project": {"f": "$a\u0000b"}}]`, code: 16411, msg: invalidProject + "FieldPath field names may not contain '\\0'."},
		{name: "setField of a field path holding a null byte", ref: "jstests/aggregation/expressions/expression_set_field_null_chars.js", cov: cover{op: "$setField"},
			pipeline: `[{"$project": {"f": {"$setField": {"field": "a", "input": {}, "value": "$\u0000a"}}}}]`, code: 16411, msg: invalidProject + "FieldPath field names may not contain '\\0'."},
		{name: "sort by a $meta of a negative number", ref: "src/mongo/db/query/sort_pattern.cpp parseMetaExpression",
			pipeline: `[{"$sort": {"_id": {"$meta": -1}}}]`, code: 31138, msg: "Illegal $meta sort: $meta: -1"},
		{name: "sort by a $meta of a string that names no metadata", ref: "src/mongo/db/query/sort_pattern.cpp parseMetaExpression",
			pipeline: `[{"$sort": {"_id": {"$meta": "1"}}}]`, code: 31138, msg: `Illegal $meta sort: $meta: "1"`},
		{name: "sort by $meta searchHighlights", ref: "src/mongo/db/query/sort_pattern.cpp parseMetaExpression kValidMetaSorts; jstests/core/query/sort/sort_with_meta_operator.js",
			pipeline: `[{"$sort": {"_id": {"$meta": "searchHighlights"}}}]`, code: 31138, msg: `Illegal $meta sort: $meta: "searchHighlights"`},
		{name: "sort by an expression other than $meta", ref: "src/mongo/db/query/sort_pattern.cpp parseMetaExpression",
			pipeline: `[{"$sort": {"_id": {"$literal": 1}}}]`, code: 17312, msg: "$meta is the only expression supported by $sort right now"},
		// $set / $addFields / $unset / $replaceRoot / $replaceWith
		{name: "set adds and replaces fields", ref: "manual: reference/operator/aggregation/set", docs: `[{"_id": 1, "a": 1, "b": {"c": 1}}]`,
			pipeline: `[{"$set": {"a": {"$add": ["$a", 1]}, "b.d": 2, "e": "$b.c"}}]`, want: `[{"_id": 1, "a": 2, "b": {"c": 1, "d": 2}, "e": 1}]`},
		{name: "addFields with no field", ref: "src/mongo/db/exec/add_fields_projection_executor.cpp ProjectionSpecValidator::validate (no emptiness check); jstests/aggregation/sources/lookup/lookup_non_correlated_prefix.js (SERVER-57000)",
			docs: `[{"_id": 1, "a": 1}]`, pipeline: `[{"$addFields": {}}]`, want: `[{"_id": 1, "a": 1}]`},
		{name: "addFields of a string", ref: "src/mongo/db/pipeline/document_source_add_fields.cpp",
			pipeline: `[{"$addFields": "a"}]`, code: 40272, msg: "$addFields specification stage must be an object, got string"},
		{name: "unset removes fields", ref: "manual: reference/operator/aggregation/unset", docs: `[{"_id": 1, "a": 1, "b": {"c": 1, "d": 2}}]`,
			pipeline: `[{"$unset": ["a", "b.c"]}]`, want: `[{"_id": 1, "b": {"d": 2}}]`},
		{name: "unset of an empty array", ref: "src/mongo/db/pipeline/document_source_project.cpp",
			pipeline: `[{"$unset": []}]`, code: 31119, msg: "$unset specification must be a string or an array with at least one field"},
		{name: "unset of a number", ref: "src/mongo/db/pipeline/document_source_project.cpp",
			pipeline: `[{"$unset": 1}]`, code: 31002, msg: "$unset specification must be a string or an array"},
		{name: "replaceRoot with an embedded document", ref: "manual: reference/operator/aggregation/replaceRoot", docs: `[{"_id": 1, "name": {"first": "a", "last": "b"}}]`,
			pipeline: `[{"$replaceRoot": {"newRoot": "$name"}}]`, want: `[{"first": "a", "last": "b"}]`},
		// The expressions name $$ROOT, so the whole document is read and
		// the message shows it all (a stage reading only "a" would be
		// given only the fields it needs).
		{name: "replaceRoot with a number", ref: "src/mongo/db/pipeline/document_source_replace_root.cpp", docs: `[{"_id": 1, "a": 1}]`,
			pipeline: `[{"$replaceRoot": {"newRoot": {"$cond": [true, "$a", "$$ROOT"]}}}]`, code: 40228,
			msg: planExecutor + "'newRoot' expression  must evaluate to an object, but resulting value was: 1. Type of resulting value: 'int'. Input document: {_id: 1, a: 1}"},
		{name: "replaceRoot of a missing field", ref: "src/mongo/db/pipeline/document_source_replace_root.cpp", docs: `[{"_id": 1}]`,
			pipeline: `[{"$replaceRoot": {"newRoot": {"$cond": [true, "$a", "$$ROOT"]}}}]`, code: 40228,
			msg: planExecutor + "'newRoot' expression  must evaluate to an object, but resulting value was: MISSING. Type of resulting value: 'missing'. Input document: {_id: 1}"},
		{name: "replaceRoot needs newRoot", ref: "src/mongo/db/pipeline/document_source_replace_root.cpp",
			pipeline: `[{"$replaceRoot": {}}]`, code: 40414, msg: "BSON field '$replaceRoot.newRoot' is missing but a required field"},
		{name: "replaceWith an expression", ref: "manual: reference/operator/aggregation/replaceWith", docs: `[{"_id": 1, "a": 1}]`,
			pipeline: `[{"$replaceWith": {"x": "$a", "id": "$_id"}}]`, want: `[{"x": 1, "id": 1}]`},
		{name: "replaceWith an array", ref: "src/mongo/db/pipeline/document_source_replace_root.cpp", docs: `[{"_id": 1, "a": [1]}]`,
			pipeline: `[{"$replaceWith": {"$cond": [true, "$a", "$$ROOT"]}}]`, code: 40228,
			msg: planExecutor + "'replacement document'  must evaluate to an object, but resulting value was: [1]. Type of resulting value: 'array'. Input document: {_id: 1, a: [1]}"},
		// $facet
		{name: "facet runs each pipeline over the same input", ref: "manual: reference/operator/aggregation/facet", docs: five,
			pipeline: `[{"$facet": {"n": [{"$count": "n"}], "top": [{"$sort": {"a": -1}}, {"$limit": 1}, {"$project": {"a": 1, "_id": 0}}], "none": [{"$match": {"a": 9}}]}}]`,
			want:     `[{"n": [{"n": 5}], "top": [{"a": 5}], "none": []}]`},
		{name: "facet over no input still returns one document", ref: "src/mongo/db/pipeline/document_source_facet.cpp",
			pipeline: `[{"$facet": {"a": [{"$match": {}}]}}]`, want: `[{"a": []}]`},
		{name: "facet element that is not a document", ref: "src/mongo/db/pipeline/document_source_facet.cpp",
			pipeline: `[{"$facet": {"a": [1]}}]`, code: 40171, msg: "elements of arrays in $facet spec must be non-empty objects, a argument contained an element of type int: 1"},
		// $unionWith
		{name: "unionWith appends another collection", ref: "manual: reference/operator/aggregation/unionWith", docs: `[{"_id": 1}]`,
			other: map[string]string{"o": `[{"_id": 2}, {"_id": 3}]`}, pipeline: `[{"$unionWith": "o"}]`, want: `[{"_id": 1}, {"_id": 2}, {"_id": 3}]`},
		{name: "unionWith a pipeline", ref: "manual: reference/operator/aggregation/unionWith", docs: `[{"_id": 1}]`,
			other: map[string]string{"o": `[{"_id": 2}, {"_id": 3}]`}, pipeline: `[{"$unionWith": {"coll": "o", "pipeline": [{"$match": {"_id": 3}}]}}]`,
			want: `[{"_id": 1}, {"_id": 3}]`},
		{name: "unionWith documents without a collection", ref: "src/mongo/db/pipeline/document_source_union_with.cpp", docs: `[{"_id": 1}]`,
			pipeline: `[{"$unionWith": {"pipeline": [{"$documents": [{"x": 1}, {"x": 2}]}]}}]`, want: `[{"_id": 1}, {"x": 1}, {"x": 2}]`},
		// $indexStats
		{name: "indexStats lists every index", ref: "manual: reference/operator/aggregation/indexStats", docs: `[{"_id": 1}]`,
			setup:    []string{`{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]}`},
			pipeline: `[{"$indexStats": {}}, {"$project": {"_id": 0, "name": 1, "key": 1}}, {"$sort": {"name": 1}}]`,
			want:     `[{"name": "_id_", "key": {"_id": 1}}, {"name": "a_1", "key": {"a": 1}}]`},
		// PlanExplainerExpress::getSummaryStats names the express read's
		// index among those used, which $indexStats counts.
		{name: "indexStats counts express reads", ref: "src/mongo/db/query/plan_explainer_express.cpp getSummaryStats", docs: `[{"_id": 1, "a": 1}]`,
			setup: []string{`{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]}`, `{"find": "c", "filter": {"_id": 1}}`,
				`{"find": "c", "filter": {"a": 1}, "limit": 1}`},
			pipeline: `[{"$indexStats": {}}, {"$project": {"_id": 0, "name": 1, "ops": "$accesses.ops"}}, {"$sort": {"name": 1}}]`,
			want:     `[{"name": "_id_", "ops": {"$numberLong": "1"}}, {"name": "a_1", "ops": {"$numberLong": "1"}}]`},
		{name: "indexStats takes an empty object", ref: "src/mongo/db/pipeline/document_source_index_stats.cpp",
			pipeline: `[{"$indexStats": {"a": 1}}]`, code: 28803, msg: "The $indexStats stage specification must be an empty object"},
		// $bucket
		{name: "bucket with a default bucket", ref: "manual: reference/operator/aggregation/bucket", docs: five,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [0, 2, 4], "default": "other", "output": {"ids": {"$push": "$_id"}}}}]`,
			want:     `[{"_id": 0, "ids": [1]}, {"_id": 2, "ids": [2, 3]}, {"_id": "other", "ids": [4, 5]}]`},
		{name: "bucket without a default for a value outside", ref: "src/mongo/db/pipeline/document_source_bucket.cpp", docs: five,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [0, 2]}}]`, code: 40066,
			msg: planExecutor + "$switch could not find a matching branch for an input, and no default was specified."},
		{name: "bucket boundaries out of order", ref: "src/mongo/db/pipeline/document_source_bucket.cpp",
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [2, 1]}}]`, code: 40194,
			msg: "The 'boundaries' option to $bucket must be sorted, but elements 0 and 1 are not in ascending order (2 is not less than 1)."},
		// $lookup errors
		{name: "lookup without as", ref: "src/mongo/db/pipeline/document_source_lookup.cpp",
			pipeline: `[{"$lookup": {"from": "o", "localField": "a", "foreignField": "b"}}]`, code: 9, msg: "must specify 'as' field for a $lookup"},
		{name: "lookup with only localField", ref: "src/mongo/db/pipeline/document_source_lookup.cpp",
			pipeline: `[{"$lookup": {"from": "o", "localField": "a", "as": "x"}}]`, code: 9,
			msg: "$lookup requires either 'pipeline' or both 'localField' and 'foreignField' to be specified"},
	})
}

// $documents runs as {aggregate: 1}: its documents are the pipeline's
// input (manual: reference/operator/aggregation/documents).
func TestDocumentsStage(t *testing.T) {
	const docsRef = "manual: reference/operator/aggregation/documents"
	docs := func(col column) cover { return cover{family: stage, op: "$documents", col: col} }
	runCmdCases(t, []cmdCase{
		{name: "literal documents, then a stage over them", ref: docsRef, cov: docs(semantics),
			cmd:  `{"aggregate": 1, "pipeline": [{"$documents": [{"x": 10}, {"x": 2}, {"x": 5}]}, {"$sort": {"x": 1}}], "cursor": {}}`,
			want: `{"cursor": {"firstBatch": [{"x": 2}, {"x": 5}, {"x": 10}], "id": {"$numberLong": "0"}, "ns": "{{db}}.$cmd.aggregate"}}`},
		{name: "an expression that resolves to an array of objects", ref: docsRef, cov: docs(semantics),
			cmd:  `{"aggregate": 1, "pipeline": [{"$documents": {"$map": {"input": {"$range": [0, 3]}, "in": {"n": "$$this"}}}}], "cursor": {}}`,
			want: `{"cursor": {"firstBatch": [{"n": 0}, {"n": 1}, {"n": 2}], "id": {"$numberLong": "0"}, "ns": "{{db}}.$cmd.aggregate"}}`},
		{name: "no documents", ref: docsRef, cov: docs(semantics),
			cmd:  `{"aggregate": 1, "pipeline": [{"$documents": []}], "cursor": {}}`,
			want: `{"cursor": {"firstBatch": [], "id": {"$numberLong": "0"}, "ns": "{{db}}.$cmd.aggregate"}}`},
		// Pipeline::validateCommon: $documents' constraints put it first.
		{name: "$documents after another stage", ref: pipelineSrc + " (validateCommon)", cov: docs(errorCol),
			cmd:  `{"aggregate": "c", "pipeline": [{"$match": {}}, {"$documents": [{"x": 1}]}], "cursor": {}}`,
			code: 40602, msg: "$documents is only valid as the first stage in a pipeline"},
		{name: "$documents inside $facet", ref: "src/mongo/db/pipeline/document_source_facet.cpp", cov: docs(errorCol),
			cmd:  `{"aggregate": 1, "pipeline": [{"$documents": [{"x": 1}]}, {"$facet": {"f": [{"$documents": [{"x": 2}]}]}}], "cursor": {}}`,
			code: 40600, msg: "$documents is not allowed to be used within a $facet stage"},
	})
}

// $_internalSplitPipeline on a mongod outside a sharded cluster: parsed
// as DocumentSourceInternalSplitPipeline::createFromBson does
// (src/mongo/db/pipeline/document_source_internal_split_pipeline.cpp),
// then a pass-through; jstests/aggregation/sources/sort/collation_sort_japanese.js.
func TestStageInternalSplitPipeline(t *testing.T) {
	ref := "src/mongo/db/pipeline/document_source_internal_split_pipeline.cpp; jstests/aggregation/sources/sort/collation_sort_japanese.js"
	docs := `[{"_id": 1, "a": 2}, {"_id": 2, "a": 1}]`
	runAggCases(t, []aggCase{
		{name: "it passes documents through", ref: ref, docs: docs,
			pipeline: `[{"$_internalSplitPipeline": {"mergeType": "anyShard"}}, {"$sort": {"a": 1}}]`, want: `[{"_id": 2, "a": 1}, {"_id": 1, "a": 2}]`},
		{name: "mergeType may be left out", ref: ref, docs: docs,
			pipeline: `[{"$_internalSplitPipeline": {}}, {"$sort": {"a": -1}}]`, want: `[{"_id": 1, "a": 2}, {"_id": 2, "a": 1}]`},
		{name: "not an object", ref: ref, pipeline: `[{"$_internalSplitPipeline": 1}]`,
			code: 14, msg: "$_internalSplitPipeline must take a nested object but found: $_internalSplitPipeline: 1"},
		{name: "an unknown field", ref: ref, pipeline: `[{"$_internalSplitPipeline": {"x": 1}}]`,
			code: 2, msg: "unrecognized field while parsing $_internalSplitPipeline: 'x'"},
		{name: "an unknown mergeType", ref: ref, pipeline: `[{"$_internalSplitPipeline": {"mergeType": "primaryShard"}}]`,
			code: 2, msg: "unrecognized field while parsing mergeType: 'primaryShard'"},
		{name: "a mergeType of another type", ref: ref, pipeline: `[{"$_internalSplitPipeline": {"mergeType": 1}}]`,
			code: 2, msg: "'mergeType' must be a string value or an object but found: int"},
		{name: "a malformed specificShard", ref: ref, pipeline: `[{"$_internalSplitPipeline": {"mergeType": {"specificShard": 1}}}]`,
			code: 7958300, msg: "Object argument to $_internalSplitPipeline must contain a single string field named 'specificShard'"},
		{name: "a specificShard without sharding", ref: ref, pipeline: `[{"$_internalSplitPipeline": {"mergeType": {"specificShard": "s0"}}}]`,
			code: 7958301, msg: "Cannot specify 'mergeType' of 'specificShard' and not have sharding enabled"},
	})
}

// $_unpackBucket, the client's form of the bucket unpacking stage: read as
// DocumentSourceInternalUnpackBucket::createFromBsonExternal reads it
// (src/mongo/db/pipeline/document_source_internal_unpack_bucket.cpp), it
// unpacks a time-series collection's buckets into measurements
// (jstests/core/timeseries/query/timeseries_explicit_unpack_bucket.js).
func TestStageUnpackBucketExternal(t *testing.T) {
	ref := "src/mongo/db/pipeline/document_source_internal_unpack_bucket.cpp (createFromBsonExternal)"
	unpackRef := ref + "; jstests/core/timeseries/query/timeseries_explicit_unpack_bucket.js"
	ts := []string{`{"create": "m", "timeseries": {"timeField": "t", "metaField": "tags"}}`,
		`{"insert": "m", "documents": [{"t": {"$date": "2020-11-30T12:10:05Z"}, "tags": "cpu", "v": 2}, {"t": {"$date": "2020-12-01T12:10:05Z"}, "tags": "cpu", "v": 1},
			{"t": {"$date": "2020-11-30T12:20:05Z"}, "tags": "mem", "v": 3}]}`}
	unpack := func(spec string) string {
		return `{"aggregate": "system.buckets.m", "pipeline": [{"$_unpackBucket": ` + spec + `}, {"$project": {"_id": 0}}, {"$sort": {"v": 1}}], "cursor": {}}`
	}
	cov := cover{family: stage, op: "$_unpackBucket", col: semantics}
	runCmdCases(t, []cmdCase{
		{name: "the buckets unpack into measurements", ref: unpackRef, cov: cov, setup: ts, cmd: unpack(`{"timeField": "t", "metaField": "tags"}`),
			want: `{"cursor": {"firstBatch": [{"t": {"$date": "2020-12-01T12:10:05Z"}, "tags": "cpu", "v": 1}, {"t": {"$date": "2020-11-30T12:10:05Z"}, "tags": "cpu", "v": 2},
				{"t": {"$date": "2020-11-30T12:20:05Z"}, "tags": "mem", "v": 3}], "id": {"$numberLong": "0"}, "ns": "{{db}}.system.buckets.m"}}`},
		// BucketUnpacker::reset (bucket_unpacker.cpp) checks each bucket.
		{name: "buckets with a meta need the metaField", ref: unpackRef + "; src/mongo/db/exec/timeseries/bucket_unpacker.cpp", cov: cover{family: stage, op: "$_unpackBucket", col: errorCol},
			setup: ts, cmd: unpack(`{"timeField": "t"}`), code: 5369601,
			msg: "PlanExecutor error during aggregation :: caused by :: The $_internalUnpackBucket stage expects buckets to have missing metadata regions if the metaField parameter is not provided"},
	})
	bucketErr := func(name, bucket string, code int32, msg string) aggCase {
		return aggCase{name: name, ref: ref + "; src/mongo/db/exec/timeseries/bucket_unpacker.cpp (BucketUnpacker::reset)", docs: `[` + bucket + `]`,
			pipeline: `[{"$_unpackBucket": {"timeField": "t"}}]`, code: code, msg: "PlanExecutor error during aggregation :: caused by :: " + msg}
	}
	runAggCases(t, []aggCase{
		bucketErr("a bucket with an empty data region", `{"_id": 7, "control": {"version": 1}, "data": {}}`, 5346509, "A bucket with _id _id: 7 contains an empty data region"),
		bucketErr("a data region without the time field", `{"_id": 7, "control": {"version": 1}, "data": {"x": {"0": 1}}}`, 5346700,
			"The $_internalUnpackBucket stage requires the data region to have a timeField object"),
		bucketErr("a bucket without control", `{"_id": 7, "data": {"t": {"0": {"$date": "2020-01-01T00:00:00Z"}}}}`, 5857902,
			"The $_internalUnpackBucket stage requires 'control' object to be present"),
		bucketErr("a bucket of an unknown version", `{"_id": 7, "control": {"version": 9}, "data": {"t": {"0": {"$date": "2020-01-01T00:00:00Z"}}}}`, 5857900, "Invalid bucket version"),
		bucketErr("a bucket whose data region is an empty array", `{"_id": 7, "control": {"version": 1}, "data": []}`, 5346509, "A bucket with _id _id: 7 contains an empty data region"),
		bucketErr("a bucket whose data region is an array without the time field", `{"_id": 7, "control": {"version": 1}, "data": [1]}`, 5346700,
			"The $_internalUnpackBucket stage requires the data region to have a timeField object"),
		bucketErr("a bucket without data", `{"_id": 7, "control": {"version": 1}}`, 10065, "invalid parameter: expected an object ()"),
	})
	runAggCases(t, []aggCase{
		{name: "not an object", ref: ref, pipeline: `[{"$_unpackBucket": 1}]`,
			code: 5612400, msg: "$_unpackBucket specification must be an object, got: int"},
		{name: "a timeField that is not a string", ref: ref, pipeline: `[{"$_unpackBucket": {"timeField": 1}}]`,
			code: 5612401, msg: "timeField field must be a string, got: int"},
		{name: "a metaField that is not a string", ref: ref, pipeline: `[{"$_unpackBucket": {"timeField": "t", "metaField": true}}]`,
			code: 5612402, msg: "metaField field must be a string, got: bool"},
		{name: "a dotted metaField", ref: ref, pipeline: `[{"$_unpackBucket": {"timeField": "t", "metaField": "m.n"}}]`,
			code: 5612403, msg: "metaField field must be a single-element field path"},
		{name: "assumeNoMixedSchemaData that is not a bool", ref: ref, pipeline: `[{"$_unpackBucket": {"timeField": "t", "assumeNoMixedSchemaData": 1}}]`,
			code: 6067203, msg: "assumeClean field must be a bool, got: int"},
		{name: "an internal parameter", ref: ref, pipeline: `[{"$_unpackBucket": {"timeField": "t", "bucketMaxSpanSeconds": 3600}}]`,
			code: 5612404, msg: "unrecognized parameter to $_unpackBucket: bucketMaxSpanSeconds"},
		{name: "no timeField", ref: ref, pipeline: `[{"$_unpackBucket": {"metaField": "m"}}]`,
			code: 5612405, msg: "The $_unpackBucket stage requires a timeField parameter"},
	})
}
