package compat_test

import (
	"fmt"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"
)

// The profiler's entries (src/mongo/db/introspect.cpp profile(),
// src/mongo/db/curop.cpp OpDebug::append and completeAndLogOperation,
// jstests/core/profile_*.js): one entry per profiled operation, per
// statement of an update or a delete, in OpDebug's field order, with the
// keys and documents the plan examined.
const profilerRef = "src/mongo/db/curop.cpp (OpDebug::append), src/mongo/db/introspect.cpp"

func TestProfilerEntries(t *testing.T) {
	const figures = `"projection":{"_id":0,"op":1,"ns":1,"command.filter":1,"keysExamined":1,"docsExamined":1,"nreturned":1,"cursorExhausted":1,"planSummary":1}`
	// A comment of 40 KB keeps each find under the 50 KB truncation.
	bigFind := fmt.Sprintf(`{"find":"c","filter":{"a":1},"comment":"%s"}`, strings.Repeat("x", 40*1024))
	manyFinds := []string{`{"profile":2}`}
	for range 40 {
		manyFinds = append(manyFinds, bigFind)
	}
	runCmdCases(t, []cmdCase{
		{name: "a find's entry", ref: profilerRef + "; jstests/core/profile_find.js",
			docs:     `[{"_id":1,"a":1},{"_id":2,"a":2},{"_id":3,"a":1}]`,
			setup:    []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`, `{"profile":2}`},
			cmd:      `{"find":"c","filter":{"a":1}}`,
			thenFind: `{"find":"system.profile","filter":{"op":"query"},` + figures + `}`,
			thenWant: `[{"op":"query","ns":"{{db}}.c","command":{"filter":{"a":1}},"keysExamined":2,"docsExamined":2,"cursorExhausted":true,"nreturned":2,"planSummary":"IXSCAN { a: 1 }"}]`},
		{name: "a getMore's entry counts its own batch", ref: profilerRef + "; jstests/core/profile_getmore.js",
			docs:     `[{"_id":1},{"_id":2},{"_id":3}]`,
			setup:    []string{`{"profile":2}`, `{"find":"c","batchSize":1}`},
			cmd:      `{"aggregate":"system.profile","pipeline":[{"$match":{"op":"query"}},{"$project":{"_id":0,"nreturned":1,"open":{"$gt":["$cursorid",0]}}}],"cursor":{}}`,
			want:     `{"cursor":{"firstBatch":[{"nreturned":1,"open":true}],"id":{"$numberLong":"0"},"ns":"*"}}`,
			thenFind: `{"find":"system.profile","filter":{"op":"getmore"}}`, thenWant: `[]`},
		{name: "an aggregate's entry with the cursor it leaves open", ref: profilerRef + "; jstests/core/profile_agg.js",
			docs:  `[{"_id":1},{"_id":2},{"_id":3}]`,
			setup: []string{`{"profile":2}`},
			cmd:   `{"aggregate":"c","pipeline":[],"cursor":{"batchSize":1}}`,
			thenFind: `{"aggregate":"system.profile","pipeline":[{"$match":{"op":"command"}},` +
				`{"$project":{"_id":0,"op":1,"command.aggregate":1,"nreturned":1,"planSummary":1,"open":{"$gt":["$cursorid",0]}}}],"cursor":{}}`,
			thenWant: `[{"op":"command","command":{"aggregate":"c"},"nreturned":1,"planSummary":"COLLSCAN","open":true}]`},
		{name: "an update's entry counts the index entries it changed", ref: profilerRef + " (keysInserted, keysDeleted); jstests/core/profile_update.js",
			docs:     `[{"_id":1,"a":1},{"_id":2,"a":2}]`,
			setup:    []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`, `{"profile":2}`},
			cmd:      `{"update":"c","updates":[{"q":{"a":{"$gte":1}},"u":{"$inc":{"a":10},"$set":{"b":1}},"multi":true}]}`,
			thenFind: `{"find":"system.profile","projection":{"_id":0,"keysExamined":1,"docsExamined":1,"nMatched":1,"nModified":1,"keysInserted":1,"keysDeleted":1,"planSummary":1}}`,
			thenWant: `[{"keysExamined":2,"docsExamined":2,"nMatched":2,"nModified":2,"keysInserted":2,"keysDeleted":2,"planSummary":"IXSCAN { a: 1 }"}]`},
		{name: "a failed statement's entry carries its error", ref: profilerRef + " (errInfo: ok, errMsg, errName, errCode)",
			docs:     `[{"_id":1}]`,
			setup:    []string{`{"profile":2}`},
			cmd:      `{"update":"c","updates":[{"q":{"_id":1},"u":{"$set":{"_id":2}}}]}`,
			thenFind: `{"find":"system.profile","projection":{"_id":0,"op":1,"nMatched":1,"ok":1,"errName":1,"errCode":1}}`,
			thenWant: `[{"op":"update","ok":0.0,"errName":"ImmutableField","errCode":66}]`},
		{name: "a findAndModify's entry", ref: profilerRef + "; jstests/core/profile_findandmodify.js",
			docs:     `[{"_id":1,"a":1}]`,
			setup:    []string{`{"profile":2}`},
			cmd:      `{"findAndModify":"c","query":{"_id":1},"update":{"$inc":{"a":1}}}`,
			thenFind: `{"find":"system.profile","projection":{"_id":0,"op":1,"keysExamined":1,"docsExamined":1,"nMatched":1,"nModified":1,"keysInserted":1}}`,
			thenWant: `[{"op":"command","keysExamined":1,"docsExamined":1,"nMatched":1,"nModified":1,"keysInserted":0}]`},
		{name: "an update records one entry per statement", ref: profilerRef + "; jstests/core/profile_update.js",
			docs:     `[{"_id":1,"a":1},{"_id":2,"a":2}]`,
			setup:    []string{`{"profile":2}`},
			cmd:      `{"update":"c","updates":[{"q":{"a":1},"u":{"$set":{"b":1}}},{"q":{"a":5},"u":{"$set":{"b":1}},"upsert":true}]}`,
			thenFind: `{"find":"system.profile","filter":{"op":"update"},"projection":{"_id":0,"op":1,"command":1,"keysExamined":1,"docsExamined":1,"nMatched":1,"nModified":1,"nUpserted":1,"planSummary":1}}`,
			thenWant: `[{"op":"update","command":{"q":{"a":1},"u":{"$set":{"b":1}},"multi":false,"upsert":false},"keysExamined":0,"docsExamined":1,"nMatched":1,"nModified":1,"planSummary":"COLLSCAN"},` +
				`{"op":"update","command":{"q":{"a":5},"u":{"$set":{"b":1}},"multi":false,"upsert":true},"keysExamined":0,"docsExamined":2,"nMatched":0,"nModified":0,"nUpserted":1,"planSummary":"COLLSCAN"}]`},
		{name: "a delete's entry", ref: profilerRef + "; jstests/core/profile_delete.js",
			docs:     `[{"_id":1,"a":1},{"_id":2,"a":1}]`,
			setup:    []string{`{"profile":2}`},
			cmd:      `{"delete":"c","deletes":[{"q":{"a":1},"limit":0}]}`,
			thenFind: `{"find":"system.profile","projection":{"_id":0,"op":1,"ns":1,"command":1,"ndeleted":1,"responseLength":1,"protocol":1}}`,
			thenWant: `[{"op":"remove","ns":"{{db}}.c","command":{"q":{"a":1},"limit":0},"ndeleted":2}]`},
		{name: "an insert's entry", ref: profilerRef + "; jstests/core/profile_insert.js",
			setup:    []string{`{"profile":2}`},
			cmd:      `{"insert":"c","documents":[{"_id":1},{"_id":2}],"ordered":false}`,
			thenFind: `{"find":"system.profile","projection":{"_id":0,"op":1,"ns":1,"command.ordered":1,"ninserted":1,"protocol":1}}`,
			thenWant: `[{"op":"insert","ns":"{{db}}.c","command":{"ordered":false},"ninserted":2,"protocol":"op_msg"}]`},
		{name: "a command on the database records the database as its ns", ref: profilerRef + " (CurOp::enter(dbName) in dbStats)",
			setup:    []string{`{"profile":2}`},
			cmd:      `{"dbStats":1}`,
			thenFind: `{"find":"system.profile","projection":{"_id":0,"op":1,"ns":1}}`,
			thenWant: `[{"op":"command","ns":"{{db}}"}]`},
		{name: "level 0 records nothing and creates no profile", ref: profilerRef,
			docs:     `[{"_id":1}]`,
			setup:    []string{`{"profile":0,"slowms":-1}`, `{"find":"c"}`},
			cmd:      `{"profile":0,"slowms":100}`,
			thenFind: `{"listCollections":1,"filter":{"name":"system.profile"}}`,
			thenWant: `{"cursor":{"id":{"$numberLong":"0"},"ns":"*","firstBatch":[]}}`},
		{name: "the server's own commands are not profiled", ref: profilerRef + " (only commands that enter a database)",
			setup:    []string{`{"profile":2}`, `{"ping":1}`, `{"buildInfo":1}`, `{"listCollections":1}`},
			cmd:      `{"profile":-1}`,
			thenFind: `{"find":"system.profile"}`, thenWant: `[]`},
		{name: "level 1 with sampleRate 0 records nothing", ref: profilerRef + "; jstests/core/profile_sampling.js",
			docs:     `[{"_id":1}]`,
			setup:    []string{`{"profile":1,"slowms":-1,"sampleRate":0.0}`, `{"find":"c"}`, `{"count":"c"}`},
			cmd:      `{"profile":0,"slowms":100,"sampleRate":1.0}`,
			thenFind: `{"find":"system.profile"}`, thenWant: `[]`},
		{name: "level 1 with slowms -1 records every operation", ref: profilerRef + " (completeAndLogOperation)",
			docs:     `[{"_id":1}]`,
			setup:    []string{`{"profile":1,"slowms":-1}`, `{"count":"c"}`},
			cmd:      `{"profile":0,"slowms":100}`,
			thenFind: `{"find":"system.profile","projection":{"_id":0,"op":1,"command.count":1}}`,
			thenWant: `[{"op":"command","command":{"count":"c"}}]`},
		{name: "a filter picks the entries at level 1", ref: "src/mongo/db/profile_filter_impl.cpp; " + profilerRef,
			docs:     `[{"_id":1}]`,
			setup:    []string{`{"profile":1,"filter":{"op":"query","nreturned":{"$gte":1}}}`, `{"find":"c"}`, `{"find":"c","filter":{"_id":9}}`, `{"count":"c"}`},
			cmd:      `{"profile":0,"filter":"unset"}`,
			thenFind: `{"find":"system.profile","projection":{"_id":0,"op":1,"nreturned":1}}`,
			thenWant: `[{"op":"query","nreturned":1}]`},
		{name: "a filter on durationMillis matches as on millis", ref: "src/mongo/db/curop.cpp (OpDebug::appendStaged)",
			docs:     `[{"_id":1}]`,
			setup:    []string{`{"profile":1,"filter":{"durationMillis":{"$gte":0},"op":"query"}}`, `{"find":"c"}`, `{"count":"c"}`},
			cmd:      `{"profile":0,"filter":"unset"}`,
			thenFind: `{"find":"system.profile","projection":{"_id":0,"op":1,"durationMillis":1}}`,
			thenWant: `[{"op":"query"}]`},
		{name: "a command over 50 KB is truncated, its comment kept", ref: "src/mongo/db/curop.cpp (appendAsObjOrString, appendMaxElementSize); jstests/core/profile2.js",
			setup: []string{`{"profile":2}`},
			cmd:   fmt.Sprintf(`{"find":"c","filter":{"a":"%s"},"comment":"big"}`, strings.Repeat("a", 60*1024)),
			thenFind: `{"aggregate":"system.profile","pipeline":[{"$project":{"_id":0,"text":{"$substrBytes":[{"$getField":{"field":{"$literal":"$truncated"},"input":"$command"}},0,103]},` +
				`"comment":"$command.comment"}}],"cursor":{}}`,
			thenWant: `[{"text":"{ find: \"c\", filter: { a: \"` + strings.Repeat("a", 70) + `...\" }","comment":"big"}]`},
		{name: "an entry larger than system.profile is not written", ref: "src/mongo/db/introspect.cpp (profile() logs a failed insert); capped collections refuse a document over their size",
			docs: `[{"_id":1,"a":1}]`,
			setup: []string{`{"createIndexes":"c","indexes":[{"key":{"a":1},"name":"a_1"}]}`, `{"profile":0}`,
				`{"create":"system.profile","capped":true,"size":4096}`, `{"profile":2}`},
			cmd:      `{"count":"c","query":{"a":{"$in":[` + strings.TrimSuffix(strings.Repeat("1,3,5,7,9,", 100), ",") + `]}}}`,
			thenFind: `{"find":"system.profile"}`, thenWant: `[]`},
		{name: "system.profile stays within its 1 MB", ref: "src/mongo/db/profile_collection.cpp (1 MB capped)",
			docs:  `[{"_id":1,"a":1}]`,
			setup: manyFinds,
			cmd:   `{"profile":0}`,
			thenFind: `{"aggregate":"system.profile","pipeline":[{"$group":{"_id":null,"n":{"$sum":1},"bytes":{"$sum":{"$bsonSize":"$$ROOT"}}}},` +
				`{"$project":{"_id":0,"within":{"$lte":["$bytes",1048576]},"evicted":{"$lt":["$n",40]}}}],"cursor":{}}`,
			thenWant: `[{"within":true,"evicted":true}]`},
	})
}

