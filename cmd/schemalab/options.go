package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
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
	// Lang is the language of the course and of every message: --lang, or
	// what LC_ALL, LC_MESSAGES or LANG ask for; L speaks it.
	Lang locale.Choice
	L    *locale.Localizer
	// heap is what the shell subcommand's shell shares of this process's
	// heap; lessonHeap what the lesson sessions share of it.
	heap       *shell.HeapShare
	lessonHeap *lessons.HeapShare
}

// defaultGlobalOptions applies the environment: MONGODB_URI, NO_COLOR
// (any non-empty value, per no-color.org), and the locale variables.
func defaultGlobalOptions(getenv func(string) string) globalOptions {
	lang := locale.Detect(getenv)
	return globalOptions{
		URI:          getenv("MONGODB_URI"),
		DBPrefix:     "schemalab_",
		NoColor:      getenv("NO_COLOR") != "",
		ScriptHeapMB: shell.DefaultHeapLimit >> 20,
		Lang:         lang,
		L:            locale.For(lang.Lang),
		heap:         &shell.HeapShare{},
		lessonHeap:   &lessons.HeapShare{},
	}
}

// globalValueFlags take a value; --no-color and --unsafe-any-db are the
// booleans.
var globalValueFlags = map[string]bool{"uri": true, "sandbox": true, "db-prefix": true, "content": true, "mongod": true, "script-heap": true, "lang": true}

// setLang applies --lang.
func (g *globalOptions) setLang(v string) error {
	lang, ok := locale.Match(v)
	if !ok {
		return errors.New(g.t(msgBadLang, map[string]any{"Langs": strings.Join(locale.Languages(), ", "), "Value": v}))
	}
	g.Lang = locale.Choice{Lang: lang, From: "--lang", Value: v, Known: true}
	g.L = locale.For(lang)
	return nil
}

// langFromArgs applies a --lang given anywhere on the command line before
// any flag set is made, so that their help is in that language too. A bad
// value is left for the flag set to report.
func (g *globalOptions) langFromArgs(args []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return
		}
		name, v, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "lang" {
			continue
		}
		if !hasValue && i+1 < len(args) {
			v = args[i+1]
		}
		_ = g.setLang(v)
	}
}

// t is message m in the chosen language.
func (g *globalOptions) t(m *locale.Message, data map[string]any) string { return g.L.T(m, data) }

var (
	msgFlagURI     = &locale.Message{ID: "cli.flag.uri", Other: "MongoDB connection string (env MONGODB_URI)"}
	msgFlagSandbox = &locale.Message{ID: "cli.flag.sandbox", Other: "sandbox backend: embedded, mongod or uri"}
	msgFlagPrefix  = &locale.Message{ID: "cli.flag.dbPrefix", Other: "prefix of lesson database names"}
	msgFlagContent = &locale.Message{ID: "cli.flag.content", Other: "directory of extra lesson packs"}
	msgFlagNoColor = &locale.Message{ID: "cli.flag.noColor", Other: "disable colors (env NO_COLOR)"}
	msgFlagMongod  = &locale.Message{ID: "cli.flag.mongod", Other: "mongod binary for --sandbox mongod (default: mongod on PATH)"}
	msgFlagUnsafe  = &locale.Message{ID: "cli.flag.unsafeAnyDB", Other: "on a real server, allow databases outside the prefix"}
	msgFlagHeap    = &locale.Message{ID: "cli.flag.scriptHeap", Other: "memory one script may use, in MB, before it is stopped"}
	msgFlagLang    = &locale.Message{ID: "cli.flag.lang", Other: "language: en, id or ru (default from LC_ALL, LC_MESSAGES, LANG)"}
	msgBadLang     = &locale.Message{ID: "cli.badLang", Other: `--lang must be one of {{.Langs}}, not "{{.Value}}"`}
	msgBadHeap     = &locale.Message{ID: "cli.badHeap", Other: "--script-heap must be a number of megabytes above 0, not {{.N}}"}
	msgBadSandbox  = &locale.Message{ID: "cli.badSandbox", Other: `--sandbox must be embedded, mongod or uri, not "{{.Value}}"`}
	msgUsage       = &locale.Message{ID: "cli.usage", Other: `schemalab: a terminal course and playground for MongoDB schema-design patterns

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
  schemalab doctor                            check the terminal, tools, backend, progress store and language
  schemalab classroom [--listen ADDR] [--bind-any] [--allow-keys FILE | --password-file FILE | --open]
                      [--max-students N] [--instructor NAME] [--timeout D]
                                              serve the course over SSH, one TUI per student, with a live dashboard
  schemalab advise [--db NAME] [--collection NAME]... [--sample N] [--format text|markdown|json]
                                              read-only analysis of a database: which patterns it needs, with evidence
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
  --lang LANG        language: en, id or ru (default from LC_ALL, LC_MESSAGES, LANG)
`}
	msgDefault = &locale.Message{ID: "cli.default", Other: "(default {{.Value}})"}
)

