package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox"
	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/wire"
)

// runServe implements `schemalab serve [--port N] [--bind ADDR] [--bind-any] [--strict]
// [--users FILE [--max-storage MIB] [--max-cursors N] [--max-connections N]]`:
// the embedded server on its own, for mongosh, Compass or any driver. The
// first line of stdout is the connection string, so scripts can read it.
// With --users, every client must log in as one of the file's users.
func runServe(ctx context.Context, g *globalOptions, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("schemalab serve")
	port := fs.Int("port", 0, g.t(msgFlagPort, nil))
	bind := fs.String("bind", "127.0.0.1", g.t(msgFlagBind, nil))
	bindAny := fs.Bool("bind-any", false, g.t(msgFlagBindAny, nil))
	strict := fs.Bool("strict", false, g.t(msgFlagStrict, nil))
	usersFile := fs.String("users", "", g.t(msgFlagUsers, nil))
	maxStorage := fs.Int64("max-storage", 0, g.t(msgFlagMaxStorage, nil))
	maxCursors := fs.Int("max-cursors", 0, g.t(msgFlagMaxCursors, nil))
	maxConns := fs.Int("max-connections", 0, g.t(msgFlagMaxConnections, nil))
	fs.Usage = func() {
		fmt.Fprintln(stderr, g.t(msgServeUsage, nil))
		g.printFlags(stderr, fs)
	}
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
	if *maxStorage < 0 || *maxCursors < 0 || *maxConns < 0 || *usersFile == "" && (*maxStorage > 0 || *maxCursors > 0 || *maxConns > 0) {
		fmt.Fprintf(stderr, "schemalab serve: %s\n", g.t(msgLimitsNeedUsers, nil))
		return 2
	}
	var users []serveUser
	if *usersFile != "" {
		var err error
		if users, err = readUsersFile(*usersFile); err != nil {
			fmt.Fprintf(stderr, "schemalab serve: %s\n", g.t(msgBadUsersFile, map[string]any{"File": *usersFile, "Err": err.Error()}))
			return 2
		}
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	opts := wire.Options{
		Port: *port,
		Bind: *bind,
		// Users who must log in make a server that may listen anywhere,
		// as mongod with authentication does.
		AllowNonLoopback: *bindAny || len(users) > 0,
		Engine:           engine.New(engine.Options{Strict: *strict, Log: stderr}),
		ErrorLog:         stderr,
		RequireAuth:      len(users) > 0,
		Confine:          sandbox.ConfineCommand,
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
	for _, u := range users {
		a := wire.Account{Prefix: u.prefix, MaxCursors: *maxCursors, MaxConnections: *maxConns}
		if u.prefix != "" {
			a.MaxStorageBytes = *maxStorage << 20
		}
		if err := srv.AddUser(u.name, u.password, a); err != nil {
			srv.Close()
			fmt.Fprintf(stderr, "schemalab serve: %s\n", g.t(msgBadUsersFile, map[string]any{"File": *usersFile, "Err": err.Error()}))
			return 2
		}
	}
	fmt.Fprintln(stdout, srv.URI())
	if f, ok := stdout.(interface{ Sync() error }); ok {
		f.Sync() // a pipe reader waiting for the URI must get it now
	}
	fmt.Fprintf(stderr, "schemalab: %s\n", g.t(msgServing, map[string]any{"URI": srv.URI()}))
	if len(users) > 0 {
		fmt.Fprintf(stderr, "schemalab: %s\n", g.t(msgServingUsers, map[string]any{"Host": strings.TrimSuffix(strings.TrimPrefix(srv.URI(), "mongodb://"), "/")}))
	}
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
	msgServeUsage         = &locale.Message{ID: "cli.serve.usage", Other: "usage: schemalab serve [--port N] [--bind ADDR] [--bind-any] [--strict] [--users FILE [--max-storage MIB] [--max-cursors N] [--max-connections N]]"}
	msgFlagPort           = &locale.Message{ID: "cli.flag.port", Other: "TCP port (0 picks a free one)"}
	msgFlagBind           = &locale.Message{ID: "cli.flag.bind", Other: "address to listen on"}
	msgFlagBindAny        = &locale.Message{ID: "cli.flag.bindAny", Other: "allow a non-loopback --bind (the sandbox has no authentication)"}
	msgFlagUsers          = &locale.Message{ID: "cli.flag.users", Other: "require clients to log in as the users of FILE (SCRAM-SHA-256, authSource admin): one per line, NAME PASSWORD [PREFIX]; a user with a PREFIX may use only the databases named PREFIX*"}
	msgFlagMaxStorage     = &locale.Message{ID: "cli.flag.maxStorage", Other: "storage quota of each user with a prefix, in MiB of data plus indexes as db.stats() reports them (0: none)"}
	msgFlagMaxCursors     = &locale.Message{ID: "cli.flag.maxCursors", Other: "open cursors each user may keep (0: 10000)"}
	msgFlagMaxConnections = &locale.Message{ID: "cli.flag.maxConnections", Other: "connections each user may have open at once (0: no limit)"}
	msgLimitsNeedUsers    = &locale.Message{ID: "cli.serve.limitsNeedUsers", Other: "--max-storage, --max-cursors and --max-connections are limits per user: they need --users, and cannot be negative"}
	msgBadUsersFile       = &locale.Message{ID: "cli.serve.badUsersFile", Other: "--users {{.File}}: {{.Err}}"}
	msgServingUsers       = &locale.Message{ID: "cli.serve.users", Other: "clients must log in: mongosh 'mongodb://NAME:PASSWORD@{{.Host}}/?authSource=admin'"}
	msgFlagStrict         = &locale.Message{ID: "cli.flag.strict", Other: "answer exactly like mongod: refuse schemalab's own commands (schemalabSnapshot) with CommandNotFound"}
	msgBadPort            = &locale.Message{ID: "cli.serve.badPort", Other: "--port {{.Port}} is not a TCP port"}
	msgBindNotLoopback    = &locale.Message{ID: "cli.serve.bindNotLoopback", Other: "--bind {{.Bind}} is not a loopback address and the sandbox has no authentication; add --bind-any to listen there anyway"}
	msgPortInUse          = &locale.Message{ID: "cli.serve.portInUse", Other: "port {{.Port}} on {{.Bind}} is already in use; pick another --port, or omit it for a free one"}
	msgServing            = &locale.Message{ID: "cli.serve.listening", Other: "embedded MongoDB-compatible server listening; connect with: mongosh {{.URI}}"}
	msgPressCtrlC         = &locale.Message{ID: "cli.serve.pressCtrlC", Other: "press Ctrl+C to stop"}
	msgShutdownSlow       = &locale.Message{ID: "cli.serve.shutdownSlow", Other: "a command did not stop within {{.Grace}}; exiting anyway"}
	msgServerStopped      = &locale.Message{ID: "cli.serve.stopped", Other: "server stopped"}
)

// serveUser is one line of --users.
type serveUser struct{ name, password, prefix string }

// maxUsersFile bounds what --users reads.
const maxUsersFile = 1 << 20

// readUsersFile reads --users: a regular file that only its owner may
// read (as mongod requires of a key file), one user per line, NAME
// PASSWORD [PREFIX]; blank lines and lines starting with # are skipped.
// It is checked to be a regular file before it is opened, so a FIFO or a
// device cannot block or flood the server.
func readUsersFile(path string) ([]serveUser, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("it holds passwords but others may read it (mode %v); chmod 600 it", fi.Mode().Perm())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxUsersFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxUsersFile {
		return nil, fmt.Errorf("larger than %d bytes", maxUsersFile)
	}
	var users []serveUser
	for i, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		if len(fields) < 2 || len(fields) > 3 {
			return nil, fmt.Errorf("line %d: want NAME PASSWORD [PREFIX]", i+1)
		}
		u := serveUser{name: fields[0], password: fields[1]}
		if len(fields) == 3 {
			if err := sandbox.ValidatePrefix(fields[2]); err != nil {
				return nil, fmt.Errorf("line %d: %v", i+1, err)
			}
			u.prefix = fields[2]
		}
		users = append(users, u)
	}
	if len(users) == 0 {
		return nil, errors.New("no users in it")
	}
	return users, nil
}

// shutdownGrace bounds how long SIGINT/SIGTERM waits for running commands.
const shutdownGrace = 800 * time.Millisecond
