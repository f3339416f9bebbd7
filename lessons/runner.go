package lessons

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/shell"
)

// DefaultPrefix is put before a lesson's id to name its database.
const DefaultPrefix = "schemalab_"

// RunnerOptions configure a Runner.
type RunnerOptions struct {
	// Prefix of the lesson database name; "" means DefaultPrefix.
	Prefix string
	// Timeout bounds one block's evaluation; 0 means 60 s.
	Timeout time.Duration
	// ResetDB empties the lesson database before the lesson starts; nil
	// drops it through the client. The sandbox passes its own, which on a
	// shared server drops only databases schemalab created.
	ResetDB func(ctx context.Context, db string) error
	// HeapLimit caps the memory one block may take (shell.Options); 0
	// means the shell's default.
	HeapLimit int64
}

// Runner executes one lesson's steps in one shell session against the
// lesson's own database. Steps run in order: asking for a later step first
// replays the earlier ones (setup, run and compare blocks) so that the
// database is in the state the lesson expects. A Runner is not safe for
// concurrent use.
type Runner struct {
	client *mongo.Client
	lesson *Lesson
	opts   RunnerOptions
	sh     *shell.Shell
	next   int // the first step not yet run in this session
}

// NewRunner prepares a runner; nothing runs until Reset or RunStep.
func NewRunner(client *mongo.Client, l *Lesson, opts RunnerOptions) *Runner {
	if opts.Prefix == "" {
		opts.Prefix = DefaultPrefix
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 60 * time.Second
	}
	return &Runner{client: client, lesson: l, opts: opts}
}

// Lesson is the lesson this runner executes.
func (r *Runner) Lesson() *Lesson { return r.lesson }

// Database is the lesson's database name, <prefix><id>.
func (r *Runner) Database() string { return DatabaseName(r.opts.Prefix, r.lesson.ID) }

// DatabaseName names the database of lesson id.
func DatabaseName(prefix, id string) string {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	return prefix + id
}

// Next is the index of the first step not yet run in this session.
func (r *Runner) Next() int { return r.next }

// Reset drops the lesson database and starts a fresh shell session.
func (r *Runner) Reset(ctx context.Context) error {
	reset := r.opts.ResetDB
	if reset == nil {
		reset = func(ctx context.Context, db string) error { return ResetDatabase(ctx, r.client, db) }
	}
	if err := reset(ctx, r.Database()); err != nil {
		return err
	}
	sh, err := shell.New(r.client, r.Database(), shell.Options{Timeout: r.opts.Timeout, HeapLimit: r.opts.HeapLimit})
	if err != nil {
		return err
	}
	r.sh, r.next = sh, 0
	return nil
}

// ResetDatabase drops a lesson database.
func ResetDatabase(ctx context.Context, client *mongo.Client, name string) error {
	if err := client.Database(name).Drop(ctx); err != nil {
		return fmt.Errorf("reset database %s: %w", name, err)
	}
	return nil
}

// StepResult is what running one step produced.
type StepResult struct {
	Step  int
	Title string
	// Blocks holds one result per executable block, in document order
	// (setup first); expect blocks appear with their verdict.
	Blocks []BlockResult
	// Failures lists what went wrong: an unexpected error, a failed
	// expectation or, when checking, a failed reference solution.
	Failures []Failure
	Elapsed  time.Duration
}

// OK reports whether the step ran without failure.
func (s *StepResult) OK() bool { return len(s.Failures) == 0 }

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

