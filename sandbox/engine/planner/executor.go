package planner

import (
	"context"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Executor runs a chosen plan over a collection snapshot, which no writer
// changes, so it needs no lock. It is not safe for concurrent use; a
// cursor keeps it across getMore calls, one at a time.
type Executor struct {
	coll       *catalog.Collection
	ns         string
	q          Query
	candidates []*candidate
	winner     *candidate
	root       stage
	count      *countStage
	buffered   []member
	express    *expressStage
	fastCount  *fastCountStage
	elapsed    time.Duration
	trialTime  time.Duration
	// filterSet: an index filter chose the indexes planned over.
	filterSet bool
	// timing makes the executor measure the time from its first Next to
	// its end, for explain; plain queries read no clock at all.
	timing  bool
	started time.Time
	eof     bool
	// ctx interrupts execution; done is its Done channel.
	ctx  context.Context
	done <-chan struct{}
	// failed is the error that ended execution, which explain reports in
	// its executionStats section.
	failed error
	// pulled counts the works a stage above the plan would have done on
	// it (see PulledWorks).
	pulled int64
}

// PulledWorks is how many times a stage above the plan, such as a write
// stage, has worked it through Next: once per result buffered during the
// trial, which MultiPlanStage::doWork hands over one a work, and once per
// work of the winning plan after it.
func (e *Executor) PulledWorks() int64 { return e.pulled }

// SetContext makes ctx the one that interrupts the executor from now on
// (the command running the next batch of a cursor).
func (e *Executor) SetContext(ctx context.Context) {
	e.ctx, e.done = ctx, nil
	if ctx != nil {
		e.done = ctx.Done()
	}
}

// context is the context interrupting the executor now.
func (e *Executor) context() context.Context { return e.ctx }

// interrupted is checked before every work unit, as mongod's executor
// checks for interrupt on every iteration: a document can be expensive
// (an $expr building arrays), so counting documents between checks would
// let a deadline pass by far. A non-blocking receive on the Done channel
// costs a few nanoseconds.
func (e *Executor) interrupted() error {
	select {
	case <-e.done:
		return mongoerr.FromContext(e.ctx)
	default:
		return nil
	}
}

// trialResults is how many results end a trial (mongod's default batch).
const trialResults = 101

// runTrial races the candidates round-robin like mongod's MultiPlanStage
// until one produces 101 results or finishes, then ranks them by
// productivity (advanced/works) plus plan_ranker's small bonuses for plans
// without a FETCH (covered), without a SORT, and without index
// intersection (which this planner never builds), and 1 for each plan
// that finished. The plans tied for the best score are then told apart
// by the tie-breaking bonuses (breakTies); a tie left after those goes to
// the earlier candidate.
func (e *Executor) runTrial() error {
	start := time.Now()
	maxWorks := max(10000, int64(0.29*float64(e.coll.Count())))
	target := int64(trialResults)
	if e.q.Limit > 0 && e.q.Limit < target {
		target = e.q.Limit
	}
	done := false
	for w := int64(0); w < maxWorks && !done; w++ {
		if err := e.interrupted(); err != nil {
			return err
		}
		for _, c := range e.candidates {
			if c.root.common().eof {
				continue
			}
			st, m := c.root.work()
			switch st {
			case advanced:
				c.results = append(c.results, m)
				if int64(len(c.results)) >= target {
					done = true
				}
			case isEOF:
				// MultiPlanStage::workAllPlans: a candidate that runs out
				// of memory (a blocking SORT past its limit) drops out of
				// the trial, which goes on with the others; the query
				// fails only if every candidate does.
				if err := mongoerr.As(stageErrorOf(c.root)); err != nil && err.Code == mongoerr.QueryExceededMemoryLimitNoDiskUseAllowed && len(e.candidates) > 1 {
					c.failed = true
					if e.allFailed() {
						done = true
					}
					continue
				}
				done = true
			}
		}
	}
	var ranked []*candidate
	for _, c := range e.candidates {
		if c.failed && !e.allFailed() {
			continue
		}
		s := c.root.common()
		works := max(s.works, 1)
		// PlanScorer::calculateScore (plan_ranker.h) sizes the bonuses on
		// the plan's advances, capped at kBonusEpsilon.
		eps := math.Min(1/(10*float64(max(s.advanced, 1))), bonusEpsilon)
		c.score = 1 + float64(s.advanced)/float64(works) + eps // no index intersection
		if !hasSort(c.root) {
			c.score += eps
		}
		if c.fetch == nil && c.branchFetches == nil {
			c.score += eps
		}
		if s.eof {
			// plan_ranker::pickBestPlan: a plan that ran out during the
			// trial is scored above its peers, every such plan alike.
			c.score++
		}
		c.rank = c.score
		ranked = append(ranked, c)
	}
	breakTies(ranked)
	best := -1.0
	for _, c := range ranked {
		if c.rank > best {
			best, e.winner = c.rank, c
		}
	}
	e.trialTime = time.Since(start)
	for _, c := range e.candidates {
		c.trialEx = c.root.describe(true)
	}
	return nil
}

// bonusEpsilon is plan_ranker.h's kBonusEpsilon, the unit of its
// tie-breaking bonuses.
const bonusEpsilon = 1e-4

// breakTies adds plan_ranker's tie-breaking bonuses to the rank of the
// plans tied for the best score (addTieBreakingHeuristicsBonuses, with
// internalQueryPlanTieBreakingWithIndexHeuristics on by default): one
// epsilon to those that examined the fewest documents, two to those whose
// index scans bound the best index prefix (applyIndexPrefixHeuristic). A
// plan's explain score stays the one the trial earned; the ranks order the
// plan cache entry's scores.
func breakTies(cands []*candidate) {
	top := -1.0
	for _, c := range cands {
		top = max(top, c.score)
	}
	var tied []*candidate
	for _, c := range cands {
		if c.score == top {
			tied = append(tied, c)
		}
	}
	if len(tied) < 2 {
		return
	}
	fewest := tied[0].docsExamined()
	for _, c := range tied[1:] {
		fewest = min(fewest, c.docsExamined())
	}
	for _, c := range tied {
		if c.docsExamined() == fewest {
			c.rank += bonusEpsilon
		}
	}
	for _, c := range indexPrefixWinners(tied) {
		c.rank += 2 * bonusEpsilon
	}
}

// indexPrefixWinners is applyIndexPrefixHeuristic (plan_ranker.cpp): when
// the plans have one shape (the same stages, each with as many inputs), the
// index scans at each position of it are scored on their bounds
// (indexBoundsScore) and the best of each position earn their plan a
// point; the plans with the most points win. Plans of different shapes
// have no winner.
func indexPrefixWinners(cands []*candidate) []*candidate {
	shape := stageShape(cands[0].root.describe(false))
	for _, c := range cands[1:] {
		if stageShape(c.root.describe(false)) != shape || len(c.ixscans) != len(cands[0].ixscans) {
			return nil
		}
	}
	points := make([]int, len(cands))
	for pos := range cands[0].ixscans {
		scores := make([]uint64, len(cands))
		for i, c := range cands {
			scores[i] = indexBoundsScore(c.ixscans[pos])
		}
		best := slices.Max(scores)
		for i, sc := range scores {
			if sc == best {
				points[i]++
			}
		}
	}
	most := slices.Max(points)
	var out []*candidate
	for i, c := range cands {
		if points[i] == most {
			out = append(out, c)
		}
	}
	return out
}

// stageShape writes a plan's stage names and how they nest, to compare
// plans' shapes.
func stageShape(d bson.D) string {
	var b strings.Builder
	var walk func(d bson.D)
	walk = func(d bson.D) {
		for _, e := range d {
			switch e.Key {
			case "stage":
				b.WriteString(e.Value.(string))
			case "inputStage":
				b.WriteByte('(')
				walk(e.Value.(bson.D))
				b.WriteByte(')')
			case "inputStages":
				b.WriteByte('[')
				for _, in := range e.Value.(bson.A) {
					walk(in.(bson.D))
					b.WriteByte(',')
				}
				b.WriteByte(']')
			}
		}
	}
	walk(d)
	return b.String()
}

// indexBoundsScore is getIndexBoundsScore (plan_ranker.cpp): over the
// leading fields the scan bounds to less than all values, the longest
// prefix of single points, then of point lists, then of closed intervals,
// then the length of that prefix, then the shorter key pattern, packed so
// that one comparison orders them.
func indexBoundsScore(s *ixScan) uint64 {
	var singlePoints, points, closed, length uint64
	for i, f := range s.bounds {
		if s.ix.Spec.Fields[i].Path == "$_path" {
			continue
		}
		if scanIsFull(f) {
			break
		}
		if length == singlePoints && len(f) == 1 && scanIsPoint(f[0]) {
			singlePoints++
		}
		if length == points && !slices.ContainsFunc(f, func(iv scanInterval) bool { return !scanIsPoint(iv) }) {
			points++
		}
		if length == closed && !slices.ContainsFunc(f, func(iv scanInterval) bool { return !scanIsClosed(iv) }) {
			closed++
		}
		length++
	}
	return singlePoints<<52 | points<<40 | closed<<28 | length<<16 | (math.MaxUint16 - uint64(len(s.bounds)))
}

// scanIsFull: the field's bounds are all values, in either direction.
func scanIsFull(f []scanInterval) bool {
	if len(f) != 1 || !f[0].startInc || !f[0].endInc {
		return false
	}
	return isMinKey(f[0].start) && isMaxKey(f[0].end) || isMaxKey(f[0].start) && isMinKey(f[0].end)
}

func scanIsPoint(iv scanInterval) bool {
	return iv.startInc && iv.endInc && value.Compare(iv.start, iv.end) == 0
}

// scanIsClosed is isClosedInterval (plan_ranker.cpp): both ends of one BSON
// type and neither the open end of that type's bracket (MinKey, MaxKey, or
// the bracket's lowest or highest value, as -inf and inf for numbers). A
// point is closed.
func scanIsClosed(iv scanInterval) bool {
	if value.TypeName(iv.start) != value.TypeName(iv.end) {
		return false
	}
	if value.Compare(iv.start, iv.end) == 0 {
		return true
	}
	lo, hi := iv.start, iv.end
	if value.Compare(lo, hi) > 0 {
		lo, hi = hi, lo
	}
	return !isBracketEnd(lo, true) && !isBracketEnd(hi, false)
}

// isBracketEnd: v is MinKey or MaxKey, or the lowest (low) or highest
// value of its type's bracket.
func isBracketEnd(v any, low bool) bool {
	if isMinKey(v) || isMaxKey(v) {
		return true
	}
	bLo, _, bHi, _ := typeBracket(v)
	if low {
		return value.Compare(v, bLo) == 0
	}
	return value.Compare(v, bHi) == 0
}

func hasSort(s stage) bool {
	switch x := s.(type) {
	case *sortStage:
		return true
	case *skipStage:
		return hasSort(x.child)
	case *limitStage:
		return hasSort(x.child)
	case *projectionStage:
		return hasSort(x.child)
	case *countStage:
		return hasSort(x.child)
	case *subplanStage:
		return hasSort(x.child)
	}
	return false
}

// EnableTiming makes the executor measure execution time, for explain's
// executionTimeMillis; call it before the first Next.
func (e *Executor) EnableTiming() { e.timing = true }

// Next returns the next result; ok is false at the end.
func (e *Executor) Next() (Result, bool, error) {
	if len(e.buffered) > 0 {
		m := e.buffered[0]
		e.buffered = e.buffered[1:]
		e.pulled++
		return Result{RID: m.rid, Doc: m.doc, Pos: m.pos, Keys: m.keys}, true, nil
	}
	if e.eof {
		return Result{}, false, nil
	}
	if e.timing && e.started.IsZero() {
		e.started = time.Now()
	}
	for {
		if err := e.interrupted(); err != nil {
			e.failed = err
			return Result{}, false, err
		}
		st, m := e.root.work()
		e.pulled++
		switch st {
		case advanced:
			return Result{RID: m.rid, Doc: m.doc, Pos: m.pos, Keys: m.keys}, true, nil
		case isEOF:
			e.eof = true
			if e.timing {
				e.elapsed = time.Since(e.started)
			}
			if err := e.stageError(); err != nil {
				e.failed = err
				return Result{}, false, err
			}
			return Result{}, false, nil
		}
	}
}

func (e *Executor) stageError() error { return stageErrorOf(e.root) }

// allFailed reports whether every candidate dropped out of the trial.
func (e *Executor) allFailed() bool {
	for _, c := range e.candidates {
		if !c.failed {
			return false
		}
	}
	return true
}

// stageErrorOf is the error that ended the plan rooted at root, if any.
func stageErrorOf(root stage) error {
	for s := root; s != nil; {
		switch x := s.(type) {
		case *projectionStage:
			if x.err != nil {
				return x.err
			}
			s = x.child
		case *skipStage:
			s = x.child
		case *sortKeyGenerator:
			if x.err != nil {
				return x.err
			}
			s = x.child
		case *limitStage:
			s = x.child
		case *countStage:
			s = x.child
		case *expressStage:
			return x.err
		case *sortStage:
			if x.err != nil {
				return x.err
			}
			s = x.child
		case *fetch:
			if x.err != nil {
				return x.err
			}
			s = x.child
		case *collScan:
			return x.err
		case *subplanStage:
			s = x.child
		case *mergeSortStage:
			if x.err != nil {
				return x.err
			}
			for _, c := range x.children {
				if err := stageErrorOf(c); err != nil {
					return err
				}
			}
			return nil
		case *orStage:
			for _, c := range x.children {
				if err := stageErrorOf(c); err != nil {
					return err
				}
			}
			return nil
		default:
			return nil
		}
	}
	return nil
}

// Count runs a count plan to the end and returns the number of matching
// documents (after skip and limit).
func (e *Executor) Count() (int64, error) {
	for {
		_, ok, err := e.Next()
		if err != nil {
			return 0, err
		}
		if !ok {
			break
		}
	}
	if e.fastCount != nil {
		return e.fastCount.n, nil
	}
	if e.count == nil {
		return 0, nil
	}
	return e.count.n, e.stageError()
}

// UsedIndex names the winning plan's index ("" for a collection scan).
func (e *Executor) UsedIndex() string {
	if e.express != nil && e.express.ix != nil && !e.express.ix.Spec.Clustered {
		return e.express.ix.Spec.Name
	}
	if e.winner == nil || e.winner.ix == nil {
		return ""
	}
	return e.winner.ix.Spec.Name
}

// Collection is the collection the plan reads.
func (e *Executor) Collection() *catalog.Collection { return e.coll }

// CollectionScan reports whether the plan that ran reads the whole
// collection, as PlanSummaryStats.collectionScans counts a COLLSCAN stage
// (an express or EOF plan reads none).
func (e *Executor) CollectionScan() bool {
	if e.winner == nil {
		return false
	}
	_, ok := e.winner.scan.(*collScan)
	return ok
}

// IndexesRead names the indexes the plan reads from (none for a
// collection scan): an open cursor whose plan reads an index that is then
// dropped fails its next getMore, as mongod's index scans do when they
// restore after a yield. Before a plan has won, every candidate's count.
func (e *Executor) IndexesRead() []string {
	var names []string
	add := func(ix *index.Index) {
		if !slices.Contains(names, ix.Spec.Name) {
			names = append(names, ix.Spec.Name)
		}
	}
	if e.express != nil && e.express.ix != nil && !e.express.ix.Spec.Clustered {
		add(e.express.ix)
	}
	cands := e.candidates
	if e.winner != nil {
		cands = []*candidate{e.winner}
	}
	for _, c := range cands {
		for _, s := range c.ixscans {
			add(s.ix)
		}
	}
	return names
}

// KeysExamined and DocsExamined are the winning plan's totals so far.
func (e *Executor) KeysExamined() int64 {
	if e.express != nil {
		return e.express.keys
	}
	if e.winner == nil {
		return 0
	}
	return e.winner.keysExamined()
}

// DocsExamined counts documents fetched or scanned by the winning plan.
func (e *Executor) DocsExamined() int64 {
	if e.express != nil {
		return e.express.docs
	}
	if e.winner == nil {
		return 0
	}
	return e.winner.docsExamined()
}

// docsExamined is the documents the candidate's plan read: its collection
// scan's, or its FETCH stages'.
func (c *candidate) docsExamined() int64 {
	if cs, ok := c.scan.(*collScan); ok {
		return cs.docs
	}
	var n int64
	if c.fetch != nil {
		n = c.fetch.docs
	}
	// An OR's branches may fetch below the FETCH above it.
	for _, f := range c.branchFetches {
		n += f.docs
	}
	return n
}

// QueryPlanner renders explain's queryPlanner section for a find-like
// command, in mongod 8.0's field order.
func (e *Executor) QueryPlanner() bson.D {
	if e.q.RandomSample > 0 {
		// A random cursor's plan has no canonical query, so explain
		// shows neither a parsed query nor its hashes
		// (generatePlannerInfo, explain.cpp).
		return append(bson.D{{Key: "namespace", Value: e.ns}, {Key: "indexFilterSet", Value: false}}, e.plannerTail()...)
	}
	parsed := e.parsedFilter()
	hash := e.queryHash(parsed)
	qp := bson.D{
		{Key: "namespace", Value: e.ns},
		{Key: "parsedQuery", Value: parsed},
		{Key: "indexFilterSet", Value: e.filterSet || e.coll != nil && e.q.Cache != nil && e.q.Cache.hasFilters() && e.q.Cache.allowed(hash) != nil},
	}
	if e.coll != nil {
		qp = append(qp,
			bson.E{Key: "queryHash", Value: hash},
			bson.E{Key: "planCacheShapeHash", Value: hash},
			bson.E{Key: "planCacheKey", Value: e.planCacheKey(hash)},
		)
	}
	return append(qp, e.plannerTail()...)
}

// plannerTail is the end of explain's queryPlanner section: the
// enumerator's limits, the winning plan and the rejected ones.
func (e *Executor) plannerTail() bson.D {
	rejected := bson.A{}
	for _, c := range e.candidates {
		if c != e.winner {
			rejected = append(rejected, withCached(c.root.describe(false)))
		}
	}
	return bson.D{
		{Key: "optimizationTimeMillis", Value: int32(0)},
		{Key: "maxIndexedOrSolutionsReached", Value: anyHitOrLimit(e.candidates)},
		{Key: "maxIndexedAndSolutionsReached", Value: false},
		{Key: "maxScansToExplodeReached", Value: anyHitScanLimit(e.candidates)},
		{Key: "prunedSimilarIndexes", Value: false},
		{Key: "winningPlan", Value: withCached(e.root.describe(false))},
		{Key: "rejectedPlans", Value: rejected},
	}
}

// queryHash is the query's shape hash (explain's queryHash and
// planCacheShapeHash) given its parsed filter.
func (e *Executor) queryHash(parsed bson.D) string {
	return shapeHash(e.ns, parsed, e.q.Sort, e.q.shapeProjection())
}

// planCacheKey is the plan cache key of a query whose shape hashes to hash,
// over the executor's collection.
func (e *Executor) planCacheKey(hash string) string {
	return planCacheKey(hash, e.coll, e.q)
}

func (e *Executor) parsedFilter() bson.D {
	if e.q.Filter != nil {
		return e.q.Filter.Serialize()
	}
	return bson.D{}
}

func withCached(d bson.D) bson.D {
	return append(bson.D{{Key: "isCached", Value: false}}, d...)
}

// ExecutionStats renders explain's executionStats section; call it after
// draining the executor. allPlans adds allPlansExecution.
func (e *Executor) ExecutionStats(allPlans bool) bson.D {
	elapsed := e.elapsed
	if !e.eof && !e.started.IsZero() {
		// A consumer that stopped early (a downstream $limit) never
		// drove the plan to its end.
		elapsed = time.Since(e.started)
	}
	millis := elapsed.Milliseconds() + e.trialTime.Milliseconds()
	setMillis(e.root, millis)
	n := e.root.common().advanced
	if e.count != nil || e.fastCount != nil {
		n = 0
	}
	failed := e.failed
	if failed == nil {
		failed = e.stageError()
	}
	d := bson.D{{Key: "executionSuccess", Value: failed == nil}}
	if failed != nil {
		// Explain::explainStages (explain.cpp) catches an execution error
		// and reports it here; the explain as a whole succeeds.
		me := mongoerr.As(failed)
		d = append(d, bson.E{Key: "errorMessage", Value: me.Msg}, bson.E{Key: "errorCode", Value: me.Code})
	}
	d = append(d, bson.D{
		{Key: "nReturned", Value: n},
		{Key: "executionTimeMillis", Value: millis},
		{Key: "totalKeysExamined", Value: e.KeysExamined()},
		{Key: "totalDocsExamined", Value: e.DocsExamined()},
		{Key: "executionStages", Value: withCached(e.root.describe(true))},
	}...)
	if allPlans {
		all := bson.A{}
		if len(e.candidates) > 1 {
			for _, c := range e.candidates {
				all = append(all, c.trialStats())
			}
		}
		d = append(d, bson.E{Key: "allPlansExecution", Value: all})
	}
	return d
}

func (c *candidate) trialStats() bson.D {
	docs := c.docsExamined()
	keys := c.keysExamined()
	return bson.D{
		{Key: "nReturned", Value: max(c.trialReturned, int64(len(c.results)))},
		{Key: "executionTimeMillisEstimate", Value: int64(0)},
		{Key: "totalKeysExamined", Value: keys},
		{Key: "totalDocsExamined", Value: docs},
		{Key: "score", Value: c.score},
		{Key: "executionStages", Value: c.trialEx},
	}
}

func (c *candidate) keysExamined() int64 {
	var n int64
	for _, ix := range c.ixscans {
		n += ix.keys
	}
	return n
}

func setMillis(s stage, ms int64) {
	switch x := s.(type) {
	case *collScan:
		x.millis = ms
	case *ixScan:
		x.millis = ms
	case *fetch:
		x.millis = ms
		setMillis(x.child, ms)
	case *sortStage:
		x.millis = ms
		setMillis(x.child, ms)
	case *skipStage:
		x.millis = ms
		setMillis(x.child, ms)
	case *sortKeyGenerator:
		x.millis = ms
		setMillis(x.child, ms)
	case *limitStage:
		x.millis = ms
		setMillis(x.child, ms)
	case *projectionStage:
		x.millis = ms
		setMillis(x.child, ms)
	case *countStage:
		x.millis = ms
		setMillis(x.child, ms)
	case *countScan:
		x.millis = ms
	case *expressStage:
		x.millis = ms
	case *multiIteratorStage:
		x.millis = ms
	case *distinctScan:
		x.millis = ms
	case *subplanStage:
		x.millis = ms
		setMillis(x.child, ms)
	case *orStage:
		x.millis = ms
		for _, c := range x.children {
			setMillis(c, ms)
		}
	case *mergeSortStage:
		x.millis = ms
		for _, c := range x.children {
			setMillis(c, ms)
		}
	}
}

// shapeHash is a stable 8-hex-digit hash of the query's shape (paths and
// operators, not values), standing in for mongod's queryHash.
func shapeHash(ns string, filter, sort, projection bson.D) string {
	h := fnv.New32a()
	h.Write([]byte(ns))
	writeShape(h, filter)
	h.Write([]byte(index.FormatDoc(sort)))
	for _, e := range projection {
		// An inclusion or exclusion is its shape ({a: 1} is {a: true});
		// anything else, by its structure.
		h.Write([]byte(e.Key))
		switch {
		case value.IsNumber(e.Value):
			h.Write([]byte{'n', boolByte(value.ToDouble(e.Value) != 0)})
		case isBool(e.Value):
			h.Write([]byte{'n', boolByte(e.Value.(bool))})
		default:
			writeShape(h, e.Value)
		}
	}
	return hex8(h.Sum32())
}

func isBool(v any) bool { _, ok := v.(bool); return ok }

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func writeShape(h interface{ Write([]byte) (int, error) }, v any) {
	switch x := v.(type) {
	case bson.D:
		for _, e := range x {
			h.Write([]byte(e.Key))
			switch e.Key {
			case "$options":
				if o, ok := e.Value.(string); ok {
					// A regex's flags are part of its shape
					// (canonical_query_encoder encodes them).
					h.Write([]byte(regexShapeFlags(o)))
					continue
				}
			case "$eq", "$lt", "$lte", "$gt", "$gte":
				// encodeKeyForMatch writes a comparison's type and
				// path, not its operand, whatever its type ({a: 1},
				// {a: {x: 1}} and {a: [1, 2]} share a shape), but for
				// isGTMinKey and isLTMaxKey.
				h.Write([]byte{'?'})
				switch e.Value.(type) {
				case bson.MinKey:
					if e.Key == "$gt" {
						h.Write([]byte("min"))
					}
				case bson.MaxKey:
					if e.Key == "$lt" {
						h.Write([]byte("max"))
					}
				}
				continue
			case "$type", "$bitsAllSet", "$bitsAllClear", "$bitsAnySet", "$bitsAnyClear":
				// TYPE_OPERATOR and BITS_* encode no operand either:
				// {$type: "string"} and {$type: ["string", "number"]}
				// share a shape.
				h.Write([]byte{'?'})
				continue
			case "$in":
				if arr, ok := e.Value.(bson.A); ok {
					writeInShape(h, arr)
					continue
				}
			case "$not":
				// isQueryNegatingEqualToNull: a negated equality,
				// $gte or $lte to null gets a shape of its own.
				if d, ok := e.Value.(bson.D); ok && len(d) == 1 && d[0].Value == nil &&
					(d[0].Key == "$eq" || d[0].Key == "$gte" || d[0].Key == "$lte") {
					h.Write([]byte("not_eq_null"))
				}
			}
			writeShape(h, e.Value)
		}
	case bson.Regex:
		h.Write([]byte{'/'})
		h.Write([]byte(x.Options))
	case bson.A:
		for _, e := range x {
			writeShape(h, e)
		}
	default:
		h.Write([]byte{'?'})
	}
}

// writeInShape is encodeKeyForMatch's MATCH_IN: the values are no part of
// the shape, however many (an $in of two and one of three share a plan
// cache entry, jstests/core/query/plan_cache/in_expression_plan_cache.js);
// only whether it holds regular expressions ("_re") and their flags.
func writeInShape(h interface{ Write([]byte) (int, error) }, arr bson.A) {
	var opts strings.Builder
	re := false
	for _, v := range arr {
		if r, ok := v.(bson.Regex); ok {
			re = true
			opts.WriteString(r.Options)
		}
	}
	if re {
		h.Write([]byte("_re"))
		h.Write([]byte(regexShapeFlags(opts.String())))
	}
}

// regexShapeFlags is encodeRegexFlagsForMatch: the valid flags
// (RegexMatchExpression::kValidRegexFlags, i m s x) each once, in order,
// so that /a/im and /a/mi have one shape.
func regexShapeFlags(opts string) string {
	var b strings.Builder
	for _, f := range "imsx" {
		if strings.ContainsRune(opts, f) {
			b.WriteRune(f)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "/" + b.String() + "/"
}

// planCacheKey is the shape's hash with the collection's indexes and
// mongod's indexability discriminators (PlanCacheIndexabilityState): for
// each predicate on a path a sparse, wildcard or partial index holds,
// whether that index can answer it (not a null equality for a sparse or
// wildcard index, within the partial filter for a partial one), so that
// {a: 1, b: null} and {a: 1, b: 1} share a shape but not a cache entry;
// and whether the command is under apiStrict, which sees fewer indexes
// (canonical_query_encoder encodes it).
func planCacheKey(hash string, coll *catalog.Collection, q Query) string {
	f := q.Filter
	h := fnv.New32a()
	h.Write([]byte(hash))
	h.Write([]byte{boolByte(q.apiStrict())})
	for _, ix := range coll.Indexes() {
		h.Write([]byte(ix.Spec.Name))
	}
	for _, n := range conjuncts(f) {
		p := nodePath(n)
		if p == "" {
			continue
		}
		b, bounded := predicateBounds(n, false)
		for _, ix := range coll.Indexes() {
			wc := ix.Wildcard()
			sparse := ix.Spec.Sparse || wc != nil
			if q.hides(ix) || !sparse && ix.Spec.Partial == nil {
				continue
			}
			if wc != nil && !wc.Indexes(p) || wc == nil && !slices.ContainsFunc(ix.Spec.Key, func(e bson.E) bool { return e.Key == p }) {
				continue
			}
			ok := !(sparse && bounded && containsNull(b))
			if ok && ix.Spec.Partial != nil {
				ok = impliesPartial(andOf([]query.Node{n}), ix.Spec.Partial)
			}
			h.Write([]byte{'<', boolByte(ok), '>'})
		}
	}
	return hex8(h.Sum32())
}

func hex8(v uint32) string {
	const digits = "0123456789ABCDEF"
	b := make([]byte, 8)
	for i := 7; i >= 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b)
}

// --- COUNT ---

type countStage struct {
	st    stats
	child stage
	n     int64
	// skip and limit are the count command's, which CountStage applies:
	// the first skip results are dropped (nSkipped), and the count ends
	// at limit (0: none).
	skip, limit, skipped int64
	millis               int64
}

func (s *countStage) common() *stats { return &s.st }

// work counts child results without returning them, as mongod's COUNT
// stage does (it advances nothing); like CountStage::doWork it answers
// EOF without working a child that has ended.
func (s *countStage) work() (state, member) {
	if s.child.common().eof || s.limit > 0 && s.n >= s.limit {
		return s.st.record(isEOF), member{}
	}
	st, _ := s.child.work()
	switch st {
	case advanced:
		if s.skipped < s.skip {
			s.skipped++
		} else {
			s.n++
		}
		return s.st.record(needTime), member{}
	case needTime:
		return s.st.record(needTime), member{}
	}
	return s.st.record(isEOF), member{}
}

func (s *countStage) describe(exec bool) bson.D {
	d := bson.D{{Key: "stage", Value: "COUNT"}}
	if exec {
		d = append(d, commonFields(&s.st, s.millis)...)
		d = append(d, bson.E{Key: "nCounted", Value: s.n}, bson.E{Key: "nSkipped", Value: s.skipped})
	}
	return append(d, bson.E{Key: "inputStage", Value: s.child.describe(exec)})
}
