package lessons

import (
	"context"
	"testing"
	"time"
)

// BenchmarkPatternSetups runs the bucket, computed and tree lessons from a
// fresh database and reports their slowest setup block (the budget is
// 1.5 s each on the embedded sandbox: 144,000 readings, 200,000
// enrollments, the 50,053-node subtree in four models) and the slowest
// run block, which is what a learner waits for after pressing enter:
//
//	go test ./lessons -run '^$' -bench PatternSetups -benchtime 5x
func BenchmarkPatternSetups(b *testing.B) {
	ctx := context.Background()
	be := startSandbox(b)
	for _, id := range []string{"bucket", "computed", "tree"} {
		l := builtin(b, id)
		b.Run(id, func(b *testing.B) {
			var setup, run time.Duration
			for b.Loop() {
				r := NewSession(sandboxOf(be, "bench_"), l, SessionOptions{})
				for i := range l.Steps {
					res, err := r.Do(ctx, Request{Op: OpRun, Step: i})
					if err != nil {
						b.Fatal(err)
					}
					for _, blk := range res.Blocks {
						if blk.Block == nil {
							continue
						}
						switch blk.Block.Kind {
						case Setup:
							setup = max(setup, blk.Elapsed)
						case Run:
							run = max(run, blk.Elapsed)
						}
					}
				}
				r.Close()
			}
			b.ReportMetric(float64(setup.Microseconds())/1000, "slowest-setup-ms")
			b.ReportMetric(float64(run.Microseconds())/1000, "slowest-run-ms")
		})
	}
}
