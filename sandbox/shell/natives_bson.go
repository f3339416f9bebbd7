package shell

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// bsonNatives make and read BSON values.
func bsonNatives() []native {
	return []native{
		{"registerProto", (*Shell).registerProto, false},
		{"objectId", (*Shell).objectId, false},
		{"objectIdValid", (*Shell).objectIdValid, false},
		{"objectIdFromTime", (*Shell).objectIdFromTime, false},
		{"objectIdTime", (*Shell).objectIdTime, false},
		{"isoDate", (*Shell).isoDate, false},
		{"int32", (*Shell).int32, false},
		{"long", (*Shell).long, false},
		{"double", (*Shell).double, false},
		{"decimal", (*Shell).decimal, false},
		{"timestamp", (*Shell).timestamp, false},
		{"timestampPart", (*Shell).timestampPart, false},
		{"uuid", (*Shell).uuid, false},
		{"binData", (*Shell).binData, false},
		{"hexData", (*Shell).hexData, false},
		{"binaryString", (*Shell).binaryString, false},
		{"minKey", (*Shell).minKey, false},
		{"maxKey", (*Shell).maxKey, false},
		{"code", (*Shell).code, false},
		{"dbref", (*Shell).dbref, false},
		{"dbrefPart", (*Shell).dbrefPart, false},
		{"bsonRegExp", (*Shell).bsonRegExp, false},
		{"bsonSymbol", (*Shell).bsonSymbol, false},
		{"bsonString", (*Shell).bsonString, false},
		{"bsonNumber", (*Shell).bsonNumber, false},
		{"bsonJSON", (*Shell).bsonJSON, false},
		{"bsonEquals", (*Shell).bsonEquals, false},
		{"bsonInspect", (*Shell).bsonInspect, false},
		{"bsonType", (*Shell).bsonType, false},
		{"bsonsize", (*Shell).bsonsize, false},
		{"ejsonStringify", (*Shell).ejsonStringify, false},
		{"ejsonParse", (*Shell).ejsonParse, false},
	}
}

func (s *Shell) registerProto(c goja.FunctionCall) goja.Value {
	name := c.Argument(0).String()
	p := c.Argument(1).ToObject(s.vm)
	s.protos[p] = name
	s.protoByName[name] = p
	return goja.Undefined()
}

func (s *Shell) objectId(c goja.FunctionCall) goja.Value {
	a := c.Argument(0)
	if isNullish(a) {
		return s.box(bson.NewObjectID())
	}
	if b, ok := s.unbox(a); ok {
		if oid, ok := b.(bson.ObjectID); ok {
			return s.box(oid)
		}
	}
	if num, ok := a.Export().(int64); ok {
		var oid bson.ObjectID
		binary.BigEndian.PutUint32(oid[:4], uint32(num))
		return s.box(oid)
	}
	str := a.String()
	oid, err := bson.ObjectIDFromHex(str)
	if err != nil || len(str) != 24 {
		s.throw("BSONError", "input must be a 24 character hex string, 12 byte Uint8Array, or an integer")
	}
	return s.box(oid)
}

func (s *Shell) objectIdValid(c goja.FunctionCall) goja.Value {
	_, err := bson.ObjectIDFromHex(c.Argument(0).String())
	return s.vm.ToValue(err == nil)
}

func (s *Shell) objectIdFromTime(c goja.FunctionCall) goja.Value {
	var oid bson.ObjectID
	binary.BigEndian.PutUint32(oid[:4], uint32(c.Argument(0).ToInteger()))
	return s.box(oid)
}

func (s *Shell) objectIdTime(c goja.FunctionCall) goja.Value {
	b := s.selfBox(c)
	oid, _ := b.(bson.ObjectID)
	return s.newDate(oid.Timestamp().UnixMilli())
}

