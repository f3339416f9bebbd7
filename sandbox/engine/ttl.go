package engine

import (
	"sync/atomic"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/timeseries"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// defaultTTLMonitorPeriod is mongod's ttlMonitorSleepSecs default: a TTL
// pass every 60 seconds.
const defaultTTLMonitorPeriod = 60 * time.Second

// ttlMonitor is mongod's TTLMonitor (src/mongo/db/ttl/ttl.cpp): every
// period it deletes, through each TTL index, the documents whose indexed
// date (the earliest, for an array of dates) is more than the index's
// expireAfterSeconds in the past; a document whose field holds no date
// never expires. mongod runs the pass on a thread of its own; the engine
// runs it when a command arrives and a period has passed since the last
// one, so that between commands no one could tell the difference and no
// goroutine outlives the engine.
type ttlMonitor struct {
	period time.Duration
	// next is when the next pass is due, in Unix nanoseconds.
	next atomic.Int64
}

func newTTLMonitor(now time.Time, period time.Duration) *ttlMonitor {
	if period <= 0 {
		period = defaultTTLMonitorPeriod
	}
	m := &ttlMonitor{period: period}
	m.next.Store(now.Add(period).UnixNano())
	return m
}

// due claims the pass due at now, if one is: only one caller gets it.
func (m *ttlMonitor) due(now time.Time) bool {
	next := m.next.Load()
	return now.UnixNano() >= next && m.next.CompareAndSwap(next, now.Add(m.period).UnixNano())
}

// expire runs a TTL pass over every collection with a TTL index.
func (e *Engine) expire(now time.Time) {
	for _, db := range e.catalog.DatabaseNames() {
		d := e.catalog.Database(db)
		if d == nil {
			continue
		}
		for _, coll := range d.Collections() {
			if coll.Kind != catalog.KindCollection || !hasTTLIndex(coll) {
				continue
			}
			_ = e.catalog.Write(db, coll.Name, false, func(c *catalog.Collection) error {
				if c != nil {
					deleteExpired(c, now)
				}
				return nil
			})
		}
	}
}

func hasTTLIndex(c *catalog.Collection) bool {
	if _, ok := clusteredTTL(c); ok {
		return true
	}
	if _, _, ok := bucketsTTL(c); ok {
		return true
	}
	for _, ix := range c.Indexes() {
		if _, ok := ttlSeconds(ix); ok {
			return true
		}
	}
	return false
}

// ttlSeconds is a TTL index's expireAfterSeconds, for a single-field
// index other than _id's with a valid one.
func ttlSeconds(ix *index.Index) (int64, bool) {
	v := value.Get(ix.Spec.Options, "expireAfterSeconds")
	if value.IsMissing(v) || len(ix.Spec.Fields) != 1 || ix.Spec.IsID() || index.ExpireAfterSecondsProblem(v) != "" {
		return 0, false
	}
	n, _ := value.SafeNumberLong(v)
	return n, true
}

// clusteredTTL is a clustered collection's expireAfterSeconds: its
// documents expire through their _id, when it is a date (ttl.cpp's
// clustered collection scan; "On general purpose collections, TTL
// operates on type 'Date'").
func clusteredTTL(c *catalog.Collection) (int64, bool) {
	if c.ClusteredIndex() == nil {
		return 0, false
	}
	n, ok := value.Get(c.Options, "expireAfterSeconds").(int64)
	return n, ok
}

// bucketsTTL is the expireAfterSeconds of a time-series collection's
// buckets, with their bucket span.
func bucketsTTL(c *catalog.Collection) (secs, span int64, ok bool) {
	spec, isBuckets := value.Get(c.Options, "timeseries").(bson.D)
	secs, hasTTL := value.Get(c.Options, "expireAfterSeconds").(int64)
	if !isBuckets || !hasTTL || !c.IsClustered() {
		return 0, 0, false
	}
	return secs, timeseries.FromDocument(spec).BucketMaxSpanSeconds, true
}

// bucketsTTLCutoff is the latest second a bucket's _id may hold for the
// bucket to expire at now. A bucket's _id holds its minimum time, and it
// may hold measurements up to its span later, so a bucket expires only
// once its span has passed too (ttl.cpp's safeExpirationDate and
// makeCollScanEndBound: the largest ObjectId of the expiration second).
// It is in seconds, which no expireAfterSeconds create or collMod accepts
// can overflow.
func bucketsTTLCutoff(c *catalog.Collection, now time.Time) (int64, bool) {
	secs, span, ok := bucketsTTL(c)
	return now.Unix() - secs - span, ok
}

// deleteExpired deletes c's documents expired through its TTL indexes
// (deleteExpiredWithIndex: an index scan over the dates before the
// expiration date), or, for time-series buckets, the buckets whose _id
// reaches no further than the expiry (deleteExpiredWithCollscan over the
// ObjectIds from the epoch to the cutoff, compared as their bytes are).
func deleteExpired(c *catalog.Collection, now time.Time) {
	if cutoff, ok := bucketsTTLCutoff(c, now); ok {
		if cutoff < 0 {
			return
		}
		var expired []int64
		c.Scan(0, func(r *catalog.Record) bool {
			// The ObjectId's seconds as unsigned, as its bytes compare.
			id, isOID := value.Get(r.Doc, "_id").(bson.ObjectID)
			if isOID && id.Timestamp().Unix() <= cutoff {
				expired = append(expired, r.ID)
			}
			return true
		})
		for _, rid := range expired {
			c.Delete(rid)
		}
		return
	}
	expired := map[int64]bool{}
	for _, ix := range c.Indexes() {
		secs, ok := ttlSeconds(ix)
		if ix.Spec.Clustered {
			secs, ok = clusteredTTL(c)
		}
		if !ok {
			continue
		}
		cutoff := bson.NewDateTimeFromTime(now.Add(-time.Duration(secs) * time.Second))
		ix.Ascend(func(en index.Entry) bool {
			if d, ok := en.Key[0].(bson.DateTime); ok && d <= cutoff {
				expired[en.RID] = true
			}
			return true
		})
	}
	for rid := range expired {
		c.Delete(rid)
	}
}
