// Package viewport is a window onto rows that are already laid out: a
// vertical offset over all rows and a horizontal offset over the rows that
// are wider than the window.
//
// The renderers (prose, table, code, notebook) produce rows once per width;
// the viewport never wraps or measures whole content. A frame touches only
// the visible rows, so scrolling a 50,000-row output costs what scrolling a
// short one does. Rows come in three kinds:
//
//   - fixed rows, already at most the window's width, drawn as they are;
//   - Scroll rows (a wide table, code in scroll mode, an output line mongosh
//     printed wider than the window), moved by the horizontal offset and
//     cut to the window, behind their Gutter, which stays put;
//   - cue rows, which say "more →", "← more" or "← more · more →" for the
//     block of Scroll rows above them, from the current offset.
//
// Prose therefore stays where it is while the table under it scrolls.
package viewport

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
)

// Row is one laid-out line of content.
type Row struct {
	// Text is the styled line.
	Text string
	// Gutter is drawn before Text and never scrolls: a notebook's output
	// marker, a list's indent.
	Gutter string
	// Scroll marks a row that may be wider than the window: it moves with
	// the horizontal offset and is cut to the window's width.
	Scroll bool
	// Cue, when positive, makes this a cue row for the Scroll rows above
	// it, whose natural width (gutter included) Cue is. Text is then a
	// hint drawn after the cue, such as "shift+→ scrolls".
	Cue int
}

// CueRow is the row that tells a block of Scroll rows width cells wide
// has more to either side.
func CueRow(width int, hint string) Row { return Row{Cue: width, Text: hint} }

var (
	msgCueRight = &locale.Message{ID: "viewport.cueRight", Other: "more →"}
	msgCueLeft  = &locale.Message{ID: "viewport.cueLeft", Other: "← more"}
	msgCueBoth  = &locale.Message{ID: "viewport.cueBoth", Other: "← more · more →"}
	msgScrolls  = &locale.Message{ID: "viewport.scrolls", Other: "{{.Keys}} scrolls"}
)

// ScrollHint is the hint after a wide block's cue: which keys scroll it
// sideways (the key map's Left and Right, which need shift: plain arrows
// move between steps on a lesson page).
func ScrollHint(c common.Common) string {
	return c.T(msgScrolls, map[string]any{"Keys": c.KeyMap.Left.Help().Key + "/" + strings.TrimPrefix(c.KeyMap.Right.Help().Key, "shift+")})
}

// cues are the words of cue rows.
type cues struct{ right, left, both string }

// Model is the window, a component: it takes the key map's scrolling
// keys, and its cues are in the learner's language.
type Model struct {
	common.Common
	// HorizontalStep is how many cells a left or right key moves.
	HorizontalStep int

	cues cues
	cue  lipgloss.Style
	rows []Row
	y, x int
	maxX int
}

var _ common.Component = (*Model)(nil)

// New is an empty viewport.
func New(c common.Common) *Model {
	return &Model{Common: c, HorizontalStep: 8, cue: c.Styles.Muted,
		cues: cues{right: c.T(msgCueRight, nil), left: c.T(msgCueLeft, nil), both: c.T(msgCueBoth, nil)}}
}

// Lines is rows drawn in a window width cells wide and as tall as they
// are, at no offset: a block laid out once, shown whole.
func Lines(c common.Common, rows []Row, width int) []string {
	vp := New(c)
	vp.SetSize(max(width, 1), len(rows))
	vp.SetRows(rows)
	return strings.Split(vp.View(), "\n")
}

// SetRows replaces the content and keeps the offsets where they can be.
func (m *Model) SetRows(rows []Row) {
	m.rows = rows
	m.maxX = 0
	for _, r := range rows {
		m.maxX = max(m.maxX, r.Cue)
	}
	m.clamp()
}

// Rows is the content as set.
func (m *Model) Rows() []Row { return m.rows }

// SetSize sets the window's size in cells.
func (m *Model) SetSize(w, h int) {
	m.Common.SetSize(max(w, 0), max(h, 0))
	m.clamp()
}

// YOffset is the first visible row; XOffset the first visible cell of
// Scroll rows.
func (m *Model) YOffset() int { return m.y }
func (m *Model) XOffset() int { return m.x }

// ScrollWidth is the natural width of the widest block of Scroll rows
// (0 when every row fits the window).
func (m *Model) ScrollWidth() int { return m.maxX }

// TotalRows is the number of rows of content.
func (m *Model) TotalRows() int { return len(m.rows) }

// AtTop and AtBottom say whether the window shows the first or last row.
func (m *Model) AtTop() bool    { return m.y == 0 }
func (m *Model) AtBottom() bool { return m.y >= m.maxY() }

func (m *Model) maxY() int { return max(len(m.rows)-m.Height, 0) }

// maxXOffset is how far right the widest cue-marked block can scroll.
func (m *Model) maxXOffset() int { return max(m.maxX-m.Width, 0) }

func (m *Model) clamp() {
	m.y = min(max(m.y, 0), m.maxY())
	m.x = min(max(m.x, 0), m.maxXOffset())
}

