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

// Issue 16's figures for the concurrent shell: the outlier lesson's 60
// writers started together with Promise.all against the same 60 calls
// made one after another, and 60 async waits of 10 ms. Each reports the
// most commands it had in flight at once ("inflight").
//
//	go test ./sandbox/shell/acceptance -run '^$' -bench 'Sixty' -benchtime 20x

func BenchmarkSixtyAddCustomerConcurrent(b *testing.B) {
	benchWriters(b, "Promise.all(Array.from({ length: 60 }, (_, i) => addCustomer(5000, 'launch-' + i))).then(r => r.length)")
}

func BenchmarkSixtyAddCustomerSequential(b *testing.B) {
	benchWriters(b, "(async () => { for (let i = 0; i < 60; i++) await addCustomer(5000, 'launch-' + i); return 60 })()")
}

func benchWriters(b *testing.B, run string) {
	sh, log := monitoredShell(b, "writers")
	if _, err := sh.Eval(context.Background(), addCustomerScript); err != nil {
		b.Fatal(err)
	}
	reset := "db.books.deleteMany({}); db.book_customers_extra.deleteMany({});\n" +
		"db.books.insertOne({ _id: 5000, title: 'A New Release', customers: [], customerCount: 0, hasExtras: false })"
	inFlight := 0
	for b.Loop() {
		b.StopTimer()
		if _, err := sh.Eval(context.Background(), reset); err != nil {
			b.Fatal(err)
		}
		log.reset()
		b.StartTimer()
		res, err := sh.Eval(context.Background(), run)
		if err != nil || res.Transcript != "60\n" {
			b.Fatalf("%v %q", err, res.Transcript)
		}
		inFlight = max(inFlight, log.max)
	}
	b.ReportMetric(float64(inFlight), "inflight")
}

func BenchmarkSixtyWaitsOf10msConcurrent(b *testing.B) {
	sh := newShell(b, "waits")
	for b.Loop() {
		if _, err := sh.Eval(context.Background(), "Promise.all(Array.from({ length: 60 }, async () => { await sleep(10) })).then(r => r.length)"); err != nil {
			b.Fatal(err)
		}
	}
}
