// Package lesson is the lesson page: a header, the step as a notebook
// (stepView), and the sub-models a step may open: the exercise's editor,
// the scratch shell and the stage preview. The page lays them out and
// sizes each; every run is a request to the lesson's session (runs.go)
// and comes back as a Ran message.
package lesson

import (
	"context"

	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/components/pane"
)

var (
	msgStillRunning  = &locale.Message{ID: "lesson.stillRunning", Other: "Still running {{.Label}} ({{.Key}} cancels it)."}
	msgRunningStep   = &locale.Message{ID: "lesson.runningStep", Other: "running step {{.N}}"}
	msgChecking      = &locale.Message{ID: "lesson.checking", Other: "checking your code"}
	msgRunningEdit   = &locale.Message{ID: "lesson.runningEdit", Other: "running your edit"}
	msgEvaluating    = &locale.Message{ID: "lesson.evaluating", Other: "evaluating"}
	msgStageN        = &locale.Message{ID: "lesson.stage", Other: "stage {{.N}}"}
	msgResetting     = &locale.Message{ID: "lesson.resetting", Other: "resetting {{.ID}}"}
	msgStartingOver  = &locale.Message{ID: "lesson.startingOver", Other: "starting the exercise over"}
	msgNoHints       = &locale.Message{ID: "lesson.noHints", Other: "No more hints."}
	msgSolutionAfter = &locale.Message{ID: "lesson.solutionAfter", Other: "The solution is offered after a failed attempt."}
	msgNoStages      = &locale.Message{ID: "lesson.noStages", Other: "Stage preview works on code that is a single aggregate([...])."}
	msgResetDone     = &locale.Message{ID: "lesson.resetDone", Other: "Lesson reset: database dropped, progress forgotten."}
	msgResetFailed   = &locale.Message{ID: "lesson.resetFailed", Other: "Reset failed: {{.Err}}"}
	msgExerciseOver  = &locale.Message{ID: "lesson.exerciseOver", Other: "Exercise started over: the data as the exercise begins, and the starter code."}
	msgEditorFailed  = &locale.Message{ID: "lesson.editorFailed", Other: "Editor: {{.Err}}"}
	msgWatchStopped  = &locale.Message{ID: "lesson.watchStopped", Other: "Stopped watching {{.Path}}; the code is in the editor."}
	msgWatchFailed   = &locale.Message{ID: "lesson.watchFailed", Other: "Reading {{.Path}}: {{.Err}}"}
	msgConfirmReset  = &locale.Message{ID: "lesson.confirmReset", Other: "Reset {{.ID}}? This drops {{.DB}} and forgets its progress. y/N"}
	msgConfirmSol    = &locale.Message{ID: "lesson.confirmSolution", Other: "Replace your code with the reference solution? y/N"}
	msgConfirmEx     = &locale.Message{ID: "lesson.confirmExercise", Other: "Start this exercise over? The data goes back to how the exercise begins and your code to the starter. y/N"}
	msgStepCount     = &locale.Message{ID: "lesson.stepCount", Other: "step {{.N}}/{{.Total}} "}
	msgIntroCount    = &locale.Message{ID: "lesson.introCount", Other: "introduction "}
	msgEndCount      = &locale.Message{ID: "lesson.endCount", Other: "the end "}
)

// confirm is a question waiting for y or n.
type confirm int

const (
	confirmNone confirm = iota
	confirmReset
	confirmSolution
	confirmResetExercise
)

// Options are what the app gives a lesson page.
type Options struct {
	// Session is the learner's session of the lesson; the page closes it
	// when it closes.
	Session *lessons.Session
	Store   *lessons.Store
	// Next is the lesson the completion page offers; nil for the last.
	Next *lessons.Lesson
	// Step is where to open (0-based); < 0 resumes, at the introduction
	// for a lesson not started.
	Step int
	// FirstSeq numbers the page's runs, so that a run of a page the
	// learner left is never taken for one of this page's.
	FirstSeq int
	// ExerciseDir is where watch mode writes exercise files when there is
	// no store (tests); "" uses the store's state directory.
	ExerciseDir string
	// Observe, if set, is told what the learner does.
	Observe func(Activity)
}