// VariantResult is one side of a comparison.
type VariantResult struct {
	Label   string
	Block   *Block
	Result  shell.Result
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

// FigureLabels are the display names of the standard figure keys.
var FigureLabels = map[string]string{
	"keys": "keys examined", "docs": "docs examined", "ms": "ms",
	"dataBytes": "data bytes", "indexBytes": "index bytes", "updated": "docs updated",
	"storageBytes": "storage bytes",
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

// ensureSession starts the session if none is running.
func (r *Runner) ensureSession(ctx context.Context) error {
	if r.sh != nil {
		return nil
	}
	return r.Reset(ctx)
}

// catchUp brings the session to just before step i.
func (r *Runner) catchUp(ctx context.Context, i int) error {
	if i < 0 || i >= len(r.lesson.Steps) {
		return fmt.Errorf("lesson %s has no step %d", r.lesson.ID, i+1)
	}
	if r.sh == nil || i < r.next {
		if err := r.Reset(ctx); err != nil {
			return err
		}
	}
	for r.next < i {
		res := r.runStep(ctx, r.next, modeReplay)
		if !res.OK() {
			return fmt.Errorf("%s: replaying step %d %q: %s", r.lesson.ID, r.next+1, r.lesson.Steps[r.next].Title, res.Failures[0])
		}
		r.next++
	}
	return nil
}

// RunStep runs step i (0-based) and returns its results, evaluating its
// expect blocks. Earlier steps are replayed first when needed.
func (r *Runner) RunStep(ctx context.Context, i int) (*StepResult, error) {
	if err := r.catchUp(ctx, i); err != nil {
		return nil, err
	}
	res := r.runStep(ctx, i, modeShow)
	r.next = i + 1
	return res, ctx.Err()
}

// CheckStep runs step i like RunStep and, for an exercise, also runs the
// reference solution and its check: what `schemalab run --check` does.
func (r *Runner) CheckStep(ctx context.Context, i int) (*StepResult, error) {
	if err := r.catchUp(ctx, i); err != nil {
		return nil, err
	}
	res := r.runStep(ctx, i, modeCheck)
	r.next = i + 1
	return res, ctx.Err()
}

// Eval runs free-form code in the lesson's session, e.g. a learner's
// edit of a run block.
func (r *Runner) Eval(ctx context.Context, src string) (shell.Result, error) {
	if err := r.ensureSession(ctx); err != nil {
		return shell.Result{}, err
	}
	return r.sh.Eval(ctx, src)
}

// ExerciseResult is the verdict on one attempt at an exercise.
type ExerciseResult struct {
	Passed bool
	// Message explains a failure (the check's own words when it gave any).
	Message string
	// Attempt is the learner's code's result; Check is the check's.
	Attempt shell.Result
	Check   shell.Result
	// Err is the error the learner's code threw, if any.
	Err error
}

// TryExercise runs the learner's code for the exercise of step i, then
// the exercise's check. The step's setup blocks run again first, so every
// attempt starts from the same data. Recording the attempt is the caller's
// job (Store.RecordAttempt).
func (r *Runner) TryExercise(ctx context.Context, i int, code string) (*ExerciseResult, error) {
	if i < 0 || i >= len(r.lesson.Steps) || r.lesson.Steps[i].Exercise == nil {
		return nil, fmt.Errorf("step %d of %s is not an exercise", i+1, r.lesson.ID)
	}
	if r.sh == nil || r.next != i+1 {
		if _, err := r.RunStep(ctx, i); err != nil {
			return nil, err
		}
	} else {
		for _, b := range r.lesson.Steps[i].Code(Setup) {
			if _, err := r.sh.Eval(ctx, b.Text); err != nil {
				return nil, fmt.Errorf("%s step %d setup (line %d): %w", r.lesson.ID, i+1, b.Line, err)
			}
		}
	}
	return r.tryExercise(ctx, r.lesson.Steps[i].Exercise, code)
}

func (r *Runner) tryExercise(ctx context.Context, ex *Exercise, code string) (*ExerciseResult, error) {
	out := &ExerciseResult{}
	out.Attempt, out.Err = r.sh.Eval(ctx, code)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if out.Err != nil {
		out.Message = "your code stopped with an error: " + firstLine(errText(out.Err))
		return out, nil
	}
	passed, msg, res, err := r.predicate(ctx, ex.Check, out.Attempt.Transcript)
	out.Check = res
	if err != nil {
		out.Message = "the check stopped with an error: " + firstLine(errText(err))
		return out, nil
	}
	out.Passed, out.Message = passed, msg
	return out, nil
}

// predicate evaluates a check or expect predicate. The variable `output`
// holds the text the code before it printed. It passes when its last
// statement's value is true; a string value is a failure message.
func (r *Runner) predicate(ctx context.Context, src, output string) (bool, string, shell.Result, error) {
	lit, _ := json.Marshal(output)
	if _, err := r.sh.Eval(ctx, "var output = "+string(lit)+";"); err != nil {
		return false, "", shell.Result{}, err
	}
	res, err := r.sh.Eval(ctx, src)
	if err != nil {
		return false, "", res, err
	}
	if len(res.Outputs) == 0 {
		return false, "the check gave no verdict (its last statement must evaluate to true, false or a message)", res, nil
	}
	switch v := res.Outputs[len(res.Outputs)-1].Value.(type) {
	case bool:
		if v {
			return true, "", res, nil
		}
		return false, "not yet: the check returned false", res, nil
	case string:
		return false, v, res, nil
	default:
		return false, "the check returned " + res.Outputs[len(res.Outputs)-1].Text + ", not true", res, nil
	}
}

type runMode int

const (
	modeShow runMode = iota
	modeReplay
	modeCheck
)

func (r *Runner) runStep(ctx context.Context, i int, mode runMode) *StepResult {
	start := time.Now()
	st := &r.lesson.Steps[i]
	res := &StepResult{Step: i, Title: st.Title}
	fail := func(line int, format string, args ...any) {
		res.Failures = append(res.Failures, Failure{Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	failExpect := func(line int, format string, args ...any) {
		res.Failures = append(res.Failures, Failure{Line: line, Msg: fmt.Sprintf(format, args...), Expect: true})
	}
	// Setup comes first wherever it is written.
	for bi := range st.Blocks {
		b := &st.Blocks[bi]
		if b.Kind != Setup {
			continue
		}
		out, err := r.sh.Eval(ctx, b.Text)
		res.Blocks = append(res.Blocks, BlockResult{Block: b, Result: out, Err: err})
		if err != nil {
			fail(b.Line, "setup failed: %s", errText(err))
			res.Elapsed = time.Since(start)
			return res
		}
	}
	lastOutput := ""
	for bi := 0; bi < len(st.Blocks); bi++ {
		if ctx.Err() != nil {
			fail(st.Line, "%v", ctx.Err())
			break
		}
		b := &st.Blocks[bi]
		switch b.Kind {
		case Run:
			out, err := r.sh.Eval(ctx, b.Text)
			res.Blocks = append(res.Blocks, BlockResult{Block: b, Result: out, Err: err})
			lastOutput = out.Transcript
			switch {
			case b.Throws && err == nil:
				fail(b.Line, "this block should end in an error, but it ran without one")
			case !b.Throws && err != nil:
				fail(b.Line, "run block failed: %s", errText(err))
			}
		case Compare:
			j := bi
			for j < len(st.Blocks) && st.Blocks[j].Kind == Compare && st.Blocks[j].Group == b.Group {
				j++
			}
			br := BlockResult{Block: b}
			var texts []string
			for k := bi; k < j; k++ {
				v := r.runVariant(ctx, &st.Blocks[k])
				if v.Err != nil {
					fail(st.Blocks[k].Line, "compare variant %q failed: %s", v.Label, errText(v.Err))
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
				br.Message = "expected output not found:\n" + b.Text
				failExpect(b.Line, "expected output not found.\n--- expected fragment:\n%s\n--- actual output:\n%s", b.Text, strings.TrimRight(lastOutput, "\n"))
			}
			res.Blocks = append(res.Blocks, br)
		case ExpectJS:
			if mode == modeReplay {
				continue
			}
			ok, msg, out, err := r.predicate(ctx, b.Text, lastOutput)
			br := BlockResult{Block: b, Result: out, Err: err, Passed: ok && err == nil, Message: msg}
			if err != nil {
				br.Message = errText(err)
				failExpect(b.Line, "expect predicate threw: %s", errText(err))
			} else if !ok {
				failExpect(b.Line, "expect predicate failed: %s", msg)
			}
			res.Blocks = append(res.Blocks, br)
		}
	}
	if mode == modeCheck && st.Exercise != nil && len(res.Failures) == 0 {
		ex, err := r.tryExercise(ctx, st.Exercise, st.Exercise.Solution)
		switch {
		case err != nil:
			fail(st.Exercise.Line, "exercise: %v", err)
		case !ex.Passed:
			fail(st.Exercise.Line, "the reference solution does not pass the check: %s", ex.Message)
		}
		if ex != nil {
			res.Blocks = append(res.Blocks, BlockResult{Block: exerciseBlock(st), Result: ex.Attempt, Err: ex.Err, Passed: ex.Passed, Message: ex.Message})
		}
	}
	res.Elapsed = time.Since(start)
	return res
}

func exerciseBlock(st *Step) *Block {
	for i := range st.Blocks {
		if st.Blocks[i].Kind == ExerciseSolution {
			return &st.Blocks[i]
		}
	}
	return nil
}

// runVariant runs one comparison variant and gathers its figures: keys and
// documents examined and milliseconds from the explain output, documents
// updated from write results, bytes from collStats, and any figures
// expression the author gave.
func (r *Runner) runVariant(ctx context.Context, b *Block) VariantResult {
	v := VariantResult{Label: b.Variant.Label, Block: b}
	v.Result, v.Err = r.sh.Eval(ctx, b.Text)
	if v.Err != nil {
		return v
	}
	if len(v.Result.Metrics) > 0 {
		var keys, docs, ms int64
		for _, m := range v.Result.Metrics {
			keys += m.KeysExamined
			docs += m.DocsExamined
			ms += m.Millis
		}
		v.Figures = append(v.Figures, Figure{"keys", float64(keys)}, Figure{"docs", float64(docs)}, Figure{"ms", float64(ms)})
	}
	if fs, ok := figuresDocument(v.Result.Outputs); ok {
		for _, f := range fs {
			v.Figures = setFigure(v.Figures, f.Key, f.Value)
		}
	}
	if n, ok := modifiedCount(v.Result.Outputs); ok {
		v.Figures = append(v.Figures, Figure{"updated", float64(n)})
	}
	if c := b.Variant.Collection; c != "" {
		data, index, err := r.collectionBytes(ctx, c)
		if err != nil {
			v.Err = err
			return v
		}
		v.Figures = append(v.Figures, Figure{"dataBytes", float64(data)}, Figure{"indexBytes", float64(index)})
	}
	if expr := b.Variant.Figures; expr != "" {
		res, err := r.sh.Eval(ctx, "("+expr+")")
		if err != nil {
			v.Err = fmt.Errorf("figures expression: %w", err)
			return v
		}
		if len(res.Outputs) > 0 {
			d, ok := res.Outputs[len(res.Outputs)-1].Value.(bson.D)
			if !ok {
				v.Err = fmt.Errorf("figures expression must return a document, got %s", res.Outputs[len(res.Outputs)-1].Text)
				return v
			}
			for _, e := range d {
				n, ok := number(e.Value)
				if !ok {
					continue
				}
				v.Figures = setFigure(v.Figures, e.Key, n)
			}
		}
	}
	return v
}

// figuresDocument reads a variant's last value as figures when it is a
// document of numbers with at least one standard figure key, such as
// { keys: 720, docs: 720, ms: 1 }.
func figuresDocument(outs []shell.Output) ([]Figure, bool) {
	if len(outs) == 0 {
		return nil, false
	}
	d, ok := outs[len(outs)-1].Value.(bson.D)
	if !ok || len(d) == 0 {
		return nil, false
	}
	var fs []Figure
	standard := false
	for _, e := range d {
		n, ok := number(e.Value)
		if !ok {
			return nil, false
		}
		if _, ok := FigureLabels[e.Key]; ok {
			standard = true
		}
		fs = append(fs, Figure{e.Key, n})
	}
	return fs, standard
}

func setFigure(fs []Figure, key string, val float64) []Figure {
	for i := range fs {
		if fs[i].Key == key {
			fs[i].Value = val
			return fs
		}
	}
	return append(fs, Figure{key, val})
}

// modifiedCount sums modifiedCount and upsertedCount over write results.
func modifiedCount(outs []shell.Output) (int64, bool) {
	var total int64
	found := false
	for _, o := range outs {
		d, ok := o.Value.(bson.D)
		if !ok {
			continue
		}
		for _, e := range d {
			if e.Key == "modifiedCount" || e.Key == "upsertedCount" {
				if n, ok := number(e.Value); ok {
					total += int64(n)
					found = true
				}
			}
		}
	}
	return total, found
}

func (r *Runner) collectionBytes(ctx context.Context, coll string) (int64, int64, error) {
	var stats bson.D
	err := r.client.Database(r.Database()).RunCommand(ctx, bson.D{{Key: "collStats", Value: coll}}).Decode(&stats)
	if err != nil {
		return 0, 0, fmt.Errorf("collStats %s: %w", coll, err)
	}
	var data, index float64
	for _, e := range stats {
		switch e.Key {
		case "size":
			data, _ = number(e.Value)
		case "totalIndexSize":
			index, _ = number(e.Value)
		}
	}
	return int64(data), int64(index), nil
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case int32:
		return float64(x), true
	case int64:
		return float64(x), true
	case float64:
		return x, !math.IsNaN(x)
	case shell.Int32Value:
		return float64(x), true
	case int:
		return float64(x), true
	}
	return 0, false
}

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
