package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// updateRef: the manual page of each update operator (its examples) and
// jstests/core/write/update.
const updateRef = "manual: reference/operator/update; jstests/core/write/update"

// updateErrRef: where the update errors' codes and messages come from.
const updateErrRef = "src/mongo/db/update/*.cpp"

func TestUpdateOperators(t *testing.T) {
	runUpdateCases(t, []updateCase{
		{name: "{\"$set\":{\"a\":5,\"c\":3}} on {\"_id\":1,\"a\":1,\"b\":2}", ref: updateRef, docs: `[{"_id":1,"a":1,"b":2}]`, filter: `{"_id":1}`, update: `{"$set":{"a":5,"c":3}}`, want: `[{"_id":1,"a":5,"b":2,"c":3}]`, modified: `1`},
		{name: "{\"$set\":{\"a\":1}} on {\"_id\":1,\"a\":1}", ref: updateRef, docs: `[{"_id":1,"a":1}]`, filter: `{"_id":1}`, update: `{"$set":{"a":1}}`, want: `[{"_id":1,"a":1}]`, modified: `0`},
		{name: "{\"$set\":{\"a\":1.0}} on {\"_id\":1,\"a\":1}", ref: updateRef, docs: `[{"_id":1,"a":1}]`, filter: `{"_id":1}`, update: `{"$set":{"a":1.0}}`, want: `[{"_id":1,"a":1.0}]`, modified: `1`},
		{name: "{\"$set\":{\"x.y.z\":1}} on {\"_id\":1}", ref: updateRef, docs: `[{"_id":1}]`, filter: `{"_id":1}`, update: `{"$set":{"x.y.z":1}}`, want: `[{"_id":1,"x":{"y":{"z":1}}}]`, modified: `1`},
		{name: "{\"$set\":{\"b\":1,\"a\":2}} on {\"_id\":1,\"z\":1}", ref: updateRef, docs: `[{"_id":1,"z":1}]`, filter: `{"_id":1}`, update: `{"$set":{"b":1,"a":2}}`, want: `[{"_id":1,"z":1,"a":2,"b":1}]`, modified: `1`},
		{name: "{\"$set\":{\"arr.1\":9}} on {\"_id\":1,\"arr\":[1,2,3]}", ref: updateRef, docs: `[{"_id":1,"arr":[1,2,3]}]`, filter: `{"_id":1}`, update: `{"$set":{"arr.1":9}}`, want: `[{"_id":1,"arr":[1,9,3]}]`, modified: `1`},
		{name: "{\"$set\":{\"arr.4\":9}} on {\"_id\":1,\"arr\":[1,2]}", ref: updateRef, docs: `[{"_id":1,"arr":[1,2]}]`, filter: `{"_id":1}`, update: `{"$set":{"arr.4":9}}`, want: `[{"_id":1,"arr":[1,2,null,null,9]}]`, modified: `1`},
		{name: "{\"$set\":{\"arr.0.b\":2}} on {\"_id\":1,\"arr\":[{\"a\":1}]}", ref: updateRef, docs: `[{"_id":1,"arr":[{"a":1}]}]`, filter: `{"_id":1}`, update: `{"$set":{"arr.0.b":2}}`, want: `[{"_id":1,"arr":[{"a":1,"b":2}]}]`, modified: `1`},
		{name: "{\"$unset\":{\"a\":\"\"}} on {\"_id\":1,\"a\":1,\"b\":2}", ref: updateRef, docs: `[{"_id":1,"a":1,"b":2}]`, filter: `{"_id":1}`, update: `{"$unset":{"a":""}}`, want: `[{"_id":1,"b":2}]`, modified: `1`},
		{name: "{\"$unset\":{\"zz\":\"\"}} on {\"_id\":1,\"a\":1}", ref: updateRef, docs: `[{"_id":1,"a":1}]`, filter: `{"_id":1}`, update: `{"$unset":{"zz":""}}`, want: `[{"_id":1,"a":1}]`, modified: `0`},
		{name: "{\"$unset\":{\"arr.0\":\"\"}} on {\"_id\":1,\"arr\":[1,2,3]}", ref: updateRef, docs: `[{"_id":1,"arr":[1,2,3]}]`, filter: `{"_id":1}`, update: `{"$unset":{"arr.0":""}}`, want: `[{"_id":1,"arr":[null,2,3]}]`, modified: `1`},
		{name: "{\"$set\":{\"a\":2},\"$unset\":{\"b.c\":1}} on {\"_id\":1,\"a\":1,\"b\":{\"c\":1,\"d\":2}}", ref: updateRef, docs: `[{"_id":1,"a":1,"b":{"c":1,"d":2}}]`, filter: `{"_id":1}`, update: `{"$set":{"a":2},"$unset":{"b.c":1}}`, want: `[{"_id":1,"a":2,"b":{"d":2}}]`, modified: `1`},
		{name: "{\"$inc\":{\"a\":2,\"n\":1}} on {\"_id\":1,\"a\":1}", ref: updateRef, docs: `[{"_id":1,"a":1}]`, filter: `{"_id":1}`, update: `{"$inc":{"a":2,"n":1}}`, want: `[{"_id":1,"a":3,"n":1}]`, modified: `1`},
		{name: "{\"$inc\":{\"a\":1}} on {\"_id\":1,\"a\":2147483647}", ref: updateRef, docs: `[{"_id":1,"a":2147483647}]`, filter: `{"_id":1}`, update: `{"$inc":{"a":1}}`, want: `[{"_id":1,"a":{"$numberLong":"2147483648"}}]`, modified: `1`},
		{name: "{\"$inc\":{\"a\":0.5}} on {\"_id\":1,\"a\":1}", ref: updateRef, docs: `[{"_id":1,"a":1}]`, filter: `{"_id":1}`, update: `{"$inc":{"a":0.5}}`, want: `[{"_id":1,"a":1.5}]`, modified: `1`},
		{name: "{\"$inc\":{\"a\":1}} on {\"_id\":1,\"a\":{\"$numberLong\":\"1\"}}", ref: updateRef, docs: `[{"_id":1,"a":{"$numberLong":"1"}}]`, filter: `{"_id":1}`, update: `{"$inc":{"a":1}}`, want: `[{"_id":1,"a":{"$numberLong":"2"}}]`, modified: `1`},
		{name: "{\"$inc\":{\"a\":0}} on {\"_id\":1,\"a\":1}", ref: updateRef, docs: `[{"_id":1,"a":1}]`, filter: `{"_id":1}`, update: `{"$inc":{"a":0}}`, want: `[{"_id":1,"a":1}]`, modified: `0`},
		{name: "{\"$mul\":{\"a\":2,\"m\":5}} on {\"_id\":1,\"a\":3}", ref: updateRef, docs: `[{"_id":1,"a":3}]`, filter: `{"_id":1}`, update: `{"$mul":{"a":2,"m":5}}`, want: `[{"_id":1,"a":6,"m":0}]`, modified: `1`},
		{name: "{\"$mul\":{\"a\":1.5,\"m\":2.0}} on {\"_id\":1,\"a\":3}", ref: updateRef, docs: `[{"_id":1,"a":3}]`, filter: `{"_id":1}`, update: `{"$mul":{"a":1.5,"m":2.0}}`, want: `[{"_id":1,"a":4.5,"m":0.0}]`, modified: `1`},
		{name: "{\"$min\":{\"lo\":3},\"$max\":{\"hi\":3}} on {\"_id\":1,\"lo\":5,\"hi\":5}", ref: updateRef, docs: `[{"_id":1,"lo":5,"hi":5}]`, filter: `{"_id":1}`, update: `{"$min":{"lo":3},"$max":{"hi":3}}`, want: `[{"_id":1,"lo":3,"hi":5}]`, modified: `1`},
		{name: "{\"$max\":{\"lo\":\"a\"},\"$min\":{\"new\":1}} on {\"_id\":1,\"lo\":5}", ref: updateRef, docs: `[{"_id":1,"lo":5}]`, filter: `{"_id":1}`, update: `{"$max":{"lo":"a"},"$min":{"new":1}}`, want: `[{"_id":1,"lo":"a","new":1}]`, modified: `1`},
		{name: "{\"$min\":{\"lo\":5.0}} on {\"_id\":1,\"lo\":5}", ref: updateRef, docs: `[{"_id":1,"lo":5}]`, filter: `{"_id":1}`, update: `{"$min":{"lo":5.0}}`, want: `[{"_id":1,"lo":5}]`, modified: `0`},
		{name: "{\"$rename\":{\"a\":\"z\"}} on {\"_id\":1,\"a\":1,\"b\":2}", ref: updateRef, docs: `[{"_id":1,"a":1,"b":2}]`, filter: `{"_id":1}`, update: `{"$rename":{"a":"z"}}`, want: `[{"_id":1,"b":2,"z":1}]`, modified: `1`},
		{name: "{\"$rename\":{\"a\":\"b\"}} on {\"_id\":1,\"a\":1,\"b\":2}", ref: updateRef, docs: `[{"_id":1,"a":1,"b":2}]`, filter: `{"_id":1}`, update: `{"$rename":{"a":"b"}}`, want: `[{"_id":1,"b":1}]`, modified: `1`},
		{name: "{\"$rename\":{\"n.a\":\"m.b\"}} on {\"_id\":1,\"n\":{\"a\":1}}", ref: updateRef, docs: `[{"_id":1,"n":{"a":1}}]`, filter: `{"_id":1}`, update: `{"$rename":{"n.a":"m.b"}}`, want: `[{"_id":1,"n":{},"m":{"b":1}}]`, modified: `1`},
		{name: "{\"$rename\":{\"zz\":\"y\"}} on {\"_id\":1,\"a\":1}", ref: updateRef, docs: `[{"_id":1,"a":1}]`, filter: `{"_id":1}`, update: `{"$rename":{"zz":"y"}}`, want: `[{"_id":1,"a":1}]`, modified: `0`},
		{name: "{\"$push\":{\"a\":2}} on {\"_id\":1,\"a\":[1]}", ref: updateRef, docs: `[{"_id":1,"a":[1]}]`, filter: `{"_id":1}`, update: `{"$push":{"a":2}}`, want: `[{"_id":1,"a":[1,2]}]`, modified: `1`},
		{name: "{\"$push\":{\"a\":[2]}} on {\"_id\":1}", ref: updateRef, docs: `[{"_id":1}]`, filter: `{"_id":1}`, update: `{"$push":{"a":[2]}}`, want: `[{"_id":1,"a":[[2]]}]`, modified: `1`},
		{name: "{\"$push\":{\"a\":{\"$each\":[3,4],\"$position\":0}}} on {\"_id\":1,\"a\":[1,2]}", ref: updateRef, docs: `[{"_id":1,"a":[1,2]}]`, filter: `{"_id":1}`, update: `{"$push":{"a":{"$each":[3,4],"$position":0}}}`, want: `[{"_id":1,"a":[3,4,1,2]}]`, modified: `1`},
		{name: "{\"$push\":{\"a\":{\"$each\":[3],\"$position\":-1}}} on {\"_id\":1,\"a\":[1,2]}", ref: updateRef, docs: `[{"_id":1,"a":[1,2]}]`, filter: `{"_id":1}`, update: `{"$push":{"a":{"$each":[3],"$position":-1}}}`, want: `[{"_id":1,"a":[1,3,2]}]`, modified: `1`},
		{name: "{\"$push\":{\"a\":{\"$each\":[3,9],\"$sort\":1,\"$slice\":3}}} on {\"_id\":1,\"a\":[5,1]}", ref: updateRef, docs: `[{"_id":1,"a":[5,1]}]`, filter: `{"_id":1}`, update: `{"$push":{"a":{"$each":[3,9],"$sort":1,"$slice":3}}}`, want: `[{"_id":1,"a":[1,3,5]}]`, modified: `1`},
		{name: "{\"$push\":{\"a\":{\"$each\":[3],\"$sort\":-1,\"$slice\":-2}}} on {\"_id\":1,\"a\":[5,1]}", ref: updateRef, docs: `[{"_id":1,"a":[5,1]}]`, filter: `{"_id":1}`, update: `{"$push":{"a":{"$each":[3],"$sort":-1,"$slice":-2}}}`, want: `[{"_id":1,"a":[3,1]}]`, modified: `1`},
		{name: "{\"$push\":{\"q\":{\"$each\":[{\"s\":7}],\"$sort\":{\"s\":-1},\"$slice\":2}}} on {\"_id\":1,\"q\":[{\"s\":8},{\"s\":6}]}", ref: updateRef, docs: `[{"_id":1,"q":[{"s":8},{"s":6}]}]`, filter: `{"_id":1}`, update: `{"$push":{"q":{"$each":[{"s":7}],"$sort":{"s":-1},"$slice":2}}}`, want: `[{"_id":1,"q":[{"s":8},{"s":7}]}]`, modified: `1`},
		{name: "{\"$push\":{\"a\":{\"$each\":[],\"$slice\":0}}} on {\"_id\":1,\"a\":[1,2]}", ref: updateRef, docs: `[{"_id":1,"a":[1,2]}]`, filter: `{"_id":1}`, update: `{"$push":{"a":{"$each":[],"$slice":0}}}`, want: `[{"_id":1,"a":[]}]`, modified: `1`},
		{name: "{\"$push\":{\"a\":{\"$each\":[]}}} on {\"_id\":1,\"a\":[1,2]}", ref: updateRef, docs: `[{"_id":1,"a":[1,2]}]`, filter: `{"_id":1}`, update: `{"$push":{"a":{"$each":[]}}}`, want: `[{"_id":1,"a":[1,2]}]`, modified: `0`},
		{name: "{\"$addToSet\":{\"a\":2}} on {\"_id\":1,\"a\":[1,2]}", ref: updateRef, docs: `[{"_id":1,"a":[1,2]}]`, filter: `{"_id":1}`, update: `{"$addToSet":{"a":2}}`, want: `[{"_id":1,"a":[1,2]}]`, modified: `0`},
		{name: "{\"$addToSet\":{\"a\":{\"$each\":[2,3,3,4]}}} on {\"_id\":1,\"a\":[1,2]}", ref: updateRef, docs: `[{"_id":1,"a":[1,2]}]`, filter: `{"_id":1}`, update: `{"$addToSet":{"a":{"$each":[2,3,3,4]}}}`, want: `[{"_id":1,"a":[1,2,3,4]}]`, modified: `1`},
		{name: "{\"$addToSet\":{\"a\":2.0}} on {\"_id\":1,\"a\":[1,2]}", ref: updateRef, docs: `[{"_id":1,"a":[1,2]}]`, filter: `{"_id":1}`, update: `{"$addToSet":{"a":2.0}}`, want: `[{"_id":1,"a":[1,2]}]`, modified: `0`},
		{name: "{\"$addToSet\":{\"a\":{\"y\":2,\"x\":1}}} on {\"_id\":1,\"a\":[{\"x\":1,\"y\":2}]}", ref: updateRef, docs: `[{"_id":1,"a":[{"x":1,"y":2}]}]`, filter: `{"_id":1}`, update: `{"$addToSet":{"a":{"y":2,"x":1}}}`, want: `[{"_id":1,"a":[{"x":1,"y":2},{"y":2,"x":1}]}]`, modified: `1`},
		{name: "{\"$addToSet\":{\"a\":[1]}} on {\"_id\":1}", ref: updateRef, docs: `[{"_id":1}]`, filter: `{"_id":1}`, update: `{"$addToSet":{"a":[1]}}`, want: `[{"_id":1,"a":[[1]]}]`, modified: `1`},
		{name: "{\"$pop\":{\"a\":1}} on {\"_id\":1,\"a\":[1,2,3]}", ref: updateRef, docs: `[{"_id":1,"a":[1,2,3]}]`, filter: `{"_id":1}`, update: `{"$pop":{"a":1}}`, want: `[{"_id":1,"a":[1,2]}]`, modified: `1`},
		{name: "{\"$pop\":{\"a\":-1}} on {\"_id\":1,\"a\":[1,2,3]}", ref: updateRef, docs: `[{"_id":1,"a":[1,2,3]}]`, filter: `{"_id":1}`, update: `{"$pop":{"a":-1}}`, want: `[{"_id":1,"a":[2,3]}]`, modified: `1`},
		{name: "{\"$pop\":{\"a\":1}} on {\"_id\":1,\"a\":[]}", ref: updateRef, docs: `[{"_id":1,"a":[]}]`, filter: `{"_id":1}`, update: `{"$pop":{"a":1}}`, want: `[{"_id":1,"a":[]}]`, modified: `0`},
		{name: "{\"$pull\":{\"a\":{\"$gte\":6}}} on {\"_id\":1,\"a\":[1,6,8,2]}", ref: updateRef, docs: `[{"_id":1,"a":[1,6,8,2]}]`, filter: `{"_id":1}`, update: `{"$pull":{"a":{"$gte":6}}}`, want: `[{"_id":1,"a":[1,2]}]`, modified: `1`},
		{name: "{\"$pull\":{\"a\":\"x\"}} on {\"_id\":1,\"a\":[\"x\",\"y\",\"x\"]}", ref: updateRef, docs: `[{"_id":1,"a":["x","y","x"]}]`, filter: `{"_id":1}`, update: `{"$pull":{"a":"x"}}`, want: `[{"_id":1,"a":["y"]}]`, modified: `1`},
		{name: "{\"$pull\":{\"a\":{\"s\":{\"$lt\":5}}}} on {\"_id\":1,\"a\":[{\"s\":4,\"k\":1},{\"s\":9,\"k\":2}]}", ref: updateRef, docs: `[{"_id":1,"a":[{"s":4,"k":1},{"s":9,"k":2}]}]`, filter: `{"_id":1}`, update: `{"$pull":{"a":{"s":{"$lt":5}}}}`, want: `[{"_id":1,"a":[{"s":9,"k":2}]}]`, modified: `1`},
		{name: "{\"$pull\":{\"a\":{\"k\":2}}} on {\"_id\":1,\"a\":[{\"s\":4,\"k\":1},{\"s\":9,\"k\":2}]}", ref: updateRef, docs: `[{"_id":1,"a":[{"s":4,"k":1},{"s":9,"k":2}]}]`, filter: `{"_id":1}`, update: `{"$pull":{"a":{"k":2}}}`, want: `[{"_id":1,"a":[{"s":4,"k":1}]}]`, modified: `1`},
		{name: "{\"$pull\":{\"a\":[3]}} on {\"_id\":1,\"a\":[[1,2],[3]]}", ref: updateRef, docs: `[{"_id":1,"a":[[1,2],[3]]}]`, filter: `{"_id":1}`, update: `{"$pull":{"a":[3]}}`, want: `[{"_id":1,"a":[[1,2]]}]`, modified: `1`},
		{name: "{\"$pull\":{\"a\":{\"r\":{\"$elemMatch\":{\"s\":8}}}}} on {\"_id\":1,\"a\":[{\"r\":[{\"i\":\"A\",\"s\":5},{\"i\":\"B\",\"s\":8}]},{\"r\":[{\"i\":\"A\",\"s\":9}]}]}", ref: updateRef, docs: `[{"_id":1,"a":[{"r":[{"i":"A","s":5},{"i":"B","s":8}]},{"r":[{"i":"A","s":9}]}]}]`, filter: `{"_id":1}`, update: `{"$pull":{"a":{"r":{"$elemMatch":{"s":8}}}}}`, want: `[{"_id":1,"a":[{"r":[{"i":"A","s":9}]}]}]`, modified: `1`},
		{name: "{\"$pullAll\":{\"a\":[0,5]}} on {\"_id\":1,\"a\":[0,5,5,1,0]}", ref: updateRef, docs: `[{"_id":1,"a":[0,5,5,1,0]}]`, filter: `{"_id":1}`, update: `{"$pullAll":{"a":[0,5]}}`, want: `[{"_id":1,"a":[1]}]`, modified: `1`},
		{name: "{\"$set\":{\"g.$[]\":0}} on {\"_id\":1,\"g\":[80,85,90]}", ref: updateRef, docs: `[{"_id":1,"g":[80,85,90]}]`, filter: `{"_id":1}`, update: `{"$set":{"g.$[]":0}}`, want: `[{"_id":1,"g":[0,0,0]}]`, modified: `1`},
		{name: "{\"$set\":{\"g.$[e]\":100}} on {\"_id\":1,\"g\":[80,100,102]}", ref: updateRef, docs: `[{"_id":1,"g":[80,100,102]}]`, filter: `{"_id":1}`, update: `{"$set":{"g.$[e]":100}}`, arrayFilters: `[{"e":{"$gte":100}}]`, want: `[{"_id":1,"g":[80,100,100]}]`, modified: `1`},
		{name: "{\"$inc\":{\"g.$[].m.$[x]\":10}} on {\"_id\":1,\"g\":[{\"v\":1,\"m\":[1,5]},{\"v\":2,\"m\":[6]}]}", ref: updateRef, docs: `[{"_id":1,"g":[{"v":1,"m":[1,5]},{"v":2,"m":[6]}]}]`, filter: `{"_id":1}`, update: `{"$inc":{"g.$[].m.$[x]":10}}`, arrayFilters: `[{"x":{"$gt":4}}]`, want: `[{"_id":1,"g":[{"v":1,"m":[1,15]},{"v":2,"m":[16]}]}]`, modified: `1`},
		{name: "{\"$set\":{\"g.$[o].w\":true}} on {\"_id\":1,\"g\":[{\"v\":1},{\"v\":2}]}", ref: updateRef, docs: `[{"_id":1,"g":[{"v":1},{"v":2}]}]`, filter: `{"_id":1}`, update: `{"$set":{"g.$[o].w":true}}`, arrayFilters: `[{"o.v":2}]`, want: `[{"_id":1,"g":[{"v":1},{"v":2,"w":true}]}]`, modified: `1`},
		{name: "{\"$set\":{\"g.$[]\":1}} on {\"_id\":1,\"g\":[]}", ref: updateRef, docs: `[{"_id":1,"g":[]}]`, filter: `{"_id":1}`, update: `{"$set":{"g.$[]":1}}`, want: `[{"_id":1,"g":[]}]`, modified: `0`},
		{name: "{\"$push\":{\"a\":{\"$each\":[2,1],\"$sort\":1}}} on {\"_id\":1}", ref: updateRef, docs: `[{"_id":1}]`, filter: `{"_id":1}`, update: `{"$push":{"a":{"$each":[2,1],"$sort":1}}}`, want: `[{"_id":1,"a":[1,2]}]`, modified: `1`},
		{name: "{\"$addToSet\":{\"a\":1}} on {\"_id\":1}", ref: updateRef, docs: `[{"_id":1}]`, filter: `{"_id":1}`, update: `{"$addToSet":{"a":1}}`, want: `[{"_id":1,"a":[1]}]`, modified: `1`},
		{name: "{\"$pull\":{\"a\":1}} on {\"_id\":1}", ref: updateRef, docs: `[{"_id":1}]`, filter: `{"_id":1}`, update: `{"$pull":{"a":1}}`, want: `[{"_id":1}]`, modified: `0`},
		{name: "{\"$pop\":{\"a\":1}} on {\"_id\":1}", ref: updateRef, docs: `[{"_id":1}]`, filter: `{"_id":1}`, update: `{"$pop":{"a":1}}`, want: `[{"_id":1}]`, modified: `0`},
		{name: "{\"$setOnInsert\":{\"a\":1}} on {\"_id\":1}", ref: updateRef, docs: `[{"_id":1}]`, filter: `{"_id":1}`, update: `{"$setOnInsert":{"a":1}}`, want: `[{"_id":1}]`, modified: `0`},
		{name: "{\"$set\":{\"a\":{\"b\":1,\"c\":[1]}}} on {\"_id\":1,\"a\":{\"b\":1,\"c\":[1]}}", ref: updateRef, docs: `[{"_id":1,"a":{"b":1,"c":[1]}}]`, filter: `{"_id":1}`, update: `{"$set":{"a":{"b":1,"c":[1]}}}`, want: `[{"_id":1,"a":{"b":1,"c":[1]}}]`, modified: `0`},
		{name: "{\"$set\":{\"a\":{\"c\":[1],\"b\":1}}} on {\"_id\":1,\"a\":{\"b\":1,\"c\":[1]}}", ref: updateRef, docs: `[{"_id":1,"a":{"b":1,"c":[1]}}]`, filter: `{"_id":1}`, update: `{"$set":{"a":{"c":[1],"b":1}}}`, want: `[{"_id":1,"a":{"c":[1],"b":1}}]`, modified: `1`},
		{name: "{\"b\":2,\"_id\":1} on {\"_id\":1,\"a\":1}", ref: updateRef, docs: `[{"_id":1,"a":1}]`, filter: `{"_id":1}`, update: `{"b":2,"_id":1}`, want: `[{"_id":1,"b":2}]`, modified: `1`},
		{name: "{} on {\"_id\":1,\"a\":1}", ref: updateRef, docs: `[{"_id":1,"a":1}]`, filter: `{"_id":1}`, update: `{}`, want: `[{"_id":1}]`, modified: `1`},
		{name: "{\"$mul\":{\"a\":2}} on {\"_id\":1,\"a\":2147483647}", ref: updateRef, docs: `[{"_id":1,"a":2147483647}]`, filter: `{"_id":1}`, update: `{"$mul":{"a":2}}`, want: `[{"_id":1,"a":{"$numberLong":"4294967294"}}]`, modified: `1`},
		{name: "{\"$inc\":{\"a\":1}} on {\"_id\":1,\"a\":{\"$numberDecimal\":\"1.5\"}}", ref: updateRef, docs: `[{"_id":1,"a":{"$numberDecimal":"1.5"}}]`, filter: `{"_id":1}`, update: `{"$inc":{"a":1}}`, want: `[{"_id":1,"a":{"$numberDecimal":"2.5"}}]`, modified: `1`},
		{name: "{\"$max\":{\"d\":{\"$date\":\"2021-01-01T00:00:00Z\"}}} on {\"_id\":1,\"d\":{\"$date\":\"2020-01-01T00:00:00Z\"}}", ref: updateRef, docs: `[{"_id":1,"d":{"$date":"2020-01-01T00:00:00Z"}}]`, filter: `{"_id":1}`, update: `{"$max":{"d":{"$date":"2021-01-01T00:00:00Z"}}}`, want: `[{"_id":1,"d":{"$date":"2021-01-01T00:00:00Z"}}]`, modified: `1`},
		{name: "{\"$unset\":{\"a.5.x\":1,\"zz.y\":1}} on {\"_id\":1,\"a\":[{\"x\":1},{\"x\":2}]}", ref: updateRef, docs: `[{"_id":1,"a":[{"x":1},{"x":2}]}]`, filter: `{"_id":1}`, update: `{"$unset":{"a.5.x":1,"zz.y":1}}`, want: `[{"_id":1,"a":[{"x":1},{"x":2}]}]`, modified: `0`},
		{name: "{\"$push\":{\"a\":{\"$each\":[4],\"$slice\":-2,\"$position\":0}}} on {\"_id\":1,\"a\":[1,2,3]}", ref: updateRef, docs: `[{"_id":1,"a":[1,2,3]}]`, filter: `{"_id":1}`, update: `{"$push":{"a":{"$each":[4],"$slice":-2,"$position":0}}}`, want: `[{"_id":1,"a":[2,3]}]`, modified: `1`},
		{name: "{\"$push\":{\"a\":{\"$each\":[],\"$sort\":1}}} on {\"_id\":1,\"a\":[3,1,2]}", ref: updateRef, docs: `[{"_id":1,"a":[3,1,2]}]`, filter: `{"_id":1}`, update: `{"$push":{"a":{"$each":[],"$sort":1}}}`, want: `[{"_id":1,"a":[1,2,3]}]`, modified: `1`},
		{name: "positional $ after an array query", ref: "manual: reference/operator/update/positional",
			docs: `[{"_id": 1, "g": [80, 85, 80]}]`, filter: `{"g": 80}`, update: `{"$set": {"g.$": 82}}`, want: `[{"_id": 1, "g": [82, 85, 80]}]`},
		{name: "positional $ after $elemMatch", ref: "manual: reference/operator/update/positional",
			docs: `[{"_id": 1, "s": [{"n": "a", "v": 1}, {"n": "b", "v": 2}]}]`, filter: `{"s": {"$elemMatch": {"n": "a", "v": 1}}}`,
			update: `{"$set": {"s.$.w": true}}`, want: `[{"_id": 1, "s": [{"n": "a", "v": 1, "w": true}, {"n": "b", "v": 2}]}]`},
	})
}

