// Package acceptance runs the shell against the embedded server through
// the official driver, the way `schemalab shell` does.
package acceptance

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/sandboxtest"
	"github.com/schemalab/schemalab/sandbox/shell"
)

// startServer starts an embedded server and connects a driver client.
func startServer(tb testing.TB) (*mongo.Client, *sandboxtest.Server) {
	tb.Helper()
	srv := sandboxtest.Start(tb)
	// Polling monitoring: a pending awaitable hello can hold up
	// Disconnect for a whole heartbeat.
	client := srv.Client(tb, options.Client().
		SetServerMonitoringMode(options.ServerMonitoringModePoll))
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
