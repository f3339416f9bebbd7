package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/wire"
)

func TestClassroomRefusesUnsafeCommandLines(t *testing.T) {
	t.Setenv(lessons.StateDirEnv, t.TempDir())
	keys := filepath.Join(t.TempDir(), "keys")
	os.WriteFile(keys, []byte("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl alice\n"), 0o600)
	emptyPassword := filepath.Join(t.TempDir(), "password")
	os.WriteFile(emptyPassword, []byte("\nsecond line\n"), 0o600)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"classroom"}, "a classroom needs authentication: give --allow-keys FILE"},
		{[]string{"classroom", "--open", "--allow-keys", keys}, "choose one of --allow-keys, --password-file and --open"},
		{[]string{"classroom", "--open", "--instructor", "teacher"}, "--instructor teacher needs --instructor-keys FILE"},
		{[]string{"classroom", "--password-file", emptyPassword}, "its first line, the class password, is empty"},
		{[]string{"classroom", "--allow-keys", keys, "--listen", "0.0.0.0:0"}, "add --bind-any"},
		{[]string{"classroom", "--allow-keys", keys, "--max-students", "0"}, "--max-students must be at least 1"},
	} {
		var stderr bytes.Buffer
		if code := run(context.Background(), tc.args, env(nil), io.Discard, &stderr); code != 2 {
			t.Errorf("%q: exit %d, want 2 (stderr %q)", tc.args, code, stderr.String())
		}
		if !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%q: stderr %q, want it to say %q", tc.args, stderr.String(), tc.want)
		}
	}
}

// syncBuffer is a bytes.Buffer safe to write from one goroutine and read
// from another.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestClassroomOpenSaysSoAndServesUntilStopped(t *testing.T) {
	t.Setenv(lessons.StateDirEnv, t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr syncBuffer
	exit := make(chan int)
	go func() {
		exit <- run(ctx, []string{"classroom", "--open", "--listen", "127.0.0.1:0"}, env(nil), pw, &stderr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	go io.Copy(io.Discard, pr)
	_, rest, ok := strings.Cut(line, "listening on ")
	if !ok {
		t.Fatalf("first line %q", line)
	}
	addr, _, _ := strings.Cut(rest, " ")
	if !strings.Contains(stderr.String(), "WARNING: --open: ANYONE who can reach "+addr+" can log in") {
		t.Errorf("--open is not said loudly: %q", stderr.String())
	}

	client, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "alice", HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("an open classroom refused a login: %v", err)
	}
	client.Close()

	cancel() // what SIGINT does through signal.NotifyContext
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("exit %d; stderr %q", code, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the classroom did not stop")
	}
	if !strings.Contains(stderr.String(), "schemalab classroom: stopped") {
		t.Errorf("stderr %q", stderr.String())
	}
}

// startClassroomCommand runs `schemalab ARGS` until the test ends and
// returns the first lines of its standard output.
func startClassroomCommand(t *testing.T, lines int, args ...string) []string {
	t.Helper()
	t.Setenv(lessons.StateDirEnv, t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr syncBuffer
	exit := make(chan int)
	go func() {
		exit <- run(ctx, args, env(nil), pw, &stderr)
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-exit:
		case <-time.After(20 * time.Second):
			t.Error("the classroom did not stop")
		}
	})
	r := bufio.NewReader(pr)
	var out []string
	for range lines {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("after %q: %v; stderr %q", out, err, stderr.String())
		}
		out = append(out, strings.TrimSpace(line))
	}
	go io.Copy(io.Discard, r)
	return out
}

// On the embedded server the lessons are shared; on a server without
// snapshots (here `schemalab serve --strict`, reached with --uri) the
// classroom says that every student runs the lessons' setup instead.
func TestClassroomSaysWhetherLessonsAreShared(t *testing.T) {
	if out := startClassroomCommand(t, 4, "classroom", "--open", "--listen", "127.0.0.1:0"); !strings.Contains(out[3], "every student starts from a shared copy-on-write copy") {
		t.Errorf("embedded classroom:\n%s", strings.Join(out, "\n"))
	}
	srv, err := wire.Start(context.Background(), wire.Options{Engine: engine.New(engine.Options{Strict: true})})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if out := startClassroomCommand(t, 4, "--uri", srv.URI()+"?serverSelectionTimeoutMS=30000", "classroom", "--open", "--listen", "127.0.0.1:0"); !strings.Contains(out[3], "a real MongoDB cannot save database snapshots; here every student's session runs the lessons' setup code itself") {
		t.Errorf("classroom on a server without snapshots:\n%s", strings.Join(out, "\n"))
	}
}
