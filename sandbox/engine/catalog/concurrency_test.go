package catalog

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// A snapshot is isolated: writes after it, to the live collection and to
// its indexes, leave it exactly as it was.
func TestSnapshotIsIsolatedFromLaterWrites(t *testing.T) {
	cat := New(nil)
	if _, err := cat.CreateCollection("db", "c", nil); err != nil {
		t.Fatal(err)
	}
	write := func(fn func(c *Collection) error) {
		t.Helper()
		if err := cat.Write("db", "c", false, fn); err != nil {
			t.Fatal(err)
		}
	}
	write(func(c *Collection) error {
		if _, err := c.CreateIndex(spec(t, bson.D{{Key: "a", Value: int32(1)}})); err != nil {
			return err
		}
		for i := range 100 {
			if _, err := c.Insert(bson.D{{Key: "_id", Value: int32(i)}, {Key: "a", Value: int32(i)}}); err != nil {
				return err
			}
		}
		return nil
	})
	snap := cat.Snapshot("db", "c")
	if again := cat.Snapshot("db", "c"); again != snap {
		t.Error("a snapshot without writes in between is not shared")
	}
	write(func(c *Collection) error {
		c.Delete(1)
		if err := c.Replace(2, bson.D{{Key: "_id", Value: int32(1)}, {Key: "a", Value: int32(500)}}); err != nil {
			return err
		}
		_, err := c.Insert(bson.D{{Key: "_id", Value: int32(1000)}, {Key: "a", Value: int32(-1)}})
		return err
	})
	if snap.Count() != 100 {
		t.Errorf("snapshot count %d", snap.Count())
	}
	if d, ok := snap.Get(2); !ok || d[1].Value != int32(1) {
		t.Errorf("snapshot record 2: %v", d)
	}
	n := 0
	snap.Index("a_1").Ascend(func(e index.Entry) bool {
		if e.Key[0] != int32(n) {
			t.Errorf("snapshot index entry %d is %v", n, e.Key)
		}
		n++
		return true
	})
	if n != 100 {
		t.Errorf("snapshot index has %d entries", n)
	}
	if live := cat.Snapshot("db", "c"); live == snap || live.Count() != 100 || live.Index("a_1").Len() != 100 {
		t.Errorf("the new snapshot does not show the writes: %d", live.Count())
	}
}

