package acceptance

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/schemalab/schemalab/sandbox/sandboxtest"
	"github.com/schemalab/schemalab/sandbox/shell"
)

func eval(t *testing.T, sh *shell.Shell, src string) string {
	t.Helper()
	res, err := sh.Eval(context.Background(), src)
	if err != nil {
		t.Fatalf("eval %q: %v\n%s", src, err, res.Transcript)
	}
	return res.Transcript
}

func expectOut(t *testing.T, sh *shell.Shell, src, want string) {
	t.Helper()
	if got := eval(t, sh, src); got != want {
		t.Errorf("%s\n got:\n%s\nwant:\n%s", src, got, want)
	}
}

// TestSeed000AddCustomer runs the seed's addCustomer function unchanged
// (async/await, find().sort().limit(1).next()) past its threshold.
func TestSeed000AddCustomer(t *testing.T) {
	raw, err := os.ReadFile("testdata/seed_000.txt")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(raw), "```javascript\n")
	code, _, _ := strings.Cut(rest, "```")
	// 1,060 customers are about 4,000 round trips: past the shell's
	// default 10 s under the race detector on a busy machine, which this
	// test is not about.
	client, _ := startServer(t)
	sh, err := shell.New(client, "seed000", shell.Options{Timeout: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	eval(t, sh, code)
	eval(t, sh, `db.books.insertOne({ _id: 1, title: "Harry Potter" })`)
	// Top-level await is a SyntaxError in mongosh; an async function
	// statement is awaited before the next one runs.
	eval(t, sh, "(async () => {\n  for (let i = 0; i < 1060; i++) {\n    await addCustomer(1, 'c' + i)\n  }\n})()")
	expectOut(t, sh, `db.books.findOne({ _id: 1 }, { customerCount: 1, hasExtras: 1, n: { $size: "$customers" } })`,
		"{ _id: 1, customerCount: 1060, hasExtras: true, n: 50 }\n")
	expectOut(t, sh, `db.book_customers_extra.find({}, { _id: 0, bookId: 1, batch: 1, count: 1 }).sort({ batch: 1 })`,
		"[\n  { batch: 1, bookId: 1, count: 1000 },\n  { batch: 2, bookId: 1, count: 10 }\n]\n")
}

func TestShellCommandsAndTypes(t *testing.T) {
	sh := newShell(t, "test")
	expectOut(t, sh, "use other", "switched to db other\n")
	expectOut(t, sh, "use other", "already on db other\n")
	if sh.DB() != "other" {
		t.Errorf("DB() = %q", sh.DB())
	}
	expectOut(t, sh, "db.getName()\ndb", "other\nother\n")
	expectOut(t, sh, `db.t.insertOne({ _id: 1, i: 1, d: 1.5, whole: 2.0, big: 3000000000, l: NumberLong("5"), dec: NumberDecimal("1.10"), dt: ISODate("2026-01-02T03:04:05Z"), re: /ab/i, n: null, u: UUID("0123456789abcdef0123456789abcdef") })`,
		"{ acknowledged: true, insertedId: 1 }\n")
	expectOut(t, sh, `db.t.findOne()`, `{
  _id: 1,
  i: 1,
  d: 1.5,
  whole: 2,
  big: 3000000000,
  l: Long('5'),
  dec: Decimal128('1.10'),
  dt: ISODate('2026-01-02T03:04:05.000Z'),
  re: /ab/i,
  n: null,
  u: UUID('01234567-89ab-cdef-0123-456789abcdef')
}
`)
	// int32 vs double: what the server stores
	expectOut(t, sh, `db.t.aggregate([{ $project: { _id: 0, a: { $type: "$i" }, b: { $type: "$whole" }, c: { $type: "$big" }, d: { $type: "$l" } } }])`,
		"[ { a: 'int', b: 'int', c: 'double', d: 'long' } ]\n")
	expectOut(t, sh, "show collections", "t\n")
	expectOut(t, sh, "db.t.countDocuments()\ndb.t.estimatedDocumentCount()", "1\n1\n")
	expectOut(t, sh, "const x = 5\nx * 2", "10\n")
	expectOut(t, sh, "'plain string'", "plain string\n")
	expectOut(t, sh, "print('a', 1, { b: 2 }); printjson({ c: [1] })", "a 1 { b: 2 }\n{\n  c: [\n    1\n  ]\n}\n")
	expectOut(t, sh, "console.log(EJSON.stringify({ a: NumberLong(1), d: ISODate('2026-01-01T00:00:00Z') }))",
		"Warning: NumberLong: specifying a number as argument is deprecated and may lead to loss of precision, pass a string instead\n"+
			`{"a":1,"d":{"$date":"2026-01-01T00:00:00Z"}}`+"\n")
	expectOut(t, sh, "EJSON.stringify({ a: NumberLong('1'), f: 1.0 }, { relaxed: false })", `{"a":{"$numberLong":"1"},"f":{"$numberInt":"1"}}`+"\n")
	expectOut(t, sh, "EJSON.parse('{\"a\":{\"$numberLong\":\"7\"}}')", "{ a: Long('7') }\n")
	expectOut(t, sh, "async function f() { return await db.t.countDocuments() }\nf()", "1\n")
	expectOut(t, sh, "const { i, ...rest } = db.t.findOne({}, { i: 1, d: 1 })\nrest", "{ _id: 1, d: 1.5 }\n")
	expectOut(t, sh, "class P { constructor() { this.a = 1 } }\nnew P()", "P { a: 1 }\n")
	expectOut(t, sh, "`t${1 + 1}`", "t2\n")
}

func TestCursorPrintingAndIt(t *testing.T) {
	sh := newShell(t, "test")
	eval(t, sh, "db.c.insertMany(Array.from({ length: 45 }, (_, i) => ({ _id: i })))")
	out := eval(t, sh, "db.c.find().sort({ _id: 1 })")
	// util.inspect groups short entries into columns, as real mongosh does.
	if !strings.HasSuffix(out, "  { _id: 18 }, { _id: 19 }\n]\nType \"it\" for more\n") || !strings.HasPrefix(out, "[\n  { _id: 0 },  { _id: 1 },\n") {
		t.Errorf("first batch:\n%s", out)
	}
	out = eval(t, sh, "it")
	if !strings.HasPrefix(out, "[\n  { _id: 20 }, { _id: 21 },") || !strings.HasSuffix(out, "Type \"it\" for more\n") {
		t.Errorf("second batch:\n%s", out)
	}
	out = eval(t, sh, "it")
	if out != "[ { _id: 40 }, { _id: 41 }, { _id: 42 }, { _id: 43 }, { _id: 44 } ]\n" {
		t.Errorf("third batch:\n%s", out)
	}
	expectOut(t, sh, "it", "no cursor\n")
	expectOut(t, sh, "db.c.find({ _id: { $lt: 3 } }).sort({ _id: -1 }).toArray().map(d => d._id)", "[ 2, 1, 0 ]\n")
	expectOut(t, sh, "db.c.find().skip(2).limit(2).itcount()", "2\n")
	expectOut(t, sh, "db.c.find({ _id: { $gte: 40 } }).count()", "5\n")
	expectOut(t, sh, "let n = 0; db.c.find().forEach(d => { n += d._id }); n", "990\n")
	expectOut(t, sh, "db.c.find({ _id: 99 })", "")
	expectOut(t, sh, "const cur = db.c.find({ _id: 1 })\ncur.hasNext()\ncur.next()\ncur.hasNext()", "true\n{ _id: 1 }\nfalse\n")
}

func TestWriteResultShapes(t *testing.T) {
	sh := newShell(t, "test")
	expectOut(t, sh, "db.w.insertMany([{ _id: 1, a: 1 }, { _id: 2, a: 2 }])", "{ acknowledged: true, insertedIds: { '0': 1, '1': 2 } }\n")
	expectOut(t, sh, "db.w.updateMany({}, { $inc: { a: 1 } })",
		"{\n  acknowledged: true,\n  insertedId: null,\n  matchedCount: 2,\n  modifiedCount: 2,\n  upsertedCount: 0\n}\n")
	expectOut(t, sh, "db.w.updateOne({ _id: 3 }, { $set: { a: 0 } }, { upsert: true })",
		"{\n  acknowledged: true,\n  insertedId: 3,\n  matchedCount: 0,\n  modifiedCount: 0,\n  upsertedCount: 1\n}\n")
	expectOut(t, sh, "db.w.deleteOne({ _id: 3 })", "{ acknowledged: true, deletedCount: 1 }\n")
	expectOut(t, sh, "db.w.findOneAndUpdate({ _id: 1 }, { $set: { b: true } }, { returnDocument: 'after' })", "{ _id: 1, a: 2, b: true }\n")
	expectOut(t, sh, "db.w.createIndex({ a: 1 })", "a_1\n")
	expectOut(t, sh, "db.w.bulkWrite([{ insertOne: { document: { _id: 9 } } }, { deleteOne: { filter: { _id: 9 } } }])", `{
  acknowledged: true,
  insertedCount: 1,
  insertedIds: { '0': 9 },
  matchedCount: 0,
  modifiedCount: 0,
  deletedCount: 1,
  upsertedCount: 0,
  upsertedIds: {}
}
`)
	expectOut(t, sh, "db.w.drop()", "true\n")
	// MongoDB 7.0+ drops a missing collection successfully.
	expectOut(t, sh, "db.w.drop()", "true\n")
}

func TestErrorsKeepSessionUsable(t *testing.T) {
	sh := newShell(t, "test")
	eval(t, sh, "db.e.insertOne({ _id: 1 })")
	res, err := sh.Eval(context.Background(), "print('before')\ndb.e.insertOne({ _id: 1 })\nprint('after')")
	if err == nil {
		t.Fatal("duplicate insert did not fail")
	}
	want := "before\nMongoServerError: E11000 duplicate key error collection: test.e index: _id_ dup key: { _id: 1 }\n"
	if res.Transcript != want {
		t.Errorf("got:\n%s\nwant:\n%s", res.Transcript, want)
	}
	var ee *shell.EvalError
	if !errors.As(err, &ee) || ee.Code != 11000 || ee.Name != "MongoServerError" {
		t.Errorf("error = %#v", err)
	}
	_, err = sh.Eval(context.Background(), "db.e.insertMany([{ _id: 2 }, { _id: 1 }, { _id: 3 }])")
	if err == nil || !strings.HasPrefix(err.Error(), "MongoBulkWriteError: E11000 duplicate key error collection: test.e index: _id_ dup key: { _id: 1 }\nResult: BulkWriteResult {\n  insertedCount: 1,") {
		t.Errorf("bulk error: %v", err)
	}
	_, err = sh.Eval(context.Background(), "undefinedThing.x")
	if err == nil || err.Error() != "ReferenceError: undefinedThing is not defined" {
		t.Errorf("reference error: %v", err)
	}
	_, err = sh.Eval(context.Background(), "null.x")
	if err == nil || !strings.HasPrefix(err.Error(), "TypeError: ") {
		t.Errorf("type error: %v", err)
	}
	_, err = sh.Eval(context.Background(), "let a = 1\nlet b = 2 3")
	if err == nil || !strings.HasPrefix(err.Error(), "SyntaxError: ") || !strings.Contains(err.Error(), "(2:") {
		t.Errorf("syntax error: %v", err)
	}
	_, err = sh.Eval(context.Background(), "db.e.updateOne({ _id: 1 }, { a: 1 })")
	if err == nil || err.Error() != "MongoInvalidArgumentError: Update document requires atomic operators" {
		t.Errorf("update validation: %v", err)
	}
	// the ordered insertMany stopped at the duplicate: _id 1 and 2 remain
	expectOut(t, sh, "db.e.countDocuments()", "2\n")
}

func TestTimeoutAndCancel(t *testing.T) {
	client, _ := startServer(t)
	sh, err := shell.New(client, "test", shell.Options{Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = sh.Eval(context.Background(), "while (true) {}")
	if !errors.Is(err, shell.ErrTimeout) || time.Since(start) > 2*time.Second {
		t.Fatalf("infinite loop: %v after %v", err, time.Since(start))
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	_, err = sh.Eval(ctx, "for (;;) { db.x.findOne() }")
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("cancel: %v", err)
	}
	expectOut(t, sh, "1 + 1", "2\n")
}

func TestOutputCap(t *testing.T) {
	client, _ := startServer(t)
	sh, err := shell.New(client, "test", shell.Options{MaxOutput: 1000})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sh.Eval(context.Background(), "for (let i = 0; i < 1000; i++) print('line ' + i)")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Transcript) > 1100 || !strings.Contains(res.Transcript, "output truncated") {
		t.Errorf("transcript of %d bytes: %q", len(res.Transcript), res.Transcript[len(res.Transcript)-80:])
	}
}

func TestExplainMetrics(t *testing.T) {
	sh := newShell(t, "test")
	eval(t, sh, "db.m.insertMany(Array.from({ length: 10 }, (_, i) => ({ _id: i, k: i % 3 })))\ndb.m.createIndex({ k: 1 })")
	res, err := sh.Eval(context.Background(), "db.m.find({ k: 1 }).explain('executionStats')\ndb.m.explain('executionStats').find({ k: 2 })")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Metrics) != 2 {
		t.Fatalf("metrics: %+v\n%s", res.Metrics, res.Transcript)
	}
	if m := res.Metrics[0]; m.NReturned != 3 || m.KeysExamined != 3 || m.DocsExamined != 3 {
		t.Errorf("metrics[0] = %+v", m)
	}
}

// TestLostConnection: with the server gone an evaluation fails with a
// clear error; once it is back the same session works again.
func TestLostConnection(t *testing.T) {
	srv := sandboxtest.Start(t)
	port := srv.Port()
	client, err := mongo.Connect(options.Client().ApplyURI(srv.URI()).SetServerSelectionTimeout(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Disconnect(context.Background())
	sh, err := shell.New(client, "test", shell.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	expectOut(t, sh, "db.c.insertOne({ _id: 1 })", "{ acknowledged: true, insertedId: 1 }\n")
	srv.Close()
	_, err = sh.Eval(context.Background(), "db.c.findOne()")
	if err == nil || !(strings.HasPrefix(err.Error(), "MongoNetworkError: ") || strings.HasPrefix(err.Error(), "MongoServerSelectionError: ") ||
		strings.HasPrefix(err.Error(), "MongoPoolClearedError: ")) {
		t.Fatalf("with the server down: %v", err)
	}
	sandboxtest.Start(t, sandboxtest.Port(port))
	var res shell.Result
	for range 50 {
		if res, err = sh.Eval(context.Background(), "db.c.countDocuments()"); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil || res.Transcript != "0\n" {
		t.Fatalf("after restart: %v %q", err, res.Transcript)
	}
}

// Result.Wrote tells a caller whether an evaluation may have changed the
// database, from the natives it called.
func TestResultSaysWhetherItWrote(t *testing.T) {
	sh := newShell(t, "wrote")
	for _, tc := range []struct {
		src   string
		wrote bool
	}{
		{"db.c.insertOne({ a: 1 })", true},
		{"db.c.find().toArray(); db.c.findOne(); db.c.countDocuments()", false},
		{"db.c.getIndexes(); db.getCollectionNames()", false},
		{"db.c.updateOne({}, { $set: { a: 2 } })", true},
		{"db.c.aggregate([{ $out: 'd' }])", true},
		{"db.runCommand({ ping: 1 })", true},
		{"db.c.createIndex({ a: 1 })", true},
		{"1 + 1", false},
	} {
		res, err := sh.Eval(context.Background(), tc.src)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		if res.Wrote != tc.wrote {
			t.Errorf("%s: Wrote = %v, want %v", tc.src, res.Wrote, tc.wrote)
		}
	}
}
