package compat_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/wire"
)

// uriVar names the real server the suite also runs against.
const uriVar = "SCHEMALAB_TEST_URI"

const skipReal = uriVar + " is not set: set it to a MongoDB 8.0 server to run this case there too, " +
	"e.g. SCHEMALAB_TEST_URI=mongodb://localhost:27017 go test ./sandbox/engine/compat"

// suite holds the servers of one top-level test: the embedded server and,
// when SCHEMALAB_TEST_URI is set, a connection to the real one.
type suite struct {
	embedded *mongo.Client
	real     *mongo.Client // nil without SCHEMALAB_TEST_URI
}

func newSuite(t *testing.T) *suite {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := wire.Start(ctx, wire.Options{Engine: engine.New(engine.Options{})})
	if err != nil {
		cancel()
		t.Fatalf("start the embedded server: %v", err)
	}
	// Cleanups run last first: the clients disconnect before the server
	// closes.
	t.Cleanup(func() {
		_ = srv.Close()
		cancel()
	})
	s := &suite{embedded: connect(t, srv.URI())}
	if uri := os.Getenv(uriVar); uri != "" {
		s.real = connect(t, uri)
	}
	return s
}

func connect(t *testing.T, uri string) *mongo.Client {
	t.Helper()
	// Polling, not streaming, monitoring: a streaming hello waits up to
	// 10s on the server, and Disconnect would wait for it.
	client, err := mongo.Connect(options.Client().ApplyURI(uri).SetServerSelectionTimeout(10 * time.Second).
		SetServerMonitoringMode(options.ServerMonitoringModePoll))
	if err != nil {
		t.Fatalf("connect to %s: %v", uri, err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	return client
}

// runCase runs a case that must cite where its expected value comes from,
// and counts it in COVERAGE.md's row and column cov.
func (s *suite) runCase(t *testing.T, name, ref string, cov cover, fn func(t *testing.T, db *mongo.Database)) {
	t.Helper()
	if ref == "" {
		t.Fatalf("case %q cites no source", name)
	}
	ledger.note(t, cov)
	s.run(t, name, fn)
}

// run runs fn as the subtest name/embedded and name/mongodb, each with a
// fresh database that is dropped afterwards.
func (s *suite) run(t *testing.T, name string, fn func(t *testing.T, db *mongo.Database)) {
	t.Helper()
	t.Run(name, func(t *testing.T) {
		t.Run("embedded", func(t *testing.T) { fn(t, freshDB(t, s.embedded)) })
		t.Run("mongodb", func(t *testing.T) {
			if s.real == nil {
				t.Skip(skipReal)
			}
			fn(t, freshDB(t, s.real))
		})
	})
}

// freshDB names a database no other test uses (compat_<random>) and drops
// it when the test ends; it is the only database a case touches.
func freshDB(t *testing.T, client *mongo.Client) *mongo.Database {
	t.Helper()
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	db := client.Database("compat_" + hex.EncodeToString(b[:]))
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = db.Drop(ctx)
	})
	return db
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// Cases are written in relaxed extended JSON, as the manual and jstests
// write them: 1 is an int32, 1.0 a double, {"$numberLong": "1"} an int64.

func ejValue(t *testing.T, s string) any {
	t.Helper()
	var wrap bson.D
	if err := bson.UnmarshalExtJSON([]byte(`{"v":`+s+`}`), false, &wrap); err != nil {
		t.Fatalf("bad extended JSON %s: %v", s, err)
	}
	return wrap[0].Value
}

func ejArray(t *testing.T, s string) bson.A {
	t.Helper()
	a, ok := ejValue(t, s).(bson.A)
	if !ok {
		t.Fatalf("%s is not an array", s)
	}
	return a
}

func ejDoc(t *testing.T, s string) bson.D {
	t.Helper()
	d, ok := ejValue(t, s).(bson.D)
	if !ok {
		t.Fatalf("%s is not a document", s)
	}
	return d
}

// canonical renders v as canonical extended JSON: equal renderings mean
// equal values with the same field order and the same BSON types.
func canonical(t *testing.T, v any) string {
	t.Helper()
	b, err := bson.MarshalExtJSON(bson.D{{Key: "v", Value: v}}, true, false)
	if err != nil {
		t.Fatalf("marshal %v: %v", v, err)
	}
	return string(b)
}

func relaxed(v any) string {
	b, err := bson.MarshalExtJSON(bson.D{{Key: "v", Value: v}}, false, false)
	if err != nil {
		return err.Error()
	}
	s := string(b)
	return s[len(`{"v":`) : len(s)-1]
}

// sameValue fails unless got is want (relaxed extended JSON) exactly.
func sameValue(t *testing.T, what string, got any, want string) {
	t.Helper()
	w := ejValue(t, want)
	if canonical(t, got) != canonical(t, w) {
		t.Errorf("%s\n got: %s\nwant: %s", what, relaxed(got), relaxed(w))
	}
}

// sameDocs compares documents, in order or as a multiset.
func sameDocs(t *testing.T, what string, got []bson.D, want string, unordered bool) {
	t.Helper()
	w := ejArray(t, want)
	g := make(bson.A, len(got))
	for i, d := range got {
		g[i] = d
	}
	if unordered {
		sortByCanonical(t, g)
		sortByCanonical(t, w)
	}
	if canonical(t, g) != canonical(t, w) {
		t.Errorf("%s\n got: %s\nwant: %s", what, relaxed(g), relaxed(w))
	}
}

func sortByCanonical(t *testing.T, a bson.A) {
	keys := make(map[int]string, len(a))
	idx := make([]int, len(a))
	for i := range a {
		idx[i] = i
		keys[i] = canonical(t, a[i])
	}
	slices.SortStableFunc(idx, func(x, y int) int { return strings.Compare(keys[x], keys[y]) })
	sorted := make(bson.A, len(a))
	for i, j := range idx {
		sorted[i] = a[j]
	}
	copy(a, sorted)
}

func insertDocs(t *testing.T, coll *mongo.Collection, docs string) {
	t.Helper()
	if docs == "" {
		return
	}
	if a := ejArray(t, docs); len(a) > 0 {
		if _, err := coll.InsertMany(ctxFor(t), a); err != nil {
			t.Fatalf("insert into %s: %v", coll.Name(), err)
		}
	}
}

// command runs cmd and returns its reply, or the server's error.
func command(t *testing.T, db *mongo.Database, cmd bson.D) (bson.D, *mongo.CommandError) {
	t.Helper()
	var out bson.D
	err := db.RunCommand(ctxFor(t), cmd).Decode(&out)
	if err == nil {
		return out, nil
	}
	// The driver turns a reply holding writeErrors into a WriteException;
	// the reply itself is what the case checks.
	var we mongo.WriteException
	if errors.As(err, &we) && we.Raw != nil {
		if uerr := bson.Unmarshal(we.Raw, &out); uerr == nil {
			return out, nil
		}
	}
	return nil, serverError(t, cmd, err)
}

// serverError returns the server's error, failing the test on any other
// (a lost connection, a timeout).
func serverError(t *testing.T, cmd bson.D, err error) *mongo.CommandError {
	t.Helper()
	var ce mongo.CommandError
	if !errors.As(err, &ce) {
		t.Fatalf("%s: %v", relaxed(cmd), err)
	}
	return &ce
}

func mustCommand(t *testing.T, db *mongo.Database, cmd string) bson.D {
	t.Helper()
	out, ce := command(t, db, ejDoc(t, cmd))
	if ce != nil {
		t.Fatalf("%s: %v", cmd, ce)
	}
	return out
}

// cursorDocs runs a cursor command (find, aggregate) to the end.
// foundIDs runs a find command and returns the _id of each document it
// returns, in order.
func foundIDs(t *testing.T, db *mongo.Database, cmd bson.D) bson.A {
	t.Helper()
	got, err := cursorDocs(t, db, cmd)
	if err != nil {
		t.Fatal(err)
	}
	ids := bson.A{}
	for _, d := range got {
		ids = append(ids, field(d, "_id"))
	}
	return ids
}

func cursorDocs(t *testing.T, db *mongo.Database, cmd bson.D) ([]bson.D, *mongo.CommandError) {
	t.Helper()
	ctx := ctxFor(t)
	cur, err := db.RunCommandCursor(ctx, cmd)
	var out []bson.D
	if err == nil {
		err = cur.All(ctx, &out)
	}
	if err == nil {
		return out, nil
	}
	return nil, serverError(t, cmd, err)
}

// sameError fails unless err is the server error code with message msg
// (msg empty: any message).
func sameError(t *testing.T, what string, err *mongo.CommandError, code int32, msg string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: succeeded, want error %d %q", what, code, msg)
		return
	}
	if err.Code != code || (msg != "" && err.Message != msg) {
		t.Errorf("%s\n got error: %d %q\nwant error: %d %q", what, err.Code, err.Message, code, msg)
	}
}

func field(d bson.D, name string) any {
	for _, e := range d {
		if e.Key == name {
			return e.Value
		}
	}
	return nil
}
