package acceptance

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/schemalab/schemalab/sandbox/shell"
)

// Scripts a classroom will meet. Each must end with a clear error (or the
// output mongosh prints), in bounded time, with the session and the server
// still working afterwards.
func TestHostileScriptsEndCleanly(t *testing.T) {
	client, _ := startServer(t)
	quick, err := shell.New(client, "hostile", shell.Options{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	// Scripts that must be stopped by the heap cap, or that take their
	// time, get a deadline that cannot be what stops them.
	roomy, err := shell.New(client, "hostile", shell.Options{Timeout: time.Minute, HeapLimit: 128 << 20, MaxOutput: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	eval(t, quick, "db.ok.insertOne({ _id: 1 })")
	for _, tc := range []struct {
		name, src string
		// want is the transcript's last line (the error), or the whole
		// transcript when ok is set.
		want  string
		ok    bool
		roomy bool
	}{
		{"an Error whose message getter loops", `const e1 = new Error('x'); Object.defineProperty(e1, 'message', { get() { for (;;) {} } }); throw e1`,
			"MongoshInterruptedError: execution exceeded the time limit of 2s and was interrupted", false, false},
		{"an Error whose message getter throws", `const e2 = new Error('x'); Object.defineProperty(e2, 'message', { get() { throw new Error('inner') } }); throw e2`,
			"Error: inner", false, false},
		{"an Error whose getters throw Errors like it", `function evil() { const e = new Error('x'); Object.defineProperty(e, 'message', { get() { throw evil() } }); return e }; throw evil()`,
			"Error: the script threw an error that cannot be printed", false, false},
		{"a thrown Proxy whose getPrototypeOf throws", `throw new Proxy({}, { getPrototypeOf() { throw new Error('nope') } })`,
			"Error: {}", false, false},
		{"printing a Proxy whose traps throw", `print(new Proxy({ a: 1 }, { getPrototypeOf() { throw 1 }, get() { throw 2 }, ownKeys() { throw 3 } }))`,
			"{ a: 1 }\n", true, false},
		{"a sparse array of four billion holes", `const holes = []; holes[4294967294] = 1; printjson(holes)`,
			"[\n  <4294967294 empty items>,\n  1\n]\n", true, false},
		{"inserting it", `db.c.insertOne({ holes })`,
			`RangeError: The value of "offset" is out of range. It must be >= 0 && <= 17825792. Received 17825793`, false, false},
		{"querying with it", `db.c.find({ a: { $in: holes } }).toArray()`,
			`RangeError: The value of "offset" is out of range. It must be >= 0 && <= 17825792. Received 17825793`, false, false},
		{"a string past the BSON limit", `db.c.insertOne({ s: 'x'.repeat(18 << 20) })`,
			`RangeError: The value of "offset" is out of range. It must be >= 0 && <= 17825792. Received 17825793`, false, true},
		{"allocating without end", `const hoard = []; for (;;) hoard.push({ i: hoard.length, pad: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' })`,
			"MongoshInterruptedError: script used more than 128 MB of memory and was interrupted; the shell was restarted to free it, so its variables are gone", false, true},
		{"a string doubling without end", `let big = 'x'; for (;;) big += big`,
			"MongoshInterruptedError: script used more than 128 MB of memory and was interrupted; the shell was restarted to free it, so its variables are gone", false, true},
		{"an endless loop", `for (;;) {}`,
			"MongoshInterruptedError: execution exceeded the time limit of 2s and was interrupted", false, false},
		{"endless recursion", `function down() { return down() } down()`,
			"RangeError: Maximum call stack size exceeded", false, false},
		{"a toString that throws while printing", `print({ toString() { throw new Error('ts') } } + '')`,
			"Error: ts", false, false},
		{"a getter that throws while inserting", `db.c.insertOne({ get x() { throw new Error('getter') } })`,
			"Error: getter", false, false},
		{"a getter that loops while inserting", `db.c.insertOne({ get x() { for (;;) {} } })`,
			"MongoshInterruptedError: execution exceeded the time limit of 2s and was interrupted", false, false},
		{"printing a huge array", `printjson(Array.from({ length: 1e6 }, (_, i) => i)).length`,
			"[output truncated: more than 65536 bytes printed]", false, true},
		{"a cyclic document inserted", `const cyc = {}; cyc.self = cyc; db.c.insertOne(cyc)`,
			"BSONError: cyclic or too deeply nested object", false, false},
		{"a Symbol.toPrimitive that throws", `db.c.find({ a: { [Symbol.toPrimitive]() { throw new Error('prim') } } + 1 })`,
			"Error: prim", false, false},
	} {
		sh := quick
		if tc.roomy {
			sh = roomy
		}
		start := time.Now()
		res, err := sh.Eval(context.Background(), tc.src)
		elapsed := time.Since(start)
		switch {
		case tc.ok && (err != nil || res.Transcript != tc.want):
			t.Errorf("%s: got %q, %v\nwant %q", tc.name, res.Transcript, err, tc.want)
		case !tc.ok && err == nil:
			t.Errorf("%s: no error:\n%s", tc.name, res.Transcript)
		case !tc.ok && !strings.HasSuffix(strings.TrimSpace(res.Transcript), tc.want):
			t.Errorf("%s: ends with %q\nwant %q", tc.name, lastLine(res.Transcript), tc.want)
		}
		// Whatever the script does, the evaluation ends by its deadline.
		if limit := map[bool]time.Duration{false: 2 * time.Second, true: time.Minute}[tc.roomy]; elapsed > limit+5*time.Second {
			t.Errorf("%s: took %s", tc.name, elapsed)
		}
		if got := eval(t, sh, "db.ok.countDocuments()"); got != "1\n" {
			t.Fatalf("after %s the session is broken: %q", tc.name, got)
		}
		if err := client.Ping(context.Background(), nil); err != nil {
			t.Fatalf("after %s the server is gone: %v", tc.name, err)
		}
	}
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	return s[strings.LastIndexByte(s, '\n')+1:]
}
