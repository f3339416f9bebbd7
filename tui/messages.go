package tui

import (
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/sandbox"
	"github.com/schemalab/schemalab/sandbox/shell"
)

// Typed messages between the app, its pages and the runs they start.

// backendReadyMsg reports the sandbox connection, made after the first
// frame so that the app appears at once.
type backendReadyMsg struct {
	backend *sandbox.Backend
	label   string
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
)

// runDoneMsg is the end of any asynchronous run.
type runDoneMsg struct {
	seq     int // matches the run that is current; stale results are dropped
	kind    runKind
	lesson  string
	step    int
	stage   int
	src     string
	res     *lessons.StepResult
	tree    *treeData
	samples map[outputRef]bson.A // full samples of buckets printed in part
	ex      *lessons.ExerciseResult
	eval    shell.Result
	stages  []string
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
