package ferretbench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/engine"
	"github.com/schemalab/schemalab/sandbox/wire"
)

const docCount = 200_000

// enrollments are the documents of the engine's own insertMany figure
// (sandbox/engine/bench_test.go).
func enrollments(n int) []any {
	docs := make([]any, n)
	for i := range n {
		docs[i] = bson.D{{Key: "courseId", Value: int32(i % 200)}, {Key: "grade", Value: int32(50 + (i*7919)%51)}, {Key: "student", Value: fmt.Sprintf("s%06d", i)}}
	}
	return docs
}

// side is one server under measurement and the time spent on it.
type side struct {
	name   string
	client *mongo.Client
	spent  time.Duration
}

// sides starts our server and FerretDB (SQLite in a temporary
// directory) and connects a client to each.
func sides(b *testing.B) [2]*side {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	srv, err := wire.Start(ctx, wire.Options{Engine: engine.New(engine.Options{})})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = srv.Close() })
	f, err := ferretdb.New(&ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: "127.0.0.1:0"},
		Handler:   "sqlite",
		SQLiteURL: "file:" + b.TempDir() + "/",
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = f.Run(ctx)
	}()
	b.Cleanup(func() { cancel(); <-done })
	return [2]*side{
		{name: "ours", client: connect(b, srv.URI())},
		{name: "peer", client: connect(b, f.MongoDBURI())},
	}
}

func connect(b *testing.B, uri string) *mongo.Client {
	b.Helper()
	client, err := mongo.Connect(options.Client().ApplyURI(uri))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	return client
}

// seeded is sides with the enrollments inserted on both and an index on
// student.
func seeded(b *testing.B) [2]*side {
	b.Helper()
	ss := sides(b)
	docs := enrollments(docCount)
	for _, s := range ss {
		coll := s.client.Database("bench").Collection("e")
		if _, err := coll.InsertMany(context.Background(), docs); err != nil {
			b.Fatalf("%s: insertMany: %v", s.name, err)
		}
		if _, err := coll.Indexes().CreateOne(context.Background(), mongo.IndexModel{Keys: bson.D{{Key: "student", Value: 1}}}); err != nil {
			b.Fatalf("%s: createIndex: %v", s.name, err)
		}
	}
	return ss
}

// measure runs op on each side b.N times, timing only op, and reports
// each side's time per operation and the ratio peer/ours.
func measure(b *testing.B, ss [2]*side, op func(b *testing.B, s *side, i int)) {
	b.Helper()
	b.ResetTimer()
	for i := range b.N {
		for _, s := range ss {
			start := time.Now()
			op(b, s, i)
			s.spent += time.Since(start)
		}
	}
	b.StopTimer()
	ours, peer := ss[0].spent, ss[1].spent
	b.ReportMetric(float64(ours)/1e6/float64(b.N), "ours-ms/op")
	b.ReportMetric(float64(peer)/1e6/float64(b.N), "peer-ms/op")
	b.ReportMetric(float64(peer)/float64(ours), "peer/ours")
}

func BenchmarkInsertMany200k(b *testing.B) {
	ss := sides(b)
	docs := enrollments(docCount)
	measure(b, ss, func(b *testing.B, s *side, _ int) {
		coll := s.client.Database("bench").Collection("fresh")
		if _, err := coll.InsertMany(context.Background(), docs); err != nil {
			b.Fatalf("%s: %v", s.name, err)
		}
		start := time.Now()
		if err := coll.Drop(context.Background()); err != nil {
			b.Fatalf("%s: drop: %v", s.name, err)
		}
		s.spent -= time.Since(start)
	})
}

func BenchmarkGroupSum200k(b *testing.B) {
	ss := seeded(b)
	pipeline := mongo.Pipeline{{{Key: "$group", Value: bson.D{
		{Key: "_id", Value: "$courseId"},
		{Key: "total", Value: bson.D{{Key: "$sum", Value: "$grade"}}},
	}}}}
	measure(b, ss, func(b *testing.B, s *side, _ int) {
		cur, err := s.client.Database("bench").Collection("e").Aggregate(context.Background(), pipeline)
		if err != nil {
			b.Fatalf("%s: %v", s.name, err)
		}
		var out []bson.D
		if err := cur.All(context.Background(), &out); err != nil {
			b.Fatalf("%s: %v", s.name, err)
		}
		if len(out) != 200 {
			b.Fatalf("%s: %d groups, want 200", s.name, len(out))
		}
	})
}

// BenchmarkFindIndexed5of200k is five equality finds on the student
// index, one document each: FerretDB v1.24 on SQLite took about 4 s for
// each (measured 2026-12), so more would take minutes.
func BenchmarkFindIndexed5of200k(b *testing.B) {
	ss := seeded(b)
	measure(b, ss, func(b *testing.B, s *side, i int) {
		coll := s.client.Database("bench").Collection("e")
		for j := range 5 {
			student := fmt.Sprintf("s%06d", ((i*5+j)*7919)%docCount)
			var d bson.D
			if err := coll.FindOne(context.Background(), bson.D{{Key: "student", Value: student}}).Decode(&d); err != nil {
				b.Fatalf("%s: %s: %v", s.name, student, err)
			}
		}
	})
}

// BenchmarkCount200k is the count command with a filter on an
// unindexed field (a thousand matches).
func BenchmarkCount200k(b *testing.B) {
	ss := seeded(b)
	measure(b, ss, func(b *testing.B, s *side, _ int) {
		var res struct{ N int64 }
		cmd := bson.D{{Key: "count", Value: "e"}, {Key: "query", Value: bson.D{{Key: "courseId", Value: int32(7)}}}}
		if err := s.client.Database("bench").RunCommand(context.Background(), cmd).Decode(&res); err != nil {
			b.Fatalf("%s: %v", s.name, err)
		}
		if res.N != docCount/200 {
			b.Fatalf("%s: count %d, want %d", s.name, res.N, docCount/200)
		}
	})
}
