// Package aggregate is the aggregation pipeline of the embedded engine: it
// parses a pipeline the way mongod does (same validation, codes and
// messages), runs it as a chain of iterators over the documents the engine
// feeds it, and serializes every stage for explain.
package aggregate

import (
	"context"
	"math"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/projection"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Iterator yields documents; ok is false once the input is exhausted.
type Iterator interface {
	Next() (doc bson.D, ok bool, err error)
}

// ScanStats is what a stage's reads of another collection examined, as
// mongod's PlanSummaryStats sums them for $lookup's explain figures.
type ScanStats struct {
	KeysExamined, DocsExamined, CollectionScans int64
	IndexesUsed                                 []string // sorted, each once
}

// Add counts one plan's run: its keys and documents, the index it used
// ("" for none) and whether it scanned the collection.
func (s *ScanStats) Add(keys, docs int64, index string, collScan bool) {
	if s == nil {
		return
	}
	s.KeysExamined += keys
	s.DocsExamined += docs
	if collScan {
		s.CollectionScans++
	}
	s.addIndex(index)
}

// Include adds what another set of reads examined, as
// accumulatePipelinePlanSummaryStats adds a sub-pipeline's stages' to
// the stage that ran it.
func (s *ScanStats) Include(o ScanStats) {
	if s == nil {
		return
	}
	s.KeysExamined += o.KeysExamined
	s.DocsExamined += o.DocsExamined
	s.CollectionScans += o.CollectionScans
	for _, ix := range o.IndexesUsed {
		s.addIndex(ix)
	}
}

func (s *ScanStats) addIndex(index string) {
	if index == "" {
		return
	}
	if i, found := slices.BinarySearch(s.IndexesUsed, index); !found {
		s.IndexesUsed = slices.Insert(s.IndexesUsed, i, index)
	}
}

// Context gives stages what lies outside the pipeline. The engine fills in
// the function fields; a nil function makes the stages that need it fail
// with an error rather than panic.
type Context struct {
	// InternalClient: the client is a server of the deployment, which may
	// send the internal-only stages (assertAllowedInternalIfRequired).
	InternalClient bool
	// Ctx interrupts the pipeline (see mongoerr.FromContext for the
	// errors). A cursor's later batches run under later commands, so the
	// engine replaces it before each; stages read it when they check.
	Ctx context.Context
	DB  string
	Now bson.DateTime // $$NOW for the whole command
	Let bson.D        // command-level let: name -> expression (evaluated once)

	// Query runs filter (+ optional sort and limit) on db.coll through the
	// query planner so that $lookup and $graphLookup use indexes. A missing
	// collection yields no documents.
	// scanned, when not nil, adds what the read examined.
	Query func(db, coll string, filter bson.D, sort bson.D, limit int64, scanned *ScanStats) ([]bson.D, error)
	// Pipeline runs a sub-pipeline on db.coll. let holds the variables the
	// sub-pipeline sees, each already wrapped as {$literal: value}. When nil,
	// sub-pipelines run in this package over Query(db, coll, {}, nil, 0).
	Pipeline func(db, coll string, pipeline bson.A, let bson.D, scanned *ScanStats) ([]bson.D, error)
	// Examined adds up what every read through Query and Pipeline
	// examined, at any depth: the pipeline's share of its operation's
	// keys and documents examined beyond its own plan's.
	Examined ScanStats
	// ViewPipeline is the pipeline a view resolves to (its chain of view
	// definitions, outermost last), or nil when db.coll is no view. The
	// stages that read another namespace parse it ahead of their own
	// sub-pipeline, as mongod's resolved namespaces do. Nil: no views.
	ViewPipeline func(db, coll string) (bson.A, error)
	// ExplainPipeline explains a sub-pipeline on db.coll at queryPlanner
	// verbosity as it would run: its $cursor stage first, then the
	// stages the query layer does not take. Nil: sub-pipelines show as
	// written.
	ExplainPipeline func(db, coll string, pipeline bson.A, verbosity string) (bson.A, error)
	// ReplaceCollection atomically replaces db.coll's documents ($out);
	// with timeseries (the option's specification) db.coll is, or
	// becomes, a time-series collection.
	ReplaceCollection func(db, coll string, timeseries bson.D, docs []bson.D) error
	// MergeLookup finds the target document whose `on` fields equal doc's
	// ($merge).
	MergeLookup func(db, coll string, on []string, doc bson.D) (existing bson.D, found bool, err error)
	// MergeWrite replaces old with newDoc, or inserts newDoc when insert is
	// true ($merge).
	MergeWrite func(db, coll string, old bson.D, newDoc bson.D, insert bool) error
	CollStats  func(db, coll string, spec bson.D) (bson.D, error)
	IndexStats func(db, coll string) ([]bson.D, error)
	// CurrentOp lists the server's operations for $currentOp.
	CurrentOp func(opts CurrentOpOptions) []bson.D
	// PlanCacheStats lists a collection's plan cache entries.
	PlanCacheStats func(db, coll string) ([]bson.D, error)
	// Coll is the collection the pipeline runs on ("" for a database-level
	// aggregate); $collStats and $indexStats read it.
	Coll string
	// NoDiskUse is the command's allowDiskUse: false. Blocking stages
	// ($sort, $group, $bucketAuto, $setWindowFields) then fail past their
	// 100 MB memory limit with mongod's QueryExceededMemoryLimitNoDiskUseAllowed.
	// When disk use is allowed (8.0's default) mongod spills to disk; the
	// engine keeps such a stage in memory instead, and only the limits
	// mongod cannot spill past ($push, $addToSet, $graphLookup...) apply.
	NoDiskUse bool
	// Explain runs the pipeline for an explain at executionStats: $out
	// and $merge drain their input and write nothing, as
	// DocumentSourceWriter::doGetNext does in explain mode.
	Explain bool
}

func (c *Context) err() error {
	if c == nil || c.Ctx == nil {
		return nil
	}
	if err := mongoerr.FromContext(c.Ctx); err != nil {
		return err
	}
	return nil
}

// Stage is one parsed stage of a pipeline.
type Stage interface {
	// Name is the stage's name as explain shows it ("$group").
	Name() string
	// Spec is the stage's serialization as explain shows it: {$name: ...}.
	Spec() bson.D
	open(in Iterator, rt *runtime) (Iterator, error)
}

// Pipeline is a parsed pipeline, ready to run once.
type Pipeline struct {
	ctx     *Context
	scope   *expr.Scope
	letVals bson.D // command-level let, evaluated
	stages  []Stage
	stats   []*stageStats
	timing  bool
}

// EnableTiming makes Run measure each stage's executionTimeMillisEstimate.
// It costs two clock reads per document per stage, so the engine turns it
// on only for explain with executionStats; nReturned is always counted.
func (p *Pipeline) EnableTiming() { p.timing = true }

// runtime is what stages need while running.
type runtime struct {
	ctx     *Context
	letVals bson.D
	scope   *expr.Scope
	explain bool // collect the stage-specific explain statistics
}

func (rt *runtime) newEnv() *expr.Env {
	env := expr.NewEnv(nil, rt.ctx.Now)
	env.SetContext(func() context.Context { return rt.ctx.Ctx })
	for _, e := range rt.letVals {
		env.SetVar(e.Key, e.Value)
	}
	return env
}

// Parse validates every stage like mongod and builds the pipeline.
func Parse(pipeline bson.A, ctx *Context) (*Pipeline, error) {
	if ctx == nil {
		ctx = &Context{}
	}
	names := make([]string, 0, len(ctx.Let))
	for _, e := range ctx.Let {
		names = append(names, e.Key)
	}
	p := &Pipeline{ctx: ctx, scope: expr.NewScope(names...).WithConstantFolding()}
	if len(ctx.Let) > 0 {
		var err error
		if p.letVals, err = expr.SeedLetParameters(ctx.Let, ctx.Now); err != nil {
			return nil, err
		}
		p.scope = p.scope.WithLetValues(p.letVals)
	}
	stages, err := parseStages(pipeline, &parser{ctx: ctx, scope: p.scope, letVals: p.letVals, fromCollection: true, collectionless: ctx.Coll == ""})
	if err != nil {
		return nil, err
	}
	if ctx.Coll != "" {
		// After every stage parsed, as PipelineD builds the executor.
		if err := checkAvailableMeta(pipeline); err != nil {
			return nil, err
		}
	}
	p.setStages(stages)
	return p, nil
}

func (p *Pipeline) setStages(stages []Stage) {
	p.stages = stages
	p.stats = make([]*stageStats, len(stages))
	for i := range p.stats {
		p.stats[i] = &stageStats{}
	}
}

// Stages returns the parsed stages, aliases already expanded the way mongod
// expands them ($count becomes $group + $project, $bucket $group + $sort).
func (p *Pipeline) Stages() []Stage { return p.stages }

// LetValues is the command-level let, evaluated: what a pushed-down
// leading $match's $expr must see as its variables (not the let's
// unevaluated expressions, such as {$literal: v} for a sub-pipeline).
func (p *Pipeline) LetValues() bson.D { return p.letVals }

// LeadingMatch returns the filter of a leading $match, which the engine
// pushes into the query planner; RemoveLeading then drops it.
func (p *Pipeline) LeadingMatch() (filter bson.D, ok bool) {
	if len(p.stages) == 0 {
		return nil, false
	}
	if m, isMatch := p.stages[0].(*matchStage); isMatch {
		return m.filter, true
	}
	return nil, false
}

// LeadingSort returns the sort pattern (and coalesced limit, 0 if none) of
// the first stage when it is a $sort, so the planner can provide the order.
func (p *Pipeline) LeadingSort() (sort bson.D, limit int64, ok bool) {
	if len(p.stages) == 0 {
		return nil, 0, false
	}
	if s, isSort := p.stages[0].(*sortStage); isSort {
		return s.pattern, s.limit, true
	}
	return nil, 0, false
}

// LeadingLimitSkip is what mongod's extractSkipAndLimitForPushdown
// (pipeline_d.cpp, pipeline/skip_and_limit.cpp) takes from the pipeline
// for the query layer: walking from the front past the stages that swap
// with a $limit, the $limit stages (the smallest, each plus the $skip
// stages before it), then, on a second walk, the $skip stages (their
// sum). A $limit or $skip whose sum would overflow stays where it is.
// limit is 0 when there is none; removed is the positions of the stages
// taken, for Remove.
func (p *Pipeline) LeadingLimitSkip() (limit, skip int64, removed []int) {
	skipped := int64(0)
limits:
	for i, s := range p.stages {
		switch s := s.(type) {
		case *skipStage:
			if s.n > math.MaxInt64-skipped {
				break limits
			}
			skipped += s.n
		case *limitStage:
			if s.n > math.MaxInt64-skipped {
				break limits
			}
			if limit == 0 || s.n+skipped < limit {
				limit = s.n + skipped
			}
			removed = append(removed, i)
		default:
			if !swapsWithSkipOrLimit(s) {
				break limits
			}
		}
	}
	for i, s := range p.stages {
		if slices.Contains(removed, i) {
			continue
		}
		if sk, ok := s.(*skipStage); ok {
			if sk.n <= math.MaxInt64-skip {
				skip += sk.n
				removed = append(removed, i)
			}
			continue
		}
		if !swapsWithSkipOrLimit(s) {
			break
		}
	}
	slices.Sort(removed)
	return limit, skip, removed
}

// LeadingProjection is the $project (or $unset) that leads the pipeline,
// as buildProjectionForPushdown (pipeline_d.cpp) looks for it: inclusion
// says whether it keeps only the fields it names.
func (p *Pipeline) LeadingProjection() (proj *projection.Projection, inclusion, ok bool) {
	if len(p.stages) == 0 {
		return nil, false, false
	}
	s, isProject := p.stages[0].(*projectStage)
	if !isProject || s.mode == modeAddFields {
		return nil, false, false
	}
	return s.proj, s.mode == modeInclusion, true
}

// RemoveLeading drops the first n stages once the engine has pushed them
// down into the query layer.
func (p *Pipeline) RemoveLeading(n int) {
	n = min(n, len(p.stages))
	p.stages, p.stats = p.stages[n:], p.stats[n:]
}

// Remove drops the stages at the given positions (ascending) once the
// engine has pushed them down into the query layer.
func (p *Pipeline) Remove(positions ...int) {
	stages, stats := p.stages[:0:0], p.stats[:0:0]
	for i := range p.stages {
		if !slices.Contains(positions, i) {
			stages, stats = append(stages, p.stages[i]), append(stats, p.stats[i])
		}
	}
	p.stages, p.stats = stages, stats
}

// LeadingNeedsIndexKey reports whether a transformer reading
// {$meta: "indexKey"} stands at the front, behind only stages that keep
// each document's metadata, so the plan feeding it must record the keys:
// mongod asks the query layer for the metadata the stages left in the
// pipeline depend on (createCanonicalQuery's requestAdditionalMetadata,
// pipeline_d.cpp).
func (p *Pipeline) LeadingNeedsIndexKey() bool {
	return p.leadingReads("indexKey")
}

// LeadingNeedsSortKey reports whether a transformer reading
// {$meta: "sortKey"} stands at the front, behind only stages that keep
// the metadata: only a $sort the query layer ran gives a sort key
// (parseStage), so the plan, which must keep the keys, has it.
func (p *Pipeline) LeadingNeedsSortKey() bool {
	return p.leadingReads("sortKey")
}

// leadingReads: a transformer among the leading stages that keep each
// document's metadata reads the metadata name.
func (p *Pipeline) leadingReads(name string) bool {
	for _, s := range p.stages {
		if readsMeta(s, name) {
			return true
		}
		if !passesMeta(s) {
			return false
		}
	}
	return false
}

// Run chains the stages over input.
func (p *Pipeline) Run(input Iterator) (Iterator, error) {
	rt := &runtime{ctx: p.ctx, letVals: p.letVals, scope: p.scope, explain: p.timing}
	it := input
	_, inputHoles := input.(HolesSource)
	holesIn, holesOut := holesPlan(p.stages, inputHoles)
	for i, s := range p.stages {
		next, err := openStage(s, it, rt, holesIn, holesOut, i)
		if err != nil {
			return nil, err
		}
		timed := &timedIterator{in: next, stats: p.stats[i], ctx: p.ctx, timing: p.timing}
		if keepsMeta(s) {
			timed.upstream = it
		}
		it = timed
		if holesOut != nil && holesOut[i] {
			it = timedHoles{timedIterator: timed, src: next.(HolesSource)}
		}
	}
	return it, nil
}

// Explain serializes the stages as mongod 8.0's aggregate explain lists
// them; for executionStats and allPlansExecution each stage also carries
// nReturned and executionTimeMillisEstimate.
func (p *Pipeline) Explain(verbosity string) bson.A {
	out := make(bson.A, 0, len(p.stages))
	withStats := verbosity == "executionStats" || verbosity == "allPlansExecution"
	for i, s := range p.stages {
		d := s.Spec()
		if sub, ok := s.(plannedSubPipeline); ok && p.ctx.ExplainPipeline != nil {
			if planned, err := sub.plannedSpec(p.ctx, verbosity); err == nil {
				d = planned
			}
		}
		if withStats {
			if es, ok := s.(execStatser); ok {
				d = append(d, es.execStats()...)
			}
			d = append(d,
				bson.E{Key: "nReturned", Value: p.stats[i].returned},
				bson.E{Key: "executionTimeMillisEstimate", Value: p.stats[i].elapsed.Milliseconds()})
		}
		out = append(out, d)
	}
	return out
}

// plannedSubPipeline is implemented by the stages whose queryPlanner
// explain shows their sub-pipeline explained rather than as written.
type plannedSubPipeline interface {
	plannedSpec(ctx *Context, verbosity string) (bson.D, error)
}

// execStatser is implemented by the stages that report stage-specific
// fields in executionStats explain ($group, $sort), as mongod does.
type execStatser interface{ execStats() bson.D }

type stageStats struct {
	returned int64
	elapsed  time.Duration
}

// timedIterator counts what a stage returns and the time spent in it,
// including its inputs, as mongod's executionTimeMillisEstimate does.
type timedIterator struct {
	in     Iterator
	stats  *stageStats
	ctx    *Context
	n      int
	timing bool
	// upstream is the stage's input, for a stage whose documents keep the
	// metadata of the input it read last (keepsMeta).
	upstream Iterator
}

func (t *timedIterator) Next() (bson.D, bool, error) {
	t.n++
	if t.n&1023 == 0 {
		if err := t.ctx.err(); err != nil {
			return nil, false, err
		}
	}
	var d bson.D
	var ok bool
	var err error
	if t.timing {
		start := time.Now()
		d, ok, err = t.in.Next()
		t.stats.elapsed += time.Since(start)
	} else {
		d, ok, err = t.in.Next()
	}
	if ok {
		t.stats.returned++
	}
	return d, ok, err
}

// Meta is the metadata of the stage's last document: its input's for a
// stage that keeps it, else whatever the stage's own iterator carries.
func (t *timedIterator) Meta() Meta {
	if t.upstream != nil {
		return metaOf(t.upstream)
	}
	return metaOf(t.in)
}

// SliceIterator yields the documents of a slice.
type SliceIterator struct {
	docs []bson.D
	i    int
}

// NewSliceIterator returns an iterator over docs.
func NewSliceIterator(docs []bson.D) *SliceIterator { return &SliceIterator{docs: docs} }

// Next implements Iterator.
func (s *SliceIterator) Next() (bson.D, bool, error) {
	if s.i >= len(s.docs) {
		return nil, false, nil
	}
	d := s.docs[s.i]
	s.i++
	return d, true, nil
}

// Drain reads it to the end.
func Drain(it Iterator) ([]bson.D, error) {
	var out []bson.D
	for {
		d, ok, err := it.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			return out, nil
		}
		out = append(out, d)
	}
}

// funcIterator adapts a closure.
type funcIterator func() (bson.D, bool, error)

func (f funcIterator) Next() (bson.D, bool, error) { return f() }

// blockingIterator is the output of a blocking stage ($group, $sort,
// $bucketAuto, $setWindowFields, $sample): compute consumes the whole
// input on the first Next, and its results are then handed out one at a
// time, each let go once emitted.
func blockingIterator[T any](compute func() ([]T, error), emit func(T) bson.D) Iterator {
	var out []T
	loaded := false
	return funcIterator(func() (bson.D, bool, error) {
		if !loaded {
			loaded = true
			var err error
			if out, err = compute(); err != nil {
				return nil, false, err
			}
		}
		if len(out) == 0 {
			return nil, false, nil
		}
		next := out[0]
		var zero T
		out[0] = zero
		out = out[1:]
		return emit(next), true, nil
	})
}

// asIs is the emit of a blocking stage that computes documents.
func asIs(d bson.D) bson.D { return d }
