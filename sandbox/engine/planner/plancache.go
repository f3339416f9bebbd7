package planner

import (
	"hash/fnv"
	"slices"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Shape is a query as its command spelled it: the plan cache reports it
// as an entry's createdFromQuery, and index filters list it.
type Shape struct {
	Filter, Sort, Projection bson.D
}

// Cache is one collection's classic plan cache and its index filters
// (mongod's PlanCache of CollectionQueryInfo and its QuerySettings
// decoration). Readers plan concurrently, so it has its own lock.
type Cache struct {
	mu sync.Mutex
	// indexes is the signature of the index catalog the entries were
	// planned against: mongod clears a collection's plan cache whenever
	// an index is built, dropped or hidden (CollectionQueryInfo::
	// clearQueryCache), which this stands for.
	indexes string
	entries map[string]*cacheEntry
	// order holds the entries' keys, least recently written first, for
	// eviction.
	order []string
	// bytes is the entries' size, as BSON.
	bytes   int
	filters []*indexFilter
}

// maxCacheEntries and maxCacheBytes bound a collection's plan cache.
// mongod bounds the whole cache by size (planCacheSize, 5% of memory by
// default) and evicts the least recently used entry; the sandbox bounds
// each collection's by count and size, which keeps a learner's loop of
// distinct shapes (or of huge $in lists) from growing it without end.
const (
	maxCacheEntries = 500
	maxCacheBytes   = 1 << 20
)

// maxIndexFilters bounds a collection's index filters: mongod keeps as
// many as are set, the sandbox refuses past this many.
const maxIndexFilters = 500

type cacheEntry struct {
	key, hash string
	shape     Shape
	active    bool
	works     int64
	created   time.Time
	// winnerAt and winnerName find the winning plan again among the
	// candidates the same shape enumerates over the same indexes; nCands
	// is how many there were.
	winnerAt   int
	winnerName string
	nCands     int
	plan       bson.D
	execStats  bson.A
	scores     bson.A
	filterSet  bool
	solutionID int64
	size       int
}

type indexFilter struct {
	hash  string
	shape Shape
	keys  []bson.D
	names []string
}

// NewCache returns an empty plan cache.
func NewCache() *Cache { return &Cache{entries: map[string]*cacheEntry{}} }

// indexSignature names every index with its key and hidden flag.
func indexSignature(coll *catalog.Collection) string {
	h := fnv.New64a()
	for _, ix := range coll.Indexes() {
		h.Write([]byte(ix.Spec.Name))
		h.Write([]byte(index.FormatDoc(ix.Spec.Key)))
		if ix.Spec.Hidden {
			h.Write([]byte{1})
		}
	}
	return string(h.Sum(nil))
}

// sync clears the entries planned against another index catalog; the
// caller holds mu.
func (c *Cache) sync(coll *catalog.Collection) {
	if sig := indexSignature(coll); sig != c.indexes {
		c.indexes = sig
		clear(c.entries)
		c.order = c.order[:0]
		c.bytes = 0
	}
}

// ShapeHash is the planCacheShapeHash of a query shape over ns: its
// filter's paths and operators (not values), sort and projection.
func ShapeHash(ns string, f *query.Filter, sort, projection bson.D) string {
	parsed := bson.D{}
	if f != nil {
		parsed = f.Serialize()
	}
	return shapeHash(ns, parsed, sort, projection)
}

// shapeProjection is the projection a query's shape hashes: the command's
// own when it has one, else the compiled projection's.
func (q *Query) shapeProjection() bson.D {
	if q.Shape != nil {
		return q.Shape.Projection
	}
	if q.Projection != nil {
		return q.Projection.Spec
	}
	return nil
}

// shape is what createdFromQuery reports for q.
func (q *Query) shape() Shape {
	if q.Shape != nil {
		// A pipeline's shape is its leading $match; a $sort it pushes
		// down joins it later.
		sort := q.Shape.Sort
		if sort == nil {
			sort = q.Sort
		}
		return Shape{Filter: orEmpty(q.Shape.Filter), Sort: orEmpty(sort), Projection: orEmpty(q.Shape.Projection)}
	}
	s := Shape{Filter: bson.D{}, Sort: orEmpty(q.Sort), Projection: orEmpty(q.shapeProjection())}
	if q.Filter != nil {
		s.Filter = q.Filter.Serialize()
	}
	return s
}

func orEmpty(d bson.D) bson.D {
	if d == nil {
		return bson.D{}
	}
	return d
}

// cacheable is PlanCache::shouldCacheQuery: no hint, min or max, not an
// explain (which neither reads nor writes the cache), and not an
// unfiltered, unsorted query (a collection scan).
func (q *Query) cacheable() bool {
	if q.Cache == nil || q.Explain || q.Hint != nil || len(q.Min) > 0 || len(q.Max) > 0 {
		return false
	}
	return len(q.Sort) > 0 || q.Filter != nil && !q.Filter.IsEmpty()
}

// allowed returns the index filter set for hash, if any.
func (c *Cache) allowed(hash string) *indexFilter {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, f := range c.filters {
		if f.hash == hash {
			return f
		}
	}
	return nil
}

// hasFilters says whether any index filter is set, so that a collection
// without one pays no shape hash for them.
func (c *Cache) hasFilters() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.filters) > 0
}

