package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
)

// MongodDirPrefix starts the name of every temporary --dbpath, so that a
// later run recognises the directories of runs that did not clean up.
const MongodDirPrefix = "schemalab-mongod-"

// pidFileName in a dbpath records who owns it: {"owner": our pid,
// "mongod": the mongod's pid}.
const pidFileName = "schemalab.pid"

const (
	// mongodReadyTimeout bounds the wait for a fresh mongod to answer
	// ping; its first start initialises WiredTiger, which takes seconds.
	mongodReadyTimeout = 60 * time.Second
	// mongodStopTimeout is how long a clean shutdown may take before the
	// process is killed.
	mongodStopTimeout = 15 * time.Second
	// mongodPortAttempts is how often a port taken between our probe and
	// mongod's bind is retried with another one.
	mongodPortAttempts = 3
	// exitNetError is mongod's exit code when it cannot listen.
	exitNetError = 48
)

type pidFile struct {
	Owner  int `json:"owner"`
	Mongod int `json:"mongod,omitempty"`
}

// mongodProcess is a mongod this process started.
type mongodProcess struct {
	bin    string
	dir    string
	addr   string // 127.0.0.1:port
	cmd    *exec.Cmd
	output *tailBuffer
	exited chan struct{} // closed once cmd.Wait returned
	err    error         // cmd.Wait's error, readable after exited
	once   sync.Once
	stopEr error
}

func (p *mongodProcess) uri() string { return "mongodb://" + p.addr + "/" }

// startMongodBackend starts mongod (path, or the one on PATH) on a free
// loopback port with a fresh temporary --dbpath and connects to it.
func startMongodBackend(ctx context.Context, b *Backend, path string) error {
	bin, err := findMongod(path)
	if err != nil {
		return err
	}
	CleanStaleMongodDirs(os.TempDir())

	var lastErr error
	for range mongodPortAttempts {
		p, err := spawnMongod(bin)
		if err != nil {
			return err
		}
		b.Kind, b.Host, b.uri, b.mongod = KindMongod, p.addr, p.uri(), p
		client, err := p.waitReady(ctx, b.clientSettings())
		if err == nil {
			b.Client = client
			b.describe(ctx)
			return nil
		}
		_ = p.stop()
		lastErr = err
		if !errors.Is(err, errPortTaken) {
			return err
		}
	}
	return lastErr
}

func findMongod(path string) (string, error) {
	if path != "" {
		bin, err := exec.LookPath(path)
		if err != nil {
			return "", fmt.Errorf("--mongod %s: %w\nhint: give the path of a mongod binary, or drop --sandbox mongod to use the embedded sandbox", path, err)
		}
		return bin, nil
	}
	bin, err := exec.LookPath("mongod")
	if err != nil {
		return "", errors.New("--sandbox mongod: mongod was not found on PATH\nhint: install MongoDB Community Server, pass --mongod PATH, or drop --sandbox mongod to use the embedded sandbox")
	}
	return bin, nil
}

// spawnMongod creates the dbpath and starts mongod in it on a port that was
// free a moment ago.
func spawnMongod(bin string) (*mongodProcess, error) {
	dir, err := os.MkdirTemp("", MongodDirPrefix+"*")
	if err != nil {
		return nil, fmt.Errorf("--sandbox mongod: create a temporary data directory: %w", err)
	}
	// The owner is recorded before mongod starts, so that a crash in
	// between still leaves a directory the next run can clean.
	if err := writePidFile(dir, pidFile{Owner: os.Getpid()}); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("--sandbox mongod: %w", err)
	}
	port, err := freeLoopbackPort()
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("--sandbox mongod: find a free port: %w", err)
	}
	p := &mongodProcess{
		bin:    bin,
		dir:    dir,
		addr:   net.JoinHostPort("127.0.0.1", strconv.Itoa(port)),
		output: &tailBuffer{max: 8 << 10},
		exited: make(chan struct{}),
	}
	p.cmd = exec.Command(bin,
		"--dbpath", dir,
		"--port", strconv.Itoa(port),
		"--bind_ip", "127.0.0.1",
		"--logpath", filepath.Join(dir, "mongod.log"),
		"--nounixsocket",
		"--wiredTigerCacheSizeGB", "0.25",
		"--setParameter", "diagnosticDataCollectionEnabled=false",
	)
	p.cmd.Stdout, p.cmd.Stderr = p.output, p.output
	p.cmd.Dir = dir
	// Our Ctrl+C must not reach mongod directly (it would stop mid-lesson
	// when the learner interrupts an evaluation); Close stops it. Where
	// the OS allows, mongod also dies with us if we crash.
	setMongodProcAttr(p.cmd)
	if err := p.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("--sandbox mongod: start %s: %w", bin, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	if err := writePidFile(dir, pidFile{Owner: os.Getpid(), Mongod: p.cmd.Process.Pid}); err != nil {
		_ = p.stop()
		return nil, fmt.Errorf("--sandbox mongod: %w", err)
	}
	return p, nil
}

var errPortTaken = errors.New("port already in use")

