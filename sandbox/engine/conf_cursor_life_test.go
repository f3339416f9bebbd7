package engine_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func insertN(t testing.TB, coll *mongo.Collection, n int) {
	t.Helper()
	docs := make([]any, n)
	for i := range docs {
		docs[i] = bson.D{{Key: "_id", Value: int32(i)}, {Key: "a", Value: int32(i % 7)}}
	}
	if _, err := coll.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
}

// openCursor runs a find with batchSize 1 in the context c and returns
// its cursor id.
func openCursor(c context.Context, t testing.TB, db *mongo.Database) int64 {
	t.Helper()
	out := okJIn(c, t, db, `{"find": "c", "batchSize": 1}`)
	id := field(field(out, "cursor").(bson.D), "id").(int64)
	if id == 0 {
		t.Fatal("find left no cursor")
	}
	return id
}

func getMoreCmd(id int64, extra string) string {
	return fmt.Sprintf(`{"getMore": {"$numberLong": "%d"}, "collection": "c"%s}`, id, extra)
}

// The server keeps a bounded number of cursors: past the cap, a command
// that needs a cursor fails with ResourceExhausted (mongod has no such cap;
// see engine.DefaultMaxOpenCursors), and closing one makes room. Commands
// that return everything in their first batch need no cursor and are
// never refused.
func TestConfCursorCap(t *testing.T) {
	client, _ := startServerWith(t, engine.Options{MaxOpenCursors: 3})
	db := client.Database("conf")
	s := inSession(t, db)
	insertN(t, db.Collection("c"), 10)
	ids := []int64{openCursor(s, t, db), openCursor(s, t, db), openCursor(s, t, db)}
	_, ce := runJIn(s, t, db, `{"find": "c", "batchSize": 1}`)
	if ce == nil || ce.Code != mongoerr.ResourceExhausted || ce.Name != "ResourceExhausted" ||
		!strings.HasPrefix(ce.Message, "Cannot open a new cursor: the embedded server already has 3 open cursors") {
		t.Fatalf("fourth cursor: %v", ce)
	}
	okJIn(s, t, db, `{"find": "c"}`) // fits in one batch
	okJIn(s, t, db, fmt.Sprintf(`{"killCursors": "c", "cursors": [{"$numberLong": "%d"}]}`, ids[0]))
	wantErrIn(s, t, db, getMoreCmd(ids[0], ""), mongoerr.CursorNotFound, fmt.Sprintf("cursor id %d not found", ids[0]))
	openCursor(s, t, db)
	// Exhausting a cursor also frees its place.
	okJIn(s, t, db, getMoreCmd(ids[1], ""))
	openCursor(s, t, db)
}

// A cursor nobody reads expires after the idle timeout (mongod's
// cursorTimeoutMillis, 10 minutes by default); reading it resets the
// clock.
func TestConfCursorIdleExpiry(t *testing.T) {
	client, _ := startServerWith(t, engine.Options{CursorIdleTimeout: 300 * time.Millisecond})
	db := client.Database("conf")
	s := inSession(t, db)
	insertN(t, db.Collection("c"), 10)
	id := openCursor(s, t, db)
	for range 3 {
		time.Sleep(150 * time.Millisecond)
		okJIn(s, t, db, getMoreCmd(id, `, "batchSize": 1`))
	}
	time.Sleep(500 * time.Millisecond)
	wantErrIn(s, t, db, getMoreCmd(id, ""), mongoerr.CursorNotFound, fmt.Sprintf("cursor id %d not found", id))
}

// When a client goes away, its cursors go with it, as mongod kills a
// session's cursors when the session ends; another client's cursors are
// untouched.
func TestConfCursorsDieWithTheirConnection(t *testing.T) {
	client, uri := startServerWith(t, engine.Options{})
	db := client.Database("conf")
	insertN(t, db.Collection("c"), 10)

	leaving := connect(t, uri)
	gone := openCursor(ctx, t, leaving.Database("conf"))
	staying := connect(t, uri)
	stay := inSession(t, staying.Database("conf"))
	kept := openCursor(stay, t, staying.Database("conf"))
	// A cursor belongs to the logical session it was opened in: a
	// getMore from another session is refused, as mongod refuses it.
	_, ce := runJ(t, db, getMoreCmd(kept, `, "batchSize": 1`))
	if ce == nil || ce.Code != 50738 || !strings.HasPrefix(ce.Message, fmt.Sprintf("Cannot run getMore on cursor %d, which was created in session ", kept)) {
		t.Fatalf("getMore from another session: %v", ce)
	}

	if err := leaving.Disconnect(ctx); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		// Refused as another session's while it lives, then not found.
		_, ce := runJ(t, db, getMoreCmd(gone, `, "batchSize": 1`))
		if ce != nil && ce.Code != 50738 {
			if ce.Code != mongoerr.CursorNotFound || ce.Message != fmt.Sprintf("cursor id %d not found", gone) {
				t.Fatalf("getMore after disconnect: %v", ce)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the closed connection's cursor still answers")
		}
		time.Sleep(20 * time.Millisecond)
	}
	okJIn(stay, t, staying.Database("conf"), getMoreCmd(kept, ""))
}

