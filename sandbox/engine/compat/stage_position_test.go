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
		// A stage with a sub-pipeline takes on the strictest placement of
		// the stages inside it (getStrictestConstraints in 8.0's
		// DocumentSourceLookUp::constraints and DocumentSourceUnionWith's),
		// and Pipeline::validateFacetPipeline names the top-level stage.
		{name: "$lookup holding a $facet inside $facet", ref: "src/mongo/db/pipeline/document_source_lookup.cpp constraints; " + pipelineSrc + " validateFacetPipeline",
			pipeline: `[{"$facet": {"r": [{"$lookup": {"from": "b", "as": "j", "pipeline": [{"$facet": {"x": []}}]}}]}}]`,
			code:     40600, msg: "$lookup is not allowed to be used within a $facet stage"},
		{name: "$unionWith holding a $facet inside $facet", ref: "src/mongo/db/pipeline/document_source_union_with.h constraints; " + pipelineSrc + " validateFacetPipeline",
			pipeline: `[{"$facet": {"r": [{"$unionWith": {"coll": "b", "pipeline": [{"$facet": {"x": []}}]}}]}}]`,
			code:     40600, msg: "$unionWith is not allowed to be used within a $facet stage"},
		{name: "$lookup over $documents inside $facet", ref: "src/mongo/db/pipeline/document_source_lookup.cpp constraints; " + pipelineSrc + " validateFacetPipeline",
			pipeline: `[{"$facet": {"r": [{"$lookup": {"as": "j", "pipeline": [{"$documents": [{"a": 1}]}]}}]}}]`,
			code:     40600, msg: "$lookup is not allowed to be used within a $facet stage"},
		{name: "nested two deep inside $facet", ref: "src/mongo/db/pipeline/document_source_lookup.cpp constraints",
			pipeline: `[{"$facet": {"r": [{"$lookup": {"from": "b", "as": "j", "pipeline": [{"$unionWith": {"coll": "d", "pipeline": [{"$collStats": {}}]}}]}}]}}]`,
			code:     40600, msg: "$lookup is not allowed to be used within a $facet stage"},
		{name: "$lookup with an allowed sub-pipeline inside $facet", ref: "src/mongo/db/pipeline/document_source_lookup.cpp constraints",
			docs: `[{"_id": 1}]`, other: map[string]string{"b": `[{"_id": 1, "v": 2}]`},
			pipeline: `[{"$facet": {"r": [{"$lookup": {"from": "b", "as": "j", "pipeline": [{"$project": {"_id": 0}}]}}]}}]`,
			want:     `[{"r": [{"_id": 1, "j": [{"v": 2}]}]}]`},
		{name: "$unionWith holding a $documents inside $lookup is allowed", ref: "src/mongo/db/pipeline/document_source_union_with.h constraints",
			docs:     `[{"_id": 1}]`,
			pipeline: `[{"$lookup": {"from": "c", "as": "j", "pipeline": [{"$unionWith": {"pipeline": [{"$documents": [{"d": 1}]}]}}, {"$project": {"_id": 0}}]}}]`,
			want:     `[{"_id": 1, "j": [{}, {"d": 1}]}]`},
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
		// $mergeCursors is internal (mongos and shards merge remote cursors
		// with it) but mongod parses a client's: the IDL's answers, then the
		// sandbox's refusal, having no remote cursors.
		{name: "$mergeCursors takes an object", ref: "src/mongo/s/query/document_source_merge_cursors.cpp createFromBson",
			pipeline: `[{"$mergeCursors": 1}]`, code: 17026, msg: "$mergeCursors stage expected an object as argument"},
		{name: "$mergeCursors needs remotes", ref: "src/mongo/s/query/async_results_merger_params.idl",
			pipeline: `[{"$mergeCursors": {}}]`, code: 40414, msg: "BSON field '$mergeCursors.remotes' is missing but a required field"},
		{name: "$mergeCursors remotes is an array", ref: "src/mongo/s/query/async_results_merger_params.idl",
			pipeline: `[{"$mergeCursors": {"remotes": 1, "nss": "test.c"}}]`, code: 14, msg: "BSON field '$mergeCursors.remotes' is the wrong type 'int', expected type 'array'"},
		{name: "$mergeCursors refuses unknown fields", ref: "src/mongo/s/query/async_results_merger_params.idl",
			pipeline: `[{"$mergeCursors": {"bogus": 1}}]`, code: 40415, msg: "BSON field '$mergeCursors.bogus' is an unknown field."},
		{name: "$mergeCursors: the sandbox has no remote cursors", ref: "src/mongo/s/query/document_source_merge_cursors.cpp",
			pipeline: `[{"$mergeCursors": {"remotes": [], "nss": "test.c"}}]`, code: 238,
			msg: "$mergeCursors is not supported by the schemalab sandbox; run this step against a real MongoDB with --uri"},
	})
}

