// Package shell runs mongosh JavaScript (goja) over the official Go driver
// and prints results exactly as mongosh does. It works against any server
// the driver can reach; it knows nothing of lessons or the TUI.
package shell

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
)

// The prelude is the mongosh API written in JavaScript over the Go natives
// (natives.go): chaining (db.c.find().sort().limit()) and property access
// (db.<name>) are natural there. It is split by class as mongosh's
// packages/shell-api/src is, one file per class under that file's name
// (cursor.js holds Cursor as cursor.ts does), with helpers.js, shell-bson.js
// and shell-api.js for what mongosh keeps in helpers.ts, shell-bson.ts and
// shell-api.ts, and timers.js for Node's timers. The files share one
// function scope, (function (g, n) {...}), and are listed in the order they
// run: a class comes after the class it extends.
//
//go:embed prelude/*.js
var preludeFS embed.FS

func preludeFiles() []string {
	return []string{
		"helpers.js", "shell-bson.js", "timers.js",
		"abstract-cursor.js", "aggregate-or-find-cursor.js", "cursor.js", "aggregation-cursor.js", "explainable-cursor.js",
		"collection.js", "explainable.js", "session.js", "database.js", "mongo.js", "shell-api.js",
	}
}

// preludeCompiled is compiled once; a Program may be shared by runtimes.
var preludeCompiled = sync.OnceValues(func() (compiled, error) {
	var src strings.Builder
	src.WriteString("(function (g, n) {\n")
	for _, name := range preludeFiles() {
		b, err := preludeFS.ReadFile("prelude/" + name)
		if err != nil {
			return compiled{}, err
		}
		src.Write(b)
		src.WriteString("\n")
	}
	src.WriteString("})")
	prog, err := parser.ParseFile(nil, preludeName, src.String(), 0, parser.WithDisableSourceMaps)
	if err != nil {
		return compiled{}, err
	}
	p, err := goja.CompileAST(prog, true)
	if err != nil {
		return compiled{}, err
	}
	return compiled{prog: p, index: indexFunctions(src.String(), prog)}, nil
})

// preludeIndex is where the prelude's async functions are.
func preludeIndex() *codeIndex {
	c, _ := preludeCompiled()
	return c.index
}

// DefaultHeapLimit is how much a script may grow the heap by when
// Options.HeapLimit is 0.
const DefaultHeapLimit = 512 << 20

// Options configure a Shell.
type Options struct {
	// Timeout bounds one Eval; 0 means 10 s.
	Timeout time.Duration
	// MaxOutput caps the text one Eval prints; 0 means 1 MiB.
	MaxOutput int
	// HeapLimit caps, in bytes, how much the session may grow the Go heap
	// by: what one Eval allocates, with what the session's earlier Evals
	// left reachable (heap.go; goja has no heap limit of its own); 0 means
	// DefaultHeapLimit. A script past it is interrupted and the session's
	// JavaScript state is discarded, which frees what it held; a built-in
	// asked for more than is left refuses before it allocates.
	HeapLimit int64
	// HeapShare is shared by the shells of one process (heap.go); nil
	// gives the shell one of its own.
	HeapShare *HeapShare
}

// Span locates code in the source given to Eval.
type Span struct {
	// StartLine and EndLine are 1-based and inclusive.
	StartLine, EndLine int
	// Start and End are byte offsets: src[Start:End] is the code.
	Start, End int
}

// Output is one printed statement result.
type Output struct {
	// Text is the result as mongosh prints it (no trailing newline).
	Text string
	// Value is the result as Go data: bson.D, bson.A, BSON scalars, or the
	// display types of this package (Int32Value, Function, EmptyItems, ...).
	Value any
	// Span is the input that produced it (see Statement).
	Span Span
}

// Statement is one input of the evaluated code and what it showed. An
// input is a top-level statement, a shell command line (use, show, it), or
// several statements that share a line: interactive mongosh evaluates
// those together and prints only the last one's value, so they are one
// input here too.
type Statement struct {
	Span Span
	// Printed is what print(), printjson() and console.log wrote while the
	// input ran.
	Printed string
	// Output indexes its result in Result.Outputs; -1 when it had none
	// (it evaluated to undefined, or failed).
	Output int
	// Error is the error it stopped on, as mongosh prints it; "" if none.
	// Only the last statement can have one: it ends the evaluation.
	Error string
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
	// Statements are the inputs that showed something (printed text, a
	// result or an error), in order, for views that put each output under
	// the code it came from (the TUI's notebook). Up to the output cap,
	// their printed texts, result texts and errors, each result and
	// error on its own line, make up Transcript.
	Statements []Statement
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
	// Exited is set when quit(), exit() or an exit line stopped the
	// script; ExitCode is the code it gave (quit(3)), the process exit
	// code mongosh would end with.
	Exited   bool
	ExitCode int
}

