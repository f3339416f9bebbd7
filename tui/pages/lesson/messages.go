package lesson

import "github.com/schemalab/schemalab/lessons"

// One message type per event. A run's result carries the sequence number
// of the run, so that the result of a run the learner cancelled or left
// behind is recognized and dropped.

// Ran is an operation of the lesson session having ended: a step run,
// an attempt checked, an edit or a scratch-shell input evaluated, a
// stage previewed, the lesson or an exercise reset. Result is never nil.
type Ran struct {
	Seq    int
	Result *lessons.Result
	Err    error
}

// EditorClosed carries the code the learner wrote in $VISUAL/$EDITOR.
type EditorClosed struct {
	Step int
	Text string
	Err  error
}

// editorCheck asks the page to check (or run) the editor's code.
type editorCheck struct{ code string }
