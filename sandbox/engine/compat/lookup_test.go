package compat_test

import "testing"

const equijoinLib = "jstests/aggregation/sources/lookup/lookup_equijoin_semantics_lib.js"

// matchedIDs ends a $lookup pipeline with the _id of each local document
// that matched anything, as lookup_equijoin_semantics_lib.js compares them.
const matchedIDs = `{"$match": {"matched": {"$ne": []}}}, {"$project": {"_id": 1}}, {"$sort": {"_id": 1}}`

func TestLookup(t *testing.T) {
	numeric := `[
		{"_id": 0, "a": [{"x": 1}, {"x": 2}]}, {"_id": 1, "a": [{"x": [2, 3, 1]}]}, {"_id": 2, "a": [{"x": 1}, {"y": 1}]},
		{"_id": 10, "a": [{"x": 2}, {"x": 1}]}, {"_id": 11, "a": [{"x": [2, 3]}]}, {"_id": 12, "a": {"x": 1}},
		{"_id": 13, "a": {"x": [1, 2]}}, {"_id": 14, "a": [{"y": 1}, {"x": 1}]}]`
	numericNull := `[
		{"_id": 0, "a": {"x": 1}}, {"_id": 1, "a": {"x": [1, 2]}}, {"_id": 2, "a": [{"y": 1}, {"x": 1}]},
		{"_id": 3, "a": [{"x": null}, {"x": 1}]}, {"_id": 4, "a": [{"x": [1, null]}, {"x": 1}]}, {"_id": 5, "a": [1, 2]},
		{"_id": 10, "a": [{"x": 1}, {"y": 1}]}, {"_id": 11, "a": [{"x": [1, 2]}]}]`
	nullMissing := `[
		{"_id": 0, "no_a": 1}, {"_id": 1, "a": null}, {"_id": 2, "a": [null, 1]}, {"_id": 10, "a": []},
		{"_id": 20, "a": 1}, {"_id": 21, "a": {"x": null}}, {"_id": 22, "a": [[null, 1], 2]}, {"_id": 23, "a": false},
		{"_id": 24, "a": 0}, {"_id": 25, "a": {}}, {"_id": 26, "a": ""}]`
	runAggCases(t, []aggCase{
		// DocumentSourceLookUp::resolveLetVariables sets each variable
		// to the Value its expression gives, missing included, so $eq
		// with $$a finds the documents that lack a or hold undefined
		// (jstest core/query/type/null_undefined.js).
		{name: "a let variable of a missing field stays missing", ref: "src/mongo/db/pipeline/document_source_lookup.cpp resolveLetVariables; jstests/core/query/type/null_undefined.js",
			docs: `[{"_id": 0, "a": 1}, {"_id": 1, "b": 1}, {"_id": 2, "a": null}, {"_id": 3, "a": {"$undefined": true}}]`,
			pipeline: `[{"$lookup": {"from": "c", "as": "res", "let": {"la": "$a"}, "pipeline": [{"$match": {"$expr": {"$eq": ["$$la", "$a"]}}}, {"$project": {"_id": 1}}]}},
				{"$project": {"res": 1, "t": {"$type": "$a"}}}, {"$sort": {"_id": 1}}]`,
			want: `[{"_id": 0, "res": [{"_id": 0}], "t": "int"}, {"_id": 1, "res": [{"_id": 1}, {"_id": 3}], "t": "missing"}, {"_id": 2, "res": [{"_id": 2}], "t": "null"},
				{"_id": 3, "res": [{"_id": 1}, {"_id": 3}], "t": "undefined"}]`},
		{name: "localField join over a $documents sub-pipeline", ref: "src/mongo/db/pipeline/document_source_lookup.cpp resolvedPipelineHelper",
			docs:     `[{"_id": 1, "a": 1}, {"_id": 2, "a": 5}]`,
			pipeline: `[{"$lookup": {"localField": "a", "foreignField": "b", "as": "j", "pipeline": [{"$documents": [{"b": 1}, {"b": 2}]}]}}, {"$sort": {"_id": 1}}]`,
			want:     `[{"_id": 1, "a": 1, "j": [{"b": 1}]}, {"_id": 2, "a": 5, "j": []}]`},
		{name: "item3 numeric path component in localField", ref: equijoinLib + " testMatchingPathWithNumericComponentToScalar",
			docs: numeric, other: map[string]string{"f": `[{"_id": 0, "b": 1}]`},
			pipeline: `[{"$lookup": {"from": "f", "localField": "a.0.x", "foreignField": "b", "as": "matched"}}, ` + matchedIDs + `]`,
			want:     `[{"_id": 0}, {"_id": 1}, {"_id": 2}]`},
		{name: "item3 the issue's case", ref: equijoinLib + " testMatchingPathWithNumericComponentToScalar",
			docs: `[{"_id": 1, "a": [{"x": 1}, {"x": 2}]}]`, other: map[string]string{"f": `[{"_id": 1, "x": 1}, {"_id": 2, "x": 2}]`},
			pipeline: `[{"$lookup": {"from": "f", "localField": "a.0.x", "foreignField": "x", "as": "m"}}]`,
			want:     `[{"_id": 1, "a": [{"x": 1}, {"x": 2}], "m": [{"_id": 1, "x": 1}]}]`},
		{name: "numeric path component reaching nothing matches null", ref: equijoinLib + " testMatchingPathWithNumericComponentToNull",
			docs: numericNull, other: map[string]string{"f": `[{"_id": 0, "b": null}]`},
			pipeline: `[{"$lookup": {"from": "f", "localField": "a.0.x", "foreignField": "b", "as": "matched"}}, ` + matchedIDs + `]`,
			want:     `[{"_id": 0}, {"_id": 1}, {"_id": 2}, {"_id": 3}, {"_id": 4}, {"_id": 5}]`},
		{name: "null in foreign, top-level field in local", ref: equijoinLib + " testMatchingNullAndMissing",
			docs: nullMissing, other: map[string]string{"f": `[{"_id": 0, "b": null}]`},
			pipeline: `[{"$lookup": {"from": "f", "localField": "a", "foreignField": "b", "as": "matched"}}, ` + matchedIDs + `]`,
			want:     `[{"_id": 0}, {"_id": 1}, {"_id": 2}, {"_id": 10}]`},
		{name: "missing in foreign, top-level field in local", ref: equijoinLib + " testMatchingNullAndMissing",
			docs: nullMissing, other: map[string]string{"f": `[{"_id": 0, "no_b": 1}]`},
			pipeline: `[{"$lookup": {"from": "f", "localField": "a", "foreignField": "b", "as": "matched"}}, ` + matchedIDs + `]`,
			want:     `[{"_id": 0}, {"_id": 1}, {"_id": 2}, {"_id": 10}]`},
		{name: "null in local, top-level field in foreign", ref: equijoinLib + " testMatchingNullAndMissing",
			docs: `[{"_id": 0, "b": null}]`, other: map[string]string{"f": nullMissing},
			pipeline: `[{"$lookup": {"from": "f", "localField": "b", "foreignField": "a", "as": "matched"}},
				{"$project": {"ids": "$matched._id"}}]`,
			want: `[{"_id": 0, "ids": [0, 1, 2]}]`},
		{name: "NaN matches NaN of any type", ref: equijoinLib + " testMatchingNaN",
			docs: `[{"_id": 0, "a": {"$numberDouble": "NaN"}}, {"_id": 1, "a": {"$numberDecimal": "NaN"}}, {"_id": 2, "a": [1, {"$numberDouble": "NaN"}]},
				{"_id": 3, "a": [1, {"$numberDecimal": "NaN"}]}, {"_id": 10, "a": null}, {"_id": 11, "no_a": 42}]`,
			other:    map[string]string{"f": `[{"_id": 0, "b": {"$numberDouble": "NaN"}}]`},
			pipeline: `[{"$lookup": {"from": "f", "localField": "a", "foreignField": "b", "as": "matched"}}, ` + matchedIDs + `]`,
			want:     `[{"_id": 0}, {"_id": 1}, {"_id": 2}, {"_id": 3}]`},
		{name: "non-existent foreign collection gives empty arrays", ref: equijoinLib + " testNonExistentForeignCollection",
			docs:     `[{"_id": 1, "a": 1}]`,
			pipeline: `[{"$lookup": {"from": "nothere", "localField": "a", "foreignField": "b", "as": "matched"}}]`,
			want:     `[{"_id": 1, "a": 1, "matched": []}]`},
		{name: "pipeline with let", ref: "manual: reference/operator/aggregation/lookup (Join Conditions and Subqueries)",
			docs: `[{"_id": 1, "item": "almonds", "ordered": 2}, {"_id": 2, "item": "pecans", "ordered": 1}]`,
			other: map[string]string{"warehouses": `[{"_id": 1, "stock_item": "almonds", "instock": 120},
				{"_id": 2, "stock_item": "pecans", "instock": 80}, {"_id": 3, "stock_item": "almonds", "instock": 1}]`},
			pipeline: `[{"$lookup": {"from": "warehouses", "let": {"order_item": "$item", "order_qty": "$ordered"},
				"pipeline": [{"$match": {"$expr": {"$and": [{"$eq": ["$stock_item", "$$order_item"]}, {"$gte": ["$instock", "$$order_qty"]}]}}},
					{"$project": {"stock_item": 0, "_id": 0}}], "as": "stockdata"}}]`,
			want: `[{"_id": 1, "item": "almonds", "ordered": 2, "stockdata": [{"instock": 120}]},
				{"_id": 2, "item": "pecans", "ordered": 1, "stockdata": [{"instock": 80}]}]`},
	})
}

