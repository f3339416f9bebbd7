package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The filter parser's refusals that depend on where an operator stands:
// at the top of the filter, under $elemMatch (mongod's DocumentParseLevel
// kUserSubDocument), in a collection validator (parsed without
// kJavascript, kText and kGeoNear), or after another operator of the same
// field.
const (
	parseLevelRef = "src/mongo/db/matcher/expression_parser.cpp (parse, parseWhere, parseSampleRate, parseSub, parseSubField)"
	whereRef      = "src/mongo/db/matcher/extensions_callback.cpp (extractWhereMatchExpressionParams); src/mongo/db/matcher/expression_where.cpp"
	// pathLengthRef: parse() refuses a field path of more parts than
	// BSONDepth::getMaxDepthForUserStorage() (200 - 20).
	pathLengthRef = "src/mongo/db/matcher/expression_parser.cpp (parse: uassert 5729100); src/mongo/bson/bson_depth.cpp"
)

func TestQueryParseLevels(t *testing.T) {
	docs := `[{"_id": 1, "a": [{"b": 1}]}]`
	q := func(op string) cover { return cover{family: query, op: op, col: errorCol} }
	runFindCases(t, []findCase{
		{name: "$not at the top", ref: parseLevelRef + "; src/mongo/db/matcher/expression_parser_test.cpp", docs: docs, filter: `{"$not":{"a":1}}`,
			code: mongoerr.BadValue, msg: "unknown top level operator: $not. If you are trying to negate an entire expression, use $nor."},
		{name: "$where under $elemMatch's $and", ref: parseLevelRef, cov: q("$where"), docs: docs, filter: `{"a":{"$elemMatch":{"$and":[{"$where":"1"}]}}}`,
			code: mongoerr.BadValue, msg: "$where can only be applied to the top-level document"},
		{name: "$where of a number", ref: whereRef, docs: docs, filter: `{"$where":1}`, code: mongoerr.BadValue, msg: "$where got bad type"},
		{name: "$where of an empty string", ref: whereRef, docs: docs, filter: `{"$where":""}`, code: mongoerr.BadValue, msg: "code for $where cannot be empty"},
		{name: "$where of empty code", ref: whereRef, docs: docs, filter: `{"$where":{"$code":""}}`, code: mongoerr.BadValue, msg: "code for $where cannot be empty"},
		{name: "$where of code with scope", ref: whereRef, docs: docs, filter: `{"$where":{"$code":"true","$scope":{}}}`,
			code: 4649201, msg: "$where no longer supports deprecated BSON type CodeWScope"},
		{name: "$sampleRate under $elemMatch", ref: parseLevelRef, cov: q("$sampleRate"), docs: docs, filter: `{"a":{"$elemMatch":{"$sampleRate":0.5}}}`,
			code: mongoerr.BadValue, msg: "$sampleRate can only be applied to the top-level document"},
		{name: "$sampleRate under $elemMatch is refused before its argument", ref: parseLevelRef, cov: q("$sampleRate"), docs: docs,
			filter: `{"a":{"$elemMatch":{"b":1,"$or":[{"$sampleRate":"x"}]}}}`, code: mongoerr.BadValue, msg: "$sampleRate can only be applied to the top-level document"},
		{name: "$sampleRate under a top-level $and", ref: parseLevelRef, cov: cover{family: query, op: "$sampleRate", col: semantics}, docs: docs,
			filter: `{"$and":[{"$sampleRate":1}]}`, want: `[{"_id": 1, "a": [{"b": 1}]}]`},
		{name: "$near after another operator", ref: parseLevelRef, cov: q("$near"), docs: docs, filter: `{"a":{"$gt":1,"$near":[0,0]}}`,
			code: mongoerr.BadValue, msg: "near must be first in: { $gt: 1, $near: [ 0, 0 ] }"},
		{name: "$nearSphere after another operator", ref: parseLevelRef, cov: q("$nearSphere"), docs: docs, filter: `{"a":{"$exists":true,"$nearSphere":[0,0]}}`,
			code: mongoerr.BadValue, msg: "near must be first in: { $exists: true, $nearSphere: [ 0, 0 ] }"},
		{name: "a path of 181 parts", ref: pathLengthRef, docs: docs, filter: `{"a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a":1}`, code: 5729100, msg: "FieldPath is too long"},
		{name: "a path of 181 parts under $or", ref: pathLengthRef, docs: docs, filter: `{"$or":[{"a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a":{"$exists":true}}]}`, code: 5729100, msg: "FieldPath is too long"},
		{name: "a path of 180 parts", ref: pathLengthRef, cov: cover{family: query, op: "$exists", col: semantics}, docs: docs,
			filter: `{"a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a":{"$exists":false}}`, want: `[{"_id": 1, "a": [{"b": 1}]}]`},
	})
}

// A validator may not hold $where or the $near family at any depth: the
// refusal comes before the one for a nested position.
func TestQueryParseLevelsInValidators(t *testing.T) {
	q := func(op string) cover { return cover{family: query, op: op, col: errorCol} }
	runCmdCases(t, []cmdCase{
		{name: "$where under $elemMatch in a validator", ref: validatorRef, cov: q("$where"), cmd: `{"create": "v", "validator": {"a": {"$elemMatch": {"$where": "1"}}}}`,
			code: mongoerr.BadValue, msg: "Parsing of collection validator failed :: caused by :: $where is not allowed in this context"},
		{name: "$near under $elemMatch in a validator", ref: validatorRef, cov: q("$near"), cmd: `{"create": "v", "validator": {"a": {"$elemMatch": {"b": {"$near": [0, 0]}}}}}`,
			code: 5626500, msg: "Parsing of collection validator failed :: caused by :: $geoNear, $near, and $nearSphere are not allowed in this context"},
		// $text checks its position first.
		{name: "$text under $elemMatch in a validator", ref: validatorRef, cov: q("$text"), cmd: `{"create": "v", "validator": {"a": {"$elemMatch": {"$text": {"$search": "x"}}}}}`,
			code: mongoerr.BadValue, msg: "Parsing of collection validator failed :: caused by :: $text can only be applied to the top-level document"},
	})
}