// Run under -race, this is the proof that google/btree's Clone contract
// holds: Clone writes to the tree it clones, so it may not run alongside a
// write to that tree, nor alongside another Clone of it. Writers write,
// readers snapshot and scan, views lock several collections, and renames,
// drops and snapshot restores retire collections under writers, all at
// once; every snapshot must agree with its own indexes.
func TestConcurrentWritesSnapshotsAndRestores(t *testing.T) {
	cat := New(nil)
	for _, name := range []string{"a", "b"} {
		c, err := cat.CreateCollection("db", name, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.CreateIndex(spec(t, bson.D{{Key: "k", Value: int32(1)}})); err != nil {
			t.Fatal(err)
		}
	}
	saved := cat.SnapshotDatabase("db", time.Now())
	var stop atomic.Bool
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	run := func(f func(i int) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stop.Load(); i++ {
				if err := f(i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for w := range 3 {
		run(func(i int) error {
			name := []string{"a", "b", "c"}[w]
			return cat.Write("db", name, true, func(c *Collection) error {
				rid, err := c.Insert(bson.D{{Key: "_id", Value: fmt.Sprint(w, "-", i)}, {Key: "k", Value: int32(i)}})
				if err != nil {
					return err
				}
				if i%3 == 0 {
					return c.Replace(rid, bson.D{{Key: "_id", Value: fmt.Sprint(w, "-", i)}, {Key: "k", Value: int32(-i)}})
				}
				if i%5 == 0 {
					c.Delete(rid)
				}
				return nil
			})
		})
	}
	consistent := func(c *Collection) error {
		if c == nil {
			return nil
		}
		if c.Count() != c.Indexes()[0].Len() {
			return fmt.Errorf("%d records, %d _id keys", c.Count(), c.Indexes()[0].Len())
		}
		if ix := c.Index("k_1"); ix != nil && ix.Len() != c.Count() {
			return fmt.Errorf("%d records, %d k keys", c.Count(), ix.Len())
		}
		n := 0
		c.Scan(0, func(*Record) bool { n++; return true })
		if n != c.Count() {
			return fmt.Errorf("scanned %d of %d records", n, c.Count())
		}
		return nil
	}
	run(func(int) error { return consistent(cat.Snapshot("db", "a")) })
	run(func(int) error {
		v := cat.View(Namespace{"db", "a"}, Namespace{"db", "b"}, Namespace{"db", "c"})
		for _, n := range []string{"a", "b", "c"} {
			if err := consistent(v.Collection("db", n)); err != nil {
				return err
			}
		}
		return nil
	})
	run(func(i int) error {
		switch i % 4 {
		case 0:
			saved = cat.SnapshotDatabase("db", time.Now())
		case 1:
			_ = cat.RestoreDatabase("copy", saved)
		case 2:
			if d := cat.Database("copy"); d != nil {
				for _, c := range d.Collections() {
					if err := consistent(c); err != nil {
						return err
					}
				}
			}
		case 3:
			_ = cat.RenameCollection("db", "c", "db", "c2", true)
			cat.DropCollection("db", "c2")
		}
		return nil
	})
	time.Sleep(time.Second)
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// A namespace change is seen whole or not at all: readers taking views of
// a time-series pair never find one collection of it without the other,
// a failed change creates nothing (not even a collection it made to write
// into), and a rename never moves a time-series view away from its
// buckets.
func TestChangeNamespaceIsAllOrNothing(t *testing.T) {
	cat := New(nil)
	pair := []Namespace{{"db", "m"}, {"db", "system.buckets.m"}}
	create := func(ch *Change) error {
		if _, err := ch.Create("system.buckets.m", nil); err != nil {
			return err
		}
		v, err := ch.Create("m", nil)
		if err != nil {
			return err
		}
		v.Kind = KindTimeseries
		return ch.Write("system.views", true, func(views *Collection) error {
			_, err := views.Insert(bson.D{{Key: "_id", Value: "db.m"}})
			return err
		})
	}
	drop := func(ch *Change) error {
		ch.Drop("m")
		ch.Drop("system.buckets.m")
		return ch.Write("system.views", false, func(views *Collection) error {
			views.Truncate()
			return nil
		})
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var torn atomic.Int64
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				v := cat.View(append(pair, Namespace{"db", "system.views"})...)
				view, buckets, views := v.Collection("db", "m"), v.Collection("db", "system.buckets.m"), v.Collection("db", "system.views")
				hasEntry := views != nil && views.Count() == 1
				if (view == nil) != (buckets == nil) || (view == nil) == hasEntry {
					torn.Add(1)
				}
				if view != nil && cat.Kind("db", "m") == KindCollection {
					torn.Add(1)
				}
			}
		}()
	}
	for range 300 {
		if err := cat.ChangeNamespace("db", create); err != nil {
			t.Fatal(err)
		}
		if err := cat.ChangeNamespace("db", drop); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if n := torn.Load(); n > 0 {
		t.Errorf("%d views saw half a namespace change", n)
	}

	// A failure after the creates leaves nothing behind: the duplicate
	// entry in system.views fails the last write.
	if err := cat.ChangeNamespace("db", create); err != nil {
		t.Fatal(err)
	}
	if err := cat.ChangeNamespace("db", drop); err != nil {
		t.Fatal(err)
	}
	cat.DropCollection("db", "system.views")
	err := cat.ChangeNamespace("db", func(ch *Change) error {
		if err := create(ch); err != nil {
			return err
		}
		return ch.Write("system.views", false, func(views *Collection) error {
			_, err := views.Insert(bson.D{{Key: "_id", Value: "db.m"}})
			return err
		})
	})
	if code(err) != mongoerr.DuplicateKey {
		t.Fatalf("err %v, want a duplicate key", err)
	}
	if names := cat.DatabaseNames(); len(names) != 0 {
		t.Errorf("a failed change left databases %v", names)
	}

	// A rename neither moves a time-series view nor drops one as its target.
	if err := cat.ChangeNamespace("db", create); err != nil {
		t.Fatal(err)
	}
	if _, err := cat.CreateCollection("db", "plain", nil); err != nil {
		t.Fatal(err)
	}
	if err := cat.RenameCollection("db", "m", "db", "moved", false); code(err) != mongoerr.CommandNotSupportedOnView {
		t.Errorf("rename of the view: %v", err)
	}
	for _, dropTarget := range []bool{true, false} {
		if err := cat.RenameCollection("db", "plain", "db", "m", dropTarget); code(err) != mongoerr.NamespaceExists {
			t.Errorf("rename onto the view (dropTarget %v): %v", dropTarget, err)
		}
	}
	if cat.Snapshot("db", "m") == nil || cat.Snapshot("db", "plain") == nil {
		t.Error("a refused rename moved or dropped a collection")
	}
}
