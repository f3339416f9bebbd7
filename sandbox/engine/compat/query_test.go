package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// runFilterTable runs each filter (find on c sorted by _id) over docs and
// compares the _ids it returns; each counts in its first operator's row
// ($eq when it has none), in the semantics column.
func runFilterTable(t *testing.T, ref, docs string, cases [][2]string) {
	t.Helper()
	runFilterTableIn(t, ref, docs, semantics, cases)
}

// runFilterTableIn is runFilterTable counting in column col.
func runFilterTableIn(t *testing.T, ref, docs string, col column, cases [][2]string) {
	t.Helper()
	s := newSuite(t)
	for _, c := range cases {
		op := firstOperator(ejDoc(t, c[0]))
		if op == "" {
			op = "$eq"
		}
		s.runCase(t, c[0], ref, cover{family: query, op: op, col: col}, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), docs)
			ids := foundIDs(t, db, bson.D{{Key: "find", Value: "c"}, {Key: "filter", Value: ejDoc(t, c[0])},
				{Key: "sort", Value: bson.D{{Key: "_id", Value: 1}}}, {Key: "projection", Value: bson.D{{Key: "_id", Value: 1}}}})
			sameValue(t, c[0]+" ("+ref+")", ids, c[1])
		})
	}
}

// The operator tables follow the manual pages of each operator
// (query-comparison, query-array, query-element, query-logical,
// query-evaluation) and jstests/core/query.
func TestQueryOperators(t *testing.T) {
	runFilterTable(t, "manual: reference/operator/query; jstests/core/query", `[{"_id":1,"a":1,"s":"abc","arr":[1,2,3],"d":{"x":1,"y":[{"z":1},{"z":2}]}},
		{"_id":2,"a":{"$numberLong":"2"},"s":"ABD","arr":[[1,2],3],"d":{"x":2}},
		{"_id":3,"a":3.5,"s":"xyz","arr":[],"n":null},
		{"_id":4,"a":"1","arr":[{"b":1,"c":2},{"b":2,"c":1}]},
		{"_id":5,"a":[1,5],"arr":[4,5],"d":[{"x":3},{"x":[4,5]}]},
		{"_id":6,"a":null,"s":{"$regularExpression":{"pattern":"^ab","options":"i"}}},
		{"_id":7,"a":{"$numberDecimal":"1.0"},"arr":[null,1]},
		{"_id":8}]`, [][2]string{
		{`{"a":1}`, `[1,5,7]`},
		{`{"a":{"$eq":1}}`, `[1,5,7]`},
		{`{"a":{"$ne":1}}`, `[2,3,4,6,8]`},
		{`{"a":{"$gt":1}}`, `[2,3,5]`},
		{`{"a":{"$gte":2}}`, `[2,3,5]`},
		{`{"a":{"$lt":2}}`, `[1,5,7]`},
		{`{"a":{"$lte":1}}`, `[1,5,7]`},
		{`{"a":{"$gt":"0"}}`, `[4]`},
		{`{"a":{"$in":[2,"1"]}}`, `[2,4]`},
		{`{"a":{"$in":[null]}}`, `[6,8]`},
		{`{"a":{"$nin":[1,null]}}`, `[2,3,4]`},
		{`{"a":{"$in":[{"$regularExpression":{"pattern":"^1","options":""}}]}}`, `[4]`},
		{`{"a":null}`, `[6,8]`},
		{`{"a":{"$ne":null}}`, `[1,2,3,4,5,7]`},
		{`{"n":null}`, `[1,2,3,4,5,6,7,8]`},
		{`{"n":{"$exists":true}}`, `[3]`},
		{`{"n":{"$exists":false}}`, `[1,2,4,5,6,7,8]`},
		{`{"n":{"$type":"null"}}`, `[3]`},
		{`{"a":{"$type":"number"}}`, `[1,2,3,5,7]`},
		{`{"a":{"$type":"long"}}`, `[2]`},
		{`{"a":{"$type":18}}`, `[2]`},
		{`{"a":{"$type":["string","decimal"]}}`, `[4,7]`},
		{`{"a":{"$type":"array"}}`, `[5]`},
		{`{"arr":{"$type":"array"}}`, `[1,2,3,4,5,7]`},
		{`{"arr":{"$type":4}}`, `[1,2,3,4,5,7]`},
		{`{"s":{"$type":"regex"}}`, `[6]`},
		{`{"$and":[{"a":{"$gt":0}},{"a":{"$lt":3}}]}`, `[1,2,5,7]`},
		{`{"$or":[{"a":3.5},{"s":"xyz"},{"_id":8}]}`, `[3,8]`},
		{`{"$nor":[{"a":1},{"a":null}]}`, `[2,3,4]`},
		{`{"a":{"$not":{"$gt":1}}}`, `[1,4,6,7,8]`},
		{`{"s":{"$not":{"$regularExpression":{"pattern":"^a","options":""}}}}`, `[2,3,4,5,6,7,8]`},
		{`{"s":{"$regex":"^a"}}`, `[1]`},
		{`{"s":{"$regex":"^a","$options":"i"}}`, `[1,2]`},
		{`{"s":{"$regex":{"$regularExpression":{"pattern":"^A","options":"i"}}}}`, `[1,2]`},
		{`{"s":{"$regularExpression":{"pattern":"b.$","options":""}}}`, `[1]`},
		{`{"s":{"$in":[{"$regularExpression":{"pattern":"Z$","options":"i"}},"ABD"]}}`, `[2,3]`},
		{`{"s":{"$regularExpression":{"pattern":"^ab","options":"i"}}}`, `[1,2,6]`},
		{`{"s":{"$regex":"^x.z$","$options":"s"}}`, `[3]`},
		{`{"s":{"$regex":"a b c","$options":"x"}}`, `[1]`},
		{`{"arr":{"$all":[1,2]}}`, `[1]`},
		{`{"arr":{"$all":[[1,2]]}}`, `[2]`},
		{`{"arr":{"$all":[]}}`, `[]`},
		{`{"arr":{"$all":[{"$elemMatch":{"b":2,"c":1}}]}}`, `[4]`},
		{`{"arr":{"$elemMatch":{"$gte":4,"$lt":5}}}`, `[5]`},
		{`{"arr":{"$elemMatch":{"b":1,"c":2}}}`, `[4]`},
		{`{"arr":{"$elemMatch":{"b":1,"c":1}}}`, `[]`},
		{`{"arr.b":1,"arr.c":1}`, `[4]`},
		{`{"arr":{"$size":0}}`, `[3]`},
		{`{"arr":{"$size":2}}`, `[2,4,5,7]`},
		{`{"arr":{"$size":2.0}}`, `[2,4,5,7]`},
		{`{"a":{"$mod":[2,1]}}`, `[1,3,5,7]`}, // the dividend 3.5 is truncated to 3
		{`{"a":{"$mod":[2,0]}}`, `[2]`},
		{`{"a":{"$mod":[2.5,1]}}`, `[1,3,5,7]`},
		{`{"a":{"$mod":[-2,-1]}}`, `[]`},
		{`{"a":1,"$comment":"hello"}`, `[1,5,7]`},
		{`{"$expr":{"$gt":["$a",2]}}`, `[3,4,5]`},
		{`{"$expr":{"$eq":["$d.x",2]}}`, `[2]`},
		{`{"d.x":1}`, `[1]`},
		{`{"d.x":4}`, `[5]`},
		{`{"d.y.z":2}`, `[1]`},
		{`{"d.y.1.z":2}`, `[1]`},
		{`{"d.0.x":3}`, `[5]`},
		{`{"d.1.x.0":4}`, `[5]`},
		{`{"arr.0":1}`, `[1]`},
		{`{"arr.0":[1,2]}`, `[2]`},
		{`{"arr.0.0":1}`, `[2]`},
		{`{"arr":[1,2,3]}`, `[1]`},
		{`{"arr":[2,1,3]}`, `[]`},
		{`{"arr":[1,2]}`, `[2]`},
		{`{"arr":1}`, `[1,7]`},
		{`{"arr":null}`, `[6,7,8]`},
		{`{"arr":[]}`, `[3]`},
		{`{"d":{"x":2}}`, `[2]`},
		{`{"d":{"x":{"$eq":2}}}`, `[]`},
		{`{"d.x":{"$exists":true}}`, `[1,2,5]`},
		{`{"arr.5":{"$exists":true}}`, `[]`},
		{`{"d.x":null}`, `[3,4,6,7,8]`},
		{`{"_id":{"$in":[]}}`, `[]`},
		{`{"$or":[{"_id":1},{"_id":{"$gt":7}}]}`, `[1,8]`},
		{`{"arr":{"$gt":[1]}}`, `[1,2,4,5]`}, // whole arrays compare element by element
	})
}

