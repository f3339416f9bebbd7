package tui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/textarea"
	"charm.land/glamour/v2"
	"charm.land/lipgloss/v2"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/tui/common"
)

// lessonMode is what the lesson page is doing besides showing a step.
type lessonMode int

const (
	modeStep lessonMode = iota
	modeEditing
	modeShell
	modeStages
	modeComplete
)

// confirmKind is a question waiting for y/n.
type confirmKind int

const (
	confirmNone confirmKind = iota
	confirmReset
	confirmSolution
	confirmResetExercise
)

// stepOutput is what the output pane shows for one step.
type stepOutput struct {
	text   string
	footer string
	// groups are the step's comparisons, one list of variants each (a step
	// may compare twice).
	groups [][]lessons.VariantResult
	// extra is a comparison step's other output (run blocks, verdicts),
	// shown under its prose since the columns hold the variants.
	extra string
	ok    bool
}

// lessonPage is one lesson: the step on the left, its output on the
// right, or a comparison in columns with its figures underneath.
type lessonPage struct {
	common.Common
	sess *session
	runs *runState
	step int
	mode lessonMode

	prose, output *pane
	variants      []*pane
	focus         int // index into focusOrder()
	// group is the comparison the columns show when a step has several.
	group int

	outputs  map[int]*stepOutput
	drafts   map[int]string
	hints    map[int]int
	exResult map[int]*lessons.ExerciseResult
	// exRuns is the output of an exercise step's own run blocks (the data
	// the question is about), shown under its code in the prose pane.
	exRuns  map[int]string
	confirm confirmKind
	// editRun is set while the learner edits a run step's code (e).
	editRun bool
	// revealed records the steps whose code --present has shown: there a
	// step opens with its prose only, enter reveals the code, the next
	// enter runs it and shows the output with the prose that follows.
	revealed map[int]bool
	// showSetup expands the setup blocks (x), which are collapsed to one
	// line because they are plumbing, not the lesson's point.
	showSetup bool

	editor textarea.Model
	// editorFor is the exercise step whose code the editor holds (-1:
	// none yet), so that a draft is never saved under another step.
	editorFor int
	shellIn   textarea.Model
	history   []string
	histAt    int
	shellLog  strings.Builder

	stage  int
	stages []string

	proseCache map[string]string
	md         *glamour.TermRenderer
	mdKey      string

	fmtDur func(time.Duration) string
	ctx    context.Context
	// originX/Y is where the page is drawn on screen, for the mouse.
	originX, originY int
}

func newLessonPage(ctx context.Context, c common.Common, sess *session, runs *runState, step int) *lessonPage {
	p := &lessonPage{
		Common: c, sess: sess, runs: runs, ctx: ctx,
		prose:      newPane(c, ""),
		output:     newPane(c, "Output"),
		outputs:    map[int]*stepOutput{},
		drafts:     map[int]string{},
		hints:      map[int]int{},
		exResult:   map[int]*lessons.ExerciseResult{},
		revealed:   map[int]bool{},
		exRuns:     map[int]string{},
		proseCache: map[string]string{},
		fmtDur:     roundDuration,
		editorFor:  -1,
	}
	p.editor = newEditor(c)
	p.shellIn = newEditor(c)
	p.shellIn.ShowLineNumbers = false
	p.shellIn.Prompt = ""
	p.shellIn.Placeholder = "mongosh JavaScript on " + sess.runner.Database()
	// Drafts and revealed hints come back from the last visit.
	prog := sess.progress()
	for i, st := range sess.lesson.Steps {
		if st.Exercise == nil {
			continue
		}
		e := prog.Exercise(st.ID)
		if e.Draft != nil {
			p.drafts[i] = *e.Draft
		}
		if e.Hints > 0 {
			p.hints[i] = min(e.Hints, len(st.Exercise.Hints))
		}
	}
	p.goTo(min(max(step, 0), len(sess.lesson.Steps)-1))
	return p
}

