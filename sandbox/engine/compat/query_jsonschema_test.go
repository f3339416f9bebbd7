package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// $jsonSchema as a query operator (find, count, aggregate $match,
// update/delete filters): mongod translates the schema with
// JSONSchemaParser into $_internalSchema* match expressions, the same
// translation a collection validator uses. A keyword restricting a type
// applies only when the value has that type, "properties" applies only to
// fields that exist, and nothing traverses arrays implicitly.

const (
	schemaParseRef = "src/mongo/db/matcher/expression_parser.cpp (parseJSONSchema), src/mongo/db/matcher/schema/json_schema_parser.cpp"
	schemaTestRef  = "src/mongo/db/matcher/schema/json_schema_parser.cpp; jstests/core/query/json_schema/json_schema.js"
	schemaMiscRef  = "jstests/core/query/json_schema/misc_validation.js; src/mongo/db/matcher/schema/json_schema_parser.cpp"
)

// schemaNumDocs is json_schema.js's first collection: numbers of each
// width and sign, an object, two strings and a missing field.
const schemaNumDocs = `[{"_id":0,"num":3},{"_id":1,"num":-3},{"_id":2,"num":{"$numberInt":"2"}},{"_id":3,"num":{"$numberInt":"-2"}},
	{"_id":4,"num":{"$numberLong":"1"}},{"_id":5,"num":{"$numberLong":"-1"}},{"_id":6,"num":{}},{"_id":7,"num":"str"},
	{"_id":8,"num":"string"},{"_id":9}]`

