package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Upsert rules from the manual's "Upsert Behavior" (update command) and
// jstests/core/write/upsert: equality fields of the query seed the new
// document, then the update applies.
func TestConfUpsert(t *testing.T) {
	cases := []struct{ q, u, want string }{
		{`{"_id":7,"x":1}`, `{"$set":{"y":2}}`, `{"_id":7,"x":1,"y":2}`},
		{`{"_id":7,"a":1,"b":{"$gt":5},"c.d":3}`, `{"$set":{"e":1}}`, `{"_id":7,"a":1,"c":{"d":3},"e":1}`},
		{`{"z":1,"_id":7,"m.y":2,"m.b":3,"a":{"$eq":4}}`, `{"$set":{"q":1,"b":2}}`, `{"_id":7,"a":4,"m":{"b":3,"y":2},"z":1,"b":2,"q":1}`},
		{`{"_id":7,"$and":[{"a":1},{"b":{"$eq":2}}]}`, `{"$inc":{"n":1}}`, `{"_id":7,"a":1,"b":2,"n":1}`},
		{`{"_id":7,"a":{"$in":[4]},"b":{"$in":[1,2]}}`, `{"$setOnInsert":{"s":true}}`, `{"_id":7,"a":4,"s":true}`},
		{`{"_id":7,"a":1}`, `{"b":2}`, `{"_id":7,"b":2}`},
		{`{"_id":7,"a":{"$elemMatch":{"x":1}}}`, `{"$set":{"y":1}}`, `{"_id":7,"y":1}`},
		{`{"_id":7,"a":{"b":1}}`, `{"$set":{"a.c":2}}`, `{"_id":7,"a":{"b":1,"c":2}}`},
	}
	for _, c := range cases {
		db, coll := confColl(t)
		out := okJ(t, db, `{"update":"c","updates":[{"q":`+c.q+`,"u":`+c.u+`,"upsert":true}]}`)
		sameJSON(t, "upsert reply "+c.q, out, `{"n":1,"upserted":[{"index":0,"_id":7}],"nModified":0,"ok":1.0}`)
		var got bson.D
		if err := coll.FindOne(ctx, bson.D{}).Decode(&got); err != nil {
			t.Fatal(err)
		}
		sameJSON(t, "upserted "+c.q+" "+c.u, got, c.want)
	}

	// A generated _id goes first, as an ObjectId, and is reported.
	db, coll := confColl(t)
	out := okJ(t, db, `{"update":"c","updates":[{"q":{"a":1},"u":{"$set":{"b":1}},"upsert":true}]}`)
	up := field(out, "upserted").(bson.A)[0].(bson.D)
	oid, ok := field(up, "_id").(bson.ObjectID)
	if !ok {
		t.Fatalf("upserted %v", up)
	}
	var got bson.D
	_ = coll.FindOne(ctx, bson.D{}).Decode(&got)
	sameJSON(t, "generated _id", got, `{"_id":{"$oid":"`+oid.Hex()+`"},"a":1,"b":1}`)

	// $setOnInsert does nothing when a document matched.
	okJ(t, db, `{"update":"c","updates":[{"q":{"a":1},"u":{"$setOnInsert":{"z":1}},"upsert":true}]}`)
	_ = coll.FindOne(ctx, bson.D{}).Decode(&got)
	sameJSON(t, "setOnInsert on match", got, `{"_id":{"$oid":"`+oid.Hex()+`"},"a":1,"b":1}`)
}

// The seed-002 bucket pattern: an upsert keyed on a non-full bucket opens
// a new bucket when the current one holds 60 readings. The new bucket's
// seeded fields come in path order (pathsupport::EqualityMatches is a
// std::map), then the fields the update creates, also in name order.
func TestConfSeed002BucketUpsert(t *testing.T) {
	db, coll := confColl(t)
	for i := range 61 {
		okJ(t, db, fmt.Sprintf(`{"update":"c","updates":[{"q":{"sensorId":1,"hour":{"$date":"2025-09-01T10:00:00Z"},"count":{"$lt":60}},"u":{"$push":{"readings":{"m":%d}},"$inc":{"count":1}},"upsert":true}]}`, i))
	}
	docs := findAll(t, coll, bson.D{}, nil)
	if len(docs) != 2 {
		t.Fatalf("want 2 buckets, got %d", len(docs))
	}
	sameJSON(t, "first bucket count", field(docs[0], "count"), `60`)
	sameJSON(t, "second bucket", docs[1][1:], `{"hour":{"$date":"2025-09-01T10:00:00Z"},"sensorId":1,"count":1,"readings":[{"m":60}]}`)
}

