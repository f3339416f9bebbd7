// Package planner chooses and runs query plans over a catalog collection
// the way mongod's classic engine does: index bounds from the filter's
// predicates, one candidate plan per usable index, a trial race between
// candidates (skipped when only one applies), and stage-by-stage
// execution statistics for explain.
package planner

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Query is what find, count, distinct, update, delete, findAndModify and a
// pipeline's leading $match/$sort ask of the planner.
type Query struct {
	Filter     *query.Filter // nil matches everything
	Sort       bson.D        // nil for natural order; {$natural: ±1} allowed
	Projection *Projector    // nil returns whole documents
	Skip       int64
	Limit      int64 // 0 = no limit
	// Hint is nil, an index name (string) or a key pattern (bson.D),
	// {$natural: 1} / {$natural: -1} forcing a collection scan.
	Hint any
	// Count plans a count: results are not returned, COUNT tops the plan.
	Count bool
	// NoContent plans for a consumer that reads nothing of the documents
	// (mongod's IS_COUNT for a pipeline with no dependencies,
	// pipeline_d.cpp): a plan whose keys decide the filter needs no
	// FETCH, a single interval becomes a COUNT_SCAN, and the documents
	// returned are empty.
	NoContent bool
	// NoExpress plans without the express path, as getExecutorUpdate and
	// getExecutorDelete do for a findAndModify with a projection.
	NoExpress bool
	// NoTableScan is QueryPlannerParams::NO_TABLE_SCAN, which filemd5
	// plans with: an index plan or none, and no collection scan.
	NoTableScan bool
	// RandomSample, when positive, plans a random cursor returning that
	// many of the collection's documents for a leading $sample (see
	// RandomCursorSample); the query has no filter.
	RandomSample int64
	// DistinctKey is the distinct command's key, or the group key of a
	// $group run over a DISTINCT_SCAN (see PlanDistinct): with an index
	// on it that qualifies, the plan is a DISTINCT_SCAN.
	DistinctKey string
	// StrictDistinct is mongod's STRICT_DISTINCT_ONLY, which the $group
	// rewrite asks for: each key value once, so no index multikey on the
	// key and every field before it pinned to one value.
	StrictDistinct bool
	// FlipDistinct runs the DISTINCT_SCAN backwards, for a $group taking
	// the last document of each group ($last, $bottom); then no multikey
	// index qualifies at all.
	FlipDistinct bool
	// NoDiskUse is the command's allowDiskUse: false.
	NoDiskUse bool
	// Min and Max are find's index bounds (empty when not given); see
	// CheckMinMax.
	Min, Max bson.D
	// Ctx interrupts the plan (its trial and its execution) once done,
	// with mongod's error for why (see mongoerr.FromContext); nil never
	// interrupts. Executor.SetContext replaces it, for a cursor whose
	// later batches belong to later commands.
	Ctx context.Context
	// IndexKey asks index scans to record each document's key, for a
	// pipeline stage reading {$meta: "indexKey"} (see Result.Keys).
	IndexKey bool
	// SortKey asks the plan to keep each document's sort key, for a
	// pipeline stage reading {$meta: "sortKey"} (see Result.Keys).
	SortKey bool
	// BatchSize: the find names a batchSize, which rules out the express
	// path (isExpressEligible).
	BatchSize bool
	// ShowRecordID is find's showRecordId, which rules out the _id
	// lookup (isIdHackEligibleQuery, get_executor.cpp).
	ShowRecordID bool
	// Tailable is find's tailable, which rules out subplanning
	// (SubplanStage::canUseSubplanning).
	Tailable bool
	// PreserveRecordID is QueryPlannerParams::PRESERVE_RECORD_ID, which
	// getExecutorUpdate and getExecutorDelete plan with: the write needs
	// the record of each result.
	PreserveRecordID bool
	// Cache is the collection's plan cache and index filters (nil: none).
	Cache *Cache
	// Shape is the query as its command spelled it, when it has one (find,
	// count): the plan cache reports it and index filters match it.
	Shape *Shape
	// Explain plans for explain, which honours index filters but neither
	// reads nor writes the plan cache (PlanCache::shouldCacheQuery).
	Explain bool
	// TraversalPreference, for the buckets of a time-series collection
	// whose pipeline sorts on its time field, reverses the scans that give
	// the order it names (nil: none).
	TraversalPreference *TraversalPreference
}

// wantsIndexKey: something downstream reads {$meta: "indexKey"}.
func (q *Query) wantsIndexKey() bool {
	return q.IndexKey || q.Projection != nil && q.Projection.IndexKey
}

// wantsSortKey: something downstream reads {$meta: "sortKey"}.
func (q *Query) wantsSortKey() bool {
	return q.SortKey || q.Projection != nil && q.Projection.SortKey
}

// Projector is a compiled projection as the planner runs it: the command
// layer builds it from package projection (Stage "PROJECTION_SIMPLE" when
// Simple(), else "PROJECTION_DEFAULT"; Spec from Serialize()), or as
// find's returnKey (Stage "RETURN_KEY", no Spec).
type Projector struct {
	Stage string
	Spec  bson.D
	// Apply projects one document; ctx gives the running command's
	// context, for expressions to stop when it is done.
	// indexKey is the document's index key metadata, nil unless IndexKey;
	// rid is the record it came from; sortKey its sort key, nil unless
	// SortKey.
	Apply func(ctx func() context.Context, doc bson.D, positionalIndex int, indexKey bson.D, rid int64, sortKey bson.A) (bson.D, error)
	// IndexKey: the projection reads {$meta: "indexKey"}, so index scans
	// record the key of each document they produce.
	IndexKey bool
	// SortKey: the projection reads {$meta: "sortKey"}, so the plan keeps
	// each document's sort key: its SORT does, or a SORT_KEY_GENERATOR
	// computes it when an index provides the order.
	SortKey bool
	// RecordID: the projection reads {$meta: "recordId"}.
	RecordID bool
	// Required are the fields the projection reads and Coverable says it
	// reads nothing else (projection.RequiredFields): an index holding
	// them all answers it from its keys, with no FETCH.
	Required  []string
	Coverable bool
}

// Result is one document produced by a plan. RID identifies the stored
// record, for updates and deletes; Pos is the array position that matched
// the filter (for the positional $), -1 when none.
type Result struct {
	RID int64
	Doc bson.D
	Pos int
	// Keys is the document's index key and sort key, when the query asked
	// for them (Query.IndexKey, Query.SortKey, the projection's) and the
	// plan produced them; nil otherwise.
	Keys *Keys
}

