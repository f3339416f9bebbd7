// Package advise is the advise page: it lists the databases the backend
// in use lets schemalab read, runs `schemalab advise`'s analysis
// (lessons/advise) on the one the learner picks, and shows the findings
// with their figures and histograms, each a key away from the lesson it
// names. Everything it sends goes through advise's read-only client.
package advise

import (
	"context"
	"errors"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/schemalab/schemalab/lessons/advise"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/components/viewport"
	"github.com/schemalab/schemalab/tui/keymap"
)

var (
	msgTitle      = &locale.Message{ID: "advise.title", Other: "Advise a database"}
	msgIntro      = &locale.Message{ID: "advise.intro", Other: "Reads a database and names the schema patterns it needs, with the figures behind each finding. It only reads: its client is refused any write."}
	msgServer     = &locale.Message{ID: "advise.server", Other: "server: {{.Server}}"}
	msgListing    = &locale.Message{ID: "advise.listing", Other: "Listing the databases…"}
	msgNoDBs      = &locale.Message{ID: "advise.noDatabases", Other: "There is no database to read yet. Run a lesson's step first: each lesson has its own database."}
	msgPick       = &locale.Message{ID: "advise.pick", Other: "Databases you can read"}
	msgListFailed = &locale.Message{ID: "advise.listFailed", Other: "The databases could not be listed: {{.Err}}"}
	msgStarting   = &locale.Message{ID: "advise.starting", Other: "analysing {{.Database}}"}
	msgAnalysing  = &locale.Message{ID: "advise.analysing", Other: "analysing {{.Database}}: {{.Collection}} ({{.N}}/{{.Total}})"}
	msgFindings   = &locale.Message{ID: "advise.findings", One: "{{.Database}}: {{.Count}} finding", Other: "{{.Database}}: {{.Count}} findings"}
	msgNone       = &locale.Message{ID: "advise.noFindings", Other: "No pattern to suggest: no figure crossed a threshold."}
	msgStopped    = &locale.Message{ID: "advise.stopped", Other: "Stopped: these are the findings until then."}
	msgFailed     = &locale.Message{ID: "advise.failed", Other: "The analysis stopped: {{.Err}}"}
	msgNotes      = &locale.Message{ID: "advise.notes", Other: "What advise could not see"}
	msgEnglish    = &locale.Message{ID: "advise.englishOnly", Other: "Findings are written in English, as `schemalab advise` writes them."}
	msgStop       = &locale.Message{ID: "advise.key.stop", Other: "stop"}
	msgURI        = &locale.Message{ID: "advise.uri", Other: "Connection string of the server to read (mongodb://… or mongodb+srv://…):"}
	msgConnecting = &locale.Message{ID: "advise.connecting", Other: "connecting to the server"}
	msgDialFailed = &locale.Message{ID: "advise.dialFailed", Other: "Could not connect: {{.Err}}"}
	msgConnect    = &locale.Message{ID: "advise.key.connect", Other: "connect"}
)

// stage is where the page is: choosing a database, analysing it, or
// showing its report.
type stage int

const (
	choosing stage = iota
	// typing a URI, then connecting to it
	typing
	connecting
	analysing
	reporting
)

// Page is the advise page.
type Page struct {
	common.Common
	ctx context.Context
	src advise.Source
	// dial connects to a typed URI (advise.Dial; tests give a server of
	// their own); closeSrc ends the connection it made, if src is one.
	dial     func(ctx context.Context, uri string) (advise.Source, func() error, error)
	closeSrc func() error
	input    textinput.Model
	dialErr  error

	stage stage
	// names is nil until the databases are listed; listErr says why they
	// could not be.
	names   []string
	listErr error
	cursor  int

	// The run in flight: its number (a cancelled run's report arrives
	// late and is dropped), its database, when it began, where it is, and
	// how to stop it.
	run      int
	database string
	since    time.Time
	progress advise.Progress
	cancel   context.CancelFunc

	report *advise.Report
	runErr error
	// selected is the finding enter and o open the lesson of; heads are
	// the rows of the findings' headings in the pane.
	selected int
	heads    []int
	pane     *viewport.Model
}

