package lessons

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox/sandboxtest"
)

func builtin(t testing.TB, id string) *Lesson {
	t.Helper()
	cat, errs := Load(content.FS)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	l := cat.Find(id)
	if l == nil {
		t.Fatalf("no lesson %s", id)
	}
	return l
}

// stepNamed is the index of the step whose title starts with prefix.
func stepNamed(t testing.TB, l *Lesson, prefix string) int {
	t.Helper()
	for i, st := range l.Steps {
		if strings.HasPrefix(st.Title, prefix) {
			return i
		}
	}
	t.Fatalf("%s has no step %q", l.ID, prefix)
	return -1
}

func try(t *testing.T, r *Session, i int, code string) *Result {
	t.Helper()
	res, err := r.Do(context.Background(), Request{Op: OpAttempt, Step: i, Code: code})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The failure of the issue: one wrong attempt at the outlier lesson's
// migration exercise unset `ulasan`, and every later attempt failed, the
// reference solution included. Every attempt now starts from the same
// restored state.
func TestDestructiveAttemptDoesNotBreakTheNextOne(t *testing.T) {
	l := builtin(t, "outlier")
	i := stepNamed(t, l, "Exercise: migrate")
	r := newTestRunner(t, startSandbox(t), l, "iso_")
	wrong := try(t, r, i, "db.buku.updateOne({ _id: 101 }, { $unset: { ulasan: '' } })")
	if wrong.Passed {
		t.Fatal("unsetting the reviews passed")
	}
	// The goal names what is wrong, beside what the attempt left.
	if wrong.Goal == nil || wrong.Goal.Match() {
		t.Fatalf("no goal differences for a wrong attempt: %+v", wrong.Goal)
	}
	var diffs []string
	for _, c := range wrong.Goal.Collections {
		for _, d := range c.Differences {
			diffs = append(diffs, c.Name+": "+d.Text(locale.English()))
		}
	}
	// The migrated book differs from the goal's (the check's concurrent
	// review raised its jumlahUlasan to 4 there), and the goal says so.
	if !strings.Contains(strings.Join(diffs, "\n"), "buku: _id: 101: ") {
		t.Errorf("the goal comparison does not name book 101: %q", diffs)
	}
	right := try(t, r, i, l.Steps[i].Exercise.Solution)
	if !right.Passed {
		t.Fatalf("the reference solution fails after a destructive attempt: %s", right.Message)
	}
	if !right.Goal.Match() {
		t.Errorf("the solution does not match its own goal: %+v", right.Goal)
	}
}

// Dropping a collection (or overwriting a helper) in the scratch shell
// does not break the exercise: the attempt restores both.
func TestScratchShellDropThenPass(t *testing.T) {
	ctx := context.Background()
	l := builtin(t, "outlier")
	i := stepNamed(t, l, "Exercise: migrate")
	r := newTestRunner(t, startSandbox(t), l, "scratch_")
	if _, err := r.Do(ctx, Request{Op: OpEval, Step: i, Code: "db.buku.drop(); db.ulasan.drop(); ObjectId = null"}); err != nil {
		t.Fatal(err)
	}
	if out, _ := r.Do(ctx, Request{Op: OpEval, Step: i, Code: "db.buku.countDocuments()"}); strings.TrimSpace(text(out)) != "0" {
		t.Fatalf("scratch drop: %q", text(out))
	}
	if res := try(t, r, i, l.Steps[i].Exercise.Solution); !res.Passed {
		t.Fatalf("the solution fails after a scratch-shell drop: %s", res.Message)
	}
	// Later inputs go on from what the earlier ones did.
	r.Do(ctx, Request{Op: OpEval, Step: i, Code: "db.buku.drop()"})
	out, _ := r.Do(ctx, Request{Op: OpEval, Step: i, Code: "db.buku.countDocuments()"})
	if strings.TrimSpace(text(out)) != "0" {
		t.Errorf("the scratch shell lost its own change: %q", text(out))
	}
}

// countingSandbox counts the commands the runner's client sends, by name.
func countingSandbox(be *sandboxtest.Server, prefix string) (*Sandbox, func(name string) int) {
	var mu sync.Mutex
	counts := map[string]int{}
	sb := &Sandbox{Prefix: prefix, Connect: func(ctx context.Context, m *event.CommandMonitor) (*mongo.Client, error) {
		return be.Connect(ctx, &event.CommandMonitor{Started: func(ctx context.Context, e *event.CommandStartedEvent) {
			mu.Lock()
			counts[e.CommandName]++
			mu.Unlock()
			m.Started(ctx, e)
		}})
	}}
	return sb, func(name string) int {
		mu.Lock()
		defer mu.Unlock()
		n := counts[name]
		counts[name] = 0
		return n
	}
}

const stepsLesson = "---\nid: steps\ntitle: Steps\n---\n" +
	"## One\n```js run\nvar total = 1; db.x.insertOne({ n: 1 })\n```\n" +
	"## Two\n```js run\ntotal = total + 1; db.x.insertOne({ n: 2 })\n```\n" +
	"## Three\n```js run\ntotal = total + 1; db.x.insertOne({ n: 3 }); total\n```\n```text expect\n3\n```\n"

// Re-running a step, jumping back and the scratch shell restore the state
// the steps before left, database and variables, without running those
// steps again.
func TestStepsRestoreInsteadOfReplaying(t *testing.T) {
	ctx := context.Background()
	l, err := Parse("steps.md", []byte(stepsLesson))
	if err != nil {
		t.Fatal(err)
	}
	sb, inserts := countingSandbox(startSandbox(t), "steps_")
	r := NewSession(sb, l, SessionOptions{})
	defer r.Close()
	// The scratch shell on a fresh start holds what the steps before build.
	out, err := r.Do(ctx, Request{Op: OpEval, Step: 2, Code: "db.x.countDocuments()"})
	if err != nil || strings.TrimSpace(text(out)) != "2" {
		t.Fatalf("scratch shell before step 3 on a fresh start: %q %v", text(out), err)
	}
	if n := inserts("insert"); n != 2 {
		t.Errorf("bringing the session to step 3 sent %d inserts, want 2", n)
	}
	for run := 0; run < 3; run++ {
		res, err := r.Do(ctx, Request{Op: OpRun, Step: 2})
		if err != nil || !res.OK() {
			t.Fatalf("run %d of step 3: %v %+v", run+1, err, res.Failures)
		}
		if n := inserts("insert"); n != 1 {
			t.Errorf("run %d of step 3 sent %d inserts, want only its own", run+1, n)
		}
	}
	res, err := r.Do(ctx, Request{Op: OpRun, Step: 0})
	if err != nil || !res.OK() {
		t.Fatal(err, res.Failures)
	}
	if n := inserts("insert"); n != 1 {
		t.Errorf("jumping back to step 1 sent %d inserts", n)
	}
	if res, _ := r.Do(ctx, Request{Op: OpRun, Step: 2}); !res.OK() {
		t.Errorf("step 3 after a jump back: %+v", res.Failures)
	}
	if n := inserts("insert"); n != 1 {
		t.Errorf("jumping forward again to step 3 sent %d inserts, want its own only", n)
	}
}

const checkLesson = "---\nid: checks\ntitle: Checks\n---\n" +
	"## Data\n```js setup\nvar double = (x) => x * 2;\n" +
	"db.flat.insertMany(Array.from({ length: 100 }, (_, i) => ({ _id: i, k: i % 10 })));\n" +
	"db.indexed.insertMany(Array.from({ length: 100 }, (_, i) => ({ _id: i, k: i % 10 })));\ndb.indexed.createIndex({ k: 1 });\n```\n" +
	// 1: reads, budget, value, output
	"## Exercise: count fast\nCount the documents with k: 3 in `indexed`, reading only it.\n" +
	"```js exercise starter\ndb.flat.countDocuments({ k: 3 })\n```\n" +
	"```js exercise check\nconst only = readsOnly('indexed');\n" +
	"!only.pass ? only.message\n  : attempt.value !== 10 ? 'your code should end with the count, 10; it ended with ' + attempt.value\n" +
	"  : docsExamined() > 10 ? 'too slow: ' + docsExamined() + ' documents examined'\n" +
	"  : { pass: true, message: 'right: ' + attempt.explain(0).totalKeysExamined + ' keys, double is ' + double(2) }\n```\n" +
	"```js exercise solution\nprint('counting'); db.indexed.countDocuments({ k: 3 })\n```\n" +
	// 2: error is the check's to judge; writes
	"## Exercise: a duplicate\nInsert a document with _id 1 into `flat` and see it fail.\n" +
	"```js exercise check\n(attempt.error && attempt.error.message.includes('E11000') && writes('flat') === 1) ||\n  'expected one insert failing with a duplicate key error'\n```\n" +
	"```js exercise solution\ndb.flat.insertOne({ _id: 1 })\n```\n" +
	// 3: a check that throws, on its third line
	"## Exercise: broken check\nAnything.\n" +
	"```js exercise check\nconst a = 1;\nconst b = 2;\nundefinedHelper(a + b)\n```\n" +
	"```js exercise solution\n1\n```\n"

// Checks see how the attempt got its result: the commands it sent, their
// explain on the data as it was before, its value, output and error; the
// helpers live in a scope of their own; a passing check's message is
// shown; a check that throws names its line in the lesson file.
func TestCheckAPI(t *testing.T) {
	ctx := context.Background()
	l, err := Parse("checks.md", []byte(checkLesson))
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRunner(t, startSandbox(t), l, "checks_")
	if res := try(t, r, 1, l.Steps[1].Exercise.Starter); res.Passed || res.Message != "your code read 'flat': the task asks for 'indexed' only" {
		t.Errorf("starter reading flat: %+v", res.Message)
	}
	if res := try(t, r, 1, "db.indexed.find({ k: 3 }).toArray(); 7"); res.Passed || !strings.Contains(res.Message, "it ended with 7") {
		t.Errorf("wrong value: %q", res.Message)
	}
	if res := try(t, r, 1, "db.indexed.countDocuments({ $expr: { $eq: [{ $add: ['$k', 0] }, 3] } })"); res.Passed || !strings.Contains(res.Message, "too slow: 100 documents examined") {
		t.Errorf("budget: %q", res.Message)
	}
	res := try(t, r, 1, l.Steps[1].Exercise.Solution)
	if !res.Passed || res.Message != "right: 10 keys, double is 4" {
		t.Errorf("solution: %+v %q", res.Passed, res.Message)
	}
	if len(res.Commands) != 1 || res.Commands[0].Name != "aggregate" || res.Commands[0].Collection != "indexed" {
		t.Errorf("commands: %+v", res.Commands)
	}
	// The helpers are not globals of the learner's session.
	out, _ := r.Do(ctx, Request{Op: OpEval, Step: 1, Code: "[typeof attempt, typeof readsOnly, typeof track, typeof output, typeof __schemalab].join()"})
	if got := strings.TrimSpace(text(out)); got != "undefined,undefined,undefined,undefined,undefined" {
		t.Errorf("check helpers leaked into the session: %s", got)
	}

	if res := try(t, r, 2, l.Steps[2].Exercise.Solution); !res.Passed {
		t.Errorf("a check that looks at attempt.error judges a thrown attempt: %q", res.Message)
	}
	if res := try(t, r, 2, "db.flat.insertOne({ _id: 1000 })"); res.Passed {
		t.Error("an insert that succeeds passed")
	}

	res = try(t, r, 3, "1")
	if res.Passed || !strings.Contains(res.Message, "checks.md:") || !strings.Contains(res.Message, "undefinedHelper is not defined") {
		t.Fatalf("throwing check: %q", res.Message)
	}
	checkLine := checkBlock(l.Steps[3]).Line
	if want := "(checks.md:" + strconv.Itoa(checkLine+3) + ")"; !strings.Contains(res.Message, want) {
		t.Errorf("the message should name line %s of the file: %q", want, res.Message)
	}
}

// The two loose checks of the issue now reject the approaches their tasks
// rule out, by what the attempt sent.
func TestChecksRejectRuledOutApproaches(t *testing.T) {
	be := startSandbox(t)
	bucket := builtin(t, "bucket")
	i := stepNamed(t, bucket, "Exercise: a week of daily summaries")
	r := newTestRunner(t, be, bucket, "loose_")
	flat := `db.readings.aggregate([
  { $match: { sensorId: 's7', at: { $gte: ISODate('2026-09-01T00:00:00Z'), $lt: ISODate('2026-09-02T00:00:00Z') } } },
  { $group: { _id: null, count: { $sum: 1 }, min: { $min: '$temp' }, max: { $max: '$temp' }, avg: { $avg: '$temp' } } },
  { $project: { _id: 0 } }, { $out: 'day_summary' }])`
	if res := try(t, r, i, flat); res.Passed || !strings.Contains(res.Message, "'readings'") {
		t.Errorf("a summary from the flat readings: %v %q", res.Passed, res.Message)
	}
	if res := try(t, r, i, bucket.Steps[i].Exercise.Solution); !res.Passed {
		t.Errorf("bucket solution: %q", res.Message)
	}
}

// The choosing lesson's checks print their explanation; it is shown on
// success, where it used to be lost.
func TestPassingCheckMessageIsShown(t *testing.T) {
	l := builtin(t, "choosing")
	r := newTestRunner(t, startSandbox(t), l, "msg_")
	res := try(t, r, 0, l.Steps[0].Exercise.Solution)
	if !res.Passed || !strings.HasPrefix(res.Message, "Right. A long tail") {
		t.Errorf("passing message: %v %q", res.Passed, res.Message)
	}
	if res.Goal != nil {
		t.Errorf("an answer is not data: no goal should give it away, got %+v", res.Goal)
	}
}

const guardLesson = "---\nid: guard\ntitle: Guard\n---\n" +
	"## Exercise: untouched\nAnything.\n" +
	"```js exercise starter\ndb.a.insertOne({ x: 1 })\n```\n" +
	"```js exercise check\ndb.a.countDocuments() === 1 || 'insert one document'\n```\n" +
	"```js exercise solution\ndb.a.insertOne({ x: 1 })\n```\n" +
	"## Exercise: not deterministic\nAnything.\n" +
	"```js exercise check\ndb.getSiblingDB('guard_elsewhere').n.countDocuments() === 1 || 'one'\n```\n" +
	"```js exercise solution\ndb.getSiblingDB('guard_elsewhere').n.insertOne({})\n```\n" +
	"## Exercise: a helper that does not exist\nAnything.\n" +
	"```js exercise check\nreadsOnlyy('a')\n```\n" +
	"```js exercise solution\ndb.a.find().toArray()\n```\n"

// run --check proves each exercise can be failed and passed: a starter
// that passes untouched, a solution that passes only once, and a check
// calling a helper that does not exist are reported with their line.
func TestAuthoringGuard(t *testing.T) {
	ctx := context.Background()
	l, err := Parse("pack/guard.md", []byte(guardLesson))
	if err != nil {
		t.Fatal(err)
	}
	be := startSandbox(t)
	defer be.Client(t).Database("guard_elsewhere").Drop(ctx)
	r := newTestRunner(t, be, l, "guard_")
	want := []string{
		"the exercise passes with its starter code untouched",
		"not deterministic",
		"readsOnlyy is not defined",
	}
	for i := range l.Steps {
		res, err := r.Do(ctx, Request{Op: OpCheck, Step: i})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Failures) != 1 || !strings.Contains(res.Failures[0].Msg, want[i]) {
			t.Errorf("step %d: want one failure about %q, got %+v", i+1, want[i], res.Failures)
			continue
		}
		var line int
		switch i {
		case 0:
			line = starterBlock(&l.Steps[i]).Line
		case 1:
			line = solutionBlock(&l.Steps[i]).Line
		case 2:
			line = solutionBlock(&l.Steps[i]).Line
			if !strings.Contains(res.Failures[0].Msg, "pack/guard.md:"+strconv.Itoa(checkBlock(l.Steps[i]).Line+1)) {
				t.Errorf("the missing helper's line is not named: %s", res.Failures[0].Msg)
			}
		}
		if res.Failures[0].Line != line {
			t.Errorf("step %d: failure at line %d, want %d", i+1, res.Failures[0].Line, line)
		}
	}
}

