package wire

import (
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// twoStudents is a server with alice and bob, each confined to a prefix,
// and a collection of 10 documents in each one's database.
func twoStudents(t *testing.T, alice, bob Account) (*Server, *mongo.Client, *mongo.Client) {
	t.Helper()
	srv := startAuthServer(t, Options{})
	alice.Prefix, bob.Prefix = "alice_", "bob_"
	addUser(t, srv, "alice", "s3cret", alice)
	addUser(t, srv, "bob", "hunter2", bob)
	a, b := connectAs(t, srv, "alice", "s3cret"), connectAs(t, srv, "bob", "hunter2")
	for _, c := range []struct {
		client *mongo.Client
		db     string
	}{{a, "alice_db"}, {b, "bob_db"}} {
		docs := make([]any, 10)
		for i := range docs {
			docs[i] = bson.D{{Key: "i", Value: int32(i)}}
		}
		if _, err := c.client.Database(c.db).Collection("c").InsertMany(bg, docs); err != nil {
			t.Fatal(err)
		}
	}
	return srv, a, b
}

// openCursor opens a find cursor of two documents per batch in its own
// explicit session, and returns its id and that session's context.
func openCursor(t *testing.T, client *mongo.Client, db string) (int64, *mongo.Session) {
	t.Helper()
	sess, err := client.StartSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.EndSession(bg) })
	var out bson.D
	err = client.Database(db).RunCommand(mongo.NewSessionContext(bg, sess),
		bson.D{{Key: "find", Value: "c"}, {Key: "batchSize", Value: 2}}).Decode(&out)
	if err != nil {
		t.Fatal(err)
	}
	return get(get(out, "cursor").(bson.D), "id").(int64), sess
}

func getMore(id int64) bson.D {
	return bson.D{{Key: "getMore", Value: id}, {Key: "collection", Value: "c"}, {Key: "batchSize", Value: 1}}
}

// A cursor is its user's and its session's: a classmate who learns (or
// guesses) its id can neither read it nor kill it, and another session
// of its own user cannot read it either. killCursors finds a cursor by its
// id alone, as mongod's CursorManager does, whatever namespace it names;
// a classmate's refusal names the command's namespace, not the cursor's.
func TestCursorsBelongToTheirUserSessionAndNamespace(t *testing.T) {
	_, alice, bob := twoStudents(t, Account{}, Account{})
	id, sess := openCursor(t, bob, "bob_db")
	own := mongo.NewSessionContext(bg, sess)

	// Alice names her own database (the server refuses bob's anyway).
	err := alice.Database("alice_db").RunCommand(bg, getMore(id)).Err()
	wantServerError(t, "alice's getMore of bob's cursor", err, mongoerr.Unauthorized,
		fmt.Sprintf("cursor id %d was not created by the authenticated user", id))
	err = alice.Database("bob_db").RunCommand(bg, getMore(id)).Err()
	wantServerError(t, "alice's getMore in bob's database", err, mongoerr.Unauthorized, "")

	var reply bson.D
	err = alice.Database("alice_db").RunCommand(bg, bson.D{{Key: "killCursors", Value: "c"}, {Key: "cursors", Value: bson.A{id}}}).Err()
	wantServerError(t, "alice's killCursors of bob's cursor", err, mongoerr.Unauthorized, "not authorized to kill cursor on alice_db.c")

	// Bob himself, in another session: mongod's 50738.
	err = bob.Database("bob_db").RunCommand(bg, getMore(id)).Err()
	code, msg := serverError(err)
	if code != 50738 || !strings.HasPrefix(msg, fmt.Sprintf("Cannot run getMore on cursor %d, which was created in session ", id)) ||
		!strings.HasSuffix(msg, " -  - ") {
		t.Fatalf("getMore from another session: %v", err)
	}
	// In its own session the cursor is all there: neither classmate nor
	// other session took anything from it.
	if err := bob.Database("bob_db").RunCommand(own, getMore(id)).Err(); err != nil {
		t.Fatalf("bob's own getMore: %v", err)
	}
	// His killCursors kills it, even naming another of his collections.
	if err := bob.Database("bob_db").RunCommand(own, bson.D{{Key: "killCursors", Value: "other"}, {Key: "cursors", Value: bson.A{id}}}).Decode(&reply); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(get(reply, "cursorsKilled")) != fmt.Sprint(bson.A{id}) {
		t.Fatalf("bob's killCursors: %v", reply)
	}
}