// saveDraft keeps the exercise's editor content in the progress store,
// so that a learner who quits mid-exercise comes back to it.
func (p *lessonPage) saveDraft() {
	if p.editorFor != p.step || !p.isExercise() || p.mode == modeComplete || p.editRun {
		return
	}
	p.drafts[p.step] = p.editor.Value()
	_ = p.sess.saveDraft(p.step, p.editor.Value())
}

func newEditor(c common.Common) textarea.Model {
	t := textarea.New()
	t.ShowLineNumbers = true
	t.CharLimit = 0
	t.MaxHeight = 0
	t.Placeholder = "// your code"
	t.SetStyles(c.Styles.Textarea())
	return t
}

func roundDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < 10*time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return d.Round(100 * time.Millisecond).String()
}

func (p *lessonPage) lesson() *lessons.Lesson { return p.sess.lesson }

func (p *lessonPage) current() *lessons.Step { return &p.sess.lesson.Steps[p.step] }

func (p *lessonPage) isCompare() bool { return len(p.current().Code(lessons.Compare)) > 0 }

// showsEditor reports whether the editor is on screen: on an exercise or
// while editing a run step, except while the scratch shell is open, whose
// output needs the room.
func (p *lessonPage) showsEditor() bool {
	return (p.isExercise() || p.editRun) && p.mode != modeShell
}

// needsExerciseRun reports whether the current step is an exercise whose
// own code (say, a distribution to reason about) has not run yet: enter
// runs it first, and checks the answer after that.
func (p *lessonPage) needsExerciseRun() bool {
	_, ran := p.exRuns[p.step]
	return p.isExercise() && !ran && len(p.current().Code(lessons.Run)) > 0
}

// hasCode reports whether the step has anything to run.
func (p *lessonPage) hasCode() bool {
	return slices.ContainsFunc(p.current().Blocks, func(b lessons.Block) bool { return isCode(b.Kind) })
}

func (p *lessonPage) isExercise() bool { return p.current().Exercise != nil }

func (p *lessonPage) hasStages() bool { return p.current().HasStages() }

func (p *lessonPage) lastStep() bool { return p.step == len(p.lesson().Steps)-1 }

// wantsKeys reports whether a text input has the keyboard, so that the
// app must not treat q, ? or : as commands.
func (p *lessonPage) wantsKeys() bool { return p.mode == modeEditing || p.mode == modeShell }

// goTo shows step i and records it as the current step.
func (p *lessonPage) goTo(i int) {
	p.saveDraft()
	p.step, p.mode, p.confirm, p.focus, p.editRun, p.group = i, modeStep, confirmNone, 0, false, 0
	p.editor.Blur()
	if ex := p.current().Exercise; ex != nil {
		d, ok := p.drafts[i]
		if !ok {
			d = ex.Starter
		}
		p.editor.SetValue(d)
		p.editorFor = i
	}
	_ = p.sess.setCurrent(i)
	p.showGroup(0)
}

// compareGroups are the step's compare blocks, one list per comparison.
func (p *lessonPage) compareGroups() [][]lessons.Block {
	var groups [][]lessons.Block
	for _, b := range p.current().Code(lessons.Compare) {
		if n := len(groups); n == 0 || groups[n-1][0].Group != b.Group {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], b)
	}
	return groups
}

// showGroup puts comparison g of the step in the columns.
func (p *lessonPage) showGroup(g int) {
	groups := p.compareGroups()
	p.group = 0
	if len(groups) > 0 {
		p.group = (g%len(groups) + len(groups)) % len(groups)
	}
	p.variants = nil
	if len(groups) > 0 {
		for _, b := range groups[p.group] {
			p.variants = append(p.variants, newPane(p.Common, b.Variant.Label))
		}
	}
	p.focus = 0
	p.SetSize(p.Width, p.Height)
	p.refresh()
}

func (p *lessonPage) figuresTitle() string {
	if n := len(p.compareGroups()); n > 1 {
		return fmt.Sprintf("Figures · comparison %d of %d · g shows the next", p.group+1, n)
	}
	return "Figures"
}

// groupVariants is the result of the comparison the columns show.
func (p *lessonPage) groupVariants(out *stepOutput) []lessons.VariantResult {
	if out == nil || p.group >= len(out.groups) {
		return nil
	}
	return out.groups[p.group]
}

