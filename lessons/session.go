package lessons

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/schemalab/schemalab/lessons/locale"
)

// SessionOptions configure a Session.
type SessionOptions struct {
	// Timeout bounds one block's evaluation; 0 means 60 s.
	Timeout time.Duration
	// Progress, if set, receives the progress lines of long operations,
	// such as replaying steps on a server that has no snapshots, as they
	// happen; a Result carries them too.
	Progress func(line string)
	// Locale is the learner's language for verdicts, failures and notes;
	// nil is English.
	Locale *locale.Localizer
}

// Session is one learner's session of one lesson, end to end: its
// database state (state.go, snapshots.go, seed.go), the grading of its
// expectations and exercises (check.go, exercise.go, goal.go) and the
// presentation of what ran (statements.go, variants.go, pictures.go,
// tree.go). It connects on first use.
//
// A session runs one operation at a time. Start claims it for one
// Request and hands back the operation to run, in any goroutine; Cancel
// stops that operation, and Close ends the session. Close may be called
// at any moment from any goroutine: before an operation starts, while
// it runs, or after it returned and before its result was looked at. It
// always frees what the session holds on the server, its snapshots and
// its client's connections; an operation in flight is cancelled and
// frees them as it ends.
type Session struct {
	lesson *Lesson
	st     *state
	grade  *grader
	show   *presenter

	mu     sync.Mutex
	phase  phase
	closed bool
	cancel context.CancelFunc
	// freed is closed once the session holds nothing on the server.
	freed chan struct{}
}

// phase is where a session is in its one operation.
type phase int

const (
	idle    phase = iota
	claimed       // Start handed out an operation that has not begun
	running
)

var (
	// ErrBusy is Start's answer while another operation has the session.
	ErrBusy = errors.New("lessons: the session is running another operation")
	// ErrClosed is the answer of a session that was closed.
	ErrClosed = errors.New("lessons: the session is closed")
)

// NewSession prepares a session of lesson l on sb.
func NewSession(sb *Sandbox, l *Lesson, opts SessionOptions) *Session {
	if opts.Timeout <= 0 {
		opts.Timeout = 60 * time.Second
	}
	if opts.Locale == nil {
		opts.Locale = locale.English()
	}
	st := newState(sb, l, opts)
	s := &Session{lesson: l, st: st, freed: make(chan struct{})}
	s.grade = &grader{st: st, goals: map[int]*goal{}, solved: map[int]bool{}}
	s.show = &presenter{st: st}
	st.replay = s.replay
	return s
}

// Lesson is the session's lesson.
func (s *Session) Lesson() *Lesson { return s.lesson }

// Database is the lesson's database name, <prefix><id>.
func (s *Session) Database() string { return s.st.database() }

// Start claims the session for req. The operation runs when run is
// called, in any goroutine, once; its context is ctx until Cancel or
// Close. While an operation is claimed or running, Start answers
// ErrBusy; after Close, ErrClosed. run's result is never nil: an
// operation that failed still says what it was and what it noted.
func (s *Session) Start(ctx context.Context, req Request) (run func() (*Result, error), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return nil, ErrClosed
	case s.phase != idle:
		return nil, ErrBusy
	}
	opCtx, cancel := context.WithCancel(ctx)
	s.phase, s.cancel = claimed, cancel
	var once sync.Once
	return func() (res *Result, err error) {
		res, err = &Result{Op: req.Op, Step: req.Step, Code: req.Code}, ErrClosed
		once.Do(func() { res, err = s.run(opCtx, req) })
		return res, err
	}, nil
}

// Do runs req now: Start and its operation in one call. Its result is
// nil only when the session could not be claimed.
func (s *Session) Do(ctx context.Context, req Request) (*Result, error) {
	run, err := s.Start(ctx, req)
	if err != nil {
		return nil, err
	}
	return run()
}

// run performs a claimed operation and, when the session was closed
// meanwhile, frees it.
func (s *Session) run(ctx context.Context, req Request) (*Result, error) {
	s.mu.Lock()
	if s.closed {
		// Close freed the session while the operation waited to begin.
		s.mu.Unlock()
		return &Result{Op: req.Op, Step: req.Step, Code: req.Code}, ErrClosed
	}
	s.phase = running
	s.mu.Unlock()

	res, err := s.perform(ctx, req)

	s.mu.Lock()
	s.phase = idle
	s.cancel()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		_ = s.st.free()
		close(s.freed)
	}
	return res, err
}

// Cancel stops the operation that has the session, if any, and reports
// whether there was one.
func (s *Session) Cancel() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.phase == idle {
		return false
	}
	s.cancel()
	return true
}

// Close ends the session: it drops the session's snapshots and
// disconnects its client, now, or, when an operation is running, by
// cancelling it and letting it free them as it ends, which Close waits
// for (at most closeWait). The lesson
// database stays as the session left it. Close is safe to call more than
// once and from any goroutine.
func (s *Session) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		s.waitFreed()
		return nil
	}
	s.closed = true
	if s.phase == running {
		s.cancel()
		s.mu.Unlock()
		s.waitFreed()
		return nil
	}
	if s.phase == claimed {
		// Its run finds the session closed and touches nothing.
		s.phase = idle
		s.cancel()
	}
	s.mu.Unlock()
	err := s.st.free()
	close(s.freed)
	return err
}

// closeWait bounds how long Close waits for a cancelled operation to
// end: the shell and the driver stop at a cancel within milliseconds, so
// only a server that stopped answering makes Close give up waiting (the
// operation still frees the session when it ends).
const closeWait = closeTimeout + 5*time.Second

