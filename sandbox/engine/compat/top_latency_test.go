package compat_test

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Top (src/mongo/db/stats/top.cpp) counts the reads and writes run on a
// namespace, by kind and by lock, and keeps their latency histograms
// (src/mongo/db/stats/operation_latency_histogram.cpp), which the top
// command and $collStats' latencyStats report. A view has its own entry:
// the operations run through it, failed writes included, count on it and
// not on the collection it reads (jstests/core/views/views_stats.js,
// jstests/libs/stats.js).
const topRef = "src/mongo/db/stats/top.cpp; src/mongo/db/stats/operation_latency_histogram.cpp; jstests/core/views/views_stats.js"

func TestTopAndLatencyStats(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "top and latencyStats count a view's operations on the view", topRef, cover{family: commandFam, op: "top", col: semantics},
		func(t *testing.T, db *mongo.Database) {
			mustCommand(t, db, `{"create": "view", "viewOn": "coll"}`)
			latency := func(coll string) bson.D {
				docs, err := cursorDocs(t, db, ejDoc(t, `{"aggregate": "`+coll+`", "pipeline": [{"$collStats": {"latencyStats": {"histograms": true}}}], "cursor": {}}`))
				if err != nil || len(docs) != 1 {
					t.Fatalf("$collStats on %s: %v %v", coll, docs, err)
				}
				return field(docs[0], "latencyStats").(bson.D)
			}
			ops := func(stats bson.D, kind string) int64 {
				return field(field(stats, kind).(bson.D), "ops").(int64)
			}
			top := func(ns string) bson.D {
				reply := mustCommand(t, db.Client().Database("admin"), `{"top": 1}`)
				entry, _ := field(field(reply, "totals").(bson.D), ns).(bson.D)
				return entry
			}
			count := func(entry bson.D, kind string) int32 {
				return field(field(entry, kind).(bson.D), "count").(int32)
			}
			before := latency("view")
			mustCommand(t, db, `{"aggregate": "view", "pipeline": [{"$match": {}}], "cursor": {}}`)
			for _, cmd := range []string{`{"insert": "view", "documents": [{}]}`, `{"delete": "view", "deletes": [{"q": {}, "limit": 0}]}`, `{"update": "view", "updates": [{"q": {}, "u": {}}]}`} {
				reply, err := command(t, db, ejDoc(t, cmd))
				if _, failed := field(reply, "writeErrors").(bson.A); err == nil && !failed {
					t.Fatalf("%s on a view succeeded: %v", cmd, reply)
				}
			}
			after := latency("view")
			// The first $collStats counts as a read too, once it is done.
			if got := ops(after, "reads") - ops(before, "reads"); got != 2 {
				t.Errorf("view reads grew by %d, want 2", got)
			}
			if got := ops(after, "writes") - ops(before, "writes"); got != 3 {
				t.Errorf("view writes grew by %d, want 3", got)
			}
			if got := ops(after, "commands") - ops(before, "commands"); got != 0 {
				t.Errorf("view commands grew by %d, want 0", got)
			}
			if hist, ok := field(field(after, "writes").(bson.D), "histogram").(bson.A); !ok || len(hist) == 0 {
				t.Errorf("writes histogram: %v", field(after, "writes"))
			}
			// Each $collStats is an aggregate on the view too.
			entry := top(db.Name() + ".view")
			for kind, want := range map[string]int32{"insert": 1, "remove": 1, "update": 1, "commands": 3, "queries": 0, "writeLock": 3, "readLock": 3} {
				if got := count(entry, kind); got != want {
					t.Errorf("top %s.count = %d, want %d (%v)", kind, got, want, entry)
				}
			}
			mustCommand(t, db, `{"insert": "coll", "documents": [{"_id": 1}]}`)
			mustCommand(t, db, `{"find": "coll"}`)
			if got := count(top(db.Name()+".view"), "insert"); got != 1 {
				t.Errorf("an insert into the collection counted on the view: insert.count %d", got)
			}
			coll := top(db.Name() + ".coll")
			if count(coll, "insert") != 1 || count(coll, "queries") != 1 {
				t.Errorf("collection's top entry: %v", coll)
			}
			// DatabaseImpl::renameCollection calls Top::collectionDropped
			// for the old name.
			mustCommand(t, db.Client().Database("admin"), `{"renameCollection": "`+db.Name()+`.coll", "to": "`+db.Name()+`.moved"}`)
			if entry := top(db.Name() + ".coll"); entry != nil {
				t.Errorf("a renamed collection's old name keeps its top entry: %v", entry)
			}
			mustCommand(t, db, `{"insert": "coll", "documents": [{"_id": 1}]}`)
			mustCommand(t, db, `{"drop": "coll"}`)
			if entry := top(db.Name() + ".coll"); entry != nil {
				t.Errorf("a dropped collection keeps its top entry: %v", entry)
			}
		})
	s.runCase(t, "a $lookup's read of the foreign collection for each document counts in top", topRef+"; jstests/aggregation/sources/lookup/profile_lookup.js (classic engine)", cover{family: commandFam, op: "top", col: semantics},
		func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("local"), `[{"a": 1}, {"b": 1}, {"a": 2}]`)
			insertDocs(t, db.Collection("foreign"), `[{"a": 1}]`)
			commands := func(coll string) int32 {
				reply := mustCommand(t, db.Client().Database("admin"), `{"top": 1}`)
				entry, _ := field(field(reply, "totals").(bson.D), db.Name()+"."+coll).(bson.D)
				n, _ := field(field(entry, "commands").(bson.D), "count").(int32)
				return n
			}
			local, foreign := commands("local"), commands("foreign")
			mustCommand(t, db, `{"aggregate": "local", "pipeline": [{"$lookup": {"from": "foreign", "as": "res", "localField": "a", "foreignField": "a"}}], "cursor": {}}`)
			if got := commands("local") - local; got != 1 {
				t.Errorf("local commands grew by %d, want 1", got)
			}
			if got := commands("foreign") - foreign; got != 3 {
				t.Errorf("foreign commands grew by %d, want 3 (one per local document)", got)
			}
		})
	s.runCase(t, "listIndexes counts as a read command, createIndexes and dropIndexes as write commands", topRef+"; src/mongo/db/commands/list_indexes.cpp, create_indexes.cpp, drop_indexes.cpp (AutoStatsTracker); jstests/core/query/top/top.js", cover{family: commandFam, op: "top", col: semantics},
		func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("ix"), `[{"a": 1}]`)
			counts := func() (commands, readLock, writeLock int32) {
				reply := mustCommand(t, db.Client().Database("admin"), `{"top": 1}`)
				entry, _ := field(field(reply, "totals").(bson.D), db.Name()+".ix").(bson.D)
				n := func(kind string) int32 { c, _ := field(field(entry, kind).(bson.D), "count").(int32); return c }
				return n("commands"), n("readLock"), n("writeLock")
			}
			step := func(cmd string, wantRead, wantWrite int32) {
				c0, r0, w0 := counts()
				mustCommand(t, db, cmd)
				c1, r1, w1 := counts()
				if c1-c0 != 1 || r1-r0 != wantRead || w1-w0 != wantWrite {
					t.Errorf("%s: commands +%d, readLock +%d, writeLock +%d; want +1, +%d, +%d", cmd, c1-c0, r1-r0, w1-w0, wantRead, wantWrite)
				}
			}
			step(`{"listIndexes": "ix"}`, 1, 0)
			step(`{"createIndexes": "ix", "indexes": [{"key": {"a": 1}, "name": "a_1"}]}`, 0, 1)
			step(`{"dropIndexes": "ix", "index": "a_1"}`, 0, 1)
		})
	runCmdCases(t, []cmdCase{
		{name: "top runs on admin only", ref: topRef + "; src/mongo/db/commands/top_command.cpp (adminOnly)", cov: cover{family: commandFam, op: "top", col: errorCol},
			cmd: `{"top": 1}`, code: mongoerr.Unauthorized, msg: "top may only be run against the admin database."},
	})
}

// A collection name holding a null byte names no namespace: mongod
// refuses the command before Top sees it, so top never lists a key BSON
// cannot hold (FuzzDispatch found one the sandbox recorded).
func TestTopSkipsNamesWithNullBytes(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "a refused name with a null byte is not in top", "src/mongo/db/namespace_string.cpp; "+topRef, cover{family: commandFam, op: "top", col: errorCol},
		func(t *testing.T, db *mongo.Database) {
			if _, err := command(t, db, bson.D{{Key: "find", Value: "a\x00b"}}); err == nil {
				t.Fatal("find on a name with a null byte worked")
			}
			reply := mustCommand(t, db.Client().Database("admin"), `{"top": 1}`)
			for _, e := range field(reply, "totals").(bson.D) {
				if strings.IndexByte(e.Key, 0) >= 0 {
					t.Errorf("top lists %q", e.Key)
				}
			}
		})
}