func (p *lessonPage) isExerciseAt(i int) bool {
	return i >= 0 && i < len(p.lesson().Steps) && p.lesson().Steps[i].Exercise != nil
}

// refresh puts the current step's prose and output into the panes.
func (p *lessonPage) refresh() {
	st := p.current()
	p.prose.title = fmt.Sprintf("Step %d of %d · %s", p.step+1, len(p.lesson().Steps), plainTitle(st.Title))
	out := p.outputs[p.step]
	p.prose.SetContent(p.proseWithExtra(out))
	p.output.title = "Output"
	if p.isExercise() {
		p.output.title = "Check"
	}
	switch {
	case out != nil:
		p.output.SetContent(out.text)
		p.output.footer = out.footer
	case p.needsExerciseRun():
		p.output.SetContent(p.Styles.Muted.Render("Press enter to run the step's code: its output appears under it. Then e to write your answer."))
		p.output.footer = ""
	case p.isExercise():
		p.output.SetContent(p.Styles.Muted.Render("Press e to edit, enter to check your code."))
		p.output.footer = ""
	case !p.hasCode():
		p.output.SetContent(p.Styles.Muted.Render("Nothing to run in this step: read it, then press n for the next one."))
		p.output.footer = ""
	case p.reveal() == revealProse:
		p.output.SetContent(p.Styles.Muted.Render("Press enter to reveal the code."))
		p.output.footer = ""
	default:
		p.output.SetContent(p.Styles.Muted.Render("Press enter to run this step."))
		p.output.footer = ""
	}
	for i, vp := range p.variants {
		vp.SetContent(p.variantContent(i))
	}
}

func (p *lessonPage) proseWithExtra(out *stepOutput) string {
	s := p.renderStep()
	if r, ok := p.exRuns[p.step]; ok && p.isExercise() {
		s += "\n" + p.Styles.PaneTitle.Render("Output") + "\n" + r
	}
	if out != nil && out.extra != "" {
		s += "\n" + p.Styles.PaneTitle.Render("Output") + "\n" + out.extra
	}
	return s
}

// revealLevel is how much of a step --present shows.
type revealLevel int

const (
	revealAll   revealLevel = iota // everything: not presenting, or run
	revealProse                    // the prose before the first code block
	revealCode                     // up to the last code block, not the prose after it
)

func isCode(k lessons.BlockKind) bool {
	return k == lessons.Run || k == lessons.Setup || k == lessons.Compare
}

// reveal is how much of the current step is shown. Exercises are shown
// whole: the editor is their code.
func (p *lessonPage) reveal() revealLevel {
	if !p.Present || p.isExercise() || p.outputs[p.step] != nil {
		return revealAll
	}
	if !p.hasCode() {
		return revealAll
	}
	if p.revealed[p.step] {
		return revealCode
	}
	return revealProse
}

// shownBlocks is the number of the step's blocks the reveal level shows.
func (p *lessonPage) shownBlocks(level revealLevel) int {
	blocks := p.current().Blocks
	switch level {
	case revealProse:
		return max(slices.IndexFunc(blocks, func(b lessons.Block) bool { return isCode(b.Kind) }), 0)
	case revealCode:
		last := 0
		for i, b := range blocks {
			if isCode(b.Kind) {
				last = i + 1
			}
		}
		return last
	}
	return len(blocks)
}

