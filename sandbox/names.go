package sandbox

import (
	"errors"
	"fmt"
	"strings"

	"github.com/schemalab/schemalab/sandbox/vocab"
)

// maxDBNameBytes is MongoDB's limit on a database name (64 bytes including
// the terminating NUL).
const maxDBNameBytes = 63

// ErrOutsideSandbox matches (errors.Is) every refusal of the guard and of
// CheckDB.
var ErrOutsideSandbox = errors.New("database outside the sandbox")

// OutsideSandboxError is a refusal: of a database by CheckDB, or of a
// command by the guard every guarded client's messages pass through.
type OutsideSandboxError struct {
	// Command is the refused command's name ("" for CheckDB).
	Command string
	// Database is the database outside the prefix; "" when the command is
	// refused for another reason, given by Reason.
	Database string
	Prefix   string
	Reason   string
	// Unlockable is set when --unsafe-any-db would have allowed it (the
	// backend's own prefix, not one given to NewClient).
	Unlockable bool
}

func (e *OutsideSandboxError) Error() string {
	var sb strings.Builder
	sb.WriteString("schemalab: refusing ")
	switch {
	case e.Command != "" && e.Database != "":
		fmt.Fprintf(&sb, "`%s` on database `%s`", e.Command, e.Database)
	case e.Command != "":
		fmt.Fprintf(&sb, "`%s`", e.Command)
	case e.Database != "":
		fmt.Fprintf(&sb, "database `%s`", e.Database)
	default:
		sb.WriteString("a command")
	}
	if e.Database != "" {
		fmt.Fprintf(&sb, ": outside the sandbox prefix `%s`", e.Prefix)
	} else {
		sb.WriteString(": " + e.Reason)
	}
	if e.Unlockable {
		sb.WriteString(" (pass --unsafe-any-db to allow)")
	}
	return sb.String()
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

// Enforced reports whether the backend's own clients (Client, and
// NewClient without a Prefix) are confined to the prefix: on a real server
// (mongod or URI) without --unsafe-any-db, and always on a backend made by
// ForPrefix (a classroom student's).
func (b *Backend) Enforced() bool {
	return b.confined || (b.Kind != KindEmbedded && !b.unsafeAnyDB)
}

// CheckDB tells early, before anything is sent, whether the guard of the
// backend's own clients would refuse database name: it refuses, with an
// *OutsideSandboxError, any database that is not <prefix>something when
// Enforced. Safety does not depend on it; the guard checks every command.
func (b *Backend) CheckDB(name string) error {
	if b == nil || !b.Enforced() {
		return nil
	}
	if !vocab.InPrefix(name, b.prefix) {
		return &OutsideSandboxError{Database: name, Prefix: b.prefix, Unlockable: !b.confined}
	}
	return nil
}
