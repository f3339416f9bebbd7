package shell

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// evalOK evaluates src and returns its transcript, failing on an error.
func evalOK(t testing.TB, sh *Shell, src string) string {
	t.Helper()
	res, err := sh.Eval(context.Background(), src)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return res.Transcript
}

// A checkpoint exported from one session and imported into another gives
// the second the first one's globals: the same values printed the same
// way, functions that work on the importing session's own state, shared
// objects still shared, and later changes on either side kept apart.
func TestPortableGlobalsCarryValuesAndFunctions(t *testing.T) {
	from := newTestShell(t, Options{})
	fromBase := from.SaveGlobals()
	evalOK(t, from, `
var n = 42, neg = -0, f = 1.5, s = 'żółw', yes = true, nothing = null, undef = undefined
var big = 12345678901234567890n
const when = new Date('2026-09-01T00:00:00Z'), bad = new Date('nope')
let re = /a\/b/gi
var doc = { a: 1, nested: { list: [1, 'two', { three: 3 }], at: ISODate('2026-01-02T03:04:05Z') } }
doc.self = doc
var alias = doc.nested
var holes = [1, , 3]; holes.length = 5
var ids = [ObjectId('6ad39b39a4366d64684ef1bf'), NumberLong('9007199254740993'), NumberDecimal('1.10'), Int32(7), UUID('0123456789abcdef0123456789abcdef')]
var m = new Map([['k', { v: 1 }], [2, 'two']]), set = new Set([1, 'x'])
var bare = Object.create(null); bare.k = 'v'
function addOne(x) { return x + n - 41 }
const hour = (d) => new Date(Math.floor(d.getTime() / 3600000) * 3600000)
var usesHelper = () => hour(when).toISOString() + ' ' + addOne(1)
class Point { constructor(x) { this.x = x } norm() { return Math.abs(this.x) } }
var log = print
var gen = function* () { yield n }
var later = async () => n + 1
var pair = (a) => ({ a, 'b c': n })
async function laterToo() { return (await later()) + 1 }
var settled = Promise.resolve({ ok: 1 })
`)
	p := from.ExportGlobals(fromBase)
	if len(p.Unportable()) != 0 {
		t.Fatalf("unportable: %+v", p.Unportable())
	}
	to := newTestShell(t, Options{})
	evalOK(t, to, "var leftover = 1; n = 'not yet'")
	if err := to.ImportGlobals(to.SaveGlobals(), p); err != nil {
		t.Fatal(err)
	}
	// The import starts from the base given, so a global of the importing
	// session that the checkpoint does not have is gone. (This base was
	// taken after leftover, so it stays; see the next test for a clean one.)
	show := `[n, Object.is(neg, -0), f, s, yes, nothing, undef, typeof big, big.toString(), when, isNaN(bad.getTime()), re.source, re.flags,
  doc.nested.list, doc.self === doc, alias === doc.nested, doc.nested.at, holes.length, 1 in holes, holes[2],
  ids, m.get('k'), m.get(2), set.has('x'), Object.getPrototypeOf(bare), bare.k,
  addOne(1), hour(when), usesHelper(), new Point(-3).norm(), log === print, gen().next().value, settled, later(), laterToo(), pair(1), pair.toString()]`
	want := evalOK(t, from, show)
	if got := evalOK(t, to, show); got != want {
		t.Fatalf("imported globals differ\n got: %s\nwant: %s", got, want)
	}
	// The copies are the importing session's: changing one side leaves
	// the other as it was.
	evalOK(t, to, "doc.nested.list.push(4); n = 0")
	if got := evalOK(t, from, "[doc.nested.list.length, n]"); got != "[ 3, 42 ]\n" {
		t.Fatalf("the exporting session saw the importer's changes: %s", got)
	}
}

func TestPortableGlobalsReplaceTheImportersOwn(t *testing.T) {
	from := newTestShell(t, Options{})
	fromBase := from.SaveGlobals()
	evalOK(t, from, "var kept = 1")
	p := from.ExportGlobals(fromBase)
	to := newTestShell(t, Options{})
	base := to.SaveGlobals()
	evalOK(t, to, "var mine = 2; kept = 'mine'")
	if err := to.ImportGlobals(base, p); err != nil {
		t.Fatal(err)
	}
	if got := evalOK(t, to, "[typeof mine, kept]"); got != "[ 'undefined', 1 ]\n" {
		t.Fatalf("after the import: %s", got)
	}
	if got := p.Names(); len(got) != 1 || got[0] != "kept" {
		t.Fatalf("names carried: %v", got)
	}
}

