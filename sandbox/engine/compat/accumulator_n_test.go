package compat_test

import "testing"

const (
	accMultiSrc = "src/mongo/db/pipeline/accumulator_multi.cpp"
	minMaxNJS   = "jstests/aggregation/accumulators/min_n_max_n.js"
	firstLastJS = "jstests/aggregation/accumulators/first_n_last_n.js"
	topBottomJS = "jstests/aggregation/accumulators/top_bottom_top_n_bottom_n.js"
)

func TestAccumulatorsN(t *testing.T) {
	a := func(op string) cover { return cover{family: accumulator, op: op} }
	at := func(op string) cover { return cover{family: accumulator, op: op, col: types} }
	mixed := `[{"_id": 1, "v": 3}, {"_id": 2, "v": null}, {"_id": 3}, {"_id": 4, "v": "s"}, {"_id": 5, "v": 1.5}, {"_id": 6, "v": {"$numberLong": "2"}}, {"_id": 7, "v": [0]}]`
	ties := `[{"_id": 1, "v": 1}, {"_id": 2, "v": 1.0}, {"_id": 3, "v": {"$numberLong": "1"}}, {"_id": 4, "v": 0}]`
	group := func(acc string) string {
		return `[{"$sort": {"_id": 1}}, {"$group": {"_id": null, "r": ` + acc + `}}, {"$project": {"_id": 0}}]`
	}
	scores := `[{"_id": 1, "g": "G1", "s": 1}, {"_id": 2, "g": "G1", "s": 2}, {"_id": 3, "g": "G1", "s": 3},
		{"_id": 4, "g": "G2", "s": 10}, {"_id": 5, "g": "G2", "s": 20}]`
	runAggCases(t, []aggCase{
		// $minN / $maxN: null and missing ignored, BSON order across types.
		{name: "minN skips null and missing, orders across types", ref: minMaxNJS, cov: a("$minN"), docs: mixed,
			pipeline: group(`{"$minN": {"input": "$v", "n": 3}}`), want: `[{"r": [1.5, {"$numberLong": "2"}, 3]}]`},
		{name: "maxN answers in descending order", ref: minMaxNJS, cov: a("$maxN"), docs: mixed,
			pipeline: group(`{"$maxN": {"input": "$v", "n": 3}}`), want: `[{"r": [[0], "s", 3]}]`},
		{name: "minN keeps equal values in the order they came", ref: accMultiSrc, cov: at("$minN"), docs: ties,
			pipeline: group(`{"$minN": {"input": "$v", "n": 3}}`), want: `[{"r": [0, 1, 1.0]}]`},
		{name: "maxN lists equal values latest first", ref: accMultiSrc, cov: at("$maxN"), docs: ties,
			pipeline: group(`{"$maxN": {"input": "$v", "n": 3}}`), want: `[{"r": [{"$numberLong": "1"}, 1.0, 1]}]`},
		{name: "maxN of only nulls is empty", ref: accMultiSrc, cov: a("$maxN"), docs: `[{"v": null}, {}]`,
			pipeline: group(`{"$maxN": {"input": "$v", "n": 2}}`), want: `[{"r": []}]`},
		{name: "n from the group key", ref: firstLastJS, cov: a("$maxN"), docs: scores,
			pipeline: `[{"$group": {"_id": {"g": "$g"}, "r": {"$maxN": {"input": "$s", "n": {"$cond": [{"$eq": ["$g", "G2"]}, 1, 2]}}}}}, {"$sort": {"_id": 1}}]`,
			want:     `[{"_id": {"g": "G1"}, "r": [3, 2]}, {"_id": {"g": "G2"}, "r": [20]}]`},
		{name: "n sees the group key, not the documents", ref: firstLastJS, cov: a("$firstN"), docs: scores,
			pipeline: `[{"$group": {"_id": "$g", "r": {"$firstN": {"input": "$s", "n": "$s"}}}}]`,
			code:     5787902, msg: planExecutor + "Value for 'n' must be of integral type, but found MISSING"},
		{name: "minN spec must be an object", ref: accMultiSrc, cov: a("$minN"),
			pipeline: group(`{"$minN": 5}`), code: 5787900, msg: "specification must be an object; found $minN: 5"},
		{name: "firstN spec must be an object", ref: accMultiSrc, cov: a("$firstN"),
			pipeline: group(`{"$firstN": true}`), code: 5787801, msg: "specification must be an object; found $firstN: true"},
		{name: "an unknown argument", ref: accMultiSrc, cov: a("$minN"),
			pipeline: group(`{"$minN": {"input": "$v", "n": 1, "x": 1}}`), code: 5787901, msg: "Unknown argument for 'n' operator: x"},
		{name: "n is required", ref: accMultiSrc, cov: a("$maxN"),
			pipeline: group(`{"$maxN": {"input": "$v"}}`), code: 5787906, msg: "Missing value for 'n'"},
		{name: "input is required", ref: accMultiSrc, cov: a("$lastN"),
			pipeline: group(`{"$lastN": {"n": 2}}`), code: 5787907, msg: "Missing value for 'input'"},
		{name: "n must be a number", ref: accMultiSrc, cov: a("$minN"), docs: ties,
			pipeline: group(`{"$minN": {"input": "$v", "n": "2"}}`), code: 5787902, msg: planExecutor + `Value for 'n' must be of integral type, but found "2"`},
		{name: "n must be integral", ref: accMultiSrc, cov: a("$minN"), docs: ties,
			pipeline: group(`{"$minN": {"input": "$v", "n": 1.5}}`), code: 5787903, msg: planExecutor + "Value for 'n' must be of integral type, but found 1.5"},
		{name: "n must be positive", ref: accMultiSrc, cov: a("$minN"), docs: ties,
			pipeline: group(`{"$minN": {"input": "$v", "n": 0}}`), code: 5787908, msg: planExecutor + "'n' must be greater than 0, found 0"},
		{name: "n as a whole double and a decimal", ref: accMultiSrc, cov: at("$firstN"), docs: ties,
			pipeline: group(`{"$firstN": {"input": "$v", "n": {"$numberDecimal": "2"}}}`), want: `[{"r": [1, 1.0]}]`},

		// $firstN / $lastN: missing counts, as null.
		{name: "firstN keeps missing as null", ref: firstLastJS, cov: a("$firstN"), docs: mixed,
			pipeline: group(`{"$firstN": {"input": "$v", "n": 3}}`), want: `[{"r": [3, null, null]}]`},
		{name: "lastN keeps the last n in order", ref: firstLastJS, cov: a("$lastN"), docs: mixed,
			pipeline: group(`{"$lastN": {"input": "$v", "n": 2}}`), want: `[{"r": [{"$numberLong": "2"}, [0]]}]`},
		{name: "firstN with n larger than the group", ref: firstLastJS, cov: a("$firstN"), docs: ties,
			pipeline: group(`{"$firstN": {"input": "$v", "n": 10}}`), want: `[{"r": [1, 1.0, {"$numberLong": "1"}, 0]}]`},

		// $top / $bottom / $topN / $bottomN: ties keep the first seen; ascending output.
		{name: "topN by a descending sort", ref: topBottomJS, cov: a("$topN"), docs: scores,
			pipeline: `[{"$group": {"_id": "$g", "r": {"$topN": {"n": 2, "output": "$s", "sortBy": {"s": -1}}}}}, {"$sort": {"_id": 1}}]`,
			want:     `[{"_id": "G1", "r": [3, 2]}, {"_id": "G2", "r": [20, 10]}]`},
		{name: "bottomN answers in sort order", ref: topBottomJS, cov: a("$bottomN"), docs: scores,
			pipeline: `[{"$group": {"_id": "$g", "r": {"$bottomN": {"n": 2, "output": "$s", "sortBy": {"s": -1}}}}}, {"$sort": {"_id": 1}}]`,
			want:     `[{"_id": "G1", "r": [2, 1]}, {"_id": "G2", "r": [20, 10]}]`},
		{name: "bottomN keeps tied values in the order they came", ref: accMultiSrc, cov: a("$bottomN"),
			docs:     `[{"_id": 1, "k": 1}, {"_id": 2, "k": 1}, {"_id": 3, "k": 1}]`,
			pipeline: group(`{"$bottomN": {"n": 2, "output": "$_id", "sortBy": {"k": 1}}}`), want: `[{"r": [1, 2]}]`},
		{name: "top keeps the first of tied values", ref: accMultiSrc, cov: a("$top"),
			docs:     `[{"_id": 1, "k": 1}, {"_id": 2, "k": 1}]`,
			pipeline: group(`{"$top": {"output": "$_id", "sortBy": {"k": 1}}}`), want: `[{"r": 1}]`},
		{name: "bottom keeps the first of tied values too", ref: accMultiSrc, cov: a("$bottom"),
			docs:     `[{"_id": 1, "k": 1}, {"_id": 2, "k": 1}]`,
			pipeline: group(`{"$bottom": {"output": "$_id", "sortBy": {"k": 1}}}`), want: `[{"r": 1}]`},
		{name: "a missing output is null", ref: accMultiSrc, cov: a("$topN"), docs: `[{"_id": 1, "k": 1}]`,
			pipeline: group(`{"$topN": {"n": 1, "output": "$nosuch", "sortBy": {"k": 1}}}`), want: `[{"r": [null]}]`},
		{name: "topN spec must be an object", ref: accMultiSrc, cov: a("$topN"),
			pipeline: group(`{"$topN": "x"}`), code: 5788001, msg: `specification must be an object; found $topN: "x"`},
		{name: "top takes no n", ref: accMultiSrc, cov: a("$top"),
			pipeline: group(`{"$top": {"n": 1, "output": "$a", "sortBy": {"a": 1}}}`), code: 5788002, msg: "Unknown argument to $top 'n'"},
		{name: "topN needs n", ref: accMultiSrc, cov: a("$topN"),
			pipeline: group(`{"$topN": {"output": "$a", "sortBy": {"a": 1}}}`), code: 5788003, msg: "Missing value for 'n'"},
		{name: "bottom needs output", ref: accMultiSrc, cov: a("$bottom"),
			pipeline: group(`{"$bottom": {"sortBy": {"a": 1}}}`), code: 5788004, msg: "Missing value for 'output'"},
		{name: "bottomN needs sortBy", ref: accMultiSrc, cov: a("$bottomN"),
			pipeline: group(`{"$bottomN": {"n": 1, "output": "$a"}}`), code: 5788005, msg: "Missing value for 'sortBy'"},

		// In $bucketAuto n must optimize to a constant: there is no group
		// key for it to read (createFromBson's 4544714, as min_n_max_n.js
		// asserts).
		{name: "in $bucketAuto n may not read a document", ref: "src/mongo/db/pipeline/document_source_bucket_auto.cpp createFromBson",
			cov: a("$firstN"), docs: scores,
			pipeline: `[{"$bucketAuto": {"groupBy": "$s", "buckets": 1, "output": {"r": {"$firstN": {"input": "$s", "n": {"$ifNull": ["$s", 2]}}}}}}]`,
			code:     4544714, msg: "Can't refer to the group key in $bucketAuto"},
	})
}

