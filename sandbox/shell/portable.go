package shell

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// A Globals checkpoint holds values of one runtime and can only go back
// into that runtime. A Portable holds the same thing as Go data that
// belongs to no runtime, so that a checkpoint taken in one session can be
// put into another one: a classroom runs a lesson's setup once and gives
// every student's session its globals instead of running the setup again
// in each of them.
//
// What is carried: primitives, plain objects and arrays (with their
// sharing and cycles), Dates, RegExps, Maps, Sets, settled Promises (an
// awaited result, while the shell runs await synchronously), explain outputs, the
// shell's BSON values (ObjectId, Long, Decimal128, ...), another name for
// one of the session's built-in globals (`var log = print`), and
// functions, by their source, re-created in the importing runtime. A
// function is carried only when every name it takes from outside its own
// body is a global, so that the copy reads the importing session's
// globals (its `db` among them) the way the original read the exporting
// session's.
//
// What is not, and is listed by Unportable instead: closures over local
// variables, pending Promises, built-in and bound functions, methods and accessors (their
// source is not an expression), class instances, shell objects other
// than explain outputs (a cursor, a collection, a database), Proxies,
// symbols, errors, a function that reads a global that is not carried,
// and any value of more than MaxPortableValues values.
//
// Why a size limit rather than sharing large values between sessions:
// an imported value is a new JavaScript object graph in the importing
// runtime, so every student would pay for a copy of it (a global of
// 144,000 generated readings is about 100 MB of goja objects per
// session), and goja objects cannot be shared between runtimes. Large
// generated data belongs in the database, where the sessions share it
// copy-on-write; a caller that finds an unportable global its later code
// reads falls back to running the code that builds it.
//
// A Portable is immutable once made and safe to import into many
// sessions at once.
type Portable struct {
	db         string
	globals    []portableGlobal
	removed    []string
	unportable []Unportable
	values     int
}

// Unportable is a global a Portable could not carry, and why.
type Unportable struct {
	Name   string
	Reason string
}

// MaxPortableValues is the most values (primitives, objects, array
// elements, properties) one global may hold and still be carried. Ten
// thousand values import in about a millisecond (BenchmarkImportGlobals).
const MaxPortableValues = 10_000

// DB is the current database of the exporting session.
func (p *Portable) DB() string { return p.db }

// Unportable lists the globals that were left out, by name.
func (p *Portable) Unportable() []Unportable { return p.unportable }

// Names lists the globals carried, in name order.
func (p *Portable) Names() []string {
	names := make([]string, len(p.globals))
	for i, g := range p.globals {
		names[i] = g.name
	}
	return names
}

// Values is the number of values the carried globals hold.
func (p *Portable) Values() int { return p.values }

type portableGlobal struct {
	name  string
	value *pvalue
}

type pkind uint8

const (
	pUndefined pkind = iota
	pNull
	pBool
	pInt
	pFloat
	pString
	pBigInt
	pDate     // num: ms since the epoch, NaN for an invalid date
	pRegExp   // str: source, flags
	pBSON     // bson: the Go value of a shell BSON wrapper, which no method changes in place, so sessions share it
	pAlias    // str: the name of a built-in global
	pArray    // items, nil for a hole; n: length
	pObject   // keys, items; nullProto; shellType
	pMap      // items: key, value, key, value, ...
	pSet      // items
	pFunction // str: source; prog
	pPromise  // items: the settled value; b: rejected
)

// pvalue is one value of a Portable. Objects are pointers, so that two
// globals (or two properties) holding one object share one pvalue, and
// the import makes one object for both.
type pvalue struct {
	kind      pkind
	b         bool
	i         int64
	num       float64
	str       string
	flags     string
	big       *big.Int
	bson      any
	n         int64
	keys      []string
	items     []*pvalue
	nullProto bool
	shellType string
	prog      *goja.Program
}

