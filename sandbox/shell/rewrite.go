package shell

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/dop251/goja/ast"
)

// mongosh's async rewriter makes every shell API call wait for its result,
// also inside the async functions a script writes: there
// `const n = db.c.countDocuments()` is a number, not a Promise, while two
// async functions started together still interleave at their driver calls.
// The shell does the same with a source rewrite of async function bodies:
// each call becomes
//
//	(__shell$t = CALL, __shell$isp(__shell$t) ? await __shell$t : __shell$t)
//
// which waits only for the Promises the shell's own methods return (the
// form mongosh's rewriter uses, with its _ex and _isp). Code outside async
// functions needs no rewrite: there the shell's methods block.
//
// goja also lacks `for await`, so that loop is rewritten into a plain loop
// over the async iterator before the rest.
const (
	awaitTemp   = "__shell$t"
	awaitTest   = "__shell$isp"
	asyncIterFn = "__shell$asyncIterator"
)

// edit replaces code[at:end] (an insertion when end == at). Edits at the
// same offset apply in order of rank.
type edit struct {
	at, end int
	rank    int
	text    string
}

// applyEdits applies non-overlapping edits to code.
func applyEdits(code string, edits []edit) (string, error) {
	slices.SortStableFunc(edits, func(a, b edit) int {
		if a.at != b.at {
			return a.at - b.at
		}
		return a.rank - b.rank
	})
	var sb strings.Builder
	at := 0
	for _, e := range edits {
		if e.at < at {
			return "", fmt.Errorf("internal error: overlapping rewrite at %d", e.at)
		}
		sb.WriteString(code[at:e.at])
		sb.WriteString(e.text)
		at = e.end
	}
	sb.WriteString(code[at:])
	return sb.String(), nil
}

// forAwaitLoops rewrites each `for await (DECL of SOURCE) BODY` (code has
// them with the await blanked, at the offsets in loops) into
//
//	for (let $i = __shell$asyncIterator(SOURCE), $r; !($r = await $i.next()).done; ) { DECL = $r.value; BODY }
func forAwaitLoops(code string, prog *ast.Program, loops []int) (string, error) {
	var edits []edit
	n := 0
	var failed error
	walkAST(prog, func(node ast.Node) bool {
		st, ok := node.(*ast.ForOfStatement)
		if !ok || !slices.Contains(loops, int(st.For)-1) || failed != nil {
			return true
		}
		n++
		it, res := fmt.Sprintf("__shell$i%d", n), fmt.Sprintf("__shell$r%d", n)
		open := strings.IndexByte(code[int(st.For)-1:], '(') + int(st.For) - 1
		gapStart, gapEnd := int(st.Into.Idx1())-1, int(st.Source.Idx0())-1
		of := wordIn(code[gapStart:gapEnd], "of")
		bodyStart := int(st.Body.Idx0()) - 1
		closeParen := strings.LastIndexByte(code[:bodyStart], ')')
		if of < 0 || closeParen < gapEnd {
			failed = fmt.Errorf("internal error: cannot read the for await loop at %d", st.For)
			return false
		}
		of += gapStart
		decl := strings.TrimSpace(code[open+1 : of])
		var assign string
		if _, isExpr := st.Into.(*ast.ForIntoExpression); isExpr {
			assign = "(" + decl + " = " + res + ".value); "
		} else {
			assign = decl + " = " + res + ".value; "
		}
		edits = append(edits, edit{at: int(st.For) - 1, end: bodyStart, text: "for (let " + it + " = " + asyncIterFn + "(" +
			code[of+2:closeParen] + "), " + res + "; !(" + res + " = await " + it + ".next()).done; ) "})
		if _, isBlock := st.Body.(*ast.BlockStatement); isBlock {
			edits = append(edits, edit{at: bodyStart + 1, end: bodyStart + 1, text: " " + assign})
		} else {
			edits = append(edits, edit{at: bodyStart, end: bodyStart, rank: -1, text: "{ " + assign},
				edit{at: statementEnd(code, st.Body), end: statementEnd(code, st.Body), text: " }"})
		}
		return true
	})
	if failed != nil {
		return "", failed
	}
	return applyEdits(code, edits)
}

// wordIn is the offset of the first whole word w in s, or -1.
func wordIn(s, w string) int {
	for i := 0; i+len(w) <= len(s); i++ {
		if s[i:i+len(w)] == w && (i == 0 || !isIdentChar(s[i-1])) && (i+len(w) == len(s) || !isIdentChar(s[i+len(w)])) {
			return i
		}
	}
	return -1
}