// Page is the lesson page.
type Page struct {
	common.Common
	ctx     context.Context
	lesson  *lessons.Lesson
	next    *lessons.Lesson
	session *lessons.Session
	prog    progress
	runs    *runs
	exDir   string
	pos     int // -1 the introduction, len(Steps) the completion page
	states  map[int]*stepState
	drafts  map[int]string
	// inputs is the scratch shell's history, oldest first: the store's,
	// and kept here too so that a shell closed and opened again has it
	// without a store.
	inputs []string
	view   *stepView
	editor *editor
	// tool is the panel at the bottom, the scratch shell or the stage
	// preview, as toolKind says; nil when neither is open.
	tool     common.Component
	toolKind toolKind
	confirm  confirm
	focus    int
	// watch follows the exercise's file in watch mode; nil when off.
	watch    *watcher
	watchGen int
	// rects are where the children are drawn, computed by layout.
	rects rects
}

// toolKind says which tool is open.
type toolKind int

const (
	noTool toolKind = iota
	shellTool
	stagesTool
)

// rects are the page's children's areas, in the page's cells: the step
// under the header line, the editor beside or under it, and the scratch
// shell or the stage preview at the bottom. Zero where a child is not
// shown.
type rects struct{ view, editor, tool common.Rect }

var _ common.Component = (*Page)(nil)

// New opens lesson l.
func New(ctx context.Context, c common.Common, l *lessons.Lesson, opts Options) *Page {
	p := &Page{Common: c, ctx: ctx, lesson: l, next: opts.Next, session: opts.Session,
		prog: progress{store: opts.Store, lesson: l, observe: opts.Observe}, states: map[int]*stepState{}, drafts: map[int]string{},
		exDir: opts.ExerciseDir}
	p.runs = &runs{session: opts.Session, seq: opts.FirstSeq}
	p.inputs = p.prog.shellHistory()
	pr := p.prog.get()
	for i, st := range l.Steps {
		if st.Exercise == nil {
			continue
		}
		e := pr.Exercise(st.ID)
		if e.Draft != nil {
			p.drafts[i] = *e.Draft
		}
		if e.Hints > 0 {
			p.state(i).hints = min(e.Hints, len(st.Exercise.Hints))
		}
	}
	step := opts.Step
	if step < 0 {
		step = l.StepIndex(pr.Current)
		if step < 0 && l.Intro == "" {
			step = 0
		}
	}
	p.goTo(min(step, len(l.Steps)-1))
	return p
}

// Lesson is the page's lesson.
func (p *Page) Lesson() *lessons.Lesson { return p.lesson }

// Step is the step shown (0-based; -1 the introduction).
func (p *Page) Step() int { return p.pos }

func (p *Page) state(i int) *stepState {
	s := p.states[i]
	if s == nil {
		s = &stepState{}
		p.states[i] = s
	}
	return s
}

func (p *Page) current() *lessons.Step {
	if p.pos < 0 || p.pos >= len(p.lesson.Steps) {
		return nil
	}
	return &p.lesson.Steps[p.pos]
}

func (p *Page) isExercise() bool { return p.current() != nil && p.current().Exercise != nil }

func (p *Page) atEnd() bool { return p.pos >= len(p.lesson.Steps) }

// goTo shows step i (-1 the introduction).
func (p *Page) goTo(i int) {
	p.saveDraft()
	p.stopWatch()
	if i < 0 && p.lesson.Intro == "" {
		i = 0
	}
	p.pos, p.confirm, p.focus, p.editor = i, confirmNone, 0, nil
	p.closeTool()
	if p.atEnd() {
		p.view = nil
		return
	}
	p.view = newStepView(p.Common, p.lesson, i, p.state(i))
	if ex := p.current(); ex != nil && ex.Exercise != nil {
		code, ok := p.drafts[i]
		if !ok {
			code = ex.Exercise.Starter
		}
		p.editor = newEditor(p.Common, code, false)
		if a := p.state(i).attempt; a != nil {
			p.editor.ShowAttempt(a, p.state(i).hints, len(ex.Exercise.Hints))
		}
	}
	p.prog.setCurrent(i)
	p.layout()
}

// saveDraft keeps the exercise's code in the progress store, so that a
// learner who quits mid-exercise comes back to it.
func (p *Page) saveDraft() {
	if p.editor == nil || p.editor.runEdit || !p.isExercise() {
		return
	}
	code := p.editor.Value()
	if d, ok := p.drafts[p.pos]; ok && d == code {
		return
	}
	if !ok(p.drafts, p.pos) && code == p.current().Exercise.Starter {
		return
	}
	p.drafts[p.pos] = code
	p.prog.saveDraft(p.pos, code)
}

func ok(m map[int]string, k int) bool { _, found := m[k]; return found }

// Close ends the page: the draft is kept, the watch stopped, and the
// session closed, which cancels a run in flight.
func (p *Page) Close() {
	p.saveDraft()
	p.stopWatch()
	_ = p.session.Close()
}

