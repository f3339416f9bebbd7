package main

import (
	"context"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/sandbox"
)

// sandboxConfig is the backend the global flags ask for.
func (g *globalOptions) sandboxConfig() sandbox.Config {
	return sandbox.Config{URI: g.URI, Kind: g.Sandbox, MongodPath: g.Mongod, DBPrefix: g.DBPrefix, UnsafeAnyDB: g.UnsafeAnyDB,
		ScriptHeap: int64(g.ScriptHeapMB) << 20}
}

// openSandbox connects every subcommand to its backend the same way: the
// embedded server, a mongod we start, or a real server by URI.
func openSandbox(ctx context.Context, g *globalOptions) (*sandbox.Backend, error) {
	return sandbox.Open(ctx, g.sandboxConfig())
}

// runnerOptions ties a lesson runner to the backend: the lesson database
// is reset the backend's way and scripts get the --script-heap cap.
// (Safety is the client's: be.Client is confined to the prefix on a real
// server.)
func runnerOptions(be *sandbox.Backend) lessons.RunnerOptions {
	return lessons.RunnerOptions{Prefix: be.Prefix(), ResetDB: be.ResetDB, HeapLimit: be.ScriptHeap()}
}