// A cursor serves one getMore at a time (CursorInUse for a second one),
// and killCursors stops a getMore that is running, which fails with
// CursorKilled; killed or exhausted, the cursor is gone.
func TestConfCursorInUseAndKilledWhileRunning(t *testing.T) {
	client, uri := startServerWith(t, engine.Options{})
	db := client.Database("conf")
	fillSlow(t, db.Collection("c"))
	// Every getMore runs in the cursor's own session, as a driver's do.
	sctx := inSession(t, db)
	out := okJIn(sctx, t, db, `{"find": "c", "filter": `+slowFilter+`, "batchSize": 1}`)
	id := field(field(out, "cursor").(bson.D), "id").(int64)

	var wg sync.WaitGroup
	var running *mongo.CommandError
	var took time.Duration
	wg.Add(1)
	go func() {
		defer wg.Done()
		start := time.Now()
		_, running = runJIn(sctx, t, db, getMoreCmd(id, ""))
		took = time.Since(start)
	}()
	time.Sleep(200 * time.Millisecond)
	// A second getMore of the same session meanwhile, over a connection
	// of its own (a driver's session is for one goroutine at a time).
	lsid, _ := mongo.SessionFromContext(sctx).ID().LookupErr("id")
	_, data := lsid.Binary()
	second := rawCommand(t, uri, bson.D{{Key: "getMore", Value: id}, {Key: "collection", Value: "c"},
		{Key: "lsid", Value: bson.D{{Key: "id", Value: bson.Binary{Subtype: bson.TypeBinaryUUID, Data: data}}}}, {Key: "$db", Value: "conf"}})
	if field(second, "code") != int32(mongoerr.CursorInUse) || field(second, "errmsg") != fmt.Sprintf("cursor id %d is already in use", id) {
		t.Errorf("a second getMore: %v", second)
	}
	killed := okJ(t, db, fmt.Sprintf(`{"killCursors": "c", "cursors": [{"$numberLong": "%d"}]}`, id))
	sameJSON(t, "killCursors", field(killed, "cursorsKilled"), fmt.Sprintf(`[{"$numberLong": "%d"}]`, id))
	wg.Wait()
	if running == nil || running.Code != mongoerr.CursorKilled || running.Message != "Executor error during getMore :: caused by :: operation was interrupted" {
		t.Errorf("the running getMore: %v", running)
	}
	if took > 3*time.Second {
		t.Errorf("killing took %v to stop the getMore", took)
	}
	wantErrIn(sctx, t, db, getMoreCmd(id, ""), mongoerr.CursorNotFound, fmt.Sprintf("cursor id %d not found", id))
}

// rawCommand sends cmd as an OP_MSG over a connection of its own to the
// server at uri and returns the reply.
func rawCommand(t *testing.T, uri string, cmd bson.D) bson.D {
	t.Helper()
	nc, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(uri, "mongodb://"), "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	body, err := bson.Marshal(cmd)
	if err != nil {
		t.Fatal(err)
	}
	msg := binary.LittleEndian.AppendUint32(nil, uint32(16+4+1+len(body)))
	msg = binary.LittleEndian.AppendUint32(msg, 1)    // requestID
	msg = binary.LittleEndian.AppendUint32(msg, 0)    // responseTo
	msg = binary.LittleEndian.AppendUint32(msg, 2013) // OP_MSG
	msg = binary.LittleEndian.AppendUint32(msg, 0)    // flags
	msg = append(append(msg, 0), body...)
	if _, err := nc.Write(msg); err != nil {
		t.Fatal(err)
	}
	nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	var header [16]byte
	if _, err := io.ReadFull(nc, header[:]); err != nil {
		t.Fatal(err)
	}
	rest := make([]byte, binary.LittleEndian.Uint32(header[:])-16)
	if _, err := io.ReadFull(nc, rest); err != nil {
		t.Fatal(err)
	}
	var reply bson.D
	if err := bson.Unmarshal(rest[5:], &reply); err != nil {
		t.Fatal(err)
	}
	return reply
}