// Shell is one mongosh session: a JavaScript runtime, a current database
// and the last printed cursor. It is not safe for concurrent Evals;
// DB and SetWidth may be called at any time.
type Shell struct {
	client *mongo.Client
	opts   Options
	width  atomic.Int32 // inspect's breakLength; 0 means mongosh's 80

	dbMu sync.Mutex // guards db apart from mu, so DB() never waits for an Eval
	db   string

	mu       sync.Mutex
	ctx      context.Context // the running Eval's context
	out      *outputBuffer
	result   *Result
	stmt     *Statement // the input running now
	shown    bool       // whether it showed anything yet
	lastSpan Span       // the input begun last

	// Conversion state of the running Eval (convert.go, encode.go).
	ticks       int
	heap        *heapWatch     // the running Eval's
	held        int64          // what the session's earlier Evals left on the heap (heap.go)
	liveEnd     int64          // the live heap when its last Eval ended (heap.go)
	nativeDepth int            // how deeply built-ins are calling each other (nativeguard.go)
	joining     []*goja.Object // the arrays join is inside of (allocguard.go)

	// Regular expressions as the shell matches them (regexguard.go).
	regexFlags  regexFlags
	regexCache  map[string]*compiledRegex
	regexLast   *regexInput
	regexExecFn goja.Value
	displayLeft int
	displayPath []*goja.Object       // the objects a display is inside of
	displayRefs map[*goja.Object]int // their <ref *n> numbers
	encodeStart int                  // where the document being encoded starts in its buffer

	// The JavaScript runtime and what the natives need of it; all of it
	// is rebuilt by initRuntime.
	vm          *goja.Runtime
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

	// What async code needs (asyncmode.go, loop.go): the event loop,
	// the Promises of the shell's methods, and where the compiled
	// code's async functions are.
	loop        *eventLoop
	promiseMark *goja.Symbol
	asyncCode   map[string]*codeIndex
	compiles    int // names compiled code REPL1, REPL2, ... as mongosh does
	blocking    int
	frames      []goja.StackFrame
	sessions    []*session
	exit        *exitRequest // set by quit()
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
	if opts.HeapLimit <= 0 {
		opts.HeapLimit = DefaultHeapLimit
	}
	if opts.HeapShare == nil {
		opts.HeapShare = &HeapShare{}
	}
	if db == "" {
		db = "test"
	}
	s := &Shell{client: client, opts: opts, db: db, ctx: context.Background(), loop: newEventLoop()}
	if err := s.initRuntime(db); err != nil {
		return nil, err
	}
	share := opts.HeapShare
	share.sessions.Add(1)
	runtime.AddCleanup(s, func(share *HeapShare) { share.sessions.Add(-1) }, share)
	return s, nil
}

// initRuntime makes a fresh JavaScript runtime with the prelude loaded and
// db as the current database.
func (s *Shell) initRuntime(db string) error {
	prelude, err := preludeCompiled()
	if err != nil {
		return fmt.Errorf("shell prelude: %w", err)
	}
	s.endSessions()
	s.vm = goja.New()
	if err := s.installGuards(); err != nil {
		return fmt.Errorf("shell runtime: %w", err)
	}
	s.vm.SetPromiseRejectionTracker(s.loop.trackRejection)
	s.protos, s.protoByName = map[*goja.Object]string{}, map[string]*goja.Object{}
	s.lastCursor, s.arrayFrom = nil, nil
	s.asyncCode = map[string]*codeIndex{}
	s.promiseMark = goja.NewSymbol("shellPromise")
	s.vm.SetMaxCallStackSize(2000)
	s.typeSym = goja.NewSymbol("shellApiType")
	s.objectProto = s.vm.Get("Object").ToObject(s.vm).Get("prototype").ToObject(s.vm)
	s.dateCtor = s.vm.Get("Date").ToObject(s.vm)
	s.mapProto = s.vm.Get("Map").ToObject(s.vm).Get("prototype").ToObject(s.vm)
	s.setProto = s.vm.Get("Set").ToObject(s.vm).Get("prototype").ToObject(s.vm)
	s.regexpCtor = s.vm.Get("RegExp").ToObject(s.vm)
	if err := installIntl(s.vm); err != nil {
		return fmt.Errorf("shell Intl: %w", err)
	}
	fnVal, err := s.vm.RunProgram(prelude.prog)
	if err != nil {
		return fmt.Errorf("shell prelude: %w", err)
	}
	fn, ok := goja.AssertFunction(fnVal)
	if !ok {
		return errors.New("shell prelude: not a function")
	}
	api, err := fn(goja.Undefined(), s.vm.GlobalObject(), s.natives())
	if err != nil {
		return fmt.Errorf("shell prelude: %w", err)
	}
	setDB, ok := goja.AssertFunction(api.ToObject(s.vm).Get("setDB"))
	if !ok {
		return errors.New("shell prelude: no setDB")
	}
	s.setDB = setDB
	_, err = setDB(goja.Undefined(), s.vm.ToValue(db))
	return err
}

