package shell

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"time"

	"github.com/dop251/goja"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// bsonBox is the Go side of a BSON wrapper object (ObjectId, Long, ...).
// It is a goja DynamicObject so that Export() hands the value back without
// copying, which keeps JS→BSON conversion cheap.
type bsonBox struct{ v any }

func (b *bsonBox) Get(string) goja.Value       { return nil }
func (b *bsonBox) Set(string, goja.Value) bool { return false }
func (b *bsonBox) Has(string) bool             { return false }
func (b *bsonBox) Delete(string) bool          { return true }
func (b *bsonBox) Keys() []string              { return nil }

// protoFor names the JS constructor whose prototype a wrapper gets.
func protoFor(v any) string {
	switch v.(type) {
	case bson.ObjectID:
		return "ObjectId"
	case int64:
		return "Long"
	case Int32Value:
		return "Int32"
	case DoubleValue:
		return "Double"
	case bson.Decimal128:
		return "Decimal128"
	case bson.Timestamp:
		return "Timestamp"
	case bson.Binary:
		return "Binary"
	case bson.MinKey:
		return "MinKey"
	case bson.MaxKey:
		return "MaxKey"
	case bson.JavaScript, bson.CodeWithScope:
		return "Code"
	case DBRef:
		return "DBRef"
	case bson.Regex:
		return "BSONRegExp"
	case bson.Symbol:
		return "BSONSymbol"
	}
	return ""
}

func (s *Shell) box(v any) *goja.Object {
	o := s.vm.NewDynamicObject(&bsonBox{v: v})
	if p := s.protoByName[protoFor(v)]; p != nil {
		_ = o.SetPrototype(p)
	}
	return o
}

// unbox returns the BSON value of a wrapper object.
func (s *Shell) unbox(v goja.Value) (any, bool) {
	o, ok := v.(*goja.Object)
	if !ok {
		return nil, false
	}
	p := o.Prototype()
	if p == nil || p == s.objectProto {
		return nil, false
	}
	if _, known := s.protos[p]; !known {
		return nil, false
	}
	b, ok := o.Export().(*bsonBox)
	if !ok {
		return nil, false
	}
	return b.v, true
}

const maxNesting = 150

var errTooDeep = errors.New("cyclic or too deeply nested object")

// toDoc converts a JS value that must be a document.
func (s *Shell) toDoc(v goja.Value, what string) (bson.D, error) {
	o, ok := v.(*goja.Object)
	if !ok || o.ClassName() == "Array" || o.ClassName() == "Function" {
		return nil, fmt.Errorf("%s must be an object", what)
	}
	x, err := s.toBSON(v, 0, false)
	if err != nil {
		return nil, err
	}
	d, ok := x.(bson.D)
	if !ok {
		return nil, fmt.Errorf("%s must be an object", what)
	}
	return d, nil
}

// toBSON converts a JS value to the BSON value mongosh's driver would send:
// integral numbers that fit int32 become int32, other numbers double,
// Dates BSON dates, RegExps BSON regexes, undefined null. With display set,
// values keep the JS-only distinctions the printer needs (undefined,
// functions, explicit Int32/Double wrappers, class names).
func (s *Shell) toBSON(v goja.Value, depth int, display bool) (any, error) {
	if v == nil {
		return nil, nil
	}
	if display {
		if s.displayLeft--; s.displayLeft < 0 {
			// Past what the output cap lets through (every value takes
			// two bytes at least, with its separator): the rest would be
			// cut from the output anyway.
			return moreValues{}, nil
		}
	}
	switch o := v.(type) {
	case *goja.Object:
		return s.objectToBSON(o, depth, display)
	}
	if goja.IsUndefined(v) {
		if display {
			return bson.Undefined{}, nil
		}
		return nil, nil
	}
	if goja.IsNull(v) {
		return nil, nil
	}
	switch x := v.Export().(type) {
	case int64:
		if x >= math.MinInt32 && x <= math.MaxInt32 {
			return int32(x), nil
		}
		return float64(x), nil
	case float64:
		if display {
			if x == math.Trunc(x) && x >= math.MinInt32 && x <= math.MaxInt32 && !(x == 0 && math.Signbit(x)) {
				return int32(x), nil
			}
			return x, nil
		}
		if x == math.Trunc(x) && x >= math.MinInt32 && x <= math.MaxInt32 && !(x == 0 && math.Signbit(x)) {
			return int32(x), nil
		}
		return x, nil
	case string:
		if len(x) > jsBSONBufferSize && !display {
			return nil, errTooLargeForBSON
		}
		return x, nil
	case bool:
		return x, nil
	case *goja.Symbol:
		if display {
			return Function{Name: x.String()}, nil
		}
		return nil, nil
	default:
		if display {
			return v.String(), nil
		}
		return v.String(), nil
	}
}

