package shell

import (
	"errors"
	"regexp"
	"slices"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	"github.com/dop251/goja/parser"
)

var forAwaitRe = regexp.MustCompile(`\bfor\s+await\b`)

// errCodeTooDeep is the error of code nested deeper than nestingLimit;
// the script sees V8's RangeError, msgTooDeep.
var errCodeTooDeep = errors.New("code nested too deeply to parse")

// msgTooDeep is V8's message for running out of stack.
const msgTooDeep = "Maximum call stack size exceeded"

// sourceCheck is what the nesting guard says of code: whether it is too
// deep, and where goja must stop reading it (-1: nowhere), because a
// syntax error is there.
type sourceCheck struct {
	tooDeep bool
	cut     int
	// prefixErr is goja's error for code[:cut].
	prefixErr error
}

// checkSource runs the nesting guard (nesting.go) on code. Where the scan
// finds a token that cannot be valid, goja parses the code up to it
// (which is never deep): an error before that token's end is the code's
// syntax error; none means the scan was wrong and goes on. A few wrong
// calls are all it gets; after that the scan's bound alone stands.
func checkSource(code string) sourceCheck { return checkSourceWithin(code, nestingLimit) }

func checkSourceWithin(code string, limit int) sourceCheck {
	c := sourceCheck{cut: -1}
	confirms := 0
	res := nestScan(code, limit, func(end int) bool {
		if confirms++; confirms > 4 {
			return false
		}
		_, err := safeParse("", code[:end])
		if err == nil || !errorBefore(err, code[:end], end) {
			return false
		}
		c.prefixErr = err
		return true
	})
	c.tooDeep, c.cut = res.tooDeep, res.badAt
	return c
}

// errorBefore reports whether goja's parse error of code is before end,
// rather than at the end of the code (which is cut there).
func errorBefore(err error, code string, end int) bool {
	var el parser.ErrorList
	if !errors.As(err, &el) || len(el) == 0 {
		return true
	}
	p := el[0].Position
	return lineOffset(code, p.Line)+p.Column-1 < end
}

// safeParse is goja's parser, which panics on some broken code; that
// panic is a syntax error.
func safeParse(name, code string) (prog *ast.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			prog = nil
			err = parser.ErrorList{{Position: file.Position{Filename: name, Line: 1, Column: 1}, Message: "Invalid or unexpected token"}}
		}
	}()
	return parser.ParseFile(nil, name, code, 0, parser.WithDisableSourceMaps)
}

// parseChecked parses code behind the nesting guard: code too deep gives
// errCodeTooDeep, and code with a syntax error is parsed only up to it (cut).
func parseChecked(name, code string) (prog *ast.Program, cut int, err error) {
	c := checkSource(code)
	switch {
	case c.tooDeep:
		return nil, -1, errCodeTooDeep
	case c.cut >= 0:
		return nil, c.cut, c.prefixErr
	}
	prog, err = safeParse(name, code)
	return prog, -1, err
}

// parseFile is the shell's one way into goja's parser.
func parseFile(name, code string) (*ast.Program, error) {
	prog, _, err := parseChecked(name, code)
	return prog, err
}

// parseScript parses code as a script, with `for await` loops (which
// goja's parser lacks) read as for-of loops: loops holds the offsets of
// their `for` keywords. Source maps are never looked up: a script's
// sourceMappingURL comment must not make the shell read a file.
func parseScript(name, code string) (*ast.Program, []int, error) {
	var cands [][]int
	if strings.Contains(code, "await") {
		cands = forAwaitRe.FindAllStringIndex(code, -1)
	}
	blanked := code
	for len(cands) > 0 {
		blanked = blankAwaits(code, cands)
		prog, err := parseFile(name, blanked)
		if err != nil {
			return nil, nil, err
		}
		// A candidate inside a string or comment is not a loop: parse
		// again with it left alone.
		loops := map[int]bool{}
		walkAST(prog, func(n ast.Node) bool {
			if st, ok := n.(*ast.ForOfStatement); ok {
				loops[int(st.For)-1] = true
			}
			return true
		})
		kept := slices.DeleteFunc(slices.Clone(cands), func(c []int) bool { return !loops[c[0]] })
		if len(kept) == len(cands) {
			at := make([]int, len(kept))
			for i, c := range kept {
				at[i] = c[0]
			}
			return prog, at, nil
		}
		cands = kept
	}
	prog, err := parseFile(name, code)
	return prog, nil, err
}

// blankAwaits replaces the await of each `for await` candidate with
// spaces, so that every offset stays where it was.
func blankAwaits(code string, cands [][]int) string {
	b := []byte(code)
	for _, c := range cands {
		at := c[1] - len("await")
		copy(b[at:c[1]], "     ")
	}
	return string(b)
}

// parseJS parses code as parseScript does, for callers that need only
// the syntax tree.
func parseJS(code string) (*ast.Program, error) {
	prog, _, err := parseScript("", code)
	return prog, err
}

