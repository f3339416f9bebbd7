package table

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/schemalab/schemalab/tui/components/inline"
	"github.com/schemalab/schemalab/tui/components/internal/comptest"
	"github.com/schemalab/schemalab/tui/components/viewport"
	"github.com/schemalab/schemalab/tui/styles"
)

var dark = styles.New(true, false)

func theme() *inline.Theme {
	return &inline.Theme{Code: dark.CodeField, Strong: lipgloss.NewStyle().Bold(true)}
}

// treeTable is the tree lesson's "Choosing a tree model" table, cells
// split at | as Markdown does, `code` kept as code spans.
func treeTable(t *testing.T) Data {
	md := comptest.Section(t, comptest.Lesson(t, "04-tree.md"), "## Choosing a tree model", "- **Parent")
	var d Data
	for _, l := range strings.Split(md, "\n") {
		if !strings.HasPrefix(l, "|") {
			continue
		}
		var cells []Cell
		for _, c := range strings.Split(strings.Trim(l, "|"), "|") {
			cells = append(cells, cell(strings.TrimSpace(c)))
		}
		switch {
		case d.Header == nil:
			d.Header = cells
		case strings.HasPrefix(l, "|---"):
		default:
			d.Rows = append(d.Rows, cells)
		}
	}
	if len(d.Rows) != 4 || len(d.Header) != 7 {
		t.Fatalf("the lesson's table has %d rows of %d columns, want 4 of 7", len(d.Rows), len(d.Header))
	}
	return d
}

// cell turns `x` into code spans.
func cell(s string) Cell {
	var c Cell
	for i, part := range strings.Split(s, "`") {
		if part == "" {
			continue
		}
		if i%2 == 1 {
			c = append(c, inline.Span{Text: part, Attr: inline.Code})
		} else {
			c = append(c, inline.Span{Text: part})
		}
	}
	return c
}

func window(rows []viewport.Row, w, x int) string {
	vp := viewport.New(comptest.Common(false))
	vp.SetSize(w, len(rows))
	vp.SetRows(rows)
	vp.SetXOffset(x)
	return vp.View()
}

// TestNaturalGoldens is the table as a window w cells wide shows it: at
// its natural width, cut at the window's edge, with the cue.
func TestNaturalGoldens(t *testing.T) {
	tb := New(treeTable(t), Options{Styles: dark, Theme: theme(), ScrollHint: "shift+←/→ scrolls"})
	comptest.Goldens(t, comptest.Widths, func(t *testing.T, w int) string {
		return window(tb.Rows(w), w, 0)
	})
}

func TestScrolledGoldens(t *testing.T) {
	tb := New(treeTable(t), Options{Styles: dark, Theme: theme(), ScrollHint: "shift+←/→ scrolls"})
	comptest.Goldens(t, []int{80}, func(t *testing.T, w int) string {
		return window(tb.Rows(w), w, 60) + "\n" + window(tb.Rows(w), w, 1000)
	})
}

func TestWrappedGoldens(t *testing.T) {
	tb := New(treeTable(t), Options{Styles: dark, Theme: theme(), Wrap: true, ScrollHint: "shift+←/→ scrolls"})
	comptest.Goldens(t, comptest.Widths, func(t *testing.T, w int) string {
		return window(tb.Rows(w), w, 0)
	})
}

// TestCellsNeverWrapLetterByLetter: at its natural width every cell is
// whole on its row, whatever the window.
func TestCellsNeverWrapLetterByLetter(t *testing.T) {
	d := treeTable(t)
	tb := New(d, Options{Styles: dark, Theme: theme()})
	for _, w := range comptest.Widths {
		lines, nat := tb.Render(w)
		if nat != tb.NaturalWidth() {
			t.Errorf("width %d: table is %d wide, natural %d", w, nat, tb.NaturalWidth())
		}
		if len(lines) != 2+len(d.Rows) {
			t.Fatalf("width %d: %d lines for a header and %d rows", w, len(lines), len(d.Rows))
		}
		for i, r := range d.Rows {
			line := ansi.Strip(lines[2+i])
			for _, c := range r {
				if text := plain(c); !strings.Contains(line, text) {
					t.Errorf("width %d: cell %q not whole in %q", w, text, line)
				}
			}
		}
		rows := tb.Rows(w)
		if wide := nat > w; rows[0].Scroll != wide || (rows[len(rows)-1].Cue > 0) != wide {
			t.Errorf("width %d: scroll rows %v, cue %d, for a table %d wide", w, rows[0].Scroll, rows[len(rows)-1].Cue, nat)
		}
	}
}

func plain(c Cell) string {
	var b strings.Builder
	for _, s := range c {
		b.WriteString(s.Text)
	}
	return b.String()
}

func TestAlignment(t *testing.T) {
	d := Data{
		Header: []Cell{cell("figure"), cell("flat"), cell("bucketed")},
		Rows: [][]Cell{
			{cell("data bytes"), cell("9,302,896"), cell("4,087,953")},
			{cell("index bytes"), cell("3,297,280"), cell("69,632")},
		},
		Align: []Align{Left, Right, Center},
	}
	lines, _ := New(d, Options{Styles: dark, Theme: theme()}).Render(80)
	got := ansi.Strip(strings.Join(lines, "\n"))
	want := " figure      │      flat │ bucketed\n" +
		"─────────────┼───────────┼───────────\n" +
		" data bytes  │ 9,302,896 │ 4,087,953\n" +
		" index bytes │ 3,297,280 │  69,632"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestWrappedModeFitsAtSpaces: cells wrap at spaces only; the table fits
// whenever its longest words do.
func TestWrappedModeFitsAtSpaces(t *testing.T) {
	d := treeTable(t)
	tb := New(d, Options{Styles: dark, Theme: theme(), Wrap: true})
	narrowest := tb.chrome()
	for i := range tb.minW {
		narrowest += tb.minW[i]
	}
	for w := 40; w <= 200; w += 10 {
		lines, tw := tb.Render(w)
		out := ansi.Strip(strings.Join(lines, "\n"))
		if w >= narrowest {
			comptest.FitWidth(t, out, w)
		} else if tw != narrowest {
			t.Errorf("width %d: a table whose words need %d is %d wide", w, narrowest, tw)
		}
		for _, r := range append([][]Cell{d.Header}, d.Rows...) {
			for _, c := range r {
				for _, word := range strings.Fields(plain(c)) {
					if !strings.Contains(out, word) {
						t.Errorf("width %d: word %q was cut:\n%s", w, word, out)
					}
				}
			}
		}
	}
}

// TestStyleGoldens keeps the escape codes: a bold header, muted rules,
// coloured code; under NO_COLOR bold and faint only.
func TestStyleGoldens(t *testing.T) {
	for name, st := range map[string]*styles.Styles{"dark": dark, "nocolor": styles.New(true, true)} {
		t.Run(name, func(t *testing.T) {
			th := &inline.Theme{Code: st.CodeField}
			lines, _ := New(treeTable(t), Options{Styles: st, Theme: th}).Render(200)
			golden.RequireEqual(t, strings.Join(lines, "\n"))
		})
	}
}
