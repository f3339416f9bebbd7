//go:build unix

package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// fakeMongodOnPath puts a `mongod` script first on PATH that runs this test
// binary as a fake mongod in mode, and points TMPDIR at a fresh directory
// so the test sees exactly the data directories it causes.
func fakeMongodOnPath(t *testing.T, mode string) (tmp string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	state := t.TempDir()
	script := "#!/bin/sh\nSCHEMALAB_FAKE_MONGOD=" + mode + " SCHEMALAB_FAKE_STATE='" + state + "' exec '" + exe + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "mongod"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	tmp = t.TempDir()
	t.Setenv("TMPDIR", tmp)
	return tmp
}

func mongodDirs(t *testing.T, root string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(root, MongodDirPrefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for processAlive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d still running", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// deadPid is the pid of a process that has exited.
func deadPid(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestMongodSpawnReadyAndCleanup(t *testing.T) {
	tmp := fakeMongodOnPath(t, "serve")
	// A directory left by a crashed earlier run is cleaned on start.
	stale := filepath.Join(tmp, MongodDirPrefix+"stale")
	if err := os.Mkdir(stale, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := writePidFile(stale, pidFile{Owner: deadPid(t), Mongod: deadPid(t)}); err != nil {
		t.Fatal(err)
	}

	ctx := context.Background()
	b, err := Open(ctx, Config{Kind: KindMongod})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale directory %s survived the start: %v", stale, err)
	}
	dirs := mongodDirs(t, tmp)
	if len(dirs) != 1 {
		t.Fatalf("data directories: %v, want one", dirs)
	}
	dir := dirs[0]
	var pf pidFile
	data, err := os.ReadFile(filepath.Join(dir, pidFileName))
	if err != nil || json.Unmarshal(data, &pf) != nil {
		t.Fatalf("pid file: %s, %v", data, err)
	}
	if pf.Owner != os.Getpid() || pf.Mongod != b.mongod.cmd.Process.Pid {
		t.Errorf("pid file = %+v, want owner %d, mongod %d", pf, os.Getpid(), b.mongod.cmd.Process.Pid)
	}
	var args []string
	data, _ = os.ReadFile(filepath.Join(dir, "args.json"))
	_ = json.Unmarshal(data, &args)
	for _, want := range [][]string{{"--dbpath", dir}, {"--bind_ip", "127.0.0.1"}} {
		if i := slices.Index(args, want[0]); i < 0 || i+1 >= len(args) || args[i+1] != want[1] {
			t.Errorf("mongod args %q lack %q", args, want)
		}
	}
	if !strings.HasPrefix(b.Host, "127.0.0.1:") || b.mongod.uri() != "mongodb://"+b.Host+"/" {
		t.Errorf("Host %q, URI %q", b.Host, b.mongod.uri())
	}
	if b.Kind != KindMongod || b.Version != "8.0.4" || b.Topology != "standalone" {
		t.Errorf("Kind %q Version %q Topology %q", b.Kind, b.Version, b.Topology)
	}
	if want := "mongod 8.0.4, standalone, temporary on " + b.Host; b.Status() != want {
		t.Errorf("Status() = %q, want %q", b.Status(), want)
	}
	if _, err := b.Client.Database("schemalab_x").Collection("c").InsertOne(ctx, bson.D{{Key: "a", Value: int32(1)}}); err != nil {
		t.Fatalf("insert through the driver: %v", err)
	}

	pid := b.mongod.cmd.Process.Pid
	if err := b.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	waitGone(t, pid)
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("data directory %s survived Close: %v", dir, err)
	}
}

func TestMongodExitsEarly(t *testing.T) {
	tmp := fakeMongodOnPath(t, "exit-early")
	_, err := Open(context.Background(), Config{Kind: KindMongod})
	if err == nil {
		t.Fatal("Open succeeded with a mongod that exits at once")
	}
	t.Log(err)
	for _, want := range []string{"exited before it was ready", "exit status 2", "unrecognised option", "hint:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if d := mongodDirs(t, tmp); len(d) != 0 {
		t.Errorf("data directories left behind: %v", d)
	}
}

func TestMongodPortTaken(t *testing.T) {
	tmp := fakeMongodOnPath(t, "port-taken")
	_, err := Open(context.Background(), Config{Kind: KindMongod})
	if !errors.Is(err, errPortTaken) {
		t.Fatalf("error %v, want the port-taken error", err)
	}
	t.Log(err)
	for _, want := range []string{"could not listen on 127.0.0.1:", "Address already in use", "tried 3 ports"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if d := mongodDirs(t, tmp); len(d) != 0 {
		t.Errorf("data directories left behind: %v", d)
	}
}

func TestMongodPortTakenOnceRetries(t *testing.T) {
	tmp := fakeMongodOnPath(t, "port-taken-once")
	b, err := Open(context.Background(), Config{Kind: KindMongod})
	if err != nil {
		t.Fatalf("Open should retry on another port: %v", err)
	}
	if d := mongodDirs(t, tmp); len(d) != 1 {
		t.Errorf("data directories: %v, want only the running one", d)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if d := mongodDirs(t, tmp); len(d) != 0 {
		t.Errorf("data directories left behind: %v", d)
	}
}

func TestMongodInterruptedWhileStarting(t *testing.T) {
	tmp := fakeMongodOnPath(t, "hang")
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	_, err := Open(ctx, Config{Kind: KindMongod})
	if err == nil || !strings.Contains(err.Error(), "interrupted while waiting for mongod") {
		t.Fatalf("error %v, want an interruption", err)
	}
	if d := mongodDirs(t, tmp); len(d) != 0 {
		t.Errorf("data directories left behind: %v", d)
	}
}

func TestMongodNotFound(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := Open(context.Background(), Config{Kind: KindMongod})
	if err == nil || !strings.Contains(err.Error(), "mongod was not found on PATH") || !strings.Contains(err.Error(), "--mongod PATH") {
		t.Errorf("error %v", err)
	}
	_, err = Open(context.Background(), Config{Kind: KindMongod, MongodPath: "/nonexistent/mongod"})
	if err == nil || !strings.Contains(err.Error(), "--mongod /nonexistent/mongod") {
		t.Errorf("error %v", err)
	}
}

func TestCleanStaleMongodDirs(t *testing.T) {
	root := t.TempDir()
	mk := func(name string, pf *pidFile) string {
		dir := filepath.Join(root, name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if pf != nil {
			if err := writePidFile(dir, *pf); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	deadOwner := mk(MongodDirPrefix+"dead", &pidFile{Owner: deadPid(t)})
	liveOwner := mk(MongodDirPrefix+"live", &pidFile{Owner: os.Getpid()})
	fresh := mk(MongodDirPrefix+"fresh", nil)
	old := mk(MongodDirPrefix+"old", nil)
	past := time.Now().Add(-2 * staleGrace)
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	other := mk("someone-else", &pidFile{Owner: deadPid(t)})

	removed := CleanStaleMongodDirs(root)
	slices.Sort(removed)
	want := []string{deadOwner, old}
	slices.Sort(want)
	if !slices.Equal(removed, want) {
		t.Errorf("removed %v, want %v", removed, want)
	}
	for _, dir := range []string{liveOwner, fresh, other} {
		if _, err := os.Stat(dir); err != nil {
			t.Errorf("%s should be kept: %v", dir, err)
		}
	}
}

// TestMongodCleanedAfterOwnerCrash kills a schemalab that runs a mongod:
// the mongod goes with it (Linux), and the next start deletes the data
// directory it left.
func TestMongodCleanedAfterOwnerCrash(t *testing.T) {
	tmp := fakeMongodOnPath(t, "serve")
	exe, _ := os.Executable()
	owner := exec.Command(exe)
	owner.Env = append(os.Environ(), "SCHEMALAB_TEST_CRASH=1")
	out, err := owner.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := owner.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = owner.Process.Kill()
		t.Fatalf("crashing owner said %q: %v", line, err)
	}
	dir, pidText, _ := strings.Cut(strings.TrimSpace(line), " ")
	mongodPid, err := strconv.Atoi(pidText)
	if err != nil {
		_ = owner.Process.Kill()
		t.Fatalf("crashing owner said %q", line)
	}
	_ = owner.Process.Signal(syscall.SIGKILL)
	_ = owner.Wait()

	if !hasDeathSignal {
		// Without Pdeathsig the orphan keeps running; stop it as a user would.
		_ = syscall.Kill(mongodPid, syscall.SIGTERM)
	}
	waitGone(t, mongodPid)
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the crash should leave %s behind: %v", dir, err)
	}
	if removed := CleanStaleMongodDirs(tmp); !slices.Equal(removed, []string{dir}) {
		t.Errorf("removed %v, want [%s]", removed, dir)
	}
}

func TestCleanStaleStopsOnlyProvenOrphans(t *testing.T) {
	root := t.TempDir()
	exe, _ := os.Executable()

	orphanDir := filepath.Join(root, MongodDirPrefix+"orphan")
	strangerDir := filepath.Join(root, MongodDirPrefix+"stranger")
	for _, d := range []string{orphanDir, strangerDir} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	orphan := exec.Command(exe, "--dbpath", orphanDir, "--port", "0")
	orphan.Env = append(os.Environ(), "SCHEMALAB_FAKE_MONGOD=hang")
	stranger := exec.Command("sleep", "30")
	for _, c := range []*exec.Cmd{orphan, stranger} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		go c.Wait()
		t.Cleanup(func() { _ = c.Process.Kill() })
	}
	_ = writePidFile(orphanDir, pidFile{Owner: deadPid(t), Mongod: orphan.Process.Pid})
	_ = writePidFile(strangerDir, pidFile{Owner: deadPid(t), Mongod: stranger.Process.Pid})

	removed := CleanStaleMongodDirs(root)
	if !slices.Equal(removed, []string{orphanDir}) {
		t.Errorf("removed %v, want [%s]", removed, orphanDir)
	}
	waitGone(t, orphan.Process.Pid)
	if !processAlive(stranger.Process.Pid) {
		t.Error("a process not proven to be our mongod was stopped")
	}
	if _, err := os.Stat(strangerDir); err != nil {
		t.Errorf("%s should be kept while an unknown process holds its pid: %v", strangerDir, err)
	}
}
