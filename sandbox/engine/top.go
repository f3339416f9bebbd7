package engine

import (
	"math/bits"
	"slices"
	"strings"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// topStats is mongod's Top (src/mongo/db/stats/top.cpp): per namespace,
// the time and count of the operations run on it, by lock and by kind,
// and their latency histograms, which the top command and $collStats'
// latencyStats report. The engine records the reads (find, getMore,
// aggregate, count, distinct) and the writes (insert, update and delete,
// one per statement, and findAndModify), on the namespace the client
// named, a view included, whether they succeed or fail, and the index
// commands (listIndexes, createIndexes, dropIndexes); the other commands
// that mongod also records on a collection are left out. Times are the
// handler's, in microseconds.
type topStats struct {
	mu    sync.Mutex
	usage map[string]*collectionUsage
}

// usageEntry is one of Top's counters: total time and count.
type usageEntry struct{ time, count int64 }

func (u *usageEntry) add(micros int64) {
	u.time += micros
	u.count++
}

type collectionUsage struct {
	total, readLock, writeLock, queries, getmore, insert, update, remove, commands usageEntry
	// latency are the histograms of OperationLatencyHistogram, in its
	// order: commands, reads, writes, transactions.
	latency [4]latencyHistogram
}

// Read/write types of Command::ReadWriteType, indexing latency.
const (
	rwCommand = iota
	rwRead
	rwWrite
)

// latencyBuckets is kMaxBuckets of operation_latency_histogram.cpp.
const latencyBuckets = 51

type latencyHistogram struct {
	buckets  [latencyBuckets]int64
	sum, ops int64
}

// latencyLowerBounds are the histogram's bucket bounds, in microseconds
// (kLowerBounds): powers of two, with half steps from 2^11 to 2^21.
var latencyLowerBounds = func() [latencyBuckets]int64 {
	var b [latencyBuckets]int64
	for i := range b {
		switch {
		case i == 0:
		case i <= 11:
			b[i] = 1 << i
		case i < 31:
			p := 11 + (i-11)/2
			b[i] = 1 << p
			if (i-11)%2 == 1 {
				b[i] += 1 << (p - 1)
			}
		default:
			b[i] = 1 << (i - 10)
		}
	}
	return b
}()

// latencyBucket is getBucket: the log base 2 of micros, with the half
// steps of [2^11, 2^21).
func latencyBucket(micros int64) int {
	if micros <= 0 {
		return 0
	}
	log2 := 63 - bits.LeadingZeros64(uint64(micros))
	switch {
	case log2 < 11:
		return log2
	case log2 < 21:
		extra := log2 - 11
		if micros >= 3<<(log2-1) {
			extra++
		}
		return log2 + extra
	}
	return min(log2+10, latencyBuckets-1)
}

func newTopStats() *topStats { return &topStats{usage: map[string]*collectionUsage{}} }

// topOp is how Top counts a command: the kind of operation (LogicalOp),
// whether it holds a write lock, and its read/write type.
type topOp struct {
	kind   func(*collectionUsage) *usageEntry
	writes bool
	rw     int
}

// topOps are the commands Top records, by command name.
var topOps = map[string]topOp{
	"find":          {kind: func(c *collectionUsage) *usageEntry { return &c.queries }, rw: rwRead},
	"getMore":       {kind: func(c *collectionUsage) *usageEntry { return &c.getmore }, rw: rwRead},
	"aggregate":     {kind: func(c *collectionUsage) *usageEntry { return &c.commands }, rw: rwRead},
	"count":         {kind: func(c *collectionUsage) *usageEntry { return &c.commands }, rw: rwRead},
	"distinct":      {kind: func(c *collectionUsage) *usageEntry { return &c.commands }, rw: rwRead},
	"insert":        {kind: func(c *collectionUsage) *usageEntry { return &c.insert }, writes: true, rw: rwWrite},
	"update":        {kind: func(c *collectionUsage) *usageEntry { return &c.update }, writes: true, rw: rwWrite},
	"delete":        {kind: func(c *collectionUsage) *usageEntry { return &c.remove }, writes: true, rw: rwWrite},
	"findAndModify": {kind: func(c *collectionUsage) *usageEntry { return &c.commands }, writes: true, rw: rwWrite},
	// The index commands take the collection through an AutoStatsTracker
	// too (list_indexes.cpp reading, create_indexes.cpp and
	// drop_indexes.cpp writing): commands of type kCommand.
	"listIndexes":   {kind: func(c *collectionUsage) *usageEntry { return &c.commands }, rw: rwCommand},
	"createIndexes": {kind: func(c *collectionUsage) *usageEntry { return &c.commands }, writes: true, rw: rwCommand},
	"dropIndexes":   {kind: func(c *collectionUsage) *usageEntry { return &c.commands }, writes: true, rw: rwCommand},
}

// recordCommand records a finished command in Top: on the namespace it
// named (getMore's collection), once, or once per statement for update
// and delete, whose statements mongod runs each as its own operation.
func (t *topStats) recordCommand(name, db string, cmd bson.D, elapsed time.Duration) {
	op, ok := topOps[name]
	if !ok || len(cmd) == 0 {
		return
	}
	coll, _ := cmd[0].Value.(string)
	if name == "getMore" {
		coll, _ = value.Get(cmd, "collection").(string)
	}
	if coll == "" || strings.IndexByte(db+coll, 0) >= 0 {
		// A name with a null byte names no namespace: mongod refuses it
		// before anything reaches Top.
		return
	}
	n := 1
	switch name {
	case "update":
		n = statementCount(cmd, "updates")
	case "delete":
		n = statementCount(cmd, "deletes")
	}
	t.add(db+"."+coll, op, elapsed.Microseconds()/int64(n), n)
}

// recordForeignRead records a read a command's pipeline made of another
// collection ($lookup's sub-query for each document, $graphLookup's,
// $unionWith's): mongod's AutoStatsTracker for that read records it in
// Top on the collection read, as the operation the command is.
func (t *topStats) recordForeignRead(name, ns string, elapsed time.Duration) {
	if op, ok := topOps[name]; ok && !op.writes {
		t.add(ns, op, elapsed.Microseconds(), 1)
	}
}

// add counts n operations of kind op, of micros each, on ns.
func (t *topStats) add(ns string, op topOp, micros int64, n int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.usage[ns]
	if c == nil {
		c = &collectionUsage{}
		t.usage[ns] = c
	}
	for range n {
		c.total.add(micros)
		if op.writes {
			c.writeLock.add(micros)
		} else {
			c.readLock.add(micros)
		}
		op.kind(c).add(micros)
		h := &c.latency[op.rw]
		h.buckets[latencyBucket(micros)]++
		h.sum += micros
		h.ops++
	}
}

func statementCount(cmd bson.D, field string) int {
	if arr, ok := value.Get(cmd, field).(bson.A); ok && len(arr) > 0 {
		return len(arr)
	}
	return 1
}

// forget drops the statistics of the namespaces match selects, as
// Top::collectionDropped does when a collection or view is dropped.
func (t *topStats) forget(match func(ns string) bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for ns := range t.usage {
		if match(ns) {
			delete(t.usage, ns)
		}
	}
}

// latencyStats renders $collStats' latencyStats for ns
// (Top::appendLatencyStats, OperationLatencyHistogram::append).
func (t *topStats) latencyStats(ns string, histograms bool) bson.D {
	t.mu.Lock()
	defer t.mu.Unlock()
	var c collectionUsage
	if u := t.usage[ns]; u != nil {
		c = *u
	}
	out := make(bson.D, 0, 4)
	for i, name := range []string{"commands", "reads", "writes", "transactions"} {
		h := c.latency[i]
		d := bson.D{}
		if histograms {
			hist := bson.A{}
			for b, n := range h.buckets {
				if n > 0 {
					hist = append(hist, bson.D{{Key: "micros", Value: latencyLowerBounds[b]}, {Key: "count", Value: n}})
				}
			}
			d = append(d, bson.E{Key: "histogram", Value: hist})
		}
		d = append(d, bson.E{Key: "latency", Value: h.sum}, bson.E{Key: "ops", Value: h.ops},
			bson.E{Key: "queryableEncryptionLatencyMicros", Value: int64(0)})
		out = append(out, bson.E{Key: name, Value: d})
	}
	return out
}

// cmdTop is the top command: every namespace's usage, in microseconds
// (Top::append).
func cmdTop(e *Engine, req *request) (bson.D, error) {
	e.top.mu.Lock()
	names := make([]string, 0, len(e.top.usage))
	for ns := range e.top.usage {
		names = append(names, ns)
	}
	slices.Sort(names)
	totals := bson.D{{Key: "note", Value: "all times in microseconds"}}
	for _, ns := range names {
		c := e.top.usage[ns]
		entry := bson.D{}
		for _, f := range []struct {
			name string
			u    usageEntry
		}{{"total", c.total}, {"readLock", c.readLock}, {"writeLock", c.writeLock}, {"queries", c.queries},
			{"getmore", c.getmore}, {"insert", c.insert}, {"update", c.update}, {"remove", c.remove}, {"commands", c.commands}} {
			entry = append(entry, bson.E{Key: f.name, Value: bson.D{{Key: "time", Value: appendNumber(f.u.time)}, {Key: "count", Value: appendNumber(f.u.count)}}})
		}
		totals = append(totals, bson.E{Key: ns, Value: entry})
	}
	e.top.mu.Unlock()
	return bson.D{{Key: "totals", Value: totals}}, nil
}
