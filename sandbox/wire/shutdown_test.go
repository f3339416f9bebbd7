package wire

import (
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Close interrupts a command that is running: it fails at once with
// mongod's InterruptedAtShutdown instead of holding the shutdown up.
func TestCloseInterruptsRunningCommands(t *testing.T) {
	srv := startTestServer(t, Options{})
	cc := testConn(srv)
	docs := bson.A{}
	for i := range 5000 {
		docs = append(docs, bson.D{{Key: "a", Value: int32(i)}})
	}
	if reply := srv.dispatch(cc, bson.D{{Key: "insert", Value: "c"}, {Key: "documents", Value: docs}, {Key: "$db", Value: "db"}}); get(reply, "ok") != 1.0 {
		t.Fatalf("insert: %v", reply)
	}
	// Every document builds a 100,000-element array: seconds in all.
	slow := bson.D{{Key: "count", Value: "c"}, {Key: "query", Value: bson.D{{Key: "$expr", Value: bson.D{{Key: "$gt", Value: bson.A{
		bson.D{{Key: "$size", Value: bson.D{{Key: "$range", Value: bson.A{0, bson.D{{Key: "$add", Value: bson.A{100000, "$a"}}}}}}}}, -1}}}}}},
		{Key: "$db", Value: "db"}}
	replies := make(chan bson.D, 1)
	go func() { replies <- srv.dispatch(cc, slow) }()
	time.Sleep(200 * time.Millisecond)
	start := time.Now()
	go srv.Close()
	select {
	case reply := <-replies:
		if get(reply, "code") != int32(11600) || get(reply, "codeName") != "InterruptedAtShutdown" || get(reply, "errmsg") != "interrupted at shutdown" {
			t.Errorf("reply %v", reply)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("the command stopped %v after Close", d)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the command did not stop")
	}
}
