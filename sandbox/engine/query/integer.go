package query

import (
	"github.com/schemalab/schemalab/sandbox/engine/value"
	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// ParseNonNegativeLong is BSONElement::parseIntegerElementToNonNegativeLong,
// which the $jsonSchema length and count keywords share with the query
// operators.
func ParseNonNegativeLong(name string, v any) (int64, error) {
	n, reason := value.ParseIntegerElementToNonNegativeLong(name, v)
	if reason != "" {
		return 0, mongoerr.New(mongoerr.FailedToParse, reason)
	}
	return n, nil
}

// CompareValues is a comparison operator ($eq, $gt, $gte, $lt, $lte)
// between a value and an argument with the query rules (type brackets,
// null and NaN), for callers that already hold the value at the path.
func CompareValues(op string, v, rhs any) bool { return compareValues(op, v, rhs) }
