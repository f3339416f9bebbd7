package value

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/x/bsonx/bsoncore"
)

// ErrCorrupt reports malformed BSON input.
var errCorrupt = errors.New("invalid BSON")

// Decode turns raw BSON into the engine's document model. It is the hot
// path of every insert, so it walks the bytes directly instead of going
// through the reflection-based bson.Unmarshal.
func Decode(raw []byte) (bson.D, error) {
	var dec Decoder
	return dec.Decode(raw)
}

// Decoder decodes many documents that share field names, such as the
// documents of one insert batch, keeping a single copy of each name: a
// stored collection then holds one "courseId" string, not one per
// document. The zero value is ready to use; it is not safe for concurrent
// use.
type Decoder struct {
	keys map[string]string
	// top holds the last document's top-level field names by position:
	// the documents of a batch mostly list the same fields in the same
	// order, and comparing with the name met at that position last time
	// costs less than hashing it (about a tenth of decoding a small
	// document).
	top []string
	// hollow is the top-level field DecodeHollow leaves unbuilt.
	hollow string
	// scratch holds the elements of the documents being decoded, nested
	// ones after their parents', so that each document is allocated once
	// at its exact length: stored documents are most of a collection's
	// heap, and a capacity guessed from the bytes was about twice the
	// length (a 4-field document took 352 bytes instead of 128).
	scratch bson.D
}

// maxTopFields bounds Decoder.top.
const maxTopFields = 64

// maxInternedKeys bounds the table for batches with unusual field names.
const maxInternedKeys = 4096

// Decode decodes one document.
func (dec *Decoder) Decode(raw []byte) (bson.D, error) {
	return dec.decodeDoc(raw, 0)
}

func (dec *Decoder) key(b []byte) string {
	if k, ok := dec.keys[string(b)]; ok {
		return k
	}
	k := string(b)
	if dec.keys == nil {
		dec.keys = make(map[string]string, 16)
	}
	if len(dec.keys) < maxInternedKeys {
		dec.keys[k] = k
	}
	return k
}

// DecodeHollow decodes one document as Decode does, except that its
// top-level array field key is checked with Validate but not built: it
// decodes as an empty array. The sandbox's guard reads an insert command
// this way: its documents are data, and building them would double the
// cost of every large insert on its way to the server.
func (dec *Decoder) DecodeHollow(raw []byte, key string) (bson.D, error) {
	if err := Validate(raw); err != nil {
		return nil, err
	}
	dec.hollow = key
	defer func() { dec.hollow = "" }()
	return dec.decodeDoc(raw, 0)
}

// decodeElements appends the elements of the document raw to the
// scratch.
func (dec *Decoder) decodeElements(raw []byte, depth int) error {
	if depth > MaxNestingDepth {
		return fmt.Errorf("%w: nesting too deep", errCorrupt)
	}
	if len(raw) < 5 {
		return fmt.Errorf("%w: document shorter than 5 bytes", errCorrupt)
	}
	length := int(int32(uint32(raw[0]) | uint32(raw[1])<<8 | uint32(raw[2])<<16 | uint32(raw[3])<<24))
	if length < 5 || length > len(raw) || raw[length-1] != 0 {
		return fmt.Errorf("%w: bad document length", errCorrupt)
	}
	body := raw[4 : length-1]
	for n := 0; len(body) > 0; n++ {
		t := bsoncore.Type(body[0])
		body = body[1:]
		kb, rest, ok := bsoncore.ReadKeyBytes(body)
		if !ok {
			return fmt.Errorf("%w: unterminated field name", errCorrupt)
		}
		var key string
		switch {
		case depth > 0:
			key = dec.key(kb)
		case n < len(dec.top) && dec.top[n] == string(kb):
			key = dec.top[n]
		default:
			key = dec.key(kb)
			if n < len(dec.top) {
				dec.top[n] = key
			} else if n < maxTopFields {
				dec.top = append(dec.top, key)
			}
		}
		if depth == 0 && t == bsoncore.TypeArray && dec.hollow != "" && key == dec.hollow {
			if _, after, ok := bsoncore.ReadValue(rest, t); ok {
				dec.scratch = append(dec.scratch, bson.E{Key: key, Value: bson.A{}})
				body = after
				continue
			}
		}
		v, rest, err := dec.decodeValue(t, rest, depth)
		if err != nil {
			return err
		}
		dec.scratch = append(dec.scratch, bson.E{Key: key, Value: v})
		body = rest
	}
	return nil
}

// decodeDoc decodes a document into a slice of its own.
func (dec *Decoder) decodeDoc(raw []byte, depth int) (bson.D, error) {
	base := len(dec.scratch)
	if err := dec.decodeElements(raw, depth); err != nil {
		dec.release(base)
		return nil, err
	}
	d := make(bson.D, len(dec.scratch)-base)
	copy(d, dec.scratch[base:])
	dec.release(base)
	return d, nil
}

