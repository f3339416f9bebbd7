package lessons

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox/shell"
)

var (
	msgNotExercise    = &locale.Message{ID: "exercise.notExercise", Other: "step {{.N}} of {{.Lesson}} is not an exercise"}
	msgYourCodeFailed = &locale.Message{ID: "exercise.yourCodeFailed", Other: "your code stopped with an error: {{.Err}}"}
	msgExplainAsLeft  = &locale.Message{ID: "exercise.explainAsLeft", Other: "attempt.explain: this server has no snapshots, so your code's reads are explained on the database as your code left it, not as it was before."}
	msgGuardError     = &locale.Message{ID: "exercise.guardError", Other: "exercise: {{.Err}}"}
	msgSolutionFails  = &locale.Message{ID: "exercise.solutionFails", Other: "the reference solution does not pass the check: {{.Message}}"}
	msgSolutionFlaky  = &locale.Message{ID: "exercise.solutionFlaky", Other: "the reference solution is not deterministic: it passed its check once, then failed it from the same state: {{.Message}}"}
	msgStarterError   = &locale.Message{ID: "exercise.starterError", Other: "exercise starter: {{.Err}}"}
	msgStarterPasses  = &locale.Message{ID: "exercise.starterPasses", Other: "the exercise passes with its starter code untouched: the check must fail until the learner solves it"}
)

// timeoutForRestore bounds the restore after an interrupted attempt,
// which runs on a context of its own since the attempt's is cancelled.
const timeoutForRestore = 5 * time.Second

// ExerciseResult is the verdict on one attempt at an exercise.
type ExerciseResult struct {
	Passed bool
	// Message is shown on success and on failure: the check's own words
	// (or what it printed), naming the first thing that is wrong.
	Message string
	// Attempt is the learner's code's result; Check is the check's.
	Attempt shell.Result
	Check   shell.Result
	// Err is the error the learner's code threw, if any.
	Err error
	// Commands are the commands the learner's code sent.
	Commands []Command
	// Goal compares the data the attempt left with what the reference
	// solution leaves; nil when the solution changes no data.
	Goal *GoalComparison
	// Notes are progress lines (a replay, an explain without snapshots).
	Notes []string
	// Elapsed is the attempt and its check, without the goal's first run.
	Elapsed time.Duration
}

// exercise returns the exercise of step i, or an error.
func (r *Runner) exercise(i int) (*Exercise, error) {
	if i < 0 || i >= len(r.lesson.Steps) || r.lesson.Steps[i].Exercise == nil {
		return nil, errors.New(r.say(msgNotExercise, map[string]any{"N": i + 1, "Lesson": r.lesson.ID}))
	}
	return r.lesson.Steps[i].Exercise, nil
}

// TryExercise runs the learner's code for the exercise of step i, then
// the exercise's check. Every attempt starts from the same state, the one
// the step's own code leaves, restored from its snapshot: nothing an
// earlier attempt or the scratch shell did carries over. The reference
// solution's result is kept as the goal the attempt is compared with.
// Recording the attempt is the caller's job (Store.RecordAttempt).
func (r *Runner) TryExercise(ctx context.Context, i int, code string) (*ExerciseResult, error) {
	ex, err := r.exercise(i)
	if err != nil {
		return nil, err
	}
	done, err := r.begin(ctx, i)
	if err != nil {
		return nil, err
	}
	defer done()
	if _, ok := r.goals[i]; !ok {
		g, err := r.computeGoal(ctx, i)
		if err != nil {
			return nil, err
		}
		r.goals[i] = g
	}
	out, err := r.attempt(ctx, i, ex, code)
	if err != nil {
		return nil, err
	}
	if g := r.goals[i]; g != nil {
		out.Goal = r.compareGoal(ctx, g, out.Commands)
	}
	out.Notes = r.notes
	return out, nil
}

