package lesson

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/keymap"
)

var (
	msgKeyReveal     = &locale.Message{ID: "lesson.keyReveal", Other: "reveal the code"}
	msgKeyRunStep    = &locale.Message{ID: "lesson.keyRunStep", Other: "run the step"}
	msgKeyCheck      = &locale.Message{ID: "lesson.keyCheck", Other: "check"}
	msgKeyNextLesson = &locale.Message{ID: "lesson.keyNextLesson", Other: "next lesson"}
	msgKeyManual     = &locale.Message{ID: "lesson.keyManual", Other: "check the file"}
)

// key routes a key: to the question waiting for y/n, the input that has
// the keyboard, the stage preview, the completion page, or the step.
func (p *Page) key(msg tea.KeyPressMsg) tea.Cmd {
	k := p.KeyMap
	switch {
	case p.confirm != confirmNone:
		return p.answer(msg)
	case p.editor != nil && p.editor.Editing():
		_, cmd := p.editor.Update(msg)
		if !p.editor.Editing() {
			p.stopEditing()
		}
		if key.Matches(msg, k.ExternalEditor) {
			return externalEditor(p.editor.Value(), p.pos)
		}
		p.layout()
		return cmd
	case p.toolKind == shellTool:
		if key.Matches(msg, k.Back) {
			p.closeTool()
			p.layout()
			return nil
		}
		if key.Matches(msg, k.Focus) {
			return p.cycleFocus()
		}
		_, cmd := p.tool.Update(msg)
		return cmd
	case p.toolKind == stagesTool && (key.Matches(msg, k.Back) || key.Matches(msg, k.Next) || key.Matches(msg, k.Prev) || key.Matches(msg, k.Stages)):
		if key.Matches(msg, k.Back) {
			p.closeTool()
			p.layout()
			return nil
		}
		_, cmd := p.tool.Update(msg)
		return cmd
	case p.atEnd():
		return p.completionKey(msg)
	}
	return p.stepKey(msg)
}

// stepKey is a key on a step.
func (p *Page) stepKey(msg tea.KeyPressMsg) tea.Cmd {
	k := p.KeyMap
	switch {
	case key.Matches(msg, k.Next):
		p.goTo(p.pos + 1)
	case key.Matches(msg, k.Prev):
		if p.pos > 0 || (p.pos == 0 && p.lesson.Intro != "") {
			p.goTo(p.pos - 1)
		}
	case key.Matches(msg, k.Run):
		return p.enter()
	case key.Matches(msg, k.Edit):
		return p.edit()
	case key.Matches(msg, k.ExternalEditor):
		if p.editor != nil {
			return externalEditor(p.editor.Value(), p.pos)
		}
	case key.Matches(msg, k.Watch):
		return p.toggleWatch()
	case key.Matches(msg, k.Hint):
		return p.hint()
	case key.Matches(msg, k.Solution):
		if p.isExercise() {
			return p.solutionKey()
		}
	case key.Matches(msg, k.ShowAll):
		p.view.ToggleOutput()
	case key.Matches(msg, k.Focus):
		return p.cycleFocus()
	case key.Matches(msg, k.Shell):
		if p.current() != nil {
			return p.openTool(newShell(p.Common, p.session.Database(), p.inputs), shellTool)
		}
	case key.Matches(msg, k.Stages):
		return p.previewStage(0, lessons.Widths{})
	case key.Matches(msg, k.Group):
		p.view.nextGroup()
	case key.Matches(msg, k.Setup):
		if p.current() != nil && len(p.current().Code(lessons.Setup)) > 0 {
			p.view.toggleSetup()
		}
	case key.Matches(msg, k.Reset):
		p.confirm = confirmReset
	case key.Matches(msg, k.ResetExercise):
		if p.isExercise() {
			p.confirm = confirmResetExercise
		}
	case key.Matches(msg, k.Back):
		if p.tool != nil {
			p.closeTool()
			p.layout()
			return nil
		}
		return func() tea.Msg { return common.BackMsg{} }
	default:
		p.focused().Update(msg)
	}
	return nil
}