// candidate is one way to answer the query.
type candidate struct {
	ix     *index.Index // nil for a collection scan
	bounds []oil        // ascending value intervals per key field
	dir    int          // index scan direction
	sorted bool         // the scan yields documents in the sort order
	root   stage
	count  *countStage
	scan   stage // COLLSCAN or IXSCAN leaf
	fetch  *fetch
	// fetchDecidesNothing: the index scan alone decides the filter, so
	// FETCH passes every document it reads.
	fetchDecidesNothing bool
	// used are the predicates the bounds were built from, each with how
	// much of it they answer.
	used []usedPredicate
	// covered: the plan answers the projection from index keys.
	covered bool
	// span, for a min/max query, replaces bounds as the scan's limits
	// (bounds are then whole, for the code that reads them).
	span *keySpan
	// wildcardSubpaths: a wildcard view scans a path's subpaths too, so
	// one document may have several keys in the bounds (shouldDedup).
	wildcardSubpaths bool
	// branches are the per-branch index plans of a rooted $or; merged,
	// that their scans are merged in the sort order (SORT_MERGE).
	branches []*candidate
	merged   bool
	// branchFetches are the FETCH stages of a merged plan, one a branch.
	branchFetches []*fetch
	// cluster bounds the collection scan of a clustered collection
	// (CLUSTERED_IXSCAN); nil scans all of it.
	cluster *clusterRange
	// orBranch is the $or branch a per-branch plan answers.
	orBranch query.Node
	// contained: the branches answer an $or below the top-level $and
	// (contained_or.go), not a rooted one: no SUBPLAN, and outer are the
	// $and's predicates left for the FETCH above them.
	contained bool
	outer     []query.Node
	// hitOrLimit: the enumerator stopped at maxOrSolutions combinations of
	// a contained $or's branch plans (maxIndexedOrSolutionsReached).
	hitOrLimit bool
	// wholeOr: the plan of a rooted $or planned whole, which still runs
	// under SUBPLAN (SubplanStage::choosePlanWholeQuery).
	wholeOr bool
	ixscans []*ixScan
	// trial results, returned first if this candidate wins
	results []member
	// trialReturned is how many results the trial produced, which
	// allPlansExecution reports after the winner's have been handed on.
	trialReturned int64
	trialEx       bson.D
	// failed: the candidate ran out of memory during the trial.
	failed bool
	// rank is score plus the tie-breaking bonuses (breakTies): the winner
	// has the best, and the plan cache entry reports them.
	rank float64
	// hitScanLimit: exploding the scan for the sort would have made more
	// than maxScansToExplode scans (explain's maxScansToExplodeReached).
	hitScanLimit bool
	score        float64
}

type usedPredicate struct {
	node  query.Node
	field int
	tight tightness
}

// conjuncts splits a filter into its top-level AND members.
func conjuncts(f *query.Filter) []query.Node {
	if f == nil {
		return nil
	}
	if a, ok := f.Root.(*query.And); ok {
		return a.Children
	}
	return []query.Node{f.Root}
}

// matchRank follows mongod's MatchExpression::MatchType order.
func matchRank(n query.Node) int {
	switch x := n.(type) {
	case *query.All:
		return 0
	case *query.ElemMatchValue:
		return 3
	case *query.Compare:
		return map[string]int{"$eq": 5, "$lte": 6, "$lt": 7, "$gt": 8, "$gte": 9}[x.Op]
	case *query.Regex:
		return 10
	case *query.In:
		return 13
	case *query.InternalExpr:
		return 29
	case *query.InternalEqHash:
		return 34
	case *query.Not:
		return 18
	}
	return 20
}

func nodePath(n query.Node) string {
	switch x := n.(type) {
	case *query.Compare:
		if x.Op == "$ne" {
			return ""
		}
		return x.Path
	case *query.In:
		return x.Path
	case *query.Regex:
		return x.Path
	case *query.ElemMatchValue:
		return x.Path
	case *query.All:
		return x.Path
	case *query.Mod:
		return x.Path
	case *query.Exists:
		return x.Path
	case *query.Type:
		return x.Path
	case *query.InternalExpr:
		return x.Path
	case *query.InternalEqHash:
		return x.Path
	case *query.Not:
		return x.Path
	}
	return ""
}

// Plan chooses a plan for q over coll (nil when the collection does not
// exist: the plan is EOF). ns is "db.coll" for explain and errors.
func Plan(coll *catalog.Collection, ns string, q Query) (*Executor, error) {
	e := &Executor{coll: coll, ns: ns, q: q}
	e.SetContext(q.Ctx)
	if coll == nil {
		e.root = &eofStage{}
		if q.Count {
			e.count = &countStage{child: e.root, skip: q.Skip, limit: q.Limit}
			e.root = e.count
		}
		return e, nil
	}
	if q.RandomSample > 0 {
		e.root = &multiIteratorStage{coll: coll, size: q.RandomSample}
		return e, nil
	}
	if len(q.Min) > 0 || len(q.Max) > 0 {
		c, err := minMaxCandidate(coll, q)
		if err != nil {
			return nil, err
		}
		build(coll, q, c, e.context)
		e.candidates, e.winner, e.root, e.count = []*candidate{c}, c, c.root, c.count
		return e, nil
	}
	if ix, key, ok := expressEligible(coll, q); ok && !q.NoExpress && !q.filteredOut(coll, ns, ix) {
		switch {
		case !expressRefuses(q):
			es := &expressStage{ix: ix, coll: coll, key: key, filter: q.Filter, proj: q.Projection, ctx: e.context}
			e.express, e.root = es, es
			return e, nil
		case ix.Spec.IsID() && !ix.Spec.Clustered && simpleIDQuery(q):
			e.express, e.root = idHackPlan(ix, coll, key, q, e.context)
			return e, nil
		}
	}
	if q.Count && (q.Filter == nil || q.Filter.IsEmpty()) && q.Hint == nil {
		e.root = newFastCount(int64(coll.Count()), q.Skip, q.Limit)
		e.fastCount = e.root.(*fastCountStage)
		return e, nil
	}
	if c := distinctPlan(coll, q, e.context); c != nil {
		e.candidates, e.winner, e.root = []*candidate{c}, c, c.root
		return e, nil
	}
	var filter *indexFilter
	var hash string
	if q.Cache != nil && q.Cache.hasFilters() {
		hash = ShapeHash(ns, q.Filter, q.Sort, q.shapeProjection())
		filter = q.Cache.allowed(hash)
	}
	var cands []*candidate
	var err error
	if filter != nil {
		// QueryPlanner::plan: index filters override a hint, and the
		// planner sees only the indexes they allow.
		e.filterSet = true
		fq := q
		fq.Hint = nil
		cands, err = enumerateFiltered(coll, fq, filter.admits)
	} else if q.NoTableScan {
		cands, err = enumerateOver(coll, q, nil, false)
		if err == nil && len(cands) == 0 {
			err = plannerError(coll, q, mongoerr.NoQueryExecutionPlans, "No indexed plans available, and running with 'notablescan'")
		}
	} else {
		cands, err = enumerate(coll, q)
	}
	if err != nil {
		return nil, err
	}
	if q.TraversalPreference != nil {
		applyTraversalPreference(cands, q.TraversalPreference)
	}
	if len(cands) == 1 && cands[0].branches == nil && q.subplanned() {
		// SubplanStage::pickBestPlan: a rooted $or with a branch no index
		// answers is planned whole (choosePlanWholeQuery); its one plan
		// runs under the SUBPLAN stage, where several would be multi-planned
		// and explain would show the winner alone.
		cands[0].wholeOr = true
	}
	for _, c := range cands {
		build(coll, q, c, e.context)
	}
	e.candidates = cands
	cache := len(cands) > 1 && q.cacheable()
	var key string
	if cache {
		// The shape is hashed only now: a query with one candidate plan,
		// the common case, pays nothing for the cache.
		if hash == "" {
			hash = ShapeHash(ns, q.Filter, q.Sort, q.shapeProjection())
		}
		key = planCacheKey(hash, coll, q)
		e.winner = q.Cache.cached(coll, key, cands)
	}
	switch {
	case e.winner != nil:
		// An active entry's plan runs without a trial; mongod's
		// CachedPlanStage would replan one that took more than ten times
		// the entry's works, which the sandbox does not do.
	case len(cands) == 1:
		e.winner = cands[0]
	default:
		if err := e.runTrial(); err != nil {
			return nil, err
		}
		if cache {
			q.Cache.record(coll, e, hash, key, filter != nil)
		}
	}
	e.root = e.winner.root
	e.count = e.winner.count
	e.buffered = e.winner.results
	e.winner.trialReturned, e.winner.results = int64(len(e.winner.results)), nil
	return e, nil
}

