package engine

import (
	"runtime"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/aggregate"
	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/update"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// updateStatement is one entry of an update command's "updates".
type updateStatement struct {
	filter       bson.D
	update       any // bson.D (operators or replacement) or bson.A (pipeline)
	upsert       bool
	multi        bool
	arrayFilters []bson.D
	hint         any
	sort         bson.D // findAndModify and updateOne's sort option
	let          bson.D
	// constants is set when the statement has its own constants ("c",
	// bulkWrite's "constants"), which only a pipeline may have.
	constants bool
	// supplied is the document an upsertSupplied upsert inserts (the
	// constants' "new"); suppliedAsked is upsertSupplied itself.
	supplied      any
	suppliedAsked bool
	// projected is set for a findAndModify that returns only some fields.
	projected bool
	// bypassEmptyTs is the command's bypassEmptyTsReplacement.
	bypassEmptyTs bool
}

// updateOutcome is what one statement did.
type updateOutcome struct {
	matched    int64
	modified   int64
	upsertedID any // nil unless an upsert inserted
	// executing is set once the statement is parsed and planned: later
	// errors come from the plan executor, which findAndModify reports
	// with context.
	executing bool
	before    bson.D
	after     bson.D
}

// readSharedOptions reads the options an update statement has both in the
// update command and in bulkWrite (write_ops.idl, bulk_write.idl):
// arrayFilters, hint, and sort, which a multi update may not have.
func (st *updateStatement) readSharedOptions(a args) error {
	var err error
	if st.arrayFilters, err = a.documentArray("arrayFilters"); err != nil {
		return err
	}
	if st.hint, err = indexHint(a); err != nil {
		return err
	}
	if st.sort, _, err = a.document("sort"); err != nil {
		return err
	}
	if st.sort != nil && st.multi {
		return mongoerr.New(mongoerr.FailedToParse, "Cannot specify sort with multi=true")
	}
	return nil
}

func parseUpdateStatement(i int, v any, let bson.D) (*updateStatement, error) {
	d, ok := v.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.TypeMismatch,
			"BSON field 'update.updates.%d' is the wrong type '%s', expected type 'object'", i, value.TypeName(v))
	}
	a := args{prefix: "update.updates", doc: d}
	if err := a.checkKnown(false, "q", "u", "upsert", "multi", "arrayFilters", "hint", "collation", "c", "sort", "upsertSupplied"); err != nil {
		return nil, err
	}
	st := &updateStatement{let: let}
	q, ok, err := a.document("q")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'update.updates.q' is missing but a required field")
	}
	st.filter = q
	u, ok := a.get("u")
	if !ok {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'update.updates.u' is missing but a required field")
	}
	if st.update, err = updateModification(u); err != nil {
		return nil, err
	}
	if st.upsert, err = a.boolean("upsert", false); err != nil {
		return nil, err
	}
	if st.multi, err = a.boolean("multi", false); err != nil {
		return nil, err
	}
	if err := st.readSharedOptions(a); err != nil {
		return nil, err
	}
	if err := checkCollation(a); err != nil {
		return nil, err
	}
	if c, ok, err := a.document("c"); err != nil {
		return nil, err
	} else if ok {
		st.let = append(append(bson.D{}, let...), c...)
		st.constants = true
		st.supplied = value.Get(c, "new")
	}
	if st.suppliedAsked, err = a.boolean("upsertSupplied", false); err != nil {
		return nil, err
	}
	return st, nil
}

// checkUpsertSupplied is ParsedUpdateBase::parseRequest's check of
// upsertSupplied, before the query and the update are parsed: it needs an
// upsert, and a document in the constants' "new".
func (st *updateStatement) checkUpsertSupplied() error {
	if !st.suppliedAsked {
		return nil
	}
	if !st.upsert {
		return mongoerr.New(mongoerr.FailedToParse, "cannot specify 'upsertSupplied: true' for a non-upsert operation")
	}
	if _, ok := st.supplied.(bson.D); !ok {
		return mongoerr.New(mongoerr.FailedToParse, "the parameter 'upsertSupplied' is set to 'true', but no document was supplied")
	}
	return nil
}

