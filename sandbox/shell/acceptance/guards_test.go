package acceptance

import (
	"context"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schemalab/schemalab/sandbox/shell"
)

// guardCase is a script that must end with a given error (the last line
// of its transcript, matched whole) or output, in bounded time, with the
// session and the server working afterwards. Each of them took the
// process down, or ran on past every limit, before the guards (issue 21).
type guardCase struct {
	name, src string
	want      string // the transcript's last line; a regular expression when it starts with ^
	within    time.Duration
}

func runGuardCases(t *testing.T, sh *shell.Shell, cases []guardCase) {
	t.Helper()
	client, _ := startServer(t)
	for _, tc := range cases {
		start := time.Now()
		res, _ := sh.Eval(context.Background(), tc.src)
		took := time.Since(start)
		got := lastLine(res.Transcript)
		if strings.HasPrefix(tc.want, "^") {
			if !regexp.MustCompile(tc.want).MatchString(got) {
				t.Errorf("%s: ends with %q\nwant %s", tc.name, got, tc.want)
			}
		} else if got != tc.want {
			t.Errorf("%s: ends with %q\nwant %q", tc.name, got, tc.want)
		}
		// Whatever the script does, it ends in time (a loaded machine
		// given some slack).
		if within := max(tc.within, 5*time.Second); took > timeSlack*(within+10*time.Second) {
			t.Errorf("%s: took %s", tc.name, took)
		}
		if res, err := sh.Eval(context.Background(), "1 + 1"); err != nil || res.Transcript != "2\n" {
			t.Fatalf("after %s the session is broken: %q, %v", tc.name, res.Transcript, err)
		}
		if err := client.Ping(context.Background(), nil); err != nil {
			t.Fatalf("after %s the server is gone: %v", tc.name, err)
		}
	}
}

const tooDeep = "RangeError: Maximum call stack size exceeded"

