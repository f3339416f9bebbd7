package compat_test

import (
	"strings"
	"testing"
)

// $lookup and $unionWith copy the expression context for their foreign
// collection (ExpressionContext::copyForSubPipeline), which refuses to go
// past internalMaxSubPipelineViewDepth, 20 by default: twenty nested
// stages parse, a twenty-first fails while the pipeline is parsed. A
// $facet shares its stage's context and so adds no depth.
const subDepthRef = "src/mongo/db/pipeline/expression_context.h (copyForSubPipeline); src/mongo/db/query/query_knobs.idl (internalMaxSubPipelineViewDepth); jstests/aggregation/parsing/max_subpipeline_depth.js"

// nested wraps the innermost stage in n stages made by wrap, which puts
// its argument in the new stage's pipeline.
func nested(n int, innermost string, wrap func(inner string) string) string {
	s := innermost
	for i := 0; i < n; i++ {
		s = wrap(s)
	}
	return "[" + s + "]"
}

func TestStageSubPipelineDepth(t *testing.T) {
	lookup := func(inner string) string {
		return `{"$lookup": {"from": "c", "as": "r", "pipeline": [` + inner + `]}}`
	}
	union := func(inner string) string { return `{"$unionWith": {"coll": "c", "pipeline": [` + inner + `]}}` }
	facet := func(inner string) string { return `{"$facet": {"f": [` + inner + `]}}` }
	const msg = "Maximum number of nested sub-pipelines exceeded. Limit is 20"
	plainLookup := `{"$lookup": {"from": "c", "localField": "a", "foreignField": "a", "as": "r"}}`
	graphLookup := `{"$graphLookup": {"from": "c", "startWith": "$a", "connectFromField": "a", "connectToField": "b", "as": "g"}}`
	runAggCases(t, []aggCase{
		{name: "twenty nested unionWith stages parse", ref: subDepthRef, docs: `[{"_id": 1}]`,
			pipeline: nested(19, `{"$unionWith": "c"}`, union) + "", want: "[" + strings.Repeat(`{"_id": 1},`, 20) + `{"_id": 1}]`},
		{name: "a twenty-first nested unionWith fails", ref: subDepthRef, cov: cover{op: "$unionWith", col: errorCol},
			pipeline: nested(20, `{"$unionWith": "c"}`, union), code: 232, msg: msg},
		{name: "twenty nested lookup stages parse", ref: subDepthRef,
			pipeline: nested(19, `{"$lookup": {"from": "c", "as": "r", "pipeline": []}}`, lookup), want: `[]`},
		{name: "a twenty-first nested lookup fails", ref: subDepthRef, cov: cover{op: "$lookup", col: errorCol},
			pipeline: nested(20, `{"$lookup": {"from": "c", "as": "r", "pipeline": []}}`, lookup), code: 232, msg: msg},
		{name: "a twenty-first lookup fails without a pipeline of its own", ref: subDepthRef + "; src/mongo/db/pipeline/document_source_lookup.cpp (DocumentSourceLookUp constructor)", cov: cover{op: "$lookup", col: errorCol},
			pipeline: nested(20, plainLookup, lookup), code: 232, msg: msg},
		{name: "facets add no sub-pipeline depth", ref: subDepthRef + "; src/mongo/db/pipeline/document_source_facet.cpp (createFromBson parses with the stage's context)", cov: cover{op: "$facet"},
			pipeline: nested(19, facet(plainLookup), union), want: `[{"f": []}]`},
		{name: "a graphLookup counts as a sub-pipeline", ref: subDepthRef + "; src/mongo/db/pipeline/document_source_graph_lookup.cpp (constructor: copyForSubPipeline)",
			cov: cover{op: "$lookup", col: errorCol}, pipeline: nested(20, graphLookup, lookup), code: 232, msg: msg},
		{name: "a graphLookup at the twentieth level parses", ref: subDepthRef + "; src/mongo/db/pipeline/document_source_graph_lookup.cpp",
			pipeline: nested(19, graphLookup, lookup), want: `[]`},
	})
}

// A view read by $lookup or $unionWith is parsed with its definition ahead
// of the stage's own pipeline (the resolved namespace's pipeline, which
// DocumentSourceLookUp and DocumentSourceUnionWith parse at construction),
// so the views' sub-pipelines count towards the limit; creating a view
// does not resolve the views it reads (ViewCatalog::_validatePipeline), so
// it cannot fail for that. jstests/aggregation/sources/lookup/lookup_subpipeline.js.
func TestStageSubPipelineDepthThroughViews(t *testing.T) {
	ref := subDepthRef + "; src/mongo/db/pipeline/document_source_lookup.cpp, document_source_union_with.cpp (resolved view pipeline); " +
		"jstests/aggregation/sources/lookup/lookup_subpipeline.js"
	const msg = "Maximum number of nested sub-pipelines exceeded. Limit is 20"
	lookupOf := func(from string) func(string) string {
		return func(inner string) string {
			return `{"$lookup": {"from": "` + from + `", "as": "r", "pipeline": [` + inner + `]}}`
		}
	}
	tenOn := func(from string) string {
		return nested(9, `{"$lookup": {"from": "`+from+`", "as": "r", "pipeline": []}}`, lookupOf(from))
	}
	views := []string{
		`{"create": "v1", "viewOn": "c", "pipeline": ` + tenOn("c") + `}`,
		`{"create": "v2", "viewOn": "v1", "pipeline": ` + tenOn("v1") + `}`,
		// Twenty-one levels once resolved, but created all the same.
		`{"create": "v3", "viewOn": "v2", "pipeline": [{"$lookup": {"from": "v2", "as": "r", "pipeline": []}}]}`,
	}
	runAggCases(t, []aggCase{
		{name: "a lookup of a view nests the view's lookups", ref: ref, cov: cover{op: "$lookup", col: errorCol}, setup: views,
			pipeline: `[{"$lookup": {"from": "v2", "as": "r", "pipeline": []}}]`, code: 232, msg: msg},
		{name: "a unionWith of a view nests the view's lookups", ref: ref, cov: cover{op: "$unionWith", col: errorCol}, setup: views,
			pipeline: `[{"$unionWith": "v2"}]`, code: 232, msg: msg},
		{name: "a lookup of a view within the limit", ref: ref, setup: views, docs: `[{"_id": 1}]`,
			pipeline: `[{"$lookup": {"from": "v1", "as": "r", "pipeline": [{"$project": {"_id": 1}}]}}]`, want: `[{"_id": 1, "r": [{"_id": 1}]}]`},
	})
}
