// Package code renders source code, mongosh JavaScript above all, with
// chroma's highlighting and a wrapping that never breaks inside a token.
//
// A long line breaks, in order of preference, at a space, or after one of
// , ; ( [ { or before the dot of a method call; never inside a name, a
// number or a string, so `sizes('readings_bucket_steady')` and
// `ISODate('2026-09-01T00:00:00Z')` stay whole. A space break is taken
// unless it would leave the row less than half full while a punctuation
// break fits further right. Wrapped rows are marked with ↪ in the gutter
// and indented two cells past the line's own indentation, so they cannot
// be mistaken for a new line of code; a token that fits a row but not
// past that indent (a long string) is indented less. A wrapped // comment goes on with
// its // kept (aligned under the comment when there is room), so it still
// reads as a comment. A token wider than the whole row stands alone on a
// row and overflows: the row's Width says so, and callers put such rows in
// a horizontally scrolling viewport rather than cut them.
//
// In Scroll mode nothing wraps: one row per line, for a viewport to scroll.
// Every row records its source line, which the notebook needs to put each
// statement's output under its last line.
package code

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/tui/components/inline"
	"github.com/schemalab/schemalab/tui/styles"
)

// Mode says what happens to a line wider than the rows.
type Mode int

const (
	// Wrap breaks it between tokens, with a continuation marker.
	Wrap Mode = iota
	// Scroll keeps it whole, for a viewport to scroll horizontally.
	Scroll
)

// ContinuationMarker is the gutter mark of a wrapped row.
const ContinuationMarker = "↪"

// Options configure a Block.
type Options struct {
	Styles *styles.Styles
	// Lang is the chroma lexer's name or alias; "" is JavaScript. A
	// language chroma does not know is shown plain.
	Lang        string
	Mode        Mode
	LineNumbers bool
	// FirstLine is the number shown for the first line; 0 means 1.
	FirstLine int
}

// Row is one rendered row.
type Row struct {
	// Text is the styled row.
	Text string
	// Line is the 0-based source line the row shows.
	Line int
	// Cont marks a wrapped continuation of Line.
	Cont bool
	// Width is Text's width in cells.
	Width int
}

// Block is source code tokenized once, to be laid out at any width. It is
// not safe for concurrent use.
type Block struct {
	opts   Options
	lines  []line
	paints [kindCount]inline.Paint
	gutter inline.Paint

	cacheW    int
	cacheRows []Row
}

type kind uint8

const (
	kindPlain kind = iota
	kindKeyword
	kindString
	kindNumber
	kindComment
	kindFunction
	kindField
	kindOperator
	kindCount
)

// frag is a highlighted fragment of a line: text[previous end:end].
type frag struct {
	end  int
	kind kind
}

// brk is a place a line may break: the row ends at at, the next begins at
// resume (after the spaces a space break drops).
type brk struct {
	at, resume int
	prio       prio
}

// prio ranks breaks: a space reads best, then after a comma or before a
// method's dot, and only then after an opening bracket.
type prio int8

const (
	afterOpen prio = iota
	afterComma
	atSpace
)

type line struct {
	text   string
	frags  []frag
	breaks []brk
	indent int
	// comment is where a // comment starts, or -1.
	comment int
	ascii   bool
}

// New tokenizes src.
func New(src string, opts Options) *Block {
	b := &Block{opts: opts, cacheW: -1, gutter: inline.PaintOf(opts.Styles.Muted)}
	st := opts.Styles
	for k, s := range [kindCount]lipgloss.Style{
		kindPlain: st.CodePlain, kindKeyword: st.CodeKeyword, kindString: st.CodeString, kindNumber: st.CodeNumber,
		kindComment: st.CodeComment, kindFunction: st.CodeFunction, kindField: st.CodeField, kindOperator: st.CodeOperator,
	} {
		b.paints[k] = inline.PaintOf(s)
	}
	src = strings.ReplaceAll(strings.TrimRight(src, "\n"), "\t", "    ")
	b.lines = tokenize(src, opts.Lang)
	for i := range b.lines {
		b.lines[i].findBreaks()
	}
	return b
}

