package tui

import (
	"time"

	"github.com/schemalab/schemalab/lessons"
)

// Typed messages between the app, its pages and the runs they start.

// backendReadyMsg reports the sandbox connection, made after the first
// frame so that the app appears at once.
type backendReadyMsg struct {
	backend *lessons.Sandbox
	err     error
}

// openLessonMsg asks the app to show a lesson; step < 0 resumes.
type openLessonMsg struct {
	id   string
	step int
}

// backToCatalogMsg returns from a lesson to the catalog.
type backToCatalogMsg struct{}

// runKind says what a finished run was, so its result lands in the right
// place.
type runKind int

const (
	runStep runKind = iota
	runExercise
	runShell
	runStage
	runEdited
	runReset
	runResetExercise
)

// runDoneMsg is the end of any asynchronous run.
type runDoneMsg struct {
	seq    int // matches the run that is current; stale results are dropped
	kind   runKind
	sess   *session
	lesson string
	step   int
	stage  int
	src    string
	res    *lessons.StepResult
	pics   *lessons.Pictures
	ex     *lessons.ExerciseResult
	// out is the transcript of a scratch-shell input, an edit or a stage.
	out     string
	stages  []string
	notes   []string
	err     error
	elapsed time.Duration
}

// editorDoneMsg carries the file the learner edited with $EDITOR.
type editorDoneMsg struct {
	text string
	err  error
}

// statusMsg is a transient note for the status line.
type statusMsg string
