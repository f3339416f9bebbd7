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
	p.drafts[i] = code
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
	if m.lesson != p.lesson().ID {
		return nil
	}
	st := p.Styles
	footer := "ran in " + p.fmtDur(m.elapsed)
	switch m.kind {
	case runStep:
		out := &stepOutput{}
		if m.err != nil {
			out.text = st.Error.Render(errorText(m.err))
		} else {
			out = p.formatStep(m.res, m.tree)
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
		text := strings.TrimRight(m.eval.Transcript, "\n")
		if m.err != nil && text == "" {
			text = st.Error.Render(errorText(m.err))
		}
		if text != "" {
			p.shellLog.WriteString(text + "\n")
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
			p.output.SetContent(p.stageStrip() + "\n\n" + strings.TrimRight(m.eval.Transcript, "\n"))
		}
		return nil
	case runEdited:
		text := strings.TrimRight(m.eval.Transcript, "\n")
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
	}
	if m.step == p.step {
		p.refresh()
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
func (p *lessonPage) formatStep(res *lessons.StepResult, t *treeData) *stepOutput {
	st := p.Styles
	var parts []string
	var variants []lessons.VariantResult
	met := 0
	if pic := treePicture(st, t); pic != "" {
		parts = append(parts, pic)
	}
	for _, b := range res.Blocks {
		if b.Block == nil {
			continue
		}
		switch b.Block.Kind {
		case lessons.Run:
			if pic := picture(st, p.current(), b, max(p.output.vp.Width(), 20), p.Present); pic != "" {
				parts = append(parts, pic)
			}
			parts = append(parts, strings.TrimRight(b.Result.Transcript, "\n"))
		case lessons.Compare:
			variants = b.Variants
		case lessons.ExpectOutput, lessons.ExpectJS:
			if b.Passed {
				met++
			}
		}
	}
	if met > 0 {
		parts = append(parts, st.Success.Render(fmt.Sprintf("✓ %d expectation%s met", met, plural(met))))
	}
	for _, f := range res.Failures {
		parts = append(parts, st.Error.Render("✗ "+f.Msg))
	}
	out := &stepOutput{variants: variants, ok: res.OK(), text: strings.Join(parts, "\n\n")}
	if len(variants) > 0 {
		out.extra = out.text
		out.text = figuresTable(st, variants, max(p.output.vp.Width(), 20), p.Present)
	}
	return out
}

func (p *lessonPage) formatExercise(r *lessons.ExerciseResult) string {
	st := p.Styles
	var b strings.Builder
	if r.Passed {
		b.WriteString(st.Success.Render("✓ Passed") + "\n")
	} else {
		b.WriteString(st.Error.Render("✗ Not yet") + "\n")
		if r.Message != "" {
			b.WriteString(r.Message + "\n")
		}
		hint := "Press h for a hint, v to see the solution."
		if ex := p.current().Exercise; ex != nil && p.hints[p.step] >= len(ex.Hints) {
			hint = "Press v to see the solution."
		}
		b.WriteString(st.Muted.Render(hint) + "\n")
	}
	if t := strings.TrimRight(r.Attempt.Transcript, "\n"); t != "" {
		b.WriteString("\n" + st.Muted.Render("your code printed:") + "\n" + t)
	}
	return b.String()
}
