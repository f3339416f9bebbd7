package shell

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/dop251/goja"
	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/x/mongo/driver"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Hidden properties carrying the parts of a driver error that mongosh
// prints after the message ("Result: …", "Write Errors: …").
const (
	errResultKey      = "__shellErrorResult"
	errWriteErrorsKey = "__shellErrorWriteErrors"
	errInfoKey        = "__shellErrorInfo"
)

// jsError builds an Error object with the given class name.
func (s *Shell) jsError(name, msg string) *goja.Object {
	ctor := s.vm.Get("Error").ToObject(s.vm)
	o, err := s.vm.New(ctor, s.vm.ToValue(msg))
	if err != nil {
		panic(s.vm.NewGoError(err))
	}
	_ = o.DefineDataProperty("name", s.vm.ToValue(name), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return o
}

func (s *Shell) hide(o *goja.Object, key string, v any) {
	_ = o.DefineDataProperty(key, s.vm.ToValue(v), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// throwDriver turns a driver error into the JS error mongosh's Node driver
// would raise, and throws it.
func (s *Shell) throwDriver(err error) {
	panic(s.driverError(err))
}

func (s *Shell) driverError(err error) *goja.Object {
	var we mongo.WriteException
	var ce mongo.CommandError
	var bwe mongo.BulkWriteException
	if o := s.sessionError(err); o != nil {
		return o
	}
	var nrw noRetryableWrites
	var pce driver.RetryablePoolError
	switch {
	case errors.As(err, &nrw):
		// The Node driver keeps the server's refusal (code 20) as originalError.
		o := s.jsError("MongoServerError", "This MongoDB deployment does not support retryable writes. Please add retryWrites=false to your connection string.")
		_ = o.Set("originalError", s.driverError(nrw.err))
		return o
	case errors.Is(err, driver.ErrUnsupportedStorageEngine):
		// The Go driver's rewording of a commit the server refused for
		// its transaction number; the Node driver passes the server's
		// error on.
		o := s.jsError("MongoServerError", "Transaction numbers are only allowed on a replica set member or mongos")
		_ = o.Set("code", mongoerr.IllegalOperation)
		_ = o.Set("codeName", "IllegalOperation")
		return o
	case s.ctx.Err() == nil && strings.Contains(err.Error(), "server selection error"):
		return s.jsError("MongoServerSelectionError", "cannot reach the server: "+err.Error())
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		if s.ctx.Err() != nil {
			// The evaluation is being interrupted; the runner reports why.
			s.vm.Interrupt(s.ctx.Err())
		}
		return s.jsError("MongoOperationTimeoutError", err.Error())
	case errors.As(err, &we) && len(we.WriteErrors) > 0:
		w := we.WriteErrors[0]
		o := s.jsError("MongoServerError", w.Message)
		_ = o.Set("code", w.Code)
		s.hide(o, "errorLabels", we.Labels)
		if len(w.Details) > 0 {
			if d, e := rawToD(w.Details); e == nil {
				s.hide(o, errInfoKey, d)
				_ = o.Set("errInfo", s.fromBSON(d))
			}
		}
		return o
	case errors.As(err, &we) && we.WriteConcernError != nil:
		o := s.jsError("MongoWriteConcernError", we.WriteConcernError.Message)
		_ = o.Set("code", we.WriteConcernError.Code)
		return o
	case errors.As(err, &bwe) && len(bwe.WriteErrors) > 0:
		w := bwe.WriteErrors[0]
		o := s.jsError("MongoBulkWriteError", w.Message)
		_ = o.Set("code", w.Code)
		return o
	case errors.As(err, &pce):
		// The Node driver's MongoPoolClearedError: the pool was emptied
		// after another operation's network error.
		msg := err.Error()
		return s.jsError("MongoPoolClearedError", strings.ToUpper(msg[:1])+msg[1:])
	case mongo.IsNetworkError(err):
		return s.jsError("MongoNetworkError", "connection to the server was lost: "+err.Error())
	case errors.As(err, &ce):
		o := s.jsError("MongoServerError", ce.Message)
		_ = o.Set("code", ce.Code)
		if ce.Name != "" {
			_ = o.Set("codeName", ce.Name)
		}
		// withTransaction retries on some of them, as the Node driver does.
		s.hide(o, "errorLabels", ce.Labels)
		return o
	case errors.Is(err, mongo.ErrClientDisconnected):
		return s.jsError("MongoNotConnectedError", "Client must be connected before running operations")
	}
	return s.jsError("MongoError", err.Error())
}

// noRetryableWrites is a write the server refused for its txnNumber, as
// a standalone refuses a transaction's writes.
type noRetryableWrites struct{ err error }

func (e noRetryableWrites) Error() string { return e.err.Error() }
func (e noRetryableWrites) Unwrap() error { return e.err }

// writeError marks the error of a write that a standalone refused for
// its transaction number: the Node driver rewords it
// (MMAPv1_RETRY_WRITES_ERROR_MESSAGE), and mongosh shows that.
func writeError(err error) error {
	var se mongo.ServerError
	if errors.As(err, &se) && se.HasErrorCodeWithMessage(int(mongoerr.IllegalOperation), "Transaction numbers") {
		return noRetryableWrites{err}
	}
	return err
}

// throwBulkError raises MongoBulkWriteError with the Node driver's
// BulkWriteResult and WriteError shapes, which mongosh prints in full.
// ids are the _ids of the inserts, by operation index; op gives the
// operation at an index as the driver sent it, each WriteError's op.
func (s *Shell) throwBulkError(bwe mongo.BulkWriteException, ids []any, op func(index int) any, ordered bool, res *mongo.BulkWriteResult) {
	w := bwe.WriteErrors[0]
	o := s.jsError("MongoBulkWriteError", w.Message)
	_ = o.Set("code", w.Code)
	failed := map[int]bool{}
	for _, e := range bwe.WriteErrors {
		failed[e.Index] = true
	}
	inserted := bson.D{}
	for i, id := range ids {
		if id == nil || failed[i] || (ordered && i >= w.Index) {
			continue
		}
		inserted = append(inserted, bson.E{Key: fmt.Sprint(i), Value: id})
	}
	upserted := bson.D{}
	for i, id := range res.UpsertedIDs {
		upserted = append(upserted, bson.E{Key: fmt.Sprint(i), Value: id})
	}
	result := Instance{Name: "BulkWriteResult", Doc: bson.D{
		{Key: "insertedCount", Value: int32(res.InsertedCount)},
		{Key: "matchedCount", Value: int32(res.MatchedCount)},
		{Key: "modifiedCount", Value: int32(res.ModifiedCount)},
		{Key: "deletedCount", Value: int32(res.DeletedCount)},
		{Key: "upsertedCount", Value: int32(res.UpsertedCount)},
		{Key: "upsertedIds", Value: upserted},
		{Key: "insertedIds", Value: inserted},
	}}
	var writeErrors bson.A
	for _, e := range bwe.WriteErrors {
		var errInfo any = bson.Undefined{}
		if len(e.Details) > 0 {
			if d, err := rawToD(e.Details); err == nil {
				errInfo = d
			}
		}
		writeErrors = append(writeErrors, Instance{Name: "WriteError", Doc: bson.D{{Key: "err", Value: bson.D{
			{Key: "index", Value: int32(e.Index)},
			{Key: "code", Value: int32(e.Code)},
			{Key: "errmsg", Value: e.Message},
			{Key: "errInfo", Value: errInfo},
			{Key: "op", Value: op(e.Index)},
		}}}})
	}
	s.hide(o, errResultKey, result)
	s.hide(o, errWriteErrorsKey, writeErrors)
	panic(o)
}

// describeError renders an evaluation error as mongosh's formatError does.
// It reads the thrown value's properties, which may run its getters: call
// it through describe.
func (s *Shell) describeError(err error, ctx context.Context) *EvalError {
	var ie *goja.InterruptedError
	var ex *goja.Exception
	var se *goja.StackOverflowError
	var syn *syntaxError
	var th *thrown
	if errors.As(err, &ie) {
		if u, ok := ie.Value().(*uncaught); ok {
			err = u.err
		}
	}
	if ctx.Err() != nil {
		// Whatever failed, it failed because the evaluation was stopped.
		err = errors.Join(ctx.Err(), err)
	}
	switch {
	case errors.Is(err, errCodeTooDeep):
		return &EvalError{Text: "RangeError: " + msgTooDeep, Name: "RangeError", err: err}
	case errors.As(err, &syn):
		return &EvalError{Text: "SyntaxError: " + syn.msg, Name: "SyntaxError", err: err}
	case errors.As(err, &ie) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
		var hle *HeapLimitError
		if errors.As(context.Cause(ctx), &hle) {
			return &EvalError{
				Text: "MongoshInterruptedError: " + hle.Error() + " and was interrupted; the shell was restarted to free it, so its variables are gone",
				Name: "MongoshInterruptedError", err: errors.Join(hle, err),
			}
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return &EvalError{
				Text: fmt.Sprintf("MongoshInterruptedError: execution exceeded the time limit of %s and was interrupted", s.opts.Timeout),
				Name: "MongoshInterruptedError", err: errors.Join(ErrTimeout, err),
			}
		}
		return &EvalError{Text: "MongoshInterruptedError: execution was interrupted", Name: "MongoshInterruptedError", err: err}
	case errors.As(err, &se):
		return &EvalError{Text: "RangeError: " + msgTooDeep, Name: "RangeError", err: err}
	case errors.As(err, &ex):
		return s.describeThrown(ex.Value(), err)
	case errors.As(err, &th):
		return s.describeThrown(th.v, err)
	}
	return &EvalError{Text: "Error: " + err.Error(), Name: "Error", err: err}
}

func (s *Shell) describeThrown(v goja.Value, err error) *EvalError {
	o, ok := v.(*goja.Object)
	if !ok || o.ClassName() != "Error" {
		// mongosh reports a thrown non-Error value as an Error with the
		// value as its message.
		result, _, _ := s.formats()
		text := "Error: " + formatPrintArg(s.display(v), result)
		return &EvalError{Text: text, Name: "Error", err: err}
	}
	name := o.Get("name").String()
	msg := v8Message(o.Get("message").String())
	ee := &EvalError{Name: name, err: err}
	if c := o.Get("code"); c != nil && !goja.IsUndefined(c) {
		ee.Code = int(c.ToInteger())
	}
	var sb strings.Builder
	sb.WriteString(name)
	if cn := o.Get("codeName"); cn != nil && !goja.IsUndefined(cn) && !goja.IsNull(cn) {
		sb.WriteString("[" + cn.String() + "]")
	}
	sb.WriteString(": ")
	sb.WriteString(msg)
	if info := o.Get(errInfoKey); info != nil && !goja.IsUndefined(info) {
		sb.WriteString("\nAdditional information: " + s.formatFull(info.Export()))
	}
	if r := o.Get(errResultKey); r != nil && !goja.IsUndefined(r) {
		sb.WriteString("\nResult: " + s.formatFull(r.Export()))
	}
	if we := o.Get(errWriteErrorsKey); we != nil && !goja.IsUndefined(we) {
		sb.WriteString("\nWrite Errors: " + s.formatFull(we.Export()))
	}
	ee.Text = sb.String()
	return ee
}

// scriptError is a Go error that a native throws as a JavaScript error of
// the given class (RangeError, BSONError, ...).
type scriptError struct{ class, msg string }

func (e *scriptError) Error() string { return e.msg }

// throwError throws err as a JavaScript error: of its own class if it is
// a scriptError, else of class.
func (s *Shell) throwError(class string, err error) {
	var se *scriptError
	if errors.As(err, &se) {
		class = se.class
	}
	s.throw(class, "%s", err.Error())
}

// syntaxError is a parse failure with its position in the whole script.
type syntaxError struct {
	msg  string
	line int // in the whole script; 0 if unknown
}

func (e *syntaxError) Error() string { return "SyntaxError: " + e.msg }

// thrown is a JS value thrown outside goja's own exception path (a
// rejected top-level promise, a failed shell command).
type thrown struct{ v goja.Value }

func (e *thrown) Error() string { return e.v.String() }

// goja words some TypeErrors differently from V8, which mongosh runs on.
var v8Messages = []struct {
	re   *regexp.Regexp
	repl string
}{
	{regexp.MustCompile(`^Cannot read property '(.*)' of (undefined|null)$`), "Cannot read properties of $2 (reading '$1')"},
	{regexp.MustCompile(`^Cannot set property '(.*)' of (undefined|null)$`), "Cannot set properties of $2 (setting '$1')"},
	{regexp.MustCompile(`^Value is not an object: (.*)$`), "Cannot convert $1 to object"},
	// A syntax error in code given to eval or a function constructor:
	// goja's message names the file and position, V8's only the error.
	{regexp.MustCompile(`^(?:SyntaxError: )?(?:<eval>|anonymous): Line \d+:\d+ (.*?)(?: \(and \d+ more errors\))?$`), "$1"},
}

func v8Message(msg string) string {
	for _, m := range v8Messages {
		if m.re.MatchString(msg) {
			msg = m.re.ReplaceAllString(msg, m.repl)
		}
	}
	return msg
}