// enter runs the step, checks the exercise, or (presenting) reveals the
// code first.
func (p *Page) enter() tea.Cmd {
	st := p.current()
	if st == nil {
		return nil
	}
	switch {
	case p.view.revealLevel() == revealProse:
		p.view.reveal()
		return nil
	case p.needsExerciseRun():
		return p.runStep()
	case p.watch != nil && p.watch.mode == watchManual:
		code, err := p.watch.read()
		if err != nil {
			return status(p.T(msgWatchFailed, map[string]any{"Path": p.watch.path, "Err": err.Error()}))
		}
		p.editor.SetValue(code)
		return p.checkCode(code)
	case p.isExercise():
		return p.checkCode(p.editor.Value())
	case p.view.hasCode():
		return p.runStep()
	}
	return nil
}

// solutionKey offers the reference solution once the learner has tried:
// after a failed attempt, of this session or recorded in the progress of
// an earlier one, it may replace their code; after a pass it is shown
// beside their code, to compare, and their code stays.
func (p *Page) solutionKey() tea.Cmd {
	rec := p.prog.get().Exercise(p.current().ID)
	passed, failed := rec.Status == lessons.ExercisePassed, rec.Status == lessons.ExerciseFailed
	if a := p.state(p.pos).attempt; a != nil && a.Result != nil {
		passed, failed = passed || a.Result.Passed, failed || !a.Result.Passed
	}
	switch {
	case passed:
		sol, err := p.prog.solution(p.pos)
		if err != nil {
			return status(err.Error())
		}
		p.editor.ShowSolution(sol)
		return nil
	case failed:
		p.confirm = confirmSolution
		return nil
	}
	return status(p.T(msgSolutionAfter, nil))
}

// needsExerciseRun reports whether the step is an exercise whose own
// code (say, a distribution to reason about) has not run yet: enter runs
// it first, and checks the answer after that.
func (p *Page) needsExerciseRun() bool {
	return p.isExercise() && p.state(p.pos).ran == nil && len(p.current().Code(lessons.Run)) > 0
}

// edit gives the exercise's editor the keyboard, or opens one on a run
// step's code.
func (p *Page) edit() tea.Cmd {
	if p.editor == nil {
		runs := p.current()
		if runs == nil || len(runs.Code(lessons.Run)) == 0 {
			return nil
		}
		code := ""
		for i, b := range runs.Code(lessons.Run) {
			if i > 0 {
				code += "\n"
			}
			code += b.Text
		}
		p.editor = newEditor(p.Common, code, true)
		if e := p.state(p.pos).edit; e != nil {
			p.editor.ShowEdit(e)
		}
	}
	p.stopWatch()
	cmd := p.editor.Focus()
	p.layout()
	return cmd
}

// stopEditing keeps the draft; an edit of a run step closes its editor.
func (p *Page) stopEditing() {
	if p.editor.runEdit {
		p.editor = nil
	} else {
		p.saveDraft()
	}
	p.layout()
}

func (p *Page) hint() tea.Cmd {
	st := p.current()
	if st == nil || st.Exercise == nil {
		return nil
	}
	s := p.state(p.pos)
	if s.hints >= len(st.Exercise.Hints) {
		return status(p.T(msgNoHints, nil))
	}
	s.hints++
	p.prog.setHints(p.pos, s.hints)
	p.view.showHints()
	return nil
}

func (p *Page) cycleFocus() tea.Cmd {
	p.focus = (p.focus + 1) % len(p.children())
	p.focusPanes()
	return nil
}

