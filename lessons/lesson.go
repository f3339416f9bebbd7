// Package lessons holds the course's lesson model, the parser that turns a
// lesson's Markdown into that model, the session that executes its steps
// through the mongosh-compatible shell, and the learner's progress store.
//
// The lesson format itself is documented for authors in content/README.md.
package lessons

import "fmt"

// Lesson is one parsed lesson file.
type Lesson struct {
	ID      string
	Title   string
	Summary string
	// Order places the lesson in the catalog; a decimal such as 1.5 puts
	// a lesson between two others without renumbering them.
	Order   float64
	Minutes int
	// Intro is the Markdown between the front matter and the first step;
	// IntroLine is the file line where its text starts.
	Intro     string
	IntroLine int
	Steps     []Step
	// File names the source for messages: a path, or "builtin:NAME.md".
	File string
	// Lang is the language the lesson is written in: locale.Source for an
	// original, the language of a translation (its folder, or its lang:
	// front-matter key).
	Lang string
}

// Step is the part of a lesson under one `## ` heading.
type Step struct {
	// ID is the heading's slug, unique within the lesson; progress is keyed
	// by it so that reordering steps keeps a learner's record.
	ID    string
	Title string
	Line  int
	// Blocks are the step's prose and code blocks in document order.
	Blocks []Block
	// Exercise is set when the step holds exercise blocks.
	Exercise *Exercise
}

// BlockKind says what a block of a step is.
type BlockKind int

const (
	// Prose is Markdown, including code fences that are only shown.
	Prose BlockKind = iota
	// Run is mongosh JavaScript the learner runs; its output is shown.
	Run
	// Setup runs before the step's other blocks and is shown collapsed.
	Setup
	// Compare is one labelled variant of a comparison.
	Compare
	// ExpectOutput is a fragment the previous run's output must contain.
	ExpectOutput
	// ExpectJS is a JavaScript predicate over the database.
	ExpectJS
	// ExerciseStarter, ExerciseCheck, ExerciseHint and ExerciseSolution
	// are the parts of a step's exercise.
	ExerciseStarter
	ExerciseCheck
	ExerciseHint
	ExerciseSolution
)

var kindNames = [...]string{"prose", "run", "setup", "compare", "expect (output)", "expect (js)",
	"exercise starter", "exercise check", "exercise hint", "exercise solution"}

func (k BlockKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("BlockKind(%d)", int(k))
}

// Block is a piece of a step: Markdown prose, or one executable fence.
type Block struct {
	Kind BlockKind
	// Text is the Markdown (Prose) or the fence's content (all others).
	Text string
	// Lang is the fence's language word ("js", "text", "md").
	Lang string
	// Line is the 1-based line where the block starts in the file.
	Line int
	// Throws marks a run block whose last statement is meant to fail
	// (`js run throws`): the error is the lesson's point, not a failure.
	Throws bool
	// Variant is set for Compare blocks.
	Variant *Variant
	// Group numbers the comparisons of a step: consecutive compare blocks
	// form one comparison shown side by side.
	Group int
}

// Variant describes one side of a comparison.
type Variant struct {
	Label string
	// Collection, if set, is the collection whose data and index bytes
	// are reported (collStats size and totalIndexSize).
	Collection string
	// Figures, if set, is a JavaScript expression evaluated after the
	// variant; it returns a document of figures (keys, docs, ms,
	// dataBytes, indexBytes, updated, or any other named number).
	Figures string
	// Writes, if set, names the collection whose write operations the
	// variant sent are counted, from the commands the client sent (as a
	// check's writes(coll) counts them), as the figure "writes"; "*"
	// counts writes to any collection.
	Writes string
}

// Exercise is a step's task for the learner.
type Exercise struct {
	// Task is the step's prose, the exercise statement.
	Task     string
	Starter  string
	Check    string
	Hints    []string
	Solution string
	Line     int
}

// HasExercises reports whether any step of l is an exercise.
func (l *Lesson) HasExercises() bool {
	for _, s := range l.Steps {
		if s.Exercise != nil {
			return true
		}
	}
	return false
}

// StepIndex returns the index of the step with the given id, or -1.
func (l *Lesson) StepIndex(id string) int {
	for i, s := range l.Steps {
		if s.ID == id {
			return i
		}
	}
	return -1
}

// HasCode reports whether the step has anything to run or answer: code
// of its own, or an exercise.
func (s *Step) HasCode() bool {
	if s.Exercise != nil {
		return true
	}
	for _, b := range s.Blocks {
		if b.Kind == Run || b.Kind == Setup || b.Kind == Compare {
			return true
		}
	}
	return false
}

// Code returns the executable blocks of a kind, in order.
func (s *Step) Code(kind BlockKind) []Block {
	var out []Block
	for _, b := range s.Blocks {
		if b.Kind == kind {
			out = append(out, b)
		}
	}
	return out
}

// Prose returns the step's Markdown prose joined, without executable blocks.
func (s *Step) Prose() string {
	var out string
	for _, b := range s.Blocks {
		if b.Kind == Prose {
			if out != "" {
				out += "\n\n"
			}
			out += b.Text
		}
	}
	return out
}
