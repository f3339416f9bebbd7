package compat_test

import "testing"

// The object operators, sizes, timestamps, bits and the miscellaneous
// ones: src/mongo/db/pipeline/expression.cpp (ExpressionGetField,
// ExpressionSetField, ExpressionRandom, ExpressionToHashedIndexKey),
// src/mongo/db/exec/expression/evaluate_array.cpp ($objectToArray,
// $arrayToObject) and jstests/aggregation/expressions.

const (
	getFieldJS = "jstests/aggregation/expressions/expression_get_field.js"
	setFieldJS = "jstests/aggregation/expressions/expression_set_field.js"
	objDoc     = `{"_id": 0, "o": {"a": 1, "b.c": 2, "$d": 3}, "n": null, "s": "x", "i": 1, "f": "a", "arr": [1]}`
)

func TestExpressionGetField(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "a field of the current document", ref: getFieldJS, doc: objDoc, expr: `{"$getField": "i"}`, want: `1`},
		{name: "a dotted name is one field", ref: getFieldJS, doc: objDoc, expr: `{"$getField": {"field": "b.c", "input": "$o"}}`, want: `2`},
		{name: "a dollar name through literal", ref: getFieldJS, doc: objDoc,
			expr: `{"$getField": {"field": {"$literal": "$d"}, "input": "$o"}}`, want: `3`},
		{name: "field from an expression", ref: exprCpp + " (ExpressionGetField: any expression that gives a string)", doc: objDoc,
			expr: `{"$getField": {"field": "$f", "input": "$o"}}`, want: `1`},
		{name: "an operator object is the field", ref: exprCpp + " (ExpressionGetField::parse)", doc: objDoc,
			expr: `{"$getField": {"$concat": ["i"]}}`, want: `1`},
		{name: "an absent field is missing", ref: getFieldJS, doc: objDoc, expr: `{"$getField": {"field": "z", "input": "$o"}}`, missing: true},
		{name: "null input is null", ref: getFieldJS, doc: objDoc, expr: `{"$getField": {"field": "a", "input": "$n"}}`, want: `null`},
		{name: "missing input is missing", ref: getFieldJS, doc: objDoc, expr: `{"$getField": {"field": "a", "input": "$nope"}}`, missing: true},
		{name: "a non-document input is missing", ref: getFieldJS, doc: objDoc, expr: `{"$getField": {"field": "a", "input": "$s"}}`, missing: true},
		{name: "a field that is not a string", ref: getFieldJS, doc: objDoc, expr: `{"$getField": {"field": "$i", "input": "$o"}}`,
			code: 3041704, msg: planExecutor + "$getField requires 'field' to evaluate to type String, but got int"},
		{name: "a constant field that is not a string", ref: getFieldJS, doc: objDoc, expr: `{"$getField": {"field": true, "input": "$o"}}`,
			code: 3041704, msg: planExecutor + "$getField requires 'field' to evaluate to type String, but got bool"},
		{name: "a missing field", ref: getFieldJS, doc: objDoc, expr: `{"$getField": "$nope"}`,
			code: 3041704, msg: planExecutor + "$getField requires 'field' to evaluate to type String, but got missing"},
		{name: "an unknown argument", ref: getFieldJS, expr: `{"$getField": {"field": "a", "x": 1}}`,
			code: 3041701, msg: invalidProject + "$getField found an unknown argument: x"},
		{name: "no field", ref: getFieldJS, expr: `{"$getField": {"input": {}}}`,
			code: 3041702, msg: invalidProject + "$getField requires 'field' to be specified"},
		{name: "no input in the object form", ref: exprCpp + " (ExpressionGetField::parse)", expr: `{"$getField": {"field": "a"}}`,
			code: 3041703, msg: invalidProject + "$getField requires 'input' to be specified"},
	})
}

