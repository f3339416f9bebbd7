// Package classroom serves the course over SSH with wish: every SSH
// session gets its own copy of the TUI, sized to the session's terminal,
// with its own colour profile, progress and database prefix; an
// instructor gets a live dashboard of the room instead, and a present
// mode whose steps the students can follow with one key.
package classroom

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/activeterm"
	"charm.land/wish/v2/bubbletea"
	"charm.land/wish/v2/logging"
	"github.com/charmbracelet/colorprofile"
	gossh "golang.org/x/crypto/ssh"

	"github.com/schemalab/schemalab/lessons"
	room "github.com/schemalab/schemalab/lessons/classroom"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/tui/termsafe"
)

// Defaults of Config.
const (
	DefaultListen      = "127.0.0.1:2222"
	DefaultMaxStudents = 60
	// DefaultInstructor names the instructor's own course (its database
	// prefix and progress) in the dashboard of the classroom's terminal.
	DefaultInstructor = "instructor"
	// turnHold is the longest one student's operation holds one of the
	// room's turns (lessons.Turns): longer than any of the lessons' own
	// steps take on the server alone, and short enough that a student's
	// loop running to its time limit holds up the others for a moment.
	turnHold = 10 * time.Second
	// collectorPercent is the classroom server's GOGC (TuneCollector).
	collectorPercent = 175
)

// TuneCollector sets the garbage collector of a process that serves a
// classroom, unless the environment's GOGC says otherwise. The live heap
// of a classroom is mostly the lessons' shared templates, which never
// change, yet every collection marks them again: at Go's default, a
// collection each time the heap grows by its live size, thirty students
// running the bucket lesson spent a third of the server's CPU marking
// data that stays, and their steps waited for it. Collecting at 175%
// (30 students on the bucket lesson: p95 step latency about 2.5 s ->
// 1.4 s, peak RSS 0.9 -> 1.3 GiB) buys most of what 200% does (1.25 s,
// 1.5 GiB) for less memory, where 150% bought little (2.1 s, 1.2 GiB).
// GOMEMLIMIT still bounds it.
func TuneCollector(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(collectorPercent)
	}
}

// Config configures a classroom server.
type Config struct {
	// Listen is host:port; a non-loopback host also needs BindAny.
	Listen  string
	BindAny bool
	// StateDir keeps the host key, the students' names and progress.
	StateDir string
	Auth     Auth
	// MaxStudents caps the students' sessions at once (not the
	// instructor's); 0 means DefaultMaxStudents.
	MaxStudents int
	// Instructor is the login name that gets the dashboard; "" means no
	// one does over SSH.
	Instructor string
	Catalog    *lessons.Catalog
	// Warnings (broken lesson files) are shown on every catalog.
	Warnings []string
	// Sandbox gives the instructor's present mode the shared sandbox as
	// seen through the prefix <name>_: its own clients, confined to that
	// prefix. Closing what it returns releases only those.
	Sandbox func(ctx context.Context, prefix string) (*lessons.Sandbox, error)
	// Student is the command that runs one student's session in a
	// process of its own (RunStudent in it); each call makes a new one.
	Student func() *exec.Cmd
	// ServerURI is where the students' processes reach the room's
	// server. It may hold credentials: it travels to them over the
	// control channel only.
	ServerURI string
	// Label names a server that is not the embedded one on the students'
	// status line ("" for the embedded sandbox, whose name they see in
	// their own language).
	Label string
	// Logins, when set, make the server's login for each student's
	// process (the embedded server with accounts, which confines each
	// login to its student's prefix and quotas); without it the
	// processes connect as they are and the client-side guard alone
	// keeps them apart.
	Logins *Logins
	// Quotas bound each student on the server (through Logins) and in
	// their scripts; zero fields take DefaultQuotas'.
	Quotas Quotas
	// Limits bound each student's process; zero fields take
	// DefaultLimits'.
	Limits Limits
	// Startups bound the connections that have not logged in yet; the
	// zero value is DefaultStartups.
	Startups Startups
	// Seeds, if set, gives every session's lesson runners the room's
	// shared template of the lesson (lessons.Sandbox.Seeds; a
	// room.Templates' Seeds), so that a lesson's setup runs once for the
	// room rather than once per student. nil means each session runs all
	// the lessons' code itself, as on a server without snapshots.
	Seeds func(ctx context.Context, l *lessons.Lesson, state string) (*lessons.Seeds, error)
	// Prepare, if set, is told of every lesson a student opens, before
	// they run anything in it (room.Templates' Start): the room's
	// template is built while they read.
	Prepare func(l *lessons.Lesson)
	// CheckPrefix refuses a student name whose prefix cannot name a
	// database, at log-in rather than at the first step.
	CheckPrefix func(prefix string) error
	Room        *room.Room
	// ScriptTimeout bounds one block's evaluation in a session; 0 is the
	// runner's default.
	ScriptTimeout time.Duration
	// ReservedPrefix is the instructor's own --db-prefix, which no
	// student's prefix may cover or be covered by.
	ReservedPrefix string
	NoColor        bool
	// Lang is the classroom's language: the dashboard's, and a student's
	// whose ssh sends no LANG or LC_* (SendEnv); "" is English.
	Lang string
	// Log receives one line per connection and per refusal; nil discards.
	Log io.Writer
}

