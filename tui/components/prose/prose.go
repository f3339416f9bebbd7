// Package prose renders a lesson's Markdown as rows for a viewport.
//
// It walks goldmark's AST itself rather than going through glamour.
// Glamour wraps with the ansi word wrapper, which breaks at hyphens (URLs
// and ISO dates came apart), renders tables through a fixed-width grid
// that wraps cells letter by letter, and hands back one finished string,
// so a caller cannot tell a table's rows from a paragraph's to scroll only
// the table. Here every block is laid out by the components made for it:
// paragraphs, headings and list items by inline (breaks at spaces only,
// widths in cells), tables by table, fenced code by code.
//
// The choices that make a step read well:
//   - Soft line breaks are spaces (none between two ideographs), so a
//     paragraph or list item flows at the width it is shown in.
//   - Text wraps at a reading measure, at most Options.Measure (80) cells,
//     however wide the window; tables and code may use the whole width.
//   - Headings lose their hashes: level 1 is bold and underlined with a
//     heavy rule, level 2 bold with a light rule, deeper levels bold.
//   - Emphasis is italic, strong bold, inline code coloured, links
//     underlined and followed by their address, which never breaks (a
//     longer one is cut with … and still opens as a terminal hyperlink).
//   - Under NO_COLOR (styles.Styles.NoColor) emphasis is underlined, strong
//     bold, and inline code keeps its backticks: they survive even where
//     attributes are stripped, and cannot be mistaken for emphasis.
//   - A table wider than the window wraps its cells at spaces, so that
//     every column stays in sight; only a table whose words alone are too
//     wide scrolls sideways under a "more →" cue.
//   - A code block that is only shown is highlighted and wrapped by code.
package prose

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/components/code"
	"github.com/schemalab/schemalab/tui/components/inline"
	"github.com/schemalab/schemalab/tui/components/table"
	"github.com/schemalab/schemalab/tui/components/viewport"
	"github.com/schemalab/schemalab/tui/styles"
)

// DefaultMeasure is the widest text is set, in cells: about the 60–80
// characters a line reads comfortably at.
const DefaultMeasure = 80

// Options configure a Document.
type Options struct {
	// Measure caps the width text wraps at; 0 means DefaultMeasure.
	Measure int
}

// Document is Markdown parsed once, to be laid out at any width, a
// renderer: a pane scrolls its rows. It is not safe for concurrent use.
type Document struct {
	c     common.Common
	opts  Options
	hint  string
	src   []byte
	root  ast.Node
	text  *inline.Theme
	heads [4]*inline.Theme
	rule  [2]lipgloss.Style
	muted lipgloss.Style
	mark  lipgloss.Style

	codes  map[ast.Node]*code.Block
	tables map[ast.Node]*table.Table

	cacheW    int
	cacheRows []viewport.Row
}

// Parse parses GitHub-flavoured Markdown, to be drawn with c's styles;
// a wide table's cue gives c's scrolling keys.
func Parse(c common.Common, markdown string, opts Options) *Document {
	if opts.Measure <= 0 {
		opts.Measure = DefaultMeasure
	}
	src := []byte(markdown)
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	d := &Document{
		c: c, opts: opts, hint: viewport.ScrollHint(c), src: src, root: md.Parser().Parse(text.NewReader(src)),
		codes: map[ast.Node]*code.Block{}, tables: map[ast.Node]*table.Table{}, cacheW: -1,
	}
	st := c.Styles
	d.text = textTheme(st)
	d.muted = st.Muted
	d.mark = st.Accent
	d.heads = [4]*inline.Theme{
		d.text.WithBase(st.Title.Underline(true)),
		d.text.WithBase(st.Title),
		d.text.WithBase(st.Subtitle),
		d.text.WithBase(st.Subtitle.Faint(!st.NoColor)),
	}
	d.rule = [2]lipgloss.Style{st.Title, st.Muted}
	return d
}

