package compat_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// A $limit or $skip reaches back past the stages that turn each document
// into exactly one (canSwapWithSkippingOrLimitingStage: $project and its
// kin, a $lookup or $graphLookup without an absorbed $unwind) into a $sort
// or the query layer, and a $sort moves ahead of a $lookup, $graphLookup
// or $unwind whose output it does not read.
const skipLimitReorderRef = "src/mongo/db/pipeline/skip_and_limit.cpp, sort_reorder_helpers.cpp, " +
	"document_source_unwind.cpp (doOptimizeAt), pipeline_d.cpp (extractSkipAndLimitForPushdown); " +
	"jstests/aggregation/sources/graphLookup/graphlookup_rewrite.js, jstests/noPassthrough/query/lookup/lookup_with_limit.js"

const graphLookupSpec = `{"$graphLookup": {"from": "c", "startWith": "$from", "connectFromField": "from", "connectToField": "to", "as": "out"}}`

const lookupSpec = `{"$lookup": {"from": "c", "localField": "from", "foreignField": "to", "as": "out"}}`

// planShape is an aggregate explain as "PLAN>STAGES|$stage,$stage": the
// winning plan's stage chain, then the pipeline stages after $cursor.
func planShape(t *testing.T, reply bson.D) string {
	t.Helper()
	stages, ok := field(reply, "stages").(bson.A)
	if !ok {
		return stageChain(winningPlan(t, reply)) + "|"
	}
	cursor := field(stages[0].(bson.D), "$cursor").(bson.D)
	names := make([]string, 0, len(stages)-1)
	for _, s := range stages[1:] {
		names = append(names, s.(bson.D)[0].Key)
	}
	return stageChain(winningPlan(t, cursor)) + "|" + strings.Join(names, ",")
}

