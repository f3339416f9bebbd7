// Command schemalab is a terminal course and playground for MongoDB
// schema-design patterns.
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

	"github.com/schemalab/schemalab/lessons/locale"
)

func main() {
	// Ctrl+C and SIGTERM cancel the context, so that every subcommand
	// unwinds through its deferred Close: a mongod we started is stopped
	// and its temporary directory removed. (The TUI and the interactive
	// shell read keys in raw mode and handle Ctrl+C themselves.)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the process: it returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if !hasSubcommand(args) {
		// No subcommand: the course itself. Its own flags (--present,
		// --lesson, --step) mix with the global ones.
		if code, ok := checkTUIArgs(args, getenv, stderr); !ok {
			return code
		}
		g := defaultGlobalOptions(getenv)
		g.langFromArgs(args)
		return runTUI(ctx, &g, args)
	}
	g, sub, rest, err := parseCommandLine(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "schemalab: %s\n", g.flagError(err))
		return 2
	}
	switch sub {
	case "serve":
		return runServe(ctx, &g, rest, stdout, stderr)
	case "shell":
		return runShell(ctx, &g, rest)
	case "run":
		return runRun(ctx, &g, rest)
	case "list":
		return runList(ctx, &g, rest)
	case "reset":
		return runReset(ctx, &g, rest)
	case "doctor":
		return runDoctor(ctx, &g, rest)
	case "classroom":
		return runClassroom(ctx, &g, rest, stdout, stderr)
	case "advise":
		return runAdvise(ctx, &g, rest, os.Stdin, stdout, stderr)
	case "version":
		return runVersion(&g, rest, stdout, stderr)
	case studentCommand:
		return runStudent(ctx, &g, stderr)
	case "help":
		g.usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "schemalab: %s\n\n", g.t(msgUnknownCommand, map[string]any{"Name": sub}))
	g.usage(stderr)
	return 2
}

var (
	msgUnknownCommand = &locale.Message{ID: "cli.unknownCommand", Other: `unknown command "{{.Name}}"`}
	msgFlagPresent    = &locale.Message{ID: "cli.flag.present", Other: "presenter mode: minimal chrome, large margins and bars"}
	msgFlagLesson     = &locale.Message{ID: "cli.flag.lesson", Other: "open this lesson directly"}
	msgFlagStep       = &locale.Message{ID: "cli.flag.step", Other: "with --lesson: open at this step (1-based)"}
)

// tuiValueFlags are the course's own flags that take a value.
var tuiValueFlags = map[string]bool{"lesson": true, "step": true}

// hasSubcommand reports whether args name a subcommand (a word that is
// neither a flag nor a flag's value), as opposed to opening the course.
func hasSubcommand(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return i+1 < len(args)
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			return true
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if (globalValueFlags[name] || tuiValueFlags[name]) && !hasValue {
			i++
		}
		if name == "h" || name == "help" {
			return true
		}
	}
	return false
}

// checkTUIArgs reports bad flags on the course's command line to stderr
// before the terminal is taken over.
func checkTUIArgs(args []string, getenv func(string) string, stderr io.Writer) (int, bool) {
	g := defaultGlobalOptions(getenv)
	g.langFromArgs(args)
	fs := g.flagSet("schemalab", stderr)
	fs.Bool("present", false, g.t(msgFlagPresent, nil))
	fs.String("lesson", "", g.t(msgFlagLesson, nil))
	fs.Int("step", 0, g.t(msgFlagStep, nil))
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		fmt.Fprintf(stderr, "schemalab: %s\n", g.flagError(err))
		return 2, false
	}
	if err := g.validate(); err != nil {
		fmt.Fprintf(stderr, "schemalab: %v\n", err)
		return 2, false
	}
	return 0, true
}