// ExportGlobals makes a Portable of the globals the session has beyond
// base, a checkpoint taken when it started (its built-in globals): the
// globals added since and those whose value changed. It runs none of the
// session's code; accessors are detected, not called.
func (s *Shell) ExportGlobals(base *Globals) *Portable {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := &Portable{db: s.DB()}
	g := s.vm.GlobalObject()
	e := &exporter{s: s, seen: map[*goja.Object]*pvalue{}, aliases: map[*goja.Object]string{}, globals: map[string]bool{}}
	e.toString, _ = goja.AssertFunction(s.vm.Get("Function").ToObject(s.vm).Get("prototype").ToObject(s.vm).Get("toString"))
	for name, v := range base.values {
		if o, ok := v.(*goja.Object); ok {
			e.aliases[o] = name
		}
	}
	names := g.GetOwnPropertyNames()
	slices.Sort(names)
	for _, name := range names {
		e.globals[name] = true
	}
	for name := range base.values {
		if !e.globals[name] {
			p.removed = append(p.removed, name)
		}
	}
	slices.Sort(p.removed)
	needs := map[string][]string{}
	for _, name := range names {
		v := g.Get(name)
		if bv, ok := base.values[name]; ok && sameValue(bv, v) {
			continue
		}
		e.begin()
		var pv *pvalue
		err := s.guard(func() error {
			var err error
			pv, err = e.value(v, 0)
			return err
		})
		if err != nil {
			e.rollback()
			p.unportable = append(p.unportable, Unportable{Name: name, Reason: err.Error()})
			continue
		}
		p.values += e.count
		p.globals = append(p.globals, portableGlobal{name: name, value: pv})
		for n := range e.reads {
			if _, builtin := base.values[n]; !builtin && n != name {
				needs[name] = append(needs[name], n)
			}
		}
	}
	// A function that reads a global left out would find it undefined:
	// leave it out too, and whatever reads it in turn.
	for changed := true; changed; {
		changed = false
		out := map[string]bool{}
		for _, u := range p.unportable {
			out[u.Name] = true
		}
		kept := p.globals[:0:0]
		for _, gl := range p.globals {
			if missing := firstMissing(needs[gl.name], out); missing != "" {
				p.unportable = append(p.unportable, Unportable{Name: gl.name,
					Reason: "it reads " + missing + ", which cannot be carried"})
				changed = true
				continue
			}
			kept = append(kept, gl)
		}
		p.globals = kept
	}
	slices.SortFunc(p.unportable, func(a, b Unportable) int { return strings.Compare(a.Name, b.Name) })
	return p
}

func firstMissing(names []string, out map[string]bool) string {
	for _, n := range names {
		if out[n] {
			return n
		}
	}
	return ""
}

// sameValue is SameValue: identity for objects, value for primitives.
func sameValue(a, b goja.Value) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.SameAs(b)
}

type exporter struct {
	s       *Shell
	seen    map[*goja.Object]*pvalue
	aliases map[*goja.Object]string
	globals map[string]bool
	// Per global: the values it added, the objects it first saw and the
	// names its functions read.
	count int
	added []*goja.Object
	reads map[string]bool
	// hasAccessor is Object.getOwnPropertyDescriptors looked at in JS,
	// made on first use: goja has no Go call that tells an accessor
	// property without calling its getter.
	hasAccessor goja.Callable
	// toString is Function.prototype.toString: a toString of the
	// function's own would be the session's code, which an export never
	// runs.
	toString goja.Callable
}

func (e *exporter) begin() {
	e.count, e.added, e.reads = 0, e.added[:0], map[string]bool{}
}

// rollback forgets the objects of a global that could not be carried, so
// that no other global shares a half-made value.
func (e *exporter) rollback() {
	for _, o := range e.added {
		delete(e.seen, o)
	}
}

