package sandbox

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"

	"github.com/schemalab/schemalab/sandbox/wire"
)

// recordingConn stands in for the connection to the server: it keeps what
// the guard passes on and serves canned server bytes.
type recordingConn struct {
	net.Conn
	written  bytes.Buffer
	fromPeer bytes.Buffer
}

func (c *recordingConn) Write(p []byte) (int, error) { return c.written.Write(p) }
func (c *recordingConn) Read(p []byte) (int, error)  { return c.fromPeer.Read(p) }

func guarded(prefix string) (*guardedConn, *recordingConn) {
	rc := &recordingConn{}
	return &guardedConn{Conn: rc, policy: policy{prefix: prefix, unlockable: true}}, rc
}

func mustMarshal(t testing.TB, d bson.D) []byte {
	t.Helper()
	b, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// opMsg builds an OP_MSG: a body and optional kind-1 sequences.
func opMsg(requestID int32, flags uint32, body []byte, seqs ...seq) []byte {
	sections := append([]byte{0}, body...)
	for _, s := range seqs {
		size := 4 + len(s.name) + 1
		for _, d := range s.docs {
			size += len(d)
		}
		sections = append(sections, 1)
		sections = binary.LittleEndian.AppendUint32(sections, uint32(size))
		sections = append(sections, s.name...)
		sections = append(sections, 0)
		for _, d := range s.docs {
			sections = append(sections, d...)
		}
	}
	return frame(requestID, wire.OpMsg, binary.LittleEndian.AppendUint32(nil, flags), sections)
}

type seq struct {
	name string
	docs [][]byte
}

func frame(requestID, opCode int32, parts ...[]byte) []byte {
	size := 16
	for _, p := range parts {
		size += len(p)
	}
	b := binary.LittleEndian.AppendUint32(nil, uint32(size))
	b = binary.LittleEndian.AppendUint32(b, uint32(requestID))
	b = binary.LittleEndian.AppendUint32(b, 0)
	b = binary.LittleEndian.AppendUint32(b, uint32(opCode))
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

func opQuery(requestID int32, ns string, query []byte) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 0)
	b = append(b, ns...)
	b = append(b, 0)
	b = binary.LittleEndian.AppendUint32(b, 0)
	b = binary.LittleEndian.AppendUint32(b, 0xffffffff)
	return frame(requestID, wire.OpQuery, b, query)
}

// readReply reads one OP_MSG the guard answered with.
func readReply(t *testing.T, c net.Conn) (responseTo int32, doc bson.D) {
	t.Helper()
	var hdr [16]byte
	if _, err := io.ReadFull(c, hdr[:]); err != nil {
		t.Fatalf("no reply: %v", err)
	}
	size := int(binary.LittleEndian.Uint32(hdr[:]))
	body := make([]byte, size-16)
	if _, err := io.ReadFull(c, body); err != nil {
		t.Fatal(err)
	}
	if op := int32(binary.LittleEndian.Uint32(hdr[12:])); op != wire.OpMsg {
		t.Fatalf("reply opcode %d", op)
	}
	if err := bson.Unmarshal(body[5:], &doc); err != nil {
		t.Fatal(err)
	}
	return int32(binary.LittleEndian.Uint32(hdr[8:])), doc
}

func lookupString(d bson.D, k string) string {
	for _, e := range d {
		if e.Key == k {
			s, _ := e.Value.(string)
			return s
		}
	}
	return ""
}

func TestGuardPassesAllowedMessagesUnchanged(t *testing.T) {
	gc, rc := guarded("schemalab_")
	msg := opMsg(7, 0, mustMarshal(t, cmdOn("schemalab_x", e("find", "c"))))
	if n, err := gc.Write(msg); err != nil || n != len(msg) {
		t.Fatalf("Write = %d, %v", n, err)
	}
	if !bytes.Equal(rc.written.Bytes(), msg) {
		t.Error("the allowed message was not passed on byte for byte")
	}
}

func TestGuardAnswersRefusedCommands(t *testing.T) {
	gc, rc := guarded("schemalab_")
	msg := opMsg(42, 0, mustMarshal(t, cmdOn("important", e("dropDatabase", 1))))
	if _, err := gc.Write(msg); err != nil {
		t.Fatal(err)
	}
	if rc.written.Len() != 0 {
		t.Fatal("a refused command reached the server")
	}
	to, doc := readReply(t, gc)
	if to != 42 {
		t.Errorf("responseTo %d, want 42", to)
	}
	want := "schemalab: refusing `dropDatabase` on database `important`: outside the sandbox prefix `schemalab_` (pass --unsafe-any-db to allow)"
	if lookupString(doc, "errmsg") != want || lookupString(doc, "codeName") != "Unauthorized" {
		t.Errorf("reply %v", doc)
	}
}

