package classroom

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"charm.land/ssh"

	"github.com/schemalab/schemalab/lessons"
	room "github.com/schemalab/schemalab/lessons/classroom"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/termsafe"
)

// Limits bound each student's process. The room sets the hard ones on
// the process from outside (prlimit), so that the student's process
// cannot raise them; the process sets the rest on itself at its start
// (StudentSpec).
type Limits struct {
	// Memory is the most memory the process may map for its data
	// (RLIMIT_DATA: its heap, goroutine stacks and every private
	// writable mapping). Go's runtime reserves address space it never
	// uses, so an address-space limit (RLIMIT_AS) would stop it long
	// before it used that much; RLIMIT_DATA counts what it commits. The
	// process collects harder from GOMEMLIMIT, memorySoftShare of it, on.
	// The room also watches the process's resident memory and stops it
	// above Memory, for what RLIMIT_DATA does not count.
	Memory int64
	// CPU is the processor time the process may use in all
	// (RLIMIT_CPU), a backstop: one block's time is the shell's timeout.
	CPU time.Duration
	// Files is the most open files (RLIMIT_NOFILE).
	Files int
	// Threads is the most threads (debug.SetMaxThreads). The process
	// runs no other programs; RLIMIT_NPROC would count every process of
	// the user the classroom runs as, not this one's, so threads are
	// bounded by Go's runtime instead.
	Threads int
	// Stack is the deepest one goroutine's stack may grow
	// (debug.SetMaxStack).
	Stack int
}

// DefaultLimits are the limits of a student's process unless the
// instructor chooses others (schemalab classroom's --student-* flags).
var DefaultLimits = Limits{Memory: 1 << 30, CPU: time.Hour, Files: 256, Threads: 128, Stack: 128 << 20}

// memorySoftShare is GOMEMLIMIT's share of Limits.Memory, in percent.
const memorySoftShare = 75

// rssCheckEvery is how often the room looks at a student's resident
// memory.
const rssCheckEvery = time.Second

// stopCause says why a student's process ended, for the student.
type stopCause struct {
	// limit names the limit it went past ("" when none did); what is the
	// reason otherwise (a signal, an exit status).
	limit string
	what  string
}

var (
	msgStoppedLimit  = &locale.Message{ID: "classroom.stoppedLimit", Other: "your session was stopped: it used more than {{.Limit}}. Your progress is saved; log in again to go on where you were."}
	msgStoppedCrash  = &locale.Message{ID: "classroom.stoppedCrash", Other: "your session stopped unexpectedly ({{.What}}). Your progress is saved; log in again to go on where you were."}
	msgLimitMemory   = &locale.Message{ID: "classroom.limitMemory", Other: "{{.Size}} of memory"}
	msgLimitCPU      = &locale.Message{ID: "classroom.limitCPU", Other: "{{.Time}} of processor time"}
	msgLimitThreads  = &locale.Message{ID: "classroom.limitThreads", Other: "{{.Count}} threads"}
	msgLimitStack    = &locale.Message{ID: "classroom.limitStack", Other: "{{.Size}} of stack (code nested too deeply)"}
	msgLimitFiles    = &locale.Message{ID: "classroom.limitFiles", Other: "{{.Count}} open files"}
	msgStudentFailed = &locale.Message{ID: "classroom.studentFailed", Other: "your session could not start: {{.Err}}"}
)

