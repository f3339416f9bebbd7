package catalog

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// CappedLimits reads a capped collection's limits from its options
// (capped: true, size, and max when set), as mongod keeps them in its
// CollectionOptions: maxDocs 0 means no document limit. ok is false for a
// collection that is not capped.
func CappedLimits(options bson.D) (size, maxDocs int64, ok bool) {
	if b, _ := value.Get(options, "capped").(bool); !b {
		return 0, 0, false
	}
	size, _ = value.SafeNumberLong(value.Get(options, "size"))
	if m := value.Get(options, "max"); !value.IsMissing(m) {
		maxDocs, _ = value.SafeNumberLong(m)
	}
	return size, maxDocs, true
}

// IsCapped reports whether the collection is capped.
func (c *Collection) IsCapped() bool {
	_, _, ok := CappedLimits(c.Options)
	return ok
}

// cappedDelete brings a capped collection back within its limits after an
// insert, as mongod's cappedDeleteUntilBelowConfiguredMaximum
// (capped_collection_maintenance.cpp) does: the oldest records go first,
// until the bytes removed cover the excess over size and the count the
// excess over max, and never the record just inserted, so a document
// larger than the whole collection is kept alone. Only inserts evict: an
// update that grows a document, or collMod lowering a limit, leaves the
// excess to the next insert.
func (c *Collection) cappedDelete(justInserted int64) {
	size, maxDocs, ok := CappedLimits(c.Options)
	if !ok {
		return
	}
	var sizeOver, docsOver int64
	if c.dataSize > size {
		sizeOver = c.dataSize - size
	}
	if n := int64(c.records.Len()); maxDocs != 0 && n > maxDocs {
		docsOver = n - maxDocs
	}
	var saved, removed int64
	for saved < sizeOver || removed < docsOver {
		ref, ok := c.records.Min()
		oldest := ref.r
		if !ok || oldest.ID == justInserted {
			return
		}
		saved += int64(oldest.Size)
		removed++
		c.Delete(oldest.ID)
	}
}
