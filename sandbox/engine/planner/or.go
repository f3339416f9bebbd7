package planner

import (
	"math"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/query"
)

// A rooted $or whose every branch can use an index is answered as mongod
// does: the subplanner (QueryPlanner::choosePlanForSubqueries) plans each
// branch alone, tags it with the index its plan uses, and builds the whole
// plan from the tagged $or as the access planner builds any indexed $or
// (prepareForAccessPlanning, then buildIndexedOr): the branches ordered by
// their tags, the predicate branches on one index and key position sharing
// one scan (orScans), under SUBPLAN. Several scans make an OR, which drops
// RecordIDs an earlier scan returned, or a SORT_MERGE when every scan gives
// the sort; one scan is the plan itself, with the FETCH analyzeDataAccess
// adds: SUBPLAN > FETCH > IXSCAN.

// orCandidateOver plans a rooted $or over the indexes admit accepts (a
// hint restricts every branch to the hinted index, an index filter to the
// ones it allows), or returns nil when some branch has no usable index
// (mongod then scans the collection).
func orCandidateOver(coll *catalog.Collection, q Query, admit func(*index.Index) bool) *candidate {
	if q.Filter == nil {
		return nil
	}
	or, ok := q.Filter.Root.(*query.Or)
	if !ok || len(or.Children) == 0 {
		return nil
	}
	c := &candidate{dir: 1}
	// The branches are planned in the canonical query's order, which
	// breaks the ties of the tag order.
	var picked []branchChoice
	for _, branch := range query.SortedChildren(or.Children) {
		var nodes []query.Node
		if a, ok := branch.(*query.And); ok {
			nodes = a.Children
		} else {
			nodes = []query.Node{branch}
		}
		preds := predicatesByPath(nodes)
		bq := Query{Filter: &query.Filter{Root: branch}, Ctx: q.Ctx}
		var opts []branchChoice
		var leading []int
		for rank, ix := range coll.Indexes() {
			if !admit(ix) {
				continue
			}
			var options []*candidate
			if ix.Wildcard() != nil {
				options = wildcardCandidates(ix, preds, nodes, nil, false)
			} else if b := indexCandidate(ix, preds, nil, false); b != nil {
				options = []*candidate{b}
			}
			for _, b := range options {
				if !usable(b.ix, b, bq) {
					continue
				}
				// The index that constrains more leading fields comes
				// first: it is the plan when the branch is not raced, and
				// wins the race's ties.
				score := 0
				for _, o := range b.bounds {
					if o.isFull() {
						break
					}
					score++
				}
				at := len(leading)
				for at > 0 && leading[at-1] < score {
					at--
				}
				opts = slices.Insert(opts, at, branchChoice{scan: b, rank: rank})
				leading = slices.Insert(leading, at, score)
			}
		}
		if len(opts) == 0 {
			return nil
		}
		best := opts[0]
		if len(opts) > 1 && q.subplanned() {
			best = raceBranch(coll, q, bq, preds, opts)
		}
		best.scan.orBranch = branch
		best.pos, best.path = tagPos(branch, best.scan), query.NodePath(branch)
		picked = append(picked, best)
	}
	c.branches = orScans(q, picked)
	if len(q.Sort) > 0 {
		c.mergeSort(q.Sort)
	}
	return c
}