// CheckNatural is what every query checks of $natural in its sort and
// hint as its canonical query is built (parsed_find_command.cpp):
// validateFindCommandRequest's hasInvalidNaturalParam (a document holding
// $natural must be exactly {$natural: 1} or {$natural: -1}, any numeric
// type, so $natural beside another field is refused too), then
// validateAndGetAvailableMetadata's agreement of a $natural sort with the
// hint.
func CheckNatural(sort bson.D, hint any) error {
	if invalidNatural(sort) {
		return mongoerr.New(mongoerr.BadValue, "$natural sort cannot be set to a value other than -1 or 1.")
	}
	hintDoc, _ := hint.(bson.D)
	if invalidNatural(hintDoc) {
		return mongoerr.New(mongoerr.BadValue, "$natural hint cannot be set to a value other than -1 or 1.")
	}
	sortDir, sortNatural := naturalDirection(sort)
	if !sortNatural || hint == nil {
		return nil
	}
	hintDir, hintNatural := naturalDirection(hintDoc)
	if !hintNatural {
		return mongoerr.New(mongoerr.BadValue, "index hint not allowed with $natural sort order")
	}
	if hintDir != sortDir {
		return mongoerr.New(mongoerr.BadValue, "$natural hint must be in the same direction as $natural sort order")
	}
	return nil
}

func invalidNatural(d bson.D) bool {
	v := value.Get(d, "$natural")
	if value.IsMissing(v) {
		return false
	}
	if !value.IsNumber(v) || len(d) != 1 {
		return true
	}
	n := value.ToDouble(v)
	return n != 1 && n != -1
}

func naturalDirection(d bson.D) (int, bool) {
	if len(d) == 1 && d[0].Key == "$natural" {
		if value.IsNumber(d[0].Value) && value.ToDouble(d[0].Value) < 0 {
			return -1, true
		}
		return 1, true
	}
	return 0, false
}

// enumerate lists the candidate plans, as QueryPlanner::plan does:
// indexed plans for every index whose leading field has a predicate (or
// that provides the sort), and a collection scan only when no index
// applies or one is hinted.
func enumerate(coll *catalog.Collection, q Query) ([]*candidate, error) {
	return enumerateOver(coll, q, nil, true)
}

// enumerateFiltered is enumerate over the indexes an index filter allows
// (QuerySettings' allowed indexes): the collection scan stays the
// fallback.
func enumerateFiltered(coll *catalog.Collection, q Query, allowed func(*index.Index) bool) ([]*candidate, error) {
	return enumerateOver(coll, q, allowed, true)
}

// enumerateOver is enumerate over the indexes allowed admits (nil: all);
// without tableScan it is NO_TABLE_SCAN (a distinct plan is an index plan
// or none): no collection scan and no $or of index scans.
func enumerateOver(coll *catalog.Collection, q Query, allowed func(*index.Index) bool, tableScan bool) ([]*candidate, error) {
	admits := func(ix *index.Index) bool { return !q.hides(ix) && (allowed == nil || allowed(ix)) }
	preds := predicatesByPath(conjuncts(q.Filter))
	sortSpec := q.Sort
	natural := 0
	if d, ok := naturalDirection(sortSpec); ok {
		natural, sortSpec = d, nil
	}
	hinted, hintDir, err := resolveHint(coll, q)
	switch {
	case err != nil:
		return nil, err
	case hinted != nil && hinted.Wildcard() != nil:
		// A wildcard index has no whole-index scan to fall back on: hinted,
		// it answers through the views of the queried paths or not at all.
		if cands := wildcardCandidates(hinted, preds, conjuncts(q.Filter), sortSpec, true); len(cands) > 0 {
			return cands, nil
		}
		if c := orCandidateOver(coll, q, func(ix *index.Index) bool { return ix == hinted }); c != nil {
			return []*candidate{c}, nil
		}
		return nil, plannerError(coll, q, mongoerr.NoQueryExecutionPlans, "No query solutions")
	case hinted != nil && hinted.Spec.Clustered:
		// handleClusteredScanHint: the cluster key hinted is the
		// collection scanned forward.
		return []*candidate{collScanCandidate(coll, q, 1, sortSpec)}, nil
	case hinted != nil:
		// The enumerator plans over the hinted index alone. A hint rules
		// subplanning out (canUseSubplanning), so a rooted $or whose every
		// branch the index answers is planned whole, its OR built as the
		// subplanner's is, with no SUBPLAN above it
		// (query_planner_tree_test.cpp OrCollapsesToSingleScan3).
		hintedOnly := func(ix *index.Index) bool { return ix == hinted }
		if c := orCandidateOver(coll, q, hintedOnly); c != nil {
			return []*candidate{c}, nil
		}
		// A contained $or it answers in every branch is a plan beside the
		// index's own for the $and, and the whole index is scanned only
		// when neither exists (buildWholeIXSoln).
		cands := containedOrCandidates(coll, q, hintedOnly)
		if len(cands) == 0 {
			return []*candidate{indexCandidate(hinted, relevantPreds(hinted, preds), sortSpec, true)}, nil
		}
		if c := indexCandidate(hinted, preds, sortSpec, false); c != nil {
			cands = append(cands, c)
		}
		return cands, nil
	case hintDir != 0:
		return []*candidate{collScanCandidate(coll, q, hintDir, sortSpec)}, nil
	}
	if natural != 0 {
		return []*candidate{collScanCandidate(coll, q, natural, nil)}, nil
	}
	if tableScan {
		// A rooted $or whose every branch has an index is subplanned:
		// its plan is the branches' (SubplanStage), whatever else could
		// answer the whole query.
		if c := orCandidateOver(coll, q, admits); c != nil {
			return []*candidate{c}, nil
		}
	}
	var out []*candidate
	if tableScan {
		// The $and's choices that index a contained $or come before
		// those that index its own predicates (enumerateOneIndex).
		out = containedOrCandidates(coll, q, admits)
	}
	for _, ix := range coll.Indexes() {
		if ix.Wildcard() != nil {
			// allowed judges the per-path views: a distinct may scan the
			// view of its key (turnIxscanIntoDistinctIxscan).
			if q.hides(ix) {
				continue
			}
			if tableScan && allowed != nil && !allowed(ix) {
				// An index filter names the wildcard index itself.
				continue
			}
			for _, c := range wildcardCandidates(ix, preds, conjuncts(q.Filter), sortSpec, false) {
				if usable(c.ix, c, q) && (tableScan || allowed == nil || allowed(c.ix)) {
					out = append(out, c)
				}
			}
			continue
		}
		if !admits(ix) {
			continue
		}
		if c := indexCandidate(ix, preds, sortSpec, false); c != nil && usable(ix, c, q) {
			out = append(out, c)
		}
	}
	// QueryPlanner::plan: when no plan gives the sort without a blocking
	// SORT, every index that provides it is a candidate too, scanned whole
	// when the query is not relevant to it (buildWholeIXSoln); the trial
	// may pick it over a SORT that would read (and hold) every match first.
	if len(sortSpec) > 0 && !slices.ContainsFunc(out, func(c *candidate) bool { return c.sorted }) {
		for _, ix := range coll.Indexes() {
			if !admits(ix) || ix.Spec.Sparse || ix.Spec.Partial != nil || ix.Wildcard() != nil {
				continue
			}
			if c := indexCandidate(ix, relevantPreds(ix, preds), sortSpec, true); c != nil && c.sorted {
				out = append(out, c)
			}
		}
	}
	if !tableScan {
		return out, nil
	}
	if len(out) == 0 {
		out = append(out, collScanCandidate(coll, q, 1, sortSpec))
	} else if c := collScanCandidate(coll, q, 1, sortSpec); c.cluster != nil || c.sorted {
		// A clustered collection's scan competes with the index plans
		// when it is bounded by the cluster key or gives the sort.
		out = append(out, c)
	}
	return out, nil
}