// The semantics of a stage mongod refuses on a standalone community
// server is that refusal: each case uses the stage as its manual page
// does, and gets the answer such a server gives.
func TestStagesRefusedWhenUsedAsDocumented(t *testing.T) {
	runAggCases(t, []aggCase{
		// DocumentSourceChangeStream::createFromBson parses the spec, then
		// assertIsLegalSpecification refuses a server outside a replica set.
		{name: "$changeStream with fullDocument on a standalone", ref: "src/mongo/db/pipeline/document_source_change_stream.cpp (assertIsLegalSpecification)",
			cov: cover{col: semantics}, pipeline: `[{"$changeStream": {"fullDocument": "updateLookup"}}]`,
			code: 40573, msg: "The $changeStream stage is only supported on replica sets"},
		// The stages parse in order: the $changeStream it follows refuses
		// first.
		{name: "$changeStreamSplitLargeEvent in a change stream on a standalone", ref: pipelineSrc + " (Pipeline::parseCommon parses in order)",
			cov: cover{op: "$changeStreamSplitLargeEvent", col: semantics}, pipeline: `[{"$changeStream": {}}, {"$changeStreamSplitLargeEvent": {}}]`,
			code: 40573, msg: "The $changeStream stage is only supported on replica sets"},
		{name: "$search with an index and a text operator", ref: "src/mongo/db/pipeline/search/search_helper.cpp",
			cov: cover{col: semantics}, docs: `[{"_id": 1, "a": "x"}]`,
			pipeline: `[{"$search": {"index": "default", "text": {"query": "x", "path": "a"}}}, {"$limit": 1}]`, code: 31082, msg: atlasOnly},
		{name: "$searchMeta with a count", ref: "src/mongo/db/pipeline/search/search_helper.cpp",
			cov: cover{col: semantics}, docs: `[{"_id": 1, "a": "x"}]`,
			pipeline: `[{"$searchMeta": {"index": "default", "exists": {"path": "a"}, "count": {"type": "total"}}}]`, code: 31082, msg: atlasOnly},
		{name: "$vectorSearch with its required fields", ref: "src/mongo/db/pipeline/search/search_helper.cpp",
			cov: cover{col: semantics}, docs: `[{"_id": 1, "v": [1.0, 0.0]}]`,
			pipeline: `[{"$vectorSearch": {"index": "vi", "path": "v", "queryVector": [1.0, 0.0], "numCandidates": 10, "limit": 1}}]`,
			code:     31082, msg: atlasOnly},
		{name: "$listSearchIndexes of one index by name", ref: "src/mongo/db/query/search/search_index_common.cpp",
			cov: cover{col: semantics}, docs: `[{"_id": 1}]`, pipeline: `[{"$listSearchIndexes": {"name": "default"}}]`, code: 31082,
			msg: "Using Atlas Search Database Commands and the $listSearchIndexes aggregation stage requires additional configuration. " +
				"Please connect to Atlas or an AtlasCLI local deployment to enable. For more information on how to connect, see " +
				"https://dochub.mongodb.org/core/atlas-cli-deploy-local-reqs."},
	})
}

