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

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/lessons/safefile"
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
	// Draft is the learner's code as the editor last held it, so that a
	// learner who quits mid-exercise comes back to it; nil means the
	// starter code.
	Draft *string `json:"draft,omitempty"`
	// Hints is how many hints the learner has revealed.
	Hints int `json:"hints,omitempty"`
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
	mu   sync.Mutex
	path string
	data progressData
	// corrupt is set when the file could not be read as progress.
	corrupt *corruptFile
}

// corruptFile is what became of a progress file that could not be read:
// why, and where it was moved ("" when it could not be).
type corruptFile struct {
	err, aside, renameErr string
}

var (
	msgCorruptMoved = &locale.Message{ID: "progress.corruptMoved", Other: "progress file {{.Path}} was unreadable ({{.Err}}); it was moved to {{.Aside}} and progress starts fresh"}
	msgCorruptKept  = &locale.Message{ID: "progress.corruptKept", Other: "progress file {{.Path}} is unreadable ({{.Err}}) and could not be moved aside ({{.RenameErr}}); starting fresh"}
)

// OpenStore reads the progress in dir, creating nothing until the first
// change. A file that cannot be parsed, or that parses into something not
// shaped like progress, is moved aside (progress.json.corrupt-TIMESTAMP)
// and progress starts fresh; Warning says so. Temporary files left by a
// write that was killed are removed. Only an unreadable directory is an
// error.
func OpenStore(dir string) (*Store, error) {
	s := &Store{path: filepath.Join(dir, progressFile), data: progressData{Version: 1, Lessons: map[string]*LessonProgress{}}}
	// Only a regular file of progress's size (a learner's progress over
	// every lesson, drafts included, is a few hundred kilobytes) is read:
	// a FIFO in its place would block, and /dev/zero would fill the
	// memory. Anything else is moved aside, as a file that is not
	// progress is.
	const maxProgressFile = 16 << 20
	raw, err := safefile.Read(s.path, maxProgressFile)
	if errors.Is(err, fs.ErrNotExist) {
		removeStaleTemps(dir)
		return s, nil
	}
	if err != nil && !errors.Is(err, safefile.ErrNotRegular) && !errors.Is(err, safefile.ErrTooLarge) {
		return nil, fmt.Errorf("read progress: %w", err)
	}
	removeStaleTemps(dir)
	var d progressData
	if err == nil {
		err = json.Unmarshal(raw, &d)
	}
	if err == nil {
		err = d.validate()
	}
	if err != nil {
		aside := fmt.Sprintf("%s.corrupt-%s", s.path, time.Now().UTC().Format("20060102T150405Z"))
		s.corrupt = &corruptFile{err: err.Error(), aside: aside}
		if rerr := os.Rename(s.path, aside); rerr != nil {
			s.corrupt.aside, s.corrupt.renameErr = "", rerr.Error()
		}
		return s, nil
	}
	if d.Lessons == nil {
		d.Lessons = map[string]*LessonProgress{}
	}
	d.moveSteps()
	s.data = d
	return s, nil
}

// stepMove is a step of an older version of the course that is now
// elsewhere: in another lesson, or under another heading.
type stepMove struct {
	fromLesson, fromStep string
	// to are the steps that now hold what fromStep held; the first one
	// takes its exercise record and the learner's place in the lesson.
	toLesson string
	to       []string
}

// stepMoves are the moves progress files written before them need. The
// outlier lesson's concurrency step and exercise became the lesson
// outlier-concurrency, the one step in four; its reviews step changed
// heading.
func stepMoves() []stepMove {
	return []stepMove{
		{"outlier", "writing-under-concurrency-a-real-race", "outlier-concurrency", []string{
			"writing-under-concurrency-a-real-race", "a-unique-index-and-the-upsert-the-server-retries",
			"a-cap-in-every-filter-the-guarded-writer", "what-one-writer-cannot-promise-crashes-retries-and-transactions"}},
		{"outlier", "exercise-comments-with-hasoverflow-ten-at-a-time", "outlier-concurrency", []string{"exercise-comments-with-hasoverflow-ten-at-a-time"}},
		{"outlier", "reviews-two-write-paths-a-migration-and-schema-versioning", "outlier", []string{"reviews-the-subset-pattern-a-migration-and-schema-versioning"}},
	}
}

// moveSteps carries the records of moved steps (done, exercise, current
// step) to where the steps are now. A record already there wins; moving
// twice changes nothing, so the file needs no version of its own, and an
// older schemalab still reads it. The moved records are written with the
// next change.
func (d *progressData) moveSteps() {
	for _, m := range stepMoves() {
		from := d.Lessons[m.fromLesson]
		if from == nil {
			continue
		}
		done, ex, current := from.IsDone(m.fromStep), from.Exercises[m.fromStep], from.Current == m.fromStep
		if !done && ex == nil && !current {
			continue
		}
		to := d.Lessons[m.toLesson]
		if to == nil {
			to = &LessonProgress{Updated: from.Updated}
			d.Lessons[m.toLesson] = to
		}
		if done {
			from.Done = slices.DeleteFunc(from.Done, func(s string) bool { return s == m.fromStep })
			for _, s := range m.to {
				if !to.IsDone(s) {
					to.Done = append(to.Done, s)
				}
			}
		}
		if ex != nil {
			delete(from.Exercises, m.fromStep)
			if to.Exercises == nil {
				to.Exercises = map[string]*ExerciseProgress{}
			}
			if to.Exercises[m.to[0]] == nil {
				to.Exercises[m.to[0]] = ex
			}
		}
		if current {
			from.Current = ""
			if to.Current == "" {
				to.Current = m.to[0]
			}
		}
	}
}