func TestQueryJSONSchemaSemantics(t *testing.T) {
	runFilterTableIn(t, schemaTestRef, schemaNumDocs, semantics, [][2]string{
		{`{"$jsonSchema":{}}`, `[0,1,2,3,4,5,6,7,8,9]`},
		{`{"$jsonSchema":{"type":"object"}}`, `[0,1,2,3,4,5,6,7,8,9]`},
		{`{"$jsonSchema":{"type":"string"}}`, `[]`},
		{`{"$jsonSchema":{"properties":{"num":{"type":"number","maximum":-1}}}}`, `[1,3,5,9]`},
		{`{"$jsonSchema":{"properties":{"num":{"maximum":0}}}}`, `[1,3,5,6,7,8,9]`},
		{`{"$jsonSchema":{"properties":{"num":{"type":"string","maximum":0}}}}`, `[7,8,9]`},
		{`{"$jsonSchema":{"properties":{"num":{"type":"string","maxLength":3}}}}`, `[7,9]`},
		{`{"$jsonSchema":{"properties":{"num":{"type":"string","minLength":4}}}}`, `[8,9]`},
		{`{"$jsonSchema":{"properties":{"num":{"type":"string","pattern":"ing"}}}}`, `[8,9]`},
		{`{"$jsonSchema":{"required":["num"],"properties":{"num":{"minimum":2}}}}`, `[0,2,6,7,8]`},
		{`{"$jsonSchema":{"properties":{"num":{"enum":[3,"str"]}}}}`, `[0,7,9]`},
		{`{"$jsonSchema":{"properties":{"num":{"not":{"type":"number"}}}}}`, `[6,7,8,9]`},
		{`{"$jsonSchema":{"properties":{"num":{"anyOf":[{"type":"string"},{"minimum":3}]}}}}`, `[0,6,7,8,9]`},
		{`{"$jsonSchema":{"properties":{"num":{"oneOf":[{"type":"number"},{"minimum":0}]}}}}`, `[1,3,5,6,7,8,9]`},
		{`{"$jsonSchema":{"properties":{"num":{"allOf":[{"type":"number"},{"minimum":0}]}}}}`, `[0,2,4,9]`},
		{`{"$jsonSchema":{"properties":{"num":{"multipleOf":2}}}}`, `[2,3,6,7,8,9]`},
		{`{"$jsonSchema":{"description":"d","title":"t"}}`, `[0,1,2,3,4,5,6,7,8,9]`},
		{`{"$or":[{"num":"str"},{"$jsonSchema":{"properties":{"num":{"bsonType":"long"}}}}]}`, `[4,5,7,9]`},
	})
	// Objects and arrays: properties recurse into embedded documents only,
	// and array keywords apply only to arrays (json_schema.js, items.js,
	// min_max_properties.js, additional_properties.js, required.js).
	runFilterTableIn(t, schemaTestRef+", items.js, min_max_properties.js, additional_properties.js, dependencies.js", `[
		{"_id":0,"obj":3},{"_id":1,"obj":{"f1":{"f3":"str"},"f2":"str"}},{"_id":2,"obj":{"f1":"str","f2":"str"}},
		{"_id":3,"obj":{"f1":1,"f2":"str"}},{"_id":4,"arr":[1,"foo"]},{"_id":5,"arr":[{"a":1},{"b":2}]},{"_id":6,"arr":[]},
		{"_id":7,"arr":{"a":[]}},{"_id":8,"arr":[1,1]}]`, semantics, [][2]string{
		{`{"$jsonSchema":{"properties":{"obj":{"properties":{"f1":{"type":"object","properties":{"f3":{"type":"string"}}},"f2":{"type":"string"}}}}}}`, `[0,1,4,5,6,7,8]`},
		{`{"$jsonSchema":{"properties":{"arr":{"type":"array"}}}}`, `[0,1,2,3,4,5,6,8]`},
		{`{"$jsonSchema":{"properties":{"arr":{"type":"object"}}}}`, `[0,1,2,3,7]`},
		{`{"$jsonSchema":{"properties":{"arr":{"minItems":1}}}}`, `[0,1,2,3,4,5,7,8]`},
		{`{"$jsonSchema":{"properties":{"arr":{"maxItems":1}}}}`, `[0,1,2,3,6,7]`},
		{`{"$jsonSchema":{"properties":{"arr":{"uniqueItems":true}}}}`, `[0,1,2,3,4,5,6,7]`},
		{`{"$jsonSchema":{"properties":{"arr":{"items":{"type":"number"}}}}}`, `[0,1,2,3,6,7,8]`},
		{`{"$jsonSchema":{"properties":{"arr":{"items":[{"type":"number"}],"additionalItems":false}}}}`, `[0,1,2,3,6,7]`},
		{`{"$jsonSchema":{"minProperties":3}}`, `[]`},
		{`{"$jsonSchema":{"maxProperties":1}}`, `[]`},
		{`{"$jsonSchema":{"properties":{"obj":{"minProperties":2}}}}`, `[0,1,2,3,4,5,6,7,8]`},
		{`{"$jsonSchema":{"properties":{"obj":{"maxProperties":1}}}}`, `[0,4,5,6,7,8]`},
		{`{"$jsonSchema":{"properties":{"obj":{"additionalProperties":false,"properties":{"f1":{}}}}}}`, `[0,4,5,6,7,8]`},
		{`{"$jsonSchema":{"properties":{"obj":{"additionalProperties":{"type":"string"}}}}}`, `[0,2,4,5,6,7,8]`},
		{`{"$jsonSchema":{"properties":{"obj":{"patternProperties":{"^f":{"type":"string"}}}}}}`, `[0,2,4,5,6,7,8]`},
		{`{"$jsonSchema":{"required":["arr"]}}`, `[4,5,6,7,8]`},
		{`{"$jsonSchema":{"dependencies":{"obj":["arr"]}}}`, `[4,5,6,7,8]`},
		{`{"$jsonSchema":{"dependencies":{"arr":{"properties":{"arr":{"maxItems":0}}}}}}`, `[0,1,2,3,6,7]`},
	})
}

