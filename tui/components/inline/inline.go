// Package inline lays out runs of styled text, Markdown's inline content,
// into lines of a given width.
//
// Lines break only at spaces, and between East Asian ideographs, which
// are written without spaces. They never break at a hyphen: the ansi and
// lipgloss word wrappers do, which is how URLs and ISO dates came apart. A
// word wider than the whole line (a long URL) is cut with an ellipsis
// instead of split, so every line fits and every word that can fit is
// whole. Widths are display cells (ansi.StringWidth), so Cyrillic counts
// one cell a letter and CJK two.
//
// Content is split into words once (Split); laying out at another width
// reuses them. Each attribute set's style is reduced once to its escape
// codes (Paint), so rendering a line is concatenation.
package inline

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Attr is a set of inline attributes; nested Markdown emphasis adds them
// up (strong inside emphasis is both).
type Attr uint8

const (
	Emph Attr = 1 << iota
	Strong
	Code
	Link
	Strike
	// Faint is secondary text: a link's address, a caption.
	Faint
	attrCount = 1 << iota
)

// Span is a run of text with one set of attributes.
type Span struct {
	Text string
	Attr Attr
	// URL makes the span a terminal hyperlink (OSC 8).
	URL string
	// Glue makes the span's spaces unbreakable: a short code span such as
	// `{ $lt: 60 }` reads badly split over two lines.
	Glue bool
}

// Theme is the styles for each attribute, combined for attribute sets in
// the order Code, Link, Strong, Emph, Strike, Faint: a set takes each
// property from the first of its styles that sets it, then from Base.
type Theme struct {
	Base                                    lipgloss.Style
	Emph, Strong, Code, Link, Strike, Faint lipgloss.Style

	paints [attrCount]*Paint
}

// Paint is a style reduced to the escape codes before and after a run of
// text. lipgloss renders underlined text one letter at a time (to leave
// spaces out); a run needs one code at each end, and applying a paint is
// a concatenation. Only colours and attributes survive: padding, width
// and borders, which inline text has none of, are lost.
type Paint struct{ pre, post string }

// PaintOf reduces s to its escape codes.
func PaintOf(s lipgloss.Style) Paint {
	probe := s.Render("x")
	i := strings.IndexByte(probe, 'x')
	if i < 0 || strings.Count(probe, "x") != 1 {
		return Paint{}
	}
	return Paint{pre: probe[:i], post: probe[i+1:]}
}

// Apply paints s.
func (p Paint) Apply(s string) string {
	if p.pre == "" && p.post == "" {
		return s
	}
	return p.pre + s + p.post
}

// WithBase is a copy of the theme on another base style.
func (t *Theme) WithBase(base lipgloss.Style) *Theme {
	return &Theme{Base: base, Emph: t.Emph, Strong: t.Strong, Code: t.Code, Link: t.Link, Strike: t.Strike, Faint: t.Faint}
}

func (t *Theme) paint(a Attr) Paint {
	if p := t.paints[a]; p != nil {
		return *p
	}
	s := lipgloss.NewStyle()
	for _, part := range []struct {
		a  Attr
		st lipgloss.Style
	}{{Code, t.Code}, {Link, t.Link}, {Strong, t.Strong}, {Emph, t.Emph}, {Strike, t.Strike}, {Faint, t.Faint}} {
		if a&part.a != 0 {
			s = s.Inherit(part.st)
		}
	}
	p := PaintOf(s.Inherit(t.Base))
	t.paints[a] = &p
	return p
}

// Text is inline content split into words.
type Text struct {
	words []word
}

// piece is part of a word in one style.
type piece struct {
	text string
	attr Attr
	url  string
}

type word struct {
	// gap is the space before the word: dropped where a line breaks.
	gap    piece
	gapW   int
	pieces []piece
	w      int
	// newline forces a line break before the word (a Markdown hard break).
	newline bool
}

