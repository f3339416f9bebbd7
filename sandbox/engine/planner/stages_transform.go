package planner

import (
	"container/heap"
	"context"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// --- SORT ---

// sortStage buffers its input and returns it ordered by the sort pattern,
// keeping only the first limit results when a limit was folded in.
type sortStage struct {
	st      stats
	child   stage
	pattern bson.D
	fields  []sortField
	// sortKeys computes each document's key.
	sortKeys index.SortPattern
	limit    int64
	rows     []sortRow
	loaded   bool
	out      int
	bytes    int64
	millis   int64
	// noDiskUse is allowDiskUse: false: past value.MemoryLimit the sort
	// fails (err) instead of spilling. mem is value.MemSize of the rows.
	noDiskUse bool
	mem       int64
	err       error
	arrived   int // rows taken in, numbering them for a stable order
	// keepKeys hands each document's sort key on with it, for a
	// projection reading {$meta: "sortKey"}.
	keepKeys bool
	// simple: explain's type is "simple" (SortStageSimple), else
	// "default" (planner_analysis.cpp canUseSimpleSort).
	simple bool
}

type sortField struct {
	path string
	desc bool
}

type sortRow struct {
	keys []any
	m    member
	seq  int
}

func newSortStage(child stage, pattern bson.D, limit int64, noDiskUse bool) *sortStage {
	s := &sortStage{child: child, pattern: pattern, limit: limit, noDiskUse: noDiskUse}
	for _, e := range pattern {
		desc := false
		switch x := e.Value.(type) {
		case int32:
			desc = x < 0
		case int64:
			desc = x < 0
		case float64:
			desc = x < 0
		}
		s.fields = append(s.fields, sortField{path: e.Key, desc: desc})
	}
	paths := make([]string, len(s.fields))
	desc := make([]bool, len(s.fields))
	for i, f := range s.fields {
		paths[i], desc[i] = f.path, f.desc
	}
	s.sortKeys = index.NewSortPattern(paths, desc)
	return s
}

func (s *sortStage) common() *stats { return &s.st }

func (s *sortStage) work() (state, member) {
	if !s.loaded {
		st, m := s.child.work()
		switch st {
		case advanced:
			keys, err := s.keys(m.doc)
			if err != nil {
				s.err, s.rows, s.loaded = err, nil, true
				return s.st.record(isEOF), member{}
			}
			s.bytes += int64(value.Size(m.doc))
			if s.add(sortRow{keys: keys, m: m}) {
				s.err, s.rows, s.loaded = value.SortMemoryExceeded(), nil, true
				return s.st.record(isEOF), member{}
			}
			return s.st.record(needTime), member{}
		case needTime:
			return s.st.record(needTime), member{}
		}
		s.loaded = true
		slices.SortFunc(s.rows, s.compareRows)
		return s.st.record(needTime), member{}
	}
	if s.out >= len(s.rows) {
		return s.st.record(isEOF), member{}
	}
	m := s.rows[s.out].m
	if s.keepKeys {
		m.ownKeys().Sort = bson.A(s.rows[s.out].keys)
	}
	s.rows[s.out] = sortRow{}
	s.out++
	return s.st.record(advanced), m
}

// keys is doc's sort key, one value per field (index.SortPattern).
func (s *sortStage) keys(doc bson.D) ([]any, error) {
	return s.sortKeys.Key(doc, nil)
}

// add takes in one row and reports whether the rows held now pass
// value.MemoryLimit with disk use refused. With a limit it keeps only the
// best limit rows, in a heap whose root is the worst, as mongod's top-k
// sorter does: its memory is that of the rows it holds, so a limit of 110
// documents of 1 MB fails as surely as no limit.
func (s *sortStage) add(r sortRow) bool {
	// Memory is counted only where it can fail the sort: MemSize walks
	// the whole document.
	size := func(r sortRow) int64 {
		if !s.noDiskUse {
			return 0
		}
		n := int64(value.MemSize(r.m.doc))
		for _, k := range r.keys {
			n += int64(value.MemSize(k))
		}
		return n
	}
	r.seq = s.arrived
	s.arrived++
	switch {
	case s.limit == 0:
		s.rows = append(s.rows, r)
		s.mem += size(r)
	case int64(len(s.rows)) < s.limit:
		heap.Push(worstFirst{s}, r)
		s.mem += size(r)
	case s.compareRows(r, s.rows[0]) < 0:
		s.mem += size(r) - size(s.rows[0])
		s.rows[0] = r
		heap.Fix(worstFirst{s}, 0)
	}
	return s.noDiskUse && s.mem > value.MemoryLimit
}

// compareRows orders rows by their keys, then by arrival, as a stable sort.
func (s *sortStage) compareRows(a, b sortRow) int {
	for i, f := range s.fields {
		c := value.Compare(a.keys[i], b.keys[i])
		if f.desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return a.seq - b.seq
}

// worstFirst is the sort's rows as a heap whose root is the worst row.
type worstFirst struct{ s *sortStage }

func (h worstFirst) Len() int           { return len(h.s.rows) }
func (h worstFirst) Less(i, j int) bool { return h.s.compareRows(h.s.rows[i], h.s.rows[j]) > 0 }
func (h worstFirst) Swap(i, j int)      { h.s.rows[i], h.s.rows[j] = h.s.rows[j], h.s.rows[i] }
func (h worstFirst) Push(x any)         { h.s.rows = append(h.s.rows, x.(sortRow)) }
func (h worstFirst) Pop() any {
	last := h.s.rows[len(h.s.rows)-1]
	h.s.rows = h.s.rows[:len(h.s.rows)-1]
	return last
}

func (s *sortStage) describe(exec bool) bson.D {
	d := bson.D{{Key: "stage", Value: "SORT"}}
	if exec {
		d = append(d, commonFields(&s.st, s.millis)...)
	}
	d = append(d,
		bson.E{Key: "sortPattern", Value: s.pattern},
		bson.E{Key: "memLimit", Value: int32(value.MemoryLimit)},
	)
	if s.limit > 0 {
		d = append(d, bson.E{Key: "limitAmount", Value: s.limit})
	}
	typ := "default"
	if s.simple {
		typ = "simple"
	}
	d = append(d, bson.E{Key: "type", Value: typ})
	if exec {
		d = append(d,
			bson.E{Key: "totalDataSizeSorted", Value: s.bytes},
			bson.E{Key: "usedDisk", Value: false},
			bson.E{Key: "spills", Value: int64(0)},
			bson.E{Key: "spilledDataStorageSize", Value: int64(0)},
		)
	}
	return append(d, bson.E{Key: "inputStage", Value: s.child.describe(exec)})
}

// sortKeyGenerator is SORT_KEY_GENERATOR: the sort key of documents an
// index already returns in order, for a projection that reads it.
type sortKeyGenerator struct {
	st       stats
	child    stage
	sortKeys index.SortPattern
	err      error
	millis   int64
}

func newSortKeyGenerator(child stage, pattern bson.D) *sortKeyGenerator {
	return &sortKeyGenerator{child: child, sortKeys: newSortStage(nil, pattern, 0, false).sortKeys}
}

func (s *sortKeyGenerator) common() *stats { return &s.st }

func (s *sortKeyGenerator) work() (state, member) {
	st, m := s.child.work()
	switch st {
	case advanced:
		keys, err := s.sortKeys.Key(m.doc, nil)
		if err != nil {
			s.err = err
			return s.st.record(isEOF), member{}
		}
		m.ownKeys().Sort = bson.A(keys)
		return s.st.record(advanced), m
	case needTime:
		return s.st.record(needTime), member{}
	}
	return s.st.record(isEOF), member{}
}

// describe: the stage has no specific stats (SortKeyGeneratorStage).
func (s *sortKeyGenerator) describe(exec bool) bson.D {
	d := bson.D{{Key: "stage", Value: "SORT_KEY_GENERATOR"}}
	if exec {
		d = append(d, commonFields(&s.st, s.millis)...)
	}
	return append(d, bson.E{Key: "inputStage", Value: s.child.describe(exec)})
}

// --- SKIP / LIMIT ---

type skipStage struct {
	st      stats
	child   stage
	n       int64
	skipped int64
	millis  int64
}

func (s *skipStage) common() *stats { return &s.st }

func (s *skipStage) work() (state, member) {
	st, m := s.child.work()
	switch st {
	case advanced:
		if s.skipped < s.n {
			s.skipped++
			return s.st.record(needTime), member{}
		}
		return s.st.record(advanced), m
	case needTime:
		return s.st.record(needTime), member{}
	}
	return s.st.record(isEOF), member{}
}

func (s *skipStage) describe(exec bool) bson.D {
	d := bson.D{{Key: "stage", Value: "SKIP"}}
	if exec {
		d = append(d, commonFields(&s.st, s.millis)...)
	}
	d = append(d, bson.E{Key: "skipAmount", Value: s.n})
	return append(d, bson.E{Key: "inputStage", Value: s.child.describe(exec)})
}

type limitStage struct {
	st     stats
	child  stage
	n      int64
	millis int64
}

func (s *limitStage) common() *stats { return &s.st }

func (s *limitStage) work() (state, member) {
	if s.st.advanced >= s.n {
		return s.st.record(isEOF), member{}
	}
	st, m := s.child.work()
	switch st {
	case advanced:
		return s.st.record(advanced), m
	case needTime:
		return s.st.record(needTime), member{}
	}
	return s.st.record(isEOF), member{}
}

func (s *limitStage) describe(exec bool) bson.D {
	d := bson.D{{Key: "stage", Value: "LIMIT"}}
	if exec {
		d = append(d, commonFields(&s.st, s.millis)...)
	}
	d = append(d, bson.E{Key: "limitAmount", Value: s.n})
	return append(d, bson.E{Key: "inputStage", Value: s.child.describe(exec)})
}

// --- PROJECTION ---

type projectionStage struct {
	st    stats
	child stage
	proj  *Projector
	// covered: the input is index keys, not documents (mongod's
	// PROJECTION_COVERED for a simple projection).
	covered bool
	ctx     func() context.Context
	err     error
	millis  int64
}

func (s *projectionStage) common() *stats { return &s.st }

func (s *projectionStage) work() (state, member) {
	st, m := s.child.work()
	switch st {
	case advanced:
		doc, err := s.proj.Apply(s.ctx, m.doc, m.pos, m.keys.IndexKey(), m.rid, m.keys.SortKey())
		if err != nil {
			s.err = err
			return s.st.record(isEOF), member{}
		}
		m.doc = doc
		return s.st.record(advanced), m
	case needTime:
		return s.st.record(needTime), member{}
	}
	return s.st.record(isEOF), member{}
}

func (s *projectionStage) describe(exec bool) bson.D {
	name := s.proj.Stage
	if s.covered && name == "PROJECTION_SIMPLE" {
		name = "PROJECTION_COVERED"
	}
	d := bson.D{{Key: "stage", Value: name}}
	if exec {
		d = append(d, commonFields(&s.st, s.millis)...)
	}
	if s.proj.Spec != nil {
		// RETURN_KEY has no transformBy (explain's statsToBSON).
		d = append(d, bson.E{Key: "transformBy", Value: s.proj.Spec})
	}
	return append(d, bson.E{Key: "inputStage", Value: s.child.describe(exec)})
}

// --- EOF (missing collection) ---

type eofStage struct{ st stats }

func (s *eofStage) common() *stats { return &s.st }

func (s *eofStage) work() (state, member) { return s.st.record(isEOF), member{} }

func (s *eofStage) describe(exec bool) bson.D {
	d := bson.D{{Key: "stage", Value: "EOF"}}
	if exec {
		d = append(d, commonFields(&s.st, 0)...)
	}
	return d
}