// babelError is a syntax error worded exactly as mongosh's parser, Babel,
// words it; line is 1-based and col 0-based, as Babel prints them.
type babelError struct {
	msg       string
	line, col int
}

func (e *babelError) Error() string { return e.msg }

const awaitOutsideAsync = "'await' is only allowed within async functions and at the top levels of modules."

// awaitSyntaxError turns a parse error caused by await outside an async
// function (goja reports the token after it) into mongosh's error, at
// the await. Other errors are returned as they are.
func awaitSyntaxError(err error, code string) error {
	var el parser.ErrorList
	if !errors.As(err, &el) || len(el) == 0 {
		return err
	}
	at := lineOffset(code, el[0].Position.Line) + el[0].Position.Column - 1
	j := min(at, len(code))
	for j > 0 && strings.IndexByte(" \t\r\n", code[j-1]) >= 0 {
		j--
	}
	if j < len("await") || code[j-len("await"):j] != "await" || (j > len("await") && isIdentChar(code[j-len("await")-1])) {
		return err
	}
	return babelAt(awaitOutsideAsync, code, j-len("await"))
}

// babelAt is a babelError at offset at of code.
func babelAt(msg, code string, at int) *babelError {
	line := strings.Count(code[:at], "\n") + 1
	return &babelError{msg: msg, line: line, col: at - lineOffset(code, line)}
}

// forAwaitOutsideAsync is mongosh's error for a `for await` loop that is
// not inside an async function: to Babel, `await` there is no keyword,
// so it expects the loop's "(".
func forAwaitOutsideAsync(code string, prog *ast.Program, loops []int) error {
	if len(loops) == 0 {
		return nil
	}
	var found error
	var walk func(n ast.Node, inAsync bool)
	walk = func(n ast.Node, inAsync bool) {
		if found != nil {
			return
		}
		switch f := n.(type) {
		case *ast.FunctionLiteral:
			inAsync = f.Async
		case *ast.ArrowFunctionLiteral:
			inAsync = f.Async
		case *ast.ForOfStatement:
			if !inAsync && slices.Contains(loops, int(f.For)-1) {
				m := forAwaitRe.FindStringIndex(code[int(f.For)-1:])
				found = babelAt(`Unexpected token, expected "("`, code, int(f.For)-1+m[1]-len("await"))
				return
			}
		}
		forEachChild(n, func(c ast.Node) { walk(c, inAsync) })
	}
	walk(prog, false)
	return found
}

// compiled is user code ready to run, and where its async functions are.
type compiled struct {
	prog  *goja.Program
	index *codeIndex // nil when the code has no async function
}

// compileScript compiles code, named name in stack traces, with the
// rewrites of rewrite.go applied to its async functions.
func compileScript(name, code string) (compiled, error) {
	prog, loops, err := parseScript(name, code)
	if err != nil {
		return compiled{}, awaitSyntaxError(err, code)
	}
	if err := forAwaitOutsideAsync(code, prog, loops); err != nil {
		return compiled{}, err
	}
	original := prog
	if mentionsEval(code) {
		// See evalguard.go: eval may be called directly only.
		rewritten, err := rewriteEvalRefs(code, prog)
		if err != nil {
			return compiled{}, err
		}
		if rewritten != code {
			if prog, err = parseFile(name, rewritten); err != nil {
				return compiled{}, err
			}
			code = rewritten
			keepSources(original, prog)
		}
	}
	if !strings.Contains(code, "async") {
		p, err := goja.CompileAST(prog, false)
		return compiled{prog: p}, err
	}
	if len(loops) > 0 {
		if code, err = forAwaitLoops(code, prog, loops); err != nil {
			return compiled{}, err
		}
		if prog, err = parseFile(name, code); err != nil {
			return compiled{}, err
		}
	}
	// Code the rewrite gives up on (see awaitWriter.budget) runs as written.
	if rewritten, err := implicitAwaits(code, prog); err == nil && rewritten != code {
		if p, err := parseFile(name, rewritten); err == nil {
			code, prog = rewritten, p
		}
	}
	keepSources(original, prog)
	p, err := goja.CompileAST(prog, false)
	if err != nil {
		return compiled{}, err
	}
	return compiled{prog: p, index: indexFunctions(code, prog)}, nil
}

// keepSources gives the functions of the rewritten program the source
// text they were written with, which is what their toString() shows.
func keepSources(original, rewritten *ast.Program) {
	collect := func(p *ast.Program) []*string {
		var out []*string
		walkAST(p, func(n ast.Node) bool {
			switch f := n.(type) {
			case *ast.FunctionLiteral:
				out = append(out, &f.Source)
			case *ast.ArrowFunctionLiteral:
				out = append(out, &f.Source)
			case *ast.ClassLiteral:
				out = append(out, &f.Source)
			}
			return true
		})
		return out
	}
	from, to := collect(original), collect(rewritten)
	if len(from) != len(to) {
		return
	}
	for i := range to {
		*to[i] = *from[i]
	}
}
