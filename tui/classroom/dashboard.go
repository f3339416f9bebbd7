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
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/keymap"
	"github.com/schemalab/schemalab/tui/styles"
	"github.com/schemalab/schemalab/tui/termsafe"
)

var (
	msgDashScroll      = &locale.Message{ID: "dashboard.key.scroll", Other: "scroll"}
	msgDashStop        = &locale.Message{ID: "dashboard.key.stop", Other: "stop the classroom"}
	msgDashLogIn       = &locale.Message{ID: "dashboard.logIn", Other: " · log in: "}
	msgDashOnline      = &locale.Message{ID: "dashboard.online", Other: " · {{.Online}} of {{.Total}} online · {{.Auth}}"}
	msgDashOpen        = &locale.Message{ID: "dashboard.open", Other: "OPEN CLASSROOM: anyone who can reach this port gets in, under any name, with no key or password."}
	msgDashNothing     = &locale.Message{ID: "dashboard.nothingAnnounced", Other: "Nothing announced. p presents the course here; every step you show is announced to the students."}
	msgDashNow         = &locale.Message{ID: "dashboard.now", Other: "now: {{.Lesson}}, step {{.Step}}"}
	msgDashAnnounced   = &locale.Message{ID: "dashboard.announced", Other: " · announced {{.Ago}} · students press f to follow"}
	msgDashColumns     = &locale.Message{ID: "dashboard.columns", Other: "student|lesson|step|passed/tried|on step|status"}
	msgDashUsage       = &locale.Message{ID: "dashboard.usage", Other: "storage|cursors|memory"}
	msgDashNoStudents  = &locale.Message{ID: "dashboard.noStudents", Other: "  No students yet. They log in with: {{.Hint}}"}
	msgDashOffline     = &locale.Message{ID: "dashboard.offline", Other: "offline"}
	msgDashFailedTimes = &locale.Message{ID: "dashboard.failedTimes", Other: "failed {{.Count}}×"}
	msgDashStuckFailed = &locale.Message{ID: "dashboard.stuckFailed", One: "failed {{.Count}} time", Other: "failed {{.Count}} times"}
	msgDashStuckTime   = &locale.Message{ID: "dashboard.stuckTime", Other: "{{.Count}} min on step"}
	msgDashConfirmStop = &locale.Message{ID: "dashboard.confirmStop", One: "Stop the classroom? {{.Count}} student is connected and will be logged out. y/N", Other: "Stop the classroom? {{.Count}} students are connected and will be logged out. y/N"}
	msgDashJustNow     = &locale.Message{ID: "dashboard.justNow", Other: "just now"}
	msgDashMinAgo      = &locale.Message{ID: "dashboard.minAgo", Other: "{{.Count}} min ago"}
	msgDashHoursAgo    = &locale.Message{ID: "dashboard.hoursAgo", Other: "{{.Count}} h ago"}
)

// dashboard is the instructor's live view of the room: one row per
// student, stuck ones first. It is a component like the course's: its
// parent (the instructor's program) sizes it, and its keys are the
// keymap package's.
type dashboard struct {
	common.Common
	room   *room.Room
	offset int
	// header facts: how students log in and what they are told.
	login, auth string
	open        bool
	// local is the classroom's own terminal, where quitting stops the
	// classroom (and so asks first while students are in).
	local       bool
	confirmStop bool
	now         func() time.Time
	// usage is what a student uses (on the server; their process's
	// memory); nil shows no figures.
	usage func(name string) (u Usage, memory int64, ok bool)
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

var _ common.Component = (*dashboard)(nil)

// Init starts the clock that redraws the times.
func (d *dashboard) Init() tea.Cmd { return tick() }

// SetSize is the area the instructor's program gives the dashboard.
func (d *dashboard) SetSize(w, h int) { d.Common.SetSize(w, h) }

// Update handles the dashboard's own keys and messages; present (p) is
// the instructor's program's.
func (d *dashboard) Update(msg tea.Msg) (common.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tickMsg:
		return d, tick()
	case tea.BackgroundColorMsg:
		*d.Styles = *styles.New(msg.IsDark(), d.Styles.NoColor)
	case tea.KeyPressMsg:
		return d, d.key(msg)
	}
	return d, nil
}

func (d *dashboard) key(msg tea.KeyPressMsg) tea.Cmd {
	k := d.KeyMap
	if d.confirmStop {
		d.confirmStop = false
		if key.Matches(msg, k.Yes) {
			return tea.Quit
		}
		return nil
	}
	switch {
	case key.Matches(msg, k.Quit, k.Cancel):
		if d.local && d.room.Online() > 0 {
			d.confirmStop = true
			return nil
		}
		return tea.Quit
	case key.Matches(msg, k.ClearAnnouncement):
		d.room.ClearAnnouncement()
	case key.Matches(msg, k.Down):
		d.offset++
	case key.Matches(msg, k.Up):
		d.offset = max(d.offset-1, 0)
	}
	return nil
}

// ShortHelp is the footer's keys: quitting stops the classroom on its own
// terminal.
func (d *dashboard) ShortHelp() []key.Binding {
	k := d.KeyMap
	quit := k.Quit
	if d.local {
		quit = keymap.WithHelp(quit, quit.Help().Key, d.T(msgDashStop, nil))
	}
	return []key.Binding{k.Present, k.ClearAnnouncement, keymap.WithHelp(k.Down, "↑↓/jk", d.T(msgDashScroll, nil)), quit}
}

// FullHelp is ShortHelp: the dashboard has no more keys.
func (d *dashboard) FullHelp() [][]key.Binding { return [][]key.Binding{d.ShortHelp()} }

