package wire

import (
	"context"
	"encoding/binary"
	"hash/crc32"
	"io"
	"net"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// startTestServer starts a server on a free loopback port and closes it
// when the test ends.
func startTestServer(t testing.TB, opts Options) *Server {
	t.Helper()
	srv, err := Start(context.Background(), opts)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// testConn is a connection of srv's engine for tests that dispatch
// commands without a socket.
func testConn(srv *Server) *clientConn {
	return &clientConn{conn: srv.eng.OpenConnection("127.0.0.1:1", srv.ln.Addr().String())}
}

// processID is the topologyVersion.processId srv's hello reports.
func processID(t testing.TB, srv *Server) bson.ObjectID {
	t.Helper()
	reply := srv.dispatch(testConn(srv), bson.D{{Key: "hello", Value: int32(1)}, {Key: "$db", Value: "admin"}})
	tv, _ := get(reply, "topologyVersion").(bson.D)
	id, ok := get(tv, "processId").(bson.ObjectID)
	if !ok {
		t.Fatalf("hello: %v", reply)
	}
	return id
}

func mustEncode(t testing.TB, d bson.D) []byte {
	t.Helper()
	b, err := value.Encode(d)
	if err != nil {
		t.Fatalf("encode %v: %v", d, err)
	}
	return b
}

// opMsgBuilder assembles raw OP_MSG requests, including malformed ones.
type opMsgBuilder struct {
	requestID int32
	flags     uint32
	sections  []byte
	checksum  bool
	badSum    bool
}

func (b *opMsgBuilder) body(doc []byte) *opMsgBuilder {
	b.sections = append(b.sections, 0)
	b.sections = append(b.sections, doc...)
	return b
}

func (b *opMsgBuilder) sequence(name string, docs ...[]byte) *opMsgBuilder {
	size := 4 + len(name) + 1
	for _, d := range docs {
		size += len(d)
	}
	b.sections = append(b.sections, 1)
	b.sections = binary.LittleEndian.AppendUint32(b.sections, uint32(size))
	b.sections = append(b.sections, name...)
	b.sections = append(b.sections, 0)
	for _, d := range docs {
		b.sections = append(b.sections, d...)
	}
	return b
}

func (b *opMsgBuilder) bytes() []byte {
	flags := b.flags
	length := headerSize + 4 + len(b.sections)
	if b.checksum {
		flags |= flagChecksumPresent
		length += 4
	}
	msg := appendHeader(nil, int32(length), b.requestID, 0, opMsg)
	msg = binary.LittleEndian.AppendUint32(msg, flags)
	msg = append(msg, b.sections...)
	if b.checksum {
		sum := crc32.Checksum(msg, castagnoli)
		if b.badSum {
			sum++
		}
		msg = binary.LittleEndian.AppendUint32(msg, sum)
	}
	return msg
}

func opQueryBytes(requestID int32, ns string, query []byte) []byte {
	var body []byte
	body = binary.LittleEndian.AppendUint32(body, 0) // flags
	body = append(body, ns...)
	body = append(body, 0)
	body = binary.LittleEndian.AppendUint32(body, 0)          // numberToSkip
	body = binary.LittleEndian.AppendUint32(body, 0xffffffff) // numberToReturn -1
	body = append(body, query...)
	msg := appendHeader(nil, int32(headerSize+len(body)), requestID, 0, opQuery)
	return append(msg, body...)
}

// rawConn is a bare TCP client for protocol-level tests.
type rawConn struct {
	t  testing.TB
	nc net.Conn
}

func dialRaw(t testing.TB, srv *Server) *rawConn {
	t.Helper()
	nc, err := net.Dial("tcp", srv.ln.Addr().String())
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { nc.Close() })
	return &rawConn{t: t, nc: nc}
}

func (c *rawConn) send(msg []byte) {
	c.t.Helper()
	if _, err := c.nc.Write(msg); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// rawReply is a decoded server reply.
type rawReply struct {
	header header
	flags  uint32
	doc    bson.D
}

// recv reads one reply; it fails the test on timeout or a closed
// connection.
func (c *rawConn) recv() rawReply {
	c.t.Helper()
	r, err := c.tryRecv(5 * time.Second)
	if err != nil {
		c.t.Fatalf("reading reply: %v", err)
	}
	return r
}

func (c *rawConn) tryRecv(timeout time.Duration) (rawReply, error) {
	c.nc.SetReadDeadline(time.Now().Add(timeout))
	var hb [headerSize]byte
	if _, err := io.ReadFull(c.nc, hb[:]); err != nil {
		return rawReply{}, err
	}
	h := parseHeader(hb[:])
	rest := make([]byte, int(h.length)-headerSize)
	if _, err := io.ReadFull(c.nc, rest); err != nil {
		return rawReply{}, err
	}
	r := rawReply{header: h}
	var docBytes []byte
	switch h.opCode {
	case opMsg:
		r.flags = binary.LittleEndian.Uint32(rest)
		docBytes = rest[5:]
		if r.flags&flagChecksumPresent != 0 {
			full := append(hb[:], rest...)
			n := len(full) - 4
			if crc32.Checksum(full[:n], castagnoli) != binary.LittleEndian.Uint32(full[n:]) {
				c.t.Fatalf("reply checksum mismatch")
			}
			docBytes = docBytes[:len(docBytes)-4]
		}
	case opReply:
		r.flags = binary.LittleEndian.Uint32(rest)
		docBytes = rest[20:]
	default:
		c.t.Fatalf("unexpected reply opcode %d", h.opCode)
	}
	doc, err := value.Decode(docBytes)
	if err != nil {
		c.t.Fatalf("decoding reply: %v", err)
	}
	r.doc = doc
	return r, nil
}

// expectClosed asserts the server closes the connection.
func (c *rawConn) expectClosed() {
	c.t.Helper()
	c.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	var b [1]byte
	n, err := c.nc.Read(b[:])
	if err == nil {
		c.t.Fatalf("connection still open, read %d bytes", n)
	}
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		c.t.Fatalf("connection not closed within 5s")
	}
}

func get(d bson.D, key string) any {
	for _, e := range d {
		if e.Key == key {
			return e.Value
		}
	}
	return nil
}
