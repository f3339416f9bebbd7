package classroom

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	gossh "golang.org/x/crypto/ssh"

	"github.com/schemalab/schemalab/lessons"
	room "github.com/schemalab/schemalab/lessons/classroom"
)

// databasesWith lists the databases whose names start with prefix, read
// through the classroom's own unconfined client.
func databasesWith(t *testing.T, prefix string) []string {
	t.Helper()
	names, err := sharedBackend.Client.ListDatabaseNames(context.Background(), bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

func dropDatabasesWith(t *testing.T, prefixes ...string) {
	t.Helper()
	for _, p := range prefixes {
		for _, db := range databasesWith(t, p) {
			if err := sharedBackend.Client.Database(db).Drop(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestTwoStudentsRunDifferentLessonsApart(t *testing.T) {
	dropDatabasesWith(t, "alice_", "bob_")
	alice, bob, teacher := newKey(t), newKey(t), newKey(t)
	r := room.New(room.Options{})
	srv := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, alice, bob), InstructorKeysFile: allowKeys(t, teacher)}, Room: r, Instructor: "teacher"})

	var wg sync.WaitGroup
	for _, s := range []struct {
		user   string
		key    gossh.Signer
		lesson string
	}{{"alice", alice, "The Bucket Pattern"}, {"bob", bob, "The Outlier Pattern"}} {
		tm := login(t, srv.Addr(), loginOptions{user: s.user, key: s.key})
		wg.Add(1)
		go func() {
			defer wg.Done()
			tm.openLesson(s.lesson)
			tm.send("enter")
			tm.waitFor(`ran in \d+`, 60*time.Second)
		}()
	}
	wg.Wait()

	if got := databasesWith(t, "alice_"); !slices.Equal(got, []string{"alice_bucket"}) {
		t.Errorf("alice's databases = %v, want [alice_bucket]", got)
	}
	if got := databasesWith(t, "bob_"); !slices.Equal(got, []string{"bob_outlier"}) {
		t.Errorf("bob's databases = %v, want [bob_outlier]", got)
	}

	// The room knows where each one is, and the instructor sees it.
	rows := map[string]room.Row{}
	for _, row := range r.Rows() {
		rows[row.Name] = row
	}
	if a := rows["alice"]; !a.Online || a.Lesson != "bucket" || a.Step != 0 {
		t.Errorf("alice's row = %+v", a)
	}
	if b := rows["bob"]; !b.Online || b.Lesson != "outlier" || b.Step != 0 {
		t.Errorf("bob's row = %+v", b)
	}
	dash := login(t, srv.Addr(), loginOptions{user: "teacher", key: teacher, w: 140, h: 30})
	screen := dash.waitFor(fmt.Sprintf(`(?s)alice +bucket +1/%d .*bob +outlier +1/%d `, stepsOf(t, "bucket"), stepsOf(t, "outlier")), 30*time.Second)
	if !strings.Contains(screen, "2 of 2 online") {
		t.Errorf("the dashboard's header does not count both students:\n%s", screen)
	}
	if _, ok := rows["teacher"]; ok {
		t.Error("the instructor is not a row of the room")
	}
}

func TestHostileScriptCannotReachAnotherStudent(t *testing.T) {
	dropDatabasesWith(t, "alice_", "bob_")
	alice, bob := newKey(t), newKey(t)
	srv := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, alice, bob)}})
	b := login(t, srv.Addr(), loginOptions{user: "bob", key: bob})
	b.openLesson("The Bucket Pattern")
	b.send("enter")
	b.waitFor(`ran in \d+`, 60*time.Second)
	readings := func() int64 {
		n, err := sharedBackend.Client.Database("bob_bucket").Collection("readings").CountDocuments(context.Background(), bson.D{})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if readings() != 144000 {
		t.Fatal("bob's lesson did not run")
	}

	a := login(t, srv.Addr(), loginOptions{user: "alice", key: alice, w: 160, h: 45})
	a.openLesson("The Outlier Pattern")
	a.send(":")
	a.waitFor(`Scratch shell`, 30*time.Second)
	for _, attack := range []string{
		"db.getSiblingDB('bob_bucket').dropDatabase()",
		"db.runCommand({dropDatabase: 1, $db: 'bob_bucket'})",
		"db.getSiblingDB('bob_bucket').readings.deleteMany({})",
		"db.readings.aggregate([{$match: {}}, {$out: {db: 'bob_bucket', coll: 'readings'}}], {$db: 'bob_bucket'})",
	} {
		a.send(attack, "enter")
		// This attack's own refusal, under its echo: earlier ones are on
		// the screen too, and the next input waits for this one to end.
		a.waitFor(regexp.QuoteMeta(attack)+`[^›]*refusing`, 30*time.Second)
		if n := readings(); n != 144000 {
			t.Fatalf("after %s bob's readings = %d", attack, n)
		}
	}
	// Listing databases would name everyone's: the guard refuses it.
	a.send("show dbs", "enter")
	screen := a.waitFor(`refusing .listDatabases.`, 30*time.Second)
	reply := screen[strings.LastIndex(screen, "show dbs"):]
	if strings.Contains(reply, "bob_") || strings.Contains(reply, room.TemplatePrefix) {
		t.Fatalf("alice's show dbs names databases outside her prefix:\n%s", screen)
	}
}

