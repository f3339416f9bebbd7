package compat_test

import "testing"

const nearZero = "jstests/aggregation/sources/bucketauto/granularity_near_zero.js"

func TestBucketAuto(t *testing.T) {
	artwork := `[
		{"_id": 1, "title": "The Pillars of Society", "year": 1926, "price": {"$numberDecimal": "199.99"}},
		{"_id": 2, "title": "Melancholy III", "year": 1902, "price": {"$numberDecimal": "280.00"}},
		{"_id": 3, "title": "Dancer", "year": 1925, "price": {"$numberDecimal": "76.04"}},
		{"_id": 4, "title": "The Great Wave off Kanagawa", "price": {"$numberDecimal": "167.30"}},
		{"_id": 5, "title": "The Persistence of Memory", "year": 1931, "price": {"$numberDecimal": "483.00"}},
		{"_id": 6, "title": "Composition VII", "year": 1913, "price": {"$numberDecimal": "385.00"}},
		{"_id": 7, "title": "The Scream", "year": 1893, "price": {"$numberDecimal": "159.00"}},
		{"_id": 9, "title": "Untitled"},
		{"_id": 8, "title": "Blue Flower", "year": 1918, "price": {"$numberDecimal": "118.42"}}]`
	runAggCases(t, []aggCase{
		{name: "item14 a denormal with R80 ends", ref: nearZero,
			docs: `[{"_id": 0}]`,
			pipeline: `[{"$bucketAuto": {"groupBy": {"$reduce": {"input": [], "initialValue": 4.940656484124654e-324, "in": {"$size": ["$$value"]}}},
				"buckets": {"$numberLong": "8"}, "granularity": "R80"}}]`,
			want: `[{"_id": {"min": 0.0, "max": 1.02e-321}, "count": 1}]`},
		{name: "item14 the issue's stored denormal", ref: nearZero,
			docs:     `[{"_id": 0, "v": 4.94e-324}]`,
			pipeline: `[{"$bucketAuto": {"groupBy": "$v", "buckets": 8, "granularity": "R80"}}]`,
			want:     `[{"_id": {"min": 0.0, "max": 1.02e-321}, "count": 1}]`},
		{name: "infinity is refused, not looped on", ref: "jstests/aggregation/sources/bucketauto/bucket_auto_pow2_inf.js",
			docs:     `[{"_id": 0}]`,
			pipeline: `[{"$bucketAuto": {"groupBy": {"$add": [1e308, 1e308]}, "buckets": 2, "granularity": "POWERSOF2", "output": {"count": {"$sum": 1}}}}]`,
			code:     11785400},
		{name: "NaN with a granularity", ref: "src/mongo/db/pipeline/document_source_bucket_auto.cpp extractKey (40259)",
			docs:     `[{"_id": 0, "v": {"$numberDouble": "NaN"}}]`,
			pipeline: `[{"$bucketAuto": {"groupBy": "$v", "buckets": 2, "granularity": "R5"}}]`,
			code:     40259, msg: planExecutor + "$bucketAuto can specify a 'granularity' with numeric boundaries only, but found a NaN"},
		{name: "negative with a granularity", ref: "src/mongo/db/pipeline/document_source_bucket_auto.cpp extractKey (40260)",
			docs:     `[{"_id": 0, "v": -1}]`,
			pipeline: `[{"$bucketAuto": {"groupBy": "$v", "buckets": 2, "granularity": "R5"}}]`,
			code:     40260, msg: planExecutor + "$bucketAuto can specify a 'granularity' with non-negative numbers only, but found a negative number"},
		// The documents arrive by _id while n falls: $bucketAuto sorts them
		// by n to cut the buckets, yet $first, $last, $firstN, $lastN and
		// $push see each bucket's documents in input order.
		{name: "push and first/last keep input order", ref: "SERVER-85337, SERVER-90597; jstests/aggregation/accumulators/bucketAuto_push.js",
			docs: `[{"_id": 0, "n": 5}, {"_id": 1, "n": 4}, {"_id": 2, "n": 3}, {"_id": 3, "n": 2}, {"_id": 4, "n": 1}, {"_id": 5, "n": 0}]`,
			pipeline: `[{"$sort": {"_id": 1}}, {"$bucketAuto": {"groupBy": "$n", "buckets": 2, "output": {
				"ids": {"$push": "$_id"}, "f": {"$first": "$_id"}, "l": {"$last": "$_id"},
				"fn": {"$firstN": {"input": "$_id", "n": 2}}, "ln": {"$lastN": {"input": "$_id", "n": 2}}, "lo": {"$min": "$_id"}}}}]`,
			want: `[{"_id": {"min": 0, "max": 3}, "ids": [3, 4, 5], "f": 3, "l": 5, "fn": [3, 4], "ln": [4, 5], "lo": 3},
				{"_id": {"min": 3, "max": 5}, "ids": [0, 1, 2], "f": 0, "l": 2, "fn": [0, 1], "ln": [1, 2], "lo": 0}]`},
		{name: "push in input order with one bucket and equal keys", ref: "jstests/aggregation/accumulators/bucketAuto_push.js",
			docs:     `[{"_id": 0, "n": 1}, {"_id": 1, "n": 0}, {"_id": 2, "n": 1}, {"_id": 3, "n": 0}]`,
			pipeline: `[{"$sort": {"_id": -1}}, {"$bucketAuto": {"groupBy": "$n", "buckets": 1, "output": {"ids": {"$push": "$_id"}}}}]`,
			want:     `[{"_id": {"min": 0, "max": 1}, "ids": [3, 2, 1, 0]}]`},
		{name: "four buckets of prices", ref: "manual: reference/operator/aggregation/bucketAuto (Single Facet Aggregation)",
			docs:     artwork,
			pipeline: `[{"$match": {"price": {"$exists": true}}}, {"$bucketAuto": {"groupBy": "$price", "buckets": 4}}]`,
			want: `[{"_id": {"min": {"$numberDecimal": "76.04"}, "max": {"$numberDecimal": "159.00"}}, "count": 2},
				{"_id": {"min": {"$numberDecimal": "159.00"}, "max": {"$numberDecimal": "199.99"}}, "count": 2},
				{"_id": {"min": {"$numberDecimal": "199.99"}, "max": {"$numberDecimal": "385.00"}}, "count": 2},
				{"_id": {"min": {"$numberDecimal": "385.00"}, "max": {"$numberDecimal": "483.00"}}, "count": 2}]`},
		{name: "zero buckets", ref: "src/mongo/db/pipeline/document_source_bucket_auto.cpp (40243)",
			docs: artwork, pipeline: `[{"$bucketAuto": {"groupBy": "$price", "buckets": 0}}]`,
			code: 40243, msg: "The $bucketAuto 'buckets' field must be greater than 0, but found: 0"},
	})
}