func (s *Shell) isoDate(c goja.FunctionCall) goja.Value {
	a := c.Argument(0)
	if isNullish(a) {
		return s.newDate(time.Now().UnixMilli())
	}
	if o, ok := a.(*goja.Object); ok && o.ClassName() == "Date" {
		return s.newDate(int64(o.ToFloat()))
	}
	if _, ok := a.Export().(string); !ok {
		return s.newDate(a.ToInteger())
	}
	ms, ok := parseISODate(a.String())
	if !ok {
		s.throw("Error", "%s is not a valid ISODate", strEscape(a.String()))
	}
	return s.newDate(ms)
}

func (s *Shell) int32(c goja.FunctionCall) goja.Value {
	f := numberArg(s, c.Argument(0))
	return s.box(Int32Value(int32(truncInt(f))))
}

func (s *Shell) long(c goja.FunctionCall) goja.Value {
	a := c.Argument(0)
	if isNullish(a) {
		return s.box(int64(0))
	}
	if hi := c.Argument(1); !isNullish(hi) {
		return s.box(int64(uint64(uint32(a.ToInteger())) | uint64(hi.ToInteger())<<32))
	}
	if b, ok := s.unbox(a); ok {
		switch x := b.(type) {
		case int64:
			return s.box(x)
		case Int32Value:
			return s.box(int64(x))
		}
	}
	if str, ok := a.Export().(string); ok {
		n, err := strconv.ParseInt(strings.TrimSpace(str), 10, 64)
		if err != nil {
			if f, err2 := strconv.ParseFloat(str, 64); err2 == nil {
				return s.box(int64(f))
			}
			s.throw("BSONError", "Input: '%s' is not a valid Long", str)
		}
		return s.box(n)
	}
	return s.box(int64(a.ToFloat()))
}

func (s *Shell) double(c goja.FunctionCall) goja.Value {
	return s.box(DoubleValue(numberArg(s, c.Argument(0))))
}

func (s *Shell) decimal(c goja.FunctionCall) goja.Value {
	a := c.Argument(0)
	str := "0"
	if !isNullish(a) {
		str = a.String()
	}
	d, err := bson.ParseDecimal128(str)
	if err != nil {
		s.throw("BSONError", "%s not a valid Decimal128 string", str)
	}
	return s.box(d)
}

func (s *Shell) timestamp(c goja.FunctionCall) goja.Value {
	a := c.Argument(0)
	if o, ok := a.(*goja.Object); ok && o.ClassName() == "Object" {
		if _, isBox := s.unbox(o); !isBox {
			return s.box(bson.Timestamp{T: uint32(o.Get("t").ToInteger()), I: uint32(o.Get("i").ToInteger())})
		}
	}
	if b, ok := s.unbox(a); ok {
		if l, ok := b.(int64); ok {
			return s.box(bson.Timestamp{T: uint32(uint64(l) >> 32), I: uint32(l)})
		}
	}
	if isNullish(a) {
		return s.box(bson.Timestamp{})
	}
	return s.box(bson.Timestamp{T: uint32(a.ToInteger()), I: uint32(c.Argument(1).ToInteger())})
}

func (s *Shell) timestampPart(c goja.FunctionCall) goja.Value {
	b, _ := s.unbox(c.Argument(0))
	ts, _ := b.(bson.Timestamp)
	if c.Argument(1).String() == "t" {
		return s.vm.ToValue(int64(ts.T))
	}
	return s.vm.ToValue(int64(ts.I))
}

func (s *Shell) uuid(c goja.FunctionCall) goja.Value {
	a := c.Argument(0)
	var data []byte
	if isNullish(a) {
		data = make([]byte, 16)
		oid1, oid2 := bson.NewObjectID(), bson.NewObjectID()
		copy(data, oid1[4:])
		copy(data[8:], oid2[4:])
		data[6] = data[6]&0x0f | 0x40
		data[8] = data[8]&0x3f | 0x80
	} else {
		h := strings.ReplaceAll(a.String(), "-", "")
		var err error
		data, err = hex.DecodeString(h)
		if err != nil || len(data) != 16 {
			s.throw("BSONError", "UUID string representation must be 32 hex digits or canonical hyphenated representation")
		}
	}
	return s.box(bson.Binary{Subtype: 4, Data: data})
}