// $bucketAuto has no group key, so the n of an accumulator in its output
// must be a constant once optimized (document_source_bucket_auto.cpp
// createFromBson, 4544714).
func TestBucketAutoAccumulatorN(t *testing.T) {
	const bucketAutoSrc = "src/mongo/db/pipeline/document_source_bucket_auto.cpp createFromBson"
	e := func(op string) cover { return cover{family: accumulator, op: op, col: errorCol} }
	docs := `[{"_id": 1, "st": "CA", "s": 1}, {"_id": 2, "st": "NY", "s": 2}]`
	byKey := `{"$cond": {"if": {"$eq": ["$st", "CA"]}, "then": 10, "else": 4}}`
	runAggCases(t, []aggCase{
		{name: "minN's n from a field", ref: minMaxNJS + "; " + bucketAutoSrc, cov: e("$minN"), docs: docs,
			pipeline: `[{"$bucketAuto": {"groupBy": "$st", "buckets": 2, "output": {"m": {"$minN": {"input": "$s", "n": ` + byKey + `}}}}}]`,
			code:     4544714, msg: "Can't refer to the group key in $bucketAuto"},
		{name: "topN's n from a field", ref: bucketAutoSrc, cov: e("$topN"), docs: docs,
			pipeline: `[{"$bucketAuto": {"groupBy": "$st", "buckets": 2, "output": {"m": {"$topN": {"output": "$s", "sortBy": {"s": 1}, "n": "$s"}}}}}]`,
			code:     4544714, msg: "Can't refer to the group key in $bucketAuto"},
		{name: "a constant n", ref: minMaxNJS + " runAndCompareMinMaxN", cov: cover{family: accumulator, op: "$maxN"}, docs: docs,
			pipeline: `[{"$bucketAuto": {"groupBy": "$st", "buckets": 2, "output": {"m": {"$maxN": {"input": "$s", "n": 1}}}}}]`,
			want:     `[{"_id": {"min": "CA", "max": "NY"}, "m": [1]}, {"_id": {"min": "NY", "max": "NY"}, "m": [2]}]`},
	})
}
