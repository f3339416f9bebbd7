package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/keymap"
	"github.com/schemalab/schemalab/tui/styles"
)

func testPane(w, h int) *pane {
	p := newPane(common.Common{Styles: styles.New(true, false), KeyMap: keymap.Default()}, "Output")
	p.SetSize(w, h)
	return p
}

// A long line of mongosh output wraps at the pane's width instead of
// being cut, its continuation indented, and the original text is kept.
func TestPaneSoftWrap(t *testing.T) {
	long := "  { _id: 1, title: 'The Hitchhiker', customers: [ 'ann', 'bob', 'cyd', 'dee', 'eve', 'fay', 'gus' ] }"
	text := "[\n" + long + "\n]"
	p := testPane(34, 12)
	p.SetContent(text)
	if p.Text() != text {
		t.Fatalf("Text() = %q, want the original", p.Text())
	}
	view := ansi.Strip(p.View())
	for _, word := range []string{"Hitchhiker", "customers", "'gus'", "] }"} {
		if !strings.Contains(view, word) {
			t.Errorf("%q missing from the wrapped pane:\n%s", word, view)
		}
	}
	if strings.Contains(view, "…") {
		t.Errorf("a line was cut:\n%s", view)
	}
	lines, starts := softWrap([]string{"[", long, "]"}, 30)
	if starts[1] != 1 || starts[2] != len(lines)-1 {
		t.Errorf("starts = %v for %d lines", starts, len(lines))
	}
	for i, l := range lines[2 : len(lines)-1] {
		if ansi.StringWidth(l) > 30 || !strings.HasPrefix(l, "    ") {
			t.Errorf("continuation %d = %q: want indented by 4 and at most 30 cells", i, l)
		}
	}
	if got := strings.Join(lines[1:len(lines)-1], ""); strings.Count(got, "'") != strings.Count(long, "'") {
		t.Errorf("wrapping lost text: %q", got)
	}
}

// A resize rewraps and keeps the reader on the same line of content.
func TestPaneResizeKeepsPlace(t *testing.T) {
	var b strings.Builder
	for i := range 200 {
		b.WriteString(strings.Repeat("word ", 12) + "line " + string(rune('a'+i%26)) + "\n")
	}
	p := testPane(40, 10)
	p.SetContent(b.String())
	p.vp.SetYOffset(p.starts[100])
	p.SetSize(120, 10)
	if got := p.rawLineAt(p.vp.YOffset()); got != 100 {
		t.Errorf("after widening, top line is content line %d, want 100", got)
	}
}

// Dates are not cut at their hyphens: the break goes to a space.
func TestWrapKeepsDatesWhole(t *testing.T) {
	lines := wrap("{ sensorId: 's7', at: ISODate('2026-05-25T08:00:00.000Z'), temp: 23.1 }", 48)
	if len(lines) < 2 || !strings.HasSuffix(lines[0], "at:") || !strings.HasPrefix(lines[1], "ISODate('2026-05-25T08:00:00.000Z')") {
		t.Errorf("wrapped as %q", lines)
	}
}

// mongosh's columns of short elements move whole to the next line.
func TestWrapMovesWholeColumns(t *testing.T) {
	lines, _ := softWrap([]string{"  { _id: 1, avg: 75.619 },  { _id: 2, avg: 71.628 },"}, 40)
	want := []string{"  { _id: 1, avg: 75.619 },", "  { _id: 2, avg: 71.628 },"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q, want %q", lines, want)
	}
}
