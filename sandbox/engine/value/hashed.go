package value

import (
	"crypto/md5"
	"encoding/binary"
	"hash"
	"strconv"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// HashedIndexKey is the long a hashed index stores for a value (and
// $toHashedIndexKey returns), BSONElementHasher::hash64 with seed 0 (src/mongo/db/
// hasher.cpp): MD5 over the seed, then the value's canonical type, with
// numbers squashed to safeNumberLong and documents and arrays hashed
// element by element with their field names, and the first eight bytes
// of the digest read little-endian. Missing hashes as null.
func HashedIndexKey(v any) int64 {
	h := md5.New()
	var seed [4]byte
	h.Write(seed[:])
	if IsMissing(v) {
		v = nil
	}
	hashElement(h, "", v, false)
	return int64(binary.LittleEndian.Uint64(h.Sum(nil)[:8]))
}

func hashElement(h hash.Hash, name string, v any, withName bool) {
	var b4 [4]byte
	binary.LittleEndian.PutUint32(b4[:], uint32(int32(CanonicalTypeOrder(v))))
	h.Write(b4[:])
	if withName {
		h.Write([]byte(name))
		h.Write([]byte{0})
	}
	switch x := v.(type) {
	case bson.D:
		for _, e := range x {
			hashElement(h, e.Key, e.Value, true)
		}
		hashEOO(h)
		return
	case bson.A:
		for i, e := range x {
			hashElement(h, strconv.Itoa(i), e, true)
		}
		hashEOO(h)
		return
	case bson.CodeWithScope:
		h.Write([]byte(string(x.Code)))
		h.Write([]byte{0})
		if scope, ok := x.Scope.(bson.D); ok {
			for _, e := range scope {
				hashElement(h, e.Key, e.Value, true)
			}
		}
		hashEOO(h)
		return
	}
	if n, ok := SafeNumberLong(v); ok {
		var b8 [8]byte
		binary.LittleEndian.PutUint64(b8[:], uint64(n))
		h.Write(b8[:])
		return
	}
	if v == nil {
		return
	}
	if _, raw, err := bson.MarshalValue(v); err == nil {
		h.Write(raw)
	}
}

// hashEOO hashes the end-of-object element that closes a document or an
// array: canonical type 0 and an empty field name.
func hashEOO(h hash.Hash) {
	var b4 [4]byte
	h.Write(b4[:])
	h.Write([]byte{0})
}
