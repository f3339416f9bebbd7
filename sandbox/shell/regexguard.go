package shell

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unsafe"

	"github.com/dlclark/regexp2/v2"
	"github.com/dop251/goja"
)

// goja matches backtracking regular expressions with regexp2 and no time
// limit: /^(?=a)(a+)+$/ on a long 'aaa…b' runs for minutes, in Go, where
// neither the evaluation's deadline nor ctrl+c (goja's interrupt, which
// the VM checks between instructions) reaches it; a timeout it would
// read as "no match". So the shell matches regular expressions itself:
// RegExp.prototype.exec and test are replaced by its own, over regexp2
// with a match timeout, and every other use of a regular expression
// (match, matchAll, replace, search, split, of RegExp and of String) goes
// through exec, as the standard defines them and goja does once exec is
// not its own. A match runs in slices of time that grow, each a regexp2
// match with its own timeout; between slices, and while a long slice runs
// on a goroutine of its own, the evaluation's deadline, ctrl+c and heap
// cap can stop it, with the error the script would stop with anywhere
// else.
//
// Compiling a pattern recurses once per nested group in regexp2's parser,
// so a pattern nested deeper than regexDepthLimit is refused with V8's
// error for a pattern it cannot compile, wherever it comes from: a
// literal (the nesting guard measures it), the RegExp constructor, or a
// string that String.prototype.match, matchAll or search makes one of.

// regexDepthLimit is how deeply a pattern's groups may nest.
const regexDepthLimit = 1000

// regexStack bounds regexp2's backtracking stack (integer slots); a match
// that needs more fails as V8's does, with a RangeError.
const regexStack = 1 << 22

// regexFirstSlice is how long a match runs before the evaluation checks
// on it; regexp2's clock ticks every 100 ms, so a slice lasts at least
// that long.
const regexFirstSlice = 50 * time.Millisecond

// compiledRegex is a RegExp's pattern as the shell matches it.
type compiledRegex struct {
	re      *regexp2.Regexp
	unicode bool
	names   []string // group names by number; "" for an unnamed group
}

// regexInput is the last string matched, in regexp2's runes: a global
// regular expression's exec calls match the same string again and again.
type regexInput struct {
	id      stringID
	runes   []rune
	posMap  []int // full-unicode mode: the UTF-16 index of each rune
	unicode bool
}

// stringID identifies a goja string without comparing its contents.
type stringID struct {
	ptr    unsafe.Pointer
	length int
}

func idOf(str goja.String) stringID {
	v := reflect.ValueOf(str)
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		return stringID{unsafe.Pointer(unsafe.StringData(s)), len(s)}
	case reflect.Slice:
		return stringID{v.UnsafePointer(), v.Len()}
	case reflect.Pointer:
		// goja's imported strings (a Go string handed to the runtime, as
		// restored globals are) are pointers, with no Len of their own.
		return stringID{v.UnsafePointer(), str.Length()}
	}
	return stringID{}
}

// regexFlags are a RegExp's own flags, read through the original getters
// (a script can redefine the properties, not the internal slots).
type regexFlags struct {
	source, global, ignoreCase, multiline, dotAll, unicode, sticky goja.Callable
}

