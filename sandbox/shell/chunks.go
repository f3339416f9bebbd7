package shell

import (
	"regexp"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

// chunk is one unit mongosh's REPL would evaluate: either a shell command
// line (use/show/it) or a complete JavaScript input.
type chunk struct {
	src  string
	line int // 1-based first line
	cmd  string
	arg  string
}

var commandRe = regexp.MustCompile(`^(use|show|it|exit|quit)(?:\s+([^;]*?))?\s*;?\s*$`)

// splitChunks cuts a script the way mongosh's REPL reads pasted lines:
// a line is evaluated as soon as the input so far is a complete program,
// and shell commands are recognised only at the start of an input. As a
// convenience over the REPL, a following line that starts with "." (a
// chained call) continues the current input.
func splitChunks(src string) []chunk {
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	var out []chunk
	var pending strings.Builder
	startLine := 0
	for i, line := range lines {
		if pending.Len() == 0 {
			trimmed := strings.TrimSpace(line)
			if trimmed == "" {
				continue
			}
			if m := commandRe.FindStringSubmatch(trimmed); m != nil && isCommandLine(m) {
				out = append(out, chunk{src: trimmed, line: i + 1, cmd: m[1], arg: strings.TrimSpace(m[2])})
				continue
			}
			startLine = i + 1
		}
		pending.WriteString(line)
		pending.WriteByte('\n')
		if nextStartsWithDot(lines[i+1:]) {
			continue
		}
		if inputComplete(pending.String()) {
			out = append(out, chunk{src: pending.String(), line: startLine})
			pending.Reset()
		}
	}
	if strings.TrimSpace(pending.String()) != "" {
		out = append(out, chunk{src: pending.String(), line: startLine})
	}
	return out
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

func nextStartsWithDot(rest []string) bool {
	for _, l := range rest {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		return strings.HasPrefix(t, ".") && !strings.HasPrefix(t, "...") && (len(t) < 2 || t[1] < '0' || t[1] > '9')
	}
	return false
}

var awaitRe = regexp.MustCompile(`\bawait\b`)

// stripAwait blanks top-level await keywords. Shell methods are
// synchronous, so `await db.c.findOne()` is the same as `db.c.findOne()`;
// promises left at the top level are settled by the runner.
func stripAwait(src string) string {
	return awaitRe.ReplaceAllString(src, "     ")
}

// inputComplete reports whether src parses, or fails for a reason other
// than running out of input (an error the REPL would report right away).
func inputComplete(src string) bool {
	_, err := parser.ParseFile(nil, "", src, 0)
	if err == nil {
		return true
	}
	if strings.Contains(src, "await") {
		if _, err2 := parser.ParseFile(nil, "", stripAwait(src), 0); err2 == nil {
			return true
		} else {
			err = err2
		}
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
	prog, err := parser.ParseFile(nil, "", stripAwait(src), 0)
	if err != nil {
		return src
	}
	type edit struct {
		at, cut int
		text    string
	}
	var edits []edit
	for _, st := range prog.Body {
		switch d := st.(type) {
		case *ast.LexicalDeclaration:
			at := int(d.Idx) - 1
			switch {
			case strings.HasPrefix(src[at:], "const"):
				edits = append(edits, edit{at, 5, "var  "})
			case strings.HasPrefix(src[at:], "let"):
				edits = append(edits, edit{at, 3, "var"})
			}
		case *ast.ClassDeclaration:
			if d.Class != nil && d.Class.Name != nil {
				at := int(d.Class.Class) - 1
				edits = append(edits, edit{at, 0, "var " + string(d.Class.Name.Name) + " = "})
			}
		}
	}
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		src = src[:e.at] + e.text + src[e.at+e.cut:]
	}
	return src
}
