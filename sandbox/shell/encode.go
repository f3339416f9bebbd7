package shell

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"time"

	"github.com/dop251/goja"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// This file encodes JS documents straight to BSON bytes. Inserting
// thousands of documents built in a JS loop is a figure the issue sets
// (144,000 in 1.5 s), and going through bson.D and the driver's
// reflection-based encoder costs more than the JS loop itself.

var (
	typeInt64   = reflect.TypeOf(int64(0))
	typeFloat64 = reflect.TypeOf(float64(0))
	typeString  = reflect.TypeOf("")
	typeBool    = reflect.TypeOf(false)
)

// smallIndexKeys avoids strconv for the usual array sizes.
var smallIndexKeys = func() [256]string {
	var k [256]string
	for i := range k {
		k[i] = strconv.Itoa(i)
	}
	return k
}()

func indexKey(i int) string {
	if i < len(smallIndexKeys) {
		return smallIndexKeys[i]
	}
	return strconv.Itoa(i)
}

// encodeDoc encodes a JS object as a BSON document. With ensureID, a
// missing _id is generated and written first; the _id is returned. The
// caller's object is left as it is: mongosh inserts a copy ({ ...doc }).
func (s *Shell) encodeDoc(dst []byte, o *goja.Object, ensureID bool) (out []byte, id any, err error) {
	idx, dst := bsoncore.AppendDocumentStart(dst)
	s.encodeStart = int(idx)
	keys := s.ownKeys(o)
	if ensureID {
		hasID := false
		for _, k := range keys {
			if k == "_id" {
				hasID = true
				break
			}
		}
		if !hasID {
			oid := bson.NewObjectID()
			id = oid
			dst = bsoncore.AppendObjectIDElement(dst, "_id", oid)
		}
	}
	for _, k := range keys {
		v := o.Get(k)
		if ensureID && k == "_id" {
			if id, err = s.toBSON(v, 1, false); err != nil {
				return nil, nil, err
			}
		}
		if dst, err = s.appendValue(dst, k, v, 1); err != nil {
			return nil, nil, err
		}
	}
	dst, err = bsoncore.AppendDocumentEnd(dst, idx)
	return dst, id, err
}

func (s *Shell) appendValue(dst []byte, key string, v goja.Value, depth int) ([]byte, error) {
	if len(dst)-s.encodeStart > jsBSONBufferSize {
		return nil, errTooLargeForBSON
	}
	if v == nil {
		return bsoncore.AppendNullElement(dst, key), nil
	}
	if o, ok := v.(*goja.Object); ok {
		return s.appendObject(dst, key, o, depth)
	}
	// ExportType and the To* accessors avoid boxing every number into an
	// interface, which Export() would do.
	switch v.ExportType() {
	case typeInt64:
		x := v.ToInteger()
		if x >= math.MinInt32 && x <= math.MaxInt32 {
			return bsoncore.AppendInt32Element(dst, key, int32(x)), nil
		}
		return bsoncore.AppendDoubleElement(dst, key, float64(x)), nil
	case typeFloat64:
		x := v.ToFloat()
		if x == math.Trunc(x) && x >= math.MinInt32 && x <= math.MaxInt32 && !(x == 0 && math.Signbit(x)) {
			return bsoncore.AppendInt32Element(dst, key, int32(x)), nil
		}
		return bsoncore.AppendDoubleElement(dst, key, x), nil
	case typeString:
		str := v.String()
		if len(dst)-s.encodeStart+len(str) > jsBSONBufferSize {
			return nil, errTooLargeForBSON
		}
		return bsoncore.AppendStringElement(dst, key, str), nil
	case typeBool:
		return bsoncore.AppendBooleanElement(dst, key, v.ToBoolean()), nil
	}
	// undefined (serialised as null, as the Node driver does) and symbols
	return bsoncore.AppendNullElement(dst, key), nil
}

