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

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"

	"github.com/schemalab/schemalab/lessons/locale"
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
}

// Identities that are not a key's fingerprint.
const (
	identityPassword = "password"
	identityOpen     = "open"
)

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
	msgAuthNone     = &locale.Message{ID: "classroom.authNone", Other: "a classroom needs authentication: give --allow-keys FILE (an authorized_keys file of your students' keys), --password-file FILE (a shared class password), or --open (anyone who can reach the port)"}
	msgAuthMany     = &locale.Message{ID: "classroom.authMany", Other: "choose one of --allow-keys, --password-file and --open"}
	msgAuthKeys     = &locale.Message{ID: "classroom.authKeys", Other: "keys in {{.File}}"}
	msgAuthPassword = &locale.Message{ID: "classroom.authPassword", Other: "the class password"}
	msgAuthOpen     = &locale.Message{ID: "classroom.authOpen", Other: "OPEN: anyone, any name"}
	msgUnknownKey   = &locale.Message{ID: "classroom.unknownKey", Other: "the key {{.Key}} is not on this class's list.\nSend your public key (the .pub file, e.g. ~/.ssh/id_ed25519.pub) to the instructor;\nyou can log in as soon as it is added."}
	msgWrongPass    = &locale.Message{ID: "classroom.wrongPassword", Other: "that is not the class password. Ask the instructor for it."}
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

func loadAuthorizedKeys(path string) (*authorizedKeys, error) {
	a := &authorizedKeys{path: path}
	if err := a.reload(); err != nil {
		return nil, err
	}
	if len(a.keys) == 0 {
		return nil, fmt.Errorf("--allow-keys %s holds no keys: put one public key per line (the students' ~/.ssh/id_ed25519.pub)", path)
	}
	return a, nil
}

// reload reads the file if it changed since the last read. A file that
// became unreadable or broken keeps the keys read before, so a half-saved
// edit does not lock the class out.
func (a *authorizedKeys) reload() error {
	info, err := os.Stat(a.path)
	if err != nil {
		return fmt.Errorf("--allow-keys: %w", err)
	}
	if a.keys != nil && info.ModTime().Equal(a.modTime) && info.Size() == a.size {
		return nil
	}
	raw, err := os.ReadFile(a.path)
	if err != nil {
		return fmt.Errorf("--allow-keys: %w", err)
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
			return nil, fmt.Errorf("--allow-keys %s, line %d: not a public key (%v); each line must look like \"ssh-ed25519 AAAA… name\"", path, line, err)
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

func permissions(identity string) *gossh.Permissions {
	return &gossh.Permissions{Extensions: map[string]string{identityExtension: identity}}
}

// serverConfig is the SSH server configuration for one connection. The
// callbacks are set here rather than through wish's options so that a
// refusal can carry a banner saying why (gossh.BannerError).
func (s *Server) serverConfig(ssh.Context) *gossh.ServerConfig {
	cfg := &gossh.ServerConfig{}
	switch {
	case s.keys != nil:
		cfg.PublicKeyCallback = func(conn gossh.ConnMetadata, key gossh.PublicKey) (*gossh.Permissions, error) {
			fp := gossh.FingerprintSHA256(key)
			if !s.keys.allows(key) {
				s.log.Printf("refused key %s for %s from %s: not in %s", fp, conn.User(), conn.RemoteAddr(), s.cfg.Auth.AllowKeysFile)
				return nil, &gossh.BannerError{Err: errRefused, Message: s.banner(msgUnknownKey, map[string]any{"Key": fp})}
			}
			return permissions(fp), nil
		}
	case s.cfg.Auth.Password != "":
		cfg.PasswordCallback = func(conn gossh.ConnMetadata, password []byte) (*gossh.Permissions, error) {
			if subtle.ConstantTimeCompare(password, []byte(s.cfg.Auth.Password)) != 1 {
				s.log.Printf("refused a wrong password for %s from %s", conn.User(), conn.RemoteAddr())
				return nil, &gossh.BannerError{Err: errRefused, Message: s.banner(msgWrongPass, nil)}
			}
			return permissions(identityPassword), nil
		}
	default: // Open
		cfg.NoClientAuth = true
		cfg.NoClientAuthCallback = func(gossh.ConnMetadata) (*gossh.Permissions, error) {
			return permissions(identityOpen), nil
		}
	}
	return cfg
}

// identityOf is the identity authentication gave the session.
func identityOf(sess ssh.Session) string {
	return sess.Permissions().Extensions[identityExtension]
}
