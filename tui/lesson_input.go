package tui

import (
	"context"
	"os"
	"os/exec"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// externalEditor opens $EDITOR on the editor's text.
func (p *lessonPage) externalEditor() tea.Cmd {
	ed := os.Getenv("VISUAL")
	if ed == "" {
		ed = os.Getenv("EDITOR")
	}
	if ed == "" {
		ed = "vi"
	}
	f, err := os.CreateTemp("", "schemalab-*.js")
	if err != nil {
		return statusCmd(err.Error())
	}
	name := f.Name()
	_, err = f.WriteString(p.editor.Value())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return statusCmd(err.Error())
	}
	args := strings.Fields(ed)
	c := exec.Command(args[0], append(args[1:], name)...)
	return tea.ExecProcess(c, func(err error) tea.Msg {
		defer os.Remove(name)
		if err != nil {
			return editorDoneMsg{err: err}
		}
		b, err := os.ReadFile(name)
		return editorDoneMsg{text: strings.TrimRight(string(b), "\n"), err: err}
	})
}

// shellKey is the scratch shell: enter evaluates when the input is
// complete (brackets and quotes closed) and adds a line otherwise, like
// mongosh; up and down walk the history from the first and last line.
func (p *lessonPage) shellKey(msg tea.KeyPressMsg) tea.Cmd {
	k := p.KeyMap
	switch {
	case key.Matches(msg, k.Back):
		p.mode = modeStep
		p.shellIn.Blur()
		p.SetSize(p.Width, p.Height)
		p.refresh()
		return nil
	case msg.String() == "enter":
		src := strings.TrimSpace(p.shellIn.Value())
		if src == "" {
			return nil
		}
		if !inputComplete(src) {
			p.shellIn.InsertString("\n")
			return nil
		}
		p.history = append(p.history, src)
		p.histAt = len(p.history)
		p.shellIn.Reset()
		i := p.step
		return p.runs.start(p.ctx, "evaluating", func(ctx context.Context, seq int) tea.Cmd {
			return p.sess.shellCmd(ctx, seq, i, src)
		})
	case key.Matches(msg, k.HistoryUp) && p.shellIn.Line() == 0:
		if p.histAt > 0 {
			p.histAt--
			p.shellIn.SetValue(p.history[p.histAt])
		}
		return nil
	case key.Matches(msg, k.HistoryDown) && p.shellIn.Line() == p.shellIn.LineCount()-1:
		if p.histAt < len(p.history)-1 {
			p.histAt++
			p.shellIn.SetValue(p.history[p.histAt])
		} else {
			p.histAt = len(p.history)
			p.shellIn.Reset()
		}
		return nil
	case msg.String() == "pgup":
		p.output.PageUp()
		return nil
	case msg.String() == "pgdown":
		p.output.PageDown()
		return nil
	}
	return p.updateInput(msg)
}

// inputComplete reports whether brackets, braces, parentheses and quotes
// of src are balanced, the way mongosh decides to evaluate or continue.
func inputComplete(src string) bool {
	depth := 0
	var quote rune
	escaped := false
	for _, r := range src {
		switch {
		case escaped:
			escaped = false
		case quote != 0:
			if r == '\\' {
				escaped = true
			} else if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"' || r == '`':
			quote = r
		case r == '(' || r == '[' || r == '{':
			depth++
		case r == ')' || r == ']' || r == '}':
			depth--
		}
	}
	return depth <= 0 && quote == 0
}
