// Package notebook shows a block of code with each statement's output
// directly under that statement, the way a notebook does.
//
// Its visual grammar, read down the two-cell gutter:
//
//		› db.readings.countDocuments()                         2 ms
//		⇒ 144000
//
//		› db.readings.find({ sensorId: 's7' }, { _id: 0, at: 1,
//		↪   temp: 1 }).sort({ at: -1 }).limit(3)
//		⇒ [
//		│   { at: ISODate('2026-09-02T07:59:00.000Z'), temp: 23.1 },
//		│ ]
//
//	  - › opens a statement; its further lines have a blank gutter, and ↪
//	    marks a long line wrapped by the code component (never inside a
//	    token). Its time, when given, sits at the right of its first row.
//	  - ⇒ opens what that statement produced: printed text, then its value,
//	    as mongosh shows them; │ runs down the rest of it, so the reach of
//	    one output is visible, and ✗ opens an error.
//	  - A blank row closes each statement that produced something, so
//	    statements without output (const, function) read as one piece of
//	    code and each output sits between its statement and the next.
//
// An output longer than the collapse limit shows its first rows and a
// hint row, "… 140 more lines · a shows all"; the key expands the output
// whose hint is nearest the top of the window, and collapses it again.
// Outputs come formatted by the shell for the width they are shown at and
// are never re-wrapped: a line that is still too wide makes that output's
// rows scroll sideways (under a "more →" cue), so mongosh's structure is
// never broken into lone } lines. Errors, which are sentences, wrap at
// spaces.
//
// The input types are plain structs the TUI fills from a lesson
// session's results; the package imports neither lessons nor the shell.
// A Notebook is a renderer, as prose and table are: it lays a block out
// as rows, and the pane it is shown in scrolls them.
package notebook

import (
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/components/code"
	"github.com/schemalab/schemalab/tui/components/inline"
	"github.com/schemalab/schemalab/tui/components/viewport"
)

// Span is a statement's lines in the block's code: 1-based, inclusive.
type Span struct{ Start, End int }

// Statement is one statement of a block and what running it produced.
type Statement struct {
	Span Span
	// Printed is what print, printjson or console.log wrote while it ran.
	Printed string
	// Output is its value as mongosh prints it; "" when undefined.
	Output string
	// Error is the message of the error it threw, if any.
	Error   string
	Elapsed time.Duration
}

// Block is a block of code and its statements. Lines of Code outside
// every statement's span (comments, blank lines) are shown as code.
type Block struct {
	Code string
	// Lang is the code's language for highlighting; "" is JavaScript.
	Lang       string
	Statements []Statement
}

// DefaultCollapse is how many rows of an output show before the rest
// collapses behind a hint.
const DefaultCollapse = 12

// Options configure a Notebook.
type Options struct {
	// CollapseAfter is the rows of an output shown while collapsed; 0
	// means DefaultCollapse, a negative number never collapses.
	CollapseAfter int
	// CodeMode is whether long code lines wrap or scroll.
	CodeMode code.Mode
}

var (
	msgMoreLines = &locale.Message{ID: "notebook.more", One: "… {{.Count}} more line · {{.Key}} shows all", Other: "… {{.Count}} more lines · {{.Key}} shows all"}
	msgCollapse  = &locale.Message{ID: "notebook.collapse", One: "▴ {{.Count}} line · {{.Key}} collapses", Other: "▴ {{.Count}} lines · {{.Key}} collapses"}
	msgElapsedMs = &locale.Message{ID: "notebook.elapsedMs", Other: "{{.N}} ms"}
	msgElapsedS  = &locale.Message{ID: "notebook.elapsedS", Other: "{{.N}} s"}
)

// Part is what a row of the notebook shows.
type Part int

const (
	Code Part = iota
	Output
	Error
	// Hint is the row that says how much of an output is hidden.
	Hint
	// Gap is a blank or cue row.
	Gap
)

// RowInfo says what a row belongs to.
type RowInfo struct {
	// Statement is the index of the statement, or -1 for code outside
	// every statement and for gaps.
	Statement int
	Part      Part
	// Line is the 0-based source line of a Code row.
	Line int
}

