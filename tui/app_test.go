package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
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

func catalogOf(t testing.TB, dirs ...string) *lessons.Catalog {
	cat, errs := lessons.Load(nil, dirs...)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return cat
}

func testOptions(t testing.TB) Options {
	return Options{
		Catalog:     catalogOf(t, "testdata/lessons", "testdata/kinds"),
		Connect:     func(context.Context) (*lessons.Sandbox, error) { return testSandbox(testBackend), nil },
		ExerciseDir: t.TempDir(),
	}
}

// newTestApp builds the app with run times fixed, so frames are stable.
func newTestApp(t testing.TB, opts Options) *Model {
	m := New(context.Background(), opts)
	m.Durations = func(time.Duration) string { return "12ms" }
	return m
}

var sizes = [][2]int{{80, 24}, {120, 40}, {200, 50}}

func forSizes(t *testing.T, f func(t *testing.T, w, h int)) {
	for _, s := range sizes {
		t.Run(fmt.Sprintf("%dx%d", s[0], s[1]), func(t *testing.T) { f(t, s[0], s[1]) })
	}
}

// screen is the app's frame as the terminal shows its text.
func screen(m *Model) string { return ansi.Strip(m.render()) }

func press(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+r":
		return tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	}
	r := []rune(s)[0]
	return tea.KeyPressMsg{Code: r, Text: s}
}

func typeText(tm *teatest.TestModel, s string) {
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			tm.Send(press("enter"))
		}
		tm.Type(line)
	}
}

// waitFor waits until the terminal output shows want; long is for a run
// that first brings a built-in lesson to a late step.
func waitFor(t *testing.T, tm *teatest.TestModel, want string) {
	waitWithin(t, tm, want, 20*time.Second)
}

// waitLong is waitFor for a run that first brings a built-in lesson to a
// late step.
func waitLong(t *testing.T, tm *teatest.TestModel, want string) {
	waitWithin(t, tm, want, 2*time.Minute)
}

// waitConnected waits until the header shows the test sandbox connected:
// its label drawn on its own, not within the "starting" message. Keys sent before that
// reach a catalog without the entries the connection adds.
func waitConnected(t *testing.T, tm *teatest.TestModel) {
	t.Helper()
	starting, connected := []byte("starting the embedded sandbox"), []byte("embedded sandbox")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Count(b, connected) > bytes.Count(b, starting)
	}, teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

func waitWithin(t *testing.T, tm *teatest.TestModel, want string, d time.Duration) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte(want))
	}, teatest.WithDuration(d), teatest.WithCheckInterval(20*time.Millisecond))
}

// drive runs the app at w×h until script ends and returns the final
// model, whose frame the caller reads.
func drive(t *testing.T, opts Options, w, h int, script func(tm *teatest.TestModel)) *Model {
	t.Helper()
	return driveModel(t, newTestApp(t, opts), w, h, script)
}

// driveModel is drive for an app the caller built.
func driveModel(t *testing.T, app *Model, w, h int, script func(tm *teatest.TestModel)) *Model {
	t.Helper()
	tm := teatest.NewTestModel(t, app, teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	script(tm)
	// Let the last frame settle, then stop the program; the model is only
	// read after the program ended.
	time.Sleep(50 * time.Millisecond)
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	fm.quitting = false
	return fm
}

// tui imports only lessons: neither the driver nor the sandbox.
func TestTUIImportsOnlyLessons(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-json=ImportPath,Imports", "github.com/schemalab/schemalab/tui/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
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
	if checked < 10 {
		t.Errorf("only %d tui packages were listed", checked)
	}
}
