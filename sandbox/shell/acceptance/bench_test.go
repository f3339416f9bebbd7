package acceptance

import (
	"context"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox"
	"github.com/schemalab/schemalab/sandbox/shell"
)

// Figures from issue 4: new runtime ≤ 20 ms, findOne round trip ≤ 1 ms,
// 144,000 readings built in JS and inserted with insertMany ≤ 1.5 s.

func BenchmarkNewRuntime(b *testing.B) {
	client, _ := startServer(b)
	for b.Loop() {
		if _, err := shell.New(client, "bench", shell.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFindOneRoundTrip(b *testing.B) {
	sh := newShell(b, "bench")
	if _, err := sh.Eval(context.Background(), "db.f.insertOne({ _id: 1, name: 'reading', value: 21.5, tags: ['a', 'b'] })"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := sh.Eval(context.Background(), "db.f.findOne({ _id: 1 })"); err != nil {
			b.Fatal(err)
		}
	}
}

const readingsScript = `
const docs = []
const start = new Date('2026-01-01T00:00:00Z').getTime()
for (let i = 0; i < 144000; i++) {
  docs.push({ sensorId: i % 100, ts: new Date(start + i * 60000), temperature: 20 + (i % 50) / 10, humidity: 40 + (i % 30), status: 'ok' })
}
const r = db.readings.insertMany(docs)
db.readings.estimatedDocumentCount()
`

func BenchmarkInsertMany144kReadings(b *testing.B) {
	client, _ := startServer(b)
	insertReadings(b, client, "bench")
}

func insertReadings(b *testing.B, client *mongo.Client, db string) {
	for b.Loop() {
		sh, err := shell.New(client, db, shell.Options{Timeout: time.Minute})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := sh.Eval(context.Background(), "db.readings.drop()"); err != nil {
			b.Fatal(err)
		}
		res, err := sh.Eval(context.Background(), readingsScript)
		if err != nil {
			b.Fatal(err)
		}
		if res.Transcript != "144000\n144000\n" { // the loop's completion value (last push), then the count
			b.Fatalf("unexpected output %q", res.Transcript)
		}
	}
}

// The same through a client the guard confines (a classroom student's):
// every insert message is decoded and checked before it is sent.
func BenchmarkInsertMany144kReadingsConfined(b *testing.B) {
	be, err := sandbox.Open(context.Background(), sandbox.Config{})
	if err != nil {
		b.Fatal(err)
	}
	defer be.Close()
	client, err := be.NewClient(context.Background(), sandbox.ClientOptions{Prefix: "alice_"})
	if err != nil {
		b.Fatal(err)
	}
	defer client.Disconnect(context.Background())
	insertReadings(b, client, "alice_bench")
}
