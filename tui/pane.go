package tui

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/styles"
)

// pane is a bordered, scrollable area with a title: the prose, the output
// and each comparison variant are panes. Lines wider than the pane are
// soft-wrapped once, when the content or the width changes, and the
// scroller then renders only the visible lines, so a 50,000-line output
// scrolls as fast as a short one.
type pane struct {
	common.Common
	vp      scroller
	title   string
	footer  string
	focused bool
	// raw is the content as set, one entry per line and never wrapped: what
	// a copy of the output must give back.
	raw []string
	// starts[i] is the first wrapped line of raw line i, to keep the reader's
	// place when a resize rewraps.
	starts []int
	wrapW  int
	// x, y is where the pane was last drawn, for mouse wheel routing.
	x, y int
}

func newPane(c common.Common, title string) *pane {
	return &pane{Common: c, title: title}
}

// SetSize sets the outer size, border included.
func (p *pane) SetSize(w, h int) {
	p.Common.SetSize(w, h)
	p.vp.SetWidth(max(w-4, 1))
	p.vp.SetHeight(max(h-2, 1))
	if p.vp.Width() != p.wrapW && p.raw != nil {
		at := p.rawLineAt(p.vp.YOffset())
		p.rewrap()
		p.vp.SetYOffset(p.starts[at])
	}
}

func (p *pane) SetContent(s string) {
	p.raw = strings.Split(strings.TrimRight(s, "\n"), "\n")
	p.rewrap()
	p.vp.GotoTop()
}

// Text is the content as set, without the soft wraps.
func (p *pane) Text() string { return strings.Join(p.raw, "\n") }

func (p *pane) rewrap() {
	p.wrapW = p.vp.Width()
	lines, starts := softWrap(p.raw, p.wrapW)
	p.starts = starts
	p.vp.SetContentLines(lines)
}

// rawLineAt is the content line that wrapped line y belongs to.
func (p *pane) rawLineAt(y int) int {
	i, found := slices.BinarySearch(p.starts, y)
	if !found {
		i--
	}
	return min(max(i, 0), max(len(p.starts)-1, 0))
}

// wrap breaks s into lines of at most w cells: at spaces first; a word
// longer than a line then breaks after a dot, as a method chain reads
// better cut there than anywhere, and only then anywhere. Hyphens are not
// break points (the ansi wrappers make them one), so that a date like
// ISODate('2026-09-01…') stays whole. Colours carry on across the breaks.
func wrap(s string, w int) []string {
	protect := !strings.ContainsRune(s, nbHyphen)
	if protect {
		s = strings.ReplaceAll(s, "-", string(nbHyphen))
	}
	parts := strings.Split(ansi.Wordwrap(s, w, ""), "\n")
	for i, p := range parts {
		if ansi.StringWidth(p) > w {
			parts[i] = ansi.Wrap(p, w, ".")
		}
	}
	s = strings.Join(parts, "\n")
	if protect {
		s = strings.ReplaceAll(s, string(nbHyphen), "-")
	}
	var buf bytes.Buffer
	ww := lipgloss.NewWrapWriter(&buf)
	_, _ = io.WriteString(ww, s)
	_ = ww.Close()
	return strings.Split(buf.String(), "\n")
}