// Cursor ids are random 64-bit numbers, as mongod's are, so a classmate's
// cannot be guessed from one's own.
func TestCursorIDsAreRandom(t *testing.T) {
	_, alice, _ := twoStudents(t, Account{}, Account{})
	seen := map[int64]bool{}
	var high, low int
	for range 64 {
		id, _ := openCursor(t, alice, "alice_db")
		if seen[id] || id <= 0 {
			t.Fatalf("id %d repeated or not positive", id)
		}
		seen[id] = true
		if bits.Len64(uint64(id)) > 56 {
			high++
		} else {
			low++
		}
	}
	// 62 random bits: nearly every id needs more than 56 of them.
	if high < 50 {
		t.Fatalf("ids look small or sequential: %d of 64 above 2^56", high)
	}
}

// Each user's open cursors count against that user's cap alone: one
// student holding the most cursors leaves a classmate free to open more.
func TestCursorQuotaPerUser(t *testing.T) {
	srv, alice, bob := twoStudents(t, Account{MaxCursors: 5}, Account{MaxCursors: 5})
	for range 5 {
		openCursor(t, alice, "alice_db")
	}
	err := alice.Database("alice_db").RunCommand(bg, bson.D{{Key: "find", Value: "c"}, {Key: "batchSize", Value: 2}}).Err()
	wantServerError(t, "alice's sixth cursor", err, mongoerr.ResourceExhausted,
		"Cannot open a new cursor: user alice already has 5 open cursors, the most one user may keep on this server. Exhaust or close cursors you no longer need; idle ones expire after 10m0s.")
	for range 5 {
		openCursor(t, bob, "bob_db")
	}
	if a, b := srv.Usage("alice").OpenCursors, srv.Usage("bob").OpenCursors; a != 5 || b != 5 {
		t.Fatalf("usage: alice %d, bob %d cursors", a, b)
	}
}

