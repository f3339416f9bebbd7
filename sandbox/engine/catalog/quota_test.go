package catalog

import (
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// liveData is the data size of every live collection under prefix,
// counted from scratch: what a quota's running count must equal.
func liveData(c *Catalog, prefix string) int64 {
	var n int64
	for _, name := range c.DatabaseNames() {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		for _, col := range c.Database(name).Collections() {
			n += col.DataSize()
		}
	}
	return n
}

func write(t *testing.T, cat *Catalog, db, coll string, fn func(col *Collection) error) {
	t.Helper()
	if err := cat.Write(db, coll, true, fn); err != nil {
		t.Fatalf("%s.%s: %v", db, coll, err)
	}
}

// A quota's count of data bytes follows every way data enters and leaves
// its databases: inserts, replaces, deletes, truncation, drops, renames in
// and out, snapshot restores, and a database dropped whole. Another
// prefix's data is not counted.
func TestQuotaCountsEveryWayDataMoves(t *testing.T) {
	cat := New(nil)
	doc := func(i int, s string) bson.D { return bson.D{{Key: "_id", Value: int32(i)}, {Key: "s", Value: s}} }
	// Data that exists before the quota is counted when it is set.
	write(t, cat, "alice_a", "c", func(col *Collection) error { _, err := col.Insert(doc(1, "before")); return err })
	q := &Quota{Prefix: "alice_", Max: 1 << 30}
	cat.SetQuota(q)
	check := func(step string) {
		t.Helper()
		if got, want := q.data.Load(), liveData(cat, "alice_"); got != want {
			t.Fatalf("after %s: quota counts %d bytes, the databases hold %d", step, got, want)
		}
	}
	check("SetQuota")
	var rid int64
	write(t, cat, "alice_a", "c", func(col *Collection) error {
		var err error
		rid, err = col.Insert(doc(2, "x"))
		return err
	})
	write(t, cat, "bob_a", "c", func(col *Collection) error { _, err := col.Insert(doc(1, "bob's")); return err })
	check("inserts")
	write(t, cat, "alice_a", "c", func(col *Collection) error { return col.Replace(rid, doc(2, strings.Repeat("y", 100))) })
	check("a growing replace")
	write(t, cat, "alice_a", "c", func(col *Collection) error { return col.Replace(rid, doc(2, "z")) })
	check("a shrinking replace")
	write(t, cat, "alice_a", "c", func(col *Collection) error { col.Delete(rid); return nil })
	check("a delete")
	write(t, cat, "alice_a", "d", func(col *Collection) error { _, err := col.Insert(doc(3, "d")); return err })
	write(t, cat, "alice_a", "d", func(col *Collection) error { col.Truncate(); return nil })
	check("a truncate")
	snap := cat.SnapshotDatabase("alice_a", time.Now())
	if err := cat.RenameCollection("alice_a", "c", "bob_a", "moved", false); err != nil {
		t.Fatal(err)
	}
	check("a rename out of the prefix")
	if err := cat.RenameCollection("bob_a", "c", "alice_b", "in", false); err != nil {
		t.Fatal(err)
	}
	check("a rename into the prefix")
	if err := cat.RestoreDatabase("alice_c", snap); err != nil {
		t.Fatal(err)
	}
	check("a restore")
	if err := cat.RestoreDatabase("alice_c", snap); err != nil {
		t.Fatal(err)
	}
	check("a restore over the restored copy")
	cat.DropCollection("alice_b", "in")
	check("a drop")
	cat.DropDatabase("alice_c")
	check("a dropped database")
	err := cat.ChangeNamespace("alice_d", func(ch *Change) error {
		if err := ch.Write("e", true, func(col *Collection) error { _, err := col.Insert(doc(9, "lost")); return err }); err != nil {
			return err
		}
		return mongoerr.New(mongoerr.BadValue, "fail the change")
	})
	if err == nil {
		t.Fatal("the change did not fail")
	}
	check("a failed namespace change")
	cat.RemoveQuota("alice_")
	write(t, cat, "alice_a", "c", func(col *Collection) error { _, err := col.Insert(doc(4, "after")); return err })
	if q.data.Load() == liveData(cat, "alice_") {
		t.Fatal("a removed quota still counts")
	}
}

// A write that would take the data past the quota fails with Atlas's
// error and changes nothing; so does a restore.
func TestQuotaRefusesGrowthPastTheLimit(t *testing.T) {
	cat := New(nil)
	q := &Quota{Prefix: "alice_", Max: 1000}
	cat.SetQuota(q)
	big := bson.D{{Key: "_id", Value: int32(1)}, {Key: "s", Value: strings.Repeat("x", 600)}}
	write(t, cat, "alice_a", "c", func(col *Collection) error { _, err := col.Insert(big); return err })
	err := cat.Write("alice_a", "c", true, func(col *Collection) error {
		_, err := col.Insert(bson.D{{Key: "_id", Value: int32(2)}, {Key: "s", Value: strings.Repeat("x", 600)}})
		return err
	})
	if code(err) != mongoerr.AtlasError || cat.Snapshot("alice_a", "c").Count() != 1 {
		t.Fatalf("second insert: %v", err)
	}
	snap := cat.SnapshotDatabase("alice_a", time.Now())
	if err := cat.RestoreDatabase("alice_b", snap); code(err) != mongoerr.AtlasError || cat.Database("alice_b") != nil {
		t.Fatalf("restoring a copy past the quota: %v", err)
	}
	// Restoring over the database itself replaces its data: no growth.
	if err := cat.RestoreDatabase("alice_a", snap); err != nil {
		t.Fatalf("restoring in place: %v", err)
	}
	// Another prefix is not limited.
	if err := cat.RestoreDatabase("bob_a", snap); err != nil {
		t.Fatal(err)
	}
}
