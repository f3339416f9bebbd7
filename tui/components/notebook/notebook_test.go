package notebook

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/components/code"
	"github.com/schemalab/schemalab/tui/components/internal/comptest"
	"github.com/schemalab/schemalab/tui/components/viewport"
	"github.com/schemalab/schemalab/tui/styles"
)

var dark = styles.New(true, false)

func read(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// fence is the first js block of the lesson that contains marker.
func fence(t testing.TB, lesson, marker string) string {
	t.Helper()
	for _, f := range comptest.Fences(comptest.Lesson(t, lesson), "js") {
		if strings.Contains(f, marker) {
			return f
		}
	}
	t.Fatalf("no block with %q in %s", marker, lesson)
	return ""
}

// The outputs below are what `schemalab run bucket` printed for these
// statements.

func flatStep(t testing.TB) Block {
	return Block{Code: fence(t, "02-bucket.md", "db.readings.countDocuments()"), Statements: []Statement{
		{Span: Span{1, 1}, Output: "144000", Elapsed: 3 * time.Millisecond},
		{Span: Span{2, 2}, Output: "{ sensorId: 's7', at: ISODate('2026-05-25T08:00:00.000Z'), temp: 23.1 }", Elapsed: time.Millisecond},
		{Span: Span{3, 3}, Output: "[\n  { at: ISODate('2026-09-02T07:59:00.000Z'), temp: 23.1 },\n  { at: ISODate('2026-09-02T07:58:00.000Z'), temp: 23.7 },\n  { at: ISODate('2026-09-02T07:57:00.000Z'), temp: 23.2 }\n]", Elapsed: 12 * time.Millisecond},
	}}
}

func appendStep(t testing.TB) Block {
	return Block{Code: fence(t, "02-bucket.md", "// append; create the bucket if needed"), Statements: []Statement{
		{Span: Span{1, 1}},
		{Span: Span{2, 2}},
		{Span: Span{3, 7}, Output: "{\n  acknowledged: true,\n  insertedId: ObjectId('6b0e90d0c4fcd8d816bd766e'),\n  matchedCount: 0,\n  modifiedCount: 0,\n  upsertedCount: 1\n}"},
		{Span: Span{8, 8}, Output: "{\n  hour: ISODate('2026-09-02T08:00:00.000Z'),\n  sensorId: 's7',\n  count: 1,\n  max: 21.4,\n  min: 21.4,\n  samples: [ { m: 17, t: 21.4 } ],\n  sum: 21.4\n}"},
	}}
}

func costStep(t testing.TB) Block {
	return Block{Code: fence(t, "02-bucket.md", "cost('flat, 12 hours'"), Statements: []Statement{
		{Span: Span{1, 1}, Printed: "flat, 12 hours          keys=720 docs=720 ms=0"},
		{Span: Span{2, 3}, Printed: "bucketed, 12 hours      keys=12 docs=12 ms=0"},
	}}
}

// longBlock is testdata/long.js and what `schemalab shell` printed for
// it: a 165-line and a 603-line output.
func longBlock(t testing.TB) Block {
	return Block{Code: read(t, "long.js"), Statements: []Statement{
		{Span: Span{1, 1}},
		{Span: Span{2, 2}, Output: read(t, "long-2.txt")},
		{Span: Span{3, 3}, Output: read(t, "long-3.txt"), Elapsed: 41 * time.Millisecond},
		{Span: Span{4, 4}, Output: read(t, "long-4.txt"), Elapsed: 1500 * time.Millisecond},
	}}
}

// dupBlock is testdata/dup.js: the second insert fails.
func dupBlock(t testing.TB) Block {
	return Block{Code: read(t, "dup.js"), Statements: []Statement{
		{Span: Span{1, 1}, Output: "{ acknowledged: true, insertedId: 1 }"},
		{Span: Span{2, 2}, Error: "MongoServerError: E11000 duplicate key error collection: test.dup index: _id_ dup key: { _id: 1 }"},
	}}
}

// invalidBlock is testdata/invalid.js: the insert fails validation, and
// its error carries the errInfo that `schemalab shell` printed for it,
// nested four levels deep.
func invalidBlock(t testing.TB) Block {
	return Block{Code: read(t, "invalid.js"), Statements: []Statement{
		{Span: Span{1, 1}, Output: "{ ok: 1 }"},
		{Span: Span{2, 2}, Error: read(t, "invalid-2.txt")},
	}}
}

// all is every row of m laid out for w cells, as a pane as tall as them
// shows them.
func all(m *Notebook, w int) string {
	return strings.Join(viewport.Lines(m.Common, m.Rows(w), w), "\n")
}

// in is what the notebook is given, in English, drawn with st.
func in(st *styles.Styles) common.Common {
	c := comptest.Common(false)
	c.Styles = st
	return c
}

func view(b Block, o Options) *Notebook { return New(in(dark), b, o) }

func TestGoldens(t *testing.T) {
	for name, b := range map[string]func(testing.TB) Block{"flat": flatStep, "append": appendStep, "cost": costStep, "long": longBlock, "error": dupBlock, "errinfo": invalidBlock} {
		t.Run(name, func(t *testing.T) {
			comptest.Goldens(t, comptest.Widths, func(t *testing.T, w int) string {
				return all(view(b(t), Options{}), w)
			})
		})
	}
}

func TestExpandedGolden(t *testing.T) {
	comptest.Goldens(t, []int{80}, func(t *testing.T, w int) string {
		m := view(longBlock(t), Options{CollapseAfter: 5})
		m.SetExpanded(2, true)
		return all(m, w)
	})
}

func TestCodeScrollGolden(t *testing.T) {
	comptest.Goldens(t, []int{40}, func(t *testing.T, w int) string {
		return all(view(appendStep(t), Options{CodeMode: code.Scroll}), w)
	})
}

func TestStyleGoldens(t *testing.T) {
	for name, st := range map[string]*styles.Styles{"dark": dark, "nocolor": styles.New(true, true)} {
		t.Run(name, func(t *testing.T) {
			golden.RequireEqual(t, all(New(in(st), dupBlock(t), Options{}), 60))
		})
	}
}

// TestEachOutputFollowsItsStatement: every output row comes after the
// last code row of its own statement and before the next statement's
// first, and the first row of each output carries ⇒.
func TestEachOutputFollowsItsStatement(t *testing.T) {
	for _, b := range []Block{flatStep(t), appendStep(t), costStep(t), longBlock(t), dupBlock(t)} {
		for _, w := range comptest.Widths {
			m := view(b, Options{})
			rows := m.Rows(w)
			current := -1 // the statement whose code came last
			seen := map[int]bool{}
			for i, ri := range m.Info() {
				switch ri.Part {
				case Code:
					if ri.Statement >= 0 {
						current = ri.Statement
					}
				case Output, Error, Hint:
					if ri.Statement != current {
						t.Fatalf("w%d row %d: output of statement %d under the code of %d", w, i, ri.Statement, current)
					}
					g := ansi.Strip(rows[i].Gutter)
					if first := !seen[ri.Statement]; first != (g == "⇒ " || g == "✗ ") {
						t.Errorf("w%d row %d: gutter %q (first row of its output: %v)", w, i, g, first)
					}
					seen[ri.Statement] = true
				}
			}
			for i, s := range b.Statements {
				if want := s.Output != "" || s.Printed != "" || s.Error != ""; seen[i] != want {
					t.Errorf("w%d: statement %d output shown %v, want %v", w, i, seen[i], want)
				}
			}
		}
	}
}

// TestOutputsAreNeverRewrapped: mongosh's lines come out as they went in;
// one too wide for the window scrolls instead, and no row exceeds it.
func TestOutputsAreNeverRewrapped(t *testing.T) {
	b := flatStep(t)
	for _, w := range comptest.Widths {
		m := view(b, Options{})
		rows := m.Rows(w)
		var outs []string
		for i, ri := range m.Info() {
			if ri.Part == Output {
				outs = append(outs, ansi.Strip(rows[i].Text))
			}
		}
		var want []string
		for _, s := range b.Statements {
			want = append(want, strings.Split(s.Output, "\n")...)
		}
		if strings.Join(outs, "\n") != strings.Join(want, "\n") {
			t.Errorf("w%d: output rows differ from mongosh's lines:\n%s", w, strings.Join(outs, "\n"))
		}
		comptest.FitWidth(t, all(m, w), w)
	}
}

func TestCollapseAndShowAll(t *testing.T) {
	m := view(longBlock(t), Options{})
	if !m.Collapsible(2) || !m.Collapsible(3) || m.Collapsible(1) {
		t.Fatal("the 165- and 603-line outputs should collapse, the one-line one not")
	}
	out := ansi.Strip(all(m, 80))
	if !strings.Contains(out, "… 153 more lines · a shows all") || !strings.Contains(out, "… 591 more lines · a shows all") {
		t.Fatalf("no hints:\n%s", out)
	}
	collapsed := len(m.Rows(80))
	m.SetExpanded(2, true)
	if !m.Expanded(2) || m.Expanded(3) {
		t.Fatalf("expanding one output expanded others: %v %v", m.Expanded(2), m.Expanded(3))
	}
	if got := len(m.Rows(80)); got != collapsed+165-12 {
		t.Errorf("expanded: %d rows, want the 153 hidden lines more than %d", got, collapsed)
	}
	out = ansi.Strip(all(m, 80))
	if !strings.Contains(out, "▴ 165 lines · a collapses") || strings.Contains(out, "… 153 more lines") {
		t.Errorf("expanded output has no collapse hint:\n%s", out)
	}
	m.SetExpanded(2, false)
	if got := len(m.Rows(80)); got != collapsed {
		t.Errorf("collapsed again: %d rows, want %d", got, collapsed)
	}
	none := view(longBlock(t), Options{CollapseAfter: -1})
	if none.Collapsible(3) || strings.Contains(ansi.Strip(all(none, 80)), "shows all") {
		t.Error("CollapseAfter < 0 still collapses")
	}
}

func TestErrorsWrapAtSpaces(t *testing.T) {
	out := ansi.Strip(all(view(dupBlock(t), Options{}), 40))
	comptest.FitWidth(t, out, 40)
	for _, word := range []string{"MongoServerError:", "E11000", "test.dup", "_id_"} {
		if !strings.Contains(out, word) {
			t.Errorf("%q broken:\n%s", word, out)
		}
	}
	if !strings.Contains(out, "✗ MongoServerError:") {
		t.Errorf("the error is not marked:\n%s", out)
	}
}

// An error's errInfo keeps mongosh's indentation: where it fits, each
// line is as `schemalab shell` printed it; where a line wraps, its
// continuation is indented as much as the line.
func TestErrorsKeepTheirIndentation(t *testing.T) {
	want := strings.Split(strings.TrimRight(read(t, "invalid-2.txt"), "\n"), "\n")
	errorLines := func(w int) []string {
		var out []string
		for _, l := range strings.Split(ansi.Strip(all(view(invalidBlock(t), Options{}), w)), "\n") {
			if strings.HasPrefix(l, "✗ ") || strings.HasPrefix(l, "│ ") && len(out) > 0 {
				out = append(out, strings.TrimRight(l[strings.Index(l, " ")+1:], " "))
			}
		}
		return out
	}
	if got := errorLines(120); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("at 120 cells the error is\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	indent := func(s string) int { return len(s) - len(strings.TrimLeft(s, " ")) }
	got := errorLines(30)
	comptest.FitWidth(t, strings.Join(got, "\n"), 28)
	j := 0
	for _, line := range want {
		// Each line of the original starts a line, as deep as it was;
		// the lines it wraps into are as deep, and hold the rest of its
		// words.
		words := strings.Join(strings.Fields(line), " ")
		if j == len(got) || indent(got[j]) != min(indent(line), 14) {
			t.Fatalf("%q lost its indentation at 30 cells:\n%s", line, strings.Join(got, "\n"))
		}
		seen := strings.TrimSpace(got[j])
		for j++; seen != words && j < len(got) && indent(got[j]) == min(indent(line), 14) && strings.HasPrefix(words, seen+" "); j++ {
			seen += " " + strings.TrimSpace(got[j])
		}
		if seen != words && !strings.HasSuffix(seen, "…") {
			t.Fatalf("%q is laid out as %q at 30 cells:\n%s", line, seen, strings.Join(got, "\n"))
		}
	}
}

// BenchmarkShowAll2000 is pressing a on a 2,000-line output: the
// notebook laid out again, expanded or collapsed, at 200 cells.
func BenchmarkShowAll2000(b *testing.B) {
	lines := strings.Split(strings.TrimRight(read(b, "long-4.txt"), "\n"), "\n")
	var out []string
	for len(out) < 2000 {
		out = append(out, lines...)
	}
	m := view(Block{Code: "db.long.find({}, { _id: 0 }).toArray()", Statements: []Statement{{Span: Span{1, 1}, Output: strings.Join(out[:2000], "\n")}}}, Options{})
	on := true
	for b.Loop() {
		m.SetExpanded(0, on)
		_ = m.Rows(200)
		on = !on
	}
}
