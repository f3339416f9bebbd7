package engine

import (
	"context"
	"os"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/aggregate"
	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/expr"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/projection"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/storagestats"
	"github.com/schemalab/schemalab/sandbox/engine/timeseries"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/stages"
)

type aggregateSpec struct {
	coll      string // "" for {aggregate: 1}
	pipeline  bson.A
	batchSize int64
	hasBatch  bool
	explain   bool
	hint      any
	let       bson.D
}

func parseAggregate(req *request) (*aggregateSpec, error) {
	s := &aggregateSpec{}
	switch v := req.cmd[0].Value.(type) {
	case string:
		if err := catalog.CheckNUL(v); err != nil {
			return nil, err
		}
		if v == "" {
			return nil, mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid namespace specified '%s.'", req.db)
		}
		s.coll = v
	case int32, int64, float64, bson.Decimal128:
		// parseNs compares BSONElement::number(), a double, with 1: 1.5
		// is refused, not truncated.
		if value.ToDouble(v) != 1 {
			return nil, mongoerr.New(mongoerr.FailedToParse, "Invalid command format: the 'aggregate' field must specify a collection name or 1")
		}
	default:
		// aggregation_request_helper.cpp parseNs: anything neither a number
		// nor a string (a collection UUID among them) is a TypeMismatch.
		return nil, mongoerr.Newf(mongoerr.TypeMismatch, "collection name has invalid type: %s", value.TypeName(v))
	}
	a := newArgs(req)
	if err := a.checkKnown(true, "pipeline", "cursor", "explain", "allowDiskUse", "hint", "let",
		"collation", "bypassDocumentValidation", "fromMongos", "needsMerge", "isMapReduceCommand",
		"exchange", "collectionUUID", "passthroughToShard", "$_requestReshardingResumeToken",
		"$_generateV2ResumeTokens", "includeQueryStatsMetrics"); err != nil {
		return nil, err
	}
	p, ok, err := a.array("pipeline")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'aggregate.pipeline' is missing but a required field")
	}
	// The IDL parses the pipeline's stages as documents
	// (parsePipelineFromBSON) before the request is validated.
	for _, stage := range p {
		if _, isDoc := stage.(bson.D); !isDoc {
			return nil, mongoerr.New(mongoerr.TypeMismatch, "Each element of the 'pipeline' array must be an object")
		}
	}
	s.pipeline = p
	if s.explain, err = a.boolean("explain", false); err != nil {
		return nil, err
	}
	// parseAggregateCursorFromBSON (aggregation_request_helper.cpp) checks
	// that cursor is a document, then parses it in a context of its own,
	// so its errors name cursor.<field>.
	if v, ok := a.get("cursor"); ok {
		if _, isDoc := v.(bson.D); !isDoc {
			return nil, mongoerr.New(mongoerr.TypeMismatch, "cursor field must be missing or an object")
		}
	}
	hasCursor, batch, hasBatch, err := a.cursorOptions("cursor")
	if err != nil {
		return nil, err
	}
	if !hasCursor && !s.explain {
		return nil, mongoerr.New(mongoerr.FailedToParse, "The 'cursor' option is required, except for aggregate with the explain argument")
	}
	if s.explain {
		if err := refuseExplainWriteConcern(a); err != nil {
			return nil, err
		}
	}
	s.batchSize, s.hasBatch = batch, hasBatch
	// aggregate_command.idl types hint as indexHint, whose parser refuses
	// anything but a string or an object.
	if s.hint, err = hintArg(a); err != nil {
		return nil, err
	}
	if err := planner.CheckNatural(nil, s.hint); err != nil {
		return nil, err
	}
	if s.let, _, err = a.document("let"); err != nil {
		return nil, err
	}
	if err := parseAllowDiskUse(req, a); err != nil {
		return nil, err
	}
	if err := checkCollation(a); err != nil {
		return nil, err
	}
	if req.apiStrict() {
		if err := aggregate.CheckAPIStrict(s.pipeline, req.conn.internal); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// refuseExplainWriteConcern is validate()'s refusal, in
// aggregation_request_helper.cpp, of a writeConcern on an explained
// aggregate, whether explain: true or the explain command's inner
// aggregate. The missing space in the message is mongod's.
func refuseExplainWriteConcern(a args) error {
	if _, ok := a.get("writeConcern"); ok {
		return mongoerr.New(mongoerr.FailedToParse, "Aggregation explain does not support the'writeConcern' option")
	}
	return nil
}

// parseAllowDiskUse reads find's and aggregate's allowDiskUse. Absent, it
// is allowDiskUseByDefault, true in 8.0.
func parseAllowDiskUse(req *request, a args) error {
	allow, err := a.boolean("allowDiskUse", true)
	req.noDiskUse = !allow
	return err
}

// writesTo reports whether a pipeline ends in $out or $merge, which makes
// the command a writer.
func writesTo(pipeline bson.A) bool {
	if len(pipeline) == 0 {
		return false
	}
	last, ok := pipeline[len(pipeline)-1].(bson.D)
	if !ok || len(last) == 0 {
		return false
	}
	s, ok := stages.Lookup(last[0].Key)
	return ok && s.Writes()
}

// pipelineNamespaces lists the collections a pipeline reads besides its
// own: the foreign collections of $lookup, $graphLookup and $unionWith,
// at any depth of sub-pipelines and $facet, as the stage descriptors
// (sandbox/stages) name them. The aggregate command takes one consistent
// snapshot of all of them; a collection this misses is snapshotted when
// first read.
func pipelineNamespaces(db string, pipeline bson.A, out []catalog.Namespace) []catalog.Namespace {
	stages.Walk(pipeline, func(r stages.Ref) {
		if r.Write || r.Malformed || r.Coll == "" {
			return
		}
		ns := catalog.Namespace{DB: db, Coll: r.Coll}
		if r.HasDB {
			ns.DB = r.DB
		}
		out = append(out, ns)
	})
	return out
}

// pipelineView snapshots everything a pipeline on db.coll reads, at one
// instant.
func (e *Engine) pipelineView(db, coll string, pipeline bson.A) *catalog.View {
	var names []catalog.Namespace
	if coll != "" {
		names = append(names, catalog.Namespace{DB: db, Coll: coll})
	}
	return e.catalog.View(pipelineNamespaces(db, pipeline, names)...)
}

// pipelineContext connects the pipeline's cross-collection stages to the
// engine. Reads ($lookup, $graphLookup, $unionWith, sub-pipelines, stats
// stages) come from view, the command's snapshot, and hold no lock; the
// writes of $out and $merge go to the live catalog, one document at a
// time. Every read is interrupted by the context's Ctx as it is when the
// read runs, which a cursor's getMore replaces.
func (e *Engine) pipelineContext(req *request, view *catalog.View, coll string, let bson.D) *aggregate.Context {
	ctx := &aggregate.Context{Ctx: req.ctx, DB: req.db, Now: req.now, Let: let, Coll: coll, NoDiskUse: req.noDiskUse, InternalClient: req.conn.internal}
	ctx.Query = func(db, c string, filter, sort bson.D, limit int64, scanned *aggregate.ScanStats) ([]bson.D, error) {
		if backing, p, ok, err := viewForeign(view, db, c, viewQueryStages(filter, sort, limit)); ok || err != nil {
			if err != nil {
				return nil, err
			}
			return ctx.Pipeline(db, backing, p, nil, scanned)
		}
		q := planner.Query{Sort: sort, Limit: limit, Ctx: ctx.Ctx}
		if len(filter) > 0 {
			f, err := query.Compile(filter, query.Options{Now: req.now, JSONSchema: validation.CompileSchema})
			if err != nil {
				return nil, err
			}
			q.Filter = f
		}
		started := time.Now()
		exec, err := e.plan(view.Collection(db, c), ns(db, c), q)
		if err != nil {
			return nil, err
		}
		docs, err := runPlan(exec)
		e.top.recordForeignRead(req.name, ns(db, c), time.Since(started))
		for _, s := range []*aggregate.ScanStats{scanned, &ctx.Examined} {
			s.Add(exec.KeysExamined(), exec.DocsExamined(), exec.UsedIndex(), exec.CollectionScan())
		}
		return docs, err
	}
	ctx.Pipeline = func(db, c string, pipeline bson.A, subLet bson.D, scanned *aggregate.ScanStats) ([]bson.D, error) {
		sub := *req
		sub.db, sub.ctx = db, ctx.Ctx
		c, pipeline, _, err := viewForeign(view, db, c, pipeline)
		if err != nil {
			return nil, err
		}
		started := time.Now()
		pp, err := e.preparePipeline(&sub, view, c, pipeline, subLet, nil)
		if err != nil {
			return nil, err
		}
		docs, err := pp.drain()
		e.top.recordForeignRead(req.name, ns(db, c), time.Since(started))
		// The stage's figures include the sub-pipeline's own reads of
		// other collections, as accumulatePipelinePlanSummaryStats
		// visits every stage of it.
		for _, s := range []*aggregate.ScanStats{scanned, &ctx.Examined} {
			if pp.exec != nil {
				s.Add(pp.exec.KeysExamined(), pp.exec.DocsExamined(), pp.exec.UsedIndex(), pp.exec.CollectionScan())
			}
			s.Include(pp.ctx.Examined)
		}
		return docs, err
	}
	ctx.ViewPipeline = func(db, c string) (bson.A, error) {
		if req.viewDefinition {
			return nil, nil
		}
		_, p, ok, err := viewForeign(view, db, c, nil)
		if !ok || err != nil {
			return nil, err
		}
		return p, nil
	}
	ctx.ExplainPipeline = func(db, c string, pipeline bson.A, verbosity string) (bson.A, error) {
		sub := *req
		sub.db, sub.ctx = db, ctx.Ctx
		// A view is explained as it runs: its definition first, on the
		// collection it reads (jstest core/query/explain/explain_unionwith_view.js).
		c, pipeline, _, err := viewForeign(view, db, c, pipeline)
		if err != nil {
			return nil, err
		}
		pp, err := e.preparePipeline(&sub, view, c, pipeline, nil, nil)
		if err != nil {
			return nil, err
		}
		pp.ctx.Explain = true
		return explainedStages(pp, verbosity)
	}
	ctx.ReplaceCollection = func(db, c string, ts bson.D, docs []bson.D) error {
		if ts != nil {
			return e.replaceTimeseries(req, db, c, ts, docs)
		}
		return e.replaceCollection(req, ctx.Ctx, db, c, docs)
	}
	ctx.MergeLookup = func(db, c string, on []string, doc bson.D) (bson.D, bool, error) {
		target := e.catalog.Snapshot(db, c)
		if target == nil {
			return nil, false, nil
		}
		filter := bson.D{}
		for _, f := range on {
			v := value.Lookup(doc, f)
			if value.IsMissing(v) {
				v = nil
			}
			filter = append(filter, bson.E{Key: f, Value: bson.D{{Key: "$eq", Value: v}}})
		}
		f, err := query.Compile(filter, query.Options{})
		if err != nil {
			return nil, false, err
		}
		exec, err := e.plan(target, ns(db, c), planner.Query{Filter: f, Limit: 1, Ctx: ctx.Ctx})
		if err != nil {
			return nil, false, err
		}
		r, ok, err := exec.Next()
		return r.Doc, ok, err
	}
	ctx.MergeWrite = func(db, c string, old, newDoc bson.D, insert bool) error {
		if err := catalog.ValidateNamespace(db, c); err != nil {
			return err
		}
		if e.isTimeseries(db, c) {
			return timeseries.ErrTarget("$merge")
		}
		if insert {
			doc, perr := prepareInsert(newDoc, value.Size(newDoc))
			if perr != nil {
				return perr
			}
			return e.catalog.Write(db, c, true, func(target *catalog.Collection) error {
				if target.Kind == catalog.KindTimeseries {
					return timeseries.ErrTarget("$merge") // created as one since the check
				}
				if target.Kind == catalog.KindView {
					return errViewNotCollection(db, c)
				}
				if err := e.validateWrite(req, target, nil, doc); err != nil {
					return err
				}
				_, err := target.Insert(doc)
				return err
			})
		}
		if id := value.Get(old, "_id"); value.IsMissing(value.Get(newDoc, "_id")) {
			// whenMatched replacements keep the target document's _id.
			newDoc = append(bson.D{{Key: "_id", Value: id}}, newDoc...)
		}
		if err := checkIDUnchanged(old, newDoc); err != nil {
			return err
		}
		if value.Size(newDoc) > value.MaxUserDocumentSize {
			return mongoerr.Newf(mongoerr.ErrUpdateResultTooLarge, "Resulting document after update is larger than %d", value.MaxUserDocumentSize)
		}
		return e.catalog.Write(db, c, false, func(target *catalog.Collection) error {
			if target == nil {
				return nil
			}
			rid, ok := findRecord(target, old)
			if !ok {
				return nil
			}
			// The document being replaced is the one stored now, which a
			// moderate validationLevel looks at.
			cur, _ := target.Get(rid)
			if err := e.validateWrite(req, target, cur, newDoc); err != nil {
				return err
			}
			return target.Replace(rid, newDoc)
		})
	}
	ctx.CollStats = func(db, c string, spec bson.D) (bson.D, error) {
		return e.collStatsStage(view, db, c, spec)
	}
	ctx.PlanCacheStats = e.planCacheStats
	ctx.IndexStats = func(db, c string) ([]bson.D, error) {
		if ts, ok := timeseriesIn(view, db, c); ok {
			return timeseriesIndexStats(ts, e.indexStatsStage(ts.buckets)), nil
		}
		return e.indexStatsStage(view.Collection(db, c)), nil
	}
	ctx.CurrentOp = func(opts aggregate.CurrentOpOptions) []bson.D {
		ops := e.ops.report(req.conn.user, opts)
		if opts.IdleCursors {
			ops = append(ops, e.cursors.idleReport(req.conn.user)...)
		}
		return ops
	}
	return ctx
}

// replaceCollection is $out: the documents go into a temporary collection
// (with the target's options, validator and indexes), which then replaces
// the target in one rename, so readers see either the old contents or the
// new. The documents are validated like inserts, under the temporary
// collection's write lock.
func (e *Engine) replaceCollection(req *request, ctx context.Context, db, c string, docs []bson.D) error {
	if err := catalog.ValidateNamespace(db, c); err != nil {
		return err
	}
	old := e.catalog.Snapshot(db, c)
	var opts bson.D
	var specs []index.Spec
	if old != nil {
		if old.Kind == catalog.KindTimeseries {
			// document_source_out.cpp validateTimeseries: without the
			// timeseries option, an existing time-series target keeps its
			// own options and is replaced as a time-series collection.
			return e.replaceTimeseries(req, db, c, nil, docs)
		}
		if old.Kind == catalog.KindView {
			return errViewNotCollection(db, c)
		}
		// document_source_out.cpp: $out replaces a collection, which a
		// capped one's eviction order would not survive.
		if old.IsCapped() {
			return mongoerr.Newf(17152, "namespace '%s.%s' is capped so it can't be used for $out", db, c)
		}
		opts = old.Options
		for _, ix := range old.Indexes()[1:] {
			specs = append(specs, ix.Spec)
		}
	}
	tmpName := "tmp.agg_out." + bson.NewObjectID().Hex()
	err := e.catalog.ChangeNamespace(db, func(ch *catalog.Change) error {
		t, err := ch.Create(tmpName, opts)
		if err != nil {
			return err
		}
		if old != nil {
			t.Validator = old.Validator
		}
		for _, s := range specs {
			if _, err := t.CreateIndex(s); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	fail := func(err error) error {
		e.catalog.DropCollection(db, tmpName)
		return err
	}
	for start := 0; start < len(docs); start += insertBatch {
		if err := mongoerr.FromContext(ctx); err != nil {
			return fail(err)
		}
		batch := docs[start:min(start+insertBatch, len(docs))]
		err := e.catalog.Write(db, tmpName, false, func(t *catalog.Collection) error {
			if t == nil {
				return mongoerr.Newf(mongoerr.NamespaceNotFound, "temporary $out collection %s.%s was dropped", db, tmpName)
			}
			for _, d := range batch {
				doc, perr := prepareInsert(d, value.Size(d))
				if perr == nil {
					perr = e.validateWrite(req, t, nil, doc)
				}
				if perr != nil {
					return perr
				}
				if _, err := t.Insert(doc); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return fail(err)
		}
	}
	if err := e.catalog.RenameCollection(db, tmpName, db, c, true); err != nil {
		return fail(err)
	}
	e.cursors.killNamespace(ns(db, c), false)
	return nil
}

// replaceTimeseries is $out into a time-series collection
// (DocumentSourceOut::validateTimeseries and initialize): with the
// timeseries option (spec), the target is created as a time-series
// collection with those options, or must already be one whose options
// equal them (timeseries::optionsAreEqual); without it (spec nil, from
// replaceCollection), the existing time-series target keeps its options.
// Its measurements are replaced by the documents. mongod writes a
// temporary collection and renames it over the target; the sandbox checks
// every document's time field before it touches the target, so that a
// failing $out leaves it as it was.
func (e *Engine) replaceTimeseries(req *request, db, c string, spec bson.D, docs []bson.D) error {
	if err := catalog.ValidateNamespace(db, c); err != nil {
		return err
	}
	existing := e.catalog.Snapshot(db, c)
	var have timeseries.Options
	if existing != nil && existing.Kind == catalog.KindTimeseries {
		stored, _ := value.Get(existing.Options, "timeseries").(bson.D)
		have = timeseries.FromDocument(stored)
	}
	opts := have
	if spec == nil && opts.TimeField == "" {
		// replaceCollection saw a time-series target that has since been
		// dropped or replaced; mongod's rename finds the options changed.
		return mongoerr.Newf(mongoerr.CommandFailed, "collection options of target collection %s changed during processing", ns(db, c))
	}
	if spec != nil {
		var err error
		if opts, err = timeseries.Parse(spec, ns(db, c)); err != nil {
			return err
		}
		if err := checkOutTimeseriesTarget(existing, spec, opts, have); err != nil {
			return err
		}
	}
	arr := make(bson.A, len(docs))
	sizes := make([]int, len(docs))
	for i, d := range docs {
		if _, ok := value.Get(d, opts.TimeField).(bson.DateTime); !ok {
			return mongoerr.Newf(mongoerr.BadValue, "'%s' must be present and contain a valid BSON UTC datetime value", opts.TimeField)
		}
		arr[i], sizes[i] = d, value.Size(d)
	}
	if existing == nil {
		create := *req
		create.db, create.name = db, "create"
		create.cmd = bson.D{{Key: "create", Value: c}, {Key: "timeseries", Value: spec}}
		if _, err := e.createTimeseries(&create, c); err != nil {
			return err
		}
	} else {
		err := e.writeTimeseries(db, c, func(ts *tsView) error {
			ts.buckets.Truncate()
			e.buckets.Forget(ts.buckets)
			return nil
		})
		if err != nil {
			return err
		}
	}
	target := *req
	target.db = db
	_, werrs, err := e.insertTimeseries(&target, c, arr, sizes, true, 0)
	if err != nil {
		return err
	}
	if len(werrs) > 0 {
		return werrs[0].err
	}
	e.cursors.killNamespace(ns(db, c), false)
	return nil
}

// checkOutTimeseriesTarget is 8.0's validateTimeseries for an $out given
// the timeseries option: an existing collection or view that is not a
// time-series collection fails (7268700, 7268703), an existing
// time-series collection must have the options asked for (7406103).
// opts is spec parsed, have the existing collection's options.
func checkOutTimeseriesTarget(existing *catalog.Collection, spec bson.D, opts, have timeseries.Options) error {
	switch {
	case existing == nil:
		return nil
	case existing.Kind == catalog.KindView:
		return mongoerr.New(mongoerr.ErrOutTimeseriesFromView, "Cannot create a time-series collection from a non time-series view.")
	case existing.Kind != catalog.KindTimeseries:
		return mongoerr.New(mongoerr.ErrOutTimeseriesFromCollection, "Cannot create a time-series collection from a non time-series collection.")
	}
	// optionsAreEqual (timeseries_options.cpp): the time and meta fields,
	// the granularity (none counts as seconds) and the bucket span.
	granularity := func(o timeseries.Options) string {
		if o.Granularity == "" {
			return "seconds"
		}
		return o.Granularity
	}
	if opts.TimeField == have.TimeField && opts.MetaField == have.MetaField &&
		granularity(opts) == granularity(have) && opts.BucketMaxSpanSeconds == have.BucketMaxSpanSeconds {
		return nil
	}
	// The message shows the option as parsed (the IDL struct's fields in
	// their declared order) and the collection's stored options.
	var received bson.D
	for _, f := range []string{"timeField", "metaField", "granularity", "bucketRoundingSeconds", "bucketMaxSpanSeconds"} {
		if v := value.Get(spec, f); !value.IsMissing(v) {
			received = append(received, bson.E{Key: f, Value: v})
		}
	}
	stored, _ := value.Get(existing.Options, "timeseries").(bson.D)
	return mongoerr.Newf(mongoerr.ErrOutTimeseriesOptionsMismatch, "Time-series options inputted must match the existing time-series collection. Received: %sFound: %s",
		value.FormatDoc(received), value.FormatDoc(stored))
}

// findRecord locates the stored record of a document read earlier in the
// same command, by _id through the _id index. c is live, under its write
// lock.
func findRecord(c *catalog.Collection, doc bson.D) (int64, bool) {
	id := value.Get(doc, "_id")
	f, err := query.Compile(bson.D{{Key: "_id", Value: bson.D{{Key: "$eq", Value: id}}}}, query.Options{})
	if err != nil {
		return 0, false
	}
	exec, err := planner.Plan(c, c.NS(), planner.Query{Filter: f, Limit: 1})
	if err != nil {
		return 0, false
	}
	r, ok, _ := exec.Next()
	return r.RID, ok
}

// preparedPipeline is a parsed pipeline, its leading $match and $sort
// pushed into a plan executor over the snapshot (exec is nil for a
// collection-less pipeline such as $documents).
type preparedPipeline struct {
	p    *aggregate.Pipeline
	exec *planner.Executor
	ctx  *aggregate.Context
	// holes is the leading exclusion the plan shows but the input runs,
	// because the holes it leaves reach a later stage.
	holes *projection.Projection
	// recordIDs: the plan's projection reads {$meta: "recordId"}, so its
	// documents carry their record ids on into the pipeline, the metadata
	// ProjectionStageDefault::transform copied into the working set member.
	recordIDs bool
}

// preparePipeline parses a pipeline and plans its leading $match and
// $sort over view's snapshot of coll.
func (e *Engine) preparePipeline(req *request, view *catalog.View, coll string, pipeline bson.A, let bson.D, hint any) (*preparedPipeline, error) {
	actx := e.pipelineContext(req, view, coll, let)
	p, err := aggregate.Parse(pipeline, actx)
	if err != nil {
		return nil, err
	}
	if coll == "" {
		// Parse refused a first stage that needs a collection; an empty
		// pipeline is refused as mongod names it.
		if len(p.Stages()) == 0 {
			return nil, mongoerr.New(mongoerr.InvalidNamespace, "{aggregate: 1} is not valid for '$match'; a collection is required.")
		}
		return &preparedPipeline{p: p, ctx: actx}, nil
	}
	if len(p.Stages()) > 0 && collectionlessStage(p.Stages()[0].Name()) && p.Stages()[0].Name() == "$documents" {
		return nil, mongoerr.New(mongoerr.InvalidNamespace, "$documents' is not allowed in user requests: aggregate must be run against the database, not a collection")
	}
	if len(p.Stages()) > 0 && noInputStage(p.Stages()[0].Name()) {
		return &preparedPipeline{p: p, ctx: actx}, nil
	}
	if key, ok := p.LeadingGeoNear(); ok {
		// PipelineD::buildInnerQueryExecutorGeoNear (pipeline_d.cpp): the
		// collection must exist and, without a key, hold one 2d or
		// 2dsphere index; the sandbox builds neither kind.
		if view.Collection(req.db, coll) == nil {
			return nil, mongoerr.Newf(mongoerr.NamespaceNotFound, "$geoNear requires a geo index to run, but %s does not exist", ns(req.db, coll))
		}
		if key == "" {
			return nil, mongoerr.New(mongoerr.IndexNotFound, "$geoNear requires a 2d or 2dsphere index, but none were found")
		}
		return nil, mongoerr.New(mongoerr.NotImplemented,
			"$geoNear is not supported by the schemalab sandbox; run this step against a real MongoDB with --uri")
	}
	target := view.Collection(req.db, coll)
	if size, ok := p.LeadingSample(); ok && target != nil && planner.RandomCursorSample(size, target.Count()) {
		// PipelineD::buildInnerQueryExecutorSample (pipeline_d.cpp): a
		// small sample of a large collection reads a random cursor, and
		// $sampleFromRandomCursor takes the stage's place.
		p.ReplaceLeadingSample()
		exec, err := e.plan(target, ns(req.db, coll), planner.Query{RandomSample: size, Ctx: req.ctx, Explain: req.explain})
		if err != nil {
			return nil, err
		}
		return &preparedPipeline{p: p, exec: exec, ctx: actx}, nil
	}
	q := planner.Query{Hint: hint, Ctx: req.ctx, NoDiskUse: req.noDiskUse, Explain: req.explain}
	if filter, ok := p.LeadingMatch(); ok {
		f, err := query.Compile(filter, query.Options{Now: req.now, LetVars: p.LetValues(), JSONSchema: validation.CompileSchema})
		if err != nil {
			return nil, err
		}
		q.Filter = f
		q.Shape = &planner.Shape{Filter: filter}
		p.RemoveLeading(1)
	}
	unpackSort, preference := boundedSortCandidate(target, p)
	q.TraversalPreference = preference
	pushed := false
	if sort, limit, ok := p.LeadingSort(); ok {
		q.Sort, q.Limit = sort, limit
		p.RemoveLeading(1)
		pushed = true
	}
	// The $limit and $skip stages that follow, past stages that keep
	// every document, go to the query layer too (createCanonicalQuery,
	// pipeline_d.cpp): a limit before a skip becomes the skip and what is
	// left of the limit (LimitThenSkip::flip). After a sort, every $limit
	// was folded into it already.
	if limit, skip, removed := p.LeadingLimitSkip(); len(removed) > 0 {
		lim := q.Limit
		if limit != 0 && (lim == 0 || limit < lim) {
			lim = limit
		}
		switch {
		case lim == 0:
			q.Skip = skip
		case lim > skip:
			q.Skip, q.Limit = skip, lim-skip
		default:
			// Nothing is left once skipped: the stages keep that answer.
			removed = nil
		}
		p.Remove(removed...)
		pushed = pushed || len(removed) > 0
	}
	// The DISTINCT_SCAN rewrite looks at the pipeline's front before the
	// projection goes down (prepareExecutor, pipeline_d.cpp): a $group
	// behind a leading $project reads the projected documents, which the
	// scan's would not be.
	_, distinctGroupLeads := p.LeadingDistinctGroup()
	// buildProjectionForPushdown (pipeline_d.cpp): an inclusion $project at
	// the front is handed to the query layer and leaves the pipeline, but
	// one with expressions only when no sort, skip or limit went down
	// (they must run before the expressions). Failing that, the fields the
	// stages need; failing that, an exclusion at the front.
	leading, inclusion, hasLeading := p.LeadingProjection()
	var holes *projection.Projection
	if p.NeedsNoContent() {
		q.NoContent = true
	} else if hasLeading && !(pushed && !leading.Simple()) && inclusion {
		q.Projection = aggProjector(leading)
		p.RemoveLeading(1)
	} else if deps, fieldsOnly, ok := p.DependencyProjection(); ok {
		proj, err := projection.Compile(deps, projection.Options{Now: req.now})
		if err != nil {
			return nil, err
		}
		q.Projection = projector(proj)
		if fieldsOnly {
			// The stages read only the projected fields, so a stored
			// document serves them as its projection would, without a copy
			// of each (explain still shows the PROJECTION stage, as
			// mongod's does). A covered plan's documents are built from the
			// index keys either way.
			q.Projection.Apply = unprojected
		}
	} else if hasLeading && !(pushed && !leading.Simple()) {
		q.Projection = aggProjector(leading)
		if p.LeadingHolesMatter() {
			// The plan's PROJECTION_DEFAULT hands the pipeline the
			// Documents it projected, holes and all (getNextDocument,
			// DocumentSourceCursor); the plan shows the stage and the
			// pipeline's input runs it, to learn them.
			q.Projection.Apply = unprojected
			holes = leading
		}
		p.RemoveLeading(1)
	}
	// A $project or $addFields left at the front reads the metadata the
	// plan's documents carry, as DocumentSourceCursor hands it on.
	q.IndexKey = p.LeadingNeedsIndexKey()
	q.SortKey = p.LeadingNeedsSortKey()
	if distinctGroupLeads {
		if exec, ok := e.planDistinctGroup(target, ns(req.db, coll), p, q); ok {
			return &preparedPipeline{p: p, exec: exec, ctx: actx, holes: holes}, nil
		}
	}
	exec, err := e.plan(target, ns(req.db, coll), q)
	if err != nil {
		return nil, err
	}
	if unpackSort.Boundable {
		if leaf, ok := exec.ScanLeaf(); ok {
			if err := boundSort(p, unpackSort, leaf); err != nil {
				return nil, err
			}
		}
	}
	return &preparedPipeline{p: p, exec: exec, ctx: actx, holes: holes, recordIDs: q.Projection != nil && q.Projection.RecordID}, nil
}

// planDistinctGroup runs a leading $group that takes one document per
// group over a DISTINCT_SCAN, when the query layer has one for it
// (tryPrepareDistinctExecutor, pipeline_d.cpp): the $group becomes
// $groupByDistinctScan. A $top or $bottom's sortBy is the order asked of
// the scan, and only of it: without a DISTINCT_SCAN the query is planned
// unsorted, as before. A $sort that absorbed a $limit left q a limit,
// which no DISTINCT_SCAN takes.
func (e *Engine) planDistinctGroup(c *catalog.Collection, namespace string, p *aggregate.Pipeline, q planner.Query) (*planner.Executor, bool) {
	dg, ok := p.LeadingDistinctGroup()
	if !ok {
		return nil, false
	}
	if dg.Sort != nil {
		q.Sort = dg.Sort
	}
	q.DistinctKey, q.StrictDistinct, q.FlipDistinct = dg.Key, true, dg.Flip
	exec, ok := planner.PlanDistinct(c, namespace, q)
	if !ok {
		return nil, false
	}
	e.usage.record(c, exec.UsedIndex())
	p.ReplaceDistinctGroup(dg)
	return exec, true
}

// aggProjector is a pipeline's $project run by the query layer; explain
// shows it as the stage serializes it (serializeTransformation), not as
// the user wrote it.
func aggProjector(p *projection.Projection) *planner.Projector {
	pr := projector(p)
	pr.Spec = aggregate.TransformationSpec(p)
	return pr
}

// unprojected is a Projector's Apply that hands the document on as it is.
func unprojected(_ func() context.Context, doc bson.D, _ int, _ bson.D, _ int64, _ bson.A) (bson.D, error) {
	return doc, nil
}

// collectionlessStage: the stages that run as {aggregate: 1}.
func collectionlessStage(name string) bool {
	s, ok := stages.Lookup(name)
	return ok && s.Collectionless
}

// noInputStage: a first stage that reads no documents of the collection.
func noInputStage(name string) bool {
	s, ok := stages.Lookup(name)
	return ok && s.NoInput
}

// input is what feeds the pipeline: the plan's results, or nothing.
func (pp *preparedPipeline) input() aggregate.Iterator {
	if pp.exec == nil {
		return aggregate.NewSliceIterator(nil)
	}
	if pp.holes != nil {
		return &holedExecutorIterator{executorIterator: executorIterator{exec: pp.exec}, proj: pp.holes, ctx: pp.ctx}
	}
	return &executorIterator{exec: pp.exec, recordIDs: pp.recordIDs}
}

// stream runs the pipeline lazily, for a cursor.
func (pp *preparedPipeline) stream() (resultStream, error) {
	it, err := pp.p.Run(pp.input())
	if err != nil {
		return resultStream{}, err
	}
	return resultStream{
		next: it.Next,
		bind: func(ctx context.Context) {
			pp.ctx.Ctx = ctx
			if pp.exec != nil {
				pp.exec.SetContext(ctx)
			}
		},
		exec:    pp.exec,
		foreign: &pp.ctx.Examined,
	}, nil
}

func (pp *preparedPipeline) drain() ([]bson.D, error) {
	it, err := pp.p.Run(pp.input())
	if err != nil {
		return nil, err
	}
	return aggregate.Drain(it)
}

// executorIterator feeds planner results into a pipeline, keeping the
// last one's metadata for the stage that reads it.
type executorIterator struct {
	exec *planner.Executor
	keys *planner.Keys
	rid  int64
	// recordIDs: the documents carry their record ids (see
	// preparedPipeline.recordIDs); a plan without a projection reading
	// them leaves the metadata unset, as mongod's classic plans do.
	recordIDs bool
}

func (it *executorIterator) Next() (bson.D, bool, error) {
	r, ok, err := it.exec.Next()
	it.keys, it.rid = r.Keys, r.RID
	return r.Doc, ok, err
}

// Meta is the metadata of the document Next returned last.
func (it *executorIterator) Meta() aggregate.Meta {
	m := aggregate.Meta{IndexKey: it.keys.IndexKey(), SortKey: it.keys.SortKey()}
	if it.recordIDs {
		m.RecordID = it.rid
	}
	return m
}

// holedExecutorIterator is an executorIterator that runs the pushed-down
// exclusion itself, keeping the holes it leaves.
type holedExecutorIterator struct {
	executorIterator
	proj  *projection.Projection
	ctx   *aggregate.Context
	holes *projection.Holes
}

func (it *holedExecutorIterator) Next() (bson.D, bool, error) {
	d, ok, err := it.executorIterator.Next()
	if !ok || err != nil {
		return nil, ok, err
	}
	m := it.Meta()
	out, err := it.proj.ApplyMeta(func() context.Context { return it.ctx.Ctx }, d, -1, m.IndexKey, m.RecordID, m.SortKey)
	if err != nil {
		return nil, false, err
	}
	out, it.holes = it.proj.CarryHoles(d, out, nil)
	return out, true, nil
}

// Holes is what the exclusion left in the document Next returned last.
func (it *holedExecutorIterator) Holes() *projection.Holes { return it.holes }

func cmdAggregate(e *Engine, req *request) (bson.D, error) {
	if out, ok, err := e.readCommand(req); ok {
		return out, err
	}
	s, err := parseAggregate(req)
	if err != nil {
		return nil, err
	}
	if s.explain {
		return e.explainPipeline(req, s, "queryPlanner", e.pipelineView(req.db, s.coll, s.pipeline))
	}
	const errContext = "PlanExecutor error during aggregation"
	pp, err := e.preparePipeline(req, e.pipelineView(req.db, s.coll, s.pipeline), s.coll, s.pipeline, s.let, s.hint)
	if err != nil {
		return nil, err
	}
	nsName := ns(req.db, s.coll)
	if s.coll == "" {
		nsName = ns(req.db, "$cmd.aggregate")
	}
	if writesTo(s.pipeline) {
		// $out and $merge write as they go and return no documents.
		if _, err := pp.drain(); err != nil {
			return nil, executorError(errContext, err)
		}
		st := sliceStream(nil)
		st.exec, st.foreign = pp.exec, &pp.ctx.Examined
		return e.firstBatch(req, nsName, st, s.batchSize, s.hasBatch, false, errContext)
	}
	st, err := pp.stream()
	if err != nil {
		return nil, executorError(errContext, err)
	}
	st.idleAtZero = true
	return e.firstBatch(req, nsName, st, s.batchSize, s.hasBatch, false, errContext)
}

// collStatsStage renders one $collStats output document of db.coll as
// view holds it.
func (e *Engine) collStatsStage(view *catalog.View, db, coll string, spec bson.D) (bson.D, error) {
	c := view.Collection(db, coll)
	host, _ := os.Hostname()
	out := bson.D{
		{Key: "ns", Value: ns(db, coll)},
		{Key: "host", Value: host},
		{Key: "localTime", Value: bson.NewDateTimeFromTime(time.Now())},
	}
	// makeStatsForNs (document_source_coll_stats.cpp) appends the options
	// in this order, whatever the order of the spec.
	var ordered []bson.E
	for _, key := range []string{"latencyStats", "storageStats", "count", "queryExecStats"} {
		for _, f := range spec {
			if f.Key == key {
				ordered = append(ordered, f)
			}
		}
	}
	for _, f := range ordered {
		switch f.Key {
		case "latencyStats":
			histograms := false
			if d, ok := f.Value.(bson.D); ok {
				histograms = expr.IsTrue(value.Get(d, "histograms"))
			}
			out = append(out, bson.E{Key: "latencyStats", Value: e.top.latencyStats(ns(db, coll), histograms)})
		case "storageStats":
			if c == nil {
				return nil, mongoerr.Newf(mongoerr.NamespaceNotFound, "Unable to retrieve storageStats in $collStats stage :: caused by :: Collection [%s] not found.", ns(db, coll))
			}
			// The stage's parser has validated scale.
			scale := int64(1)
			if d, ok := f.Value.(bson.D); ok {
				if n, ok := value.SafeNumberLong(value.Get(d, "scale")); ok {
					scale = n
				}
			}
			if c.Kind == catalog.KindView {
				// appendStorageStats reads a collection: a view is refused
				// as where views are forbidden, in the stage's context.
				return nil, mongoerr.Newf(mongoerr.CommandNotSupportedOnView, "Unable to retrieve storageStats in $collStats stage :: caused by :: Namespace %s is a view, not a collection", ns(db, coll))
			}
			if ts, ok := timeseriesIn(view, db, coll); ok {
				out = append(out, bson.E{Key: "storageStats", Value: e.timeseriesCollStats(ts, storagestats.StorageStats(ts.buckets, scale))})
				continue
			}
			out = append(out, bson.E{Key: "storageStats", Value: storagestats.StorageStats(c, scale)})
		case "count":
			// appendCollectionRecordCount (storage_stats.cpp) fails for a
			// collection that does not exist, and makeStatsForNs puts the
			// stage's context before its reason.
			if c == nil {
				return nil, mongoerr.Newf(mongoerr.NamespaceNotFound, "Unable to retrieve count in $collStats stage :: caused by :: Collection [%s] not found.", ns(db, coll))
			}
			out = append(out, bson.E{Key: "count", Value: int64(c.Count())})
		case "queryExecStats":
			// appendQueryExecStats (common_mongod_process_interface.cpp)
			// reads the collection's scan counters and fails, as count
			// does, when there is no collection.
			if c == nil {
				return nil, mongoerr.Newf(mongoerr.NamespaceNotFound, "Unable to retrieve queryExecStats in $collStats stage :: caused by :: Collection [%s] not found.", ns(db, coll))
			}
			scans := e.usage.scansOf(c)
			out = append(out, bson.E{Key: "queryExecStats", Value: bson.D{{Key: "collectionScans", Value: bson.D{
				{Key: "total", Value: scans.total}, {Key: "nonTailable", Value: scans.nonTailable}}}}})
		}
	}
	styled := appendNumberStyleDoc(out)
	for i := range styled {
		// OperationLatencyHistogram appends its figures as longs, and
		// appendQueryExecStats its scan counters.
		if styled[i].Key == "latencyStats" || styled[i].Key == "queryExecStats" {
			styled[i].Value = value.Get(out, styled[i].Key)
		}
	}
	return styled, nil
}

func (e *Engine) indexStatsStage(c *catalog.Collection) []bson.D {
	if c == nil {
		return nil
	}
	host, _ := os.Hostname()
	var out []bson.D
	for _, ix := range c.Indexes() {
		if ix.Spec.IsID() && clusteredByID(c) {
			continue // clustered by _id: no _id index (indexSpecs)
		}
		ops, since := e.usage.get(c, ix.Spec.Name, e.started)
		out = append(out, bson.D{
			{Key: "name", Value: ix.Spec.Name},
			{Key: "key", Value: ix.Spec.Key},
			{Key: "host", Value: host},
			{Key: "accesses", Value: bson.D{{Key: "ops", Value: ops}, {Key: "since", Value: bson.NewDateTimeFromTime(since)}}},
			{Key: "spec", Value: ix.Spec.Document()},
		})
	}
	return out
}
