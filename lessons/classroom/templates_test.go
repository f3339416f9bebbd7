package classroom

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox"
	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/wire"
)

func builtinLesson(t testing.TB, id string) *lessons.Lesson {
	t.Helper()
	cat, errs := lessons.Load(content.FS)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	l := cat.Find(id)
	if l == nil {
		t.Fatalf("no lesson %s", id)
	}
	return l
}

func count(t testing.TB, c *mongo.Client, db, coll string) int64 {
	t.Helper()
	n, err := c.Database(db).Collection(coll).CountDocuments(context.Background(), bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestSeedClonesTheTemplateForEachStudent(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the bucket lesson's template (144,000 readings); skipped with -short")
	}
	ctx := context.Background()
	be := embedded(t)
	l := builtinLesson(t, "bucket")
	tpl := NewTemplates(be.Client, be.Connector(), nil)

	// Before step 2 the flat readings exist and the buckets do not yet.
	for _, db := range []string{"alice_bucket", "bob_bucket"} {
		ok, err := tpl.seed(ctx, l, db, 1)
		if err != nil || !ok {
			t.Fatalf("seed %s: ok=%v err=%v", db, ok, err)
		}
		if n := count(t, be.Client, db, "readings"); n != 144000 {
			t.Fatalf("%s.readings holds %d documents, want 144000", db, n)
		}
		if n := count(t, be.Client, db, "readings_bucket"); n != 0 {
			t.Fatalf("%s.readings_bucket holds %d documents before the step that builds it", db, n)
		}
	}
	// A student's writes stay theirs.
	if _, err := be.Client.Database("alice_bucket").Collection("readings").DeleteMany(ctx, bson.D{}); err != nil {
		t.Fatal(err)
	}
	if n := count(t, be.Client, "bob_bucket", "readings"); n != 144000 {
		t.Fatalf("bob lost readings when alice deleted hers: %d", n)
	}
	if n := count(t, be.Client, lessons.DatabaseName(TemplatePrefix, "bucket"), "readings"); n != 144000 {
		t.Fatalf("the template lost readings: %d", n)
	}
	// The end of the lesson, and its start, are templates too.
	if ok, err := tpl.seed(ctx, l, "carol_bucket", len(l.Steps)); err != nil || !ok {
		t.Fatalf("seed after the last step: ok=%v err=%v", ok, err)
	}
	if n := count(t, be.Client, "carol_bucket", "readings_bucket"); n == 0 {
		t.Fatal("after the last step the buckets exist")
	}
	if ok, err := tpl.seed(ctx, l, "alice_bucket", 0); err != nil || !ok {
		t.Fatalf("seed before the first step: ok=%v err=%v", ok, err)
	}
	if names, _ := be.Client.Database("alice_bucket").ListCollectionNames(ctx, bson.D{}); len(names) != 0 {
		t.Fatalf("before the first step the database is empty, not %v", names)
	}
	if _, err := tpl.seed(ctx, l, "alice_bucket", len(l.Steps)+1); err == nil {
		t.Fatal("a step past the end must be an error")
	}
}

func TestSeedOnAServerWithoutSnapshotsAsksForReplay(t *testing.T) {
	ctx := context.Background()
	// --strict answers like mongod: no schemalabSnapshot.
	srv, err := wire.Start(ctx, wire.Options{Engine: engine.New(engine.Options{Strict: true})})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	client, err := mongo.Connect(options.Client().ApplyURI(srv.URI()))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(ctx)
	l := builtinLesson(t, "bucket")
	ok, err := NewTemplates(client, nil, nil).seed(ctx, l, "alice_bucket", 1)
	if err != nil || ok {
		t.Fatalf("seed on a server without snapshots: ok=%v err=%v; want false, nil", ok, err)
	}
	dbs, err := client.ListDatabaseNames(ctx, bson.D{})
	if err != nil {
		t.Fatal(err)
	}
	for _, db := range dbs {
		if db == lessons.DatabaseName(TemplatePrefix, "bucket") {
			t.Fatal("no template is built where it cannot be used")
		}
	}
}

// embedded starts an embedded sandbox for the test.
func embedded(t testing.TB) *sandbox.Backend {
	t.Helper()
	be, err := sandbox.Open(context.Background(), sandbox.Config{Kind: sandbox.KindEmbedded})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { be.Close() })
	return be
}

