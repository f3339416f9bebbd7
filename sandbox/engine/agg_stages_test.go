package engine_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Expected results follow the MongoDB 8.0 manual's examples and mongod's
// jstests; field order and numeric types are part of the answer.

func TestAggBasicStages(t *testing.T) {
	inventory := `[
		{"_id": 1, "item": "abc", "price": 10, "qty": 2, "tags": ["x"], "size": {"h": 14, "w": 21}},
		{"_id": 2, "item": "jkl", "price": 20, "qty": 1, "tags": ["x", "y"], "size": {"h": 8, "w": 11}},
		{"_id": 3, "item": "xyz", "price": 5, "qty": 10, "tags": ["y"], "size": {"h": 11, "w": 30}}
	]`
	runAggCases(t, []aggCase{
		{name: "match", docs: inventory, pipeline: `[{"$match": {"price": {"$gte": 10}}}, {"$project": {"item": 1}}]`,
			want: `[{"_id": 1, "item": "abc"}, {"_id": 2, "item": "jkl"}]`},
		{name: "match $expr", docs: inventory, pipeline: `[{"$match": {"$expr": {"$gt": ["$qty", "$price"]}}}, {"$project": {"_id": 1}}]`,
			want: `[{"_id": 3}]`},
		{name: "project inclusion keeps document order, computed fields follow", docs: inventory,
			pipeline: `[{"$project": {"qty": 1, "total": {"$multiply": ["$price", "$qty"]}, "item": 1, "size.h": 1}}]`,
			want: `[{"_id": 1, "item": "abc", "qty": 2, "size": {"h": 14}, "total": 20},
				{"_id": 2, "item": "jkl", "qty": 1, "size": {"h": 8}, "total": 20},
				{"_id": 3, "item": "xyz", "qty": 10, "size": {"h": 11}, "total": 50}]`},
		{name: "project exclusion", docs: inventory, pipeline: `[{"$project": {"_id": 0, "tags": 0, "size.w": 0}}, {"$limit": 1}]`,
			want: `[{"item": "abc", "price": 10, "qty": 2, "size": {"h": 14}}]`},
		{name: "project $$REMOVE", docs: inventory,
			pipeline: `[{"$project": {"item": 1, "qty": {"$cond": {"if": {"$gt": ["$qty", 1]}, "then": "$qty", "else": "$$REMOVE"}}}}]`,
			want:     `[{"_id": 1, "item": "abc", "qty": 2}, {"_id": 2, "item": "jkl"}, {"_id": 3, "item": "xyz", "qty": 10}]`},
		{name: "project mixing inclusion and exclusion", docs: inventory, pipeline: `[{"$project": {"item": 1, "qty": 0}}]`,
			code: 31254, msg: "Invalid $project :: caused by :: Cannot do exclusion on field qty in inclusion projection"},
		{name: "project empty", docs: inventory, pipeline: `[{"$project": {}}]`,
			code: 51272, msg: "Invalid $project :: caused by :: projection specification must have at least one field"},
		{name: "addFields replaces in place and appends", docs: inventory,
			pipeline: `[{"$addFields": {"price": {"$add": ["$price", 1]}, "size.d": 3, "total": {"$sum": ["$price", "$qty"]}}}, {"$project": {"tags": 0}}, {"$limit": 1}]`,
			want:     `[{"_id": 1, "item": "abc", "price": 11, "qty": 2, "size": {"h": 14, "w": 21, "d": 3}, "total": 12}]`},
		{name: "set alias", docs: inventory, pipeline: `[{"$set": {"item": "$$ROOT.qty"}}, {"$project": {"item": 1}}, {"$limit": 2}]`,
			want: `[{"_id": 1, "item": 2}, {"_id": 2, "item": 1}]`},
		{name: "unset string", docs: inventory, pipeline: `[{"$unset": "tags"}, {"$limit": 1}]`,
			want: `[{"_id": 1, "item": "abc", "price": 10, "qty": 2, "size": {"h": 14, "w": 21}}]`},
		{name: "unset array with dotted", docs: inventory, pipeline: `[{"$unset": ["tags", "size.w", "price"]}, {"$limit": 1}]`,
			want: `[{"_id": 1, "item": "abc", "qty": 2, "size": {"h": 14}}]`},
		{name: "sort skip limit", docs: inventory, pipeline: `[{"$sort": {"price": -1}}, {"$skip": 1}, {"$limit": 1}, {"$project": {"price": 1}}]`,
			want: `[{"_id": 1, "price": 10}]`},
		{name: "sort compound", docs: `[{"_id": 1, "a": 1, "b": 2}, {"_id": 2, "a": 1, "b": 1}, {"_id": 3, "a": 0, "b": 5}]`,
			pipeline: `[{"$sort": {"a": 1, "b": 1}}]`,
			want:     `[{"_id": 3, "a": 0, "b": 5}, {"_id": 2, "a": 1, "b": 1}, {"_id": 1, "a": 1, "b": 2}]`},
		{name: "sort by $meta-less bad value", docs: inventory, pipeline: `[{"$sort": {"price": 2}}]`,
			code: 15975, msg: "$sort key ordering must be 1 (for ascending) or -1 (for descending)"},
		{name: "limit zero", docs: inventory, pipeline: `[{"$limit": 0}]`,
			code: 15958, msg: "the limit must be positive"},
		{name: "skip negative", docs: inventory, pipeline: `[{"$skip": -1}]`,
			code: 5107200, msg: "invalid argument to $skip stage: Expected a non-negative number in: $skip: -1"},
		{name: "count", docs: inventory, pipeline: `[{"$match": {"price": {"$gt": 5}}}, {"$count": "passing"}]`,
			want: `[{"passing": 2}]`},
		{name: "count of nothing returns no document", docs: inventory, pipeline: `[{"$match": {"price": 0}}, {"$count": "n"}]`,
			want: `[]`},
		{name: "count empty name", docs: inventory, pipeline: `[{"$count": ""}]`,
			code: 40157, msg: "the count field must be a non-empty string"},
		{name: "count dollar name", docs: inventory, pipeline: `[{"$count": "$n"}]`,
			code: 40158, msg: "the count field cannot be a $-prefixed path"},
		{name: "count dotted name", docs: inventory, pipeline: `[{"$count": "a.b"}]`,
			code: 40160, msg: "the count field cannot contain '.'"},
		{name: "sortByCount", docs: `[{"t": "a"}, {"t": "b"}, {"t": "a"}, {"t": "c"}, {"t": "a"}, {"t": "b"}]`,
			pipeline: `[{"$sortByCount": "$t"}]`,
			want:     `[{"_id": "a", "count": 3}, {"_id": "b", "count": 2}, {"_id": "c", "count": 1}]`},
		{name: "sortByCount unwound tags", docs: inventory, pipeline: `[{"$unwind": "$tags"}, {"$sortByCount": {"$toUpper": "$tags"}}, {"$sort": {"_id": 1}}]`,
			want: `[{"_id": "X", "count": 2}, {"_id": "Y", "count": 2}]`},
		{name: "sortByCount field name", docs: inventory, pipeline: `[{"$sortByCount": "t"}]`,
			code: 40148, msg: "the sortByCount field must be defined as a $-prefixed path or an expression inside an object"},
		{name: "replaceRoot", docs: inventory, pipeline: `[{"$replaceRoot": {"newRoot": "$size"}}]`,
			want: `[{"h": 14, "w": 21}, {"h": 8, "w": 11}, {"h": 11, "w": 30}]`},
		{name: "replaceRoot mergeObjects", docs: inventory,
			pipeline: `[{"$replaceRoot": {"newRoot": {"$mergeObjects": [{"item": "", "h": 0}, "$size", {"item": "$item"}]}}}, {"$limit": 1}]`,
			want:     `[{"item": "abc", "h": 14, "w": 21}]`},
		{name: "replaceWith", docs: inventory, pipeline: `[{"$replaceWith": {"i": "$item", "area": {"$multiply": ["$size.h", "$size.w"]}}}, {"$limit": 1}]`,
			want: `[{"i": "abc", "area": 294}]`},
		// The input document in the message is the one the stage received:
		// only the fields it reads, as the query under the pipeline
		// returns them (mongod's dependency-pruned document). The two
		// spaces are mongod's: its context "'newRoot' expression " ends in
		// one and its kErrorTemplate "{} must evaluate ..." starts with one
		// (document_source_replace_root.h).
		{name: "replaceRoot non-document", docs: `[{"_id": 1, "a": 5, "b": 1}]`, pipeline: `[{"$replaceRoot": {"newRoot": "$a"}}]`,
			code: 40228, msg: "PlanExecutor error during aggregation :: caused by :: 'newRoot' expression  must evaluate to an object, but resulting value was: 5. Type of resulting value: 'int'. Input document: {a: 5}"},
		{name: "replaceRoot missing", docs: `[{"_id": 1}]`, pipeline: `[{"$replaceWith": "$a"}]`,
			code: 40228, msg: "PlanExecutor error during aggregation :: caused by :: 'replacement document'  must evaluate to an object, but resulting value was: MISSING. Type of resulting value: 'missing'. Input document: {}"},
		{name: "unionWith", docs: `[{"_id": 1, "s": "c"}]`, other: map[string]string{"o": `[{"_id": 2, "s": "o"}, {"_id": 3, "s": "o"}]`},
			pipeline: `[{"$unionWith": {"coll": "o", "pipeline": [{"$match": {"_id": 3}}]}}, {"$set": {"n": 1}}]`,
			want:     `[{"_id": 1, "s": "c", "n": 1}, {"_id": 3, "s": "o", "n": 1}]`},
		{name: "unionWith string form", docs: `[{"_id": 1}]`, other: map[string]string{"o": `[{"_id": 2}]`},
			pipeline: `[{"$unionWith": "o"}, {"$sort": {"_id": -1}}]`,
			want:     `[{"_id": 2}, {"_id": 1}]`},
		{name: "unionWith missing collection is empty", docs: `[{"_id": 1}]`, pipeline: `[{"$unionWith": "nope"}]`,
			want: `[{"_id": 1}]`},
		{name: "documents", dbLevel: true,
			pipeline: `[{"$documents": [{"x": 10}, {"x": 2}, {"x": 5}]}, {"$bucketAuto": {"groupBy": "$x", "buckets": 4}}]`,
			want:     `[{"_id": {"min": 2, "max": 5}, "count": 1}, {"_id": {"min": 5, "max": 10}, "count": 1}, {"_id": {"min": 10, "max": 10}, "count": 1}]`},
		{name: "documents expression", dbLevel: true,
			pipeline: `[{"$documents": {"$map": {"input": {"$range": [0, 3]}, "in": {"n": "$$this"}}}}]`,
			want:     `[{"n": 0}, {"n": 1}, {"n": 2}]`},
		{name: "documents against a collection", docs: `[{"_id": 1}]`, pipeline: `[{"$documents": [{"x": 1}]}]`,
			code: mongoerr.InvalidNamespace},
		{name: "unknown stage", docs: inventory, pipeline: `[{"$bogus": {}}]`,
			code: 40324, msg: "Unrecognized pipeline stage name: '$bogus'"},
		{name: "stage with two fields", docs: inventory, pipeline: `[{"$match": {}, "$limit": 1}]`,
			code: 40323, msg: "A pipeline stage specification object must contain exactly one field."},
		{name: "sample size and membership", docs: inventory, pipeline: `[{"$sample": {"size": 5}}, {"$sort": {"_id": 1}}, {"$project": {"_id": 1}}]`,
			want: `[{"_id": 1}, {"_id": 2}, {"_id": 3}]`},
		{name: "sample zero", docs: inventory, pipeline: `[{"$sample": {"size": 0}}]`, want: `[]`},
		{name: "match unknown operator", docs: inventory, pipeline: `[{"$match": {"a": {"$bogus": 1}}}]`,
			code: mongoerr.BadValue, msg: "unknown operator: $bogus"},
		{name: "match not an object", docs: inventory, pipeline: `[{"$match": 1}]`,
			code: 15959, msg: "the match filter must be an expression in an object"},
		{name: "unset not a string", docs: inventory, pipeline: `[{"$unset": 1}]`,
			code: 31002, msg: "$unset specification must be a string or an array"},
		{name: "replaceRoot without newRoot", docs: inventory, pipeline: `[{"$replaceRoot": {}}]`,
			code: mongoerr.IDLFailedToParse, msg: "BSON field '$replaceRoot.newRoot' is missing but a required field"},
		{name: "unionWith bad spec", docs: inventory, pipeline: `[{"$unionWith": 1}]`,
			code: mongoerr.FailedToParse, msg: "the $unionWith stage specification must be an object or string, but found int"},
		{name: "indexStats with arguments", docs: inventory, pipeline: `[{"$indexStats": {"a": 1}}]`,
			code: 28803, msg: "The $indexStats stage specification must be an empty object"},
		{name: "lookup from not a string", docs: inventory, pipeline: `[{"$lookup": {"from": 1, "localField": "a", "foreignField": "b", "as": "c"}}]`,
			code: mongoerr.FailedToParse, msg: "$lookup 'from' field must be a string, but found int"},
		// mongod evaluates constant operators while optimizing the pipeline:
		// their errors come before any document is read, even from a
		// $cond branch that would never be taken.
		{name: "constant error is an optimization error", docs: inventory, pipeline: `[{"$match": {"_id": 0}}, {"$project": {"r": {"$divide": [1, 0]}}}]`,
			code: mongoerr.BadValue, msg: "Failed to optimize pipeline :: caused by :: can't $divide by zero"},
		{name: "constant error in an untaken branch", docs: inventory, pipeline: `[{"$project": {"r": {"$cond": [true, 1, {"$size": "x"}]}}}]`,
			code: 17124, msg: "Failed to optimize pipeline :: caused by :: The argument to $size must be an array, but was of type: string"},
		{name: "constant error in $group", docs: inventory, pipeline: `[{"$group": {"_id": null, "s": {"$sum": {"$ln": -1}}}}]`,
			code: 28766, msg: "Failed to optimize pipeline :: caused by :: $ln's argument must be a positive number, but is -1"},
		{name: "field error is an executor error", docs: inventory, pipeline: `[{"$project": {"r": {"$divide": ["$price", 0]}}}]`,
			code: mongoerr.BadValue, msg: planExecutorPrefix + "can't $divide by zero"},
		{name: "sample negative", docs: inventory, pipeline: `[{"$sample": {"size": -1}}]`,
			code: 28747, msg: "size argument to $sample must not be negative"},
	})
}

