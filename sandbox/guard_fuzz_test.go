package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/sandboxtest"
	"github.com/schemalab/schemalab/sandbox/vocab"
	"github.com/schemalab/schemalab/sandbox/wire"
)

// The fuzz targets feed the guard random commands and random byte
// streams, then check what it let through three ways that do not rely on
// the policy's own reasoning:
//   - structure: only whole messages of the input pass, each with exactly
//     one $db, inside the prefix unless the command is one of the few that
//     read no database;
//   - effect: replayed against a real server holding database important,
//     what passed leaves important and the list of databases outside the
//     prefix as they were;
//   - leaks: no reply to what passed holds important's secret.

const fuzzSecret = "s3cr3t-fuzz"

// serverCommandsReadingNothing is the structural oracle's own short list,
// kept apart from the policy's table on purpose.
var serverCommandsReadingNothing = map[string]bool{
	"hello": true, "isMaster": true, "ismaster": true, "ping": true, "buildInfo": true, "buildinfo": true,
	"saslStart": true, "saslContinue": true, "authenticate": true, "logout": true, "endSessions": true,
	"listCommands": true,
}

// adminCommandsNamingNamespaces run on admin and act on the namespaces
// they name.
var adminCommandsNamingNamespaces = map[string]bool{
	"renameCollection": true, "bulkWrite": true, "commitTransaction": true, "abortTransaction": true,
}

type fuzzTarget struct {
	uri     string
	client  *mongo.Client // unguarded, to look at important
	want    importantSnapshot
	replay  net.Conn
	replayR *bufio.Reader
}

type importantSnapshot struct {
	People  []bson.D
	Colls   []string
	Outside []string
}

func newFuzzTarget(f *testing.F) *fuzzTarget {
	srv := sandboxtest.Start(f)
	client := srv.Client(f)
	ctx := context.Background()
	if _, err := client.Database("important").Collection("people").InsertOne(ctx, bson.D{{Key: "_id", Value: int32(1)}, {Key: "secret", Value: fuzzSecret}}); err != nil {
		f.Fatal(err)
	}
	if _, err := client.Database("schemalab_x").Collection("c").InsertOne(ctx, bson.D{{Key: "_id", Value: int32(1)}, {Key: "a", Value: int32(1)}}); err != nil {
		f.Fatal(err)
	}
	ft := &fuzzTarget{uri: srv.URI(), client: client}
	ft.want = ft.snapshot(f)
	return ft
}

func (ft *fuzzTarget) snapshot(t testing.TB) importantSnapshot {
	ctx := context.Background()
	var s importantSnapshot
	cur, err := ft.client.Database("important").Collection("people").Find(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	if err := cur.All(ctx, &s.People); err != nil {
		t.Fatal(err)
	}
	if s.Colls, err = ft.client.Database("important").ListCollectionNames(ctx, bson.D{}); err != nil {
		t.Fatal(err)
	}
	names, err := ft.client.ListDatabaseNames(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if !vocab.InPrefix(n, "schemalab_") {
			s.Outside = append(s.Outside, n)
		}
	}
	return s
}

// run passes stream through a guard in writes of cut+1 bytes and checks
// what came out.
func (ft *fuzzTarget) run(t *testing.T, stream []byte, cut int) {
	gc, rc := guarded("schemalab_")
	step := cut%64 + 1
	for i := 0; i < len(stream); i += step {
		if _, err := gc.Write(stream[i:min(i+step, len(stream))]); err != nil {
			break // a refusal that ends the connection: nothing after it passes
		}
	}
	passed := rc.written.Bytes()
	for len(passed) > 0 {
		size := int(binary.LittleEndian.Uint32(passed))
		msg := passed[:size]
		passed = passed[size:]
		if !bytes.Contains(stream, msg) {
			t.Fatalf("the guard passed on bytes that were not a message of the input")
		}
		m, err := wire.DecodeClientMessage(msg)
		if err != nil || m.Malformed {
			t.Fatalf("the guard passed on a message the server cannot read: %v", err)
		}
		name, dbs := "", []string(nil)
		if len(m.Command) > 0 {
			name = m.Command[0].Key
		}
		for _, e := range m.Command {
			if e.Key == "$db" {
				s, _ := e.Value.(string)
				dbs = append(dbs, s)
			}
		}
		switch m.OpCode {
		case wire.OpQuery:
			if name != "hello" && name != "isMaster" && name != "ismaster" {
				t.Fatalf("the guard passed on a legacy OP_QUERY %q", name)
			}
			continue
		case wire.OpMsg:
		default:
			t.Fatalf("the guard passed on opcode %d", m.OpCode)
		}
		if len(dbs) != 1 {
			t.Fatalf("the guard passed on %s with $db %q", name, dbs)
		}
		if serverCommandsReadingNothing[name] {
			continue
		}
		if !vocab.InPrefix(dbs[0], "schemalab_") && !(dbs[0] == "admin" && adminCommandsNamingNamespaces[name]) {
			t.Fatalf("the guard passed on %s on database %q: %v", name, dbs[0], m.Command)
		}
		ft.replayMessage(t, msg, m)
	}
	if got := ft.snapshot(t); !reflect.DeepEqual(got, ft.want) {
		t.Fatalf("database important or the databases outside the prefix changed:\n got %+v\nwant %+v\nstream %x", got, ft.want, stream)
	}
}

// replayMessage sends one message the guard passed to the real server and
// checks its reply for important's secret.
func (ft *fuzzTarget) replayMessage(t *testing.T, msg []byte, m wire.ClientMessage) {
	if ft.replay == nil {
		nc, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(ft.uri, "mongodb://"), "/"))
		if err != nil {
			t.Fatal(err)
		}
		ft.replay, ft.replayR = nc, bufio.NewReader(nc)
	}
	drop := func() { ft.replay.Close(); ft.replay = nil }
	ft.replay.SetDeadline(time.Now().Add(500 * time.Millisecond))
	if _, err := ft.replay.Write(msg); err != nil {
		drop()
		return
	}
	if m.MoreToCome {
		return
	}
	var hdr [16]byte
	if _, err := io.ReadFull(ft.replayR, hdr[:]); err != nil {
		drop()
		return
	}
	body := make([]byte, int(binary.LittleEndian.Uint32(hdr[:]))-16)
	if _, err := io.ReadFull(ft.replayR, body); err != nil {
		drop()
		return
	}
	if bytes.Contains(body, []byte(fuzzSecret)) {
		t.Fatalf("a command the guard passed read important: %v", m.Command)
	}
}

