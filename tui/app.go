// Package tui is schemalab's terminal UI. Its structure follows
// soft-serve's pkg/ui: common (the Component interface and the Common
// struct every component gets: size, styles, key map, localizer), pages
// (catalog, lesson), components (pane, figures, pictures, tree, notebook
// and the renderers under them), keymap and styles. The app here holds
// the pages, the status line and the help, and reaches data only through
// the lessons package.
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
	"github.com/schemalab/schemalab/lessons/advise"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/keymap"
	advisepage "github.com/schemalab/schemalab/tui/pages/advise"
	"github.com/schemalab/schemalab/tui/pages/catalog"
	"github.com/schemalab/schemalab/tui/pages/lesson"
	"github.com/schemalab/schemalab/tui/styles"
)

// Options configure the app.
type Options struct {
	Catalog *lessons.Catalog
	// Store keeps progress; nil keeps none (tests).
	Store *lessons.Store
	// Connect opens the sandbox. It runs after the first frame is drawn.
	Connect func(ctx context.Context) (*lessons.Sandbox, error)
	NoColor bool
	Present bool
	// Lesson and Step (1-based) open a lesson directly; Step 0 resumes.
	Lesson string
	Step   int
	// Warnings are shown on the catalog (broken lesson files, a moved
	// progress file).
	Warnings []string
	// Localizer puts every string in the learner's language; nil is
	// English.
	Localizer *locale.Localizer
	// ExerciseDir is where watch mode writes exercises without a Store.
	ExerciseDir string
	// ScriptTimeout bounds one block's evaluation; 0 is the runner's
	// default.
	ScriptTimeout time.Duration
	// Remote is set when the learner is not at this machine (a classroom
	// session over SSH): nothing may run on the host but the sandbox, so
	// the $EDITOR and watch keys are off.
	Remote bool
	// OnActivity, if set, is told what the learner does (see Activity).
	OnActivity func(Activity)
}

var (
	msgConnecting   = &locale.Message{ID: "app.connecting", Other: "starting the embedded sandbox…"}
	msgNotConnected = &locale.Message{ID: "app.notConnected", Other: "not connected: {{.Err}}"}
	msgNoSandbox    = &locale.Message{ID: "app.noSandbox", Other: "no sandbox configured"}
	msgNoLesson     = &locale.Message{ID: "app.noLesson", Other: "No lesson {{.ID}}."}
	msgStillStart   = &locale.Message{ID: "app.stillStarting", Other: "The sandbox is still starting…"}
	msgConnFailed   = &locale.Message{ID: "app.connFailed", Other: "The sandbox is not connected: {{.Err}}"}
	msgCancelling   = &locale.Message{ID: "app.cancelling", Other: "Cancelling…"}
	msgRunning      = &locale.Message{ID: "app.running", Other: " {{.Elapsed}} · {{.Key}} cancels"}
	msgTooSmall     = &locale.Message{ID: "app.tooSmall", Other: "terminal too small"}
	msgNeeds        = &locale.Message{ID: "app.needs", Other: "schemalab needs {{.W}}×{{.H}}, this is {{.Width}}×{{.Height}}"}
	msgKeys         = &locale.Message{ID: "app.keys", Other: "Keys"}
	msgPresenting   = &locale.Message{ID: "app.presenting", Other: "Presenting: each step opens with its prose only; enter reveals its code, enter again runs it and shows the output. No status line; bars are doubled."}
	msgHelpCloses   = &locale.Message{ID: "app.helpCloses", Other: "? or esc closes this help"}
	msgCloseHelp    = &locale.Message{ID: "app.closeHelp", Other: "close help"}
)

// Minimum terminal size; below it the app says so instead of drawing a
// broken layout.
const minWidth, minHeight = 60, 20

