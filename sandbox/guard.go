package sandbox

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"fmt"
	"net"
	"strings"
	"sync"

	"go.mongodb.org/mongo-driver/v2/x/mongo/driver/ocsp"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/vocab"
	"github.com/schemalab/schemalab/sandbox/wire"
)

// The guard is the one chokepoint of the prefix rule. Every connection of a
// confined client is dialed by guardDialer, and every byte the driver
// writes on it passes through guardedConn.Write, which cuts the stream
// into messages, decodes each with the wire server's own decoder and asks
// the policy about the command exactly as the server will receive it. A
// refused command never reaches the server: the driver reads a reply the
// guard writes itself, and reports an ordinary command error.

// refusalCode is the code of a refused command's reply. mongod answers a
// command a user is not allowed to run with Unauthorized (13), and that is
// what a refusal is: the command is fine, the learner may not run it here.
// The driver treats 13 as a plain command error (no retry, no change of
// the server's state), so the shell prints it as MongoServerError.
const refusalCode = mongoerr.Unauthorized

// guardDialer dials the connections of a confined client.
type guardDialer struct {
	policy policy
	// tls is set when the URI asks for TLS. The driver would wrap the
	// dialed connection in TLS itself, and the guard would then see only
	// ciphertext; so it is taken from the driver's options, and the guard
	// makes the TLS connection first and reads what goes into it.
	tls                  *tls.Config
	verifyRevocation     bool
	disableOCSPEndpoints bool
	ocspCache            ocsp.Cache
	dialer               net.Dialer
}

func (d *guardDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	nc, err := d.dialer.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	if d.tls != nil {
		cfg := d.tls.Clone()
		if cfg.ServerName == "" {
			// As the driver does: the host for SNI and verification.
			host, _, err := net.SplitHostPort(addr)
			if err != nil {
				host = addr
			}
			cfg.ServerName = host
		}
		tc := tls.Client(nc, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			nc.Close()
			return nil, err
		}
		if d.verifyRevocation && !cfg.InsecureSkipVerify {
			opts := &ocsp.VerifyOptions{Cache: d.ocspCache, DisableEndpointChecking: d.disableOCSPEndpoints}
			if err := ocsp.Verify(ctx, tc.ConnectionState(), opts); err != nil {
				tc.Close()
				return nil, err
			}
		}
		nc = tc
	}
	return &guardedConn{Conn: nc, policy: d.policy}, nil
}

// guardedConn passes on what the policy allows and answers the rest.
type guardedConn struct {
	net.Conn
	policy policy

	wmu     sync.Mutex
	pending []byte // the start of a message whose end has not been written yet
	broken  error  // once set, every Write fails with it

	// replies are the guard's own answers to refused commands, waiting
	// to be read. They are handed out only between two messages of the
	// server, never inside one.
	rmu     sync.Mutex
	replies []byte
	server  frameCounter
}

// Write takes any cut of the outgoing stream: part of a message, one, or
// several. Complete messages are checked one by one; a refused one that
// expects a reply is answered, and one that expects none (or cannot be
// answered) breaks the connection with the refusal, so that nothing later
// on it can be misread.
func (c *guardedConn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.broken != nil {
		return 0, c.broken
	}
	// The driver writes whole messages, so the bytes are checked where
	// they are and sent from there: an insert of many documents is not
	// copied on its way through.
	stream := p
	if len(c.pending) > 0 {
		stream = append(c.pending, p...)
	}
	// Allowed messages go out in runs of adjacent ones, [start, end) of
	// stream, in order.
	type run struct{ start, end int }
	var runs []run
	off := 0
	for len(stream)-off >= 4 {
		size := int(int32(binary.LittleEndian.Uint32(stream[off:])))
		if size < wire.HeaderSize || size > vocab.MaxMessageSize {
			c.broken = c.policy.refuse("", fmt.Sprintf("a message of %d bytes, outside the wire protocol's bounds", size))
			break
		}
		if len(stream)-off < size {
			break
		}
		msg := stream[off : off+size]
		reply, err := c.policy.checkMessage(msg)
		switch {
		case err != nil:
			c.broken = err
		case reply != nil:
			c.rmu.Lock()
			c.replies = append(c.replies, reply...)
			c.rmu.Unlock()
		case len(runs) > 0 && runs[len(runs)-1].end == off:
			runs[len(runs)-1].end = off + size
		default:
			runs = append(runs, run{off, off + size})
		}
		off += size
		if c.broken != nil {
			break
		}
	}
	// Keep only the unfinished message, in a buffer of its own (p is the
	// caller's), and no more: a long-lived connection must not hold every
	// message it ever sent.
	c.pending = append([]byte(nil), stream[off:]...)
	for _, r := range runs {
		if _, err := c.Conn.Write(stream[r.start:r.end]); err != nil {
			return 0, err
		}
	}
	if c.broken != nil {
		return 0, c.broken
	}
	return len(p), nil
}