// isPlainASCII reports whether s is printable ASCII without escape codes
// or tabs: one byte is one cell.
func isPlainASCII(s string) bool {
	for i := range len(s) {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// wrapPlain appends the soft-wrapped lines of the plain ASCII line l to
// lines, with the same rules as the general path: column gaps first, then
// spaces, then after a dot, then anywhere; continuations indented.
func wrapPlain(lines []string, l string, w int) []string {
	body := strings.TrimLeft(l, " ")
	lead := len(l) - len(body)
	indent := min(lead+2, w/2)
	pad := strings.Repeat(" ", indent)
	if cols, ok := splitColumns(l, w, pad); ok {
		return append(lines, cols...)
	}
	// The first line keeps its indentation; spaces inside it are no break.
	s, prefix, width, skip := l, "", w, lead
	for len(s) > width {
		cut := -1
		if i := strings.LastIndexByte(s[skip:width+1], ' '); i >= 0 {
			cut = skip + i
		}
		next := 0
		switch {
		case cut > skip:
			next = cut
		default:
			if d := strings.LastIndexByte(s[skip:width], '.'); d >= 0 && skip+d+1 < width {
				cut, next = skip+d+1, skip+d+1
			} else {
				cut, next = width, width
			}
		}
		lines = append(lines, prefix+strings.TrimRight(s[:cut], " "))
		s = strings.TrimLeft(s[next:], " ")
		prefix, width, skip = pad, w-indent, 0
	}
	if strings.TrimSpace(s) != "" {
		lines = append(lines, prefix+s)
	}
	return lines
}

// splitColumns breaks a plain line at its column gaps (runs of two or
// more spaces) when every piece then fits: mongosh lays short array
// elements out in columns for 80 cells, and a narrower pane should move
// whole elements to the next line rather than cut one in the middle.
func splitColumns(l string, w int, pad string) ([]string, bool) {
	if strings.ContainsRune(l, '\x1b') {
		return nil, false
	}
	body := strings.TrimLeft(l, " ")
	indent := l[:len(l)-len(body)]
	segs := splitGaps(strings.TrimRight(body, " "))
	if len(segs) < 2 {
		return nil, false
	}
	// Elements of a list (each ending in a comma) continue at the list's
	// indent, as mongosh prints them one per line; anything else is
	// indented as a continuation.
	cont := pad
	if strings.HasSuffix(segs[0], ",") {
		cont = indent
	}
	var out []string
	cur := indent + segs[0]
	for _, seg := range segs[1:] {
		if next := cur + "  " + seg; ansi.StringWidth(next) <= w {
			cur = next
			continue
		}
		out = append(out, cur)
		cur = cont + seg
	}
	out = append(out, cur)
	for _, o := range out {
		if ansi.StringWidth(o) > w {
			return nil, false
		}
	}
	return out, true
}

// splitGaps splits s at runs of two or more spaces.
func splitGaps(s string) []string {
	var segs []string
	for {
		i := strings.Index(s, "  ")
		if i < 0 {
			return append(segs, s)
		}
		segs = append(segs, s[:i])
		s = strings.TrimLeft(s[i:], " ")
	}
}

// nbHyphen stands in for "-" while wrapping: one cell wide, not a break.
const nbHyphen = '\u2011'

// softWrap breaks lines wider than w at word boundaries (or anywhere in a
// long word), keeping their colours. Continuation lines are indented two
// cells past the line's own indentation, so a wrapped value reads as one.
// Lines that fit are shared, not copied, so a long output costs one width
// measurement per line.
func softWrap(raw []string, w int) (lines []string, starts []int) {
	lines = make([]string, 0, len(raw))
	starts = make([]int, len(raw))
	for i, l := range raw {
		starts[i] = len(lines)
		ascii := isPlainASCII(l)
		if w < 4 || (ascii && len(l) <= w) || (!ascii && ansi.StringWidth(l) <= w) {
			lines = append(lines, l)
			continue
		}
		if ascii {
			// Most mongosh output is plain ASCII: wrap it without the ANSI
			// machinery, which a 50,000-line output could not afford.
			lines = wrapPlain(lines, l, w)
			continue
		}
		plain := ansi.Strip(l)
		indent := len(plain) - len(strings.TrimLeft(plain, " "))
		indent = min(indent+2, w/2)
		pad := strings.Repeat(" ", indent)
		if cols, ok := splitColumns(l, w, pad); ok {
			lines = append(lines, cols...)
			continue
		}
		// The first line keeps its full width; the rest wrap narrower to
		// make room for the indent.
		first := wrap(l, w)
		lines = append(lines, first[0])
		if len(first) < 2 {
			continue
		}
		// Wrap the remainder of the original, not of the first wrap's
		// output, so that colours carry on past the break.
		tail := ansi.TruncateLeft(l, ansi.StringWidth(first[0]), "")
		plainTail := ansi.Strip(tail)
		if sp := len(plainTail) - len(strings.TrimLeft(plainTail, " ")); sp > 0 {
			tail = ansi.TruncateLeft(tail, sp, "")
		}
		if strings.TrimSpace(plainTail) == "" {
			continue
		}
		for _, c := range wrap(tail, w-indent) {
			lines = append(lines, pad+c)
		}
	}
	return lines, starts
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
