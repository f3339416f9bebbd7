package classroom

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	room "github.com/schemalab/schemalab/lessons/classroom"
	"github.com/schemalab/schemalab/tui/styles"
)

// dashboardKeys are the dashboard's bindings.
type dashboardKeys struct {
	Present, Clear, Up, Down, Quit, Yes, No key.Binding
}

func newDashboardKeys() dashboardKeys {
	return dashboardKeys{
		Present: key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "present")),
		Clear:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "clear announcement")),
		Up:      key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down:    key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↑↓/jk", "scroll")),
		Quit:    key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Yes:     key.NewBinding(key.WithKeys("y", "Y")),
		No:      key.NewBinding(key.WithKeys("n", "N", "esc")),
	}
}

// dashboard is the instructor's live view of the room: one row per
// student, stuck ones first.
type dashboard struct {
	room   *room.Room
	st     *styles.Styles
	keys   dashboardKeys
	width  int
	height int
	offset int
	// header facts: how students log in and what they are told.
	login, auth string
	open        bool
	// local is the classroom's own terminal, where quitting stops the
	// classroom (and so asks first while students are in).
	local       bool
	confirmStop bool
	now         func() time.Time
}

// tickMsg redraws the times on the dashboard; roomChangedMsg redraws it
// after a change in the room.
type (
	tickMsg        struct{}
	roomChangedMsg struct{}
)

func tick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{} })
}

// Update handles the dashboard's own keys and messages; present is the
// instructor model's (p).
func (d *dashboard) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		d.width, d.height = msg.Width, msg.Height
	case tickMsg:
		return tick()
	case tea.BackgroundColorMsg:
		*d.st = *styles.New(msg.IsDark(), d.st.NoColor)
	case tea.KeyPressMsg:
		return d.key(msg)
	}
	return nil
}

func (d *dashboard) key(msg tea.KeyPressMsg) tea.Cmd {
	k := d.keys
	if d.confirmStop {
		d.confirmStop = false
		if key.Matches(msg, k.Yes) {
			return tea.Quit
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Quit):
		if d.local && d.room.Online() > 0 {
			d.confirmStop = true
			return nil
		}
		return tea.Quit
	case key.Matches(msg, k.Clear):
		d.room.ClearAnnouncement()
	case key.Matches(msg, k.Down):
		d.offset++
	case key.Matches(msg, k.Up):
		d.offset = max(d.offset-1, 0)
	}
	return nil
}

// Column widths; the step and status columns share what is left.
const (
	colMark      = 2
	colName      = 12
	colLesson    = 9
	colExercises = 13
	colOnStep    = 8
	colsFixed    = colMark + colName + colLesson + colExercises + colOnStep
)

func (d *dashboard) View() string {
	st := d.st
	w := max(d.width, 40)
	rows := d.room.Rows()
	online := 0
	for _, r := range rows {
		if r.Online {
			online++
		}
	}
	var b strings.Builder
	line := func(s string) {
		b.WriteString(ansi.Truncate(s, w, "…"))
		b.WriteByte('\n')
	}
	line(st.Title.Render("schemalab classroom") + st.Muted.Render(" · log in: ") + st.Text.Render(d.login) +
		st.Muted.Render(fmt.Sprintf(" · %d of %d online · %s", online, len(rows), d.auth)))
	if d.open {
		line(st.Error.Render("OPEN CLASSROOM: anyone who can reach this port gets in, under any name, with no key or password."))
	}
	a := d.room.Announcement()
	if a.IsZero() {
		line(st.Muted.Render("Nothing announced. p presents the course here; every step you show is announced to the students."))
	} else {
		line(st.Accent.Render("▶ "+a.String()) + st.Text.Render(" · "+plain(a.StepTitle)) +
			st.Muted.Render(" · announced "+ago(d.now().Sub(a.At))+" · students press f to follow"))
	}
	line("")
	statusW := min(max(w/5, 12), 30)
	stepW := max(w-colsFixed-statusW, 12)
	line(st.Muted.Render(strings.Repeat(" ", colMark) + pad("student", colName) + pad("lesson", colLesson) +
		pad("step", stepW) + pad("passed/tried", colExercises) + pad("on step", colOnStep) + "status"))

	// The rest of the screen holds rows, then the key help on the last line.
	space := max(d.height-strings.Count(b.String(), "\n")-1, 1)
	d.offset = min(d.offset, max(len(rows)-space, 0))
	shown := rows[d.offset:]
	if len(shown) > space {
		shown = shown[:space]
	}
	var body []string
	if len(rows) == 0 {
		body = append(body, st.Muted.Render("  No students yet. They log in with: "+d.login))
	}
	for _, r := range shown {
		body = append(body, d.row(r, stepW))
	}
	for len(body) < space {
		body = append(body, "")
	}
	for _, l := range body {
		line(l)
	}
	b.WriteString(d.footer(w))
	return b.String()
}

