package compat_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// $setWindowFields is an alias (document_source_set_window_fields.cpp,
// create): a constant partitionBy is no partitioning; a field path is
// sorted on directly, in a $sort with outputSortKeyMetadata put in front
// of $_internalSetWindowFields; any other expression is bound to a
// temporary field by an $addFields and removed after by a $project. The
// $sort, when it leads, becomes the plan's sort. Each output shows its
// input as explain shows expressions, and its window (the whole partition
// when none is given).
const windowExplainRef = "src/mongo/db/pipeline/document_source_set_window_fields.cpp (create, serialize), " +
	"window_function/window_function_expression.h (serialize), window_bounds.cpp (serialize); " +
	"jstests/aggregation/sources/setWindowFields/partition.js, explain.js"

func TestSetWindowFieldsExplain(t *testing.T) {
	s := newSuite(t)
	cov := explainCase(stage, "$setWindowFields")
	docs := `[{"_id":1,"p":1,"t":1,"v":1},{"_id":2,"p":1,"t":2,"v":2},{"_id":3,"p":2,"t":1,"v":3}]`
	explainStages := func(t *testing.T, db *mongo.Database, pipeline, wantNames, wantLast string) {
		t.Helper()
		reply := aggExplain(t, db, pipeline, "queryPlanner")
		if got := stageNames(t, reply); got != wantNames {
			t.Errorf("stages %s, want %s", got, wantNames)
		}
		sameValue(t, "last stage", lastStage(t, reply), wantLast)
	}
	s.runCase(t, "a constant partitionBy is no partitioning", windowExplainRef, cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		for _, constant := range []string{`null`, `"constant"`, `{"$add": [1, 2]}`} {
			explainStages(t, db, `[{"$_internalInhibitOptimization": {}}, {"$setWindowFields": {"partitionBy": `+constant+`, "output": {}}}]`,
				"$cursor,$_internalInhibitOptimization,$_internalSetWindowFields", `{"$_internalSetWindowFields": {"output": {}}}`)
		}
	})
	s.runCase(t, "a field path partitionBy is sorted on, then sortBy", windowExplainRef, cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$setWindowFields": {"partitionBy": "$p", "sortBy": {"t": 1},
			"output": {"s": {"$sum": "$v", "window": {"documents": ["unbounded", "current"]}}, "n": {"$count": {}}, "r": {"$rank": {}},
			"m": {"$avg": 1, "window": {"range": [-1, 0]}}}}}]`, "queryPlanner")
		if got := stageNames(t, reply); got != "$cursor,$_internalInhibitOptimization,$sort,$_internalSetWindowFields" {
			t.Fatalf("stages %s", got)
		}
		stages := field(reply, "stages").(bson.A)
		sameValue(t, "$sort", stages[2], `{"$sort": {"sortKey": {"p": 1, "t": 1}, "outputSortKeyMetadata": true}}`)
		sameValue(t, "$_internalSetWindowFields", stages[3], `{"$_internalSetWindowFields": {"partitionBy": "$p", "sortBy": {"t": 1}, "output": {
			"s": {"$sum": "$v", "window": {"documents": ["unbounded", "current"]}},
			"n": {"$sum": {"$const": 1}, "window": {"documents": ["unbounded", "unbounded"]}},
			"r": {"$rank": {}},
			"m": {"$avg": {"$const": 1}, "window": {"range": [-1, 0]}}}}}`)
	})
	// At executionStats the stage adds each function's peak memory, the
	// stage's, and usedDisk (serialize at kExecStats). The sandbox's
	// figures are its model of them: a function's window values (here the
	// two ints of partition 1, 20 bytes each by value.MemSize), the
	// largest value a rank returned, and the partition's documents with
	// the functions' peaks.
	s.runCase(t, "executionStats reports the memory of each function and of the stage", windowExplainRef, cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$setWindowFields": {"partitionBy": "$p", "sortBy": {"t": 1},
			"output": {"s": {"$sum": "$v", "window": {"documents": ["unbounded", "current"]}}, "r": {"$rank": {}}}}}]`, "executionStats")
		last := lastStage(t, reply)
		var keys []string
		for _, e := range last {
			keys = append(keys, e.Key)
		}
		if got := strings.Join(keys, ","); got != "$_internalSetWindowFields,maxFunctionMemoryUsageBytes,maxTotalMemoryUsageBytes,usedDisk,nReturned,executionTimeMillisEstimate" {
			t.Fatalf("fields %s", got)
		}
		sameValue(t, "maxFunctionMemoryUsageBytes", field(last, "maxFunctionMemoryUsageBytes"), `{"s": {"$numberLong": "40"}, "r": {"$numberLong": "20"}}`)
		if total, ok := field(last, "maxTotalMemoryUsageBytes").(int64); !ok || total <= 60 {
			t.Errorf("maxTotalMemoryUsageBytes %v, want a long above the functions' 60", field(last, "maxTotalMemoryUsageBytes"))
		}
		sameValue(t, "usedDisk", field(last, "usedDisk"), `false`)
	})
	s.runCase(t, "an expression partitionBy is bound to a temporary field", windowExplainRef, cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$setWindowFields": {"partitionBy": {"$mod": ["$p", 2]}, "output": {"s": {"$sum": "$v"}}}}]`, "queryPlanner")
		if got := stageNames(t, reply); got != "$cursor,$_internalInhibitOptimization,$addFields,$sort,$_internalSetWindowFields,$project" {
			t.Fatalf("stages %s", got)
		}
		stages := field(reply, "stages").(bson.A)
		sameValue(t, "$addFields", stages[2], `{"$addFields": {"__internal_setWindowFields_partition_key": {"$mod": ["$p", {"$const": 2}]}}}`)
		sameValue(t, "$sort", stages[3], `{"$sort": {"sortKey": {"__internal_setWindowFields_partition_key": 1}, "outputSortKeyMetadata": true}}`)
		sameValue(t, "$_internalSetWindowFields", stages[4], `{"$_internalSetWindowFields": {"partitionBy": "$__internal_setWindowFields_partition_key",
			"output": {"s": {"$sum": "$v", "window": {"documents": ["unbounded", "unbounded"]}}}}}`)
		sameValue(t, "$project", stages[5], `{"$project": {"__internal_setWindowFields_partition_key": false, "_id": true}}`)
		// The temporary field never reaches the results.
		res := mustCommand(t, db, `{"aggregate": "c", "pipeline": [{"$setWindowFields": {"partitionBy": {"$mod": ["$p", 2]}, "sortBy": {"_id": 1}, "output": {"s": {"$sum": "$v"}}}}, {"$sort": {"_id": 1}}], "cursor": {}}`)
		sameValue(t, "results", field(field(res, "cursor").(bson.D), "firstBatch"), `[{"_id":1,"p":1,"t":1,"v":1,"s":3},{"_id":2,"p":1,"t":2,"v":2,"s":3},{"_id":3,"p":2,"t":1,"v":3,"s":3}]`)
	})
	s.runCase(t, "a leading $setWindowFields sorts in the plan", windowExplainRef, cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		mustCommand(t, db, `{"createIndexes":"c","indexes":[{"key":{"t":1},"name":"t_1"}]}`)
		reply := aggExplain(t, db, `[{"$match": {"t": {"$gte": 1}}}, {"$fill": {"sortBy": {"t": 1}, "output": {"v": {"method": "locf"}}}}]`, "queryPlanner")
		if got := stageNames(t, reply); got != "$cursor,$_internalSetWindowFields" {
			t.Fatalf("stages %s", got)
		}
		cursor := field(field(reply, "stages").(bson.A)[0].(bson.D), "$cursor").(bson.D)
		if got := stageChain(field(field(cursor, "queryPlanner").(bson.D), "winningPlan").(bson.D)); got != "FETCH>IXSCAN" {
			t.Errorf("plan %s, want the index on t to give the sort", got)
		}
		sameValue(t, "$_internalSetWindowFields", lastStage(t, reply), `{"$_internalSetWindowFields": {"sortBy": {"t": 1}, "output": {"v": {"$locf": "$v"}}}}`)
	})
}