func TestRefusalsSayWhy(t *testing.T) {
	alice, stranger := newKey(t), newKey(t)
	keys := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, alice)}})

	t.Run("unknown key", func(t *testing.T) {
		_, banners, err := dialSSH(keys.Addr(), loginOptions{user: "mallory", key: stranger})
		if err == nil {
			t.Fatal("a key that is not on the list got in")
		}
		fp := gossh.FingerprintSHA256(stranger.PublicKey())
		if !strings.Contains(banners, "the key "+fp+" is not on this class's list") || !strings.Contains(banners, "Send your public key") {
			t.Fatalf("the client was told %q", banners)
		}
	})

	t.Run("wrong password", func(t *testing.T) {
		pw := startClassroom(t, Config{Auth: Auth{Password: "correct horse"}})
		_, banners, err := dialSSH(pw.Addr(), loginOptions{user: "alice", password: "battery staple"})
		if err == nil || !strings.Contains(banners, "that is not the class password") {
			t.Fatalf("err=%v, the client was told %q", err, banners)
		}
		tm := login(t, pw.Addr(), loginOptions{user: "alice", password: "correct horse", secret: "alice's own"})
		tm.waitFor(`Lessons`, 30*time.Second)
	})

	t.Run("too many students", func(t *testing.T) {
		carol, dave, teacher := newKey(t), newKey(t), newKey(t)
		full := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, carol, dave), InstructorKeysFile: allowKeys(t, teacher)}, MaxStudents: 1, Instructor: "teacher"})
		first := login(t, full.Addr(), loginOptions{user: "carol", key: carol})
		first.waitFor(`Lessons`, 30*time.Second)
		second := login(t, full.Addr(), loginOptions{user: "dave", key: dave})
		var exit *gossh.ExitError
		if err := second.wait(30 * time.Second); !errors.As(err, &exit) || exit.ExitStatus() != 1 {
			t.Fatalf("the student over the cap ended with %v, want exit status 1", err)
		}
		if msg := second.errText(); !strings.Contains(msg, "the classroom is full: 1 student is connected, the most it takes") {
			t.Fatalf("the student over the cap was told %q", msg)
		}
		// The instructor does not count against the cap.
		login(t, full.Addr(), loginOptions{user: "teacher", key: teacher}).waitFor(`schemalab classroom`, 30*time.Second)
	})

	t.Run("name of someone else", func(t *testing.T) {
		other := newKey(t)
		srv := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, alice, other)}})
		login(t, srv.Addr(), loginOptions{user: "alice", key: alice}).waitFor(`Lessons`, 30*time.Second)
		tm := login(t, srv.Addr(), loginOptions{user: "Alice", key: other})
		if err := tm.wait(30 * time.Second); err == nil {
			t.Fatal("a second key took alice's name")
		}
		if msg := tm.errText(); !strings.Contains(msg, `the name "alice" belongs to someone else in this class`) {
			t.Fatalf("the second key was told %q", msg)
		}
	})

	t.Run("no terminal, or a command", func(t *testing.T) {
		tm := login(t, keys.Addr(), loginOptions{user: "alice", key: alice, noPty: true})
		if err := tm.wait(30 * time.Second); err == nil || !strings.Contains(tm.screen()+tm.errText(), "Requires an active PTY") {
			t.Fatalf("a session without a terminal: err=%v, told %q / %q", err, tm.screen(), tm.errText())
		}
		tm = login(t, keys.Addr(), loginOptions{user: "alice", key: alice, command: "cat /etc/passwd"})
		if err := tm.wait(30 * time.Second); err == nil || !strings.Contains(tm.errText(), "runs the course, not commands") {
			t.Fatalf("a session with a command: err=%v, told %q", err, tm.errText())
		}
	})

	t.Run("the instructor's name without --instructor", func(t *testing.T) {
		tm := login(t, keys.Addr(), loginOptions{user: DefaultInstructor, key: alice})
		if err := tm.wait(30 * time.Second); err == nil || !strings.Contains(tm.errText(), "is the instructor's in this classroom") {
			t.Fatalf("err=%v, told %q", err, tm.errText())
		}
	})
}

