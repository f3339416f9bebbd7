package code

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/schemalab/schemalab/tui/components/internal/comptest"
	"github.com/schemalab/schemalab/tui/styles"
)

var dark = styles.New(true, false)

// bucketCode is the bucket lesson's code with the long lines the issue
// names: sizes('readings_bucket_steady'), ISODate('2026-09-01T00:00:00Z')
// and a trailing // comment.
func bucketCode(t *testing.T) string {
	md := comptest.Lesson(t, "02-bucket.md")
	var parts []string
	for _, f := range comptest.Fences(md, "js") {
		if strings.Contains(f, "readings_bucket_steady') })") || strings.Contains(f, "// append; create") ||
			strings.Contains(f, "$lt: ISODate('2026-09-02T00:00:00Z')") || strings.Contains(f, "hour: ISODate('2026-09-01T00:00:00Z') }") {
			parts = append(parts, f)
		}
	}
	if len(parts) != 4 {
		t.Fatalf("found %d of the bucket lesson's 4 long blocks", len(parts))
	}
	return strings.Join(parts, "\n")
}

func render(b *Block, w int) string {
	var lines []string
	for _, r := range b.Render(w) {
		lines = append(lines, r.Text)
	}
	return strings.Join(lines, "\n")
}

func TestWrapGoldens(t *testing.T) {
	src := bucketCode(t)
	comptest.Goldens(t, comptest.Widths, func(t *testing.T, w int) string {
		return render(New(src, Options{Styles: dark}), w)
	})
}

func TestLineNumberGoldens(t *testing.T) {
	src := bucketCode(t)
	comptest.Goldens(t, []int{40, 80}, func(t *testing.T, w int) string {
		return render(New(src, Options{Styles: dark, LineNumbers: true, FirstLine: 120}), w)
	})
}

// TestStyleGoldens keeps the escape codes: chroma's tokens in the dark
// theme's colours, and the monochrome styles under NO_COLOR.
func TestStyleGoldens(t *testing.T) {
	src := comptest.Fences(comptest.Lesson(t, "02-bucket.md"), "js run")[2]
	for name, st := range map[string]*styles.Styles{"dark": dark, "nocolor": styles.New(true, true)} {
		t.Run(name, func(t *testing.T) {
			golden.RequireEqual(t, render(New(src, Options{Styles: st}), 60))
		})
	}
}

var (
	stringLit = regexp.MustCompile(`'[^']*'|"[^"]*"`)
	ident     = regexp.MustCompile(`[A-Za-z_$][\w$]*`)
)

// tokens is the string literals and identifiers of a line of code, its
// // comment left out.
func tokens(line string) []string {
	code := tokensCode(line)
	out := stringLit.FindAllString(code, -1)
	return append(out, ident.FindAllString(stringLit.ReplaceAllString(code, "''"), -1)...)
}

// tokensCode is line without its // comment.
func tokensCode(line string) string {
	code := line
	quote := byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '/' && i+1 < len(line) && line[i+1] == '/' && (i == 0 || line[i-1] == ' '):
			code = line[:i]
			i = len(line)
		}
	}
	return code
}

// TestEveryLessonsCodeWrapsBetweenTokens checks every js block of every
// lesson at every width: rows fit, unless one token is wider than the row;
// every identifier and string literal of a line is whole on one of its
// rows; wrapped comments keep //; every row maps back to its line.
func TestEveryLessonsCodeWrapsBetweenTokens(t *testing.T) {
	blocks := 0
	for name, md := range comptest.Lessons(t) {
		for _, src := range comptest.Fences(md, "js") {
			blocks++
			b := New(src, Options{Styles: dark})
			for _, w := range []int{40, 60, 80, 120, 200} {
				checkWrap(t, name, b, w)
			}
		}
	}
	if blocks < 50 {
		t.Errorf("only %d code blocks in the lessons", blocks)
	}
}

func withoutGutter(row string) string {
	return strings.TrimPrefix(strings.TrimPrefix(row, ContinuationMarker+" "), "  ")
}

// commentStart is where a line's // comment starts, or -1.
func commentStart(line string) int {
	if code := tokensCode(line); len(code) < len(line) {
		return len(code)
	}
	return -1
}

