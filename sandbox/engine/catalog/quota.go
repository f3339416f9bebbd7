package catalog

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// A Quota bounds the storage of every database named <Prefix>* (a
// classroom student's), the way Atlas bounds a shared cluster's: data
// size plus index size, as dbStats reports them, may not grow past Max.
//
// The check sits where every stored byte passes: a live collection's
// Insert and Replace. The data size it uses is exact and kept up to date
// by every write, drop, rename and restore; index sizes come from the
// storage model, which scans whole indexes, so the engine measures them
// now and then (SetIndexBytes) rather than on every write. A write that
// would take the total past Max fails with Atlas's error and changes
// nothing; deletes and drops always succeed, so a learner over the quota
// can free space.
type Quota struct {
	Prefix string
	Max    int64
	// data is the BSON size of the records of every live collection
	// under the prefix.
	data atomic.Int64
	// indexes is their index size as last measured, at measured (Unix
	// nanoseconds), when the data size was measuredData.
	indexes      atomic.Int64
	measured     atomic.Int64
	measuredData atomic.Int64
}

// SetIndexBytes records the index size measured under the prefix.
func (q *Quota) SetIndexBytes(n int64) {
	q.indexes.Store(n)
	q.measuredData.Store(q.data.Load())
}

// ClaimMeasure reports whether the index size is due a new measurement:
// the last is older than every, and either the storage is past half the
// quota or the data has changed by an eighth of it since (index sizes
// follow the data, and far from the limit a stale figure cannot let a
// write past it). If so it counts as measured now, so that of many
// callers at once only one measures.
func (q *Quota) ClaimMeasure(now time.Time, every time.Duration) bool {
	last := q.measured.Load()
	if now.UnixNano()-last < int64(every) {
		return false
	}
	data := q.data.Load()
	moved := data - q.measuredData.Load()
	if data+q.indexes.Load() < q.Max/2 && moved < q.Max/8 && -moved < q.Max/8 {
		return false
	}
	return q.measured.CompareAndSwap(last, now.UnixNano())
}

// Admit fails with Atlas's over-quota error when growing the storage by
// grow bytes would take it past Max.
func (q *Quota) Admit(grow int64) error {
	used := q.data.Load() + q.indexes.Load()
	if used+grow <= q.Max {
		return nil
	}
	return OverQuota(used, grow, q.Max)
}

// Full fails with Atlas's over-quota error once the storage has reached
// Max: a write whose growth is not known in advance (an index build) is
// refused then.
func (q *Quota) Full() error {
	if used := q.data.Load() + q.indexes.Load(); used >= q.Max {
		return OverQuota(used, 0, q.Max)
	}
	return nil
}

// OverQuota is Atlas's error for a write to a shared cluster that has no
// space for it (code 8000, "you are over your space quota, using 513 MB
// of 512 MB"), with what the write would have added.
func OverQuota(used, grow, max int64) error {
	msg := fmt.Sprintf("you are over your space quota, using %s of %s", sizeText(used, max), sizeText(max, max))
	if grow > 0 {
		msg += fmt.Sprintf("; this write needs %s more", sizeText(grow, max))
	}
	return mongoerr.New(mongoerr.AtlasError, msg+" (data size plus index size of your databases, as db.stats() reports them; delete or drop something to free space)")
}

// sizeText renders n in Atlas's whole megabytes, with a tenth for a
// quota under 100 MB and in kilobytes for one under a megabyte, rounded
// up: a write is refused only when the figures it shows add up to more
// than the quota.
func sizeText(n, quota int64) string {
	switch {
	case quota < 1<<20:
		return fmt.Sprintf("%d KB", (n+1<<10-1)>>10)
	case quota < 100<<20:
		tenths := (n*10 + 1<<20 - 1) >> 20
		return fmt.Sprintf("%d.%d MB", tenths/10, tenths%10)
	}
	return fmt.Sprintf("%d MB", (n+1<<20-1)>>20)
}

// SetQuota starts enforcing q over the databases under q.Prefix, in place
// of any quota with the same prefix, and counts what they already hold.
func (c *Catalog) SetQuota(q *Quota) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.quotas[q.Prefix] = q
	for name, d := range c.dbs {
		if !vocab.InPrefix(name, q.Prefix) {
			continue
		}
		for _, col := range d.colls {
			col.live.mu.Lock()
			col.quota = q
			q.data.Add(col.dataSize)
			col.live.mu.Unlock()
		}
	}
}

// RemoveQuota stops enforcing the quota of prefix.
func (c *Catalog) RemoveQuota(prefix string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.quotas[prefix] == nil {
		return
	}
	delete(c.quotas, prefix)
	for name, d := range c.dbs {
		if !vocab.InPrefix(name, prefix) {
			continue
		}
		for _, col := range d.colls {
			col.live.mu.Lock()
			col.quota = nil
			col.live.mu.Unlock()
		}
	}
}

// QuotaOf is the quota set for prefix, or nil.
func (c *Catalog) QuotaOf(prefix string) *Quota {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.quotas[prefix]
}

// QuotaFor is the quota db is under, or nil.
func (c *Catalog) QuotaFor(db string) *Quota {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.quotaFor(db)
}

// quotaFor is QuotaFor for a caller holding mu.
func (c *Catalog) quotaFor(db string) *Quota {
	for prefix, q := range c.quotas {
		if vocab.InPrefix(db, prefix) {
			return q
		}
	}
	return nil
}
