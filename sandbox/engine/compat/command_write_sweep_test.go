package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// The write commands' sweep: arguments mongod checks that the other
// tables leave out.

// writeSortRef is where the sort of updateOne (8.0) and of findAndModify
// is read: into the statement's canonical query, whose sort pattern
// refuses what find's does, after the filter; a failure is the
// statement's write error (update) or the command's error
// (findAndModify).
const writeSortRef = "src/mongo/db/query/write_ops/parsed_update.cpp (parseQueryToCQ), src/mongo/db/query/sort_pattern.cpp (15974, 15975); " +
	"jstests/core/write/update/updateOne_sort.js, jstests/core/write/find_and_modify/find_and_modify_invalid_query_params.js"

func TestWriteSortValidation(t *testing.T) {
	two := `[{"_id":0},{"_id":1}]`
	runCmdCases(t, []cmdCase{
		{name: "updateOne with a sort direction of 50", ref: writeSortRef, docs: two,
			cmd:        `{"update":"c","updates":[{"q":{},"u":{"$set":{"r":1}},"sort":{"_id":50}}]}`,
			writeError: true, code: 15975, msg: "$sort key ordering must be 1 (for ascending) or -1 (for descending)",
			thenFind: `{"find":"c"}`, thenWant: two},
		{name: "updateOne with a string sort direction", ref: writeSortRef, docs: two,
			cmd:        `{"update":"c","updates":[{"q":{},"u":{"$set":{"r":1}},"sort":{"_id":"x"}}]}`,
			writeError: true, code: 15974, msg: `Illegal key in $sort specification: _id: "x"`},
		{name: "an upsert's invalid sort fails before it inserts", ref: writeSortRef, docs: two,
			cmd:        `{"update":"c","updates":[{"q":{"_id":7},"u":{"$set":{"r":1}},"sort":{"_id":2},"upsert":true}]}`,
			writeError: true, code: 15975, msg: "$sort key ordering must be 1 (for ascending) or -1 (for descending)",
			thenFind: `{"find":"c"}`, thenWant: two},
		{name: "an invalid filter is reported before the sort", ref: writeSortRef, docs: two,
			cmd:        `{"update":"c","updates":[{"q":{"$foo":1},"u":{"$set":{"r":1}},"sort":{"_id":2}}]}`,
			writeError: true, code: mongoerr.BadValue, msg: "unknown top level operator: $foo. If you have a field name that starts with a '$' symbol, consider using $getField or $setField."},
		{name: "an invalid update is reported before the sort", ref: writeSortRef, docs: two,
			cmd:        `{"update":"c","updates":[{"q":{},"u":{"$inc":{"r":"x"}},"sort":{"_id":2}}]}`,
			writeError: true, code: mongoerr.TypeMismatch, msg: `Cannot increment with non-numeric argument: {r: "x"}`},
		{name: "updateOne with a descending sort updates the last", ref: writeSortRef, docs: two,
			cmd:      `{"update":"c","updates":[{"q":{},"u":{"$set":{"r":1}},"sort":{"_id":-1}}]}`,
			want:     `{"n":1,"nModified":1}`,
			thenFind: `{"find":"c"}`, thenWant: `[{"_id":0},{"_id":1,"r":1}]`},
		{name: "findAndModify with a sort direction of 50", ref: writeSortRef, docs: two,
			cmd:  `{"findAndModify":"c","query":{},"update":{"$set":{"r":1}},"sort":{"_id":50}}`,
			code: 15975, msg: "$sort key ordering must be 1 (for ascending) or -1 (for descending)",
			thenFind: `{"find":"c"}`, thenWant: two},
		{name: "findAndModify remove with a string sort direction", ref: writeSortRef, docs: two,
			cmd:  `{"findAndModify":"c","query":{},"remove":true,"sort":{"_id":"x"}}`,
			code: 15974, msg: `Illegal key in $sort specification: _id: "x"`,
			thenFind: `{"find":"c"}`, thenWant: two},
		{name: "bulkWrite's updateOne with an invalid sort", ref: writeSortRef + "; src/mongo/db/commands/bulk_write.idl", docs: two, admin: true,
			cmd:  `{"bulkWrite":1,"ops":[{"update":0,"filter":{},"updateMods":{"$set":{"r":1}},"sort":{"_id":5}}],"nsInfo":[{"ns":"{{db}}.c"}]}`,
			want: `{"cursor":{"id":{"$numberLong":"0"},"firstBatch":[{"ok":0.0,"idx":0,"code":15975,"errmsg":"$sort key ordering must be 1 (for ascending) or -1 (for descending)","n":0,"nModified":0}],"ns":"admin.$cmd.bulkWrite"},"nErrors":1}`},
	})
}

