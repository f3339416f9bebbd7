package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The query operator sweep: for every operator the sandbox accepts, the
// BSON types it distinguishes (types), what it does beyond the tables of
// query_test.go (semantics), and the arguments it refuses (errors). The
// facts come from mongod's matcher (src/mongo/db/matcher/
// expression_parser.cpp, expression_leaf.cpp, expression_array.cpp,
// expression_type.cpp, expression_bit_test...) and the manual's operator
// pages; the cases are written for this suite.

const (
	leafRef    = "src/mongo/db/matcher/expression_leaf.cpp; manual: reference/operator/query"
	typeRef    = "src/mongo/db/matcher/expression_type.cpp, src/mongo/bson/bsontypes.cpp (type aliases); manual: reference/operator/query/type"
	bitsRef    = "src/mongo/db/matcher/expression_leaf.cpp (BitTestMatchExpression); manual: reference/operator/query-bitwise; jstests/core/query/bittest.js"
	arrayRef   = "src/mongo/db/matcher/expression_array.cpp; manual: reference/operator/query-array"
	logicalRef = "src/mongo/db/matcher/expression_tree.cpp; manual: reference/operator/query-logical"
	alwaysRef  = "src/mongo/db/matcher/expression_always_boolean.h; jstests/core/query/always_true_false.js"
	sampleRef  = "src/mongo/db/matcher/expression_parser.cpp (parseSampleRate); manual: reference/operator/query/sampleRate"
	modRef     = "src/mongo/db/matcher/expression_parser.cpp (parseMOD, BSONElement::tryCoerce in src/mongo/bson/bsonelement.cpp), expression_leaf.cpp (ModMatchExpression::matchesSingleElement); manual: reference/operator/query/mod"
	refusedRef = "src/mongo/db/matcher/expression_parser.cpp, src/mongo/db/query/query_planner.cpp; manual: reference/operator/query/where, query/text, query/near"
)

// typedDocs holds one value of each BSON type the comparison operators
// bracket: numbers of every width are equal to each other, other types
// never compare across.
const typedDocs = `[{"_id":1,"v":1},{"_id":2,"v":{"$numberLong":"1"}},{"_id":3,"v":1.0},{"_id":4,"v":{"$numberDecimal":"1"}},
	{"_id":5,"v":"1"},{"_id":6,"v":true},{"_id":7,"v":null},{"_id":8},{"_id":9,"v":[1,"a"]},{"_id":10,"v":{"x":1}},
	{"_id":11,"v":{"$date":"2020-01-01T00:00:00Z"}},{"_id":12,"v":{"$oid":"5f0000000000000000000000"}},
	{"_id":13,"v":{"$binary":{"base64":"AQ==","subType":"00"}}},{"_id":14,"v":{"$minKey":1}},{"_id":15,"v":{"$maxKey":1}},
	{"_id":16,"v":{"$numberDouble":"NaN"}},{"_id":17,"v":{"$timestamp":{"t":1,"i":1}}},{"_id":18,"v":{"$numberDecimal":"NaN"}}]`

