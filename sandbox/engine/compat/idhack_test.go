package compat_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// An _id point query takes 8.0's express path unless the find names a
// batchSize, asks for returnKey or projects with more than field
// inclusions and exclusions (isExpressEligible, query_utils.h). Then,
// where the collection has an _id index, it is an IDHACK plan
// (ClassicPrepareExecutionHelper::buildIdHackPlan, which checks none of
// the three): the projection or RETURN_KEY is a stage above IDHACK, and
// IDHACK reports keysExamined and docsExamined after the common figures
// (plan_explainer_impl.cpp). Elsewhere the query is planned as any other.
const idHackRef = "src/mongo/db/query/query_utils.h (isExpressEligible), src/mongo/db/query/get_executor.cpp (buildIdHackPlan), " +
	"src/mongo/db/exec/idhack.cpp, src/mongo/db/query/plan_explainer_impl.cpp; jstests/core/query/idhack.js"

func TestIDHackPlans(t *testing.T) {
	s := newSuite(t)
	cov := explainCase(commandFam, "find")
	docs := `[{"_id": 1, "a": 1, "b": 2}, {"_id": 2, "a": 2}]`
	stages := func(t *testing.T, db *mongo.Database, find string) bson.D {
		t.Helper()
		st, _ := field(explainStats(t, db, find), "executionStages").(bson.D)
		return st
	}
	s.runCase(t, "a batchSize: IDHACK", idHackRef, cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		sameValue(t, "a match", stages(t, db, `{"find": "c", "filter": {"_id": 1}, "batchSize": 2}`),
			`{"isCached": false, "stage": "IDHACK", "nReturned": 1, "executionTimeMillisEstimate": 0, "works": 2, "advanced": 1, "needTime": 0,
			"needYield": 0, "saveState": 0, "restoreState": 0, "isEOF": 1, "keysExamined": 1, "docsExamined": 1}`)
		sameValue(t, "no match", stages(t, db, `{"find": "c", "filter": {"_id": 9}, "batchSize": 2}`),
			`{"isCached": false, "stage": "IDHACK", "nReturned": 0, "executionTimeMillisEstimate": 0, "works": 1, "advanced": 0, "needTime": 0,
			"needYield": 0, "saveState": 0, "restoreState": 0, "isEOF": 1, "keysExamined": 0, "docsExamined": 0}`)
		got, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"_id": 1}, "batchSize": 1}`))
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "find", got, `[{"_id": 1, "a": 1, "b": 2}]`, false)
	})
	s.runCase(t, "a projection that is not simple: a stage above IDHACK", idHackRef, cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		wp := winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": {"_id": 1}, "projection": {"x": {"$add": ["$a", 1]}}}, "verbosity": "queryPlanner"}`))
		sameValue(t, "plan", wp, `{"isCached": false, "stage": "PROJECTION_DEFAULT", "transformBy": {"x": {"$add": ["$a", 1]}}, "inputStage": {"stage": "IDHACK"}}`)
		wp = winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": {"_id": 1}, "projection": {"a": 1}}, "verbosity": "queryPlanner"}`))
		if field(wp, "stage") != "EXPRESS_IXSCAN" {
			t.Errorf("a simple projection stays express: %s", relaxed(wp))
		}
	})
	s.runCase(t, "returnKey: RETURN_KEY over IDHACK", idHackRef, cov, func(t *testing.T, db *mongo.Database) {
		insertDocs(t, db.Collection("c"), docs)
		got, err := cursorDocs(t, db, ejDoc(t, `{"find": "c", "filter": {"_id": 1}, "returnKey": true}`))
		if err != nil {
			t.Fatal(err)
		}
		sameDocs(t, "find", got, `[{"_id": 1}]`, false)
		sameValue(t, "plan", stageChain(winningPlan(t, mustCommand(t, db, `{"explain": {"find": "c", "filter": {"_id": 1}, "returnKey": true}, "verbosity": "queryPlanner"}`))),
			`"RETURN_KEY>IDHACK"`)
	})
	s.runCase(t, "no IDHACK without an _id index, nor for another index", idHackRef, cov, func(t *testing.T, db *mongo.Database) {
		mustCommand(t, db, `{"create": "k", "clusteredIndex": {"key": {"_id": 1}, "unique": true}}`)
		insertDocs(t, db.Collection("k"), docs)
		insertDocs(t, db.Collection("c"), docs)
		mustCommand(t, db, `{"createIndexes": "c", "indexes": [{"key": {"a": 1}, "name": "a_1", "unique": true}]}`)
		for find, want := range map[string]string{
			`{"find": "k", "filter": {"_id": 1}, "batchSize": 2}`: `"CLUSTERED_IXSCAN"`,
			`{"find": "c", "filter": {"a": 1}, "batchSize": 2}`:   `"FETCH>IXSCAN"`,
		} {
			got := stageChain(winningPlan(t, mustCommand(t, db, `{"explain": `+find+`, "verbosity": "queryPlanner"}`)))
			if !strings.HasPrefix(got, strings.Trim(want, `"`)) {
				t.Errorf("%s: plan %s, want %s", find, got, want)
			}
		}
	})
}
