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

// ForWrites splits a write's measurement filter, compiled with opts, for
// the buckets of a collection in state s. It compiles a filter of its
// own, as the split renames the metaField's predicates in place.
func (o Options) ForWrites(filter bson.D, opts query.Options, s BucketState) (WriteFilters, error) {
	f, err := query.Compile(filter, opts)
	if err != nil {
		return WriteFilters{}, err
	}
	clauses := bson.A{ClosedBucketFilter()}
	meta, rest := o.splitMeta(f.Root)
	if meta != nil {
		clauses = append(clauses, (&query.Filter{Root: meta}).Serialize())
	}
	var out WriteFilters
	if rest != nil {
		g := &predicateGenerator{o: o, s: s}
		if p := g.predicates(rest); p.loose != nil {
			clauses = append(clauses, p.loose)
		}
		out.Residual = EventFilterDoc(&query.Filter{Root: rest})
	}
	out.Bucket = clauses[0].(bson.D)
	if len(clauses) > 1 {
		out.Bucket = bson.D{{Key: "$and", Value: clauses}}
	}
	return out, nil
}
