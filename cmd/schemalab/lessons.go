package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/sandbox"
	"github.com/schemalab/schemalab/sandbox/shell/lineedit"
)

// runRun implements `schemalab run [--check] [--format text|markdown] [LESSON…]`.
func runRun(ctx context.Context, g *globalOptions, args []string) int {
	return runLessons(ctx, g, args, os.Stdout, os.Stderr)
}

// runList implements `schemalab list`.
func runList(ctx context.Context, g *globalOptions, args []string) int {
	return listLessons(g, args, os.Getenv, os.Stdout, os.Stderr)
}

// runReset implements `schemalab reset [LESSON…|--all] [--yes]`.
func runReset(ctx context.Context, g *globalOptions, args []string) int {
	return resetLessons(ctx, g, args, os.Getenv, os.Stdin, os.Stdout, os.Stderr)
}

// parseInterspersed parses flags given before, between or after the
// lesson ids (`schemalab reset tree --yes`).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var names []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return names, nil
		}
		if args[0] == "--" {
			return append(names, args[1:]...), nil
		}
		names = append(names, args[0])
		args = args[1:]
	}
}

// loadCatalog loads the built-in lessons and --content packs; problems are
// printed as warnings and returned.
func loadCatalog(g *globalOptions, stderr io.Writer) (*lessons.Catalog, []error) {
	cat, errs := lessons.Load(content.FS, g.ContentDir)
	for _, err := range errs {
		fmt.Fprintf(stderr, "schemalab: warning: %v\n", err)
	}
	return cat, errs
}

func runLessons(ctx context.Context, g *globalOptions, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	check := fs.Bool("check", false, "verify every expect block and exercise solution; exit non-zero on failure")
	format := fs.String("format", "text", "transcript format: text or markdown")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: schemalab run [--check] [--format text|markdown] [LESSON…]")
		fs.PrintDefaults()
	}
	names, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *format != "text" && *format != "markdown" {
		fmt.Fprintf(stderr, "schemalab run: --format must be text or markdown, not %q\n", *format)
		return 2
	}
	cat, loadErrs := loadCatalog(g, stderr)
	selected, err := cat.Select(names)
	if err != nil {
		fmt.Fprintln(stderr, "schemalab run:", err)
		return 2
	}
	be, err := openSandbox(ctx, g)
	if err != nil {
		fmt.Fprintln(stderr, "schemalab run:", err)
		return 1
	}
	defer be.Close()

	out := bufio.NewWriter(stdout)
	defer out.Flush()
	w := newTranscript(out, *format == "markdown", *check)
	failed := 0
	start := time.Now()
	for _, l := range selected {
		n, err := runOneLesson(ctx, be, l, w, *check, stderr)
		failed += n
		if err != nil {
			out.Flush()
			fmt.Fprintf(stderr, "schemalab run: %v\n", err)
			return 1
		}
	}
	out.Flush()
	if *check {
		if len(loadErrs) > 0 {
			fmt.Fprintf(stderr, "check: %d lesson file(s) failed to load\n", len(loadErrs))
			return 1
		}
		if failed > 0 {
			fmt.Fprintf(stderr, "check: %d failure(s)\n", failed)
			return 1
		}
		fmt.Fprintf(stderr, "check: %d lesson(s) ok in %s\n", len(selected), time.Since(start).Round(time.Millisecond))
	} else if failed > 0 {
		return 1
	}
	return 0
}