func (g *globalOptions) flagSet(name string, errOut io.Writer) *flag.FlagSet {
	fs := newFlagSet(name)
	fs.StringVar(&g.URI, "uri", g.URI, g.t(msgFlagURI, nil))
	fs.StringVar(&g.Sandbox, "sandbox", g.Sandbox, g.t(msgFlagSandbox, nil))
	fs.StringVar(&g.DBPrefix, "db-prefix", g.DBPrefix, g.t(msgFlagPrefix, nil))
	fs.StringVar(&g.ContentDir, "content", g.ContentDir, g.t(msgFlagContent, nil))
	fs.BoolVar(&g.NoColor, "no-color", g.NoColor, g.t(msgFlagNoColor, nil))
	fs.StringVar(&g.Mongod, "mongod", g.Mongod, g.t(msgFlagMongod, nil))
	fs.BoolVar(&g.UnsafeAnyDB, "unsafe-any-db", g.UnsafeAnyDB, g.t(msgFlagUnsafe, nil))
	fs.IntVar(&g.ScriptHeapMB, "script-heap", g.ScriptHeapMB, g.t(msgFlagHeap, nil))
	fs.Func("lang", g.t(msgFlagLang, nil), g.setLang)
	fs.Usage = func() { g.usage(errOut) }
	return fs
}

// newFlagSet is a flag set that prints nothing itself: parse reports its
// errors in the chosen language (the flag package words them in English
// only), and usage functions print the help.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// printFlags lists fs's flags with their help, as flag.PrintDefaults does
// but in the chosen language.
func (g *globalOptions) printFlags(w io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		line := "  --" + f.Name
		if name, _ := flag.UnquoteUsage(f); name != "" {
			line += " " + strings.ToUpper(name)
		}
		line += "\n      " + f.Usage
		if d := f.DefValue; d != "" && d != "false" && d != "0" && d != "0s" {
			line += " " + g.t(msgDefault, map[string]any{"Value": d})
		}
		fmt.Fprintln(w, line)
	})
}

// parseCommandLine splits args into global options, the subcommand and the
// subcommand's own arguments. Global flags may come before the subcommand
// or among its arguments (`schemalab shell --uri URI file.js`); everything
// after a "--" is left to the subcommand untouched.
func parseCommandLine(args []string, getenv func(string) string, errOut io.Writer) (globalOptions, string, []string, error) {
	g := defaultGlobalOptions(getenv)
	g.langFromArgs(args)
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
		return errors.New(g.t(msgBadHeap, map[string]any{"N": g.ScriptHeapMB}))
	}
	switch g.Sandbox {
	case "", "embedded", "mongod", "uri":
		return nil
	}
	return errors.New(g.t(msgBadSandbox, map[string]any{"Value": g.Sandbox}))
}

func (g *globalOptions) usage(w io.Writer) { fmt.Fprint(w, g.t(msgUsage, nil)) }

// parse parses args into fs, reporting a bad flag in the chosen language.
func (g *globalOptions) parse(fs *flag.FlagSet, args []string, errOut io.Writer) error {
	err := fs.Parse(args)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(errOut, g.flagError(err))
	}
	return err
}

var (
	msgFlagUndefined = &locale.Message{ID: "cli.flagUndefined", Other: "unknown flag {{.Flag}} (help: schemalab help)"}
	msgFlagNeedsArg  = &locale.Message{ID: "cli.flagNeedsArg", Other: "flag {{.Flag}} needs a value"}
	msgFlagBadValue  = &locale.Message{ID: "cli.flagBadValue", Other: `invalid value "{{.Value}}" for {{.Flag}}: {{.Err}}`}
)

// flagErrorPatterns are the flag package's error messages, which it words
// in English only.
var flagErrorPatterns = []struct {
	re  *regexp.Regexp
	msg *locale.Message
}{
	{regexp.MustCompile(`^flag provided but not defined: -+(.*)$`), msgFlagUndefined},
	{regexp.MustCompile(`^flag needs an argument: -+(.*)$`), msgFlagNeedsArg},
	{regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-+([^:]*): (?:parse error|(.*))$`), msgFlagBadValue},
}

func (g *globalOptions) flagError(err error) string {
	s := err.Error()
	for _, p := range flagErrorPatterns {
		m := p.re.FindStringSubmatch(s)
		switch {
		case m == nil:
			continue
		case p.msg == msgFlagBadValue:
			return g.t(p.msg, map[string]any{"Value": m[1], "Flag": "--" + m[2], "Err": m[3]})
		}
		return g.t(p.msg, map[string]any{"Flag": "--" + m[1]})
	}
	return s
}
