package query

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func bsonRegex(p string) bson.Regex { return bson.Regex{Pattern: p} }

func TestElement(t *testing.T) {
	runMatchCases(t, []matchCase{
		{"exists true", D{{Key: "a", Value: D{{Key: "$exists", Value: true}}}}, D{{Key: "a", Value: nil}}, true},
		{"exists true missing", D{{Key: "a", Value: D{{Key: "$exists", Value: true}}}}, D{{Key: "b", Value: int32(1)}}, false},
		{"exists false", D{{Key: "a", Value: D{{Key: "$exists", Value: false}}}}, D{{Key: "b", Value: int32(1)}}, true},
		{"exists false present null", D{{Key: "a", Value: D{{Key: "$exists", Value: false}}}}, D{{Key: "a", Value: nil}}, false},
		{"exists number truthy", D{{Key: "a", Value: D{{Key: "$exists", Value: int32(1)}}}}, D{{Key: "a", Value: int32(0)}}, true},
		{"exists empty array", D{{Key: "a", Value: D{{Key: "$exists", Value: true}}}}, D{{Key: "a", Value: A{}}}, true},
		{"exists dotted through array", D{{Key: "a.b", Value: D{{Key: "$exists", Value: true}}}}, D{{Key: "a", Value: A{D{{Key: "c", Value: int32(1)}}, D{{Key: "b", Value: int32(1)}}}}}, true},
		{"exists false dotted through scalar array", D{{Key: "a.b", Value: D{{Key: "$exists", Value: false}}}}, D{{Key: "a", Value: A{int32(1), int32(2)}}}, true},
		{"exists false dotted present in element", D{{Key: "a.b", Value: D{{Key: "$exists", Value: false}}}}, D{{Key: "a", Value: A{D{{Key: "b", Value: int32(1)}}}}}, false},
		{"type string", D{{Key: "zip", Value: D{{Key: "$type", Value: "string"}}}}, D{{Key: "zip", Value: "10019"}}, true},
		{"type number code", D{{Key: "zip", Value: D{{Key: "$type", Value: int32(2)}}}}, D{{Key: "zip", Value: "10019"}}, true},
		{"type double", D{{Key: "zip", Value: D{{Key: "$type", Value: "double"}}}}, D{{Key: "zip", Value: int32(1)}}, false},
		{"type number alias int", D{{Key: "zip", Value: D{{Key: "$type", Value: "number"}}}}, D{{Key: "zip", Value: int32(1)}}, true},
		{"type number alias decimal", D{{Key: "zip", Value: D{{Key: "$type", Value: "number"}}}}, D{{Key: "zip", Value: bson.NewDecimal128(0, 1)}}, true},
		{"type number alias string", D{{Key: "zip", Value: D{{Key: "$type", Value: "number"}}}}, D{{Key: "zip", Value: "1"}}, false},
		{"type array list", D{{Key: "zip", Value: D{{Key: "$type", Value: A{"string", "long"}}}}}, D{{Key: "zip", Value: int64(3)}}, true},
		{"type array of strings", D{{Key: "zip", Value: D{{Key: "$type", Value: "string"}}}}, D{{Key: "zip", Value: A{int32(1), "x"}}}, true},
		{"type array matches array", D{{Key: "zip", Value: D{{Key: "$type", Value: "array"}}}}, D{{Key: "zip", Value: A{}}}, true},
		{"type array not scalar", D{{Key: "zip", Value: D{{Key: "$type", Value: "array"}}}}, D{{Key: "zip", Value: int32(1)}}, false},
		{"type null", D{{Key: "a", Value: D{{Key: "$type", Value: "null"}}}}, D{{Key: "a", Value: nil}}, true},
		{"type null not missing", D{{Key: "a", Value: D{{Key: "$type", Value: "null"}}}}, D{}, false},
		{"type minKey", D{{Key: "a", Value: D{{Key: "$type", Value: int32(-1)}}}}, D{{Key: "a", Value: bson.MinKey{}}}, true},
		{"type maxKey", D{{Key: "a", Value: D{{Key: "$type", Value: "maxKey"}}}}, D{{Key: "a", Value: bson.MaxKey{}}}, true},
		{"mod", D{{Key: "qty", Value: D{{Key: "$mod", Value: A{int32(4), int32(0)}}}}}, D{{Key: "qty", Value: int32(12)}}, true},
		{"mod no", D{{Key: "qty", Value: D{{Key: "$mod", Value: A{int32(4), int32(0)}}}}}, D{{Key: "qty", Value: int32(21)}}, false},
		{"mod truncates double value", D{{Key: "qty", Value: D{{Key: "$mod", Value: A{int32(4), int32(0)}}}}}, D{{Key: "qty", Value: 12.9}}, true},
		{"mod truncates divisor", D{{Key: "qty", Value: D{{Key: "$mod", Value: A{4.5, int32(0)}}}}}, D{{Key: "qty", Value: int32(8)}}, true},
		{"mod negative", D{{Key: "qty", Value: D{{Key: "$mod", Value: A{int32(4), int32(-1)}}}}}, D{{Key: "qty", Value: int32(-5)}}, true},
		{"mod string", D{{Key: "qty", Value: D{{Key: "$mod", Value: A{int32(4), int32(0)}}}}}, D{{Key: "qty", Value: "12"}}, false},
		{"mod array element", D{{Key: "qty", Value: D{{Key: "$mod", Value: A{int32(4), int32(0)}}}}}, D{{Key: "qty", Value: A{int32(3), int32(8)}}}, true},
	})
}