// LogWriter is w made safe for the log of a classroom, which an
// instructor reads on a terminal: every control character (escape
// sequences among them) that a line carries, from a login name, a
// client's version string or a crash report, is shown as "�", and only
// line breaks pass. One Write is taken as whole lines, as log.Logger
// writes them.
func LogWriter(w io.Writer) io.Writer { return logWriter{w} }

type logWriter struct{ w io.Writer }

func (l logWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(l.w, termsafe.Text(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Server is a classroom's SSH server.
type Server struct {
	cfg Config
	// instructor is Config.Instructor as a student name, or
	// DefaultInstructor; its course prefix is never a student's.
	// instructorLogin says whether it may log in over SSH.
	instructor      string
	instructorLogin bool
	srv             *ssh.Server
	ln              net.Listener
	keys            *authorizedKeys
	instructorKeys  *authorizedKeys
	startups        *startups
	roster          *room.Roster
	// turns share the server's processors among the students' lesson
	// operations, as many at once as there are processors.
	turns     *lessons.Turns
	hostKey   string
	hostKeyAt string
	log       *log.Logger
	// loc speaks Config.Lang.
	loc *locale.Localizer

	mu       sync.Mutex
	live     map[string]*liveSession // students by name
	all      map[*liveSession]bool   // every admitted session, instructors too
	pending  map[ssh.Session]*liveSession
	students int
	closing  bool
	// warm are students' processes started ahead.
	warm *warmPool
	// templates are the lessons' templates as the students' processes
	// take them, encoded once (encodedTemplate), by template database:
	// the latest a build published of each.
	templates map[string]encodedTemplate
}

type encodedTemplate struct {
	tpl *lessons.Template
	raw []byte
}

// liveSession is one admitted SSH session.
type liveSession struct {
	name, identity string
	instructor     bool
	// lang is the session's language: its client's LANG or LC_*, or the
	// classroom's.
	lang string
	// dir keeps the student's (or remote instructor's) progress.
	dir  string
	done chan struct{}

	mu       sync.Mutex
	program  *tea.Program // the instructor's
	proc     *studentProc // a student's process
	replaced bool         // by a newer session of the same student
	ended    bool         // by the classroom stopping
	cleanup  func()
	// crash says why a student's process stopped, when it was not the
	// student's own doing.
	crash string
}

// ErrNonLoopback is returned by New for a non-loopback Listen without
// BindAny.
var ErrNonLoopback = errors.New("not a loopback address")

// listenError is the refusal of a non-loopback Listen, in the classroom's
// language; it is ErrNonLoopback.
type listenError struct{ text string }

func (e listenError) Error() string        { return e.text }
func (e listenError) Is(target error) bool { return target == ErrNonLoopback }

var (
	msgBadListen   = &locale.Message{ID: "classroom.badListen", Other: "--listen {{.Addr}}: {{.Err}} (want HOST:PORT, e.g. 127.0.0.1:2222)"}
	msgNonLoopback = &locale.Message{ID: "classroom.nonLoopback", Other: "--listen {{.Addr}}: not a loopback address; add --bind-any to let other machines reach the classroom"}
)

// New prepares the server: it checks the configuration, generates the
// host key on first use, and listens.
func New(cfg Config) (*Server, error) {
	if err := cfg.Auth.Validate(); err != nil {
		return nil, err
	}
	if cfg.Catalog == nil || cfg.Sandbox == nil || cfg.Student == nil || cfg.Room == nil || cfg.StateDir == "" {
		return nil, errors.New("classroom: Catalog, Sandbox, Student, Room and StateDir are required")
	}
	cfg.Limits = cfg.Limits.withDefaults()
	cfg.Quotas = cfg.Quotas.withDefaults()
	if cfg.Startups.Start == 0 {
		cfg.Startups.Start, cfg.Startups.Rate, cfg.Startups.Full = DefaultStartups.Start, DefaultStartups.Rate, DefaultStartups.Full
	}
	if cfg.Startups.PerAddress == 0 {
		cfg.Startups.PerAddress = DefaultStartups.PerAddress
	}
	if cfg.Startups.Grace == 0 {
		cfg.Startups.Grace = DefaultStartups.Grace
	}
	if cfg.Listen == "" {
		cfg.Listen = DefaultListen
	}
	if cfg.MaxStudents <= 0 {
		cfg.MaxStudents = DefaultMaxStudents
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	loc := locale.For(cfg.Lang)
	host, _, err := net.SplitHostPort(cfg.Listen)
	if err != nil {
		return nil, errors.New(loc.T(msgBadListen, map[string]any{"Addr": cfg.Listen, "Err": err.Error()}))
	}
	if !cfg.BindAny && !isLoopback(host) {
		return nil, listenError{loc.T(msgNonLoopback, map[string]any{"Addr": cfg.Listen})}
	}
	s := &Server{cfg: cfg, log: log.New(LogWriter(cfg.Log), "", log.LstdFlags), loc: loc,
		live: map[string]*liveSession{}, all: map[*liveSession]bool{}, pending: map[ssh.Session]*liveSession{},
		templates: map[string]encodedTemplate{}}
	s.turns = lessons.NewTurns(runtime.GOMAXPROCS(0), turnHold)
	s.startups = newStartups(cfg.Startups, 4*cfg.MaxStudents+16, s.log.Printf)
	s.instructor, s.instructorLogin = DefaultInstructor, cfg.Instructor != ""
	if s.instructorLogin {
		if s.instructor, err = room.StudentName(cfg.Instructor); err != nil {
			return nil, fmt.Errorf("--instructor: %w", err)
		}
		if cfg.Auth.InstructorKeysFile == "" {
			// Whoever logged in first under the name would get the dashboard.
			return nil, errors.New("classroom: an Instructor needs Auth.InstructorKeysFile, the keys that may log in as " + s.instructor)
		}
		if s.instructorKeys, err = loadAuthorizedKeys(cfg.Auth.InstructorKeysFile); err != nil {
			return nil, err
		}
	}
	if cfg.Auth.AllowKeysFile != "" {
		if s.keys, err = loadAuthorizedKeys(cfg.Auth.AllowKeysFile); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(cfg.StateDir, 0o700); err != nil {
		return nil, fmt.Errorf("classroom state: %w", err)
	}
	s.roster = room.NewRoster(filepath.Join(cfg.StateDir, "students"))
	s.hostKeyAt = filepath.Join(cfg.StateDir, "host_ed25519")
	s.srv, err = wish.NewServer(
		wish.WithAddress(cfg.Listen),
		wish.WithHostKeyPath(s.hostKeyAt),
		wish.WithVersion("schemalab-classroom"),
		// Composed first to last, run last to first: log the connection,
		// insist on a terminal, then admit the session and run it: a
		// student's process, or the instructor's dashboard.
		wish.WithMiddleware(
			s.admit,
			activeterm.Middleware(),
			logging.MiddlewareWithLogger(s.log),
		),
		func(srv *ssh.Server) error {
			srv.ServerConfigCallback = s.serverConfig
			srv.ConnCallback = s.acceptConn
			srv.HandshakeTimeout = s.cfg.Startups.Grace
			srv.PtyHandler = s.ptyHandler()
			return nil
		},
	)
	if err != nil {
		return nil, fmt.Errorf("classroom host key %s: %w", s.hostKeyAt, err)
	}
	if len(s.srv.HostSigners) > 0 {
		s.hostKey = gossh.FingerprintSHA256(s.srv.HostSigners[0].PublicKey())
	}
	if s.ln, err = net.Listen("tcp", cfg.Listen); err != nil {
		return nil, fmt.Errorf("listen on %s: %w", cfg.Listen, err)
	}
	s.warm = newWarmPool(s)
	return s, nil
}

// ptyHandler gives a student's session a real pty, on which their
// process runs, and the instructor's an emulated one, on which the
// dashboard runs in this process as any wish program does.
func (s *Server) ptyHandler() ssh.PtyHandler {
	var emulate, allocate ssh.Server
	_ = ssh.EmulatePty()(&emulate)
	_ = ssh.AllocatePty()(&allocate)
	return func(ctx ssh.Context, sess ssh.Session, pty ssh.Pty) (func() error, error) {
		if name, err := room.StudentName(sess.User()); err == nil && s.instructorLogin && name == s.instructor {
			return emulate.PtyHandler(ctx, sess, pty)
		}
		return allocate.PtyHandler(ctx, sess, pty)
	}
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Addr is the address the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// HostKey is the host key's fingerprint and where it is kept.
func (s *Server) HostKey() (fingerprint, path string) { return s.hostKey, s.hostKeyAt }

// LoginHint is the command a student types, e.g. "ssh -p 2222 NAME@127.0.0.1".
func (s *Server) LoginHint() string {
	host, port, _ := net.SplitHostPort(s.Addr())
	if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "THIS-MACHINE"
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port == "22" {
		return "ssh NAME@" + host
	}
	return "ssh -p " + port + " NAME@" + host
}

// Serve answers connections until Close.
func (s *Server) Serve() error {
	err := s.srv.Serve(s.ln)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// Close ends every session, telling its student, and stops listening.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closing = true
	var sessions []*liveSession
	for ls := range s.all {
		sessions = append(sessions, ls)
	}
	s.mu.Unlock()
	// Quitting each program first leaves every student's terminal as it
	// was (no alternate screen left behind) before the connections drop.
	deadline := time.After(3 * time.Second)
	for _, ls := range sessions {
		ls.end()
	}
	for _, ls := range sessions {
		select {
		case <-ls.done:
		case <-deadline:
		}
	}
	s.warm.close()
	return s.srv.Close()
}

var (
	msgNoCommands    = &locale.Message{ID: "classroom.noCommands", Other: "the classroom runs the course, not commands; log in without one: {{.Hint}}"}
	msgInstructors   = &locale.Message{ID: "classroom.instructorsName", Other: `the name "{{.Name}}" is the instructor's in this classroom; log in with your own name: {{.Hint}}`}
	msgNameTaken     = &locale.Message{ID: "classroom.nameTaken", Other: "the name \"{{.Name}}\" belongs to someone else in this class (another key).\nLog in with your own name: {{.Hint}}"}
	msgReplaced      = &locale.Message{ID: "classroom.replaced", Other: "you logged in again from another terminal, so this session ended."}
	msgStopped       = &locale.Message{ID: "classroom.stopped", Other: "the instructor stopped the classroom. Your progress is saved; log in again when it is back."}
	msgReservedName  = &locale.Message{ID: "classroom.reservedName", Other: `the name "{{.Name}}" is reserved in this classroom (its databases would mix with the instructor's {{.Prefix}}*); log in with another name`}
	msgStopping      = &locale.Message{ID: "classroom.stopping", Other: "the classroom is stopping"}
	msgFull          = &locale.Message{ID: "classroom.full", One: "the classroom is full: {{.Count}} student is connected, the most it takes. Try again when someone leaves, or ask the instructor to raise --max-students", Other: "the classroom is full: {{.Count}} students are connected, the most it takes. Try again when someone leaves, or ask the instructor to raise --max-students"}
	msgProgressError = &locale.Message{ID: "classroom.progressError", Other: "your progress cannot be opened ({{.Err}}); tell the instructor"}
)

// sessionLang is the language a session asks for with the LANG and LC_*
// its client sends (ssh's SendEnv, which OpenSSH sends for LANG and LC_*
// by default on many systems), else the classroom's.
func (s *Server) sessionLang(sess ssh.Session) string {
	env := map[string]string{}
	for _, kv := range sess.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	if c := locale.Detect(func(k string) string { return env[k] }); c.From != "" && c.Known {
		return c.Lang
	}
	return s.cfg.Lang
}

// refuse tells the client why it cannot come in and ends the session.
func (s *Server) refuse(sess ssh.Session, msg string) {
	s.log.Printf("refused %q from %s: %s", termsafe.Line(sess.User()), sess.RemoteAddr(), termsafe.Line(msg))
	fmt.Fprint(sess.Stderr(), "schemalab classroom: "+strings.ReplaceAll(msg, "\n", "\r\n")+"\r\n")
	_ = sess.Exit(1)
}

// admit decides who the session belongs to and whether it may start; the
// TUI runs inside it (next), and everything the session held is released
// when it returns.
func (s *Server) admit(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		lang := s.sessionLang(sess)
		l := locale.For(lang)
		if len(sess.Command()) > 0 {
			s.refuse(sess, l.T(msgNoCommands, map[string]any{"Hint": s.LoginHint()}))
			return
		}
		name, err := room.StudentName(sess.User())
		if err != nil {
			s.refuse(sess, l.Error(err))
			return
		}
		// Authentication let a look-alike of the instructor's name in with
		// one of the instructor's keys only.
		instructor := room.LookAlike(name) == room.LookAlike(s.instructor)
		if instructor && !s.instructorLogin {
			s.refuse(sess, l.T(msgInstructors, map[string]any{"Name": s.instructor, "Hint": s.LoginHint()}))
			return
		}
		if !instructor {
			if err := s.checkPrefix(name, l); err != nil {
				s.refuse(sess, err.Error())
				return
			}
		}
		identity := identityOf(sess)
		claimed := identity
		if instructor {
			// Any of the instructor's keys is the instructor.
			name, claimed = s.instructor, DefaultInstructor
		}
		bound, dir, err := s.roster.Claim(name, claimed)
		if err != nil {
			if errors.Is(err, room.ErrNameTaken) {
				s.refuse(sess, l.T(msgNameTaken, map[string]any{"Name": name, "Hint": s.LoginHint()}))
			} else {
				s.refuse(sess, err.Error())
			}
			return
		}
		name = bound
		ls, err := s.enter(name, identity, dir, instructor, l)
		if err != nil {
			s.refuse(sess, err.Error())
			return
		}
		ls.lang = lang
		defer s.leave(sess, ls)
		if !instructor {
			if ls.setProcess(nil) {
				s.runStudent(sess, ls, l)
			}
			s.tell(sess, ls, l)
			return
		}
		s.mu.Lock()
		s.pending[sess] = ls
		s.mu.Unlock()
		s.runInstructor(sess)
		s.tell(sess, ls, l)
	}
}

// runInstructor runs the dashboard on the session, as wish's bubbletea
// middleware would, but for what it logs: the instructor closing their
// terminal ends the program, which is no error.
func (s *Server) runInstructor(sess ssh.Session) {
	p := s.program(sess)
	if p == nil {
		return
	}
	_, windows, _ := sess.Pty()
	ctx, cancel := context.WithCancel(sess.Context())
	defer cancel()
	go func() {
		for {
			select {
			case <-ctx.Done():
				p.Quit()
				return
			case w := <-windows:
				p.Send(tea.WindowSizeMsg{Width: w.Width, Height: w.Height})
			}
		}
	}()
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) {
		s.log.Printf("the instructor's dashboard ended: %v", err)
	}
	p.Kill()
}

// tell the student why their session ended, when it was not their own
// doing, on their terminal: after what their process last drew, which it
// may have left half drawn, on the alternate screen.
func (s *Server) tell(sess ssh.Session, ls *liveSession, l *locale.Localizer) {
	var text string
	crashed := false
	switch replaced, ended := ls.why(); {
	case replaced:
		text = l.T(msgReplaced, nil)
	case ended:
		text = l.T(msgStopped, nil)
	default:
		ls.mu.Lock()
		text = ls.crash
		ls.mu.Unlock()
		crashed = true
	}
	if text == "" {
		return
	}
	out := io.Writer(sess.Stderr())
	if pty, _, ok := sess.Pty(); ok && pty.Slave != nil {
		// Through the pty, after everything the process wrote.
		out = pty.Slave
	}
	fmt.Fprint(out, terminalReset+"schemalab classroom: "+strings.ReplaceAll(text, "\n", "\r\n")+"\r\n")
	drainPty(sess)
	if crashed {
		_ = sess.Exit(1)
	}
}

// terminalReset cancels an escape sequence cut short (CAN), and leaves
// the alternate screen, mouse reporting, bracketed paste and colours the
// process may have left on.
const terminalReset = "\x18\x1b[0m\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l\x1b[?1049l\x1b[?25h\r\n"

// checkPrefix keeps a student's databases apart from the instructor's
// own: neither prefix may start the other.
func (s *Server) checkPrefix(name string, l *locale.Localizer) error {
	p, reserved := name+"_", s.cfg.ReservedPrefix
	if reserved != "" && (strings.HasPrefix(p, reserved) || strings.HasPrefix(reserved, p)) {
		return errors.New(l.T(msgReservedName, map[string]any{"Name": name, "Prefix": reserved}))
	}
	if s.cfg.CheckPrefix != nil {
		return s.cfg.CheckPrefix(p)
	}
	return nil
}

// enter admits a session: a student's newest session replaces an older
// one (a laptop that slept leaves its session behind), and students
// beyond MaxStudents are turned away. The instructor may be logged in
// more than once and does not count.
func (s *Server) enter(name, identity, dir string, instructor bool, l *locale.Localizer) (*liveSession, error) {
	ls := &liveSession{name: name, identity: identity, dir: dir, instructor: instructor, done: make(chan struct{})}
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return nil, errors.New(l.T(msgStopping, nil))
	}
	if instructor {
		s.all[ls] = true
		s.mu.Unlock()
		return ls, nil
	}
	old := s.live[name]
	if old == nil && s.students >= s.cfg.MaxStudents {
		s.mu.Unlock()
		return nil, errors.New(l.N(msgFull, s.students, nil))
	}
	s.live[name] = ls
	s.all[ls] = true
	s.students++
	s.mu.Unlock()
	if old != nil {
		old.replace()
		// Two sessions must not drive the same databases: wait for the
		// old one to let go.
		select {
		case <-old.done:
		case <-time.After(10 * time.Second):
		}
	}
	return ls, nil
}

func (s *Server) leave(sess ssh.Session, ls *liveSession) {
	ls.mu.Lock()
	cleanup := ls.cleanup
	ls.mu.Unlock()
	if cleanup != nil {
		cleanup()
	}
	s.mu.Lock()
	delete(s.pending, sess)
	delete(s.all, ls)
	if !ls.instructor {
		if s.live[ls.name] == ls {
			delete(s.live, ls.name)
		}
		s.students--
	}
	s.mu.Unlock()
	close(ls.done)
}

// setProgram records the instructor's program; false means the session
// was replaced or ended before it started.
func (ls *liveSession) setProgram(p *tea.Program, cleanup func()) bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.program, ls.cleanup = p, cleanup
	return !ls.replaced && !ls.ended
}

// setProcess records a student's process; false means the session was
// replaced or ended before it started.
func (ls *liveSession) setProcess(p *studentProc) bool {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.proc = p
	return !ls.replaced && !ls.ended
}

func (ls *liveSession) setCrash(text string) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.crash = text
}

func (ls *liveSession) replace() { ls.stop(&ls.replaced, stopReplaced) }

func (ls *liveSession) end() { ls.stop(&ls.ended, stopEnded) }

// stop sets the reason and ends the program or the process, if it
// started.
func (ls *liveSession) stop(reason *bool, why string) {
	ls.mu.Lock()
	*reason = true
	p, proc := ls.program, ls.proc
	ls.mu.Unlock()
	if p != nil {
		go p.Quit()
	}
	if proc != nil {
		go proc.stop(why)
	}
}

func (ls *liveSession) why() (replaced, ended bool) {
	ls.mu.Lock()
	defer ls.mu.Unlock()
	return ls.replaced, ls.ended
}

// program builds the instructor's Bubble Tea program, the dashboard, in
// this process: the instructor is trusted, and the dashboard draws the
// room, which lives here. wish's MakeOptions connects
// it to the session: its input and output, its terminal size, and a
// colour profile from the session's own TERM, never the server's.
func (s *Server) program(sess ssh.Session) *tea.Program {
	s.mu.Lock()
	ls := s.pending[sess]
	s.mu.Unlock()
	if ls == nil {
		return nil
	}
	ctx := sess.Context()
	opts := append(bubbletea.MakeOptions(sess), tea.WithContext(ctx), tea.WithoutSignalHandler())
	if s.cfg.NoColor {
		opts = append(opts, tea.WithColorProfile(colorprofile.Ascii))
	}
	if !ls.instructor {
		return nil
	}
	im := s.newInstructor(ctx, ls.name, ls.dir, true)
	m, cleanup, start := im, im.close, im.watch
	opts = append(opts, tea.WithFilter(im.filter))
	p := tea.NewProgram(m, opts...)
	if !ls.setProgram(p, cleanup) {
		return nil // replaced already; leave cleans up
	}
	go start(p, ls.done)
	return p
}
