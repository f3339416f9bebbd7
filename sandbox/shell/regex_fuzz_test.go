package shell

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// FuzzRegexGuard checks the shell's own matching (regexguard.go) against
// goja's. For short patterns and inputs (which cannot take goja, whose
// matching has no time limit, long), exec finds what goja's exec finds
// when goja matches with regexp2 too (from a lastIndex past 0, as a global
// expression's later matches do; from 0 goja may use Go's RE2 instead,
// whose rules differ in corners). For any pattern and input, the shell
// gives an answer or an error within its deadline, whatever the pattern
// does to regexp2, and never crashes.
func FuzzRegexGuard(f *testing.F) {
	for _, seed := range []struct{ pattern, flags, input string }{
		{"^(?=a)(a+)+$", "", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"},
		{"(a|aa)+$", "", strings.Repeat("a", 40) + "!"},
		{"(\\w+\\s?)*$", "", strings.Repeat("word ", 10) + "!"},
		{"a(b)?c", "", "xacy"}, {"(?<y>\\d{4})-(?<m>\\d\\d)", "", "on 2024-05!"},
		{".", "gu", "😀x"}, {"\\u{1F600}", "u", "a😀"}, {"[a-z]+", "gi", "Hello World"},
		{"(a)|(b)", "g", "abab"}, {"^b", "m", "a\nb"}, {"a.c", "s", "a\nc"}, {"(?=(a+))a*b\\1", "", "baaabac"},
		{"(" + strings.Repeat("(", 2000) + ")", "", "x"}, {strings.Repeat("(?=a", 1500) + strings.Repeat(")", 1500), "", "a"},
	} {
		f.Add(seed.pattern, seed.flags, seed.input)
	}
	sh, err := New(nil, "test", Options{Timeout: 300 * time.Millisecond})
	if err != nil {
		f.Fatal(err)
	}
	ref := goja.New()
	refExec, err := ref.RunString(`(p, f, s) => { const r = new RegExp(p, 'g' + f); r.lastIndex = 1; return JSON.stringify([r.exec(s), r.lastIndex]) }`)
	if err != nil {
		f.Fatal(err)
	}
	refFn, _ := goja.AssertFunction(refExec)
	f.Fuzz(func(t *testing.T, pattern, flags, input string) {
		flags = strings.Map(func(r rune) rune {
			if strings.ContainsRune("imsuy", r) {
				return r
			}
			return -1
		}, flags)
		args, _ := json.Marshal([]string{pattern, flags, input})
		start := time.Now()
		res, err := sh.Eval(context.Background(), `((p, f, s) => { const r = new RegExp(p, 'g' + f); r.lastIndex = 1; return JSON.stringify([r.exec(s), r.lastIndex]) })(...`+string(args)+`)`)
		if took := time.Since(start); took > 3*time.Second {
			t.Fatalf("exec took %s (deadline 300ms): %q %q %q", took, pattern, flags, input)
		}
		if err != nil || len(pattern) > 16 || len(input) > 10 || regexNesting(pattern) > 8 {
			return
		}
		want, err := refFn(goja.Undefined(), ref.ToValue(pattern), ref.ToValue(flags), ref.ToValue(input))
		if err != nil {
			return // goja refuses the pattern; the shell's refusal is its own
		}
		if got := strings.TrimSuffix(res.Transcript, "\n"); got != want.String() {
			t.Fatalf("/%s/g%s on %q from 1: shell %s, goja %s", pattern, flags, input, got, want)
		}
	})
}