func (s *Shell) appendObject(dst []byte, key string, o *goja.Object, depth int) ([]byte, error) {
	if depth > maxNesting {
		return nil, errTooDeep
	}
	if b, ok := s.unbox(o); ok {
		return appendGo(dst, key, b)
	}
	if err := s.tick(); err != nil {
		return nil, err
	}
	switch o.ClassName() {
	case "Array":
		// Every index up to the length, a hole as null, as the Node
		// driver does; one that cannot fit is refused before a byte of
		// it is written (a[4294967294] = 1 has over four billion holes).
		n := o.Get("length").ToInteger()
		if int64(len(dst)-s.encodeStart)+minArrayBytes(n) > jsBSONBufferSize {
			return nil, errTooLargeForBSON
		}
		idx, dst := bsoncore.AppendArrayElementStart(dst, key)
		var err error
		for i := range int(n) {
			if dst, err = s.appendValue(dst, indexKey(i), o.Get(indexKey(i)), depth+1); err != nil {
				return nil, err
			}
		}
		return bsoncore.AppendArrayEnd(dst, idx)
	case "Date":
		t, ok := o.Export().(time.Time)
		if !ok {
			return bsoncore.AppendDateTimeElement(dst, key, math.MaxInt64), nil
		}
		return bsoncore.AppendDateTimeElement(dst, key, t.UnixMilli()), nil
	case "RegExp":
		return bsoncore.AppendRegexElement(dst, key, patternOf(o), sortFlags(o.Get("flags").String())), nil
	case "Function":
		// The Node driver leaves functions out (serializeFunctions: false).
		return dst, nil
	}
	idx, dst := bsoncore.AppendDocumentElementStart(dst, key)
	var err error
	for _, k := range s.ownKeys(o) {
		if dst, err = s.appendValue(dst, k, o.Get(k), depth+1); err != nil {
			return nil, err
		}
	}
	return bsoncore.AppendDocumentEnd(dst, idx)
}

// appendGo encodes a Go value from the shell's value model.
func appendGo(dst []byte, key string, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return bsoncore.AppendNullElement(dst, key), nil
	case int32:
		return bsoncore.AppendInt32Element(dst, key, x), nil
	case Int32Value:
		return bsoncore.AppendInt32Element(dst, key, int32(x)), nil
	case int64:
		return bsoncore.AppendInt64Element(dst, key, x), nil
	case float64:
		return bsoncore.AppendDoubleElement(dst, key, x), nil
	case DoubleValue:
		return bsoncore.AppendDoubleElement(dst, key, float64(x)), nil
	case string:
		return bsoncore.AppendStringElement(dst, key, x), nil
	case bool:
		return bsoncore.AppendBooleanElement(dst, key, x), nil
	case bson.ObjectID:
		return bsoncore.AppendObjectIDElement(dst, key, x), nil
	case bson.DateTime:
		return bsoncore.AppendDateTimeElement(dst, key, int64(x)), nil
	case bson.Decimal128:
		h, l := x.GetBytes()
		return bsoncore.AppendDecimal128Element(dst, key, h, l), nil
	case bson.Timestamp:
		return bsoncore.AppendTimestampElement(dst, key, x.T, x.I), nil
	case bson.Binary:
		return bsoncore.AppendBinaryElement(dst, key, x.Subtype, x.Data), nil
	case bson.MinKey:
		return bsoncore.AppendMinKeyElement(dst, key), nil
	case bson.MaxKey:
		return bsoncore.AppendMaxKeyElement(dst, key), nil
	case bson.Regex:
		return bsoncore.AppendRegexElement(dst, key, x.Pattern, x.Options), nil
	case bson.JavaScript:
		return bsoncore.AppendJavaScriptElement(dst, key, string(x)), nil
	case bson.Symbol:
		return bsoncore.AppendSymbolElement(dst, key, string(x)), nil
	case DBRef:
		d := bson.D{{Key: "$ref", Value: x.Collection}, {Key: "$id", Value: x.ID}}
		if x.DB != "" {
			d = append(d, bson.E{Key: "$db", Value: x.DB})
		}
		return appendGo(dst, key, d)
	case bson.D:
		idx, dst := bsoncore.AppendDocumentElementStart(dst, key)
		var err error
		for _, e := range x {
			if dst, err = appendGo(dst, e.Key, e.Value); err != nil {
				return nil, err
			}
		}
		return bsoncore.AppendDocumentEnd(dst, idx)
	case bson.A:
		idx, dst := bsoncore.AppendArrayElementStart(dst, key)
		var err error
		for i, e := range x {
			if dst, err = appendGo(dst, indexKey(i), e); err != nil {
				return nil, err
			}
		}
		return bsoncore.AppendArrayEnd(dst, idx)
	}
	t, data, err := bson.MarshalValue(v)
	if err != nil {
		return nil, fmt.Errorf("cannot encode %T: %w", v, err)
	}
	dst = bsoncore.AppendHeader(dst, bsoncore.Type(t), key)
	return append(dst, data...), nil
}

// ownKeys lists the keys the Node driver serialises. For plain objects it
// skips goja's per-key enumerability check (object literals only have
// enumerable properties), which is most of the cost of encoding.
func (s *Shell) ownKeys(o *goja.Object) []string {
	if o.Prototype() == s.objectProto {
		return o.GetOwnPropertyNames()
	}
	return o.Keys()
}
