package main

import (
	"context"
	"io"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/sandbox"
	"github.com/schemalab/schemalab/tui/classroom"
)

// studentCommand is the hidden subcommand that runs one classroom
// student's session in a process of its own; `schemalab classroom`
// starts it for every student who logs in.
const studentCommand = "classroom-student"

// runStudent implements `schemalab [--content DIR] classroom-student`.
func runStudent(ctx context.Context, g *globalOptions, stderr io.Writer) int {
	cat, _ := lessons.Load(content.FS, g.ContentDir)
	return classroom.StudentMain(ctx, cat, attachStudent, stderr)
}

// attachStudent opens the room's server for one student: the room's
// embedded server, or the real MongoDB the room uses, confined to the
// student's prefix either way.
func attachStudent(ctx context.Context, spec classroom.StudentSpec) (*lessons.Sandbox, error) {
	var be *sandbox.Backend
	var closeAll func() error
	if spec.Embedded {
		var err error
		if be, err = sandbox.Attach(ctx, spec.URI, spec.Prefix, spec.User, spec.Password, spec.ScriptHeap); err != nil {
			return nil, err
		}
		closeAll = be.Close
	} else {
		base, err := sandbox.Open(ctx, sandbox.Config{Kind: sandbox.KindURI, URI: spec.URI, DBPrefix: spec.Prefix, ScriptHeap: spec.ScriptHeap})
		if err != nil {
			return nil, err
		}
		if be, err = base.ForPrefix(ctx, spec.Prefix); err != nil {
			base.Close()
			return nil, err
		}
		closeAll = func() error {
			err := be.Close()
			if berr := base.Close(); err == nil {
				err = berr
			}
			return err
		}
	}
	return &lessons.Sandbox{Connect: be.Connector(), Prefix: be.Prefix(), ResetDB: be.ResetDB, HeapLimit: be.ScriptHeap(),
		Label: spec.Label, Close: closeAll}, nil
}