func TestExpressionSetField(t *testing.T) {
	runExprCases(t, []exprCase{
		{name: "set replaces in place", ref: setFieldJS, doc: objDoc, expr: `{"$setField": {"field": "a", "input": "$o", "value": 9}}`,
			want: `{"a": 9, "b.c": 2, "$d": 3}`},
		{name: "set appends", ref: setFieldJS, doc: objDoc, expr: `{"$setField": {"field": "z.y", "input": "$o", "value": "$s"}}`,
			want: `{"a": 1, "b.c": 2, "$d": 3, "z.y": "x"}`},
		{name: "set to REMOVE removes", ref: setFieldJS, doc: objDoc, expr: `{"$setField": {"field": {"$literal": "$d"}, "input": "$o", "value": "$$REMOVE"}}`,
			want: `{"a": 1, "b.c": 2}`},
		{name: "unsetField", ref: setFieldJS, cov: cover{op: "$unsetField"}, doc: objDoc, expr: `{"$unsetField": {"field": "b.c", "input": "$o"}}`,
			want: `{"a": 1, "$d": 3}`},
		{name: "null input", ref: setFieldJS, doc: objDoc, expr: `{"$setField": {"field": "a", "input": "$n", "value": 1}}`, want: `null`},
		{name: "input not an object", ref: setFieldJS, doc: objDoc, expr: `{"$setField": {"field": "a", "input": "$s", "value": 1}}`,
			code: 4161105, msg: planExecutor + "$setField requires 'input' to evaluate to type Object"},
		{name: "unsetField input not an object", ref: setFieldJS, cov: cover{op: "$unsetField"}, doc: objDoc,
			expr: `{"$unsetField": {"field": "a", "input": "$i"}}`,
			code: 4161105, msg: planExecutor + "$setField requires 'input' to evaluate to type Object"},
		{name: "not an object", ref: setFieldJS, expr: `{"$setField": 5}`,
			code: 4161100, msg: invalidProject + "$setField only supports an object as its argument"},
		{name: "an operator is an unknown argument", ref: setFieldJS, expr: `{"$setField": {"$add": [2, 3]}}`,
			code: 4161101, msg: invalidProject + "$setField found an unknown argument: $add"},
		{name: "value given to unsetField", ref: setFieldJS, cov: cover{op: "$unsetField"}, expr: `{"$unsetField": {"field": "a", "value": 1}}`,
			code: 4161101, msg: invalidProject + "$unsetField found an unknown argument: value"},
		{name: "no field", ref: setFieldJS, expr: `{"$setField": {"input": {}}}`,
			code: 4161102, msg: invalidProject + "$setField requires 'field' to be specified"},
		{name: "no value", ref: setFieldJS, expr: `{"$setField": {"field": "a"}}`,
			code: 4161103, msg: invalidProject + "$setField requires 'value' to be specified"},
		{name: "no input", ref: setFieldJS, cov: cover{op: "$unsetField"}, expr: `{"$unsetField": {"field": null}}`,
			code: 4161109, msg: invalidProject + "$unsetField requires 'input' to be specified"},
		{name: "a field that is not constant", ref: setFieldJS, expr: `{"$setField": {"field": {"$concat": ["a", "b"]}, "input": {}, "value": 1}}`,
			code: 4161106, msg: invalidProject + "$setField requires 'field' to evaluate to a constant, but got a non-constant argument"},
		{name: "a field that is not a string", ref: setFieldJS, expr: `{"$setField": {"field": null, "input": {}, "value": 1}}`,
			code: 4161107, msg: invalidProject + "$setField requires 'field' to evaluate to type String, but got null"},
		{name: "a field path as the field", ref: setFieldJS + "; " + exprCpp + " (ExpressionSetField::getValidFieldName: FieldPath::fullPathWithPrefix of the CURRENT-relative path ExpressionFieldPath::parse builds)",
			expr: `{"$setField": {"field": "$a", "input": {}, "value": 1}}`,
			code: 4161108, msg: invalidProject + "'$CURRENT.a' is a field path reference which is not allowed in this context. Did you mean {$literal: '$CURRENT.a'}?"},
		{name: "a variable as the field", ref: exprCpp + " (ExpressionSetField::getValidFieldName)", cov: cover{op: "$unsetField"},
			expr: `{"$unsetField": {"field": "$$ROOT", "input": {}}}`,
			code: 4161108, msg: invalidProject + "'$ROOT' is a field path reference which is not allowed in this context. Did you mean {$literal: '$ROOT'}?"},
	})
}

