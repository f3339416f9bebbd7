package aggregate

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
)

// Odd specifications must fail with a MongoDB error, never panic.
func TestMalformedSpecsFailCleanly(t *testing.T) {
	specs := []string{
		`[{"$group": {"_id": null, "x": {"$topN": 1}}}]`,
		`[{"$group": {"_id": null, "x": {"$topN": {"n": 0, "sortBy": {"a": 1}, "output": "$a"}}}}]`,
		`[{"$group": {"_id": null, "x": {"$firstN": {"input": "$a"}}}}]`,
		`[{"$group": {"_id": null, "x": {"$count": 1}}}]`,
		`[{"$group": {"_id": null, "x": {}}}]`,
		`[{"$bucketAuto": {"groupBy": "$a", "buckets": 1.5}}]`,
		`[{"$bucketAuto": {"groupBy": "$a", "buckets": 2, "granularity": "R7"}}]`,
		`[{"$bucketAuto": 1}]`,
		`[{"$setWindowFields": {"output": {"a": 1}}}]`,
		`[{"$setWindowFields": {"output": {"a": {"$foo": 1}}}}]`,
		`[{"$setWindowFields": {"sortBy": {"a": 1}, "output": {"a": {"$sum": 1, "window": {"documents": [1]}}}}}]`,
		`[{"$lookup": {"from": "x", "as": "y", "pipeline": [1]}}]`,
		`[{"$lookup": {"from": "x", "as": "y", "pipeline": 1}}]`,
		`[{"$lookup": {"from": 1, "as": "y"}}]`,
		`[{"$lookup": {"as": "y", "localField": "a", "foreignField": "b"}}]`,
		`[{"$graphLookup": 1}]`,
		`[{"$graphLookup": {"from": "g", "startWith": "$a", "connectFromField": "x", "connectToField": "z", "as": "y", "restrictSearchWithMatch": {"a": {"$bad": 1}}}}]`,
		`[{"$merge": {"into": 1}}]`,
		`[{"$merge": {"into": "x", "whenMatched": "bad"}}]`,
		`[{"$merge": {"into": "x", "whenMatched": [{"$match": {}}]}}]`,
		`[{"$merge": {"into": "x", "on": []}}]`,
		`[{"$merge": 1}]`,
		`[{"$merge": {}}]`,
		`[{"$out": 1}]`,
		`[{"$out": {"db": "x"}}]`,
		`[{"$unwind": {"path": ""}}]`,
		`[{"$unwind": "$"}]`,
		`[{"$unwind": {"path": "$a", "includeArrayIndex": "$i"}}]`,
		`[{"$project": {"a": {}}}]`,
		`[{"$project": 1}]`,
		`[{"$project": {"": 1}}]`,
		`[{"$project": {"a..b": 1}}]`,
		`[{"$addFields": 1}]`,
		`[{"$replaceRoot": {"foo": 1}}]`,
		`[{"$replaceRoot": {}}]`,
		`[{"$replaceRoot": 1}]`,
		`[{"$facet": {}}]`,
		`[{"$facet": {"a": 1}}]`,
		`[{"$facet": {"a": [1]}}]`,
		`[{"$facet": {"a": [{"$collStats": {}}]}}]`,
		`[{"$sample": {}}]`,
		`[{"$sample": {"size": "a"}}]`,
		`[{"$sample": 1}]`,
		`[{"$unionWith": 1}]`,
		`[{"$unionWith": {"pipeline": [{"$limit": 1}]}}]`,
		`[{"$unionWith": {"coll": "x", "foo": 1}}]`,
		`[{"$collStats": {"foo": {}}}]`,
		`[{"$indexStats": {"a": 1}}]`,
		`[{"$sortByCount": 1}]`,
		`[{"$sort": {"a": {"$meta": "textScore"}}}]`,
		`[{"$count": 1}]`,
		`[{"$skip": 1.5}]`,
		`[{"$documents": 1}]`,
		`[{"$bucket": {"groupBy": "$a", "boundaries": 1}}]`,
		`[{"$bucket": {"groupBy": "$a", "boundaries": [0, "$x"]}}]`,
		`[{"$bucket": {"groupBy": "$a", "boundaries": [0, 1], "output": 1}}]`,
		`[{"$bucket": {"groupBy": "$a", "boundaries": [0, 1], "default": "$x"}}]`,
	}
	for _, s := range specs {
		db := newFakeDB()
		_, err := runPipeline(t, db.context(), docs(t, `{"a": 1}`), pipe(t, s))
		if err == nil {
			t.Errorf("%s: no error", s)
			continue
		}
		if _, ok := err.(*mongoerr.Error); !ok {
			t.Errorf("%s: %T %v is not a *mongoerr.Error", s, err, err)
		}
	}
}
