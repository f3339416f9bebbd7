package lesson

import "github.com/schemalab/schemalab/lessons"

// progress is the lesson's record in the store; a nil store (tests, or
// a state directory that cannot be written) keeps none.
type progress struct {
	store  *lessons.Store
	lesson *lessons.Lesson
}

func (p progress) get() lessons.LessonProgress {
	if p.store == nil {
		return lessons.LessonProgress{}
	}
	return p.store.Lesson(p.lesson.ID)
}

func (p progress) id(i int) string { return p.lesson.Steps[i].ID }

func (p progress) setCurrent(i int) {
	if p.store != nil && i >= 0 {
		_ = p.store.SetCurrent(p.lesson.ID, p.id(i))
	}
}

func (p progress) markDone(i int) {
	if p.store != nil {
		_ = p.store.MarkDone(p.lesson.ID, p.id(i))
	}
}

func (p progress) recordAttempt(i int, passed bool) {
	if p.store != nil {
		_, _ = p.store.RecordAttempt(p.lesson.ID, p.id(i), passed)
	}
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
