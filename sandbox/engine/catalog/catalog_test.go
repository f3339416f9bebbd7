package catalog

import (
	"bytes"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func spec(t *testing.T, key bson.D, opts ...bson.E) index.Spec {
	t.Helper()
	d := append(bson.D{{Key: "key", Value: key}, {Key: "name", Value: index.DefaultName(key)}}, opts...)
	s, err := index.ParseSpec(d, false)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func code(err error) int32 {
	if me := mongoerr.As(err); me != nil {
		return me.Code
	}
	return 0
}

func TestInsertReplaceDeleteKeepOrderAndIndexes(t *testing.T) {
	cat := New(nil)
	c, err := cat.CreateCollection("db", "c", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateIndex(spec(t, bson.D{{Key: "a", Value: int32(1)}}, bson.E{Key: "unique", Value: true})); err != nil {
		t.Fatal(err)
	}
	var rids []int64
	for i := range 3 {
		rid, err := c.Insert(bson.D{{Key: "_id", Value: int32(i)}, {Key: "a", Value: int32(i)}})
		if err != nil {
			t.Fatal(err)
		}
		rids = append(rids, rid)
	}
	if err := c.Replace(rids[0], bson.D{{Key: "_id", Value: int32(0)}, {Key: "a", Value: int32(10)}}); err != nil {
		t.Fatal(err)
	}
	c.Delete(rids[1])
	var order []int32
	c.Scan(0, func(r *Record) bool { order = append(order, r.Doc[0].Value.(int32)); return true })
	if len(order) != 2 || order[0] != 0 || order[1] != 2 {
		t.Fatalf("natural order after update and delete: %v", order)
	}
	if n := c.Index("a_1").Len(); n != 2 {
		t.Fatalf("a_1 has %d entries", n)
	}
	// The old key of the replaced document is gone, so 0 is free again.
	if _, err := c.Insert(bson.D{{Key: "_id", Value: int32(7)}, {Key: "a", Value: int32(0)}}); err != nil {
		t.Fatal(err)
	}
}

func TestFailedInsertLeavesNoPartialEntries(t *testing.T) {
	cat := New(nil)
	c, _ := cat.CreateCollection("db", "c", nil)
	c.CreateIndex(spec(t, bson.D{{Key: "a", Value: int32(1)}}))
	c.CreateIndex(spec(t, bson.D{{Key: "b", Value: int32(1)}}, bson.E{Key: "unique", Value: true}))
	c.Insert(bson.D{{Key: "_id", Value: int32(1)}, {Key: "a", Value: int32(1)}, {Key: "b", Value: int32(1)}})
	_, err := c.Insert(bson.D{{Key: "_id", Value: int32(2)}, {Key: "a", Value: int32(2)}, {Key: "b", Value: int32(1)}})
	if code(err) != 11000 || !strings.Contains(err.Error(), "collection: db.c index: b_1 dup key: { b: 1 }") {
		t.Fatalf("got %v", err)
	}
	if c.Index("a_1").Len() != 1 || c.Index("_id_").Len() != 1 || c.Count() != 1 {
		t.Fatal("the failing document left index entries behind")
	}
	_, err = c.Insert(bson.D{{Key: "_id", Value: int32(1)}})
	if code(err) != 11000 || !strings.Contains(err.Error(), "index: _id_ dup key: { _id: 1 }") {
		t.Fatalf("duplicate _id: %v", err)
	}
}

func TestCreateIndexConflicts(t *testing.T) {
	cat := New(nil)
	c, _ := cat.CreateCollection("db", "c", nil)
	key := bson.D{{Key: "a", Value: int32(1)}}
	if created, err := c.CreateIndex(spec(t, key)); !created || err != nil {
		t.Fatal(created, err)
	}
	if created, err := c.CreateIndex(spec(t, key)); created || err != nil {
		t.Fatalf("identical spec must be a no-op: %v %v", created, err)
	}
	_, err := c.CreateIndex(spec(t, key, bson.E{Key: "unique", Value: true}))
	if code(err) != mongoerr.IndexKeySpecsConflict {
		t.Fatalf("same name, different unique: %v", err)
	}
	other, _ := index.ParseSpec(bson.D{{Key: "key", Value: key}, {Key: "name", Value: "other"}}, false)
	_, err = c.CreateIndex(other)
	if code(err) != mongoerr.IndexOptionsConflict || err.Error() != "Index already exists with a different name: a_1" {
		t.Fatalf("same key, other name: %v", err)
	}
	ttl := spec(t, key, bson.E{Key: "expireAfterSeconds", Value: int32(10)})
	_, err = c.CreateIndex(ttl)
	if code(err) != mongoerr.IndexOptionsConflict {
		t.Fatalf("same name, different TTL: %v", err)
	}
	if err := c.DropIndex("_id_"); code(err) != mongoerr.InvalidOptions {
		t.Fatalf("dropping _id_: %v", err)
	}
	if err := c.DropIndex("nope"); code(err) != mongoerr.IndexNotFound {
		t.Fatalf("dropping unknown: %v", err)
	}
}

func TestCreateUniqueIndexOverDuplicates(t *testing.T) {
	cat := New(nil)
	c, _ := cat.CreateCollection("db", "c", nil)
	c.Insert(bson.D{{Key: "_id", Value: int32(1)}, {Key: "a", Value: "x"}})
	c.Insert(bson.D{{Key: "_id", Value: int32(2)}, {Key: "a", Value: "x"}})
	_, err := c.CreateIndex(spec(t, bson.D{{Key: "a", Value: int32(1)}}, bson.E{Key: "unique", Value: true}))
	if code(err) != 11000 || len(c.Indexes()) != 1 {
		t.Fatalf("got %v", err)
	}
}

func TestNamespacesAndListing(t *testing.T) {
	cat := New(nil)
	for _, bad := range [][2]string{{"a.b", "c"}, {"a b", "c"}, {"a$", "c"}, {"db", ""}, {"db", "a$b"}, {"db", "system.foo"}} {
		if _, err := cat.CreateCollection(bad[0], bad[1], nil); code(err) != mongoerr.InvalidNamespace {
			t.Errorf("%v: %v", bad, err)
		}
	}
	c, _ := cat.CreateCollection("db", "c", nil)
	if _, err := cat.CreateCollection("db", "c", nil); code(err) != mongoerr.NamespaceExists || err.Error() != "Collection db.c already exists." {
		t.Fatalf("got %v", err)
	}
	e := c.ListCollectionsEntry()
	keys := []string{"name", "type", "options", "info", "idIndex"}
	for i, k := range keys {
		if e[i].Key != k {
			t.Fatalf("entry %v", e)
		}
	}
	if err := cat.RenameCollection("db", "c", "db", "d", false); err != nil {
		t.Fatal(err)
	}
	if d := cat.Snapshot("db", "d"); d == nil || !bytes.Equal(d.UUID.Data, c.UUID.Data) || cat.Snapshot("db", "c") != nil {
		t.Fatal("rename did not move the collection")
	}
	if !cat.DropCollection("db", "d") || cat.Database("db") != nil {
		t.Fatal("drop of the last collection removes the database")
	}
}
