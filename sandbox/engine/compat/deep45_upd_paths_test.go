package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Deep sweep 45 (upd): the modifiers that set values ($set, $unset,
// $setOnInsert, $min, $max, $currentDate), paths through arrays and
// missing parents, the positional operators and arrayFilters, conflicting
// paths and upserts, against mongod's update nodes and UpdateObjectNode /
// UpdateArrayNode (src/mongo/db/update/update_object_node.cpp,
// update_array_node.cpp, path_support.cpp createPathAt) and the upsert
// stage (src/mongo/db/exec/upsert_stage.cpp, update_driver.cpp
// populateDocumentWithQueryFields).
const (
	upd45SetRef      = "src/mongo/db/update/set_node.cpp, unset_node.cpp, modifier_node.cpp; src/mongo/db/update/path_support.cpp (createPathAt); jstests/core/write/update/update_arraymatch*.js"
	upd45CompareRef  = "src/mongo/db/update/compare_node.cpp (updateExistingElement: equal or already beyond is a no-op); manual: reference/bson-type-comparison-order"
	upd45DateRef     = "src/mongo/db/update/current_date_node.cpp (init)"
	upd45PosRef      = "src/mongo/db/update/update_object_node.cpp (parseAndMerge, applyChild, createUpdateNodeByMerging), update_array_node.cpp (apply); src/mongo/db/ops/parsed_update.cpp (parseArrayFilters); jstests/core/write/update/update_arrayFilters.js"
	upd45UpsertRef   = "src/mongo/db/exec/upsert_stage.cpp (_produceNewDocumentForInsert); src/mongo/db/update/update_driver.cpp (populateDocumentWithQueryFields); jstests/core/write/upsert/upsert_fields.js"
	upd45ConflictRef = "src/mongo/db/update/update_object_node.cpp (parseAndMerge: ConflictingUpdateOperators)"
	upd45StorageRef  = "src/mongo/db/update/storage_validation.cpp (scanDocument, validateDollarPrefixElement); src/mongo/db/update/modifier_node.cpp (validateUpdate)"
)

func TestDeep45UpdPaths(t *testing.T) {
	one := func(doc string) string { return `[{"_id":1,` + doc + `}]` }
	c := func(op string, col column) cover { return cover{family: update, op: op, col: col} }
	runUpdateCases(t, []updateCase{
		// $set through arrays: an index creates a padded element, a field
		// name in an array cannot be created, "01" parses as index 1.
		{name: "$set past the end of an array then into a new document", ref: upd45SetRef, cov: c("$set", semantics), docs: one(`"a":[1]`), update: `{"$set":{"a.2.c":1}}`,
			want: one(`"a":[1,null,{"c":1}]`), modified: `1`},
		{name: "$set a field name in an array", ref: upd45SetRef, cov: c("$set", errorCol), docs: one(`"a":[1]`), update: `{"$set":{"a.b":1}}`,
			code: mongoerr.PathNotViable, msg: "Cannot create field 'b' in element {a: [ 1 ]}"},
		{name: "$set under a scalar array element", ref: upd45SetRef, cov: c("$set", errorCol), docs: one(`"a":[1]`), update: `{"$set":{"a.0.c":5}}`,
			code: mongoerr.PathNotViable, msg: "Cannot create field 'c' in element {0: 1}"},
		{name: "$set under null", ref: upd45SetRef, cov: c("$set", errorCol), docs: one(`"a":null`), update: `{"$set":{"a.b":1}}`,
			code: mongoerr.PathNotViable, msg: "Cannot create field 'b' in element {a: null}"},
		{name: "$set an index with a leading zero", ref: upd45SetRef, cov: c("$set", semantics), docs: one(`"a":[1,2]`), update: `{"$set":{"a.01":5}}`,
			want: one(`"a":[1,5]`), modified: `1`},
		{name: "$set in a nested array", ref: upd45SetRef, cov: c("$set", semantics), docs: one(`"a":[[1]]`), update: `{"$set":{"a.0.1":5}}`,
			want: one(`"a":[[1,5]]`), modified: `1`},
		{name: "$set numeric names in a document sort as numbers", ref: upd45SetRef, cov: c("$set", semantics), docs: one(`"a":{}`), update: `{"$set":{"a.10":5,"a.b":1,"a.9":4}}`,
			want: one(`"a":{"9":4,"10":5,"b":1}`), modified: `1`},
		{name: "$set new fields from several operators in path order", ref: upd45SetRef, cov: c("$set", semantics), docs: one(`"z":0`), update: `{"$set":{"a.c":2,"a.b":1},"$inc":{"a.a":1}}`,
			want: one(`"z":0,"a":{"a":1,"b":1,"c":2}`), modified: `1`},
		{name: "$set {} is a no-op", ref: upd45SetRef, cov: c("$set", semantics), docs: one(`"a":1`), update: `{"$set":{}}`,
			want: one(`"a":1`), modified: `0`},
		{name: "$set of a non-document", ref: upd45SetRef, cov: c("$set", errorCol), docs: one(`"a":1`), update: `{"$set":5}`,
			code: mongoerr.FailedToParse, msg: "Modifiers operate on fields but we found type int instead. For example: {$mod: {<field>: ...}} not {$set: 5}"},
		{name: "$set then a plain field", ref: upd45SetRef, cov: c("$set", errorCol), docs: one(`"a":1`), update: `{"$set":{"a":2},"b":1}`,
			code: mongoerr.FailedToParse, msg: "Unknown modifier: b. Expected a valid update modifier or pipeline-style update specified as an array"},
		{name: "$set NaN over NaN is a no-op", ref: upd45SetRef, cov: c("$set", types), docs: one(`"a":{"$numberDouble":"NaN"}`), update: `{"$set":{"a":{"$numberDouble":"NaN"}}}`,
			want: one(`"a":{"$numberDouble":"NaN"}`), modified: `0`},
		{name: "$set -0.0 over 0.0 is a change", ref: upd45SetRef, cov: c("$set", types), docs: one(`"a":0.0`), update: `{"$set":{"a":{"$numberDouble":"-0.0"}}}`,
			want: one(`"a":{"$numberDouble":"-0.0"}`), modified: `1`},

		// A new top-level $-prefixed field must be part of a DBRef, in
		// order; as fields are appended in path order ("$id" before
		// "$ref"), an update can never start a DBRef at the top level
		// (storage_validation.cpp validateDollarPrefixElement).
		{name: "$set a top-level $ref without $id", ref: upd45StorageRef, cov: c("$set", errorCol), docs: one(`"a":1`), update: `{"$set":{"$ref":"c"}}`,
			code: mongoerr.InvalidDBRef, msg: "The DBRef $ref field must be followed by a $id field"},
		{name: "$set a top-level $ref that is not a string", ref: upd45StorageRef, cov: c("$set", errorCol), docs: one(`"a":1`), update: `{"$set":{"$ref":1}}`,
			code: mongoerr.InvalidDBRef, msg: "The DBRef $ref field must be a String, not a int"},
		{name: "$set a top-level $ref and $id", ref: upd45StorageRef, cov: c("$set", errorCol), docs: one(`"a":1`), update: `{"$set":{"$ref":"c","$id":1}}`,
			code: mongoerr.InvalidDBRef, msg: "Found $id field without a $ref before it, which is invalid."},
		{name: "$set a top-level $db that is not a string", ref: upd45StorageRef, cov: c("$set", errorCol), docs: one(`"a":1`), update: `{"$set":{"$db":5}}`,
			code: mongoerr.InvalidDBRef, msg: "The DBRef $db field must be a String, not a int"},
		{name: "$set a top-level $db", ref: upd45StorageRef, cov: c("$set", errorCol), docs: one(`"a":1`), update: `{"$set":{"$db":"x"}}`,
			code: mongoerr.InvalidDBRef, msg: "Found $db field without a $id before it, which is invalid."},
		{name: "$rename to a top-level $id", ref: upd45StorageRef, cov: c("$rename", errorCol), docs: one(`"a":1`), update: `{"$rename":{"a":"$id"}}`,
			code: mongoerr.InvalidDBRef, msg: "Found $id field without a $ref before it, which is invalid."},
		{name: "$set a nested $ref is not checked", ref: upd45StorageRef, cov: c("$set", semantics), docs: one(`"a":1`), update: `{"$set":{"b.$ref":1}}`,
			want: one(`"a":1,"b":{"$ref":1}`), modified: `1`},

		// $unset: array elements become null, paths through scalars are
		// no-ops, _id cannot go.
		{name: "$unset an array element and one past the end", ref: upd45SetRef, cov: c("$unset", semantics), docs: one(`"a":[1,2,3]`), update: `{"$unset":{"a.1":1,"a.7":1}}`,
			want: one(`"a":[1,null,3]`), modified: `1`},
		{name: "$unset through a scalar is a no-op", ref: upd45SetRef, cov: c("$unset", semantics), docs: one(`"a":5`), update: `{"$unset":{"a.b":1}}`,
			want: one(`"a":5`), modified: `0`},
		{name: "$unset _id", ref: upd45SetRef, cov: c("$unset", errorCol), docs: one(`"a":5`), update: `{"$unset":{"_id":1}}`,
			code: mongoerr.ImmutableField, msg: "Performing an update on the path '_id' would modify the immutable field '_id'"},
		{name: "$unset in every array element", ref: upd45SetRef, cov: c("$unset", semantics), docs: one(`"a":[{"b":1},{"c":1}]`), update: `{"$unset":{"a.$[].b":1}}`,
			want: one(`"a":[{},{"c":1}]`), modified: `1`},

		// $min/$max: BSON order across types; equal values of another type
		// are a no-op.
		{name: "$min null under a number", ref: upd45CompareRef, cov: c("$min", types), docs: one(`"a":1`), update: `{"$min":{"a":null}}`,
			want: one(`"a":null`), modified: `1`},
		{name: "$max null over MinKey", ref: upd45CompareRef, cov: c("$max", types), docs: one(`"a":{"$minKey":1}`), update: `{"$max":{"a":null}}`,
			want: one(`"a":null`), modified: `1`},
		{name: "$max compares arrays element-wise", ref: upd45CompareRef, cov: c("$max", types), docs: one(`"a":[1,5]`), update: `{"$max":{"a":[2]}}`,
			want: one(`"a":[2]`), modified: `1`},
		{name: "$min compares documents by field name first", ref: upd45CompareRef, cov: c("$min", types), docs: one(`"a":{"b":1}`), update: `{"$min":{"a":{"a":5}}}`,
			want: one(`"a":{"a":5}`), modified: `1`},
		{name: "$min of -Infinity over NaN is a no-op", ref: upd45CompareRef, cov: c("$min", types), docs: one(`"a":{"$numberDouble":"NaN"}`), update: `{"$min":{"a":{"$numberDouble":"-Infinity"}}}`,
			want: one(`"a":{"$numberDouble":"NaN"}`), modified: `0`},
		{name: "$max compares a long beyond 2^53 exactly", ref: upd45CompareRef, cov: c("$max", types), docs: one(`"a":{"$numberLong":"9007199254740993"}`), update: `{"$max":{"a":9007199254740992.0}}`,
			want: one(`"a":{"$numberLong":"9007199254740993"}`), modified: `0`},
		{name: "$max an ObjectId over a string", ref: upd45CompareRef, cov: c("$max", types), docs: one(`"a":"abc"`), update: `{"$max":{"a":{"$oid":"65edab000000000000000000"}}}`,
			want: one(`"a":{"$oid":"65edab000000000000000000"}`), modified: `1`},
		{name: "$max pads an array to create an element", ref: upd45CompareRef, cov: c("$max", semantics), docs: one(`"a":[1,9]`), update: `{"$max":{"a.1":3,"a.3":2}}`,
			want: one(`"a":[1,9,null,2]`), modified: `1`},
		{name: "$min under a scalar", ref: upd45CompareRef, cov: c("$min", errorCol), docs: one(`"a":1`), update: `{"$min":{"a.b":1}}`,
			code: mongoerr.PathNotViable, msg: "Cannot create field 'b' in element {a: 1}"},

		// $currentDate: the $type checks.
		{name: "$currentDate $type of a number", ref: upd45DateRef, cov: c("$currentDate", errorCol), docs: one(`"b":1`), update: `{"$currentDate":{"a":{"$type":1}}}`,
			code: mongoerr.BadValue, msg: "The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}"},
		{name: "$currentDate an unknown option after $type", ref: upd45DateRef, cov: c("$currentDate", errorCol), docs: one(`"b":1`), update: `{"$currentDate":{"a":{"$type":"date","x":1}}}`,
			code: mongoerr.BadValue, msg: "Unrecognized $currentDate option: x"},
		{name: "$currentDate of an empty document", ref: upd45DateRef, cov: c("$currentDate", errorCol), docs: one(`"b":1`), update: `{"$currentDate":{"a":{}}}`,
			code: mongoerr.BadValue, msg: "The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}"},
		{name: "$currentDate of a string", ref: upd45DateRef, cov: c("$currentDate", errorCol), docs: one(`"b":1`), update: `{"$currentDate":{"a":"date"}}`,
			code: mongoerr.BadValue, msg: "string is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'})."},
		{name: "$currentDate on _id", ref: upd45DateRef, cov: c("$currentDate", errorCol), docs: one(`"b":1`), update: `{"$currentDate":{"_id":true}}`,
			code: mongoerr.ImmutableField, msg: "Performing an update on the path '_id' would modify the immutable field '_id'"},

		// Positional operators and array filters.
		{name: "arrayFilters with an empty filter", ref: upd45PosRef, cov: c("$set", errorCol), docs: one(`"a":[1]`), update: `{"$set":{"a.$[]":2}}`, arrayFilters: `[{}]`,
			code: mongoerr.FailedToParse, msg: "Cannot use an expression without a top-level field name in arrayFilters"},
		{name: "arrayFilters with two top-level names", ref: upd45PosRef, cov: c("$set", errorCol), docs: one(`"a":[1]`), update: `{"$set":{"a.$[x]":2}}`, arrayFilters: `[{"x":1,"y":2}]`,
			code: mongoerr.FailedToParse, msg: "Error parsing array filter :: caused by :: Expected a single top-level field name, found 'x' and 'y'"},
		{name: "arrayFilters with an uppercase identifier", ref: upd45PosRef, cov: c("$set", errorCol), docs: one(`"a":[1]`), update: `{"$set":{"a.$[X]":2}}`, arrayFilters: `[{"X":1}]`,
			code: mongoerr.BadValue, msg: "Error parsing array filter :: caused by :: The top-level field name must be an alphanumeric string beginning with a lowercase letter, found 'X'"},
		{name: "arrayFilters with a repeated identifier", ref: upd45PosRef, cov: c("$set", errorCol), docs: one(`"a":[1]`), update: `{"$set":{"a.$[x]":2}}`, arrayFilters: `[{"x":1},{"x":2}]`,
			code: mongoerr.FailedToParse, msg: "Found multiple array filters with the same top-level field name x"},
		{name: "arrayFilters with $expr", ref: upd45PosRef, cov: c("$set", errorCol), docs: one(`"a":[1]`), update: `{"$set":{"a.$[x]":2}}`, arrayFilters: `[{"$expr":{"$eq":[1,1]}}]`,
			code: mongoerr.QueryFeatureNotAllowed, msg: "Error parsing array filter :: caused by :: $expr is not allowed in this context"},
		{name: "an array filter identifier first in the path", ref: upd45PosRef, cov: c("$set", errorCol), docs: one(`"a":[1]`), update: `{"$set":{"$[x]":2}}`, arrayFilters: `[{"x":1}]`,
			code: mongoerr.BadValue, msg: "Cannot have array filter identifier (i.e. '$[<id>]') element in the first position in path '$[x]'"},
		{name: "an identifier with a space finds no filter", ref: upd45PosRef, cov: c("$set", errorCol), docs: one(`"a":[1]`), update: `{"$set":{"a.$[ x]":2}}`,
			code: mongoerr.BadValue, msg: "No array filter found for identifier ' x' in path 'a.$[ x]'"},
		{name: "array updates on a scalar", ref: upd45PosRef, cov: c("$set", errorCol), docs: one(`"a":5`), update: `{"$set":{"a.$[x]":2}}`, arrayFilters: `[{"x":1}]`,
			code: mongoerr.BadValue, msg: "Cannot apply array updates to non-array element a: 5"},
		{name: "array updates on an element that is not an array", ref: upd45PosRef, cov: c("$set", errorCol), docs: one(`"a":[1]`), update: `{"$set":{"a.$[x].$[x]":2}}`, arrayFilters: `[{"x":1}]`,
			code: mongoerr.BadValue, msg: "Cannot apply array updates to non-array element 0: 1"},
		{name: "array updates below a missing path name the whole path", ref: upd45PosRef, cov: c("$set", errorCol), docs: one(`"a":5`), update: `{"$set":{"a.b.$[]":2}}`,
			code: mongoerr.BadValue, msg: "The path 'a.b' must exist in the document in order to apply array updates."},
		{name: "$[<id>] and an index on the same array conflict", ref: upd45PosRef, cov: c("$set", errorCol), docs: one(`"a":[1]`), update: `{"$set":{"a.$[x]":2,"a.0":3}}`, arrayFilters: `[{"x":1}]`,
			code: mongoerr.ConflictingUpdateOperators, msg: "Updating the path 'a.0' would create a conflict at 'a'"},
		{name: "two filters matching one element conflict", ref: upd45PosRef, cov: c("$set", errorCol), docs: one(`"a":[1,2]`), update: `{"$set":{"a.$[x]":2,"a.$[y]":3}}`, arrayFilters: `[{"x":1},{"y":{"$gte":1}}]`,
			code: mongoerr.ConflictingUpdateOperators, msg: "Update created a conflict at 'a.0'"},
		{name: "two filters matching one element merge their fields", ref: upd45PosRef, cov: c("$set", semantics), docs: one(`"a":[{"b":1}]`), update: `{"$set":{"a.$[x].b":2,"a.$[y].c":3}}`, arrayFilters: `[{"x.b":1},{"y.b":1}]`,
			want: one(`"a":[{"b":2,"c":3}]`), modified: `1`},
		{name: "$ and an index on the matched element conflict", ref: upd45PosRef, cov: c("$set", errorCol), docs: one(`"a":[1]`), filter: `{"a":1}`, update: `{"$set":{"a.$":2,"a.0":3}}`,
			code: mongoerr.ConflictingUpdateOperators, msg: "Update created a conflict at 'a.0'"},
		{name: "$ and $[] on one array conflict", ref: upd45PosRef, cov: c("$set", errorCol), docs: one(`"a":[1]`), update: `{"$set":{"a.$[]":2,"a.$":3}}`,
			code: mongoerr.ConflictingUpdateOperators, msg: "Updating the path 'a.$' would create a conflict at 'a'"},
		{name: "two $ in one path", ref: upd45PosRef, cov: c("$set", errorCol), docs: one(`"a":[1]`), filter: `{"a":1}`, update: `{"$set":{"a.$.$":2}}`,
			code: mongoerr.BadValue, msg: "Too many positional (i.e. '$') elements found in path 'a.$.$'"},
		{name: "a malformed identifier is a field name", ref: upd45PosRef, cov: c("$set", errorCol), docs: one(`"a":[1]`), update: `{"$set":{"a.$[x":2}}`,
			code: mongoerr.PathNotViable, msg: "Cannot create field '$[x' in element {a: [ 1 ]}"},
		{name: "$ in an upsert that inserts", ref: upd45PosRef, cov: c("$set", errorCol), filter: `{"a":1}`, upsert: true, update: `{"$set":{"a.$":2}}`,
			code: mongoerr.BadValue, msg: "The positional operator did not find the match needed from the query."},
		{name: "$[] in nested arrays", ref: upd45PosRef, cov: c("$inc", semantics), docs: one(`"a":[[1,2],[3]]`), update: `{"$inc":{"a.$[].$[]":1}}`,
			want: one(`"a":[[2,3],[4]]`), modified: `1`},

		// Conflicts (40), found while the update is parsed.
		{name: "$set and $setOnInsert on one path conflict", ref: upd45ConflictRef, cov: c("$setOnInsert", errorCol), docs: one(`"a":1`), update: `{"$setOnInsert":{"a":1},"$set":{"a":2}}`,
			code: mongoerr.ConflictingUpdateOperators, msg: "Updating the path 'a' would create a conflict at 'a'"},
		{name: "a path under another operator's path conflicts", ref: upd45ConflictRef, cov: c("$unset", errorCol), docs: one(`"a":1`), update: `{"$unset":{"a":1},"$set":{"a.b.c":2}}`,
			code: mongoerr.ConflictingUpdateOperators, msg: "Updating the path 'a.b.c' would create a conflict at 'a'"},
		{name: "a conflict comes before an unused array filter", ref: upd45ConflictRef, cov: c("$set", errorCol), docs: one(`"a":1`), update: `{"$set":{"a":1},"$inc":{"a":1}}`, arrayFilters: `[{"x":1}]`,
			code: mongoerr.ConflictingUpdateOperators, msg: "Updating the path 'a' would create a conflict at 'a'"},

		// Upserts: the query's equalities seed the new document (after the
		// query is optimized: a one-element $in or $or is an equality),
		// _id first; _id is immutable once seeded.
		{name: "upsert seeds from a one-element $in", ref: upd45UpsertRef, cov: c("$setOnInsert", semantics), filter: `{"_id":1,"a":{"$in":[5]}}`, upsert: true, update: `{"$setOnInsert":{"b":1}}`,
			want: one(`"a":5,"b":1`)},
		{name: "upsert does not seed from a two-element $in", ref: upd45UpsertRef, cov: c("$setOnInsert", semantics), filter: `{"_id":1,"a":{"$in":[5,6]}}`, upsert: true, update: `{"$setOnInsert":{"b":1}}`,
			want: one(`"b":1`)},
		{name: "upsert seeds from a one-clause $or", ref: upd45UpsertRef, cov: c("$setOnInsert", semantics), filter: `{"_id":1,"$or":[{"a":1}]}`, upsert: true, update: `{"$setOnInsert":{"c":1}}`,
			want: one(`"a":1,"c":1`)},
		{name: "upsert seeds from $and and $eq", ref: upd45UpsertRef, cov: c("$setOnInsert", semantics), filter: `{"$and":[{"_id":1},{"b":{"$eq":2}}],"a":{"$gt":0}}`, upsert: true, update: `{"$setOnInsert":{"c":1}}`,
			want: one(`"b":2,"c":1`)},
		{name: "upsert seeds a dotted path as documents", ref: upd45UpsertRef, cov: c("$setOnInsert", semantics), filter: `{"_id":1,"a.0":1,"b.c":2}`, upsert: true, update: `{"$setOnInsert":{"z":1}}`,
			want: one(`"a":{"0":1},"b":{"c":2},"z":1`)},
		{name: "upsert $setOnInsert over a seeded field", ref: upd45UpsertRef, cov: c("$setOnInsert", semantics), filter: `{"_id":1,"a":1}`, upsert: true, update: `{"$setOnInsert":{"a":2}}`,
			want: one(`"a":2`)},
		{name: "upsert $setOnInsert a different _id than the query's", ref: upd45UpsertRef, cov: c("$setOnInsert", errorCol), filter: `{"_id":7}`, upsert: true, update: `{"$setOnInsert":{"_id":8}}`,
			code: mongoerr.ImmutableField, msg: "Performing an update on the path '_id' would modify the immutable field '_id'"},
		{name: "upsert $setOnInsert the _id a range query leaves open", ref: upd45UpsertRef, cov: c("$setOnInsert", semantics), filter: `{"_id":{"$gt":7}}`, upsert: true, update: `{"$setOnInsert":{"_id":8,"a":1}}`,
			want: `[{"_id":8,"a":1}]`},
		{name: "upsert $set's _id goes first", ref: upd45UpsertRef, cov: c("$set", semantics), filter: `{"z":1}`, upsert: true, update: `{"$set":{"a":1,"_id":3}}`,
			want: `[{"_id":3,"z":1,"a":1}]`},
		{name: "upsert seeds a regex _id and fails", ref: upd45UpsertRef, cov: c("$set", errorCol), filter: `{"_id":{"$eq":{"$regularExpression":{"pattern":"x","options":""}}}}`, upsert: true, update: `{"$set":{"a":1}}`,
			code: mongoerr.InvalidIdField, msg: "The '_id' value cannot be of type regex"},
		{name: "upsert into a seeded scalar", ref: upd45UpsertRef, cov: c("$set", errorCol), filter: `{"a.b":1}`, upsert: true, update: `{"$set":{"a.b.c":1}}`,
			code: mongoerr.PathNotViable, msg: "Cannot create field 'c' in element {b: 1}"},
		{name: "upsert $unset of a seeded field", ref: upd45UpsertRef, cov: c("$unset", semantics), filter: `{"_id":1,"a":1,"b":2}`, upsert: true, update: `{"$unset":{"a":1}}`,
			want: one(`"b":2`)},
	})
}
