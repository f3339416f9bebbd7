package classroom

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"golang.org/x/sys/unix"

	"github.com/schemalab/schemalab/lessons"
	room "github.com/schemalab/schemalab/lessons/classroom"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui"
)

// Exit codes of a student's process that the room reads as a reason.
const (
	// exitCPU: the process used its processor time (RLIMIT_CPU's soft
	// limit sent SIGXCPU).
	exitCPU = 70
	// exitNoRoom: the control channel failed before the session began.
	exitNoRoom = 71
)

// Attach opens the room's sandbox for a student's process, as spec says:
// the server at spec.URI, confined to spec.Prefix.
type Attach func(ctx context.Context, spec StudentSpec) (*lessons.Sandbox, error)

// RunStudent is a student's process: the course on this process's
// terminal (its standard input and output, the SSH session's pty), for
// the student the room names in its first message on ctl. It reports
// what the student does to the room, takes the room's lesson templates
// and turns, and shows its announcements. cat is the course, as the room
// has it. It returns when the student quits or the room stops the
// session; the error is for the process's exit status.
func RunStudent(ctx context.Context, ctl io.ReadWriter, cat *lessons.Catalog, attach Attach) error {
	c := &controlConn{rw: ctl, maxRead: maxRoomMessage}
	first, err := c.receive()
	if err != nil || first.Type != msgSpec || first.Spec == nil {
		return fmt.Errorf("no word from the classroom: %v", err)
	}
	spec := *first.Spec
	limitSelf(spec)
	for _, kv := range spec.Env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			os.Setenv(k, v)
		}
	}
	l := locale.For(spec.Lang)
	store, err := lessons.OpenStore(spec.Dir)
	if err != nil {
		return errors.New(l.T(msgProgressError, map[string]any{"Err": err.Error()}))
	}
	warnings := slices.Clone(spec.Warnings)
	if w := store.Warning(l); w != "" {
		warnings = append(warnings, w)
	}
	cat = cat.In(spec.Lang)
	st := &studentProcess{ctl: c, cat: cat, store: store, waiting: map[uint64]chan message{}}
	model := tui.New(ctx, tui.Options{
		Catalog:   cat,
		Localizer: l,
		Store:     store,
		Connect: func(ctx context.Context) (*lessons.Sandbox, error) {
			sb, err := attach(ctx, spec)
			if err != nil {
				return nil, err
			}
			if spec.Seeded {
				sb.Seeds = st.seeds
			}
			sb.Turns = lessons.TurnsFrom(st.turn)
			return sb, nil
		},
		NoColor:       spec.NoColor,
		Lesson:        lastLesson(cat, store),
		Warnings:      warnings,
		ScriptTimeout: spec.ScriptTimeout,
		Remote:        true,
		OnActivity:    st.activity,
	})
	defer model.Close()
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithoutSignalHandler(),
		// A remote ctrl+z would stop this process, and with it the
		// student's session, with no one at this machine to resume it.
		tea.WithFilter(func(_ tea.Model, msg tea.Msg) tea.Msg {
			if _, ok := msg.(tea.SuspendMsg); ok {
				return tea.ResumeMsg{}
			}
			return msg
		})}
	if spec.NoColor {
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	p := tea.NewProgram(model, opts...)
	go st.listen(p)
	_, err = p.Run()
	if errors.Is(err, tea.ErrProgramKilled) {
		err = nil
	}
	return err
}

// limitSelf applies the limits the room asked for that only the process
// itself can set: the collector's soft memory limit, below the hard one
// the room set on it, so that it collects harder before it reaches it;
// the most threads and the deepest goroutine stack; and an orderly exit
// when the processor time runs out.
func limitSelf(spec StudentSpec) {
	if spec.MemoryLimit > 0 {
		debug.SetMemoryLimit(spec.MemoryLimit)
	}
	if spec.MaxThreads > 0 {
		debug.SetMaxThreads(spec.MaxThreads)
	}
	if spec.MaxStack > 0 {
		debug.SetMaxStack(spec.MaxStack)
	}
	// One student's session needs few processors, and each one the
	// runtime keeps costs memory and threads.
	runtime.GOMAXPROCS(min(runtime.GOMAXPROCS(0), 2))
	xcpu := make(chan os.Signal, 1)
	signal.Notify(xcpu, unix.SIGXCPU)
	go func() {
		<-xcpu
		os.Exit(exitCPU)
	}()
}

// studentProcess is the student's side of the control channel.
type studentProcess struct {
	ctl   *controlConn
	cat   *lessons.Catalog
	store *lessons.Store
	next  atomic.Uint64

	mu      sync.Mutex
	waiting map[uint64]chan message
	gone    bool
}