func TestExpressionObjects(t *testing.T) {
	a2o := "jstests/aggregation/expressions/arrayToObject.js"
	runExprCases(t, []exprCase{
		{name: "mergeObjects", ref: "src/mongo/db/pipeline/accumulator_merge_objects.cpp", cov: cover{op: "$mergeObjects"}, doc: objDoc,
			expr: `{"$mergeObjects": ["$o", {"a": 5, "z": 1}, "$n"]}`, want: `{"a": 5, "b.c": 2, "$d": 3, "z": 1}`},
		{name: "mergeObjects of nulls is empty", ref: exprCpp, cov: cover{op: "$mergeObjects"}, doc: objDoc, expr: `{"$mergeObjects": ["$n", "$nope"]}`, want: `{}`},
		{name: "mergeObjects of a string", ref: exprCpp, cov: cover{op: "$mergeObjects"}, doc: objDoc, expr: `{"$mergeObjects": ["$o", "$s"]}`,
			code: 40400, msg: planExecutor + "$mergeObjects requires object inputs, but input \"x\" is of type string"},
		{name: "objectToArray", ref: arrayCpp, cov: cover{op: "$objectToArray"}, doc: objDoc, expr: `{"$objectToArray": "$o"}`,
			want: `[{"k": "a", "v": 1}, {"k": "b.c", "v": 2}, {"k": "$d", "v": 3}]`},
		{name: "objectToArray of null", ref: arrayCpp, cov: cover{op: "$objectToArray"}, doc: objDoc, expr: `{"$objectToArray": "$n"}`, want: `null`},
		{name: "objectToArray of an array", ref: arrayCpp, cov: cover{op: "$objectToArray"}, doc: objDoc, expr: `{"$objectToArray": "$arr"}`,
			code: 40390, msg: planExecutor + "$objectToArray requires a document input, found: array"},
		{name: "arrayToObject of pairs keeps the first position", ref: a2o, cov: cover{op: "$arrayToObject"},
			expr: `{"$arrayToObject": [[["a", 1], ["b", 2], ["a", 3]]]}`, want: `{"a": 3, "b": 2}`},
		{name: "arrayToObject of k and v", ref: a2o, cov: cover{op: "$arrayToObject"},
			expr: `{"$arrayToObject": [[{"k": "x", "v": 1}]]}`, want: `{"x": 1}`},
		{name: "arrayToObject of null", ref: a2o, cov: cover{op: "$arrayToObject"}, doc: objDoc, expr: `{"$arrayToObject": "$n"}`, want: `null`},
		{name: "arrayToObject of a string", ref: a2o, cov: cover{op: "$arrayToObject"}, doc: objDoc, expr: `{"$arrayToObject": "$s"}`,
			code: 40386, msg: planExecutor + "$arrayToObject requires an array input, found: string"},
		{name: "arrayToObject of mixed forms, constant so refused while optimizing", ref: a2o, cov: cover{op: "$arrayToObject"}, doc: objDoc,
			expr: `{"$arrayToObject": {"$concatArrays": [[["a", 1]], [{"k": "b", "v": 2}]]}}`,
			code: 40396, msg: optimizeError + "$arrayToObject requires a consistent input format. Elements mustall be arrays or all be objects. Array was detected, now found: object"},
		{name: "arrayToObject of a three-element pair", ref: a2o, cov: cover{op: "$arrayToObject"}, doc: objDoc,
			expr: `{"$arrayToObject": {"$concatArrays": [[["a", 1, 2]]]}}`,
			code: 40397, msg: optimizeError + "$arrayToObject requires an array of size 2 arrays,found array of size: 3"},
		{name: "arrayToObject with a number key", ref: a2o, cov: cover{op: "$arrayToObject"}, doc: objDoc,
			expr: `{"$arrayToObject": {"$concatArrays": [[[1, 1]]]}}`,
			code: 40395, msg: optimizeError + "$arrayToObject requires an array of key-value pairs, where the key must be of type string. Found key type: int"},
		{name: "arrayToObject of scalars", ref: a2o, cov: cover{op: "$arrayToObject"}, doc: objDoc,
			expr: `{"$arrayToObject": "$arr"}`,
			code: 40398, msg: planExecutor + "Unrecognised input type format for $arrayToObject: int"},
		{name: "arrayToObject of a pair whose key holds a null byte", ref: a2o, cov: cover{op: "$arrayToObject"}, doc: objDoc,
			expr: `{"$arrayToObject": {"$literal": [["a\u0000b", 1]]}}`,
			code: 4940400, msg: optimizeError + "Key field cannot contain an embedded null byte"},
		{name: "arrayToObject of a k whose key holds a null byte", ref: a2o, cov: cover{op: "$arrayToObject"}, doc: objDoc,
			expr: `{"$arrayToObject": {"$literal": [{"k": "a\u0000b", "v": 1}]}}`,
			code: 4940401, msg: optimizeError + "Key field cannot contain an embedded null byte"},
		{name: "arrayToObject without v", ref: a2o, cov: cover{op: "$arrayToObject"}, doc: objDoc,
			expr: `{"$arrayToObject": {"$concatArrays": [[{"k": "a", "x": 1}]]}}`,
			code: 40393, msg: optimizeError + "$arrayToObject requires an object with keys 'k' and 'v'. Missing either or both keys from: {k: \"a\", x: 1}"},
	})
}