// answer takes y or n for the question asked.
func (p *Page) answer(msg tea.KeyPressMsg) tea.Cmd {
	c := p.confirm
	p.confirm = confirmNone
	if !key.Matches(msg, p.KeyMap.Yes) {
		return nil
	}
	switch c {
	case confirmReset:
		cmd := p.start(p.T(msgResetting, map[string]any{"ID": p.lesson.ID}), lessons.Request{Op: lessons.OpReset})
		p.states, p.drafts = map[int]*stepState{}, map[int]string{}
		p.goTo(0)
		return cmd
	case confirmResetExercise:
		return p.start(p.T(msgStartingOver, nil), lessons.Request{Op: lessons.OpResetExercise, Step: p.pos})
	case confirmSolution:
		sol, err := p.prog.solution(p.pos)
		if err != nil {
			return status(err.Error())
		}
		p.editor.SetValue(sol)
		p.saveDraft()
		p.editor.ShowNote(p.T(msgSolutionIn, nil))
		p.layout()
		return status(p.T(msgSolutionIn, nil))
	}
	return nil
}

func (p *Page) completionKey(msg tea.KeyPressMsg) tea.Cmd {
	k := p.KeyMap
	switch {
	case key.Matches(msg, k.Back), key.Matches(msg, k.Prev):
		p.goTo(len(p.lesson.Steps) - 1)
	case key.Matches(msg, k.Run):
		if p.next != nil {
			id := p.next.ID
			return func() tea.Msg { return common.OpenLessonMsg{ID: id, Step: -1} }
		}
	}
	return nil
}

// ShortHelp is the keys that matter on this screen, most useful first;
// the status line shortens it from the end.
func (p *Page) ShortHelp() []key.Binding {
	k := p.KeyMap
	switch {
	case p.confirm != confirmNone:
		return []key.Binding{k.Yes, k.No}
	case p.editor != nil && p.editor.Editing():
		return p.editor.ShortHelp()
	case p.tool != nil:
		return p.tool.ShortHelp()
	case p.atEnd():
		return []key.Binding{keymap.WithHelp(k.Run, "enter", p.T(msgKeyNextLesson, nil)), k.Back}
	}
	run := k.Run
	switch {
	case p.view.revealLevel() == revealProse:
		run = keymap.WithHelp(k.Run, "enter", p.T(msgKeyReveal, nil))
	case p.needsExerciseRun():
		run = keymap.WithHelp(k.Run, "enter", p.T(msgKeyRunStep, nil))
	case p.watch != nil && p.watch.mode == watchManual:
		run = keymap.WithHelp(k.Run, "enter", p.T(msgKeyManual, nil))
	case p.isExercise():
		run = keymap.WithHelp(k.Run, "enter", p.T(msgKeyCheck, nil))
	}
	var out []key.Binding
	if p.view.hasCode() || p.isExercise() {
		out = append(out, run)
	}
	out = append(out, k.Next, k.Prev)
	if p.isExercise() {
		out = append(out, k.Edit, k.Hint, k.Watch)
	} else if st := p.current(); st != nil && len(st.Code(lessons.Run)) > 0 {
		out = append(out, k.Edit)
	}
	out = append(out, p.view.ShortHelp()...)
	if st := p.current(); st != nil && (st.HasStages() || (p.editor != nil && lessons.IsPipeline(p.editor.Value()))) {
		out = append(out, k.Stages)
	}
	if p.current() != nil {
		out = append(out, k.Shell)
	}
	return out
}

// FullHelp is every key of the lesson page, in columns.
func (p *Page) FullHelp() [][]key.Binding {
	k := p.KeyMap
	return [][]key.Binding{
		{k.Run, k.Next, k.Prev, k.Focus, k.Group, k.ShowAll},
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Left, k.Right},
		{k.Edit, k.ExternalEditor, k.CheckFromEditor, k.Watch, k.Hint, k.Solution, k.ResetExercise},
		{k.Shell, k.Stages, k.Setup, k.Reset, k.Back, k.Cancel, k.Quit},
	}
}