const loopLesson = "---\nid: loop\ntitle: Loop\n---\n" +
	"## Exercise: keep the data\nAnything.\n```js setup\ndb.keep.insertOne({ _id: 1 })\n```\n" +
	"```js exercise check\ndb.keep.countDocuments() === 1 || 'keep is gone'\n```\n" +
	"```js exercise solution\ndb.keep.findOne()\n```\n"

// An attempt that loops is stopped by the timeout or by cancelling, and
// the database is restored at once.
func TestLoopingAttemptIsStoppedAndRestored(t *testing.T) {
	ctx := context.Background()
	l, err := Parse("loop.md", []byte(loopLesson))
	if err != nil {
		t.Fatal(err)
	}
	be := startSandbox(t)
	r := NewSession(sandboxOf(be, "loop_"), l, SessionOptions{Timeout: 300 * time.Millisecond})
	defer r.Close()
	res := try(t, r, 0, "db.keep.drop(); while (true) {}")
	if res.Passed || !strings.Contains(res.Message, "interrupted") {
		t.Errorf("looping attempt: %q", res.Message)
	}
	if n, _ := be.Client(t).Database("loop_loop").Collection("keep").CountDocuments(ctx, map[string]any{}); n != 1 {
		t.Errorf("the database was not restored after the timeout: %d documents", n)
	}
	cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if _, err := r.Do(cctx, Request{Op: OpAttempt, Code: "db.keep.drop(); while (true) {}"}); err == nil {
		t.Error("a cancelled attempt returned no error")
	}
	if n, _ := be.Client(t).Database("loop_loop").Collection("keep").CountDocuments(ctx, map[string]any{}); n != 1 {
		t.Errorf("the database was not restored after cancelling: %d documents", n)
	}
	if res := try(t, r, 0, l.Steps[0].Exercise.Solution); !res.Passed {
		t.Errorf("after the interruptions: %q", res.Message)
	}
}

