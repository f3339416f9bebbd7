package planner

import (
	"fmt"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/index"
)

// A loop of distinct multi-planned shapes must not grow a collection's
// plan cache past its bounds: the oldest entries go, as mongod's LRU
// evicts under planCacheSize.
func TestPlanCacheBounded(t *testing.T) {
	cat := newCatalog()
	c, _ := cat.CreateCollection("db", "c", nil)
	mustIndex(t, c, d("a", int32(1)))
	mustIndex(t, c, d("a", int32(1), "b", int32(1)))
	for i := range 10 {
		fill(t, c, d("_id", int32(i), "a", int32(i%2), "b", int32(i)))
	}
	cache := NewCache()
	for i := range maxCacheEntries + 50 {
		f := mustCompile(t, d("a", int32(1), "b", int32(1), fmt.Sprintf("f%d", i), int32(1)))
		e, err := Plan(c, c.NS(), Query{Filter: f, Cache: cache})
		if err != nil {
			t.Fatal(err)
		}
		drain(t, e)
	}
	stats := cache.Stats(c, "h")
	if len(stats) > maxCacheEntries || cache.bytes > maxCacheBytes || len(stats) < 100 {
		t.Fatalf("%d entries, %d bytes; want at most %d entries within %d bytes", len(stats), cache.bytes, maxCacheEntries, maxCacheBytes)
	}
	// The oldest shapes went first: the newest is kept, the first is not.
	query := func(entry bson.D) string {
		return index.FormatDoc(entry[7].Value.(bson.D)[0].Value.(bson.D))
	}
	if got := query(stats[len(stats)-1]); !strings.Contains(got, fmt.Sprintf("f%d:", maxCacheEntries+49)) {
		t.Fatalf("newest entry is %s", got)
	}
	for _, e := range stats {
		if strings.Contains(query(e), "f0:") {
			t.Fatal("the oldest shape was kept")
		}
	}
}
