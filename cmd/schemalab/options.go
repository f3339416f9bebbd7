package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/schemalab/schemalab/sandbox/shell"
)

// globalOptions are the flags every subcommand accepts (DESIGN.md,
// "Command line").
type globalOptions struct {
	URI        string // --uri, env MONGODB_URI
	Sandbox    string // --sandbox embedded|mongod|uri
	DBPrefix   string // --db-prefix, default "schemalab_"
	ContentDir string // --content
	NoColor    bool   // --no-color, env NO_COLOR
	// Mongod is --mongod: the mongod binary for --sandbox mongod.
	Mongod string
	// UnsafeAnyDB is --unsafe-any-db: the explicit opt-out of the rule
	// that keeps a real server's databases outside the prefix untouched.
	UnsafeAnyDB bool
	// ScriptHeapMB is --script-heap: how much memory one script (a lesson
	// block, a shell input) may take before it is stopped.
	ScriptHeapMB int
}

// defaultGlobalOptions applies the environment: MONGODB_URI and NO_COLOR
// (any non-empty value, per no-color.org).
func defaultGlobalOptions(getenv func(string) string) globalOptions {
	return globalOptions{
		URI:          getenv("MONGODB_URI"),
		DBPrefix:     "schemalab_",
		NoColor:      getenv("NO_COLOR") != "",
		ScriptHeapMB: shell.DefaultHeapLimit >> 20,
	}
}

// globalValueFlags take a value; --no-color and --unsafe-any-db are the
// booleans.
var globalValueFlags = map[string]bool{"uri": true, "sandbox": true, "db-prefix": true, "content": true, "mongod": true, "script-heap": true}

func (g *globalOptions) flagSet(name string, errOut io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.StringVar(&g.URI, "uri", g.URI, "MongoDB connection string (env MONGODB_URI)")
	fs.StringVar(&g.Sandbox, "sandbox", g.Sandbox, "sandbox backend: embedded, mongod or uri")
	fs.StringVar(&g.DBPrefix, "db-prefix", g.DBPrefix, "prefix of lesson database names")
	fs.StringVar(&g.ContentDir, "content", g.ContentDir, "directory of extra lesson packs")
	fs.BoolVar(&g.NoColor, "no-color", g.NoColor, "disable colors (env NO_COLOR)")
	fs.StringVar(&g.Mongod, "mongod", g.Mongod, "mongod binary for --sandbox mongod (default: mongod on PATH)")
	fs.BoolVar(&g.UnsafeAnyDB, "unsafe-any-db", g.UnsafeAnyDB, "on a real server, allow databases outside the prefix")
	fs.IntVar(&g.ScriptHeapMB, "script-heap", g.ScriptHeapMB, "memory one script may use, in MB, before it is stopped")
	fs.Usage = func() { usage(errOut) }
	return fs
}

// parseCommandLine splits args into global options, the subcommand and the
// subcommand's own arguments. Global flags may come before the subcommand
// or among its arguments (`schemalab shell --uri URI file.js`); everything
// after a "--" is left to the subcommand untouched.
func parseCommandLine(args []string, getenv func(string) string, errOut io.Writer) (globalOptions, string, []string, error) {
	g := defaultGlobalOptions(getenv)
	fs := g.flagSet("schemalab", errOut)
	if err := fs.Parse(args); err != nil {
		return g, "", nil, err
	}
	rest := fs.Args()
	if len(rest) == 0 {
		return g, "", nil, g.validate()
	}
	sub, rest := rest[0], rest[1:]
	var global, own []string
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			own = append(own, rest[i:]...)
			break
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || a == "-" {
			own = append(own, a)
			continue
		}
		switch {
		case name == "no-color" || name == "unsafe-any-db":
			global = append(global, a)
		case globalValueFlags[name]:
			global = append(global, a)
			if !hasValue && i+1 < len(rest) {
				i++
				global = append(global, rest[i])
			}
		default:
			own = append(own, a)
		}
	}
	if err := fs.Parse(global); err != nil {
		return g, sub, nil, err
	}
	return g, sub, own, g.validate()
}

func (g *globalOptions) validate() error {
	if g.ScriptHeapMB <= 0 {
		return fmt.Errorf("--script-heap must be a number of megabytes above 0, not %d", g.ScriptHeapMB)
	}
	switch g.Sandbox {
	case "", "embedded", "mongod", "uri":
		return nil
	}
	return fmt.Errorf("--sandbox must be embedded, mongod or uri, not %q", g.Sandbox)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `schemalab: a terminal course and playground for MongoDB schema-design patterns

Usage:
  schemalab [global flags] [--present] [--lesson ID [--step N]]
                                              the course (terminal UI)
  schemalab serve [--port N] [--bind ADDR] [--bind-any]
                                              run the embedded MongoDB-compatible server
  schemalab shell [--db NAME] [FILE.js | -]   run mongosh-syntax JavaScript
  schemalab run [--check] [--format text|markdown] [LESSON...]
                                              print lesson transcripts; --check verifies them
  schemalab list                              lessons, ids and progress
  schemalab reset [LESSON...|--all] [--yes]   reset lesson databases and progress
  schemalab doctor                            check the terminal, tools, backend and progress store
  schemalab classroom [--listen ADDR] [--bind-any] [--allow-keys FILE | --password-file FILE | --open]
                      [--max-students N] [--instructor NAME] [--timeout D]
                                              serve the course over SSH, one TUI per student, with a live dashboard
  schemalab version                           print version information

Global flags:
  --uri URI          MongoDB connection string (env MONGODB_URI)
  --sandbox KIND     embedded, mongod or uri
  --db-prefix P      prefix of lesson database names (default "schemalab_")
  --content DIR      directory of extra lesson packs
  --no-color         disable colors (env NO_COLOR)
  --mongod PATH      mongod binary for --sandbox mongod (default: mongod on PATH)
  --unsafe-any-db    on a real server, allow databases outside the prefix
  --script-heap MB   memory one script may use before it is stopped (default 512)
`)
}
