package classroom

import (
	"fmt"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"charm.land/ssh"

	room "github.com/schemalab/schemalab/lessons/classroom"
)

// Startups bound the connections that have not logged in yet, as
// OpenSSH's MaxStartups and LoginGraceTime do, so that anyone who can
// reach the port cannot lock the class out with connections that never
// authenticate: raw TCP connections, half-open SSH handshakes, slow
// authentications. A connection counts until it has logged in; after
// that it is a student's, counted apart (per name and in all), and never
// dropped for them.
type Startups struct {
	// Start, Rate and Full are MaxStartups's start:rate:full: from Start
	// unauthenticated connections on, a new one is refused with
	// probability Rate percent, rising linearly to 100 at Full. Unlike
	// sshd, the random refusal spares an address with no connection in
	// flight: one flooding address cannot make the others' logins a
	// lottery, only Full refuses them.
	Start, Rate, Full int
	// PerAddress is the most unauthenticated connections from one
	// address at once, so that one machine cannot take them all; more
	// wait their turn (a class behind one NAT logging in at once).
	PerAddress int
	// Grace is LoginGraceTime: how long a connection has to log in.
	Grace time.Duration
}

// DefaultStartups are OpenSSH's MaxStartups (10:30:100), a grace time of
// 30 s (OpenSSH waits 120 s: a classroom's students are on its network),
// and 10 at once per address (a room behind one NAT logs in a few at a
// time, each in well under a second).
var DefaultStartups = Startups{Start: 10, Rate: 30, Full: 100, PerAddress: 10, Grace: 30 * time.Second}

// ParseMaxStartups reads OpenSSH's "start:rate:full" (or "start").
func ParseMaxStartups(s string) (start, rate, full int, err error) {
	parts := strings.Split(s, ":")
	nums := make([]int, len(parts))
	for i, p := range parts {
		if nums[i], err = strconv.Atoi(p); err != nil || nums[i] < 0 {
			return 0, 0, 0, fmt.Errorf("--max-startups %q: want start:rate:full, e.g. 10:30:100", s)
		}
	}
	switch {
	case len(nums) == 1 && nums[0] > 0:
		return nums[0], 100, nums[0], nil
	case len(nums) == 3 && nums[0] > 0 && nums[1] <= 100 && nums[2] >= nums[0]:
		return nums[0], nums[1], nums[2], nil
	}
	return 0, 0, 0, fmt.Errorf("--max-startups %q: want start:rate:full with 0 < start <= full and rate <= 100, e.g. 10:30:100", s)
}

// Authenticated connections beyond these are closed: no student needs
// more than a few at once.
const maxConnsPerName = 8

// startupKey holds a connection's *startup in its ssh.Context.
var startupKey = &struct{ name string }{"schemalab-startup"}

// startups is the count of connections by state.
type startups struct {
	lim      Startups
	maxAuthd int // authenticated connections in all

	mu       sync.Mutex
	unauth   int
	byAddr   map[string]int
	authd    int
	byName   map[string]int
	refused  int
	lastNote time.Time
	// waiting connections wait for their address's turn; freed is closed
	// (and replaced) whenever a connection stops counting against its
	// address.
	waiting   int
	waitingAt map[string]int
	freed     chan struct{}
	note      func(format string, a ...any)
}

// startup is one connection.
type startup struct {
	conn       net.Conn
	addr, name string
	authed     bool
	done       bool
}

func newStartups(lim Startups, maxAuthd int, note func(string, ...any)) *startups {
	return &startups{lim: lim, maxAuthd: maxAuthd, byAddr: map[string]int{}, byName: map[string]int{}, note: note,
		waitingAt: map[string]int{}, freed: make(chan struct{})}
}

