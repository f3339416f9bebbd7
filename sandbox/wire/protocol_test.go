package wire

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

func TestDecodeFoldsDocumentSequencesIntoBody(t *testing.T) {
	body := mustEncode(t, bson.D{{Key: "insert", Value: "books"}, {Key: "ordered", Value: true}, {Key: "$db", Value: "shop"}})
	d1 := mustEncode(t, bson.D{{Key: "_id", Value: int32(1)}})
	d2 := mustEncode(t, bson.D{{Key: "_id", Value: int32(2)}, {Key: "title", Value: "Dune"}})
	// The sequence may come before or after the body.
	for name, b := range map[string]*opMsgBuilder{
		"sequence first": new(opMsgBuilder).sequence("documents", d1, d2).body(body),
		"body first":     new(opMsgBuilder).body(body).sequence("documents", d1, d2),
	} {
		t.Run(name, func(t *testing.T) {
			req, err := decodeMessage(b.bytes())
			if err != nil {
				t.Fatal(err)
			}
			if req.replyErr != nil {
				t.Fatalf("reply error %v", req.replyErr)
			}
			want := bson.D{
				{Key: "insert", Value: "books"}, {Key: "ordered", Value: true}, {Key: "$db", Value: "shop"},
				{Key: "documents", Value: bson.A{
					bson.D{{Key: "_id", Value: int32(1)}},
					bson.D{{Key: "_id", Value: int32(2)}, {Key: "title", Value: "Dune"}},
				}},
			}
			if !reflect.DeepEqual(req.cmd, want) {
				t.Fatalf("cmd = %v, want %v", req.cmd, want)
			}
		})
	}
}

func TestDecodeEmptySequenceIsEmptyArray(t *testing.T) {
	body := mustEncode(t, bson.D{{Key: "insert", Value: "c"}, {Key: "$db", Value: "x"}})
	req, err := decodeMessage(new(opMsgBuilder).body(body).sequence("documents").bytes())
	if err != nil || req.replyErr != nil {
		t.Fatalf("err %v reply %v", err, req.replyErr)
	}
	if got := get(req.cmd, "documents"); !reflect.DeepEqual(got, bson.A{}) {
		t.Fatalf("documents = %#v", got)
	}
}

func TestDecodeChecksum(t *testing.T) {
	body := mustEncode(t, bson.D{{Key: "ping", Value: int32(1)}, {Key: "$db", Value: "admin"}})
	good := &opMsgBuilder{checksum: true}
	req, err := decodeMessage(good.body(body).bytes())
	if err != nil || req.replyErr != nil {
		t.Fatalf("valid checksum: err %v reply %v", err, req.replyErr)
	}
	if !req.checksummed() || req.cmd[0].Key != "ping" {
		t.Fatalf("unexpected request %+v", req)
	}
	bad := &opMsgBuilder{checksum: true, badSum: true}
	if _, err := decodeMessage(bad.body(body).bytes()); !isClose(err) {
		t.Fatalf("bad checksum: err = %v, want connection close", err)
	}
}

func isClose(err error) bool {
	var ce *errCloseConnection
	return errors.As(err, &ce)
}

