package engine

import (
	"context"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/planner"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Tailable cursors on capped collections. A tailable find reads the
// collection in natural order from a snapshot; when it reaches the end
// its cursor stays open, and each getMore reads on from a fresh snapshot
// past the last record it saw, so it returns what was inserted since. An
// awaitData getMore that finds nothing waits, on the goroutine serving it,
// for a write to the collection, for at most its maxTimeMS (one second by
// default), and stops at once when the cursor is killed or the client
// goes: no cursor keeps a goroutine or a timer of its own between getMores.

// defaultAwaitDataTimeout is how long an awaitData getMore without
// maxTimeMS waits for inserts (getmore_cmd.cpp: one second).
const defaultAwaitDataTimeout = time.Second

// awaitDataPoll is how often a waiting getMore looks for a new write.
const awaitDataPoll = 5 * time.Millisecond

// checkTailable applies validateFindCommandRequest's rules for tailable
// cursors (query_request_helper.cpp): awaitData needs tailable
// (tailableModeFromBools), and a tailable cursor allows no sort but
// {$natural: 1} and no singleBatch.
func checkTailable(s *findSpec) error {
	if s.awaitData && !s.tailable {
		return mongoerr.New(mongoerr.FailedToParse, "Cannot set 'awaitData' without also setting 'tailable'")
	}
	if !s.tailable {
		return nil
	}
	if len(s.sort) > 0 && !(len(s.sort) == 1 && s.sort[0].Key == "$natural" && isNumberOne(s.sort[0].Value)) {
		return mongoerr.New(mongoerr.BadValue, "cannot use tailable option with a sort other than {$natural: 1}")
	}
	if s.singleBatch {
		return mongoerr.New(mongoerr.BadValue, "cannot use tailable option with the 'singleBatch' option")
	}
	return nil
}

// isNumberOne compares as SimpleBSONObjComparator does {$natural: 1}: any
// number equal to 1.
func isNumberOne(v any) bool {
	switch v.(type) {
	case int32, int64, float64, bson.Decimal128:
		return value.Compare(v, int32(1)) == 0
	}
	return false
}

// tailState is a tailable cursor's position in its collection.
type tailState struct {
	cat      *catalog.Catalog
	db, coll string
	q        planner.Query
	await    bool
	snap     *catalog.Collection
	last     int64 // RecordID of the last record read (0: none yet)
	skip     int64
	returned int64
	docs     int64 // records read: the documents the scan examined
	ctx      context.Context
	err      error // the position was lost
}

// tailableFind answers find with tailable: mongod's error on a collection
// that is not capped (get_executor.cpp), and otherwise the tailable
// stream. A missing collection gives an empty batch and no cursor.
func (e *Engine) tailableFind(req *request, s *findSpec, q planner.Query, coll *catalog.Collection) (bson.D, error) {
	nsName := ns(req.db, s.coll)
	if coll != nil && !coll.IsCapped() {
		return nil, mongoerr.Newf(mongoerr.BadValue, "error processing query: %s tailable cursor requested on non capped collection",
			planner.ErrorString(nsName, queryExtras(s), q))
	}
	t := &tailState{cat: e.catalog, db: req.db, coll: s.coll, q: q, await: s.awaitData, snap: coll, skip: s.skip, ctx: req.ctx}
	st := resultStream{
		next: t.next,
		bind: t.bind,
		tail: t,
	}
	if coll != nil {
		st.uuid = catalog.UUIDString(coll.UUID)
	}
	return e.firstBatch(req, nsName, st, s.batchSize, s.hasBatch, s.singleBatch, "Executor error during find command")
}

// queryExtras are the batchSize, limit and skip CanonicalQuery::toString
// prints after the namespace.
func queryExtras(s *findSpec) string {
	var out string
	if s.hasBatch {
		out += fmt.Sprintf(" batchSize=%d", s.batchSize)
	}
	if s.limit > 0 {
		out += fmt.Sprintf(" limit=%d", s.limit)
	}
	if s.skip > 0 {
		out += fmt.Sprintf(" skip=%d", s.skip)
	}
	return out
}

// keepOpen is find_cmd.cpp's shouldSaveCursor for a tailable cursor: it
// is kept unless the collection it tails has no records.
func (t *tailState) keepOpen() bool { return t.snap != nil && t.snap.Count() > 0 }

// bind starts a getMore: it reads from the collection as it is now. A
// record the cursor last read that is gone (evicted, or deleted) loses
// its position, as CollectionScan::doRestoreState fails.
func (t *tailState) bind(ctx context.Context) {
	t.ctx = ctx
	t.refresh()
}

func (t *tailState) refresh() {
	snap := t.cat.Snapshot(t.db, t.coll)
	if snap == nil {
		return // dropped: the cursor table fails the getMore (collectionGone)
	}
	t.snap = snap
	if t.last != 0 && t.err == nil {
		if _, ok := snap.Get(t.last); !ok {
			t.err = mongoerr.Newf(mongoerr.CappedPositionLost,
				"CollectionScan died due to position in capped collection being deleted. Last seen record id: RecordId(%d)", t.last)
		}
	}
}

// changed reports whether the collection has been written since the
// cursor's snapshot.
func (t *tailState) changed() bool {
	snap := t.cat.Snapshot(t.db, t.coll)
	return snap == nil || snap != t.snap
}

func (t *tailState) next() (bson.D, bool, error) {
	if t.err != nil {
		return nil, false, t.err
	}
	for t.snap != nil && (t.q.Limit == 0 || t.returned < t.q.Limit) {
		if t.ctx != nil {
			if err := t.ctx.Err(); err != nil {
				return nil, false, mongoerr.FromContext(t.ctx)
			}
		}
		var rec *catalog.Record
		t.snap.Scan(t.last+1, func(r *catalog.Record) bool { rec = r; return false })
		if rec == nil {
			return nil, false, nil
		}
		t.last = rec.ID
		t.docs++
		if t.q.Filter != nil && !t.q.Filter.Matches(rec.Doc) {
			continue
		}
		if t.skip > 0 {
			t.skip--
			continue
		}
		doc := rec.Doc
		if t.q.Projection != nil {
			var err error
			// A tailable cursor reads the record store: no index key.
			if doc, err = t.q.Projection.Apply(func() context.Context { return t.ctx }, doc, -1, nil, rec.ID, nil); err != nil {
				return nil, false, err
			}
		}
		t.returned++
		return doc, true, nil
	}
	return nil, false, nil
}

// awaitData waits, for a getMore of an awaitData cursor that found
// nothing, until the collection is written, until, or until ctx ends; it
// reports whether there may be more to read.
func (t *tailState) awaitData(ctx context.Context, until time.Time) bool {
	tick := time.NewTicker(awaitDataPoll)
	defer tick.Stop()
	for time.Now().Before(until) {
		if t.changed() {
			t.refresh()
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
	return false
}

// awaitDataDeadline is when an awaitData getMore stops waiting: its own
// maxTimeMS, or one second.
func awaitDataDeadline(req *request) time.Time {
	if n, ok := value.SafeNumberLong(value.Get(req.cmd, "maxTimeMS")); ok && n > 0 {
		return time.Now().Add(time.Duration(n) * time.Millisecond)
	}
	return time.Now().Add(defaultAwaitDataTimeout)
}
