package pane

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/tui/components/internal/comptest"
	"github.com/schemalab/schemalab/tui/components/prose"
)

// A pane of 30 lines, 8 rows tall, scrolled down 5: its title, its footer
// and the position, at every width; a line wider than the pane scrolls
// under a cue instead of wrapping.
func TestPaneGoldens(t *testing.T) {
	comptest.Goldens(t, comptest.Widths, func(t *testing.T, w int) string {
		p := New(comptest.Common(false), "Step 1 of 9 · A title that is rather long for a narrow pane")
		p.SetSize(w, 8)
		var lines []string
		for i := range 30 {
			lines = append(lines, fmt.Sprintf("line %d", i+1))
		}
		lines[6] = "a line wider than the narrower panes: " + strings.Repeat("0123456789", 5)
		p.SetLines(strings.Join(lines, "\n"))
		p.SetFooter("ran in 12ms")
		p.Focus(true)
		p.SetYOffset(5)
		out := p.View()
		comptest.FitWidth(t, out, w)
		if got := len(strings.Split(out, "\n")); got != 8 {
			t.Errorf("%d lines, want 8", got)
		}
		return out
	})
}

// A pane over a step's prose and a table whose words alone are wider than
// the pane scrolls the table sideways and leaves the prose where it is:
// shift+→ moves only the rows wider than the pane, under the cue that
// says so.
func TestPaneScrollsTheTableNotTheProse(t *testing.T) {
	c := comptest.Common(false)
	md := comptest.Section(t, comptest.Lesson(t, "04-tree.md"), "## Choosing a tree model", "## Exercise")
	p := New(c, "Choosing a tree model")
	p.SetSize(84, 32)
	p.SetRows(prose.Parse(c, md, prose.Options{}).Rows(p.InnerWidth()))
	before := strings.Split(ansi.Strip(p.View()), "\n")
	p.Update(tea.KeyPressMsg{Code: tea.KeyRight, Mod: tea.ModShift})
	after := strings.Split(ansi.Strip(p.View()), "\n")
	if before[1] != after[1] || before[4] != after[4] {
		t.Errorf("the prose moved: %q → %q", before[4], after[4])
	}
	if before[6] == after[6] {
		t.Errorf("the table did not move: %q", after[6])
	}
	// Wrapped at spaces, the table is wider than the pane by less than a
	// scroll step only: one step shows its end.
	if !strings.Contains(strings.Join(after, "\n"), "← more · shift+←/→ scrolls") {
		t.Errorf("no cue with the scrolling keys:\n%s", strings.Join(after, "\n"))
	}
}