// A batch holds at most 16 MiB of documents (but always one), and a
// document bigger than any BSON object mongod builds fails the command
// with BSONObjectTooLarge rather than reaching the client.
func TestConfBatchBytesAndOversizedResults(t *testing.T) {
	db, coll := confColl(t)
	s := inSession(t, db)
	big := strings.Repeat("x", 7<<20)
	for i := range 3 {
		if _, err := coll.InsertOne(ctx, bson.D{{Key: "_id", Value: int32(i)}, {Key: "s", Value: big}}); err != nil {
			t.Fatal(err)
		}
	}
	out := okJIn(s, t, db, `{"find": "c"}`)
	cur := field(out, "cursor").(bson.D)
	if n := len(field(cur, "firstBatch").(bson.A)); n != 2 {
		t.Fatalf("first batch of %d 7 MiB documents, want 2", n)
	}
	id := field(cur, "id").(int64)
	next := field(okJIn(s, t, db, getMoreCmd(id, "")), "cursor").(bson.D)
	if n := len(field(next, "nextBatch").(bson.A)); n != 1 || field(next, "id").(int64) != 0 {
		t.Fatalf("getMore: %d documents, id %v", n, field(next, "id"))
	}

	_, ce := runJIn(s, t, db, `{"aggregate": "c", "pipeline": [{"$match": {"_id": 1}}, {"$project": {"a": "$s", "b": "$s", "c": "$s"}}], "cursor": {}}`)
	want := "PlanExecutor error during aggregation :: caused by :: BSONObj size: 22020134 (0x1500026) is invalid. Size must be between 0 and 16793600(16MB) First element: _id: 1"
	if ce == nil || ce.Code != mongoerr.BSONObjectTooLarge || ce.Message != want {
		t.Errorf("oversized result: %v\nwant: 10334 %s", ce, want)
	}
}

