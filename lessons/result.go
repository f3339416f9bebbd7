package lessons

import (
	"fmt"
	"time"
)

// Op is what a session is asked to do.
type Op int

const (
	// OpRun runs Step from the state its earlier steps leave, evaluates
	// its expectations and draws its pictures: Blocks, Failures,
	// Pictures.
	OpRun Op = iota
	// OpCheck runs Step as OpRun does and, for an exercise, also proves
	// the authoring guard: the starter code fails the check, the
	// reference solution passes it, twice in a row from the same state.
	// It is what `schemalab run --check` does.
	OpCheck
	// OpJump brings the session to the state before Step: what opening a
	// step does before the learner runs anything.
	OpJump
	// OpAttempt runs Code as an answer to the exercise of Step, then the
	// exercise's check: Statements, Passed, Message, Goal, Commands.
	// Every attempt starts from the state the step's own code leaves;
	// nothing an earlier attempt or the scratch shell did carries over.
	OpAttempt
	// OpEdit runs Code, the learner's edit of Step's code, from the
	// state the step's own code starts from (after its setup):
	// Statements.
	OpEdit
	// OpEval runs Code, scratch-shell input, on the lesson's state at
	// Step: Statements. The first input at a step brings the session
	// there (to the state the step left when it has run, and for an
	// exercise to the data its attempts start from, else to the state
	// before it); later inputs at the same step go on from whatever the
	// earlier ones did, as in any shell.
	OpEval
	// OpStages runs the first Stage+1 stages of a pipeline of Step: Code,
	// or the step's own code when Code is "": Stages, Stage, Statements.
	OpStages
	// OpReset empties the lesson database, forgets every snapshot and
	// starts a fresh shell: the state before the first step.
	OpReset
	// OpResetExercise starts the exercise of Step over: the session
	// returns to the state attempts start from. Starter is the starter
	// code to put back in the editor.
	OpResetExercise
)

// Request is one operation asked of a session.
type Request struct {
	Op Op
	// Step is the step (0-based) the operation is about.
	Step int
	// Code is the learner's code: an attempt, an edit, a scratch-shell
	// input, or the pipeline a stage preview takes apart.
	Code string
	// Stage is the stage a preview shows (0-based).
	Stage int
	// Widths are the columns outputs are laid out for.
	Widths Widths
}

// Widths are the columns results are laid out for, as util.inspect's
// breakLength: Output for run and setup blocks, the scratch shell, edits
// and stage previews; Variant for comparison variants, which are shown
// in narrower columns. 0 is mongosh's 80. Output that an expectation
// reads is laid out at 80 whatever the widths, as the lesson's author saw
// it, and so is an exercise attempt, which its check reads.
type Widths struct{ Output, Variant int }

// Result is what one operation produced, ready to show: outputs are
// formatted for the request's widths, and nothing in it needs the
// session any more.
type Result struct {
	Op   Op
	Step int
	// Code is the request's code, as it ran.
	Code string
	// Elapsed is the whole operation, waiting for a turn included.
	Elapsed time.Duration
	// Notes are progress lines: a replay of earlier steps on a server
	// without snapshots, an explain that could not use one.
	Notes []string

	// Blocks holds one result per executable block of the step, in
	// document order (setup first); expect blocks appear with their
	// verdict (OpRun, OpCheck).
	Blocks []BlockResult
	// Failures lists what went wrong in the step: an unexpected error, a
	// failed expectation or, when checking, a failed authoring guard.
	Failures []Failure
	// Pictures are what the step's outputs are easier to look at than to
	// read (OpRun).
	Pictures Pictures

	// Statements are Code's statements with what each showed (OpAttempt,
	// OpEdit, OpEval, OpStages).
	Statements []Statement

	// Passed and Message are the check's verdict on an attempt: Message
	// is shown on success and on failure, the check's own words (or what
	// it printed), naming the first thing that is wrong.
	Passed  bool
	Message string
	// Goal compares the data the attempt left with what the reference
	// solution leaves; nil when the solution changes no data.
	Goal *GoalComparison
	// Commands are the commands the attempt's code sent.
	Commands []Command

	// Stages are a previewed pipeline's stages ($match, $group, …);
	// Stage is the one shown (0-based).
	Stages []string
	Stage  int

	// Starter is the exercise's starter code (OpResetExercise).
	Starter string
}

// OK reports whether the step ran without failure.
func (r *Result) OK() bool { return len(r.Failures) == 0 }

// Failure is one problem in a step, with the file line of its block.
type Failure struct {
	Line int
	Msg  string
	// Expect marks a failed expectation (as opposed to code that broke).
	Expect bool
}

func (f Failure) String() string { return fmt.Sprintf("line %d: %s", f.Line, f.Msg) }

// BlockResult is the outcome of one executable block.
type BlockResult struct {
	Block *Block
	// Statements are the block's statements with what each showed (run
	// and setup blocks, a solution under --check).
	Statements []Statement
	// Output is everything the block showed, as mongosh prints it.
	Output string
	// Elapsed is the block's evaluation.
	Elapsed time.Duration
	// Err is the evaluation's error, if it threw.
	Err error
	// Variants holds a comparison's results; set on the first compare
	// block of a group, whose Block is that first variant.
	Variants []VariantResult
	// Passed and Message are an expect block's or exercise check's verdict.
	Passed  bool
	Message string
}

// VariantResult is one side of a comparison.
type VariantResult struct {
	Label      string
	Block      *Block
	Statements []Statement
	// Output is everything the variant showed, as mongosh prints it.
	Output  string
	Err     error
	Figures []Figure
}

// Figure is one named number of a comparison variant.
type Figure struct {
	// Key is keys, docs, ms, dataBytes, indexBytes, updated, or the name
	// a figures expression gave.
	Key   string
	Value float64
}

// Figure returns the value of key among v's figures.
func (v *VariantResult) Figure(key string) (float64, bool) {
	for _, f := range v.Figures {
		if f.Key == key {
			return f.Value, true
		}
	}
	return 0, false
}

// Statement is one top-level statement of evaluated code and what it
// showed, for a view that puts each output right under its statement.
type Statement struct {
	// StartLine and EndLine are 1-based and inclusive, in the code as it
	// was evaluated.
	StartLine, EndLine int
	// Printed is what print, printjson and console.log wrote while it ran.
	Printed string
	// Output is its value as mongosh prints it; "" when undefined.
	Output string
	// Error is the error it stopped on, as mongosh prints it.
	Error string
}
