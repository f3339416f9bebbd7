package classroom

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/schemalab/schemalab/lessons"
	room "github.com/schemalab/schemalab/lessons/classroom"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui"
	"github.com/schemalab/schemalab/tui/common"
	"github.com/schemalab/schemalab/tui/keymap"
	"github.com/schemalab/schemalab/tui/styles"
)

// instructorModel is the instructor's program: the dashboard, and the
// course in present mode (p) whose every step shown is announced to the
// room, so that students can follow it with one key.
//
// Present mode runs inside the classroom, in this same program, rather
// than as a separate `schemalab --present` connecting to it: the
// classroom already knows the instructor (their login), the catalog and
// the room, so "follow me" needs no second protocol, no second set of
// credentials and nothing that can get out of step.
type instructorModel struct {
	s      *Server
	ctx    context.Context
	name   string
	remote bool
	dash   *dashboard

	store    *lessons.Store
	storeErr error
	course   *tui.Model
	clients  *clients
	status   string
}

var msgInstructorProgress = &locale.Message{ID: "classroom.instructorProgress", Other: "Your progress cannot be opened: {{.Err}}"}

// presentDoneMsg replaces the course's quit: leaving present mode returns
// to the dashboard.
type presentDoneMsg struct{}

func (s *Server) newInstructor(ctx context.Context, name, dir string, remote bool) *instructorModel {
	c := common.Common{Styles: styles.New(true, s.cfg.NoColor), KeyMap: keymap.Default(s.loc), L: s.loc}
	im := &instructorModel{s: s, ctx: ctx, name: name, remote: remote,
		dash: &dashboard{Common: c, room: s.cfg.Room, login: s.LoginHint(),
			auth: s.cfg.Auth.Describe(s.loc), open: s.cfg.Auth.Open, now: time.Now, usage: s.studentUsage}}
	im.store, im.storeErr = lessons.OpenStore(dir)
	return im
}

func (im *instructorModel) Init() tea.Cmd {
	if im.s.cfg.NoColor {
		return im.dash.Init()
	}
	return tea.Batch(im.dash.Init(), tea.RequestBackgroundColor)
}

// toDash hands msg to the dashboard.
func (im *instructorModel) toDash(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := im.dash.Update(msg)
	return im, cmd
}

func (im *instructorModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case presentDoneMsg:
		im.stopPresenting()
		return im, nil
	case tea.WindowSizeMsg:
		im.dash.SetSize(msg.Width, msg.Height)
		if im.course != nil {
			_, cmd := im.course.Update(msg)
			return im, cmd
		}
		return im, nil
	case tickMsg, roomChangedMsg:
		return im.toDash(msg)
	case tea.KeyPressMsg:
		if im.course == nil {
			im.status = ""
			if key.Matches(msg, im.dash.KeyMap.Present) && !im.dash.confirmStop {
				return im, im.present()
			}
			return im.toDash(msg)
		}
	case tea.BackgroundColorMsg:
		if im.course == nil {
			return im.toDash(msg)
		}
	}
	if im.course != nil {
		_, cmd := im.course.Update(msg)
		return im, cmd
	}
	return im.toDash(msg)
}

// present opens the instructor's own course in present mode, at the
// announced step if there is one, or where they left off.
func (im *instructorModel) present() tea.Cmd {
	if im.storeErr != nil {
		im.status = im.s.loc.T(msgInstructorProgress, map[string]any{"Err": im.storeErr.Error()})
	}
	opts := tui.Options{
		Catalog:       im.s.cfg.Catalog,
		Localizer:     im.s.loc,
		Store:         im.store,
		NoColor:       im.s.cfg.NoColor,
		Present:       true,
		Warnings:      im.s.cfg.Warnings,
		ScriptTimeout: im.s.cfg.ScriptTimeout,
		Remote:        im.remote,
		OnActivity:    im.announce,
	}
	if a := im.s.cfg.Room.Announcement(); !a.IsZero() {
		opts.Lesson, opts.Step = a.Lesson, a.Step+1
	} else if im.store != nil {
		opts.Lesson = lastLesson(im.s.cfg.Catalog, im.store)
	}
	im.clients = &clients{}
	opts.Connect = im.clients.connect(im.s.sandbox, im.name+"_")
	im.course = tui.New(im.ctx, opts)
	_, cmd := im.course.Update(tea.WindowSizeMsg{Width: im.dash.Width, Height: im.dash.Height})
	return tea.Batch(cmd, im.course.Init())
}

