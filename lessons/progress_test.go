package lessons

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons/locale"
)

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestStoreRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	reading := &Lesson{ID: "outlier", Steps: []Step{{ID: "reading", Blocks: []Block{{Kind: Run, Text: "1"}}}}}
	if err := s.ShowStep(reading, 0); err != nil {
		t.Fatal(err)
	}
	if s.Lesson("outlier").IsDone("reading") {
		t.Error("a step with code is done when it was shown")
	}
	if err := s.MarkDone("outlier", "intro"); err != nil {
		t.Fatal(err)
	}
	if e, err := s.RecordAttempt("outlier", "ex-1", false); err != nil || e.Attempts != 1 || e.Status != ExerciseFailed {
		t.Fatalf("first attempt: %+v %v", e, err)
	}
	if e, _ := s.RecordAttempt("outlier", "ex-1", true); e.Attempts != 2 || e.Status != ExercisePassed {
		t.Fatalf("second attempt: %+v", e)
	}
	if e, _ := s.RecordAttempt("outlier", "ex-1", false); e.Status != ExercisePassed || e.Attempts != 3 {
		t.Fatalf("a passed exercise stays passed, attempts still count: %+v", e)
	}

	again, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := again.Lesson("outlier")
	if p.Current != "reading" || !p.IsDone("intro") || !p.IsDone("ex-1") || p.Exercise("ex-1").Attempts != 3 {
		t.Errorf("reloaded progress = %+v", p)
	}
	if again.Warning(locale.English()) != "" {
		t.Errorf("warning = %q", again.Warning(locale.English()))
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "progress.json" {
		t.Errorf("the state dir should hold only progress.json (no temp files left), got %v", entries)
	}

	if err := again.ResetLesson("outlier"); err != nil {
		t.Fatal(err)
	}
	if p := again.Lesson("outlier"); p.Current != "" || len(p.Done) != 0 {
		t.Errorf("after reset: %+v", p)
	}
}

func TestStoreCorruptFileIsMovedAside(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "progress.json"), []byte(`{"version":1,"lessons":{"outlier":`))
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatalf("a corrupt file must not be fatal: %v", err)
	}
	if !strings.Contains(s.Warning(locale.English()), "moved to") {
		t.Errorf("warning = %q", s.Warning(locale.English()))
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "progress.json.corrupt-*"))
	if len(matches) != 1 {
		t.Fatalf("corrupt file not kept aside: %v", matches)
	}
	if got, _ := os.ReadFile(matches[0]); string(got) != `{"version":1,"lessons":{"outlier":` {
		t.Errorf("aside file content = %q", got)
	}
	if p := s.Lesson("outlier"); p.Current != "" {
		t.Errorf("progress should start fresh: %+v", p)
	}
	if err := s.MarkDone("outlier", "a"); err != nil {
		t.Fatal(err)
	}
	if again, _ := OpenStore(dir); !again.Lesson("outlier").IsDone("a") || again.Warning(locale.English()) != "" {
		t.Error("a fresh, valid file should be written after the corrupt one")
	}
}

func TestStoreAtomicWriteKeepsOldFileOnFailure(t *testing.T) {
	dir := t.TempDir()
	s, _ := OpenStore(dir)
	if err := s.MarkDone("tree", "one"); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, "progress.json"))
	// A read-only directory makes creating the temp file fail: the old
	// file must stay intact and the error must be reported.
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	if err := s.MarkDone("tree", "two"); err == nil {
		t.Fatal("saving into a read-only directory should fail")
	}
	after, _ := os.ReadFile(filepath.Join(dir, "progress.json"))
	if string(before) != string(after) {
		t.Error("a failed save changed the progress file")
	}
}

func TestSolutionRevealRules(t *testing.T) {
	l, err := Parse("demo.md", []byte(goodLesson))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := OpenStore(t.TempDir())
	if _, err := s.Solution(l, 0, false); err == nil {
		t.Error("step 1 is not an exercise")
	}
	if _, err := s.Solution(l, 2, false); !errors.Is(err, ErrSolutionLocked) {
		t.Errorf("before any attempt: %v, want ErrSolutionLocked", err)
	}
	if _, err := s.RecordAttempt("demo", l.Steps[2].ID, false); err != nil {
		t.Fatal(err)
	}
	if sol, err := s.Solution(l, 2, false); err != nil || sol != "db.c.insertOne({ a: 2 })" {
		t.Errorf("after a failed attempt: %q %v", sol, err)
	}
	s2, _ := OpenStore(t.TempDir())
	if sol, err := s2.Solution(l, 2, true); err != nil || sol == "" {
		t.Errorf("explicit request: %q %v", sol, err)
	}
	if !s2.Lesson("demo").Exercise(l.Steps[2].ID).Revealed {
		t.Error("an explicit reveal should be recorded")
	}
	sum := Summarize(l, s.Lesson("demo"))
	if sum.Steps != 3 || sum.Exercises != 1 || sum.ExercisesDone != 0 {
		t.Errorf("summary = %+v", sum)
	}
}

