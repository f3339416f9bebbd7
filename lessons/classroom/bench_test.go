package classroom

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/lessons/templatecache"
)

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// BenchmarkSeedBucketStudent measures starting one more student's bucket
// database from the shared template, just before the step that builds
// the buckets (144,000 readings in it): the time of the restore and the
// live heap it adds.
//
//	go test -run '^$' -bench SeedBucketStudent ./lessons/classroom
func BenchmarkSeedBucketStudent(b *testing.B) {
	ctx := context.Background()
	be := embedded(b)
	l := builtinLesson(b, "bucket")
	tpl := NewTemplates(be.Client, be.Connector(), nil)
	before := liveHeap()
	if _, err := tpl.Build(ctx, l); err != nil {
		b.Fatal(err)
	}
	built := liveHeap()
	b.ResetTimer()
	for i := range b.N {
		if ok, err := tpl.seed(ctx, l, fmt.Sprintf("s%d_bucket", i), 1); err != nil || !ok {
			b.Fatalf("seed: ok=%v err=%v", ok, err)
		}
	}
	b.StopTimer()
	if n := count(b, be.Client, fmt.Sprintf("s%d_bucket", b.N-1), "readings"); n != 144000 {
		b.Fatalf("a seeded student has %d readings", n)
	}
	perStudent := (float64(liveHeap()) - float64(built)) / float64(b.N)
	b.ReportMetric(float64(built-before)/(1<<20), "MB-template")
	b.ReportMetric(perStudent/(1<<10), "KB-heap/student")
}

// BenchmarkSoloFirstStep is a learner opening a lesson in a new process
// (a new embedded server and session) and running its first step, or its
// step 8 (tree): "cached" with the lesson's states on disk from an
// earlier run, "empty" with nothing cached, the first run ever.
//
//	go test -run '^$' -bench SoloFirstStep -count 5 ./lessons/classroom
func BenchmarkSoloFirstStep(b *testing.B) {
	ctx := context.Background()
	for _, c := range []struct {
		lesson string
		step   int
	}{{"bucket", 0}, {"tree", 7}} {
		l := builtinLesson(b, c.lesson)
		b.Run(fmt.Sprintf("%s-%d/cached", c.lesson, c.step+1), func(b *testing.B) {
			dir := b.TempDir()
			_, tpls, _, closeBuilder := soloOpen(b, dir, l, c.step, 0)
			if _, err := tpls.Build(ctx, l); err != nil {
				b.Fatal(err)
			}
			// A learner's new process holds nothing of the run that
			// filled the cache: the builder's states and its garbage go
			// before the clock starts.
			closeBuilder()
			runtime.GC()
			for b.Loop() {
				_, _, _, closeAll := soloOpen(b, dir, l, c.step, soloBuildDelay)
				b.StopTimer()
				closeAll()
				runtime.GC() // the next open is a new process
				b.StartTimer()
			}
		})
		b.Run(fmt.Sprintf("%s-%d/empty", c.lesson, c.step+1), func(b *testing.B) {
			for b.Loop() {
				_, _, _, closeAll := soloOpen(b, b.TempDir(), l, c.step, soloBuildDelay)
				b.StopTimer()
				closeAll()
				runtime.GC() // the next open is a new process
				b.StartTimer()
			}
		})
	}
}

// BenchmarkSoloStartOver is "start over" on a lesson whose states are
// cached, then its first run: reset-ms is the start over (OpReset),
// run-ms the first run of the bucket lesson's first step after it (three
// counts over the 144,000 readings), whose state comes from the template
// (read from disk once per process, then restored in O(1)).
//
//	go test -run '^$' -bench SoloStartOver -count 5 ./lessons/classroom
func BenchmarkSoloStartOver(b *testing.B) {
	ctx := context.Background()
	l := builtinLesson(b, "bucket")
	dir := b.TempDir()
	_, tpls, be := soloRun(b, dir, l, 0)
	if _, err := tpls.Build(ctx, l); err != nil {
		b.Fatal(err)
	}
	r := lessons.NewSession(&lessons.Sandbox{Connect: be.Connector(), Prefix: be.Prefix(), ResetDB: be.ResetDB,
		Seeds: NewSolo(be.Client, be.Connector(), be.Prefix(), templatecache.New(dir, templatecache.DefaultLimit)).Seeds},
		l, lessons.SessionOptions{})
	defer r.Close()
	var reset, run time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := r.Do(ctx, lessons.Request{Op: lessons.OpReset}); err != nil {
			b.Fatal(err)
		}
		reset += time.Since(start)
		start = time.Now()
		if res, err := r.Do(ctx, lessons.Request{Op: lessons.OpRun, Step: 0}); err != nil || !res.OK() {
			b.Fatal(err, res.Failures)
		}
		run += time.Since(start)
	}
	b.ReportMetric(float64(reset.Microseconds())/1000/float64(b.N), "reset-ms")
	b.ReportMetric(float64(run.Microseconds())/1000/float64(b.N), "run-ms")
}