func (m *Model) SetYOffset(y int)  { m.y = y; m.clamp() }
func (m *Model) SetXOffset(x int)  { m.x = x; m.clamp() }
func (m *Model) ScrollDown(n int)  { m.SetYOffset(m.y + n) }
func (m *Model) ScrollUp(n int)    { m.SetYOffset(m.y - n) }
func (m *Model) ScrollRight(n int) { m.SetXOffset(m.x + n) }
func (m *Model) ScrollLeft(n int)  { m.SetXOffset(m.x - n) }
func (m *Model) PageDown()         { m.ScrollDown(max(m.Height, 1)) }
func (m *Model) PageUp()           { m.ScrollUp(max(m.Height, 1)) }
func (m *Model) GotoTop()          { m.y = 0 }
func (m *Model) GotoBottom()       { m.y = m.maxY() }

// ShowRow scrolls the least needed for row i to be visible.
func (m *Model) ShowRow(i int) {
	switch {
	case i < m.y:
		m.SetYOffset(i)
	case i >= m.y+m.Height:
		m.SetYOffset(i - m.Height + 1)
	}
}

// Init does nothing; the viewport has no commands of its own.
func (m *Model) Init() tea.Cmd { return nil }

// Update scrolls for the scrolling keys and the mouse wheel.
func (m *Model) Update(msg tea.Msg) (common.Model, tea.Cmd) {
	m.Handle(msg)
	return m, nil
}

// Handle is Update for a parent that needs to know whether the message
// moved the window.
func (m *Model) Handle(msg tea.Msg) bool {
	y, x := m.y, m.x
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		km := m.KeyMap
		switch {
		case key.Matches(msg, km.Up):
			m.ScrollUp(1)
		case key.Matches(msg, km.Down):
			m.ScrollDown(1)
		case key.Matches(msg, km.PageUp):
			m.PageUp()
		case key.Matches(msg, km.PageDown):
			m.PageDown()
		case key.Matches(msg, km.ScrollTop):
			m.GotoTop()
		case key.Matches(msg, km.ScrollEnd):
			m.GotoBottom()
		case key.Matches(msg, km.Left):
			m.ScrollLeft(m.step())
		case key.Matches(msg, km.Right):
			m.ScrollRight(m.step())
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.ScrollUp(3)
		case tea.MouseWheelDown:
			m.ScrollDown(3)
		case tea.MouseWheelLeft:
			m.ScrollLeft(m.step())
		case tea.MouseWheelRight:
			m.ScrollRight(m.step())
		}
	}
	return m.y != y || m.x != x
}

func (m *Model) step() int { return max(m.HorizontalStep, 1) }

// View is the window: exactly Height lines, none wider than Width.
func (m *Model) View() string {
	if m.Height == 0 {
		return ""
	}
	var b strings.Builder
	end := min(m.y+m.Height, len(m.rows))
	for i := m.y; i < end; i++ {
		if i > m.y {
			b.WriteByte('\n')
		}
		b.WriteString(m.line(m.rows[i]))
	}
	for i := max(end, m.y); i < m.y+m.Height; i++ {
		if i > m.y {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func (m *Model) line(r Row) string {
	switch {
	case r.Cue > 0:
		return cueLine(r, m.x, m.Width, m.cue, m.cues)
	case r.Scroll:
		gw := ansi.StringWidth(r.Gutter)
		return r.Gutter + Window(r.Text, m.x, m.Width-gw)
	default:
		return r.Gutter + r.Text
	}
}

// Window is the part of line from cell x that fits in w cells.
func Window(line string, x, w int) string {
	if w <= 0 {
		return ""
	}
	if x == 0 && isShortASCII(line, w) {
		return line
	}
	cut := ansi.Cut(line, x, x+w)
	// A wide letter straddling the left edge comes along whole.
	if ansi.StringWidth(cut) > w {
		cut = ansi.Truncate(cut, w, "")
	}
	return cut
}

// isShortASCII reports whether line is plain ASCII of at most w bytes, so
// that it needs no cut at all.
func isShortASCII(line string, w int) bool {
	if len(line) > w {
		return false
	}
	for i := range len(line) {
		if c := line[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// cueLine says, right-aligned, which sides of a block of width r.Cue
// seen from offset x through a w-cell window have more.
func cueLine(r Row, x, w int, st lipgloss.Style, cues cues) string {
	left, right := x > 0, x+w < r.Cue
	var cue string
	switch {
	case left && right:
		cue = cues.both
	case left:
		cue = cues.left
	case right:
		cue = cues.right
	default:
		return ""
	}
	if r.Text != "" {
		cue += " · " + r.Text
	}
	cue = ansi.Truncate(cue, w, "…")
	return strings.Repeat(" ", max(w-ansi.StringWidth(cue), 0)) + st.Render(cue)
}

// ShortHelp is the vertical scrolling keys, and the horizontal ones when
// some rows are wider than the window.
func (m *Model) ShortHelp() []key.Binding {
	km := m.KeyMap
	if m.maxXOffset() > 0 {
		return []key.Binding{km.Down, km.Up, km.Right, km.Left}
	}
	return []key.Binding{km.Down, km.Up}
}

// FullHelp is every scrolling key.
func (m *Model) FullHelp() [][]key.Binding {
	km := m.KeyMap
	return [][]key.Binding{{km.Down, km.Up, km.PageDown, km.PageUp}, {km.ScrollTop, km.ScrollEnd, km.Right, km.Left}}
}