// listen handles the room's messages until the channel ends, which ends
// the session too: without the room there is no server either.
func (st *studentProcess) listen(p *tea.Program) {
	defer func() {
		st.mu.Lock()
		st.gone = true
		for id, ch := range st.waiting {
			close(ch)
			delete(st.waiting, id)
		}
		st.mu.Unlock()
		p.Quit()
	}()
	for {
		m, err := st.ctl.receive()
		if err != nil {
			return
		}
		switch m.Type {
		case msgReply:
			st.mu.Lock()
			ch := st.waiting[m.ID]
			delete(st.waiting, m.ID)
			st.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		case msgAnnounce:
			p.Send(tui.AnnouncementMsg{Lesson: m.Lesson, Step: m.Step})
		case msgStop:
			return
		}
	}
}

var errRoomGone = errors.New("the classroom ended the session")

// ask sends a request and waits for its reply, or for ctx.
func (st *studentProcess) ask(ctx context.Context, m message) (message, error) {
	m.ID = st.next.Add(1)
	ch := make(chan message, 1)
	st.mu.Lock()
	if st.gone {
		st.mu.Unlock()
		return message{}, errRoomGone
	}
	st.waiting[m.ID] = ch
	st.mu.Unlock()
	if err := st.ctl.send(m); err != nil {
		return message{}, err
	}
	select {
	case reply, ok := <-ch:
		if !ok {
			return message{}, errRoomGone
		}
		if reply.Err != "" {
			return reply, errors.New(reply.Err)
		}
		return reply, nil
	case <-ctx.Done():
		st.mu.Lock()
		delete(st.waiting, m.ID)
		st.mu.Unlock()
		return message{}, ctx.Err()
	}
}

// seeds is lessons.Sandbox.Seeds: the room's template of l, once it has
// state, and copies of its states made by the room, which may read the
// template's database.
func (st *studentProcess) seeds(ctx context.Context, l *lessons.Lesson, state string) (*lessons.Seeds, error) {
	reply, err := st.ask(ctx, message{Type: msgSeeds, Lesson: l.ID, Snapshot: state})
	if err != nil || reply.Template == nil {
		return nil, err
	}
	tpl, err := lessons.UnmarshalTemplate(l, reply.Template)
	if err != nil {
		return nil, err
	}
	return &lessons.Seeds{Template: tpl, Restore: func(ctx context.Context, snapshot, db string) error {
		_, err := st.ask(ctx, message{Type: msgRestore, Lesson: l.ID, Snapshot: snapshot, DB: db})
		return err
	}, Run: func(ctx context.Context, step int, w lessons.Widths) (*lessons.Result, error) {
		reply, err := st.ask(ctx, message{Type: msgRun, Lesson: l.ID, Step: step, Widths: &w})
		if err != nil {
			return nil, err
		}
		return lessons.UnmarshalResult(l, step, reply.Result)
	}}, nil
}

// turn waits for one of the room's turns.
func (st *studentProcess) turn(ctx context.Context) (func(), error) {
	reply, err := st.ask(ctx, message{Type: msgTurn})
	if err != nil {
		return nil, err
	}
	var once sync.Once
	return func() {
		once.Do(func() { _ = st.ctl.send(message{Type: msgTurnDone, ID: reply.ID}) })
	}, nil
}

// activity tells the room what the student did.
func (st *studentProcess) activity(a tui.Activity) {
	l := st.cat.Find(a.Lesson)
	if l == nil {
		return
	}
	kind := activityMoved
	switch a.Kind {
	case tui.ActivityRan:
		kind = activityRan
	case tui.ActivityAttempt:
		kind = activityAttempt
	}
	ex := exercises(l, st.store)
	_ = st.ctl.send(message{Type: msgActivity, Kind: kind, Lesson: a.Lesson, Step: a.Step, Passed: a.Passed, Exercises: &ex})
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

// StudentMain is the main function of a student's process, which the
// room starts for each session (Config.Student) with the control channel
// as its file descriptor 3 and the session's pty as its terminal. It
// returns the process's exit status.
func StudentMain(ctx context.Context, cat *lessons.Catalog, attach Attach, stderr io.Writer) int {
	f := os.NewFile(3, "control")
	if f == nil {
		fmt.Fprintln(stderr, errNotStarted)
		return exitNoRoom
	}
	fc, err := net.FileConn(f)
	f.Close()
	conn, ok := fc.(*net.UnixConn)
	if err != nil || !ok {
		fmt.Fprintln(stderr, errNotStarted)
		return exitNoRoom
	}
	defer conn.Close()
	// Started ahead of its student: it waits here, course loaded, for the
	// session's terminal.
	if err := receiveTerminal(conn); err != nil {
		fmt.Fprintln(stderr, "schemalab classroom-student:", err)
		return exitNoRoom
	}
	if err := RunStudent(ctx, conn, cat, attach); err != nil {
		fmt.Fprintln(stderr, "schemalab classroom-student:", err)
		return 1
	}
	return 0
}

var errNotStarted = errors.New("schemalab classroom-student runs one student's session; `schemalab classroom` starts it, with the session's terminal and a channel to the room")
