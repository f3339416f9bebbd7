package common

// Messages a page sends to the app.

// OpenLessonMsg asks the app to show a lesson at Step (0-based); Step < 0
// resumes where the learner left off.
type OpenLessonMsg struct {
	ID   string
	Step int
}

// OpenAdviseMsg asks the app to show the advise page, which reads a
// database of the learner's and names the patterns it needs.
type OpenAdviseMsg struct{}

// BackMsg returns from a lesson, or from the advise page, to the page
// under it.
type BackMsg struct{}

// StatusMsg is a transient note for the status line.
type StatusMsg string

// FocusMsg tells a child whether it has its parent's focus: the pane
// the scrolling keys go to, drawn so.
type FocusMsg bool
