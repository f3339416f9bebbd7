package wire

import (
	"bufio"
	"context"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// The streaming monitoring protocol (mongod's exhaust hello): a driver's
// monitor sends a hello carrying the topologyVersion it knows and
// maxAwaitTimeMS; the server answers when the topology changes or the
// time runs out. When the request allows exhaust (OP_MSG flag bit 16),
// the reply carries moreToCome and the server goes on answering the same
// hello, each reply in answer to the one before, without the client
// asking again, until the client closes the connection. A standalone's
// topology never changes, so each reply comes after maxAwaitTimeMS: the
// driver's heartbeat, which it reads as the server being alive. A reply
// without moreToCome to a request that allowed exhaust reads to a driver
// as the end of the stream, a failed heartbeat, and it clears its
// connection pool, killing the cursors of its sessions.

// minStreamInterval bounds how often an exhaust stream replies, whatever
// maxAwaitTimeMS says: drivers ask for their heartbeat frequency, 10 s by
// default and never under 500 ms (the monitoring spec's minimum), and a
// client asking for 0 must not make the server spin.
const minStreamInterval = 500 * time.Millisecond

// serveAwaitableHello answers an awaitable hello, and its exhaust stream
// if it allows one. It reports false when the connection is to be closed.
//
// While it waits, a read of the connection's next byte runs alongside:
// the client closing the connection, or sending anything, interrupts the
// wait at once. That read goes on after a reply without exhaust, and
// serveConn waits for it (clientConn.watch) before reading the next
// message.
func (s *Server) serveAwaitableHello(c *clientConn, br *bufio.Reader, req *request) bool {
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	// Waiting for the client is idleness, not a half-sent message: the
	// read ahead has no deadline (readMessage set one for this message).
	c.nc.SetReadDeadline(time.Time{})
	watch := make(chan error, 1)
	go func() {
		_, err := br.Peek(1)
		cancel()
		watch <- err
	}()
	c.watch = watch
	exhaust := req.flags&flagExhaustAllowed != 0
	responseTo := req.header.requestID
	cmd := req.cmd
	var out []byte
	for {
		started := time.Now()
		reply := s.run(ctx, c, cmd)
		more := exhaust && ctx.Err() == nil && value.Get(reply, "ok") == 1.0
		replyID := s.lastReplyID.Add(1)
		out = appendOpMsg(out[:0], replyID, responseTo, encodeReplyDoc(reply), req.checksummed(), more)
		c.nc.SetWriteDeadline(time.Now().Add(writeTimeout))
		if _, err := c.nc.Write(out); err != nil {
			return false
		}
		if !more {
			return true
		}
		// The next reply answers this one, for the topology this one
		// reported, as mongod synthesizes the next request of a stream.
		responseTo = replyID
		cmd = withTopologyVersion(cmd, value.Get(reply, "topologyVersion"))
		if wait := minStreamInterval - time.Since(started); wait > 0 {
			select {
			case <-time.After(wait):
			case <-ctx.Done():
			}
		}
	}
}

// withTopologyVersion is cmd with its topologyVersion replaced by tv.
func withTopologyVersion(cmd bson.D, tv any) bson.D {
	out := make(bson.D, len(cmd))
	copy(out, cmd)
	for i := range out {
		if out[i].Key == "topologyVersion" {
			out[i].Value = tv
		}
	}
	return out
}
