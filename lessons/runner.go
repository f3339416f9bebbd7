package lessons

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox/shell"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// RunnerOptions configure a Runner.
type RunnerOptions struct {
	// Timeout bounds one block's evaluation; 0 means 60 s.
	Timeout time.Duration
	// Progress, if set, receives the progress lines of long operations,
	// such as replaying steps on a server that has no snapshots.
	Progress func(line string)
	// Locale is the learner's language for verdicts, failures and notes;
	// nil is English.
	Locale *locale.Localizer
}

// Runner is one learner's session of one lesson: its own driver client,
// one mongosh session and the lesson's database, <prefix><id>.
//
// After each step the runner saves a snapshot of the database (the
// embedded server's schemalabSnapshot command) together with a checkpoint
// of the session's global bindings, so that re-running a step, jumping to
// one, the scratch shell and every exercise attempt start from a known
// state by restoring, never by replaying. On a server without snapshots
// (a real MongoDB) it replays the earlier steps instead, and says so.
//
// Why the JavaScript state is restored from a checkpoint of the global
// scope rather than rebuilt by re-evaluating earlier steps: lesson code
// keeps its state in top-level declarations and assignments (the shell
// turns const and let into var, so they are all globals), and putting
// back the name → value table taken after a step restores exactly those,
// in microseconds, including a helper a learner overwrote or a variable
// an attempt reassigned. Re-evaluating the earlier steps would cost what
// replaying costs (seconds where a step generates 200,000 documents) and
// would re-run code with side effects; replaying only their declarations
// would need the statements that fill them too. What a checkpoint does
// not undo is a change made inside an object that a global still points
// to (push onto an array from an earlier step); the authoring guide asks
// lessons to reassign instead.
//
// In a classroom the runner also takes states from a template of the
// lesson that the room built once (Sandbox.Seeds; seed.go): where it
// would run the steps before a state or a step's setup, it copies the
// template's snapshot into its database and the template's globals into
// its session instead, and it keeps no snapshot of its own of a state
// the template has. What the learner runs still runs in their session.
//
// A Runner is not safe for concurrent use.
type Runner struct {
	sb     *Sandbox
	lesson *Lesson
	opts   RunnerOptions

	client *mongo.Client
	rec    *recorder
	sh     *shell.Shell

	snapshots snapshotSupport
	// saved maps the name of every saved state to the checkpoint of the
	// session's globals taken with it; on the embedded server the
	// database snapshot of the same name exists too.
	saved map[string]*shell.Globals
	// shared marks the saved states that are the shared template's: on
	// the server only the template's snapshot of them exists.
	shared map[string]bool
	live   liveState
	// widths are the columns results are laid out for (SetWidths).
	widths Widths
	goals  map[int]*goal
	notes  []string

	// seeds are the shared template this runner takes states from
	// (Sandbox.Seeds), asked for once; nil when there is none.
	seeds      *Seeds
	seedsAsked bool
	// onSave, if set, is called after every state is saved: how
	// BuildTemplate takes its portable checkpoints.
	onSave func(state string)
}

// liveState is what the session holds now: a saved state, or (state "")
// whatever an attempt, an edit or the scratch shell left at step.
type liveState struct {
	state string
	step  int
}

// NewRunner prepares a runner; it connects on first use.
func NewRunner(sb *Sandbox, l *Lesson, opts RunnerOptions) *Runner {
	if opts.Timeout <= 0 {
		opts.Timeout = 60 * time.Second
	}
	if opts.Locale == nil {
		opts.Locale = locale.English()
	}
	return &Runner{sb: sb, lesson: l, opts: opts, live: liveState{step: -1}}
}

// say is message m in the learner's language.
func (r *Runner) say(m *locale.Message, data map[string]any) string { return r.opts.Locale.T(m, data) }

// Lesson is the lesson this runner executes.
func (r *Runner) Lesson() *Lesson { return r.lesson }

// Database is the lesson's database name, <prefix><id>.
func (r *Runner) Database() string { return DatabaseName(r.sb.Prefix, r.lesson.ID) }

// DatabaseName names the database of lesson id.
func DatabaseName(prefix, id string) string {
	if prefix == "" {
		prefix = vocab.DefaultPrefix
	}
	return prefix + id
}

// connect opens the session's client once.
func (r *Runner) connect(ctx context.Context) error {
	if r.client != nil {
		return nil
	}
	if r.sb == nil || r.sb.Connect == nil {
		return errors.New("lessons: the runner has no sandbox to connect to")
	}
	rec := &recorder{}
	client, err := r.sb.Connect(ctx, rec.monitor())
	if err != nil {
		return err
	}
	r.client, r.rec = client, rec
	return nil
}