func TestQueryOperatorTypes(t *testing.T) {
	runFilterTableIn(t, leafRef+"; manual: reference/bson-type-comparison-order", typedDocs, types, [][2]string{
		{`{"v":1}`, `[1,2,3,4,9]`},
		{`{"v":{"$eq":{"$numberDecimal":"1.00"}}}`, `[1,2,3,4,9]`},
		{`{"v":{"$eq":"1"}}`, `[5]`},
		{`{"v":{"$eq":null}}`, `[7,8]`},
		{`{"v":{"$eq":{"$numberDouble":"NaN"}}}`, `[16,18]`},
		{`{"v":{"$gt":0}}`, `[1,2,3,4,9]`},
		{`{"v":{"$gt":"0"}}`, `[5,9]`},
		{`{"v":{"$gte":{"$date":"2020-01-01T00:00:00Z"}}}`, `[11]`},
		{`{"v":{"$lt":{"$oid":"5f0000000000000000000001"}}}`, `[12]`},
		{`{"v":{"$lt":{"$numberDouble":"Infinity"}}}`, `[1,2,3,4,9]`},
		{`{"v":{"$lte":true}}`, `[6]`},
		{`{"v":{"$lte":{"$timestamp":{"t":2,"i":0}}}}`, `[17]`},
		{`{"v":{"$ne":1}}`, `[5,6,7,8,10,11,12,13,14,15,16,17,18]`},
		{`{"v":{"$in":[{"$numberDecimal":"1"},"x"]}}`, `[1,2,3,4,9]`},
		{`{"v":{"$nin":[1,null,"1"]}}`, `[6,10,11,12,13,14,15,16,17,18]`},
		{`{"v":{"$exists":0}}`, `[8]`},
		{`{"v":{"$exists":"no"}}`, `[1,2,3,4,5,6,7,9,10,11,12,13,14,15,16,17,18]`},
		{`{"v":{"$type":"int"}}`, `[1,9]`},
		{`{"v":{"$type":"long"}}`, `[2]`},
		{`{"v":{"$type":"double"}}`, `[3,16]`},
		{`{"v":{"$type":"decimal"}}`, `[4,18]`},
		{`{"v":{"$type":"number"}}`, `[1,2,3,4,9,16,18]`},
		{`{"v":{"$type":["bool","date","objectId"]}}`, `[6,11,12]`},
		{`{"v":{"$type":[-1,127]}}`, `[14,15]`},
		{`{"v":{"$type":{"$numberLong":"17"}}}`, `[17]`},
		{`{"v":{"$type":5.0}}`, `[13]`},
		{`{"v":{"$type":"object"}}`, `[10]`},
		{`{"v":{"$type":"string"}}`, `[5,9]`},
		{`{"v":{"$mod":[2,1]}}`, `[1,2,3,4,9]`},
		{`{"v":{"$mod":[{"$numberDecimal":"2"},{"$numberLong":"1"}]}}`, `[1,2,3,4,9]`},
		{`{"v":{"$size":{"$numberLong":"2"}}}`, `[9]`},
		{`{"v":{"$size":{"$numberDecimal":"2"}}}`, `[9]`},
		{`{"v":{"$all":[1.0]}}`, `[1,2,3,4,9]`},
		{`{"v":{"$all":["a",1]}}`, `[9]`},
		{`{"v":{"$elemMatch":{"$type":"string"}}}`, `[9]`},
		{`{"v":{"$regex":"1"}}`, `[5]`},
		{`{"v":{"$regex":"A","$options":"i"}}`, `[9]`},
		{`{"v":{"$options":"i","$regex":"^A$"}}`, `[9]`},
		{`{"v":{"$not":{"$type":"number"}}}`, `[5,6,7,8,10,11,12,13,14,15,17]`},
		{`{"v":{"$bitsAllSet":1}}`, `[1,2,3,4,9,13]`},
		{`{"v":{"$bitsAllClear":{"$binary":{"base64":"Ag==","subType":"00"}}}}`, `[1,2,3,4,9,13]`},
		{`{"v":{"$bitsAnySet":[0,1]}}`, `[1,2,3,4,9,13]`},
		{`{"v":{"$bitsAnyClear":[{"$numberLong":"1"}]}}`, `[1,2,3,4,9,13]`},
		{`{"$and":[{"v":1},{"v":{"$type":"long"}}]}`, `[2]`},
		{`{"$or":[{"v":"1"},{"v":true}]}`, `[5,6]`},
		{`{"$nor":[{"v":{"$type":"number"}},{"v":{"$exists":false}}]}`, `[5,6,7,10,11,12,13,14,15,17]`},
		{`{"$expr":{"$eq":["$v",1]}}`, `[1,2,3,4]`},
		{`{"$comment":{"why":["any","type"]},"v":true}`, `[6]`},
		{`{"$alwaysTrue":1.0,"v":{"$type":"minKey"}}`, `[14]`},
		{`{"$alwaysFalse":{"$numberLong":"1"}}`, `[]`},
		{`{"$sampleRate":{"$numberLong":"1"},"v":{"$type":"maxKey"}}`, `[15]`},
	})
}

