package lesson

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/components/notebook"
	"github.com/schemalab/schemalab/tui/components/pane"
	"github.com/schemalab/schemalab/tui/components/viewport"
	"github.com/schemalab/schemalab/tui/keymap"
)

var (
	msgYourCode       = &locale.Message{ID: "editor.title", Other: "Your code"}
	msgEditing        = &locale.Message{ID: "editor.editing", Other: "Your code · editing ({{.Back}} stops, {{.Run}} runs)"}
	msgPlaceholder    = &locale.Message{ID: "editor.placeholder", Other: "// your code"}
	msgCheckTitle     = &locale.Message{ID: "editor.checkTitle", Other: "Check"}
	msgEditTitle      = &locale.Message{ID: "editor.editTitle", Other: "Output · your edit"}
	msgCheckHelp      = &locale.Message{ID: "editor.checkHelp", Other: "Press {{.Edit}} to edit, enter to check your code, {{.Watch}} to use your own editor."}
	msgEditHelp       = &locale.Message{ID: "editor.editHelp", Other: "Edit the step's code, then {{.Run}} runs it from the state the step starts from."}
	msgPassed         = &locale.Message{ID: "editor.passed", Other: "✓ Passed"}
	msgNotYet         = &locale.Message{ID: "editor.notYet", Other: "✗ Not yet"}
	msgNextHint       = &locale.Message{ID: "editor.nextHint", Other: "Press {{.Hint}} for a hint, {{.Solution}} to see the solution, {{.Reset}} to start over."}
	msgNoHintsLeft    = &locale.Message{ID: "editor.noHintsLeft", Other: "Press {{.Solution}} to see the solution, {{.Reset}} to start over."}
	msgGoal           = &locale.Message{ID: "editor.goal", Other: "Your data beside the goal"}
	msgGoalOnlyYours  = &locale.Message{ID: "editor.goalOnlyYours", Other: ": your code wrote here; the goal leaves it alone"}
	msgGoalMatch      = &locale.Message{ID: "editor.goalMatch", One: ": as in the goal ({{.Count}} document)", Other: ": as in the goal ({{.Count}} documents)"}
	msgGoalSameCount  = &locale.Message{ID: "editor.goalSameCount", Other: ": as many documents as the goal ({{.Count}}), too many to compare one by one"}
	msgGoalCounts     = &locale.Message{ID: "editor.goalCounts", Other: ": {{.Yours}} documents, the goal has {{.Goal}}"}
	msgGoalTooLarge   = &locale.Message{ID: "editor.goalTooLarge", Other: "  too many documents to compare one by one"}
	msgGoalMore       = &locale.Message{ID: "editor.goalMore", Other: "  … and {{.Count}} more"}
	msgPrinted        = &locale.Message{ID: "editor.printed", Other: "your code printed:"}
	msgWatching       = &locale.Message{ID: "watch.events", Other: "watching {{.Path}}: every save checks it · {{.Key}} stops"}
	msgPolling        = &locale.Message{ID: "watch.polling", Other: "watching {{.Path}} by polling twice a second (file events unavailable: {{.Reason}}) · {{.Key}} stops"}
	msgManual         = &locale.Message{ID: "watch.manual", Other: "manual run: save {{.Path}} and press enter to check it (the file cannot be watched: {{.Reason}}) · {{.Key}} stops"}
	msgCompareHint    = &locale.Message{ID: "editor.compareHint", Other: "Press {{.Solution}} to compare your code with the reference solution."}
	msgSolutionBeside = &locale.Message{ID: "editor.solutionBeside", Other: "The reference solution, to compare with yours"}
	msgSolutionIn     = &locale.Message{ID: "editor.solutionIn", Other: "The reference solution is in the editor: press enter to check it."}
)

// editor is the exercise's code (or a run step's, while the learner
// edits it) in a text area, and under it the pane with the verdict on
// the last attempt or the output of the edit.
type editor struct {
	common.Common
	ta      textarea.Model
	editing bool
	// runEdit marks an edit of a run step's code rather than an exercise.
	runEdit bool
	result  *pane.Model
	// watching is the line that says a file is watched, "" when none is.
	watching string
	taH      int
	// content lays the result pane's rows out for a width, so that a
	// resize lays them out again.
	content func(w int) []viewport.Row
	// solutionShown is set while the content ends with the reference
	// solution, which is shown once.
	solutionShown bool
}

func newEditor(c common.Common, code string, runEdit bool) *editor {
	t := textarea.New()
	t.ShowLineNumbers = true
	t.CharLimit = 0
	t.MaxHeight = lineRoom(strings.Count(code, "\n") + 1)
	t.Placeholder = c.T(msgPlaceholder, nil)
	t.SetStyles(c.Styles.Textarea())
	t.SetValue(code)
	t.MoveToBegin()
	e := &editor{Common: c, ta: t, runEdit: runEdit, result: pane.New(c, c.T(msgCheckTitle, nil))}
	if runEdit {
		e.result.SetTitle(c.T(msgEditTitle, nil))
	}
	e.showIdle()
	return e
}

