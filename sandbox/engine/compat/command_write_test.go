package compat_test

import (
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

// When an update that leaves a document as it was still counts as a
// modification, and so is validated. UpdateStage::transformAndUpdate
// counts (nModified) and writes, through collection_internal::
// updateDocument and its validation, every document the update driver did
// not call a no-op, unless the update ran in place and left no damage. A
// replacement is a no-op only when the replacement document is binary
// equal to the stored one (ObjectReplaceExecutor::applyReplacementUpdate),
// and a collection with a validator never updates in place
// (CollectionImpl::updateWithDamagesSupported), so an empty replacement of
// a document holding only its _id is validated there and skipped
// elsewhere. jstests/libs/assert_schema_match.js relies on it.
const (
	noopUpdateRef = "src/mongo/db/exec/classic/update_stage.cpp (UpdateStage::transformAndUpdate), src/mongo/db/update/object_replace_executor.cpp (applyReplacementUpdate), src/mongo/db/catalog/collection_impl.cpp (updateWithDamagesSupported); jstests/libs/assert_schema_match.js"
	moderateRef   = "src/mongo/db/catalog/collection_impl.cpp (checkValidation: validationLevel moderate skips documents that did not match); manual: core/schema-validation/specify-validation-level"
)

func TestUpdateNoopAndValidation(t *testing.T) {
	one := `[{"_id":1,"a":1}]`
	idOnly := `[{"_id":1}]`
	needsA := `{"collMod":"c","validator":{"a":{"$exists":true}},"validationLevel":"strict"}`
	runCmdCases(t, []cmdCase{
		{name: "a replacement equal to the stored document is a no-op", ref: noopUpdateRef, docs: one,
			cmd: `{"update":"c","updates":[{"q":{"_id":1},"u":{"_id":1,"a":1}}]}`, want: `{"n":1,"nModified":0}`},
		{name: "a replacement without the _id rewrites an equal document", ref: noopUpdateRef, docs: one,
			cmd: `{"update":"c","updates":[{"q":{"_id":1},"u":{"a":1}}]}`, want: `{"n":1,"nModified":1}`},
		{name: "a replacement reordering the fields rewrites", ref: noopUpdateRef, docs: `[{"_id":1,"a":1,"b":2}]`,
			cmd: `{"update":"c","updates":[{"q":{"_id":1},"u":{"b":2,"a":1}}]}`, want: `{"n":1,"nModified":1}`,
			thenFind: `{"find":"c"}`, thenWant: `[{"_id":1,"b":2,"a":1}]`},
		{name: "an empty replacement of an _id-only document changes nothing in place", ref: noopUpdateRef, docs: idOnly,
			cmd: `{"update":"c","updates":[{"q":{"_id":1},"u":{}}]}`, want: `{"n":1,"nModified":0}`},
		{name: "an empty replacement of an _id-only document is validated", ref: noopUpdateRef, docs: idOnly, setup: []string{needsA},
			cmd: `{"update":"c","updates":[{"q":{"_id":1},"u":{}}]}`, writeError: true, code: mongoerr.DocumentValidationFailure, msg: "Document failed validation"},
		{name: "an empty replacement that passes the validator counts", ref: noopUpdateRef, docs: idOnly,
			setup: []string{`{"collMod":"c","validator":{"_id":{"$exists":true}}}`},
			cmd:   `{"update":"c","updates":[{"q":{"_id":1},"u":{}}]}`, want: `{"n":1,"nModified":1}`},
		{name: "an empty replacement counts with validationLevel off", ref: noopUpdateRef, docs: idOnly,
			setup: []string{`{"collMod":"c","validator":{"a":{"$exists":true}},"validationLevel":"off"}`},
			cmd:   `{"update":"c","updates":[{"q":{"_id":1},"u":{}}]}`, want: `{"n":1,"nModified":1}`},
		{name: "an empty replacement with bypassDocumentValidation counts", ref: noopUpdateRef, docs: idOnly, setup: []string{needsA},
			cmd: `{"update":"c","updates":[{"q":{"_id":1},"u":{}}],"bypassDocumentValidation":true}`, want: `{"n":1,"nModified":1}`},
		{name: "an equal replacement without _id of an invalid document is refused", ref: noopUpdateRef, docs: `[{"_id":1,"b":1}]`, setup: []string{needsA},
			cmd: `{"update":"c","updates":[{"q":{"_id":1},"u":{"b":1}}]}`, writeError: true, code: mongoerr.DocumentValidationFailure, msg: "Document failed validation"},
		{name: "a no-op $set on an invalid document is not validated", ref: noopUpdateRef, docs: `[{"_id":1,"b":1}]`, setup: []string{needsA},
			cmd: `{"update":"c","updates":[{"q":{"_id":1},"u":{"$set":{"b":1}}}]}`, want: `{"n":1,"nModified":0}`},
		{name: "an equal replacement of an invalid document passes at moderate", ref: moderateRef, docs: `[{"_id":1,"b":1}]`,
			setup: []string{`{"collMod":"c","validator":{"a":{"$exists":true}},"validationLevel":"moderate"}`},
			cmd:   `{"update":"c","updates":[{"q":{"_id":1},"u":{"b":1}}]}`, want: `{"n":1,"nModified":1}`},
		{name: "findAndModify validates an empty replacement", ref: noopUpdateRef, docs: idOnly, setup: []string{needsA},
			cmd: `{"findAndModify":"c","query":{"_id":1},"update":{}}`, code: mongoerr.DocumentValidationFailure, msg: "Plan executor error during findAndModify :: caused by :: Document failed validation"},
		{name: "a pipeline giving back the stored document is a no-op", ref: "src/mongo/db/update/pipeline_executor.cpp (applyUpdate through applyReplacementUpdate)", docs: `[{"_id":1,"b":1}]`, setup: []string{needsA},
			cmd: `{"update":"c","updates":[{"q":{"_id":1},"u":[{"$set":{"b":1}}]}]}`, want: `{"n":1,"nModified":0}`},
	})
}

// bypassEmptyTsReplacement. An insert gives every top-level
// Timestamp(0, 0) but the _id the current time (fixDocumentForInsert), and
// so does a replacement-style update or upsert with its replacement
// (ObjectReplaceExecutor's constructor); operator and pipeline updates,
// nested values and time-series measurements keep them. The option, an
// optionalBool of every write command's WriteCommandRequestBase and of
// findAndModify, turns that off; bulkWrite has it only from 8.1
// (jstests/core/write/bypass_empty_ts_replacement_bulk_write.js needs fcv
// 8.1).
const (
	emptyTsRef   = "src/mongo/db/ops/write_ops.idl (WriteCommandRequestBase.bypassEmptyTsReplacement), src/mongo/db/ops/insert.cpp (fixDocumentForInsert), src/mongo/db/update/object_replace_executor.cpp; jstests/core/write/bypass_empty_ts_replacement.js"
	emptyTsFaMRf = "src/mongo/db/query/find_and_modify_command.idl (bypassEmptyTsReplacement), src/mongo/db/update/object_replace_executor.cpp; jstests/core/write/bypass_empty_ts_replacement.js"
	optBoolRef   = "src/mongo/idl/basic_types.h (OptionalBool::parseFromBSON)"
	emptyTsTSRef = "jstests/core/write/bypass_empty_ts_replacement_timeseries.js"
)

func TestBypassEmptyTsReplacement(t *testing.T) {
	ts0 := `{"$timestamp":{"t":0,"i":0}}`
	// isEmpty reports, per document, whether a (and b.c) still hold
	// Timestamp(0, 0): the time written instead is the clock's.
	isEmpty := `{"aggregate":"c","pipeline":[{"$project":{"a":{"$eq":["$a",` + ts0 + `]}}}],"cursor":{}}`
	nested := `{"aggregate":"c","pipeline":[{"$project":{"a":{"$eq":["$a",` + ts0 + `]},"bc":{"$eq":["$b.c",` + ts0 + `]}}}],"cursor":{}}`
	one := `[{"_id":1,"a":1}]`
	runCmdCases(t, []cmdCase{
		{name: "an insert fills a top-level empty timestamp", ref: emptyTsRef,
			cmd: `{"insert":"c","documents":[{"_id":1,"a":` + ts0 + `,"b":{"c":` + ts0 + `}}]}`, want: `{"n":1}`,
			thenFind: nested, thenWant: `[{"_id":1,"a":false,"bc":true}]`},
		{name: "an insert with bypassEmptyTsReplacement keeps it", ref: emptyTsRef,
			cmd: `{"insert":"c","documents":[{"_id":1,"a":` + ts0 + `}],"bypassEmptyTsReplacement":true}`, want: `{"n":1}`,
			thenFind: isEmpty, thenWant: `[{"_id":1,"a":true}]`},
		{name: "an insert keeps an empty timestamp _id", ref: emptyTsRef + " (the _id is copied first)",
			cmd: `{"insert":"c","documents":[{"a":1,"_id":` + ts0 + `}]}`, want: `{"n":1}`,
			thenFind: `{"find":"c","filter":{"_id":` + ts0 + `}}`, thenWant: `[{"_id":` + ts0 + `,"a":1}]`},
		{name: "a replacement fills an empty timestamp", ref: emptyTsRef, docs: one,
			cmd: `{"update":"c","updates":[{"q":{"_id":1},"u":{"a":` + ts0 + `}}]}`, want: `{"n":1,"nModified":1}`,
			thenFind: isEmpty, thenWant: `[{"_id":1,"a":false}]`},
		{name: "a replacement with bypassEmptyTsReplacement keeps it", ref: emptyTsRef, docs: one,
			cmd: `{"update":"c","updates":[{"q":{"_id":1},"u":{"a":` + ts0 + `}}],"bypassEmptyTsReplacement":true}`, want: `{"n":1,"nModified":1}`,
			thenFind: isEmpty, thenWant: `[{"_id":1,"a":true}]`},
		{name: "a replacement upsert fills an empty timestamp", ref: emptyTsRef,
			cmd: `{"update":"c","updates":[{"q":{"_id":4},"u":{"a":` + ts0 + `},"upsert":true}]}`, want: `{"n":1,"upserted":[{"index":0,"_id":4}],"nModified":0}`,
			thenFind: isEmpty, thenWant: `[{"_id":4,"a":false}]`},
		{name: "a replacement upsert with bypassEmptyTsReplacement keeps it", ref: emptyTsRef,
			cmd: `{"update":"c","updates":[{"q":{"_id":4},"u":{"a":` + ts0 + `},"upsert":true}],"bypassEmptyTsReplacement":true}`, want: `{"n":1}`,
			thenFind: isEmpty, thenWant: `[{"_id":4,"a":true}]`},
		{name: "a $set keeps an empty timestamp", ref: emptyTsRef, docs: one,
			cmd: `{"update":"c","updates":[{"q":{"_id":1},"u":{"$set":{"a":` + ts0 + `}}}]}`, want: `{"n":1,"nModified":1}`,
			thenFind: isEmpty, thenWant: `[{"_id":1,"a":true}]`},
		{name: "a pipeline update keeps an empty timestamp", ref: emptyTsRef, docs: one,
			cmd: `{"update":"c","updates":[{"q":{"_id":1},"u":[{"$addFields":{"a":` + ts0 + `}}]}]}`, want: `{"n":1,"nModified":1}`,
			thenFind: isEmpty, thenWant: `[{"_id":1,"a":true}]`},
		{name: "findAndModify's replacement fills an empty timestamp", ref: emptyTsFaMRf, docs: one,
			cmd: `{"findAndModify":"c","query":{"_id":1},"update":{"a":` + ts0 + `}}`, want: `{"lastErrorObject":{"n":1,"updatedExisting":true}}`,
			thenFind: isEmpty, thenWant: `[{"_id":1,"a":false}]`},
		{name: "findAndModify with bypassEmptyTsReplacement keeps it", ref: emptyTsFaMRf, docs: one,
			cmd: `{"findAndModify":"c","query":{"_id":1},"update":{"a":` + ts0 + `},"bypassEmptyTsReplacement":true}`, want: `{"lastErrorObject":{"n":1,"updatedExisting":true}}`,
			thenFind: isEmpty, thenWant: `[{"_id":1,"a":true}]`},
		{name: "delete takes bypassEmptyTsReplacement", ref: emptyTsRef, docs: one,
			cmd: `{"delete":"c","deletes":[{"q":{"_id":1},"limit":1}],"bypassEmptyTsReplacement":false}`, want: `{"n":1}`},
		{name: "bypassEmptyTsReplacement must be a boolean", ref: optBoolRef, cov: cover{family: commandFam, op: "insert", col: errorCol},
			cmd:  `{"insert":"c","documents":[{"a":1}],"bypassEmptyTsReplacement":1}`,
			code: mongoerr.TypeMismatch, msg: "Field 'bypassEmptyTsReplacement' should be a boolean value, but found: int"},
		{name: "findAndModify's bypassEmptyTsReplacement must be a boolean", ref: optBoolRef, cov: cover{family: commandFam, op: "findAndModify", col: errorCol},
			cmd:  `{"findAndModify":"c","query":{},"update":{},"bypassEmptyTsReplacement":"yes"}`,
			code: mongoerr.TypeMismatch, msg: "Field 'bypassEmptyTsReplacement' should be a boolean value, but found: string"},
		{name: "bulkWrite has no bypassEmptyTsReplacement in 8.0", ref: "src/mongo/db/commands/bulk_write.idl; jstests/core/write/bypass_empty_ts_replacement_bulk_write.js (requires_fcv_81)", admin: true,
			cmd:  `{"bulkWrite":1,"ops":[{"insert":0,"document":{"a":1}}],"nsInfo":[{"ns":"{{db}}.c"}],"bypassEmptyTsReplacement":true}`,
			code: mongoerr.IDLUnknownField, msg: "BSON field 'bulkWrite.bypassEmptyTsReplacement' is an unknown field."},
		{name: "a time-series insert keeps empty timestamps", ref: emptyTsTSRef,
			setup: []string{`{"create":"c","timeseries":{"timeField":"t","metaField":"m"}}`},
			cmd:   `{"insert":"c","documents":[{"_id":1,"t":{"$date":"2024-01-01T00:00:00Z"},"m":` + ts0 + `,"a":` + ts0 + `}]}`, want: `{"n":1}`,
			thenFind: `{"aggregate":"c","pipeline":[{"$project":{"_id":1,"m":{"$eq":["$m",` + ts0 + `]},"a":{"$eq":["$a",` + ts0 + `]}}}],"cursor":{}}`,
			thenWant: `[{"_id":1,"m":true,"a":true}]`},
	})
}

// Each Timestamp(0, 0) a write fills takes its own tick of the cluster
// clock (VectorClockMutable::tickClusterTime): within one second the
// increment counts up, so writes a moment apart, and the documents of one
// batch, store ascending values and never the same one.
// jstests/core/ts1.js.
func TestEmptyTimestampsAscend(t *testing.T) {
	s := newSuite(t)
	s.runCase(t, "filled timestamps ascend across writes", emptyTsRef+"; jstests/core/ts1.js", cover{family: commandFam, op: "insert", col: semantics}, func(t *testing.T, db *mongo.Database) {
		ts0 := `{"$timestamp":{"t":0,"i":0}}`
		mustCommand(t, db, `{"insert":"c","documents":[{"_id":1,"x":`+ts0+`},{"_id":2,"x":`+ts0+`}]}`)
		mustCommand(t, db, `{"insert":"c","documents":[{"_id":3,"x":`+ts0+`}]}`)
		mustCommand(t, db, `{"update":"c","updates":[{"q":{"_id":4},"u":{"x":`+ts0+`},"upsert":true}]}`)
		mustCommand(t, db, `{"update":"c","updates":[{"q":{"_id":5},"u":{"$currentDate":{"x":{"$type":"timestamp"}}},"upsert":true}]}`)
		docs, err := cursorDocs(t, db, ejDoc(t, `{"find":"c","sort":{"_id":1}}`))
		if err != nil {
			t.Fatal(err)
		}
		var last bson.Timestamp
		for _, d := range docs {
			ts, ok := field(d, "x").(bson.Timestamp)
			if !ok || ts.T == 0 {
				t.Fatalf("document %v holds no filled timestamp", d)
			}
			if ts.T < last.T || ts.T == last.T && ts.I <= last.I {
				t.Errorf("%v is not after %v", ts, last)
			}
			last = ts
		}
	})
}