var _ common.Component = (*Page)(nil)

// New is the page on src; Init lists its databases.
func New(ctx context.Context, c common.Common, src advise.Source) *Page {
	in := textinput.New()
	in.Prompt = "> "
	in.Placeholder = "mongodb://localhost:27017"
	// The app's styles, and a steady cursor: a blinking one redraws the
	// screen twice a second for nothing.
	ist := in.Styles()
	ist.Focused.Text, ist.Focused.Prompt, ist.Focused.Placeholder = c.Styles.Text, c.Styles.Accent, c.Styles.Muted
	ist.Cursor.Blink = false
	in.SetStyles(ist)
	return &Page{Common: c, ctx: ctx, src: src, dial: advise.Dial, input: in, pane: viewport.New(c)}
}

// dialedMsg is the connection to a typed URI, made or not.
type dialedMsg struct {
	run   int
	src   advise.Source
	close func() error
	err   error
}

// databasesMsg lists the databases src can read; run tells the list of
// a server left meanwhile (a URI typed while it was listed) from the one
// of the server in use.
type databasesMsg struct {
	run   int
	names []string
	err   error
}

// progressMsg is where run's analysis is; next waits for the one after.
type progressMsg struct {
	run  int
	p    advise.Progress
	next tea.Cmd
}

// reportMsg is run's report, whole or up to where it stopped.
type reportMsg struct {
	run    int
	report *advise.Report
	err    error
}

func (p *Page) Init() tea.Cmd {
	ctx, src, run := p.ctx, p.src, p.run
	return func() tea.Msg {
		names, err := advise.Databases(ctx, src, 0)
		return databasesMsg{run: run, names: names, err: err}
	}
}

// Running is the analysis in flight, for the status line's spinner.
func (p *Page) Running() (label string, since time.Time, ok bool) {
	switch p.stage {
	case connecting:
		return p.T(msgConnecting, nil), p.since, true
	case analysing:
		return p.progressText(), p.since, true
	}
	return "", time.Time{}, false
}

// WantsKeys reports whether the URI input has the keyboard, so that the
// app must not take q or ? as commands.
func (p *Page) WantsKeys() bool { return p.stage == typing }

// Interrupt stops the analysis in flight; false when there is none. Its
// report, up to where it stopped, is shown when it arrives.
func (p *Page) Interrupt() bool {
	if p.stage != analysing && p.stage != connecting || p.cancel == nil {
		return false
	}
	p.cancel()
	p.cancel = nil
	return true
}

// Close stops the analysis in flight, if any, and ends the connection to
// a typed URI, as the page goes.
func (p *Page) Close() {
	p.Interrupt()
	p.closeDialed()
}

func (p *Page) closeDialed() {
	if p.closeSrc != nil {
		_ = p.closeSrc()
		p.closeSrc = nil
	}
}

func (p *Page) progressText() string {
	if p.progress.Total == 0 {
		return p.T(msgStarting, map[string]any{"Database": p.database})
	}
	return p.T(msgAnalysing, map[string]any{"Database": p.database, "Collection": p.progress.Collection,
		"N": p.progress.Index, "Total": p.progress.Total})
}

func (p *Page) SetSize(w, h int) {
	p.Common.SetSize(w, h)
	if p.report != nil {
		p.layout()
	}
}

func (p *Page) ShortHelp() []key.Binding {
	k := p.KeyMap
	switch p.stage {
	case reporting:
		return []key.Binding{k.OpenLesson, k.Down, k.Up, k.PageDown, k.Back}
	case analysing, connecting:
		return []key.Binding{keymap.WithHelp(k.Back, k.Back.Help().Key, p.T(msgStop, nil))}
	case typing:
		return []key.Binding{keymap.WithHelp(k.Open, k.Open.Help().Key, p.T(msgConnect, nil)), k.Back}
	}
	return []key.Binding{k.Open, k.Down, k.Up, k.URI, k.Back}
}