const graphLookupMissing = "jstests/aggregation/sources/graphLookup/missing_fields.js"

// sortedArr sorts the "arr" results, whose order mongod leaves unspecified
// (the jstests compare them with arrayEq).
const sortedArr = `{"$set": {"arr": {"$sortArray": {"input": "$arr", "sortBy": {"_id": 1}}}}}`

func TestGraphLookup(t *testing.T) {
	xy := `[{"_id": 0, "x": 1, "y": 1}, {"_id": 1, "x": 1, "y": null}, {"_id": 2, "x": 1, "y": 1}, {"_id": 3, "x": 1}]`
	runAggCases(t, []aggCase{
		{name: "item1 sees the enclosing $lookup's let", ref: "jstests/aggregation/sources/graphLookup/variables.js",
			docs:  `[{"_id": 5}]`,
			other: map[string]string{"g": `[{"from": "b", "to": "a", "_id": 0}]`},
			pipeline: `[{"$lookup": {"from": "c", "let": {"var1": "a"}, "as": "resultsFromLookup", "pipeline": [
				{"$graphLookup": {"from": "g", "startWith": "$$var1", "connectFromField": "from", "connectToField": "to", "as": "resultsFromGraphLookup"}}]}}]`,
			want: `[{"_id": 5, "resultsFromLookup": [{"_id": 5, "resultsFromGraphLookup": [{"_id": 0, "from": "b", "to": "a"}]}]}]`},
		{name: "item1 restrictSearchWithMatch reads the $lookup's let", ref: "jstests/aggregation/sources/graphLookup/variables.js; manual: reference/operator/aggregation/graphLookup (restrictSearchWithMatch)",
			docs: `[{"_id": 5}]`,
			other: map[string]string{"g": `[{"_id": 0, "from": "b", "to": "a", "f": 1}, {"_id": 1, "from": "c", "to": "b", "f": 2},
				{"_id": 2, "from": "x", "to": "b", "f": 1}]`},
			pipeline: `[{"$lookup": {"from": "c", "let": {"foo": 1}, "as": "out", "pipeline": [
				{"$graphLookup": {"from": "g", "startWith": "a", "connectFromField": "from", "connectToField": "to", "as": "r",
					"restrictSearchWithMatch": {"$expr": {"$eq": ["$f", "$$foo"]}}}},
				{"$project": {"_id": 0, "ids": {"$sortArray": {"input": "$r._id", "sortBy": 1}}}}]}}]`,
			want: `[{"_id": 5, "out": [{"ids": [0, 2]}]}]`},
		{name: "restrictSearchWithMatch reads the command's let", ref: "manual: reference/command/aggregate (let)",
			docs:  `[{"_id": 5, "s": "a"}]`,
			other: map[string]string{"g": `[{"_id": 0, "from": "b", "to": "a", "f": 1}, {"_id": 1, "from": "c", "to": "a", "f": 2}]`},
			pipeline: `[{"$graphLookup": {"from": "g", "startWith": "$s", "connectFromField": "from", "connectToField": "to", "as": "r",
				"restrictSearchWithMatch": {"$expr": {"$eq": ["$f", "$$want"]}}}}, {"$project": {"ids": "$r._id"}}]`,
			let:  `{"want": 2}`,
			want: `[{"_id": 5, "ids": [1]}]`},
		{name: "startWith a field path", ref: graphLookupMissing,
			docs: xy,
			pipeline: `[{"$graphLookup": {"from": "c", "startWith": "$y", "connectFromField": "x", "connectToField": "y", "as": "arr", "maxDepth": 0}}, ` +
				sortedArr + `, {"$sort": {"_id": 1}}]`,
			want: `[{"_id": 0, "x": 1, "y": 1, "arr": [{"_id": 0, "x": 1, "y": 1}, {"_id": 2, "x": 1, "y": 1}]},
				{"_id": 1, "x": 1, "y": null, "arr": [{"_id": 1, "x": 1, "y": null}]},
				{"_id": 2, "x": 1, "y": 1, "arr": [{"_id": 0, "x": 1, "y": 1}, {"_id": 2, "x": 1, "y": 1}]},
				{"_id": 3, "x": 1, "arr": []}]`},
		{name: "item2 startWith null matches only a null connectToField", ref: graphLookupMissing,
			docs: `[{"_id": 0, "x": 1, "y": 1}, {"_id": 1, "x": 1, "y": null}, {"_id": 2, "x": 1, "y": 1}, {"_id": 3, "x": 1}, {"_id": 4, "x": 1, "y": {"$undefined": true}}]`,
			pipeline: `[{"$graphLookup": {"from": "c", "startWith": null, "connectFromField": "x", "connectToField": "y", "as": "arr", "maxDepth": 0}},
				{"$project": {"arr": 1}}, {"$sort": {"_id": 1}}]`,
			want: `[{"_id": 0, "arr": [{"_id": 1, "x": 1, "y": null}]}, {"_id": 1, "arr": [{"_id": 1, "x": 1, "y": null}]},
				{"_id": 2, "arr": [{"_id": 1, "x": 1, "y": null}]}, {"_id": 3, "arr": [{"_id": 1, "x": 1, "y": null}]},
				{"_id": 4, "arr": [{"_id": 1, "x": 1, "y": null}]}]`},
		{name: "missing does not match missing", ref: graphLookupMissing,
			docs:     `[{"_id": 0, "x": 1}, {"_id": 1, "x": 2}, {"_id": 3, "x": 1}]`,
			pipeline: `[{"$graphLookup": {"from": "c", "startWith": "$y", "connectFromField": "x", "connectToField": "y", "as": "arr", "maxDepth": 0}}, {"$sort": {"_id": 1}}]`,
			want:     `[{"_id": 0, "x": 1, "arr": []}, {"_id": 1, "x": 2, "arr": []}, {"_id": 3, "x": 1, "arr": []}]`},
		{name: "a null connectFromField follows nulls", ref: graphLookupMissing,
			docs: `[{"_id": 0, "y": 1, "x": null}, {"_id": 1, "y": null}, {"_id": 2}]`,
			pipeline: `[{"$match": {"_id": 0}}, {"$graphLookup": {"from": "c", "startWith": "$y", "connectFromField": "x", "connectToField": "y", "as": "arr"}},
				{"$project": {"ids": {"$sortArray": {"input": "$arr._id", "sortBy": 1}}}}]`,
			want: `[{"_id": 0, "ids": [0, 1]}]`},
		{name: "cycles and depthField", ref: "jstests/aggregation/sources/graphLookup/basic.js",
			docs: `[{"_id": 0, "n": [2, 1]}, {"_id": 1, "n": [0, 2]}, {"_id": 2, "n": [1, 0]}]`,
			pipeline: `[{"$match": {"_id": 0}}, {"$graphLookup": {"from": "c", "startWith": "$_id", "connectFromField": "n", "connectToField": "_id", "as": "r", "depthField": "d"}},
				{"$project": {"r": {"$sortArray": {"input": "$r", "sortBy": {"_id": 1}}}}}, {"$project": {"r._id": 1, "r.d": 1}}]`,
			want: `[{"_id": 0, "r": [{"_id": 0, "d": {"$numberLong": "0"}}, {"_id": 1, "d": {"$numberLong": "1"}}, {"_id": 2, "d": {"$numberLong": "1"}}]}]`},
		{name: "maxDepth must be non-negative", ref: "jstests/aggregation/sources/graphLookup/error.js",
			docs:     `[{"_id": 0}]`,
			pipeline: `[{"$graphLookup": {"from": "c", "startWith": 1, "connectFromField": "x", "connectToField": "y", "as": "r", "maxDepth": -1}}]`,
			code:     40101, msg: "maxDepth requires a nonnegative argument, found: -1"},
		{name: "unknown argument", ref: "jstests/aggregation/sources/graphLookup/error.js",
			docs:     `[{"_id": 0}]`,
			pipeline: `[{"$graphLookup": {"from": "c", "startWith": 1, "connectFromField": "x", "connectToField": "y", "as": "r", "foo": 1}}]`,
			code:     40104, msg: "Unknown argument to $graphLookup: foo"},
		// LiteParsed::parse resolves 'from' first
		// (parseGraphLookupFromAndResolveNamespace).
		{name: "from not a string", ref: graphLookupSrc + "; jstests/aggregation/sources/graphLookup/error.js",
			docs:     `[{"_id": 0}]`,
			pipeline: `[{"$graphLookup": {"from": -1, "startWith": 1, "connectFromField": "x", "connectToField": "y", "as": "r"}}]`,
			code:     9, msg: "$graphLookup 'from' field must be a string, but found int"},
		{name: "from empty", ref: graphLookupSrc + "; jstests/aggregation/sources/graphLookup/error.js",
			docs:     `[{"_id": 0}]`,
			pipeline: `[{"$graphLookup": {"from": "", "startWith": 1, "connectFromField": "x", "connectToField": "y", "as": "r"}}]`,
			code:     73},
		{name: "from missing", ref: graphLookupSrc + " LiteParsed::parse; jstests/aggregation/sources/graphLookup/error.js",
			docs:     `[{"_id": 0}]`,
			pipeline: `[{"$graphLookup": {"startWith": 1, "connectFromField": "x", "connectToField": "y", "as": "r"}}]`,
			code:     9},
	})
}

const graphLookupSrc = "src/mongo/db/pipeline/document_source_graph_lookup.cpp"
