package classroom

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	room "github.com/schemalab/schemalab/lessons/classroom"
)

// studentPid is the process of a student's session now.
func studentPid(t *testing.T, srv *Server, name string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		srv.mu.Lock()
		ls := srv.live[name]
		srv.mu.Unlock()
		if ls != nil {
			ls.mu.Lock()
			p := ls.proc
			ls.mu.Unlock()
			if p != nil {
				return p.child.cmd.Process.Pid
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s has no process", name)
	return 0
}

func online(r *room.Room, name string) bool {
	for _, row := range r.Rows() {
		if row.Name == name {
			return row.Online
		}
	}
	return false
}

// One student's session crashing, by a runaway script or a kill -9, ends
// that student's process only: the student is told why on their
// terminal and can log in again to the same place, while a classmate
// goes on running steps and the room goes on.
func TestACrashedSessionLeavesTheRoomStanding(t *testing.T) {
	alice, bob := newKey(t), newKey(t)
	r := room.New(room.Options{})
	lim := testLimits
	if !raceEnabled {
		lim.Memory = 768 << 20
	}
	// The shell's own heap guard would stop the script first; here the
	// process's limit is what is tested.
	srv := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, alice, bob)}, Room: r, Limits: lim, Quotas: Quotas{ScriptHeap: 64 << 30}})
	b := login(t, srv.Addr(), loginOptions{user: "bob", key: bob})
	b.openLesson("The Outlier Pattern")
	a := login(t, srv.Addr(), loginOptions{user: "alice", key: alice, w: 160, h: 45})
	a.openLesson("The Computed Pattern")
	a.send("n")
	a.waitFor(`Step 2 of \d+`, 30*time.Second)

	bobRuns := func() {
		t.Helper()
		b.send("enter")
		b.waitFor(`ran in \d+`, 60*time.Second)
	}
	bobRuns()
	bobPid := studentPid(t, srv, "bob")

	if !raceEnabled {
		a.send(":")
		a.waitFor(`Scratch shell`, 30*time.Second)
		a.send("var hog = []; while (true) hog.push('x'.repeat(1 << 20) + Math.random())", "enter")
		a.wait(60 * time.Second)
		if told := a.told(); !strings.Contains(told, "your session was stopped: it used more than 768 MiB of memory") {
			t.Fatalf("alice was told %q", told)
		}
		if online(r, "alice") {
			t.Error("the dashboard still shows alice online")
		}
		a = login(t, srv.Addr(), loginOptions{user: "alice", key: alice, w: 160, h: 45})
		a.waitFor(`Step 2 of \d+`, 30*time.Second)
	}

	// kill -9 from outside.
	if err := syscall.Kill(studentPid(t, srv, "alice"), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	a.wait(30 * time.Second)
	if told := a.told(); !strings.Contains(told, "your session stopped unexpectedly (killed)") {
		t.Fatalf("alice was told %q", told)
	}

	// Bob never noticed: same process, still running steps.
	if pid := studentPid(t, srv, "bob"); pid != bobPid {
		t.Fatalf("bob's process changed from %d to %d", bobPid, pid)
	}
	b.send("n")
	b.waitFor(`Step 2 of \d+`, 30*time.Second)
	bobRuns()
	if !online(r, "bob") {
		t.Error("bob is not online on the dashboard")
	}
	// And alice is back where she was, to the step.
	a = login(t, srv.Addr(), loginOptions{user: "alice", key: alice, w: 160, h: 45})
	a.waitFor(fmt.Sprintf(`Step 2 of %d`, stepsOf(t, "computed")), 30*time.Second)
}
