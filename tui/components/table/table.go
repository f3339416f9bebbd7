// Package table renders a Markdown table at its natural width.
//
// Cells are never wrapped letter by letter. By default a table is as wide
// as its content: when that is wider than the window, its rows are
// viewport Scroll rows followed by a cue row ("more →"), so the table
// scrolls sideways while the prose around it stays put. In wrapped mode a
// cell may wrap, at spaces only, to fit the width; a column is never
// narrower than its longest word, so a table whose words alone are too
// wide still scrolls.
//
// The grid is light: no outer border (it costs two columns and reads as a
// box around a box inside a pane), │ between columns, a rule under the
// header, and in wrapped mode a thin rule between rows that span several
// lines, so that a wrapped cell's lines are seen to belong together.
package table

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/schemalab/schemalab/tui/components/inline"
	"github.com/schemalab/schemalab/tui/components/viewport"
	"github.com/schemalab/schemalab/tui/styles"
)

// Align is a column's alignment, from the Markdown delimiter row.
type Align int

const (
	Left Align = iota // :-- or ---
	Center
	Right
)

// Cell is a cell's inline content.
type Cell []inline.Span

// Data is a table's content.
type Data struct {
	Header []Cell
	Rows   [][]Cell
	// Align has one entry per column; missing entries are Left.
	Align []Align
}

// Options configure a Table.
type Options struct {
	Styles *styles.Styles
	// Theme styles the cells' inline content; the header is also bold.
	Theme *inline.Theme
	// Wrap lets cells wrap at spaces to fit the width.
	Wrap bool
	// ScrollHint follows the cue of a table wider than the window.
	ScrollHint string
}

// Table is a table measured once, to be laid out at any width. It is not
// safe for concurrent use.
type Table struct {
	opts   Options
	header []inline.Text
	rows   [][]inline.Text
	align  []Align
	cols   int
	nat    []int // natural column widths
	minW   []int // narrowest column widths that cut no word
	head   *inline.Theme
	rule   lipgloss.Style
}

// New measures d.
func New(d Data, opts Options) *Table {
	t := &Table{opts: opts, rule: opts.Styles.Muted, head: opts.Theme.WithBase(opts.Theme.Base.Bold(true))}
	t.cols = len(d.Header)
	for _, r := range d.Rows {
		t.cols = max(t.cols, len(r))
	}
	split := func(cells []Cell) []inline.Text {
		out := make([]inline.Text, t.cols)
		for i, c := range cells {
			out[i] = inline.Split(c)
		}
		return out
	}
	t.header = split(d.Header)
	for _, r := range d.Rows {
		t.rows = append(t.rows, split(r))
	}
	t.align = make([]Align, t.cols)
	copy(t.align, d.Align)
	t.nat, t.minW = make([]int, t.cols), make([]int, t.cols)
	for _, r := range append([][]inline.Text{t.header}, t.rows...) {
		for i, c := range r {
			t.nat[i] = max(t.nat[i], c.Width())
			t.minW[i] = max(t.minW[i], c.MinWidth())
		}
	}
	return t
}

// chrome is the width of everything but the cells: a space each side of
// every cell and a rule between columns.
func (t *Table) chrome() int { return 3*t.cols - 1 }

// NaturalWidth is the table's width with no cell wrapped.
func (t *Table) NaturalWidth() int {
	w := t.chrome()
	for _, n := range t.nat {
		w += n
	}
	return w
}

// Render lays the table out for a window width cells wide: at its
// natural width, or in wrapped mode as narrow as width allows. Lines may
// be wider than width; Width is the widest.
func (t *Table) Render(width int) (lines []string, w int) {
	if t.cols == 0 {
		return nil, 0
	}
	widths := t.nat
	if t.opts.Wrap {
		widths = t.fit(width)
	}
	w = t.chrome()
	for _, cw := range widths {
		w += cw
	}
	lines = append(lines, t.renderRow(t.header, widths, t.head)...)
	lines = append(lines, t.ruleLine(widths, "─", "┼"))
	multi := false
	var body [][]string
	for _, r := range t.rows {
		rl := t.renderRow(r, widths, t.opts.Theme)
		multi = multi || len(rl) > 1
		body = append(body, rl)
	}
	for i, rl := range body {
		if multi && i > 0 {
			lines = append(lines, t.ruleLine(widths, "╌", "┼"))
		}
		lines = append(lines, rl...)
	}
	return lines, w
}

// Rows is Render as viewport rows: fixed when the table fits in width,
// else Scroll rows and a cue row.
func (t *Table) Rows(width int) []viewport.Row {
	lines, w := t.Render(width)
	rows := make([]viewport.Row, len(lines), len(lines)+1)
	wide := w > width
	for i, l := range lines {
		rows[i] = viewport.Row{Text: l, Scroll: wide}
	}
	if wide {
		rows = append(rows, viewport.CueRow(w, t.opts.ScrollHint))
	}
	return rows
}

// fit is the column widths for width cells in wrapped mode: natural if
// that fits; else each column gets its narrowest, and the room left is
// shared in proportion to what each column would still like.
func (t *Table) fit(width int) []int {
	room := width - t.chrome()
	sumNat, sumMin := 0, 0
	for i := range t.cols {
		sumNat += t.nat[i]
		sumMin += t.minW[i]
	}
	if sumNat <= room || sumMin >= room {
		if sumNat <= room {
			return t.nat
		}
		return t.minW
	}
	out := make([]int, t.cols)
	copy(out, t.minW)
	extra, want := room-sumMin, sumNat-sumMin
	given := 0
	for i := range out {
		g := extra * (t.nat[i] - t.minW[i]) / want
		out[i] += g
		given += g
	}
	// Rounding leaves a few cells: to the columns still short, left first.
	for i := 0; given < extra; i = (i + 1) % t.cols {
		if out[i] < t.nat[i] {
			out[i]++
			given++
		}
	}
	return out
}

func (t *Table) renderRow(cells []inline.Text, widths []int, theme *inline.Theme) []string {
	cellLines := make([][]inline.Line, t.cols)
	height := 1
	for i, c := range cells {
		if t.opts.Wrap && c.Width() > widths[i] {
			cellLines[i] = c.Wrap(widths[i])
		} else {
			cellLines[i] = []inline.Line{c.Line()}
		}
		height = max(height, len(cellLines[i]))
	}
	sep := t.rule.Render("│")
	out := make([]string, height)
	for y := range height {
		var b strings.Builder
		for i := range t.cols {
			if i > 0 {
				b.WriteString(" " + sep)
			}
			b.WriteByte(' ')
			var l inline.Line
			if y < len(cellLines[i]) {
				l = cellLines[i][y]
			}
			pad := widths[i] - l.Width
			left := 0
			switch t.align[i] {
			case Right:
				left = pad
			case Center:
				left = pad / 2
			}
			b.WriteString(strings.Repeat(" ", left))
			b.WriteString(theme.Render(l))
			if i < t.cols-1 {
				b.WriteString(strings.Repeat(" ", pad-left))
			}
		}
		out[y] = strings.TrimRight(b.String(), " ")
	}
	return out
}

func (t *Table) ruleLine(widths []int, h, cross string) string {
	parts := make([]string, len(widths))
	for i, w := range widths {
		parts[i] = strings.Repeat(h, w+2)
	}
	return t.rule.Render(strings.Join(parts, cross))
}
