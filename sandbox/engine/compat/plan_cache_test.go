package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The classic plan cache as mongod 8.0 keeps it per collection: a query
// the planner multi-plans leaves an entry for its shape, inactive first
// and active once a second trial costs no more works
// (plan_cache/plan_cache.h, PlanCache::set); $planCacheStats lists the
// entries (Explain::planCacheEntryToBSON), planCacheClear drops all of
// them or one shape's (plan_cache_clear_command.cpp), an index build
// drops them all; hinted queries and explains neither read nor write the
// cache (shouldCacheQuery). jstests/core/plan_cache_list_plans.js,
// plan_cache_clear.js, plan_cache_list_shapes.js.
func TestPlanCacheEntries(t *testing.T) {
	const ref = "src/mongo/db/query/plan_cache/plan_cache.h, explain.cpp planCacheEntryToBSON; jstests/core/plan_cache_list_plans.js, plan_cache_clear.js"
	const docs = `[{"_id":1,"a":1,"b":1},{"_id":2,"a":1,"b":2},{"_id":3,"a":1,"b":2},{"_id":4,"a":2,"b":2}]`
	indexes := `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"},{"key":{"a":1,"b":1},"name":"a_1_b_1"}]}`
	find := `{"find":"c","filter":{"a":1,"b":1},"projection":{"_id":0,"a":1},"sort":{"a":-1}}`
	stats := `{"aggregate":"c","pipeline":[{"$planCacheStats":{}},{"$project":{"_id":0,"isActive":1,"createdFromQuery":1,"indexFilterSet":1,` +
		`"plans":{"$size":"$creationExecStats"},"scores":{"$size":"$candidatePlanScores"},"version":1,"hasHash":{"$eq":["$queryHash","$planCacheShapeHash"]}}}],"cursor":{}}`
	stageCov := func(col column) cover { return cover{family: stage, op: "$planCacheStats", col: col} }
	runCmdCases(t, []cmdCase{
		{name: "entry after multi-planning is inactive", ref: ref, cov: stageCov(semantics), docs: docs, setup: []string{indexes}, cmd: find,
			thenFind: stats,
			thenWant: `[{"version":"1","isActive":false,"createdFromQuery":{"query":{"a":1,"b":1},"sort":{"a":-1},"projection":{"_id":0,"a":1}},"indexFilterSet":false,"plans":2,"scores":2,"hasHash":true}]`},
		{name: "second run activates the entry", ref: ref, cov: stageCov(semantics), docs: docs, setup: []string{indexes, find}, cmd: find,
			thenFind: `{"aggregate":"c","pipeline":[{"$planCacheStats":{}},{"$project":{"_id":0,"isActive":1}}],"cursor":{}}`,
			thenWant: `[{"isActive":true}]`},
		{name: "a single plan is not cached", ref: "plan_cache.h shouldCacheQuery; jstests/core/wildcard_index_cached_plans.js", cov: stageCov(semantics), docs: docs,
			setup: []string{indexes}, cmd: `{"find":"c","filter":{"b":2}}`,
			thenFind: `{"aggregate":"c","pipeline":[{"$planCacheStats":{}}],"cursor":{}}`, thenWant: `[]`},
		{name: "a hinted query is not cached", ref: "plan_cache.h shouldCacheQuery", cov: stageCov(semantics), docs: docs,
			setup: []string{indexes}, cmd: `{"find":"c","filter":{"a":1,"b":1},"hint":{"a":1}}`,
			thenFind: `{"aggregate":"c","pipeline":[{"$planCacheStats":{}}],"cursor":{}}`, thenWant: `[]`},
		{name: "explain is not cached", ref: "plan_cache.h shouldCacheQuery; jstests/core/plan_cache_shell_helpers.js", cov: stageCov(semantics), docs: docs,
			setup: []string{indexes}, cmd: `{"explain":` + find + `,"verbosity":"executionStats"}`,
			thenFind: `{"aggregate":"c","pipeline":[{"$planCacheStats":{}}],"cursor":{}}`, thenWant: `[]`},
		{name: "an explained aggregate is not cached", ref: "plan_cache.h shouldCacheQuery", cov: stageCov(semantics), docs: docs,
			setup: []string{indexes}, cmd: `{"explain":{"aggregate":"c","pipeline":[{"$match":{"a":1,"b":1}}],"cursor":{}},"verbosity":"executionStats"}`,
			thenFind: `{"aggregate":"c","pipeline":[{"$planCacheStats":{}}],"cursor":{}}`, thenWant: `[]`},
		{name: "an aggregate's $match is cached", ref: "pipeline_d.cpp (the leading $match planned by the query layer)", cov: stageCov(semantics), docs: docs,
			setup: []string{indexes}, cmd: `{"aggregate":"c","pipeline":[{"$match":{"a":1,"b":1}},{"$project":{"_id":1}}],"cursor":{}}`,
			thenFind: `{"aggregate":"c","pipeline":[{"$planCacheStats":{}},{"$project":{"_id":0,"q":"$createdFromQuery.query","isActive":1}}],"cursor":{}}`,
			thenWant: `[{"isActive":false,"q":{"a":1,"b":1}}]`},
		{name: "index build clears the cache", ref: ref, cov: stageCov(semantics), docs: docs, setup: []string{indexes, find},
			cmd:      `{"createIndexes":"c","indexes":[{"key":{"b":1},"name":"b_1"}]}`,
			thenFind: `{"aggregate":"c","pipeline":[{"$planCacheStats":{}}],"cursor":{}}`, thenWant: `[]`},
		{name: "shapes differ by regex flags", ref: "jstests/core/plan_cache_list_shapes.js", cov: stageCov(semantics), docs: docs,
			setup:    []string{indexes, `{"find":"c","filter":{"a":1,"s":{"$regex":"x","$options":"m"}}}`},
			cmd:      `{"find":"c","filter":{"a":1,"s":{"$regex":"x","$options":"mi"}}}`,
			thenFind: `{"aggregate":"c","pipeline":[{"$planCacheStats":{}},{"$group":{"_id":null,"n":{"$sum":1}}}],"cursor":{}}`,
			thenWant: `[{"_id":null,"n":2}]`},
		{name: "planCacheClear with a query clears one shape", ref: ref, docs: docs,
			setup: []string{indexes, find, `{"find":"c","filter":{"a":1,"b":1}}`},
			cmd:   `{"planCacheClear":"c","query":{"a":5,"b":7}}`, want: `{"ok":1.0}`,
			thenFind: `{"aggregate":"c","pipeline":[{"$planCacheStats":{}},{"$project":{"_id":0,"q":"$createdFromQuery.query"}}],"cursor":{}}`,
			thenWant: `[{"q":{"a":1,"b":1}}]`},
		{name: "planCacheClear clears all", ref: ref, docs: docs, setup: []string{indexes, find},
			cmd: `{"planCacheClear":"c"}`, want: `{"ok":1.0}`,
			thenFind: `{"aggregate":"c","pipeline":[{"$planCacheStats":{}}],"cursor":{}}`, thenWant: `[]`},
		{name: "planCacheClear on a missing collection", ref: ref, cmd: `{"planCacheClear":"nosuch"}`, want: `{"ok":1.0}`},
		{name: "planCacheClear sort without query", ref: ref, docs: docs, cmd: `{"planCacheClear":"c","sort":{"a":1}}`,
			code: mongoerr.BadValue, msg: "sort, projection, or collation provided without query"},
		{name: "planCacheClear query not an object", ref: "plan_cache_commands.cpp canonicalize", docs: docs, cmd: `{"planCacheClear":"c","query":1}`,
			code: mongoerr.BadValue, msg: "required field query must be an object"},
		{name: "planCacheClear projection not an object", ref: "plan_cache_commands.cpp canonicalize", docs: docs, cmd: `{"planCacheClear":"c","query":{},"projection":1}`,
			code: mongoerr.BadValue, msg: "optional field projection must be an object"},
		{name: "planCacheClear NUL in the name", ref: nulNamespaceRef, cmd: `{"planCacheClear":"a\u0000b"}`,
			code: mongoerr.InvalidNamespace, msg: "namespaces cannot have embedded null characters"},
		{name: "$planCacheStats value not an object", ref: "document_source_plan_cache_stats.cpp", cov: stageCov(errorCol), docs: docs,
			cmd:  `{"aggregate":"c","pipeline":[{"$planCacheStats":1}],"cursor":{}}`,
			code: mongoerr.FailedToParse, msg: "$planCacheStats value must be an object. Found: int"},
		{name: "$planCacheStats not first", ref: "pipeline.cpp; document_source_plan_cache_stats.h kFirst", cov: stageCov(errorCol), docs: docs,
			cmd:  `{"aggregate":"c","pipeline":[{"$match":{}},{"$planCacheStats":{}}],"cursor":{}}`,
			code: mongoerr.ErrStageNotFirst, msg: "$planCacheStats is only valid as the first stage in a pipeline"},
		{name: "$planCacheStats missing collection", ref: "common_mongod_process_interface.cpp getMatchingPlanCacheEntryStats", cov: stageCov(errorCol),
			cmd:  `{"aggregate":"nosuch","pipeline":[{"$planCacheStats":{}}],"cursor":{}}`,
			code: mongoerr.ErrPlanCacheStatsNoCollection, msg: planExecutor + "collection '{{db}}.nosuch' does not exist"},
	})
}