// indexedPred is an indexable leaf of the filter: a top-level
// predicate, or one inside an object $elemMatch (mongod's RelevantTag),
// where path is the full path and em the innermost $elemMatch holding it.
type indexedPred struct {
	node query.Node
	path string
	em   *query.ElemMatchObject
	// emLen is the number of components of em's path.
	emLen int
}

// predicatesByPath groups the indexable predicates of an AND by path, in
// mongod's canonical order (by match type), which decides which single
// predicate bounds a multikey field. The leaves of an object $elemMatch
// count too, as PlanEnumerator::prepSubNodes descends into it: they give
// bounds on their full path, while the $elemMatch itself stays for FETCH.
func predicatesByPath(nodes []query.Node) map[string][]indexedPred {
	preds := map[string][]indexedPred{}
	collectPreds(nodes, "", nil, preds)
	for _, ns := range preds {
		slices.SortStableFunc(ns, func(a, b indexedPred) int { return matchRank(a.node) - matchRank(b.node) })
	}
	return preds
}

func collectPreds(nodes []query.Node, prefix string, em *query.ElemMatchObject, preds map[string][]indexedPred) {
	for _, n := range nodes {
		switch x := n.(type) {
		case *query.ElemMatchObject:
			full := prefix + x.Path
			collectPreds([]query.Node{x.Filter}, full+".", x, preds)
			continue
		case *query.And:
			if em != nil {
				collectPreds(x.Children, prefix, em, preds)
			}
			continue
		}
		p := nodePath(n)
		if p == "" {
			continue
		}
		if _, ok := predicateBounds(n, false); !ok && !onlyHashedBounds(n) {
			continue
		}
		ip := indexedPred{node: n, path: prefix + p, em: em}
		if em != nil {
			ip.emLen = strings.Count(strings.TrimSuffix(prefix, "."), ".") + 1
		}
		preds[ip.path] = append(preds[ip.path], ip)
	}
}

// indexCandidate derives bounds for ix; without force it returns nil
// unless the leading field has a predicate.
//
// On a multikey index it assigns predicates as
// PlanEnumerator::assignMultikeySafePredicates does (plan_enumerator.cpp):
// two predicates whose paths share a prefix that held an array may be
// intersected or compounded only when the same $elemMatch joins them
// above that prefix; otherwise each could be satisfied by a different
// element, and the later one is left for FETCH.
// relevant reports whether the query has a predicate on ix's first field
// that the index can take.
func relevant(ix *index.Index, preds map[string][]indexedPred) bool {
	return slices.ContainsFunc(preds[ix.Spec.Fields[0].Path], func(p indexedPred) bool { return compatible(p, ix, 0) })
}

// relevantPreds is preds when the query is relevant to ix (a predicate
// on its first field, QueryPlannerIXSelect::findRelevantIndices), nil
// otherwise: such an index, hinted or scanned for its order, is scanned
// whole (buildWholeIXSoln), and no predicate on a later field bounds it.
func relevantPreds(ix *index.Index, preds map[string][]indexedPred) map[string][]indexedPred {
	if relevant(ix, preds) {
		return preds
	}
	return nil
}

func indexCandidate(ix *index.Index, preds map[string][]indexedPred, sortSpec bson.D, force bool) *candidate {
	fields := ix.Spec.Fields
	if !force && !relevant(ix, preds) {
		return nil
	}
	c := &candidate{ix: ix, dir: 1, bounds: make([]oil, len(fields))}
	multikey := ix.IsMultiKey()
	// used maps each array-holding path prefix already assigned to the
	// $elemMatch that joins predicates under it (nil: none may join).
	used := map[string]*query.ElemMatchObject{}
	for i, f := range fields {
		var b oil
		have := false
		comps := ix.MultiKeyComponents(i)
		candidates := preds[f.Path]
		if i == 0 && multikey && len(comps) > 0 {
			candidates = firstAssignment(candidates, comps)
		}
		for _, p := range candidates {
			if !compatible(p, ix, i) {
				continue
			}
			if multikey && len(comps) > 0 && !canAssign(p, comps, used) {
				continue
			}
			var nb oil
			tight := inexactFetch
			if f.Hashed {
				nb = hashedBounds(p.node)
			} else {
				// A predicate usable on some index may build no bounds on
				// this multikey one (the negation of $gt MinKey).
				var ok bool
				if nb, ok = predicateBounds(p.node, multikey); !ok {
					continue
				}
				tight = predicateTightness(p.node, ix)
			}
			c.used = append(c.used, usedPredicate{node: p.node, field: i, tight: tight})
			if !have {
				b, have = nb, true
				continue
			}
			b = intersect(b, nb)
		}
		if !have {
			b = oil{fullInterval()}
		}
		c.bounds[i] = b
	}
	if len(sortSpec) > 0 {
		c.sorted, c.dir = providesSort(ix, c.bounds, nil, sortSpec)
		if !c.sorted {
			c.dir = 1
		}
	}
	return c
}

