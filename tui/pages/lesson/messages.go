package lesson

import (
	"time"

	"github.com/schemalab/schemalab/lessons"
)

// One message type per event. Each run's result carries the sequence
// number of the run, so that the result of a run the learner cancelled or
// left behind is recognized and dropped.

// StepRan is a step's code having run.
type StepRan struct {
	Seq, Step int
	Result    *lessons.StepResult
	Pictures  *lessons.Pictures
	Err       error
	Elapsed   time.Duration
	Notes     []string
}

// AttemptChecked is the verdict on the learner's code for an exercise.
type AttemptChecked struct {
	Seq, Step  int
	Code       string
	Result     *lessons.ExerciseResult
	Statements []lessons.Statement
	Err        error
	Elapsed    time.Duration
}

// EditRan is the output of the learner's edit of a run step's code.
type EditRan struct {
	Seq, Step  int
	Code       string
	Statements []lessons.Statement
	Err        error
	Elapsed    time.Duration
	Notes      []string
}

// ShellEvaluated is the output of one scratch-shell input.
type ShellEvaluated struct {
	Seq, Step  int
	Src        string
	Statements []lessons.Statement
	Err        error
	Elapsed    time.Duration
	Notes      []string
}

// StagesPreviewed is the output after one stage of a pipeline.
type StagesPreviewed struct {
	Seq, Step  int
	Stage      int
	Names      []string
	Statements []lessons.Statement
	Err        error
	Elapsed    time.Duration
}

// LessonReset is the lesson's database emptied and its progress gone.
type LessonReset struct {
	Seq int
	Err error
}

// ExerciseReset is an exercise started over: its data as attempts find
// it, and the starter code.
type ExerciseReset struct {
	Seq, Step int
	Starter   string
	Err       error
}

// EditorClosed carries the code the learner wrote in $VISUAL/$EDITOR.
type EditorClosed struct {
	Step int
	Text string
	Err  error
}

// editorCheck asks the page to check (or run) the editor's code.
type editorCheck struct{ code string }
