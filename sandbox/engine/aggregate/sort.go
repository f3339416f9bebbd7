package aggregate

import (
	"container/heap"
	"slices"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/projection"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// sortSpec is a parsed sort pattern; it also orders $top/$bottom groups.
type sortSpec struct {
	pattern bson.D
	index.SortPattern
}

// parseSortPattern is SortPattern's constructor (sort_pattern.cpp): a
// $meta key is parsed first; any other must be a number, whose
// safeNumberLong (so 1.5 is 1) is 1 or -1, before its name is made a
// FieldPath, which may not repeat. The pattern keeps each direction as
// the int SortPattern::serialize writes back.
func parseSortPattern(spec any) (*sortSpec, error) {
	d, ok := spec.(bson.D)
	if !ok {
		return nil, mongoerr.New(mongoerr.ErrSortNotObject, "the $sort key specification must be an object")
	}
	if len(d) == 0 {
		return nil, mongoerr.New(mongoerr.ErrSortEmpty, "$sort stage must have at least one sort key")
	}
	s := &sortSpec{pattern: make(bson.D, 0, len(d))}
	seen := make(map[string]bool, len(d))
	for _, e := range d {
		if meta, isDoc := e.Value.(bson.D); isDoc {
			return nil, CheckMetaSort(meta)
		}
		if !value.IsNumber(e.Value) {
			return nil, mongoerr.New(mongoerr.ErrSortIllegalKey, "Illegal key in $sort specification: "+value.FormatElem(e.Key, e.Value))
		}
		n, _ := value.SafeNumberLong(e.Value)
		if n != 1 && n != -1 {
			return nil, mongoerr.New(mongoerr.ErrSortBadDirection, "$sort key ordering must be 1 (for ascending) or -1 (for descending)")
		}
		if err := projection.ValidateFieldPath(e.Key); err != nil {
			return nil, err
		}
		if seen[e.Key] {
			return nil, mongoerr.Newf(mongoerr.ErrSortDuplicateKey, "$sort key must not contain duplicate keys (duplicate: '%s')", e.Key)
		}
		seen[e.Key] = true
		s.pattern = append(s.pattern, bson.E{Key: e.Key, Value: int32(n)})
		s.Paths = append(s.Paths, strings.Split(e.Key, "."))
		s.Desc = append(s.Desc, n == -1)
	}
	return s, nil
}

func (s *sortSpec) compare(a, b []any) int {
	for i := range a {
		c := value.Compare(a[i], b[i])
		if c != 0 {
			if s.Desc[i] {
				return -c
			}
			return c
		}
	}
	return 0
}

type sortStage struct {
	*sortSpec
	limit       int64 // a following $limit, absorbed (0: none)
	sortedBytes int64 // BSON size of the documents sorted, for explain
	// outputSortKeyMetadata marks the $sort $setWindowFields puts in
	// front of itself, which explain says.
	outputSortKeyMetadata bool
	// keepsMeta: the documents reaching the stage may carry metadata the
	// sandbox hands on (metaCarried), which each keeps through the sort.
	keepsMeta bool
}

func (s *sortStage) execStats() bson.D {
	return bson.D{
		{Key: "totalDataSizeSortedBytesEstimate", Value: s.sortedBytes},
		{Key: "usedDisk", Value: false},
		{Key: "spills", Value: int64(0)},
		{Key: "spilledDataStorageSize", Value: int64(0)},
	}
}

func parseSort(spec any, p *parser) ([]Stage, error) {
	s, err := parseSortPattern(spec)
	if err != nil {
		return nil, err
	}
	in := p.stageIn
	return []Stage{&sortStage{sortSpec: s, keepsMeta: in.sortKey == metaCarried || in.recordID == metaCarried}}, nil
}

func (s *sortStage) Name() string { return "$sort" }

// Spec: mongod shows {$sort: {sortKey: {...}, limit: N}}.
func (s *sortStage) Spec() bson.D {
	body := bson.D{{Key: "sortKey", Value: s.pattern}}
	if s.limit > 0 {
		body = append(body, bson.E{Key: "limit", Value: s.limit})
	}
	if s.outputSortKeyMetadata {
		body = append(body, bson.E{Key: "outputSortKeyMetadata", Value: true})
	}
	return stageSpec("$sort", body)
}

type keyedDoc struct {
	key []any
	doc bson.D
	seq int64
	// meta is the document's metadata when the stage keeps it.
	meta *Meta
}

func (s *sortStage) open(in Iterator, rt *runtime) (Iterator, error) {
	return s.openSorting(in, rt, rt.ctx.NoDiskUse)
}

// openSorting sorts in; limited holds the sort to the blocking sort's
// memory limit (allowDiskUse: false).
func (s *sortStage) openSorting(in Iterator, rt *runtime, limited bool) (Iterator, error) {
	var held *sortHoles
	if src, ok := in.(HolesSource); ok {
		held = &sortHoles{src: src, bySeq: map[int64]*projection.Holes{}}
	}
	var last *Meta
	var it Iterator = blockingIterator(func() ([]keyedDoc, error) {
		if s.limit > 0 {
			return s.topK(in, held, rt, limited)
		}
		return s.all(in, held, rt, limited)
	}, func(k keyedDoc) bson.D {
		if rt.explain {
			s.sortedBytes += int64(value.Size(k.doc))
		}
		if held != nil {
			held.last = held.bySeq[k.seq]
		}
		last = k.meta
		return k.doc
	})
	// No sort key metadata: 8.0's DocumentSourceSort::extractSortKey sets
	// it only when the pipeline's output is to be merged (needsMerge, a
	// sharded cluster's shard half), never on a standalone. A sort key
	// reaches the pipeline only from a $sort the query layer ran (see
	// Pipeline.LeadingNeedsSortKey). Each document keeps the metadata it
	// came with.
	if s.keepsMeta {
		it = metaIterator{Iterator: it, meta: func() Meta {
			if last == nil {
				return Meta{}
			}
			return *last
		}}
	}
	if held == nil {
		return it, nil
	}
	// An in-memory sort keeps mongod's Documents, holes and all.
	return holedIterator{Iterator: it, holes: func() *projection.Holes { return held.last }}, nil
}

// metaOf is the metadata of in's last document when the stage keeps it,
// nil otherwise.
func (s *sortStage) metaOf(in Iterator) *Meta {
	if !s.keepsMeta {
		return nil
	}
	m := metaOf(in)
	return &m
}

// metaIterator is an iterator whose documents' metadata meta tells.
type metaIterator struct {
	Iterator
	meta func() Meta
}

func (m metaIterator) Meta() Meta { return m.meta() }

// sortHoles keeps the holes of the documents a $sort holds, by their
// input sequence number, when its input carries them.
type sortHoles struct {
	src   HolesSource
	bySeq map[int64]*projection.Holes
	last  *projection.Holes
}

func (h *sortHoles) record(seq int64) {
	if holes := h.src.Holes(); holes != nil {
		h.bySeq[seq] = holes
	}
}

// sortedMem is the Sorter's account of one sorted document: the document
// and its key, as value.MemSize counts them.
func sortedMem(k []any, d bson.D) int {
	n := value.MemSize(d)
	for _, v := range k {
		n += value.MemSize(v)
	}
	return n
}

// all sorts the whole input. With allowDiskUse: false it fails once the
// documents held pass value.MemoryLimit, as mongod's sorter does; with
// disk use allowed mongod would spill sorted runs to disk, and here they
// stay in memory.
func (s *sortStage) all(in Iterator, held *sortHoles, rt *runtime, limited bool) ([]keyedDoc, error) {
	var docs []keyedDoc
	mem := 0
	// Keys are carved out of large blocks rather than allocated per
	// document.
	var arena []any
	width := len(s.Paths)
	for n := 0; ; n++ {
		if n&4095 == 4095 {
			if err := rt.ctx.err(); err != nil {
				return nil, err
			}
		}
		d, ok, err := in.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if len(arena)+width > cap(arena) {
			arena = make([]any, 0, 4096*width)
		}
		k, err := s.Key(d, arena[len(arena):])
		if err != nil {
			return nil, err
		}
		arena = arena[:len(arena)+width]
		docs = append(docs, keyedDoc{key: k[:width:width], doc: d, seq: int64(n), meta: s.metaOf(in)})
		if held != nil {
			held.record(int64(n))
		}
		if limited {
			if mem += sortedMem(k, d); mem > value.MemoryLimit {
				return nil, value.SortMemoryExceeded()
			}
		}
	}
	slices.SortStableFunc(docs, func(a, b keyedDoc) int { return s.compare(a.key, b.key) })
	return docs, nil
}

// topK keeps only the best limit documents in a max-heap, so memory stays
// bounded by the limit whatever the input size; with allowDiskUse: false
// the documents kept must still fit in value.MemoryLimit.
func (s *sortStage) topK(in Iterator, held *sortHoles, rt *runtime, limited bool) ([]keyedDoc, error) {
	h := &docHeap{spec: s.sortSpec}
	var spare []any
	mem := 0
	for seq := int64(0); ; seq++ {
		if seq&4095 == 4095 {
			if err := rt.ctx.err(); err != nil {
				return nil, err
			}
		}
		d, ok, err := in.Next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		k, err := s.Key(d, spare)
		if err != nil {
			return nil, err
		}
		if int64(len(h.docs)) < s.limit {
			heap.Push(h, keyedDoc{key: slices.Clone(k), doc: d, seq: seq, meta: s.metaOf(in)})
			if held != nil {
				held.record(seq)
			}
			if limited {
				mem += sortedMem(k, d)
			}
		} else if s.compare(k, h.docs[0].key) < 0 {
			// Replace the worst kept document only when strictly better,
			// so earlier documents win ties as in a stable sort.
			if limited {
				mem += sortedMem(k, d) - sortedMem(h.docs[0].key, h.docs[0].doc)
			}
			spare = h.docs[0].key
			if held != nil {
				delete(held.bySeq, h.docs[0].seq)
				held.record(seq)
			}
			h.docs[0] = keyedDoc{key: slices.Clone(k), doc: d, seq: seq, meta: s.metaOf(in)}
			heap.Fix(h, 0)
		} else {
			spare = k
		}
		if limited && mem > value.MemoryLimit {
			return nil, value.SortMemoryExceeded()
		}
	}
	out := h.docs
	slices.SortFunc(out, func(a, b keyedDoc) int {
		if c := s.compare(a.key, b.key); c != 0 {
			return c
		}
		return int(a.seq - b.seq)
	})
	return out, nil
}

// docHeap is a max-heap on (key, seq): its root is the worst kept document.
type docHeap struct {
	spec *sortSpec
	docs []keyedDoc
}

func (h *docHeap) Len() int { return len(h.docs) }
func (h *docHeap) Less(i, j int) bool {
	c := h.spec.compare(h.docs[i].key, h.docs[j].key)
	if c != 0 {
		return c > 0
	}
	return h.docs[i].seq > h.docs[j].seq
}
func (h *docHeap) Swap(i, j int) { h.docs[i], h.docs[j] = h.docs[j], h.docs[i] }
func (h *docHeap) Push(x any)    { h.docs = append(h.docs, x.(keyedDoc)) }
func (h *docHeap) Pop() any {
	x := h.docs[len(h.docs)-1]
	h.docs = h.docs[:len(h.docs)-1]
	return x
}

// ---- $sortByCount: $group {_id: <expr>, count: {$sum: 1}} + $sort {count: -1} ----

func parseSortByCount(spec any, p *parser) ([]Stage, error) {
	switch x := spec.(type) {
	case bson.D:
		if len(x) == 0 || !strings.HasPrefix(x[0].Key, "$") {
			return nil, mongoerr.New(mongoerr.ErrSortByCountNotExpression, "the sortByCount field must be defined as a $-prefixed path or an expression inside an object")
		}
	case string:
		if !strings.HasPrefix(x, "$") {
			return nil, mongoerr.New(mongoerr.ErrSortByCountNotPath, "the sortByCount field must be defined as a $-prefixed path or an expression inside an object")
		}
	default:
		return nil, mongoerr.New(mongoerr.ErrSortByCountType, "the sortByCount field must be specified as a string or as an object")
	}
	group, err := parseGroup(bson.D{{Key: "_id", Value: spec}, {Key: "count", Value: bson.D{{Key: "$sum", Value: int32(1)}}}}, p)
	if err != nil {
		return nil, err
	}
	srt, err := parseSortPattern(bson.D{{Key: "count", Value: int32(-1)}})
	if err != nil {
		return nil, err
	}
	return []Stage{group, &sortStage{sortSpec: srt}}, nil
}
