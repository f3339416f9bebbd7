package classroom

import (
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// dialFrom opens a TCP connection to addr from the loopback address from
// (127.0.0.x): many machines, on one.
func dialFrom(t *testing.T, from, addr string) (net.Conn, error) {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	return d.Dial("tcp", addr)
}

// Connections that never log in, raw TCP and SSH handshakes left half
// done, cannot lock the class out: from one address they take at most
// their share, the rest are refused at once, each is closed after the
// grace time, and a student already in never notices.
func TestLoginsCannotBeFlooded(t *testing.T) {
	alice, bob := newKey(t), newKey(t)
	srv := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, alice, bob)},
		Startups: Startups{Start: 10, Rate: 30, Full: 100, PerAddress: 10, Grace: 3 * time.Second}})
	in := login(t, srv.Addr(), loginOptions{user: "alice", key: alice})
	in.waitFor(`Lessons`, 30*time.Second)

	// 150 connections from one attacker: raw TCP, and half an SSH
	// handshake (the version line, then nothing).
	var held []net.Conn
	t.Cleanup(func() {
		for _, c := range held {
			c.Close()
		}
	})
	for i := range 150 {
		c, err := dialFrom(t, "127.0.0.2", srv.Addr())
		if err != nil {
			continue
		}
		if i%2 == 1 {
			fmt.Fprint(c, "SSH-2.0-flood\r\n")
		}
		held = append(held, c)
	}
	open := 0
	for _, c := range held {
		c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err == nil || isTimeout(err) {
			open++ // the server's version line, or silence: still held
		}
	}
	// Its 10 in a handshake; the others wait for those, silent, until
	// the grace time, and delay no one else.
	srv.startups.mu.Lock()
	inFlight, waiting := srv.startups.byAddr["127.0.0.2"], srv.startups.waitingAt["127.0.0.2"]
	srv.startups.mu.Unlock()
	if inFlight > 10 || open > 10+100 || waiting > 100 {
		t.Errorf("the attacker has %d connections in a handshake and %d waiting (%d held), more than its 10 and 100", inFlight, waiting, open)
	}

	// Meanwhile a student from another machine logs in at once.
	start := time.Now()
	late := login(t, srv.Addr(), loginOptions{user: "bob", key: bob})
	late.waitFor(`Lessons`, 30*time.Second)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("bob's login took %v during the flood", d)
	}
	// Alice never noticed.
	in.send("j")
	select {
	case <-in.ended:
		t.Fatalf("alice's session ended: %s", in.told())
	default:
	}

	// The grace time ends those that were held.
	time.Sleep(4 * time.Second)
	for _, c := range held {
		c.SetReadDeadline(time.Now().Add(2 * time.Second))
		if _, err := io.ReadAll(c); isTimeout(err) {
			t.Fatal("a connection that never logged in outlived the grace time")
		}
	}
	// A flood from many addresses meets sshd's random early drop: past
	// Full, every new one is refused, until they go.
	var spread []net.Conn
	for i := range 120 {
		c, err := dialFrom(t, fmt.Sprintf("127.0.1.%d", 1+i%60), srv.Addr())
		if err == nil {
			spread = append(spread, c)
		}
	}
	t.Cleanup(func() {
		for _, c := range spread {
			c.Close()
		}
	})
	srv.startups.mu.Lock()
	unauth := srv.startups.unauth
	srv.startups.mu.Unlock()
	if unauth > 100 || unauth < 10 {
		t.Errorf("%d connections not logged in are held; want between start (10) and full (100)", unauth)
	}
	// And a logged-in student is not counted among them.
	srv.startups.mu.Lock()
	authd := srv.startups.authd
	srv.startups.mu.Unlock()
	if authd != 2 {
		t.Errorf("%d authenticated connections counted, want alice's and bob's", authd)
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// A class behind one address (a NAT) logging in at the same moment takes
// turns, a few handshakes at a time, and every student gets in.
func TestAClassBehindOneAddressLogsInAtOnce(t *testing.T) {
	key := newKey(t)
	srv := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, key)},
		Startups: Startups{Start: 10, Rate: 30, Full: 100, PerAddress: 4, Grace: 20 * time.Second}})
	var wg sync.WaitGroup
	errs := make(chan error, 12)
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, _, err := dialSSH(srv.Addr(), loginOptions{user: fmt.Sprintf("s%d", i), key: key})
			if err != nil {
				errs <- err
				return
			}
			c.Close()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("a student of the class was refused: %v", err)
	}
}
