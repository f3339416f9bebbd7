package value

import (
	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// mongod's document and message limits, defined once for the engine and
// the wire layer.
const (
	// MaxUserDocumentSize is BSONObjMaxUserSize (src/mongo/bson/util/
	// builder.h): the largest document a user may store, and hello's
	// maxBsonObjectSize.
	MaxUserDocumentSize = 16 * 1024 * 1024
	// MaxInternalDocumentSize is BSONObjMaxInternalSize: the largest
	// BSONObj mongod builds at all (a command, a reply document), the
	// user limit plus room for the command's own fields.
	MaxInternalDocumentSize = MaxUserDocumentSize + 16*1024
	// MaxNestingDepth is BSONDepth::kDefaultMaxAllowableDepth (the
	// maxBSONDepth parameter): incoming BSON nested deeper is refused.
	// The manual's "100 levels" is documentation only; mongod 8.0's code
	// enforces these two figures.
	MaxNestingDepth = 200
	// MaxStorageDepth is BSONDepth::getMaxDepthForUserStorage(): the
	// nesting a stored document may have, MaxNestingDepth less the 20
	// levels kept for system wrappers such as oplog entries.
	MaxStorageDepth = MaxNestingDepth - 20
)

// MaxBufferSize is BufferMaxSize (src/mongo/bson/util/builder.h): no
// BufBuilder or StringBuilder grows past it (location 13548).
const MaxBufferSize = 64 * 1024 * 1024

// MaxStringSize is the length from which mongod refuses to create a string
// value (RCString::create: "Tried to create string longer than 16MB",
// location 16493); a string must be strictly shorter.
const MaxStringSize = MaxUserDocumentSize

// MemoryLimit is the 100 MB of mongod's per-stage and per-accumulator
// memory knobs (internalQueryMaxBlockingSortMemoryUsageBytes,
// internalDocumentSourceGroupMaxMemoryBytes, internalQueryMaxPushBytes,
// internalQueryMaxAddToSetBytes, internalQueryMaxRangeBytes, ...), all
// 100 * 1024 * 1024 by default.
const MemoryLimit = 100 * 1024 * 1024

// StringTooLong is mongod's error for a string value that would reach
// MaxStringSize.
func StringTooLong() error {
	return mongoerr.New(mongoerr.ErrStringTooLong, "Tried to create string longer than 16MB")
}

// ObjectTooLarge is BSONObj's own size assertion (BSONObj::_assertInvalid,
// BSONObjectTooLarge), raised wherever mongod turns a document into a
// BSONObj above MaxInternalDocumentSize: a command message, a reply
// document. size is the document's BSON size.
func ObjectTooLarge(d bson.D, size int) error {
	first := ""
	if len(d) > 0 {
		// BSONElement::toString shortens a string over 160 bytes to its
		// first 150.
		if s, ok := d[0].Value.(string); ok && len(s)+1 > 160 {
			first = d[0].Key + ": \"" + s[:150] + "...\""
		} else {
			first = FormatElem(d[0].Key, d[0].Value)
		}
	}
	return mongoerr.Newf(mongoerr.BSONObjectTooLarge,
		"BSONObj size: %d (0x%X) is invalid. Size must be between 0 and %d(16MB) First element: %s",
		size, size, MaxInternalDocumentSize, first)
}

// MemSize is the engine's model of the memory a value holds in a blocking
// stage or an accumulator, after mongod's Value::getApproximateSize: 16
// bytes for the value itself plus its BSON size (a string's bytes, a
// document's or an array's encoding). It costs one walk of the value;
// scalars are O(1).
func MemSize(v any) int { return 16 + valueSize(v) }

// MeasureWithin is MemSize and the nesting depth of v (a document or an
// array is one level), walked only as far as needed to tell that the size
// passes maxSize or the depth MaxNestingDepth: ok is then false and size
// and depth are what was seen so far. Values built in a pipeline share
// their parts, so one can stand for far more bytes, or levels, than the
// memory it takes; this is how the engine bounds them at a cost bounded
// by the limits, not by the value.
func MeasureWithin(v any, maxSize int) (size, depth int, ok bool) {
	m := measurer{max: maxSize - 16}
	m.add(v, 0)
	return m.total + 16, m.deepest, !m.over
}

type measurer struct {
	max, total, deepest int
	over                bool
}

func (m *measurer) add(v any, depth int) {
	switch x := v.(type) {
	case bson.D:
		if m.enter(depth) {
			return
		}
		m.total += 5
		for _, e := range x {
			m.total += 2 + len(e.Key)
			if m.add(e.Value, depth+1); m.over {
				return
			}
		}
	case bson.A:
		if m.enter(depth) {
			return
		}
		m.total += 5
		for i, e := range x {
			m.total += 2 + digits(i)
			if m.add(e, depth+1); m.over {
				return
			}
		}
	case bson.CodeWithScope:
		scope, _ := x.Scope.(bson.D)
		m.total += 8 + len(x.Code) + 1
		m.add(scope, depth)
	default:
		m.total += valueSize(v)
	}
	if m.total > m.max {
		m.over = true
	}
}

// enter counts one more level and reports whether that is too deep.
func (m *measurer) enter(depth int) bool {
	m.deepest = max(m.deepest, depth+1)
	m.over = m.over || m.deepest > MaxNestingDepth
	return m.over
}

// SortMemoryExceeded is the Sorter's error when a blocking sort passes
// MemoryLimit and the command said allowDiskUse: false. With disk use
// allowed (8.0's default, allowDiskUseByDefault), mongod spills to disk
// instead; the engine then keeps going in memory.
func SortMemoryExceeded() error {
	return mongoerr.Newf(mongoerr.QueryExceededMemoryLimitNoDiskUseAllowed,
		"Sort exceeded memory limit of %d bytes, but did not opt in to external sorting.", MemoryLimit)
}
