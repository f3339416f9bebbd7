package index

import (
	"fmt"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func mustSpec(t *testing.T, doc bson.D) Spec {
	t.Helper()
	s, err := ParseSpec(doc, false)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func keyOf(pairs ...any) bson.D {
	var d bson.D
	for i := 0; i < len(pairs); i += 2 {
		d = append(d, bson.E{Key: pairs[i].(string), Value: pairs[i+1]})
	}
	return d
}

func TestDefaultName(t *testing.T) {
	cases := []struct {
		key  bson.D
		want string
	}{
		{keyOf("a", int32(1), "b", int32(-1)), "a_1_b_-1"},
		{keyOf("field", int32(1), "other", int32(-1)), "field_1_other_-1"},
		{keyOf("a.b", 1.0), "a.b_1"},
		{keyOf("x", int64(-1)), "x_-1"},
	}
	for _, c := range cases {
		if got := DefaultName(c.key); got != c.want {
			t.Errorf("DefaultName(%v) = %q, want %q", c.key, got, c.want)
		}
	}
}

func TestKeysMultikeyAndMissing(t *testing.T) {
	ix := New(mustSpec(t, bson.D{{Key: "key", Value: keyOf("tags", int32(1))}, {Key: "name", Value: "tags_1"}}), nil)
	ks, err := ix.Keys(bson.D{{Key: "tags", Value: bson.A{"a", "b", "a"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ks.Keys) != 2 {
		t.Fatalf("keys %v: one per distinct element", ks.Keys)
	}
	ix.Add(ks, 1)
	if !ix.IsMultiKey() || value.Compare(ix.MultiKeyPaths(), bson.D{{Key: "tags", Value: bson.A{"tags"}}}) != 0 {
		t.Fatalf("multikey %v %v", ix.IsMultiKey(), ix.MultiKeyPaths())
	}
	ks, _ = ix.Keys(bson.D{{Key: "other", Value: 1}})
	if len(ks.Keys) != 1 || ks.Keys[0][0] != nil {
		t.Fatalf("missing field should index as null: %v", ks.Keys)
	}
	ks, _ = ix.Keys(bson.D{{Key: "tags", Value: bson.A{}}})
	if _, ok := ks.Keys[0][0].(bson.Undefined); !ok || len(ks.Keys) != 1 {
		t.Fatalf("empty array indexes as undefined: %v", ks.Keys)
	}

	nested := New(mustSpec(t, bson.D{{Key: "key", Value: keyOf("a.b", int32(1))}, {Key: "name", Value: "a.b_1"}}), nil)
	ks, _ = nested.Keys(bson.D{{Key: "a", Value: bson.A{bson.D{{Key: "b", Value: int32(1)}}, bson.D{{Key: "c", Value: int32(2)}}}}})
	if len(ks.Keys) != 2 {
		t.Fatalf("a.b over array: %v", ks.Keys)
	}
	nested.Add(ks, 1)
	if value.Compare(nested.MultiKeyPaths(), bson.D{{Key: "a.b", Value: bson.A{"a"}}}) != 0 {
		t.Fatalf("multiKeyPaths %v", nested.MultiKeyPaths())
	}
}

func TestParallelArrays(t *testing.T) {
	ix := New(mustSpec(t, bson.D{{Key: "key", Value: keyOf("a", int32(1), "b", int32(1))}, {Key: "name", Value: "a_1_b_1"}}), nil)
	_, err := ix.Keys(bson.D{{Key: "a", Value: bson.A{int32(1), int32(2)}}, {Key: "b", Value: bson.A{int32(1), int32(2)}}})
	me := mongoerr.As(err)
	if me == nil || me.Code != mongoerr.CannotIndexParallelArrays || me.Msg != "cannot index parallel arrays [b] [a]" {
		t.Fatalf("got %v", err)
	}
	ks, err := ix.Keys(bson.D{{Key: "a", Value: bson.A{int32(1), int32(2)}}, {Key: "b", Value: int32(5)}})
	if err != nil || len(ks.Keys) != 2 {
		t.Fatalf("one array is fine: %v %v", ks.Keys, err)
	}
}

func TestSparseSkipsMissing(t *testing.T) {
	ix := New(mustSpec(t, bson.D{{Key: "key", Value: keyOf("a", int32(1))}, {Key: "name", Value: "a_1"}, {Key: "sparse", Value: true}}), nil)
	ks, _ := ix.Keys(bson.D{{Key: "b", Value: 1}})
	if len(ks.Keys) != 0 {
		t.Fatalf("sparse index keyed a document without the field: %v", ks.Keys)
	}
	ks, _ = ix.Keys(bson.D{{Key: "a", Value: nil}})
	if len(ks.Keys) != 1 {
		t.Fatal("sparse index must keep an explicit null")
	}
}

func TestUniqueDuplicateKeyError(t *testing.T) {
	ix := New(mustSpec(t, bson.D{{Key: "key", Value: keyOf("name", int32(1))}, {Key: "name", Value: "name_1"}, {Key: "unique", Value: true}}), nil)
	doc := bson.D{{Key: "name", Value: "x"}}
	ks, _ := ix.Keys(doc)
	if err := ix.CheckUnique(ks, 1, "db.coll"); err != nil {
		t.Fatal(err)
	}
	ix.Add(ks, 1)
	if err := ix.CheckUnique(ks, 1, "db.coll"); err != nil {
		t.Fatalf("a record does not conflict with itself: %v", err)
	}
	err := mongoerr.As(ix.CheckUnique(ks, 2, "db.coll"))
	if err == nil || err.Code != mongoerr.DuplicateKey || err.Msg != `E11000 duplicate key error collection: db.coll index: name_1 dup key: { name: "x" }` {
		t.Fatalf("got %v", err)
	}
	want := bson.D{{Key: "keyPattern", Value: bson.D{{Key: "name", Value: int32(1)}}}, {Key: "keyValue", Value: bson.D{{Key: "name", Value: "x"}}}}
	if value.Compare(err.Extra, want) != 0 {
		t.Fatalf("extra %v", err.Extra)
	}
}

func TestSpecErrorsAndListing(t *testing.T) {
	s := mustSpec(t, bson.D{{Key: "key", Value: keyOf("a", int32(1))}, {Key: "name", Value: "a_1"}, {Key: "unique", Value: int32(1)}, {Key: "v", Value: int32(2)}})
	want := bson.D{{Key: "v", Value: int32(2)}, {Key: "key", Value: keyOf("a", int32(1))}, {Key: "name", Value: "a_1"}, {Key: "unique", Value: true}}
	if value.Compare(s.Document(), want) != 0 {
		t.Fatalf("listing %v", s.Document())
	}
	for _, bad := range []struct {
		spec bson.D
		code int32
	}{
		{bson.D{{Key: "key", Value: keyOf("a", "text")}, {Key: "name", Value: "a_text"}}, mongoerr.NotImplemented},
		{bson.D{{Key: "key", Value: keyOf("a", "2d")}, {Key: "name", Value: "a_2d"}}, mongoerr.NotImplemented},
		{bson.D{{Key: "key", Value: keyOf("a", "bogus")}, {Key: "name", Value: "x"}}, mongoerr.CannotCreateIndex},
		{bson.D{{Key: "key", Value: bson.D{}}, {Key: "name", Value: "x"}}, mongoerr.CannotCreateIndex},
		{bson.D{{Key: "key", Value: keyOf("a", int32(1))}, {Key: "name", Value: "x"}, {Key: "foo", Value: 1}}, mongoerr.InvalidIndexSpecificationOption},
	} {
		_, err := ParseSpec(bad.spec, false)
		if me := mongoerr.As(err); me == nil || me.Code != bad.code {
			t.Errorf("ParseSpec(%v) = %v, want code %d", bad.spec, err, bad.code)
		}
	}
}

func TestFormatValue(t *testing.T) {
	cases := []struct {
		v    any
		want string
	}{
		{"s7", `"s7"`},
		{int32(5), "5"},
		{1.0, "1.0"},
		{2.5, "2.5"},
		{bson.DateTime(1756684800000), "new Date(1756684800000)"},
		{bson.D{{Key: "a", Value: int32(1)}}, "{ a: 1 }"},
		{bson.Regex{Pattern: `^\/Electronics\/`}, `/^\/Electronics\//`},
		{nil, "null"},
		{bson.MinKey{}, "MinKey"},
	}
	for _, c := range cases {
		if got := FormatValue(c.v); got != c.want {
			t.Errorf("FormatValue(%v) = %s, want %s", c.v, got, c.want)
		}
	}
}

// The keys of a document whose indexed top-level field holds an array are
// those the general path walk gives — duplicates (1 and 1.0 among them)
// once, nested arrays as values, an empty array as undefined, in index
// order whatever the direction — and the document's array is left as it was.
func TestArrayKeysAreThePathWalksKeys(t *testing.T) {
	arrays := []bson.A{
		{},
		{"x"},
		{"b", "a", "b"},
		{int32(1), 1.0, int64(1), "1", nil},
		{bson.A{int32(1), int32(2)}, int32(1), bson.A{}},
		{bson.D{{Key: "k", Value: int32(1)}}, 3.5, true, bson.Undefined{}, int32(-1), int32(9), int32(4), int32(4), int32(2), "z"},
	}
	for _, dir := range []int32{1, -1} {
		ix := New(mustSpec(t, bson.D{{Key: "key", Value: bson.D{{Key: "tags", Value: dir}}}, {Key: "name", Value: "tags"}}), nil)
		for _, arr := range arrays {
			before := fmt.Sprint(arr)
			doc := bson.D{{Key: "_id", Value: int32(1)}, {Key: "tags", Value: arr}}
			want, err := ix.pathKeys(doc)
			if err != nil {
				t.Fatal(err)
			}
			got, err := ix.Keys(doc)
			if err != nil {
				t.Fatal(err)
			}
			if typed(got.Keys) != typed(want.Keys) || fmt.Sprint(got.arrays) != fmt.Sprint(want.arrays) {
				t.Errorf("direction %d, %v: keys %v %v, the path walk gives %v %v", dir, arr, got.Keys, got.arrays, want.Keys, want.arrays)
			}
			if fmt.Sprint(arr) != before {
				t.Errorf("the document's array became %v", arr)
			}
		}
	}
}

// typed prints keys with each value's type: 1 and 1.0 differ.
func typed(keys [][]any) string {
	var b strings.Builder
	for _, k := range keys {
		for _, v := range k {
			fmt.Fprintf(&b, "%T:%v ", v, v)
		}
		b.WriteString("| ")
	}
	return b.String()
}
