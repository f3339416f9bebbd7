package lessons

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons/locale"
	"github.com/schemalab/schemalab/sandbox/sandboxtest"
)

// TestBuiltinLessonsCheck is `schemalab run --check` over every built-in
// lesson on the embedded sandbox, in every language: every block runs,
// every expectation holds and every reference solution passes its check.
func TestBuiltinLessonsCheck(t *testing.T) {
	all, errs := Load(content.FS)
	for _, err := range errs {
		t.Errorf("load: %v", err)
	}
	if len(all.Lessons) < 5 && os.Getenv("SCHEMALAB_LESSON") == "" {
		t.Fatalf("want at least 5 built-in lessons, got %d", len(all.Lessons))
	}
	ctx := context.Background()
	be := startSandbox(t)
	only := os.Getenv("SCHEMALAB_LESSON") // focus one lesson while authoring
	for _, lang := range locale.Languages() {
		cat := all.In(lang)
		for _, l := range cat.Lessons {
			if only != "" && l.ID != only || lang != locale.Source && cat.Untranslated(l) {
				continue
			}
			t.Run(lang+"/"+l.ID, func(t *testing.T) { checkBuiltin(ctx, t, be, l) })
		}
	}
}

func checkBuiltin(ctx context.Context, t *testing.T, be *sandboxtest.Server, l *Lesson) {
	for _, p := range CheckText(l) {
		t.Errorf("%s:%d: %s", l.File, p.Line, p.Msg)
	}
	// The lesson's data goes when it is checked (after the runner
	// closes): the heap guard's collections take longer the more the
	// process holds.
	t.Cleanup(func() { _ = be.Client(t).Database(DatabaseName("", l.ID)).Drop(context.WithoutCancel(ctx)) })
	r := newTestRunner(t, be, l, "")
	start := time.Now()
	for i := range l.Steps {
		res, err := r.Do(ctx, Request{Op: OpCheck, Step: i})
		if err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		for _, b := range res.Blocks {
			// The 1.5 s budget is a figure to report, not a pass/fail
			// line: timings on a shared CI machine are noise. Set
			// SCHEMALAB_STRICT_TIMING=1 to enforce it.
			if b.Block != nil && b.Block.Kind == Setup && b.Elapsed > 1500*time.Millisecond {
				msg := fmt.Sprintf("step %d %q: setup took %s, budget 1.5 s", i+1, l.Steps[i].Title, b.Elapsed.Round(time.Millisecond))
				if os.Getenv("SCHEMALAB_STRICT_TIMING") != "" {
					t.Error(msg)
				} else {
					t.Log(msg)
				}
			}
		}
		for _, f := range res.Failures {
			t.Errorf("step %d %q (%s:%d): %s", i+1, l.Steps[i].Title, l.File, f.Line, f.Msg)
		}
		if testing.Verbose() {
			t.Logf("step %d %-50q %s", i+1, l.Steps[i].Title, res.Elapsed.Round(time.Millisecond))
		}
	}
	t.Logf("%s checked in %s", l.ID, time.Since(start).Round(time.Millisecond))
}

// TestReviewsFramingReproducesSeed001 pins the seed's transcripts: the
// outlier lesson's reviews steps must print what the seed shows. The seed's
// migration of book 102 to the outlier shape ("isOutlier: true") is gone:
// its $slice: -5 preview lost reviews, and issue 23 replaced it with the
// subset pattern and a migration to schema version 2.
func TestReviewsFramingReproducesSeed001(t *testing.T) {
	cat, _ := Load(content.FS)
	l := cat.Find("outlier")
	if l == nil {
		t.Fatal("no outlier lesson")
	}
	src, err := content.FS.ReadFile(strings.TrimPrefix(l.File, "builtin:"))
	if err != nil {
		t.Fatal(err)
	}
	for _, frag := range []string{
		"{ _id: 101, judul: 'Bumi', jumlahUlasan: 2 },",
		"{ _id: 102, judul: 'Laut Bercerita', jumlahUlasan: 3 },",
		"jumlahUlasan: 250000,",
		"ulasan: [ { pembaca: 'Budi', bintang: 4 }, { pembaca: 'Siti', bintang: 5 } ]",
		"{ pembaca: 'Dewi', bintang: 4, teks: 'Butuh pembacaan ulang.' },",
		"{ pembaca: 'Siti', bintang: 5, teks: 'Sangat praktis.' }",
	} {
		if !strings.Contains(string(src), frag) {
			t.Errorf("the outlier lesson no longer expects the seed 001 output %q", frag)
		}
	}
}
