package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Under apiStrict: true, LiteParsedPipeline::validate refuses the stages
// registered outside API Version 1 before the pipeline is parsed in full
// (src/mongo/db/pipeline/lite_parsed_pipeline.cpp,
// src/mongo/db/query/allowed_contexts.cpp assertLanguageFeatureIsAllowed),
// in sub-pipelines too; $collStats allows only count, and a view's
// definition is checked the same way (jstest
// core/query/api/api_version_pipeline_stages.js).
func TestAPIStrictStages(t *testing.T) {
	const (
		ref  = "src/mongo/db/query/allowed_contexts.cpp; src/mongo/db/pipeline/lite_parsed_pipeline.cpp; jstests/core/query/api/api_version_pipeline_stages.js"
		errs = mongoerr.APIStrictError
	)
	docs := `[{"_id": 1, "a": 1}]`
	errCase := func(op string) cover { return cover{family: stage, op: op, col: errorCol} }
	semCase := func(op string) cover { return cover{family: stage, op: op, col: semantics} }
	cmdErr := func(op string) cover { return cover{family: commandFam, op: op, col: errorCol} }
	never := func(stage string) string { return stage + " is not allowed with 'apiStrict: true' in API Version 1" }
	runCmdCases(t, []cmdCase{
		{name: "apiStrict: $indexStats", ref: ref, cov: errCase("$indexStats"), docs: docs,
			cmd: `{"aggregate": "c", "pipeline": [{"$indexStats": {}}], "cursor": {}` + strictAPI + `}`, code: errs, msg: never("$indexStats")},
		{name: "apiStrict: $currentOp", ref: ref, cov: errCase("$currentOp"), admin: true,
			cmd: `{"aggregate": 1, "pipeline": [{"$currentOp": {}}], "cursor": {}` + strictAPI + `}`, code: errs, msg: never("$currentOp")},
		{name: "apiStrict: $planCacheStats", ref: ref, cov: errCase("$planCacheStats"), docs: docs,
			cmd: `{"aggregate": "c", "pipeline": [{"$planCacheStats": {}}], "cursor": {}` + strictAPI + `}`, code: errs, msg: never("$planCacheStats")},
		{name: "apiStrict: $fill", ref: ref + "; src/mongo/db/pipeline/document_source_fill.cpp", cov: errCase("$fill"), docs: docs,
			cmd: `{"aggregate": "c", "pipeline": [{"$fill": {"output": {"a": {"value": 0}}}}], "cursor": {}` + strictAPI + `}`, code: errs, msg: never("$fill")},
		{name: "apiStrict: $_internalInhibitOptimization", ref: ref, cov: errCase("$_internalInhibitOptimization"), docs: docs,
			cmd: `{"aggregate": "c", "pipeline": [{"$_internalInhibitOptimization": {}}], "cursor": {}` + strictAPI + `}`, code: errs, msg: never("$_internalInhibitOptimization")},
		{name: "apiStrict: $mergeCursors is internal", ref: ref, cov: errCase("$mergeCursors"), docs: docs,
			cmd: `{"aggregate": "c", "pipeline": [{"$mergeCursors": {}}], "cursor": {}` + strictAPI + `}`, code: errs,
			msg: "$mergeCursors cannot be specified with 'apiStrict: true' in API Version 1"},
		{name: "apiStrict: $indexStats inside $lookup", ref: ref, cov: errCase("$lookup"), docs: docs,
			cmd: `{"aggregate": "c", "pipeline": [{"$lookup": {"from": "o", "pipeline": [{"$indexStats": {}}], "as": "x"}}], "cursor": {}` + strictAPI + `}`, code: errs, msg: never("$indexStats")},
		{name: "apiStrict: $indexStats inside $facet", ref: ref, cov: errCase("$facet"), docs: docs,
			cmd: `{"aggregate": "c", "pipeline": [{"$facet": {"f1": [], "f2": [{"$indexStats": {}}]}}], "cursor": {}` + strictAPI + `}`, code: errs, msg: never("$indexStats")},
		{name: "apiStrict: $collStats latencyStats inside $unionWith", ref: ref, cov: errCase("$unionWith"), docs: docs,
			cmd: `{"aggregate": "c", "pipeline": [{"$unionWith": {"coll": "o", "pipeline": [{"$collStats": {"latencyStats": {}}}]}}], "cursor": {}` + strictAPI + `}`, code: errs,
			msg: "only the 'count' option to $collStats is supported in API Version 1"},
		{name: "apiStrict: $collStats storageStats", ref: ref + "; src/mongo/db/pipeline/document_source_coll_stats.cpp", cov: errCase("$collStats"), docs: docs,
			cmd: `{"aggregate": "c", "pipeline": [{"$collStats": {"count": {}, "storageStats": {}}}], "cursor": {}` + strictAPI + `}`, code: errs,
			msg: "only the 'count' option to $collStats is supported in API Version 1"},
		{name: "apiStrict: $collStats count is allowed", ref: ref + "; src/mongo/db/pipeline/document_source_coll_stats.cpp", cov: semCase("$collStats"), docs: docs,
			cmd:      `{"aggregate": "c", "pipeline": [{"$collStats": {"count": {}}}, {"$project": {"count": 1, "_id": 0}}], "cursor": {}` + strictAPI + `}`,
			thenFind: `{"aggregate": "c", "pipeline": [{"$collStats": {"count": {}}}, {"$project": {"count": 1, "_id": 0}}], "cursor": {}` + strictAPI + `}`,
			thenWant: `[{"count": 1}]`},
		{name: "apiVersion 1 without apiStrict: $indexStats is allowed", ref: ref, cov: semCase("$indexStats"), docs: docs,
			cmd: `{"aggregate": "c", "pipeline": [{"$indexStats": {}}, {"$count": "n"}], "cursor": {}, "apiVersion": "1"}`},
		{name: "apiStrict: a view defined with $indexStats", ref: ref, cov: cmdErr("create"), docs: docs,
			cmd: `{"create": "v", "viewOn": "c", "pipeline": [{"$indexStats": {}}]` + strictAPI + `}`, code: errs, msg: never("$indexStats")},
		{name: "apiStrict: reading a view defined with $indexStats", ref: ref, cov: cmdErr("aggregate"), docs: docs,
			setup: []string{`{"create": "v", "viewOn": "c", "pipeline": [{"$indexStats": {}}]}`},
			cmd:   `{"aggregate": "v", "pipeline": [], "cursor": {}` + strictAPI + `}`, code: errs, msg: never("$indexStats")},
	})
}
