package wire

import (
	"context"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// malformedDoc returns a valid {_id: 1, <field>} document with one byte
// sequence changed, for the cases the driver passes through untouched as
// bson.Raw.
func malformedDoc(t *testing.T, field bson.E, corrupt func(b []byte) []byte) bson.Raw {
	t.Helper()
	return bson.Raw(corrupt(mustEncode(t, bson.D{{Key: "_id", Value: int32(1)}, field})))
}

// Every malformed document is refused with mongod's validateBSON error
// before the command runs, and nothing is written.
func TestMalformedBSONRefusedThroughDriver(t *testing.T) {
	srv := startTestServer(t, Options{})
	client := connectDriver(t, srv)
	ctx := context.Background()
	coll := client.Database("test").Collection("c")

	lastByteOfValue := func(b []byte) int { return len(b) - 2 }
	tests := []struct {
		name    string
		doc     bson.Raw
		code    int32
		codeNm  string
		message string
		// inBody is the message when the document is inside a command
		// body instead (default: message with the path under documents.0
		// and no _id).
		inBody string
	}{
		{"string without its NUL", malformedDoc(t, bson.E{Key: "s", Value: "abc"}, func(b []byte) []byte {
			b[lastByteOfValue(b)] = 'x'
			return b
		}), mongoerr.InvalidBSON, "InvalidBSON", "Not null terminated string in element with field name 's' in object with _id: 1", ""},
		{"string length past the document", malformedDoc(t, bson.E{Key: "s", Value: "abc"}, func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[len(b)-9:], 100)
			return b
		}), mongoerr.InvalidBSON, "InvalidBSON", "BSON size is larger than buffer size in element with field name 's' in object with _id: 1", ""},
		{"bool byte 2", malformedDoc(t, bson.E{Key: "flag", Value: true}, func(b []byte) []byte {
			b[lastByteOfValue(b)] = 2
			return b
		}), mongoerr.InvalidBSON, "InvalidBSON", "BSON bool is neither false nor true in element with field name 'flag' in object with _id: 1", ""},
		{"nested length disagrees", malformedDoc(t, bson.E{Key: "sub", Value: bson.D{{Key: "n", Value: int32(5)}}}, func(b []byte) []byte {
			at := len(b) - 1 - 12 // the sub-document's length
			binary.LittleEndian.PutUint32(b[at:], 13)
			return b
		}), mongoerr.InvalidBSON, "InvalidBSON", "incorrect BSON length in element with field name 'sub.n' in object with _id: 1", ""},
		{"binData length past the document", malformedDoc(t, bson.E{Key: "bin", Value: bson.Binary{Data: []byte{1, 2, 3}}}, func(b []byte) []byte {
			binary.LittleEndian.PutUint32(b[len(b)-9:], 1<<20)
			return b
		}), mongoerr.InvalidBSON, "InvalidBSON", "BSON size is larger than buffer size in element with field name 'bin' in object with _id: 1", ""},
		{"unknown element type", malformedDoc(t, bson.E{Key: "n", Value: nil}, func(b []byte) []byte {
			b[len(b)-4] = 0x42
			return b
		}), mongoerr.InvalidBSON, "InvalidBSON", "Unrecognized BSON type 66 in element with field name 'n' in object with _id: 1", ""},
		{"nesting past 200 levels", deepDoc(t, 201), mongoerr.Overflow, "Overflow",
			"BSONObj exceeds maximum nested object depth in element with field name '" + strings.Repeat("a.", 200) + "a' in object with _id: 1",
			// The body's documents array and the document in it take two
			// of the 200 levels.
			"BSONObj exceeds maximum nested object depth in element with field name 'documents.0." + strings.Repeat("a.", 198) + "a' in object with unknown _id"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// The driver checks the framing of a bson.Raw it sends as a
			// document sequence (insertOne) but not the bytes of a whole
			// bson.Raw command; a sequence document is named by its _id, a
			// body's are not.
			if _, err := coll.InsertOne(ctx, tc.doc); !isMarshalError(err) {
				wantCommandError(t, err, tc.code, tc.codeNm, tc.message)
			}
			err := client.Database("test").RunCommand(ctx, rawInsert(t, "c", tc.doc)).Err()
			msg := tc.inBody
			if msg == "" {
				msg = strings.Replace(tc.message, "field name '", "field name 'documents.0.", 1)
				msg = strings.Replace(msg, "_id: 1", "unknown _id", 1)
			}
			wantCommandError(t, err, tc.code, tc.codeNm, msg)
		})
	}
	if n, err := coll.CountDocuments(ctx, bson.D{}); err != nil || n != 0 {
		t.Fatalf("after refused inserts: %d documents, err %v", n, err)
	}

	// Inside a command body the path starts at the command's field, and
	// the body has no _id.
	bad := mustEncode(t, bson.D{{Key: "find", Value: "c"}, {Key: "filter", Value: bson.D{{Key: "flag", Value: true}}}})
	bad[len(bad)-3] = 2
	err := client.Database("test").RunCommand(ctx, bson.Raw(bad)).Err()
	wantCommandError(t, err, mongoerr.InvalidBSON, "InvalidBSON", "BSON bool is neither false nor true in element with field name 'filter.flag' in object with unknown _id")

	// The deepest nesting mongod accepts in a message goes through to the
	// engine, which applies its own storage limit (180 levels).
	_, err = coll.InsertOne(ctx, deepDoc(t, 200))
	var we mongo.WriteException
	if !errors.As(err, &we) || len(we.WriteErrors) != 1 || we.WriteErrors[0].Code != mongoerr.Overflow ||
		we.WriteErrors[0].Message != "cannot insert document because it exceeds 180 levels of nesting" {
		t.Fatalf("200 levels: %v", err)
	}
}

