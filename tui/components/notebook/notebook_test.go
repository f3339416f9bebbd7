package notebook

import (
	"os"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/schemalab/schemalab/tui/components/code"
	"github.com/schemalab/schemalab/tui/components/internal/comptest"
	"github.com/schemalab/schemalab/tui/styles"
)

var dark = styles.New(true, false)

// Model fits the TUI's Component interface: tea.Model, help.KeyMap and
// SetSize.
var _ interface {
	tea.Model
	help.KeyMap
	SetSize(w, h int)
} = (*Model)(nil)

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

func all(m *Model) string {
	m.vp.SetSize(m.width, len(m.info))
	return m.Render()
}

func view(t testing.TB, b Block, w int, o Options) *Model {
	t.Helper()
	o.Styles = dark
	m := New(b, o)
	m.SetSize(w, 40)
	return m
}

func TestGoldens(t *testing.T) {
	for name, b := range map[string]func(testing.TB) Block{"flat": flatStep, "append": appendStep, "cost": costStep, "long": longBlock, "error": dupBlock} {
		t.Run(name, func(t *testing.T) {
			comptest.Goldens(t, comptest.Widths, func(t *testing.T, w int) string {
				return all(view(t, b(t), w, Options{}))
			})
		})
	}
}

func TestExpandedGolden(t *testing.T) {
	comptest.Goldens(t, []int{80}, func(t *testing.T, w int) string {
		m := view(t, longBlock(t), w, Options{CollapseAfter: 5})
		m.SetExpanded(2, true)
		return all(m)
	})
}

func TestCodeScrollGolden(t *testing.T) {
	comptest.Goldens(t, []int{40}, func(t *testing.T, w int) string {
		return all(view(t, appendStep(t), w, Options{CodeMode: code.Scroll}))
	})
}

func TestStyleGoldens(t *testing.T) {
	for name, st := range map[string]*styles.Styles{"dark": dark, "nocolor": styles.New(true, true)} {
		t.Run(name, func(t *testing.T) {
			m := New(dupBlock(t), Options{Styles: st})
			m.SetSize(60, 10)
			golden.RequireEqual(t, all(m))
		})
	}
}

