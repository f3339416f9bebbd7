package tui

import "strings"

// scroller is the pane's view onto its (already wrapped) lines: a window
// of height lines starting at an offset. It replaces bubbles' viewport,
// which measures every line's width on each SetContent for a horizontal
// scroll the panes never use — 150,000 measurements for a wrapped
// 50,000-line output. Here setting content is free and a frame touches
// only the visible lines.
type scroller struct {
	lines         []string
	width, height int
	offset        int
}

func (s *scroller) SetWidth(w int)  { s.width = max(w, 0) }
func (s *scroller) SetHeight(h int) { s.height = max(h, 0); s.SetYOffset(s.offset) }
func (s *scroller) Width() int      { return s.width }
func (s *scroller) Height() int     { return s.height }

func (s *scroller) SetContentLines(lines []string) {
	s.lines = lines
	s.SetYOffset(s.offset)
}

func (s *scroller) TotalLineCount() int { return len(s.lines) }
func (s *scroller) YOffset() int        { return s.offset }

func (s *scroller) maxOffset() int { return max(len(s.lines)-s.height, 0) }

func (s *scroller) SetYOffset(n int) { s.offset = min(max(n, 0), s.maxOffset()) }
func (s *scroller) AtBottom() bool   { return s.offset >= s.maxOffset() }
func (s *scroller) GotoTop()         { s.offset = 0 }
func (s *scroller) GotoBottom()      { s.offset = s.maxOffset() }
func (s *scroller) ScrollDown(n int) { s.SetYOffset(s.offset + n) }
func (s *scroller) ScrollUp(n int)   { s.SetYOffset(s.offset - n) }
func (s *scroller) PageDown()        { s.ScrollDown(s.height) }
func (s *scroller) PageUp()          { s.ScrollUp(s.height) }

// View is the visible lines, one per row (the frame pads and cuts them).
func (s *scroller) View() string {
	end := min(s.offset+s.height, len(s.lines))
	if s.offset >= end {
		return ""
	}
	return strings.Join(s.lines[s.offset:end], "\n")
}
