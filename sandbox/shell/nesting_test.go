package shell

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Valid code is neither refused nor cut short by the nesting guard: the
// prelude (some 3,000 lines of the mongosh API in JavaScript) and every
// script the shell's tests run, as they are and each nested within a
// function body and a template substitution, scan without a token taken
// for an error.
func TestNestingGuardPassesValidCode(t *testing.T) {
	var sources []string
	err := fs.WalkDir(preludeFS, "prelude", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := preludeFS.ReadFile(path)
		// The prelude's files are the body of one function (they end in return).
		sources = append(sources, "(function () {\n"+string(b)+"\n})")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	scripts, _ := filepath.Glob("testdata/*/*.js")
	for _, p := range scripts {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, string(b))
	}
	for i, src := range sources {
		for _, code := range []string{src, "async function wrapped() {\n" + src + "\n}", "`${(() => {\n" + src + "\n})()}`"} {
			r := nestScan(code, nestingLimit, func(end int) bool {
				t.Errorf("source %d flagged at %q", i, code[max(end-60, 0):end])
				return true
			})
			if r.tooDeep {
				t.Errorf("source %d refused as too deep", i)
			}
		}
	}
}

// The scan's bound: nesting that V8's own parser takes is accepted, and
// nesting a little past the bound is refused, however it is built.
func TestNestingGuardBound(t *testing.T) {
	for _, tc := range []struct {
		lead, open, middle, close string
	}{
		{"", "(", "1", ")"}, {"", "[", "", "]"}, {"x=", "{a:", "1", "}"}, {"", "!", "a", ""},
		{"", "a=", "1", ""}, {"", "1+", "1", ""}, {"", "x=>", "1", ""}, {"", "`${", "1", "}`"},
		{"", "if(a)", ";", ""}, {"", "a?b:", "c", ""}, {"", "new ", "X", ""}, {"", "a.", "b", ""},
	} {
		for _, n := range []int{nestingLimit / 4, nestingLimit * 2} {
			code := tc.lead + strings.Repeat(tc.open, n) + tc.middle + strings.Repeat(tc.close, n)
			r := nestScan(code, nestingLimit, func(int) bool { return true })
			if want := n < nestingLimit/2; r.tooDeep == want {
				t.Errorf("%q × %d: too deep %v", tc.open, n, r.tooDeep)
			}
			if r.badAt >= 0 {
				t.Errorf("%q × %d: flagged at %d", tc.open, n, r.badAt)
			}
		}
	}
}