// compatible is QueryPlannerIXSelect::_compatible's rule for the $expr
// comparisons: they do not traverse arrays, so an index field that held
// an array cannot answer them. A hash is looked up on a hashed field
// only: with {a: 1} alone $_internalEqHash scans the collection, and a
// hint of {a: 1} scans the whole index
// (jstests/core/query/internal_hash_eq/match_internal_eq_hash.js,
// expr_rewrites.js testNoHashedIndex).
func compatible(p indexedPred, ix *index.Index, field int) bool {
	if field < len(ix.Spec.Fields) && ix.Spec.Fields[field].Hashed {
		return hashedCompatible(p.node)
	}
	switch x := p.node.(type) {
	case *query.InternalEqHash:
		return false
	case *query.InternalExpr:
		return !ix.FieldIsMultiKey(field)
	case *query.Not:
		return notCompatible(p, x, ix, field)
	case *query.ElemMatchValue:
		// A sparse index answers no negation inside a value $elemMatch
		// but {$ne: null}, as outside one (jstest
		// core/index/elemmatch_index.js); the rule for arrays does not
		// apply, each element being matched alone.
		for _, c := range x.Predicates {
			if n, ok := c.(*query.Not); ok && ix.Spec.Sparse && !isNotEqualNull(n) {
				return false
			}
			// Every predicate must suit the field, and no hash does
			// (not_index_tagging.js: {$elemMatch: {$not:
			// {$_internalEqHash: ...}}} scans the collection).
			if n, ok := c.(*query.Not); ok {
				c = n.Child
			}
			if _, ok := c.(*query.InternalEqHash); ok {
				return false
			}
		}
	}
	return true
}

// notCompatible is _compatible's rules for a negation that depend on the
// index (planner_ixselect.cpp): a sparse index holds no entry for a
// document missing the field, which every other negation matches, so it
// answers {$ne: null} alone (nodeIsSupportedBySparseIndex); and a field
// that held an array cannot answer {$ne: null}, a $nin holding null, or
// the negation of $gte/$lte null, since {a: [null]} matches them with a
// null key (notEqualsNullCanUseIndex) -- unless the negation sits in an
// object $elemMatch and every array lay above that $elemMatch's path, so
// that nothing below it is traversed: {"a.b": {$elemMatch: {"c.d": {$ne:
// null}}}} may use {"a.b.c.d": 1} while only "a" or "a.b" held arrays
// (sparse_index_supports_ne_null.js).
func notCompatible(p indexedPred, x *query.Not, ix *index.Index, field int) bool {
	if ix.Spec.Sparse && !isNotEqualNull(x) {
		return false
	}
	if _, ok := notBounds(x, ix.IsMultiKey()); !ok {
		return false
	}
	return !negatesNull(x) || neNullCanUseIndex(p, ix, field)
}

// neNullCanUseIndex is notEqualsNullCanUseIndex for an object $elemMatch
// parent (a value $elemMatch is a node of its own, ElemMatchValue).
func neNullCanUseIndex(p indexedPred, ix *index.Index, field int) bool {
	comps := ix.MultiKeyComponents(field)
	if len(comps) == 0 {
		return true
	}
	return p.em != nil && comps[len(comps)-1] < p.emLen
}

// negatesNull reports the negation of a predicate whose bounds are the
// null point: $eq, $gte or $lte null, or a $in holding null.
func negatesNull(x *query.Not) bool {
	switch c := x.Child.(type) {
	case *query.Compare:
		return c.Value == nil && (c.Op == "$eq" || c.Op == "$gte" || c.Op == "$lte")
	case *query.In:
		return slices.Contains(c.Values, nil)
	}
	return false
}

// firstAssignment picks the predicates on an index's leading field when a
// prefix of it held an array (getPossibleFirstAssignments): the first in
// canonical order alone, or with it every predicate of its $elemMatch
// when no array lies below that $elemMatch's root. mongod plans each
// possible first assignment and races them; this planner takes the first.
func firstAssignment(ps []indexedPred, comps []int) []indexedPred {
	if len(ps) == 0 {
		return nil
	}
	first := ps[0]
	if first.em == nil || comps[len(comps)-1] >= first.emLen {
		return ps[:1]
	}
	var out []indexedPred
	for _, p := range ps {
		if p.em == first.em {
			out = append(out, p)
		}
	}
	return out
}

// canAssign is canAssignPredToIndex: walking the array-holding prefixes
// of p's path from the shortest, a prefix seen before admits p only under
// the same $elemMatch; a new one is recorded with p's $elemMatch when it
// lies outside that $elemMatch (so predicates joined by it may follow),
// else as closed to any other predicate.
func canAssign(p indexedPred, comps []int, used map[string]*query.ElemMatchObject) bool {
	parts := strings.Split(p.path, ".")
	for _, k := range comps {
		prefix := strings.Join(parts[:k+1], ".")
		em, seen := used[prefix]
		if !seen {
			if p.em != nil && k < p.emLen {
				used[prefix] = p.em
				continue
			}
			used[prefix] = nil
			break
		}
		if em == nil || em != p.em {
			return false
		}
	}
	return true
}

// providesSort reports whether scanning ix within bounds (or span, for
// a min/max query) yields the sort order, and in which direction. It is
// computeSortsForScan (query_solution.cpp): fields pinned to one value
// (equality fields) may be left out of the sort anywhere; a multikey field
// gives its order only when its bounds are [MinKey, MaxKey], no other
// multikey field sharing a path prefix with it is bounded, and the scan is
// not a simple range (SERVER-31898); past a multikey field that fails
// this, and past a field that is not ascending or descending (getSortPattern
// stops at "hashed"), the index provides nothing.
func providesSort(ix *index.Index, bounds []oil, span *keySpan, sortSpec bson.D) (bool, int) {
	fields := ix.Spec.Fields
	equality := make([]bool, len(fields))
	for i := range fields {
		if span != nil {
			equality[i] = i < len(span.start) && i < len(span.end) && value.Compare(span.start[i], span.end[i]) == 0
		} else {
			equality[i] = len(bounds[i]) == 1 && bounds[i].isPoints()
		}
	}
	// provided is the base sort pattern: key field positions, in order.
	var provided []int
	for i := range fields {
		if equality[i] {
			continue
		}
		if !value.IsNumber(ix.Spec.Key[i].Value) {
			break
		}
		if ix.FieldIsMultiKey(i) && !multikeyFieldSorts(ix, bounds, span, i) {
			break
		}
		provided = append(provided, i)
	}
	dir, n := 0, 0
	for _, s := range sortSpec {
		pos := slices.IndexFunc(fields, func(f index.Field) bool { return f.Path == s.Key })
		if pos >= 0 && equality[pos] && !ix.FieldIsMultiKey(pos) {
			continue
		}
		if pos >= 0 && equality[pos] && ix.FieldIsMultiKey(pos) {
			// A multikey equality field that could not give its order is
			// only ignored, not provided (ignoreFields).
			if !multikeyFieldSorts(ix, bounds, span, pos) {
				return false, 1
			}
			continue
		}
		if n >= len(provided) || pos != provided[n] || !value.IsNumber(s.Value) {
			return false, 1
		}
		d := 1
		if (value.ToDouble(s.Value) < 0) != fields[pos].Desc {
			d = -1
		}
		if dir != 0 && d != dir {
			return false, 1
		}
		dir = d
		n++
	}
	if dir == 0 {
		dir = 1
	}
	return true, dir
}