// studentRunner is a student's runner as a classroom makes it: a client
// confined to the student's prefix, seeded from the room's templates.
func studentRunner(t testing.TB, be *sandbox.Backend, tpl *Templates, l *lessons.Lesson, name string) *lessons.Session {
	t.Helper()
	sb, err := be.ForPrefix(context.Background(), name+"_")
	if err != nil {
		t.Fatal(err)
	}
	r := lessons.NewSession(&lessons.Sandbox{Connect: sb.Connector(), Prefix: sb.Prefix(), ResetDB: sb.ResetDB,
		Close: sb.Close, Seeds: tpl.Seeds}, l, lessons.SessionOptions{})
	t.Cleanup(func() {
		r.Close()
		sb.Close()
	})
	return r
}

func evalAt(t testing.TB, r *lessons.Session, step int, src string) string {
	t.Helper()
	out, err := r.Do(context.Background(), lessons.Request{Op: lessons.OpEval, Step: step, Code: src})
	if err != nil {
		return "error: " + err.Error()
	}
	var text []string
	for _, st := range out.Statements {
		for _, x := range []string{st.Printed, st.Output, st.Error} {
			if x != "" {
				text = append(text, x)
			}
		}
	}
	return strings.TrimSpace(strings.Join(text, "\n"))
}

// Two students seeded from one template see the same data and variables;
// what one of them changes, in the database or in the session, reaches
// neither the other nor the template; and neither can read the template
// itself.
func TestSeededStudentsShareTheTemplateAndStayApart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the bucket lesson's template (144,000 readings); skipped with -short")
	}
	ctx := context.Background()
	be := embedded(t)
	l := builtinLesson(t, "bucket")
	tpl := NewTemplates(be.Client, be.Connector(), nil)
	alice := studentRunner(t, be, tpl, l, "alice")
	bob := studentRunner(t, be, tpl, l, "bob")
	compare := stepNamed(t, l, "Compare: a 12-hour")
	for _, r := range []*lessons.Session{alice, bob} {
		for i := 0; i <= compare; i++ {
			res, err := r.Do(ctx, lessons.Request{Op: lessons.OpRun, Step: i})
			if err != nil || !res.OK() {
				t.Fatalf("%s step %d: %v %v", r.Database(), i+1, err, res.Failures)
			}
		}
	}
	probe := "[db.readings.countDocuments(), db.readings_bucket.countDocuments(), typeof hourOf, typeof figures, lo.toISOString()].join(' ')"
	want := "144000 2403 function function 2026-09-01T00:00:00.000Z"
	for _, r := range []*lessons.Session{alice, bob} {
		if got := evalAt(t, r, compare, probe); got != want {
			t.Fatalf("%s sees %q, want %q", r.Database(), got, want)
		}
	}
	// Alice wrecks her copy, data and helpers alike.
	evalAt(t, alice, compare, "db.readings.deleteMany({}); db.readings_bucket.drop(); hour = null; figures = 'mine'")
	if got := evalAt(t, alice, compare, "[db.readings.countDocuments(), hour, figures].join(' ')"); got != "0  mine" {
		t.Fatalf("alice's own changes: %q", got)
	}
	if got := evalAt(t, bob, compare, probe); got != want {
		t.Fatalf("after alice's changes bob sees %q, want %q", got, want)
	}
	if n := count(t, be.Client, lessons.DatabaseName(TemplatePrefix, "bucket"), "readings"); n != 144000 {
		t.Fatalf("after alice's changes the template holds %d readings", n)
	}
	// A third student starting now gets the template as it was built
	// (here at the state after the comparison step, whose helpers the
	// probe reads).
	carol := studentRunner(t, be, tpl, l, "carol")
	if got := evalAt(t, carol, compare+1, probe); got != want {
		t.Fatalf("carol, seeded after alice's changes, sees %q", got)
	}
	// A student's client is confined to the student's prefix: the
	// template is the classroom's.
	if got := evalAt(t, bob, compare, "db.getSiblingDB('"+lessons.DatabaseName(TemplatePrefix, "bucket")+"').readings.countDocuments()"); !strings.Contains(got, "error") {
		t.Fatalf("bob read the template database: %q", got)
	}
}

// On a server without snapshots (here `schemalab serve --strict`) the
// classroom has nothing to share and says so; a student's runner runs the
// lesson's code itself, as a learner alone does.
func TestSeedsFallBackToReplayingWithoutSnapshots(t *testing.T) {
	ctx := context.Background()
	srv, err := wire.Start(ctx, wire.Options{Engine: engine.New(engine.Options{Strict: true})})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	be, err := sandbox.Open(ctx, sandbox.Config{URI: srv.URI(), DBPrefix: "strict_"})
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	// The classroom's own client is not confined to a prefix.
	client, err := mongo.Connect(options.Client().ApplyURI(srv.URI()))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(ctx)
	tpl := NewTemplates(client, nil, nil)
	if err := tpl.Available(ctx); !errors.Is(err, lessons.ErrNoSnapshots) {
		t.Fatalf("Available on a server without snapshots: %v", err)
	}
	l := builtinLesson(t, "tree")
	r := lessons.NewSession(&lessons.Sandbox{Connect: be.Connector(), Prefix: "strict_", Seeds: tpl.Seeds}, l, lessons.SessionOptions{})
	defer r.Close()
	last := len(l.Steps) - 1
	res, err := r.Do(ctx, lessons.Request{Op: lessons.OpRun, Step: last})
	if err != nil || !res.OK() {
		t.Fatalf("last step without snapshots: %v %v", err, res.Failures)
	}
	if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, "steps are replayed") {
		t.Errorf("the runner does not say that it replays:\n%s", notes)
	}
}