// raceBranch multi-plans the index plans of one rooted $or branch, as the
// subplanner does for a branch with more than one solution
// (SubplanStage::choosePlanForSubqueries, subplan.cpp): each runs the
// branch alone through the whole-query trial (MultiPlanStage), and the
// best-scored wins, the first of opts on a tie. The branch's query keeps
// the whole query's sort and projection (CanonicalQuery::makeForSubplanner),
// so a plan whose index gives the order races without a blocking SORT. The
// trial works plans of its own, so the chosen one is still unbuilt for the
// $or's plan. A trial the query's deadline interrupts leaves the first
// plan; the query then stops at its own next interrupt check.
//
// The branch's plan goes through the plan cache under the branch's own
// shape: an active entry picks it without a trial, and a trial writes
// the entry in the subplanner's SometimesCache mode (branchCacheable).
func raceBranch(coll *catalog.Collection, q, bq Query, preds map[string][]indexedPred, opts []branchChoice) branchChoice {
	bq.Sort, bq.Projection, bq.Cache, bq.Explain = q.Sort, q.Projection, q.Cache, q.Explain
	e := &Executor{coll: coll, q: bq}
	e.SetContext(bq.Ctx)
	for _, o := range opts {
		t := *o.scan
		if len(bq.Sort) > 0 && t.ix.Wildcard() == nil {
			if sorted := indexCandidate(t.ix, preds, bq.Sort, false); sorted != nil {
				t = *sorted
			}
		}
		e.candidates = append(e.candidates, &t)
	}
	var hash, key string
	if bq.cacheable() {
		hash = ShapeHash(coll.NS(), bq.Filter, bq.Sort, bq.shapeProjection())
		key = planCacheKey(hash, coll, bq)
		if w := bq.Cache.cached(coll, key, e.candidates); w != nil {
			return opts[slices.Index(e.candidates, w)]
		}
	}
	for _, c := range e.candidates {
		build(coll, bq, c, e.context)
	}
	if e.runTrial() != nil {
		return opts[0]
	}
	if key != "" && branchCacheable(e) {
		bq.Cache.record(coll, e, hash, key, false)
	}
	return opts[slices.Index(e.candidates, e.winner)]
}

// branchCacheable is the SometimesCache rule the subplanner's branch
// trials are cached under (plan_cache_util.h): not when the winner ties
// with the runner-up (PlanRankingDecision::tieForBest, their ranks within
// 1e-10), nor when it returned nothing during the trial.
func branchCacheable(e *Executor) bool {
	if e.winner.root.common().advanced == 0 {
		return false
	}
	for _, c := range e.candidates {
		if c != e.winner && !c.failed && math.Abs(c.rank-e.winner.rank) < 1e-10 {
			return false
		}
	}
	return true
}

// mergeSort makes the $or plan c a SORT_MERGE when every branch's scan
// gives sortSpec, in one direction or the other (canProvideSortWithMergeSort).
func (c *candidate) mergeSort(sortSpec bson.D) {
	dirs := make([]int, len(c.branches))
	for i, b := range c.branches {
		sorted, dir := providesSort(b.ix, b.bounds, nil, sortSpec)
		if !sorted {
			return
		}
		dirs[i] = dir
	}
	for i, b := range c.branches {
		b.dir = dirs[i]
	}
	c.sorted = true
	if len(c.branches) == 1 {
		// An OR of one scan is that scan (buildIndexedOr), which gives
		// the sort itself (analyzeSort): no SORT_MERGE.
		c.branches[0].sorted = true
		return
	}
	c.merged = true
}

// mergeSortStage is SORT_MERGE (src/mongo/db/exec/merge_sort.cpp): it
// holds the next result of every branch, each branch in the sort order,
// and returns the least; a RecordID a branch already gave is dropped.
type mergeSortStage struct {
	st       stats
	children []stage
	pattern  bson.D
	// keys computes the sort key of a document, as SORT does.
	keys  *sortStage
	heads []*sortRow
	// refill lists the children whose head was taken, to work next.
	refill []int
	done   []bool
	seen   ridSet
	dupsT  int64
	dupsD  int64
	millis int64
	err    error
}

func newMergeSortStage(children []stage, pattern bson.D) *mergeSortStage {
	s := &mergeSortStage{children: children, pattern: pattern, keys: newSortStage(nil, pattern, 0, false),
		heads: make([]*sortRow, len(children)), done: make([]bool, len(children))}
	for i := range children {
		s.refill = append(s.refill, i)
	}
	return s
}

func (s *mergeSortStage) common() *stats { return &s.st }