func TestExpressionMisc(t *testing.T) {
	hashRef := "manual: reference/operator/aggregation/toHashedIndexKey (\"string to hash\"); src/mongo/db/hasher.cpp"
	runExprCases(t, []exprCase{
		{name: "bsonSize", ref: "jstests/aggregation/expressions/bsonSize.js", cov: cover{op: "$bsonSize", col: types}, doc: objDoc,
			expr: `{"$bsonSize": "$o"}`, want: `29`},
		{name: "bsonSize of null", ref: "jstests/aggregation/expressions/bsonSize.js", cov: cover{op: "$bsonSize"}, doc: objDoc, expr: `{"$bsonSize": "$n"}`, want: `null`},
		{name: "bsonSize of a string", ref: "jstests/aggregation/expressions/bsonSize.js", cov: cover{op: "$bsonSize"}, doc: objDoc, expr: `{"$bsonSize": "$s"}`,
			code: 31393, msg: planExecutor + "$bsonSize requires a document input, found: string"},
		{name: "binarySize of a string", ref: "jstests/aggregation/expressions/binarySize.js", cov: cover{op: "$binarySize"}, expr: `{"$binarySize": "héllo"}`, want: `6`},
		{name: "binarySize of BinData", ref: "jstests/aggregation/expressions/binarySize.js", cov: cover{op: "$binarySize"},
			expr: `{"$binarySize": {"$binary": {"base64": "AAEC", "subType": "00"}}}`, want: `3`},
		{name: "binarySize of a number", ref: "jstests/aggregation/expressions/binarySize.js", cov: cover{op: "$binarySize"}, doc: objDoc,
			expr: `{"$binarySize": "$i"}`, code: 51276, msg: planExecutor + "$binarySize requires a string or BinData argument, found: int"},
		{name: "tsSecond is a long", ref: "src/mongo/db/exec/expression/evaluate_date.cpp", cov: cover{op: "$tsSecond", col: types},
			expr: `{"$tsSecond": {"$timestamp": {"t": 7, "i": 2}}}`, want: `{"$numberLong": "7"}`},
		{name: "tsIncrement", ref: "src/mongo/db/exec/expression/evaluate_date.cpp", cov: cover{op: "$tsIncrement"},
			expr: `{"$tsIncrement": {"$timestamp": {"t": 7, "i": 2}}}`, want: `{"$numberLong": "2"}`},
		{name: "tsIncrement of a string", ref: "src/mongo/db/exec/expression/evaluate_date.cpp", cov: cover{op: "$tsIncrement"}, doc: objDoc,
			expr: `{"$tsIncrement": "$s"}`, code: 5687302, msg: planExecutor + " Argument to $tsIncrement must be a timestamp, but is string"},
		{name: "bitAnd of ints", ref: "jstests/aggregation/expressions/bitwise.js", cov: cover{op: "$bitAnd", col: types}, expr: `{"$bitAnd": [12, 10]}`, want: `8`},
		{name: "bitOr with a long", ref: "jstests/aggregation/expressions/bitwise.js", cov: cover{op: "$bitOr", col: types},
			expr: `{"$bitOr": [12, {"$numberLong": "3"}]}`, want: `{"$numberLong": "15"}`},
		{name: "bitXor with null", ref: "jstests/aggregation/expressions/bitwise.js", cov: cover{op: "$bitXor"}, doc: objDoc, expr: `{"$bitXor": ["$i", "$n"]}`, want: `null`},
		{name: "bitAnd of a double", ref: "jstests/aggregation/expressions/bitwise.js", cov: cover{op: "$bitAnd"}, doc: objDoc, expr: `{"$bitAnd": ["$i", 1.5]}`,
			code: 14, msg: planExecutor + "$bitAnd only supports int and long operands."},
		{name: "bitNot", ref: "jstests/aggregation/expressions/bitwise.js", cov: cover{op: "$bitNot"}, doc: objDoc, expr: `{"$bitNot": "$i"}`, want: `-2`},
		{name: "bitNot of a double", ref: mathCpp, cov: cover{op: "$bitNot"}, doc: objDoc, expr: `{"$bitNot": {"$add": ["$i", 0.5]}}`,
			code: 14, msg: planExecutor + "$bitNot only supports int and long, not: double."},
		{name: "bitNot of a string", ref: mathCpp + " (evaluateSingleNumericArg)", cov: cover{op: "$bitNot"}, doc: objDoc, expr: `{"$bitNot": "$s"}`,
			code: 28765, msg: planExecutor + "$bitNot only supports numeric types, not string"},
		{name: "rand is a double in [0, 1)", ref: exprCpp, cov: cover{op: "$rand", col: types}, expr: `{"$lt": [{"$rand": {}}, 1]}`, want: `true`},
		{name: "rand with arguments", ref: exprCpp + " (ExpressionRandom::parse)", cov: cover{op: "$rand"}, expr: `{"$rand": {"a": 1}}`,
			code: 3040501, msg: invalidProject + "$rand does not currently accept arguments"},
		{name: "rand of a number", ref: "src/mongo/bson/bsonelement.cpp (BSONElement::Obj)", cov: cover{op: "$rand"}, expr: `{"$rand": 1}`,
			code: 10065, msg: invalidProject + "invalid parameter: expected an object ($rand)"},
		{name: "toHashedIndexKey of a string", ref: hashRef, cov: cover{op: "$toHashedIndexKey"}, expr: `{"$toHashedIndexKey": "string to hash"}`,
			want: `{"$numberLong": "763543691661428748"}`},
		{name: "toHashedIndexKey squashes numbers to longs", ref: hashRef, cov: cover{op: "$toHashedIndexKey", col: types},
			expr: `{"$eq": [{"$toHashedIndexKey": 2.9}, {"$toHashedIndexKey": {"$numberLong": "2"}}]}`, want: `true`},
		{name: "toHashedIndexKey of an erring argument", ref: "src/mongo/db/pipeline/expression.cpp (ExpressionToHashedIndexKey::evaluate evaluates its one operand first)",
			cov: cover{op: "$toHashedIndexKey"}, doc: `{"_id": 0, "z": 0}`, expr: `{"$toHashedIndexKey": {"$divide": [1, "$z"]}}`, code: 2, msg: planExecutor + "can't $divide by zero"},
		{name: "toHashedIndexKey of missing is null's", ref: hashRef, cov: cover{op: "$toHashedIndexKey"},
			expr: `{"$eq": [{"$toHashedIndexKey": "$nope"}, {"$toHashedIndexKey": null}]}`, want: `true`},
		{name: "toHashedIndexKey hashes an array argument whole", ref: exprCpp + " (ExpressionToHashedIndexKey::parse: one parseOperand, no argument list)",
			cov: cover{op: "$toHashedIndexKey"}, doc: `{"_id": 0, "a": 1}`,
			expr: `{"$eq": [{"$toHashedIndexKey": ["$a", 2]}, {"$toHashedIndexKey": {"$literal": [1, 2]}}]}`, want: `true`},
		{name: "toHashedIndexKey of an empty array is a long", ref: exprCpp + " (ExpressionToHashedIndexKey::parse, ::evaluate returns hash64's long long)",
			cov: cover{op: "$toHashedIndexKey", col: types}, expr: `{"$type": {"$toHashedIndexKey": []}}`, want: `"long"`},
		{name: "meta with an unknown name", ref: "src/mongo/db/exec/document_value/document_metadata_fields.cpp", cov: cover{op: "$meta"},
			expr: `{"$meta": "nope"}`, code: 17308, msg: invalidProject + "Unsupported argument to $meta: nope"},
		{name: "meta of a number", ref: exprCpp + " (ExpressionMeta::parse)", cov: cover{op: "$meta"}, expr: `{"$meta": 1}`,
			code: 17307, msg: invalidProject + "$meta only supports string arguments"},
	})
}

