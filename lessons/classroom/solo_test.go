package classroom

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/templatecache"
	"github.com/schemalab/schemalab/sandbox"
	"github.com/schemalab/schemalab/sandbox/vocab"
)

// soloRun is a learner's course as `schemalab` starts it: a new embedded
// server whose snapshot directory is the cache, and a session seeded by
// NewSolo's templates. It runs step and returns what the step showed and
// the templates.
func soloRun(t testing.TB, dir string, l *lessons.Lesson, step int) (string, *Templates, *sandbox.Backend) {
	t.Helper()
	out, tpls, be, closeAll := soloOpen(t, dir, l, step, 0)
	t.Cleanup(closeAll)
	return out, tpls, be
}

// soloOpen is soloRun whose caller closes the session and the server, and
// whose template build, if the lesson is not cached, waits buildDelay.
func soloOpen(t testing.TB, dir string, l *lessons.Lesson, step int, buildDelay time.Duration) (string, *Templates, *sandbox.Backend, func()) {
	t.Helper()
	ctx := context.Background()
	be, err := sandbox.Open(ctx, sandbox.Config{Kind: sandbox.KindEmbedded, SnapshotDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	tpls := NewSolo(be.Client, be.Connector(), be.Prefix(), templatecache.New(dir, templatecache.DefaultLimit))
	tpls.buildDelay = buildDelay
	r := lessons.NewSession(&lessons.Sandbox{Connect: be.Connector(), Prefix: be.Prefix(), ResetDB: be.ResetDB, Seeds: tpls.Seeds},
		l, lessons.SessionOptions{})
	closeAll := func() {
		_ = r.Close()
		_ = be.Close()
	}
	res, err := r.Do(ctx, lessons.Request{Op: lessons.OpRun, Step: step})
	if err != nil || !res.OK() {
		t.Fatalf("step %d: %v %v", step+1, err, res.Failures)
	}
	var out strings.Builder
	for _, b := range res.Blocks {
		if b.Block != nil && b.Block.Kind == lessons.Run {
			out.WriteString(b.Output)
		}
	}
	return out.String(), tpls, be, closeAll
}

// snapshotsOf lists the snapshots the server keeps of db.
func snapshotsOf(t *testing.T, be *sandbox.Backend, db string) []string {
	t.Helper()
	var reply struct {
		Snapshots []struct{ Name string } `bson:"snapshots"`
	}
	if err := be.Client.Database(db).RunCommand(context.Background(),
		bson.D{{Key: vocab.SnapshotCommand, Value: "list"}}).Decode(&reply); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range reply.Snapshots {
		names = append(names, s.Name)
	}
	return names
}

func cacheFiles(t *testing.T, dir, suffix string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*"+suffix))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A learner opens a lesson, closes schemalab and opens it again: the
// second run reads the lesson's states from the cache instead of running
// its code, shows the same output, and reads only the state it needs.
func TestSoloLessonOpensFromTheCacheInANewProcess(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	l := builtinLesson(t, "outlier")
	last := len(l.Steps) - 1
	first, tpls, _ := soloRun(t, dir, l, last)
	if _, err := tpls.Build(ctx, l); err != nil {
		t.Fatal(err)
	}
	if len(cacheFiles(t, dir, ".tpl")) != 1 || len(cacheFiles(t, dir, ".snap")) < len(l.Steps) {
		t.Fatalf("the cache holds %v", cacheFiles(t, dir, ""))
	}

	again, _, be := soloRun(t, dir, l, last)
	if again != first {
		t.Fatalf("the cached lesson shows\n%s\nwhere it showed\n%s", again, first)
	}
	// Nothing was built: the template database holds no collections,
	// and only the states read ahead (the lesson's start) and those the
	// session asked for, read from their files.
	db := lessons.DatabaseName(be.Prefix()+"_tpl_", l.ID)
	allowed := []string{"s0", "p0", lessons.StateBefore(last), lessons.StateSetup(last), lessons.StateBefore(last + 1)}
	for _, name := range snapshotsOf(t, be, db) {
		if !slices.Contains(allowed, name) {
			t.Fatalf("the template database holds %v: the lesson was built again", snapshotsOf(t, be, db))
		}
	}
	if names, err := be.Client.Database(db).ListCollectionNames(ctx, bson.D{}); err != nil || len(names) > 0 {
		t.Fatalf("the template database holds %v %v: the lesson was built again", names, err)
	}
}

// smallLesson has data, an index, a global the later steps read, and a
// time-series collection from step 3 on, whose states the cache cannot
// keep: sessions reach them by running the code.
func smallLesson(t *testing.T) *lessons.Lesson {
	t.Helper()
	src := "---\nid: small\ntitle: Small\n---\n" +
		"## One\n```js setup\nvar n = 500;\ndb.items.insertMany(Array.from({ length: n }, (_, i) => ({ _id: i, g: i % 7 })));\n" +
		"db.items.createIndex({ g: 1 });\n```\n```js run\ndb.items.countDocuments({ g: 3 })\n```\n" +
		"## Two\n```js run\ndb.items.updateMany({ g: 3 }, { $set: { seen: n } })\ndb.items.findOne({ g: 3 })\n```\n" +
		"## Three\n```js run\ndb.createCollection('w', { timeseries: { timeField: 't' } })\n" +
		"db.w.insertOne({ t: ISODate('2026-01-01'), v: 1 })\ndb.w.countDocuments()\n```\n" +
		"## Four\n```js run\ndb.w.countDocuments()\ndb.items.countDocuments({ seen: n })\n```\n"
	ls, errs := lessons.LoadFS(fstest.MapFS{"small.md": {Data: []byte(src)}}, "")
	if len(errs) > 0 || len(ls) != 1 {
		t.Fatal(ls, errs)
	}
	return ls[0]
}

// States whose data includes a time-series collection are not kept on
// disk; a later run reaches them by running the lesson's code from the
// last kept state, and shows what it showed the first time.
func TestSoloCacheSkipsTimeseriesStates(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	l := smallLesson(t)
	last := len(l.Steps) - 1
	first, tpls, _ := soloRun(t, dir, l, last)
	if _, err := tpls.Build(ctx, l); err != nil {
		t.Fatal(err)
	}
	if len(cacheFiles(t, dir, ".tpl")) != 1 || len(cacheFiles(t, dir, "-s2.snap")) != 1 {
		t.Fatalf("the cache holds %v", cacheFiles(t, dir, ""))
	}
	for _, f := range cacheFiles(t, dir, ".snap") {
		if strings.HasSuffix(f, "-s3.snap") || strings.HasSuffix(f, "-s4.snap") {
			t.Fatalf("a state with a time-series collection was written: %s", f)
		}
	}
	if again, _, _ := soloRun(t, dir, l, last); again != first {
		t.Fatalf("from the cache the last step shows\n%s\nwhere it showed\n%s", again, first)
	}
}

// A cache file that cannot be trusted (cut short, a byte flipped, another
// version, a symlink to elsewhere) is never used: the lesson runs as if
// nothing were cached, shows the same output, and the cache is written
// again. The file a symlink points to is left alone.
func TestSoloCacheRebuildsWhatItCannotTrust(t *testing.T) {
	ctx := context.Background()
	l := smallLesson(t)
	step := 1
	pristine := t.TempDir()
	want, tpls, _ := soloRun(t, pristine, l, step)
	if _, err := tpls.Build(ctx, l); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "learner-data")
	if err := os.WriteFile(outside, []byte("the learner's own file"), 0o600); err != nil {
		t.Fatal(err)
	}
	damage := map[string]func(data []byte) []byte{
		"truncated": func(data []byte) []byte { return data[:len(data)/2] },
		"flipped": func(data []byte) []byte {
			d := slices.Clone(data)
			d[len(d)-10] ^= 0x01
			return d
		},
		"foreign": func(data []byte) []byte {
			d := slices.Clone(data)
			d[len("schemalab template\n")]++ // the format version
			return d
		},
	}
	for _, kind := range []string{".tpl", ".snap"} {
		for name, hurt := range damage {
			t.Run(strings.TrimPrefix(kind, ".")+"/"+name, func(t *testing.T) {
				dir := t.TempDir()
				copyDir(t, pristine, dir)
				victim := cacheFiles(t, dir, kind)[0]
				if kind == ".snap" {
					victim = cacheFiles(t, dir, "-s"+"1.snap")[0] // the state step 2 starts from
				}
				data, err := os.ReadFile(victim)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(victim, hurt(data), 0o600); err != nil {
					t.Fatal(err)
				}
				got, tpls, be := soloRun(t, dir, l, step)
				if got != want {
					t.Fatalf("after a %s %s file the step shows\n%s\nnot\n%s", name, kind, got, want)
				}
				if _, err := tpls.Build(ctx, l); err != nil {
					t.Fatal(err)
				}
				// The next run finds a sound entry again.
				db := lessons.DatabaseName(be.Prefix()+"_tpl_", l.ID)
				cached, err := templatecache.New(dir, templatecache.DefaultLimit).Load(l, be.Client, db)
				if cached == nil || err != nil {
					t.Fatalf("the cache was not written again: %v", err)
				}
			})
		}
		t.Run(strings.TrimPrefix(kind, ".")+"/symlink", func(t *testing.T) {
			dir := t.TempDir()
			copyDir(t, pristine, dir)
			victim := cacheFiles(t, dir, kind)[0]
			if err := os.Remove(victim); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(outside, victim); err != nil {
				t.Fatal(err)
			}
			if got, _, _ := soloRun(t, dir, l, step); got != want {
				t.Fatalf("after a symlinked %s file the step shows\n%s", kind, got)
			}
			if data, err := os.ReadFile(outside); err != nil || string(data) != "the learner's own file" {
				t.Fatalf("the file the symlink pointed to changed: %q %v", data, err)
			}
		})
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
