package classroom

import (
	"strings"
	"testing"
	"time"
)

// In password mode the class password lets a student in, and the first
// login under a name binds it to the student's personal secret or key: an
// impostor who knows the class password, under the name or a look-alike
// of it, is refused, and the owner's session goes on.
func TestPasswordModeBindsANameAtItsFirstLogin(t *testing.T) {
	srv := startClassroom(t, Config{Auth: Auth{Password: "class pw"}})
	bob := login(t, srv.Addr(), loginOptions{user: "bob", password: "class pw", secret: "bob's secret"})
	bob.waitFor(`Lessons`, 30*time.Second)
	for _, impostor := range []string{"bob", "BOB", "b0b", "bоb" /* Cyrillic о */, "ｂｏｂ"} {
		_, banners, err := dialSSH(srv.Addr(), loginOptions{user: impostor, password: "class pw", secret: "a guess!"})
		if err == nil {
			t.Fatalf("%q got in with the class password and a wrong secret", impostor)
		}
		if !strings.Contains(banners, `that is not the personal secret of "bob"`) {
			t.Errorf("%q was told %q", impostor, banners)
		}
	}
	select {
	case <-bob.ended:
		t.Fatalf("bob's session ended: %s", bob.told())
	default:
	}
	// Bob himself, under a look-alike, lands in his own session.
	again := login(t, srv.Addr(), loginOptions{user: "BOB", password: "class pw", secret: "bob's secret"})
	again.waitFor(`Lessons`, 30*time.Second)
	bob.wait(30 * time.Second)

	// A student with a key binds the name to it: no key, no entry.
	carol := newKey(t)
	login(t, srv.Addr(), loginOptions{user: "carol", key: carol, password: "class pw"}).waitFor(`Lessons`, 30*time.Second)
	_, banners, err := dialSSH(srv.Addr(), loginOptions{user: "Carol", password: "class pw", secret: "whatever"})
	if err == nil || !strings.Contains(banners, `the name "carol" is bound to the key it first logged in with`) {
		t.Fatalf("carol's name without her key: err=%v, told %q", err, banners)
	}
	if _, _, err := dialSSH(srv.Addr(), loginOptions{user: "carol", key: newKey(t), password: "class pw", secret: "whatever"}); err == nil {
		t.Fatal("carol's name with another key got in")
	}
	// A key alone is not the class password.
	if _, _, err := dialSSH(srv.Addr(), loginOptions{user: "dave", key: newKey(t)}); err == nil {
		t.Fatal("a key without the class password got in")
	}
	// A secret too short, or typed differently twice, binds nothing.
	_, banners, err = dialSSH(srv.Addr(), loginOptions{user: "erin", password: "class pw", secret: "123"})
	if err == nil || !strings.Contains(banners, "the two secrets differ, or are shorter than 6") {
		t.Fatalf("a short secret: err=%v, told %q", err, banners)
	}
	login(t, srv.Addr(), loginOptions{user: "erin", password: "class pw", secret: "long enough"}).waitFor(`Lessons`, 30*time.Second)
}

// Only the keys of --instructor-keys log in under the instructor's name,
// or a look-alike of it, whatever the mode.
func TestOnlyTheInstructorsKeysGetTheDashboard(t *testing.T) {
	alice, teacher, other := newKey(t), newKey(t), newKey(t)
	instructorKeys := allowKeys(t, teacher)
	for _, mode := range []struct {
		name string
		auth Auth
	}{
		{"keys", Auth{AllowKeysFile: allowKeys(t, alice, other), InstructorKeysFile: instructorKeys}},
		{"password", Auth{Password: "class pw", InstructorKeysFile: instructorKeys}},
		{"open", Auth{Open: true, InstructorKeysFile: instructorKeys}},
	} {
		t.Run(mode.name, func(t *testing.T) {
			srv := startClassroom(t, Config{Auth: mode.auth, Instructor: "teacher"})
			for _, name := range []string{"teacher", "Teacher", "tеacher" /* Cyrillic е */, "TEACHER"} {
				for _, o := range []loginOptions{{key: other}, {password: "class pw", secret: "mine mine"}, {}} {
					o.user = name
					c, banners, err := dialSSH(srv.Addr(), o)
					if err == nil {
						c.Close()
						t.Fatalf("%q got in as the instructor with %+v", name, o)
					}
					if o.key != nil && !strings.Contains(banners, `the name "teacher" is the instructor's, and only the instructor's keys`) {
						t.Errorf("%q with another key was told %q", name, banners)
					}
				}
			}
			dash := login(t, srv.Addr(), loginOptions{user: "teacher", key: teacher})
			dash.waitFor(`Nothing announced`, 30*time.Second)
		})
	}
}

// A login name made of escape sequences, sent with a key that is not on
// the list (Go's client sends what OpenSSH's refuses to), reaches the
// log disarmed: it cannot retitle or recolour the instructor's terminal.
func TestRefusedLoginNamesReachTheLogDisarmed(t *testing.T) {
	var log syncBuffer
	srv := startClassroom(t, Config{Auth: Auth{AllowKeysFile: allowKeys(t, newKey(t))}, Log: &log})
	evil := "\x1b]0;owned\x07\x1b[41mred\x1b[2J"
	if _, _, err := dialSSH(srv.Addr(), loginOptions{user: evil, key: newKey(t)}); err == nil {
		t.Fatal("an unknown key got in")
	}
	got := log.String()
	if !strings.Contains(got, `for "�]0;owned�`) {
		t.Fatalf("the refusal is not logged with the name disarmed: %q", got)
	}
	if strings.ContainsAny(got, "\x1b\x07") {
		t.Fatalf("the log holds control characters: %q", got)
	}
}
