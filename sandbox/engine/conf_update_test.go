package engine_test

import (
	"fmt"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

type updateCase struct {
	doc, update, arrayFilters string
	want                      string // the document afterwards
	nModified                 int32
}

// Expected documents follow the MongoDB 8.0 manual page of each update
// operator (its examples) and jstests/core/write/update.
func TestConfUpdateOperators(t *testing.T) {
	cases := []updateCase{
		{`{"_id":1,"a":1,"b":2}`, `{"$set":{"a":5,"c":3}}`, ``, `{"_id":1,"a":5,"b":2,"c":3}`, 1},
		{`{"_id":1,"a":1}`, `{"$set":{"a":1}}`, ``, `{"_id":1,"a":1}`, 0},
		{`{"_id":1,"a":1}`, `{"$set":{"a":1.0}}`, ``, `{"_id":1,"a":1.0}`, 1},
		{`{"_id":1}`, `{"$set":{"x.y.z":1}}`, ``, `{"_id":1,"x":{"y":{"z":1}}}`, 1},
		{`{"_id":1,"z":1}`, `{"$set":{"b":1,"a":2}}`, ``, `{"_id":1,"z":1,"a":2,"b":1}`, 1},
		{`{"_id":1,"arr":[1,2,3]}`, `{"$set":{"arr.1":9}}`, ``, `{"_id":1,"arr":[1,9,3]}`, 1},
		{`{"_id":1,"arr":[1,2]}`, `{"$set":{"arr.4":9}}`, ``, `{"_id":1,"arr":[1,2,null,null,9]}`, 1},
		{`{"_id":1,"arr":[{"a":1}]}`, `{"$set":{"arr.0.b":2}}`, ``, `{"_id":1,"arr":[{"a":1,"b":2}]}`, 1},
		{`{"_id":1,"a":1,"b":2}`, `{"$unset":{"a":""}}`, ``, `{"_id":1,"b":2}`, 1},
		{`{"_id":1,"a":1}`, `{"$unset":{"zz":""}}`, ``, `{"_id":1,"a":1}`, 0},
		{`{"_id":1,"arr":[1,2,3]}`, `{"$unset":{"arr.0":""}}`, ``, `{"_id":1,"arr":[null,2,3]}`, 1},
		{`{"_id":1,"a":1,"b":{"c":1,"d":2}}`, `{"$set":{"a":2},"$unset":{"b.c":1}}`, ``, `{"_id":1,"a":2,"b":{"d":2}}`, 1},
		{`{"_id":1,"a":1}`, `{"$inc":{"a":2,"n":1}}`, ``, `{"_id":1,"a":3,"n":1}`, 1},
		{`{"_id":1,"a":2147483647}`, `{"$inc":{"a":1}}`, ``, `{"_id":1,"a":{"$numberLong":"2147483648"}}`, 1},
		{`{"_id":1,"a":1}`, `{"$inc":{"a":0.5}}`, ``, `{"_id":1,"a":1.5}`, 1},
		{`{"_id":1,"a":{"$numberLong":"1"}}`, `{"$inc":{"a":1}}`, ``, `{"_id":1,"a":{"$numberLong":"2"}}`, 1},
		{`{"_id":1,"a":1}`, `{"$inc":{"a":0}}`, ``, `{"_id":1,"a":1}`, 0},
		{`{"_id":1,"a":3}`, `{"$mul":{"a":2,"m":5}}`, ``, `{"_id":1,"a":6,"m":0}`, 1},
		{`{"_id":1,"a":3}`, `{"$mul":{"a":1.5,"m":2.0}}`, ``, `{"_id":1,"a":4.5,"m":0.0}`, 1},
		{`{"_id":1,"lo":5,"hi":5}`, `{"$min":{"lo":3},"$max":{"hi":3}}`, ``, `{"_id":1,"lo":3,"hi":5}`, 1},
		{`{"_id":1,"lo":5}`, `{"$max":{"lo":"a"},"$min":{"new":1}}`, ``, `{"_id":1,"lo":"a","new":1}`, 1},
		{`{"_id":1,"lo":5}`, `{"$min":{"lo":5.0}}`, ``, `{"_id":1,"lo":5}`, 0},
		{`{"_id":1,"a":1,"b":2}`, `{"$rename":{"a":"z"}}`, ``, `{"_id":1,"b":2,"z":1}`, 1},
		{`{"_id":1,"a":1,"b":2}`, `{"$rename":{"a":"b"}}`, ``, `{"_id":1,"b":1}`, 1},
		{`{"_id":1,"n":{"a":1}}`, `{"$rename":{"n.a":"m.b"}}`, ``, `{"_id":1,"n":{},"m":{"b":1}}`, 1},
		{`{"_id":1,"a":1}`, `{"$rename":{"zz":"y"}}`, ``, `{"_id":1,"a":1}`, 0},
		{`{"_id":1,"a":[1]}`, `{"$push":{"a":2}}`, ``, `{"_id":1,"a":[1,2]}`, 1},
		{`{"_id":1}`, `{"$push":{"a":[2]}}`, ``, `{"_id":1,"a":[[2]]}`, 1},
		{`{"_id":1,"a":[1,2]}`, `{"$push":{"a":{"$each":[3,4],"$position":0}}}`, ``, `{"_id":1,"a":[3,4,1,2]}`, 1},
		{`{"_id":1,"a":[1,2]}`, `{"$push":{"a":{"$each":[3],"$position":-1}}}`, ``, `{"_id":1,"a":[1,3,2]}`, 1},
		{`{"_id":1,"a":[5,1]}`, `{"$push":{"a":{"$each":[3,9],"$sort":1,"$slice":3}}}`, ``, `{"_id":1,"a":[1,3,5]}`, 1},
		{`{"_id":1,"a":[5,1]}`, `{"$push":{"a":{"$each":[3],"$sort":-1,"$slice":-2}}}`, ``, `{"_id":1,"a":[3,1]}`, 1},
		{`{"_id":1,"q":[{"s":8},{"s":6}]}`, `{"$push":{"q":{"$each":[{"s":7}],"$sort":{"s":-1},"$slice":2}}}`, ``, `{"_id":1,"q":[{"s":8},{"s":7}]}`, 1},
		{`{"_id":1,"a":[1,2]}`, `{"$push":{"a":{"$each":[],"$slice":0}}}`, ``, `{"_id":1,"a":[]}`, 1},
		{`{"_id":1,"a":[1,2]}`, `{"$push":{"a":{"$each":[]}}}`, ``, `{"_id":1,"a":[1,2]}`, 0},
		{`{"_id":1,"a":[1,2]}`, `{"$addToSet":{"a":2}}`, ``, `{"_id":1,"a":[1,2]}`, 0},
		{`{"_id":1,"a":[1,2]}`, `{"$addToSet":{"a":{"$each":[2,3,3,4]}}}`, ``, `{"_id":1,"a":[1,2,3,4]}`, 1},
		{`{"_id":1,"a":[1,2]}`, `{"$addToSet":{"a":2.0}}`, ``, `{"_id":1,"a":[1,2]}`, 0},
		{`{"_id":1,"a":[{"x":1,"y":2}]}`, `{"$addToSet":{"a":{"y":2,"x":1}}}`, ``, `{"_id":1,"a":[{"x":1,"y":2},{"y":2,"x":1}]}`, 1},
		{`{"_id":1}`, `{"$addToSet":{"a":[1]}}`, ``, `{"_id":1,"a":[[1]]}`, 1},
		{`{"_id":1,"a":[1,2,3]}`, `{"$pop":{"a":1}}`, ``, `{"_id":1,"a":[1,2]}`, 1},
		{`{"_id":1,"a":[1,2,3]}`, `{"$pop":{"a":-1}}`, ``, `{"_id":1,"a":[2,3]}`, 1},
		{`{"_id":1,"a":[]}`, `{"$pop":{"a":1}}`, ``, `{"_id":1,"a":[]}`, 0},
		{`{"_id":1,"a":[1,6,8,2]}`, `{"$pull":{"a":{"$gte":6}}}`, ``, `{"_id":1,"a":[1,2]}`, 1},
		{`{"_id":1,"a":["x","y","x"]}`, `{"$pull":{"a":"x"}}`, ``, `{"_id":1,"a":["y"]}`, 1},
		{`{"_id":1,"a":[{"s":4,"k":1},{"s":9,"k":2}]}`, `{"$pull":{"a":{"s":{"$lt":5}}}}`, ``, `{"_id":1,"a":[{"s":9,"k":2}]}`, 1},
		{`{"_id":1,"a":[{"s":4,"k":1},{"s":9,"k":2}]}`, `{"$pull":{"a":{"k":2}}}`, ``, `{"_id":1,"a":[{"s":4,"k":1}]}`, 1},
		{`{"_id":1,"a":[[1,2],[3]]}`, `{"$pull":{"a":[3]}}`, ``, `{"_id":1,"a":[[1,2]]}`, 1},
		{`{"_id":1,"a":[{"r":[{"i":"A","s":5},{"i":"B","s":8}]},{"r":[{"i":"A","s":9}]}]}`, `{"$pull":{"a":{"r":{"$elemMatch":{"s":8}}}}}`, ``, `{"_id":1,"a":[{"r":[{"i":"A","s":9}]}]}`, 1},
		{`{"_id":1,"a":[0,5,5,1,0]}`, `{"$pullAll":{"a":[0,5]}}`, ``, `{"_id":1,"a":[1]}`, 1},
		{`{"_id":1,"g":[80,85,90]}`, `{"$set":{"g.$[]":0}}`, ``, `{"_id":1,"g":[0,0,0]}`, 1},
		{`{"_id":1,"g":[80,100,102]}`, `{"$set":{"g.$[e]":100}}`, `[{"e":{"$gte":100}}]`, `{"_id":1,"g":[80,100,100]}`, 1},
		{`{"_id":1,"g":[{"v":1,"m":[1,5]},{"v":2,"m":[6]}]}`, `{"$inc":{"g.$[].m.$[x]":10}}`, `[{"x":{"$gt":4}}]`, `{"_id":1,"g":[{"v":1,"m":[1,15]},{"v":2,"m":[16]}]}`, 1},
		{`{"_id":1,"g":[{"v":1},{"v":2}]}`, `{"$set":{"g.$[o].w":true}}`, `[{"o.v":2}]`, `{"_id":1,"g":[{"v":1},{"v":2,"w":true}]}`, 1},
		{`{"_id":1,"g":[]}`, `{"$set":{"g.$[]":1}}`, ``, `{"_id":1,"g":[]}`, 0},
	}
	for i, c := range cases {
		db, coll := confColl(t, c.doc)
		cmd := `{"update":"c","updates":[{"q":{"_id":1},"u":` + c.update
		if c.arrayFilters != "" {
			cmd += `,"arrayFilters":` + c.arrayFilters
		}
		cmd += `}]}`
		out := okJ(t, db, cmd)
		sameJSON(t, fmt.Sprintf("case %d reply to %s", i, c.update), out, fmt.Sprintf(`{"n":1,"nModified":%d,"ok":1.0}`, c.nModified))
		var got bson.D
		if err := coll.FindOne(ctx, bson.D{}).Decode(&got); err != nil {
			t.Fatal(err)
		}
		sameJSON(t, fmt.Sprintf("case %d: %s on %s", i, c.update, c.doc), got, c.want)
	}
}

func TestConfUpdatePositional(t *testing.T) {
	db, coll := confColl(t, `{"_id":1,"g":[80,85,80],"s":[{"n":"a","v":1},{"n":"b","v":2}]}`)
	okJ(t, db, `{"update":"c","updates":[{"q":{"g":80},"u":{"$set":{"g.$":82}}}]}`)
	okJ(t, db, `{"update":"c","updates":[{"q":{"s.n":"b"},"u":{"$inc":{"s.$.v":5}}}]}`)
	okJ(t, db, `{"update":"c","updates":[{"q":{"s":{"$elemMatch":{"n":"a","v":1}}},"u":{"$set":{"s.$.w":true}}}]}`)
	var got bson.D
	if err := coll.FindOne(ctx, bson.D{}).Decode(&got); err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "positional $", got, `{"_id":1,"g":[82,85,80],"s":[{"n":"a","v":1,"w":true},{"n":"b","v":7}]}`)
}