// The BSON types the object, size and bitwise operators take and give.
func TestExpressionObjectTypes(t *testing.T) {
	mergeFromAcc := "src/mongo/db/pipeline/accumulator_merge_objects.cpp (the expression is ExpressionFromAccumulator<AccumulatorMergeObjects>); " +
		"src/mongo/db/pipeline/expression.h (ExpressionFromAccumulator::evaluate: one array argument is accumulated element by element)"
	doc := `{"_id": 0, "o": {"l": {"$numberLong": "5"}, "dec": {"$numberDecimal": "1.50"}}, "n": null, "i": 1, "s": "x",
		"kv": [["a", {"$numberLong": "1"}], ["b", {"$numberDecimal": "1.5"}]], "badKey": [[1, "x"]]}`
	bitwise := "jstests/aggregation/expressions/bitwise.js"
	runExprCases(t, []exprCase{
		{name: "arrayToObject keeps the values' types", ref: arrayCpp, cov: cover{op: "$arrayToObject", col: types}, doc: doc,
			expr: `{"$arrayToObject": "$kv"}`, want: `{"a": {"$numberLong": "1"}, "b": {"$numberDecimal": "1.5"}}`},
		{name: "arrayToObject with a number key", ref: arrayCpp, cov: cover{op: "$arrayToObject", col: types}, doc: doc,
			expr: `{"$arrayToObject": "$badKey"}`,
			code: 40395, msg: planExecutor + "$arrayToObject requires an array of key-value pairs, where the key must be of type string. Found key type: int"},
		{name: "objectToArray keeps the values' types", ref: arrayCpp, cov: cover{op: "$objectToArray", col: types}, doc: doc,
			expr: `{"$objectToArray": "$o"}`, want: `[{"k": "l", "v": {"$numberLong": "5"}}, {"k": "dec", "v": {"$numberDecimal": "1.50"}}]`},
		{name: "objectToArray of a number", ref: arrayCpp, cov: cover{op: "$objectToArray", col: types}, doc: doc,
			expr: `{"$objectToArray": "$i"}`, code: 40390, msg: planExecutor + "$objectToArray requires a document input, found: int"},
		{name: "mergeObjects keeps the values' types", ref: "src/mongo/db/pipeline/accumulator_merge_objects.cpp", cov: cover{op: "$mergeObjects", col: types},
			doc: doc, expr: `{"$mergeObjects": ["$o", {"l": "$o.dec"}]}`, want: `{"l": {"$numberDecimal": "1.50"}, "dec": {"$numberDecimal": "1.50"}}`},
		{name: "mergeObjects of a number", ref: "src/mongo/db/pipeline/accumulator_merge_objects.cpp", cov: cover{op: "$mergeObjects", col: types},
			doc: doc, expr: `{"$mergeObjects": ["$o", "$i"]}`, code: 40400, msg: planExecutor + "$mergeObjects requires object inputs, but input 1 is of type int"},
		{name: "mergeObjects of one array merges its elements", ref: mergeFromAcc, cov: cover{op: "$mergeObjects"},
			doc: `{"_id": 0, "ds": [{"a": 1, "b": 1}, null, {"b": 2}]}`, expr: `{"$mergeObjects": "$ds"}`, want: `{"a": 1, "b": 2}`},
		{name: "mergeObjects of one array with a number in it", ref: mergeFromAcc, cov: cover{op: "$mergeObjects", col: types},
			doc: `{"_id": 0, "ds": [{"a": 1}, 5]}`, expr: `{"$mergeObjects": ["$ds"]}`,
			code: 40400, msg: planExecutor + "$mergeObjects requires object inputs, but input 5 is of type int"},
		{name: "getField keeps the value's type", ref: getFieldJS, cov: cover{op: "$getField", col: types}, doc: doc,
			expr: `{"$getField": {"field": "dec", "input": "$o"}}`, want: `{"$numberDecimal": "1.50"}`},
		{name: "setField keeps the value's type", ref: setFieldJS, cov: cover{op: "$setField", col: types}, doc: doc,
			expr: `{"$setField": {"field": "x", "input": "$o", "value": {"$numberLong": "3"}}}`,
			want: `{"l": {"$numberLong": "5"}, "dec": {"$numberDecimal": "1.50"}, "x": {"$numberLong": "3"}}`},
		{name: "unsetField of null input is null", ref: setFieldJS, cov: cover{op: "$unsetField", col: types}, doc: doc,
			expr: `{"$unsetField": {"field": "l", "input": "$n"}}`, want: `null`},
		{name: "binarySize of a UUID is an int", ref: "jstests/aggregation/expressions/binarySize.js", cov: cover{op: "$binarySize", col: types},
			expr: `{"$binarySize": {"$binary": {"base64": "AAAAAAAAAAAAAAAAAAAAAA==", "subType": "04"}}}`, want: `16`},
		{name: "binarySize of null", ref: "jstests/aggregation/expressions/binarySize.js", cov: cover{op: "$binarySize", col: types}, doc: doc,
			expr: `{"$binarySize": "$n"}`, want: `null`},
		{name: "meta of a score the document has not is of no type", ref: "src/mongo/db/exec/expression/evaluate_meta.cpp (an absent score is Value())",
			cov: cover{op: "$meta", col: types}, expr: `{"$type": {"$meta": "searchScore"}}`, want: `"missing"`},
		{name: "bitNot of a long is a long", ref: bitwise, cov: cover{op: "$bitNot", col: types}, doc: doc,
			expr: `{"$bitNot": "$o.l"}`, want: `{"$numberLong": "-6"}`},
		{name: "bitXor folds its constants while optimizing", ref: exprCpp + " (ExpressionNary::optimize); src/mongo/db/pipeline/expression.h (ExpressionBitwise is fully associative and commutative)",
			cov: cover{op: "$bitXor"}, doc: doc, expr: `{"$bitXor": ["$n", 1.5, 2]}`,
			code: 14, msg: optimizeError + "$bitXor only supports int and long operands."},
		{name: "bitXor of an int and a long is a long", ref: bitwise, cov: cover{op: "$bitXor", col: types}, doc: doc,
			expr: `{"$bitXor": ["$i", "$o.l"]}`, want: `{"$numberLong": "4"}`},
	})
}