// describe says why the process stopped, in the student's language.
func (c stopCause) describe(l *locale.Localizer, lim Limits) string {
	var limit string
	switch c.limit {
	case "":
		return l.T(msgStoppedCrash, map[string]any{"What": c.what})
	case "memory":
		limit = l.T(msgLimitMemory, map[string]any{"Size": sizeText(lim.Memory)})
	case "cpu":
		limit = l.T(msgLimitCPU, map[string]any{"Time": lim.CPU.String()})
	case "threads":
		limit = l.T(msgLimitThreads, map[string]any{"Count": lim.Threads})
	case "stack":
		limit = l.T(msgLimitStack, map[string]any{"Size": sizeText(int64(lim.Stack))})
	case "files":
		limit = l.T(msgLimitFiles, map[string]any{"Count": lim.Files})
	}
	return l.T(msgStoppedLimit, map[string]any{"Limit": limit})
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

// crashSigns are what Go's runtime writes when it gives up, by limit.
var crashSigns = []struct {
	re    *regexp.Regexp
	limit string
}{
	{regexp.MustCompile(`out of memory|cannot allocate memory`), "memory"},
	{regexp.MustCompile(`stack overflow|stack exceeds`), "stack"},
	{regexp.MustCompile(`thread exhaustion|-thread limit`), "threads"},
	{regexp.MustCompile(`too many open files`), "files"},
}

// classify reads why a student's process ended: state is its exit,
// stderr the start of what it wrote there, killedFor the limit the room
// stopped it for ("" if it did not).
func classify(state *os.ProcessState, stderr []byte, killedFor string, lim Limits) stopCause {
	if killedFor != "" {
		return stopCause{limit: killedFor}
	}
	ws, _ := state.Sys().(syscall.WaitStatus)
	if ws.Exited() && ws.ExitStatus() == exitCPU {
		return stopCause{limit: "cpu"}
	}
	if ws.Signaled() && (ws.Signal() == syscall.SIGXCPU || ws.Signal() == syscall.SIGKILL && lim.CPU > 0 &&
		state.UserTime()+state.SystemTime() >= lim.CPU) {
		return stopCause{limit: "cpu"}
	}
	for _, s := range crashSigns {
		if s.re.Match(stderr) {
			return stopCause{limit: s.limit}
		}
	}
	if ws.Signaled() {
		return stopCause{what: ws.Signal().String()}
	}
	return stopCause{what: state.String()}
}

// studentProc is a running student's process as the room holds it.
type studentProc struct {
	s     *Server
	ls    *liveSession
	child *child
	ctl   *controlConn
	l     *locale.Localizer
	// prefix is the student's database prefix: their lesson databases,
	// the only ones the room restores into, are prefix+lesson.
	prefix string
	// user and password are the login the room made for the process on
	// its server ("" without Config.Logins).
	user, password string

	// ctx ends when the process does.
	ctx context.Context
	// turnSlot holds the one turn the process may have of the room's.
	turnSlot chan struct{}

	mu        sync.Mutex
	killedFor string
	turns     map[uint64]func()
	requests  int
	rate      rateWindow
}

// maxOpenRequests bounds the template and turn requests one student's
// process may have open with the room at once; its sessions make one at
// a time each.
const maxOpenRequests = 8

// maxActivityPerSecond bounds the reports the room takes from one
// student's process; the rest of a burst is dropped.
const maxActivityPerSecond = 20

type rateWindow struct {
	start time.Time
	n     int
}

func (r *rateWindow) allow(now time.Time, most int) bool {
	if now.Sub(r.start) >= time.Second {
		r.start, r.n = now, 0
	}
	r.n++
	return r.n <= most
}

// hangupGrace is how long a student's process has to end once its
// terminal hung up before the room kills it.
const hangupGrace = 5 * time.Second

// runStudent runs the student's process on the session's pty until it
// ends, and tells the student why if it was not their own doing.
func (s *Server) runStudent(sess ssh.Session, ls *liveSession, l *locale.Localizer) {
	pty, _, ok := sess.Pty()
	if !ok || pty.Slave == nil {
		s.refuse(sess, l.T(msgStudentFailed, map[string]any{"Err": "no terminal"}))
		return
	}
	var user, password string
	if lg := s.cfg.Logins; lg != nil {
		user, password = ls.name, newPassword()
		if err := lg.Add(user, password, ls.name+"_", s.cfg.Quotas); err != nil {
			s.refuse(sess, l.T(msgStudentFailed, map[string]any{"Err": err.Error()}))
			return
		}
		defer lg.Remove(user)
	}
	c, err := s.warm.take()
	if err == nil {
		if err = c.handTerminal(pty.Slave); err != nil {
			c.kill()
		}
	}
	if err != nil {
		s.refuse(sess, l.T(msgStudentFailed, map[string]any{"Err": err.Error()}))
		return
	}
	defer c.conn.Close()
	pid := c.cmd.Process.Pid
	p := &studentProc{s: s, ls: ls, child: c, l: l, prefix: ls.name + "_", user: user, password: password,
		turns: map[uint64]func(){}, turnSlot: make(chan struct{}, 1), ctl: &controlConn{rw: c.conn, maxRead: maxChildMessage, deadline: c.conn.SetWriteDeadline}}
	s.log.Printf("%s: process %d started", ls.name, pid)
	var stopRequests context.CancelFunc
	p.ctx, stopRequests = context.WithCancel(context.Background())
	p.start(studentEnv(pty.Term, sess.Environ()))
	go p.watchMemory()
	go p.listen()
	go p.forward()
	// When the connection drops, the terminal the process draws on is
	// not hung up while this handler, which owns it, waits for the
	// process: hang it up as a terminal would, so that the student
	// leaves instead of staying online with nobody there.
	go func() {
		select {
		case <-sess.Context().Done():
			_ = c.cmd.Process.Signal(syscall.SIGHUP)
		case <-c.exited:
			return
		}
		// The process runs niced: on a machine busy with other work it
		// may get no processor time to act on the hangup for a long
		// while, its connections to the sandbox still open. Its student
		// has gone, so past a grace period it is killed, which takes
		// none of its own time.
		select {
		case <-time.After(hangupGrace):
			_ = c.cmd.Process.Kill()
		case <-c.exited:
		}
	}()
	if !ls.setProcess(p) {
		go p.stop(stopReplaced)
	}
	<-c.exited
	stopRequests()
	p.releaseTurns()
	s.cfg.Room.Leave(ls.name)
	p.mu.Lock()
	killedFor := p.killedFor
	p.mu.Unlock()
	state := c.cmd.ProcessState
	ws, _ := state.Sys().(syscall.WaitStatus)
	if replaced, ended := ls.why(); replaced || ended || ws.Exited() && ws.ExitStatus() == 0 && killedFor == "" {
		return
	}
	if killedFor == "" && hungUp(sess, ws) {
		// The student's connection went first (the terminal hung up):
		// a student leaving, not a crash.
		s.log.Printf("%s left (their connection closed; their process ended: %s)", ls.name, state)
		return
	}
	cause := classify(state, c.stderr.Bytes(), killedFor, s.cfg.Limits)
	s.log.Printf("%s: the student's process stopped: %s %s (%s)", ls.name, cause.limit, cause.what, firstLines(c.stderr.Bytes(), 3))
	ls.setCrash(cause.describe(l, s.cfg.Limits))
}

// hungUp reports whether a process that ended on its own ended because
// the student's connection closed: its terminal hung up on it (SIGHUP),
// or it found its terminal gone, as the session's end shows within a
// moment.
func hungUp(sess ssh.Session, ws syscall.WaitStatus) bool {
	if ws.Signaled() && ws.Signal() == syscall.SIGHUP {
		return true
	}
	select {
	case <-sess.Context().Done():
		return true
	case <-time.After(300 * time.Millisecond):
		return false
	}
}

// start tells the student's process who it serves and joins the room.
func (p *studentProc) start(env []string) {
	s, ls := p.s, p.ls
	lim := s.cfg.Limits
	label := s.cfg.Label
	if label == "" {
		label = lessons.EmbeddedLabel(p.l)
	}
	spec := StudentSpec{Name: ls.name, Prefix: p.prefix, Dir: ls.dir, Lang: ls.lang, NoColor: s.cfg.NoColor,
		URI: s.cfg.ServerURI, User: p.user, Password: p.password, Label: label, Embedded: s.cfg.Label == "",
		ScriptTimeout: s.cfg.ScriptTimeout, ScriptHeap: s.cfg.Quotas.ScriptHeap,
		MemoryLimit: lim.Memory / 100 * memorySoftShare, MaxThreads: lim.Threads, MaxStack: lim.Stack,
		Warnings: s.cfg.Warnings, Seeded: s.cfg.Seeds != nil, Env: env}
	if err := p.ctl.send(message{Type: msgSpec, Spec: &spec}); err != nil {
		p.kill("")
	}
	s.cfg.Room.Join(ls.name, ls.identity)
}

// kill stops the student's process; limit says which limit it went past
// ("" for none).
func (p *studentProc) kill(limit string) {
	p.mu.Lock()
	if p.killedFor == "" {
		p.killedFor = limit
	}
	p.mu.Unlock()
	_ = p.child.cmd.Process.Kill()
}

// stop asks the student's process to end (the room is closing, or the
// student logged in elsewhere), and kills it if it does not.
func (p *studentProc) stop(reason string) {
	_ = p.ctl.send(message{Type: msgStop, Reason: reason})
	select {
	case <-p.child.exited:
	case <-time.After(3 * time.Second):
		_ = p.child.cmd.Process.Kill()
	}
}

// watchMemory stops the process when its resident memory passes the
// limit: RLIMIT_DATA bounds what it maps for data, this the rest.
func (p *studentProc) watchMemory() {
	limit := p.s.cfg.Limits.Memory
	if limit <= 0 {
		return
	}
	tick := time.NewTicker(rssCheckEvery)
	defer tick.Stop()
	for {
		select {
		case <-p.child.exited:
			return
		case <-tick.C:
			if rss := residentBytes(p.child.cmd.Process.Pid); rss > limit {
				p.kill("memory")
				return
			}
		}
	}
}

// forward sends the room's announcements to the student's process until
// it exits. Only the latest counts, so a burst of them costs one message.
func (p *studentProc) forward() {
	r := p.s.cfg.Room
	changes, stop := r.Subscribe()
	defer stop()
	var last room.Announcement
	for {
		if a := r.Announcement(); a != last {
			last = a
			m := message{Type: msgAnnounce}
			if !a.IsZero() {
				m.Lesson, m.Step = a.Lesson, a.Step+1
			}
			if err := p.ctl.send(m); err != nil {
				return
			}
		}
		select {
		case <-p.child.exited:
			return
		case <-changes:
		}
	}
}

// listen takes the student's process's messages until the channel ends.
// A message the room cannot take (too large, not JSON, of no known type)
// ends the student's process: no process of ours sends one.
func (p *studentProc) listen() {
	for {
		m, err := p.ctl.receive()
		if err != nil {
			if !errors.Is(err, io.EOF) && !errors.Is(err, net.ErrClosed) && !errors.Is(err, syscall.ECONNRESET) {
				p.s.log.Printf("%s: the student's process sent what the room does not take (%v); stopping it", p.ls.name, err)
				p.kill("")
			}
			return
		}
		switch m.Type {
		case msgActivity:
			p.activity(m)
		case msgSeeds, msgRestore, msgTurn, msgRun:
			if !p.open() {
				_ = p.ctl.send(message{Type: msgReply, ID: m.ID, Err: "too many requests at once"})
				continue
			}
			go p.serve(m)
		case msgTurnDone:
			p.mu.Lock()
			done := p.turns[m.ID]
			delete(p.turns, m.ID)
			p.mu.Unlock()
			if done != nil {
				done()
			}
		default:
			p.s.log.Printf("%s: the student's process sent a message of unknown type %q; stopping it", p.ls.name, termsafe.Line(m.Type))
			p.kill("")
			return
		}
	}
}

// open counts a request in, if the process may open another.
func (p *studentProc) open() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.requests >= maxOpenRequests {
		return false
	}
	p.requests++
	return true
}