// The driver writes a message in one call, but a stream may be cut
// anywhere: byte by byte, or several messages at once.
func TestGuardReadsAnyCutOfTheStream(t *testing.T) {
	ok1 := opMsg(1, 0, mustMarshal(t, cmdOn("schemalab_x", e("insert", "c"), e("documents", A{D{e("a", 1)}}))))
	bad := opMsg(2, 0, mustMarshal(t, cmdOn("important", e("insert", "people"), e("documents", A{D{e("pwned", true)}}))))
	ok2 := opMsg(3, 0, mustMarshal(t, cmdOn("schemalab_x", e("find", "c"))))
	stream := bytes.Join([][]byte{ok1, bad, ok2}, nil)

	for _, step := range []int{1, 3, 17, len(stream)} {
		gc, rc := guarded("schemalab_")
		for i := 0; i < len(stream); i += step {
			// The driver reuses its buffer once Write returns, so the
			// guard must keep no part of it.
			buf := append([]byte(nil), stream[i:min(i+step, len(stream))]...)
			if _, err := gc.Write(buf); err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			for j := range buf {
				buf[j] = 0xff
			}
		}
		if want := append(append([]byte(nil), ok1...), ok2...); !bytes.Equal(rc.written.Bytes(), want) {
			t.Errorf("step %d: passed on %d bytes, want the two allowed messages (%d)", step, rc.written.Len(), len(want))
		}
		if to, _ := readReply(t, gc); to != 2 {
			t.Errorf("step %d: reply to %d", step, to)
		}
	}
}

// Document sequences are folded into the command as the server folds
// them, so a pipeline sent as a sequence is checked like any other.
func TestGuardChecksDocumentSequences(t *testing.T) {
	gc, rc := guarded("schemalab_")
	body := mustMarshal(t, cmdOn("schemalab_x", e("aggregate", "c"), e("cursor", D{})))
	stage := mustMarshal(t, D{e("$out", D{e("db", "important"), e("coll", "x")})})
	if _, err := gc.Write(opMsg(5, 0, body, seq{"pipeline", [][]byte{stage}})); err != nil {
		t.Fatal(err)
	}
	if rc.written.Len() != 0 {
		t.Fatal("$out in a document sequence reached the server")
	}
	if _, doc := readReply(t, gc); !strings.Contains(lookupString(doc, "errmsg"), "`important`") {
		t.Errorf("reply %v", doc)
	}
	insert := mustMarshal(t, cmdOn("schemalab_x", e("insert", "c")))
	docs := seq{"documents", [][]byte{mustMarshal(t, D{e("a", 1)}), mustMarshal(t, D{e("b", 2)})}}
	if _, err := gc.Write(opMsg(6, 0, insert, docs)); err != nil || rc.written.Len() == 0 {
		t.Errorf("an insert with a document sequence was not passed on: %v", err)
	}
}

// The guard does not build an insert's documents (they are data), but it
// still refuses what the server could not read among them, and an insert
// whose body names another database, however its documents are sent.
func TestGuardValidatesInsertedDocuments(t *testing.T) {
	good := mustMarshal(t, D{e("a", 1)})
	badBool := mustMarshal(t, D{e("ok", true)})
	badBool[len(badBool)-2] = 2 // a boolean byte of 2
	for _, tc := range []struct {
		name string
		db   string
		docs [][]byte
		want string
	}{
		{"a boolean of 2 in the second document", "schemalab_x", [][]byte{good, badBool}, "cannot read"},
		{"a document cut short", "schemalab_x", [][]byte{good, good[:len(good)-1]}, "cannot read"},
		{"valid documents for another database", "important", [][]byte{good, good}, "`important`"},
	} {
		// As a document sequence (the driver's InsertMany), and inside
		// the body (the shell's insert, a command it builds).
		inSequence := opMsg(9, 0, mustMarshal(t, cmdOn(tc.db, e("insert", "c"))), seq{"documents", tc.docs})
		idx, body := bsoncore.AppendDocumentStart(nil)
		body = bsoncore.AppendStringElement(body, "insert", "c")
		aidx, body := bsoncore.AppendArrayElementStart(body, "documents")
		for i, d := range tc.docs {
			body = bsoncore.AppendDocumentElement(body, strconv.Itoa(i), d)
		}
		body, _ = bsoncore.AppendArrayEnd(body, aidx)
		body = bsoncore.AppendStringElement(body, "$db", tc.db)
		body, _ = bsoncore.AppendDocumentEnd(body, idx)
		for form, msg := range map[string][]byte{"sequence": inSequence, "body": opMsg(9, 0, body)} {
			gc, rc := guarded("schemalab_")
			if _, err := gc.Write(msg); err != nil {
				t.Fatalf("%s (%s): %v", tc.name, form, err)
			}
			if rc.written.Len() != 0 {
				t.Errorf("%s (%s): reached the server", tc.name, form)
			}
			if _, doc := readReply(t, gc); !strings.Contains(lookupString(doc, "errmsg"), tc.want) {
				t.Errorf("%s (%s): reply %v, want one about %q", tc.name, form, doc, tc.want)
			}
		}
	}
}

