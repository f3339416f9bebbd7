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
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox"
)

var (
	msgDoctorUsage     = &locale.Message{ID: "doctor.usage", Other: "usage: schemalab doctor [--uri URI | --sandbox embedded|mongod|uri] [--mongod PATH]"}
	msgDoctorTitle     = &locale.Message{ID: "doctor.title", Other: "schemalab doctor"}
	msgDoctorNames     = &locale.Message{ID: "doctor.names", Other: "terminal|mongod|mongosh|backend|progress|language"}
	msgDoctorAllGood   = &locale.Message{ID: "doctor.allGood", Other: "Everything schemalab needs is in place."}
	msgDoctorMissing   = &locale.Message{ID: "doctor.missing", Other: "Missing or not working:"}
	msgNotTerminal     = &locale.Message{ID: "doctor.notTerminal", Other: "output is not a terminal (the course needs one; run, shell and serve do not)"}
	msgColours         = &locale.Message{ID: "doctor.colours", Other: "colours: {{.Profile}}"}
	msgColoursOff      = &locale.Message{ID: "doctor.coloursOff", Other: "colours: off (--no-color or NO_COLOR)"}
	msgSizeUnknown     = &locale.Message{ID: "doctor.sizeUnknown", Other: "size unknown ({{.Err}}), {{.Colours}}"}
	msgTooSmall        = &locale.Message{ID: "doctor.tooSmall", Other: "{{.W}}×{{.H}}, {{.Colours}}; the lesson view wants at least {{.MinW}}×{{.MinH}}"}
	msgSize            = &locale.Message{ID: "doctor.size", Other: "{{.W}}×{{.H}}, {{.Colours}}"}
	msgMongodWhy       = &locale.Message{ID: "doctor.mongodWhy", Other: "only needed for --sandbox mongod"}
	msgMongoshWhy      = &locale.Message{ID: "doctor.mongoshWhy", Other: "optional: to connect mongosh to `schemalab serve`"}
	msgNotOnPath       = &locale.Message{ID: "doctor.notOnPath", Other: "not on PATH ({{.Why}})"}
	msgNotOnPathNeeded = &locale.Message{ID: "doctor.notOnPathNeeded", Other: "not on PATH; --sandbox mongod needs it: install MongoDB Community Server or pass --mongod PATH"}
	msgNotFound        = &locale.Message{ID: "doctor.notFound", Other: "{{.Path}} not found or not executable"}
	msgNotFoundNeeded  = &locale.Message{ID: "doctor.notFoundNeeded", Other: "{{.Path}} not found or not executable; --sandbox mongod needs it: install MongoDB Community Server or pass --mongod PATH"}
	msgDoesNotRun      = &locale.Message{ID: "doctor.doesNotRun", Other: " (does not run: {{.Err}})"}
	msgConnectedIn     = &locale.Message{ID: "doctor.connectedIn", Other: "{{.Status}}, connected in {{.Elapsed}}"}
	msgPrefixEnforced  = &locale.Message{ID: "doctor.prefixEnforced", Other: "lessons use databases {{.Prefix}}*; others are refused"}
	msgNotADirectory   = &locale.Message{ID: "doctor.notADirectory", Other: "{{.File}}: {{.Dir}} is not a directory"}
	msgNoParent        = &locale.Message{ID: "doctor.noParent", Other: "{{.File}}: no existing parent directory"}
	msgCannotWrite     = &locale.Message{ID: "doctor.cannotWrite", Other: "{{.File}}: cannot write there ({{.Err}}); set {{.Env}} to a writable directory"}
	msgNoProgressYet   = &locale.Message{ID: "doctor.noProgressYet", Other: "{{.File}} (no progress yet)"}
	msgCreatedOnFirst  = &locale.Message{ID: "doctor.createdOnFirstUse", Other: "{{.File}} (created on first use)"}
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
	fs := newFlagSet("doctor")
	fs.Usage = func() {
		fmt.Fprintln(stderr, g.t(msgDoctorUsage, nil))
	}
	if err := g.parse(fs, args, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "schemalab doctor: %s\n", g.t(msgExtraArg, map[string]any{"Arg": fs.Arg(0)}))
		return 2
	}
	wantMongod := g.Sandbox == sandbox.KindMongod
	l := g.L

	checks := []doctorCheck{
		terminalCheck(l, stdout, g.NoColor),
		binaryCheck(ctx, l, "mongod", g.Mongod, wantMongod, l.T(msgMongodWhy, nil)),
		binaryCheck(ctx, l, "mongosh", "", false, l.T(msgMongoshWhy, nil)),
		backendCheck(ctx, l, g.sandboxConfig()),
		progressCheck(l, getenv),
		{state: checkInfo, detail: g.Lang.Explain(l)},
	}
	// The checks' names, in the order above; mongod and mongosh are names.
	names := strings.Split(l.T(msgDoctorNames, nil), "|")
	nameW := 0
	for i := range checks {
		if i < len(names) {
			checks[i].name = names[i]
		}
		nameW = max(nameW, ansi.StringWidth(checks[i].name))
	}
	nameW = max(nameW, 10)

	fmt.Fprintln(stdout, l.T(msgDoctorTitle, nil))
	var failed []doctorCheck
	for _, c := range checks {
		detail := strings.ReplaceAll(c.detail, "\n", "\n"+strings.Repeat(" ", 8+nameW))
		fmt.Fprintf(stdout, "  %-4s %s %s\n", c.state.mark(), padRight(c.name, nameW), detail)
		if c.state == checkFail {
			failed = append(failed, c)
		}
	}
	fmt.Fprintln(stdout)
	if len(failed) == 0 {
		fmt.Fprintln(stdout, l.T(msgDoctorAllGood, nil))
		return 0
	}
	fmt.Fprintln(stdout, l.T(msgDoctorMissing, nil))
	for _, c := range failed {
		fmt.Fprintf(stdout, "  - %s: %s\n", c.name, firstLine(c.detail))
	}
	return 1
}