// Index filters (index_filter_commands.cpp, query_settings.cpp): per
// collection and query shape, the planner sees only the listed indexes
// (by key pattern or name), a hint is then ignored, explain reports
// indexFilterSet, and setting or clearing a filter drops the shape's cache
// entries. jstests/core/index_filter_commands.js,
// index_filter_catalog_independent.js, wildcard_index_filter.js.
func TestIndexFilters(t *testing.T) {
	const ref = "src/mongo/db/commands/index_filter_commands.cpp; jstests/core/index_filter_commands.js"
	const docs = `[{"_id":1,"a":1,"b":1},{"_id":2,"a":1,"b":2},{"_id":3,"a":2}]`
	indexes := `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"},{"key":{"a":1,"b":1},"name":"a_1_b_1"},{"key":{"b":1},"name":"b_1"}]}`
	set := `{"planCacheSetFilter":"c","query":{"a":1,"b":1},"indexes":["b_1",{"a":1,"c":1},{"a":1,"b":1}]}`
	winner := func(find string) string {
		return `{"explain":` + find + `,"verbosity":"queryPlanner"}`
	}
	runCmdCases(t, []cmdCase{
		{name: "list after set", ref: ref, docs: docs, setup: []string{indexes, set}, cmd: `{"planCacheListFilters":"c"}`,
			want: `{"filters":[{"query":{"a":1,"b":1},"sort":{},"projection":{},"indexes":[{"a":1,"b":1},{"a":1,"c":1},"b_1"]}],"ok":1.0}`},
		{name: "list on a missing collection", ref: ref, cmd: `{"planCacheListFilters":"nosuch"}`, want: `{"filters":[],"ok":1.0}`},
		{name: "filter restricts the planner", ref: ref, cov: cover{family: commandFam, op: "planCacheSetFilter", col: explain}, docs: docs,
			setup: []string{indexes, `{"planCacheSetFilter":"c","query":{"a":1,"b":1},"indexes":["b_1"]}`},
			cmd:   winner(`{"find":"c","filter":{"a":5,"b":6}}`),
			want:  `{"queryPlanner":{"namespace":"*","parsedQuery":"*","indexFilterSet":true,"queryHash":"*","planCacheShapeHash":"*","planCacheKey":"*","optimizationTimeMillis":"*","maxIndexedOrSolutionsReached":false,"maxIndexedAndSolutionsReached":false,"maxScansToExplodeReached":false,"prunedSimilarIndexes":false,"winningPlan":{"isCached":false,"stage":"FETCH","filter":{"a":{"$eq":5}},"inputStage":"*"},"rejectedPlans":[]}}`},
		{name: "filter overrides a hint", ref: ref, cov: cover{family: commandFam, op: "planCacheSetFilter", col: explain}, docs: docs,
			setup: []string{indexes, `{"planCacheSetFilter":"c","query":{"a":1,"b":1},"indexes":["b_1"]}`},
			cmd:   winner(`{"find":"c","filter":{"a":5,"b":6},"hint":{"a":1}}`),
			want:  `{"queryPlanner":{"namespace":"*","parsedQuery":"*","indexFilterSet":true,"queryHash":"*","planCacheShapeHash":"*","planCacheKey":"*","optimizationTimeMillis":"*","maxIndexedOrSolutionsReached":false,"maxIndexedAndSolutionsReached":false,"maxScansToExplodeReached":false,"prunedSimilarIndexes":false,"winningPlan":{"isCached":false,"stage":"FETCH","filter":{"a":{"$eq":5}},"inputStage":"*"},"rejectedPlans":[]}}`},
		{name: "filtered entry says so", ref: ref, docs: docs, setup: []string{indexes, set},
			cmd:      `{"find":"c","filter":{"a":1,"b":1}}`,
			thenFind: `{"aggregate":"c","pipeline":[{"$planCacheStats":{}},{"$project":{"_id":0,"indexFilterSet":1}}],"cursor":{}}`,
			thenWant: `[{"indexFilterSet":true}]`},
		{name: "setting a filter drops the shape's entry", ref: ref, docs: docs, setup: []string{indexes, `{"find":"c","filter":{"a":1,"b":1}}`},
			cmd: set, want: `{"ok":1.0}`,
			thenFind: `{"aggregate":"c","pipeline":[{"$planCacheStats":{}}],"cursor":{}}`, thenWant: `[]`},
		{name: "clear one shape", ref: ref, docs: docs, setup: []string{indexes, set, `{"planCacheSetFilter":"c","query":{"b":1},"indexes":["b_1"]}`},
			cmd: `{"planCacheClearFilters":"c","query":{"a":3,"b":4}}`, want: `{"ok":1.0}`,
			thenFind: `{"planCacheListFilters":"c"}`, thenWant: `{"filters":[{"query":{"b":1},"sort":{},"projection":{},"indexes":["b_1"]}],"ok":1.0}`},
		{name: "clear all", ref: ref, docs: docs, setup: []string{indexes, set},
			cmd: `{"planCacheClearFilters":"c"}`, want: `{"ok":1.0}`,
			thenFind: `{"planCacheListFilters":"c"}`, thenWant: `{"filters":[],"ok":1.0}`},
		{name: "filters outlive their indexes", ref: "jstests/core/index_filter_catalog_independent.js", docs: docs, setup: []string{indexes, set},
			cmd: `{"dropIndexes":"c","index":"*"}`, thenFind: `{"planCacheListFilters":"c"}`,
			thenWant: `{"filters":[{"query":{"a":1,"b":1},"sort":{},"projection":{},"indexes":[{"a":1,"b":1},{"a":1,"c":1},"b_1"]}],"ok":1.0}`},
		{name: "a drop clears the filters", ref: "query_settings decoration of the collection", docs: docs, setup: []string{indexes, set, `{"drop":"c"}`, `{"create":"c"}`},
			cmd: `{"planCacheListFilters":"c"}`, want: `{"filters":[],"ok":1.0}`},
		{name: "clear filters sort without query", ref: ref, docs: docs, cmd: `{"planCacheClearFilters":"c","projection":{}}`,
			code: mongoerr.BadValue, msg: "sort, projection, or collation provided without query"},
		{name: "clear filters on a missing collection", ref: ref, cmd: `{"planCacheClearFilters":"nosuch"}`, want: `{"ok":1.0}`},
		{name: "set on a missing collection", ref: ref, cmd: `{"planCacheSetFilter":"nosuch","query":{},"indexes":[{"a":1}]}`,
			code: mongoerr.BadValue, msg: "no such collection"},
		{name: "indexes missing", ref: ref, docs: docs, cmd: `{"planCacheSetFilter":"c","query":{}}`,
			code: mongoerr.BadValue, msg: "required field indexes missing"},
		{name: "indexes not an array", ref: ref, docs: docs, cmd: `{"planCacheSetFilter":"c","query":{},"indexes":{"a":1}}`,
			code: mongoerr.BadValue, msg: "required field indexes must be an array"},
		{name: "indexes empty", ref: ref, docs: docs, cmd: `{"planCacheSetFilter":"c","query":{},"indexes":[]}`,
			code: mongoerr.BadValue, msg: "required field indexes must contain at least one index"},
		{name: "index spec empty", ref: ref, docs: docs, cmd: `{"planCacheSetFilter":"c","query":{},"indexes":[{}]}`,
			code: mongoerr.BadValue, msg: "index specification cannot be empty"},
		{name: "index item a number", ref: ref, docs: docs, cmd: `{"planCacheSetFilter":"c","query":{},"indexes":[1]}`,
			code: mongoerr.BadValue, msg: "each item in indexes must be an object or string"},
		{name: "query missing", ref: "plan_cache_commands.cpp canonicalize", docs: docs, cmd: `{"planCacheSetFilter":"c","indexes":[{"a":1}]}`,
			code: mongoerr.BadValue, msg: "required field query missing"},
		{name: "sort not an object", ref: "plan_cache_commands.cpp canonicalize", docs: docs, cmd: `{"planCacheSetFilter":"c","query":{},"sort":1,"indexes":[{"a":1}]}`,
			code: mongoerr.BadValue, msg: "optional field sort must be an object"},
		{name: "query fails to parse", ref: "jstests/core/index_filter_commands.js ($$unbound)", docs: docs,
			cmd:  `{"planCacheSetFilter":"c","query":{"$expr":{"$eq":["$a","$$unbound"]}},"indexes":[{"a":1}]}`,
			code: 17276, msg: "Use of undefined variable: unbound"},
		{name: "list NUL in the name", ref: nulNamespaceRef, cmd: `{"planCacheListFilters":"\u0000"}`,
			code: mongoerr.InvalidNamespace, msg: "namespaces cannot have embedded null characters"},
	})
}
