package mongoerr

// Location codes of the value conversions and limits: mongod raises them with uassert at
// one place each, named here FerretDB style, Err + what went wrong. Each
// comment cites the mongod source file that raises it (under
// src/mongo/db/pipeline/, src/mongo/db/exec/expression/ or as given).
const (
	ErrCoerceToIntFailed      = 16003 // value.cpp
	ErrCoerceToIntOutOfRange  = 31108 // value.cpp
	ErrCoerceToLongFailed     = 16004 // value.cpp
	ErrCoerceToLongOutOfRange = 31109 // value.cpp
	ErrStringTooLong          = 16493 // bsonobjbuilder.h
)
