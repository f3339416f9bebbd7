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
	"time"

	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox/shell"
	"github.com/schemalab/schemalab/sandbox/shell/lineedit"
)

// runShell implements `schemalab shell`; args are the arguments after the
// subcommand name, with global flags already parsed into g.
func runShell(ctx context.Context, g *globalOptions, args []string) int {
	fs := newFlagSet("shell")
	uri := fs.String("uri", g.URI, g.t(msgFlagShellURI, nil))
	dbName := fs.String("db", "test", g.t(msgFlagDB, nil))
	timeout := fs.Duration("timeout", 10*time.Second, g.t(msgFlagTimeout, nil))
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, g.t(msgShellUsage, nil))
		g.printFlags(os.Stderr, fs)
	}
	if err := g.parse(fs, args, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return 2
	}
	dbGiven := false
	fs.Visit(func(f *flag.Flag) { dbGiven = dbGiven || f.Name == "db" })

	g.URI = *uri
	be, err := openSandbox(ctx, g)
	if err != nil {
		fmt.Fprintln(os.Stderr, "schemalab shell:", err)
		return 1
	}
	defer be.Close()
	db := *dbName
	if !dbGiven && be.Enforced() {
		// On a real server the shell starts inside the sandbox's names.
		db = be.DatabaseName("scratch")
	}
	if err := be.CheckDB(db); err != nil {
		fmt.Fprintln(os.Stderr, "schemalab shell:", err)
		return 2
	}

	sh, err := shell.New(be.Client, db, shell.Options{Timeout: *timeout, HeapLimit: be.ScriptHeap(), HeapShare: g.heap})
	if err != nil {
		fmt.Fprintln(os.Stderr, "schemalab shell:", err)
		return 1
	}

	file := fs.Arg(0)
	if file == "" && lineedit.IsTerminal(os.Stdin) {
		return interactiveShell(ctx, sh)
	}
	var src []byte
	if file == "" || file == "-" {
		src, err = io.ReadAll(os.Stdin)
	} else {
		src, err = os.ReadFile(file)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "schemalab shell:", err)
		return 1
	}
	evalCtx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	res, evalErr := sh.Eval(evalCtx, string(src))
	writeTranscript(res, evalErr)
	if res.Exited {
		return res.ExitCode
	}
	if evalErr != nil {
		return 1
	}
	return 0
}

var (
	msgShellUsage   = &locale.Message{ID: "cli.shell.usage", Other: "usage: schemalab shell [--uri URI] [--db NAME] [FILE.js | -]"}
	msgFlagShellURI = &locale.Message{ID: "cli.flag.shellURI", Other: "connection string (default: the embedded sandbox; env MONGODB_URI)"}
	msgFlagDB       = &locale.Message{ID: "cli.flag.db", Other: "database to start in"}
	msgFlagTimeout  = &locale.Message{ID: "cli.flag.timeout", Other: "time limit for one evaluation"}
)

// writeTranscript prints results on stdout and the error, as mongosh
// does, on stderr.
func writeTranscript(res shell.Result, evalErr error) {
	out := res.Transcript
	if evalErr != nil {
		out = strings.TrimSuffix(out, evalErr.Error()+"\n")
	}
	os.Stdout.WriteString(out)
	if evalErr != nil {
		fmt.Fprintln(os.Stderr, evalErr.Error())
	}
}

// interactiveShell is the line shell: a `<db>> ` prompt, history, and
// continuation lines while brackets are open. Ctrl+C interrupts a running
// evaluation or clears the input; Ctrl+D on an empty line exits.
func interactiveShell(ctx context.Context, sh *shell.Shell) int {
	// Ctrl+C belongs to the evaluation it interrupts: main's context,
	// which ends with the first one, would leave every later evaluation
	// interrupted before it began.
	signal.Reset(os.Interrupt)
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	defer signal.Stop(interrupts)
	ed := lineedit.New(os.Stdin, os.Stdout)
	ed.LoadHistory(historyPath())
	defer ed.SaveHistory(historyPath())
	var pending strings.Builder
	for {
		prompt := sh.DB() + "> "
		if pending.Len() > 0 {
			prompt = "... "
		}
		line, err := ed.ReadLine(prompt)
		if errors.Is(err, lineedit.ErrInterrupted) {
			pending.Reset()
			continue
		}
		if err != nil { // EOF
			fmt.Println()
			return 0
		}
		if pending.Len() == 0 && strings.TrimSpace(line) == "" {
			continue
		}
		pending.WriteString(line)
		pending.WriteByte('\n')
		src := pending.String()
		if !shell.InputComplete(src) {
			continue
		}
		pending.Reset()
		ed.AddHistory(strings.TrimRight(src, "\n"))
		trimmed := strings.TrimSpace(src)
		if trimmed == "exit" || trimmed == "quit" || trimmed == "exit()" || trimmed == "quit()" {
			return 0
		}
		select {
		case <-interrupts: // one pressed at the prompt
		default:
		}
		evalCtx, stop := context.WithCancel(ctx)
		go func() {
			select {
			case <-interrupts:
				stop()
			case <-evalCtx.Done():
			}
		}()
		res, evalErr := sh.Eval(evalCtx, src)
		stop()
		writeTranscript(res, evalErr)
		if res.Exited {
			return res.ExitCode
		}
	}
}

func historyPath() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return dir + "/schemalab/shell_history"
}
