package shell

import (
	"math"
	"reflect"
	"strings"

	"github.com/dop251/goja"
)

// JSON.stringify, JSON.parse and Array.prototype.flat recurse in Go over
// the value they are given, one level per level of nesting, with nothing
// between the levels that the native guard (nativeguard.go) sees. So they
// are bounded here: at valueDepthLimit levels they throw the RangeError
// V8 throws at about that depth.
//
// JSON.stringify is given a replacer of the guard's, which it calls for
// every property before it descends into its value: the replacer knows
// how deep each object is, adds up the length of the text being built
// (past V8's longest string it throws "Invalid string length"), and every
// so often lets the evaluation's deadline, interrupt and heap cap stop
// it. A replacer the script gives is called from it; a list of property
// names is applied by it.

// valueDepthLimit is how deeply nested a value JSON.stringify, JSON.parse
// and flat accept: V8 manages a few thousand levels, not ten thousand.
const valueDepthLimit = 5000

// maxStringLength is V8's longest string (on 64-bit platforms), in UTF-16
// code units.
const maxStringLength = 1<<29 - 24

func (s *Shell) installJSONGuards() error {
	vm := s.vm
	json := vm.Get("JSON").ToObject(vm)
	stringify, _ := goja.AssertFunction(json.Get("stringify"))
	parse, _ := goja.AssertFunction(json.Get("parse"))
	isArray, _ := goja.AssertFunction(vm.Get("Array").ToObject(vm).Get("isArray"))
	arrayIs := func(v goja.Value) bool {
		r, err := isArray(goja.Undefined(), v)
		return err == nil && r.ToBoolean()
	}

	guardedStringify := vm.ToValue(func(c goja.FunctionCall) goja.Value {
		replacer, space := c.Argument(1), c.Argument(2)
		userFn, _ := goja.AssertFunction(replacer)
		var keys []string
		if o, ok := replacer.(*goja.Object); ok && userFn == nil && arrayIs(o) {
			keys = propertyList(o)
		}
		gap := stringifyGap(space)
		depths := map[*goja.Object]int{}
		length := 0
		guard := vm.ToValue(func(r goja.FunctionCall) goja.Value {
			holder, _ := r.This.(*goja.Object)
			key, value := r.Argument(0), r.Argument(1)
			if userFn != nil {
				v, err := userFn(r.This, key, value)
				if err != nil {
					panic(err)
				}
				value = v
			}
			if err := s.tick(); err != nil {
				panic(s.vm.NewGoError(err))
			}
			depth := depths[holder] + 1
			length += jsLength(key) + 4 + depth*len(gap)
			if o, ok := value.(*goja.Object); ok && descends(o) {
				if depth > valueDepthLimit {
					s.throw("RangeError", msgTooDeep)
				}
				if keys != nil && !arrayIs(o) {
					copied := vm.NewObject()
					for _, k := range keys {
						if v := o.Get(k); v != nil && !goja.IsUndefined(v) {
							_ = copied.Set(k, v)
						}
					}
					o, value = copied, copied
				}
				depths[o] = depth
			} else if isString(value) {
				length += jsLength(value) + 2
			} else {
				length += 24 // a number, true, false or null
			}
			if length > maxStringLength {
				s.throw("RangeError", "Invalid string length")
			}
			return value
		})
		r, err := stringify(c.This, c.Argument(0), guard, space)
		if err != nil {
			panic(err)
		}
		return r
	}).ToObject(vm)
	setFunctionName(vm, guardedStringify, "stringify", 3)

	guardedParse := vm.ToValue(func(c goja.FunctionCall) goja.Value {
		text := c.Argument(0).String()
		if jsonDepth(text) > valueDepthLimit {
			s.throw("RangeError", msgTooDeep)
		}
		r, err := parse(c.This, vm.ToValue(text), c.Argument(1))
		if err != nil {
			panic(err)
		}
		return r
	}).ToObject(vm)
	setFunctionName(vm, guardedParse, "parse", 2)

	arrayProto := vm.Get("Array").ToObject(vm).Get("prototype").ToObject(vm)
	flat, _ := goja.AssertFunction(arrayProto.Get("flat"))
	guardedFlat := vm.ToValue(func(c goja.FunctionCall) goja.Value {
		depth := 1.0
		if a := c.Argument(0); !goja.IsUndefined(a) {
			if depth = a.ToFloat(); math.IsNaN(depth) {
				depth = 0
			}
		}
		r, err := flat(c.This, vm.ToValue(min(depth, valueDepthLimit)))
		if err != nil {
			panic(err)
		}
		if depth > valueDepthLimit {
			// Arrays left after flattening as deep as the guard
			// allows were nested deeper than that.
			o := r.ToObject(vm)
			for i := range o.Get("length").ToInteger() {
				if arrayIs(o.Get(indexKey(int(i)))) {
					s.throw("RangeError", msgTooDeep)
				}
			}
		}
		return r
	}).ToObject(vm)
	setFunctionName(vm, guardedFlat, "flat", 0)

	for _, p := range []struct {
		on   *goja.Object
		name string
		fn   *goja.Object
	}{{json, "stringify", guardedStringify}, {json, "parse", guardedParse}, {arrayProto, "flat", guardedFlat}} {
		if err := p.on.DefineDataProperty(p.name, p.fn, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
			return err
		}
	}
	return nil
}

// descends reports whether JSON.stringify serializes o as an object or
// array (rather than as undefined or the primitive a wrapper holds).
func descends(o *goja.Object) bool {
	if _, fn := goja.AssertFunction(o); fn {
		return false
	}
	switch o.ClassName() {
	case "Number", "String", "Boolean", "BigInt", "Symbol":
		return false
	}
	return true
}

// propertyList is a replacer array as JSON.stringify reads it: its
// strings and numbers, as strings, once each, in order.
func propertyList(arr *goja.Object) []string {
	var keys []string
	seen := map[string]bool{}
	for i := range arr.Get("length").ToInteger() {
		v := arr.Get(indexKey(int(i)))
		if o, ok := v.(*goja.Object); ok {
			if c := o.ClassName(); c != "String" && c != "Number" {
				continue
			}
		} else if !isString(v) && !isNumber(v) {
			continue
		}
		if k := v.String(); !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}

func isNumber(v goja.Value) bool {
	t := v.ExportType()
	return t != nil && (t.Kind() == reflect.Int64 || t.Kind() == reflect.Float64)
}

// stringifyGap is the indentation JSON.stringify's space argument gives,
// as long as it can be: an object is not converted here (that would run
// its valueOf twice).
func stringifyGap(space goja.Value) string {
	switch {
	case isNumber(space):
		return strings.Repeat(" ", int(min(max(space.ToInteger(), 0), 10)))
	case isString(space):
		return truncate(space.String(), 10)
	case space != nil && !goja.IsUndefined(space) && !goja.IsNull(space):
		if _, ok := space.(*goja.Object); ok {
			return strings.Repeat(" ", 10)
		}
	}
	return ""
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// jsLength is the length of a string value; 0 for anything else.
func jsLength(v goja.Value) int {
	if str, ok := v.(goja.String); ok {
		return str.Length()
	}
	return 0
}

// jsonDepth is how deeply the arrays and objects of JSON text nest.
func jsonDepth(text string) int {
	depth, deepest := 0, 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '"':
			for i++; i < len(text) && text[i] != '"'; i++ {
				if text[i] == '\\' {
					i++
				}
			}
		case '[', '{':
			depth++
			deepest = max(deepest, depth)
		case ']', '}':
			depth--
		}
	}
	return deepest
}
