package wire

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func connectDriver(t *testing.T, srv *Server) *mongo.Client {
	t.Helper()
	client, err := mongo.Connect(options.Client().ApplyURI(srv.URI()))
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { client.Disconnect(context.Background()) })
	return client
}

func runCommand(t *testing.T, client *mongo.Client, db string, cmd bson.D) (bson.D, error) {
	t.Helper()
	var out bson.D
	err := client.Database(db).RunCommand(context.Background(), cmd).Decode(&out)
	return out, err
}

func TestDriverHandshakeAndServerCommands(t *testing.T) {
	srv := startTestServer(t, Options{})
	if !strings.HasPrefix(srv.URI(), "mongodb://127.0.0.1:") || !strings.HasSuffix(srv.URI(), "/") {
		t.Fatalf("URI = %q", srv.URI())
	}
	client := connectDriver(t, srv)
	ctx := context.Background()
	if err := client.Ping(ctx, nil); err != nil {
		t.Fatalf("Ping: %v", err)
	}

	hello, err := runCommand(t, client, "admin", bson.D{{Key: "hello", Value: 1}})
	if err != nil {
		t.Fatal(err)
	}
	wantKeys := []string{"isWritablePrimary", "topologyVersion", "maxBsonObjectSize", "maxMessageSizeBytes",
		"maxWriteBatchSize", "localTime", "logicalSessionTimeoutMinutes", "connectionId", "minWireVersion",
		"maxWireVersion", "readOnly", "ok"}
	var keys []string
	for _, e := range hello {
		keys = append(keys, e.Key)
	}
	if strings.Join(keys, ",") != strings.Join(wantKeys, ",") {
		t.Fatalf("hello fields %v, want %v", keys, wantKeys)
	}
	for key, want := range map[string]any{
		"isWritablePrimary": true, "maxBsonObjectSize": int32(16777216), "maxMessageSizeBytes": int32(48000000),
		"maxWriteBatchSize": int32(100000), "logicalSessionTimeoutMinutes": int32(30),
		"minWireVersion": int32(0), "maxWireVersion": int32(25), "readOnly": false, "ok": 1.0,
	} {
		if got := get(hello, key); got != want {
			t.Errorf("hello.%s = %#v, want %#v", key, got, want)
		}
	}
	tv, _ := get(hello, "topologyVersion").(bson.D)
	if _, ok := get(tv, "processId").(bson.ObjectID); !ok || get(tv, "counter") != int64(0) {
		t.Errorf("topologyVersion = %v", tv)
	}

	isMaster, err := runCommand(t, client, "admin", bson.D{{Key: "isMaster", Value: 1}})
	if err != nil || get(isMaster, "ismaster") != true || get(isMaster, "isWritablePrimary") != nil {
		t.Fatalf("isMaster = %v, %v", isMaster, err)
	}

	bi, err := runCommand(t, client, "admin", bson.D{{Key: "buildInfo", Value: 1}})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := get(bi, "version").(string); !strings.HasPrefix(v, "8.0.") {
		t.Errorf("buildInfo.version = %q", v)
	}
	if va, _ := get(bi, "versionArray").(bson.A); len(va) != 4 || va[0] != int32(8) || va[1] != int32(0) {
		t.Errorf("versionArray = %v", get(bi, "versionArray"))
	}
	if get(bi, "bits") != int32(64) || get(bi, "maxBsonObjectSize") != int32(16777216) {
		t.Errorf("buildInfo = %v", bi)
	}

	fcv, err := runCommand(t, client, "admin", bson.D{{Key: "getParameter", Value: 1}, {Key: "featureCompatibilityVersion", Value: 1}})
	if err != nil || get(get(fcv, "featureCompatibilityVersion").(bson.D), "version") != "8.0" {
		t.Fatalf("getParameter fcv = %v, %v", fcv, err)
	}
	logs, err := runCommand(t, client, "admin", bson.D{{Key: "getLog", Value: "startupWarnings"}})
	if err != nil || get(logs, "totalLinesWritten") != int32(0) || len(get(logs, "log").(bson.A)) != 0 {
		t.Fatalf("getLog = %v, %v", logs, err)
	}
	status, err := runCommand(t, client, "admin", bson.D{{Key: "connectionStatus", Value: 1}})
	if err != nil || len(get(get(status, "authInfo").(bson.D), "authenticatedUsers").(bson.A)) != 0 {
		t.Fatalf("connectionStatus = %v, %v", status, err)
	}
	me, err := runCommand(t, client, "admin", bson.D{{Key: "whatsmyuri", Value: 1}})
	if you, _ := get(me, "you").(string); err != nil || !strings.HasPrefix(you, "127.0.0.1:") {
		t.Fatalf("whatsmyuri = %v, %v", me, err)
	}
	for _, name := range []string{"hostInfo", "serverStatus", "getCmdLineOpts"} {
		if r, err := runCommand(t, client, "admin", bson.D{{Key: name, Value: 1}}); err != nil || get(r, "ok") != 1.0 {
			t.Errorf("%s = %v, %v", name, r, err)
		}
	}
}