// renderStep is the left pane: prose through Glamour, executable code
// highlighted, setup collapsed, revealed hints.
func (p *lessonPage) renderStep() string {
	w := max(p.prose.vp.Width(), 20)
	level := p.reveal()
	ck := fmt.Sprintf("%d/%d/%s/%d/%d/%t", p.step, w, p.Styles.Glamour, p.hints[p.step], level, p.showSetup)
	if s, ok := p.proseCache[ck]; ok {
		return s
	}
	st := p.current()
	var parts []string
	for _, b := range st.Blocks[:p.shownBlocks(level)] {
		switch b.Kind {
		case lessons.Prose:
			parts = append(parts, p.markdown(b.Text, w))
		case lessons.Run:
			parts = append(parts, p.codeBlock(b.Text, "run", w))
		case lessons.Setup:
			if p.showSetup {
				parts = append(parts, p.codeBlock(b.Text, "setup · runs first · x hides it", w))
				continue
			}
			n := strings.Count(b.Text, "\n") + 1
			parts = append(parts, p.Styles.Muted.Render(fmt.Sprintf("▸ setup · %d line%s, runs first · x shows it", n, plural(n))))
		case lessons.Compare:
			if p.isCompare() && p.Width >= 60 {
				continue // shown in the variant columns
			}
			parts = append(parts, p.codeBlock(b.Text, b.Variant.Label, w))
		}
	}
	switch level {
	case revealProse:
		parts = append(parts, p.Styles.Muted.Render("▸ enter reveals the code"))
	case revealCode:
		if p.shownBlocks(level) < len(st.Blocks) {
			parts = append(parts, p.Styles.Muted.Render("▸ enter runs it; more follows the output"))
		}
	}
	if ex := st.Exercise; ex != nil {
		n := p.hints[p.step]
		for i := 0; i < n && i < len(ex.Hints); i++ {
			parts = append(parts, p.Styles.Warning.Render(fmt.Sprintf("Hint %d/%d", i+1, len(ex.Hints)))+"\n"+p.markdown(ex.Hints[i], w))
		}
		if n < len(ex.Hints) {
			parts = append(parts, p.Styles.Muted.Render(fmt.Sprintf("%d hint%s available: press h", len(ex.Hints)-n, plural(len(ex.Hints)-n))))
		}
	}
	s := strings.Join(parts, "\n")
	p.proseCache[ck] = s
	return s
}

// plainTitle drops the Markdown code marks of a heading: a pane title is
// plain text, where `count` would show its backticks.
func plainTitle(s string) string { return strings.ReplaceAll(s, "`", "") }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func (p *lessonPage) markdown(src string, w int) string {
	key := fmt.Sprintf("%s/%d", p.Styles.Glamour, w)
	if p.md == nil || p.mdKey != key {
		r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(p.Styles.Glamour), glamour.WithWordWrap(max(w-4, 10)))
		if err != nil {
			return src
		}
		p.md, p.mdKey = r, key
	}
	out, err := p.md.Render(src)
	if err != nil {
		return src
	}
	return strings.Trim(out, "\n")
}

func (p *lessonPage) codeBlock(code, label string, w int) string {
	gutter := p.Styles.Accent.Render("│ ")
	// Wrapped here, inside the gutter, so that a long line's continuation
	// still reads as code.
	lines, _ := softWrap(strings.Split(highlightJS(code, p.Styles), "\n"), max(w-2, 10))
	for i := range lines {
		lines[i] = gutter + lines[i]
	}
	head := p.Styles.Accent.Render("▶ " + label)
	return head + "\n" + strings.Join(lines, "\n") + "\n"
}

// variantContent is a comparison column: its code, then its output.
func (p *lessonPage) variantContent(i int) string {
	groups := p.compareGroups()
	if p.group >= len(groups) || i >= len(groups[p.group]) {
		return ""
	}
	blocks := groups[p.group]
	code := highlightJS(blocks[i].Text, p.Styles)
	if p.reveal() == revealProse {
		return p.Styles.Muted.Render("enter reveals the code")
	}
	out := p.outputs[p.step]
	body := p.Styles.Muted.Render("Press enter to run the comparison.")
	if vs := p.groupVariants(out); i < len(vs) {
		v := vs[i]
		body = strings.TrimRight(v.Result.Transcript, "\n")
		if v.Err != nil && body == "" {
			body = p.Styles.Error.Render(v.Err.Error())
		}
	}
	rule := p.Styles.Muted.Render(strings.Repeat("─", max(p.variants[i].vp.Width(), 1)))
	return code + "\n" + rule + "\n" + body
}

// focusOrder is the panes tab cycles through.
func (p *lessonPage) focusOrder() []*pane {
	if p.isCompare() {
		return append([]*pane{p.prose}, p.variants...)
	}
	return []*pane{p.prose, p.output}
}