// admit counts a new connection in, or refuses it. A connection from an
// address at its PerAddress limit waits, up to the grace time, for one of
// that address's connections to log in or go: a class behind one NAT
// logging in at once takes turns, a few handshakes at a time, instead of
// being refused. A waiting connection delays only its own address's
// logins; up to Full wait per address, twice that in all, and past that a
// connection is refused at once.
func (t *startups) admit(conn net.Conn) (*startup, bool) {
	addr := conn.RemoteAddr().String()
	if host, _, err := net.SplitHostPort(addr); err == nil {
		addr = host
	}
	deadline := time.Now().Add(t.lim.Grace)
	t.mu.Lock()
	defer t.mu.Unlock()
	waiting := false
	defer func() {
		if waiting {
			t.waiting--
			t.waitingAt[addr]--
		}
	}()
	for t.byAddr[addr] >= t.lim.PerAddress {
		if !waiting {
			if t.waitingAt[addr] >= t.lim.Full || t.waiting >= 2*t.lim.Full {
				return t.refuseLocked(addr)
			}
			waiting = true
			t.waiting++
			t.waitingAt[addr]++
		}
		left := time.Until(deadline)
		if left <= 0 {
			return t.refuseLocked(addr)
		}
		freed := t.freed
		t.mu.Unlock()
		select {
		case <-freed:
		case <-time.After(left):
		}
		t.mu.Lock()
	}
	refuse := t.unauth >= t.lim.Full
	if !refuse && t.unauth >= t.lim.Start && t.byAddr[addr] > 0 {
		// Random early drop, as sshd does, for addresses that have a
		// connection in flight already: a machine that has none, a
		// student's, is turned away only at Full, so that one flooding
		// address does not make everyone else's logins a lottery.
		p := t.lim.Rate + (100-t.lim.Rate)*(t.unauth-t.lim.Start)/max(t.lim.Full-t.lim.Start, 1)
		refuse = rand.IntN(100) < p
	}
	if refuse {
		return t.refuseLocked(addr)
	}
	t.unauth++
	t.byAddr[addr]++
	return &startup{addr: addr}, true
}

func (t *startups) refuseLocked(addr string) (*startup, bool) {
	t.refused++
	if now := time.Now(); now.Sub(t.lastNote) >= time.Second {
		t.note("refused %d connection(s) before login (%d not logged in yet, %d from %s): MaxStartups %d:%d:%d, %d per address",
			t.refused, t.unauth, t.byAddr[addr], addr, t.lim.Start, t.lim.Rate, t.lim.Full, t.lim.PerAddress)
		t.refused, t.lastNote = 0, now
	}
	return nil, false
}

// authenticated moves a connection from the unauthenticated to its
// student's; false means the student has too many already.
func (t *startups) authenticated(st *startup, login string) bool {
	name, err := room.StudentName(login)
	if err != nil {
		name = "?"
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if st.authed || st.done {
		return true
	}
	t.releaseLocked(st)
	st.authed, st.name = true, name
	t.authd++
	t.byName[name]++
	return t.byName[name] <= maxConnsPerName && t.authd <= t.maxAuthd
}

// closed counts a connection out.
func (t *startups) closed(st *startup) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if st.done {
		return
	}
	st.done = true
	if !st.authed {
		t.releaseLocked(st)
		return
	}
	t.authd--
	if t.byName[st.name]--; t.byName[st.name] <= 0 {
		delete(t.byName, st.name)
	}
}

func (t *startups) releaseLocked(st *startup) {
	t.unauth--
	if t.byAddr[st.addr]--; t.byAddr[st.addr] <= 0 {
		delete(t.byAddr, st.addr)
	}
	close(t.freed)
	t.freed = make(chan struct{})
}

// trackedConn counts itself out when it closes.
type trackedConn struct {
	net.Conn
	once  sync.Once
	close func()
}

func (c *trackedConn) Close() error {
	c.once.Do(c.close)
	return c.Conn.Close()
}

// acceptConn is the server's ConnCallback: it admits a connection within
// the startups' bounds.
func (s *Server) acceptConn(ctx ssh.Context, conn net.Conn) net.Conn {
	st, ok := s.startups.admit(conn)
	if !ok {
		return nil
	}
	ctx.SetValue(startupKey, st)
	st.conn = &trackedConn{Conn: conn, close: func() { s.startups.closed(st) }}
	return st.conn
}
