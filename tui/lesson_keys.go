package tui

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schemalab/schemalab/lessons"
)

func (p *lessonPage) ShortHelp() []key.Binding {
	k := p.KeyMap
	switch {
	case p.confirm != confirmNone:
		return []key.Binding{k.Yes, k.No}
	case p.mode == modeEditing && p.editRun:
		return []key.Binding{withHelp(k.CheckFromEditor, "ctrl+r", "run your edit"), k.ExternalEditor, k.Back}
	case p.mode == modeEditing:
		return []key.Binding{k.CheckFromEditor, k.ExternalEditor, k.Back}
	case p.mode == modeShell:
		return []key.Binding{withHelp(k.Run, "enter", "evaluate"), k.HistoryUp, k.Back}
	case p.mode == modeStages:
		return []key.Binding{withHelp(k.Next, "→", "next stage"), withHelp(k.Prev, "←", "previous stage"), k.Back}
	case p.mode == modeComplete:
		return []key.Binding{withHelp(k.Run, "enter", "next lesson"), k.Back, k.Quit}
	}
	out := []key.Binding{k.Run, k.Next, k.Prev}
	switch {
	case p.reveal() == revealProse:
		out[0] = withHelp(k.Run, "enter", "reveal the code")
	case p.needsExerciseRun():
		out[0] = withHelp(k.Run, "enter", "run the step")
	case p.isExercise():
		out[0] = withHelp(k.Run, "enter", "check")
	}
	if p.isExercise() {
		out = append(out, k.Edit, k.Hint)
	} else if len(p.current().Code(lessons.Run)) > 0 {
		out = append(out, k.Edit)
	}
	if p.hasStages() {
		out = append(out, k.Stages)
	}
	return append(out, k.Shell, k.Focus, k.Help, k.Quit)
}

func withHelp(b key.Binding, k, desc string) key.Binding {
	b.SetHelp(k, desc)
	return b
}

func (p *lessonPage) FullHelp() [][]key.Binding {
	k := p.KeyMap
	return [][]key.Binding{
		{k.Run, k.Next, k.Prev, k.Focus, k.Group},
		{k.Up, k.Down, k.PageUp, k.PageDown},
		{k.Edit, k.ExternalEditor, k.CheckFromEditor, k.Hint, k.Solution, k.ResetExercise},
		{k.Shell, k.Stages, k.Setup, k.Reset, k.Back, k.Cancel, k.Quit},
	}
}

// Update handles a message for the lesson page.
func (p *lessonPage) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case runDoneMsg:
		return p.runDone(msg)
	case editorDoneMsg:
		if msg.err == nil {
			p.editor.SetValue(msg.text)
		} else {
			return statusCmd("editor: " + msg.err.Error())
		}
	case tea.MouseWheelMsg:
		m := msg.Mouse()
		for _, pn := range append(p.focusOrder(), p.output) {
			if pn.contains(m.X, m.Y) {
				if m.Button == tea.MouseWheelDown {
					pn.ScrollDown(3)
				} else if m.Button == tea.MouseWheelUp {
					pn.ScrollUp(3)
				}
			}
		}
	case tea.PasteMsg:
		return p.updateInput(msg)
	case tea.KeyPressMsg:
		return p.key(msg)
	default:
		if p.mode == modeEditing || p.mode == modeShell {
			return p.updateInput(msg)
		}
	}
	return nil
}

func (p *lessonPage) updateInput(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch p.mode {
	case modeEditing:
		p.editor, cmd = p.editor.Update(msg)
	case modeShell:
		p.shellIn, cmd = p.shellIn.Update(msg)
	}
	return cmd
}