func (s *Session) waitFreed() {
	t := time.NewTimer(closeWait)
	defer t.Stop()
	select {
	case <-s.freed:
	case <-t.C:
	}
}

// perform does one operation inside its turn on a shared server.
func (s *Session) perform(ctx context.Context, req Request) (*Result, error) {
	start := time.Now()
	st := s.st
	st.notes = nil
	res := &Result{Op: req.Op, Step: req.Step, Code: req.Code}
	defer func() {
		res.Notes, res.Elapsed = st.notes, time.Since(start)
	}()
	if req.Op != OpReset && (req.Step < 0 || req.Step >= len(s.lesson.Steps)) {
		return res, errors.New(st.say(msgNoStep, map[string]any{"Lesson": s.lesson.ID, "N": req.Step + 1}))
	}
	if req.Op == OpAttempt || req.Op == OpResetExercise {
		if _, err := s.grade.exercise(req.Step); err != nil {
			return res, err
		}
	}
	if req.Op == OpRun {
		if shared, err := s.runSharedOutsideTurns(ctx, req, res); shared || err != nil {
			return res, err
		}
	}
	done, err := st.sb.Turns.take(ctx)
	if err != nil {
		return res, err
	}
	defer done()
	if req.Op == OpReset {
		return res, st.reset(ctx)
	}
	if err := st.ensureSession(ctx); err != nil {
		return res, err
	}
	switch req.Op {
	case OpRun, OpCheck:
		return res, s.runFromBefore(ctx, req, res)
	case OpJump:
		return res, st.ensureBefore(ctx, req.Step)
	case OpAttempt:
		return res, s.grade.tryExercise(ctx, req.Step, req.Code, res)
	case OpEdit:
		return res, s.edit(ctx, req, res)
	case OpEval:
		return res, s.eval(ctx, req, res)
	case OpStages:
		return res, s.previewStage(ctx, req, res)
	case OpResetExercise:
		res.Starter, err = s.grade.resetExercise(ctx, req.Step)
		return res, err
	}
	return res, errors.New("lessons: unknown operation")
}

// runSharedOutsideTurns takes the room's run of step req.Step (sharedRun)
// without one of the room's turns, when the session can stand at the
// state before the step by taking the template's copy of it: then no
// code of the session's own runs. A turn bounds the work done on the
// server at once; a session waiting for the room's run does none, and
// in a room of sixty the students waiting for one slow shared step held
// every turn, so that the others, whose steps were ready, queued behind
// them for minutes. ok is false when the step is the session's to run.
func (s *Session) runSharedOutsideTurns(ctx context.Context, req Request, res *Result) (ok bool, err error) {
	st := s.st
	if st.sb.Seeds == nil {
		return false, nil
	}
	if err := st.ensureSession(ctx); err != nil {
		return false, err
	}
	before := StateBefore(req.Step)
	if st.live.state != before {
		if st.seedState(ctx, before) == nil {
			return false, nil
		}
		if ok, err := st.seed(ctx, before); !ok || err != nil {
			return false, err
		}
	}
	return s.sharedRun(ctx, req.Step, req.Widths, res)
}

// runFromBefore runs step i from the state its earlier steps leave,
// restored from a snapshot when there is one.
func (s *Session) runFromBefore(ctx context.Context, req Request, res *Result) error {
	i := req.Step
	if err := s.st.ensureBefore(ctx, i); err != nil {
		return err
	}
	mode := modeShow
	if req.Op == OpCheck {
		mode = modeCheck
	} else if shared, err := s.sharedRun(ctx, i, req.Widths, res); shared || err != nil {
		return err
	}
	run := s.runStep(ctx, i, mode, req.Widths)
	res.Blocks, res.Failures = run.blocks, run.failures
	if mode == modeCheck && s.lesson.Steps[i].Exercise != nil && run.codeOK() {
		res.Blocks, res.Failures = s.grade.guardExercise(ctx, i, res.Blocks, res.Failures)
	}
	if mode == modeShow && ctx.Err() == nil {
		res.Pictures = s.show.pictures(ctx, run)
	}
	return ctx.Err()
}

// edit runs a learner's edit of step i's code from the state the step's
// own code starts from (after its setup).
func (s *Session) edit(ctx context.Context, req Request, res *Result) error {
	if err := s.st.ensureSetup(ctx, req.Step); err != nil {
		res.Statements = statements(req.Code, nil, err)
		return err
	}
	s.st.live = liveState{step: req.Step}
	out, err := s.st.eval(ctx, req.Widths.Output, req.Code)
	res.Statements = statements(req.Code, &out, err)
	return err
}

// eval runs scratch-shell input on the lesson's state at step i.
func (s *Session) eval(ctx context.Context, req Request, res *Result) error {
	st, i := s.st, req.Step
	if st.live.step != i {
		target := i
		if st.saved[StateBefore(i+1)] != nil || s.lesson.Steps[i].Exercise != nil {
			target = i + 1
		}
		if err := st.ensureBefore(ctx, target); err != nil {
			res.Statements = statements(req.Code, nil, err)
			return err
		}
	}
	st.live = liveState{step: i}
	out, err := st.eval(ctx, req.Widths.Output, req.Code)
	res.Statements = statements(req.Code, &out, err)
	return err
}

var msgNoStep = &locale.Message{ID: "run.noStep", Other: "lesson {{.Lesson}} has no step {{.N}}"}