func TestConfUpdateCounting(t *testing.T) {
	db, _ := confColl(t, `{"_id":1,"a":1}`, `{"_id":2,"a":2}`, `{"_id":3,"a":2}`)
	out := okJ(t, db, `{"update":"c","updates":[{"q":{},"u":{"$set":{"a":2}},"multi":true}]}`)
	sameJSON(t, "multi", out, `{"n":3,"nModified":1,"ok":1.0}`)
	out = okJ(t, db, `{"update":"c","updates":[{"q":{"a":2},"u":{"$set":{"b":1}}}]}`)
	sameJSON(t, "single", out, `{"n":1,"nModified":1,"ok":1.0}`)
	out = okJ(t, db, `{"update":"c","updates":[{"q":{"a":9},"u":{"$set":{"b":1}}}]}`)
	sameJSON(t, "no match", out, `{"n":0,"nModified":0,"ok":1.0}`)
	out = okJ(t, db, `{"update":"c","updates":[{"q":{"_id":1},"u":{"$set":{"b":1}}},{"q":{"_id":9},"u":{"$set":{"b":1}},"upsert":true},{"q":{"_id":2},"u":{"_id":2,"a":2}}]}`)
	sameJSON(t, "batch", out, `{"n":3,"upserted":[{"index":1,"_id":9}],"nModified":0,"ok":1.0}`)
	out = okJ(t, db, `{"update":"c","updates":[{"q":{},"u":{"a":1},"multi":true}]}`)
	sameJSON(t, "multi replacement", out, `{"n":0,"nModified":0,"writeErrors":[{"index":0,"code":9,"errmsg":"multi update is not supported for replacement-style update"}],"ok":1.0}`)
	// Unordered batches report every failing statement and carry on;
	// ordered ones stop at the first.
	out = okJ(t, db, `{"update":"c","updates":[{"q":{"_id":1},"u":{"$set":{"x":1}}},{"q":{"_id":1},"u":{"$set":{"_id":5}}},{"q":{"_id":1},"u":{"$inc":{"x":"y"}}},{"q":{"_id":1},"u":{"$set":{"z":1}}}],"ordered":false}`)
	sameJSON(t, "unordered update", out, `{"n":2,"nModified":2,"writeErrors":[
		{"index":1,"code":66,"errmsg":"Performing an update on the path '_id' would modify the immutable field '_id'"},
		{"index":2,"code":14,"errmsg":"Cannot increment with non-numeric argument: {x: \"y\"}"}],"ok":1.0}`)
	out = okJ(t, db, `{"update":"c","updates":[{"q":{"_id":1},"u":{"$set":{"_id":5}}},{"q":{"_id":1},"u":{"$set":{"w":1}}}]}`)
	sameJSON(t, "ordered update", out, `{"n":0,"nModified":0,"writeErrors":[{"index":0,"code":66,"errmsg":"Performing an update on the path '_id' would modify the immutable field '_id'"}],"ok":1.0}`)
	out = okJ(t, db, `{"delete":"c","deletes":[{"q":{"$foo":1},"limit":0},{"q":{"_id":9},"limit":1}],"ordered":false}`)
	sameJSON(t, "unordered delete", out, `{"n":1,"writeErrors":[{"index":0,"code":2,"errmsg":"unknown top level operator: $foo. If you have a field name that starts with a '$' symbol, consider using $getField or $setField."}],"ok":1.0}`)
	wantErr(t, db, `{"delete":"c","deletes":[{"q":{},"limit":2}]}`, mongoerr.FailedToParse, "The limit field in delete objects must be 0 or 1. Got 2")
	out = okJ(t, db, `{"delete":"c","deletes":[{"q":{"a":2},"limit":1}]}`)
	sameJSON(t, "delete one", out, `{"n":1,"ok":1.0}`)
	out = okJ(t, db, `{"delete":"c","deletes":[{"q":{},"limit":0}]}`)
	sameJSON(t, "delete many", out, `{"n":2,"ok":1.0}`)
}

