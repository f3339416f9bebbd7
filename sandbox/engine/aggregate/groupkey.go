package aggregate

import (
	"encoding/binary"
	"fmt"
	"math"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// appendKey encodes v so that two values mongod's ValueComparator treats as
// equal (1, 1.0 and NumberLong(1); null and missing as a group key) get the
// same bytes. $group keys its hash map by this encoding and $addToSet
// de-duplicates with it.
func appendKey(buf []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(buf, 'z')
	case int32:
		return appendIntKey(buf, int64(x))
	case int64:
		return appendIntKey(buf, x)
	case float64:
		return appendFloatKey(buf, x)
	case bson.Decimal128:
		if n, ok := value.IntegralLong(x); ok {
			return appendIntKey(buf, n)
		}
		return appendFloatKey(buf, value.DecimalToDouble(x))
	case string:
		buf = append(buf, 's')
		buf = binary.AppendUvarint(buf, uint64(len(x)))
		return append(buf, x...)
	case bson.Symbol:
		buf = append(buf, 's')
		buf = binary.AppendUvarint(buf, uint64(len(x)))
		return append(buf, x...)
	case bool:
		if x {
			return append(buf, 'b', 1)
		}
		return append(buf, 'b', 0)
	case bson.ObjectID:
		buf = append(buf, 'o')
		return append(buf, x[:]...)
	case bson.DateTime:
		buf = append(buf, 't')
		return binary.BigEndian.AppendUint64(buf, uint64(x))
	case bson.Timestamp:
		buf = append(buf, 'T')
		buf = binary.BigEndian.AppendUint32(buf, x.T)
		return binary.BigEndian.AppendUint32(buf, x.I)
	case bson.D:
		buf = append(buf, 'D')
		for _, e := range x {
			buf = binary.AppendUvarint(buf, uint64(len(e.Key))+1)
			buf = append(buf, e.Key...)
			buf = appendKey(buf, e.Value)
		}
		return append(buf, 0)
	case bson.A:
		buf = append(buf, 'A')
		for _, e := range x {
			buf = append(buf, 1)
			buf = appendKey(buf, e)
		}
		return append(buf, 0)
	case bson.Binary:
		buf = append(buf, 'B', x.Subtype)
		buf = binary.AppendUvarint(buf, uint64(len(x.Data)))
		return append(buf, x.Data...)
	case bson.Regex:
		buf = append(buf, 'r')
		buf = binary.AppendUvarint(buf, uint64(len(x.Pattern)))
		buf = append(buf, x.Pattern...)
		buf = binary.AppendUvarint(buf, uint64(len(x.Options)))
		return append(buf, x.Options...)
	case bson.MinKey:
		return append(buf, '<')
	case bson.MaxKey:
		return append(buf, '>')
	case bson.Undefined:
		return append(buf, 'u')
	}
	s := fmt.Sprintf("%T:%v", v, v)
	buf = append(buf, '?')
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

func appendIntKey(buf []byte, n int64) []byte {
	buf = append(buf, 'n')
	return binary.BigEndian.AppendUint64(buf, uint64(n))
}

func appendFloatKey(buf []byte, f float64) []byte {
	if f == math.Trunc(f) && f >= -(1<<63) && f < (1<<63) {
		return appendIntKey(buf, int64(f))
	}
	if math.IsNaN(f) {
		return append(buf, 'N')
	}
	buf = append(buf, 'f')
	return binary.BigEndian.AppendUint64(buf, math.Float64bits(f))
}
