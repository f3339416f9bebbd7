// Package pane is a bordered, titled, scrollable area: the frame every
// part of a lesson is drawn in. Its content is viewport rows laid out by
// the renderers (prose, notebook, table); the pane only scrolls them, so
// a 50,000-line output scrolls as fast as a short one. The title sits in
// the top border, the footer (run time, notes) and the scroll position in
// the bottom one.
package pane

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/components/viewport"
	"github.com/schemalab/schemalab/tui/styles"
)

var msgPosition = &locale.Message{ID: "pane.position", Other: "{{.First}}–{{.Last}}/{{.Total}}"}

// Chrome is the cells the frame takes: a border and a cell of padding on
// each side, a border line above and below.
const ChromeW, ChromeH = 4, 2

// Model is a pane.
type Model struct {
	common.Common
	vp      *viewport.Model
	title   string
	footer  string
	focused bool
}

var _ common.Component = (*Model)(nil)

// New is an empty pane with a title.
func New(c common.Common, title string) *Model {
	return &Model{Common: c, vp: viewport.New(c), title: title}
}

// SetSize sets the outer size, border included.
func (m *Model) SetSize(w, h int) {
	m.Common.SetSize(w, h)
	m.vp.SetSize(max(w-ChromeW, 1), max(h-ChromeH, 1))
}

// InnerWidth is the width rows are laid out for.
func (m *Model) InnerWidth() int { return max(m.Width-ChromeW, 1) }

// InnerHeight is the number of rows shown at once.
func (m *Model) InnerHeight() int { return max(m.Height-ChromeH, 1) }

// SetRows replaces the content, keeping the scroll offset where it can.
func (m *Model) SetRows(rows []viewport.Row) { m.vp.SetRows(rows) }

// SetLines is SetRows for plain lines: fixed rows, or scroll rows for
// lines wider than the pane.
func (m *Model) SetLines(s string) {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	rows := make([]viewport.Row, len(lines))
	wide := 0
	for i, l := range lines {
		rows[i] = viewport.Row{Text: l}
		if w := ansi.StringWidth(l); w > m.InnerWidth() {
			wide = max(wide, w)
		}
	}
	if wide > 0 {
		for i := range rows {
			rows[i].Scroll = true
		}
		rows = append(rows, viewport.CueRow(wide, viewport.ScrollHint(m.Common)))
	}
	m.vp.SetRows(rows)
}

// SetTitle and SetFooter set the labels in the borders.
func (m *Model) SetTitle(s string)  { m.title = s }
func (m *Model) SetFooter(s string) { m.footer = s }
func (m *Model) Title() string      { return m.title }

// Focus marks the pane as the one the keys scroll.
func (m *Model) Focus(on bool) { m.focused = on }
func (m *Model) Focused() bool { return m.focused }

// YOffset is the first row shown; SetYOffset scrolls to row y.
func (m *Model) YOffset() int     { return m.vp.YOffset() }
func (m *Model) SetYOffset(y int) { m.vp.SetYOffset(y) }

// GotoTop and GotoBottom scroll to the first and last rows.
func (m *Model) GotoTop()    { m.vp.GotoTop() }
func (m *Model) GotoBottom() { m.vp.GotoBottom() }

// TotalRows is the number of rows of content.
func (m *Model) TotalRows() int { return m.vp.TotalRows() }

// ScrollWidth is the natural width of the widest rows that scroll
// sideways (0 when every row fits).
func (m *Model) ScrollWidth() int { return m.vp.ScrollWidth() }

func (m *Model) Init() tea.Cmd { return nil }

// Update scrolls for the scrolling keys and the mouse wheel.
func (m *Model) Update(msg tea.Msg) (common.Model, tea.Cmd) {
	m.vp.Handle(msg)
	return m, nil
}

// Handle is Update reporting whether the message scrolled.
func (m *Model) Handle(msg tea.Msg) bool { return m.vp.Handle(msg) }

// View draws the pane, its scroll position in the bottom border.
func (m *Model) View() string {
	if m.Width < ChromeW || m.Height < ChromeH {
		return ""
	}
	footer := m.footer
	if total, h := m.vp.TotalRows(), m.vp.Height; total > h {
		pos := m.T(msgPosition, map[string]any{"First": m.vp.YOffset() + 1, "Last": min(m.vp.YOffset()+h, total), "Total": total})
		if footer != "" {
			footer += " · "
		}
		footer += pos
	}
	return Frame(m.Styles, m.Width, m.Height, m.title, footer, strings.Split(m.vp.View(), "\n"), m.focused)
}

// ShortHelp is the scrolling keys.
func (m *Model) ShortHelp() []key.Binding { return m.vp.ShortHelp() }

// FullHelp is every scrolling key.
func (m *Model) FullHelp() [][]key.Binding { return m.vp.FullHelp() }

// Frame draws lines inside a rounded border of exactly w×h cells. Lines
// are cut to the inner width (one cell of padding each side) so that no
// line ever wraps and breaks the layout.
func Frame(st *styles.Styles, w, h int, title, footer string, lines []string, focused bool) string {
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
		b.WriteString(common.Fit(line, inner-2))
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
