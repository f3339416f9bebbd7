package tui

import (
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// The classroom's "follow me": an announcement shows as a notice, moves
// nobody by itself, and f jumps to it; the learner's moves are reported.
func TestFollowTheAnnouncedStep(t *testing.T) {
	var mu sync.Mutex
	var seen []Activity
	opts := testOptions(t)
	opts.Lesson, opts.Step = "basics", 1
	opts.Remote = true
	opts.OnActivity = func(a Activity) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, a)
	}
	m := newTestApp(t, opts)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	waitFor(t, tm, "Press enter")
	tm.Send(AnnouncementMsg{Lesson: "basics", Step: 3})
	waitFor(t, tm, "now: basics, step 3 · f follows")
	tm.Send(press("enter"))
	waitFor(t, tm, "ran in")
	tm.Send(press("f"))
	waitFor(t, tm, "Count the people")
	time.Sleep(50 * time.Millisecond)
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(*Model)
	if fm.lesson == nil || fm.lesson.step != 2 {
		t.Fatalf("after f the lesson is on step index %d, want 2", fm.lesson.step)
	}
	if n := fm.notice(); n != "" {
		t.Errorf("at the announced step the notice is gone, not %q", n)
	}
	if fm.KeyMap.ExternalEditor.Enabled() {
		t.Error("a remote session must not offer $EDITOR: it would run on the host")
	}
	mu.Lock()
	defer mu.Unlock()
	want := []Activity{{Kind: ActivityMoved, Lesson: "basics", Step: 0}, {Kind: ActivityRan, Lesson: "basics", Step: 0},
		{Kind: ActivityMoved, Lesson: "basics", Step: 2}}
	if len(seen) != len(want) {
		t.Fatalf("activities = %+v, want %+v", seen, want)
	}
	for i := range want {
		if seen[i] != want[i] {
			t.Fatalf("activities = %+v, want %+v", seen, want)
		}
	}
}
