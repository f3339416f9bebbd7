// Package tui is schemalab's terminal UI: a catalog of lessons and a
// lesson view that shows each step's code beside its output, comparisons
// in columns with their figures, exercises, a scratch shell and a stage
// preview. Its structure follows soft-serve's pkg/ui: a common struct
// (size, styles, key map), components with SetSize and help.KeyMap, and
// typed messages between pages.
package tui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/sandbox"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/keymap"
	"github.com/schemalab/schemalab/tui/styles"
)

// Options configure the app.
type Options struct {
	Catalog *lessons.Catalog
	// Store keeps progress; nil keeps none (tests).
	Store *lessons.Store
	// Connect opens the sandbox. It runs after the first frame is drawn.
	Connect func(ctx context.Context) (*sandbox.Backend, error)
	// Prefix of lesson database names.
	Prefix  string
	NoColor bool
	Present bool
	// Lesson and Step (1-based) open a lesson directly; Step 0 resumes.
	Lesson string
	Step   int
	// Warnings are shown on the catalog (broken lesson files, a moved
	// progress file).
	Warnings []string
}

// Minimum terminal size; below it the app says so instead of drawing a
// broken layout.
const minWidth, minHeight = 60, 20

// Model is the root Bubble Tea model.
type Model struct {
	common.Common
	opts    Options
	ctx     context.Context
	styles  *styles.Styles
	backend *sandbox.Backend
	connErr error

	catalog *catalogPage
	lesson  *lessonPage
	help    help.Model
	runs    *runState

	showHelp bool
	status   string
	quitting bool
	// fmtDur formats run times; tests make it constant.
	fmtDur func(time.Duration) string
}

// runState is the one run that may be in flight: its cancel function, a
// sequence number that makes stale results recognizable, and the spinner.
type runState struct {
	seq     int
	active  bool
	label   string
	started time.Time
	cancel  context.CancelFunc
	spin    spinner.Model
}

// start begins a run unless one is in flight; mk builds the run's command
// from its context and sequence number.
func (r *runState) start(parent context.Context, label string, mk func(ctx context.Context, seq int) tea.Cmd) tea.Cmd {
	if r.active {
		return statusCmd("Still running " + r.label + " (ctrl+c cancels it).")
	}
	r.seq++
	ctx, cancel := context.WithCancel(parent)
	r.active, r.label, r.started, r.cancel = true, label, time.Now(), cancel
	return tea.Batch(mk(ctx, r.seq), r.spin.Tick)
}

// finish ends run seq; false means the message is from an older run.
func (r *runState) finish(seq int) bool {
	if seq != r.seq || !r.active {
		return false
	}
	r.active = false
	r.cancel()
	return true
}

// New builds the app; nothing runs until the program starts it.
func New(ctx context.Context, opts Options) *Model {
	st := styles.New(true, opts.NoColor)
	c := common.Common{Styles: st, KeyMap: keymap.Default(), Present: opts.Present, Backend: "starting the embedded sandbox…"}
	if opts.Catalog == nil {
		opts.Catalog = &lessons.Catalog{}
	}
	m := &Model{Common: c, opts: opts, ctx: ctx, styles: st, help: help.New(), fmtDur: roundDuration}
	m.help.Styles = st.Help
	m.runs = &runState{spin: spinner.New(spinner.WithSpinner(spinner.MiniDot), spinner.WithStyle(st.Accent))}
	m.catalog = newCatalogPage(c, opts.Catalog, opts.Store, opts.Warnings)
	return m
}

// Close stops the sandbox; call it after the program ends.
func (m *Model) Close() error {
	if m.backend != nil {
		return m.backend.Close()
	}
	return nil
}

func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{m.connectCmd()}
	if !m.opts.NoColor {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	return tea.Batch(cmds...)
}

func (m *Model) connectCmd() tea.Cmd {
	connect, ctx := m.opts.Connect, m.ctx
	return func() tea.Msg {
		if connect == nil {
			return backendReadyMsg{err: fmt.Errorf("no sandbox configured")}
		}
		be, err := connect(ctx)
		if err != nil {
			return backendReadyMsg{err: err}
		}
		return backendReadyMsg{backend: be, label: backendLabel(ctx, be)}
	}
}

// backendLabel is the backend shown plainly: "embedded sandbox", or the
// server's version, topology and host (never credentials).
func backendLabel(_ context.Context, be *sandbox.Backend) string {
	if be.Kind == sandbox.KindEmbedded {
		return be.Host
	}
	return be.Status()
}

// pageSize is the area pages draw in: the window minus margins and the
// status line.
func (m *Model) pageSize() (w, h, x, y int) {
	w, h = m.Width, m.Height
	if m.Present {
		return w - 8, h - 2, 4, 1
	}
	return w, h - 1, 0, 0
}

func (m *Model) resize() {
	w, h, x, y := m.pageSize()
	m.help.SetWidth(m.Width)
	m.catalog.Common = m.childCommon()
	m.catalog.SetSize(w, h)
	if m.lesson != nil {
		c := m.childCommon()
		m.lesson.Common = c
		m.lesson.originX, m.lesson.originY = x, y
		m.lesson.prose.Common, m.lesson.output.Common = c, c
		for _, vp := range m.lesson.variants {
			vp.Common = c
		}
		m.lesson.SetSize(w, h)
	}
}

