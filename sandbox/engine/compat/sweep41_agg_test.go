package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"
)

// Sweep 41, aggregation sources: what the jstests of
// jstests/aggregation/sources/ found the sandbox doing differently.

// commonSortKeyRef: mongod 8.0 merges the $top, $bottom, $topN or
// $bottomN of one $group that share accumulator, sortBy and n into one
// accumulator of an object output, and adds a $project that takes the
// fields back out (the CommonSortKeyOptimizationTest unit tests of
// src/mongo/db/pipeline; the optimization is new in 8.0).
const commonSortKeyRef = "src/mongo/db/pipeline CommonSortKeyOptimizationTest; " +
	"jstests/aggregation/sources/group/top_bottom_common_sort_key_optimization.js"

func TestSweep41AggCommonSortKey(t *testing.T) {
	s := newSuite(t)
	groupExplain := cover{family: stage, op: "$group", col: explain}
	docs := `[{"_id": 1, "s": "A", "x": 10, "y": 5}, {"_id": 2, "s": "B", "x": 5, "y": 24},
		{"_id": 3, "s": "C", "x": 6, "y": 1000}, {"_id": 4, "s": "D", "x": 20}]`

	// Two $top of one sortBy: one $group, then a $project; the inhibiting
	// stage keeps the classic explain layout.
	s.runCase(t, "two $top of one sortBy become a $group and a $project", commonSortKeyRef, groupExplain,
		func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			pipeline := `[{"$_internalInhibitOptimization": {}}, {"$group": {"_id": null,
				"ts": {"$top": {"output": "$s", "sortBy": {"y": -1}}}, "tx": {"$top": {"output": "$x", "sortBy": {"y": -1}}}}}]`
			if got, want := stageNames(t, aggExplain(t, db, pipeline, "queryPlanner")), "$cursor,$_internalInhibitOptimization,$group,$project"; got != want {
				t.Errorf("stages %s, want %s", got, want)
			}
		})

	// A different sortBy, or $top beside $bottom, shares no sort key: the
	// $group stays alone.
	s.runCase(t, "$top and $bottom of one sortBy stay as they are", commonSortKeyRef, groupExplain,
		func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			pipeline := `[{"$_internalInhibitOptimization": {}}, {"$group": {"_id": null,
				"t": {"$top": {"output": "$s", "sortBy": {"y": -1}}}, "b": {"$bottom": {"output": "$x", "sortBy": {"y": -1}}},
				"u": {"$top": {"output": "$x", "sortBy": {"x": 1}}}}}]`
			if got, want := stageNames(t, aggExplain(t, db, pipeline, "queryPlanner")), "$cursor,$_internalInhibitOptimization,$group"; got != want {
				t.Errorf("stages %s, want %s", got, want)
			}
		})

	// AccumulatorTopBottomN::serialize (src/mongo/db/pipeline/accumulator_multi.cpp)
	// writes n and output as the expressions they parse to, then the sort
	// pattern, whatever order they were given in.
	s.runCase(t, "a $topN serializes n, output and sortBy in its own order", "src/mongo/db/pipeline/accumulator_multi.cpp (AccumulatorTopBottomN::serialize)",
		groupExplain, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			pipeline := `[{"$_internalInhibitOptimization": {}}, {"$group": {"_id": null, "t": {"$topN": {"sortBy": {"y": 1}, "output": "$x", "n": 2}}}}]`
			sameValue(t, "$group", lastStage(t, aggExplain(t, db, pipeline, "queryPlanner")),
				`{"$group": {"_id": {"$const": null}, "t": {"$topN": {"n": {"$const": 2}, "output": "$x", "sortBy": {"y": 1}}}}}`)
		})

	// The merged results are the members' own: a missing output is still
	// a null, in the single and in the N forms.
	runAggCases(t, []aggCase{
		{name: "merged $top results, a missing output as null", ref: commonSortKeyRef, docs: docs,
			pipeline: `[{"$group": {"_id": null, "ts": {"$top": {"output": "$s", "sortBy": {"y": -1}}},
				"tx": {"$top": {"output": "$x", "sortBy": {"y": -1}}}, "tz": {"$top": {"output": "$z", "sortBy": {"y": -1}}}}}]`,
			want: `[{"_id": null, "ts": "C", "tx": 6, "tz": null}]`},
		{name: "merged $topN of one n keeps a null per missing output", ref: commonSortKeyRef, docs: docs,
			pipeline: `[{"$group": {"_id": null, "a": {"$topN": {"n": 2, "output": "$y", "sortBy": {"x": 1}}},
				"b": {"$topN": {"n": 2, "output": "$z", "sortBy": {"x": 1}}}}}, {"$project": {"_id": 0, "a": 1, "b": 1}}]`,
			want: `[{"a": [24, 1000], "b": [null, null]}]`},
	})
}