func isMarshalError(err error) bool {
	var me mongo.MarshalError
	return errors.As(err, &me)
}

// rawInsert is {insert: coll, documents: [doc]} as raw bytes, doc
// included as it is.
func rawInsert(t *testing.T, coll string, doc bson.Raw) bson.Raw {
	t.Helper()
	arr := binary.LittleEndian.AppendUint32(nil, uint32(4+1+2+len(doc)+1))
	arr = append(append(append(arr, 3, '0', 0), doc...), 0)
	head := mustEncode(t, bson.D{{Key: "insert", Value: coll}})
	body := append(head[4:len(head)-1:len(head)-1], 4)
	body = append(append(body, "documents\x00"...), arr...)
	out := binary.LittleEndian.AppendUint32(nil, uint32(4+len(body)+1))
	return bson.Raw(append(append(out, body...), 0))
}

func deepDoc(t *testing.T, depth int) bson.Raw {
	t.Helper()
	var v any = int32(1)
	for range depth {
		v = bson.D{{Key: "a", Value: v}}
	}
	return bson.Raw(mustEncode(t, bson.D{{Key: "_id", Value: int32(1)}, {Key: "a", Value: v}}))
}

// mongod 8.0 checks UTF-8 only in validate({full: true}); a message with
// invalid UTF-8 is accepted, and the bytes come back as they were sent.
func TestInvalidUTF8IsKeptAsMongodKeepsIt(t *testing.T) {
	srv := startTestServer(t, Options{})
	client := connectDriver(t, srv)
	ctx := context.Background()
	coll := client.Database("test").Collection("c")
	raw := malformedDoc(t, bson.E{Key: "s", Value: "ab"}, func(b []byte) []byte {
		b[len(b)-3] = 0xff
		return b
	})
	if _, err := coll.InsertOne(ctx, raw); err != nil {
		t.Fatalf("insert: %v", err)
	}
	got, err := coll.FindOne(ctx, bson.D{}).Raw()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(raw) {
		t.Fatalf("stored %x, sent %x", []byte(got), []byte(raw))
	}
}

// What the driver cannot send: a message whose body's own length is wrong,
// and a legacy OP_QUERY handshake with a bad document.
func TestMalformedBSONOverRawWire(t *testing.T) {
	srv := startTestServer(t, Options{})
	c := dialRaw(t, srv)
	ping := mustEncode(t, bson.D{{Key: "ping", Value: int32(1)}, {Key: "$db", Value: "admin"}})

	long := append([]byte(nil), ping...)
	binary.LittleEndian.PutUint32(long, uint32(len(ping)+8))
	c.send((&opMsgBuilder{requestID: 1}).body(long).bytes())
	r := c.recv()
	wantReply(t, r.doc, mongoerr.InvalidBSON, "Incorrect BSON length 38 should be less or equal to 30 in element with field name '?' in object with unknown _id")

	bad := append([]byte(nil), ping...)
	bad[len(bad)-1] = 1
	c.send((&opMsgBuilder{requestID: 2}).body(bad).bytes())
	wantReply(t, c.recv().doc, mongoerr.InvalidBSON, "BSON object not terminated with EOO in element with field name '?' in object with unknown _id")

	// A document of a kind-1 sequence is checked like the body.
	insert := mustEncode(t, bson.D{{Key: "insert", Value: "c"}, {Key: "$db", Value: "test"}})
	doc := mustEncode(t, bson.D{{Key: "_id", Value: "x"}, {Key: "ok", Value: false}})
	doc[len(doc)-2] = 3
	c.send((&opMsgBuilder{requestID: 3}).body(insert).sequence("documents", doc).bytes())
	wantReply(t, c.recv().doc, mongoerr.InvalidBSON, `BSON bool is neither false nor true in element with field name 'ok' in object with _id: \"x\"`)

	isMaster := mustEncode(t, bson.D{{Key: "isMaster", Value: int32(1)}, {Key: "b", Value: true}})
	isMaster[len(isMaster)-2] = 5
	c.send(opQueryBytes(4, "admin.$cmd", isMaster))
	wantReply(t, c.recv().doc, mongoerr.InvalidBSON, "Client Error: bad object in message: BSON bool is neither false nor true in element with field name 'b' in object with unknown _id")

	// The connection is still usable.
	c.send((&opMsgBuilder{requestID: 5}).body(ping).bytes())
	if r := c.recv(); get(r.doc, "ok") != 1.0 {
		t.Fatalf("ping after refused messages: %v", r.doc)
	}
}

func wantReply(t *testing.T, reply bson.D, code int32, msg string) {
	t.Helper()
	if get(reply, "ok") != 0.0 || get(reply, "code") != code || get(reply, "errmsg") != msg {
		t.Fatalf("reply %v\nwant code %d errmsg %q", reply, code, msg)
	}
}
