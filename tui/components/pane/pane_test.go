package pane

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schemalab/schemalab/tui/components/internal/comptest"
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
		p.Viewport().SetYOffset(5)
		out := p.View()
		comptest.FitWidth(t, out, w)
		if got := len(strings.Split(out, "\n")); got != 8 {
			t.Errorf("%d lines, want 8", got)
		}
		return out
	})
}
