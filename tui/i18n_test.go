package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
)

// localizedOptions are the built-in lessons in lang, the app speaking it,
// on the shared sandbox labelled as the command line labels it.
func localizedOptions(t testing.TB, lang string) (Options, *locale.Localizer) {
	cat, errs := lessons.Load(content.FS)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	l := locale.For(lang)
	opts := testOptions(t)
	opts.Catalog, opts.Localizer = cat.In(lang), l
	opts.Connect = func(context.Context) (*lessons.Sandbox, error) {
		sb := testSandbox(testBackend)
		sb.Label = lessons.EmbeddedLabel(l)
		return sb, nil
	}
	return opts, l
}

// localizedApp fixes run times as newTestApp does, in l's units.
func localizedApp(t testing.TB, opts Options, l *locale.Localizer) *Model {
	m := New(context.Background(), opts)
	m.Durations = func(time.Duration) string { return l.Duration(12 * time.Millisecond) }
	return m
}

// connectSignal makes opts' Connect close the channel it returns once the
// sandbox is ready. A test that waits for it knows the app's next message
// is the connection, which the frame shows by the time the program quits.
// (Waiting for the label on screen is not enough: the message shown while
// the sandbox starts contains it in some languages, "menyalakan sandbox
// bawaan…".)
func connectSignal(opts *Options) <-chan struct{} {
	ready := make(chan struct{})
	connect := opts.Connect
	opts.Connect = func(ctx context.Context) (*lessons.Sandbox, error) {
		defer close(ready)
		return connect(ctx)
	}
	return ready
}

// The catalog and a comparison step of the bucket lesson, run, at 120×40
// in Indonesian and in Russian: the lessons in their translations, every
// word of the app in the language, the figures grouped as the language
// groups digits.
func TestLocalizedScreens(t *testing.T) {
	ranIn := map[string]string{"id": "selesai dalam", "ru": "выполнено за"}
	for _, lang := range []string{"id", "ru"} {
		t.Run(lang, func(t *testing.T) {
			t.Run("catalog", func(t *testing.T) {
				opts, l := localizedOptions(t, lang)
				connected := connectSignal(&opts)
				m := driveModel(t, localizedApp(t, opts, l), 120, 40, func(tm *teatest.TestModel) {
					select {
					case <-connected:
					case <-time.After(20 * time.Second):
						t.Fatal("the sandbox did not connect within 20 s")
					}
				})
				s := screen(m)
				golden.RequireEqual(t, []byte(s))
				checkFrame(t, s, 120, 40)
			})
			t.Run("step", func(t *testing.T) {
				opts, l := localizedOptions(t, lang)
				opts.Lesson, opts.Step = "bucket", 5
				m := driveModel(t, localizedApp(t, opts, l), 120, 40, func(tm *teatest.TestModel) {
					waitFor(t, tm, "5/11")
					tm.Send(press("enter"))
					waitLong(t, tm, ranIn[lang])
				})
				s := screen(m)
				golden.RequireEqual(t, []byte(s))
				checkFrame(t, s, 120, 40)
			})
		})
	}
}

// Every step of every built-in lesson in Indonesian and in Russian, as
// opened, with its help, at 80×24 and 120×40: Cyrillic and Indonesian are
// measured in terminal cells, so that no line is wider than the screen and
// every pane's right border stands in its column.
func TestLocalizedWidths(t *testing.T) {
	for _, lang := range []string{"id", "ru"} {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			w, h := size[0], size[1]
			t.Run(fmt.Sprintf("%s/%dx%d", lang, w, h), func(t *testing.T) {
				opts, l := localizedOptions(t, lang)
				sb, _ := opts.Connect(context.Background())
				frame := func(m *Model, what string) {
					t.Helper()
					s := screen(m)
					if msg := frameProblem(s, w, h); msg != "" {
						t.Errorf("%s: %s\n%s", what, msg, s)
					}
				}
				m := localizedApp(t, opts, l)
				m.Update(tea.WindowSizeMsg{Width: w, Height: h})
				m.Update(backendReadyMsg{backend: sb})
				frame(m, "the catalog")
				for _, ls := range opts.Catalog.Lessons {
					for i := -1; i < len(ls.Steps); i++ {
						m.Update(common.OpenLessonMsg{ID: ls.ID, Step: i})
						frame(m, fmt.Sprintf("%s step %d", ls.ID, i+1))
					}
					m.Update(press("?"))
					frame(m, ls.ID+" help")
					m.Update(press("?"))
				}
				m.Close()
			})
		}
	}
}

