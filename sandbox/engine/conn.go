package engine

import "sync/atomic"

// Conn is one client connection. The server opens it with
// OpenConnection when a client connects, passes it to Run with each of
// the connection's commands, which run one at a time, and closes it with
// ConnectionClosed.
type Conn struct {
	ID         int64  // connectionId reported by hello
	RemoteAddr string // "127.0.0.1:54012"
	// ListenAddr is the address the server accepted the connection on,
	// which getCmdLineOpts reports as the server's bind address and port.
	ListenAddr string
	// helloSeen: the client metadata may only come with the first hello.
	helloSeen bool
	// internal: the client said it is a server of the deployment (hello's
	// internalClient), which the internal-only stages need.
	internal bool
	// user is who the connection authenticated as ("" until it does, and
	// on a server without users). Cursors belong to their user.
	user string
	// prefix confines the user to the databases named prefix*: "" means
	// every database.
	prefix string
	// maxCursors caps the user's open cursors (0: the engine's
	// MaxOpenCursors).
	maxCursors int
}

// Authenticated records that the connection has logged in as user, who
// may use the databases named prefix* ("" for every database) and keep at
// most maxCursors cursors open at once (0 for the engine's
// MaxOpenCursors), counted apart from every other user's. The server
// calls it between two of the connection's commands.
func (c *Conn) Authenticated(user, prefix string, maxCursors int) {
	c.user, c.prefix, c.maxCursors = user, prefix, maxCursors
}

// connCounts are serverStatus's connection figures.
type connCounts struct {
	current, created atomic.Int64
}

// OpenConnection registers a new client connection.
func (e *Engine) OpenConnection(remoteAddr, listenAddr string) *Conn {
	count := e.conns.current.Add(1)
	c := &Conn{ID: e.conns.created.Add(1), RemoteAddr: remoteAddr, ListenAddr: listenAddr}
	e.ops.connOpened(c)
	e.log.connectionAccepted(c, count)
	return c
}

// ConnectionClosed tells the engine that a client connection has gone:
// the cursors it opened die with it, as mongod kills a session's cursors
// when the session ends, unless another open connection of the same
// session has read from them.
func (e *Engine) ConnectionClosed(c *Conn) {
	count := e.conns.current.Add(-1)
	e.ops.connClosed(c)
	e.log.connectionEnded(c, count)
	e.cursors.connectionClosed(c.ID)
}