// Model is the root Bubble Tea model.
type Model struct {
	common.Common
	opts    Options
	ctx     context.Context
	backend *lessons.Sandbox
	connErr error

	catalog *catalog.Page
	// advise is the advise page, under the lesson it opened, if any.
	advise  *advisepage.Page
	lesson  *lesson.Page
	help    help.Model
	spin    spinner.Model
	ticking bool
	// pageFrame is the page as last drawn, fitted to its area, while
	// pageFrameOK. A spinner tick changes the status line only: each
	// waiting learner's screen is drawn a dozen times a second, and a
	// classroom's thirty of them redrew every page at each tick.
	pageFrame   string
	pageFrameOK bool
	// opened counts lessons opened, to number each page's runs apart.
	opened int

	showHelp bool
	status   string
	// announcement is the classroom's "follow me", if any.
	announcement AnnouncementMsg
	quitting     bool
}

// New builds the app; nothing runs until the program starts it.
func New(ctx context.Context, opts Options) *Model {
	l := opts.Localizer
	if l == nil {
		l = locale.English()
	}
	st := styles.New(true, opts.NoColor)
	c := common.Common{Styles: st, KeyMap: keymap.Default(l), L: l, Present: opts.Present}
	c.KeyMap.ExternalEditor.SetEnabled(!opts.Remote)
	c.KeyMap.Watch.SetEnabled(!opts.Remote)
	c.Backend = c.T(msgConnecting, nil)
	if opts.Catalog == nil {
		opts.Catalog = &lessons.Catalog{}
	}
	m := &Model{Common: c, opts: opts, ctx: ctx, help: help.New()}
	m.help.Styles = st.Help
	spin := spinner.MiniDot
	if opts.Remote {
		spin.FPS = remoteSpinnerFrame
	}
	m.spin = spinner.New(spinner.WithSpinner(spin), spinner.WithStyle(st.Accent))
	m.catalog = catalog.New(c, opts.Catalog, opts.Store, opts.Warnings)
	return m
}

// remoteSpinnerFrame is how long a remote learner's spinner shows each
// frame. Every frame redraws the whole screen into the terminal's cells:
// at MiniDot's twelve a second, sixty students of a room waiting for
// their steps spent more of the machine drawing spinners than running
// the steps they waited for.
const remoteSpinnerFrame = time.Second / 2

// Close ends the open lesson's session and stops the sandbox; call it
// after the program ends.
func (m *Model) Close() error {
	if m.lesson != nil {
		m.lesson.Close()
		m.lesson = nil
	}
	m.leaveAdvise()
	if m.backend != nil && m.backend.Close != nil {
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

// backendReadyMsg reports the sandbox connection, made after the first
// frame so that the app appears at once.
type backendReadyMsg struct {
	backend *lessons.Sandbox
	err     error
}

func (m *Model) connectCmd() tea.Cmd {
	connect, ctx := m.opts.Connect, m.ctx
	noSandbox := m.T(msgNoSandbox, nil)
	return func() tea.Msg {
		if connect == nil {
			return backendReadyMsg{err: fmt.Errorf("%s", noSandbox)}
		}
		be, err := connect(ctx)
		return backendReadyMsg{backend: be, err: err}
	}
}

// pageArea is where pages draw: the window minus margins and the status
// line, computed from the size alone, so that drawing, the mouse and the
// cursor place the page alike.
func (m *Model) pageArea() common.Rect {
	if m.Present {
		return common.Rect{X: 4, Y: 1, W: m.Width - 8, H: m.Height - 2}
	}
	return common.Rect{W: m.Width, H: m.Height - 1}
}

// page is the page shown: the open lesson, else the advise page, else
// the catalog.
func (m *Model) page() common.Component {
	switch {
	case m.lesson != nil:
		return m.lesson
	case m.advise != nil:
		return m.advise
	}
	return m.catalog
}

func (m *Model) resize() {
	r := m.pageArea()
	m.help.SetWidth(m.Width)
	m.catalog.SetSize(r.W, r.H)
	if m.lesson != nil {
		m.lesson.SetSize(r.W, r.H)
	}
	if m.advise != nil {
		m.advise.SetSize(r.W, r.H)
	}
}

func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, tick := msg.(spinner.TickMsg); !tick {
		m.pageFrameOK = false
	}
	cmd := m.update(msg)
	if _, _, running := m.running(); running && !m.ticking {
		m.ticking = true
		cmd = tea.Batch(cmd, m.spin.Tick)
	}
	return m, cmd
}

func (m *Model) running() (string, time.Time, bool) {
	switch {
	case m.lesson != nil:
		return m.lesson.Running()
	case m.advise != nil:
		return m.advise.Running()
	}
	return "", time.Time{}, false
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.Width, m.Height = msg.Width, msg.Height
		m.resize()
		return nil
	case tea.BackgroundColorMsg:
		if !m.opts.NoColor {
			// Rebuild in place: every component holds this pointer.
			*m.Styles = *styles.New(msg.IsDark(), false)
			m.help.Styles = m.Styles.Help
			m.spin.Style = m.Styles.Accent
		}
		return nil
	case backendReadyMsg:
		return m.backendReady(msg)
	case common.OpenLessonMsg:
		return m.openLesson(msg.ID, msg.Step)
	case common.OpenAdviseMsg:
		return m.openAdvise()
	case common.BackMsg:
		if m.lesson != nil {
			m.leaveLesson()
		} else {
			m.leaveAdvise()
		}
		return nil
	case common.StatusMsg:
		m.status = string(msg)
		return nil
	case AnnouncementMsg:
		m.announcement = msg
		return nil
	case spinner.TickMsg:
		if _, _, running := m.running(); !running {
			m.ticking = false
			return nil
		}
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return cmd
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.MouseWheelMsg:
		msg = m.pageArea().Wheel(msg)
		_, cmd := m.page().Update(msg)
		return cmd
	}
	_, cmd := m.page().Update(msg)
	return cmd
}