func wantCommandError(t *testing.T, err error, code int32, name, msg string) {
	t.Helper()
	var ce mongo.CommandError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v (%T), want CommandError %d", err, err, code)
	}
	if ce.Code != code || ce.Name != name || ce.Message != msg {
		t.Fatalf("error = {%d %s %q}, want {%d %s %q}", ce.Code, ce.Name, ce.Message, code, name, msg)
	}
}

func TestDriverSeesMongodErrors(t *testing.T) {
	srv := startTestServer(t, Options{})
	client := connectDriver(t, srv)

	_, err := runCommand(t, client, "test", bson.D{{Key: "foo", Value: 1}})
	wantCommandError(t, err, mongoerr.CommandNotFound, "CommandNotFound", "no such command: 'foo'")

	// Command names are case-sensitive, except the isMaster/ismaster pair.
	_, err = runCommand(t, client, "test", bson.D{{Key: "Ping", Value: 1}})
	wantCommandError(t, err, mongoerr.CommandNotFound, "CommandNotFound", "no such command: 'Ping'")

	// mongosh asks on connect; mongod (not Atlas) does not know it.
	_, err = runCommand(t, client, "admin", bson.D{{Key: "atlasVersion", Value: 1}})
	wantCommandError(t, err, mongoerr.CommandNotFound, "CommandNotFound", "no such command: 'atlasVersion'")

	_, err = runCommand(t, client, "admin", bson.D{{Key: "getParameter", Value: 1}, {Key: "noSuchParameter", Value: 1}})
	wantCommandError(t, err, mongoerr.InvalidOptions, "InvalidOptions", "no option found to get")

	_, err = runCommand(t, client, "test", bson.D{{Key: "getLog", Value: "startupWarnings"}})
	wantCommandError(t, err, mongoerr.Unauthorized, "Unauthorized", "getLog may only be run against the admin database.")

	_, err = runCommand(t, client, "admin", bson.D{{Key: "hello", Value: 1}, {Key: "client", Value: bson.D{{Key: "application", Value: bson.D{{Key: "name", Value: "x"}}}}}})
	wantCommandError(t, err, mongoerr.ClientMetadataCannotBeMutated, "ClientMetadataCannotBeMutated", "The client metadata document may only be sent in the first hello")
}

func TestPanicInHandlerBecomesInternalError(t *testing.T) {
	eng := engine.New(engine.Options{BeforeCommand: func(name string) {
		if name == "buildInfo" {
			panic("handler blew up")
		}
	}})
	srv := startTestServer(t, Options{Engine: eng})
	c := dialRaw(t, srv)
	c.send((&opMsgBuilder{requestID: 1}).body(mustEncode(t, bson.D{{Key: "buildInfo", Value: int32(1)}, {Key: "$db", Value: "admin"}})).bytes())
	r := c.recv()
	if get(r.doc, "ok") != 0.0 || get(r.doc, "code") != int32(1) || get(r.doc, "codeName") != "InternalError" {
		t.Fatalf("reply %v", r.doc)
	}
	// Same connection keeps working.
	c.send((&opMsgBuilder{requestID: 2}).body(mustEncode(t, bson.D{{Key: "ping", Value: int32(1)}, {Key: "$db", Value: "admin"}})).bytes())
	if r := c.recv(); get(r.doc, "ok") != 1.0 {
		t.Fatalf("ping after panic: %v", r.doc)
	}
	// And so do others, through the driver.
	client := connectDriver(t, srv)
	_, err := runCommand(t, client, "admin", bson.D{{Key: "buildInfo", Value: 1}})
	var ce mongo.CommandError
	if !errors.As(err, &ce) || ce.Code != mongoerr.InternalError || ce.Name != "InternalError" ||
		!strings.HasPrefix(ce.Message, "internal error in command 'buildInfo': handler blew up\n") {
		t.Fatalf("err = %v, want InternalError naming the command and the panic", err)
	}
	if err := client.Ping(context.Background(), nil); err != nil {
		t.Fatalf("Ping after panic: %v", err)
	}
}

