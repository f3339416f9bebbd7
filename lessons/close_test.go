package lessons

import (
	"context"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/sandboxtest"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// countedConns is a dialer that counts the connections it opened that
// are still open: what a session's client holds on the server.
type countedConns struct {
	open atomic.Int64
	d    net.Dialer
}

func (c *countedConns) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	nc, err := c.d.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	c.open.Add(1)
	return &countedConn{Conn: nc, open: &c.open}, nil
}

type countedConn struct {
	net.Conn
	open *atomic.Int64
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.open.Add(-1) })
	return c.Conn.Close()
}

// leakWatch is a server and what tells whether a session left anything
// on it: the snapshots of its database, the connections its client
// opened, and the connections the server counts.
type leakWatch struct {
	srv      *sandboxtest.Server
	observer *mongo.Client
	// conns are the sessions' connections, observed the observer's.
	conns, observed *countedConns
}

func newLeakWatch(t *testing.T) *leakWatch {
	srv := sandboxtest.Start(t)
	w := &leakWatch{srv: srv, conns: &countedConns{}, observed: &countedConns{}}
	w.observer = srv.Client(t, options.Client().SetDialer(w.observed))
	return w
}

// sandbox connects every session through the counting dialer; a command
// named started, if set, is reported when the session sends it.
func (w *leakWatch) sandbox(prefix string, started func(name string)) *Sandbox {
	return &Sandbox{Prefix: prefix, Connect: func(ctx context.Context, m *event.CommandMonitor) (*mongo.Client, error) {
		mon := &event.CommandMonitor{Started: func(ctx context.Context, e *event.CommandStartedEvent) {
			m.Started(ctx, e)
			if started != nil {
				started(e.CommandName)
			}
		}}
		return mongo.Connect(options.Client().ApplyURI(w.srv.URI()).SetDialer(w.conns).SetMonitor(mon))
	}}
}

func (w *leakWatch) serverConnections(t *testing.T) int64 {
	t.Helper()
	var st struct {
		Connections struct {
			Current int64 `bson:"current"`
		} `bson:"connections"`
	}
	if err := w.observer.Database("admin").RunCommand(context.Background(), bson.D{{Key: "serverStatus", Value: 1}}).Decode(&st); err != nil {
		t.Fatal(err)
	}
	return st.Connections.Current
}

func (w *leakWatch) snapshots(t *testing.T, db string) []string {
	t.Helper()
	var reply struct {
		Snapshots []struct {
			Name string `bson:"name"`
		} `bson:"snapshots"`
	}
	cmd := bson.D{{Key: vocab.SnapshotCommand, Value: "list"}, {Key: "db", Value: db}}
	if err := w.observer.Database(db).RunCommand(context.Background(), cmd).Decode(&reply); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range reply.Snapshots {
		names = append(names, s.Name)
	}
	return names
}

// freed fails the test unless the server holds no snapshot of db and
// the sessions' clients no connection.
func (w *leakWatch) freed(t *testing.T, when, db string) {
	t.Helper()
	if snaps, open := w.snapshots(t, db), w.conns.open.Load(); len(snaps) > 0 || open > 0 {
		t.Fatalf("%s: the server holds snapshots %v of %s; the sessions' clients hold %d connections", when, snaps, db, open)
	}
}

// noConnections fails the test unless the server counts no connection
// but the observer's. A closed client's monitoring connection may wait
// in an awaitable hello on the server for up to its maxAwaitTimeMS (10
// s) before the server sees the socket gone, as mongod's does.
func (w *leakWatch) noConnections(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		server, observer := w.serverConnections(t), w.observed.open.Load()
		if server == observer {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server counts %d connections, the observer holds %d", server, observer)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

const slowLesson = "---\nid: slow\ntitle: Slow\n---\n" +
	"## Data\n```js run\ndb.a.insertMany([{ x: 1 }, { x: 2 }])\n```\n" +
	"## Slow\n```js run\ndb.a.insertOne({ x: 3 }); var until = Date.now() + 60000; while (Date.now() < until) {}\n```\n"

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

	defer w.noConnections(t)

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

	t.Run("while it runs", func(t *testing.T) {
		inserting := make(chan struct{}, 8)
		s := warm("during_", func(name string) {
			if name == "insert" {
				inserting <- struct{}{}
			}
		})
		<-inserting // the first step's
		run, err := s.Start(ctx, Request{Op: OpRun, Step: 1})
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := run()
			done <- err
		}()
		<-inserting // the slow step is in its loop
		time.Sleep(50 * time.Millisecond)
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
		inserting := make(chan struct{}, 8)
		s := warm("many_", func(name string) {
			if name == "insert" {
				inserting <- struct{}{}
			}
		})
		<-inserting
		run, err := s.Start(ctx, Request{Op: OpRun, Step: 1})
		if err != nil {
			t.Fatal(err)
		}
		go func() { _, _ = run() }()
		<-inserting
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
	inserting := make(chan struct{}, 8)
	s := NewSession(w.sandbox("cancel_", func(name string) {
		if name == "insert" {
			inserting <- struct{}{}
		}
	}), l, SessionOptions{})
	defer s.Close()
	run, err := s.Start(ctx, Request{Op: OpRun, Step: 1})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := run()
		done <- err
	}()
	<-inserting // step 1, replayed
	<-inserting // step 2, in its loop
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
