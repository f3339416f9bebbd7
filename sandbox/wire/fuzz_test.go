package wire

import (
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

func seedCommands(t testing.TB) [][]byte {
	docs := []bson.D{
		{{Key: "ping", Value: int32(1)}, {Key: "$db", Value: "admin"}},
		{{Key: "hello", Value: int32(1)}, {Key: "helloOk", Value: true}, {Key: "client", Value: bson.D{{Key: "application", Value: bson.D{{Key: "name", Value: "fuzz"}}}}}, {Key: "$db", Value: "admin"}},
		{{Key: "buildInfo", Value: int32(1)}, {Key: "$db", Value: "admin"}},
		{{Key: "getParameter", Value: "*"}, {Key: "$db", Value: "admin"}},
		{{Key: "getLog", Value: "startupWarnings"}, {Key: "$db", Value: "admin"}},
		{{Key: "insert", Value: "books"}, {Key: "documents", Value: bson.A{bson.D{{Key: "_id", Value: int32(1)}, {Key: "tags", Value: bson.A{"a", "b"}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "filter", Value: bson.D{{Key: "tags", Value: bson.D{{Key: "$in", Value: bson.A{"a"}}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "update", Value: "books"}, {Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{}}, {Key: "u", Value: bson.D{{Key: "$push", Value: bson.D{{Key: "tags", Value: "c"}}}}}}}}, {Key: "$db", Value: "shop"}},
		{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$match", Value: bson.D{}}}}}, {Key: "cursor", Value: bson.D{}}, {Key: "$db", Value: "shop"}},
		// maxTimeMS values mongod refuses, and cursors that are gone.
		{{Key: "find", Value: "books"}, {Key: "maxTimeMS", Value: "1"}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "maxTimeMS", Value: int32(-1)}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "maxTimeMS", Value: int64(2147483648)}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "maxTimeMS", Value: 1.5}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "maxTimeMS", Value: nil}, {Key: "$db", Value: "shop"}},
		{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: bson.A{}}, {Key: "cursor", Value: bson.D{}}, {Key: "maxTimeMS", Value: bson.A{int32(1)}}, {Key: "$db", Value: "shop"}},
		{{Key: "aggregate", Value: "books"}, {Key: "pipeline", Value: bson.A{bson.D{{Key: "$lookup", Value: bson.D{{Key: "from", Value: "books"}, {Key: "localField", Value: "tags"}, {Key: "foreignField", Value: "tags"}, {Key: "as", Value: "t"}}}}}}, {Key: "cursor", Value: bson.D{{Key: "batchSize", Value: int32(0)}}}, {Key: "maxTimeMS", Value: int32(1)}, {Key: "$db", Value: "shop"}},
		{{Key: "count", Value: "books"}, {Key: "maxTimeMS", Value: int32(-1)}, {Key: "$db", Value: "shop"}},
		{{Key: "update", Value: "books"}, {Key: "updates", Value: bson.A{bson.D{{Key: "q", Value: bson.D{}}, {Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "a", Value: 1}}}}}}}}, {Key: "maxTimeMS", Value: 0.25}, {Key: "$db", Value: "shop"}},
		{{Key: "find", Value: "books"}, {Key: "batchSize", Value: int32(1)}, {Key: "maxTimeMS", Value: int32(100)}, {Key: "$db", Value: "shop"}},
		{{Key: "getMore", Value: int64(112233)}, {Key: "collection", Value: "books"}, {Key: "maxTimeMS", Value: int32(10)}, {Key: "$db", Value: "shop"}},
		{{Key: "getMore", Value: int64(112233)}, {Key: "collection", Value: "books"}, {Key: "maxTimeMS", Value: "x"}, {Key: "$db", Value: "shop"}},
		{{Key: "killCursors", Value: "books"}, {Key: "cursors", Value: bson.A{int64(112233), "x"}}, {Key: "$db", Value: "shop"}},
	}
	var out [][]byte
	for _, d := range docs {
		out = append(out, mustEncode(t, d))
	}
	return out
}

// FuzzDecodeMessage feeds arbitrary bytes to the message decoder: it must
// never panic, and whatever it accepts must be a command the codec can
// write back.
func FuzzDecodeMessage(f *testing.F) {
	cmds := seedCommands(f)
	f.Add(new(opMsgBuilder).body(cmds[0]).bytes())
	f.Add((&opMsgBuilder{checksum: true}).body(cmds[1]).bytes())
	f.Add(new(opMsgBuilder).body(mustEncode(f, bson.D{{Key: "insert", Value: "c"}, {Key: "$db", Value: "d"}})).sequence("documents", cmds[2], cmds[3]).bytes())
	f.Add(opQueryBytes(1, "admin.$cmd", mustEncode(f, bson.D{{Key: "isMaster", Value: int32(1)}})))
	f.Add([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
	f.Fuzz(func(t *testing.T, msg []byte) {
		req, err := decodeMessage(msg)
		if err != nil {
			if !isClose(err) {
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			return
		}
		if req == nil {
			t.Fatal("nil request without error")
		}
		if req.cmd != nil {
			if _, err := value.Encode(req.cmd); err != nil {
				t.Fatalf("decoded command does not re-encode: %v", err)
			}
		}
		if req.replyErr != nil {
			encodeReplyDoc(req.replyErr)
		}
	})
}

// FuzzDispatch decodes arbitrary bytes as a command document, the way the
// wire layer does, and dispatches it through a real engine. No input may
// panic (the recovered InternalError is reported as a failure here) and
// every reply must be encodable.
func FuzzDispatch(f *testing.F) {
	for _, c := range seedCommands(f) {
		f.Add(c)
	}
	srv := startTestServer(f, Options{Engine: engine.New(engine.Options{})})
	f.Fuzz(func(t *testing.T, raw []byte) {
		cmd, err := value.Decode(raw)
		if err != nil {
			return // the decoder answers InvalidBSON before dispatch
		}
		reply := srv.dispatch(&clientConn{id: 1, remote: "127.0.0.1:1"}, cmd)
		if msg, _ := get(reply, "errmsg").(string); get(reply, "code") == int32(1) && strings.HasPrefix(msg, "internal error: ") {
			t.Fatalf("command %v panicked: %s", cmd, msg)
		}
		if _, ok := get(reply, "ok").(float64); !ok {
			if _, ok := get(reply, "ok").(int32); !ok {
				t.Fatalf("reply without ok: %v", reply)
			}
		}
		if _, err := value.Encode(reply); err != nil {
			t.Fatalf("reply %v does not encode: %v", reply, err)
		}
	})
}
