package wire

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/xdg-go/scram"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// confineByDB stands in for the sandbox guard, which package wire cannot
// import (sandbox imports wire; the guard's own check is tested against
// the server in package sandbox): handshake commands run anywhere,
// everything else on <prefix>* only.
func confineByDB(prefix string, cmd bson.D) error {
	switch cmd[0].Key {
	case "hello", "isMaster", "ismaster", "ping", "buildInfo", "endSessions", "connectionStatus":
		return nil
	}
	for _, e := range cmd {
		if db, _ := e.Value.(string); e.Key == "$db" && !vocab.InPrefix(db, prefix) {
			return fmt.Errorf("schemalab: refusing `%s` on database `%s`: outside the sandbox prefix `%s`", cmd[0].Key, db, prefix)
		}
	}
	return nil
}

func startAuthServer(t testing.TB, opts Options) *Server {
	t.Helper()
	opts.RequireAuth = true
	if opts.Confine == nil {
		opts.Confine = confineByDB
	}
	return startTestServer(t, opts)
}

func addUser(t testing.TB, srv *Server, name, password string, a Account) {
	t.Helper()
	if err := srv.AddUser(name, password, a); err != nil {
		t.Fatalf("AddUser(%s): %v", name, err)
	}
}

func userURI(srv *Server, name, password string) string {
	return fmt.Sprintf("mongodb://%s:%s@%s/?authSource=admin&authMechanism=SCRAM-SHA-256", name, password, srv.ln.Addr())
}

func connectURI(t testing.TB, uri string, opts ...*options.ClientOptions) *mongo.Client {
	t.Helper()
	// The driver's own selection timeout (30 s): on a loaded CI machine a
	// monitor's check can miss a shorter one, and the test then fails in
	// server selection instead of at what it checks.
	o := options.Client().ApplyURI(uri)
	client, err := mongo.Connect(append([]*options.ClientOptions{o}, opts...)...)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { client.Disconnect(context.Background()) })
	return client
}

func connectAs(t testing.TB, srv *Server, name, password string) *mongo.Client {
	t.Helper()
	return connectURI(t, userURI(srv, name, password))
}

// serverError is the code and message of a command's or a write's error.
func serverError(err error) (int32, string) {
	var ce mongo.CommandError
	if errors.As(err, &ce) {
		return ce.Code, ce.Message
	}
	var we mongo.WriteException
	if errors.As(err, &we) && len(we.WriteErrors) > 0 {
		return int32(we.WriteErrors[0].Code), we.WriteErrors[0].Message
	}
	var bwe mongo.BulkWriteException
	if errors.As(err, &bwe) && len(bwe.WriteErrors) > 0 {
		return int32(bwe.WriteErrors[0].Code), bwe.WriteErrors[0].Message
	}
	return 0, ""
}

func wantServerError(t testing.TB, what string, err error, code int32, msg string) {
	t.Helper()
	gotCode, gotMsg := serverError(err)
	if gotCode != code || msg != "" && gotMsg != msg {
		t.Fatalf("%s: got %v (code %d), want code %d %q", what, err, gotCode, code, msg)
	}
}

var bg = context.Background()

// A user logs in through the driver (SCRAM-SHA-256 with its speculative
// first step in hello) and works in its own databases; outside them the
// server refuses with the guard's words and Unauthorized.
func TestLoginAndConfinementThroughTheDriver(t *testing.T) {
	var log syncBuffer
	srv := startAuthServer(t, Options{CommandLog: &log})
	addUser(t, srv, "alice", "s3cret", Account{Prefix: "alice_"})
	alice := connectAs(t, srv, "alice", "s3cret")
	coll := alice.Database("alice_db").Collection("c")
	if _, err := coll.InsertOne(bg, bson.D{{Key: "x", Value: 1}}); err != nil {
		t.Fatalf("insert in its own prefix: %v", err)
	}
	_, err := alice.Database("bob_db").Collection("c").InsertOne(bg, bson.D{{Key: "x", Value: 1}})
	wantServerError(t, "insert outside the prefix", err, mongoerr.Unauthorized,
		"schemalab: refusing `insert` on database `bob_db`: outside the sandbox prefix `alice_`")
	_, err = alice.Database("admin").Collection("system.users").Find(bg, bson.D{})
	wantServerError(t, "find on admin", err, mongoerr.Unauthorized, "")

	var status bson.D
	if err := alice.Database("admin").RunCommand(bg, bson.D{{Key: "connectionStatus", Value: 1}}).Decode(&status); err != nil {
		t.Fatal(err)
	}
	users := get(get(status, "authInfo").(bson.D), "authenticatedUsers")
	if fmt.Sprint(users) != `[{"user":"alice","db":"admin"}]` {
		t.Fatalf("connectionStatus users: %v", users)
	}
	// The driver sent its first step in hello (speculativeAuthenticate)
	// and finished with a saslContinue; it never needed a saslStart. The
	// log shows no SASL payload.
	text := log.String()
	if !strings.Contains(text, "admin.saslContinue (authentication payload not shown)") || strings.Contains(text, "saslStart") {
		t.Fatalf("command log:\n%s", text)
	}
}