// waitReady pings the new mongod until it answers, exits or time runs out.
func (p *mongodProcess) waitReady(ctx context.Context, settings clientSettings) (*mongo.Client, error) {
	client, err := newClient(p.uri(), settings)
	if err != nil {
		return nil, fmt.Errorf("--sandbox mongod: %w", err)
	}
	deadline := time.Now().Add(mongodReadyTimeout)
	for {
		// A mongod that is starting refuses connections; each ping gives
		// up quickly and the loop tries again.
		pctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		// A mongod that exits ends the ping at once instead of after
		// those 500 ms.
		go func() {
			select {
			case <-p.exited:
				cancel()
			case <-pctx.Done():
			}
		}()
		err := client.Ping(pctx, nil)
		cancel()
		if err == nil {
			return client, nil
		}
		select {
		case <-p.exited:
			_ = client.Disconnect(context.Background())
			return nil, p.earlyExitError()
		default:
		}
		if ctx.Err() != nil {
			_ = client.Disconnect(context.Background())
			return nil, fmt.Errorf("--sandbox mongod: interrupted while waiting for mongod to start: %w", ctx.Err())
		}
		if time.Now().After(deadline) {
			_ = client.Disconnect(context.Background())
			return nil, fmt.Errorf("--sandbox mongod: %s did not become ready on %s within %s%s\nhint: try the embedded sandbox (drop --sandbox mongod) or --uri with a running server",
				p.bin, p.addr, mongodReadyTimeout, p.diagnostics())
		}
		select {
		case <-p.exited:
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
		}
	}
}

func (p *mongodProcess) earlyExitError() error {
	diag := p.diagnostics()
	var exitErr *exec.ExitError
	if (errors.As(p.err, &exitErr) && exitErr.ExitCode() == exitNetError) ||
		strings.Contains(strings.ToLower(diag), "address already in use") {
		return fmt.Errorf("--sandbox mongod: %s could not listen on %s: %w (tried %d ports)%s",
			p.bin, p.addr, errPortTaken, mongodPortAttempts, diag)
	}
	status := "exited"
	if p.err != nil {
		status = p.err.Error()
	}
	return fmt.Errorf("--sandbox mongod: %s exited before it was ready (%s)%s\nhint: run it by hand to see why, or drop --sandbox mongod to use the embedded sandbox",
		p.bin, status, diag)
}

// diagnostics is what mongod said: its console output, and the errors of
// its log file (JSON lines), indented under the message.
func (p *mongodProcess) diagnostics() string {
	var lines []string
	for l := range strings.SplitSeq(strings.TrimSpace(p.output.String()), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	lines = append(lines, logErrors(filepath.Join(p.dir, "mongod.log"))...)
	if len(lines) > 8 {
		lines = lines[len(lines)-8:]
	}
	if len(lines) == 0 {
		return ""
	}
	return "\n  " + strings.Join(lines, "\n  ")
}

// logErrors extracts the error and fatal entries of a mongod JSON log.
func logErrors(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var entry struct {
			S    string          `json:"s"`
			Msg  string          `json:"msg"`
			Attr json.RawMessage `json:"attr"`
		}
		if json.Unmarshal(sc.Bytes(), &entry) != nil || (entry.S != "E" && entry.S != "F") {
			continue
		}
		line := entry.Msg
		if len(entry.Attr) > 0 {
			line += " " + string(entry.Attr)
		}
		out = append(out, line)
	}
	return out
}

// stop ends mongod (cleanly first) and deletes its data directory. It is
// safe to call more than once.
func (p *mongodProcess) stop() error {
	p.once.Do(func() {
		select {
		case <-p.exited:
		default:
			terminate(p.cmd.Process)
			select {
			case <-p.exited:
			case <-time.After(mongodStopTimeout):
				_ = p.cmd.Process.Kill()
				<-p.exited
			}
		}
		if err := os.RemoveAll(p.dir); err != nil {
			p.stopEr = fmt.Errorf("delete mongod's data directory: %w", err)
		}
	})
	return p.stopEr
}

func freeLoopbackPort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func writePidFile(dir string, pf pidFile) error {
	data, _ := json.Marshal(pf)
	tmp := filepath.Join(dir, pidFileName+".tmp")
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("write pid file: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, pidFileName)); err != nil {
		return fmt.Errorf("write pid file: %w", err)
	}
	return nil
}

// staleGrace protects a directory another run has just created and not
// yet given its pid file.
const staleGrace = time.Minute

// CleanStaleMongodDirs deletes the temporary mongod data directories under
// root that earlier runs left behind: those whose owner process is gone.
// A mongod still running in one is stopped first when it can be proven to
// be ours (on Linux, its command line names the directory); otherwise the
// directory is left alone. It returns the directories it deleted.
func CleanStaleMongodDirs(root string) []string {
	matches, _ := filepath.Glob(filepath.Join(root, MongodDirPrefix+"*"))
	var removed []string
	for _, dir := range matches {
		info, err := os.Lstat(dir)
		if err != nil || !info.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, pidFileName))
		var pf pidFile
		if err != nil || json.Unmarshal(data, &pf) != nil || pf.Owner == 0 {
			if time.Since(info.ModTime()) < staleGrace {
				continue
			}
		} else if processAlive(pf.Owner) {
			continue
		}
		if pf.Mongod != 0 && processAlive(pf.Mongod) {
			if !commandLineMentions(pf.Mongod, dir) {
				continue
			}
			if !stopOrphan(pf.Mongod) {
				continue
			}
		}
		if os.RemoveAll(dir) == nil {
			removed = append(removed, dir)
		}
	}
	return removed
}

// stopOrphan terminates a mongod left by a crashed run and waits for it.
func stopOrphan(pid int) bool {
	proc, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	terminate(proc)
	deadline := time.Now().Add(mongodStopTimeout)
	for processAlive(pid) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true
}

// tailBuffer keeps the last max bytes written to it; mongod's console
// output goes there for error messages.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(p)
	if extra := t.buf.Len() - t.max; extra > 0 {
		t.buf.Next(extra)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