// A cursor reads the snapshot its command took: documents that writes
// move through the index it scans come back exactly once, in their state
// at the first batch, however the collection changes between batches.
func TestConfCursorReadsItsSnapshot(t *testing.T) {
	db, coll := confColl(t)
	s := inSession(t, db)
	insertN(t, coll, 500)
	if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: "a", Value: 1}}}); err != nil {
		t.Fatal(err)
	}
	out := okJIn(s, t, db, `{"find": "c", "filter": {"a": {"$gte": 0}}, "sort": {"a": 1}, "batchSize": 10}`)
	cur := field(out, "cursor").(bson.D)
	seen := map[int32]int{}
	for _, d := range field(cur, "firstBatch").(bson.A) {
		seen[field(d.(bson.D), "_id").(int32)]++
	}
	id := field(cur, "id").(int64)
	for id != 0 {
		// Every document moves to the end of the index, and new ones
		// arrive: a scan of the live index would meet them again.
		if _, err := coll.UpdateMany(ctx, bson.D{}, bson.D{{Key: "$inc", Value: bson.D{{Key: "a", Value: 100}}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := coll.InsertOne(ctx, bson.D{{Key: "a", Value: 0}}); err != nil {
			t.Fatal(err)
		}
		next := field(okJIn(s, t, db, getMoreCmd(id, `, "batchSize": 50`)), "cursor").(bson.D)
		for _, d := range field(next, "nextBatch").(bson.A) {
			doc := d.(bson.D)
			if a := field(doc, "a").(int32); a >= 7 {
				t.Fatalf("document in a later state: %v", doc)
			}
			seen[field(doc, "_id").(int32)]++
		}
		id = field(next, "id").(int64)
	}
	if len(seen) != 500 {
		t.Errorf("%d distinct documents, want 500", len(seen))
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("document %d returned %d times", k, n)
		}
	}
}

// A find cursor whose plan reads an index fails its next getMore with
// QueryPlanKilled once that index is dropped, and the cursor is gone;
// a cursor scanning the collection, or reading another index, goes on
// (mongod: RequiresIndexStage::doRestoreStateRequiresCollection; jstest
// core/query/or/ord.js drops the indexes under an $or).
func TestConfDroppedIndexKillsItsCursors(t *testing.T) {
	db, coll := confColl(t)
	s := inSession(t, db)
	insertN(t, coll, 50)
	for _, k := range []string{"a", "b"} {
		if _, err := coll.Indexes().CreateOne(ctx, mongo.IndexModel{Keys: bson.D{{Key: k, Value: 1}}}); err != nil {
			t.Fatal(err)
		}
	}
	open := func(filter string) int64 {
		out := okJIn(s, t, db, `{"find": "c", "filter": `+filter+`, "batchSize": 2}`)
		return field(field(out, "cursor").(bson.D), "id").(int64)
	}
	onA := open(`{"a": {"$gte": 0}}`)
	onOr := open(`{"$or": [{"a": {"$gte": 0}}, {"b": 1}]}`)
	scan := open(`{}`)
	onB := open(`{"b": {"$exists": false}}`)
	if !slices.ContainsFunc([]int64{onA, onOr, scan, onB}, func(id int64) bool { return id != 0 }) {
		t.Fatal("a find left no cursor")
	}
	okJIn(s, t, db, `{"dropIndexes": "c", "index": "a_1"}`)
	for _, id := range []int64{onA, onOr} {
		_, ce := runJIn(s, t, db, getMoreCmd(id, ""))
		if ce == nil || ce.Code != mongoerr.QueryPlanKilled || ce.Message != "query plan killed :: index 'a_1' dropped" {
			t.Errorf("getMore after the drop: %+v", ce)
		}
		if _, ce := runJIn(s, t, db, getMoreCmd(id, "")); ce == nil || ce.Code != mongoerr.CursorNotFound {
			t.Errorf("second getMore: %+v", ce)
		}
	}
	for _, id := range []int64{scan, onB} {
		okJIn(s, t, db, getMoreCmd(id, ""))
	}
}

// A find cursor on a collection that is dropped, renamed or whose
// database is dropped fails its next getMore with QueryPlanKilled and
// mongod's message (RequiresCollectionStage::doRestoreState; jstest
// core/query/cursor/getmore_invalidated_cursors.js). A listIndexes
// cursor on it holds its indexes already (list_indexes.cpp queues them
// in a QueuedDataStage, which reads no collection when it restores), so
// it still returns them (jstest core/catalog/list_indexes_invalidation.js).
func TestConfGoneCollectionKillsItsCursors(t *testing.T) {
	db, coll := confColl(t)
	s := inSession(t, db)
	uuid := func() string {
		out := okJIn(s, t, db, `{"listCollections": 1, "filter": {"name": "c"}}`)
		info := field(field(field(out, "cursor").(bson.D), "firstBatch").(bson.A)[0].(bson.D), "info").(bson.D)
		b := field(info, "uuid").(bson.Binary)
		return fmt.Sprintf("%x-%x-%x-%x-%x", b.Data[:4], b.Data[4:6], b.Data[6:8], b.Data[8:10], b.Data[10:])
	}
	for _, tc := range []struct{ name, cmd, admin, msg string }{
		{name: "drop", cmd: `{"drop": "c"}`, msg: "collection dropped. UUID %s"},
		{name: "dropDatabase", cmd: `{"dropDatabase": 1}`, msg: "collection dropped. UUID %s"},
		{name: "rename", admin: `{"renameCollection": "` + db.Name() + `.c", "to": "` + db.Name() + `.d"}`,
			msg: "collection renamed from '" + db.Name() + ".c' to '" + db.Name() + ".d'. UUID %s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_ = db.Collection("d").Drop(ctx)
			insertN(t, coll, 20)
			id := openCursor(s, t, db)
			listed := field(field(okJIn(s, t, db, `{"listIndexes": "c", "cursor": {"batchSize": 0}}`), "cursor").(bson.D), "id").(int64)
			if listed == 0 {
				t.Fatal("listIndexes left no cursor")
			}
			want := fmt.Sprintf(tc.msg, uuid())
			if tc.admin != "" {
				okJIn(s, t, db.Client().Database("admin"), tc.admin)
			} else {
				okJIn(s, t, db, tc.cmd)
			}
			_, ce := runJIn(s, t, db, getMoreCmd(id, ""))
			if ce == nil || ce.Code != mongoerr.QueryPlanKilled || ce.Message != want {
				t.Errorf("getMore after %s: %+v, want %q", tc.name, ce, want)
			}
			if _, ce := runJIn(s, t, db, getMoreCmd(id, "")); ce == nil || ce.Code != mongoerr.CursorNotFound {
				t.Errorf("second getMore: %+v", ce)
			}
			out, ce := runJIn(s, t, db, getMoreCmd(listed, ""))
			if ce != nil {
				t.Fatalf("listIndexes cursor after %s: %+v", tc.name, ce)
			}
			cur := field(out, "cursor").(bson.D)
			if batch := field(cur, "nextBatch").(bson.A); len(batch) != 1 || field(batch[0].(bson.D), "name") != "_id_" || field(cur, "id") != int64(0) {
				t.Errorf("listIndexes cursor after %s: %v", tc.name, cur)
			}
		})
	}
}