// runOneLesson writes one lesson's transcript and returns how many steps
// failed; err is a failure that stops the run (a lost connection).
func runOneLesson(ctx context.Context, be *sandbox.Backend, l *lessons.Lesson, w *transcript, check bool, stderr io.Writer) (int, error) {
	r := lessons.NewRunner(lessonSandbox(be), l, lessons.RunnerOptions{
		Progress: func(line string) { fmt.Fprintf(stderr, "schemalab run: %s: %s\n", l.ID, line) },
	})
	defer r.Close()
	if err := r.Reset(ctx); err != nil {
		return 0, err
	}
	w.lesson(l, r.Database())
	failed := 0
	start := time.Now()
	for i := range l.Steps {
		var res *lessons.StepResult
		var err error
		if check {
			res, err = r.CheckStep(ctx, i)
		} else {
			res, err = r.RunStep(ctx, i)
		}
		if err != nil {
			return failed, err
		}
		w.step(l, i, res)
		if fs := relevantFailures(res, check); len(fs) > 0 {
			failed++
			for _, f := range fs {
				fmt.Fprintf(stderr, "FAIL %s step %d %q (%s:%d): %s\n", l.ID, i+1, l.Steps[i].Title, l.File, f.Line, f.Msg)
			}
		}
	}
	if check {
		status := "ok  "
		if failed > 0 {
			status = "FAIL"
		}
		fmt.Fprintf(stderr, "%s %s (%d steps) %s\n", status, l.ID, len(l.Steps), time.Since(start).Round(time.Millisecond))
	}
	// The embedded server vanishes at exit anyway; dropping each lesson's
	// database as soon as it is done keeps a run of all lessons within the
	// memory of the largest one. A real server keeps it for inspection.
	if be.Kind == sandbox.KindEmbedded {
		if err := be.ResetDB(ctx, r.Database()); err != nil {
			return failed, err
		}
	}
	return failed, nil
}

// relevantFailures drops failed expectations outside --check: a plain run
// reports only code that broke.
func relevantFailures(res *lessons.StepResult, check bool) []lessons.Failure {
	if check {
		return res.Failures
	}
	var out []lessons.Failure
	for _, f := range res.Failures {
		if !f.Expect {
			out = append(out, f)
		}
	}
	return out
}

func listLessons(g *globalOptions, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "usage: schemalab list")
		return 2
	}
	cat, _ := loadCatalog(g, stderr)
	store, err := lessons.OpenStore(lessons.DefaultStateDir(getenv))
	if err != nil {
		fmt.Fprintln(stderr, "schemalab list:", err)
		return 1
	}
	if w := store.Warning(); w != "" {
		fmt.Fprintln(stderr, "schemalab: warning:", w)
	}
	idw := len("ID")
	for _, l := range cat.Lessons {
		idw = max(idw, len(l.ID))
	}
	progress := make([]string, len(cat.Lessons))
	pw := len("PROGRESS")
	for i, l := range cat.Lessons {
		s := lessons.Summarize(l, store.Lesson(l.ID))
		progress[i] = fmt.Sprintf("%d/%d steps", s.StepsDone, s.Steps)
		if s.Exercises > 0 {
			progress[i] += fmt.Sprintf(", %d/%d exercises", s.ExercisesDone, s.Exercises)
		}
		pw = max(pw, len(progress[i]))
	}
	fmt.Fprintf(stdout, "%-3s %-*s %-4s %-*s %s\n", "#", idw, "ID", "MIN", pw, "PROGRESS", "TITLE")
	for i, l := range cat.Lessons {
		fmt.Fprintf(stdout, "%-3d %-*s %-4d %-*s %s\n", l.Order, idw, l.ID, l.Minutes, pw, progress[i], l.Title)
	}
	return 0
}