func textTheme(st *styles.Styles) *inline.Theme {
	plain := lipgloss.NewStyle()
	if st.NoColor {
		return &inline.Theme{Emph: plain.Underline(true), Strong: plain.Bold(true), Code: plain,
			Link: plain.Underline(true), Strike: plain.Strikethrough(true), Faint: st.Muted}
	}
	return &inline.Theme{Emph: plain.Italic(true), Strong: plain.Bold(true), Code: st.CodeField,
		Link: st.Accent.Underline(true), Strike: plain.Strikethrough(true), Faint: st.Muted}
}

// Rows lays the document out for a window width cells wide.
func (d *Document) Rows(width int) []viewport.Row {
	width = max(width, 1)
	if width == d.cacheW {
		return d.cacheRows
	}
	measure := min(width, d.opts.Measure)
	d.cacheW, d.cacheRows = width, d.blocks(d.root, width, measure, false)
	return d.cacheRows
}

// Render is the document laid out for width cells as one string, wide
// tables cut at the window's edge under their cue.
func (d *Document) Render(width int) string {
	return strings.Join(viewport.Lines(d.c, d.Rows(width), width), "\n")
}

// blocks lays out n's children, a blank row between them unless tight.
func (d *Document) blocks(n ast.Node, width, measure int, tight bool) []viewport.Row {
	var rows []viewport.Row
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		br := d.block(c, width, measure)
		if len(br) == 0 {
			continue
		}
		if len(rows) > 0 && !tight {
			rows = append(rows, viewport.Row{})
		}
		rows = append(rows, br...)
	}
	return rows
}

func (d *Document) block(n ast.Node, width, measure int) []viewport.Row {
	switch n := n.(type) {
	case *ast.Heading:
		return d.heading(n, measure)
	case *ast.Paragraph, *ast.TextBlock:
		return d.paragraph(n, d.text, measure, width)
	case *ast.List:
		return d.list(n, width, measure)
	case *ast.Blockquote:
		bar := d.muted.Render("│") + " "
		return prefix(d.blocks(n, width-2, measure-2, false), bar, bar)
	case *ast.FencedCodeBlock:
		return d.code(n, string(n.Language(d.src)), width)
	case *ast.CodeBlock:
		return d.code(n, "text", width)
	case *ast.HTMLBlock:
		return d.code(n, "html", width)
	case *ast.ThematicBreak:
		return []viewport.Row{{Text: d.muted.Render(strings.Repeat("─", measure))}}
	case *east.Table:
		return d.table(n, width)
	}
	return d.blocks(n, width, measure, false)
}

// paragraph wraps at the measure; a word longer than the measure (a long
// address) may use the window's width before it is cut.
func (d *Document) paragraph(n ast.Node, th *inline.Theme, measure, width int) []viewport.Row {
	lines := inline.Split(d.spans(n, 0, "")).WrapWithin(measure, width)
	rows := make([]viewport.Row, len(lines))
	for i, l := range lines {
		rows[i] = viewport.Row{Text: th.Render(l)}
	}
	return rows
}

func (d *Document) heading(n *ast.Heading, measure int) []viewport.Row {
	level := min(n.Level, len(d.heads)) - 1
	th := d.heads[level]
	lines := inline.Split(d.spans(n, 0, "")).Wrap(measure)
	rows := make([]viewport.Row, 0, len(lines)+1)
	w := 0
	for _, l := range lines {
		rows = append(rows, viewport.Row{Text: th.Render(l)})
		w = max(w, l.Width)
	}
	if level < len(d.rule) {
		rows = append(rows, viewport.Row{Text: d.rule[level].Render(strings.Repeat([]string{"━", "─"}[level], w))})
	}
	return rows
}

// bullets are the list markers by depth.
const bullets = "•◦▪"

