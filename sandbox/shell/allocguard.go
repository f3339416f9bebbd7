package shell

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// The heap cap (heap.go) watches the heap from a goroutine of its own and
// stops the script through goja's interrupt, which the VM checks between
// instructions. A built-in that allocates does it all inside one
// instruction, though: 'x'.repeat(2**31), Array.from({ length: 2**32-1 }),
// new Uint8Array(2**40) or Math.max.apply(null, { length: 2**31 }) ask the
// Go runtime for gigabytes at once, and an allocation it cannot make ends
// the process ("fatal error: out of memory"), which nothing recovers from.
// So the built-ins that allocate what the script asks for are checked
// before they run: a length V8 refuses is refused with V8's error
// ("Invalid string length", "Invalid array length", "Invalid typed array
// length"), and one the heap cap could not hold is refused with an error
// that names the cap. Those that build their result a piece at a time
// (join, toLocaleString, replace with a string or function, split) count
// the result as it grows, and every so often let the deadline, ctrl+c and
// the heap cap stop them.

// maxArrayLength is the longest array (2^32-1).
const maxArrayLength = 1<<32 - 1

// maxArguments is how many arguments apply may spread; V8 runs out of
// stack at some hundred thousand.
const maxArguments = 1 << 17

// Bytes a value takes in goja, for the estimates: an array element
// (an interface), and a string's header beside its characters.
const (
	valueBytes  = 16
	stringBytes = 32
)

// allocationRoom is how much an allocation may take: what the session may
// still allocate (heap.go), precise asking for a collection first.
func (s *Shell) allocationRoom(precise bool) int64 {
	if s.heap == nil {
		return max(s.opts.HeapLimit-s.held, 0)
	}
	return s.heap.room(precise)
}

// checkBytes refuses an allocation of bytes that the session cannot hold
// (refuse throws, told what room is left). A small one is left to the
// heap watch, which stops the script if it does not fit; a large one is
// refused before it is made, which leaves the session as it was.
func (s *Shell) checkBytes(bytes int64, refuse func(room int64)) {
	if bytes < heapSettled || bytes <= s.allocationRoom(false) {
		return
	}
	if room := s.allocationRoom(true); bytes > room {
		refuse(room)
	}
}

// refuseAllocation throws the error of an allocation the heap cap cannot
// hold.
func (s *Shell) refuseAllocation(what string, bytes, room int64) {
	if room >= s.opts.HeapLimit {
		s.throw("RangeError", "%s would take %s, more than the %d MB of memory a script may use", what, megabytes(bytes), s.opts.HeapLimit>>20)
	}
	s.throw("RangeError", "%s would take %s, more than the %d MB the session may still use (of its %d MB)", what, megabytes(bytes), room>>20, s.opts.HeapLimit>>20)
}

func megabytes(b int64) string {
	if b >= 10<<30 {
		return fmt.Sprintf("%d GB", b>>30)
	}
	return fmt.Sprintf("%d MB", b>>20)
}

// checkString refuses a string of n UTF-16 code units (wide: not all
// ASCII, two bytes each in goja).
func (s *Shell) checkString(n float64, wide bool) {
	if n > maxStringLength {
		s.throw("RangeError", "Invalid string length")
	}
	bytes := int64(n)
	if wide {
		bytes *= 2
	}
	s.checkBytes(bytes, func(room int64) { s.refuseAllocation("The string", bytes, room) })
}

// checkElements refuses an array or list of n elements.
func (s *Shell) checkElements(what string, n float64, each int64) {
	if n > maxArrayLength {
		s.throw("RangeError", "Invalid array length")
	}
	bytes := int64(n) * each
	s.checkBytes(bytes, func(room int64) { s.refuseAllocation(what, bytes, room) })
}

// isWide reports whether a goja string holds UTF-16 rather than ASCII.
func isWide(v goja.Value) bool {
	str, ok := v.(goja.String)
	return ok && reflect.ValueOf(str).Kind() != reflect.String
}

