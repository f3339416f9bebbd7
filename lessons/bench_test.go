package lessons

import (
	"context"
	"testing"
	"time"

	"github.com/schemalab/schemalab/content"
)

// The figures of issue 12, through the real embedded server and driver:
//
//	go test ./lessons -run '^$' -bench . -benchtime 20x

// BenchmarkJumpAfterVisit is a jump to a step of a lesson whose steps
// have all been visited once: every jump goes to a step far from the last
// (the budget is 150 ms).
func BenchmarkJumpAfterVisit(b *testing.B) {
	ctx := context.Background()
	be := startSandbox(b)
	for _, l := range loadBuiltin(b) {
		b.Run(l.ID, func(b *testing.B) {
			r := newTestRunner(b, be, l, "bench_")
			for i := range l.Steps {
				if _, err := r.Do(ctx, Request{Op: OpRun, Step: i}); err != nil {
					b.Fatal(err)
				}
			}
			n, k := len(l.Steps), 0
			for b.Loop() {
				k = (k + n/2 + 1) % n
				if _, err := r.Do(ctx, Request{Op: OpJump, Step: k}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkJumpFresh is opening the outlier lesson at its last step and
// running it, on a fresh session (the budget is 1.5 s).
func BenchmarkJumpFresh(b *testing.B) {
	ctx := context.Background()
	be := startSandbox(b)
	l := builtin(b, "outlier")
	for b.Loop() {
		r := NewSession(sandboxOf(be, "fresh_"), l, SessionOptions{})
		res, err := r.Do(ctx, Request{Op: OpRun, Step: len(l.Steps) - 1})
		if err != nil {
			b.Fatal(err)
		}
		if !codeOK(res.Failures) {
			b.Fatal(res.Failures)
		}
		b.StopTimer()
		r.Close()
		b.StartTimer()
	}
}

// BenchmarkExerciseAttempt is one attempt at each built-in exercise with
// its reference solution, the goal already known (the budget is 300 ms);
// first-ms reports the first attempt, which also runs the goal.
func BenchmarkExerciseAttempt(b *testing.B) {
	ctx := context.Background()
	be := startSandbox(b)
	for _, l := range loadBuiltin(b) {
		for i, st := range l.Steps {
			if st.Exercise == nil {
				continue
			}
			b.Run(l.ID+"/"+st.ID, func(b *testing.B) {
				r := newTestRunner(b, be, l, "bench_")
				if _, err := r.Do(ctx, Request{Op: OpJump, Step: i}); err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				if res, err := r.Do(ctx, Request{Op: OpAttempt, Step: i, Code: st.Exercise.Solution}); err != nil || !res.Passed {
					b.Fatal(err, res)
				}
				first := time.Since(start)
				for b.Loop() {
					res, err := r.Do(ctx, Request{Op: OpAttempt, Step: i, Code: st.Exercise.Solution})
					if err != nil || !res.Passed {
						b.Fatal(err, res)
					}
				}
				b.ReportMetric(float64(first.Microseconds())/1000, "first-ms")
			})
		}
	}
}

// BenchmarkRerunStep is running a step again; overhead-ms is what the
// re-run costs beyond the step's own run: bringing the session back to
// the state before the step (the budget is 20 ms).
func BenchmarkRerunStep(b *testing.B) {
	ctx := context.Background()
	be := startSandbox(b)
	for _, l := range loadBuiltin(b) {
		b.Run(l.ID, func(b *testing.B) {
			r := newTestRunner(b, be, l, "bench_")
			for i := range l.Steps {
				if _, err := r.Do(ctx, Request{Op: OpRun, Step: i}); err != nil {
					b.Fatal(err)
				}
			}
			var overhead, worst time.Duration
			k := 0
			for b.Loop() {
				i := k % len(l.Steps)
				k++
				start := time.Now()
				if _, err := r.Do(ctx, Request{Op: OpJump, Step: i}); err != nil {
					b.Fatal(err)
				}
				o := time.Since(start)
				if _, err := r.Do(ctx, Request{Op: OpRun, Step: i}); err != nil {
					b.Fatal(err)
				}
				overhead += o
				worst = max(worst, o)
			}
			b.ReportMetric(float64(overhead.Microseconds())/1000/float64(max(k, 1)), "overhead-ms")
			b.ReportMetric(float64(worst.Microseconds())/1000, "worst-overhead-ms")
		})
	}
}

// BenchmarkCheckAll is `schemalab run --check` over every built-in lesson,
// authoring guard included (the budget is 8 s on 2 cores).
func BenchmarkCheckAll(b *testing.B) {
	ctx := context.Background()
	be := startSandbox(b)
	ls := loadBuiltin(b)
	for b.Loop() {
		for _, l := range ls {
			r := NewSession(sandboxOf(be, "bench_"), l, SessionOptions{})
			for i := range l.Steps {
				res, err := r.Do(ctx, Request{Op: OpCheck, Step: i})
				if err != nil || !res.OK() {
					b.Fatal(l.ID, i+1, err, res.Failures)
				}
			}
			r.Close()
		}
	}
}

func loadBuiltin(b *testing.B) []*Lesson {
	cat, errs := Load(content.FS)
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	return cat.Lessons
}

// BenchmarkBucketFirstStepCold is the bucket lesson's first step on a new
// embedded server and session, nothing cached: what a learner waits for
// when they open the lesson in a fresh process.
func BenchmarkBucketFirstStepCold(b *testing.B) {
	ctx := context.Background()
	l := builtin(b, "bucket")
	for b.Loop() {
		be := startSandbox(b)
		r := NewSession(sandboxOf(be, "cold_"), l, SessionOptions{})
		res, err := r.Do(ctx, Request{Op: OpRun, Step: 0})
		if err != nil || !codeOK(res.Failures) {
			b.Fatal(err, res.Failures)
		}
		b.StopTimer()
		r.Close()
		b.StartTimer()
	}
}
