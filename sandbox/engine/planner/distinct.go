package planner

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
)

// The distinct command over an index led by its key answers as mongod's
// getExecutorDistinct does: a DISTINCT_SCAN reads one key per distinct
// value, seeking past the rest, under a covered projection, and never
// fetches. Like mongod, a document without the field contributes the null
// its index key holds.

// distinctCandidate returns the DISTINCT_SCAN plan for q, or nil when no
// index qualifies: the index must lead with the key, hold it as a whole
// value (not multikey), hold every document (not sparse or partial), and
// the filter must be answered exactly by the bounds on that field.
func distinctCandidate(coll *catalog.Collection, q Query) *candidate {
	if q.DistinctKey == "" || q.Hint != nil || q.Projection == nil || !q.Projection.Coverable {
		return nil
	}
	preds := predicatesByPath(conjuncts(q.Filter))
	for _, ix := range coll.Indexes() {
		s := ix.Spec
		if s.Hidden || s.Sparse || s.Partial != nil || s.Fields[0].Path != q.DistinctKey || ix.FieldIsMultiKey(0) {
			continue
		}
		c := indexCandidate(ix, preds, nil, true)
		if c == nil {
			continue
		}
		keyFilter, rest := c.splitFilter(q.Filter)
		if len(keyFilter) > 0 || len(rest) > 0 || !coversProjection(q, c) {
			continue
		}
		return c
	}
	return nil
}

// buildDistinct assembles PROJECTION_COVERED over DISTINCT_SCAN.
func buildDistinct(coll *catalog.Collection, q Query, c *candidate, ctx func() context.Context) {
	ixs := newIxScan(c.ix, coll, orientAll(c), c.dir)
	ixs.keyDocs = true
	c.scan, c.ixscans, c.covered = ixs, []*ixScan{ixs}, true
	c.root = &projectionStage{child: &distinctScan{ixScan: ixs}, proj: q.Projection, covered: true, ctx: ctx}
}

// distinctScan returns the first entry of each distinct value of the
// index's first field within the bounds.
type distinctScan struct {
	*ixScan
}

func (s *distinctScan) work() (state, member) {
	st, m := s.ixScan.work()
	if st == advanced {
		// Seek past every entry holding the same first-field value.
		key := make([]any, len(s.bounds))
		key[0] = s.last[0]
		for i := 1; i < len(key); i++ {
			key[i] = s.highSentinel()
		}
		s.seekTo(key, true)
	}
	return st, m
}

func (s *distinctScan) describe(exec bool) bson.D {
	d := s.ixScan.describe(exec)
	d[0].Value = "DISTINCT_SCAN"
	if !exec {
		return d
	}
	// DISTINCT_SCAN reports only keysExamined of the scan's counters.
	out := d[:0:0]
	for _, f := range d {
		switch f.Key {
		case "seeks", "dupsTested", "dupsDropped":
			continue
		}
		out = append(out, f)
	}
	return out
}