func (p *studentProc) closeRequest() {
	p.mu.Lock()
	p.requests--
	p.mu.Unlock()
}

// serve answers a request for a template, a restore or a turn.
func (p *studentProc) serve(m message) {
	defer p.closeRequest()
	// A request outlives neither the process nor ten minutes.
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Minute)
	defer cancel()
	reply := message{Type: msgReply, ID: m.ID}
	var err error
	switch m.Type {
	case msgSeeds:
		reply.Template, err = p.template(ctx, m.Lesson, m.Snapshot)
	case msgRestore:
		err = p.restore(ctx, m)
	case msgRun:
		if reply.Result, err = p.sharedRun(ctx, m); err != nil && ctx.Err() == nil {
			// The student runs the step alone, and the room does that
			// work once more: the instructor's log says why.
			p.s.log.Printf("%s: the room's run of %s step %d: %v", p.ls.name, termsafe.Line(m.Lesson), m.Step+1, err)
		}
	case msgTurn:
		// One turn at a time per student's process (its sessions run one
		// operation at a time), so that no process can hold the room's
		// turns all at once.
		select {
		case p.turnSlot <- struct{}{}:
		case <-ctx.Done():
			err = ctx.Err()
		}
		var done func()
		if err == nil {
			var roomDone func()
			if roomDone, err = p.s.turns.Take(ctx); err != nil {
				<-p.turnSlot
			} else {
				var once sync.Once
				done = func() { once.Do(func() { roomDone(); <-p.turnSlot }) }
			}
		}
		if err == nil {
			p.mu.Lock()
			if old := p.turns[m.ID]; old != nil {
				old()
			}
			p.turns[m.ID] = done
			p.mu.Unlock()
		}
	}
	if err != nil {
		reply.Err = err.Error()
	}
	_ = p.ctl.send(reply)
}

