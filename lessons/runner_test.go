package lessons

import (
	"context"
	"strings"
	"testing"

	"github.com/schemalab/schemalab/sandbox/sandboxtest"
)

func startSandbox(t testing.TB) *sandboxtest.Server { return sandboxtest.Start(t) }

// sandboxOf is what cmd/schemalab hands lessons: the backend as functions.
func sandboxOf(srv *sandboxtest.Server, prefix string) *Sandbox {
	return &Sandbox{Connect: srv.Connect, Prefix: prefix}
}

// newTestRunner is a session on srv that is closed when the test ends.
func newTestRunner(t testing.TB, srv *sandboxtest.Server, l *Lesson, prefix string) *Session {
	r := NewSession(sandboxOf(srv, prefix), l, SessionOptions{})
	t.Cleanup(func() { r.Close() })
	return r
}

// text is what the statements of a result showed, as a transcript.
func text(res *Result) string {
	var b strings.Builder
	for _, s := range res.Statements {
		for _, x := range []string{s.Printed, s.Output, s.Error} {
			if x != "" {
				b.WriteString(x + "\n")
			}
		}
	}
	return b.String()
}

const runnerLesson = "---\nid: runner\ntitle: Runner\n---\n" +
	"## Seed\n```js setup\ndb.flat.insertMany([{ a: 1 }, { a: 2 }, { a: 3 }]); db.flat.createIndex({ a: 1 })\n```\n" +
	"```js run\ndb.flat.countDocuments()\n```\n```text expect\n3\n```\n" +
	"## Compare\n" +
	"```js compare label=\"all\" collection=\"flat\"\ndb.flat.find().explain('executionStats')\n```\n" +
	"```js compare label=\"one\" collection=\"flat\" figures=\"{ extra: 7 }\"\ndb.flat.find({ a: 2 }).explain('executionStats')\n```\n" +
	"```text expect\nnot in the output\n```\n" +
	"## Throw\n```js run throws\ndb.flat.insertOne({ _id: 1 }); db.flat.insertOne({ _id: 1 })\n```\n" +
	"```text expect\nMongoServerError: E11000 duplicate key error collection: ...\n```\n" +
	"## Exercise\nAdd a document with a: 4.\n" +
	"```js exercise check\ndb.flat.countDocuments({ a: 4 }) === 1 || 'there is no document with a: 4'\n```\n" +
	"```js exercise solution\ndb.flat.insertOne({ a: 4 })\n```\n"

func TestRunnerStepsFiguresAndExercises(t *testing.T) {
	be := startSandbox(t)
	ctx := context.Background()
	l, err := Parse("runner.md", []byte(runnerLesson))
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRunner(t, be, l, "test_")
	if r.Database() != "test_runner" {
		t.Errorf("database = %q", r.Database())
	}

	// Asking for step 2 first replays step 1 (its setup) silently.
	res, err := r.Do(ctx, Request{Op: OpRun, Step: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Blocks) == 0 || len(res.Blocks[0].Variants) != 2 {
		t.Fatalf("compare result = %+v", res.Blocks)
	}
	all, one := res.Blocks[0].Variants[0], res.Blocks[0].Variants[1]
	if d, _ := all.Figure("docs"); d != 3 {
		t.Errorf("docs examined by 'all' = %v, want 3", d)
	}
	if k, _ := one.Figure("keys"); k != 1 {
		t.Errorf("keys examined by 'one' = %v, want 1", k)
	}
	if b, ok := all.Figure("dataBytes"); !ok || b <= 0 {
		t.Errorf("data bytes = %v %v", b, ok)
	}
	if _, ok := all.Figure("indexBytes"); !ok {
		t.Error("no index bytes")
	}
	if x, _ := one.Figure("extra"); x != 7 {
		t.Errorf("figures expression: extra = %v", x)
	}
	if len(res.Failures) != 1 || !res.Failures[0].Expect {
		t.Errorf("the failing output expectation should be reported: %+v", res.Failures)
	}

	// A run block marked throws passes when it throws.
	res, err = r.Do(ctx, Request{Op: OpRun, Step: 2})
	if err != nil || !res.OK() {
		t.Fatalf("throws step: %v %+v", err, res.Failures)
	}

	// Exercise attempts: a wrong one gets the check's message.
	ex, err := r.Do(ctx, Request{Op: OpAttempt, Step: 3, Code: "db.flat.insertOne({ a: 5 })"})
	if err != nil {
		t.Fatal(err)
	}
	if ex.Passed || ex.Message != "there is no document with a: 4" {
		t.Errorf("wrong attempt = %+v", ex)
	}
	ex, _ = r.Do(ctx, Request{Op: OpAttempt, Step: 3, Code: "db.flat.insertOne({ a: "})
	if ex.Passed || !strings.Contains(ex.Message, "SyntaxError") {
		t.Errorf("broken attempt = %+v", ex.Message)
	}
	ex, _ = r.Do(ctx, Request{Op: OpAttempt, Step: 3, Code: "db.flat.insertOne({ a: 4 })"})
	if !ex.Passed {
		t.Errorf("right attempt = %+v", ex)
	}

	// Reset drops the lesson database.
	if _, err := r.Do(ctx, Request{Op: OpReset}); err != nil {
		t.Fatal(err)
	}
	names, _ := be.Client(t).ListDatabaseNames(ctx, map[string]any{"name": "test_runner"})
	if len(names) != 0 {
		t.Errorf("database still exists after reset: %v", names)
	}
	// CheckStep runs the reference solution against the check.
	res, err = r.Do(ctx, Request{Op: OpCheck, Step: 3})
	if err != nil || !res.OK() {
		t.Fatalf("check step: %v %+v", err, res.Failures)
	}
	if last := res.Blocks[len(res.Blocks)-1]; last.Block == nil || last.Block.Kind != ExerciseSolution || !last.Passed {
		t.Errorf("the solution's verdict should close the step: %+v", last)
	}
}