func TestUpdateErrors(t *testing.T) {
	runUpdateCases(t, []updateCase{
		{name: "{\"$set\":{\"_id\":2}}", ref: updateErrRef, docs: `[{"_id":1,"a":1}]`, filter: `{"_id":1}`, update: `{"$set":{"_id":2}}`, code: mongoerr.ImmutableField, msg: "Performing an update on the path '_id' would modify the immutable field '_id'"},
		{name: "{\"_id\":2,\"a\":1}", ref: updateErrRef, docs: `[{"_id":1,"a":1}]`, filter: `{"_id":1}`, update: `{"_id":2,"a":1}`, code: mongoerr.ImmutableField, msg: "After applying the update, the (immutable) field '_id' was found to have been altered to _id: 2"},
		{name: "{\"$inc\":{\"s\":1}}", ref: updateErrRef, docs: `[{"_id":1,"s":"x"}]`, filter: `{"_id":1}`, update: `{"$inc":{"s":1}}`, code: mongoerr.TypeMismatch, msg: "Cannot apply $inc to a value of non-numeric type. {_id: 1} has the field 's' of non-numeric type string"},
		{name: "{\"$inc\":{\"a\":\"x\"}}", ref: updateErrRef, docs: `[{"_id":1,"a":1}]`, filter: `{"_id":1}`, update: `{"$inc":{"a":"x"}}`, code: mongoerr.TypeMismatch, msg: "Cannot increment with non-numeric argument: {a: \"x\"}"},
		{name: "{\"$push\":{\"a\":2}}", ref: updateErrRef, docs: `[{"_id":1,"a":1}]`, filter: `{"_id":1}`, update: `{"$push":{"a":2}}`, code: mongoerr.BadValue, msg: "The field 'a' must be an array but is of type int in document {_id: 1}"},
		{name: "{\"$set\":{\"a.b\":1}}", ref: updateErrRef, docs: `[{"_id":1,"a":5}]`, filter: `{"_id":1}`, update: `{"$set":{"a.b":1}}`, code: mongoerr.PathNotViable, msg: "Cannot create field 'b' in element {a: 5}"},
		{name: "{\"$set\":{\"a\":1},\"$inc\":{\"a\":1}}", ref: updateErrRef, docs: `[{"_id":1}]`, filter: `{"_id":1}`, update: `{"$set":{"a":1},"$inc":{"a":1}}`, code: mongoerr.ConflictingUpdateOperators, msg: "Updating the path 'a' would create a conflict at 'a'"},
		{name: "{\"$set\":{\"a.b\":1,\"a\":1}}", ref: updateErrRef, docs: `[{"_id":1}]`, filter: `{"_id":1}`, update: `{"$set":{"a.b":1,"a":1}}`, code: mongoerr.ConflictingUpdateOperators, msg: "Updating the path 'a' would create a conflict at 'a'"},
		{name: "{\"$foo\":{\"a\":1}}", ref: updateErrRef, docs: `[{"_id":1}]`, filter: `{"_id":1}`, update: `{"$foo":{"a":1}}`, code: mongoerr.FailedToParse, msg: "Unknown modifier: $foo. Expected a valid update modifier or pipeline-style update specified as an array"},
		{name: "{\"$set\":{\"a.$\":2}}", ref: updateErrRef, docs: `[{"_id":1,"a":[1]}]`, filter: `{"_id":1}`, update: `{"$set":{"a.$":2}}`, code: mongoerr.BadValue, msg: "The positional operator did not find the match needed from the query."},
		{name: "{\"$set\":{\"a.$[y]\":2}}", ref: updateErrRef, docs: `[{"_id":1,"a":[1]}]`, filter: `{"_id":1}`, update: `{"$set":{"a.$[y]":2}}`, code: mongoerr.BadValue, msg: "No array filter found for identifier 'y' in path 'a.$[y]'"},
		{name: "{\"$set\":{\"a\":2}}", ref: updateErrRef, docs: `[{"_id":1,"a":[1]}]`, filter: `{"_id":1}`, update: `{"$set":{"a":2}}`, arrayFilters: `[{"x":1}]`, code: mongoerr.FailedToParse, msg: "The array filter for identifier 'x' was not used in the update { $set: { a: 2 } }"},
		{name: "{\"$rename\":{\"a\":\"a\"}}", ref: updateErrRef, docs: `[{"_id":1,"a":1}]`, filter: `{"_id":1}`, update: `{"$rename":{"a":"a"}}`, code: mongoerr.BadValue, msg: "The source and target field for $rename must differ: a: \"a\""},
		{name: "{\"$set\":{\"\":1}}", ref: updateErrRef, docs: `[{"_id":1,"a":1}]`, filter: `{"_id":1}`, update: `{"$set":{"":1}}`, code: mongoerr.EmptyFieldName, msg: "An empty update path is not valid."},
		{name: "{\"$set\":{\"$x\":1}}", ref: updateErrRef, docs: `[{"_id":1,"a":1}]`, filter: `{"_id":1}`, update: `{"$set":{"$x":1}}`, code: mongoerr.DollarPrefixedFieldName, msg: "The dollar ($) prefixed field '$x' in '$x' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith."},
		{name: "an upsert inserting a top-level $-prefixed field", ref: "https://www.mongodb.com/docs/manual/core/dot-dollar-considerations/dollar-prefix/; jstests/core/write/update/update_invalid1.js", cov: cover{family: update, op: "$set", col: semantics},
			filter: `{"_id":5}`, upsert: true, update: `{"$set":{"$inc":{"x":5}}}`, want: `[{"_id":5,"$inc":{"x":5}}]`},
		{name: "an upsert that matches cannot add a top-level $-prefixed field", ref: "https://www.mongodb.com/docs/manual/core/dot-dollar-considerations/dollar-prefix/", docs: `[{"_id":5}]`, filter: `{"_id":5}`, upsert: true, update: `{"$set":{"$inc":{"x":5}}}`,
			code: mongoerr.DollarPrefixedFieldName, msg: "The dollar ($) prefixed field '$inc' in '$inc' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith."},
		{name: "{\"$pop\":{\"a\":2}}", ref: updateErrRef, docs: `[{"_id":1,"a":[1]}]`, filter: `{"_id":1}`, update: `{"$pop":{"a":2}}`, code: mongoerr.FailedToParse, msg: "$pop expects 1 or -1, found: 2"},
		{name: "{\"$pullAll\":{\"a\":1}}", ref: updateErrRef, docs: `[{"_id":1,"a":[1]}]`, filter: `{"_id":1}`, update: `{"$pullAll":{"a":1}}`, code: mongoerr.BadValue, msg: "$pullAll requires an array argument but was given a int"},
		{name: "{\"$push\":{\"a\":{\"$each\":1}}}", ref: updateErrRef, docs: `[{"_id":1,"a":[1]}]`, filter: `{"_id":1}`, update: `{"$push":{"a":{"$each":1}}}`, code: mongoerr.BadValue, msg: "The argument to $each in $push must be an array but it was of type: int"},
		{name: "{\"$push\":{\"a\":{\"$each\":[1],\"$slice\":\"x\"}}}", ref: updateErrRef, docs: `[{"_id":1,"a":[1]}]`, filter: `{"_id":1}`, update: `{"$push":{"a":{"$each":[1],"$slice":"x"}}}`, code: mongoerr.BadValue, msg: "The value for $slice must be an integer value but was given type: string"},
		{name: "{\"$addToSet\":{\"a\":{\"$each\":1}}}", ref: updateErrRef, docs: `[{"_id":1,"a":[1]}]`, filter: `{"_id":1}`, update: `{"$addToSet":{"a":{"$each":1}}}`, code: mongoerr.TypeMismatch, msg: "The argument to $each in $addToSet must be an array but it was of type int"},
	})
}

