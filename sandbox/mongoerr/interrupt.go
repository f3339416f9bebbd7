package mongoerr

import (
	"context"
	"errors"
)

// FromContext is the error mongod reports for an operation interrupted
// the way ctx was, or nil while ctx is live. A context cancelled with a
// server error as its cause (InterruptedAtShutdown when the server stops,
// CursorKilled, MaxTimeMSExpired for a maxTimeMS deadline) reports that
// error; any other deadline is MaxTimeMSExpired and any other
// cancellation Interrupted, with OperationContext::checkForInterrupt's
// messages.
func FromContext(ctx context.Context) *Error {
	err := ctx.Err()
	if err == nil {
		return nil
	}
	var me *Error
	if errors.As(context.Cause(ctx), &me) {
		return me
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return New(MaxTimeMSExpired, "operation exceeded time limit")
	}
	return New(Interrupted, "operation was interrupted")
}