func (e *exporter) value(v goja.Value, depth int) (*pvalue, error) {
	if e.count++; e.count > MaxPortableValues {
		return nil, fmt.Errorf("it holds more than %d values", MaxPortableValues)
	}
	o, ok := v.(*goja.Object)
	if !ok {
		return primitive(v)
	}
	if name, ok := e.aliases[o]; ok {
		return &pvalue{kind: pAlias, str: name}, nil
	}
	if pv, ok := e.seen[o]; ok {
		return pv, nil
	}
	if depth > maxNesting {
		return nil, errTooDeep
	}
	s := e.s
	if o.ExportType() == proxyType {
		// The shell's own Proxies (a collection) say what they are on
		// their target; reading it runs no trap.
		if target := o.Export().(goja.Proxy).Target(); target != nil {
			if t := target.GetSymbol(s.typeSym); t != nil && !goja.IsUndefined(t) {
				return nil, fmt.Errorf("it holds a shell %s object", t)
			}
		}
		return nil, fmt.Errorf("it holds a Proxy")
	}
	if b, ok := s.unbox(o); ok {
		return e.remember(o, &pvalue{kind: pBSON, bson: b}), nil
	}
	if p, ok := o.Export().(*goja.Promise); ok {
		// A settled promise is its outcome; a pending one waits on work
		// of its own runtime.
		if p.State() == goja.PromiseStatePending {
			return nil, fmt.Errorf("it holds a pending Promise")
		}
		pv := e.remember(o, &pvalue{kind: pPromise, b: p.State() == goja.PromiseStateRejected})
		item, err := e.value(p.Result(), depth+1)
		if err != nil {
			return nil, err
		}
		pv.items = []*pvalue{item}
		return pv, nil
	}
	if _, callable := goja.AssertFunction(o); callable {
		// Plain, arrow, async and generator functions and classes alike.
		return e.function(o)
	}
	switch o.ClassName() {
	case "Array":
		n := o.Get("length").ToInteger()
		if n > MaxPortableValues {
			return nil, fmt.Errorf("it holds an array of %d elements, more than %d values", n, MaxPortableValues)
		}
		pv := e.remember(o, &pvalue{kind: pArray, n: n, items: make([]*pvalue, n)})
		for i := range n {
			ev := o.Get(indexKey(int(i)))
			if ev == nil {
				continue // a hole
			}
			item, err := e.value(ev, depth+1)
			if err != nil {
				return nil, err
			}
			pv.items[i] = item
		}
		return pv, nil
	case "Date":
		ms := math.NaN()
		if t, ok := o.Export().(time.Time); ok {
			ms = float64(t.UnixMilli())
		}
		return e.remember(o, &pvalue{kind: pDate, num: ms}), nil
	case "RegExp":
		return e.remember(o, &pvalue{kind: pRegExp, str: o.Get("source").String(), flags: o.Get("flags").String()}), nil
	case "Error":
		return nil, fmt.Errorf("it holds an Error")
	}
	proto := o.Prototype()
	switch {
	case proto != nil && proto == s.mapProto:
		return e.collection(o, pMap, depth)
	case proto != nil && proto == s.setProto:
		return e.collection(o, pSet, depth)
	}
	shellType := ""
	if t := o.GetSymbol(s.typeSym); t != nil && !goja.IsUndefined(t) {
		if shellType = t.String(); shellType != "ExplainOutput" {
			return nil, fmt.Errorf("it holds a shell %s object", shellType)
		}
	}
	if proto != nil && proto != s.objectProto {
		name := "an object with its own prototype"
		if c, ok := proto.Get("constructor").(*goja.Object); ok {
			if n := c.Get("name"); n != nil && n.String() != "" {
				name = "an instance of " + n.String()
			}
		}
		return nil, fmt.Errorf("it holds %s", name)
	}
	accessor, err := e.accessor(o)
	if err != nil {
		return nil, err
	}
	if accessor {
		return nil, fmt.Errorf("it holds an object with a getter or setter")
	}
	keys := o.Keys()
	pv := e.remember(o, &pvalue{kind: pObject, keys: keys, items: make([]*pvalue, len(keys)), nullProto: proto == nil, shellType: shellType})
	for i, k := range keys {
		item, err := e.value(o.Get(k), depth+1)
		if err != nil {
			return nil, err
		}
		pv.items[i] = item
	}
	return pv, nil
}

func (e *exporter) remember(o *goja.Object, pv *pvalue) *pvalue {
	e.seen[o] = pv
	e.added = append(e.added, o)
	return pv
}

