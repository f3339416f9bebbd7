package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// The whole screen for each kind of step at 80×24, 120×40 and 200×50,
// from the kinds test lesson: its introduction, a step with only prose, a
// table, a run, comparisons of two and of four variants, and an exercise
// after a wrong attempt. The goldens are the screen's text, as a terminal
// shows it.
func TestStepScreens(t *testing.T) {
	kinds := []struct {
		name string
		step int
		// run presses enter and waits for the run's time in a footer.
		run bool
	}{
		{"intro", 0, false},
		{"prose", 1, false},
		{"table", 2, false},
		{"run", 3, true},
		{"compare2", 4, true},
		{"compare4", 5, true},
		{"exercise", 6, true},
	}
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			forSizes(t, func(t *testing.T, w, h int) {
				opts := testOptions(t)
				opts.Lesson, opts.Step = "kinds", k.step
				m := drive(t, opts, w, h, func(tm *teatest.TestModel) {
					// The renderer may move the cursor over spaces: wait
					// for single words, and for one the catalog, shown
					// until the sandbox is up, does not have.
					if k.step == 0 {
						waitFor(t, tm, "Introduction")
					} else {
						waitFor(t, tm, "Step")
					}
					if k.run {
						tm.Send(press("enter"))
						waitFor(t, tm, "ran")
					}
				})
				s := screen(m)
				golden.RequireEqual(t, []byte(s))
				lines := strings.Split(s, "\n")
				if len(lines) != h {
					t.Errorf("%d lines, want %d", len(lines), h)
				}
				if last := strings.TrimRight(lines[len(lines)-1], " "); !strings.HasSuffix(last, "? help • q quit") {
					t.Errorf("the footer is cut: %q", last)
				}
			})
		})
	}
}

// Every key of the lesson page fits the help at each size.
func TestHelpScreens(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		opts := testOptions(t)
		opts.Lesson, opts.Step = "kinds", 6
		m := drive(t, opts, w, h, func(tm *teatest.TestModel) {
			waitFor(t, tm, "Step")
			tm.Send(press("?"))
			waitFor(t, tm, "closes")
		})
		s := screen(m)
		golden.RequireEqual(t, []byte(s))
		for _, k := range []string{"watch a file", "show all / collapse", "scratch shell", "quit"} {
			if !strings.Contains(s, k) {
				t.Errorf("the help lacks %q", k)
			}
		}
	})
}

// The presenter's help at each size: its note wraps to the keys' width,
// and no line is cut (a note wider than the screen drew a column of …).
func TestPresentHelpScreens(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		opts := testOptions(t)
		opts.Present, opts.Lesson, opts.Step = true, "kinds", 3
		m := drive(t, opts, w, h, func(tm *teatest.TestModel) {
			waitFor(t, tm, "reveals")
			tm.Send(press("?"))
			waitFor(t, tm, "closes")
		})
		s := screen(m)
		golden.RequireEqual(t, []byte(s))
		if strings.Contains(s, "…") {
			t.Errorf("the help is cut:\n%s", s)
		}
		if !strings.Contains(strings.Join(strings.Fields(s), " "), "No status line; bars are doubled.") {
			t.Errorf("the presenting note is not whole:\n%s", s)
		}
	})
}

// The catalog at each size.
func TestCatalogScreens(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		m := drive(t, testOptions(t), w, h, func(tm *teatest.TestModel) { waitConnected(t, tm) })
		golden.RequireEqual(t, []byte(screen(m)))
	})
}