// multikeyFieldSorts is confirmBoundsProvideSortComponentGivenMultikeyness
// for the multikey key field i.
func multikeyFieldSorts(ix *index.Index, bounds []oil, span *keySpan, i int) bool {
	if span != nil || !bounds[i].isFull() {
		return false
	}
	path := ix.Spec.Fields[i].Path
	for j, f := range ix.Spec.Fields {
		if j == i || bounds[j].isFull() || !ix.FieldIsMultiKey(j) {
			continue
		}
		if strings.SplitN(f.Path, ".", 2)[0] == strings.SplitN(path, ".", 2)[0] {
			return false
		}
	}
	return true
}

// usable applies the restrictions on sparse and partial indexes: they
// hold no entry for some documents, so they may only answer queries that
// cannot match those documents.
func usable(ix *index.Index, c *candidate, q Query) bool {
	if ix.Spec.Sparse && !leadingSupportsSparse(c) {
		if containsNull(c.bounds[0]) {
			return false
		}
	}
	if hashedNullOnSparse(ix, c) {
		return false
	}
	if ix.Spec.Partial != nil {
		return impliesPartial(q.Filter, ix.Spec.Partial)
	}
	return true
}

// leadingSupportsSparse: the bounds on the first field come from a
// predicate a sparse index answers whatever its bounds: {$exists: true},
// which cannot match a missing field, or a value $elemMatch, which needs
// an element (nodeIsSupportedBySparseIndex, planner_ixselect.cpp), so
// {a: {$elemMatch: {$eq: null}}} may scan the null key.
func leadingSupportsSparse(c *candidate) bool {
	for _, u := range c.used {
		if u.field != 0 {
			continue
		}
		switch x := u.node.(type) {
		case *query.Exists:
			if x.Exists {
				return true
			}
		case *query.ElemMatchValue:
			return true
		}
	}
	return false
}

// impliesPartial checks that every predicate of the partial filter is
// implied by a query predicate on the same path whose bounds fall inside
// it.
func impliesPartial(f *query.Filter, partial bson.D) bool {
	pf, err := query.Compile(partial, query.Options{})
	if err != nil || f == nil {
		return false
	}
	qb := map[string]oil{}
	for _, n := range conjuncts(f) {
		if _, isExists := n.(*query.Exists); isExists {
			continue
		}
		if p := nodePath(n); p != "" {
			b, ok := predicateBounds(n, false)
			if !ok {
				continue
			}
			if old, seen := qb[p]; seen {
				b = intersect(old, b)
			}
			qb[p] = b
		}
	}
	for _, n := range conjuncts(pf) {
		if ex, ok := n.(*query.Exists); ok && ex.Exists {
			b, ok := qb[ex.Path]
			if !ok || containsNull(b) {
				return false
			}
			continue
		}
		p := nodePath(n)
		pb, ok := predicateBounds(n, false)
		if p == "" || !ok {
			return false
		}
		b, ok := qb[p]
		if !ok || len(intersect(b, pb)) != len(b) || !sameOIL(intersect(b, pb), b) {
			return false
		}
	}
	return true
}

// containsNull reports bounds holding the null key, where a missing field
// is stored ({$ne: null}'s [MinKey, null) and (null, MaxKey] do not).
func containsNull(o oil) bool {
	for _, iv := range o {
		lo, hi := value.Compare(iv.lo, nil), value.Compare(iv.hi, nil)
		if (lo < 0 || lo == 0 && iv.loInc) && (hi > 0 || hi == 0 && iv.hiInc) {
			return true
		}
	}
	return false
}

func sameOIL(a, b oil) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if value.Compare(a[i].lo, b[i].lo) != 0 || value.Compare(a[i].hi, b[i].hi) != 0 ||
			a[i].loInc != b[i].loInc || a[i].hiInc != b[i].hiInc {
			return false
		}
	}
	return true
}

// build assembles a candidate's stage tree in mongod's order:
// scan → FETCH → SORT → SKIP → PROJECTION → LIMIT (the limit folds into
// SORT when there is one), topped by COUNT for counts. An index scan
// filters its keys with the predicates they can decide
// (inexactCovered), FETCH with the rest, and FETCH is left out when
// nothing needs the document: a count, or a projection the keys cover.
func build(coll *catalog.Collection, q Query, c *candidate, ctx func() context.Context) {
	var s stage
	if c.contained {
		s = buildContainedOr(coll, q, c)
	} else if len(c.branches) == 1 {
		s = buildOneScan(coll, q, c)
	} else if c.merged {
		s = buildMergeSort(coll, q, c)
	} else if c.branches != nil {
		s = buildOr(coll, q, c)
	} else if c.ix == nil {
		cs := newCollScan(coll, q.Filter, c.dir < 0, c.cluster)
		c.scan, s = cs, cs
	} else {
		ixs := newIxScan(c.ix, coll, orientAll(c), c.dir)
		ixs.addKeyMeta = q.wantsIndexKey()
		ixs.dedupIf(c.wildcardSubpaths)
		if c.span != nil {
			ixs.span, ixs.single = c.span, false
		}
		c.scan = ixs
		c.ixscans = []*ixScan{ixs}
		keyFilter, rest := c.splitFilter(q.Filter, q)
		if len(keyFilter) > 0 {
			ixs.filter = andOf(keyFilter)
		}
		c.covered = len(rest) == 0 && coversProjection(q, c)
		countLike := q.Count || q.NoContent && (len(q.Sort) == 0 || c.sorted)
		var merged *mergeSortStage
		if !countLike && len(q.Sort) > 0 && !c.sorted && c.span == nil {
			merged = c.explodeForSort(coll, q, keyFilter)
		}
		var input stage = ixs
		if merged != nil {
			input = merged
		}
		switch {
		case merged == nil && countLike && len(rest) == 0 && len(keyFilter) == 0 && ixs.single:
			s = &countScan{ixScan: ixs}
		case countLike && len(rest) == 0, c.covered:
			if merged == nil {
				ixs.keyDocs = c.covered
			}
			s = input
		default:
			f := &fetch{child: input, coll: coll}
			if q.Filter != nil && !q.Filter.IsEmpty() {
				f.filter = q.Filter
				if len(rest) > 0 {
					f.shown = andOf(rest).Serialize()
				}
			}
			c.fetch, s = f, f
			c.fetchDecidesNothing = len(rest) == 0
		}
	}
	limitFolded, blocking := false, false
	if len(q.Sort) > 0 && !c.sorted {
		if _, nat := naturalDirection(q.Sort); !nat {
			lim := int64(0)
			if q.Limit > 0 {
				lim = q.Limit + q.Skip
				limitFolded = true
			}
			sort := newSortStage(s, q.Sort, lim, q.NoDiskUse)
			sort.keepKeys = q.wantsSortKey()
			sort.simple = !c.covered && q.simpleSortDeps()
			s, blocking = sort, true
		}
	}
	// A count's skip and limit are its COUNT stage's (getExecutorCount
	// plans the filter alone).
	if q.Skip > 0 && !q.Count {
		if f, ok := s.(*fetch); ok && f == c.fetch && c.fetchDecidesNothing {
			// A FETCH that filters nothing out lets the SKIP run on index
			// keys below it, so skipped documents are never fetched
			// (QueryPlannerAnalysis::analyzeDataAccess, SERVER-13946).
			f.child = &skipStage{child: f.child, n: q.Skip}
		} else {
			s = &skipStage{child: s, n: q.Skip}
		}
	}
	if len(q.Sort) > 0 && !blocking && q.wantsSortKey() {
		// The index gives the order and something downstream still needs
		// the keys: a SORT_KEY_GENERATOR where the projection goes
		// (addSortKeyGeneratorStageIfNeeded, planner_analysis.cpp).
		s = newSortKeyGenerator(s, q.Sort)
	}
	if q.Projection != nil && !q.Count {
		s = &projectionStage{child: s, proj: q.Projection, covered: c.covered, ctx: ctx}
	}
	if q.Limit > 0 && !limitFolded && !q.Count {
		s = &limitStage{child: s, n: q.Limit}
	}
	if c.branches != nil && !c.contained && q.subplanned() || c.wholeOr {
		// The subplanner's plan is the whole tree below SUBPLAN
		// (SubplanStage is the root the executor runs); a hinted $or was
		// planned whole, without it.
		s = &subplanStage{child: s}
	}
	if q.Count {
		c.count = &countStage{child: s, skip: q.Skip, limit: q.Limit}
		s = c.count
	}
	c.root = s
}