// $function on a mongod without its JavaScript engine, which is what the
// sandbox is (buildInfo says javascriptEngine: "none"): the argument is
// checked when the pipeline is parsed, and running it fails.
func TestExpressionFunction(t *testing.T) {
	ref := "src/mongo/db/pipeline/expression_function.cpp (ExpressionFunction::parse, evaluate); " +
		"src/mongo/db/pipeline/expression_context.h (getJsExecWithScope)"
	refused := planExecutor + "Cannot run server-side javascript without the javascript engine enabled"
	runExprCases(t, []exprCase{
		{name: "running it needs the javascript engine", ref: ref, cov: cover{op: "$function", col: semantics}, doc: objDoc,
			expr: `{"$function": {"body": "function(x) { return x }", "args": ["$i"], "lang": "js"}}`, code: 31264, msg: refused},
		{name: "a body of BSON code", ref: ref, cov: cover{op: "$function", col: types}, doc: objDoc,
			expr: `{"$function": {"body": {"$code": "function() { return 1 }"}, "args": [], "lang": "js"}}`, code: 31264, msg: refused},
		{name: "a body that is a number", ref: ref, cov: cover{op: "$function", col: types},
			expr: `{"$function": {"body": 1, "args": [], "lang": "js"}}`, code: 31262, msg: invalidProject + "The body function must evaluate to type string or code"},
		{name: "not an object", ref: ref, cov: cover{op: "$function"}, expr: `{"$function": [1]}`,
			code: 31260, msg: invalidProject + "$function requires an object as an argument, found: array"},
		{name: "no body", ref: ref, cov: cover{op: "$function"}, expr: `{"$function": {"args": [], "lang": "js"}}`,
			code: 31261, msg: invalidProject + "The body function must be specified."},
		{name: "a body from a field", ref: ref, cov: cover{op: "$function"}, expr: `{"$function": {"body": "$s", "args": [], "lang": "js"}}`,
			code: 31432, msg: invalidProject + "The body function must be a constant expression"},
		{name: "a body from an operator over constants", ref: ref + " (the body is parsed, not optimized)", cov: cover{op: "$function"},
			expr: `{"$function": {"body": {"$concat": ["function() ", "{ return 1 }"]}, "args": [], "lang": "js"}}`,
			code: 31432, msg: invalidProject + "The body function must be a constant expression"},
		{name: "a body through literal", ref: ref, cov: cover{op: "$function", col: types}, doc: objDoc,
			expr: `{"$function": {"body": {"$literal": "function() { return 1 }"}, "args": [], "lang": "js"}}`, code: 31264, msg: refused},
		{name: "no args", ref: ref, cov: cover{op: "$function"}, expr: `{"$function": {"body": "function() {}", "lang": "js"}}`,
			code: 31263, msg: invalidProject + "The args field must be specified."},
		{name: "no lang", ref: ref, cov: cover{op: "$function"}, expr: `{"$function": {"body": "function() {}", "args": []}}`,
			code: 31418, msg: invalidProject + "The lang field must be specified."},
		{name: "another lang", ref: ref, cov: cover{op: "$function"}, expr: `{"$function": {"body": "function() {}", "args": [], "lang": "python"}}`,
			code: 31419, msg: invalidProject + "Currently the only supported language specifier is 'js'."},
	})
}