// Close drops the session's snapshots and disconnects its client. The
// lesson database stays as the session left it.
func (r *Runner) Close() error {
	if r.client == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r.dropSnapshots(ctx)
	err := r.client.Disconnect(ctx)
	r.client, r.sh = nil, nil
	return err
}

// Reset empties the lesson database, forgets every snapshot and starts a
// fresh shell session: the state before the first step.
func (r *Runner) Reset(ctx context.Context) error {
	if err := r.connect(ctx); err != nil {
		return err
	}
	r.dropSnapshots(ctx)
	reset := r.sb.ResetDB
	if reset == nil {
		reset = func(ctx context.Context, db string) error { return dropDatabase(ctx, r.client, db) }
	}
	if err := reset(ctx, r.Database()); err != nil {
		return err
	}
	sh, err := shell.New(r.client, r.Database(), shell.Options{Timeout: r.opts.Timeout, HeapLimit: r.sb.HeapLimit, HeapShare: r.sb.HeapShare})
	if err != nil {
		return err
	}
	r.sh, r.saved, r.shared = sh, map[string]*shell.Globals{}, map[string]bool{}
	if r.goals == nil {
		// Goals outlive a reset: they are what the reference solutions
		// leave on the lesson's deterministic data, which a reset rebuilds
		// the same (and which a server without snapshots resets often).
		r.goals = map[int]*goal{}
	}
	if err := r.save(ctx, stateBefore(0)); err != nil {
		return err
	}
	r.live = liveState{state: stateBefore(0), step: 0}
	return nil
}

func dropDatabase(ctx context.Context, client *mongo.Client, name string) error {
	if err := client.Database(name).Drop(ctx); err != nil {
		return fmt.Errorf("reset database %s: %w", name, err)
	}
	return nil
}

// ensureSession starts the session if none is running.
func (r *Runner) ensureSession(ctx context.Context) error {
	if r.sh != nil {
		return nil
	}
	return r.Reset(ctx)
}

// begin starts an operation: the step exists, the operation has its
// turn on a shared server (Sandbox.Turns), a session exists, and the
// notes of the last operation are forgotten. done ends the operation.
func (r *Runner) begin(ctx context.Context, i int) (done func(), err error) {
	r.notes = nil
	if i < 0 || i >= len(r.lesson.Steps) {
		return nil, errors.New(r.say(msgNoStep, map[string]any{"Lesson": r.lesson.ID, "N": i + 1}))
	}
	done, err = r.sb.Turns.take(ctx)
	if err != nil {
		return nil, err
	}
	if err := r.ensureSession(ctx); err != nil {
		done()
		return nil, err
	}
	return done, nil
}

// note records a progress line for the current operation.
func (r *Runner) note(line string) {
	r.notes = append(r.notes, line)
	if r.opts.Progress != nil {
		r.opts.Progress(line)
	}
}

// Notes are the progress lines of the last operation (a replay on a
// server without snapshots, an explain that could not use one).
func (r *Runner) Notes() []string { return r.notes }

// StepResult is what running one step produced.
type StepResult struct {
	Step  int
	Title string
	// Blocks holds one result per executable block, in document order
	// (setup first); expect blocks appear with their verdict.
	Blocks []BlockResult
	// Failures lists what went wrong: an unexpected error, a failed
	// expectation or, when checking, a failed authoring guard.
	Failures []Failure
	Elapsed  time.Duration
	// Notes are progress lines, such as a replay of earlier steps.
	Notes []string
}

// OK reports whether the step ran without failure.
func (s *StepResult) OK() bool { return len(s.Failures) == 0 }

// codeOK reports whether the step's code ran (failed expectations aside).
func (s *StepResult) codeOK() bool {
	for _, f := range s.Failures {
		if !f.Expect {
			return false
		}
	}
	return true
}

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
	// Result is the shell's result for run, setup and exercise blocks.
	Result shell.Result
	// Err is the evaluation's error, if it threw.
	Err error
	// Variants holds a comparison's results; set on the first compare
	// block of a group, whose Block is that first variant.
	Variants []VariantResult
	// Passed and Message are an expect block's or exercise check's verdict.
	Passed  bool
	Message string
}

// RunStep runs step i (0-based) from the state its earlier steps leave,
// restored from a snapshot when there is one, and evaluates its expect
// blocks.
func (r *Runner) RunStep(ctx context.Context, i int) (*StepResult, error) {
	return r.runFromBefore(ctx, i, modeShow)
}

// CheckStep runs step i like RunStep and, for an exercise, also proves
// the authoring guard: the starter code fails the check, the reference
// solution passes it, twice in a row from the same state. It is what
// `schemalab run --check` does.
func (r *Runner) CheckStep(ctx context.Context, i int) (*StepResult, error) {
	return r.runFromBefore(ctx, i, modeCheck)
}

