package planner

import (
	"slices"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// maxScansToExplode is internalQueryMaxScansToExplode as a default server
// has it.
const maxScansToExplode = 200

// explodeForSort is QueryPlannerAnalysis::explodeForSort
// (planner_analysis.cpp) for a plan of one index scan the sort is not
// given by: when the leading key fields are bounded by points only
// ({a: {$in: [1, 2]}}) and the fields after them, none multikey, give
// the sort (or its reverse), the scan splits into one scan per
// combination of points, each in the sort order, merged by a SORT_MERGE.
// More than maxScansToExplode scans are not made; explain then reports
// maxScansToExplodeReached. It returns the merge of the scans, each
// filtered by keyFilter, or nil.
func (c *candidate) explodeForSort(coll *catalog.Collection, q Query, keyFilter []query.Node) *mergeSortStage {
	fields := c.ix.Spec.Fields
	prefix, scans := 0, 1
	for prefix < len(fields) && c.bounds[prefix].isPoints() {
		scans *= len(c.bounds[prefix])
		prefix++
	}
	if prefix == 0 || prefix == len(fields) {
		return nil
	}
	dir := 0
	for i, e := range q.Sort {
		f := prefix + i
		if f >= len(fields) || fields[f].Hashed || fields[f].Path != e.Key || c.ix.FieldIsMultiKey(f) {
			return nil
		}
		d := 1
		if fields[f].Desc != (value.ToDouble(e.Value) < 0) {
			d = -1
		}
		if dir != 0 && d != dir {
			return nil
		}
		dir = d
	}
	for f := prefix + len(q.Sort); f < len(fields); f++ {
		// A multikey field after the sort's still bars the order the
		// remaining key pattern would give.
		if c.ix.FieldIsMultiKey(f) {
			return nil
		}
	}
	if scans > maxScansToExplode {
		c.hitScanLimit = true
		return nil
	}
	var children []stage
	c.ixscans = nil
	for _, bounds := range pointCombinations(c.bounds, prefix, dir) {
		part := &candidate{ix: c.ix, bounds: bounds, dir: dir}
		ixs := newIxScan(c.ix, coll, orientAll(part), dir)
		ixs.addKeyMeta = q.wantsIndexKey()
		// The merge orders the scans' documents by their keys; a FETCH
		// above it reads the stored documents.
		ixs.keyDocs = true
		if len(keyFilter) > 0 {
			ixs.filter = andOf(keyFilter)
		}
		c.ixscans = append(c.ixscans, ixs)
		children = append(children, ixs)
	}
	c.dir, c.sorted = dir, true
	return newMergeSortStage(children, q.Sort)
}

// pointCombinations lists the bounds of every scan an explosion makes:
// one point of each of the first prefix fields, in the order of their
// intervals as the scan reads them (a reversed scan has its bounds
// reversed first, QueryPlannerCommon::reverseScans), the other fields'
// bounds unchanged.
func pointCombinations(bounds []oil, prefix, dir int) [][]oil {
	out := [][]oil{nil}
	for f := range prefix {
		points := bounds[f]
		if dir < 0 {
			points = slices.Clone(points)
			slices.Reverse(points)
		}
		var next [][]oil
		for _, partial := range out {
			for _, iv := range points {
				b := append(append([]oil(nil), partial...), oil{iv})
				next = append(next, b)
			}
		}
		out = next
	}
	for i := range out {
		out[i] = append(out[i], bounds[prefix:]...)
	}
	return out
}

// anyHitScanLimit reports whether a candidate would have exploded into
// more than maxScansToExplode scans.
func anyHitScanLimit(cands []*candidate) bool {
	for _, c := range cands {
		if c.hitScanLimit {
			return true
		}
	}
	return false
}
