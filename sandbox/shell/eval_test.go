package shell

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"
)

func newTestShell(t *testing.T, opts Options) *Shell {
	t.Helper()
	sh, err := New(nil, "test", opts)
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

// A script is parsed as one program, as mongosh --file parses it, so a
// closing brace and `else` or `catch` on the next line belong together.
func TestScriptIsOneProgram(t *testing.T) {
	sh := newTestShell(t, Options{})
	for _, tc := range []struct{ src, want string }{
		{"if (false) {\n  print('then')\n}\nelse {\n  print('else')\n}", "else\n"},
		{"try {\n  nope()\n}\ncatch (e) {\n  print('caught', e.name)\n}\nfinally {\n  print('finally')\n}", "caught ReferenceError\nfinally\n"},
		// Function declarations are hoisted, and a var exists from the start.
		{"hoisted()\nfunction hoisted() { return 'up' }", "up\n"},
		{"typeof later\nvar later = 1", "undefined\n"},
		// A chained call continues on the next line.
		{"[3, 1, 2]\n  .sort()\n  .map(x => x * 10)", "[ 10, 20, 30 ]\n"},
	} {
		res, err := sh.Eval(context.Background(), tc.src)
		if err != nil || res.Transcript != tc.want {
			t.Errorf("%q\n got %q, %v\nwant %q", tc.src, res.Transcript, err, tc.want)
		}
	}
}

// Where the one-program reading differs from pasting line by line
// (content/README.md says so), the one-program reading wins: a line that
// automatic semicolon insertion joins to the one before is part of it.
func TestOneProgramReadingWins(t *testing.T) {
	sh := newTestShell(t, Options{})
	res, err := sh.Eval(context.Background(), "const n = 1\n(function () { return 2 })()")
	if err == nil || !strings.Contains(res.Transcript, "TypeError") {
		t.Errorf("the two lines were read as two statements: %q, %v", res.Transcript, err)
	}
	// A syntax error anywhere stops the script before anything runs.
	res, err = sh.Eval(context.Background(), "print('ran')\nlet x = ;\n")
	if err == nil || res.Printed != "" || !strings.HasPrefix(res.Transcript, "SyntaxError: Unexpected token ;. (2:8)") {
		t.Errorf("syntax error: %q, %v", res.Transcript, err)
	}
	if len(res.Statements) != 1 || res.Statements[0].Span.StartLine != 2 || res.Statements[0].Error == "" {
		t.Errorf("the syntax error is not on its line: %+v", res.Statements)
	}
}

// Each input's value is printed as interactive mongosh prints what is
// pasted into it: statements on one line print only the last value.
func TestEachInputPrintsItsValue(t *testing.T) {
	sh := newTestShell(t, Options{})
	res, err := sh.Eval(context.Background(), "1 + 1\nconst a = 5; a * 2\n'x'; 'y'\nundefined\nlet b = [\n  1,\n  2]\nb")
	if err != nil {
		t.Fatal(err)
	}
	if want := "2\n10\ny\n[ 1, 2 ]\n"; res.Transcript != want {
		t.Errorf("got %q, want %q", res.Transcript, want)
	}
}

// Every output carries the span of the input it came from, and printed
// text is attributed to the input that printed it.
func TestStatementsCarrySpansAndPrintedText(t *testing.T) {
	sh := newTestShell(t, Options{})
	src := "print('a')\nconst f = () => { print('in f'); return 7 }\n\nf()\nif (true) {\n  print('b')\n}\nf(); 'last'\n"
	res, err := sh.Eval(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	type stmt struct {
		code    string
		lines   [2]int
		printed string
		output  string
	}
	var got []stmt
	var transcript strings.Builder
	for _, st := range res.Statements {
		s := stmt{code: src[st.Span.Start:st.Span.End], lines: [2]int{st.Span.StartLine, st.Span.EndLine}, printed: st.Printed}
		transcript.WriteString(st.Printed)
		if st.Output >= 0 {
			s.output = res.Outputs[st.Output].Text
			transcript.WriteString(s.output + "\n")
			if res.Outputs[st.Output].Span != st.Span {
				t.Errorf("output %q has span %+v, its statement %+v", s.output, res.Outputs[st.Output].Span, st.Span)
			}
		}
		got = append(got, s)
	}
	want := []stmt{
		{"print('a')", [2]int{1, 1}, "a\n", ""},
		{"f()", [2]int{4, 4}, "in f\n", "7"},
		{"if (true) {\n  print('b')\n}", [2]int{5, 7}, "b\n", ""},
		{"f(); 'last'", [2]int{8, 8}, "in f\n", "last"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("statements\n got %+v\nwant %+v", got, want)
	}
	if transcript.String() != res.Transcript {
		t.Errorf("the statements do not make up the transcript:\n%q\n%q", transcript.String(), res.Transcript)
	}
}

func TestErrorIsTheLastStatement(t *testing.T) {
	sh := newTestShell(t, Options{})
	res, err := sh.Eval(context.Background(), "print('before')\nthrow new Error('boom')\nprint('after')")
	if err == nil {
		t.Fatal("no error")
	}
	last := res.Statements[len(res.Statements)-1]
	if last.Span.StartLine != 2 || last.Error != "Error: boom" || res.Printed != "before\n" {
		t.Errorf("last statement %+v", last)
	}
}

// The caller chooses the width results are laid out for.
func TestWidth(t *testing.T) {
	sh := newTestShell(t, Options{})
	src := "({ name: 'a fairly long name', tags: ['alpha', 'beta', 'gamma'], n: 12345 })"
	res, _ := sh.Eval(context.Background(), src)
	if want := "{\n  name: 'a fairly long name',\n  tags: [ 'alpha', 'beta', 'gamma' ],\n  n: 12345\n}\n"; res.Transcript != want {
		t.Errorf("at 80 columns:\n%s", res.Transcript)
	}
	sh.SetWidth(120)
	res, _ = sh.Eval(context.Background(), src)
	if want := "{ name: 'a fairly long name', tags: [ 'alpha', 'beta', 'gamma' ], n: 12345 }\n"; res.Transcript != want {
		t.Errorf("at 120 columns:\n%s", res.Transcript)
	}
	sh.SetWidth(40)
	res, _ = sh.Eval(context.Background(), "print(['alpha', 'beta', 'gamma', 'delta'])")
	if want := "[\n  'alpha',\n  'beta',\n  'gamma',\n  'delta'\n]\n"; res.Transcript != want {
		t.Errorf("at 40 columns:\n%s", res.Transcript)
	}
	sh.SetWidth(0)
	res, _ = sh.Eval(context.Background(), src)
	if !strings.HasPrefix(res.Transcript, "{\n  name") {
		t.Errorf("back at 80 columns:\n%s", res.Transcript)
	}
}

// Sparse arrays print as mongosh prints them (captured from mongosh 2.5),
// without their holes ever being allocated.
func TestSparseArrays(t *testing.T) {
	sh := newTestShell(t, Options{})
	for _, tc := range []struct{ src, want string }{
		{"const a = []; a[4294967294] = 1; printjson(a)", "[\n  <4294967294 empty items>,\n  1\n]\n"},
		{"print(a)", "[ <4294967294 empty items>, 1 ]\n"},
		{"const b = [1, , 3]; b[10] = 5; print(b)", "[ 1, <1 empty item>, 3, <7 empty items>, 5 ]\n"},
		{"printjson([ , , 1])", "[\n  <2 empty items>,\n  1\n]\n"},
		{"print([1, 2, , 4, 5, 6, 7, 8, 9, 10, 11, 12])", "[ 1, 2, <1 empty item>, 4, 5, 6, 7, 8, 9, 10, 11, 12 ]\n"},
		{"print(Array(200))", "[ <200 empty items> ]\n"},
		{"const c = []; c[150] = 1; c[3] = 2; print(c)", "[ <3 empty items>, 2, <146 empty items>, 1 ]\n"},
		{"const big = Array.from({length: 120}, (_, i) => i); delete big[5]; print(big)", "[\n" +
			"  0,              1,  2,  3,  4,\n  <1 empty item>, 6,  7,  8,  9,\n  10,             11, 12, 13, 14,\n" +
			"  15,             16, 17, 18, 19,\n  20,             21, 22, 23, 24,\n  25,             26, 27, 28, 29,\n" +
			"  30,             31, 32, 33, 34,\n  35,             36, 37, 38, 39,\n  40,             41, 42, 43, 44,\n" +
			"  45,             46, 47, 48, 49,\n  50,             51, 52, 53, 54,\n  55,             56, 57, 58, 59,\n" +
			"  60,             61, 62, 63, 64,\n  65,             66, 67, 68, 69,\n  70,             71, 72, 73, 74,\n" +
			"  75,             76, 77, 78, 79,\n  80,             81, 82, 83, 84,\n  85,             86, 87, 88, 89,\n" +
			"  90,             91, 92, 93, 94,\n  95,             96, 97, 98, 99,\n  ... 20 more items\n]\n"},
	} {
		res, err := sh.Eval(context.Background(), tc.src)
		if err != nil || res.Transcript != tc.want {
			t.Errorf("%s\n got %q, %v\nwant %q", tc.src, res.Transcript, err, tc.want)
		}
	}
	// Encoding one as BSON fails as mongosh's js-bson does, at once.
	start := time.Now()
	res, err := sh.Eval(context.Background(), "EJSON.stringify({a})")
	if err == nil || !strings.Contains(res.Transcript, `RangeError: The value of "offset" is out of range. It must be >= 0 && <= 17825792. Received 17825793`) {
		t.Errorf("encoding a sparse array: %q, %v", res.Transcript, err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("refusing it took %s", d)
	}
}

// Circular references print as Node's inspect prints them (captured from
// mongosh 2.5).
func TestCircularValues(t *testing.T) {
	sh := newTestShell(t, Options{})
	res, err := sh.Eval(context.Background(), "const o = {}; o.self = o; printjson(o)\nconst a = [1]; a.push(a); print(a)\n"+
		"const x = {n: {m: {}}}; x.n.m.back = x.n; x.n.m.top = x; print(x)")
	want := "<ref *1> {\n  self: [Circular *1]\n}\n<ref *1> [ 1, [Circular *1] ]\n<ref *2> {\n  n: <ref *1> { m: { back: [Circular *1], top: [Circular *2] } }\n}\n"
	if err != nil || res.Transcript != want {
		t.Errorf("got %q, %v\nwant %q", res.Transcript, err, want)
	}
}