// Value is the code in the editor.
func (e *editor) Value() string { return e.ta.Value() }

// SetValue replaces the code.
func (e *editor) SetValue(s string) {
	e.makeRoom(strings.Count(s, "\n") + 1)
	e.ta.SetValue(s)
	e.ta.MoveToBegin()
}

// lineRoom is the text area's MaxHeight for code of n lines. The text
// area draws its line numbers as wide as MaxHeight's: with no bound (0)
// they were one digit wide, and every line shifted right by one at line
// 10. A bound of 99, or 999 and so on past it, keeps the gutter one
// width while the learner types; makeRoom raises it before it is met.
func lineRoom(n int) int {
	m := 99
	for m <= n {
		m = m*10 + 9
	}
	return m
}

// makeRoom raises the text area's bound on lines to hold n, and lays it
// out again when that widens the gutter.
func (e *editor) makeRoom(n int) {
	if m := lineRoom(n); m != e.ta.MaxHeight {
		e.ta.MaxHeight = m
		if e.Width > 0 {
			e.SetSize(e.Width, e.Height)
		}
	}
}

// Editing reports whether the text area has the keyboard.
func (e *editor) Editing() bool { return e.editing }

// Focus gives the text area the keyboard.
func (e *editor) Focus() tea.Cmd {
	e.editing = true
	return e.ta.Focus()
}

// Blur takes the keyboard back.
func (e *editor) Blur() {
	e.editing = false
	e.ta.Blur()
}

func (e *editor) showIdle() {
	k := e.KeyMap
	msg := e.T(msgCheckHelp, map[string]any{"Edit": k.Edit.Help().Key, "Watch": k.Watch.Help().Key})
	if e.runEdit {
		msg = e.T(msgEditHelp, map[string]any{"Run": k.CheckFromEditor.Help().Key})
	}
	e.setContent(func(w int) []viewport.Row { return wrapRows(e.Styles.Muted, msg, w) })
	e.result.SetFooter("")
}

func (e *editor) setContent(f func(w int) []viewport.Row) {
	e.content, e.solutionShown = f, false
	e.result.SetRows(f(e.result.InnerWidth()))
}

// SetSize gives the text area the height its code needs, up to half the
// area, and the result pane the rest.
func (e *editor) SetSize(w, h int) {
	e.Common.SetSize(w, h)
	taW := max(w-pane.ChromeW, 10)
	// The text area wraps long lines; count the rows they take, with
	// room for the line numbers, and one row to type on.
	rows := 1
	body := max(taW-6, 4)
	for _, l := range strings.Split(e.ta.Value(), "\n") {
		rows += max((ansi.StringWidth(l)+body-1)/body, 1)
	}
	rows += len(e.watchLines(taW))
	e.taH = min(max(rows, 3), max(h/2-pane.ChromeH, 3))
	e.ta.SetWidth(taW)
	e.ta.SetHeight(e.taH)
	e.result.SetSize(w, max(h-e.taH-pane.ChromeH, 3))
	if e.content != nil {
		e.result.SetRows(e.content(e.result.InnerWidth()))
	}
}

// ShowAttempt puts an attempt's verdict in the result pane.
func (e *editor) ShowAttempt(m *Ran, hints, hintCount int) {
	e.result.SetFooter(footerOf(e.Common, m.Result.Elapsed, nil))
	e.setContent(func(w int) []viewport.Row { return e.attemptRows(m, hints, hintCount, w) })
	e.result.GotoTop()
}

func (e *editor) attemptRows(m *Ran, hints, hintCount, w int) []viewport.Row {
	if m.Err != nil {
		return errorRows(e.Common, m.Err, w)
	}
	r := m.Result
	st := e.Styles
	k := e.KeyMap
	var rows []viewport.Row
	if r.Passed {
		rows = append(rows, viewport.Row{Text: st.Success.Render(e.T(msgPassed, nil))})
	} else {
		rows = append(rows, viewport.Row{Text: st.Error.Render(e.T(msgNotYet, nil))})
	}
	if r.Message != "" {
		rows = append(rows, wrapRows(st.Text, r.Message, w)...)
	}
	if r.Passed {
		rows = append(rows, wrapRows(st.Muted, e.T(msgCompareHint, map[string]any{"Solution": k.Solution.Help().Key}), w)...)
	} else {
		next := msgNextHint
		if hints >= hintCount {
			next = msgNoHintsLeft
		}
		rows = append(rows, wrapRows(st.Muted, e.T(next, map[string]any{"Hint": k.Hint.Help().Key, "Solution": k.Solution.Help().Key, "Reset": k.ResetExercise.Help().Key}), w)...)
		if g := r.Goal; g != nil {
			rows = append(rows, viewport.Row{})
			rows = append(rows, e.goalRows(g, w)...)
		}
	}
	if printedAny(r.Statements) {
		rows = append(rows, viewport.Row{}, viewport.Row{Text: st.Muted.Render(e.T(msgPrinted, nil))})
		nb := notebook.New(e.Common, notebook.Block{Code: r.Code, Statements: toNotebook(r.Statements)}, notebook.Options{CollapseAfter: -1})
		rows = append(rows, nb.Rows(w)...)
	}
	return rows
}

