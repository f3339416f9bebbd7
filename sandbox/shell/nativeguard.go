package shell

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/dop251/goja"
)

// goja bounds the JavaScript call stack (SetMaxCallStackSize), but a
// built-in that calls another built-in does so in Go, with no JavaScript
// frame between them: String() of an array calls its toString, which
// calls join, which calls each element's toString. A deeply nested array,
// or one line such as `x.toString = x.toLocaleString; String(x)` (which
// calls itself), recurses in Go until the process dies: a Go stack
// overflow cannot be recovered. So every built-in method and accessor is
// wrapped in a count of how deeply natives are running, and past
// nativeDepthLimit the call is refused with V8's RangeError. The few
// built-ins goja compares by identity (its fast paths for arrays, Maps
// and Sets) are left alone: none of them calls back into the script.
//
// Some built-ins recurse inside themselves instead: JSON.stringify and
// JSON.parse over nested values, Array.prototype.flat; and chains of
// bound functions and of proxies recurse through goja's own calls. Each
// of them gets a bound of its own (jsonguard.go, and below).

// nativeDepthLimit is how deeply built-ins may call each other; an array
// nested as deeply as V8 prints (some thousands) stays within it.
const nativeDepthLimit = 12000

// chainLimit is how long a chain of bound functions or proxies may be.
const chainLimit = 2000

// proxyShim makes a Proxy constructor that reports each proxy it makes,
// with its target and handler, to check.
const proxyShim = `(function (Original, check) {
  const Proxy = function Proxy(target, handler) {
    if (new.target === undefined) throw new TypeError("Constructor Proxy requires 'new'");
    const p = new Original(target, handler);
    check(p, target, handler);
    return p;
  };
  Object.defineProperty(Proxy, 'revocable', { writable: true, configurable: true, value: function revocable(target, handler) {
    const r = Original.revocable(target, handler);
    check(r.proxy, target, handler);
    return r;
  } });
  return Proxy;
})`

// guardMap lists, once per process, where the built-ins are: every
// function-valued property and accessor of the objects reachable from the
// global object and from a few intrinsics the global object does not
// reach (the prototypes of iterators and generators). goja makes its
// built-ins lazily, so walking them in JavaScript for each runtime cost
// several times what making the runtime does; with the map, each runtime
// only reads and replaces them.
const guardMap = `(function (roots) {
  const owners = [], objects = [], props = [], index = new Map();
  const key = (k) => typeof k === 'symbol' ? { s: k.description } : { k: k };
  const visit = (o, owner) => {
    if (o === null || (typeof o !== 'object' && typeof o !== 'function') || index.has(o)) return;
    index.set(o, owners.length);
    owners.push(owner);
    objects.push(o);
  };
  roots.forEach((r, i) => visit(r, { root: i }));
  for (let i = 0; i < owners.length; i++) {
    const o = objects[i];
    visit(Reflect.getPrototypeOf(o), { p: i, proto: true });
    for (const k of Reflect.ownKeys(o)) {
      if (typeof k === 'symbol' && Symbol[k.description.slice(7)] !== k) continue;
      const d = Reflect.getOwnPropertyDescriptor(o, k);
      if ('value' in d) {
        visit(d.value, Object.assign({ p: i }, key(k)));
        if (typeof d.value === 'function' && d.configurable && Function.prototype.toString.call(d.value).endsWith('[native code] }')) props.push(Object.assign({ o: i, w: d.writable, e: d.enumerable, c: d.configurable, n: d.value.name, l: d.value.length }, key(k)));
      } else if (d.configurable) {
        props.push(Object.assign({ o: i, a: true, e: d.enumerable, c: d.configurable }, key(k)));
      }
    }
  }
  return JSON.stringify({ owners, props });
})`

