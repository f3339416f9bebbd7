package tui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/schemalab/schemalab/lessons"
)

// session is the TUI's one link to the lessons package: a lesson, its
// runner (which owns the lesson's client, shell and snapshots) and the
// progress store. Every run goes through here as a tea.Cmd, so adapting
// to a change in the runner's API happens in this file only. The app
// allows one run at a time because a Runner is not safe for concurrent
// use.
type session struct {
	lesson *lessons.Lesson
	runner *lessons.Runner
	store  *lessons.Store
	// nextLesson and nextTitle name the lesson the completion screen offers.
	nextLesson, nextTitle string
	// retired is set when the learner left the lesson while a run was in
	// flight: the runner is closed when that run ends.
	retired bool
	// observe is Options.OnActivity.
	observe func(Activity)
}

func (s *session) stepID(i int) string { return s.lesson.Steps[i].ID }

// progress returns the stored progress (zero without a store).
func (s *session) progress() lessons.LessonProgress {
	if s.store == nil {
		return lessons.LessonProgress{}
	}
	return s.store.Lesson(s.lesson.ID)
}

func (s *session) setCurrent(i int) error {
	defer s.notify(ActivityMoved, i, false)
	if s.store == nil {
		return nil
	}
	return s.store.SetCurrent(s.lesson.ID, s.stepID(i))
}

func (s *session) markDone(i int) error {
	defer s.notify(ActivityRan, i, false)
	if s.store == nil {
		return nil
	}
	return s.store.MarkDone(s.lesson.ID, s.stepID(i))
}

func (s *session) recordAttempt(i int, passed bool) error {
	defer s.notify(ActivityAttempt, i, passed)
	if s.store == nil {
		return nil
	}
	_, err := s.store.RecordAttempt(s.lesson.ID, s.stepID(i), passed)
	return err
}

// saveDraft keeps the editor's code of exercise i across quits.
func (s *session) saveDraft(i int, code string) error {
	if s.store == nil {
		return nil
	}
	return s.store.SaveDraft(s.lesson.ID, s.stepID(i), code)
}

// setHints records how many hints of exercise i are revealed.
func (s *session) setHints(i, n int) error {
	if s.store == nil {
		return nil
	}
	return s.store.SetHints(s.lesson.ID, s.stepID(i), n)
}

// solution asks the store for the reference solution; explicit records
// that the learner asked for it.
func (s *session) solution(i int) (string, error) {
	if s.store == nil {
		return s.lesson.Steps[i].Exercise.Solution, nil
	}
	return s.store.Solution(s.lesson, i, true)
}

func (s *session) done(seq int, kind runKind, step int, start time.Time, fill func(*runDoneMsg)) tea.Msg {
	m := runDoneMsg{seq: seq, kind: kind, sess: s, lesson: s.lesson.ID, step: step}
	fill(&m)
	m.notes = s.runner.Notes()
	m.elapsed = time.Since(start)
	return m
}

// runStepCmd runs step i from the state the steps before it leave.
func (s *session) runStepCmd(ctx context.Context, seq, i int) tea.Cmd {
	r := s.runner
	return func() tea.Msg {
		start := time.Now()
		res, err := r.RunStep(ctx, i)
		var pics *lessons.Pictures
		if err == nil {
			pics = r.Pictures(ctx, i, res)
		}
		return s.done(seq, runStep, i, start, func(m *runDoneMsg) { m.res, m.err, m.pics = res, err, pics })
	}
}

// exerciseCmd runs the learner's code and the exercise's check.
func (s *session) exerciseCmd(ctx context.Context, seq, i int, code string) tea.Cmd {
	r := s.runner
	return func() tea.Msg {
		start := time.Now()
		res, err := r.TryExercise(ctx, i, code)
		return s.done(seq, runExercise, i, start, func(m *runDoneMsg) { m.ex, m.err, m.src = res, err, code })
	}
}

// shellCmd evaluates scratch-shell input on the lesson's state at step i.
func (s *session) shellCmd(ctx context.Context, seq, i int, src string) tea.Cmd {
	r := s.runner
	return func() tea.Msg {
		start := time.Now()
		res, err := r.Eval(ctx, i, src)
		return s.done(seq, runShell, i, start, func(m *runDoneMsg) { m.out, m.err, m.src = res.Transcript, err, src })
	}
}

// editedCmd runs the learner's edit of step i's code from the state the
// step's own code starts from.
func (s *session) editedCmd(ctx context.Context, seq, i int, src string) tea.Cmd {
	r := s.runner
	return func() tea.Msg {
		start := time.Now()
		res, err := r.RunEdited(ctx, i, src)
		return s.done(seq, runEdited, i, start, func(m *runDoneMsg) { m.out, m.err, m.src = res.Transcript, err, src })
	}
}

// resetCmd empties the lesson database and forgets its progress.
func (s *session) resetCmd(ctx context.Context, seq int) tea.Cmd {
	r, st, id := s.runner, s.store, s.lesson.ID
	return func() tea.Msg {
		start := time.Now()
		err := r.Reset(ctx)
		if err == nil && st != nil {
			err = st.ResetLesson(id)
		}
		return s.done(seq, runReset, 0, start, func(m *runDoneMsg) { m.err = err })
	}
}

// resetExerciseCmd starts exercise i over: the database as attempts find
// it, and the starter code in place of the learner's draft.
func (s *session) resetExerciseCmd(ctx context.Context, seq, i int) tea.Cmd {
	r, st, id, step := s.runner, s.store, s.lesson.ID, s.stepID(i)
	return func() tea.Msg {
		start := time.Now()
		starter, err := r.ResetExercise(ctx, i)
		if err == nil && st != nil {
			err = st.ForgetDraft(id, step)
		}
		return s.done(seq, runResetExercise, i, start, func(m *runDoneMsg) { m.src, m.err = starter, err })
	}
}

// stageCmd shows the output after stage k of step i's pipeline.
func (s *session) stageCmd(ctx context.Context, seq, i, k int) tea.Cmd {
	r := s.runner
	return func() tea.Msg {
		start := time.Now()
		p, err := r.PreviewStage(ctx, i, k)
		return s.done(seq, runStage, i, start, func(m *runDoneMsg) {
			m.err = err
			if p != nil {
				m.out, m.stage, m.stages = p.Result.Transcript, p.Stage, p.Names
			}
		})
	}
}