func (s *Shell) installRegexGuards() error {
	vm := s.vm
	ctor := vm.Get("RegExp").ToObject(vm)
	proto := ctor.Get("prototype").ToObject(vm)
	describe, err := s.runGuardProgram("describe")
	if err != nil {
		return err
	}
	d, ok := goja.AssertFunction(describe)
	if !ok {
		return errors.New("no describe")
	}
	getter := func(name string) (goja.Callable, error) {
		v, err := d(goja.Undefined(), proto, vm.ToValue(name))
		if err != nil {
			return nil, err
		}
		g, ok := goja.AssertFunction(v.ToObject(vm).Get("get"))
		if !ok {
			return nil, fmt.Errorf("RegExp.prototype.%s has no getter", name)
		}
		return g, nil
	}
	var f regexFlags
	for name, dst := range map[string]*goja.Callable{"source": &f.source, "global": &f.global, "ignoreCase": &f.ignoreCase,
		"multiline": &f.multiline, "dotAll": &f.dotAll, "unicode": &f.unicode, "sticky": &f.sticky} {
		if *dst, err = getter(name); err != nil {
			return err
		}
	}
	s.regexFlags = f
	s.regexCache = map[string]*compiledRegex{}

	exec := vm.ToValue(func(c goja.FunctionCall) goja.Value {
		return s.regexExec(c.This, c.Argument(0), true)
	}).ToObject(vm)
	setFunctionName(vm, exec, "exec", 1)
	test := vm.ToValue(func(c goja.FunctionCall) goja.Value {
		rx := c.This
		o, ok := rx.(*goja.Object)
		if !ok {
			panic(vm.NewTypeError("Method RegExp.prototype.test called on incompatible receiver %s", rx.String()))
		}
		// As the standard's RegExpExec: a script's own exec is called.
		if e := o.Get("exec"); e != s.regexExecFn {
			if fn, ok := goja.AssertFunction(e); ok {
				r, err := fn(o, c.Argument(0))
				if err != nil {
					panic(err)
				}
				if _, isObj := r.(*goja.Object); !isObj && !goja.IsNull(r) {
					panic(vm.NewTypeError("RegExp exec method returned something other than an Object or null"))
				}
				return vm.ToValue(!goja.IsNull(r))
			}
		}
		return s.regexExec(rx, c.Argument(0), false)
	}).ToObject(vm)
	setFunctionName(vm, test, "test", 1)
	for name, fn := range map[string]*goja.Object{"exec": exec, "test": test} {
		if err := proto.DefineDataProperty(name, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
			return err
		}
	}

	// Patterns made at run time: the constructor (and RegExp.prototype.compile),
	// and strings that match, matchAll and search make patterns of.
	check := vm.ToValue(func(c goja.FunctionCall) goja.Value {
		s.checkPattern(c.Argument(0), c.Argument(1))
		return goja.Undefined()
	})
	shim, err := s.runGuardProgram("regexp")
	if err != nil {
		return err
	}
	make, _ := goja.AssertFunction(shim)
	if _, err := make(goja.Undefined(), ctor, check); err != nil {
		return err
	}
	return nil
}

// regexpShim makes RegExp a constructor that checks the pattern first;
// it keeps RegExp.prototype, its static members, and subclassing.
const regexpShim = `(function (Original, check) {
  const RegExp = function RegExp(pattern, flags) {
    if (!(pattern !== null && typeof pattern === 'object' && Object.prototype.toString.call(pattern) === '[object RegExp]')) {
      if (pattern !== null && typeof pattern === 'object' && pattern[Symbol.match]) check(String(pattern.source), flags);
      else if (pattern !== undefined) { pattern = String(pattern); check(pattern, flags); }
    }
    return new.target === undefined ? Original(pattern, flags) : Reflect.construct(Original, [pattern, flags], new.target === RegExp ? Original : new.target);
  };
  for (const k of Reflect.ownKeys(Original)) {
    if (k !== 'prototype' && k !== 'name' && k !== 'length') Reflect.defineProperty(RegExp, k, Reflect.getOwnPropertyDescriptor(Original, k));
  }
  Reflect.defineProperty(RegExp, 'prototype', { value: Original.prototype, writable: false, enumerable: false, configurable: false });
  Reflect.defineProperty(Original.prototype, 'constructor', { value: RegExp, writable: true, enumerable: false, configurable: true });
  const compile = Original.prototype.compile;
  Reflect.defineProperty(Original.prototype, 'compile', { value: function compile(pattern, flags) { check(pattern, flags); return compile.call(this, pattern, flags); }, writable: true, enumerable: false, configurable: true });
  for (const name of ['match', 'matchAll', 'search']) {
    const original = String.prototype[name];
    Reflect.defineProperty(String.prototype, name, { value: { [name](regexp) {
      if (regexp === undefined || regexp === null || typeof regexp[Symbol[name]] !== 'function') {
        regexp = String(regexp === undefined ? '' : regexp);
        check(regexp, undefined);
      }
      return original.call(this, regexp);
    } }[name], writable: true, enumerable: false, configurable: true });
  }
  Reflect.defineProperty(globalThis, 'RegExp', { value: RegExp, writable: true, enumerable: false, configurable: true });
})`

