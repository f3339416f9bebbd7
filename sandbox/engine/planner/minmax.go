package planner

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// CheckMinMax answers a find with min or max as QueryPlanner::plan
// (query_planner.cpp) checks them, in its order: a $natural hint refuses
// them, a hint naming no index is the usual bad hint, no hint at all is
// 51173, bounds that are not the hinted index's key pattern are 51174,
// and a min that does not sort before max in that index is 51175. find
// calls it before planning, so that its answer is not taken for an
// execution error; Plan plans the scan it leaves.
func CheckMinMax(coll *catalog.Collection, q Query) error {
	_, _, err := minMaxScan(coll, q)
	return err
}

// minMaxScan is CheckMinMax's checks, then the hinted index and the
// finished bounds of the scan QueryPlannerAccess::makeIndexScan builds:
// from min, included, up to max, excluded, in the index's key order.
func minMaxScan(coll *catalog.Collection, q Query) (*index.Index, *keySpan, error) {
	ix, natural, err := resolveHint(coll, q)
	if natural != 0 {
		return nil, nil, plannerError(coll, q, mongoerr.NoQueryExecutionPlans, "min and max are incompatible with $natural")
	}
	if err != nil {
		return nil, nil, err
	}
	if ix == nil {
		return nil, nil, plannerError(coll, q, mongoerr.ErrMinMaxNoHint, "When using min()/max() a hint of which index to use must be provided")
	}
	if ix.Spec.Clustered {
		_, err := clusterMinMax(q)
		return ix, nil, err
	}
	if !boundsFitIndex(ix, q.Min) || !boundsFitIndex(ix, q.Max) {
		return nil, nil, plannerError(coll, q, mongoerr.ErrMinMaxIndexIncompatible, "The index chosen is not compatible with min/max")
	}
	lo, hi := finishBound(ix, q.Min, q.Max, bson.MinKey{}), finishBound(ix, q.Max, q.Min, bson.MaxKey{})
	if compareMinMaxKeys(ix, lo, hi) >= 0 {
		return nil, nil, plannerError(coll, q, mongoerr.ErrMinMaxOrder, "The value provided for min() does not come before the value provided for max() in the hinted index")
	}
	return ix, &keySpan{start: lo, end: hi}, nil
}

// minMaxCandidate is the one plan of a min/max query: a scan of the
// hinted index between the finished bounds, the whole filter left for
// FETCH (makeIndexScan puts query.root() in the FETCH's filter), and the
// scan reversed when the sort asks for the index's reverse order
// (QueryPlannerCommon::reverseScans swaps the keys of a simple range).
func minMaxCandidate(coll *catalog.Collection, q Query) (*candidate, error) {
	ix, span, err := minMaxScan(coll, q)
	if err != nil {
		return nil, err
	}
	if ix.Spec.Clustered {
		c := collScanCandidate(coll, q, 1, q.Sort)
		c.cluster, _ = clusterMinMax(q)
		return c, nil
	}
	c := &candidate{ix: ix, dir: 1, span: span, bounds: make([]oil, len(ix.Spec.Fields))}
	for i := range c.bounds {
		c.bounds[i] = oil{fullInterval()}
	}
	if sortSpec := q.Sort; len(sortSpec) > 0 {
		if _, nat := naturalDirection(sortSpec); !nat {
			c.sorted, c.dir = providesSort(ix, c.bounds, span, sortSpec)
			if !c.sorted {
				c.dir = 1
			}
		}
	}
	return c, nil
}

// keySpan is IndexBounds's simple range: start and end are key prefixes
// in the key pattern's order, a prefix sorting before every longer key
// that begins with it (BSONObj::woCompare), so a key lies in the span when
// it is at or after start and before end.
type keySpan struct {
	start, end []any
}

// boundsFitIndex is indexCompatibleMaxMin: an empty bound fits; otherwise
// its field names are the key pattern's, in order.
func boundsFitIndex(ix *index.Index, bound bson.D) bool {
	if len(bound) == 0 {
		return true
	}
	if len(bound) != len(ix.Spec.Fields) {
		return false
	}
	for i, f := range ix.Spec.Fields {
		if bound[i].Key != f.Path {
			return false
		}
	}
	return true
}

// finishBound is finishMinObj / finishMaxObj: a given bound loses its
// field names; a missing one becomes a single MinKey or MaxKey, whichever
// lies on its side of the other bound in index order (own is MinKey for
// min, MaxKey for max).
func finishBound(ix *index.Index, bound, other bson.D, own any) []any {
	if len(bound) > 0 {
		out := make([]any, len(bound))
		for i, e := range bound {
			out[i] = e.Value
		}
		return out
	}
	c := compareMinMaxKeys(ix, []any{own}, finishBound(ix, other, nil, own))
	if _, ownIsMin := own.(bson.MinKey); ownIsMin {
		if c < 0 {
			return []any{bson.MinKey{}}
		}
		return []any{bson.MaxKey{}}
	}
	if c > 0 {
		return []any{bson.MaxKey{}}
	}
	return []any{bson.MinKey{}}
}

// compareMinMaxKeys is BSONObj::woCompare under the key pattern's ordering,
// field names ignored: a shorter key that agrees so far sorts first.
func compareMinMaxKeys(ix *index.Index, a, b []any) int {
	for i := range min(len(a), len(b)) {
		if c := ix.CompareField(i, a[i], b[i]); c != 0 {
			return c
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}
