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
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/schemalab/schemalab/content"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/lessons/templatecache"
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
func (g *globalOptions) parseInterspersed(fs *flag.FlagSet, args []string, errOut io.Writer) ([]string, error) {
	var names []string
	for {
		if err := g.parse(fs, args, errOut); err != nil {
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

var (
	msgWarning         = &locale.Message{ID: "cli.warning", Other: "warning: {{.Text}}"}
	msgRunUsage        = &locale.Message{ID: "cli.run.usage", Other: "usage: schemalab run [--check] [--format text|markdown] [LESSON…]"}
	msgFlagCheck       = &locale.Message{ID: "cli.flag.check", Other: "verify every expect block and exercise solution; exit non-zero on failure"}
	msgFlagFormat      = &locale.Message{ID: "cli.flag.format", Other: "transcript format: text or markdown"}
	msgBadFormat       = &locale.Message{ID: "cli.run.badFormat", Other: `--format must be text or markdown, not "{{.Value}}"`}
	msgLoadFailed      = &locale.Message{ID: "cli.check.loadFailed", One: "check: {{.Count}} lesson file failed to load", Other: "check: {{.Count}} lesson files failed to load"}
	msgCheckFailures   = &locale.Message{ID: "cli.check.failures", One: "check: {{.Count}} failure", Other: "check: {{.Count}} failures"}
	msgCheckOK         = &locale.Message{ID: "cli.check.ok", One: "check: {{.Count}} lesson ok in {{.Elapsed}}", Other: "check: {{.Count}} lessons ok in {{.Elapsed}}"}
	msgStepFailed      = &locale.Message{ID: "cli.check.stepFailed", Other: `FAIL {{.Lesson}} step {{.N}} "{{.Title}}" ({{.File}}:{{.Line}}): {{.Msg}}`}
	msgLessonStatus    = &locale.Message{ID: "cli.check.lesson", One: "{{.Status}} {{.Lesson}} ({{.Count}} step) {{.Elapsed}}", Other: "{{.Status}} {{.Lesson}} ({{.Count}} steps) {{.Elapsed}}"}
	msgListUsage       = &locale.Message{ID: "cli.list.usage", Other: "usage: schemalab list"}
	msgListHeader      = &locale.Message{ID: "cli.list.header", Other: "#|ID|MIN|PROGRESS|TITLE"}
	msgListSteps       = &locale.Message{ID: "cli.list.steps", Other: "{{.Done}}/{{.Total}} steps"}
	msgListExercises   = &locale.Message{ID: "cli.list.exercises", Other: ", {{.Done}}/{{.Total}} exercises"}
	msgListEnglishOnly = &locale.Message{ID: "cli.list.englishOnly", Other: " (English only)"}
	msgResetUsage      = &locale.Message{ID: "cli.reset.usage", Other: "usage: schemalab reset [LESSON…|--all] [--yes]"}
	msgFlagAll         = &locale.Message{ID: "cli.flag.all", Other: "reset every lesson"}
	msgFlagYes         = &locale.Message{ID: "cli.flag.yes", Other: "do not ask for confirmation"}
	msgResetConfirm    = &locale.Message{ID: "cli.reset.confirm", Other: "Drop the databases {{.DBs}} and forget their progress? [y/N] "}
	msgResetYes        = &locale.Message{ID: "cli.reset.yes", Other: "y|yes"}
	msgResetNoTerminal = &locale.Message{ID: "cli.reset.noTerminal", Other: "standard input is not a terminal, so nobody can confirm; nothing was reset. Add --yes to reset without asking."}
	msgResetNothing    = &locale.Message{ID: "cli.reset.nothing", Other: "Nothing was reset."}
	msgResetDone       = &locale.Message{ID: "cli.reset.done", One: "Reset {{.Count}} lesson: {{.DBs}}", Other: "Reset {{.Count}} lessons: {{.DBs}}"}
)

// loadCatalog loads the built-in lessons and --content packs, in the
// chosen language; problems are printed as warnings and returned.
func loadCatalog(g *globalOptions, stderr io.Writer) (*lessons.Catalog, []error) {
	cat, errs := lessons.Load(content.FS, g.ContentDir)
	for _, err := range errs {
		fmt.Fprintf(stderr, "schemalab: %s\n", g.t(msgWarning, map[string]any{"Text": err.Error()}))
	}
	return cat.In(g.Lang.Lang), errs
}

func runLessons(ctx context.Context, g *globalOptions, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("run")
	check := fs.Bool("check", false, g.t(msgFlagCheck, nil))
	format := fs.String("format", "text", g.t(msgFlagFormat, nil))
	fs.Usage = func() {
		fmt.Fprintln(stderr, g.t(msgRunUsage, nil))
		g.printFlags(stderr, fs)
	}
	names, err := g.parseInterspersed(fs, args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *format != "text" && *format != "markdown" {
		fmt.Fprintf(stderr, "schemalab run: %s\n", g.t(msgBadFormat, map[string]any{"Value": *format}))
		return 2
	}
	cat, loadErrs := loadCatalog(g, stderr)
	selected, err := cat.Select(names)
	if err != nil {
		fmt.Fprintln(stderr, "schemalab run:", g.L.Error(err))
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
	w := &transcript{w: out, md: *format == "markdown", check: *check, g: g, cat: cat}
	failed := 0
	start := time.Now()
	for _, l := range selected {
		n, err := runOneLesson(ctx, g, be, l, w, *check, stderr)
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
			fmt.Fprintln(stderr, g.L.N(msgLoadFailed, len(loadErrs), nil))
			return 1
		}
		if failed > 0 {
			fmt.Fprintln(stderr, g.L.N(msgCheckFailures, failed, nil))
			return 1
		}
		fmt.Fprintln(stderr, g.L.N(msgCheckOK, len(selected), map[string]any{"Elapsed": g.L.Duration(time.Since(start))}))
	} else if failed > 0 {
		return 1
	}
	return 0
}

// runOneLesson writes one lesson's transcript and returns how many steps
// failed; err is a failure that stops the run (a lost connection).
func runOneLesson(ctx context.Context, g *globalOptions, be *sandbox.Backend, l *lessons.Lesson, w *transcript, check bool, stderr io.Writer) (int, error) {
	r := lessons.NewSession(g.lessonSandbox(be), l, lessons.SessionOptions{
		Progress: func(line string) { fmt.Fprintf(stderr, "schemalab run: %s: %s\n", l.ID, line) },
		Locale:   g.L,
	})
	defer r.Close()
	if _, err := r.Do(ctx, lessons.Request{Op: lessons.OpReset}); err != nil {
		return 0, err
	}
	w.lesson(l, r.Database())
	failed := 0
	start := time.Now()
	var textProblems []lessons.TextProblem
	if check {
		textProblems = lessons.CheckText(l)
	}
	for i := range l.Steps {
		op := lessons.OpRun
		if check {
			op = lessons.OpCheck
		}
		res, err := r.Do(ctx, lessons.Request{Op: op, Step: i})
		if err != nil {
			return failed, err
		}
		w.step(l, i, res)
		fs := relevantFailures(res, check)
		for _, p := range textProblems {
			// The introduction's problems count with the first step's.
			if max(p.Step, 0) == i {
				fs = append(fs, lessons.Failure{Line: p.Line, Msg: p.Msg})
			}
		}
		if len(fs) > 0 {
			failed++
			for _, f := range fs {
				fmt.Fprintln(stderr, g.t(msgStepFailed, map[string]any{"Lesson": l.ID, "N": i + 1, "Title": l.Steps[i].Title, "File": l.File, "Line": f.Line, "Msg": f.Msg}))
			}
		}
	}
	if check {
		// ok and FAIL stay as they are in every language, for grep.
		status := "ok  "
		if failed > 0 {
			status = "FAIL"
		}
		fmt.Fprintln(stderr, g.L.N(msgLessonStatus, len(l.Steps), map[string]any{"Status": status, "Lesson": l.ID, "Elapsed": g.L.Duration(time.Since(start))}))
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
func relevantFailures(res *lessons.Result, check bool) []lessons.Failure {
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
	fs := newFlagSet("list")
	fs.Usage = func() { fmt.Fprintln(stderr, g.t(msgListUsage, nil)) }
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
	cat, _ := loadCatalog(g, stderr)
	store, err := lessons.OpenStore(lessons.DefaultStateDir(getenv))
	if err != nil {
		fmt.Fprintln(stderr, "schemalab list:", err)
		return 1
	}
	if w := store.Warning(g.L); w != "" {
		fmt.Fprintln(stderr, "schemalab:", g.t(msgWarning, map[string]any{"Text": w}))
	}
	rows := [][]string{strings.Split(g.t(msgListHeader, nil), "|")}
	for _, l := range cat.Lessons {
		s := lessons.Summarize(l, store.Lesson(l.ID))
		progress := g.t(msgListSteps, map[string]any{"Done": s.StepsDone, "Total": s.Steps})
		if s.Exercises > 0 {
			progress += g.t(msgListExercises, map[string]any{"Done": s.ExercisesDone, "Total": s.Exercises})
		}
		title := l.Title
		if cat.Untranslated(l) {
			title += g.t(msgListEnglishOnly, nil)
		}
		rows = append(rows, []string{fmt.Sprint(l.Order), l.ID, fmt.Sprint(l.Minutes), progress, title})
	}
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r[:len(r)-1] {
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	widths[0], widths[2] = max(widths[0], 3), max(widths[2], 4)
	for _, r := range rows {
		for i, c := range r[:len(r)-1] {
			// Two spaces between columns: the progress and the title both
			// have single spaces inside, and one space between them read
			// as one phrase ("0/2 exercises The Bucket Pattern").
			fmt.Fprint(stdout, padRight(c, widths[i])+"  ")
		}
		fmt.Fprintln(stdout, r[len(r)-1])
	}
	return 0
}

// padRight and padLeft pad s with spaces to w terminal cells: Cyrillic,
// Indonesian and grouped digits (1 234) are as wide as they look, which
// fmt's byte-counting widths are not.
func padRight(s string, w int) string { return s + strings.Repeat(" ", max(w-ansi.StringWidth(s), 0)) }
func padLeft(s string, w int) string  { return strings.Repeat(" ", max(w-ansi.StringWidth(s), 0)) + s }

func resetLessons(ctx context.Context, g *globalOptions, args []string, getenv func(string) string, stdin *os.File, stdout, stderr io.Writer) int {
	fs := newFlagSet("reset")
	all := fs.Bool("all", false, g.t(msgFlagAll, nil))
	yes := fs.Bool("yes", false, g.t(msgFlagYes, nil))
	fs.Usage = func() {
		fmt.Fprintln(stderr, g.t(msgResetUsage, nil))
		g.printFlags(stderr, fs)
	}
	names, err := g.parseInterspersed(fs, args, stderr)
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
		fmt.Fprintln(stderr, "schemalab reset:", g.L.Error(err))
		return 2
	}
	var dbs []string
	for _, l := range selected {
		dbs = append(dbs, lessons.DatabaseName(g.DBPrefix, l.ID))
	}
	if !*yes && (stdin == nil || !lineedit.IsTerminal(stdin)) {
		// Nobody can answer the question: a script or a pipe must say
		// --yes itself, rather than lose progress to a missing prompt.
		fmt.Fprintln(stderr, "schemalab reset:", g.t(msgResetNoTerminal, nil))
		return 2
	}
	if !*yes {
		fmt.Fprint(stdout, g.t(msgResetConfirm, map[string]any{"DBs": strings.Join(dbs, ", ")}))
		answer, _ := bufio.NewReader(stdin).ReadString('\n')
		a := strings.ToLower(strings.TrimSpace(answer))
		// y and yes always say yes, whatever the language's own words are.
		if !slices.Contains(append(strings.Split(g.t(msgResetYes, nil), "|"), "y", "yes"), a) {
			fmt.Fprintln(stdout, g.t(msgResetNothing, nil))
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
			// The saved states of the lessons go too: a learner who
			// resets everything starts from nothing kept.
			err = errors.Join(store.ResetAll(), templatecache.Clear(templatecache.DefaultPath(getenv)))
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
	fmt.Fprintln(stdout, g.L.N(msgResetDone, len(dbs), map[string]any{"DBs": strings.Join(dbs, ", ")}))
	return 0
}

var (
	msgTxDatabase       = &locale.Message{ID: "cli.transcript.database", Other: "[{{.ID}}, database {{.DB}}]"}
	msgTxEnglishOnly    = &locale.Message{ID: "cli.transcript.englishOnly", Other: "English only: this lesson has no translation into your language yet."}
	msgTxSetup          = &locale.Message{ID: "cli.transcript.setup", One: "[setup: {{.Count}} line, {{.Elapsed}}]", Other: "[setup: {{.Count}} lines, {{.Elapsed}}]"}
	msgTxCompare        = &locale.Message{ID: "cli.transcript.compare", Other: "[compare: {{.Label}}]"}
	msgTxExpect         = &locale.Message{ID: "cli.transcript.expect", Other: "{{.Mark}} expect (line {{.Line}})"}
	msgTxExercise       = &locale.Message{ID: "cli.transcript.exercise", One: "Exercise ({{.Count}} hint):", Other: "Exercise ({{.Count}} hints):"}
	msgTxSolutionPasses = &locale.Message{ID: "cli.transcript.solutionPasses", Other: "the reference solution passes its check"}
	msgTxSolutionFails  = &locale.Message{ID: "cli.transcript.solutionFails", Other: "the reference solution fails its check: {{.Message}}"}
	msgTxExerciseMark   = &locale.Message{ID: "cli.transcript.exerciseVerdict", Other: "{{.Mark}} exercise: {{.Verdict}}"}
	msgMdAbout          = &locale.Message{ID: "cli.handout.about", Other: "Lesson `{{.ID}}`, about {{.Minutes}} minutes, database `{{.DB}}`."}
	msgMdSetup          = &locale.Message{ID: "cli.handout.setup", Other: "Setup code"}
	msgMdYourTurn       = &locale.Message{ID: "cli.handout.yourTurn", Other: "**Your turn.** Start from:"}
	msgMdHint           = &locale.Message{ID: "cli.handout.hint", Other: "Hint"}
	msgFigureColumn     = &locale.Message{ID: "cli.figures.column", Other: "figure"}
)

// transcript writes lesson results as text or as a Markdown handout, in
// the chosen language.
type transcript struct {
	w     *bufio.Writer
	md    bool
	check bool
	g     *globalOptions
	cat   *lessons.Catalog
}

func (t *transcript) say(m *locale.Message, data map[string]any) string { return t.g.t(m, data) }

func (t *transcript) lesson(l *lessons.Lesson, db string) {
	if t.md {
		fmt.Fprintf(t.w, "# %s\n\n", l.Title)
		if l.Summary != "" {
			fmt.Fprintf(t.w, "*%s*\n\n", l.Summary)
		}
		fmt.Fprintf(t.w, "%s\n\n", t.say(msgMdAbout, map[string]any{"ID": l.ID, "Minutes": l.Minutes, "DB": db}))
		if t.cat.Untranslated(l) {
			fmt.Fprintf(t.w, "> %s\n\n", t.say(msgTxEnglishOnly, nil))
		}
		if l.Intro != "" {
			fmt.Fprintf(t.w, "%s\n\n", l.Intro)
		}
		return
	}
	bar := strings.Repeat("=", 72)
	fmt.Fprintf(t.w, "%s\n%s  %s\n", bar, l.Title, t.say(msgTxDatabase, map[string]any{"ID": l.ID, "DB": db}))
	if t.cat.Untranslated(l) {
		fmt.Fprintln(t.w, t.say(msgTxEnglishOnly, nil))
	}
	fmt.Fprintf(t.w, "%s\n\n", bar)
}

func (t *transcript) step(l *lessons.Lesson, i int, res *lessons.Result) {
	st := &l.Steps[i]
	if t.md {
		t.markdownStep(st, i, res)
		return
	}
	title := fmt.Sprintf("%d. %s", i+1, st.Title)
	fmt.Fprintf(t.w, "%s\n%s\n\n", title, strings.Repeat("-", ansi.StringWidth(title)))
	for _, br := range res.Blocks {
		b := br.Block
		switch {
		case b == nil:
		case b.Kind == lessons.Setup:
			fmt.Fprintf(t.w, "%s\n\n", t.g.L.N(msgTxSetup, strings.Count(b.Text, "\n")+1, map[string]any{"Elapsed": t.g.L.Duration(br.Elapsed)}))
		case b.Kind == lessons.Run:
			t.code(b.Text)
			t.output(br.Output)
		case b.Kind == lessons.Compare:
			for _, v := range br.Variants {
				fmt.Fprintln(t.w, t.say(msgTxCompare, map[string]any{"Label": v.Label}))
				t.code(v.Block.Text)
				t.output(v.Output)
			}
			fmt.Fprint(t.w, t.figureTable(br.Variants, false))
			fmt.Fprintln(t.w)
		case (b.Kind == lessons.ExpectOutput || b.Kind == lessons.ExpectJS) && t.check:
			fmt.Fprintf(t.w, "%s\n\n", t.say(msgTxExpect, map[string]any{"Mark": mark(br.Passed), "Line": b.Line}))
		}
	}
	if ex := st.Exercise; ex != nil {
		fmt.Fprintf(t.w, "%s\n%s\n\n", t.g.L.N(msgTxExercise, len(ex.Hints), nil), indent(ex.Task, "  "))
		if ex.Starter != "" {
			t.code(ex.Starter)
			fmt.Fprintln(t.w)
		}
		if t.check {
			for _, br := range res.Blocks {
				if br.Block != nil && br.Block.Kind == lessons.ExerciseSolution {
					verdict := t.say(msgTxSolutionPasses, nil)
					if !br.Passed {
						verdict = t.say(msgTxSolutionFails, map[string]any{"Message": br.Message})
					}
					fmt.Fprintf(t.w, "%s\n\n", t.say(msgTxExerciseMark, map[string]any{"Mark": mark(br.Passed), "Verdict": verdict}))
				}
			}
		}
	}
}

func (t *transcript) markdownStep(st *lessons.Step, i int, res *lessons.Result) {
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
			fmt.Fprintf(t.w, "<details><summary>%s</summary>\n\n```js\n%s\n```\n\n</details>\n\n", t.say(msgMdSetup, nil), b.Text)
		case lessons.Run:
			fmt.Fprintf(t.w, "```js\n%s\n```\n\n", b.Text)
			if br != nil && br.Output != "" {
				fmt.Fprintf(t.w, "```text\n%s```\n\n", br.Output)
			}
		case lessons.Compare:
			if br == nil { // a later variant of a group already written
				continue
			}
			for _, v := range br.Variants {
				fmt.Fprintf(t.w, "**%s**\n\n```js\n%s\n```\n\n", v.Label, v.Block.Text)
				if v.Output != "" {
					fmt.Fprintf(t.w, "```text\n%s```\n\n", v.Output)
				}
			}
			fmt.Fprintf(t.w, "%s\n", t.figureTable(br.Variants, true))
		case lessons.ExerciseStarter:
			fmt.Fprintf(t.w, "%s\n\n```js\n%s\n```\n\n", t.say(msgMdYourTurn, nil), b.Text)
		case lessons.ExerciseHint:
			fmt.Fprintf(t.w, "<details><summary>%s</summary>\n\n%s\n\n</details>\n\n", t.say(msgMdHint, nil), b.Text)
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
// column per variant, in the order, with the labels and the number
// formatting the app uses.
func (t *transcript) figureTable(vs []lessons.VariantResult, md bool) string {
	l := t.g.L
	keys := lessons.FigureKeys(vs)
	if len(keys) == 0 {
		return ""
	}
	rows := [][]string{{t.say(msgFigureColumn, nil)}}
	for _, v := range vs {
		rows[0] = append(rows[0], v.Label)
	}
	for _, k := range keys {
		row := []string{lessons.FigureLabel(l, k)}
		for _, v := range vs {
			if n, ok := v.Figure(k); ok {
				row = append(row, l.Figure(n))
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
			widths[i] = max(widths[i], ansi.StringWidth(c))
		}
	}
	for _, r := range rows {
		for i, c := range r {
			if i == 0 {
				sb.WriteString("  " + padRight(c, widths[i]))
			} else {
				sb.WriteString("  " + padLeft(c, widths[i]))
			}
		}
		sb.WriteString("\n")
	}
	return sb.String()
}