// checkPattern refuses a pattern nested too deeply for regexp2's parser,
// with V8's error for a pattern it cannot compile.
func (s *Shell) checkPattern(pattern, flags goja.Value) {
	p, ok := pattern.(goja.String)
	if !ok {
		return
	}
	if src := p.String(); regexNesting(src) > regexDepthLimit {
		f := ""
		if flags != nil && !goja.IsUndefined(flags) {
			f = flags.String()
		}
		s.throw("SyntaxError", "%s", "Invalid regular expression: /"+src+"/"+f+": Regular expression too large")
	}
}

// regexNesting is how deeply the groups of a pattern nest.
func regexNesting(p string) int {
	depth, deepest := 0, 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			for i++; i < len(p) && p[i] != ']'; i++ {
				if p[i] == '\\' {
					i++
				}
			}
		case '(':
			depth++
			deepest = max(deepest, depth)
		case ')':
			depth--
		}
	}
	return deepest
}

// regexCompiled is rx's pattern compiled for matching, cached by its
// source and flags.
func (s *Shell) regexCompiled(rx *goja.Object, unicode bool) *compiledRegex {
	flag := func(get goja.Callable) bool {
		v, err := get(rx)
		if err != nil {
			panic(err)
		}
		return v.ToBoolean()
	}
	src, err := s.regexFlags.source(rx)
	if err != nil {
		panic(err)
	}
	opts := regexp2.ECMAScript
	key := "/" + src.String() + "/"
	if flag(s.regexFlags.ignoreCase) {
		opts |= regexp2.IgnoreCase
		key += "i"
	}
	if flag(s.regexFlags.multiline) {
		opts |= regexp2.Multiline
		key += "m"
	}
	if flag(s.regexFlags.dotAll) {
		opts |= regexp2.Singleline
		key += "s"
	}
	pattern := src.String()
	if unicode {
		opts |= regexp2.Unicode
		key += "u"
		pattern = patternToUnicode(pattern)
	} else {
		pattern = patternToUTF16(pattern)
	}
	if c, ok := s.regexCache[key]; ok {
		return c
	}
	if regexNesting(pattern) > regexDepthLimit {
		s.throw("SyntaxError", "%s", "Invalid regular expression: "+key+": Regular expression too large")
	}
	re, err := regexp2.Compile(pattern, opts, regexp2.OptionMaxBacktrackingStackSize(regexStack))
	if err != nil {
		s.throw("SyntaxError", "%s", "Invalid regular expression: "+key+": "+err.Error())
	}
	c := &compiledRegex{re: re, unicode: unicode}
	for i := range re.GetGroupNumbers() {
		c.names = append(c.names, re.GroupNameFromNumber(i))
	}
	if len(s.regexCache) >= 64 {
		clear(s.regexCache)
	}
	s.regexCache[key] = c
	return c
}