// The E11000 message, keyPattern and keyValue, and ordered versus
// unordered batches, as in the manual's insert command page.
func TestConfWriteErrorsOrdered(t *testing.T) {
	db, _ := confColl(t)
	out := okJ(t, db, `{"insert":"c","documents":[{"_id":1},{"_id":1},{"_id":2}]}`)
	dup := `{"index":1,"code":11000,"keyPattern":{"_id":1},"keyValue":{"_id":1},"errmsg":"E11000 duplicate key error collection: conf.c index: _id_ dup key: { _id: 1 }"}`
	sameJSON(t, "ordered", out, `{"n":1,"writeErrors":[`+dup+`],"ok":1.0}`)
	out = okJ(t, db, `{"insert":"c","documents":[{"_id":3},{"_id":1},{"_id":4}],"ordered":false}`)
	sameJSON(t, "unordered", out, `{"n":2,"writeErrors":[`+dup+`],"ok":1.0}`)

	// Existing documents all lack e and f: a unique index on them would hold
	// { e: null, f: null } twice, so mongod refuses to build it.
	wantErr(t, db, `{"createIndexes":"c","indexes":[{"key":{"e":1,"f":-1},"name":"ef","unique":true}]}`, mongoerr.DuplicateKey, "")
	okJ(t, db, `{"delete":"c","deletes":[{"q":{"_id":{"$ne":2}},"limit":0}]}`)
	okJ(t, db, `{"createIndexes":"c","indexes":[{"key":{"e":1,"f":-1},"name":"ef","unique":true}]}`)
	okJ(t, db, `{"insert":"c","documents":[{"_id":10,"e":"x","f":1},{"_id":12,"e":"y","f":1}]}`)
	out = okJ(t, db, `{"insert":"c","documents":[{"_id":11,"e":"x","f":1}]}`)
	sameJSON(t, "compound dup", out, `{"n":0,"writeErrors":[{"index":0,"code":11000,"keyPattern":{"e":1,"f":-1},"keyValue":{"e":"x","f":1},"errmsg":"E11000 duplicate key error collection: conf.c index: ef dup key: { e: \"x\", f: 1 }"}],"ok":1.0}`)
	out = okJ(t, db, `{"update":"c","updates":[{"q":{"_id":12},"u":{"$set":{"e":"x"}}}]}`)
	sameJSON(t, "update dup", out, `{"n":0,"nModified":0,"writeErrors":[{"index":0,"code":11000,"keyPattern":{"e":1,"f":-1},"keyValue":{"e":"x","f":1},"errmsg":"E11000 duplicate key error collection: conf.c index: ef dup key: { e: \"x\", f: 1 }"}],"ok":1.0}`)
}