// On a server without the snapshot command (a real MongoDB; here the
// embedded server in --strict mode) the runner replays, says so, and
// still isolates attempts.
func TestReplayWhereThereAreNoSnapshots(t *testing.T) {
	be := sandboxtest.Start(t, sandboxtest.Strict())
	l := builtin(t, "outlier")
	i := stepNamed(t, l, "Exercise: migrate")
	var progress []string
	r := NewSession(&Sandbox{Connect: be.Connect, Prefix: "strict_"}, l, SessionOptions{Progress: func(s string) { progress = append(progress, s) }})
	defer r.Close()
	if res := try(t, r, i, "db.buku.updateOne({ _id: 101 }, { $unset: { ulasan: '' } })"); res.Passed {
		t.Fatal("a destructive attempt passed")
	}
	res := try(t, r, i, l.Steps[i].Exercise.Solution)
	if !res.Passed {
		t.Fatalf("without snapshots the solution fails after a destructive attempt: %s", res.Message)
	}
	text := strings.Join(progress, "\n")
	if !strings.Contains(text, "no snapshot command") || !strings.Contains(text, "Replaying steps 1–") {
		t.Errorf("no progress line says that steps are replayed:\n%s", text)
	}
}

// An attempt that runs explain still reads the collection it explains.
func TestExplainIsARead(t *testing.T) {
	c := describeCommand("explain", "db", mustRaw(t, `{"explain": {"find": "readings", "filter": {}}, "verbosity": "executionStats"}`))
	if len(c.Reads) != 1 || c.Reads[0] != "readings" || c.Writes != 0 {
		t.Errorf("explain of a find: %+v", c)
	}
	c = describeCommand("aggregate", "db", mustRaw(t, `{"aggregate": "a", "pipeline": [{"$lookup": {"from": "b", "as": "x", "pipeline": [{"$unionWith": "c"}]}}, {"$merge": {"into": "d"}}]}`))
	if strings.Join(c.Reads, ",") != "a,b,c" || c.Target != "d" || c.Writes != 1 {
		t.Errorf("aggregate with $lookup, $unionWith and $merge: %+v", c)
	}
}

