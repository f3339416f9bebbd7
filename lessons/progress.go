package lessons

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/adrg/xdg"
)

// StateDirEnv overrides where progress is kept (tests use a temp dir).
const StateDirEnv = "SCHEMALAB_STATE_DIR"

// progressFile is the store's file name inside the state directory.
const progressFile = "progress.json"

// DefaultStateDir is $SCHEMALAB_STATE_DIR, or schemalab/ under the XDG
// state directory (~/.local/state on Linux).
func DefaultStateDir(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv(StateDirEnv); d != "" {
		return d
	}
	return filepath.Join(xdg.StateHome, "schemalab")
}

// ExerciseStatus is where a learner stands on one exercise.
type ExerciseStatus string

const (
	ExerciseNotTried ExerciseStatus = ""
	ExerciseFailed   ExerciseStatus = "failed"
	ExercisePassed   ExerciseStatus = "passed"
)

// ExerciseProgress is one exercise's record.
type ExerciseProgress struct {
	Status   ExerciseStatus `json:"status,omitempty"`
	Attempts int            `json:"attempts"`
	// Revealed is set once the learner asked to see the solution.
	Revealed bool `json:"revealed,omitempty"`
}

// LessonProgress is one lesson's record; steps are named by their id.
type LessonProgress struct {
	Current   string                       `json:"current,omitempty"`
	Done      []string                     `json:"done,omitempty"`
	Exercises map[string]*ExerciseProgress `json:"exercises,omitempty"`
	Updated   time.Time                    `json:"updated,omitzero"`
}

// IsDone reports whether step id is done.
func (p LessonProgress) IsDone(step string) bool { return slices.Contains(p.Done, step) }

// Exercise returns the record of the exercise in step id (zero if none).
func (p LessonProgress) Exercise(step string) ExerciseProgress {
	if e := p.Exercises[step]; e != nil {
		return *e
	}
	return ExerciseProgress{}
}

type progressData struct {
	Version int                        `json:"version"`
	Lessons map[string]*LessonProgress `json:"lessons"`
}

// Store keeps progress in one JSON file, rewritten atomically (a temporary
// file renamed over it) on every change. It is safe for concurrent use.
type Store struct {
	mu      sync.Mutex
	path    string
	data    progressData
	warning string
}

// OpenStore reads the progress in dir, creating nothing until the first
// change. A file that cannot be parsed is moved aside (progress.json.corrupt-
// TIMESTAMP) and progress starts fresh; Warning says so. Only an unreadable
// directory is an error.
func OpenStore(dir string) (*Store, error) {
	s := &Store{path: filepath.Join(dir, progressFile), data: progressData{Version: 1, Lessons: map[string]*LessonProgress{}}}
	raw, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read progress: %w", err)
	}
	var d progressData
	if err := json.Unmarshal(raw, &d); err != nil || d.Version != 1 {
		if err == nil {
			err = fmt.Errorf("unknown version %d", d.Version)
		}
		aside := fmt.Sprintf("%s.corrupt-%s", s.path, time.Now().UTC().Format("20060102T150405Z"))
		if rerr := os.Rename(s.path, aside); rerr != nil {
			s.warning = fmt.Sprintf("progress file %s is unreadable (%v) and could not be moved aside (%v); starting fresh", s.path, err, rerr)
		} else {
			s.warning = fmt.Sprintf("progress file %s was unreadable (%v); it was moved to %s and progress starts fresh", s.path, err, aside)
		}
		return s, nil
	}
	if d.Lessons == nil {
		d.Lessons = map[string]*LessonProgress{}
	}
	s.data = d
	return s, nil
}

// Path is the progress file.
func (s *Store) Path() string { return s.path }

// Warning is a message for the user about a corrupt file, or "".
func (s *Store) Warning() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.warning
}

// Lesson returns a copy of the progress of lesson id.
func (s *Store) Lesson(id string) LessonProgress {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.data.Lessons[id]
	if p == nil {
		return LessonProgress{}
	}
	cp := *p
	cp.Done = slices.Clone(p.Done)
	cp.Exercises = map[string]*ExerciseProgress{}
	for k, v := range p.Exercises {
		e := *v
		cp.Exercises[k] = &e
	}
	return cp
}

func (s *Store) lessonLocked(id string) *LessonProgress {
	p := s.data.Lessons[id]
	if p == nil {
		p = &LessonProgress{}
		s.data.Lessons[id] = p
	}
	p.Updated = time.Now().UTC()
	return p
}

