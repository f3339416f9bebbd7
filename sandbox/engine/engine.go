// Package engine is the embedded MongoDB-compatible database: it executes
// command documents (find, insert, aggregate, explain, ...) against an
// in-memory catalog and answers with mongod's reply documents. It knows
// nothing of sockets or message framing; sandbox/wire does that.
package engine

import (
	"context"
	"io"
	"runtime/debug"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/catalog"
	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
	"github.com/schemalab/schemalab/sandbox/engine/query"
	"github.com/schemalab/schemalab/sandbox/engine/timeseries"
)

// ConnInfo describes the client connection a command arrived on.
type ConnInfo struct {
	ID         int64  // connectionId reported by hello
	RemoteAddr string // "127.0.0.1:54012"
}

// Engine is one embedded server's data and cursors. It is safe for
// concurrent use by many connections: mu serialises writers against
// readers for the whole catalog, the way a single-node lab server needs
// it, and stored documents are immutable so results stay valid after the
// lock is released.
type Engine struct {
	mu       sync.RWMutex
	catalog  *catalog.Catalog
	cursors  *cursorTable
	commands map[string]handler
	usage    *indexUsage
	started  time.Time
	// snapshots are the databases saved by schemalabSnapshot.
	snapshots snapshotStore
	// buckets is the bucket catalog of the time-series collections.
	buckets *timeseries.Catalog
	// log is the server log (validationAction "warn" writes to it).
	log *serverLog
	// beforeCommand is Options.BeforeCommand.
	beforeCommand func(name string)
	// upsertsInWindow counts the upserts between query and insert (upsert_concurrency.go).
	upsertsInWindow int
}

// Options configure an engine.
type Options struct {
	// Strict makes the engine answer like mongod to every command mongod
	// lacks, including schemalab's own (schemalabSnapshot): CommandNotFound.
	// It is for instructors who want the embedded server to look exactly
	// like mongod.
	Strict bool
	// Log receives the server log lines mongod would write (a document
	// that fails a validator with validationAction "warn"); nil discards
	// them.
	Log io.Writer
	// BeforeCommand, when set, runs inside Run's recovered region just
	// before a command's handler. Tests set it to make a handler panic and
	// check what a client then sees.
	BeforeCommand func(name string)
}

// New returns an empty engine.
func New(opts Options) *Engine {
	commands := commandTable()
	if !opts.Strict {
		commands[SnapshotCommand] = cmdSnapshot
	}
	return &Engine{
		catalog:       catalog.New(compilePartialFilter),
		cursors:       newCursorTable(),
		commands:      commands,
		usage:         newIndexUsage(),
		started:       time.Now(),
		snapshots:     snapshotStore{},
		log:           &serverLog{w: opts.Log},
		buckets:       timeseries.NewCatalog(),
		beforeCommand: opts.BeforeCommand,
	}
}

// request is one command being executed.
type request struct {
	ctx  context.Context
	conn ConnInfo
	db   string
	name string // the command name as the client spelled it
	cmd  bson.D
	now  bson.DateTime
	// noDiskUse is allowDiskUse: false on find or aggregate: blocking
	// stages past their memory limit fail instead of spilling. Sub-
	// pipelines inherit it with the request.
	noDiskUse bool
}

// Run executes one command. cmd is the OP_MSG body with kind-1 document
// sequences already folded in as arrays, and carries "$db". The reply is
// always a document: {ok: 1, ...} or mongod's error shape {ok: 0, errmsg,
// code, codeName}.
func (e *Engine) Run(ctx context.Context, conn ConnInfo, cmd bson.D) (reply bson.D) {
	if len(cmd) == 0 {
		return ErrorReply(mongoerr.New(mongoerr.FailedToParse, "Empty command"))
	}
	defer func() {
		if r := recover(); r != nil {
			reply = ErrorReply(mongoerr.Newf(mongoerr.InternalError,
				"internal error in command '%s': %v\n%s", cmd[0].Key, r, firstLines(debug.Stack(), 12)))
		}
	}()
	name := cmd[0].Key
	if err := e.refuseTransactionNumber(name, cmd); err != nil {
		return ErrorReply(err)
	}
	h, ok := e.commands[name]
	if !ok {
		return ErrorReply(mongoerr.Newf(mongoerr.CommandNotFound, "no such command: '%s'", name))
	}
	db, _ := lookupString(cmd, "$db")
	if db == "" {
		return ErrorReply(mongoerr.New(mongoerr.InvalidNamespace, "Invalid empty database name"))
	}
	req := &request{ctx: ctx, conn: conn, db: db, name: name, cmd: cmd, now: bson.NewDateTimeFromTime(time.Now())}
	if e.beforeCommand != nil {
		e.beforeCommand(name)
	}
	out, err := h(e, req)
	if err != nil {
		return ErrorReply(err)
	}
	return append(out, bson.E{Key: "ok", Value: 1.0})
}

func firstLines(b []byte, n int) string {
	lines := 0
	for i, c := range b {
		if c == '\n' {
			lines++
			if lines == n {
				return string(b[:i])
			}
		}
	}
	return string(b)
}

// ErrorReply renders err in mongod's reply shape.
func ErrorReply(err error) bson.D {
	me := mongoerr.As(err)
	reply := bson.D{
		{Key: "ok", Value: 0.0},
		{Key: "errmsg", Value: me.Msg},
		{Key: "code", Value: me.Code},
		{Key: "codeName", Value: me.CodeName()},
	}
	return append(reply, me.Extra...)
}

func lookupString(d bson.D, key string) (string, bool) {
	for _, e := range d {
		if e.Key == key {
			s, ok := e.Value.(string)
			return s, ok
		}
	}
	return "", false
}

// handler executes one command; it returns the reply fields without "ok".
type handler func(e *Engine, req *request) (bson.D, error)

// compilePartialFilter lets the catalog evaluate partialFilterExpression
// without depending on the query language.
func compilePartialFilter(filter bson.D) (func(bson.D) bool, error) {
	f, err := query.Compile(filter, query.Options{})
	if err != nil {
		return nil, err
	}
	return f.Matches, nil
}
