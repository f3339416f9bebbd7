package engine

import (
	"sync"
	"time"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
)

// indexUsage counts how often each index wins a plan, for $indexStats'
// accesses.ops. Readers plan concurrently under the shared lock, so it has
// its own mutex.
type indexUsage struct {
	mu    sync.Mutex
	ops   map[string]int64
	since map[string]time.Time
}

func newIndexUsage() *indexUsage {
	return &indexUsage{ops: map[string]int64{}, since: map[string]time.Time{}}
}

func usageKey(ns, index string) string { return ns + "\x00" + index }

func (u *indexUsage) record(ns, index string) {
	if index == "" {
		return
	}
	u.mu.Lock()
	u.ops[usageKey(ns, index)]++
	u.mu.Unlock()
}

// get returns the count and the time counting started (the first time the
// index was seen, standing in for its creation or the server start).
func (u *indexUsage) get(ns, index string, fallback time.Time) (int64, time.Time) {
	u.mu.Lock()
	defer u.mu.Unlock()
	k := usageKey(ns, index)
	since, ok := u.since[k]
	if !ok {
		since = fallback
		u.since[k] = since
	}
	return u.ops[k], since
}

// plan wraps planner.Plan and records which index the winning plan uses.
func (e *Engine) plan(coll *catalog.Collection, namespace string, q planner.Query) (*planner.Executor, error) {
	exec, err := planner.Plan(coll, namespace, q)
	if err != nil {
		return nil, err
	}
	e.usage.record(namespace, exec.UsedIndex())
	return exec, nil
}
