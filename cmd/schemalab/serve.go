package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/wire"
)

// runServe implements `schemalab serve [--port N] [--bind ADDR] [--bind-any] [--strict]`:
// the embedded server on its own, for mongosh, Compass or any driver. The
// first line of stdout is the connection string, so scripts can read it.
func runServe(ctx context.Context, g *globalOptions, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("schemalab serve")
	port := fs.Int("port", 0, g.t(msgFlagPort, nil))
	bind := fs.String("bind", "127.0.0.1", g.t(msgFlagBind, nil))
	bindAny := fs.Bool("bind-any", false, g.t(msgFlagBindAny, nil))
	strict := fs.Bool("strict", false, g.t(msgFlagStrict, nil))
	fs.Usage = func() { g.printFlags(stderr, fs) }
	if err := g.parse(fs, args, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "schemalab serve: %s\n", g.t(msgExtraArg, map[string]any{"Arg": fs.Arg(0)}))
		return 2
	}
	if *port < 0 || *port > 65535 {
		fmt.Fprintf(stderr, "schemalab serve: %s\n", g.t(msgBadPort, map[string]any{"Port": *port}))
		return 2
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	opts := wire.Options{
		Port:             *port,
		Bind:             *bind,
		AllowNonLoopback: *bindAny,
		Engine:           engine.New(engine.Options{Strict: *strict, Log: stderr}),
		ErrorLog:         stderr,
	}
	// SCHEMALAB_LOG_COMMANDS=1 prints every command received, which shows
	// what a client such as mongosh sends.
	if os.Getenv("SCHEMALAB_LOG_COMMANDS") != "" {
		opts.CommandLog = stderr
	}
	srv, err := wire.Start(ctx, opts)
	switch {
	case errors.Is(err, wire.ErrNonLoopbackBind):
		fmt.Fprintf(stderr, "schemalab serve: %s\n", g.t(msgBindNotLoopback, map[string]any{"Bind": *bind}))
		return 2
	case errors.Is(err, syscall.EADDRINUSE):
		fmt.Fprintf(stderr, "schemalab serve: %s\n", g.t(msgPortInUse, map[string]any{"Port": *port, "Bind": *bind}))
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "schemalab serve: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, srv.URI())
	if f, ok := stdout.(interface{ Sync() error }); ok {
		f.Sync() // a pipe reader waiting for the URI must get it now
	}
	fmt.Fprintf(stderr, "schemalab: %s\n", g.t(msgServing, map[string]any{"URI": srv.URI()}))
	fmt.Fprintf(stderr, "schemalab: %s\n", g.t(msgPressCtrlC, nil))

	<-ctx.Done()
	// Close interrupts every running command (they check between
	// documents and fail with InterruptedAtShutdown) and waits for the
	// connections to finish. A loop that somehow never checks must not
	// keep the process alive: after shutdownGrace serve returns anyway,
	// and the process exits with whatever is still running.
	closed := make(chan error, 1)
	go func() { closed <- srv.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			fmt.Fprintf(stderr, "schemalab serve: %v\n", err)
			return 1
		}
	case <-time.After(shutdownGrace):
		fmt.Fprintf(stderr, "schemalab serve: %s\n", g.t(msgShutdownSlow, map[string]any{"Grace": g.L.Duration(shutdownGrace)}))
		return 1
	}
	fmt.Fprintf(stderr, "schemalab: %s\n", g.t(msgServerStopped, nil))
	return 0
}

var (
	msgFlagPort        = &locale.Message{ID: "cli.flag.port", Other: "TCP port (0 picks a free one)"}
	msgFlagBind        = &locale.Message{ID: "cli.flag.bind", Other: "address to listen on"}
	msgFlagBindAny     = &locale.Message{ID: "cli.flag.bindAny", Other: "allow a non-loopback --bind (the sandbox has no authentication)"}
	msgFlagStrict      = &locale.Message{ID: "cli.flag.strict", Other: "answer exactly like mongod: refuse schemalab's own commands (schemalabSnapshot) with CommandNotFound"}
	msgBadPort         = &locale.Message{ID: "cli.serve.badPort", Other: "--port {{.Port}} is not a TCP port"}
	msgBindNotLoopback = &locale.Message{ID: "cli.serve.bindNotLoopback", Other: "--bind {{.Bind}} is not a loopback address and the sandbox has no authentication; add --bind-any to listen there anyway"}
	msgPortInUse       = &locale.Message{ID: "cli.serve.portInUse", Other: "port {{.Port}} on {{.Bind}} is already in use; pick another --port, or omit it for a free one"}
	msgServing         = &locale.Message{ID: "cli.serve.listening", Other: "embedded MongoDB-compatible server listening; connect with: mongosh {{.URI}}"}
	msgPressCtrlC      = &locale.Message{ID: "cli.serve.pressCtrlC", Other: "press Ctrl+C to stop"}
	msgShutdownSlow    = &locale.Message{ID: "cli.serve.shutdownSlow", Other: "a command did not stop within {{.Grace}}; exiting anyway"}
	msgServerStopped   = &locale.Message{ID: "cli.serve.stopped", Other: "server stopped"}
)

// shutdownGrace bounds how long SIGINT/SIGTERM waits for running commands.
const shutdownGrace = 800 * time.Millisecond
