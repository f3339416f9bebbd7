package shell

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

// Eval runs src as mongosh runs a script file: the JavaScript is parsed as
// one program (so that `}` and `else` on the next line belong together),
// while the value of each input is printed as interactive mongosh prints
// what is pasted into it. An input is a top-level statement, or the
// statements that share a line (mongosh prints the last one's value); a
// shell command (use, show, it, exit) is a line of its own. A syntax error
// anywhere stops the script before anything runs, as mongosh --file does.
//
// Eval stops at the first input that throws; that error is returned and
// also ends the Transcript, formatted as mongosh prints it. The session
// stays usable. Nothing the script does ends the process: a deadline
// (Options.Timeout), ctx's cancellation and the heap cap
// (Options.HeapLimit) interrupt it wherever it is, also while its values
// are converted or printed.
func (s *Shell) Eval(ctx context.Context, src string) (Result, error) {
	return s.evaluate(ctx, func(ctx context.Context) error {
		return s.evalScript(ctx, strings.ReplaceAll(src, "\r\n", "\n"))
	})
}

// evaluate runs one evaluation under the session's lock, deadline,
// interrupt, heap cap and output capture; the error run returns ends it.
func (s *Shell) evaluate(ctx context.Context, run func(ctx context.Context) error) (Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := time.Now()
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	s.ctx = ctx
	s.out = &outputBuffer{max: s.opts.MaxOutput}
	res := &Result{}
	s.result = res
	s.vm.ClearInterrupt()
	// The interrupt runs on a goroutine of its own: the evaluation waits
	// for one that has begun, so that it never lands on the runtime a heap
	// stop replaces, nor on the session's next evaluation.
	vm, interrupted := s.vm, make(chan struct{})
	unhook := context.AfterFunc(ctx, func() {
		defer close(interrupted)
		vm.Interrupt(context.Cause(ctx))
	})
	watch := watchHeap(s.opts.HeapLimit, s.held, s.opts.HeapShare, stop)
	s.held = watch.credit(s.liveEnd)
	s.heap = watch

	evalErr := run(ctx)
	if evalErr == nil {
		evalErr = s.drain(ctx)
	}
	if errors.Is(evalErr, errExited) {
		res.Exited, res.ExitCode, evalErr = true, s.exit.code, nil
	}
	s.exit = nil

	grown := watch.end()
	s.heap = nil
	s.held = max(watch.held.Load()+grown, 0)
	s.liveEnd = watch.liveEnd
	if grown > watch.allowed() {
		// The script ended before the watch saw it pass the cap: it
		// is stopped now, as it would have been a moment later.
		stop(&HeapLimitError{Limit: watch.limit, Held: watch.held.Load()})
		if evalErr == nil {
			s.reopenLastInput()
			evalErr = s.fail(context.Cause(ctx), ctx)
			s.endInput()
		}
	}
	if !unhook() {
		<-interrupted
	}
	s.stopLoop(func() { stop(nil) })
	// The evaluation is over: what follows (a new runtime's prelude among
	// it) must not be stopped by its cancelled context, which the natives'
	// ticks read.
	s.ctx = context.Background()
	var hle *HeapLimitError
	if errors.As(context.Cause(ctx), &hle) {
		// What the script built is still reachable from its variables:
		// only a new runtime frees it.
		s.held = 0
		if err := s.initRuntime(s.DB()); err != nil {
			evalErr = errors.Join(evalErr, err)
		}
		// The old runtime is garbage now: collected at once, it is not
		// taken for what the next evaluation let go of, nor credited to
		// the fresh session.
		runtime.GC()
		_, s.liveEnd, _ = newHeapSamples().read()
	}
	s.vm.ClearInterrupt()
	res.Transcript = s.out.String()
	res.Printed = s.out.printed.String()
	res.Elapsed = time.Since(start)
	s.result, s.stmt = nil, nil
	return *res, evalErr
}

func (s *Shell) evalScript(ctx context.Context, src string) error {
	pieces, err := splitScript(src)
	if err != nil {
		// Nothing runs: the error is reported on the line it names.
		s.beginInput(err.span)
		defer s.endInput()
		return s.fail(err, ctx)
	}
	for _, p := range pieces {
		if err := s.runPiece(ctx, src, p); err != nil {
			return err
		}
	}
	return nil
}

