package lessons

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/sandbox/sandboxtest"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// seedsOf builds l's template on be, in the databases of prefix, and
// gives runners its states through be's own client, which may read the
// template's database where a student's could not.
func seedsOf(t testing.TB, be *sandboxtest.Server, l *Lesson, prefix string) func(context.Context, *Lesson, string) (*Seeds, error) {
	t.Helper()
	tpl, err := BuildTemplate(context.Background(), &Sandbox{Connect: be.Connect, Prefix: prefix}, l, TemplateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	seeds := seedsFrom(t, be, tpl)
	return func(context.Context, *Lesson, string) (*Seeds, error) { return seeds, nil }
}

// seedsFrom gives runners tp's states through be's own client.
func seedsFrom(t testing.TB, be *sandboxtest.Server, tp *Template) *Seeds {
	return &Seeds{Template: tp, Restore: func(ctx context.Context, snapshot, db string) error {
		return be.Client(t).Database(db).RunCommand(ctx, bson.D{{Key: vocab.SnapshotCommand, Value: "restore"},
			{Key: "name", Value: snapshot}, {Key: "fromDb", Value: tp.Database()}}).Err()
	}}
}

// varying are the parts of an output that differ between two runs of the
// same code: timings, and ObjectIds made by the client.
var varying = regexp.MustCompile(`(ms[=:] ?|executionTimeMillis\w*: |Elapsed )\d+(\.\d+)?|ObjectId\('[0-9a-f]{24}'\)|\b(alone|seeded)_`)

func steady(s string) string {
	return varying.ReplaceAllStringFunc(s, func(m string) string {
		switch {
		case strings.HasPrefix(m, "ObjectId"):
			return "ObjectId(…)"
		case strings.HasSuffix(m, "_"):
			return "<prefix>_" // the learner's database
		}
		return strings.TrimRight(m, "0123456789.") + "…"
	})
}

// shown is what a learner sees of a step's result: run outputs, compare
// variants and their figures (timings aside), expectations met and
// failures.
func shown(res *Result) string {
	var b strings.Builder
	for _, br := range res.Blocks {
		if br.Block == nil || br.Block.Kind == Setup {
			continue
		}
		fmt.Fprintf(&b, "[%s line %d] passed=%v %s\n%s", br.Block.Kind, br.Block.Line, br.Passed, br.Message, br.Output)
		for _, v := range br.Variants {
			fmt.Fprintf(&b, "  variant %s: %s", v.Label, v.Output)
			for _, f := range v.Figures {
				if f.Key != "ms" {
					fmt.Fprintf(&b, "  %s=%v", f.Key, f.Value)
				}
			}
			b.WriteByte('\n')
		}
	}
	for _, f := range res.Failures {
		fmt.Fprintf(&b, "failure: %s\n", f)
	}
	return steady(b.String())
}

// races reports whether a step's code runs writers concurrently
// (Promise.all over async calls), so that its outputs differ from run to
// run.
func races(st *Step) bool {
	return strings.Contains(strings.Join(blockTexts(st, Run, Compare), "\n"), "Promise.all")
}

// verdicts keeps what a shown result says about passing: each block's
// verdict line, failures, expect results, and an attempt's passed=.
func verdicts(shown string) string {
	var kept []string
	for line := range strings.Lines(shown) {
		switch {
		case blockVerdict.MatchString(line), strings.HasPrefix(line, "failure: "), strings.HasPrefix(line, `{"pass":`):
			kept = append(kept, line)
		case strings.HasPrefix(line, "passed="):
			kept = append(kept, strings.Fields(line)[0]+"\n")
		}
	}
	return strings.Join(kept, "")
}

var blockVerdict = regexp.MustCompile(`^\[[a-z]+( \([a-z]+\))? line \d+\] passed=`)

// A learner whose runner takes its states from a classroom's template
// sees, at every step, after jumps, re-runs, exercise attempts and in the
// scratch shell, what a learner alone sees: the same outputs, figures,
// verdicts and variables. Only the setup code does not run in their
// session.
func TestSeededRunnerShowsWhatALearnerAloneSees(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every built-in lesson three times; skipped with -short")
	}
	ctx := context.Background()
	be := startSandbox(t)
	cat, errs := Load(content.FS)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, l := range cat.Lessons {
		t.Run(l.ID, func(t *testing.T) {
			// A lesson's data goes when its subtest ends: the heap guard
			// collects after every block that allocates much, and the
			// whole course's data kept to the end made each collection,
			// and the test, minutes longer.
			t.Cleanup(func() {
				c := be.Client(t)
				for _, prefix := range []string{"alone_", "seeded_", "tpl_"} {
					db := c.Database(DatabaseName(prefix, l.ID))
					_ = db.RunCommand(ctx, bson.D{{Key: vocab.SnapshotCommand, Value: "drop"}}).Err()
					_ = db.Drop(ctx)
				}
			})
			alone := newTestRunner(t, be, l, "alone_")
			sb, sent := countingSandbox(be, "seeded_")
			sb.Seeds = seedsOf(t, be, l, "tpl_")
			seeded := NewSession(sb, l, SessionOptions{})
			t.Cleanup(func() { seeded.Close() })
			racing := false
			same := func(what string, do func(r *Session) string) {
				t.Helper()
				want, got := do(alone), do(seeded)
				if racing {
					// The step's code races on purpose (concurrent
					// writers): the learner alone does not see the same
					// twice either, so only the verdicts must agree.
					want, got = verdicts(want), verdicts(got)
				}
				if got != want {
					t.Errorf("%s: the seeded learner sees\n%s\nthe learner alone sees\n%s", what, got, want)
				}
			}
			run := func(i int) func(r *Session) string {
				return func(r *Session) string {
					res, err := r.Do(ctx, Request{Op: OpRun, Step: i})
					if err != nil {
						return "error: " + err.Error()
					}
					return shown(res)
				}
			}
			last := len(l.Steps) - 1
			// A jump to the end first, then every step in order, then a
			// re-run of one in the middle.
			ran := func(what string, i int) {
				racing = races(&l.Steps[i])
				same(what, run(i))
				racing = false
			}
			ran("jump to the last step", last)
			for i := range l.Steps {
				ran(fmt.Sprintf("step %d", i+1), i)
			}
			ran("re-run of the middle step", len(l.Steps)/2)
			for i, st := range l.Steps {
				if st.Exercise == nil {
					continue
				}
				for _, code := range []string{st.Exercise.Starter, st.Exercise.Solution} {
					racing = strings.Contains(code, "Promise.all")
					same(fmt.Sprintf("attempt at step %d", i+1), func(r *Session) string {
						res, err := r.Do(ctx, Request{Op: OpAttempt, Step: i, Code: code})
						if err != nil {
							return "error: " + err.Error()
						}
						return fmt.Sprintf("passed=%v %s\n%s", res.Passed, res.Message, steady(text(res)))
					})
					racing = false
				}
			}
			// The scratch shell sees the same collections and variables.
			for _, i := range []int{0, len(l.Steps) / 2, last} {
				same(fmt.Sprintf("scratch shell at step %d", i+1), func(r *Session) string {
					out, err := r.Do(ctx, Request{Op: OpEval, Step: i, Code: "print(db.getCollectionNames().join(' ')); Object.keys(globalThis).filter(k => globalThis[k] !== undefined && !/native code/.test(String(globalThis[k]))).sort().map(k => k + ':' + typeof globalThis[k]).join(' ')"})
					return steady(fmt.Sprint(text(out), err))
				})
			}
			_ = sent("insert")
			// Starting again: the setup that builds the data is taken from
			// the template, not run.
			if _, err := seeded.Do(ctx, Request{Op: OpReset}); err != nil {
				t.Fatal(err)
			}
			for i, st := range l.Steps {
				if !hasSetup(&st) {
					continue
				}
				if _, err := seeded.Do(ctx, Request{Op: OpRun, Step: i}); err != nil {
					t.Fatal(err)
				}
				runs := strings.Join(blockTexts(&st, Run, Compare), "\n")
				if n := sent("insert"); n > 0 && !strings.Contains(runs, "insert") && !callsSetup(&st, runs) {
					t.Errorf("step %d: the seeded runner sent %d inserts; its setup ran in the session", i+1, n)
				}
			}
		})
	}
}