func TestDecodeErrorsAnsweredLikeMongod(t *testing.T) {
	ping := func(t *testing.T) []byte {
		return mustEncode(t, bson.D{{Key: "ping", Value: int32(1)}, {Key: "$db", Value: "admin"}})
	}
	doc := mustEncode(t, bson.D{{Key: "a", Value: int32(1)}})
	tests := []struct {
		name string
		msg  func(t *testing.T) []byte
		code int32
		msg2 string
	}{
		{"two bodies", func(t *testing.T) []byte { return new(opMsgBuilder).body(ping(t)).body(ping(t)).bytes() }, 40430, "Multiple body sections in message"},
		{"unknown section kind", func(t *testing.T) []byte {
			b := new(opMsgBuilder).body(ping(t))
			b.sections = append(b.sections, 7)
			return b.bytes()
		}, 40432, "Unknown section kind 7"},
		{"no body", func(t *testing.T) []byte { return new(opMsgBuilder).sequence("documents", doc).bytes() }, 40587, "OP_MSG messages must have a body"},
		{"duplicate sequence", func(t *testing.T) []byte {
			return new(opMsgBuilder).body(ping(t)).sequence("documents", doc).sequence("documents", doc).bytes()
		}, 40431, "Duplicate document sequence: documents"},
		{"sequence duplicates body field", func(t *testing.T) []byte {
			return new(opMsgBuilder).body(ping(t)).sequence("ping", doc).bytes()
		}, 40433, "Duplicate field between body and document sequence ping"},
		{"truncated body", func(t *testing.T) []byte {
			p := ping(t)
			return new(opMsgBuilder).body(p[:len(p)-3]).bytes()
		}, mongoerr.InvalidBSON, ""},
		{"corrupt element", func(t *testing.T) []byte {
			p := ping(t)
			p[4] = 0x77 // unknown BSON type
			return new(opMsgBuilder).body(p).bytes()
		}, mongoerr.InvalidBSON, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := decodeMessage(tc.msg(t))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if req.replyErr == nil {
				t.Fatalf("no error reply; cmd %v", req.cmd)
			}
			if code := get(req.replyErr, "code"); code != tc.code {
				t.Fatalf("code = %v, want %d (%v)", code, tc.code, req.replyErr)
			}
			if tc.msg2 != "" && get(req.replyErr, "errmsg") != tc.msg2 {
				t.Fatalf("errmsg = %q, want %q", get(req.replyErr, "errmsg"), tc.msg2)
			}
		})
	}
}

func TestDecodeClosesConnectionOnBrokenFrames(t *testing.T) {
	ping := mustEncode(t, bson.D{{Key: "ping", Value: int32(1)}, {Key: "$db", Value: "admin"}})
	withOp := func(op int32) []byte {
		msg := appendHeader(nil, headerSize+4, 1, 0, op)
		return append(msg, 0, 0, 0, 0)
	}
	tests := map[string][]byte{
		"shorter than header": {1, 2, 3},
		"length mismatch": func() []byte {
			m := new(opMsgBuilder).body(ping).bytes()
			binary.LittleEndian.PutUint32(m, uint32(len(m)+1))
			return m
		}(),
		"illegal required flag": (&opMsgBuilder{flags: 1 << 3}).body(ping).bytes(),
		"OP_MSG without flags":  appendHeader(nil, headerSize, 1, 0, opMsg),
		"OP_COMPRESSED":         withOp(opCompressed),
		"unknown opcode":        withOp(9999),
		"OP_REPLY from client":  withOp(opReply),
	}
	for name, msg := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := decodeMessage(msg); !isClose(err) {
				t.Fatalf("err = %v, want connection close", err)
			}
		})
	}
	// Optional (high) flag bits are ignored, exhaustAllowed among them.
	req, err := decodeMessage((&opMsgBuilder{flags: flagExhaustAllowed | 1<<20}).body(ping).bytes())
	if err != nil || req.replyErr != nil {
		t.Fatalf("optional flags: err %v reply %v", err, req.replyErr)
	}
}