// Messages are from src/mongo/db/update/*.cpp in mongod 8.0.
func TestConfUpdateErrors(t *testing.T) {
	cases := []struct {
		doc, q, u, af string
		code          int32
		msg           string
	}{
		{`{"_id":1,"a":1}`, `{"_id":1}`, `{"$set":{"_id":2}}`, ``, 66, "Performing an update on the path '_id' would modify the immutable field '_id'"},
		{`{"_id":1,"a":1}`, `{"_id":1}`, `{"_id":2,"a":1}`, ``, 66, "After applying the update, the (immutable) field '_id' was found to have been altered to _id: 2"},
		{`{"_id":1,"s":"x"}`, `{"_id":1}`, `{"$inc":{"s":1}}`, ``, 14, "Cannot apply $inc to a value of non-numeric type. {_id: 1} has the field 's' of non-numeric type string"},
		{`{"_id":1,"a":1}`, `{"_id":1}`, `{"$inc":{"a":"x"}}`, ``, 14, "Cannot increment with non-numeric argument: {a: \"x\"}"},
		{`{"_id":1,"a":1}`, `{"_id":1}`, `{"$push":{"a":2}}`, ``, 2, "The field 'a' must be an array but is of type int in document {_id: 1}"},
		{`{"_id":1,"a":5}`, `{"_id":1}`, `{"$set":{"a.b":1}}`, ``, 28, "Cannot create field 'b' in element {a: 5}"},
		{`{"_id":1}`, `{"_id":1}`, `{"$set":{"a":1},"$inc":{"a":1}}`, ``, 40, "Updating the path 'a' would create a conflict at 'a'"},
		{`{"_id":1}`, `{"_id":1}`, `{"$set":{"a.b":1,"a":1}}`, ``, 40, "Updating the path 'a' would create a conflict at 'a'"},
		{`{"_id":1}`, `{"_id":1}`, `{"$foo":{"a":1}}`, ``, 9, "Unknown modifier: $foo. Expected a valid update modifier or pipeline-style update specified as an array"},
		{`{"_id":1,"a":[1]}`, `{"_id":1}`, `{"$set":{"a.$":2}}`, ``, 2, "The positional operator did not find the match needed from the query."},
		{`{"_id":1,"a":[1]}`, `{"_id":1}`, `{"$set":{"a.$[y]":2}}`, ``, 2, "No array filter found for identifier 'y' in path 'a.$[y]'"},
		{`{"_id":1,"a":[1]}`, `{"_id":1}`, `{"$set":{"a":2}}`, `[{"x":1}]`, 9, "The array filter for identifier 'x' was not used in the update { $set: { a: 2 } }"},
		{`{"_id":1,"a":1}`, `{"_id":1}`, `{"$rename":{"a":"a"}}`, ``, 2, "The source and target field for $rename must differ: a: \"a\""},
		{`{"_id":1,"a":1}`, `{"_id":1}`, `{"$set":{"":1}}`, ``, 56, "An empty update path is not valid."},
		{`{"_id":1,"a":1}`, `{"_id":1}`, `{"$set":{"$x":1}}`, ``, 52, "The dollar ($) prefixed field '$x' in '$x' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith."},
		{`{"_id":1,"a":[1]}`, `{"_id":1}`, `{"$pop":{"a":2}}`, ``, 9, "$pop expects 1 or -1, found: 2"},
		{`{"_id":1,"a":[1]}`, `{"_id":1}`, `{"$pullAll":{"a":1}}`, ``, 2, "$pullAll requires an array argument but was given a int"},
		{`{"_id":1,"a":[1]}`, `{"_id":1}`, `{"$push":{"a":{"$each":1}}}`, ``, 2, "The argument to $each in $push must be an array but it was of type: int"},
		{`{"_id":1,"a":[1]}`, `{"_id":1}`, `{"$push":{"a":{"$each":[1],"$slice":"x"}}}`, ``, 2, "The value for $slice must be an integer value but was given type: string"},
		{`{"_id":1,"a":[1]}`, `{"_id":1}`, `{"$addToSet":{"a":{"$each":1}}}`, ``, 2, "The argument to $each in $addToSet must be an array but it was of type int"},
	}
	for _, c := range cases {
		db, _ := confColl(t, c.doc)
		cmd := `{"update":"c","updates":[{"q":` + c.q + `,"u":` + c.u
		if c.af != "" {
			cmd += `,"arrayFilters":` + c.af
		}
		cmd += `}]}`
		out := okJ(t, db, cmd)
		sameJSON(t, "update "+c.u, out, fmt.Sprintf(`{"n":0,"nModified":0,"writeErrors":[{"index":0,"code":%d,"errmsg":%q}],"ok":1.0}`, c.code, c.msg))
	}
}