// Every failed login is mongod's AuthenticationFailed, whatever failed.
func TestFailedLogins(t *testing.T) {
	srv := startAuthServer(t, Options{})
	addUser(t, srv, "alice", "s3cret", Account{Prefix: "alice_"})
	for name, uri := range map[string]string{
		"wrong password":   userURI(srv, "alice", "S3cret"),
		"unknown user":     userURI(srv, "mallory", "s3cret"),
		"other authSource": fmt.Sprintf("mongodb://alice:s3cret@%s/?authSource=alice_db&authMechanism=SCRAM-SHA-256", srv.ln.Addr()),
		"SCRAM-SHA-1":      fmt.Sprintf("mongodb://alice:s3cret@%s/?authSource=admin&authMechanism=SCRAM-SHA-1", srv.ln.Addr()),
	} {
		err := connectURI(t, uri).Ping(bg, nil)
		if err == nil || !strings.Contains(err.Error(), "(AuthenticationFailed) Authentication failed.") {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A mechanism mongod does not offer here.
	c := dialRaw(t, srv)
	reply := c.command(bson.D{{Key: "saslStart", Value: 1}, {Key: "mechanism", Value: "PLAIN"}, {Key: "payload", Value: bson.Binary{Data: []byte("\x00alice\x00s3cret")}}, {Key: "$db", Value: "admin"}})
	wantReplyError(t, reply, mongoerr.BadValue, "Unsupported mechanism 'PLAIN' on authentication database 'admin'")
}

// Without authenticating, a client of a server that requires it runs the
// handshake, the heartbeat and authentication, and nothing else.
func TestUnauthenticatedClientsRunOnlyTheHandshake(t *testing.T) {
	srv := startAuthServer(t, Options{})
	c := dialRaw(t, srv)
	for _, cmd := range []bson.D{
		{{Key: "hello", Value: 1}, {Key: "$db", Value: "admin"}},
		{{Key: "isMaster", Value: 1}, {Key: "$db", Value: "admin"}},
		{{Key: "ping", Value: 1}, {Key: "$db", Value: "admin"}},
		{{Key: "buildInfo", Value: 1}, {Key: "$db", Value: "admin"}},
		// requiresAuth() is false for these too (generic.cpp,
		// connection_status.cpp); listCommands runs on any database.
		{{Key: "listCommands", Value: 1}, {Key: "$db", Value: "test"}},
		{{Key: "connectionStatus", Value: 1}, {Key: "$db", Value: "admin"}},
	} {
		if reply := c.command(cmd); get(reply, "ok") != 1.0 {
			t.Errorf("%s: %v", cmd[0].Key, reply)
		}
	}
	for name, cmd := range map[string]bson.D{
		"find":          {{Key: "find", Value: "c"}, {Key: "$db", Value: "test"}},
		"findAndModify": {{Key: "findandmodify", Value: "c"}, {Key: "$db", Value: "test"}},
		"listDatabases": {{Key: "listDatabases", Value: 1}, {Key: "$db", Value: "admin"}},
		"serverStatus":  {{Key: "serverStatus", Value: 1}, {Key: "$db", Value: "admin"}},
		"killCursors":   {{Key: "killCursors", Value: "c"}, {Key: "cursors", Value: bson.A{int64(1)}}, {Key: "$db", Value: "test"}},
	} {
		wantReplyError(t, c.command(cmd), mongoerr.Unauthorized, "Command "+name+" requires authentication")
	}
	// An unknown command is unknown before anything else, as in mongod.
	wantReplyError(t, c.command(bson.D{{Key: "frobnicate", Value: 1}, {Key: "$db", Value: "admin"}}), mongoerr.CommandNotFound, "no such command: 'frobnicate'")

	// Through the driver and mongosh's usual commands, the same.
	client := connectDriver(t, srv)
	_, err := client.Database("test").Collection("c").InsertOne(bg, bson.D{})
	wantServerError(t, "anonymous insert", err, mongoerr.Unauthorized, "Command insert requires authentication")
}

// A server that does not require authentication still lets users log in,
// and confines them; anonymous clients do as they please, as on a mongod
// without --auth.
func TestUsersOnAServerWithoutRequiredAuth(t *testing.T) {
	srv := startTestServer(t, Options{Confine: confineByDB})
	addUser(t, srv, "alice", "s3cret", Account{Prefix: "alice_"})
	if _, err := connectDriver(t, srv).Database("bob_db").Collection("c").InsertOne(bg, bson.D{}); err != nil {
		t.Fatalf("anonymous insert: %v", err)
	}
	_, err := connectAs(t, srv, "alice", "s3cret").Database("bob_db").Collection("c").InsertOne(bg, bson.D{})
	wantServerError(t, "alice's insert", err, mongoerr.Unauthorized, "")
}

// The SASL conversation as an attacker would play it, over a raw socket:
// replayed and altered messages, another conversation id, steps out of
// order. None of them logs in; the honest conversation does, with or
// without the empty third exchange.
func TestSCRAMConversationAttacks(t *testing.T) {
	srv := startAuthServer(t, Options{})
	addUser(t, srv, "alice", "s3cret", Account{Prefix: "alice_"})
	find := bson.D{{Key: "find", Value: "c"}, {Key: "$db", Value: "alice_db"}}

	t.Run("saslContinue without saslStart", func(t *testing.T) {
		c := dialRaw(t, srv)
		wantReplyError(t, c.command(saslContinue(1, "c=biws")), mongoerr.ProtocolError, "No SASL session state found")
	})
	t.Run("another conversationId", func(t *testing.T) {
		c := dialRaw(t, srv)
		conv := newSCRAMClient(t, "alice", "s3cret")
		first := c.command(saslStart(conv.step(t, ""), true))
		final := conv.step(t, payloadOf(t, first))
		wantReplyError(t, c.command(saslContinue(2, final)), mongoerr.ProtocolError, "sasl: Mismatched conversation id")
		// The failure ended the conversation.
		wantReplyError(t, c.command(saslContinue(1, final)), mongoerr.ProtocolError, "No SASL session state found")
		wantReplyError(t, c.command(find), mongoerr.Unauthorized, "Command find requires authentication")
	})
	t.Run("replayed client-final in a new conversation", func(t *testing.T) {
		c := dialRaw(t, srv)
		conv := newSCRAMClient(t, "alice", "s3cret")
		clientFirst := conv.step(t, "")
		first := c.command(saslStart(clientFirst, true))
		final := conv.step(t, payloadOf(t, first))
		// An eavesdropper replays the same two messages on its own
		// connection: the server's nonce differs, so the proof fails.
		m := dialRaw(t, srv)
		if reply := m.command(saslStart(clientFirst, true)); get(reply, "ok") != 1.0 {
			t.Fatal(reply)
		}
		wantReplyError(t, m.command(saslContinue(1, final)), mongoerr.AuthenticationFailed, "Authentication failed.")
		wantReplyError(t, m.command(find), mongoerr.Unauthorized, "Command find requires authentication")
		// The honest client still finishes its own conversation.
		if reply := c.command(saslContinue(1, final)); get(reply, "done") != true {
			t.Fatalf("honest final step: %v", reply)
		}
		if reply := c.command(find); get(reply, "ok") != 1.0 {
			t.Fatalf("find after login: %v", reply)
		}
	})
	t.Run("altered proof", func(t *testing.T) {
		c := dialRaw(t, srv)
		conv := newSCRAMClient(t, "alice", "s3cret")
		first := c.command(saslStart(conv.step(t, ""), true))
		final := conv.step(t, payloadOf(t, first))
		i := strings.Index(final, ",p=") + 3
		altered := final[:i] + string(rune(final[i]^1)) + final[i+1:]
		wantReplyError(t, c.command(saslContinue(1, altered)), mongoerr.AuthenticationFailed, "Authentication failed.")
	})
	t.Run("right password for another user", func(t *testing.T) {
		addUser(t, srv, "bob", "hunter2", Account{Prefix: "bob_"})
		c := dialRaw(t, srv)
		conv := newSCRAMClient(t, "bob", "s3cret")
		first := c.command(saslStart(conv.step(t, ""), true))
		wantReplyError(t, c.command(saslContinue(1, conv.step(t, payloadOf(t, first)))), mongoerr.AuthenticationFailed, "Authentication failed.")
	})
	t.Run("the empty third exchange", func(t *testing.T) {
		c := dialRaw(t, srv)
		conv := newSCRAMClient(t, "alice", "s3cret")
		first := c.command(saslStart(conv.step(t, ""), false))
		second := c.command(saslContinue(1, conv.step(t, payloadOf(t, first))))
		if get(second, "done") != false {
			t.Fatalf("without skipEmptyExchange the second step is not done: %v", second)
		}
		if _, err := conv.conv.Step(payloadOf(t, second)); err != nil {
			t.Fatalf("the server's signature does not verify: %v", err)
		}
		wantReplyError(t, c.command(find), mongoerr.Unauthorized, "Command find requires authentication")
		if third := c.command(saslContinue(1, "")); get(third, "done") != true {
			t.Fatalf("third step: %v", third)
		}
		if reply := c.command(find); get(reply, "ok") != 1.0 {
			t.Fatalf("find after login: %v", reply)
		}
	})
	t.Run("payload as a base64 string", func(t *testing.T) {
		c := dialRaw(t, srv)
		conv := newSCRAMClient(t, "alice", "s3cret")
		start := saslStart(conv.step(t, ""), true)
		for i, e := range start {
			if e.Key == "payload" {
				start[i].Value = base64.StdEncoding.EncodeToString(e.Value.(bson.Binary).Data)
			}
		}
		first := c.command(start)
		if _, ok := get(first, "payload").(string); !ok {
			t.Fatalf("a string payload gets a string payload back: %v", first)
		}
	})
	t.Run("login as a second user", func(t *testing.T) {
		c := dialRaw(t, srv)
		c.login(t, "alice", "s3cret")
		conv := newSCRAMClient(t, "bob", "hunter2")
		first := c.command(saslStart(conv.step(t, ""), true))
		wantReplyError(t, c.command(saslContinue(1, conv.step(t, payloadOf(t, first)))), mongoerr.AuthenticationFailed, "Authentication failed.")
		// Still alice, confined to her prefix.
		wantReplyError(t, c.command(bson.D{{Key: "find", Value: "c"}, {Key: "$db", Value: "bob_db"}}), mongoerr.Unauthorized, "")
	})
	t.Run("two $db fields", func(t *testing.T) {
		c := dialRaw(t, srv)
		c.login(t, "alice", "s3cret")
		for _, dbs := range [][2]string{{"alice_db", "bob_db"}, {"bob_db", "alice_db"}} {
			reply := c.command(bson.D{{Key: "find", Value: "c"}, {Key: "$db", Value: dbs[0]}, {Key: "$db", Value: dbs[1]}})
			wantReplyError(t, reply, mongoerr.Unauthorized, "")
		}
	})
}

// hello tells a client the mechanisms of a user it names, and nothing of
// a user that does not exist.
func TestHelloSaslSupportedMechs(t *testing.T) {
	srv := startAuthServer(t, Options{})
	addUser(t, srv, "alice", "s3cret", Account{Prefix: "alice_"})
	c := dialRaw(t, srv)
	reply := c.command(bson.D{{Key: "hello", Value: 1}, {Key: "saslSupportedMechs", Value: "admin.alice"}, {Key: "$db", Value: "admin"}})
	if fmt.Sprint(get(reply, "saslSupportedMechs")) != "[SCRAM-SHA-256]" || reply[len(reply)-1].Key != "ok" {
		t.Fatalf("known user: %v", reply)
	}
	reply = c.command(bson.D{{Key: "hello", Value: 1}, {Key: "saslSupportedMechs", Value: "admin.mallory"}, {Key: "$db", Value: "admin"}})
	if get(reply, "saslSupportedMechs") != nil {
		t.Fatalf("unknown user: %v", reply)
	}
}

// RemoveUser ends a user's connections at once, and its logins.
func TestRemoveUserClosesItsConnections(t *testing.T) {
	srv := startAuthServer(t, Options{})
	addUser(t, srv, "alice", "s3cret", Account{Prefix: "alice_"})
	addUser(t, srv, "bob", "hunter2", Account{Prefix: "bob_"})
	alice := dialRaw(t, srv)
	alice.login(t, "alice", "s3cret")
	bob := connectAs(t, srv, "bob", "hunter2")
	if err := bob.Ping(bg, nil); err != nil {
		t.Fatal(err)
	}
	srv.RemoveUser("alice")
	alice.expectClosed()
	if err := connectAs(t, srv, "alice", "s3cret").Ping(bg, nil); err == nil {
		t.Fatal("a removed user logged in")
	}
	if _, err := bob.Database("bob_db").Collection("c").InsertOne(bg, bson.D{}); err != nil {
		t.Fatalf("bob after alice's removal: %v", err)
	}
	if u := srv.Usage("alice"); u != (Usage{}) {
		t.Fatalf("usage of a removed user: %+v", u)
	}
}

// AddUser refuses what the server could not enforce.
func TestAddUserRefusals(t *testing.T) {
	srv := startAuthServer(t, Options{})
	addUser(t, srv, "alice", "s3cret", Account{Prefix: "alice_"})
	unconfinable := startTestServer(t, Options{})
	for name, err := range map[string]error{
		"duplicate":                 srv.AddUser("alice", "x", Account{Prefix: "other_"}),
		"overlapping prefix":        srv.AddUser("al", "x", Account{Prefix: "al"}),
		"prefix inside a prefix":    srv.AddUser("alice2", "x", Account{Prefix: "alice_2_"}),
		"quota without a prefix":    srv.AddUser("root", "x", Account{MaxStorageBytes: 1 << 20}),
		"empty name":                srv.AddUser("", "x", Account{}),
		"name SASLprep changes":     srv.AddUser("a\u00a0b", "x", Account{}),
		"negative limit":            srv.AddUser("carol", "x", Account{Prefix: "carol_", MaxCursors: -1}),
		"prefix without Confine":    unconfinable.AddUser("dave", "x", Account{Prefix: "dave_"}),
		"password SASLprep refuses": srv.AddUser("erin", "bad\u0007pw", Account{Prefix: "erin_"}),
	} {
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// An unconfined user and a user whose prefix does not overlap are fine.
	addUser(t, srv, "root", "x", Account{})
	addUser(t, srv, "bob", "x", Account{Prefix: "bob_"})
}

// A confined user lists its own databases only, as mongod lists the
// databases a user has privileges on; asking for all of them is refused.
func TestListDatabasesShowsAUsersOwnDatabases(t *testing.T) {
	srv := startAuthServer(t, Options{})
	addUser(t, srv, "alice", "s3cret", Account{Prefix: "alice_"})
	addUser(t, srv, "bob", "hunter2", Account{Prefix: "bob_"})
	addUser(t, srv, "root", "r00t", Account{})
	alice, bob, root := connectAs(t, srv, "alice", "s3cret"), connectAs(t, srv, "bob", "hunter2"), connectAs(t, srv, "root", "r00t")
	for _, c := range []struct {
		client *mongo.Client
		db     string
	}{{alice, "alice_a"}, {alice, "alice_b"}, {bob, "bob_a"}} {
		if _, err := c.client.Database(c.db).Collection("c").InsertOne(bg, bson.D{}); err != nil {
			t.Fatal(err)
		}
	}
	names, err := alice.ListDatabaseNames(bg, bson.D{})
	if err != nil || strings.Join(names, ",") != "alice_a,alice_b" {
		t.Fatalf("alice's databases: %v %v", names, err)
	}
	names, err = root.ListDatabaseNames(bg, bson.D{})
	if err != nil || strings.Join(names, ",") != "admin,alice_a,alice_b,bob_a,config,local" {
		t.Fatalf("root's databases: %v %v", names, err)
	}
	err = alice.Database("admin").RunCommand(bg, bson.D{{Key: "listDatabases", Value: 1}, {Key: "authorizedDatabases", Value: false}}).Err()
	wantServerError(t, "authorizedDatabases: false", err, mongoerr.Unauthorized, "")
}

// The connection limit refuses one login too many, with a clear message,
// and counts only authenticated connections.
func TestConnectionQuota(t *testing.T) {
	srv := startAuthServer(t, Options{})
	addUser(t, srv, "alice", "s3cret", Account{Prefix: "alice_", MaxConnections: 2})
	a, b := dialRaw(t, srv), dialRaw(t, srv)
	a.login(t, "alice", "s3cret")
	b.login(t, "alice", "s3cret")
	if u := srv.Usage("alice"); u.Connections != 2 {
		t.Fatalf("usage: %+v", u)
	}
	c := dialRaw(t, srv)
	conv := newSCRAMClient(t, "alice", "s3cret")
	first := c.command(saslStart(conv.step(t, ""), true))
	wantReplyError(t, c.command(saslContinue(1, conv.step(t, payloadOf(t, first)))), mongoerr.ResourceExhausted,
		"user alice already has 2 authenticated connections open, the most it may have on this server; close a client (or a shell) first")
	a.nc.Close()
	deadline := time.Now().Add(5 * time.Second)
	for srv.Usage("alice").Connections != 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	c.login(t, "alice", "s3cret")
}

// syncBuffer is a CommandLog the test reads while the server writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// scramClient is a SCRAM-SHA-256 client conversation.
type scramClient struct{ conv *scram.ClientConversation }

func newSCRAMClient(t testing.TB, name, password string) *scramClient {
	t.Helper()
	client, err := scram.SHA256.NewClient(name, password, "")
	if err != nil {
		t.Fatal(err)
	}
	return &scramClient{conv: client.NewConversation()}
}

func (s *scramClient) step(t testing.TB, challenge string) string {
	t.Helper()
	out, err := s.conv.Step(challenge)
	if err != nil {
		t.Fatalf("client step: %v", err)
	}
	return out
}

func saslStart(payload string, skipEmpty bool) bson.D {
	return bson.D{
		{Key: "saslStart", Value: 1}, {Key: "mechanism", Value: "SCRAM-SHA-256"},
		{Key: "payload", Value: bson.Binary{Data: []byte(payload)}},
		{Key: "options", Value: bson.D{{Key: "skipEmptyExchange", Value: skipEmpty}}},
		{Key: "$db", Value: "admin"},
	}
}

func saslContinue(id int32, payload string) bson.D {
	return bson.D{
		{Key: "saslContinue", Value: 1}, {Key: "conversationId", Value: id},
		{Key: "payload", Value: bson.Binary{Data: []byte(payload)}},
		{Key: "$db", Value: "admin"},
	}
}

func payloadOf(t testing.TB, reply bson.D) string {
	t.Helper()
	if get(reply, "ok") != 1.0 {
		t.Fatalf("SASL step failed: %v", reply)
	}
	switch p := get(reply, "payload").(type) {
	case bson.Binary:
		return string(p.Data)
	case string:
		b, _ := base64.StdEncoding.DecodeString(p)
		return string(b)
	}
	t.Fatalf("no payload in %v", reply)
	return ""
}

// login authenticates a raw connection as mongod's own shell would.
func (c *rawConn) login(t testing.TB, name, password string) {
	t.Helper()
	conv := newSCRAMClient(t, name, password)
	first := c.command(saslStart(conv.step(t, ""), true))
	final := c.command(saslContinue(1, conv.step(t, payloadOf(t, first))))
	if get(final, "done") != true {
		t.Fatalf("login as %s: %v", name, final)
	}
}

var rawRequestID atomic.Int32

// command sends cmd as an OP_MSG and reads its reply.
func (c *rawConn) command(cmd bson.D) bson.D {
	c.t.Helper()
	c.send((&opMsgBuilder{requestID: rawRequestID.Add(1)}).body(mustEncode(c.t, cmd)).bytes())
	return c.recv().doc
}

func wantReplyError(t testing.TB, reply bson.D, code int32, msg string) {
	t.Helper()
	if get(reply, "code") != code || msg != "" && get(reply, "errmsg") != msg {
		t.Fatalf("got %v, want code %d %q", reply, code, msg)
	}
}
