package lesson

import (
	"context"
	"errors"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/components/inline"
	"github.com/schemalab/schemalab/tui/components/pane"
	"github.com/schemalab/schemalab/tui/components/viewport"
)

// minVariantWidth is the narrowest a variant's box is drawn: below it the
// variants stack rather than squeeze their code.
const minVariantWidth = 52

var (
	msgRanIn     = &locale.Message{ID: "run.ranIn", Other: "ran in {{.Duration}}"}
	msgCancelled = &locale.Message{ID: "run.cancelled", Other: "Cancelled."}
)

// variantColumns is how many variants sit side by side in w cells: two
// when there is room, or one under the other; never more than two, so
// that no variant's code is squeezed.
func variantColumns(n, w int) int {
	if n >= 2 && w/2 >= minVariantWidth {
		return 2
	}
	return 1
}

// variantRows draws a comparison's variants in boxes, side by side when
// they fit, each box as tall as the tallest beside it.
func (v *stepView) variantRows(p *part, w int) []viewport.Row {
	cols := variantColumns(len(p.vars), w)
	if cols > 1 && v.variantsWidth(p, w/cols-pane.ChromeW) > w/cols-pane.ChromeW {
		// A variant whose code or output is wider than its column would be
		// cut where it cannot scroll: stack them at the full width instead.
		cols = 1
	}
	cw := w / cols
	var rows []viewport.Row
	for start := 0; start < len(p.vars); start += cols {
		end := min(start+cols, len(p.vars))
		var boxes [][]string
		h := 0
		for k := start; k < end; k++ {
			lines := v.variantLines(p, k, cw-pane.ChromeW)
			boxes = append(boxes, lines)
			h = max(h, len(lines))
		}
		drawn := make([]string, len(boxes))
		for k, lines := range boxes {
			bw := cw
			if k == len(boxes)-1 && cols > 1 {
				bw = w - cw*(cols-1)
			}
			drawn[k] = pane.Frame(v.Styles, bw, h+pane.ChromeH, p.labels[start+k], "", lines, false)
		}
		for _, l := range strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, drawn...), "\n") {
			rows = append(rows, viewport.Row{Text: l})
		}
	}
	return rows
}

// variantsWidth is the widest row of the variants laid out w cells wide.
func (v *stepView) variantsWidth(p *part, w int) int {
	widest := 0
	for _, nb := range p.vars {
		for _, r := range nb.Rows(w) {
			if r.Cue == 0 {
				widest = max(widest, ansi.StringWidth(r.Gutter)+ansi.StringWidth(r.Text))
			}
		}
	}
	return widest
}

// variantLines is variant k's code with its output under each statement,
// laid out w cells wide.
func (v *stepView) variantLines(p *part, k, w int) []string {
	return viewport.Lines(v.Common, p.vars[k].Rows(w), w)
}

// errorRows is an error as a sentence wrapped at spaces.
func errorRows(c common.Common, err error, w int) []viewport.Row {
	return wrapRows(c.Styles.Error, "✗ "+errorText(c, err), w)
}

func wrapRows(st lipgloss.Style, s string, w int) []viewport.Row {
	th := &inline.Theme{Base: st}
	var rows []viewport.Row
	for _, l := range inline.WrapIndented(strings.TrimRight(s, "\n"), w) {
		rows = append(rows, viewport.Row{Text: th.Render(l)})
	}
	return rows
}

// outputWidth is the width outputs shown in pn are laid out for: its
// inner width, less the notebook's gutter.
func outputWidth(pn *pane.Model) int { return max(pn.InnerWidth()-notebookGutter, 20) }

// notebookGutter is the notebook's gutter: › or ⇒ and a space.
const notebookGutter = 2

// footerOf is a run's time and its last note, for a pane's bottom border.
func footerOf(c common.Common, d time.Duration, notes []string) string {
	s := c.T(msgRanIn, map[string]any{"Duration": c.Duration(d)})
	if len(notes) > 0 {
		s += " · " + notes[len(notes)-1]
	}
	return s
}

func errorText(c common.Common, err error) string {
	if errors.Is(err, context.Canceled) {
		return c.T(msgCancelled, nil)
	}
	return err.Error()
}

// textRows is mongosh output as rows: as printed, never re-wrapped, and
// scrolling sideways under a cue when a line is wider than w.
func textRows(c common.Common, text string, w int) []viewport.Row {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	rows := make([]viewport.Row, len(lines))
	wide := 0
	for i, l := range lines {
		rows[i] = viewport.Row{Text: l}
		wide = max(wide, ansi.StringWidth(l))
	}
	if wide <= w {
		return rows
	}
	for i := range rows {
		rows[i].Scroll = true
	}
	return append(rows, viewport.CueRow(wide, viewport.ScrollHint(c)))
}