// A student over the storage quota gets Atlas's error for each write that
// would take it further, and is back under it as soon as deletes free
// space; a classmate is not affected.
func TestStorageQuota(t *testing.T) {
	const quota = 256 << 10
	srv, alice, bob := twoStudents(t, Account{MaxStorageBytes: quota}, Account{MaxStorageBytes: quota})
	coll := alice.Database("alice_db").Collection("big")
	doc := func(i int) bson.D {
		return bson.D{{Key: "_id", Value: int32(i)}, {Key: "s", Value: strings.Repeat("x", 16<<10)}}
	}
	var inserted int
	var err error
	for inserted = 0; inserted < 100; inserted++ {
		if _, err = coll.InsertOne(bg, doc(inserted)); err != nil {
			break
		}
	}
	code, msg := serverError(err)
	if code != mongoerr.AtlasError || !strings.HasPrefix(msg, "you are over your space quota, using ") || inserted < 8 || inserted > 16 {
		t.Fatalf("after %d inserts: %v", inserted, err)
	}
	t.Logf("refused after %d × 16 KiB: %s", inserted, msg)
	used := srv.Usage("alice").StorageBytes
	if used > quota+64<<10 {
		t.Fatalf("usage %d is past the quota by more than one document and its index entries", used)
	}

	// Every other way of growing is refused too.
	many := []any{doc(1000), doc(1001)}
	_, err = coll.InsertMany(bg, many)
	wantServerError(t, "insertMany", err, mongoerr.AtlasError, "")
	_, err = coll.UpdateOne(bg, bson.D{{Key: "_id", Value: 0}}, bson.D{{Key: "$set", Value: bson.D{{Key: "t", Value: strings.Repeat("y", 64<<10)}}}})
	wantServerError(t, "growing update", err, mongoerr.AtlasError, "")
	_, err = coll.Aggregate(bg, mongo.Pipeline{{{Key: "$out", Value: "copy"}}})
	wantServerError(t, "$out", err, mongoerr.AtlasError, "")
	err = alice.Database("alice_db").RunCommand(bg, bson.D{{Key: "cloneCollectionAsCapped", Value: "big"}, {Key: "toCollection", Value: "capped"}, {Key: "size", Value: 1 << 30}}).Err()
	wantServerError(t, "cloneCollectionAsCapped", err, mongoerr.AtlasError, "")
	if names, err := alice.Database("alice_db").ListCollectionNames(bg, bson.D{{Key: "name", Value: "capped"}}); err != nil || len(names) != 0 {
		t.Fatalf("the refused clone left %v (%v)", names, err)
	}
	// An index on the big strings would double the storage: it is built,
	// found too large, and dropped again.
	_, err = coll.Indexes().CreateOne(bg, mongo.IndexModel{Keys: bson.D{{Key: "s", Value: 1}}})
	wantServerError(t, "createIndexes", err, mongoerr.AtlasError, "")
	specs, err := coll.Indexes().ListSpecifications(bg)
	if err != nil || len(specs) != 1 {
		t.Fatalf("indexes after the refused build: %v %v", specs, err)
	}
	// A shrinking update and reads still work.
	if _, err := coll.UpdateOne(bg, bson.D{{Key: "_id", Value: 0}}, bson.D{{Key: "$set", Value: bson.D{{Key: "s", Value: "short"}}}}); err != nil {
		t.Fatalf("shrinking update: %v", err)
	}
	if n, err := coll.CountDocuments(bg, bson.D{}); err != nil || n != int64(inserted) {
		t.Fatalf("count: %d %v", n, err)
	}

	// Bob, with the same quota, is untouched.
	if _, err := bob.Database("bob_db").Collection("big").InsertOne(bg, doc(0)); err != nil {
		t.Fatalf("bob: %v", err)
	}

	// Deleting frees space at once.
	if _, err := coll.DeleteMany(bg, bson.D{{Key: "_id", Value: bson.D{{Key: "$gte", Value: 2}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := coll.InsertOne(bg, doc(2000)); err != nil {
		t.Fatalf("insert after deleting: %v", err)
	}
	// Dropping the collection too.
	if err := coll.Drop(bg); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		if _, err := coll.InsertOne(bg, doc(i)); err != nil {
			t.Fatalf("insert %d after the drop: %v", i, err)
		}
	}
}

// The quota counts every database of the prefix, not one at a time.
func TestStorageQuotaSpansTheUsersDatabases(t *testing.T) {
	const quota = 128 << 10
	_, alice, _ := twoStudents(t, Account{MaxStorageBytes: quota}, Account{})
	big := bson.D{{Key: "s", Value: strings.Repeat("x", 48<<10)}}
	for _, db := range []string{"alice_a", "alice_b"} {
		if _, err := alice.Database(db).Collection("c").InsertOne(bg, big); err != nil {
			t.Fatalf("%s: %v", db, err)
		}
	}
	_, err := alice.Database("alice_c").Collection("c").InsertOne(bg, big)
	wantServerError(t, "third database", err, mongoerr.AtlasError, "")
	if err := alice.Database("alice_a").Drop(bg); err != nil {
		t.Fatal(err)
	}
	if _, err := alice.Database("alice_c").Collection("c").InsertOne(bg, big); err != nil {
		t.Fatalf("after dropping a database: %v", err)
	}
}

// Usage reports what the dashboard shows.
func TestUsage(t *testing.T) {
	srv, alice, _ := twoStudents(t, Account{}, Account{})
	openCursor(t, alice, "alice_db")
	u := srv.Usage("alice")
	if u.OpenCursors != 1 || u.Connections < 1 || u.StorageBytes <= 0 {
		t.Fatalf("usage: %+v", u)
	}
	var stats bson.D
	if err := alice.Database("alice_db").RunCommand(bg, bson.D{{Key: "dbStats", Value: 1}}).Decode(&stats); err != nil {
		t.Fatal(err)
	}
	// Storage is what dbStats shows: dataSize plus indexSize.
	want := toInt64(get(stats, "dataSize")) + toInt64(get(stats, "indexSize"))
	if u.StorageBytes != want {
		t.Fatalf("StorageBytes %d, dbStats says %d", u.StorageBytes, want)
	}
}

func toInt64(v any) int64 {
	switch n := v.(type) {
	case int32:
		return int64(n)
	case int64:
		return n
	case float64:
		return int64(n)
	}
	return -1
}

// A user's snapshots are bounded across all its databases, which cost
// nothing to make: a bound per database alone would bound nothing.
func TestSnapshotsPerUser(t *testing.T) {
	_, alice, bob := twoStudents(t, Account{MaxStorageBytes: 1 << 20}, Account{MaxStorageBytes: 1 << 20})
	save := func(c *mongo.Client, db, name string) error {
		return c.Database(db).RunCommand(bg, bson.D{{Key: "schemalabSnapshot", Value: "save"}, {Key: "name", Value: name}}).Err()
	}
	for i := range 256 {
		if err := save(alice, fmt.Sprintf("alice_db%d", i%8), fmt.Sprint(i)); err != nil {
			t.Fatalf("snapshot %d: %v", i, err)
		}
	}
	err := save(alice, "alice_other", "one more")
	wantServerError(t, "snapshot 257", err, mongoerr.IllegalOperation,
		"your databases already have 256 snapshots, the most the embedded server keeps for one user; drop some first")
	// Saving again under a name that exists replaces it, and a classmate
	// has a bound of his own.
	if err := save(alice, "alice_db0", "0"); err != nil {
		t.Fatalf("replacing a snapshot: %v", err)
	}
	if err := save(bob, "bob_db", "mine"); err != nil {
		t.Fatalf("bob: %v", err)
	}
}
