package lesson

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/components/prose"
)

var (
	msgComplete     = &locale.Message{ID: "done.complete", Other: "✓ Lesson complete: {{.Title}}"}
	msgEndOf        = &locale.Message{ID: "done.endOf", Other: "End of {{.Title}}"}
	msgNotDone      = &locale.Message{ID: "done.notDone", One: " · {{.Count}} step not done yet (○ below)", Other: " · {{.Count}} steps not done yet (○ below)"}
	msgWorkedThough = &locale.Message{ID: "done.workedThrough", Other: "What you worked through"}
	msgStepsDone    = &locale.Message{ID: "done.steps", Other: "Steps done: {{.Done}} of {{.Total}}"}
	msgExDone       = &locale.Message{ID: "done.exercises", Other: "Exercises passed: {{.Done}} of {{.Total}}"}
	msgNextLesson   = &locale.Message{ID: "done.next", Other: "Next: "}
	msgNextKeys     = &locale.Message{ID: "done.nextKeys", Other: "  (enter to start, esc to go back)"}
	msgLastLesson   = &locale.Message{ID: "done.last", Other: "That was the last lesson. esc goes back, q quits."}
)

func (p *Page) completion() string {
	st := p.Styles
	l := p.lesson
	pr := p.prog.get()
	sum := lessons.Summarize(l, pr)
	var b strings.Builder
	if sum.StepsDone >= sum.Steps {
		b.WriteString(st.Success.Render(p.T(msgComplete, map[string]any{"Title": l.Title})) + "\n\n")
	} else {
		left := sum.Steps - sum.StepsDone
		b.WriteString(st.Title.Render(p.T(msgEndOf, map[string]any{"Title": l.Title})) + st.Muted.Render(p.N(msgNotDone, left, nil)) + "\n\n")
	}
	b.WriteString(st.Subtitle.Render(p.T(msgWorkedThough, nil)) + "\n")
	for _, s := range l.Steps {
		mark := st.Muted.Render("○ ")
		if pr.IsDone(s.ID) {
			mark = st.Accent.Render("● ")
		}
		b.WriteString("  " + mark + prose.Plain(s.Title) + "\n")
	}
	b.WriteString("\n" + p.T(msgStepsDone, map[string]any{"Done": sum.StepsDone, "Total": sum.Steps}) + "\n")
	if sum.Exercises > 0 {
		b.WriteString(p.T(msgExDone, map[string]any{"Done": sum.ExercisesDone, "Total": sum.Exercises}) + "\n")
	}
	b.WriteString("\n")
	if p.next != nil {
		b.WriteString(p.T(msgNextLesson, nil) + st.Title.Render(p.next.Title) + st.Muted.Render(p.T(msgNextKeys, nil)))
	} else {
		b.WriteString(st.Muted.Render(p.T(msgLastLesson, nil)))
	}
	return lipgloss.NewStyle().Padding(1, 2).Render(b.String())
}
