package shell

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Timers are Node's: the script waits for them, intervals tick until
// cleared, and an exception in a callback ends the script.
func TestTimers(t *testing.T) {
	sh := newTestShell(t, Options{})
	for _, tc := range []struct{ src, want string }{
		{"setTimeout(() => print('later'), 10); print('now')", "now\nlater\n"},
		{"setTimeout((a, b) => print(a + b), 5, 1, 2); setTimeout(() => print('first'), 1); void 0", "first\n3\n"},
		{"let n = 0; const id = setInterval(() => { n++; print('tick', n); if (n === 3) clearInterval(id) }, 5); print('scheduled')",
			"scheduled\ntick 1\ntick 2\ntick 3\n"},
		{"const t = setTimeout(() => print('never'), 5); clearTimeout(t); clearTimeout(+t); print('cleared')", "cleared\n"},
		{"setTimeout(() => print('never'), 60000).unref(); print('unref')", "unref\n"},
		{"queueMicrotask(() => print('micro')); setImmediate(() => print('immediate')); print('sync')", "sync\nmicro\nimmediate\n"},
	} {
		start := time.Now()
		res, err := sh.Eval(context.Background(), tc.src)
		if err != nil || res.Transcript != tc.want {
			t.Errorf("%s\n got %q, %v\nwant %q", tc.src, res.Transcript, err, tc.want)
		}
		if time.Since(start) > 5*time.Second {
			t.Errorf("%s took %s", tc.src, time.Since(start))
		}
	}
	res, err := sh.Eval(context.Background(), "setTimeout(() => { throw new Error('in a timer') }, 1); print('x')")
	if err == nil || res.Transcript != "x\nError: in a timer\n" {
		t.Errorf("a throwing timer: %q, %v", res.Transcript, err)
	}
	if _, err := sh.Eval(context.Background(), "setTimeout('not a function', 1)"); err == nil ||
		!strings.Contains(err.Error(), `TypeError: The "callback" argument must be of type function. Received type string ('not a function')`) {
		t.Errorf("a timer without a function: %v", err)
	}
}

// An interval that is never cleared runs until the evaluation's time
// limit, which stops it like any script.
func TestEndlessIntervalIsInterrupted(t *testing.T) {
	sh := newTestShell(t, Options{Timeout: 300 * time.Millisecond})
	before := runtime.NumGoroutine()
	res, err := sh.Eval(context.Background(), "let ticks = 0; setInterval(() => { ticks++ }, 1)")
	if !errors.Is(err, ErrTimeout) || !strings.HasSuffix(res.Transcript, "MongoshInterruptedError: execution exceeded the time limit of 300ms and was interrupted\n") {
		t.Fatalf("%q, %v", res.Transcript, err)
	}
	res, err = sh.Eval(context.Background(), "ticks > 10")
	if err != nil || res.Transcript != "true\n" {
		t.Errorf("the interval did not tick: %q, %v", res.Transcript, err)
	}
	// Nothing of the stopped script is left to fire.
	res, err = sh.Eval(context.Background(), "const seen = ticks; sleep(20); ticks === seen")
	if err != nil || res.Transcript != "true\n" {
		t.Errorf("the interval outlived its evaluation: %q, %v", res.Transcript, err)
	}
	checkNoGoroutinesLeft(t, before)
}

// A rejection nothing handles ends the script, as it ends a mongosh
// --file script; a statement's rejected Promise is its error.
func TestRejections(t *testing.T) {
	sh := newTestShell(t, Options{})
	for _, tc := range []struct {
		src, want string
		fails     bool
	}{
		{"async function f() { throw new Error('x') }\nf(); print('after')\nprint('end')", "after\nError: x\n", true},
		{"Promise.reject(new Error('y'))\nprint('end')", "Error: y\n", true},
		{"(async () => { throw new TypeError('z') })()", "TypeError: z\n", true},
		{"const p = Promise.reject(new Error('handled')); p.catch(e => print('caught', e.message)); 1", "caught handled\n1\n", false},
		// A Promise nothing can settle prints nothing.
		{"new Promise(() => {})\nprint('after')", "after\n", false},
	} {
		res, err := sh.Eval(context.Background(), tc.src)
		if (err != nil) != tc.fails || res.Transcript != tc.want {
			t.Errorf("%s\n got %q, %v\nwant %q", tc.src, res.Transcript, err, tc.want)
		}
	}
}

// quit() and exit() end the script at once, quietly, with their code;
// so does an exit line, as pasted into mongosh.
func TestQuit(t *testing.T) {
	sh := newTestShell(t, Options{})
	for _, tc := range []struct {
		src, want string
		code      int
	}{
		{"print(1)\nquit()\nprint(2)", "1\n", 0},
		{"print(1)\nquit(3)\nprint(2)", "1\n", 3},
		{"function f() { print('in'); exit(4); print('no') }\nf()\nprint('after')", "in\n", 4},
		{"try { quit(5) } finally { print('finally') }\nprint('after')", "", 5},
		{"print(1)\nexit\nprint(2)", "1\n", 0},
		{"(async () => { print('a'); await null; quit(6); print('no') })();\nprint('after')", "a\n", 6},
		{"setTimeout(() => quit(7), 1); setTimeout(() => print('never'), 50); print('x')", "x\n", 7},
	} {
		res, err := sh.Eval(context.Background(), tc.src)
		if err != nil || !res.Exited || res.ExitCode != tc.code || res.Transcript != tc.want {
			t.Errorf("%s\n got %q exited %v code %d, %v\nwant %q code %d", tc.src, res.Transcript, res.Exited, res.ExitCode, err, tc.want, tc.code)
		}
	}
	if res, err := sh.Eval(context.Background(), "'still here'"); err != nil || res.Exited || res.Transcript != "still here\n" {
		t.Errorf("after quit: %q %v %v", res.Transcript, res.Exited, err)
	}
}

// checkNoGoroutinesLeft fails when more goroutines run than before, once
// those that are ending have ended.
func checkNoGoroutinesLeft(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Promises inside a value print as Node prints them (without the
// async-hook symbols mongosh's Node adds).
func TestPromisesPrintAsNodes(t *testing.T) {
	sh := newTestShell(t, Options{})
	res, err := sh.Eval(context.Background(), "const settled = Promise.reject(new Error('r')); settled.catch(() => {});\n"+
		"({ a: Promise.resolve(3), b: new Promise(() => {}), c: settled, d: Promise.resolve({ x: [1, 2] }) })")
	want := "{\n  a: Promise { 3 },\n  b: Promise { <pending> },\n  c: Promise { <rejected> [Error: r] },\n  d: Promise { { x: [ 1, 2 ] } }\n}\n"
	if err != nil || res.Transcript != want {
		t.Errorf("got %q, %v\nwant %q", res.Transcript, err, want)
	}
}
