package lessons

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox/shell"
)

// A classroom runs each lesson once, as a Template, and every student's
// session starts from the template's states instead of running the code
// that leads to them: the database from the template's snapshot, as an
// O(1) copy-on-write clone, and the session's globals from a portable
// checkpoint (shell.Portable) taken with it. So the setup that generates
// the bucket lesson's 144,000 readings runs once for the room, not once
// per student, and thirty students share the readings until they write.
//
// What a student sees still comes from their own session: the step's
// run, compare and expect blocks, the exercises and the scratch shell run
// there, on their own database, so the keys and documents examined are
// their own scans. Only setup blocks, whose output is never shown, and
// the steps a jump skips are taken from the template.
//
// Why the states are the session's own (the state before each step and
// after each step's setup): they are the states a session restores for a
// jump, a re-run, an attempt and the scratch shell, so a seeded session
// takes exactly the paths an unseeded one takes, one source instead of
// another for the same state. The lessons' data is deterministic, so the
// template's state before step k is the state a learner's own run of
// steps 1..k-1 leaves (saveOnce relies on the same property).

// ErrNoSnapshots is BuildTemplate's answer on a server that cannot save
// database snapshots (a real MongoDB, `schemalab serve --strict`): there
// a template cannot be shared, and sessions replay as they do alone.
var ErrNoSnapshots = errors.New("the server cannot save database snapshots")

// Template is a lesson run once in a database of its own, with its states
// kept for sessions to start from. A Template is immutable and safe to
// share between the sessions of many students. While the lesson is being
// built, its builder publishes a Template after every step, holding the
// states built so far: a student who runs step 1 waits for the room's
// step 1, not for the whole lesson.
type Template struct {
	lesson *Lesson
	db     string
	states map[string]*templateState
	// problems say which states sessions cannot start from, and why.
	problems []string
	// complete says the build has ended: a state the template lacks, it
	// will never have.
	complete bool
	// goals are the exercises' goals by step (goal.go), computed once
	// for the room: the reference solution from the state before the
	// exercise, which is every student's.
	goals map[int]*templateGoal
}

// templateGoal is an exercise's goal as a template keeps it: want (nil
// when the solution writes nothing, or fails its check) and whether the
// solution passes.
type templateGoal struct {
	want   *goal
	solved bool
}

type templateState struct {
	globals *shell.Portable
	// setup holds the results of the step's setup blocks, for the state
	// after them: a seeded session reports them as its own, since it
	// takes their effect instead of running them.
	setup []BlockResult
	// blocked says why sessions cannot start from this state; "" if they
	// can.
	blocked string
}

// Seeds are what a session needs to start from a template: the template,
// and the copy of one of its snapshots into the session's database, made
// with a client that may read the template's database (a student's own
// client may not).
type Seeds struct {
	Template *Template
	// Restore makes database db a copy-on-write clone of the template's
	// snapshot name.
	Restore func(ctx context.Context, snapshot, db string) error
	// Run, if set, is the room's own run of step (OpRun, laid out for
	// widths) from the template's state before it: what every student who
	// runs the step's code on that state would see (sharedRun).
	Run func(ctx context.Context, step int, widths Widths) (*Result, error)
	// OwnStates has the session keep the states it reaches itself, where
	// a classroom's students move to the template's copy of each (save):
	// a learner alone shares memory with no one, and a template read
	// from the disk cache would read that copy from its file.
	OwnStates bool
}

// Lesson is the lesson the template ran.
func (t *Template) Lesson() *Lesson { return t.lesson }

// Database is where the template ran and its snapshots are kept.
func (t *Template) Database() string { return t.db }

// Problems lists the states sessions cannot start from, and why: they run
// the lesson's code from the nearest earlier state instead.
func (t *Template) Problems() []string { return t.problems }

// Complete reports whether the build has ended, so that t has every state
// it will ever have.
func (t *Template) Complete() bool { return t.complete }

// Has reports whether t has reached state name (a name the session gives
// Sandbox.Seeds), whether or not sessions may start from it.
func (t *Template) Has(name string) bool {
	if i, ok := goalStep(name); ok {
		return t.goals[i] != nil && t.goals[i].want != nil && t.goals[i].want.snapshot == name
	}
	return t.states[name] != nil
}