// attempt runs code and the check from the state the exercise starts
// from, recording the commands code sends.
func (r *Runner) attempt(ctx context.Context, i int, ex *Exercise, code string) (*ExerciseResult, error) {
	base := stateBefore(i + 1)
	if err := r.ensureBefore(ctx, i+1); err != nil {
		return nil, err
	}
	start := time.Now()
	r.live = liveState{step: i}
	out := &ExerciseResult{}
	r.rec.start()
	defer r.rec.stop()
	if code != "" {
		out.Attempt, out.Err = r.sh.Eval(ctx, code)
	}
	out.Commands = r.rec.since(0)
	if ctx.Err() != nil {
		r.rec.stop()
		r.settle(ctx, base)
		return nil, ctx.Err()
	}
	if errors.Is(out.Err, shell.ErrTimeout) {
		r.rec.stop()
		r.settle(ctx, base)
		out.Message = r.say(msgYourCodeFailed, map[string]any{"Err": firstLine(errText(out.Err))})
		out.Elapsed = time.Since(start)
		return out, nil
	}
	rec := &attemptRecord{output: out.Attempt.Transcript, err: out.Err, commands: out.Commands}
	if n := len(out.Attempt.Outputs); n > 0 {
		rec.value, rec.valueText = out.Attempt.Outputs[n-1].Value, out.Attempt.Outputs[n-1].Text
	}
	explained := ""
	defer func() {
		if explained != "" {
			r.dropScratch(ctx, explained)
		}
	}()
	explain := func(k int) (string, error) {
		db, err := r.beforeAttemptDB(ctx, base, &explained)
		if err != nil {
			return "", err
		}
		return r.explainCommand(ctx, db, k)
	}
	v, res := r.predicate(ctx, checkBlock(r.lesson.Steps[i]), predicateInput{output: rec.output, attempt: rec, explain: explain})
	if ctx.Err() != nil {
		r.rec.stop()
		r.settle(ctx, base)
		return nil, ctx.Err()
	}
	out.Check, out.Passed, out.Message = res, v.Pass, v.Message
	if out.Err != nil && !v.errorSeen {
		out.Passed = false
		out.Message = r.say(msgYourCodeFailed, map[string]any{"Err": firstLine(errText(out.Err))})
	}
	out.Elapsed = time.Since(start)
	return out, nil
}

// checkBlock is the exercise's check block (for its line).
func checkBlock(st Step) *Block {
	for i := range st.Blocks {
		if st.Blocks[i].Kind == ExerciseCheck {
			return &st.Blocks[i]
		}
	}
	return &Block{Kind: ExerciseCheck, Text: st.Exercise.Check, Line: st.Exercise.Line}
}

// beforeAttemptDB is the database where an attempt's reads are explained:
// a copy of the state before the attempt (made once per attempt; its
// name is left in *made for dropping), or, on a server without
// snapshots, the lesson database as the attempt left it.
func (r *Runner) beforeAttemptDB(ctx context.Context, base string, made *string) (string, error) {
	if r.snapshots != snapshotsOn {
		if *made == "" {
			*made = "-"
			r.note(r.say(msgExplainAsLeft, nil))
		}
		return r.Database(), nil
	}
	if *made == "" {
		db := r.Database() + "__before"
		if err := r.restoreInto(ctx, base, db); err != nil {
			return "", fmt.Errorf("copy the state before the attempt: %w", err)
		}
		*made = db
	}
	return *made, nil
}

func (r *Runner) dropScratch(ctx context.Context, db string) {
	if db == "-" || db == r.Database() {
		return
	}
	was := r.rec.pause()
	defer r.rec.resume(was)
	_ = r.client.Database(db).Drop(context.WithoutCancel(ctx))
}

// explainCommand re-runs recorded read k with explain on database db and
// returns its executionStats as Extended JSON.
func (r *Runner) explainCommand(ctx context.Context, db string, k int) (string, error) {
	c, ok := r.rec.command(k)
	if !ok || !c.IsRead() {
		return "", fmt.Errorf("explain: command %d is not a read", k)
	}
	cmd := explainable(c.Name, c.raw)
	was := r.rec.pause()
	defer r.rec.resume(was)
	var reply bson.D
	err := r.client.Database(db).RunCommand(ctx, bson.D{{Key: "explain", Value: cmd}, {Key: "verbosity", Value: "executionStats"}}).Decode(&reply)
	if err != nil {
		return "", fmt.Errorf("explain %s: %w", c.Name, err)
	}
	stats := executionStats(reply)
	if stats == nil {
		return "", fmt.Errorf("explain %s: the server returned no executionStats", c.Name)
	}
	raw, err := bson.MarshalExtJSON(stats, true, false)
	return string(raw), err
}

