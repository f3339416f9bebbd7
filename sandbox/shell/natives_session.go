package shell

// The mongo package's session methods return these sentinel errors of the
// driver's session package and give no other way to tell them apart.
//lint:file-ignore SA1019 the only names of the errors mongo.Session returns

import (
	"context"
	"errors"

	"github.com/dop251/goja"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
	driversession "go.mongodb.org/mongo-driver/v2/x/mongo/driver/session"
)

// sessionNatives are mongosh's Session (session.ts), over the driver's
// sessions. On a standalone server (the embedded one is) a transaction's
// first command is refused by the server, as mongod refuses it.
func sessionNatives() []native {
	return []native{
		{"startSession", (*Shell).startSession, false},
		{"sessionDB", (*Shell).sessionDB, false},
		{"sessionID", (*Shell).sessionID, false},
		{"startTransaction", (*Shell).startTransaction, false},
		{"commitTransaction", (*Shell).commitTransaction, true},
		{"abortTransaction", (*Shell).abortTransaction, true},
		{"inTransaction", (*Shell).inTransaction, false},
		{"endSession", (*Shell).endSession, false},
		{"hasEnded", (*Shell).hasEnded, false},
	}
}

// startSession(options) starts a session; the script's sessions end when
// the shell's runtime is replaced.
func (s *Shell) startSession(c goja.FunctionCall) goja.Value {
	opts := s.optDoc(c.Argument(0))
	so := options.Session()
	if v, ok := lookupD(opts, "causalConsistency").(bool); ok {
		so.SetCausalConsistency(v)
	}
	if v, ok := lookupD(opts, "snapshot").(bool); ok {
		so.SetSnapshot(v)
	}
	ms, err := s.client.StartSession(so)
	if err != nil {
		s.throwDriver(err)
	}
	sess := &session{s: ms, opt: c.Argument(0)}
	s.sessions = append(s.sessions, sess)
	return s.vm.ToValue(sess)
}

func (s *Shell) sessionOf(v goja.Value) *session {
	sess, ok := v.Export().(*session)
	if !ok {
		s.throw("TypeError", "not a session")
	}
	return sess
}

// sessionDB(name, session) is the database argument of a session's
// Database.
func (s *Shell) sessionDB(c goja.FunctionCall) goja.Value {
	return s.vm.ToValue(&sessionDB{name: c.Argument(0).String(), sess: s.sessionOf(c.Argument(1))})
}

// sessionID is the session's { id: UUID(...) }.
func (s *Shell) sessionID(c goja.FunctionCall) goja.Value {
	return s.fromRaw(s.sessionOf(c.Argument(0)).s.ID())
}

func (s *Shell) startTransaction(c goja.FunctionCall) goja.Value {
	sess := s.sessionOf(c.Argument(0))
	sess.mu.Lock()
	err := sess.s.StartTransaction()
	sess.mu.Unlock()
	if err != nil {
		s.throwDriver(err)
	}
	return goja.Undefined()
}

// sessionOp runs one of the session's own calls.
func (s *Shell) sessionOp(v goja.Value, call func(ms *mongo.Session, ctx context.Context) error) goja.Value {
	sess := s.sessionOf(v)
	return runOp(s, target{db: "admin", sess: sess}, func(ctx context.Context, _ *mongo.Database) (struct{}, error) {
		return struct{}{}, call(sess.s, ctx)
	}, func(struct{}) goja.Value { return goja.Undefined() })
}

func (s *Shell) commitTransaction(c goja.FunctionCall) goja.Value {
	return s.sessionOp(c.Argument(0), (*mongo.Session).CommitTransaction)
}

func (s *Shell) abortTransaction(c goja.FunctionCall) goja.Value {
	return s.sessionOp(c.Argument(0), (*mongo.Session).AbortTransaction)
}

func (s *Shell) inTransaction(c goja.FunctionCall) goja.Value {
	sess := s.sessionOf(c.Argument(0))
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return s.vm.ToValue(sess.s.TransactionRunning())
}

func (s *Shell) endSession(c goja.FunctionCall) goja.Value {
	sess := s.sessionOf(c.Argument(0))
	return s.sessionOp(c.Argument(0), func(ms *mongo.Session, ctx context.Context) error {
		ms.EndSession(ctx)
		sess.ended = true
		return nil
	})
}

func (s *Shell) hasEnded(c goja.FunctionCall) goja.Value {
	sess := s.sessionOf(c.Argument(0))
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return s.vm.ToValue(sess.ended)
}

// endSessions ends the sessions of a runtime that is being replaced.
func (s *Shell) endSessions() {
	for _, sess := range s.sessions {
		sess.mu.Lock()
		if !sess.ended {
			sess.s.EndSession(context.Background())
			sess.ended = true
		}
		sess.mu.Unlock()
	}
	s.sessions = nil
}

// sessionError is the Node driver's error for a session misuse the Go
// driver reports, if err is one.
func (s *Shell) sessionError(err error) *goja.Object {
	switch {
	case errors.Is(err, driversession.ErrSessionEnded):
		return s.jsError("MongoExpiredSessionError", "Use of expired sessions is not permitted")
	case errors.Is(err, driversession.ErrNoTransactStarted):
		return s.jsError("MongoTransactionError", "No transaction started")
	case errors.Is(err, driversession.ErrTransactInProgress):
		return s.jsError("MongoTransactionError", "Transaction already in progress")
	case errors.Is(err, driversession.ErrAbortAfterCommit):
		return s.jsError("MongoTransactionError", "Cannot call abortTransaction after calling commitTransaction")
	case errors.Is(err, driversession.ErrAbortTwice):
		return s.jsError("MongoTransactionError", "Cannot call abortTransaction twice")
	case errors.Is(err, driversession.ErrCommitAfterAbort):
		return s.jsError("MongoTransactionError", "Cannot call commitTransaction after calling abortTransaction")
	case errors.Is(err, driversession.ErrSnapshotTransaction):
		return s.jsError("MongoCompatibilityError", "Transactions are not supported in snapshot sessions")
	}
	return nil
}