func TestSkipLimitSortReordering(t *testing.T) {
	s := newSuite(t)
	cases := []struct {
		name, row, pipeline, want string
	}{
		{"$graphLookup swaps with $sort", "$sort", `[` + graphLookupSpec + `, {"$sort": {"foo": 1}}]`, "SORT>COLLSCAN|$graphLookup"},
		{"$graphLookup swaps with $limit", "$limit", `[` + graphLookupSpec + `, {"$limit": 100}]`, "LIMIT>COLLSCAN|$graphLookup"},
		{"$graphLookup swaps with $skip", "$skip", `[` + graphLookupSpec + `, {"$skip": 100}]`, "SKIP>COLLSCAN|$graphLookup"},
		{"$graphLookup swaps with $sort and $limit, which the sort absorbs", "$sort", `[` + graphLookupSpec + `, {"$sort": {"foo": 1}}, {"$limit": 100}]`, "SORT>COLLSCAN|$graphLookup"},
		{"a $sort reading the $graphLookup's output stays", "$sort", `[` + graphLookupSpec + `, {"$sort": {"out": 1, "foo": 1}}]`, "COLLSCAN|$graphLookup,$sort"},
		{"a $graphLookup with an $unwind keeps its $sort", "$sort", `[` + graphLookupSpec + `, {"$unwind": "$out"}, {"$sort": {"foo": 1}}]`, "COLLSCAN|$graphLookup,$sort"},
		{"$lookup swaps with $limit", "$limit", `[` + lookupSpec + `, {"$limit": 5}]`, "LIMIT>COLLSCAN|$lookup"},
		{"a $limit passes $lookup, $addFields and $lookup", "$limit", `[` + lookupSpec + `, {"$addFields": {"z": 0}}, {"$lookup": {"from": "c", "localField": "from", "foreignField": "to", "as": "more"}}, {"$limit": 5}]`,
			"LIMIT>COLLSCAN|$lookup,$addFields,$lookup"},
		{"a $lookup with an $unwind keeps its $limit", "$limit", `[` + lookupSpec + `, {"$unwind": "$out"}, {"$limit": 5}]`, "COLLSCAN|$lookup,$limit"},
		{"an $unwind not absorbed keeps the $limit", "$limit", `[` + lookupSpec + `, {"$unset": "nonexistent"}, {"$unwind": "$out"}, {"$limit": 5}]`, "COLLSCAN|$lookup,$project,$unwind,$limit"},
		{"a $sort after a $lookup's $unwind takes the $limit", "$sort", `[` + lookupSpec + `, {"$unwind": "$out"}, {"$sort": {"foo": 1}}, {"$limit": 5}]`, "COLLSCAN|$lookup,$sort"},
		{"a $sort moves ahead of an $unwind it does not read", "$sort", `[` + lookupSpec + `, {"$unset": "nonexistent"}, {"$unwind": "$out"}, {"$sort": {"foo": 1}}, {"$limit": 5}]`,
			"COLLSCAN|$lookup,$project,$sort,$unwind,$limit"},
		{"$lookup swaps with a $sort not on its output", "$sort", `[` + lookupSpec + `, {"$sort": {"foo": -1}}]`, "SORT>COLLSCAN|$lookup"},
		{"an $unwind swaps with a $sort not on its path", "$sort", `[{"$unwind": "$arr"}, {"$sort": {"foo": 1}}]`, "SORT>COLLSCAN|$unwind"},
		{"an $unwind keeps a $sort on its index field", "$sort", `[{"$unwind": {"path": "$arr", "includeArrayIndex": "i"}}, {"$sort": {"i": 1}}]`, "COLLSCAN|$unwind,$sort"},
		{"a $limit is copied ahead of an $unwind keeping empty arrays", "$limit", `[{"$unwind": {"path": "$arr", "preserveNullAndEmptyArrays": true}}, {"$limit": 3}]`, "LIMIT>COLLSCAN|$unwind,$limit"},
		{"a top-k $sort moves ahead of an $unwind keeping empty arrays, leaving a $limit", "$sort", `[{"$unwind": {"path": "$arr", "preserveNullAndEmptyArrays": true}}, {"$sort": {"foo": 1}}, {"$limit": 3}]`,
			"SORT>COLLSCAN|$unwind,$limit"},
		{"a $limit passes $addFields to the query", "$limit", `[{"$addFields": {"x": 1}}, {"$skip": 1}, {"$limit": 2}]`, "LIMIT>SKIP>COLLSCAN|$addFields"},
		{"a $match moves ahead of $graphLookup", "$match", `[` + graphLookupSpec + `, {"$match": {"foo": {"$gt": 2}}}]`, "COLLSCAN|$graphLookup"},
	}
	docs := `[{"_id": 1, "from": "a", "foo": 1, "arr": [1, 2]}, {"_id": 2, "from": "b", "to": "a", "foo": 2, "arr": []},
		{"_id": 3, "from": "c", "to": "b", "foo": 3}, {"_id": 4, "from": "d", "to": "b", "foo": 4, "arr": [3]},
		{"_id": 5, "from": "e", "to": "c", "foo": 5, "arr": [4, 5, 6]}, {"_id": 6, "from": "f", "to": "d", "foo": 6}]`
	for _, c := range cases {
		s.runCase(t, c.name, skipLimitReorderRef, explainCase(stage, c.row), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			if got := planShape(t, aggExplain(t, db, c.pipeline, "queryPlanner")); got != c.want {
				t.Errorf("plan|stages = %s, want %s", got, c.want)
			}
			// The rewrite keeps the answer: the same documents, in the
			// same order, as the pipeline run as written.
			run := func(pipeline string) []bson.D {
				docs, err := cursorDocs(t, db, ejDoc(t, `{"aggregate": "c", "pipeline": `+pipeline+`, "cursor": {}}`))
				if err != nil {
					t.Fatal(err)
				}
				return docs
			}
			got, want := run(c.pipeline), run(`[{"$_internalInhibitOptimization": {}}, `+c.pipeline[1:])
			if canonical(t, got) != canonical(t, want) {
				t.Errorf("documents %s, want %s as written", relaxed(got), relaxed(want))
			}
		})
	}
}