func (s *Shell) objectToBSON(o *goja.Object, depth int, display bool) (any, error) {
	if depth > maxNesting {
		if display {
			return Circular{Index: 1}, nil
		}
		return nil, errTooDeep
	}
	if err := s.tick(); err != nil {
		return nil, err
	}
	if !display {
		return s.convertObject(o, depth, false)
	}
	if o.ExportType() == proxyType {
		// As Node's inspect does (showProxy: false), a Proxy shows its
		// target; none of its traps run.
		if o = o.Export().(goja.Proxy).Target(); o == nil {
			return Instance{Name: "Object"}, nil // revoked
		}
	}
	// Node's inspect keeps the objects it is inside of: one met again is
	// [Circular *n], and the object it points to is labelled <ref *n>.
	for _, outer := range s.displayPath {
		if outer == o {
			return Circular{Index: s.refIndex(o)}, nil
		}
	}
	s.displayPath = append(s.displayPath, o)
	v, err := s.convertObject(o, depth, true)
	s.displayPath = s.displayPath[:len(s.displayPath)-1]
	if n, ok := s.displayRefs[o]; ok && err == nil {
		v = Referenced{Index: n, Value: v}
	}
	return v, err
}

// refIndex numbers the objects circular references point to, in the
// order they are found, as Node does.
func (s *Shell) refIndex(o *goja.Object) int {
	if n, ok := s.displayRefs[o]; ok {
		return n
	}
	if s.displayRefs == nil {
		s.displayRefs = map[*goja.Object]int{}
	}
	s.displayRefs[o] = len(s.displayRefs) + 1
	return s.displayRefs[o]
}

func (s *Shell) convertObject(o *goja.Object, depth int, display bool) (any, error) {
	if b, ok := s.unbox(o); ok {
		if !display {
			switch x := b.(type) {
			case Int32Value:
				return int32(x), nil
			case DoubleValue:
				return float64(x), nil
			case DBRef:
				d := bson.D{{Key: "$ref", Value: x.Collection}, {Key: "$id", Value: x.ID}}
				if x.DB != "" {
					d = append(d, bson.E{Key: "$db", Value: x.DB})
				}
				return d, nil
			}
		}
		return b, nil
	}
	switch o.ClassName() {
	case "Array":
		if display {
			return s.arrayDisplay(o, depth)
		}
		return s.arrayToBSON(o, depth)
	case "Date":
		t, ok := o.Export().(time.Time)
		if !ok {
			return bson.DateTime(math.MaxInt64), nil
		}
		return bson.NewDateTimeFromTime(t), nil
	case "RegExp":
		return bson.Regex{Pattern: patternOf(o), Options: sortFlags(o.Get("flags").String())}, nil
	case "Function":
		if display {
			name := ""
			if nv := o.Get("name"); nv != nil && !goja.IsUndefined(nv) {
				name = nv.String()
			}
			src := o.String()
			return Function{Name: name, Class: len(src) > 5 && src[:5] == "class"}, nil
		}
		return nil, errSkip
	case "Error":
		if display {
			return JSError{Name: o.Get("name").String(), Message: o.Get("message").String()}, nil
		}
	}
	if display && o.ExportType() == promiseType {
		p := o.Export().(*goja.Promise)
		if p.State() == goja.PromiseStatePending {
			return Promise{State: "pending"}, nil
		}
		state := "fulfilled"
		if p.State() == goja.PromiseStateRejected {
			state = "rejected"
		}
		v, err := s.toBSON(p.Result(), depth+1, true)
		return Promise{State: state, Value: v}, err
	}
	if display {
		if p := o.Prototype(); p != nil && p != s.objectProto && (p == s.mapProto || p == s.setProto) {
			return s.mapSetDisplay(o, p == s.mapProto, depth)
		}
	}
	if display {
		if t := o.GetSymbol(s.typeSym); t != nil && !goja.IsUndefined(t) {
			return s.shellObjectDisplay(o, t.String())
		}
	}
	keys := o.Keys()
	d := make(bson.D, 0, len(keys))
	for _, k := range keys {
		ev, err := s.toBSON(o.Get(k), depth+1, display)
		if err == errSkip {
			continue
		}
		if err != nil {
			return nil, err
		}
		d = append(d, bson.E{Key: k, Value: ev})
	}
	if display {
		if p := o.Prototype(); p != s.objectProto {
			name := ""
			if p == nil {
				name = "[Object: null prototype]"
			} else if c := p.Get("constructor"); c != nil {
				if co, ok := c.(*goja.Object); ok {
					if nv := co.Get("name"); nv != nil {
						name = nv.String()
					}
				}
			}
			if name != "" && name != "Object" {
				return Instance{Name: name, Doc: d}, nil
			}
		}
	}
	return d, nil
}

