// Package acceptance runs the shell against the embedded server through
// the official driver, the way `schemalab shell` does.
package acceptance

import (
	"context"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/shell"
	"github.com/schemalab/schemalab/sandbox/wire"
)

// startServer starts an embedded server and connects a driver client.
func startServer(tb testing.TB) (*mongo.Client, *wire.Server) {
	tb.Helper()
	srv, err := wire.Start(context.Background(), wire.Options{Engine: engine.New(engine.Options{})})
	if err != nil {
		tb.Fatal(err)
	}
	// Polling monitoring: a pending awaitable hello can hold up
	// Disconnect for a whole heartbeat.
	client, err := mongo.Connect(options.Client().ApplyURI(srv.URI()).SetServerSelectionTimeout(2 * time.Second).
		SetServerMonitoringMode(options.ServerMonitoringModePoll))
	if err != nil {
		srv.Close()
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = client.Disconnect(ctx)
		_ = srv.Close()
	})
	return client, srv
}

func newShell(tb testing.TB, db string) *shell.Shell {
	tb.Helper()
	client, _ := startServer(tb)
	sh, err := shell.New(client, db, shell.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return sh
}