func (p *lessonPage) focused() *pane {
	o := p.focusOrder()
	return o[p.focus%len(o)]
}

// SetSize lays the page out: side by side at 100 columns or more, stacked
// below that.
func (p *lessonPage) SetSize(w, h int) {
	p.Common.SetSize(w, h)
	bodyH := h - 1 // header line
	if p.mode == modeShell {
		bodyH -= shellHeight
	}
	bodyH = max(bodyH, 4)
	for _, pn := range append(p.focusOrder(), p.output) {
		pn.focused = false
	}
	p.focused().focused = true
	y := p.originY + 1
	switch {
	case p.mode == modeComplete:
	case p.isCompare():
		figH := p.figuresHeight()
		proseH := max(min(bodyH/4, 12), 4)
		colH := max(bodyH-proseH-figH, 4)
		p.prose.SetSize(w, proseH)
		p.prose.x, p.prose.y = p.originX, y
		n := max(len(p.variants), 1)
		colW := w / n
		for i, vp := range p.variants {
			cw := colW
			if i == n-1 {
				cw = w - colW*(n-1)
			}
			vp.SetSize(cw, colH)
			vp.x, vp.y = p.originX+i*colW, y+proseH
		}
		p.output.SetSize(w, figH)
	case w >= 100:
		left := w * 11 / 20
		p.prose.SetSize(left, bodyH)
		p.prose.x, p.prose.y = p.originX, y
		p.output.SetSize(w-left, bodyH)
		p.output.x, p.output.y = p.originX+left, y
	default:
		top := bodyH * 11 / 20
		if p.showsEditor() {
			top = bodyH * 2 / 5
		}
		p.prose.SetSize(w, top)
		p.prose.x, p.prose.y = p.originX, y
		p.output.SetSize(w, bodyH-top)
		p.output.x, p.output.y = p.originX, y+top
	}
	if p.showsEditor() {
		edH := p.output.Height / 2
		if p.Width < 100 {
			edH = p.output.Height * 3 / 5
		}
		p.editor.SetWidth(max(p.output.Width-4, 10))
		p.editor.SetHeight(max(edH-2, 2))
		p.output.SetSize(p.output.Width, p.output.Height-edH)
		p.output.y += edH
	}
	p.shellIn.SetWidth(max(w-4-len(p.shellPrompt()), 10))
	p.shellIn.SetHeight(shellHeight - 2)
	// Cached prose depends on the width.
	if len(p.lesson().Steps) > 0 {
		p.prose.SetContent(p.proseWithExtra(p.outputs[p.step]))
		for i, vp := range p.variants {
			vp.SetContent(p.variantContent(i))
		}
	}
}

const shellHeight = 5

func (p *lessonPage) figuresHeight() int {
	n := 5
	if vs := p.groupVariants(p.outputs[p.step]); len(vs) > 0 {
		n = len(lessons.FigureKeys(vs))
	}
	if p.Present {
		n *= 2
	}
	return n + 3
}

func (p *lessonPage) shellPrompt() string { return p.sess.runner.Database() + "> " }

func (p *lessonPage) nextLessonID() string {
	return p.sess.nextLesson
}

