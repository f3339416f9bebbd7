package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The update operator sweep: the numeric types each operator's result has
// (types), what the tables of update_test.go leave out (semantics), and
// the arguments each operator refuses (errors). The facts come from
// mongod's update nodes (src/mongo/db/update/*_node.cpp, arithmetic_node,
// bit_node, compare_node, current_date_node, pop_node, push_node,
// rename_node, set_node, unset_node, addtoset_node, pull_node,
// pullall_node) and the manual's operator pages.

const (
	arithRef   = "src/mongo/db/update/arithmetic_node.cpp; src/mongo/util/safe_num.cpp; manual: reference/operator/update/inc, update/mul"
	bitRef     = "src/mongo/db/update/bit_node.cpp; manual: reference/operator/update/bit"
	compareRef = "src/mongo/db/update/compare_node.cpp; manual: reference/operator/update/min, update/max"
	dateRef    = "src/mongo/db/update/current_date_node.cpp; manual: reference/operator/update/currentDate"
	pushRef    = "src/mongo/db/update/push_node.cpp; manual: reference/operator/update/push, update/each, update/slice, update/sort, update/position"
	setRef     = "src/mongo/db/update/set_node.cpp, unset_node.cpp, modifier_node.cpp; manual: reference/operator/update/set, update/unset, update/setOnInsert"
	arrOpsRef  = "src/mongo/db/update/addtoset_node.cpp, pull_node.cpp, pullall_node.cpp, pop_node.cpp; manual: reference/operator/update-array"
	renameRef  = "src/mongo/db/update/rename_node.cpp; manual: reference/operator/update/rename"
	upsertRef  = "src/mongo/db/update/update_driver.cpp (populateDocumentWithQueryFields), src/mongo/db/query/canonical_query... ; manual: reference/method/db.collection.updateOne (upsert); jstests/core/write/upsert/upsert_fields.js"
	pathRef    = "src/mongo/db/update/update_object_node.cpp, src/mongo/db/update/field_checker.cpp"
	replaceRef = "src/mongo/db/update/object_replace_executor.cpp; src/mongo/db/storage_validation.cpp"
	filtersRef = "src/mongo/db/ops/parsed_update.cpp (parseArrayFilters: MatchExpressionParser::kBanAllSpecialFeatures), src/mongo/db/matcher/expression_with_placeholder.cpp; src/mongo/db/matcher/expression_parser.cpp (parseExpr, parseWhere)"
)