func TestQueryJSONSchemaTypes(t *testing.T) {
	runFilterTableIn(t, "src/mongo/db/matcher/schema/json_schema_parser.cpp (parseType, kJSONSchemaTypeAliasMap), src/mongo/db/matcher/expression_type.h; jstests/core/query/json_schema/bsontype.js", typedDocs, types, [][2]string{
		{`{"$jsonSchema":{"properties":{"v":{"type":"number"}}}}`, `[1,2,3,4,8,16,18]`},
		{`{"$jsonSchema":{"properties":{"v":{"bsonType":"number"}}}}`, `[1,2,3,4,8,16,18]`},
		{`{"$jsonSchema":{"properties":{"v":{"bsonType":"int"}}}}`, `[1,8]`},
		{`{"$jsonSchema":{"properties":{"v":{"bsonType":"long"}}}}`, `[2,8]`},
		{`{"$jsonSchema":{"properties":{"v":{"bsonType":"double"}}}}`, `[3,8,16]`},
		{`{"$jsonSchema":{"properties":{"v":{"bsonType":"decimal"}}}}`, `[4,8,18]`},
		{`{"$jsonSchema":{"properties":{"v":{"type":"string"}}}}`, `[5,8]`},
		{`{"$jsonSchema":{"properties":{"v":{"type":"boolean"}}}}`, `[6,8]`},
		{`{"$jsonSchema":{"properties":{"v":{"type":"null"}}}}`, `[7,8]`},
		{`{"$jsonSchema":{"properties":{"v":{"type":"array"}}}}`, `[8,9]`},
		{`{"$jsonSchema":{"properties":{"v":{"type":"object"}}}}`, `[8,10]`},
		{`{"$jsonSchema":{"properties":{"v":{"bsonType":["date","objectId"]}}}}`, `[8,11,12]`},
		{`{"$jsonSchema":{"properties":{"v":{"bsonType":"binData"}}}}`, `[8,13]`},
		{`{"$jsonSchema":{"properties":{"v":{"bsonType":"minKey"}}}}`, `[8,14]`},
		{`{"$jsonSchema":{"properties":{"v":{"bsonType":"maxKey"}}}}`, `[8,15]`},
		{`{"$jsonSchema":{"properties":{"v":{"bsonType":"timestamp"}}}}`, `[8,17]`},
		{`{"$jsonSchema":{"required":["v"],"properties":{"v":{"type":"null"}}}}`, `[7]`},
		{`{"$jsonSchema":{"bsonType":"object"}}`, `[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18]`},
	})
}

