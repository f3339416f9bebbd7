package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/sandbox"
)

// runDoctor implements `schemalab doctor`: what schemalab needs and finds on
// this machine. It exits 1 when something needed is missing.
func runDoctor(ctx context.Context, g *globalOptions, args []string) int {
	return doctor(ctx, g, args, os.Getenv, os.Stdout, os.Stderr)
}

// checkState is a doctor line's verdict.
type checkState int

const (
	checkOK   checkState = iota
	checkInfo            // worth knowing, not a failure
	checkFail            // something needed is missing
)

func (s checkState) mark() string {
	switch s {
	case checkOK:
		return "ok"
	case checkFail:
		return "!!"
	}
	return "--"
}

type doctorCheck struct {
	name   string
	state  checkState
	detail string
}

// minTerminal is the size below which the lesson view gets cramped.
const minTermWidth, minTermHeight = 80, 24

func doctor(ctx context.Context, g *globalOptions, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: schemalab doctor [--uri URI | --sandbox embedded|mongod|uri] [--mongod PATH]")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "schemalab doctor: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	wantMongod := g.Sandbox == sandbox.KindMongod

	checks := []doctorCheck{
		terminalCheck(stdout, g.NoColor),
		binaryCheck(ctx, "mongod", g.Mongod, wantMongod,
			"only needed for --sandbox mongod"),
		binaryCheck(ctx, "mongosh", "", false,
			"optional: to connect mongosh to `schemalab serve`"),
		backendCheck(ctx, g.sandboxConfig()),
		progressCheck(getenv),
	}

	fmt.Fprintln(stdout, "schemalab doctor")
	var failed []doctorCheck
	for _, c := range checks {
		detail := strings.ReplaceAll(c.detail, "\n", "\n"+strings.Repeat(" ", 18))
		fmt.Fprintf(stdout, "  %-4s %-10s %s\n", c.state.mark(), c.name, detail)
		if c.state == checkFail {
			failed = append(failed, c)
		}
	}
	fmt.Fprintln(stdout)
	if len(failed) == 0 {
		fmt.Fprintln(stdout, "Everything schemalab needs is in place.")
		return 0
	}
	fmt.Fprintln(stdout, "Missing or not working:")
	for _, c := range failed {
		fmt.Fprintf(stdout, "  - %s: %s\n", c.name, firstLine(c.detail))
	}
	return 1
}

// terminalCheck reports the size and colour support of the terminal the
// course would draw on. Not being a terminal is no failure: run, shell and
// serve work in pipes.
func terminalCheck(stdout io.Writer, noColor bool) doctorCheck {
	c := doctorCheck{name: "terminal"}
	f, ok := stdout.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		c.state = checkInfo
		c.detail = "output is not a terminal (the course needs one; run, shell and serve do not)"
		return c
	}
	w, h, err := term.GetSize(f.Fd())
	colour := "colours: " + colorprofile.Detect(f, os.Environ()).String()
	if noColor {
		colour = "colours: off (--no-color or NO_COLOR)"
	}
	switch {
	case err != nil:
		c.state, c.detail = checkInfo, fmt.Sprintf("size unknown (%v), %s", err, colour)
	case w < minTermWidth || h < minTermHeight:
		c.state, c.detail = checkInfo, fmt.Sprintf("%d×%d, %s; the lesson view wants at least %d×%d", w, h, colour, minTermWidth, minTermHeight)
	default:
		c.detail = fmt.Sprintf("%d×%d, %s", w, h, colour)
	}
	return c
}

// binaryCheck looks for a MongoDB tool and asks it its version. A missing
// tool fails only when needed.
func binaryCheck(ctx context.Context, name, path string, needed bool, why string) doctorCheck {
	c := doctorCheck{name: name}
	target := name
	if path != "" {
		target = path
	}
	bin, err := exec.LookPath(target)
	if err != nil {
		c.state = checkInfo
		c.detail = "not on PATH (" + why + ")"
		if path != "" {
			c.detail = fmt.Sprintf("%s not found or not executable", path)
		}
		if needed {
			c.state = checkFail
			c.detail = strings.Replace(c.detail, "("+why+")", "", 1)
			c.detail = strings.TrimSpace(c.detail) + "; --sandbox mongod needs it: install MongoDB Community Server or pass --mongod PATH"
		}
		return c
	}
	c.detail = bin
	vctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(vctx, bin, "--version").Output()
	if err != nil {
		c.state = checkInfo
		c.detail += fmt.Sprintf(" (does not run: %v)", err)
		if needed {
			c.state = checkFail
		}
		return c
	}
	if v := firstLine(strings.TrimSpace(string(out))); v != "" {
		c.detail += " (" + v + ")"
	}
	return c
}

// backendCheck opens the backend the global flags select, as the course
// would, and closes it again.
func backendCheck(ctx context.Context, cfg sandbox.Config) doctorCheck {
	c := doctorCheck{name: "backend"}
	start := time.Now()
	b, err := sandbox.Open(ctx, cfg)
	if err != nil {
		c.state, c.detail = checkFail, err.Error()
		return c
	}
	defer b.Close()
	c.detail = fmt.Sprintf("%s, connected in %s", b.Status(), time.Since(start).Round(time.Millisecond))
	if b.Enforced() {
		c.detail += fmt.Sprintf("\nlessons use databases %s*; others are refused", b.Prefix())
	}
	return c
}

// progressCheck finds where progress is kept and whether it can be
// written, without creating anything.
func progressCheck(getenv func(string) string) doctorCheck {
	c := doctorCheck{name: "progress"}
	dir := lessons.DefaultStateDir(getenv)
	file := filepath.Join(dir, "progress.json")
	probe := dir
	for {
		info, err := os.Stat(probe)
		if err == nil {
			if !info.IsDir() {
				c.state, c.detail = checkFail, fmt.Sprintf("%s: %s is not a directory", file, probe)
				return c
			}
			break
		}
		parent := filepath.Dir(probe)
		if parent == probe {
			c.state, c.detail = checkFail, fmt.Sprintf("%s: no existing parent directory", file)
			return c
		}
		probe = parent
	}
	f, err := os.CreateTemp(probe, ".schemalab-doctor-*")
	if err != nil {
		c.state, c.detail = checkFail, fmt.Sprintf("%s: cannot write there (%v); set %s to a writable directory", file, err, lessons.StateDirEnv)
		return c
	}
	f.Close()
	os.Remove(f.Name())
	switch _, err := os.Stat(file); {
	case err == nil:
		c.detail = file
	case probe == dir:
		c.detail = file + " (no progress yet)"
	default:
		c.detail = file + " (created on first use)"
	}
	return c
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