func fuzzSeeds() []D {
	out := D{e("$out", D{e("db", "important"), e("coll", "people")})}
	lookup := D{e("$lookup", D{e("from", D{e("db", "important"), e("coll", "people")}), e("pipeline", A{}), e("as", "x")})}
	return []D{
		cmdOn("schemalab_x", e("find", "c"), e("filter", D{})),
		cmdOn("admin", e("hello", int32(1))),
		cmdOn("important", e("dropDatabase", int32(1))),
		append(cmdOn("important", e("dropDatabase", int32(1))), e("$db", "schemalab_x")),
		cmdOn("important", e("insert", "people"), e("documents", A{D{e("pwned", true)}})),
		cmdOn("important", e("find", "people")),
		cmdOn("schemalab_x", e("aggregate", "c"), e("pipeline", A{out}), e("cursor", D{})),
		cmdOn("schemalab_x", e("aggregate", "c"), e("pipeline", A{D{e("$facet", D{e("a", A{out})})}}), e("cursor", D{})),
		cmdOn("schemalab_x", e("aggregate", "c"), e("pipeline", A{lookup}), e("cursor", D{})),
		cmdOn("schemalab_x", e("aggregate", "c"), e("pipeline", A{D{e("$unionWith", D{e("coll", D{e("db", "important"), e("coll", "people")})})}}), e("cursor", D{})),
		cmdOn("schemalab_x", e("aggregate", "c"), e("pipeline", A{D{e("$merge", D{e("into", D{e("db", "important"), e("coll", "people")})})}}), e("cursor", D{})),
		cmdOn("schemalab_x", e("explain", D{e("aggregate", "c"), e("pipeline", A{out}), e("cursor", D{})}), e("verbosity", "executionStats")),
		cmdOn("admin", e("renameCollection", "important.people"), e("to", "schemalab_x.stolen")),
		cmdOn("admin", e("renameCollection", "schemalab_x.c"), e("to", "important.people"), e("dropTarget", true)),
		cmdOn("admin", e("bulkWrite", int32(1)), e("ops", A{D{e("delete", int32(0)), e("filter", D{}), e("multi", true)}}), e("nsInfo", A{D{e("ns", "important.people")}})),
		cmdOn("schemalab_x", e("create", "v"), e("viewOn", "c"), e("pipeline", A{lookup})),
		cmdOn("schemalab_x", e("schemalabSnapshot", "restore"), e("db", "important"), e("fromDb", "schemalab_x"), e("name", "s")),
		cmdOn("schemalab_x", e("schemalabSnapshot", "save"), e("name", "s")),
		cmdOn("important", e("delete", "people"), e("deletes", A{D{e("q", D{}), e("limit", int32(0))}})),
		cmdOn("admin", e("listDatabases", int32(1))),
	}
}

// FuzzGuardCommand frames random command documents as OP_MSG.
func FuzzGuardCommand(f *testing.F) {
	for _, d := range fuzzSeeds() {
		f.Add(mustMarshal(f, d))
	}
	ft := newFuzzTarget(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		if _, err := value.Decode(body); err != nil {
			return // not a document: the decoder and the guard refuse it
		}
		ft.run(t, opMsg(1, 0, body), len(body))
	})
}

// FuzzGuardStream feeds random byte streams, cut at random points.
func FuzzGuardStream(f *testing.F) {
	seeds := fuzzSeeds()
	for i, d := range seeds {
		msg := opMsg(int32(i), 0, mustMarshal(f, d))
		f.Add(msg, uint8(i))
		next := opMsg(int32(i+1), 0, mustMarshal(f, seeds[(i+1)%len(seeds)]))
		f.Add(append(append([]byte(nil), msg...), next...), uint8(3*i))
	}
	f.Add(opMsg(1, 0, mustMarshal(f, cmdOn("schemalab_x", e("aggregate", "c"), e("cursor", D{}))),
		seq{"pipeline", [][]byte{mustMarshal(f, D{e("$out", D{e("db", "important"), e("coll", "x")})})}}), uint8(5))
	f.Add(opQuery(1, "admin.$cmd", mustMarshal(f, D{e("isMaster", int32(1))})), uint8(0))
	ft := newFuzzTarget(f)
	f.Fuzz(func(t *testing.T, stream []byte, cut uint8) {
		ft.run(t, stream, int(cut))
	})
}