func (d *Document) list(n *ast.List, width, measure int) []viewport.Row {
	depth := 0
	for p := n.Parent(); p != nil; p = p.Parent() {
		if _, ok := p.(*ast.List); ok {
			depth++
		}
	}
	count := n.ChildCount()
	markW := 2
	if n.IsOrdered() {
		markW = len(strconv.Itoa(n.Start+count-1)) + 2
	}
	var rows []viewport.Row
	i := 0
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		marks := []rune(bullets)
		mark := string(marks[depth%len(marks)])
		if n.IsOrdered() {
			mark = strconv.Itoa(n.Start+i) + string(n.Marker)
		}
		mark = strings.Repeat(" ", markW-1-ansi.StringWidth(mark)) + mark + " "
		ir := d.blocks(item, width-markW, measure-markW, n.IsTight)
		if len(rows) > 0 && !n.IsTight {
			rows = append(rows, viewport.Row{})
		}
		rows = append(rows, prefix(ir, d.mark.Render(mark), strings.Repeat(" ", markW))...)
		i++
	}
	return rows
}

// prefix puts first before the first row and rest before the others: on
// a scrolling row into its gutter, so that it does not scroll away.
func prefix(rows []viewport.Row, first, rest string) []viewport.Row {
	for i := range rows {
		p := rest
		if i == 0 {
			p = first
		}
		switch {
		case rows[i].Cue > 0:
		case rows[i].Scroll:
			rows[i].Gutter = p + rows[i].Gutter
		case rows[i].Text == "" && strings.TrimSpace(p) == "":
		default:
			rows[i].Text = p + rows[i].Text
		}
	}
	return rows
}

func (d *Document) code(n ast.Node, lang string, width int) []viewport.Row {
	b, ok := d.codes[n]
	if !ok {
		var src bytes.Buffer
		lines := n.Lines()
		for i := range lines.Len() {
			seg := lines.At(i)
			src.Write(seg.Value(d.src))
		}
		b = code.New(src.String(), code.Options{Styles: d.c.Styles, Lang: lang})
		d.codes[n] = b
	}
	cr := b.Render(width)
	rows := make([]viewport.Row, len(cr))
	wide := 0
	for _, r := range cr {
		wide = max(wide, r.Width)
	}
	for i, r := range cr {
		rows[i] = viewport.Row{Text: r.Text, Scroll: wide > width}
	}
	if wide > width {
		rows = append(rows, viewport.CueRow(wide, d.hint))
	}
	return rows
}

func (d *Document) table(n *east.Table, width int) []viewport.Row {
	t, ok := d.tables[n]
	if !ok {
		var data table.Data
		for _, a := range n.Alignments {
			switch a {
			case east.AlignRight:
				data.Align = append(data.Align, table.Right)
			case east.AlignCenter:
				data.Align = append(data.Align, table.Center)
			default:
				data.Align = append(data.Align, table.Left)
			}
		}
		for r := n.FirstChild(); r != nil; r = r.NextSibling() {
			var cells []table.Cell
			for c := r.FirstChild(); c != nil; c = c.NextSibling() {
				cells = append(cells, d.spans(c, 0, ""))
			}
			if _, head := r.(*east.TableHeader); head {
				data.Header = cells
			} else {
				data.Rows = append(data.Rows, cells)
			}
		}
		t = table.New(data, table.Options{Styles: d.c.Styles, Theme: d.text, Wrap: true, ScrollHint: d.hint})
		d.tables[n] = t
	}
	return t.Rows(width)
}

// glueWidth is the widest inline code kept on one line.
const glueWidth = 20

