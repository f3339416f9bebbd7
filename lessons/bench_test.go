package lessons_test

import (
	"context"
	"testing"

	"github.com/schemalab/schemalab/content"
	"github.com/schemalab/schemalab/lessons"
	"github.com/schemalab/schemalab/sandbox"
)

// BenchmarkLessonSetup measures each built-in lesson's first step — the
// reset and its data-generating setup — on the embedded sandbox (the 1.5 s
// budget of issue 5). Run with -benchtime=3x; one iteration is seconds.
func BenchmarkLessonSetup(b *testing.B) {
	cat, errs := lessons.Load(content.FS)
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	ctx := context.Background()
	be, err := sandbox.StartEmbedded(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer be.Close()
	for _, l := range cat.Lessons {
		b.Run(l.ID, func(b *testing.B) {
			r := lessons.NewRunner(be.Client, l, lessons.RunnerOptions{Prefix: "bench_"})
			for b.Loop() {
				if err := r.Reset(ctx); err != nil {
					b.Fatal(err)
				}
				res, err := r.RunStep(ctx, 0)
				if err != nil {
					b.Fatal(err)
				}
				for _, f := range res.Failures {
					if !f.Expect {
						b.Fatal(f)
					}
				}
			}
		})
	}
}

// BenchmarkCheckAll is `schemalab run --check` over every built-in lesson.
func BenchmarkCheckAll(b *testing.B) {
	cat, _ := lessons.Load(content.FS)
	ctx := context.Background()
	be, err := sandbox.StartEmbedded(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer be.Close()
	for b.Loop() {
		for _, l := range cat.Lessons {
			r := lessons.NewRunner(be.Client, l, lessons.RunnerOptions{Prefix: "bench_"})
			if err := r.Reset(ctx); err != nil {
				b.Fatal(err)
			}
			for i := range l.Steps {
				res, err := r.CheckStep(ctx, i)
				if err != nil {
					b.Fatal(err)
				}
				if !res.OK() {
					b.Fatal(l.ID, i+1, res.Failures)
				}
			}
		}
	}
}