// method replaces obj[name] with wrap(original).
func (s *Shell) method(obj *goja.Object, name string, length int, wrap func(original goja.Callable) func(goja.FunctionCall) goja.Value) error {
	original, ok := goja.AssertFunction(obj.Get(name))
	if !ok {
		return fmt.Errorf("no %s", name)
	}
	fn := s.vm.ToValue(wrap(original)).ToObject(s.vm)
	setFunctionName(s.vm, fn, name, length)
	return obj.DefineDataProperty(name, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// call calls a callable, throwing what it throws.
func call(fn goja.Callable, this goja.Value, args ...goja.Value) goja.Value {
	v, err := fn(this, args...)
	if err != nil {
		panic(err)
	}
	return v
}

// thisString is a String.prototype method's this, converted once.
func (s *Shell) thisString(this goja.Value, name string) goja.Value {
	if this == nil || goja.IsUndefined(this) || goja.IsNull(this) {
		panic(s.vm.NewTypeError("String.prototype.%s called on null or undefined", name))
	}
	return jsString(s.vm, this)
}

func (s *Shell) installAllocationGuards() error {
	vm := s.vm
	str := vm.Get("String").ToObject(vm).Get("prototype").ToObject(vm)
	arr := vm.Get("Array").ToObject(vm)
	arrProto := arr.Get("prototype").ToObject(vm)
	for _, m := range []struct {
		on     *goja.Object
		name   string
		length int
		wrap   func(goja.Callable) func(goja.FunctionCall) goja.Value
	}{
		{str, "repeat", 1, func(orig goja.Callable) func(goja.FunctionCall) goja.Value {
			return func(c goja.FunctionCall) goja.Value {
				this := s.thisString(c.This, "repeat")
				count := c.Argument(0).ToNumber()
				if n := count.ToFloat(); n > 0 && !math.IsInf(n, 1) {
					s.checkString(float64(jsLength(this))*math.Trunc(n), isWide(this))
				}
				return call(orig, this, count)
			}
		}},
		{str, "padStart", 2, s.padWrapper("padStart")},
		{str, "padEnd", 2, s.padWrapper("padEnd")},
		{str, "concat", 1, func(orig goja.Callable) func(goja.FunctionCall) goja.Value {
			return func(c goja.FunctionCall) goja.Value {
				this := s.thisString(c.This, "concat")
				n, wide := float64(jsLength(this)), isWide(this)
				args := make([]goja.Value, len(c.Arguments))
				for i, a := range c.Arguments {
					args[i] = jsString(vm, a)
					n += float64(jsLength(args[i]))
					wide = wide || isWide(args[i])
				}
				s.checkString(n, wide)
				return call(orig, this, args...)
			}
		}},
		{str, "split", 2, func(orig goja.Callable) func(goja.FunctionCall) goja.Value {
			return func(c goja.FunctionCall) goja.Value {
				sep := c.Argument(0)
				if _, isObj := sep.(*goja.Object); isObj || goja.IsUndefined(sep) || goja.IsNull(sep) {
					return call(orig, c.This, c.Arguments...) // a regular expression's split matches piece by piece
				}
				this := s.thisString(c.This, "split")
				sep = jsString(vm, sep)
				pieces := float64(occurrences(this, sep) + 1)
				if limit := c.Argument(1); !goja.IsUndefined(limit) {
					pieces = min(pieces, float64(uint32(limit.ToInteger())))
				}
				s.checkElements("The array", pieces, valueBytes+stringBytes)
				return call(orig, this, sep, c.Argument(1))
			}
		}},
		{str, "replace", 2, s.replaceWrapper("replace", false)},
		{str, "replaceAll", 2, s.replaceWrapper("replaceAll", true)},
		{arrProto, "join", 1, func(goja.Callable) func(goja.FunctionCall) goja.Value {
			return func(c goja.FunctionCall) goja.Value { return s.join(c.This, c.Argument(0), false) }
		}},
		{arrProto, "toLocaleString", 0, func(goja.Callable) func(goja.FunctionCall) goja.Value {
			return func(c goja.FunctionCall) goja.Value { return s.join(c.This, goja.Undefined(), true) }
		}},
		{arrProto, "fill", 1, func(orig goja.Callable) func(goja.FunctionCall) goja.Value {
			return func(c goja.FunctionCall) goja.Value {
				o := c.This.ToObject(vm)
				n := float64(toLength(o.Get("length")))
				start, end := relativeIndex(c.Argument(1), n, 0), relativeIndex(c.Argument(2), n, n)
				if o.ClassName() == "Array" {
					s.checkElements("The array", end-start, valueBytes)
				}
				return call(orig, o, c.Argument(0), vm.ToValue(start), vm.ToValue(end))
			}
		}},
		{arrProto, "concat", 1, func(orig goja.Callable) func(goja.FunctionCall) goja.Value {
			return func(c goja.FunctionCall) goja.Value {
				n := 0.0
				for _, v := range append([]goja.Value{c.This}, c.Arguments...) {
					if o, ok := v.(*goja.Object); ok && o.ClassName() == "Array" {
						n += float64(toLength(o.Get("length")))
					} else {
						n++
					}
				}
				s.checkElements("The array", n, valueBytes)
				return call(orig, c.This, c.Arguments...)
			}
		}},
		{arr, "from", 1, func(orig goja.Callable) func(goja.FunctionCall) goja.Value {
			return func(c goja.FunctionCall) goja.Value {
				if items, ok := c.Argument(0).(*goja.Object); ok && isNullish(items.GetSymbol(goja.SymIterator)) {
					s.checkElements("The array", float64(toLength(items.Get("length"))), valueBytes)
				}
				return call(orig, c.This, c.Arguments...)
			}
		}},
	} {
		if err := s.method(m.on, m.name, m.length, m.wrap); err != nil {
			return err
		}
	}

	// Argument lists built from array-likes.
	fnProto := vm.Get("Function").ToObject(vm).Get("prototype").ToObject(vm)
	reflectObj := vm.Get("Reflect").ToObject(vm)
	checkList := func(list goja.Value) {
		if o, ok := list.(*goja.Object); ok {
			if n := toLength(o.Get("length")); n > maxArguments {
				s.throw("RangeError", msgTooDeep)
			}
		}
	}
	for _, m := range []struct {
		on           *goja.Object
		name         string
		length, list int // list: which argument is the list
	}{{fnProto, "apply", 2, 1}, {reflectObj, "apply", 3, 2}, {reflectObj, "construct", 2, 1}} {
		list := m.list
		if err := s.method(m.on, m.name, m.length, func(orig goja.Callable) func(goja.FunctionCall) goja.Value {
			return func(c goja.FunctionCall) goja.Value {
				checkList(c.Argument(list))
				return call(orig, c.This, c.Arguments...)
			}
		}); err != nil {
			return err
		}
	}

	// The keys of a long string are one string each.
	obj := vm.Get("Object").ToObject(vm)
	for _, m := range []struct {
		on   *goja.Object
		name string
	}{{obj, "keys"}, {obj, "values"}, {obj, "entries"}, {obj, "getOwnPropertyNames"}, {reflectObj, "ownKeys"}} {
		if err := s.method(m.on, m.name, 1, func(orig goja.Callable) func(goja.FunctionCall) goja.Value {
			return func(c goja.FunctionCall) goja.Value {
				v := c.Argument(0)
				if o, ok := v.(*goja.Object); ok && o.ClassName() == "String" {
					v = o.Get("length")
					s.checkElements("The array", v.ToFloat(), valueBytes+stringBytes)
				} else if isString(v) {
					s.checkElements("The array", float64(jsLength(v)), valueBytes+stringBytes)
				}
				return call(orig, c.This, c.Arguments...)
			}
		}); err != nil {
			return err
		}
	}

	// Typed arrays and their buffers: a JavaScript shim, as for Proxy,
	// since a native constructor cannot tell new from a call.
	check := vm.ToValue(func(c goja.FunctionCall) goja.Value {
		n, each := c.Argument(0).ToFloat(), c.Argument(1).ToInteger()
		switch buffer := c.Argument(2).ToBoolean(); {
		case buffer && n > 1<<53-1:
			s.throw("RangeError", "Invalid array buffer length")
		case !buffer && n > 1<<32:
			s.throw("RangeError", "Invalid typed array length: %s", c.Argument(0).String())
		}
		s.checkBytes(int64(n)*each, func(int64) { s.throw("RangeError", "Array buffer allocation failed") })
		return goja.Undefined()
	})
	shim, err := s.runGuardProgram("typed")
	if err != nil {
		return err
	}
	install, _ := goja.AssertFunction(shim)
	_, err = install(goja.Undefined(), check)
	return err
}

// typedShim guards ArrayBuffer and the typed array constructors: the
// length they are asked for is checked before they allocate it.
const typedShim = `(function (check) {
  const names = ['ArrayBuffer', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
    'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'];
  const length = (a) => {
    if (a === null || (typeof a !== 'object' && typeof a !== 'function')) return a === undefined ? 0 : Number(a);
    if (a instanceof ArrayBuffer || ArrayBuffer.isView(a)) return 0;
    return typeof a[Symbol.iterator] === 'function' ? 0 : Number(a.length) || 0;
  };
  for (const name of names) {
    const Original = globalThis[name];
    if (typeof Original !== 'function') continue;
    const size = Original.BYTES_PER_ELEMENT || 1;
    const Guarded = { [name]: function (...args) {
      if (new.target === undefined) throw new TypeError('Constructor ' + name + ' requires \'new\'');
      check(length(args[0]), size, name === 'ArrayBuffer');
      return Reflect.construct(Original, args, new.target === Guarded ? Original : new.target);
    } }[name];
    for (const k of Reflect.ownKeys(Original)) {
      if (k !== 'prototype' && k !== 'name' && k !== 'length') Reflect.defineProperty(Guarded, k, Reflect.getOwnPropertyDescriptor(Original, k));
    }
    Reflect.defineProperty(Guarded, 'length', { value: Original.length, configurable: true });
    Reflect.defineProperty(Guarded, 'prototype', { value: Original.prototype, writable: false, enumerable: false, configurable: false });
    Reflect.setPrototypeOf(Guarded, Reflect.getPrototypeOf(Original));
    Reflect.defineProperty(Original.prototype, 'constructor', { value: Guarded, writable: true, enumerable: false, configurable: true });
    Reflect.defineProperty(globalThis, name, { value: Guarded, writable: true, enumerable: false, configurable: true });
  }
  const TypedArray = Reflect.getPrototypeOf(Int8Array.prototype).constructor;
  for (const k of ['from', 'of']) {
    const original = TypedArray[k];
    Reflect.defineProperty(TypedArray, k, { value: { [k](...args) {
      check(k === 'of' ? args.length : length(args[0]), this.BYTES_PER_ELEMENT || 1, false);
      return Reflect.apply(original, this, args);
    } }[k], writable: true, enumerable: false, configurable: true });
  }
})`

// padWrapper is padStart or padEnd, which refuse a target length V8
// refuses.
func (s *Shell) padWrapper(name string) func(goja.Callable) func(goja.FunctionCall) goja.Value {
	return func(orig goja.Callable) func(goja.FunctionCall) goja.Value {
		return func(c goja.FunctionCall) goja.Value {
			this := s.thisString(c.This, name)
			target := c.Argument(0).ToNumber()
			fill := c.Argument(1)
			if !goja.IsUndefined(fill) {
				fill = jsString(s.vm, fill)
			}
			if n := target.ToFloat(); n > float64(jsLength(this)) && (goja.IsUndefined(fill) || jsLength(fill) > 0) {
				s.checkString(n, isWide(this) || isWide(fill))
			}
			return call(orig, this, target, fill)
		}
	}
}

// replaceWrapper is String.prototype.replace or replaceAll, whose result
// is counted as it is built: a replacement string is applied by the
// guard's own function (GetSubstitution), and a replacement function's
// results are counted as they come.
func (s *Shell) replaceWrapper(name string, all bool) func(goja.Callable) func(goja.FunctionCall) goja.Value {
	return func(orig goja.Callable) func(goja.FunctionCall) goja.Value {
		return func(c goja.FunctionCall) goja.Value {
			this := s.thisString(c.This, name)
			search, replacement := c.Argument(0), c.Argument(1)
			if o, ok := search.(*goja.Object); ok {
				if o.ClassName() != "RegExp" {
					return call(orig, this, search, replacement) // an object's own Symbol.replace, or a string once converted
				}
				return call(orig, this, search, s.countedReplacement(this, replacement))
			}
			if !isString(search) {
				search = jsString(s.vm, search)
			}
			return call(orig, this, search, s.countedReplacement(this, replacement))
		}
	}
}

// countedReplacement is a replacement function equivalent to replacement
// (a string or a function) that counts the result being built from the
// string str: past V8's longest string, it throws.
func (s *Shell) countedReplacement(str, replacement goja.Value) goja.Value {
	vm := s.vm
	total := float64(jsLength(str))
	userFn, isFn := goja.AssertFunction(replacement)
	var template goja.String
	if !isFn {
		template = jsString(vm, replacement)
	}
	return vm.ToValue(func(c goja.FunctionCall) goja.Value {
		if err := s.tick(); err != nil {
			panic(s.stopNow(s.ctx))
		}
		var r goja.Value
		if isFn {
			r = jsString(vm, call(userFn, goja.Undefined(), c.Arguments...))
		} else {
			r = s.substitution(template, c.Arguments)
		}
		// The heap watch stops a result the cap cannot hold; the count
		// is for V8's longest string.
		if total += float64(jsLength(r)); total > maxStringLength {
			s.throw("RangeError", "Invalid string length")
		}
		return r
	})
}

// substitution is the standard's GetSubstitution, for the arguments a
// replacement function gets: the match, the captures, its position, the
// string, and the named captures when there are some.
func (s *Shell) substitution(template goja.String, args []goja.Value) goja.Value {
	vm := s.vm
	n := len(args)
	var groups *goja.Object
	if o, ok := args[n-1].(*goja.Object); ok {
		groups, n = o, n-1
	}
	str := jsString(vm, args[n-1])
	position := int(args[n-2].ToInteger())
	matched := jsString(vm, args[0])
	captures := args[1 : n-2]
	tail := min(position+matched.Length(), str.Length())
	t := template
	if !strings.Contains(t.String(), "$") {
		return t
	}
	var b goja.StringBuilder
	literal := 0 // where the text not yet written starts
	for i := 0; i+1 < t.Length(); i++ {
		if t.CharAt(i) != '$' {
			continue
		}
		var part goja.String
		width := 2
		switch next := t.CharAt(i + 1); {
		case next == '$':
			part = t.Substring(i, i+1)
		case next == '&':
			part = matched
		case next == '`':
			part = str.Substring(0, position)
		case next == '\'':
			part = str.Substring(tail, str.Length())
		case next >= '0' && next <= '9':
			num := int(next - '0')
			if i+2 < t.Length() {
				if d := t.CharAt(i + 2); d >= '0' && d <= '9' && num*10+int(d-'0') >= 1 && num*10+int(d-'0') <= len(captures) {
					num, width = num*10+int(d-'0'), 3
				}
			}
			if num < 1 || num > len(captures) {
				continue
			}
			part = vm.ToValue("").(goja.String)
			if v := captures[num-1]; !goja.IsUndefined(v) {
				part = jsString(vm, v)
			}
		case next == '<' && groups != nil:
			end := -1
			for j := i + 2; j < t.Length(); j++ {
				if t.CharAt(j) == '>' {
					end = j
					break
				}
			}
			if end < 0 {
				continue
			}
			part, width = vm.ToValue("").(goja.String), end-i+1
			if v := groups.Get(t.Substring(i+2, end).String()); v != nil && !goja.IsUndefined(v) {
				part = jsString(vm, v)
			}
		default:
			continue
		}
		b.WriteSubstring(t, literal, i)
		b.WriteString(part)
		literal = i + width
		i += width - 1
	}
	b.WriteSubstring(t, literal, t.Length())
	return b.String()
}

// occurrences counts sep in str, as split finds it (an empty separator
// splits between every code unit).
func occurrences(str, sep goja.Value) int {
	s, p := str.(goja.String), sep.(goja.String)
	if p.Length() == 0 {
		return max(s.Length()-1, 0)
	}
	if a, b := reflect.ValueOf(s), reflect.ValueOf(p); a.Kind() == reflect.String && b.Kind() == reflect.String {
		return strings.Count(a.String(), b.String())
	}
	count := 0
	for i := 0; i+p.Length() <= s.Length(); {
		j := 0
		for j < p.Length() && s.CharAt(i+j) == p.CharAt(j) {
			j++
		}
		if j == p.Length() {
			count++
			i += p.Length()
		} else {
			i++
		}
	}
	return count
}

// relativeIndex is an Array method's relative index argument, resolved
// against length n.
func relativeIndex(v goja.Value, n, dflt float64) float64 {
	if goja.IsUndefined(v) {
		return dflt
	}
	f := v.ToFloat()
	switch {
	case math.IsNaN(f):
		f = 0
	case f < 0:
		f = max(n+math.Trunc(f), 0)
	default:
		f = min(math.Trunc(f), n)
	}
	return f
}

// join is Array.prototype.join (and toLocaleString), counting the string
// it builds.
func (s *Shell) join(this, separator goja.Value, locale bool) goja.Value {
	vm := s.vm
	o := this.ToObject(vm)
	for _, outer := range s.joining {
		if outer == o {
			return vm.ToValue("") // a cycle: V8 joins it as empty
		}
	}
	s.joining = append(s.joining, o)
	defer func() { s.joining = s.joining[:len(s.joining)-1] }()
	n := toLength(o.Get("length"))
	var sep goja.Value = vm.ToValue(",")
	if !locale && !goja.IsUndefined(separator) {
		sep = jsString(vm, separator)
	}
	sepLen := float64(jsLength(sep))
	if n > 0 {
		s.checkString(sepLen*float64(n-1), isWide(sep))
	}
	var b goja.StringBuilder
	total := 0.0
	for i := range n {
		if i > 0 {
			b.WriteString(sep.(goja.String))
			total += sepLen
		}
		if i%1024 == 1023 {
			if err := s.tick(); err != nil {
				panic(s.stopNow(s.ctx))
			}
		}
		item := o.Get(strconv.FormatInt(i, 10))
		if item == nil || goja.IsUndefined(item) || goja.IsNull(item) {
			continue
		}
		var str goja.Value
		if locale {
			fn, ok := goja.AssertFunction(item.ToObject(vm).Get("toLocaleString"))
			if !ok {
				panic(vm.NewTypeError("toLocaleString is not a function"))
			}
			str = jsString(vm, call(fn, item))
		} else {
			str = jsString(vm, item)
		}
		if total += float64(jsLength(str)); total > maxStringLength {
			s.throw("RangeError", "Invalid string length")
		}
		b.WriteString(str.(goja.String))
	}
	return b.String()
}

// jsString is ToString(v) as a goja string.
func jsString(vm *goja.Runtime, v goja.Value) goja.String {
	if str, ok := v.(goja.String); ok {
		return str
	}
	if str, ok := v.ToString().(goja.String); ok {
		return str
	}
	return vm.ToValue(v.String()).(goja.String)
}