// Path is the progress file.
func (s *Store) Path() string { return s.path }

// ExerciseFile is where watch mode keeps the code of the exercise of step
// for the learner's own editor: one file per lesson and step in the state
// directory, named so that the path says what it is.
func (s *Store) ExerciseFile(lesson, step string) string {
	return filepath.Join(filepath.Dir(s.path), "exercises", lesson, step+".js")
}

// Warning is a message for the user about a corrupt file, in l's
// language, or "".
func (s *Store) Warning(l *locale.Localizer) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.corrupt
	switch {
	case c == nil:
		return ""
	case c.aside == "":
		return l.T(msgCorruptKept, map[string]any{"Path": s.path, "Err": c.err, "RenameErr": c.renameErr})
	}
	return l.T(msgCorruptMoved, map[string]any{"Path": s.path, "Err": c.err, "Aside": c.aside})
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
		if v.Draft != nil {
			d := *v.Draft
			e.Draft = &d
		}
		cp.Exercises[k] = &e
	}
	return cp
}

// validate rejects JSON that is valid but not shaped like progress: a
// lesson or exercise that is null, counts below zero, an unknown status.
func (d *progressData) validate() error {
	if d.Version != 1 {
		return fmt.Errorf("unknown version %d", d.Version)
	}
	for id, l := range d.Lessons {
		if l == nil {
			return fmt.Errorf("lesson %q is null", id)
		}
		for step, e := range l.Exercises {
			switch {
			case e == nil:
				return fmt.Errorf("lesson %q: exercise %q is null", id, step)
			case e.Attempts < 0 || e.Hints < 0:
				return fmt.Errorf("lesson %q: exercise %q has a negative count", id, step)
			case e.Status != ExerciseNotTried && e.Status != ExerciseFailed && e.Status != ExercisePassed:
				return fmt.Errorf("lesson %q: exercise %q has unknown status %q", id, step, e.Status)
			}
		}
	}
	return nil
}

// staleTempAge is how old a temporary progress file must be to count as
// left by a killed write rather than being written right now by another
// schemalab process sharing the directory.
const staleTempAge = time.Minute

// removeStaleTemps deletes the temporary files of writes that never
// finished (the process was killed between create and rename).
func removeStaleTemps(dir string) {
	matches, _ := filepath.Glob(filepath.Join(dir, progressFile+".tmp-*"))
	for _, m := range matches {
		if info, err := os.Stat(m); err == nil && time.Since(info.ModTime()) > staleTempAge {
			_ = os.Remove(m)
		}
	}
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

// ShowStep records that step i of l is shown: it is where the learner
// is, and a step with nothing to run or answer is done once shown, since
// reading it is all it asks (a step with code is done when its code runs,
// an exercise when it passes). The record is the same list of done steps
// as before, so older files and older versions of schemalab read it.
func (s *Store) ShowStep(l *Lesson, i int) error {
	if i < 0 || i >= len(l.Steps) {
		return fmt.Errorf("step %d of %s does not exist", i+1, l.ID)
	}
	st := &l.Steps[i]
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.lessonLocked(l.ID)
	p.Current = st.ID
	if !st.HasCode() && !slices.Contains(p.Done, st.ID) {
		p.Done = append(p.Done, st.ID)
	}
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
	e := s.exerciseLocked(lesson, step)
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

// exerciseLocked returns the record of the exercise in step, creating it.
func (s *Store) exerciseLocked(lesson, step string) *ExerciseProgress {
	p := s.lessonLocked(lesson)
	if p.Exercises == nil {
		p.Exercises = map[string]*ExerciseProgress{}
	}
	e := p.Exercises[step]
	if e == nil {
		e = &ExerciseProgress{}
		p.Exercises[step] = e
	}
	return e
}

// SaveDraft keeps the learner's code for the exercise of step.
func (s *Store) SaveDraft(lesson, step, code string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.exerciseLocked(lesson, step)
	if e.Draft != nil && *e.Draft == code {
		return nil
	}
	e.Draft = &code
	return s.saveLocked()
}

// SetHints records that n hints of the exercise of step are revealed.
func (s *Store) SetHints(lesson, step string, n int) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.exerciseLocked(lesson, step)
	if e.Hints >= n {
		return nil
	}
	e.Hints = n
	return s.saveLocked()
}

// ForgetDraft drops the learner's code for the exercise of step, so that
// it starts over from the starter code; attempts and status stay.
func (s *Store) ForgetDraft(lesson, step string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exerciseLocked(lesson, step).Draft = nil
	return s.saveLocked()
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
		s.exerciseLocked(l.ID, step).Revealed = true
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
	if err := safefile.Write(s.path, append(raw, '\n')); err != nil {
		return fmt.Errorf("save progress: %w", err)
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
