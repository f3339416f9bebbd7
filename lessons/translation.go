package lessons

import (
	"fmt"
	"strings"

	"github.com/schemalab/schemalab/sandbox/shell"
)

// A translation is a lesson file with the id of an English lesson, in a
// language folder (id/, ru/) or with a `lang:` front-matter key. It is
// shown in the learner's language only if it is the same lesson in other
// words, which checkTranslation verifies:
//
//   - the same steps, and in each the same executable blocks in the same
//     order, of the same kinds, with the same options (throws, collection=,
//     writes=, figures=, which compare blocks form a comparison) and the same number
//     of exercise hints;
//   - the same code apart from comments and display strings: the blocks'
//     JavaScript, read by the shell's parser (shell.Shape), is compared with
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
		case e.Kind == Compare && e.Variant.Writes != b.Variant.Writes:
			fail(b.Line, "writes=%q must be writes=%q, as in %s", b.Variant.Writes, e.Variant.Writes, where(e))
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

// sameCode compares two pieces of lesson JavaScript by their shapes as
// the shell reads them, comments gone and literal text blanked; nil
// means they are the same code.
func sameCode(en, tr string) *codeDiff {
	if en == tr {
		return nil
	}
	et, eerr := shell.Shape(en)
	tt, terr := shell.Shape(tr)
	if eerr != nil || terr != nil {
		// Code goja cannot read (a mongosh command line such as `show
		// collections`) cannot be compared token by token: it must be
		// the English code, character for character.
		return &codeDiff{text: "the code is not JavaScript the check can read, so it must be the English code exactly"}
	}
	for k := 0; k < max(len(et), len(tt)); k++ {
		if k < len(et) && k < len(tt) && et[k].Text == tt[k].Text {
			continue
		}
		var line int
		var here string
		if k < len(tt) {
			line = tt[k].Line - 1
		} else if len(tt) > 0 {
			line = tt[len(tt)-1].Line - 1
		}
		here = strings.TrimSpace(lineOf(tr, line))
		enLine := 0
		if k < len(et) {
			enLine = et[k].Line - 1
		} else if len(et) > 0 {
			enLine = et[len(et)-1].Line - 1
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
