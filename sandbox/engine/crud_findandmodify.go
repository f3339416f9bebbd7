package engine

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/projection"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// findAndModifyShape is what a findAndModify asks to do: remove, or
// update (upd) with its options.
type findAndModifyShape struct {
	remove, returnNew, upsert, hasUpdate bool
	update                               any
	arrayFilters                         []bson.D
}

// parseFindAndModifyShape reads remove, update, new, upsert and
// arrayFilters, as FindAndModifyCommandRequest's parser does.
func parseFindAndModifyShape(a args) (findAndModifyShape, error) {
	var s findAndModifyShape
	var err error
	if s.remove, err = a.boolean("remove", false); err != nil {
		return s, err
	}
	if s.returnNew, err = a.boolean("new", false); err != nil {
		return s, err
	}
	if s.upsert, err = a.boolean("upsert", false); err != nil {
		return s, err
	}
	if s.arrayFilters, err = a.documentArray("arrayFilters"); err != nil {
		return s, err
	}
	var upd any
	if upd, s.hasUpdate = a.get("update"); s.hasUpdate {
		if s.update, err = updateModification(upd); err != nil {
			return s, err
		}
	}
	return s, nil
}

// validate checks which of them go together, as the request's validator
// does once it is parsed, before anything runs: the command and its
// explain alike.
func (s findAndModifyShape) validate() error {
	switch {
	case s.remove && s.hasUpdate:
		return mongoerr.New(mongoerr.FailedToParse, "Cannot specify both an update and remove=true")
	case !s.remove && !s.hasUpdate:
		return mongoerr.New(mongoerr.FailedToParse, "Either an update or remove=true must be specified")
	case s.remove && s.upsert:
		return mongoerr.New(mongoerr.FailedToParse, "Cannot specify both upsert=true and remove=true ")
	case s.remove && s.returnNew:
		return mongoerr.New(mongoerr.FailedToParse, "Cannot specify both new=true and remove=true; 'remove' always returns the deleted document")
	case s.remove && len(s.arrayFilters) > 0:
		return mongoerr.New(mongoerr.FailedToParse, "Cannot specify arrayFilters and remove=true")
	}
	if _, pipeline := s.update.(bson.A); pipeline && len(s.arrayFilters) > 0 {
		return mongoerr.New(mongoerr.FailedToParse, "arrayFilters may not be specified for pipeline-style updates")
	}
	return nil
}

// findAndModifyRequest is a findAndModify as FindAndModifyCommandRequest's
// parser reads it and the executor's projection compiles, before anything
// runs: the command and its explain alike.
type findAndModifyRequest struct {
	collName                  string
	filter, sort, fields, let bson.D
	hint                      any
	bypassEmptyTs             bool
	findAndModifyShape
	// proj is fields compiled, nil for none; qf is the query it matches
	// positional projections against.
	proj *projection.Projection
	qf   *query.Filter
}

