package lesson

import "github.com/schemalab/schemalab/lessons"

// progress is the lesson's record in the store; a nil store (tests, or
// a state directory that cannot be written) keeps none.
type progress struct {
	store   *lessons.Store
	lesson  *lessons.Lesson
	observe func(Activity)
}

// ActivityKind says what a learner did.
type ActivityKind int

const (
	// ActivityMoved: a lesson opened at a step, or another step is shown.
	ActivityMoved ActivityKind = iota
	// ActivityRan: a step ran without failure and is done.
	ActivityRan
	// ActivityAttempt: an exercise attempt was checked (Passed says how).
	ActivityAttempt
)

// Activity is what a learner did, for a classroom's dashboard; it is
// reported after the progress store has recorded it.
type Activity struct {
	Kind   ActivityKind
	Lesson string
	// Step is 0-based.
	Step   int
	Passed bool
}

func (p progress) notify(kind ActivityKind, step int, passed bool) {
	if p.observe != nil {
		p.observe(Activity{Kind: kind, Lesson: p.lesson.ID, Step: step, Passed: passed})
	}
}

func (p progress) get() lessons.LessonProgress {
	if p.store == nil {
		return lessons.LessonProgress{}
	}
	return p.store.Lesson(p.lesson.ID)
}

func (p progress) id(i int) string { return p.lesson.Steps[i].ID }

func (p progress) setCurrent(i int) {
	if i < 0 {
		return // the introduction is no step
	}
	if p.store != nil {
		_ = p.store.ShowStep(p.lesson, i)
	}
	p.notify(ActivityMoved, i, false)
}

func (p progress) markDone(i int) {
	if p.store != nil {
		_ = p.store.MarkDone(p.lesson.ID, p.id(i))
	}
	p.notify(ActivityRan, i, false)
}

func (p progress) recordAttempt(i int, passed bool) {
	if p.store != nil {
		_, _ = p.store.RecordAttempt(p.lesson.ID, p.id(i), passed)
	}
	p.notify(ActivityAttempt, i, passed)
}

// shellHistory is the scratch shell's history as the store keeps it.
func (p progress) shellHistory() []string {
	if p.store == nil {
		return nil
	}
	return p.store.ShellHistory(p.lesson.ID)
}

// addShellHistory is h with input added, as the store keeps it (bounded
// as mongosh bounds its history), or in memory only when there is no
// store or it cannot be written.
func (p progress) addShellHistory(h []string, input string) []string {
	if p.store != nil {
		if stored, err := p.store.AddShellHistory(p.lesson.ID, input); err == nil {
			return stored
		}
	}
	return lessons.AppendShellHistory(h, input)
}

func (p progress) saveDraft(i int, code string) {
	if p.store != nil {
		_ = p.store.SaveDraft(p.lesson.ID, p.id(i), code)
	}
}

func (p progress) forgetDraft(i int) error {
	if p.store == nil {
		return nil
	}
	return p.store.ForgetDraft(p.lesson.ID, p.id(i))
}

func (p progress) setHints(i, n int) {
	if p.store != nil {
		_ = p.store.SetHints(p.lesson.ID, p.id(i), n)
	}
}

// solution asks the store for the reference solution; the learner asked.
func (p progress) solution(i int) (string, error) {
	if p.store == nil {
		return p.lesson.Steps[i].Exercise.Solution, nil
	}
	return p.store.Solution(p.lesson, i, true)
}

func (p progress) reset() error {
	if p.store == nil {
		return nil
	}
	return p.store.ResetLesson(p.lesson.ID)
}