func TestUpdateOperatorTypes(t *testing.T) {
	up := func(op string) cover { return cover{family: update, op: op, col: types} }
	one := func(doc string) string { return `[{"_id":1,` + doc + `}]` }
	runUpdateCases(t, []updateCase{
		{name: "$inc int by long is long", ref: arithRef, cov: up("$inc"), docs: one(`"a":1`), update: `{"$inc":{"a":{"$numberLong":"2"}}}`, want: one(`"a":{"$numberLong":"3"}`)},
		{name: "$inc long by int stays long", ref: arithRef, cov: up("$inc"), docs: one(`"a":{"$numberLong":"1"}`), update: `{"$inc":{"a":2}}`, want: one(`"a":{"$numberLong":"3"}`)},
		{name: "$inc int by double is double", ref: arithRef, cov: up("$inc"), docs: one(`"a":1`), update: `{"$inc":{"a":2.0}}`, want: one(`"a":3.0`)},
		{name: "$inc double by decimal is decimal", ref: arithRef, cov: up("$inc"), docs: one(`"a":1.5`), update: `{"$inc":{"a":{"$numberDecimal":"1"}}}`, want: one(`"a":{"$numberDecimal":"2.50000000000000"}`)},
		{name: "$inc a missing field takes the operand's type", ref: arithRef, cov: up("$inc"), docs: one(`"b":1`), update: `{"$inc":{"a":{"$numberLong":"5"}}}`, want: one(`"b":1,"a":{"$numberLong":"5"}`)},
		{name: "$inc long overflow fails", ref: arithRef, docs: one(`"a":{"$numberLong":"9223372036854775807"}`), update: `{"$inc":{"a":1}}`,
			code: mongoerr.BadValue, msg: "Failed to apply $inc operations to current value ((NumberLong)9223372036854775807) for document {_id: 1}"},
		{name: "$mul int by int beyond int32 is long", ref: arithRef, cov: up("$mul"), docs: one(`"a":65536`), update: `{"$mul":{"a":65536}}`, want: one(`"a":{"$numberLong":"4294967296"}`)},
		{name: "$mul long by double is double", ref: arithRef, cov: up("$mul"), docs: one(`"a":{"$numberLong":"3"}`), update: `{"$mul":{"a":0.5}}`, want: one(`"a":1.5`)},
		{name: "$mul a missing field by a decimal", ref: arithRef, cov: up("$mul"), docs: one(`"b":1`), update: `{"$mul":{"a":{"$numberDecimal":"7"}}}`, want: one(`"b":1,"a":{"$numberDecimal":"0"}`)},
		{name: "$mul by 1 of another type changes the type", ref: arithRef, cov: up("$mul"), docs: one(`"a":2`), update: `{"$mul":{"a":{"$numberLong":"1"}}}`, want: one(`"a":{"$numberLong":"2"}`), modified: `1`},
		{name: "$set to 1.0 over 1 is a change", ref: setRef, cov: up("$set"), docs: one(`"a":1`), update: `{"$set":{"a":1.0}}`, want: one(`"a":1.0`), modified: `1`},
		{name: "$set decimal 1.0 over decimal 1 is a change", ref: setRef, cov: up("$set"), docs: one(`"a":{"$numberDecimal":"1"}`), update: `{"$set":{"a":{"$numberDecimal":"1.0"}}}`, want: one(`"a":{"$numberDecimal":"1.0"}`), modified: `1`},
		{name: "$setOnInsert keeps the value's type", ref: setRef, cov: up("$setOnInsert"), filter: `{"_id":1}`, upsert: true, update: `{"$setOnInsert":{"d":{"$date":"2020-01-01T00:00:00Z"},"n":{"$numberLong":"1"}}}`,
			want: one(`"d":{"$date":"2020-01-01T00:00:00Z"},"n":{"$numberLong":"1"}`)},
		{name: "$unset whatever the value's type", ref: setRef, cov: up("$unset"), docs: one(`"a":{"$minKey":1},"b":[1],"c":null`), update: `{"$unset":{"a":"","b":0,"c":{"x":1}}}`, want: `[{"_id":1}]`},
		{name: "$min across types follows the BSON order", ref: compareRef, cov: up("$min"), docs: one(`"a":"x","b":1`), update: `{"$min":{"a":5,"b":{"$numberLong":"1"}}}`, want: one(`"a":5,"b":1`), modified: `1`},
		{name: "$max of a number over null", ref: compareRef, cov: up("$max"), docs: one(`"a":null`), update: `{"$max":{"a":0}}`, want: one(`"a":0`)},
		{name: "$max equal values of other types leave the field", ref: compareRef, cov: up("$max"), docs: one(`"a":{"$numberDecimal":"2"}`), update: `{"$max":{"a":2.0}}`, want: one(`"a":{"$numberDecimal":"2"}`), modified: `0`},
		{name: "$bit on a long with an int operand is long", ref: bitRef, cov: up("$bit"), docs: one(`"a":{"$numberLong":"12"}`), update: `{"$bit":{"a":{"and":10}}}`, want: one(`"a":{"$numberLong":"8"}`)},
		{name: "$bit on an int with a long operand is long", ref: bitRef, cov: up("$bit"), docs: one(`"a":12`), update: `{"$bit":{"a":{"or":{"$numberLong":"1"}}}}`, want: one(`"a":{"$numberLong":"13"}`)},
		{name: "$bit on a double fails", ref: bitRef, docs: one(`"a":1.0`), update: `{"$bit":{"a":{"xor":1}}}`,
			code: mongoerr.BadValue, msg: "Cannot apply $bit to a value of non-integral type.{_id: 1} has the field a of non-integer type double"},
		{name: "$push values of any type", ref: pushRef, cov: up("$push"), docs: one(`"a":[1]`), update: `{"$push":{"a":{"$each":[{"$numberLong":"2"},"s",null,{"x":1}]}}}`, want: one(`"a":[1,{"$numberLong":"2"},"s",null,{"x":1}]`)},
		{name: "$push $sort orders across types", ref: pushRef, cov: up("$push"), docs: one(`"a":["b",2,null,{"x":1},1.5]`), update: `{"$push":{"a":{"$each":[],"$sort":1}}}`, want: one(`"a":[null,1.5,2,"b",{"x":1}]`)},
		{name: "$push $slice and $position accept a long and a double", ref: pushRef, cov: up("$push"), docs: one(`"a":[1,2,3]`), update: `{"$push":{"a":{"$each":[9],"$slice":{"$numberLong":"3"},"$position":1.0}}}`, want: one(`"a":[1,9,2]`)},
		{name: "$addToSet compares numbers by value", ref: arrOpsRef, cov: up("$addToSet"), docs: one(`"a":[1,"1"]`), update: `{"$addToSet":{"a":{"$each":[{"$numberLong":"1"},{"$numberDecimal":"1.0"},"1",true]}}}`, want: one(`"a":[1,"1",true]`)},
		{name: "$pull by value across numeric types", ref: arrOpsRef, cov: up("$pull"), docs: one(`"a":[1,{"$numberLong":"1"},1.5,"1"]`), update: `{"$pull":{"a":1.0}}`, want: one(`"a":[1.5,"1"]`)},
		{name: "$pull with a $type condition", ref: arrOpsRef, cov: up("$pull"), docs: one(`"a":[1,"x",2.5,null]`), update: `{"$pull":{"a":{"$type":"number"}}}`, want: one(`"a":["x",null]`)},
		{name: "$pullAll compares documents exactly", ref: arrOpsRef, cov: up("$pullAll"), docs: one(`"a":[{"x":1,"y":2},{"y":2,"x":1},1]`), update: `{"$pullAll":{"a":[{"x":1,"y":2},{"$numberLong":"1"}]}}`, want: one(`"a":[{"y":2,"x":1}]`)},
		{name: "$pop accepts a long and a double", ref: arrOpsRef, cov: up("$pop"), docs: one(`"a":[1,2,3],"b":[1,2,3]`), update: `{"$pop":{"a":{"$numberLong":"-1"},"b":1.0}}`, want: one(`"a":[2,3],"b":[1,2]`)},
		{name: "a pipeline's numeric results keep mongod's types", ref: "src/mongo/db/update/pipeline_executor.cpp; manual: tutorial/update-documents-with-aggregation-pipeline",
			cov: cover{family: update, op: "pipeline", col: types}, docs: one(`"a":1,"b":{"$numberLong":"2"}`),
			update: `[{"$set":{"s":{"$add":["$a","$b"]},"d":{"$divide":["$a",2]},"n":{"$toDecimal":"$a"}}}]`,
			want:   one(`"a":1,"b":{"$numberLong":"2"},"s":{"$numberLong":"3"},"d":0.5,"n":{"$numberDecimal":"1"}`)},
		{name: "a replacement stores its values' types", ref: replaceRef, cov: cover{family: update, op: "replacement", col: types}, docs: one(`"a":1`),
			update: `{"a":{"$numberLong":"1"},"d":{"$numberDecimal":"1.0"},"t":{"$timestamp":{"t":1,"i":2}}}`,
			want:   one(`"a":{"$numberLong":"1"},"d":{"$numberDecimal":"1.0"},"t":{"$timestamp":{"t":1,"i":2}}`), modified: `1`},
		{name: "$rename keeps the value's type", ref: renameRef, cov: up("$rename"), docs: one(`"a":{"$numberDecimal":"1.5"}`), update: `{"$rename":{"a":"b"}}`, want: one(`"b":{"$numberDecimal":"1.5"}`)},
	})
}

