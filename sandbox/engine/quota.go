package engine

import (
	"time"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/storagestats"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// quotaMeasureEvery is how often, at most, a storage quota's index sizes
// are measured again while its databases are in use and near the limit
// (catalog.Quota.ClaimMeasure). Data sizes are counted exactly on every
// write; index sizes come from the storage model, which reads whole
// indexes, and grow with the data, so a second's staleness lets a write
// past the quota by no more than the index entries of one second's
// writes.
const quotaMeasureEvery = time.Second

// SetStorageQuota bounds the storage of the databases named prefix* (data
// size plus index size, as dbStats reports them) to max bytes, as Atlas
// bounds a shared cluster's: a write that would go past it fails with
// Atlas's error (code 8000). max <= 0 removes the quota.
func (e *Engine) SetStorageQuota(prefix string, max int64) {
	if max <= 0 {
		e.catalog.RemoveQuota(prefix)
		return
	}
	q := &catalog.Quota{Prefix: prefix, Max: max}
	e.catalog.SetQuota(q)
	_, indexes := e.storageFigures(prefix)
	q.SetIndexBytes(indexes)
	e.quotas.Store(true)
}

// StorageUsed is the data size plus index size of the databases named
// prefix*, as dbStats reports them: what a storage quota counts.
func (e *Engine) StorageUsed(prefix string) int64 {
	data, indexes := e.storageFigures(prefix)
	if q := e.catalog.QuotaOf(prefix); q != nil {
		q.SetIndexBytes(indexes)
	}
	return data + indexes
}

func (e *Engine) storageFigures(prefix string) (data, indexes int64) {
	for _, name := range e.catalog.DatabaseNames() {
		if !vocab.InPrefix(name, prefix) {
			continue
		}
		d := e.catalog.Database(name)
		if d == nil {
			continue
		}
		for _, c := range d.Collections() {
			f := storagestats.Collect(c)
			data += f.Size
			indexes += f.TotalIndex
		}
	}
	return data, indexes
}

// checkQuota runs before every command on a database under a storage
// quota: it measures the quota's index sizes when they are stale, and
// refuses a command that grows storage by an amount not known in advance
// (a new collection) once the quota is reached. Writes of documents are
// checked as each one is stored (catalog.Quota.Admit), index builds once
// built (admitIndexes).
func (e *Engine) checkQuota(c *command, db string) error {
	q := e.catalog.QuotaFor(db)
	if q == nil {
		return nil
	}
	if q.ClaimMeasure(time.Now(), quotaMeasureEvery) {
		_, indexes := e.storageFigures(q.Prefix)
		q.SetIndexBytes(indexes)
	}
	if c.growsStorage {
		return q.Full()
	}
	return nil
}
