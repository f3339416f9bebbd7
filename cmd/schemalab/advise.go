package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/schemalab/schemalab/lessons/advise"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox/shell/lineedit"
)

var (
	msgAdviseUsage = &locale.Message{ID: "cli.advise.usage", Other: `usage: schemalab advise [--db NAME] [--collection NAME]... [--sample N] [--format text|markdown|json]

Reads a database and reports which schema patterns it needs (outlier, bucket,
tree, computed) and which anti-patterns it shows, with the figures behind each
finding and the lesson that explains it. It only reads: its client runs under a
read-only policy that refuses every other command before it leaves schemalab,
so it may read any database the server lets it, outside the sandbox prefix,
without --unsafe-any-db. Every command carries maxTimeMS.`}
	msgFlagAdviseDB   = &locale.Message{ID: "cli.flag.adviseDB", Other: "database to analyse (without it: list them)"}
	msgFlagCollection = &locale.Message{ID: "cli.flag.adviseCollection", Other: "analyse only this collection (repeat, or separate with commas)"}
	msgFlagSample     = &locale.Message{ID: "cli.flag.adviseSample", Other: "analyse larger collections on a $sample of this many documents"}
	msgFlagAdviseFmt  = &locale.Message{ID: "cli.flag.adviseFormat", Other: "report format: text, markdown or json"}
	msgFlagMaxTime    = &locale.Message{ID: "cli.flag.adviseMaxTime", Other: "time limit of each command (maxTimeMS)"}
	msgAdviseBadFmt   = &locale.Message{ID: "cli.advise.badFormat", Other: `--format must be text, markdown or json, not "{{.Value}}"`}
	msgAdviseBadNum   = &locale.Message{ID: "cli.advise.badNumber", Other: "--sample and --max-time must be above 0"}
	msgAdviseNoDBs    = &locale.Message{ID: "cli.advise.noDatabases", Other: "there is no database to analyse on {{.Server}}"}
	msgAdviseDBs      = &locale.Message{ID: "cli.advise.databases", Other: "Databases you can read on {{.Server}}:"}
	msgAdviseAskDB    = &locale.Message{ID: "cli.advise.askDB", Other: "Database to analyse (number or name): "}
	msgAdviseNeedDB   = &locale.Message{ID: "cli.advise.needDB", Other: "pass --db NAME to choose one"}
	msgAdviseProgress = &locale.Message{ID: "cli.advise.progress", Other: "analysing {{.Collection}} ({{.N}}/{{.Total}})…"}
	msgAdviseStopped  = &locale.Message{ID: "cli.advise.stopped", Other: "stopped: the report above has what was found until then"}
)

// runAdvise implements `schemalab advise`.
func runAdvise(ctx context.Context, g *globalOptions, args []string, stdin *os.File, stdout, stderr io.Writer) int {
	fs := newFlagSet("advise")
	db := fs.String("db", "", g.t(msgFlagAdviseDB, nil))
	var colls []string
	fs.Func("collection", g.t(msgFlagCollection, nil), func(v string) error {
		for _, c := range strings.Split(v, ",") {
			if c = strings.TrimSpace(c); c != "" {
				colls = append(colls, c)
			}
		}
		return nil
	})
	sample := fs.Int64("sample", advise.DefaultSample, g.t(msgFlagSample, nil))
	format := fs.String("format", "text", g.t(msgFlagAdviseFmt, nil))
	maxTime := fs.Duration("max-time", advise.DefaultMaxTime, g.t(msgFlagMaxTime, nil))
	fs.Usage = func() {
		fmt.Fprintln(stderr, g.t(msgAdviseUsage, nil))
		g.printFlags(stderr, fs)
	}
	if err := g.parse(fs, args, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	if !slices.Contains([]string{"text", "markdown", "json"}, *format) {
		fmt.Fprintf(stderr, "schemalab advise: %s\n", g.t(msgAdviseBadFmt, map[string]any{"Value": *format}))
		return 2
	}
	if *sample <= 0 || *maxTime <= 0 {
		fmt.Fprintf(stderr, "schemalab advise: %s\n", g.t(msgAdviseBadNum, nil))
		return 2
	}
	be, err := openSandbox(ctx, g)
	if err != nil {
		fmt.Fprintln(stderr, "schemalab advise:", err)
		return 1
	}
	defer be.Close()

	if *db == "" {
		names, err := advise.Databases(ctx, advise.FromBackend(be), *maxTime)
		if err != nil {
			fmt.Fprintln(stderr, "schemalab advise:", err)
			return 1
		}
		server := map[string]any{"Server": be.Status()}
		if len(names) == 0 {
			fmt.Fprintf(stderr, "schemalab advise: %s\n", g.t(msgAdviseNoDBs, server))
			return 2
		}
		fmt.Fprintln(stderr, g.t(msgAdviseDBs, server))
		for i, n := range names {
			fmt.Fprintf(stderr, "  %d. %s\n", i+1, n)
		}
		if *db = askDatabase(g, names, stdin, stderr); *db == "" {
			fmt.Fprintf(stderr, "schemalab advise: %s\n", g.t(msgAdviseNeedDB, nil))
			return 2
		}
	}

	opts := advise.Options{Database: *db, Collections: colls, Sample: *sample, MaxTime: *maxTime}
	onTerminal := isTerminal(stderr)
	if onTerminal {
		opts.Progress = func(p advise.Progress) {
			// One line, rewritten: the report itself goes to stdout.
			fmt.Fprintf(stderr, "\r\x1b[K%s", g.t(msgAdviseProgress, map[string]any{"Collection": p.Collection, "N": p.Index, "Total": p.Total}))
		}
	}
	rep, runErr := advise.Run(ctx, advise.FromBackend(be), opts)
	if onTerminal {
		fmt.Fprint(stderr, "\r\x1b[K")
	}
	out := bufio.NewWriter(stdout)
	switch *format {
	case "json":
		err = rep.WriteJSON(out)
	case "markdown":
		err = rep.WriteMarkdown(out)
	default:
		err = rep.WriteText(out)
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		fmt.Fprintln(stderr, "schemalab advise:", err)
		return 1
	}
	switch {
	case runErr != nil && ctx.Err() != nil:
		fmt.Fprintf(stderr, "schemalab advise: %s\n", g.t(msgAdviseStopped, nil))
		return 130
	case runErr != nil:
		fmt.Fprintln(stderr, "schemalab advise:", runErr)
		return 1
	}
	return 0
}

// askDatabase asks which database to analyse, on a terminal only: piped
// input is no answer, and the caller then asks for --db.
func askDatabase(g *globalOptions, names []string, stdin *os.File, stderr io.Writer) string {
	if stdin == nil || !lineedit.IsTerminal(stdin) || !isTerminal(stderr) {
		return ""
	}
	fmt.Fprint(stderr, g.t(msgAdviseAskDB, nil))
	line, _ := bufio.NewReader(stdin).ReadString('\n')
	line = strings.TrimSpace(line)
	if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(names) {
		return names[n-1]
	}
	if slices.Contains(names, line) {
		return line
	}
	return ""
}

// isTerminal reports whether w is a terminal, where progress and
// questions belong.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && lineedit.IsTerminal(f)
}