func TestUpdateOperatorSemantics(t *testing.T) {
	up := func(op string) cover { return cover{family: update, op: op, col: semantics} }
	one := func(doc string) string { return `[{"_id":1,` + doc + `}]` }
	runUpdateCases(t, []updateCase{
		{name: "$bit and, or, xor in order", ref: bitRef, docs: one(`"a":13`), update: `{"$bit":{"a":{"and":10,"or":5,"xor":1}}}`, want: one(`"a":12`)},
		{name: "$bit on a missing field starts from 0", ref: bitRef, docs: one(`"b":1`), update: `{"$bit":{"a":{"or":6}}}`, want: one(`"b":1,"a":6`)},
		{name: "$bit that changes nothing", ref: bitRef, docs: one(`"a":6`), update: `{"$bit":{"a":{"or":2}}}`, want: one(`"a":6`), modified: `0`},
		{name: "$bit through an array index", ref: bitRef, docs: one(`"a":[1,2]`), update: `{"$bit":{"a.1":{"or":1}}}`, want: one(`"a":[1,3]`)},
		{name: "$unset of an array element leaves null", ref: setRef, cov: up("$unset"), docs: one(`"a":[1,2,3]`), update: `{"$unset":{"a.1":1}}`, want: one(`"a":[1,null,3]`)},
		{name: "$setOnInsert on an upsert that inserts", ref: setRef, filter: `{"_id":7}`, upsert: true, update: `{"$setOnInsert":{"a":1},"$set":{"b":2}}`, want: `[{"_id":7,"a":1,"b":2}]`},
		{name: "$min on a missing field sets it", ref: compareRef, docs: one(`"b":1`), update: `{"$min":{"a":3}}`, want: one(`"b":1,"a":3`)},
		{name: "$max into a new embedded field", ref: compareRef, docs: one(`"b":1`), update: `{"$max":{"n.m":3}}`, want: one(`"b":1,"n":{"m":3}`)},
		{name: "$mul through an array index", ref: arithRef, docs: one(`"a":[1,2]`), update: `{"$mul":{"a.1":3}}`, want: one(`"a":[1,6]`)},
		{name: "$rename into an embedded document", ref: renameRef, docs: one(`"a":1,"n":{"x":1}`), update: `{"$rename":{"a":"n.a"}}`, want: one(`"n":{"x":1,"a":1}`)},
		{name: "$addToSet of an array adds it whole", ref: arrOpsRef, docs: one(`"a":[1]`), update: `{"$addToSet":{"a":[1]}}`, want: one(`"a":[1,[1]]`)},
		{name: "$pop on an empty array", ref: arrOpsRef, docs: one(`"a":[]`), update: `{"$pop":{"a":-1}}`, want: one(`"a":[]`), modified: `0`},
		{name: "$pullAll of nothing present", ref: arrOpsRef, docs: one(`"a":[1,2]`), update: `{"$pullAll":{"a":[3]}}`, want: one(`"a":[1,2]`), modified: `0`},
		{name: "$push $slice 0 empties", ref: pushRef, docs: one(`"a":[1,2]`), update: `{"$push":{"a":{"$each":[3],"$slice":0}}}`, want: one(`"a":[]`)},
		{name: "$inc a field inside each element with $[]", ref: arithRef, cov: up("$inc"), docs: one(`"a":[{"n":1},{"n":2}]`), update: `{"$inc":{"a.$[].n":10}}`, want: one(`"a":[{"n":11},{"n":12}]`)},
		{name: "upsert seeds equalities from $and and $eq", ref: upsertRef, cov: up("$set"), filter: `{"$and":[{"a":1},{"b":{"$eq":2}}],"c.d":3,"_id":9}`, upsert: true,
			update: `{"$set":{"z":1}}`, want: `[{"_id":9,"a":1,"b":2,"c":{"d":3},"z":1}]`},
		{name: "upsert ignores $nor, $or of two and ranges", ref: upsertRef, cov: up("$set"), filter: `{"$nor":[{"a":1}],"$or":[{"b":1},{"b":2}],"c":{"$gt":1},"_id":5}`, upsert: true,
			update: `{"$set":{"z":1}}`, want: `[{"_id":5,"z":1}]`},
		{name: "upsert seeds a one-element $or, $in and $all", ref: upsertRef, cov: up("$set"), filter: `{"$or":[{"a":1}],"b":{"$in":[2]},"c":{"$all":[3]},"_id":6}`, upsert: true,
			update: `{"$set":{"z":1}}`, want: `[{"_id":6,"a":1,"b":2,"c":3,"z":1}]`},
		{name: "upsert does not seed $elemMatch", ref: upsertRef, cov: up("$set"), filter: `{"a":{"$elemMatch":{"x":1}},"_id":7}`, upsert: true,
			update: `{"$set":{"z":1}}`, want: `[{"_id":7,"z":1}]`},
		{name: "a replacement upsert keeps only the query's _id", ref: upsertRef, cov: cover{family: update, op: "replacement", col: semantics}, filter: `{"_id":8,"a":1}`, upsert: true,
			update: `{"b":2}`, want: `[{"_id":8,"b":2}]`},
	})
}

