package tui

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
)

// The TUI reaches data only through lessons: none of its packages imports
// the driver, the shell or the sandbox. (Its tests may wire a sandbox.)
func TestTUIImportsOnlyLessons(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-json=ImportPath,Imports", "github.com/schemalab/schemalab/tui/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	checked := 0
	for dec.More() {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(p.ImportPath, "github.com/schemalab/schemalab/tui") {
			continue
		}
		checked++
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, "go.mongodb.org/mongo-driver") || imp == "github.com/schemalab/schemalab/sandbox" ||
				strings.HasPrefix(imp, "github.com/schemalab/schemalab/sandbox/") {
				t.Errorf("%s imports %s: the TUI must reach data through lessons only", p.ImportPath, imp)
			}
		}
	}
	if checked < 4 {
		t.Errorf("only %d tui packages were listed", checked)
	}
}

func builtinOptions(t *testing.T, store *lessons.Store) Options {
	cat, errs := lessons.Load(content.FS)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	opts := testOptions(t)
	opts.Catalog, opts.Store = cat, store
	return opts
}

// run drives the app at 120×40 until script ends and returns the final
// model (no golden file: the assertions are on what the learner sees).
func run(t *testing.T, opts Options, script func(tm *teatest.TestModel)) *Model {
	t.Helper()
	tm := teatest.NewTestModel(t, newTestApp(t, opts), teatest.WithInitialTermSize(120, 40),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	script(tm)
	time.Sleep(50 * time.Millisecond)
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	return tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
}

// waitLong waits for a run that first brings a built-in lesson to a late
// step: seconds of data generation, many more under the race detector on
// a loaded machine.
func waitLong(t *testing.T, tm *teatest.TestModel, want string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte(want))
	}, teatest.WithDuration(2*time.Minute), teatest.WithCheckInterval(20*time.Millisecond))
}

func typeText(tm *teatest.TestModel, s string) {
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			tm.Send(press("enter"))
		}
		tm.Type(line)
	}
}

// A learner makes a destructive wrong attempt at the outlier lesson's
// migration exercise, drops a collection in the scratch shell for good
// measure, and then passes with the reference solution, all without
// leaving the exercise.
func TestDestructiveAttemptThenSolutionPasses(t *testing.T) {
	store, err := lessons.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts := builtinOptions(t, store)
	l := opts.Catalog.Find("outlier")
	step := 0
	for i, s := range l.Steps {
		if strings.HasPrefix(s.Title, "Exercise: migrate") {
			step = i
		}
	}
	opts.Lesson, opts.Step = "outlier", step+1
	m := run(t, opts, func(tm *teatest.TestModel) {
		waitFor(t, tm, "Your code")
		tm.Send(press("e"))
		typeText(tm, "\ndb.buku.updateOne({ _id: 101 }, { $unset: { ulasan: '' } })")
		tm.Send(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
		waitLong(t, tm, "Not yet")
		tm.Send(press("esc"))
		tm.Send(press(":"))
		typeText(tm, "db.ulasan.drop()")
		tm.Send(press("enter"))
		waitFor(t, tm, "true")
		tm.Send(press("esc"))
		tm.Send(press("v"))
		waitFor(t, tm, "Replace your code")
		tm.Send(press("y"))
		waitFor(t, tm, "reference solution is in the editor")
		tm.Send(press("enter"))
		waitFor(t, tm, "Passed")
	})
	r := m.lesson.exResult[step]
	if r == nil || !r.Passed {
		t.Fatalf("the reference solution did not pass after a destructive attempt: %+v", r)
	}
	if e := store.Lesson("outlier").Exercise(l.Steps[step].ID); e.Attempts != 2 || e.Status != lessons.ExercisePassed || !e.Revealed {
		t.Errorf("progress: %+v", e)
	}
}

// A learner who quits mid-exercise comes back to the same editor content
// and the hints already revealed.
func TestDraftAndHintsSurviveQuitting(t *testing.T) {
	store, err := lessons.OpenStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	opts := testOptions(t)
	opts.Store, opts.Lesson, opts.Step = store, "basics", 3
	run(t, opts, func(tm *teatest.TestModel) {
		waitFor(t, tm, "Your code")
		tm.Send(press("h"))
		waitFor(t, tm, "Hint 1/1")
		tm.Send(press("e"))
		typeText(tm, " // my work")
		tm.Send(press("ctrl+c"))
	})
	m := run(t, opts, func(tm *teatest.TestModel) {
		waitFor(t, tm, "my work")
	})
	if got := m.lesson.editor.Value(); !strings.HasSuffix(got, "db.people.countDocuments({}) // my work") {
		t.Errorf("editor after a restart: %q", got)
	}
	if m.lesson.hints[2] != 1 {
		t.Errorf("hints after a restart: %d", m.lesson.hints[2])
	}
}
