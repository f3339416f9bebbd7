package compat_test

import (
	"testing"

	"github.com/schemalab/schemalab/sandbox/mongoerr"
)

const (
	mergeFail     = "jstests/aggregation/sources/merge/mode_merge_fail.js"
	mergeInsert   = "jstests/aggregation/sources/merge/mode_merge_insert.js"
	mergeOnFields = "jstests/aggregation/sources/merge/on_fields_validation.js"
)

func TestMergeAndOut(t *testing.T) {
	uniqueZ := []string{
		`{"createIndexes": "c", "indexes": [{"key": {"z": 1}, "name": "z_1", "unique": true}]}`,
		`{"createIndexes": "t", "indexes": [{"key": {"z": 1}, "name": "z_1", "unique": true}]}`,
	}
	onZ := `[{"$project": {"_id": 0}}, {"$merge": {"into": "t", "on": "z", "whenMatched": "merge", "whenNotMatched": "insert"}}]`
	nameTeam := []string{`{"createIndexes": "t", "indexes": [{"key": {"name": 1, "team": -1}, "name": "name_1_team_-1", "unique": true}]}`}
	street := []string{`{"createIndexes": "t", "indexes": [{"key": {"address.street": 1}, "name": "address.street_1", "unique": true}]}`}
	runAggCases(t, []aggCase{
		{name: "into a new collection", ref: mergeInsert + " testMergeIntoNonExistentCollection",
			docs:     `[{"_id": 1, "a": 1, "b": "a"}]`,
			pipeline: `[{"$merge": {"into": "t", "whenMatched": "merge", "whenNotMatched": "insert"}}]`,
			want:     `[]`, thenColl: "t", thenWant: `[{"_id": 1, "a": 1, "b": "a"}]`},
		{name: "merge updates matched documents", ref: mergeInsert + " testMergeUpdatesModifiedDocuments",
			docs:     `[{"_id": 1, "a": 11}, {"_id": 2, "a": 22, "c": "c", "d": "d"}]`,
			other:    map[string]string{"t": `[{"_id": 1, "a": 1, "b": "a"}, {"_id": 2, "a": 2, "b": "b"}]`},
			pipeline: `[{"$merge": {"into": "t", "whenMatched": "merge", "whenNotMatched": "insert"}}]`,
			thenColl: "t", thenWant: `[{"_id": 1, "a": 11, "b": "a"}, {"_id": 2, "a": 22, "b": "b", "c": "c", "d": "d"}]`},
		{name: "on a unique field other than _id", ref: mergeInsert + " testMergeWithOnFields",
			setup:    []string{`{"createIndexes": "t", "indexes": [{"key": {"a": 1}, "name": "a_1", "unique": true}]}`},
			docs:     `[{"_id": 1, "a": 1, "b": "a"}, {"_id": 2, "a": 2, "b": "b"}, {"_id": 3, "a": 30, "b": "c"}]`,
			other:    map[string]string{"t": `[{"_id": 1, "a": 1, "c": "x"}, {"_id": 4, "a": 30, "c": "y"}, {"_id": 5, "a": 40, "c": "z"}]`},
			pipeline: `[{"$project": {"_id": 0}}, {"$merge": {"into": "t", "on": "a", "whenMatched": "merge", "whenNotMatched": "insert"}}]`,
			// The jstest compares with assertArrayEq, blind to field order and to
			// the _id the insert of a: 2 generates; $set appends b after c.
			thenFind: `{"find": "t", "projection": {"_id": 0}, "sort": {"a": 1}}`,
			thenWant: `[{"a": 1, "c": "x", "b": "a"}, {"a": 2, "b": "b"}, {"a": 30, "c": "y", "b": "c"}, {"a": 40, "c": "z"}]`},
		{name: "merge adds new fields in $set's order", ref: "src/mongo/db/pipeline/document_source_merge.cpp makeBatchUpdateModification ({$set: doc})",
			docs: `[{"_id": 1, "z": 1, "b": 2}]`, other: map[string]string{"t": `[{"_id": 1, "m": 0}]`},
			pipeline: `[{"$merge": {"into": "t", "whenMatched": "merge", "whenNotMatched": "insert"}}]`,
			thenColl: "t", thenWant: `[{"_id": 1, "m": 0, "b": 2, "z": 1}]`},
		{name: "merge may not change _id", ref: "jstests/sharding/merge_requires_unique_index.js (ImmutableField, \"did you attempt to modify the _id or the shard key?\")",
			setup: []string{`{"createIndexes": "t", "indexes": [{"key": {"a": 1}, "name": "a_1", "unique": true}]}`},
			docs:  `[{"_id": 1, "a": 1}]`, other: map[string]string{"t": `[{"_id": 2, "a": 1}]`},
			pipeline: `[{"$merge": {"into": "t", "on": "a", "whenMatched": "merge", "whenNotMatched": "insert"}}]`,
			code:     mongoerr.ImmutableField, msg: planExecutor + "$merge failed to update the matching document, did you attempt to modify the _id or the shard key? :: caused by :: Performing an update on the path '_id' would modify the immutable field '_id'"},
		// makeStrictUpdateStrategy sends the batch as one update without
		// upsert and fails once it is written when nMatched < batch size.
		{name: "whenNotMatched fail writes the matched documents of its batch", ref: mergeFail + " testMergeFailsIfMatchingDocumentNotFound",
			docs:     `[{"_id": 1, "a": 1}, {"_id": 2, "a": 2}, {"_id": 3, "a": 3}]`,
			other:    map[string]string{"t": `[{"_id": 1, "b": 1}, {"_id": 3, "b": 3}]`},
			pipeline: `[{"$merge": {"into": "t", "whenMatched": "merge", "whenNotMatched": "fail"}}]`,
			code:     mongoerr.MergeStageNoMatchingDocument, msg: planExecutor + "$merge could not find a matching document in the target collection for at least one document in the source collection",
			thenColl: "t", thenWant: `[{"_id": 1, "b": 1, "a": 1}, {"_id": 3, "b": 3, "a": 3}]`},
		{name: "whenMatched pipeline, whenNotMatched fail", ref: "jstests/aggregation/sources/merge/mode_pipeline_fail.js testMergeFailsIfMatchingDocumentNotFound",
			docs:     `[{"_id": 1, "a": 1}, {"_id": 2, "a": 2}, {"_id": 3, "a": 3}]`,
			other:    map[string]string{"t": `[{"_id": 1, "b": 1}, {"_id": 3, "b": 3}]`},
			pipeline: `[{"$merge": {"into": "t", "whenMatched": [{"$addFields": {"x": 2}}], "whenNotMatched": "fail"}}]`,
			code:     mongoerr.MergeStageNoMatchingDocument,
			thenColl: "t", thenWant: `[{"_id": 1, "b": 1, "x": 2}, {"_id": 3, "b": 3, "x": 2}]`},
		// buildInsertOp/buildUpdateOp send each batch unordered: a write
		// error does not stop the rest of the batch, and the batch's first
		// error fails the stage after it (jstests batch_writes.js: 9 of the
		// 10 documents end up in the target).
		{name: "unordered batch: whenMatched fail keeps inserting past a duplicate", ref: "jstests/aggregation/sources/merge/batch_writes.js; src/mongo/db/pipeline/process_interface/common_mongod_process_interface.cpp buildInsertOp (setOrdered(false))",
			setup:    []string{`{"createIndexes": "t", "indexes": [{"key": {"a": 1}, "name": "a_1", "unique": true}]}`},
			docs:     `[{"_id": 0, "a": 0}, {"_id": 1, "a": 1}, {"_id": 2, "a": 2}, {"_id": 3, "a": 3}]`,
			other:    map[string]string{"t": `[{"_id": 2, "a": 1}]`},
			pipeline: `[{"$merge": {"into": "t", "whenMatched": "fail", "whenNotMatched": "insert"}}]`,
			code:     mongoerr.DuplicateKey,
			thenFind: `{"find": "t", "sort": {"_id": 1}}`,
			thenWant: `[{"_id": 0, "a": 0}, {"_id": 2, "a": 1}, {"_id": 3, "a": 3}]`},
		{name: "unordered batch: replace keeps writing past a duplicate", ref: "jstests/aggregation/sources/merge/batch_writes.js; common_mongod_process_interface.cpp buildUpdateOp (setOrdered(false))",
			setup:    []string{`{"createIndexes": "t", "indexes": [{"key": {"a": 1}, "name": "a_1", "unique": true}]}`},
			docs:     `[{"_id": 0, "a": 0}, {"_id": 1, "a": 1}, {"_id": 2, "a": 2}, {"_id": 3, "a": 3}]`,
			other:    map[string]string{"t": `[{"_id": 2, "a": 1}]`},
			pipeline: `[{"$sort": {"a": 1}}, {"$merge": {"into": "t", "whenMatched": "replace", "whenNotMatched": "insert"}}]`,
			code:     mongoerr.DuplicateKey,
			thenFind: `{"find": "t", "sort": {"_id": 1}}`,
			thenWant: `[{"_id": 0, "a": 0}, {"_id": 2, "a": 2}, {"_id": 3, "a": 3}]`},
		// makeBatchObject extracts the on fields as a document joins the
		// batch: the error comes before the batch is spilled, so nothing
		// of that batch is written.
		{name: "an on-field error writes nothing of its batch", ref: "src/mongo/db/pipeline/document_source_writer.h doGetNext; document_source_merge.cpp makeBatchObject",
			setup:    uniqueZ,
			docs:     `[{"_id": 1, "z": 1}, {"_id": 2}]`,
			pipeline: onZ, code: 51132,
			thenColl: "t", thenWant: `[]`},
		{name: "on field missing", ref: mergeInsert + " testMergeFailsIfOnFieldIsInvalid",
			setup: uniqueZ, docs: `[{"_id": 1}]`, pipeline: onZ,
			code: 51132, msg: planExecutor + "$merge write error: 'on' field 'z' cannot be missing, null, undefined or an array"},
		{name: "on field null", ref: mergeInsert + " testMergeFailsIfOnFieldIsInvalid",
			setup: uniqueZ, docs: `[{"_id": 1, "z": null}]`, pipeline: onZ, code: 51132},
		{name: "item7 on field an array", ref: mergeInsert + " testMergeFailsIfOnFieldIsInvalid",
			setup: uniqueZ, docs: `[{"_id": 1, "z": [1, 2]}]`, pipeline: onZ,
			code: 51185, msg: planExecutor + "$merge write error: 'on' field 'z' is an array"},
		{name: "one of two on fields missing", ref: mergeOnFields,
			setup: nameTeam, docs: `[{"_id": 0, "team": "query"}]`,
			pipeline: `[{"$merge": {"into": "t", "whenMatched": "replace", "whenNotMatched": "insert", "on": ["name", "team"]}}]`, code: 51132},
		{name: "an array prefix of the on field", ref: mergeOnFields,
			setup: street, docs: `[{"_id": 0, "address": [{"street": "1633 Broadway"}]}]`,
			pipeline: `[{"$merge": {"into": "t", "whenMatched": "replace", "whenNotMatched": "insert", "on": ["address.street"]}}]`, code: 51132},
		{name: "a dotted on field that is an array", ref: mergeOnFields,
			setup: street, docs: `[{"_id": 0, "address": {"street": ["West 43rd St", "1633 Broadway"]}}]`,
			pipeline: `[{"$merge": {"into": "t", "whenMatched": "replace", "whenNotMatched": "insert", "on": ["address.street"]}}]`,
			code:     51185, msg: planExecutor + "$merge write error: 'on' field 'address.street' is an array"},
		{name: "on must be a string or an array", ref: mergeOnFields,
			docs: `[{"_id": 0}]`, pipeline: `[{"$merge": {"into": "t", "whenMatched": "replace", "whenNotMatched": "insert", "on": 3.14}}]`, code: 51186},
		{name: "on must not be empty", ref: mergeOnFields,
			docs: `[{"_id": 0}]`, pipeline: `[{"$merge": {"into": "t", "whenMatched": "replace", "whenNotMatched": "insert", "on": []}}]`, code: 51187},
		{name: "on elements must be strings", ref: mergeOnFields,
			docs: `[{"_id": 0}]`, pipeline: `[{"$merge": {"into": "t", "whenMatched": "replace", "whenNotMatched": "insert", "on": ["hashed", 1]}}]`, code: 51134},
		{name: "on needs a unique index", ref: mergeInsert + " testMergeFailsIfOnFieldCannotBeVerifiedForUniquness",
			docs: `[{"_id": 0}]`, pipeline: `[{"$merge": {"into": "t", "on": "nonexistent", "whenMatched": "merge", "whenNotMatched": "insert"}}]`, code: 51183},
		{name: "whenMatched keepExisting", ref: "manual: reference/operator/aggregation/merge (whenMatched)",
			docs: `[{"_id": 1, "v": "new"}, {"_id": 2, "v": "new"}]`, other: map[string]string{"t": `[{"_id": 1, "v": "old"}]`},
			pipeline: `[{"$merge": {"into": "t", "whenMatched": "keepExisting", "whenNotMatched": "insert"}}]`,
			thenColl: "t", thenWant: `[{"_id": 1, "v": "old"}, {"_id": 2, "v": "new"}]`},
		{name: "whenNotMatched discard", ref: "manual: reference/operator/aggregation/merge (whenNotMatched)",
			docs: `[{"_id": 1, "v": "new"}, {"_id": 2, "v": "new"}]`, other: map[string]string{"t": `[{"_id": 1, "v": "old", "w": 1}]`},
			pipeline: `[{"$merge": {"into": "t", "whenMatched": "replace", "whenNotMatched": "discard"}}]`,
			thenColl: "t", thenWant: `[{"_id": 1, "v": "new"}]`},
		{name: "whenMatched pipeline with $$new", ref: "manual: reference/operator/aggregation/merge (Use the Pipeline to Customize the Merge)",
			docs: `[{"_id": 1, "n": 5}]`, other: map[string]string{"t": `[{"_id": 1, "n": 1}]`},
			pipeline: `[{"$merge": {"into": "t", "whenMatched": [{"$set": {"n": {"$add": ["$n", "$$new.n"]}}}], "whenNotMatched": "insert"}}]`,
			thenColl: "t", thenWant: `[{"_id": 1, "n": 6}]`},
		// DocumentSourceMerge::create appends new: "$$ROOT" to a let lacking
		// it when whenNotMatched is insert; jstests/aggregation/sources/merge/
		// mode_pipeline_insert.js testMergeWithEmptyLetVariables.
		{name: "whenMatched pipeline: an empty let still has $$new under insert", ref: "src/mongo/db/pipeline/document_source_merge.cpp DocumentSourceMerge::create",
			docs: `[{"_id": 1, "a": 1, "b": 1}, {"_id": 2, "a": 2, "b": 2}]`, other: map[string]string{"t": `[{"_id": 1, "c": 1}]`},
			pipeline: `[{"$merge": {"into": "t", "let": {}, "whenMatched": [{"$project": {"x": "$$new.a", "y": "$$new.b"}}], "whenNotMatched": "insert"}}]`,
			thenColl: "t", thenWant: `[{"_id": 1, "x": 1, "y": 1}, {"_id": 2, "a": 2, "b": 2}]`},
		{name: "whenMatched pipeline: a let of its own keeps $$new under insert", ref: "src/mongo/db/pipeline/document_source_merge.cpp DocumentSourceMerge::create",
			docs: `[{"_id": 1, "a": 5}]`, other: map[string]string{"t": `[{"_id": 1, "c": 1}]`},
			pipeline: `[{"$merge": {"into": "t", "let": {"k": 10}, "whenMatched": [{"$set": {"x": {"$add": ["$$k", "$$new.a"]}}}], "whenNotMatched": "insert"}}]`,
			thenColl: "t", thenWant: `[{"_id": 1, "c": 1, "x": 15}]`},
		// The IDL parser takes a null optional field as absent (SERVER-41272):
		// mode_pipeline_insert.js testMergeWithNullLetVariables.
		{name: "whenMatched pipeline: a null let is no let", ref: "jstests/aggregation/sources/merge/mode_pipeline_insert.js testMergeWithNullLetVariables",
			docs: `[{"_id": 1, "a": 1, "b": 1}, {"_id": 2, "a": 2, "b": 2}]`, other: map[string]string{"t": `[{"_id": 1, "c": 1}]`},
			pipeline: `[{"$merge": {"into": "t", "let": null, "whenMatched": [{"$project": {"x": "$$new.a", "y": "$$new.b"}}], "whenNotMatched": "insert"}}]`,
			thenColl: "t", thenWant: `[{"_id": 1, "x": 1, "y": 1}, {"_id": 2, "a": 2, "b": 2}]`},
		{name: "whenMatched pipeline: without insert an explicit let has no $$new", ref: "src/mongo/db/pipeline/document_source_merge.cpp DocumentSourceMerge::create",
			docs: `[{"_id": 1, "a": 1}]`, other: map[string]string{"t": `[{"_id": 1, "c": 1}]`},
			pipeline: `[{"$merge": {"into": "t", "let": {}, "whenMatched": [{"$set": {"x": "$$new.a"}}], "whenNotMatched": "discard"}}]`,
			code:     17276},
		{name: "$out replaces the collection", ref: "manual: reference/operator/aggregation/out",
			docs: `[{"_id": 1, "a": 1}, {"_id": 2, "a": 2}]`, other: map[string]string{"t": `[{"_id": 9}]`},
			pipeline: `[{"$match": {"a": 2}}, {"$out": "t"}]`,
			want:     `[]`, thenColl: "t", thenWant: `[{"_id": 2, "a": 2}]`},
		{name: "$out must be last", ref: "manual: reference/operator/aggregation/out (Restrictions)",
			docs: `[{"_id": 1}]`, pipeline: `[{"$out": "t"}, {"$match": {}}]`,
			code: 40601, msg: "$out can only be the final stage in the pipeline"},
	})
}