// DB is the current database name (changed by `use`).
func (s *Shell) DB() string {
	s.dbMu.Lock()
	defer s.dbMu.Unlock()
	return s.db
}

// SetWidth sets the width, in columns, that results are laid out for
// (util.inspect's breakLength), for a view narrower or wider than
// mongosh's 80 columns. 0 restores 80. It applies from the next Eval.
func (s *Shell) SetWidth(columns int) {
	s.width.Store(int32(max(columns, 0)))
}

// formats are the inspect options of the running Eval, at its width.
func (s *Shell) formats() (result, full, printJSON FormatOptions) {
	result, full, printJSON = resultFormat, fullFormat, printJSONFormat
	if w := int(s.width.Load()); w > 0 {
		result.BreakLength, full.BreakLength, printJSON.BreakLength = w, w, w
	}
	return result, full, printJSON
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

// emit records the running input's result.
func (s *Shell) emit(text string, value any) {
	st := s.statement()
	s.result.Outputs = append(s.result.Outputs, Output{Text: text, Value: value, Span: st.Span})
	st.Output = len(s.result.Outputs) - 1
	if text != "" {
		s.out.writeLine(text)
	}
	if m, ok := explainMetrics(value); ok {
		s.result.Metrics = append(s.result.Metrics, m)
	}
}

// printText records what print() and its kin wrote.
func (s *Shell) printText(text string) {
	st := s.statement()
	st.Printed += s.out.write(text, true)
}

// beginInput starts the entry of an input in Result.Statements; it is
// kept if the input shows anything.
func (s *Shell) beginInput(span Span) {
	s.stmt, s.shown = &Statement{Span: span, Output: -1}, false
	s.lastSpan = span
}

// reopenLastInput makes the last input the running one again, for what
// the script's async work shows after its inputs have run.
func (s *Shell) reopenLastInput() {
	if st := s.result.Statements; len(st) > 0 && st[len(st)-1].Span == s.lastSpan {
		last := st[len(st)-1]
		s.result.Statements = st[:len(st)-1]
		s.stmt, s.shown = &last, true
		return
	}
	s.beginInput(s.lastSpan)
}

func (s *Shell) endInput() {
	if s.stmt != nil && s.shown {
		s.result.Statements = append(s.result.Statements, *s.stmt)
	}
	s.stmt = nil
}

// statement is the running input's entry, marked as showing something.
func (s *Shell) statement() *Statement {
	if s.stmt == nil {
		s.beginInput(Span{})
	}
	s.shown = true
	return s.stmt
}

// outputBuffer caps what one evaluation prints.
type outputBuffer struct {
	sb        strings.Builder
	printed   strings.Builder
	max       int
	truncated bool
}

func (b *outputBuffer) writeLine(s string) { b.write(s+"\n", false) }

// write appends s to the transcript (and to the printed text when printed
// is set) and returns what was appended: s, or its start and the notice
// of the cap.
func (b *outputBuffer) write(s string, printed bool) string {
	if b.truncated {
		return ""
	}
	if b.sb.Len()+len(s) > b.max {
		room := max(b.max-b.sb.Len(), 0)
		kept := s[:room]
		b.sb.WriteString(kept)
		if printed {
			b.printed.WriteString(kept)
		}
		notice := fmt.Sprintf("\n[output truncated: more than %d bytes printed]\n", b.max)
		b.sb.WriteString(notice)
		b.truncated = true
		return kept + notice
	}
	b.sb.WriteString(s)
	if printed {
		b.printed.WriteString(s)
	}
	return s
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