func TestQueryOperatorSemantics(t *testing.T) {
	runFilterTable(t, leafRef+"; "+bitsRef+"; "+alwaysRef+"; "+sampleRef,
		`[{"_id":1,"n":54,"b":{"$binary":{"base64":"AAoB","subType":"00"}},"s":"ab\ncd"},{"_id":2,"n":-1,"s":"AB"},
		  {"_id":3,"n":{"$numberDouble":"2.5"}},{"_id":4,"n":[1,4]},{"_id":5}]`, [][2]string{
			// 54 is 0b110110; -1 has every bit set, positions past 63 included
			{`{"n":{"$bitsAllSet":[1,2,4,5]}}`, `[1,2]`},
			{`{"n":{"$bitsAllSet":[100]}}`, `[2]`},
			{`{"n":{"$bitsAllClear":[0,3]}}`, `[1,4]`},
			{`{"n":{"$bitsAnySet":[0]}}`, `[2,4]`},
			{`{"n":{"$bitsAnyClear":[0,1]}}`, `[1,4]`},
			{`{"n":{"$bitsAllSet":[]}}`, `[1,2,4]`},
			{`{"n":{"$bitsAnySet":[]}}`, `[]`},
			{`{"b":{"$bitsAllSet":[9,11,16]}}`, `[1]`},
			{`{"b":{"$bitsAnyClear":[8]}}`, `[1]`},
			{`{"$alwaysTrue":1}`, `[1,2,3,4,5]`},
			{`{"$alwaysFalse":1}`, `[]`},
			{`{"$or":[{"$alwaysFalse":1},{"_id":5}]}`, `[5]`},
			{`{"$sampleRate":1}`, `[1,2,3,4,5]`},
			{`{"$sampleRate":0}`, `[]`},
			{`{"s":{"$regex":"^cd","$options":"m"}}`, `[1]`},
			{`{"s":{"$regex":"^cd"}}`, `[]`},
			{`{"s":{"$options":"i","$regex":"^ab$"}}`, `[2]`},
			{`{"$comment":"only a note","_id":3}`, `[3]`},
			{`{"$nor":[{"n":{"$gt":0}}]}`, `[2,5]`},
			{`{"n":{"$lt":0}}`, `[2]`},
			{`{"n":{"$lte":1}}`, `[2,4]`},
			{`{"n":{"$gte":54}}`, `[1]`},
			{`{"n":{"$gt":3,"$lt":5}}`, `[4]`}, // each bound may match a different element
			{`{"n":{"$elemMatch":{"$gt":3,"$lt":5}}}`, `[4]`},
			{`{"n":{"$eq":[1,4]}}`, `[4]`},
		})
}

// $mod truncates a double or decimal dividend toward zero and matches
// only when the result is a long: NaN, the infinities and values beyond
// the long range never match, whatever the divisor.
func TestQueryModRange(t *testing.T) {
	runFilterTable(t, modRef, `[{"_id":1,"n":{"$numberDouble":"1e19"}},{"_id":2,"n":{"$numberDecimal":"-1e30"}},{"_id":3,"n":{"$numberDouble":"-7.9"}},
		{"_id":4,"n":{"$numberDecimal":"7.9"}},{"_id":5,"n":{"$numberDouble":"-Infinity"}},{"_id":6,"n":{"$numberLong":"-9223372036854775808"}}]`, [][2]string{
		{`{"n":{"$mod":[1,0]}}`, `[3,4,6]`},
		{`{"n":{"$mod":[2,-1]}}`, `[3]`},
		{`{"n":{"$mod":[-1,0]}}`, `[3,4,6]`},
		{`{"n":{"$mod":[{"$numberDecimal":"2.9"},{"$numberDouble":"1.9"}]}}`, `[4]`},
		{`{"n":{"$mod":[{"$numberDouble":"-9223372036854775808"},0]}}`, `[6]`},
	})
}