func resetLessons(ctx context.Context, g *globalOptions, args []string, getenv func(string) string, stdin *os.File, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("reset", flag.ContinueOnError)
	fs.SetOutput(stderr)
	all := fs.Bool("all", false, "reset every lesson")
	yes := fs.Bool("yes", false, "do not ask for confirmation")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: schemalab reset [LESSON…|--all] [--yes]")
		fs.PrintDefaults()
	}
	names, err := parseInterspersed(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *all == (len(names) > 0) {
		fs.Usage()
		return 2
	}
	cat, _ := loadCatalog(g, stderr)
	selected, err := cat.Select(names)
	if err != nil {
		fmt.Fprintln(stderr, "schemalab reset:", err)
		return 2
	}
	var dbs []string
	for _, l := range selected {
		dbs = append(dbs, lessons.DatabaseName(g.DBPrefix, l.ID))
	}
	if !*yes && stdin != nil && lineedit.IsTerminal(stdin) {
		fmt.Fprintf(stdout, "Drop the databases %s and forget their progress? [y/N] ", strings.Join(dbs, ", "))
		answer, _ := bufio.NewReader(stdin).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(stdout, "Nothing was reset.")
			return 1
		}
	}
	be, err := openSandbox(ctx, g)
	if err != nil {
		fmt.Fprintln(stderr, "schemalab reset:", err)
		return 1
	}
	defer be.Close()
	for _, name := range dbs {
		if err := be.ResetDB(ctx, name); err != nil {
			fmt.Fprintln(stderr, "schemalab reset:", err)
			return 1
		}
	}
	store, err := lessons.OpenStore(lessons.DefaultStateDir(getenv))
	if err == nil {
		if *all {
			err = store.ResetAll()
		} else {
			ids := make([]string, len(selected))
			for i, l := range selected {
				ids[i] = l.ID
			}
			err = store.ResetLesson(ids...)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "schemalab reset:", err)
		return 1
	}
	fmt.Fprintf(stdout, "Reset %d lesson(s): %s\n", len(dbs), strings.Join(dbs, ", "))
	return 0
}

// transcript writes lesson results as text or as a Markdown handout.
type transcript struct {
	w     *bufio.Writer
	md    bool
	check bool
}

func newTranscript(w *bufio.Writer, md, check bool) *transcript {
	return &transcript{w: w, md: md, check: check}
}

func (t *transcript) lesson(l *lessons.Lesson, db string) {
	if t.md {
		fmt.Fprintf(t.w, "# %s\n\n", l.Title)
		if l.Summary != "" {
			fmt.Fprintf(t.w, "*%s*\n\n", l.Summary)
		}
		fmt.Fprintf(t.w, "Lesson `%s`, about %d minutes, database `%s`.\n\n", l.ID, l.Minutes, db)
		if l.Intro != "" {
			fmt.Fprintf(t.w, "%s\n\n", l.Intro)
		}
		return
	}
	bar := strings.Repeat("=", 72)
	fmt.Fprintf(t.w, "%s\n%s  [%s, database %s]\n%s\n\n", bar, l.Title, l.ID, db, bar)
}

func (t *transcript) step(l *lessons.Lesson, i int, res *lessons.StepResult) {
	st := &l.Steps[i]
	if t.md {
		t.markdownStep(st, i, res)
		return
	}
	title := fmt.Sprintf("%d. %s", i+1, st.Title)
	fmt.Fprintf(t.w, "%s\n%s\n\n", title, strings.Repeat("-", len(title)))
	for _, br := range res.Blocks {
		b := br.Block
		switch {
		case b == nil:
		case b.Kind == lessons.Setup:
			fmt.Fprintf(t.w, "[setup: %d lines, %s]\n\n", strings.Count(b.Text, "\n")+1, br.Result.Elapsed.Round(time.Millisecond))
		case b.Kind == lessons.Run:
			t.code(b.Text)
			t.output(br.Result.Transcript)
		case b.Kind == lessons.Compare:
			for _, v := range br.Variants {
				fmt.Fprintf(t.w, "[compare: %s]\n", v.Label)
				t.code(v.Block.Text)
				t.output(v.Result.Transcript)
			}
			fmt.Fprint(t.w, figureTable(br.Variants, false))
			fmt.Fprintln(t.w)
		case (b.Kind == lessons.ExpectOutput || b.Kind == lessons.ExpectJS) && t.check:
			fmt.Fprintf(t.w, "%s expect (line %d)\n\n", mark(br.Passed), b.Line)
		}
	}
	if ex := st.Exercise; ex != nil {
		fmt.Fprintf(t.w, "Exercise (%d hint(s)):\n%s\n\n", len(ex.Hints), indent(ex.Task, "  "))
		if ex.Starter != "" {
			t.code(ex.Starter)
			fmt.Fprintln(t.w)
		}
		if t.check {
			for _, br := range res.Blocks {
				if br.Block != nil && br.Block.Kind == lessons.ExerciseSolution {
					verdict := "the reference solution passes its check"
					if !br.Passed {
						verdict = "the reference solution fails its check: " + br.Message
					}
					fmt.Fprintf(t.w, "%s exercise: %s\n\n", mark(br.Passed), verdict)
				}
			}
		}
	}
}