// tooLargeCode is the code of mongod 8.0's refusal of an update whose
// result passes 16 MiB. An update that selects its document by _id alone
// runs on 8.0's express path, whose check raises 8375908 (express_plan.h,
// UpdateOperation::updateById; get_executor.cpp sends there a simple _id
// query that is no upsert and projects nothing); any other runs the update
// stage, which raises 17419 (update_stage.cpp). The message is the same.
func tooLargeCode(st *updateStatement) int32 {
	if st.upsert || st.projected || len(st.filter) != 1 || st.filter[0].Key != "_id" {
		return 17419
	}
	// isSimpleIdQuery: a value that makes exact index bounds, or { $eq: it }.
	v := st.filter[0].Value
	if d, ok := v.(bson.D); ok && len(d) > 0 && strings.HasPrefix(d[0].Key, "$") {
		if len(d) != 1 || d[0].Key != "$eq" {
			return 17419
		}
		v = d[0].Value
	}
	switch v.(type) {
	case nil, bson.A, bson.Regex, bson.Undefined:
		return 17419
	}
	return 8375908
}

// applyUpdate runs one update statement. It finds the matches in a
// snapshot, without a lock, and writes each under the collection's write
// lock, to the document as it is then: one that a concurrent write changed
// is matched again, one that it deleted is skipped, as mongod does after a
// yield. So an update is atomic per document, and a multi-document one
// interleaves with other writers between documents, as on mongod; reading
// a snapshot also means that a document the update moves within an index
// is never visited twice.
func (e *Engine) applyUpdate(req *request, collName string, st *updateStatement, wantDocs bool) (updateOutcome, error) {
	var out updateOutcome
	if err := st.checkUpsertSupplied(); err != nil {
		return out, err
	}
	// The time-series checks come before the update is parsed
	// (performSingleUpdateOp, then ParsedUpdate).
	if ts, _, ok := e.timeseriesView(req.db, collName); ok {
		if err := checkTimeseriesUpdate(st, ts.opts.MetaField); err != nil {
			return out, err
		}
	}
	// UpdateDriver::parse: after a pipeline's own checks, before the
	// replacement and operator ones.
	if _, isPipeline := st.update.(bson.A); st.constants && !isPipeline {
		return out, mongoerr.New(51198, "Constant values may only be specified for pipeline updates")
	}
	u, err := aggregate.CompileUpdate(st.update, update.Options{ArrayFilters: st.arrayFilters, Now: req.now, Clock: &e.clock, LetVars: st.let, BypassEmptyTsReplacement: st.bypassEmptyTs})
	if err != nil {
		return out, err
	}
	// ParsedUpdate parses the update before its canonical query, which
	// checks a $natural sort and hint; a failure is the statement's.
	if err := planner.CheckNatural(st.sort, st.hint); err != nil {
		return out, err
	}
	if st.multi && u.Kind() == update.Replacement {
		return out, mongoerr.New(mongoerr.FailedToParse, "multi update is not supported for replacement-style update")
	}
	f, err := query.Compile(st.filter, query.Options{Now: req.now, LetVars: st.let, JSONSchema: validation.CompileSchema})
	if err != nil {
		return out, err
	}
	// The canonical query reads the sort after the filter, as find's
	// does (SortPattern's 15974 and 15975).
	if err := validateSort(st.sort); err != nil {
		return out, err
	}
	if e.isView(req.db, collName) {
		return out, errViewNotCollection(req.db, collName)
	}
	if e.isTimeseries(req.db, collName) {
		if out, err := e.updateTimeseries(req, collName, st, u, f); err != errNotTimeseries {
			return out, err
		}
	}
	apply := func(coll *catalog.Collection, m planner.Result) error {
		cur, pos, ok, err := currentMatch(coll, m, f)
		if err != nil || !ok {
			return err
		}
		out.matched++
		newDoc, modified, err := u.Apply(cur, pos, false)
		if err != nil {
			return err
		}
		if wantDocs {
			out.before, out.after = cur, cur
		}
		if !modified || (coll.Validator == nil && update.InPlaceNoop(cur, newDoc)) {
			return nil
		}
		if value.Size(newDoc) > value.MaxUserDocumentSize {
			return mongoerr.Newf(tooLargeCode(st), "Resulting document after update is larger than %d", value.MaxUserDocumentSize)
		}
		if err := checkUpdatedDepth(newDoc); err != nil {
			return err
		}
		if err := checkIDUnchanged(cur, newDoc); err != nil {
			return err
		}
		if err := checkDirectBucketWrite(coll, newDoc, true); err != nil {
			return err
		}
		if err := e.validateWrite(req, coll, cur, newDoc); err != nil {
			return err
		}
		if err := coll.Replace(m.RID, newDoc); err != nil {
			return err
		}
		out.modified++
		if wantDocs {
			out.after = newDoc
		}
		return nil
	}
	q := planner.Query{Filter: f, Hint: st.hint, Sort: st.sort, Ctx: req.ctx, PreserveRecordID: true, Shape: &planner.Shape{Filter: st.filter, Sort: st.sort}}
	if !st.multi {
		q.Limit = 1
	}
	executing, err := e.writeMatches(req, collName, q, !st.multi, func() bool { return out.matched > 0 }, apply)
	out.executing = executing
	if err != nil || out.matched > 0 || !st.upsert {
		return out, err
	}
	out.executing = true
	seedOf := f.EqualityDoc
	if u.Kind() == update.Replacement {
		seedOf = f.IDEqualityDoc
	}
	seed, err := seedOf()
	if err != nil {
		return out, err
	}
	inserting := u
	if st.suppliedAsked {
		// The supplied document is applied as a replacement to what the
		// query's equalities give, _id included
		// (generateNewDocumentFromSuppliedDoc, update_stage.cpp).
		if inserting, err = update.Compile(st.supplied.(bson.D), update.Options{Now: req.now, Clock: &e.clock, BypassEmptyTsReplacement: st.bypassEmptyTs}); err != nil {
			return out, err
		}
	}
	doc, err := inserting.Upsert(seed)
	if err != nil {
		return out, err
	}
	if value.Size(doc) > value.MaxUserDocumentSize {
		return out, mongoerr.Newf(17420, "Document to upsert is larger than %d", value.MaxUserDocumentSize)
	}
	if err := checkUpdatedDepth(doc); err != nil {
		return out, err
	}
	if err := catalog.ValidateNamespace(req.db, collName); err != nil {
		return out, err
	}
	runtime.Gosched() // upsert_concurrency.go: other writers may run between the query and the insert
	err = e.catalog.Write(req.db, collName, true, func(coll *catalog.Collection) error {
		if coll.Kind == catalog.KindTimeseries {
			return errTimeseriesUpsert() // created as one since the lookup
		}
		if coll.Kind == catalog.KindView {
			return errViewNotCollection(req.db, collName)
		}
		if err := checkDirectBucketWrite(coll, doc, false); err != nil {
			return err
		}
		if err := e.validateWrite(req, coll, nil, doc); err != nil {
			return err
		}
		if req.prof != nil {
			defer req.prof.keyWrites(coll, coll.KeyWrites())
		}
		_, err := coll.Insert(doc)
		return err
	})
	if err != nil {
		return out, err
	}
	out.upsertedID = doc[0].Value
	if wantDocs {
		out.after = doc
	}
	return out, nil
}

