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

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/shell"
	"github.com/schemalab/schemalab/sandbox/shell/lineedit"
	"github.com/schemalab/schemalab/sandbox/wire"
)

// runShell implements `schemalab shell`; args are the arguments after the
// subcommand name, with global flags already parsed into g.
func runShell(ctx context.Context, g *globalOptions, args []string) int {
	fs := flag.NewFlagSet("shell", flag.ContinueOnError)
	uri := fs.String("uri", g.URI, "connection string (default: the embedded sandbox; env MONGODB_URI)")
	dbName := fs.String("db", "test", "database to start in")
	timeout := fs.Duration("timeout", 10*time.Second, "time limit for one evaluation")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: schemalab shell [--uri URI] [--db NAME] [FILE.js | -]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *uri == "" {
		*uri = os.Getenv("MONGODB_URI")
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return 2
	}

	client, cleanup, err := connectShell(ctx, *uri)
	if err != nil {
		fmt.Fprintln(os.Stderr, "schemalab shell:", err)
		return 1
	}
	defer cleanup()

	sh, err := shell.New(client, *dbName, shell.Options{Timeout: *timeout})
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
	if evalErr != nil {
		return 1
	}
	return 0
}

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

// connectShell connects the driver to uri, or starts the embedded sandbox
// when uri is empty.
func connectShell(ctx context.Context, uri string) (*mongo.Client, func(), error) {
	var srv *wire.Server
	if uri == "" {
		var err error
		srv, err = wire.Start(ctx, wire.Options{Engine: engine.New()})
		if err != nil {
			return nil, nil, fmt.Errorf("start embedded sandbox: %w", err)
		}
		uri = srv.URI()
	}
	opts := options.Client().ApplyURI(uri).
		SetServerSelectionTimeout(5 * time.Second).
		SetAppName("schemalab shell")
	client, err := mongo.Connect(opts)
	if err != nil {
		if srv != nil {
			_ = srv.Close()
		}
		return nil, nil, err
	}
	cleanup := func() {
		dctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = client.Disconnect(dctx)
		if srv != nil {
			_ = srv.Close()
		}
	}
	return client, cleanup, nil
}

// interactiveShell is the line shell: a `<db>> ` prompt, history, and
// continuation lines while brackets are open. Ctrl+C interrupts a running
// evaluation or clears the input; Ctrl+D on an empty line exits.
func interactiveShell(ctx context.Context, sh *shell.Shell) int {
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
		evalCtx, stop := signal.NotifyContext(ctx, os.Interrupt)
		res, evalErr := sh.Eval(evalCtx, src)
		stop()
		writeTranscript(res, evalErr)
	}
}

func historyPath() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return dir + "/schemalab/shell_history"
}
