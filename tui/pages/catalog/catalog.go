// Package catalog is the catalog page: the lessons with their progress,
// the cursor on the one touched last so that enter resumes it.
package catalog

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/components/prose"
)

var (
	msgTitle     = &locale.Message{ID: "catalog.title", Other: " · MongoDB schema design, hands-on"}
	msgSandbox   = &locale.Message{ID: "catalog.sandbox", Other: "sandbox: "}
	msgNoLessons = &locale.Message{ID: "catalog.none", Other: "No lessons found."}
	msgLessons   = &locale.Message{ID: "catalog.lessons", Other: "Lessons"}
	msgSteps     = &locale.Message{ID: "catalog.steps", One: "  {{.Count}} step", Other: "  {{.Count}} steps"}
	msgMinSteps  = &locale.Message{ID: "catalog.minSteps", One: "  {{.Minutes}} min · {{.Count}} step", Other: "  {{.Minutes}} min · {{.Count}} steps"}
	msgStepsDone = &locale.Message{ID: "catalog.stepsDone", One: " {{.Done}}/{{.Total}} steps", Other: " {{.Done}}/{{.Total}} steps"}
	msgExDone    = &locale.Message{ID: "catalog.exercisesDone", One: " · {{.Done}}/{{.Total}} exercises", Other: " · {{.Done}}/{{.Total}} exercises"}
	msgResume    = &locale.Message{ID: "catalog.resume", Other: " · resume at step {{.N}}, {{.Title}}"}
	msgDone      = &locale.Message{ID: "catalog.done", Other: " · done"}
	msgMoreAbove = &locale.Message{ID: "catalog.moreAbove", Other: "↑ {{.Count}} more"}
	msgMoreBelow = &locale.Message{ID: "catalog.moreBelow", One: "↓ {{.Count}} more lesson", Other: "↓ {{.Count}} more lessons"}
	msgEnglish   = &locale.Message{ID: "catalog.englishOnly", Other: " · English only"}
	msgAdvise    = &locale.Message{ID: "catalog.advise", Other: "Advise a database"}
	msgAdviseSum = &locale.Message{ID: "catalog.adviseSummary", Other: "Point the course's measurements at a database of yours: which patterns it needs, with the figures. Read-only."}
)

// Page is the catalog.
type Page struct {
	common.Common
	cat      *lessons.Catalog
	store    *lessons.Store
	cursor   int
	offset   int
	warnings []string
	// advise adds the "Advise a database" entry after the lessons, when
	// the backend offers a read-only client.
	advise bool
}

// New lists cat's lessons with their progress in store (nil: none).
func New(c common.Common, cat *lessons.Catalog, store *lessons.Store, warnings []string) *Page {
	p := &Page{Common: c, cat: cat, store: store, warnings: warnings}
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

// Select puts the cursor on lesson id.
func (p *Page) Select(id string) {
	for i, l := range p.cat.Lessons {
		if l.ID == id {
			p.cursor = i
		}
	}
}

func (p *Page) SetSize(w, h int) { p.Common.SetSize(w, h) }

// SetBackend updates the sandbox's label.
func (p *Page) SetBackend(s string) { p.Backend = s }

// SetAdvise shows or hides the "Advise a database" entry.
func (p *Page) SetAdvise(on bool) { p.advise = on }

// entries counts the lessons and the advise entry.
func (p *Page) entries() int {
	if p.advise {
		return len(p.cat.Lessons) + 1
	}
	return len(p.cat.Lessons)
}

func (p *Page) ShortHelp() []key.Binding {
	k := p.KeyMap
	return []key.Binding{k.Open, k.Down, k.Up}
}

func (p *Page) FullHelp() [][]key.Binding {
	k := p.KeyMap
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown}, {k.Open, k.Help, k.Cancel, k.Quit}}
}

func (p *Page) Init() tea.Cmd { return nil }

func (p *Page) Update(msg tea.Msg) (common.Model, tea.Cmd) {
	k := p.KeyMap
	n := p.entries()
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
			if p.cursor == len(p.cat.Lessons) && p.advise {
				return p, func() tea.Msg { return common.OpenAdviseMsg{} }
			}
			if n > 0 {
				id := p.cat.Lessons[p.cursor].ID
				return p, func() tea.Msg { return common.OpenLessonMsg{ID: id, Step: -1} }
			}
		}
	case tea.MouseWheelMsg:
		if msg.Button == tea.MouseWheelDown {
			p.cursor = min(p.cursor+1, n-1)
		} else if msg.Button == tea.MouseWheelUp {
			p.cursor = max(p.cursor-1, 0)
		}
	}
	return p, nil
}

const itemHeight = 4

func (p *Page) headerHeight() int { return 4 + len(p.warnings) }