// SnapshotBefore names the template's snapshot of the state before step
// (0-based; len(steps) is the end of the lesson), if sessions can start
// from it.
func (t *Template) SnapshotBefore(step int) (string, bool) {
	name := StateBefore(step)
	ts := t.states[name]
	return name, ts != nil && ts.blocked == ""
}

// state is the template's state name, if sessions can start from it.
func (t *Template) state(name string) *templateState {
	if ts := t.states[name]; ts != nil && ts.blocked == "" {
		return ts
	}
	return nil
}

// BuildTemplate runs every step of l once on sb, in the database
// DatabaseName(sb.Prefix, l.ID), and keeps the state before each step
// and after each step's setup: the server's snapshots, which stay on the
// server, and portable checkpoints of the session's globals. A step
// whose code fails ends the template there (Problems says so); later
// states are then the sessions' to reach by running the code themselves.
// With opts.Goals it also runs each exercise's reference solution once,
// for the goal every student's attempts are compared with. It gives
// opts.Publish (if not nil) the template so far at the lesson's start and
// after each step. On a server without snapshots it returns
// ErrNoSnapshots.
func BuildTemplate(ctx context.Context, sb *Sandbox, l *Lesson, opts TemplateOptions) (*Template, error) {
	sess := NewSession(sb, l, opts.Session)
	st := sess.st
	publish := opts.Publish
	t := &Template{lesson: l, db: st.database(), states: map[string]*templateState{}, goals: map[int]*templateGoal{}}
	st.onSave = func(name string) {
		ts := &templateState{globals: st.sh.ExportGlobals(st.saved[StateBefore(0)])}
		if ts.blocked = t.blocked(name, ts); ts.blocked != "" {
			t.problems = append(t.problems, fmt.Sprintf("%s: %s", t.describe(name), ts.blocked))
		}
		t.states[name] = ts
		// The lesson's start is published at once: a session that runs
		// step 1 before the build has run it runs it itself, rather
		// than wait for the build's run and then the room's.
		if publish != nil && name == StateBefore(0) {
			publish(t.copy())
		}
	}
	// The session is not closed, since closing drops its snapshots, which
	// are the template; its shell is let go, and its client disconnected,
	// so that nothing but the snapshots and the portable checkpoints
	// outlives the build.
	defer func() {
		if st.client != nil {
			_ = st.client.Disconnect(context.WithoutCancel(ctx))
		}
		st.client, st.sh, st.saved = nil, nil, nil
	}()
	if err := st.reset(ctx); err != nil {
		return nil, fmt.Errorf("template of %s: %w", l.ID, err)
	}
	if st.snapshots != snapshotsOn {
		return nil, ErrNoSnapshots
	}
	for i := range l.Steps {
		done, err := sb.Turns.take(ctx)
		if err != nil {
			return nil, fmt.Errorf("template of %s: %w", l.ID, err)
		}
		res, err := sess.templateStep(ctx, i)
		if err == nil && res.codeOK() && opts.Goals && l.Steps[i].Exercise != nil {
			t.takeGoal(ctx, sess, i)
		}
		done()
		if err != nil {
			return nil, fmt.Errorf("template of %s: step %d: %w", l.ID, i+1, err)
		}
		for _, b := range res.blocks {
			if b.Block != nil && b.Block.Kind == Setup {
				if ts := t.states[StateSetup(i)]; ts != nil {
					ts.setup = append(ts.setup, b)
				}
			}
		}
		if !res.codeOK() {
			t.problems = append(t.problems, fmt.Sprintf("step %d %q failed (%s): runners run it and the steps after it themselves",
				i+1, l.Steps[i].Title, res.failures[0]))
			break
		}
		if publish != nil && i+1 < len(l.Steps) {
			publish(t.copy())
		}
	}
	t.complete = true
	return t, nil
}

// TemplateOptions are BuildTemplate's.
type TemplateOptions struct {
	// Session are the options of the session that runs the lesson.
	Session SessionOptions
	// Goals has the build compute the exercises' goals, for a room whose
	// students would each compute the same one; a learner alone computes
	// a goal only for an exercise they try.
	Goals bool
	// Publish, if set, gets the template so far at the lesson's start and
	// after each step.
	Publish func(*Template)
}