func tokenize(src, lang string) []line {
	if lang == "" {
		lang = "javascript"
	}
	lexer := lexers.Get(lang)
	var it chroma.Iterator
	if lexer != nil {
		it, _ = chroma.Coalesce(lexer).Tokenise(nil, src)
	}
	if it == nil {
		it = chroma.Literator(chroma.Token{Type: chroma.Text, Value: src})
	}
	lines := []line{{}}
	var b strings.Builder
	add := func(text string, k kind) {
		l := &lines[len(lines)-1]
		b.WriteString(text)
		end := b.Len()
		if n := len(l.frags); n > 0 && l.frags[n-1].kind == k {
			l.frags[n-1].end = end
		} else {
			l.frags = append(l.frags, frag{end: end, kind: k})
		}
	}
	newLine := func() {
		lines[len(lines)-1].text = b.String()
		b.Reset()
		lines = append(lines, line{})
	}
	for tok := it(); tok != chroma.EOF; tok = it() {
		k := kindOf(tok.Type)
		for i, part := range strings.Split(tok.Value, "\n") {
			if i > 0 {
				newLine()
			}
			if part != "" {
				add(part, k)
			}
		}
	}
	lines[len(lines)-1].text = b.String()
	// chroma ends its output with a newline the source may not have.
	if n := len(lines); n > 1 && lines[n-1].text == "" && !strings.HasSuffix(src, "\n") {
		lines = lines[:n-1]
	}
	return lines
}

func kindOf(t chroma.TokenType) kind {
	switch {
	case t.InCategory(chroma.Comment):
		return kindComment
	case t.InCategory(chroma.Keyword):
		return kindKeyword
	case t.InSubCategory(chroma.LiteralString):
		return kindString
	case t.InSubCategory(chroma.LiteralNumber):
		return kindNumber
	case t == chroma.NameFunction || t == chroma.NameBuiltin:
		return kindFunction
	case t == chroma.NameOther || t == chroma.NameAttribute || t == chroma.NameProperty:
		return kindField
	case t.InCategory(chroma.Operator) || t.InCategory(chroma.Punctuation):
		return kindOperator
	}
	return kindPlain
}

// findBreaks lists the line's break opportunities in order.
func (l *line) findBreaks() {
	l.comment = -1
	l.ascii = isASCII(l.text)
	body := strings.TrimLeft(l.text, " ")
	lead := len(l.text) - len(body)
	l.indent = lead
	start := 0
	for _, f := range l.frags {
		seg := l.text[start:f.end]
		switch f.kind {
		case kindString, kindNumber:
		case kindComment:
			if strings.HasPrefix(seg, "//") && l.comment < 0 {
				l.comment = start
				// A row never ends on a bare "//".
				l.spaceBreaks(start, seg, max(lead, start+2), true)
				break
			}
			l.spaceBreaks(start, seg, lead, true)
		case kindOperator:
			l.punctBreaks(start, seg)
		default:
			l.spaceBreaks(start, seg, lead, false)
			l.punctBreaks(start, seg)
		}
		start = f.end
	}
	l.keepLiteralCalls()
}

// keepLiteralCalls drops the break after the bracket of a call whose one
// argument is a literal: ISODate('2026-09-01T00:00:00Z') reads as one
// value.
func (l *line) keepLiteralCalls() {
	literalAt := map[int]bool{} // the starts of literals followed by ")"
	start := 0
	for _, f := range l.frags {
		if (f.kind == kindString || f.kind == kindNumber) && f.end < len(l.text) && l.text[f.end] == ')' {
			literalAt[start] = true
		}
		start = f.end
	}
	kept := l.breaks[:0]
	for _, br := range l.breaks {
		if br.prio != afterOpen || !literalAt[br.at] || l.text[br.at-1] != '(' {
			kept = append(kept, br)
		}
	}
	l.breaks = kept
}

// spaceBreaks adds a break at each run of spaces in seg (at offset off)
// after lead. In code, a space after a key or an opening bracket ranks
// lower; in a comment (prose) every space is as good.
func (l *line) spaceBreaks(off int, seg string, lead int, prose bool) {
	for i := 0; i < len(seg); i++ {
		if seg[i] != ' ' {
			continue
		}
		j := i
		for j < len(seg) && seg[j] == ' ' {
			j++
		}
		if at := off + i; at > lead {
			// A run may go on into the next fragment.
			resume := off + j
			for resume < len(l.text) && l.text[resume] == ' ' {
				resume++
			}
			if resume < len(l.text) {
				p := atSpace
				// A key stays with its value, a bracket with what it opens.
				if c := l.text[at-1]; !prose && (c == ':' || c == '(' || c == '[' || c == '{' || strings.HasSuffix(l.text[:at], " new")) {
					p = afterComma
				}
				l.breaks = append(l.breaks, brk{at: at, resume: resume, prio: p})
			}
		}
		i = j
	}
}