func (r *Runner) runFromBefore(ctx context.Context, i int, mode runMode) (*StepResult, error) {
	done, err := r.begin(ctx, i)
	if err != nil {
		return nil, err
	}
	defer done()
	if err := r.ensureBefore(ctx, i); err != nil {
		return nil, err
	}
	res := r.runStep(ctx, i, mode)
	if mode == modeCheck && r.lesson.Steps[i].Exercise != nil && res.codeOK() {
		r.guardExercise(ctx, i, res)
	}
	res.Notes = r.notes
	return res, ctx.Err()
}

// Prepare brings the session to the state before step i: what jumping to
// a step does before the learner runs anything.
func (r *Runner) Prepare(ctx context.Context, i int) error {
	done, err := r.begin(ctx, i)
	if err != nil {
		return err
	}
	defer done()
	return r.ensureBefore(ctx, i)
}

// RunEdited runs a learner's edit of step i's code from the state the
// step's own code starts from (after its setup).
func (r *Runner) RunEdited(ctx context.Context, i int, src string) (shell.Result, error) {
	done, err := r.begin(ctx, i)
	if err != nil {
		return shell.Result{}, err
	}
	defer done()
	if err := r.ensureSetup(ctx, i); err != nil {
		return shell.Result{}, err
	}
	r.live = liveState{step: i}
	return r.eval(ctx, r.widths.Output, src)
}

// Eval runs scratch-shell input on the lesson's state at step i. The
// first input at a step brings the session there: to the state the step
// left when it has run (for an exercise, the data the attempts start
// from), else to the state before it. Later inputs at the same step go on
// from whatever the earlier ones did, as in any shell.
func (r *Runner) Eval(ctx context.Context, i int, src string) (shell.Result, error) {
	done, err := r.begin(ctx, i)
	if err != nil {
		return shell.Result{}, err
	}
	defer done()
	if r.live.step != i {
		target := i
		if r.saved[stateBefore(i+1)] != nil || r.lesson.Steps[i].Exercise != nil {
			target = i + 1
		}
		if err := r.ensureBefore(ctx, target); err != nil {
			return shell.Result{}, err
		}
	}
	r.live = liveState{step: i}
	return r.eval(ctx, r.widths.Output, src)
}

type runMode int

const (
	modeShow runMode = iota
	modeReplay
	modeCheck
)

// runStep runs step i on the state before it and saves the states after
// its setup and after the step.
func (r *Runner) runStep(ctx context.Context, i int, mode runMode) *StepResult {
	start := time.Now()
	st := &r.lesson.Steps[i]
	res := &StepResult{Step: i, Title: st.Title}
	r.live = liveState{step: i}
	fail := func(line int, msg string) {
		res.Failures = append(res.Failures, Failure{Line: line, Msg: msg})
	}
	failExpect := func(line int, msg string) {
		res.Failures = append(res.Failures, Failure{Line: line, Msg: msg, Expect: true})
	}
	// Setup comes first wherever it is written. A shared template's
	// state after it stands for running it: setup output is never shown,
	// and it is where the heavy lifting of a lesson (generating its data)
	// is.
	seeded := false
	if hasSetup(st) {
		var err error
		if seeded, err = r.seedSetup(ctx, i, res); err != nil {
			fail(st.Line, err.Error())
			res.Elapsed = time.Since(start)
			return res
		}
	}
	for bi := range st.Blocks {
		b := &st.Blocks[bi]
		if b.Kind != Setup || seeded {
			continue
		}
		out, err := r.eval(ctx, r.widths.Output, b.Text)
		res.Blocks = append(res.Blocks, BlockResult{Block: b, Result: out, Err: err})
		if err != nil {
			fail(b.Line, r.say(msgSetupFailed, map[string]any{"Err": errText(err)}))
			res.Elapsed = time.Since(start)
			return res
		}
	}
	if hasSetup(st) {
		if err := r.saveOnce(ctx, stateSetup(i)); err != nil {
			fail(st.Line, err.Error())
			return res
		}
	}
	lastOutput := ""
	for bi := 0; bi < len(st.Blocks); bi++ {
		if ctx.Err() != nil {
			fail(st.Line, ctx.Err().Error())
			break
		}
		b := &st.Blocks[bi]
		switch b.Kind {
		case Run:
			out, err := r.eval(ctx, r.widthFor(st, bi, r.widths.Output), b.Text)
			res.Blocks = append(res.Blocks, BlockResult{Block: b, Result: out, Err: err})
			lastOutput = out.Transcript
			switch {
			case b.Throws && err == nil:
				fail(b.Line, r.say(msgShouldThrow, nil))
			case !b.Throws && err != nil:
				fail(b.Line, r.say(msgRunFailed, map[string]any{"Err": errText(err)}))
			}
		case Compare:
			j := bi
			for j < len(st.Blocks) && st.Blocks[j].Kind == Compare && st.Blocks[j].Group == b.Group {
				j++
			}
			br := BlockResult{Block: b}
			var texts []string
			for k := bi; k < j; k++ {
				v := r.runVariant(ctx, &st.Blocks[k], r.widthFor(st, j-1, r.widths.Variant))
				if v.Err != nil {
					fail(st.Blocks[k].Line, r.say(msgVariantFailed, map[string]any{"Label": v.Label, "Err": errText(v.Err)}))
				}
				br.Variants = append(br.Variants, v)
				texts = append(texts, v.Result.Transcript)
			}
			res.Blocks = append(res.Blocks, br)
			lastOutput = strings.Join(texts, "")
			bi = j - 1
		case ExpectOutput:
			if mode == modeReplay {
				continue
			}
			ok := MatchFragment(lastOutput, b.Text)
			br := BlockResult{Block: b, Passed: ok}
			if !ok {
				br.Message = r.say(msgOutputMissing, map[string]any{"Fragment": b.Text})
				failExpect(b.Line, r.say(msgOutputMissingFull, map[string]any{"Fragment": b.Text, "Output": strings.TrimRight(lastOutput, "\n")}))
			}
			res.Blocks = append(res.Blocks, br)
		case ExpectJS:
			if mode == modeReplay {
				continue
			}
			v, out := r.predicate(ctx, b, predicateInput{output: lastOutput})
			br := BlockResult{Block: b, Result: out, Passed: v.Pass, Message: v.Message}
			if !v.Pass {
				if v.Threw != "" {
					failExpect(v.Line, r.say(msgPredicateThrew, map[string]any{"Err": v.Threw}))
				} else {
					failExpect(b.Line, r.say(msgPredicateFailed, map[string]any{"Message": v.Message}))
				}
			}
			res.Blocks = append(res.Blocks, br)
		}
	}
	if res.codeOK() && ctx.Err() == nil {
		if err := r.saveOnce(ctx, stateBefore(i+1)); err != nil {
			fail(st.Line, err.Error())
		} else if err := r.shareState(ctx, stateBefore(i+1)); err != nil {
			fail(st.Line, err.Error())
		} else {
			r.live = liveState{state: stateBefore(i + 1), step: i}
		}
	}
	res.Elapsed = time.Since(start)
	return res
}

