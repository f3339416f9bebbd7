package classroom

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/schemalab/schemalab/lessons/locale"
)

// MaxNameLen bounds a student name, so that <name>_<lesson> stays well
// inside MongoDB's 63-byte database names.
const MaxNameLen = 24

// StudentName turns a login name into the name a student is known by and
// whose "<name>_" prefixes their databases: lower case (MongoDB refuses
// two database names that differ only in case), letters and digits, with
// every other run of characters made one "-". An underscore can therefore
// never appear in a name, so no student's prefix is the beginning of
// another's ("bob_" would otherwise cover "bob_x_outlier").
func StudentName(login string) (string, error) {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(login) {
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
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

// Roster gives every student a state directory (their progress) named
// for them and for the identity they log in with (a key fingerprint):
// "alice@3f9a2c1d0b4e". The directory's existence binds the name to that
// identity, so two people cannot share a name, and with it a database
// prefix and progress, also after a restart of the classroom. It is safe
// for concurrent use by one process.
type Roster struct {
	dir string
	mu  sync.Mutex
}

// NewRoster keeps the students' directories in dir.
func NewRoster(dir string) *Roster { return &Roster{dir: dir} }

// Claim returns the state directory of name for identity, creating it if
// the name is free. A name whose directory belongs to another identity
// fails with ErrNameTaken.
func (r *Roster) Claim(name, identity string) (string, error) {
	sum := sha256.Sum256([]byte(identity))
	own := name + "@" + hex.EncodeToString(sum[:6])
	r.mu.Lock()
	defer r.mu.Unlock()
	// "@" appears in no name, so the pattern matches this name's
	// directories only.
	existing, err := filepath.Glob(filepath.Join(r.dir, name+"@*"))
	if err != nil {
		return "", err
	}
	for _, d := range existing {
		if filepath.Base(d) != own {
			return "", fmt.Errorf("%w: %q is used by someone else in this class", ErrNameTaken, name)
		}
	}
	path := filepath.Join(r.dir, own)
	if err := os.MkdirAll(path, 0o700); err != nil {
		return "", fmt.Errorf("a place for %s's progress: %w", name, err)
	}
	return path, nil
}