// guardRoots are where guardMap starts.
const guardRoots = `[globalThis,
  Reflect.getPrototypeOf([][Symbol.iterator]()),
  Reflect.getPrototypeOf(new Map()[Symbol.iterator]()),
  Reflect.getPrototypeOf(new Set()[Symbol.iterator]()),
  Reflect.getPrototypeOf(''[Symbol.iterator]()),
  Reflect.getPrototypeOf(/x/[Symbol.matchAll]('')),
  Reflect.getPrototypeOf((function* () {})()),
  Reflect.getPrototypeOf(function* () {}),
  Reflect.getPrototypeOf(async function () {})]`

// guardPrograms are the scripts every runtime's guards run, compiled once.
var guardPrograms = sync.OnceValues(func() (map[string]*goja.Program, error) {
	progs := map[string]*goja.Program{}
	for name, src := range map[string]string{
		"roots": guardRoots, "proxy": proxyShim, "describe": "(o, k) => Reflect.getOwnPropertyDescriptor(o, k)",
		"eval": evalInit, "async": "(async function () {})", "generator": "(function* () {})", "regexp": regexpShim, "typed": typedShim,
	} {
		p, err := goja.Compile("guard", src, false)
		if err != nil {
			return nil, err
		}
		progs[name] = p
	}
	return progs, nil
})

// runGuardProgram runs one of guardPrograms.
func (s *Shell) runGuardProgram(name string) (goja.Value, error) {
	progs, err := guardPrograms()
	if err != nil {
		return nil, err
	}
	return s.vm.RunProgram(progs[name])
}

type guardOwner struct {
	Root  *int   `json:"root"`
	P     int    `json:"p"`
	Proto bool   `json:"proto"`
	K     string `json:"k"`
	S     string `json:"s"`
}

type guardProp struct {
	O       int    `json:"o"`
	K       string `json:"k"`
	S       string `json:"s"`
	A       bool   `json:"a"`
	W, E, C bool
	N       string `json:"n"` // a function's name and length
	L       int    `json:"l"`
}

type guardLayout struct {
	Owners []guardOwner `json:"owners"`
	Props  []guardProp  `json:"props"`
}

// guardLayoutOnce is mapGuardLayout, once per process: every runtime has
// the same built-ins.
var guardLayoutOnce = sync.OnceValues(mapGuardLayout)

// mapGuardLayout maps the built-ins of a runtime prepared as the shell
// prepares its runtimes.
func mapGuardLayout() (*guardLayout, error) {
	t := &Shell{vm: goja.New(), ctx: context.Background()}
	if err := t.prepareRuntime(); err != nil {
		return nil, err
	}
	m, err := t.vm.RunString(guardMap)
	if err != nil {
		return nil, err
	}
	roots, err := t.vm.RunString(guardRoots)
	if err != nil {
		return nil, err
	}
	mapper, _ := goja.AssertFunction(m)
	v, err := mapper(goja.Undefined(), roots)
	if err != nil {
		return nil, err
	}
	var l guardLayout
	if err := json.Unmarshal([]byte(v.String()), &l); err != nil {
		return nil, err
	}
	return &l, nil
}

// wellKnown are the symbols built-ins are keyed by.
var wellKnown = map[string]*goja.Symbol{
	"Symbol.hasInstance": goja.SymHasInstance, "Symbol.isConcatSpreadable": goja.SymIsConcatSpreadable,
	"Symbol.iterator": goja.SymIterator, "Symbol.match": goja.SymMatch, "Symbol.matchAll": goja.SymMatchAll,
	"Symbol.replace": goja.SymReplace, "Symbol.search": goja.SymSearch, "Symbol.species": goja.SymSpecies,
	"Symbol.split": goja.SymSplit, "Symbol.toPrimitive": goja.SymToPrimitive, "Symbol.toStringTag": goja.SymToStringTag,
	"Symbol.unscopables": goja.SymUnscopables,
}