func isIdentChar(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// statementEnd is where st ends in code, closing parentheses goja leaves
// out of an expression's end included (see statementBounds).
func statementEnd(code string, st ast.Statement) int {
	_, end := statementBounds(code, st, int(st.Idx0())-1)
	return end
}

// implicitAwaits wraps the calls inside async function bodies (see the
// top of this file). It returns code unchanged when there are none.
func implicitAwaits(code string, prog *ast.Program) (string, error) {
	w := &awaitWriter{code: code, budget: 4*len(code) + 1<<16}
	w.walk(prog, false)
	if w.exhausted {
		return "", errors.New("the script's callees are too deeply parenthesized to rewrite")
	}
	if len(w.edits) == 0 {
		return code, nil
	}
	return applyEdits(code, w.edits)
}

type awaitWriter struct {
	code  string
	edits []edit
	seen  map[ast.Node]bool
	// budget is how much more code callStart may parse: a script that
	// exhausts it runs without the rewrite, rather than keep the
	// compiler busy past any deadline (compiling is not interruptible).
	budget    int
	exhausted bool
}

// walk visits node; inAsync says whether await is allowed where it is.
func (w *awaitWriter) walk(node ast.Node, inAsync bool) {
	if w.seen == nil {
		w.seen = map[ast.Node]bool{}
	}
	if node == nil || reflect.ValueOf(node).IsNil() || w.seen[node] {
		return
	}
	w.seen[node] = true
	switch n := node.(type) {
	case *ast.FunctionLiteral:
		w.walkChildren(n.ParameterList, false)
		w.walk(n.Body, n.Async)
		return
	case *ast.ArrowFunctionLiteral:
		w.walkChildren(n.ParameterList, false)
		w.walk(n.Body, n.Async)
		return
	case *ast.ClassLiteral:
		w.walk(n.SuperClass, inAsync)
		for _, el := range n.Body {
			switch e := el.(type) {
			case *ast.MethodDefinition:
				if e.Computed {
					w.walk(e.Key, inAsync)
				}
				w.walk(e.Body, false)
			case *ast.FieldDefinition:
				if e.Computed {
					w.walk(e.Key, inAsync)
				}
				w.walk(e.Initializer, false)
			default:
				w.walk(el, false)
			}
		}
		return
	case *ast.AwaitExpression:
		// Its call is awaited already.
		switch arg := n.Argument.(type) {
		case *ast.CallExpression:
			w.seen[arg] = true
			w.walkChildren(arg, inAsync)
			return
		case *ast.OptionalChain:
			w.seen[arg] = true
			w.walkChain(arg.Expression, inAsync)
			return
		}
	case *ast.CallExpression:
		if _, isSuper := n.Callee.(*ast.SuperExpression); inAsync && !isSuper {
			w.wrap(w.callStart(n.Callee, int(n.RightParenthesis)), int(n.RightParenthesis))
		}
	case *ast.OptionalChain:
		// Only the whole chain may be wrapped: a call after `?.` is
		// skipped when the chain short-circuits.
		if call, ok := n.Expression.(*ast.CallExpression); ok && inAsync {
			w.wrap(w.callStart(call.Callee, int(call.RightParenthesis)), int(call.RightParenthesis))
		}
		w.walkChain(n.Expression, inAsync)
		return
	}
	w.walkChildren(node, inAsync)
}

// walkChain walks an optional chain without wrapping the calls along it.
func (w *awaitWriter) walkChain(node ast.Expression, inAsync bool) {
	w.seen[node] = true
	switch n := node.(type) {
	case *ast.CallExpression:
		w.walkChain(n.Callee, inAsync)
		for _, a := range n.ArgumentList {
			w.walk(a, inAsync)
		}
	case *ast.DotExpression:
		w.walkChain(n.Left, inAsync)
	case *ast.BracketExpression:
		w.walkChain(n.Left, inAsync)
		w.walk(n.Member, inAsync)
	case *ast.Optional:
		w.walkChain(n.Expression, inAsync)
	default:
		delete(w.seen, node)
		w.walk(node, inAsync)
	}
}

func (w *awaitWriter) walkChildren(node ast.Node, inAsync bool) {
	forEachChild(node, func(c ast.Node) { w.walk(c, inAsync) })
}

// wrap records the rewrite of the call at code[start:end].
func (w *awaitWriter) wrap(start, end int) {
	w.edits = append(w.edits,
		edit{at: start, end: start, rank: -end, text: "(" + awaitTemp + " = "},
		edit{at: end, end: end, rank: 1 << 30, text: ", " + awaitTest + "(" + awaitTemp + ") ? await " + awaitTemp + " : " + awaitTemp + ")"})
}

// callStart is where a call whose callee is callee begins: goja's
// positions leave out parentheses, as around the (async () => {...}) of
// an immediately invoked function or the (await x) of (await x).map(f).
// Those are among the "(" just before the callee; they are only looked
// for when a ")" follows the end of the callee or of one of its leftmost
// parts.
func (w *awaitWriter) callStart(callee ast.Expression, end int) int {
	calleeStart := int(callee.Idx0()) - 1
	closes := false
	for n := callee; n != nil && !closes; n = leftPart(n) {
		k := int(n.Idx1()) - 1
		for k < end && strings.IndexByte(" \t\r\n", w.code[k]) >= 0 {
			k++
		}
		closes = k < end && w.code[k] == ')'
	}
	if !closes {
		return calleeStart
	}
	// The run of "(" before the callee, innermost first: the first that
	// makes one call with what follows is where the call starts.
	for j := calleeStart - 1; j >= 0; j-- {
		switch c := w.code[j]; {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			continue
		case c != '(':
			return calleeStart
		}
		if w.budget -= end - j; w.budget < 0 {
			w.exhausted = true
			return calleeStart
		}
		if isOneCall(w.code[j:end]) {
			return j
		}
	}
	return calleeStart
}

// leftPart is the part of n that starts where n starts, if any.
func leftPart(n ast.Expression) ast.Expression {
	switch x := n.(type) {
	case *ast.DotExpression:
		return x.Left
	case *ast.PrivateDotExpression:
		return x.Left
	case *ast.BracketExpression:
		return x.Left
	case *ast.CallExpression:
		return x.Callee
	case *ast.OptionalChain:
		return x.Expression
	case *ast.Optional:
		return x.Expression
	case *ast.BinaryExpression:
		return x.Left
	case *ast.ConditionalExpression:
		return x.Test
	case *ast.AssignExpression:
		return x.Left
	case *ast.SequenceExpression:
		if len(x.Sequence) > 0 {
			return x.Sequence[0]
		}
	}
	return nil
}

// isOneCall reports whether src, code of an async function, is a single
// call expression.
func isOneCall(src string) bool {
	const open = "(async () => ("
	prog, err := parseJS(open + src + "))")
	if err != nil || len(prog.Body) != 1 {
		return false
	}
	es, ok := prog.Body[0].(*ast.ExpressionStatement)
	if !ok {
		return false
	}
	arrow, ok := es.Expression.(*ast.ArrowFunctionLiteral)
	if !ok {
		return false
	}
	body, ok := arrow.Body.(*ast.ExpressionBody)
	if !ok {
		return false
	}
	end := len(open) + len(src) // goja's 1-based index of src's last character
	switch x := body.Expression.(type) {
	case *ast.CallExpression:
		return int(x.RightParenthesis) == end
	case *ast.OptionalChain:
		c, ok := x.Expression.(*ast.CallExpression)
		return ok && int(c.RightParenthesis) == end
	}
	return false
}

var (
	nodeType = reflect.TypeOf((*ast.Node)(nil)).Elem()
)

// forEachChild calls fn for each AST node directly below node, found by
// reflection over the node's fields (goja's ast package has no walker).
// DeclarationList fields repeat declarations found in the body, so they
// are skipped.
func forEachChild(node ast.Node, fn func(ast.Node)) {
	v := reflect.ValueOf(node)
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return
	}
	t := v.Type()
	for i := range v.NumField() {
		if t.Field(i).Name == "DeclarationList" || !t.Field(i).IsExported() {
			continue
		}
		visitValue(v.Field(i), fn)
	}
}

func visitValue(f reflect.Value, fn func(ast.Node)) {
	switch f.Kind() {
	case reflect.Interface, reflect.Pointer:
		if f.IsNil() {
			return
		}
		// Pointers to anything but a node (the Program's file) hold
		// no code.
		if n, ok := f.Interface().(ast.Node); ok {
			fn(n)
		}
	case reflect.Slice:
		for j := range f.Len() {
			visitValue(f.Index(j), fn)
		}
	case reflect.Struct:
		if f.CanAddr() && f.Addr().Type().Implements(nodeType) {
			fn(f.Addr().Interface().(ast.Node))
			return
		}
		forEachStruct(f, fn)
	}
}

func forEachStruct(v reflect.Value, fn func(ast.Node)) {
	t := v.Type()
	for i := range v.NumField() {
		if t.Field(i).Name == "DeclarationList" || !t.Field(i).IsExported() {
			continue
		}
		visitValue(v.Field(i), fn)
	}
}

// walkAST calls visit for node and, while visit returns true, for the
// nodes below it, in source order.
func walkAST(node ast.Node, visit func(ast.Node) bool) {
	if node == nil || !visit(node) {
		return
	}
	forEachChild(node, func(c ast.Node) { walkAST(c, visit) })
}