// Document rules: field order kept, a generated _id first, _id types
// refused as mongod refuses them, size and depth limits.
func TestConfDocumentRules(t *testing.T) {
	db, coll := confColl(t)
	okJ(t, db, `{"insert":"c","documents":[{"z":1,"a":2,"_id":5,"m":{"y":1,"b":2}}]}`)
	var got bson.D
	_ = coll.FindOne(ctx, bson.D{}).Decode(&got)
	sameJSON(t, "_id moved first", got, `{"_id":5,"z":1,"a":2,"m":{"y":1,"b":2}}`)

	// A top-level Timestamp(0, 0) is filled in with the current time; a
	// nested one is stored as given. Since 5.0 '$'-prefixed and dotted
	// field names may be inserted.
	okJ(t, db, `{"insert":"c","documents":[{"_id":"ts","t":{"$timestamp":{"t":0,"i":0}},"n":{"t":{"$timestamp":{"t":0,"i":0}}},"$d":1,"e.f":2}]}`)
	_ = coll.FindOne(ctx, bson.D{{Key: "_id", Value: "ts"}}).Decode(&got)
	if ts, ok := field(got, "t").(bson.Timestamp); !ok || ts.T == 0 {
		t.Errorf("zero timestamp not filled: %v", got)
	}
	sameJSON(t, "nested zero timestamp and odd names", got[2:], `{"n":{"t":{"$timestamp":{"t":0,"i":0}}},"$d":1,"e.f":2}`)

	okJ(t, db, `{"insert":"c","documents":[{"k":1}]}`)
	_ = coll.FindOne(ctx, bson.D{{Key: "k", Value: 1}}).Decode(&got)
	if _, ok := got[0].Value.(bson.ObjectID); got[0].Key != "_id" || !ok {
		t.Errorf("generated _id: %v", got)
	}

	for _, c := range []struct {
		doc  string
		code int32
		msg  string
	}{
		// storage_validation::storageValidIdField in 8.0 (older servers said "can't use an array for _id").
		{`{"_id":[1]}`, mongoerr.InvalidIdField, "The '_id' value cannot be of type array"},
		{`{"_id":{"$regularExpression":{"pattern":"a","options":""}}}`, mongoerr.InvalidIdField, "The '_id' value cannot be of type regex"},
		{`{"_id":{"$undefined":true}}`, mongoerr.InvalidIdField, "The '_id' value cannot be of type undefined"},
		{`{"_id":{"a":{"$x":1}}}`, mongoerr.DollarPrefixedFieldName, "_id fields may not contain '$'-prefixed fields: $x is not valid for storage."},
	} {
		out := okJ(t, db, `{"insert":"c","documents":[`+c.doc+`]}`)
		sameJSON(t, "insert "+c.doc, out, fmt.Sprintf(`{"n":0,"writeErrors":[{"index":0,"code":%d,"errmsg":%q}],"ok":1.0}`, c.code, c.msg))
	}

	// Nesting: BSONDepth::getMaxDepthForUserStorage() is 180 levels, the
	// top-level document being the first. Inserts fail in validateDepth,
	// updates in storage_validation, each with its own message (code 15).
	nest := func(k int) string { return strings.Repeat(`{"a":`, k) + "1" + strings.Repeat("}", k) }
	sameJSON(t, "179 nested", okJ(t, db, `{"insert":"c","documents":[{"_id":"d179","a":`+nest(179)+`}]}`), `{"n":1,"ok":1.0}`)
	sameJSON(t, "180 nested", okJ(t, db, `{"insert":"c","documents":[{"_id":"d180","a":`+nest(180)+`}]}`),
		`{"n":0,"writeErrors":[{"index":0,"code":15,"errmsg":"cannot insert document because it exceeds 180 levels of nesting"}],"ok":1.0}`)
	sameJSON(t, "update to 179", okJ(t, db, `{"update":"c","updates":[{"q":{"_id":5},"u":{"$set":{"b":`+nest(179)+`}}}]}`), `{"n":1,"nModified":1,"ok":1.0}`)
	sameJSON(t, "update to 180", okJ(t, db, `{"update":"c","updates":[{"q":{"_id":5},"u":{"$set":{"b":`+nest(180)+`}}}]}`),
		`{"n":0,"nModified":0,"writeErrors":[{"index":0,"code":15,"errmsg":"Document exceeds maximum nesting depth of 180"}],"ok":1.0}`)
}

func bigString(n int) string { return strings.Repeat("x", n) }