// $_internalJsEmit, which mapReduce's map becomes, on the same
// JavaScript-less mongod: src/mongo/db/pipeline/expression_js_emit.cpp
// (ExpressionInternalJsEmit::parse, evaluate) and
// jstests/aggregation/expressions/internal_js_emit.js. It was "Unknown
// expression" before, which claimed mongod does not know the name.
func TestExpressionInternalJsEmit(t *testing.T) {
	ref := "src/mongo/db/pipeline/expression_js_emit.cpp; jstests/aggregation/expressions/internal_js_emit.js"
	refused := planExecutor + "Cannot run server-side javascript without the javascript engine enabled"
	runExprCases(t, []exprCase{
		{name: "running it needs the javascript engine", ref: ref, doc: objDoc,
			expr: `{"$_internalJsEmit": {"this": "$$ROOT", "eval": "function() { emit(this._id, 1) }"}}`, code: 31264, msg: refused},
		{name: "eval may be BSON code", ref: ref, doc: objDoc,
			expr: `{"$_internalJsEmit": {"eval": {"$code": "function() {}"}, "this": "$$ROOT"}}`, code: 31264, msg: refused},
		{name: "this must be an object when it runs", ref: ref, doc: objDoc,
			expr: `{"$_internalJsEmit": {"this": "not an object", "eval": "function() {}"}}`, code: 31225, msg: planExecutor + "'this' must be an object."},
		{name: "not an object", ref: ref, expr: `{"$_internalJsEmit": "function() {}"}`,
			code: 31221, msg: invalidProject + "$_internalJsEmit requires an object as an argument, found: string"},
		{name: "no eval", ref: ref, expr: `{"$_internalJsEmit": {"this": "$$ROOT"}}`,
			code: 31222, msg: invalidProject + "The map function must be specified."},
		{name: "eval of the wrong type", ref: ref, expr: `{"$_internalJsEmit": {"this": "$$ROOT", "eval": 1}}`,
			code: 31224, msg: invalidProject + "The map function must be of type string or code"},
		{name: "no this", ref: ref, expr: `{"$_internalJsEmit": {"eval": "function() {}"}}`,
			code: 31223, msg: invalidProject + "$_internalJsEmit requires 'this' to be specified"},
	})
}