// ShowEdit puts the output of an edited run step in the result pane.
func (e *editor) ShowEdit(m *Ran) {
	r := m.Result
	e.result.SetFooter(footerOf(e.Common, r.Elapsed, r.Notes))
	nb := notebook.New(e.Common, notebook.Block{Code: r.Code, Statements: toNotebook(r.Statements)}, notebook.Options{CollapseAfter: -1})
	e.setContent(func(w int) []viewport.Row {
		if m.Err != nil && len(r.Statements) == 0 {
			return errorRows(e.Common, m.Err, w)
		}
		return nb.Rows(w)
	})
}

// ShowNote replaces the result with a note (the solution is in place).
func (e *editor) ShowNote(s string) {
	e.setContent(func(w int) []viewport.Row { return wrapRows(e.Styles.Muted, s, w) })
	e.result.SetFooter("")
}

// ShowSolution puts the reference solution under the verdict, to be
// compared with the learner's code, which stays in the editor.
func (e *editor) ShowSolution(sol string) {
	if e.solutionShown {
		return
	}
	title := e.T(msgSolutionBeside, nil)
	nb := notebook.New(e.Common, notebook.Block{Code: sol}, notebook.Options{CollapseAfter: -1})
	prev := e.content
	e.setContent(func(w int) []viewport.Row {
		var rows []viewport.Row
		if prev != nil {
			rows = append(prev(w), viewport.Row{})
		}
		rows = append(rows, viewport.Row{Text: e.Styles.PaneTitle.Render(title)})
		return append(rows, nb.Rows(w)...)
	})
	e.solutionShown = true
	e.result.GotoBottom()
}

func (e *editor) goalRows(g *lessons.GoalComparison, w int) []viewport.Row {
	st := e.Styles
	rows := []viewport.Row{{Text: st.PaneTitle.Render(e.T(msgGoal, nil))}}
	for _, c := range g.Collections {
		switch {
		case c.OnlyYours:
			rows = append(rows, viewport.Row{Text: st.Error.Render("✗ "+c.Name) + st.Muted.Render(e.T(msgGoalOnlyYours, nil))})
			continue
		case c.Match() && c.TooLarge:
			// Equal counts are all that was compared: no claim that the data is the goal's.
			rows = append(rows, viewport.Row{Text: st.Muted.Render("= "+c.Name) + st.Muted.Render(e.N(msgGoalSameCount, int(c.Yours), nil))})
			continue
		case c.Match():
			rows = append(rows, viewport.Row{Text: st.Success.Render("✓ "+c.Name) + st.Muted.Render(e.N(msgGoalMatch, int(c.Yours), nil))})
			continue
		}
		rows = append(rows, viewport.Row{Text: st.Error.Render("✗ "+c.Name) + st.Muted.Render(e.T(msgGoalCounts, map[string]any{"Yours": c.Yours, "Goal": c.Goal}))})
		if c.TooLarge {
			rows = append(rows, viewport.Row{Text: st.Muted.Render(e.T(msgGoalTooLarge, nil))})
		}
		var diffs []string
		for _, d := range c.Digest {
			diffs = append(diffs, "  "+d.Text(e.L))
		}
		for _, d := range c.Differences {
			diffs = append(diffs, "  "+d.Text(e.L))
		}
		if len(diffs) > 0 {
			rows = append(rows, textRows(e.Common, strings.Join(diffs, "\n"), w)...)
		}
		if c.More > 0 {
			rows = append(rows, viewport.Row{Text: st.Muted.Render(e.T(msgGoalMore, map[string]any{"Count": c.More}))})
		}
	}
	return rows
}

func (e *editor) Init() tea.Cmd { return nil }