func (m *Model) backendReady(msg backendReadyMsg) tea.Cmd {
	if msg.err != nil {
		m.connErr = msg.err
		m.Backend = m.T(msgNotConnected, map[string]any{"Err": msg.err.Error()})
	} else {
		m.backend, m.Backend = msg.backend, msg.backend.Label
	}
	m.catalog.SetBackend(m.Backend)
	m.catalog.SetAdvise(m.backend != nil && m.backend.ReadOnly != nil)
	m.resize()
	if m.opts.Lesson != "" && msg.err == nil {
		id, step := m.opts.Lesson, m.opts.Step-1
		m.opts.Lesson = ""
		return m.openLesson(id, step)
	}
	return nil
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.KeyMap
	m.status = ""
	if key.Matches(msg, k.Cancel) {
		// ctrl+c cancels a running step first and quits only when idle.
		if m.lesson != nil && m.lesson.Interrupt() || m.lesson == nil && m.advise != nil && m.advise.Interrupt() {
			m.status = m.T(msgCancelling, nil)
			return nil
		}
		m.quit()
		return tea.Quit
	}
	if m.showHelp {
		if key.Matches(msg, k.Help) || key.Matches(msg, k.Back) || key.Matches(msg, k.Quit) {
			m.showHelp = false
		}
		return nil
	}
	if m.wantsKeys() {
		_, cmd := m.page().Update(msg)
		return cmd
	}
	switch {
	case key.Matches(msg, k.Quit):
		m.quit()
		return tea.Quit
	case key.Matches(msg, k.Help):
		m.showHelp = true
		return nil
	case key.Matches(msg, k.Follow) && m.notice() != "":
		return m.follow()
	}
	_, cmd := m.page().Update(msg)
	return cmd
}

// wantsKeys reports whether an input of the page shown has the keyboard:
// the lesson's editor, shell or question, or the advise page's URI.
func (m *Model) wantsKeys() bool {
	switch {
	case m.lesson != nil:
		return m.lesson.WantsKeys()
	case m.advise != nil:
		return m.advise.WantsKeys()
	}
	return false
}

// quit keeps the open exercise's draft before the program ends.
func (m *Model) quit() {
	m.quitting = true
	if m.lesson != nil {
		m.lesson.Close()
		m.lesson = nil
	}
	m.leaveAdvise()
}

// leaveAdvise closes the advise page, stopping its analysis, and puts the
// catalog back.
func (m *Model) leaveAdvise() {
	if m.advise != nil {
		m.advise.Close()
		m.advise = nil
	}
}