func TestSessionFollowsItsTerminal(t *testing.T) {
	alice, bob := newKey(t), newKey(t)
	srv := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, alice, bob)}})
	// Each session draws with its own terminal's colours: 256 colours for
	// one, 16 for the other, whatever the server's own terminal is.
	rich := login(t, srv.Addr(), loginOptions{user: "alice", key: alice, term: "xterm-256color"})
	plain := login(t, srv.Addr(), loginOptions{user: "bob", key: bob, term: "xterm"})
	rich.waitFor(`Lessons`, 30*time.Second)
	plain.waitFor(`Lessons`, 30*time.Second)
	if !bytes.Contains(rich.rawOutput(), []byte("38;5;")) {
		t.Error("the xterm-256color session got no 256-colour escapes")
	}
	if out := plain.rawOutput(); bytes.Contains(out, []byte("38;5;")) || bytes.Contains(out, []byte("38;2;")) {
		t.Error("the 16-colour xterm session got 256- or true-colour escapes")
	}

	// A resize redraws at the new size.
	rich.resize(50, 15)
	rich.waitFor(`this is 50×15`, 30*time.Second)
	rich.resize(100, 30)
	rich.waitFor(`Lessons`, 30*time.Second)
}

func TestComingBackResumesAndALaterLoginReplacesTheEarlier(t *testing.T) {
	alice := newKey(t)
	dir := t.TempDir()
	srv := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, alice)}, StateDir: dir})
	first := login(t, srv.Addr(), loginOptions{user: "alice", key: alice})
	first.openLesson("The Computed Pattern")
	first.send("n", "n")
	first.waitFor(fmt.Sprintf(`Step 3 of %d`, stepsOf(t, "computed")), 30*time.Second)

	// Logging in again elsewhere ends the first session, with a reason,
	// and the new one opens where she was.
	second := login(t, srv.Addr(), loginOptions{user: "alice", key: alice})
	second.waitFor(fmt.Sprintf(`Step 3 of %d`, stepsOf(t, "computed")), 15*time.Second)
	first.wait(30 * time.Second)
	if !strings.Contains(first.told(), "you logged in again from another terminal") {
		t.Errorf("the replaced session was told %q", first.told())
	}
	second.send("q")
	if err := second.wait(30 * time.Second); err != nil {
		t.Fatalf("q ends the session cleanly: %v", err)
	}

	// After a restart of the classroom, the same key resumes too.
	srv.Close()
	again := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, alice)}, StateDir: dir})
	login(t, again.Addr(), loginOptions{user: "alice", key: alice}).waitFor(fmt.Sprintf(`Step 3 of %d`, stepsOf(t, "computed")), 15*time.Second)
}

func TestFollowTheInstructor(t *testing.T) {
	alice, teacher := newKey(t), newKey(t)
	r := room.New(room.Options{})
	srv := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, alice), InstructorKeysFile: allowKeys(t, teacher)}, Room: r, Instructor: "teacher"})
	student := login(t, srv.Addr(), loginOptions{user: "alice", key: alice})
	student.openLesson("The Outlier Pattern")

	dash := login(t, srv.Addr(), loginOptions{user: "teacher", key: teacher})
	dash.waitFor(`Nothing announced`, 30*time.Second)
	dash.send("p")
	dash.openLesson("The Bucket Pattern")
	dash.send("n", "n", "n")
	dash.waitFor(fmt.Sprintf(`Step 4 of %d`, stepsOf(t, "bucket")), 30*time.Second)

	// The student is told, and stays put until she presses f.
	student.waitFor(`now: bucket, step 4 · f follows`, 30*time.Second)
	if !strings.Contains(student.screen(), fmt.Sprintf("Step 1 of %d", stepsOf(t, "outlier"))) {
		t.Fatalf("the student moved without pressing anything:\n%s", student.screen())
	}
	student.send("f")
	student.waitFor(regexp.QuoteMeta(fmt.Sprintf("Step 4 of %d · %s", stepsOf(t, "bucket"), stepTitle(t, "bucket", 3))), 30*time.Second)

	// Back on the dashboard, the announcement is shown and can be cleared.
	dash.send("q")
	dash.waitFor(regexp.QuoteMeta("now: bucket, step 4 · "+stepTitle(t, "bucket", 3)), 30*time.Second)
	dash.send("c")
	dash.waitFor(`Nothing announced`, 30*time.Second)
	if !r.Announcement().IsZero() {
		t.Fatal("c did not clear the announcement")
	}
}

