package sandbox

import (
	"errors"
	"fmt"
	"strings"
)

// DefaultPrefix is put before a lesson's id to name its database; it
// matches lessons.DefaultPrefix.
const DefaultPrefix = "schemalab_"

// maxDBNameBytes is MongoDB's limit on a database name (64 bytes including
// the terminating NUL).
const maxDBNameBytes = 63

// ErrOutsideSandbox matches (errors.Is) every refusal of CheckDB.
var ErrOutsideSandbox = errors.New("database outside the sandbox")

// OutsideSandboxError is CheckDB's refusal.
type OutsideSandboxError struct {
	Database string
	Prefix   string
	// System is set for admin, local and config, refused whatever the
	// prefix.
	System bool
}

func (e *OutsideSandboxError) Error() string {
	if e.System {
		return fmt.Sprintf("schemalab: refusing to use database %q: it is a system database, outside the sandbox prefix %q (pass --unsafe-any-db to allow)", e.Database, e.Prefix)
	}
	return fmt.Sprintf("schemalab: refusing to use database %q: outside the sandbox prefix %q (pass --unsafe-any-db to allow)", e.Database, e.Prefix)
}

// Is makes errors.Is(err, ErrOutsideSandbox) true.
func (e *OutsideSandboxError) Is(target error) bool { return target == ErrOutsideSandbox }

// ValidatePrefix checks that a --db-prefix can start database names.
func ValidatePrefix(prefix string) error {
	if prefix == "" {
		return errors.New("--db-prefix must not be empty")
	}
	if i := strings.IndexAny(prefix, "/\\. \"$\x00*<>:|?"); i >= 0 {
		return fmt.Errorf("--db-prefix %q cannot be used: database names cannot contain %q", prefix, prefix[i])
	}
	if len(prefix) >= maxDBNameBytes {
		return fmt.Errorf("--db-prefix %q is too long: database names are limited to %d bytes", prefix, maxDBNameBytes)
	}
	return nil
}

// Prefix is the database prefix of this sandbox ("schemalab_" by default).
func (b *Backend) Prefix() string { return b.prefix }

// DatabaseName is the database of lesson id: <prefix><id>.
func (b *Backend) DatabaseName(lessonID string) string { return b.prefix + lessonID }

// Enforced reports whether CheckDB refuses databases outside the prefix:
// on a real server (mongod or URI) without --unsafe-any-db.
func (b *Backend) Enforced() bool { return b.Kind != KindEmbedded && !b.unsafeAnyDB }

// CheckDB is the safety policy for the learner's commands on a real
// server: it refuses, with an *OutsideSandboxError, any database that is
// not <prefix>something, and always admin, local and config. It allows
// everything on the embedded sandbox, which holds nothing but the course,
// and with --unsafe-any-db. Its method value b.CheckDB fits a
// func(string) error hook.
func (b *Backend) CheckDB(name string) error {
	if b == nil || !b.Enforced() {
		return nil
	}
	return checkPrefixed(name, b.prefix)
}

func checkPrefixed(name, prefix string) error {
	switch name {
	case "admin", "local", "config":
		return &OutsideSandboxError{Database: name, Prefix: prefix, System: true}
	}
	if len(name) <= len(prefix) || !strings.HasPrefix(name, prefix) {
		return &OutsideSandboxError{Database: name, Prefix: prefix}
	}
	return nil
}