func stepNamed(t testing.TB, l *lessons.Lesson, prefix string) int {
	t.Helper()
	for i, st := range l.Steps {
		if strings.HasPrefix(st.Title, prefix) {
			return i
		}
	}
	t.Fatalf("%s has no step %q", l.ID, prefix)
	return -1
}

// A lesson's template is started when its first student opens it, built
// once however many ask, and what keeps it from sharing every step is
// reported to the instructor's log.
func TestStartBuildsOnceAndReportsProblems(t *testing.T) {
	ctx := context.Background()
	be := embedded(t)
	src := "---\nid: brittle\ntitle: Brittle\n---\n## One\n```js run\ndb.items.insertOne({ _id: 1 })\n```\n" +
		"## Two\n```js run\nthrow new Error('step two breaks')\n```\n## Three\n```js run\ndb.items.countDocuments()\n```\n"
	ls, errs := lessons.LoadFS(fstest.MapFS{"brittle.md": {Data: []byte(src)}}, "")
	if len(errs) > 0 || len(ls) != 1 {
		t.Fatal(ls, errs)
	}
	var mu sync.Mutex
	var lines []string
	tpl := NewTemplates(be.Client, be.Connector(), func(line string) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, line)
	})
	tpl.Start(ls[0])
	tpl.Start(ls[0])
	built, err := tpl.Build(ctx, ls[0])
	if err != nil || built == nil {
		t.Fatalf("build: %v %v", built, err)
	}
	if ok, err := tpl.seed(ctx, ls[0], "alice_brittle", 1); err != nil || !ok {
		t.Fatalf("the state before the broken step is shared: ok=%v err=%v", ok, err)
	}
	if n := count(t, be.Client, "alice_brittle", "items"); n != 1 {
		t.Fatalf("alice's copy holds %d items, want 1", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(lines) != 1 || !strings.Contains(lines[0], "brittle") || !strings.Contains(lines[0], "step two breaks") {
		t.Fatalf("report got %q, want one line naming the lesson and its failure", lines)
	}
}

// seed makes db the state of lesson l just before step (0-based), as a
// copy-on-write clone of the template, building the template first if
// needed, as a student's process does through Seeds. ok is false when it could not: on a server without snapshots, or
// past a step the template could not run; the caller then runs the
// earlier steps itself.
func (t *Templates) seed(ctx context.Context, l *lessons.Lesson, db string, step int) (ok bool, err error) {
	if step < 0 || step > len(l.Steps) {
		return false, fmt.Errorf("lesson %s has no step %d", l.ID, step+1)
	}
	tpl, err := t.Build(ctx, l)
	if tpl == nil {
		return false, err
	}
	name, ok := tpl.SnapshotBefore(step)
	if !ok {
		return false, nil
	}
	if err := t.restore(ctx, tpl, name, db); err != nil {
		return false, err
	}
	return true, nil
}

const sharingLesson = "---\nid: sharing\ntitle: Sharing\n---\n" +
	"## Build\n```js setup\nvoid db.c.insertMany(Array.from({length: 1000}, (_, i) => ({i})))\n```\n" +
	"```js run\nvoid db.c.insertMany(Array.from({length: 500}, (_, j) => ({j}))); db.c.countDocuments()\n```\n```text expect\n1500\n```\n" +
	"## Random\n```js run\nvoid db.c.insertOne({r: Math.random()}); db.c.countDocuments()\n```\n" +
	"## Count\n```js run\ndb.c.countDocuments()\n```\n"

// countInserts wraps connect so that the inserts its clients send are
// counted, the session's own monitor still told of every command.
func countInserts(connect lessons.ConnectFunc, inserts *atomic.Int64) lessons.ConnectFunc {
	return func(ctx context.Context, m *event.CommandMonitor) (*mongo.Client, error) {
		mine := &event.CommandMonitor{Started: func(ctx context.Context, e *event.CommandStartedEvent) {
			if e.CommandName == "insert" {
				inserts.Add(1)
			}
			if m != nil && m.Started != nil {
				m.Started(ctx, e)
			}
		}}
		if m != nil {
			mine.Succeeded, mine.Failed = m.Succeeded, m.Failed
		}
		return connect(ctx, mine)
	}
}

// Students who run a step's own code on the template's state before it
// take the room's run of it, made once for them all: the same outputs,
// no insert of their own, and their data as the step leaves it. A step
// whose output the state does not decide (random numbers) runs in each
// student's session.
func TestStudentsTakeTheRoomsRunOfAStep(t *testing.T) {
	ctx := context.Background()
	be := embedded(t)
	l, err := lessons.Parse("sharing.md", []byte(sharingLesson))
	if err != nil {
		t.Fatal(err)
	}
	tpl := NewTemplates(be.Client, be.Connector(), nil)
	student := func(name string) (*lessons.Session, *atomic.Int64) {
		sb, err := be.ForPrefix(ctx, name+"_")
		if err != nil {
			t.Fatal(err)
		}
		inserts := new(atomic.Int64)
		r := lessons.NewSession(&lessons.Sandbox{Connect: countInserts(sb.Connector(), inserts), Prefix: sb.Prefix(),
			ResetDB: sb.ResetDB, Seeds: tpl.Seeds}, l, lessons.SessionOptions{})
		t.Cleanup(func() {
			r.Close()
			sb.Close()
		})
		return r, inserts
	}
	run := func(r *lessons.Session, step int) *lessons.Result {
		t.Helper()
		res, err := r.Do(ctx, lessons.Request{Op: lessons.OpRun, Step: step, Widths: lessons.Widths{Output: 100, Variant: 48}})
		if err != nil || !res.OK() {
			t.Fatalf("%s, step %d: %v %v", r.Database(), step+1, err, res.Failures)
		}
		return res
	}
	output := func(res *lessons.Result) string {
		var out []string
		for _, b := range res.Blocks {
			out = append(out, b.Output)
		}
		return strings.Join(out, "")
	}
	shared := func(res *lessons.Result) bool {
		return strings.Contains(strings.Join(res.Notes, "\n"), "run once for the whole room")
	}

	// Once the room's build has run a step, the students' runs of it are
	// the room's. (Before, a student runs it in their own session.)
	if _, err := tpl.Build(ctx, l); err != nil {
		t.Fatal(err)
	}
	alice, aliceInserts := student("alice")
	bob, bobInserts := student("bob")
	for _, r := range []*lessons.Session{alice, bob} {
		res := run(r, 0)
		if !shared(res) || !strings.Contains(output(res), "1500") {
			t.Errorf("%s, step 1: not the room's run: notes %q, output %q", r.Database(), res.Notes, output(res))
		}
	}
	if n := aliceInserts.Load() + bobInserts.Load(); n != 0 {
		t.Errorf("the students sent %d inserts for a step the room ran", n)
	}
	if got := evalAt(t, alice, 0, "db.c.countDocuments({j: {$exists: true}})"); got != "500" {
		t.Errorf("after the room's run alice's data holds %s of the step's 500 documents", got)
	}
	res := run(alice, 1)
	if shared(res) || aliceInserts.Load() != 1 {
		t.Errorf("a step with Math.random was not alice's own run: notes %q, %d inserts", res.Notes, aliceInserts.Load())
	}
	if res := run(alice, 2); !shared(res) || output(res) != "1501\n" {
		t.Errorf("step 3 after alice's own run of step 2: notes %q, output %q", res.Notes, output(res))
	}
	// An edit of the step's code is the learner's own, and runs in
	// their session.
	if _, err := bob.Do(ctx, lessons.Request{Op: lessons.OpEdit, Step: 0, Code: "db.c.insertOne({mine: 1}); db.c.countDocuments()"}); err != nil {
		t.Fatal(err)
	}
	if bobInserts.Load() != 1 {
		t.Errorf("bob's edit sent %d inserts, want 1", bobInserts.Load())
	}
}

// builtRoom parses a lesson and builds the room's template of it; the
// counter counts the inserts the room sends, its build's included.
func builtRoom(t *testing.T, be *sandbox.Backend, name, text string) (*lessons.Lesson, *Templates, *atomic.Int64) {
	t.Helper()
	l, err := lessons.Parse(name, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	inserts := new(atomic.Int64)
	tpl := NewTemplates(be.Client, countInserts(be.Connector(), inserts), nil)
	if _, err := tpl.Build(context.Background(), l); err != nil {
		t.Fatal(err)
	}
	return l, tpl, inserts
}

// seededStudent is a student's session of l, seeded from the room's
// templates, taking the room's turns (nil: none).
func seededStudent(t *testing.T, be *sandbox.Backend, tpl *Templates, l *lessons.Lesson, name string, turns *lessons.Turns) *lessons.Session {
	t.Helper()
	sb, err := be.ForPrefix(context.Background(), name+"_")
	if err != nil {
		t.Fatal(err)
	}
	r := lessons.NewSession(&lessons.Sandbox{Connect: sb.Connector(), Prefix: sb.Prefix(), ResetDB: sb.ResetDB,
		Seeds: tpl.Seeds, Turns: turns}, l, lessons.SessionOptions{})
	t.Cleanup(func() {
		r.Close()
		sb.Close()
	})
	return r
}

// aheadLesson has a step with code, one of prose, one with code, and one
// with random numbers.
const aheadLesson = "---\nid: ahead\ntitle: Ahead\n---\n" +
	"## First\n```js run\nvoid db.c.insertOne({step: 1}); db.c.countDocuments()\n```\n" +
	"## Reading\nNothing to run here.\n" +
	"## Third\n```js run\nvoid db.c.insertOne({step: 3}); db.c.countDocuments()\n```\n" +
	"## Random\n```js run\nvoid db.c.insertOne({r: Math.random()}); db.c.countDocuments()\n```\n"

// Once a student has run a step, the room runs the next step with code
// for the same layout before anyone asks, so that the first student to
// press enter on it takes a finished run; it runs one step ahead, never a
// step whose output the state does not decide.
func TestTheRoomRunsTheNextStepAhead(t *testing.T) {
	ctx := context.Background()
	be := embedded(t)
	l, tpl, roomInserts := builtRoom(t, be, "ahead.md", aheadLesson)
	built := roomInserts.Load()
	w := lessons.Widths{Output: 100, Variant: 48}
	run := func(r *lessons.Session, step int) *lessons.Result {
		t.Helper()
		res, err := r.Do(ctx, lessons.Request{Op: lessons.OpRun, Step: step, Widths: w})
		if err != nil || !res.OK() {
			t.Fatalf("step %d: %v %v", step+1, err, res.Failures)
		}
		return res
	}

	alice := seededStudent(t, be, tpl, l, "alice", nil)
	run(alice, 0)
	// The room's run of the first step, then, unasked, of the third.
	deadline := time.Now().Add(30 * time.Second)
	for roomInserts.Load() < built+2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := roomInserts.Load() - built; got != 2 {
		t.Fatalf("the room ran %d inserts after the first student's first step, want 2 (its run of step 1, and step 3 ahead)", got)
	}
	res := run(alice, 2)
	if !strings.Contains(strings.Join(res.Notes, "\n"), "run once for the whole room") {
		t.Errorf("step 3 was not the room's run: notes %q", res.Notes)
	}
	if res.Blocks[0].Output != "2\n" {
		t.Errorf("step 3's output: %q, want 2", res.Blocks[0].Output)
	}
	// The step after is random: the room does not run it ahead.
	time.Sleep(200 * time.Millisecond)
	if got := roomInserts.Load() - built; got != 2 {
		t.Errorf("the room ran %d inserts, want 2: it ran ahead a step whose output is random", got)
	}
}

// A student waiting for the room's run of a step holds none of the
// room's turns: a classmate's scratch-shell line, which needs one, is
// answered while the room's run goes on.
func TestAStudentWaitingForTheRoomsRunHoldsNoTurn(t *testing.T) {
	ctx := context.Background()
	be := embedded(t)
	slow := "---\nid: slow\ntitle: Slow\n---\n## Slow\n```js run\n" +
		"if (db.getName().startsWith('" + RunPrefix + "')) sleep(3000); db.c.countDocuments()\n```\n"
	l, tpl, _ := builtRoom(t, be, "slow.md", slow)
	turns := lessons.NewTurns(1, 0)
	alice, bob := seededStudent(t, be, tpl, l, "alice", turns), seededStudent(t, be, tpl, l, "bob", turns)
	if got := evalAt(t, bob, 0, "1 + 1"); got != "2" {
		t.Fatalf("bob's scratch shell: %q", got)
	}
	aliceDone := make(chan time.Time, 1)
	go func() {
		res, err := alice.Do(ctx, lessons.Request{Op: lessons.OpRun, Step: 0, Widths: lessons.Widths{Output: 100, Variant: 48}})
		if err != nil || !res.OK() {
			t.Errorf("alice's step: %v %v", err, res.Failures)
		}
		aliceDone <- time.Now()
	}()
	time.Sleep(500 * time.Millisecond) // alice is waiting for the room's run
	if got := evalAt(t, bob, 0, "2 + 2"); got != "4" {
		t.Errorf("bob's scratch shell: %q", got)
	}
	bobDone := time.Now()
	if done := <-aliceDone; done.Before(bobDone) {
		t.Errorf("bob's line was answered only after alice's wait for the room's run ended (%v after)", bobDone.Sub(done))
	}
}

// While the room runs a slow step ahead, a student asking for a step the
// room has run already gets it at once: the room's kept runs do not wait
// for the one under way.
func TestAKeptRoomRunDoesNotWaitForTheRunUnderWay(t *testing.T) {
	ctx := context.Background()
	be := embedded(t)
	text := "---\nid: kept\ntitle: Kept\n---\n## Quick\n```js run\ndb.c.countDocuments()\n```\n" +
		"## Slow\n```js run\nif (db.getName().startsWith('" + RunPrefix + "')) sleep(4000); db.c.countDocuments()\n```\n"
	l, tpl, _ := builtRoom(t, be, "kept.md", text)
	w := lessons.Widths{Output: 100, Variant: 48}
	run := func(r *lessons.Session) (*lessons.Result, time.Duration) {
		t.Helper()
		start := time.Now()
		res, err := r.Do(ctx, lessons.Request{Op: lessons.OpRun, Step: 0, Widths: w})
		if err != nil || !res.OK() {
			t.Fatalf("step 1: %v %v", err, res.Failures)
		}
		return res, time.Since(start)
	}
	// Alice's run of step 1 makes the room run step 2 ahead, for 4 s.
	run(seededStudent(t, be, tpl, l, "alice", nil))
	time.Sleep(300 * time.Millisecond)
	res, took := run(seededStudent(t, be, tpl, l, "bob", nil))
	if !strings.Contains(strings.Join(res.Notes, "\n"), "run once for the whole room") {
		t.Errorf("bob's step 1 was not the room's run: notes %q", res.Notes)
	}
	if took > 2*time.Second {
		t.Errorf("bob's step 1 took %v: it waited for the room's run of step 2", took)
	}
}

// stepOneWhileTheRoomBuilds starts the room's build of l and, at once,
// alice's run of its step 1, whose result it returns with the inserts
// alice's own client sent.
func stepOneWhileTheRoomBuilds(t *testing.T, be *sandbox.Backend, l *lessons.Lesson) (*Templates, *lessons.Session, *atomic.Int64, *lessons.Result) {
	t.Helper()
	ctx := context.Background()
	tpl := NewTemplates(be.Client, be.Connector(), nil)
	sb, err := be.ForPrefix(ctx, "alice_")
	if err != nil {
		t.Fatal(err)
	}
	inserts := new(atomic.Int64)
	alice := lessons.NewSession(&lessons.Sandbox{Connect: countInserts(sb.Connector(), inserts), Prefix: sb.Prefix(),
		ResetDB: sb.ResetDB, Seeds: tpl.Seeds}, l, lessons.SessionOptions{})
	t.Cleanup(func() {
		alice.Close()
		sb.Close()
	})
	tpl.Start(l)
	res, err := alice.Do(ctx, lessons.Request{Op: lessons.OpRun, Step: 0, Widths: lessons.Widths{Output: 100, Variant: 48}})
	if err != nil || !res.OK() {
		t.Fatalf("step 1: %v %v", err, res.Failures)
	}
	return tpl, alice, inserts, res
}

// A student who runs a step before the room's build has run it waits
// for the build and takes the room's run, rather than running the step
// alone: in a room of sixty, the early ones each built the bucket
// lesson's readings again.
func TestAStudentAheadOfTheBuildTakesTheRoomsRun(t *testing.T) {
	be := embedded(t)
	text := "---\nid: early\ntitle: Early\n---\n## First\n```js run\n" +
		"if (db.getName().startsWith('" + TemplatePrefix + "')) sleep(1500); void db.c.insertOne({i: 1}); db.c.countDocuments()\n```\n"
	l, err := lessons.Parse("early.md", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	_, alice, inserts, res := stepOneWhileTheRoomBuilds(t, be, l)
	if !strings.Contains(strings.Join(res.Notes, "\n"), "run once for the whole room") {
		t.Errorf("alice's step 1 was not the room's run: notes %q", res.Notes)
	}
	if n := inserts.Load(); n != 0 {
		t.Errorf("alice's step 1 sent %d inserts: it ran the step alone", n)
	}
	if got := evalAt(t, alice, 0, "db.c.countDocuments()"); got != "1" {
		t.Errorf("alice has %s documents after step 1, want 1", got)
	}
}

// failingRoomLesson's step does what its expect says in the room's build,
// and fails in the room's runs of it (a stand-in for a run that a loaded
// machine cannot finish in time).
const failingRoomLesson = "---\nid: failing\ntitle: Failing\n---\n" +
	"## Build\n```js setup\nvoid db.c.insertMany(Array.from({length: 1000}, (_, i) => ({i})))\n```\n" +
	"```js run\nvoid db.c.insertOne({j: 1}); sleep(300); db.getName().startsWith('" + RunPrefix + "') ? 'too slow' : db.c.countDocuments()\n```\n```text expect\n1001\n```\n"

// When the room's run of a step fails, the students who were waiting for
// it see that failure: none of them runs the step again in their own
// session, since a room too loaded to run a step once would be buried by
// a run for every student. A student who asks afterwards starts a fresh
// run of the room's.
func TestStudentsWaitingForAFailedRoomRunShareItsFailure(t *testing.T) {
	ctx := context.Background()
	be := embedded(t)
	l, tpl, roomInserts := builtRoom(t, be, "failing.md", failingRoomLesson)
	built := roomInserts.Load()
	var sessions []*lessons.Session
	var inserts []*atomic.Int64
	for _, name := range []string{"alice", "bob", "carol"} {
		sb, err := be.ForPrefix(ctx, name+"_")
		if err != nil {
			t.Fatal(err)
		}
		n := new(atomic.Int64)
		r := lessons.NewSession(&lessons.Sandbox{Connect: countInserts(sb.Connector(), n), Prefix: sb.Prefix(),
			ResetDB: sb.ResetDB, Seeds: tpl.Seeds}, l, lessons.SessionOptions{})
		t.Cleanup(func() {
			r.Close()
			sb.Close()
		})
		sessions, inserts = append(sessions, r), append(inserts, n)
	}
	results := make([]*lessons.Result, len(sessions))
	var wg sync.WaitGroup
	for i, r := range sessions {
		wg.Go(func() {
			res, err := r.Do(ctx, lessons.Request{Op: lessons.OpRun, Step: 0, Widths: lessons.Widths{Output: 100, Variant: 48}})
			if err != nil {
				t.Errorf("%s: %v", r.Database(), err)
			}
			results[i] = res
		})
	}
	wg.Wait()
	for i, res := range results {
		if res == nil {
			continue
		}
		if res.OK() || !strings.Contains(strings.Join(res.Notes, "\n"), "run once for the whole room") {
			t.Errorf("%s: want the room's failed run, got notes %q, failures %v", sessions[i].Database(), res.Notes, res.Failures)
		}
		if n := inserts[i].Load(); n != 0 {
			t.Errorf("%s ran the failed step in their own session (%d inserts)", sessions[i].Database(), n)
		}
	}
	// Three students asked at once: the room ran the step at most twice
	// (one run under way when the others asked, and one they waited for).
	if n := roomInserts.Load() - built; n < 1 || n > 2 {
		t.Errorf("the room ran the step %d times for three students who asked at once", n)
	}
	before := roomInserts.Load()
	if res, err := sessions[0].Do(ctx, lessons.Request{Op: lessons.OpRun, Step: 0, Widths: lessons.Widths{Output: 100, Variant: 48}}); err != nil || res.OK() {
		t.Fatalf("a retry: %v %v", err, res)
	}
	if roomInserts.Load() != before+1 {
		t.Errorf("a retry after the failure did not start a fresh run of the room's")
	}
}

// A student who runs step 1 while the room is still building the lesson
// waits for the room's step 1, not for the whole lesson: the bucket
// lesson's build goes on for seconds after its first step, and the
// student's step 1 takes its 144,000 readings from the room's setup
// rather than inserting them.
func TestAStudentWaitsForTheRoomsStepNotItsWholeLesson(t *testing.T) {
	ctx := context.Background()
	be := embedded(t)
	l := builtinLesson(t, "bucket")
	tpl, alice, inserts, _ := stepOneWhileTheRoomBuilds(t, be, l)
	tpl.mu.Lock()
	build := tpl.byID[l.ID]
	tpl.mu.Unlock()
	select {
	case <-build.done:
		t.Error("alice's step 1 ended after the room's build of the whole lesson")
	default:
	}
	if n := inserts.Load(); n != 0 {
		t.Errorf("alice's step 1 sent %d inserts: it ran the setup the room ran", n)
	}
	if got := evalAt(t, alice, 1, "db.readings.countDocuments()"); got != "144000" {
		t.Errorf("alice has %s readings", got)
	}
	if _, err := tpl.Build(ctx, l); err != nil {
		t.Fatal(err)
	}
}

// goalsLesson has two exercises: one whose solution writes a small
// collection, one whose solution writes a collection too large to list
// (the goal's state is kept as a snapshot).
const goalsLesson = "---\nid: goals\ntitle: Goals\n---\n" +
	"## Data\n```js run\nvoid db.c.insertMany(Array.from({length: 600}, (_, i) => ({_id: i, v: i}))); db.c.countDocuments()\n```\n" +
	"## Small\nSum v into db.total.\n```js exercise starter\n// your code\n```\n" +
	"```js exercise check\ndb.total.findOne({_id: 1})?.sum === 179700 || 'not yet'\n```\n" +
	"```js exercise solution\ndb.total.insertOne({_id: 1, sum: db.c.aggregate([{$group: {_id: null, s: {$sum: '$v'}}}]).toArray()[0].s})\n```\n" +
	"## Large\nDouble every v into db.doubled.\n```js exercise starter\n// your code\n```\n" +
	"```js exercise check\ndb.doubled.countDocuments({$expr: {$eq: ['$w', {$multiply: ['$_id', 2]}]}}) === 600 || 'not yet'\n```\n" +
	"```js exercise solution\ndb.c.aggregate([{$project: {w: {$multiply: ['$v', 2]}}}, {$out: 'doubled'}])\n```\n"

// The room computes each exercise's goal once, in its build: a student's
// attempt is compared with it without running the reference solution in
// the student's session, and the comparison names the same differences,
// with the goal's values, that a learner alone is shown.
func TestStudentsCompareWithTheRoomsGoal(t *testing.T) {
	ctx := context.Background()
	be := embedded(t)
	l, tpl, _ := builtRoom(t, be, "goals.md", goalsLesson)
	sb, err := be.ForPrefix(ctx, "carol_")
	if err != nil {
		t.Fatal(err)
	}
	solutions := new(atomic.Int64)
	connect := func(ctx context.Context, m *event.CommandMonitor) (*mongo.Client, error) {
		mine := &event.CommandMonitor{Started: func(ctx context.Context, e *event.CommandStartedEvent) {
			if coll, _ := e.Command.Lookup("aggregate").StringValueOK(); coll == "c" {
				solutions.Add(1)
			}
			if m != nil && m.Started != nil {
				m.Started(ctx, e)
			}
		}}
		if m != nil {
			mine.Succeeded, mine.Failed = m.Succeeded, m.Failed
		}
		return sb.Connector()(ctx, mine)
	}
	carol := lessons.NewSession(&lessons.Sandbox{Connect: connect, Prefix: sb.Prefix(), ResetDB: sb.ResetDB, Seeds: tpl.Seeds},
		l, lessons.SessionOptions{})
	t.Cleanup(func() {
		carol.Close()
		sb.Close()
	})
	dsb, err := be.ForPrefix(ctx, "dave_")
	if err != nil {
		t.Fatal(err)
	}
	alone := lessons.NewSession(&lessons.Sandbox{Connect: dsb.Connector(), Prefix: dsb.Prefix(), ResetDB: dsb.ResetDB}, l, lessons.SessionOptions{})
	t.Cleanup(func() {
		alone.Close()
		dsb.Close()
	})

	attempt := func(r *lessons.Session, step int, code string) *lessons.Result {
		t.Helper()
		res, err := r.Do(ctx, lessons.Request{Op: lessons.OpAttempt, Step: step, Code: code})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	differences := func(res *lessons.Result) string {
		if res.Goal == nil {
			return "no goal"
		}
		var out []string
		for _, c := range res.Goal.Collections {
			out = append(out, fmt.Sprintf("%s %d/%d", c.Name, c.Yours, c.Goal))
			for _, d := range c.Differences {
				out = append(out, d.Text(locale.English()))
			}
		}
		return strings.Join(out, "\n")
	}
	for _, tc := range []struct {
		step int
		code string
		want string
	}{
		{1, "db.total.insertOne({_id: 1, sum: 5})", "_id: 1: sum is 5, the goal has 179700"},
		{2, "db.doubled.insertMany(Array.from({length: 600}, (_, i) => ({_id: i, w: i === 7 ? 0 : 2 * i})))", "_id: 7: w is 0, the goal has 14"},
	} {
		mine := attempt(carol, tc.step, tc.code)
		if mine.Passed || !strings.Contains(differences(mine), tc.want) {
			t.Errorf("step %d: passed=%v, the comparison with the room's goal:\n%s\nwant a line %q", tc.step+1, mine.Passed, differences(mine), tc.want)
		}
		if got, want := differences(mine), differences(attempt(alone, tc.step, tc.code)); got != want {
			t.Errorf("step %d: a student of the room is shown\n%s\na learner alone\n%s", tc.step+1, got, want)
		}
	}
	// Both solutions aggregate db.c; the attempts and checks do not.
	if n := solutions.Load(); n != 0 {
		t.Errorf("carol's session sent %d aggregates of db.c: it ran the reference solutions itself", n)
	}
}