// Nested arrays are not traversed for field names, $ne/$nin exclude a
// document when any element matches, embedded-document equality is order
// sensitive, and since 8.0 null equality no longer matches undefined (8.0
// release notes, "Null queries").
func TestQueryArraySemantics(t *testing.T) {
	runFilterTable(t, "manual: tutorial/query-arrays, release-notes/8.0 (null queries); jstests/core/query/array", `[{"_id":1,"a":[[{"b":1}]],"tags":["xa","yb"]},
		{"_id":2,"a":[{"b":[1]}],"arr":[1,2]},
		{"_id":3,"a":{"b":1},"arr":[2,3],"d":{"x":1,"y":1}},
		{"_id":4,"a":5,"arr":[[1,2],3],"d":{"y":1,"x":1}},
		{"_id":5,"u":{"$undefined":true},"a":[{"b":[1,2]},{"b":[3]}],"n":{"$numberDecimal":"5"},"t":{"$date":"2020-01-01T00:00:00Z"}}]`, [][2]string{
		{`{"a.b":1}`, `[2,3,5]`},
		{`{"a.0.b":1}`, `[1,2,5]`}, // a.0 of doc 1 is an array, traversed for b
		{`{"a.0.0.b":1}`, `[1]`},
		{`{"arr":{"$ne":1}}`, `[1,3,4,5]`},
		{`{"arr":{"$nin":[1,3]}}`, `[1,5]`},
		{`{"arr":{"$in":[[1,2]]}}`, `[2,4]`},
		{`{"d":{"x":1,"y":1}}`, `[3]`},
		{`{"d":{"y":1,"x":1}}`, `[4]`},
		{`{"d.x":1,"d.y":1}`, `[3,4]`},
		{`{"arr":{"$elemMatch":{"$not":{"$gt":2}}}}`, `[2,3,4]`}, // [1,2] is not $gt 2: no traversal inside $elemMatch
		{`{"a.b":{"$size":1}}`, `[2,5]`},
		{`{"a.b":{"$size":2}}`, `[5]`},
		{`{"tags":{"$regex":"^y"}}`, `[1]`},
		{`{"a":{"$all":[5]}}`, `[4]`},
		{`{"arr":{"$nin":[]}}`, `[1,2,3,4,5]`},
		{`{"$nor":[{"arr":{"$exists":true}}]}`, `[1,5]`},
		{`{"arr":{"$not":{"$size":2}}}`, `[1,5]`},
		{`{"n":5}`, `[5]`},
		{`{"n":{"$gte":5.0,"$lte":{"$numberLong":"5"}}}`, `[5]`},
		{`{"t":{"$gt":0}}`, `[]`},
		{`{"t":{"$gt":{"$date":"2019-01-01T00:00:00Z"}}}`, `[5]`},
		{`{"u":null}`, `[1,2,3,4]`},
		{`{"u":{"$exists":true}}`, `[5]`},
		{`{"u":{"$type":"undefined"}}`, `[5]`},
		{`{"arr":{"$type":"array"}}`, `[2,3,4]`},
		{`{"arr.0":{"$type":"array"}}`, `[4]`},
		{`{"arr.0":{"$exists":true}}`, `[2,3,4]`},
		{`{"$and":[{"arr":2},{"$or":[{"_id":2},{"_id":3}]}]}`, `[2,3]`},
		{`{"$expr":{"$and":[{"$isArray":"$arr"},{"$eq":[{"$size":"$arr"},2]}]}}`, `[2,3,4]`},
	})
}

