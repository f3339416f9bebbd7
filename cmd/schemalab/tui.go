package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/advise"
	room "github.com/schemalab/schemalab/lessons/classroom"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/lessons/templatecache"
	"github.com/schemalab/schemalab/sandbox"
	"github.com/schemalab/schemalab/sandbox/shell/lineedit"
	"github.com/schemalab/schemalab/tui"
)

var (
	msgStepRange  = &locale.Message{ID: "cli.stepRange", Other: "lesson {{.ID}} has steps 1 to {{.Steps}}, not {{.N}}"}
	msgStepNeeds  = &locale.Message{ID: "cli.stepNeedsLesson", Other: "--step needs --lesson"}
	msgNeedsTTY   = &locale.Message{ID: "cli.needsTerminal", Other: "the course needs a terminal; `schemalab run` prints lessons as a transcript"}
	msgNoProgress = &locale.Message{ID: "cli.noProgress", Other: "progress will not be saved: {{.Err}}"}
	msgExtraArg   = &locale.Message{ID: "cli.unexpectedArg", Other: `unexpected argument "{{.Arg}}"`}
)

// runTUI implements `schemalab [--present] [--lesson ID [--step N]]`: the
// course in the terminal. Global flags are accepted among args too, so the
// caller may pass the command line as it came.
func runTUI(ctx context.Context, g *globalOptions, args []string) int {
	stderr := os.Stderr
	fs := g.flagSet("schemalab", stderr)
	present := fs.Bool("present", false, g.t(msgFlagPresent, nil))
	lessonID := fs.String("lesson", "", g.t(msgFlagLesson, nil))
	step := fs.Int("step", 0, g.t(msgFlagStep, nil))
	if err := g.parse(fs, args, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "schemalab: %s\n", g.t(msgUnknownCommand, map[string]any{"Name": fs.Arg(0)}))
		return 2
	}
	if err := g.validate(); err != nil {
		fmt.Fprintln(stderr, "schemalab:", err)
		return 2
	}
	cat, errs := lessons.Load(content.FS, g.ContentDir)
	cat = cat.In(g.Lang.Lang)
	var warnings []string
	for _, err := range errs {
		warnings = append(warnings, err.Error())
	}
	if *lessonID != "" {
		l := cat.Find(*lessonID)
		if l == nil {
			_, err := cat.Select([]string{*lessonID})
			fmt.Fprintln(stderr, "schemalab:", g.L.Error(err))
			return 2
		}
		if *step < 0 || *step > len(l.Steps) {
			fmt.Fprintf(stderr, "schemalab: %s\n", g.t(msgStepRange, map[string]any{"ID": l.ID, "Steps": len(l.Steps), "N": *step}))
			return 2
		}
	} else if *step != 0 {
		fmt.Fprintln(stderr, "schemalab:", g.t(msgStepNeeds, nil))
		return 2
	}
	if !lineedit.IsTerminal(os.Stdout) || !lineedit.IsTerminal(os.Stdin) {
		fmt.Fprintln(stderr, "schemalab:", g.t(msgNeedsTTY, nil))
		return 1
	}
	store, err := lessons.OpenStore(lessons.DefaultStateDir(os.Getenv))
	if err != nil {
		warnings = append(warnings, g.t(msgNoProgress, map[string]any{"Err": err.Error()}))
		store = nil
	} else if w := store.Warning(g.L); w != "" {
		warnings = append(warnings, w)
	}
	err = tui.Run(ctx, tui.Options{
		Catalog: cat,
		Store:   store,
		Connect: func(ctx context.Context) (*lessons.Sandbox, error) {
			cfg := g.sandboxConfig()
			cache := templatecache.New(templatecache.DefaultPath(os.Getenv), templatecache.DefaultLimit)
			cfg.SnapshotDir = cache.Path()
			be, err := sandbox.Open(ctx, cfg)
			if err != nil {
				return nil, err
			}
			sb := g.lessonSandbox(be)
			if be.Kind == sandbox.KindEmbedded {
				// A lesson opened again starts from its states as the
				// last run left them on disk, instead of building them.
				tpls := room.NewSolo(be.Client, be.Connector(), be.Prefix(), cache)
				sb.Seeds = tpls.Seeds
				if *lessonID != "" {
					// The lesson opens at once: its saved states are
					// read while the screen is drawn.
					tpls.Start(cat.Find(*lessonID))
				}
			}
			// Only the learner's own app offers advise; a classroom's
			// students share the server.
			sb.ReadOnly = advise.FromBackend(be).ReadOnly
			return sb, nil
		},
		NoColor:   g.NoColor,
		Present:   *present,
		Lesson:    *lessonID,
		Step:      *step,
		Warnings:  warnings,
		Localizer: g.L,
	})
	if err != nil {
		fmt.Fprintln(stderr, "schemalab:", err)
		return 1
	}
	return 0
}