func TestQueryJSONSchemaErrors(t *testing.T) {
	docs := `[{"_id":1,"a":1}]`
	c := func(name, ref, filter string, code int32, msg string) findCase {
		return findCase{name: name, ref: ref, docs: docs, filter: filter, code: code, msg: msg}
	}
	runFindCases(t, []findCase{
		c("$jsonSchema of a string", schemaParseRef, `{"$jsonSchema":"foo"}`, mongoerr.TypeMismatch, "$jsonSchema must be an object"),
		c("$jsonSchema of an array", schemaParseRef, `{"$jsonSchema":[]}`, mongoerr.TypeMismatch, "$jsonSchema must be an object"),
		c("unknown keyword", schemaMiscRef, `{"$jsonSchema":{"invalid":{}}}`, mongoerr.FailedToParse, "Unknown $jsonSchema keyword: invalid"),
		c("format is not supported", schemaTestRef, `{"$jsonSchema":{"format":"email"}}`, mongoerr.FailedToParse, "$jsonSchema keyword 'format' is not currently supported"),
		c("$ref in a nested schema", schemaTestRef, `{"$jsonSchema":{"properties":{"a":{"$ref":"#/definitions/x"}}}}`, mongoerr.FailedToParse, "$jsonSchema keyword '$ref' is not currently supported"),
		c("type integer", schemaTestRef, `{"$jsonSchema":{"type":"integer"}}`, mongoerr.FailedToParse, "$jsonSchema type 'integer' is not currently supported."),
		c("type of a number", schemaTestRef, `{"$jsonSchema":{"type":3}}`, mongoerr.TypeMismatch, "$jsonSchema keyword 'type' must be either a string or an array of strings"),
		c("unknown bsonType alias", schemaTestRef+" (parseType)", `{"$jsonSchema":{"bsonType":"bogus"}}`, mongoerr.BadValue, "Unknown type name alias: bogus"),
		c("bsonType missing names no type", schemaTestRef+" (parseType); src/mongo/db/matcher/matcher_type_set.cpp (addAliasToTypeSet)", `{"$jsonSchema":{"bsonType":"missing"}}`, mongoerr.BadValue, "'missing' is not a legal type name. To query for non-existence of a field, use {$exists:false}."),
		c("type missing names no type", schemaTestRef+" (parseType); src/mongo/db/matcher/matcher_type_set.cpp (addAliasToTypeSet)", `{"$jsonSchema":{"type":"missing"}}`, mongoerr.BadValue, "'missing' is not a legal type name. To query for non-existence of a field, use {$exists:false}."),
		c("type and bsonType together", schemaTestRef, `{"$jsonSchema":{"type":"object","bsonType":"object"}}`, mongoerr.FailedToParse, "Cannot specify both $jsonSchema keywords 'type' and 'bsonType'"),
		c("properties of a number", schemaTestRef, `{"$jsonSchema":{"properties":3}}`, mongoerr.TypeMismatch, "$jsonSchema keyword 'properties' must be an object"),
		c("property schema of a string", schemaTestRef, `{"$jsonSchema":{"properties":{"num":"number"}}}`, mongoerr.TypeMismatch, "Nested schema for $jsonSchema property 'num' must be an object"),
		c("maximum of a string", schemaTestRef, `{"$jsonSchema":{"properties":{"num":{"maximum":"0"}}}}`, mongoerr.TypeMismatch, "$jsonSchema keyword 'maximum' must be a number"),
		c("pattern of a number", schemaTestRef, `{"$jsonSchema":{"properties":{"num":{"pattern":0}}}}`, mongoerr.TypeMismatch, "$jsonSchema keyword 'pattern' must be a string"),
		c("required empty", schemaTestRef+"; jstests/core/query/json_schema/required.js", `{"$jsonSchema":{"required":[]}}`, mongoerr.FailedToParse, "$jsonSchema keyword 'required' cannot be an empty array"),
		c("multipleOf zero", schemaTestRef+" (parseMultipleOf)", `{"$jsonSchema":{"multipleOf":0}}`, mongoerr.FailedToParse, "$jsonSchema keyword 'multipleOf' must have a positive value"),
		c("allOf empty", "src/mongo/db/matcher/schema/json_schema_parser.cpp (parseLogicalKeyword); jstests/core/query/json_schema/logical_keywords.js", `{"$jsonSchema":{"allOf":[]}}`, mongoerr.BadValue, "$jsonSchema keyword 'allOf' must be a non-empty array"),
		c("enum empty", "src/mongo/db/matcher/schema/json_schema_parser.cpp (parseEnum); jstests/core/query/json_schema/logical_keywords.js", `{"$jsonSchema":{"enum":[]}}`, mongoerr.FailedToParse, "$jsonSchema keyword 'enum' cannot be an empty array"),
		c("uniqueItems of a number", "src/mongo/db/matcher/schema/json_schema_parser.cpp (parseUniqueItems); jstests/core/query/json_schema/unique_items.js", `{"$jsonSchema":{"uniqueItems":1}}`, mongoerr.TypeMismatch, "$jsonSchema keyword 'uniqueItems' must be a boolean"),
		c("exclusiveMinimum without minimum", schemaTestRef+" (parseMinimum)", `{"$jsonSchema":{"exclusiveMinimum":true}}`, mongoerr.FailedToParse, "$jsonSchema keyword 'minimum' must be a present if exclusiveMinimum is present"),
		c("additionalProperties of a number", "src/mongo/db/matcher/schema/json_schema_parser.cpp (parseAdditionalProperties); jstests/core/query/json_schema/additional_properties.js", `{"$jsonSchema":{"additionalProperties":1}}`, mongoerr.TypeMismatch, "$jsonSchema keyword 'additionalProperties' must be an object or a boolean"),
		c("title of a number", schemaTestRef, `{"$jsonSchema":{"title":1}}`, mongoerr.TypeMismatch, "$jsonSchema keyword 'title' must be of type string"),
		// The length and count keywords are read with
		// BSONElement::parseIntegerElementToNonNegativeLong (bsonelement.cpp).
		c("minLength negative", schemaTestRef+" (parseLength); src/mongo/bson/bsonelement.cpp", `{"$jsonSchema":{"minLength":-1}}`, mongoerr.FailedToParse, "Expected a non-negative number in: minLength: -1"),
		c("maxItems negative double", schemaTestRef+" (parseLength); src/mongo/bson/bsonelement.cpp", `{"$jsonSchema":{"properties":{"a":{"maxItems":-2.0}}}}`, mongoerr.FailedToParse, "Expected a non-negative number in: maxItems: -2.0"),
	})
}

