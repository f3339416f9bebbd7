// Package sandboxtest starts the embedded server for tests: one way to
// get a server, a driver client on it, or the connect function a lesson
// session takes, each closed when the test ends; and a watch on what
// clients leave on the server (snapshots, connections).
package sandboxtest

import (
	"context"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/vocab"
	"github.com/schemalab/schemalab/sandbox/wire"
)

// Server is an embedded server started for a test.
type Server struct{ srv *wire.Server }

// URI is the server's connection string, "mongodb://127.0.0.1:PORT/".
func (s *Server) URI() string { return s.srv.URI() }

// Close stops the server before the test ends, as a server that went
// away; it is safe to call more than once.
func (s *Server) Close() error { return s.srv.Close() }

// Option changes how Start sets the server up.
type Option func(*wire.Options, *engine.Options)

// Strict is `schemalab serve --strict`: only mongod's commands, so no
// snapshots, as on a real MongoDB.
func Strict() Option {
	return func(_ *wire.Options, e *engine.Options) { e.Strict = true }
}

// Port has the server listen on port, as a server restarted where its
// clients expect it.
func Port(port int) Option {
	return func(w *wire.Options, _ *engine.Options) { w.Port = port }
}

// Start starts an embedded server on a free loopback port and closes it
// when the test ends.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	var wo wire.Options
	var eo engine.Options
	for _, o := range opts {
		o(&wo, &eo)
	}
	wo.Engine = engine.New(eo)
	srv, err := wire.Start(context.Background(), wo)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return &Server{srv: srv}
}

// Address is the host and port the server listens on, as in its
// connection string.
func (s *Server) Address() string {
	return strings.TrimSuffix(strings.TrimPrefix(s.URI(), "mongodb://"), "/")
}

// Port is the port the server listens on.
func (s *Server) Port() int {
	_, port, _ := net.SplitHostPort(s.Address())
	n, _ := strconv.Atoi(port)
	return n
}

// Client is a driver client on the server, disconnected when the test
// ends; opts add to the connection string's options.
func (s *Server) Client(t testing.TB, opts ...*options.ClientOptions) *mongo.Client {
	t.Helper()
	all := append([]*options.ClientOptions{options.Client().ApplyURI(s.URI())}, opts...)
	c, err := mongo.Connect(all...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Disconnect(context.Background()) })
	return c
}

// Connect opens a client whose every command goes to monitor: what a
// lesson session's sandbox connects with (lessons.ConnectFunc). The
// session owns the client and disconnects it.
func (s *Server) Connect(ctx context.Context, monitor *event.CommandMonitor) (*mongo.Client, error) {
	c, err := mongo.Connect(options.Client().ApplyURI(s.URI()).SetMonitor(monitor))
	if err != nil {
		return nil, err
	}
	if err := c.Ping(ctx, nil); err != nil {
		_ = c.Disconnect(context.Background())
		return nil, err
	}
	return c, nil
}

// Conns is a dialer that counts the connections it opened that are still
// open: what a client holds on the server.
type Conns struct {
	open atomic.Int64
	d    net.Dialer
}

// DialContext dials as net.Dialer does, counting the connection.
func (c *Conns) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	nc, err := c.d.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	c.open.Add(1)
	return &countedConn{Conn: nc, open: &c.open}, nil
}

// Open is the number of connections dialed and not closed yet.
func (c *Conns) Open() int64 { return c.open.Load() }

type countedConn struct {
	net.Conn
	open *atomic.Int64
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.open.Add(-1) })
	return c.Conn.Close()
}

// ConnectVia is Connect with every connection dialed through conns.
func (s *Server) ConnectVia(conns *Conns) func(ctx context.Context, monitor *event.CommandMonitor) (*mongo.Client, error) {
	return func(ctx context.Context, monitor *event.CommandMonitor) (*mongo.Client, error) {
		return mongo.Connect(options.Client().ApplyURI(s.URI()).SetMonitor(monitor).SetDialer(conns))
	}
}

// Watch looks at what clients leave on the server: the snapshots of a
// database and the connections the server counts, through a client of
// its own whose connections it tells apart.
type Watch struct {
	client *mongo.Client
	own    *Conns
}

// Watch is a watch on the server, closed when the test ends.
func (s *Server) Watch(t testing.TB) *Watch {
	w := &Watch{own: &Conns{}}
	w.client = s.Client(t, options.Client().SetDialer(w.own))
	return w
}

// Snapshots are the names of the snapshots the server keeps of db.
func (w *Watch) Snapshots(t testing.TB, db string) []string {
	t.Helper()
	var reply struct {
		Snapshots []struct {
			Name string `bson:"name"`
		} `bson:"snapshots"`
	}
	cmd := bson.D{{Key: vocab.SnapshotCommand, Value: "list"}, {Key: "db", Value: db}}
	if err := w.client.Database(db).RunCommand(context.Background(), cmd).Decode(&reply); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range reply.Snapshots {
		names = append(names, s.Name)
	}
	return names
}

// Quiet fails the test unless the server soon counts no connection but
// the watch's own. A closed client's monitoring connection may wait in
// an awaitable hello on the server for up to its maxAwaitTimeMS (10 s)
// before the server sees the socket gone, as mongod's does.
func (w *Watch) Quiet(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var st struct {
			Connections struct {
				Current int64 `bson:"current"`
			} `bson:"connections"`
		}
		if err := w.client.Database("admin").RunCommand(context.Background(), bson.D{{Key: "serverStatus", Value: 1}}).Decode(&st); err != nil {
			t.Fatal(err)
		}
		if st.Connections.Current == w.own.Open() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server counts %d connections, the watch holds %d", st.Connections.Current, w.own.Open())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