// takeGoal computes the goal of step i's exercise in the build's session,
// on the state the exercise starts from. A goal that could not be
// computed, or that only the session's own digests hold (a server whose
// snapshot failed), is left to each student's session.
func (t *Template) takeGoal(ctx context.Context, sess *Session, i int) {
	want, solved, err := sess.grade.computeGoal(ctx, i)
	if err != nil || want != nil && want.snapshot == "" && len(want.digests) > 0 {
		return
	}
	t.goals[i] = &templateGoal{want: want, solved: solved}
}

// goalFor is the goal of step i's exercise the session may take from its
// template, for an attempt that starts from the template's own state
// before it: the data a goal is compared with holds the template's
// ObjectIds, which a session's own run of the steps would not.
func (s *state) goalFor(ctx context.Context, i int) (*templateGoal, bool) {
	before := StateBefore(i + 1)
	if s.seedState(ctx, before) == nil || !s.shared[before] {
		return nil, false
	}
	tg := s.seeds.Template.goals[i]
	if tg == nil {
		return nil, false
	}
	if tg.want == nil {
		return tg, true
	}
	// Each session its own copy: compareLarge fills in digests.
	want := *tg.want
	want.digests = map[string]*digest{}
	want.restore = s.seeds.Restore
	return &templateGoal{want: &want, solved: tg.solved}, true
}

// States names the states sessions can start from, in no order: each is
// a snapshot of the template's database, by the same name.
func (t *Template) States() []string {
	var names []string
	for name, ts := range t.states {
		if ts.blocked == "" {
			names = append(names, name)
		}
	}
	return names
}

// Without is t where sessions cannot start from states, for the reason
// why: they run the lesson's code from the nearest earlier state instead.
func (t *Template) Without(states []string, why string) *Template {
	c := t.copy()
	for _, name := range states {
		if ts := c.states[name]; ts != nil && ts.blocked == "" {
			blocked := *ts
			blocked.blocked = why
			c.states[name] = &blocked
			c.problems = append(c.problems, fmt.Sprintf("%s: %s", t.describe(name), why))
		}
	}
	return c
}

// copy is t as it stands, for readers while the build goes on: the
// build adds states, and never changes one it has published.
func (t *Template) copy() *Template {
	c := *t
	c.states = maps.Clone(t.states)
	c.goals = maps.Clone(t.goals)
	c.problems = slices.Clone(t.problems)
	return &c
}

// blocked says why sessions cannot start from state name, or "": the
// session was on another database, or a global could not be carried and
// code still to come reads it. A global that could not be carried and
// that no later block reads is left out of the seeded session.
func (t *Template) blocked(name string, ts *templateState) string {
	if db := ts.globals.DB(); db != t.db {
		return "the session had switched to database " + db
	}
	if later := t.codeAfter(name); later != "" {
		for _, u := range ts.globals.Unportable() {
			if mentions(later, u.Name) {
				return fmt.Sprintf("the global %s cannot be carried (%s), and later code reads it", u.Name, u.Reason)
			}
		}
	}
	return ""
}

// describe names a state for people.
func (t *Template) describe(name string) string {
	if k, ok := beforeStep(name); ok {
		if k == len(t.lesson.Steps) {
			return "the end of the lesson"
		}
		return fmt.Sprintf("the state before step %d", k+1)
	}
	k, _ := setupStep(name)
	return fmt.Sprintf("the state after the setup of step %d", k+1)
}

