package engine

import (
	"context"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// In a classroom each learner is a user: currentOp, $currentOp and killOp
// must not show or touch another learner's operations (he holds no inprog
// or killop privilege), while a server without users shows them all.
func TestCurrentOpKeepsUsersApart(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	e := New(Options{BeforeCommand: func(name string) {
		if name == "ping" {
			close(started)
			<-release
		}
	}})
	alice := e.OpenConnection("127.0.0.1:1", "127.0.0.1:27017")
	alice.Authenticated("alice", "alice_", 0)
	bob := e.OpenConnection("127.0.0.1:2", "127.0.0.1:27017")
	bob.Authenticated("bob", "bob_", 0)
	admin := e.OpenConnection("127.0.0.1:3", "127.0.0.1:27017")
	defer func() {
		for _, c := range []*Conn{alice, bob, admin} {
			e.ConnectionClosed(c)
		}
	}()

	done := make(chan bson.D)
	go func() {
		done <- e.Run(context.Background(), alice, bson.D{{Key: "ping", Value: int32(1)}, {Key: "$db", Value: "admin"}})
	}()
	<-started

	pings := func(c *Conn) []bson.D {
		reply := e.Run(context.Background(), c, bson.D{{Key: "currentOp", Value: int32(1)}, {Key: "command.ping", Value: int32(1)}, {Key: "$db", Value: "admin"}})
		inprog, ok := replyField(reply, "inprog").(bson.A)
		if !ok {
			t.Fatalf("currentOp: %v", reply)
		}
		var out []bson.D
		for _, op := range inprog {
			out = append(out, op.(bson.D))
		}
		return out
	}
	if got := pings(bob); len(got) != 0 {
		t.Errorf("bob sees alice's ping: %v", got)
	}
	if got := pings(alice); len(got) != 1 {
		t.Errorf("alice sees %d of her own pings: %v", len(got), got)
	} else if users, _ := replyField(got[0], "effectiveUsers").(bson.A); len(users) != 1 || replyField(users[0].(bson.D), "user") != "alice" {
		t.Errorf("alice's ping runs as %v", replyField(got[0], "effectiveUsers"))
	}
	all := pings(admin)
	if len(all) != 1 {
		t.Fatalf("without users the server shows %d pings", len(all))
	}
	opid := replyField(all[0], "opid")
	// bob's killOp answers as for any operation and leaves alice's alone.
	reply := e.Run(context.Background(), bob, bson.D{{Key: "killOp", Value: int32(1)}, {Key: "op", Value: opid}, {Key: "$db", Value: "admin"}})
	if replyField(reply, "info") != "attempting to kill op" {
		t.Errorf("bob's killOp: %v", reply)
	}
	e.ops.mu.Lock()
	op := e.ops.ops[opid.(int32)]
	e.ops.mu.Unlock()
	if op == nil {
		t.Fatal("alice's ping is gone")
	}
	close(release)
	select {
	case r := <-done:
		if replyField(r, "ok") != 1.0 {
			t.Errorf("alice's ping: %v", r)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("alice's ping never ended")
	}
	// Nothing stays behind: the table holds only what is in flight.
	e.ops.mu.Lock()
	defer e.ops.mu.Unlock()
	if len(e.ops.ops) != 0 {
		t.Errorf("%d operations left in the table", len(e.ops.ops))
	}
}
