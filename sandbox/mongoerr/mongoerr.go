// Package mongoerr holds MongoDB server errors: a numeric code, its
// codeName and mongod's message, so that every layer can fail exactly the
// way mongod fails and the wire layer can render {ok: 0, errmsg, code,
// codeName}.
package mongoerr

import (
	"fmt"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// Error is a MongoDB server error. Extra holds additional reply fields that
// mongod sends with some errors (keyPattern and keyValue for E11000).
type Error struct {
	Code  int32
	Msg   string
	Extra bson.D
}

func (e *Error) Error() string { return e.Msg }

// CodeName is mongod's name for the error code (Atlas's for AtlasError).
func (e *Error) CodeName() string {
	if e.Code == AtlasError {
		return "AtlasError"
	}
	return CodeName(e.Code)
}

// AtlasError is the code Atlas answers a write with when a shared
// cluster has no space left for it ("you are over your space quota"); the
// embedded server's per-student storage quota fails the same way. It is
// not one of mongod's codes, so error_codes.yml does not name it.
const AtlasError int32 = 8000

// New builds an error with mongod's code and message.
func New(code int32, msg string) *Error { return &Error{Code: code, Msg: msg} }

// Newf builds an error with a formatted message.
func Newf(code int32, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...)}
}

// As converts any error into a *Error; non-MongoDB errors become
// InternalError so that nothing un-shaped reaches a client.
func As(err error) *Error {
	if err == nil {
		return nil
	}
	if me, ok := err.(*Error); ok {
		return me
	}
	return &Error{Code: InternalError, Msg: err.Error()}
}

// codes_generated.go holds mongod's named codes; regenerate it from a
// checkout of mongod with
//
//go:generate go run ./internal/gencodes -in $MONGO_SRC/src/mongo/base/error_codes.yml -out codes_generated.go