func (s *Shell) binData(c goja.FunctionCall) goja.Value {
	sub := byte(c.Argument(0).ToInteger())
	data, err := base64.StdEncoding.DecodeString(c.Argument(1).String())
	if err != nil {
		s.throw("BSONError", "invalid base64 string")
	}
	return s.box(bson.Binary{Subtype: sub, Data: data})
}

func (s *Shell) hexData(c goja.FunctionCall) goja.Value {
	sub := byte(c.Argument(0).ToInteger())
	data, err := hex.DecodeString(c.Argument(1).String())
	if err != nil {
		s.throw("BSONError", "invalid hex string")
	}
	return s.box(bson.Binary{Subtype: sub, Data: data})
}

func (s *Shell) binaryString(c goja.FunctionCall) goja.Value {
	b := s.selfBox(c)
	bin, _ := b.(bson.Binary)
	switch c.Argument(1).String() {
	case "hex":
		return s.vm.ToValue(hex.EncodeToString(bin.Data))
	case "length":
		return s.vm.ToValue(len(bin.Data))
	case "subtype":
		return s.vm.ToValue(int(bin.Subtype))
	case "base64":
		return s.vm.ToValue(base64.StdEncoding.EncodeToString(bin.Data))
	}
	if bin.Subtype == 4 && len(bin.Data) == 16 {
		return s.vm.ToValue(uuidString(bin.Data))
	}
	return s.vm.ToValue(base64.StdEncoding.EncodeToString(bin.Data))
}

func (s *Shell) minKey(goja.FunctionCall) goja.Value { return s.box(bson.MinKey{}) }

func (s *Shell) maxKey(goja.FunctionCall) goja.Value { return s.box(bson.MaxKey{}) }

func (s *Shell) code(c goja.FunctionCall) goja.Value {
	code := c.Argument(0).String()
	if scope := c.Argument(1); !isNullish(scope) {
		d, err := s.toDoc(scope, "scope")
		if err != nil {
			s.throwError("TypeError", err)
		}
		return s.box(bson.CodeWithScope{Code: bson.JavaScript(code), Scope: d})
	}
	return s.box(bson.JavaScript(code))
}

func (s *Shell) dbref(c goja.FunctionCall) goja.Value {
	id, err := s.toBSON(c.Argument(1), 0, false)
	if err != nil {
		s.throwError("TypeError", err)
	}
	ref := DBRef{Collection: c.Argument(0).String(), ID: id}
	if db := c.Argument(2); !isNullish(db) {
		ref.DB = db.String()
	}
	return s.box(ref)
}

func (s *Shell) dbrefPart(c goja.FunctionCall) goja.Value {
	b, _ := s.unbox(c.Argument(0))
	ref, _ := b.(DBRef)
	switch c.Argument(1).String() {
	case "collection":
		return s.vm.ToValue(ref.Collection)
	case "db":
		if ref.DB == "" {
			return goja.Undefined()
		}
		return s.vm.ToValue(ref.DB)
	}
	return s.fromBSON(ref.ID)
}

func (s *Shell) bsonRegExp(c goja.FunctionCall) goja.Value {
	opts := ""
	if o := c.Argument(1); !isNullish(o) {
		opts = o.String()
	}
	return s.box(bson.Regex{Pattern: c.Argument(0).String(), Options: sortFlags(opts)})
}

func (s *Shell) bsonSymbol(c goja.FunctionCall) goja.Value {
	return s.box(bson.Symbol(c.Argument(0).String()))
}

func (s *Shell) bsonString(c goja.FunctionCall) goja.Value {
	b := s.selfBox(c)
	return s.vm.ToValue(bsonToString(b))
}

func (s *Shell) bsonNumber(c goja.FunctionCall) goja.Value {
	b := s.selfBox(c)
	switch x := b.(type) {
	case int64:
		return s.vm.ToValue(float64(x))
	case Int32Value:
		return s.vm.ToValue(int64(x))
	case DoubleValue:
		return s.vm.ToValue(float64(x))
	}
	return s.vm.ToValue(math.NaN())
}

