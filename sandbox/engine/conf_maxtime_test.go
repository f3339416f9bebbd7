package engine_test

import (
	"fmt"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// slowFilter matches every document, slowly: each evaluation builds a
// 10,000-element array. Over slowColl's documents a scan takes seconds,
// far beyond the maxTimeMS of the tests below.
const slowFilter = `{"$expr": {"$gt": [{"$size": {"$range": [0, {"$add": [10000, "$a"]}]}}, -1]}}`

func slowColl(t *testing.T) *mongo.Database {
	t.Helper()
	db, coll := confColl(t)
	fillSlow(t, coll)
	return db
}

// fillSlow fills coll with what slowFilter takes long to scan.
func fillSlow(t *testing.T, coll *mongo.Collection) {
	t.Helper()
	docs := make([]any, 20000)
	for i := range docs {
		docs[i] = bson.D{{Key: "_id", Value: int32(i)}, {Key: "a", Value: int32(i % 7)}}
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
}

// Every command that reads or writes documents stops once its maxTimeMS
// has passed, with MaxTimeMSExpired and mongod's message (with the
// executor context mongod adds for find, aggregate, distinct and
// findAndModify), rather than running to the end.
func TestConfMaxTimeMSStopsEveryCommand(t *testing.T) {
	db := slowColl(t)
	for _, tc := range []struct{ cmd, msg string }{
		{`{"find": "c", "filter": ` + slowFilter + `, "batchSize": 20000, "maxTimeMS": 20}`,
			"Executor error during find command :: caused by :: operation exceeded time limit"},
		{`{"aggregate": "c", "pipeline": [{"$match": ` + slowFilter + `}], "cursor": {"batchSize": 20000}, "maxTimeMS": 20}`,
			"PlanExecutor error during aggregation :: caused by :: operation exceeded time limit"},
		{`{"aggregate": "c", "pipeline": [{"$group": {"_id": null, "n": {"$sum": {"$size": {"$range": [0, {"$add": [10000, "$a"]}]}}}}}], "cursor": {}, "maxTimeMS": 20}`,
			"PlanExecutor error during aggregation :: caused by :: operation exceeded time limit"},
		{`{"count": "c", "query": ` + slowFilter + `, "maxTimeMS": 20}`,
			"operation exceeded time limit"},
		{`{"distinct": "c", "key": "a", "query": ` + slowFilter + `, "maxTimeMS": 20}`,
			"Executor error during distinct command :: caused by :: operation exceeded time limit"},
		{`{"update": "c", "updates": [{"q": ` + slowFilter + `, "u": {"$inc": {"n": 1}}, "multi": true}], "maxTimeMS": 20}`,
			"Plan executor error during update :: caused by :: operation exceeded time limit"},
		{`{"delete": "c", "deletes": [{"q": {"$and": [` + slowFilter + `, {"a": 99}]}, "limit": 0}], "maxTimeMS": 20}`,
			"Plan executor error during delete :: caused by :: operation exceeded time limit"},
		{`{"findAndModify": "c", "query": {"$and": [` + slowFilter + `, {"a": 99}]}, "update": {"$set": {"x": 1}}, "maxTimeMS": 20}`,
			"Plan executor error during findAndModify :: caused by :: operation exceeded time limit"},
		{`{"findAndModify": "c", "query": {"$and": [` + slowFilter + `, {"a": 99}]}, "remove": true, "maxTimeMS": 20}`,
			"Plan executor error during findAndModify :: caused by :: operation exceeded time limit"},
	} {
		start := time.Now()
		wantErr(t, db, tc.cmd, mongoerr.MaxTimeMSExpired, tc.msg)
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s took %v", tc.cmd, d)
		}
	}
	// A generous limit is no limit.
	out := okJ(t, db, `{"count": "c", "query": {"a": 3}, "maxTimeMS": 60000}`)
	if field(out, "n") != int32(2857) {
		t.Errorf("count %v", field(out, "n"))
	}
}

// getMore of a cursor takes no maxTimeMS of its own: it inherits what the
// opening command's left unused (the time the cursor sat idle does not
// count), and a getMore that runs out of it fails and ends the cursor.
func TestConfGetMoreInheritsMaxTimeMS(t *testing.T) {
	db := slowColl(t)
	s := inSession(t, db)
	out := okJIn(s, t, db, `{"find": "c", "filter": `+slowFilter+`, "batchSize": 1, "maxTimeMS": 400}`)
	id := field(field(out, "cursor").(bson.D), "id").(int64)
	if id == 0 {
		t.Fatal("no cursor")
	}
	wantErrIn(s, t, db, fmt.Sprintf(`{"getMore": {"$numberLong": "%d"}, "collection": "c", "maxTimeMS": 1000}`, id),
		2, "cannot set maxTimeMS on getMore command for a non-awaitData cursor")
	time.Sleep(500 * time.Millisecond) // idle: not counted
	// The cursor survived the refused getMore, and has most of its 400 ms.
	next := okJIn(s, t, db, fmt.Sprintf(`{"getMore": {"$numberLong": "%d"}, "collection": "c", "batchSize": 1}`, id))
	if n := len(field(field(next, "cursor").(bson.D), "nextBatch").(bson.A)); n != 1 {
		t.Fatalf("nextBatch of %d", n)
	}
	start := time.Now()
	wantErrIn(s, t, db, fmt.Sprintf(`{"getMore": {"$numberLong": "%d"}, "collection": "c"}`, id),
		50, "Executor error during getMore :: caused by :: operation exceeded time limit")
	if d := time.Since(start); d < 200*time.Millisecond || d > 3*time.Second {
		t.Errorf("getMore ran %v on a budget of about 400 ms", d)
	}
	wantErrIn(s, t, db, fmt.Sprintf(`{"getMore": {"$numberLong": "%d"}, "collection": "c"}`, id), mongoerr.CursorNotFound, fmt.Sprintf("cursor id %d not found", id))
}

// maxTimeMS values mongod refuses, with its codes and messages: find and
// aggregate (and getMore) declare the field in their IDL, which types it
// and (find, aggregate) wants it >= 0; every command then applies the
// generic [0, 2^31-1] whole-number check.
func TestConfMaxTimeMSBadValues(t *testing.T) {
	db, _ := confColl(t, `{"_id": 1}`)
	for _, tc := range []struct {
		cmd  string
		code int32
		msg  string
	}{
		{`{"find": "c", "maxTimeMS": "1"}`, mongoerr.TypeMismatch, "BSON field 'FindCommandRequest.maxTimeMS' is the wrong type 'string', expected types '[long, int, decimal, double']"},
		{`{"find": "c", "maxTimeMS": -1}`, 51024, "BSON field 'maxTimeMS' value must be >= 0, actual value '-1'"},
		{`{"find": "c", "maxTimeMS": 2147483648}`, mongoerr.BadValue, "2147483648 value for maxTimeMS is out of range [0, 2147483647]"},
		{`{"find": "c", "maxTimeMS": 1.5}`, mongoerr.BadValue, "maxTimeMS has non-integral value"},
		{`{"find": "c", "maxTimeMS": null}`, mongoerr.BadValue, "maxTimeMS must be a number"},
		{`{"aggregate": "c", "pipeline": [], "cursor": {}, "maxTimeMS": [1]}`, mongoerr.TypeMismatch, "BSON field 'aggregate.maxTimeMS' is the wrong type 'array', expected types '[long, int, decimal, double']"},
		{`{"aggregate": "c", "pipeline": [], "cursor": {}, "maxTimeMS": {"$numberLong": "-5"}}`, 51024, "BSON field 'maxTimeMS' value must be >= 0, actual value '-5'"},
		{`{"aggregate": "c", "pipeline": [], "cursor": {}, "maxTimeMS": 1e300}`, mongoerr.BadValue, "9223372036854775807 value for maxTimeMS is out of range [0, 2147483647]"},
		{`{"count": "c", "maxTimeMS": "1"}`, mongoerr.BadValue, "maxTimeMS must be a number"},
		{`{"count": "c", "maxTimeMS": -1}`, mongoerr.BadValue, "-1 value for maxTimeMS is out of range [0, 2147483647]"},
		{`{"distinct": "c", "key": "a", "maxTimeMS": true}`, mongoerr.BadValue, "maxTimeMS must be a number"},
		{`{"insert": "c", "documents": [{}], "maxTimeMS": {"x": 1}}`, mongoerr.BadValue, "maxTimeMS must be a number"},
		{`{"update": "c", "updates": [{"q": {}, "u": {"$set": {"a": 1}}}], "maxTimeMS": -3}`, mongoerr.BadValue, "-3 value for maxTimeMS is out of range [0, 2147483647]"},
		{`{"delete": "c", "deletes": [{"q": {}, "limit": 1}], "maxTimeMS": 0.25}`, mongoerr.BadValue, "maxTimeMS has non-integral value"},
		{`{"findAndModify": "c", "remove": true, "maxTimeMS": "x"}`, mongoerr.BadValue, "maxTimeMS must be a number"},
		{`{"getMore": {"$numberLong": "112233"}, "collection": "c", "maxTimeMS": "x"}`, mongoerr.TypeMismatch, "BSON field 'getMore.maxTimeMS' is the wrong type 'string', expected types '[long, int, decimal, double']"},
		{`{"getMore": {"$numberLong": "112233"}, "collection": "c", "maxTimeMS": -1}`, mongoerr.BadValue, "-1 value for maxTimeMS is out of range [0, 2147483647]"},
		{`{"getMore": {"$numberLong": "112233"}, "collection": "c", "maxTimeMS": 10}`, mongoerr.CursorNotFound, "cursor id 112233 not found"},
	} {
		wantErr(t, db, tc.cmd, tc.code, tc.msg)
	}
	// 0 means no limit, in any numeric type.
	for _, v := range []string{`0`, `{"$numberLong": "0"}`, `0.0`, `{"$numberDecimal": "5000"}`} {
		okJ(t, db, `{"find": "c", "maxTimeMS": `+v+`}`)
	}
}

// A pipeline's expressions check the context of the command running them
// now: a getMore of a cursor opened with maxTimeMS runs its $map over a
// $range under the getMore's own deadline, not under the opening
// command's, which ended (and was cancelled) when that command returned.
func TestConfGetMoreOfExpressionLoopsAfterMaxTimeMS(t *testing.T) {
	db := slowColl(t)
	s := inSession(t, db)
	out := okJIn(s, t, db, `{"aggregate": "c", "pipeline": [{"$project": {"n": {"$size": {"$map": {"input": {"$range": [0, 5000]}, "in": "$$this"}}}}}],
		"cursor": {"batchSize": 1}, "maxTimeMS": 600000}`)
	id := field(field(out, "cursor").(bson.D), "id").(int64)
	if id == 0 {
		t.Fatal("no cursor")
	}
	next := okJIn(s, t, db, fmt.Sprintf(`{"getMore": {"$numberLong": "%d"}, "collection": "c", "batchSize": 3}`, id))
	batch := field(field(next, "cursor").(bson.D), "nextBatch").(bson.A)
	if len(batch) != 3 || field(batch[0].(bson.D), "n") != int32(5000) {
		t.Fatalf("nextBatch %v", relaxed(batch))
	}
}

// A find projection's expressions run under the command's deadline too:
// one document whose projection loops for seconds stops at maxTimeMS.
func TestConfMaxTimeMSStopsFindProjection(t *testing.T) {
	db, _ := confColl(t, `{"_id": 1}`)
	start := time.Now()
	wantErr(t, db, `{"find": "c", "projection": {"n": {"$reduce": {"input": {"$range": [0, 5000000]}, "initialValue": 0,
		"in": {"$add": ["$$value", "$$this"]}}}}, "maxTimeMS": 20}`,
		50, "Executor error during find command :: caused by :: operation exceeded time limit")
	if d := time.Since(start); d > time.Second {
		t.Errorf("the find took %v", d)
	}
}
