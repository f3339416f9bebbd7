// Package shell runs mongosh JavaScript (goja) over the official Go driver
// and prints results exactly as mongosh does. It works against any server
// the driver can reach; it knows nothing of lessons or the TUI.
package shell

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// The prelude is the mongosh API written in JavaScript over the Go natives
// (natives.go): chaining (db.c.find().sort().limit()) and property access
// (db.<name>) are natural there. It is split by class as mongosh's own
// sources are; the files share one function scope, (function (g, n) {...}),
// and are listed in the order they run, each using what the ones before it
// define.
//
//go:embed prelude/*.js
var preludeFS embed.FS

var preludeFiles = []string{
	"common.js", "bson.js", "print.js", "cursor.js", "collection.js", "explainable.js", "database.js", "globals.js",
}

// preludeProgram is compiled once; a Program may be shared by runtimes.
var preludeProgram = sync.OnceValues(func() (*goja.Program, error) {
	var src strings.Builder
	src.WriteString("(function (g, n) {\n")
	for _, name := range preludeFiles {
		b, err := preludeFS.ReadFile("prelude/" + name)
		if err != nil {
			return nil, err
		}
		src.Write(b)
		src.WriteString("\n")
	}
	src.WriteString("})")
	return goja.Compile("prelude.js", src.String(), true)
})

// Options configure a Shell.
type Options struct {
	// Timeout bounds one Eval; 0 means 10 s.
	Timeout time.Duration
	// MaxOutput caps the text one Eval prints; 0 means 1 MiB.
	MaxOutput int
}

// Output is one printed statement result.
type Output struct {
	// Text is the result as mongosh prints it (no trailing newline).
	Text string
	// Value is the result as Go data: bson.D, bson.A, BSON scalars, or the
	// display types of this package (Int32Value, Function, ...).
	Value any
}

// ExplainMetrics are the figures comparison views chart, taken from an
// explain document's executionStats.
type ExplainMetrics struct {
	NReturned    int64
	KeysExamined int64
	DocsExamined int64
	Millis       int64
}

// Result is what one Eval produced.
type Result struct {
	// Outputs are the non-undefined statement results, in order.
	Outputs []Output
	// Printed is everything print/printjson/console.log wrote.
	Printed string
	// Transcript is the whole output in order, as mongosh would show it:
	// printed text, statement results and the error, each line ending in \n.
	Transcript string
	// Elapsed is the wall time of the evaluation.
	Elapsed time.Duration
	// Metrics holds one entry per explain document among the outputs.
	Metrics []ExplainMetrics
	// Wrote is set when the evaluation called something that may change
	// the database (a write, a drop, an index build, runCommand, an
	// aggregation, which may end in $out or $merge); a read-only
	// evaluation leaves it false.
	Wrote bool
}

// Shell is one mongosh session: a JavaScript runtime, a current database
// and the last printed cursor. It is not safe for concurrent Evals.
type Shell struct {
	client *mongo.Client
	opts   Options
	vm     *goja.Runtime

	dbMu sync.Mutex // guards db apart from mu, so DB() never waits for an Eval
	db   string

	mu     sync.Mutex
	ctx    context.Context // the running Eval's context
	out    *outputBuffer
	result *Result

	typeSym     *goja.Symbol
	protos      map[*goja.Object]string
	protoByName map[string]*goja.Object
	objectProto *goja.Object
	dateCtor    *goja.Object
	regexpCtor  *goja.Object
	setDB       goja.Callable
	lastCursor  *goja.Object
	arrayFrom   goja.Callable
	mapProto    *goja.Object
	setProto    *goja.Object
}

// ErrTimeout is wrapped by the error of an Eval that ran out of time.
var ErrTimeout = errors.New("evaluation timed out")

// New creates a session on client using database db.
func New(client *mongo.Client, db string, opts Options) (*Shell, error) {
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = 1 << 20
	}
	if db == "" {
		db = "test"
	}
	prog, err := preludeProgram()
	if err != nil {
		return nil, fmt.Errorf("shell prelude: %w", err)
	}
	s := &Shell{
		client:      client,
		opts:        opts,
		vm:          goja.New(),
		db:          db,
		ctx:         context.Background(),
		protos:      map[*goja.Object]string{},
		protoByName: map[string]*goja.Object{},
	}
	s.vm.SetMaxCallStackSize(2000)
	s.typeSym = goja.NewSymbol("shellApiType")
	s.objectProto = s.vm.Get("Object").ToObject(s.vm).Get("prototype").ToObject(s.vm)
	s.dateCtor = s.vm.Get("Date").ToObject(s.vm)
	s.mapProto = s.vm.Get("Map").ToObject(s.vm).Get("prototype").ToObject(s.vm)
	s.setProto = s.vm.Get("Set").ToObject(s.vm).Get("prototype").ToObject(s.vm)
	s.regexpCtor = s.vm.Get("RegExp").ToObject(s.vm)
	fnVal, err := s.vm.RunProgram(prog)
	if err != nil {
		return nil, fmt.Errorf("shell prelude: %w", err)
	}
	fn, ok := goja.AssertFunction(fnVal)
	if !ok {
		return nil, errors.New("shell prelude: not a function")
	}
	api, err := fn(goja.Undefined(), s.vm.GlobalObject(), s.natives())
	if err != nil {
		return nil, fmt.Errorf("shell prelude: %w", err)
	}
	setDB, ok := goja.AssertFunction(api.ToObject(s.vm).Get("setDB"))
	if !ok {
		return nil, errors.New("shell prelude: no setDB")
	}
	s.setDB = setDB
	if _, err := setDB(goja.Undefined(), s.vm.ToValue(db)); err != nil {
		return nil, err
	}
	return s, nil
}

