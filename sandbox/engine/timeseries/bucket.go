package timeseries

import (
	"encoding/binary"
	"strconv"
	"sync"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Catalog is the bucket catalog of one engine: the open and archived
// buckets of every time-series collection, and their statistics. It is
// safe for concurrent use. Inserts into one collection are serialised by
// its state's lock, which they hold for the whole batch; the engine calls
// Insert under the buckets collection's write lock, so that lock is never
// contended except by a reader of the statistics.
type Catalog struct {
	mu    sync.Mutex            // guards colls
	colls map[string]*collState // by the buckets collection's UUID
}

// NewCatalog returns an empty bucket catalog.
func NewCatalog() *Catalog { return &Catalog{colls: map[string]*collState{}} }

type collState struct {
	db, name string               // the buckets collection's database and name
	mu       sync.Mutex           // guards everything below
	open     map[string]*bucket   // by meta key
	archived map[string][]*bucket // by meta key
	stats    Stats
}

// bucket is an open bucket being filled.
type bucket struct {
	id       bson.ObjectID
	rid      int64  // 0 until the bucket document is stored
	stored   bson.D // the document last stored, to notice a replaced collection
	storedN  int    // measurements in the stored document
	meta     any    // value.Missing{} when measurements had no meta field
	minTime  bson.DateTime
	count    int
	size     int
	fields   []string // data columns in order of first appearance
	columns  map[string]bson.D
	min, max bson.D
	large    bool // kept open for large measurements
	dirty    bool
}

func (c *Catalog) state(buckets *catalog.Collection) *collState {
	key := string(buckets.UUID.Data)
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.colls[key]
	if s == nil {
		s = &collState{db: buckets.DB, name: buckets.Name, open: map[string]*bucket{}, archived: map[string][]*bucket{}}
		c.colls[key] = s
	}
	return s
}

// Forget drops a dropped collection's buckets and statistics.
func (c *Catalog) Forget(buckets *catalog.Collection) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.colls, string(buckets.UUID.Data))
}