func primitive(v goja.Value) (*pvalue, error) {
	if _, ok := v.(*goja.Symbol); ok {
		return nil, fmt.Errorf("it holds a symbol, which is its runtime's own")
	}
	switch {
	case v == nil || goja.IsUndefined(v):
		return &pvalue{kind: pUndefined}, nil
	case goja.IsNull(v):
		return &pvalue{kind: pNull}, nil
	}
	switch x := v.Export().(type) {
	case bool:
		return &pvalue{kind: pBool, b: x}, nil
	case int64:
		return &pvalue{kind: pInt, i: x}, nil
	case float64:
		return &pvalue{kind: pFloat, num: x}, nil
	case string:
		return &pvalue{kind: pString, str: x}, nil
	case *big.Int:
		return &pvalue{kind: pBigInt, big: new(big.Int).Set(x)}, nil
	}
	return nil, fmt.Errorf("it holds a %s", v.ExportType())
}

// function carries a function by its source, if a copy made from the
// source in another runtime would behave the same.
func (e *exporter) function(o *goja.Object) (*pvalue, error) {
	srcV, err := e.toString(o)
	if err != nil {
		return nil, err
	}
	src := srcV.String()
	if strings.Contains(src, "[native code]") {
		return nil, fmt.Errorf("it holds a built-in or bound function")
	}
	if len(o.Keys()) > 0 {
		return nil, fmt.Errorf("it holds a function with properties of its own")
	}
	if p, ok := o.Get("prototype").(*goja.Object); ok && len(p.Keys()) > 0 {
		return nil, fmt.Errorf("it holds a constructor with methods added to its prototype")
	}
	prog, err := goja.Compile("", "("+src+")", false)
	if err != nil && strings.Contains(src, "=>") {
		// goja's source of an arrow function whose body is a
		// parenthesised expression, (x) => ({ … }), ends before the
		// body's closing parenthesis; the copy made with it restored
		// prints the same source.
		src += ")"
		prog, err = goja.Compile("", "("+src+")", false)
	}
	if err != nil {
		return nil, fmt.Errorf("it holds a method or accessor, whose source is not a function expression")
	}
	free, err := freeNames(src)
	if err != nil {
		return nil, fmt.Errorf("it holds a function whose source cannot be parsed: %v", err)
	}
	for _, n := range free {
		if !e.globals[n] {
			return nil, fmt.Errorf("it holds a function that uses %s, a variable of the code that made it, not a global", n)
		}
		e.reads[n] = true
	}
	return e.remember(o, &pvalue{kind: pFunction, str: src, prog: prog}), nil
}

// collection carries a Map's entries or a Set's items.
func (e *exporter) collection(o *goja.Object, kind pkind, depth int) (*pvalue, error) {
	s := e.s
	arr, n, err := s.mapSetItems(o)
	if err != nil {
		return nil, err
	}
	pv := e.remember(o, &pvalue{kind: kind})
	for i := range n {
		item := arr.Get(indexKey(i))
		parts := []goja.Value{item}
		if kind == pMap {
			pair := item.ToObject(s.vm)
			parts = []goja.Value{pair.Get("0"), pair.Get("1")}
		}
		for _, part := range parts {
			x, err := e.value(part, depth+1)
			if err != nil {
				return nil, err
			}
			pv.items = append(pv.items, x)
		}
	}
	return pv, nil
}

func (e *exporter) accessor(o *goja.Object) (bool, error) {
	if e.hasAccessor == nil {
		v, err := e.s.vm.RunString("(o) => Object.values(Object.getOwnPropertyDescriptors(o)).some((d) => 'get' in d)")
		if err != nil {
			return false, err
		}
		e.hasAccessor, _ = goja.AssertFunction(v)
	}
	v, err := e.hasAccessor(goja.Undefined(), o)
	if err != nil {
		return false, err
	}
	return v.ToBoolean(), nil
}

