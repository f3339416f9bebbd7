package timeseries

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/query"
)

// ClosedBucketFilter keeps the buckets a time-series update or delete may
// touch: not those marked closed by a direct write to the buckets
// collection (closedBucketFilter in timeseries_update_delete_util.cpp).
func ClosedBucketFilter() bson.D {
	return bson.D{{Key: "control.closed", Value: bson.D{{Key: "$not", Value: bson.D{{Key: "$eq", Value: true}}}}}}
}

// WriteFilters is what a time-series update or delete makes of its query
// (getMatchExprsForWrites, timeseries_update_delete_util.cpp, 8.0).
type WriteFilters struct {
	// Bucket selects the buckets to read: ClosedBucketFilter, then the
	// query's predicates on the metaField renamed onto "meta", then the
	// loose bucket predicate of the rest, as one $and.
	Bucket bson.D
	// Residual is the rest, which each measurement of those buckets must
	// pass; nil when the query reads the metaField alone (or is empty), so
	// that every measurement of a selected bucket matches.
	Residual bson.D
}

// ForWrites splits a write's measurement filter for the buckets of a
// collection in state s. A filter that does not compile here (one reading
// the command's let variables) is residual whole.
func (o Options) ForWrites(filter bson.D, s BucketState) WriteFilters {
	sp, ok := o.split(filter, s)
	if !ok {
		return WriteFilters{Bucket: ClosedBucketFilter(), Residual: filter}
	}
	out := WriteFilters{Bucket: and(append([]bson.D{ClosedBucketFilter()}, sp.clauses()...)...)}
	if sp.rest != nil {
		out.Residual = EventFilterDoc(&query.Filter{Root: sp.rest})
	}
	return out
}