func parseFindAndModify(req *request) (*findAndModifyRequest, error) {
	collName, err := collectionName(req)
	if err != nil {
		return nil, err
	}
	r := &findAndModifyRequest{collName: collName}
	a := newArgs(req)
	a.prefix = "findAndModify"
	if err := a.checkKnown(true, "query", "sort", "remove", "update", "new", "fields", "upsert",
		"arrayFilters", "hint", "collation", "let", "bypassDocumentValidation", "stmtId",
		"bypassEmptyTsReplacement", "batchSize", "singleBatch"); err != nil {
		return nil, err
	}
	if r.filter, _, err = a.document("query"); err != nil {
		return nil, err
	}
	if r.sort, _, err = a.document("sort"); err != nil {
		return nil, err
	}
	if r.fields, _, err = a.document("fields"); err != nil {
		return nil, err
	}
	if r.let, err = letArg(a, req.now); err != nil {
		return nil, err
	}
	if r.findAndModifyShape, err = parseFindAndModifyShape(a); err != nil {
		return nil, err
	}
	if err := checkBypassValidation(a); err != nil {
		return nil, err
	}
	// batchSize (an IDL int, no other number) and singleBatch are fields
	// of the command that find_and_modify.cpp never reads.
	if v, ok := a.get("batchSize"); ok && v != nil {
		if _, isInt := v.(int32); !isInt {
			return nil, a.wrongType("batchSize", v, "type 'int'")
		}
	}
	if _, err := a.boolean("singleBatch", false); err != nil {
		return nil, err
	}
	// find_and_modify_command.idl's optionalBool, read for replacements.
	if r.bypassEmptyTs, err = a.optionalBool("bypassEmptyTsReplacement"); err != nil {
		return nil, err
	}
	if r.hint, err = indexHint(a); err != nil {
		return nil, err
	}
	if err := checkCollation(a); err != nil {
		return nil, err
	}
	if err := r.validate(); err != nil {
		return nil, err
	}
	if len(r.fields) > 0 {
		if r.qf, err = query.Compile(r.filter, query.Options{Now: req.now, LetVars: r.let, JSONSchema: validation.CompileSchema}); err != nil {
			return nil, err
		}
		if r.proj, err = projection.Compile(r.fields, projection.Options{Now: req.now, LetVars: r.let, Filter: r.qf, SortKeys: true}); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func cmdFindAndModify(e *Engine, req *request) (bson.D, error) {
	r, err := parseFindAndModify(req)
	if err != nil {
		return nil, err
	}
	collName, filter, sort, fields, let, hint, bypassEmptyTs := r.collName, r.filter, r.sort, r.fields, r.let, r.hint, r.bypassEmptyTs
	remove, returnNew, upsert, upd, arrayFilters := r.remove, r.returnNew, r.upsert, r.update, r.arrayFilters
	proj, qf := r.proj, r.qf
	project := func(d bson.D) (any, error) {
		if d == nil {
			return nil, nil
		}
		if proj == nil {
			return d, nil
		}
		// A positional projection matches the query against the document
		// it projects (projection_executor_utils.cpp,
		// applyPositionalProjection): the document before the write, or
		// after it with new: true. The projection is a stage of the
		// command's plan, so its errors are the executor's.
		pos := -1
		if proj.NeedsPosition() {
			_, pos = qf.MatchPosition(d)
		}
		out, err := proj.Apply(d, pos)
		if err != nil {
			return nil, executorError("Plan executor error during findAndModify", err)
		}
		return out, nil
	}

	if err := checkWriteConcern(req); err != nil {
		return nil, err
	}
	if err := userAllowedWriteNS(req.db, collName); err != nil {
		return nil, err
	}
	// findAndModify is counted as a command only (it calls performUpdate
	// and performDelete, not the statement loops that count opcounters),
	// and in its own pipeline and arrayFilters counters.
	if !remove {
		updateStatementMetrics(&e.metrics.famPipeline, &e.metrics.famArrayFilters, &updateStatement{update: upd, arrayFilters: arrayFilters})
	}
	// get_executor.cpp, makeProjection: after the positional check, a
	// projection reading the sort key is refused, for a remove as for an
	// update, once the executor is built for an existing collection (or
	// one an upsert creates).
	sortKeyRefused := func() error {
		if proj != nil && proj.NeedsSortKey() && (upsert || e.catalog.Snapshot(req.db, collName) != nil) {
			return mongoerr.New(mongoerr.BadValue, "Cannot use a $meta sortKey projection in findAndModify commands.")
		}
		return nil
	}
	if remove {
		if err := sortKeyRefused(); err != nil {
			return nil, err
		}
		out, err := e.applyDelete(req, collName, &deleteStatement{filter: filter, sort: sort, hint: hint, let: let})
		e.metrics.docDeleted.Add(out.removed)
		if req.prof != nil {
			req.prof.deleted(out.removed, nil)
		}
		if err != nil {
			if out.executing {
				return nil, executorError("Plan executor error during findAndModify", err)
			}
			return nil, err
		}
		v, err := project(out.first)
		if err != nil {
			return nil, err
		}
		e.metrics.returnedOne(v)
		return bson.D{
			{Key: "lastErrorObject", Value: bson.D{{Key: "n", Value: int32(out.removed)}}},
			{Key: "value", Value: v},
		}, nil
	}
	if returnNew && proj != nil && proj.NeedsPosition() && (upsert || e.catalog.Snapshot(req.db, collName) != nil) {
		// get_executor.cpp, getExecutorUpdate: the query need not match the
		// array element once the update is applied, so a positional
		// projection is allowed only when the old document is returned. The
		// executor is built only for a collection that exists (or that an
		// upsert creates); otherwise the plan is EOF and nothing is checked.
		return nil, mongoerr.New(mongoerr.BadValue, "cannot use a positional projection and return the new document")
	}
	if err := sortKeyRefused(); err != nil {
		return nil, err
	}
	out, err := e.applyUpdateRetrying(req, collName, &updateStatement{filter: filter, update: upd, upsert: upsert,
		arrayFilters: arrayFilters, hint: hint, sort: sort, let: let, projected: len(fields) > 0, bypassEmptyTs: bypassEmptyTs}, true)
	e.metrics.updated(out)
	if req.prof != nil {
		req.prof.updated(out.matched, out.modified, out.upsertedID != nil, nil)
	}
	if err != nil {
		if me, ok := err.(*mongoerr.Error); ok && out.executing {
			return nil, &mongoerr.Error{Code: me.Code, Msg: "Plan executor error during findAndModify :: caused by :: " + me.Msg, Extra: me.Extra}
		}
		return nil, err
	}
	doc := out.before
	if returnNew {
		doc = out.after
	}
	if out.upsertedID != nil && !returnNew {
		doc = nil
	}
	v, err := project(doc)
	if err != nil {
		return nil, err
	}
	e.metrics.returnedOne(v)
	leo := bson.D{{Key: "n", Value: int32(out.matched)}, {Key: "updatedExisting", Value: out.matched > 0}}
	if out.upsertedID != nil {
		leo = bson.D{{Key: "n", Value: int32(1)}, {Key: "updatedExisting", Value: false}, {Key: "upserted", Value: out.upsertedID}}
	}
	return bson.D{{Key: "lastErrorObject", Value: leo}, {Key: "value", Value: v}}, nil
}
