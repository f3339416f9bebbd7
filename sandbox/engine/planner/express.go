package planner

import (
	"context"
	"math"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// MongoDB 8.0 answers point lookups on _id (and findOne-style equality on
// a unique single-field index) through its "express" path, bypassing
// planning: explain shows a lone EXPRESS_IXSCAN. Counting an empty filter
// reads the record store's count (RECORD_STORE_FAST_COUNT), and a count
// answered entirely by one index interval scans keys only (COUNT_SCAN).

// expressEligible returns the index and key for an express lookup.
func expressEligible(coll *catalog.Collection, q Query) (*index.Index, any, bool) {
	if q.Count || q.Hint != nil || len(q.Sort) > 0 || q.Skip > 0 || q.Filter == nil || q.ShowRecordID {
		return nil, nil, false
	}
	cs := conjuncts(q.Filter)
	if len(cs) != 1 {
		return nil, nil, false
	}
	cmp, ok := cs[0].(*query.Compare)
	if !ok || cmp.Op != "$eq" || !exactBoundsGenerating(cmp.Value) {
		return nil, nil, false
	}
	if cmp.Path == "_id" && simpleIDQuery(q) {
		// A clustered collection looks the document up by its cluster
		// key (IdLookupOnClusteredCollection).
		return coll.Indexes()[0], cmp.Value, true
	}
	// Past the _id point query, isExpressEligible's second chance is the
	// indexed equality (IndexedEqualityEligible): {_id: {$eq: 1}} or
	// {$and: [{_id: 1}]} lands here and takes the _id index as any unique
	// single-field index.
	if clustered(coll) {
		// The express path's indexed equality is not taken on a
		// clustered collection (isExpressEligible).
		return nil, nil, false
	}
	if q.Projection != nil {
		// Nor with any projection: isEqualityExpressEligibleQuery asks
		// for an empty one (query_utils.h), where the _id point query
		// takes a simple one. Projections on the indexed equality came
		// in 8.3 (jstests/core/index/express_projection.js is tagged
		// requires_fcv_83).
		return nil, nil, false
	}
	// Past _id's IDHACK, a projection reading the index key (not simple,
	// so never express in mongod) gets a plan whose IXSCAN records it.
	if q.wantsIndexKey() {
		return nil, nil, false
	}
	if ix := expressEqualityIndex(coll, q, cmp); ix != nil {
		return ix, cmp.Value, true
	}
	return nil, nil, false
}

// simpleIDQuery is isIdHackEligibleQuery's test of the filter as the
// command spelled it (CanonicalQuery::isSimpleIdQuery, canonical_query.cpp):
// nothing but _id, each compared with a literal object (no operator) or a
// value generating exact bounds. In 8.0 {_id: {$eq: 1}} and {$and: [{_id:
// 1}]} are no _id point query, neither for the express path's
// IdPointQueryEligible nor for IDHACK (query_utils.h); 8.1 added the
// $eq spelling (jstests/core/index/express_id_eq.js, requires_fcv_81). A
// query without its command's filter (no Shape) is taken as simple.
func simpleIDQuery(q Query) bool {
	if q.Shape == nil {
		return true
	}
	if len(q.Shape.Filter) == 0 {
		return false
	}
	for _, e := range q.Shape.Filter {
		if e.Key != "_id" {
			return false
		}
		if d, ok := e.Value.(bson.D); ok {
			if len(d) > 0 && len(d[0].Key) > 0 && d[0].Key[0] == '$' {
				return false
			}
			continue
		}
		if !exactBoundsGenerating(e.Value) {
			return false
		}
	}
	return true
}

// exactBoundsGenerating is Indexability::isExactBoundsGenerating
// (indexability.h): the BSON types an equality gives exact index bounds
// for, which both express eligibilities ask of the operand: numbers,
// strings, booleans, dates, timestamps, ObjectIds, BinData, embedded
// documents, JavaScript (with or without scope), MinKey and MaxKey; not
// null, undefined, arrays, regular expressions, DBPointers or symbols.
func exactBoundsGenerating(v any) bool {
	switch v.(type) {
	case int32, int64, float64, bson.Decimal128, string, bool, bson.DateTime, bson.Timestamp,
		bson.ObjectID, bson.Binary, bson.D, bson.JavaScript, bson.CodeWithScope, bson.MinKey, bson.MaxKey:
		return true
	}
	return false
}

// expressEqualityIndex is getIndexForExpressEquality
// (plan_executor_express.cpp): among the B-tree indexes the planner sees
// that lead with the equality's path, those that answer it exactly (a
// partial one only when the equality implies its filter) and return at
// most one document (a unique single-field index, or any with limit 1,
// multikey or not), the one with the fewest fields (jstest
// core/index/express.js).
func expressEqualityIndex(coll *catalog.Collection, q Query, cmp *query.Compare) *index.Index {
	var best *index.Index
	for _, ix := range coll.Indexes() {
		s := ix.Spec
		if q.hides(ix) || s.Fields[0].Path != cmp.Path || s.IsHashed() || ix.Wildcard() != nil {
			continue
		}
		if s.Partial != nil && !impliesPartial(q.Filter, s.Partial) {
			continue
		}
		if (!s.Unique || len(s.Fields) != 1) && q.Limit != 1 {
			continue
		}
		if best == nil || len(s.Fields) < len(best.Spec.Fields) {
			best = ix
		}
	}
	return best
}

// expressRefuses is isExpressEligible's refusal of a query the express
// path would answer but for its batchSize, its returnKey or a projection
// that is not simple (query_utils.h). An _id point query then gets an
// IDHACK plan where there is an _id index (buildIdHackPlan, which checks
// none of the three); on a clustered collection, and for another index's
// equality, it is planned as any query.
func expressRefuses(q Query) bool {
	return q.BatchSize || q.Projection != nil && q.Projection.Stage != "PROJECTION_SIMPLE"
}

// idHackPlan is IDHACK (idhack.cpp): the _id index's lookup, with the
// projection or RETURN_KEY above it as a stage of its own.
func idHackPlan(ix *index.Index, coll *catalog.Collection, key any, q Query, ctx func() context.Context) (*expressStage, stage) {
	es := &expressStage{ix: ix, coll: coll, key: key, filter: q.Filter, ctx: ctx, idHack: true, keyMeta: q.wantsIndexKey()}
	if q.Projection == nil {
		return es, es
	}
	return es, &projectionStage{child: es, proj: q.Projection, ctx: ctx}
}

type expressStage struct {
	st       stats
	ix       *index.Index
	coll     *catalog.Collection
	key      any
	filter   *query.Filter
	proj     *Projector
	ctx      func() context.Context
	done     bool
	keys     int64
	docs     int64
	returned int64
	millis   int64
	err      error
	// idHack makes the stage IDHACK rather than an express one: explain
	// shows its common figures, and it leaves any projection to the stage
	// above it, which keyMeta gives the document's {_id: value} key for
	// returnKey.
	idHack, keyMeta bool
}

func (s *expressStage) common() *stats { return &s.st }

func (s *expressStage) work() (state, member) {
	if s.done {
		return s.st.record(isEOF), member{}
	}
	s.done = true
	var rid int64
	found := false
	s.ix.AscendFrom(index.Entry{Key: []any{s.key}, RID: math.MinInt64}, func(e index.Entry) bool {
		if s.ix.CompareKeys(e.Key, []any{s.key}) == 0 {
			rid, found = e.RID, true
		}
		return false
	})
	if !found {
		return s.st.record(isEOF), member{}
	}
	if !s.ix.Spec.Clustered {
		s.keys++
	}
	doc, ok := s.coll.Get(rid)
	if !ok {
		return s.st.record(isEOF), member{}
	}
	s.docs++
	matched, pos := s.filter.MatchPosition(doc)
	if !matched {
		return s.st.record(isEOF), member{}
	}
	if s.proj != nil {
		// A simple projection, the only kind the express path takes
		// (expressRefuses), reads no metadata.
		out, err := s.proj.Apply(s.ctx, doc, pos, nil, rid, nil)
		if err != nil {
			s.err = err
			return s.st.record(isEOF), member{}
		}
		doc = out
	}
	s.returned++
	m := member{rid: rid, doc: doc, pos: pos, fetched: true}
	if s.keyMeta {
		// IDHackStage records the key for returnKey (idhack.cpp).
		m.keys = &Keys{Index: bson.D{{Key: "_id", Value: value.Get(doc, "_id")}}}
	}
	return s.st.record(advanced), m
}

func (s *expressStage) describe(exec bool) bson.D {
	d := bson.D{
		{Key: "stage", Value: "EXPRESS_IXSCAN"},
		{Key: "keyPattern", Value: index.FormatDoc(s.ix.Spec.Key)},
		{Key: "indexName", Value: s.ix.Spec.Name},
	}
	switch {
	case s.idHack:
		d = bson.D{{Key: "stage", Value: "IDHACK"}}
		if exec {
			d = append(d, commonFields(&s.st, s.millis)...)
			d = append(d, bson.E{Key: "keysExamined", Value: s.keys}, bson.E{Key: "docsExamined", Value: s.docs})
		}
		return d
	case s.ix.Spec.Clustered:
		d = bson.D{{Key: "stage", Value: "EXPRESS_CLUSTERED_IXSCAN"}}
	}
	if s.proj != nil {
		d = append(d, bson.E{Key: "projection", Value: s.proj.Spec}, bson.E{Key: "projectionCovered", Value: false})
	}
	if exec {
		d = append(d,
			bson.E{Key: "keysExamined", Value: s.keys},
			bson.E{Key: "docsExamined", Value: s.docs},
			bson.E{Key: "nReturned", Value: s.returned},
		)
	}
	return d
}

// fastCountStage is RECORD_STORE_FAST_COUNT: the collection's record
// count, less the skip, at most the limit (record_store_fast_count.cpp).
type fastCountStage struct {
	st      stats
	n       int64
	skipped int64
}

func newFastCount(records, skip, limit int64) *fastCountStage {
	n := max(records-skip, 0)
	if limit > 0 {
		n = min(n, limit)
	}
	return &fastCountStage{n: n, skipped: skip}
}

func (s *fastCountStage) common() *stats { return &s.st }

func (s *fastCountStage) work() (state, member) { return s.st.record(isEOF), member{} }

func (s *fastCountStage) describe(exec bool) bson.D {
	d := bson.D{{Key: "stage", Value: "RECORD_STORE_FAST_COUNT"}}
	if exec {
		d = append(d, commonFields(&s.st, 0)...)
		d = append(d, bson.E{Key: "nCounted", Value: s.n}, bson.E{Key: "nSkipped", Value: s.skipped})
	}
	return d
}

// countScan counts the keys of one index interval without fetching.
type countScan struct {
	*ixScan
}

func (s *countScan) describe(exec bool) bson.D {
	d := bson.D{{Key: "stage", Value: "COUNT_SCAN"}}
	if exec {
		d = append(d, commonFields(&s.st, s.millis)...)
	}
	spec := s.ix.Spec
	start, end := make(bson.D, len(s.bounds)), make(bson.D, len(s.bounds))
	startInc, endInc := true, true
	for i, f := range s.bounds {
		iv := f[0]
		start[i] = bson.E{Key: spec.Fields[i].Path, Value: iv.start}
		end[i] = bson.E{Key: spec.Fields[i].Path, Value: iv.end}
		if i == s.endField {
			startInc, endInc = iv.startInc, iv.endInc
		}
	}
	if s.dir < 0 {
		// A count scan returns no data, so it always runs forwards: a
		// backward index scan's keys are swapped (turnIxscanIntoCount,
		// query_planner.cpp).
		start, end = end, start
		startInc, endInc = endInc, startInc
	}
	d = append(d,
		bson.E{Key: "keyPattern", Value: spec.Key},
		bson.E{Key: "indexName", Value: spec.Name},
		bson.E{Key: "isMultiKey", Value: s.ix.IsMultiKey()},
		bson.E{Key: "multiKeyPaths", Value: s.ix.MultiKeyPaths()},
		bson.E{Key: "isUnique", Value: spec.Unique},
		bson.E{Key: "isSparse", Value: spec.Sparse},
		bson.E{Key: "isPartial", Value: spec.Partial != nil},
		bson.E{Key: "indexVersion", Value: int32(2)},
		bson.E{Key: "indexBounds", Value: bson.D{
			{Key: "startKey", Value: start},
			{Key: "startKeyInclusive", Value: startInc},
			{Key: "endKey", Value: end},
			{Key: "endKeyInclusive", Value: endInc},
		}},
	)
	if exec {
		d = append(d, bson.E{Key: "keysExamined", Value: s.keys})
	}
	return d
}
