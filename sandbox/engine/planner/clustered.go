package planner

import (
	"math"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// A collection created with clusteredIndex stores its records in cluster
// key (_id) order, so its collection scan reads them in that order and
// can start and stop at a key: the bounded scan explain calls
// CLUSTERED_IXSCAN, with minRecord and maxRecord (CollectionScanParams,
// planner_access.cpp's handleRIDRangeScan). The sandbox keeps the records
// in RecordID order and the cluster key in the unique _id index, so the
// scan walks that index and reads each record it names.

// clusterRange is a clustered collection scan's bounds on the cluster
// key.
type clusterRange struct {
	min, max       any
	hasMin, hasMax bool
	// maxExclusive: max ends the scan without being read as a match,
	// as a find's max() does (kIncludeStartRecordOnly).
	maxExclusive bool
}

// clusterRangeOf is handleRIDRangeScan (planner_access.cpp): the
// tightest bounds the filter's top-level comparisons and $in of _id put
// on the scan, nil for none. A comparison first bounds the scan to its
// value's type (appendMinForType and appendMaxForType, whose least
// number is NaN), then to its value. Every bound is inclusive: the
// filter, which the scan still applies, excludes the value of a $lt or
// $gt.
func clusterRangeOf(f *query.Filter) *clusterRange {
	r := &clusterRange{}
	for _, n := range conjuncts(f) {
		switch x := n.(type) {
		case *query.Compare:
			if x.Path != "_id" || x.Op == "$ne" {
				continue
			}
			lo, _, hi, _ := typeBracket(x.Value)
			if value.IsNumber(x.Value) {
				lo = math.NaN()
			}
			r.tightenMin(lo)
			r.tightenMax(hi)
			switch x.Op {
			case "$eq":
				r.tightenMin(x.Value)
				r.tightenMax(x.Value)
			case "$gt", "$gte":
				r.tightenMin(x.Value)
			case "$lt", "$lte":
				r.tightenMax(x.Value)
			}
		case *query.In:
			if x.Path != "_id" || len(x.Regexes) > 0 || len(x.Values) == 0 {
				continue
			}
			lo, hi := x.Values[0], x.Values[0]
			for _, v := range x.Values[1:] {
				if value.Compare(v, lo) < 0 {
					lo = v
				}
				if value.Compare(v, hi) > 0 {
					hi = v
				}
			}
			r.tightenMin(lo)
			r.tightenMax(hi)
		}
	}
	if !r.hasMin && !r.hasMax {
		return nil
	}
	return r
}

func (r *clusterRange) tightenMin(v any) {
	if !r.hasMin || value.Compare(v, r.min) > 0 {
		r.min, r.hasMin = v, true
	}
}

func (r *clusterRange) tightenMax(v any) {
	if !r.hasMax || value.Compare(v, r.max) < 0 {
		r.max, r.hasMax = v, true
	}
}

// clusterScan is the clustered part of a collection scan: its bounds,
// and the last entry of the cluster key it read.
type clusterScan struct {
	rng  *clusterRange
	last *index.Entry
	// readPastEnd: the scan met a record past its end bound, which
	// mongod's CollectionScan counts as examined.
	readPastEnd bool
}

// refillClustered reads up to n more records, in cluster key order, into
// c.buf.
func (c *collScan) refillClustered(n int) {
	ix := c.coll.Indexes()[0]
	cs, r := c.cluster, c.cluster.rng
	fn := func(e index.Entry) bool {
		if cs.past(e.Key[0], c.backward) {
			c.done, cs.readPastEnd = true, true
			return false
		}
		cs.last = &e
		if rec := c.coll.Record(e.RID); rec != nil {
			c.buf = append(c.buf, rec)
		}
		return len(c.buf) < n
	}
	// A unique index resumes after an entry from (its key, its RecordID
	// ± 1): AscendFrom and DescendFrom skip the entry itself.
	var pivot index.Entry
	switch {
	case cs.last != nil && c.backward:
		pivot = index.Entry{Key: cs.last.Key, RID: cs.last.RID - 1}
	case cs.last != nil:
		pivot = index.Entry{Key: cs.last.Key, RID: cs.last.RID + 1}
	case c.backward && r != nil && r.hasMax:
		pivot = index.Entry{Key: []any{r.max}, RID: math.MaxInt64}
	case c.backward:
		pivot = index.Entry{Key: []any{index.Highest{}}, RID: math.MaxInt64}
	case r != nil && r.hasMin:
		pivot = index.Entry{Key: []any{r.min}}
	default:
		pivot = index.Entry{Key: []any{index.Lowest{}}}
	}
	if c.backward {
		ix.DescendFrom(pivot, fn)
	} else {
		ix.AscendFrom(pivot, fn)
	}
}

// past reports a key beyond the scan's end bound in its direction.
func (cs *clusterScan) past(key any, backward bool) bool {
	r := cs.rng
	switch {
	case r == nil:
		return false
	case !backward && r.hasMax:
		c := value.Compare(key, r.max)
		return c > 0 || c == 0 && r.maxExclusive
	case backward && r.hasMin:
		return value.Compare(key, r.min) < 0
	}
	return false
}

// clustered reports a collection clustered by _id: one created so, or
// time-series buckets, whose _id starts with their minimum time.
func clustered(coll *catalog.Collection) bool { return coll != nil && coll.IsClustered() }

// clusterHint is the cluster key of a clustered collection when hint
// names it: by its name, or by the key pattern {_id: 1}
// (hintMatchesClusterKey; {_id: -1} names no index).
func clusterHint(coll *catalog.Collection, hint any) *index.Index {
	spec := coll.ClusteredIndex()
	if spec == nil {
		return nil
	}
	switch h := hint.(type) {
	case string:
		if h != value.Get(spec, "name") {
			return nil
		}
	case bson.D:
		if value.Compare(h, value.Get(spec, "key")) != 0 {
			return nil
		}
	default:
		return nil
	}
	return coll.Indexes()[0]
}

// collScanCandidate is the collection scan in direction dir: on a
// clustered collection, bounded by the filter's cluster key predicates,
// and giving a sort on the cluster key in its direction
// (determineClusteredScanDirection).
func collScanCandidate(coll *catalog.Collection, q Query, dir int, sortSpec bson.D) *candidate {
	c := &candidate{dir: dir}
	if !clustered(coll) {
		return c
	}
	c.cluster = clusterRangeOf(q.Filter)
	if len(sortSpec) == 1 && sortSpec[0].Key == "_id" && value.IsNumber(sortSpec[0].Value) {
		sortDir := 1
		if value.ToDouble(sortSpec[0].Value) < 0 {
			sortDir = -1
		}
		if q.Hint == nil {
			c.dir = sortDir
		}
		c.sorted = c.dir == sortDir
	}
	return c
}

// clusterMinMax is handleRIDRangeMinMax: a min or max with the cluster
// key hinted bounds the collection scan, which must run forward, from
// min up to max, excluded.
func clusterMinMax(q Query) (*clusterRange, error) {
	if len(q.Sort) == 1 && q.Sort[0].Key == "_id" && value.IsNumber(q.Sort[0].Value) && value.ToDouble(q.Sort[0].Value) < 0 {
		return nil, mongoerr.New(mongoerr.ErrClusteredMinMaxBackward, "min() / max() are only supported for forward collection scans on clustered collections")
	}
	r := &clusterRange{maxExclusive: true}
	if len(q.Min) > 0 {
		r.min, r.hasMin = q.Min[0].Value, true
	}
	if len(q.Max) > 0 {
		r.max, r.hasMax = q.Max[0].Value, true
	}
	if r.hasMin && r.hasMax && value.Compare(r.min, r.max) >= 0 {
		return nil, mongoerr.New(mongoerr.ErrClusteredMinMaxOrder, "max() must be greater than min()")
	}
	return r, nil
}
