package catalog

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// A collection created with clusteredIndex is keyed by _id: mongod's
// record store orders it by the _id's KeyString. The catalog keeps its
// records in RecordID order like any other's, and its _id index, marked
// as the cluster key (index.Spec.Clustered), gives the order the planner
// scans it in (planner/clustered.go).

// ClusteredIndex is the clusteredIndex option of a collection created
// clustered by _id ({v, key, name, unique}), nil for any other, the
// time-series buckets' legacy {clusteredIndex: true} included: its
// records are in cluster key order and its _id index is the cluster key
// itself, which the planner scans as the collection (CLUSTERED_IXSCAN)
// and never as an index.
func (c *Collection) ClusteredIndex() bson.D {
	d, _ := value.Get(c.Options, "clusteredIndex").(bson.D)
	return d
}

// IsClustered reports a collection clustered by _id in either form:
// one created with clusteredIndex, or a time-series collection's
// buckets. Neither has an _id index to list, count, name or drop.
func (c *Collection) IsClustered() bool {
	switch v := value.Get(c.Options, "clusteredIndex").(type) {
	case bson.D:
		return true
	case bool:
		return v
	}
	return false
}

// maxRecordIDSize is RecordId::kBigStrMaxSize (record_id.h).
const maxRecordIDSize = 8 << 20

// checkRecordIDSize refuses a document of a clustered collection whose
// _id is too large to be its RecordId (5894900). The RecordId is the
// KeyString of the _id's value: a string of n bytes takes n+3 (a type
// byte, a terminating NUL and an end byte). Other types are measured by
// the size of their BSON value, a model of their KeyString: only a
// string, binary or document _id comes near the limit.
func (c *Collection) checkRecordIDSize(doc bson.D) error {
	if c.ClusteredIndex() == nil {
		return nil
	}
	id := value.Get(doc, "_id")
	var size int
	if s, ok := id.(string); ok {
		size = len(s) + 3
	} else {
		size = value.Size(bson.D{{Key: "", Value: id}}) - 7 // {"": id} adds 7 bytes
	}
	if size > maxRecordIDSize {
		return mongoerr.Newf(mongoerr.ErrRecordIDTooLarge, "Size of RecordId (%d) is above limit of %d bytes", size, maxRecordIDSize)
	}
	return nil
}

// idSpec marks the _id index of a clustered collection, time-series
// buckets included, as the cluster key.
func (c *Collection) idSpec(spec index.Spec) index.Spec {
	if spec.IsID() && c.IsClustered() {
		spec.Clustered = true
	}
	return spec
}

// clusterKeySpec is isSpecOKClusteredIndexCheck
// (index_catalog_impl.cpp) for an index spec createIndexes asks for:
// only a clustered collection's cluster key may say clustered: true, and
// a spec on the cluster key's field (a single ascending or descending
// field) names the cluster key itself, which exists already. It reports
// that such a spec builds nothing.
func (c *Collection) clusterKeySpec(spec index.Spec) (exists bool, err error) {
	clustered := c.ClusteredIndex()
	if clustered == nil && c.IsClustered() {
		// The buckets' legacy {clusteredIndex: true} is the cluster key
		// makeCanonicalClusteredInfoForLegacyFormat (clustered_util.cpp)
		// describes: _id, unique.
		clustered = bson.D{{Key: "v", Value: int32(2)}, {Key: "key", Value: bson.D{{Key: "_id", Value: int32(1)}}},
			{Key: "name", Value: "_id_"}, {Key: "unique", Value: true}}
	}
	onKey := clustered != nil && len(spec.Key) == 1 && value.IsNumber(spec.Key[0].Value) &&
		spec.Key[0].Key == value.Get(clustered, "key").(bson.D)[0].Key
	if value.Get(spec.Options, "clustered") == true && !onKey {
		return false, mongoerr.New(mongoerr.ErrClusteredOptionMismatch, "Cannot create index with option 'clustered' that does not match an existing clustered index")
	}
	if clustered == nil {
		return false, nil
	}
	if !onKey {
		if spec.Name == value.Get(clustered, "name") {
			return false, mongoerr.Newf(mongoerr.ErrClusteredNameMismatch, "Cannot create an index where the name matches the clusteredIndex but the key does not - indexSpec: %s, clusteredIndex: %s",
				index.FormatDoc(spec.Document()), index.FormatDoc(clustered))
		}
		return false, nil
	}
	if u := value.Get(spec.Options, "unique"); !value.IsMissing(u) && u != true {
		return false, mongoerr.New(mongoerr.ErrClusteredUniqueMismatch, "Cannot create an index with the same key pattern as the collection's clusteredIndex but a different 'unique' field")
	}
	return true, nil
}