// Read hands out the server's bytes and, between two of its messages, the
// guard's replies.
func (c *guardedConn) Read(p []byte) (int, error) {
	c.rmu.Lock()
	if c.server.atBoundary() && len(c.replies) > 0 {
		n := copy(p, c.replies)
		c.replies = c.replies[n:]
		c.rmu.Unlock()
		return n, nil
	}
	c.rmu.Unlock()
	n, err := c.Conn.Read(p)
	c.rmu.Lock()
	c.server.advance(p[:n])
	c.rmu.Unlock()
	return n, err
}

// frameCounter follows the message boundaries of a byte stream.
type frameCounter struct {
	size    [4]byte
	sizeLen int // bytes of the length prefix seen
	left    int // bytes of the current message still to come
}

func (f *frameCounter) atBoundary() bool { return f.sizeLen == 0 && f.left == 0 }

func (f *frameCounter) advance(b []byte) {
	for len(b) > 0 {
		if f.left > 0 {
			n := min(f.left, len(b))
			f.left -= n
			b = b[n:]
			continue
		}
		n := copy(f.size[f.sizeLen:], b)
		f.sizeLen += n
		b = b[n:]
		if f.sizeLen == 4 {
			f.sizeLen = 0
			f.left = max(int(int32(binary.LittleEndian.Uint32(f.size[:])))-4, 0)
		}
	}
}

// checkMessage decides about one complete client message: nil, nil lets it
// through; a reply answers it in the server's place; an error refuses it
// in a way that ends the connection.
func (p policy) checkMessage(msg []byte) (reply []byte, err error) {
	if int32(binary.LittleEndian.Uint32(msg[12:])) == wire.OpCompressed {
		// A confined client never offers compression (see newClient),
		// so this is not the driver talking; the guard reads only
		// uncompressed commands.
		return nil, p.refuse("", "a compressed message (the guard reads every command, so confined clients do not compress)")
	}
	m, err := wire.DecodeClientMessage(msg)
	if err != nil {
		// The server would close the connection; the guard does so
		// without sending what it cannot read.
		return nil, p.refuse("", "a message the sandbox cannot read: "+err.Error())
	}
	switch m.OpCode {
	case wire.OpMsg:
		var refusal error
		if m.Malformed {
			// The embedded server would answer with an error; another
			// server might read it differently, so it is not sent.
			refusal = p.refuse("", "a message the sandbox cannot read")
		} else {
			refusal = p.check(m.Command)
		}
		if refusal == nil {
			return nil, nil
		}
		if m.MoreToCome {
			return nil, refusal
		}
		return refusalReply(m.RequestID, refusal), nil
	case wire.OpQuery:
		// Drivers use legacy OP_QUERY only for the first hello of a
		// connection, and mongod 8.0 runs nothing else over it.
		// The handshake reads no database, whichever one it names.
		if strings.HasSuffix(m.Namespace, ".$cmd") && !m.Malformed && len(m.Command) > 0 {
			switch m.Command[0].Key {
			case "hello", "isMaster", "ismaster":
				return nil, nil
			}
		}
		name := ""
		if len(m.Command) > 0 {
			name = m.Command[0].Key
		}
		return nil, p.refuse(name, "a legacy OP_QUERY other than the connection handshake")
	}
	return nil, p.refuse("", fmt.Sprintf("a message with legacy opcode %d", m.OpCode))
}

// refusalReply is the OP_MSG reply a refused command gets instead of the
// server's, in mongod's error shape.
func refusalReply(requestID int32, refusal error) []byte {
	return wire.AppendOpMsgReply(nil, 0, requestID, engine.ErrorReply(mongoerr.New(refusalCode, refusal.Error())))
}
