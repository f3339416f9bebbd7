package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Sort order across BSON types is the manual's "Comparison/Sort Order";
// arrays sort by their smallest element ascending and largest descending.
func TestConfSortAcrossTypes(t *testing.T) {
	db, _ := confColl(t,
		`{"_id":1,"v":{"$maxKey":1}}`,
		`{"_id":2,"v":{"$date":"2020-01-01T00:00:00Z"}}`,
		`{"_id":3,"v":true}`,
		`{"_id":4,"v":{"$oid":"507f1f77bcf86cd799439011"}}`,
		`{"_id":5,"v":{"$binary":{"base64":"AA==","subType":"00"}}}`,
		`{"_id":6,"v":{"x":1}}`,
		`{"_id":7,"v":"str"}`,
		`{"_id":8,"v":2.5}`,
		`{"_id":9,"v":null}`,
		`{"_id":10,"v":{"$minKey":1}}`,
		`{"_id":11}`,
		`{"_id":12,"v":{"$numberLong":"2"}}`,
		`{"_id":13,"v":{"$regularExpression":{"pattern":"a","options":""}}}`,
		`{"_id":14,"v":{"$timestamp":{"t":1,"i":1}}}`,
		`{"_id":15,"v":false}`,
	)
	got := idsOf(firstBatch(t, db, `{"find":"c","sort":{"v":1,"_id":1}}`))
	// null and missing sort together (then by _id); false < true.
	want := `{"v":[10,9,11,12,8,7,6,5,4,15,3,2,14,13,1]}`
	if got != want {
		t.Errorf("ascending\n got: %s\nwant: %s", got, want)
	}
	got = idsOf(firstBatch(t, db, `{"find":"c","sort":{"v":-1,"_id":1}}`))
	want = `{"v":[1,13,14,2,3,15,4,5,6,7,8,12,9,11,10]}`
	if got != want {
		t.Errorf("descending\n got: %s\nwant: %s", got, want)
	}

	db2, _ := confColl(t, `{"_id":1,"a":[1,9]}`, `{"_id":2,"a":[3,4]}`, `{"_id":3,"a":5}`, `{"_id":4,"a":[]}`, `{"_id":5,"a":[0,[10]]}`)
	// An empty array sorts before null ascending (as the smallest), and
	// [10] inside an array sorts as an array, after every number.
	got = idsOf(firstBatch(t, db2, `{"find":"c","sort":{"a":1}}`))
	if got != `{"v":[4,5,1,2,3]}` {
		t.Errorf("array ascending: %s", got)
	}
	got = idsOf(firstBatch(t, db2, `{"find":"c","sort":{"a":-1}}`))
	if got != `{"v":[5,1,3,2,4]}` {
		t.Errorf("array descending: %s", got)
	}
}

