package common

// Messages a page sends to the app.

// OpenLessonMsg asks the app to show a lesson at Step (0-based); Step < 0
// resumes where the learner left off.
type OpenLessonMsg struct {
	ID   string
	Step int
}

// BackMsg returns from a lesson to the catalog.
type BackMsg struct{}

// StatusMsg is a transient note for the status line.
type StatusMsg string

// FocusMsg tells a child whether it has its parent's focus: the pane
// the scrolling keys go to, drawn so.
type FocusMsg bool
