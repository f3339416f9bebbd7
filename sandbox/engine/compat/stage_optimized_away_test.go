package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// When the query layer takes a whole pipeline, runAggregate explains the
// plan executor with extraInfo {optimizedPipeline: true}, which
// generatePlannerInfo appends to the queryPlanner section after the
// optimization time; analyze_plan.js's getAggPlanStages asserts it.
const optimizedAwayRef = "src/mongo/db/commands/run_aggregate.cpp (Explain::explainStages with optimizedPipeline); " +
	"src/mongo/db/query/explain.cpp (generatePlannerInfo); jstests/aggregation/optimization/split_match_and_swap_with_sort.js"

func TestStageOptimizedAwayExplain(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "a pipeline the query layer takes whole says optimizedPipeline", optimizedAwayRef, explainCase(stage, "$sort"),
		func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$sort": {"d": 1}}, {"$match": {"a": {"$ne": 2}}}]`, "queryPlanner")
			// {$ne: 2} is indexed as [MinKey, 2), (2, MaxKey]
			// (index_bounds_builder.cpp translate's NOT).
			absorbed(t, reply, "SORT>FETCH>IXSCAN")
			qp, _ := field(reply, "queryPlanner").(bson.D)
			sameValue(t, "optimizedPipeline", field(qp, "optimizedPipeline"), `true`)
			keys := make([]string, 0, len(qp))
			for _, f := range qp {
				keys = append(keys, f.Key)
			}
			for i, k := range keys {
				if k == "optimizedPipeline" && (i == 0 || keys[i-1] != "optimizationTimeMillis") {
					t.Errorf("queryPlanner fields %v: optimizedPipeline should follow optimizationTimeMillis", keys)
				}
			}
		})
	s.runCase(t, "a pipeline with stages left has no optimizedPipeline", optimizedAwayRef, explainCase(stage, "$group"),
		func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$match": {"a": {"$gt": 6}}}, {"$_internalInhibitOptimization": {}}, {"$group": {"_id": "$d"}}]`, "queryPlanner")
			if qp := cursorPlanner(t, reply); field(qp, "optimizedPipeline") != nil {
				t.Errorf("optimizedPipeline in the $cursor stage: %s", relaxed(qp))
			}
		})
}