var proxyType = reflect.TypeOf(goja.Proxy{})

// arrayToBSON is an array as the Node driver serialises it: every index
// up to its length, a hole as null. An array that cannot fit in a BSON
// document (a[4294967294] = 1 has over four billion holes) is refused
// before anything is allocated for it.
func (s *Shell) arrayToBSON(o *goja.Object, depth int) (any, error) {
	n := o.Get("length").ToInteger()
	if minArrayBytes(n) > jsBSONBufferSize {
		return nil, errTooLargeForBSON
	}
	arr := make(bson.A, 0, min(n, 1024))
	for i := range n {
		ev, err := s.toBSON(o.Get(indexKey(int(i))), depth+1, false)
		if err == errSkip {
			ev, err = nil, nil // a function element is serialised as null
		}
		if err != nil {
			return nil, err
		}
		arr = append(arr, ev)
	}
	return arr, nil
}

// arrayDisplay is an array for the printer: its elements, with each run
// of holes as one EmptyItems, so that a sparse array costs what it holds,
// not its length. Elements are read by index (a hole reads as nil, there
// being no such property) until a long run of holes, after which only the
// array's own keys are visited.
func (s *Shell) arrayDisplay(o *goja.Object, depth int) (any, error) {
	const longHoleRun = 1024
	n := o.Get("length").ToInteger()
	arr := bson.A{}
	next := int64(0) // the index after the last element appended
	add := func(i int64, v goja.Value) (bool, error) {
		if gap := i - next; gap > 0 {
			arr = append(arr, EmptyItems(gap))
		}
		ev, err := s.toBSON(v, depth+1, true)
		if err != nil {
			return false, err
		}
		arr = append(arr, ev)
		next = i + 1
		_, cut := ev.(moreValues)
		return !cut, nil
	}
	i := int64(0)
	for ; i < n && i-next <= longHoleRun; i++ {
		if v := o.Get(indexKey(int(i))); v != nil {
			if more, err := add(i, v); err != nil || !more {
				return arr, err
			}
		}
	}
	if i < n {
		for _, k := range o.Keys() {
			idx, ok := arrayIndexKey(k)
			if !ok || int64(idx) < i {
				continue // util.inspect lists an array's other keys; mongosh values never have them
			}
			if more, err := add(int64(idx), o.Get(k)); err != nil || !more {
				return arr, err
			}
		}
	}
	if n > next {
		arr = append(arr, EmptyItems(n-next))
	}
	return arr, nil
}

// jsBSONBufferSize is js-bson's serialisation buffer (17 MiB): mongosh
// cannot even build a command larger than that, whatever the server's
// 16 MiB limit.
const jsBSONBufferSize = 17 << 20

// errTooLargeForBSON is the error mongosh's js-bson raises at its first
// write past that buffer.
var errTooLargeForBSON = &scriptError{class: "RangeError", msg: fmt.Sprintf(
	`The value of "offset" is out of range. It must be >= 0 && <= %d. Received %d`, jsBSONBufferSize, jsBSONBufferSize+1)}

// minArrayBytes is the least an n-element BSON array can take: a type
// byte, the index as a key and its NUL for each element.
func minArrayBytes(n int64) int64 {
	total := int64(0)
	for digits, lo := int64(1), int64(0); lo < n; digits, lo = digits+1, max(lo*10, 10) {
		hi := min(n, max(lo*10, 10))
		total += (hi - lo) * (digits + 2)
	}
	return total
}

var errSkip = errors.New("skip")

// sortFlags orders regex flags as the server stores them.
func sortFlags(f string) string {
	b := []byte(f)
	for i := 1; i < len(b); i++ {
		for j := i; j > 0 && b[j] < b[j-1]; j-- {
			b[j], b[j-1] = b[j-1], b[j]
		}
	}
	out := b[:0]
	for _, c := range b {
		if c != 'g' && c != 'y' {
			out = append(out, c)
		}
	}
	return string(out)
}