// punctBreaks adds breaks after , ; ( [ { and before a method call's dot.
func (l *line) punctBreaks(off int, seg string) {
	for i := range len(seg) {
		at := off + i
		switch seg[i] {
		case ',', ';':
			if at+1 < len(l.text) && l.text[at+1] != ' ' {
				l.breaks = append(l.breaks, brk{at: at + 1, resume: at + 1, prio: afterComma})
			}
		case '(', '[', '{':
			if at+1 < len(l.text) && l.text[at+1] != ' ' {
				l.breaks = append(l.breaks, brk{at: at + 1, resume: at + 1, prio: afterOpen})
			}
		case '.':
			if at > l.indent && at+1 < len(l.text) && chainable(l.text[at-1]) && identStart(l.text[at+1]) {
				l.breaks = append(l.breaks, brk{at: at, resume: at, prio: afterComma})
			}
		}
	}
}

// chainable is what a method call's dot may follow to break before it:
// a call or an index, not a bare name, since at.getUTCMinutes() reads as
// one value.
func chainable(c byte) bool { return c == ')' || c == ']' }
func identStart(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func (l *line) width(a, b int) int {
	if l.ascii {
		return b - a
	}
	return ansi.StringWidth(l.text[a:b])
}

// Lines is the number of source lines.
func (b *Block) Lines() int { return len(b.lines) }

// Source is source line i, as tokenized (tabs expanded).
func (b *Block) Source(i int) string { return b.lines[i].text }

// Layout lays the code out in rows of at most width cells, without a
// gutter. In Scroll mode, or for width <= 0, lines are not wrapped.
func (b *Block) Layout(width int) []Row {
	if width == b.cacheW && b.cacheRows != nil {
		return b.cacheRows
	}
	rows := make([]Row, 0, len(b.lines))
	for i := range b.lines {
		rows = b.wrapLine(rows, i, width)
	}
	b.cacheW, b.cacheRows = width, rows
	return rows
}

func (b *Block) wrapLine(rows []Row, li, w int) []Row {
	l := &b.lines[li]
	if b.opts.Mode == Scroll || w <= 0 || l.width(0, len(l.text)) <= w {
		return append(rows, b.row(l, li, 0, len(l.text), 0, false, false))
	}
	contIndent := min(l.indent+2, w/2)
	commentCol := -1
	start := 0
	for first := true; ; first = false {
		indent, prefix := 0, false
		if !first {
			indent = contIndent
			if l.comment >= 0 && start > l.comment {
				prefix = true
				if commentCol >= 0 && w-commentCol >= minCommentRoom {
					indent = commentCol
				}
			}
		}
		avail := w - indent
		if prefix {
			avail -= len(commentPrefix)
		} else if need := l.width(start, l.nextBreak(start)); !first && need > avail && need <= w {
			// A token that fits the row, but not past the indent (a
			// long string), gives up indent rather than overflow.
			indent, avail = w-need, need
		}
		if l.width(start, len(l.text)) <= avail {
			return append(rows, b.row(l, li, start, len(l.text), indent, prefix, !first))
		}
		br := l.choose(start, avail)
		// A comment split with little room left reads better moved whole to
		// the next row.
		if l.comment > start && br.at > l.comment && avail-l.width(start, l.comment) < minCommentRoom {
			if bc, ok := l.beforeComment(); ok && bc.at > start {
				br = bc
			}
		}
		if l.comment >= start && l.comment < br.at && commentCol < 0 {
			commentCol = indent + l.width(start, l.comment)
		}
		rows = append(rows, b.row(l, li, start, br.at, indent, prefix, !first))
		if br.resume >= len(l.text) {
			return rows
		}
		start = br.resume
	}
}

const commentPrefix = "// "

// minCommentRoom is the fewest cells a comment's words are given beside
// code; with less, the comment moves to a row of its own.
const minCommentRoom = 20

// choose picks where the row starting at start ends, given avail cells:
// the rightmost break of the best rank that leaves the row at least half
// full, else the rightmost of the best rank that fits at all.
func (l *line) choose(start, avail int) brk {
	// A row of nothing but closing brackets reads as a stray; take a
	// break that leaves more on the last row, if there is one.
	if br, ok := l.chooseAmong(start, avail, func(br brk) bool { return !onlyClosers(l.text[br.resume:]) }); ok {
		return br
	}
	br, _ := l.chooseAmong(start, avail, func(brk) bool { return true })
	return br
}

// onlyClosers reports whether s is a few closing brackets and commas.
func onlyClosers(s string) bool {
	return len(s) <= 8 && strings.Trim(s, ")]}; ,") == ""
}

func (l *line) chooseAmong(start, avail int, ok func(brk) bool) (brk, bool) {
	var best [atSpace + 1]int
	for i := range best {
		best[i] = -1
	}
	found := false
	for i, br := range l.breaks {
		if br.at <= start {
			continue
		}
		if l.width(start, br.at) > avail {
			if !found {
				// Nothing fits: the token overflows up to the next break.
				return br, true
			}
			break
		}
		if ok(br) {
			best[br.prio], found = i, true
		}
	}
	for _, halfFull := range []bool{true, false} {
		for p := atSpace; p >= afterOpen; p-- {
			if i := best[p]; i >= 0 && (!halfFull || 2*l.width(start, l.breaks[i].at) >= avail) {
				return l.breaks[i], true
			}
		}
	}
	return brk{at: len(l.text), resume: len(l.text)}, false
}

// nextBreak is where the first break after start ends a row: the end of
// what cannot be broken from start.
func (l *line) nextBreak(start int) int {
	for _, br := range l.breaks {
		if br.at > start {
			return br.at
		}
	}
	return len(l.text)
}

// beforeComment is the break just before the line's comment, if any.
func (l *line) beforeComment() (brk, bool) {
	for _, br := range l.breaks {
		if br.resume == l.comment && br.prio == atSpace {
			return br, true
		}
	}
	return brk{}, false
}

// row renders text[a:e] of l after indent cells and, on a comment's
// continuation, the comment prefix.
func (b *Block) row(l *line, li, a, e, indent int, prefix, cont bool) Row {
	var s strings.Builder
	s.WriteString(strings.Repeat(" ", indent))
	w := indent + l.width(a, e)
	if prefix {
		s.WriteString(b.render(kindComment, commentPrefix))
		w += len(commentPrefix)
	}
	start := 0
	for _, f := range l.frags {
		lo, hi := max(start, a), min(f.end, e)
		if lo < hi {
			s.WriteString(b.render(f.kind, l.text[lo:hi]))
		}
		start = f.end
		if start >= e {
			break
		}
	}
	return Row{Text: s.String(), Line: li, Cont: cont, Width: w}
}

func (b *Block) render(k kind, s string) string { return b.paints[k].Apply(s) }

// GutterWidth is the width of the gutter Render puts before each row:
// the line numbers and a space, or two cells for the continuation marker.
func (b *Block) GutterWidth() int {
	if b.opts.LineNumbers {
		return len(strconv.Itoa(b.firstLine()+len(b.lines)-1)) + 1
	}
	return 2
}

func (b *Block) firstLine() int { return max(b.opts.FirstLine, 1) }

// Render lays the code out in rows of at most width cells, gutter
// included: line numbers if asked, and ↪ on wrapped rows.
func (b *Block) Render(width int) []Row {
	gw := b.GutterWidth()
	body := b.Layout(width - gw)
	out := make([]Row, len(body))
	for i, r := range body {
		r.Text = b.Gutter(r) + r.Text
		r.Width += gw
		out[i] = r
	}
	return out
}

// Gutter is the gutter Render draws before r.
func (b *Block) Gutter(r Row) string {
	gw := b.GutterWidth()
	var g string
	switch {
	case r.Cont:
		g = strings.Repeat(" ", gw-2) + ContinuationMarker + " "
	case b.opts.LineNumbers:
		n := strconv.Itoa(b.firstLine() + r.Line)
		g = strings.Repeat(" ", gw-1-len(n)) + n + " "
	default:
		return "  "
	}
	return b.gutter.Apply(g)
}