// work fills every branch's head first, one branch's work per call, as
// MergeSortStage::doWork does, then returns the least head.
func (s *mergeSortStage) work() (state, member) {
	if s.err != nil {
		return s.st.record(isEOF), member{}
	}
	if len(s.refill) > 0 {
		i := s.refill[0]
		st, m := s.children[i].work()
		switch st {
		case advanced:
			s.dupsT++
			if !s.seen.add(m.rid) {
				s.dupsD++
				return s.st.record(needTime), member{}
			}
			keys, err := s.keys.keys(m.doc)
			if err != nil {
				s.err = err
				return s.st.record(isEOF), member{}
			}
			s.heads[i] = &sortRow{keys: keys, m: m, seq: i}
			s.refill = s.refill[1:]
		case isEOF:
			s.done[i] = true
			s.refill = s.refill[1:]
		}
		return s.st.record(needTime), member{}
	}
	least := -1
	for i, h := range s.heads {
		if h != nil && (least < 0 || s.keys.compareRows(*h, *s.heads[least]) < 0) {
			least = i
		}
	}
	if least < 0 {
		return s.st.record(isEOF), member{}
	}
	m := s.heads[least].m
	s.heads[least] = nil
	if !s.done[least] {
		s.refill = append(s.refill, least)
	}
	return s.st.record(advanced), m
}

func (s *mergeSortStage) describe(exec bool) bson.D {
	d := bson.D{{Key: "stage", Value: "SORT_MERGE"}}
	if exec {
		d = append(d, commonFields(&s.st, s.millis)...)
	}
	d = append(d, bson.E{Key: "sortPattern", Value: s.pattern})
	if exec {
		d = append(d, bson.E{Key: "dupsTested", Value: s.dupsT}, bson.E{Key: "dupsDropped", Value: s.dupsD})
	}
	in := make(bson.A, len(s.children))
	for i, c := range s.children {
		in[i] = c.describe(exec)
	}
	return append(d, bson.E{Key: "inputStages", Value: in})
}

type orStage struct {
	st       stats
	children []stage
	cur      int
	seen     ridSet
	dupsT    int64
	dupsD    int64
	millis   int64
}

func (s *orStage) common() *stats { return &s.st }

func (s *orStage) work() (state, member) {
	if s.cur >= len(s.children) {
		return s.st.record(isEOF), member{}
	}
	st, m := s.children[s.cur].work()
	switch st {
	case isEOF:
		s.cur++
		if s.cur >= len(s.children) || stageErrorOf(s.children[s.cur-1]) != nil {
			// A branch's error (a filter's $expr) ends the query.
			s.cur = len(s.children)
			return s.st.record(isEOF), member{}
		}
		return s.st.record(needTime), member{}
	case needTime:
		return s.st.record(needTime), member{}
	}
	s.dupsT++
	if !s.seen.add(m.rid) {
		s.dupsD++
		return s.st.record(needTime), member{}
	}
	return s.st.record(advanced), m
}

func (s *orStage) describe(exec bool) bson.D {
	d := bson.D{{Key: "stage", Value: "OR"}}
	if exec {
		d = append(d, commonFields(&s.st, s.millis)...)
		d = append(d, bson.E{Key: "dupsTested", Value: s.dupsT}, bson.E{Key: "dupsDropped", Value: s.dupsD})
	}
	in := make(bson.A, len(s.children))
	for i, c := range s.children {
		in[i] = c.describe(exec)
	}
	return append(d, bson.E{Key: "inputStages", Value: in})
}

type subplanStage struct {
	st     stats
	child  stage
	millis int64
}

func (s *subplanStage) common() *stats { return &s.st }

func (s *subplanStage) work() (state, member) {
	st, m := s.child.work()
	return s.st.record(st), m
}

func (s *subplanStage) describe(exec bool) bson.D {
	d := bson.D{{Key: "stage", Value: "SUBPLAN"}}
	if exec {
		d = append(d, commonFields(&s.st, s.millis)...)
	}
	return append(d, bson.E{Key: "inputStage", Value: s.child.describe(exec)})
}
