package acceptance

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/shell"
)

// The scripts of ../testdata/async run as they ran pasted into real
// mongosh 2.12 against `schemalab serve` (their .mongosh.txt, recorded by
// gen.sh there): implicit awaits in async functions, for await over a
// cursor, microtask order, timers, sessions.
func TestAsyncScriptsMatchMongosh(t *testing.T) {
	compareWithMongosh(t, "async", func(sh *shell.Shell, src string) string {
		res, err := sh.Eval(context.Background(), src)
		if err != nil {
			t.Error(err)
		}
		return res.Transcript
	})
}

// The scripts of ../testdata/inputs run as they ran pasted into real
// mongosh 2.12 against `schemalab serve` (their .mongosh.txt, recorded by
// gen.sh there): each line is an input of its own, so an error, printed as
// mongosh prints it, ends only its line.
func TestInputScriptsMatchMongosh(t *testing.T) {
	compareWithMongosh(t, "inputs", func(sh *shell.Shell, src string) string {
		var out strings.Builder
		for line := range strings.Lines(src) {
			if !strings.HasPrefix(line, "//") {
				res, _ := sh.Eval(context.Background(), line)
				out.WriteString(res.Transcript)
			}
		}
		return out.String()
	})
}

// compareWithMongosh runs every script of ../testdata/<dir>, each in a
// shell of its own on database <dir><name>, and compares what run makes of
// it with what mongosh printed, its .mongosh.txt; ObjectIds differ from
// run to run.
func compareWithMongosh(t *testing.T, dir string, run func(sh *shell.Shell, src string) string) {
	scripts, err := filepath.Glob("../testdata/" + dir + "/*.js")
	if err != nil || len(scripts) == 0 {
		t.Fatal("no scripts", err)
	}
	client, _ := startServer(t)
	for _, path := range scripts {
		name := strings.TrimSuffix(filepath.Base(path), ".js")
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(strings.TrimSuffix(path, ".js") + ".mongosh.txt")
		if err != nil {
			t.Fatal(err)
		}
		sh, err := shell.New(client, dir+strings.ReplaceAll(name, "_", ""), shell.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := run(sh, string(src)); normalizeIDs(got) != normalizeIDs(string(want)) {
			t.Errorf("%s\n got:\n%s\nwant:\n%s", name, got, want)
		}
	}
}

// commandLog records the commands a client sends and how many were in
// flight at once.
type commandLog struct {
	mu       sync.Mutex
	started  []string
	inFlight int
	max      int
}

func (l *commandLog) monitor() *event.CommandMonitor {
	return &event.CommandMonitor{
		Started: func(_ context.Context, e *event.CommandStartedEvent) {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.started = append(l.started, e.CommandName)
			l.inFlight++
			l.max = max(l.max, l.inFlight)
		},
		Succeeded: func(context.Context, *event.CommandSucceededEvent) { l.done() },
		Failed:    func(context.Context, *event.CommandFailedEvent) { l.done() },
	}
}

func (l *commandLog) done() {
	l.mu.Lock()
	l.inFlight--
	l.mu.Unlock()
}

func (l *commandLog) reset() {
	l.mu.Lock()
	l.started, l.max = nil, 0
	l.mu.Unlock()
}

// monitoredShell is a shell whose client reports its commands to log.
func monitoredShell(t testing.TB, db string) (*shell.Shell, *commandLog) {
	t.Helper()
	_, srv := startServer(t)
	log := &commandLog{}
	client, err := mongo.Connect(options.Client().ApplyURI(srv.URI()).SetMonitor(log.monitor()).
		SetServerMonitoringMode(options.ServerMonitoringModePoll))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Disconnect(context.Background()) })
	sh, err := shell.New(client, db, shell.Options{Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return sh, log
}

// Async functions started together run together, as on mongosh's Node
// driver: each one's driver call is sent before any of them gets its
// reply back (/work/notes/mongosh-facts.md: Promise.all([f(), f()])).
// The calls run on goroutines, so on a loaded machine (the race
// detector, two cores) the first reply can be handled before the second
// goroutine sends: a shell that ran them one after another would never
// send both first, so one round of five that does shows the concurrency.
func TestAsyncFunctionsInterleave(t *testing.T) {
	sh, log := monitoredShell(t, "interleave")
	eval(t, sh, "const f = async () => { await db.c.insertOne({ a: 1 }); return db.c.countDocuments() };")
	var rounds [][]string
	for range 5 {
		eval(t, sh, "db.c.drop()")
		log.reset()
		if got := eval(t, sh, "Promise.all([f(), f()])"); got != "[ 2, 2 ]\n" && got != "[ 1, 2 ]\n" && got != "[ 2, 1 ]\n" {
			t.Fatalf("Promise.all printed %q", got)
		}
		log.mu.Lock()
		started := slices.Clone(log.started)
		log.mu.Unlock()
		if len(started) >= 2 && started[0] == "insert" && started[1] == "insert" {
			return
		}
		rounds = append(rounds, started)
	}
	t.Errorf("in no round were the two inserts both sent first: %v", rounds)
}

// Code outside async functions still waits for each call, in order.
func TestTopLevelCallsStillBlock(t *testing.T) {
	sh, log := monitoredShell(t, "blocking")
	log.reset()
	expectOut(t, sh, "for (let i = 0; i < 20; i++) db.c.insertOne({ i }); db.c.countDocuments()", "20\n")
	if log.max != 1 {
		t.Errorf("%d commands were in flight at once", log.max)
	}
}

// The outlier lesson's writer, 60 calls at once: the commands really
// are in flight together, and what the filters guarantee still holds.
func TestSixtyWritersRunTogether(t *testing.T) {
	sh, log := monitoredShell(t, "writers")
	eval(t, sh, addCustomerScript)
	writers := "db.books.deleteMany({}); db.book_customers_extra.deleteMany({});\n" +
		"db.books.insertOne({ _id: 5000, title: 'A New Release', customers: [], customerCount: 0, hasExtras: false });\n" +
		"Promise.all(Array.from({ length: 60 }, (_, i) => addCustomer(5000, 'launch-' + i))).then(r => r.length)"
	// The first round opens the connections (the driver opens two at a
	// time), the second is measured.
	eval(t, sh, writers)
	log.reset()
	// (How many batch documents the first round made is up to the race.)
	if got := eval(t, sh, writers); !strings.HasSuffix(got, "{ acknowledged: true, insertedId: 5000 }\n60\n") {
		t.Fatalf("the writers printed %q", got)
	}
	expectOut(t, sh, "db.books.findOne({ _id: 5000 }, { _id: 0, customerCount: 1, embedded: { $size: '$customers' } })",
		"{ customerCount: 60, embedded: 50 }\n")
	expectOut(t, sh, "db.book_customers_extra.aggregate([{ $group: { _id: null, n: { $sum: '$count' } } }]).toArray()[0].n", "10\n")
	t.Logf("at most %d commands in flight", log.max)
	if log.max < 10 {
		t.Errorf("at most %d of the 60 writers' commands were in flight at once", log.max)
	}
}

// addCustomerScript is the outlier lesson's addCustomer.
const addCustomerScript = `
const CUSTOMER_THRESHOLD = 50;
const addCustomer = async (bookId, customerId) => {
  const result = await db.books.updateOne({ _id: bookId, customerCount: { $lt: CUSTOMER_THRESHOLD } },
    { $push: { customers: customerId }, $inc: { customerCount: 1 } })
  if (result.matchedCount > 0) return
  const last = await db.book_customers_extra.find({ bookId }).sort({ batch: -1 }).limit(1).next()
  const nextBatch = last ? last.batch + 1 : 1
  const targetBatch = last && last.count < 1000 ? last.batch : nextBatch
  const filter = { bookId, batch: targetBatch }
  if (targetBatch !== nextBatch) filter.count = { $lt: 1000 }
  const r = await db.book_customers_extra.updateOne(filter,
    { $push: { customers: customerId }, $inc: { count: 1 }, $setOnInsert: { bookId, batch: targetBatch } },
    { upsert: targetBatch === nextBatch })
  if (r.matchedCount === 0 && targetBatch !== nextBatch) {
    await db.book_customers_extra.updateOne({ bookId, batch: nextBatch },
      { $push: { customers: customerId }, $inc: { count: 1 }, $setOnInsert: { bookId, batch: nextBatch } }, { upsert: true })
  }
  await db.books.updateOne({ _id: bookId }, { $set: { hasExtras: true }, $inc: { customerCount: 1 } })
};
`

// An evaluation stopped while async work is in flight (the deadline,
// Ctrl+C) cancels it: no goroutine of it is left, nothing of it settles
// later, and the session goes on.
func TestInterruptingAsyncWork(t *testing.T) {
	client, _ := startServer(t)
	sh, err := shell.New(client, "interrupt", shell.Options{Timeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	eval(t, sh, "db.c.insertMany(Array.from({ length: 2000 }, (_, i) => ({ i, pad: 'x'.repeat(100) })))")
	// Async loops of reads, a sleep and an interval: busy until stopped.
	busy := "const spin = async () => { for (;;) { await db.c.find({ i: { $gte: 0 } }).toArray() } };\n" +
		"Promise.all([spin(), spin(), spin(), (async () => { await sleep(60000) })()]); setInterval(() => {}, 5);"
	start := time.Now()
	res, err := sh.Eval(context.Background(), busy)
	if !errors.Is(err, shell.ErrTimeout) || time.Since(start) > 5*time.Second {
		t.Fatalf("deadline: %v after %s\n%s", err, time.Since(start), res.Transcript)
	}
	checkGoroutines(t)

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start = time.Now()
	res, err = sh.Eval(ctx, busy)
	if err == nil || !strings.Contains(res.Transcript, "MongoshInterruptedError: execution was interrupted") || time.Since(start) > 5*time.Second {
		t.Fatalf("cancel: %v after %s\n%s", err, time.Since(start), res.Transcript)
	}
	checkGoroutines(t)
	expectOut(t, sh, "db.c.countDocuments()", "2000\n")
}

// The heap cap stops a script that allocates in async code too.
func TestHeapCapInAsyncCode(t *testing.T) {
	client, _ := startServer(t)
	sh, err := shell.New(client, "heap", shell.Options{Timeout: time.Minute, HeapLimit: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sh.Eval(context.Background(), "const hoard = [];\n(async () => { for (;;) { hoard.push({ pad: 'x'.repeat(64) + hoard.length }); if (hoard.length % 1000 === 0) await db.c.findOne() } })()")
	if err == nil || !strings.Contains(res.Transcript, "script used more than 64 MB of memory") {
		t.Fatalf("%v\n%s", err, res.Transcript)
	}
	checkGoroutines(t)
	expectOut(t, sh, "typeof hoard", "undefined\n")
}

// checkGoroutines fails while goroutines of the shell are left, once the
// ones that are ending have ended. (The driver's pool and the server keep
// goroutines of their own for the connections the script opened.)
func checkGoroutines(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		buf := make([]byte, 1<<20)
		stacks := string(buf[:runtime.Stack(buf, true)])
		left := 0
		for _, g := range strings.Split(stacks, "\n\n") {
			if strings.Contains(g, "schemalab/sandbox/shell.") {
				left++
			}
		}
		if left == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines of the shell are left:\n%s", left, stacks)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
