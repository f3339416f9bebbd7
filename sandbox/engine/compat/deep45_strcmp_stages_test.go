package compat_test

import "testing"

// Sweep 45, "strcmp": $bucket, $sortByCount and $replaceRoot/$replaceWith.
// $bucket and $sortByCount are aliases mongod expands into $group and
// $sort (src/mongo/db/pipeline/document_source_bucket.cpp,
// document_source_sort_by_count.cpp); $replaceRoot and $replaceWith share
// src/mongo/db/pipeline/document_source_replace_root.cpp.

const (
	d45BucketCpp  = "src/mongo/db/pipeline/document_source_bucket.cpp (createFromBson)"
	d45SortByCpp  = "src/mongo/db/pipeline/document_source_sort_by_count.cpp (createFromBson)"
	d45ReplaceCpp = "src/mongo/db/pipeline/document_source_replace_root.cpp"
	d45BucketDocs = `[{"_id": 1, "a": 1}, {"_id": 2, "a": 5}, {"_id": 3, "a": "x"}, {"_id": 4}, {"_id": 5, "a": null},` +
		` {"_id": 6, "a": {"$numberDecimal": "2.5"}}]`
)

func TestDeep45StrcmpBucket(t *testing.T) {
	runAggCases(t, []aggCase{
		{name: "a value outside every bucket and no default", ref: d45BucketCpp + " ($switch with no default)", docs: d45BucketDocs,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [0, 3, 6]}}]`,
			code:     40066, msg: planExecutor + "$switch could not find a matching branch for an input, and no default was specified."},
		{name: "null, missing and strings go to the default", ref: d45BucketCpp, docs: d45BucketDocs,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [0, 3, 6], "default": "o", "output": {"ids": {"$push": "$_id"}}}}]`,
			want:     `[{"_id": 0, "ids": [1, 6]}, {"_id": 3, "ids": [2]}, {"_id": "o", "ids": [3, 4, 5]}]`},
		{name: "a default below the boundaries sorts first", ref: d45BucketCpp + " (the $sort on _id)", docs: d45BucketDocs,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [0, 3, 6], "default": -1}}]`,
			want:     `[{"_id": -1, "count": 3}, {"_id": 0, "count": 2}, {"_id": 3, "count": 1}]`},
		{name: "a default equal to the top boundary", ref: d45BucketCpp + " (default >= the highest boundary)", docs: d45BucketDocs,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [0, 3, 6], "default": 6}}]`,
			want:     `[{"_id": 0, "count": 2}, {"_id": 3, "count": 1}, {"_id": 6, "count": 3}]`},
		{name: "a default inside the boundaries", ref: d45BucketCpp, docs: d45BucketDocs,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [0, 3, 6], "default": 3}}]`,
			code:     40199, msg: "The $bucket 'default' field must be less than the lowest boundary or greater than or equal to the highest boundary."},
		{name: "a NaN default is below every number", ref: d45BucketCpp + "; src/mongo/db/exec/document_value/value.cpp (NaN sorts first)",
			docs: `[{"_id": 1, "a": 9}]`, pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [0, 5], "default": {"$numberDouble": "NaN"}}}]`,
			want: `[{"_id": {"$numberDouble": "NaN"}, "count": 1}]`},
		{name: "boundaries of mixed numeric types", ref: d45BucketCpp + " (one canonical type)",
			docs:     `[{"_id": 1, "a": 0.7}, {"_id": 2, "a": {"$numberLong": "10"}}]`,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [0, {"$numberDecimal": "0.5"}, 1.5, {"$numberLong": "3"}], "default": {"$numberDecimal": "3"}}}]`,
			want:     `[{"_id": {"$numberDecimal": "0.5"}, "count": 1}, {"_id": {"$numberDecimal": "3"}, "count": 1}]`},
		{name: "boundaries that optimize to constants", ref: d45BucketCpp + " (getExpressionConstant optimizes each boundary)",
			docs: `[{"_id": 1, "a": 4}]`, pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [{"$add": [1, 2]}, 5]}}]`,
			want: `[{"_id": 3, "count": 1}]`},
		// ExpressionObject::optimize makes an object of constants one
		// constant, so getExpressionConstant takes it as a boundary or a
		// default.
		{name: "object boundaries and default", ref: d45BucketCpp + "; src/mongo/db/pipeline/expression.cpp (ExpressionObject::optimize)",
			docs:     `[{"_id": 1, "a": {"v": 2}}, {"_id": 2, "a": 7}]`,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [{"v": 1}, {"v": {"$add": [2, 3]}}], "default": {"other": true}}}]`,
			want:     `[{"_id": {"v": 1}, "count": 1}, {"_id": {"other": true}, "count": 1}]`},
		{name: "array boundaries", ref: d45BucketCpp, docs: `[{"_id": 1, "a": [1, 5]}]`,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [[1], [2]]}}]`, want: `[{"_id": [1], "count": 1}]`},
		{name: "a boundary that is a field path", ref: d45BucketCpp, docs: d45BucketDocs,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": ["$x", 5]}}]`,
			code:     40191, msg: `The $bucket 'boundaries' field must be an array of constant values, but found value: "$x".`},
		{name: "a default that is a field path", ref: d45BucketCpp, docs: d45BucketDocs,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [0, 5], "default": "$x"}}]`,
			code:     40195, msg: `The $bucket 'default' field must be a constant expression, but found: "$x".`},
		{name: "one boundary", ref: d45BucketCpp, docs: d45BucketDocs, pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [0]}}]`,
			code: 40192, msg: "The $bucket 'boundaries' field must have at least 2 values, but found 1 value(s)."},
		{name: "no boundaries is caught before the missing groupBy", ref: d45BucketCpp, docs: d45BucketDocs,
			pipeline: `[{"$bucket": {"boundaries": []}}]`,
			code:     40192, msg: "The $bucket 'boundaries' field must have at least 2 values, but found 0 value(s)."},
		{name: "equal boundaries of two types", ref: d45BucketCpp, docs: d45BucketDocs,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [0, {"$numberLong": "0"}]}}]`,
			code:     40194, msg: "The 'boundaries' option to $bucket must be sorted, but elements 0 and 1 are not in ascending order (0 is not less than 0)."},
		{name: "minKey and maxKey boundaries", ref: d45BucketCpp, docs: d45BucketDocs,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [{"$minKey": 1}, {"$maxKey": 1}]}}]`,
			code:     40193, msg: "All values in the the 'boundaries' option to $bucket must have the same type. Found conflicting types minKey and maxKey."},
		{name: "null then a number", ref: d45BucketCpp, docs: d45BucketDocs,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [null, 5]}}]`,
			code:     40193, msg: "All values in the the 'boundaries' option to $bucket must have the same type. Found conflicting types null and int."},
		{name: "an empty object groupBy", ref: d45BucketCpp, docs: d45BucketDocs,
			pipeline: `[{"$bucket": {"groupBy": {}, "boundaries": [0, 1]}}]`,
			code:     40202, msg: "The $bucket 'groupBy' field must be defined as a $-prefixed path or an expression, but found: {}."},
		{name: "no groupBy", ref: d45BucketCpp, docs: d45BucketDocs, pipeline: `[{"$bucket": {"boundaries": [0, 1]}}]`,
			code: 40198, msg: "$bucket requires 'groupBy' and 'boundaries' to be specified."},
		{name: "an output that is not an accumulator", ref: d45BucketCpp + "; src/mongo/db/pipeline/accumulation_statement.cpp", docs: d45BucketDocs,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [0, 1], "output": {"x": 1}}}]`,
			code:     40234, msg: "The field 'x' must be an accumulator object"},
		{name: "an empty output leaves no count", ref: d45BucketCpp + " (count only when output is absent)", docs: `[{"_id": 1, "a": 0}]`,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [0, 1], "output": {}}}]`, want: `[{"_id": 0}]`},
		// The output's fields come ahead of the _id mongod adds, so an _id
		// among them parses as the group key and the generated one is a
		// second _id.
		{name: "an _id in output is a second group key", ref: d45BucketCpp + "; src/mongo/db/pipeline/document_source_group_base.cpp (15948)",
			docs: `[{"_id": 1, "a": 0}]`, pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [0, 1], "output": {"_id": {"$sum": 1}}}}]`,
			code: 15948, msg: "a group's _id may only be specified once"},
		{name: "an _id in output that is no expression", ref: d45BucketCpp + "; src/mongo/db/pipeline/expression.cpp (parseExpression)",
			docs: `[{"_id": 1, "a": 0}]`, pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [0, 1], "output": {"_id": {"$push": 1}}}}]`,
			code: 168, msg: "Unrecognized expression '$push'"},
		{name: "output parses before groupBy", ref: d45BucketCpp + " (the $group sees output first, its $switch _id last)",
			docs: `[{"_id": 1, "a": 0}]`, pipeline: `[{"$bucket": {"groupBy": "$$nope", "boundaries": [0, 1], "output": {"x": {"$bogus": 1}}}}]`,
			code: 15952, msg: "unknown group operator '$bogus'"},
	})
}

func TestDeep45StrcmpSortByCount(t *testing.T) {
	runAggCases(t, []aggCase{
		{name: "null and missing share a group; an array is one key", ref: d45SortByCpp,
			docs:     `[{"_id": 1, "a": 1}, {"_id": 2, "a": 1}, {"_id": 3}, {"_id": 4, "a": null}, {"_id": 5, "a": [1]}, {"_id": 6, "a": [1]}, {"_id": 7, "a": [1]}]`,
			pipeline: `[{"$sortByCount": "$a"}]`,
			want:     `[{"_id": [1], "count": 3}, {"_id": 1, "count": 2}, {"_id": null, "count": 2}]`},
		{name: "numbers of different types are one group", ref: d45SortByCpp, cov: cover{op: "$sortByCount"},
			docs:     `[{"_id": 1, "a": 1}, {"_id": 2, "a": {"$numberLong": "1"}}, {"_id": 3, "a": 1.0}, {"_id": 4, "a": 2}]`,
			pipeline: `[{"$sortByCount": "$a"}]`, want: `[{"_id": 1, "count": 3}, {"_id": 2, "count": 1}]`},
		{name: "a variable path", ref: d45SortByCpp, docs: `[{"_id": 1, "a": 2}]`, pipeline: `[{"$sortByCount": "$$CURRENT.a"}]`,
			want: `[{"_id": 2, "count": 1}]`},
		{name: "an expression", ref: d45SortByCpp, docs: `[{"_id": 1, "a": 2}, {"_id": 2, "a": 3}]`,
			pipeline: `[{"$sortByCount": {"$mod": ["$a", 2]}}]`, unordered: true,
			want: `[{"_id": 0, "count": 1}, {"_id": 1, "count": 1}]`},
		{name: "an empty string", ref: d45SortByCpp, docs: `[{"_id": 1}]`, pipeline: `[{"$sortByCount": ""}]`,
			code: 40148, msg: "the sortByCount field must be defined as a $-prefixed path or an expression inside an object"},
		{name: "an empty object", ref: d45SortByCpp, docs: `[{"_id": 1}]`, pipeline: `[{"$sortByCount": {}}]`,
			code: 40147, msg: "the sortByCount field must be defined as a $-prefixed path or an expression inside an object"},
		{name: "an array", ref: d45SortByCpp, docs: `[{"_id": 1}]`, pipeline: `[{"$sortByCount": ["$a"]}]`,
			code: 40149, msg: "the sortByCount field must be specified as a string or as an object"},
		{name: "an object of two operators", ref: d45SortByCpp + "; src/mongo/db/pipeline/expression.cpp (parseObject)", docs: `[{"_id": 1}]`,
			pipeline: `[{"$sortByCount": {"$a": 1, "b": 1}}]`,
			code:     15983, msg: "An object representing an expression must have exactly one field: { $a: 1, b: 1 }"},
		{name: "an undefined variable", ref: d45SortByCpp + " (the $group parses the path)", docs: `[{"_id": 1}]`,
			pipeline: `[{"$sortByCount": "$$nope"}]`, code: 17276, msg: "Use of undefined variable: nope"},
		{name: "a lone dollar", ref: d45SortByCpp + "; src/mongo/db/pipeline/field_path.cpp", docs: `[{"_id": 1}]`,
			pipeline: `[{"$sortByCount": "$"}]`, code: 16872, msg: "'$' by itself is not a valid FieldPath"},
	})
}

func TestDeep45StrcmpReplaceRoot(t *testing.T) {
	ref := d45ReplaceCpp + " (ReplaceRootTransformation::applyTransformation)"
	runAggCases(t, []aggCase{
		{name: "a missing newRoot", ref: ref, docs: `[{"_id": 1, "a": {"b": 1}}]`, pipeline: `[{"$replaceRoot": {"newRoot": "$x"}}]`,
			code: 40228, msg: planExecutor + "'newRoot' expression  must evaluate to an object, but resulting value was: MISSING. Type of resulting value: 'missing'. Input document: {}"},
		{name: "a null newRoot", ref: ref, docs: `[{"_id": 1, "a": {"b": 1}}]`, pipeline: `[{"$replaceRoot": {"newRoot": null}}]`,
			code: 40228, msg: planExecutor + "'newRoot' expression  must evaluate to an object, but resulting value was: null. Type of resulting value: 'null'. Input document: {_id: 1, a: {b: 1}}"},
		{name: "an array of documents", ref: ref, docs: `[{"_id": 1}]`, pipeline: `[{"$replaceRoot": {"newRoot": {"$literal": [{}]}}}]`,
			code: 40228, msg: planExecutor + "'newRoot' expression  must evaluate to an object, but resulting value was: [{}]. Type of resulting value: 'array'. Input document: {_id: 1}"},
		{name: "an object of field expressions", ref: ref, docs: `[{"_id": 1, "a": {"b": 1}}]`, pipeline: `[{"$replaceRoot": {"newRoot": {"x": "$a.b"}}}]`,
			want: `[{"x": 1}]`},
		{name: "no newRoot", ref: d45ReplaceCpp + " (ReplaceRootSpec IDL)", docs: `[{"_id": 1}]`, pipeline: `[{"$replaceRoot": {}}]`,
			code: 40414, msg: "BSON field '$replaceRoot.newRoot' is missing but a required field"},
		{name: "an unknown field", ref: d45ReplaceCpp + " (ReplaceRootSpec IDL)", docs: `[{"_id": 1}]`, pipeline: `[{"$replaceRoot": {"newRoot": "$a", "x": 1}}]`,
			code: 40415, msg: "BSON field '$replaceRoot.x' is an unknown field."},
		{name: "a number spec", ref: d45ReplaceCpp + " (createFromBson)", docs: `[{"_id": 1}]`, pipeline: `[{"$replaceRoot": 1}]`,
			code: 40229, msg: "expected an object as specification for $replaceRoot stage, got int"},
		{name: "replaceWith names its own context", ref: ref, cov: cover{op: "$replaceWith"}, docs: `[{"_id": 1, "a": {"b": 1}}, {"_id": 2, "a": 5}]`,
			pipeline: `[{"$replaceWith": "$a"}]`,
			code:     40228, msg: planExecutor + "'replacement document'  must evaluate to an object, but resulting value was: 5. Type of resulting value: 'int'. Input document: {a: 5}"},
		{name: "replaceWith of $$REMOVE", ref: ref, cov: cover{op: "$replaceWith"}, docs: `[{"_id": 1, "a": {"b": 1}}]`,
			pipeline: `[{"$replaceWith": "$$REMOVE"}]`,
			code:     40228, msg: planExecutor + "'replacement document'  must evaluate to an object, but resulting value was: MISSING. Type of resulting value: 'missing'. Input document: {_id: 1, a: {b: 1}}"},
		{name: "replaceWith of an empty object", ref: ref, cov: cover{op: "$replaceWith"}, docs: `[{"_id": 1}]`,
			pipeline: `[{"$replaceWith": {}}]`, want: `[{}]`},
		{name: "replaceWith merging the root", ref: ref, cov: cover{op: "$replaceWith"}, docs: `[{"_id": 1, "a": {"b": 1}}]`,
			pipeline: `[{"$replaceWith": {"$mergeObjects": ["$$ROOT", "$a"]}}]`, want: `[{"_id": 1, "a": {"b": 1}, "b": 1}]`},
		{name: "replaceWith of a dotted field name", ref: d45ReplaceCpp + " (parseOperand); src/mongo/db/pipeline/expression.cpp (ExpressionObject::parse)",
			cov: cover{op: "$replaceWith"}, docs: `[{"_id": 1}]`, pipeline: `[{"$replaceWith": {"y.z": 1}}]`,
			code: 16412, msg: "FieldPath field names may not contain '.'. Consider using $getField or $setField."},
		{name: "replaceWith of an unknown operator", ref: d45ReplaceCpp + " (parseOperand)", cov: cover{op: "$replaceWith"}, docs: `[{"_id": 1}]`,
			pipeline: `[{"$replaceWith": {"$x": 1}}]`, code: 168, msg: "Unrecognized expression '$x'"},
	})
}

// The $bucket and $bucketAuto messages: an argument is printed as
// BSONElement::toString prints it ({ a: "$x" }), a boundary Value as
// value.cpp streams it (an ObjectId as bare hex), $bucketAuto's 'buckets'
// as a streamed double, and $bucketAuto's messages end without a period.
func TestDeep45StrcmpBucketMessages(t *testing.T) {
	autoCpp := "src/mongo/db/pipeline/document_source_bucket_auto.cpp (createFromBson, create, parseGroupByExpression)"
	docs := `[{"_id": 1, "a": 1}, {"_id": 2, "a": 2}]`
	runAggCases(t, []aggCase{
		{name: "an object boundary that is no constant", ref: d45BucketCpp + " (boundaryElem.toString(false, false))", docs: docs,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [{"a": "$x"}, 2]}}]`,
			code:     40191, msg: `The $bucket 'boundaries' field must be an array of constant values, but found value: { a: "$x" }.`},
		{name: "an object default that is no constant", ref: d45BucketCpp + " (argument.toString(false, false))", docs: docs,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [1, 2], "default": {"a": "$x"}}}]`,
			code:     40195, msg: `The $bucket 'default' field must be a constant expression, but found: { a: "$x" }.`},
		{name: "an object groupBy without an operator", ref: d45BucketCpp + " (groupByField.toString(false, false))", docs: docs,
			pipeline: `[{"$bucket": {"groupBy": {"a": "$x"}, "boundaries": [1, 2]}}]`,
			code:     40202, msg: `The $bucket 'groupBy' field must be defined as a $-prefixed path or an expression, but found: { a: "$x" }.`},
		{name: "unsorted ObjectId boundaries", ref: d45BucketCpp + " (lower.toString(): value.cpp operator<<)", docs: docs,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [{"$oid": "5f5e1000aaaaaaaaaaaaaaab"}, {"$oid": "5f5e1000aaaaaaaaaaaaaaaa"}]}}]`,
			code:     40194, msg: "The 'boundaries' option to $bucket must be sorted, but elements 0 and 1 are not in ascending order (5f5e1000aaaaaaaaaaaaaaab is not less than 5f5e1000aaaaaaaaaaaaaaaa)."},
		{name: "unsorted decimal boundaries", ref: d45BucketCpp + " (lower.toString(): value.cpp operator<<)", docs: docs,
			pipeline: `[{"$bucket": {"groupBy": "$a", "boundaries": [{"$numberDecimal": "2"}, {"$numberDecimal": "1.0"}]}}]`,
			code:     40194, msg: "The 'boundaries' option to $bucket must be sorted, but elements 0 and 1 are not in ascending order (2 is not less than 1.0)."},
		{name: "bucketAuto with an empty output counts", ref: autoCpp + " (create adds the count when no accumulator is given)", cov: cover{op: "$bucketAuto"}, docs: docs,
			pipeline: `[{"$bucketAuto": {"groupBy": "$a", "buckets": 1, "output": {}}}]`, want: `[{"_id": {"min": 1, "max": 2}, "count": 2}]`},
		{name: "bucketAuto checks an unknown option before the bucket count's sign", ref: autoCpp, cov: cover{op: "$bucketAuto"}, docs: docs,
			pipeline: `[{"$bucketAuto": {"groupBy": "$a", "buckets": 0, "x": 1}}]`, code: 40245, msg: "Unrecognized option to $bucketAuto: x"},
		{name: "bucketAuto checks the missing groupBy before the bucket count's sign", ref: autoCpp, cov: cover{op: "$bucketAuto"}, docs: docs,
			pipeline: `[{"$bucketAuto": {"buckets": 0}}]`, code: 40246, msg: "$bucketAuto requires 'groupBy' and 'buckets' to be specified"},
		{name: "bucketAuto parses groupBy in its turn", ref: autoCpp, cov: cover{op: "$bucketAuto"}, docs: docs,
			pipeline: `[{"$bucketAuto": {"groupBy": "$$nope", "buckets": "x"}}]`, code: 17276, msg: "Use of undefined variable: nope"},
		{name: "bucketAuto parses output in its turn", ref: autoCpp, cov: cover{op: "$bucketAuto"}, docs: docs,
			pipeline: `[{"$bucketAuto": {"output": {"x": 1}, "buckets": 0}}]`, code: 40234, msg: "The field 'x' must be an accumulator object"},
		{name: "bucketAuto groupBy of a lone dollar", ref: autoCpp + " (valuestrsize() > 2)", cov: cover{op: "$bucketAuto"}, docs: docs,
			pipeline: `[{"$bucketAuto": {"groupBy": "$", "buckets": 1}}]`,
			code:     40239, msg: `The $bucketAuto 'groupBy' field must be defined as a $-prefixed path or an expression object, but found: "$"`},
		{name: "bucketAuto groupBy of an object without an operator", ref: autoCpp, cov: cover{op: "$bucketAuto"}, docs: docs,
			pipeline: `[{"$bucketAuto": {"groupBy": {"a": "$x"}, "buckets": 2}}]`,
			code:     40239, msg: `The $bucketAuto 'groupBy' field must be defined as a $-prefixed path or an expression object, but found: { a: "$x" }`},
		{name: "bucketAuto with a negative long bucket count", ref: autoCpp + " (Value::integral, coerceToDouble streamed)", cov: cover{op: "$bucketAuto"}, docs: docs,
			pipeline: `[{"$bucketAuto": {"groupBy": "$a", "buckets": {"$numberLong": "-5000000000"}}}]`,
			code:     40242, msg: "The $bucketAuto 'buckets' field must be representable as a 32-bit integer, but found -5e+09"},
		{name: "bucketAuto with a fractional decimal bucket count", ref: autoCpp, cov: cover{op: "$bucketAuto"}, docs: docs,
			pipeline: `[{"$bucketAuto": {"groupBy": "$a", "buckets": {"$numberDecimal": "2.50"}}}]`,
			code:     40242, msg: "The $bucketAuto 'buckets' field must be representable as a 32-bit integer, but found 2.5"},
		{name: "bucketAuto of a number", ref: autoCpp, cov: cover{op: "$bucketAuto"}, docs: docs,
			pipeline: `[{"$bucketAuto": 1}]`, code: 40240, msg: "The argument to $bucketAuto must be an object, but found type: int"},
		{name: "bucketAuto with a string bucket count", ref: autoCpp, cov: cover{op: "$bucketAuto"}, docs: docs,
			pipeline: `[{"$bucketAuto": {"groupBy": "$a", "buckets": "2"}}]`, code: 40241, msg: "The $bucketAuto 'buckets' field must be a numeric value, but found type: string"},
		{name: "bucketAuto with an array output", ref: autoCpp, cov: cover{op: "$bucketAuto"}, docs: docs,
			pipeline: `[{"$bucketAuto": {"groupBy": "$a", "buckets": 2, "output": []}}]`, code: 40244, msg: "The $bucketAuto 'output' field must be an object, but found type: array"},
		{name: "bucketAuto with a numeric granularity", ref: autoCpp, cov: cover{op: "$bucketAuto"}, docs: docs,
			pipeline: `[{"$bucketAuto": {"groupBy": "$a", "buckets": 2, "granularity": 1}}]`, code: 40261, msg: "The $bucketAuto 'granularity' field must be a string, but found type: int"},
		{name: "bucketAuto with two outputs keeps both", ref: autoCpp + " (each output's statements are appended)", cov: cover{op: "$bucketAuto"}, docs: docs,
			pipeline: `[{"$bucketAuto": {"groupBy": "$a", "buckets": 1, "output": {"n": {"$sum": 1}}, "output": {"m": {"$max": "$a"}}}}]`,
			want:     `[{"_id": {"min": 1, "max": 2}, "n": 2, "m": 2}]`},
	})
}

