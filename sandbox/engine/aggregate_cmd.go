package engine

import (
	"os"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/aggregate"
	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/storagestats"
	"github.com/schemalab/schemalab/sandbox/engine/value"
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
		if v == "" {
			return nil, mongoerr.Newf(mongoerr.InvalidNamespace, "Invalid namespace specified '%s.'", req.db)
		}
		s.coll = v
	case int32, int64, float64:
		if n, _ := toInt64(v); n != 1 {
			return nil, mongoerr.New(mongoerr.FailedToParse, "Invalid command format: the 'aggregate' field must specify a collection name or 1")
		}
	default:
		return nil, mongoerr.New(mongoerr.FailedToParse, "Invalid command format: the 'aggregate' field must specify a collection name or 1")
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
	s.pipeline = p
	if s.explain, err = a.boolean("explain", false); err != nil {
		return nil, err
	}
	cur, hasCursor, err := a.document("cursor")
	if err != nil {
		return nil, err
	}
	if !hasCursor && !s.explain {
		return nil, mongoerr.New(mongoerr.FailedToParse, "The 'cursor' option is required, except for aggregate with the explain argument")
	}
	if s.batchSize, s.hasBatch, err = (args{prefix: "aggregate.cursor", doc: cur}).int64Arg("batchSize"); err != nil {
		return nil, err
	}
	if s.batchSize < 0 {
		return nil, mongoerr.Newf(51024, "BSON field 'batchSize' value must be >= 0, actual value '%d'", s.batchSize)
	}
	if h, ok := a.get("hint"); ok {
		if hd, isDoc := h.(bson.D); !isDoc || len(hd) > 0 {
			s.hint = h
		}
	}
	if s.let, _, err = a.document("let"); err != nil {
		return nil, err
	}
	if err := parseAllowDiskUse(req, a); err != nil {
		return nil, err
	}
	return s, checkCollation(a)
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
	return ok && len(last) > 0 && (last[0].Key == "$out" || last[0].Key == "$merge")
}

// pipelineContext connects the pipeline's cross-collection stages to the
// catalog. The caller holds the engine lock (write lock for $out and
// $merge) for the whole command, so these callbacks take none.
func (e *Engine) pipelineContext(req *request, coll string, let bson.D) *aggregate.Context {
	ctx := &aggregate.Context{Ctx: req.ctx, DB: req.db, Now: req.now, Let: let, Coll: coll, NoDiskUse: req.noDiskUse}
	ctx.Query = func(db, c string, filter, sort bson.D, limit int64) ([]bson.D, error) {
		q := planner.Query{Sort: sort, Limit: limit}
		if len(filter) > 0 {
			f, err := query.Compile(filter, query.Options{Now: req.now})
			if err != nil {
				return nil, err
			}
			q.Filter = f
		}
		exec, err := e.plan(e.catalog.Collection(db, c), ns(db, c), q)
		if err != nil {
			return nil, err
		}
		return runPlan(exec)
	}
	ctx.Pipeline = func(db, c string, pipeline bson.A, subLet bson.D) ([]bson.D, error) {
		sub := *req
		sub.db = db
		p, exec, err := e.preparePipeline(&sub, c, pipeline, subLet, nil)
		if err != nil {
			return nil, err
		}
		return drainPipeline(p, exec)
	}
	ctx.ReplaceCollection = func(db, c string, docs []bson.D) error {
		if err := catalog.ValidateNamespace(db, c); err != nil {
			return err
		}
		if _, ok := e.timeseriesView(db, c); ok {
			return errTimeseriesTarget("$out")
		}
		old := e.catalog.Collection(db, c)
		var oldOpts bson.D
		if old != nil {
			oldOpts = old.Options
		}
		// The replacement keeps the target's options, its validator among
		// them, and its documents are validated like inserts.
		tmp, err := e.catalog.CreateCollection(db, "tmp.agg_out."+bson.NewObjectID().Hex(), oldOpts)
		if err != nil {
			return err
		}
		if old != nil {
			tmp.Validator = old.Validator
		}
		if old != nil {
			for _, ix := range old.Indexes()[1:] {
				if _, err := tmp.CreateIndex(ix.Spec); err != nil {
					e.catalog.DropCollection(db, tmp.Name)
					return err
				}
			}
		}
		for _, d := range docs {
			doc, perr := prepareInsert(d)
			if perr == nil {
				perr = e.validateWrite(req, tmp, nil, doc)
			}
			if perr != nil {
				e.catalog.DropCollection(db, tmp.Name)
				return perr
			}
			if _, err := tmp.Insert(doc); err != nil {
				e.catalog.DropCollection(db, tmp.Name)
				return err
			}
		}
		return e.catalog.RenameCollection(db, tmp.Name, db, c, true)
	}
	ctx.MergeLookup = func(db, c string, on []string, doc bson.D) (bson.D, bool, error) {
		target := e.catalog.Collection(db, c)
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
		exec, err := e.plan(target, ns(db, c), planner.Query{Filter: f, Limit: 1})
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
		if _, ok := e.timeseriesView(db, c); ok {
			return errTimeseriesTarget("$merge")
		}
		target, err := e.catalog.EnsureCollection(db, c)
		if err != nil {
			return err
		}
		if insert {
			doc, perr := prepareInsert(newDoc)
			if perr == nil {
				perr = e.validateWrite(req, target, nil, doc)
			}
			if perr != nil {
				return perr
			}
			_, err := target.Insert(doc)
			return err
		}
		rid, ok := findRecord(target, old)
		if !ok {
			return nil
		}
		if id := value.Get(old, "_id"); value.IsMissing(value.Get(newDoc, "_id")) {
			// whenMatched replacements keep the target document's _id.
			newDoc = append(bson.D{{Key: "_id", Value: id}}, newDoc...)
		}
		if err := checkIDUnchanged(old, newDoc); err != nil {
			return err
		}
		if value.Size(newDoc) > value.MaxUserDocumentSize {
			return mongoerr.Newf(17419, "Resulting document after update is larger than %d", value.MaxUserDocumentSize)
		}
		if err := e.validateWrite(req, target, old, newDoc); err != nil {
			return err
		}
		return target.Replace(rid, newDoc)
	}
	ctx.CollStats = func(db, c string, spec bson.D) (bson.D, error) {
		return e.collStatsStage(db, c, spec)
	}
	ctx.IndexStats = func(db, c string) ([]bson.D, error) {
		return e.indexStatsStage(db, c), nil
	}
	return ctx
}

