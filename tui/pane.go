package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/styles"
)

// pane is a bordered, scrollable area with a title: the prose, the output
// and each comparison variant are panes. The viewport renders only the
// visible lines, so a 50,000-line output scrolls as fast as a short one.
type pane struct {
	common.Common
	vp      viewport.Model
	title   string
	footer  string
	focused bool
	// x, y is where the pane was last drawn, for mouse wheel routing.
	x, y int
}

func newPane(c common.Common, title string) *pane {
	vp := viewport.New()
	vp.KeyMap = viewport.KeyMap{} // the app's key map drives scrolling
	vp.MouseWheelEnabled = true
	vp.MouseWheelDelta = 3
	return &pane{Common: c, vp: vp, title: title}
}

// SetSize sets the outer size, border included.
func (p *pane) SetSize(w, h int) {
	p.Common.SetSize(w, h)
	p.vp.SetWidth(max(w-4, 1))
	p.vp.SetHeight(max(h-2, 1))
}

func (p *pane) SetContent(s string) {
	p.vp.SetContent(strings.TrimRight(s, "\n"))
	p.vp.GotoTop()
}

func (p *pane) ScrollDown(n int) { p.vp.ScrollDown(n) }
func (p *pane) ScrollUp(n int)   { p.vp.ScrollUp(n) }
func (p *pane) PageDown()        { p.vp.PageDown() }
func (p *pane) PageUp()          { p.vp.PageUp() }

// contains reports whether the screen cell x, y is inside the pane.
func (p *pane) contains(x, y int) bool {
	return x >= p.x && x < p.x+p.Width && y >= p.y && y < p.y+p.Height
}

func (p *pane) ShortHelp() []key.Binding {
	k := p.KeyMap
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown}
}

func (p *pane) FullHelp() [][]key.Binding { return [][]key.Binding{p.ShortHelp()} }

// View draws the pane with its title in the top border and its footer
// (run time, scroll position) in the bottom one.
func (p *pane) View() string {
	if p.Width < 4 || p.Height < 2 {
		return ""
	}
	footer := p.footer
	if total := p.vp.TotalLineCount(); total > p.vp.Height() {
		pos := fmt.Sprintf("%d–%d/%d", p.vp.YOffset()+1, min(p.vp.YOffset()+p.vp.Height(), total), total)
		if footer != "" {
			footer += " · "
		}
		footer += pos
	}
	body := strings.Split(p.vp.View(), "\n")
	return frame(p.Styles, p.Width, p.Height, p.title, footer, body, p.focused)
}

// frame draws lines inside a rounded border of exactly w×h cells. Lines
// are cut to the inner width (one cell of padding each side) so that no
// line ever wraps and breaks the layout.
func frame(st *styles.Styles, w, h int, title, footer string, lines []string, focused bool) string {
	border, bs := st.PaneBorder(focused)
	inner := w - 2
	var b strings.Builder
	b.Grow((w + 8) * h)
	b.WriteString(bs.Render(border.TopLeft))
	b.WriteString(borderLine(border.Top, bs, inner, title))
	b.WriteString(bs.Render(border.TopRight))
	for i := range h - 2 {
		b.WriteByte('\n')
		line := ""
		if i < len(lines) {
			line = lines[i]
		}
		b.WriteString(bs.Render(border.Left))
		b.WriteByte(' ')
		b.WriteString(fit(line, inner-2))
		b.WriteByte(' ')
		b.WriteString(bs.Render(border.Right))
	}
	b.WriteByte('\n')
	b.WriteString(bs.Render(border.BottomLeft))
	b.WriteString(borderLine(border.Bottom, bs, inner, footer))
	b.WriteString(bs.Render(border.BottomRight))
	return b.String()
}

// borderLine is a horizontal border of width n with label near its left.
func borderLine(ch string, bs lipgloss.Style, n int, label string) string {
	if label == "" || n < 6 {
		return bs.Render(strings.Repeat(ch, max(n, 0)))
	}
	label = " " + ansi.Truncate(label, n-4, "…") + " "
	rest := n - 1 - ansi.StringWidth(label)
	return bs.Render(ch) + label + bs.Render(strings.Repeat(ch, max(rest, 0)))
}

// fit cuts or pads s to exactly w cells.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// fitBlock cuts or pads every line of s to w cells and the block to h
// lines, so that blocks join without leftovers.
func fitBlock(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i := range lines {
		lines[i] = fit(lines[i], w)
	}
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", max(w, 0)))
	}
	return strings.Join(lines, "\n")
}
