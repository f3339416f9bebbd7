package query

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func TestLogical(t *testing.T) {
	doc := D{{Key: "qty", Value: int32(10)}, {Key: "price", Value: 1.99}, {Key: "sale", Value: true}}
	runMatchCases(t, []matchCase{
		{"implicit and", D{{Key: "qty", Value: int32(10)}, {Key: "sale", Value: true}}, doc, true},
		{"implicit and fails", D{{Key: "qty", Value: int32(10)}, {Key: "sale", Value: false}}, doc, false},
		{"and", D{{Key: "$and", Value: A{D{{Key: "price", Value: D{{Key: "$ne", Value: 1.99}}}}, D{{Key: "price", Value: D{{Key: "$exists", Value: true}}}}}}}, doc, false},
		{"and same field", D{{Key: "$and", Value: A{D{{Key: "qty", Value: D{{Key: "$gt", Value: int32(5)}}}}, D{{Key: "qty", Value: D{{Key: "$lt", Value: int32(20)}}}}}}}, doc, true},
		{"or", D{{Key: "$or", Value: A{D{{Key: "quantity", Value: D{{Key: "$lt", Value: int32(20)}}}}, D{{Key: "price", Value: int32(10)}}}}}, doc, false},
		{"or one branch", D{{Key: "$or", Value: A{D{{Key: "qty", Value: D{{Key: "$lt", Value: int32(20)}}}}, D{{Key: "price", Value: int32(10)}}}}}, doc, true},
		{"nor both false", D{{Key: "$nor", Value: A{D{{Key: "price", Value: 1.5}}, D{{Key: "sale", Value: false}}}}}, doc, true},
		{"nor one true", D{{Key: "$nor", Value: A{D{{Key: "price", Value: 1.99}}, D{{Key: "sale", Value: false}}}}}, doc, false},
		{"nor missing fields", D{{Key: "$nor", Value: A{D{{Key: "x", Value: int32(1)}}}}}, doc, true},
		{"not gt", D{{Key: "price", Value: D{{Key: "$not", Value: D{{Key: "$gt", Value: 1.99}}}}}}, doc, true},
		{"not gt missing field matches", D{{Key: "price", Value: D{{Key: "$not", Value: D{{Key: "$gt", Value: 1.99}}}}}}, D{}, true},
		{"not regex", D{{Key: "item", Value: D{{Key: "$not", Value: bsonRegex("^p.*")}}}}, D{{Key: "item", Value: "pen"}}, false},
		{"not regex other", D{{Key: "item", Value: D{{Key: "$not", Value: bsonRegex("^p.*")}}}}, D{{Key: "item", Value: "ink"}}, true},
		{"not $regex", D{{Key: "item", Value: D{{Key: "$not", Value: D{{Key: "$regex", Value: "^p.*"}}}}}}, D{{Key: "item", Value: "ink"}}, true},
		{"not two ops", D{{Key: "qty", Value: D{{Key: "$not", Value: D{{Key: "$gt", Value: int32(5)}, {Key: "$lt", Value: int32(20)}}}}}}, doc, false},
		{"comment ignored", D{{Key: "qty", Value: int32(10)}, {Key: "$comment", Value: "hello"}}, doc, true},
		{"empty filter", D{}, doc, true},
		{"only comment", D{{Key: "$comment", Value: "x"}}, doc, true},
		{"alwaysFalse", D{{Key: "$alwaysFalse", Value: int32(1)}}, doc, false},
		{"alwaysTrue", D{{Key: "$alwaysTrue", Value: int32(1)}}, doc, true},
	})
}

func TestLogicalErrors(t *testing.T) {
	runErrCases(t, []errCase{
		{"and not array", D{{Key: "$and", Value: D{{Key: "a", Value: int32(1)}}}}, mongoerr.BadValue, "$and must be an array"},
		{"or empty", D{{Key: "$or", Value: A{}}}, mongoerr.BadValue, "$and/$or/$nor must be a nonempty array"},
		{"nor entry", D{{Key: "$nor", Value: A{int32(1)}}}, mongoerr.BadValue, "$or/$and/$nor entries need to be full objects"},
		{"unknown top", D{{Key: "$foo", Value: int32(1)}}, mongoerr.BadValue, "unknown top level operator: $foo. If you have a field name that starts with a '$' symbol, consider using $getField or $setField."},
		{"not scalar", D{{Key: "a", Value: D{{Key: "$not", Value: int32(1)}}}}, mongoerr.BadValue, "$not needs a regex or a document"},
		{"not empty", D{{Key: "a", Value: D{{Key: "$not", Value: D{}}}}}, mongoerr.BadValue, "$not cannot be empty"},
		{"not field", D{{Key: "a", Value: D{{Key: "$not", Value: D{{Key: "b", Value: int32(1)}}}}}}, mongoerr.BadValue, "unknown operator: b"},
		{"where in field", D{{Key: "a", Value: D{{Key: "$where", Value: "x"}}}}, mongoerr.BadValue, "$where cannot be applied to a field"},
		{"alwaysTrue 2", D{{Key: "$alwaysTrue", Value: int32(2)}}, mongoerr.FailedToParse, "$alwaysTrue must be an integer value of 1"},
		{"text without index", D{{Key: "$text", Value: D{{Key: "$search", Value: "x"}}}}, mongoerr.IndexNotFound, "text index required for $text query"},
	})
}
