package compat_test

import (
	"context"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// How each stage shows in an aggregate's explain. The stages the query
// layer takes over (createCanonicalQuery in pipeline_d.cpp: a leading
// $match, $sort, $limit and $skip, and a leading $project) leave the
// pipeline; when nothing else is left, the explain is the query's own,
// with no "stages" array. The others follow a $cursor stage, serialized
// as their document_source_*.cpp serialize does for explain.
//
// mongod 8.0 may hand a $group or $lookup at the front of the pipeline to
// its slot-based engine, which changes the explain's layout; the cases
// put $_internalInhibitOptimization before them, as mongod's own explain
// tests do, to keep the classic layout.

const pipelineDRef = "src/mongo/db/pipeline/pipeline_d.cpp (createCanonicalQuery, buildProjectionForPushdown)"

// aggExplain explains pipeline over collection c with the verbosity given.
func aggExplain(t *testing.T, db *mongo.Database, pipeline, verbosity string) bson.D {
	t.Helper()
	return mustCommand(t, db, `{"explain": {"aggregate": "c", "pipeline": `+pipeline+`, "cursor": {}}, "verbosity": "`+verbosity+`"}`)
}

// stageNames lists the names of an aggregate explain's stages:
// "$cursor,$group".
func stageNames(t *testing.T, reply bson.D) string {
	t.Helper()
	stages, ok := field(reply, "stages").(bson.A)
	if !ok {
		t.Fatalf("no stages in %s", relaxed(reply))
	}
	names := make([]string, len(stages))
	for i, s := range stages {
		names[i] = s.(bson.D)[0].Key
	}
	return strings.Join(names, ",")
}

// lastStage is the explain's last stage, its serialization and figures.
func lastStage(t *testing.T, reply bson.D) bson.D {
	t.Helper()
	stages, _ := field(reply, "stages").(bson.A)
	if len(stages) == 0 {
		t.Fatalf("no stages in %s", relaxed(reply))
	}
	return stages[len(stages)-1].(bson.D)
}

// absorbed checks an explain whose pipeline the query layer took whole:
// no stages, and the winning plan chain.
func absorbed(t *testing.T, reply bson.D, chain string) bson.D {
	t.Helper()
	if field(reply, "stages") != nil {
		t.Errorf("stages %s, want none: the query layer runs the whole pipeline", stageNames(t, reply))
	}
	wp := winningPlan(t, reply)
	if got := stageChain(wp); got != chain {
		t.Errorf("plan %s, want %s", got, chain)
	}
	return wp
}

func TestStageExplain(t *testing.T) {
	s := newSuite(t)
	stageExplain := func(op string) cover { return explainCase(stage, op) }

	s.runCase(t, "a leading $match is the query's filter", pipelineDRef, stageExplain("$match"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		reply := aggExplain(t, db, `[{"$match": {"a": {"$gt": 6}}}]`, "queryPlanner")
		absorbed(t, reply, "FETCH>IXSCAN")
		sameValue(t, "parsedQuery", field(field(reply, "queryPlanner").(bson.D), "parsedQuery"), `{"a": {"$gt": 6}}`)
	})
	// DocumentSourceMatch::serialize writes the MatchExpression: an
	// equality shows as $eq.
	s.runCase(t, "a $match the query cannot take serializes its filter", "src/mongo/db/pipeline/document_source_match.cpp (serialize)",
		stageExplain("$match"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$match": {"a": 3}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$_internalInhibitOptimization,$match" {
				t.Errorf("stages %s", got)
			}
			sameValue(t, "$match", lastStage(t, reply), `{"$match": {"a": {"$eq": 3}}}`)
		})
	s.runCase(t, "a leading $sort is the plan's SORT", pipelineDRef, stageExplain("$sort"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		sort := absorbed(t, aggExplain(t, db, `[{"$sort": {"d": 1}}]`, "queryPlanner"), "SORT>COLLSCAN")
		sameValue(t, "sortPattern", field(sort, "sortPattern"), `{"d": 1}`)
	})
	// A $limit after the $sort folds into it (DocumentSourceSort's
	// limit): a top-k SORT with limitAmount.
	s.runCase(t, "$sort then $limit is a top-k SORT", pipelineDRef+"; manual: core/aggregation-pipeline-optimization ($sort + $limit Coalescence)",
		stageExplain("$sort"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			sort := absorbed(t, aggExplain(t, db, `[{"$sort": {"d": 1}}, {"$limit": 2}]`, "queryPlanner"), "SORT>COLLSCAN")
			sameValue(t, "limitAmount", field(sort, "limitAmount"), `2`)
		})
	// extractSkipAndLimitForPushdown: a leading $limit leaves the
	// pipeline for the plan's LIMIT.
	s.runCase(t, "a leading $limit is the plan's LIMIT", pipelineDRef+" (extractSkipAndLimitForPushdown)",
		stageExplain("$limit"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$limit": 3}]`, "executionStats")
			absorbed(t, reply, "LIMIT>COLLSCAN")
			st := field(reply, "executionStats").(bson.D)
			sameValue(t, "nReturned", field(st, "nReturned"), `3`)
			sameValue(t, "totalDocsExamined", field(st, "totalDocsExamined"), `3`)
		})
	s.runCase(t, "a leading $skip is the plan's SKIP", pipelineDRef+" (extractSkipAndLimitForPushdown)",
		stageExplain("$skip"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			skip := absorbed(t, aggExplain(t, db, `[{"$skip": 7}]`, "queryPlanner"), "SKIP>COLLSCAN")
			sameValue(t, "skipAmount", field(skip, "skipAmount"), `7`)
		})
	// A $limit then a $skip: the skip, then what is left of the limit
	// (LimitThenSkip::flip).
	s.runCase(t, "$limit then $skip becomes SKIP under LIMIT", pipelineDRef+" (extractSkipAndLimitForPushdown, LimitThenSkip::flip)",
		stageExplain("$limit"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			limit := absorbed(t, aggExplain(t, db, `[{"$limit": 5}, {"$skip": 2}]`, "queryPlanner"), "LIMIT>SKIP>COLLSCAN")
			sameValue(t, "limitAmount", field(limit, "limitAmount"), `3`)
			sameValue(t, "skipAmount", field(field(limit, "inputStage").(bson.D), "skipAmount"), `2`)
		})
	// After a pushed sort the $skip goes down too; the index gives the
	// order, and a FETCH that filters nothing lets SKIP run on the keys
	// (jstests/core/query/add_skip_stage_before_fetch.js).
	s.runCase(t, "$sort then $skip keeps the skip in the plan", pipelineDRef+" (after a pushed sort, extractSkipForPushdown); jstests/core/query/add_skip_stage_before_fetch.js",
		stageExplain("$skip"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			absorbed(t, aggExplain(t, db, `[{"$match": {"a": {"$gte": 0}}}, {"$sort": {"a": 1}}, {"$skip": 8}]`, "queryPlanner"), "FETCH>SKIP>IXSCAN")
		})
	// buildProjectionForPushdown case 1: an inclusion $project at the
	// front goes to the plan, serialized by serializeTransformation.
	s.runCase(t, "a leading inclusion $project is the plan's projection", pipelineDRef, stageExplain("$project"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		proj := absorbed(t, aggExplain(t, db, `[{"$project": {"d": 1}}]`, "queryPlanner"), "PROJECTION_SIMPLE>COLLSCAN")
		sameValue(t, "transformBy", field(proj, "transformBy"), `{"_id": true, "d": true}`)
	})
	// With no sort, skip or limit pushed, an inclusion with expressions
	// goes down too (allowExpressions), serialized with its literals as
	// {$const: v}; the plan runs it as PROJECTION_DEFAULT.
	s.runCase(t, "a leading $project with an expression is the plan's projection", pipelineDRef+"; expression.cpp (ExpressionConstant::serialize)",
		stageExplain("$project"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			proj := absorbed(t, aggExplain(t, db, `[{"$project": {"s": {"$add": ["$a", 1]}}}]`, "queryPlanner"), "PROJECTION_DEFAULT>COLLSCAN")
			sameValue(t, "transformBy", field(proj, "transformBy"), `{"_id": true, "s": {"$add": ["$a", {"$const": 1}]}}`)
		})
	// A projection the index holds needs no document: a covered plan.
	s.runCase(t, "a $project the index covers", pipelineDRef+"; manual: core/query-optimization, Covered Query",
		stageExplain("$project"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			st := explainStats(t, db, `{"aggregate": "c", "pipeline": [{"$match": {"a": {"$gt": 6}}}, {"$project": {"_id": 0, "a": 1}}], "cursor": {}}`)
			sameFigures(t, st, "PROJECTION_COVERED>IXSCAN", 3, 0)
		})
	// buildProjectionForPushdown case 3: with no finite dependency set,
	// an exclusion at the front goes down too; $unset is one.
	s.runCase(t, "a leading $unset is the plan's projection", pipelineDRef, stageExplain("$unset"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		reply := aggExplain(t, db, `[{"$unset": "d"}]`, "queryPlanner")
		if field(reply, "stages") != nil {
			t.Errorf("stages %s, want none", stageNames(t, reply))
		}
		sameValue(t, "transformBy", field(winningPlan(t, reply), "transformBy"), `{"d": false, "_id": true}`)
	})
	// $addFields computes fields: it stays in the pipeline, each literal
	// serialized as {$const: v} (ExpressionConstant::serialize).
	s.runCase(t, "$addFields follows the cursor", "src/mongo/db/pipeline/document_source_single_document_transformation.cpp (serialize); expression.cpp (ExpressionConstant::serialize)",
		stageExplain("$addFields"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$addFields": {"x": 1, "y": "$a"}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$addFields" {
				t.Errorf("stages %s", got)
			}
			sameValue(t, "$addFields", lastStage(t, reply), `{"$addFields": {"x": {"$const": 1}, "y": "$a"}}`)
		})
	s.runCase(t, "$set keeps its name and serializes its expressions", "src/mongo/db/pipeline/document_source_add_fields.cpp ($set is $addFields' alias); expression.cpp (ExpressionConstant::serialize)",
		stageExplain("$set"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$set": {"x": {"$add": ["$a", 1]}}}]`, "executionStats")
			last := lastStage(t, reply)
			sameValue(t, "$set", field(last, "$set"), `{"x": {"$add": ["$a", {"$const": 1}]}}`)
			// appendCommonExecStats (pipeline.cpp): the stage's figures are
			// long longs.
			sameValue(t, "nReturned", field(last, "nReturned"), `{"$numberLong": "10"}`)
		})
	// DocumentSourceGroup::serialize: _id and each accumulator's
	// argument as expressions; executionStats adds the memory figures.
	s.runCase(t, "$group serializes its expressions and reports its memory", "src/mongo/db/pipeline/document_source_group_base.cpp (serialize)",
		stageExplain("$group"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$group": {"_id": "$d", "n": {"$sum": 1}}}]`, "executionStats")
			if got := stageNames(t, reply); got != "$cursor,$_internalInhibitOptimization,$group" {
				t.Errorf("stages %s", got)
			}
			last := lastStage(t, reply)
			sameValue(t, "$group", field(last, "$group"), `{"_id": "$d", "n": {"$sum": {"$const": 1}}}`)
			if _, ok := field(last, "maxAccumulatorMemoryUsageBytes").(bson.D); !ok {
				t.Errorf("no maxAccumulatorMemoryUsageBytes in %s", relaxed(last))
			}
			sameValue(t, "usedDisk", field(last, "usedDisk"), `false`)
		})
	// createRandomCursorExecutor: a collection of 100 documents or fewer
	// is never sampled by a random cursor; $sample stays, its size a long.
	s.runCase(t, "$sample of a small collection follows the cursor", "src/mongo/db/pipeline/pipeline_d.cpp (createRandomCursorExecutor); document_source_sample.cpp (serialize)",
		stageExplain("$sample"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := aggExplain(t, db, `[{"$sample": {"size": 2}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$sample" {
				t.Errorf("stages %s", got)
			}
			sameValue(t, "$sample", lastStage(t, reply), `{"$sample": {"size": {"$numberLong": "2"}}}`)
		})
	// createRandomCursorExecutor: more than 100 documents and a sample of
	// at most 5% of them read a random cursor (MULTI_ITERATOR), and
	// $sampleFromRandomCursor replaces $sample (jstest
	// core/query/explain/explain_sample.js).
	s.runCase(t, "$sample of a large collection reads a random cursor", "src/mongo/db/pipeline/pipeline_d.cpp (createRandomCursorExecutor); jstests/core/query/explain/explain_sample.js",
		stageExplain("$sample"), func(t *testing.T, db *mongo.Database) {
			docs := make([]any, 1000)
			for i := range docs {
				docs[i] = bson.D{{Key: "_id", Value: int32(i)}}
			}
			if _, err := db.Collection("c").InsertMany(context.Background(), docs); err != nil {
				t.Fatal(err)
			}
			reply := aggExplain(t, db, `[{"$sample": {"size": 50}}]`, "executionStats")
			if got := stageNames(t, reply); got != "$cursor,$sampleFromRandomCursor" {
				t.Errorf("stages %s", got)
			}
			sameValue(t, "$sampleFromRandomCursor", lastStage(t, reply)[:1], `{"$sampleFromRandomCursor": {"size": {"$numberLong": "50"}}}`)
			cursor := field(field(reply, "stages").(bson.A)[0].(bson.D), "$cursor").(bson.D)
			sameValue(t, "queryPlanner", field(cursor, "queryPlanner"), `{"namespace": "`+db.Name()+`.c", "indexFilterSet": false, "optimizationTimeMillis": 0,
				"maxIndexedOrSolutionsReached": false, "maxIndexedAndSolutionsReached": false, "maxScansToExplodeReached": false, "prunedSimilarIndexes": false,
				"winningPlan": {"isCached": false, "stage": "MULTI_ITERATOR"}, "rejectedPlans": []}`)
			stats := field(cursor, "executionStats").(bson.D)
			sameValue(t, "nReturned", field(stats, "nReturned"), `50`)
			sameValue(t, "totalDocsExamined", field(stats, "totalDocsExamined"), `0`)
			got, err := cursorDocs(t, db, ejDoc(t, `{"aggregate": "c", "pipeline": [{"$sample": {"size": 50}}], "cursor": {}}`))
			if err != nil {
				t.Fatal(err)
			}
			seen := map[any]bool{}
			for _, d := range got {
				seen[field(d, "_id")] = true
			}
			if len(got) != 50 || len(seen) != 50 {
				t.Errorf("a sample of 50 returned %d documents, %d distinct", len(got), len(seen))
			}
			reply = aggExplain(t, db, `[{"$sample": {"size": 51}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$sample" {
				t.Errorf("a sample of more than 5%%: stages %s", got)
			}
		})
	s.runCase(t, "$lookup with localField and foreignField", "src/mongo/db/pipeline/document_source_lookup.cpp (serializeToArray)",
		stageExplain("$lookup"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			insertDocs(t, db.Collection("o"), `[{"_id": 1, "b": 1}]`)
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$lookup": {"from": "o", "localField": "a", "foreignField": "b", "as": "j"}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$_internalInhibitOptimization,$lookup" {
				t.Errorf("stages %s", got)
			}
			sameValue(t, "$lookup", lastStage(t, reply), `{"$lookup": {"from": "o", "as": "j", "localField": "a", "foreignField": "b"}}`)
		})
	// DocumentSourceLookUp::appendSpecificExecStats: what the foreign
	// reads examined, summed over the local documents, as long longs.
	s.runCase(t, "$lookup reports what its foreign reads examined", "src/mongo/db/pipeline/document_source_lookup.cpp (appendSpecificExecStats)",
		stageExplain("$lookup"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "k": 1}, {"_id": 2, "k": 2}, {"_id": 3, "k": 9}]`)
			insertDocs(t, db.Collection("o"), `[{"_id": 1, "b": 1}, {"_id": 2, "b": 2}, {"_id": 3, "b": 2}, {"_id": 4, "b": 3}]`)
			mustCommand(t, db, `{"createIndexes": "o", "indexes": [{"key": {"b": 1}, "name": "b_1"}]}`)
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, {"$lookup": {"from": "o", "localField": "k", "foreignField": "b", "as": "j"}}]`, "executionStats")
			last := lastStage(t, reply)
			// One IXSCAN per local document: keys 1 (k 1), 2 (k 2), 0 (k 9);
			// each key fetches one document.
			sameValue(t, "totalDocsExamined", field(last, "totalDocsExamined"), `{"$numberLong": "3"}`)
			sameValue(t, "totalKeysExamined", field(last, "totalKeysExamined"), `{"$numberLong": "3"}`)
			sameValue(t, "collectionScans", field(last, "collectionScans"), `{"$numberLong": "0"}`)
			sameValue(t, "indexesUsed", field(last, "indexesUsed"), `["b_1"]`)
		})
	// DocumentSourceUnionWith::serialize at queryPlanner: the sub-pipeline
	// is explained as it would run (NonShardServerProcessInterface::
	// preparePipelineAndExplain attaches its cursor), so its $match shows
	// in a $cursor stage of its own, on the index of the other collection.
	s.runCase(t, "$unionWith explains its sub-pipeline behind its own cursor", "src/mongo/db/pipeline/document_source_union_with.cpp (serialize); src/mongo/db/pipeline/process_interface/non_shardsvr_process_interface.cpp (preparePipelineAndExplain)",
		stageExplain("$unionWith"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			insertDocs(t, db.Collection("o"), `[{"_id": 1, "b": 1}, {"_id": 2, "b": 2}]`)
			mustCommand(t, db, `{"createIndexes": "o", "indexes": [{"key": {"b": 1}, "name": "b_1"}]}`)
			reply := aggExplain(t, db, `[{"$unionWith": {"coll": "o", "pipeline": [{"$match": {"b": 1}}, {"$set": {"x": 1}}]}}]`, "queryPlanner")
			if got := stageNames(t, reply); got != "$cursor,$unionWith" {
				t.Errorf("stages %s", got)
			}
			u, _ := field(lastStage(t, reply), "$unionWith").(bson.D)
			sameValue(t, "coll", field(u, "coll"), `"o"`)
			sub, _ := field(u, "pipeline").(bson.A)
			if len(sub) != 2 {
				t.Fatalf("sub-pipeline %s, want its $cursor and $set", relaxed(sub))
			}
			cur, _ := field(sub[0].(bson.D), "$cursor").(bson.D)
			if got := stageChain(winningPlan(t, cur)); got != "FETCH>IXSCAN" {
				t.Errorf("sub-pipeline plan %s, want FETCH>IXSCAN", got)
			}
			sameValue(t, "sub-pipeline's $set", sub[1], `{"$set": {"x": {"$const": 1}}}`)
		})
	// A $unionWith of a view explains the view resolved: its definition
	// runs first, on the collection it reads, and past queryPlanner the
	// sub-pipeline carries its figures (jstest
	// core/query/explain/explain_unionwith_view.js).
	s.runCase(t, "$unionWith of a view explains the view's pipeline on its collection", "jstests/core/query/explain/explain_unionwith_view.js",
		stageExplain("$unionWith"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 0, "x": 1, "y": 1}, {"_id": 1, "x": 2, "y": 2}]`)
			mustCommand(t, db, `{"create": "v", "viewOn": "c", "pipeline": [{"$match": {"x": 1, "y": 1}}, {"$project": {"x": 1, "y": 1}}]}`)
			for _, verbosity := range []string{"queryPlanner", "executionStats"} {
				reply := aggExplain(t, db, `[{"$unionWith": {"coll": "v", "pipeline": [{"$project": {"y": 1}}]}}]`, verbosity)
				u, _ := field(lastStage(t, reply), "$unionWith").(bson.D)
				sub, _ := field(u, "pipeline").(bson.A)
				if len(sub) == 0 {
					t.Fatalf("%s: no sub-pipeline explain in %s", verbosity, relaxed(u))
				}
				cur, _ := field(sub[0].(bson.D), "$cursor").(bson.D)
				qp, _ := field(cur, "queryPlanner").(bson.D)
				sameValue(t, verbosity+" namespace", field(qp, "namespace"), `"`+db.Name()+`.c"`)
				sameValue(t, verbosity+" parsedQuery", field(qp, "parsedQuery"), `{"$and": [{"x": {"$eq": 1}}, {"y": {"$eq": 1}}]}`)
				if verbosity == "executionStats" {
					sameValue(t, "nReturned", field(field(cur, "executionStats").(bson.D), "nReturned"), `1`)
				}
			}
		})
	// The executor is built for explain as for a run, so explain of a
	// $geoNear fails where the run does (buildInnerQueryExecutorGeoNear).
	s.runCase(t, "$geoNear explain without a geo index", "src/mongo/db/pipeline/pipeline_d.cpp (extractGeoNearFieldFromIndexes)",
		stageExplain("$geoNear"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			_, err := command(t, db, ejDoc(t, `{"explain": {"aggregate": "c", "pipeline": [{"$geoNear": {"near": [0, 0], "distanceField": "dist"}}], "cursor": {}}, "verbosity": "queryPlanner"}`))
			sameError(t, "explain $geoNear", err, 27, "$geoNear requires a 2d or 2dsphere index, but none were found")
		})
	// The aggregate command's own explain option explains at
	// queryPlanner verbosity (manual: reference/command/aggregate,
	// explain).
	s.runCase(t, "aggregate with explain: true", "manual: reference/command/aggregate (explain)",
		explainCase(commandFam, "aggregate"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := mustCommand(t, db, `{"aggregate": "c", "pipeline": [{"$match": {"a": 2}}, {"$_internalInhibitOptimization": {}}, {"$count": "n"}], "explain": true}`)
			if got := stageNames(t, reply); got != "$cursor,$_internalInhibitOptimization,$group,$project" {
				t.Errorf("stages %s", got)
			}
			cur := field(reply, "stages").(bson.A)[0].(bson.D)
			if field(field(cur, "$cursor").(bson.D), "executionStats") != nil {
				t.Errorf("explain: true ran the plan: %s", relaxed(cur))
			}
			if got := stageChain(winningPlan(t, field(cur, "$cursor").(bson.D))); got != "FETCH>IXSCAN" {
				t.Errorf("plan %s, want FETCH>IXSCAN", got)
			}
		})
	s.runCase(t, "explain of an aggregate at executionStats", "manual: reference/explain-results (executionStats)",
		explainCase(commandFam, "aggregate"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			st := explainStats(t, db, `{"aggregate": "c", "pipeline": [{"$match": {"a": {"$lt": 4}}}, {"$_internalInhibitOptimization": {}}], "cursor": {}}`)
			sameFigures(t, st, "FETCH>IXSCAN", 4, 4)
		})
}

// At executionStats the writing stages run but write nothing:
// DocumentSourceWriter::doGetNext drains its input in explain mode, so the
// target is neither written nor created (explain_writing_aggs.js).
func TestExplainWritingStages(t *testing.T) {
	const ref = "src/mongo/db/pipeline/document_source_writer.h doGetNext; jstests/aggregation/explain/explain_writing_aggs.js"
	ex := cover{family: stage, op: "$out", col: explain}
	noTarget := `{"listCollections": 1, "filter": {"name": "t"}, "nameOnly": true}`
	runCmdCases(t, []cmdCase{
		{name: "$out at executionStats", ref: ref, cov: ex, docs: `[{"_id": 1}]`,
			cmd:      `{"explain": {"aggregate": "c", "pipeline": [{"$out": "t"}], "cursor": {}}, "verbosity": "executionStats"}`,
			want:     `{"ok": 1.0}`,
			thenFind: noTarget, thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "*", "firstBatch": []}}`},
		{name: "$merge at allPlansExecution", ref: ref, cov: cover{family: stage, op: "$merge", col: explain}, docs: `[{"_id": 1}]`,
			cmd:      `{"explain": {"aggregate": "c", "pipeline": [{"$merge": {"into": "t", "whenMatched": "replace", "whenNotMatched": "insert"}}], "cursor": {}}, "verbosity": "allPlansExecution"}`,
			want:     `{"ok": 1.0}`,
			thenFind: noTarget, thenWant: `{"cursor": {"id": {"$numberLong": "0"}, "ns": "*", "firstBatch": []}}`},
	})
}