func (d *dashboard) row(r room.Row, stepW int) string {
	st := d.st
	mark, name := "  ", st.Text
	switch {
	case r.Stuck:
		mark, name = st.Error.Render("! "), st.Error.Bold(true)
	case !r.Online:
		name = st.Muted
	}
	lesson, step, exercises, onStep := "—", "", "", ""
	if r.HasPosition {
		lesson = r.Lesson
		step = fmt.Sprintf("%d/%d %s", r.Step+1, r.Steps, plain(r.StepTitle))
		if r.Total > 0 {
			exercises = fmt.Sprintf("%d/%d", r.Passed, r.Attempted)
		}
		onStep = clock(r.OnStep)
	}
	status := ""
	switch {
	case r.Stuck:
		status = st.Error.Render(r.StuckReason)
	case !r.Online:
		status = st.Muted.Render("offline")
	case r.FailedInARow > 0:
		status = st.Warning.Render(fmt.Sprintf("failed %d×", r.FailedInARow))
	}
	return mark + name.Render(pad(r.Name, colName)) + st.Text.Render(pad(lesson, colLesson)+pad(step, stepW)+
		pad(exercises, colExercises)+pad(onStep, colOnStep)) + status
}

func (d *dashboard) footer(w int) string {
	st := d.st
	if d.confirmStop {
		return ansi.Truncate(st.Warning.Render(fmt.Sprintf("Stop the classroom? %s connected and will be logged out. y/N", students(d.room.Online()))), w, "…")
	}
	var parts []string
	for _, k := range []key.Binding{d.keys.Present, d.keys.Clear, d.keys.Down, d.keys.Quit} {
		h := k.Help()
		desc := h.Desc
		if k.Help().Key == "q" && d.local {
			desc = "stop the classroom"
		}
		parts = append(parts, st.Key.Render(h.Key)+" "+st.Muted.Render(desc))
	}
	return ansi.Truncate(strings.Join(parts, st.Muted.Render(" • ")), w, "…")
}

// pad cuts or pads s to exactly w cells, leaving a one-cell gap.
func pad(s string, w int) string {
	s = ansi.Truncate(s, w-1, "…")
	return s + strings.Repeat(" ", max(w-lipgloss.Width(s), 0))
}

// clock formats a duration as m:ss, or h:mm:ss from an hour on.
func clock(d time.Duration) string {
	d = d.Truncate(time.Second)
	h, m, s := int(d/time.Hour), int(d/time.Minute)%60, int(d/time.Second)%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}

// students is "1 student is", "3 students are".
func students(n int) string {
	if n == 1 {
		return "1 student is"
	}
	return fmt.Sprintf("%d students are", n)
}

// plain drops the Markdown code marks of a step title.
func plain(title string) string { return strings.ReplaceAll(title, "`", "") }

func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d/time.Minute))
	}
	return fmt.Sprintf("%d h ago", int(d/time.Hour))
}
