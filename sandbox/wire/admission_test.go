package wire

import (
	"net"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// A flood of connections that never log in cannot lock out the users:
// past the limit a new connection is closed at once, silent connections
// and unfinished logins are closed after the grace time, and the
// connections that logged in are never counted, refused or closed.
func TestUnauthenticatedFloodCannotLockUsersOut(t *testing.T) {
	srv := startAuthServer(t, Options{MaxUnauthenticated: 8, AuthGraceTime: 300 * time.Millisecond})
	addUser(t, srv, "alice", "s3cret", Account{Prefix: "alice_"})
	alice := dialRaw(t, srv)
	alice.login(t, "alice", "s3cret")

	var flood []*rawConn
	for range 8 {
		flood = append(flood, dialRaw(t, srv))
	}
	refused := dialRaw(t, srv)
	refused.expectClosed()

	// Logged-in connections go on working through the flood.
	find := bson.D{{Key: "find", Value: "c"}, {Key: "$db", Value: "alice_db"}}
	if reply := alice.command(find); get(reply, "ok") != 1.0 {
		t.Fatalf("alice during the flood: %v", reply)
	}
	// The grace time ends the silent ones, which frees the room for a
	// new login.
	for _, c := range flood {
		c.expectClosed()
	}
	late := dialRaw(t, srv)
	late.login(t, "alice", "s3cret")
	if reply := late.command(find); get(reply, "ok") != 1.0 {
		t.Fatalf("a login after the flood: %v", reply)
	}
	if reply := alice.command(find); get(reply, "ok") != 1.0 {
		t.Fatalf("alice after the grace time: %v", reply)
	}
}

// A login started and left unfinished is closed after the grace time; a
// driver's monitoring connection, which never logs in but runs hello, is
// not.
func TestGraceTimeClosesUnfinishedLoginsOnly(t *testing.T) {
	srv := startAuthServer(t, Options{AuthGraceTime: 300 * time.Millisecond})
	addUser(t, srv, "alice", "s3cret", Account{Prefix: "alice_"})
	half := dialRaw(t, srv)
	conv := newSCRAMClient(t, "alice", "s3cret")
	payloadOf(t, half.command(saslStart(conv.step(t, ""), true)))
	monitor := dialRaw(t, srv)
	hello := bson.D{{Key: "hello", Value: 1}, {Key: "$db", Value: "admin"}}
	monitor.command(hello)
	half.expectClosed()
	time.Sleep(100 * time.Millisecond)
	if reply := monitor.command(hello); get(reply, "ok") != 1.0 {
		t.Fatalf("monitor after the grace time: %v", reply)
	}
	wantReplyError(t, monitor.command(bson.D{{Key: "find", Value: "c"}, {Key: "$db", Value: "alice_db"}}),
		mongoerr.Unauthorized, "Command find requires authentication")
}

// fakeRemote is a connection from a given remote address.
type fakeRemote struct {
	net.Conn
	addr net.Addr
}

func (f fakeRemote) RemoteAddr() net.Addr { return f.addr }

// One remote address other than loopback may hold only its share of the
// unauthenticated connections; loopback clients (a classroom's student
// processes) count toward the total only.
func TestUnauthenticatedLimitPerAddress(t *testing.T) {
	a := newAdmission(Options{RequireAuth: true, MaxUnauthenticated: 10, MaxUnauthenticatedPerAddress: 2, AuthGraceTime: time.Hour})
	conn := func(ip string) *clientConn {
		client, server := net.Pipe()
		t.Cleanup(func() { client.Close(); server.Close() })
		return &clientConn{nc: fakeRemote{Conn: server, addr: &net.TCPAddr{IP: net.ParseIP(ip), Port: 1234}}}
	}
	remote := []*clientConn{conn("192.0.2.7"), conn("192.0.2.7")}
	for _, c := range remote {
		if !a.admit(c) {
			t.Fatal("refused within the per-address limit")
		}
	}
	if a.admit(conn("192.0.2.7")) {
		t.Fatal("a third connection from one address admitted")
	}
	if !a.admit(conn("192.0.2.8")) {
		t.Fatal("another address refused")
	}
	for range 3 {
		if !a.admit(conn("127.0.0.1")) {
			t.Fatal("loopback refused under the total")
		}
	}
	a.authenticated(remote[0])
	if !a.admit(conn("192.0.2.7")) {
		t.Fatal("a login did not free its address's place")
	}
	for range 4 { // 6 + 4 = 10, the total
		if !a.admit(conn("127.0.0.1")) {
			t.Fatal("loopback refused under the total")
		}
	}
	if a.admit(conn("127.0.0.1")) {
		t.Fatal("admitted past the total")
	}
}
