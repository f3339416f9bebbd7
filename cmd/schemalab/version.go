package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/schemalab/schemalab/lessons/locale"
)

var msgVersionUsage = &locale.Message{ID: "cli.version.usage", Other: "usage: schemalab version"}

const driverModule = "go.mongodb.org/mongo-driver/v2"

// runVersion prints the schemalab, Go and driver versions as recorded in
// the binary's build information.
func runVersion(g *globalOptions, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("version")
	fs.Usage = func() { fmt.Fprintln(stderr, g.t(msgVersionUsage, nil)) }
	if err := g.parse(fs, args, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "schemalab version: %s\n", g.t(msgExtraArg, map[string]any{"Arg": fs.Arg(0)}))
		return 2
	}
	version, driver := "(devel)", "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, dep := range bi.Deps {
			if dep.Path == driverModule {
				driver = dep.Version
				if dep.Replace != nil {
					driver = dep.Replace.Version
				}
			}
		}
	}
	fmt.Fprintf(stdout, "schemalab %s\n", version)
	fmt.Fprintf(stdout, "go %s\n", runtime.Version())
	fmt.Fprintf(stdout, "mongo-driver %s\n", driver)
	return 0
}
