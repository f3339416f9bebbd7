package tui

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/lessons"
)

// session is the TUI's one link to the lessons package: a lesson, its
// runner and the progress store. Every run goes through here as a
// tea.Cmd, so adapting to a change in the runner's API happens in this
// file only. The app allows one run at a time because a Runner is not
// safe for concurrent use.
type session struct {
	lesson *lessons.Lesson
	runner *lessons.Runner
	store  *lessons.Store
	// client is the backend's driver client, for the read-only look-ups
	// the pictures need (a bucket's full samples); nil in some tests.
	client *mongo.Client
	// nextLesson and nextTitle name the lesson the completion screen offers.
	nextLesson, nextTitle string
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

// solution asks the store for the reference solution; explicit records
// that the learner asked for it.
func (s *session) solution(i int) (string, error) {
	if s.store == nil {
		return s.lesson.Steps[i].Exercise.Solution, nil
	}
	return s.store.Solution(s.lesson, i, true)
}

func done(seq int, kind runKind, lesson string, step int, start time.Time, fill func(*runDoneMsg)) tea.Msg {
	m := runDoneMsg{seq: seq, kind: kind, lesson: lesson, step: step}
	fill(&m)
	m.elapsed = time.Since(start)
	return m
}

// runStepCmd runs step i (replaying earlier ones when needed).
func (s *session) runStepCmd(ctx context.Context, seq, i int) tea.Cmd {
	r, l, c := s.runner, s.lesson, s.client
	return func() tea.Msg {
		start := time.Now()
		res, err := r.RunStep(ctx, i)
		var t *treeData
		var samples map[outputRef]bson.A
		if err == nil && res != nil {
			t = readTree(ctx, r, &l.Steps[i], res)
			samples = bucketSamples(ctx, c, r.Database(), &l.Steps[i], res)
		}
		return done(seq, runStep, l.ID, i, start, func(m *runDoneMsg) { m.res, m.err, m.tree, m.samples = res, err, t, samples })
	}
}

// exerciseCmd runs the learner's code and the exercise's check.
func (s *session) exerciseCmd(ctx context.Context, seq, i int, code string) tea.Cmd {
	r, id := s.runner, s.lesson.ID
	return func() tea.Msg {
		start := time.Now()
		res, err := r.TryExercise(ctx, i, code)
		return done(seq, runExercise, id, i, start, func(m *runDoneMsg) { m.ex, m.err, m.src = res, err, code })
	}
}

// shellCmd evaluates scratch-shell input in the lesson's session, on the
// database as the lesson left it.
func (s *session) shellCmd(ctx context.Context, seq, i int, src string) tea.Cmd {
	r, id := s.runner, s.lesson.ID
	return func() tea.Msg {
		start := time.Now()
		res, err := r.Eval(ctx, src)
		return done(seq, runShell, id, i, start, func(m *runDoneMsg) { m.eval, m.err, m.src = res, err, src })
	}
}

// editedCmd runs the learner's edit of step i's code from the state just
// before step i, so an edit behaves like the original would.
func (s *session) editedCmd(ctx context.Context, seq, i int, src string) tea.Cmd {
	r, l, id := s.runner, s.lesson, s.lesson.ID
	return func() tea.Msg {
		start := time.Now()
		fill := func(m *runDoneMsg) { m.src = src }
		var err error
		if r.Next() != i {
			if i == 0 {
				err = r.Reset(ctx)
			} else {
				_, err = r.RunStep(ctx, i-1)
			}
		}
		for _, b := range l.Steps[i].Code(lessons.Setup) {
			if err != nil {
				break
			}
			_, err = r.Eval(ctx, b.Text)
		}
		if err != nil {
			return done(seq, runEdited, id, i, start, func(m *runDoneMsg) { fill(m); m.err = err })
		}
		res, err := r.Eval(ctx, src)
		return done(seq, runEdited, id, i, start, func(m *runDoneMsg) { fill(m); m.eval, m.err = res, err })
	}
}

// resetCmd drops the lesson database and forgets its progress.
func (s *session) resetCmd(ctx context.Context, seq int) tea.Cmd {
	r, st, id := s.runner, s.store, s.lesson.ID
	return func() tea.Msg {
		start := time.Now()
		err := r.Reset(ctx)
		if err == nil && st != nil {
			err = st.ResetLesson(id)
		}
		return done(seq, runReset, id, 0, start, func(m *runDoneMsg) { m.err = err })
	}
}

// aggregatePattern recognizes a step whose code is one aggregate([...])
// call on a collection: the only shape a stage preview can take apart.
var aggregatePattern = regexp.MustCompile(`^\s*(db(?:\.[A-Za-z_$][\w$]*|\.getCollection\(\s*(?:'[^']*'|"[^"]*")\s*\))+)\.aggregate\(\s*(\[[\s\S]*\])\s*\)\s*;?\s*$`)

// pipelineOf returns the collection expression and the pipeline source of
// a single aggregate call, or ok=false.
func pipelineOf(code string) (coll, pipeline string, ok bool) {
	code = stripLineComments(code)
	m := aggregatePattern.FindStringSubmatch(code)
	if m == nil || strings.Count(code, ".aggregate(") != 1 {
		return "", "", false
	}
	return m[1], m[2], true
}

func stripLineComments(code string) string {
	var out []string
	for _, line := range strings.Split(code, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "//") {
			continue
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}

// stageCode is the step's single aggregate, or "".
func stageCode(st *lessons.Step) string {
	runs := st.Code(lessons.Run)
	if len(runs) != 1 {
		return ""
	}
	if _, _, ok := pipelineOf(runs[0].Text); !ok {
		return ""
	}
	return runs[0].Text
}

// stageCmd shows the output after stage k of step i's pipeline: the
// pipeline is evaluated once by the shell, then cut with slice(), so no
// JavaScript is parsed here.
func (s *session) stageCmd(ctx context.Context, seq, i, k int) tea.Cmd {
	r, id := s.runner, s.lesson.ID
	code := stageCode(&s.lesson.Steps[i])
	return func() tea.Msg {
		start := time.Now()
		coll, pipeline, _ := pipelineOf(code)
		var err error
		if r.Next() != i+1 {
			_, err = r.RunStep(ctx, i)
		}
		var names []string
		if err == nil {
			var res = struct{ printed string }{}
			out, e := r.Eval(ctx, "var __schemalabStages = ("+pipeline+");\nprint(__schemalabStages.map(s => Object.keys(s)[0]).join('\\n'))")
			err, res.printed = e, out.Printed
			names = strings.Split(strings.TrimRight(res.printed, "\n"), "\n")
		}
		if err != nil {
			return done(seq, runStage, id, i, start, func(m *runDoneMsg) { m.err = err })
		}
		k = min(max(k, 0), len(names)-1)
		out, err := r.Eval(ctx, fmt.Sprintf("%s.aggregate(__schemalabStages.slice(0, %d))", coll, k+1))
		return done(seq, runStage, id, i, start, func(m *runDoneMsg) {
			m.eval, m.err, m.stage, m.stages = out, err, k, names
		})
	}
}