// codeAfter is the code a session at state name may still run: every
// executable block of the steps after it, and of its own step but the
// setup when name is the state after a setup.
func (t *Template) codeAfter(name string) string {
	var b strings.Builder
	from, ownStep := 0, -1
	if k, ok := beforeStep(name); ok {
		from = k
	} else if k, ok := setupStep(name); ok {
		from, ownStep = k, k
	}
	for i := from; i < len(t.lesson.Steps); i++ {
		for _, bl := range t.lesson.Steps[i].Blocks {
			if bl.Kind == Prose || bl.Kind == ExerciseHint || (i == ownStep && bl.Kind == Setup) {
				continue
			}
			b.WriteString(bl.Text)
			b.WriteByte('\n')
			if bl.Variant != nil {
				b.WriteString(bl.Variant.Figures)
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// mentions reports whether code has name as a whole identifier.
func mentions(code, name string) bool {
	isIdent := func(c byte) bool {
		return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
	}
	for at := 0; ; {
		i := strings.Index(code[at:], name)
		if i < 0 {
			return false
		}
		i += at
		end := i + len(name)
		if (i == 0 || !isIdent(code[i-1])) && (end == len(code) || !isIdent(code[end])) {
			return true
		}
		at = i + 1
	}
}

// seedState is the template state name a session may start from, asking
// the sandbox for its seeds on first use, and again while the template
// it has is still being built and lacks name; nil when there is none.
func (s *state) seedState(ctx context.Context, name string) *templateState {
	if s.snapshots != snapshotsOn || s.sb.Seeds == nil {
		return nil
	}
	if !s.seedsAsked || s.seeds != nil && !s.seeds.Template.complete && !s.seeds.Template.Has(name) {
		first := !s.seedsAsked
		s.seedsAsked = true
		sd, err := s.sb.Seeds(ctx, s.lesson, name)
		switch {
		case err != nil && first:
			s.note("The prepared copy of this lesson could not be read (" + err.Error() + "): its code runs in your session instead.")
		case err != nil:
			// The states the session has of the template still hold;
			// the ones it lacks, it runs the code for.
		case sd != nil && sd.Template != nil && sd.Restore != nil && sameLesson(sd.Template.lesson, s.lesson):
			s.seeds = sd
		}
	}
	if s.seeds == nil {
		return nil
	}
	return s.seeds.Template.state(name)
}

// sameLesson reports whether a template of a may seed a session of b.
func sameLesson(a, b *Lesson) bool {
	return a == b || a.ID == b.ID && reflect.DeepEqual(a.Steps, b.Steps)
}

// seed brings the session to the template's state name, if the session
// may start from it, and keeps it as a saved state. ok is false when
// there is no such state; then nothing changed.
func (s *state) seed(ctx context.Context, name string) (ok bool, err error) {
	ts := s.seedState(ctx, name)
	if ts == nil {
		return false, nil
	}
	if changed, err := s.takeTemplate(ctx, name, ts); err != nil {
		if changed || ctx.Err() != nil {
			return false, err
		}
		s.note(err.Error() + ": this lesson's code runs in your session instead.")
		return false, nil
	}
	delete(s.saved, name)
	if err := s.save(ctx, name); err != nil {
		return false, err
	}
	return true, nil
}

// shareState moves the session from its own copy of state name, which
// a step just left, to the template's, when the state is the template's:
// the same data (the lessons' is deterministic), shared by every student
// instead of held once per student. The step's outputs came from the
// student's own scans; what the session holds from here on is what a
// jump back to this state would give. It matters where a step builds a
// large collection in a visible block: thirty students' buckets built
// from the readings would otherwise stay in memory thirty times (about
// 15 MB each), until each of them left the lesson.
//
// What differs between the two copies is what is not deterministic:
// ObjectIds the step made (in the database and in the globals alike,
// which stay consistent with each other, since the globals come from the
// template too).
func (s *state) shareState(ctx context.Context, name string) error {
	if !s.shared[name] || s.live.state == name {
		return nil
	}
	return s.restoreShared(ctx, name)
}

// restoreShared brings the session back to a saved state that is the
// template's.
func (s *state) restoreShared(ctx context.Context, name string) error {
	ts := s.seedState(ctx, name)
	if ts == nil {
		return fmt.Errorf("%s: the prepared copy of %s is gone", s.lesson.ID, name)
	}
	_, err := s.takeTemplate(ctx, name, ts)
	return err
}

// takeTemplate copies the template's state name into the session: its
// snapshot into the database, its globals into the shell. changed says
// whether the session changed before an error: a failed copy leaves the
// database as it was (it is one command), a failed import does not. On
// either, the session stops using the template and forgets the states it
// held of it, so that later operations run the lesson's code instead.
func (s *state) takeTemplate(ctx context.Context, name string, ts *templateState) (changed bool, err error) {
	if err := s.seeds.Restore(ctx, name, s.database()); err != nil {
		s.dropSeeds()
		return false, fmt.Errorf("the prepared copy of this lesson could not be used (%w)", err)
	}
	if err := s.sh.ImportGlobals(s.saved[StateBefore(0)], ts.globals); err != nil {
		s.dropSeeds()
		s.live = liveState{step: -1}
		return true, fmt.Errorf("%s: take the globals of %s from the prepared copy: %w", s.lesson.ID, name, err)
	}
	s.live = liveState{state: name, step: stepOfState(name)}
	return false, nil
}

func (s *state) dropSeeds() {
	s.seeds = nil
	for name := range s.shared {
		delete(s.saved, name)
	}
	s.shared = map[string]bool{}
}

// seedSetup takes step i's setup from the template: the state after it,
// and its blocks' results.
func (s *state) seedSetup(ctx context.Context, i int) ([]BlockResult, bool, error) {
	name := StateSetup(i)
	ok, err := s.seed(ctx, name)
	if !ok || err != nil {
		return nil, ok, err
	}
	st := &s.lesson.Steps[i]
	var out []BlockResult
	for _, br := range s.seeds.Template.states[name].setup {
		// The template's results point at its own lesson's blocks.
		for bi := range st.Blocks {
			if st.Blocks[bi].Line == br.Block.Line {
				br.Block = &st.Blocks[bi]
			}
		}
		out = append(out, br)
	}
	return out, true, nil
}

// A room's students run the same steps, with the same code, on the same
// template states: a step that builds 144,000 readings would run thirty
// times over, and the room's processors would make each student wait for
// everyone's run. So a seeded session standing at the template's state
// before a step, asked to run the step's own code, takes the room's run
// of it (Seeds.Run: made once for every layout the students ask for) and
// the template's state after it, instead of running it. The run is real:
// the same code on the same data, its keys and documents examined from
// its own scans; its timings are that run's, and the note on screen
// says whose. What a learner edits, attempts or types in the scratch
// shell still runs in their own session, on their own data.
//
// Steps whose outputs the state alone does not decide are run by each
// session: concurrent writers racing (Promise.all) and random numbers.

var msgSharedRunFailed = &locale.Message{ID: "seed.sharedRunFailed", Other: "the room's run of this step failed ({{.Err}}): it ran in your session instead"}

var msgSharedRun = &locale.Message{ID: "seed.sharedRun", Other: "run once for the whole room, same code on the same data: its outputs and timings are that run's"}

// SharesRun reports whether sessions may take the room's run of step i:
// the template has the states before and after it, and the step's output
// depends on nothing but the state it starts from.
func (t *Template) SharesRun(i int) bool {
	if t.state(StateBefore(i)) == nil || t.state(StateBefore(i+1)) == nil {
		return false
	}
	for _, b := range t.lesson.Steps[i].Blocks {
		if (b.Kind == Run || b.Kind == Compare) && (strings.Contains(b.Text, "Promise.") || strings.Contains(b.Text, "Math.random")) {
			return false
		}
	}
	return true
}

// sharedRun gives res the room's run of step i (OpRun, for widths w),
// when the session stands at the state before the step (a saved state:
// one the lesson's own code leads to, the template's or the same as
// it), and brings the session to the template's state after it. ok is false when
// the step is the session's to run: then nothing changed.
func (s *Session) sharedRun(ctx context.Context, i int, w Widths, res *Result) (ok bool, err error) {
	st := s.st
	before := StateBefore(i)
	if st.seedState(ctx, before) == nil || st.seeds.Run == nil || st.live.state != before {
		return false, nil
	}
	// The session's copy of the template may predate the build's run of
	// the step: asking for the state after it waits for the build to
	// get there, as the room's run would. Running the step alone instead
	// would repeat, for every student who came early, the work the room
	// does once (a room of sixty built the bucket lesson's readings
	// thirteen more times).
	st.seedState(ctx, StateBefore(i+1))
	if st.seeds == nil || !st.seeds.Template.SharesRun(i) {
		return false, nil
	}
	shared, err := st.seeds.Run(ctx, i, w)
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		// The session runs the step itself, as it would alone, and says
		// why it took longer than the room's run would have.
		st.note(st.say(msgSharedRunFailed, map[string]any{"Err": err.Error()}))
		return false, nil
	}
	if !shared.OK() {
		// The room's run of this step failed (on a loaded machine, a
		// time limit): the student sees that failure, and their own
		// database stays at the state before the step, ready for a
		// retry, rather than adding one more run of it to the load.
		res.Blocks, res.Failures = shared.Blocks, shared.Failures
		st.note(st.say(msgSharedRun, nil))
		return true, nil
	}
	if ok, err := st.seed(ctx, StateBefore(i+1)); !ok || err != nil {
		return false, err
	}
	st.live = liveState{state: StateBefore(i + 1), step: i}
	res.Blocks, res.Failures, res.Pictures = shared.Blocks, shared.Failures, shared.Pictures
	st.note(st.say(msgSharedRun, nil))
	return true, nil
}