// fromBSON converts a value read from the server to JavaScript as the
// Node driver does with mongosh's settings (promoteValues): int32 and
// double become numbers, int64 a Long, dates JS Dates.
func (s *Shell) fromBSON(v any) goja.Value {
	switch x := v.(type) {
	case nil, bson.Null:
		return goja.Null()
	case bson.Undefined:
		return goja.Undefined()
	case string:
		return s.vm.ToValue(x)
	case int32:
		return s.vm.ToValue(int64(x))
	case float64:
		return s.vm.ToValue(x)
	case bool:
		return s.vm.ToValue(x)
	case bson.D:
		if ref, ok := asDBRef(x); ok {
			return s.box(ref)
		}
		o := s.vm.NewObject()
		for _, e := range x {
			_ = o.Set(e.Key, s.fromBSON(e.Value))
		}
		return o
	case bson.A:
		items := make([]any, len(x))
		for i, e := range x {
			items[i] = s.fromBSON(e)
		}
		return s.vm.NewArray(items...)
	case bson.DateTime:
		return s.newDate(int64(x))
	case bson.Regex:
		if jsRegexFlags(x.Options) {
			if r, err := s.vm.New(s.regexpCtor, s.vm.ToValue(x.Pattern), s.vm.ToValue(x.Options)); err == nil {
				return r
			}
		}
		return s.box(x)
	case int:
		return s.vm.ToValue(int64(x))
	case goja.Value:
		return x
	}
	return s.box(v)
}

func (s *Shell) newDate(ms int64) goja.Value {
	d, err := s.vm.New(s.dateCtor, s.vm.ToValue(ms))
	if err != nil {
		return goja.Null()
	}
	return d
}

// display converts any JS value into the printer's model. The number of
// values it converts is bounded by the output cap, so that printing a
// huge structure costs no more than the text that can be shown of it.
func (s *Shell) display(v goja.Value) any {
	s.displayLeft = s.opts.MaxOutput / 2
	s.displayPath, s.displayRefs = s.displayPath[:0], nil
	x, err := s.toBSON(v, 0, true)
	if err != nil {
		panic(s.vm.NewGoError(err))
	}
	return x
}

// tick is called for every object a conversion visits: every so often it
// checks the evaluation's deadline, interrupt and heap cap, so that no
// conversion runs on after its script was stopped.
func (s *Shell) tick() error {
	s.ticks++
	if s.ticks%1024 == 0 {
		if err := s.ctx.Err(); err != nil {
			return context.Cause(s.ctx)
		}
	}
	return nil
}

// mapSetItems is Array.from(o) for a Map (its [key, value] entries) or a
// Set (its items), with its length.
func (s *Shell) mapSetItems(o *goja.Object) (*goja.Object, int, error) {
	if s.arrayFrom == nil {
		v, err := s.vm.RunString("(x) => Array.from(x)")
		if err != nil {
			return nil, 0, err
		}
		s.arrayFrom, _ = goja.AssertFunction(v)
	}
	arrV, err := s.arrayFrom(goja.Undefined(), o)
	if err != nil {
		return nil, 0, err
	}
	arr := arrV.ToObject(s.vm)
	return arr, int(arr.Get("length").ToInteger()), nil
}

// mapSetDisplay lists a Map's entries or a Set's items for the printer.
func (s *Shell) mapSetDisplay(o *goja.Object, isMap bool, depth int) (any, error) {
	arr, n, err := s.mapSetItems(o)
	if err != nil {
		return nil, err
	}
	m := JSMap{Entries: [][2]any{}}
	st := JSSet{Items: []any{}}
	for i := range n {
		item := arr.Get(indexKey(i))
		if isMap {
			pair := item.ToObject(s.vm)
			k, err := s.toBSON(pair.Get("0"), depth+1, true)
			if err != nil {
				return nil, err
			}
			v, err := s.toBSON(pair.Get("1"), depth+1, true)
			if err != nil {
				return nil, err
			}
			m.Entries = append(m.Entries, [2]any{k, v})
			continue
		}
		v, err := s.toBSON(item, depth+1, true)
		if err != nil {
			return nil, err
		}
		st.Items = append(st.Items, v)
	}
	if isMap {
		return m, nil
	}
	return st, nil
}

// patternOf is a RegExp's pattern as it was written. goja reports a "/"
// inside a character class as "\u002f" in .source, where V8 (and so
// mongosh) keeps "/"; the server's PCRE has no \u escape and would
// refuse the pattern.
func patternOf(o *goja.Object) string {
	src := o.Get("source").String()
	if !strings.Contains(src, `\u002f`) && !strings.Contains(src, `\u002F`) {
		return src
	}
	var b strings.Builder
	for i := 0; i < len(src); i++ {
		if src[i] == '\\' && i+1 < len(src) {
			if rest := src[i+1:]; strings.HasPrefix(rest, "u002f") || strings.HasPrefix(rest, "u002F") {
				b.WriteByte('/')
				i += 5
				continue
			}
			b.WriteByte(src[i])
			b.WriteByte(src[i+1])
			i++
			continue
		}
		b.WriteByte(src[i])
	}
	return b.String()
}
