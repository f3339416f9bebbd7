package tui

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/sandbox"
)

// testBackend is one embedded sandbox shared by the tests of this package.
var testBackend *sandbox.Backend

func TestMain(m *testing.M) {
	be, err := sandbox.Open(context.Background(), sandbox.Config{DBPrefix: "tuitest_"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	testBackend = be
	code := m.Run()
	be.Close()
	os.Exit(code)
}

// testSandbox is the backend as lessons takes it, as cmd/schemalab wires
// it; closing the app leaves the shared backend running.
func testSandbox(be *sandbox.Backend) *lessons.Sandbox {
	return &lessons.Sandbox{Connect: be.Connector(), Prefix: be.Prefix(), ResetDB: be.ResetDB, Label: be.Host}
}

func testCatalog(t testing.TB) *lessons.Catalog {
	cat, errs := lessons.Load(nil, "testdata/lessons")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return cat
}

func testOptions(t testing.TB) Options {
	return Options{
		Catalog: testCatalog(t),
		Connect: func(context.Context) (*lessons.Sandbox, error) { return testSandbox(testBackend), nil },
	}
}

// newTestApp builds the app with run times fixed, so frames are stable.
func newTestApp(t testing.TB, opts Options) *Model {
	m := New(context.Background(), opts)
	m.fmtDur = func(time.Duration) string { return "12ms" }
	return m
}

var sizes = [][2]int{{80, 24}, {120, 40}, {200, 50}}

// frame is the app's screen passed through a fixed colour profile.
func frameOf(t testing.TB, m *Model) []byte {
	var buf bytes.Buffer
	w := &colorprofile.Writer{Forward: &buf, Profile: colorprofile.ANSI256}
	if _, err := w.WriteString(m.render()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func press(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

func waitFor(t *testing.T, tm *teatest.TestModel, want string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte(want))
	}, teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

// drive runs the app in a teatest program at w×h, lets script send keys
// and wait, quits, and compares the final frame with the golden file.
func drive(t *testing.T, opts Options, w, h int, script func(tm *teatest.TestModel)) *Model {
	t.Helper()
	m := newTestApp(t, opts)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.ANSI256)))
	script(tm)
	// Let the last frame settle, then stop the program; the model is only
	// read after the program ended.
	time.Sleep(50 * time.Millisecond)
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	fm.quitting = false
	golden.RequireEqual(t, frameOf(t, fm))
	return fm
}

func forSizes(t *testing.T, f func(t *testing.T, w, h int)) {
	for _, s := range sizes {
		t.Run(fmt.Sprintf("%dx%d", s[0], s[1]), func(t *testing.T) { f(t, s[0], s[1]) })
	}
}

func TestCatalog(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		drive(t, testOptions(t), w, h, func(tm *teatest.TestModel) {
			waitFor(t, tm, "embedded sandbox")
		})
	})
}

func TestRunStep(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		opts := testOptions(t)
		opts.Lesson, opts.Step = "basics", 1
		m := drive(t, opts, w, h, func(tm *teatest.TestModel) {
			waitFor(t, tm, "Press enter")
			tm.Send(press("enter"))
			waitFor(t, tm, "ran in")
		})
		out := m.lesson.outputs[0]
		if out == nil || !strings.Contains(out.text, "name: 'Grace'") || !strings.Contains(out.text, "name: 'Edsger'") {
			t.Fatalf("the output pane does not hold the find result: %+v", out)
		}
	})
}

func TestCompareStep(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		opts := testOptions(t)
		opts.Lesson, opts.Step = "basics", 2
		m := drive(t, opts, w, h, func(tm *teatest.TestModel) {
			waitFor(t, tm, "Figures")
			tm.Send(press("enter"))
			waitFor(t, tm, "ran in")
		})
		out := m.lesson.outputs[1]
		if out == nil || len(out.groups) != 1 || len(out.groups[0]) != 2 {
			t.Fatalf("want two variants, got %+v", out)
		}
		if d, _ := out.groups[0][0].Figure("docs"); d != 50 {
			t.Errorf("no index: docs examined = %v, want 50", d)
		}
		if d, _ := out.groups[0][1].Figure("docs"); d != 5 {
			t.Errorf("index on k: docs examined = %v, want 5", d)
		}
	})
}

func TestExerciseFailedCheck(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		opts := testOptions(t)
		opts.Lesson, opts.Step = "basics", 3
		m := drive(t, opts, w, h, func(tm *teatest.TestModel) {
			waitFor(t, tm, "Your code")
			tm.Send(press("enter"))
			waitFor(t, tm, "ran in")
		})
		r := m.lesson.exResult[2]
		if r == nil || r.Passed || !strings.Contains(r.Message, "expected 2") {
			t.Fatalf("want a failed check saying why, got %+v", r)
		}
	})
}

func TestHelp(t *testing.T) {
	forSizes(t, func(t *testing.T, w, h int) {
		opts := testOptions(t)
		opts.Lesson, opts.Step = "basics", 1
		drive(t, opts, w, h, func(tm *teatest.TestModel) {
			waitFor(t, tm, "Press enter")
			tm.Send(press("?"))
			waitFor(t, tm, "closes this help")
		})
	})
}