func (t *transcript) markdownStep(st *lessons.Step, i int, res *lessons.StepResult) {
	fmt.Fprintf(t.w, "## %d. %s\n\n", i+1, st.Title)
	results := map[*lessons.Block]*lessons.BlockResult{}
	for k := range res.Blocks {
		results[res.Blocks[k].Block] = &res.Blocks[k]
	}
	for bi := range st.Blocks {
		b := &st.Blocks[bi]
		br := results[b]
		switch b.Kind {
		case lessons.Prose:
			fmt.Fprintf(t.w, "%s\n\n", b.Text)
		case lessons.Setup:
			fmt.Fprintf(t.w, "<details><summary>Setup code</summary>\n\n```js\n%s\n```\n\n</details>\n\n", b.Text)
		case lessons.Run:
			fmt.Fprintf(t.w, "```js\n%s\n```\n\n", b.Text)
			if br != nil && br.Result.Transcript != "" {
				fmt.Fprintf(t.w, "```text\n%s```\n\n", br.Result.Transcript)
			}
		case lessons.Compare:
			if br == nil { // a later variant of a group already written
				continue
			}
			for _, v := range br.Variants {
				fmt.Fprintf(t.w, "**%s**\n\n```js\n%s\n```\n\n", v.Label, v.Block.Text)
				if v.Result.Transcript != "" {
					fmt.Fprintf(t.w, "```text\n%s```\n\n", v.Result.Transcript)
				}
			}
			fmt.Fprintf(t.w, "%s\n", figureTable(br.Variants, true))
		case lessons.ExerciseStarter:
			fmt.Fprintf(t.w, "**Your turn.** Start from:\n\n```js\n%s\n```\n\n", b.Text)
		case lessons.ExerciseHint:
			fmt.Fprintf(t.w, "<details><summary>Hint</summary>\n\n%s\n\n</details>\n\n", b.Text)
		}
	}
}

func (t *transcript) code(src string) {
	for _, line := range strings.Split(src, "\n") {
		fmt.Fprintf(t.w, "> %s\n", line)
	}
}

func (t *transcript) output(s string) {
	if s != "" {
		fmt.Fprint(t.w, s)
		if !strings.HasSuffix(s, "\n") {
			fmt.Fprintln(t.w)
		}
	}
	fmt.Fprintln(t.w)
}

func mark(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}

func indent(s, p string) string {
	return p + strings.ReplaceAll(s, "\n", "\n"+p)
}

// figureTable lays a comparison's figures out one row per figure, one
// column per variant, in the order and with the labels the app uses.
func figureTable(vs []lessons.VariantResult, md bool) string {
	keys := lessons.FigureKeys(vs)
	if len(keys) == 0 {
		return ""
	}
	rows := [][]string{{"figure"}}
	for _, v := range vs {
		rows[0] = append(rows[0], v.Label)
	}
	for _, k := range keys {
		row := []string{lessons.FigureLabel(k)}
		for _, v := range vs {
			if n, ok := v.Figure(k); ok {
				row = append(row, lessons.FormatFigure(n))
			} else {
				row = append(row, "–")
			}
		}
		rows = append(rows, row)
	}
	var sb strings.Builder
	if md {
		for i, r := range rows {
			sb.WriteString("| " + strings.Join(r, " | ") + " |\n")
			if i == 0 {
				sb.WriteString("|" + strings.Repeat("---|", len(r)) + "\n")
			}
		}
		return sb.String()
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		for i, c := range r {
			if i == 0 {
				fmt.Fprintf(&sb, "  %-*s", widths[i], c)
			} else {
				fmt.Fprintf(&sb, "  %*s", widths[i], c)
			}
		}
		sb.WriteString("\n")
	}
	return sb.String()
}