// SetCurrent records the step the learner is on.
func (s *Store) SetCurrent(lesson, step string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lessonLocked(lesson).Current = step
	return s.saveLocked()
}

// MarkDone records step as done.
func (s *Store) MarkDone(lesson, step string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.lessonLocked(lesson)
	if !slices.Contains(p.Done, step) {
		p.Done = append(p.Done, step)
	}
	return s.saveLocked()
}

// RecordAttempt counts one attempt at the exercise of step; a passed
// exercise stays passed and marks the step done.
func (s *Store) RecordAttempt(lesson, step string, passed bool) (ExerciseProgress, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.lessonLocked(lesson)
	if p.Exercises == nil {
		p.Exercises = map[string]*ExerciseProgress{}
	}
	e := p.Exercises[step]
	if e == nil {
		e = &ExerciseProgress{}
		p.Exercises[step] = e
	}
	e.Attempts++
	switch {
	case passed:
		e.Status = ExercisePassed
		if !slices.Contains(p.Done, step) {
			p.Done = append(p.Done, step)
		}
	case e.Status != ExercisePassed:
		e.Status = ExerciseFailed
	}
	return *e, s.saveLocked()
}

// ErrSolutionLocked is returned by Solution before the learner has tried
// the exercise or asked for the solution.
var ErrSolutionLocked = errors.New("the solution is shown after a first attempt, or when you ask for it")

// Solution returns the reference solution of the exercise in step i of l.
// It is revealed after one failed attempt, or when explicit is true (the
// learner asked), which is recorded.
func (s *Store) Solution(l *Lesson, i int, explicit bool) (string, error) {
	if i < 0 || i >= len(l.Steps) || l.Steps[i].Exercise == nil {
		return "", fmt.Errorf("step %d of %s is not an exercise", i+1, l.ID)
	}
	step := l.Steps[i].ID
	s.mu.Lock()
	defer s.mu.Unlock()
	var e ExerciseProgress
	if p := s.data.Lessons[l.ID]; p != nil && p.Exercises[step] != nil {
		e = *p.Exercises[step]
	}
	tried := e.Attempts > 0 && (e.Status == ExerciseFailed || e.Status == ExercisePassed)
	if !tried && !e.Revealed && !explicit {
		return "", ErrSolutionLocked
	}
	if explicit && !e.Revealed {
		p := s.lessonLocked(l.ID)
		if p.Exercises == nil {
			p.Exercises = map[string]*ExerciseProgress{}
		}
		if p.Exercises[step] == nil {
			p.Exercises[step] = &ExerciseProgress{}
		}
		p.Exercises[step].Revealed = true
		if err := s.saveLocked(); err != nil {
			return "", err
		}
	}
	return l.Steps[i].Exercise.Solution, nil
}

// ResetLesson forgets the progress of the given lessons.
func (s *Store) ResetLesson(ids ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		delete(s.data.Lessons, id)
	}
	return s.saveLocked()
}

// ResetAll forgets all progress.
func (s *Store) ResetAll() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data.Lessons = map[string]*LessonProgress{}
	return s.saveLocked()
}

// saveLocked writes the file atomically: a reader sees the old or the new
// progress, never half of it, even if the process dies mid-write.
func (s *Store) saveLocked() error {
	raw, err := json.MarshalIndent(s.data, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("save progress: %w", err)
	}
	tmp, err := os.CreateTemp(dir, progressFile+".tmp-*")
	if err != nil {
		return fmt.Errorf("save progress: %w", err)
	}
	_, werr := tmp.Write(append(raw, '\n'))
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), s.path)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("save progress: %w", werr)
	}
	return nil
}

// Summary is a lesson's progress in numbers, for listings.
type Summary struct {
	StepsDone, Steps         int
	ExercisesDone, Exercises int
	Current                  string
}

// Summarize counts l's progress in p, ignoring ids of steps that no longer
// exist.
func Summarize(l *Lesson, p LessonProgress) Summary {
	sum := Summary{Steps: len(l.Steps), Current: p.Current}
	for _, st := range l.Steps {
		if p.IsDone(st.ID) {
			sum.StepsDone++
		}
		if st.Exercise != nil {
			sum.Exercises++
			if p.Exercise(st.ID).Status == ExercisePassed {
				sum.ExercisesDone++
			}
		}
	}
	return sum
}
