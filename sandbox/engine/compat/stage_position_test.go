package compat_test

import (
	"strings"
	"testing"
)

const (
	pipelineSrc = "src/mongo/db/pipeline/pipeline.cpp"
	atlasOnly   = "Using $search and $vectorSearch aggregation stages requires additional configuration. " +
		"Please connect to Atlas or an AtlasCLI local deployment to enable. For more information on how to connect, see " +
		"https://dochub.mongodb.org/core/atlas-cli-deploy-local-reqs."
)

// The position rules of the stages (Pipeline::validateCommon and the
// sub-pipeline validators), and the 8.0 stages a standalone community
// server refuses, with its own answers.
func TestStagePositions(t *testing.T) {
	long := make([]string, 1001)
	for i := range long {
		long[i] = `{"$match": {}}`
	}
	runAggCases(t, []aggCase{
		{name: "first-only stage second", ref: pipelineSrc, pipeline: `[{"$match": {}}, {"$collStats": {}}]`,
			code: 40602, msg: "$collStats is only valid as the first stage in a pipeline"},
		{name: "last-only stage not last", ref: pipelineSrc, pipeline: `[{"$out": "o"}, {"$match": {}}]`,
			code: 40601, msg: "$out can only be the final stage in the pipeline"},
		{name: "a later stage's parse error comes before a position error", ref: pipelineSrc,
			pipeline: `[{"$out": "o"}, {"$match": 5}]`, code: 15959, msg: "the match filter must be an expression in an object"},
		{name: "positions are checked in order", ref: pipelineSrc,
			pipeline: `[{"$merge": "m"}, {"$indexStats": {}}]`, code: 40601, msg: "$merge can only be the final stage in the pipeline"},
		{name: "$out inside $facet", ref: "src/mongo/db/pipeline/document_source_facet.cpp",
			pipeline: `[{"$facet": {"a": [{"$out": "o"}]}}]`, code: 40600, msg: "$out is not allowed to be used within a $facet stage"},
		{name: "$facet inside $facet", ref: "src/mongo/db/pipeline/document_source_facet.cpp",
			pipeline: `[{"$facet": {"a": [{"$facet": {"b": []}}]}}]`, code: 40600, msg: "$facet is not allowed to be used within a $facet stage"},
		{name: "$merge inside $lookup", ref: "src/mongo/db/pipeline/document_source_lookup.cpp",
			pipeline: `[{"$lookup": {"from": "b", "as": "x", "pipeline": [{"$merge": "m"}]}}]`, code: 51047, msg: "$merge is not allowed within a $lookup's sub-pipeline"},
		{name: "$out inside $unionWith", ref: "src/mongo/db/pipeline/document_source_union_with.cpp",
			pipeline: `[{"$unionWith": {"coll": "b", "pipeline": [{"$out": "o"}]}}]`, code: 31441, msg: "$out is not allowed within a $unionWith's sub-pipeline"},
		{name: "a sub-pipeline's parse error before its validator", ref: pipelineSrc,
			pipeline: `[{"$unionWith": {"coll": "b", "pipeline": [{"$out": "o"}, {"$limit": 0}]}}]`, code: 15958, msg: "the limit must be positive"},
		{name: "1001 stages", ref: pipelineSrc, cov: cover{op: "pipeline"}, pipeline: `[` + strings.Join(long, ",") + `]`,
			code: 7749501, msg: "Pipeline length must be no longer than 1000 stages."},
		{name: "a stage object with two fields", ref: "src/mongo/db/pipeline/document_source.cpp", cov: cover{op: "pipeline"},
			pipeline: `[{"$match": {}, "$limit": 1}]`, code: 40323, msg: "A pipeline stage specification object must contain exactly one field."},
		{name: "a stage 8.0 does not have", ref: "src/mongo/db/pipeline/document_source.cpp", cov: cover{op: "pipeline"},
			pipeline: `[{"$rankFusion": {}}]`, code: 40324, msg: "Unrecognized pipeline stage name: '$rankFusion'"},
		{name: "$_internalInhibitOptimization passes documents through", ref: "src/mongo/db/pipeline/document_source_internal_inhibit_optimization.cpp",
			cov: cover{op: "$_internalInhibitOptimization"}, docs: `[{"_id": 1}, {"_id": 2}]`,
			pipeline: `[{"$_internalInhibitOptimization": {}}, {"$match": {"_id": 2}}]`, want: `[{"_id": 2}]`},
		{name: "$_internalInhibitOptimization takes an empty object", ref: "src/mongo/db/pipeline/document_source_internal_inhibit_optimization.cpp",
			pipeline: `[{"$_internalInhibitOptimization": {"a": 1}}]`, code: 9, msg: "$_internalInhibitOptimization must take an empty object but found: { a: 1 }"},
	})
}