// Notebook is a block laid out with its statements' outputs, as rows
// for a pane to scroll.
type Notebook struct {
	common.Common
	opts  Options
	block Block
	code  *code.Block
	outs  []output
	// width and rows are the last layout; info says what each row shows.
	width int
	rows  []viewport.Row
	info  []RowInfo

	scrolls  string
	gutters  gutters
	muted    lipgloss.Style
	errTheme *inline.Theme
}

// gutters are the gutter marks, rendered once: a notebook of 2,000 output
// rows draws them 2,000 times on each layout.
type gutters struct {
	statement, cont, output, rule, err string
}

// output is a statement's output lines, measured once.
type output struct {
	lines    []string
	widths   []int
	err      string
	hasErr   bool
	expanded bool
}

// New is block b, to be laid out at a width.
func New(c common.Common, b Block, opts Options) *Notebook {
	st := c.Styles
	m := &Notebook{Common: c, opts: opts, block: b, muted: st.Muted, scrolls: viewport.ScrollHint(c),
		gutters: gutters{
			statement: st.Accent.Render("›") + " ",
			cont:      st.Muted.Render(code.ContinuationMarker) + " ",
			output:    st.Accent.Render("⇒") + " ",
			rule:      st.Muted.Render("│") + " ",
			err:       st.Error.Render("✗") + " ",
		},
		errTheme: &inline.Theme{Base: st.Error.UnsetBold()}}
	m.code = code.New(b.Code, code.Options{Styles: st, Lang: b.Lang, Mode: opts.CodeMode})
	m.outs = make([]output, len(b.Statements))
	for i, s := range b.Statements {
		var lines []string
		for _, t := range []string{s.Printed, s.Output} {
			if t = strings.TrimRight(t, "\n"); t != "" {
				lines = append(lines, strings.Split(t, "\n")...)
			}
		}
		o := output{lines: lines, widths: make([]int, len(lines))}
		for j, l := range lines {
			o.widths[j] = cellWidth(l)
		}
		if e := strings.TrimRight(s.Error, "\n"); e != "" {
			o.err, o.hasErr = e, true
		}
		m.outs[i] = o
	}
	return m
}