func TestConfCursorsAndBatches(t *testing.T) {
	db, coll := confColl(t)
	s := inSession(t, db)
	docs := make([]any, 250)
	for i := range docs {
		docs[i] = bson.D{{Key: "_id", Value: int32(i)}}
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	out := okJIn(s, t, db, `{"find":"c","sort":{"_id":1}}`)
	cur := field(out, "cursor").(bson.D)
	if len(cur) != 3 || cur[0].Key != "firstBatch" || cur[1].Key != "id" || cur[2].Key != "ns" {
		t.Fatalf("cursor shape %v", relaxed(cur))
	}
	if n := len(field(cur, "firstBatch").(bson.A)); n != 101 {
		t.Errorf("default first batch %d, want 101", n)
	}
	id := field(cur, "id").(int64)
	if id == 0 || field(cur, "ns") != "conf.c" {
		t.Fatalf("cursor %v", relaxed(cur))
	}
	out = okJIn(s, t, db, fmt.Sprintf(`{"getMore":{"$numberLong":"%d"},"collection":"c","batchSize":50}`, id))
	cur = field(out, "cursor").(bson.D)
	if cur[0].Key != "nextBatch" || cur[1].Key != "id" || len(field(cur, "nextBatch").(bson.A)) != 50 || field(cur, "id").(int64) != id {
		t.Fatalf("getMore %v", relaxed(cur))
	}
	sameJSON(t, "first of second batch", field(cur, "nextBatch").(bson.A)[0], `{"_id":101}`)
	out = okJIn(s, t, db, fmt.Sprintf(`{"getMore":{"$numberLong":"%d"},"collection":"c"}`, id))
	cur = field(out, "cursor").(bson.D)
	if len(field(cur, "nextBatch").(bson.A)) != 99 || field(cur, "id").(int64) != 0 {
		t.Errorf("last getMore: %d docs, id %v", len(field(cur, "nextBatch").(bson.A)), field(cur, "id"))
	}
	// The exhausted cursor is gone.
	wantErrIn(s, t, db, fmt.Sprintf(`{"getMore":{"$numberLong":"%d"},"collection":"c"}`, id), mongoerr.CursorNotFound, fmt.Sprintf("cursor id %d not found", id))

	// skip, limit, batchSize, singleBatch.
	out = okJIn(s, t, db, `{"find":"c","sort":{"_id":-1},"skip":10,"limit":3}`)
	sameJSON(t, "skip+limit", field(out, "cursor").(bson.D)[:2], `{"firstBatch":[{"_id":239},{"_id":238},{"_id":237}],"id":{"$numberLong":"0"}}`)
	out = okJIn(s, t, db, `{"find":"c","batchSize":0}`)
	cur = field(out, "cursor").(bson.D)
	if len(field(cur, "firstBatch").(bson.A)) != 0 || field(cur, "id").(int64) == 0 {
		t.Errorf("batchSize 0: %v", relaxed(cur))
	}
	out = okJIn(s, t, db, `{"find":"c","batchSize":5,"singleBatch":true}`)
	cur = field(out, "cursor").(bson.D)
	if len(field(cur, "firstBatch").(bson.A)) != 5 || field(cur, "id").(int64) != 0 {
		t.Errorf("singleBatch: %v", relaxed(cur))
	}
	// The find command takes no negative limit (the shell turns one into singleBatch).
	wantErrIn(s, t, db, `{"find":"c","limit":-3}`, 51024, "BSON field 'limit' value must be >= 0, actual value '-3'")
	out = okJIn(s, t, db, `{"find":"c","limit":150}`)
	cur = field(out, "cursor").(bson.D)
	if len(field(cur, "firstBatch").(bson.A)) != 101 {
		t.Errorf("limit above 101 still returns a first batch of 101")
	}
	id = field(cur, "id").(int64)
	out = okJIn(s, t, db, fmt.Sprintf(`{"getMore":{"$numberLong":"%d"},"collection":"c"}`, id))
	cur = field(out, "cursor").(bson.D)
	if len(field(cur, "nextBatch").(bson.A)) != 49 || field(cur, "id").(int64) != 0 {
		t.Errorf("limit 150 getMore: %d", len(field(cur, "nextBatch").(bson.A)))
	}

	// killCursors reports killed and unknown ids.
	out = okJIn(s, t, db, `{"find":"c","batchSize":1}`)
	id = field(field(out, "cursor").(bson.D), "id").(int64)
	out = okJIn(s, t, db, fmt.Sprintf(`{"killCursors":"c","cursors":[{"$numberLong":"%d"},{"$numberLong":"12345"}]}`, id))
	sameJSON(t, "killCursors", out, fmt.Sprintf(`{"cursorsKilled":[{"$numberLong":"%d"}],"cursorsNotFound":[{"$numberLong":"12345"}],"cursorsAlive":[],"cursorsUnknown":[],"ok":1.0}`, id))

	// Errors.
	wantErrIn(s, t, db, `{"find":"c","skip":-1}`, 51024, "BSON field 'skip' value must be >= 0, actual value '-1'")
	wantErrIn(s, t, db, `{"find":"c","batchSize":-1}`, 51024, "BSON field 'batchSize' value must be >= 0, actual value '-1'")
	wantErrIn(s, t, db, `{"find":"c","sort":{"a":2}}`, 15975, "$sort key ordering must be 1 (for ascending) or -1 (for descending)")
	wantErrIn(s, t, db, `{"find":"c","filter":1}`, mongoerr.TypeMismatch, "BSON field 'FindCommandRequest.filter' is the wrong type 'int', expected type 'object'")
	wantErrIn(s, t, db, `{"getMore":{"$numberLong":"1"},"collection":"c"}`, mongoerr.CursorNotFound, "cursor id 1 not found")
	wantErrIn(s, t, db, `{"find":"c","bogus":1}`, mongoerr.IDLUnknownField, "BSON field 'FindCommandRequest.bogus' is an unknown field.")
	wantErrIn(s, t, db, `{"getMore":{"$numberLong":"1"}}`, mongoerr.IDLFailedToParse, "BSON field 'getMore.collection' is missing but a required field")
	wantErrIn(s, t, db, `{"getMore":1,"collection":"c"}`, mongoerr.TypeMismatch, "BSON field 'getMore.getMore' is the wrong type 'int', expected type 'long'")
	out = okJIn(s, t, db, `{"find":"c","batchSize":1}`)
	id = field(field(out, "cursor").(bson.D), "id").(int64)
	wantErrIn(s, t, db, fmt.Sprintf(`{"getMore":{"$numberLong":"%d"},"collection":"x"}`, id), 13,
		"Requested getMore on namespace 'conf.x', but cursor belongs to a different namespace conf.c")

	// A collection's default collation would change every string
	// comparison on it: refused, as the collation option of a find is;
	// the simple collation is what the sandbox does anyway.
	_, ce := runJIn(s, t, db, `{"create":"cased","collation":{"locale":"en","strength":2}}`)
	if ce == nil || ce.Code != mongoerr.NotImplemented || !strings.Contains(ce.Message, "collation other than {locale: 'simple'}") {
		t.Errorf("create with a locale collation: %v", ce)
	}
	okJIn(s, t, db, `{"create":"plain","collation":{"locale":"simple"}}`)

	// An empty collation on a command is no collation: ExpressionContext
	// builds a collator only from a non-empty one, and the shell's
	// getPlanCacheKeyFromShape (jstests/libs/query/analyze_plan.js) sends
	// {} by default.
	for _, cmd := range []string{
		`{"find":"c","filter":{},"collation":{}}`,
		`{"aggregate":"c","pipeline":[],"cursor":{},"collation":{}}`,
		`{"count":"c","collation":{}}`,
		`{"distinct":"c","key":"a","collation":{}}`,
		`{"explain":{"find":"c","collation":{}}}`,
	} {
		okJIn(s, t, db, cmd)
	}
	if _, ce := runJIn(s, t, db, `{"create":"emptyColl","collation":{}}`); ce == nil {
		t.Error("create took an empty default collation")
	}
}
