package planner

import (
	"math/rand/v2"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
)

// RandomCursorSample reports whether a $sample of size over a collection
// of n documents reads a random cursor rather than sorting the whole
// collection by random keys: mongod's createRandomCursorExecutor
// (pipeline_d.cpp) takes it for a collection of more than 100 documents
// when the sample is at most 5% of them.
func RandomCursorSample(size int64, n int) bool {
	const maxSampleRatioForRandCursor = 0.05
	return n > 100 && float64(size) <= float64(n)*maxSampleRatioForRandCursor
}

// multiIteratorStage is MULTI_ITERATOR over the record store's random
// cursor: it returns records in random order. WiredTiger's random cursor
// may return a record twice, which $sampleFromRandomCursor then skips;
// this one draws size distinct records, so it never does.
type multiIteratorStage struct {
	st      stats
	coll    *catalog.Collection
	size    int64
	records []*catalog.Record
	drawn   bool
	millis  int64
}

func (s *multiIteratorStage) common() *stats { return &s.st }

// draw picks size distinct positions among the collection's records and
// reads them in one pass, then shuffles them.
func (s *multiIteratorStage) draw() {
	n := s.coll.Count()
	k := min(int(s.size), n)
	picked := rand.Perm(n)[:k]
	slices.Sort(picked)
	pos, next := 0, 0
	s.coll.Scan(0, func(r *catalog.Record) bool {
		if next < len(picked) && picked[next] == pos {
			s.records = append(s.records, r)
			next++
		}
		pos++
		return next < len(picked)
	})
	rand.Shuffle(len(s.records), func(i, j int) { s.records[i], s.records[j] = s.records[j], s.records[i] })
}

func (s *multiIteratorStage) work() (state, member) {
	if !s.drawn {
		s.draw()
		s.drawn = true
	}
	if len(s.records) == 0 {
		return s.st.record(isEOF), member{}
	}
	r := s.records[0]
	s.records = s.records[1:]
	return s.st.record(advanced), member{rid: r.ID, doc: r.Doc, pos: -1}
}

// describe: MultiIteratorStage has no specific stats.
func (s *multiIteratorStage) describe(exec bool) bson.D {
	d := bson.D{{Key: "stage", Value: "MULTI_ITERATOR"}}
	if exec {
		d = append(d, commonFields(&s.st, s.millis)...)
	}
	return d
}