// regexExec is RegExp.prototype.exec (and, without building the result,
// test) as goja implements them, over the shell's matching.
func (s *Shell) regexExec(this, arg goja.Value, result bool) goja.Value {
	vm := s.vm
	rx, ok := this.(*goja.Object)
	if !ok || rx.ClassName() != "RegExp" {
		name := "exec"
		if !result {
			name = "test"
		}
		panic(vm.NewTypeError("Method RegExp.prototype.%s called on incompatible receiver %s", name, s.objectTag(this)))
	}
	str, ok := arg.ToString().(goja.String)
	if !ok {
		str = vm.ToValue(arg.String()).(goja.String)
	}
	call := func(get goja.Callable) bool {
		v, err := get(rx)
		if err != nil {
			panic(err)
		}
		return v.ToBoolean()
	}
	lastIndex := toLength(rx.Get("lastIndex"))
	global, sticky, unicode := call(s.regexFlags.global), call(s.regexFlags.sticky), call(s.regexFlags.unicode)
	if !global && !sticky {
		lastIndex = 0
	}
	var indexes []int
	if lastIndex <= int64(str.Length()) {
		c := s.regexCompiled(rx, unicode)
		indexes = s.regexMatch(c, str, int(lastIndex))
	}
	matched := indexes != nil && (!sticky || int64(indexes[0]) == lastIndex)
	if global || sticky {
		next := 0
		if matched {
			next = indexes[1]
		}
		if err := rx.Set("lastIndex", next); err != nil {
			panic(err)
		}
	}
	if !result {
		return vm.ToValue(matched)
	}
	if !matched {
		return goja.Null()
	}
	c := s.regexCompiled(rx, unicode)
	values := make([]any, len(indexes)/2)
	lowerBound := 0
	values[0] = str.Substring(indexes[0], indexes[1])
	for i := 1; i < len(values); i++ {
		if start, end := indexes[2*i], indexes[2*i+1]; start >= 0 && end >= lowerBound {
			values[i] = str.Substring(start, end)
			lowerBound = start
		} else {
			values[i] = goja.Undefined()
		}
	}
	arr := vm.NewArray(values...)
	_ = arr.Set("index", indexes[0])
	_ = arr.Set("input", str)
	var groups goja.Value = goja.Undefined()
	for i := 1; i < len(values) && i < len(c.names); i++ {
		if c.names[i] == "" {
			continue
		}
		if goja.IsUndefined(groups) {
			o := vm.NewObject()
			_ = o.SetPrototype(nil)
			groups = o
		}
		_ = groups.(*goja.Object).Set(c.names[i], values[i])
	}
	_ = arr.DefineDataProperty("groups", groups, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	return arr
}

// objectTag is Object.prototype.toString's [object Tag] for v.
func (s *Shell) objectTag(v goja.Value) string {
	o, ok := v.(*goja.Object)
	if !ok {
		return v.String()
	}
	return "[object " + o.ClassName() + "]"
}

func toLength(v goja.Value) int64 {
	f := v.ToFloat()
	switch {
	case f != f || f <= 0:
		return 0
	case f >= 1<<53-1:
		return 1<<53 - 1
	}
	return int64(f)
}

// regexMatch finds the first match of c in str at or after start (UTF-16
// indexes), and returns the UTF-16 indexes of the match and each group
// (-1 for a group that took no part), or nil.
func (s *Shell) regexMatch(c *compiledRegex, str goja.String, start int) []int {
	in := s.regexRunes(str, c.unicode)
	runeStart, split := start, false
	if c.unicode {
		runeStart, split = posMapReverseLookup(in.posMap, start)
	}
	runes := in.runes
	if split {
		// start is inside a surrogate pair: match from its second half
		runes = append([]rune(nil), in.runes...)
		_, second := utf16.EncodeRune(runes[runeStart])
		runes[runeStart] = second
	}
	m := s.regexRun(c.re, runes, runeStart)
	if m == nil {
		return nil
	}
	groups := m.Groups()
	indexes := make([]int, 0, 2*len(groups))
	for _, g := range groups {
		if len(g.Captures) == 0 {
			indexes = append(indexes, -1, 0)
			continue
		}
		from, to := g.RuneIndex, g.RuneIndex+g.RuneLength
		if c.unicode {
			from, to = in.posMap[from], in.posMap[to]
		}
		indexes = append(indexes, from, to)
	}
	return indexes
}

// regexRunes is str as regexp2 reads it: its UTF-16 code units, or in
// full-unicode mode its code points (a lone surrogate standing for
// itself) with their UTF-16 positions.
func (s *Shell) regexRunes(str goja.String, unicode bool) *regexInput {
	id := idOf(str)
	if in := s.regexLast; in != nil && in.id == id && in.unicode == unicode && id.ptr != nil {
		return in
	}
	n := str.Length()
	units := make([]uint16, n)
	if v := reflect.ValueOf(str); v.Kind() == reflect.String {
		ascii := v.String()
		for i := range n {
			units[i] = uint16(ascii[i])
		}
	} else {
		for i := range n {
			units[i] = str.CharAt(i)
		}
	}
	in := &regexInput{id: id, unicode: unicode}
	if !unicode {
		in.runes = make([]rune, n)
		for i, u := range units {
			in.runes[i] = rune(u)
		}
	} else {
		in.runes, in.posMap = make([]rune, 0, n), make([]int, 0, n+1)
		for i := 0; i < n; i++ {
			r := rune(units[i])
			in.posMap = append(in.posMap, i)
			if utf16.IsSurrogate(r) && r < 0xdc00 && i+1 < n && units[i+1] >= 0xdc00 && units[i+1] <= 0xdfff {
				r = utf16.DecodeRune(r, rune(units[i+1]))
				i++
			}
			in.runes = append(in.runes, r)
		}
		in.posMap = append(in.posMap, n)
	}
	s.regexLast = in
	return in
}

func posMapReverseLookup(posMap []int, pos int) (int, bool) {
	mapped := sort.SearchInts(posMap, pos)
	if mapped < len(posMap) && posMap[mapped] != pos {
		return mapped - 1, true
	}
	return mapped, false
}

// regexRun runs a match in growing slices of time. A slice past the first
// runs on a goroutine while the evaluation waits for it or for its own
// end (deadline, ctrl+c, heap cap); a slice it stops runs on, unread, at
// most until its own timeout, itself no longer than the time the match
// had already taken.
func (s *Shell) regexRun(re *regexp2.Regexp, runes []rune, start int) *regexp2.Match {
	ctx := s.ctx
	slice := regexFirstSlice
	m, err := findWithin(re, runes, start, slice)
	for isTimeout(err) {
		if err := ctx.Err(); err != nil {
			panic(s.stopNow(ctx))
		}
		slice *= 2
		if d, ok := ctx.Deadline(); ok {
			slice = max(min(slice, time.Until(d)), regexFirstSlice)
		}
		done := make(chan struct{})
		go func(slice time.Duration) {
			defer close(done)
			m, err = findWithin(re, runes, start, slice)
		}(slice)
		select {
		case <-done:
		case <-ctx.Done():
			panic(s.stopNow(ctx))
		}
	}
	if errors.Is(err, regexp2.ErrBacktrackingStackLimit) {
		s.throw("RangeError", msgTooDeep)
	}
	if err != nil {
		panic(s.vm.NewGoError(err))
	}
	return m
}

// findWithin matches re with a timeout of its own, on a copy of re (the
// compiled program and its pools are shared).
func findWithin(re *regexp2.Regexp, runes []rune, start int, timeout time.Duration) (*regexp2.Match, error) {
	timed := *re
	timed.MatchTimeout = timeout
	return timed.FindRunesMatchStartingAt(runes, start)
}

func isTimeout(err error) bool {
	return err != nil && strings.HasPrefix(err.Error(), "match timeout")
}

// stopNow is what a native panics with when the evaluation was stopped
// (deadline, ctrl+c, heap cap) while it ran: the interrupt goja raises
// between instructions, raised now.
func (s *Shell) stopNow(ctx context.Context) any {
	s.vm.Interrupt(context.Cause(ctx))
	return s.vm.NewGoError(context.Cause(ctx))
}

// patternToUnicode turns surrogate pairs written as \uXXXX\uXXXX into the
// character, as goja does for a full-unicode pattern.
func patternToUnicode(p string) string {
	var sb strings.Builder
	last := 0
	for i := 0; i < len(p); i++ {
		if p[i] != '\\' {
			continue
		}
		if i+12 <= len(p) && p[i+1] == 'u' && p[i+6] == '\\' && p[i+7] == 'u' {
			hi, err1 := strconv.ParseUint(p[i+2:i+6], 16, 16)
			lo, err2 := strconv.ParseUint(p[i+8:i+12], 16, 16)
			if err1 == nil && err2 == nil && hi >= 0xd800 && hi < 0xdc00 && lo >= 0xdc00 && lo <= 0xdfff {
				sb.WriteString(p[last:i])
				sb.WriteRune(utf16.DecodeRune(rune(hi), rune(lo)))
				i += 11
				last = i + 1
				continue
			}
		}
		i++ // an escape: what it escapes is not one
	}
	if last == 0 {
		return p
	}
	sb.WriteString(p[last:])
	return sb.String()
}

// patternToUTF16 writes characters beyond the BMP as \uXXXX\uXXXX pairs,
// as goja does for a pattern without the u flag.
func patternToUTF16(p string) string {
	var sb strings.Builder
	last := 0
	var prev rune
	for i, r := range p {
		if r > 0xffff {
			sb.WriteString(p[last:i])
			if prev == '\\' {
				sb.WriteByte('\\')
			}
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&sb, `\u%04x\u%04x`, hi, lo)
			last = i + len(string(r))
		}
		prev = r
	}
	if last == 0 {
		return p
	}
	sb.WriteString(p[last:])
	return sb.String()
}
