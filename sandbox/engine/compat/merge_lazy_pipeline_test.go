package compat_test

import "testing"

// $merge hands its whenMatched pipeline to the updates it sends, which
// parse it: on an unsharded server an invalid pipeline fails only once a
// document reaches the $merge, inside the running pipeline.
const mergeLazyRef = "src/mongo/db/pipeline/document_source_merge.cpp; jstests/aggregation/sources/merge/pipeline_validation.js"

func TestMergeWhenMatchedPipelineParsedByTheWrites(t *testing.T) {
	merge := `{"aggregate": "c", "pipeline": [{"$merge": {"into": "t", "whenMatched": [{"$addFields": 2}], "whenNotMatched": "insert"}}], "cursor": {}}`
	runCmdCases(t, []cmdCase{
		{name: "an invalid whenMatched pipeline over no documents", ref: mergeLazyRef, cov: cover{family: stage, op: "$merge", col: semantics},
			cmd: merge, want: `{"cursor": {"firstBatch": [], "id": {"$numberLong": "0"}, "ns": "*"}, "ok": {"$numberDouble": "1.0"}}`},
		{name: "an invalid whenMatched pipeline fails at the first document", ref: mergeLazyRef, cov: cover{family: stage, op: "$merge", col: errorCol},
			docs: `[{"_id": 0}]`, cmd: merge, code: 40272,
			msg: "PlanExecutor error during aggregation :: caused by :: $addFields specification stage must be an object, got int"},
	})
}
