package compat_test

import (
	"testing"

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
