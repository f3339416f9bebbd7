package shell

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
	"go.mongodb.org/mongo-driver/v2/bson"
)

// runChunk evaluates one REPL input and records its printed result.
func (s *Shell) runChunk(ch chunk) (err error) {
	defer func() {
		if r := recover(); r != nil {
			// A native helper hit something unexpected; report it as a
			// JS error rather than taking the process down.
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	if ch.cmd != "" {
		return s.runShellCommand(ch)
	}
	src := redeclarable(ch.src)
	prog, err := goja.Compile("", src, false)
	if err != nil && strings.Contains(src, "await") {
		if p2, err2 := compileTopLevelAwait(src); err2 == nil {
			prog, err = p2, nil
		}
	}
	if err != nil {
		return s.syntaxErr(err, ch)
	}
	v, err := s.vm.RunProgram(prog)
	if err != nil {
		return err
	}
	return s.emitValue(v)
}

var posRe = regexp.MustCompile(`Line (\d+):(\d+) (.*?)(?: \(and \d+ more errors\))?$`)

func (s *Shell) syntaxErr(err error, ch chunk) error {
	msg := strings.TrimPrefix(err.Error(), "SyntaxError: ")
	line, col := 0, 0
	var cse *goja.CompilerSyntaxError
	var el parser.ErrorList
	switch {
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
	text := fmt.Sprintf("%s. (%d:%d)\n\n%s", strings.TrimSuffix(msg, "."), line+ch.line-1, col-1, codeFrame(ch.src, line, col, ch.line-1))
	return &syntaxError{msg: text}
}

// codeFrame is @babel/code-frame's layout: two lines above, three below,
// a caret under the column.
func codeFrame(src string, line, col, offset int) string {
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
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

// emitValue prints a statement's value as mongosh's formatOutput does.
func (s *Shell) emitValue(v goja.Value) error {
	if v == nil || goja.IsUndefined(v) {
		return nil
	}
	if o, ok := v.(*goja.Object); ok {
		if p, ok := o.Export().(*goja.Promise); ok {
			switch p.State() {
			case goja.PromiseStateFulfilled:
				return s.emitValue(p.Result())
			case goja.PromiseStateRejected:
				return &thrown{v: p.Result()}
			default:
				return nil
			}
		}
		if t := o.GetSymbol(s.typeSym); t != nil && !goja.IsUndefined(t) {
			return s.emitShellObject(o, t.String())
		}
	}
	d := s.display(v)
	s.emit(FormatResult(d), d)
	return nil
}

func (s *Shell) callMethod(o *goja.Object, name string) (goja.Value, error) {
	fn, ok := goja.AssertFunction(o.Get(name))
	if !ok {
		return nil, fmt.Errorf("%s is not a function", name)
	}
	return fn(o)
}

func (s *Shell) emitShellObject(o *goja.Object, typ string) error {
	switch typ {
	case "Cursor":
		s.lastCursor = o
		return s.emitCursorBatch(o, false)
	case "ExplainableCursor":
		v, err := s.callMethod(o, "_finish")
		if err != nil {
			return err
		}
		d := s.display(v)
		s.emit(Format(d, fullFormat), d)
		return nil
	case "ExplainOutput":
		d := s.display(o)
		s.emit(Format(d, fullFormat), d)
		return nil
	case "Database":
		name := o.Get("_name").String()
		s.emit(name, name)
		return nil
	case "Collection":
		name := o.Get("_database").ToObject(s.vm).Get("_name").String() + "." + o.Get("_name").String()
		s.emit(name, name)
		return nil
	case "Explainable":
		c := o.Get("_c").ToObject(s.vm)
		name := "Explainable(" + c.Get("_database").ToObject(s.vm).Get("_name").String() + "." + c.Get("_name").String() + ")"
		s.emit(name, name)
		return nil
	}
	d := s.display(o)
	s.emit(FormatResult(d), d)
	return nil
}

// emitCursorBatch prints up to 20 documents of a cursor and the
// 'Type "it" for more' hint. it reports "no cursor" on an exhausted cursor
// when asked to continue, as mongosh's `it` does.
func (s *Shell) emitCursorBatch(o *goja.Object, viaIt bool) error {
	v, err := s.callMethod(o, "_it")
	if err != nil {
		return err
	}
	r := v.ToObject(s.vm)
	docs := s.display(r.Get("docs"))
	more := r.Get("more").ToBoolean()
	arr, _ := docs.(bson.A)
	if len(arr) == 0 {
		if viaIt {
			s.emit("no cursor", "no cursor")
		}
		return nil
	}
	text := Format(arr, fullFormat)
	if more {
		text += "\nType \"it\" for more"
	}
	s.emit(text, arr)
	return nil
}

// shellObjectDisplay is how shell API objects look inside other values.
func (s *Shell) shellObjectDisplay(o *goja.Object, typ string) (any, error) {
	switch typ {
	case "Database":
		return o.Get("_name").String(), nil
	case "Collection":
		return o.Get("_database").ToObject(s.vm).Get("_name").String() + "." + o.Get("_name").String(), nil
	case "ExplainOutput":
		keys := o.Keys()
		d := make(bson.D, 0, len(keys))
		for _, k := range keys {
			ev, err := s.toBSON(o.Get(k), 1, true)
			if err != nil {
				return nil, err
			}
			d = append(d, bson.E{Key: k, Value: ev})
		}
		return d, nil
	}
	return Instance{Name: typ}, nil
}

// runShellCommand handles use/show/it/exit lines.
func (s *Shell) runShellCommand(ch chunk) error {
	switch ch.cmd {
	case "use":
		name := strings.Trim(ch.arg, `"'`)
		if name == s.DB() {
			s.emit("already on db "+name, "already on db "+name)
			return nil
		}
		if _, err := s.setDB(goja.Undefined(), s.vm.ToValue(name)); err != nil {
			return err
		}
		s.dbMu.Lock()
		s.db = name
		s.dbMu.Unlock()
		s.emit("switched to db "+name, "switched to db "+name)
		return nil
	case "it":
		if s.lastCursor == nil {
			s.emit("no cursor", "no cursor")
			return nil
		}
		return s.emitCursorBatch(s.lastCursor, true)
	case "exit", "quit":
		return nil
	case "show":
		return s.runShow(ch.arg)
	}
	return nil
}

func (s *Shell) runShow(what string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if o, ok := r.(*goja.Object); ok {
				err = &thrown{v: o}
				return
			}
			panic(r)
		}
	}()
	switch strings.Fields(what)[0] {
	case "dbs", "databases":
		res := s.command("admin", bson.D{{Key: "listDatabases", Value: 1}})
		dbs, _ := lookupD(res, "databases").(bson.A)
		var rows [][2]string
		for _, d := range dbs {
			dd, _ := d.(bson.D)
			name, _ := lookupD(dd, "name").(string)
			rows = append(rows, [2]string{name, formatBytes(toFloat(lookupD(dd, "sizeOnDisk")))})
		}
		text := textTable(rows, true)
		s.emit(text, dbs)
	case "collections", "tables":
		docs := s.cursorCommand(s.DB(), bson.D{{Key: "listCollections", Value: 1}, {Key: "nameOnly", Value: true}})
		var names []string
		for _, d := range docs {
			dd, _ := d.(bson.D)
			n, _ := lookupD(dd, "name").(string)
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool {
			si, sj := strings.HasPrefix(names[i], "system."), strings.HasPrefix(names[j], "system.")
			if si != sj {
				return !si
			}
			return names[i] < names[j]
		})
		vals := make(bson.A, len(names))
		for i, n := range names {
			vals[i] = n
		}
		s.emit(strings.Join(names, "\n"), vals)
	default:
		o := s.jsError("MongoshInvalidInputError", "'"+what+"' is not a valid argument for \"show\".")
		return &thrown{v: o}
	}
	return nil
}

func toFloat(v any) float64 {
	switch x := v.(type) {
	case int32:
		return float64(x)
	case int64:
		return float64(x)
	case float64:
		return x
	}
	return 0
}

// formatBytes is numeral(value).format('0 ib' or '0.00 ib') as mongosh's
// show dbs uses it.
func formatBytes(v float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	i := 0
	x := v
	for x >= 1024 && i < len(units)-1 {
		x /= 1024
		i++
	}
	if v <= 1000 {
		return strconv.FormatFloat(math.Round(x), 'f', 0, 64) + " " + units[i]
	}
	return strconv.FormatFloat(x, 'f', 2, 64) + " " + units[i]
}

// textTable lays out two columns as the text-table package does: left
// aligned names, the second column right aligned, two spaces between.
func textTable(rows [][2]string, rightAlign bool) string {
	w0, w1 := 0, 0
	for _, r := range rows {
		w0 = max(w0, len(r[0]))
		w1 = max(w1, len(r[1]))
	}
	lines := make([]string, len(rows))
	for i, r := range rows {
		second := r[1]
		if rightAlign {
			second = strings.Repeat(" ", w1-len(r[1])) + r[1]
		}
		lines[i] = strings.TrimRight(r[0]+strings.Repeat(" ", w0-len(r[0]))+"  "+second, " ")
	}
	return strings.Join(lines, "\n")
}

// compileTopLevelAwait compiles an input that uses await outside an async
// function, as mongosh allows. Without top-level declarations the input
// runs inside an async function, so awaited promises settle in order;
// declarations must stay global, so such inputs run with the await
// keywords removed instead (shell methods are synchronous, so that only
// changes the ordering of user-written async functions within the input).
func compileTopLevelAwait(src string) (*goja.Program, error) {
	stripped := stripAwait(src)
	prog, err := parser.ParseFile(nil, "", stripped, 0)
	if err != nil {
		return nil, err
	}
	declares := false
	for _, st := range prog.Body {
		switch st.(type) {
		case *ast.VariableStatement, *ast.LexicalDeclaration, *ast.FunctionDeclaration, *ast.ClassDeclaration:
			declares = true
		}
	}
	if !declares && len(prog.Body) > 0 {
		last := prog.Body[len(prog.Body)-1]
		var wrapped string
		if es, ok := last.(*ast.ExpressionStatement); ok {
			start, end := int(es.Idx0())-1, int(es.Idx1())-1
			wrapped = "(async () => {" + src[:start] + "return (" + strings.TrimRight(src[start:end], "; \n") + ");\n})()"
		} else {
			wrapped = "(async () => {" + src + "\n})()"
		}
		if p, err := goja.Compile("", wrapped, false); err == nil {
			return p, nil
		}
	}
	return goja.Compile("", stripped, false)
}
