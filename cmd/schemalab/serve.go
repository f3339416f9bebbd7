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

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/wire"
)

// runServe implements `schemalab serve [--port N] [--bind ADDR] [--bind-any] [--strict]`:
// the embedded server on its own, for mongosh, Compass or any driver. The
// first line of stdout is the connection string, so scripts can read it.
func runServe(ctx context.Context, g *globalOptions, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("schemalab serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	port := fs.Int("port", 0, "TCP port (0 picks a free one)")
	bind := fs.String("bind", "127.0.0.1", "address to listen on")
	bindAny := fs.Bool("bind-any", false, "allow a non-loopback --bind (the sandbox has no authentication)")
	strict := fs.Bool("strict", false, "answer exactly like mongod: refuse schemalab's own commands (schemalabSnapshot) with CommandNotFound")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "schemalab serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *port < 0 || *port > 65535 {
		fmt.Fprintf(stderr, "schemalab serve: --port %d is not a TCP port\n", *port)
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
		fmt.Fprintf(stderr, "schemalab serve: --bind %s is not a loopback address and the sandbox has no authentication; add --bind-any to listen there anyway\n", *bind)
		return 2
	case errors.Is(err, syscall.EADDRINUSE):
		fmt.Fprintf(stderr, "schemalab serve: port %d on %s is already in use; pick another --port, or omit it for a free one\n", *port, *bind)
		return 1
	case err != nil:
		fmt.Fprintf(stderr, "schemalab serve: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, srv.URI())
	if f, ok := stdout.(interface{ Sync() error }); ok {
		f.Sync() // a pipe reader waiting for the URI must get it now
	}
	fmt.Fprintf(stderr, "schemalab: embedded MongoDB-compatible server listening; connect with: mongosh %s\n", srv.URI())
	fmt.Fprintln(stderr, "schemalab: press Ctrl+C to stop")

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
		fmt.Fprintf(stderr, "schemalab serve: a command did not stop within %v; exiting anyway\n", shutdownGrace)
		return 1
	}
	fmt.Fprintln(stderr, "schemalab: server stopped")
	return 0
}

// shutdownGrace bounds how long SIGINT/SIGTERM waits for running commands.
const shutdownGrace = 800 * time.Millisecond
