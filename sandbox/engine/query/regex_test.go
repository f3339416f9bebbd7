package query

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

func TestRegex(t *testing.T) {
	sku := func(s string) D { return D{{Key: "sku", Value: s}} }
	runMatchCases(t, []matchCase{
		// Manual $regex examples.
		{"like", D{{Key: "sku", Value: D{{Key: "$regex", Value: "789$"}}}}, sku("abc789"), true},
		{"case sensitive", D{{Key: "sku", Value: D{{Key: "$regex", Value: "^ABC"}}}}, sku("abc789"), false},
		{"option i", D{{Key: "sku", Value: D{{Key: "$regex", Value: "^ABC"}, {Key: "$options", Value: "i"}}}}, sku("abc789"), true},
		{"options before regex", D{{Key: "sku", Value: D{{Key: "$options", Value: "i"}, {Key: "$regex", Value: "^ABC"}}}}, sku("abc789"), true},
		{"bson regex value", D{{Key: "sku", Value: bson.Regex{Pattern: "^ABC", Options: "i"}}}, sku("abc789"), true},
		{"$regex with bson regex", D{{Key: "sku", Value: D{{Key: "$regex", Value: bson.Regex{Pattern: "^ABC", Options: "i"}}}}}, sku("abc789"), true},
		{"no m: ^ only at start", D{{Key: "d", Value: D{{Key: "$regex", Value: "^S"}}}}, D{{Key: "d", Value: "First line\nSecond line"}}, false},
		{"m: ^ at line start", D{{Key: "d", Value: D{{Key: "$regex", Value: "^S"}, {Key: "$options", Value: "m"}}}}, D{{Key: "d", Value: "First line\nSecond line"}}, true},
		{"no s: dot stops at newline", D{{Key: "d", Value: D{{Key: "$regex", Value: "m.*line"}}}}, D{{Key: "d", Value: "Multiple\nline"}}, false},
		{"s: dot all", D{{Key: "d", Value: D{{Key: "$regex", Value: "m.*line"}, {Key: "$options", Value: "si"}}}}, D{{Key: "d", Value: "Multiple\nline"}}, true},
		{"x: ignore whitespace and comments", D{{Key: "sku", Value: D{{Key: "$regex", Value: "abc #category code\n123 #item number"}, {Key: "$options", Value: "x"}}}}, sku("abc123"), true},
		{"array element", D{{Key: "tags", Value: bsonRegex("^sch")}}, D{{Key: "tags", Value: A{"home", "school"}}}, true},
		{"not number", D{{Key: "n", Value: bsonRegex("1")}}, D{{Key: "n", Value: int32(1)}}, false},
		{"symbol", D{{Key: "s", Value: bsonRegex("^a")}}, D{{Key: "s", Value: bson.Symbol("abc")}}, true},
		{"regex equal to stored regex", D{{Key: "r", Value: bsonRegex("a")}}, D{{Key: "r", Value: bson.Regex{Pattern: "a"}}}, true},
		{"regex differing flags", D{{Key: "r", Value: bsonRegex("a")}}, D{{Key: "r", Value: bson.Regex{Pattern: "a", Options: "i"}}}, false},
		{"unanchored", D{{Key: "s", Value: bsonRegex("b")}}, D{{Key: "s", Value: "abc"}}, true},
	})
}

func TestRegexErrors(t *testing.T) {
	runErrCases(t, []errCase{
		{"regex not string", D{{Key: "a", Value: D{{Key: "$regex", Value: int32(1)}}}}, mongoerr.BadValue, "$regex has to be a string"},
		{"options not string", D{{Key: "a", Value: D{{Key: "$regex", Value: "x"}, {Key: "$options", Value: int32(1)}}}}, mongoerr.BadValue, "$options has to be a string"},
		{"options alone", D{{Key: "a", Value: D{{Key: "$options", Value: "i"}}}}, mongoerr.BadValue, "$options needs a $regex"},
		{"options twice", D{{Key: "a", Value: D{{Key: "$regex", Value: bson.Regex{Pattern: "x", Options: "i"}}, {Key: "$options", Value: "m"}}}}, 51075, "options set in both $regex and $options"},
		{"bad flag", D{{Key: "a", Value: D{{Key: "$regex", Value: "x"}, {Key: "$options", Value: "z"}}}}, 51108, " invalid flag in regex options: z"},
		{"bad pattern", D{{Key: "a", Value: D{{Key: "$regex", Value: "a("}}}}, 51091, "Regular expression is invalid: missing closing parenthesis"},
	})
}
