package wire

import (
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

func sendAwaitable(t *testing.T, c *rawConn, requestID int32, exhaust bool, processID bson.ObjectID, waitMS int32) {
	t.Helper()
	b := &opMsgBuilder{requestID: requestID}
	if exhaust {
		b.flags = flagExhaustAllowed
	}
	c.send(b.body(mustEncode(t, bson.D{
		{Key: "hello", Value: int32(1)},
		{Key: "topologyVersion", Value: bson.D{{Key: "processId", Value: processID}, {Key: "counter", Value: int64(0)}}},
		{Key: "maxAwaitTimeMS", Value: waitMS},
		{Key: "$db", Value: "admin"},
	})).bytes())
}

// connections is how many client connections srv has open.
func connections(srv *Server) int {
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return len(srv.conns)
}

func waitForConnections(t *testing.T, srv *Server, n int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for connections(srv) != n {
		if time.Now().After(deadline) {
			t.Fatalf("%d connections open, want %d", connections(srv), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// With exhaustAllowed, the awaitable hello becomes a stream: every reply
// carries moreToCome, answers the reply before it, and comes one
// maxAwaitTimeMS after it, until the client closes the connection. The
// read deadline of the message that began the stream does not end it.
func TestExhaustHelloStreamsUntilTheClientCloses(t *testing.T) {
	srv := startTestServer(t, Options{partialMessageTimeout: 100 * time.Millisecond})
	c := dialRaw(t, srv)
	sendAwaitable(t, c, 7, true, processID(t, srv), 600)
	responseTo := int32(7)
	last := time.Now()
	for i := range 3 {
		r := c.recv()
		if r.flags&flagMoreToCome == 0 || r.header.responseTo != responseTo || get(r.doc, "ok") != 1.0 {
			t.Fatalf("reply %d: flags %b, responseTo %d (want %d): %v", i, r.flags, r.header.responseTo, responseTo, r.doc)
		}
		if since := time.Since(last); since < 500*time.Millisecond {
			t.Fatalf("reply %d came %v after the one before, want about 600ms", i, since)
		}
		responseTo, last = r.header.requestID, time.Now()
	}
	c.nc.Close()
	waitForConnections(t, srv, 0)
}

// Without exhaustAllowed the awaitable hello answers once, without
// moreToCome, and the connection goes on as before.
func TestAwaitableHelloWithoutExhaustAnswersOnce(t *testing.T) {
	srv := startTestServer(t, Options{})
	c := dialRaw(t, srv)
	sendAwaitable(t, c, 1, false, processID(t, srv), 100)
	if r := c.recv(); r.flags&flagMoreToCome != 0 || r.header.responseTo != 1 {
		t.Fatalf("reply: flags %b responseTo %d", r.flags, r.header.responseTo)
	}
	if _, err := c.tryRecv(300 * time.Millisecond); err == nil {
		t.Fatal("a second reply came without exhaust")
	}
	if reply := c.command(bson.D{{Key: "ping", Value: 1}, {Key: "$db", Value: "admin"}}); get(reply, "ok") != 1.0 {
		t.Fatalf("ping after the hello: %v", reply)
	}
}

// A client that closes its connection ends the wait at once, and a
// stream ends at an error reply; a stale or zero wait does not make the
// server spin.
func TestAwaitableHelloEnds(t *testing.T) {
	srv := startTestServer(t, Options{})
	t.Run("client closes during the wait", func(t *testing.T) {
		c := dialRaw(t, srv)
		sendAwaitable(t, c, 1, false, processID(t, srv), 60000)
		time.Sleep(50 * time.Millisecond)
		c.nc.Close()
		waitForConnections(t, srv, 0)
	})
	t.Run("error reply", func(t *testing.T) {
		c := dialRaw(t, srv)
		sendAwaitable(t, c, 1, true, processID(t, srv), -1)
		r := c.recv()
		if r.flags&flagMoreToCome != 0 || get(r.doc, "code") != int32(31373) {
			t.Fatalf("reply: flags %b %v", r.flags, r.doc)
		}
		if reply := c.command(bson.D{{Key: "ping", Value: 1}, {Key: "$db", Value: "admin"}}); get(reply, "ok") != 1.0 {
			t.Fatalf("ping after the error: %v", reply)
		}
	})
	for name, tc := range map[string]struct {
		processID bson.ObjectID
		wait      int32
	}{
		"zero wait":     {processID(t, srv), 0},
		"stale process": {bson.NewObjectID(), 0},
	} {
		t.Run(name, func(t *testing.T) {
			c := dialRaw(t, srv)
			sendAwaitable(t, c, 1, true, tc.processID, tc.wait)
			var replies int
			deadline := time.Now().Add(time.Second)
			for time.Now().Before(deadline) {
				if _, err := c.tryRecv(time.Until(deadline)); err != nil {
					break
				}
				replies++
			}
			if replies > 3 {
				t.Fatalf("%d replies in a second", replies)
			}
		})
	}
}

// The Go driver in streaming mode, as mongosh and Compass monitor: its
// heartbeats succeed through long idle periods, so it never clears its
// pool, and an open cursor survives them.
func TestDriverStreamingKeepsCursorsAlive(t *testing.T) {
	srv := startAuthServer(t, Options{})
	addUser(t, srv, "alice", "s3cret", Account{Prefix: "alice_"})
	var failed, cleared, awaited atomic.Int32
	client := connectURI(t, userURI(srv, "alice", "s3cret"), options.Client().
		SetServerMonitoringMode(options.ServerMonitoringModeStream).
		SetHeartbeatInterval(500*time.Millisecond).
		SetServerMonitor(&event.ServerMonitor{
			ServerHeartbeatSucceeded: func(e *event.ServerHeartbeatSucceededEvent) {
				if e.Awaited {
					awaited.Add(1)
				}
			},
			ServerHeartbeatFailed: func(*event.ServerHeartbeatFailedEvent) { failed.Add(1) },
		}).
		SetPoolMonitor(&event.PoolMonitor{Event: func(e *event.PoolEvent) {
			if e.Type == event.ConnectionPoolCleared {
				cleared.Add(1)
			}
		}}))
	coll := client.Database("alice_db").Collection("c")
	docs := make([]any, 10)
	for i := range docs {
		docs[i] = bson.D{{Key: "i", Value: int32(i)}}
	}
	if _, err := coll.InsertMany(bg, docs); err != nil {
		t.Fatal(err)
	}
	cur, err := coll.Find(bg, bson.D{}, options.Find().SetBatchSize(2))
	if err != nil {
		t.Fatal(err)
	}
	defer cur.Close(bg)
	time.Sleep(3 * time.Second)
	var n int
	for cur.Next(bg) {
		n++
	}
	if err := cur.Err(); err != nil || n != 10 {
		t.Fatalf("read %d documents after idling: %v", n, err)
	}
	if failed.Load() != 0 || cleared.Load() != 0 || awaited.Load() < 3 {
		t.Fatalf("heartbeats: %d awaited, %d failed; pool cleared %d times", awaited.Load(), failed.Load(), cleared.Load())
	}
}