// Split splits spans into words. A "\n" in a span's text is a forced line
// break; runs of spaces between words keep their width.
func Split(spans []Span) Text {
	var (
		t       Text
		cur     word
		inWord  bool
		gap     strings.Builder
		gapSpan Span
		newline bool
		last    rune
	)
	endWord := func() {
		if inWord {
			t.words = append(t.words, cur)
		}
		cur, inWord = word{}, false
	}
	startWord := func() {
		cur = word{newline: newline}
		if gap.Len() > 0 && !newline && len(t.words) > 0 {
			cur.gap = piece{text: gap.String(), attr: gapSpan.Attr, url: gapSpan.URL}
			cur.gapW = gap.Len()
		}
		gap.Reset()
		newline, inWord = false, true
	}
	for _, sp := range spans {
		start := -1 // start of the current piece in sp.Text
		flush := func(end int) {
			if start >= 0 && end > start {
				p := piece{text: sp.Text[start:end], attr: sp.Attr, url: sp.URL}
				cur.pieces = append(cur.pieces, p)
				cur.w += width(p.text)
			}
			start = -1
		}
		for i, r := range sp.Text {
			switch {
			case r == '\n':
				flush(i)
				endWord()
				newline = true
				gap.Reset()
			case (r == ' ' || r == '\t') && !sp.Glue:
				flush(i)
				endWord()
				gap.WriteByte(' ')
				gapSpan = sp
			default:
				if inWord && breakBetween(last, r) {
					flush(i)
					endWord()
				}
				if !inWord {
					startWord()
				}
				if start < 0 {
					start = i
				}
			}
			last = r
		}
		flush(len(sp.Text))
	}
	endWord()
	return t
}

// breakBetween reports whether a line may break between two letters with
// no space: around an ideograph or kana, except before closing and after
// opening punctuation.
func breakBetween(a, b rune) bool {
	if !Ideographic(a) && !Ideographic(b) {
		return false
	}
	return !strings.ContainsRune(noBreakBefore, b) && !strings.ContainsRune(noBreakAfter, a)
}

const (
	noBreakBefore = "、。，．：；？！）」』】〕〉》’”,.:;?!)]}%"
	noBreakAfter  = "（「『【〔〈《‘“([{"
)

// Ideographic reports whether r belongs to the scripts written without
// spaces between words (Han, kana, CJK punctuation), between whose
// letters a line may break.
func Ideographic(r rune) bool {
	return r >= 0x3000 && (unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) ||
		(r >= 0x3000 && r <= 0x303f) || (r >= 0xff00 && r <= 0xffef))
}