// runPiece runs a shell command line, or a stretch of JavaScript: first
// its function declarations (hoisted, as in one program) and the names of
// its var declarations, then its inputs in order.
func (s *Shell) runPiece(ctx context.Context, src string, p piece) error {
	if p.cmd != "" {
		s.beginInput(p.span)
		defer s.endInput()
		if err := s.guard(func() error { return s.runShellCommand(p.cmd, p.arg) }); err != nil {
			return s.fail(err, ctx)
		}
		return nil
	}
	if len(p.hoisted) > 0 {
		if err := s.guard(func() error { return s.runHoisted(p.hoisted) }); err != nil {
			s.beginInput(p.span)
			defer s.endInput()
			return s.fail(err, ctx)
		}
	}
	for _, in := range p.inputs {
		s.beginInput(in.span)
		err := s.guard(func() error { return s.runInput(src[in.span.Start:in.span.End], in.span.StartLine) })
		if err == nil {
			// Between inputs the event loop turns, as it does between
			// the lines pasted into mongosh: what is ready settles, due
			// timers fire.
			err = s.guard(func() error { return s.turnLoop(ctx, nil, false) })
		}
		if err == nil && ctx.Err() != nil {
			err = ctx.Err()
		}
		if err != nil {
			err = s.fail(err, ctx)
			s.endInput()
			return err
		}
		s.endInput()
	}
	return nil
}

// errExited ends an evaluation that quit() or an exit line stopped.
var errExited = errors.New("the script exited")

// drain runs the event loop dry once the script's inputs have run: the
// script ends when its async work and timers are done, as Node waits
// for them. What they print belongs to the last input.
func (s *Shell) drain(ctx context.Context) error {
	if !s.loop.alive() && len(s.loop.unhandled) == 0 {
		return nil // (nothing running means nothing posted either)
	}
	s.reopenLastInput()
	defer s.endInput()
	if err := s.guard(func() error { return s.turnLoop(ctx, nil, true) }); err != nil {
		return s.fail(err, ctx)
	}
	return nil
}

// fail reports err as the running input's error, ending the transcript;
// a quit() is no error, it ends the script quietly.
func (s *Shell) fail(err error, ctx context.Context) error {
	if s.exit != nil {
		return errExited
	}
	ee := s.describe(err, ctx)
	s.statement().Error = ee.Text
	s.out.writeLine(ee.Text)
	return ee
}

// describe is describeError made safe: describing an error can run the
// script's code (a message getter), which may throw in turn, loop until
// interrupted, or throw an error that is just as hostile. What describing
// throws is described instead, a few times, before giving up.
func (s *Shell) describe(err error, ctx context.Context) *EvalError {
	for range 3 {
		var ee *EvalError
		thrownWhileDescribing := s.guard(func() error { ee = s.describeError(err, ctx); return nil })
		if thrownWhileDescribing == nil {
			return ee
		}
		err = thrownWhileDescribing
	}
	return &EvalError{Text: "Error: the script threw an error that cannot be printed", Name: "Error", err: err}
}

// guard runs fn, which handles JavaScript values from Go: a getter or
// Proxy trap that throws, an interrupt (deadline, cancellation, heap cap)
// or a panic of a bug comes back as an error, never as a panic through
// the caller.
func (s *Shell) guard(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok && fromGoja(r) {
				err = e
				return
			}
			if v, ok := r.(goja.Value); ok {
				err = &thrown{v: v}
				return
			}
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	var inner error
	if ex := s.vm.Try(func() { inner = fn() }); ex != nil {
		return &thrown{v: ex.Value()}
	}
	if ex, ok := inner.(*goja.Exception); ok {
		// goja's Exception unwraps by asking whether its value is a Go
		// error, which runs the value's getPrototypeOf trap: a thrown
		// Proxy could throw again from inside errors.As.
		return &thrown{v: ex.Value()}
	}
	return inner
}

func (s *Shell) runHoisted(srcs []string) error {
	for _, src := range srcs {
		prog, err := s.compile(src)
		if err != nil {
			return err
		}
		if _, err := s.vm.RunProgram(prog); err != nil {
			return err
		}
	}
	return nil
}

