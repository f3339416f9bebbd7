package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// Adjacent $sort stages (document_source_sort.cpp doOptimizeAt): the
// first is dropped, $sort not being stable, unless it has a limit; two
// with a limit and the same key merge, keeping the lower limit. $densify
// (document_source_densify.cpp) absorbs a following $sort that asks for
// no more than the order it keeps: with no partitions, or partitions over
// their own or an explicit range.
const sortCoalesceRef = "src/mongo/db/pipeline/document_source_sort.cpp (doOptimizeAt), document_source_densify.cpp; " +
	"jstests/aggregation/sources/densify/densify_sort_optimization.js"

func TestSortCoalescing(t *testing.T) {
	s := newSuite(t)
	cases := []struct {
		name, pipeline, want string
	}{
		{"a $sort before another is dropped", `[{"$sort": {"a": 1}}, {"$sort": {"b": -1}}]`,
			`[{"$sort": {"sortKey": {"b": -1}}}]`},
		{"a $sort with a limit before another of the same key merges", `[{"$sort": {"a": 1}}, {"$limit": 3}, {"$sort": {"a": 1}}, {"$limit": 5}]`,
			`[{"$sort": {"sortKey": {"a": 1}, "limit": {"$numberLong": "3"}}}]`},
		{"a $sort with a limit before another key stays", `[{"$sort": {"a": 1}}, {"$limit": 3}, {"$sort": {"b": 1}}]`,
			`[{"$sort": {"sortKey": {"a": 1}, "limit": {"$numberLong": "3"}}}, {"$sort": {"sortKey": {"b": 1}}}]`},
		{"$densify absorbs its own order", `[{"$densify": {"field": "v", "range": {"step": 1, "bounds": "full"}}}, {"$sort": {"v": 1}}]`,
			`[{"$sort": {"sortKey": {"v": 1}}}, {"$_internalDensify": {"field": "v", "partitionByFields": [], "range": {"step": 1, "bounds": "full"}}}]`},
		{"$densify keeps a stricter $sort", `[{"$densify": {"field": "v", "range": {"step": 1, "bounds": "partition"}, "partitionByFields": ["p"]}}, {"$sort": {"p": 1, "v": 1, "_id": 1}}]`,
			`[{"$sort": {"sortKey": {"p": 1, "v": 1}}}, {"$_internalDensify": {"field": "v", "partitionByFields": ["p"], "range": {"step": 1, "bounds": "partition"}}}, {"$sort": {"sortKey": {"p": 1, "v": 1, "_id": 1}}}]`},
		{"$densify of partitions over the full range keeps the $sort", `[{"$densify": {"field": "v", "range": {"step": 1, "bounds": "full"}, "partitionByFields": ["p"]}}, {"$sort": {"v": 1}}]`,
			`[{"$sort": {"sortKey": {"v": 1}}}, {"$_internalDensify": {"field": "v", "partitionByFields": ["p"], "range": {"step": 1, "bounds": "full"}}}, {"$sort": {"sortKey": {"v": 1}}}]`},
		{"a $sort before $densify's own is dropped", `[{"$sort": {"v": 1, "o": 1}}, {"$densify": {"field": "v", "range": {"step": 1, "bounds": "full"}}}, {"$sort": {"v": 1, "o": 1}}]`,
			`[{"$sort": {"sortKey": {"v": 1}}}, {"$_internalDensify": {"field": "v", "partitionByFields": [], "range": {"step": 1, "bounds": "full"}}}, {"$sort": {"sortKey": {"v": 1, "o": 1}}}]`},
	}
	for _, c := range cases {
		s.runCase(t, c.name, sortCoalesceRef, explainCase(stage, "$sort"), func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "v": 1, "p": 1, "a": 1, "b": 1}]`)
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, `+c.pipeline[1:], "queryPlanner")
			stages := field(reply, "stages").(bson.A)
			sameValue(t, "stages after the inhibitor", stages[2:], c.want)
		})
	}
}
