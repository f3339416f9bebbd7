package classroom

import (
	"bufio"
	"bytes"
	"crypto/subtle"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	room "github.com/schemalab/schemalab/lessons/classroom"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/lessons/safefile"
	"github.com/schemalab/schemalab/tui/termsafe"
)

// Auth is how students prove they belong to the class: exactly one of an
// authorized_keys file, a shared class password, or nothing at all (Open).
type Auth struct {
	// AllowKeysFile is an OpenSSH authorized_keys file. It is read again
	// when it changes, so a student's key can be added during the class.
	AllowKeysFile string
	// Password is the shared class password.
	Password string
	// Open lets anyone in, under any name.
	Open bool
	// InstructorKeysFile is an authorized_keys file of the keys that may
	// log in under the instructor's name (Config.Instructor), in every
	// mode: the only way to the dashboard over SSH.
	InstructorKeysFile string
}

// identityExtension carries the login's identity (a key fingerprint,
// "password" or "open") from authentication to the session.
const identityExtension = "schemalab-identity"

// Validate checks that exactly one way of logging in is chosen.
func (a Auth) Validate() error {
	n := 0
	for _, set := range []bool{a.AllowKeysFile != "", a.Password != "", a.Open} {
		if set {
			n++
		}
	}
	switch {
	case n == 0:
		return authError{msgAuthNone}
	case n > 1:
		return authError{msgAuthMany}
	}
	return nil
}

var (
	msgAuthNone         = &locale.Message{ID: "classroom.authNone", Other: "a classroom needs authentication: give --allow-keys FILE (an authorized_keys file of your students' keys), --password-file FILE (a shared class password), or --open (anyone who can reach the port)"}
	msgAuthMany         = &locale.Message{ID: "classroom.authMany", Other: "choose one of --allow-keys, --password-file and --open"}
	msgAuthKeys         = &locale.Message{ID: "classroom.authKeys", Other: "keys in {{.File}}"}
	msgAuthPassword     = &locale.Message{ID: "classroom.authPassword", Other: "the class password"}
	msgAuthOpen         = &locale.Message{ID: "classroom.authOpen", Other: "OPEN: anyone, any name"}
	msgUnknownKey       = &locale.Message{ID: "classroom.unknownKey", Other: "the key {{.Key}} is not on this class's list.\nSend your public key (the .pub file, e.g. ~/.ssh/id_ed25519.pub) to the instructor;\nyou can log in as soon as it is added."}
	msgWrongPass        = &locale.Message{ID: "classroom.wrongPassword", Other: "that is not the class password. Ask the instructor for it."}
	msgNotInstructorKey = &locale.Message{ID: "classroom.notInstructorKey", Other: "the name \"{{.Name}}\" is the instructor's, and only the instructor's keys may use it; log in with your own name"}
	msgBoundToKey       = &locale.Message{ID: "classroom.boundToKey", Other: "the name \"{{.Name}}\" is bound to the key it first logged in with; log in from the computer that has that key (ssh offers it), or with your own name"}
	msgWrongSecret      = &locale.Message{ID: "classroom.wrongSecret", Other: "that is not the personal secret of \"{{.Name}}\". If the name is not yours, log in with your own; if you forgot your secret, ask the instructor"}
	msgBadNewSecret     = &locale.Message{ID: "classroom.badNewSecret", Other: "the two secrets differ, or are shorter than {{.Min}} characters; log in again to choose one"}
	msgFirstLogin       = &locale.Message{ID: "classroom.firstLogin", Other: "First login as {{.Name}}: choose a personal secret of at least {{.Min}} characters. The name is yours from now on, and the secret is what you type (with the class password) to log in as {{.Name}} again."}
	msgPromptPassword   = &locale.Message{ID: "classroom.promptPassword", Other: "class password: "}
	msgPromptSecret     = &locale.Message{ID: "classroom.promptSecret", Other: "your personal secret: "}
	msgPromptNewSecret  = &locale.Message{ID: "classroom.promptNewSecret", Other: "choose a personal secret: "}
	msgPromptAgain      = &locale.Message{ID: "classroom.promptAgain", Other: "the same secret again: "}
)