// ImportGlobals puts base back (a checkpoint this session took when it
// started, as RestoreGlobals does) and then p's globals, made anew in
// this session's runtime. The current database stays base's: a Portable
// made in a session on another database (a classroom's template) gives
// its globals to a session on the student's own.
func (s *Shell) ImportGlobals(base *Globals, p *Portable) error {
	s.RestoreGlobals(base)
	s.mu.Lock()
	defer s.mu.Unlock()
	im := &importer{s: s, base: base, made: map[*pvalue]goja.Value{}}
	return s.guard(func() error {
		g := s.vm.GlobalObject()
		for _, name := range p.removed {
			if err := g.Delete(name); err != nil {
				_ = g.Set(name, goja.Undefined())
			}
		}
		for _, gl := range p.globals {
			v, err := im.value(gl.value)
			if err != nil {
				return fmt.Errorf("import global %s: %w", gl.name, err)
			}
			if err := g.Set(gl.name, v); err != nil {
				_ = g.DefineDataProperty(gl.name, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
			}
		}
		return nil
	})
}

type importer struct {
	s    *Shell
	base *Globals
	made map[*pvalue]goja.Value
}

func (im *importer) value(pv *pvalue) (goja.Value, error) {
	if v, ok := im.made[pv]; ok {
		return v, nil
	}
	s, vm := im.s, im.s.vm
	switch pv.kind {
	case pUndefined:
		return goja.Undefined(), nil
	case pNull:
		return goja.Null(), nil
	case pBool:
		return vm.ToValue(pv.b), nil
	case pInt:
		return vm.ToValue(pv.i), nil
	case pFloat:
		return vm.ToValue(pv.num), nil
	case pString:
		return vm.ToValue(pv.str), nil
	case pBigInt:
		return vm.ToValue(new(big.Int).Set(pv.big)), nil
	case pAlias:
		if v, ok := im.base.values[pv.str]; ok {
			return v, nil
		}
		return nil, fmt.Errorf("this session has no built-in global %s", pv.str)
	}
	var v goja.Value
	switch pv.kind {
	case pDate:
		d, err := vm.New(s.dateCtor, vm.ToValue(pv.num))
		if err != nil {
			return nil, err
		}
		v = d
	case pRegExp:
		r, err := vm.New(s.regexpCtor, vm.ToValue(pv.str), vm.ToValue(pv.flags))
		if err != nil {
			return nil, err
		}
		v = r
	case pBSON:
		v = s.box(pv.bson)
	case pFunction:
		fn, err := vm.RunProgram(pv.prog)
		if err != nil {
			return nil, err
		}
		v = fn
	case pArray:
		arr := vm.NewArray()
		im.made[pv] = arr
		for i, item := range pv.items {
			if item == nil {
				continue
			}
			x, err := im.value(item)
			if err != nil {
				return nil, err
			}
			if err := arr.Set(indexKey(i), x); err != nil {
				return nil, err
			}
		}
		if err := arr.Set("length", pv.n); err != nil {
			return nil, err
		}
		return arr, nil
	case pObject:
		o := vm.NewObject()
		if pv.nullProto {
			o = vm.CreateObject(nil)
		}
		im.made[pv] = o
		for i, k := range pv.keys {
			x, err := im.value(pv.items[i])
			if err != nil {
				return nil, err
			}
			if err := o.DefineDataProperty(k, x, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
				return nil, err
			}
		}
		if pv.shellType != "" {
			_ = o.DefineDataPropertySymbol(s.typeSym, vm.ToValue(pv.shellType), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		}
		return o, nil
	case pPromise:
		promise, resolve, reject := vm.NewPromise()
		v := vm.ToValue(promise)
		im.made[pv] = v
		x, err := im.value(pv.items[0])
		if err != nil {
			return nil, err
		}
		settle := resolve
		if pv.b {
			settle = reject
		}
		if err := settle(x); err != nil {
			return nil, err
		}
		return v, nil
	case pMap, pSet:
		proto, method, step := s.mapProto, "set", 2
		if pv.kind == pSet {
			proto, method, step = s.setProto, "add", 1
		}
		c, err := vm.New(proto.Get("constructor").ToObject(vm))
		if err != nil {
			return nil, err
		}
		im.made[pv] = c
		add, ok := goja.AssertFunction(proto.Get(method))
		if !ok {
			return nil, fmt.Errorf("%s.prototype.%s is not a function", proto.Get("constructor"), method)
		}
		for i := 0; i+step <= len(pv.items); i += step {
			args := make([]goja.Value, step)
			for j := range step {
				x, err := im.value(pv.items[i+j])
				if err != nil {
					return nil, err
				}
				args[j] = x
			}
			if _, err := add(c, args...); err != nil {
				return nil, err
			}
		}
		return c, nil
	default:
		return nil, fmt.Errorf("unknown portable value %d", pv.kind)
	}
	im.made[pv] = v
	return v, nil
}
