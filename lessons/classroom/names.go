package classroom

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
		return "", fmt.Errorf("the login name %q has no letters or digits; log in as your own name, e.g. ssh alice@HOST", login)
	}
	if len(name) > MaxNameLen {
		return "", fmt.Errorf("the login name %q is longer than %d letters; log in with a shorter name", login, MaxNameLen)
	}
	return name, nil
}

// ErrNameTaken is returned by Claim for a name that belongs to someone else.
var ErrNameTaken = errors.New("name taken")

// Names binds every student name to the identity that used it first (a
// key fingerprint), so that two people cannot share a name and with it a
// database prefix and progress. The bindings are kept in a JSON file so
// that they outlive a restart of the classroom (databases on a real
// server do too). It is safe for concurrent use.
type Names struct {
	path string

	mu     sync.Mutex
	owners map[string]string
}

// OpenNames reads the bindings kept at path; a missing file is an empty
// set of bindings.
func OpenNames(path string) (*Names, error) {
	n := &Names{path: path, owners: map[string]string{}}
	raw, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return n, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the classroom's names: %w", err)
	}
	if err := json.Unmarshal(raw, &n.owners); err != nil {
		return nil, fmt.Errorf("the classroom's names in %s are unreadable (%v); move the file away to start over", path, err)
	}
	if n.owners == nil {
		n.owners = map[string]string{}
	}
	return n, nil
}

// Claim binds name to identity if it is free, and succeeds if it is
// already bound to identity. A name bound to another identity fails with
// ErrNameTaken.
func (n *Names) Claim(name, identity string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch owner, ok := n.owners[name]; {
	case ok && owner == identity:
		return nil
	case ok:
		return fmt.Errorf("%w: %q is used by someone else in this class", ErrNameTaken, name)
	}
	n.owners[name] = identity
	if err := n.saveLocked(); err != nil {
		delete(n.owners, name)
		return err
	}
	return nil
}

// Owner returns the identity name is bound to, or "".
func (n *Names) Owner(name string) string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.owners[name]
}

func (n *Names) saveLocked() error {
	raw, err := json.MarshalIndent(n.owners, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(n.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("save the classroom's names: %w", err)
	}
	tmp, err := os.CreateTemp(dir, filepath.Base(n.path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("save the classroom's names: %w", err)
	}
	_, werr := tmp.Write(append(raw, '\n'))
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), n.path)
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("save the classroom's names: %w", werr)
	}
	return nil
}
