package compat_test

import (
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// The plan shapes of issue 25's explain list: covered plans, COUNT_SCAN,
// DISTINCT_SCAN, RECORD_STORE_FAST_COUNT, multikey paths, and the write
// stages (BATCHED_DELETE, the express writes, UPDATE over a pipeline).
// Stage names: manual reference/explain-results ("Explain Output
// Structure": BATCHED_DELETE since 6.1, the EXPRESS stages since 8.0).

// winningPlan returns the winning plan of an explain reply.
func winningPlan(t *testing.T, reply bson.D) bson.D {
	t.Helper()
	qp, _ := field(reply, "queryPlanner").(bson.D)
	wp, _ := field(qp, "winningPlan").(bson.D)
	if wp == nil {
		t.Fatalf("no queryPlanner.winningPlan in %v", reply)
	}
	return wp
}

func explainCase(f family, cmd string) cover { return cover{family: f, op: cmd, col: explain} }

const tenNumbers = `[{"_id": 0, "a": 0, "d": 9}, {"_id": 1, "a": 1, "d": 8}, {"_id": 2, "a": 2, "d": 7},
	{"_id": 3, "a": 3, "d": 6}, {"_id": 4, "a": 4, "d": 5}, {"_id": 5, "a": 5, "d": 4}, {"_id": 6, "a": 6, "d": 3},
	{"_id": 7, "a": 7, "d": 2}, {"_id": 8, "a": 8, "d": 1}, {"_id": 9, "a": 9, "d": 0}]`

func indexA(t *testing.T, db *mongo.Database) {
	t.Helper()
	insertDocs(t, db.Collection("c"), tenNumbers)
	mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1"}]}`)
}

func TestExplainFindCountDistinctPlans(t *testing.T) {
	s := newSuite(t)
	// jstests/core/query/add_skip_stage_before_fetch.js (SERVER-13946): a
	// FETCH that filters nothing lets SKIP run on the keys below it, so the
	// skipped documents are never read.
	s.runCase(t, "skip runs below a fetch that filters nothing", "jstests/core/query/add_skip_stage_before_fetch.js",
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			st := explainStats(t, db, `{"find": "c", "filter": {"a": {"$gte": 0}}, "skip": 7, "hint": {"a": 1}}`)
			sameFigures(t, st, "FETCH>SKIP>IXSCAN", 10, 3)
		})
	// Same test: a sort the index cannot give puts SORT above FETCH, and
	// every matching document is fetched before SKIP.
	s.runCase(t, "skip after a blocking sort reads every document", "jstests/core/query/add_skip_stage_before_fetch.js",
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			st := explainStats(t, db, `{"find": "c", "filter": {"a": {"$gte": 0}}, "sort": {"d": 1}, "skip": 7, "hint": {"a": 1}}`)
			sameFigures(t, st, "SKIP>SORT>FETCH>IXSCAN", 10, 10)
		})
	// manual: core/query-optimization (Covered Query): no FETCH, no
	// document examined.
	s.runCase(t, "covered projection has no fetch", "manual: core/query-optimization, Covered Query",
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			st := explainStats(t, db, `{"find": "c", "filter": {"a": {"$gt": 6}}, "projection": {"_id": 0, "a": 1}}`)
			sameFigures(t, st, "PROJECTION_COVERED>IXSCAN", 3, 0)
		})
	// index_bounds_builder.cpp translateEquality: equality to an embedded
	// document is a point interval with EXACT tightness, so a projection
	// of the indexed field is covered (jstests/core/index/covered/
	// covered_index_simple_id.js, "simple.id.3").
	s.runCase(t, "equality to an embedded document is covered", "src/mongo/db/query/index_bounds_builder.cpp translateEquality",
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": {"bar": 1}}, {"_id": {"bar": 1, "z": 2}}, {"_id": 3}]`)
			st := explainStats(t, db, `{"find": "c", "filter": {"_id": {"bar": 1}}, "projection": {"_id": 1}, "hint": {"_id": 1}}`)
			sameFigures(t, st, "PROJECTION_COVERED>IXSCAN", 1, 0)
		})
	// manual: reference/explain-results (COUNT_SCAN); jstests/core/query/
	// count/count_plan_summary.js: a count one index interval answers
	// reads keys only.
	s.runCase(t, "count answered by one index interval is COUNT_SCAN", "manual: reference/explain-results (COUNT_SCAN)",
		explainCase(commandFam, "count"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			st := explainStats(t, db, `{"count": "c", "query": {"a": {"$gte": 4}}}`)
			plan := field(st, "executionStages").(bson.D)
			if got := stageChain(plan); got != "COUNT>COUNT_SCAN" {
				t.Errorf("plan %s, want COUNT>COUNT_SCAN", got)
			}
			sameValue(t, "nCounted", field(plan, "nCounted"), `6`)
			sameValue(t, "totalDocsExamined", field(st, "totalDocsExamined"), `0`)
		})
	// jstests/libs/query/analyze_plan.js assertExplainCount: a count with
	// no filter reads the record store's count.
	s.runCase(t, "count with no filter is RECORD_STORE_FAST_COUNT", "jstests/libs/query/analyze_plan.js assertExplainCount",
		explainCase(commandFam, "count"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			st := explainStats(t, db, `{"count": "c"}`)
			plan := field(st, "executionStages").(bson.D)
			sameValue(t, "stage", field(plan, "stage"), `"RECORD_STORE_FAST_COUNT"`)
			sameValue(t, "nCounted", field(plan, "nCounted"), `10`)
		})
	// manual: reference/explain-results (DISTINCT_SCAN); a distinct on an
	// indexed field reads one key per value, covered.
	s.runCase(t, "distinct on an indexed field is a covered DISTINCT_SCAN", "manual: reference/explain-results (DISTINCT_SCAN)",
		explainCase(commandFam, "distinct"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := mustCommand(t, db, `{"explain": {"distinct": "c", "key": "a"}, "verbosity": "queryPlanner"}`)
			if got := stageChain(winningPlan(t, reply)); got != "PROJECTION_COVERED>DISTINCT_SCAN" {
				t.Errorf("plan %s, want PROJECTION_COVERED>DISTINCT_SCAN", got)
			}
		})
	// manual: core/index-multikey (Multikey Index Bounds); explain reports
	// isMultiKey and, per field, the prefixes that hold arrays.
	s.runCase(t, "multikey index reports isMultiKey and multiKeyPaths", "manual: reference/explain-results (IXSCAN isMultiKey, multiKeyPaths)",
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": {"b": [1, 2]}, "c": 1}, {"_id": 2, "a": {"b": 3}, "c": 2}]`)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a.b": 1, "c": 1}, "name": "ab_c"}]}`)
			reply := mustCommand(t, db, `{"explain": {"find": "c", "filter": {"a.b": 2}}, "verbosity": "queryPlanner"}`)
			ix := stageNamed(winningPlan(t, reply), "IXSCAN")
			sameValue(t, "isMultiKey", field(ix, "isMultiKey"), `true`)
			sameValue(t, "multiKeyPaths", field(ix, "multiKeyPaths"), `{"a.b": ["a.b"], "c": []}`)
		})
}

func TestExplainWritePlans(t *testing.T) {
	s := newSuite(t)
	// jstests/core/write/delete/batched_multi_deletes_a.js: a delete of
	// many documents runs as BATCHED_DELETE.
	s.runCase(t, "multi delete is BATCHED_DELETE", "jstests/core/write/delete/libs/batched_multi_deletes.js",
		explainCase(commandFam, "delete"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			st := explainStats(t, db, `{"delete": "c", "deletes": [{"q": {"a": {"$gte": 5}}, "limit": 0}]}`)
			plan := field(st, "executionStages").(bson.D)
			if got := stageChain(plan); got != "BATCHED_DELETE>FETCH>IXSCAN" {
				t.Errorf("plan %s, want BATCHED_DELETE>FETCH>IXSCAN", got)
			}
			sameValue(t, "nWouldDelete", field(plan, "nWouldDelete"), `5`)
		})
	// A single delete keeps the DELETE stage, with no LIMIT below it: the
	// stage stops at the first match, so one key and one document are read.
	s.runCase(t, "single delete is DELETE and stops at the first match", "manual: reference/explain-results",
		explainCase(commandFam, "delete"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			st := explainStats(t, db, `{"delete": "c", "deletes": [{"q": {"a": {"$gte": 5}}, "limit": 1}]}`)
			sameFigures(t, st, "DELETE>FETCH>IXSCAN", 1, 1)
			sameValue(t, "nWouldDelete", field(field(st, "executionStages").(bson.D), "nWouldDelete"), `1`)
		})
	// getIndexForExpressEquality (plan_executor_express.cpp): an equality
	// on the leading field of a B-tree index is an express read when at
	// most one document can come back: with limit 1 any such index serves,
	// compound, descending or multikey, the one with the fewest fields;
	// without it only a unique single-field index. An object operand
	// generates exact bounds as a scalar does (jstest core/index/express.js).
	s.runCase(t, "an equality with limit 1 is an express read on a compound or multikey index", "src/mongo/db/query/plan_executor_express.cpp getIndexForExpressEquality; jstests/core/index/express.js",
		explainCase(commandFam, "find"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 0, "a": 0}, {"_id": 2, "a": {"bar": 1}}, {"_id": 4, "a": [1, 2, 3]}]`)
			mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": -1, "b": 1}, "name": "a_b"}, {"key": {"a": 1, "b": 1, "c": 1}, "name": "a_b_c"}]}`)
			for _, filter := range []string{`{"a": 1}`, `{"a": {"bar": 1}}`} {
				wp := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": `+filter+`, "limit": 1}, "verbosity": "queryPlanner"}`))
				sameValue(t, "stage of "+filter, field(wp, "stage"), `"EXPRESS_IXSCAN"`)
				sameValue(t, "index of "+filter, field(wp, "indexName"), `"a_b"`)
			}
			got, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"a": 1}, "limit": 1}`))
			if err != nil {
				t.Fatal(err)
			}
			sameDocs(t, "find", got, `[{"_id": 4, "a": [1, 2, 3]}]`, false)
			wp := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": {"a": 1}}, "verbosity": "queryPlanner"}`))
			if field(wp, "stage") == "EXPRESS_IXSCAN" {
				t.Errorf("without limit 1 a non-unique index is not express: %v", wp)
			}
		})
	// manual: reference/explain-results ("EXPRESS stages", new in 8.0): a
	// single write by _id is one express stage.
	s.runCase(t, "delete by _id is EXPRESS_DELETE", "manual: reference/explain-results, EXPRESS stages",
		explainCase(commandFam, "delete"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := mustCommand(t, db, `{"explain": {"delete": "c", "deletes": [{"q": {"_id": 3}, "limit": 1}]}, "verbosity": "queryPlanner"}`)
			wp := winningPlan(t, reply)
			sameValue(t, "stage", field(wp, "stage"), `"EXPRESS_DELETE"`)
			sameValue(t, "indexName", field(wp, "indexName"), `"_id_"`)
		})
	s.runCase(t, "update by _id is EXPRESS_UPDATE", "manual: reference/explain-results, EXPRESS stages",
		explainCase(commandFam, "update"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := mustCommand(t, db, `{"explain": {"update": "c", "updates": [{"q": {"_id": 3}, "u": {"$set": {"x": 1}}}]}, "verbosity": "queryPlanner"}`)
			sameValue(t, "stage", field(winningPlan(t, reply), "stage"), `"EXPRESS_UPDATE"`)
		})
	// get_executor.cpp (getExecutorUpdate): express takes no upserts, so an
	// upsert by _id is UPDATE over IDHACK, planned without a canonical
	// query; findAndModify returns the document it would insert when asked
	// for the new one (jstests/core/query/explain/explain_find_and_modify.js).
	s.runCase(t, "upsert by _id is UPDATE over IDHACK", "src/mongo/db/query/get_executor.cpp getExecutorUpdate",
		explainCase(commandFam, "findAndModify"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := mustCommand(t, db, `{"explain": {"findAndModify": "c", "query": {"_id": 99}, "update": {"$set": {"x": 1}}, "upsert": true, "new": true}, "verbosity": "executionStats"}`)
			if got := stageChain(winningPlan(t, reply)); got != "UPDATE>IDHACK" {
				t.Errorf("plan %s, want UPDATE>IDHACK", got)
			}
			if field(field(reply, "queryPlanner").(bson.D), "parsedQuery") != nil {
				t.Error("an IDHACK upsert has no parsed query")
			}
			st := field(reply, "executionStats").(bson.D)
			sameValue(t, "nReturned", field(st, "nReturned"), `1`)
			sameValue(t, "nWouldUpsert", field(field(st, "executionStages").(bson.D), "nWouldUpsert"), `1`)
			docs, _ := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"_id": 99}}`))
			sameDocs(t, "documents after explain", docs, `[]`, false)
		})
	// A findAndModify projection is PROJECTION_DEFAULT over the write stage,
	// and takes it off the express path (get_executor.cpp).
	s.runCase(t, "findAndModify fields is PROJECTION_DEFAULT over the write", "jstests/core/query/explain/explain_find_and_modify.js",
		explainCase(commandFam, "findAndModify"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := mustCommand(t, db, `{"explain": {"findAndModify": "c", "query": {"_id": 3}, "remove": true, "fields": {"a": 1}}, "verbosity": "executionStats"}`)
			wp := winningPlan(t, reply)
			if got := stageChain(wp); !strings.HasPrefix(got, "PROJECTION_DEFAULT>DELETE>") {
				t.Errorf("plan %s, want PROJECTION_DEFAULT over DELETE", got)
			}
			sameValue(t, "transformBy", field(wp, "transformBy"), `{"a": 1}`)
			st := field(reply, "executionStats").(bson.D)
			sameValue(t, "nReturned", field(st, "nReturned"), `1`)
		})
	// A multi update is not an express write: UPDATE over the plan, and
	// explain modifies nothing.
	s.runCase(t, "multi update is UPDATE over its plan", "manual: reference/explain-results",
		explainCase(commandFam, "update"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			st := explainStats(t, db, `{"update": "c", "updates": [{"q": {"a": {"$lt": 3}}, "u": {"$inc": {"d": 1}}, "multi": true}]}`)
			plan := field(st, "executionStages").(bson.D)
			if got := stageChain(plan); got != "UPDATE>FETCH>IXSCAN" {
				t.Errorf("plan %s, want UPDATE>FETCH>IXSCAN", got)
			}
			sameValue(t, "nWouldModify", field(plan, "nWouldModify"), `3`)
			docs, _ := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"_id": 0}}`))
			sameDocs(t, "document after explain", docs, `[{"_id": 0, "a": 0, "d": 9}]`, false)
		})
	// jstests/core/write/find_and_modify/find_and_modify_pipeline_update.js:
	// findAndModify takes an update pipeline; its explain is UPDATE over the
	// query plan.
	s.runCase(t, "findAndModify with an update pipeline explains as UPDATE", "jstests/core/write/find_and_modify/find_and_modify_pipeline_update.js",
		explainCase(commandFam, "findAndModify"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			st := explainStats(t, db, `{"findAndModify": "c", "query": {"a": {"$gte": 8}}, "update": [{"$set": {"x": {"$add": ["$a", 1]}}}]}`)
			plan := field(st, "executionStages").(bson.D)
			if got := stageChain(plan); got != "UPDATE>FETCH>IXSCAN" {
				t.Errorf("plan %s, want UPDATE>FETCH>IXSCAN", got)
			}
			sameValue(t, "nWouldModify", field(plan, "nWouldModify"), `1`)
		})
	// get_executor.cpp (addDeleteStage's batchDelete): a collection
	// recording change stream pre-images has its documents deleted one by
	// one, so a multi delete there stays DELETE.
	s.runCase(t, "multi delete with change stream pre-images is DELETE", "src/mongo/db/query/get_executor.cpp batchDelete",
		explainCase(commandFam, "delete"), func(t *testing.T, db *mongo.Database) {
			mustCommand(t, db, `{"create": "c", "changeStreamPreAndPostImages": {"enabled": true}}`)
			insertDocs(t, db.Collection("c"), tenNumbers)
			st := explainStats(t, db, `{"delete": "c", "deletes": [{"q": {"a": {"$gte": 5}}, "limit": 0}]}`)
			sameFigures(t, st, "DELETE>COLLSCAN", 0, 10)
			sameValue(t, "nWouldDelete", field(field(st, "executionStages").(bson.D), "nWouldDelete"), `5`)
		})
	// get_executor.cpp (getExecutorDelete, getExecutorUpdate): a collection
	// that does not exist, in a database that does, is planned as EOF
	// alone, with no write stage, and explain creates nothing, upsert or
	// not (jstests/core/query/explain/explain_writecmd_nonexistent_collection.js).
	for _, cmd := range []string{
		`{"delete": "none", "deletes": [{"q": {"a": 1}, "limit": 0}]}`,
		`{"update": "none", "updates": [{"q": {"a": 1}, "u": {"$set": {"b": 1}}, "upsert": true}]}`,
		`{"findAndModify": "none", "query": {"a": 1}, "remove": true}`,
	} {
		name := ejDoc(t, cmd)[0].Key
		s.runCase(t, name+" of a missing collection is EOF alone", "jstests/core/query/explain/explain_writecmd_nonexistent_collection.js",
			explainCase(commandFam, name), func(t *testing.T, db *mongo.Database) {
				insertDocs(t, db.Collection("other"), `[{"_id": 1}]`)
				reply := mustCommand(t, db, `{"explain": `+cmd+`, "verbosity": "executionStats"}`)
				if got := stageChain(winningPlan(t, reply)); got != "EOF" {
					t.Errorf("winning plan %s, want EOF", got)
				}
				stages := field(field(reply, "executionStats").(bson.D), "executionStages").(bson.D)
				sameValue(t, "executionStages.stage", field(stages, "stage"), `"EOF"`)
				// The plan ran: EOF worked once and is at its end.
				sameValue(t, "executionStages.isEOF", field(stages, "isEOF"), `1`)
				names := mustCommand(t, db, `{"listCollections": 1, "nameOnly": true, "filter": {"name": "none"}}`)
				sameValue(t, "collections", field(field(names, "cursor").(bson.D), "firstBatch"), `[]`)
			})
	}
	s.runCase(t, "findAndModify remove explains as DELETE", "jstests/core/write/find_and_modify/find_and_modify_hint.js",
		explainCase(commandFam, "findAndModify"), func(t *testing.T, db *mongo.Database) {
			indexA(t, db)
			reply := mustCommand(t, db, `{"explain": {"findAndModify": "c", "query": {"a": 2}, "remove": true}, "verbosity": "queryPlanner"}`)
			if got := stageChain(winningPlan(t, reply)); got != "DELETE>FETCH>IXSCAN" {
				t.Errorf("plan %s, want DELETE>FETCH>IXSCAN", got)
			}
		})
}