// setupNames finds the names a setup block declares.
var setupNames = regexp.MustCompile(`(?:var|let|const|function)\s+([A-Za-z_$][\w$]*)`)

// callsSetup reports whether code calls a function the step's setup
// declares: its inserts are then the run's own, not the setup's.
func callsSetup(st *Step, code string) bool {
	for _, setup := range blockTexts(st, Setup) {
		for _, m := range setupNames.FindAllStringSubmatch(setup, -1) {
			if regexp.MustCompile(`\b` + regexp.QuoteMeta(m[1]) + `\(`).MatchString(code) {
				return true
			}
		}
	}
	return false
}

func blockTexts(st *Step, kinds ...BlockKind) []string {
	var out []string
	for _, b := range st.Blocks {
		for _, k := range kinds {
			if b.Kind == k {
				out = append(out, b.Text)
			}
		}
	}
	return out
}

const unportableLesson = "---\nid: unportable\ntitle: Unportable\n---\n" +
	"## One\n```js setup\nvar counter = (() => { let c = 0; return () => ++c })();\n" +
	"var unused = (() => { let u = 0; return () => ++u })();\nvar kept = 5; db.x.insertOne({ n: 1 })\n```\n" +
	"```js run\ncounter() + kept\n```\n```text expect\n6\n```\n" +
	"## Two\n```js run\ncounter() + db.x.countDocuments()\n```\n```text expect\n3\n```\n" +
	"## Three\n```js setup\nvar later = 7\n```\n```js run\nlater\n```\n"