// TestProfilerRecordsTheMessageBody: a driver sends insertMany's
// documents as an OP_MSG document sequence, which mongod's CurOp leaves
// out of the command it records (setGenericOpRequestDetails is given
// request.body); documents inside the body are part of it.
func TestProfilerRecordsTheMessageBody(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "an insert's entry has the documents of its body only",
		profilerRef+"; src/mongo/db/service_entry_point_common.cpp (setGenericOpRequestDetails)",
		cover{family: commandFam, op: "profile", col: semantics}, func(t *testing.T, db *mongo.Database) {
			mustCommand(t, db, `{"profile":2}`)
			defer mustCommand(t, db, `{"profile":0}`)
			insertDocs(t, db.Collection("c"), `[{"_id":1},{"_id":2}]`)
			mustCommand(t, db, `{"insert":"c","documents":[{"_id":3}]}`)
			got, ce := cursorDocs(t, db, ejDoc(t, `{"find":"system.profile","filter":{"op":"insert"},"projection":{"_id":0,"ninserted":1,"documents":"$command.documents"}}`))
			if ce != nil {
				t.Fatal(ce)
			}
			want := ejArray(t, `[{"ninserted":2},{"ninserted":1,"documents":[{"_id":3}]}]`)
			if relaxed(got) != relaxed(want) {
				t.Errorf("profile entries %s, want %s", relaxed(got), relaxed(want))
			}
		})
}