func TestQueryOperatorErrors(t *testing.T) {
	docs := `[{"_id": 1, "a": 1}]`
	q := func(op string) cover { return cover{family: query, op: op, col: errorCol} }
	runFindCases(t, []findCase{
		{name: "$eq undefined", ref: leafRef, docs: docs, filter: `{"a":{"$eq":{"$undefined":true}}}`, code: mongoerr.BadValue, msg: "cannot compare to undefined"},
		{name: "$gt regex", ref: parserRef, docs: docs, filter: `{"a":{"$gt":{"$regularExpression":{"pattern":"x","options":""}}}}`, code: mongoerr.BadValue, msg: "Can't have RegEx as arg to predicate over field 'a'."},
		{name: "$gte regex", ref: parserRef, docs: docs, filter: `{"a":{"$gte":{"$regularExpression":{"pattern":"x","options":""}}}}`, code: mongoerr.BadValue, msg: "Can't have RegEx as arg to predicate over field 'a'."},
		{name: "$lt regex", ref: parserRef, docs: docs, filter: `{"a":{"$lt":{"$regularExpression":{"pattern":"x","options":""}}}}`, code: mongoerr.BadValue, msg: "Can't have RegEx as arg to predicate over field 'a'."},
		{name: "$lte undefined", ref: leafRef, docs: docs, filter: `{"a":{"$lte":{"$undefined":true}}}`, code: mongoerr.BadValue, msg: "cannot compare to undefined"},
		{name: "$ne regex", ref: parserRef, docs: docs, filter: `{"a":{"$ne":{"$regularExpression":{"pattern":"x","options":""}}}}`, code: mongoerr.BadValue, msg: "Can't have regex as arg to $ne."},
		{name: "$in with an operator", ref: parserRef, docs: docs, filter: `{"a":{"$in":[{"$gt":1}]}}`, code: mongoerr.BadValue, msg: "cannot nest $ under $in"},
		{name: "$in with undefined", ref: leafRef, docs: docs, filter: `{"a":{"$in":[{"$undefined":true}]}}`, code: mongoerr.BadValue, msg: "InMatchExpression equality cannot be undefined"},
		{name: "$nin with an operator", ref: parserRef, docs: docs, filter: `{"a":{"$nin":[{"$exists":true}]}}`, code: mongoerr.BadValue, msg: "cannot nest $ under $in"},
		{name: "$exists at the top", ref: parserRef, cov: q("$exists"), docs: docs, filter: `{"$exists":true}`, code: mongoerr.BadValue, msg: "unknown top level operator: $exists. If you have a field name that starts with a '$' symbol, consider using $getField or $setField."},
		{name: "$type object", ref: typeRef, docs: docs, filter: `{"a":{"$type":{}}}`, code: mongoerr.TypeMismatch, msg: "type must be represented as a number or a string"},
		{name: "$type empty list", ref: typeRef, docs: docs, filter: `{"a":{"$type":[]}}`, code: mongoerr.FailedToParse, msg: "a must match at least one type"},
		{name: "$type NaN prints as a stream does", ref: typeRef + " (parseSingleType: elt.number() through str::stream)", docs: docs, filter: `{"a":{"$type":{"$numberDouble":"NaN"}}}`,
			code: mongoerr.BadValue, msg: "Invalid numerical type code: nan"},
		{name: "$type of a large double", ref: typeRef + " (parseSingleType)", docs: docs, filter: `{"a":{"$type":{"$numberDouble":"1e20"}}}`,
			code: mongoerr.BadValue, msg: "Invalid numerical type code: 1e+20"},
		{name: "$type of an integral decimal", ref: typeRef + " (parseSingleType: parseIntegerElementToInt)", docs: docs, filter: `{"a":{"$type":{"$numberDecimal":"16.0"}}}`,
			cov: cover{family: query, op: "$type", col: types}, want: `[{"_id":1,"a":1}]`},
		{name: "$type 1.5", ref: typeRef, docs: docs, filter: `{"a":{"$type":1.5}}`, code: mongoerr.BadValue, msg: "Invalid numerical type code: 1.5"},
		// 0 (EOO) and "missing", the name the $type expression gives a
		// missing field, are refused with a pointer to $exists.
		{name: "$type 0", ref: typeRef + "; src/mongo/db/matcher/matcher_type_set.cpp (parseSingleType)", docs: docs, filter: `{"a":{"$type":0}}`,
			code: mongoerr.BadValue, msg: "Invalid numerical type code: 0. Instead use {$exists:false}."},
		{name: "$type 0 as a long in a list", ref: typeRef + "; src/mongo/db/matcher/matcher_type_set.cpp (parseSingleType)", docs: docs, filter: `{"a":{"$type":["int",{"$numberLong":"0"}]}}`,
			code: mongoerr.BadValue, msg: "Invalid numerical type code: 0. Instead use {$exists:false}."},
		{name: "$type missing", ref: typeRef + "; src/mongo/db/matcher/matcher_type_set.cpp (addAliasToTypeSet)", docs: docs, filter: `{"a":{"$type":"missing"}}`,
			code: mongoerr.BadValue, msg: "'missing' is not a legal type name. To query for non-existence of a field, use {$exists:false}."},
		{name: "$mod divisor string", ref: parserRef, docs: docs, filter: `{"a":{"$mod":["a",1]}}`, code: mongoerr.BadValue, msg: "malformed mod, divisor not a number"},
		{name: "$mod remainder string", ref: parserRef, docs: docs, filter: `{"a":{"$mod":[2,"b"]}}`, code: mongoerr.BadValue, msg: "malformed mod, remainder not a number"},
		{name: "$mod divisor beyond the long range", ref: modRef, docs: docs, filter: `{"a":{"$mod":[{"$numberDouble":"9223372036854775808"},1]}}`, code: mongoerr.BadValue,
			msg: "malformed mod, divisor value is invalid :: caused by :: Out of bounds coercing to integral value"},
		{name: "$mod decimal remainder beyond the long range", ref: modRef, docs: docs, filter: `{"a":{"$mod":[2,{"$numberDecimal":"-1e30"}]}}`, code: mongoerr.BadValue,
			msg: "malformed mod, remainder value is invalid :: caused by :: Out of bounds coercing to integral value"},
		{name: "$mod decimal infinity remainder", ref: modRef, docs: docs, filter: `{"a":{"$mod":[2,{"$numberDecimal":"Infinity"}]}}`, code: mongoerr.BadValue,
			msg: "malformed mod, remainder value is invalid :: caused by :: Unable to coerce NaN/Inf to integral type"},
		{name: "$mod NaN divisor", ref: parserRef, docs: docs, filter: `{"a":{"$mod":[{"$numberDouble":"NaN"},1]}}`, code: mongoerr.BadValue, msg: "malformed mod, divisor value is invalid :: caused by :: Unable to coerce NaN/Inf to integral type"},
		{name: "$size too big", ref: parserRef, docs: docs, filter: `{"a":{"$size":{"$numberLong":"4294967296"}}}`, code: mongoerr.BadValue, msg: "Failed to parse $size. Cannot represent $size: 4294967296 in an int"},
		{name: "$all with an operator", ref: parserRef, docs: docs, filter: `{"a":{"$all":[{"$gt":1}]}}`, code: mongoerr.BadValue, msg: "no $ expressions in $all"},
		{name: "$all mixing $elemMatch", ref: parserRef, docs: docs, filter: `{"a":{"$all":[{"$elemMatch":{"$gt":0}},1]}}`, code: mongoerr.BadValue, msg: "$all/$elemMatch has to be consistent"},
		{name: "$elemMatch with $where", ref: parserRef + " (parseWhere: kUserSubDocument)", docs: docs, filter: `{"a":{"$elemMatch":{"$where":"1"}}}`, code: mongoerr.BadValue, msg: "$where can only be applied to the top-level document"},
		{name: "$elemMatch with $expr", ref: parserRef, docs: docs, filter: `{"a":{"$elemMatch":{"$expr":{"$eq":[1,1]}}}}`, code: mongoerr.BadValue, msg: "$expr can only be applied to the top-level document"},
		{name: "$regex and $options both with flags", ref: parserRef, docs: docs, filter: `{"a":{"$regex":{"$regularExpression":{"pattern":"x","options":"i"}},"$options":"m"}}`, code: 51075, msg: "options set in both $regex and $options"},
		{name: "$options first, then a regex with flags", ref: parserRef, docs: docs, filter: `{"a":{"$options":"m","$regex":{"$regularExpression":{"pattern":"x","options":"i"}}}}`, code: 51074, msg: "options set in both $regex and $options"},
		{name: "$options not a string", ref: parserRef, docs: docs, filter: `{"a":{"$regex":"x","$options":1}}`, code: mongoerr.BadValue, msg: "$options has to be a string"},
		{name: "$regex embedded null", ref: leafRef, docs: docs, filter: `{"a":{"$regex":"a\u0000b"}}`, code: mongoerr.BadValue, msg: "Regular expression cannot contain an embedded null byte"},
		// 8.0's constructor reads the flags (pcre_util::flagsToOptions,
		// opName "") before it looks at null bytes: a null among the
		// options is an unknown flag, and the message keeps the empty
		// operator name's leading space (jstests/core/query/regex/regex_error.js).
		{name: "$regex options embedded null", ref: leafRef + "; src/mongo/util/pcre_util.cpp flagsToOptions", cov: q("$regex"), docs: docs, filter: `{"a":{"$regex":"a","$options":"i\u0000"}}`, code: 51108, msg: " invalid flag in regex options: \x00"},
		{name: "$regex bad flag before a null in the pattern", ref: leafRef + "; src/mongo/util/pcre_util.cpp flagsToOptions", cov: q("$regex"), docs: docs, filter: `{"a":{"$regex":"a\u0000b","$options":"z"}}`, code: 51108, msg: " invalid flag in regex options: z"},
		{name: "$regex invalid flag in a literal", ref: leafRef + "; src/mongo/util/pcre_util.cpp flagsToOptions", docs: docs, filter: `{"a":{"$regularExpression":{"pattern":"a","options":"q"}}}`, cov: q("$regex"), code: 51108, msg: " invalid flag in regex options: q"},
		{name: "$regex unbalanced bracket", ref: leafRef, docs: docs, filter: `{"a":{"$regex":"[a"}}`, code: 51091, msg: "Regular expression is invalid: missing terminating ] for character class"},
		{name: "$not with a string", ref: parserRef, docs: docs, filter: `{"a":{"$not":"x"}}`, code: mongoerr.BadValue, msg: "$not needs a regex or a document"},
		{name: "$and entry not a document", ref: parserRef, docs: docs, filter: `{"$and":[1]}`, code: mongoerr.BadValue, msg: "$or/$and/$nor entries need to be full objects"},
		{name: "$nor not an array", ref: parserRef, docs: docs, filter: `{"$nor":{"a":1}}`, code: mongoerr.BadValue, msg: "$nor must be an array"},
		{name: "$nor empty", ref: parserRef, docs: docs, filter: `{"$nor":[]}`, code: mongoerr.BadValue, msg: "$and/$or/$nor must be a nonempty array"},
		{name: "$or entry with an unknown operator", ref: parserRef, docs: docs, filter: `{"$or":[{"a":{"$bad":1}}]}`, cov: q("$or"), code: mongoerr.BadValue, msg: "unknown operator: $bad"},
		{name: "$expr under a field", ref: parserRef, docs: docs, filter: `{"a":{"$expr":1}}`, cov: q("$expr"), code: mongoerr.BadValue, msg: "unknown operator: $expr"},
		{name: "$comment under a field", ref: parserRef, docs: docs, filter: `{"a":{"$comment":"x"}}`, cov: q("$comment"), code: mongoerr.BadValue, msg: "unknown operator: $comment"},
		{name: "$alwaysTrue of 2", ref: alwaysRef, docs: docs, filter: `{"$alwaysTrue":2}`, code: mongoerr.FailedToParse, msg: "$alwaysTrue must be an integer value of 1"},
		{name: "$alwaysFalse of a string", ref: parserRef, docs: docs, filter: `{"$alwaysFalse":"1"}`, code: mongoerr.FailedToParse, msg: `Expected a number in: $alwaysFalse: "1"`},
		// parseBitTest names the path, not the operator, in its refusal.
		{name: "$bitsAllSet string", ref: bitsRef, docs: docs, filter: `{"a":{"$bitsAllSet":"x"}}`, code: mongoerr.BadValue, msg: `a takes an Array, a number, or a BinData but received: $bitsAllSet: "x"`},
		{name: "$bitsAnySet bool on a dotted path", ref: bitsRef, docs: docs, filter: `{"a.b":{"$bitsAnySet":true}}`, code: mongoerr.BadValue, msg: `a.b takes an Array, a number, or a BinData but received: $bitsAnySet: true`},
		// A mask is read with BSONElement::parseIntegerElementToNonNegativeLong.
		{name: "$bitsAllClear negative mask", ref: bitsRef, docs: docs, filter: `{"a":{"$bitsAllClear":-1}}`, code: mongoerr.FailedToParse, msg: "Expected a non-negative number in: $bitsAllClear: -1"},
		{name: "$bitsAnyClear negative double mask", ref: bitsRef, docs: docs, filter: `{"a":{"$bitsAnyClear":-1.0}}`, code: mongoerr.FailedToParse, msg: "Expected a non-negative number in: $bitsAnyClear: -1.0"},
		{name: "$bitsAnySet fractional mask", ref: bitsRef, docs: docs, filter: `{"a":{"$bitsAnySet":1.5}}`, code: mongoerr.FailedToParse, msg: "Expected an integer: $bitsAnySet: 1.5"},
		// Each position is read with BSONElement::parseIntegerElementToNonNegativeInt
		// (parseBitPositionsArray), the element named by its index.
		{name: "$bitsAnyClear negative position", ref: bitsRef, docs: docs, filter: `{"a":{"$bitsAnyClear":[-1]}}`, code: mongoerr.BadValue, msg: "Failed to parse bit position. Expected a non-negative number in: 0: -1"},
		{name: "$bitsAllSet position not a number", ref: bitsRef, docs: docs, filter: `{"a":{"$bitsAllSet":["a"]}}`, code: mongoerr.BadValue, msg: `Failed to parse bit position. Expected a number in: 0: "a"`},
		{name: "$bitsAllSet fractional second position", ref: bitsRef, docs: docs, filter: `{"a":{"$bitsAllSet":[0,1.5]}}`, code: mongoerr.BadValue, msg: "Failed to parse bit position. Expected an integer: 1: 1.5"},
		{name: "$bitsAnySet NaN position", ref: bitsRef, docs: docs, filter: `{"a":{"$bitsAnySet":[{"$numberDouble":"NaN"}]}}`, code: mongoerr.BadValue, msg: "Failed to parse bit position. Expected an integer, but found NaN in: 0: nan.0"},
		{name: "$bitsAllClear position beyond an int", ref: bitsRef, docs: docs, filter: `{"a":{"$bitsAllClear":[{"$numberLong":"4294967296"}]}}`, code: mongoerr.BadValue, msg: "Failed to parse bit position. Cannot represent 0: 4294967296 in an int"},
		{name: "$bitsAllSet decimal position", ref: bitsRef, cov: cover{family: query, op: "$bitsAllSet", col: types}, docs: `[{"_id": 1, "a": 4}, {"_id": 2, "a": 3}]`,
			filter: `{"a":{"$bitsAllSet":[{"$numberDecimal":"2"}]}}`, want: `[{"_id": 1, "a": 4}]`},
		{name: "$sampleRate of a string", ref: sampleRef, docs: docs, filter: `{"$sampleRate":"0.5"}`, code: mongoerr.BadValue, msg: "argument to $sampleRate must be a numeric type"},
		{name: "$sampleRate above 1", ref: sampleRef, docs: docs, filter: `{"$sampleRate":1.5}`, code: mongoerr.BadValue, msg: "numeric argument to $sampleRate must be in [0, 1]"},
		{name: "$where on a field", ref: parserRef, docs: docs, filter: `{"a":{"$where":"true"}}`, cov: q("$where"), code: mongoerr.BadValue, msg: "$where cannot be applied to a field"},
		{name: "$text inside $elemMatch", ref: parserRef, docs: docs, filter: `{"a":{"$elemMatch":{"$text":{"$search":"x"}}}}`, cov: q("$text"), code: mongoerr.BadValue, msg: "$text can only be applied to the top-level document"},
	})
}

