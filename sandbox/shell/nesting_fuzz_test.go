package shell

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
)

// FuzzNestingGuard checks the nesting guard against goja itself: whatever
// the input, what the guard lets goja parse (all of it, or the part up to
// its first syntax error) parses and compiles within a stack bounded by
// the guard's limit. The limit here is small, so that short inputs reach
// it; the stack goja may use is capped at some twenty times what the
// limit needs, and passing the cap is a crash the fuzzer reports. The
// tree goja builds must also stay within a few times the limit, which is
// what goja's compiler and the shell's rewrites recurse on.
func FuzzNestingGuard(f *testing.F) {
	for _, seed := range []string{
		"[[[[]]]]", "((((1))))", "!!!!!a", "a=a=a=a=1", "1+1+1+1", "a.b.c.d", "f()()()",
		"try x; try x; try x;", "a?b;a?b;a?b;", "for x; for x;", "class x; class x;", "switch x; switch x;",
		"do x; ; do x; ;", "{ ) } if(a) { ) }", "{{{ return }}} if(1)", "a: a: a: a:", "x=>x=>x=>1",
		"`${`${`${1}`}`}`", "new new new X", "async async async", "let [ let [ let [",
		"if (a) /)/.test(s); {", "x = {} / (((( / 1", "function f(a) x; function f(a) x;",
		"o = { a() x; a() x; }", "do do do x\n while(0)\n while(0)", "f(1 = 2", "++a()++",
		"class A { m() {} static { return } }", "for (a + b of c) {}", "yield / [ yield / [",
		"async a ; async a ;", "(function*(){ yield /re/ })", "a\n++b", "eval('x')",
	} {
		f.Add(seed)
		f.Add(strings.Repeat(seed, 40))
	}
	f.Fuzz(func(t *testing.T, src string) {
		const limit = 60
		c := checkSourceWithin(src, limit)
		if c.tooDeep {
			return
		}
		parsed := src
		if c.cut >= 0 {
			parsed = src[:c.cut]
		}
		old := debug.SetMaxStack(4 << 20)
		defer debug.SetMaxStack(old)
		done := make(chan int)
		go func() {
			prog, _ := safeParse("", parsed)
			depth := 0
			if prog != nil {
				depth = treeDepth(prog)
				func() {
					defer func() { _ = recover() }()
					_, _ = goja.CompileAST(prog, false)
				}()
			}
			done <- depth
		}()
		if depth := <-done; depth > 3*limit+10 {
			t.Fatalf("the guard let through code %d deep (limit %d): %.200q", depth, limit, parsed)
		}
	})
}

// treeDepth is the depth of the tree under n, walked without recursion.
func treeDepth(n ast.Node) int {
	type item struct {
		n ast.Node
		d int
	}
	stack := []item{{n, 1}}
	deepest := 0
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		deepest = max(deepest, it.d)
		forEachChild(it.n, func(c ast.Node) { stack = append(stack, item{c, it.d + 1}) })
	}
	return deepest
}
