package prose

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/components/internal/comptest"
	"github.com/schemalab/schemalab/tui/styles"
)

var (
	dark    = styles.New(true, false)
	noColor = styles.New(true, true)
)

// in is what the renderer is given, in English, drawn with st.
func in(st *styles.Styles) common.Common {
	c := comptest.Common(false)
	c.Styles = st
	return c
}

// TestTreeChoosingGoldens is the tree lesson's "Choosing a tree model"
// step: its wide table, which wraps at spaces to fit the width (and
// scrolls only below the width its words need), a list with strong text,
// links.
func TestTreeChoosingGoldens(t *testing.T) {
	md := comptest.Section(t, comptest.Lesson(t, "04-tree.md"), "## Choosing a tree model", "## Exercise")
	doc := Parse(in(dark), md, Options{})
	comptest.Goldens(t, comptest.Widths, func(t *testing.T, w int) string { return doc.Render(w) })
}

// TestOutlierGoldens is the outlier lesson's introduction and its second
// step: long paragraphs with soft breaks, emphasis, inline code, code.
func TestOutlierGoldens(t *testing.T) {
	md := comptest.Section(t, comptest.Lesson(t, "01-outlier.md"), "# The Outlier Pattern", "## Books and customers") +
		comptest.Section(t, comptest.Lesson(t, "01-outlier.md"), "## Find the outliers", "## Applying")
	doc := Parse(in(dark), md, Options{})
	comptest.Goldens(t, comptest.Widths, func(t *testing.T, w int) string { return doc.Render(w) })
}

// blocksMarkdown has what the lessons use less often: every heading level,
// a quote, nested and ordered lists, soft breaks inside list items,
// Cyrillic and Japanese text.
const blocksMarkdown = `### A cycle, and ` + "`maxDepth`" + ` as the guard

#### Level four

> Design for the distribution, not for the maximum: the ordinary documents keep
> their shape, and *only* the outliers pay for the difference.

9. Embed the customers, because the page of a book shows them and one read is
   cheapest.
10. Flag the outliers:
    - set ` + "`hasExtras: true`" + ` on the book, and move the
      customers in a separate collection;
    - keep a counter.
11. Read with one query, or two for a flagged book.

Паттерн выброса хранит обычные документы в их привычной форме, а немногие
исключения получают отдельное представление.

外れ値パターンは、通常のドキュメントをそのままの形で保存し、
少数の例外だけを別のコレクションに移します。

---

See <https://www.mongodb.com/docs/manual/data-modeling/design-patterns/group-data/outlier-pattern/> for the pattern.
`

func TestBlocksGoldens(t *testing.T) {
	doc := Parse(in(dark), blocksMarkdown, Options{})
	comptest.Goldens(t, comptest.Widths, func(t *testing.T, w int) string { return doc.Render(w) })
}

// styleMarkdown is the outlier lesson's sentences that carry every inline
// style.
const styleMarkdown = `## Emphasis and code

Most books collect fewer than fifty reviews; *Atomic Habits* collects hundreds of thousands.
The classic mistake is to **design for the maximum instead of the distribution**: the
` + "`customers_1`" + ` index carries 50,000 entries. See [the manual](https://www.mongodb.com/docs/manual/).`

// TestStyleGoldens keeps the escape codes: colours in the dark theme, and
// under NO_COLOR underline, bold and backticks.
func TestStyleGoldens(t *testing.T) {
	for name, st := range map[string]*styles.Styles{"dark": dark, "nocolor": noColor} {
		t.Run(name, func(t *testing.T) {
			golden.RequireEqual(t, Parse(in(st), styleMarkdown, Options{}).Render(80))
		})
	}
}

func TestNoColorKeepsEmphasisAndCodeDistinct(t *testing.T) {
	out := Parse(in(noColor), styleMarkdown, Options{}).Render(80)
	for text, attr := range map[string]string{"Atomic Habits": "4", "design for the maximum": "1", "the manual": "4"} {
		if got := sgrBefore(out, text); !strings.Contains(";"+got+";", ";"+attr+";") {
			t.Errorf("NO_COLOR: %q is drawn with SGR %q, want attribute %s", text, got, attr)
		}
	}
	if !strings.Contains(out, "`customers_1`") {
		t.Errorf("NO_COLOR: inline code lost its backticks:\n%q", out)
	}
	plain := ansi.Strip(out)
	if strings.Contains(plain, "*Atomic") || strings.Contains(plain, "**design") {
		t.Errorf("emphasis markers left in the text:\n%s", plain)
	}
	if strings.Contains(out, "\x1b[3") && strings.Contains(out, "8;") {
		t.Errorf("NO_COLOR output has colours: %q", out)
	}
	// With colour, the backticks go: the colour marks the code.
	if c := ansi.Strip(Parse(in(dark), styleMarkdown, Options{}).Render(80)); strings.Contains(c, "`") {
		t.Errorf("backticks shown with colour:\n%s", c)
	}
}

// sgrBefore is the parameters of the escape code right before text.
func sgrBefore(out, text string) string {
	i := strings.Index(out, text)
	if i < 0 {
		return ""
	}
	m := regexp.MustCompile(`\x1b\[([0-9;]*)m$`).FindStringSubmatch(out[:i])
	if m == nil {
		return ""
	}
	return m[1]
}

var headingMarker = regexp.MustCompile(`^\s*#{1,6}\s`)

