package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Deep sweep 45 (upd): the storage validation of a new _id by an update.
// Since SERVER-75880 (7.1) a $-prefixed field name at any depth of an _id
// document is refused, and a replacement's new document is validated
// before its _id is compared with the old one (object_replace_executor.cpp
// applyReplacementUpdate: scanDocument, then the immutable paths). The
// message of the nested refusal changed with that fix, so these cases
// check the code only.
const upd45IDRef = "the SERVER-75880 jstest (requires_fcv_71: _id with a deep nested $-prefixed field); src/mongo/db/update/object_replace_executor.cpp; src/mongo/db/update/storage_validation.cpp (scanDocument)"

const upd45ReplRef = "src/mongo/db/update/object_replace_executor.cpp (applyReplacementUpdate); src/mongo/db/update/storage_validation.cpp (validateDollarPrefixElement); jstests/core/field_name_validation.js"

func TestDeep45UpdID(t *testing.T) {
	doc := `[{"_id":0,"a":1}]`
	runUpdateCases(t, []updateCase{
		{name: "a replacement with a nested $ field in a new _id", ref: upd45IDRef, cov: cover{family: update, op: "replacement", col: errorCol}, docs: doc, filter: `{"_id":0}`,
			update: `{"_id":{"a":{"$b":1}}}`, code: mongoerr.DollarPrefixedFieldName},
		{name: "a replacement with an array _id is refused before it is compared", ref: upd45IDRef, cov: cover{family: update, op: "replacement", col: errorCol}, docs: doc, filter: `{"_id":0}`,
			update: `{"_id":[1],"a":2}`, code: mongoerr.InvalidIdField, msg: "The '_id' value cannot be of type array"},
		{name: "an upsert $set of an _id with a nested $ field", ref: upd45IDRef, cov: cover{family: update, op: "$set", col: errorCol}, docs: doc, filter: `{"x":1}`, upsert: true,
			update: `{"$set":{"_id":{"a":{"$b":1}}}}`, code: mongoerr.DollarPrefixedFieldName},
		{name: "an upsert $setOnInsert of an _id with a $ field in an array", ref: upd45IDRef, cov: cover{family: update, op: "$setOnInsert", col: errorCol}, docs: doc, filter: `{"x":1}`, upsert: true,
			update: `{"$setOnInsert":{"_id":{"a":[{"$b":1}]}}}`, code: mongoerr.DollarPrefixedFieldName},
		{name: "a replacement upsert whose query seeds a nested $ field in _id", ref: upd45IDRef, cov: cover{family: update, op: "replacement", col: errorCol}, docs: doc, filter: `{"_id":{"a":{"$b":1}}}`, upsert: true,
			update: `{"_id":{"a":{"$b":1}}}`, code: mongoerr.DollarPrefixedFieldName},
		{name: "an upsert whose query seeds a nested $ field in _id", ref: upd45IDRef, cov: cover{family: update, op: "$set", col: errorCol}, docs: doc, filter: `{"_id.a.$b":1}`, upsert: true,
			update: `{"$set":{"x":1}}`, code: mongoerr.DollarPrefixedFieldName},
		{name: "a replacement upsert whose query names a path under _id", ref: upd45IDRef, cov: cover{family: update, op: "replacement", col: errorCol}, docs: doc, filter: `{"_id.a.$b":1}`, upsert: true,
			update: `{"_id":{"a":{"$b":1}}}`, code: mongoerr.NotExactValueField},
		{name: "a pipeline replacing the document with a nested $ field in _id", ref: upd45IDRef, cov: cover{family: update, op: "pipeline", col: errorCol}, docs: doc, filter: `{"_id":0}`,
			update: `[{"$replaceWith":{"$literal":{"_id":{"a":{"$b":1}}}}}]`, code: mongoerr.DollarPrefixedFieldName},
		// Top-level $-prefixed names in a replacement are checked when it
		// is applied, by the DBRef rules of validateDollarPrefixElement.
		{name: "a replacement with a top-level $ field that matches nothing", ref: upd45ReplRef, cov: cover{family: update, op: "replacement", col: semantics}, docs: doc, filter: `{"_id":9}`,
			update: `{"a":2,"$x":1}`, want: doc, modified: `0`},
		{name: "a replacement with a top-level $ field", ref: upd45ReplRef, cov: cover{family: update, op: "replacement", col: errorCol}, docs: doc, filter: `{"_id":0}`,
			update: `{"a":2,"$x":1}`, code: mongoerr.DollarPrefixedFieldName,
			msg: "The dollar ($) prefixed field '$x' in '$x' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith."},
		{name: "a replacement with a top-level DBRef", ref: upd45ReplRef, cov: cover{family: update, op: "replacement", col: semantics}, docs: doc, filter: `{"_id":0}`,
			update: `{"a":2,"$ref":"c","$id":1,"$db":"d"}`, want: `[{"_id":0,"a":2,"$ref":"c","$id":1,"$db":"d"}]`, modified: `1`},
		{name: "a replacement with a numeric $ref", ref: upd45ReplRef, cov: cover{family: update, op: "replacement", col: errorCol}, docs: doc, filter: `{"_id":0}`,
			update: `{"_id":0,"$ref":1,"$id":1}`, code: mongoerr.InvalidDBRef, msg: "The DBRef $ref field must be a String, not a int"},
		{name: "a replacement with $id before $ref", ref: upd45ReplRef, cov: cover{family: update, op: "replacement", col: errorCol}, docs: doc, filter: `{"_id":0}`,
			update: `{"$id":1,"$ref":"c"}`, code: mongoerr.FailedToParse},
		{name: "a replacement with $id after another field", ref: upd45ReplRef, cov: cover{family: update, op: "replacement", col: errorCol}, docs: doc, filter: `{"_id":0}`,
			update: `{"a":1,"$id":1}`, code: mongoerr.InvalidDBRef, msg: "Found $id field without a $ref before it, which is invalid."},
		{name: "a multi replacement with a $ field is refused as multi", ref: upd45ReplRef, cov: cover{family: update, op: "replacement", col: errorCol}, docs: doc, filter: `{"_id":0}`, multi: true,
			update: `{"a":1,"$x":1}`, code: mongoerr.FailedToParse, msg: "multi update is not supported for replacement-style update"},
		{name: "a nested $ field outside _id is stored", ref: upd45IDRef, cov: cover{family: update, op: "replacement", col: semantics}, docs: doc, filter: `{"_id":0}`,
			update: `{"a":{"$b":1}}`, want: `[{"_id":0,"a":{"$b":1}}]`, modified: `1`},
	})
}
