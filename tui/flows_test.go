package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/schemalab/schemalab/lessons"
)

// Under NO_COLOR emphasis is underlined, strong text bold, and inline
// code keeps its backticks, so that all three read apart without colour.
func TestNoColorKeepsEmphasisAndCode(t *testing.T) {
	opts := testOptions(t)
	opts.NoColor, opts.Lesson, opts.Step = true, "kinds", 1
	m := drive(t, opts, 80, 24, func(tm *teatest.TestModel) { waitFor(t, tm, "Reading") })
	raw := m.render()
	for _, want := range []string{"`inline code`", "4memphasis", "\x1b[1mstrong"} {
		if !strings.Contains(raw, want) {
			t.Errorf("the frame lacks %q", want)
		}
	}
	if strings.Contains(screen(m), "*") || strings.Contains(screen(m), "###") {
		t.Errorf("Markdown marks are shown:\n%s", screen(m))
	}
}

// A wrong answer, then the right one typed in the editor; the draft
// survives quitting, and the attempts are recorded.
func TestExerciseWrongThenRightAndDraftSurvives(t *testing.T) {
	store, err := lessons.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts := testOptions(t)
	opts.Store, opts.Lesson, opts.Step = store, "kinds", 6
	m := drive(t, opts, 120, 40, func(tm *teatest.TestModel) {
		waitFor(t, tm, "Step")
		tm.Send(press("enter"))
		waitFor(t, tm, "Not")
		tm.Send(press("e"))
		for range 2 {
			tm.Send(tea.KeyPressMsg{Code: tea.KeyDown})
		}
		tm.Send(tea.KeyPressMsg{Code: tea.KeyEnd})
		tm.Send(tea.KeyPressMsg{Code: tea.KeyBackspace})
		tm.Send(tea.KeyPressMsg{Code: tea.KeyBackspace})
		tm.Type("'bucket'")
		tm.Send(press("ctrl+r"))
		waitFor(t, tm, "Passed")
		tm.Send(press("esc"))
	})
	if s := screen(m); !strings.Contains(s, "✓ Passed") {
		t.Fatalf("no pass on screen:\n%s", s)
	}
	l := opts.Catalog.Find("kinds")
	e := store.Lesson("kinds").Exercise(l.Steps[5].ID)
	if e.Attempts != 2 || e.Status != lessons.ExercisePassed || e.Draft == nil || !strings.Contains(*e.Draft, "'bucket'") {
		t.Fatalf("progress after a wrong and a right attempt: %+v", e)
	}
	// Back later: the editor holds the draft, not the starter.
	m = drive(t, opts, 120, 40, func(tm *teatest.TestModel) { waitFor(t, tm, "Step") })
	if s := screen(m); !strings.Contains(s, "answer = 'bucket'") {
		t.Errorf("the draft is not in the editor after a restart:\n%s", s)
	}
}

// The first exercise a learner opens shows its starter code.
func TestExerciseOpensWithStarter(t *testing.T) {
	opts := testOptions(t)
	opts.Lesson, opts.Step = "kinds", 6
	m := drive(t, opts, 80, 24, func(tm *teatest.TestModel) { waitFor(t, tm, "Step") })
	if s := screen(m); !strings.Contains(s, "// answer with the pattern's name") {
		t.Errorf("the editor does not show the starter:\n%s", s)
	}
}

// s works on an exercise whose editor holds one aggregate([...]); the
// preview has nothing to type "it" at, so it never asks for it.
func TestStagePreviewOfTheEditorsPipeline(t *testing.T) {
	opts := testOptions(t)
	opts.Lesson, opts.Step = "kinds", 7
	m := drive(t, opts, 120, 40, func(tm *teatest.TestModel) {
		waitFor(t, tm, "Step")
		tm.Send(press("s"))
		waitFor(t, tm, "$group")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyRight})
		waitFor(t, tm, "$sort")
	})
	s := screen(m)
	if !strings.Contains(s, "After stage 2 of 2 · $sort") || !strings.Contains(s, "_id: 1900") {
		t.Errorf("no preview of stage 2:\n%s", s)
	}
	if strings.Contains(s, `Type "it"`) {
		t.Errorf("the preview asks to type it:\n%s", s)
	}
}