func TestStagesRefused(t *testing.T) {
	runAggCases(t, []aggCase{
		{name: "$changeStream needs a replica set", ref: "src/mongo/db/pipeline/document_source_change_stream.cpp",
			pipeline: `[{"$changeStream": {}}]`, code: 40573, msg: "The $changeStream stage is only supported on replica sets"},
		{name: "$changeStreamSplitLargeEvent needs a change stream", ref: pipelineSrc,
			pipeline: `[{"$changeStreamSplitLargeEvent": {}}]`, code: 20, msg: "$changeStreamSplitLargeEvent can only be used in a $changeStream pipeline"},
		{name: "$search on a community server", ref: "src/mongo/db/pipeline/search/search_helper.cpp",
			pipeline: `[{"$search": {"text": {"query": "x", "path": "a"}}}]`, code: 31082, msg: atlasOnly},
		{name: "$vectorSearch on a community server", ref: "src/mongo/db/pipeline/search/search_helper.cpp",
			pipeline: `[{"$vectorSearch": {}}]`, code: 31082, msg: atlasOnly},
		{name: "$searchMeta on a community server", ref: "src/mongo/db/pipeline/search/search_helper.cpp",
			pipeline: `[{"$searchMeta": {}}]`, code: 31082, msg: atlasOnly},
		{name: "$listSearchIndexes on a community server", ref: "src/mongo/db/query/search/search_index_common.cpp",
			pipeline: `[{"$listSearchIndexes": {}}]`, code: 31082,
			msg: "Using Atlas Search Database Commands and the $listSearchIndexes aggregation stage requires additional configuration. " +
				"Please connect to Atlas or an AtlasCLI local deployment to enable. For more information on how to connect, see " +
				"https://dochub.mongodb.org/core/atlas-cli-deploy-local-reqs."},
		{name: "$currentOp outside admin", ref: "src/mongo/db/pipeline/document_source_current_op.cpp",
			pipeline: `[{"$currentOp": {}}]`, code: 73, msg: "$currentOp must be run against the 'admin' database with {aggregate: 1}"},
		{name: "$currentOp options must be an object", ref: "src/mongo/db/pipeline/document_source_current_op.cpp",
			pipeline: `[{"$currentOp": 1}]`, code: 9, msg: "$currentOp options must be specified in an object, but found: int"},
		{name: "$queryStats outside admin", ref: "src/mongo/db/pipeline/document_source_query_stats.cpp",
			pipeline: `[{"$queryStats": {}}]`, code: 73, msg: "$queryStats must be run against the 'admin' database with {aggregate: 1}"},
		{name: "$listLocalSessions on a collection", ref: "src/mongo/db/pipeline/document_source_list_local_sessions.cpp",
			pipeline: `[{"$listLocalSessions": {}}]`, code: 73, msg: "$listLocalSessions must be run against the database with {aggregate: 1}, not a collection"},
		{name: "$listSessions outside config.system.sessions", ref: "src/mongo/db/pipeline/document_source_list_sessions.cpp",
			pipeline: `[{"$listSessions": {}}]`, code: 73, msg: "$listSessions may only be run against config.system.sessions"},
		{name: "$planCacheStats: the sandbox has no plan cache to show", ref: "manual: reference/operator/aggregation/planCacheStats",
			pipeline: `[{"$planCacheStats": {}}]`, code: 238,
			msg: "$planCacheStats is not supported by the schemalab sandbox; run this step against a real MongoDB with --uri"},
		{name: "$geoNear: geospatial queries are outside the sandbox", ref: "manual: reference/operator/aggregation/geoNear",
			pipeline: `[{"$geoNear": {"near": [0, 0], "distanceField": "d"}}]`, code: 238,
			msg: "$geoNear is not supported by the schemalab sandbox; run this step against a real MongoDB with --uri"},
	})
}
