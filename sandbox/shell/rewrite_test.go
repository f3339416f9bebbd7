package shell

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The rewrite of async functions (rewrite.go) must leave every program
// meaning what it meant: only the shell's own Promises are waited for.
func TestAsyncRewriteKeepsMeaning(t *testing.T) {
	sh := newTestShell(t, Options{})
	for _, tc := range []struct{ src, want string }{
		// Immediately invoked, its callee in parentheses.
		{"(async () => 1 + 1)()", "2\n"},
		{"((async () => { return 'iife' }))()", "iife\n"},
		// Method calls keep their this; chains and nested calls.
		{"(async () => { const o = { n: 2, f() { return this.n } }; return o.f() * [1, 2].map(x => x * 3).reduce((a, b) => a + b) })()", "18\n"},
		// A user's Promise is not waited for unless awaited.
		{"(async () => { const p = Promise.resolve(5); return [typeof p.then, await p] })()", "[ 'function', 5 ]\n"},
		// A call on an awaited value in parentheses.
		{"(async () => (await Promise.resolve([1, 2])).map(x => x * 2))()", "[ 2, 4 ]\n"},
		{"(async () => { const r = (await Promise.resolve('a')).toUpperCase(); return r })()", "A\n"},
		// Optional calls short-circuit as before.
		{"(async () => { const o = null; const q = { f: () => 7 }; return [o?.f(), o?.f().g(), q?.f(), q.g?.()] })()", "[ undefined, undefined, 7, undefined ]\n"},
		// Calls in arguments, templates, conditions, default parameters.
		{"(async (a = String(4)) => `${a}:${Math.max(1, Number('3'))}:${[1].includes(1) ? 'y' : 'n'}`)()", "4:3:y\n"},
		// Class bodies: async methods and super calls.
		{"class A { async v() { return 1 } }\nclass B extends A { async v() { return (await super.v()) + Math.abs(-1) } }\nnew B().v()", "2\n"},
		// Nested plain functions inside async ones stay plain.
		{"(async () => { function plain() { return [1, 2].map(String) } return plain() })()", "[ '1', '2' ]\n"},
		// An async arrow with an object literal body.
		{"(async () => ({ a: Object.keys({ x: 1 }) }))()", "{ a: [ 'x' ] }\n"},
		// Functions print with the source they were written with.
		{"(async function named() { return Math.abs(-2) }).toString()", "async function named() { return Math.abs(-2) }\n"},
		// Microtasks run in the order the language gives them.
		{"(async () => { const order = []; const a = (async () => { order.push('a1'); await null; order.push('a2') })(); order.push('main'); await a; return order })()",
			"[ 'a1', 'main', 'a2' ]\n"},
	} {
		res, err := sh.Eval(context.Background(), tc.src)
		if err != nil || res.Transcript != tc.want {
			t.Errorf("%s\n got %q, %v\nwant %q", tc.src, res.Transcript, err, tc.want)
		}
	}
}

// for await, which goja lacks, works as in mongosh: over async
// iterables and over plain ones, with each kind of declaration.
func TestForAwait(t *testing.T) {
	sh := newTestShell(t, Options{})
	for _, tc := range []struct{ src, want string }{
		{"(async () => { const out = []; for await (const x of [Promise.resolve(1), 2]) out.push(x); return out })()", "[ 1, 2 ]\n"},
		{"(async () => { const out = []; const it = { [Symbol.asyncIterator]() { let i = 0; return { next: async () => ({ done: i >= 3, value: i++ }) } } };\n" +
			"for await (let x of it) { if (x === 1) continue; out.push(x) } return out })()", "[ 0, 2 ]\n"},
		{"(async () => { let last; for await (last of ['a', 'b']); return last })()", "b\n"},
		{"(async () => { const out = []; for await (const { k } of [{ k: 1 }, { k: 2 }]) for await (const y of [k * 10]) out.push(y); return out })()", "[ 10, 20 ]\n"},
		{"(async () => { const out = []; outer: for await (var v of [1, 2, 3]) { for (const w of [0]) { if (v === 2) continue outer } if (v === 3) break; out.push(v) } return [out, v] })()",
			"[ [ 1 ], 3 ]\n"},
		// Inside a string it is no loop.
		{"'for await (x of y)'", "for await (x of y)\n"},
	} {
		res, err := sh.Eval(context.Background(), tc.src)
		if err != nil || res.Transcript != tc.want {
			t.Errorf("%s\n got %q, %v\nwant %q", tc.src, res.Transcript, err, tc.want)
		}
	}
}

// await outside an async function is mongosh's SyntaxError, with its
// code frame, and nothing runs: testdata/async/syntax holds what mongosh
// 2.12 --file printed for each script there.
func TestAwaitOutsideAsyncIsASyntaxError(t *testing.T) {
	sh := newTestShell(t, Options{})
	scripts, err := filepath.Glob("testdata/async/syntax/*.js")
	if err != nil || len(scripts) == 0 {
		t.Fatal("no scripts", err)
	}
	for _, path := range scripts {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(strings.TrimSuffix(path, ".js") + ".mongosh.txt")
		if err != nil {
			t.Fatal(err)
		}
		res, err := sh.Eval(context.Background(), string(src))
		if err == nil || res.Transcript != string(want) || res.Printed != "" {
			t.Errorf("%s\n got %q, %v\nwant %q", path, res.Transcript, err, want)
		}
	}
}

// Interactive front ends see an await error as a complete input: it is
// reported at once, not continued.
func TestAwaitErrorIsACompleteInput(t *testing.T) {
	if !InputComplete("await f()\n") || InputComplete("(async () => {\n  await f()\n") {
		t.Error("InputComplete misreads await")
	}
}

// Code built to make the rewrite work hard (deep nesting, parentheses
// around every callee) compiles in bounded time and still runs; nested
// past the nesting bound, it is refused as V8 refuses it.
func TestAsyncRewriteOfHostileCodeIsBounded(t *testing.T) {
	sh := newTestShell(t, Options{})
	for _, tc := range []struct {
		src, want string
	}{
		{"const f = (x) => x; (async () => " + strings.Repeat("f(", 900) + "1" + strings.Repeat(")", 900) + ")()", "1\n"},
		{"const f = (x) => x; (async () => " + strings.Repeat("(f)(", 600) + "1" + strings.Repeat(")", 600) + ")()", "1\n"},
		{"const f = (x) => x; (async () => " + strings.Repeat("(await f(", 350) + "1" + strings.Repeat("))", 350) + ")()", "1\n"},
		{"const g = (x) => x; (async () => " + strings.Repeat("(", 50) + "g" + strings.Repeat(")", 50) + "(1))()", "1\n"},
		{"const f = (x) => x; (async () => " + strings.Repeat("f(", 3000) + "1" + strings.Repeat(")", 3000) + ")()", "RangeError: Maximum call stack size exceeded\n"},
		{"const f = (x) => x; (async () => " + strings.Repeat("(await f(", 3000) + "1" + strings.Repeat("))", 3000) + ")()", "RangeError: Maximum call stack size exceeded\n"},
	} {
		start := time.Now()
		res, _ := sh.Eval(context.Background(), tc.src)
		if res.Transcript != tc.want {
			t.Errorf("%.60s...: %q, want %q", tc.src, res.Transcript, tc.want)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%.60s... took %s", tc.src, d)
		}
	}
}
