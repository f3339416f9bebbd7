package engine_test

import (
	"context"
	"errors"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// Conformance tests write documents as relaxed extended JSON, as the MongoDB
// manual and jstests do: whole numbers are int32 (int64 when too large),
// numbers with a fraction or exponent are doubles, and {"$numberLong": ...}
// and friends spell the other types exactly.

// j parses relaxed extended JSON into a document, failing the test on bad JSON.
func j(t testing.TB, s string) bson.D {
	t.Helper()
	var d bson.D
	if err := bson.UnmarshalExtJSON([]byte(s), false, &d); err != nil {
		t.Fatalf("bad test JSON %s: %v", s, err)
	}
	return d
}

// canon renders v as canonical extended JSON, so comparing two renderings
// checks field order and exact BSON types.
func canon(t testing.TB, v any) string {
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
	return string(b)
}

// sameJSON fails unless got equals the relaxed extended JSON want, with
// exact types and field order.
func sameJSON(t testing.TB, what string, got any, want string) {
	t.Helper()
	var w bson.D
	if err := bson.UnmarshalExtJSON([]byte(`{"v":`+want+`}`), false, &w); err != nil {
		t.Fatalf("bad test JSON %s: %v", want, err)
	}
	if canon(t, got) != canon(t, w[0].Value) {
		t.Errorf("%s\n got: %s\nwant: %s", what, relaxed(got), relaxed(w[0].Value))
	}
}

// confColl gives a fresh collection holding docs (relaxed extended JSON).
func confColl(t testing.TB, docs ...string) (*mongo.Database, *mongo.Collection) {
	t.Helper()
	client := startServer(t)
	db := client.Database("conf")
	coll := db.Collection("c")
	if len(docs) > 0 {
		in := make([]any, len(docs))
		for i, s := range docs {
			in[i] = j(t, s)
		}
		if _, err := coll.InsertMany(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	return db, coll
}

// runJ runs a command given as relaxed extended JSON and returns the reply
// or the server's command error.
func runJ(t testing.TB, db *mongo.Database, cmd string) (bson.D, *mongo.CommandError) {
	t.Helper()
	return runJIn(ctx, t, db, cmd)
}

// inSession is a context with an explicit session of db's client, ended
// with the test: a cursor's getMores must run in the logical session
// that opened it (mongod refuses others with 50738), and two operations'
// implicit sessions need not be the same one. A session is for one
// goroutine at a time.
func inSession(t testing.TB, db *mongo.Database) context.Context {
	t.Helper()
	sess, err := db.Client().StartSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.EndSession(ctx) })
	return mongo.NewSessionContext(ctx, sess)
}

// okJIn is okJ in the context c.
func okJIn(c context.Context, t testing.TB, db *mongo.Database, cmd string) bson.D {
	t.Helper()
	out, ce := runJIn(c, t, db, cmd)
	if ce != nil {
		t.Fatalf("%s: %v", cmd, ce)
	}
	return out
}

// wantErrIn is wantErr in the context c.
func wantErrIn(c context.Context, t testing.TB, db *mongo.Database, cmd string, code int32, msg string) {
	t.Helper()
	_, ce := runJIn(c, t, db, cmd)
	if ce == nil {
		t.Errorf("%s: succeeded, want error %d %q", cmd, code, msg)
		return
	}
	if ce.Code != code || (msg != "" && ce.Message != msg) {
		t.Errorf("%s:\n got: %d %q\nwant: %d %q", cmd, ce.Code, ce.Message, code, msg)
	}
}

// runJIn is runJ in the context c: an explicit session's, for commands
// that must run in one logical session (a cursor's getMore).
func runJIn(c context.Context, t testing.TB, db *mongo.Database, cmd string) (bson.D, *mongo.CommandError) {
	t.Helper()
	var out bson.D
	res := db.RunCommand(c, j(t, cmd))
	err := res.Decode(&out)
	if err == nil {
		return out, nil
	}
	// The driver turns a reply with writeErrors into a WriteException;
	// the reply itself is still the one to check.
	var we mongo.WriteException
	if errors.As(err, &we) && we.Raw != nil {
		if err := bson.Unmarshal(we.Raw, &out); err == nil {
			return out, nil
		}
	}
	var ce mongo.CommandError
	if errors.As(err, &ce) {
		return out, &ce
	}
	t.Fatalf("%s: %v", cmd, err)
	return nil, nil
}

// okJ runs a command that must succeed.
func okJ(t testing.TB, db *mongo.Database, cmd string) bson.D {
	t.Helper()
	return okJIn(ctx, t, db, cmd)
}

// wantErr checks that a command fails with mongod's code and exact message.
func wantErr(t testing.TB, db *mongo.Database, cmd string, code int32, msg string) {
	t.Helper()
	wantErrIn(ctx, t, db, cmd, code, msg)
}

// field returns a top-level field of a reply.
func field(d bson.D, name string) any {
	for _, e := range d {
		if e.Key == name {
			return e.Value
		}
	}
	return nil
}

// firstBatch runs a find or aggregate command and returns cursor.firstBatch.
func firstBatch(t testing.TB, db *mongo.Database, cmd string) bson.A {
	t.Helper()
	out := okJ(t, db, cmd)
	cur, _ := field(out, "cursor").(bson.D)
	fb, _ := field(cur, "firstBatch").(bson.A)
	if fb == nil {
		fb = bson.A{}
	}
	return fb
}

// idsOf lists the _id values of a batch as relaxed JSON.
func idsOf(batch bson.A) string {
	ids := bson.A{}
	for _, d := range batch {
		if doc, ok := d.(bson.D); ok {
			ids = append(ids, field(doc, "_id"))
		}
	}
	return relaxed(ids)
}

// findIDs runs find with filter (relaxed JSON) sorted by _id and checks the ids.
func findIDs(t *testing.T, db *mongo.Database, filter, want string) {
	t.Helper()
	batch := firstBatch(t, db, `{"find":"c","filter":`+filter+`,"sort":{"_id":1}}`)
	got := idsOf(batch)
	if got != `{"v":`+want+`}` {
		t.Errorf("filter %s\n got: %s\nwant: %s", filter, got, want)
	}
}