// Explain::explainStages (src/mongo/db/query/explain.cpp) runs the plan
// for executionStats and catches what fails there: the explain succeeds,
// with executionSuccess false, errorMessage and errorCode
// (jstests/core/query/explain/explain_execution_error.js).
func TestExplainExecutionError(t *testing.T) {
	s := newSuite(t)
	const ref = "src/mongo/db/query/explain.cpp explainStages; jstests/core/query/explain/explain_execution_error.js"
	for _, verbosity := range []string{"executionStats", "allPlansExecution"} {
		s.runCase(t, "a runtime error is reported at "+verbosity, ref, explainCase(commandFam, "find"),
			func(t *testing.T, db *mongo.Database) {
				insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": 1, "b": 1}, {"_id": 2, "a": 1, "b": 0}]`)
				cmd := `{"find": "c", "filter": {"$expr": {"$divide": ["$a", "$b"]}}}`
				_, err := cursorDocs(t, db, ejDoc(t, cmd))
				if err == nil {
					t.Fatal("find did not fail")
				}
				reply := mustCommand(t, db, `{"explain": `+cmd+`, "verbosity": "`+verbosity+`"}`)
				st := field(reply, "executionStats").(bson.D)
				sameValue(t, "executionSuccess", field(st, "executionSuccess"), `false`)
				sameValue(t, "errorCode", field(st, "errorCode"), relaxed(err.Code))
				// The reason alone: "Executor error during find command" is
				// the find command's wrapping.
				sameValue(t, "errorMessage", field(st, "errorMessage"), `"can't $divide by zero"`)
				if verbosity == "allPlansExecution" && field(st, "allPlansExecution") == nil {
					t.Errorf("no allPlansExecution in %s", relaxed(st))
				}
				// At queryPlanner verbosity nothing runs, so nothing fails.
				mustCommand(t, db, `{"explain": `+cmd+`, "verbosity": "queryPlanner"}`)
			})
	}
}