func TestElementErrors(t *testing.T) {
	runErrCases(t, []errCase{
		{"type alias", D{{Key: "a", Value: D{{Key: "$type", Value: "foo"}}}}, mongoerr.BadValue, "Unknown type name alias: foo"},
		{"type code", D{{Key: "a", Value: D{{Key: "$type", Value: int32(100)}}}}, mongoerr.BadValue, "Invalid numerical type code: 100"},
		{"type fraction", D{{Key: "a", Value: D{{Key: "$type", Value: 2.5}}}}, mongoerr.BadValue, "Invalid numerical type code: 2.5"},
		{"type bool", D{{Key: "a", Value: D{{Key: "$type", Value: true}}}}, mongoerr.TypeMismatch, "type must be represented as a number or a string"},
		{"type empty", D{{Key: "a", Value: D{{Key: "$type", Value: A{}}}}}, mongoerr.FailedToParse, "a must match at least one type"},
		{"mod not array", D{{Key: "a", Value: D{{Key: "$mod", Value: int32(4)}}}}, mongoerr.BadValue, "malformed mod, needs to be an array"},
		{"mod empty", D{{Key: "a", Value: D{{Key: "$mod", Value: A{}}}}}, mongoerr.BadValue, "malformed mod, not enough elements"},
		{"mod one", D{{Key: "a", Value: D{{Key: "$mod", Value: A{int32(4)}}}}}, mongoerr.BadValue, "malformed mod, not enough elements"},
		{"mod three", D{{Key: "a", Value: D{{Key: "$mod", Value: A{int32(4), int32(1), int32(2)}}}}}, mongoerr.BadValue, "malformed mod, too many elements"},
		{"mod divisor", D{{Key: "a", Value: D{{Key: "$mod", Value: A{"x", int32(1)}}}}}, mongoerr.BadValue, "malformed mod, divisor not a number"},
		{"mod remainder", D{{Key: "a", Value: D{{Key: "$mod", Value: A{int32(4), "x"}}}}}, mongoerr.BadValue, "malformed mod, remainder not a number"},
		{"mod zero", D{{Key: "a", Value: D{{Key: "$mod", Value: A{int32(0), int32(1)}}}}}, mongoerr.BadValue, "divisor cannot be 0"},
	})
}
