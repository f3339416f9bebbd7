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
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	g, sub, rest, err := parseCommandLine(args, getenv, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "schemalab: %v\n", err)
		return 2
	}
	switch sub {
	case "":
		fmt.Fprintln(stdout, "The schemalab course (terminal UI) is coming soon.")
		fmt.Fprintln(stdout, "Meanwhile: `schemalab serve` starts the embedded MongoDB-compatible server,")
		fmt.Fprintln(stdout, "and `schemalab shell` runs mongosh-syntax JavaScript against it.")
		return 0
	case "serve":
		return runServe(ctx, &g, rest, stdout, stderr)
	case "shell":
		return runShell(ctx, &g, rest)
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