// TestEveryLesson checks each lesson, whole, at every width: no line is
// wider than the window, every word is whole on some row, no heading keeps
// its hashes.
func TestEveryLesson(t *testing.T) {
	for name, md := range comptest.Lessons(t) {
		doc := Parse(in(dark), md, Options{})
		words := doc.Words()
		if len(words) < 500 {
			t.Fatalf("%s: only %d words", name, len(words))
		}
		for _, w := range comptest.Widths {
			out := doc.Render(w)
			comptest.FitWidth(t, out, w)
			var rows []string
			for _, r := range doc.Rows(w) {
				plain := ansi.Strip(r.Gutter + r.Text)
				rows = append(rows, plain)
				// Code rows start with their two-cell gutter; a # there is
				// code.
				if headingMarker.MatchString(plain) && !strings.HasPrefix(plain, "  ") {
					t.Errorf("%s w%d: heading marker left: %q", name, w, plain)
				}
			}
			all := strings.Join(rows, "\n")
			measure := min(w, DefaultMeasure)
			for _, word := range words {
				want := word
				if ww := ansi.StringWidth(word); ww > measure-4 {
					// Too wide for any line: cut with an ellipsis.
					want = ansi.Truncate(word, measure-6, "")
				}
				if !strings.Contains(all, want) {
					t.Errorf("%s w%d: word %q is broken", name, w, word)
				}
			}
		}
	}
}

// TestSoftBreaksFlow: a paragraph's source line breaks do not survive;
// every rendered line ends only where the next word would not fit.
func TestSoftBreaksFlow(t *testing.T) {
	paragraphs := 0
	for name, md := range comptest.Lessons(t) {
		for _, p := range strings.Split(md, "\n\n") {
			p = strings.TrimSpace(p)
			if p == "" || strings.ContainsAny(p[:1], "`|#>-*0123456789<") || strings.Contains(p, "```") || !strings.Contains(p, "\n") {
				continue
			}
			paragraphs++
			for _, w := range []int{40, 60, 80, 120} {
				// Under NO_COLOR code spans keep their backticks, which
				// shows the short ones that move as a whole.
				rows := Parse(in(noColor), p, Options{}).Rows(w)
				for i := 0; i+1 < len(rows); i++ {
					line, next := ansi.Strip(rows[i].Text), ansi.Strip(rows[i+1].Text)
					first := firstUnit(next)
					if ansi.StringWidth(line)+1+ansi.StringWidth(first) <= min(w, DefaultMeasure) {
						t.Errorf("%s w%d: line ends early: %q / %q", name, w, line, next)
					}
				}
			}
		}
	}
	if paragraphs < 100 {
		t.Errorf("only %d multi-line paragraphs found in the lessons", paragraphs)
	}
}

// firstUnit is what cannot leave the start of line: its first word, or
// the whole of a short code span it opens.
func firstUnit(line string) string {
	word := strings.Fields(line)[0]
	open := strings.IndexByte(line, '`')
	if open < 0 || open >= len(word) || strings.Count(word, "`")%2 == 0 {
		return word
	}
	end := strings.IndexByte(line[open+1:], '`')
	if end < 0 || ansi.StringWidth(line[open:open+end+2]) > glueWidth {
		return word
	}
	rest := line[open+end+2:]
	if sp := strings.IndexByte(rest, ' '); sp >= 0 {
		rest = rest[:sp]
	}
	return line[:open+end+2] + rest
}

func TestMeasure(t *testing.T) {
	// Prose stops at the measure while the table beside it uses the width;
	// only a word longer than the measure, alone on its row, goes past it.
	md := comptest.Section(t, comptest.Lesson(t, "04-tree.md"), "## Choosing a tree model", "## Exercise")
	doc := Parse(in(dark), md, Options{})
	widest, table, long := 0, false, false
	for _, r := range doc.Rows(200) {
		if strings.ContainsAny(r.Text, "│┼") {
			table = true
			continue
		}
		plain := strings.TrimSpace(ansi.Strip(r.Text))
		if w := ansi.StringWidth(plain); w > DefaultMeasure && !strings.Contains(plain, " ") {
			long = true
			continue
		}
		widest = max(widest, ansi.StringWidth(r.Text))
	}
	if !long {
		t.Error("the lesson's long address was not given a row of its own past the measure")
	}
	if widest > DefaultMeasure || !table {
		t.Errorf("at 200 cells the text is %d wide (table found: %v), want at most %d", widest, table, DefaultMeasure)
	}
}

// BenchmarkRenderStep is parsing and laying out a whole lesson step, the
// tree lesson's table step, at 120 cells.
func BenchmarkRenderStep(b *testing.B) {
	md := comptest.Section(b, comptest.Lesson(b, "04-tree.md"), "## Choosing a tree model", "## Exercise")
	for b.Loop() {
		Parse(in(dark), md, Options{}).Render(120)
	}
}

// BenchmarkRenderLesson is the whole outlier lesson, the longest.
func BenchmarkRenderLesson(b *testing.B) {
	md := comptest.Lesson(b, "01-outlier.md")
	for b.Loop() {
		Parse(in(dark), md, Options{}).Render(120)
	}
}

func TestPlain(t *testing.T) {
	for in, want := range map[string]string{
		"The hybrid: parent *and* ancestors":         "The hybrid: parent and ancestors",
		"Maintaining on write with `$inc`":           "Maintaining on write with $inc",
		"**Bold** and [a link](https://example.com)": "Bold and a link",
		"Plain": "Plain",
	} {
		if got := Plain(in); got != want {
			t.Errorf("Plain(%q) = %q, want %q", in, got, want)
		}
	}
}
