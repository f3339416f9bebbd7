package query

import (
	"github.com/schemalab/schemalab/sandbox/engine/mongoerr"
	"github.com/schemalab/schemalab/sandbox/engine/value"
)

// ParseNonNegativeLong is BSONElement::parseIntegerElementToNonNegativeLong,
// which the $jsonSchema length and count keywords share with the query
// operators.
func ParseNonNegativeLong(name string, v any) (int64, error) {
	n, err := parseIntegerElementToLong(name, v)
	if err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, mongoerr.New(mongoerr.FailedToParse, "Expected a positive number in: "+value.FormatElem(name, v))
	}
	return n, nil
}