func checkWrap(t *testing.T, name string, b *Block, w int) {
	t.Helper()
	rows := b.Render(w)
	byLine := make([][]string, b.Lines())
	prev := -1
	for _, r := range rows {
		if r.Line < prev || r.Line > prev+1 {
			t.Fatalf("%s w%d: rows go from line %d to %d", name, w, prev, r.Line)
		}
		prev = r.Line
		plain := ansi.Strip(r.Text)
		if got := ansi.StringWidth(plain); got != r.Width {
			t.Errorf("%s w%d: row %q says it is %d wide, is %d", name, w, plain, r.Width, got)
		}
		body := strings.TrimLeft(withoutGutter(plain), " ")
		if r.Width > w && strings.Contains(strings.TrimLeft(body, "/ "), " ") && !stringLit.MatchString(body) {
			t.Errorf("%s w%d: row of several tokens overflows: %q", name, w, plain)
		}
		if r.Cont != strings.HasPrefix(plain, ContinuationMarker) {
			t.Errorf("%s w%d: continuation marker wrong on %q (cont=%v)", name, w, plain, r.Cont)
		}
		byLine[r.Line] = append(byLine[r.Line], plain)
	}
	if prev != b.Lines()-1 {
		t.Fatalf("%s w%d: rows end at line %d of %d", name, w, prev, b.Lines())
	}
	for i, rs := range byLine {
		src := b.Source(i)
		for _, tok := range tokens(src) {
			found := false
			for _, r := range rs {
				found = found || strings.Contains(r, tok)
			}
			if !found {
				t.Errorf("%s w%d: %q of line %q is broken:\n%s", name, w, tok, src, strings.Join(rs, "\n"))
			}
		}
		if c := commentStart(src); c >= 0 && len(rs) > 1 && tokens(src[:c]) != nil {
			inComment := false
			for _, r := range rs {
				if inComment && !strings.HasPrefix(strings.TrimLeft(withoutGutter(r), " "), "//") {
					t.Errorf("%s w%d: a wrapped comment lost its //:\n%s", name, w, strings.Join(rs, "\n"))
				}
				inComment = inComment || strings.Contains(r, " //") || strings.HasPrefix(withoutGutter(r), "//")
			}
		}
	}
}

func TestNamesAndDatesNeverBreak(t *testing.T) {
	// The two lines issue 13 saw cut mid-token, at every width that holds
	// ISODate(...) (31 cells) after the gutter and the indent.
	src := "({ noisy: ratio('readings', 'readings_bucket'), steady: ratio('readings_steady', 'readings_bucket_steady') })\n" +
		"db.readings_bucket.findOne({ hour: ISODate('2026-09-01T00:00:00Z') }, { _id: 0, samples: { $slice: 3 } })"
	b := New(src, Options{Styles: dark})
	for w := 35; w <= 120; w++ {
		out := ansi.Strip(render(b, w))
		for _, tok := range []string{"'readings_bucket_steady'", "ISODate('2026-09-01T00:00:00Z')", "readings_bucket.findOne"} {
			if !strings.Contains(out, tok) {
				t.Errorf("width %d: %s broken:\n%s", w, tok, out)
			}
		}
		comptest.FitWidth(t, out, w)
	}
}

// A string that fits a row, but not after a deep line's continuation
// indent, is indented less rather than cut at the pane's edge: the
// choosing lesson's review text, 49 cells, in a 58-cell pane.
func TestALongStringGivesUpIndentRatherThanOverflow(t *testing.T) {
	src := "            text: 'Tasty, and easy to follow. Would cook it again.' } } } } },"
	tok := "'Tasty, and easy to follow. Would cook it again.'"
	b := New(src, Options{Styles: dark})
	for w := len(tok) + 2; w <= 70; w++ { // the gutter takes two cells
		out := ansi.Strip(render(b, w))
		if !strings.Contains(out, tok) {
			t.Errorf("width %d: the string is broken:\n%s", w, out)
		}
		comptest.FitWidth(t, out, w)
	}
}

func TestCommentContinuationKeepsSlashes(t *testing.T) {
	src := "db.readings_bucket.updateOne(                    // append; create the bucket if needed"
	got := ansi.Strip(render(New(src, Options{Styles: dark}), 80))
	want := "  db.readings_bucket.updateOne(                    // append; create the bucket\n" +
		"↪                                                  // if needed"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// With too little room beside the code, the comment moves whole.
	got = ansi.Strip(render(New(src, Options{Styles: dark}), 60))
	want = "  db.readings_bucket.updateOne(\n↪   // append; create the bucket if needed"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestScrollModeKeepsLinesWhole(t *testing.T) {
	src := bucketCode(t)
	b := New(src, Options{Styles: dark, Mode: Scroll})
	rows := b.Render(40)
	if len(rows) != b.Lines() {
		t.Fatalf("scroll mode gave %d rows for %d lines", len(rows), b.Lines())
	}
	for i, r := range rows {
		if ansi.Strip(r.Text) != "  "+b.Source(i) {
			t.Errorf("row %d = %q, want the whole line", i, ansi.Strip(r.Text))
		}
	}
}

func TestNonASCIIWidths(t *testing.T) {
	src := "db.people.insertOne({ name: 'Ада Лавлейс', city: '東京都', note: 'первая программистка' })"
	b := New(src, Options{Styles: dark})
	for w := 30; w <= 100; w += 7 {
		out := ansi.Strip(render(b, w))
		comptest.FitWidth(t, out, w)
		for _, tok := range []string{"'Ада Лавлейс'", "'東京都'", "'первая программистка'"} {
			if !strings.Contains(out, tok) {
				t.Errorf("width %d: %s broken:\n%s", w, tok, out)
			}
		}
	}
}

func TestPlainLanguages(t *testing.T) {
	b := New("  { keys: 720, docs: 720 }\n", Options{Styles: dark, Lang: "no-such-language"})
	if got := ansi.Strip(render(b, 40)); got != "    { keys: 720, docs: 720 }" {
		t.Errorf("unknown language = %q", got)
	}
}

// BenchmarkLayoutBucketCode is tokenizing and wrapping the bucket
// lesson's long blocks, as when a step is opened.
func BenchmarkLayoutBucketCode(b *testing.B) {
	src := bucketCode(&testing.T{})
	for b.Loop() {
		New(src, Options{Styles: dark}).Render(80)
	}
}
