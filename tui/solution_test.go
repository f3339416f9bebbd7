package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/schemalab/schemalab/lessons"
)

// The solution is offered after a failed attempt the progress recorded
// in an earlier session, not only after one of this session; after a
// pass it is shown beside the learner's code, to compare, and their code
// stays. Before, both answered "The solution is offered after a failed
// attempt."
func TestSolutionAfterARecordedAttempt(t *testing.T) {
	for _, c := range []struct {
		name   string
		passed bool
		wait   string
	}{{"failed", false, "reference"}, {"passed", true, "compare"}} {
		t.Run(c.name, func(t *testing.T) {
			forSizes(t, func(t *testing.T, w, h int) {
				store, err := lessons.OpenStore(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				opts := testOptions(t)
				l := opts.Catalog.Find("kinds")
				if _, err := store.RecordAttempt("kinds", l.Steps[5].ID, c.passed); err != nil {
					t.Fatal(err)
				}
				opts.Store, opts.Lesson, opts.Step = store, "kinds", 6
				m := drive(t, opts, w, h, func(tm *teatest.TestModel) {
					waitFor(t, tm, "Step")
					tm.Send(press("v"))
					if !c.passed {
						waitFor(t, tm, "Replace")
						tm.Send(press("y"))
					}
					waitFor(t, tm, c.wait)
				})
				s := screen(m)
				golden.RequireEqual(t, []byte(s))
				if strings.Contains(s, "offered after") {
					t.Errorf("the solution was refused:\n%s", s)
				}
				if c.passed && (!strings.Contains(s, "answer = ''") || !strings.Contains(s, "answer = 'bucket'")) {
					t.Errorf("after a pass, the learner's code and the solution should be side by side:\n%s", s)
				}
				if !store.Lesson("kinds").Exercise(l.Steps[5].ID).Revealed {
					t.Error("the solution shown is not recorded")
				}
			})
		})
	}
}

// On a collection too large to list, "your data beside the goal" shows
// where the attempt differs: the digest's figures and the first document
// that differs, in _id order. Before, it said only "too many documents to
// compare one by one".
func TestGoalDigestOnScreen(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		opts := testOptions(t)
		opts.Catalog = catalogOf(t, "testdata/large")
		opts.Lesson, opts.Step = "large", 1
		m := drive(t, opts, w, h, func(tm *teatest.TestModel) {
			waitFor(t, tm, "Step")
			tm.Send(press("enter"))
			waitFor(t, tm, "Not")
		})
		s := screen(m)
		golden.RequireEqual(t, []byte(s))
		// At 80×24 the pane shows the comparison's first lines only.
		if h >= 40 && !strings.Contains(s, "_id: 10: late is true in the goal") || strings.Contains(s, "too many") {
			t.Errorf("the first differing document is not named:\n%s", s)
		}
	})
}
