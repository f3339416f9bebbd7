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
		return runTUI(ctx, &g, args)
	}
	g, sub, rest, err := parseCommandLine(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "schemalab: %v\n", err)
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
	case "version":
		return runVersion(rest, stdout, stderr)
	case "help":
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "schemalab: unknown command %q\n\n", sub)
	usage(stderr)
	return 2
}

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
	fs := g.flagSet("schemalab", stderr)
	fs.Bool("present", false, "presenter mode")
	fs.String("lesson", "", "open this lesson directly")
	fs.Int("step", 0, "with --lesson: open at this step")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0, false
		}
		return 2, false
	}
	if err := g.validate(); err != nil {
		fmt.Fprintf(stderr, "schemalab: %v\n", err)
		return 2, false
	}
	return 0, true
}