func (dec *Decoder) decodeArray(raw []byte, depth int) (bson.A, error) {
	base := len(dec.scratch)
	if err := dec.decodeElements(raw, depth); err != nil {
		dec.release(base)
		return nil, err
	}
	a := make(bson.A, len(dec.scratch)-base)
	for i, e := range dec.scratch[base:] {
		a[i] = e.Value
	}
	dec.release(base)
	return a, nil
}

// release drops the scratch elements from base on, clearing them so that
// a long-lived decoder does not keep the last documents' values alive.
func (dec *Decoder) release(base int) {
	clear(dec.scratch[base:])
	dec.scratch = dec.scratch[:base]
}

func (dec *Decoder) decodeValue(t bsoncore.Type, src []byte, depth int) (any, []byte, error) {
	bad := func(what string) (any, []byte, error) {
		return nil, nil, fmt.Errorf("%w: truncated %s", errCorrupt, what)
	}
	switch t {
	case bsoncore.TypeDouble:
		f, rest, ok := bsoncore.ReadDouble(src)
		if !ok {
			return bad("double")
		}
		return f, rest, nil
	case bsoncore.TypeString:
		s, rest, ok := readString(src)
		if !ok {
			return bad("string")
		}
		return s, rest, nil
	case bsoncore.TypeEmbeddedDocument:
		doc, rest, ok := bsoncore.ReadDocument(src)
		if !ok {
			return bad("document")
		}
		d, err := dec.decodeDoc(doc, depth+1)
		return d, rest, err
	case bsoncore.TypeArray:
		arr, rest, ok := bsoncore.ReadArray(src)
		if !ok {
			return bad("array")
		}
		a, err := dec.decodeArray(arr, depth+1)
		return a, rest, err
	case bsoncore.TypeBinary:
		b, rest, ok := readBinary(src)
		if !ok {
			return bad("binData")
		}
		return b, rest, nil
	case bsoncore.TypeUndefined:
		return bson.Undefined{}, src, nil
	case bsoncore.TypeObjectID:
		oid, rest, ok := bsoncore.ReadObjectID(src)
		if !ok {
			return bad("objectId")
		}
		return bson.ObjectID(oid), rest, nil
	case bsoncore.TypeBoolean:
		if len(src) < 1 || src[0] > 1 {
			return bad("bool")
		}
		return src[0] == 1, src[1:], nil
	case bsoncore.TypeDateTime:
		dt, rest, ok := bsoncore.ReadDateTime(src)
		if !ok {
			return bad("date")
		}
		return bson.DateTime(dt), rest, nil
	case bsoncore.TypeNull:
		return nil, src, nil
	case bsoncore.TypeRegex:
		p, o, rest, ok := bsoncore.ReadRegex(src)
		if !ok {
			return bad("regex")
		}
		return bson.Regex{Pattern: p, Options: o}, rest, nil
	case bsoncore.TypeDBPointer:
		ns, rest, ok := readString(src)
		if !ok || len(rest) < 12 {
			return bad("dbPointer")
		}
		return bson.DBPointer{DB: ns, Pointer: bson.ObjectID(rest[:12])}, rest[12:], nil
	case bsoncore.TypeJavaScript:
		js, rest, ok := readString(src)
		if !ok {
			return bad("javascript")
		}
		return bson.JavaScript(js), rest, nil
	case bsoncore.TypeSymbol:
		s, rest, ok := readString(src)
		if !ok {
			return bad("symbol")
		}
		return bson.Symbol(s), rest, nil
	case bsoncore.TypeCodeWithScope:
		// The total length must be exactly the code string plus the scope
		// document; the scope counts two levels of nesting, as in mongod's
		// validator (one for the whole value, one for the scope).
		if len(src) < 4 {
			return bad("javascriptWithScope")
		}
		total := int64(int32(binary.LittleEndian.Uint32(src)))
		code, rest, ok := readString(src[4:])
		if !ok {
			return bad("javascriptWithScope")
		}
		scope, rest, ok := bsoncore.ReadDocument(rest)
		if !ok || total != int64(len(src)-len(rest)) {
			return bad("javascriptWithScope")
		}
		sd, err := dec.decodeDoc(scope, depth+2)
		if err != nil {
			return nil, nil, err
		}
		return bson.CodeWithScope{Code: bson.JavaScript(code), Scope: sd}, rest, nil
	case bsoncore.TypeInt32:
		i, rest, ok := bsoncore.ReadInt32(src)
		if !ok {
			return bad("int")
		}
		return i, rest, nil
	case bsoncore.TypeTimestamp:
		ts, ti, rest, ok := bsoncore.ReadTimestamp(src)
		if !ok {
			return bad("timestamp")
		}
		return bson.Timestamp{T: ts, I: ti}, rest, nil
	case bsoncore.TypeInt64:
		i, rest, ok := bsoncore.ReadInt64(src)
		if !ok {
			return bad("long")
		}
		return i, rest, nil
	case bsoncore.TypeDecimal128:
		h, l, rest, ok := bsoncore.ReadDecimal128(src)
		if !ok {
			return bad("decimal")
		}
		return bson.NewDecimal128(h, l), rest, nil
	case bsoncore.TypeMinKey:
		return bson.MinKey{}, src, nil
	case bsoncore.TypeMaxKey:
		return bson.MaxKey{}, src, nil
	}
	return nil, nil, fmt.Errorf("%w: unknown element type 0x%02x", errCorrupt, byte(t))
}

