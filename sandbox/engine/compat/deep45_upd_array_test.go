package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Deep sweep 45 (upd): the array update operators against their mongod
// nodes: AddToSetNode (addtoset_node.cpp), PushNode (push_node.cpp),
// PullNode (pull_node.cpp), PullAllNode (pullall_node.cpp), PopNode
// (pop_node.cpp), the ArrayCullingNode both culling nodes share
// (array_culling_node.cpp) and UpdateLeafNode::checkViability
// (update_leaf_node.cpp) for paths that run through a scalar.
const (
	upd45AddToSetRef = "src/mongo/db/update/addtoset_node.cpp (init, updateExistingElement, setValueForNewElement); src/mongo/db/update/addtoset_node_test.cpp"
	upd45PushRef     = "src/mongo/db/update/push_node.cpp (init, checkSortClause, performPush); src/mongo/db/update/push_sorter.h (PatternElementCmp); jstests/core/write/update/update_push_each.js"
	upd45PullRef     = "src/mongo/db/update/pull_node.cpp (ObjectMatcher, WrappedObjectMatcher, EqualityMatcher); src/mongo/db/update/array_culling_node.cpp; jstests/core/write/update/pull2.js"
	upd45PullAllRef  = "src/mongo/db/update/pullall_node.cpp; src/mongo/db/update/array_culling_node.cpp; jstests/core/write/update/pullall.js"
	upd45PopRef      = "src/mongo/db/update/pop_node.cpp; src/mongo/db/update/update_leaf_node.cpp (checkViability)"
)

