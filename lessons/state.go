package lessons

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox/shell"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// state is what a session holds on the server and in its shell: its own
// driver client, one mongosh session, the lesson's database
// <prefix><id>, and the states it saved (snapshots.go) or took from a
// shared template (seed.go).
//
// After each step it saves a snapshot of the database (the embedded
// server's schemalabSnapshot command) together with a checkpoint of the
// session's global bindings, so that re-running a step, jumping to one,
// the scratch shell and every exercise attempt start from a known state
// by restoring, never by replaying. On a server without snapshots (a real
// MongoDB) it replays the earlier steps instead, and says so.
//
// Why the JavaScript state is restored from a checkpoint of the global
// scope rather than rebuilt by re-evaluating earlier steps: lesson code
// keeps its state in top-level declarations and assignments (the shell
// turns const and let into var, so they are all globals), and putting
// back the name → value table taken after a step restores exactly those,
// in microseconds, including a helper a learner overwrote or a variable
// an attempt reassigned. Re-evaluating the earlier steps would cost what
// replaying costs (seconds where a step generates 200,000 documents) and
// would re-run code with side effects; replaying only their declarations
// would need the statements that fill them too. What a checkpoint does
// not undo is a change made inside an object that a global still points
// to (push onto an array from an earlier step); the authoring guide asks
// lessons to reassign instead.
//
// In a classroom the state also comes from a template of the lesson that
// the room built once (Sandbox.Seeds; seed.go): where it would run the
// steps before a state or a step's setup, it copies the template's
// snapshot into its database and the template's globals into its
// session instead, and it keeps no snapshot of its own of a state the
// template has. What the learner runs still runs in their session.
//
// A state is used by one operation at a time (Session sees to that).
type state struct {
	sb     *Sandbox
	lesson *Lesson
	opts   SessionOptions

	client *mongo.Client
	rec    *recorder
	sh     *shell.Shell

	snapshots snapshotSupport
	// saved maps the name of every saved state to the checkpoint of the
	// session's globals taken with it; on the embedded server the
	// database snapshot of the same name exists too.
	saved map[string]*shell.Globals
	// shared marks the saved states that are the shared template's: on
	// the server only the template's snapshot of them exists.
	shared map[string]bool
	live   liveState
	notes  []string

	// seeds are the shared template this state takes states from
	// (Sandbox.Seeds), asked for once; nil when there is none.
	seeds      *Seeds
	seedsAsked bool
	// replay runs step i on the state before it, saving the states after
	// it, for ensureBefore: the session's step runner (steps.go).
	replay func(ctx context.Context, i int) error
	// onSave, if set, is called after every state is saved: how
	// BuildTemplate takes its portable checkpoints.
	onSave func(state string)
}

// liveState is what the session holds now: a saved state, or (state "")
// whatever an attempt, an edit or the scratch shell left at step.
type liveState struct {
	state string
	step  int
}

func newState(sb *Sandbox, l *Lesson, opts SessionOptions) *state {
	return &state{sb: sb, lesson: l, opts: opts, live: liveState{step: -1}}
}

// say is message m in the learner's language.
func (s *state) say(m *locale.Message, data map[string]any) string { return s.opts.Locale.T(m, data) }

// database is the lesson's database name, <prefix><id>.
func (s *state) database() string { return DatabaseName(s.sb.Prefix, s.lesson.ID) }

// DatabaseName names the database of lesson id.
func DatabaseName(prefix, id string) string {
	if prefix == "" {
		prefix = vocab.DefaultPrefix
	}
	return prefix + id
}

// connect opens the session's client once.
func (s *state) connect(ctx context.Context) error {
	if s.client != nil {
		return nil
	}
	if s.sb == nil || s.sb.Connect == nil {
		return errors.New("lessons: the session has no sandbox to connect to")
	}
	rec := &recorder{}
	client, err := s.sb.Connect(ctx, rec.monitor())
	if err != nil {
		return err
	}
	s.client, s.rec = client, rec
	return nil
}

// closeTimeout bounds what freeing a session may take: dropping its
// snapshots and disconnecting.
const closeTimeout = 5 * time.Second

// free drops the session's snapshots and disconnects its client. The
// lesson database stays as the session left it.
func (s *state) free() error {
	if s.client == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	s.dropSnapshots(ctx)
	err := s.client.Disconnect(ctx)
	s.client, s.sh = nil, nil
	return err
}

// reset empties the lesson database, forgets every snapshot and starts a
// fresh shell session: the state before the first step.
func (s *state) reset(ctx context.Context) error {
	if err := s.connect(ctx); err != nil {
		return err
	}
	s.dropSnapshots(ctx)
	reset := s.sb.ResetDB
	if reset == nil {
		reset = func(ctx context.Context, db string) error { return dropDatabase(ctx, s.client, db) }
	}
	if err := reset(ctx, s.database()); err != nil {
		return err
	}
	sh, err := shell.New(s.client, s.database(), shell.Options{Timeout: s.opts.Timeout, HeapLimit: s.sb.HeapLimit, HeapShare: s.sb.HeapShare.shell()})
	if err != nil {
		return err
	}
	s.sh, s.saved, s.shared = sh, map[string]*shell.Globals{}, map[string]bool{}
	if err := s.save(ctx, StateBefore(0)); err != nil {
		return err
	}
	s.live = liveState{state: StateBefore(0), step: 0}
	return nil
}

func dropDatabase(ctx context.Context, client *mongo.Client, name string) error {
	if err := client.Database(name).Drop(ctx); err != nil {
		return fmt.Errorf("reset database %s: %w", name, err)
	}
	return nil
}

// ensureSession starts the session if none is running.
func (s *state) ensureSession(ctx context.Context) error {
	if s.sh != nil {
		return nil
	}
	return s.reset(ctx)
}

// note records a progress line for the current operation.
func (s *state) note(line string) {
	s.notes = append(s.notes, line)
	if s.opts.Progress != nil {
		s.opts.Progress(line)
	}
}

// eval evaluates src with results laid out width columns wide (0 is
// mongosh's 80), then puts the session back at mongosh's width.
func (s *state) eval(ctx context.Context, width int, src string) (shell.Result, error) {
	s.sh.SetWidth(width)
	defer s.sh.SetWidth(0)
	return s.sh.Eval(ctx, src)
}