func TestOpMsgOverTheWire(t *testing.T) {
	srv := startTestServer(t, Options{})
	c := dialRaw(t, srv)
	ping := mustEncode(t, bson.D{{Key: "ping", Value: int32(1)}, {Key: "$db", Value: "admin"}})

	t.Run("reply answers the request id", func(t *testing.T) {
		c.send((&opMsgBuilder{requestID: 41}).body(ping).bytes())
		r := c.recv()
		if r.header.responseTo != 41 || r.header.opCode != opMsg || get(r.doc, "ok") != 1.0 {
			t.Fatalf("reply %+v", r)
		}
	})
	t.Run("moreToCome gets no reply", func(t *testing.T) {
		c.send((&opMsgBuilder{requestID: 50, flags: flagMoreToCome}).body(ping).bytes())
		c.send((&opMsgBuilder{requestID: 51}).body(ping).bytes())
		if r := c.recv(); r.header.responseTo != 51 {
			t.Fatalf("reply to %d, want 51 only", r.header.responseTo)
		}
	})
	t.Run("checksummed request gets checksummed reply", func(t *testing.T) {
		c.send((&opMsgBuilder{requestID: 60, checksum: true}).body(ping).bytes())
		r := c.recv() // recv verifies the CRC-32C
		if r.flags&flagChecksumPresent == 0 || get(r.doc, "ok") != 1.0 {
			t.Fatalf("reply %+v", r)
		}
	})
	t.Run("parse error is answered and the connection stays usable", func(t *testing.T) {
		c.send((&opMsgBuilder{requestID: 70}).body(ping).body(ping).bytes())
		if r := c.recv(); get(r.doc, "code") != int32(40430) {
			t.Fatalf("reply %v", r.doc)
		}
		c.send((&opMsgBuilder{requestID: 71}).body(ping).bytes())
		if r := c.recv(); get(r.doc, "ok") != 1.0 {
			t.Fatalf("reply %v", r.doc)
		}
	})
	t.Run("missing $db", func(t *testing.T) {
		c.send((&opMsgBuilder{requestID: 80}).body(mustEncode(t, bson.D{{Key: "ping", Value: int32(1)}})).bytes())
		r := c.recv()
		if get(r.doc, "code") != int32(40571) || get(r.doc, "errmsg") != "OP_MSG requests require a $db argument" {
			t.Fatalf("reply %v", r.doc)
		}
	})
}

func TestOpQueryHandshake(t *testing.T) {
	srv := startTestServer(t, Options{})
	for _, name := range []string{"isMaster", "ismaster", "hello"} {
		t.Run(name, func(t *testing.T) {
			c := dialRaw(t, srv)
			q := mustEncode(t, bson.D{{Key: name, Value: int32(1)}, {Key: "helloOk", Value: true}})
			c.send(opQueryBytes(7, "admin.$cmd", q))
			r := c.recv()
			if r.header.opCode != opReply || r.header.responseTo != 7 || r.flags != 0 {
				t.Fatalf("header %+v flags %d", r.header, r.flags)
			}
			primaryField := "ismaster"
			if name == "hello" {
				primaryField = "isWritablePrimary"
			}
			if get(r.doc, primaryField) != true || get(r.doc, "helloOk") != true ||
				get(r.doc, "maxWireVersion") != int32(25) || get(r.doc, "ok") != 1.0 {
				t.Fatalf("reply %v", r.doc)
			}
		})
	}
	t.Run("wrapped in $query", func(t *testing.T) {
		c := dialRaw(t, srv)
		q := mustEncode(t, bson.D{{Key: "$query", Value: bson.D{{Key: "isMaster", Value: int32(1)}}}})
		c.send(opQueryBytes(8, "admin.$cmd", q))
		if r := c.recv(); get(r.doc, "ismaster") != true {
			t.Fatalf("reply %v", r.doc)
		}
	})
}

func TestOpQueryRemovedForEverythingElse(t *testing.T) {
	srv := startTestServer(t, Options{})
	c := dialRaw(t, srv)

	c.send(opQueryBytes(1, "test.$cmd", mustEncode(t, bson.D{{Key: "find", Value: "books"}})))
	r := c.recv()
	want := "Unsupported OP_QUERY command: find. The client driver may require an upgrade. For more details see https://dochub.mongodb.org/core/legacy-opcode-removal"
	if get(r.doc, "code") != int32(352) || get(r.doc, "codeName") != "UnsupportedOpQueryCommand" || get(r.doc, "errmsg") != want {
		t.Fatalf("command reply %v", r.doc)
	}

	c.send(opQueryBytes(2, "test.books", mustEncode(t, bson.D{{Key: "title", Value: "Dune"}})))
	r = c.recv()
	if r.flags != replyFlagErrSet || get(r.doc, "code") != int32(5739101) ||
		get(r.doc, "$err") != "OP_QUERY is no longer supported. The client driver may require an upgrade. For more details see https://dochub.mongodb.org/core/legacy-opcode-removal" {
		t.Fatalf("query reply flags %d %v", r.flags, r.doc)
	}

	getMore := appendHeader(nil, headerSize+4, 3, 0, opGetMore)
	c.send(append(getMore, 0, 0, 0, 0))
	if r := c.recv(); r.flags != replyFlagErrSet || !strings.HasPrefix(get(r.doc, "$err").(string), "OP_GET_MORE is no longer supported") {
		t.Fatalf("getMore reply %v", r.doc)
	}

	// Legacy writes are dropped without a reply; the connection goes on.
	insert := appendHeader(nil, headerSize+4, 4, 0, opInsert)
	c.send(append(insert, 0, 0, 0, 0))
	c.send((&opMsgBuilder{requestID: 5}).body(mustEncode(t, bson.D{{Key: "ping", Value: int32(1)}, {Key: "$db", Value: "admin"}})).bytes())
	if r := c.recv(); r.header.responseTo != 5 {
		t.Fatalf("reply to %d", r.header.responseTo)
	}
}