// $currentDate's value is the server's clock: the cases check the types
// it stores.
func TestUpdateCurrentDate(t *testing.T) {
	runCmdCases(t, []cmdCase{
		{name: "$currentDate true and {$type: date} store dates", ref: dateRef, cov: cover{family: update, op: "$currentDate", col: types},
			docs: `[{"_id":1,"a":1}]`, cmd: `{"update":"c","updates":[{"q":{"_id":1},"u":{"$currentDate":{"a":true,"b":{"$type":"date"}}}}]}`,
			want:     `{"n":1,"nModified":1}`,
			thenFind: `{"find":"c","projection":{"a":{"$type":"$a"},"b":{"$type":"$b"}}}`, thenWant: `[{"_id":1,"a":"date","b":"date"}]`},
		{name: "$currentDate {$type: timestamp} stores a timestamp", ref: dateRef, cov: cover{family: update, op: "$currentDate", col: semantics},
			docs: `[{"_id":1,"a":1}]`, cmd: `{"update":"c","updates":[{"q":{"_id":1},"u":{"$currentDate":{"a":{"$type":"timestamp"},"n.d":true}}}]}`,
			want:     `{"n":1,"nModified":1}`,
			thenFind: `{"find":"c","projection":{"a":{"$type":"$a"},"d":{"$type":"$n.d"}}}`, thenWant: `[{"_id":1,"a":"timestamp","d":"date"}]`},
	})
}

