package planner

import (
	"context"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/query"
)

// A DISTINCT_SCAN reads one index key per value of the distinct key and
// seeks past the rest. mongod 8.0 plans one (featureFlagShardFilteringDistinctScan
// off) in getExecutorDistinct (get_executor.cpp) for the distinct command
// and for a $group rewritten as $groupByDistinctScan (pipeline_d.cpp):
//
//   - only indexes holding the key qualify; for a $group (STRICT_DISTINCT_ONLY)
//     not one multikey on the key, and for $last/$bottom (the scan runs
//     backwards) not one multikey at all;
//   - with no filter and no sort, getDistinctNodeIndex takes the qualifying
//     index led by the key with the fewest fields (no partial index), scans
//     it whole forwards, and covers the projection when the key pattern
//     holds its fields: a DistinctNode provides every field of its key
//     pattern, multikey or not, so a distinct on a multikey path answers
//     from the keys, null for a missing field and undefined for [];
//   - otherwise the planner's solutions over those indexes (never a
//     collection scan) are tried in order by turnIxscanIntoDistinctIxscan:
//     the IXSCAN must carry no filter and neither may a FETCH above it, no
//     blocking sort, the key not multikey in that index, and for a strict
//     distinct every field before the key pinned to one value; a wildcard
//     index qualifies through the view of the key's path, unless it scans
//     subpaths. A covered
//     PROJECTION stays over the DISTINCT_SCAN; a FETCH stays and a
//     projection above it goes.
//
// When none qualifies the query is planned as any other.

// PlanDistinct plans q, whose DistinctKey is set, as a DISTINCT_SCAN only:
// ok is false when none applies, and the caller plans without it (as
// tryPrepareDistinctExecutor falls back to getExecutorFind).
func PlanDistinct(coll *catalog.Collection, ns string, q Query) (exec *Executor, ok bool) {
	if coll == nil {
		return nil, false
	}
	e := &Executor{coll: coll, ns: ns, q: q}
	e.SetContext(q.Ctx)
	c := distinctPlan(coll, q, e.context)
	if c == nil {
		return nil, false
	}
	e.candidates, e.winner, e.root = []*candidate{c}, c, c.root
	return e, true
}

func distinctPlan(coll *catalog.Collection, q Query, ctx func() context.Context) *candidate {
	if q.DistinctKey == "" || q.Hint != nil || q.Count || q.Skip != 0 || q.Limit != 0 {
		return nil
	}
	qualifies := func(ix *index.Index) bool {
		i := keyField(ix, q.DistinctKey)
		switch {
		case i < 0, q.FlipDistinct && ix.IsMultiKey():
			return false
		case ix.Spec.Fields[i].Hashed:
			// A hashed key holds no value to return
			// (distinct_with_hashed_index.js).
			return false
		}
		return !q.StrictDistinct || !ix.FieldIsMultiKey(i)
	}
	if (q.Filter == nil || q.Filter.IsEmpty()) && len(q.Sort) == 0 {
		return distinctNodePlan(coll, q, qualifies, ctx)
	}
	if q.Filter != nil && isRootedOr(q.Filter) {
		return distinctOfOr(coll, q, qualifies, ctx)
	}
	cands, err := enumerateOver(coll, q, qualifies, false)
	if err != nil {
		return nil
	}
	for _, c := range cands {
		if d := distinctFromScan(coll, q, c, q.Filter, ctx); d != nil {
			return d
		}
	}
	return nil
}

func isRootedOr(f *query.Filter) bool {
	or, ok := f.Root.(*query.Or)
	return ok && len(or.Children) > 0
}

// distinctOfOr plans a rooted $or for a distinct. QueryPlanner::plan (not
// the subplanner) indexes it over the indexes holding the key, and
// buildIndexedOr makes one scan of the predicate branches tagged with one
// index at one key position, their bounds unioned (processIndexScans,
// shouldMergeWithLeaf): an OR of one scan is that scan, which
// turnIxscanIntoDistinctIxscan takes like any other, several intervals or
// not, when the bounds answer the whole $or. Branches on several scans
// make an OR, which it refuses, and distinct.cpp falls back on
// getExecutorFind.
func distinctOfOr(coll *catalog.Collection, q Query, qualifies func(*index.Index) bool, ctx func() context.Context) *candidate {
	c := orCandidateOver(coll, q, func(ix *index.Index) bool { return !q.hides(ix) && qualifies(ix) })
	if c == nil || len(c.branches) != 1 {
		return nil
	}
	b := c.branches[0]
	return distinctFromScan(coll, q, b, &query.Filter{Root: b.orBranch}, ctx)
}

