package wire

import (
	"net"
	"sync"
	"time"
)

// A server that requires authentication bounds the connections that have
// not authenticated (yet), as OpenSSH bounds its unauthenticated
// connections with MaxStartups and LoginGraceTime, so that a flood of
// connections that never log in cannot exhaust it:
//
//   - at most MaxUnauthenticated of them at once, and at most
//     MaxUnauthenticatedPerAddress from one remote address other than
//     loopback (a classroom's own student processes all connect from
//     loopback, so they count toward the total only); a connection past
//     either limit is closed as soon as it is accepted;
//   - a connection that has sent nothing, or is still in the middle of
//     authenticating, when the grace time after its accept runs out is
//     closed.
//
// A connection leaves these counts the moment it authenticates, so
// authenticated connections are never counted, refused or closed by
// them. Drivers never authenticate their monitoring connections, which
// only run hello; those count, and are not closed.

// Defaults of Options.MaxUnauthenticated, MaxUnauthenticatedPerAddress
// and AuthGraceTime.
const (
	DefaultMaxUnauthenticated           = 1024
	DefaultMaxUnauthenticatedPerAddress = 32
	DefaultAuthGraceTime                = 10 * time.Second
)

// A connection's progress towards authentication (clientConn.state).
const (
	stateSilent         int32 = iota // has sent nothing yet
	stateSpoke                       // has run commands, none of them authenticating
	stateAuthenticating              // is in a SASL conversation
	stateAuthenticated
)

// admission counts the unauthenticated connections. A nil admission (a
// server that does not require authentication) admits everything.
type admission struct {
	maxTotal, maxPerHost int
	grace                time.Duration

	mu     sync.Mutex
	total  int
	byHost map[string]int
}

func newAdmission(opts Options) *admission {
	if !opts.RequireAuth {
		return nil
	}
	a := &admission{
		maxTotal:   opts.MaxUnauthenticated,
		maxPerHost: opts.MaxUnauthenticatedPerAddress,
		grace:      opts.AuthGraceTime,
		byHost:     map[string]int{},
	}
	if a.maxTotal <= 0 {
		a.maxTotal = DefaultMaxUnauthenticated
	}
	if a.maxPerHost <= 0 {
		a.maxPerHost = DefaultMaxUnauthenticatedPerAddress
	}
	if a.grace <= 0 {
		a.grace = DefaultAuthGraceTime
	}
	return a
}

// admit counts a newly accepted connection, or refuses it (false) when a
// limit is reached.
func (a *admission) admit(c *clientConn) bool {
	if a == nil {
		return true
	}
	host, loopback := remoteHost(c.nc.RemoteAddr())
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.total >= a.maxTotal || !loopback && a.byHost[host] >= a.maxPerHost {
		return false
	}
	a.total++
	if !loopback {
		a.byHost[host]++
		c.host = host
	}
	c.pending = true
	c.graceTimer = time.AfterFunc(a.grace, func() {
		if st := c.state.Load(); st == stateSilent || st == stateAuthenticating {
			c.nc.Close()
		}
	})
	return true
}

// authenticated takes c out of the counts; so does closed.
func (a *admission) authenticated(c *clientConn) { a.leave(c) }

func (a *admission) closed(c *clientConn) { a.leave(c) }

func (a *admission) leave(c *clientConn) {
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if !c.pending {
		return
	}
	c.pending = false
	c.graceTimer.Stop()
	a.total--
	if c.host != "" {
		if a.byHost[c.host]--; a.byHost[c.host] == 0 {
			delete(a.byHost, c.host)
		}
	}
}

// remoteHost is the host of a remote address, and whether it is loopback.
func remoteHost(addr net.Addr) (string, bool) {
	if tcp, ok := addr.(*net.TCPAddr); ok {
		return tcp.IP.String(), tcp.IP.IsLoopback()
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		host = addr.String()
	}
	ip := net.ParseIP(host)
	return host, ip != nil && ip.IsLoopback()
}