// findRecord locates the stored record of a document read earlier in the
// same command, by _id through the _id index.
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

// preparePipeline parses a pipeline and pushes its leading $match and
// $sort into a planner executor over coll (nil executor for a
// collection-less pipeline such as $documents).
func (e *Engine) preparePipeline(req *request, coll string, pipeline bson.A, let bson.D, hint any) (*aggregate.Pipeline, *planner.Executor, error) {
	p, err := aggregate.Parse(pipeline, e.pipelineContext(req, coll, let))
	if err != nil {
		return nil, nil, err
	}
	if coll == "" {
		if len(p.Stages()) == 0 || !collectionlessStage(p.Stages()[0].Name()) {
			name := "$match"
			if len(p.Stages()) > 0 {
				name = p.Stages()[0].Name()
			}
			return nil, nil, mongoerr.Newf(mongoerr.InvalidNamespace, "{aggregate: 1} is not valid for '%s'; a collection is required.", name)
		}
		return p, nil, nil
	}
	if len(p.Stages()) > 0 && collectionlessStage(p.Stages()[0].Name()) && p.Stages()[0].Name() == "$documents" {
		return nil, nil, mongoerr.New(mongoerr.InvalidNamespace, "$documents' is not allowed in user requests: aggregate must be run against the database, not a collection")
	}
	q := planner.Query{Hint: hint, NoDiskUse: req.noDiskUse}
	pushed := 0
	if filter, ok := p.LeadingMatch(); ok {
		f, err := query.Compile(filter, query.Options{Now: req.now, LetVars: p.LetValues()})
		if err != nil {
			return nil, nil, err
		}
		q.Filter = f
		pushed++
		p.RemoveLeading(1)
	}
	if sort, limit, ok := p.LeadingSort(); ok {
		q.Sort, q.Limit = sort, limit
		pushed++
		p.RemoveLeading(1)
	}
	exec, err := e.plan(e.catalog.Collection(req.db, coll), ns(req.db, coll), q)
	if err != nil {
		return nil, nil, err
	}
	return p, exec, nil
}

func collectionlessStage(name string) bool {
	switch name {
	case "$documents", "$currentOp", "$listLocalSessions", "$changeStream", "$queue":
		return true
	}
	return false
}

// executorIterator feeds planner results into a pipeline.
type executorIterator struct{ exec *planner.Executor }

func (it executorIterator) Next() (bson.D, bool, error) {
	r, ok, err := it.exec.Next()
	return r.Doc, ok, err
}

type aggregateIterator = aggregate.Iterator

type emptyIterator struct{}

func (emptyIterator) Next() (bson.D, bool, error) { return nil, false, nil }