// template is lesson id's template as bytes, once it has state (or as
// far as its build got), nil when the room has none to share.
func (p *studentProc) template(ctx context.Context, id, state string) ([]byte, error) {
	l := p.s.cfg.Catalog.In(p.ls.lang).Find(id)
	if l == nil || p.s.cfg.Seeds == nil {
		return nil, nil
	}
	if !snapshotName.MatchString(state) {
		return nil, fmt.Errorf("no state %q in a template", termsafe.Line(state))
	}
	seeds, err := p.s.cfg.Seeds(ctx, l, state)
	if seeds == nil || err != nil {
		return nil, err
	}
	return p.s.encodedTemplate(seeds.Template)
}

// restore copies a template's state into one of the student's own lesson
// databases, and into no other.
func (p *studentProc) restore(ctx context.Context, m message) error {
	l := p.s.cfg.Catalog.Find(m.Lesson)
	if l == nil || p.s.cfg.Seeds == nil {
		return fmt.Errorf("no lesson %q to restore", termsafe.Line(m.Lesson))
	}
	if dbs := lessons.ScratchDatabases(p.prefix + l.ID); !slices.Contains(dbs, m.DB) {
		return fmt.Errorf("the room restores lesson %s into %s only", l.ID, strings.Join(dbs, ", "))
	}
	if !snapshotName.MatchString(m.Snapshot) {
		return fmt.Errorf("no state %q in a template", termsafe.Line(m.Snapshot))
	}
	seeds, err := p.s.cfg.Seeds(ctx, p.s.cfg.Catalog.In(p.ls.lang).Find(l.ID), m.Snapshot)
	if err != nil || seeds == nil {
		return fmt.Errorf("no template of %s: %v", l.ID, err)
	}
	return seeds.Restore(ctx, m.Snapshot, m.DB)
}