func cellWidth(s string) int {
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// Rows is the block laid out for width cells; Info then says what each
// row shows.
func (m *Notebook) Rows(width int) []viewport.Row {
	if width != m.width || m.rows == nil {
		m.width = width
		m.rows, m.info = m.layout(width)
	}
	return m.rows
}

// Expanded reports whether statement i's output shows in full.
func (m *Notebook) Expanded(i int) bool { return m.outs[i].expanded }

// Collapsible reports whether statement i's output is long enough to
// collapse.
func (m *Notebook) Collapsible(i int) bool {
	limit := m.limit()
	return limit > 0 && len(m.outs[i].lines) > limit+1
}

// SetExpanded shows statement i's output in full or collapsed.
func (m *Notebook) SetExpanded(i int, on bool) {
	if m.outs[i].expanded != on {
		m.outs[i].expanded = on
		m.rows = nil
	}
}

func (m *Notebook) limit() int {
	switch {
	case m.opts.CollapseAfter < 0:
		return 0
	case m.opts.CollapseAfter == 0:
		return DefaultCollapse
	}
	return m.opts.CollapseAfter
}

// Info is what each row of the last layout shows.
func (m *Notebook) Info() []RowInfo { return m.info }

const gutterWidth = 2

// layout is the block laid out for width cells, with what each row shows.
func (m *Notebook) layout(width int) ([]viewport.Row, []RowInfo) {
	body := max(width-gutterWidth, 1)
	codeRows := m.code.Layout(body)
	starts := map[int]int{}
	ends := map[int][]int{}
	last := max(m.code.Lines()-1, 0)
	for i, s := range m.block.Statements {
		start := min(max(s.Span.Start-1, 0), last)
		end := min(max(s.Span.End-1, start), last)
		if _, ok := starts[start]; !ok {
			starts[start] = i
		}
		ends[end] = append(ends[end], i)
	}
	rows := make([]viewport.Row, 0, len(codeRows)+8)
	info := make([]RowInfo, 0, cap(rows))
	add := func(r viewport.Row, ri RowInfo) {
		rows = append(rows, r)
		info = append(info, ri)
	}
	scroll := m.opts.CodeMode == code.Scroll
	codeW := 0 // widest scrolling code row since the last cue
	owner := -1
	for k, r := range codeRows {
		g := "  "
		stmt, first := starts[r.Line]
		if first && !r.Cont {
			g, owner = m.gutters.statement, stmt
		} else if r.Cont {
			g = m.gutters.cont
		}
		text := r.Text
		if first && !r.Cont {
			text += m.elapsed(m.block.Statements[stmt].Elapsed, body-r.Width)
		}
		own := owner
		if !m.inSpan(owner, r.Line) {
			own = -1
		}
		// A token wider than the row (a long string) overflows it: the row
		// scrolls sideways rather than lose the token's end.
		wide := scroll || r.Width > body
		add(viewport.Row{Gutter: g, Text: text, Scroll: wide}, RowInfo{Statement: own, Part: Code, Line: r.Line})
		if wide {
			codeW = max(codeW, r.Width+gutterWidth)
		}
		if k+1 < len(codeRows) && codeRows[k+1].Line == r.Line {
			continue
		}
		produced := false
		for _, i := range ends[r.Line] {
			if m.hasOutput(i) && codeW > width {
				add(viewport.CueRow(codeW, m.scrolls), RowInfo{Statement: -1, Part: Gap})
				codeW = 0
			}
			produced = m.outputRows(i, body, add) || produced
		}
		if produced && k+1 < len(codeRows) {
			add(viewport.Row{}, RowInfo{Statement: -1, Part: Gap})
		}
	}
	if codeW > width {
		add(viewport.CueRow(codeW, m.scrolls), RowInfo{Statement: -1, Part: Gap})
	}
	return rows, info
}

func (m *Notebook) inSpan(stmt, line int) bool {
	if stmt < 0 {
		return false
	}
	s := m.block.Statements[stmt].Span
	return line >= s.Start-1 && line <= max(s.End-1, s.Start-1)
}

func (m *Notebook) hasOutput(i int) bool {
	return len(m.outs[i].lines) > 0 || m.outs[i].hasErr
}

// outputRows adds statement i's output rows and reports whether it had
// any.
func (m *Notebook) outputRows(i, body int, add func(viewport.Row, RowInfo)) bool {
	o := &m.outs[i]
	shown := o.lines
	collapsed := m.Collapsible(i) && !o.expanded
	if collapsed {
		shown = shown[:m.limit()]
	}
	wide := 0
	for j := range shown {
		wide = max(wide, o.widths[j])
	}
	n := 0
	gutter := func() string {
		n++
		if n == 1 {
			return m.gutters.output
		}
		return m.gutters.rule
	}
	for _, l := range shown {
		add(viewport.Row{Gutter: gutter(), Text: l, Scroll: wide > body}, RowInfo{Statement: i, Part: Output})
	}
	if m.Collapsible(i) {
		data := map[string]any{"Key": m.KeyMap.ShowAll.Help().Key}
		hint := m.N(msgMoreLines, len(o.lines)-len(shown), data)
		if !collapsed {
			hint = m.N(msgCollapse, len(o.lines), data)
		}
		add(viewport.Row{Gutter: gutter(), Text: m.muted.Render(hint)}, RowInfo{Statement: i, Part: Hint})
	}
	if wide > body {
		add(viewport.CueRow(wide+gutterWidth, m.scrolls), RowInfo{Statement: -1, Part: Gap})
	}
	if !o.hasErr {
		return n > 0
	}
	for j, l := range inline.WrapIndented(o.err, body) {
		g := m.gutters.rule
		if j == 0 {
			g = m.gutters.err
		}
		add(viewport.Row{Gutter: g, Text: m.errTheme.Render(l)}, RowInfo{Statement: i, Part: Error})
	}
	return true
}

// elapsed is a statement's time, right-aligned in room cells, or nothing
// when it is under a millisecond or does not fit.
func (m *Notebook) elapsed(d time.Duration, room int) string {
	if d < time.Millisecond {
		return ""
	}
	label := m.T(msgElapsedMs, map[string]any{"N": d.Milliseconds()})
	if d >= time.Second {
		label = m.T(msgElapsedS, map[string]any{"N": m.L.Decimal(d.Seconds(), 1)})
	}
	w := ansi.StringWidth(label)
	if room < w+2 {
		return ""
	}
	return strings.Repeat(" ", room-w) + m.muted.Render(label)
}