// explainable is a recorded command as explain takes it: without the
// driver's envelope fields, and an aggregate without its final $out or
// $merge, which explain cannot run with executionStats and which is not
// the read being measured.
func explainable(name string, raw bson.Raw) bson.D {
	var cmd bson.D
	elems, _ := raw.Elements()
	for _, e := range elems {
		k := e.Key()
		switch {
		case len(k) > 0 && k[0] == '$', k == "lsid", k == "txnNumber", k == "autocommit", k == "startTransaction",
			k == "readConcern", k == "writeConcern", k == "apiVersion", k == "apiStrict", k == "apiDeprecationErrors":
			continue
		}
		cmd = append(cmd, bson.E{Key: k, Value: e.Value()})
	}
	if name != "aggregate" {
		return cmd
	}
	for i, e := range cmd {
		if e.Key != "pipeline" {
			continue
		}
		arr, ok := e.Value.(bson.RawValue).ArrayOK()
		if !ok {
			break
		}
		stages, _ := arr.Values()
		var kept bson.A
		for _, s := range stages {
			if d, ok := s.DocumentOK(); ok {
				if first, err := d.IndexErr(0); err == nil && (first.Key() == "$out" || first.Key() == "$merge") {
					continue
				}
			}
			kept = append(kept, s)
		}
		cmd[i].Value = kept
	}
	return cmd
}

// executionStats finds the executionStats of an explain reply: at the
// top, or in the first stage's $cursor of an aggregation.
func executionStats(reply bson.D) bson.D {
	if s, ok := lookup(reply, "executionStats").(bson.D); ok {
		return s
	}
	if stages, ok := lookup(reply, "stages").(bson.A); ok && len(stages) > 0 {
		if st, ok := stages[0].(bson.D); ok {
			if cur, ok := lookup(st, "$cursor").(bson.D); ok {
				s, _ := lookup(cur, "executionStats").(bson.D)
				return s
			}
		}
	}
	return nil
}

func lookup(d bson.D, key string) any {
	for _, e := range d {
		if e.Key == key {
			return e.Value
		}
	}
	return nil
}

// ResetExercise starts the exercise of step i over: the session returns
// to the state attempts start from. It returns the starter code, which
// the caller puts back in the editor (and the draft store forgets).
func (r *Runner) ResetExercise(ctx context.Context, i int) (string, error) {
	ex, err := r.exercise(i)
	if err != nil {
		return "", err
	}
	done, err := r.begin(ctx, i)
	if err != nil {
		return "", err
	}
	defer done()
	if err := r.ensureBefore(ctx, i+1); err != nil {
		return "", err
	}
	r.live.step = i
	return ex.Starter, nil
}

// guardExercise proves, for `run --check`, what an instructor relies on:
// the reference solution passes its check twice in a row from the same
// restored state (so it is deterministic), and the starter code fails it
// (so the exercise cannot be passed untouched).
func (r *Runner) guardExercise(ctx context.Context, i int, res *StepResult) {
	st := &r.lesson.Steps[i]
	ex := st.Exercise
	sol := solutionBlock(st)
	fail := func(line int, m *locale.Message, data map[string]any) {
		res.Failures = append(res.Failures, Failure{Line: line, Msg: r.say(m, data)})
	}
	for run := 1; run <= 2; run++ {
		out, err := r.attempt(ctx, i, ex, ex.Solution)
		switch {
		case err != nil:
			fail(sol.Line, msgGuardError, map[string]any{"Err": err.Error()})
			return
		case !out.Passed && run == 1:
			fail(sol.Line, msgSolutionFails, map[string]any{"Message": out.Message})
		case !out.Passed:
			fail(sol.Line, msgSolutionFlaky, map[string]any{"Message": out.Message})
		}
		if run == 1 {
			res.Blocks = append(res.Blocks, BlockResult{Block: sol, Result: out.Attempt, Err: out.Err, Passed: out.Passed, Message: out.Message})
			if !out.Passed {
				return
			}
		}
	}
	out, err := r.attempt(ctx, i, ex, ex.Starter)
	switch {
	case err != nil:
		fail(ex.Line, msgStarterError, map[string]any{"Err": err.Error()})
	case out.Passed:
		line := ex.Line
		if b := starterBlock(st); b != nil {
			line = b.Line
		}
		fail(line, msgStarterPasses, nil)
	}
	// Later steps start from the state the exercise's own code left.
	if err := r.ensureBefore(ctx, i+1); err != nil {
		res.Failures = append(res.Failures, Failure{Line: st.Line, Msg: err.Error()})
	}
}

func solutionBlock(st *Step) *Block {
	for i := range st.Blocks {
		if st.Blocks[i].Kind == ExerciseSolution {
			return &st.Blocks[i]
		}
	}
	return &Block{Kind: ExerciseSolution, Line: st.Exercise.Line}
}

func starterBlock(st *Step) *Block {
	for i := range st.Blocks {
		if st.Blocks[i].Kind == ExerciseStarter {
			return &st.Blocks[i]
		}
	}
	return nil
}