// The 40228 message streams the value and the input Document as value.cpp
// operator<< does: a double with six significant digits, Timestamp(t, i),
// /re/flags, BinData(0, "HEX"), a decimal's digits, Symbol("s"), MinKey.
func TestDeep45StrcmpReplaceRootMessage(t *testing.T) {
	ref := d45ReplaceCpp + " (kErrorTemplate with newRoot.toString() and input.toString()); " + valueCpp + " (operator<<)"
	runAggCases(t, []aggCase{
		{name: "every kind of value in the input document", ref: ref, cov: cover{op: "$replaceWith"},
			docs: `[{"_id": {"$oid": "5f5e1000aaaaaaaaaaaaaaaa"}, "a": 1.23456789, "t": {"$timestamp": {"t": 1, "i": 2}},` +
				` "r": {"$regularExpression": {"pattern": "x", "options": "i"}}, "b": {"$binary": {"base64": "Cg==", "subType": "00"}},` +
				` "dec": {"$numberDecimal": "1.50"}, "d": {"$date": {"$numberLong": "-1"}}, "n": {"$numberLong": "5"}, "big": 1e300,` +
				` "s": {"$symbol": "q"}, "mk": {"$minKey": 1}, "arr": [1, "x", {}]}]`,
			pipeline: `[{"$replaceWith": {"$cond": [false, "$$ROOT", "$a"]}}]`,
			code:     40228, msg: planExecutor + "'replacement document'  must evaluate to an object, but resulting value was: 1.23457. Type of resulting value: 'double'." +
				` Input document: {_id: 5f5e1000aaaaaaaaaaaaaaaa, a: 1.23457, t: Timestamp(1, 2), r: /x/i, b: BinData(0, "0A"), dec: 1.50,` +
				` d: 1969-12-31T23:59:59.999Z, n: 5, big: 1e+300, s: Symbol("q"), mk: MinKey, arr: [1, "x", {}]}`},
		{name: "a regex newRoot", ref: ref, docs: `[{"_id": 1, "r": {"$regularExpression": {"pattern": "x", "options": "i"}}}]`,
			pipeline: `[{"$replaceRoot": {"newRoot": "$r"}}]`,
			code:     40228, msg: planExecutor + "'newRoot' expression  must evaluate to an object, but resulting value was: /x/i. Type of resulting value: 'regex'. Input document: {r: /x/i}"},
	})
}
