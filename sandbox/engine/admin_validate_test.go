package engine

import (
	"context"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// These tests reach into the catalog to break what validate checks, which
// no command can do: they show that validate's verdict comes from a real
// comparison of records and index entries, not from a fixed "valid".

func runCmd(t *testing.T, e *Engine, cmd bson.D) bson.D {
	t.Helper()
	return e.Run(context.Background(), &Conn{}, append(cmd, bson.E{Key: "$db", Value: "v"}))
}

func replyField(d bson.D, name string) any {
	for _, f := range d {
		if f.Key == name {
			return f.Value
		}
	}
	return nil
}

func validateAfter(t *testing.T, breakIt func(e *Engine)) bson.D {
	t.Helper()
	e := New(Options{})
	runCmd(t, e, bson.D{{Key: "insert", Value: "c"}, {Key: "documents", Value: bson.A{
		bson.D{{Key: "_id", Value: int32(1)}, {Key: "a", Value: int32(5)}},
		bson.D{{Key: "_id", Value: int32(2)}, {Key: "a", Value: bson.A{int32(6), int32(7)}}},
	}}})
	runCmd(t, e, bson.D{{Key: "createIndexes", Value: "c"}, {Key: "indexes", Value: bson.A{
		bson.D{{Key: "key", Value: bson.D{{Key: "a", Value: int32(1)}}}, {Key: "name", Value: "a_1"}},
	}}})
	breakIt(e)
	return runCmd(t, e, bson.D{{Key: "validate", Value: "c"}})
}

// breakCollection changes v.c's live collection behind the engine's back,
// under its write lock so that validate's snapshot sees the change.
func breakCollection(t *testing.T, e *Engine, fn func(c *catalog.Collection) error) {
	t.Helper()
	if err := e.catalog.Write("v", "c", false, fn); err != nil {
		t.Fatal(err)
	}
}

func TestValidateFindsAMissingIndexEntry(t *testing.T) {
	reply := validateAfter(t, func(e *Engine) {
		breakCollection(t, e, func(c *catalog.Collection) error {
			ix := c.Index("a_1")
			doc, _ := c.Get(2)
			ks, err := ix.Keys(doc)
			if err != nil {
				return err
			}
			ks.Keys = ks.Keys[:1] // drop the entry for a: 6 only
			ix.Remove(ks, 2)
			return nil
		})
	})
	if replyField(reply, "valid") != false {
		t.Fatalf("valid after losing an index entry: %v", reply)
	}
	missing, _ := replyField(reply, "missingIndexEntries").(bson.A)
	if len(missing) != 1 {
		t.Fatalf("missingIndexEntries = %v", missing)
	}
	errs, _ := replyField(reply, "errors").(bson.A)
	if len(errs) != 1 || errs[0] != "Detected 1 missing index entries." {
		t.Errorf("errors = %v", errs)
	}
	if replyField(reply, "advice") == nil {
		t.Error("no advice for a corrupt namespace")
	}
	keys, _ := replyField(reply, "keysPerIndex").(bson.D)
	if replyField(keys, "a_1") != int32(2) {
		t.Errorf("keysPerIndex = %v, want a_1: 2 (the index lost one of its 3 entries)", keys)
	}
}

func TestValidateFindsAnExtraIndexEntry(t *testing.T) {
	reply := validateAfter(t, func(e *Engine) {
		breakCollection(t, e, func(c *catalog.Collection) error {
			ix := c.Index("a_1")
			doc := bson.D{{Key: "_id", Value: int32(9)}, {Key: "a", Value: int32(99)}}
			ks, err := ix.Keys(doc)
			if err != nil {
				return err
			}
			ix.Add(ks, 9) // an entry for a record that does not exist
			return nil
		})
	})
	if replyField(reply, "valid") != false {
		t.Fatalf("valid with an extra index entry: %v", reply)
	}
	extra, _ := replyField(reply, "extraIndexEntries").(bson.A)
	if len(extra) != 1 {
		t.Fatalf("extraIndexEntries = %v", extra)
	}
	want := bson.D{{Key: "indexName", Value: "a_1"}, {Key: "recordId", Value: int64(9)}, {Key: "indexKey", Value: bson.D{{Key: "a", Value: int32(99)}}}}
	if got, _ := extra[0].(bson.D); len(got) != 3 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("extra entry = %v, want %v", extra[0], want)
	}
}

func TestValidateCountsDocumentsBreakingTheValidator(t *testing.T) {
	reply := validateAfter(t, func(e *Engine) {
		// As collMod would leave it: documents inserted before the rule.
		breakCollection(t, e, func(c *catalog.Collection) error {
			c.Options = bson.D{{Key: "validator", Value: bson.D{{Key: "a", Value: bson.D{{Key: "$gt", Value: int32(5)}}}}}}
			v, err := validation.Compile(value.Get(c.Options, "validator").(bson.D), 0, nil, true)
			c.Validator = v
			return err
		})
	})
	if replyField(reply, "valid") != true || replyField(reply, "nNonCompliantDocuments") != int32(1) {
		t.Fatalf("reply = %v, want valid with one non-compliant document (a: 5)", reply)
	}
	warnings, _ := replyField(reply, "warnings").(bson.A)
	if len(warnings) != 1 || warnings[0] != "Detected one or more documents not compliant with the collection's schema. See logs." {
		t.Errorf("warnings = %v", warnings)
	}
}
