package classroom

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mtibben/confusables"
	"golang.org/x/crypto/scrypt"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/lessons/safefile"
)

// MaxNameLen bounds a student name, so that <name>_<lesson> stays well
// inside MongoDB's 63-byte database names.
const MaxNameLen = 24

// StudentName turns a login name into the name a student is known by and
// whose "<name>_" prefixes their databases: in NFKC and case folded (so
// "ＢＯＢ" and "BOB" are "bob"; MongoDB refuses two database names that
// differ only in case), its letters taken to the Latin letters they look
// like where there is one (Cyrillic "bоb" is "bob"), letters and digits
// only, with every other run of characters made one "-". An underscore
// can therefore never appear in a name, so no student's prefix is the
// beginning of another's ("bob_" would otherwise cover "bob_x_outlier").
func StudentName(login string) (string, error) {
	var b strings.Builder
	dash := false
	for _, c := range cases.Fold().String(norm.NFKC.String(login)) {
		if c >= 0x80 {
			// A letter that looks like one Latin letter or digit is it.
			if sk := strings.ToLower(confusables.Skeleton(string(c))); len(sk) == 1 && isNameByte(sk[0]) {
				c = rune(sk[0])
			}
		}
		switch {
		case c < 0x80 && isNameByte(byte(c)):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(c)
		default:
			dash = true
		}
	}
	name := b.String()
	if name == "" {
		return "", &NameError{Login: login}
	}
	if len(name) > MaxNameLen {
		return "", &NameError{Login: login, TooLong: true}
	}
	return name, nil
}

func isNameByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// LookAlike is what a student name looks like: its confusables skeleton
// (Unicode TS #39), lower case, letters and digits only. Two names with
// one LookAlike ("bob" and "b0b", "mike" and "rnike", "al1ce" and
// "alice") would be told apart by no one reading the dashboard, so they
// are one name in the roster: the first to log in binds it.
func LookAlike(name string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(confusables.Skeleton(name)) {
		if c < 0x80 && isNameByte(byte(c)) {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// NameError is a login name no student name can be made of.
type NameError struct {
	Login string
	// TooLong is set for a name over MaxNameLen; else it has no letters
	// or digits.
	TooLong bool
}

var (
	msgNameEmpty   = &locale.Message{ID: "classroom.nameEmpty", Other: `the login name "{{.Login}}" has no letters or digits; log in as your own name, e.g. ssh alice@HOST`}
	msgNameTooLong = &locale.Message{ID: "classroom.nameTooLong", Other: `the login name "{{.Login}}" is longer than {{.Max}} letters; log in with a shorter name`}
)

func (e *NameError) Error() string { return e.Text(locale.English()) }

// Text is the error in l's language.
func (e *NameError) Text(l *locale.Localizer) string {
	if e.TooLong {
		return l.T(msgNameTooLong, map[string]any{"Login": e.Login, "Max": MaxNameLen})
	}
	return l.T(msgNameEmpty, map[string]any{"Login": e.Login})
}

// ErrNameTaken is returned by Claim for a name that belongs to someone else.
var ErrNameTaken = errors.New("name taken")

// Identities of the logins that are not a key's fingerprint.
const (
	// IdentitySecret is a login with the class password and a personal
	// secret, which the roster keeps (BindSecret).
	IdentitySecret = "secret"
	// IdentityOpen is a login to an open classroom, which proves nothing.
	IdentityOpen = "open"
	// IdentityPassword is the class password alone, which classrooms of
	// an earlier version bound names to; the first login with a key or a
	// secret takes such a name over.
	IdentityPassword = "password"
)

// secretFile, in a student's directory, keeps their personal secret's
// hash.
const secretFile = "secret"

// Roster gives every student a state directory (their progress) named
// for them and for the identity they log in with: "alice@3f9a2c1d0b4e",
// a hash of a key's fingerprint or of "secret". The directory's existence
// binds the name, and every name that looks like it (LookAlike), to that
// identity, so that two people cannot share a name, and with it a
// database prefix and progress, also after a restart of the classroom.
// It is safe for concurrent use by one process.
type Roster struct {
	dir string
	mu  sync.Mutex
}

// NewRoster keeps the students' directories in dir.
func NewRoster(dir string) *Roster { return &Roster{dir: dir} }

// Binding is a name bound to an identity.
type Binding struct {
	// Name is the name as it was first bound; Dir its directory.
	Name, Dir string
	tag       string
}

// Is reports whether the binding is to identity.
func (b Binding) Is(identity string) bool { return b.tag == tagOf(identity) }

func tagOf(identity string) string {
	sum := sha256.Sum256([]byte(identity))
	return hex.EncodeToString(sum[:6])
}

// Bound returns the binding of name or of a name that looks like it; ok
// is false when there is none.
func (r *Roster) Bound(name string) (b Binding, ok bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.boundLocked(name)
}

func (r *Roster) boundLocked(name string) (Binding, bool, error) {
	entries, err := os.ReadDir(r.dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Binding{}, false, err
	}
	want := LookAlike(name)
	var found *Binding
	for _, e := range entries {
		n, tag, ok := strings.Cut(e.Name(), "@")
		if !ok || !e.IsDir() || LookAlike(n) != want {
			continue
		}
		b := Binding{Name: n, Dir: filepath.Join(r.dir, e.Name()), tag: tag}
		// The exact name first, should two look-alikes predate this rule.
		if found == nil || n == name {
			found = &b
		}
	}
	if found == nil {
		return Binding{}, false, nil
	}
	return *found, true, nil
}

// Claim returns the name a login is known by and its state directory:
// the binding of name or of a look-alike if it is identity's, else a new
// binding of name to identity if there is none. A name bound to another
// identity fails with ErrNameTaken.
func (r *Roster) Claim(name, identity string) (bound, dir string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	b, ok, err := r.boundLocked(name)
	if err != nil {
		return "", "", err
	}
	switch {
	case ok && b.Is(identity):
		return b.Name, b.Dir, nil
	case ok && b.Is(IdentityPassword) && identity != IdentityOpen:
		// Bound by an earlier classroom to the class password alone:
		// the first login that proves more takes it, progress and all.
		path := filepath.Join(r.dir, b.Name+"@"+tagOf(identity))
		if err := os.Rename(b.Dir, path); err != nil {
			return "", "", err
		}
		return b.Name, path, nil
	case ok:
		return "", "", fmt.Errorf("%w: %q is used by someone else in this class", ErrNameTaken, b.Name)
	}
	path := filepath.Join(r.dir, name+"@"+tagOf(identity))
	if err := os.MkdirAll(path, 0o700); err != nil {
		return "", "", fmt.Errorf("a place for %s's progress: %w", name, err)
	}
	return name, path, nil
}

// BindSecret binds name, if no look-alike of it is bound yet, to the
// personal secret a student chose at their first login, keeping only a
// salted scrypt hash of it.
func (r *Roster) BindSecret(name, secret string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	b, ok, err := r.boundLocked(name)
	if err != nil {
		return err
	}
	if ok && !b.Is(IdentityPassword) {
		return fmt.Errorf("%w: %q is used by someone else in this class", ErrNameTaken, b.Name)
	}
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return err
	}
	hash, err := hashSecret(secret, salt)
	if err != nil {
		return err
	}
	path := filepath.Join(r.dir, name+"@"+tagOf(IdentitySecret))
	if ok {
		// Bound by an earlier classroom to the class password alone.
		path = filepath.Join(r.dir, b.Name+"@"+tagOf(IdentitySecret))
		if err := os.Rename(b.Dir, path); err != nil {
			return err
		}
	}
	if err := os.MkdirAll(path, 0o700); err != nil {
		return fmt.Errorf("a place for %s's progress: %w", name, err)
	}
	return os.WriteFile(filepath.Join(path, secretFile), []byte(hex.EncodeToString(salt)+" "+hex.EncodeToString(hash)+"\n"), 0o600)
}

// CheckSecret reports whether secret is the one b is bound to.
func (r *Roster) CheckSecret(b Binding, secret string) bool {
	if !b.Is(IdentitySecret) {
		return false
	}
	raw, err := safefile.Read(filepath.Join(b.Dir, secretFile), 1<<10)
	if err != nil {
		return false
	}
	saltHex, hashHex, ok := strings.Cut(strings.TrimSpace(string(raw)), " ")
	salt, err1 := hex.DecodeString(saltHex)
	want, err2 := hex.DecodeString(hashHex)
	if !ok || err1 != nil || err2 != nil {
		return false
	}
	got, err := hashSecret(secret, salt)
	return err == nil && subtle.ConstantTimeCompare(got, want) == 1
}

// hashSecret is scrypt at a cost of about 20 ms: enough to make a stolen
// roster slow to guess from, cheap enough that the logins of a room, and
// the guesses MaxAuthTries lets one connection make, cost little.
func hashSecret(secret string, salt []byte) ([]byte, error) {
	return scrypt.Key([]byte(secret), salt, 1<<14, 8, 1, 32)
}
