package lessons

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/sandboxtest"
)

// leakWatch is a server and what tells whether a session left anything
// on it: the snapshots of its database and the connections its client
// opened.
type leakWatch struct {
	srv   *sandboxtest.Server
	watch *sandboxtest.Watch
	conns *sandboxtest.Conns
}

func newLeakWatch(t *testing.T) *leakWatch {
	srv := sandboxtest.Start(t)
	return &leakWatch{srv: srv, watch: srv.Watch(t), conns: &sandboxtest.Conns{}}
}

// sandbox connects every session through the counting dialer; started,
// if set, is told the name of every command a session sends.
func (w *leakWatch) sandbox(prefix string, started func(name string)) *Sandbox {
	connect := w.srv.ConnectVia(w.conns)
	return &Sandbox{Prefix: prefix, Connect: func(ctx context.Context, m *event.CommandMonitor) (*mongo.Client, error) {
		return connect(ctx, &event.CommandMonitor{Started: func(ctx context.Context, e *event.CommandStartedEvent) {
			m.Started(ctx, e)
			if started != nil {
				started(e.CommandName)
			}
		}})
	}}
}

func (w *leakWatch) snapshots(t *testing.T, db string) []string { return w.watch.Snapshots(t, db) }

// freed fails the test unless the server holds no snapshot of db and
// the sessions' clients no connection.
func (w *leakWatch) freed(t *testing.T, when, db string) {
	t.Helper()
	if snaps, open := w.snapshots(t, db), w.conns.Open(); len(snaps) > 0 || open > 0 {
		t.Fatalf("%s: the server holds snapshots %v of %s; the sessions' clients hold %d connections", when, snaps, db, open)
	}
}

// background starts req on s and runs it in a goroutine; its error
// comes on the channel.
func background(t *testing.T, s *Session, req Request) chan error {
	t.Helper()
	run, err := s.Start(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := run()
		done <- err
	}()
	return done
}

const slowLesson = "---\nid: slow\ntitle: Slow\n---\n" +
	"## Data\n```js run\ndb.a.insertMany([{ x: 1 }, { x: 2 }])\n```\n" +
	"## Slow\n```js run\ndb.a.insertOne({ x: 3 }); db.a.countDocuments(); var until = Date.now() + 60000; while (Date.now() < until) {}\n```\n"

// A session closed at any point of an operation (before the operation
// starts, while it runs, after it returned, from several goroutines at
// once) leaves no snapshot and no connection on the server, and an
// operation that had not started when the session closed does nothing.
func TestCloseAtEveryPointOfARun(t *testing.T) {
	ctx := context.Background()
	l, err := Parse("slow.md", []byte(slowLesson))
	if err != nil {
		t.Fatal(err)
	}
	w := newLeakWatch(t)

	// warm is a session that ran the first step: connected, with
	// snapshots on the server.
	warm := func(prefix string, started func(string)) *Session {
		t.Helper()
		s := NewSession(w.sandbox(prefix, started), l, SessionOptions{})
		if res, err := s.Do(ctx, Request{Op: OpRun}); err != nil || !res.OK() {
			t.Fatalf("first step: %v %+v", err, res)
		}
		if len(w.snapshots(t, s.Database())) == 0 {
			t.Fatal("the session saved no snapshot: nothing to leak, nothing tested")
		}
		return s
	}

	defer w.watch.Quiet(t)

	t.Run("never used", func(t *testing.T) {
		s := NewSession(w.sandbox("never_", nil), l, SessionOptions{})
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Do(ctx, Request{Op: OpRun}); !errors.Is(err, ErrClosed) {
			t.Errorf("an operation after Close: %v", err)
		}
		w.freed(t, "never used", s.Database())
	})

	t.Run("before the operation starts", func(t *testing.T) {
		s := warm("before_", nil)
		run, err := s.Start(ctx, Request{Op: OpRun, Step: 1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Start(ctx, Request{Op: OpRun}); !errors.Is(err, ErrBusy) {
			t.Errorf("a second operation while one is claimed: %v", err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		w.freed(t, "closed before the operation started", s.Database())
		res, err := run()
		if !errors.Is(err, ErrClosed) || res == nil || res.Step != 1 {
			t.Errorf("the operation claimed before Close: %+v %v", res, err)
		}
		w.freed(t, "after the claimed operation was called", s.Database())
	})

	// inFlight is a warm session running the slow step, in its loop, and
	// the channel its run's error comes on.
	inFlight := func(prefix string) (*Session, chan error) {
		t.Helper()
		inserting := make(chan struct{}, 8)
		s := warm(prefix, func(name string) {
			if name == "insert" {
				inserting <- struct{}{}
			}
		})
		<-inserting // the first step's
		done := background(t, s, Request{Op: OpRun, Step: 1})
		<-inserting // the slow step's, before its loop
		time.Sleep(50 * time.Millisecond)
		return s, done
	}

	t.Run("while it runs", func(t *testing.T) {
		s, done := inFlight("during_")
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		w.freed(t, "closed while running", s.Database())
		select {
		case err := <-done:
			if err == nil {
				t.Error("the cancelled operation reported no error")
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the operation did not end after Close")
		}
	})

	t.Run("after it returned", func(t *testing.T) {
		s := warm("after_", nil)
		run, err := s.Start(ctx, Request{Op: OpJump, Step: 1})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := run(); err != nil {
			t.Fatal(err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		w.freed(t, "closed after the operation returned", s.Database())
	})

	t.Run("from many goroutines while it runs", func(t *testing.T) {
		s, done := inFlight("many_")
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				_ = s.Close()
				s.Cancel()
				if _, err := s.Start(ctx, Request{Op: OpRun}); !errors.Is(err, ErrClosed) {
					t.Errorf("Start after Close: %v", err)
				}
			})
		}
		wg.Wait()
		w.freed(t, "closed from many goroutines", s.Database())
		<-done
	})
}

// Cancel stops the operation in flight, and the session goes on: the
// next operation starts from a saved state.
func TestCancelThenGoOn(t *testing.T) {
	ctx := context.Background()
	l, err := Parse("slow.md", []byte(slowLesson))
	if err != nil {
		t.Fatal(err)
	}
	w := newLeakWatch(t)
	// The slow step counts its documents once its insert is done: a
	// cancel while the insert is still on its way would leave the server
	// to apply it after the restore that follows (as mongod would).
	counting := make(chan struct{}, 8)
	s := NewSession(w.sandbox("cancel_", func(name string) {
		if name == "aggregate" {
			counting <- struct{}{}
		}
	}), l, SessionOptions{})
	defer s.Close()
	done := background(t, s, Request{Op: OpRun, Step: 1})
	<-counting // step 2, after its insert, about to loop
	if !s.Cancel() {
		t.Fatal("Cancel found no operation")
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("the cancelled run: %v", err)
	}
	if s.Cancel() {
		t.Error("Cancel found an operation after it ended")
	}
	// The scratch shell at the first step finds the state it left.
	res, err := s.Do(ctx, Request{Op: OpEval, Code: "db.a.countDocuments()"})
	if err != nil || text(res) != "2\n" {
		t.Errorf("the scratch shell after a cancel: %q %v", text(res), err)
	}
}