// The operators that need what the sandbox has not got (a script engine,
// a text index, a geospatial index) answer with mongod's own refusal for
// that case, whatever the argument's type.
func TestQueryRefusedOperators(t *testing.T) {
	docs := `[{"_id": 1, "a": [0, 0], "s": "x"}]`
	q := func(op string, col column) cover { return cover{family: query, op: op, col: col} }
	runFindCases(t, []findCase{
		{name: "$where without a script engine", ref: refusedRef, cov: q("$where", semantics), docs: docs, filter: `{"$where":"this.a > 0"}`,
			code: mongoerr.BadValue, msg: "no globalScriptEngine in $where parsing"},
		{name: "$where with a code value", ref: refusedRef, cov: q("$where", types), docs: docs, filter: `{"$where":{"$code":"true"}}`,
			code: mongoerr.BadValue, msg: "no globalScriptEngine in $where parsing"},
		{name: "$text without a text index", ref: refusedRef, cov: q("$text", semantics), docs: docs, filter: `{"$text":{"$search":"x"}}`,
			code: mongoerr.IndexNotFound, msg: "text index required for $text query"},
		{name: "$text with a language", ref: refusedRef, cov: q("$text", types), docs: docs, filter: `{"$text":{"$search":"x","$language":"en","$caseSensitive":true}}`,
			code: mongoerr.IndexNotFound, msg: "text index required for $text query"},
		{name: "$near without a geospatial index", ref: refusedRef, cov: q("$near", semantics), docs: docs, filter: `{"a":{"$near":[0,0]}}`,
			code: mongoerr.NoQueryExecutionPlans},
		{name: "$near with a GeoJSON point", ref: refusedRef, cov: q("$near", types), docs: docs,
			filter: `{"a":{"$near":{"$geometry":{"type":"Point","coordinates":[0,0]}}}}`, code: mongoerr.NoQueryExecutionPlans},
		{name: "$nearSphere without a geospatial index", ref: refusedRef, cov: q("$nearSphere", semantics), docs: docs, filter: `{"a":{"$nearSphere":[0,0]}}`,
			code: mongoerr.NoQueryExecutionPlans},
		{name: "$nearSphere with a GeoJSON point", ref: refusedRef, cov: q("$nearSphere", types), docs: docs,
			filter: `{"a":{"$nearSphere":{"$geometry":{"type":"Point","coordinates":[0,0]}}}}`, code: mongoerr.NoQueryExecutionPlans},
	})
}