func (p *Page) FullHelp() [][]key.Binding {
	k := p.KeyMap
	switch p.stage {
	case reporting:
		return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.ScrollTop, k.ScrollEnd}, {k.OpenLesson, k.Back, k.Help, k.Quit}}
	case analysing, connecting:
		return [][]key.Binding{p.ShortHelp(), {k.Cancel, k.Help, k.Quit}}
	case typing:
		return [][]key.Binding{p.ShortHelp()}
	}
	return [][]key.Binding{{k.Up, k.Down}, {k.Open, k.URI, k.Back, k.Help, k.Quit}}
}

func (p *Page) Update(msg tea.Msg) (common.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case dialedMsg:
		if msg.run != p.run || p.stage != connecting {
			if msg.close != nil {
				_ = msg.close()
			}
			return p, nil
		}
		p.stage, p.cancel = choosing, nil
		if p.dialErr = msg.err; msg.err != nil {
			return p, nil
		}
		p.closeDialed()
		p.src, p.closeSrc, p.names, p.listErr, p.cursor = msg.src, msg.close, nil, nil, 0
		return p, p.Init()
	case databasesMsg:
		if msg.run != p.run {
			return p, nil
		}
		p.names, p.listErr = msg.names, msg.err
		if p.names == nil {
			p.names = []string{}
		}
	case progressMsg:
		if msg.run == p.run && p.stage == analysing {
			p.progress = msg.p
		}
		return p, msg.next
	case reportMsg:
		if msg.run == p.run {
			p.stage, p.report, p.runErr, p.cancel = reporting, msg.report, msg.err, nil
			p.selected = 0
			p.layout()
			p.pane.GotoTop()
		}
	case tea.KeyPressMsg:
		return p, p.key(msg)
	case tea.MouseWheelMsg:
		if p.stage == reporting {
			p.pane.Handle(msg)
		}
	}
	return p, nil
}

func (p *Page) key(msg tea.KeyPressMsg) tea.Cmd {
	k := p.KeyMap
	switch p.stage {
	case analysing, connecting:
		if key.Matches(msg, k.Back) && p.Interrupt() && p.stage == connecting {
			p.stage = choosing
		}
	case typing:
		switch {
		case key.Matches(msg, k.Back):
			p.stage = choosing
			p.input.Blur()
		case key.Matches(msg, k.Open):
			if uri := strings.TrimSpace(p.input.Value()); uri != "" {
				p.input.Blur()
				return p.connect(uri)
			}
		default:
			var cmd tea.Cmd
			p.input, cmd = p.input.Update(msg)
			return cmd
		}
	case choosing:
		switch {
		case key.Matches(msg, k.Back):
			return func() tea.Msg { return common.BackMsg{} }
		case key.Matches(msg, k.URI):
			p.stage, p.dialErr = typing, nil
			return p.input.Focus()
		case key.Matches(msg, k.Down):
			p.cursor = min(p.cursor+1, max(len(p.names)-1, 0))
		case key.Matches(msg, k.Up):
			p.cursor = max(p.cursor-1, 0)
		case key.Matches(msg, k.Open):
			if p.cursor < len(p.names) {
				return p.start(p.names[p.cursor])
			}
		}
	case reporting:
		switch {
		case key.Matches(msg, k.Back):
			p.stage, p.report, p.runErr = choosing, nil, nil
		case key.Matches(msg, k.OpenLesson):
			if f := p.finding(); f != nil {
				id := f.Lesson
				return func() tea.Msg { return common.OpenLessonMsg{ID: id, Step: -1} }
			}
		case key.Matches(msg, k.Down):
			p.selectFinding(p.selected + 1)
		case key.Matches(msg, k.Up):
			p.selectFinding(p.selected - 1)
		default:
			p.pane.Handle(msg)
		}
	}
	return nil
}

