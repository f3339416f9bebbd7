package engine

import (
	"runtime"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// An upsert is not atomic on mongod between its query and its insert: two
// upserts that run at the same time can both find nothing and both insert
// (the manual's "Upsert with Duplicate Values"). A unique index then makes
// one insert fail with a duplicate key, which mongod retries as the whole
// update when the filter is nothing but the index's equalities
// (performSingleUpdateOpWithDupKeyRetry). The engine holds its write lock
// for a whole command, so it opens that window itself: an upsert that
// matched nothing lets a writer waiting for the lock go first, then
// inserts. As on mongod, where only the operations running at the same
// time on the server's cores can overlap, a burst of upserts makes at most
// as many documents as there are cores (GOMAXPROCS, at least 2): while
// that many are in the window, the next upsert inserts at once.

// upsertWindow lets other writers run between an upsert's query and its
// insert, and gives the collection as it is then (a writer may have
// created or dropped it). The caller holds e.mu for writing.
func (e *Engine) upsertWindow(db, collName string) *catalog.Collection {
	if e.upsertsInWindow < max(runtime.GOMAXPROCS(0), 2)-1 {
		e.upsertsInWindow++
		e.mu.Unlock()
		runtime.Gosched()
		e.mu.Lock()
		e.upsertsInWindow--
	}
	return e.catalog.Collection(db, collName)
}

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
	f, err := query.Compile(st.filter, query.Options{LetVars: st.let})
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
