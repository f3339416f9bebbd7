package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/styles"
)

// catalogPage lists the lessons with their progress and resumes the one
// chosen where the learner left it.
type catalogPage struct {
	common.Common
	cat      *lessons.Catalog
	store    *lessons.Store
	cursor   int
	offset   int
	warnings []string
}

func newCatalogPage(c common.Common, cat *lessons.Catalog, store *lessons.Store, warnings []string) *catalogPage {
	p := &catalogPage{Common: c, cat: cat, store: store, warnings: warnings}
	// Start on the lesson touched last, so enter resumes it.
	var latest int64
	for i, l := range cat.Lessons {
		if store == nil {
			break
		}
		if u := store.Lesson(l.ID).Updated.UnixNano(); u > latest {
			latest, p.cursor = u, i
		}
	}
	return p
}

func (p *catalogPage) SetSize(w, h int) { p.Common.SetSize(w, h) }

func (p *catalogPage) ShortHelp() []key.Binding {
	k := p.KeyMap
	return []key.Binding{k.Up, k.Down, k.Open, k.Help, k.Quit}
}

func (p *catalogPage) FullHelp() [][]key.Binding {
	k := p.KeyMap
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown}, {k.Open, k.Help, k.Cancel, k.Quit}}
}

func (p *catalogPage) Update(msg tea.Msg) tea.Cmd {
	k := p.KeyMap
	n := len(p.cat.Lessons)
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, k.Down):
			p.cursor = min(p.cursor+1, n-1)
		case key.Matches(msg, k.Up):
			p.cursor = max(p.cursor-1, 0)
		case key.Matches(msg, k.PageDown):
			p.cursor = min(p.cursor+p.perPage(), n-1)
		case key.Matches(msg, k.PageUp):
			p.cursor = max(p.cursor-p.perPage(), 0)
		case key.Matches(msg, k.Open), key.Matches(msg, k.Next):
			if n > 0 {
				id := p.cat.Lessons[p.cursor].ID
				return func() tea.Msg { return openLessonMsg{id: id, step: -1} }
			}
		}
	case tea.MouseWheelMsg:
		if msg.Button == tea.MouseWheelDown {
			p.cursor = min(p.cursor+1, n-1)
		} else if msg.Button == tea.MouseWheelUp {
			p.cursor = max(p.cursor-1, 0)
		}
	}
	return nil
}

const itemHeight = 4

func (p *catalogPage) headerHeight() int { return 4 + len(p.warnings) }

func (p *catalogPage) perPage() int { return max((p.Height-p.headerHeight())/itemHeight, 1) }

func (p *catalogPage) View() string {
	st := p.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("schemalab") + st.Muted.Render(" · MongoDB schema design, hands-on") + "\n")
	b.WriteString(st.Muted.Render("sandbox: ") + st.Text.Render(p.Backend) + "\n")
	for _, w := range p.warnings {
		b.WriteString(st.Warning.Render("! "+w) + "\n")
	}
	b.WriteString("\n")
	if len(p.cat.Lessons) == 0 {
		b.WriteString(st.Muted.Render("No lessons found."))
		return fitBlock(b.String(), p.Width, p.Height)
	}
	b.WriteString(st.Subtitle.Render("Lessons") + "\n")
	per := p.perPage()
	if p.cursor < p.offset {
		p.offset = p.cursor
	}
	if p.cursor >= p.offset+per {
		p.offset = p.cursor - per + 1
	}
	barW := min(max(p.Width/4, 10), 30)
	for i := p.offset; i < len(p.cat.Lessons) && i < p.offset+per; i++ {
		l := p.cat.Lessons[i]
		var prog lessons.LessonProgress
		if p.store != nil {
			prog = p.store.Lesson(l.ID)
		}
		sum := lessons.Summarize(l, prog)
		sel := i == p.cursor
		marker, title := "  ", st.Subtitle.Render(l.Title)
		if sel {
			marker, title = st.Selected.Render("▸ "), st.Selected.Render(l.Title)
		}
		meta := st.Muted.Render(fmt.Sprintf("  %d steps", sum.Steps))
		if l.Minutes > 0 {
			meta = st.Muted.Render(fmt.Sprintf("  %d min · %d steps", l.Minutes, sum.Steps))
		}
		b.WriteString(fit(marker+title+meta, p.Width) + "\n")
		b.WriteString(fit("  "+st.Text.Render(l.Summary), p.Width) + "\n")
		pct := 0.0
		if sum.Steps > 0 {
			pct = float64(sum.StepsDone) / float64(sum.Steps)
		}
		status := fmt.Sprintf(" %d/%d steps", sum.StepsDone, sum.Steps)
		if sum.Exercises > 0 {
			status += fmt.Sprintf(" · %d/%d exercises", sum.ExercisesDone, sum.Exercises)
		}
		if idx := l.StepIndex(prog.Current); idx >= 0 && sum.StepsDone < sum.Steps {
			status += fmt.Sprintf(" · resume at step %d, %s", idx+1, plainTitle(l.Steps[idx].Title))
		} else if sum.Steps > 0 && sum.StepsDone == sum.Steps {
			status += " · done"
		}
		b.WriteString(fit("  "+progressBar(st, pct, barW)+st.Muted.Render(status), p.Width) + "\n\n")
	}
	// Say when lessons are off screen: at 80×24 the last one is.
	var more []string
	if p.offset > 0 {
		more = append(more, fmt.Sprintf("↑ %d more", p.offset))
	}
	if below := len(p.cat.Lessons) - p.offset - per; below > 0 {
		more = append(more, fmt.Sprintf("↓ %d more lesson%s", below, plural(below)))
	}
	if len(more) > 0 {
		b.WriteString("  " + st.Muted.Render(strings.Join(more, " · ")))
	}
	return fitBlock(strings.TrimRight(b.String(), "\n"), p.Width, p.Height)
}

// progressBar is a lesson's progress: filled cells for done steps.
func progressBar(st *styles.Styles, pct float64, w int) string {
	full := int(pct*float64(w) + 0.5)
	return st.BarProgress.Render(strings.Repeat("█", full)) + st.BarEmpty.Render(strings.Repeat("░", w-full))
}
