package engine

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/update"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// updateStatement is one entry of an update command's "updates".
type updateStatement struct {
	filter       bson.D
	update       any // bson.D (operators or replacement) or bson.A (pipeline)
	upsert       bool
	multi        bool
	arrayFilters bson.A
	hint         any
	sort         bson.D // findAndModify and updateOne's sort option
	let          bson.D
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
	switch u.(type) {
	case bson.D, bson.A:
		st.update = u
	default:
		return nil, mongoerr.New(mongoerr.FailedToParse, "Update argument must be either an object or an array")
	}
	if st.upsert, err = a.boolean("upsert", false); err != nil {
		return nil, err
	}
	if st.multi, err = a.boolean("multi", false); err != nil {
		return nil, err
	}
	if st.arrayFilters, _, err = a.array("arrayFilters"); err != nil {
		return nil, err
	}
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
	if c, ok, err := a.document("c"); err != nil {
		return nil, err
	} else if ok {
		st.let = append(append(bson.D{}, let...), c...)
	}
	return st, nil
}

// applyUpdate runs one update statement against coll (which may be nil)
// under the write lock.
func (e *Engine) applyUpdate(req *request, collName string, st *updateStatement, wantDocs bool) (updateOutcome, error) {
	var out updateOutcome
	u, err := update.Compile(st.update, update.Options{ArrayFilters: st.arrayFilters, Now: req.now, LetVars: st.let})
	if err != nil {
		return out, err
	}
	if st.multi && u.Kind() == update.Replacement {
		return out, mongoerr.New(mongoerr.FailedToParse, "multi update is not supported for replacement-style update")
	}
	f, err := query.Compile(st.filter, query.Options{Now: req.now, LetVars: st.let})
	if err != nil {
		return out, err
	}
	if ts, ok := e.timeseriesView(req.db, collName); ok {
		return e.updateTimeseries(req, ts, st, u, f)
	}
	coll := e.catalog.Collection(req.db, collName)
	if coll != nil {
		q := planner.Query{Filter: f, Hint: st.hint, Sort: st.sort}
		if !st.multi {
			q.Limit = 1
		}
		exec, err := e.plan(coll, ns(req.db, collName), q)
		if err != nil {
			return out, err
		}
		out.executing = true
		// Materialise the matches first so that moving a document within
		// an index cannot make the scan visit it twice.
		var matches []planner.Result
		for {
			r, ok, err := exec.Next()
			if err != nil {
				return out, err
			}
			if !ok {
				break
			}
			matches = append(matches, r)
		}
		for _, m := range matches {
			out.matched++
			newDoc, modified, err := u.Apply(m.Doc, m.Pos, false)
			if err != nil {
				return out, err
			}
			if wantDocs {
				out.before, out.after = m.Doc, m.Doc
			}
			if !modified {
				continue
			}
			if value.Size(newDoc) > value.MaxUserDocumentSize {
				return out, mongoerr.Newf(17419, "Resulting document after update is larger than %d", value.MaxUserDocumentSize)
			}
			if err := checkUpdatedDepth(newDoc); err != nil {
				return out, err
			}
			if err := checkIDUnchanged(m.Doc, newDoc); err != nil {
				return out, err
			}
			if err := e.validateWrite(req, coll, m.Doc, newDoc); err != nil {
				return out, err
			}
			if err := coll.Replace(m.RID, newDoc); err != nil {
				return out, err
			}
			out.modified++
			if wantDocs {
				out.after = newDoc
			}
		}
	}
	if out.matched > 0 || !st.upsert {
		return out, nil
	}
	out.executing = true
	seed, err := f.EqualityDoc()
	if err != nil {
		return out, err
	}
	doc, err := u.Upsert(seed)
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
	coll = e.upsertWindow(req.db, collName) // upsert_concurrency.go
	if coll == nil {
		if coll, err = e.catalog.EnsureCollection(req.db, collName); err != nil {
			return out, err
		}
	}
	if err := e.validateWrite(req, coll, nil, doc); err != nil {
		return out, err
	}
	if _, err := coll.Insert(doc); err != nil {
		return out, err
	}
	out.upsertedID = doc[0].Value
	if wantDocs {
		out.after = doc
	}
	return out, nil
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
	}
	if err := catalog.ValidateCollectionName(req.db, collName); err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var n, nModified int64
	var upserted bson.A
	var werrs []writeError
	for i, st := range stmts {
		out, err := e.applyUpdateRetrying(req, collName, st, false)
		if err != nil {
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
