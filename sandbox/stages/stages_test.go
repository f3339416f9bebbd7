package stages

import (
	"fmt"
	"slices"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
)

func pipeline(t *testing.T, js string) bson.A {
	t.Helper()
	var d bson.D
	if err := bson.UnmarshalExtJSON([]byte(`{"p": `+js+`}`), false, &d); err != nil {
		t.Fatal(err)
	}
	return d[0].Value.(bson.A)
}

func refs(p bson.A) []string {
	var out []string
	Walk(p, func(r Ref) {
		s := fmt.Sprintf("%s %s %s", r.Stage, r.Field, r.Coll)
		if r.HasDB {
			s += " db=" + r.DB
		}
		if r.Malformed {
			s += " malformed"
		}
		if r.Write {
			s += " write"
		}
		out = append(out, s)
	})
	return out
}

// Walk reports every collection a pipeline names, in every form mongod
// accepts and at every depth, and every database named beside or inside
// the collection, so that the guard checks each and lessons records each.
func TestWalk(t *testing.T) {
	for _, tc := range []struct {
		pipeline string
		want     []string
	}{
		{`[{"$lookup": {"from": "b", "as": "x", "pipeline": [{"$unionWith": "c"}]}}, {"$merge": {"into": "d"}}]`,
			[]string{"$lookup from b", "$unionWith coll c", "$merge into d write"}},
		{`[{"$out": "o"}]`, []string{"$out coll o write"}},
		{`[{"$out": {"db": "x", "coll": "o"}}]`, []string{"$out db o db=x write"}},
		{`[{"$out": {"db": "x", "db": "y", "coll": "o"}}]`, []string{"$out db o db=x write", "$out db o db=y write"}},
		{`[{"$out": {"db": {}, "coll": "o"}}]`, []string{"$out db o db= malformed write"}},
		{`[{"$merge": {"into": {"db": "x", "coll": "m"}}}]`, []string{"$merge into.db m db=x write"}},
		{`[{"$graphLookup": {"from": {"db": "local", "coll": "oplog.rs"}}}]`, []string{"$graphLookup from.db oplog.rs db=local"}},
		{`[{"$unionWith": {"coll": {"db": "x"}}}]`, []string{"$unionWith coll.db  db=x"}},
		{`[{"$facet": {"a": [{"$lookup": {"from": "f", "as": "y"}}], "b": [{"$unionWith": {"coll": "u", "pipeline": [{"$lookup": {"from": "deep", "as": "z"}}]}}]}}]`,
			[]string{"$lookup from f", "$unionWith coll u", "$lookup from deep"}},
		{`[{"$merge": {"into": "o", "whenMatched": [{"$lookup": {"from": {"db": "x"}}}]}}]`,
			[]string{"$merge into o write", "$lookup from.db  db=x"}},
		{`[{"$lookup": {"from": "b", "let": {"db": "$x"}, "as": "a"}}]`, []string{"$lookup from b"}},
		{`[{"$match": {"from": "b"}}, "not a stage", {"$nosuch": {"from": "x"}}]`, nil},
	} {
		if got := refs(pipeline(t, tc.pipeline)); !slices.Equal(got, tc.want) {
			t.Errorf("%s\n got %q\nwant %q", tc.pipeline, got, tc.want)
		}
	}
}

// A pipeline nested deeper than any decoded command stops the walk rather
// than the process.
func TestWalkDepth(t *testing.T) {
	p := bson.A{bson.D{{Key: "$lookup", Value: bson.D{{Key: "from", Value: "bottom"}}}}}
	for range 1000 {
		p = bson.A{bson.D{{Key: "$facet", Value: bson.D{{Key: "f", Value: p}}}}}
	}
	if got := refs(p); len(got) != 0 {
		t.Errorf("walked %d levels down: %q", 1000, got)
	}
}

func TestPositionRules(t *testing.T) {
	for name, want := range map[string][2]bool{
		"$out": {false, true}, "$merge": {false, true}, "$collStats": {true, false},
		"$documents": {true, false}, "$match": {false, false},
	} {
		s, ok := Lookup(name)
		if !ok || s.FirstOnly != want[0] || s.LastOnly != want[1] {
			t.Errorf("%s: first-only %v last-only %v, want %v", name, s.FirstOnly, s.LastOnly, want)
		}
	}
	if _, ok := Lookup("$nosuch"); ok {
		t.Error("an unknown stage has a descriptor")
	}
}

func TestAllSorted(t *testing.T) {
	names := make([]string, 0, len(all))
	for _, s := range All() {
		names = append(names, s.Name)
	}
	if !slices.IsSorted(names) {
		t.Errorf("descriptors not sorted by name: %q", names)
	}
}