func TestGuardBreaksTheConnectionOnWhatItCannotAnswer(t *testing.T) {
	hello := mustMarshal(t, D{e("isMaster", 1), e("helloOk", true)})
	for _, tc := range []struct {
		name string
		msg  []byte
		why  string
	}{
		{"compressed", frame(1, wire.OpCompressed, binary.LittleEndian.AppendUint32(nil, wire.OpMsg), []byte{0, 0, 0, 0, 2}, []byte("xx")), "compressed"},
		{"legacy OP_QUERY command", opQuery(1, "important.$cmd", mustMarshal(t, D{e("dropDatabase", 1)})), "OP_QUERY"},
		{"legacy OP_QUERY wrapping a command", opQuery(1, "admin.$cmd", mustMarshal(t, D{e("$query", D{e("dropDatabase", 1)})})), "OP_QUERY"},
		{"legacy OP_QUERY find", opQuery(1, "important.people", mustMarshal(t, D{})), "OP_QUERY"},
		{"legacy OP_INSERT", frame(1, 2002, []byte{0, 0, 0, 0}, []byte("important.people\x00"), mustMarshal(t, D{e("a", 1)})), "legacy opcode 2002"},
		{"unacknowledged refused write", opMsg(1, 2, mustMarshal(t, cmdOn("important", e("insert", "people"), e("documents", A{D{}})))), "`important`"},
		{"length under a header", []byte{4, 0, 0, 0}, "outside the wire protocol's bounds"},
		{"length over the maximum", binary.LittleEndian.AppendUint32(nil, 48_000_001), "outside the wire protocol's bounds"},
		{"unknown OP_MSG flag", opMsg(1, 1<<3, mustMarshal(t, cmdOn("schemalab_x", e("find", "c")))), "cannot read"},
		{"unknown section kind", frame(1, wire.OpMsg, []byte{0, 0, 0, 0}, []byte{0}, mustMarshal(t, cmdOn("schemalab_x", e("find", "c"))), []byte{7}), ""},
	} {
		gc, rc := guarded("schemalab_")
		_, err := gc.Write(tc.msg)
		if tc.name == "unknown section kind" {
			// The server would answer with an error; the guard answers
			// in its place and sends nothing.
			if err != nil || rc.written.Len() != 0 {
				t.Errorf("%s: err %v, passed on %d bytes", tc.name, err, rc.written.Len())
			}
			continue
		}
		if !errors.Is(err, ErrOutsideSandbox) || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%s: Write error %v, want a refusal about %q", tc.name, err, tc.why)
		}
		if rc.written.Len() != 0 {
			t.Errorf("%s: %d bytes reached the server", tc.name, rc.written.Len())
		}
		if _, err := gc.Write(opMsg(2, 0, mustMarshal(t, cmdOn("schemalab_x", e("find", "c"))))); err == nil {
			t.Errorf("%s: the connection kept working after a refusal it could not answer", tc.name)
		}
	}
	gc, rc := guarded("schemalab_")
	if _, err := gc.Write(opQuery(1, "admin.$cmd", hello)); err != nil || rc.written.Len() == 0 {
		t.Errorf("the OP_QUERY handshake was not passed on: %v", err)
	}
}

// A reply of the guard's never lands inside a message of the server's.
func TestGuardRepliesOnlyBetweenServerMessages(t *testing.T) {
	gc, rc := guarded("schemalab_")
	serverMsg := opMsg(99, 0, mustMarshal(t, D{e("ok", 1.0)}))
	rc.fromPeer.Write(serverMsg)
	head := make([]byte, 10)
	if _, err := io.ReadFull(gc, head); err != nil {
		t.Fatal(err)
	}
	if _, err := gc.Write(opMsg(3, 0, mustMarshal(t, cmdOn("important", e("find", "c"))))); err != nil {
		t.Fatal(err)
	}
	rest := make([]byte, len(serverMsg)-10)
	if _, err := io.ReadFull(gc, rest); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(append(head, rest...), serverMsg) {
		t.Fatal("the server's message was interleaved with the guard's reply")
	}
	if to, _ := readReply(t, gc); to != 3 {
		t.Errorf("reply to %d", to)
	}
}