func mustRaw(t *testing.T, js string) bson.Raw {
	t.Helper()
	var d bson.D
	if err := bson.UnmarshalExtJSON([]byte(js), false, &d); err != nil {
		t.Fatal(err)
	}
	raw, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// The nightly job's check says only "some subject has a wrong courseCount
// or avgGrade"; the goal beside the attempt names the subject and value.
func TestGoalNamesTheFirstWrongDocument(t *testing.T) {
	l := builtin(t, "computed")
	i := stepNamed(t, l, "Exercise: the nightly job")
	r := newTestRunner(t, startSandbox(t), l, "goal_")
	bestCourseAverage := `db.courses.aggregate([
  { $group: { _id: { $arrayElemAt: [{ $split: ['$title', ' '] }, 0] }, courseCount: { $sum: 1 }, avgGrade: { $max: '$avgGrade' } } },
  { $merge: { into: 'subjects', on: '_id', whenMatched: 'replace', whenNotMatched: 'insert' } }
]).toArray()`
	res := try(t, r, i, bestCourseAverage)
	if res.Passed || res.Goal == nil || len(res.Goal.Collections) != 1 {
		t.Fatalf("attempt: %v %q %+v", res.Passed, res.Message, res.Goal)
	}
	c := res.Goal.Collections[0]
	if c.Name != "subjects" || len(c.Differences) == 0 {
		t.Fatalf("subjects comparison: %+v", c)
	}
	d := c.Differences[0]
	if !strings.HasPrefix(d.Doc, "_id: '") || d.Field != "avgGrade" || d.Goal == "" || d.Yours == "" || d.Goal == d.Yours {
		t.Errorf("first difference should name a subject's avgGrade: %+v (%s)", d, d)
	}
}

const shapeLesson = "---\nid: shape\ntitle: Shape\n---\n" +
	"## Exercise: raise the price\nAnything.\n```js setup\ndb.items.insertOne({ _id: 1, price: { amount: 10 } })\n```\n" +
	"```js exercise starter\n```\n" +
	"```js exercise check\nconst p = db.items.findOne({ _id: 1 }).price.amount;\np === 11 || 'price.amount is ' + p + ', expected 11'\n```\n" +
	"```js exercise solution\ndb.items.updateOne({ _id: 1 }, { $inc: { 'price.amount': 1 } })\n```\n"

// An attempt that reshapes the data the check reads (here: deletes the
// document) makes the check itself throw. The learner is told their data
// is not in the shape the exercise expects, never the check's location in
// the lesson file, which `run --check` still gives the author.
func TestCheckThatThrowsOnReshapedData(t *testing.T) {
	l, err := Parse("builtin:09-shape.md", []byte(shapeLesson))
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRunner(t, startSandbox(t), l, "shape_")
	for _, code := range []string{"db.items.deleteMany({})", "db.items.updateOne({ _id: 1 }, { $unset: { price: 1 } })"} {
		res := try(t, r, 0, code)
		if res.Passed || strings.Contains(res.Message, "builtin:") || strings.Contains(res.Message, ".md:") ||
			!strings.Contains(res.Message, "not in the shape this exercise expects") {
			t.Errorf("%s: %v %q", code, res.Passed, res.Message)
		}
	}
	if res := try(t, r, 0, l.Steps[0].Exercise.Solution); !res.Passed {
		t.Errorf("the solution: %q", res.Message)
	}
}

const largeGoalLesson = "---\nid: large\ntitle: Large\n---\n" +
	"## Exercise: mark the late orders\nAnything.\n" +
	"```js setup\ndb.orders.insertMany(Array.from({ length: 2000 }, (_, i) => ({ _id: i, day: i % 30, total: i % 97 })))\n```\n" +
	"```js exercise starter\n```\n" +
	"```js exercise check\ndb.orders.countDocuments({ late: true }) === 1330 && db.orders.countDocuments({ day: 10, late: true }) > 0 || 'mark late the orders of day 10 and after'\n```\n" +
	"```js exercise solution\ndb.orders.updateMany({ day: { $gte: 10 } }, { $set: { late: true } })\n```\n"

// "Your data beside the goal" on a collection too large to list: the
// attempt is compared by digest (documents per value of the fields the
// check names, sums, minimums and maximums) and the first document that
// differs, in _id order, is named with its field. Before, it said only
// "too many to compare one by one".
func TestGoalDigestOfALargeCollection(t *testing.T) {
	l, err := Parse("pack/large.md", []byte(largeGoalLesson))
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRunner(t, startSandbox(t), l, "large_")
	res := try(t, r, 0, "db.orders.updateMany({ day: { $gte: 11 } }, { $set: { late: true } }); db.orders.updateOne({ _id: 1999 }, { $inc: { total: 1 } })")
	if res.Passed || res.Goal == nil || len(res.Goal.Collections) != 1 {
		t.Fatalf("attempt: %v %q %+v", res.Passed, res.Message, res.Goal)
	}
	c := res.Goal.Collections[0]
	if c.TooLarge || c.Match() || len(c.Differences) == 0 {
		t.Fatalf("orders against the goal: %+v", c)
	}
	if d := c.Differences[0]; d.Doc != "_id: 10" || d.Field != "late" {
		t.Errorf("the first document that differs is _id 10, without late: %+v", d)
	}
	var texts []string
	for _, d := range c.Digest {
		texts = append(texts, d.Text(locale.English()))
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"late: in 1,263 documents of yours, 1,330 in the goal", "total: sums to", "late = true: 1,263 documents in yours, 1,330 in the goal"} {
		if !strings.Contains(all, want) {
			t.Errorf("the digest lacks %q:\n%s", want, all)
		}
	}
	if strings.Contains(all, "day =") {
		t.Errorf("day has 30 values: too many to count one by one:\n%s", all)
	}
	if res := try(t, r, 0, l.Steps[0].Exercise.Solution); !res.Passed {
		t.Errorf("the solution: %q", res.Message)
	}
}
