// Package storagestats computes collStats/dbStats figures. size and count
// are exact; storageSize and index sizes come from a model of WiredTiger
// computed from the real data, so that they move the way MongoDB's do
// (fewer, larger documents compress better; fewer index entries make a
// smaller index):
//
// Collection file: records in natural order, each its BSON plus a few
// bytes of cell overhead (RecordId key and cell headers), are packed into
// leaf pages of at most 32 KiB; every page is compressed with snappy (the
// default block compressor), gets a page header and is written in 4 KiB
// allocation units. Internal pages and the file's descriptor block add
// one 4 KiB unit each per 64 leaf pages, and the smallest file is 4 KiB.
//
// Index file: every entry is a KeyString-like encoding of its key values
// followed by the RecordId. Entries are prefix-compressed against the
// previous key on the same page (WiredTiger's prefix compression, used
// for indexes instead of block compression) and packed into 16 KiB leaf
// pages filled to the 75% that splits under insertion leave on average,
// then written in 4 KiB units as above.
package storagestats

import (
	"encoding/binary"
	"math"

	"github.com/golang/snappy"
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/index"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

const (
	allocUnit         = 4096
	dataLeafMax       = 32 * 1024
	indexLeafMax      = 16 * 1024
	indexFill         = 0.75
	pageHeader        = 40
	recordOverhead    = 6 // RecordId key cell + value cell headers
	indexCellOverhead = 3 // key cell header, prefix length, empty value cell
	leavesPerInternal = 64
)

func roundAlloc(n int64) int64 { return (n + allocUnit - 1) / allocUnit * allocUnit }

// fileSize adds internal pages and the descriptor block to the leaf
// bytes of a B-tree file.
func fileSize(leafBytes int64, leaves int64) int64 {
	internal := (leaves + leavesPerInternal - 1) / leavesPerInternal
	return allocUnit + leafBytes + internal*allocUnit
}

// DataStorageSize models the collection file's size.
func DataStorageSize(c *catalog.Collection) int64 {
	var page []byte
	var leafBytes, leaves int64
	var comp []byte
	flush := func() {
		if len(page) == 0 {
			return
		}
		// snappy writes into dst only when its length (not its
		// capacity) is enough.
		comp = snappy.Encode(comp[:cap(comp)], page)
		leafBytes += roundAlloc(int64(len(comp) + pageHeader))
		leaves++
		page = page[:0]
	}
	var hdr [recordOverhead]byte
	c.Scan(0, func(r *catalog.Record) bool {
		if len(page)+r.Size+recordOverhead > dataLeafMax && len(page) > 0 {
			flush()
		}
		binary.LittleEndian.PutUint32(hdr[:], uint32(r.ID))
		page = append(page, hdr[:]...)
		page, _ = value.AppendDoc(page, r.Doc)
		return true
	})
	flush()
	if leaves == 0 {
		return allocUnit
	}
	return fileSize(leafBytes, leaves)
}

// IndexSize models one index file's size.
func IndexSize(ix *index.Index) int64 {
	var prev, cur []byte
	var pageBytes, leafBytes, leaves int64
	capacity := int64(indexLeafMax * indexFill)
	ix.Ascend(func(e index.Entry) bool {
		cur = cur[:0]
		for _, v := range e.Key {
			cur = appendKeyString(cur, v)
		}
		cur = appendRecordID(cur, e.RID)
		shared := 0
		if pageBytes > 0 {
			for shared < len(prev) && shared < len(cur) && prev[shared] == cur[shared] {
				shared++
			}
			if shared < 4 { // WiredTiger's prefix_compression_min
				shared = 0
			}
		}
		n := int64(len(cur) - shared + indexCellOverhead)
		if pageBytes+n > capacity {
			leafBytes += roundAlloc(pageBytes + pageHeader)
			leaves++
			pageBytes = 0
			n = int64(len(cur) + indexCellOverhead)
		}
		pageBytes += n
		prev, cur = cur, prev
		return true
	})
	if pageBytes > 0 {
		leafBytes += roundAlloc(pageBytes + pageHeader)
		leaves++
	}
	if leaves == 0 {
		return allocUnit
	}
	return fileSize(leafBytes, leaves)
}

// appendKeyString appends a simplified KeyString encoding: a type byte
// then an order-preserving payload.
func appendKeyString(b []byte, v any) []byte {
	b = append(b, byte(value.CanonicalTypeOrder(v)+10))
	switch x := v.(type) {
	case string:
		b = append(b, x...)
		return append(b, 0)
	case int32:
		return binary.BigEndian.AppendUint64(b, uint64(math.Float64bits(float64(x))))[:len(b)+4]
	case int64:
		return binary.BigEndian.AppendUint64(b, uint64(x))
	case float64:
		return binary.BigEndian.AppendUint64(b, math.Float64bits(x))
	case bson.DateTime:
		return binary.BigEndian.AppendUint64(b, uint64(x)^1<<63)
	case bson.ObjectID:
		return append(b, x[:]...)
	case bool:
		if x {
			return append(b, 1)
		}
		return append(b, 0)
	case bson.D, bson.A:
		enc, _ := value.Encode(bson.D{{Key: "", Value: x}})
		return append(b, enc...)
	case bson.Timestamp:
		b = binary.BigEndian.AppendUint32(b, x.T)
		return binary.BigEndian.AppendUint32(b, x.I)
	case bson.Binary:
		b = append(b, x.Data...)
		return append(b, 0)
	case bson.Decimal128:
		h, l := x.GetBytes()
		b = binary.BigEndian.AppendUint64(b, h)
		return binary.BigEndian.AppendUint64(b, l)
	}
	return b
}

// appendRecordID encodes a RecordId in as few bytes as it needs, as
// KeyString does.
func appendRecordID(b []byte, rid int64) []byte {
	n := 1
	for v := rid >> 8; v > 0; v >>= 8 {
		n++
	}
	b = append(b, byte(n))
	for i := n - 1; i >= 0; i-- {
		b = append(b, byte(rid>>(8*i)))
	}
	return b
}
