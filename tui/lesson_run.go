package tui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/schemalab/schemalab/lessons"
)

func (p *lessonPage) run() tea.Cmd {
	i := p.step
	return p.runs.start(p.ctx, fmt.Sprintf("running step %d", i+1), func(ctx context.Context, seq int) tea.Cmd {
		return p.sess.runStepCmd(ctx, seq, i)
	})
}

func (p *lessonPage) check() tea.Cmd {
	i, code := p.step, p.editor.Value()
	p.saveDraft()
	return p.runs.start(p.ctx, "checking your code", func(ctx context.Context, seq int) tea.Cmd {
		return p.sess.exerciseCmd(ctx, seq, i, code)
	})
}

// runEdited runs the learner's edit of a run step from the state just
// before the step.
func (p *lessonPage) runEdited() tea.Cmd {
	i, code := p.step, p.editor.Value()
	return p.runs.start(p.ctx, "running your edit", func(ctx context.Context, seq int) tea.Cmd {
		return p.sess.editedCmd(ctx, seq, i, code)
	})
}

func (p *lessonPage) runStage(k int) tea.Cmd {
	if len(p.stages) > 0 {
		k = (k + len(p.stages)) % len(p.stages)
	} else {
		k = max(k, 0)
	}
	i := p.step
	return p.runs.start(p.ctx, fmt.Sprintf("stage %d", k+1), func(ctx context.Context, seq int) tea.Cmd {
		return p.sess.stageCmd(ctx, seq, i, k)
	})
}

// runDone puts a finished run's result where it belongs and records
// progress.
func (p *lessonPage) runDone(m runDoneMsg) tea.Cmd {
	if m.sess != p.sess {
		return nil
	}
	st := p.Styles
	footer := "ran in " + p.fmtDur(m.elapsed)
	if len(m.notes) > 0 {
		footer += " · " + m.notes[len(m.notes)-1]
	}
	switch m.kind {
	case runStep:
		if p.isExerciseAt(m.step) {
			// An exercise's own code ran: its output goes under the code,
			// the Check pane stays for the learner's answer, and the step
			// is done only when the answer passes.
			text := ""
			if m.err != nil {
				text = st.Error.Render(errorText(m.err))
			} else {
				text = p.formatStep(m.res, m.pics).text
			}
			p.exRuns[m.step] = text
			if m.step == p.step {
				shown := p.prose.vp.TotalLineCount()
				p.refresh()
				p.prose.vp.SetYOffset(max(shown-p.prose.vp.Height()/3, 0))
			}
			return nil
		}
		out := &stepOutput{}
		if m.err != nil {
			out.text = st.Error.Render(errorText(m.err))
		} else {
			out = p.formatStep(m.res, m.pics)
			if out.ok {
				_ = p.sess.markDone(m.step)
			}
		}
		out.footer = footer
		p.outputs[m.step] = out
	case runExercise:
		out := &stepOutput{footer: footer}
		if m.err != nil {
			out.text = st.Error.Render(errorText(m.err))
		} else {
			p.exResult[m.step] = m.ex
			_ = p.sess.recordAttempt(m.step, m.ex.Passed)
			out.text = p.formatExercise(m.ex)
			out.ok = m.ex.Passed
		}
		p.outputs[m.step] = out
	case runShell:
		fmt.Fprintf(&p.shellLog, "%s\n", st.Prompt.Render(p.shellPrompt())+strings.ReplaceAll(m.src, "\n", "\n… "))
		text := strings.TrimRight(m.out, "\n")
		if m.err != nil && text == "" {
			text = st.Error.Render(errorText(m.err))
		}
		if text != "" {
			p.shellLog.WriteString(text + "\n")
		}
		for _, n := range m.notes {
			p.shellLog.WriteString(st.Muted.Render(n) + "\n")
		}
		if p.mode == modeShell {
			p.output.title = "Scratch shell · " + p.sess.runner.Database()
			p.output.footer = footer
			p.output.SetContent(p.shellLog.String())
			p.output.vp.GotoBottom()
		}
		return nil
	case runStage:
		if m.err != nil {
			p.output.SetContent(st.Error.Render(errorText(m.err)))
			return nil
		}
		p.stage, p.stages = m.stage, m.stages
		if p.mode == modeStages && m.step == p.step {
			name := ""
			if m.stage < len(m.stages) {
				name = m.stages[m.stage]
			}
			p.output.title = fmt.Sprintf("After stage %d of %d · %s", m.stage+1, len(m.stages), name)
			p.output.footer = footer
			p.output.SetContent(p.stageStrip() + "\n\n" + strings.TrimRight(m.out, "\n"))
		}
		return nil
	case runEdited:
		text := strings.TrimRight(m.out, "\n")
		if m.err != nil && text == "" {
			text = st.Error.Render(errorText(m.err))
		}
		if p.editRun && m.step == p.step {
			p.output.title = "Output · your edit"
			p.output.footer = footer
			p.output.SetContent(text)
		}
		return nil
	case runReset:
		if m.err != nil {
			return statusCmd("reset failed: " + errorText(m.err))
		}
		return statusCmd("Lesson reset: database dropped, progress forgotten.")
	case runResetExercise:
		if m.err != nil {
			return statusCmd("reset failed: " + errorText(m.err))
		}
		delete(p.drafts, m.step)
		delete(p.outputs, m.step)
		delete(p.exResult, m.step)
		if m.step == p.step {
			p.editor.SetValue(m.src)
			p.refresh()
		}
		return statusCmd("Exercise started over: the data as the exercise begins, and the starter code.")
	}
	if m.step == p.step {
		if p.isCompare() {
			// The figures pane fits the figures the run returned.
			p.SetSize(p.Width, p.Height)
		}
		// A run must not move the prose the reader is looking at.
		y := p.prose.vp.YOffset()
		p.refresh()
		p.prose.vp.SetYOffset(y)
	}
	return nil
}