// TestEachOutputFollowsItsStatement: every output row comes after the
// last code row of its own statement and before the next statement's
// first, and the first row of each output carries ⇒.
func TestEachOutputFollowsItsStatement(t *testing.T) {
	for _, b := range []Block{flatStep(t), appendStep(t), costStep(t), longBlock(t), dupBlock(t)} {
		for _, w := range comptest.Widths {
			m := view(t, b, w, Options{})
			rows := m.vp.Rows()
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
		m := view(t, b, w, Options{})
		var outs []string
		for i, ri := range m.Info() {
			if ri.Part == Output {
				outs = append(outs, ansi.Strip(m.vp.Rows()[i].Text))
			}
		}
		var want []string
		for _, s := range b.Statements {
			want = append(want, strings.Split(s.Output, "\n")...)
		}
		if strings.Join(outs, "\n") != strings.Join(want, "\n") {
			t.Errorf("w%d: output rows differ from mongosh's lines:\n%s", w, strings.Join(outs, "\n"))
		}
		comptest.FitWidth(t, all(m), w)
	}
}

func TestCollapseAndShowAll(t *testing.T) {
	m := view(t, longBlock(t), 80, Options{})
	if !m.Collapsible(2) || !m.Collapsible(3) || m.Collapsible(1) {
		t.Fatal("the 165- and 603-line outputs should collapse, the one-line one not")
	}
	out := ansi.Strip(all(m))
	if !strings.Contains(out, "… 153 more lines · a shows all") || !strings.Contains(out, "… 591 more lines · a shows all") {
		t.Fatalf("no hints:\n%s", out)
	}
	m.vp.SetSize(80, 20)
	m.vp.GotoTop()
	hintY := -1
	for y := range 20 {
		if m.RowAt(y).Part == Hint {
			hintY = y
			break
		}
	}
	m.Update(tea.KeyPressMsg{Code: 'a', Text: "a"})
	if !m.Expanded(2) || m.Expanded(3) {
		t.Fatalf("a should expand the first visible output only: %v %v", m.Expanded(2), m.Expanded(3))
	}
	if r := m.RowAt(hintY); r.Part != Output || r.Statement != 2 || m.vp.YOffset() != 0 {
		t.Errorf("expanding should show the hidden lines where the hint was (row %d): %+v, offset %d", hintY, r, m.vp.YOffset())
	}
	var texts []string
	for _, r := range m.vp.Rows() {
		texts = append(texts, ansi.Strip(r.Text))
	}
	if !strings.Contains(strings.Join(texts, "\n"), "▴ 165 lines · a collapses") {
		t.Error("expanded output has no collapse hint")
	}
	// Scrolled to the end of the expanded output, a collapses it and its
	// hint stays on the same screen row.
	for y := range 20 {
		if m.RowAt(y).Part == Hint {
			t.Fatalf("a hint is still visible at row %d before scrolling", y)
		}
	}
	m.vp.ScrollDown(160)
	endY := -1
	for y := range 20 {
		if r := m.RowAt(y); r.Part == Hint && r.Statement == 2 {
			endY = y
		}
	}
	if endY < 0 {
		t.Fatal("no collapse hint after scrolling to the output's end")
	}
	m.Update(tea.KeyPressMsg{Code: 'a', Text: "a"})
	if m.Expanded(2) {
		t.Error("a again should collapse it")
	}
	if r := m.RowAt(endY); r.Part != Hint || r.Statement != 2 {
		t.Errorf("after collapsing, row %d shows %+v, want the hint that was there", endY, r)
	}
	var keys []string
	for _, k := range m.ShortHelp() {
		keys = append(keys, k.Help().Key)
	}
	if !strings.Contains(strings.Join(keys, " "), "a") {
		t.Errorf("short help lacks the show-all key: %v", keys)
	}
	none := view(t, longBlock(t), 80, Options{CollapseAfter: -1})
	if none.Collapsible(3) || strings.Contains(ansi.Strip(all(none)), "shows all") {
		t.Error("CollapseAfter < 0 still collapses")
	}
}

func TestErrorsWrapAtSpaces(t *testing.T) {
	m := view(t, dupBlock(t), 40, Options{})
	out := ansi.Strip(all(m))
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

// benchBlock is one statement whose output is 2,000 lines of mongosh
// documents, expanded.
func benchBlock(b *testing.B) *Model {
	lines := strings.Split(strings.TrimRight(read(b, "long-4.txt"), "\n"), "\n")
	var out []string
	for len(out) < 2000 {
		out = append(out, lines...)
	}
	m := New(Block{Code: "db.long.find({}, { _id: 0 }).toArray()", Statements: []Statement{{Span: Span{1, 1}, Output: strings.Join(out[:2000], "\n")}}}, Options{Styles: dark})
	m.SetSize(200, 50)
	m.SetExpanded(0, true)
	return m
}

// BenchmarkScroll2000 is a key press to its frame on a 200×50 notebook
// showing a 2,000-line output: the figure issue 13 bounds by 16 ms.
func BenchmarkScroll2000(b *testing.B) {
	m := benchBlock(b)
	keys := []tea.KeyPressMsg{{Code: 'j', Text: "j"}, {Code: tea.KeyPgDown}}
	i := 0
	for b.Loop() {
		m.Update(keys[i%2])
		_ = m.View()
		if m.vp.AtBottom() {
			m.vp.GotoTop()
		}
		i++
	}
}

// BenchmarkShowAll2000 is pressing a on a 2,000-line output, which lays
// the notebook out again, to its frame.
func BenchmarkShowAll2000(b *testing.B) {
	m := benchBlock(b)
	for b.Loop() {
		m.Update(tea.KeyPressMsg{Code: 'a', Text: "a"})
		_ = m.View()
	}
}