var (
	msgNoStep            = &locale.Message{ID: "run.noStep", Other: "lesson {{.Lesson}} has no step {{.N}}"}
	msgSetupFailed       = &locale.Message{ID: "run.setupFailed", Other: "setup failed: {{.Err}}"}
	msgShouldThrow       = &locale.Message{ID: "run.shouldThrow", Other: "this block should end in an error, but it ran without one"}
	msgRunFailed         = &locale.Message{ID: "run.failed", Other: "run block failed: {{.Err}}"}
	msgVariantFailed     = &locale.Message{ID: "run.variantFailed", Other: `compare variant "{{.Label}}" failed: {{.Err}}`}
	msgOutputMissing     = &locale.Message{ID: "run.outputMissing", Other: "expected output not found:\n{{.Fragment}}"}
	msgOutputMissingFull = &locale.Message{ID: "run.outputMissingFull", Other: "expected output not found.\n--- expected fragment:\n{{.Fragment}}\n--- actual output:\n{{.Output}}"}
	msgPredicateThrew    = &locale.Message{ID: "run.predicateThrew", Other: "expect predicate threw: {{.Err}}"}
	msgPredicateFailed   = &locale.Message{ID: "run.predicateFailed", Other: "expect predicate failed: {{.Message}}"}
)

func hasSetup(st *Step) bool { return len(st.Code(Setup)) > 0 }

// MatchFragment reports whether the lines of fragment appear as consecutive
// lines of output. Trailing spaces are ignored, leading blank lines of the
// fragment too, and "..." inside a fragment line matches any text on that
// line (ObjectIds, timings).
func MatchFragment(output, fragment string) bool {
	want := trimBlank(strings.Split(fragment, "\n"))
	if len(want) == 0 {
		return true
	}
	pats := make([]*regexp.Regexp, len(want))
	for i, w := range want {
		parts := strings.Split(strings.TrimRight(w, " \t"), "...")
		for j := range parts {
			parts[j] = regexp.QuoteMeta(parts[j])
		}
		pats[i] = regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
	}
	got := strings.Split(output, "\n")
	for i := range got {
		got[i] = strings.TrimRight(got[i], " \t")
	}
	for start := 0; start+len(pats) <= len(got); start++ {
		ok := true
		for k, p := range pats {
			if !p.MatchString(got[start+k]) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func trimBlank(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func errText(err error) string {
	var ee *shell.EvalError
	if errors.As(err, &ee) {
		return ee.Text
	}
	return err.Error()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