func (m *Model) childCommon() common.Common {
	c := m.Common
	w, h, _, _ := m.pageSize()
	c.Width, c.Height = w, h
	return c
}

func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.Width, m.Height = msg.Width, msg.Height
		m.resize()
		return m, nil
	case tea.BackgroundColorMsg:
		if !m.opts.NoColor {
			// Rebuild in place: every component holds this pointer.
			*m.styles = *styles.New(msg.IsDark(), false)
			m.help.Styles = m.styles.Help
			m.runs.spin.Style = m.styles.Accent
			if m.lesson != nil {
				m.lesson.proseCache = map[string]string{}
				m.lesson.editor.SetStyles(m.styles.Textarea())
				m.lesson.shellIn.SetStyles(m.styles.Textarea())
				m.lesson.refresh()
			}
		}
		return m, nil
	case backendReadyMsg:
		if msg.err != nil {
			m.connErr = msg.err
			m.Backend = "not connected: " + msg.err.Error()
		} else {
			m.backend, m.Backend = msg.backend, msg.label
		}
		m.resize()
		if m.opts.Lesson != "" && msg.err == nil {
			id, step := m.opts.Lesson, m.opts.Step-1
			m.opts.Lesson = ""
			return m, m.openLesson(id, step)
		}
		return m, nil
	case openLessonMsg:
		return m, m.openLesson(msg.id, msg.step)
	case backToCatalogMsg:
		m.lesson = nil
		return m, nil
	case statusMsg:
		m.status = string(msg)
		return m, nil
	case spinner.TickMsg:
		if !m.runs.active {
			return m, nil
		}
		var cmd tea.Cmd
		m.runs.spin, cmd = m.runs.spin.Update(msg)
		return m, cmd
	case runDoneMsg:
		if !m.runs.finish(msg.seq) {
			return m, nil
		}
		if msg.err == context.Canceled {
			m.status = "Cancelled."
		} else {
			m.status = ""
		}
		if m.lesson != nil {
			return m, m.lesson.Update(msg)
		}
		return m, nil
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.MouseWheelMsg:
		if m.lesson != nil {
			return m, m.lesson.Update(msg)
		}
		return m, m.catalog.Update(msg)
	}
	if m.lesson != nil {
		return m, m.lesson.Update(msg)
	}
	return m, nil
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.KeyMap
	m.status = ""
	if key.Matches(msg, k.Cancel) {
		// ctrl+c cancels a running step first and quits only when idle.
		if m.runs.active {
			m.runs.cancel()
			m.status = "Cancelling…"
			return nil
		}
		m.quitting = true
		return tea.Quit
	}
	if m.showHelp {
		if key.Matches(msg, k.Help) || key.Matches(msg, k.Back) || key.Matches(msg, k.Quit) {
			m.showHelp = false
		}
		return nil
	}
	if m.lesson != nil && (m.lesson.wantsKeys() || m.lesson.confirm != confirmNone) {
		return m.lesson.Update(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		m.quitting = true
		return tea.Quit
	case key.Matches(msg, k.Help):
		m.showHelp = true
		return nil
	}
	if m.lesson != nil {
		return m.lesson.Update(msg)
	}
	return m.catalog.Update(msg)
}

// openLesson shows lesson id at step (0-based; < 0 resumes where the
// learner left off).
func (m *Model) openLesson(id string, step int) tea.Cmd {
	l := m.opts.Catalog.Find(id)
	if l == nil {
		if id == "" {
			m.lesson = nil
			return nil
		}
		return statusCmd("No lesson " + id + ".")
	}
	if m.backend == nil {
		if m.connErr != nil {
			return statusCmd("The sandbox is not connected: " + m.connErr.Error())
		}
		return statusCmd("The sandbox is still starting…")
	}
	sess := &session{lesson: l, store: m.opts.Store, client: m.backend.Client,
		runner: lessons.NewRunner(m.backend.Client, l, lessons.RunnerOptions{Prefix: m.backend.Prefix(),
			ResetDB: m.backend.ResetDB, HeapLimit: m.backend.ScriptHeap()})}
	for i, other := range m.opts.Catalog.Lessons {
		if other.ID == id && i+1 < len(m.opts.Catalog.Lessons) {
			sess.nextLesson, sess.nextTitle = m.opts.Catalog.Lessons[i+1].ID, m.opts.Catalog.Lessons[i+1].Title
		}
	}
	if step < 0 {
		step = max(l.StepIndex(sess.progress().Current), 0)
	}
	step = min(step, len(l.Steps)-1)
	for i, cl := range m.opts.Catalog.Lessons {
		if cl.ID == id {
			m.catalog.cursor = i
		}
	}
	m.lesson = newLessonPage(m.ctx, m.childCommon(), sess, m.runs, step)
	m.lesson.fmtDur = m.fmtDur
	m.resize()
	return nil
}