// connect dials uri in a command that esc and ctrl+c cancel.
func (p *Page) connect(uri string) tea.Cmd {
	ctx, cancel := context.WithCancel(p.ctx)
	p.run++
	p.stage, p.since, p.cancel = connecting, time.Now(), cancel
	run, dial := p.run, p.dial
	return func() tea.Msg {
		defer cancel()
		src, closeSrc, err := dial(ctx, uri)
		return dialedMsg{run: run, src: src, close: closeSrc, err: err}
	}
}

// start runs the analysis of db in a command, under a context esc and
// ctrl+c cancel; its progress comes back through a channel, one message
// per collection.
func (p *Page) start(db string) tea.Cmd {
	ctx, cancel := context.WithCancel(p.ctx)
	p.run++
	p.stage, p.database, p.since, p.cancel, p.progress = analysing, db, time.Now(), cancel, advise.Progress{}
	run, src := p.run, p.src
	// Buffered and never blocking: the analysis does not wait for the
	// screen, which shows the latest collection it heard of.
	ch := make(chan advise.Progress, 64)
	var wait tea.Cmd
	wait = func() tea.Msg {
		pr, ok := <-ch
		if !ok {
			return nil
		}
		return progressMsg{run: run, p: pr, next: wait}
	}
	analyse := func() tea.Msg {
		defer close(ch)
		defer cancel()
		rep, err := advise.Run(ctx, src, advise.Options{Database: db, Progress: func(pr advise.Progress) {
			select {
			case ch <- pr:
			default:
			}
		}})
		return reportMsg{run: run, report: rep, err: err}
	}
	return tea.Batch(analyse, wait)
}

func (p *Page) finding() *advise.Finding {
	if p.report == nil || p.selected >= len(p.report.Findings) {
		return nil
	}
	return &p.report.Findings[p.selected]
}

// selectFinding moves the selection to finding i and scrolls the pane to
// show as much of it as fits, its heading first.
func (p *Page) selectFinding(i int) {
	if len(p.heads) == 0 {
		return
	}
	i = min(max(i, 0), len(p.heads)-1)
	if i != p.selected {
		p.selected = i
		p.layout()
	}
	end := len(p.pane.Rows()) - 1
	if i+1 < len(p.heads) {
		end = p.heads[i+1] - 1
	}
	p.pane.ShowRow(end)
	p.pane.ShowRow(p.heads[i])
}

// header is the page's top lines: title, server, and the run's state.
func (p *Page) header() []string {
	st := p.Styles
	lines := []string{
		st.Title.Render(p.T(msgTitle, nil)) + st.Muted.Render(" · "+p.T(msgServer, map[string]any{"Server": p.src.Server})),
	}
	for _, l := range strings.Split(ansi.Wordwrap(p.T(msgIntro, nil), max(p.Width, 1), ""), "\n") {
		lines = append(lines, st.Text.Render(l))
	}
	return append(lines, "")
}

func (p *Page) View() string {
	lines := p.header()
	st := p.Styles
	switch p.stage {
	case choosing:
		lines = append(lines, p.choices()...)
	case typing:
		p.input.SetWidth(max(p.Width-3, 1))
		lines = append(lines, st.Subtitle.Render(p.wrap(p.T(msgURI, nil))), p.input.View())
	case connecting:
		lines = append(lines, st.Accent.Render(p.T(msgConnecting, nil)+"…"))
	case analysing:
		lines = append(lines, st.Accent.Render(p.progressText()+"…"))
	case reporting:
		lines = append(lines, p.summary()...)
		lines = append(lines, p.pane.View())
	}
	return common.FitBlock(strings.Join(lines, "\n"), p.Width, p.Height)
}

