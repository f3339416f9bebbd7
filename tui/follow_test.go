package tui

import (
	"sync"
	"testing"

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
	fm := drive(t, opts, 120, 40, func(tm *teatest.TestModel) {
		waitFor(t, tm, "Insert")
		tm.Send(AnnouncementMsg{Lesson: "basics", Step: 3})
		waitFor(t, tm, "follows")
		tm.Send(press("enter"))
		waitFor(t, tm, "ran")
		tm.Send(press("f"))
		waitFor(t, tm, "Count")
	})
	if fm.lesson == nil || fm.lesson.Step() != 2 {
		t.Fatalf("after f the lesson is not on step index 2")
	}
	if n := fm.notice(); n != "" {
		t.Errorf("at the announced step the notice is gone, not %q", n)
	}
	if fm.KeyMap.ExternalEditor.Enabled() || fm.KeyMap.Watch.Enabled() {
		t.Error("a remote session must not offer $EDITOR or watch: they would run on the host")
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