// A global the template cannot carry and that later code reads keeps
// the runner from starting at the states that have it: it runs the code
// itself from the nearest state it may start from, and shows what a
// learner alone sees.
func TestSeededRunnerRunsWhatCannotBeCarried(t *testing.T) {
	ctx := context.Background()
	l, err := Parse("unportable.md", []byte(unportableLesson))
	if err != nil {
		t.Fatal(err)
	}
	be := startSandbox(t)
	sb, sent := countingSandbox(be, "seeded_")
	sb.Seeds = seedsOf(t, be, l, "tpl_")
	seeds, _ := sb.Seeds(ctx, l, "s0")
	problems := strings.Join(seeds.Template.Problems(), "\n")
	if !strings.Contains(problems, "counter") || strings.Contains(problems, "unused") {
		t.Errorf("the template's problems name counter, and not unused, which no later code reads:\n%s", problems)
	}
	if _, ok := seeds.Template.SnapshotBefore(1); ok {
		t.Error("runners may start before step 2, whose code reads counter")
	}
	seeded := NewSession(sb, l, SessionOptions{})
	defer seeded.Close()
	alone := newTestRunner(t, be, l, "alone_")
	for _, i := range []int{1, 0, 1, 2} {
		want, _ := alone.Do(ctx, Request{Op: OpRun, Step: i})
		sent("insert")
		got, err := seeded.Do(ctx, Request{Op: OpRun, Step: i})
		if err != nil {
			t.Fatal(err)
		}
		if shown(got) != shown(want) {
			t.Errorf("step %d: seeded\n%s\nalone\n%s", i+1, shown(got), shown(want))
		}
		if i == 0 && sent("insert") != 1 {
			t.Error("the seeded runner did not run step 1's setup, whose closure it cannot take from the template")
		}
	}
}

// A template is published after every step of its build, so a session
// takes the states built so far: it asks again, with the state it
// needs, only when the template it has lacks it and is not complete,
// and it shows what a learner alone sees.
func TestASessionTakesTheTemplateAsItIsBuilt(t *testing.T) {
	ctx := context.Background()
	l, err := Parse("steps.md", []byte(stepsLesson))
	if err != nil {
		t.Fatal(err)
	}
	be := startSandbox(t)
	var published []*Template
	final, err := BuildTemplate(ctx, &Sandbox{Connect: be.Connect, Prefix: "tpl_"}, l, TemplateOptions{Publish: func(tp *Template) {
		published = append(published, tp)
	}})
	if err != nil {
		t.Fatal(err)
	}
	// At the start, then after each step but the last.
	if len(published) != len(l.Steps) || !final.Complete() {
		t.Fatalf("%d templates published during a build of %d steps, the last complete=%v", len(published), len(l.Steps), final.Complete())
	}
	for i, tp := range published {
		if tp.Complete() || !tp.Has(StateBefore(i)) || tp.Has(StateBefore(i+1)) {
			t.Errorf("after step %d: complete=%v, before step %d=%v, before step %d=%v", i,
				tp.Complete(), i+1, tp.Has(StateBefore(i)), i+2, tp.Has(StateBefore(i+1)))
		}
	}

	// The room's build is after step 1 when the session first asks.
	var asked []string
	sb, sent := countingSandbox(be, "seeded_")
	sb.Seeds = func(_ context.Context, _ *Lesson, state string) (*Seeds, error) {
		asked = append(asked, state)
		if len(asked) == 1 {
			return seedsFrom(t, be, published[1]), nil
		}
		return seedsFrom(t, be, final), nil
	}
	seeded := NewSession(sb, l, SessionOptions{})
	defer seeded.Close()
	alone := newTestRunner(t, be, l, "alone_")
	for _, i := range []int{1, 2, 0, 2} {
		want, _ := alone.Do(ctx, Request{Op: OpRun, Step: i})
		sent("insert")
		got, err := seeded.Do(ctx, Request{Op: OpRun, Step: i})
		if err != nil {
			t.Fatal(err)
		}
		if shown(got) != shown(want) {
			t.Errorf("step %d: seeded\n%s\nalone\n%s", i+1, shown(got), shown(want))
		}
		if i == 1 && sent("insert") != 1 {
			t.Error("step 2 did not start from the template's state before it: the session ran step 1 again")
		}
	}
	if want := []string{StateBefore(1), StateBefore(2)}; !slices.Equal(asked, want) {
		t.Errorf("the session asked for the template with states %q, want %q: once, then once more for a state the first lacked", asked, want)
	}
}
