package main

import (
	"context"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
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

// lessonSandbox hands the backend to lessons as functions: each lesson
// session opens its own client (with its command monitor) through it, and
// resets lesson databases the backend's way.
func (g *globalOptions) lessonSandbox(be *sandbox.Backend) *lessons.Sandbox {
	return &lessons.Sandbox{
		Connect:   be.Connector(),
		Prefix:    be.Prefix(),
		ResetDB:   be.ResetDB,
		HeapLimit: be.ScriptHeap(),
		HeapShare: g.lessonHeap,
		Label:     backendLabel(be, g.L),
		Close:     be.Close,
	}
}

// backendLabel is the backend shown plainly: "embedded sandbox", or the
// server's version, topology and host (never credentials), which are the
// server's words.
func backendLabel(be *sandbox.Backend, l *locale.Localizer) string {
	if be.Kind == sandbox.KindEmbedded {
		return lessons.EmbeddedLabel(l)
	}
	return be.Status()
}