func TestDefaultStateDirHonoursEnv(t *testing.T) {
	env := map[string]string{StateDirEnv: "/tmp/x"}
	if got := DefaultStateDir(func(k string) string { return env[k] }); got != "/tmp/x" {
		t.Errorf("DefaultStateDir = %q", got)
	}
	if got := DefaultStateDir(func(string) string { return "" }); !strings.HasSuffix(got, "schemalab") {
		t.Errorf("DefaultStateDir = %q", got)
	}
}

// JSON that parses but is not shaped like progress is treated like a
// corrupt file (issue 11): moved aside with a warning, never a panic.
func TestStoreWrongShapeIsMovedAside(t *testing.T) {
	for _, bad := range []string{
		`{"version":1,"lessons":{"outlier":{"exercises":{"x":null}}}}`,
		`{"version":1,"lessons":{"outlier":null}}`,
		`{"version":1,"lessons":{"outlier":{"exercises":{"x":{"attempts":-1}}}}}`,
		`{"version":1,"lessons":{"outlier":{"exercises":{"x":{"status":"maybe"}}}}}`,
		`{"version":2,"lessons":{}}`,
		`[]`,
	} {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "progress.json"), []byte(bad))
		s, err := OpenStore(dir)
		if err != nil {
			t.Fatalf("%s: %v", bad, err)
		}
		if !strings.Contains(s.Warning(locale.English()), "moved to") {
			t.Errorf("%s: warning = %q", bad, s.Warning(locale.English()))
		}
		cat := &Lesson{ID: "outlier", Steps: []Step{{ID: "x", Exercise: &Exercise{}}}}
		if sum := Summarize(cat, s.Lesson("outlier")); sum.ExercisesDone != 0 {
			t.Errorf("%s: %+v", bad, sum)
		}
		if matches, _ := filepath.Glob(filepath.Join(dir, "progress.json.corrupt-*")); len(matches) != 1 {
			t.Errorf("%s: not moved aside: %v", bad, matches)
		}
	}
}

// A write killed between creating its temporary file and renaming it
// leaves the file behind; the next start removes it, and leaves alone a
// fresh one that another process may be writing right now.
func TestStoreRemovesTempFilesOfKilledWrites(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "progress.json.tmp-123")
	fresh := filepath.Join(dir, "progress.json.tmp-456")
	writeFile(t, stale, []byte(`{"version":1`))
	writeFile(t, fresh, []byte(`{"version":1`))
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenStore(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stale temporary file is still there: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a fresh temporary file was removed: %v", err)
	}
}

// Drafts, revealed hints and the revealed solution survive a restart.
func TestStoreKeepsDraftsAndHints(t *testing.T) {
	dir := t.TempDir()
	s, _ := OpenStore(dir)
	if err := s.SaveDraft("outlier", "ex", "db.buku.find()"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetHints("outlier", "ex", 2); err != nil {
		t.Fatal(err)
	}
	l := &Lesson{ID: "outlier", Steps: []Step{{ID: "ex", Exercise: &Exercise{Solution: "sol"}}}}
	if _, err := s.Solution(l, 0, true); err != nil {
		t.Fatal(err)
	}
	again, _ := OpenStore(dir)
	e := again.Lesson("outlier").Exercise("ex")
	if e.Draft == nil || *e.Draft != "db.buku.find()" || e.Hints != 2 || !e.Revealed {
		t.Errorf("after a restart: %+v", e)
	}
	if err := again.ForgetDraft("outlier", "ex"); err != nil {
		t.Fatal(err)
	}
	if e := again.Lesson("outlier").Exercise("ex"); e.Draft != nil || e.Hints != 2 {
		t.Errorf("after starting over: %+v", e)
	}
}

// A progress file from before the outlier lesson was split in two: the
// concurrency step and its exercise moved to outlier-concurrency, the
// reviews step changed heading. Opening it carries every record to where
// the step is now, and nothing else changes.
func TestOldProgressFollowsTheStepsThatMoved(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "progress.json"), []byte(`{"version": 1, "lessons": {
  "outlier": {
    "current": "exercise-comments-with-hasoverflow-ten-at-a-time",
    "done": ["two-walls-16-mib-and-1-29-mb-for-twenty-names", "writing-under-concurrency-a-real-race",
             "reviews-two-write-paths-a-migration-and-schema-versioning"],
    "exercises": {
      "exercise-comments-with-hasoverflow-ten-at-a-time": {"status": "failed", "attempts": 2, "draft": "async function addComment() {}", "hints": 1},
      "exercise-migrate-bumi-safely-through-a-concurrent-review-and-a-rerun": {"status": "passed", "attempts": 1}
    },
    "updated": "2026-01-02T03:04:05Z"
  },
  "bucket": {"done": ["building-the-buckets"]}
}}`))
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	outlier, moved := s.Lesson("outlier"), s.Lesson("outlier-concurrency")
	if got := strings.Join(outlier.Done, ","); got != "two-walls-16-mib-and-1-29-mb-for-twenty-names,reviews-the-subset-pattern-a-migration-and-schema-versioning" {
		t.Errorf("outlier done = %s", got)
	}
	if outlier.Current != "" || len(outlier.Exercises) != 1 || outlier.Exercise("exercise-migrate-bumi-safely-through-a-concurrent-review-and-a-rerun").Status != ExercisePassed {
		t.Errorf("outlier kept what moved, or lost what stayed: %+v", outlier)
	}
	for _, step := range []string{"writing-under-concurrency-a-real-race", "a-unique-index-and-the-upsert-the-server-retries",
		"a-cap-in-every-filter-the-guarded-writer", "what-one-writer-cannot-promise-crashes-retries-and-transactions"} {
		if !moved.IsDone(step) {
			t.Errorf("outlier-concurrency: %s is not done", step)
		}
	}
	ex := moved.Exercise("exercise-comments-with-hasoverflow-ten-at-a-time")
	if moved.Current != "exercise-comments-with-hasoverflow-ten-at-a-time" || ex.Attempts != 2 || ex.Status != ExerciseFailed ||
		ex.Draft == nil || *ex.Draft != "async function addComment() {}" || ex.Hints != 1 {
		t.Errorf("outlier-concurrency = %+v, exercise %+v", moved, ex)
	}
	if !moved.Updated.Equal(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)) {
		t.Errorf("the new lesson's record should keep the old one's time, got %v", moved.Updated)
	}
	if b := s.Lesson("bucket"); !b.IsDone("building-the-buckets") || len(b.Done) != 1 {
		t.Errorf("bucket changed: %+v", b)
	}
	// Written with the next change, read back the same, and moved once only.
	if err := s.MarkDone("bucket", "appending"); err != nil {
		t.Fatal(err)
	}
	again, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if p := again.Lesson("outlier-concurrency"); len(p.Done) != 4 || p.Exercise("exercise-comments-with-hasoverflow-ten-at-a-time").Attempts != 2 {
		t.Errorf("after a save and a reopen: %+v", p)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "progress.json"))
	if strings.Contains(string(raw), "reviews-two-write-paths") || strings.Count(string(raw), "writing-under-concurrency-a-real-race") != 1 {
		t.Errorf("the saved file still names the old steps:\n%s", raw)
	}
}

