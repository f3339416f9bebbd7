package shell

import (
	"testing"
)

// A checkpoint that crosses to another process as bytes (a classroom's
// template, sent to a student's session) imports as the checkpoint itself
// would: the same values, shared objects and cycles, BSON wrappers and
// functions.
func TestPortableGlobalsSurviveBytes(t *testing.T) {
	from := newTestShell(t, Options{})
	fromBase := from.SaveGlobals()
	evalOK(t, from, `
var n = 42, neg = -0, f = 1.5, inf = -Infinity, nan = NaN, s = 'żółw', yes = true, nothing = null, undef = undefined
var big = 12345678901234567890n
const when = new Date('2026-09-01T00:00:00Z'), bad = new Date('nope')
let re = /a\/b/gi
var doc = { a: 1, nested: { list: [1, 'two', { three: 3 }], at: ISODate('2026-01-02T03:04:05Z') } }
doc.self = doc
var alias = doc.nested
var holes = [1, , 3]; holes.length = 5
var ids = [ObjectId('6ad39b39a4366d64684ef1bf'), NumberLong('9007199254740993'), NumberDecimal('1.10'), Int32(7), Double(2), UUID('0123456789abcdef0123456789abcdef'), Timestamp({t: 1, i: 2}), MinKey(), MaxKey()]
var m = new Map([['k', { v: 1 }], [2, 'two']]), set = new Set([1, 'x'])
var bare = Object.create(null); bare.k = 'v'
function addOne(x) { return x + n - 41 }
var usesHelper = () => addOne(1) + ' ' + when.toISOString()
var log = print
var settled = Promise.resolve({ ok: 1 })
`)
	p := from.ExportGlobals(fromBase)
	if len(p.Unportable()) != 0 {
		t.Fatalf("unportable: %+v", p.Unportable())
	}
	raw, err := p.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := UnmarshalPortable(raw)
	if err != nil {
		t.Fatal(err)
	}
	to := newTestShell(t, Options{})
	if err := to.ImportGlobals(to.SaveGlobals(), back); err != nil {
		t.Fatal(err)
	}
	show := `[n, Object.is(neg, -0), f, inf, nan, s, yes, nothing, undef, typeof big, big.toString(), when, isNaN(bad.getTime()), re.source, re.flags,
  doc.nested.list, doc.self === doc, alias === doc.nested, doc.nested.at, holes.length, 1 in holes, holes[2],
  ids, m.get('k'), m.get(2), set.has('x'), Object.getPrototypeOf(bare), bare.k,
  addOne(1), usesHelper(), log === print, settled]`
	want := evalOK(t, from, show)
	if got := evalOK(t, to, show); got != want {
		t.Fatalf("globals that crossed as bytes differ\n got: %s\nwant: %s", got, want)
	}
	if back.Values() != p.Values() || back.DB() != p.DB() {
		t.Fatalf("values %d, db %q; want %d, %q", back.Values(), back.DB(), p.Values(), p.DB())
	}
}

// Bytes that are not a checkpoint are refused, never half imported.
func TestPortableGlobalsRefuseBrokenBytes(t *testing.T) {
	from := newTestShell(t, Options{})
	base := from.SaveGlobals()
	evalOK(t, from, `var doc = { a: [1, 2, { b: 3 }] }`)
	raw, err := from.ExportGlobals(base).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{0, 1, len(raw) / 2, len(raw) - 1} {
		if _, err := UnmarshalPortable(raw[:cut]); err == nil {
			t.Errorf("%d of %d bytes decoded without an error", cut, len(raw))
		}
	}
}
