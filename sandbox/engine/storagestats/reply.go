package storagestats

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
)

// Figures are one collection's statistics, unscaled.
type Figures struct {
	Count       int64
	Size        int64
	StorageSize int64
	IndexSizes  bson.D // name → int64 bytes, in index creation order
	TotalIndex  int64
}

// Collect computes the figures of a collection, once per state of its
// contents (catalog.Collection.Derived). A clustered collection (one
// created with clusteredIndex, or a time-series buckets collection) keeps
// its records in _id order in the collection file itself and has no
// separate _id index file.
func Collect(c *catalog.Collection) Figures {
	return c.Derived(func() any { return collect(c) }).(Figures)
}

func collect(c *catalog.Collection) Figures {
	f := Figures{Count: int64(c.Count()), Size: c.DataSize(), StorageSize: DataStorageSize(c)}
	for _, ix := range c.Indexes() {
		if c.IsClustered() && ix.Spec.IsID() {
			continue
		}
		n := IndexSize(ix)
		f.IndexSizes = append(f.IndexSizes, bson.E{Key: ix.Spec.Name, Value: n})
		f.TotalIndex += n
	}
	return f
}

func scaled(n, scale int64) int64 {
	if scale <= 1 {
		return n
	}
	return n / scale
}

// StorageStats renders $collStats' storageStats sub-document in mongod
// 8.0's field order (without the wiredTiger and indexDetails sections).
// scale is the validated scale factor (1 by default).
func StorageStats(c *catalog.Collection, scale int64) bson.D {
	f := Collect(c)
	d := bson.D{
		{Key: "size", Value: scaled(f.Size, scale)},
		{Key: "count", Value: f.Count},
	}
	if f.Count > 0 {
		d = append(d, bson.E{Key: "avgObjSize", Value: f.Size / f.Count})
	}
	idx := make(bson.D, len(f.IndexSizes))
	for i, e := range f.IndexSizes {
		idx[i] = bson.E{Key: e.Key, Value: scaled(e.Value.(int64), scale)}
	}
	d = append(d,
		bson.E{Key: "numOrphanDocs", Value: int64(0)},
		bson.E{Key: "storageSize", Value: scaled(f.StorageSize, scale)},
		bson.E{Key: "freeStorageSize", Value: int64(0)},
	)
	// appendCollectionStorageStats: a capped collection adds its limits,
	// the size scaled.
	size, maxDocs, capped := catalog.CappedLimits(c.Options)
	d = append(d, bson.E{Key: "capped", Value: capped})
	if capped {
		d = append(d, bson.E{Key: "max", Value: maxDocs}, bson.E{Key: "maxSize", Value: scaled(size, scale)})
	}
	d = append(d,
		bson.E{Key: "nindexes", Value: nindexes(c, f)},
		bson.E{Key: "indexBuilds", Value: bson.A{}},
		bson.E{Key: "totalIndexSize", Value: scaled(f.TotalIndex, scale)},
		bson.E{Key: "totalSize", Value: scaled(f.StorageSize+f.TotalIndex, scale)},
		bson.E{Key: "indexSizes", Value: idx},
		bson.E{Key: "scaleFactor", Value: max(scale, 1)},
	)
	return d
}

// CollStats renders the collStats command reply (the lead appends ok: 1):
// {ns, size, count, avgObjSize, ..., scaleFactor}. A missing collection
// (c nil) reports zeros, as mongod 8.0 does.
func CollStats(ns string, c *catalog.Collection, scale int64) bson.D {
	if c == nil {
		return bson.D{
			{Key: "ns", Value: ns},
			{Key: "size", Value: int64(0)},
			{Key: "count", Value: int64(0)},
			{Key: "numOrphanDocs", Value: int64(0)},
			{Key: "storageSize", Value: int64(0)},
			{Key: "totalSize", Value: int64(0)},
			{Key: "nindexes", Value: int64(0)},
			{Key: "totalIndexSize", Value: int64(0)},
			{Key: "indexSizes", Value: bson.D{}},
			{Key: "scaleFactor", Value: max(scale, 1)},
		}
	}
	return append(bson.D{{Key: "ns", Value: ns}}, StorageStats(c, scale)...)
}

// DBStats renders the dbStats reply fields (the lead appends ok: 1). db
// may be nil for a database that does not exist.
func DBStats(name string, db *catalog.Database, scale int64, freeStorage bool) bson.D {
	var colls, views, objects, data, storage, indexes, indexSize int64
	if db != nil {
		for _, c := range db.Collections() {
			if c.Kind == catalog.KindView {
				// A view is in the view catalog, not a collection
				// (DatabaseImpl::getStats counts it under views).
				views++
				continue
			}
			f := Collect(c)
			colls++
			objects += f.Count
			data += f.Size
			storage += f.StorageSize
			indexes += int64(len(f.IndexSizes))
			indexSize += f.TotalIndex
		}
	}
	avg := 0.0
	if objects > 0 {
		avg = float64(data) / float64(objects)
	}
	d := bson.D{
		{Key: "db", Value: name},
		{Key: "collections", Value: colls},
		{Key: "views", Value: views},
		{Key: "objects", Value: objects},
		{Key: "avgObjSize", Value: avg},
		{Key: "dataSize", Value: float64(scaled(data, scale))},
		{Key: "storageSize", Value: float64(scaled(storage, scale))},
	}
	if freeStorage {
		d = append(d, bson.E{Key: "freeStorageSize", Value: float64(0)})
	}
	d = append(d,
		bson.E{Key: "indexes", Value: indexes},
		bson.E{Key: "indexSize", Value: float64(scaled(indexSize, scale))},
	)
	if freeStorage {
		d = append(d, bson.E{Key: "indexFreeStorageSize", Value: float64(0)})
	}
	d = append(d, bson.E{Key: "totalSize", Value: float64(scaled(storage+indexSize, scale))})
	if freeStorage {
		d = append(d, bson.E{Key: "totalFreeStorageSize", Value: float64(0)})
	}
	return append(d,
		bson.E{Key: "scaleFactor", Value: float64(max(scale, 1))},
		bson.E{Key: "fsUsedSize", Value: float64(0)},
		bson.E{Key: "fsTotalSize", Value: float64(0)},
	)
}

// nindexes counts the collection's indexes, the cluster key of a
// collection created clustered among them (storage_stats.cpp), though it
// has no size of its own.
func nindexes(c *catalog.Collection, f Figures) int64 {
	n := int64(len(f.IndexSizes))
	if c.ClusteredIndex() != nil {
		n++
	}
	return n
}