// prepareRuntime installs the guards that replace built-ins with the
// shell's own (evalguard.go, jsonguard.go, the chains below): the native
// guard then wraps those as it wraps goja's.
func (s *Shell) prepareRuntime() error {
	if err := s.installCompileGuards(); err != nil {
		return err
	}
	if err := s.installChainGuards(); err != nil {
		return err
	}
	if err := s.installRegexGuards(); err != nil {
		return err
	}
	if err := s.installAllocationGuards(); err != nil {
		return err
	}
	return s.installJSONGuards()
}

// installGuards prepares the runtime and wraps its built-ins (see above);
// it runs before the prelude, when only goja's functions and the guards'
// are there.
func (s *Shell) installGuards() error {
	if err := s.prepareRuntime(); err != nil {
		return err
	}
	layout, err := guardLayoutOnce()
	if err != nil {
		return err
	}
	vm := s.vm
	roots, err := s.runGuardProgram("roots")
	if err != nil {
		return err
	}
	owners := make([]*goja.Object, len(layout.Owners))
	member := func(o *goja.Object, k, sym string) goja.Value {
		if sym != "" {
			return o.GetSymbol(wellKnown[sym])
		}
		return o.Get(k)
	}
	for i, ow := range layout.Owners {
		var v goja.Value
		switch {
		case ow.Root != nil:
			v = roots.ToObject(vm).Get(fmt.Sprint(*ow.Root))
		case ow.Proto:
			v = owners[ow.P].Prototype()
		default:
			v = member(owners[ow.P], ow.K, ow.S)
		}
		o, ok := v.(*goja.Object)
		if !ok || o == nil {
			return fmt.Errorf("native guard: built-in %d is missing", i)
		}
		owners[i] = o
	}
	// Functions goja recognizes by identity (its fast paths for arrays,
	// Maps and Sets, which never call back into the script), and the
	// eval that evalguard.go's rewrite names.
	skip := map[*goja.Object]bool{vm.Get("eval").ToObject(vm): true}
	for _, path := range [][2]string{{"Array", "values"}, {"Map", "set"}, {"Set", "add"}, {"Set", "has"}, {"Set", "values"}} {
		skip[vm.Get(path[0]).ToObject(vm).Get("prototype").ToObject(vm).Get(path[1]).ToObject(vm)] = true
	}
	wrapped := map[*goja.Object]goja.Value{}
	wrap := func(v goja.Value, name string, length int) goja.Value {
		fn, ok := v.(*goja.Object)
		if !ok || skip[fn] {
			return v
		}
		if w, ok := wrapped[fn]; ok {
			return w
		}
		raw, ok := fn.Export().(func(goja.FunctionCall) goja.Value)
		if _, ctor := goja.AssertConstructor(fn); ctor || !ok {
			return v
		}
		w := vm.ToValue(func(c goja.FunctionCall) goja.Value {
			s.nativeDepth++
			defer func() { s.nativeDepth-- }()
			if s.nativeDepth > nativeDepthLimit {
				s.throw("RangeError", msgTooDeep)
			}
			// A loop inside one native (spreading an iterator,
			// Array.from) calls natives too: the deadline, ctrl+c and
			// the heap cap stop it here.
			if err := s.tick(); err != nil {
				panic(s.stopNow(s.ctx))
			}
			return raw(c)
		})
		if name == "" {
			name, length = fn.Get("name").String(), int(fn.Get("length").ToInteger())
		}
		setFunctionName(vm, w.(*goja.Object), name, length)
		wrapped[fn] = w
		return w
	}
	var describe goja.Callable
	for _, p := range layout.Props {
		o := owners[p.O]
		if !p.A {
			v := member(o, p.K, p.S)
			w := wrap(v, p.N, p.L)
			if w == v {
				continue
			}
			if p.S != "" {
				err = o.DefineDataPropertySymbol(wellKnown[p.S], w, flag(p.W), flag(p.C), flag(p.E))
			} else {
				err = o.DefineDataProperty(p.K, w, flag(p.W), flag(p.C), flag(p.E))
			}
			if err != nil {
				return err
			}
			continue
		}
		if describe == nil {
			d, err := s.runGuardProgram("describe")
			if err != nil {
				return err
			}
			describe, _ = goja.AssertFunction(d)
		}
		var k goja.Value = vm.ToValue(p.K)
		if p.S != "" {
			k = wellKnown[p.S]
		}
		d, err := describe(goja.Undefined(), o, k)
		if err != nil {
			return err
		}
		desc := d.ToObject(vm)
		get, set := wrap(desc.Get("get"), "", 0), wrap(desc.Get("set"), "", 0)
		if p.S != "" {
			err = o.DefineAccessorPropertySymbol(wellKnown[p.S], get, set, flag(p.C), flag(p.E))
		} else {
			err = o.DefineAccessorProperty(p.K, get, set, flag(p.C), flag(p.E))
		}
		if err != nil {
			return err
		}
	}
	// test calls exec through the property, unless it is the shell's.
	s.regexExecFn = vm.Get("RegExp").ToObject(vm).Get("prototype").ToObject(vm).Get("exec")
	return nil
}