func TestConfUpdateMoreOperators(t *testing.T) {
	cases := []updateCase{
		{`{"_id":1}`, `{"$push":{"a":{"$each":[2,1],"$sort":1}}}`, ``, `{"_id":1,"a":[1,2]}`, 1},
		{`{"_id":1}`, `{"$addToSet":{"a":1}}`, ``, `{"_id":1,"a":[1]}`, 1},
		{`{"_id":1}`, `{"$pull":{"a":1}}`, ``, `{"_id":1}`, 0},
		{`{"_id":1}`, `{"$pop":{"a":1}}`, ``, `{"_id":1}`, 0},
		{`{"_id":1}`, `{"$setOnInsert":{"a":1}}`, ``, `{"_id":1}`, 0},
		{`{"_id":1,"a":{"b":1,"c":[1]}}`, `{"$set":{"a":{"b":1,"c":[1]}}}`, ``, `{"_id":1,"a":{"b":1,"c":[1]}}`, 0},
		{`{"_id":1,"a":{"b":1,"c":[1]}}`, `{"$set":{"a":{"c":[1],"b":1}}}`, ``, `{"_id":1,"a":{"c":[1],"b":1}}`, 1},
		{`{"_id":1,"a":1}`, `{"b":2,"_id":1}`, ``, `{"_id":1,"b":2}`, 1},
		{`{"_id":1,"a":1}`, `{}`, ``, `{"_id":1}`, 1},
		{`{"_id":1,"a":2147483647}`, `{"$mul":{"a":2}}`, ``, `{"_id":1,"a":{"$numberLong":"4294967294"}}`, 1},
		{`{"_id":1,"a":{"$numberDecimal":"1.5"}}`, `{"$inc":{"a":1}}`, ``, `{"_id":1,"a":{"$numberDecimal":"2.5"}}`, 1},
		{`{"_id":1,"d":{"$date":"2020-01-01T00:00:00Z"}}`, `{"$max":{"d":{"$date":"2021-01-01T00:00:00Z"}}}`, ``, `{"_id":1,"d":{"$date":"2021-01-01T00:00:00Z"}}`, 1},
		{`{"_id":1,"a":[{"x":1},{"x":2}]}`, `{"$unset":{"a.5.x":1,"zz.y":1}}`, ``, `{"_id":1,"a":[{"x":1},{"x":2}]}`, 0},
		{`{"_id":1,"a":[1,2,3]}`, `{"$push":{"a":{"$each":[4],"$slice":-2,"$position":0}}}`, ``, `{"_id":1,"a":[2,3]}`, 1},
		{`{"_id":1,"a":[3,1,2]}`, `{"$push":{"a":{"$each":[],"$sort":1}}}`, ``, `{"_id":1,"a":[1,2,3]}`, 1},
	}
	for i, c := range cases {
		db, coll := confColl(t, c.doc)
		out := okJ(t, db, `{"update":"c","updates":[{"q":{"_id":1},"u":`+c.update+`}]}`)
		sameJSON(t, fmt.Sprintf("more case %d reply to %s", i, c.update), out, fmt.Sprintf(`{"n":1,"nModified":%d,"ok":1.0}`, c.nModified))
		var got bson.D
		if err := coll.FindOne(ctx, bson.D{}).Decode(&got); err != nil {
			t.Fatal(err)
		}
		sameJSON(t, fmt.Sprintf("more case %d: %s on %s", i, c.update, c.doc), got, c.want)
	}

	// $currentDate sets a date, or a timestamp when asked.
	db, coll := confColl(t, `{"_id":1}`)
	okJ(t, db, `{"update":"c","updates":[{"q":{"_id":1},"u":{"$currentDate":{"d":true,"t":{"$type":"timestamp"},"e":{"$type":"date"}}}}]}`)
	var got bson.D
	_ = coll.FindOne(ctx, bson.D{}).Decode(&got)
	if _, ok := field(got, "d").(bson.DateTime); !ok {
		t.Errorf("$currentDate true: %v", got)
	}
	if _, ok := field(got, "e").(bson.DateTime); !ok {
		t.Errorf("$currentDate date: %v", got)
	}
	if ts, ok := field(got, "t").(bson.Timestamp); !ok || ts.T == 0 {
		t.Errorf("$currentDate timestamp: %v", got)
	}

	// More refusals, each a write error with mongod's code and message.
	for _, c := range []struct {
		doc, q, u string
		upsert    bool
		code      int32
		msg       string
	}{
		{`{"_id":1,"a":[{"x":1}]}`, `{"_id":1}`, `{"$set":{"a.b":1}}`, false, 28, "Cannot create field 'b' in element {a: [ { x: 1 } ]}"},
		{`{"_id":1}`, `{"_id":1}`, `{"$set":{"g.$[]":1}}`, false, 2, "The path 'g' must exist in the document in order to apply array updates."},
		{`{"_id":1}`, `{"a":1}`, `{"$set":{"a.$":2}}`, true, 2, "The positional operator did not find the match needed from the query."},
		{`{"_id":1}`, `{"_id":1}`, `{"$currentDate":{"d":{"$type":"x"}}}`, false, 2, "The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}"},
		{`{"_id":1}`, `{"_id":1}`, `{"$set":{"a":1},"b":1}`, false, 9, "Unknown modifier: b. Expected a valid update modifier or pipeline-style update specified as an array"},
		{`{"_id":1}`, `{"_id":1}`, `{"a":1,"$set":{"b":1}}`, false, 52, "The dollar ($) prefixed field '$set' in '$set' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith."},
		{`{"_id":1}`, `{"a":{"$gt":1},"$or":[{"a":2},{"a":3}]}`, `{"$set":{"b":1}}`, true, -1, ""},
		{`{"_id":1}`, `{"a":1,"a.b":2}`, `{"$set":{"c":1}}`, true, 54, "cannot infer query fields to set, both paths 'a.b' and 'a' are matched"},
		{`{"_id":1}`, `{"$and":[{"a":1},{"a":2}]}`, `{"$set":{"c":1}}`, true, 54, "cannot infer query fields to set, path 'a' is matched twice"},
		{`{"_id":1}`, `{"_id":{"$gt":5}}`, `{"$set":{"_id":2}}`, true, -1, ""},
	} {
		db, _ := confColl(t, c.doc)
		cmd := fmt.Sprintf(`{"update":"c","updates":[{"q":%s,"u":%s,"upsert":%v}]}`, c.q, c.u, c.upsert)
		out := okJ(t, db, cmd)
		if c.code == -1 {
			if field(out, "writeErrors") != nil {
				t.Errorf("%s: %v", cmd, relaxed(out))
			}
			continue
		}
		we, _ := field(out, "writeErrors").(bson.A)
		if len(we) != 1 {
			t.Errorf("%s: no write error: %v", cmd, relaxed(out))
			continue
		}
		sameJSON(t, cmd, bson.D{we[0].(bson.D)[1], we[0].(bson.D)[2]}, fmt.Sprintf(`{"code":%d,"errmsg":%q}`, c.code, c.msg))
	}
}