// Running is the run in flight, for the status line.
func (p *Page) Running() (label string, since time.Time, ok bool) { return p.runs.running() }

// Interrupt cancels the run in flight; false when there is none.
func (p *Page) Interrupt() bool { return p.runs.interrupt() }

// WantsKeys reports whether a text input has the keyboard, so that the
// app must not take q, ? or : as commands.
func (p *Page) WantsKeys() bool {
	return (p.editor != nil && p.editor.Editing()) || p.toolKind == shellTool || p.confirm != confirmNone
}

// Question is the y/N question waiting for an answer, or "".
func (p *Page) Question() string {
	switch p.confirm {
	case confirmReset:
		return p.T(msgConfirmReset, map[string]any{"ID": p.lesson.ID, "DB": p.session.Database()})
	case confirmSolution:
		return p.T(msgConfirmSol, nil)
	case confirmResetExercise:
		return p.T(msgConfirmEx, nil)
	}
	return ""
}

func (p *Page) SetSize(w, h int) {
	p.Common.SetSize(w, h)
	p.layout()
}

// layout computes the children's rectangles and sizes each child to
// its own: the header line; the shell or stage preview, when open, at
// the bottom; and above them the step, beside the editor where there is
// room for both at a reading measure, else over it. Drawing, the mouse
// and the cursor all use the rectangles computed here.
func (p *Page) layout() {
	if p.view == nil || p.Width == 0 {
		return
	}
	w, bodyH := p.Width, max(p.Height-1, 4)
	toolH := 0
	switch p.toolKind {
	case shellTool:
		toolH = max(bodyH*2/5, inputHeight+pane.ChromeH+4)
	case stagesTool:
		toolH = max(bodyH/2, 6)
	}
	mainH := max(bodyH-toolH, 4)
	r := rects{view: common.Rect{X: 0, Y: 1, W: w, H: mainH}}
	if toolH > 0 {
		r.tool = common.Rect{X: 0, Y: 1 + mainH, W: w, H: toolH}
	}
	if p.editor != nil {
		left := min(max(w/2, 64), 100)
		if w >= sideBySideWidth {
			p.view.SetSize(left, mainH)
		}
		// Beside the editor, unless the step has code or a table that
		// would have to scroll there and fits the whole width: never
		// squeeze.
		if sw := p.view.scrollWidth(); w >= sideBySideWidth && (sw == 0 || sw > w-pane.ChromeW) {
			r.view.W = left
			r.editor = common.Rect{X: left, Y: 1, W: w - left, H: mainH}
		} else {
			top := mainH * 9 / 20
			r.view.H = top
			r.editor = common.Rect{X: 0, Y: 1 + top, W: w, H: mainH - top}
		}
	}
	p.rects = r
	p.view.SetSize(r.view.W, r.view.H)
	if p.editor != nil {
		p.editor.SetSize(r.editor.W, r.editor.H)
	}
	if p.tool != nil {
		p.tool.SetSize(r.tool.W, r.tool.H)
	}
	p.focusPanes()
}

// sideBySide reports whether the editor is beside the step.
func (p *Page) sideBySide() bool { return p.editor != nil && p.rects.editor.X > 0 }

// sideBySideWidth is the width from which the editor sits beside the step.
const sideBySideWidth = 110

// openTool puts t at the bottom, with the page's focus.
func (p *Page) openTool(t common.Component, kind toolKind) tea.Cmd {
	p.tool, p.toolKind = t, kind
	p.focus = len(p.children()) - 1
	p.layout()
	return t.Init()
}

// closeTool closes the shell or the stage preview.
func (p *Page) closeTool() {
	p.tool, p.toolKind, p.focus = nil, noTool, 0
}

// child is one of the page's children and where it is drawn.
type child struct {
	c common.Component
	r common.Rect
}

// children are the children shown, in the order tab moves between them.
func (p *Page) children() []child {
	out := []child{{p.view, p.rects.view}}
	if p.editor != nil {
		out = append(out, child{p.editor, p.rects.editor})
	}
	if p.tool != nil {
		out = append(out, child{p.tool, p.rects.tool})
	}
	return out
}

func (p *Page) focusPanes() {
	cs := p.children()
	p.focus %= len(cs)
	for i, c := range cs {
		c.c.Update(common.FocusMsg(i == p.focus))
	}
}

// focused is the child the scrolling keys go to.
func (p *Page) focused() common.Component {
	cs := p.children()
	return cs[p.focus%len(cs)].c
}

