package lessons

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox/shell"
)

var msgEmbeddedLabel = &locale.Message{ID: "sandbox.embedded", Other: "embedded sandbox"}

// EmbeddedLabel is the Label of the embedded sandbox in l's language; a
// real server is labelled by its own version and host.
func EmbeddedLabel(l *locale.Localizer) string { return l.T(msgEmbeddedLabel, nil) }

// ConnectFunc opens a driver client on the sandbox whose every command
// goes to monitor (when not nil). Each lesson session owns the client it
// opens, so that it can watch what an exercise attempt sends.
type ConnectFunc func(ctx context.Context, monitor *event.CommandMonitor) (*mongo.Client, error)

// Sandbox is what a lesson session needs of the backend, as values and
// functions: lessons does not know which backend serves it.
type Sandbox struct {
	// Connect opens a session's client; required.
	Connect ConnectFunc
	// Prefix of lesson database names; "" means vocab.DefaultPrefix.
	Prefix string
	// ResetDB empties a lesson database; nil drops it through the
	// session's client. A shared server's backend drops only databases
	// schemalab created.
	ResetDB func(ctx context.Context, db string) error
	// HeapLimit caps the memory one block of a session may take
	// (shell.Options.HeapLimit, --script-heap); 0 means the shell's
	// default.
	HeapLimit int64
	// HeapShare, if set, is shared by the sessions that run side by side
	// in this process, so that each script gets its part of HeapLimit;
	// nil gives every session its own.
	HeapShare *HeapShare
	// Label describes the backend for the status line: "embedded
	// sandbox", or a server's version and host (never credentials).
	Label string
	// Close releases the backend; the app calls it when it exits.
	Close func() error
	// Seeds, if set, gives the session of lesson l a shared template to
	// take states from instead of running the code that leads to them
	// (a classroom's, built once for all its students; see seed.go),
	// once the template has reached state, the one the session needs
	// next, or as far as its build got. The session asks on first use,
	// and again when the template it has is not complete and lacks a
	// state it needs; nil Seeds, a nil result or an error mean that the
	// session runs the lesson's code itself, as a learner alone does.
	Seeds func(ctx context.Context, l *Lesson, state string) (*Seeds, error)
	// ReadOnly, if set, opens a client on the same server under the
	// guard's read-only policy, for the TUI's advise page (advise.Source);
	// nil offers no such page, as for a classroom's students, who share
	// the server with others.
	ReadOnly func(ctx context.Context) (*mongo.Client, error)
	// Turns, if set, is shared by the sessions of every learner on the
	// server (a classroom's): their operations run a few at a time
	// (turns.go). nil lets every operation run at once.
	Turns *Turns
}

// HeapShare is one process's memory as its sessions' scripts see it:
// how many of them are running, which divides the heap cap between them
// (the shell's heap guard). The zero value is ready to use.
type HeapShare struct{ share shell.HeapShare }

// shell is the share as the shell takes it; nil for none.
func (h *HeapShare) shell() *shell.HeapShare {
	if h == nil {
		return nil
	}
	return &h.share
}
