package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/schemalab/schemalab/lessons"
)

// A learner who reads every step, runs the one with code and passes the
// exercise has finished the lesson: the end-of-lesson screen says so, and
// the catalog counts every step, as `schemalab list` does from the same
// store. Steps to read are done once shown; before, they never were, and
// the lesson ended at "2 steps not done yet".
func TestReadingEveryStepFinishesTheLesson(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		store, err := lessons.OpenStore(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		opts := testOptions(t)
		opts.Catalog = catalogOf(t, "testdata/finish")
		opts.Store, opts.Lesson, opts.Step = store, "finish", 1
		var catalog string
		m := drive(t, opts, w, h, func(tm *teatest.TestModel) {
			waitFor(t, tm, "seen")
			tm.Send(press("n"))
			waitFor(t, tm, "insertMany")
			tm.Send(press("enter"))
			waitFor(t, tm, "ran")
			tm.Send(press("n"))
			waitFor(t, tm, "readings")
			tm.Send(press("enter"))
			waitFor(t, tm, "Not")
			tm.Send(press("v"))
			tm.Send(press("y"))
			waitFor(t, tm, "reference")
			tm.Send(press("enter"))
			waitFor(t, tm, "Passed")
			tm.Send(press("n"))
			waitFor(t, tm, "take")
			tm.Send(press("n"))
			waitFor(t, tm, "complete")
		})
		s := screen(m)
		golden.RequireEqual(t, []byte(s))
		l := opts.Catalog.Find("finish")
		sum := lessons.Summarize(l, store.Lesson("finish"))
		if sum.StepsDone != 4 || sum.Steps != 4 || sum.ExercisesDone != 1 || sum.Exercises != 1 {
			t.Errorf("progress after the whole lesson: %+v", sum)
		}
		if !strings.Contains(s, "Steps done: 4 of 4") || !strings.Contains(s, "Exercises passed: 1 of 1") {
			t.Errorf("the end-of-lesson screen disagrees with the progress:\n%s", s)
		}
		opts.Lesson = ""
		catalog = screen(drive(t, opts, w, h, func(tm *teatest.TestModel) { waitConnected(t, tm) }))
		if !strings.Contains(catalog, "4/4") {
			t.Errorf("the catalog disagrees with the end of the lesson:\n%s", catalog)
		}
	})
}