// Update edits: esc stops editing, ctrl+r checks, ctrl+o opens $EDITOR.
func (e *editor) Update(msg tea.Msg) (common.Model, tea.Cmd) {
	k := e.KeyMap
	if on, ok := msg.(common.FocusMsg); ok {
		e.result.Focus(bool(on))
		return e, nil
	}
	if km, ok := msg.(tea.KeyPressMsg); ok && e.editing {
		switch {
		case key.Matches(km, k.Back):
			e.Blur()
			return e, nil
		case key.Matches(km, k.CheckFromEditor):
			code := e.Value()
			return e, func() tea.Msg { return editorCheck{code: code} }
		}
	}
	if wheel, ok := msg.(tea.MouseWheelMsg); ok {
		if wheel.Y >= e.resultTop() {
			e.result.Handle(msg)
		}
		return e, nil
	}
	if !e.editing {
		e.result.Handle(msg)
		return e, nil
	}
	// One more line than there is, for the newline this key may type.
	e.makeRoom(e.ta.LineCount() + 1)
	var cmd tea.Cmd
	e.ta, cmd = e.ta.Update(msg)
	return e, cmd
}

// View is the text area in its frame over the result pane.
func (e *editor) View() string {
	k := e.KeyMap
	title := e.T(msgYourCode, nil)
	if e.editing {
		title = e.T(msgEditing, map[string]any{"Back": k.Back.Help().Key, "Run": k.CheckFromEditor.Help().Key})
	}
	lines := strings.Split(e.ta.View(), "\n")
	var watch []string
	for _, l := range e.watchLines(e.Width - pane.ChromeW) {
		watch = append(watch, e.Styles.Warning.Render(l))
	}
	lines = append(watch, lines...)
	ed := pane.Frame(e.Styles, e.Width, e.taH+pane.ChromeH, title, "", lines, e.editing)
	return ed + "\n" + e.result.View()
}

// resultTop is the editor's row where the result pane begins.
func (e *editor) resultTop() int { return e.taH + pane.ChromeH }

// watchLines is the watched file's line laid out w cells wide, over as
// many lines as it needs: the path is shown whole, broken after a slash
// where it is wider than the pane, never cut, so that it can be read and
// copied.
func (e *editor) watchLines(w int) []string {
	if e.watching == "" {
		return nil
	}
	return strings.Split(ansi.Wrap(e.watching, max(w, 10), "/"), "\n")
}

// setWatching shows line over the code: the file it is watched in; ""
// for none.
func (e *editor) setWatching(line string) {
	e.watching = line
	e.SetSize(e.Width, e.Height)
}

// widths are the columns the result pane's outputs are laid out for.
func (e *editor) widths() lessons.Widths { return lessons.Widths{Output: outputWidth(e.result)} }

// Cursor is the text cursor, relative to the editor's top left.
func (e *editor) Cursor() *tea.Cursor {
	if !e.editing {
		return nil
	}
	c := e.ta.Cursor()
	if c == nil {
		return nil
	}
	c.X += 2
	c.Y++
	if e.watching != "" {
		c.Y++
	}
	return c
}

func (e *editor) ShortHelp() []key.Binding {
	k := e.KeyMap
	run := k.CheckFromEditor
	if e.runEdit {
		run = keymap.WithHelp(run, run.Help().Key, e.T(msgRunEdit, nil))
	}
	return []key.Binding{run, k.ExternalEditor, k.Back}
}

func (e *editor) FullHelp() [][]key.Binding { return [][]key.Binding{e.ShortHelp()} }

var _ common.Component = (*editor)(nil)

var msgRunEdit = &locale.Message{ID: "editor.runEdit", Other: "run your edit"}

// externalEditor opens $VISUAL or $EDITOR on the code; step is where
// the code goes back.
func externalEditor(code string, step int) tea.Cmd {
	ed := os.Getenv("VISUAL")
	if ed == "" {
		ed = os.Getenv("EDITOR")
	}
	if ed == "" {
		ed = "vi"
	}
	f, err := os.CreateTemp("", "schemalab-*.js")
	if err != nil {
		return func() tea.Msg { return EditorClosed{Step: step, Err: err} }
	}
	name := f.Name()
	_, err = f.WriteString(code)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return func() tea.Msg { return EditorClosed{Step: step, Err: err} }
	}
	args := strings.Fields(ed)
	c := exec.Command(args[0], append(args[1:], name)...)
	return tea.ExecProcess(c, func(err error) tea.Msg {
		defer os.Remove(name)
		if err != nil {
			return EditorClosed{Step: step, Err: fmt.Errorf("%s: %w", args[0], err)}
		}
		b, err := os.ReadFile(name)
		return EditorClosed{Step: step, Text: strings.TrimRight(string(b), "\n"), Err: err}
	})
}

// printedAny reports whether any statement showed something.
func printedAny(sts []lessons.Statement) bool {
	for _, s := range sts {
		if strings.TrimSpace(s.Printed+s.Output+s.Error) != "" {
			return true
		}
	}
	return false
}
