// Package engine is the embedded MongoDB-compatible database: it executes
// command documents (find, insert, aggregate, explain, ...) against an
// in-memory catalog and answers with mongod's reply documents. It knows
// nothing of sockets or message framing; sandbox/wire does that.
package engine

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
)

// ConnInfo describes the client connection a command arrived on.
type ConnInfo struct {
	ID         int64  // connectionId reported by hello
	RemoteAddr string // "127.0.0.1:54012"
}

// Engine is one embedded server's data and cursors. It is safe for
// concurrent use by many connections.
type Engine struct {
}

// New returns an empty engine.
func New() *Engine {
	return &Engine{}
}

// Run executes one command. cmd is the OP_MSG body with kind-1 document
// sequences already folded in as arrays, and carries "$db". The reply is
// always a document: {ok: 1, ...} or mongod's error shape {ok: 0, errmsg,
// code, codeName}.
func (e *Engine) Run(ctx context.Context, conn ConnInfo, cmd bson.D) bson.D {
	if len(cmd) == 0 {
		return ErrorReply(mongoerr.New(mongoerr.FailedToParse, "Empty command"))
	}
	return ErrorReply(mongoerr.Newf(mongoerr.CommandNotFound, "no such command: '%s'", cmd[0].Key))
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
