package inline

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

func plainLines(t Text, w int) []string {
	var out []string
	for _, l := range t.Wrap(w) {
		out = append(out, l.Plain())
	}
	return out
}

func TestWrapBreaksAtSpacesOnlyNeverAtHyphens(t *testing.T) {
	txt := Split([]Span{{Text: "A date like ISODate('2026-09-01T00:00:00Z') and a page like data-models-tree-structures stay whole."}})
	for w := 32; w <= 80; w++ { // the date is 31 cells
		lines := plainLines(txt, w)
		for _, l := range lines {
			if ansi.StringWidth(l) > w {
				t.Fatalf("width %d: line %q is too wide", w, l)
			}
		}
		joined := strings.Join(lines, "\n")
		for _, word := range []string{"ISODate('2026-09-01T00:00:00Z')", "data-models-tree-structures"} {
			if !strings.Contains(joined, word) {
				t.Errorf("width %d: %s was broken:\n%s", w, word, joined)
			}
		}
	}
}

func TestWrapIsGreedy(t *testing.T) {
	txt := Split([]Span{{Text: "customers in a separate collection, so that the ordinary books keep their one-query read path"}})
	for w := 12; w <= 60; w++ {
		lines := txt.Wrap(w)
		for i := 0; i+1 < len(lines); i++ {
			next := strings.Fields(lines[i+1].Plain())[0]
			if lines[i].Width+1+ansi.StringWidth(next) <= w {
				t.Errorf("width %d: line %q ends although %q fits after it", w, lines[i].Plain(), next)
			}
		}
	}
}

func TestWordWiderThanTheLineIsCutWithAnEllipsis(t *testing.T) {
	url := "https://www.mongodb.com/docs/manual/applications/data-models-tree-structures/"
	txt := Split([]Span{{Text: "See " + url + " for more."}})
	lines := plainLines(txt, 40)
	want := []string{"See", ansi.Truncate(url, 39, "") + "…", "for more."}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("got %q\nwant %q", lines, want)
	}
	if w := ansi.StringWidth(lines[1]); w != 40 {
		t.Errorf("cut URL is %d wide, want the full 40", w)
	}
}

func TestWidthsAreCells(t *testing.T) {
	cyr := Split([]Span{{Text: "Привет мир"}})
	if cyr.Width() != 10 {
		t.Errorf("Cyrillic width = %d, want 10 (one cell a letter)", cyr.Width())
	}
	cjk := Split([]Span{{Text: "文書はコレクションに保存されます。"}})
	if cjk.Width() != 34 {
		t.Errorf("CJK width = %d, want 34 (two cells a letter)", cjk.Width())
	}
	// Ideographs break between letters, but never before the full stop.
	lines := plainLines(cjk, 10)
	for _, l := range lines {
		if ansi.StringWidth(l) > 10 {
			t.Errorf("CJK line %q is over 10 cells", l)
		}
		if strings.HasPrefix(l, "。") {
			t.Errorf("a line starts with a closing full stop: %q", lines)
		}
	}
	if strings.Join(lines, "") != "文書はコレクションに保存されます。" {
		t.Errorf("CJK wrap lost or added text: %q", lines)
	}
}

func TestGlueAndHardBreaks(t *testing.T) {
	txt := Split([]Span{{Text: "append with "}, {Text: "count: { $lt: 60 }", Attr: Code, Glue: true}, {Text: " as the filter\nnext line"}})
	lines := plainLines(txt, 22)
	joined := strings.Join(lines, "\n")
	if !strings.Contains(joined, "count: { $lt: 60 }") {
		t.Errorf("a glued code span was split:\n%s", joined)
	}
	if lines[len(lines)-1] != "next line" {
		t.Errorf("a hard break did not start a line: %q", lines)
	}
	if one := txt.Line().Plain(); one != "append with count: { $lt: 60 } as the filter next line" {
		t.Errorf("one-line layout = %q", one)
	}
}

func TestRenderStylesRunsOnce(t *testing.T) {
	th := &Theme{Strong: lipgloss.NewStyle().Bold(true), Code: lipgloss.NewStyle().Underline(true)}
	l := Split([]Span{{Text: "plain "}, {Text: "two bold", Attr: Strong}, {Text: " and "}, {Text: "code", Attr: Code}}).Line()
	out := th.Render(l)
	if ansi.Strip(out) != "plain two bold and code" {
		t.Fatalf("render changed the text: %q", ansi.Strip(out))
	}
	if strings.HasPrefix(out, "\x1b") {
		t.Errorf("unstyled text got escape codes: %q", out)
	}
	if n := strings.Count(out, "\x1b[1m"); n != 1 {
		t.Errorf("the bold run was rendered %d times, want once: %q", n, out)
	}
	link := Split([]Span{{Text: "manual", Attr: Link, URL: "https://www.mongodb.com/docs/manual/"}}).Line()
	if got := th.Render(link); !strings.Contains(got, ansi.SetHyperlink("https://www.mongodb.com/docs/manual/")) {
		t.Errorf("a link is not a terminal hyperlink: %q", got)
	}
}
