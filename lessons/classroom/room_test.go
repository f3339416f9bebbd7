package classroom

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeClock is a clock the test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newRoom() (*Room, *fakeClock) {
	c := &fakeClock{t: time.Date(2026, 9, 1, 9, 0, 0, 0, time.UTC)}
	return New(Options{Now: c.now}), c
}

func bucket(step int) Position {
	return Position{Lesson: "bucket", LessonTitle: "The Bucket Pattern", Step: step, Steps: 9, StepTitle: "step"}
}

func row(t *testing.T, r *Room, name string) Row {
	t.Helper()
	for _, row := range r.Rows() {
		if row.Name == name {
			return row
		}
	}
	t.Fatalf("no row for %s in %+v", name, r.Rows())
	return Row{}
}

func TestStuckAfterThreeFailedAttemptsAtOneExercise(t *testing.T) {
	r, _ := newRoom()
	r.Join("alice", "SHA256:a")
	r.Moved("alice", bucket(8), Exercises{Total: 2})
	r.Attempted("alice", false, Exercises{Attempted: 1, Total: 2})
	r.Attempted("alice", false, Exercises{Attempted: 1, Total: 2})
	if got := row(t, r, "alice"); got.Stuck || got.FailedInARow != 2 {
		t.Fatalf("after two failures: %+v", got)
	}
	r.Attempted("alice", false, Exercises{Attempted: 1, Total: 2})
	got := row(t, r, "alice")
	if !got.Stuck || !got.StuckFailed || got.FailedInARow != 3 {
		t.Fatalf("after three failures: %+v", got)
	}
	if got.Exercises != (Exercises{Attempted: 1, Total: 2}) {
		t.Errorf("exercises = %+v", got.Exercises)
	}

	// A pass ends it; so does moving to another step.
	r.Attempted("alice", true, Exercises{Passed: 1, Attempted: 1, Total: 2})
	if got := row(t, r, "alice"); got.Stuck || got.FailedInARow != 0 {
		t.Fatalf("after a pass: %+v", got)
	}
	for range 3 {
		r.Attempted("alice", false, Exercises{Passed: 1, Attempted: 1, Total: 2})
	}
	r.Moved("alice", bucket(7), Exercises{Passed: 1, Attempted: 1, Total: 2})
	if got := row(t, r, "alice"); got.Stuck {
		t.Fatalf("moving to another step: %+v", got)
	}
}

func TestStuckAfterTenMinutesOnOneStep(t *testing.T) {
	r, clock := newRoom()
	r.Join("bob", "SHA256:b")
	r.Moved("bob", bucket(3), Exercises{})
	clock.advance(9*time.Minute + 59*time.Second)
	if got := row(t, r, "bob"); got.Stuck || got.OnStep != 9*time.Minute+59*time.Second {
		t.Fatalf("before ten minutes: %+v", got)
	}
	// Re-opening the same step (a resize, a redraw, a rerun) keeps the time.
	r.Moved("bob", bucket(3), Exercises{})
	clock.advance(time.Second)
	got := row(t, r, "bob")
	if !got.Stuck || got.StuckFailed || got.OnStep != 10*time.Minute {
		t.Fatalf("at ten minutes: %+v", got)
	}
	r.Moved("bob", bucket(4), Exercises{})
	if got := row(t, r, "bob"); got.Stuck || got.OnStep != 0 {
		t.Fatalf("on a new step: %+v", got)
	}
}

func TestLeavingFreezesTimeAndIsNeverStuck(t *testing.T) {
	r, clock := newRoom()
	r.Join("carol", "SHA256:c")
	r.Moved("carol", bucket(2), Exercises{})
	clock.advance(4 * time.Minute)
	r.Leave("carol")
	clock.advance(30 * time.Minute)
	got := row(t, r, "carol")
	if got.Online || got.Stuck || got.OnStep != 4*time.Minute {
		t.Fatalf("offline: %+v", got)
	}
	// Coming back continues the clock where it stopped.
	r.Join("carol", "SHA256:c")
	clock.advance(time.Minute)
	if got := row(t, r, "carol"); !got.Online || got.OnStep != 5*time.Minute {
		t.Fatalf("back: %+v", got)
	}
}

func TestRowsSortStuckFirstThenOnlineThenName(t *testing.T) {
	r, clock := newRoom()
	for _, n := range []string{"dave", "bob", "erin", "alice"} {
		r.Join(n, "SHA256:"+n)
	}
	r.Moved("erin", bucket(1), Exercises{})
	clock.advance(11 * time.Minute)
	r.Moved("alice", bucket(2), Exercises{})
	r.Moved("dave", bucket(5), Exercises{})
	for range 3 {
		r.Attempted("dave", false, Exercises{})
	}
	r.Leave("bob")
	var names []string
	for _, row := range r.Rows() {
		names = append(names, row.Name)
	}
	want := []string{"dave", "erin", "alice", "bob"}
	if len(names) != len(want) {
		t.Fatalf("rows = %v, want %v", names, want)
	}
	for i := range want {
		if names[i] != want[i] {
			t.Fatalf("rows = %v, want %v (stuck first, then online, by name)", names, want)
		}
	}
	if r.Online() != 3 {
		t.Errorf("online = %d, want 3", r.Online())
	}
}