// announce makes every step the instructor shows the room's announcement.
func (im *instructorModel) announce(a tui.Activity) {
	if a.Kind != tui.ActivityMoved {
		return
	}
	if l := im.s.cfg.Catalog.Find(a.Lesson); l != nil && a.Step >= 0 && a.Step < len(l.Steps) {
		im.s.cfg.Room.Announce(position(l, a.Step))
	}
}

func (im *instructorModel) stopPresenting() {
	im.course = nil
	if im.clients != nil {
		go im.clients.close()
		im.clients = nil
	}
}

func (im *instructorModel) View() tea.View {
	if im.course != nil {
		return im.course.View()
	}
	content := im.dash.View()
	if im.status != "" {
		content += "\n" + im.dash.Styles.Warning.Render(im.status)
	}
	v := tea.NewView(content)
	v.AltScreen = true
	v.WindowTitle = "schemalab classroom"
	return v
}

// filter turns the course's quit into a return to the dashboard, and a
// remote suspend (ctrl+z) into nothing, as wish's MakeOptions would.
func (im *instructorModel) filter(m tea.Model, msg tea.Msg) tea.Msg {
	switch msg.(type) {
	case tea.QuitMsg:
		if cur, ok := m.(*instructorModel); ok && cur.course != nil {
			return presentDoneMsg{}
		}
	case tea.SuspendMsg:
		if im.remote {
			return tea.ResumeMsg{}
		}
	}
	return msg
}

// watch redraws the dashboard whenever the room changes, until done.
func (im *instructorModel) watch(p *tea.Program, done <-chan struct{}) {
	changes, stop := im.s.cfg.Room.Subscribe()
	defer stop()
	for {
		select {
		case <-done:
			return
		case <-changes:
			p.Send(roomChangedMsg{})
		}
	}
}

func (im *instructorModel) close() {
	if im.clients != nil {
		im.clients.close()
	}
}

// RunDashboard shows the dashboard on the classroom's own terminal until
// the instructor stops the classroom or ctx ends.
func (s *Server) RunDashboard(ctx context.Context) error {
	// The instructor at this terminal keeps their own progress, apart
	// from every login's.
	im := s.newInstructor(ctx, s.instructor, filepath.Join(s.cfg.StateDir, "instructor"), false)
	im.dash.local = true
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithFilter(im.filter)}
	if s.cfg.NoColor {
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	p := tea.NewProgram(im, opts...)
	done := make(chan struct{})
	go im.watch(p, done)
	_, err := p.Run()
	close(done)
	im.close()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	if err != nil {
		return fmt.Errorf("dashboard: %w", err)
	}
	return nil
}

// sandbox is Config.Sandbox with the room's templates and turns, for the
// instructor's present mode, which runs in this process.
func (s *Server) sandbox(ctx context.Context, prefix string) (*lessons.Sandbox, error) {
	sb, err := s.cfg.Sandbox(ctx, prefix)
	if err != nil {
		return nil, err
	}
	if s.cfg.Seeds != nil {
		sb.Seeds = s.cfg.Seeds
	}
	sb.Turns = s.turns
	return sb, nil
}

func position(l *lessons.Lesson, step int) room.Position {
	return room.Position{Lesson: l.ID, LessonTitle: l.Title, Step: step, Steps: len(l.Steps), StepTitle: l.Steps[step].Title}
}

// clients are the sandbox clients present mode opened. The course
// connects after its first frame; a session that ends before the
// connection is made must still close it, which the course cannot do
// once it has quit.
type clients struct {
	mu        sync.Mutex
	closed    bool
	sandboxes []*lessons.Sandbox
}

var errSessionEnded = errors.New("the session ended")

func (c *clients) connect(open func(context.Context, string) (*lessons.Sandbox, error), prefix string) func(context.Context) (*lessons.Sandbox, error) {
	return func(ctx context.Context) (*lessons.Sandbox, error) {
		sb, err := open(ctx, prefix)
		if err != nil {
			return nil, err
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.closed {
			closeSandbox(sb)
			return nil, errSessionEnded
		}
		c.sandboxes = append(c.sandboxes, sb)
		return sb, nil
	}
}

func closeSandbox(sb *lessons.Sandbox) {
	if sb.Close != nil {
		_ = sb.Close()
	}
}

func (c *clients) close() {
	c.mu.Lock()
	c.closed = true
	sbs := c.sandboxes
	c.sandboxes = nil
	c.mu.Unlock()
	for _, sb := range sbs {
		closeSandbox(sb)
	}
}