func TestUpdateOperatorErrors(t *testing.T) {
	one := func(doc string) string { return `[{"_id":1,` + doc + `}]` }
	runUpdateCases(t, []updateCase{
		{name: "$bit with no operation", ref: bitRef, docs: one(`"a":1`), update: `{"$bit":{"a":{}}}`,
			code: mongoerr.BadValue, msg: "You must pass in at least one bitwise operation. The format is: {$bit: {field: {and/or/xor: #}}"},
		{name: "$bit with an unknown operation", ref: bitRef, docs: one(`"a":1`), update: `{"$bit":{"a":{"not":1}}}`,
			code: mongoerr.BadValue, msg: "The $bit modifier only supports 'and', 'or', and 'xor', not 'not' which is an unknown operator: {not: 1}"},
		{name: "$bit with a string operand", ref: bitRef, docs: one(`"a":1`), update: `{"$bit":{"a":{"and":"x"}}}`,
			code: mongoerr.BadValue, msg: "The $bit modifier field must be an Integer(32/64 bit); a 'string' is not supported here: {and: \"x\"}"},
		{name: "$bit not a document", ref: bitRef, docs: one(`"a":1`), update: `{"$bit":{"a":"and"}}`,
			code: mongoerr.BadValue, msg: "The $bit modifier is not compatible with a string. You must pass in an embedded document: {$bit: {field: {and/or/xor: #}}"},
		{name: "$currentDate with a number", ref: dateRef, docs: one(`"a":1`), update: `{"$currentDate":{"a":1}}`,
			code: mongoerr.BadValue, msg: "int is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'})."},
		{name: "$currentDate with an unknown $type", ref: dateRef, docs: one(`"a":1`), update: `{"$currentDate":{"a":{"$type":"month"}}}`,
			code: mongoerr.BadValue, msg: "The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}"},
		{name: "$currentDate with another option", ref: dateRef, docs: one(`"a":1`), update: `{"$currentDate":{"a":{"x":1}}}`,
			code: mongoerr.BadValue, msg: "Unrecognized $currentDate option: x"},
		{name: "$max through a scalar", ref: compareRef, docs: one(`"a":1`), update: `{"$max":{"a.b":1}}`,
			code: mongoerr.PathNotViable, msg: "Cannot create field 'b' in element {a: 1}"},
		{name: "$min on _id", ref: setRef, docs: one(`"a":1`), update: `{"$min":{"_id":0}}`,
			code: mongoerr.ImmutableField, msg: "Performing an update on the path '_id' would modify the immutable field '_id'"},
		{name: "$mul by a string", ref: arithRef, docs: one(`"a":1`), update: `{"$mul":{"a":"2"}}`,
			code: mongoerr.TypeMismatch, msg: "Cannot multiply with non-numeric argument: {a: \"2\"}"},
		{name: "$mul a string", ref: arithRef, docs: one(`"a":"x"`), update: `{"$mul":{"a":2}}`,
			code: mongoerr.TypeMismatch, msg: "Cannot apply $mul to a value of non-numeric type. {_id: 1} has the field 'a' of non-numeric type string"},
		{name: "$setOnInsert conflicting with $set", ref: setRef, docs: one(`"a":1`), update: `{"$setOnInsert":{"a":1},"$set":{"a":2}}`,
			code: mongoerr.ConflictingUpdateOperators, msg: "Updating the path 'a' would create a conflict at 'a'"},
		{name: "$unset of _id", ref: setRef, docs: one(`"a":1`), update: `{"$unset":{"_id":1}}`,
			code: mongoerr.ImmutableField, msg: "Performing an update on the path '_id' would modify the immutable field '_id'"},
		{name: "$unset of an empty path element", ref: pathRef, docs: one(`"a":1`), update: `{"$unset":{"a..b":1}}`,
			code: mongoerr.EmptyFieldName, msg: "The update path 'a..b' contains an empty field name, which is not allowed."},
		{name: "$rename to a non-string", ref: renameRef, docs: one(`"a":1`), update: `{"$rename":{"a":1}}`,
			code: mongoerr.BadValue, msg: "The 'to' field for $rename must be a string: a: 1"},
		{name: "$rename from an array element", ref: renameRef, docs: one(`"a":[1]`), update: `{"$rename":{"a.0":"b"}}`,
			code: mongoerr.BadValue, msg: "The source field cannot be an array element, 'a.0' in doc with _id: 1 has an array field called 'a'"},
		{name: "$rename onto a sub-path of itself", ref: renameRef, docs: one(`"a":{"b":1}`), update: `{"$rename":{"a":"a.b"}}`,
			code: mongoerr.BadValue, msg: "The source and target field for $rename must not be on the same path: a: \"a.b\""},
		{name: "$pop of a string", ref: arrOpsRef, docs: one(`"a":[1]`), update: `{"$pop":{"a":"x"}}`,
			code: mongoerr.FailedToParse, msg: "Expected a number in: a: \"x\""},
		{name: "$pop of a non-array", ref: arrOpsRef, docs: one(`"a":1`), update: `{"$pop":{"a":1}}`,
			code: mongoerr.TypeMismatch, msg: "Path 'a' contains an element of non-array type 'int'"},
		{name: "$pull from a non-array", ref: arrOpsRef, docs: one(`"a":1`), update: `{"$pull":{"a":1}}`,
			code: mongoerr.BadValue, msg: "Cannot apply $pull to a non-array value"},
		{name: "$pull with a condition that is no operator", ref: arrOpsRef, docs: one(`"a":[1]`), update: `{"$pull":{"a":{"$foo":1}}}`,
			code: mongoerr.BadValue, msg: "unknown top level operator: $foo. If you have a field name that starts with a '$' symbol, consider using $getField or $setField."},
		{name: "$pullAll from a non-array", ref: arrOpsRef, docs: one(`"a":1`), update: `{"$pullAll":{"a":[1]}}`,
			code: mongoerr.BadValue, msg: "Cannot apply $pull to a non-array value"},
		{name: "$addToSet to a non-array", ref: arrOpsRef, docs: one(`"a":1`), update: `{"$addToSet":{"a":2}}`,
			code: mongoerr.BadValue, msg: "Cannot apply $addToSet to non-array field. Field named 'a' has non-array type int"},
		{name: "$push with an unknown clause", ref: pushRef, docs: one(`"a":[1]`), update: `{"$push":{"a":{"$each":[2],"$foo":1}}}`,
			code: mongoerr.BadValue, msg: "Unrecognized clause in $push: $foo"},
		{name: "$push $sort of 2", ref: pushRef, docs: one(`"a":[1]`), update: `{"$push":{"a":{"$each":[2],"$sort":2}}}`,
			code: mongoerr.BadValue, msg: "The $sort element value must be either 1 or -1"},
		{name: "$push $position not whole", ref: pushRef, docs: one(`"a":[1]`), update: `{"$push":{"a":{"$each":[2],"$position":1.5}}}`,
			code: mongoerr.BadValue, msg: "The value for $position must be an integer value, not of type: double"},
		{name: "$set with two positional operators", ref: pathRef, cov: cover{family: update, op: "$set", col: errorCol}, docs: one(`"a":[{"b":[1]}]`), filter: `{"a.b":1}`, update: `{"$set":{"a.$.b.$":2}}`,
			code: mongoerr.BadValue, msg: "Too many positional (i.e. '$') elements found in path 'a.$.b.$'"},
		{name: "$[] on a non-array", ref: pathRef, cov: cover{family: update, op: "$inc", col: errorCol}, docs: one(`"a":1`), update: `{"$inc":{"a.$[]":1}}`,
			code: mongoerr.BadValue, msg: "Cannot apply array updates to non-array element a: 1"},
		{name: "an array filter naming no valid identifier", ref: pathRef, cov: cover{family: update, op: "$set", col: errorCol}, docs: one(`"a":[1]`), update: `{"$set":{"a.$[E]":0}}`, arrayFilters: `[{"E":1}]`,
			code: mongoerr.BadValue, msg: "Error parsing array filter :: caused by :: The top-level field name must be an alphanumeric string beginning with a lowercase letter, found 'E'"},
		{name: "two array filters with one identifier", ref: pathRef, cov: cover{family: update, op: "$set", col: errorCol}, docs: one(`"a":[1]`), update: `{"$set":{"a.$[e]":0}}`, arrayFilters: `[{"e":1},{"e":2}]`,
			code: mongoerr.FailedToParse, msg: "Found multiple array filters with the same top-level field name e"},
		{name: "an array filter of $expr alone", ref: filtersRef, cov: cover{family: update, op: "$set", col: errorCol}, docs: one(`"a":[1]`), update: `{"$set":{"a.$[e]":0}}`,
			arrayFilters: `[{"$expr":{"$eq":["$$e",1]}}]`, code: mongoerr.QueryFeatureNotAllowed, msg: "Error parsing array filter :: caused by :: $expr is not allowed in this context"},
		{name: "an array filter with $where", ref: filtersRef, cov: cover{family: update, op: "$set", col: errorCol}, docs: one(`"a":[1]`), update: `{"$set":{"a.$[e]":0}}`,
			arrayFilters: `[{"e":1,"$where":"true"}]`, code: mongoerr.BadValue, msg: "Error parsing array filter :: caused by :: $where is not allowed in this context"},
		{name: "an array filter naming two identifiers", ref: filtersRef, cov: cover{family: update, op: "$set", col: errorCol}, docs: one(`"a":[1]`), update: `{"$set":{"a.$[e]":0}}`,
			arrayFilters: `[{"$or":[{"e":1},{"f":2}]}]`, code: mongoerr.FailedToParse, msg: "Error parsing array filter :: caused by :: Expected a single top-level field name, found 'e' and 'f'"},
		{name: "an array filter naming no field", ref: filtersRef, cov: cover{family: update, op: "$set", col: errorCol}, docs: one(`"a":[1]`), update: `{"$set":{"a.$[e]":0}}`,
			arrayFilters: `[{}]`, code: mongoerr.FailedToParse, msg: "Cannot use an expression without a top-level field name in arrayFilters"},
		{name: "$[] through a missing field", ref: pathRef + ", update_array_node.cpp", cov: cover{family: update, op: "$set", col: errorCol}, docs: one(`"a":[1]`), update: `{"$set":{"z.$[]":0}}`,
			code: mongoerr.BadValue, msg: "The path 'z' must exist in the document in order to apply array updates."},
		{name: "$rename from an array-filtered path", ref: renameRef, cov: cover{family: update, op: "$rename", col: errorCol}, docs: one(`"a":[1]`), update: `{"$rename":{"a.$[]":"b"}}`,
			code: mongoerr.BadValue, msg: "The source field for $rename may not be dynamic: a.$[]"},
		{name: "$rename to a positional path", ref: renameRef, cov: cover{family: update, op: "$rename", col: errorCol}, docs: one(`"a":1`), update: `{"$rename":{"a":"b.$"}}`,
			code: mongoerr.BadValue, msg: "The destination field for $rename may not be dynamic: b.$"},
		{name: "$rename into an array of documents", ref: renameRef, cov: cover{family: update, op: "$rename", col: errorCol}, docs: one(`"s":1,"d":[{"x":1}]`), update: `{"$rename":{"s":"d.x"}}`,
			code: mongoerr.BadValue, msg: "The destination field cannot be an array element, 'd.x' in doc with _id: 1 has an array field called 'd'"},
		{name: "a replacement with an operator field", ref: replaceRef, docs: one(`"a":1`), update: `{"a":2,"$set":{"b":1}}`,
			code: mongoerr.DollarPrefixedFieldName, msg: "The dollar ($) prefixed field '$set' in '$set' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith."},
		{name: "a multi update with a replacement", ref: "src/mongo/db/ops/parsed_update.cpp", cov: cover{family: update, op: "replacement", col: errorCol}, docs: one(`"a":1`), update: `{"b":1}`, multi: true,
			code: mongoerr.FailedToParse, msg: "multi update is not supported for replacement-style update"},
		{name: "an upsert matching a path twice", ref: upsertRef, cov: cover{family: update, op: "$set", col: errorCol}, filter: `{"x":{"$all":[1,2]}}`, upsert: true, update: `{"$set":{"c":1}}`,
			code: mongoerr.NotSingleValueField, msg: "cannot infer query fields to set, path 'x' is matched twice"},
		// A replacement upsert takes only _id from the filter
		// (extractFullEqualityMatches on the immutable _id): a field inside
		// _id cannot seed it, and other paths are not read at all.
		{name: "a replacement upsert on fields inside _id", ref: upsertRef + "; src/mongo/db/field_ref_set.cpp (checkPathIsPrefixOf); jstests/core/write/update/upsert_fields.js",
			cov: cover{family: update, op: "replacement", col: errorCol}, filter: `{"_id.x":1,"_id.y":2}`, upsert: true, update: `{"a":1}`,
			code: mongoerr.NotExactValueField, msg: "field at '_id' must be exactly specified, field at sub-path '_id.x'found"},
		{name: "an operator upsert on fields inside _id builds _id from them", ref: upsertRef + "; jstests/core/write/update/upsert_fields.js",
			cov: cover{family: update, op: "$set", col: semantics}, filter: `{"_id.x":1,"_id.y":2}`, upsert: true, update: `{"$set":{"a":1}}`,
			want: `[{"_id":{"x":1,"y":2},"a":1}]`},
		{name: "a replacement upsert ignores a path matched with its parent", ref: upsertRef,
			cov: cover{family: update, op: "replacement", col: semantics}, filter: `{"_id":7,"x":5,"x.y":6}`, upsert: true, update: `{"a":1}`,
			want: `[{"_id":7,"a":1}]`},
		{name: "an upsert matching a path and its parent", ref: upsertRef, cov: cover{family: update, op: "$set", col: errorCol}, filter: `{"x":5,"x.y":6}`, upsert: true, update: `{"$set":{"c":1}}`,
			code: mongoerr.NotSingleValueField, msg: "cannot infer query fields to set, both paths 'x.y' and 'x' are matched"},
	})
}
