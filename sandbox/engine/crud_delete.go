package engine

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

type deleteStatement struct {
	filter bson.D
	multi  bool
	hint   any
	sort   bson.D
	let    bson.D
}

func parseDeleteStatement(i int, v any, let bson.D) (*deleteStatement, error) {
	d, ok := v.(bson.D)
	if !ok {
		return nil, mongoerr.Newf(mongoerr.TypeMismatch,
			"BSON field 'delete.deletes.%d' is the wrong type '%s', expected type 'object'", i, value.TypeName(v))
	}
	a := args{prefix: "delete.deletes", doc: d}
	// DeleteOpEntry (write_ops.idl) has no sort: only findAndModify's
	// remove sets one.
	if err := a.checkKnown(false, "q", "limit", "hint", "collation"); err != nil {
		return nil, err
	}
	q, ok, err := a.document("q")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'delete.deletes.q' is missing but a required field")
	}
	// limit is a multi_delete_bool (write_ops.idl), of any type:
	// readMultiDeleteProperty reads it as numberDouble(), which is 0 for
	// what is not a number, so only 0 and 1 pass (0.5 does not) and a
	// non-number, null included, deletes every match.
	lv, ok := a.get("limit")
	if !ok {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'delete.deletes.limit' is missing but a required field")
	}
	limit := value.ToDouble(lv)
	if limit != 0 && limit != 1 {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "The limit field in delete objects must be 0 or 1. Got %s", value.FormatStreamDouble(limit))
	}
	st := &deleteStatement{filter: q, multi: limit == 0, let: let}
	if st.hint, err = indexHint(a); err != nil {
		return nil, err
	}
	if err := checkCollation(a); err != nil {
		return nil, err
	}
	return st, nil
}

// deleteOutcome is what one delete statement did.
type deleteOutcome struct {
	removed int64
	first   bson.D // the first document removed: what findAndModify returns
	// executing is set once the statement is planned: later errors come
	// from the plan executor.
	executing bool
}

// applyDelete removes the documents one statement selects, the way
// applyUpdate writes: matched in a snapshot, each deleted under the write
// lock if it still matches then.
func (e *Engine) applyDelete(req *request, collName string, st *deleteStatement) (deleteOutcome, error) {
	var out deleteOutcome
	// ParsedDelete's canonical query checks a $natural sort and hint
	// before it parses the filter; a failure is the statement's.
	if err := planner.CheckNatural(st.sort, st.hint); err != nil {
		return out, err
	}
	f, err := query.Compile(st.filter, query.Options{Now: req.now, LetVars: st.let, JSONSchema: validation.CompileSchema})
	if err != nil {
		return out, err
	}
	// findAndModify's sort, read after the filter as find's is.
	if err := validateSort(st.sort); err != nil {
		return out, err
	}
	if e.isView(req.db, collName) {
		return out, errViewNotCollection(req.db, collName)
	}
	if e.isTimeseries(req.db, collName) {
		// ParsedDelete refuses a time-series delete of one measurement
		// with a sort, which only findAndModify sends: 8.0 cannot sort
		// the measurements of the buckets it deletes from.
		if !st.multi && len(st.sort) > 0 {
			return out, mongoerr.New(mongoerr.InvalidOptions, "Cannot perform a findAndModify with a query and sort on a time-series collection.")
		}
		if out, err := e.deleteTimeseries(req, collName, st.filter, f, st.multi); err != errNotTimeseries {
			return out, err
		}
	}
	if st.multi && f.IsEmpty() && st.hint == nil {
		// deleteMany({}) empties the collection without a scan per record.
		err := e.catalog.Write(req.db, collName, false, func(coll *catalog.Collection) error {
			if coll != nil {
				out.removed = int64(coll.Count())
				coll.Truncate()
			}
			return nil
		})
		return out, err
	}
	q := planner.Query{Filter: f, Hint: st.hint, Sort: st.sort, Ctx: req.ctx, PreserveRecordID: true, Shape: &planner.Shape{Filter: st.filter, Sort: st.sort}}
	if !st.multi {
		q.Limit = 1
	}
	out.executing, err = e.writeMatches(req, collName, q, !st.multi, func() bool { return out.removed > 0 },
		func(coll *catalog.Collection, m planner.Result) error {
			cur, _, ok, err := currentMatch(coll, m, f)
			if err != nil || !ok {
				return err
			}
			if coll.Delete(m.RID) {
				if out.removed == 0 {
					out.first = cur
				}
				out.removed++
			}
			return nil
		})
	return out, err
}

func cmdDelete(e *Engine, req *request) (bson.D, error) {
	b, err := parseWriteBatch(req, "deletes")
	if err != nil {
		return nil, err
	}
	collName, ordered := b.coll, b.ordered
	stmts := make([]*deleteStatement, len(b.statements))
	for i, v := range b.statements {
		if stmts[i], err = parseDeleteStatement(i, v, b.let); err != nil {
			return nil, err
		}
	}
	if err := checkWriteConcern(req); err != nil {
		return nil, err
	}
	if err := userAllowedWriteNS(req.db, collName); err != nil {
		return nil, err
	}
	var n int64
	var werrs []writeError
	for i, st := range stmts {
		// performSingleDeleteOp counts each statement attempted.
		e.metrics.delete.Add(1)
		if req.prof != nil {
			req.prof.statement("remove", profiledStatement(b.statements[i], deleteStatementFields()))
		}
		out, err := e.applyDelete(req, collName, st)
		e.metrics.docDeleted.Add(out.removed)
		if req.prof != nil {
			req.prof.deleted(out.removed, err)
		}
		if err != nil {
			if isInterruption(err) {
				// Interruptions fail the whole command, as mongod's
				// write_ops_exec rethrows them (from the plan executor,
				// with its context); what was written stays.
				return nil, executorError("Plan executor error during delete", err)
			}
			werrs = append(werrs, writeError{index: i, err: mongoerr.As(err)})
			if ordered {
				break
			}
			continue
		}
		n += out.removed
	}
	reply := bson.D{{Key: "n", Value: int32(n)}}
	if len(werrs) > 0 {
		reply = append(reply, bson.E{Key: "writeErrors", Value: renderWriteErrors(werrs)})
	}
	return reply, nil
}