func TestAwaitableHelloWaitsForMaxAwaitTime(t *testing.T) {
	srv := startTestServer(t, Options{})
	c := dialRaw(t, srv)
	awaitable := func(processID bson.ObjectID, wait int32) bson.D {
		return bson.D{
			{Key: "hello", Value: int32(1)},
			{Key: "topologyVersion", Value: bson.D{{Key: "processId", Value: processID}, {Key: "counter", Value: int64(0)}}},
			{Key: "maxAwaitTimeMS", Value: wait},
			{Key: "$db", Value: "admin"},
		}
	}
	start := time.Now()
	c.send((&opMsgBuilder{requestID: 1}).body(mustEncode(t, awaitable(processID(t, srv), 300))).bytes())
	if r := c.recv(); get(r.doc, "isWritablePrimary") != true {
		t.Fatalf("reply %v", r.doc)
	}
	if waited := time.Since(start); waited < 250*time.Millisecond {
		t.Fatalf("current topology answered after %v, want about 300ms", waited)
	}
	start = time.Now()
	c.send((&opMsgBuilder{requestID: 2}).body(mustEncode(t, awaitable(bson.NewObjectID(), 5000))).bytes())
	c.recv()
	if waited := time.Since(start); waited > 2*time.Second {
		t.Fatalf("stale topology answered after %v, want at once", waited)
	}
	c.send((&opMsgBuilder{requestID: 3}).body(mustEncode(t, bson.D{{Key: "hello", Value: int32(1)}, {Key: "maxAwaitTimeMS", Value: int32(5)}, {Key: "$db", Value: "admin"}})).bytes())
	if r := c.recv(); get(r.doc, "code") != int32(31368) {
		t.Fatalf("reply %v", r.doc)
	}
}

func TestCloseEndsConnectionsAndWaitingHellos(t *testing.T) {
	srv, err := Start(context.Background(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	idle := dialRaw(t, srv)
	waiting := dialRaw(t, srv)
	waiting.send((&opMsgBuilder{requestID: 1}).body(mustEncode(t, bson.D{
		{Key: "hello", Value: int32(1)},
		{Key: "topologyVersion", Value: bson.D{{Key: "processId", Value: processID(t, srv)}, {Key: "counter", Value: int64(0)}}},
		{Key: "maxAwaitTimeMS", Value: int32(60000)},
		{Key: "$db", Value: "admin"},
	})).bytes())
	time.Sleep(100 * time.Millisecond)
	done := make(chan error)
	go func() { done <- srv.Close() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return")
	}
	idle.expectClosed()
	if err := srv.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

func TestContextCancellationClosesServer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := Start(ctx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := dialRaw(t, srv)
	cancel()
	c.expectClosed()
	srv.Close()
}

func TestStartRefusesNonLoopbackBind(t *testing.T) {
	if _, err := Start(context.Background(), Options{Bind: "0.0.0.0"}); !errors.Is(err, ErrNonLoopbackBind) {
		t.Fatalf("err = %v, want ErrNonLoopbackBind", err)
	}
	srv := startTestServer(t, Options{Bind: "0.0.0.0", AllowNonLoopback: true})
	if !strings.HasPrefix(srv.URI(), "mongodb://127.0.0.1:") {
		t.Fatalf("URI = %q", srv.URI())
	}
	for _, bind := range []string{"localhost", "127.0.0.1"} {
		s := startTestServer(t, Options{Bind: bind})
		s.Close()
	}
}

func TestManyConcurrentClients(t *testing.T) {
	srv := startTestServer(t, Options{})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			client, err := mongo.Connect(options.Client().ApplyURI(srv.URI()))
			if err != nil {
				t.Error(err)
				return
			}
			defer client.Disconnect(context.Background())
			for range 20 {
				if err := client.Ping(context.Background(), nil); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}
