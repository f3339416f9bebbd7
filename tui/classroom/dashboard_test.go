package classroom

import (
	"fmt"
	"log"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	room "github.com/schemalab/schemalab/lessons/classroom"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/keymap"
	"github.com/schemalab/schemalab/tui/styles"
)

// testCommon is what the instructor's program hands its dashboard, in
// English and without colour.
func testCommon() common.Common {
	return common.Common{Styles: styles.New(true, true), KeyMap: keymap.Default(locale.English()), L: locale.English()}
}

// dashboardRoom is a room in a known state at a fixed time.
func dashboardRoom() (*room.Room, func() time.Time) {
	now := time.Date(2026, 9, 1, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	r := room.New(room.Options{Now: clock})
	bucket := func(step int, title string) room.Position {
		return room.Position{Lesson: "bucket", LessonTitle: "The Bucket Pattern", Step: step, Steps: 9, StepTitle: title}
	}
	r.Join("alice", "SHA256:a")
	r.Moved("alice", bucket(8, "Exercise: a reusable `addReading`"), room.Exercises{Passed: 1, Attempted: 2, Total: 2})
	for range 3 {
		r.Attempted("alice", false, room.Exercises{Passed: 1, Attempted: 2, Total: 2})
	}
	r.Join("bob", "SHA256:b")
	r.Moved("bob", bucket(3, "Compare: a 12-hour window, flat against bucketed"), room.Exercises{Total: 2})
	r.Join("carol", "SHA256:c")
	r.Moved("carol", room.Position{Lesson: "outlier", Step: 1, Steps: 14, StepTitle: "Why the one big document hurts"}, room.Exercises{Total: 2})
	r.Attempted("carol", false, room.Exercises{Attempted: 1, Total: 2})
	r.Join("dave", "password")
	r.Leave("dave")
	r.Announce(bucket(3, "Compare: a 12-hour window, flat against bucketed"))
	return r, clock
}

func TestDashboardView(t *testing.T) {
	for _, size := range [][2]int{{80, 16}, {120, 20}, {200, 12}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			r, clock := dashboardRoom()
			d := &dashboard{Common: testCommon(), room: r,
				login: "ssh -p 2222 NAME@127.0.0.1", auth: "keys in class.keys", local: true, now: clock}
			d.SetSize(size[0], size[1])
			view := ansi.Strip(d.View())
			if got := strings.Count(view, "\n") + 1; got != size[1] {
				t.Errorf("the view has %d lines, want the window's %d", got, size[1])
			}
			golden.RequireEqual(t, []byte(view))
		})
	}
}

func TestDashboardAsksBeforeStoppingAnOccupiedClassroom(t *testing.T) {
	r, clock := dashboardRoom()
	d := &dashboard{Common: testCommon(), room: r, local: true, now: clock}
	d.SetSize(100, 20)
	if _, cmd := d.Update(tea.KeyPressMsg{Code: 'q', Text: "q"}); cmd != nil {
		t.Fatal("q stopped an occupied classroom without asking")
	}
	if !strings.Contains(ansi.Strip(d.View()), "Stop the classroom? 3 students are connected") {
		t.Fatalf("no question:\n%s", d.View())
	}
	if _, cmd := d.Update(tea.KeyPressMsg{Code: 'n', Text: "n"}); cmd != nil {
		t.Fatal("n stopped the classroom")
	}
	d.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	if _, cmd := d.Update(tea.KeyPressMsg{Code: 'y', Text: "y"}); cmd == nil || cmd() != tea.Quit() {
		t.Fatal("y did not stop the classroom")
	}
	d.Update(tea.KeyPressMsg{Code: 'c', Text: "c"})
	if !r.Announcement().IsZero() {
		t.Fatal("c did not clear the announcement")
	}
}

// Text the classroom did not write reaches the instructor's terminal
// without its control characters: a lesson pack's titles, and the log's
// login names and crash reports.
func TestDashboardAndLogDisarmEscapes(t *testing.T) {
	r := room.New(room.Options{})
	evil := "\x1b]0;owned\x07\x1b[41mred\x1b[2J"
	r.Join("eve", "SHA256:e")
	r.Moved("eve", room.Position{Lesson: "pack" + evil, Step: 0, Steps: 2, StepTitle: "Step " + evil}, room.Exercises{})
	r.Announce(room.Position{Lesson: "pack" + evil, Step: 0, Steps: 2, StepTitle: "Step " + evil})
	d := &dashboard{Common: testCommon(), room: r, now: time.Now}
	d.SetSize(160, 12)
	view := d.View()
	for _, bad := range []string{"\x1b]", "\x07", "\x1b[41m", "\x1b[2J"} {
		if strings.Contains(view, bad) {
			t.Errorf("the dashboard draws %q from a title", bad)
		}
	}
	if !strings.Contains(view, "�]0;owned�") {
		t.Errorf("the title is not shown disarmed:\n%s", view)
	}
	var b strings.Builder
	log.New(LogWriter(&b), "", 0).Printf("refused %s from 127.0.0.1: %s", "\x1b]0;owned\x07name", "line\x1b[31m")
	if got := b.String(); got != "refused �]0;owned�name from 127.0.0.1: line�[31m\n" {
		t.Errorf("the log wrote %q", got)
	}
}

// Each online student's storage, open cursors and memory are on their
// row, where the terminal is wide enough.
func TestDashboardShowsWhatEachStudentUses(t *testing.T) {
	r, clock := dashboardRoom()
	d := &dashboard{Common: testCommon(), room: r, now: clock,
		usage: func(name string) (Usage, int64, bool) {
			return Usage{Storage: 38 << 20, Cursors: 2, Connections: 3}, 61 << 20, name != "dave"
		}}
	d.SetSize(160, 12)
	view := ansi.Strip(d.View())
	if !strings.Contains(view, "storage  cursors  memory") {
		t.Errorf("no usage columns:\n%s", view)
	}
	for _, line := range strings.Split(view, "\n") {
		if strings.Contains(line, "alice") && !strings.Contains(line, "38 MB    2        61 MB") {
			t.Errorf("alice's row lacks her figures: %q", line)
		}
		if strings.Contains(line, "dave") && strings.Contains(line, "MB") {
			t.Errorf("dave, offline, has figures: %q", line)
		}
	}
}