// wheel scrolls the child under the mouse.
func (p *Page) wheel(m tea.MouseWheelMsg) {
	if p.view == nil || p.atEnd() {
		return
	}
	for _, c := range p.children() {
		if c.r.Contains(m.X, m.Y) {
			c.c.Update(c.r.Wheel(m))
		}
	}
}

// start asks the session for req, or says what is still running.
func (p *Page) start(label string, req lessons.Request) tea.Cmd {
	cmd, ok := p.runs.start(p.ctx, label, req)
	if !ok {
		l, _, _ := p.runs.running()
		return status(p.T(msgStillRunning, map[string]any{"Label": l, "Key": p.KeyMap.Cancel.Help().Key}))
	}
	return cmd
}

func status(s string) tea.Cmd { return func() tea.Msg { return common.StatusMsg(s) } }

func (p *Page) Init() tea.Cmd { return nil }

// Update handles the page's messages: run results, keys, the mouse.
func (p *Page) Update(msg tea.Msg) (common.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case Ran:
		if !p.runs.finish(msg.Seq) {
			return p, nil
		}
		return p, p.ran(msg)
	case EditorClosed:
		if msg.Err != nil {
			return p, status(p.T(msgEditorFailed, map[string]any{"Err": msg.Err.Error()}))
		}
		if p.editor != nil && msg.Step == p.pos {
			p.editor.SetValue(msg.Text)
			p.saveDraft()
			p.layout()
		}
	case editorCheck:
		return p, p.checkCode(msg.code)
	case shellSubmit:
		p.inputs = p.prog.addShellHistory(p.inputs, msg.src)
		return p, p.start(p.T(msgEvaluating, nil), lessons.Request{Op: lessons.OpEval, Step: p.pos, Code: msg.src, Widths: msg.widths})
	case stageAsked:
		return p, p.previewStage(msg.k, msg.widths)
	case fileChanged, pollTick:
		return p, p.watchEvent(msg)
	case tea.MouseWheelMsg:
		p.wheel(msg)
	case tea.KeyPressMsg:
		return p, p.key(msg)
	default:
		return p, p.toInput(msg)
	}
	return p, nil
}

// toInput gives a message (a paste, the cursor's blink) to the text
// input that has the keyboard.
func (p *Page) toInput(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	switch {
	case p.toolKind == shellTool:
		_, cmd = p.tool.Update(msg)
	case p.editor != nil && p.editor.Editing():
		_, cmd = p.editor.Update(msg)
	}
	return cmd
}

// ran takes a run's result to what it is about.
func (p *Page) ran(m Ran) tea.Cmd {
	r := m.Result
	here := r.Step == p.pos
	switch r.Op {
	case lessons.OpRun:
		return p.stepRan(m)
	case lessons.OpAttempt:
		return p.attemptChecked(m)
	case lessons.OpEdit:
		if p.editor != nil && p.editor.runEdit && here {
			p.state(r.Step).edit = &m
			p.editor.ShowEdit(&m)
		}
	case lessons.OpEval, lessons.OpStages:
		if p.tool != nil && here {
			p.tool.Update(m)
		}
	case lessons.OpReset:
		if m.Err == nil {
			m.Err = p.prog.reset()
		}
		if m.Err != nil {
			return status(p.T(msgResetFailed, map[string]any{"Err": errorText(p.Common, m.Err)}))
		}
		return status(p.T(msgResetDone, nil))
	case lessons.OpResetExercise:
		return p.exerciseReset(m)
	}
	return nil
}

func (p *Page) stepRan(m Ran) tea.Cmd {
	i := m.Result.Step
	p.state(i).ran = &m
	st := &p.lesson.Steps[i]
	if m.Err == nil && m.Result.OK() && st.Exercise == nil {
		p.prog.markDone(i)
	}
	if i == p.pos && p.view != nil {
		p.view.ran()
	}
	return nil
}

func (p *Page) attemptChecked(m Ran) tea.Cmd {
	i := m.Result.Step
	st := p.state(i)
	st.attempt = &m
	if m.Err == nil {
		p.prog.recordAttempt(i, m.Result.Passed)
	}
	if i == p.pos && p.editor != nil {
		p.editor.ShowAttempt(&m, st.hints, len(p.lesson.Steps[i].Exercise.Hints))
	}
	if p.watch != nil {
		return p.watch.next()
	}
	return nil
}