// deleteEntryRef: a delete statement is q, limit, hint and collation
// (and internal fields); updateOne got a sort in 8.0, deleteOne none.
const deleteEntryRef = "src/mongo/db/query/write_ops/write_ops.idl (DeleteOpEntry, strict)"

func TestDeleteStatementFields(t *testing.T) {
	two := `[{"_id":0},{"_id":1}]`
	runCmdCases(t, []cmdCase{
		{name: "a delete statement with a sort", ref: deleteEntryRef, docs: two,
			cmd:  `{"delete":"c","deletes":[{"q":{},"limit":1,"sort":{"_id":-1}}]}`,
			code: mongoerr.IDLUnknownField, msg: "BSON field 'delete.deletes.sort' is an unknown field.",
			thenFind: `{"find":"c"}`, thenWant: two},
		{name: "findAndModify remove keeps its sort", ref: deleteEntryRef + "; src/mongo/db/query/write_ops/write_ops.idl (findAndModify.sort)", docs: two,
			cmd:      `{"findAndModify":"c","query":{},"remove":true,"sort":{"_id":-1}}`,
			want:     `{"lastErrorObject":{"n":1},"value":{"_id":1}}`,
			thenFind: `{"find":"c"}`, thenWant: `[{"_id":0}]`},
	})
}

// bypassRef: bypassDocumentValidation is a safeBool, a boolean or any
// number, in every write command.
const bypassRef = "src/mongo/db/query/write_ops/write_ops.idl (WriteCommandRequestBase.bypassDocumentValidation, findAndModify.bypassDocumentValidation), src/mongo/db/basic_types.idl (safeBool)"

func TestWriteBypassValidationType(t *testing.T) {
	const wrong = "' is the wrong type 'string', expected types '[bool, long, int, decimal, double']"
	one := `[{"_id":0}]`
	needsA := `{"collMod":"c","validator":{"a":{"$exists":true}}}`
	runCmdCases(t, []cmdCase{
		{name: "insert with a string bypassDocumentValidation", ref: bypassRef, docs: one,
			cmd:  `{"insert":"c","documents":[{"_id":1}],"bypassDocumentValidation":"x"}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'insert.bypassDocumentValidation" + wrong,
			thenFind: `{"find":"c"}`, thenWant: one},
		{name: "update with a string bypassDocumentValidation", ref: bypassRef, docs: one,
			cmd:  `{"update":"c","updates":[{"q":{},"u":{"$set":{"b":1}}}],"bypassDocumentValidation":"x"}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'update.bypassDocumentValidation" + wrong,
			thenFind: `{"find":"c"}`, thenWant: one},
		{name: "delete with a string bypassDocumentValidation", ref: bypassRef, docs: one,
			cmd:  `{"delete":"c","deletes":[{"q":{},"limit":0}],"bypassDocumentValidation":"x"}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'delete.bypassDocumentValidation" + wrong,
			thenFind: `{"find":"c"}`, thenWant: one},
		{name: "findAndModify with a string bypassDocumentValidation", ref: bypassRef, docs: one,
			cmd:  `{"findAndModify":"c","update":{"$set":{"b":1}},"bypassDocumentValidation":"x"}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'findAndModify.bypassDocumentValidation" + wrong,
			thenFind: `{"find":"c"}`, thenWant: one},
		{name: "a numeric bypassDocumentValidation bypasses", ref: bypassRef, docs: one, setup: []string{needsA},
			cmd:      `{"update":"c","updates":[{"q":{},"u":{"$set":{"b":1}}}],"bypassDocumentValidation":1}`,
			want:     `{"n":1,"nModified":1}`,
			thenFind: `{"find":"c"}`, thenWant: `[{"_id":0,"b":1}]`},
		{name: "a zero bypassDocumentValidation does not bypass", ref: bypassRef, docs: one, setup: []string{needsA},
			cmd:  `{"findAndModify":"c","update":{"$set":{"b":1}},"bypassDocumentValidation":0.0}`,
			code: mongoerr.DocumentValidationFailure, msg: "Plan executor error during findAndModify :: caused by :: Document failed validation"},
	})
}

