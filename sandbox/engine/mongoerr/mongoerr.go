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

// CodeName is mongod's name for the error code.
func (e *Error) CodeName() string { return CodeName(e.Code) }

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

// Error codes used by the engine (src/mongo/base/error_codes.yml).
const (
	InternalError                   = 1
	BadValue                        = 2
	NoSuchKey                       = 4
	FailedToParse                   = 9
	Unauthorized                    = 13
	TypeMismatch                    = 14
	Overflow                        = 15
	InvalidLength                   = 16
	IllegalOperation                = 20
	NamespaceNotFound               = 26
	IndexNotFound                   = 27
	PathNotViable                   = 28
	ConflictingUpdateOperators      = 40
	CursorNotFound                  = 43
	NamespaceExists                 = 48
	MaxTimeMSExpired                = 50
	DollarPrefixedFieldName         = 52
	InvalidIdField                  = 53
	NotSingleValueField             = 54
	EmptyFieldName                  = 56
	DottedFieldName                 = 57
	CommandNotFound                 = 59
	ImmutableField                  = 66
	CannotCreateIndex               = 67
	IndexAlreadyExists              = 68
	InvalidOptions                  = 72
	InvalidNamespace                = 73
	IndexOptionsConflict            = 85
	IndexKeySpecsConflict           = 86
	NotImplemented                  = 238
	OperationFailed                 = 96
	ProtocolError                   = 17
	InvalidPipelineOperator         = 168
	CommandNotSupported             = 115
	ConversionFailure               = 241
	QueryFeatureNotAllowed          = 224
	NoQueryExecutionPlans           = 291
	InvalidIndexSpecificationOption = 197
	DuplicateKey                    = 11000
	BSONObjectTooLarge              = 10334
	Location16755                   = 16755
	Location17124                   = 17124
	Location40324                   = 40324
	NamespaceNotSharded             = 118
	Interrupted                     = 11601
	UnknownError                    = 8
	CannotIndexParallelArrays       = 171
	Location15998                   = 15998
	Location16410                   = 16410
	UnrecognizedCommandField        = 40415
	InvalidDBRef                    = 10
	Location51024                   = 51024
)

var codeNames = map[int32]string{
	InternalError:                   "InternalError",
	BadValue:                        "BadValue",
	NoSuchKey:                       "NoSuchKey",
	FailedToParse:                   "FailedToParse",
	Unauthorized:                    "Unauthorized",
	TypeMismatch:                    "TypeMismatch",
	Overflow:                        "Overflow",
	InvalidLength:                   "InvalidLength",
	IllegalOperation:                "IllegalOperation",
	NamespaceNotFound:               "NamespaceNotFound",
	IndexNotFound:                   "IndexNotFound",
	PathNotViable:                   "PathNotViable",
	ConflictingUpdateOperators:      "ConflictingUpdateOperators",
	CursorNotFound:                  "CursorNotFound",
	NamespaceExists:                 "NamespaceExists",
	MaxTimeMSExpired:                "MaxTimeMSExpired",
	DollarPrefixedFieldName:         "DollarPrefixedFieldName",
	InvalidIdField:                  "InvalidIdField",
	NotSingleValueField:             "NotSingleValueField",
	EmptyFieldName:                  "EmptyFieldName",
	DottedFieldName:                 "DottedFieldName",
	CommandNotFound:                 "CommandNotFound",
	ImmutableField:                  "ImmutableField",
	CannotCreateIndex:               "CannotCreateIndex",
	IndexAlreadyExists:              "IndexAlreadyExists",
	InvalidOptions:                  "InvalidOptions",
	InvalidNamespace:                "InvalidNamespace",
	IndexOptionsConflict:            "IndexOptionsConflict",
	IndexKeySpecsConflict:           "IndexKeySpecsConflict",
	NotImplemented:                  "NotImplemented",
	OperationFailed:                 "OperationFailed",
	ProtocolError:                   "ProtocolError",
	InvalidPipelineOperator:         "InvalidPipelineOperator",
	CommandNotSupported:             "CommandNotSupported",
	ConversionFailure:               "ConversionFailure",
	QueryFeatureNotAllowed:          "QueryFeatureNotAllowed",
	NoQueryExecutionPlans:           "NoQueryExecutionPlans",
	InvalidIndexSpecificationOption: "InvalidIndexSpecificationOption",
	DuplicateKey:                    "DuplicateKey",
	BSONObjectTooLarge:              "BSONObjectTooLarge",
	NamespaceNotSharded:             "NamespaceNotSharded",
	Interrupted:                     "Interrupted",
	UnknownError:                    "UnknownError",
	CannotIndexParallelArrays:       "CannotIndexParallelArrays",
	InvalidDBRef:                    "InvalidDBRef",
	181:                             "AmbiguousIndexKeyPattern",
	13113:                           "MergeStageNoMatchingDocument",
	11602:                           "InterruptedDueToReplStateChange",
	262:                             "ExceededTimeLimit",
	146:                             "ExceededMemoryLimit",
	160:                             "CannotBackfillArray",
	202:                             "NetworkInterfaceExceededTimeLimit",
	6:                               "HostUnreachable",
	7:                               "HostNotFound",
	89:                              "NetworkTimeout",
	263:                             "OperationNotSupportedInTransaction",
	5:                               "GraphContainsCycle",
	30:                              "InvalidPath",
	31:                              "RoleNotFound",
	34:                              "DBPathInUse",
	38:                              "CannotGrowDocumentInCappedNamespace",
}

// CodeName returns mongod's codeName. Codes without a name in
// error_codes.yml are "Location<code>", as mongod reports them.
func CodeName(code int32) string {
	if n, ok := codeNames[code]; ok {
		return n
	}
	return fmt.Sprintf("Location%d", code)
}