// compile compiles a piece of the script, keeping where its async
// functions are: code that has some gets a name of its own (REPL1,
// REPL2, ... as mongosh names its inputs), by which its stack frames are
// known.
func (s *Shell) compile(code string) (*goja.Program, error) {
	name := "REPL"
	if strings.Contains(code, "async") {
		s.compiles++
		name += strconv.Itoa(s.compiles)
	}
	c, err := compileScript(name, code)
	if err != nil {
		return nil, err
	}
	if c.index != nil {
		s.asyncCode[name] = c.index
	}
	return c.prog, nil
}

// runInput evaluates one input and prints its value.
func (s *Shell) runInput(src string, line int) error {
	prog, err := s.compile(redeclarable(src))
	if err != nil {
		return syntaxErr(err, src, line)
	}
	v, err := s.vm.RunProgram(prog)
	if err != nil {
		return err
	}
	if err := s.emitValue(v); err != nil {
		return err
	}
	if s.exit != nil {
		return errExited
	}
	return s.unhandledRejection()
}

// piece is a shell command line or a stretch of JavaScript between them.
type piece struct {
	cmd, arg string // a shell command
	span     Span
	// JavaScript: its inputs, and the code that runs before them.
	inputs  []input
	hoisted []string
}

type input struct{ span Span }

var commandRe = regexp.MustCompile(`^(use|show|it|exit|quit)(?:\s+([^;]*?))?\s*;?\s*$`)

// splitScript cuts src into pieces and parses each stretch of JavaScript as
// one program. A line is a shell command only where a new input could
// start: not inside a multi-line statement, string or template.
func splitScript(src string) ([]piece, *parseError) {
	var pieces []piece
	lines := strings.SplitAfter(src, "\n")
	jsStart, offset := 0, 0
	flush := func(end int) *parseError {
		if strings.TrimSpace(src[jsStart:end]) != "" {
			p, err := parsePiece(src, jsStart, end)
			if err != nil {
				return err
			}
			pieces = append(pieces, p)
		}
		return nil
	}
	for i, line := range lines {
		lineStart := offset
		offset += len(line)
		trimmed := strings.TrimSpace(line)
		m := commandRe.FindStringSubmatch(trimmed)
		if m == nil || !isCommandLine(m) {
			continue
		}
		if before := src[jsStart:lineStart]; strings.TrimSpace(before) != "" && !inputComplete(before) {
			continue
		}
		if err := flush(lineStart); err != nil {
			return nil, err
		}
		lead := len(line) - len(strings.TrimLeft(line, " \t"))
		pieces = append(pieces, piece{cmd: m[1], arg: strings.TrimSpace(m[2]),
			span: Span{StartLine: i + 1, EndLine: i + 1, Start: lineStart + lead, End: lineStart + lead + len(trimmed)}})
		jsStart = offset
	}
	if err := flush(len(src)); err != nil {
		return nil, err
	}
	return pieces, nil
}

// parseError is a syntax error with the span of the line it is on.
type parseError struct {
	err  error
	span Span
}

func (e *parseError) Error() string { return e.err.Error() }
func (e *parseError) Unwrap() error { return e.err }

// parsePiece parses src[start:end] as one program and lists its inputs.
func parsePiece(src string, start, end int) (piece, *parseError) {
	code := src[start:end]
	firstLine := strings.Count(src[:start], "\n") + 1
	prog, loops, err := parseScript("", code)
	if err != nil {
		err = awaitSyntaxError(err, code)
	} else {
		err = forAwaitOutsideAsync(code, prog, loops)
	}
	if err != nil {
		serr := syntaxErr(err, code, firstLine)
		line := firstLine
		var se *syntaxError
		if errors.As(serr, &se) && se.line > 0 {
			line = se.line
		}
		lineStart := lineOffset(src, line)
		lineEnd := lineStart + strings.IndexByte(src[lineStart:]+"\n", '\n')
		return piece{}, &parseError{err: serr, span: Span{StartLine: line, EndLine: line, Start: lineStart, End: lineEnd}}
	}
	p := piece{span: spanOf(src, start, end)}
	at := start
	var vars []string
	for _, st := range prog.Body {
		stStart, stEnd := statementBounds(code, st, at-start)
		if _, empty := st.(*ast.EmptyStatement); empty {
			at = start + stEnd
			continue
		}
		sp := spanOf(src, start+stStart, start+stEnd)
		switch d := st.(type) {
		case *ast.FunctionDeclaration:
			p.hoisted = append(p.hoisted, code[stStart:stEnd])
		case *ast.VariableStatement:
			for _, b := range d.List {
				if id, ok := b.Target.(*ast.Identifier); ok {
					vars = append(vars, string(id.Name))
				}
			}
		}
		// Statements that share a line are one input, as they would be
		// pasted into mongosh.
		if n := len(p.inputs); n > 0 && p.inputs[n-1].span.EndLine == sp.StartLine {
			p.inputs[n-1].span = spanOf(src, p.inputs[n-1].span.Start, sp.End)
		} else {
			p.inputs = append(p.inputs, input{span: sp})
		}
		at = start + stEnd
	}
	if len(vars) > 0 {
		// In one program a var exists (as undefined) from the start.
		p.hoisted = append([]string{"var " + strings.Join(vars, ", ") + ";"}, p.hoisted...)
	}
	return p, nil
}