func TestAggSampleSize(t *testing.T) {
	coll := startServer(t).Database("agg").Collection("c")
	docs := make([]any, 100)
	for i := range docs {
		docs[i] = bson.D{{Key: "_id", Value: int32(i)}}
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	got := aggRun(t, coll, bson.A{bson.D{{Key: "$sample", Value: bson.D{{Key: "size", Value: 7}}}}})
	seen := map[int32]bool{}
	for _, d := range got {
		id, ok := d[0].Value.(int32)
		if len(d) != 1 || !ok || id < 0 || id >= 100 || seen[id] {
			t.Fatalf("sample returned %v", got)
		}
		seen[id] = true
	}
	if len(got) != 7 {
		t.Fatalf("sample returned %d documents, want 7", len(got))
	}
}

func TestAggGroup(t *testing.T) {
	sales := `[
		{"_id": 1, "k": "a", "v": 1, "s": "x", "o": {"p": 1}},
		{"_id": 2, "k": "a", "v": 3, "s": "y", "o": {"q": 2}},
		{"_id": 3, "k": "b", "v": 2, "s": "x", "o": {"p": 3}},
		{"_id": 4, "k": "a", "v": 2, "s": "x", "o": {"p": 4}}
	]`
	runAggCases(t, []aggCase{
		// Every accumulator in one $group: each must be computed, not only the first.
		{name: "every accumulator", docs: sales, pipeline: `[
			{"$sort": {"_id": 1}},
			{"$group": {"_id": "$k",
				"sum": {"$sum": "$v"}, "avg": {"$avg": "$v"}, "min": {"$min": "$v"}, "max": {"$max": "$v"},
				"first": {"$first": "$v"}, "last": {"$last": "$v"}, "push": {"$push": "$v"}, "set": {"$addToSet": "$s"},
				"count": {"$count": {}}, "merged": {"$mergeObjects": "$o"},
				"top": {"$top": {"sortBy": {"v": -1}, "output": "$_id"}},
				"bottom": {"$bottom": {"sortBy": {"v": -1}, "output": ["$_id", "$v"]}},
				"topN": {"$topN": {"n": 2, "sortBy": {"v": 1}, "output": "$v"}},
				"bottomN": {"$bottomN": {"n": 2, "sortBy": {"v": 1}, "output": "$v"}},
				"firstN": {"$firstN": {"input": "$v", "n": 2}},
				"lastN": {"$lastN": {"input": "$v", "n": 2}},
				"sdPop": {"$stdDevPop": "$v"}, "sdSamp": {"$stdDevSamp": "$v"}}},
			{"$set": {"set": {"$sortArray": {"input": "$set", "sortBy": 1}}}},
			{"$sort": {"_id": 1}}]`,
			want: `[
			{"_id": "a", "sum": 6, "avg": 2.0, "min": 1, "max": 3, "first": 1, "last": 2, "push": [1, 3, 2], "set": ["x", "y"],
				"count": 3, "merged": {"p": 4, "q": 2}, "top": 2, "bottom": [1, 1], "topN": [1, 2], "bottomN": [2, 3],
				"firstN": [1, 3], "lastN": [3, 2], "sdPop": 0.816496580927726, "sdSamp": 1.0},
			{"_id": "b", "sum": 2, "avg": 2.0, "min": 2, "max": 2, "first": 2, "last": 2, "push": [2], "set": ["x"],
				"count": 1, "merged": {"p": 3}, "top": 3, "bottom": [3, 2], "topN": [2], "bottomN": [2],
				"firstN": [2], "lastN": [2], "sdPop": 0.0, "sdSamp": null}]`},
		{name: "group null id and constant sum", docs: sales,
			pipeline: `[{"$group": {"_id": null, "n": {"$sum": 1}, "total": {"$sum": {"$multiply": ["$v", 2]}}}}]`,
			want:     `[{"_id": null, "n": 4, "total": 16}]`},
		{name: "group compound id", docs: sales,
			pipeline: `[{"$group": {"_id": {"k": "$k", "s": "$s"}, "n": {"$sum": 1}}}, {"$sort": {"_id.k": 1, "_id.s": 1}}]`,
			want:     `[{"_id": {"k": "a", "s": "x"}, "n": 2}, {"_id": {"k": "a", "s": "y"}, "n": 1}, {"_id": {"k": "b", "s": "x"}, "n": 1}]`},
		{name: "sum mixed types widens", docs: `[{"v": 2147483647}, {"v": 1}, {"v": {"$numberLong": "1"}}]`,
			pipeline: `[{"$group": {"_id": null, "s": {"$sum": "$v"}}}]`,
			want:     `[{"_id": null, "s": {"$numberLong": "2147483649"}}]`},
		{name: "sum with double", docs: `[{"v": 1}, {"v": 2.5}, {"v": "x"}, {}]`,
			pipeline: `[{"$group": {"_id": null, "s": {"$sum": "$v"}, "a": {"$avg": "$v"}, "mn": {"$min": "$v"}, "mx": {"$max": "$v"}}}]`,
			want:     `[{"_id": null, "s": 3.5, "a": 1.75, "mn": 1, "mx": "x"}]`},
		{name: "avg of nothing is null", docs: `[{"v": "x"}]`,
			pipeline: `[{"$group": {"_id": null, "a": {"$avg": "$v"}, "s": {"$sum": "$v"}}}]`,
			want:     `[{"_id": null, "a": null, "s": 0}]`},
		{name: "first of missing is null", docs: `[{"_id": 1}]`,
			pipeline: `[{"$group": {"_id": null, "f": {"$first": "$nope"}, "p": {"$push": "$nope"}}}]`,
			want:     `[{"_id": null, "f": null, "p": []}]`},
		{name: "avg and sum of decimals", docs: `[{"v": {"$numberDecimal": "1.1"}}, {"v": 2}]`,
			pipeline: `[{"$group": {"_id": null, "a": {"$avg": "$v"}, "s": {"$sum": "$v"}}}]`,
			want:     `[{"_id": null, "a": {"$numberDecimal": "1.55"}, "s": {"$numberDecimal": "3.1"}}]`},
		{name: "stdDev ignores non-numbers", docs: `[{"v": 2}, {"v": 4}, {"v": "x"}, {}]`,
			pipeline: `[{"$group": {"_id": null, "p": {"$stdDevPop": "$v"}, "s": {"$stdDevSamp": "$v"}}}]`,
			want:     `[{"_id": null, "p": 1.0, "s": 1.4142135623730951}]`},
		{name: "min max ignore null and missing", docs: `[{"v": null}, {}, {"v": 3}, {"v": 1}]`,
			pipeline: `[{"$group": {"_id": null, "mn": {"$min": "$v"}, "mx": {"$max": "$v"}}}]`,
			want:     `[{"_id": null, "mn": 1, "mx": 3}]`},
		{name: "min of only nulls is null", docs: `[{"v": null}, {}]`,
			pipeline: `[{"$group": {"_id": null, "mn": {"$min": "$v"}}}]`,
			want:     `[{"_id": null, "mn": null}]`},
		{name: "topN ties keep sort then input order", docs: `[{"_id": 1, "s": 1}, {"_id": 2, "s": 2}, {"_id": 3, "s": 1}]`,
			pipeline: `[{"$sort": {"_id": 1}}, {"$group": {"_id": null, "t": {"$topN": {"n": 3, "sortBy": {"s": 1, "_id": -1}, "output": "$_id"}}}}]`,
			want:     `[{"_id": null, "t": [3, 1, 2]}]`},
		{name: "bottom with missing output is null", docs: `[{"_id": 1, "s": 1}]`,
			pipeline: `[{"$group": {"_id": null, "b": {"$bottom": {"sortBy": {"s": 1}, "output": "$nope"}}}}]`,
			want:     `[{"_id": null, "b": null}]`},
		{name: "mergeObjects skips null", docs: `[{"_id": 1, "o": {"a": 1}}, {"_id": 2, "o": null}, {"_id": 3, "o": {"b": 2}}]`,
			pipeline: `[{"$sort": {"_id": 1}}, {"$group": {"_id": null, "m": {"$mergeObjects": "$o"}}}]`,
			want:     `[{"_id": null, "m": {"a": 1, "b": 2}}]`},
		{name: "firstN of fewer documents", docs: `[{"v": 1}]`,
			pipeline: `[{"$group": {"_id": null, "f": {"$firstN": {"input": "$v", "n": 3}}, "l": {"$lastN": {"input": "$nope", "n": 2}}}}]`,
			want:     `[{"_id": null, "f": [1], "l": [null]}]`},
		{name: "count accumulator takes no argument", docs: sales, pipeline: `[{"$group": {"_id": null, "n": {"$count": 1}}}]`,
			code: mongoerr.TypeMismatch, msg: "$count takes no arguments, i.e. $count:{}"},
		{name: "group without _id", docs: sales, pipeline: `[{"$group": {"n": {"$sum": 1}}}]`,
			code: 15955, msg: "a group specification must include an _id"},
		{name: "unknown accumulator", docs: sales, pipeline: `[{"$group": {"_id": null, "n": {"$bogus": 1}}}]`,
			code: 15952, msg: "unknown group operator '$bogus'"},
		{name: "dotted output field", docs: sales, pipeline: `[{"$group": {"_id": null, "a.b": {"$sum": 1}}}]`,
			code: 40235, msg: "The field name 'a.b' cannot contain '.'"},
		{name: "topN n zero", docs: sales, pipeline: `[{"$group": {"_id": null, "t": {"$topN": {"n": 0, "sortBy": {"v": 1}, "output": "$v"}}}}]`,
			code: 5787908, msg: "PlanExecutor error during aggregation :: caused by :: 'n' must be greater than 0, found 0"},
	})
}

func TestAggUnwind(t *testing.T) {
	inventory := `[
		{"_id": 1, "item": "ABC", "price": {"$numberDecimal": "80"}, "sizes": ["S", "M", "L"]},
		{"_id": 2, "item": "EFG", "price": {"$numberDecimal": "120"}, "sizes": []},
		{"_id": 3, "item": "IJK", "price": {"$numberDecimal": "160"}, "sizes": "M"},
		{"_id": 4, "item": "LMN", "price": {"$numberDecimal": "10"}},
		{"_id": 5, "item": "XYZ", "price": {"$numberDecimal": "5.75"}, "sizes": null}
	]`
	runAggCases(t, []aggCase{
		{name: "string form", docs: inventory, pipeline: `[{"$unwind": "$sizes"}, {"$project": {"price": 0}}]`,
			want: `[{"_id": 1, "item": "ABC", "sizes": "S"}, {"_id": 1, "item": "ABC", "sizes": "M"}, {"_id": 1, "item": "ABC", "sizes": "L"},
				{"_id": 3, "item": "IJK", "sizes": "M"}]`},
		{name: "preserveNullAndEmptyArrays", docs: inventory,
			pipeline: `[{"$unwind": {"path": "$sizes", "preserveNullAndEmptyArrays": true}}, {"$project": {"price": 0}}]`,
			want: `[{"_id": 1, "item": "ABC", "sizes": "S"}, {"_id": 1, "item": "ABC", "sizes": "M"}, {"_id": 1, "item": "ABC", "sizes": "L"},
				{"_id": 2, "item": "EFG"}, {"_id": 3, "item": "IJK", "sizes": "M"}, {"_id": 4, "item": "LMN"}, {"_id": 5, "item": "XYZ", "sizes": null}]`},
		{name: "includeArrayIndex", docs: inventory,
			pipeline: `[{"$unwind": {"path": "$sizes", "includeArrayIndex": "arrayIndex"}}, {"$project": {"item": 0}}]`,
			want: `[{"_id": 1, "price": {"$numberDecimal": "80"}, "sizes": "S", "arrayIndex": {"$numberLong": "0"}},
				{"_id": 1, "price": {"$numberDecimal": "80"}, "sizes": "M", "arrayIndex": {"$numberLong": "1"}},
				{"_id": 1, "price": {"$numberDecimal": "80"}, "sizes": "L", "arrayIndex": {"$numberLong": "2"}},
				{"_id": 3, "price": {"$numberDecimal": "160"}, "sizes": "M", "arrayIndex": null}]`},
		{name: "both options", docs: inventory,
			pipeline: `[{"$unwind": {"path": "$sizes", "includeArrayIndex": "i", "preserveNullAndEmptyArrays": true}}, {"$match": {"_id": {"$gte": 2}}}, {"$project": {"sizes": 1, "i": 1}}]`,
			want:     `[{"_id": 2, "i": null}, {"_id": 3, "sizes": "M", "i": null}, {"_id": 4, "i": null}, {"_id": 5, "sizes": null, "i": null}]`},
		{name: "nested path", docs: `[{"_id": 1, "a": {"b": [1, 2]}}]`, pipeline: `[{"$unwind": "$a.b"}]`,
			want: `[{"_id": 1, "a": {"b": 1}}, {"_id": 1, "a": {"b": 2}}]`},
		{name: "path without $", docs: inventory, pipeline: `[{"$unwind": "sizes"}]`,
			code: 28818, msg: "path option to $unwind stage should be prefixed with a '$': sizes"},
		{name: "includeArrayIndex with $", docs: inventory, pipeline: `[{"$unwind": {"path": "$sizes", "includeArrayIndex": "$i"}}]`,
			code: 28822, msg: "includeArrayIndex option to $unwind stage should not be prefixed with a '$': $i"},
		{name: "unknown option", docs: inventory, pipeline: `[{"$unwind": {"path": "$sizes", "bogus": 1}}]`,
			code: 28811, msg: "unrecognized option to $unwind stage: bogus"},
	})
}

func TestAggBucket(t *testing.T) {
	artists := `[
		{"_id": 1, "last_name": "Bernard", "first_name": "Emil", "year_born": 1868, "year_died": 1941, "nationality": "France"},
		{"_id": 2, "last_name": "Rippl-Ronai", "first_name": "Joszef", "year_born": 1861, "year_died": 1927, "nationality": "Hungary"},
		{"_id": 3, "last_name": "Ostroumova", "first_name": "Anna", "year_born": 1871, "year_died": 1955, "nationality": "Russia"},
		{"_id": 4, "last_name": "Van Gogh", "first_name": "Vincent", "year_born": 1853, "year_died": 1890, "nationality": "Holland"},
		{"_id": 5, "last_name": "Maurer", "first_name": "Alfred", "year_born": 1868, "year_died": 1932, "nationality": "USA"},
		{"_id": 6, "last_name": "Munch", "first_name": "Edvard", "year_born": 1863, "year_died": 1944, "nationality": "Norway"},
		{"_id": 7, "last_name": "Redon", "first_name": "Odilon", "year_born": 1840, "year_died": 1916, "nationality": "France"},
		{"_id": 8, "last_name": "Diriks", "first_name": "Edvard", "year_born": 1855, "year_died": 1930, "nationality": "Norway"}
	]`
	artwork := `[
		{"_id": 1, "title": "The Pillars of Society", "artist": "Grosz", "year": 1926, "price": {"$numberDecimal": "199.99"}},
		{"_id": 2, "title": "Melancholy III", "artist": "Munch", "year": 1902, "price": {"$numberDecimal": "280.00"}},
		{"_id": 3, "title": "Dancer", "artist": "Miro", "year": 1925, "price": {"$numberDecimal": "76.04"}},
		{"_id": 4, "title": "The Great Wave off Kanagawa", "artist": "Hokusai", "price": {"$numberDecimal": "167.30"}},
		{"_id": 5, "title": "The Persistence of Memory", "artist": "Dali", "year": 1931, "price": {"$numberDecimal": "483.00"}},
		{"_id": 6, "title": "Composition VII", "artist": "Kandinsky", "year": 1913, "price": {"$numberDecimal": "385.00"}},
		{"_id": 7, "title": "The Scream", "artist": "Munch", "year": 1893, "price": {"$numberDecimal": "159.00"}},
		{"_id": 9, "title": "Untitled", "artist": "Unknown"},
		{"_id": 8, "title": "Blue Flower", "artist": "O'Keefe", "year": 1918, "price": {"$numberDecimal": "118.42"}}
	]`
	runAggCases(t, []aggCase{
		// The manual's $bucket example (artists by birth year).
		{name: "manual artists", docs: artists, pipeline: `[
			{"$bucket": {"groupBy": "$year_born", "boundaries": [1840, 1850, 1860, 1870, 1880], "default": "Other",
				"output": {"count": {"$sum": 1}, "artists": {"$push": {"name": {"$concat": ["$first_name", " ", "$last_name"]}, "year_born": "$year_born"}}}}},
			{"$match": {"count": {"$gt": 3}}}]`,
			want: `[{"_id": 1860, "count": 4, "artists": [
				{"name": "Emil Bernard", "year_born": 1868}, {"name": "Joszef Rippl-Ronai", "year_born": 1861},
				{"name": "Alfred Maurer", "year_born": 1868}, {"name": "Edvard Munch", "year_born": 1863}]}]`},
		{name: "default count output and default bucket last", docs: artwork,
			pipeline: `[{"$bucket": {"groupBy": "$price", "boundaries": [0, 200, 400], "default": "Other"}}]`,
			want:     `[{"_id": 0, "count": 5}, {"_id": 200, "count": 2}, {"_id": "Other", "count": 2}]`},
		{name: "outside boundaries without default", docs: artwork,
			pipeline: `[{"$bucket": {"groupBy": "$price", "boundaries": [0, 200, 400]}}]`,
			code:     40066, msg: "PlanExecutor error during aggregation :: caused by :: $switch could not find a matching branch for an input, and no default was specified."},
		{name: "unsorted boundaries", docs: artwork, pipeline: `[{"$bucket": {"groupBy": "$price", "boundaries": [10, 5]}}]`,
			code: 40194, msg: "The 'boundaries' option to $bucket must be sorted, but elements 0 and 1 are not in ascending order (10 is not less than 5)."},
		{name: "one boundary", docs: artwork, pipeline: `[{"$bucket": {"groupBy": "$price", "boundaries": [10]}}]`,
			code: 40192, msg: "The $bucket 'boundaries' field must have at least 2 values, but found 1 value(s)."},
		{name: "default inside boundaries", docs: artwork, pipeline: `[{"$bucket": {"groupBy": "$price", "boundaries": [0, 500], "default": 100}}]`,
			code: 40199, msg: "The $bucket 'default' field must be less than the lowest boundary or greater than or equal to the highest boundary."},
		// The manual's $bucketAuto example (artwork prices in four buckets).
		{name: "bucketAuto manual", docs: artwork, pipeline: `[{"$match": {"price": {"$exists": true}}}, {"$bucketAuto": {"groupBy": "$price", "buckets": 4}}]`,
			want: `[
				{"_id": {"min": {"$numberDecimal": "76.04"}, "max": {"$numberDecimal": "159.00"}}, "count": 2},
				{"_id": {"min": {"$numberDecimal": "159.00"}, "max": {"$numberDecimal": "199.99"}}, "count": 2},
				{"_id": {"min": {"$numberDecimal": "199.99"}, "max": {"$numberDecimal": "385.00"}}, "count": 2},
				{"_id": {"min": {"$numberDecimal": "385.00"}, "max": {"$numberDecimal": "483.00"}}, "count": 2}]`},
		{name: "bucketAuto output and granularity", docs: `[{"v": 1}, {"v": 3}, {"v": 7}, {"v": 12}, {"v": 40}, {"v": 90}]`,
			pipeline: `[{"$bucketAuto": {"groupBy": "$v", "buckets": 3, "granularity": "1-2-5", "output": {"n": {"$sum": 1}, "vs": {"$push": "$v"}}}}]`,
			want: `[{"_id": {"min": 0.5, "max": 5.0}, "n": 2, "vs": [1, 3]}, {"_id": {"min": 5.0, "max": 20.0}, "n": 2, "vs": [7, 12]},
				{"_id": {"min": 20.0, "max": 100.0}, "n": 2, "vs": [40, 90]}]`},
		{name: "bucketAuto zero buckets", docs: artwork, pipeline: `[{"$bucketAuto": {"groupBy": "$price", "buckets": 0}}]`,
			code: 40243, msg: "The $bucketAuto 'buckets' field must be greater than 0, but found: 0"},
	})
}

func TestAggFacetAndLookup(t *testing.T) {
	orders := `[{"_id": 1, "item": "almonds", "price": 12, "quantity": 2}, {"_id": 2, "item": "pecans", "price": 20, "quantity": 1}, {"_id": 3}]`
	inventory := `[
		{"_id": 1, "sku": "almonds", "description": "product 1", "instock": 120},
		{"_id": 2, "sku": "bread", "description": "product 2", "instock": 80},
		{"_id": 3, "sku": "cashews", "description": "product 3", "instock": 60},
		{"_id": 4, "sku": "pecans", "description": "product 4", "instock": 70},
		{"_id": 5, "sku": null, "description": "Incomplete"},
		{"_id": 6}
	]`
	orders2 := `[{"_id": 1, "item": "almonds", "price": 12, "ordered": 2}, {"_id": 2, "item": "pecans", "price": 20, "ordered": 1}, {"_id": 3, "item": "cookies", "price": 10, "ordered": 60}]`
	warehouses := `[
		{"_id": 1, "stock_item": "almonds", "warehouse": "A", "instock": 120},
		{"_id": 2, "stock_item": "pecans", "warehouse": "A", "instock": 80},
		{"_id": 3, "stock_item": "almonds", "warehouse": "B", "instock": 60},
		{"_id": 4, "stock_item": "cookies", "warehouse": "B", "instock": 40},
		{"_id": 5, "stock_item": "cookies", "warehouse": "A", "instock": 80}
	]`
	runAggCases(t, []aggCase{
		{name: "facet", docs: inventory, pipeline: `[{"$facet": {
				"n": [{"$count": "total"}],
				"big": [{"$match": {"instock": {"$gte": 80}}}, {"$project": {"sku": 1}}],
				"none": [{"$match": {"nope": 1}}]}}]`,
			want: `[{"n": [{"total": 6}], "big": [{"_id": 1, "sku": "almonds"}, {"_id": 2, "sku": "bread"}], "none": []}]`},
		{name: "facet with $out", docs: inventory, pipeline: `[{"$facet": {"a": [{"$out": "x"}]}}]`,
			code: 40600, msg: "$out is not allowed to be used within a $facet stage"},
		{name: "facet empty", docs: inventory, pipeline: `[{"$facet": {}}]`,
			code: 40169, msg: "the $facet specification must be a non-empty object, but found: $facet: {}"},
		// The manual's single-equality $lookup: a missing localField matches null and missing foreign fields.
		{name: "lookup localField foreignField", docs: orders, other: map[string]string{"inventory": inventory},
			pipeline: `[{"$lookup": {"from": "inventory", "localField": "item", "foreignField": "sku", "as": "inventory_docs"}}]`,
			want: `[
				{"_id": 1, "item": "almonds", "price": 12, "quantity": 2, "inventory_docs": [{"_id": 1, "sku": "almonds", "description": "product 1", "instock": 120}]},
				{"_id": 2, "item": "pecans", "price": 20, "quantity": 1, "inventory_docs": [{"_id": 4, "sku": "pecans", "description": "product 4", "instock": 70}]},
				{"_id": 3, "inventory_docs": [{"_id": 5, "sku": null, "description": "Incomplete"}, {"_id": 6}]}]`},
		{name: "lookup array localField", docs: `[{"_id": 1, "skus": ["bread", "pecans", "none"]}]`, other: map[string]string{"inventory": inventory},
			pipeline: `[{"$lookup": {"from": "inventory", "localField": "skus", "foreignField": "sku", "as": "d"}}, {"$project": {"d._id": 1}}]`,
			want:     `[{"_id": 1, "d": [{"_id": 2}, {"_id": 4}]}]`},
		{name: "lookup let pipeline", docs: orders2, other: map[string]string{"warehouses": warehouses},
			pipeline: `[{"$lookup": {"from": "warehouses", "let": {"order_item": "$item", "order_qty": "$ordered"},
				"pipeline": [{"$match": {"$expr": {"$and": [{"$eq": ["$stock_item", "$$order_item"]}, {"$gte": ["$instock", "$$order_qty"]}]}}},
					{"$project": {"stock_item": 0, "_id": 0}}], "as": "stockdata"}}]`,
			want: `[
				{"_id": 1, "item": "almonds", "price": 12, "ordered": 2, "stockdata": [{"warehouse": "A", "instock": 120}, {"warehouse": "B", "instock": 60}]},
				{"_id": 2, "item": "pecans", "price": 20, "ordered": 1, "stockdata": [{"warehouse": "A", "instock": 80}]},
				{"_id": 3, "item": "cookies", "price": 10, "ordered": 60, "stockdata": [{"warehouse": "A", "instock": 80}]}]`},
		{name: "lookup concise correlated", docs: orders2, other: map[string]string{"warehouses": warehouses},
			pipeline: `[{"$lookup": {"from": "warehouses", "localField": "item", "foreignField": "stock_item", "let": {"q": "$ordered"},
				"pipeline": [{"$match": {"$expr": {"$gt": ["$instock", {"$multiply": ["$$q", 50]}]}}}, {"$project": {"warehouse": 1, "_id": 0}}], "as": "w"}},
				{"$project": {"w": 1}}]`,
			want: `[{"_id": 1, "w": [{"warehouse": "A"}]}, {"_id": 2, "w": [{"warehouse": "A"}]}, {"_id": 3, "w": []}]`},
		{name: "lookup without as", docs: orders, pipeline: `[{"$lookup": {"from": "inventory", "localField": "item", "foreignField": "sku"}}]`,
			code: mongoerr.FailedToParse},
		{name: "lookup let variable undefined in pipeline", docs: orders, other: map[string]string{"inventory": inventory},
			pipeline: `[{"$lookup": {"from": "inventory", "pipeline": [{"$match": {"$expr": {"$eq": ["$sku", "$$nope"]}}}], "as": "x"}}]`,
			code:     17276, msg: "Use of undefined variable: nope"},
	})
}

func TestAggGraphLookup(t *testing.T) {
	employees := `[
		{"_id": 1, "name": "Dev"},
		{"_id": 2, "name": "Eliot", "reportsTo": "Dev"},
		{"_id": 3, "name": "Ron", "reportsTo": "Eliot"},
		{"_id": 4, "name": "Andrew", "reportsTo": "Eliot"},
		{"_id": 5, "name": "Asya", "reportsTo": "Ron"},
		{"_id": 6, "name": "Dan", "reportsTo": "Andrew"}
	]`
	// The result array's order is unspecified in mongod: sort it by _id.
	sorted := `{"$set": {"h": {"$sortArray": {"input": "$h", "sortBy": {"_id": 1}}}}}`
	runAggCases(t, []aggCase{
		{name: "manual reportingHierarchy", docs: employees, pipeline: `[{"$match": {"_id": {"$in": [1, 6]}}},
			{"$graphLookup": {"from": "c", "startWith": "$reportsTo", "connectFromField": "reportsTo", "connectToField": "name", "as": "h"}}, ` + sorted + `]`,
			want: `[{"_id": 1, "name": "Dev", "h": []},
				{"_id": 6, "name": "Dan", "reportsTo": "Andrew", "h": [{"_id": 1, "name": "Dev"}, {"_id": 2, "name": "Eliot", "reportsTo": "Dev"}, {"_id": 4, "name": "Andrew", "reportsTo": "Eliot"}]}]`},
		{name: "maxDepth and depthField", docs: employees, pipeline: `[{"$match": {"_id": 6}},
			{"$graphLookup": {"from": "c", "startWith": "$reportsTo", "connectFromField": "reportsTo", "connectToField": "name", "as": "h", "maxDepth": 1, "depthField": "d"}},
			` + sorted + `, {"$project": {"h.reportsTo": 0, "reportsTo": 0}}]`,
			want: `[{"_id": 6, "name": "Dan", "h": [{"_id": 2, "name": "Eliot", "d": {"$numberLong": "1"}}, {"_id": 4, "name": "Andrew", "d": {"$numberLong": "0"}}]}]`},
		{name: "maxDepth zero", docs: employees, pipeline: `[{"$match": {"_id": 5}},
			{"$graphLookup": {"from": "c", "startWith": "$reportsTo", "connectFromField": "reportsTo", "connectToField": "name", "as": "h", "maxDepth": 0}}, {"$project": {"h.name": 1}}]`,
			want: `[{"_id": 5, "h": [{"name": "Ron"}]}]`},
		{name: "restrictSearchWithMatch", docs: employees, pipeline: `[{"$match": {"_id": 6}},
			{"$graphLookup": {"from": "c", "startWith": "$reportsTo", "connectFromField": "reportsTo", "connectToField": "name", "as": "h",
				"restrictSearchWithMatch": {"name": {"$ne": "Eliot"}}}}, {"$project": {"h.name": 1}}]`,
			want: `[{"_id": 6, "h": [{"name": "Andrew"}]}]`},
		{name: "startWith array expression", docs: employees, pipeline: `[{"$match": {"_id": 1}},
			{"$graphLookup": {"from": "c", "startWith": ["Asya", {"$concat": ["D", "an"]}], "connectFromField": "reportsTo", "connectToField": "name", "as": "h", "depthField": "d"}},
			` + sorted + `, {"$project": {"h._id": 1, "h.d": 1}}]`,
			want: `[{"_id": 1, "h": [{"_id": 1, "d": {"$numberLong": "3"}}, {"_id": 2, "d": {"$numberLong": "2"}}, {"_id": 3, "d": {"$numberLong": "1"}},
				{"_id": 4, "d": {"$numberLong": "1"}}, {"_id": 5, "d": {"$numberLong": "0"}}, {"_id": 6, "d": {"$numberLong": "0"}}]}]`},
		{name: "cycle terminates", docs: `[{"_id": "a", "next": "b"}, {"_id": "b", "next": "a"}]`, pipeline: `[{"$match": {"_id": "a"}},
			{"$graphLookup": {"from": "c", "startWith": "$next", "connectFromField": "next", "connectToField": "_id", "as": "h", "depthField": "d"}}, ` + sorted + `]`,
			want: `[{"_id": "a", "next": "b", "h": [{"_id": "a", "next": "b", "d": {"$numberLong": "1"}}, {"_id": "b", "next": "a", "d": {"$numberLong": "0"}}]}]`},
		{name: "missing connectFromField stops", docs: `[{"_id": 1, "to": 2}, {"_id": 2}, {"_id": 3, "to": 1}]`, pipeline: `[{"$match": {"_id": 3}},
			{"$graphLookup": {"from": "c", "startWith": "$to", "connectFromField": "to", "connectToField": "_id", "as": "h"}}, ` + sorted + `]`,
			want: `[{"_id": 3, "to": 1, "h": [{"_id": 1, "to": 2}, {"_id": 2}]}]`},
		{name: "array connectFromField fans out", docs: `[{"_id": 1, "kids": [2, 3]}, {"_id": 2, "kids": [4]}, {"_id": 3}, {"_id": 4}]`, pipeline: `[{"$match": {"_id": 1}},
			{"$graphLookup": {"from": "c", "startWith": "$kids", "connectFromField": "kids", "connectToField": "_id", "as": "h"}}, ` + sorted + `, {"$project": {"h": "$h._id"}}]`,
			want: `[{"_id": 1, "h": [2, 3, 4]}]`},
		{name: "missing connectToField", docs: employees, pipeline: `[{"$graphLookup": {"from": "c", "startWith": "$reportsTo", "connectFromField": "reportsTo", "as": "h"}}]`,
			code: 40105, msg: "$graphLookup requires 'from', 'as', 'startWith', 'connectFromField', and 'connectToField' to be specified."},
		{name: "negative maxDepth", docs: employees, pipeline: `[{"$graphLookup": {"from": "c", "startWith": "$reportsTo", "connectFromField": "reportsTo", "connectToField": "name", "as": "h", "maxDepth": -1}}]`,
			code: 40101, msg: "maxDepth requires a nonnegative argument, found: -1"},
	})
}

// TestAggGraphLookupUsesIndex checks that the recursive lookups are index
// scans when connectToField is indexed: the index's access counter moves.
func TestAggGraphLookupUsesIndex(t *testing.T) {
	db := startServer(t).Database("agg")
	coll := db.Collection("tree")
	insertEJ(t, coll, `[{"_id": 1, "name": "root"}, {"_id": 2, "name": "a", "parent": "root"}, {"_id": 3, "name": "b", "parent": "a"}]`)
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "name", Value: 1}}}); err != nil {
		t.Fatal(err)
	}
	ops := func() int64 {
		for _, d := range aggRun(t, coll, ejArray(t, `[{"$indexStats": {}}, {"$match": {"name": "name_1"}}]`)) {
			acc, _ := bson.Raw(aggMarshal(t, d)).Lookup("accesses", "ops").Int64OK()
			return acc
		}
		t.Fatal("no name_1 in $indexStats")
		return 0
	}
	before := ops()
	got := aggRun(t, coll, ejArray(t, `[{"$match": {"_id": 3}},
		{"$graphLookup": {"from": "tree", "startWith": "$parent", "connectFromField": "parent", "connectToField": "name", "as": "up", "depthField": "depth"}},
		{"$project": {"up": {"$sortArray": {"input": "$up.name", "sortBy": 1}}}}]`))
	assertDocs(t, got, ejDocs(t, `[{"_id": 3, "up": ["a", "root"]}]`))
	if after := ops(); after <= before {
		t.Fatalf("$graphLookup did not use the connectToField index: accesses.ops %d -> %d", before, after)
	}
}

