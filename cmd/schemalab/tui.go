package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/sandbox/shell/lineedit"
	"github.com/schemalab/schemalab/tui"
)

// runTUI implements `schemalab [--present] [--lesson ID [--step N]]`: the
// course in the terminal. Global flags are accepted among args too, so the
// caller may pass the command line as it came.
func runTUI(ctx context.Context, g *globalOptions, args []string) int {
	stderr := os.Stderr
	fs := g.flagSet("schemalab", stderr)
	present := fs.Bool("present", false, "presenter mode: minimal chrome, large margins and bars")
	lessonID := fs.String("lesson", "", "open this lesson directly")
	step := fs.Int("step", 0, "with --lesson: open at this step (1-based)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "schemalab: unknown command %q\n", fs.Arg(0))
		return 2
	}
	if err := g.validate(); err != nil {
		fmt.Fprintln(stderr, "schemalab:", err)
		return 2
	}
	cat, errs := lessons.Load(content.FS, g.ContentDir)
	var warnings []string
	for _, err := range errs {
		warnings = append(warnings, err.Error())
	}
	if *lessonID != "" {
		l := cat.Find(*lessonID)
		if l == nil {
			_, err := cat.Select([]string{*lessonID})
			fmt.Fprintln(stderr, "schemalab:", err)
			return 2
		}
		if *step < 0 || *step > len(l.Steps) {
			fmt.Fprintf(stderr, "schemalab: lesson %s has steps 1 to %d, not %d\n", l.ID, len(l.Steps), *step)
			return 2
		}
	} else if *step != 0 {
		fmt.Fprintln(stderr, "schemalab: --step needs --lesson")
		return 2
	}
	if !lineedit.IsTerminal(os.Stdout) || !lineedit.IsTerminal(os.Stdin) {
		fmt.Fprintln(stderr, "schemalab: the course needs a terminal; `schemalab run` prints lessons as a transcript")
		return 1
	}
	store, err := lessons.OpenStore(lessons.DefaultStateDir(os.Getenv))
	if err != nil {
		warnings = append(warnings, "progress will not be saved: "+err.Error())
		store = nil
	} else if w := store.Warning(); w != "" {
		warnings = append(warnings, w)
	}
	err = tui.Run(ctx, tui.Options{
		Catalog: cat,
		Store:   store,
		Connect: func(ctx context.Context) (*lessons.Sandbox, error) {
			be, err := openSandbox(ctx, g)
			if err != nil {
				return nil, err
			}
			return lessonSandbox(be), nil
		},
		NoColor:  g.NoColor,
		Present:  *present,
		Lesson:   *lessonID,
		Step:     *step,
		Warnings: warnings,
	})
	if err != nil {
		fmt.Fprintln(stderr, "schemalab:", err)
		return 1
	}
	return 0
}
