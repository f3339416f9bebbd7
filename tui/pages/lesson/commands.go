package lesson

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/schemalab/schemalab/lessons"
)

// Every call into the lessons runner is made here, in a run's goroutine,
// and comes back as the message of its event. w is the width the run's
// outputs are laid out for: that of the pane they are shown in.

func runStepFn(r *lessons.Runner, i int, w lessons.Widths) func(context.Context, int) tea.Msg {
	return func(ctx context.Context, seq int) tea.Msg {
		r.SetWidths(w)
		start := time.Now()
		res, err := r.RunStep(ctx, i)
		var pics *lessons.Pictures
		if err == nil {
			pics = r.Pictures(ctx, i, res)
		}
		return StepRan{Seq: seq, Step: i, Result: res, Pictures: pics, Err: err, Elapsed: time.Since(start), Notes: r.Notes()}
	}
}

func checkFn(r *lessons.Runner, i int, code string, w lessons.Widths) func(context.Context, int) tea.Msg {
	return func(ctx context.Context, seq int) tea.Msg {
		r.SetWidths(w)
		start := time.Now()
		res, err := r.TryExercise(ctx, i, code)
		m := AttemptChecked{Seq: seq, Step: i, Code: code, Result: res, Err: err, Elapsed: time.Since(start)}
		if res != nil {
			m.Statements = lessons.Statements(code, res.Attempt, res.Err)
		}
		return m
	}
}

func editFn(r *lessons.Runner, i int, code string, w lessons.Widths) func(context.Context, int) tea.Msg {
	return func(ctx context.Context, seq int) tea.Msg {
		r.SetWidths(w)
		start := time.Now()
		res, err := r.RunEdited(ctx, i, code)
		return EditRan{Seq: seq, Step: i, Code: code, Statements: lessons.Statements(code, res, err), Err: err,
			Elapsed: time.Since(start), Notes: r.Notes()}
	}
}

func shellFn(r *lessons.Runner, i int, src string, w lessons.Widths) func(context.Context, int) tea.Msg {
	return func(ctx context.Context, seq int) tea.Msg {
		r.SetWidths(w)
		start := time.Now()
		res, err := r.Eval(ctx, i, src)
		return ShellEvaluated{Seq: seq, Step: i, Src: src, Statements: lessons.Statements(src, res, err), Err: err,
			Elapsed: time.Since(start), Notes: r.Notes()}
	}
}

func stagesFn(r *lessons.Runner, i int, src string, k int, w lessons.Widths) func(context.Context, int) tea.Msg {
	return func(ctx context.Context, seq int) tea.Msg {
		r.SetWidths(w)
		start := time.Now()
		p, err := r.PreviewStage(ctx, i, src, k)
		m := StagesPreviewed{Seq: seq, Step: i, Err: err, Elapsed: time.Since(start)}
		if p != nil {
			m.Stage, m.Names = p.Stage, p.Names
			m.Statements = lessons.Statements("", p.Result, err)
		}
		return m
	}
}

func resetFn(r *lessons.Runner, pr progress) func(context.Context, int) tea.Msg {
	return func(ctx context.Context, seq int) tea.Msg {
		err := r.Reset(ctx)
		if err == nil {
			err = pr.reset()
		}
		return LessonReset{Seq: seq, Err: err}
	}
}

func resetExerciseFn(r *lessons.Runner, pr progress, i int) func(context.Context, int) tea.Msg {
	return func(ctx context.Context, seq int) tea.Msg {
		starter, err := r.ResetExercise(ctx, i)
		if err == nil {
			err = pr.forgetDraft(i)
		}
		return ExerciseReset{Seq: seq, Step: i, Starter: starter, Err: err}
	}
}