func TestBadFramesCloseTheConnection(t *testing.T) {
	srv := startTestServer(t, Options{partialMessageTimeout: 300 * time.Millisecond})
	lengthOnly := func(n uint32) []byte {
		b := binary.LittleEndian.AppendUint32(nil, n)
		return append(b, make([]byte, 12)...)
	}
	tests := map[string][]byte{
		"over maxMessageSizeBytes": lengthOnly(vocab.MaxMessageSize + 1),
		"negative length":          lengthOnly(0x80000000),
		"length below header":      lengthOnly(15),
		"unknown opcode":           append(appendHeader(nil, headerSize+4, 1, 0, 1234), 1, 2, 3, 4),
		"compressed":               append(appendHeader(nil, headerSize+4, 1, 0, opCompressed), 1, 2, 3, 4),
		"half-sent message":        appendHeader(nil, 100, 1, 0, opMsg),
	}
	for name, msg := range tests {
		t.Run(name, func(t *testing.T) {
			c := dialRaw(t, srv)
			c.send(msg)
			c.expectClosed()
		})
	}
	// The server is unharmed.
	c := dialRaw(t, srv)
	c.send((&opMsgBuilder{requestID: 1}).body(mustEncode(t, bson.D{{Key: "ping", Value: int32(1)}, {Key: "$db", Value: "admin"}})).bytes())
	if r := c.recv(); get(r.doc, "ok") != 1.0 {
		t.Fatalf("reply %v", r.doc)
	}
}

func TestGarbageNeverCrashesOrHangs(t *testing.T) {
	srv := startTestServer(t, Options{partialMessageTimeout: 200 * time.Millisecond})
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 50 {
		c := dialRaw(t, srv)
		n := 1 + rng.IntN(200)
		b := make([]byte, n)
		for j := range b {
			b[j] = byte(rng.UintN(256))
		}
		if i%2 == 0 && n >= 16 {
			// A plausible length so the garbage reaches the decoder.
			binary.LittleEndian.PutUint32(b, uint32(n))
			binary.LittleEndian.PutUint32(b[12:], opMsg)
		}
		c.send(b)
		// Either an error reply or a close, within the partial timeout.
		answered := false
		for {
			_, err := c.tryRecv(time.Second)
			if err == nil {
				answered = true
				continue
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() && !answered {
				t.Fatalf("garbage %x: server neither answered nor closed", b)
			}
			break
		}
	}
	c := dialRaw(t, srv)
	c.send((&opMsgBuilder{requestID: 1}).body(mustEncode(t, bson.D{{Key: "ping", Value: int32(1)}, {Key: "$db", Value: "admin"}})).bytes())
	if r := c.recv(); get(r.doc, "ok") != 1.0 {
		t.Fatalf("reply %v", r.doc)
	}
}

func TestIdleConnectionsStayOpen(t *testing.T) {
	srv := startTestServer(t, Options{partialMessageTimeout: 100 * time.Millisecond})
	c := dialRaw(t, srv)
	time.Sleep(300 * time.Millisecond)
	c.send((&opMsgBuilder{requestID: 1}).body(mustEncode(t, bson.D{{Key: "ping", Value: int32(1)}, {Key: "$db", Value: "admin"}})).bytes())
	if r := c.recv(); get(r.doc, "ok") != 1.0 {
		t.Fatalf("reply %v", r.doc)
	}
}
