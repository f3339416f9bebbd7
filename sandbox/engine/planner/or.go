package planner

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/query"
)

// A rooted $or whose every branch can use an index is answered as mongod
// does: SUBPLAN over FETCH over an OR of one index scan per branch, the OR
// dropping RecordIDs already returned by an earlier branch.

// orCandidateOver plans a rooted $or over the indexes admit accepts (a
// hint restricts every branch to the hinted index, an index filter to the
// ones it allows), or returns nil when some branch has no usable index
// (mongod then scans the collection).
func orCandidateOver(coll *catalog.Collection, q Query, admit func(*index.Index) bool) *candidate {
	if q.Filter == nil {
		return nil
	}
	or, ok := q.Filter.Root.(*query.Or)
	if !ok || len(or.Children) == 0 {
		return nil
	}
	c := &candidate{dir: 1}
	for _, branch := range or.Children {
		var nodes []query.Node
		if a, ok := branch.(*query.And); ok {
			nodes = a.Children
		} else {
			nodes = []query.Node{branch}
		}
		preds := predicatesByPath(nodes)
		var best *candidate
		bestScore := -1
		var options []*candidate
		for _, ix := range coll.Indexes() {
			if !admit(ix) {
				continue
			}
			if ix.Wildcard() != nil {
				options = append(options, wildcardCandidates(ix, preds, nodes, nil, false)...)
			} else if b := indexCandidate(ix, preds, nil, false); b != nil {
				options = append(options, b)
			}
		}
		for _, b := range options {
			if !usable(b.ix, b, Query{Filter: &query.Filter{Root: branch}}) {
				continue
			}
			// Prefer the index that constrains more leading fields, as
			// the per-branch multi-planner would on selective data.
			score := 0
			for _, o := range b.bounds {
				if o.isFull() {
					break
				}
				score++
			}
			if score > bestScore {
				best, bestScore = b, score
			}
		}
		if best == nil {
			return nil
		}
		c.branches = append(c.branches, best)
	}
	return c
}

type orStage struct {
	st       stats
	children []stage
	cur      int
	seen     ridSet
	dupsT    int64
	dupsD    int64
	millis   int64
}

func (s *orStage) common() *stats { return &s.st }

func (s *orStage) work() (state, member) {
	if s.cur >= len(s.children) {
		return s.st.record(isEOF), member{}
	}
	st, m := s.children[s.cur].work()
	switch st {
	case isEOF:
		s.cur++
		if s.cur >= len(s.children) {
			return s.st.record(isEOF), member{}
		}
		return s.st.record(needTime), member{}
	case needTime:
		return s.st.record(needTime), member{}
	}
	s.dupsT++
	if !s.seen.add(m.rid) {
		s.dupsD++
		return s.st.record(needTime), member{}
	}
	return s.st.record(advanced), m
}

func (s *orStage) describe(exec bool) bson.D {
	d := bson.D{{Key: "stage", Value: "OR"}}
	if exec {
		d = append(d, commonFields(&s.st, s.millis)...)
		d = append(d, bson.E{Key: "dupsTested", Value: s.dupsT}, bson.E{Key: "dupsDropped", Value: s.dupsD})
	}
	in := make(bson.A, len(s.children))
	for i, c := range s.children {
		in[i] = c.describe(exec)
	}
	return append(d, bson.E{Key: "inputStages", Value: in})
}

type subplanStage struct {
	st     stats
	child  stage
	millis int64
}

func (s *subplanStage) common() *stats { return &s.st }

func (s *subplanStage) work() (state, member) {
	st, m := s.child.work()
	return s.st.record(st), m
}

func (s *subplanStage) describe(exec bool) bson.D {
	d := bson.D{{Key: "stage", Value: "SUBPLAN"}}
	if exec {
		d = append(d, commonFields(&s.st, s.millis)...)
	}
	return append(d, bson.E{Key: "inputStage", Value: s.child.describe(exec)})
}