// authError is a configuration without exactly one way of logging in.
type authError struct{ m *locale.Message }

func (e authError) Error() string                   { return e.Text(locale.English()) }
func (e authError) Text(l *locale.Localizer) string { return l.T(e.m, nil) }

// Describe says in a few words how students log in, for the dashboard.
func (a Auth) Describe(l *locale.Localizer) string {
	switch {
	case a.AllowKeysFile != "":
		return l.T(msgAuthKeys, map[string]any{"File": a.AllowKeysFile})
	case a.Password != "":
		return l.T(msgAuthPassword, nil)
	}
	return l.T(msgAuthOpen, nil)
}

// authorizedKeys is an authorized_keys file, re-read when it changes.
type authorizedKeys struct {
	path string

	mu      sync.Mutex
	modTime time.Time
	size    int64
	keys    map[string]bool // by the key's wire form
}

// maxKeysFile bounds an authorized_keys file: a class's keys are a few
// hundred bytes each.
const maxKeysFile = 4 << 20

func loadAuthorizedKeys(path string) (*authorizedKeys, error) {
	a := &authorizedKeys{path: path}
	if err := a.reload(); err != nil {
		return nil, err
	}
	if len(a.keys) == 0 {
		return nil, fmt.Errorf("%s holds no keys: put one public key per line (the students' ~/.ssh/id_ed25519.pub)", path)
	}
	return a, nil
}

// reload reads the file if it changed since the last read. A file that
// became unreadable, broken, or other than a regular file keeps the keys
// read before, so a half-saved edit does not lock the class out.
func (a *authorizedKeys) reload() error {
	info, err := os.Stat(a.path)
	if err != nil {
		return err
	}
	if a.keys != nil && info.ModTime().Equal(a.modTime) && info.Size() == a.size {
		return nil
	}
	raw, err := safefile.Read(a.path, maxKeysFile)
	if err != nil {
		return err
	}
	keys, err := parseAuthorizedKeys(a.path, raw)
	if err != nil {
		return err
	}
	a.keys, a.modTime, a.size = keys, info.ModTime(), info.Size()
	return nil
}

func parseAuthorizedKeys(path string, raw []byte) (map[string]bool, error) {
	keys := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		key, _, _, _, err := gossh.ParseAuthorizedKey([]byte(text))
		if err != nil {
			return nil, fmt.Errorf("%s, line %d: not a public key (%v); each line must look like \"ssh-ed25519 AAAA… name\"", path, line, err)
		}
		keys[string(key.Marshal())] = true
	}
	return keys, sc.Err()
}

func (a *authorizedKeys) allows(key gossh.PublicKey) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	_ = a.reload() // on error the keys read before still hold
	return a.keys[string(key.Marshal())]
}

// banner is a message a client sees when it is turned away, in the
// classroom's language: authentication comes before the session that
// could say the student's own. It goes out as an SSH authentication
// banner, which ssh prints before "Permission denied".
func (s *Server) banner(m *locale.Message, data map[string]any) string {
	return "schemalab classroom: " + strings.ReplaceAll(s.loc.T(m, data), "\n", "\r\n") + "\r\n"
}

var errRefused = errors.New("schemalab classroom: authentication refused")

// refusal is a refused authentication with a banner saying why.
func (s *Server) refusal(m *locale.Message, data map[string]any) error {
	return &gossh.BannerError{Err: errRefused, Message: s.banner(m, data)}
}

func permissions(identity string) *gossh.Permissions {
	return &gossh.Permissions{Extensions: map[string]string{identityExtension: identity}}
}

// Personal secrets are this long at least, and at most.
const (
	minSecret = 6
	maxSecret = 256
)

// isInstructor reports whether a login name is the instructor's, or
// looks like it.
func (s *Server) isInstructor(login string) bool {
	name, err := room.StudentName(login)
	return err == nil && s.instructorLogin && room.LookAlike(name) == room.LookAlike(s.instructor)
}

