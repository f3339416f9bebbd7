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
// and a min that does not sort before max in that index is 51175. Bounds
// that pass would scan the hinted index between them; the sandbox does
// not run such scans, so it refuses them as not implemented. find calls
// it before planning, so that its answer is not taken for an execution
// error; Plan answers the same for the other readers of a Query.
func CheckMinMax(coll *catalog.Collection, q Query) error {
	ix, natural, err := resolveHint(coll, q)
	if natural != 0 {
		return plannerError(coll, q, mongoerr.NoQueryExecutionPlans, "min and max are incompatible with $natural")
	}
	if err != nil {
		return err
	}
	if ix == nil {
		return plannerError(coll, q, mongoerr.ErrMinMaxNoHint, "When using min()/max() a hint of which index to use must be provided")
	}
	if !boundsFitIndex(ix, q.Min) || !boundsFitIndex(ix, q.Max) {
		return plannerError(coll, q, mongoerr.ErrMinMaxIndexIncompatible, "The index chosen is not compatible with min/max")
	}
	lo, hi := finishBound(ix, q.Min, q.Max, bson.MinKey{}), finishBound(ix, q.Max, q.Min, bson.MaxKey{})
	if compareMinMaxKeys(ix, lo, hi) >= 0 {
		return plannerError(coll, q, mongoerr.ErrMinMaxOrder, "The value provided for min() does not come before the value provided for max() in the hinted index")
	}
	name := "min"
	if len(q.Min) == 0 {
		name = "max"
	}
	return mongoerr.Newf(mongoerr.NotImplemented, "find option '%s' is not supported by the schemalab sandbox; use a real MongoDB (--uri) for it", name)
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