// readString reads a BSON string: a length that counts the terminating
// NUL, the bytes, and that NUL.
func readString(src []byte) (string, []byte, bool) {
	if len(src) < 4 {
		return "", nil, false
	}
	n := int64(binary.LittleEndian.Uint32(src))
	if n == 0 || n > int64(len(src)-4) || src[4+n-1] != 0 {
		return "", nil, false
	}
	return string(src[4 : 4+n-1]), src[4+n:], true
}

// readBinary reads a binData value. Subtype 2 (the old binary subtype)
// repeats the length inside the payload and bson.Binary holds the data
// after it, so a payload whose inner length disagrees is refused: it could
// not be written back as it came. mongod accepts such a value, and so does
// Validate; this is the one input Decode refuses that mongod would not.
func readBinary(src []byte) (bson.Binary, []byte, bool) {
	if len(src) < 5 {
		return bson.Binary{}, nil, false
	}
	n := int64(binary.LittleEndian.Uint32(src))
	if n > int64(len(src)-5) {
		return bson.Binary{}, nil, false
	}
	sub, data, rest := src[4], src[5:5+n], src[5+n:]
	if sub == 2 {
		if len(data) < 4 || int64(binary.LittleEndian.Uint32(data)) != n-4 {
			return bson.Binary{}, nil, false
		}
		data = data[4:]
	}
	return bson.Binary{Subtype: sub, Data: append([]byte(nil), data...)}, rest, true
}

// Encode renders a document as raw BSON.
func Encode(d bson.D) ([]byte, error) {
	return AppendDoc(make([]byte, 0, 64), d)
}

// AppendDoc appends the BSON encoding of d to dst.
func AppendDoc(dst []byte, d bson.D) ([]byte, error) {
	idx, dst := bsoncore.AppendDocumentStart(dst)
	var err error
	for _, e := range d {
		// BSON ends a key at its first null byte; the driver's encoder
		// panics on one, so it is an error here, whatever built d.
		if strings.IndexByte(e.Key, 0) >= 0 {
			return nil, fmt.Errorf("BSON element keys cannot contain null bytes: %q", e.Key)
		}
		if dst, err = appendElement(dst, e.Key, e.Value); err != nil {
			return nil, err
		}
	}
	return bsoncore.AppendDocumentEnd(dst, idx)
}

func appendArray(dst []byte, a bson.A) ([]byte, error) {
	idx, dst := bsoncore.AppendArrayStart(dst)
	var err error
	var keybuf [20]byte
	for i, v := range a {
		key := itoa(keybuf[:0], i)
		if dst, err = appendElement(dst, key, v); err != nil {
			return nil, err
		}
	}
	return bsoncore.AppendArrayEnd(dst, idx)
}

func itoa(buf []byte, i int) string {
	if i < 10 {
		return smallKeys[i]
	}
	return string(appendInt(buf, i))
}

var smallKeys = [10]string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}

func appendInt(buf []byte, i int) []byte {
	var tmp [20]byte
	n := len(tmp)
	for i >= 10 {
		n--
		tmp[n] = byte('0' + i%10)
		i /= 10
	}
	n--
	tmp[n] = byte('0' + i)
	return append(buf, tmp[n:]...)
}