// Watch mode writes the exercise to a file, shows its path, and checks
// every save made outside the app.
func TestWatchModeChecksEverySave(t *testing.T) {
	opts := testOptions(t)
	opts.Lesson, opts.Step = "kinds", 6
	l := opts.Catalog.Find("kinds")
	path := filepath.Join(opts.ExerciseDir, "kinds", l.Steps[5].ID+".js")
	m := drive(t, opts, 200, 50, func(tm *teatest.TestModel) {
		waitFor(t, tm, "Step")
		tm.Send(press("w"))
		waitFor(t, tm, "watching")
		b, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(b), "answer = ''") {
			t.Fatalf("the exercise file: %q, %v", b, err)
		}
		if err := os.WriteFile(path, []byte("answer = 'tree'\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		waitFor(t, tm, "Not")
		time.Sleep(100 * time.Millisecond)
		if err := os.WriteFile(path, []byte("answer = 'bucket'\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		waitFor(t, tm, "Passed")
	})
	s := screen(m)
	if !strings.Contains(s, path) || !strings.Contains(s, "answer = 'bucket'") {
		t.Errorf("the watched path or the saved code is not on screen:\n%s", s)
	}
}

// An instructor's announcement is a notice with a key; pressing it opens
// the announced step, and nothing moves before.
func TestAnnouncementIsFollowedOnlyOnKey(t *testing.T) {
	opts := testOptions(t)
	opts.Lesson, opts.Step = "kinds", 1
	m := drive(t, opts, 120, 40, func(tm *teatest.TestModel) {
		waitFor(t, tm, "Reading")
		tm.Send(AnnouncementMsg{Lesson: "kinds", Step: 3})
		waitFor(t, tm, "follows")
		tm.Send(press("f"))
		waitFor(t, tm, "statements")
	})
	if s := screen(m); !strings.Contains(s, "Step 3 of 7 · Run a few statements") {
		t.Errorf("f did not follow the announcement:\n%s", s)
	}
}

// Presenting, a step opens with its prose; enter reveals the code and
// enter again runs it.
func TestPresentRevealsThenRuns(t *testing.T) {
	opts := testOptions(t)
	opts.Present, opts.Lesson, opts.Step = true, "kinds", 3
	m := drive(t, opts, 120, 40, func(tm *teatest.TestModel) {
		waitFor(t, tm, "reveals")
		tm.Send(press("enter"))
		waitFor(t, tm, "insertMany")
		tm.Send(press("enter"))
		waitFor(t, tm, "Grace")
	})
	if s := screen(m); !strings.Contains(s, "name: 'Grace'") || strings.Contains(s, "? help") {
		t.Errorf("present mode after two enters:\n%s", s)
	}
}

// The scratch shell runs on the step's data and shows each input's output
// under it.
func TestScratchShell(t *testing.T) {
	opts := testOptions(t)
	opts.Lesson, opts.Step = "kinds", 3
	m := drive(t, opts, 80, 24, func(tm *teatest.TestModel) {
		waitFor(t, tm, "Step")
		tm.Send(press("enter"))
		waitFor(t, tm, "ran")
		tm.Send(press(":"))
		typeText(tm, "db.people.countDocuments()")
		tm.Send(press("enter"))
		// The step's own outputs above already show ⇒.
		waitFor(t, tm, "⇒ 3")
	})
	if s := screen(m); !strings.Contains(s, "› db.people.countDocuments()") || !strings.Contains(s, "⇒ 3") {
		t.Errorf("the shell's log:\n%s", s)
	}
}

// The scratch shell keeps its history, as mongosh does: closed and opened
// again, and after a restart, ↑ brings back what was typed in this lesson.
func TestScratchShellHistorySurvives(t *testing.T) {
	store, err := lessons.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts := testOptions(t)
	opts.Store, opts.Lesson, opts.Step = store, "kinds", 1
	m := drive(t, opts, 120, 40, func(tm *teatest.TestModel) {
		waitFor(t, tm, "Step")
		tm.Send(press(":"))
		typeText(tm, "db.people.countDocuments()")
		tm.Send(press("enter"))
		waitFor(t, tm, "⇒")
		tm.Send(press("esc"))
		tm.Send(press(":"))
		waitFor(t, tm, "Try anything")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyUp})
		waitFor(t, tm, "countDocuments()")
	})
	// The log of the shell opened again is empty: what it shows of the
	// input is in the input.
	if s := screen(m); !strings.Contains(s, "Try anything") || !strings.Contains(s, "> db.people.countDocuments()") {
		t.Errorf("the shell opened again has no history:\n%s", s)
	}
	m = drive(t, opts, 120, 40, func(tm *teatest.TestModel) {
		waitFor(t, tm, "Step")
		tm.Send(press(":"))
		waitFor(t, tm, "Try anything")
		tm.Send(tea.KeyPressMsg{Code: tea.KeyUp})
		waitFor(t, tm, "countDocuments()")
	})
	if s := screen(m); !strings.Contains(s, "> db.people.countDocuments()") {
		t.Errorf("after a restart the shell has no history:\n%s", s)
	}
}