// cursorWinningPlan is the winning plan of an aggregate explain's $cursor
// stage.
func cursorWinningPlan(t *testing.T, reply bson.D) bson.D {
	t.Helper()
	stages, _ := field(reply, "stages").(bson.A)
	if len(stages) == 0 {
		t.Fatalf("no stages in %s", relaxed(reply))
	}
	cursor, _ := field(stages[0].(bson.D), "$cursor").(bson.D)
	return winningPlan(t, cursor)
}

// A pipeline that reads nothing of its input documents, such as a count,
// has its query planned as a count: pipeline_d.cpp sets
// QueryPlannerParams::IS_COUNT when the remaining stages have no
// dependencies (DepsTracker::hasNoRequirements), and pushes no projection
// down. One index interval then becomes a COUNT_SCAN, always forwards
// (turnIxscanIntoCount, query_planner.cpp), and the stages receive empty
// documents. jstests/aggregation/bugs/server22093.js.
func TestStageExplainPipelineWithoutDependencies(t *testing.T) {
	s := newSuite(t)
	const ref = "src/mongo/db/pipeline/pipeline_d.cpp (IS_COUNT); jstests/aggregation/bugs/server22093.js"
	results := func(t *testing.T, db *mongo.Database, pipeline, want string) {
		t.Helper()
		docs, err := cursorDocs(t, db, ejDoc(t, `{"aggregate": "c", "pipeline": `+pipeline+`, "cursor": {}}`))
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "results", docs, want, false)
	}
	countScan := func(t *testing.T, db *mongo.Database, pipeline string) bson.D {
		t.Helper()
		wp := cursorWinningPlan(t, aggExplain(t, db, pipeline, "queryPlanner"))
		if got := stageChain(wp); got != "COUNT_SCAN" {
			t.Fatalf("plan %s, want COUNT_SCAN", got)
		}
		return wp
	}
	s.runCase(t, "$count after an indexed $match reads keys only", ref, explainCase(stage, "$count"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		wp := countScan(t, db, `[{"$match": {"a": {"$gte": 4}}}, {"$count": "n"}]`)
		sameValue(t, "indexBounds", field(wp, "indexBounds"),
			`{"startKey": {"a": 4}, "startKeyInclusive": true, "endKey": {"a": {"$numberDouble": "Infinity"}}, "endKeyInclusive": true}`)
		results(t, db, `[{"$match": {"a": {"$gte": 4}}}, {"$count": "n"}]`, `[{"n": 6}]`)
	})
	s.runCase(t, "$group counting documents reads keys only, even after a constant $project", ref, explainCase(stage, "$group"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		pipeline := `[{"$match": {"a": {"$gt": 6}}}, {"$project": {"_id": 0, "x": {"$literal": null}}}, {"$group": {"_id": null, "n": {"$sum": 1}}}]`
		reply := aggExplain(t, db, pipeline, "queryPlanner")
		if got := stageNames(t, reply); got != "$cursor,$project,$group" {
			t.Errorf("stages %s, want $cursor,$project,$group: no projection is pushed down", got)
		}
		countScan(t, db, pipeline)
		results(t, db, pipeline, `[{"_id": null, "n": 3}]`)
	})
	s.runCase(t, "a backward sort under a count gives a forward COUNT_SCAN", ref, explainCase(stage, "$sort"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		wp := countScan(t, db, `[{"$match": {"a": {"$gte": 0, "$lt": 5}}}, {"$sort": {"a": -1}}, {"$count": "n"}]`)
		sameValue(t, "indexBounds", field(wp, "indexBounds"),
			`{"startKey": {"a": 0}, "startKeyInclusive": true, "endKey": {"a": 5}, "endKeyInclusive": false}`)
		wp = countScan(t, db, `[{"$sort": {"a": -1}}, {"$count": "n"}]`)
		sameValue(t, "indexBounds", field(wp, "indexBounds"),
			`{"startKey": {"a": {"$minKey": 1}}, "startKeyInclusive": true, "endKey": {"a": {"$maxKey": 1}}, "endKeyInclusive": true}`)
		results(t, db, `[{"$sort": {"a": -1}}, {"$count": "n"}]`, `[{"n": 10}]`)
	})
	s.runCase(t, "several intervals read keys without fetching, not a COUNT_SCAN", ref, explainCase(stage, "$count"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		pipeline := `[{"$match": {"a": {"$in": [1, 3]}}}, {"$count": "n"}]`
		if got := stageChain(cursorWinningPlan(t, aggExplain(t, db, pipeline, "queryPlanner"))); got != "IXSCAN" {
			t.Errorf("plan %s, want IXSCAN", got)
		}
		results(t, db, pipeline, `[{"n": 2}]`)
	})
	s.runCase(t, "a stage reading metadata keeps the documents", ref, explainCase(stage, "$group"), func(t *testing.T, db *mongo.Database) {
		indexA(t, db)
		pipeline := `[{"$match": {"a": {"$gte": 4}}}, {"$group": {"_id": null, "k": {"$first": {"$meta": "indexKey"}}}}]`
		if got := stageChain(cursorWinningPlan(t, aggExplain(t, db, pipeline, "queryPlanner"))); got == "COUNT_SCAN" {
			t.Errorf("plan %s: $meta needs the plan's documents", got)
		}
	})
}
