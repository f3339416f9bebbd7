package engine_test

import (
	"fmt"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// The operator, positional and error tables live in the compat suite
// (sandbox/engine/compat/update_test.go), which also runs them against a
// real MongoDB; what stays here checks values no fixed table can hold.

func TestConfUpdateMoreOperators(t *testing.T) {
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