// The multi-planner scores a plan that ran out during the trial 1 above
// its peers (plan_ranker::pickBestPlan's EOF bonus): here two plans each
// return the one match in two works, but only the scan of {a: 1} knows it
// is done, so it wins though its index was made second.
func TestExplainTrialEOFBonus(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "a plan that finishes in the trial wins a tie", "src/mongo/db/query/plan_ranker.h (pickBestPlan, eofBonus)",
		cover{family: commandFam, op: "explain", col: semantics}, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id":1,"a":1,"b":5},{"_id":2,"a":5,"b":1}]`)
			mustCommand(t, db, `{"createIndexes":"c","indexes":[{"key":{"b":1},"name":"b_1"},{"key":{"a":1},"name":"a_1"}]}`)
			reply := mustCommand(t, db, `{"explain":{"find":"c","filter":{"a":{"$gte":5},"b":{"$gte":1}}},"verbosity":"allPlansExecution"}`)
			winner := field(field(field(reply, "queryPlanner").(bson.D), "winningPlan").(bson.D), "inputStage").(bson.D)
			if got := field(winner, "indexName"); got != "a_1" {
				t.Fatalf("winning index %v, want a_1: %s", got, relaxed(winner))
			}
			var scores []float64
			for _, p := range field(field(reply, "executionStats").(bson.D), "allPlansExecution").(bson.A) {
				score, _ := field(p.(bson.D), "score").(float64)
				scores = append(scores, score)
			}
			slices.Sort(scores)
			if len(scores) != 2 || scores[1] < 2.5 || scores[0] >= 2 {
				t.Fatalf("scores %v, want the finished plan's above 2.5 and the other's below 2", scores)
			}
		})
}