// checkFrame fails the test on a frame problem.
func checkFrame(t *testing.T, s string, w, h int) {
	t.Helper()
	if msg := frameProblem(s, w, h); msg != "" {
		t.Error(msg)
	}
}

// frameProblem checks a screen's text: h lines of at most w cells, and
// every box (╭…╮ down to ╰…╯, or to the border of the pane it scrolls in)
// with its sides in the columns of its corners. "" means none.
func frameProblem(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) != h {
		return fmt.Sprintf("%d lines, want %d", len(lines), h)
	}
	grid := make([][]string, len(lines))
	for y, line := range lines {
		if n := ansi.StringWidth(line); n > w {
			return fmt.Sprintf("line %d is %d cells wide, the screen %d: %q", y+1, n, w, line)
		}
		grid[y] = cells(line)
	}
	at := func(y, x int) string {
		if y < len(grid) && x < len(grid[y]) {
			return grid[y][x]
		}
		return ""
	}
	for y := range grid {
		for x, c := range grid[y] {
			if c != "╭" {
				continue
			}
			right := -1
			for k := x + 1; k < len(grid[y]); k++ {
				if grid[y][k] == "╮" {
					right = k
					break
				}
			}
			if right < 0 {
				return fmt.Sprintf("line %d: a box opens at column %d and never closes", y+1, x+1)
			}
			for yy := y + 1; yy < len(grid); yy++ {
				if k := slices.Index(grid[yy], "╰"); k >= 0 && k < x {
					break // the bottom border of a pane the box scrolls in
				}
				if at(yy, x) == "╰" {
					if at(yy, right) != "╯" {
						return fmt.Sprintf("line %d: the box of line %d ends at column %d, not %d", yy+1, y+1, lastBorder(grid[yy], x), right+1)
					}
					break
				}
				if !strings.Contains("│├┃", at(yy, x)) || !strings.Contains("│┤┃", at(yy, right)) {
					return fmt.Sprintf("line %d: the box of line %d has its sides at columns %d and %d, not %q, %q", yy+1, y+1, x+1, right+1, at(yy, x), at(yy, right))
				}
			}
		}
	}
	return ""
}

// cells splits a line into its terminal cells; a mark of no width joins
// the cell before it.
func cells(line string) []string {
	var out []string
	for _, r := range line {
		switch n := ansi.StringWidth(string(r)); {
		case n == 0 && len(out) > 0:
			out[len(out)-1] += string(r)
		case n == 0:
			out = append(out, string(r))
		default:
			out = append(out, string(r))
			for range n - 1 {
				out = append(out, "")
			}
		}
	}
	return out
}

func lastBorder(row []string, from int) int {
	for k := len(row) - 1; k > from; k-- {
		if row[k] == "╯" {
			return k + 1
		}
	}
	return 0
}

// A lesson with no translation into the learner's language is shown in
// English, and the catalog says so beside it.
func TestEnglishOnlyMark(t *testing.T) {
	opts := testOptions(t)
	l := locale.For("ru")
	opts.Catalog, opts.Localizer = opts.Catalog.In("ru"), l
	m := driveModel(t, localizedApp(t, opts, l), 120, 40, func(tm *teatest.TestModel) { waitFor(t, tm, "Уроки") })
	s := screen(m)
	if !strings.Contains(s, "Basics for the TUI tests") || !strings.Contains(s, "· только на английском") {
		t.Errorf("the English-only lesson is not marked:\n%s", s)
	}
}