// statementBounds is where statement st is in code: from its first
// character to its last, a trailing semicolon included. goja's offsets
// are not exact: an if statement's start is 0, and an expression's end
// leaves out the parentheses around its last part (`({a: 1})`). So a
// statement is taken to start at the first code after the previous one,
// and to end after any closing parentheses that follow goja's end.
func statementBounds(code string, st ast.Statement, prevEnd int) (int, int) {
	start := skipSpaceAndComments(code, prevEnd)
	end := int(st.Idx1()) - 1
	if end < start || end > len(code) {
		end = start
	}
	for {
		j := skipSpaceAndComments(code, end)
		if j >= len(code) || code[j] != ')' {
			break
		}
		end = j + 1
	}
	rest := strings.TrimLeft(code[end:], " \t")
	if strings.HasPrefix(rest, ";") {
		end = len(code) - len(rest) + 1
	}
	return start, end
}

func skipSpaceAndComments(code string, i int) int {
	for i < len(code) {
		switch {
		case code[i] == ' ' || code[i] == '\t' || code[i] == '\n' || code[i] == '\r':
			i++
		case strings.HasPrefix(code[i:], "//"):
			if j := strings.IndexByte(code[i:], '\n'); j >= 0 {
				i += j + 1
			} else {
				i = len(code)
			}
		case strings.HasPrefix(code[i:], "/*"):
			if j := strings.Index(code[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(code)
			}
		default:
			return i
		}
	}
	return i
}

// spanOf is the Span of src[start:end].
func spanOf(src string, start, end int) Span {
	startLine := strings.Count(src[:start], "\n") + 1
	return Span{StartLine: startLine, EndLine: startLine + strings.Count(src[start:end], "\n"), Start: start, End: end}
}

// lineOffset is the byte offset where 1-based line starts in src.
func lineOffset(src string, line int) int {
	at := 0
	for n := 1; n < line; n++ {
		i := strings.IndexByte(src[at:], '\n')
		if i < 0 {
			return len(src)
		}
		at += i + 1
	}
	return at
}

// isCommandLine rejects JavaScript that merely starts with a command word,
// such as `it = 5` or `show(x)`.
func isCommandLine(m []string) bool {
	switch m[1] {
	case "use":
		return m[2] != "" && !strings.ContainsAny(m[2], "=()")
	case "show":
		return m[2] != "" && !strings.ContainsAny(m[2], "=()")
	default:
		return m[2] == ""
	}
}

// inputComplete reports whether src parses, or fails for a reason other
// than running out of input (an error the REPL would report right away).
func inputComplete(src string) bool {
	_, err := parseJS(src)
	if err == nil {
		return true
	}
	msg := err.Error()
	if strings.Contains(msg, "end of input") || strings.Contains(msg, "Unexpected token EOF") ||
		strings.Contains(msg, "Unterminated") || strings.Contains(msg, "unterminated") {
		return false
	}
	if el, ok := err.(parser.ErrorList); ok && len(el) > 0 {
		// An error at the very end means the input stopped mid-construct.
		trimmed := strings.TrimRight(src, " \t\n")
		lastLine := strings.Count(trimmed, "\n") + 1
		lastCol := len(trimmed) - strings.LastIndexByte(trimmed, '\n')
		pos := el[0].Position
		if pos.Line > lastLine || (pos.Line == lastLine && pos.Column >= lastCol) {
			return false
		}
	}
	return true
}

// InputComplete reports whether src is a complete REPL input: a shell
// command line or JavaScript with no open bracket, string or template.
// Interactive front ends use it for continuation lines.
func InputComplete(src string) bool {
	t := strings.TrimSpace(src)
	if m := commandRe.FindStringSubmatch(t); m != nil && isCommandLine(m) {
		return true
	}
	return inputComplete(src)
}

// redeclarable rewrites top-level let/const/class declarations into var
// form. mongosh's async rewriter does the same, which is why re-running
// `const x = ...` in the same session works there (lessons re-run steps).
func redeclarable(src string) string {
	if !strings.Contains(src, "const") && !strings.Contains(src, "let") && !strings.Contains(src, "class") {
		return src // nothing to rewrite, and a parse saved
	}
	prog, err := parseJS(src)
	if err != nil {
		return src
	}
	type declEdit struct {
		at, cut int
		text    string
	}
	var edits []declEdit
	for _, st := range prog.Body {
		switch d := st.(type) {
		case *ast.LexicalDeclaration:
			at := int(d.Idx) - 1
			switch {
			case strings.HasPrefix(src[at:], "const"):
				edits = append(edits, declEdit{at, 5, "var  "})
			case strings.HasPrefix(src[at:], "let"):
				edits = append(edits, declEdit{at, 3, "var"})
			}
		case *ast.ClassDeclaration:
			if d.Class != nil && d.Class.Name != nil {
				at := int(d.Class.Class) - 1
				edits = append(edits, declEdit{at, 0, "var " + string(d.Class.Name.Name) + " = "})
			}
		}
	}
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		src = src[:e.at] + e.text + src[e.at+e.cut:]
	}
	return src
}