func (p *lessonPage) key(msg tea.KeyPressMsg) tea.Cmd {
	k := p.KeyMap
	if p.confirm != confirmNone {
		c := p.confirm
		p.confirm = confirmNone
		if !key.Matches(msg, k.Yes) {
			return nil
		}
		switch c {
		case confirmReset:
			p.outputs, p.exResult, p.hints, p.drafts = map[int]*stepOutput{}, map[int]*lessons.ExerciseResult{}, map[int]int{}, map[int]string{}
			p.exRuns = map[int]string{}
			p.proseCache, p.revealed = map[string]string{}, map[int]bool{}
			cmd := p.runs.start(p.ctx, "resetting "+p.lesson().ID, func(ctx context.Context, seq int) tea.Cmd {
				return p.sess.resetCmd(ctx, seq)
			})
			p.goTo(0)
			return cmd
		case confirmResetExercise:
			i := p.step
			return p.runs.start(p.ctx, "starting the exercise over", func(ctx context.Context, seq int) tea.Cmd {
				return p.sess.resetExerciseCmd(ctx, seq, i)
			})
		case confirmSolution:
			sol, err := p.sess.solution(p.step)
			if err != nil {
				return statusCmd(err.Error())
			}
			p.editor.SetValue(sol)
			// The last verdict was about the learner's own code.
			p.output.SetContent(p.Styles.Muted.Render("The reference solution is in the editor: press enter to check it."))
			p.output.footer = ""
			return statusCmd("The reference solution is in the editor: press enter to check it.")
		}
		return nil
	}
	switch p.mode {
	case modeEditing:
		switch {
		case key.Matches(msg, k.Back):
			p.mode = modeStep
			p.editor.Blur()
			p.saveDraft()
			if p.editRun {
				p.editRun = false
				p.SetSize(p.Width, p.Height)
				p.refresh()
			}
			return nil
		case key.Matches(msg, k.CheckFromEditor):
			if p.editRun {
				return p.runEdited()
			}
			return p.check()
		case key.Matches(msg, k.ExternalEditor):
			return p.externalEditor()
		}
		return p.updateInput(msg)
	case modeShell:
		return p.shellKey(msg)
	case modeStages:
		switch {
		case key.Matches(msg, k.Back):
			p.mode = modeStep
			p.refresh()
			return nil
		case key.Matches(msg, k.Next), key.Matches(msg, k.Stages):
			return p.runStage(p.stage + 1)
		case key.Matches(msg, k.Prev):
			return p.runStage(p.stage - 1)
		}
	case modeComplete:
		switch {
		case key.Matches(msg, k.Back), key.Matches(msg, k.Prev):
			p.goTo(len(p.lesson().Steps) - 1)
		case key.Matches(msg, k.Run):
			return func() tea.Msg { return openLessonMsg{id: p.nextLessonID(), step: -1} }
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Next):
		if p.lastStep() {
			p.mode = modeComplete
			return nil
		}
		p.goTo(p.step + 1)
	case key.Matches(msg, k.Prev):
		if p.step > 0 {
			p.goTo(p.step - 1)
		}
	case key.Matches(msg, k.Run):
		if p.needsExerciseRun() {
			return p.run()
		}
		if p.isExercise() {
			return p.check()
		}
		if p.reveal() == revealProse {
			// Scroll to what was revealed, keeping a few lines of the
			// prose above it for context.
			seen := p.prose.vp.TotalLineCount() - 1
			p.revealed[p.step] = true
			p.refresh()
			if seen > p.prose.vp.Height()/2 {
				p.prose.vp.SetYOffset(seen - 3)
			}
			return nil
		}
		return p.run()
	case key.Matches(msg, k.Edit):
		if p.isExercise() {
			p.mode = modeEditing
			return p.editor.Focus()
		}
		if runs := p.current().Code(lessons.Run); len(runs) > 0 {
			var code []string
			for _, b := range runs {
				code = append(code, b.Text)
			}
			p.editRun, p.mode = true, modeEditing
			p.editor.SetValue(strings.Join(code, "\n"))
			p.SetSize(p.Width, p.Height)
			return p.editor.Focus()
		}
	case key.Matches(msg, k.ExternalEditor):
		if p.isExercise() {
			return p.externalEditor()
		}
	case key.Matches(msg, k.Hint):
		if ex := p.current().Exercise; ex != nil {
			if p.hints[p.step] < len(ex.Hints) {
				p.hints[p.step]++
				_ = p.sess.setHints(p.step, p.hints[p.step])
				p.refresh()
				p.prose.vp.GotoBottom()
			} else {
				return statusCmd("No more hints.")
			}
		}
	case key.Matches(msg, k.Solution):
		if p.isExercise() {
			if r := p.exResult[p.step]; r == nil || r.Passed {
				return statusCmd("The solution is offered after a failed attempt.")
			}
			p.confirm = confirmSolution
		}
	case key.Matches(msg, k.Focus):
		p.focus = (p.focus + 1) % len(p.focusOrder())
		p.SetSize(p.Width, p.Height)
	case key.Matches(msg, k.Down):
		p.focused().ScrollDown(1)
	case key.Matches(msg, k.Up):
		p.focused().ScrollUp(1)
	case key.Matches(msg, k.PageDown):
		p.focused().PageDown()
	case key.Matches(msg, k.PageUp):
		p.focused().PageUp()
	case key.Matches(msg, k.Shell):
		p.mode = modeShell
		p.SetSize(p.Width, p.Height)
		if p.shellLog.Len() > 0 {
			p.output.SetContent(p.shellLog.String())
			p.output.vp.GotoBottom()
		}
		return p.shellIn.Focus()
	case key.Matches(msg, k.Stages):
		if p.hasStages() {
			p.mode = modeStages
			return p.runStage(0)
		}
		return statusCmd("Stage preview works on a step whose code is a single aggregate([...]).")
	case key.Matches(msg, k.Group):
		if len(p.compareGroups()) > 1 {
			p.showGroup(p.group + 1)
		}
	case key.Matches(msg, k.Setup):
		if len(p.current().Code(lessons.Setup)) > 0 {
			p.showSetup = !p.showSetup
			p.prose.SetContent(p.proseWithExtra(p.outputs[p.step]))
		}
	case key.Matches(msg, k.Reset):
		p.confirm = confirmReset
	case key.Matches(msg, k.ResetExercise):
		if p.isExercise() {
			p.confirm = confirmResetExercise
		}
	case key.Matches(msg, k.Back):
		return func() tea.Msg { return backToCatalogMsg{} }
	}
	return nil
}

func statusCmd(s string) tea.Cmd { return func() tea.Msg { return statusMsg(s) } }