// View draws the page.
func (p *lessonPage) View() string {
	st := p.Styles
	l := p.lesson()
	header := st.Title.Render(l.Title) + st.Muted.Render("  ·  ") + p.stepDots()
	header = fit(header, p.Width)
	var body string
	switch {
	case p.mode == modeComplete:
		body = p.completionView()
	case p.isCompare():
		var cols []string
		for _, vp := range p.variants {
			cols = append(cols, vp.View())
		}
		figs := p.Styles.Muted.Render("Press enter to run both variants and compare their figures.")
		if p.reveal() == revealProse {
			figs = p.Styles.Muted.Render("Press enter to reveal the variants' code.")
		}
		if out := p.outputs[p.step]; out != nil {
			figs = out.text
			if vs := p.groupVariants(out); len(vs) > 0 {
				figs = figuresTable(st, vs, p.output.Width-4, p.Present)
			}
		}
		body = lipgloss.JoinVertical(lipgloss.Left,
			p.prose.View(),
			lipgloss.JoinHorizontal(lipgloss.Top, cols...),
			frame(st, p.output.Width, p.output.Height, p.figuresTitle(), p.output.footer, strings.Split(fitBlock(figs, p.output.Width-4, p.output.Height-2), "\n"), false))
	default:
		right := p.output.View()
		if p.showsEditor() {
			edTitle := "Your code"
			if p.mode == modeEditing {
				edTitle += " · editing (esc to stop, ctrl+r to run)"
			}
			ed := frame(st, p.output.Width, p.editor.Height()+2, edTitle, "", strings.Split(p.editor.View(), "\n"), p.mode == modeEditing)
			right = lipgloss.JoinVertical(lipgloss.Left, ed, right)
		}
		if p.Width >= 100 {
			body = lipgloss.JoinHorizontal(lipgloss.Top, p.prose.View(), right)
		} else {
			body = lipgloss.JoinVertical(lipgloss.Left, p.prose.View(), right)
		}
	}
	if p.mode == modeShell {
		in := strings.Split(p.shellIn.View(), "\n")
		prompt := st.Prompt.Render(p.shellPrompt())
		pad := strings.Repeat(" ", len(p.shellPrompt()))
		for i := range in {
			if i == 0 {
				in[i] = prompt + in[i]
			} else {
				in[i] = pad + in[i]
			}
		}
		body = lipgloss.JoinVertical(lipgloss.Left, body, frame(st, p.Width, shellHeight, "Scratch shell · enter evaluates · esc closes", "", in, true))
	}
	return fitBlock(header+"\n"+body, p.Width, p.Height)
}

// stepDots is the step counter: one dot per step, done ones filled.
func (p *lessonPage) stepDots() string {
	st := p.Styles
	prog := p.sess.progress()
	n := len(p.lesson().Steps)
	var b strings.Builder
	b.WriteString(st.Muted.Render(fmt.Sprintf("step %d/%d ", p.step+1, n)))
	if n > 40 {
		return b.String()
	}
	for i, s := range p.lesson().Steps {
		switch {
		case i == p.step:
			b.WriteString(st.Selected.Render("●"))
		case prog.IsDone(s.ID):
			b.WriteString(st.Accent.Render("●"))
		default:
			b.WriteString(st.Muted.Render("○"))
		}
	}
	return b.String()
}

func (p *lessonPage) completionView() string {
	st := p.Styles
	l := p.lesson()
	sum := lessons.Summarize(l, p.sess.progress())
	var b strings.Builder
	if sum.StepsDone >= sum.Steps {
		b.WriteString(st.Success.Render("✓ Lesson complete: "+l.Title) + "\n\n")
	} else {
		left := sum.Steps - sum.StepsDone
		b.WriteString(st.Title.Render("End of "+l.Title) + st.Muted.Render(fmt.Sprintf(" · %d step%s not done yet (○ below)", left, plural(left))) + "\n\n")
	}
	b.WriteString(st.Subtitle.Render("What you worked through") + "\n")
	for _, s := range l.Steps {
		mark := st.Muted.Render("○ ")
		if p.sess.progress().IsDone(s.ID) {
			mark = st.Accent.Render("● ")
		}
		b.WriteString("  " + mark + plainTitle(s.Title) + "\n")
	}
	b.WriteString("\n")
	b.WriteString(fmt.Sprintf("Steps done: %d of %d\n", sum.StepsDone, sum.Steps))
	if sum.Exercises > 0 {
		b.WriteString(fmt.Sprintf("Exercises passed: %d of %d\n", sum.ExercisesDone, sum.Exercises))
	}
	b.WriteString("\n")
	if p.sess.nextLesson != "" {
		b.WriteString("Next: " + st.Title.Render(p.sess.nextTitle) + st.Muted.Render("  (enter to start, esc to go back)"))
	} else {
		b.WriteString(st.Muted.Render("That was the last lesson. esc goes back, q quits."))
	}
	return lipgloss.NewStyle().Padding(1, 2).Render(b.String())
}
