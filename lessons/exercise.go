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
	msgDataShape      = &locale.Message{ID: "exercise.dataShape", Other: "The check could not read the data your code left: it is not in the shape this exercise expects ({{.Err}}). Compare it with the task, or start the exercise over."}
	msgStarterPasses  = &locale.Message{ID: "exercise.starterPasses", Other: "the exercise passes with its starter code untouched: the check must fail until the learner solves it"}
)

// timeoutForRestore bounds the restore after an interrupted attempt,
// which runs on a context of its own since the attempt's is cancelled.
const timeoutForRestore = 5 * time.Second

// attemptOutcome is the verdict on one attempt at an exercise.
type attemptOutcome struct {
	passed  bool
	message string
	// out and err are the learner's code's result and the error it
	// threw, if any; commands are what it sent.
	out      shell.Result
	err      error
	commands []Command
	// threw is the error the check itself threw, "" when it gave a
	// verdict.
	threw string
}

// exercise returns the exercise of step i, or an error.
func (g *grader) exercise(i int) (*Exercise, error) {
	l := g.st.lesson
	if i < 0 || i >= len(l.Steps) || l.Steps[i].Exercise == nil {
		return nil, errors.New(g.st.say(msgNotExercise, map[string]any{"N": i + 1, "Lesson": l.ID}))
	}
	return l.Steps[i].Exercise, nil
}

// tryExercise runs the learner's code for the exercise of step i, then
// the exercise's check. Every attempt starts from the same state, the one
// the step's own code leaves, restored from its snapshot: nothing an
// earlier attempt or the scratch shell did carries over. The reference
// solution's result is kept as the goal the attempt is compared with.
// Recording the attempt is the caller's job (Store.RecordAttempt).
func (g *grader) tryExercise(ctx context.Context, i int, code string, res *Result) error {
	ex, err := g.exercise(i)
	if err != nil {
		return err
	}
	if _, ok := g.goals[i]; !ok {
		// The goal is the room's when the attempt starts from the room's
		// state: its reference solution ran once for everyone.
		if err := g.st.ensureBefore(ctx, i+1); err != nil {
			return err
		}
		if tg, ok := g.st.goalFor(ctx, i); ok {
			g.goals[i], g.solved[i] = tg.want, tg.solved
		} else {
			goal, solved, err := g.computeGoal(ctx, i)
			if err != nil {
				return err
			}
			g.goals[i], g.solved[i] = goal, solved
		}
	}
	out, err := g.attempt(ctx, i, ex, code)
	if err != nil {
		return err
	}
	res.Statements = statements(code, &out.out, out.err)
	res.Passed, res.Message, res.Commands = out.passed, out.message, out.commands
	if out.threw != "" && out.err == nil && g.solved[i] {
		// The reference solution passes this check, so a check that
		// throws on an attempt met data the attempt reshaped: say that,
		// never where in the lesson file the check stopped. A check
		// that fails its own solution is the author's bug, and keeps
		// its file and line, as run --check gives them.
		res.Message = g.st.say(msgDataShape, map[string]any{"Err": firstLine(out.threw)})
	}
	if goal := g.goals[i]; goal != nil {
		res.Goal = g.compareGoal(ctx, goal, out.commands, out.passed)
	}
	return nil
}

