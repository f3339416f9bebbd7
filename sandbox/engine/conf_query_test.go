package engine_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"
)

// findIDs runs find with filter (relaxed JSON) sorted by _id and checks the ids.
func findIDs(t *testing.T, db *mongo.Database, filter, want string) {
	t.Helper()
	batch := firstBatch(t, db, `{"find":"c","filter":`+filter+`,"sort":{"_id":1}}`)
	got := idsOf(batch)
	if got != `{"v":`+want+`}` {
		t.Errorf("filter %s\n got: %s\nwant: %s", filter, got, want)
	}
}

// Expected results follow the MongoDB 8.0 manual pages for each operator
// (query-comparison, query-array, query-element, query-logical) and the
// jstests under jstests/core/query.
func TestConfQueryOperators(t *testing.T) {
	db, _ := confColl(t,
		`{"_id":1,"a":1,"s":"abc","arr":[1,2,3],"d":{"x":1,"y":[{"z":1},{"z":2}]}}`,
		`{"_id":2,"a":{"$numberLong":"2"},"s":"ABD","arr":[[1,2],3],"d":{"x":2}}`,
		`{"_id":3,"a":3.5,"s":"xyz","arr":[],"n":null}`,
		`{"_id":4,"a":"1","arr":[{"b":1,"c":2},{"b":2,"c":1}]}`,
		`{"_id":5,"a":[1,5],"arr":[4,5],"d":[{"x":3},{"x":[4,5]}]}`,
		`{"_id":6,"a":null,"s":{"$regularExpression":{"pattern":"^ab","options":"i"}}}`,
		`{"_id":7,"a":{"$numberDecimal":"1.0"},"arr":[null,1]}`,
		`{"_id":8}`,
	)
	cases := [][2]string{
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
	}
	for _, c := range cases {
		findIDs(t, db, c[0], c[1])
	}
}

// Error codes and messages are mongod 8.0's (src/mongo/db/matcher/expression_parser.cpp).
func TestConfQueryErrors(t *testing.T) {
	db, _ := confColl(t, `{"_id":1,"a":1}`)
	cases := []struct {
		filter string
		code   int32
		msg    string
	}{
		{`{"a":{"$foo":1}}`, 2, "unknown operator: $foo"},
		{`{"$foo":1}`, 2, "unknown top level operator: $foo. If you have a field name that starts with a '$' symbol, consider using $getField or $setField."},
		{`{"a":{"$in":1}}`, 2, "$in needs an array"},
		{`{"a":{"$nin":1}}`, 2, "$nin needs an array"},
		{`{"a":{"$all":1}}`, 2, "$all needs an array"},
		{`{"$and":[]}`, 2, "$and/$or/$nor must be a nonempty array"},
		{`{"$or":1}`, 2, "$or must be an array"},
		{`{"a":{"$mod":[0,1]}}`, 2, "divisor cannot be 0"},
		{`{"a":{"$mod":[1]}}`, 2, "malformed mod, not enough elements"},
		{`{"a":{"$mod":[1,2,3]}}`, 2, "malformed mod, too many elements"},
		{`{"a":{"$mod":1}}`, 2, "malformed mod, needs to be an array"},
		{`{"a":{"$type":"foo"}}`, 2, "Unknown type name alias: foo"},
		{`{"a":{"$type":100}}`, 2, "Invalid numerical type code: 100"},
		{`{"a":{"$not":1}}`, 2, "$not needs a regex or a document"},
		{`{"a":{"$not":{}}}`, 2, "$not cannot be empty"},
		{`{"a":{"$elemMatch":1}}`, 2, "$elemMatch needs an Object"},
		{`{"a":{"$size":-1}}`, 2, "Failed to parse $size. Expected a non-negative number in: $size: -1"},
		{`{"a":{"$size":"x"}}`, 2, "Failed to parse $size. Expected a number in: $size: \"x\""},
		{`{"a":{"$size":1.5}}`, 2, "Failed to parse $size. Expected an integer: $size: 1.5"},
		{`{"a":{"$regex":"a","$options":"z"}}`, 51108, "invalid flag in regex options: z"},
		{`{"a":{"$regex":"("}}`, 51091, "Regular expression is invalid: missing closing parenthesis"},
		{`{"a":{"$options":"i"}}`, 2, "$options needs a $regex"},
		{`{"a":{"$regex":1}}`, 2, "$regex has to be a string"},
		{`{"a":{"$exists":true,"b":1}}`, 2, "unknown operator: b"},
		{`{"$expr":{"$foo":1}}`, 168, "Unrecognized expression '$foo'"},
		{`{"a":{"$size":{"$gte":3}}}`, 2, "Failed to parse $size. Expected a number in: $size: { $gte: 3 }"},
	}
	for _, c := range cases {
		wantErr(t, db, `{"find":"c","filter":`+c.filter+`}`, c.code, c.msg)
	}
}

// More array and null semantics: nested arrays are not traversed for field
// names, $ne/$nin exclude a document when any element matches, embedded
// document equality is order sensitive, and since 8.0 null equality no
// longer matches undefined (8.0 release notes, "Null queries").
func TestConfQueryArraySemantics(t *testing.T) {
	db, _ := confColl(t,
		`{"_id":1,"a":[[{"b":1}]],"tags":["xa","yb"]}`,
		`{"_id":2,"a":[{"b":[1]}],"arr":[1,2]}`,
		`{"_id":3,"a":{"b":1},"arr":[2,3],"d":{"x":1,"y":1}}`,
		`{"_id":4,"a":5,"arr":[[1,2],3],"d":{"y":1,"x":1}}`,
		`{"_id":5,"u":{"$undefined":true},"a":[{"b":[1,2]},{"b":[3]}],"n":{"$numberDecimal":"5"},"t":{"$date":"2020-01-01T00:00:00Z"}}`,
	)
	cases := [][2]string{
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
	}
	for _, c := range cases {
		findIDs(t, db, c[0], c[1])
	}
}
