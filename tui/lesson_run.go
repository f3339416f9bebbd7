package tui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"go.mongodb.org/mongo-driver/v2/bson"

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
		if p.isExerciseAt(m.step) {
			// An exercise's own code ran: its output goes under the code,
			// the Check pane stays for the learner's answer, and the step
			// is done only when the answer passes.
			text := ""
			if m.err != nil {
				text = st.Error.Render(errorText(m.err))
			} else {
				text = p.formatStep(m.res, m.tree, m.samples).text
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
			out = p.formatStep(m.res, m.tree, m.samples)
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
func (p *lessonPage) formatStep(res *lessons.StepResult, t *treeData, samples map[outputRef]bson.A) *stepOutput {
	st := p.Styles
	var parts []string
	var groups [][]lessons.VariantResult
	met := 0
	// Pictures go first, above the transcripts, so that a chart drawn from
	// the step's second query is not below a long first output.
	var pics []string
	if pic := treePicture(st, t); pic != "" {
		pics = append(pics, pic)
	}
	for bi, b := range res.Blocks {
		if b.Block == nil {
			continue
		}
		switch b.Block.Kind {
		case lessons.Run:
			full := func(oi int) bson.A { return samples[outputRef{bi, oi}] }
			if pic := picture(st, b, full, max(p.output.vp.Width(), 20), p.Present); pic != "" {
				pics = append(pics, pic)
			}
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
	parts = append(pics, parts...)
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
