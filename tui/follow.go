package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/pages/lesson"
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
	// Step is 1-based, as on the command line (--step); 0 is the lesson's
	// start.
	Step int
}

// Activity is what a learner did, reported to Options.OnActivity after
// the progress store has recorded it.
type Activity = lesson.Activity

const (
	// ActivityMoved: a lesson opened at a step, or another step is shown.
	ActivityMoved = lesson.ActivityMoved
	// ActivityRan: a step ran without failure and is done.
	ActivityRan = lesson.ActivityRan
	// ActivityAttempt: an exercise attempt was checked (Passed says how).
	ActivityAttempt = lesson.ActivityAttempt
)

var (
	msgAnnounce   = &locale.Message{ID: "app.announce", Other: "▶ now: {{.Lesson}}, step {{.Step}} · {{.Key}} follows"}
	msgAnnounceAt = &locale.Message{ID: "app.announceStart", Other: "▶ now: {{.Lesson}} · {{.Key}} follows"}
	msgFollowWait = &locale.Message{ID: "app.followWait", Other: "Still running {{.Label}}; follow when it is done ({{.Key}} cancels it)."}
)

// notice is the pending announcement as the status line shows it, or ""
// when there is none or the learner is already there.
func (m *Model) notice() string {
	a := m.announcement
	if a.Lesson == "" {
		return ""
	}
	if m.lesson != nil && m.lesson.Lesson().ID == a.Lesson && m.lesson.Step() == a.Step-1 {
		return ""
	}
	data := map[string]any{"Lesson": a.Lesson, "Step": a.Step, "Key": m.KeyMap.Follow.Help().Key}
	if a.Step <= 0 {
		return m.Styles.Accent.Render(m.T(msgAnnounceAt, data))
	}
	return m.Styles.Accent.Render(m.T(msgAnnounce, data))
}

// follow opens the announced lesson at the announced step.
func (m *Model) follow() tea.Cmd {
	if m.notice() == "" {
		return nil
	}
	if label, _, running := m.running(); running {
		return statusCmd(m.T(msgFollowWait, map[string]any{"Label": label, "Key": m.KeyMap.Cancel.Help().Key}))
	}
	return m.openLesson(m.announcement.Lesson, m.announcement.Step-1)
}