// maxRunWidth bounds the widths a student may ask the room's run to lay
// its outputs out for: no terminal is wider.
const maxRunWidth = 1000

// sharedRun is the room's run of a step of the student's lesson, for the
// student's layout, as bytes.
func (p *studentProc) sharedRun(ctx context.Context, m message) ([]byte, error) {
	l := p.s.cfg.Catalog.In(p.ls.lang).Find(m.Lesson)
	if l == nil || p.s.cfg.Seeds == nil || m.Widths == nil {
		return nil, fmt.Errorf("no lesson %q to run", termsafe.Line(m.Lesson))
	}
	w := *m.Widths
	if m.Step < 0 || m.Step >= len(l.Steps) || w.Output < 0 || w.Variant < 0 || w.Output > maxRunWidth || w.Variant > maxRunWidth {
		return nil, fmt.Errorf("no step %d of %s to run at widths %d and %d", m.Step+1, l.ID, w.Output, w.Variant)
	}
	// The run needs the states before and after the step.
	seeds, err := p.s.cfg.Seeds(ctx, l, lessons.StateBefore(m.Step+1))
	if err != nil || seeds == nil || seeds.Run == nil {
		return nil, fmt.Errorf("no template of %s: %v", l.ID, err)
	}
	res, err := seeds.Run(ctx, m.Step, w)
	if err != nil {
		return nil, err
	}
	return res.MarshalBinary()
}

// snapshotName is a template state's name: before step k, after the
// setup of step k, or what the reference solution of step k's exercise
// leaves.
var snapshotName = regexp.MustCompile(`^[spg][0-9]{1,4}$`)