// DB is the current database name (changed by `use`).
func (s *Shell) DB() string {
	s.dbMu.Lock()
	defer s.dbMu.Unlock()
	return s.db
}

// Eval runs src as if its lines were pasted into mongosh. It stops at the
// first statement that throws; that error is returned and also ends the
// Transcript, formatted as mongosh prints it. The session stays usable.
func (s *Shell) Eval(ctx context.Context, src string) (Result, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, s.opts.Timeout)
	defer cancel()
	s.ctx = ctx
	s.out = &outputBuffer{max: s.opts.MaxOutput}
	res := &Result{}
	s.result = res
	s.vm.ClearInterrupt()
	stop := context.AfterFunc(ctx, func() { s.vm.Interrupt(ctx.Err()) })
	defer stop()

	var evalErr error
	for _, ch := range splitChunks(src) {
		if err := s.runChunk(ch); err != nil {
			evalErr = s.reportError(err, ctx)
			break
		}
		if ctx.Err() != nil {
			evalErr = s.reportError(ctx.Err(), ctx)
			break
		}
	}
	s.vm.ClearInterrupt()
	res.Transcript = s.out.String()
	res.Printed = s.out.printed.String()
	res.Elapsed = time.Since(start)
	s.ctx = context.Background()
	s.result = nil
	return *res, evalErr
}

// EvalError is a thrown error, carrying mongosh's formatting of it.
type EvalError struct {
	// Text is how mongosh prints the error, e.g.
	// "MongoServerError: E11000 duplicate key error collection: ...".
	Text string
	// Name is the error class name (TypeError, MongoServerError, ...).
	Name string
	// Code is the server error code, if any.
	Code int
	err  error
}

func (e *EvalError) Error() string { return e.Text }
func (e *EvalError) Unwrap() error { return e.err }

func (s *Shell) reportError(err error, ctx context.Context) error {
	ee := s.describeError(err, ctx)
	s.out.writeLine(ee.Text)
	return ee
}

// emit records a statement result.
func (s *Shell) emit(text string, value any) {
	s.result.Outputs = append(s.result.Outputs, Output{Text: text, Value: value})
	if text != "" {
		s.out.writeLine(text)
	}
	if m, ok := explainMetrics(value); ok {
		s.result.Metrics = append(s.result.Metrics, m)
	}
}

// outputBuffer caps what one evaluation prints.
type outputBuffer struct {
	sb        strings.Builder
	printed   strings.Builder
	max       int
	truncated bool
}

func (b *outputBuffer) writeLine(s string) { b.write(s+"\n", false) }

func (b *outputBuffer) write(s string, printed bool) {
	if b.truncated {
		return
	}
	if b.sb.Len()+len(s) > b.max {
		room := max(b.max-b.sb.Len(), 0)
		b.sb.WriteString(s[:room])
		if printed {
			b.printed.WriteString(s[:room])
		}
		b.sb.WriteString(fmt.Sprintf("\n[output truncated: more than %d bytes printed]\n", b.max))
		b.truncated = true
		return
	}
	b.sb.WriteString(s)
	if printed {
		b.printed.WriteString(s)
	}
}

func (b *outputBuffer) String() string { return b.sb.String() }

// explainMetrics extracts executionStats figures from an explain document.
func explainMetrics(v any) (ExplainMetrics, bool) {
	d, ok := v.(bson.D)
	if !ok {
		return ExplainMetrics{}, false
	}
	var stats bson.D
	isExplain := false
	for _, e := range d {
		switch e.Key {
		case "queryPlanner", "explainVersion":
			isExplain = true
		case "executionStats":
			stats, _ = e.Value.(bson.D)
		case "stages":
			isExplain = true
			// aggregation explain: the first stage's $cursor holds the stats
			if arr, ok := e.Value.(bson.A); ok && len(arr) > 0 && stats == nil {
				if st, ok := arr[0].(bson.D); ok {
					if cur, ok := lookupD(st, "$cursor").(bson.D); ok {
						stats, _ = lookupD(cur, "executionStats").(bson.D)
					}
				}
			}
		}
	}
	if !isExplain {
		return ExplainMetrics{}, false
	}
	m := ExplainMetrics{}
	if stats != nil {
		m.NReturned = toInt64(lookupD(stats, "nReturned"))
		m.KeysExamined = toInt64(lookupD(stats, "totalKeysExamined"))
		m.DocsExamined = toInt64(lookupD(stats, "totalDocsExamined"))
		m.Millis = toInt64(lookupD(stats, "executionTimeMillis"))
	}
	return m, true
}

func lookupD(d bson.D, key string) any {
	for _, e := range d {
		if e.Key == key {
			return e.Value
		}
	}
	return nil
}

func toInt64(v any) int64 {
	switch x := v.(type) {
	case int32:
		return int64(x)
	case int64:
		return x
	case float64:
		return int64(x)
	case Int32Value:
		return int64(x)
	}
	return 0
}