func (s *Shell) bsonJSON(c goja.FunctionCall) goja.Value {
	b := s.selfBox(c)
	obj := func(kv ...any) goja.Value {
		o := s.vm.NewObject()
		for i := 0; i+1 < len(kv); i += 2 {
			_ = o.Set(kv[i].(string), kv[i+1])
		}
		return o
	}
	switch x := b.(type) {
	case bson.ObjectID:
		return s.vm.ToValue(x.Hex())
	case int64:
		return obj("high", int64(int32(x>>32)), "low", int64(int32(x)), "unsigned", false)
	case Int32Value:
		return s.vm.ToValue(int64(x))
	case DoubleValue:
		return s.vm.ToValue(float64(x))
	case bson.Decimal128:
		return obj("$numberDecimal", x.String())
	case bson.Timestamp:
		return obj("$timestamp", bsonToString(x))
	case bson.Binary:
		return s.vm.ToValue(base64.StdEncoding.EncodeToString(x.Data))
	case bson.JavaScript:
		return obj("code", string(x))
	case bson.CodeWithScope:
		return obj("code", string(x.Code), "scope", s.fromBSON(x.Scope))
	case DBRef:
		if x.DB != "" {
			return obj("$ref", x.Collection, "$id", s.fromBSON(x.ID), "$db", x.DB)
		}
		return obj("$ref", x.Collection, "$id", s.fromBSON(x.ID))
	case bson.Regex:
		return obj("pattern", x.Pattern, "options", x.Options)
	case bson.Symbol:
		return s.vm.ToValue(string(x))
	}
	return s.vm.NewObject()
}

func (s *Shell) bsonEquals(c goja.FunctionCall) goja.Value {
	a, _ := s.unbox(c.Argument(0))
	b, ok := s.unbox(c.Argument(1))
	if !ok {
		if str, isStr := c.Argument(1).Export().(string); isStr {
			return s.vm.ToValue(bsonToString(a) == str)
		}
		return s.vm.ToValue(false)
	}
	return s.vm.ToValue(Format(a, fullFormat) == Format(b, fullFormat))
}

func (s *Shell) bsonInspect(c goja.FunctionCall) goja.Value {
	b := s.selfBox(c)
	return s.vm.ToValue(Format(b, resultFormat))
}

func (s *Shell) bsonType(c goja.FunctionCall) goja.Value {
	b := s.selfBox(c)
	return s.vm.ToValue(protoFor(b))
}

func (s *Shell) bsonsize(c goja.FunctionCall) goja.Value {
	d, err := s.toDoc(c.Argument(0), "document")
	if err != nil {
		s.throwError("TypeError", err)
	}
	raw, err := bson.Marshal(d)
	if err != nil {
		s.throwError("BSONError", err)
	}
	return s.vm.ToValue(len(raw))
}

func (s *Shell) ejsonStringify(c goja.FunctionCall) goja.Value {
	relaxed := true
	if o, ok := c.Argument(3).(*goja.Object); ok {
		if r := o.Get("relaxed"); r != nil && !goja.IsUndefined(r) {
			relaxed = r.ToBoolean()
		}
	}
	v, err := s.toBSON(c.Argument(0), 0, false)
	if err != nil {
		s.throwError("TypeError", err)
	}
	raw, err := bson.MarshalExtJSON(bson.D{{Key: "v", Value: v}}, !relaxed, false)
	if err != nil {
		s.throwError("BSONError", err)
	}
	// strip the {"v": ...} envelope
	inner := bytes.TrimSuffix(bytes.TrimPrefix(raw, []byte(`{"v":`)), []byte("}"))
	if space := c.Argument(2); !isNullish(space) {
		indent := ""
		if n, ok := space.Export().(int64); ok {
			indent = strings.Repeat(" ", int(min(n, 10)))
		} else {
			indent = space.String()
		}
		if indent != "" {
			var buf bytes.Buffer
			if json.Indent(&buf, inner, "", indent) == nil {
				inner = buf.Bytes()
			}
		}
	}
	return s.vm.ToValue(string(inner))
}

