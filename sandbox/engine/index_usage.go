package engine

import (
	"sync"
	"time"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
)

// indexUsage counts how often each index wins a plan, for $indexStats'
// accesses.ops. Readers plan concurrently under the shared lock, so it has
// its own mutex. Counts belong to one index of one collection: they are
// keyed by the collection's UUID, which a drop and a re-creation change,
// and an index built again starts from zero, as mongod's statistics reset
// on an index's drop and re-creation.
//
// It also counts each collection's collection scans, for $collStats'
// queryExecStats, as mongod's CollectionIndexUsageTracker holds both.
type indexUsage struct {
	mu    sync.Mutex
	ops   map[string]int64
	since map[string]time.Time
	scans map[string]collectionScans
}

// collectionScans is what appendQueryExecStats reports of a collection:
// its collection scans, and how many of them were not tailable.
type collectionScans struct{ total, nonTailable int64 }

func newIndexUsage() *indexUsage {
	return &indexUsage{ops: map[string]int64{}, since: map[string]time.Time{}, scans: map[string]collectionScans{}}
}

func usageKey(c *catalog.Collection, index string) string {
	return string(c.UUID.Data) + "\x00" + index
}

func (u *indexUsage) record(c *catalog.Collection, index string) {
	if c == nil || index == "" {
		return
	}
	u.mu.Lock()
	u.ops[usageKey(c, index)]++
	u.mu.Unlock()
}

// reset starts an index's count again, for an index just built.
func (u *indexUsage) reset(c *catalog.Collection, index string, now time.Time) {
	u.mu.Lock()
	defer u.mu.Unlock()
	k := usageKey(c, index)
	delete(u.ops, k)
	u.since[k] = now
}

// get returns the count and the time counting started (the first time the
// index was seen, standing in for its creation or the server start).
func (u *indexUsage) get(c *catalog.Collection, index string, fallback time.Time) (int64, time.Time) {
	u.mu.Lock()
	defer u.mu.Unlock()
	k := usageKey(c, index)
	since, ok := u.since[k]
	if !ok {
		since = fallback
		u.since[k] = since
	}
	return u.ops[k], since
}

// recordScans counts n collection scans of c.
func (u *indexUsage) recordScans(c *catalog.Collection, n int64, tailable bool) {
	if c == nil || n == 0 {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	k := string(c.UUID.Data)
	count := u.scans[k]
	count.total += n
	if !tailable {
		count.nonTailable += n
	}
	u.scans[k] = count
}

func (u *indexUsage) scansOf(c *catalog.Collection) collectionScans {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.scans[string(c.UUID.Data)]
}

// plan wraps planner.Plan and records which index the winning plan uses.
func (e *Engine) plan(coll *catalog.Collection, namespace string, q planner.Query) (*planner.Executor, error) {
	if coll != nil {
		q.Cache = e.planCacheOf(coll)
	}
	exec, err := planner.Plan(coll, namespace, q)
	if err != nil {
		return nil, err
	}
	e.usage.record(coll, exec.UsedIndex())
	return exec, nil
}