// $jsonSchema in the other commands that take a filter, and in the places
// that refuse it (misc_validation.js).
func TestQueryJSONSchemaCommands(t *testing.T) {
	runCmdCases(t, []cmdCase{
		{name: "count with $jsonSchema", ref: schemaMiscRef, cov: cover{family: query, op: "$jsonSchema", col: semantics},
			docs: `[{"_id":1,"a":1,"b":"str"},{"_id":2,"a":1,"b":1}]`,
			cmd:  `{"count":"c","query":{"$jsonSchema":{"properties":{"a":{"type":"number"},"b":{"type":"string"}}}}}`, want: `{"n":1}`},
		{name: "delete with $jsonSchema", ref: schemaMiscRef, cov: cover{family: query, op: "$jsonSchema", col: semantics},
			docs: `[{"_id":1,"a":1},{"_id":2,"a":2},{"_id":3,"a":"str"},{"_id":4,"a":[3]}]`,
			cmd:  `{"delete":"c","deletes":[{"q":{"$jsonSchema":{"properties":{"a":{"type":"number","maximum":2}}}},"limit":0}]}`, want: `{"n":2}`,
			thenFind: `{"find":"c","sort":{"_id":1}}`, thenWant: `[{"_id":3,"a":"str"},{"_id":4,"a":[3]}]`},
	})
	runUpdateCases(t, []updateCase{
		{name: "arrayFilters refuse $jsonSchema", ref: "src/mongo/db/ops/parsed_update.cpp (parseArrayFilters: kBanAllSpecialFeatures); " + schemaParseRef,
			cov: cover{family: query, op: "$jsonSchema", col: errorCol}, docs: `[{"_id":1,"a":[1]}]`, update: `{"$set":{"a.$[e]":2}}`,
			arrayFilters: `[{"e":1,"$jsonSchema":{}}]`, code: mongoerr.QueryFeatureNotAllowed, msg: "Error parsing array filter :: caused by :: $jsonSchema is not allowed in this context"},
		{name: "a $pull condition refuses $jsonSchema", ref: "src/mongo/db/update/pull_node.cpp (ObjectMatcher: kBanAllSpecialFeatures); " + schemaParseRef,
			cov: cover{family: query, op: "$jsonSchema", col: errorCol}, docs: `[{"_id":1,"a":[{"b":1}]}]`, update: `{"$pull":{"a":{"$jsonSchema":{}}}}`,
			code: mongoerr.QueryFeatureNotAllowed, msg: "$jsonSchema is not allowed in this context"},
	})
	runFindCases(t, []findCase{
		{name: "an $elemMatch projection refuses $jsonSchema", ref: "src/mongo/db/query/projection_parser.cpp (parseSubObjectAsExpression: kBanAllSpecialFeatures); " + schemaMiscRef,
			cov: cover{family: query, op: "$jsonSchema", col: errorCol}, docs: `[{"_id":1,"a":[{"b":1}]}]`, projection: `{"a":{"$elemMatch":{"$jsonSchema":{}}}}`,
			code: mongoerr.QueryFeatureNotAllowed, msg: "$jsonSchema is not allowed in this context"},
		{name: "$jsonSchema inside a query $elemMatch", ref: schemaParseRef + " (parseJSONSchema has no top-level check)",
			cov: cover{family: query, op: "$jsonSchema", col: semantics}, docs: `[{"_id":1,"a":[{"b":1}]},{"_id":2,"a":[{"c":1}]}]`,
			filter: `{"a":{"$elemMatch":{"$jsonSchema":{"required":["b"]}}}}`, want: `[{"_id":1,"a":[{"b":1}]}]`},
	})
	runCmdCases(t, []cmdCase{
		{name: "a partialFilterExpression refuses $jsonSchema", ref: "src/mongo/db/catalog/index_key_validate.cpp (validateIndexSpec: kBanAllSpecialFeatures); " + schemaParseRef,
			cov:  cover{family: query, op: "$jsonSchema", col: errorCol},
			cmd:  `{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"p","partialFilterExpression":{"$jsonSchema":{}}}]}`,
			code: mongoerr.QueryFeatureNotAllowed, msg: "$jsonSchema is not allowed in this context"},
		{name: "a $jsonSchema validator refuses a document", ref: "src/mongo/db/catalog/collection_impl.cpp (checkValidation: DocumentValidationFailure); jstests/core/query/json_schema/json_schema.js",
			cov:   cover{family: query, op: "$jsonSchema", col: errorCol},
			setup: []string{`{"create":"v","validator":{"$jsonSchema":{"required":["a"],"properties":{"a":{"bsonType":"int","minimum":1}}}}}`},
			cmd:   `{"insert":"v","documents":[{"_id":1,"a":0}]}`, writeError: true,
			code: mongoerr.DocumentValidationFailure, msg: "Document failed validation"},
		{name: "a $jsonSchema validator with an unknown keyword", ref: "src/mongo/db/catalog/collection_impl.cpp (parseValidator), " + schemaMiscRef,
			cov:  cover{family: query, op: "$jsonSchema", col: errorCol},
			cmd:  `{"create":"v","validator":{"$jsonSchema":{"invalid":{}}}}`,
			code: mongoerr.FailedToParse, msg: "Parsing of collection validator failed :: caused by :: Unknown $jsonSchema keyword: invalid"},
	})
	runAggCases(t, []aggCase{
		{name: "$match with $jsonSchema", ref: schemaMiscRef, cov: cover{family: query, op: "$jsonSchema", col: semantics},
			docs:     `[{"_id":1,"name":"Peter","age":65},{"_id":2,"name":"Mary","age":10},{"_id":3,"name":"John","age":"unknown"},{"_id":4,"name":"Mark"}]`,
			pipeline: `[{"$match":{"$jsonSchema":{"required":["name","age"],"properties":{"name":{"type":"string"},"age":{"type":"number","minimum":65}}}}}]`,
			want:     `[{"_id":1,"name":"Peter","age":65}]`},
		{name: "$jsonSchema beside an index on its field", ref: schemaMiscRef, cov: cover{family: query, op: "$jsonSchema", col: semantics},
			docs:     `[{"_id":1,"a":1,"b":1},{"_id":2,"a":2,"b":2},{"_id":3,"a":"temp text test"}]`,
			setup:    []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			pipeline: `[{"$match":{"$or":[{"$jsonSchema":{"properties":{"a":{"minimum":2}}}},{"b":2}]}},{"$project":{"_id":1}}]`,
			want:     `[{"_id":2},{"_id":3}]`, unordered: true},
		{name: "$jsonSchema with required and a sibling index predicate", ref: schemaMiscRef, cov: cover{family: query, op: "$jsonSchema", col: semantics},
			docs:     `[{"_id":1,"a":1,"b":1},{"_id":2,"a":2,"b":2},{"_id":3,"a":"temp text test"}]`,
			setup:    []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`},
			pipeline: `[{"$match":{"$jsonSchema":{"required":["a"],"properties":{"a":{"type":"number"}}},"a":{"$gte":2}}},{"$project":{"_id":1}}]`,
			want:     `[{"_id":2}]`},
	})
}

// BSON undefined, which the legacy shell sends for a JavaScript undefined
// (mongosh sends null): its own bsonType, present for required, and
// equal to no null in enum.
func TestQueryJSONSchemaUndefined(t *testing.T) {
	docs := `[{"_id":1,"u":{"$undefined":true}},{"_id":2,"u":null},{"_id":3}]`
	runFilterTableIn(t, "src/mongo/db/matcher/schema/json_schema_parser.cpp (parseType, parseEnum); jstests/core/query/json_schema/bsontype.js; jstests/core/json_schema/logical_keywords.js", docs, semantics, [][2]string{
		{`{"$jsonSchema":{"required":["u"],"properties":{"u":{"bsonType":"undefined"}}}}`, `[1]`},
		{`{"$jsonSchema":{"required":["u"],"properties":{"u":{"bsonType":"null"}}}}`, `[2]`},
		{`{"$jsonSchema":{"properties":{"u":{"enum":[null]}}}}`, `[2,3]`},
		{`{"$jsonSchema":{"required":["u"]}}`, `[1,2]`},
	})
}