// buildMergeSort builds a merged $or plan as buildIndexedOr and
// analyzeDataAccess do: a branch whose filter its index does not answer
// is fetched and filtered below the merge; the others are index scans,
// merged on their keys, with one FETCH above the merge unless the
// projection is covered by every branch's index.
func buildMergeSort(coll *catalog.Collection, q Query, c *candidate) stage {
	var children []stage
	covered := true
	for _, b := range c.branches {
		s, ixs, fetched := c.branchPlan(coll, q, b)
		if fetched {
			covered = false
		} else {
			ixs.keyDocs = true
			covered = covered && coversProjection(q, b)
		}
		children = append(children, s)
	}
	var s stage = newMergeSortStage(children, q.Sort)
	c.covered = covered
	if !covered && len(c.branchFetches) < len(c.branches) {
		f := &fetch{child: s, coll: coll}
		c.branchFetches = append(c.branchFetches, f)
		s = f
	}
	return s
}

// buildOr builds the OR of a rooted $or's branch plans as buildIndexedOr
// does (planner_access.cpp finishAndOutputLeaf): a branch its index keys
// decide is a bare index scan, those predicates the keys can test (the
// INEXACT_COVERED ones) filtering it; a branch they do not decide is
// fetched and filtered below the OR. analyzeDataAccess then fetches what
// the OR hands on unfetched, unless the query is a count (IS_COUNT) or
// every branch was fetched.
func buildOr(coll *catalog.Collection, q Query, c *candidate) stage {
	or := &orStage{}
	allFetched := true
	for _, b := range c.branches {
		s, _, fetched := c.branchPlan(coll, q, b)
		allFetched = allFetched && fetched
		or.children = append(or.children, s)
	}
	if allFetched || q.Count || q.NoContent {
		return or
	}
	c.fetch = &fetch{child: or, coll: coll}
	return c.fetch
}

// branchPlan is one branch of a rooted $or's plan (finishAndOutputLeaf): its
// index scan, filtered by the predicates the keys can test, and fetched
// and filtered below the OR or merge when its keys do not decide it.
func (c *candidate) branchPlan(coll *catalog.Collection, q Query, b *candidate) (s stage, ixs *ixScan, fetched bool) {
	ixs = newIxScan(b.ix, coll, orientAll(b), b.dir)
	ixs.addKeyMeta = q.wantsIndexKey()
	ixs.dedupIf(b.wildcardSubpaths)
	c.ixscans = append(c.ixscans, ixs)
	branch := &query.Filter{Root: b.orBranch}
	keyFilter, rest := b.splitFilter(branch, q)
	if len(keyFilter) > 0 {
		ixs.filter = andOf(keyFilter)
	}
	if len(rest) == 0 {
		return ixs, ixs, false
	}
	f := &fetch{child: ixs, coll: coll, filter: branch, shown: andOf(rest).Serialize()}
	c.branchFetches = append(c.branchFetches, f)
	return f, ixs, true
}

func andOf(nodes []query.Node) *query.Filter {
	if len(nodes) == 1 {
		return &query.Filter{Root: nodes[0]}
	}
	return &query.Filter{Root: &query.And{Children: nodes}}
}

// splitFilter divides the filter's top-level predicates as
// QueryPlannerAccess::handleFilterAnd does: those the bounds answer
// exactly are dropped, those the index keys can decide (inexactCovered,
// on an index that is not multikey: one key of an array would not speak
// for the whole array) filter the IXSCAN, and the rest go to FETCH. A
// null equality is exact or not as q's projection needs the document
// (refineTightnessForMaybeCoveredQuery).
func (c *candidate) splitFilter(f *query.Filter, q Query) (keyFilter, rest []query.Node) {
	needsFetch := q.projNeedsFetch()
	for _, n := range conjuncts(f) {
		switch resolveMaybeCovered(c.tightnessOf(n), needsFetch) {
		case exact:
		case inexactCovered:
			if c.ix.IsMultiKey() {
				rest = append(rest, n)
			} else {
				keyFilter = append(keyFilter, n)
			}
		default:
			rest = append(rest, n)
		}
	}
	return keyFilter, rest
}

// tightnessOf is how much of n the candidate's bounds answer; a
// predicate that built no bounds is left for FETCH.
func (c *candidate) tightnessOf(n query.Node) tightness {
	for _, u := range c.used {
		if u.node == n {
			return u.tight
		}
	}
	return inexactFetch
}

// simpleSortDeps is canUseSimpleSort's condition on the query
// (planner_analysis.cpp): SortStageSimple drops the record ids and every
// metadata but the sort key, so it sorts only for a query that reads no
// other metadata and does not keep record ids. Its other condition is
// that the input is fetched.
func (q Query) simpleSortDeps() bool {
	if q.IndexKey || q.ShowRecordID || q.PreserveRecordID {
		return false
	}
	p := q.Projection
	return p == nil || !p.IndexKey && !p.RecordID
}

// subplanned is get_executor.cpp's SubplanStage::needsSubplanning
// (canUseSubplanning): a rooted $or with a clause, and no hint, min, max
// or tailable cursor. The distinct command plans its own way.
func (q Query) subplanned() bool {
	if q.Filter == nil || q.Hint != nil || len(q.Min) > 0 || len(q.Max) > 0 || q.Tailable || q.DistinctKey != "" {
		return false
	}
	or, ok := q.Filter.Root.(*query.Or)
	return ok && len(or.Children) > 0
}