// filteredOut says whether an index filter for q's shape leaves out the
// express path's index: index filters never apply to an _id point query
// (the IDHACK), but the express path for another unique index plans over
// the indexes the filters allow.
func (q *Query) filteredOut(coll *catalog.Collection, ns string, ix *index.Index) bool {
	if q.Cache == nil || ix == coll.Indexes()[0] || !q.Cache.hasFilters() {
		return false
	}
	f := q.Cache.allowed(ShapeHash(ns, q.Filter, q.Sort, q.shapeProjection()))
	return f != nil && !f.admits(ix)
}

func (f *indexFilter) admits(ix *index.Index) bool {
	if slices.Contains(f.names, ix.Spec.Name) {
		return true
	}
	for _, k := range f.keys {
		if value.Compare(k, ix.Spec.Key) == 0 {
			return true
		}
	}
	return false
}

// SetFilter is planCacheSetFilter: it replaces the filter of hash's shape
// and drops the shape's cache entries.
func (c *Cache) SetFilter(hash string, shape Shape, keys []bson.D, names []string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.removeShape(hash)
	f := &indexFilter{hash: hash, shape: shape, keys: keys, names: names}
	for i, old := range c.filters {
		if old.hash == hash {
			c.filters[i] = f
			return nil
		}
	}
	if len(c.filters) >= maxIndexFilters {
		return mongoerr.Newf(mongoerr.ExceededMemoryLimit, "the schemalab sandbox keeps at most %d index filters per collection", maxIndexFilters)
	}
	c.filters = append(c.filters, f)
	return nil
}

// ClearFilters is planCacheClearFilters: the filter of hash's shape, or
// every filter when all; the shapes' cache entries go with them.
func (c *Cache) ClearFilters(hash string, all bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.filters = slices.DeleteFunc(c.filters, func(f *indexFilter) bool {
		if all || f.hash == hash {
			c.removeShape(f.hash)
			return true
		}
		return false
	})
	if !all {
		c.removeShape(hash)
	}
}

// ListFilters is planCacheListFilters' filters array.
func (c *Cache) ListFilters() bson.A {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := bson.A{}
	for _, f := range c.filters {
		indexes := bson.A{}
		for _, k := range f.keys {
			indexes = append(indexes, k)
		}
		for _, n := range f.names {
			indexes = append(indexes, n)
		}
		out = append(out, bson.D{
			{Key: "query", Value: f.shape.Filter},
			{Key: "sort", Value: f.shape.Sort},
			{Key: "projection", Value: f.shape.Projection},
			{Key: "indexes", Value: indexes},
		})
	}
	return out
}

// Clear is planCacheClear: the entries of hash's shape, or all of them.
func (c *Cache) Clear(hash string, all bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if all {
		clear(c.entries)
		c.order = c.order[:0]
		c.bytes = 0
		return
	}
	c.removeShape(hash)
}

// removeShape drops hash's entries; the caller holds mu.
func (c *Cache) removeShape(hash string) {
	for k, e := range c.entries {
		if e.hash == hash {
			c.bytes -= e.size
			delete(c.entries, k)
		}
	}
	c.order = slices.DeleteFunc(c.order, func(k string) bool { _, ok := c.entries[k]; return !ok })
}