func TestAnnouncementNotifiesSubscribersWithoutBlocking(t *testing.T) {
	r, _ := newRoom()
	changes, stop := r.Subscribe()
	defer stop()
	if !r.Announcement().IsZero() {
		t.Fatal("a new room announces nothing")
	}
	r.Announce(bucket(3))
	// A reader that has not read yet gets one signal for many changes and
	// then the latest state.
	r.Announce(bucket(4))
	<-changes
	if a := r.Announcement(); a.String() != "now: bucket, step 5" {
		t.Fatalf("announcement = %q", a.String())
	}
	select {
	case <-changes:
		t.Fatal("two changes while unread must fold into one signal")
	default:
	}
	r.ClearAnnouncement()
	<-changes
	if !r.Announcement().IsZero() {
		t.Fatal("cleared announcement")
	}
	stop()
	r.Announce(bucket(1))
	select {
	case <-changes:
		t.Fatal("a stopped subscription gets nothing")
	default:
	}
}

func TestRoomIsSafeForConcurrentUse(t *testing.T) {
	r, clock := newRoom()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := string(rune('a' + i))
			r.Join(name, "fp")
			for s := range 50 {
				r.Moved(name, bucket(s%9), Exercises{})
				r.Attempted(name, s%2 == 0, Exercises{})
				clock.advance(time.Second)
				_ = r.Rows()
				r.Announce(bucket(s % 9))
			}
			r.Leave(name)
		}()
	}
	wg.Wait()
	if n := len(r.Rows()); n != 8 || r.Online() != 0 {
		t.Fatalf("rows = %d, online = %d", n, r.Online())
	}
}

func TestStudentName(t *testing.T) {
	for login, want := range map[string]string{
		"alice": "alice", "Alice": "alice", "john_doe": "john-doe", "John.Doe": "john-doe",
		"_x_": "x", "a  b": "a-b", "r2d2": "r2d2",
		// Width, case and script look-alikes are the name they look like.
		"ＢＯＢ": "bob", "BOB": "bob", "bоb": "bob", "ΑLICE": "alice", "straße": "strasse",
	} {
		got, err := StudentName(login)
		if err != nil || got != want {
			t.Errorf("StudentName(%q) = %q, %v; want %q", login, got, err, want)
		}
	}
	for _, login := range []string{"", "___", "€€", "a-very-long-login-name-of-thirty"} {
		if got, err := StudentName(login); err == nil {
			t.Errorf("StudentName(%q) = %q, want an error", login, got)
		}
	}
}

func TestRosterBindsANameToTheFirstIdentity(t *testing.T) {
	dir := t.TempDir()
	r := NewRoster(dir)
	_, alice, err := r.Claim("alice", "SHA256:a")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(alice) != dir || !strings.HasPrefix(filepath.Base(alice), "alice@") {
		t.Fatalf("alice's directory is %s", alice)
	}
	if _, again, err := r.Claim("alice", "SHA256:a"); err != nil || again != alice {
		t.Fatalf("the owner claims again: %s, %v", again, err)
	}
	if _, _, err := r.Claim("alice", "SHA256:x"); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("another key claims alice: %v", err)
	}
	// A longer name that starts the same is another student.
	if _, _, err := r.Claim("alice-b", "SHA256:x"); err != nil {
		t.Fatalf("alice-b: %v", err)
	}
	// The binding outlives the process: it is the directory.
	if _, _, err := NewRoster(dir).Claim("alice", "SHA256:x"); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("after a restart, another key claims alice: %v", err)
	}
}

// Names that look alike are one name: the first to log in binds them
// all, and the owner logging in under a look-alike lands in their own.
func TestRosterBindsLookAlikesTogether(t *testing.T) {
	r := NewRoster(t.TempDir())
	_, bob, err := r.Claim("bob", "SHA256:bob")
	if err != nil {
		t.Fatal(err)
	}
	for _, lookAlike := range []string{"b0b", "BOB", "bob"} {
		if _, _, err := r.Claim(lookAlike, "SHA256:mallory"); !errors.Is(err, ErrNameTaken) {
			t.Errorf("an impostor claims %s: %v", lookAlike, err)
		}
	}
	if name, dir, err := r.Claim("b0b", "SHA256:bob"); err != nil || name != "bob" || dir != bob {
		t.Errorf("bob as b0b: %s %s %v; want bob's own", name, dir, err)
	}
	if LookAlike("rnike") != LookAlike("mike") || LookAlike("a1ice") != LookAlike("alice") || LookAlike("bob") == LookAlike("rob") {
		t.Error("LookAlike does not join the look-alikes, or joins what differs")
	}
}

// In password mode a name is bound to a secret its student chose; only
// that secret opens it again, and no look-alike of it can be bound.
func TestRosterKeepsASecretHashed(t *testing.T) {
	dir := t.TempDir()
	r := NewRoster(dir)
	if err := r.BindSecret("carol", "correct horse"); err != nil {
		t.Fatal(err)
	}
	if err := r.BindSecret("CAROL", "another"); !errors.Is(err, ErrNameTaken) {
		t.Fatalf("a second secret for a look-alike: %v", err)
	}
	b, ok, err := r.Bound("car0l")
	if err != nil || !ok || b.Name != "carol" || !b.Is(IdentitySecret) {
		t.Fatalf("carol's binding: %+v %v %v", b, ok, err)
	}
	if !r.CheckSecret(b, "correct horse") || r.CheckSecret(b, "Correct horse") || r.CheckSecret(b, "") {
		t.Error("CheckSecret takes a wrong secret or refuses the right one")
	}
	raw, _ := os.ReadFile(filepath.Join(b.Dir, secretFile))
	if strings.Contains(string(raw), "horse") {
		t.Error("the secret is stored as it was typed")
	}
	if name, d, err := r.Claim("carol", IdentitySecret); err != nil || name != "carol" || d != b.Dir {
		t.Errorf("carol claims her own: %s %s %v", name, d, err)
	}
}
