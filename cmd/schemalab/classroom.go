package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	charmlog "charm.land/log/v2"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
	room "github.com/schemalab/schemalab/lessons/classroom"
	"github.com/schemalab/schemalab/sandbox"
	"github.com/schemalab/schemalab/sandbox/shell/lineedit"
	"github.com/schemalab/schemalab/tui/classroom"
)

// runClassroom implements `schemalab classroom [--listen ADDR] [--bind-any]
// [--allow-keys FILE | --password-file FILE | --open] [--max-students N]
// [--instructor NAME] [--timeout D]`: the course over SSH, one TUI per
// session, with the live dashboard in this terminal.
func runClassroom(ctx context.Context, g *globalOptions, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("schemalab classroom", flag.ContinueOnError)
	fs.SetOutput(stderr)
	listen := fs.String("listen", classroom.DefaultListen, "address to listen on (HOST:PORT)")
	bindAny := fs.Bool("bind-any", false, "allow a non-loopback --listen, reachable from other machines")
	allowKeys := fs.String("allow-keys", "", "authorized_keys file with the students' public keys")
	passwordFile := fs.String("password-file", "", "file whose first line is the class password")
	open := fs.Bool("open", false, "let anyone in, with no key or password")
	maxStudents := fs.Int("max-students", classroom.DefaultMaxStudents, "most students at once")
	instructor := fs.String("instructor", "", "login name that gets the dashboard over SSH")
	timeout := fs.Duration("timeout", 30*time.Second, "time limit for one block of a student's code")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(stderr, "schemalab classroom: "+format+"\n", a...)
		return code
	}
	if fs.NArg() > 0 {
		return fail(2, "unexpected argument %q", fs.Arg(0))
	}
	if *maxStudents < 1 {
		return fail(2, "--max-students must be at least 1")
	}
	auth := classroom.Auth{AllowKeysFile: *allowKeys, Open: *open}
	if *passwordFile != "" {
		raw, err := os.ReadFile(*passwordFile)
		if err != nil {
			return fail(2, "--password-file: %v", err)
		}
		auth.Password, _, _ = strings.Cut(strings.TrimRight(string(raw), "\r\n"), "\n")
		if auth.Password = strings.TrimSpace(auth.Password); auth.Password == "" {
			return fail(2, "--password-file %s: its first line, the class password, is empty", *passwordFile)
		}
	}
	if err := auth.Validate(); err != nil {
		return fail(2, "%v", err)
	}
	if *open && *instructor != "" {
		return fail(2, "--instructor needs --allow-keys or --password-file: in an --open classroom anyone could log in as %s", *instructor)
	}

	cat, errs := lessons.Load(content.FS, g.ContentDir)
	var warnings []string
	for _, err := range errs {
		warnings = append(warnings, err.Error())
	}
	be, err := openSandbox(ctx, g)
	if err != nil {
		return fail(1, "%v", err)
	}
	defer be.Close()

	dashboard := lineedit.IsTerminal(os.Stdin) && lineedit.IsTerminal(os.Stdout)
	stateDir := filepath.Join(lessons.DefaultStateDir(os.Getenv), "classroom")
	logOut := stderr
	if dashboard {
		// The dashboard owns the terminal; the connection log goes to a file.
		if err := os.MkdirAll(stateDir, 0o700); err != nil {
			return fail(1, "%v", err)
		}
		f, err := os.OpenFile(filepath.Join(stateDir, "classroom.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			return fail(1, "%v", err)
		}
		defer f.Close()
		logOut = f
		// wish reports a session's crash through charm's default logger,
		// which writes to stderr: under the dashboard, to the file too.
		charmlog.SetOutput(f)
		defer charmlog.SetOutput(os.Stderr)
	}

	// On the embedded server each lesson runs once, as a template that
	// every student starts from; on another server there are no
	// snapshots to share, and each student's session runs the lessons'
	// code itself.
	var templates *room.Templates
	var seeds func(context.Context, *lessons.Lesson) (*lessons.Seeds, error)
	shared := "lessons: each lesson's setup runs once, and every student starts from a shared copy-on-write copy of its data"
	if be.Kind == sandbox.KindEmbedded {
		templates = room.NewTemplates(be.Client, be.Connector())
		seeds = templates.Seeds
	} else {
		shared = "lessons: not shared: the classroom shares lessons on its embedded server only, since a real MongoDB cannot save database snapshots; here every student's session runs the lessons' setup code itself (slower, and more memory, with many students)"
	}

	srv, err := classroom.New(classroom.Config{
		Listen:      *listen,
		BindAny:     *bindAny,
		StateDir:    stateDir,
		Auth:        auth,
		MaxStudents: *maxStudents,
		Instructor:  *instructor,
		Catalog:     cat,
		Warnings:    warnings,
		Sandbox: func(ctx context.Context, prefix string) (*lessons.Sandbox, error) {
			sb, err := be.ForPrefix(ctx, prefix)
			if err != nil {
				return nil, err
			}
			return lessonSandbox(sb), nil
		},
		Seeds:          seeds,
		CheckPrefix:    sandbox.ValidatePrefix,
		Room:           room.New(room.Options{}),
		ScriptTimeout:  *timeout,
		ReservedPrefix: g.DBPrefix,
		NoColor:        g.NoColor,
		Log:            logOut,
	})
	switch {
	case errors.Is(err, classroom.ErrNonLoopback):
		return fail(2, "%v", err)
	case errors.Is(err, syscall.EADDRINUSE):
		return fail(1, "%s is already in use; pick another --listen", *listen)
	case err != nil:
		return fail(1, "%v", err)
	}
	defer srv.Close()

	if *open {
		fmt.Fprintf(stderr, "\nWARNING: --open: ANYONE who can reach %s can log in, under any name, with no key or password.\n\n", srv.Addr())
	}
	fp, keyPath := srv.HostKey()
	fmt.Fprintf(stdout, "schemalab classroom: listening on %s (%s)\n", srv.Addr(), be.Status())
	fmt.Fprintf(stdout, "students log in with: %s\n", srv.LoginHint())
	fmt.Fprintf(stdout, "host key %s (%s)\n", fp, keyPath)
	fmt.Fprintln(stdout, shared)
	if f, ok := stdout.(interface{ Sync() error }); ok {
		f.Sync() // a script waiting for the address must see it now
	}

	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	if templates != nil {
		// Built ahead, so that the first student of a lesson does not
		// wait for it; what cannot be shared goes to the log.
		buildCtx, stopBuilding := context.WithCancel(ctx)
		built := make(chan struct{})
		go func() {
			defer close(built)
			templates.BuildAll(buildCtx, cat, func(line string) { fmt.Fprintln(logOut, "schemalab classroom: "+line) })
		}()
		defer func() {
			stopBuilding()
			<-built
		}()
	}
	if dashboard {
		err = srv.RunDashboard(ctx)
	} else {
		fmt.Fprintln(stderr, "schemalab classroom: no terminal here, so no dashboard; Ctrl+C or SIGTERM stops the classroom")
		select {
		case <-ctx.Done():
		case err = <-served:
		}
	}
	if cerr := srv.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(1, "%v", err)
	}
	fmt.Fprintln(stderr, "schemalab classroom: stopped")
	return 0
}
