package classroom

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"
	gossh "golang.org/x/crypto/ssh"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
	room "github.com/schemalab/schemalab/lessons/classroom"
	"github.com/schemalab/schemalab/sandbox"
	"github.com/schemalab/schemalab/sandbox/wire"
)

// sharedBackend is one embedded sandbox for the package's tests, as a
// classroom has one for all its students, and sharedTemplates the room's
// templates of the lessons on it.
var (
	sharedBackend   *sandbox.Backend
	sharedTemplates *room.Templates
)

// studentModeEnv makes the test binary a student's process, as
// `schemalab classroom-student` is one (testStudent).
const studentModeEnv = "CLASSROOM_TEST_STUDENT"

func TestMain(m *testing.M) {
	if os.Getenv(studentModeEnv) != "" {
		cat, errs := lessons.Load(content.FS)
		if len(errs) > 0 {
			fmt.Fprintln(os.Stderr, errs)
			os.Exit(1)
		}
		os.Exit(StudentMain(context.Background(), cat, attachForTest, os.Stderr))
	}
	be, err := sandbox.Open(context.Background(), sandbox.Config{Kind: sandbox.KindEmbedded, Accounts: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	sharedBackend = be
	var report func(string)
	if os.Getenv(benchServerEnv) != "" {
		// A benchmark's room says why a lesson is not shared in full.
		report = func(line string) { fmt.Fprintln(os.Stderr, "classroom templates:", line) }
	}
	sharedTemplates = room.NewTemplates(be.Client, be.Connector(), report)
	if keys := os.Getenv(benchServerEnv); keys != "" {
		serveForBenchmark(keys)
		be.Close()
		os.Exit(0)
	}
	code := m.Run()
	be.Close()
	os.Exit(code)
}

func builtinCatalog(t testing.TB) *lessons.Catalog {
	t.Helper()
	cat, errs := lessons.Load(content.FS)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return cat
}

// stepsOf is the number of steps of a built-in lesson, and stepTitle the
// title of its step i (0-based), so that tests follow the lessons' text.
func stepsOf(t testing.TB, id string) int { return len(builtinCatalog(t).Find(id).Steps) }

func stepTitle(t testing.TB, id string, i int) string {
	return builtinCatalog(t).Find(id).Steps[i].Title
}

// newKey makes an SSH key pair.
func newKey(t testing.TB) gossh.Signer {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// allowKeys writes an authorized_keys file of the given keys.
func allowKeys(t testing.TB, keys ...gossh.Signer) string {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("# the class list\n\n")
	for _, k := range keys {
		b.Write(gossh.MarshalAuthorizedKey(k.PublicKey()))
	}
	path := filepath.Join(t.TempDir(), "authorized_keys")
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// startClassroom serves a classroom on a free loopback port until the
// test ends.
func startClassroom(t testing.TB, cfg Config) *Server {
	t.Helper()
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	if cfg.StateDir == "" {
		cfg.StateDir = t.TempDir()
	}
	if cfg.Catalog == nil {
		cfg.Catalog = builtinCatalog(t)
	}
	if cfg.Sandbox == nil {
		cfg.Sandbox = prefixSandbox(sharedBackend)
		if cfg.Seeds == nil {
			cfg.Seeds = sharedTemplates.Seeds
		}
		if cfg.Prepare == nil {
			cfg.Prepare = sharedTemplates.Start
		}
	}
	if cfg.Room == nil {
		cfg.Room = room.New(room.Options{})
	}
	if cfg.Student == nil {
		cfg.Student = testStudent
	}
	if cfg.ServerURI == "" {
		cfg.ServerURI = sharedBackend.URI()
		if cfg.Logins == nil {
			cfg.Logins = logins(sharedBackend)
		}
	}
	if cfg.Limits == (Limits{}) {
		cfg.Limits = testLimits
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve()
	t.Cleanup(func() { srv.Close() })
	return srv
}

// terminal is one SSH session as a student's terminal shows it: the
// session's output runs through a terminal emulator, so tests read the
// screen the way a person would.
type terminal struct {
	t      testing.TB
	client *gossh.Client
	sess   *gossh.Session
	stdin  io.Writer

	mu     sync.Mutex
	emu    *vt.Emulator
	raw    bytes.Buffer // everything the server wrote, escapes included
	stderr bytes.Buffer
	ended  chan struct{}
	exit   error
}

type loginOptions struct {
	user     string
	key      gossh.Signer
	password string
	// secret answers the personal secret prompts of password mode
	// (chosen at the first login, asked for at later ones).
	secret  string
	term    string // TERM, default xterm-256color
	w, h    int
	command string
	noPty   bool
}

// dialSSH connects and authenticates; banners are returned with the error.
func dialSSH(addr string, o loginOptions) (*gossh.Client, string, error) {
	var banners strings.Builder
	var auth []gossh.AuthMethod
	if o.key != nil {
		auth = append(auth, gossh.PublicKeys(o.key))
	}
	if o.password != "" {
		// As OpenSSH: the class password and the personal secret are
		// keyboard-interactive prompts (the password alone, after a key).
		auth = append(auth, gossh.KeyboardInteractive(func(_, _ string, questions []string, _ []bool) ([]string, error) {
			answers := make([]string, len(questions))
			for i, q := range questions {
				answers[i] = o.secret
				if strings.Contains(q, "class password") {
					answers[i] = o.password
				}
			}
			return answers, nil
		}), gossh.Password(o.password))
	}
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{
		User:            o.user,
		Auth:            auth,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(),
		BannerCallback:  func(msg string) error { banners.WriteString(msg); return nil },
		Timeout:         10 * time.Second,
	})
	return c, banners.String(), err
}

func login(t testing.TB, addr string, o loginOptions) *terminal {
	t.Helper()
	if o.term == "" {
		o.term = "xterm-256color"
	}
	if o.w == 0 {
		o.w, o.h = 120, 40
	}
	client, banners, err := dialSSH(addr, o)
	if err != nil {
		t.Fatalf("ssh %s@%s: %v\n%s", o.user, addr, err, banners)
	}
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	tm := &terminal{t: t, client: client, sess: sess, emu: vt.NewEmulator(o.w, o.h), ended: make(chan struct{})}
	if !o.noPty {
		if err := sess.RequestPty(o.term, o.h, o.w, gossh.TerminalModes{}); err != nil {
			t.Fatal(err)
		}
	}
	stdin, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	tm.stdin = stdin
	stdout, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := sess.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	// The emulator answers the program's terminal queries (background
	// colour, modes) as a real terminal would.
	go io.Copy(stdin, readerFunc(tm.emu.Read))
	var pumps sync.WaitGroup
	pumps.Add(2)
	go func() {
		defer pumps.Done()
		buf := make([]byte, 32*1024)
		for {
			n, err := stdout.Read(buf)
			if n > 0 {
				tm.mu.Lock()
				tm.raw.Write(buf[:n])
				tm.emu.Write(buf[:n])
				tm.mu.Unlock()
			}
			if err != nil {
				return
			}
		}
	}()
	go func() {
		defer pumps.Done()
		b, _ := io.ReadAll(stderr)
		tm.mu.Lock()
		tm.stderr.Write(b)
		tm.mu.Unlock()
	}()
	if o.command != "" {
		err = sess.Start(o.command)
	} else {
		err = sess.Shell()
	}
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		pumps.Wait()
		err := sess.Wait()
		tm.mu.Lock()
		tm.exit = err
		tm.mu.Unlock()
		close(tm.ended)
	}()
	t.Cleanup(tm.close)
	return tm
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

// close ends the session. (The emulator is left open: closing it races
// with the goroutine reading its replies, which then stays blocked.)
func (tm *terminal) close() {
	tm.sess.Close()
	tm.client.Close()
}

// screen is the text on the terminal now.
func (tm *terminal) screen() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.emu.String()
}

func (tm *terminal) rawOutput() []byte {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return bytes.Clone(tm.raw.Bytes())
}

func (tm *terminal) errText() string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.stderr.String()
}

// told is everything the session printed outside the program's frames:
// its standard error, and its output after the program's last frame,
// where the room writes why a session ended.
func (tm *terminal) told() string {
	raw := tm.rawOutput()
	if i := bytes.LastIndex(raw, []byte("\x1b[?1049l")); i >= 0 {
		raw = raw[i:]
	}
	return tm.errText() + string(raw)
}

// waitFor polls the screen until it matches the regular expression.
func (tm *terminal) waitFor(pattern string, timeout time.Duration) string {
	tm.t.Helper()
	re := regexp.MustCompile(pattern)
	timeout *= waitSlack
	deadline := time.Now().Add(timeout)
	for {
		s := tm.screen()
		if re.MatchString(s) {
			return s
		}
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out after %v waiting for /%s/; the screen:\n%s\nstderr: %s", timeout, pattern, s, tm.errText())
		}
		time.Sleep(15 * time.Millisecond)
	}
}

// waitForNot polls the screen until it no longer matches the regular
// expression.
func (tm *terminal) waitForNot(pattern string, timeout time.Duration) {
	tm.t.Helper()
	re := regexp.MustCompile(pattern)
	timeout *= waitSlack
	deadline := time.Now().Add(timeout)
	for re.MatchString(tm.screen()) {
		if time.Now().After(deadline) {
			tm.t.Fatalf("timed out after %v waiting for /%s/ to go; the screen:\n%s", timeout, pattern, tm.screen())
		}
		time.Sleep(15 * time.Millisecond)
	}
}

// send types keys: "enter", "esc" and "ctrl+c" by name, anything else as
// text.
func (tm *terminal) send(keys ...string) {
	tm.t.Helper()
	for _, k := range keys {
		switch k {
		case "enter":
			k = "\r"
		case "esc":
			k = "\x1b"
		case "ctrl+c":
			k = "\x03"
		}
		if _, err := io.WriteString(tm.stdin, k); err != nil {
			tm.t.Fatalf("typing %q: %v", k, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (tm *terminal) resize(w, h int) {
	tm.t.Helper()
	tm.mu.Lock()
	tm.emu.Resize(w, h)
	tm.mu.Unlock()
	if err := tm.sess.WindowChange(h, w); err != nil {
		tm.t.Fatal(err)
	}
}

// wait returns the session's end: nil for exit status 0.
func (tm *terminal) wait(timeout time.Duration) error {
	tm.t.Helper()
	timeout *= waitSlack
	select {
	case <-tm.ended:
	case <-time.After(timeout):
		tm.t.Fatalf("the session did not end within %v; the screen:\n%s", timeout, tm.screen())
	}
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return tm.exit
}

// openLesson moves the catalog's cursor to the lesson titled title and
// opens it, one key at a time, waiting for each move to show.
func (tm *terminal) openLesson(title string) {
	tm.t.Helper()
	// A lesson opens once the session's sandbox client is connected.
	tm.waitFor(`sandbox: embedded sandbox`, 30*time.Second)
	cursor := regexp.MustCompile(`(?m)^ *▸ (.*?)  `)
	selected := func() string {
		if m := cursor.FindStringSubmatch(tm.screen()); m != nil {
			return m[1]
		}
		return ""
	}
	for range 10 {
		cur := selected()
		if cur == title {
			// A lesson new to the learner opens on its introduction.
			tm.send("enter")
			tm.waitFor(`Introduction`, 30*time.Second)
			tm.send("n")
			tm.waitFor(`Step 1 of \d+`, 30*time.Second)
			return
		}
		tm.send("j")
		deadline := time.Now().Add(5 * time.Second)
		for selected() == cur && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	tm.t.Fatalf("no lesson %q in the catalog:\n%s", title, tm.screen())
}

// prefixSandbox is what cmd/schemalab wires: a student's view of the
// shared backend, confined to the student's prefix.
func prefixSandbox(be *sandbox.Backend) func(context.Context, string) (*lessons.Sandbox, error) {
	heap := &lessons.HeapShare{}
	return func(ctx context.Context, prefix string) (*lessons.Sandbox, error) {
		sb, err := be.ForPrefix(ctx, prefix)
		if err != nil {
			return nil, err
		}
		return &lessons.Sandbox{Connect: sb.Connector(), Prefix: sb.Prefix(), ResetDB: sb.ResetDB, Label: sb.Host, Close: sb.Close,
			HeapShare: heap}, nil
	}
}

// logins are what cmd/schemalab wires: the students' logins on the
// room's server.
func logins(be *sandbox.Backend) *Logins {
	return &Logins{
		Add: func(name, password, prefix string, q Quotas) error {
			return be.AddUser(name, password, wire.Account{Prefix: prefix, MaxStorageBytes: q.Storage, MaxCursors: q.Cursors, MaxConnections: q.Connections})
		},
		Remove: be.RemoveUser,
		Usage: func(name string) Usage {
			u := be.Usage(name)
			return Usage{Storage: u.StorageBytes, Cursors: u.OpenCursors, Connections: u.Connections}
		},
	}
}

// testStudent runs a student's process as the classroom does: this test
// binary again, in student mode.
func testStudent() *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = []string{studentModeEnv + "=1"}
	return cmd
}

// attachForTest is what `schemalab classroom-student` does on the room's
// embedded server.
func attachForTest(ctx context.Context, spec StudentSpec) (*lessons.Sandbox, error) {
	be, err := sandbox.Attach(ctx, spec.URI, spec.Prefix, spec.User, spec.Password, spec.ScriptHeap)
	if err != nil {
		return nil, err
	}
	return &lessons.Sandbox{Connect: be.Connector(), Prefix: be.Prefix(), ResetDB: be.ResetDB, HeapLimit: be.ScriptHeap(),
		Label: spec.Label, Close: be.Close}, nil
}

// syncBuffer is a log the server writes while a test reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