func drainPipeline(p *aggregate.Pipeline, exec *planner.Executor) ([]bson.D, error) {
	var in aggregate.Iterator = emptyIterator{}
	if exec != nil {
		in = executorIterator{exec: exec}
	}
	it, err := p.Run(in)
	if err != nil {
		return nil, err
	}
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

func cmdAggregate(e *Engine, req *request) (bson.D, error) {
	if out, ok, err := e.timeseriesRead(req); ok {
		return out, err
	}
	s, err := parseAggregate(req)
	if err != nil {
		return nil, err
	}
	if s.explain {
		return e.explainAggregate(req, s, "queryPlanner")
	}
	if writesTo(s.pipeline) {
		e.mu.Lock()
		defer e.mu.Unlock()
	} else {
		e.mu.RLock()
		defer e.mu.RUnlock()
	}
	p, exec, err := e.preparePipeline(req, s.coll, s.pipeline, s.let, s.hint)
	if err != nil {
		return nil, err
	}
	docs, err := drainPipeline(p, exec)
	if err != nil {
		return nil, executorError("PlanExecutor error during aggregation", err)
	}
	nsName := ns(req.db, s.coll)
	if s.coll == "" {
		nsName = ns(req.db, "$cmd.aggregate")
	}
	return e.cursors.firstBatch(nsName, docs, s.batchSize, s.hasBatch, false), nil
}

// collStatsStage renders one $collStats output document.
func (e *Engine) collStatsStage(db, coll string, spec bson.D) (bson.D, error) {
	host, _ := os.Hostname()
	c := e.catalog.Collection(db, coll)
	out := bson.D{
		{Key: "ns", Value: ns(db, coll)},
		{Key: "host", Value: host},
		{Key: "localTime", Value: bson.NewDateTimeFromTime(time.Now())},
	}
	for _, f := range spec {
		switch f.Key {
		case "latencyStats":
			out = append(out, bson.E{Key: "latencyStats", Value: bson.D{
				{Key: "reads", Value: bson.D{{Key: "latency", Value: int64(0)}, {Key: "ops", Value: int64(0)}}},
				{Key: "writes", Value: bson.D{{Key: "latency", Value: int64(0)}, {Key: "ops", Value: int64(0)}}},
				{Key: "commands", Value: bson.D{{Key: "latency", Value: int64(0)}, {Key: "ops", Value: int64(0)}}},
				{Key: "transactions", Value: bson.D{{Key: "latency", Value: int64(0)}, {Key: "ops", Value: int64(0)}}},
			}})
		case "storageStats":
			if c == nil {
				return nil, mongoerr.Newf(mongoerr.NamespaceNotFound, "Unable to retrieve storageStats in $collStats stage :: caused by :: Collection [%s] not found.", ns(db, coll))
			}
			scale := int64(1)
			if d, ok := f.Value.(bson.D); ok {
				if v := value.Get(d, "scale"); !value.IsMissing(v) {
					n, isNum := toInt64(v)
					if !isNum {
						return nil, mongoerr.Newf(mongoerr.TypeMismatch, "BSON field '$collStats.storageStats.scale' is the wrong type '%s', expected types '[long, int, decimal, double']", value.TypeName(v))
					}
					if n < 1 {
						return nil, mongoerr.Newf(51024, "BSON field 'scale' value must be >= 1, actual value '%d'", n)
					}
					scale = n
				}
			}
			if ts, ok := e.timeseriesView(db, coll); ok {
				out = append(out, bson.E{Key: "storageStats", Value: e.timeseriesCollStats(ts, storagestats.StorageStats(ts.buckets, scale))})
				continue
			}
			out = append(out, bson.E{Key: "storageStats", Value: storagestats.StorageStats(c, scale)})
		case "count":
			n := int64(0)
			if c != nil {
				n = int64(c.Count())
			}
			out = append(out, bson.E{Key: "count", Value: n})
		case "queryExecStats":
			out = append(out, bson.E{Key: "queryExecStats", Value: bson.D{{Key: "collectionScans", Value: bson.D{
				{Key: "total", Value: int64(0)}, {Key: "nonTailable", Value: int64(0)}}}}})
		}
	}
	return appendNumberStyleDoc(out), nil
}

func (e *Engine) indexStatsStage(db, coll string) []bson.D {
	c := e.catalog.Collection(db, coll)
	if c == nil {
		return nil
	}
	host, _ := os.Hostname()
	var out []bson.D
	for _, ix := range c.Indexes() {
		ops, since := e.usage.get(c.NS(), ix.Spec.Name, e.started)
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