// updatePipelineRef: an update pipeline is parsed as an aggregation
// pipeline, then each stage must be allowed within an update.
const updatePipelineRef = "manual: tutorial/update-documents-with-aggregation-pipeline; src/mongo/db/update/pipeline_executor.cpp"

func TestUpdatePipelines(t *testing.T) {
	doc := `[{"_id":1,"a":5,"b":3,"tmp":1}]`
	runUpdateCases(t, []updateCase{
		{name: "$set, $unset, $replaceWith, $project, $replaceRoot", ref: updatePipelineRef, docs: doc, filter: `{"_id":1}`,
			update: `[{"$set":{"c":{"$add":["$a","$b"]}}},{"$unset":"tmp"},{"$replaceWith":{"$mergeObjects":["$$ROOT",{"d":1}]}},
				{"$project":{"b":0}},{"$replaceRoot":{"newRoot":{"$mergeObjects":[{"z":0},"$$ROOT"]}}}]`,
			want: `[{"_id":1,"z":0,"a":5,"c":8,"d":1}]`, modified: `1`},
		{name: "a decimal is an inclusion flag", ref: updatePipelineRef, docs: doc, filter: `{"_id":1}`,
			update: `[{"$project":{"a":{"$numberDecimal":"1"}}}]`, want: `[{"_id":1,"a":5}]`, modified: `1`},
		{name: "$replaceRoot of a non-object spec", ref: "src/mongo/db/pipeline/document_source_replace_root.cpp createFromBson", docs: doc, filter: `{"_id":1}`,
			update: `[{"$replaceRoot":5}]`, code: 40229, msg: "expected an object as specification for $replaceRoot stage, got int"},
		{name: "$replaceWith a number", ref: "src/mongo/db/pipeline/document_source_replace_root.h kErrorTemplate", docs: doc, filter: `{"_id":1}`,
			update: `[{"$replaceWith":"$a"}]`, code: 40228,
			msg: "'replacement document'  must evaluate to an object, but resulting value was: 5. Type of resulting value: 'int'. Input document: {_id: 1, a: 5, b: 3, tmp: 1}"},
		{name: "$project mixing", ref: "src/mongo/db/query/projection_parser.cpp parseExclusion", docs: doc, filter: `{"_id":1}`,
			update: `[{"$project":{"a":1,"b":0}}]`, code: 31254, msg: "Invalid $project :: caused by :: Cannot do exclusion on field b in inclusion projection"},
		{name: "empty $set", ref: "src/mongo/db/exec/add_fields_projection_executor.cpp ProjectionSpecValidator::validate (no emptiness check); jstests/aggregation/sources/lookup/lookup_non_correlated_prefix.js (SERVER-57000)", docs: doc, filter: `{"_id":1}`,
			update: `[{"$set":{}}]`, want: doc, modified: `0`},
		{name: "$match is not allowed", ref: updatePipelineRef, docs: doc, filter: `{"_id":1}`,
			update: `[{"$match":{}}]`, code: 72, msg: "$match is not allowed to be used within an update"},
		{name: "$count is refused as the $group it stands for", ref: updatePipelineRef, docs: doc, filter: `{"_id":1}`,
			update: `[{"$count":"n"}]`, code: 72, msg: "$group is not allowed to be used within an update"},
		{name: "a malformed stage fails to parse first", ref: updatePipelineRef, docs: doc, filter: `{"_id":1}`,
			update: `[{"$match":5}]`, code: 15959, msg: "the match filter must be an expression in an object"},
	})
}