// serverConfig is the SSH server configuration for one connection. The
// callbacks are set here rather than through wish's options so that a
// refusal can carry a banner saying why (gossh.BannerError). Whatever the
// mode, only the instructor's keys log in under the instructor's name.
func (s *Server) serverConfig(ctx ssh.Context) *gossh.ServerConfig {
	st, _ := ctx.Value(startupKey).(*startup)
	cfg := &gossh.ServerConfig{
		AuthLogCallback: func(conn gossh.ConnMetadata, method string, err error) {
			if err == nil && st != nil && !s.startups.authenticated(st, conn.User()) {
				s.log.Printf("closed a connection of %q from %s: too many connections", termsafe.Line(conn.User()), conn.RemoteAddr())
				st.conn.Close()
			}
		},
	}
	instructorKey := func(conn gossh.ConnMetadata, key gossh.PublicKey) (*gossh.Permissions, error) {
		fp := gossh.FingerprintSHA256(key)
		if s.instructorKeys == nil || !s.instructorKeys.allows(key) {
			s.log.Printf("refused key %s for the instructor's name %q from %s", fp, termsafe.Line(conn.User()), conn.RemoteAddr())
			return nil, s.refusal(msgNotInstructorKey, map[string]any{"Name": s.instructor})
		}
		return permissions(fp), nil
	}
	switch {
	case s.keys != nil:
		cfg.PublicKeyCallback = func(conn gossh.ConnMetadata, key gossh.PublicKey) (*gossh.Permissions, error) {
			if s.isInstructor(conn.User()) {
				return instructorKey(conn, key)
			}
			fp := gossh.FingerprintSHA256(key)
			if !s.keys.allows(key) {
				s.log.Printf("refused key %s for %q from %s: not in %s", fp, termsafe.Line(conn.User()), conn.RemoteAddr(), s.cfg.Auth.AllowKeysFile)
				return nil, s.refusal(msgUnknownKey, map[string]any{"Key": fp})
			}
			return permissions(fp), nil
		}
	case s.cfg.Auth.Password != "":
		cfg.PublicKeyCallback = s.passwordModeKey(instructorKey)
		cfg.KeyboardInteractiveCallback = s.passwordAndSecret
	default: // Open
		cfg.NoClientAuth = true
		cfg.NoClientAuthCallback = func(conn gossh.ConnMetadata) (*gossh.Permissions, error) {
			if s.isInstructor(conn.User()) {
				// The instructor's ssh goes on to offer its key.
				return nil, errRefused
			}
			return permissions(room.IdentityOpen), nil
		}
		cfg.PublicKeyCallback = func(conn gossh.ConnMetadata, key gossh.PublicKey) (*gossh.Permissions, error) {
			if s.isInstructor(conn.User()) {
				return instructorKey(conn, key)
			}
			return permissions(room.IdentityOpen), nil
		}
	}
	return cfg
}

// passwordModeKey takes a key in password mode: it proves who the student
// is (the name is bound to it), and the class password that follows, that
// they are in the class. A key that is not the one the name is bound to is
// declined without a banner, so that ssh offers its next one, and then
// asks for the name's secret.
func (s *Server) passwordModeKey(instructorKey func(gossh.ConnMetadata, gossh.PublicKey) (*gossh.Permissions, error)) func(gossh.ConnMetadata, gossh.PublicKey) (*gossh.Permissions, error) {
	return func(conn gossh.ConnMetadata, key gossh.PublicKey) (*gossh.Permissions, error) {
		if s.isInstructor(conn.User()) {
			return instructorKey(conn, key)
		}
		fp := gossh.FingerprintSHA256(key)
		name, err := room.StudentName(conn.User())
		if err != nil {
			return nil, errRefused
		}
		if b, ok, err := s.roster.Bound(name); err != nil || ok && !b.Is(fp) && !b.Is(room.IdentityPassword) {
			return nil, errRefused
		}
		return nil, &gossh.PartialSuccessError{Next: gossh.ServerAuthCallbacks{
			PasswordCallback: func(conn gossh.ConnMetadata, password []byte) (*gossh.Permissions, error) {
				if !s.classPassword(conn, password) {
					return nil, s.refusal(msgWrongPass, nil)
				}
				return permissions(fp), nil
			},
			KeyboardInteractiveCallback: func(conn gossh.ConnMetadata, ask gossh.KeyboardInteractiveChallenge) (*gossh.Permissions, error) {
				answers, err := ask("", "", []string{s.loc.T(msgPromptPassword, nil)}, []bool{false})
				if err != nil || len(answers) != 1 || !s.classPassword(conn, []byte(answers[0])) {
					return nil, s.refusal(msgWrongPass, nil)
				}
				return permissions(fp), nil
			},
		}}
	}
}

