package compat_test

import "testing"

// traversalRef: how a dotted path yields the values a leaf operator tests.
// BSONElementIterator (path.cpp) descends into every document of an array
// for the rest of the path, and a numeric part also picks the element at
// that index, which is then tested whole: an array reached that way is not
// expanded. A path that stops on a non-document yields one missing value,
// which {$eq: null} and {$gte: MinKey} match.
const traversalRef = "src/mongo/db/matcher/path.cpp (BSONElementIterator), expression_leaf.cpp; jstests/core/query/null_query_semantics.js"

const nullDocs = `[{"_id":1,"a":null},{"_id":2},{"_id":3,"a":{"$undefined":true}},{"_id":4,"a":[null]},{"_id":5,"a":[1]},{"_id":6,"a":[]},
	{"_id":7,"a":[{"b":null}]},{"_id":8,"a":[{"b":1}]},{"_id":9,"a":[{}]},{"_id":10,"a":[[]]},{"_id":11,"a":[[null]]},{"_id":12,"a":{"b":null}},
	{"_id":13,"a":[{"b":[]}]},{"_id":14,"a":[1,{"b":2}]}]`

func TestQueryPathsThroughArrays(t *testing.T) {
	runFilterTable(t, traversalRef, nullDocs, [][2]string{
		// a scalar element of a has no b; only documents are descended into.
		// This is 8.0's classic matcher: the later null_query_semantics.js,
		// tagged requires_fcv_90 (SERVER-36681), also has {"a.b": null}
		// match an array of non-documents such as [1] or [].
		{`{"a.b":null}`, `[1,2,3,7,9,12]`},
		{`{"a.b":{"$ne":null}}`, `[4,5,6,8,10,11,13,14]`},
		{`{"a.b":{"$in":[null]}}`, `[1,2,3,7,9,12]`},
		{`{"a.b":{"$gte":{"$minKey":1}}}`, `[1,2,3,7,8,9,12,13,14]`},
		{`{"a.b":{"$exists":false}}`, `[1,2,3,4,5,6,9,10,11]`},
		// a.0 is the first element, and the field 0 of every document in a
		{`{"a.0":null}`, `[1,2,3,4,7,8,9,12,13,14]`},
		{`{"a.0":{"$exists":false}}`, `[1,2,3,6,12]`},
		{`{"a.1.b":null}`, `[1,2,3,7,8,9,12,13,14]`},
		{`{"a.1.b":2}`, `[14]`},
		// $elemMatch's documents include arrays, whose fields are their indexes
		{`{"a":{"$elemMatch":{"b":null}}}`, `[7,9,10,11]`},
		{`{"a":{"$elemMatch":{"$eq":null}}}`, `[4]`},
		{`{"a":{"$type":"null"}}`, `[1,4]`},
		{`{"a":{"$gte":{"$minKey":1}}}`, `[1,2,3,4,5,6,7,8,9,10,11,12,13,14]`},
	})
}

func TestQueryArrayOperands(t *testing.T) {
	runFilterTable(t, traversalRef+"; manual: reference/bson-type-comparison-order (arrays)",
		`[{"_id":1,"a":[1,2]},{"_id":2,"a":[[1,2]]},{"_id":3,"a":[2,1]},{"_id":4,"a":[1]},{"_id":5,"a":[1,2,3]},
		  {"_id":6,"a":{"b":[1,2]}},{"_id":7,"a":[[1],[2]]},{"_id":8,"a":[]},{"_id":9,"a":[[]]},{"_id":10,"a":[null]}]`, [][2]string{
			// an array operand compares with the whole array and with each
			// element, element by element
			{`{"a":{"$gt":[1]}}`, `[1,2,3,5,7,9]`},
			{`{"a":{"$lt":[1,2]}}`, `[4,7,8,9,10]`},
			{`{"a":{"$gte":[]}}`, `[1,2,3,4,5,7,8,9,10]`},
			{`{"a":{"$in":[[1,2],[1]]}}`, `[1,2,4,7]`},
			{`{"a":{"$all":[[1],[2]]}}`, `[7]`},
			// an element picked by index is tested whole
			{`{"a.0":1}`, `[1,4,5]`},
			{`{"a.0.0":1}`, `[2,7]`},
			{`{"a.1":{"$exists":false}}`, `[2,4,6,8,9,10]`},
			{`{"a":{"$elemMatch":{"0":1}}}`, `[2,7]`},
			{`{"a":{"$elemMatch":{"$ne":1}}}`, `[1,2,3,5,7,9,10]`},
		})
}

// NaN equals NaN and is below every other number, but a range with a bound
// on either side never matches it (ComparisonMatchExpressionBase).
func TestQueryNaNBounds(t *testing.T) {
	runFilterTable(t, "src/mongo/db/matcher/expression_leaf.cpp (ComparisonMatchExpressionBase::matchesSingleElement)",
		`[{"_id":1,"a":{"$numberDouble":"NaN"}},{"_id":2,"a":{"$numberDecimal":"NaN"}},{"_id":3,"a":{"$numberDouble":"-Infinity"}},
		  {"_id":4,"a":{"$numberDouble":"Infinity"}},{"_id":5,"a":{"$numberDecimal":"-Infinity"}},{"_id":6,"a":0},{"_id":7,"a":[{"$numberDouble":"NaN"},1]}]`, [][2]string{
			{`{"a":{"$lte":{"$numberDouble":"NaN"}}}`, `[1,2,7]`},
			{`{"a":{"$lt":{"$numberDouble":"NaN"}}}`, `[]`},
			{`{"a":{"$gt":{"$numberDouble":"-Infinity"}}}`, `[4,6,7]`},
			{`{"a":{"$lt":0}}`, `[3,5]`},
			{`{"a":{"$not":{"$lt":{"$numberDouble":"NaN"}}}}`, `[1,2,3,4,5,6,7]`},
		})
}