// currentMatch is the document a write about to change m finds at m's
// RecordID in the live collection, under its write lock: m's own when
// nothing changed it since the snapshot; otherwise the current version if
// it still matches f (with its array position for the positional $), and
// none if it was deleted or no longer matches.
func currentMatch(coll *catalog.Collection, m planner.Result, f *query.Filter) (bson.D, int, bool, error) {
	cur, ok := coll.Get(m.RID)
	if !ok {
		return nil, 0, false, nil
	}
	if sameDocument(cur, m.Doc) {
		return cur, m.Pos, true, nil
	}
	matches, pos, err := f.Eval(cur)
	return cur, pos, matches && err == nil, err
}

// sameDocument reports whether a and b are the same stored document:
// stored documents are never modified, so a write replaces the slice.
func sameDocument(a, b bson.D) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// writeBatch is how many matched documents a multi-document update or
// delete writes per hold of the collection's write lock.
const writeMatchesBatch = 64

// writeMatches runs q over a snapshot of db.coll and calls write for
// matches under the live collection's write lock, checking for
// interruption (maxTimeMS, shutdown) between batches. Without single,
// every match is written, writeMatchesBatch per hold of the lock. With
// single (q has limit 1), the first match is written; if it no longer
// matched at write time (done still false), q runs again on a fresh
// snapshot, as mongod retries after a write conflict. It reports whether
// execution started (planning succeeded), for findAndModify's error
// context.
func (e *Engine) writeMatches(req *request, collName string, q planner.Query, single bool, done func() bool,
	write func(coll *catalog.Collection, m planner.Result) error) (bool, error) {
	executing := false
	for {
		snap := e.catalog.Snapshot(req.db, collName)
		if snap == nil {
			return executing, nil
		}
		exec, err := e.plan(snap, ns(req.db, collName), q)
		if err != nil {
			return executing, err
		}
		// The figures are read once the plan has run (a retry's plans
		// add theirs).
		defer e.planRan(req, exec)
		executing = true
		batch := make([]planner.Result, 0, writeMatchesBatch)
		for {
			batch = batch[:0]
			for len(batch) < cap(batch) && !(single && len(batch) == 1) {
				r, ok, err := exec.Next()
				if err != nil {
					return true, err
				}
				if !ok {
					break
				}
				batch = append(batch, r)
			}
			if len(batch) == 0 {
				return true, nil
			}
			gone := false
			err := e.catalog.Write(req.db, collName, false, func(coll *catalog.Collection) error {
				if coll == nil || !sameCollection(coll, snap) {
					gone = true
					return nil
				}
				if req.prof != nil {
					defer req.prof.keyWrites(coll, coll.KeyWrites())
				}
				for _, m := range batch {
					if err := write(coll, m); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil || gone || (single && done()) {
				return true, err
			}
			if err := mongoerr.FromContext(req.ctx); err != nil {
				return true, err
			}
			if single {
				break // plan again: the match changed under us
			}
		}
	}
}

// sameCollection reports whether the live collection is the one snap was
// taken of, not one dropped and created again under its name since.
func sameCollection(live, snap *catalog.Collection) bool {
	return string(live.UUID.Data) == string(snap.UUID.Data)
}

// checkIDUnchanged is mongod's immutable _id check after an update
// (replacements and pipelines can change it without naming the path).
func checkIDUnchanged(before, after bson.D) error {
	ob, na := value.Get(before, "_id"), value.Get(after, "_id")
	if value.IsMissing(ob) || (!value.IsMissing(na) && value.Compare(ob, na) == 0) {
		return nil
	}
	return mongoerr.Newf(mongoerr.ImmutableField,
		"After applying the update, the (immutable) field '_id' was found to have been altered to _id: %s", shortValue(na))
}

func cmdUpdate(e *Engine, req *request) (bson.D, error) {
	b, err := parseWriteBatch(req, "updates", "bypassDocumentValidation")
	if err != nil {
		return nil, err
	}
	collName, ordered := b.coll, b.ordered
	stmts := make([]*updateStatement, len(b.statements))
	for i, v := range b.statements {
		if stmts[i], err = parseUpdateStatement(i, v, b.let); err != nil {
			return nil, err
		}
		stmts[i].bypassEmptyTs = b.bypassEmptyTs
	}
	if err := checkWriteConcern(req); err != nil {
		return nil, err
	}
	if err := userAllowedWriteNS(req.db, collName); err != nil {
		return nil, err
	}
	var n, nModified int64
	var upserted bson.A
	var werrs []writeError
	for _, st := range stmts {
		updateStatementMetrics(&e.metrics.updPipeline, &e.metrics.updArrayFilters, st)
	}
	for i, st := range stmts {
		// performSingleUpdateOpWithDupKeyRetry counts each statement
		// attempted.
		e.metrics.update.Add(1)
		if req.prof != nil {
			req.prof.statement("update", profiledStatement(b.statements[i], updateStatementFields(), "multi", "upsert"))
		}
		out, err := e.applyUpdateRetrying(req, collName, st, false)
		e.metrics.updated(out)
		if req.prof != nil {
			req.prof.updated(out.matched, out.modified, out.upsertedID != nil, err)
		}
		if err != nil {
			if isInterruption(err) {
				// Interruptions fail the whole command, as mongod's
				// write_ops_exec rethrows them (from the plan executor,
				// with its context); what was written stays.
				return nil, executorError("Plan executor error during update", err)
			}
			werrs = append(werrs, writeError{index: i, err: mongoerr.As(err)})
			if ordered {
				break
			}
			continue
		}
		n += out.matched
		nModified += out.modified
		if out.upsertedID != nil {
			n++
			upserted = append(upserted, bson.D{{Key: "index", Value: int32(i)}, {Key: "_id", Value: out.upsertedID}})
		}
	}
	reply := bson.D{{Key: "n", Value: int32(n)}}
	if len(upserted) > 0 {
		reply = append(reply, bson.E{Key: "upserted", Value: upserted})
	}
	reply = append(reply, bson.E{Key: "nModified", Value: int32(nModified)})
	if len(werrs) > 0 {
		reply = append(reply, bson.E{Key: "writeErrors", Value: renderWriteErrors(werrs)})
	}
	return reply, nil
}

// checkUpdatedDepth is the nesting check of storage_validation::storageValid,
// which mongod applies to the result of an update (with its own message,
// unlike the insert path's "cannot insert document because...").
func checkUpdatedDepth(doc bson.D) error {
	if exceedsDepth(doc, 1) {
		return mongoerr.Newf(mongoerr.Overflow, "Document exceeds maximum nesting depth of %d", value.MaxStorageDepth)
	}
	return nil
}
