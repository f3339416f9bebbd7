package planner

import (
	"math"
	"slices"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// The executor is mongod's classic engine in miniature: a tree of stages,
// each advanced one "work" unit at a time, returning a result (advanced),
// nothing yet (needTime) or end of stream. Counting works per stage is
// what makes explain's works/advanced/needTime honest, and lets the
// multi-planner race candidate plans the way mongod does.

type state int

const (
	advanced state = iota
	needTime
	isEOF
)

// member is one result flowing between stages.
type member struct {
	rid int64
	doc bson.D
	pos int // array position for the positional projection, -1 when none
	// keys is the key metadata stages recorded, nil when none did: behind
	// a pointer, so that the member every stage hands on stays small.
	keys *Keys
	// fetched: doc is the stored document, not one made of index keys.
	fetched bool
}

// Keys is the key metadata of a document: the index key an IXSCAN
// recorded (addKeyMeta), named by the key pattern's fields, and the sort
// key a SORT or SORT_KEY_GENERATOR recorded, one part per sort field, for
// a projection or pipeline stage that reads them (Query.IndexKey,
// Query.SortKey).
type Keys struct {
	Index bson.D
	Sort  bson.A
}

// ownKeys gives m key metadata of its own to record into: other members
// may share the Keys it holds (a buffered trial result), so it is copied.
func (m *member) ownKeys() *Keys {
	k := &Keys{}
	if m.keys != nil {
		*k = *m.keys
	}
	m.keys = k
	return k
}

// IndexKey and SortKey read k, which may be nil.
func (k *Keys) IndexKey() bson.D {
	if k == nil {
		return nil
	}
	return k.Index
}

func (k *Keys) SortKey() bson.A {
	if k == nil {
		return nil
	}
	return k.Sort
}

type stats struct {
	works, advanced, needTime int64
	eof                       bool
}

type stage interface {
	work() (state, member)
	common() *stats
	// describe renders the stage for explain; exec adds execution stats.
	describe(exec bool) bson.D
}

func (s *stats) record(st state) state {
	s.works++
	switch st {
	case advanced:
		s.advanced++
	case needTime:
		s.needTime++
	case isEOF:
		s.eof = true
	}
	return st
}

// commonFields are the execution fields every stage shares, in mongod's
// order.
func commonFields(s *stats, millis int64) bson.D {
	eof := int32(0)
	if s.eof {
		eof = 1
	}
	return bson.D{
		{Key: "nReturned", Value: s.advanced},
		{Key: "executionTimeMillisEstimate", Value: millis},
		{Key: "works", Value: s.works},
		{Key: "advanced", Value: s.advanced},
		{Key: "needTime", Value: s.needTime},
		{Key: "needYield", Value: int64(0)},
		{Key: "saveState", Value: int64(0)},
		{Key: "restoreState", Value: int64(0)},
		{Key: "isEOF", Value: eof},
	}
}

// --- COLLSCAN ---

type collScan struct {
	st       stats
	coll     *catalog.Collection
	filter   *query.Filter
	backward bool
	buf      []*catalog.Record
	pos      int
	next     int64 // RecordID to resume from
	done     bool
	docs     int64
	millis   int64
	err      error // a $expr evaluation error ends the scan and fails the query
	// cluster is set on the scan of a clustered collection (clustered.go).
	cluster *clusterScan
}

// newCollScan scans coll; rng bounds the scan of a clustered collection
// (nil: all of it).
func newCollScan(coll *catalog.Collection, filter *query.Filter, backward bool, rng *clusterRange) *collScan {
	cs := &collScan{coll: coll, filter: filter, backward: backward, next: 0}
	if backward {
		cs.next = math.MaxInt64
	}
	if clustered(coll) {
		cs.cluster = &clusterScan{rng: rng}
	}
	return cs
}

func (c *collScan) common() *stats { return &c.st }

func (c *collScan) refill() {
	c.buf, c.pos = c.buf[:0], 0
	n := 256
	if c.cluster != nil {
		c.refillClustered(n)
		if len(c.buf) < n {
			c.done = true
		}
		return
	}
	fn := func(r *catalog.Record) bool {
		c.buf = append(c.buf, r)
		return len(c.buf) < n
	}
	if c.backward {
		c.coll.ScanBackward(c.next, fn)
	} else {
		c.coll.Scan(c.next, fn)
	}
	if len(c.buf) < n {
		c.done = true
	}
	if len(c.buf) > 0 {
		last := c.buf[len(c.buf)-1].ID
		if c.backward {
			c.next = last - 1
		} else {
			c.next = last + 1
		}
	}
}

func (c *collScan) work() (state, member) {
	if c.pos >= len(c.buf) {
		if !c.done && c.coll != nil {
			c.refill()
		}
		if c.pos >= len(c.buf) {
			if c.cluster != nil && c.cluster.readPastEnd {
				// The bounded scan read the record past its end bound
				// to find it there.
				c.cluster.readPastEnd = false
				c.docs++
			}
			return c.st.record(isEOF), member{}
		}
	}
	r := c.buf[c.pos]
	c.pos++
	c.docs++
	if c.filter != nil {
		ok, p, err := c.filter.Eval(r.Doc)
		if err != nil {
			c.err = err
			return c.st.record(isEOF), member{}
		}
		if !ok {
			return c.st.record(needTime), member{}
		}
		return c.st.record(advanced), member{rid: r.ID, doc: r.Doc, pos: p}
	}
	return c.st.record(advanced), member{rid: r.ID, doc: r.Doc, pos: -1}
}

func (c *collScan) describe(exec bool) bson.D {
	d := bson.D{{Key: "stage", Value: "COLLSCAN"}}
	var rng *clusterRange
	if c.cluster != nil && c.cluster.rng != nil {
		rng = c.cluster.rng
		d[0].Value = "CLUSTERED_IXSCAN"
	}
	if c.filter != nil && !c.filter.IsEmpty() {
		d = append(d, bson.E{Key: "filter", Value: c.filter.Serialize()})
	}
	if exec {
		d = append(d, commonFields(&c.st, c.millis)...)
	}
	dir := "forward"
	if c.backward {
		dir = "backward"
	}
	d = append(d, bson.E{Key: "direction", Value: dir})
	if rng != nil {
		if rng.hasMin {
			d = append(d, bson.E{Key: "minRecord", Value: rng.min})
		}
		if rng.hasMax {
			d = append(d, bson.E{Key: "maxRecord", Value: rng.max})
		}
	}
	if exec {
		d = append(d, bson.E{Key: "docsExamined", Value: c.docs})
	}
	return d
}

// --- FETCH ---

type fetch struct {
	st     stats
	child  stage // IXSCAN, or OR of IXSCANs
	coll   *catalog.Collection
	filter *query.Filter // applied in full: bounds only narrow the scan
	shown  bson.D        // the residual predicates explain prints
	docs   int64
	// already counts the members a stage below had fetched.
	already int64
	millis  int64
	err     error // a $expr evaluation error ends the fetch and fails the query
}

func (f *fetch) common() *stats { return &f.st }

// work does not work a child that has ended: FetchStage::doWork answers
// EOF from its child's isEOF, so after a multi-planning trial the winner's
// FETCH is worked once more but the scan below it is not.
func (f *fetch) work() (state, member) {
	if f.child.common().eof {
		return f.st.record(isEOF), member{}
	}
	st, m := f.child.work()
	switch st {
	case isEOF:
		return f.st.record(isEOF), member{}
	case needTime:
		return f.st.record(needTime), member{}
	}
	if m.fetched {
		// A branch below already fetched it (FetchStage's alreadyHasObj):
		// it is only filtered, as returnIfMatches does.
		f.already++
	} else {
		doc, ok := f.coll.Get(m.rid)
		if !ok {
			return f.st.record(needTime), member{}
		}
		f.docs++
		m.doc, m.pos, m.fetched = doc, -1, true
	}
	if f.filter != nil {
		ok, p, err := f.filter.Eval(m.doc)
		if err != nil {
			f.err = err
			return f.st.record(isEOF), member{}
		}
		if !ok {
			return f.st.record(needTime), member{}
		}
		m.pos = p
	}
	return f.st.record(advanced), m
}

func (f *fetch) describe(exec bool) bson.D {
	d := bson.D{{Key: "stage", Value: "FETCH"}}
	if len(f.shown) > 0 {
		d = append(d, bson.E{Key: "filter", Value: f.shown})
	}
	if exec {
		d = append(d, commonFields(&f.st, f.millis)...)
		d = append(d, bson.E{Key: "docsExamined", Value: f.docs}, bson.E{Key: "alreadyHasObj", Value: f.already})
	}
	return append(d, bson.E{Key: "inputStage", Value: f.child.describe(exec)})
}

// --- IXSCAN ---

type ixScan struct {
	st     stats
	ix     *index.Index
	coll   *catalog.Collection
	bounds scanBounds
	dir    int // +1 forward, -1 backward
	single bool
	// single-interval scans stop at end without examining the key past
	// it, as WiredTiger's bounded cursor does.
	endField int // index of the last field constraining the end key
	started  bool
	buf      []index.Entry
	bufPos   int
	chunk    int
	pivot    index.Entry
	done     bool
	keys     int64
	seeks    int64
	dupsT    int64
	dupsD    int64
	seen     *ridSet // nil when the scan need not drop repeated records
	millis   int64
	// filter holds the predicates tested on each key (the document the
	// key stands for), before anything is fetched.
	filter *query.Filter
	// keyDocs makes the scan return that document for a plan with no
	// FETCH (a covered projection).
	keyDocs bool
	// addKeyMeta records each entry's key as the member's index key
	// metadata, for a {$meta: "indexKey"} downstream.
	addKeyMeta bool
	last       []any // the key last returned
	// span, when set, is a min/max query's simple range, which the scan
	// keeps to instead of bounds.
	span *keySpan
}

func newIxScan(ix *index.Index, coll *catalog.Collection, b scanBounds, dir int) *ixScan {
	s := &ixScan{ix: ix, coll: coll, bounds: b, dir: dir, chunk: 8}
	s.single, s.endField = isSingleInterval(b)
	if ix.IsMultiKey() {
		s.seen = &ridSet{}
	}
	return s
}

// dedupIf makes the scan drop RecordIDs it already returned when on is
// set, as a multikey scan always does.
func (s *ixScan) dedupIf(on bool) {
	if on && s.seen == nil {
		s.seen = &ridSet{}
	}
}

// isSingleInterval: point prefix, then at most one range, then full
// ranges — expressible as one [startKey, endKey] pair.
func isSingleInterval(b scanBounds) (bool, int) {
	end := len(b) - 1
	for i, f := range b {
		if len(f) != 1 {
			return false, 0
		}
		iv := f[0]
		isPoint := iv.startInc && iv.endInc && value.Compare(iv.start, iv.end) == 0
		if !isPoint {
			for _, g := range b[i+1:] {
				if !(len(g) == 1 && isFullScan(g[0])) {
					return false, 0
				}
			}
			return true, i
		}
	}
	return true, end
}

func isFullScan(iv scanInterval) bool {
	return (isMinKey(iv.start) && isMaxKey(iv.end) || isMaxKey(iv.start) && isMinKey(iv.end)) && iv.startInc && iv.endInc
}

func (s *ixScan) common() *stats { return &s.st }

// cmp compares field i of two values in scan order.
func (s *ixScan) cmp(i int, a, b any) int { return s.ix.CompareField(i, a, b) * s.dir }

func (s *ixScan) lowSentinel() any {
	if s.dir > 0 {
		return index.Lowest{}
	}
	return index.Highest{}
}

func (s *ixScan) highSentinel() any {
	if s.dir > 0 {
		return index.Highest{}
	}
	return index.Lowest{}
}

func (s *ixScan) minRID() int64 {
	if s.dir > 0 {
		return math.MinInt64
	}
	return math.MaxInt64
}

// seekTo positions the scan at the first entry at or after key in scan
// order; key may hold sentinels.
func (s *ixScan) seekTo(key []any, exclusive bool) {
	s.seeks++
	rid := s.minRID()
	if exclusive {
		rid = -rid - 1 // MinInt64 ↔ MaxInt64
		if rid < 0 {
			rid = math.MinInt64
		}
	}
	s.pivot = index.Entry{Key: key, RID: rid}
	s.buf, s.bufPos, s.done = s.buf[:0], 0, false
	s.chunk = 8
}

// startKey is the first possible key of the bounds; exclusive means the
// scan starts after every entry equal to it.
func (s *ixScan) startKey() ([]any, bool) {
	key := make([]any, len(s.bounds))
	for i, f := range s.bounds {
		key[i] = f[0].start
		if !f[0].startInc {
			for j := i + 1; j < len(key); j++ {
				key[j] = s.highSentinel()
			}
			return key, true
		}
	}
	return key, false
}

func (s *ixScan) next() (index.Entry, bool) {
	if s.bufPos >= len(s.buf) {
		if s.done {
			return index.Entry{}, false
		}
		s.buf, s.bufPos = s.buf[:0], 0
		n := s.chunk
		s.chunk = min(s.chunk*4, 512)
		fn := func(e index.Entry) bool {
			s.buf = append(s.buf, e)
			return len(s.buf) < n
		}
		if s.dir > 0 {
			s.ix.AscendFrom(s.pivot, fn)
		} else {
			s.ix.DescendFrom(s.pivot, fn)
		}
		if len(s.buf) < n {
			s.done = true
		}
		if len(s.buf) == 0 {
			return index.Entry{}, false
		}
		last := s.buf[len(s.buf)-1]
		s.pivot = index.Entry{Key: last.Key, RID: last.RID + int64(s.dir)}
	}
	e := s.buf[s.bufPos]
	s.bufPos++
	return e, true
}

func (s *ixScan) work() (state, member) {
	if !s.started {
		s.started = true
		for _, f := range s.bounds {
			if len(f) == 0 { // an empty interval list matches nothing
				return s.st.record(isEOF), member{}
			}
		}
		if s.span != nil {
			s.seekTo(s.spanStart())
		} else {
			s.seekTo(s.startKey())
		}
	}
	e, ok := s.next()
	if !ok {
		return s.st.record(isEOF), member{}
	}
	if s.span != nil {
		if s.outsideSpan(e.Key) {
			s.done, s.buf, s.bufPos = true, s.buf[:0], 0
			return s.st.record(isEOF), member{}
		}
		s.keys++
	} else if s.single {
		if s.pastEnd(e.Key) {
			s.done, s.buf, s.bufPos = true, s.buf[:0], 0
			return s.st.record(isEOF), member{}
		}
		s.keys++
	} else {
		s.keys++
		switch verdict, seek, seekExclusive := s.check(e.Key); verdict {
		case checkDone:
			s.done, s.buf, s.bufPos = true, s.buf[:0], 0
			return s.st.record(isEOF), member{}
		case checkSeek:
			s.seekTo(seek, seekExclusive)
			return s.st.record(needTime), member{}
		}
	}
	if s.seen != nil {
		s.dupsT++
		if !s.seen.add(e.RID) {
			s.dupsD++
			return s.st.record(needTime), member{}
		}
	}
	m := member{rid: e.RID, pos: -1}
	s.last = e.Key
	if s.filter != nil || s.keyDocs {
		doc := rehydrate(s.ix.Spec.Fields, e.Key)
		if s.filter != nil {
			if ok, _ := s.filter.MatchPosition(doc); !ok {
				return s.st.record(needTime), member{}
			}
		}
		if s.keyDocs {
			m.doc = doc
		}
	}
	if s.addKeyMeta {
		m.ownKeys().Index = keyMetadata(s.ix.Spec.Fields, e.Key)
	}
	return s.st.record(advanced), m
}

// keyMetadata is IndexKeyEntry::rehydrateKey (index_key_entry.h): the
// key's values named by the key pattern's fields, dotted names kept flat.
func keyMetadata(fields []index.Field, key []any) bson.D {
	out := make(bson.D, len(fields))
	for i, f := range fields {
		out[i] = bson.E{Key: f.Path, Value: key[i]}
	}
	return out
}

// spanStart is where a span's scan begins: before every key that has
// start as its prefix, or, scanning backwards, below every key that has
// end as its prefix (the end is excluded).
func (s *ixScan) spanStart() ([]any, bool) {
	from := s.span.start
	if s.dir < 0 {
		from = s.span.end
	}
	key := make([]any, len(s.ix.Spec.Fields))
	copy(key, from)
	for i := len(from); i < len(key); i++ {
		key[i] = index.Lowest{}
	}
	return key, s.dir < 0
}

// outsideSpan: a forward scan has reached the span's end, a backward one
// has gone below its start. Like a bounded cursor, the scan does not
// count the key that ends it as examined.
func (s *ixScan) outsideSpan(key []any) bool {
	if s.dir > 0 {
		return compareMinMaxKeys(s.ix, key, s.span.end) >= 0
	}
	return compareMinMaxKeys(s.ix, key, s.span.start) < 0
}

// pastEnd reports whether key lies beyond the single interval's end.
func (s *ixScan) pastEnd(key []any) bool {
	for i := 0; i <= s.endField; i++ {
		iv := s.bounds[i][0]
		c := s.cmp(i, key[i], iv.end)
		if c > 0 {
			return true
		}
		if c < 0 {
			return false
		}
		if i == s.endField && !iv.endInc {
			return true
		}
	}
	return false
}

type checkVerdict int

const (
	checkValid checkVerdict = iota
	checkSeek
	checkDone
)

// check is mongod's IndexBoundsChecker reduced to its essentials: a key
// inside every field's intervals is valid; a key before a field's next
// interval seeks to that interval's start; a key past a field's last
// interval seeks past the current prefix, or ends the scan on field 0.
func (s *ixScan) check(key []any) (checkVerdict, []any, bool) {
	for i, f := range s.bounds {
		v := key[i]
		j := 0
		for ; j < len(f); j++ {
			iv := f[j]
			ce := s.cmp(i, v, iv.end)
			if ce > 0 || ce == 0 && !iv.endInc {
				continue // past this interval
			}
			cs := s.cmp(i, v, iv.start)
			if cs > 0 || cs == 0 && iv.startInc {
				break // inside
			}
			// before interval j: seek to its start
			seek := make([]any, len(key))
			copy(seek, key[:i])
			seek[i] = iv.start
			fill := s.lowSentinel()
			if !iv.startInc {
				fill = s.highSentinel()
			}
			for k := i + 1; k < len(seek); k++ {
				seek[k] = fill
			}
			return checkSeek, seek, !iv.startInc
		}
		if j == len(f) {
			if i == 0 {
				return checkDone, nil, false
			}
			seek := make([]any, len(key))
			copy(seek, key[:i])
			for k := i; k < len(seek); k++ {
				seek[k] = s.highSentinel()
			}
			return checkSeek, seek, true
		}
	}
	return checkValid, nil, false
}

func (s *ixScan) describe(exec bool) bson.D {
	d := bson.D{{Key: "stage", Value: "IXSCAN"}}
	if s.filter != nil {
		d = append(d, bson.E{Key: "filter", Value: s.filter.Serialize()})
	}
	if exec {
		d = append(d, commonFields(&s.st, s.millis)...)
	}
	spec := s.ix.Spec
	dir := "forward"
	if s.dir < 0 {
		dir = "backward"
	}
	// A simple range prints no fields (IndexBounds::toBSON).
	bounds := bson.D{}
	for i, f := range s.bounds {
		if s.span != nil {
			break
		}
		a := make(bson.A, len(f))
		for j, iv := range f {
			a[j] = formatInterval(iv)
		}
		bounds = append(bounds, bson.E{Key: spec.Fields[i].Path, Value: a})
	}
	d = append(d,
		bson.E{Key: "keyPattern", Value: firstOfEachName(spec.Key)},
		bson.E{Key: "indexName", Value: spec.Name},
		bson.E{Key: "isMultiKey", Value: s.ix.IsMultiKey()},
	)
	if mk := s.ix.MultiKeyPaths(); mk != nil {
		d = append(d, bson.E{Key: "multiKeyPaths", Value: firstOfEachName(mk)})
	}
	d = append(d,
		bson.E{Key: "isUnique", Value: spec.Unique},
		bson.E{Key: "isSparse", Value: spec.Sparse},
		bson.E{Key: "isPartial", Value: spec.Partial != nil},
		bson.E{Key: "indexVersion", Value: int32(2)},
		bson.E{Key: "direction", Value: dir},
		bson.E{Key: "indexBounds", Value: firstOfEachName(bounds)},
	)
	if exec {
		d = append(d,
			bson.E{Key: "keysExamined", Value: s.keys},
			bson.E{Key: "seeks", Value: s.seeks},
			bson.E{Key: "dupsTested", Value: s.dupsT},
			bson.E{Key: "dupsDropped", Value: s.dupsD},
		)
	}
	return d
}

// firstOfEachName keeps the first field of each name. The regular-prefix
// view of a compound wildcard index names two key fields "$_path"; the
// explain mongod returns shows the first, the paths, in keyPattern and
// indexBounds alike (compound_wildcard_index_or.js,
// compound_wildcard_index_unbounded.js).
func firstOfEachName(d bson.D) bson.D {
	out := make(bson.D, 0, len(d))
	for _, e := range d {
		if !slices.ContainsFunc(out, func(o bson.E) bool { return o.Key == e.Key }) {
			out = append(out, e)
		}
	}
	return out
}
