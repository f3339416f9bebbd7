// Package sandboxtest starts the embedded server for tests: one way to
// get a server, a driver client on it, or the connect function a lesson
// session takes, each closed when the test ends.
package sandboxtest

import (
	"context"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/wire"
)

// Server is an embedded server started for a test.
type Server struct{ *wire.Server }

// Option changes how Start sets the server up.
type Option func(*wire.Options, *engine.Options)

// Strict is `schemalab serve --strict`: only mongod's commands, so no
// snapshots, as on a real MongoDB.
func Strict() Option {
	return func(_ *wire.Options, e *engine.Options) { e.Strict = true }
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
	return &Server{srv}
}

// Client is a driver client on the server, disconnected when the test
// ends; opts add to the connection string's options.
func (s *Server) Client(t testing.TB, opts ...*options.ClientOptions) *mongo.Client {
	t.Helper()
	all := append([]*options.ClientOptions{options.Client().ApplyURI(s.URI()).SetServerSelectionTimeout(5 * time.Second)}, opts...)
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
	c, err := mongo.Connect(options.Client().ApplyURI(s.URI()).SetMonitor(monitor).SetServerSelectionTimeout(5 * time.Second))
	if err != nil {
		return nil, err
	}
	if err := c.Ping(ctx, nil); err != nil {
		_ = c.Disconnect(context.Background())
		return nil, err
	}
	return c, nil
}
