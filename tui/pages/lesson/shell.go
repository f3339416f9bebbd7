package lesson

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/components/notebook"
	"github.com/schemalab/schemalab/tui/components/pane"
	"github.com/schemalab/schemalab/tui/keymap"
)

var (
	msgShellTitle       = &locale.Message{ID: "shell.title", Other: "Scratch shell · {{.DB}} · on the state of this step"}
	msgShellInput       = &locale.Message{ID: "shell.input", Other: "mongosh · {{.Run}} evaluates · {{.Back}} closes"}
	msgShellPlaceholder = &locale.Message{ID: "shell.placeholder", Other: "mongosh JavaScript on {{.DB}}"}
	msgShellEmpty       = &locale.Message{ID: "shell.empty", Other: "Try anything here: it runs on this step's data, and the lesson's own steps and exercises are not affected."}
	msgEvaluate         = &locale.Message{ID: "shell.evaluate", Other: "evaluate"}
)

// inputHeight is the shell's input lines.
const inputHeight = 3

// shell is the scratch shell: what was typed and what it printed, as a
// notebook, over an input that evaluates once brackets and quotes close.
type shell struct {
	common.Common
	db      string
	in      textarea.Model
	log     *pane.Model
	code    []string
	entries []notebook.Statement
	history []string
	histAt  int
	nb      *notebook.Notebook
	footer  string
}

// newShell is a scratch shell on db whose history starts with history,
// oldest first.
func newShell(c common.Common, db string, history []string) *shell {
	t := textarea.New()
	t.ShowLineNumbers = false
	t.Prompt = ""
	t.CharLimit = 0
	t.Placeholder = c.T(msgShellPlaceholder, map[string]any{"DB": db})
	t.SetStyles(c.Styles.Textarea())
	s := &shell{Common: c, db: db, in: t, log: pane.New(c, c.T(msgShellTitle, map[string]any{"DB": db})),
		history: slices.Clone(history), histAt: len(history)}
	return s
}

func (s *shell) SetSize(w, h int) {
	s.Common.SetSize(w, h)
	s.in.SetWidth(max(w-pane.ChromeW-len(s.prompt()), 10))
	s.in.SetHeight(inputHeight)
	s.log.SetSize(w, max(h-inputHeight-pane.ChromeH, 3))
	s.relayout()
}

func (s *shell) prompt() string { return s.db + "> " }

// Add records an input's output.
func (s *shell) Add(m Ran) {
	r := m.Result
	start := 1
	for _, c := range s.code {
		start += strings.Count(c, "\n") + 1
	}
	src := strings.TrimRight(r.Code, "\n")
	n := strings.Count(src, "\n") + 1
	s.code = append(s.code, src)
	st := notebook.Statement{Span: notebook.Span{Start: start, End: start + n - 1}}
	for _, x := range r.Statements {
		if x.Printed != "" {
			st.Printed += x.Printed
		}
		st.Output = strings.TrimLeft(st.Output+"\n"+x.Output, "\n")
		if x.Error != "" {
			st.Error = x.Error
		}
	}
	if m.Err != nil && st.Error == "" && len(r.Statements) == 0 {
		st.Error = errorText(s.Common, m.Err)
	}
	if len(r.Notes) > 0 {
		st.Printed = strings.Join(r.Notes, "\n") + "\n" + st.Printed
	}
	s.entries = append(s.entries, st)
	s.footer = footerOf(s.Common, r.Elapsed, nil)
	s.relayout()
	s.log.GotoBottom()
}

func (s *shell) relayout() {
	w := s.log.InnerWidth()
	if len(s.entries) == 0 {
		s.log.SetRows(wrapRows(s.Styles.Muted, s.T(msgShellEmpty, nil), w))
		return
	}
	s.nb = notebook.New(s.Common, notebook.Block{Code: strings.Join(s.code, "\n"), Statements: s.entries}, notebook.Options{})
	s.log.SetRows(s.nb.Rows(w))
	s.log.SetFooter(s.footer)
}

// Init gives the input the keyboard.
func (s *shell) Init() tea.Cmd { return s.in.Focus() }

// shellSubmit asks the page to evaluate src, its outputs laid out for
// widths.
type shellSubmit struct {
	src    string
	widths lessons.Widths
}

// Update edits the input: enter evaluates complete input (and adds a line
// otherwise, like mongosh); up and down on the first and last line walk
// the history; page keys scroll the log.
func (s *shell) Update(msg tea.Msg) (common.Model, tea.Cmd) {
	k := s.KeyMap
	switch m := msg.(type) {
	case common.FocusMsg:
		s.log.Focus(bool(m))
		return s, nil
	case Ran:
		if m.Result.Op == lessons.OpEval {
			s.Add(m)
		}
		return s, nil
	}
	if km, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(km, k.Run):
			src := strings.TrimSpace(s.in.Value())
			if src == "" {
				return s, nil
			}
			if !lessons.InputComplete(src) {
				s.in.InsertString("\n")
				return s, nil
			}
			s.history = lessons.AppendShellHistory(s.history, src)
			s.histAt = len(s.history)
			s.in.Reset()
			w := s.widths()
			return s, func() tea.Msg { return shellSubmit{src: src, widths: w} }
		case key.Matches(km, k.HistoryUp) && s.in.Line() == 0:
			if s.histAt > 0 {
				s.histAt--
				s.in.SetValue(s.history[s.histAt])
			}
			return s, nil
		case key.Matches(km, k.HistoryDown) && s.in.Line() == s.in.LineCount()-1:
			if s.histAt < len(s.history)-1 {
				s.histAt++
				s.in.SetValue(s.history[s.histAt])
			} else {
				s.histAt = len(s.history)
				s.in.Reset()
			}
			return s, nil
		case key.Matches(km, k.LogUp), key.Matches(km, k.LogDown):
			s.log.Handle(msg)
			return s, nil
		}
	}
	if wheel, ok := msg.(tea.MouseWheelMsg); ok {
		if wheel.Y < s.log.Height {
			s.log.Handle(msg)
		}
		return s, nil
	}
	var cmd tea.Cmd
	s.in, cmd = s.in.Update(msg)
	return s, cmd
}

func (s *shell) View() string {
	k := s.KeyMap
	in := strings.Split(s.in.View(), "\n")
	prompt := s.Styles.Prompt.Render(s.prompt())
	pad := strings.Repeat(" ", len(s.prompt()))
	for i := range in {
		if i == 0 {
			in[i] = prompt + in[i]
		} else {
			in[i] = pad + in[i]
		}
	}
	title := s.T(msgShellInput, map[string]any{"Run": k.Run.Help().Key, "Back": k.Back.Help().Key})
	return s.log.View() + "\n" + pane.Frame(s.Styles, s.Width, inputHeight+pane.ChromeH, title, "", in, true)
}

// Cursor is the input's cursor relative to the shell's top left.
func (s *shell) Cursor() *tea.Cursor {
	c := s.in.Cursor()
	if c == nil {
		return nil
	}
	c.X += 2 + len(s.prompt())
	c.Y += s.log.Height + 1
	return c
}

func (s *shell) ShortHelp() []key.Binding {
	k := s.KeyMap
	return []key.Binding{keymap.WithHelp(k.Run, "enter", s.T(msgEvaluate, nil)), k.HistoryUp, k.Back}
}

func (s *shell) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

// widths are the columns the log's outputs are laid out for.
func (s *shell) widths() lessons.Widths { return lessons.Widths{Output: outputWidth(s.log)} }

var _ common.Component = (*shell)(nil)