// $geoNear needs a 2d or 2dsphere index, and the sandbox builds neither:
// what it answers is what mongod answers where there is none. The options
// are checked first, as the stage parses (DocumentSourceGeoNear::parseOptions).
func TestGeoNear(t *testing.T) {
	const (
		geoNearSrc = "src/mongo/db/pipeline/document_source_geo_near.cpp (parseOptions)"
		pipelineD  = "src/mongo/db/pipeline/pipeline_d.cpp (buildInnerQueryExecutorGeoNear, extractGeoNearFieldFromIndexes)"
	)
	places := `[{"_id": 1, "loc": [0, 0]}, {"_id": 2, "loc": [1, 1]}]`
	runAggCases(t, []aggCase{
		{name: "a collection without a geo index", ref: pipelineD, cov: cover{col: semantics}, docs: places,
			pipeline: `[{"$geoNear": {"near": [0, 0], "distanceField": "d"}}]`,
			code:     27, msg: "$geoNear requires a 2d or 2dsphere index, but none were found"},
		{name: "a regular index on the field is no geo index", ref: pipelineD, cov: cover{col: semantics}, docs: places,
			setup:    []string{`{"createIndexes": "c", "indexes": [{"key": {"loc": 1}, "name": "loc_1"}]}`},
			pipeline: `[{"$geoNear": {"near": {"type": "Point", "coordinates": [0, 0]}, "distanceField": "d", "spherical": true}}, {"$limit": 1}]`,
			code:     27, msg: "$geoNear requires a 2d or 2dsphere index, but none were found"},
		// The message names the namespace, which is the case's own
		// database: only the code is compared.
		{name: "a collection that does not exist", ref: pipelineD,
			pipeline: `[{"$geoNear": {"near": [0, 0], "distanceField": "d"}}]`, code: 26},
		{name: "near is required", ref: geoNearSrc, pipeline: `[{"$geoNear": {"distanceField": "d"}}]`,
			code: 5860400, msg: "$geoNear requires a 'near' argument"},
		{name: "limit is no longer an option", ref: geoNearSrc, pipeline: `[{"$geoNear": {"near": [0, 0], "distanceField": "d", "limit": 5}}]`,
			code: 50858, msg: "$geoNear no longer supports the 'limit' parameter. Use a $limit stage instead."},
		{name: "an unknown option", ref: geoNearSrc, pipeline: `[{"$geoNear": {"near": [0, 0], "distanceField": "d", "radius": 5}}]`,
			code: 2, msg: "Unknown argument to $geoNear: radius"},
		{name: "key of a number", ref: geoNearSrc, pipeline: `[{"$geoNear": {"near": [0, 0], "key": 1}}]`,
			code: 14, msg: "$geoNear parameter 'key' must be of type string but found type: int"},
		{name: "distanceMultiplier below zero", ref: geoNearSrc, pipeline: `[{"$geoNear": {"near": [0, 0], "distanceMultiplier": -1}}]`,
			code: 2, msg: "distanceMultiplier must be nonnegative"},
		{name: "$geoNear after another stage", ref: pipelineSrc, pipeline: `[{"$match": {}}, {"$geoNear": {"near": [0, 0], "distanceField": "d"}}]`,
			code: 40602, msg: "$geoNear is only valid as the first stage in a pipeline"},
	})
}

// The stages that report on the server itself (sessions, query
// statistics; $currentOp is run, see server_diag_test.go, and
// $planCacheStats, see plan_cache_test.go) are out of the sandbox's
// scope. Run where mongod would run them, they answer NotImplemented with
// the way out, never "unrecognized" and never an invented report.
func TestServerReportStagesAreRefused(t *testing.T) {
	const refused = " is not supported by the schemalab sandbox; run this step against a real MongoDB with --uri"
	ref := "sandbox/engine/aggregate/refusals.go; manual: reference/operator/aggregation-pipeline"
	sem := func(op string) cover { return cover{family: stage, op: op, col: semantics} }
	runCmdCases(t, []cmdCase{
		{name: "$queryStats on admin", ref: ref, cov: sem("$queryStats"), admin: true,
			cmd: `{"aggregate": 1, "pipeline": [{"$queryStats": {}}], "cursor": {}}`, code: 238, msg: "$queryStats" + refused},
		{name: "$listLocalSessions on a database", ref: ref, cov: sem("$listLocalSessions"), admin: true,
			cmd: `{"aggregate": 1, "pipeline": [{"$listLocalSessions": {}}], "cursor": {}}`, code: 238, msg: "$listLocalSessions" + refused},
		{name: "$listSessions on config.system.sessions", ref: ref, cov: sem("$listSessions"), db: "config",
			cmd: `{"aggregate": "system.sessions", "pipeline": [{"$listSessions": {}}], "cursor": {}}`, code: 238, msg: "$listSessions" + refused},
	})
}