// validatorRef: what a collection validator may not contain.
const validatorRef = "src/mongo/db/catalog/collection_impl.cpp (parseValidator); src/mongo/db/matcher/expression_parser.cpp (AllowedFeatures)"

// Validators may not use the operators that need a script engine, a text
// index or a geospatial index: mongod refuses them when the collection is
// created.
func TestQueryOperatorsInValidators(t *testing.T) {
	q := func(op string) cover { return cover{family: query, op: op, col: errorCol} }
	runCmdCases(t, []cmdCase{
		{name: "$where in a validator", ref: validatorRef, cov: q("$where"), cmd: `{"create": "v", "validator": {"$where": "true"}}`,
			code: mongoerr.BadValue, msg: "Parsing of collection validator failed :: caused by :: $where is not allowed in this context"},
		{name: "$text in a validator", ref: validatorRef, cov: q("$text"), cmd: `{"create": "v", "validator": {"$text": {"$search": "x"}}}`,
			code: mongoerr.BadValue, msg: "Parsing of collection validator failed :: caused by :: $text is not allowed in this context"},
		{name: "$near in a validator", ref: validatorRef, cov: q("$near"), cmd: `{"create": "v", "validator": {"a": {"$near": [0, 0]}}}`,
			code: 5626500, msg: "Parsing of collection validator failed :: caused by :: $geoNear, $near, and $nearSphere are not allowed in this context"},
		{name: "$nearSphere in a validator", ref: validatorRef, cov: q("$nearSphere"), cmd: `{"create": "v", "validator": {"a": {"$nearSphere": [0, 0]}}}`,
			code: 5626500, msg: "Parsing of collection validator failed :: caused by :: $geoNear, $near, and $nearSphere are not allowed in this context"},
	})
}
