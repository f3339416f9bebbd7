package advise

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// BenchmarkAdvise100k is the figure: the whole report on one
// collection of 100,000 documents (the default --sample, so analysed
// whole), each a sensor reading with a date, numbers and a small array.
func BenchmarkAdvise100k(b *testing.B) {
	be := openEmbedded(b)
	docs := make([]any, 0, 100_000)
	for m := range 5000 {
		for s := range 20 {
			docs = append(docs, bson.D{{Key: "sensor", Value: fmt.Sprintf("s%02d", s)},
				{Key: "ts", Value: start().Add(time.Duration(m) * time.Minute)},
				{Key: "v", Value: float64((m*7 + s) % 100)}, {Key: "tags", Value: ints(0, 1+(m+s)%5)}})
		}
	}
	insert(b, be.Client.Database("bench").Collection("readings"), docs)
	for b.Loop() {
		rep, err := Run(context.Background(), FromBackend(be), Options{Database: "bench"})
		if err != nil || len(rep.Findings) != 1 || rep.Findings[0].Pattern != PatternBucket {
			b.Fatalf("%v, %+v", err, rep)
		}
	}
}

// BenchmarkAdvise2M is the second figure: a 2,000,000-document
// collection, analysed on the default $sample, and the heap the embedded
// server (in this process) holds once advise is done, against before.
func BenchmarkAdvise2M(b *testing.B) {
	be := openEmbedded(b)
	coll := be.Client.Database("bench").Collection("readings")
	docs := make([]any, 0, 100_000)
	for m := range 50_000 {
		for s := range 40 {
			docs = append(docs, bson.D{{Key: "sensor", Value: fmt.Sprintf("s%02d", s)},
				{Key: "ts", Value: start().Add(time.Duration(m) * time.Minute)}, {Key: "v", Value: float64((m*7 + s) % 100)}})
			if len(docs) == cap(docs) {
				insert(b, coll, docs)
				docs = docs[:0]
			}
		}
	}
	before := heapInUse()
	b.ResetTimer()
	for b.Loop() {
		rep, err := Run(context.Background(), FromBackend(be), Options{Database: "bench"})
		if err != nil || len(rep.Sampled) != 1 || len(rep.Findings) != 1 || rep.Findings[0].Pattern != PatternBucket {
			b.Fatalf("%v, %+v", err, rep)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(heapInUse()-before)/(1<<20), "MiB-heap-growth")
}

// heapInUse is the live heap after a collection.
func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapInuse)
}
