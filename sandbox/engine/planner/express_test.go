package planner

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

func TestExpressIDLookup(t *testing.T) {
	cat := newCatalog()
	c, _ := cat.CreateCollection("db", "buku", nil)
	for i := range 5 {
		fill(t, c, d("_id", int32(100+i), "judul", "x"))
	}
	e, err := Plan(c, c.NS(), Query{Filter: mustCompile(t, d("_id", int32(102)))})
	if err != nil {
		t.Fatal(err)
	}
	got := ids(drain(t, e))
	if len(got) != 1 || got[0] != int32(102) {
		t.Fatalf("got %v", got)
	}
	es := e.ExecutionStats(false)
	if value.Lookup(es, "executionStages.stage") != "EXPRESS_IXSCAN" || value.Lookup(es, "executionStages.keyPattern") != "{ _id: 1 }" {
		t.Fatalf("stages %v", es)
	}
	if value.Lookup(es, "totalKeysExamined") != int64(1) || value.Lookup(es, "totalDocsExamined") != int64(1) {
		t.Fatalf("stats %v", es)
	}
	e, _ = Plan(c, c.NS(), Query{Filter: mustCompile(t, d("_id", int32(7)))})
	if n := len(drain(t, e)); n != 0 {
		t.Fatalf("missing _id returned %d", n)
	}
}

func TestCountPlans(t *testing.T) {
	cat := newCatalog()
	c, _ := cat.CreateCollection("db", "c", nil)
	mustIndex(t, c, d("a", int32(1)))
	for i := range 30 {
		fill(t, c, d("_id", int32(i), "a", int32(i%3), "b", int32(i)))
	}
	e, _ := Plan(c, c.NS(), Query{Count: true})
	if n, _ := e.Count(); n != 30 || value.Lookup(e.QueryPlanner(), "winningPlan.stage") != "RECORD_STORE_FAST_COUNT" {
		t.Fatalf("fast count %d %v", n, e.QueryPlanner())
	}
	e, _ = Plan(c, c.NS(), Query{Count: true, Filter: mustCompile(t, d("a", int32(1)))})
	n, _ := e.Count()
	qp := e.QueryPlanner()
	if n != 10 || value.Lookup(qp, "winningPlan.inputStage.stage") != "COUNT_SCAN" {
		t.Fatalf("count scan %d %v", n, qp)
	}
	bounds := value.Lookup(qp, "winningPlan.inputStage.indexBounds")
	want := d("startKey", d("a", int32(1)), "startKeyInclusive", true, "endKey", d("a", int32(1)), "endKeyInclusive", true)
	if value.Compare(bounds, want) != 0 {
		t.Fatalf("bounds %v", bounds)
	}
	if k := value.Lookup(e.ExecutionStats(false), "totalKeysExamined"); k != int64(10) {
		t.Fatalf("keys %v", k)
	}
	e, _ = Plan(c, c.NS(), Query{Count: true, Filter: mustCompile(t, d("a", int32(1), "b", d("$gt", int32(10))))})
	if n, _ := e.Count(); n != 6 || value.Lookup(e.QueryPlanner(), "winningPlan.inputStage.stage") != "FETCH" {
		t.Fatalf("count with residual %d", n)
	}
	_ = bson.D{}
}