// Every move leads to steps the built-in lessons have, from a step they no
// longer have: a heading renamed later would otherwise lose the records
// without a word.
func TestStepMovesLeadToStepsThatExist(t *testing.T) {
	cat, errs := Load(content.FS)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, m := range stepMoves() {
		if from := cat.Find(m.fromLesson); from == nil || from.StepIndex(m.fromStep) >= 0 {
			t.Errorf("%s/%s: the lesson is gone, or still has the step", m.fromLesson, m.fromStep)
		}
		to := cat.Find(m.toLesson)
		if to == nil {
			t.Errorf("no lesson %s", m.toLesson)
			continue
		}
		for _, s := range m.to {
			if to.StepIndex(s) < 0 {
				t.Errorf("%s has no step %s", m.toLesson, s)
			}
		}
	}
}

// A step with nothing to run or answer is done once shown, so that a
// lesson whose every step was read and every exercise passed counts all
// its steps done; a step with code, and an exercise, are not done by
// being shown. The file an older schemalab wrote (without the read
// steps) still reads, and showing the steps again completes it.
func TestShownReadingStepsFinishALesson(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "progress.json"), []byte(`{"version":1,"lessons":{"l":{"current":"run","done":["run","ex"],"exercises":{"ex":{"status":"passed","attempts":2}}}}}`))
	s, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	l := &Lesson{ID: "l", Steps: []Step{
		{ID: "read", Blocks: []Block{{Kind: Prose, Text: "words"}}},
		{ID: "run", Blocks: []Block{{Kind: Run, Text: "1"}}},
		{ID: "ex", Exercise: &Exercise{Check: "true"}},
		{ID: "closing", Blocks: []Block{{Kind: Prose, Text: "| a | b |"}}},
	}}
	if sum := Summarize(l, s.Lesson("l")); sum.StepsDone != 2 || sum.ExercisesDone != 1 {
		t.Fatalf("the older file: %+v", sum)
	}
	for i := range l.Steps {
		if err := s.ShowStep(l, i); err != nil {
			t.Fatal(err)
		}
	}
	again, err := OpenStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	if sum := Summarize(l, again.Lesson("l")); sum.StepsDone != 4 || sum.Steps != 4 || sum.ExercisesDone != 1 || sum.Exercises != 1 {
		t.Errorf("every step shown, the exercise passed: %+v", sum)
	}
	fresh := &Lesson{ID: "m", Steps: l.Steps}
	for i := range fresh.Steps {
		_ = s.ShowStep(fresh, i)
	}
	if p := s.Lesson("m"); p.IsDone("run") || p.IsDone("ex") || !p.IsDone("read") || !p.IsDone("closing") || p.Current != "closing" {
		t.Errorf("shown only: %+v", p)
	}
}