func appendElement(dst []byte, key string, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return bsoncore.AppendNullElement(dst, key), nil
	case float64:
		return bsoncore.AppendDoubleElement(dst, key, x), nil
	case string:
		return bsoncore.AppendStringElement(dst, key, x), nil
	case bson.D:
		dst = bsoncore.AppendHeader(dst, bsoncore.TypeEmbeddedDocument, key)
		return AppendDoc(dst, x)
	case bson.A:
		dst = bsoncore.AppendHeader(dst, bsoncore.TypeArray, key)
		return appendArray(dst, x)
	case bson.Binary:
		return bsoncore.AppendBinaryElement(dst, key, x.Subtype, x.Data), nil
	case bson.Undefined:
		return bsoncore.AppendUndefinedElement(dst, key), nil
	case bson.ObjectID:
		return bsoncore.AppendObjectIDElement(dst, key, x), nil
	case bool:
		return bsoncore.AppendBooleanElement(dst, key, x), nil
	case bson.DateTime:
		return bsoncore.AppendDateTimeElement(dst, key, int64(x)), nil
	case bson.Regex:
		if strings.IndexByte(x.Pattern, 0) >= 0 || strings.IndexByte(x.Options, 0) >= 0 {
			return nil, fmt.Errorf("BSON regular expressions cannot contain null bytes: %q", x.Pattern)
		}
		return bsoncore.AppendRegexElement(dst, key, x.Pattern, sortedOptions(x.Options)), nil
	case bson.DBPointer:
		return bsoncore.AppendDBPointerElement(dst, key, x.DB, x.Pointer), nil
	case bson.JavaScript:
		return bsoncore.AppendJavaScriptElement(dst, key, string(x)), nil
	case bson.Symbol:
		return bsoncore.AppendSymbolElement(dst, key, string(x)), nil
	case bson.CodeWithScope:
		scope, _ := x.Scope.(bson.D)
		sb, err := Encode(scope)
		if err != nil {
			return nil, err
		}
		return bsoncore.AppendCodeWithScopeElement(dst, key, string(x.Code), sb), nil
	case int32:
		return bsoncore.AppendInt32Element(dst, key, x), nil
	case bson.Timestamp:
		return bsoncore.AppendTimestampElement(dst, key, x.T, x.I), nil
	case int64:
		return bsoncore.AppendInt64Element(dst, key, x), nil
	case bson.Decimal128:
		h, l := x.GetBytes()
		return bsoncore.AppendDecimal128Element(dst, key, h, l), nil
	case bson.MinKey:
		return bsoncore.AppendMinKeyElement(dst, key), nil
	case bson.MaxKey:
		return bsoncore.AppendMaxKeyElement(dst, key), nil
	case Missing:
		// A missing value is simply not written; callers normally drop it
		// earlier, this keeps a stray marker from corrupting output.
		return dst, nil
	case int:
		if x >= math.MinInt32 && x <= math.MaxInt32 {
			return bsoncore.AppendInt32Element(dst, key, int32(x)), nil
		}
		return bsoncore.AppendInt64Element(dst, key, int64(x)), nil
	}
	return nil, fmt.Errorf("value: cannot encode Go type %T", v)
}

// sortedOptions keeps regex flags in the alphabetical order BSON requires.
func sortedOptions(o string) string {
	if len(o) < 2 {
		return o
	}
	b := []byte(o)
	for i := 1; i < len(b); i++ {
		for j := i; j > 0 && b[j] < b[j-1]; j-- {
			b[j], b[j-1] = b[j-1], b[j]
		}
	}
	return string(b)
}

// Size returns the exact BSON size of d in bytes without allocating the
// encoding.
func Size(d bson.D) int {
	n := 5
	for _, e := range d {
		n += 1 + len(e.Key) + 1 + valueSize(e.Value)
	}
	return n
}

func arraySize(a bson.A) int {
	n := 5
	for i, v := range a {
		n += 1 + digits(i) + 1 + valueSize(v)
	}
	return n
}

func digits(i int) int {
	n := 1
	for i >= 10 {
		i /= 10
		n++
	}
	return n
}

func valueSize(v any) int {
	switch x := v.(type) {
	case nil, bson.Undefined, bson.MinKey, bson.MaxKey, Missing:
		return 0
	case float64, int64, bson.DateTime, bson.Timestamp:
		return 8
	case int32:
		return 4
	case bool:
		return 1
	case string:
		return 4 + len(x) + 1
	case bson.Symbol:
		return 4 + len(x) + 1
	case bson.JavaScript:
		return 4 + len(x) + 1
	case bson.D:
		return Size(x)
	case bson.A:
		return arraySize(x)
	case bson.Binary:
		if x.Subtype == 2 {
			return 4 + 1 + 4 + len(x.Data)
		}
		return 4 + 1 + len(x.Data)
	case bson.ObjectID:
		return 12
	case bson.Regex:
		return len(x.Pattern) + 1 + len(x.Options) + 1
	case bson.DBPointer:
		return 4 + len(x.DB) + 1 + 12
	case bson.CodeWithScope:
		scope, _ := x.Scope.(bson.D)
		return 4 + 4 + len(x.Code) + 1 + Size(scope)
	case bson.Decimal128:
		return 16
	case int:
		if x >= math.MinInt32 && x <= math.MaxInt32 {
			return 4
		}
		return 8
	}
	return 0
}

// ValueSize is the encoded size of one value (without key and type byte),
// as $bsonSize and size accounting need it.
func ValueSize(v any) int { return valueSize(v) }
