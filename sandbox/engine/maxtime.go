package engine

import (
	"math"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// errMaxTimeMSExpired is the cause of a command context whose maxTimeMS
// ran out, and so the error every interrupted loop reports for it.
var errMaxTimeMSExpired = mongoerr.New(mongoerr.MaxTimeMSExpired, "operation exceeded time limit")

// maxTimeIDL is maxTimeMS as a command's own IDL declares it (a
// safeInt64): a non-number fails there with TypeMismatch, named after the
// command's IDL struct, before the generic check; find and aggregate also
// validate it as >= 0. Commands without one only have the generic check,
// which calls any non-number "maxTimeMS must be a number".
type maxTimeIDL struct {
	nonNegative bool
}

// parseMaxTimeMS reads a command's maxTimeMS the way mongod does: its
// command's IDL first (idl, nil when it has none), then parseMaxTimeMS of the service entry
// point, which wants a number in [0, 2147483647] and, for a double, a whole
// one. Absent or 0 means no limit.
func parseMaxTimeMS(req *request, idl *maxTimeIDL) (time.Duration, error) {
	a := newArgs(req)
	v, ok := a.get("maxTimeMS")
	if !ok {
		return 0, nil
	}
	if idl != nil && v != nil {
		n, isNum := value.SafeNumberLong(v)
		if !isNum {
			return 0, a.wrongType("maxTimeMS", v, "types '[long, int, decimal, double']")
		}
		if idl.nonNegative && n < 0 {
			return 0, mongoerr.Newf(51024, "BSON field 'maxTimeMS' value must be >= 0, actual value '%d'", n)
		}
	}
	n, isNum := value.SafeNumberLong(v)
	if !isNum {
		return 0, mongoerr.New(mongoerr.BadValue, "maxTimeMS must be a number")
	}
	if n < 0 || n > math.MaxInt32 {
		return 0, mongoerr.Newf(mongoerr.BadValue, "%d value for maxTimeMS is out of range [0, %d]", n, math.MaxInt32)
	}
	if f, isDouble := v.(float64); isDouble && math.Floor(f) != f {
		return 0, mongoerr.New(mongoerr.BadValue, "maxTimeMS has non-integral value")
	}
	return time.Duration(n) * time.Millisecond, nil
}

// hasMaxTimeMS reports whether the command sets maxTimeMS (getMore's
// own is validated against its cursor).
func hasMaxTimeMS(cmd bson.D) bool { return !value.IsMissing(value.Get(cmd, "maxTimeMS")) }

// isInterruption is ErrorCodes::isInterruption for the interruptions the
// embedded server produces.
func isInterruption(err error) bool {
	me, ok := err.(*mongoerr.Error)
	if !ok {
		return false
	}
	switch me.Code {
	case mongoerr.MaxTimeMSExpired, mongoerr.Interrupted, mongoerr.InterruptedAtShutdown, mongoerr.CursorKilled:
		return true
	}
	return false
}