// stageStrip shows the pipeline's stages with the current one marked.
func (p *lessonPage) stageStrip() string {
	var parts []string
	for i, s := range p.stages {
		if i == p.stage {
			parts = append(parts, p.Styles.Selected.Render("["+s+"]"))
		} else {
			parts = append(parts, p.Styles.Muted.Render(s))
		}
	}
	return strings.Join(parts, p.Styles.Muted.Render(" → "))
}

func errorText(err error) string {
	if err == context.Canceled {
		return "Cancelled."
	}
	return err.Error()
}

// formatStep is the output pane's text for a step result: each block's
// mongosh transcript, expectations and failures.
func (p *lessonPage) formatStep(res *lessons.StepResult, pics *lessons.Pictures) *stepOutput {
	st := p.Styles
	var parts []string
	var groups [][]lessons.VariantResult
	met := 0
	// Pictures go first, above the transcripts, so that a chart drawn from
	// the step's second query is not below a long first output.
	var drawn []string
	if pics == nil {
		pics = &lessons.Pictures{}
	}
	if pic := treePicture(st, pics.Tree); pic != "" {
		drawn = append(drawn, pic)
	}
	for _, c := range pics.Charts {
		if pic := picture(st, c, max(p.output.vp.Width(), 20), p.Present); pic != "" {
			drawn = append(drawn, pic)
		}
	}
	for _, b := range res.Blocks {
		if b.Block == nil {
			continue
		}
		switch b.Block.Kind {
		case lessons.Run:
			parts = append(parts, strings.TrimRight(b.Result.Transcript, "\n"))
		case lessons.Compare:
			if b.Variants != nil {
				groups = append(groups, b.Variants)
			}
		case lessons.ExpectOutput, lessons.ExpectJS:
			if b.Passed {
				met++
			}
		}
	}
	parts = append(drawn, parts...)
	if met > 0 {
		parts = append(parts, st.Success.Render(fmt.Sprintf("✓ %d expectation%s met", met, plural(met))))
	}
	for _, f := range res.Failures {
		parts = append(parts, st.Error.Render("✗ "+f.Msg))
	}
	if len(parts) == 0 && len(groups) == 0 {
		msg := "Nothing to run in this step: read it, then press n for the next one."
		if p.hasCode() {
			msg = "The step ran and printed nothing."
		}
		parts = append(parts, st.Muted.Render(msg))
	}
	out := &stepOutput{groups: groups, ok: res.OK(), text: strings.Join(parts, "\n\n")}
	if len(groups) > 0 {
		out.extra = out.text
		out.text = figuresTable(st, groups[0], max(p.output.vp.Width(), 20), p.Present)
	}
	return out
}

func (p *lessonPage) formatExercise(r *lessons.ExerciseResult) string {
	st := p.Styles
	var b strings.Builder
	if r.Passed {
		b.WriteString(st.Success.Render("✓ Passed") + "\n")
		if r.Message != "" {
			b.WriteString(r.Message + "\n")
		}
	} else {
		b.WriteString(st.Error.Render("✗ Not yet") + "\n")
		if r.Message != "" {
			b.WriteString(r.Message + "\n")
		}
		hint := "Press h for a hint, v to see the solution, u to start over."
		if ex := p.current().Exercise; ex != nil && p.hints[p.step] >= len(ex.Hints) {
			hint = "Press v to see the solution, u to start over."
		}
		b.WriteString(st.Muted.Render(hint) + "\n")
	}
	if g := r.Goal; g != nil && !r.Passed {
		b.WriteString("\n" + p.goalText(g))
	}
	if t := strings.TrimRight(r.Attempt.Transcript, "\n"); t != "" {
		b.WriteString("\n" + st.Muted.Render("your code printed:") + "\n" + t)
	}
	return b.String()
}

// goalText sets the data the attempt left beside the goal's: a line per
// collection, and its first differences.
func (p *lessonPage) goalText(g *lessons.GoalComparison) string {
	st := p.Styles
	var b strings.Builder
	b.WriteString(st.PaneTitle.Render("Your data beside the goal") + "\n")
	for _, c := range g.Collections {
		switch {
		case c.OnlyYours:
			b.WriteString(st.Error.Render("✗ "+c.Name) + st.Muted.Render(": your code wrote here; the goal leaves it alone") + "\n")
			continue
		case c.Match():
			b.WriteString(st.Success.Render("✓ "+c.Name) + st.Muted.Render(fmt.Sprintf(": as in the goal (%d documents)", c.Yours)) + "\n")
			continue
		}
		b.WriteString(st.Error.Render("✗ "+c.Name) + st.Muted.Render(fmt.Sprintf(": %d documents, the goal has %d", c.Yours, c.Goal)) + "\n")
		if c.TooLarge {
			b.WriteString(st.Muted.Render("  too many documents to compare one by one") + "\n")
		}
		for _, d := range c.Differences {
			b.WriteString("  " + d.String() + "\n")
		}
		if c.More > 0 {
			b.WriteString(st.Muted.Render(fmt.Sprintf("  … and %d more", c.More)) + "\n")
		}
	}
	return b.String()
}