func (p *Page) exerciseReset(m Ran) tea.Cmd {
	i := m.Result.Step
	if m.Err == nil {
		m.Err = p.prog.forgetDraft(i)
	}
	if m.Err != nil {
		return status(p.T(msgResetFailed, map[string]any{"Err": errorText(p.Common, m.Err)}))
	}
	delete(p.drafts, i)
	p.state(i).attempt = nil
	if i == p.pos && p.editor != nil {
		p.editor.SetValue(m.Result.Starter)
		p.editor.showIdle()
		if p.watch != nil {
			p.restartWatch()
		}
		p.layout()
	}
	return status(p.T(msgExerciseOver, nil))
}

// runStep runs the step's own code.
func (p *Page) runStep() tea.Cmd {
	i := p.pos
	return p.start(p.T(msgRunningStep, map[string]any{"N": i + 1}), lessons.Request{Op: lessons.OpRun, Step: i, Widths: p.view.widths()})
}

// checkCode checks code as the exercise's answer, or runs it as an edit
// of a run step.
func (p *Page) checkCode(code string) tea.Cmd {
	i := p.pos
	if p.editor != nil && p.editor.runEdit {
		return p.start(p.T(msgRunningEdit, nil), lessons.Request{Op: lessons.OpEdit, Step: i, Code: code, Widths: p.editor.widths()})
	}
	if !p.isExercise() {
		return nil
	}
	p.saveDraft()
	return p.start(p.T(msgChecking, nil), lessons.Request{Op: lessons.OpAttempt, Step: i, Code: code, Widths: p.editor.widths()})
}

// previewStage shows stage k of the pipeline, its output laid out for
// w: the editor's, on an exercise, else the step's own. The preview
// opens at the first stage.
func (p *Page) previewStage(k int, w lessons.Widths) tea.Cmd {
	src := ""
	if p.editor != nil {
		src = p.editor.Value()
		if !lessons.IsPipeline(src) {
			return status(p.T(msgNoStages, nil))
		}
	} else if p.current() == nil || !p.current().HasStages() {
		return status(p.T(msgNoStages, nil))
	}
	var open tea.Cmd
	if p.toolKind != stagesTool {
		st := newStages(p.Common)
		open = p.openTool(st, stagesTool)
		k, w = 0, st.widths()
	}
	return tea.Batch(open, p.start(p.T(msgStageN, map[string]any{"N": k + 1}), lessons.Request{Op: lessons.OpStages, Step: p.pos, Code: src, Stage: k, Widths: w}))
}

// View is the header over the step and what it has open.
func (p *Page) View() string {
	header := common.Fit(p.header(), p.Width)
	var body string
	switch {
	case p.atEnd():
		body = p.completion()
	case p.editor != nil && p.sideBySide():
		body = lipgloss.JoinHorizontal(lipgloss.Top, p.view.View(), p.editor.View())
	case p.editor != nil:
		body = p.view.View() + "\n" + p.editor.View()
	default:
		body = p.view.View()
	}
	if p.tool != nil && !p.atEnd() {
		body += "\n" + p.tool.View()
	}
	return common.FitBlock(header+"\n"+body, p.Width, p.Height)
}

// Cursor is the text cursor of the input with the keyboard, in the
// page's cells.
func (p *Page) Cursor() *tea.Cursor {
	switch {
	case p.toolKind == shellTool:
		return p.rects.tool.Cursor(p.tool.(*shell).Cursor())
	case p.editor != nil && p.editor.Editing():
		return p.rects.editor.Cursor(p.editor.Cursor())
	}
	return nil
}

// header is the lesson's title and a dot per step, done ones filled.
func (p *Page) header() string {
	st := p.Styles
	n := len(p.lesson.Steps)
	var b strings.Builder
	b.WriteString(st.Title.Render(p.lesson.Title) + st.Muted.Render("  ·  "))
	switch {
	case p.pos < 0:
		b.WriteString(st.Muted.Render(p.T(msgIntroCount, nil)))
	case p.atEnd():
		b.WriteString(st.Muted.Render(p.T(msgEndCount, nil)))
	default:
		b.WriteString(st.Muted.Render(p.T(msgStepCount, map[string]any{"N": p.pos + 1, "Total": n})))
	}
	if n > 40 {
		return b.String()
	}
	pr := p.prog.get()
	for i, s := range p.lesson.Steps {
		switch {
		case i == p.pos:
			b.WriteString(st.Selected.Render("●"))
		case pr.IsDone(s.ID):
			b.WriteString(st.Accent.Render("●"))
		default:
			b.WriteString(st.Muted.Render("○"))
		}
	}
	return b.String()
}
