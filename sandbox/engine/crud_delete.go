package engine

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
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
	if err := a.checkKnown(false, "q", "limit", "hint", "collation", "sort"); err != nil {
		return nil, err
	}
	q, ok, err := a.document("q")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'delete.deletes.q' is missing but a required field")
	}
	limit, ok, err := a.int64Arg("limit")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, mongoerr.New(mongoerr.IDLFailedToParse, "BSON field 'delete.deletes.limit' is missing but a required field")
	}
	if limit != 0 && limit != 1 {
		return nil, mongoerr.Newf(mongoerr.FailedToParse, "The limit field in delete objects must be 0 or 1. Got %d", limit)
	}
	st := &deleteStatement{filter: q, multi: limit == 0, let: let}
	if h, ok := a.get("hint"); ok {
		if hd, isDoc := h.(bson.D); !isDoc || len(hd) > 0 {
			st.hint = h
		}
	}
	if st.sort, _, err = a.document("sort"); err != nil {
		return nil, err
	}
	if err := checkCollation(a); err != nil {
		return nil, err
	}
	return st, nil
}

// applyDelete removes the documents one statement selects and returns
// them (the first one only matters to findAndModify).
func (e *Engine) applyDelete(req *request, collName string, st *deleteStatement) ([]bson.D, error) {
	f, err := query.Compile(st.filter, query.Options{Now: req.now, LetVars: st.let})
	if err != nil {
		return nil, err
	}
	if ts, ok := e.timeseriesView(req.db, collName); ok {
		return e.deleteTimeseries(req, ts, st.filter, f, st.multi)
	}
	coll := e.catalog.Collection(req.db, collName)
	if coll == nil {
		return nil, nil
	}
	if st.multi && f.IsEmpty() && st.hint == nil {
		// deleteMany({}) empties the collection without a scan per record.
		var all []bson.D
		coll.Scan(0, func(r *catalog.Record) bool { all = append(all, r.Doc); return true })
		coll.Truncate()
		return all, nil
	}
	q := planner.Query{Filter: f, Hint: st.hint, Sort: st.sort}
	if !st.multi {
		q.Limit = 1
	}
	exec, err := e.plan(coll, ns(req.db, collName), q)
	if err != nil {
		return nil, err
	}
	var matches []planner.Result
	for {
		r, ok, err := exec.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		matches = append(matches, r)
	}
	out := make([]bson.D, 0, len(matches))
	for _, m := range matches {
		if coll.Delete(m.RID) {
			out = append(out, m.Doc)
		}
	}
	return out, nil
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
	e.mu.Lock()
	defer e.mu.Unlock()
	var n int64
	var werrs []writeError
	for i, st := range stmts {
		removed, err := e.applyDelete(req, collName, st)
		if err != nil {
			werrs = append(werrs, writeError{index: i, err: mongoerr.As(err)})
			if ordered {
				break
			}
			continue
		}
		n += int64(len(removed))
	}
	reply := bson.D{{Key: "n", Value: int32(n)}}
	if len(werrs) > 0 {
		reply = append(reply, bson.E{Key: "writeErrors", Value: renderWriteErrors(werrs)})
	}
	return reply, nil
}