// Stats renders the entries as $planCacheStats does (Explain::
// planCacheEntryToBSON, version "1" for the classic cache), each with
// host appended as the stage appends it.
func (c *Cache) Stats(coll *catalog.Collection, host string) []bson.D {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sync(coll)
	out := make([]bson.D, 0, len(c.order))
	for _, k := range c.order {
		e := c.entries[k]
		out = append(out, bson.D{
			{Key: "version", Value: "1"},
			{Key: "queryHash", Value: e.hash},
			{Key: "planCacheShapeHash", Value: e.hash},
			{Key: "planCacheKey", Value: e.key},
			{Key: "isActive", Value: e.active},
			{Key: "works", Value: e.works},
			{Key: "timeOfCreation", Value: bson.NewDateTimeFromTime(e.created)},
			{Key: "createdFromQuery", Value: bson.D{
				{Key: "query", Value: e.shape.Filter},
				{Key: "sort", Value: e.shape.Sort},
				{Key: "projection", Value: e.shape.Projection},
			}},
			{Key: "cachedPlan", Value: e.plan},
			{Key: "creationExecStats", Value: e.execStats},
			{Key: "candidatePlanScores", Value: e.scores},
			{Key: "indexFilterSet", Value: e.filterSet},
			// estimatedSizeBytes is left out: it is mongod's estimate of
			// its own C++ entry's footprint, which the sandbox has no
			// honest figure for.
			{Key: "solutionHash", Value: e.solutionID},
			{Key: "host", Value: host},
		})
	}
	return out
}

// cached returns the winner of an active entry for key among cands, or
// nil: an inactive entry, or one whose plan is no longer among them,
// plans again.
func (c *Cache) cached(coll *catalog.Collection, key string, cands []*candidate) *candidate {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sync(coll)
	e := c.entries[key]
	if e == nil || !e.active || e.nCands != len(cands) || candidateName(cands[e.winnerAt]) != e.winnerName {
		return nil
	}
	return cands[e.winnerAt]
}

func candidateName(c *candidate) string {
	if c.ix == nil {
		return ""
	}
	return c.ix.Spec.Name
}

// record is PlanCache::set after a multi-planning trial: a new shape gets
// an inactive entry with the winner's works; an inactive entry becomes
// active when the new trial took no more works than it records, and
// otherwise its works grow (internalQueryCacheWorksGrowthCoefficient, 2),
// so that a shape whose cost varies settles on a plan only once the cost
// is known.
func (c *Cache) record(coll *catalog.Collection, e *Executor, hash, key string, filterSet bool) {
	works := max(e.winner.root.common().works, 1)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sync(coll)
	old := c.entries[key]
	active := false
	if old != nil {
		if old.active {
			return
		}
		if works > old.works {
			old.works = max(old.works*2, old.works+1)
			return
		}
		active = true
	}
	entry := &cacheEntry{key: key, hash: hash, shape: e.q.shape(), active: active, works: works, created: time.Now(),
		winnerName: candidateName(e.winner), nCands: len(e.candidates), filterSet: filterSet}
	ranked := slices.Clone(e.candidates)
	slices.SortStableFunc(ranked, func(a, b *candidate) int {
		switch {
		case a.rank > b.rank:
			return -1
		case a.rank < b.rank:
			return 1
		}
		return 0
	})
	entry.scores = bson.A{}
	entry.execStats = bson.A{}
	for _, cand := range ranked {
		if cand.failed {
			// MultiPlanStage reports a candidate that failed its trial
			// with a score of 0, after the others.
			continue
		}
		entry.scores = append(entry.scores, cand.rank)
		entry.execStats = append(entry.execStats, cand.creationStats())
	}
	for _, cand := range ranked {
		if cand.failed {
			entry.scores = append(entry.scores, 0.0)
		}
	}
	for i, cand := range e.candidates {
		if cand == e.winner {
			entry.winnerAt = i
		}
	}
	entry.plan = e.winner.root.describe(false)
	h := fnv.New64a()
	h.Write([]byte(index.FormatDoc(entry.plan)))
	entry.solutionID = int64(h.Sum64() >> 1)
	if raw, err := bson.Marshal(bson.D{{Key: "p", Value: entry.plan}, {Key: "s", Value: entry.execStats}, {Key: "q", Value: entry.shape.Filter}}); err == nil {
		entry.size = len(raw)
	}
	if entry.size > maxCacheBytes {
		return
	}
	if old != nil {
		c.bytes -= old.size
		c.order = slices.DeleteFunc(c.order, func(k string) bool { return k == key })
	}
	for len(c.order) > 0 && (len(c.order) >= maxCacheEntries || c.bytes+entry.size > maxCacheBytes) {
		c.bytes -= c.entries[c.order[0]].size
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	c.order = append(c.order, key)
	c.entries[key] = entry
	c.bytes += entry.size
}

// creationStats is one candidate's creationExecStats entry: its trial
// statistics without the score (generateSinglePlanExecutionInfo outside
// the trial-period form).
func (c *candidate) creationStats() bson.D {
	d := c.trialStats()
	return slices.DeleteFunc(d, func(e bson.E) bool { return e.Key == "score" })
}
