package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// The app's two classroom hooks: what a learner does is reported through
// Options.OnActivity (the instructor's dashboard), and the instructor's
// "follow me" arrives as an AnnouncementMsg, shown as a one-line notice
// that the learner follows with one key. Nobody is moved without pressing
// it.

// AnnouncementMsg is the instructor's "now: bucket, step 4". Send it to
// the program; an empty Lesson withdraws the notice.
type AnnouncementMsg struct {
	Lesson string
	// Step is 1-based, as on the command line (--step).
	Step int
}

// ActivityKind says what a learner did.
type ActivityKind int

const (
	// ActivityMoved: a lesson opened at a step, or another step is shown.
	ActivityMoved ActivityKind = iota
	// ActivityRan: a step ran without failure and is done.
	ActivityRan
	// ActivityAttempt: an exercise attempt was checked (Passed says how).
	ActivityAttempt
)

// Activity is reported to Options.OnActivity after the progress store
// has recorded it.
type Activity struct {
	Kind   ActivityKind
	Lesson string
	// Step is 0-based.
	Step   int
	Passed bool
}

// notify reports an activity of the session's lesson.
func (s *session) notify(kind ActivityKind, step int, passed bool) {
	if s.observe != nil {
		s.observe(Activity{Kind: kind, Lesson: s.lesson.ID, Step: step, Passed: passed})
	}
}

// notice is the pending announcement as the status line shows it, or ""
// when there is none or the learner is already there.
func (m *Model) notice() string {
	a := m.announcement
	if a.Lesson == "" {
		return ""
	}
	if m.lesson != nil && m.lesson.lesson().ID == a.Lesson && m.lesson.step == a.Step-1 {
		return ""
	}
	return m.styles.Accent.Render(fmt.Sprintf("▶ now: %s, step %d", a.Lesson, a.Step)) +
		m.styles.Muted.Render(" · "+m.KeyMap.Follow.Help().Key+" follows")
}

// follow opens the announced lesson at the announced step.
func (m *Model) follow() tea.Cmd {
	if m.notice() == "" {
		return nil
	}
	if m.runs.active {
		return statusCmd("Still running " + m.runs.label + "; follow when it is done (ctrl+c cancels it).")
	}
	return m.openLesson(m.announcement.Lesson, m.announcement.Step-1)
}