func (s *Shell) ejsonParse(c goja.FunctionCall) goja.Value {
	var d bson.D
	src := `{"v":` + c.Argument(0).String() + `}`
	relaxed := true
	if o, ok := c.Argument(1).(*goja.Object); ok {
		if r := o.Get("relaxed"); r != nil && !goja.IsUndefined(r) {
			relaxed = r.ToBoolean()
		}
	}
	if err := bson.UnmarshalExtJSON([]byte(src), false, &d); err != nil {
		s.throw("SyntaxError", "%s", err.Error())
	}
	v := d[0].Value
	if !relaxed {
		return s.fromBSONCanonical(v)
	}
	return s.fromBSON(v)
}

// fromBSONCanonical keeps int32/double as Int32/Double wrappers, as
// EJSON.parse with relaxed: false does.
func (s *Shell) fromBSONCanonical(v any) goja.Value {
	switch x := v.(type) {
	case int32:
		return s.box(Int32Value(x))
	case float64:
		return s.box(DoubleValue(x))
	case bson.D:
		o := s.vm.NewObject()
		for _, e := range x {
			_ = o.Set(e.Key, s.fromBSONCanonical(e.Value))
		}
		return o
	case bson.A:
		items := make([]any, len(x))
		for i, e := range x {
			items[i] = s.fromBSONCanonical(e)
		}
		return s.vm.NewArray(items...)
	}
	return s.fromBSON(v)
}

func numberArg(s *Shell, v goja.Value) float64 {
	if isNullish(v) {
		return 0
	}
	if b, ok := s.unbox(v); ok {
		switch x := b.(type) {
		case int64:
			return float64(x)
		case Int32Value:
			return float64(x)
		case DoubleValue:
			return float64(x)
		}
	}
	if str, ok := v.Export().(string); ok {
		f, err := strconv.ParseFloat(strings.TrimSpace(str), 64)
		if err != nil {
			return math.NaN()
		}
		return f
	}
	return v.ToFloat()
}

func truncInt(f float64) int64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return int64(math.Trunc(f))
}

// bsonToString is the toString() of a wrapper.
func bsonToString(v any) string {
	switch x := v.(type) {
	case bson.ObjectID:
		return x.Hex()
	case int64:
		return strconv.FormatInt(x, 10)
	case Int32Value:
		return strconv.FormatInt(int64(x), 10)
	case DoubleValue:
		return jsNumberString(float64(x), false)
	case bson.Decimal128:
		return x.String()
	case bson.Timestamp:
		return new(big.Int).SetUint64(uint64(x.T)<<32 | uint64(x.I)).String()
	case bson.Binary:
		if x.Subtype == 4 && len(x.Data) == 16 {
			return uuidString(x.Data)
		}
		return base64.StdEncoding.EncodeToString(x.Data)
	case bson.JavaScript:
		return string(x)
	case bson.Symbol:
		return string(x)
	}
	return Format(v, resultFormat)
}

// parseISODate accepts the forms mongosh's ISODate() accepts: a date, a
// date and time with optional seconds, fraction and zone.
func parseISODate(s string) (int64, bool) {
	layouts := []string{
		"2006-01-02T15:04:05.999999999Z07:00",
		"2006-01-02T15:04:05Z07:00",
		"2006-01-02T15:04Z07:00",
		"2006-01-02T15:04:05.999999999Z0700",
		"2006-01-02T15:04:05Z0700",
		"2006-01-02T15:04:05.999999999",
		"2006-01-02T15:04:05",
		"2006-01-02T15:04",
		"2006-01-02 15:04:05.999999999Z07:00",
		"2006-01-02 15:04:05",
		"2006-01-02 15:04",
		"2006-01-02",
		"20060102",
	}
	s = strings.TrimSpace(s)
	for _, l := range layouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UnixMilli(), true
		}
	}
	return 0, false
}

// selfBox is the wrapper a prelude method passes as its first argument
// (n.fn(this, ...)), or the receiver when a native is called directly.
func (s *Shell) selfBox(c goja.FunctionCall) any {
	if b, ok := s.unbox(c.Argument(0)); ok {
		return b
	}
	b, _ := s.unbox(c.This)
	return b
}