// terminalCheck reports the size and colour support of the terminal the
// course would draw on. Not being a terminal is no failure: run, shell and
// serve work in pipes.
func terminalCheck(l *locale.Localizer, stdout io.Writer, noColor bool) doctorCheck {
	c := doctorCheck{name: "terminal"}
	f, ok := stdout.(*os.File)
	if !ok || !term.IsTerminal(f.Fd()) {
		c.state = checkInfo
		c.detail = l.T(msgNotTerminal, nil)
		return c
	}
	w, h, err := term.GetSize(f.Fd())
	colour := l.T(msgColours, map[string]any{"Profile": colorprofile.Detect(f, os.Environ()).String()})
	if noColor {
		colour = l.T(msgColoursOff, nil)
	}
	switch {
	case err != nil:
		c.state, c.detail = checkInfo, l.T(msgSizeUnknown, map[string]any{"Err": err.Error(), "Colours": colour})
	case w < minTermWidth || h < minTermHeight:
		c.state, c.detail = checkInfo, l.T(msgTooSmall, map[string]any{"W": w, "H": h, "Colours": colour, "MinW": minTermWidth, "MinH": minTermHeight})
	default:
		c.detail = l.T(msgSize, map[string]any{"W": w, "H": h, "Colours": colour})
	}
	return c
}

// binaryCheck looks for a MongoDB tool and asks it its version. A missing
// tool fails only when needed.
func binaryCheck(ctx context.Context, l *locale.Localizer, name, path string, needed bool, why string) doctorCheck {
	c := doctorCheck{name: name}
	target := name
	if path != "" {
		target = path
	}
	bin, err := exec.LookPath(target)
	if err != nil {
		c.state = checkInfo
		switch {
		case path != "" && needed:
			c.detail = l.T(msgNotFoundNeeded, map[string]any{"Path": path})
		case path != "":
			c.detail = l.T(msgNotFound, map[string]any{"Path": path})
		case needed:
			c.detail = l.T(msgNotOnPathNeeded, nil)
		default:
			c.detail = l.T(msgNotOnPath, map[string]any{"Why": why})
		}
		if needed {
			c.state = checkFail
		}
		return c
	}
	c.detail = bin
	vctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(vctx, bin, "--version").Output()
	if err != nil {
		c.state = checkInfo
		c.detail += l.T(msgDoesNotRun, map[string]any{"Err": err.Error()})
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
func backendCheck(ctx context.Context, l *locale.Localizer, cfg sandbox.Config) doctorCheck {
	c := doctorCheck{name: "backend"}
	start := time.Now()
	b, err := sandbox.Open(ctx, cfg)
	if err != nil {
		c.state, c.detail = checkFail, err.Error()
		return c
	}
	defer b.Close()
	c.detail = l.T(msgConnectedIn, map[string]any{"Status": b.Status(), "Elapsed": l.Duration(time.Since(start))})
	if b.Enforced() {
		c.detail += "\n" + l.T(msgPrefixEnforced, map[string]any{"Prefix": b.Prefix()})
	}
	return c
}

// progressCheck finds where progress is kept and whether it can be
// written, without creating anything.
func progressCheck(l *locale.Localizer, getenv func(string) string) doctorCheck {
	c := doctorCheck{name: "progress"}
	dir := lessons.DefaultStateDir(getenv)
	file := filepath.Join(dir, "progress.json")
	probe := dir
	for {
		info, err := os.Stat(probe)
		if err == nil {
			if !info.IsDir() {
				c.state, c.detail = checkFail, l.T(msgNotADirectory, map[string]any{"File": file, "Dir": probe})
				return c
			}
			break
		}
		parent := filepath.Dir(probe)
		if parent == probe {
			c.state, c.detail = checkFail, l.T(msgNoParent, map[string]any{"File": file})
			return c
		}
		probe = parent
	}
	f, err := os.CreateTemp(probe, ".schemalab-doctor-*")
	if err != nil {
		c.state, c.detail = checkFail, l.T(msgCannotWrite, map[string]any{"File": file, "Err": err.Error(), "Env": lessons.StateDirEnv})
		return c
	}
	f.Close()
	os.Remove(f.Name())
	switch _, err := os.Stat(file); {
	case err == nil:
		c.detail = file
	case probe == dir:
		c.detail = l.T(msgNoProgressYet, map[string]any{"File": file})
	default:
		c.detail = l.T(msgCreatedOnFirst, map[string]any{"File": file})
	}
	return c
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
