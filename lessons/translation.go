package lessons

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/file"
	jsparser "github.com/dop251/goja/parser"
	"github.com/dop251/goja/token"
	"github.com/dop251/goja/unistring"
)

// A translation is a lesson file with the id of an English lesson, in a
// language folder (id/, ru/) or with a `lang:` front-matter key. It is
// shown in the learner's language only if it is the same lesson in other
// words, which checkTranslation verifies:
//
//   - the same steps, and in each the same executable blocks in the same
//     order, of the same kinds, with the same options (throws, collection=,
//     figures=, which compare blocks form a comparison) and the same number
//     of exercise hints;
//   - the same code apart from comments and display strings: the blocks'
//     JavaScript token streams, read by goja's parser, are compared with
//     comments dropped and the text of string and template literals blanked,
//     except property names in object literals (field names are code);
//   - label= may differ: it is a display string;
//   - a `text expect` block quotes output, where a translated print shows
//     translated words: it must have the same number of lines, each with the
//     same digits in the same order and the same `...` wildcards, so that it
//     checks the same figures;
//   - prose, titles, summary, headings and hints are the translator's.
//
// So that `run --check` gives the same figures in every language, strings
// that become data (field values, collection names) should stay as they are
// in English; the check cannot tell them from printed ones.

// checkTranslation lists how translation t departs from its original o,
// each problem naming t's file and line; none means t may stand in for o.
// On success t takes o's step IDs (steps pair by position), so that
// progress is one record whatever the language, and o's order and minutes.
func checkTranslation(o, t *Lesson) []error {
	var errs []error
	fail := func(line int, format string, args ...any) {
		errs = append(errs, &ParseError{File: t.File, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	if (t.Order != 0 && t.Order != o.Order) || (t.Minutes != 0 && t.Minutes != o.Minutes) {
		fail(2, "order and minutes must be those of %s (order %g, minutes %d), or left out", o.File, o.Order, o.Minutes)
	}
	if len(t.Steps) != len(o.Steps) {
		fail(t.Steps[min(len(o.Steps), len(t.Steps)-1)].Line, "the translation has %d steps, %s has %d", len(t.Steps), o.File, len(o.Steps))
		return errs
	}
	for i := range o.Steps {
		errs = append(errs, checkStep(o, t, i)...)
	}
	if len(errs) > 0 {
		return errs
	}
	for i := range o.Steps {
		t.Steps[i].ID = o.Steps[i].ID
	}
	t.Order, t.Minutes = o.Order, o.Minutes
	return nil
}

func checkStep(o, t *Lesson, i int) []error {
	es, ts := &o.Steps[i], &t.Steps[i]
	var errs []error
	fail := func(line int, format string, args ...any) {
		errs = append(errs, &ParseError{File: t.File, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	ob, tb := executable(es), executable(ts)
	where := func(b *Block) string { return fmt.Sprintf("%s:%d", o.File, b.Line) }
	for k := 0; k < max(len(ob), len(tb)); k++ {
		if k < len(ob) && k < len(tb) && ob[k].Kind == tb[k].Kind {
			continue
		}
		switch {
		case len(tb) > len(ob):
			fail(tb[k].Line, "an extra %s block: step %d of %s has %d executable blocks, this one %d", tb[k].Kind, i+1, o.File, len(ob), len(tb))
		case len(tb) < len(ob):
			line := ts.Line
			if k < len(tb) {
				line = tb[k].Line
			}
			fail(line, "step %d lacks the %s block of %s", i+1, ob[k].Kind, where(ob[k]))
		default:
			fail(tb[k].Line, "a %s block where %s has a %s block", tb[k].Kind, where(ob[k]), ob[k].Kind)
		}
		return errs
	}
	for k := range ob {
		e, b := ob[k], tb[k]
		switch {
		case e.Throws != b.Throws:
			fail(b.Line, "`throws` must be as in %s", where(e))
		case e.Kind == Compare && e.Group != b.Group:
			fail(b.Line, "this compare block belongs to another comparison than in %s: keep the same prose between compare blocks", where(e))
		case e.Kind == Compare && e.Variant.Collection != b.Variant.Collection:
			fail(b.Line, "collection=%q must be collection=%q, as in %s", b.Variant.Collection, e.Variant.Collection, where(e))
		}
		switch e.Kind {
		case Prose, ExerciseHint:
		case ExpectOutput:
			if line, msg := sameFigures(e.Text, b.Text); msg != "" {
				fail(b.Line+1+line, "this expected output must check what %s:%d checks: %s", o.File, e.Line+1+line, msg)
			}
		default:
			if d := sameCode(e.Text, b.Text); d != nil {
				fail(b.Line+1+d.line, "the code differs from %s:%d beyond comments and strings: %s", o.File, e.Line+1+d.enLine, d.text)
			}
			if e.Kind == Compare {
				if msg := sameCode(e.Variant.Figures, b.Variant.Figures); msg != nil {
					fail(b.Line, "figures= differs from %s beyond strings: %s", where(e), msg.text)
				}
			}
		}
	}
	return errs
}

// executable is the step's blocks other than prose, in order.
func executable(s *Step) []*Block {
	var out []*Block
	for i := range s.Blocks {
		if s.Blocks[i].Kind != Prose {
			out = append(out, &s.Blocks[i])
		}
	}
	return out
}

// sameFigures compares an expected output with the English one: the same
// lines, each with the same digits and `...` wildcards. "" means they do;
// else line is the (0-based) line of tr where they differ.
func sameFigures(en, tr string) (line int, msg string) {
	el, tl := trimBlank(strings.Split(en, "\n")), trimBlank(strings.Split(tr, "\n"))
	if len(el) != len(tl) {
		return 0, fmt.Sprintf("%d lines, not %d", len(el), len(tl))
	}
	digits := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, s)
	}
	for i := range el {
		if digits(el[i]) != digits(tl[i]) || strings.Count(el[i], "...") != strings.Count(tl[i], "...") {
			return i, fmt.Sprintf("other figures or wildcards than %q", strings.TrimSpace(el[i]))
		}
	}
	return 0, ""
}

// codeDiff is where two blocks' code differs: the lines (0-based) in the
// translation's block and in the English one, and what to tell the author.
type codeDiff struct {
	line, enLine int
	text         string
}

// sameCode compares two pieces of lesson JavaScript as token streams of
// their syntax trees, comments gone and literal text blanked; nil means
// they are the same code.
func sameCode(en, tr string) *codeDiff {
	if en == tr {
		return nil
	}
	et, eerr := jsTokens(en)
	tt, terr := jsTokens(tr)
	if eerr != nil || terr != nil {
		// Code goja cannot read (a mongosh command line such as `show
		// collections`) cannot be compared token by token: it must be
		// the English code, character for character.
		return &codeDiff{text: "the code is not JavaScript the check can read, so it must be the English code exactly"}
	}
	for k := 0; k < max(len(et), len(tt)); k++ {
		if k < len(et) && k < len(tt) && et[k].text == tt[k].text {
			continue
		}
		var line int
		var here string
		if k < len(tt) {
			line = tt[k].line - 1
		} else if len(tt) > 0 {
			line = tt[len(tt)-1].line - 1
		}
		here = strings.TrimSpace(lineOf(tr, line))
		enLine := 0
		if k < len(et) {
			enLine = et[k].line - 1
		} else if len(et) > 0 {
			enLine = et[len(et)-1].line - 1
		}
		return &codeDiff{line: line, enLine: enLine, text: fmt.Sprintf("here %q, in English %q", here, strings.TrimSpace(lineOf(en, enLine)))}
	}
	return nil
}

func lineOf(src string, i int) string {
	lines := strings.Split(src, "\n")
	if i < 0 || i >= len(lines) {
		return ""
	}
	return lines[i]
}

// jsToken is one element of a program's token stream and its line
// (1-based) in the block.
type jsToken struct {
	text string
	line int
}

// jsTokens reads src with goja's parser, as the shell does (a top-level
// await is read inside an async function, as mongosh allows it), and
// lists its syntax tree as tokens: node kinds, names, operators, numbers,
// regular expressions and property names, with literal text blanked.
// Comments are not in the tree, so they are not in the stream.
func jsTokens(src string) ([]jsToken, error) {
	prog, err := jsparser.ParseFile(nil, "", src, 0, jsparser.WithDisableSourceMaps)
	offset := 0
	if err != nil && strings.Contains(src, "await") {
		if p2, err2 := jsparser.ParseFile(nil, "", "(async () => {\n"+src+"\n})", 0, jsparser.WithDisableSourceMaps); err2 == nil {
			prog, err, offset = p2, nil, 1
		}
	}
	if err != nil {
		return nil, err
	}
	w := &tokenWalk{file: prog.File, offset: offset, line: 1}
	for _, st := range prog.Body {
		w.value(reflect.ValueOf(st))
	}
	return w.out, nil
}

type tokenWalk struct {
	file   *file.File
	offset int
	line   int
	out    []jsToken
}

var (
	idxType     = reflect.TypeFor[file.Idx]()
	tokenType   = reflect.TypeFor[token.Token]()
	unistrType  = reflect.TypeFor[unistring.String]()
	nodeType    = reflect.TypeFor[ast.Node]()
	filePtrType = reflect.TypeFor[*file.File]()
)

func (w *tokenWalk) emit(s string) { w.out = append(w.out, jsToken{text: s, line: w.line}) }

// value walks one node or field of the tree.
func (w *tokenWalk) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			w.emit("∅")
			return
		}
		w.value(v.Elem())
		return
	case reflect.Pointer:
		if v.IsNil() {
			w.emit("∅")
			return
		}
		if v.Type().Implements(nodeType) {
			n := v.Interface().(ast.Node)
			if p := w.file.Position(int(n.Idx0()) - w.file.Base()); p.Line > 0 {
				w.line = p.Line - w.offset
			}
		}
		switch n := v.Interface().(type) {
		case *ast.StringLiteral:
			w.emit(`""`)
			return
		case *ast.TemplateElement:
			w.emit("``")
			return
		case *ast.PropertyKeyed:
			// A property name is a field name, code however it is quoted.
			if key, ok := n.Key.(*ast.StringLiteral); ok && !n.Computed {
				w.emit("PropertyKeyed")
				w.emit("key:" + string(key.Value))
				w.emit(string(n.Kind))
				w.value(reflect.ValueOf(n.Value))
				return
			}
		}
		w.value(v.Elem())
		return
	case reflect.Struct:
		t := v.Type()
		w.emit(t.Name())
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			switch {
			case f.Type == idxType, f.Type == filePtrType, f.Name == "Source", f.Name == "DeclarationList":
				// Positions, the raw source (with its comments), and the
				// declarations the parser lists again beside the body.
				continue
			}
			w.value(v.Field(i))
		}
		return
	case reflect.Slice:
		w.emit(fmt.Sprintf("[%d", v.Len()))
		for i := 0; i < v.Len(); i++ {
			w.value(v.Index(i))
		}
		w.emit("]")
		return
	}
	switch {
	case v.Type() == tokenType:
		w.emit(v.Interface().(token.Token).String())
	case v.Type() == unistrType:
		w.emit(string(v.Interface().(unistring.String)))
	default:
		w.emit(fmt.Sprint(v.Interface()))
	}
}
