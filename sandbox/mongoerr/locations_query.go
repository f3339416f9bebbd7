package mongoerr

// Location codes of find's query options, raised with uassert or returned as a
// Status at one place each, named as in the other location files. Each comment cites
// the mongod source file (under src/mongo/db/query/).
const (
	ErrMinMaxNoHint            = 51173 // query_planner.cpp
	ErrMinMaxIndexIncompatible = 51174 // query_planner.cpp
	ErrMinMaxOrder             = 51175 // query_planner.cpp
	ErrMinMaxFieldNames        = 51176 // query_request_helper.cpp
)