func (p *Page) choices() []string {
	st := p.Styles
	var lines []string
	if p.dialErr != nil {
		lines = append(lines, st.Error.Render(p.wrap(p.T(msgDialFailed, map[string]any{"Err": p.dialErr.Error()}))), "")
	}
	switch {
	case p.listErr != nil:
		return append(lines, st.Error.Render(p.wrap(p.T(msgListFailed, map[string]any{"Err": p.listErr.Error()}))))
	case p.names == nil:
		return append(lines, st.Muted.Render(p.T(msgListing, nil)))
	case len(p.names) == 0:
		return append(lines, st.Muted.Render(p.wrap(p.T(msgNoDBs, nil))))
	}
	// The list scrolls with its cursor, under the header and the note.
	room := max(p.Height-len(p.header())-len(lines)-1, 1)
	lines = append(lines, st.Subtitle.Render(p.T(msgPick, nil)))
	first := max(p.cursor-room+1, 0)
	for i := first; i < len(p.names) && i < first+room; i++ {
		if i == p.cursor {
			lines = append(lines, st.Selected.Render("▸ "+p.names[i]))
		} else {
			lines = append(lines, "  "+st.Text.Render(p.names[i]))
		}
	}
	return lines
}

// summary is the report's lines above the pane: how many findings, and
// whether the run stopped early.
func (p *Page) summary() []string {
	st := p.Styles
	lines := []string{st.Subtitle.Render(p.N(msgFindings, len(p.report.Findings), map[string]any{"Database": p.report.Database}))}
	switch {
	case errors.Is(p.runErr, context.Canceled):
		lines = append(lines, st.Warning.Render(p.T(msgStopped, nil)))
	case p.runErr != nil:
		lines = append(lines, st.Error.Render(ansi.Truncate(p.T(msgFailed, map[string]any{"Err": p.runErr.Error()}), p.Width, "…")))
	}
	if p.L.Lang() != locale.Source {
		lines = append(lines, st.Muted.Render(ansi.Truncate(p.T(msgEnglish, nil), p.Width, "…")))
	}
	return lines
}

func (p *Page) wrap(s string) string { return ansi.Wordwrap(s, max(p.Width, 1), "") }

// layout lays the findings out as the pane's rows, at the page's width:
// each finding's heading, marked when selected, then its body as the
// text report writes it (figures, histogram, lesson), then the notes.
func (p *Page) layout() {
	st := p.Styles
	var rows []viewport.Row
	add := func(s string, style func(...string) string) {
		for _, l := range strings.Split(ansi.Wordwrap(s, max(p.Width-2, 1), ""), "\n") {
			rows = append(rows, viewport.Row{Text: style(l), Gutter: "  "})
		}
	}
	p.heads = p.heads[:0]
	if len(p.report.Findings) == 0 && p.runErr == nil {
		add(p.T(msgNone, nil), st.Muted.Render)
	}
	for i, f := range p.report.Findings {
		p.heads = append(p.heads, len(rows))
		head := ansi.Truncate(f.Heading(), max(p.Width-2, 1), "…")
		if i == p.selected {
			rows = append(rows, viewport.Row{Text: st.Selected.Render(head), Gutter: st.Selected.Render("▸ ")})
		} else {
			rows = append(rows, viewport.Row{Text: st.Subtitle.Render(head), Gutter: "  "})
		}
		add(strings.TrimRight(f.Body(), "\n"), st.Text.Render)
		rows = append(rows, viewport.Row{})
	}
	if len(p.report.Notes) > 0 {
		rows = append(rows, viewport.Row{Text: st.Subtitle.Render(p.T(msgNotes, nil))})
		for _, n := range p.report.Notes {
			add("- "+n, st.Muted.Render)
		}
	}
	p.pane.SetRows(rows)
	p.pane.SetSize(p.Width, max(p.Height-len(p.header())-len(p.summary()), 0))
}
