package compat_test

import "testing"

// $collStats's queryExecStats counts the collection scans of the
// collection it is asked about: CollectionQueryInfo::notifyOfQuery hands
// each operation's plan summary to the collection's
// CollectionIndexUsageTracker (collection_index_usage_tracker.cpp), which
// appendQueryExecStats (common_mongod_process_interface.cpp) reads. A
// tailable scan counts in total only; an index scan, a scan of another
// collection and a getMore count nothing. The sandbox always answered zero.
// Follows jstests/aggregation/sources/collStats/query_exec_stats.js.
func TestCollStatsQueryExecStatsCountsScans(t *testing.T) {
	ref := "src/mongo/db/collection_index_usage_tracker.cpp; src/mongo/db/pipeline/process_interface/common_mongod_process_interface.cpp"
	cov := cover{family: stage, op: "$collStats", col: semantics}
	stats := `{"aggregate": "k", "pipeline": [{"$collStats": {"queryExecStats": {}}}, {"$replaceWith": "$queryExecStats.collectionScans"}], "cursor": {}}`
	capped := []string{
		`{"create": "k", "capped": true, "size": 4096}`,
		`{"insert": "k", "documents": [{"_id": 1, "a": 1}, {"_id": 2, "a": 2}, {"_id": 3, "a": 3}]}`,
	}
	runCmdCases(t, []cmdCase{
		{name: "$collStats queryExecStats starts at zero", ref: ref, cov: cov,
			setup: capped, cmd: stats, thenFind: stats, thenWant: `[{"total": {"$numberLong": "0"}, "nonTailable": {"$numberLong": "0"}}]`},
		{name: "$collStats queryExecStats counts find, count and tailable scans", ref: ref, cov: cov,
			setup: append(capped,
				`{"find": "k", "filter": {"a": 1}}`,
				`{"find": "k", "filter": {"a": 2}}`,
				`{"count": "k", "query": {"a": 3}}`,
				`{"find": "k", "filter": {"a": 1}, "tailable": true}`,
				`{"find": "c", "filter": {"a": 1}}`),
			cmd: stats, thenFind: stats, thenWant: `[{"total": {"$numberLong": "4"}, "nonTailable": {"$numberLong": "3"}}]`},
		{name: "$collStats queryExecStats does not count index scans", ref: ref, cov: cov,
			setup: append(capped,
				`{"createIndexes": "k", "indexes": [{"key": {"a": 1}, "name": "a_1"}]}`,
				`{"find": "k", "filter": {"a": 1}}`,
				`{"aggregate": "k", "pipeline": [{"$match": {"a": 2}}], "cursor": {}}`),
			cmd: stats, thenFind: stats, thenWant: `[{"total": {"$numberLong": "0"}, "nonTailable": {"$numberLong": "0"}}]`},
		{name: "$collStats queryExecStats starts again after a drop", ref: ref, cov: cov,
			setup: append(capped,
				`{"find": "k", "filter": {"a": 1}}`,
				`{"drop": "k"}`,
				`{"insert": "k", "documents": [{"_id": 1}]}`),
			cmd: stats, thenFind: stats, thenWant: `[{"total": {"$numberLong": "0"}, "nonTailable": {"$numberLong": "0"}}]`},
	})
}

// A pipeline that starts with a stage making its own documents reads none
// of the collection: PipelineD::buildInnerQueryExecutor (pipeline_d.cpp)
// builds no $cursor when the first stage has requiresInputDocSource false,
// so explain shows the stages alone and no collection scan is counted. The
// sandbox planned a COLLSCAN it never read, showed it as a $cursor stage
// and counted it in queryExecStats and serverStatus.
func TestNoInputStagesReadNoCollection(t *testing.T) {
	ref := "src/mongo/db/pipeline/pipeline_d.cpp; src/mongo/db/pipeline/document_source_index_stats.h; src/mongo/db/pipeline/document_source_plan_cache_stats.h"
	stats := `{"aggregate": "c", "pipeline": [{"$collStats": {"queryExecStats": {}}}, {"$replaceWith": "$queryExecStats.collectionScans"}], "cursor": {}}`
	runCmdCases(t, []cmdCase{
		{name: "explain of a $collStats pipeline has no $cursor", ref: ref, cov: cover{family: stage, op: "$collStats", col: explain},
			docs: `[{"_id": 1}]`,
			cmd:  `{"explain": {"aggregate": "c", "pipeline": [{"$collStats": {"count": {}}}], "cursor": {}}, "verbosity": "queryPlanner"}`,
			want: `{"explainVersion": "1", "stages": [{"$collStats": {"count": {}}}]}`},
		{name: "explain of an $indexStats pipeline has no $cursor", ref: ref, cov: cover{family: stage, op: "$indexStats", col: explain},
			docs: `[{"_id": 1}]`,
			cmd:  `{"explain": {"aggregate": "c", "pipeline": [{"$indexStats": {}}], "cursor": {}}, "verbosity": "queryPlanner"}`,
			want: `{"explainVersion": "1", "stages": [{"$indexStats": {}}]}`},
		{name: "$indexStats and $planCacheStats scan nothing", ref: ref, cov: cover{family: stage, op: "$indexStats", col: semantics},
			docs: `[{"_id": 1}]`,
			setup: []string{
				`{"aggregate": "c", "pipeline": [{"$indexStats": {}}], "cursor": {}}`,
				`{"aggregate": "c", "pipeline": [{"$planCacheStats": {}}], "cursor": {}}`,
				`{"aggregate": "c", "pipeline": [{"$collStats": {"count": {}}}], "cursor": {}}`},
			cmd: stats, thenFind: stats, thenWant: `[{"total": {"$numberLong": "0"}, "nonTailable": {"$numberLong": "0"}}]`},
	})
}

// count and queryExecStats take the empty object alone: their IDL
// validator is validateObjectIsEmpty (document_source_coll_stats.idl,
// document_source_parsing_validators.cpp), run in the field's turn, so a
// later option's wrong type is not reached. The sandbox accepted any
// object.
func TestCollStatsEmptyObjectOptions(t *testing.T) {
	ref := "src/mongo/db/pipeline/document_source_coll_stats.idl; src/mongo/db/pipeline/document_source_parsing_validators.cpp"
	cov := cover{family: stage, op: "$collStats", col: errorCol}
	runCmdCases(t, []cmdCase{
		{name: "$collStats count with a field", ref: ref, cov: cov,
			cmd:  `{"aggregate": "c", "pipeline": [{"$collStats": {"count": {"a": 1}}}], "cursor": {}}`,
			code: 31170, msg: "expected an empty object, but got { a: 1 }"},
		{name: "$collStats queryExecStats with a field, before a wrong latencyStats", ref: ref, cov: cov,
			cmd:  `{"aggregate": "c", "pipeline": [{"$collStats": {"queryExecStats": {"x": "y"}, "latencyStats": 1}}], "cursor": {}}`,
			code: 31170, msg: `expected an empty object, but got { x: "y" }`},
		{name: "$collStats latencyStats checked in its turn, before count", ref: ref, cov: cov,
			cmd:  `{"aggregate": "c", "pipeline": [{"$collStats": {"latencyStats": {"histograms": 1}, "count": {"a": 1}}}], "cursor": {}}`,
			code: 14, msg: "BSON field '$collStats.latencyStats.histograms' is the wrong type 'int', expected type 'bool'"},
	})
}
