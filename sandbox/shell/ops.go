package shell

import (
	"context"
	"sync"

	"github.com/dop251/goja"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// target is where a native's command goes: a database, and the session
// of a Database that Session.getDatabase opened (nil for the driver's
// implicit sessions).
type target struct {
	db   string
	sess *session
}

// session is a Session of the script (natives_session.go).
type session struct {
	// mu serialises the session's operations: a driver Session must
	// not be used by two goroutines at once, and async code may start
	// several.
	mu    sync.Mutex
	s     *mongo.Session
	opt   goja.Value // the options it was started with, for getOptions()
	ended bool
}

// sessionDB is what a session's Database passes the natives as its
// database.
type sessionDB struct {
	name string
	sess *session
}

// target reads a native's database argument: a name, or a sessionDB.
func (s *Shell) target(v goja.Value) target {
	if sd, ok := v.Export().(*sessionDB); ok {
		return target{db: sd.name, sess: sd.sess}
	}
	return target{db: v.String()}
}

// run runs work under ctx with t's session, if any.
func (t target) run(ctx context.Context, work func(ctx context.Context) error) error {
	if t.sess == nil {
		return work(ctx)
	}
	t.sess.mu.Lock()
	defer t.sess.mu.Unlock()
	return work(mongo.NewSessionContext(ctx, t.sess.s))
}

// runOp runs a native's driver call: it blocks, or when async code
// called the native (asyncmode.go) it runs on its own goroutine and a
// Promise is returned. work gets the context to run under, with t's
// session, and t's database; it must not touch the runtime. done turns
// its result into the script's value, on the runtime's goroutine; a
// driver error becomes the JavaScript error mongosh shows.
func runOp[T any](s *Shell, t target, work func(ctx context.Context, db *mongo.Database) (T, error), done func(T) goja.Value) goja.Value {
	db := s.client.Database(t.db)
	call := func(ctx context.Context) (T, error) {
		var v T
		err := t.run(ctx, func(ctx context.Context) error {
			var err error
			v, err = work(ctx, db)
			return err
		})
		return v, err
	}
	if !s.callerIsAsync() {
		v, err := call(s.ctx)
		if err != nil {
			s.throwDriver(err)
		}
		return done(v)
	}
	return s.startOp(func(ctx context.Context) (any, error) { return call(ctx) },
		func(v any) goja.Value {
			r, _ := v.(T)
			return done(r)
		})
}

// runWrite is runOp for the natives that write, whose errors the Node
// driver words as a write's.
func runWrite[T any](s *Shell, t target, work func(ctx context.Context, db *mongo.Database) (T, error), done func(T) goja.Value) goja.Value {
	return runOp(s, t, func(ctx context.Context, db *mongo.Database) (T, error) {
		v, err := work(ctx, db)
		return v, writeError(err)
	}, done)
}

// commandOp runs cmd on t's database; done gets the reply.
func (s *Shell) commandOp(t target, cmd bson.D, done func(bson.D) goja.Value) goja.Value {
	return runOp(s, t, func(ctx context.Context, db *mongo.Database) (bson.D, error) {
		return runCommand(ctx, db, cmd)
	}, done)
}

// runCommand runs cmd and decodes its reply.
func runCommand(ctx context.Context, db *mongo.Database, cmd any) (bson.D, error) {
	raw, err := db.RunCommand(ctx, cmd).Raw()
	if err != nil {
		return nil, err
	}
	return rawToD(raw)
}

// drainCursor runs a cursor-returning command and reads all it returns.
func drainCursor(ctx context.Context, db *mongo.Database, cmd bson.D) (bson.A, error) {
	cur, err := db.RunCommandCursor(ctx, cmd)
	if err != nil {
		return nil, err
	}
	defer cur.Close(context.WithoutCancel(ctx))
	out := bson.A{}
	for cur.Next(ctx) {
		d, err := rawToD(cur.Current)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, cur.Err()
}