// openAdvise shows the advise page on the backend's read-only client; the
// catalog offers it only when the backend has one.
func (m *Model) openAdvise() tea.Cmd {
	if m.backend == nil || m.backend.ReadOnly == nil {
		return nil
	}
	m.leaveAdvise()
	r := m.pageArea()
	c := m.Common
	c.Width, c.Height = r.W, r.H
	m.advise = advisepage.New(m.ctx, c, advise.Source{ReadOnly: m.backend.ReadOnly, Server: m.Backend})
	return m.advise.Init()
}

func (m *Model) leaveLesson() {
	if m.lesson != nil {
		m.catalog.Select(m.lesson.Lesson().ID)
		m.lesson.Close()
		m.lesson = nil
	}
}

// openLesson shows lesson id at step (0-based; < 0 resumes).
func (m *Model) openLesson(id string, step int) tea.Cmd {
	l := m.opts.Catalog.Find(id)
	if l == nil {
		return statusCmd(m.T(msgNoLesson, map[string]any{"ID": id}))
	}
	if m.backend == nil {
		if m.connErr != nil {
			return statusCmd(m.T(msgConnFailed, map[string]any{"Err": m.connErr.Error()}))
		}
		return statusCmd(m.T(msgStillStart, nil))
	}
	m.leaveLesson()
	var next *lessons.Lesson
	for i, other := range m.opts.Catalog.Lessons {
		if other.ID == id && i+1 < len(m.opts.Catalog.Lessons) {
			next = m.opts.Catalog.Lessons[i+1]
		}
	}
	m.opened++
	r := m.pageArea()
	c := m.Common
	c.Width, c.Height = r.W, r.H
	m.lesson = lesson.New(m.ctx, c, l, lesson.Options{
		Session: lessons.NewSession(m.backend, l, lessons.SessionOptions{Timeout: m.opts.ScriptTimeout, Locale: m.L}), Store: m.opts.Store, Next: next,
		Observe: m.opts.OnActivity,
		Step:    step, FirstSeq: m.opened << 20, ExerciseDir: m.opts.ExerciseDir,
	})
	m.catalog.Select(id)
	m.resize()
	return nil
}

func statusCmd(s string) tea.Cmd { return func() tea.Msg { return common.StatusMsg(s) } }

func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "schemalab"
	if m.lesson != nil && !m.showHelp {
		v.Cursor = m.pageArea().Cursor(m.lesson.Cursor())
	}
	return v
}

// render is the whole screen as a string; View wraps it, benchmarks and
// golden tests use it directly.
func (m *Model) render() string {
	if m.quitting {
		return ""
	}
	st := m.Styles
	if m.Width < minWidth || m.Height < minHeight {
		msg := st.Warning.Render(m.T(msgTooSmall, nil)) + "\n" +
			st.Muted.Render(m.T(msgNeeds, map[string]any{"W": minWidth, "H": minHeight, "Width": m.Width, "Height": m.Height}))
		return lipgloss.Place(m.Width, m.Height, lipgloss.Center, lipgloss.Center, msg)
	}
	r := m.pageArea()
	w, h, x, y := r.W, r.H, r.X, r.Y
	var page string
	var km help.KeyMap = m.page()
	switch {
	case m.showHelp:
		page = common.FitBlock(m.helpPage(w, h), w, h)
		km = helpCloser{m.Common}
	case m.pageFrameOK:
		page = m.pageFrame
	default:
		page = common.FitBlock(m.page().View(), w, h)
		m.pageFrame, m.pageFrameOK = page, true
	}
	if x > 0 || y > 0 {
		page = lipgloss.NewStyle().Padding(y, x, m.Height-h-y, x).Render(page)
		if q := m.question(); q != "" {
			page = common.FitBlock(page, m.Width, m.Height-1) + "\n" + common.Fit(st.Warning.Render(q), m.Width)
		}
		return common.FitBlock(page, m.Width, m.Height)
	}
	return page + "\n" + m.statusLine(km)
}

func (m *Model) question() string {
	if m.lesson == nil {
		return ""
	}
	return m.lesson.Question()
}