// famCursorFieldsRef: findAndModify's IDL keeps batchSize and
// singleBatch, which the command never reads.
const famCursorFieldsRef = "src/mongo/db/query/write_ops/write_ops.idl (findAndModify: batchSize int, singleBatch bool), src/mongo/idl/basic_types.idl (int), src/mongo/db/commands/find_and_modify.cpp"

func TestFindAndModifyCursorFields(t *testing.T) {
	one := `[{"_id":0}]`
	runCmdCases(t, []cmdCase{
		{name: "findAndModify accepts batchSize and singleBatch and ignores them", ref: famCursorFieldsRef, docs: one,
			cmd:  `{"findAndModify":"c","update":{"$set":{"b":1}},"new":true,"batchSize":1,"singleBatch":true}`,
			want: `{"lastErrorObject":{"n":1,"updatedExisting":true},"value":{"_id":0,"b":1}}`},
		{name: "findAndModify's batchSize is an int, not a double", ref: famCursorFieldsRef, docs: one,
			cmd:  `{"findAndModify":"c","update":{"$set":{"b":1}},"batchSize":1.0}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'findAndModify.batchSize' is the wrong type 'double', expected type 'int'",
			thenFind: `{"find":"c"}`, thenWant: one},
		{name: "findAndModify's singleBatch of a string", ref: famCursorFieldsRef, docs: one,
			cmd:  `{"findAndModify":"c","update":{"$set":{"b":1}},"singleBatch":"x"}`,
			code: mongoerr.TypeMismatch, msg: "BSON field 'findAndModify.singleBatch' is the wrong type 'string', expected types '[bool, long, int, decimal, double']"},
	})
}

// deleteLimitRef: a delete statement's limit is a multi_delete_bool, of
// any type, read as numberDouble() (0 for what is not a number) and
// required to be 0 or 1, the refused value printed as a stream prints a
// double.
const deleteLimitRef = "src/mongo/db/query/write_ops/write_ops.idl (multi_delete_bool), src/mongo/db/query/write_ops/write_ops.cpp (readMultiDeleteProperty), src/mongo/bson/bsonelement.h (numberDouble)"

func TestDeleteLimitValues(t *testing.T) {
	two := `[{"_id":0},{"_id":1}]`
	runCmdCases(t, []cmdCase{
		{name: "a delete limit of 0.5", ref: deleteLimitRef, docs: two,
			cmd:  `{"delete":"c","deletes":[{"q":{},"limit":0.5}]}`,
			code: mongoerr.FailedToParse, msg: "The limit field in delete objects must be 0 or 1. Got 0.5",
			thenFind: `{"find":"c"}`, thenWant: two},
		{name: "a delete limit of 1.5", ref: deleteLimitRef, docs: two,
			cmd:  `{"delete":"c","deletes":[{"q":{},"limit":1.5}]}`,
			code: mongoerr.FailedToParse, msg: "The limit field in delete objects must be 0 or 1. Got 1.5",
			thenFind: `{"find":"c"}`, thenWant: two},
		{name: "a large delete limit prints as %g", ref: deleteLimitRef, docs: two,
			cmd:  `{"delete":"c","deletes":[{"q":{},"limit":{"$numberLong":"100000000"}}]}`,
			code: mongoerr.FailedToParse, msg: "The limit field in delete objects must be 0 or 1. Got 1e+08"},
		{name: "a delete limit of a decimal 1 deletes one", ref: deleteLimitRef, docs: two,
			cmd:      `{"delete":"c","deletes":[{"q":{},"limit":{"$numberDecimal":"1.0"}}]}`,
			want:     `{"n":1}`,
			thenFind: `{"find":"c"}`, thenWant: `[{"_id":1}]`},
		{name: "a string delete limit counts as 0 and deletes all", ref: deleteLimitRef, docs: two,
			cmd:      `{"delete":"c","deletes":[{"q":{},"limit":"x"}]}`,
			want:     `{"n":2}`,
			thenFind: `{"find":"c"}`, thenWant: `[]`},
		{name: "a boolean delete limit counts as 0 and deletes all", ref: deleteLimitRef, docs: two,
			cmd:      `{"delete":"c","deletes":[{"q":{},"limit":true}]}`,
			want:     `{"n":2}`,
			thenFind: `{"find":"c"}`, thenWant: `[]`},
	})
}