// activity records what the student did, as far as the room can check
// it: a lesson of the course, a step of it, and counts of its exercises.
func (p *studentProc) activity(m message) {
	p.mu.Lock()
	ok := p.rate.allow(time.Now(), maxActivityPerSecond)
	p.mu.Unlock()
	if !ok {
		return
	}
	s := p.s
	l := s.cfg.Catalog.In(p.ls.lang).Find(m.Lesson)
	if l == nil || m.Step < 0 || m.Step >= len(l.Steps) {
		return
	}
	if m.Kind == activityMoved && s.cfg.Prepare != nil {
		s.cfg.Prepare(l)
	}
	var ex room.Exercises
	if m.Exercises != nil {
		total := 0
		for _, st := range l.Steps {
			if st.Exercise != nil {
				total++
			}
		}
		clamp := func(n int) int { return min(max(n, 0), total) }
		ex = room.Exercises{Passed: clamp(m.Exercises.Passed), Attempted: clamp(m.Exercises.Attempted), Total: total}
	}
	switch m.Kind {
	case activityMoved, activityRan:
		s.cfg.Room.Moved(p.ls.name, position(l, m.Step), ex)
	case activityAttempt:
		s.cfg.Room.Moved(p.ls.name, position(l, m.Step), ex)
		s.cfg.Room.Attempted(p.ls.name, m.Passed, ex)
	}
}

// releaseTurns gives back the turns a process held when it ended.
func (p *studentProc) releaseTurns() {
	p.mu.Lock()
	turns := p.turns
	p.turns = map[uint64]func(){}
	p.mu.Unlock()
	for _, done := range turns {
		done()
	}
}

// studentEnv is the environment of a student's process: the terminal's
// type and colour support from the session, checked, and nothing else
// the client sent (GODEBUG or LD_PRELOAD from a client would be the
// student's to set).
func studentEnv(term string, environ []string) []string {
	env := []string{"TERM=" + cleanTerm(term)}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case k == "COLORTERM" && (v == "truecolor" || v == "24bit"):
			env = append(env, kv)
		case k == "NO_COLOR" && v != "":
			env = append(env, "NO_COLOR=1")
		}
	}
	return env
}

var termName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$`)

func cleanTerm(term string) string {
	if termName.MatchString(term) {
		return term
	}
	return "xterm-256color"
}

// boundedBuffer keeps the first max bytes written to it and drops the
// rest: a crashing Go program's stderr can be long.
type boundedBuffer struct {
	max int
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (b *boundedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// firstLines is the first n non-empty lines of out, on one line, for the
// log.
func firstLines(out []byte, n int) string {
	var kept []string
	for line := range strings.Lines(string(out)) {
		if line = strings.TrimSpace(line); line != "" {
			kept = append(kept, termsafe.Line(line))
			if len(kept) == n {
				break
			}
		}
	}
	return strings.Join(kept, " | ")
}

// newPassword is a random password for one session's login.
func newPassword() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// withDefaults fills the zero fields from DefaultLimits.
func (lim Limits) withDefaults() Limits {
	d := DefaultLimits
	if lim.Memory == 0 {
		lim.Memory = d.Memory
	}
	if lim.CPU == 0 {
		lim.CPU = d.CPU
	}
	if lim.Files == 0 {
		lim.Files = d.Files
	}
	if lim.Threads == 0 {
		lim.Threads = d.Threads
	}
	if lim.Stack == 0 {
		lim.Stack = d.Stack
	}
	return lim
}

// drainPty waits, a second at most, until what was written to the
// session's pty has been read from it, by the session's copy to the
// client, so that the session does not end with it unsent.
func drainPty(sess ssh.Session) {
	pty, _, ok := sess.Pty()
	if !ok || pty.Master == nil {
		return
	}
	raw, err := pty.Master.SyscallConn()
	if err != nil {
		return
	}
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		pending := 0
		_ = raw.Control(func(fd uintptr) { pending, err = pendingInput(int(fd)) })
		if err != nil || pending == 0 {
			break
		}
	}
	// The copy has read the last bytes; let it send them.
	time.Sleep(50 * time.Millisecond)
}

// encodedTemplate is tpl as its students' processes take it, encoded
// once for them all. A build publishes a template after every step; only
// the latest of each is kept.
func (s *Server) encodedTemplate(tpl *lessons.Template) ([]byte, error) {
	s.mu.Lock()
	enc, ok := s.templates[tpl.Database()]
	s.mu.Unlock()
	if ok && enc.tpl == tpl {
		return enc.raw, nil
	}
	raw, err := tpl.MarshalBinary()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.templates[tpl.Database()] = encodedTemplate{tpl, raw}
	s.mu.Unlock()
	return raw, nil
}