// parserRef is where the query errors' codes and messages come from.
const parserRef = "src/mongo/db/matcher/expression_parser.cpp"

func TestQueryErrors(t *testing.T) {
	runFindCases(t, []findCase{
		{name: "{\"a\":{\"$foo\":1}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$foo":1}}`, code: mongoerr.BadValue, msg: "unknown operator: $foo"},
		{name: "{\"$foo\":1}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"$foo":1}`, code: mongoerr.BadValue, msg: "unknown top level operator: $foo. If you have a field name that starts with a '$' symbol, consider using $getField or $setField."},
		{name: "{\"a\":{\"$in\":1}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$in":1}}`, code: mongoerr.BadValue, msg: "$in needs an array"},
		{name: "{\"a\":{\"$nin\":1}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$nin":1}}`, code: mongoerr.BadValue, msg: "$nin needs an array"},
		{name: "{\"a\":{\"$all\":1}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$all":1}}`, code: mongoerr.BadValue, msg: "$all needs an array"},
		{name: "{\"$and\":[]}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"$and":[]}`, code: mongoerr.BadValue, msg: "$and/$or/$nor must be a nonempty array"},
		{name: "{\"$or\":1}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"$or":1}`, code: mongoerr.BadValue, msg: "$or must be an array"},
		{name: "{\"a\":{\"$mod\":[0,1]}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$mod":[0,1]}}`, code: mongoerr.BadValue, msg: "divisor cannot be 0"},
		{name: "{\"a\":{\"$mod\":[1]}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$mod":[1]}}`, code: mongoerr.BadValue, msg: "malformed mod, not enough elements"},
		{name: "{\"a\":{\"$mod\":[1,2,3]}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$mod":[1,2,3]}}`, code: mongoerr.BadValue, msg: "malformed mod, too many elements"},
		{name: "{\"a\":{\"$mod\":1}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$mod":1}}`, code: mongoerr.BadValue, msg: "malformed mod, needs to be an array"},
		{name: "{\"a\":{\"$type\":\"foo\"}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$type":"foo"}}`, code: mongoerr.BadValue, msg: "Unknown type name alias: foo"},
		{name: "{\"a\":{\"$type\":100}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$type":100}}`, code: mongoerr.BadValue, msg: "Invalid numerical type code: 100"},
		{name: "{\"a\":{\"$not\":1}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$not":1}}`, code: mongoerr.BadValue, msg: "$not needs a regex or a document"},
		{name: "{\"a\":{\"$not\":{}}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$not":{}}}`, code: mongoerr.BadValue, msg: "$not cannot be empty"},
		{name: "{\"a\":{\"$elemMatch\":1}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$elemMatch":1}}`, code: mongoerr.BadValue, msg: "$elemMatch needs an Object"},
		{name: "{\"a\":{\"$size\":-1}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$size":-1}}`, code: mongoerr.BadValue, msg: "Failed to parse $size. Expected a non-negative number in: $size: -1"},
		{name: "{\"a\":{\"$size\":\"x\"}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$size":"x"}}`, code: mongoerr.BadValue, msg: "Failed to parse $size. Expected a number in: $size: \"x\""},
		{name: "{\"a\":{\"$size\":1.5}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$size":1.5}}`, code: mongoerr.BadValue, msg: "Failed to parse $size. Expected an integer: $size: 1.5"},
		{name: "{\"a\":{\"$regex\":\"a\",\"$options\":\"z\"}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$regex":"a","$options":"z"}}`, code: 51108, msg: " invalid flag in regex options: z"},
		{name: "{\"a\":{\"$regex\":\"(\"}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$regex":"("}}`, code: 51091, msg: "Regular expression is invalid: missing closing parenthesis"},
		{name: "{\"a\":{\"$options\":\"i\"}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$options":"i"}}`, code: mongoerr.BadValue, msg: "$options needs a $regex"},
		{name: "{\"a\":{\"$regex\":1}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$regex":1}}`, code: mongoerr.BadValue, msg: "$regex has to be a string"},
		{name: "{\"a\":{\"$exists\":true,\"b\":1}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$exists":true,"b":1}}`, code: mongoerr.BadValue, msg: "unknown operator: b"},
		{name: "{\"$expr\":{\"$foo\":1}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"$expr":{"$foo":1}}`, code: mongoerr.InvalidPipelineOperator, msg: "Unrecognized expression '$foo'"},
		{name: "{\"a\":{\"$size\":{\"$gte\":3}}}", ref: parserRef, docs: `[{"_id": 1, "a": 1}]`, filter: `{"a":{"$size":{"$gte":3}}}`, code: mongoerr.BadValue, msg: "Failed to parse $size. Expected a number in: $size: { $gte: 3 }"},
	})
}
