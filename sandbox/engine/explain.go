package engine

import (
	"os"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/aggregate"
	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// ServerVersion is the MongoDB version the sandbox reproduces; buildInfo,
// hello and explain's serverInfo report it.
const ServerVersion = "8.0.4"

// explainVerbosity validates explain's verbosity; mongod defaults the
// explain command to allPlansExecution.
func explainVerbosity(req *request) (string, error) {
	a := newArgs(req)
	if err := a.checkKnown(true, "verbosity"); err != nil {
		return "", err
	}
	v, ok, err := a.str("verbosity")
	if err != nil {
		return "", err
	}
	if !ok {
		return "allPlansExecution", nil
	}
	switch v {
	case "queryPlanner", "executionStats", "allPlansExecution":
		return v, nil
	}
	return "", mongoerr.Newf(mongoerr.BadValue,
		"Enumeration value '%s' for field 'explain.verbosity' is not a valid value.", v)
}

func cmdExplain(e *Engine, req *request) (bson.D, error) {
	sub, verbosity, c, err := e.parseExplain(req)
	if err != nil {
		return nil, err
	}
	if c.explain == nil {
		return nil, mongoerr.Newf(mongoerr.IllegalOperation, "Cannot explain cmd: %s", c.name)
	}
	return c.explain(e, sub, verbosity)
}

// parseExplain reads an explain command as CmdExplain::parse does: the
// explained command (a request of its own), the verbosity, and the
// command's table entry.
func (e *Engine) parseExplain(req *request) (*request, string, *command, error) {
	inner, ok := req.cmd[0].Value.(bson.D)
	if !ok {
		return nil, "", nil, mongoerr.Newf(mongoerr.TypeMismatch,
			"BSON field 'explain.explain' is the wrong type '%s', expected type 'object'", value.TypeName(req.cmd[0].Value))
	}
	if len(inner) == 0 {
		return nil, "", nil, mongoerr.New(mongoerr.FailedToParse, "explain command requires a nested object")
	}
	verbosity, err := explainVerbosity(req)
	if err != nil {
		return nil, "", nil, err
	}
	sub := *req
	sub.name = inner[0].Key
	sub.cmd = inner
	if db, ok := lookupString(inner, "$db"); ok && db != req.db {
		return nil, "", nil, mongoerr.Newf(mongoerr.InvalidNamespace,
			"Mismatched $db in explain command. Expected %s but got %s", req.db, db)
	}
	c, known := e.commands[sub.name]
	if !known {
		return nil, "", nil, mongoerr.Newf(mongoerr.CommandNotFound, "Explain failed due to unknown command: %s", sub.name)
	}
	return &sub, verbosity, c, nil
}

// explainExplain is the explain entry of explain itself: mongod parses
// the nested explain, then refuses (CmdExplain::Invocation::explain).
func explainExplain(e *Engine, req *request, _ string) (bson.D, error) {
	if _, _, _, err := e.parseExplain(req); err != nil {
		return nil, err
	}
	return nil, mongoerr.New(mongoerr.IllegalOperation, "Explain cannot explain itself.")
}

// overTimeseries makes explain of a read of a time-series collection
// explain the aggregate mongod runs for it; other collections go to
// explain.
func overTimeseries(explain explainer) explainer {
	return func(e *Engine, req *request, verbosity string) (bson.D, error) {
		if coll, ok := req.cmd[0].Value.(string); ok && e.isView(req.db, coll) {
			return e.explainView(req, verbosity)
		}
		if out, ok, err := e.explainTimeseries(req, verbosity); ok {
			return out, err
		}
		return explain(e, req, verbosity)
	}
}

// explainTail is what every explain ends with: the command as run, the
// server and the query knobs mongod reports.
func explainTail(req *request) bson.D {
	host, _ := os.Hostname()
	cmd := make(bson.D, 0, len(req.cmd)+1)
	hasDB := false
	for _, f := range req.cmd {
		if f.Key == "$db" {
			hasDB = true
		}
		if genericArguments[f.Key] && f.Key != "$db" {
			continue
		}
		cmd = append(cmd, f)
	}
	if !hasDB {
		cmd = append(cmd, bson.E{Key: "$db", Value: req.db})
	}
	return bson.D{
		{Key: "command", Value: cmd},
		{Key: "serverInfo", Value: bson.D{
			{Key: "host", Value: host},
			{Key: "port", Value: int32(27017)},
			{Key: "version", Value: ServerVersion},
			{Key: "gitVersion", Value: "schemalab-embedded"},
		}},
		{Key: "serverParameters", Value: bson.D{
			{Key: "internalQueryFacetBufferSizeBytes", Value: int32(value.MemoryLimit)},
			{Key: "internalQueryFacetMaxOutputDocSizeBytes", Value: int32(value.MemoryLimit)},
			{Key: "internalLookupStageIntermediateDocumentMaxSizeBytes", Value: int32(value.MemoryLimit)},
			{Key: "internalDocumentSourceGroupMaxMemoryBytes", Value: int32(value.MemoryLimit)},
			{Key: "internalQueryMaxBlockingSortMemoryUsageBytes", Value: int32(value.MemoryLimit)},
			{Key: "internalQueryProhibitBlockingMergeOnMongoS", Value: int32(0)},
			{Key: "internalQueryMaxAddToSetBytes", Value: int32(value.MemoryLimit)},
			{Key: "internalDocumentSourceSetWindowFieldsMaxMemoryBytes", Value: int32(value.MemoryLimit)},
			{Key: "internalQueryFrameworkControl", Value: "forceClassicEngine"},
			{Key: "internalQueryPlannerIgnoreIndexWithCollationForRegex", Value: int32(1)},
		}},
	}
}

// explainPlan runs exec as far as the verbosity requires and renders the
// queryPlanner and executionStats sections. wrap, when set, puts a write
// stage (UPDATE, DELETE) above the plan.
//
// An error while running the plan does not fail the explain: the executor
// records it for executionStats (executionSuccess: false, errorMessage,
// errorCode), as Explain::explainStages catches it (explain.cpp).
func explainPlan(exec *planner.Executor, verbosity string, wrap func(plan bson.D, exec bool) bson.D) bson.D {
	exec.EnableTiming()
	if verbosity != "queryPlanner" {
		for {
			if _, ok, err := exec.Next(); err != nil || !ok {
				break
			}
		}
	}
	return renderPlan(exec, verbosity, wrap)
}

// renderPlan renders the queryPlanner and executionStats sections of an
// executor that has run as far as it will.
func renderPlan(exec *planner.Executor, verbosity string, wrap func(plan bson.D, exec bool) bson.D) bson.D {
	qp := exec.QueryPlanner()
	if wrap != nil {
		qp = rewrapPlan(qp, "winningPlan", func(p bson.D) bson.D { return wrap(p, false) })
	}
	out := bson.D{{Key: "queryPlanner", Value: qp}}
	if verbosity != "queryPlanner" {
		st := exec.ExecutionStats(verbosity == "allPlansExecution")
		if wrap != nil {
			st = rewrapPlan(st, "executionStages", func(p bson.D) bson.D { return wrap(p, true) })
			// The plan's figures are its root's: an UPDATE or DELETE
			// returns no document.
			root, _ := value.Get(st, "executionStages").(bson.D)
			if n := value.Get(root, "nReturned"); !value.IsMissing(n) {
				st = setField(st, "nReturned", n)
			}
		}
		out = append(out, bson.E{Key: "executionStats", Value: st})
	}
	return out
}

// rewrapPlan replaces the plan document under key, keeping isCached at the
// top as mongod prints it.
func rewrapPlan(d bson.D, key string, wrap func(bson.D) bson.D) bson.D {
	out := make(bson.D, len(d))
	copy(out, d)
	for i, f := range out {
		if f.Key != key {
			continue
		}
		plan, _ := f.Value.(bson.D)
		inner := plan
		if len(plan) > 0 && plan[0].Key == "isCached" {
			inner = plan[1:]
		}
		out[i].Value = append(bson.D{{Key: "isCached", Value: false}}, wrap(inner)...)
	}
	return out
}

func explainReply(req *request, body bson.D) bson.D {
	out := bson.D{{Key: "explainVersion", Value: "1"}}
	out = append(out, appendNumberStyleDoc(body)...)
	return append(out, explainTail(req)...)
}

func (e *Engine) explainFind(req *request, verbosity string) (bson.D, error) {
	s, err := parseFind(req)
	if err != nil {
		return nil, err
	}
	q, err := plannerQuery(req, s)
	if err != nil {
		return nil, err
	}
	return e.explainQuery(req, s.coll, q, verbosity)
}

func (e *Engine) explainCount(req *request, verbosity string) (bson.D, error) {
	s, err := parseCount(req)
	if err != nil {
		return nil, err
	}
	q, err := countQuery(req, s)
	if err != nil {
		return nil, err
	}
	return e.explainQuery(req, s.coll, q, verbosity)
}

// explainQuery plans q over a snapshot of db.coll and renders the
// find-shaped explain (queryPlanner, executionStats, command, server).
func (e *Engine) explainQuery(req *request, coll string, q planner.Query, verbosity string) (bson.D, error) {
	q.Ctx, q.Explain = req.ctx, true
	exec, err := e.plan(e.catalog.Snapshot(req.db, coll), ns(req.db, coll), q)
	if err != nil {
		return nil, err
	}
	return explainReply(req, explainPlan(exec, verbosity, nil)), nil
}

func (e *Engine) explainDistinct(req *request, verbosity string) (bson.D, error) {
	s, key, err := parseDistinct(req)
	if err != nil {
		return nil, err
	}
	q, err := distinctQuery(req, s, key)
	if err != nil {
		return nil, err
	}
	return e.explainQuery(req, s.coll, q, verbosity)
}

// writeStage renders the UPDATE, DELETE or TS_MODIFY stage mongod puts
// above the query plan of a write; explain never performs the write.
// fields are the stage's own, which every verbosity shows (TS_MODIFY's
// opType and filters), after the common figures and before the counts.
func writeStage(name string, fields, counts bson.D, c *writeCounters) func(plan bson.D, exec bool) bson.D {
	return func(plan bson.D, exec bool) bson.D {
		d := bson.D{{Key: "stage", Value: name}}
		if exec {
			if c == nil {
				c = &writeCounters{works: lookupInt(plan, "works") + 1, needTime: lookupInt(plan, "works")}
			}
			d = append(d,
				bson.E{Key: "nReturned", Value: c.advanced},
				bson.E{Key: "executionTimeMillisEstimate", Value: lookupInt(plan, "executionTimeMillisEstimate")},
				bson.E{Key: "works", Value: c.works},
				bson.E{Key: "advanced", Value: c.advanced},
				bson.E{Key: "needTime", Value: c.needTime},
				bson.E{Key: "needYield", Value: int64(0)},
				bson.E{Key: "saveState", Value: int64(0)},
				bson.E{Key: "restoreState", Value: int64(0)},
				bson.E{Key: "isEOF", Value: int64(1)},
			)
		}
		d = append(d, fields...)
		if exec {
			d = append(d, counts...)
		}
		return append(d, bson.E{Key: "inputStage", Value: plan})
	}
}

// writeCounters are a write stage's works, advanced and needTime.
type writeCounters struct{ works, advanced, needTime int64 }

// countWrites follows DeleteStage::doWork and UpdateStage::doWork
// (delete_stage.cpp, update_stage.cpp), which work their plan once per
// work of their own, pulled works in all: the plan's end ends the stage
// on that work, and a result written is a NEED_TIME, or IS_EOF when the
// write takes one document (isEOF once it has written), or an ADVANCED
// when findAndModify returns it, the next work answering IS_EOF. The
// upsert that inserts and BATCHED_DELETE, which work otherwise, are left
// to writeStage's estimate (nil).
func countWrites(stage string, w explainedWrite, n, pulled int64) *writeCounters {
	switch {
	case stage == "BATCHED_DELETE" || n == 0 && w.upsert:
		return nil
	case w.returnsDocs && n > 0:
		return &writeCounters{works: pulled + 1, advanced: 1, needTime: pulled - 1}
	}
	return &writeCounters{works: pulled, needTime: pulled - 1}
}

// expressWrite renders the EXPRESS_UPDATE or EXPRESS_DELETE stage mongod
// 8.0 answers a single-document write by _id with: the express lookup and
// the write are one stage, with no UPDATE or DELETE above it.
func expressWrite(name string, counts bson.D) func(plan bson.D, exec bool) bson.D {
	return func(plan bson.D, exec bool) bson.D {
		d := bson.D{{Key: "stage", Value: name}}
		for _, f := range plan {
			if f.Key != "stage" && f.Key != "nReturned" {
				d = append(d, f)
			}
		}
		if exec {
			d = append(d, counts...)
		}
		return d
	}
}

func lookupInt(d bson.D, key string) int64 {
	n, _ := value.SafeNumberLong(value.Get(d, key))
	return n
}

// explainedStatement parses an update or delete command for explain,
// which takes exactly one statement.
func explainedStatement(req *request, field string) (*writeBatch, error) {
	b, err := parseWriteBatch(req, field, "bypassDocumentValidation")
	if err != nil {
		return nil, err
	}
	if len(b.statements) != 1 {
		return nil, mongoerr.New(mongoerr.InvalidLength, "explained write batches must be of size 1")
	}
	return b, nil
}

func (e *Engine) explainUpdate(req *request, verbosity string) (bson.D, error) {
	b, err := explainedStatement(req, "updates")
	if err != nil {
		return nil, err
	}
	st, err := parseUpdateStatement(0, b.statements[0], b.let)
	if err != nil {
		return nil, err
	}
	w := explainedWrite{single: !st.multi, upsert: st.upsert}
	return e.explainWrite(req, b.coll, st.filter, st.sort, st.hint, st.let, w, verbosity, func(n int64) bson.D {
		wouldUpsert := n == 0 && st.upsert
		return bson.D{
			{Key: "nMatched", Value: n},
			{Key: "nWouldModify", Value: n},
			{Key: "nWouldUpsert", Value: boolInt(wouldUpsert)},
		}
	}, "UPDATE")
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (e *Engine) explainDelete(req *request, verbosity string) (bson.D, error) {
	b, err := explainedStatement(req, "deletes")
	if err != nil {
		return nil, err
	}
	st, err := parseDeleteStatement(0, b.statements[0], b.let)
	if err != nil {
		return nil, err
	}
	if ts, _, ok := e.timeseriesView(req.db, b.coll); ok {
		return e.explainTimeseriesDelete(req, ts, st, verbosity)
	}
	return e.explainWrite(req, b.coll, st.filter, st.sort, st.hint, st.let, explainedWrite{single: !st.multi}, verbosity, func(n int64) bson.D {
		return bson.D{{Key: "nWouldDelete", Value: n}}
	}, "DELETE")
}

// batchesDeletes is ClassicPlannerInterface::addDeleteStage's batchDelete
// test (get_executor.cpp, 8.0) for what the sandbox can meet: a
// multi-document delete runs as BATCHED_DELETE (batchUserMultiDeletes
// defaults to true) outside the config database and on a collection
// without change stream pre- and post-images, which need the documents
// deleted one by one; a delete of one document (justOne, findAndModify)
// stays DELETE. Transactions and retryable writes, which also opt out,
// are not run here.
func batchesDeletes(coll *catalog.Collection) bool {
	if coll.DB == "config" {
		return false
	}
	enabled, _ := value.Lookup(coll.Options, "changeStreamPreAndPostImages.enabled").(bool)
	return !enabled
}

func (e *Engine) explainFindAndModify(req *request, verbosity string) (bson.D, error) {
	r, err := parseFindAndModify(req)
	if err != nil {
		return nil, err
	}
	// The explain of findAndModify acquires the collection for writing
	// and refuses a database that does not exist rather than create it
	// (find_and_modify.cpp; jstest core/query/explain/explain_find_and_modify.js);
	// one whose collections were all dropped still exists.
	if !e.catalog.DatabaseOpen(req.db) {
		return nil, mongoerr.Newf(mongoerr.NamespaceNotFound, "database %s does not exist", req.db)
	}
	if r.remove {
		return e.explainWrite(req, r.collName, r.filter, r.sort, r.hint, r.let, explainedWrite{single: true, returnsDocs: true, fields: r.fields}, verbosity, func(n int64) bson.D {
			return bson.D{{Key: "nWouldDelete", Value: n}}
		}, "DELETE")
	}
	w := explainedWrite{single: true, upsert: r.upsert, returnsDocs: true, returnsNew: r.returnNew, fields: r.fields}
	return e.explainWrite(req, r.collName, r.filter, r.sort, r.hint, r.let, w, verbosity, func(n int64) bson.D {
		return bson.D{{Key: "nMatched", Value: n}, {Key: "nWouldModify", Value: n}, {Key: "nWouldUpsert", Value: boolInt(n == 0 && r.upsert)}}
	}, "UPDATE")
}

// explainedWrite is what an explained write does with the documents it
// finds: one or all, an upsert or not, and whether it returns them
// (findAndModify) and the new one.
type explainedWrite struct {
	single, upsert, returnsDocs, returnsNew bool
	// fields is findAndModify's projection, nil for none.
	fields bson.D
}

func (e *Engine) explainWrite(req *request, collName string, filter, sort bson.D, hint any, let bson.D, w explainedWrite, verbosity string, counts func(n int64) bson.D, stage string) (bson.D, error) {
	// The explain acquires the collection for writing before it parses
	// the query, and a view is no collection (shard_role.cpp).
	if e.isView(req.db, collName) {
		return nil, errViewNotCollection(req.db, collName)
	}
	if e.isTimeseries(req.db, collName) {
		// mongod plans these on the buckets (an update of the metaField
		// as an UPDATE of the buckets, the rest as a TS_MODIFY stage);
		// the sandbox has no such plan for them, and an explain of the
		// view as a collection would show a plan mongod never runs.
		// Deletes are explained on the buckets (explainTimeseriesDelete).
		return nil, mongoerr.New(mongoerr.NotImplemented,
			"explain of an update or findAndModify on a time-series collection is not supported by the schemalab sandbox; run it against a real MongoDB with --uri")
	}
	single := w.single
	// A single-document write has no LIMIT stage: its UPDATE or DELETE
	// stage stops after the first match (mongod's plan is
	// DELETE>FETCH>IXSCAN for a deleteOne), so the plan runs only that far.
	if err := planner.CheckNatural(sort, hint); err != nil {
		return nil, err
	}
	q := planner.Query{Sort: sort, Hint: hint, Ctx: req.ctx, Explain: true, NoExpress: len(w.fields) > 0, PreserveRecordID: true}
	if len(filter) > 0 {
		f, err := query.Compile(filter, query.Options{Now: req.now, LetVars: let, JSONSchema: validation.CompileSchema})
		if err != nil {
			return nil, err
		}
		q.Filter = f
	}
	coll := e.catalog.Snapshot(req.db, collName)
	exec, err := e.plan(coll, ns(req.db, collName), q)
	if err != nil {
		return nil, err
	}
	if coll == nil {
		// getExecutorUpdate and getExecutorDelete answer a collection that
		// does not exist with an EOF plan alone, with no write stage above
		// it, upsert or not (explain_writecmd_nonexistent_collection.js).
		return explainReply(req, explainPlan(exec, verbosity, nil)), nil
	}
	if stage == "DELETE" && !single && batchesDeletes(coll) {
		stage = "BATCHED_DELETE"
	}
	var n int64
	exec.EnableTiming()
	if verbosity != "queryPlanner" {
		for {
			// An error is reported in executionStats (explainPlan).
			if _, ok, err := exec.Next(); err != nil || !ok {
				break
			}
			n++
			if single {
				break
			}
		}
	}
	wrap := writeStage(stage, nil, counts(n), countWrites(stage, w, n, exec.PulledWorks()))
	winning, _ := value.Get(exec.QueryPlanner(), "winningPlan").(bson.D)
	// A collection clustered by _id has no _id index: mongod 8.0 takes
	// the express path for its write by _id too (get_executor.cpp,
	// getExecutorUpdate/getExecutorDelete: an _id index or
	// clustered_util::isClusteredOnId, IdLookupOnClusteredCollection),
	// but never for an upsert.
	expressStage := value.Get(winning, "stage")
	if single && (expressStage == "EXPRESS_IXSCAN" || expressStage == "EXPRESS_CLUSTERED_IXSCAN" && !w.upsert) {
		if w.upsert && value.Get(winning, "indexName") == "_id_" {
			return explainReply(req, idHackUpsert(exec, verbosity, w, n, counts(n))), nil
		}
		// EXPRESS_UPDATE and EXPRESS_DELETE are mongod 8.0's express
		// stages for writes (explain results, "EXPRESS stages").
		wrap = expressWrite("EXPRESS_"+strings.TrimPrefix(stage, "BATCHED_"), counts(n))
	}
	out := renderPlan(exec, verbosity, wrap)
	if w.returnsDocs {
		out = returnedDocuments(out, w, n)
	}
	return explainReply(req, out), nil
}

// returnedDocuments is findAndModify's explain: the write stage returns
// the document it found, or the one it would insert when the new one is
// asked for, and a projection (fields) is PROJECTION_DEFAULT above it
// (jstest core/query/explain/explain_find_and_modify.js).
func returnedDocuments(out bson.D, w explainedWrite, n int64) bson.D {
	returned := int64(0)
	if n > 0 || w.upsert && w.returnsNew {
		returned = 1
	}
	project := func(plan bson.D, exec bool) bson.D {
		if len(w.fields) == 0 {
			return plan
		}
		d := bson.D{{Key: "stage", Value: "PROJECTION_DEFAULT"}}
		if exec {
			d = append(d, bson.E{Key: "nReturned", Value: returned},
				bson.E{Key: "executionTimeMillisEstimate", Value: lookupInt(plan, "executionTimeMillisEstimate")},
				bson.E{Key: "works", Value: lookupInt(plan, "works")}, bson.E{Key: "advanced", Value: returned},
				bson.E{Key: "needTime", Value: lookupInt(plan, "needTime")}, bson.E{Key: "needYield", Value: int64(0)},
				bson.E{Key: "saveState", Value: int64(0)}, bson.E{Key: "restoreState", Value: int64(0)}, bson.E{Key: "isEOF", Value: int64(1)})
		}
		return append(d, bson.E{Key: "transformBy", Value: w.fields}, bson.E{Key: "inputStage", Value: plan})
	}
	out = rewrapPlan(out, "queryPlanner", func(qp bson.D) bson.D {
		return rewrapPlan(qp, "winningPlan", func(p bson.D) bson.D { return project(p, false) })
	})
	for i, f := range out {
		st, ok := f.Value.(bson.D)
		if f.Key != "executionStats" || !ok {
			continue
		}
		st = rewrapPlan(st, "executionStages", func(p bson.D) bson.D { return project(p, true) })
		for j := range st {
			if st[j].Key == "nReturned" {
				st[j].Value = returned
			}
		}
		out[i].Value = st
	}
	return out
}

// idHackUpsert renders an upsert by _id as getExecutorUpdate plans it
// (get_executor.cpp): express takes no upserts, so it is UPDATE over
// IDHACK (InternalPlanner::updateWithIdHack), with no canonical query, so
// explain shows neither a parsed query nor its hashes. The UPDATE stage
// returns a document only for findAndModify: the one it found, or the
// one it would insert when the new one is asked for.
func idHackUpsert(exec *planner.Executor, verbosity string, w explainedWrite, n int64, counts bson.D) bson.D {
	qp := bson.D{}
	for _, f := range exec.QueryPlanner() {
		switch f.Key {
		case "parsedQuery", "queryHash", "planCacheShapeHash", "planCacheKey":
		case "winningPlan":
			qp = append(qp, bson.E{Key: "winningPlan", Value: bson.D{{Key: "isCached", Value: false}, {Key: "stage", Value: "UPDATE"},
				{Key: "inputStage", Value: bson.D{{Key: "stage", Value: "IDHACK"}}}}})
		default:
			qp = append(qp, f)
		}
	}
	out := bson.D{{Key: "queryPlanner", Value: qp}}
	if verbosity == "queryPlanner" {
		return out
	}
	returned := int64(0)
	if w.returnsDocs && (n > 0 || w.returnsNew) {
		returned = 1
	}
	st := exec.ExecutionStats(verbosity == "allPlansExecution")
	stats := bson.D{}
	for _, f := range st {
		switch f.Key {
		case "nReturned":
			stats = append(stats, bson.E{Key: "nReturned", Value: returned})
		case "executionStages":
			stages, _ := f.Value.(bson.D)
			millis := lookupInt(stages, "executionTimeMillisEstimate")
			common := func(returned, works int64) bson.D {
				return bson.D{{Key: "nReturned", Value: returned}, {Key: "executionTimeMillisEstimate", Value: millis},
					{Key: "works", Value: works}, {Key: "advanced", Value: returned}, {Key: "needTime", Value: works - returned},
					{Key: "needYield", Value: int64(0)}, {Key: "saveState", Value: int64(0)}, {Key: "restoreState", Value: int64(0)},
					{Key: "isEOF", Value: int64(1)}}
			}
			idhack := append(bson.D{{Key: "stage", Value: "IDHACK"}}, common(n, 1)...)
			idhack = append(idhack, bson.E{Key: "keysExamined", Value: lookupInt(st, "totalKeysExamined")},
				bson.E{Key: "docsExamined", Value: lookupInt(st, "totalDocsExamined")})
			update := append(bson.D{{Key: "isCached", Value: false}, {Key: "stage", Value: "UPDATE"}}, common(returned, 2)...)
			update = append(update, counts...)
			stats = append(stats, bson.E{Key: "executionStages", Value: append(update, bson.E{Key: "inputStage", Value: idhack})})
		default:
			stats = append(stats, f)
		}
	}
	return append(out, bson.E{Key: "executionStats", Value: stats})
}

func (e *Engine) explainAggregate(req *request, verbosity string) (bson.D, error) {
	s, err := parseAggregate(req)
	if err != nil {
		return nil, err
	}
	if err := refuseExplainWriteConcern(newArgs(req)); err != nil {
		return nil, err
	}
	return e.explainPipeline(req, s, verbosity, e.pipelineView(req.db, s.coll, s.pipeline))
}

// explainPipeline explains the pipeline s over view's snapshots.
func (e *Engine) explainPipeline(req *request, s *aggregateSpec, verbosity string, view *catalog.View) (bson.D, error) {
	req.explain = true
	pp, err := e.preparePipeline(req, view, s.coll, s.pipeline, s.let, s.hint)
	if err != nil {
		return nil, err
	}
	pp.ctx.Explain = true
	if pp.exec != nil && len(pp.p.Stages()) == 0 {
		return explainReply(req, markOptimizedAway(explainPlan(pp.exec, verbosity, nil))), nil
	}
	stages, err := explainedStages(pp, verbosity)
	if err != nil {
		return nil, err
	}
	// Each stage is a Document: what it serializes keeps its types, and
	// the figures executionStats adds are long longs
	// (appendCommonExecStats in pipeline.cpp).
	out := bson.D{{Key: "explainVersion", Value: "1"}, {Key: "stages", Value: stages}}
	tail := explainTail(req)
	// aggregate explains list the command after the server sections.
	return append(append(out, tail[1:]...), tail[0]), nil
}

// explainedStages is a prepared pipeline's stages as explain lists them:
// its $cursor (the query layer's plan), then the rest. Past queryPlanner
// verbosity the pipeline runs first, so that each carries its figures.
func explainedStages(pp *preparedPipeline, verbosity string) (bson.A, error) {
	p, exec := pp.p, pp.exec
	var cursorOut *countingIterator
	if verbosity != "queryPlanner" {
		in := pp.input()
		if exec != nil {
			cursorOut = &countingIterator{in: in}
			in = cursorOut
		}
		p.EnableTiming()
		if exec != nil {
			exec.EnableTiming()
		}
		it, err := p.Run(in)
		if err != nil {
			return nil, err
		}
		for {
			_, ok, err := it.Next()
			if err != nil {
				return nil, err
			}
			if !ok {
				break
			}
		}
	}
	stages := bson.A{}
	if exec != nil {
		cur := bson.D{{Key: "queryPlanner", Value: exec.QueryPlanner()}}
		if verbosity != "queryPlanner" {
			cur = append(cur, bson.E{Key: "executionStats", Value: exec.ExecutionStats(verbosity == "allPlansExecution")})
		}
		// The plan's sections are built with appendNumber, as the query
		// layer's explain is; the stages' own figures are not.
		entry := bson.D{{Key: "$cursor", Value: appendNumberStyle(cur)}}
		if cursorOut != nil {
			entry = append(entry,
				bson.E{Key: "nReturned", Value: cursorOut.n},
				bson.E{Key: "executionTimeMillisEstimate", Value: lookupInt(exec.ExecutionStats(false), "executionTimeMillis")})
		}
		stages = append(stages, entry)
	}
	return append(stages, p.Explain(verbosity)...), nil
}

// markOptimizedAway adds optimizedPipeline: true to the queryPlanner of a
// pipeline the query layer took whole: runAggregate passes it to
// Explain::explainStages as extraInfo, which generatePlannerInfo appends
// after the optimization time and before the plans.
func markOptimizedAway(body bson.D) bson.D {
	out := make(bson.D, len(body))
	copy(out, body)
	for i, f := range out {
		qp, ok := f.Value.(bson.D)
		if f.Key != "queryPlanner" || !ok {
			continue
		}
		at := len(qp)
		for j, g := range qp {
			if g.Key == "optimizationTimeMillis" {
				at = j + 1
				break
			}
		}
		marked := append(append(append(bson.D{}, qp[:at]...), bson.E{Key: "optimizedPipeline", Value: true}), qp[at:]...)
		out[i].Value = marked
	}
	return out
}

type countingIterator struct {
	in aggregate.Iterator
	n  int64
}

func (c *countingIterator) Next() (bson.D, bool, error) {
	d, ok, err := c.in.Next()
	if ok {
		c.n++
	}
	return d, ok, err
}