// projNeedsFetch is planner_access.cpp's projNeedsFetch: whether the
// query reads an indexed field's value, which the null point cannot give
// (null and missing share it). A count reads nothing; a find reads
// nothing more than _id only with an inclusion projection that needs no
// match details, no metadata and no whole document.
func (q Query) projNeedsFetch() bool {
	if q.Count || q.NoContent {
		return false
	}
	p := q.Projection
	if p == nil || !p.Coverable || p.IndexKey || p.SortKey || len(p.Required) == 0 {
		return true
	}
	return slices.ContainsFunc(p.Required, func(f string) bool { return f != "_id" })
}

// coversProjection applies QueryPlannerAnalysis's covering rule: the
// projection reads only fields the index holds as whole values (a field of
// the key pattern, not multikey), and so does a blocking sort, if one is
// needed.
func coversProjection(q Query, c *candidate) bool {
	p := q.Projection
	if p == nil || !p.Coverable || q.Count || c.wildcardSubpaths {
		return false
	}
	provides := func(path string) bool {
		for i, f := range c.ix.Spec.Fields {
			if f.Path == path {
				return !f.Hashed && !c.ix.FieldIsMultiKey(i)
			}
		}
		return false
	}
	for _, f := range p.Required {
		if !provides(f) {
			return false
		}
	}
	if len(q.Sort) > 0 && !c.sorted {
		for _, e := range q.Sort {
			if !provides(e.Key) {
				return false
			}
		}
	}
	return true
}

func orientAll(c *candidate) scanBounds {
	sb := make(scanBounds, len(c.bounds))
	for i, f := range c.ix.Spec.Fields {
		vdir := c.dir
		if f.Desc {
			vdir = -vdir
		}
		sb[i] = orient(c.bounds[i], vdir)
	}
	return sb
}

func exactValue(v any) bool {
	switch v.(type) {
	case nil, bson.A, bson.D, bson.MinKey, bson.MaxKey, bson.Undefined:
		return false
	}
	return true
}

// apiStrictKey marks the context of a command sent with apiStrict: true.
type apiStrictKey struct{}

// WithAPIStrict marks ctx as a command's under apiStrict: true. Its plans
// see only the indexes of API Version 1, as fillOutIndexEntries leaves out
// the others for the operation: a hint naming one is a hint to no index
// (jstests/core/query/api/api_version_unstable_indexes.js).
func WithAPIStrict(ctx context.Context) context.Context {
	return context.WithValue(ctx, apiStrictKey{}, true)
}

// apiStrict reports whether q is planned for a command under apiStrict.
func (q Query) apiStrict() bool { return q.Ctx != nil && q.Ctx.Value(apiStrictKey{}) != nil }

// hides reports an index the planner does not see for q: a hidden one,
// a clustered collection's cluster key (scanned as the collection), and
// under apiStrict one outside API Version 1.
func (q Query) hides(ix *index.Index) bool {
	return ix.Spec.Hidden || ix.Spec.Clustered || q.apiStrict() && !ix.Spec.InAPIVersion1()
}

// resolveHint finds the index q's hint names (nil for no hint), or the
// direction of a {$natural: ±1} hint; a hint naming no visible index is
// the planner's bad-hint error.
func resolveHint(coll *catalog.Collection, q Query) (*index.Index, int, error) {
	if ix := clusterHint(coll, q.Hint); ix != nil {
		return ix, 0, nil
	}
	switch h := q.Hint.(type) {
	case string:
		ix := coll.Index(h)
		if ix == nil || q.hides(ix) {
			return nil, 0, badHint(coll, q)
		}
		return ix, 0, nil
	case bson.D:
		if d, ok := naturalDirection(h); ok {
			return nil, d, nil
		}
		if len(h) > 0 {
			for _, ix := range coll.IndexesByKey(h) {
				if !q.hides(ix) {
					return ix, 0, nil
				}
			}
			return nil, 0, badHint(coll, q)
		}
	}
	return nil, 0, nil
}

// CheckHint is the bad-hint check of QueryPlanner::plan alone: find makes
// it before planning, so that the error is the command's and not an
// executor's.
func CheckHint(coll *catalog.Collection, q Query) error {
	ix, _, err := resolveHint(coll, q)
	if err == nil && ix != nil && ix.Wildcard() != nil && len(q.Min) == 0 && len(q.Max) == 0 {
		// A hinted wildcard index that no queried path can use fails
		// planning itself, before any executor exists.
		_, err = enumerate(coll, q)
	}
	return err
}

func badHint(coll *catalog.Collection, q Query) error {
	return plannerError(coll, q, mongoerr.BadValue, "hint provided does not correspond to an existing index")
}

// plannerError is a QueryPlanner::plan failure as get_executor.cpp reports
// it, with the canonical query in front ("ns=db.c limit=5Tree: $and\n...").
// The Query does not carry the command's batchSize, which mongod also
// prints among the extras.
func plannerError(coll *catalog.Collection, q Query, code int32, reason string) error {
	var extras string
	if q.Limit > 0 && !q.Count {
		extras += fmt.Sprintf(" limit=%d", q.Limit)
	}
	if q.Skip > 0 && !q.Count {
		extras += fmt.Sprintf(" skip=%d", q.Skip)
	}
	return mongoerr.Newf(code, "error processing query: %s planner returned error :: caused by :: %s", ErrorString(coll.NS(), extras, q), reason)
}

func projSpec(q Query) string {
	if q.Projection == nil {
		return "{}"
	}
	return index.FormatDoc(q.Projection.Spec)
}

// debugTree renders the filter as mongod's MatchExpression::debugString
// does in planner errors ("Tree: $and\n    a $eq 1\n ...").
func debugTree(f *query.Filter) string {
	if f == nil || f.IsEmpty() {
		return ": $and\n"
	}
	var b strings.Builder
	b.WriteString(": ")
	writeDebug(&b, f.Root, 0)
	return b.String()
}

func writeDebug(b *strings.Builder, n query.Node, depth int) {
	if depth > 0 {
		b.WriteString(strings.Repeat("    ", depth))
	}
	switch x := n.(type) {
	case *query.And:
		b.WriteString("$and\n")
		for _, c := range x.Children {
			writeDebug(b, c, depth+1)
		}
	case *query.Or:
		b.WriteString("$or\n")
		for _, c := range x.Children {
			writeDebug(b, c, depth+1)
		}
	case *query.Compare:
		fmt.Fprintf(b, "%s %s %s\n", x.Path, x.Op, index.FormatValue(x.Value))
	default:
		d := (&query.Filter{Root: n}).Serialize()
		b.WriteString(index.FormatDoc(d))
		b.WriteString("\n")
	}
}

// ErrorString is CanonicalQuery::toString(forErrMsg), which mongod puts
// in errors about a whole query: the namespace, extras (" batchSize=N",
// " limit=N", " skip=N" for those the command set), the filter's debug
// tree, the sort and the projection.
func ErrorString(ns, extras string, q Query) string {
	return fmt.Sprintf("ns=%s%sTree%sSort: %s\nProj: %s\n", ns, extras, debugTree(q.Filter), index.FormatDoc(q.Sort), projSpec(q))
}
