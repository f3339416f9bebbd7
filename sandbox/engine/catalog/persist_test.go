package catalog

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
)

func docsOf(c *Collection) []string {
	var out []string
	c.Scan(0, func(r *Record) bool {
		out = append(out, fmt.Sprint(r.ID, r.Doc))
		return true
	})
	return out
}

func entriesOf(ix *index.Index) []string {
	var out []string
	ix.Ascend(func(e index.Entry) bool {
		out = append(out, fmt.Sprint(e.Key, e.RID))
		return true
	})
	return out
}

// The documents and indexes read from a snapshot file are decoded and
// filled when first used, once for all the copies restored from them,
// whichever is used first and however many readers use them at once; and
// entries that do not match
// their records (a file some other program wrote) are not trusted: the
// index is built from the documents instead, so the answers are the same.
func TestDecodedCollectionsAreReadOnFirstUseFromTrustedEntriesOnly(t *testing.T) {
	cat := New(nil)
	c, err := cat.CreateCollection("db", "c", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateIndex(spec(t, bson.D{{Key: "tags", Value: int32(1)}})); err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		tags := bson.A{fmt.Sprint("t", i%7), fmt.Sprint("u", i%3)}
		if _, err := c.Insert(bson.D{{Key: "_id", Value: int32(i)}, {Key: "tags", Value: tags}}); err != nil {
			t.Fatal(err)
		}
	}
	want, wantDocs := entriesOf(c.Index("tags_1")), docsOf(c)
	var buf bytes.Buffer
	if err := cat.SnapshotDatabase("db", time.Now()).Encode(&buf); err != nil {
		t.Fatal(err)
	}
	// The file ends with the entries of tags_1, eight bytes each: two
	// swapped are out of order.
	good := buf.Bytes()
	bad := slices.Clone(good)
	n := len(bad)
	a, b := slices.Clone(bad[n-16:n-8]), slices.Clone(bad[n-8:])
	copy(bad[n-16:], b)
	copy(bad[n-8:], a)
	noValidator := func(bson.D) (*validation.Validator, error) { return nil, nil }

	for name, data := range map[string][]byte{"good": good, "swapped": bad} {
		s, err := cat.DecodeSnapshot(data, "db", time.Now(), noValidator)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var wg sync.WaitGroup
		got, gotDocs := make([][]string, 4), make([][]string, 4)
		for i := range got {
			wg.Go(func() { got[i] = entriesOf(s.colls["c"].Index("tags_1")) })
			wg.Go(func() { gotDocs[i] = docsOf(s.colls["c"]) })
		}
		for _, db := range []string{"copy1", "copy2"} {
			if err := cat.RestoreDatabase(db, s); err != nil {
				t.Fatal(err)
			}
		}
		wg.Wait()
		for _, db := range []string{"copy1", "copy2"} {
			ix := cat.SnapshotDatabase(db, time.Now()).colls["c"].Index("tags_1")
			got = append(got, entriesOf(ix))
			gotDocs = append(gotDocs, docsOf(cat.SnapshotDatabase(db, time.Now()).colls["c"]))
			if !ix.IsMultiKey() {
				t.Errorf("%s: %s's tags_1 is not multikey", name, db)
			}
		}
		for i, g := range gotDocs {
			if !slices.Equal(g, wantDocs) {
				t.Errorf("%s: copy %d has documents %v, want %v", name, i, g, wantDocs)
			}
		}
		for i, g := range got {
			if !slices.Equal(g, want) {
				t.Errorf("%s: copy %d has entries %v, want %v", name, i, g, want)
			}
		}
	}
}