// The expressions that run JavaScript refuse to be parsed in a collection
// validator (ExpressionFunction::parse and ExpressionInternalJsEmit::parse
// check isParsingCollectionValidator first); jstests/core/
// doc_validation_invalid_validators.js.
func TestJavaScriptExpressionsInValidators(t *testing.T) {
	ref := "src/mongo/db/pipeline/expression_function.cpp, expression_js_emit.cpp (parse); jstests/core/doc_validation_invalid_validators.js"
	const failed = "Parsing of collection validator failed :: caused by :: "
	runCmdCases(t, []cmdCase{
		{name: "$function in a validator", ref: ref, cov: cover{family: expression, op: "$function", col: errorCol},
			cmd:  `{"create": "v", "validator": {"$expr": {"$function": {"body": "function() { return true }", "args": [], "lang": "js"}}}}`,
			code: 4660800, msg: failed + "$function cannot be used inside a validator."},
		{name: "$function in a validator is refused before its argument is read", ref: ref, cov: cover{family: expression, op: "$function", col: errorCol},
			cmd:  `{"create": "v", "validator": {"$expr": {"$function": 1}}}`,
			code: 4660800, msg: failed + "$function cannot be used inside a validator."},
		{name: "$_internalJsEmit in a validator", ref: ref, cov: cover{family: expression, op: "$function", col: errorCol},
			cmd:  `{"create": "v", "validator": {"$expr": {"$_internalJsEmit": {"eval": "function() {}", "this": {}}}}}`,
			code: 4660801, msg: failed + "$_internalJsEmit cannot be used inside a validator."},
		{name: "$function in a validator nested under another operator", ref: ref, cov: cover{family: expression, op: "$function", col: errorCol},
			cmd:  `{"create": "v", "validator": {"$expr": {"$let": {"vars": {"x": 1}, "in": {"$function": {"body": "f", "args": [], "lang": "js"}}}}}}`,
			code: 4660800, msg: failed + "$function cannot be used inside a validator."},
	})
}

// The sharding helpers 8.0 registers as expressions parse as there; their
// evaluation needs a cluster's routing table or mongod's index key
// generator, and is refused (ExpressionInternalOwningShard,
// ExpressionInternalIndexKey in src/mongo/db/pipeline/). They were
// "Unknown expression" before.
func TestExpressionInternalShardingHelpers(t *testing.T) {
	ref := "src/mongo/db/pipeline/ (ExpressionInternalOwningShard::evaluate, ExpressionInternalIndexKey::parse)"
	refusedOwning := planExecutor + "$_internalOwningShard is not supported by the schemalab sandbox; run this step against a real MongoDB with --uri"
	refusedKey := planExecutor + "$_internalIndexKey is not supported by the schemalab sandbox; run this step against a real MongoDB with --uri"
	runExprCases(t, []exprCase{
		{name: "owningShard of null is null", ref: ref, doc: objDoc, expr: `{"$_internalOwningShard": "$nope"}`, want: `null`},
		{name: "owningShard of a document is refused", ref: ref, doc: objDoc,
			expr: `{"$_internalOwningShard": "$$ROOT"}`, code: 238, msg: refusedOwning},
		{name: "owningShard takes one argument", ref: ref, expr: `{"$_internalOwningShard": [1, 2]}`,
			code: 16020, msg: invalidProject + "Expression $_internalOwningShard takes exactly 1 arguments. 2 were passed in."},
		{name: "indexKey is refused when it runs", ref: ref, doc: objDoc,
			expr: `{"$_internalIndexKey": {"doc": "$$ROOT", "spec": {"key": {"i": 1}, "name": "i_1", "v": 2}}}`, code: 238, msg: refusedKey},
		{name: "indexKey needs an object", ref: ref, expr: `{"$_internalIndexKey": 1}`,
			code: 6868506, msg: invalidProject + "$_internalIndexKey supports an object as its argument"},
		{name: "indexKey spec must be an object", ref: ref, expr: `{"$_internalIndexKey": {"doc": {}, "spec": 1}}`,
			code: 6868507, msg: invalidProject + "$_internalIndexKey requires 'spec' argument to be an object"},
		{name: "indexKey refuses an unknown argument", ref: ref, expr: `{"$_internalIndexKey": {"doc": {}, "x": 1}}`,
			code: 6868508, msg: invalidProject + "Unknown argument: xfound while parsing$_internalIndexKey"},
		{name: "indexKey needs doc and spec", ref: ref, expr: `{"$_internalIndexKey": {"doc": {}}}`,
			code: 6868509, msg: invalidProject + "$_internalIndexKey requires both 'doc' and 'spec' arguments"},
	})
}
