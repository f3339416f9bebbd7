package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// {$meta: ...} in an aggregation pipeline, as mongod 8.0 answers it on a
// standalone. ExpressionMeta (src/mongo/db/pipeline/expression.cpp) reads
// the document's DocumentMetadataFields and gives missing for what it
// lacks. A document read from a collection has metadata only where the
// query layer put some: the SORT a leading $sort went down into records
// the sort key when a stage left in the pipeline depends on it
// (createCanonicalQuery's requestAdditionalMetadata, pipeline_d.cpp), and
// the record id is metadata only once a find-layer PROJECTION_DEFAULT
// reading it ran (ProjectionStageDefault::transform,
// src/mongo/db/exec/classic/projection.cpp), which in a pipeline is a
// leading inclusion $project the query layer takes
// (buildProjectionForPushdown: with its expressions only when no $sort,
// $skip or $limit goes down). A $sort the pipeline runs itself sets no
// key (DocumentSourceSort::extractSortKey does so only under needsMerge,
// for a sharded merge). Stages that build their output from their input
// keep its metadata; $group's documents are new. The text score and the
// $geoNear data are DepsTracker::kDefaultUnavailableMetadata
// (dependencies.h): a pipeline over a collection that depends on them
// fails with 40218 when its executor is built.
func TestMetaInPipeline(t *testing.T) {
	const (
		docs  = `[{"_id":1,"a":2,"b":"x"},{"_id":2,"a":3,"b":"y"},{"_id":3,"a":1,"b":"z"}]`
		other = `[{"_id":10,"b":"x"},{"_id":11,"b":"x"},{"_id":12,"b":"z"}]`
		exprm = "src/mongo/db/pipeline/expression.cpp ExpressionMeta"
	)
	cov := cover{family: expression, op: "$meta"}
	errs := cover{family: expression, op: "$meta", col: errorCol}
	runAggCases(t, []aggCase{
		// jstests/core/query/record_id_meta.js's $project case (the file
		// as a whole asks for 8.3, for its $addFields case below): the
		// leading $project goes to the query layer, which reads the
		// record id; the field comes where the projection puts it.
		{name: "recordId in a leading $project is the record id", ref: "jstests/core/query/record_id_meta.js; src/mongo/db/exec/classic/projection.cpp ProjectionStageDefault::transform", cov: cov, docs: docs,
			pipeline: `[{"$project":{"a":1,"rid":{"$meta":"recordId"}}}]`,
			want:     `[{"_id":1,"a":2,"rid":{"$numberLong":"1"}},{"_id":2,"a":3,"rid":{"$numberLong":"2"}},{"_id":3,"a":1,"rid":{"$numberLong":"3"}}]`},
		{name: "recordId in a $project after a pushed-down $match", ref: "src/mongo/db/pipeline/pipeline_d.cpp buildProjectionForPushdown", cov: cov, docs: docs,
			pipeline: `[{"$match":{"a":{"$gte":2}}},{"$project":{"rid":{"$meta":"recordId"}}}]`,
			want:     `[{"_id":1,"rid":{"$numberLong":"1"}},{"_id":2,"rid":{"$numberLong":"2"}}]`},
		// $addFields never goes to the query layer: no stage copies the
		// record id into the metadata before 8.3 (record_id_meta.js is
		// tagged requires_fcv_83 for this).
		{name: "recordId in a leading $addFields is missing", ref: "jstests/core/query/record_id_meta.js (requires_fcv_83); " + exprm + " (kRecordId)", cov: cov, docs: docs,
			pipeline: `[{"$addFields":{"rid":{"$meta":"recordId"}}}]`,
			want:     `[{"_id":1,"a":2,"b":"x"},{"_id":2,"a":3,"b":"y"},{"_id":3,"a":1,"b":"z"}]`},
		// With a $sort (or $skip, $limit) going down, a projection with
		// expressions stays in the pipeline, where no record id is.
		{name: "recordId in a $project after a pushed-down $sort is missing", ref: "src/mongo/db/pipeline/pipeline_d.cpp createCanonicalQuery (allowExpressions)", cov: cov, docs: docs,
			pipeline: `[{"$sort":{"a":1}},{"$project":{"rid":{"$meta":"recordId"}}}]`,
			want:     `[{"_id":3},{"_id":1},{"_id":2}]`},
		{name: "recordId in a $project whose $limit goes down is missing", ref: "src/mongo/db/pipeline/pipeline_d.cpp createCanonicalQuery (allowExpressions)", cov: cov, docs: docs,
			pipeline: `[{"$project":{"a":1,"rid":{"$meta":"recordId"}}},{"$limit":2}]`,
			want:     `[{"_id":1,"a":2},{"_id":2,"a":3}]`},
		// The member's metadata goes with the Document into the pipeline
		// (PlanExecutorImpl hands it on), where later stages read it.
		{name: "recordId kept past the pushed-down $project", ref: "src/mongo/db/query/plan_executor_impl.cpp (the member's metadata goes with the document)", cov: cov, docs: docs,
			pipeline: `[{"$match":{"_id":{"$lte":2}}},{"$project":{"r":{"$meta":"recordId"}}},{"$addFields":{"r2":{"$meta":"recordId"}}}]`,
			want:     `[{"_id":1,"r":{"$numberLong":"1"},"r2":{"$numberLong":"1"}},{"_id":2,"r":{"$numberLong":"2"},"r2":{"$numberLong":"2"}}]`},
		// Any stage may read it; where none is, it is missing ($push
		// skips a missing value).
		{name: "recordId in a $group accumulator is missing", ref: exprm + " (kRecordId); src/mongo/db/pipeline/accumulator_push.cpp (missing is skipped)", cov: cov, docs: docs,
			pipeline: `[{"$group":{"_id":null,"r":{"$push":{"$meta":"recordId"}}}}]`,
			want:     `[{"_id":null,"r":[]}]`},

		// The sort key: one part per sort field (serializeSortKeyAsArray).
		{name: "sortKey of a compound $sort with a $limit", ref: "src/mongo/db/exec/document_value/document_metadata_fields.cpp serializeSortKeyAsArray", cov: cov, docs: docs,
			pipeline: `[{"$sort":{"b":-1,"a":1}},{"$limit":2},{"$project":{"_id":0,"k":{"$meta":"sortKey"}}}]`,
			want:     `[{"k":["z",1]},{"k":["y",3]}]`},
		{name: "sortKey of a $sort an index provides", ref: "src/mongo/db/query/planner_analysis.cpp addSortKeyGeneratorStageIfNeeded", cov: cov, docs: docs,
			setup:    []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			pipeline: `[{"$sort":{"a":-1}},{"$project":{"k":{"$meta":"sortKey"}}}]`,
			want:     `[{"_id":2,"k":[3]},{"_id":1,"k":[2]},{"_id":3,"k":[1]}]`},
		// A $match after the $sort moves before it; both go down.
		{name: "sortKey kept through $match", ref: "src/mongo/db/pipeline/document_source_sort.cpp (a $match moves ahead of a $sort)", cov: cov, docs: docs,
			pipeline: `[{"$sort":{"a":1}},{"$match":{"a":{"$gt":1}}},{"$addFields":{"k":{"$meta":"sortKey"}}}]`,
			want:     `[{"_id":1,"a":2,"b":"x","k":[2]},{"_id":2,"a":3,"b":"y","k":[3]}]`},
		{name: "sortKey kept through $lookup", ref: "src/mongo/db/pipeline/document_source_lookup.cpp (the output is the input with the array added)", cov: cov, docs: docs,
			other:    map[string]string{"o": other},
			pipeline: `[{"$sort":{"a":-1}},{"$lookup":{"from":"o","localField":"b","foreignField":"b","as":"j"}},{"$project":{"k":{"$meta":"sortKey"},"n":{"$size":"$j"}}}]`,
			want:     `[{"_id":2,"k":[3],"n":0},{"_id":1,"k":[2],"n":2},{"_id":3,"k":[1],"n":1}]`},
		{name: "sortKey kept through $replaceWith", ref: "src/mongo/db/pipeline/document_source_replace_root.cpp ReplaceRootTransformation::applyTransformation (copyMetaDataFrom)", cov: cov, docs: docs,
			pipeline: `[{"$sort":{"a":1}},{"$replaceWith":{"x":"$b"}},{"$addFields":{"k":{"$meta":"sortKey"}}}]`,
			want:     `[{"x":"z","k":[1]},{"x":"x","k":[2]},{"x":"y","k":[3]}]`},
		{name: "sortKey kept through $graphLookup", ref: "src/mongo/db/pipeline/document_source_graph_lookup.cpp (the output is the input with the array added)", cov: cov, docs: docs,
			pipeline: `[{"$sort":{"a":1}},{"$graphLookup":{"from":"c","startWith":"$a","connectFromField":"a","connectToField":"_id","as":"g","maxDepth":0}},{"$project":{"k":{"$meta":"sortKey"},"n":{"$size":"$g"}}}]`,
			want:     `[{"_id":3,"k":[1],"n":1},{"_id":1,"k":[2],"n":1},{"_id":2,"k":[3],"n":1}]`},
		{name: "sortKey read by $replaceRoot itself", ref: "src/mongo/db/pipeline/document_source_replace_root.cpp ReplaceRootTransformation::applyTransformation", cov: cov, docs: docs,
			pipeline: `[{"$sort":{"b":1}},{"$replaceRoot":{"newRoot":{"k":{"$meta":"sortKey"}}}}]`,
			want:     `[{"k":["x"]},{"k":["y"]},{"k":["z"]}]`},
		// $unionWith returns its input's documents as they come; its
		// sub-pipeline's have only what that pipeline set.
		{name: "sortKey kept through $unionWith for the input's documents", ref: "src/mongo/db/pipeline/document_source_union_with.cpp (input documents pass as they are)", cov: cov, docs: docs,
			other:    map[string]string{"o": other},
			pipeline: `[{"$sort":{"a":1}},{"$limit":1},{"$unionWith":{"coll":"o","pipeline":[{"$match":{"_id":10}}]}},{"$project":{"k":{"$ifNull":[{"$meta":"sortKey"},"none"]}}}]`,
			want:     `[{"_id":3,"k":[1]},{"_id":10,"k":"none"}]`},
		{name: "sortKey inside a $unionWith pipeline after its own $sort", ref: "src/mongo/db/pipeline/document_source_union_with.cpp (the sub-pipeline has its own cursor)", cov: cov, docs: docs,
			other:    map[string]string{"o": other},
			pipeline: `[{"$match":{"_id":1}},{"$unionWith":{"coll":"o","pipeline":[{"$sort":{"_id":-1}},{"$limit":2},{"$project":{"k":{"$meta":"sortKey"}}}]}}]`,
			want:     `[{"_id":1,"a":2,"b":"x"},{"_id":12,"k":[12]},{"_id":11,"k":[11]}]`},
		// A $sort run in the pipeline sets none, even after $unwind.
		{name: "sortKey after a $sort that follows $unwind is missing", ref: "src/mongo/db/pipeline/document_source_sort.cpp extractSortKey (needsMerge)", cov: cov,
			docs:     `[{"_id":1,"t":[3,1]},{"_id":2,"t":[2]}]`,
			pipeline: `[{"$unwind":"$t"},{"$sort":{"t":1}},{"$project":{"t":1,"k":{"$meta":"sortKey"}}}]`,
			want:     `[{"_id":1,"t":1},{"_id":2,"t":2},{"_id":1,"t":3}]`},
		{name: "sortKey inside $facet after $group is missing", ref: "src/mongo/db/pipeline/document_source_group.cpp (new documents)", cov: cov, docs: docs,
			pipeline: `[{"$group":{"_id":"$b"}},{"$sort":{"_id":1}},{"$facet":{"f":[{"$project":{"k":{"$ifNull":[{"$meta":"sortKey"},"none"]}}}]}}]`,
			want:     `[{"f":[{"_id":"x","k":"none"},{"_id":"y","k":"none"},{"_id":"z","k":"none"}]}]`},
		{name: "sortKey after $facet is missing", ref: "src/mongo/db/pipeline/document_source_facet.cpp (one new document)", cov: cov, docs: docs,
			pipeline: `[{"$sort":{"a":1}},{"$facet":{"f":[{"$count":"n"}]}},{"$project":{"f":1,"k":{"$meta":"sortKey"}}}]`,
			want:     `[{"f":[{"n":3}]}]`},
		// Where a sort key reaches a stage the sandbox does not hand it
		// to, it refuses rather than answer missing.
		{name: "sortKey in $group after a pushed-down $sort is refused", ref: exprm + " (kSortKey)", cov: errs, docs: docs,
			pipeline: `[{"$sort":{"a":1}},{"$group":{"_id":null,"k":{"$push":{"$meta":"sortKey"}}}}]`,
			code:     mongoerr.NotImplemented},
		{name: "sortKey in a $match $expr after a pushed-down $sort is refused", ref: exprm + " (kSortKey)", cov: errs, docs: docs,
			pipeline: `[{"$sort":{"a":1}},{"$match":{"$expr":{"$eq":[{"$meta":"sortKey"},[1]]}}}]`,
			code:     mongoerr.NotImplemented},
		// $setWindowFields sorts with a $sort that sets its own key
		// (outputSortKeyMetadata), which the sandbox does not.
		{name: "sortKey after $setWindowFields is refused", ref: "src/mongo/db/pipeline/document_source_set_window_fields.cpp (its $sort outputs sort key metadata)", cov: errs, docs: docs,
			pipeline: `[{"$setWindowFields":{"sortBy":{"a":1},"output":{"n":{"$documentNumber":{}}}}},{"$project":{"k":{"$meta":"sortKey"}}}]`,
			code:     mongoerr.NotImplemented},

		// Errors.
		{name: "textScore without $text", ref: "src/mongo/db/pipeline/dependencies.cpp DepsTracker::setNeedsMetadata; jstests/aggregation/sources/project/meta_text_score.js-style", cov: errs, docs: docs,
			pipeline: `[{"$project":{"s":{"$meta":"textScore"}}}]`,
			code:     40218, msg: "query requires text score metadata, but it is not available"},
		{name: "textScore in an $addFields after $match", ref: "src/mongo/db/pipeline/dependencies.cpp DepsTracker::setNeedsMetadata", cov: errs, docs: docs,
			pipeline: `[{"$match":{"a":1}},{"$addFields":{"s":{"$ifNull":[{"$meta":"textScore"},0]}}}]`,
			code:     40218, msg: "query requires text score metadata, but it is not available"},
		{name: "textScore inside a $facet", ref: "src/mongo/db/pipeline/document_source_facet.cpp getDependencies", cov: errs, docs: docs,
			pipeline: `[{"$facet":{"f":[{"$project":{"s":{"$meta":"textScore"}}}]}}]`,
			code:     40218, msg: "query requires text score metadata, but it is not available"},
		{name: "geoNearDistance without $geoNear", ref: "src/mongo/db/pipeline/dependencies.h kDefaultUnavailableMetadata; document_metadata_fields.cpp typeNameToDebugString", cov: errs, docs: docs,
			pipeline: `[{"$addFields":{"d":{"$meta":"geoNearDistance"}}}]`,
			code:     40218, msg: "query requires $geoNear distance metadata, but it is not available"},
		{name: "geoNearPoint without $geoNear", ref: "src/mongo/db/pipeline/dependencies.h kDefaultUnavailableMetadata", cov: errs, docs: docs,
			pipeline: `[{"$project":{"p":{"$meta":"geoNearPoint"}}}]`,
			code:     40218, msg: "query requires $geoNear point metadata, but it is not available"},
		// $meta is an expression, not an accumulator
		// (AccumulationStatement::parseAccumulationStatement).
		{name: "$meta as a $group accumulator", ref: "src/mongo/db/pipeline/accumulation_statement.cpp getParser", cov: errs, docs: docs,
			pipeline: `[{"$group":{"_id":null,"k":{"$meta":"sortKey"}}}]`,
			code:     15952, msg: "unknown group operator '$meta'"},
		{name: "$meta as a $bucketAuto output accumulator", ref: "src/mongo/db/pipeline/accumulation_statement.cpp getParser", cov: errs, docs: docs,
			pipeline: `[{"$bucketAuto":{"groupBy":"$a","buckets":1,"output":{"k":{"$meta":"recordId"}}}}]`,
			code:     15952, msg: "unknown group operator '$meta'"},
		// Not among the unavailable metadata: missing.
		{name: "searchScore without $search is missing", ref: "src/mongo/db/pipeline/dependencies.h kDefaultUnavailableMetadata (no search metadata)", cov: cov, docs: docs,
			pipeline: `[{"$match":{"_id":1}},{"$project":{"s":{"$meta":"searchScore"}}}]`,
			want:     `[{"_id":1}]`},
		// The stage's parse adds its context to the expression's error.
		{name: "$meta of a number", ref: exprm + "::parse", cov: errs, docs: docs,
			pipeline: `[{"$project":{"m":{"$meta":1}}}]`,
			code:     17307, msg: "Invalid $project :: caused by :: $meta only supports string arguments"},
		{name: "$meta of an unknown name", ref: exprm + "::parse", cov: errs, docs: docs,
			pipeline: `[{"$addFields":{"m":{"$meta":"nope"}}}]`,
			code:     17308, msg: "Invalid $addFields :: caused by :: Unsupported argument to $meta: nope"},
	})
}
