package tui

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/tui/common"
)

// onStep is the app at w×h on step (0-based) of the kinds lesson.
func onStep(t *testing.T, w, h, step int, present bool) *Model {
	t.Helper()
	opts := testOptions(t)
	opts.Present = present
	m := newTestApp(t, opts)
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	m.Update(m.connectCmd()())
	m.Update(common.OpenLessonMsg{ID: "kinds", Step: step})
	if m.lesson == nil {
		t.Fatal("the lesson did not open")
	}
	return m
}

var position = regexp.MustCompile(`(\d+)–\d+/\d+`)

// firstRow is the first row the step's pane shows, from the position in
// its bottom border.
func firstRow(t *testing.T, m *Model) string {
	t.Helper()
	for _, l := range strings.Split(ansi.Strip(m.render()), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "╰") {
			if p := position.FindStringSubmatch(l); p != nil {
				return p[1]
			}
		}
	}
	t.Fatalf("the step's pane shows no position:\n%s", ansi.Strip(m.render()))
	return ""
}

// The wheel scrolls the pane under the mouse and no other: over the step
// it moves the step, over the scratch shell under it the step stays, in
// present mode's margins too.
func TestWheelScrollsThePaneUnderIt(t *testing.T) {
	for _, present := range []bool{false, true} {
		m := onStep(t, 80, 20, 4, present)
		top := 3
		if present {
			top = 4
		}
		if present {
			m.Update(press("enter")) // reveals the code, scrolled to it
			m.Update(tea.MouseWheelMsg{X: 10, Y: top, Button: tea.MouseWheelUp})
		}
		if firstRow(t, m) != "1" {
			t.Fatal("the step does not start at its first row")
		}
		m.Update(tea.MouseWheelMsg{X: 10, Y: top, Button: tea.MouseWheelDown})
		scrolled := firstRow(t, m)
		if scrolled == "1" {
			t.Errorf("present %v: a wheel over the step did not scroll it", present)
		}
		m.Update(press(":"))
		m.Update(tea.MouseWheelMsg{X: 10, Y: 16, Button: tea.MouseWheelDown})
		if got := firstRow(t, m); got != scrolled {
			t.Errorf("present %v: a wheel over the scratch shell moved the step from row %s to %s", present, scrolled, got)
		}
		m.Update(tea.MouseWheelMsg{X: 10, Y: top, Button: tea.MouseWheelUp})
		if got := firstRow(t, m); got != "1" {
			t.Errorf("present %v: a wheel up over the step: first row %s, want 1", present, got)
		}
	}
}
