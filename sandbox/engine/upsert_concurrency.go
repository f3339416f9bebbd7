package engine

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/validation"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// An upsert is not atomic on mongod between its query and its insert: two
// upserts that run at the same time can both find nothing and both insert
// (the manual's "Upsert with Duplicate Values"). The engine's upsert reads
// a snapshot and then takes the collection's write lock to insert, so the
// same race is there. A unique index then makes one insert fail with a
// duplicate key, which mongod retries as the whole update when the filter
// is nothing but the index's equalities (performSingleUpdateOpWithDupKeyRetry).

// upsertMaxRetryAttempts is mongod's upsertMaxRetryAttemptsOnDuplicateKeyError.
const upsertMaxRetryAttempts = 100

// applyUpdateRetrying is applyUpdate with mongod's retry of an upsert
// whose insert met a duplicate key.
func (e *Engine) applyUpdateRetrying(req *request, collName string, st *updateStatement, wantDocs bool) (updateOutcome, error) {
	for attempt := 1; ; attempt++ {
		out, err := e.applyUpdate(req, collName, st, wantDocs)
		if err == nil || attempt > upsertMaxRetryAttempts || !retriesDuplicateKey(st, err) {
			return out, err
		}
	}
}

// retriesDuplicateKey is mongod's shouldRetryDuplicateKeyException: an
// upsert of one document whose filter is only equalities (one, or an
// AND of them) on exactly the unique index's fields, with the values the
// duplicate key has.
func retriesDuplicateKey(st *updateStatement, err error) bool {
	me, ok := err.(*mongoerr.Error)
	if !ok || me.Code != mongoerr.DuplicateKey || !st.upsert || st.multi {
		return false
	}
	pattern, _ := value.Get(me.Extra, "keyPattern").(bson.D)
	dup, _ := value.Get(me.Extra, "keyValue").(bson.D)
	f, err := query.Compile(st.filter, query.Options{LetVars: st.let, JSONSchema: validation.CompileSchema})
	if err != nil || len(pattern) == 0 || len(pattern) != len(dup) {
		return false
	}
	eqs := map[string]any{}
	nodes := []query.Node{f.Root}
	if and, ok := f.Root.(*query.And); ok {
		nodes = and.Children
	}
	for _, n := range nodes {
		c, ok := n.(*query.Compare)
		if !ok || c.Op != "$eq" {
			return false
		}
		eqs[c.Path] = c.Value
	}
	if len(eqs) != len(pattern) {
		return false
	}
	for i, k := range pattern {
		v, ok := eqs[k.Key]
		if !ok || value.Compare(v, dup[i].Value) != 0 {
			return false
		}
	}
	return true
}