var posRe = regexp.MustCompile(`Line (\d+):(\d+) (.*?)(?: \(and \d+ more errors\))?$`)

// syntaxErr formats a parse error of code, whose first line is line
// firstLine of the script, as mongosh prints one.
func syntaxErr(err error, code string, firstLine int) error {
	if errors.Is(err, errCodeTooDeep) {
		return err
	}
	msg := strings.TrimPrefix(err.Error(), "SyntaxError: ")
	line, col := 0, 0
	var cse *goja.CompilerSyntaxError
	var el parser.ErrorList
	var be *babelError
	switch {
	case errors.As(err, &be):
		text := fmt.Sprintf("%s (%d:%d)\n\n%s", be.msg, be.line+firstLine-1, be.col, codeFrame(code, be.line, be.col+1, firstLine-1))
		return &syntaxError{msg: text, line: be.line + firstLine - 1}
	case errors.As(err, &el) && len(el) > 0:
		msg, line, col = el[0].Message, el[0].Position.Line, el[0].Position.Column
	case errors.As(err, &cse) && cse.File != nil:
		p := cse.File.Position(cse.Offset)
		msg, line, col = cse.Message, p.Line, p.Column
	default:
		if m := posRe.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			col, _ = strconv.Atoi(m[2])
			msg = m[3]
		}
	}
	if line == 0 {
		return &syntaxError{msg: msg}
	}
	// Babel-style position (1-based line, 0-based column) and code frame,
	// as mongosh prints them, numbered by the line in the whole script.
	text := fmt.Sprintf("%s. (%d:%d)\n\n%s", strings.TrimSuffix(msg, "."), line+firstLine-1, col-1, codeFrame(code, line, col, firstLine-1))
	return &syntaxError{msg: text, line: line + firstLine - 1}
}

// codeFrame is @babel/code-frame's layout: two lines above, three below,
// a caret under the column.
func codeFrame(src string, line, col, offset int) string {
	// A source ending in a newline has an empty last line, which
	// Babel's frame shows.
	lines := strings.Split(src, "\n")
	first, last := max(line-2, 1), min(line+3, len(lines))
	width := len(strconv.Itoa(last + offset))
	var sb strings.Builder
	for n := first; n <= last; n++ {
		marker := "  "
		if n == line {
			marker = "> "
		}
		num := strconv.Itoa(n + offset)
		sb.WriteString(marker + strings.Repeat(" ", width-len(num)) + num + " |")
		if lines[n-1] != "" {
			sb.WriteString(" " + lines[n-1])
		}
		sb.WriteByte('\n')
		if n == line {
			sb.WriteString("  " + strings.Repeat(" ", width) + " | " + strings.Repeat(" ", max(col-1, 0)) + "^\n")
		}
	}
	return strings.TrimRight(sb.String(), "\n")
}
