package classroom

import (
	"context"
	"errors"
	"slices"
	"sync"

	tea "charm.land/bubbletea/v2"

	"github.com/schemalab/schemalab/lessons"
	room "github.com/schemalab/schemalab/lessons/classroom"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui"
)

// student is one student's session: their own TUI, progress store and
// sandbox client, reporting to the room and following its announcements.
type student struct {
	s       *Server
	name    string
	store   *lessons.Store
	model   *tui.Model
	clients clients
}

func (s *Server) newStudent(ctx context.Context, ls *liveSession) (*student, error) {
	l := locale.For(ls.lang)
	store, err := lessons.OpenStore(ls.dir)
	if err != nil {
		return nil, errors.New(l.T(msgProgressError, map[string]any{"Err": err.Error()}))
	}
	warnings := slices.Clone(s.cfg.Warnings)
	if w := store.Warning(l); w != "" {
		warnings = append(warnings, w)
	}
	st := &student{s: s, name: ls.name, store: store}
	st.model = tui.New(ctx, tui.Options{
		Catalog:       s.cfg.Catalog.In(ls.lang),
		Localizer:     l,
		Store:         store,
		Connect:       st.clients.connect(s.sandbox, ls.name+"_"),
		NoColor:       s.cfg.NoColor,
		Lesson:        lastLesson(s.cfg.Catalog, store),
		Warnings:      warnings,
		ScriptTimeout: s.cfg.ScriptTimeout,
		Remote:        true,
		OnActivity:    st.activity,
	})
	s.cfg.Room.Join(ls.name, ls.identity)
	return st, nil
}

// sandbox is Config.Sandbox with the room's templates and turns.
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

func (st *student) close() {
	st.clients.close()
	st.s.cfg.Room.Leave(st.name)
}

// activity tells the room what the student did.
func (st *student) activity(a tui.Activity) {
	l := st.s.cfg.Catalog.Find(a.Lesson)
	if l == nil || a.Step < 0 || a.Step >= len(l.Steps) {
		return
	}
	if a.Kind == tui.ActivityMoved && st.s.cfg.Prepare != nil {
		st.s.cfg.Prepare(l)
	}
	ex := exercises(l, st.store)
	switch a.Kind {
	case tui.ActivityMoved, tui.ActivityRan:
		st.s.cfg.Room.Moved(st.name, position(l, a.Step), ex)
	case tui.ActivityAttempt:
		st.s.cfg.Room.Moved(st.name, position(l, a.Step), ex)
		st.s.cfg.Room.Attempted(st.name, a.Passed, ex)
	}
}

// forward sends the room's announcements to the student's program until
// the session is done. Only the latest counts, so a burst of them costs
// one message.
func (st *student) forward(p *tea.Program, done <-chan struct{}) {
	changes, stop := st.s.cfg.Room.Subscribe()
	defer stop()
	var last room.Announcement
	for {
		if a := st.s.cfg.Room.Announcement(); a != last {
			last = a
			msg := tui.AnnouncementMsg{}
			if !a.IsZero() {
				msg = tui.AnnouncementMsg{Lesson: a.Lesson, Step: a.Step + 1}
			}
			p.Send(msg)
		}
		select {
		case <-done:
			return
		case <-changes:
		}
	}
}

func position(l *lessons.Lesson, step int) room.Position {
	return room.Position{Lesson: l.ID, LessonTitle: l.Title, Step: step, Steps: len(l.Steps), StepTitle: l.Steps[step].Title}
}

// exercises counts the exercises of l the store has as passed and tried.
func exercises(l *lessons.Lesson, store *lessons.Store) room.Exercises {
	p := store.Lesson(l.ID)
	sum := lessons.Summarize(l, p)
	ex := room.Exercises{Passed: sum.ExercisesDone, Total: sum.Exercises}
	for _, st := range l.Steps {
		if st.Exercise != nil && p.Exercise(st.ID).Attempts > 0 {
			ex.Attempted++
		}
	}
	return ex
}

// lastLesson is the lesson the store's learner touched last, or "": a
// student who comes back resumes there.
func lastLesson(cat *lessons.Catalog, store *lessons.Store) string {
	id, latest := "", int64(0)
	for _, l := range cat.Lessons {
		if u := store.Lesson(l.ID).Updated.UnixNano(); u > latest {
			id, latest = l.ID, u
		}
	}
	return id
}

// clients are the sandbox clients a session opened. The TUI connects
// after its first frame; a session that ends before the connection is
// made must still close it, which the TUI cannot do once it has quit.
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