// width is s's width in cells, with a fast path for ASCII.
func width(s string) int {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf || s[i] < 0x20 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// Width is the text's width on one line.
func (t Text) Width() int {
	w := 0
	for i, wd := range t.words {
		if i > 0 {
			w += wd.gapW
		}
		w += wd.w
	}
	return w
}

// MinWidth is the width of its widest word: the narrowest it can wrap to
// without cutting a word.
func (t Text) MinWidth() int {
	w := 0
	for _, wd := range t.words {
		w = max(w, wd.w)
	}
	return w
}

// Words is the text's words as plain strings.
func (t Text) Words() []string {
	out := make([]string, len(t.words))
	for i, wd := range t.words {
		var b strings.Builder
		for _, p := range wd.pieces {
			b.WriteString(p.text)
		}
		out[i] = b.String()
	}
	return out
}

// Line is one laid-out line.
type Line struct {
	pieces []piece
	Width  int
}

// Wrap lays the text out in lines of at most w cells. Forced breaks are
// kept; a word wider than w is cut to w with an ellipsis.
func (t Text) Wrap(w int) []Line { return t.WrapWithin(w, w) }

// WrapWithin is Wrap, except that a word wider than w, such as a long
// address, gets a line of its own up to limit cells wide before it is
// cut: text keeps its measure, and the word stays whole where the window
// has room for it.
func (t Text) WrapWithin(w, limit int) []Line {
	w = max(w, 1)
	limit = max(limit, w)
	var (
		lines []Line
		cur   Line
		empty = true
	)
	push := func() {
		lines = append(lines, cur)
		cur, empty = Line{}, true
	}
	for _, wd := range t.words {
		if wd.newline && !(empty && len(lines) == 0) {
			push()
		}
		if !empty && cur.Width+wd.gapW+wd.w > w {
			push()
		}
		if !empty {
			cur.pieces = append(cur.pieces, wd.gap)
			cur.Width += wd.gapW
		}
		switch {
		case empty && wd.w > w && wd.w <= limit:
			cur.pieces = append(cur.pieces, wd.pieces...)
			cur.Width += wd.w
		case empty && wd.w > limit:
			cur.pieces = append(cur.pieces, cut(wd.pieces, limit)...)
			cur.Width = limit
		case wd.w > w-cur.Width:
			cur.pieces = append(cur.pieces, cut(wd.pieces, w-cur.Width)...)
			cur.Width = w
		default:
			cur.pieces = append(cur.pieces, wd.pieces...)
			cur.Width += wd.w
		}
		empty = false
	}
	if !empty || len(lines) == 0 {
		lines = append(lines, cur)
	}
	return lines
}

// Line lays the whole text on one line; forced breaks become spaces.
func (t Text) Line() Line {
	var l Line
	for i, wd := range t.words {
		if i > 0 {
			g, gw := wd.gap, wd.gapW
			if wd.newline {
				g, gw = piece{text: " "}, 1
			}
			l.pieces = append(l.pieces, g)
			l.Width += gw
		}
		l.pieces = append(l.pieces, wd.pieces...)
		l.Width += wd.w
	}
	return l
}

// cut keeps what fits of pieces in w cells, the last one an ellipsis.
func cut(pieces []piece, w int) []piece {
	var out []piece
	room := w - 1
	for _, p := range pieces {
		pw := width(p.text)
		if pw <= room {
			out = append(out, p)
			room -= pw
			continue
		}
		if room > 0 {
			out = append(out, piece{text: ansi.Truncate(p.text, room, ""), attr: p.attr, url: p.url})
		}
		out = append(out, piece{text: "…", attr: p.attr, url: p.url})
		return out
	}
	return out
}

// Render is the line with its styles, one pair of escape codes a run.
func (t *Theme) Render(l Line) string {
	var b, run strings.Builder
	var attr Attr
	var url string
	flush := func() {
		if run.Len() == 0 {
			return
		}
		text := t.paint(attr).Apply(run.String())
		if url != "" {
			text = ansi.SetHyperlink(url) + text + ansi.ResetHyperlink()
		}
		b.WriteString(text)
		run.Reset()
	}
	for _, p := range l.pieces {
		if p.text == "" {
			continue
		}
		if p.attr != attr || p.url != url {
			flush()
			attr, url = p.attr, p.url
		}
		run.WriteString(p.text)
	}
	flush()
	return b.String()
}

// Plain is the line's text without styles.
func (l Line) Plain() string {
	var b strings.Builder
	for _, p := range l.pieces {
		b.WriteString(p.text)
	}
	return b.String()
}

// WrapIndented lays out plain text whose indentation is its shape, such
// as mongosh's output and an error's errInfo: every line of s starts a
// line, keeps its leading spaces, and wraps at spaces into lines indented
// as much (Split drops the spaces where a line breaks, and would set
// nested documents flush left). Indentation stops at half the width, so
// that a deep line still has room.
func WrapIndented(s string, w int) []Line {
	var out []Line
	for _, l := range strings.Split(s, "\n") {
		rest := strings.TrimLeft(l, " ")
		indent := min(len(l)-len(rest), w/2)
		for _, wl := range Split([]Span{{Text: rest}}).Wrap(w - indent) {
			if indent > 0 && wl.Width > 0 {
				wl.pieces = append([]piece{{text: strings.Repeat(" ", indent)}}, wl.pieces...)
				wl.Width += indent
			}
			out = append(out, wl)
		}
	}
	return out
}