func TestDeep45UpdArrayOps(t *testing.T) {
	one := func(doc string) string { return `[{"_id":1,` + doc + `}]` }
	c := func(op string, col column) cover { return cover{family: update, op: op, col: col} }
	runUpdateCases(t, []updateCase{
		// $addToSet: an object whose FIRST field is $each is an $each;
		// its argument's type is checked (TypeMismatch) before the extra
		// fields (BadValue). $each elsewhere is just a document to add.
		{name: "$addToSet $each of a document is a TypeMismatch", ref: upd45AddToSetRef, cov: c("$addToSet", errorCol), docs: one(`"a":[1]`), update: `{"$addToSet":{"a":{"$each":{"x":1}}}}`,
			code: mongoerr.TypeMismatch, msg: "The argument to $each in $addToSet must be an array but it was of type object"},
		{name: "$addToSet $each of a non-array before the extra fields", ref: upd45AddToSetRef, cov: c("$addToSet", errorCol), docs: one(`"a":[1]`), update: `{"$addToSet":{"a":{"$each":"s","$x":1}}}`,
			code: mongoerr.TypeMismatch, msg: "The argument to $each in $addToSet must be an array but it was of type string"},
		{name: "$addToSet fields after $each", ref: upd45AddToSetRef, cov: c("$addToSet", errorCol), docs: one(`"a":[1]`), update: `{"$addToSet":{"a":{"$each":[1],"$foo":1}}}`,
			code: mongoerr.BadValue, msg: "Found unexpected fields after $each in $addToSet: { $each: [ 1 ], $foo: 1 }"},
		{name: "$addToSet a document whose $each is not first", ref: upd45AddToSetRef, cov: c("$addToSet", semantics), docs: one(`"a":[1]`), update: `{"$addToSet":{"a":{"x":1,"$each":[2]}}}`,
			want: one(`"a":[1,{"x":1,"$each":[2]}]`), modified: `1`},
		{name: "$addToSet $each [] on a missing field makes an empty array", ref: upd45AddToSetRef, cov: c("$addToSet", semantics), docs: one(`"b":1`), update: `{"$addToSet":{"a":{"$each":[]}}}`,
			want: one(`"b":1,"a":[]`), modified: `1`},
		{name: "$addToSet $each dedups keeping the first of equal values", ref: upd45AddToSetRef, cov: c("$addToSet", types), docs: one(`"b":1`), update: `{"$addToSet":{"a":{"$each":[1,{"$numberLong":"1"},2.0,2,"2"]}}}`,
			want: one(`"b":1,"a":[1,2.0,"2"]`), modified: `1`},
		{name: "$addToSet on null", ref: upd45AddToSetRef, cov: c("$addToSet", errorCol), docs: one(`"a":null`), update: `{"$addToSet":{"a":1}}`,
			code: mongoerr.BadValue, msg: "Cannot apply $addToSet to non-array field. Field named 'a' has non-array type null"},
		{name: "$addToSet names the last path part", ref: upd45AddToSetRef, cov: c("$addToSet", errorCol), docs: one(`"a":{"b":{"c":"x"}}`), update: `{"$addToSet":{"a.b.c":1}}`,
			code: mongoerr.BadValue, msg: "Cannot apply $addToSet to non-array field. Field named 'c' has non-array type string"},

		// $push: clauses are checked while they are read (unknown, then
		// repeated), then $each, $slice, $sort and $position in turn.
		{name: "$push an unknown clause before a bad $each", ref: upd45PushRef, cov: c("$push", errorCol), docs: one(`"a":[1]`), update: `{"$push":{"a":{"$each":5,"$foo":1}}}`,
			code: mongoerr.BadValue, msg: "Unrecognized clause in $push: $foo"},
		{name: "$push a bad $slice before a bad $sort", ref: upd45PushRef, cov: c("$push", errorCol), docs: one(`"a":[1]`), update: `{"$push":{"a":{"$each":[1],"$sort":0,"$slice":1.5}}}`,
			code: mongoerr.BadValue, msg: "The value for $slice must be an integer value but was given type: double"},
		{name: "$push a bad $sort before a bad $position", ref: upd45PushRef, cov: c("$push", errorCol), docs: one(`"a":[1]`), update: `{"$push":{"a":{"$each":[1],"$position":"x","$sort":{"b":"1"}}}}`,
			code: mongoerr.BadValue, msg: "The $sort element value must be either 1 or -1"},
		{name: "$push $position of a string", ref: upd45PushRef, cov: c("$push", errorCol), docs: one(`"a":[1]`), update: `{"$push":{"a":{"$each":[1],"$position":"x"}}}`,
			code: mongoerr.BadValue, msg: "The value for $position must be an integer value, not of type: string"},
		{name: "$push $sort field with an empty part", ref: upd45PushRef, cov: c("$push", errorCol), docs: one(`"a":[1]`), update: `{"$push":{"a":{"$each":[1],"$sort":{"b..c":1}}}}`,
			code: mongoerr.BadValue, msg: "The $sort field is a dotted field but has an empty part: b..c"},
		{name: "$push $sort of a string", ref: upd45PushRef, cov: c("$push", errorCol), docs: one(`"a":[1]`), update: `{"$push":{"a":{"$each":[1],"$sort":"asc"}}}`,
			code: mongoerr.BadValue, msg: "The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields"},
		{name: "$push $sort of an empty document", ref: upd45PushRef, cov: c("$push", errorCol), docs: one(`"a":[1]`), update: `{"$push":{"a":{"$each":[1],"$sort":{}}}}`,
			code: mongoerr.BadValue, msg: "The $sort pattern is empty when it should be a set of fields."},
		{name: "$push on a document names the _id", ref: upd45PushRef, cov: c("$push", errorCol), docs: one(`"a":{"b":1}`), update: `{"$push":{"a.b":1}}`,
			code: mongoerr.BadValue, msg: "The field 'a.b' must be an array but is of type int in document {_id: 1}"},
		{name: "$push integral double and decimal clauses", ref: upd45PushRef, cov: c("$push", types), docs: one(`"a":[5,1]`), update: `{"$push":{"a":{"$each":[3],"$position":1.0,"$slice":{"$numberDecimal":"-2"},"$sort":{"$numberDecimal":"-1"}}}}`,
			want: one(`"a":[3,1]`), modified: `1`},
		{name: "$push a document with $slice but no $each pushes it", ref: upd45PushRef, cov: c("$push", semantics), docs: one(`"a":[1]`), update: `{"$push":{"a":{"$slice":1}}}`,
			want: one(`"a":[1,{"$slice":1}]`), modified: `1`},
		{name: "$push $position past the end appends", ref: upd45PushRef, cov: c("$push", semantics), docs: one(`"a":[1,2]`), update: `{"$push":{"a":{"$each":[9],"$position":10}}}`,
			want: one(`"a":[1,2,9]`), modified: `1`},
		{name: "$push $position before the start prepends", ref: upd45PushRef, cov: c("$push", semantics), docs: one(`"a":[1,2]`), update: `{"$push":{"a":{"$each":[8,9],"$position":-5}}}`,
			want: one(`"a":[8,9,1,2]`), modified: `1`},
		{name: "$push $slice that trims nothing and no values is a no-op", ref: upd45PushRef, cov: c("$push", semantics), docs: one(`"a":[1,2]`), update: `{"$push":{"a":{"$each":[],"$slice":5}}}`,
			want: one(`"a":[1,2]`), modified: `0`},
		{name: "$push $slice to the last elements on a new field", ref: upd45PushRef, cov: c("$push", semantics), docs: one(`"b":1`), update: `{"$push":{"a":{"$each":[1,2,3],"$slice":-2}}}`,
			want: one(`"b":1,"a":[2,3]`), modified: `1`},
		// PatternElementCmp: only objects are searched for the sort
		// fields; arrays and scalars sort as if the field were null, and
		// a path does not reach into arrays by name.
		{name: "$push $sort by a field puts arrays and scalars as nulls", ref: upd45PushRef, cov: c("$push", semantics), docs: one(`"a":[{"k":2},[0],5,{"k":1},{"j":0}]`),
			update: `{"$push":{"a":{"$each":[],"$sort":{"k":1}}}}`, want: one(`"a":[[0],5,{"j":0},{"k":1},{"k":2}]`), modified: `1`},
		{name: "$push $sort by a dotted field", ref: upd45PushRef, cov: c("$push", semantics), docs: one(`"a":[{"b":{"c":3}},{"b":[{"c":1}]},{"b":{"c":2}}]`),
			update: `{"$push":{"a":{"$each":[],"$sort":{"b.c":-1}}}}`, want: one(`"a":[{"b":{"c":3}},{"b":{"c":2}},{"b":[{"c":1}]}]`), modified: `1`},
		{name: "$push $sort by two fields", ref: upd45PushRef, cov: c("$push", semantics), docs: one(`"a":[{"x":1,"y":1},{"x":0,"y":5},{"x":1,"y":3}]`),
			update: `{"$push":{"a":{"$each":[],"$sort":{"x":-1,"y":1}}}}`, want: one(`"a":[{"x":1,"y":1},{"x":1,"y":3},{"x":0,"y":5}]`), modified: `1`},

		// $pull: a document whose first field is no operator matches
		// document elements only; an operator document or a regex is
		// matched against each element; anything else is equality.
		{name: "$pull {} removes every document element", ref: upd45PullRef, cov: c("$pull", semantics), docs: one(`"a":[1,{"b":1},{},[1]]`), update: `{"$pull":{"a":{}}}`,
			want: one(`"a":[1,[1]]`), modified: `1`},
		{name: "$pull a regex", ref: upd45PullRef, cov: c("$pull", types), docs: one(`"a":["ab","b",{"$regularExpression":{"pattern":"a","options":""}},1]`), update: `{"$pull":{"a":{"$regularExpression":{"pattern":"^a","options":""}}}}`,
			want: one(`"a":["b",{"$regularExpression":{"pattern":"a","options":""}},1]`), modified: `1`},
		{name: "$pull $elemMatch on nested arrays", ref: upd45PullRef, cov: c("$pull", semantics), docs: one(`"a":[[1,2],[3],2]`), update: `{"$pull":{"a":{"$elemMatch":{"$gt":2}}}}`,
			want: one(`"a":[[1,2],2]`), modified: `1`},
		{name: "$pull a field condition reaches into arrays", ref: upd45PullRef, cov: c("$pull", semantics), docs: one(`"a":[{"b":[1,2]},{"b":3}]`), update: `{"$pull":{"a":{"b":2}}}`,
			want: one(`"a":[{"b":3}]`), modified: `1`},
		{name: "$pull equality across numeric types", ref: upd45PullRef, cov: c("$pull", types), docs: one(`"a":[1,{"$numberLong":"1"},1.0,{"$numberDecimal":"1.00"},"1",true]`), update: `{"$pull":{"a":1}}`,
			want: one(`"a":["1",true]`), modified: `1`},
		{name: "$pull null removes only nulls", ref: upd45PullRef, cov: c("$pull", types), docs: one(`"a":[null,1,{"b":null}]`), update: `{"$pull":{"a":null}}`,
			want: one(`"a":[1,{"b":null}]`), modified: `1`},
		{name: "$pull nothing matching is a no-op", ref: upd45PullRef, cov: c("$pull", semantics), docs: one(`"a":[1,2]`), update: `{"$pull":{"a":{"$gt":5}}}`,
			want: one(`"a":[1,2]`), modified: `0`},
		{name: "$pull an unknown top-level operator", ref: upd45PullRef, cov: c("$pull", errorCol), docs: one(`"a":[1,2]`), update: `{"$pull":{"a":{"$foo":2}}}`,
			code: mongoerr.BadValue, msg: "unknown top level operator: $foo. If you have a field name that starts with a '$' symbol, consider using $getField or $setField."},
		{name: "$pull an operator followed by a field", ref: upd45PullRef, cov: c("$pull", errorCol), docs: one(`"a":[1,2]`), update: `{"$pull":{"a":{"$gt":1,"b":2}}}`,
			code: mongoerr.BadValue, msg: "unknown operator: b"},
		{name: "$pull refuses $where", ref: upd45PullRef, cov: c("$pull", errorCol), docs: one(`"a":[1,2]`), update: `{"$pull":{"a":{"$where":"1"}}}`,
			code: mongoerr.BadValue, msg: "$where is not allowed in this context"},
		{name: "$pull on a scalar", ref: upd45PullRef, cov: c("$pull", errorCol), docs: one(`"a":"s"`), update: `{"$pull":{"a":"s"}}`,
			code: mongoerr.BadValue, msg: "Cannot apply $pull to a non-array value"},
		{name: "$pull through a scalar is not viable", ref: upd45PullRef, cov: c("$pull", errorCol), docs: one(`"a":5`), update: `{"$pull":{"a.b":5}}`,
			code: mongoerr.PathNotViable, msg: "Cannot use the part (b) of (a.b) to traverse the element ({a: 5})"},
		{name: "$pull through a missing parent is a no-op", ref: upd45PullRef, cov: c("$pull", semantics), docs: one(`"a":{}`), update: `{"$pull":{"a.b.c":5}}`,
			want: one(`"a":{}`), modified: `0`},

		// $pullAll: BSON equality, field order of documents included; the
		// non-array error is the culling node's, which names $pull.
		{name: "$pullAll equality across numeric types", ref: upd45PullAllRef, cov: c("$pullAll", types), docs: one(`"a":[1,{"$numberLong":"1"},1.0,{"$numberDecimal":"1.00"},"1",2]`), update: `{"$pullAll":{"a":[1,2]}}`,
			want: one(`"a":["1"]`), modified: `1`},
		{name: "$pullAll documents by field order", ref: upd45PullAllRef, cov: c("$pullAll", semantics), docs: one(`"a":[{"x":1,"y":2},{"y":2,"x":1}]`), update: `{"$pullAll":{"a":[{"x":1,"y":2}]}}`,
			want: one(`"a":[{"y":2,"x":1}]`), modified: `1`},
		{name: "$pullAll an empty list is a no-op", ref: upd45PullAllRef, cov: c("$pullAll", semantics), docs: one(`"a":[1]`), update: `{"$pullAll":{"a":[]}}`,
			want: one(`"a":[1]`), modified: `0`},
		{name: "$pullAll on a missing field is a no-op", ref: upd45PullAllRef, cov: c("$pullAll", semantics), docs: one(`"b":1`), update: `{"$pullAll":{"a":[1]}}`,
			want: one(`"b":1`), modified: `0`},
		{name: "$pullAll on a scalar names $pull", ref: upd45PullAllRef, cov: c("$pullAll", errorCol), docs: one(`"a":5`), update: `{"$pullAll":{"a":[5]}}`,
			code: mongoerr.BadValue, msg: "Cannot apply $pull to a non-array value"},
		{name: "$pullAll of a document", ref: upd45PullAllRef, cov: c("$pullAll", errorCol), docs: one(`"a":[1]`), update: `{"$pullAll":{"a":{"x":1}}}`,
			code: mongoerr.BadValue, msg: "$pullAll requires an array argument but was given a object"},

		// $pop: parseIntegerElementToLong, then 1 or -1.
		{name: "$pop of a numeric string", ref: upd45PopRef, cov: c("$pop", errorCol), docs: one(`"a":[1]`), update: `{"$pop":{"a":"1"}}`,
			code: mongoerr.FailedToParse, msg: "Expected a number in: a: \"1\""},
		{name: "$pop of a fraction", ref: upd45PopRef, cov: c("$pop", errorCol), docs: one(`"a":[1]`), update: `{"$pop":{"a":1.5}}`,
			code: mongoerr.FailedToParse, msg: "Expected an integer: a: 1.5"},
		{name: "$pop of a decimal -1", ref: upd45PopRef, cov: c("$pop", types), docs: one(`"a":[1,2]`), update: `{"$pop":{"a":{"$numberDecimal":"-1"}}}`,
			want: one(`"a":[2]`), modified: `1`},
		{name: "$pop of a long 0", ref: upd45PopRef, cov: c("$pop", errorCol), docs: one(`"a":[1]`), update: `{"$pop":{"a":{"$numberLong":"0"}}}`,
			code: mongoerr.FailedToParse, msg: "$pop expects 1 or -1, found: 0"},
		{name: "$pop on a document", ref: upd45PopRef, cov: c("$pop", errorCol), docs: one(`"a":{"b":1}`), update: `{"$pop":{"a":1}}`,
			code: mongoerr.TypeMismatch, msg: "Path 'a' contains an element of non-array type 'object'"},
		{name: "$pop through a scalar", ref: upd45PopRef, cov: c("$pop", errorCol), docs: one(`"a":3`), update: `{"$pop":{"a.b":1}}`,
			code: mongoerr.PathNotViable, msg: "Cannot use the part (b) of (a.b) to traverse the element ({a: 3})"},
		{name: "$pop an array element", ref: upd45PopRef, cov: c("$pop", semantics), docs: one(`"a":[[1,2]]`), update: `{"$pop":{"a.0":-1}}`,
			want: one(`"a":[[2]]`), modified: `1`},
		{name: "$pop past the end of an array is a no-op", ref: upd45PopRef, cov: c("$pop", semantics), docs: one(`"a":[[1]]`), update: `{"$pop":{"a.3":1}}`,
			want: one(`"a":[[1]]`), modified: `0`},
	})
}