// What a copy made from source could not reproduce is listed with its
// reason, and whatever depends on it is left out too.
func TestPortableGlobalsListWhatTheyCannotCarry(t *testing.T) {
	sh := newTestShell(t, Options{})
	base := sh.SaveGlobals()
	evalOK(t, sh, `
var counter = (() => { let c = 0; return () => ++c })()
var usesCounter = () => counter() + 1
var usesUsesCounter = function () { return usesCounter() }
var bound = function () {}.bind(null)
var nativeFn = Math.max
var cursor = db.c.find()
var coll = db.c
var inst = new (class Thing {})()
var getter = { get x() { return 1 } }
var method = { m() { return 1 } }.m
var sym = Symbol('s')
var err = new Error('x')
var huge = Array.from({ length: 20000 }, (_, i) => ({ i }))
var fine = 1
`)
	p := sh.ExportGlobals(base)
	got := map[string]string{}
	for _, u := range p.Unportable() {
		got[u.Name] = u.Reason
	}
	for name, reason := range map[string]string{
		"counter":         "uses c, a variable of the code that made it",
		"usesCounter":     "reads counter",
		"usesUsesCounter": "reads usesCounter",
		"bound":           "built-in or bound",
		"nativeFn":        "built-in or bound",
		"cursor":          "shell",
		"coll":            "shell Collection",
		"inst":            "instance of Thing",
		"getter":          "getter",
		"method":          "method",
		"sym":             "symbol",
		"err":             "Error",
		"huge":            "more than 10000 values",
	} {
		if !strings.Contains(got[name], reason) {
			t.Errorf("%s: reason %q, want it to mention %q", name, got[name], reason)
		}
	}
	if names := p.Names(); len(names) != 1 || names[0] != "fine" {
		t.Errorf("carried %v, want only fine", names)
	}
}

func TestFreeNames(t *testing.T) {
	for src, want := range map[string]string{
		"(a, { b, c: [d = e] }, ...rest) => a + b + d + rest.length + f":                             "[e f]",
		"function g(x) { var y = x.prop; let { z } = o; return g(y) + z + w.k }":                     "[o w]",
		"() => { try { t() } catch ({ message }) { return message + q } }":                           "[q t]",
		"function () { for (const k of ks) lbl: for (;;) { break lbl } return { k, [n]: 1, m: 2 } }": "[ks n]",
		"class A extends B { #p = 1; static s = S; m() { return this.#p + C } }":                     "[B C S]",
		"() => `${a}` + new.target": "[a]",
	} {
		free, err := freeNames(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if got := fmt.Sprint(free); got != want {
			t.Errorf("%s: free names %s, want %s", src, got, want)
		}
	}
}

// BenchmarkImportGlobals measures giving a session MaxPortableValues
// values (documents of a few fields) from a checkpoint: the most an
// import ever copies into one session.
//
//	go test -run '^$' -bench ImportGlobals ./sandbox/shell
func BenchmarkImportGlobals(b *testing.B) {
	from, err := New(nil, "test", Options{})
	if err != nil {
		b.Fatal(err)
	}
	base := from.SaveGlobals()
	// Each document is 5 values: itself and its four fields.
	evalOK(b, from, fmt.Sprintf("var docs = Array.from({ length: %d }, (_, i) => ({ i, s: 's' + i, d: new Date(i) }))", MaxPortableValues/5-1))
	p := from.ExportGlobals(base)
	if len(p.Unportable()) > 0 {
		b.Fatal(p.Unportable())
	}
	to, err := New(nil, "test", Options{})
	if err != nil {
		b.Fatal(err)
	}
	toBase := to.SaveGlobals()
	b.ResetTimer()
	for range b.N {
		if err := to.ImportGlobals(toBase, p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(p.Values()), "values")
}
