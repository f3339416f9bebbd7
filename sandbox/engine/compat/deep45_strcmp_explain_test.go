package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/mongo"
)

// $replaceRoot/$replaceWith explain as DocumentSourceSingleDocumentTransformation
// serializes ReplaceRootTransformation after optimize: {$replaceRoot:
// {newRoot: <expression>}}, a literal as {$const: ...} and an object of
// constants folded into one (ExpressionObject::optimize).
func TestDeep45StrcmpReplaceRootExplain(t *testing.T) {
	ref := d45ReplaceCpp + " (serializeTransformation); " + exprCpp + " (ExpressionObject::optimize)"
	s := newSuite(t)
	for _, tc := range []struct{ name, stage, want string }{
		{"an object with a literal and a path", `{"$replaceWith": {"a": 1, "b": "$x"}}`, `{"$replaceRoot": {"newRoot": {"a": {"$const": 1}, "b": "$x"}}}`},
		{"an object of constants", `{"$replaceWith": {"a": 1}}`, `{"$replaceRoot": {"newRoot": {"$const": {"a": 1}}}}`},
		{"an operator over a constant object", `{"$replaceWith": {"$mergeObjects": ["$$ROOT", {"z": 1}]}}`,
			`{"$replaceRoot": {"newRoot": {"$mergeObjects": ["$$ROOT", {"$const": {"z": 1}}]}}}`},
		{"a path", `{"$replaceRoot": {"newRoot": "$a"}}`, `{"$replaceRoot": {"newRoot": "$a"}}`},
	} {
		s.runCase(t, tc.name, ref, cover{family: stage, op: "$replaceRoot", col: explain}, func(t *testing.T, db *mongo.Database) {
			insertDocs(t, db.Collection("c"), `[{"_id": 1, "a": {"b": 1}}]`)
			reply := aggExplain(t, db, `[{"$_internalInhibitOptimization": {}}, `+tc.stage+`]`, "queryPlanner")
			sameValue(t, tc.stage, lastStage(t, reply), tc.want)
		})
	}
}