// Stats returns a collection's bucket catalog statistics (zero for one
// that has had no inserts, or was forgotten).
func (c *Catalog) Stats(buckets *catalog.Collection) Stats {
	c.mu.Lock()
	s := c.colls[string(buckets.UUID.Data)]
	c.mu.Unlock()
	if s == nil {
		return Stats{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

// InsertError is the failure of one measurement of an insert batch.
type InsertError struct {
	Index int
	Err   *mongoerr.Error
}

// Insert adds measurements (already given their _id) to the buckets
// collection, committing each touched bucket once for the batch as
// mongod's group commit does. With ordered, the first invalid measurement
// stops the batch; the measurements before it are committed.
//
// buckets is the live buckets collection, and the caller holds its write
// lock.
func (c *Catalog) Insert(buckets *catalog.Collection, o Options, docs []bson.D, ordered bool) (int, []InsertError) {
	s := c.state(buckets)
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []InsertError
	var touched []*bucket
	// first is the batch index of each touched bucket's first measurement,
	// and added the measurements the batch put in it: a failed commit is
	// reported at the first, and none of them counts as inserted.
	first := map[*bucket]int{}
	added := map[*bucket]int{}
	n := 0
	for i, doc := range docs {
		t, ok := value.Get(doc, o.TimeField).(bson.DateTime)
		if !ok {
			errs = append(errs, InsertError{Index: i, Err: mongoerr.Newf(mongoerr.BadValue,
				"'%s' must be present and contain a valid BSON UTC datetime value", o.TimeField)})
			if ordered {
				break
			}
			continue
		}
		if OutsideStandardRange(t) {
			// requiresTimeseriesExtendedRangeSupport, for the reads.
			buckets.ExtendedRange = true
		}
		b := s.bucketFor(buckets, o, doc, t, measurementSize(o, doc))
		b.add(o, doc, t)
		if !b.dirty {
			b.dirty = true
			touched = append(touched, b)
			first[b] = i
		}
		added[b]++
		n++
	}
	for _, b := range touched {
		if err := s.commit(buckets, o, b); err != nil {
			// An array under an indexed measurement field, or a clash with
			// a bucket written directly to the buckets collection, fails
			// the commit: the bucket is aborted, as mongod's bucket catalog
			// does, so that its unstored measurements are not written by a
			// later insert.
			s.abort(b)
			n -= added[b]
			errs = append(errs, InsertError{Index: first[b], Err: mongoerr.As(err)})
		}
	}
	return n, errs
}

// abort forgets a bucket whose commit failed; its stored document, if
// any, stays in the collection.
func (s *collState) abort(b *bucket) {
	for key, open := range s.open {
		if open == b {
			delete(s.open, key)
		}
	}
	for key, list := range s.archived {
		for i, a := range list {
			if a == b {
				s.archived[key] = append(list[:i:i], list[i+1:]...)
				break
			}
		}
	}
}

// metaKey groups measurements by their meta value; objects compare with
// their fields in order, as stored.
func metaKey(o Options, doc bson.D) (string, any) {
	if o.MetaField == "" {
		return "", value.Missing{}
	}
	m := value.Get(doc, o.MetaField)
	if value.IsMissing(m) {
		return "", m
	}
	return value.Format(m) + "\x00" + strconv.Itoa(value.TypeNumber(m)), m
}

// bucketFor is the rollover decision of the bucket catalog
// (determineRolloverAction): the open bucket for the measurement's meta,
// unless its time span, count or size rules send the measurement to a new
// bucket. Buckets passed by going back in time are archived and can be
// reopened; idle-bucket expiry under memory pressure never happens here.
func (s *collState) bucketFor(buckets *catalog.Collection, o Options, doc bson.D, t bson.DateTime, size int) *bucket {
	key, meta := metaKey(o, doc)
	b := s.open[key]
	if b != nil && !b.stillStored(buckets) {
		b = nil
	}
	if b == nil {
		s.stats.NumBucketsOpenedDueToMetadata++
		return s.allocate(key, meta, o, t)
	}
	span := o.BucketMaxSpanSeconds * 1000
	switch {
	case int64(t)-int64(b.minTime) >= span:
		s.stats.NumBucketsClosedDueToTimeForward++
		return s.allocate(key, meta, o, t)
	case t < b.minTime:
		s.stats.NumBucketsArchivedDueToTimeBackward++
		s.archived[key] = append(s.archived[key], b)
		if r := s.reopen(buckets, key, o, t); r != nil {
			return r
		}
		return s.allocate(key, meta, o, t)
	case b.count >= BucketMaxCount:
		s.stats.NumBucketsClosedDueToCount++
		return s.allocate(key, meta, o, t)
	case !sameSchema(o, b.min, doc):
		s.stats.NumBucketsClosedDueToSchemaChange++
		return s.allocate(key, meta, o, t)
	case b.size+size > BucketMaxSize:
		if b.count < BucketMinCount && b.size+size <= LargeMeasurementsMaxBucketSize {
			if !b.large {
				b.large = true
				s.stats.NumBucketsKeptOpenDueToLargeMeasurements++
			}
			return b
		}
		s.stats.NumBucketsClosedDueToSize++
		return s.allocate(key, meta, o, t)
	}
	return b
}

// reopen makes an archived bucket whose time range holds t the open one.
func (s *collState) reopen(buckets *catalog.Collection, key string, o Options, t bson.DateTime) *bucket {
	list := s.archived[key]
	span := o.BucketMaxSpanSeconds * 1000
	for i, b := range list {
		if t >= b.minTime && int64(t)-int64(b.minTime) < span && b.count < BucketMaxCount && b.stillStored(buckets) {
			s.archived[key] = append(list[:i:i], list[i+1:]...)
			s.open[key] = b
			s.stats.NumBucketsReopened++
			return b
		}
	}
	return nil
}

func (s *collState) allocate(key string, meta any, o Options, t bson.DateTime) *bucket {
	minTime := o.RoundTime(t)
	id := bson.NewObjectID()
	// A bucket's _id carries its minimum time, so that _id ranges bound
	// time ranges.
	binary.BigEndian.PutUint32(id[0:4], uint32(int64(minTime)/1000))
	b := &bucket{id: id, meta: meta, minTime: minTime, columns: map[string]bson.D{}}
	s.open[key] = b
	return b
}

// stillStored reports whether the bucket's document is still the one in
// the collection (a snapshot restore or a direct write to the buckets
// collection replaces it, and the bucket must not be reused).
func (b *bucket) stillStored(buckets *catalog.Collection) bool {
	if b.rid == 0 {
		return true
	}
	d, ok := buckets.Get(b.rid)
	return ok && len(d) > 0 && len(b.stored) > 0 && &d[0] == &b.stored[0]
}

// measurementSize is the bytes a measurement adds to a bucket's columns:
// each field's element under its index key (the uncompressed bucket's
// size, which is what the sandbox stores).
func measurementSize(o Options, doc bson.D) int {
	n := 0
	for _, f := range doc {
		if f.Key == o.MetaField && o.MetaField != "" {
			continue
		}
		n += 1 + 4 + 1 + value.ValueSize(f.Value)
	}
	return n
}

func (b *bucket) add(o Options, doc bson.D, t bson.DateTime) {
	idx := strconv.Itoa(b.count)
	for _, f := range doc {
		if o.MetaField != "" && f.Key == o.MetaField {
			continue
		}
		col, seen := b.columns[f.Key]
		if !seen {
			b.fields = append(b.fields, f.Key)
		}
		b.columns[f.Key] = append(col, bson.E{Key: idx, Value: f.Value})
		v := f.Value
		if f.Key == o.TimeField {
			b.min = mergeMin(b.min, f.Key, b.minTime)
		} else {
			b.min = mergeMin(b.min, f.Key, v)
		}
		b.max = mergeMax(b.max, f.Key, v)
	}
	b.count++
	b.size += measurementSize(o, doc)
}

// commit stores the bucket document: an insert for a new bucket, an
// update of the stored one otherwise.
func (s *collState) commit(buckets *catalog.Collection, o Options, b *bucket) error {
	b.dirty = false
	doc := b.document(o)
	// The write computes the bucket's index keys, and with them runs the
	// 5930501 check of each index in turn, as mongod's index access
	// methods do; a refused bucket counts as no commit.
	if b.rid == 0 {
		rid, err := buckets.Insert(doc)
		if err != nil {
			return err
		}
		b.rid = rid
		s.stats.NumBucketInserts++
	} else {
		if err := buckets.Replace(b.rid, doc); err != nil {
			return err
		}
		s.stats.NumBucketUpdates++
	}
	s.stats.NumCommits++
	s.stats.NumMeasurementsCommitted += int64(b.count - b.storedN)
	b.stored, b.storedN = doc, b.count
	return nil
}

// document is the bucket in mongod's uncompressed shape:
// {_id, control: {version: 1, min, max}, meta, data: {field: {"0": v, ...}}}.
func (b *bucket) document(o Options) bson.D {
	data := make(bson.D, 0, len(b.fields))
	for _, f := range b.fields {
		col := b.columns[f]
		data = append(data, bson.E{Key: f, Value: col[:len(col):len(col)]})
	}
	control := bson.D{
		{Key: "version", Value: int32(1)},
		{Key: "min", Value: append(bson.D(nil), b.min...)},
		{Key: "max", Value: append(bson.D(nil), b.max...)},
	}
	doc := bson.D{{Key: "_id", Value: b.id}, {Key: "control", Value: control}}
	if !value.IsMissing(b.meta) {
		doc = append(doc, bson.E{Key: "meta", Value: b.meta})
	}
	return append(doc, bson.E{Key: "data", Value: data})
}

// mergeMin and mergeMax keep control.min and control.max: per field, the
// smallest and largest value in BSON order; embedded documents field by
// field and arrays position by position, a position past the kept array's
// end joining it (the bucket catalog's MinMax,
// src/mongo/db/timeseries/bucket_catalog/flat_bson.cpp). Values of
// different canonical types never meet within a bucket: the schema check
// opens a new bucket first.
func mergeMin(d bson.D, key string, v any) bson.D { return merge(d, key, v, -1) }

func mergeMax(d bson.D, key string, v any) bson.D { return merge(d, key, v, 1) }

func merge(d bson.D, key string, v any, dir int) bson.D {
	for i := range d {
		if d[i].Key != key {
			continue
		}
		d[i].Value = mergeValue(d[i].Value, v, dir)
		return d
	}
	return append(d, bson.E{Key: key, Value: v})
}

func mergeValue(cur, v any, dir int) any {
	cd, ok1 := cur.(bson.D)
	vd, ok2 := v.(bson.D)
	if ok1 && ok2 {
		out := append(bson.D(nil), cd...)
		for _, f := range vd {
			out = merge(out, f.Key, f.Value, dir)
		}
		return out
	}
	ca, ok1 := cur.(bson.A)
	va, ok2 := v.(bson.A)
	if ok1 && ok2 {
		out := append(bson.A(nil), ca...)
		for i, e := range va {
			if i < len(out) {
				out[i] = mergeValue(out[i], e, dir)
			} else {
				out = append(out, e)
			}
		}
		return out
	}
	if c := value.Compare(v, cur); c*dir > 0 {
		return v
	}
	return cur
}

// Rebuild is a bucket document holding only measurements, keeping the
// bucket's _id, minimum time and meta (after a delete or an update took
// some of its measurements out).
func Rebuild(old bson.D, o Options, measurements []bson.D) bson.D {
	control, _ := value.Get(old, "control").(bson.D)
	mins, _ := value.Get(control, "min").(bson.D)
	minTime, _ := value.Get(mins, o.TimeField).(bson.DateTime)
	id, _ := value.Get(old, "_id").(bson.ObjectID)
	b := &bucket{id: id, meta: value.Get(old, "meta"), minTime: minTime, columns: map[string]bson.D{}}
	for _, m := range measurements {
		t, _ := value.Get(m, o.TimeField).(bson.DateTime)
		b.add(o, m, t)
	}
	return b.document(o)
}

// sameSchema is the bucket catalog's Schema check (flat_bson.cpp,
// Schema::update): every field of the measurement, but the metaField,
// has the shape the bucket's values of it have had, an object where they
// were objects, an array where they were arrays (position by position)
// and otherwise a value of the same canonical type; a field the bucket
// has not seen fits. Within a bucket every value of a field shares that
// shape, so control.min holds it.
func sameSchema(o Options, min, doc bson.D) bool {
	for _, f := range doc {
		if o.MetaField != "" && f.Key == o.MetaField {
			continue
		}
		kept := value.Get(min, f.Key)
		if !value.IsMissing(kept) && !sameShape(kept, f.Value) {
			return false
		}
	}
	return true
}

func sameShape(kept, v any) bool {
	switch x := v.(type) {
	case bson.D:
		k, ok := kept.(bson.D)
		return ok && sameSchema(Options{}, k, x)
	case bson.A:
		k, ok := kept.(bson.A)
		if !ok {
			return false
		}
		for i := 0; i < len(x) && i < len(k); i++ {
			if !sameShape(k[i], x[i]) {
				return false
			}
		}
		return true
	}
	switch kept.(type) {
	case bson.D, bson.A:
		return false
	}
	return value.CanonicalTypeOrder(kept) == value.CanonicalTypeOrder(v)
}