func TestAggIndexAndCollStats(t *testing.T) {
	db := startServer(t).Database("agg")
	coll := db.Collection("c")
	insertEJ(t, coll, `[{"_id": 1, "a": 1}, {"_id": 2, "a": 2}, {"_id": 3, "a": 3}]`)
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "a", Value: -1}}}); err != nil {
		t.Fatal(err)
	}
	_ = findAll(t, coll, bson.D{{Key: "a", Value: 2}})
	stats := aggRun(t, coll, ejArray(t, `[{"$indexStats": {}}, {"$sort": {"name": 1}}, {"$project": {"name": 1, "key": 1, "ops": "$accesses.ops", "spec": 1}}]`))
	want := ejDocs(t, `[
		{"name": "_id_", "key": {"_id": 1}, "spec": {"v": 2, "key": {"_id": 1}, "name": "_id_"}, "ops": {"$numberLong": "0"}},
		{"name": "a_-1", "key": {"a": -1}, "spec": {"v": 2, "key": {"a": -1}, "name": "a_-1"}, "ops": {"$numberLong": "1"}}]`)
	assertDocs(t, stats, want)

	cs := aggRun(t, coll, ejArray(t, `[{"$collStats": {"count": {}, "storageStats": {}}}]`))
	if len(cs) != 1 {
		t.Fatalf("$collStats returned %v", cs)
	}
	doc := bson.Raw(aggMarshal(t, cs[0]))
	if ns := doc.Lookup("ns").StringValue(); ns != "agg.c" {
		t.Fatalf("ns %q", ns)
	}
	if n, ok := doc.Lookup("count").AsInt64OK(); !ok || n != 3 {
		t.Fatalf("count %v", doc.Lookup("count"))
	}
	ss := doc.Lookup("storageStats")
	for _, f := range []string{"size", "count", "avgObjSize", "storageSize", "freeStorageSize", "nindexes", "totalIndexSize", "totalSize", "indexSizes", "scaleFactor"} {
		if _, err := ss.Document().LookupErr(f); err != nil {
			t.Errorf("storageStats lacks %s: %v", f, ss)
		}
	}
	if n, _ := ss.Document().Lookup("nindexes").AsInt64OK(); n != 2 {
		t.Errorf("storageStats.nindexes %v", ss.Document().Lookup("nindexes"))
	}
	// $collStats must be the first stage.
	err := aggError(t, db, "c", ejArray(t, `[{"$match": {}}, {"$collStats": {"count": {}}}]`))
	if err.Code != 40602 || err.Message != "$collStats is only valid as the first stage in a pipeline" {
		t.Fatalf("error %d %q", err.Code, err.Message)
	}
}

func aggMarshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := bson.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestAggOutAndMerge(t *testing.T) {
	source := `[{"_id": 1, "a": 10}, {"_id": 3, "a": 30}]`
	target := `[{"_id": 1, "a": 1, "b": 1}, {"_id": 2, "a": 2}]`
	cases := []struct {
		name, stage, want string
		code              int32
		msg               string
	}{
		{name: "out replaces the target", stage: `{"$out": "t"}`, want: `[{"_id": 1, "a": 10}, {"_id": 3, "a": 30}]`},
		{name: "out db and coll", stage: `{"$out": {"db": "agg", "coll": "t"}}`, want: `[{"_id": 1, "a": 10}, {"_id": 3, "a": 30}]`},
		{name: "merge defaults", stage: `{"$merge": "t"}`, want: `[{"_id": 1, "a": 10, "b": 1}, {"_id": 2, "a": 2}, {"_id": 3, "a": 30}]`},
		{name: "merge replace discard", stage: `{"$merge": {"into": "t", "whenMatched": "replace", "whenNotMatched": "discard"}}`,
			want: `[{"_id": 1, "a": 10}, {"_id": 2, "a": 2}]`},
		{name: "merge keepExisting insert", stage: `{"$merge": {"into": {"db": "agg", "coll": "t"}, "on": "_id", "whenMatched": "keepExisting", "whenNotMatched": "insert"}}`,
			want: `[{"_id": 1, "a": 1, "b": 1}, {"_id": 2, "a": 2}, {"_id": 3, "a": 30}]`},
		{name: "merge pipeline with $$new", stage: `{"$merge": {"into": "t", "whenMatched": [{"$set": {"a": {"$add": ["$a", "$$new.a"]}, "seen": true}}], "whenNotMatched": "discard"}}`,
			want: `[{"_id": 1, "a": 11, "b": 1, "seen": true}, {"_id": 2, "a": 2}]`},
		{name: "merge pipeline with let", stage: `{"$merge": {"into": "t", "let": {"x": {"$multiply": ["$a", 2]}}, "whenMatched": [{"$set": {"x": "$$x"}}], "whenNotMatched": "insert"}}`,
			want: `[{"_id": 1, "a": 1, "b": 1, "x": 20}, {"_id": 2, "a": 2}, {"_id": 3, "a": 30}]`},
		{name: "merge whenMatched fail", stage: `{"$merge": {"into": "t", "whenMatched": "fail"}}`, code: mongoerr.DuplicateKey},
		{name: "merge whenNotMatched fail", stage: `{"$merge": {"into": "t", "whenMatched": "merge", "whenNotMatched": "fail"}}`,
			code: mongoerr.MergeStageNoMatchingDocument, msg: "PlanExecutor error during aggregation :: caused by :: $merge could not find a matching document in the target collection for at least one document in the source collection"},
		{name: "merge on without unique index", stage: `{"$merge": {"into": "t", "on": "a"}}`,
			code: 51183, msg: "Cannot find index to verify that join fields will be unique"},
		{name: "out not last", stage: `{"$out": "t"}, {"$match": {}}`, code: 40601, msg: "$out can only be the final stage in the pipeline"},
	}
	client := startServer(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := client.Database("agg")
			if err := db.Drop(ctx); err != nil {
				t.Fatal(err)
			}
			insertEJ(t, db.Collection("s"), source)
			insertEJ(t, db.Collection("t"), target)
			pipeline := ejArray(t, `[{"$sort": {"_id": 1}}, `+tc.stage+`]`)
			if tc.code != 0 {
				err := aggError(t, db, "s", pipeline)
				if err.Code != tc.code || (tc.msg != "" && err.Message != tc.msg) {
					t.Fatalf("error\n got: %d %q\nwant: %d %q", err.Code, err.Message, tc.code, tc.msg)
				}
				return
			}
			if got := aggRun(t, db.Collection("s"), pipeline); len(got) != 0 {
				t.Fatalf("$out/$merge returned documents: %v", got)
			}
			got := findAll(t, db.Collection("t"), bson.D{}, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
			assertDocs(t, got, ejDocs(t, tc.want))
		})
	}
}

// Stages name their paths through mongod's FieldPath, which refuses a
// trailing dot before it looks at the path's parts.
func TestStagePathsEndingInADot(t *testing.T) {
	db, _ := confColl(t, `{"_id": 1, "a": [1, 2]}`)
	for _, stage := range []string{`{"$unwind": "$a."}`, `{"$lookup": {"from": "c", "localField": "_id", "foreignField": "_id", "as": "x."}}`} {
		wantErr(t, db, `{"aggregate": "c", "pipeline": [`+stage+`], "cursor": {}}`, 40353, "FieldPath must not end with a '.'.")
	}
}