// attempt runs code and the check from the state the exercise starts
// from, recording the commands code sends.
func (g *grader) attempt(ctx context.Context, i int, ex *Exercise, code string) (*attemptOutcome, error) {
	st := g.st
	base := StateBefore(i + 1)
	if err := st.ensureBefore(ctx, i+1); err != nil {
		return nil, err
	}
	st.live = liveState{step: i}
	out := &attemptOutcome{}
	st.rec.start(false)
	defer st.rec.stop()
	if code != "" {
		out.out, out.err = st.sh.Eval(ctx, code)
	}
	out.commands = st.rec.since(0)
	if ctx.Err() != nil {
		st.rec.stop()
		st.settle(ctx, base)
		return nil, ctx.Err()
	}
	if errors.Is(out.err, shell.ErrTimeout) {
		st.rec.stop()
		st.settle(ctx, base)
		out.message = st.say(msgYourCodeFailed, map[string]any{"Err": firstLine(errText(out.err))})
		return out, nil
	}
	rec := &attemptRecord{output: out.out.Transcript, err: out.err, commands: out.commands}
	if n := len(out.out.Outputs); n > 0 {
		rec.value, rec.valueText = out.out.Outputs[n-1].Value, out.out.Outputs[n-1].Text
	}
	explained := ""
	defer func() {
		if explained != "" {
			g.dropScratch(ctx, explained)
		}
	}()
	explain := func(k int) (string, error) {
		db, err := g.beforeAttemptDB(ctx, base, &explained)
		if err != nil {
			return "", err
		}
		return g.explainCommand(ctx, db, k)
	}
	v, _ := g.predicate(ctx, checkBlock(st.lesson.Steps[i]), predicateInput{output: rec.output, attempt: rec, explain: explain})
	if ctx.Err() != nil {
		st.rec.stop()
		st.settle(ctx, base)
		return nil, ctx.Err()
	}
	out.passed, out.message, out.threw = v.Pass, v.Message, v.Threw
	if out.err != nil && !v.errorSeen {
		out.passed = false
		out.message = st.say(msgYourCodeFailed, map[string]any{"Err": firstLine(errText(out.err))})
	}
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
func (g *grader) beforeAttemptDB(ctx context.Context, base string, made *string) (string, error) {
	if g.st.snapshots != snapshotsOn {
		if *made == "" {
			*made = "-"
			g.st.note(g.st.say(msgExplainAsLeft, nil))
		}
		return g.st.database(), nil
	}
	if *made == "" {
		db := beforeAttemptDatabase(g.st.database())
		if err := g.st.restoreInto(ctx, base, db); err != nil {
			return "", fmt.Errorf("copy the state before the attempt: %w", err)
		}
		*made = db
	}
	return *made, nil
}

func (g *grader) dropScratch(ctx context.Context, db string) {
	if db == "-" || db == g.st.database() {
		return
	}
	was := g.st.rec.pause()
	defer g.st.rec.resume(was)
	_ = g.st.client.Database(db).Drop(context.WithoutCancel(ctx))
}

// explainCommand re-runs recorded read k with explain on database db and
// returns its executionStats as Extended JSON.
func (g *grader) explainCommand(ctx context.Context, db string, k int) (string, error) {
	c, ok := g.st.rec.command(k)
	if !ok || !c.IsRead() {
		return "", fmt.Errorf("explain: command %d is not a read", k)
	}
	cmd := explainable(c.Name, c.raw)
	was := g.st.rec.pause()
	defer g.st.rec.resume(was)
	var reply bson.D
	err := g.st.client.Database(db).RunCommand(ctx, bson.D{{Key: "explain", Value: cmd}, {Key: "verbosity", Value: "executionStats"}}).Decode(&reply)
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

// resetExercise starts the exercise of step i over: the session returns
// to the state attempts start from. It returns the starter code, which
// the caller puts back in the editor (and the draft store forgets).
func (g *grader) resetExercise(ctx context.Context, i int) (string, error) {
	ex, err := g.exercise(i)
	if err != nil {
		return "", err
	}
	if err := g.st.ensureBefore(ctx, i+1); err != nil {
		return "", err
	}
	g.st.live.step = i
	return ex.Starter, nil
}

// guardExercise proves, for `run --check`, what an instructor relies on:
// the reference solution passes its check twice in a row from the same
// restored state (so it is deterministic), and the starter code fails it
// (so the exercise cannot be passed untouched). It returns the step's
// blocks and failures with the solution's and the guard's.
func (g *grader) guardExercise(ctx context.Context, i int, blocks []BlockResult, failures []Failure) ([]BlockResult, []Failure) {
	st := &g.st.lesson.Steps[i]
	ex := st.Exercise
	sol := solutionBlock(st)
	fail := func(line int, m *locale.Message, data map[string]any) {
		failures = append(failures, Failure{Line: line, Msg: g.st.say(m, data)})
	}
	for run := 1; run <= 2; run++ {
		out, err := g.attempt(ctx, i, ex, ex.Solution)
		switch {
		case err != nil:
			fail(sol.Line, msgGuardError, map[string]any{"Err": err.Error()})
			return blocks, failures
		case !out.passed && run == 1:
			fail(sol.Line, msgSolutionFails, map[string]any{"Message": out.message})
		case !out.passed:
			fail(sol.Line, msgSolutionFlaky, map[string]any{"Message": out.message})
		}
		if run == 1 {
			br := blockResult(sol, &out.out, out.err)
			br.Passed, br.Message = out.passed, out.message
			blocks = append(blocks, br)
			if !out.passed {
				return blocks, failures
			}
		}
	}
	out, err := g.attempt(ctx, i, ex, ex.Starter)
	switch {
	case err != nil:
		fail(ex.Line, msgStarterError, map[string]any{"Err": err.Error()})
	case out.passed:
		line := ex.Line
		if b := starterBlock(st); b != nil {
			line = b.Line
		}
		fail(line, msgStarterPasses, nil)
	}
	// Later steps start from the state the exercise's own code left.
	if err := g.st.ensureBefore(ctx, i+1); err != nil {
		failures = append(failures, Failure{Line: st.Line, Msg: err.Error()})
	}
	return blocks, failures
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
