package planner

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// TraversalPreference is the order a time-series sort wants the buckets
// read in, reversed (createTimeSeriesTraversalPreference, pipeline_d.cpp):
// a plan whose scan gives Pattern while it runs forward is run backward
// instead (QueryPlannerAnalysis::analyzeSort with a traversal preference),
// so that a descending sort on the time field reads the newest buckets
// first. ClusterField is the buckets' control.min time, the order a
// collection scan of buckets gives.
type TraversalPreference struct {
	Pattern      bson.D
	ClusterField string
}

// applyTraversalPreference reverses, among the candidates, the forward
// scans whose order matches the preference. A collection scan's direction
// is left to the preference alone, whatever a $natural hint said
// (makeCollectionScan).
func applyTraversalPreference(cands []*candidate, pref *TraversalPreference) {
	for _, c := range cands {
		if c.branches != nil || c.merged || c.span != nil || c.cluster != nil {
			continue
		}
		if c.ix == nil {
			c.dir = 1
		}
		if c.dir == 1 && matchesTraversal(pref.Pattern, c.baseSortPattern(pref.ClusterField)) {
			c.dir = -1
		}
	}
}

// baseSortPattern is the order a forward scan of c gives (the base sort
// pattern of its provided sorts): a collection scan of buckets, by their
// control.min time; an index scan, by its key fields other than those its
// bounds hold to one point, up to the first that cannot give an order.
func (c *candidate) baseSortPattern(clusterField string) bson.D {
	if c.ix == nil {
		return bson.D{{Key: clusterField, Value: int32(1)}}
	}
	var out bson.D
	for i, f := range c.ix.Spec.Fields {
		if len(c.bounds[i]) == 1 && c.bounds[i].isPoints() {
			continue
		}
		if !value.IsNumber(c.ix.Spec.Key[i].Value) || c.ix.FieldIsMultiKey(i) {
			break
		}
		dir := int32(1)
		if f.Desc {
			dir = -1
		}
		out = append(out, bson.E{Key: f.Path, Value: dir})
	}
	return out
}

// matchesTraversal is sortMatchesTraversalPreference: every field of the
// preference, in order, is the scan's with the same direction.
func matchesTraversal(pref, sort bson.D) bool {
	if len(pref) > len(sort) {
		return false
	}
	for i, p := range pref {
		s := sort[i]
		if p.Key != s.Key || !value.IsNumber(p.Value) || !value.IsNumber(s.Value) ||
			(value.ToDouble(p.Value) < 0) != (value.ToDouble(s.Value) < 0) {
			return false
		}
	}
	return true
}

// ScanLeaf is the winning plan's scan, as the bounded-sort rewrite of a
// time-series pipeline reads it: PipelineD walks down from the root
// through FETCH to a collection or index scan, and any other stage on
// the way rules the rewrite out.
type ScanLeaf struct {
	IndexScan bool
	Forward   bool
	// KeyPattern is the index's, Point says for each of its fields whether
	// the bounds hold it to one point, MultiKey whether the index is.
	KeyPattern bson.D
	Point      []bool
	MultiKey   bool
}

// ScanLeaf describes the winning plan's scan; ok is false when the plan
// is not a scan with at most a FETCH above it.
func (e *Executor) ScanLeaf() (ScanLeaf, bool) {
	if e.winner == nil || e.express != nil || e.count != nil {
		return ScanLeaf{}, false
	}
	s := e.root
	if p, ok := s.(*projectionStage); ok {
		// A projection of the buckets (the metaField excluded above the
		// unpacking) keeps the order of the scan under it.
		s = p.child
	}
	if f, ok := s.(*fetch); ok {
		s = f.child
	}
	switch x := s.(type) {
	case *collScan:
		return ScanLeaf{Forward: !x.backward}, true
	case *ixScan:
		points := make([]bool, len(e.winner.bounds))
		for i, b := range e.winner.bounds {
			points[i] = len(b) == 1 && b.isPoints()
		}
		return ScanLeaf{IndexScan: true, Forward: x.dir > 0, KeyPattern: x.ix.Spec.Key, Point: points, MultiKey: x.ix.IsMultiKey()}, true
	}
	return ScanLeaf{}, false
}