// spans is n's inline content with attr and url added.
func (d *Document) spans(n ast.Node, attr inline.Attr, url string) []inline.Span {
	var out []inline.Span
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			v := c.Segment.Value(d.src)
			if !c.IsRaw() {
				v = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
			}
			out = append(out, inline.Span{Text: string(v), Attr: attr, URL: url})
			switch {
			case c.HardLineBreak():
				out = append(out, inline.Span{Text: "\n"})
			case c.SoftLineBreak() && !(ideographicEnd(v) && ideographicStart(d.nextText(c))):
				out = append(out, inline.Span{Text: " ", Attr: attr, URL: url})
			}
		case *ast.String:
			out = append(out, inline.Span{Text: string(c.Value), Attr: attr, URL: url})
		case *ast.CodeSpan:
			var b strings.Builder
			for t := c.FirstChild(); t != nil; t = t.NextSibling() {
				if t, ok := t.(*ast.Text); ok {
					b.Write(t.Segment.Value(d.src))
				}
			}
			v := strings.ReplaceAll(b.String(), "\n", " ")
			if d.c.Styles.NoColor {
				v = "`" + v + "`"
			}
			out = append(out, inline.Span{Text: v, Attr: attr | inline.Code, URL: url, Glue: ansi.StringWidth(v) <= glueWidth})
		case *ast.Emphasis:
			a := inline.Emph
			if c.Level >= 2 {
				a = inline.Strong
			}
			out = append(out, d.spans(c, attr|a, url)...)
		case *ast.Link:
			dest := string(c.Destination)
			inner := d.spans(c, attr|inline.Link, dest)
			out = append(out, inner...)
			if dest != "" && !strings.HasPrefix(dest, "#") && dest != plainText(inner) {
				out = append(out, inline.Span{Text: " ", Attr: attr},
					inline.Span{Text: "(" + dest + ")", Attr: attr | inline.Faint, URL: dest})
			}
		case *ast.AutoLink:
			u := string(c.URL(d.src))
			out = append(out, inline.Span{Text: string(c.Label(d.src)), Attr: attr | inline.Link, URL: u})
		case *ast.Image:
			out = append(out, inline.Span{Text: "[image: " + plainText(d.spans(c, 0, "")) + "]", Attr: attr | inline.Faint})
		case *ast.RawHTML:
			var b strings.Builder
			for i := range c.Segments.Len() {
				seg := c.Segments.At(i)
				b.Write(seg.Value(d.src))
			}
			if tag := strings.ToLower(strings.ReplaceAll(b.String(), " ", "")); tag == "<br>" || tag == "<br/>" {
				out = append(out, inline.Span{Text: "\n"})
				continue
			}
			out = append(out, inline.Span{Text: b.String(), Attr: attr | inline.Faint})
		case *east.Strikethrough:
			out = append(out, d.spans(c, attr|inline.Strike, url)...)
		case *east.TaskCheckBox:
			box := "[ ] "
			if c.IsChecked {
				box = "[x] "
			}
			out = append(out, inline.Span{Text: box, Attr: attr})
		default:
			out = append(out, d.spans(c, attr, url)...)
		}
	}
	return out
}

func (d *Document) nextText(n ast.Node) []byte {
	if t, ok := n.NextSibling().(*ast.Text); ok {
		return t.Segment.Value(d.src)
	}
	return nil
}

func ideographicEnd(b []byte) bool {
	r, _ := utf8.DecodeLastRune(b)
	return inline.Ideographic(r)
}

func ideographicStart(b []byte) bool {
	r, _ := utf8.DecodeRune(b)
	return inline.Ideographic(r)
}

func plainText(spans []inline.Span) string {
	var b strings.Builder
	for _, s := range spans {
		b.WriteString(s.Text)
	}
	return b.String()
}

// Words is every word of the document's text as a learner reads it: of
// paragraphs, headings, list items and table cells. Code blocks are left
// to code's own guarantee (no token is ever broken).
func (d *Document) Words() []string {
	var words []string
	_ = ast.Walk(d.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Paragraph, *ast.TextBlock, *ast.Heading, *east.TableCell:
			words = append(words, inline.Split(d.spans(n, 0, "")).Words()...)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return words
}

// Plain is a line of inline Markdown as plain text, its marks gone: a
// step's heading as a pane's title, where `count` would show its
// backticks and *and* its stars.
func Plain(markdown string) string {
	src := []byte(markdown)
	root := goldmark.New().Parser().Parse(text.NewReader(src))
	var b strings.Builder
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Text:
			b.Write(n.Segment.Value(src))
			if n.SoftLineBreak() || n.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(n.Value)
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}