func (m *Model) helpPage(w, h int) string {
	st := m.Styles
	keys := m.fullHelp(m.page(), w)
	body := st.Title.Render(m.T(msgKeys, nil)) + "\n\n" + keys + "\n\n"
	if m.Present {
		// The note wraps to the keys' width: a line wider than the
		// screen made the whole block wider, and every line of it, the
		// empty ones too, was cut with an ellipsis.
		note := ansi.Wordwrap(m.T(msgPresenting, nil), min(max(lipgloss.Width(keys), 40), w), "")
		body += st.Text.Render(note) + "\n\n"
	}
	body += st.Muted.Render(m.T(msgHelpCloses, nil))
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, body)
}

// statusLine: a question, the running step with spinner and elapsed
// time, an announcement or a note, then the short help, which always
// ends in help and quit and is shortened before them as bubbles' help
// shortens, with an ellipsis.
func (m *Model) statusLine(km help.KeyMap) string {
	st := m.Styles
	if q := m.question(); q != "" {
		return common.Fit(st.Warning.Render(q), m.Width)
	}
	var left string
	k := m.KeyMap
	label, since, running := m.running()
	switch {
	case running:
		left = m.spin.View() + " " + st.Text.Render(label) + st.Muted.Render(m.T(msgRunning, map[string]any{"Elapsed": m.Duration(time.Since(since)), "Key": k.Cancel.Help().Key}))
	case m.status != "":
		left = st.Warning.Render(m.status)
	case m.notice() != "":
		left = m.notice()
	}
	tail := []key.Binding{k.Help, k.Quit}
	if _, closing := km.(helpCloser); closing || m.wantsKeys() {
		// q and ? are typed, not commands, while an input has the keys.
		tail = nil
	}
	hm := m.help
	hm.SetWidth(0)
	tailView := hm.ShortHelpView(tail)
	sep := st.Help.ShortSeparator.Render(hm.ShortSeparator)
	avail := m.Width - lipgloss.Width(left) - 2 - lipgloss.Width(tailView)
	if len(tail) > 0 {
		avail -= lipgloss.Width(sep)
	}
	right := tailView
	if avail > 4 {
		hm.SetWidth(avail)
		front := hm.ShortHelpView(km.ShortHelp())
		if lipgloss.Width(front) > avail {
			// bubbles' help can overrun its width by an item's separator.
			front = ansi.Truncate(front, avail-1, "") + st.Help.Ellipsis.Render("…")
		}
		if front != "" {
			right = front
			if tailView != "" {
				right += sep + tailView
			}
		}
	}
	if lipgloss.Width(left)+1+lipgloss.Width(right) > m.Width {
		left = common.Fit(left, max(m.Width-lipgloss.Width(right)-1, 0))
	}
	gap := m.Width - lipgloss.Width(left) - lipgloss.Width(right)
	return left + strings.Repeat(" ", max(gap, 0)) + right
}

// fullHelp lays the key columns out side by side, or in two rows of
// columns when they do not fit the width.
func (m *Model) fullHelp(km help.KeyMap, w int) string {
	hm := m.help
	hm.ShowAll = true
	hm.SetWidth(0)
	groups := km.FullHelp()
	if m.notice() != "" {
		groups = append(groups, []key.Binding{m.KeyMap.Follow})
	}
	out := hm.FullHelpView(groups)
	if lipgloss.Width(out) <= w || len(groups) < 2 {
		return out
	}
	half := (len(groups) + 1) / 2
	return hm.FullHelpView(groups[:half]) + "\n\n" + hm.FullHelpView(groups[half:])
}

// helpCloser is the status line's help while the full help is open.
type helpCloser struct{ c common.Common }

func (h helpCloser) ShortHelp() []key.Binding {
	k := h.c.KeyMap
	return []key.Binding{keymap.WithHelp(k.Help, "?/esc", h.c.T(msgCloseHelp, nil)), k.Cancel}
}

func (h helpCloser) FullHelp() [][]key.Binding { return [][]key.Binding{h.ShortHelp()} }