// Column widths; the step and status columns share what is left.
const (
	colMark      = 2
	colName      = 12
	colLesson    = 9
	colExercises = 13
	colOnStep    = 8
	colsFixed    = colMark + colName + colLesson + colExercises + colOnStep
	// The usage columns come last, where a narrow terminal cuts them.
	colUsage = 9
)

func (d *dashboard) View() string {
	st := d.Styles
	w := max(d.Width, 40)
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
	line(st.Title.Render("schemalab classroom") + st.Muted.Render(d.T(msgDashLogIn, nil)) + st.Text.Render(d.login) +
		st.Muted.Render(d.T(msgDashOnline, map[string]any{"Online": online, "Total": len(rows), "Auth": d.auth})))
	if d.open {
		line(st.Error.Render(d.T(msgDashOpen, nil)))
	}
	a := d.room.Announcement()
	if a.IsZero() {
		line(st.Muted.Render(d.T(msgDashNothing, nil)))
	} else {
		line(st.Accent.Render("▶ "+d.T(msgDashNow, map[string]any{"Lesson": termsafe.Line(a.Lesson), "Step": a.Step + 1})) + st.Text.Render(" · "+plain(a.StepTitle)) +
			st.Muted.Render(d.T(msgDashAnnounced, map[string]any{"Ago": d.ago(d.now().Sub(a.At))})))
	}
	line("")
	statusW := min(max(w/5, 12), 30)
	usageW := 0
	if d.usage != nil {
		usageW = 3 * colUsage
	}
	stepW := max(w-colsFixed-statusW-usageW, 12)
	cols := strings.Split(d.T(msgDashColumns, nil), "|")
	for len(cols) < 6 {
		cols = append(cols, "")
	}
	usage := strings.Split(d.T(msgDashUsage, nil), "|")
	for len(usage) < 3 {
		usage = append(usage, "")
	}
	header := strings.Repeat(" ", colMark) + pad(cols[0], colName) + pad(cols[1], colLesson) +
		pad(cols[2], stepW) + pad(cols[3], colExercises) + pad(cols[4], colOnStep)
	if d.usage != nil {
		header += pad(cols[5], statusW) + pad(usage[0], colUsage) + pad(usage[1], colUsage) + usage[2]
	} else {
		header += cols[5]
	}
	line(st.Muted.Render(header))

	// The rest of the screen holds rows, then the key help on the last line.
	space := max(d.Height-strings.Count(b.String(), "\n")-1, 1)
	d.offset = min(d.offset, max(len(rows)-space, 0))
	shown := rows[d.offset:]
	if len(shown) > space {
		shown = shown[:space]
	}
	var body []string
	if len(rows) == 0 {
		body = append(body, st.Muted.Render(d.T(msgDashNoStudents, map[string]any{"Hint": d.login})))
	}
	for _, r := range shown {
		body = append(body, d.row(r, stepW, statusW))
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

func (d *dashboard) row(r room.Row, stepW, statusW int) string {
	st := d.Styles
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
	case r.Stuck && r.StuckFailed:
		status = st.Error.Render(d.N(msgDashStuckFailed, r.FailedInARow, nil))
	case r.Stuck:
		status = st.Error.Render(d.N(msgDashStuckTime, int(r.OnStep/time.Minute), nil))
	case !r.Online:
		status = st.Muted.Render(d.T(msgDashOffline, nil))
	case r.FailedInARow > 0:
		status = st.Warning.Render(d.N(msgDashFailedTimes, r.FailedInARow, nil))
	}
	if d.usage != nil && r.Online {
		if u, memory, ok := d.usage(r.Name); ok {
			status = padStyled(status, statusW) +
				st.Muted.Render(pad(megabytes(u.Storage), colUsage)+pad(fmt.Sprint(u.Cursors), colUsage)+megabytes(memory))
		}
	}
	return mark + name.Render(pad(r.Name, colName)) + st.Text.Render(pad(lesson, colLesson)+pad(step, stepW)+
		pad(exercises, colExercises)+pad(onStep, colOnStep)) + status
}

// padStyled pads styled text to w cells.
func padStyled(s string, w int) string {
	return s + strings.Repeat(" ", max(w-lipgloss.Width(s), 0))
}

// megabytes is a size for the dashboard: "12 MB", "0.4 MB".
func megabytes(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d MB", n>>20)
}

func (d *dashboard) footer(w int) string {
	st := d.Styles
	if d.confirmStop {
		return ansi.Truncate(st.Warning.Render(d.N(msgDashConfirmStop, d.room.Online(), nil)), w, "…")
	}
	var parts []string
	for _, k := range d.ShortHelp() {
		h := k.Help()
		parts = append(parts, st.Key.Render(h.Key)+" "+st.Muted.Render(h.Desc))
	}
	return ansi.Truncate(strings.Join(parts, st.Muted.Render(" • ")), w, "…")
}

// pad cuts or pads s to exactly w cells, leaving a one-cell gap. Every
// cell of the dashboard passes here, so here text the classroom did not
// write (names, lesson and step titles) loses its control characters.
func pad(s string, w int) string {
	s = ansi.Truncate(termsafe.Line(s), w-1, "…")
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

// plain drops the Markdown code marks of a step title, and its control
// characters.
func plain(title string) string { return termsafe.Line(strings.ReplaceAll(title, "`", "")) }

func (d *dashboard) ago(t time.Duration) string {
	switch {
	case t < time.Minute:
		return d.T(msgDashJustNow, nil)
	case t < time.Hour:
		return d.N(msgDashMinAgo, int(t/time.Minute), nil)
	}
	return d.N(msgDashHoursAgo, int(t/time.Hour), nil)
}
