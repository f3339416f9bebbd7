package lesson

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/components/pane"
	"github.com/schemalab/schemalab/tui/components/viewport"
	"github.com/schemalab/schemalab/tui/keymap"
)

var (
	msgStagesTitle   = &locale.Message{ID: "stages.title", Other: "After stage {{.N}} of {{.Total}} · {{.Name}}"}
	msgStagesLoading = &locale.Message{ID: "stages.loading", Other: "Stage preview"}
	msgNextStage     = &locale.Message{ID: "stages.next", Other: "next stage"}
	msgPrevStage     = &locale.Message{ID: "stages.prev", Other: "previous stage"}
)

// stages is the stage preview: the pipeline's stages with the current one
// marked, and the documents that come out of it.
type stages struct {
	common.Common
	stage int
	names []string
	out   *pane.Model
}

func newStages(c common.Common) *stages {
	return &stages{Common: c, out: pane.New(c, c.T(msgStagesLoading, nil))}
}

// stageAsked asks the page for a preview of stage k, its output laid out
// for widths.
type stageAsked struct {
	k      int
	widths lessons.Widths
}

func (s *stages) SetSize(w, h int) {
	s.Common.SetSize(w, h)
	s.out.SetSize(w, h)
}

// Show puts a preview's output in the pane.
func (s *stages) Show(m Ran) {
	r := m.Result
	w := s.out.InnerWidth()
	s.out.SetFooter(footerOf(s.Common, r.Elapsed, nil))
	if m.Err != nil && len(r.Statements) == 0 {
		s.out.SetRows(errorRows(s.Common, m.Err, w))
		return
	}
	s.stage, s.names = r.Stage, r.Stages
	name := ""
	if r.Stage < len(r.Stages) {
		name = r.Stages[r.Stage]
	}
	s.out.SetTitle(s.T(msgStagesTitle, map[string]any{"N": r.Stage + 1, "Total": len(r.Stages), "Name": name}))
	var parts []string
	for i, n := range r.Stages {
		if i == r.Stage {
			parts = append(parts, s.Styles.Selected.Render("["+n+"]"))
		} else {
			parts = append(parts, s.Styles.Muted.Render(n))
		}
	}
	rows := []viewport.Row{{Text: strings.Join(parts, s.Styles.Muted.Render(" → ")), Scroll: true}, {}}
	var out []string
	for _, st := range r.Statements {
		for _, t := range []string{st.Printed, st.Output} {
			if t != "" {
				out = append(out, t)
			}
		}
	}
	rows = append(rows, textRows(s.Common, strings.Join(out, "\n"), w)...)
	s.out.SetRows(rows)
	s.out.GotoTop()
}

// target is the stage k would show, wrapping around the pipeline.
func (s *stages) target(k int) int {
	if len(s.names) > 0 {
		return (k + len(s.names)) % len(s.names)
	}
	return max(k, 0)
}

func (s *stages) Init() tea.Cmd { return nil }

// Update moves to the next or previous stage, shows a preview's output,
// and scrolls.
func (s *stages) Update(msg tea.Msg) (common.Model, tea.Cmd) {
	k := s.KeyMap
	switch m := msg.(type) {
	case common.FocusMsg:
		s.out.Focus(bool(m))
		return s, nil
	case Ran:
		if m.Result.Op == lessons.OpStages {
			s.Show(m)
		}
		return s, nil
	case tea.KeyPressMsg:
		next := 0
		switch {
		case key.Matches(m, k.Next), key.Matches(m, k.Stages):
			next = 1
		case key.Matches(m, k.Prev):
			next = -1
		}
		if next != 0 {
			ask := stageAsked{k: s.target(s.stage + next), widths: s.widths()}
			return s, func() tea.Msg { return ask }
		}
	}
	s.out.Handle(msg)
	return s, nil
}

func (s *stages) View() string { return s.out.View() }

func (s *stages) ShortHelp() []key.Binding {
	k := s.KeyMap
	return []key.Binding{keymap.WithHelp(k.Next, "→", s.T(msgNextStage, nil)), keymap.WithHelp(k.Prev, "←", s.T(msgPrevStage, nil)), k.Back}
}

func (s *stages) FullHelp() [][]key.Binding { return [][]key.Binding{s.ShortHelp()} }

// widths are the columns the preview's output is laid out for.
func (s *stages) widths() lessons.Widths { return lessons.Widths{Output: outputWidth(s.out)} }

var _ common.Component = (*stages)(nil)