// Entries that are in order and name keys their records give, but leave
// some out, are not trusted either: the index they would fill answers
// without those records. The file names every key of every record, so
// one short of that (a sparse index's record with no key aside) is
// rebuilt from the documents.
func TestDecodedIndexMissingEntriesIsRebuilt(t *testing.T) {
	for _, opts := range [][]bson.E{nil, {{Key: "sparse", Value: true}}} {
		cat := New(nil)
		c, err := cat.CreateCollection("db", "c", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.CreateIndex(spec(t, bson.D{{Key: "n", Value: int32(1)}}, opts...)); err != nil {
			t.Fatal(err)
		}
		for i := range 6 {
			doc := bson.D{{Key: "_id", Value: int32(i)}, {Key: "n", Value: bson.A{int32(i), int32(10 + i)}}}
			if i == 3 {
				doc = doc[:1] // no n: a sparse index has no entry for it
			}
			if _, err := c.Insert(doc); err != nil {
				t.Fatal(err)
			}
		}
		want := entriesOf(c.Index("n_1"))
		var buf bytes.Buffer
		if err := cat.SnapshotDatabase("db", time.Now()).Encode(&buf); err != nil {
			t.Fatal(err)
		}
		// The file ends with n_1's entry count and its entries: drop the
		// first entry (in the sparse index one of a record's two, in the
		// other the only one of the record without n) or the last, and
		// count one fewer.
		data := buf.Bytes()
		count := len(want)
		start := len(data) - 8*count
		for _, drop := range []int{0, count - 1} {
			short := slices.Concat(data[:start+8*drop], data[start+8*drop+8:])
			binary.LittleEndian.PutUint64(short[start-8:], uint64(count-1))
			s, err := cat.DecodeSnapshot(short, "db", time.Now(), func(bson.D) (*validation.Validator, error) { return nil, nil })
			if err != nil {
				t.Fatal(err)
			}
			if got := entriesOf(s.colls["c"].Index("n_1")); !slices.Equal(got, want) {
				t.Errorf("%v, entry %d dropped: entries %v, want %v", opts, drop, got, want)
			}
		}
	}
}

// A collection created clustered keeps its cluster key through a snapshot
// file and its restored copies: the _id index read back is marked as the
// cluster key again, since the planner scans the collection through it
// and never plans it as an index, and inserts into the copy still refuse
// a RecordId past 8 MB.
func TestClusteredCollectionKeepsItsClusterKeyThroughASnapshot(t *testing.T) {
	cat := New(nil)
	opts := bson.D{{Key: "clusteredIndex", Value: bson.D{{Key: "v", Value: int32(2)}, {Key: "key", Value: bson.D{{Key: "_id", Value: int32(1)}}},
		{Key: "name", Value: "_id_"}, {Key: "unique", Value: true}}}}
	c, err := cat.CreateCollection("db", "c", opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []any{int32(3), "a", int32(1)} {
		if _, err := c.Insert(bson.D{{Key: "_id", Value: id}}); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := cat.SnapshotDatabase("db", time.Now()).Encode(&buf); err != nil {
		t.Fatal(err)
	}
	noValidator := func(bson.D) (*validation.Validator, error) { return nil, nil }
	s, err := cat.DecodeSnapshot(buf.Bytes(), "db", time.Now(), noValidator)
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.RestoreDatabase("copy", s); err != nil {
		t.Fatal(err)
	}
	restored := cat.SnapshotDatabase("copy", time.Now()).colls["c"]
	if ix := restored.Indexes()[0]; !ix.Spec.Clustered {
		t.Errorf("the restored _id index is not the cluster key: %+v", ix.Spec)
	}
	if got, want := entriesOf(restored.Indexes()[0]), entriesOf(c.Indexes()[0]); !slices.Equal(got, want) {
		t.Errorf("cluster key entries %v, want %v", got, want)
	}
	err = cat.Write("copy", "c", false, func(live *Collection) error {
		_, err := live.Insert(bson.D{{Key: "_id", Value: string(make([]byte, 8<<20))}})
		return err
	})
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte("Size of RecordId (8388611) is above limit of 8388608 bytes")) {
		t.Errorf("an 8 MB _id in the copy: %v", err)
	}
}