func (p *Page) perPage() int { return max((p.Height-p.headerHeight())/itemHeight, 1) }

func (p *Page) View() string {
	st := p.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("schemalab") + st.Muted.Render(p.T(msgTitle, nil)) + "\n")
	b.WriteString(st.Muted.Render(p.T(msgSandbox, nil)) + st.Text.Render(p.Backend) + "\n")
	for _, w := range p.warnings {
		b.WriteString(st.Warning.Render("! "+w) + "\n")
	}
	b.WriteString("\n")
	if p.entries() == 0 {
		b.WriteString(st.Muted.Render(p.T(msgNoLessons, nil)))
		return common.FitBlock(b.String(), p.Width, p.Height)
	}
	b.WriteString(st.Subtitle.Render(p.T(msgLessons, nil)) + "\n")
	per := p.perPage()
	if p.cursor < p.offset {
		p.offset = p.cursor
	}
	if p.cursor >= p.offset+per {
		p.offset = p.cursor - per + 1
	}
	barW := min(max(p.Width/4, 10), 30)
	for i := p.offset; i < p.entries() && i < p.offset+per; i++ {
		if i == len(p.cat.Lessons) {
			p.adviseItem(&b)
			continue
		}
		p.item(&b, i, barW)
	}
	var more []string
	if p.offset > 0 {
		more = append(more, p.T(msgMoreAbove, map[string]any{"Count": p.offset}))
	}
	if below := len(p.cat.Lessons) - p.offset - per; below > 0 {
		more = append(more, p.N(msgMoreBelow, below, nil))
	}
	if len(more) > 0 {
		b.WriteString("  " + st.Muted.Render(strings.Join(more, " · ")))
	}
	return common.FitBlock(strings.TrimRight(b.String(), "\n"), p.Width, p.Height)
}

// adviseItem is the "Advise a database" entry, drawn as a lesson's
// first two lines are.
func (p *Page) adviseItem(b *strings.Builder) {
	st := p.Styles
	marker, title := "  ", st.Subtitle.Render(p.T(msgAdvise, nil))
	if p.cursor == len(p.cat.Lessons) {
		marker, title = st.Selected.Render("▸ "), st.Selected.Render(p.T(msgAdvise, nil))
	}
	b.WriteString(common.Fit(marker+title, p.Width) + "\n")
	b.WriteString(common.Fit("  "+st.Text.Render(p.T(msgAdviseSum, nil)), p.Width) + "\n\n")
}

func (p *Page) item(b *strings.Builder, i, barW int) {
	st := p.Styles
	l := p.cat.Lessons[i]
	var prog lessons.LessonProgress
	if p.store != nil {
		prog = p.store.Lesson(l.ID)
	}
	sum := lessons.Summarize(l, prog)
	marker, title := "  ", st.Subtitle.Render(l.Title)
	if i == p.cursor {
		marker, title = st.Selected.Render("▸ "), st.Selected.Render(l.Title)
	}
	meta := p.N(msgSteps, sum.Steps, nil)
	if l.Minutes > 0 {
		meta = p.N(msgMinSteps, sum.Steps, map[string]any{"Minutes": l.Minutes})
	}
	if p.cat.Untranslated(l) {
		// No translation into the learner's language: the lesson is shown
		// in English, and says so before it is opened.
		meta += p.T(msgEnglish, nil)
	}
	b.WriteString(common.Fit(marker+title+st.Muted.Render(meta), p.Width) + "\n")
	b.WriteString(common.Fit("  "+st.Text.Render(l.Summary), p.Width) + "\n")
	pct := 0.0
	if sum.Steps > 0 {
		pct = float64(sum.StepsDone) / float64(sum.Steps)
	}
	status := p.N(msgStepsDone, sum.Steps, map[string]any{"Done": sum.StepsDone, "Total": sum.Steps})
	if sum.Exercises > 0 {
		status += p.N(msgExDone, sum.Exercises, map[string]any{"Done": sum.ExercisesDone, "Total": sum.Exercises})
	}
	if idx := l.StepIndex(prog.Current); idx >= 0 && sum.StepsDone < sum.Steps {
		status += p.T(msgResume, map[string]any{"N": idx + 1, "Title": prose.Plain(l.Steps[idx].Title)})
	} else if sum.Steps > 0 && sum.StepsDone == sum.Steps {
		status += p.T(msgDone, nil)
	}
	full := int(pct*float64(barW) + 0.5)
	bar := st.BarProgress.Render(strings.Repeat("█", full)) + st.BarEmpty.Render(strings.Repeat("░", barW-full))
	b.WriteString(common.Fit("  "+bar+st.Muted.Render(status), p.Width) + "\n\n")
}