// keyField is the position of path in ix's key pattern, -1 if absent.
func keyField(ix *index.Index, path string) int {
	return slices.IndexFunc(ix.Spec.Fields, func(f index.Field) bool { return f.Path == path })
}

// distinctNodePlan is the plan of a distinct with no filter and no sort.
func distinctNodePlan(coll *catalog.Collection, q Query, qualifies func(*index.Index) bool, ctx func() context.Context) *candidate {
	var best *index.Index
	for _, ix := range coll.Indexes() {
		if q.hides(ix) || ix.Spec.Partial != nil || ix.Spec.Fields[0].Path != q.DistinctKey || !qualifies(ix) {
			continue
		}
		if best == nil || len(ix.Spec.Fields) < len(best.Spec.Fields) {
			best = ix
		}
	}
	if best == nil {
		return nil
	}
	c := indexCandidate(best, nil, nil, true)
	covered := q.Projection != nil && q.Projection.Coverable
	if covered {
		for _, f := range q.Projection.Required {
			covered = covered && keyField(best, f) >= 0
		}
	}
	ds := newDistinctScan(coll, c, 0)
	var s stage = ds
	if covered {
		ds.keyDocs, c.covered = true, true
	} else {
		c.fetch = &fetch{child: ds, coll: coll}
		s = c.fetch
	}
	if q.Projection != nil {
		s = &projectionStage{child: s, proj: q.Projection, covered: covered, ctx: ctx}
	}
	c.root = s
	return c
}

// distinctFromScan turns the index plan c into a DISTINCT_SCAN plan, or
// returns nil when it cannot be.
// filter is what the scan must answer from its bounds alone: the query's
// filter, or the $or of the branches merged into the one scan of a rooted
// $or.
func distinctFromScan(coll *catalog.Collection, q Query, c *candidate, filter *query.Filter, ctx func() context.Context) *candidate {
	if c.ix == nil || c.branches != nil || len(q.Sort) > 0 && !c.sorted {
		return nil
	}
	// A wildcard view scanning subpaths holds several keys per object, in
	// (path, value) order: skipping to the next value would lose
	// documents (isWildcardObjectSubpathScan).
	if c.wildcardSubpaths {
		return nil
	}
	if keyFilter, rest := c.splitFilter(filter, q); len(keyFilter) > 0 || len(rest) > 0 {
		return nil
	}
	fieldNo := keyField(c.ix, q.DistinctKey)
	if c.ix.FieldIsMultiKey(fieldNo) {
		return nil
	}
	if q.StrictDistinct {
		for _, b := range c.bounds[:fieldNo] {
			if len(b) != 1 || !b.isPoints() {
				return nil
			}
		}
	}
	if q.FlipDistinct {
		c.dir = -c.dir
	}
	c.covered = coversProjection(q, c)
	ds := newDistinctScan(coll, c, fieldNo)
	if c.covered {
		ds.keyDocs = true
		c.root = &projectionStage{child: ds, proj: q.Projection, covered: true, ctx: ctx}
	} else {
		c.fetch = &fetch{child: ds, coll: coll}
		c.root = c.fetch
	}
	return c
}

func newDistinctScan(coll *catalog.Collection, c *candidate, fieldNo int) *distinctScan {
	ixs := newIxScan(c.ix, coll, orientAll(c), c.dir)
	// The scan drops no record it has seen: on a multikey index one
	// document stands for each of its values.
	ixs.seen = nil
	c.scan, c.ixscans = ixs, []*ixScan{ixs}
	return &distinctScan{ixScan: ixs, fieldNo: fieldNo}
}

// distinctScan returns the first entry of each distinct value of the
// index's fieldNo-th field (with the fields before it) within the bounds.
type distinctScan struct {
	*ixScan
	fieldNo int
}

func (s *distinctScan) work() (state, member) {
	st, m := s.ixScan.work()
	if st == advanced {
		// Seek past every entry holding the same values up to the key.
		key := make([]any, len(s.bounds))
		copy(key, s.last[:s.fieldNo+1])
		for i := s.fieldNo + 1; i < len(key); i++ {
			key[i] = s.highSentinel()
		}
		s.seekTo(key, true)
	}
	return st, m
}

func (s *distinctScan) describe(exec bool) bson.D {
	d := s.ixScan.describe(exec)
	d[0].Value = "DISTINCT_SCAN"
	if !exec {
		return d
	}
	// DISTINCT_SCAN reports only keysExamined of the scan's counters.
	out := d[:0:0]
	for _, f := range d {
		switch f.Key {
		case "seeks", "dupsTested", "dupsDropped":
			continue
		}
		out = append(out, f)
	}
	return out
}