// Source nested deeper than goja's parser can take (it recurses in Go,
// whose stack overflow is fatal) is refused before goja reads it, on
// every way code gets compiled, with V8's RangeError.
func TestDeepSourceIsRefusedOnEveryPathThatCompiles(t *testing.T) {
	client, _ := startServer(t)
	sh, err := shell.New(client, "guards", shell.Options{Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	deep := "'['.repeat(1e6) + ']'.repeat(1e6)"
	runGuardCases(t, sh, []guardCase{
		{"a script of deep parentheses", "x = " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000), tooDeep, 0},
		{"a script of deep arrays, after a statement that must not run", "print('ran')\n" + strings.Repeat("[", 100000) + strings.Repeat("]", 100000), tooDeep, 0},
		{"a script of a million-term sum", "x = " + strings.Repeat("1+", 1000000) + "1", tooDeep, 0},
		{"a script of a deep regular expression literal", "x = /" + strings.Repeat("(?=a", 5000) + strings.Repeat(")", 5000) + "/", tooDeep, 0},
		{"eval", "eval(" + deep + ")", tooDeep, 0},
		{"new Function", "new Function('('.repeat(1e6) + ')'.repeat(1e6))", tooDeep, 0},
		{"Function called", "Function('return ' + '('.repeat(1e5) + '1' + ')'.repeat(1e5))", tooDeep, 0},
		{"indirect eval", "(0, eval)(" + deep + ")", tooDeep, 0},
		{"globalThis.eval", "globalThis.eval(" + deep + ")", tooDeep, 0},
		{"eval under another name", "const e = eval; e(" + deep + ")", tooDeep, 0},
		{"eval through Reflect", "Reflect.apply(eval, null, [" + deep + "])", tooDeep, 0},
		{"Reflect.construct(Function)", "Reflect.construct(Function, [" + deep + "])", tooDeep, 0},
		{"the AsyncFunction constructor", "(async function () {}).constructor(" + deep + ")", tooDeep, 0},
		{"the GeneratorFunction constructor", "(function* () {}).constructor(" + deep + ")", tooDeep, 0},
		{"eval inside eval", "eval(\"(0, eval)(\" + JSON.stringify(" + deep + ") + \")\")", tooDeep, 0},
		{"eval of a million-term sum", "eval('1+'.repeat(1e6) + '1')", tooDeep, 0},
		{"a syntax error goja recovers from by nesting", "eval('try x; '.repeat(1e5))", "SyntaxError: Unexpected identifier", 0},
		{"a chain of the same label", "eval('a:'.repeat(5000) + '1')", "SyntaxError: Label 'a' already exists", 0},
		{"eval of what nests within the bound", "eval('1+'.repeat(1000) + '1')", "1001", 0},
		{"direct eval sees its function's variables", "function f() { var x = 41; return eval('x + 1') } f()", "42", 0},
		{"direct eval declares in its scope", "eval('var declared = 3'); declared", "3", 0},
		{"indirect eval runs in the global scope", "function g() { var local = 1; return (0, eval)('typeof local') } g()", "undefined", 0},
		{"new Function still works", "new Function('a', 'b', 'return a + b')(2, 3)", "5", 0},
		{"a function's constructor is Function", "(function () {}).constructor === Function && new Function('') instanceof Function", "true", 0},
	})
}

// Built-ins that call each other in Go (String of an array calls its
// toString, which calls join, which calls each element's toString) are
// bounded, as are those that recurse inside themselves; each gives V8's
// RangeError where Go's stack overflow ended the process.
func TestNativeRecursionGivesARangeError(t *testing.T) {
	client, _ := startServer(t)
	sh, err := shell.New(client, "guards", shell.Options{Timeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	eval(t, sh, "var deepArray = []; for (let i = 0; i < 1e5; i++) deepArray = [deepArray]; var deepObject = {}; for (let i = 0; i < 1e5; i++) deepObject = { o: deepObject }")
	runGuardCases(t, sh, []guardCase{
		{"String of a deep array", "String(deepArray)", tooDeep, 0},
		{"join", "deepArray.join()", tooDeep, 0},
		{"toString", "deepArray.toString()", tooDeep, 0},
		{"toLocaleString", "deepArray.toLocaleString()", tooDeep, 0},
		{"a template literal", "`${deepArray}`", tooDeep, 0},
		{"JSON.stringify of a deep array", "JSON.stringify(deepArray)", tooDeep, 0},
		{"JSON.stringify of a deep object", "JSON.stringify(deepObject)", tooDeep, 0},
		{"JSON.parse of deep text", "JSON.parse('['.repeat(1e5) + ']'.repeat(1e5))", tooDeep, 0},
		{"flat", "deepArray.flat(Infinity)", tooDeep, 0},
		{"a toString that is toLocaleString", "var x = {}; x.toString = x.toLocaleString; String(x)", tooDeep, 0},
		{"a join that is toString", "var o = {}; o.join = Array.prototype.toString; o.join()", tooDeep, 0},
		{"an error named after itself", "var e = { message: '' }; e.name = e; e.toString = Error.prototype.toString; String(e)", tooDeep, 0},
		{"a toString that is a String method", "var s = {}; s.toString = String.prototype.trim; String(s)", tooDeep, 0},
		{"a valueOf bound to a Math function", "var v = {}; v.valueOf = Math.abs.bind(null, v); +v", tooDeep, 0},
		{"a chain of proxies", "var p = {}; for (let i = 0; i < 3e5; i++) p = new Proxy(p, Reflect); p.x", tooDeep, 0},
		{"a chain of bound functions", "var f = () => 1; for (let i = 0; i < 3000; i++) { f = f.bind(null); Object.defineProperty(f, 'name', { value: '' }) } f()", tooDeep, 0},
		{"printing a deep object (as deep as the printer goes)", "deepObject", "}", 0},
		{"inserting a deep object", "db.deep.insertOne(deepObject)", "BSONError: cyclic or too deeply nested object", 0},
		{"String of a nested array V8 also prints", "var a3000 = []; for (let i = 0; i < 3000; i++) a3000 = [a3000, 1]; String(a3000).length", "6000", 0},
		{"flat within the bound", "[1, [2, [3, [4]]]].flat(Infinity)", "[ 1, 2, 3, 4 ]", 0},
		{"JSON within the bound", "JSON.stringify({ a: [1, { b: 2 }] }, null, 1).length + JSON.stringify({ a: 1, b: 2, c: { a: 3, d: 4 } }, ['c', 'a'])", `37{"c":{"a":3},"a":1}`, 0},
	})
}

// A backtracking regular expression stops with the evaluation's deadline,
// and with ctrl+c (its context cancelled), instead of running on in Go.
func TestRegularExpressionsStopWithTheEvaluation(t *testing.T) {
	client, _ := startServer(t)
	sh, err := shell.New(client, "guards", shell.Options{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	runGuardCases(t, sh, []guardCase{
		{"a catastrophic backtracking test", "/^(?=a)(a+)+$/.test('a'.repeat(40) + 'b')",
			"MongoshInterruptedError: execution exceeded the time limit of 2s and was interrupted", 2 * time.Second},
		{"the same inside replace", "('a'.repeat(40) + 'b').replace(/^(?=a)(a+)+$/, 'x')",
			"MongoshInterruptedError: execution exceeded the time limit of 2s and was interrupted", 2 * time.Second},
		{"a pattern nested too deeply", "new RegExp('(?='.repeat(5000) + ')'.repeat(5000))",
			"^SyntaxError: Invalid regular expression: /.*/: Regular expression too large$", 0},
		{"a string match makes a pattern of", "'x'.match('('.repeat(5000) + ')'.repeat(5000))",
			"^SyntaxError: Invalid regular expression: /.*/: Regular expression too large$", 0},
		{"exec", "/a(b)?c/.exec('xacy').concat(/(?<y>\\d{4})/.exec('in 2024').groups.y)", "[ 'ac', undefined, '2024' ]", 0},
		{"replace, split, matchAll, search", "['a1b22'.replace(/\\d+/g, (d) => d.length), 'a,b;c'.split(/[,;]/).length, [...'a1b22'.matchAll(/\\d+/g)].length, 'xAbc'.search(/b/)].join()", "a1b2,3,2,2", 0},
		{"sticky and global state", "var r = /a/g; r.test('aa'); [r.lastIndex, /a/y.test('ba')].join()", "1,false", 0},
		{"full unicode", "'😀x'.match(/./gu).length + '😀x'.match(/./g).length", "5", 0},
		// A long string the shell made in Go (an ObjectId's hex, a
		// restored global) is one goja holds by pointer.
		{"a string made by the shell", "[/^[0-9a-f]{24}$/.test(new ObjectId().toHexString()), /z/.test(new ObjectId().toHexString())].join()", "true,false", 0},
	})

	// ctrl+c: the evaluation's context is cancelled.
	long, err := shell.New(client, "guards", shell.Options{Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(time.Second, cancel)
	start := time.Now()
	res, _ := long.Eval(ctx, "/^(?=a)(a+)+$/.test('a'.repeat(40) + 'b')")
	if got := lastLine(res.Transcript); got != "MongoshInterruptedError: execution was interrupted" {
		t.Errorf("cancelled: %q", got)
	}
	if took := time.Since(start); took > 6*time.Second {
		t.Errorf("cancelled after 1s, the match ran %s", took)
	}
	if res, err := long.Eval(context.Background(), "/b+/.exec('abbbc')[0]"); err != nil || res.Transcript != "bbb\n" {
		t.Errorf("after the cancel: %q, %v", res.Transcript, err)
	}
}

// Built-ins asked to allocate more than V8 allows refuse with V8's error,
// and more than the heap cap holds with an error that names the cap,
// before they allocate: one allocation the Go runtime cannot make ends the
// process.
func TestAllocatingBuiltInsRefuseWhatTheyCannotHold(t *testing.T) {
	client, _ := startServer(t)
	sh, err := shell.New(client, "guards", shell.Options{Timeout: 30 * time.Second, HeapLimit: 128 << 20})
	if err != nil {
		t.Fatal(err)
	}
	// What the refusal says is left depends on what the script allocated
	// before, in the same evaluation.
	const over = `^RangeError: The (array|string) would take \d+ (MB|GB), more than the (128 MB of memory a script may use|\d+ MB the session may still use \(of its 128 MB\))$`
	// A result built a piece at a time meets the heap cap before V8's
	// longest string (which takes 512 MB or more). What the session's
	// earlier cases left charged (a megabyte or so) may be named.
	const stopped = `^MongoshInterruptedError: (script used more than 128 MB of memory(, with the \d+ MB the session's variables held,)? and was interrupted; the shell was restarted to free it, so its variables are gone|execution exceeded the time limit of 30s and was interrupted)$`
	runGuardCases(t, sh, []guardCase{
		{"joining four billion holes", "Array(2**32-1).join('ab')", "RangeError: Invalid string length", 0},
		{"Array.from four billion", "Array.from({ length: 2**32-1 })", over, 0},
		{"repeat past V8's longest string", "'x'.repeat(2**29)", "RangeError: Invalid string length", 0},
		{"padStart past it", "'x'.padStart(2**30)", "RangeError: Invalid string length", 0},
		{"padEnd past the cap", "'x'.padEnd(2**28, 'é')", over, 0},
		{"concat past it", "'ab'.concat('x'.repeat(2**26), 'y'.repeat(2**26))", over, 0},
		{"an array V8 refuses", "new Array(2**32)", "RangeError: Invalid array length", 0},
		{"the longest array, empty", "new Array(2**32-1).length", "4294967295", 0},
		{"filling it", "Array(2**32-1).fill(0)", over, 0},
		{"filling a hundred million", "new Array(1e8).fill(0)", over, 0},
		{"a typed array V8 refuses", "new Uint8Array(2**40)", "RangeError: Invalid typed array length: 1099511627776", 0},
		{"a typed array past the cap", "new Float64Array(2**28)", "RangeError: Array buffer allocation failed", 0},
		{"a buffer past the cap", "new ArrayBuffer(2**31)", "RangeError: Array buffer allocation failed", 0},
		{"a buffer V8 refuses", "new ArrayBuffer(2**53)", "RangeError: Invalid array buffer length", 0},
		{"apply of four billion arguments", "Math.max.apply(null, { length: 2**32-1 })", tooDeep, 0},
		{"Reflect.apply of two billion", "Reflect.apply(Math.max, null, { length: 2**31 })", tooDeep, 0},
		{"fromCharCode of a hundred million", "String.fromCharCode.apply(null, new Array(1e8))", tooDeep, 0},
		{"splitting twenty million characters", "'x'.repeat(2e7).split('')", over, 0},
		{"the keys of twenty million characters", "Object.keys('x'.repeat(2e7))", over, 0},
		{"replace with a huge result", "'x'.repeat(2e4).replace(/x/g, 'y'.repeat(3e4))", stopped, 30 * time.Second},
		{"replaceAll with a huge result", "'x'.repeat(2e4).replaceAll('x', 'y'.repeat(3e4))", stopped, 30 * time.Second},
		{"replace with what follows each match", "'x'.repeat(1e5).replace(/x/g, \"$'\")", stopped, 30 * time.Second},
		{"replacements as V8 makes them", "['a-b-c'.replace(/(\\w)-/g, '$1+'), '2024-05'.replace(/(?<y>\\d+)-(?<m>\\d+)/, '$<m>/$<y> [$&] $$'), 'abc'.replace('b', (m, p) => m.toUpperCase() + p)].join(' ')", "a+b+c 05/2024 [2024-05] $ aB1c", 0},
		{"what fits still works", "[1, [2, 3], null, 4].join('-') + 'ab'.repeat(3) + 'x'.padStart(3, '.') + new Uint8Array([1, 2]).length", "1-2,3--4ababab..x2", 0},
	})
}

// The heap cap is the session's: what an evaluation leaves reachable
// counts against the next ones. A large allocation that no longer fits is
// refused and the session keeps its variables; growth past the cap a
// little at a time stops the script and restarts the runtime.
func TestTheHeapCapIsTheSessions(t *testing.T) {
	client, _ := startServer(t)
	sh, err := shell.New(client, "guards", shell.Options{Timeout: time.Minute, HeapLimit: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	runGuardCases(t, sh, []guardCase{
		{"a global", "var g = []", "", 0},
		{"40 MB into it", "g.push('x'.repeat(40e6)); g.length", "1", 0},
		{"40 MB more", "g.push('x'.repeat(40e6)); g.length",
			`^RangeError: The string would take 38 MB, more than the \d+ MB the session may still use \(of its 64 MB\)$`, 0},
		{"the session kept it", "g.length + g[0].length", "40000001", 0},
		{"growing past the cap a megabyte at a time", "for (let i = 0; i < 40; i++) g.push('y'.repeat(1e6) + i)",
			`^MongoshInterruptedError: script used more than 64 MB of memory, with the \d+ MB the session's variables held, and was interrupted; the shell was restarted to free it, so its variables are gone$`, 0},
		{"the variables are gone", "typeof g", "undefined", 0},
		{"30 MB", "var h = []; for (let i = 0; i < 30; i++) h.push('z'.repeat(1e6) + i); h.length", "30", 0},
		{"let go of", "h = null", "null", 0},
		{"room again", "var k = []; for (let i = 0; i < 30; i++) k.push('z'.repeat(1e6) + i); k.length", "30", 0},
		{"and for one large string", "k = null; var big = 'q'.repeat(50e6); big.length", "50000000", 0},
	})
}

// A lesson re-runs a step by restoring the state before it, outside any
// evaluation, which lets go of what the last run made: here the data it
// stored in the server, which runs in this process. Re-running it must
// not be charged again and again until a step that fits many times over
// is stopped; what a restore keeps (an array a checkpointed global still
// points to) stays charged.
func TestTheHeapCapCreditsWhatARestoreLetGo(t *testing.T) {
	client, _ := startServer(t)
	stored := client.Database("guards").Collection("step")
	sh, err := shell.New(client, "guards", shell.Options{Timeout: time.Minute, HeapLimit: 128 << 20})
	if err != nil {
		t.Fatal(err)
	}
	eval := func(src string) string {
		t.Helper()
		res, _ := sh.Eval(context.Background(), src)
		return lastLine(res.Transcript)
	}
	eval("var kept = []")
	before := sh.SaveGlobals()
	for run := range 8 {
		if got := eval(`db.step.insertMany(Array.from({length: 100}, (_, i) => ({i, s: "q".repeat(1e5)}))); db.step.countDocuments()`); got != "100" {
			t.Fatalf("run %d of the step: %s", run+1, got)
		}
		if err := stored.Drop(context.Background()); err != nil {
			t.Fatal(err)
		}
		sh.RestoreGlobals(before)
		// A collection between the restore and the next run, as the
		// runtime makes whenever it likes, shows the live heap without
		// the run's data.
		runtime.GC()
	}
	// 57 MB at a time into the array the checkpoint keeps, with a
	// restore between: the cap is met by the third at the latest.
	for push := 1; ; push++ {
		got := eval("kept.push('k'.repeat(60e6)); kept.length")
		if strings.HasPrefix(got, "RangeError: The string would take 57 MB") {
			break
		}
		if got != strconv.Itoa(push) || push == 3 {
			t.Fatalf("push %d into the kept array: %s", push, got)
		}
		sh.RestoreGlobals(before)
		runtime.GC()
	}
}
