package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// mongod 8.0 keeps a plan cache per collection: after a query that was
// multi-planned, $planCacheStats lists an entry for its shape
// (jstests/core/plan_cache_shell_helpers.js expects four). The sandbox
// plans every query afresh and has no cache nor index filters, so an empty
// listing would be a wrong answer: $planCacheStats and the plan cache
// commands (plan_cache_commands.cpp, index_filter_commands.cpp) are
// refused NotImplemented, never "no such command".
func TestPlanCacheRefused(t *testing.T) {
	const ref = "src/mongo/db/commands/plan_cache_commands.cpp, index_filter_commands.cpp; jstests/core/plan_cache_shell_helpers.js"
	errCov := func(op string) cover { return cover{family: commandFam, op: op, col: errorCol} }
	runCmdCases(t, []cmdCase{
		{name: "planCacheClear", ref: ref, cov: errCov("planCacheClear"), cmd: `{"planCacheClear":"c"}`, code: mongoerr.NotImplemented},
		{name: "planCacheClearFilters", ref: ref, cov: errCov("planCacheClearFilters"), cmd: `{"planCacheClearFilters":"c"}`, code: mongoerr.NotImplemented},
		{name: "planCacheListFilters", ref: ref, cov: errCov("planCacheListFilters"), cmd: `{"planCacheListFilters":"c"}`, code: mongoerr.NotImplemented},
		{name: "planCacheSetFilter", ref: ref, cov: errCov("planCacheSetFilter"), cmd: `{"planCacheSetFilter":"c","query":{"a":1},"indexes":[{"a":1}]}`, code: mongoerr.NotImplemented},
		{name: "$planCacheStats", ref: ref, cov: cover{family: stage, op: "$planCacheStats", col: errorCol}, cmd: `{"aggregate":"c","pipeline":[{"$planCacheStats":{}}],"cursor":{}}`, code: mongoerr.NotImplemented},
	})
}
