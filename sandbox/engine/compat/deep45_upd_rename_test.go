package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// Deep sweep 45 (upd): $rename against mongod's RenameNode
// (src/mongo/db/update/rename_node.cpp): init refuses a null byte in the
// target, equal or nested paths and positional paths; apply finds the
// source (findLongestPrefix: a path through a scalar or an array by name
// is PathNotViable), refuses sources and targets inside arrays, then sets
// the target with a SetElementNode that never reports a no-op and removes
// the source with an UnsetNode, each checking the immutable _id
// (modifier_node.cpp checkImmutablePathsNotModified).
const upd45RenameRef = "src/mongo/db/update/rename_node.cpp (init, apply, SetElementNode); src/mongo/db/update/rename_node_test.cpp; src/mongo/db/update/modifier_node.cpp; jstests/core/write/update/rename_operator.js"

func TestDeep45UpdRename(t *testing.T) {
	one := func(doc string) string { return `[{"_id":1,` + doc + `}]` }
	sem, errs := cover{family: update, op: "$rename", col: semantics}, cover{family: update, op: "$rename", col: errorCol}
	ty := cover{family: update, op: "$rename", col: types}
	runUpdateCases(t, []updateCase{
		{name: "$rename _id away", ref: upd45RenameRef, cov: errs, docs: one(`"a":1`), update: `{"$rename":{"_id":"x"}}`,
			code: mongoerr.ImmutableField, msg: "Performing an update on the path '_id' would modify the immutable field '_id'"},
		{name: "$rename a field under _id away", ref: upd45RenameRef, cov: errs, docs: `[{"_id":{"x":1},"a":1}]`, filter: `{"_id":{"x":1}}`, update: `{"$rename":{"_id.x":"y"}}`,
			code: mongoerr.ImmutableField, msg: "Performing an update on the path '_id.x' would modify the immutable field '_id'"},
		// SetElementNode writes the target even when it holds the same
		// value, so renaming onto an equal _id still changes _id.
		{name: "$rename onto an _id of the same value", ref: upd45RenameRef, cov: errs, docs: one(`"a":1`), update: `{"$rename":{"a":"_id"}}`,
			code: mongoerr.ImmutableField, msg: "Performing an update on the path '_id' would modify the immutable field '_id'"},
		// The target is set before the source is removed: a new field
		// under _id fails as a created field, before the source's check.
		{name: "$rename within _id fails on the target first", ref: upd45RenameRef, cov: errs, docs: `[{"_id":{"a":1}}]`, filter: `{"_id":{"a":1}}`, update: `{"$rename":{"_id.a":"_id.b"}}`,
			code: mongoerr.ImmutableField, msg: "Updating the path '_id' to _id: { a: 1 } would modify the immutable field '_id'"},
		{name: "$rename to a name with a null byte", ref: upd45RenameRef, cov: errs, docs: one(`"a":1`), update: `{"$rename":{"a":"b\u0000c"}}`,
			code: mongoerr.BadValue, msg: "The 'to' field for $rename cannot contain an embedded null byte"},
		{name: "$rename to a parent path", ref: upd45RenameRef, cov: errs, docs: one(`"a":{"b":1}`), update: `{"$rename":{"a.b":"a"}}`,
			code: mongoerr.BadValue, msg: "The source and target field for $rename must not be on the same path: a.b: \"a\""},
		{name: "$rename from a positional path", ref: upd45RenameRef, cov: errs, docs: one(`"a":[1]`), update: `{"$rename":{"a.$[]":"b"}}`,
			code: mongoerr.BadValue, msg: "The source field for $rename may not be dynamic: a.$[]"},
		// The source gets a placeholder node parsed like any modifier's
		// path: its positional checks and array filter lookups come first.
		{name: "$rename from a path starting with $", ref: upd45RenameRef, cov: errs, docs: one(`"a":1`), update: `{"$rename":{"$":"b"}}`,
			code: mongoerr.BadValue, msg: "Cannot have positional (i.e. '$') element in the first position in path '$'"},
		{name: "$rename from a path with two $", ref: upd45RenameRef, cov: errs, docs: one(`"a":1`), update: `{"$rename":{"a.$.$":"b"}}`,
			code: mongoerr.BadValue, msg: "Too many positional (i.e. '$') elements found in path 'a.$.$'"},
		{name: "$rename from an unknown array filter", ref: upd45RenameRef, cov: errs, docs: one(`"a":1`), update: `{"$rename":{"a.$[x]":"b"}}`,
			code: mongoerr.BadValue, msg: "No array filter found for identifier 'x' in path 'a.$[x]'"},
		{name: "$rename from a path with one $", ref: upd45RenameRef, cov: errs, docs: one(`"a":[1]`), filter: `{"a":1}`, update: `{"$rename":{"a.$":"b"}}`,
			code: mongoerr.BadValue, msg: "The source field for $rename may not be dynamic: a.$"},
		{name: "$rename to a positional path", ref: upd45RenameRef, cov: errs, docs: one(`"a":1`), update: `{"$rename":{"a":"b.$"}}`,
			code: mongoerr.BadValue, msg: "The destination field for $rename may not be dynamic: b.$"},
		{name: "$rename to a number", ref: upd45RenameRef, cov: errs, docs: one(`"a":1`), update: `{"$rename":{"a":5}}`,
			code: mongoerr.BadValue, msg: "The 'to' field for $rename must be a string: a: 5"},
		{name: "$rename to a path with an empty part", ref: upd45RenameRef, cov: errs, docs: one(`"a":1`), update: `{"$rename":{"a":"b."}}`,
			code: mongoerr.EmptyFieldName, msg: "The update path 'b.' contains an empty field name, which is not allowed."},
		// Sources and targets inside arrays.
		{name: "$rename from an array element", ref: upd45RenameRef, cov: errs, docs: one(`"a":[{"b":1}]`), update: `{"$rename":{"a.0.b":"c"}}`,
			code: mongoerr.BadValue, msg: "The source field cannot be an array element, 'a.0.b' in doc with _id: 1 has an array field called 'a'"},
		{name: "$rename from a field name through an array", ref: upd45RenameRef, cov: errs, docs: one(`"a":[{"b":1}]`), update: `{"$rename":{"a.b":"c"}}`,
			code: mongoerr.PathNotViable, msg: "cannot use the part (b of a.b) to traverse the element ({a: [ { b: 1 } ]})"},
		{name: "$rename from through a scalar", ref: upd45RenameRef, cov: errs, docs: one(`"a":5`), update: `{"$rename":{"a.b":"c"}}`,
			code: mongoerr.PathNotViable, msg: "cannot use the part (b of a.b) to traverse the element ({a: 5})"},
		{name: "$rename into an array element", ref: upd45RenameRef, cov: errs, docs: one(`"a":1,"b":[1]`), update: `{"$rename":{"a":"b.0"}}`,
			code: mongoerr.BadValue, msg: "The destination field cannot be an array element, 'b.0' in doc with _id: 1 has an array field called 'b'"},
		{name: "$rename into a new field of an array", ref: upd45RenameRef, cov: errs, docs: one(`"a":1,"b":{"c":[1]}`), update: `{"$rename":{"a":"b.c.d"}}`,
			code: mongoerr.BadValue, msg: "The destination field cannot be an array element, 'b.c.d' in doc with _id: 1 has an array field called 'c'"},
		{name: "$rename into a new field of an array element", ref: upd45RenameRef, cov: errs, docs: one(`"a":1,"b":[{"y":1}]`), update: `{"$rename":{"a":"b.0.x"}}`,
			code: mongoerr.BadValue, msg: "The destination field cannot be an array element, 'b.0.x' in doc with _id: 1 has an array field called 'b'"},
		{name: "$rename into a field of a scalar", ref: upd45RenameRef, cov: errs, docs: one(`"a":1,"b":5`), update: `{"$rename":{"a":"b.c"}}`,
			code: mongoerr.PathNotViable, msg: "Cannot create field 'c' in element {b: 5}"},
		{name: "$rename an array over an array", ref: upd45RenameRef, cov: sem, docs: one(`"a":[1,2],"b":[3]`), update: `{"$rename":{"a":"b"}}`,
			want: one(`"b":[1,2]`), modified: `1`},
		{name: "$rename an array into a new nested field", ref: upd45RenameRef, cov: sem, docs: one(`"a":[1,2],"b":1`), update: `{"$rename":{"a":"c.d"}}`,
			want: one(`"b":1,"c":{"d":[1,2]}`), modified: `1`},
		// Conflicts: the source and the target both hold a place in the
		// update tree.
		{name: "$rename two ways is a conflict", ref: upd45RenameRef, cov: errs, docs: one(`"a":1,"b":2`), update: `{"$rename":{"a":"b","b":"a"}}`,
			code: mongoerr.ConflictingUpdateOperators, msg: "Updating the path 'b' would create a conflict at 'b'"},
		{name: "$rename two sources to one target is a conflict", ref: upd45RenameRef, cov: errs, docs: one(`"a":1,"b":2`), update: `{"$rename":{"a":"c","b":"c"}}`,
			code: mongoerr.ConflictingUpdateOperators, msg: "Updating the path 'c' would create a conflict at 'c'"},
		{name: "$rename's target conflicts with a $set under it", ref: upd45RenameRef, cov: errs, docs: one(`"a":1`), update: `{"$rename":{"a":"b"},"$set":{"b.c":1}}`,
			code: mongoerr.ConflictingUpdateOperators, msg: "Updating the path 'b.c' would create a conflict at 'b'"},
		// The value moves as it is: a double over an int of equal value
		// replaces it; the new field goes last.
		{name: "$rename keeps the source's type over an equal target", ref: upd45RenameRef, cov: ty, docs: one(`"a":1,"b":1.0`), update: `{"$rename":{"a":"b"}}`,
			want: one(`"b":1`), modified: `1`},
		{name: "$rename of a binary identical value still modifies", ref: upd45RenameRef, cov: sem, docs: one(`"a":{"$numberLong":"7"},"b":{"$numberLong":"7"}`), update: `{"$rename":{"a":"b"}}`,
			want: one(`"b":{"$numberLong":"7"}`), modified: `1`},
		{name: "$rename within a document", ref: upd45RenameRef, cov: sem, docs: one(`"x":{"a":1,"c":2}`), update: `{"$rename":{"x.a":"x.b"}}`,
			want: one(`"x":{"c":2,"b":1}`), modified: `1`},
		{name: "$rename a missing field through a missing parent is a no-op", ref: upd45RenameRef, cov: sem, docs: one(`"a":{}`), update: `{"$rename":{"a.b.c":"d"}}`,
			want: one(`"a":{}`), modified: `0`},
		{name: "$rename in an upsert applies to the seeded document", ref: upd45RenameRef, cov: sem, filter: `{"_id":1,"a":1}`, upsert: true, update: `{"$rename":{"a":"b"}}`,
			want: one(`"b":1`)},
	})
}