func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "schemalab"
	if m.lesson != nil && m.lesson.mode == modeEditing && !m.showHelp {
		if c := m.lesson.editor.Cursor(); c != nil {
			// The editor is drawn inside a frame in the right column.
			c.X += m.lesson.output.x + 2
			c.Y += m.lesson.output.y - m.lesson.editor.Height() - 2 + 1
			v.Cursor = c
		}
	}
	return v
}

// render is the whole screen as a string; View wraps it, benchmarks and
// golden tests use it directly.
func (m *Model) render() string {
	if m.quitting {
		return ""
	}
	st := m.styles
	if m.Width < minWidth || m.Height < minHeight {
		msg := st.Warning.Render("terminal too small") + "\n" +
			st.Muted.Render(fmt.Sprintf("schemalab needs %d×%d, this is %d×%d", minWidth, minHeight, m.Width, m.Height))
		return lipgloss.Place(m.Width, m.Height, lipgloss.Center, lipgloss.Center, msg)
	}
	w, h, x, y := m.pageSize()
	var page string
	var km help.KeyMap = m.catalog
	switch {
	case m.showHelp:
		var full help.KeyMap = m.catalog
		if m.lesson != nil {
			full = m.lesson
		}
		body := st.Title.Render("Keys") + "\n\n" + m.fullHelp(full, w) + "\n\n"
		if m.Present {
			body += st.Text.Render("Presenting: each step opens with its prose only; enter reveals its code,") + "\n" +
				st.Text.Render("enter again runs it and shows the output. No status line; bars are doubled.") + "\n\n"
		}
		body += st.Muted.Render("? or esc closes this help")
		page = lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, body)
		km = helpCloser{m.KeyMap}
	case m.lesson != nil:
		page = m.lesson.View()
		km = m.lesson
	default:
		page = m.catalog.View()
	}
	page = fitBlock(page, w, h)
	if x > 0 || y > 0 {
		page = lipgloss.NewStyle().Padding(y, x, m.Height-h-y, x).Render(page)
		if m.Present && m.lesson != nil && m.lesson.confirm != confirmNone {
			page = fitBlock(page, m.Width, m.Height-1) + "\n" + m.confirmLine()
		}
		return fitBlock(page, m.Width, m.Height)
	}
	return page + "\n" + m.statusLine(km)
}

func (m *Model) confirmLine() string {
	st := m.styles
	switch m.lesson.confirm {
	case confirmReset:
		return st.Warning.Render(fmt.Sprintf("Reset %s? This drops %s and forgets its progress. y/N", m.lesson.lesson().ID, m.lesson.sess.runner.Database()))
	case confirmSolution:
		return st.Warning.Render("Replace your code with the reference solution? y/N")
	}
	return ""
}

// statusLine: the running step with spinner and elapsed time, or a note,
// then the short help.
func (m *Model) statusLine(km help.KeyMap) string {
	st := m.styles
	if m.lesson != nil && m.lesson.confirm != confirmNone {
		return fit(m.confirmLine(), m.Width)
	}
	var left string
	switch {
	case m.runs.active:
		left = m.runs.spin.View() + " " + st.Text.Render(m.runs.label) + st.Muted.Render(" "+m.fmtDur(time.Since(m.runs.started))+" · ctrl+c cancels")
	case m.status != "":
		left = st.Warning.Render(m.status)
	}
	hm := m.help
	hm.SetWidth(max(m.Width-lipglossWidth(left)-3, 10))
	right := hm.View(km)
	// bubbles/help overflows its width when even the ellipsis does not
	// fit after the last item; cut it rather than lose the whole line.
	if avail := m.Width - lipglossWidth(left) - 1; lipglossWidth(right) > avail {
		right = ansi.Truncate(right, max(avail, 0), "…")
	}
	gap := m.Width - lipglossWidth(left) - lipglossWidth(right)
	if gap < 1 {
		return fit(left, m.Width)
	}
	return left + strings.Repeat(" ", gap) + right
}

func lipglossWidth(s string) int { return lipgloss.Width(s) }

// fullHelp lays the key columns out side by side, or in two rows of
// columns when they do not fit the width (bubbles/help would cut the last
// ones off, and with them quit and the scratch shell at 80 columns).
func (m *Model) fullHelp(km help.KeyMap, w int) string {
	hm := m.help
	hm.ShowAll = true
	hm.SetWidth(0)
	groups := km.FullHelp()
	out := hm.FullHelpView(groups)
	if lipgloss.Width(out) <= w || len(groups) < 2 {
		return out
	}
	half := (len(groups) + 1) / 2
	return hm.FullHelpView(groups[:half]) + "\n\n" + hm.FullHelpView(groups[half:])
}

// helpCloser is the status line's help while the full help is open.
type helpCloser struct{ k *keymap.KeyMap }

func (h helpCloser) ShortHelp() []key.Binding {
	return []key.Binding{withHelp(h.k.Help, "?/esc", "close help"), h.k.Cancel}
}

func (h helpCloser) FullHelp() [][]key.Binding { return [][]key.Binding{h.ShortHelp()} }