func TestHostKeyIsMadeOnceAndPrivate(t *testing.T) {
	alice := newKey(t)
	dir := t.TempDir()
	keys := allowKeys(t, alice)
	first := startClassroom(t, Config{Auth: Auth{AllowKeysFile: keys}, StateDir: dir})
	fp, path := first.HostKey()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("host key mode = %v, want 0600", info.Mode().Perm())
	}
	first.Close()
	second := startClassroom(t, Config{Auth: Auth{AllowKeysFile: keys}, StateDir: dir})
	if fp2, _ := second.HostKey(); fp2 != fp || fp == "" {
		t.Errorf("host key changed across restarts: %s, then %s", fp, fp2)
	}
	// The key clients see is that one.
	var seen string
	c, err := gossh.Dial("tcp", second.Addr(), &gossh.ClientConfig{User: "alice", Auth: []gossh.AuthMethod{gossh.PublicKeys(alice)},
		HostKeyCallback: func(_ string, _ net.Addr, key gossh.PublicKey) error { seen = gossh.FingerprintSHA256(key); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if seen != fp {
		t.Errorf("clients see host key %s, want %s", seen, fp)
	}
}

func TestConfigRefusesUnsafeDefaults(t *testing.T) {
	base := Config{StateDir: t.TempDir(), Catalog: builtinCatalog(t), Sandbox: prefixSandbox(sharedBackend), Student: testStudent,
		Room: room.New(room.Options{})}
	noAuth := base
	if _, err := New(noAuth); err == nil || !strings.Contains(err.Error(), "a classroom needs authentication") {
		t.Errorf("no authentication: %v", err)
	}
	anyAddr := base
	anyAddr.Auth, anyAddr.Listen = Auth{Open: true}, "0.0.0.0:0"
	if _, err := New(anyAddr); !errors.Is(err, ErrNonLoopback) {
		t.Errorf("0.0.0.0 without BindAny: %v", err)
	}
	badKeys := base
	path := filepath.Join(t.TempDir(), "keys")
	os.WriteFile(path, []byte("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl ok\nnot a key\n"), 0o600)
	badKeys.Auth = Auth{AllowKeysFile: path}
	if _, err := New(badKeys); err == nil || !strings.Contains(err.Error(), "line 2: not a public key") {
		t.Errorf("a broken authorized_keys file: %v", err)
	}
}

func TestStoppingTheClassroomTellsTheStudents(t *testing.T) {
	alice := newKey(t)
	srv := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, alice)}})
	tm := login(t, srv.Addr(), loginOptions{user: "alice", key: alice})
	tm.waitFor(`Lessons`, 30*time.Second)
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	tm.wait(30 * time.Second)
	if !strings.Contains(tm.told(), "the instructor stopped the classroom") {
		t.Fatalf("the student was told %q", tm.told())
	}
	if raw := tm.rawOutput(); !bytes.Contains(raw, []byte("\x1b[?1049l")) {
		t.Error("the student's terminal was left in the alternate screen")
	}
}

// The room builds a lesson's shared copy when a student opens the lesson,
// while they read its introduction, not when they first run a step.
func TestOpeningALessonPreparesIt(t *testing.T) {
	alice := newKey(t)
	opened := make(chan string, 16)
	srv := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, alice)},
		Prepare: func(l *lessons.Lesson) { opened <- l.ID }})
	tm := login(t, srv.Addr(), loginOptions{user: "alice", key: alice})
	tm.openLesson("The Outlier Pattern")
	select {
	case id := <-opened:
		if id != "outlier" {
			t.Fatalf("opening the outlier lesson prepared %q", id)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("opening a lesson did not prepare it")
	}
	if strings.Contains(tm.screen(), "ran in") {
		t.Fatalf("something ran before the student asked:\n%s", tm.screen())
	}
}

// The classroom collects garbage less often than Go's default, unless
// the instructor's environment sets GOGC.
func TestTuneCollectorYieldsToGOGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	TuneCollector(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != collectorPercent {
		t.Errorf("GC percent %d, want %d", got, collectorPercent)
	}
	TuneCollector(func(k string) string {
		if k == "GOGC" {
			return "50"
		}
		return ""
	})
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set, the GC percent became %d; the environment's must stand", got)
	}
}

// A student whose connection drops (the terminal window closed, the
// laptop lid shut) leaves: their process ends and the log says they
// left. It used to run on, the student shown online, with nothing
// logged, until the classroom stopped.
func TestADroppedConnectionEndsTheStudentsProcess(t *testing.T) {
	alice := newKey(t)
	var log syncBuffer
	srv := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, alice)}, Log: &log})
	tm := login(t, srv.Addr(), loginOptions{user: "alice", key: alice})
	tm.waitFor(`Lessons`, 30*time.Second)
	// The connection goes, with no channel close or exit first.
	tm.client.Conn.Close()
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(log.String(), "alice left") {
		if time.Now().After(deadline) {
			t.Fatalf("no leaving in the log 15 s after the connection dropped:\n%s", log.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if strings.Contains(log.String(), "stopped") {
		t.Errorf("a dropped connection is logged as a crash:\n%s", log.String())
	}
}