// 16 MiB limits: insert refuses with code 2 "object to insert too large",
// an update whose result is too big fails with 8375908 when it selects
// its document by _id alone (mongod 8.0's express path) and with 17419
// otherwise, an upsert replacement with 17420, and a message over
// 16 MiB + 16 KiB with 10334.
func TestConfDocumentSizeLimits(t *testing.T) {
	db, coll := confColl(t)
	const max = 16 * 1024 * 1024
	big := bson.D{{Key: "_id", Value: 1}, {Key: "s", Value: bigString(max + 100)}}
	raw, _ := bson.Marshal(big)
	_, err := coll.InsertOne(ctx, big)
	want := fmt.Sprintf("object to insert too large. size in bytes: %d, max size: %d", len(raw), max)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("insert too large: %v\nwant %s", err, want)
	}
	// Just under the limit is fine.
	okDoc := bson.D{{Key: "_id", Value: 2}, {Key: "s", Value: bigString(max - 1000)}}
	if _, err := coll.InsertOne(ctx, okDoc); err != nil {
		t.Fatalf("insert just under 16 MiB: %v", err)
	}
	_, err = coll.UpdateOne(ctx, bson.D{{Key: "_id", Value: 2}}, bson.D{{Key: "$set", Value: bson.D{{Key: "t", Value: bigString(2000)}}}})
	if err == nil || !strings.Contains(err.Error(), "Resulting document after update is larger than 16777216") {
		t.Errorf("update too large: %v", err)
	}
	grow := `{"$set":{"t":"` + bigString(2000) + `"}}`
	for _, tc := range []struct{ what, cmd, code string }{
		{"update by _id", `{"update":"c","updates":[{"q":{"_id":2},"u":` + grow + `}]}`, `8375908`},
		{"update by {_id: {$eq}}", `{"update":"c","updates":[{"q":{"_id":{"$eq":2}},"u":` + grow + `}]}`, `8375908`},
		{"update by another field", `{"update":"c","updates":[{"q":{"_id":{"$gte":2}},"u":` + grow + `}]}`, `17419`},
		{"upsert by _id", `{"update":"c","updates":[{"q":{"_id":2},"u":` + grow + `,"upsert":true}]}`, `17419`},
	} {
		out, _ := runJ(t, db, tc.cmd)
		we := field(out, "writeErrors").(bson.A)[0].(bson.D)
		sameJSON(t, tc.what+": code", field(we, "code"), tc.code)
		sameJSON(t, tc.what+": message", field(we, "errmsg"), `"Resulting document after update is larger than 16777216"`)
	}
	for _, tc := range []struct{ what, fields, code string }{
		{"findAndModify by _id", ``, `8375908`},
		{"findAndModify by _id, projected", `,"fields":{"t":1}`, `17419`},
	} {
		_, ce := runJ(t, db, `{"findAndModify":"c","query":{"_id":2},"update":`+grow+tc.fields+`}`)
		if ce == nil || fmt.Sprint(ce.Code) != tc.code || !strings.HasSuffix(ce.Message, "Resulting document after update is larger than 16777216") {
			t.Errorf("%s: %v, want code %s", tc.what, ce, tc.code)
		}
	}

	res, err := coll.ReplaceOne(ctx, bson.D{{Key: "_id", Value: 3}}, bson.D{{Key: "s", Value: bigString(max - 10)}}, optsUpsert())
	if err == nil || !strings.Contains(err.Error(), "Document to upsert is larger than 16777216") {
		t.Errorf("upsert replacement too large: %v %v", res, err)
	}
}

func optsUpsert() *options.ReplaceOptionsBuilder { return options.Replace().SetUpsert(true) }

// A document beyond the 16 MiB + 16 KiB internal limit fails while mongod
// reads the message, with 10334 BSONObjectTooLarge naming its first element.
func TestConfMessageDocumentTooLarge(t *testing.T) {
	_, coll := confColl(t)
	doc := bson.D{{Key: "_id", Value: 2}, {Key: "isi", Value: bigString(17 * 1000 * 1000)}}
	size := len(confMarshal(t, doc))
	_, err := coll.InsertOne(ctx, doc)
	want := fmt.Sprintf("BSONObj size: %d (0x%X) is invalid. Size must be between 0 and 16793600(16MB) First element: _id: 2", size, size)
	var ce mongo.CommandError
	if !errorsAs(err, &ce) || ce.Code != mongoerr.BSONObjectTooLarge || ce.Message != want {
		t.Errorf("got %v\nwant 10334 %s", err, want)
	}
}

func confMarshal(t *testing.T, d bson.D) []byte {
	b, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