func (s *Server) classPassword(conn gossh.ConnMetadata, password []byte) bool {
	if subtle.ConstantTimeCompare(password, []byte(s.cfg.Auth.Password)) != 1 {
		s.log.Printf("refused a wrong password for %q from %s", termsafe.Line(conn.User()), conn.RemoteAddr())
		return false
	}
	return true
}

// passwordAndSecret logs a student in with the class password and their
// personal secret, asked for together (keyboard-interactive): at the
// first login under a name, the student chooses the secret, which binds
// the name (and its look-alikes) to it.
func (s *Server) passwordAndSecret(conn gossh.ConnMetadata, ask gossh.KeyboardInteractiveChallenge) (*gossh.Permissions, error) {
	if s.isInstructor(conn.User()) {
		return nil, s.refusal(msgNotInstructorKey, map[string]any{"Name": s.instructor})
	}
	name, err := room.StudentName(conn.User())
	if err != nil {
		return nil, &gossh.BannerError{Err: errRefused, Message: "schemalab classroom: " + termsafe.Line(s.loc.Error(err)) + "\r\n"}
	}
	b, bound, err := s.roster.Bound(name)
	if err != nil {
		return nil, err
	}
	switch {
	case bound && b.Is(room.IdentitySecret):
		answers, err := ask("", "", []string{s.loc.T(msgPromptPassword, nil), s.loc.T(msgPromptSecret, nil)}, []bool{false, false})
		if err != nil || len(answers) != 2 || !s.classPassword(conn, []byte(answers[0])) {
			return nil, s.refusal(msgWrongPass, nil)
		}
		if !s.roster.CheckSecret(b, answers[1]) {
			s.log.Printf("refused a wrong secret for %q from %s", termsafe.Line(conn.User()), conn.RemoteAddr())
			return nil, s.refusal(msgWrongSecret, map[string]any{"Name": b.Name})
		}
		return permissions(room.IdentitySecret), nil
	case bound && !b.Is(room.IdentityPassword):
		s.log.Printf("refused %q from %s: the name is bound to a key", termsafe.Line(conn.User()), conn.RemoteAddr())
		return nil, s.refusal(msgBoundToKey, map[string]any{"Name": b.Name})
	}
	answers, err := ask("", s.loc.T(msgFirstLogin, map[string]any{"Name": name, "Min": minSecret}),
		[]string{s.loc.T(msgPromptPassword, nil), s.loc.T(msgPromptNewSecret, nil), s.loc.T(msgPromptAgain, nil)}, []bool{false, false, false})
	if err != nil || len(answers) != 3 || !s.classPassword(conn, []byte(answers[0])) {
		return nil, s.refusal(msgWrongPass, nil)
	}
	secret := answers[1]
	if secret != answers[2] || utf8.RuneCountInString(secret) < minSecret || len(secret) > maxSecret {
		return nil, s.refusal(msgBadNewSecret, map[string]any{"Min": minSecret})
	}
	if err := s.roster.BindSecret(name, secret); err != nil {
		if errors.Is(err, room.ErrNameTaken) {
			return nil, s.refusal(msgWrongSecret, map[string]any{"Name": name})
		}
		return nil, err
	}
	s.log.Printf("%s chose a personal secret at their first login, from %s", name, conn.RemoteAddr())
	return permissions(room.IdentitySecret), nil
}

// identityOf is the identity authentication gave the session.
func identityOf(sess ssh.Session) string {
	return sess.Permissions().Extensions[identityExtension]
}
