package compat_test

import "testing"

// $collStats's queryExecStats on a collection that does not exist fails as
// 8.0's makeStatsForNs (document_source_coll_stats.cpp) wraps the
// NamespaceNotFound of appendQueryExecStats
// (common_mongod_process_interface.cpp); found while walking
// jstests/aggregation/sources/collStats/query_exec_stats.js, whose end drops
// the collection and asks again (the sandbox answered zero counters). The
// counters are longs (appendQueryExecStats casts them to long long); the
// sandbox wrote them as ints.
func TestSweep43CollStatsQueryExecStatsMissingCollection(t *testing.T) {
	ref := "src/mongo/db/pipeline/document_source_coll_stats.cpp; src/mongo/db/pipeline/process_interface/common_mongod_process_interface.cpp"
	errCase := cover{family: stage, op: "$collStats", col: errorCol}
	semCase := cover{family: stage, op: "$collStats", col: semantics}
	scans := `{"aggregate": "c", "pipeline": [{"$collStats": {"queryExecStats": {}}}, {"$project": {"_id": 0, "has": {"$eq": [{"$type": "$queryExecStats.collectionScans.total"}, "long"]}}}], "cursor": {}}`
	runCmdCases(t, []cmdCase{
		{name: "$collStats queryExecStats of a missing collection", ref: ref, cov: errCase,
			cmd:  `{"aggregate": "gone", "pipeline": [{"$collStats": {"queryExecStats": {}}}], "cursor": {}}`,
			code: 26, msg: "PlanExecutor error during aggregation :: caused by :: Unable to retrieve queryExecStats in $collStats stage :: caused by :: Collection [{{db}}.gone] not found."},
		{name: "$collStats queryExecStats counters are longs", ref: ref, cov: semCase,
			docs: `[{"_id": 1}]`,
			cmd:  scans, thenFind: scans, thenWant: `[{"has": true}]`},
	})
}

// makeStatsForNs (document_source_coll_stats.cpp) appends latencyStats,
// storageStats, count and queryExecStats in that order whatever the order of
// the stage's spec, so the first failing option in that order is the one
// reported; the sandbox followed the spec's order. Found while walking
// jstests/aggregation/sources/collStats/query_exec_stats.js.
func TestSweep43CollStatsOptionOrder(t *testing.T) {
	ref := "src/mongo/db/pipeline/document_source_coll_stats.cpp"
	keys := `{"aggregate": "c", "pipeline": [{"$collStats": {"queryExecStats": {}, "count": {}, "latencyStats": {}}}, {"$project": {"_id": 0, "ks": {"$map": {"input": {"$objectToArray": "$$ROOT"}, "in": "$$this.k"}}}}], "cursor": {}}`
	runCmdCases(t, []cmdCase{
		{name: "$collStats output follows makeStatsForNs's order", ref: ref, cov: cover{family: stage, op: "$collStats", col: semantics},
			docs: `[{"_id": 1}]`, cmd: keys, thenFind: keys,
			thenWant: `[{"ks": ["ns", "host", "localTime", "latencyStats", "count", "queryExecStats"]}]`},
		{name: "$collStats of a missing collection reports storageStats before count", ref: ref, cov: cover{family: stage, op: "$collStats", col: errorCol},
			cmd:  `{"aggregate": "gone", "pipeline": [{"$collStats": {"count": {}, "storageStats": {}}}], "cursor": {}}`,
			code: 26, msg: "PlanExecutor error during aggregation :: caused by :: Unable to retrieve storageStats in $collStats stage :: caused by :: Collection [{{db}}.gone] not found."},
	})
}