func flag(b bool) goja.Flag {
	if b {
		return goja.FLAG_TRUE
	}
	return goja.FLAG_FALSE
}

// installChainGuards bounds chains of bound functions and of proxies,
// which goja follows in Go: a call of a function bound to a bound
// function, or a property read through a proxy of a proxy. Each link
// made records its chain's length, and a link past chainLimit is refused
// as V8 refuses using it.
func (s *Shell) installChainGuards() error {
	vm := s.vm
	lengths, err := vm.New(vm.Get("WeakMap"))
	if err != nil {
		return err
	}
	get, _ := goja.AssertFunction(lengths.Get("get"))
	set, _ := goja.AssertFunction(lengths.Get("set"))
	chain := func(links ...goja.Value) int64 {
		n := int64(0)
		for _, l := range links {
			if _, ok := l.(*goja.Object); !ok {
				continue
			}
			if v, err := get(lengths, l); err == nil && !goja.IsUndefined(v) {
				n = max(n, v.ToInteger())
			}
		}
		return n + 1
	}
	record := func(o *goja.Object, n int64) {
		if n > chainLimit {
			s.throw("RangeError", msgTooDeep)
		}
		if _, err := set(lengths, o, vm.ToValue(n)); err != nil {
			panic(err)
		}
	}

	fnProto := vm.Get("Function").ToObject(vm).Get("prototype").ToObject(vm)
	bind, _ := goja.AssertFunction(fnProto.Get("bind"))
	guardedBind := vm.ToValue(func(c goja.FunctionCall) goja.Value {
		n := chain(c.This)
		if n > chainLimit {
			s.throw("RangeError", msgTooDeep)
		}
		bound, err := bind(c.This, c.Arguments...)
		if err != nil {
			panic(err)
		}
		record(bound.ToObject(vm), n)
		return bound
	}).ToObject(vm)
	setFunctionName(vm, guardedBind, "bind", 1)
	if err := fnProto.DefineDataProperty("bind", guardedBind, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE); err != nil {
		return err
	}

	// Proxy is wrapped in JavaScript: a native constructor cannot tell
	// new Proxy() from Proxy().
	check := vm.ToValue(func(c goja.FunctionCall) goja.Value {
		record(c.Argument(0).ToObject(vm), chain(c.Argument(1), c.Argument(2)))
		return goja.Undefined()
	})
	shim, err := s.runGuardProgram("proxy")
	if err != nil {
		return err
	}
	make, _ := goja.AssertFunction(shim)
	guardedProxy, err := make(goja.Undefined(), vm.Get("Proxy"), check)
	if err != nil {
		return err
	}
	return vm.GlobalObject().DefineDataProperty("Proxy", guardedProxy, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
}
